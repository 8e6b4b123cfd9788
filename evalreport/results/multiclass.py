"""results.json for a multi-class task: the classes and each learner's block.

A learner's block (and each group's) is the k x k matrix, the per-class
one-vs-rest measures, the macro and micro averages and the costs, in the shape
of :func:`_block`; any other scalar of the registry for multi-class tasks is
written after them under its own name.
"""

from __future__ import annotations

from .. import registry
from ..redact import published
from .calibration import calibration_json
from .format import InlineList, averages_dict, class_scores_json, curve_block, num

__all__ = ["json_head", "json_after_inputs", "learner_json", "history_json"]

#: the registry's multi-class measures that :func:`_block` writes in its own shape
IN_BLOCK = frozenset({
    "confusion_matrix", "error_rate", "accuracy", "precision", "recall", "f1", "fbeta",
    "cost_sensitive_error", "auc", "average_precision", "roc", "macro", "micro", "macro_f1", "mean_f1",
    "macro_auc", "ovo_auc", "bayes_decision_cost", "friedman", "population",
})


def json_head(result) -> dict:
    return {"classes": [str(c) for c in result.spec.classes]}


def json_after_inputs(result) -> dict:
    return {}


def _block(e, lr, result, metrics) -> dict:
    d = {"n": int(e.n), "accuracy": num(e.accuracy), "error_rate": num(e.error_rate)}
    if "confusion_matrix" in metrics:
        d["confusion_matrix"] = [InlineList(num(v) for v in row) for row in e.confusion.tolist()]
    d["classes"] = {}
    for name, m in e.per_class.items():
        c = {"precision": num(m.precision), "recall": num(m.recall), "f1": num(m.f1),
             "support": num(m.support)}
        if "fbeta" in metrics:
            c["fbeta"] = {f"{b:g}": num(m.fbeta.get(float(b))) for b in result.spec.fbeta}
        if not lr.hard:
            c["auc"] = num(m.auc)
            c["average_precision"] = num(m.average_precision)
        d["classes"][name] = c
    auc = None if lr.hard else {"auc": num(e.macro_auc), "weighted_auc": num(e.weighted_auc),
                                "ovo_auc": num(e.ovo_auc)}
    d["macro"], d["micro"] = averages_dict(e.averages, auc=auc)
    if e.cost_sensitive_error is not None:
        d["cost_sensitive_error"] = num(e.cost_sensitive_error)
    if e.bayes_cost is not None:
        d["bayes_decision_cost"] = num(e.bayes_cost)
    return d


def learner_json(lr, result) -> dict:
    metrics = result.spec.metric_set
    d = {"dataset": lr.dataset, "source": published(result).sources[lr.key],
         **_block(lr.evaluation, lr, result, metrics)}
    for m in registry.measures_for("multiclass", *registry.SCALAR_KINDS):
        if m.name not in IN_BLOCK and "multiclass" in m.compute and (m.name in metrics or not m.metric):
            d[m.name] = num(lr.values.get(m.name))
    if "calibration" in metrics:
        d["calibration"] = calibration_json(lr.calibration)  # top-label bins
    if lr.bootstrap:
        conf = result.spec.confidence
        d["bootstrap"] = {"level": conf.level, "resamples": conf.bootstrap,
                          **{k: InlineList([num(v.low), num(v.high)]) for k, v in lr.bootstrap.items()}}
    pop = lr.population
    if pop is not None and "population" in metrics:
        macro, micro = averages_dict(pop.averages)
        d["population"] = {
            "accuracy": num(pop.accuracy), "error_rate": num(pop.error_rate),
            "classes": {name: {"precision": num(m.precision), "recall": num(m.recall), "f1": num(m.f1)}
                        for name, m in pop.per_class.items()},
            "macro": macro, "micro": micro}
    if lr.class_curves and "roc" in metrics:
        d["curves"] = {name: {"roc": curve_block(c.roc, "fpr", "tpr")}
                       for name, c in lr.class_curves.items() if c.roc is not None}
    if lr.groups is not None:
        d["groups"] = {name: _block(g, lr, result, metrics) for name, g in lr.groups.items()}
        d["groups_macro"], d["groups_micro"] = averages_dict(lr.group_averages)
    d.update(history_json(lr))
    return d


def history_json(lr) -> dict:
    """What a later run compares this one with (evalreport.history): each true
    class's weight (the confusion matrix's row sums) and each class's score column
    over all instances, in binary's format (null: hard decisions)."""
    ev, summary = lr.evaluation, lr.score_summary
    return {
        "class_counts": {name: num(m.support) for name, m in ev.per_class.items()},
        "score_summary": None if summary is None else {k: class_scores_json(v) for k, v in summary.items()},
    }
