"""The one primitive every binary curve derives from: the sorted count table.

For each distinct score, taken in descending order, the cumulative (weighted)
numbers of positives and negatives scoring at least that much. ROC, P-R, AUC,
average precision, the break-even point, the ROC convex hull and the cost curve
are all read off this table, so no two of them can disagree.

This module says what the table is: :class:`CountTable` (and
:class:`UnitStepTable`, the same table of distinct unweighted scores, whose
columns are formed only when read whole), the table from per-score weights
(:func:`table_from_ascending`, the definition), and the limits of the weights'
scale. How it is built fast from raw scores: :mod:`.build` and :mod:`.sorting`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .keys import decode_keys
from ..words import general, magnitude

@dataclass(frozen=True, eq=False)
class CountTable:
    """Cumulative counts at each distinct threshold, thresholds descending.

    Row ``k`` (``k = 0..K``) is the classifier "predict positive iff
    score >= threshold[k - 1]"; row 0 predicts nothing positive.

    Attributes
    ----------
    threshold : ndarray, shape (K,)
        The distinct scores, strictly descending.
    tp, fp : ndarray, shape (K + 1,)
        Cumulative weight of positives / negatives scoring at least the
        threshold; ``tp[0] == fp[0] == 0``, ``tp[-1]`` is the positives' total.
        int64 when unweighted, float64 when weighted.
    n_rows : int
        Number of rows the table was built from (zero-weight rows included).

    Examples
    --------
    >>> from evalreport.metrics import count_table
    >>> table = count_table([0, 1, 1, 0], [4, 3, 3, 1])
    >>> table.threshold.tolist(), table.tp.tolist(), table.fp.tolist()
    ([4.0, 3.0, 1.0], [0, 0, 2, 2], [0, 1, 1, 2])
    >>> table.positives, table.negatives, table.rows_at(2.0), len(table)
    (2, 2, 2, 3)
    """

    threshold: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    n_rows: int

    # The ROC and P-R rates when formed with the table (not a field: only
    # :class:`UnitStepTable` forms them, see :class:`UnitCurves`).
    curves = None

    @property
    def positives(self):
        """Total weight of the positives (m+)."""
        return self.tp[-1].item()

    @property
    def negatives(self):
        """Total weight of the negatives (m-)."""
        return self.fp[-1].item()

    @property
    def weighted(self) -> bool:
        return self.tp.dtype.kind == "f"

    @property
    def unit_steps(self) -> bool:
        """Every row is one unweighted instance (distinct unweighted scores):
        row j predicts exactly j instances positive, so ``fp[j] = j - tp[j]``."""
        return not self.weighted and self.positives + self.negatives == len(self)

    def __len__(self) -> int:
        return int(self.threshold.size)

    def rows_at(self, t: float) -> int:
        """Index of the row "predict positive iff score >= t"."""
        # number of distinct thresholds >= t; threshold is descending
        return int(self.threshold.size - np.searchsorted(self.threshold[::-1], t, side="left"))

    def thresholds_with_inf(self) -> np.ndarray:
        """+inf followed by the thresholds: the ROC curve's thresholds."""
        out = np.empty(len(self) + 1, dtype=np.float64)
        out[0] = np.inf
        out[1:] = self.threshold
        return out

    def threshold_at(self, i):
        """``threshold[i]`` (``i`` an index or an index array)."""
        return self.threshold[i]

    def fp_at(self, rows):
        """``fp[rows]`` (``rows`` an index or an index array)."""
        return self.fp[rows]

    def tp_at(self, rows):
        """``tp[rows]`` (``rows`` an index or an index array)."""
        return self.tp[rows]


class UnitStepTable(CountTable):
    """A count table of distinct unweighted scores (one row per instance),
    read off their sorted keys.

    Every row is one instance, so ``fp[j] = j - tp[j]``: formed only if asked
    for whole (a report reads it at a few rows, :meth:`fp_at`). The thresholds
    are either decoded already (``ascending_with_inf``: the thresholds
    ascending, then +inf, so that the ROC curve's thresholds are this buffer
    reversed) or decoded from the kept ``keys`` when first asked for whole
    (:meth:`threshold_at` and :meth:`rows_at` decode only what they read).

    ``tp`` may be a reversed view: its row order is the keys' order reversed.
    Or it may be None, with ``curves`` (the :class:`UnitCurves`, formed in the
    same pass as tp): then tp is ``rint(tpr * m+)``, exact (tpr = tp / m+
    correctly rounded, and tp < 2**51), formed only if asked for whole
    (:meth:`tp_at` reads it at a few rows).
    """

    def __new__(cls, tp=None, **kwargs):
        if "threshold" in kwargs or "fp" in kwargs:
            # Called with CountTable's fields, as dataclasses.replace does: a
            # plain table of those fields (the changed columns need not be of
            # distinct unweighted scores any more).
            return CountTable(tp=tp, **kwargs)
        return super().__new__(cls)

    def __init__(self, tp, *, n_rows=None, n_pos=None, ascending_with_inf=None, keys=None,
                 invert=False, curves=None):
        if tp is not None:
            n_rows, n_pos = tp.size - 1, int(tp[-1])
        for name, value in (("_tp", tp), ("n_rows", n_rows), ("_n_pos", n_pos),
                            ("_with_inf", ascending_with_inf),
                            ("_keys_desc", None if keys is None else keys[::-1]),
                            ("_invert", invert), ("_fp", None), ("curves", curves)):
            object.__setattr__(self, name, value)

    @property
    def tp(self) -> np.ndarray:
        if self._tp is None:
            object.__setattr__(self, "_tp", self._tp_of(self.curves.tpr))
        return self._tp

    def tp_at(self, rows):
        if self._tp is not None:
            return self._tp[rows]
        return self._tp_of(self.curves.tpr[rows])

    def _tp_of(self, tpr):
        """tp from tpr = tp / m+ (correctly rounded; tp < 2**51): exact."""
        return np.rint(np.multiply(tpr, self._n_pos)).astype(np.int64)

    @property
    def positives(self):
        return self._n_pos

    @property
    def weighted(self) -> bool:
        return False

    @property
    def threshold(self) -> np.ndarray:
        if self._with_inf is None:
            with_inf = np.empty(len(self) + 1, dtype=np.float64)
            decode_keys(self._keys_desc[::-1], with_inf[:-1], invert=self._invert)
            with_inf[-1] = np.inf
            object.__setattr__(self, "_with_inf", with_inf)
        return self._with_inf[-2::-1] if len(self) else self._with_inf[:0]

    def thresholds_with_inf(self) -> np.ndarray:
        self.threshold  # decoded if not yet
        return self._with_inf[::-1]

    @property
    def fp(self) -> np.ndarray:
        if self._fp is None:
            fp = np.arange(self.tp.size, dtype=np.int64)
            np.subtract(fp, self.tp, out=fp)
            object.__setattr__(self, "_fp", fp)
        return self._fp

    @property
    def negatives(self):
        return self.n_rows - self._n_pos

    def __len__(self) -> int:
        return self.n_rows

    def threshold_at(self, i):
        if self._with_inf is not None:
            return self.threshold[i]
        keys = self._keys_desc[i]
        if isinstance(keys, np.ndarray):
            out = np.empty(keys.shape, dtype=np.float64)
            return decode_keys(keys, out, invert=self._invert)
        out = np.empty(1, dtype=np.float64)
        return decode_keys(np.array([keys]), out, invert=self._invert)[0]

    def fp_at(self, rows):
        return rows - self.tp_at(rows)

    def rows_at(self, t: float) -> int:
        if self._with_inf is not None:
            return super().rows_at(t)
        # the thresholds descend: count those >= t by bisection, decoding a
        # score per step instead of all of them
        lo, hi = 0, len(self)
        while lo < hi:
            mid = (lo + hi) // 2
            if self.threshold_at(mid) >= t:
                lo = mid + 1
            else:
                hi = mid
        return lo


@dataclass(frozen=True, eq=False)
class UnitCurves:
    """FPR, TPR and precision at every row of a :class:`UnitStepTable`
    (``tpr``, ``fpr``: rows 0..n; ``precision``: rows 1..n). Reversed views
    of ascending buffers, like the table's own ``tp`` and thresholds."""

    fpr: np.ndarray
    tpr: np.ndarray
    precision: np.ndarray


class WeightScaleError(ValueError):
    """Weight totals of a scale that float64 cannot carry (:func:`weight_scale_problem`)."""


#: the least product of the two classes' total weights (the weight of AUC's
#: pairs): below it, it and its terms lose their precision to underflow
SMALLEST_PAIRS = 2.0**-960

def weight_scale_problem(positives, negatives) -> str | None:
    """Why the classes' total weights break the arithmetic, or None: a total
    past the largest float64, or a product of the two (the weight of the
    pairs AUC counts) that overflows, or underflows towards 0 (weights near
    1e-160 and below; subnormal ones). No measure depends on the weights'
    scale, so a common factor mends it."""
    pos, neg = float(positives), float(negatives)
    if math.isinf(pos) or math.isinf(neg):
        return f"the weights sum past the largest float64 (about {magnitude(np.finfo(np.float64).max, 2)})"
    if pos > 0 and neg > 0:
        pairs = 2.0 * pos * neg
        if math.isinf(pairs) or pairs < SMALLEST_PAIRS:
            return (f"the product of the classes' total weights ({general(pos, 3)} and {general(neg, 3)}) "
                    f"{'overflows' if math.isinf(pairs) else 'underflows'}")
    return None


#: what mends a :class:`WeightScaleError`
SCALE_ADVICE = "no measure depends on the weights' scale: divide or multiply them by a common factor"

def pair_counts_leave_int64(positives, negatives) -> bool:
    """Whether integer class totals are so large (billions of rows on each
    side: aggregated tables) that 2 m+ m-, the bound of the AUC's twice-area
    and of the hull's and the cost curve's products of counts, leaves int64."""
    return 2 * positives * negatives >= 1 << 63


def table_from_ascending(values, pos_w, neg_w, n_rows: int) -> CountTable:
    keep = (pos_w + neg_w) > 0  # a score that carries no weight is not a threshold
    if not keep.all():
        values, pos_w, neg_w = values[keep], pos_w[keep], neg_w[keep]
    k = values.size
    tp = np.zeros(k + 1, dtype=pos_w.dtype)
    fp = np.zeros(k + 1, dtype=neg_w.dtype)
    np.cumsum(pos_w[::-1], out=tp[1:])
    np.cumsum(neg_w[::-1], out=fp[1:])
    return CountTable(threshold=values[::-1].copy(), tp=tp, fp=fp, n_rows=n_rows)
