"""Seeded, stratified percentile bootstrap of the measures of a multi-class
learner's decisions (accuracy, macro-F1), from its confusion matrix alone.

Resampling the instances of each true class with replacement, as the binary
bootstrap does (stratified), draws that class's row of the confusion matrix from
a multinomial law with the row's own shares: so each resample is one multinomial
draw per row, whatever the number of instances; the measures are computed for
all resamples at once, defined as the engine's (tests/test_multiclass_tests.py
checks them against metrics.multiclass.evaluate_multiclass_counts).
"""

from __future__ import annotations

from typing import Callable, Mapping

import numpy as np

from .bootstrap import BootstrapInterval, percentile_intervals
from ...metrics.levels import check_level

__all__ = ["bootstrap_confusion_intervals", "accuracy_of", "macro_f1_of"]

#: a statistic of many resampled confusion matrices at once: (B, k, k) -> (B,), NaN where undefined
ConfusionStatistic = Callable[[np.ndarray], np.ndarray]


def accuracy_of(draws: np.ndarray) -> np.ndarray:
    """Accuracy of each resample (trace / total), as the engine's."""
    return np.trace(draws, axis1=1, axis2=2) / draws.sum(axis=(1, 2))


def macro_f1_of(draws: np.ndarray) -> np.ndarray:
    """Zhou's macro-F1 of each resample, as the engine's (metrics.multiclass.
    average_matrices): per-class precision and recall one vs rest, an undefined one
    counted as 0 in the mean; 2PR / (P + R), undefined when P + R = 0."""
    tp = np.diagonal(draws, axis1=1, axis2=2).astype(float)
    predicted, actual = draws.sum(axis=1), draws.sum(axis=2)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.nan_to_num(np.where(predicted > 0, tp / predicted, np.nan)).mean(axis=1)
        r = np.nan_to_num(np.where(actual > 0, tp / actual, np.nan)).mean(axis=1)
        return np.where(p + r > 0, 2 * p * r / (p + r), np.nan)


def bootstrap_confusion_intervals(confusion, *, statistics: Mapping[str, ConfusionStatistic],
                                  n_resamples: int = 2000, seed: int = 0,
                                  level: float = 0.95) -> dict[str, BootstrapInterval]:
    """Percentile intervals of ``statistics`` over stratified resamples of the
    instances behind ``confusion`` (k x k unweighted counts, rows the true class).

    >>> ci = bootstrap_confusion_intervals([[40, 10], [5, 45]], statistics={"accuracy": accuracy_of},
    ...                                    n_resamples=500)
    >>> ci["accuracy"].low < 0.85 < ci["accuracy"].high
    True
    """
    level = check_level(level)
    confusion = np.asarray(confusion, dtype=float)
    counts = np.rint(confusion).astype(np.int64)
    if not np.array_equal(counts, confusion) or (counts < 0).any():
        raise ValueError("the confusion matrix must hold unweighted counts")
    n_resamples = int(n_resamples)
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be >= 1, got {n_resamples}")
    rng = np.random.Generator(np.random.PCG64(seed))
    rows = counts.sum(axis=1)
    draws = np.zeros((n_resamples,) + counts.shape, dtype=np.int64)
    for i, n in enumerate(rows):
        if n > 0:
            draws[:, i, :] = rng.multinomial(n, counts[i] / n, size=n_resamples)
    names = list(statistics)
    values = np.array([np.asarray(statistics[name](draws), dtype=float) for name in names])
    return percentile_intervals(names, values, level)
