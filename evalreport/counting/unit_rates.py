"""FPR, TPR and precision of a table of distinct unweighted scores, in float-only passes.

Every row j of such a table predicts exactly j instances positive, so the rates
come from tp alone, block by block (:class:`UnitCurveBuffers`, filled by
:mod:`.sorting` in the pass that sums tp, or by :mod:`evalreport.metrics.binary` from a kept tp),
and the average precision's sum from the rows where the positives enter
(:func:`precision_sum`).
"""

from __future__ import annotations

import numpy as np

from . import parallel

_TWO_52 = 2.0**52
_TWO_52_BITS = np.float64(_TWO_52).view(np.int64)

_steps_made = np.zeros(0)

def _steps(size: int) -> np.ndarray:
    """``arange(size)`` as floats: a slice of one read-only array, made once
    (a fresh one per call cost more than the pass it serves at 1e6)."""
    global _steps_made
    if _steps_made.size < size:
        made = np.arange(max(size, parallel.BLOCK), dtype=np.float64)
        made.flags.writeable = False
        _steps_made = made
    return _steps_made[:size]


class UnitCurveBuffers:
    """FPR, TPR and precision of a table of n distinct unweighted scores,
    filled block by block from tp (:func:`_rated_distinct_table`, and
    :func:`~evalreport.metrics.binary._unit_step_curves` for a table that
    kept tp) in the keys' (ascending) order: index ``i`` holds row ``n - i``.

    Every row j predicts exactly j instances positive, so fp = j - tp and
    tp + fp = j: in float64 these integers are exact, and the rates are the
    same floats as fp / neg, tp / pos and tp / (tp + fp), reached in
    float-only passes (NumPy's mixed int-float loops are several times
    slower) without forming fp.
    """

    def __init__(self, n: int, n_pos: int):
        self.n, self.pos, self.neg = n, n_pos, n - n_pos
        self.tpr = np.empty(n + 1, dtype=np.float64)
        self.fpr = np.empty(n + 1, dtype=np.float64)
        self.precision = np.empty(n, dtype=np.float64)
        self.tpr[n] = self.fpr[n] = 0.0  # row 0: nothing predicted positive
        self.steps = _steps(min(parallel.BLOCK, n))

    def fill(self, tp_block: np.ndarray, start: int, stop: int) -> None:
        counts = self.tpr[start:stop]
        # tp as floats, exact: 0 <= tp < 2**52 put in the mantissa of 2**52,
        # then 2**52 taken away (faster than NumPy's integer-to-float cast)
        np.bitwise_or(tp_block, _TWO_52_BITS, out=counts.view(np.int64))
        np.subtract(counts, _TWO_52, out=counts)
        rows = self.fpr[start:stop]
        np.subtract(self.n - start, self.steps[:stop - start], out=rows)  # j = n - index
        np.divide(counts, rows, out=self.precision[start:stop])
        np.subtract(rows, counts, out=rows)  # fp
        np.divide(rows, self.neg, out=rows)
        np.divide(counts, self.pos, out=counts)

    def rates(self):
        """(fpr, tpr, precision) in row order: reversed views of the buffers."""
        return self.fpr[::-1], self.tpr[::-1], self.precision[::-1]


def precision_sum(rows: np.ndarray, n: int, *, skip: np.ndarray | None = None) -> float:
    """Sum of the precision i / k_i at the rows ``rows`` = k_i (ascending)
    where the positives of a table of n distinct unweighted scores enter:
    m+ times the average precision.

    The terms are the floats the P-R curve holds at those rows (i / k_i,
    both exact in float64), summed in a fixed order, so that every road
    gives the same float whatever the number of threads: block by block of
    the keys' index (row k is index n - k; blocks of :data:`parallel.BLOCK`
    from index 0), the top block first, each block's terms in ascending
    index, that is descending row.

    ``skip``: positions in ``rows`` (ascending) whose terms are left out (set
    to 0 in their place: the positives of a tie, :mod:`.few_ties`).
    """
    size = parallel.BLOCK
    # Block b (indices [b * size, (b + 1) * size)) holds the rows in
    # (n - (b + 1) * size, n - b * size]: in ascending row the top block
    # comes first, and no block holds more than ``size`` rows.
    top = (n - 1) // size
    edges = np.searchsorted(rows, n - np.arange(top + 1, -1, -1) * size, side="right").tolist()
    longest = max((b - a for a, b in zip(edges[:-1], edges[1:])), default=0)
    terms, ones = np.empty(longest), _steps(longest)
    total = 0.0
    for a, b in zip(edges[:-1], edges[1:]):
        if b == a:
            continue
        # i / k_i in float-only passes (k_i < 2**52 put in the mantissa of
        # 2**52, as in UnitCurveBuffers.fill; NumPy's mixed int-float
        # division is slower), in a buffer reused from block to block
        k = terms[:b - a]
        np.bitwise_or(rows[a:b], _TWO_52_BITS, out=k.view(np.int64))
        np.subtract(k, _TWO_52, out=k)
        np.divide(np.add(ones[:b - a], a + 1), k, out=k)
        if skip is not None:
            k[skip[np.searchsorted(skip, a):np.searchsorted(skip, b)] - a] = 0.0
        # (NumPy sums a reversed view in the view's order: the same float as
        # its contiguous copy, without the copy)
        total += float(k[::-1].sum())
    return total
