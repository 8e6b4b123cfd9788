"""The figures' alt texts: what each figure shows, in a sentence (its accessible
name in the HTML and the tagged PDF), from the same results the figures draw."""

from __future__ import annotations

import numpy as np

from ..words import and_join, general


def legend_label(text: str) -> str:
    """A legend label drawn as given. matplotlib leaves out of legends the
    labels that start with '_' (its mark for "no label"), so a learner named
    '_hidden' gets a zero-width space in front."""
    return "\u200b" + text if text.startswith("_") else text


def partial_auc_limit(result) -> float | None:
    """The spec's partial-AUC limit on FPR, if any (the region shaded on ROC figures)."""
    pa = getattr(result.spec, "partial_auc", None)
    return float(pa.max_fpr) if pa is not None else None


#: the curves crowd the top-left corner when every one reaches this TPR by this FPR
CROWDED_FPR, CROWDED_TPR = 0.1, 0.8


def _num(v) -> str:
    from ..number_style import value_text  # the report's one number style (never exponents)

    return value_text(v)


def _envelopment(result) -> list[str]:
    """Which ROC curves envelop which, and which cross, per data set."""
    out = []
    for comp in result.comparisons:
        envelops = comp.envelops()
        crosses = [f"{pair.a}'s and {pair.b}'s" for pair in comp.pairs if pair.envelopment.verdict == "cross"]
        where = f"on {comp.dataset}, " if comp.dataset and len(result.comparisons) > 1 else ""
        for a, bs in envelops.items():
            out.append(f"{where}{a}'s envelops {and_join([b + chr(39) + 's' for b in bs])}")
        if crosses:
            more = f" (and {len(crosses) - 3} more pairs)" if len(crosses) > 3 else ""
            out.append(f"{where}{and_join(crosses[:3])} cross{more}")
    return out


def _learners_with(result, value, name: str) -> str:
    parts = []
    for key, lr in result.learners.items():
        v = value(lr)
        parts.append(f"{key} ({name} {_num(v)})" if v is not None else f"{key} (hard decisions: one point)")
    return and_join(parts)


def roc_alt(result) -> str:
    """ROC curves of A (AUC ..) and B; A's envelops B's. What is marked and shaded."""
    text = f"ROC curves of {_learners_with(result, lambda lr: lr.summary.auc if lr.curves.roc else None, 'AUC')}"
    env = _envelopment(result)
    if env:
        text += "; " + "; ".join(env)
    text += ". Squares mark the deployed thresholds"
    max_fpr = partial_auc_limit(result)
    if max_fpr is not None:
        text += f"; shaded: the partial-AUC region, FPR up to {general(max_fpr)}"
    return text + "."


def roc_log_alt(result) -> str:
    """The second ROC figure (the curves crowd the top-left corner): what it shows."""
    keys = [k for k, lr in result.learners.items() if lr.curves.roc is not None]
    text = (f"The top-left corner of the ROC curves of {and_join(keys)}, with FPR on a log scale, where "
            "curves that crowd the corner part. Squares mark the deployed thresholds")
    max_fpr = partial_auc_limit(result)
    if max_fpr is not None:
        text += f"; shaded: the partial-AUC region, FPR up to {general(max_fpr)}"
    return text + "."


def pr_alt(result) -> str:
    text = ("P-R curves of "
            + _learners_with(result, lambda lr: lr.summary.average_precision if lr.curves.pr else None, "AP"))
    env = _envelopment(result)
    if env:
        text += "; as their ROC curves, " + "; ".join(env)
    return text + ". Diamonds mark the break-even points, squares the deployed thresholds."


def cost_alt(result) -> str:
    pc = result.operating_point.pc_positive
    text = ("Cost curves (normalised expected cost against PC(+)) of "
            + and_join([legend_label(k) for k, lr in result.learners.items() if lr.summary.cost_curve is not None]))
    spans = []
    for comp in result.comparisons:
        runs: list[list] = []  # adjacent intervals of one learner (at other thresholds) as one
        for iv in comp.cost_envelope:
            if runs and runs[-1][0] == iv.learner and runs[-1][2] == iv.pc_from:
                runs[-1][2] = iv.pc_to
            else:
                runs.append([iv.learner, iv.pc_from, iv.pc_to])
        spans += [f"{who} from {general(a, 2)} to {general(b, 2)}" for who, a, b in runs]
    if spans and len(spans) <= 6:
        text += "; least cost: " + ", ".join(spans)
    winners = [(c.dataset, c.winner) for c in result.comparisons if c.winner]
    text += f". At the operating point, PC(+) = {general(pc, 3)}"
    if len(winners) == 1:
        text += f", {winners[0][1]} has the least cost"
    elif winners:  # each data set's own: learners are compared on the same rows only
        text += ", the least cost is " + and_join([f"{w}'s on {d}" for d, w in winners])
    return text + "; squares mark what the deployed thresholds cost there."


def scalars_alt(rows) -> str:
    """Headline measures: for each, its range across learners and who is highest."""
    parts = []
    for label, values in rows:
        label = label.replace("\n", " ")  # a tick label on two lines, one line here
        known = {k: v for k, (v, _) in values.items() if v is not None}
        if not known:
            continue
        best = max(known, key=known.get)
        lo, hi = min(known.values()), max(known.values())
        if len(known) == 1 or lo == hi:
            parts.append(f"{label} {_num(hi)}" + (f" ({best})" if len(known) == 1 else " (all)"))
        else:
            parts.append(f"{label} {_num(lo)} to {_num(hi)} (highest: {best})")
    return "Headline measures with their confidence intervals: " + "; ".join(parts) + "."


def gains_alt(result) -> str:
    keys = [k for k, lr in result.learners.items() if lr.operating_table is not None]
    return (f"Cumulative gains by decile of {and_join(keys)}: the share of the positives captured "
            "against the share flagged, top scores first; the diagonal is a random ranking.")


def lift_alt(result) -> str:
    keys = [k for k, lr in result.learners.items() if lr.operating_table is not None]
    return (f"Cumulative lift by decile of {and_join(keys)}: the share of the positives captured over "
            "the share flagged, top scores first; 1 is a random ranking.")


def confusion_alt(name: str, classes, confusion: np.ndarray) -> str:
    rows = confusion.sum(axis=1)
    right = float(np.trace(confusion))
    total = float(rows.sum())
    off = confusion.astype(float).copy()
    np.fill_diagonal(off, -1)
    text = f"Confusion matrix of {name} over {len(classes)} classes: {right / total:.1%} on the diagonal" \
        if total else f"Confusion matrix of {name} over {len(classes)} classes, empty"
    if total and off.max() > 0:
        i, j = np.unravel_index(int(np.argmax(off)), off.shape)
        text += f"; the most frequent confusion: {classes[i]} predicted as {classes[j]} ({off[i, j]:,.0f})"
    return text + "."


def confusion_shares_alt(name: str, classes, confusion: np.ndarray) -> str:
    """The shares' heatmap: each true class's share predicted right, lowest and highest."""
    rows = confusion.sum(axis=1)
    right = {c: float(confusion[i, i]) / float(rows[i]) for i, c in enumerate(classes) if rows[i] > 0}
    text = f"Confusion matrix of {name} over {len(classes)} classes as the share of each true class (rows sum to 1)"
    if right:
        low, high = min(right, key=right.get), max(right, key=right.get)
        text += f"; the share predicted right: {_num(right[low])}"
        if low != high:
            text += f" for {low}, the lowest, to {_num(right[high])} for {high}"
    return text + "."


def class_roc_alt(name: str, aucs: dict) -> str:
    known = {c: a for c, a in aucs.items() if a is not None}
    text = f"One-vs-rest ROC curves of {name} for {len(aucs)} classes"
    if known:
        lo, hi = min(known, key=known.get), max(known, key=known.get)
        text += f"; AUC from {general(known[lo], 3)} ({lo}) to {general(known[hi], 3)} ({hi})"
    return text + "."


def reliability_alt(name: str, bins, top_label: bool) -> str:
    shown = [b for b in bins if b.n > 0]
    gap = max((abs(b.observed - b.mean_score) for b in shown), default=None)
    text = f"Reliability diagram of {name}{' (top label)' if top_label else ''}: {len(shown)} bins"
    if gap is not None:
        text += f"; the largest gap between observed frequency and mean score is {gap:.2f}"
    return text + "."


def class_scores_alt(classes, values: dict, measure: str) -> str:
    parts = []
    for key, per in values.items():
        known = {c: v for c, v in per.items() if v is not None}
        if known:
            worst = min(known, key=known.get)
            parts.append(f"{key}'s lowest is {worst} ({general(known[worst], 3)})")
    return f"{measure} of each of {len(classes)} classes per learner" + (": " + "; ".join(parts) if parts else "") + "."


def cd_alt(learners, average_ranks, cd: float, significant_pairs) -> str:
    order = sorted(range(len(learners)), key=lambda i: average_ranks[i])
    ranks = ", ".join(f"{learners[i]} {average_ranks[i]:.2f}" for i in order)
    sig = [f"{learners[a]} and {learners[b]}" for a, b in significant_pairs]
    text = f"Critical-difference diagram: average ranks {ranks} (1 = best); critical difference {cd:.2f}"
    text += "; significantly different: " + "; ".join(sig) if sig else "; no pair differs significantly"
    return text + "."

