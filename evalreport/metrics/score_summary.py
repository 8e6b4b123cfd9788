"""What a later run needs of this one's scores, read off the count table: each
class's score distribution, compactly, and DeLong's variance of the AUC.

Both come from the cumulative counts alone (no per-row data), so every engine
that builds a count table (memory, duckdb, spark) gives the same values.

A class's distribution is its distinct scores and their total weights when it
has at most :data:`MAX_VALUES` of them; past that, its weighted inverted-CDF
quantiles at :data:`PROBABILITIES` (``numpy.quantile(..., weights=w,
method="inverted_cdf")``): the smallest score whose share of the class at or
below it reaches p. Either way the size is bounded, whatever the rows.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .sums import dot
from ..counting.table import CountTable

__all__ = ["ClassScores", "MAX_VALUES", "PROBABILITIES", "class_scores", "column_scores", "score_summary",
           "delong_variance"]

#: a class with at most this many distinct scores is kept whole
MAX_VALUES = 1000
#: otherwise its quantiles at 0, 0.001, ..., 1 (1,001)
PROBABILITIES = np.arange(1001) / 1000


@dataclass(frozen=True, eq=False)
class ClassScores:
    """One class's scores: ``kind`` "values" (``values`` ascending, ``weights``
    their total weights) or "quantiles" (``values`` at ``probabilities``,
    ``weight`` the class's total weight)."""

    kind: str
    values: np.ndarray
    weights: np.ndarray | None = None
    probabilities: np.ndarray | None = None
    weight: float | int | None = None


def _first_rows(at, size: int, passed) -> np.ndarray:
    """For each target, the first row j in 0..size-1 whose cumulative count
    ``at(j)`` has ``passed(value)`` (True from some row on: the counts only
    grow), ``size`` where none has. A bisection of all targets at once through
    the accessor, so that a table whose columns are formed lazily (one row per
    instance) is read at a few rows per step instead of whole."""
    lo = np.zeros(passed.size, dtype=np.int64)
    hi = np.full(passed.size, size, dtype=np.int64)
    while True:
        open_ = lo < hi
        if not open_.any():
            return lo
        mid = (lo + hi) // 2
        ok = passed(np.asarray(at(np.minimum(mid, size - 1))))
        lo = np.where(open_ & ~ok, mid + 1, lo)
        hi = np.where(open_ & ok, mid, hi)


class _Reaching:
    """``passed`` for :func:`_first_rows`: the count reaches each level."""

    def __init__(self, levels):
        self.levels = np.asarray(levels)
        self.size = self.levels.size

    def __call__(self, value):
        return value >= self.levels


class _ShareBelow:
    """``passed`` for :func:`_first_rows`: the class's share at or below row
    j + 1's score, (total - c[j]) / total, is below p (computed as numpy's
    weighted inverted-CDF quantile computes its cumulative shares)."""

    def __init__(self, total, probabilities):
        self.total, self.p = total, probabilities
        self.size = probabilities.size

    def __call__(self, value):
        return (self.total - value) / self.total < self.p


def class_scores(table: CountTable, positive: bool) -> ClassScores | None:
    """The distribution of one class's scores in ``table`` (None: the class is empty)."""
    at = table.tp_at if positive else table.fp_at
    total = table.positives if positive else table.negatives
    k = len(table)
    if total <= 0 or k == 0:
        return None
    if table.unit_steps:
        # one instance per row: the class has as many distinct scores as instances,
        # at the rows where its cumulative count reaches 1, 2, ...
        distinct = int(total)
        if distinct <= MAX_VALUES:
            rows = _first_rows(at, k + 1, _Reaching(np.arange(1, distinct + 1)))
            values = np.asarray(table.threshold_at(rows - 1), dtype=np.float64)[::-1]
            return ClassScores("values", values.copy(), np.ones(distinct, dtype=np.int64))
    else:
        cum = np.asarray(table.tp if positive else table.fp)
        step = np.diff(cum)
        present = np.flatnonzero(step > 0)
        if present.size <= MAX_VALUES:
            values = np.asarray(table.threshold_at(present), dtype=np.float64)[::-1]
            weights = step[present][::-1]  # int64 unweighted, float64 weighted
            return ClassScores("values", values.copy(), weights.copy())
    # The quantile at p is the lowest score whose share of the class at or below
    # it reaches p: row j's score, j the first row whose next row's share falls
    # under p, i.e. (total - c[j]) / total < p. At p = 0 none does: there the
    # lowest score of the class, at the first row where its count reaches the total.
    rows = _first_rows(at, k + 1, _ShareBelow(total, PROBABILITIES))
    last = _first_rows(at, k + 1, _Reaching([total]))[0]
    rows = np.minimum(rows, last)
    values = np.asarray(table.threshold_at(rows - 1), dtype=np.float64)
    return ClassScores("quantiles", values, probabilities=PROBABILITIES, weight=total)


def column_scores(table: CountTable) -> ClassScores | None:
    """The distribution of the whole score column of ``table``, both of its classes
    together (None: no weight): a multi-class learner's score for one class over all
    instances, from that class's one-vs-rest table. The table whose positives are
    every instance (cumulative counts tp + fp, no negatives) gives it through
    :func:`class_scores`, so the format and its bounds are the same."""
    tp, fp = np.asarray(table.tp), np.asarray(table.fp)
    column = CountTable(threshold=np.asarray(table.threshold), tp=tp + fp, fp=np.zeros_like(fp),
                        n_rows=table.n_rows)
    return class_scores(column, True)


def score_summary(table: CountTable) -> dict[str, ClassScores | None]:
    """{"positive": ..., "negative": ...}: each class's scores (:func:`class_scores`)."""
    return {"positive": class_scores(table, True), "negative": class_scores(table, False)}


def delong_variance(table: CountTable) -> float | None:
    """DeLong's variance of the AUC, var(V10)/m + var(V01)/n, from the counts.

    The structural components depend on an instance's score alone: a positive
    at row j has V10 = (n - (fp[j] + fp[j-1]) / 2) / n (the negatives below it,
    half of those tied), a negative V01 = (tp[j] + tp[j-1]) / 2 / m; so their
    sample variances (ddof = 1, as in compare.stats.delong) are sums over the
    rows weighted by the class's count there. None with weights (DeLong's
    variance assumes unit weights, as compare.stats does) or fewer than 2 of a
    class.
    """
    if table.weighted:
        return None
    m, n = int(table.positives), int(table.negatives)
    if m < 2 or n < 2:
        return None
    tp, fp = table.tp, table.fp

    def rows(lo, hi):
        """The components and class counts of rows lo+1..hi (float64, one chunk)."""
        t, f = tp[lo:hi + 1].astype(np.float64), fp[lo:hi + 1].astype(np.float64)
        return np.diff(t), np.diff(f), (n - (f[1:] + f[:-1]) / 2) / n, (t[1:] + t[:-1]) / 2 / m

    # in chunks: a table of ten million rows needs no ten-million-row temporaries
    chunks = [(lo, min(lo + _CHUNK, len(table))) for lo in range(0, len(table), _CHUNK)]
    auc = sum(dot(dtp, v10) for dtp, _, v10, _ in (rows(lo, hi) for lo, hi in chunks)) / m
    var10 = var01 = 0.0
    for lo, hi in chunks:
        dtp, dfp, v10, v01 = rows(lo, hi)
        var10 += dot(dtp, (v10 - auc) ** 2)
        var01 += dot(dfp, (v01 - auc) ** 2)
    return var10 / (m - 1) / m + var01 / (n - 1) / n


_CHUNK = 1 << 20
