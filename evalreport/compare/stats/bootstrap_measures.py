"""Bootstrap statistics of the measures a leaderboard ranks by and a challenger is
tested on, beyond the ready ones of :mod:`.bootstrap` (BEP, AP, expected total
cost, AUC, F1): the measures of the decisions at a threshold, the least cost and
the threshold's cost at PC(+), KS, Gini, rank loss, the Brier score and the ECE.

Each is a :data:`~.bootstrap.Statistic` (the engine's evaluation of one resample
in, a float or None out) with a vectorised form over a chunk of resamples (the
cumulative counts per distinct score: :class:`.bootstrap._Chunk`), NaN where
undefined. :func:`statistic_for` picks the statistic of a registry measure.
"""

from __future__ import annotations

import math

import numpy as np

from ... import registry
from ...metrics.calibration import calibration_of, not_probabilities, table_outcomes
from ...metrics.sums import dot
from .bootstrap import Statistic, auc_score, average_precision_score, bep_score, expected_total_cost, f1_at
from .bootstrap_values import column_at, joined

__all__ = ["AT_THRESHOLD", "at_threshold_of", "least_cost_at", "cost_at", "ks_score", "brier_of", "ece_of",
           "statistic_for", "of_counts_at"]


def _at_formulas(tp, fp, pos, neg, c_fn: float, c_fp: float) -> dict:
    """The measures of the decisions "score >= t" from their counts (arrays), NaN
    where a denominator is 0 (the engine's "undefined": metrics.binary, metrics.family)."""
    tp, fp, pos, neg = (np.asarray(a, dtype=np.float64) for a in (tp, fp, pos, neg))
    fn, tn = pos - tp, neg - fp
    m = pos + neg

    def ratio(a, b):
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(b > 0, a / np.where(b > 0, b, 1.0), np.nan)

    recall, specificity = ratio(tp, pos), ratio(tn, neg)
    mcc_den = np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    kappa_den = (tp + fn) * (fn + tn) + (tp + fp) * (fp + tn)
    return {
        "accuracy": ratio(tp + tn, m), "error_rate": ratio(fp + fn, m),
        "precision": ratio(tp, tp + fp), "recall": recall, "f1": ratio(2 * tp, 2 * tp + fp + fn),
        "specificity": specificity, "fpr": ratio(fp, neg), "fnr": ratio(fn, pos), "npv": ratio(tn, tn + fn),
        "balanced_accuracy": (recall + specificity) / 2, "youden": recall + specificity - 1,
        "mcc": ratio(tp * tn - fp * fn, mcc_den), "kappa": ratio(2 * (tp * tn - fp * fn), kappa_den),
        "cost_sensitive_error": ratio(fn * c_fn + fp * c_fp, m),
    }


#: the measures at a threshold :func:`at_threshold_of` computes
AT_THRESHOLD = ("accuracy", "error_rate", "precision", "recall", "f1", "specificity", "fpr", "fnr", "npv",
                "balanced_accuracy", "youden", "mcc", "kappa", "cost_sensitive_error")


def _column(chunk, threshold: float) -> int:
    """The column of the chunk's cumulative counts that is "score >= threshold"."""
    return int(chunk.thr_desc.size - np.searchsorted(chunk.thr_desc[::-1], threshold, side="left"))


def row_at(ev, threshold: float):
    """(tp, fp, positives, negatives) of the evaluation's decisions at ``threshold``."""
    t = ev.counts
    r = t.rows_at(threshold)
    return float(t.tp[r]), float(t.fp_at(r)), float(t.positives), float(t.negatives)


def at_threshold_of(name: str, threshold: float, *, c_fn: float = 1.0, c_fp: float = 1.0) -> Statistic:
    """A bootstrap statistic: measure ``name`` (one of :data:`AT_THRESHOLD`) of the
    decisions "positive iff score >= threshold" (the costs: cost_sensitive_error's)."""
    if name not in AT_THRESHOLD:
        raise ValueError(f"{name} is not a measure at a threshold here; one of {', '.join(AT_THRESHOLD)}")
    threshold = float(threshold)

    def statistic(ev) -> float | None:
        v = float(_at_formulas(*row_at(ev, threshold), c_fn, c_fp)[name])
        return None if np.isnan(v) else v

    def compute(chunk) -> np.ndarray:
        j = _column(chunk, threshold)
        return _at_formulas(chunk.tp[:, j], chunk.fp[:, j], chunk.pos, chunk.neg, c_fn, c_fp)[name]

    statistic.__name__ = f"{name}_at_{threshold:g}"
    statistic._vectorised = compute
    return statistic


def _normalised(tp, fp, pos, neg, pc: float):
    """FNR PC(+) + FPR (1 - PC(+)) (metrics.population.normalised_cost), NaN for one class."""
    tp, fp, pos, neg = (np.asarray(a, dtype=np.float64) for a in (tp, fp, pos, neg))
    ok = (pos > 0) & (neg > 0)
    if tp.ndim >= 1 and ok.all():  # every resample has both classes: the same operations, in place
        v = np.subtract(pos, tp)
        v /= pos
        v *= pc
        w = np.divide(fp, neg)
        w *= 1 - pc
        v += w
        return v
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(ok, (pos - tp) / np.where(ok, pos, 1) * pc + fp / np.where(ok, neg, 1) * (1 - pc), np.nan)


def cost_at(threshold: float, pc: float) -> Statistic:
    """A bootstrap statistic: the normalised expected cost at PC(+) = ``pc`` of the
    decisions at ``threshold`` (the registry's cost_at_threshold)."""
    threshold, pc = float(threshold), float(pc)

    def statistic(ev) -> float | None:
        v = float(_normalised(*row_at(ev, threshold), pc))
        return None if np.isnan(v) else v

    def part(chunk):  # (the counts at the threshold's column: kept, then computed for many chunks at once)
        return chunk.at_column(column_at(chunk, threshold))

    statistic._vectorised = lambda chunk: _normalised(*part(chunk), pc)
    statistic._gathered = (part, lambda parts: _normalised(*joined(parts), pc))
    return statistic


def least_cost_at(pc: float) -> Statistic:
    """A bootstrap statistic: the least normalised expected cost at PC(+) = ``pc``
    over every threshold, the trivial ones included (the registry's min_cost: a
    linear function of the ROC point is least at a vertex of the hull, so the
    least over all points is the least over the hull's vertices)."""
    pc = float(pc)

    def statistic(ev) -> float | None:
        t = ev.counts
        v = _normalised(np.asarray(t.tp), np.asarray(t.fp), float(t.positives), float(t.negatives), pc)
        return None if np.isnan(v).all() else float(np.nanmin(v))

    def part(chunk):
        # Only the rows of scores some positive has (and the ends) can hold the least:
        # any other row has the TP of the row before it and no fewer FP, so its cost
        # is no lower, in floats too (each operation rounds monotonically). The
        # same least as over every row, at about half the work (issue 38).
        return (*chunk.at_hull(), *chunk.classes())

    def of(tp, fp, pos, neg) -> np.ndarray:
        v = _normalised(tp, fp, pos[:, None], neg[:, None], pc)
        if ((pos > 0) & (neg > 0)).all():  # (no NaN)
            return v.min(axis=1)
        out = np.full(pos.size, np.nan)
        ok = ~np.isnan(v).all(axis=1)
        out[ok] = v[ok].min(axis=1)
        return out

    # (kept, then computed for many chunks at once: resampled_values_many)
    statistic._vectorised = lambda chunk: of(*part(chunk))
    statistic._gathered = (part, lambda parts: of(*joined(parts)))
    return statistic


def _ks_values(chunk) -> np.ndarray:
    # (the rows of scores some positive has and the ends only: elsewhere TPR - FPR
    # is no higher than in the row before, as in least_cost_at)
    tp, fp = chunk.at_hull()
    with np.errstate(invalid="ignore", divide="ignore"):
        ok = (chunk.pos > 0) & (chunk.neg > 0)
        d = tp / np.where(ok, chunk.pos, 1)[:, None] - fp / np.where(ok, chunk.neg, 1)[:, None]
    return np.where(ok, d.max(axis=1), np.nan)


def ks_score(ev) -> float | None:
    """KS of an evaluation: the largest TPR - FPR over its count table's rows."""
    t = ev.counts
    if not (t.positives > 0 and t.negatives > 0):
        return None
    return float(np.max(np.asarray(t.tp) / float(t.positives) - np.asarray(t.fp) / float(t.negatives)))


ks_score._vectorised = _ks_values


def _brier_values(chunk) -> np.ndarray:
    weights = chunk.memo.get("brier")
    if weights is None:  # (the same floats for every chunk of the learner)
        s = chunk.thr_desc
        weights = chunk.memo["brier"] = ((1.0 - s) ** 2, s ** 2)
    total = chunk.pos + chunk.neg  # the instances drawn (cp's and cn's row sums)
    # products and NumPy's row sums, not a BLAS product: the same last digit on every
    # processor; over the n instances drawn (n > 0)
    return (np.multiply(chunk.cp, weights[0]).sum(axis=1) + np.multiply(chunk.cn, weights[1]).sum(axis=1)) / total


def brier_of(ev) -> float | None:
    """The Brier score of an evaluation's scores (probabilities)."""
    s, p, q, _ = table_outcomes(ev.counts)
    total = float(p.sum() + q.sum())
    return None if total <= 0 else (dot(p, (1 - s) ** 2) + dot(q, s ** 2)) / total


brier_of._vectorised = _brier_values


def ece_of(bins: int = 10, strategy: str = "uniform") -> Statistic:
    """A bootstrap statistic: the ECE (metrics.calibration) of a resample's scores,
    binned as the spec's ``calibration:`` bins them. Uniform bins are fixed, so for
    all resamples at once ECE = sum over bins |positives_b - score sum_b| / n;
    quantile bins are found again in each resample (its own scores' quantiles)."""

    def statistic(ev) -> float | None:
        s, p, q, counts = table_outcomes(ev.counts)
        return calibration_of(s, p, q, bins=bins, strategy=strategy, counts=counts, descending=True).ece

    if strategy == "uniform":
        edges = np.linspace(0.0, 1.0, bins + 1)

        def compute(chunk) -> np.ndarray:
            s = chunk.thr_desc
            runs = chunk.memo.get(("ece", bins))
            if runs is None:  # (the same for every chunk of the learner)
                which = np.searchsorted(edges[1:-1], s, side="left")  # a score on an inner edge: the bin below
                # the scores are in descending order, so each bin is a run of columns:
                # sums over runs (integer counts exact), no (scores x bins) matrix product
                starts = np.flatnonzero(np.r_[True, which[1:] != which[:-1]])
                bounds = np.append(starts, s.size)
                runs = chunk.memo[("ece", bins)] = (starts, bounds[1:], bounds[:-1])
            starts, ends, begins = runs
            # (each bin's positives: its run's cumulative TP at the end less at the start)
            positives = np.take(chunk.tp, ends, axis=1) - np.take(chunk.tp, begins, axis=1)
            score_sums = np.add.reduceat(np.multiply(chunk.drawn[:, 1:], s), starts, axis=1)
            # (over the n instances drawn: drawn's row sums, n > 0)
            return np.abs(positives - score_sums).sum(axis=1) / (chunk.pos + chunk.neg)

        statistic._vectorised = compute
    return statistic


def statistic_for(name: str, lr, spec) -> Statistic | None:
    """The bootstrap statistic of registry measure ``name`` for binary learner
    ``lr`` (its threshold, the run's PC(+) and costs), or None where this module
    has none (partial AUC; the calibration measures of scores that are not
    probabilities)."""
    ready = {"auc": auc_score, "bep": bep_score, "average_precision": average_precision_score,
             "expected_total_cost": expected_total_cost, "ks": ks_score}
    if name in ready:
        return ready[name]
    if name in ("gini", "rank_loss"):
        sign = (2.0, -1.0) if name == "gini" else (-1.0, 1.0)
        return _affine(auc_score, *sign)
    costs = spec.costs or {}
    c_fn, c_fp = float(costs.get("false_negative", 1.0)), float(costs.get("false_positive", 1.0))
    if name == "f1":
        return f1_at(lr.threshold)
    if name in AT_THRESHOLD:
        return at_threshold_of(name, lr.threshold, c_fn=c_fn, c_fp=c_fp)
    if lr.pc_positive is not None and name == "cost_at_threshold":
        return cost_at(lr.threshold, lr.pc_positive)
    if lr.pc_positive is not None and name == "min_cost":
        return least_cost_at(lr.pc_positive)
    calibration = getattr(lr, "calibration", None)
    if name in ("brier", "ece") and calibration is not None and calibration.ece is not None:
        return brier_of if name == "brier" else ece_of(spec.calibration.bins, spec.calibration.strategy)
    measure = registry.MEASURES.get(name)
    if measure is not None and measure.of_counts is not None:
        return of_counts_at(measure.of_counts, lr.threshold)
    return None


def of_counts_at(function, threshold: float) -> Statistic:
    """A bootstrap statistic: a registry measure's pure function of the counts
    (``Measure.of_counts``) of the decisions "positive iff score >= threshold", one
    resample at a time (None where undefined)."""
    threshold = float(threshold)

    def statistic(ev) -> float | None:
        tp, fp, pos, neg = row_at(ev, threshold)
        v = function(tp, fp, neg - fp, pos - tp)
        return float(v) if isinstance(v, (int, float)) and not math.isnan(v) else None

    return statistic


def _affine(statistic: Statistic, a: float, b: float) -> Statistic:
    """``a * statistic + b`` (Gini = 2 AUC - 1, rank loss = 1 - AUC)."""
    def affine(ev) -> float | None:
        v = statistic(ev)
        return None if v is None else a * v + b

    affine._vectorised = lambda chunk: a * statistic._vectorised(chunk) + b
    return affine


def probabilities(scores) -> bool:
    """Whether ``scores`` are probabilities (the calibration measures apply)."""
    return not_probabilities(np.asarray(scores, dtype=np.float64)) is None
