"""The result as plain data, in results.json's stable key order.

Formatting of values lives here (one place): non-finite numbers become
``null``; thresholds of +inf ("predict nothing positive") become ``null`` too.
"""

from __future__ import annotations

import math

import numpy as np

from .pipeline import LearnerResult, Result

__all__ = ["result_dict"]


def _num(x):
    """A JSON number: int stays int, floats finite or None."""
    if x is None:
        return None
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    x = float(x)
    if not math.isfinite(x):
        return None
    return x


class InlineList(list):
    """A list of numbers written on one line in results.json."""


def _list(a) -> InlineList:
    a = np.asarray(a)
    if a.dtype.kind == "f" and not np.isfinite(a).all():
        return InlineList(_num(v) for v in a.tolist())
    return InlineList(a.tolist())


def _curve_block(block, xname: str, yname: str) -> dict:
    d = {xname: _list(block.x), yname: _list(block.y), "threshold": _list(block.threshold)}
    if block.simplified:
        d.update(simplified=True, vertices=block.vertices, max_error=block.max_error)
    return d


def _curves(lr: LearnerResult, metrics) -> dict:
    c = lr.curves
    out = {}
    if "roc" in metrics and c.roc is not None:
        out["roc"] = _curve_block(c.roc, "fpr", "tpr")
    if "pr" in metrics and c.pr is not None:
        out["pr"] = _curve_block(c.pr, "recall", "precision")
    if "cost_curve" in metrics and c.cost is not None:
        out["cost"] = {"pc": _list(c.cost.pc), "cost": _list(c.cost.cost)}
    return out


def learner_dict(lr: LearnerResult, result: Result) -> dict:
    spec = result.spec
    metrics = spec.metric_set
    ev, at = lr.summary, lr.at_threshold
    d: dict = {
        "dataset": lr.dataset,
        "source": lr.source,
        "n": int(ev.n),
        "positives": _num(ev.positives),
        "negatives": _num(ev.negatives),
        "threshold": _num(lr.threshold),
        "threshold_source": lr.threshold_source,
    }
    if "confusion_matrix" in metrics:
        d["confusion"] = {"tp": _num(at.tp), "fp": _num(at.fp), "tn": _num(at.tn), "fn": _num(at.fn)}
    for name in ("error_rate", "accuracy", "precision", "recall", "f1"):
        if name in metrics:
            d[name] = _num(getattr(at, name))
    if "fbeta" in metrics:
        d["fbeta"] = {f"{b:g}": _num(at.fbeta[float(b)]) for b in spec.fbeta}
    if "cost_sensitive_error" in metrics:
        d["cost_sensitive_error"] = _num(at.cost_sensitive_error)
    curve_measures = not lr.hard
    for name in ("auc", "rank_loss", "average_precision", "bep"):
        if name in metrics:
            d[name] = _num(getattr(ev, name)) if curve_measures else None
    if spec.partial_auc is not None:
        d["partial_auc"] = {"max_fpr": spec.partial_auc.max_fpr, "value": _num(lr.partial_auc),
                            "standardized": spec.partial_auc.standardized}
    if "expected_total_cost" in metrics:
        d["expected_total_cost"] = _num(ev.expected_total_cost) if curve_measures else None
    if lr.operating is not None:
        d["operating_point"] = {"min_cost": _num(lr.operating.min_cost),
                                "threshold": _num(lr.operating.threshold),
                                "fpr": _num(lr.operating.fpr), "tpr": _num(lr.operating.tpr)}
    if curve_measures and metrics & {"roc", "pr", "cost_curve"}:
        d["curves"] = _curves(lr, metrics)
    return d


def comparisons_dict(result: Result) -> dict:
    """The comparisons block; entries name their data set when there are several."""
    several = len(result.comparisons) > 1
    env, rankings, envelope, hull = [], {}, [], []
    for c in result.comparisons:
        tag = {"dataset": c.dataset} if several else {}
        for p in c.pairs:
            env.append({**tag, "a": p.a, "b": p.b, "verdict": p.envelopment.verdict,
                        "crossings_fpr": InlineList(p.envelopment.crossings_fpr)})
        block = {r.measure: InlineList(r.order) for r in c.rankings}
        block["agree"] = c.rankings_agree
        if several:
            rankings[str(c.dataset)] = block
        else:
            rankings = block
        for v in c.roc_hull:
            hull.append({**tag, "fpr": v.fpr, "tpr": v.tpr, "learner": v.learner,
                         "threshold": _num(v.threshold)})
        for iv in c.cost_envelope:
            envelope.append({**tag, "learner": iv.learner, "threshold": _num(iv.threshold),
                             "pc_from": iv.pc_from, "pc_to": iv.pc_to})
    out = {}
    if env:
        out["envelopment"] = env
    if rankings:
        out["rankings"] = rankings
    if envelope:
        out["cost_envelope"] = envelope
    if hull:
        out["roc_hull"] = hull
    if result.comparisons:
        winners = {str(c.dataset): c.winner for c in result.comparisons}
        out["winner_at_operating_point"] = winners if several else result.comparisons[0].winner
    return out


def result_dict(result: Result) -> dict:
    """results.json as a dict, keys in their stable order."""
    op = result.operating_point
    spec = result.spec
    return {
        "evalreport_version": result.version,
        "spec_version": spec.version,
        "title": spec.title,
        "date": result.date,
        "task": spec.task,
        "positive": spec.positive_label,
        "inputs": result.inputs,
        "operating_point": {
            "p_positive": _num(op.p_positive),
            "p_positive_source": op.p_positive_source,
            "cost_fn": _num(op.cost_fn),
            "cost_fp": _num(op.cost_fp),
            "pc_positive": _num(op.pc_positive),
        },
        "learners": {key: learner_dict(lr, result) for key, lr in result.learners.items()},
        "comparisons": comparisons_dict(result),
        "gates": result.gates,
        "warnings": result.warnings,
    }
