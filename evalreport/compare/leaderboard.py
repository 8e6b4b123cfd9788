"""The leaderboard's data: every learner of a data set ranked by the spec's
primary measure, with its interval and the paired test *of that measure*
against the best learner (results.json's ``leaderboard``), and the challengers'
tests against the deployed learner (:mod:`.challengers`).

A pure function of a :class:`~evalreport.result.Result`: the verdict (an
evaluation-level module) reads it without importing the report.

The test is the one that tests the measure ranked (:func:`test_for`):

* AUC: DeLong's paired test (its structural components);
* accuracy, error rate: McNemar's test of the decisions at each learner's
  threshold (the very measure McNemar's test compares: the share of errors);
* every other measure (the costs, AP, BEP, F1, the Brier score, the ECE, ...):
  the paired bootstrap of the difference, both learners measured on the same
  resampled rows (compare.stats.paired_bootstrap: the two-sided p-value is
  ``min(1, 2 min(#{d* <= 0}, #{d* >= 0}) / B)``).

Where DeLong's or McNemar's test was not computed (the spec's ``compare:``
leaves it out) the paired bootstrap stands in when the run has it. The p-values
against the best are adjusted by Holm's method over those comparisons with the
best (a family of k - 1 tests: the question is "who is worse than the best").
"""

from __future__ import annotations

import math

from .. import registry
from .stats.holm import holm
from .stats.paired_bootstrap import paired_difference

__all__ = ["rank_measure", "test_for", "leaderboard", "leaderboard_block", "resampled", "TEST_WORDS",
           "LEADERBOARD_MIN", "leaderboard_warnings"]

#: the tests by name, in words (the report, the verdict)
TEST_WORDS = {"delong": "DeLong's paired test of the AUCs",
              "mcnemar": "McNemar's test of the decisions",
              "paired_bootstrap": "the paired bootstrap of the difference"}


def rank_measure(spec) -> str:
    """The measure the leaderboard ranks by: :func:`evalreport.spec.rank_measure`
    (the spec's ``rank_by``, else the cost of the deployed threshold at the
    operating point when the spec gives costs, else AUC), with a multi-class
    task's binary names read as their multi-class counterparts (``auc``: macro
    AUC, one scalar per learner)."""
    from ..spec import rank_measure as spec_rank_measure

    name = spec_rank_measure(spec)
    if (spec.task or "binary") == "multiclass":
        name = registry.reads(name, "multiclass")  # the registry's alias: its macro counterpart
    return name


def test_for(name: str, task: str = "binary") -> str:
    """The test of measure ``name``: "delong" (binary AUC), "mcnemar" (accuracy,
    error rate) or "paired_bootstrap" (every other measure)."""
    if name == "auc" and task == "binary":
        return "delong"
    if name in ("accuracy", "error_rate"):
        return "mcnemar"
    return "paired_bootstrap"


def resampled(comparison, name: str) -> dict:
    """{learner key: its values of ``name`` in the paired resamples} of one data
    set's comparisons ({} where not computed)."""
    r = getattr(comparison, "resamples", None)
    return {} if r is None else dict(r.values.get(name) or {})


def _interval(lr, name: str):
    """(low, high) of the measure's interval, or (None, None): DeLong's for AUC,
    else the bootstrap's when the spec computed one for this measure."""
    ci = None
    if name == "auc" and getattr(lr, "auc_ci", None) is not None:
        ci = lr.auc_ci.ci
    if ci is None:
        ci = (getattr(lr, "bootstrap", None) or {}).get(name)
    if ci is None or None in tuple(ci):
        return None, None
    low, high = ci
    return float(low), float(high)


def _p(tests: dict, a: str, b: str, which: str):
    """The p-value of test ``which`` of the pair (a, b) in either order (None: not run
    or undefined)."""
    t = tests.get((a, b)) or tests.get((b, a))
    test = getattr(t, which, None) if t is not None else None
    return None if test is None else test.p_value


def _defined(value):
    """The value as a float, None when undefined (None, NaN, infinite)."""
    if value is None or not math.isfinite(float(value)):
        return None
    return float(value)


def _ordered(keys: list[str], values: dict, higher: bool) -> list[str]:
    """Best first; undefined values last; ties in the learners' order (as the rankings)."""
    defined = [k for k in keys if values[k] is not None]
    order = sorted(defined, key=lambda k: (-values[k] if higher else values[k], keys.index(k)))
    return order + [k for k in keys if values[k] is None]


def _test_used(result, name: str) -> str | None:
    """The test the block uses: the measure's own (:func:`test_for`) where the run
    computed it, else the paired bootstrap where the run has it, else None."""
    task = result.spec.task or "binary"
    wanted = test_for(name, task)
    if wanted in ("delong", "mcnemar") and any(getattr(t, wanted) is not None
                                               for c in result.comparisons for t in c.tests):
        return wanted
    if any(resampled(c, name) for c in result.comparisons):
        return "paired_bootstrap"
    return None


def leaderboard(result) -> dict:
    """results.json's ``leaderboard`` block: the one the pipeline built
    (``Result.leaderboard``), which results.json, the warnings and the report read;
    built here for a result that has none (:func:`leaderboard_block`)."""
    block = result.leaderboard
    return leaderboard_block(result) if block is None else block


def leaderboard_block(result) -> dict:
    """results.json's ``leaderboard`` block: {rank_by, direction, test, rows,
    indistinguishable_from_best, untested}, each row {learner, rank, value, low,
    high, p_vs_best, p_holm_vs_best} (with ``dataset`` when there are several),
    best first within each data set. Null where a value is undefined: the value
    (ranked last, no rank), an interval the run did not compute, the best's own
    p (it is not tested against itself) and a p whose test was not run or is
    undefined. ``indistinguishable_from_best``: the learners (not the best) whose
    Holm-adjusted p against their data set's best is >= 1 - confidence.level;
    ``untested``: those whose p is null."""
    name = rank_measure(result.spec)
    measure = registry.get(name)
    higher = measure.direction != "lower"
    alpha = 1 - result.spec.confidence.level
    comps = {c.dataset: c for c in result.comparisons}
    by_dataset: dict = {}
    for key, lr in result.learners.items():
        by_dataset.setdefault(lr.dataset, []).append(key)
    several = len(by_dataset) > 1
    test = _test_used(result, name)
    rows, alike, untested = [], [], []
    for dataset, keys in by_dataset.items():
        values = {k: _defined(result.learners[k].values.get(name)) for k in keys}
        ranked = _ordered(keys, values, higher)
        comp = comps.get(dataset)
        tests = {(t.a, t.b): t for t in comp.tests} if comp is not None else {}
        draws = resampled(comp, name) if comp is not None else {}
        best = ranked[0] if values[ranked[0]] is not None else None

        def p_vs_best(k):
            if best is None or k == best or test is None:
                return None
            if test == "paired_bootstrap":
                if k not in draws or best not in draws:
                    return None
                return paired_difference(values[k], values[best], draws[k], draws[best]).p_value
            return _p(tests, best, k, test)

        p = {k: p_vs_best(k) for k in ranked}
        adjusted = dict(zip(ranked, holm([p[k] for k in ranked])))
        rank, previous = 0, object()
        for i, k in enumerate(ranked):
            if values[k] != previous:
                rank, previous = i + 1, values[k]  # ties share the rank ("1, 2, 2, 4")
            low, high = _interval(result.learners[k], name)
            rows.append({**({"dataset": dataset} if several else {}), "learner": k,
                         "rank": rank if values[k] is not None else None, "value": values[k],
                         "low": low, "high": high, "p_vs_best": p[k], "p_holm_vs_best": adjusted[k]})
            if k == best:
                continue
            if adjusted[k] is None:
                untested.append(k)
            elif adjusted[k] >= alpha:
                alike.append(k)
    return {"rank_by": name, "direction": measure.direction, "test": test, "rows": rows,
            "indistinguishable_from_best": alike, "untested": untested}


#: the report shows the leaderboard from this many learners on (in one data set or in all)
LEADERBOARD_MIN = 5


def leaderboard_warnings(result) -> list[str]:
    """Why a value of the block is null, where the run's other warnings do not say
    it: a learner whose value is undefined (ranked last), and no paired test to
    compare with the best. Said where the report shows the leaderboard (from
    :data:`LEADERBOARD_MIN` learners on); below, the block's nulls are those of
    the measures and tests the run's warnings already name, and a report of a
    few learners stays as it was."""
    if len(result.learners) < LEADERBOARD_MIN:
        return []
    block = leaderboard(result)
    label = registry.get(block["rank_by"]).label
    out = [f"leaderboard: learner '{r['learner']}': {label} is undefined: ranked last, without a rank"
           for r in block["rows"] if r["value"] is None]
    if block["test"] is None and len(block["rows"]) > 1:
        out.append(f"leaderboard: no paired test of {label} against the best learner ({_no_test_why(result, block)}): "
                   "p_vs_best is null")
    return out


def _no_test_why(result, block: dict) -> str:
    """Why the block has no test: its measure's test was not computed, nor the paired bootstrap."""
    wanted = test_for(block["rank_by"], result.spec.task or "binary")
    if wanted != "paired_bootstrap":
        return (f"the spec's compare: leaves out {wanted}, and the paired bootstrap is not computed: "
                "confidence.bootstrap is 0, or the data are weighted or aggregated")
    if not result.spec.confidence.bootstrap:
        return "its test is the paired bootstrap, and confidence.bootstrap is 0"
    return ("its test is the paired bootstrap, which needs the instances, unit weights and a bootstrap "
            "statistic of the measure")
