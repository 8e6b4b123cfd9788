"""results.json for a binary task: the operating point and each learner's block.

A learner's block follows the registry's order: each scalar under its name
(when the spec's ``metrics:`` asks for it), and the measures with a shape of
their own (the confusion counts, F-beta per beta, AUC with DeLong's interval,
partial AUC, the operating point, the curves) written by :data:`SHAPED`.
"""

from __future__ import annotations

from .. import registry
from ..metrics.population import MEASURES as POPULATION
from ..redact import published
from .calibration import calibration_json
from .format import InlineList, class_scores_json, curve_block, groups_dict, num, number_list
from .slices import slices_json

__all__ = ["json_head", "json_after_inputs", "learner_json", "history_json"]


def json_head(result) -> dict:
    return {"positive": result.spec.positive_label}


def json_after_inputs(result) -> dict:
    op = result.operating_point
    return {"operating_point": {
        "p_positive": num(op.p_positive),
        "p_positive_source": op.p_positive_source,
        "cost_fn": num(op.cost_fn),
        "cost_fp": num(op.cost_fp),
        "pc_positive": num(op.pc_positive),
    }}


def _confusion(d, lr, result, metrics):
    if "confusion_matrix" in metrics:
        at = lr.at_threshold
        d["confusion"] = {"tp": num(at.tp), "fp": num(at.fp), "tn": num(at.tn), "fn": num(at.fn)}


def _fbeta(d, lr, result, metrics):
    if "fbeta" in metrics:
        d["fbeta"] = {f"{b:g}": num(lr.at_threshold.fbeta[float(b)]) for b in result.spec.fbeta}


def _auc(d, lr, result, metrics):
    if "auc" in metrics:
        d["auc"] = num(lr.values["auc"])
    if lr.auc_ci is not None and lr.auc_ci.ci is not None:
        d["auc_ci"] = InlineList(num(x) for x in lr.auc_ci.ci)


def _ks(d, lr, result, metrics):
    """KS and the threshold where it is reached (null: undefined, or +inf: no threshold
    beats predicting nothing positive, as for the least-cost threshold)."""
    if "ks" in metrics:
        d["ks"] = num(lr.values.get("ks"))
        d["ks_threshold"] = num(None if lr.ks is None else lr.ks.threshold)


def _partial_auc(d, lr, result, metrics):
    p = result.spec.partial_auc
    if p is not None:
        d["partial_auc"] = {"max_fpr": p.max_fpr, "value": num(lr.partial_auc), "standardized": p.standardized}


def _operating_point(d, lr, result, metrics):
    if lr.operating is not None:
        o = lr.operating
        d["operating_point"] = {"min_cost": num(o.min_cost), "threshold": num(o.threshold),
                                "fpr": num(o.fpr), "tpr": num(o.tpr)}


def _curves(d, lr, result, metrics):
    """The three curves in one block, written at the first of them."""
    c = lr.curves
    if lr.hard or not metrics & {"roc", "pr", "cost_curve"}:
        return
    out = {}
    if "roc" in metrics and c.roc is not None:
        out["roc"] = curve_block(c.roc, "fpr", "tpr")
    if "pr" in metrics and c.pr is not None:
        out["pr"] = curve_block(c.pr, "recall", "precision")
    if "cost_curve" in metrics and c.cost is not None:
        out["cost"] = {"pc": number_list(c.cost.pc), "cost": number_list(c.cost.cost)}
    d["curves"] = out


def _population(d, lr, result, metrics):
    """With priors: the measures at the threshold in the population they describe."""
    pop = lr.population
    if pop is not None and "population" in metrics:
        d["population"] = {"p_positive": num(pop.p_positive), **{k: num(getattr(pop, k)) for k in POPULATION}}
        # percentile-bootstrap intervals at confidence.level (null: not computed, as a warning says)
        d["population"]["intervals"] = None if pop.intervals is None else {
            k: InlineList([num(pop.intervals[k][0]), num(pop.intervals[k][1])]) for k in POPULATION}


def _calibration(d, lr, result, metrics):
    if "calibration" in metrics:
        d["calibration"] = calibration_json(lr.calibration)


def _threshold_table(d, lr, result, metrics):
    """The spec's operating points (thresholds:), one row each."""
    table = lr.operating_table
    if table is None or result.spec.thresholds is None or "threshold_table" not in metrics:
        return
    rows = []
    for r in table.rows:
        row = {"kind": r.kind, "target": num(r.target), "threshold": num(r.threshold), "flagged": num(r.flagged),
               **{k: num(getattr(r, k)) for k in ("tp", "fp", "tn", "fn")},
               **{k: num(v) for k, v in r.values.items()}}
        if "row" in r.undefined:
            row["undefined"] = r.undefined["row"]
        rows.append(row)
    d["threshold_table"] = rows


def _gains(d, lr, result, metrics):
    """The cumulative gains and lift by decile."""
    if lr.operating_table is not None and "gains" in metrics:
        d["gains"] = [{"flagged": num(g.flagged), "captured": num(g.captured), "lift": num(g.lift),
                       "response_rate": num(g.response_rate)} for g in lr.operating_table.gains]


def _nothing(d, lr, result, metrics):
    """Written with another measure's block (or, for the averages, with the groups)."""


#: measures with a shape of their own: registry name -> writer(block, learner, result, metrics)
SHAPED = {
    "confusion_matrix": _confusion, "fbeta": _fbeta, "auc": _auc, "auc_ci": _nothing, "ks": _ks,
    "partial_auc": _partial_auc, "min_cost": _operating_point, "population": _population,
    "roc": _curves, "pr": _nothing, "cost_curve": _nothing,
    "threshold_table": _threshold_table, "gains": _gains,
    "macro": _nothing, "micro": _nothing, "bootstrap": _nothing, "slices": slices_json, "calibration": _calibration,
}


def learner_json(lr, result) -> dict:
    spec = result.spec
    metrics = spec.metric_set
    sm = lr.summary
    d: dict = {
        "dataset": lr.dataset,
        "source": published(result).sources[lr.key],
        "n": int(sm.n),
        "positives": num(sm.positives),
        "negatives": num(sm.negatives),
        "threshold": num(lr.threshold),
        # how every part of the report prints it: a decimal of >= 3 significant digits
        # that makes its decisions on these data (null: hard decisions)
        "threshold_text": None if lr.hard else lr.threshold_text(lr.threshold),
        "threshold_source": lr.threshold_source,
    }
    for m in registry.measures_for("binary"):
        if m.name in SHAPED:
            SHAPED[m.name](d, lr, result, metrics)
        elif m.scalar and "binary" in m.compute and (m.name in metrics or not m.metric):
            d[m.name] = num(lr.values.get(m.name))
    if lr.resolution_bound is not None:
        d["resolution_bound"] = {k: num(v) for k, v in lr.resolution_bound.items()}
    if lr.bootstrap:
        d["bootstrap"] = {"level": spec.confidence.level, "resamples": spec.confidence.bootstrap,
                          **{k: InlineList([num(v.low), num(v.high)]) for k, v in lr.bootstrap.items()}}
    if lr.groups is not None:
        d.update(groups_dict(lr.groups))
    d.update(history_json(lr))
    return d


def history_json(lr) -> dict:
    """What a later run compares this one with (evalreport.history): DeLong's
    variance of the AUC, the classes' weighted counts and each class's scores,
    compactly (null: hard decisions, or undefined, as the warnings say)."""
    sm = lr.summary
    summary = lr.score_summary
    return {
        "auc_variance": num(lr.auc_variance),
        "class_counts": {"positive": num(sm.positives), "negative": num(sm.negatives)},
        "score_summary": None if summary is None else {k: class_scores_json(summary[k]) for k in ("positive", "negative")},
    }
