"""The template values of a binary report: the verdict's sentences on the
comparisons, the measure tables (columns from the registry), the envelopment
matrix, the cost envelope and the figures."""

from __future__ import annotations

from markupsafe import Markup

from .. import registry
from ..figures import figures, learner_styles
from ..redact import published
from .format import UNDEFINED, Column, and_join, fmt, measure_text, with_interval
from .notes import cells_with_notes

__all__ = ["binary_context", "simplified_note"]

THRESHOLD_NOTES = {"spec": "spec threshold", "learner": "learner's own threshold",
                   "optimal": "least-cost threshold at PC(+)", "decisions": "hard decisions"}
#: the bootstrap intervals printed beside their measure in the tables (F1's is in the figure)
BOOTSTRAPPED = ("bep", "average_precision", "expected_total_cost")


def _sentences(result) -> list[str]:
    """The verdict on the comparisons: the winner at the operating point, which
    curves envelop or cross, and what the summaries prefer where they cross."""
    op = result.operating_point
    label = {m.name: m.ranking_label for m in registry.ranked("binary")}
    sentences = []
    for comp in result.comparisons:
        where = f" on {comp.dataset}" if comp.dataset else ""
        if comp.winner:
            lr = result.learners[comp.winner]
            sentences.append(
                f"At the operating point{where} (PC(+) = {fmt(op.pc_positive)}), {comp.winner} has the "
                f"least expected cost: {fmt(lr.operating.min_cost)} (normalised), at threshold "
                f"{lr.threshold_text(lr.operating.threshold)}.")
        envelops: dict[str, list[str]] = {}
        crosses, identical = [], []
        for pair in comp.pairs:
            v = pair.envelopment.verdict
            if v == "a_envelops_b":
                envelops.setdefault(pair.a, []).append(pair.b)
            elif v == "b_envelops_a":
                envelops.setdefault(pair.b, []).append(pair.a)
            elif v == "identical":
                identical.append(f"{pair.a} and {pair.b}")
            else:
                at = ", ".join(fmt(x, 3) for x in pair.envelopment.crossings_fpr[:3])
                more = ", ..." if len(pair.envelopment.crossings_fpr) > 3 else ""
                crosses.append(f"{pair.a} and {pair.b} (at FPR {at}{more})")
        for a, bs in envelops.items():
            whose = f"{bs[0]}'s" if len(bs) == 1 else f"those of {and_join(bs)}"
            sentences.append(f"{a}'s ROC curve envelops {whose}: {a} is at least as good at every "
                             "threshold (and so is its P-R curve).")
        if crosses:
            shown = crosses[:4] + ([f"{len(crosses) - 4} more pairs"] if len(crosses) > 4 else [])
            sentences.append(f"ROC curves cross, so neither is better at every threshold: {'; '.join(shown)}.")
        if identical:
            sentences.append(f"Identical ROC curves: {'; '.join(identical)}.")
        for pair in [p for p in comp.pairs if p.envelopment.verdict == "cross"][:4]:
            prefer = {}
            for r in comp.rankings:
                if pair.a in r.order and pair.b in r.order:
                    better = pair.a if r.order.index(pair.a) < r.order.index(pair.b) else pair.b
                    prefer.setdefault(better, []).append(label[r.measure])
            if len(prefer) == 1:
                (better, _), = prefer.items()
                names = ", ".join(label[r.measure] for r in comp.rankings)
                sentences.append(f"Where {pair.a}'s and {pair.b}'s curves cross, every summary ({names}) "
                                 f"prefers {better}.")
            elif prefer:
                parts = "; ".join(f"{', '.join(ms)} prefer{'s' if len(ms) == 1 else ''} {who}"
                                  for who, ms in prefer.items())
                sentences.append(f"The summaries disagree between {pair.a} and {pair.b}: {parts}.")
    if not result.comparisons and len(result.learners) == 1:
        (key, lr), = result.learners.items()
        if lr.operating is not None:
            sentences.append(f"At the operating point (PC(+) = {fmt(op.pc_positive)}), {key}'s least "
                             f"expected cost is {fmt(lr.operating.min_cost)} (normalised), at threshold "
                             f"{lr.threshold_text(lr.operating.threshold)}.")
    return sentences


def _columns(result) -> tuple[list[Column], list[Column]]:
    """The two tables' columns, from the registry: scalars at the threshold, then
    those over every threshold; each when the spec asks for it."""
    spec = result.spec
    metrics = spec.metric_set
    # TP, FP, TN and FN are in the confusion matrices just below: repeating
    # them here made the table too wide for a page at millions of rows
    at_cols = [Column("threshold", "threshold", "")]
    rank_cols = []
    for m in registry.measures_for("binary", *registry.SCALAR_KINDS):
        better = "" if m.direction == "none" else m.direction
        cols = at_cols if m.kind == "at_threshold" else rank_cols
        if m.name == "fbeta":
            if "fbeta" in metrics:
                cols += [Column(f"fbeta_{b:g}", f"F{b:g}", "higher") for b in spec.fbeta]
        elif m.name == "partial_auc":
            p = spec.partial_auc
            if p is not None:
                cols.append(Column("partial_auc", f"partial AUC (FPR <= {fmt(p.max_fpr)}"
                                   + (", McClish)" if p.standardized else ")"), better))
        elif m.name == "min_cost":
            cols += [Column("min_cost", m.label, better), Column("op_threshold", "its threshold", "")]
        elif "binary" in m.compute and (m.name in metrics or not m.metric):
            cols.append(Column(m.name, m.label, better))
    return at_cols, rank_cols


def binary_context(result, base: dict) -> dict:
    spec = result.spec
    op = result.operating_point
    styles = learner_styles(result.learners)
    at_cols, rank_cols = _columns(result)
    learners = []
    scalar_rows = {"AUC": {}, "average precision": {}, "break-even point": {}, "F1": {}, "accuracy": {}}
    for key, lr in result.learners.items():
        at, sm = lr.at_threshold, lr.summary
        values = {**lr.values, "threshold": lr.threshold,
                  "op_threshold": lr.operating.threshold if lr.operating else None}
        # thresholds as decimals that make the decisions of the matrices they head
        texts = {"threshold": lr.threshold_text(lr.threshold),
                 "op_threshold": lr.threshold_text(lr.operating.threshold) if lr.operating else None}
        for b in spec.fbeta:
            values[f"fbeta_{b:g}"] = at.fbeta.get(float(b))
        ci = lr.auc_ci.ci if lr.auc_ci is not None else None
        boot = lr.bootstrap or {}

        def shown(name):
            interval = ci if name == "auc" else boot.get(name) if name in BOOTSTRAPPED else None
            return with_interval(texts.get(name) or measure_text(name, values.get(name)), interval)

        learners.append({
            "key": key, "color": styles[key]["color"],
            "source": published(result).sources[key],
            "dataset": lr.dataset or "", "hard": lr.hard,
            "threshold_note": THRESHOLD_NOTES.get(lr.threshold_source) or
            f"least-cost threshold at PC(+) on {lr.threshold_source.partition(':')[2]}",
            "at": [texts.get(c.key) or measure_text(c.key, values.get(c.key)) for c in at_cols],
            "rank": [shown(c.key) for c in rank_cols],
            "n": fmt(sm.n), "positives": fmt(sm.positives), "negatives": fmt(sm.negatives),
            "confusion": {k: fmt(getattr(at, k)) for k in ("tp", "fp", "tn", "fn")},
            "confusion_share": _shares(at),
            "curves_note": simplified_note(lr.curves),
        })
        for label, v, iv in (("AUC", sm.auc, ci), ("average precision", sm.average_precision,
                                                    boot.get("average_precision")),
                             ("break-even point", sm.bep, boot.get("bep")), ("F1", at.f1, boot.get("f1")),
                             ("accuracy", at.accuracy, None)):
            interval = tuple(iv) if iv is not None and None not in tuple(iv) else None
            scalar_rows[label][key] = (v, interval)
    scalar_rows = [(label, vals) for label, vals in scalar_rows.items()
                   if any(v[0] is not None for v in vals.values())]
    at_notes = cells_with_notes(result, learners, "at", at_cols)
    rank_notes = cells_with_notes(result, learners, "rank", rank_cols)

    label = {m.name: m.ranking_label for m in registry.ranked("binary")}
    rankings = []
    for comp in result.comparisons:
        for r in comp.rankings:
            rankings.append({"dataset": comp.dataset or "", "measure": label[r.measure],
                             "order": " > ".join(r.order) if r.order else UNDEFINED})
    balance = [{"key": lr_key, "positives": fmt(lr.summary.positives), "negatives": fmt(lr.summary.negatives),
                "share": fmt(lr.summary.positives / (lr.summary.positives + lr.summary.negatives), 3)
                if (lr.summary.positives + lr.summary.negatives) else UNDEFINED}
               for lr_key, lr in result.learners.items()]
    base["verdict"]["sentences"] += _sentences(result) + base["tests"]["sentences"]
    return {
        **base,
        "positive": str(spec.positive_label),
        "operating_point": {
            "p": fmt(op.p_positive), "p_source": "spec priors" if op.p_positive_source == "priors"
            else "the data's own share", "cost_fn": fmt(op.cost_fn), "cost_fp": fmt(op.cost_fp),
            "pc": fmt(op.pc_positive)},
        "balance": balance,
        "at_columns": at_cols,
        "rank_columns": rank_cols,
        "at_notes": at_notes,
        "rank_notes": rank_notes,
        "learners": learners,
        # every name the templates ask for, "" where nothing is drawn (one-class data: no curves)
        "figures": {"roc": "", "pr": "", "cost": "", "scalars": "",
                    **{k: Markup(v) for k, v in figures(result, scalar_rows).items()}},
        "matrix": _matrix(result),
        "rankings": rankings,
        "rankings_disagree": any(not c.rankings_agree for c in result.comparisons),
        "envelope": _envelope_rows(result, styles),
        "definitions": registry.definitions("binary"),
    }


def _matrix(result) -> list[dict]:
    """Pairwise envelopment as a matrix per data set (rows a, columns b)."""
    out = []
    for comp in result.comparisons:
        if not comp.pairs:
            continue
        names = [k for k in comp.learners if not result.learners[k].hard]
        cell = {}
        for p in comp.pairs:
            v = p.envelopment.verdict
            x = ", ".join(fmt(c, 3) for c in p.envelopment.crossings_fpr[:2])
            if len(p.envelopment.crossings_fpr) > 2:
                x += ", ..."
            text = {"a_envelops_b": ("envelops", "is enveloped by"),
                    "b_envelops_a": ("is enveloped by", "envelops"),
                    "identical": ("identical", "identical"),
                    "cross": (f"crosses at FPR {x}", f"crosses at FPR {x}")}[v]
            cell[(p.a, p.b)], cell[(p.b, p.a)] = text
        rows = [{"name": a, "cells": ["—" if a == b else cell.get((a, b), "") for b in names]}
                for a in names]
        out.append({"dataset": comp.dataset, "names": names, "rows": rows})
    return out


def _envelope_rows(result, styles) -> list[dict]:
    """The cost envelope for people: one row per run of one learner (its thresholds
    as a range when it changes threshold along the way); results.json has every interval."""
    rows = []
    for comp in result.comparisons:
        runs: list[list] = []
        for iv in comp.cost_envelope:
            if runs and runs[-1][0] == iv.learner:
                runs[-1][2] = iv.pc_to
                runs[-1][3].append(iv.threshold)
            else:
                runs.append([iv.learner, iv.pc_from, iv.pc_to, [iv.threshold]])
        for learner, lo, hi, thresholds in runs:
            text = result.learners[learner].threshold_text  # decimals that keep the decisions
            if len(thresholds) == 1:
                thr = text(thresholds[0])
            else:
                thr = f"{text(max(thresholds))} down to {text(min(thresholds))} ({len(thresholds)} thresholds)"
            rows.append({"learner": learner, "color": styles[learner]["color"], "threshold": thr,
                         "from": fmt(lo, 3), "to": fmt(hi, 3), "dataset": comp.dataset or ""})
    return rows


def simplified_note(curves) -> str:
    """How a learner's curves are drawn when they are drawn through part of
    their points ("" when every vertex is drawn): the ROC curve's points and
    bound, and the P-R curve's bound (larger than the ROC's when a streamed
    table was reduced: precision moves more between kept rows)."""
    roc, pr = curves.roc, curves.pr
    shown = roc if roc is not None else pr
    if shown is None or not shown.simplified:
        return ""
    name = "ROC" if shown is roc else "P-R"
    if shown.vertices is None:  # a table reduced while it streamed: its vertices are not known
        of = f"{name} points through rows kept from the streamed table"
    else:
        of = f"of {fmt(shown.vertices)} {name} vertices"
    text = f"{fmt(shown.x.size)} {of}, within {fmt(shown.max_error, 2)}"
    if shown is roc and pr is not None and pr.simplified:
        text += f" (the P-R curve within {fmt(pr.max_error, 2)})"
    return text


def _shares(at) -> dict:
    total = at.tp + at.fp + at.tn + at.fn
    if not total:
        return {k: 0 for k in ("tp", "fp", "tn", "fn")}
    return {k: round(100 * getattr(at, k) / total) for k in ("tp", "fp", "tn", "fn")}
