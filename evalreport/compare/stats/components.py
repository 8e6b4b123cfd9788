"""DeLong's structural components of one AUC, in O(n log n) (Sun & Xu 2014).

With m positives (scores X_i) and n negatives (Y_j), let psi(x, y) = 1 if
x > y, 1/2 if x == y, 0 otherwise. The structural components are

    V10_i = (1/n) sum_j psi(X_i, Y_j)   (per positive),
    V01_j = (1/m) sum_i psi(X_i, Y_j)   (per negative),

the AUC is their common mean, and DeLong's variance
(:mod:`~evalreport.compare.stats.delong`) is var(V10)/m + var(V01)/n (sample
variances, ddof = 1, as in pROC). Sun & Xu
obtain them from midranks: with T_Z the midrank of a score among all scores
and T_X, T_Y its midrank within its own class, V10_i = (T_Z - T_X)/n and
V01_j = 1 - (T_Z - T_Y)/m. T_Z - T_X is just "negatives below, ties counting
1/2", so here it is read off one sort of the negatives by two binary searches
(``side='left'`` and ``'right'``: (left + right)/2 = below + ties/2), and
likewise for the negatives against the sorted positives. The queries are
themselves sorted, which keeps the searches cache-friendly: about 0.15 s for
10^6 scores for one AUC and 0.4 s for a paired test, where the components
must be aligned per instance (from 2^15 scores, one packed sort of all the
scores: :mod:`evalreport.counting.order`; below that, an ``argsort``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...counting.order import SMALL, argsort_scores, runs_of_pairs, runs_of_pairs_of
from .core import auc_classes

__all__ = ["StructuralComponents", "structural_components"]


@dataclass(frozen=True, eq=False)
class StructuralComponents:
    """DeLong's structural components of one AUC.

    Attributes
    ----------
    auc : float
        The AUC (Mann-Whitney, ties 1/2), the mean of ``v10`` and of ``v01``.
    v10 : ndarray, shape (m,)
        Per positive, in input order: share of negatives scoring lower, ties 1/2.
    v01 : ndarray, shape (n,)
        Per negative, in input order: share of positives scoring higher, ties 1/2.
    """

    auc: float
    v10: np.ndarray
    v01: np.ndarray


def _half_counts_below(sorted_ref: np.ndarray, sorted_queries: np.ndarray) -> np.ndarray:
    """2 x (reference values < q) + (reference values == q), for each query.

    Doubled so that it stays an exact integer; queries sorted (cache-friendly).
    """
    below = np.searchsorted(sorted_ref, sorted_queries, side="left")
    below += np.searchsorted(sorted_ref, sorted_queries, side="right")
    return below


def auc_components(y, s, m, n, *, aligned: bool):
    """(auc, v10, v01); in input order when ``aligned``, else in sorted order."""
    if aligned and s.size >= SMALL:
        few = _components_few_values(y, s, m, n)
        return few if few is not None else _components_one_order(y, s, m, n)
    x = np.compress(y, s)
    z = np.compress(~y, s)
    if aligned:
        ox = np.argsort(x)  # tied scores get equal components: any order will do
        oz = np.argsort(z)
        xs, zs = x[ox], z[oz]
    else:
        xs, zs = np.sort(x), np.sort(z)
    twice_x = _half_counts_below(zs, xs)  # 2 * (negatives below + ties / 2)
    twice_z = _half_counts_below(xs, zs)  # 2 * (positives below + ties / 2)
    auc = float(int(twice_x.sum(dtype=np.int64)) / (2.0 * m * n))
    v10 = twice_x / (2.0 * n)
    v01 = 1.0 - twice_z / (2.0 * m)
    if aligned:
        a = np.empty_like(v10)
        a[ox] = v10
        b = np.empty_like(v01)
        b[oz] = v01
        v10, v01 = a, b
    return auc, v10, v01


#: positions per piece of :func:`_components_few_values` and :func:`_tied_runs`
#: (bounded temporaries)
_PIECE = 1 << 20
#: rows sampled to guess whether the scores take few distinct values, and the
#: most distinct values (in the sample) for which the table road is tried
_SAMPLE = 4096
_FEW = 1024


def _components_few_values(y, s, m, n):
    """:func:`auc_components` in input order from the table of the scores' distinct
    values, without sorting the rows; None unless the scores take few values.

    A component depends only on the row's score: twice the other class below
    that value plus the other class at it. With few distinct values (rounded
    scores, a few thousand at most) those come from each value's counts of
    positives and negatives, and every row looks its value up by a binary
    search in a table that stays in cache. The values are guessed from a
    sample of the rows, and one pass a piece at a time adds those the sample
    missed; past ``_FEW`` values the attempt ends (continuous scores end it at
    the sample) and the ordering road takes over. The same integers as that
    road, so the same components, bit for bit. At 10^7 rows rounded to 2
    decimals this replaces the one sort of 10^7 keys."""
    size = s.size
    values = np.unique(s[::max(1, size // _SAMPLE)])  # (-0.0 and +0.0: one value, as they tie)
    if values.size > _FEW:
        return None
    for lo in range(0, size, _PIECE):  # the values the sample missed (rare ones: the extremes)
        piece = s[lo:lo + _PIECE]
        at = np.minimum(np.searchsorted(values, piece), values.size - 1)
        missed = values[at] != piece
        if missed.any():
            values = np.union1d(values, piece[missed])
            if values.size > _FEW:
                return None
    index = np.empty(size, dtype=np.int16)  # each row's value (fewer than 2**15 of them)
    for lo in range(0, size, _PIECE):
        index[lo:lo + _PIECE] = np.searchsorted(values, s[lo:lo + _PIECE])
    pos = np.bincount(index[y], minlength=values.size)  # positives at each value
    neg = np.bincount(index, minlength=values.size) - pos
    twice_pos = 2 * (np.cumsum(neg) - neg) + neg  # a positive at the value: negatives below, ties 1/2
    twice_neg = 2 * (np.cumsum(pos) - pos) + pos  # a negative: positives below, ties 1/2
    twice_x = twice_pos[index[y]]
    twice_z = twice_neg[index[~y]]
    auc = float(int(twice_x.sum(dtype=np.int64)) / (2.0 * m * n))
    return auc, twice_x / (2.0 * n), 1.0 - twice_z / (2.0 * m)


def _components_one_order(y, s, m, n):
    """:func:`auc_components` in input order, from one ordering of all the scores.

    With the instances in ascending score order (``argsort_scores``, a sort
    of packed keys rather than NumPy's slower ``argsort``), the negatives
    below each position are a running count; a positive's doubled component
    is twice the negatives below it plus the negatives tied with it, and a
    negative's is the same with the positives. One scatter puts them back in
    input order. The same integers as the two-sorts-and-searches road.
    """
    order, ties = argsort_scores(s)
    ys = y[order]
    neg_upto = np.cumsum(~ys, dtype=np.int64)  # negatives at or before each position
    twice = np.arange(1, s.size + 1, dtype=np.int64)
    twice -= neg_upto  # positives at or before each position
    np.copyto(twice, neg_upto, where=ys)  # a positive counts negatives, a negative positives
    twice *= 2  # untied: twice the other class strictly below
    if ties.size:
        _tied_runs(twice, ys, neg_upto, ties)
    del neg_upto
    full = np.empty_like(twice)
    full[order] = twice
    del twice, order
    twice_x = np.compress(y, full)
    twice_z = np.compress(~y, full)
    auc = float(int(twice_x.sum(dtype=np.int64)) / (2.0 * m * n))
    return auc, twice_x / (2.0 * n), 1.0 - twice_z / (2.0 * m)


def _tied_runs(twice, ys, neg_upto, ties) -> None:
    """Within each run of tied scores: twice the other class below the run, plus
    the other class inside it (each tie counts 1/2). In place.

    A long run (a score many rows share) is written as a slice; short runs are
    written a batch of about ``_PIECE`` positions at a time, so the temporaries
    stay small however many rows are tied (at 10^7 rows rounded to 2 decimals,
    every row: five arrays of 10^7 before)."""
    first, last, sizes, _ = runs_of_pairs(ties, positions=False)  # runs [first, last]
    neg_below = np.where(first > 0, neg_upto[np.maximum(first - 1, 0)], 0)
    neg_in = neg_upto[last] - neg_below
    pos_below = first - neg_below
    pos_in = sizes - neg_in
    x = 2 * neg_below + neg_in  # for a run's positives
    z = 2 * pos_below + pos_in  # for its negatives
    long = sizes > _PIECE // 4
    for k in np.flatnonzero(long).tolist():
        run = slice(int(first[k]), int(last[k]) + 1)
        twice[run] = np.where(ys[run], x[k], z[k])
    short = np.flatnonzero(~long)
    if not short.size:
        return
    start = np.cumsum(sizes[short]) - sizes[short]  # each short run's offset among them
    cut = np.flatnonzero(np.diff(start // _PIECE)) + 1
    for batch in np.split(short, cut):
        _, _, n, at = runs_of_pairs_of(first[batch], sizes[batch])
        twice[at] = np.where(ys[at], np.repeat(x[batch], n), np.repeat(z[batch], n))


def structural_components(y_true_bool, scores) -> StructuralComponents:
    """DeLong's structural components (placement values) of one AUC.

    Parameters
    ----------
    y_true_bool : array-like of shape (N,)
        True where the instance is positive (booleans or 0/1).
    scores : array-like of shape (N,)
        Finite scores, higher = more positive.

    Returns
    -------
    StructuralComponents
        ``v10`` for the positives and ``v01`` for the negatives, each in the
        order the instances come in (pROC's ``placements``: X and Y).

    Examples
    --------
    >>> c = structural_components([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1])
    >>> c.auc, c.v10.tolist(), c.v01.tolist()
    (0.875, [1.0, 0.75], [0.75, 1.0])
    """
    y, s, m, n = auc_classes(y_true_bool, scores)
    auc, v10, v01 = auc_components(y, s, m, n, aligned=True)
    return StructuralComponents(auc=auc, v10=v10, v01=v01)
