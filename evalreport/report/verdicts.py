"""Sentences of the verdict shared by the tasks' reports: where two ROC curves
cross (who is above on each interval of FPR) and where the rankings disagree
(which measures order which pair of learners differently)."""

from __future__ import annotations

from ..words import and_join
from .format import fmt

__all__ = ["fpr_bounds", "interval_phrases", "ranking_sentence"]

#: intervals listed in a sentence before "and N more" (results.json lists all)
SHOWN = 6


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
    for d in comp.disagreements[:SHOWN]:
        ma, mb = [label[m] for m in d.prefer_a], [label[m] for m in d.prefer_b]
        parts.append(f"{and_join(ma)} rank{'s' if len(ma) == 1 else ''} {d.a} above {d.b}, "
                     f"{and_join(mb)} rank{'s' if len(mb) == 1 else ''} {d.b} above {d.a}")
    if len(comp.disagreements) > SHOWN:
        parts.append(f"{len(comp.disagreements) - SHOWN} more pairs (results.json lists them)")
    return f"The rankings{where} disagree: {'; '.join(parts)}."
