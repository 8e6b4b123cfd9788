"""Each gate row's outcome and interval: four outcomes, never a pass on a point
estimate that its own interval does not support.

A gate asks whether a measure lies within bounds. The point value alone cannot
say so when the value's interval reaches past a bound: then the data are
consistent with a value on the wrong side, and the outcome is ``inconclusive``.
The rules (docs/reference.md, "The verdict"):

- ``fail``: the point value is outside the bounds;
- ``inconclusive``: the point value is inside, but the interval at
  ``confidence.level`` crosses a bound;
- ``pass``: the point value is inside, and so is the interval (or no interval is
  computed for the measure: the row's ``interval`` is then null); a slice gap's
  size is read with its own interval (``gap_interval``);
- ``not_evaluated``: the value is undefined, or a gate on the change since the
  previous run has nothing to compare with (the first run of an archive).

``passed`` stays in each row, true only for ``pass``.

The interval of each gate is the one results.json already holds for the
value elsewhere (:func:`value_interval`): DeLong's for AUC, Wilson's for a rate
of unweighted counts, the percentile bootstrap's for the rest where the spec
computes one; a row that brings its own (a slice's, a change's) keeps it.
"""

from __future__ import annotations

import math

from ..metrics.proportion import PROPORTIONS, proportion_intervals

__all__ = ["OUTCOMES", "with_outcomes", "value_interval", "outcome", "gate_failed"]

#: the outcomes, best first
OUTCOMES = ("pass", "inconclusive", "not_evaluated", "fail")

def _pair(interval) -> list[float] | None:
    if interval is None:
        return None
    lo, hi = tuple(interval)
    if lo is None or hi is None:
        return None
    lo, hi = float(lo), float(hi)
    return [lo, hi] if math.isfinite(lo) and math.isfinite(hi) else None


def _counts(lr) -> list[float] | None:
    """(TP, FP, TN, FN) at the learner's threshold (binary), or None."""
    at = getattr(lr, "at_threshold", None)
    if at is None:
        return None
    try:
        return [float(getattr(at, k)) for k in ("tp", "fp", "tn", "fn")]
    except (AttributeError, TypeError):
        return None


def value_interval(lr, metric: str, level: float) -> list[float] | None:
    """The interval at ``level`` of ``lr``'s ``metric``, the one results.json holds
    for it elsewhere: DeLong's for AUC; Wilson's for a rate of the confusion
    matrix when its counts are whole (unweighted); else the percentile bootstrap's
    (``lr.bootstrap``) where the spec computed one; else None."""
    if metric == "auc" and getattr(lr, "auc_ci", None) is not None:
        ci = _pair(getattr(lr.auc_ci, "ci", None))
        if ci is not None:
            return ci
    if metric in PROPORTIONS:
        counts = _counts(lr)
        if counts is not None and all(float(v).is_integer() for v in counts):
            ci = proportion_intervals(counts, level)[metric]
            if ci is not None:
                return [float(ci[0]), float(ci[1])]
    boot = getattr(lr, "bootstrap", None) or {}
    return _pair(boot.get(metric))


def _bounds(row: dict) -> list[tuple[str, float]]:
    """The row's bounds on its ``value`` as (side, bound): side "min" or "max"."""
    out = []
    if row.get("min") is not None:
        out.append(("min", float(row["min"])))
    if row.get("max") is not None:
        out.append(("max", float(row["max"])))
    return out


def outcome(value, bounds: list[tuple[str, float]], interval) -> str:
    """The outcome of a value against its bounds (``("min", b)``, ``("max", b)``)
    and its interval (None: none computed). The value undefined: not_evaluated."""
    if value is None:
        return "not_evaluated"
    value = float(value)
    if any((side == "min" and value < b) or (side == "max" and value > b) for side, b in bounds):
        return "fail"
    if interval is not None:
        lo, hi = interval
        if any((side == "min" and lo < b) or (side == "max" and hi > b) for side, b in bounds):
            return "inconclusive"
    return "pass"


def _size_interval(interval) -> list[float] | None:
    """The interval of |x| from the interval of x (0 at its low end when it holds 0)."""
    if interval is None:
        return None
    lo, hi = interval
    return [0.0 if lo <= 0.0 <= hi else min(abs(lo), abs(hi)), max(abs(lo), abs(hi))]


def _change_interval(row: dict, history: dict | None, task: str | None) -> list[float] | None:
    """The interval of the change a gate on change reads (results.json's
    ``history.changes`` row of its learner and measure)."""
    from ..history.gates import change_measure

    measure = change_measure(row.get("metric"), task)
    for c in (history or {}).get("changes", []):
        if c.get("learner") == row.get("learner") and c.get("measure") == measure:
            return _pair(c.get("interval"))
    return None


def _row_outcome(row: dict, lr, level: float, history: dict | None,
                 task: str | None) -> tuple[str, list[float] | None]:
    """(outcome, interval) of one gate row."""
    if row.get("note") and row.get("value") is None:  # nothing to compare with, or too small a slice
        return "not_evaluated", None
    if "drift_since" in row or row.get("significant_drop"):
        # a bound on the drift, or a test of the change: the row's own decision, no interval
        if row.get("value") is None:
            return "not_evaluated", None
        return ("pass" if row.get("passed") else "fail"), None
    if "change_since" in row:  # max_drop: the worsening of the change against the bound
        # (the history package: only with a gate on change, which needs history: about 2 ms
        # of the start-up of a run without)
        from ..history.gates import worsening

        value, interval = row.get("value"), _change_interval(row, history, task)
        if value is None:
            return "not_evaluated", None
        worse = [worsening(row["metric"], float(x)) for x in interval] if interval else None
        bounds = [("max", float(row["max_drop"]))]
        return outcome(worsening(row["metric"], float(value)), bounds,
                       None if worse is None else [min(worse), max(worse)]), interval
    if "max_gap" in row:  # the gap's size and its interval at the bound, the value at its bounds
        value, gap = row.get("value"), row.get("gap")
        interval = _pair(row.get("interval"))
        if value is None or gap is None:
            return "not_evaluated", interval
        found = [outcome(abs(float(gap)), [("max", float(row["max_gap"]))],
                         _size_interval(_pair(row.get("gap_interval"))))]
        if _bounds(row):
            found.append(outcome(value, _bounds(row), interval))
        return max(found, key=("pass", "inconclusive", "fail").index), interval
    interval = _pair(row["interval"]) if "interval" in row else (
        value_interval(lr, row.get("metric"), level) if lr is not None else None)
    return outcome(row.get("value"), _bounds(row), interval), interval


def with_outcomes(rows: list[dict], learners: dict, level: float, history: dict | None = None,
                  task: str | None = "binary") -> list[dict]:
    """The gate rows, each with ``interval`` and ``outcome`` (and ``passed`` true only
    for ``pass``), in results.json's key order: what the row had, then interval,
    outcome, passed. ``learners``: results.json key -> learner result."""
    out = []
    for row in rows:
        result, interval = _row_outcome(row, learners.get(row.get("learner")), level, history, task)
        new = {k: v for k, v in row.items() if k not in ("passed", "outcome")}
        new["interval"] = interval  # where the row had one, in its place
        new["outcome"] = result
        new["passed"] = result == "pass"
        out.append(new)
    return out


def gate_failed(row: dict) -> bool:
    """Whether a gate row makes the run's exit status 3: failed, inconclusive, or
    not evaluated because its value is undefined (a gate that could not be checked).
    A gate on change with nothing to compare with (``note``) does not."""
    kind = row.get("outcome")
    if kind in ("fail", "inconclusive"):
        return True
    return kind == "not_evaluated" and not row.get("note")
