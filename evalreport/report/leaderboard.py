"""The leaderboard: every learner of a data set ranked by the spec's primary
measure, with its interval and the paired test against the best learner.

"Which of the twenty runs is best, and is it better than the others?" is the
question a report of many runs answers first. The leaderboard is that table:
the learners sorted by one measure (``rank_by``; :func:`rank_measure`), the
measure's interval (DeLong's for AUC, the percentile bootstrap's where the spec
computes one, else none), and the p-value of the paired test of each learner
against the best one, adjusted by Holm's method over those comparisons with the
best (a family of k - 1 tests, not the k(k - 1)/2 of every pair: the question is
"who is worse than the best", so only those tests are made part of the family).

The test is the one that tests the measure: DeLong's for the measures read off
the ROC curve (AUC), McNemar's for the measures of decisions at a threshold
(costs, F1, accuracy); each as the run computed it (the spec's ``compare:``).
Where the test the measure asks for was not computed, the other one computed is
used and the block says which (``test``); where none was, p is null.

results.json always holds the block (:func:`leaderboard`); the report shows it
from :data:`LEADERBOARD_MIN` learners on (:func:`leaderboard_section`): with
four learners the headline table on page one already is a leaderboard.
"""

from __future__ import annotations

import weakref

from .. import registry
from ..compare.stats.holm import holm

__all__ = ["LEADERBOARD_MIN", "rank_measure", "leaderboard", "leaderboard_warnings", "leaderboard_section",
           "leaderboard_context"]

#: the report shows the leaderboard from this many learners on (in one data set or in all)
LEADERBOARD_MIN = 5

#: a binary measure's name given to a multi-class task: its macro counterpart (the
#: registry lists "auc" for multi-class tasks too, as each class's one-vs-rest AUC)
_MACRO = {"auc": "macro_auc", "f1": "macro_f1", "min_cost": "cost_sensitive_error"}


def rank_measure(spec) -> str:
    """The measure the leaderboard ranks by: :func:`evalreport.spec.rank_measure`
    (the spec's ``rank_by``, else the expected cost at the operating point when
    the spec gives costs, else AUC), with a multi-class task's ``auc`` read as its
    macro AUC (one scalar per learner)."""
    from ..spec import rank_measure as spec_rank_measure

    name = spec_rank_measure(spec)
    if (spec.task or "binary") == "multiclass":
        name = _MACRO.get(name, name)
    return name


def _tests_for(measure) -> tuple[str, ...]:
    """The tests in the order of preference for ranking by ``measure``: DeLong's for
    AUC (and, as the nearest paired test of the curves the run has, for the other
    measures of the ranking: BEP, AP, partial AUC; the report names the test it
    used, "DeLong's test of AUC"), McNemar's for the decisions at a threshold."""
    if measure.kind == "threshold_free" and measure.name in ("auc", "macro_auc", "bep", "average_precision",
                                                            "partial_auc"):
        return ("delong", "mcnemar")
    return ("mcnemar", "delong")


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
    import math

    if value is None or not math.isfinite(float(value)):
        return None
    return float(value)


def _ordered(keys: list[str], values: dict, higher: bool) -> list[str]:
    """Best first; undefined values last; ties in the learners' order (as the rankings)."""
    defined = [k for k in keys if values[k] is not None]
    order = sorted(defined, key=lambda k: (-values[k] if higher else values[k], keys.index(k)))
    return order + [k for k in keys if values[k] is None]


def leaderboard(result) -> dict:
    """results.json's ``leaderboard`` block, computed once per result (:func:`_leaderboard`)."""
    if result not in _BLOCKS:
        _BLOCKS[result] = _leaderboard(result)
    return _BLOCKS[result]


#: result -> its leaderboard block: results.json, the warnings and the report read the same one
_BLOCKS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def carry_leaderboard(old, new) -> None:
    """``new`` (``old`` with other gates, history or verdict) has ``old``'s block."""
    if old in _BLOCKS:
        _BLOCKS[new] = _BLOCKS[old]


def _leaderboard(result) -> dict:
    """results.json's ``leaderboard`` block: {rank_by, direction, test, rows}, each
    row {learner, rank, value, low, high, p_vs_best, p_holm_vs_best} (with
    ``dataset`` when there are several), best first within each data set. Null
    where a value is undefined: the value (ranked last, no rank), an interval the
    run did not compute, the best's own p (it is not tested against itself) and a
    p whose test was not run or is undefined."""
    name = rank_measure(result.spec)
    measure = registry.get(name)
    higher = measure.direction != "lower"
    order = _tests_for(measure)
    comps = {c.dataset: c for c in result.comparisons}
    by_dataset: dict = {}
    for key, lr in result.learners.items():
        by_dataset.setdefault(lr.dataset, []).append(key)
    several = len(by_dataset) > 1
    computed = {w for c in result.comparisons for t in c.tests for w in ("delong", "mcnemar")
                if getattr(t, w) is not None}
    test = next((w for w in order if w in computed), None)
    rows = []
    for dataset, keys in by_dataset.items():
        values = {k: _defined(result.learners[k].values.get(name)) for k in keys}
        ranked = _ordered(keys, values, higher)
        comp = comps.get(dataset)
        tests = {(t.a, t.b): t for t in comp.tests} if comp is not None else {}
        best = ranked[0] if values[ranked[0]] is not None else None
        p = {k: (_p(tests, best, k, test) if best is not None and k != best and test else None) for k in ranked}
        adjusted = dict(zip(ranked, holm([p[k] for k in ranked])))
        rank, previous = 0, object()
        for i, k in enumerate(ranked):
            if values[k] != previous:
                rank, previous = i + 1, values[k]  # ties share the rank ("1, 2, 2, 4")
            low, high = _interval(result.learners[k], name)
            rows.append({**({"dataset": dataset} if several else {}), "learner": k,
                         "rank": rank if values[k] is not None else None, "value": values[k],
                         "low": low, "high": high, "p_vs_best": p[k], "p_holm_vs_best": adjusted[k]})
    return {"rank_by": name, "direction": measure.direction, "test": test, "rows": rows}


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
        out.append("leaderboard: no paired test against the best learner (the spec's compare: names neither "
                   "delong nor mcnemar, or the data are weighted or aggregated): p_vs_best is null")
    return out


def leaderboard_section(result, block: dict, styles: dict) -> dict | None:
    """The report's leaderboard (None below :data:`LEADERBOARD_MIN` learners): the
    rows of the block as text under the number policy, with the task's other
    ranked measures beside the primary one."""
    from .format import UNDEFINED, Column, measure_interval_text, measure_text, p_value_text

    if len(result.learners) < LEADERBOARD_MIN:
        return None
    name = block["rank_by"]
    measure = registry.get(name)
    task = result.spec.task or "binary"
    others = [m for m in registry.ranked(task) if m.name != name
              and any(lr.values.get(m.name) is not None for lr in result.learners.values())]
    level = result.spec.confidence.level
    alpha = 1 - level
    rows = []
    for r in block["rows"]:
        lr = result.learners[r["learner"]]
        interval = (r["low"], r["high"]) if r["low"] is not None else None
        value = measure_interval_text(name, r["value"], interval)
        p, ph = r["p_vs_best"], r["p_holm_vs_best"]
        if r["rank"] == 1 and p is None and r is _first(block, r):
            vs = "best"
        elif p is None:
            vs = UNDEFINED if block["test"] else "—"
        else:
            vs = p_value_text(ph) if ph is not None else UNDEFINED
        rows.append({"dataset": r.get("dataset", ""), "rank": str(r["rank"]) if r["rank"] is not None else "—",
                     "learner": r["learner"], "color": styles.get(r["learner"], {}).get("color", "#b0b0b0"),
                     "value": value, "others": [measure_text(m.name, lr.values.get(m.name)) for m in others],
                     "vs_best": vs, "significant": ph is not None and ph < alpha})
    test = {"delong": "DeLong's test of AUC", "mcnemar": "McNemar's test of the decisions"}.get(block["test"])
    worse = sum(r["significant"] for r in rows)
    arrow = {"higher": "higher is better", "lower": "lower is better"}.get(block["direction"], "")
    better = "" if measure.direction == "none" else measure.direction
    columns = [Column(name, measure.label + (f" [{_interval_words(result, name)}]" if _interval_words(result, name)
                                             else ""), better)]
    columns += [Column(m.name, m.label, "" if m.direction == "none" else m.direction) for m in others]
    return {
        "columns": columns,
        "measure": measure.label, "direction": arrow,
        "interval": _interval_words(result, name),
        "others": [m.label for m in others], "rows": rows, "several": any(r["dataset"] for r in rows),
        "test": test or "", "significant": worse, "alpha": f"{alpha:g}",
        # the comparisons with the best: each data set's learners but its best
        "compared": len(rows) - len({r["dataset"] for r in rows}),
        "rule": f"from {LEADERBOARD_MIN} learners on",
    }


def _first(block: dict, row: dict) -> dict:
    """The first row of ``row``'s data set (its best learner)."""
    return next(r for r in block["rows"] if r.get("dataset") == row.get("dataset"))


def _interval_words(result, name: str) -> str:
    if name == "auc" and any(getattr(lr, "auc_ci", None) is not None for lr in result.learners.values()):
        return "DeLong's interval"
    if any(name in (getattr(lr, "bootstrap", None) or {}) for lr in result.learners.values()):
        return "percentile-bootstrap interval"
    return ""


def leaderboard_context(result) -> dict | None:
    """The report's leaderboard section (None below :data:`LEADERBOARD_MIN` learners),
    with, when the figures summarise (report/summary.py), the ROC curves of the
    learners they draw over the band of the rest (evalreport/run_figures.py)."""
    from .summary import shown_learners, shown_styles

    shown = shown_learners(result)
    section = leaderboard_section(result, leaderboard(result), shown_styles(result, shown))
    if section is None:
        return None
    section["figure"], section["figure_caption"] = "", ""
    if shown is not None and (result.spec.task or "binary") == "binary":
        from markupsafe import Markup

        from ..run_figures import roc_band_figure

        svg, caption = roc_band_figure(result, shown, shown_styles(result, shown))
        if svg:
            section["figure"], section["figure_caption"] = Markup(svg), caption
    return section
