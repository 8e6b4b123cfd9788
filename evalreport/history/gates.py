"""The gates on the change since the previous run (``max_drop``,
``significant_drop``, ``drift``), evaluated on the changes of two runs
(:func:`evalreport.history.changes.changes`).

Pure: the spec's gates and the changes in, gate rows out, in the shape of
:func:`evalreport.pipeline.check_gates`'s (``learner``, ``metric``, ``value``,
the bound, ``passed``), so that the exit status, the lines on stderr and the
verdict's gate box treat them as any other gate. A row says what it measured:
``change_since`` (the previous run's date: ``value`` is the change of the metric)
or ``drift_since`` (``value`` is the drift of the scores).

Without a previous run (the first run of an archive), or for a learner the
previous run did not have, there is nothing to compare with: the gate passes,
its value is null and its ``note`` says why. A change that is undefined (an AUC
undefined in either run) fails the gate with a warning, as an undefined value
fails any other gate.
"""

from __future__ import annotations

from .. import registry

__all__ = ["change_gates", "change_measure", "NO_PREVIOUS", "NOT_IN_PREVIOUS", "worsening"]

#: the note of a gate on change when the archive holds no earlier run
NO_PREVIOUS = "no previous run to compare with"
#: the note of a gate on change for a learner the previous run did not have
NOT_IN_PREVIOUS = "the learner is not in the previous run"


def change_measure(metric: str, task: str | None) -> str:
    """The ``measure`` of the changes' row a gate on ``metric`` reads: the registry's
    alias for the task (a multi-class task's ``f1`` gate reads Zhou's macro-F1, whose
    row is ``macro_f1``); any other metric its own row."""
    return registry.reads(metric, task or "binary")


def worsening(metric: str, change: float) -> float:
    """How much worse ``metric`` got by ``change`` (current - previous): the fall of
    a measure where higher is better, the rise of one where lower is better (a cost)."""
    return change if registry.get(metric).direction == "lower" else -change


def _significant_worse(metric: str, entry: dict, alpha: float) -> bool | None:
    """Whether the change of ``entry`` is a significant worsening: its Holm-adjusted
    p-value (``p_holm``, over the changes tested in the run: the family the report
    calls changes in) below ``alpha`` and the change the worse way; or, without a
    p-value, its interval of the change wholly on the worse side of 0. None: the
    change has no test."""
    change = entry.get("change")
    if change is None:
        return None
    p = entry.get("p_holm", entry.get("p_value"))  # p_value: a row made before p_holm was
    if p is not None:  # bool(): a NumPy p-value gives a NumPy boolean
        return bool(p < alpha and worsening(metric, change) > 0)
    interval = entry.get("interval")
    if interval is None or None in tuple(interval):
        return None
    return bool(min(worsening(metric, float(x)) for x in interval) > 0)


def change_gates(gates, learners, history: dict | None, *, level: float,
                 task: str | None = "binary") -> tuple[list[dict], list[tuple]]:
    """Gate rows of the gates on change among ``gates`` (the spec's), for ``learners``
    ((name, results.json key) pairs, in the result's order), on ``history`` (the
    changes of :func:`~evalreport.history.changes.changes`; None: no previous run).
    ``level``: the confidence level (a significant drop has p < 1 - level).
    ``task``: the spec's (a multi-class ``f1`` gate reads the ``macro_f1`` row).

    Returns the rows and the warnings, each (text, learner key, measure)."""
    alpha = round(1 - level, 10)
    since = None if history is None else (history.get("previous") or {}).get("date")
    by_change = {(c.get("learner"), c.get("measure")): c for c in (history or {}).get("changes", [])}
    by_drift = _drift_by_learner((history or {}).get("drift", []))
    rows: list[dict] = []
    warnings: list[tuple] = []
    for gate in gates:
        if not gate.on_change:
            continue
        for name, key, *dataset in learners:
            if gate.learner not in (None, name) or (dataset and gate.dataset not in (None, dataset[0])):
                continue
            significant = None
            if gate.drift is not None:
                row = {"learner": key, "metric": gate.drift, "drift_since": since}
                entry = by_drift.get(key)
                value = None if entry is None else entry.get(gate.drift)
                if entry is not None and "class" in entry:  # multi-class: the worst class's drift
                    row["class"] = entry["class"][gate.drift]
                bound = {"max": gate.max}
                passed = value is not None and value <= gate.max
            else:
                row = {"learner": key, "metric": gate.metric, "change_since": since}
                entry = by_change.get((key, change_measure(gate.metric, task)))
                value = None if entry is None else entry.get("change")
                if gate.max_drop is not None:
                    bound = {"max_drop": gate.max_drop}
                    passed = value is not None and worsening(gate.metric, value) <= gate.max_drop
                else:
                    bound = {"significant_drop": True}
                    significant = None if entry is None else _significant_worse(gate.metric, entry, alpha)
                    row["p_value"] = None if entry is None else entry.get("p_value")
                    row["p_holm"] = None if entry is None else entry.get("p_holm")
                    passed = significant is not None and not significant
            note = None
            if history is None:
                note = NO_PREVIOUS
            elif entry is None or entry.get("only_in") == "current" or (
                    entry.get("previous", 0) is None and value is None):
                note = NOT_IN_PREVIOUS
            row["value"] = value
            row.update(bound)
            if note is not None:  # nothing to compare with: not a failure
                row["note"] = note
                passed = True
            row["passed"] = bool(passed)
            rows.append(row)
            if not passed:
                measure = gate.drift or gate.metric
                if value is None:
                    warnings.append((f"gate on the {_what(gate)} of learner '{key}' fails: the value is "
                                     "undefined", key, measure))
                elif gate.significant_drop and significant is None:
                    warnings.append((f"gate on the {_what(gate)} of learner '{key}' fails: the change has no "
                                     "test of significance", key, measure))
    return rows, warnings


def _drift_by_learner(drift: list[dict]) -> dict:
    """learner -> its drift row. A multi-class task has one row per class: the
    gate bounds the worst class, so the learner's entry is the row of the class
    with the largest PSI and the largest KS (each measure its own worst class),
    its ``class`` naming that class; undefined (None) as soon as one class's is,
    since an undefined drift fails the gate as an undefined value does."""
    out: dict = {}
    for d in drift:
        key = d.get("learner")
        if "class" not in d:
            out[key] = d
            continue
        out.setdefault(key, []).append(d)
    for key, rows in out.items():
        if not isinstance(rows, list):
            continue
        entry = {"learner": key, "class": {}, "only_in": rows[0].get("only_in")}
        for measure in ("psi", "ks"):
            values = [r.get(measure) for r in rows]
            if any(v is None for v in values):
                entry[measure] = None
                entry["class"][measure] = None
                continue
            worst = max(range(len(rows)), key=lambda i: values[i])
            entry[measure] = values[worst]
            entry["class"][measure] = rows[worst].get("class")
        out[key] = entry
    return out


def _what(gate) -> str:
    if gate.drift is not None:
        return f"drift ({gate.drift}) of the scores"
    return f"change of {gate.metric}"
