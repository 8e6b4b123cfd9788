"""The multi-class task's evaluation: each learner's k x k matrix, per-class
one-vs-rest measures and curves, macro and micro averages, groups, costs."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..compare.stats.bootstrap_confusion import accuracy_of, bootstrap_confusion_intervals, macro_f1_of
from ..curves import output_curves
from ..data import Source
from ..metrics.groups import group_codes
from ..metrics.multiclass import (
    Averages,
    MulticlassEvaluation,
    average_matrices,
    evaluate_multiclass,
    evaluate_multiclass_counts,
    multiclass_costs,
)
from ..metrics.population import population_confusion
from ..metrics.score_summary import column_scores
from ..result import MulticlassLearnerResult, RunWarning
from ..spec import Spec
from .base import learner_warning
from .family import multiclass_family_warnings
from .calibration import multiclass_learner_calibration
from ..number_style import general

__all__ = ["prior_factors", "evaluate_multiclass_learners", "class_weights_for_priors"]

#: the engine's names of undefined multi-class values -> the registry's measure
#: (per-class values, "classes.<c>.<m>", concern no single registry measure)
REGISTRY_NAME = {"macro_precision": "precision", "macro_recall": "recall", "macro_f1": "macro_f1",
                 "macro.auc": "macro_auc"}


def _population(spec: Spec, ev, betas):
    """With priors: the measures of the decisions in the population they describe
    (the confusion matrix's rows reweighted to the priors), as for binary tasks."""
    if not spec.priors:
        return None
    matrix = population_confusion(ev.confusion, spec.priors, spec.classes)
    return evaluate_multiclass_counts(matrix, list(spec.classes), n=ev.n, betas=betas)


def _bootstrap(spec: Spec, ev, s: Source, key: str, warnings: list) -> dict | None:
    """Percentile-bootstrap intervals of accuracy and macro-F1 (stratified by the
    true class), from the learner's confusion matrix; unit weights only."""
    b = spec.confidence.bootstrap
    if not b:
        return None
    if s.weights is not None:
        warnings.append(learner_warning(key, "bootstrap intervals are not computed for weighted data (the "
                                        "bootstrap here assumes unit weights)", "bootstrap"))
        return None
    return bootstrap_confusion_intervals(ev.confusion, n_resamples=b,
                                         seed=spec.confidence.seed, level=spec.confidence.level,
                                         statistics={"accuracy": accuracy_of, "macro_f1": macro_f1_of})


def prior_factors(spec: Spec, labels: np.ndarray, weights=None) -> np.ndarray | None:
    """Each true class's weight that makes the class shares equal the spec's priors
    (for costs); None without priors."""
    if not spec.priors:
        return None
    keys = [str(c) for c in spec.classes]
    w = np.ones(labels.size) if weights is None else weights
    observed = np.bincount(labels, weights=w, minlength=len(keys))
    factor = np.ones(len(keys))
    for i, key in enumerate(keys):
        if key in spec.priors and observed[i] > 0:
            factor[i] = spec.priors[key] / (observed[i] / observed.sum())
    return factor


def class_weights_for_priors(spec: Spec, labels: np.ndarray, weights) -> np.ndarray | None:
    """Instance weights that make the class shares equal the spec's priors (for costs)."""
    factor = prior_factors(spec, labels, weights)
    if factor is None:
        return None
    w = np.ones(labels.size) if weights is None else weights
    return w * factor[labels]


def evaluate_multiclass_learners(spec: Spec, sources: list[Source], keys: dict, checked=None,
                                 progress=None):
    """Each learner of each source (``keys``: (dataset, name) -> results.json key)."""
    classes = list(spec.classes)
    cost = (spec.costs or {}).get("matrix")
    betas = tuple(dict.fromkeys([1.0] + [float(b) for b in spec.fbeta]))
    results, warnings = {}, []
    for s in sources:
        if s.mc_counts is not None:
            _from_counts(spec, s, keys, classes, cost, betas, results, warnings)
            continue
        y = s.labels  # class indices
        cost_weights = class_weights_for_priors(spec, y, s.weights)
        for name, values in s.learners.items():
            if progress:
                progress(f"evaluating {name} ({s.rows:,} rows)")
            key = keys[(s.dataset, name)]
            hard = name in s.hard
            kwargs = dict(classes=classes, sample_weight=s.weights, betas=betas, encoded=True)
            per_class: dict = {}
            if hard:
                ev = evaluate_multiclass(y, predicted=values, **kwargs)
            else:
                ev = evaluate_multiclass(y, scores=values, keep=per_class, **kwargs)
            if cost is not None:
                # costs (and Bayes decisions) for the population the priors describe
                yhat = values if hard else np.argmax(values, axis=1)
                probabilities, scores = (False, None) if hard else _as_probabilities(values, key, warnings)
                cse, bayes = multiclass_costs(y, yhat, scores, cost,
                                              cost_weights if cost_weights is not None else s.weights,
                                              probabilities=probabilities)
                ev = replace(ev, cost_sensitive_error=cse, bayes_cost=bayes)
            # one-vs-rest curves, bounded, and each class's score column (kept for later
            # runs' comparisons); the per-class count tables are dropped
            curves = {cname: output_curves(b, spec.report.curve_points) for cname, b in per_class.items()}
            summary = None if hard else _column_summaries(per_class, classes)
            del per_class
            groups = group_avg = None
            if s.groups is not None:
                gnames, codes = group_codes(s.groups)
                groups = {}
                matrices, labels = [], []
                for g, gname in enumerate(gnames):
                    rows = codes == g
                    sub = dict(classes=classes, encoded=True, betas=betas,
                               sample_weight=None if s.weights is None else s.weights[rows])
                    gev = (evaluate_multiclass(y[rows], predicted=values[rows], **sub) if hard
                           else evaluate_multiclass(y[rows], scores=values[rows], **sub))
                    groups[gname] = gev
                    for cname, m in groups[gname].per_class.items():
                        matrices.append((m.tp, m.fp, m.tn, m.fn))
                        labels.append(f"{gname}/{cname}")
                group_avg = average_matrices(matrices, labels)
            for measure, reason in ev.undefined.items():
                warnings.append(learner_warning(key, f"{measure} is undefined: {reason}",
                                                REGISTRY_NAME.get(measure)))
            warnings += multiclass_family_warnings(spec.metric_set, key, ev)
            if hard:
                no_bayes = " and no Bayes decision cost (it needs scores)" if cost is not None else ""
                warnings.append(RunWarning(f"learner '{key}' gives hard decisions only: no curves or "
                                        f"AUC{no_bayes}", learner=key))
            results[key] = MulticlassLearnerResult(
                name=name, key=key, dataset=s.dataset, source=s.path, hard=hard, evaluation=ev,
                class_curves=curves, groups=groups, group_averages=group_avg,
                population=_population(spec, ev, betas),
                bootstrap=_bootstrap(spec, ev, s, key, warnings),
                calibration=multiclass_learner_calibration(spec, key, y, values, s.weights, warnings, hard=hard),
                score_summary=summary,
            )
    return results, warnings


def _column_summaries(per_class: dict, classes) -> dict:
    """{class: the class's score column over all instances} (metrics.score_summary),
    from each class's one-vs-rest count table; None for a class without one."""
    out = {}
    for c in classes:
        ev = per_class.get(str(c))
        out[str(c)] = None if ev is None else column_scores(ev.counts)
    return out


#: score rows summing to 1 within this are probabilities as they are
PROBABILITY_TOLERANCE = 1e-3
#: rows within this of 1 are probabilities rounded on export (two decimals: up to
#: 0.015 off with three classes) and are divided by their sums for the Bayes decisions
RENORMALISE_WITHIN = 0.02


def _as_probabilities(values: np.ndarray, key: str, warnings: list[RunWarning]):
    """Whether a learner's score rows are class probabilities, and the scores the
    Bayes decisions use: as given when every row sums to 1 within 1e-3; each row
    divided by its sum when every row is within 0.02 of 1 (said in a warning);
    otherwise none, with a warning that the Bayes decision cost is not computed."""
    if values.size == 0:
        return False, None
    low = float(values.min())
    if low < 0:
        warnings.append(learner_warning(key, "the Bayes decision cost is not computed: the scores are not "
                                        f"probabilities (a score is negative: {general(low)})", "bayes_decision_cost"))
        return False, None
    sums = values.sum(axis=1)
    if np.allclose(sums, 1.0, atol=PROBABILITY_TOLERANCE):
        return True, values
    worst = int(np.argmax(np.abs(sums - 1.0)))
    off = float(abs(sums[worst] - 1.0))
    if off <= RENORMALISE_WITHIN:
        warnings.append(learner_warning(
            key, f"score rows sum to between {general(float(sums.min()), 4)} and "
            f"{general(float(sums.max()), 4)} (rounded "
            "probabilities?): each row is divided by its sum for the Bayes decision cost (largest deviation "
            f"from 1: {general(off, 3)}, row {worst + 1})", "bayes_decision_cost"))
        return True, values / sums[:, None]
    warnings.append(learner_warning(
        key, "the Bayes decision cost is not computed: the scores are not probabilities "
        f"(row {worst + 1} sums to {general(float(sums[worst]), 4)}; rows within {general(RENORMALISE_WITHIN)} "
        "of 1 would be renormalised)", "bayes_decision_cost"))
    return False, None


def _from_counts(spec, s, keys, classes, cost, betas, results, warnings):
    """Learners aggregated by an engine: the measures from their counts."""
    for name, agg in s.mc_counts.items():
        key = keys[(s.dataset, name)]
        per_class: dict = {}
        confusion = agg.confusion
        ev = evaluate_multiclass_counts(confusion, classes, n=s.rows, tables=agg.tables, wins=agg.wins,
                                        betas=betas, keep=per_class)
        if cost is not None:
            # with priors, each true class's row is reweighted to the prior's share
            rows = confusion.sum(axis=1)
            factor = np.ones(len(classes))
            for i, c in enumerate(classes):
                if spec.priors and str(c) in spec.priors and rows[i] > 0:
                    factor[i] = spec.priors[str(c)] / (rows[i] / rows.sum())
            weighted = confusion * factor[:, None]
            cse = float((weighted * np.asarray(cost, dtype=float)).sum() / weighted.sum())
            ev = replace(ev, cost_sensitive_error=cse)
            warnings.append(learner_warning(key, f"aggregated by {s.engine}: the Bayes decision cost needs "
                                            "each instance's scores and is not computed", "bayes_decision_cost"))
        curves = {cname: output_curves(b, spec.report.curve_points) for cname, b in per_class.items()}
        summary = _column_summaries(per_class, classes)
        for measure, reason in ev.undefined.items():
            warnings.append(learner_warning(key, f"{measure} is undefined: {reason}",
                                                REGISTRY_NAME.get(measure)))
        warnings += multiclass_family_warnings(spec.metric_set, key, ev)
        results[key] = MulticlassLearnerResult(
            name=name, key=key, dataset=s.dataset, source=s.path, hard=False, evaluation=ev,
            class_curves=curves, population=_population(spec, ev, betas),
            calibration=multiclass_learner_calibration(spec, key, None, None, None, warnings, hard=False,
                                                       engine=s.engine),
            score_summary=summary)
