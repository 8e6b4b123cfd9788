"""A few tied scores among distinct ones: the distinct road's table, with the
rows inside each tie dropped.

10^8 doubles drawn at random hold, more often than not, one pair of equal
values (n^2 / 2^54 is about 0.55 at 10^8), and capped probabilities put a few
rows at exactly 1.0. Such a tie used to send the whole array down the road of
:func:`.sorting._table_from_key_runs` and the general table (ten arrays of n,
several times the time and memory of distinct scores). Here a tie costs what
it is: the rows it spans.

:func:`.sorting._rated_distinct_table` makes its one pass as if every score
were distinct, and records where two neighbouring sorted keys share a score.
In that "as-if" table the instances of a tied score are rows of their own
(positives first: a label bit of 1 sorts last in the ascending keys, so first
in the descending rows). The count table of the tied scores is the as-if
table without the rows inside each tie: only the row after the tie's last
instance stays, and its counts, rates and precision are the as-if row's, the
same floats. So the thresholds and the three curves are compacted in place
(:func:`_drop_ranges`, at most one move of each array), ``tp`` and ``fp`` are
read back from the rates when asked for (exact, as in
:class:`.table.UnitStepTable`), and the scalars come from the positives' as-if
rows with one term per tie (:func:`evalreport.metrics.few_ties_measures.scalars`,
with the measures):

* twice the AUC's area: the as-if count of pairs ranked right, less the pairs
  of each tie (p q), which the as-if order ranks right and the trapezoid
  counts as half;
* the average precision: the as-if terms i / k_i, with each tie's positives'
  terms left out and the tie's one term p t / r put in (t positives at row r
  after it), the general road's recall step times precision;
* the break-even point: the as-if one, or interpolated across the tie that
  holds row m+, as :func:`evalreport.metrics.binary_scalars._bep` does.

The hull (:func:`evalreport.metrics.few_ties_measures.roc_hull`) is the as-if hull when none of its vertices lies
inside a tie; otherwise the as-if hull's other vertices bound it from below,
and the few candidates above them, with each tie's end, give it exactly.
"""

from __future__ import annotations

import numpy as np

from .parallel import BLOCK
from .table import UnitCurves, UnitStepTable

__all__ = ["FewTiesTable", "Ties", "few_ties_limit", "keyed_table_without_tie_rows", "table_without_tie_rows",
           "tp_table_without_tie_rows"]


def few_ties_limit(n: int) -> int:
    """The most neighbouring tied pairs that take this road (about one row in
    256); more take the key-runs road. The choice depends on the scores alone,
    never on the threads, so neither do the numbers."""
    return max(1, n >> 8)


class FewTiesTable(UnitStepTable):
    """The count table of unweighted scores with a few ties, formed from the
    as-if table of distinct rows (see the module's text). Rows: ``len`` (the
    distinct scores); instances: ``n_rows``.

    Two forms, as :class:`.table.UnitStepTable`'s: the evaluation's, with
    the rates (``curves``) and decoded thresholds, ``tp`` and ``fp`` formed
    from the rates (``rint(rate * class total)``, exact); or a report's, with
    ``tp`` and the sorted keys kept (thresholds decoded when read), ``fp`` the
    instances above a row (its as-if row) less ``tp``. Either way read at a
    few rows by :meth:`tp_at` and :meth:`fp_at`. The positives' as-if rows
    and the ties (their as-if row ranges, positives and negatives) stay for
    the measures' :func:`~evalreport.metrics.few_ties_measures.scalars`
    and :func:`~evalreport.metrics.few_ties_measures.roc_hull`.
    """

    def __init__(self, tp=None, *, n_rows, n_pos, ascending_with_inf=None, keys=None, invert, curves=None,
                 as_if_rows, ties):
        super().__init__(None, n_rows=n_rows, n_pos=n_pos, ascending_with_inf=ascending_with_inf,
                         keys=keys, invert=invert, curves=curves)
        object.__setattr__(self, "_tp", tp)
        object.__setattr__(self, "as_if_rows", as_if_rows)
        object.__setattr__(self, "ties", ties)

    def __len__(self) -> int:
        if self._with_inf is not None:
            return int(self._with_inf.size - 1)
        return int(self._keys_desc.size)

    @property
    def fp(self) -> np.ndarray:
        if self._fp is None:
            object.__setattr__(self, "_fp", self.fp_at(np.arange(len(self) + 1)))
        return self._fp

    def fp_at(self, rows):
        if self._fp is not None:
            return self._fp[rows]
        if self.curves is not None:
            # fp from fpr = fp / m- (correctly rounded; fp < 2**51): exact
            return np.rint(np.multiply(self.curves.fpr[rows], self.negatives)).astype(np.int64)
        return self.ties.as_if_row(rows) - self.tp_at(rows)


class Ties:
    """The ties of an as-if table of n rows, one entry per tie, by as-if row
    ascending: ``first`` and ``last`` (the rows of its first and last
    instance; ``last`` is the row kept), ``pos`` and ``neg`` (its instances
    of each class), and ``pos_before`` (the positives in the rows above it)."""

    def __init__(self, n: int, lows: np.ndarray, highs: np.ndarray, as_if_rows: np.ndarray):
        # key indices [low, high] ascending -> rows n - high .. n - low
        order = np.argsort(-lows)
        self.first = (n - highs[order]).astype(np.int64)
        self.last = (n - lows[order]).astype(np.int64)
        self.pos_before = np.searchsorted(as_if_rows, self.first, side="left")
        self.pos = np.searchsorted(as_if_rows, self.last, side="right") - self.pos_before
        self.neg = self.last - self.first + 1 - self.pos
        # rows dropped above (and at) each tie's kept row: its size less one
        self.dropped_through = np.cumsum(self.last - self.first)

    def dropped_rows(self, rows: np.ndarray) -> np.ndarray:
        """Whether each as-if row is one the tied table drops (inside a tie)."""
        k = np.searchsorted(self.first, rows, side="right") - 1
        inside = k >= 0
        inside[inside] = rows[inside] < self.last[k[inside]]
        return inside

    def as_if_row(self, rows):
        """The as-if row of each row of the tied table: the instances it
        predicts positive."""
        kept = self.last - self.dropped_through  # each tie's row in the tied table
        k = np.searchsorted(kept, rows, side="right") - 1
        return rows + np.where(k >= 0, self.dropped_through[np.maximum(k, 0)], 0)

    def kept_row(self, rows: np.ndarray) -> np.ndarray:
        """The tied table's row of each kept as-if row."""
        k = np.searchsorted(self.last, rows, side="right") - 1
        return rows - np.where(k >= 0, self.dropped_through[np.maximum(k, 0)], 0)


def table_without_tie_rows(with_inf: np.ndarray, curves, as_if_rows: np.ndarray, tied_pairs: np.ndarray,
                           *, n_pos: int, invert: bool) -> FewTiesTable:
    """The tied table from the as-if table's buffers (ascending: index i holds
    as-if row n - i; ``with_inf[n]`` is +inf, ``tpr[n] = fpr[n] = 0``),
    compacted in place. ``tied_pairs``: ascending indices i whose sorted key
    shares its score with key i + 1."""
    n = with_inf.size - 1
    lows, highs, drop = _ties_of(tied_pairs)
    kept = [_drop_ranges(a, drop) for a in (with_inf, curves.fpr, curves.tpr, curves.precision)]
    rates = UnitCurves(*(a[::-1] for a in kept[1:]))
    return FewTiesTable(n_rows=n, n_pos=n_pos, ascending_with_inf=kept[0], invert=invert, curves=rates,
                        as_if_rows=as_if_rows, ties=Ties(n, lows, highs, as_if_rows))


def tp_table_without_tie_rows(with_inf: np.ndarray, tp: np.ndarray, as_if_rows: np.ndarray,
                              tied_pairs: np.ndarray, *, n_pos: int, invert: bool) -> FewTiesTable:
    """The same from the road of ``tp`` formed whole (``lazy_curves``): the
    thresholds ascending then +inf, and ``tp`` of the as-if table in row order
    (a reversed view of a buffer laid out as the thresholds), compacted in place."""
    n = with_inf.size - 1
    lows, highs, drop = _ties_of(tied_pairs)
    kept_with_inf, kept_tp = (_drop_ranges(a, drop) for a in (with_inf, tp[::-1]))
    return FewTiesTable(kept_tp[::-1], n_rows=n, n_pos=n_pos, ascending_with_inf=kept_with_inf, invert=invert,
                        as_if_rows=as_if_rows, ties=Ties(n, lows, highs, as_if_rows))


def keyed_table_without_tie_rows(keys: np.ndarray, tp: np.ndarray, as_if_rows: np.ndarray,
                                 tied_pairs: np.ndarray, *, n_pos: int, invert: bool) -> FewTiesTable:
    """The same from a report's road (the keys kept, sorted ascending; ``tp``
    of the as-if table, rows 0..n in order), both compacted in place."""
    n = keys.size
    lows, highs, drop = _ties_of(tied_pairs)
    kept_keys = _drop_ranges(keys, drop)
    # in tp's row order the same ties drop rows n - high .. n - low - 1
    kept_tp = _drop_ranges(tp, [(n - hi + 1, n - lo + 1) for lo, hi in reversed(drop)])
    return FewTiesTable(kept_tp, n_rows=n, n_pos=n_pos, keys=kept_keys, invert=invert, as_if_rows=as_if_rows,
                        ties=Ties(n, lows, highs, as_if_rows))


def _ties_of(tied_pairs: np.ndarray):
    """Each tie's lowest and highest key index, and the key index ranges
    ``[low + 1, high + 1)`` that the tied table drops (ascending)."""
    new = np.flatnonzero(np.diff(tied_pairs) != 1) + 1
    lows = tied_pairs[np.concatenate(([0], new))]
    highs = tied_pairs[np.concatenate((new - 1, [tied_pairs.size - 1]))] + 1
    return lows, highs, list(zip((lows + 1).tolist(), (highs + 1).tolist()))


def _drop_ranges(values: np.ndarray, ranges: list[tuple[int, int]]) -> np.ndarray:
    """``values`` without the index ranges ``[lo, hi)`` (ascending,
    disjoint), compacted in place; the compacted values are a slice of it.

    The shorter side moves: the values below the ranges move up (the result
    is ``values[d:]``), or those above move down (``values[:size - d]``),
    block by block from the end they move towards, so that no value is
    overwritten before it has moved and no temporary is larger than a block.
    """
    size = values.size
    dropped = sum(hi - lo for lo, hi in ranges)
    if ranges[-1][0] < size - ranges[0][1]:  # fewer values below the last range than above the first
        _move_up(values, ranges)
        return values[dropped:]
    flipped = values[::-1]
    _move_up(flipped, [(size - hi, size - lo) for lo, hi in reversed(ranges)])
    return values[:size - dropped]


def _move_up(values: np.ndarray, ranges: list[tuple[int, int]]) -> None:
    shift = 0
    for k in range(len(ranges) - 1, -1, -1):
        lo, hi = ranges[k]
        shift += hi - lo
        bottom = ranges[k - 1][1] if k else 0
        # the kept values in [bottom, lo) move up by shift, the top block first
        for stop in range(lo, bottom, -BLOCK):
            start = max(bottom, stop - BLOCK)
            values[start + shift:stop + shift] = values[start:stop]  # (NumPy buffers an overlap)
