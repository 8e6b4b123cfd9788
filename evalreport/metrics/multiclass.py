"""Several confusion matrices: multi-class tasks (one-vs-rest) and groups.

Zhou's definitions (docs/measures.md): macro-P and macro-R are means of the
per-matrix values and macro-F1 is computed *from* them; the mean of the
per-matrix F1 (scikit-learn's "macro F1") is reported apart as ``mean_f1``.
Micro averages average TP, FP, TN, FN over the matrices first. A per-matrix
value that is undefined counts as 0 in a macro mean (as scikit-learn does),
and ``undefined`` names the matrices concerned.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Mapping, Sequence

import numpy as np

from .binary import evaluate_counts
from .frozen import FrozenMapping
from .labels import label_key
from .sums import dot

__all__ = [
    "Averages",
    "ClassMeasures",
    "MulticlassEvaluation",
    "average_matrices",
    "evaluate_multiclass",
    "evaluate_multiclass_counts",
    "hand_till_auc",
]


@dataclass(frozen=True)
class ClassMeasures:
    """One-vs-rest measures of one class."""

    tp: float
    fp: float
    tn: float
    fn: float
    support: float
    precision: float | None
    recall: float | None
    f1: float | None
    fbeta: Mapping[float, float | None]
    auc: float | None = None
    average_precision: float | None = None


@dataclass(frozen=True)
class Averages:
    """Macro and micro averages over several binary confusion matrices."""

    macro_precision: float
    macro_recall: float
    macro_f1: float | None  # from macro-P and macro-R (Zhou eq. 2.14)
    mean_f1: float  # mean of the per-matrix F1 (scikit-learn's "macro F1")
    micro_precision: float | None
    micro_recall: float | None
    micro_f1: float | None
    undefined: Mapping[str, str] = field(default_factory=FrozenMapping)


def _ratio(num, den):
    return None if den == 0 else float(num / den)


def _f(num_p, num_r):
    if num_p is None or num_r is None or num_p + num_r == 0:
        return None
    return 2 * num_p * num_r / (num_p + num_r)


def average_matrices(matrices: Sequence[tuple[float, float, float, float]], names=None) -> Averages:
    """Macro and micro averages of binary matrices given as (TP, FP, TN, FN).

    >>> a = average_matrices([(8, 2, 85, 5), (3, 1, 90, 6)])
    >>> round(a.macro_precision, 4), round(a.micro_precision, 4)
    (0.775, 0.7857)
    """
    m = np.asarray(matrices, dtype=float)
    names = list(names) if names is not None else [str(i) for i in range(len(m))]
    tp, fp, tn, fn = m.T
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(tp + fp > 0, tp / (tp + fp), np.nan)
        r = np.where(tp + fn > 0, tp / (tp + fn), np.nan)
        f1 = np.where(2 * tp + fp + fn > 0, 2 * tp / (2 * tp + fp + fn), np.nan)
    und = {}
    for label, values in (("precision", p), ("recall", r), ("f1", f1)):
        bad = [names[i] for i in np.flatnonzero(np.isnan(values))]
        if bad:
            und[f"macro_{label}"] = f"{label} is undefined for {', '.join(bad)} (counted as 0 in the mean)"
    macro_p = float(np.nan_to_num(p).mean())
    macro_r = float(np.nan_to_num(r).mean())
    a_tp, a_fp, a_fn = tp.mean(), fp.mean(), fn.mean()
    micro_p = _ratio(a_tp, a_tp + a_fp)
    micro_r = _ratio(a_tp, a_tp + a_fn)
    return Averages(
        macro_precision=macro_p,
        macro_recall=macro_r,
        macro_f1=_f(macro_p, macro_r),
        mean_f1=float(np.nan_to_num(f1).mean()),
        micro_precision=micro_p,
        micro_recall=micro_r,
        micro_f1=_f(micro_p, micro_r),
        undefined=FrozenMapping(und),
    )


def _small_labels(y: np.ndarray, k: int) -> np.ndarray:
    """The class indices in the smallest integer type that holds them: each
    column's pass gathers them in its score order, and a gather from 1 byte a
    row (up to 127 classes) stays in cache where 8 bytes a row do not."""
    for dtype in (np.int8, np.int16, np.int32):
        if k <= np.iinfo(dtype).max:
            return y.astype(dtype)
    return y


def column_pass(y: np.ndarray, column: np.ndarray, w: np.ndarray | None, i: int, k: int, n_rows: int):
    """One sort of class i's score column gives both its one-vs-rest count table
    and, for every class j, the weight of (class-i, class-j) pairs that column i
    ranks right (ties 1/2): row i of Hand & Till's pairwise matrix, unnormalised."""
    from ..counting.order import argsort_scores
    from ..counting.table import SCALE_ADVICE, CountTable, WeightScaleError, weight_scale_problem

    if w is not None:
        with np.errstate(over="ignore"):
            total = float(np.sum(w))
        if np.isinf(total):  # every sum below would be inf or NaN
            raise WeightScaleError(f"{weight_scale_problem(total, 0)} ({SCALE_ADVICE})")
    # The ordering as DeLong's components take it: one sort of packed
    # (score, row) keys (counting.order), not np.argsort (half the time at 10^6
    # rows and 50 classes), and the ties come with it, so the sorted scores
    # are gathered only at the blocks' starts. Ascending and stable, reversed:
    # descending, ties in blocks (their sums below are exact counts; weights
    # are summed in reversed row order).
    column = np.ascontiguousarray(column, dtype=np.float64)
    order, ties = argsort_scores(column)
    order = order[::-1]
    n = order.size
    yy = y[order]
    is_i = yy == i
    starts = sizes = None  # None: every score distinct, each row its own block
    if ties.size:
        new_block = np.ones(n, dtype=bool)
        new_block[n - 1 - ties] = False  # ascending p and p + 1 tied: descending n - 2 - p and n - 1 - p
        starts = np.flatnonzero(new_block)
        sizes = np.diff(np.append(starts, n))
    if w is None:  # integer counts: exact
        ww = None
        block_i = is_i.astype(np.int64)
        block_all = np.ones(n, dtype=np.int64)
        if starts is not None:
            block_i = np.add.reduceat(block_i, starts)
            block_all = sizes
    else:
        ww = w[order]
        block_i = np.where(is_i, ww, 0.0)
        block_all = ww
        if starts is not None:
            block_i = np.add.reduceat(block_i, starts)
            block_all = np.add.reduceat(ww, starts)
    # the table, thresholds already descending and distinct
    tp = np.zeros(block_i.size + 1, dtype=block_i.dtype)
    fp = np.zeros(block_i.size + 1, dtype=block_all.dtype)
    np.cumsum(block_i, out=tp[1:])
    if ww is None:  # counts: the rows down to each block's end, less its positives (exact)
        above = tp[:-1]  # class-i rows strictly above each block
        np.subtract(np.arange(1, n + 1) if starts is None else np.append(starts[1:], n), tp[1:], out=fp[1:])
    else:
        above = tp[1:] - block_i  # (as before: a float sum less a term, not the sum before it)
        np.cumsum(block_all - block_i, out=fp[1:])
    credit = above + 0.5 * block_i  # per block; each of its rows gets it
    if starts is not None:
        credit = np.repeat(credit, sizes)
    wins = np.bincount(yy, weights=credit if ww is None else ww * credit, minlength=k)
    thresholds = column[order if starts is None else order[starts]]
    keep = block_all > 0  # zero-weight scores are not thresholds
    if not keep.all():
        rows = np.concatenate(([0], np.flatnonzero(keep) + 1))
        return CountTable(threshold=thresholds[keep], tp=tp[rows], fp=fp[rows], n_rows=n_rows), wins
    return CountTable(threshold=thresholds, tp=tp, fp=fp, n_rows=n_rows), wins


def hand_till_from_wins(wins: np.ndarray, class_weight: np.ndarray) -> float | None:
    """Hand & Till's (2001) multi-class AUC from the pairwise win sums:
    the mean over class pairs of (A(i|j) + A(j|i)) / 2, where A(i|j) ranks
    classes i against j by the score for class i."""
    k = class_weight.size
    pairs = []
    for i, j in combinations(range(k), 2):
        if class_weight[i] > 0 and class_weight[j] > 0:
            denom = class_weight[i] * class_weight[j]
            pairs.append((wins[i, j] + wins[j, i]) / (2 * denom))
    return float(np.mean(pairs)) if pairs else None


def hand_till_auc(y: np.ndarray, scores: np.ndarray, weights=None) -> float | None:
    """Hand & Till's (2001) multi-class AUC (``y``: class indices 0..k-1; ``scores``: n x k).

    >>> p = np.array([[.6, .2, .2], [.2, .6, .2], [.2, .2, .6], [.2, .6, .2]])
    >>> round(hand_till_auc(np.array([0, 1, 2, 0]), p), 4)   # as scikit-learn's multi_class="ovo"
    0.875
    """
    n, k = scores.shape
    w = None if weights is None else np.asarray(weights, dtype=float)
    yk = _small_labels(y, k)
    wins = np.vstack([column_pass(yk, scores[:, i], w, i, k, n)[1] for i in range(k)])
    return hand_till_from_wins(wins, np.bincount(y, weights=w, minlength=k))


@dataclass(frozen=True, eq=False)
class MulticlassEvaluation:
    classes: tuple
    n: int
    confusion: np.ndarray  # k x k, rows true, columns predicted (weighted)
    accuracy: float | None
    error_rate: float | None
    per_class: Mapping[str, ClassMeasures]
    averages: Averages
    macro_auc: float | None  # mean of the one-vs-rest AUCs
    weighted_auc: float | None  # one-vs-rest AUCs weighted by prevalence
    ovo_auc: float | None  # Hand & Till
    cost_sensitive_error: float | None = None
    bayes_cost: float | None = None  # cost of the least-expected-cost decisions, if scores are probabilities
    undefined: Mapping[str, str] = field(default_factory=FrozenMapping)


def evaluate_multiclass(y_true, *, classes: Sequence, scores=None, predicted=None, sample_weight=None,
                        cost_matrix=None, betas=(1.0,), probabilities: bool | None = None,
                        encoded: bool = False, keep: dict | None = None) -> MulticlassEvaluation:
    """Evaluate one learner on a multi-class task.

    Give ``scores`` (n x k, one column per class in ``classes`` order; the
    decision is the highest score, ties to the class listed first) or hard
    ``predicted`` labels (no AUC then). ``cost_matrix``: k x k, rows true,
    columns predicted, zero diagonal. ``encoded``: ``y_true`` and ``predicted``
    already hold class indices 0..k-1 (no label lookup). ``keep``: a dict that
    receives each class's one-vs-rest :class:`BinaryEvaluation` (for curves).

    >>> ev = evaluate_multiclass(["a", "b", "c", "a"], classes=["a", "b", "c"],
    ...                          predicted=["a", "b", "a", "c"])
    >>> ev.confusion.tolist(), ev.accuracy
    ([[1.0, 0.0, 1.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0]], 0.5)
    """
    classes = tuple(classes)
    k = len(classes)
    keys = [str(c) for c in classes]
    index = {key: i for i, key in enumerate(keys)}
    y_labels = np.asarray(y_true)
    n = y_labels.shape[0]
    if cost_matrix is not None and np.asarray(cost_matrix).shape != (k, k):
        raise ValueError(f"cost matrix must be {k} x {k}")
    y = y_labels.astype(np.int64) if encoded else _to_index(y_labels, index, "y_true")
    w = None if sample_weight is None else np.asarray(sample_weight, dtype=float)
    if scores is not None:
        s = np.asarray(scores, dtype=float)
        if s.shape != (n, k):
            raise ValueError(f"scores must be n x k = {n} x {k}, got {s.shape}")
        if not np.isfinite(s).all():
            bad = np.argwhere(~np.isfinite(s))[0]
            raise ValueError(f"scores have a non-finite value at row {bad[0]}, column {bad[1]}")
        yhat = np.argmax(s, axis=1)  # ties: the first class in `classes` order
    elif predicted is not None:
        s = None
        yhat = (np.asarray(predicted).astype(np.int64) if encoded
                else _to_index(np.asarray(predicted), index, "predicted"))
    else:
        raise ValueError("give scores or predicted")
    weights = np.ones(n) if w is None else w
    confusion = np.zeros((k, k))
    np.add.at(confusion, (y, yhat), weights)
    tables = wins = None
    if s is not None:
        tables, wins = [], np.zeros((k, k))
        yk = _small_labels(y, k)
        for i in range(k):
            table, wins[i] = column_pass(yk, s[:, i], w, i, k, n)
            tables.append(table)
    ev = evaluate_multiclass_counts(confusion, classes, n=n, tables=tables, wins=wins, betas=betas,
                                    keep=keep)
    if cost_matrix is not None:
        cse, bayes = multiclass_costs(y, yhat, s, cost_matrix, weights, probabilities)
        ev = replace(ev, cost_sensitive_error=cse, bayes_cost=bayes)
    return ev


def evaluate_multiclass_counts(confusion: np.ndarray, classes: Sequence, *, n: int, tables=None, wins=None,
                               betas=(1.0,), keep: dict | None = None, cost_matrix=None) -> MulticlassEvaluation:
    """Every multi-class measure from counts: the k x k confusion matrix (rows
    true, columns predicted), optionally each class's one-vs-rest count table
    and Hand & Till's pairwise win sums (rows: the class whose score ranks).
    This is what engines that aggregate where the data lives return; the
    in-memory path computes the same three and calls this."""
    classes = tuple(classes)
    keys = [str(c) for c in classes]
    confusion = np.asarray(confusion, dtype=float)
    total = confusion.sum()
    und: dict[str, str] = {}
    accuracy = _ratio(np.trace(confusion), total)
    error = None if accuracy is None else 1.0 - accuracy
    per_class = {}
    matrices = []
    aucs, supports = [], []
    for i, key in enumerate(keys):
        tp = confusion[i, i]
        fp = confusion[:, i].sum() - tp
        fn = confusion[i, :].sum() - tp
        tn = total - tp - fp - fn
        matrices.append((tp, fp, tn, fn))
        prec, rec = _ratio(tp, tp + fp), _ratio(tp, tp + fn)
        if prec is None:
            und[f"classes.{key}.precision"] = f"class {key} is never predicted"
        if rec is None:
            und[f"classes.{key}.recall"] = f"class {key} has no instances"
        fb = {}
        for b in betas:
            b2 = float(b) ** 2
            fb[float(b)] = _ratio((1 + b2) * tp, (1 + b2) * tp + b2 * fn + fp)
        auc = ap = None
        if tables is not None:
            ev = evaluate_counts(tables[i])
            auc, ap = ev.auc, ev.average_precision
            if keep is not None:
                keep[key] = ev
            for name in ("auc", "average_precision"):
                if name in ev.undefined:
                    und[f"classes.{key}.{name}"] = f"class {key}: {ev.undefined[name]}"
        per_class[key] = ClassMeasures(tp=float(tp), fp=float(fp), tn=float(tn), fn=float(fn),
                                       support=float(tp + fn), precision=prec, recall=rec,
                                       f1=_ratio(2 * tp, 2 * tp + fp + fn), fbeta=FrozenMapping(fb),
                                       auc=auc, average_precision=ap)
        aucs.append(auc)
        supports.append(tp + fn)
    averages = average_matrices(matrices, keys)
    macro_auc = weighted_auc = ovo = None
    if tables is not None:
        if all(a is not None for a in aucs):
            macro_auc = float(np.mean(aucs))
            # math.fsum: a final sum rounded once, the same bits on every processor (np.dot: BLAS's)
            weighted_auc = math.fsum(a * s for a, s in zip(aucs, supports)) / math.fsum(supports)
        else:
            und["macro.auc"] = "a class has no instances (or all of them): its one-vs-rest AUC is undefined"
    if wins is not None:
        ovo = hand_till_from_wins(np.asarray(wins), confusion.sum(axis=1))
    cse = None
    if cost_matrix is not None:
        cse = _ratio(float((confusion * np.asarray(cost_matrix, dtype=float)).sum()), total)
    return MulticlassEvaluation(
        classes=classes, n=int(n), confusion=confusion, accuracy=accuracy, error_rate=error,
        per_class=FrozenMapping(per_class), averages=averages, macro_auc=macro_auc,
        weighted_auc=weighted_auc, ovo_auc=ovo, cost_sensitive_error=cse, bayes_cost=None,
        undefined=FrozenMapping({**und, **dict(averages.undefined)}),
    )


def multiclass_costs(y, yhat, scores, cost_matrix, weights=None, probabilities=None):
    """The cost-sensitive error of decisions ``yhat`` and, when ``scores`` are
    probabilities, of the Bayes decisions (least expected cost under the matrix).

    ``y`` and ``yhat`` are class indices; rows of the matrix are true classes.
    """
    c = np.asarray(cost_matrix, dtype=float)
    k = c.shape[0]
    w = np.ones(y.size) if weights is None else np.asarray(weights, dtype=float)
    total = w.sum()
    if c.shape != (k, k) or (scores is not None and scores.shape[1] != k):
        raise ValueError(f"cost matrix must be {k} x {k}")
    if total == 0:
        return None, None
    cse = dot(w, c[y, yhat]) / float(total)
    bayes = None
    is_prob = probabilities if probabilities is not None else (
        scores is not None and bool(np.all(scores >= 0)) and np.allclose(scores.sum(axis=1), 1.0, atol=1e-3))
    if scores is not None and is_prob:
        # expected cost of predicting j: sum_i p_i cost[i][j]; choose the least
        bayes = dot(w, c[y, np.argmin(scores @ c, axis=1)]) / float(total)
    return cse, bayes


def _to_index(labels: np.ndarray, index: Mapping[str, int], what: str) -> np.ndarray:
    keys = [label_key(v) for v in np.unique(labels)]
    unknown = [k for k in keys if k not in index]
    if unknown:
        raise ValueError(f"{what} holds {unknown[0]!r}, which is not one of the classes "
                         f"({', '.join(index)})")
    values = np.unique(labels)
    lookup = np.array([index[label_key(v)] for v in values])
    return lookup[np.searchsorted(values, labels)]
