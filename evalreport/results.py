"""The result as plain data, in results.json's stable key order.

Formatting of values lives here (one place): non-finite numbers become
``null``; thresholds of +inf ("predict nothing positive") become ``null`` too.
"""

from __future__ import annotations

import math

import numpy as np

from .pipeline import LearnerResult, Result
from .redact import published

__all__ = ["result_dict", "report_warnings", "published_inputs"]


def report_warnings(result: Result) -> list[str]:
    """Every warning of the run, as results.json and the report list them: the
    evaluation's (``result.warnings``), then those raised while drawing the
    report's figures (matplotlib, NumPy). The figures are drawn once per result,
    whatever the formats, so results.json is the same with or without the HTML.
    Credentials in them are redacted (a warning may name a data file's URL)."""
    from .report.context import figure_warnings

    return list(published(result).warnings) + figure_warnings(result)


def published_inputs(result: Result) -> list[dict]:
    """The inputs as the report publishes them: a URL's credentials redacted."""
    return [dict(i) for i in published(result).inputs]


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
    x, y = block.x, block.y
    if block.simplified:
        # Already approximate to max_error (>> 1e-10): 10 decimals lose nothing
        # and keep the file (and the PDF that carries it) small.
        x, y = np.round(x, 10), np.round(y, 10)
    d = {xname: _list(x), yname: _list(y), "threshold": _list(block.threshold)}
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


def _averages_dict(a, *, auc=None) -> tuple[dict, dict]:
    macro = {"precision": _num(a.macro_precision), "recall": _num(a.macro_recall),
             "f1": _num(a.macro_f1), "mean_f1": _num(a.mean_f1)}
    if auc is not None:
        macro.update(auc)
    micro = {"precision": _num(a.micro_precision), "recall": _num(a.micro_recall), "f1": _num(a.micro_f1)}
    return macro, micro


def _groups_dict(groups) -> dict:
    out = {"groups": {name: {k: _num(v) for k, v in m.items()}
                      for name, m in zip(groups.names, groups.measures)}}
    out["groups_macro"], out["groups_micro"] = _averages_dict(groups.averages)
    return out


def multiclass_learner_dict(lr, result: Result) -> dict:
    ev = lr.evaluation
    metrics = result.spec.metric_set

    def block(e) -> dict:
        d = {"n": int(e.n), "accuracy": _num(e.accuracy), "error_rate": _num(e.error_rate)}
        if "confusion_matrix" in metrics:
            d["confusion_matrix"] = [InlineList(_num(v) for v in row) for row in e.confusion.tolist()]
        d["classes"] = {}
        for name, m in e.per_class.items():
            c = {"precision": _num(m.precision), "recall": _num(m.recall), "f1": _num(m.f1),
                 "support": _num(m.support)}
            if "fbeta" in metrics:
                c["fbeta"] = {f"{b:g}": _num(m.fbeta.get(float(b))) for b in result.spec.fbeta}
            if not lr.hard:
                c["auc"] = _num(m.auc)
                c["average_precision"] = _num(m.average_precision)
            d["classes"][name] = c
        auc = None if lr.hard else {"auc": _num(e.macro_auc), "weighted_auc": _num(e.weighted_auc),
                                    "ovo_auc": _num(e.ovo_auc)}
        d["macro"], d["micro"] = _averages_dict(e.averages, auc=auc)
        if e.cost_sensitive_error is not None:
            d["cost_sensitive_error"] = _num(e.cost_sensitive_error)
        if e.bayes_cost is not None:
            d["bayes_decision_cost"] = _num(e.bayes_cost)
        return d

    d = {"dataset": lr.dataset, "source": published(result).sources[lr.key], **block(ev)}
    if lr.class_curves and "roc" in metrics:
        d["curves"] = {name: {"roc": _curve_block(c.roc, "fpr", "tpr")}
                       for name, c in lr.class_curves.items() if c.roc is not None}
    if lr.groups is not None:
        d["groups"] = {name: block(g) for name, g in lr.groups.items()}
        d["groups_macro"], d["groups_micro"] = _averages_dict(lr.group_averages)
    return d


def learner_dict(lr: LearnerResult, result: Result) -> dict:
    spec = result.spec
    metrics = spec.metric_set
    ev, at = lr.summary, lr.at_threshold
    d: dict = {
        "dataset": lr.dataset,
        "source": published(result).sources[lr.key],
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
        if name == "auc" and lr.auc_ci is not None and lr.auc_ci.ci is not None:
            d["auc_ci"] = InlineList(_num(x) for x in lr.auc_ci.ci)
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
    if lr.resolution_bound is not None:
        d["resolution_bound"] = {k: _num(v) for k, v in lr.resolution_bound.items()}
    if lr.bootstrap:
        d["bootstrap"] = {"level": result.spec.confidence.level,
                          "resamples": result.spec.confidence.bootstrap,
                          **{k: InlineList([_num(v.low), _num(v.high)]) for k, v in lr.bootstrap.items()}}
    if lr.groups is not None:
        d.update(_groups_dict(lr.groups))
    return d


def comparisons_dict(result: Result) -> dict:
    """The comparisons block; entries name their data set when there are several."""
    several = len(result.comparisons) > 1
    env, rankings, envelope, hull = [], {}, [], []
    delong, mcnemar, paired_t = [], [], []
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
        for t in c.tests:
            if t.delong is not None:
                d = t.delong
                delong.append({**tag, "a": t.a, "b": t.b, "auc_difference": _num(d.difference),
                               "z": _num(d.z), "p_value": _num(d.p_value),
                               "ci": InlineList(_num(x) for x in d.ci) if d.ci else None})
            if t.mcnemar is not None:
                m = t.mcnemar
                row = {**tag, "a": t.a, "b": t.b, "e01": _num(m.e01), "e10": _num(m.e10),
                       "statistic": _num(m.statistic), "p_value": _num(m.p_value)}
                if m.p_value_exact is not None:  # few disagreements: the exact binomial test
                    row["p_value_exact"] = _num(m.p_value_exact)
                mcnemar.append(row)
            if t.paired_t is not None:
                pt = t.paired_t
                paired_t.append({**tag, "a": t.a, "b": t.b, "mean_difference": _num(pt.mean_difference),
                                 "t": _num(pt.t), "dof": pt.dof, "p_value": _num(pt.p_value),
                                 "ci": InlineList(_num(x) for x in pt.ci)})
        for v in c.roc_hull:
            hull.append({**tag, "fpr": v.fpr, "tpr": v.tpr, "learner": v.learner,
                         "threshold": _num(v.threshold)})
        for iv in c.cost_envelope:
            envelope.append({**tag, "learner": iv.learner, "threshold": _num(iv.threshold),
                             "pc_from": iv.pc_from, "pc_to": iv.pc_to})
    # only what was computed, in this order
    out = {key: rows for key, rows in (
        ("envelopment", env), ("rankings", rankings), ("cost_envelope", envelope), ("roc_hull", hull),
        ("delong", delong), ("mcnemar", mcnemar), ("paired_t", paired_t)) if rows}
    if result.friedman is not None:
        f = result.friedman
        fr = f.friedman
        out["friedman"] = {
            "measure": f.measure, "datasets": InlineList(f.datasets), "learners": InlineList(f.learners),
            "average_ranks": {n: _num(r) for n, r in zip(f.learners, fr.average_ranks)},
            "chi2": _num(fr.chi2), "p_value_chi2": _num(fr.p_value_chi2),
            "f_statistic": _num(fr.f_statistic), "p_value_f": _num(fr.p_value_f),
            "critical_difference": _num(fr.critical_difference), "alpha": _num(fr.alpha),
            "significant_pairs": [InlineList([f.learners[i], f.learners[j]]) for i, j in fr.significant_pairs],
        }
    if result.comparisons:
        winners = {str(c.dataset): c.winner for c in result.comparisons}
        name = "best_accuracy" if result.spec.task == "multiclass" else "winner_at_operating_point"
        out[name] = winners if several else result.comparisons[0].winner
    return out


def result_dict(result: Result) -> dict:
    """results.json as a dict, keys in their stable order."""
    op = result.operating_point
    spec = result.spec
    if spec.task == "multiclass":
        learners = {key: multiclass_learner_dict(lr, result) for key, lr in result.learners.items()}
        return {
            "evalreport_version": result.version,
            "spec_version": spec.version,
            "title": published(result).title,
            "date": result.date,
            "task": spec.task,
            "classes": [str(c) for c in spec.classes],
            "inputs": published_inputs(result),
            "learners": learners,
            "comparisons": comparisons_dict(result),
            "gates": result.gates,
            "warnings": report_warnings(result),
        }
    return {
        "evalreport_version": result.version,
        "spec_version": spec.version,
        "title": published(result).title,
        "date": result.date,
        "task": spec.task,
        "positive": spec.positive_label,
        "inputs": published_inputs(result),
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
        "warnings": report_warnings(result),
    }
