"""The template values of a multi-class report (see context.py for binary tasks)."""

from __future__ import annotations

from markupsafe import Markup

from ..figures import class_roc_figure, class_scores_figure, confusion_figure, learner_styles, scalars_figure
from .context import DEFINITIONS, UNDEFINED, Column, fmt

_RANK_LABEL = {"accuracy": "accuracy", "macro_f1": "macro-F1 (Zhou)", "mean_f1": "mean F1",
               "macro_auc": "macro AUC (one vs rest)", "cost_sensitive_error": "cost-sensitive error"}

MULTICLASS_DEFINITIONS = {
    "macro-P, macro-R": "The means of the per-class (one-vs-rest) precision and recall; a class never "
                        "predicted counts as precision 0 (with a warning).",
    "macro-F1 (Zhou)": "2 macro-P macro-R / (macro-P + macro-R) (Zhou eq. 2.14), computed from the "
                       "macro averages.",
    "mean F1": "The mean of the per-class F1: scikit-learn's 'macro F1', a different number from "
               "Zhou's macro-F1.",
    "micro-P, micro-R, micro-F1": "From the per-class TP, FP, FN averaged first; for single-label "
                                  "multi-class data micro-P = micro-R = accuracy.",
    "macro AUC, weighted AUC": "The mean of the one-vs-rest AUCs, unweighted or weighted by class "
                               "prevalence.",
    "one-vs-one AUC": "Hand & Till (2001): the mean over class pairs of the two pairwise AUCs.",
    "decision": "The class of highest score; a tie goes to the class listed first in the spec's classes.",
    "cost-sensitive error": "(1/m) sum_i w_i cost[y_i][yhat_i], rows true class, columns predicted; "
                            "with priors, instances are reweighted so the class shares match them.",
    "Bayes decision cost": "The cost-sensitive error of the decisions that minimise the expected cost "
                           "sum_i p_i cost[i][j] under the matrix, when the scores are probabilities.",
}


def multiclass_context(result, base: dict) -> dict:
    spec = result.spec
    classes = [str(c) for c in spec.classes]
    styles = learner_styles(result.learners)
    has_cost = any(lr.evaluation.cost_sensitive_error is not None for lr in result.learners.values())
    has_bayes = any(lr.evaluation.bayes_cost is not None for lr in result.learners.values())
    cols = [Column("accuracy", "accuracy", "higher"), Column("error_rate", "error rate", "lower"),
            Column("macro_p", "macro-P", "higher"), Column("macro_r", "macro-R", "higher"),
            Column("macro_f1", "macro-F1 (Zhou)", "higher"), Column("mean_f1", "mean F1", "higher"),
            Column("micro_f1", "micro-F1", "higher"), Column("macro_auc", "macro AUC", "higher"),
            Column("weighted_auc", "weighted AUC", "higher"), Column("ovo_auc", "one-vs-one AUC", "higher")]
    if has_cost:
        cols.append(Column("cse", "cost-sensitive error", "lower"))
    if has_bayes:
        cols.append(Column("bayes", "Bayes decision cost", "lower"))
    class_cols = [Column("precision", "precision", "higher"), Column("recall", "recall", "higher"),
                  Column("f1", "F1", "higher"), Column("support", "support", ""),
                  Column("auc", "AUC", "higher"), Column("ap", "average precision", "higher")]
    learners, figs = [], {}
    f1_by_class, scalar_rows = {}, {"accuracy": {}, "macro-F1 (Zhou)": {}, "macro AUC": {}}
    for i, (key, lr) in enumerate(result.learners.items()):
        ev, a = lr.evaluation, lr.evaluation.averages
        values = {"accuracy": ev.accuracy, "error_rate": ev.error_rate, "macro_p": a.macro_precision,
                  "macro_r": a.macro_recall, "macro_f1": a.macro_f1, "mean_f1": a.mean_f1,
                  "micro_f1": a.micro_f1, "macro_auc": ev.macro_auc, "weighted_auc": ev.weighted_auc,
                  "ovo_auc": ev.ovo_auc, "cse": ev.cost_sensitive_error, "bayes": ev.bayes_cost}
        per_class = []
        for cname in classes:
            m = ev.per_class[cname]
            per_class.append({"name": cname, "cells": [fmt(v) for v in (
                m.precision, m.recall, m.f1, m.support, m.auc, m.average_precision)]})
        f1_by_class[key] = {c: ev.per_class[c].f1 for c in classes}
        scalar_rows["accuracy"][key] = (ev.accuracy, None)
        scalar_rows["macro-F1 (Zhou)"][key] = (a.macro_f1, None)
        scalar_rows["macro AUC"][key] = (ev.macro_auc, None)
        groups = []
        if lr.groups is not None:
            for gname, g in lr.groups.items():
                groups.append({"name": gname, "cells": [fmt(v) for v in (
                    g.n, g.accuracy, g.averages.macro_f1, g.averages.mean_f1, g.macro_auc)]})
        learners.append({
            "key": key, "color": styles[key]["color"], "hard": lr.hard,
            "summary": [fmt(values[c.key]) for c in cols],
            "per_class": per_class,
            "confusion_svg": Markup(confusion_figure(key, classes, ev.confusion, f"confusion-{i}")),
            "roc_svg": Markup(class_roc_figure(key, lr.class_curves,
                                               {c: ev.per_class[c].auc for c in classes}, f"roc-{i}"))
            if lr.class_curves else "",
            "curves_note": _class_curves_note(lr.class_curves) if lr.class_curves else "",
            "groups": groups,
            "groups_macro": "" if lr.group_averages is None else
            f"across groups: macro-F1 (Zhou) {fmt(lr.group_averages.macro_f1)}, mean F1 "
            f"{fmt(lr.group_averages.mean_f1)}, micro-F1 {fmt(lr.group_averages.micro_f1)}",
        })
    scalar_rows = [(label, v) for label, v in scalar_rows.items() if any(x[0] is not None for x in v.values())]
    figs["scalars"] = Markup(scalars_figure(result, styles, scalar_rows))
    figs["class_scores"] = Markup(class_scores_figure(classes, f1_by_class, styles, "F1"))
    sentences = []
    for comp in result.comparisons:
        if comp.winner:
            sentences.append(f"{comp.winner} has the highest accuracy"
                             + (f" on {comp.dataset}" if comp.dataset else "") + ".")
        if not comp.rankings_agree:
            tops = "; ".join(f"{_RANK_LABEL[r.measure]} ranks {r.order[0]} first"
                             for r in comp.rankings if r.order)
            sentences.append(f"The summaries disagree: {tops}.")
        else:
            sentences.append("Every summary (accuracy, macro-F1, mean F1, macro AUC"
                             + (", cost" if has_cost else "") + ") ranks the learners the same way.")
    if len(result.learners) == 1:
        (key, lr), = result.learners.items()
        sentences.append(f"{key}: accuracy {fmt(lr.evaluation.accuracy)}, macro-F1 (Zhou) "
                         f"{fmt(lr.evaluation.averages.macro_f1)}.")
    base["verdict"]["sentences"] = sentences + base["verdict"]["sentences"]
    rankings = [{"dataset": comp.dataset or "", "measure": _RANK_LABEL[r.measure],
                 "order": " > ".join(r.order) if r.order else UNDEFINED}
                for comp in result.comparisons for r in comp.rankings]
    support = {}
    first = next(iter(result.learners.values()))
    for cname in classes:
        support[cname] = first.evaluation.per_class[cname].support
    total = sum(support.values())
    base.update(
        classes=classes,
        mc_columns=cols,
        class_columns=class_cols,
        mc_learners=learners,
        rankings=rankings,
        rankings_disagree=any(not c.rankings_agree for c in result.comparisons),
        figures=figs,
        class_balance=[{"name": c, "support": fmt(v), "share": fmt(v / total, 3) if total else UNDEFINED}
                       for c, v in support.items()],
        definitions={**MULTICLASS_DEFINITIONS, **{k: v for k, v in DEFINITIONS.items()
                                                  if k in ("precision", "recall", "F1", "F-beta",
                                                           "ROC curve", "AUC", "average precision")}},
    )
    return base


def _class_curves_note(class_curves) -> str:
    """How a learner's one-vs-rest ROC curves are drawn when some are drawn
    through part of their points ("" when every vertex is drawn): how many,
    the most points one keeps, and the largest bound on the distance."""
    rocs = [c.roc for c in class_curves.values() if c.roc is not None and c.roc.simplified]
    if not rocs:
        return ""
    which = "the ROC curve of 1 class" if len(rocs) == 1 else f"the ROC curves of {len(rocs)} classes"
    return (f"{which} through at most {fmt(max(r.x.size for r in rocs))} points, "
            f"within {fmt(max(r.max_error for r in rocs), 2)}")
