"""Sentences of the verdict shared by the tasks' reports: the recommendation that
opens page one (what to deploy, and why), the gates in brief, where two ROC
curves cross (who is above on each interval of FPR) and where the rankings
disagree (which measures order which pair of learners differently)."""

from __future__ import annotations

from .. import registry
from ..words import and_join
from .format import cost, fmt, rate

__all__ = ["fpr_bounds", "interval_phrases", "ranking_sentence", "recommendation", "gates_summary",
           "GATES_LISTED"]

#: intervals listed in a sentence before "and N more" (results.json lists all)
SHOWN = 6
#: the pairs whose disagreeing rankings page one spells out (each names its measures)
DISAGREEMENTS_SHOWN = 3


def fpr_bounds(values) -> list[str]:
    """The interval ends as text: 3 significant digits, more where two consecutive
    ends would otherwise read the same (an interval one negative wide among
    thousands must not print as [0.112, 0.112])."""
    values = list(values)
    for digits in range(3, 17):
        text = [fmt(v, digits) for v in values]
        if all(x != y for x, y in zip(text, text[1:])):
            return text
    return text


def _negatives(lo: float, hi: float, n_neg) -> str:
    """' (1 negative)' when the interval is a few negatives wide (FPR = FP / m-)."""
    if not isinstance(n_neg, int) or n_neg <= 0:
        return ""
    k = (hi - lo) * n_neg
    if abs(k - round(k)) > 1e-6 or round(k) > 3:
        return ""
    k = round(k)
    return f" ({k} negative{'s' if k != 1 else ''})"


def interval_phrases(intervals, words: dict, n_neg=None, *, limit: int = SHOWN) -> list[str]:
    """Who is above where, one phrase per side: 'x above on (lo, hi), (lo, hi)'
    (inside each open interval; the curves meet at its ends), then 'equal on the
    rest' where they coincide somewhere. ``words``: what to say for "a" and "b"
    above, in the order to say them, and for where they coincide (e.g. {"a":
    "logistic above", "b": "forest above", "equal": "equal on the rest"}); at most ``limit``
    intervals a side, then how many more. ``n_neg``: the data's negatives when
    every FPR is a count over them (unweighted), to say how many negatives wide
    a short interval is."""
    ends = fpr_bounds([intervals[0].fpr_from, *(i.fpr_to for i in intervals)]) if intervals else []
    out = []
    for side in [k for k in words if k in ("a", "b")]:
        mine = [k for k, iv in enumerate(intervals) if iv.above == side]
        if not mine:
            continue
        shown = [f"({ends[k]}, {ends[k + 1]}){_negatives(intervals[k].fpr_from, intervals[k].fpr_to, n_neg)}"
                 for k in mine[:limit]]
        if len(mine) > limit:
            shown.append(f"{len(mine) - limit} more")
        out.append(f"{words[side]} on {', '.join(shown)}")
    if any(iv.above == "equal" for iv in intervals):
        out.append(words.get("equal", "equal on the rest"))
    return out


def agreed_ranking(rankings: list[dict]) -> dict | None:
    """The one order of the report's rankings (rows ``{dataset, measure, order}``)
    when every measure orders every learner alike in a single data set: then the
    report says it in a line, ``{"order", "measures"}``, rather than repeat the
    same order in a row per measure; else None (the table)."""
    if not rankings or len({r["order"] for r in rankings}) != 1 or any(r["dataset"] for r in rankings):
        return None
    return {"order": rankings[0]["order"], "measures": and_join([r["measure"] for r in rankings])}


def ranking_sentence(comp, label: dict, where: str = "") -> str:
    """Whether the rankings order the learners the same way, and if not, which
    measures order which pair differently (``label``: registry name -> text)."""
    if not comp.rankings:
        return ""
    if comp.rankings_agree:
        names = ", ".join(label[r.measure] for r in comp.rankings)
        partial = any(len(r.order) < len(comp.learners) for r in comp.rankings)
        aside = " (among the learners each one has a value for)" if partial else ""
        return f"Every ranking{where} ({names}) orders the learners the same way{aside}."
    parts = []
    for d in comp.disagreements[:DISAGREEMENTS_SHOWN]:
        ma, mb = [label[m] for m in d.prefer_a], [label[m] for m in d.prefer_b]
        parts.append(f"{and_join(ma)} rank{'s' if len(ma) == 1 else ''} {d.a} above {d.b}, "
                     f"{and_join(mb)} rank{'s' if len(mb) == 1 else ''} {d.b} above {d.a}")
    if len(comp.disagreements) > DISAGREEMENTS_SHOWN:
        parts.append(f"{len(comp.disagreements) - DISAGREEMENTS_SHOWN} more pairs (results.json lists them)")
    return f"The rankings{where} disagree: {'; '.join(parts)}."


#: past this many gate rows, page one lists only the failed ones (and counts the rest)
GATES_LISTED = 6

_NUMBERS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
            10: "ten"}


def _n(k: int) -> str:
    return _NUMBERS.get(k, str(k))


def gates_summary(gates: list[dict]) -> tuple[str, list[dict]]:
    """The gates in brief: the summary line and the rows to list (``gates``: dicts
    with "passed" and "text"). Up to GATES_LISTED rows, all are listed; past that,
    only the failed ones ("33 of 36 gates passed; failed:"), the rest counted."""
    if not gates:
        return "No gates were set.", []
    failed = [g for g in gates if not g["passed"]]
    n = len(gates)
    if not failed:
        return (f"All {n} gates passed." if n > 1 else "The gate passed."), (gates if n <= GATES_LISTED else [])
    if n <= GATES_LISTED:
        return f"{len(failed)} of {n} gates FAILED.", gates
    return f"{n - len(failed)} of {n} gates passed; failed:", failed


def _failed_learners(result) -> list[str]:
    """The learners (in the result's order) with at least one failed gate."""
    failed = {g["learner"] for g in result.gates if not g["passed"]}
    return [k for k in result.learners if k in failed]


def _gate_clause(result) -> tuple[str, set[str]]:
    """The gates' opening words (said first when a gate fails) and the learners
    that pass every gate of theirs."""
    failing = _failed_learners(result)
    passing = {k for k in result.learners if k not in failing}
    if not failing:
        return "", passing
    n = sum(not g["passed"] for g in result.gates)
    gates = f"{n} of {len(result.gates)} gates failed"
    if not passing:
        return f"No learner passes every gate ({gates}, by {and_join(failing)}). ", passing
    return f"Gates failed: {n} of {len(result.gates)}, by {and_join(failing)}; among the others: ", passing


def _envelopment_clause(comp, key: str) -> str:
    """"its ROC curve envelops two of the other three" (or every other's, or none)."""
    others = [k for k in comp.learners if k != key]
    if not others or not comp.pairs:
        return ""
    won = len(comp.envelops().get(key, ()))
    if won == 0:
        return ("; its ROC curve crosses the other's" if len(others) == 1 else
                "; its ROC curve envelops none of the others'") + " (the comparisons say where)"
    if won == len(others):
        return ("; its ROC curve envelops the other's" if won == 1 else
                f"; its ROC curve envelops all {_n(won)} others'")
    return f"; its ROC curve envelops {_n(won)} of the other {_n(len(others))}"


def _binary_recommendation(result, comp, where: str, eligible: set[str]) -> str:
    op = result.operating_point
    stated = "At the stated priors and costs" if op.p_positive_source == "priors" else \
        "At the data's class share and the stated costs"
    stated += where
    costs = {k: result.learners[k].operating.min_cost for k in comp.learners
             if result.learners[k].operating is not None and result.learners[k].operating.min_cost is not None}
    pool = {k: v for k, v in costs.items() if k in eligible}
    if not pool:
        return ""
    best = min(pool, key=lambda k: (pool[k], list(comp.learners).index(k)))
    lr = result.learners[best]
    at = "(hard decisions)" if lr.hard else f"at threshold {lr.threshold_text(lr.operating.threshold)}"
    order = sorted(costs.values())
    rank = "the lowest" if pool[best] == order[0] else "the lowest of those that pass every gate"
    of = f" of {_n(len(costs))}" if len(costs) > 1 and rank == "the lowest" else ""
    return (f"{stated}, deploy {best} {at}: expected cost {cost(pool[best])} (normalised, PC(+) = "
            f"{rate(op.pc_positive)}), {rank}{of}{_envelopment_clause(comp, best)}.")


def _multiclass_recommendation(result, comp, where: str, eligible: set[str], label: dict) -> str:
    ranking = next((r for r in comp.rankings if r.order), None)
    if ranking is None:
        return ""
    order = [k for k in ranking.order if k in eligible]
    if not order:
        return ""
    best, name = order[0], label.get(ranking.measure, ranking.measure)
    value = ranking.values[best]
    text = f"By {name}{where}, {best} is best: {rate(value)}"
    if len(order) > 1:
        second = order[1]
        gap = abs(value - ranking.values[second])
        text += f", {rate(gap)} ahead of {second} ({rate(ranking.values[second])})"
    return text + "."


def recommendation(result) -> str:
    """The sentence that opens page one: what to do. Failed gates first; then for a
    binary task the learner of least expected cost at the operating point among
    those that pass every gate, with its threshold and cost and what its ROC curve
    envelops; for a multi-class task the best by the task's first ranking and its
    margin over the runner-up; one clause per data set, and Friedman's best
    across data sets. Every number under the report's policy (format.py)."""
    opening, eligible = _gate_clause(result)
    if not eligible:
        eligible = set(result.learners)  # still say which is best, after saying none passes
        opening += "Setting the gates aside: "
    task = result.task.name if result.task is not None else "binary"
    label = {m.name: m.ranking_label for m in registry.ranked(task)}
    parts = []
    comps = [c for c in result.comparisons if c.learners]
    if not comps and len(result.learners) == 1:
        (key, lr), = result.learners.items()
        if task == "binary" and lr.operating is not None and lr.operating.min_cost is not None:
            at = "(hard decisions)" if lr.hard else f"at threshold {lr.threshold_text(lr.operating.threshold)}"
            parts.append(f"One learner: {key} {at}, expected cost {cost(lr.operating.min_cost)} (normalised, "
                         f"PC(+) = {rate(result.operating_point.pc_positive)}).")
        elif task != "binary":
            parts.append(f"One learner: {key}, accuracy {rate(lr.evaluation.accuracy)}.")
    for comp in comps:
        where = f" on {comp.dataset}" if comp.dataset and len(comps) > 1 else ""
        if task == "binary":
            sentence = _binary_recommendation(result, comp, where, eligible)
        else:
            sentence = _multiclass_recommendation(result, comp, where, eligible, label)
        if sentence:
            parts.append(sentence)
    if result.friedman is not None:
        f, fr = result.friedman, result.friedman.friedman
        best = f.learners[min(range(len(f.learners)), key=lambda i: fr.average_ranks[i])]
        parts.append(f"Across the {_n(len(f.datasets))} data sets, {best} has the best average rank by "
                     f"{registry.get(f.measure).label}.")
    if not parts:
        return opening.strip()
    text = " ".join(parts)
    if opening.endswith(": ") and not text.startswith(tuple(result.learners)):
        text = text[0].lower() + text[1:]
    return opening + text
