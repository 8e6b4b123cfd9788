"""The one primitive every binary curve derives from: the sorted count table.

For each distinct score, taken in descending order, the cumulative (weighted)
numbers of positives and negatives scoring at least that much. ROC, P-R, AUC,
average precision, the break-even point, the ROC convex hull and the cost curve
are all read off this table, so no two of them can disagree.

How it is built, and why (the floor is one ``np.sort`` of the scores):

* the scores of each class are gathered with ``np.compress`` (far cheaper than
  boolean indexing) into one buffer and each run is sorted in place with
  ``np.sort``'s SIMD quicksort (the two runs side by side on two threads
  when both are large): together about one sort of all the scores;
* each sorted run collapses to (distinct value, count): a tied block is one
  entry, so ties are never split;
* the two runs of distinct values are merged with a stable ``argsort`` of their
  concatenation, which NumPy's timsort does as one linear merge of two runs;
* counts are integers when there are no weights (exact AUC and hull) and
  float64 with weights (then each class is ordered with ``argsort``, since the
  weights must follow the scores).

Unweighted scores of one sign (all >= +0.0, or all <= -0.0: probabilities,
log-probabilities) take a shorter road, :func:`_table_from_keys`: the IEEE sign
bit is then the same in every score, so it can be shifted out and the label
stored in the freed lowest bit. One in-place sort of these 64-bit keys (split
across threads by :func:`.parallel.sort_in_place` when large)
orders the scores (ascending) and carries each row's label along, which
replaces the two gathers, the two sorts and the merge above. The table reads
the sorted keys backwards (descending scores). Untied, the sorted labels are
the table (a cumulative sum from the top gives tp, and fp = row - tp); tied,
each run of equal keys is one (score, label) block, folded per score. Scores
of both signs have no bit to spare and keep the general road. Either way the
table is the same, bit for bit.

Untied with both classes, :func:`evaluate_binary`'s table comes from one
more pass (:func:`_rated_distinct_table`), made part by part by the thread
that sorted the part (one part's pass overlaps another's sort). Block by
block, each block's tp goes straight into the ROC and P-R rates, and the
keys are decoded in place
into the thresholds. So the curves cost three fresh arrays and no re-reads
of tp, and tp itself is not kept: it is ``rint(tpr * m+)``, exact. (On a
virtual machine a fresh array of n costs about as much in page faults as a
pass over it, so fewer arrays matter as much as fewer passes.)

The common input (integer labels, probabilities) is checked and encoded in
one pass over blocks that stay in cache (:func:`_checked_keys`); the passes
after the sort also run block by block, and in parts on several threads for
large inputs (:mod:`.parallel`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import parallel
from .parallel import blocks, in_parts, part_edges, run_parts

__all__ = ["CountTable", "count_table", "count_table_from_aggregates", "check_binary_inputs",
           "WeightScaleError", "weight_scale_problem"]

_ONE = np.uint64(1)
_TOP_BIT = np.uint64(1 << 63)
_INF_BITS = np.float64(np.inf).view(np.uint64)
_TWO_52 = 2.0**52
_TWO_52_BITS = np.float64(_TWO_52).view(np.int64)


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
    """

    threshold: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    n_rows: int

    # The ROC and P-R rates when formed with the table (not a field: only
    # :class:`_UnitStepTable` forms them, see :class:`UnitCurves`).
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


class _UnitStepTable(CountTable):
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
            with_inf = np.empty(self.n_rows + 1, dtype=np.float64)
            _decode_keys(self._keys_desc[::-1], with_inf[:-1], invert=self._invert)
            with_inf[-1] = np.inf
            object.__setattr__(self, "_with_inf", with_inf)
        return self._with_inf[-2::-1] if self.n_rows else self._with_inf[:0]

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
            return _decode_keys(keys, out, invert=self._invert)
        out = np.empty(1, dtype=np.float64)
        return _decode_keys(np.array([keys]), out, invert=self._invert)[0]

    def fp_at(self, rows):
        return rows - self.tp_at(rows)

    def rows_at(self, t: float) -> int:
        if self._with_inf is not None:
            return super().rows_at(t)
        # the thresholds descend: count those >= t by bisection, decoding a
        # score per step instead of all of them
        lo, hi = 0, self.n_rows
        while lo < hi:
            mid = (lo + hi) // 2
            if self.threshold_at(mid) >= t:
                lo = mid + 1
            else:
                hi = mid
        return lo


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
        return "the weights sum past the largest float64 (about 1.8e308)"
    if pos > 0 and neg > 0:
        pairs = 2.0 * pos * neg
        if math.isinf(pairs) or pairs < SMALLEST_PAIRS:
            return (f"the product of the classes' total weights ({pos:.3g} and {neg:.3g}) "
                    f"{'overflows' if math.isinf(pairs) else 'underflows'}")
    return None


#: what mends a :class:`WeightScaleError`
SCALE_ADVICE = "no measure depends on the weights' scale: divide or multiply them by a common factor"


def _first_index(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def check_binary_inputs(y_true, y_score, sample_weight=None, positive=1):
    """Validate the engine's inputs; return (is_positive, scores, weights).

    Raises ``ValueError`` naming the problem and the first offending index.
    """
    return _checked_inputs(y_true, y_score, sample_weight, positive)[:3]


def _checked_inputs(y_true, y_score, sample_weight, positive):
    """:func:`check_binary_inputs`, plus the scores' sign (see :func:`_score_sign`)."""
    y = np.asarray(y_true)
    s = np.asarray(y_score)
    if y.ndim != 1 or s.ndim != 1:
        raise ValueError(
            f"y_true and y_score must be one-dimensional (got shapes {y.shape} and {s.shape})"
        )
    if y.shape[0] != s.shape[0]:
        raise ValueError(
            f"y_true and y_score have different lengths ({y.shape[0]} and {s.shape[0]})"
        )
    if y.shape[0] == 0:
        raise ValueError("y_true and y_score are empty")
    if s.dtype.kind not in "biuf":
        try:
            s = s.astype(np.float64)
        except (TypeError, ValueError) as exc:
            missing = _first_missing(s)
            if missing is not None:  # pandas.NA, which no float conversion takes
                raise _missing_error(s, missing, name="y_score") from None
            raise ValueError(f"y_score must be numeric (dtype {s.dtype}): {exc}") from None
    s = s.astype(np.float64, copy=False)
    sign = _score_sign(s)

    w = None
    if sample_weight is not None:
        w = np.asarray(sample_weight)
        if w.shape != y.shape:
            raise ValueError(
                f"sample_weight has length {w.shape[0] if w.ndim else 'scalar'}, "
                f"y_true has {y.shape[0]}"
            )
        w = w.astype(np.float64, copy=False)
        bad = ~np.isfinite(w)
        if bad.any():
            raise ValueError(f"sample_weight has a non-finite value at index {_first_index(bad)}")
        neg = w < 0
        if neg.any():
            i = _first_index(neg)
            raise ValueError(f"sample_weight has a negative value ({w[i]!r}) at index {i}")
        with np.errstate(over="ignore"):
            total = np.sum(w)
        if not np.isfinite(total):  # the count table's sums would be inf, every rate NaN
            raise WeightScaleError(f"sample_weight: {weight_scale_problem(total, 0)} ({SCALE_ADVICE})")

    is_pos = _positive_mask(y, positive)
    return is_pos, s, w, sign


def _score_sign(s: np.ndarray) -> int:
    """Check that the scores are finite; return their common sign bit.

    +1 if every sign bit is 0 (all scores >= +0.0), -1 if every one is 1 (all
    <= -0.0), 0 if both occur. The common case costs one pass: finite scores
    >= +0.0 are exactly the bit patterns below that of +inf.
    """
    bits = s.view(np.uint64)
    if max(in_parts(lambda lo, hi: bits[lo:hi].max(), bits.size)) < _INF_BITS:
        return 1
    finite = np.isfinite(s)
    if not finite.all():
        i = _first_index(~finite)
        kind = "NaN" if np.isnan(s[i]) else "infinite"
        raise ValueError(f"y_score has a {kind} value at index {i}")
    return -1 if bits.min() >= _TOP_BIT else 0


def _positive_mask(y: np.ndarray, positive) -> np.ndarray:
    """Boolean mask of the positive class; the labels must be at most two values."""
    if not isinstance(positive, (np.ndarray, list, tuple)) and _is_missing(positive):
        raise ValueError(f"the positive label is a missing value ({positive!r}); name the positive class")
    if y.dtype == bool:
        if positive not in (True, False, 0, 1):
            raise ValueError(f"positive label {positive!r} cannot match boolean labels")
        return y if bool(positive) else ~y
    numeric = y.dtype.kind in "biuf" and isinstance(positive, (int, float, np.number))
    if numeric:
        is_pos, n_pos = _equal_in_parts(y, positive, keep=True)
    else:
        is_pos = _equal_labels(y, positive)
        n_pos = int(np.count_nonzero(is_pos))
    if n_pos == y.size:
        return is_pos
    other_index = int(np.argmin(is_pos))  # first row that is not positive
    other = y[other_index]
    if _is_missing(other):  # (None would otherwise pass for the other class)
        raise _missing_error(y, other_index)
    n_other = _equal_in_parts(y, other)[1] if numeric else int(np.count_nonzero(_equal_labels(y, other)))
    if n_pos + n_other != y.size:
        missing = _first_missing(y)
        if missing is not None:
            raise _missing_error(y, missing)
        i = _first_index(~(is_pos | (y == other)))
        if n_pos == 0:
            raise ValueError(
                f"the positive label {positive!r} does not occur in y_true, which holds "
                f"{_plain(other)!r} (index {other_index}) and {_plain(y[i])!r} (index {i})"
            )
        raise ValueError(
            f"y_true has more than two labels: {_plain(other)!r} (index {other_index}), "
            f"{_plain(y[i])!r} (index {i}) and the positive label {positive!r}; "
            "a binary task needs exactly the positive label and one other"
        )
    # One label only, and not the positive one: all negatives (measures that
    # need positives are undefined, with a reason, downstream).
    return is_pos


def _equal_labels(y: np.ndarray, value) -> np.ndarray:
    """``y == value`` as a boolean mask of non-numeric labels: all False
    where the types cannot be compared; a missing label (pandas.NA makes
    the comparison itself fail) is reported."""
    try:
        equal = np.asarray(y == value)
        if equal.shape == y.shape and equal.dtype == bool:
            return equal
    except (TypeError, ValueError):
        pass
    missing = _first_missing(y)
    if missing is not None:
        raise _missing_error(y, missing)
    return np.zeros(y.shape, dtype=bool)  # e.g. a comparison of incompatible types gave a scalar


def _is_missing(v) -> bool:
    """NaN, None or pandas' NA (a label no class can be)."""
    try:
        return v is None or bool(v != v)  # NaN is the one value not equal to itself
    except TypeError:  # pandas.NA: its comparisons are NA, whose truth is undefined
        return True


def _first_missing(y: np.ndarray) -> int | None:
    """Index of the first missing value, or None (on the error path only)."""
    if y.dtype.kind in "fc":
        nan = np.isnan(y)
        return _first_index(nan) if nan.any() else None
    if y.dtype.kind not in "OT":  # (T: NumPy's StringDType, whose na_object marks a missing text)
        return None
    return next((i for i, v in enumerate(y.tolist()) if _is_missing(v)), None)


def _missing_error(values: np.ndarray, i: int, *, name: str = "y_true") -> ValueError:
    """The error naming the missing value at index ``i`` of ``name``."""
    value = values[i]
    # (a missing date or duration is NumPy's NaT, whose .item() is None)
    shown = "NaT" if isinstance(value, (np.datetime64, np.timedelta64)) else repr(_plain(value))
    return ValueError(f"{name} has a missing value ({shown}) at index {i}")


def pair_counts_leave_int64(positives, negatives) -> bool:
    """Whether integer class totals are so large (billions of rows on each
    side: aggregated tables) that 2 m+ m-, the bound of the AUC's twice-area
    and of the hull's and the cost curve's products of counts, leaves int64."""
    return 2 * positives * negatives >= 1 << 63


def _plain(value):
    """A NumPy scalar as the Python value it holds (``0``, not ``np.int64(0)``, in messages)."""
    return value.item() if isinstance(value, np.generic) else value


def _equal_in_parts(y: np.ndarray, value, *, keep: bool = False):
    """(mask or None, count) of numeric ``y == value``, compared in parts."""
    mask = np.empty(y.shape, dtype=bool)

    def compare(lo, hi):
        part = np.equal(y[lo:hi], value, out=mask[lo:hi])
        return int(np.count_nonzero(part))

    count = sum(in_parts(compare, y.size))
    return (mask if keep else None), count


def _runs(sorted_values: np.ndarray):
    """Distinct values of a sorted array and where each run ends (exclusive)."""
    if sorted_values.size == 0:
        return sorted_values, np.zeros(0, dtype=np.int64)
    change = np.flatnonzero(sorted_values[1:] != sorted_values[:-1])
    ends = np.empty(change.size + 1, dtype=np.int64)
    ends[:-1] = change + 1
    ends[-1] = sorted_values.size
    return sorted_values[ends - 1], ends


def _class_blocks(sorted_values: np.ndarray):
    """Distinct values (ascending) of a sorted run and how many times each occurs."""
    values, ends = _runs(sorted_values)
    return values, np.diff(ends, prepend=0)


def _class_blocks_weighted(values: np.ndarray, weights: np.ndarray):
    order = np.argsort(values)
    v = values[order]
    w = weights[order]
    distinct, ends = _runs(v)
    if distinct.size == 0:
        return distinct, np.zeros(0)
    sums = np.add.reduceat(w, np.concatenate(([0], ends[:-1])))
    return distinct, sums


def _merge_blocks(vp, cp, vn, cn):
    """Merge two classes' (distinct value, weight) runs into one descending table."""
    kp = vp.size
    both = np.concatenate((vp, vn))
    order = np.argsort(both, kind="stable")  # timsort: one linear merge of two runs
    merged = both[order]
    from_pos = order < kp
    pos_w = np.zeros(merged.size, dtype=np.result_type(cp.dtype, cn.dtype))
    neg_w = np.zeros_like(pos_w)
    pos_idx = np.flatnonzero(from_pos)
    neg_idx = np.flatnonzero(~from_pos)
    pos_w[pos_idx] = cp  # stable: positives appear in their own ascending order
    neg_w[neg_idx] = cn
    # A value present in both classes appears twice in a row: fold the pair.
    distinct, ends = _runs(merged)
    if distinct.size != merged.size:
        starts = np.concatenate(([0], ends[:-1]))
        pos_w = np.add.reduceat(pos_w, starts)
        neg_w = np.add.reduceat(neg_w, starts)
    return distinct, pos_w, neg_w


def _table_from_ascending(values, pos_w, neg_w, n_rows: int) -> CountTable:
    keep = (pos_w + neg_w) > 0  # a score that carries no weight is not a threshold
    if not keep.all():
        values, pos_w, neg_w = values[keep], pos_w[keep], neg_w[keep]
    k = values.size
    tp = np.zeros(k + 1, dtype=pos_w.dtype)
    fp = np.zeros(k + 1, dtype=neg_w.dtype)
    np.cumsum(pos_w[::-1], out=tp[1:])
    np.cumsum(neg_w[::-1], out=fp[1:])
    return CountTable(threshold=values[::-1].copy(), tp=tp, fp=fp, n_rows=n_rows)


def count_table(y_true, y_score, *, sample_weight=None, positive=1) -> CountTable:
    """Build the count table of one learner's scores.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels: ints, bools or strings; ``positive`` names the positive one.
    y_score : array-like of shape (n,)
        Real scores, higher = more positive.
    sample_weight : array-like of shape (n,), optional
        Non-negative weights.
    positive : label
        The positive label.

    Examples
    --------
    >>> t = count_table([0, 1, 1, 0], [0.1, 0.8, 0.8, 0.3])
    >>> t.threshold.tolist(), t.tp.tolist(), t.fp.tolist()
    ([0.8, 0.3, 0.1], [0, 2, 2, 2], [0, 0, 1, 2])
    """
    return count_table_and_positive_rows(
        y_true, y_score, sample_weight=sample_weight, positive=positive
    )[0]


def count_table_and_positive_rows(y_true, y_score, *, sample_weight=None, positive=1, keep_keys=False,
                                  rates=False):
    """:func:`count_table`, and the rows where the positives enter when known.

    The rows (ascending, ``k_i`` for the i-th positive from the top) come for
    free when every score is distinct and unweighted and the table was built
    from sort keys; otherwise they are None. The engine reads its scalars and
    hull corners off them instead of scanning ``tp`` again.

    ``keep_keys``: for distinct unweighted scores, keep the sorted keys and
    decode thresholds (and form ``fp``) only when asked for whole
    (:class:`_UnitStepTable`). A report, which reads them at a few rows,
    saves two passes each; a caller that reads every curve point (the ROC
    curve) is faster without, as the keys buffer then becomes ``tp`` in place.

    ``rates``: for distinct unweighted scores of both classes (and without
    ``keep_keys``), form the ROC and P-R rates in the pass that sums tp
    (:func:`_rated_distinct_table`; the table's ``curves``).
    """
    if sample_weight is None:
        checked = _checked_keys(y_true, y_score, positive)
        if checked is not None:  # the common case, checked and encoded in one pass
            return _table_from_keys(*checked, nonnegative=True, keep_keys=keep_keys, rates=rates)
    is_pos, s, w, sign = _checked_inputs(y_true, y_score, sample_weight, positive)
    n = s.size
    if w is not None:
        neg = ~is_pos
        vp, cp = _class_blocks_weighted(np.compress(is_pos, s), np.compress(is_pos, w))
        vn, cn = _class_blocks_weighted(np.compress(neg, s), np.compress(neg, w))
        return _table_from_ascending(*_merge_blocks(vp, cp, vn, cn), n), None
    if sign == 0:
        return _table_by_class(s, is_pos), None
    buf = _encoded_keys(s, is_pos, nonnegative=sign > 0)
    return _table_from_keys(buf, int(np.count_nonzero(is_pos)), nonnegative=sign > 0, keep_keys=keep_keys,
                            rates=rates)


def _checked_keys(y_true, y_score, positive):
    """The sort keys of :func:`_table_from_keys` for the common input, checked
    in the same pass: integer labels, an integer positive label, float64
    scores all finite and >= +0.0 (probabilities).

    Reads the labels and the scores once, block by block (the checks run on
    blocks in cache), instead of once per check. Returns the keys' buffer and
    the number of positives, or None when the input is not of this kind or
    fails a check: the caller then runs the full checks, which say what is
    wrong.
    """
    y = y_true if isinstance(y_true, np.ndarray) else None
    s = y_score if isinstance(y_score, np.ndarray) else None
    if (y is None or s is None or y.ndim != 1 or s.shape != y.shape or y.size == 0
            or s.dtype != np.float64 or y.dtype.kind not in "iu" or not y.dtype.isnative
            or not isinstance(positive, (int, np.integer)) or np.signbit(s[0])):
        return None
    n = s.size
    buf = np.empty(n + 1, dtype=np.uint64)
    bits = s.view(np.uint64)
    # Labels 0 and 1 with 1 positive (the usual case): a block whose labels,
    # read as unsigned, OR to at most 1 holds no other label, and its labels
    # are its label bits.
    zero_one = y.view(f"u{y.dtype.itemsize}") if positive == 1 else None

    def encode(lo, hi):
        """(scores all finite and >= +0.0, positives, the other label or
        None); ok False also when a block holds a third label."""
        ok, n_pos, other = True, 0, None
        for start, stop in blocks(lo, hi):
            block, keys = bits[start:stop], buf[start:stop]
            ok = ok and block.max() < _INF_BITS
            np.left_shift(block, _ONE, out=keys)
            if zero_one is not None and np.bitwise_or.reduce(zero_one[start:stop]) <= 1:
                if other not in (None, 0):
                    return False, n_pos, other  # 0 may be a third label: leave it to the full checks
                other = 0  # (perhaps absent from the block: then the full checks decide)
                n_pos += int(np.add.reduce(zero_one[start:stop]))  # (0s and 1s: a sum counts)
                np.bitwise_or(keys, zero_one[start:stop], out=keys)
                continue
            labels = y[start:stop]
            is_pos = np.equal(labels, positive)
            found = int(np.count_nonzero(is_pos))
            if found < stop - start:
                if other is None:
                    other = labels[int(np.argmin(is_pos))].item()
                if found + int(np.count_nonzero(labels == other)) < stop - start:
                    return False, n_pos, other  # a third label
            n_pos += found
            np.bitwise_or(keys, is_pos, out=keys)
        return ok, n_pos, other

    parts = in_parts(encode, n)
    others = {other for _, _, other in parts if other is not None}
    if not all(ok for ok, _, _ in parts) or len(others) > 1:
        return None
    return buf, sum(n_pos for _, n_pos, _ in parts)


def _encoded_keys(s: np.ndarray, is_pos: np.ndarray, *, nonnegative: bool) -> np.ndarray:
    """The keys' buffer (n + 1; the keys in ``[:n]``) of checked scores of one sign."""
    n = s.size
    buf = np.empty(n + 1, dtype=np.uint64)
    keys = buf[:n]

    def encode(lo, hi):
        part = keys[lo:hi]
        _encode_keys(s[lo:hi], part, invert=not nonnegative)
        np.bitwise_or(part, is_pos[lo:hi], out=part)

    in_parts(encode, n)
    return buf


def _table_from_keys(buf: np.ndarray, n_pos: int, *, nonnegative: bool, keep_keys: bool = False,
                     rates: bool = False):
    """Count table of unweighted finite scores of one sign, from one sort of 64-bit keys.

    key = (pattern << 1) | label, where pattern is the score's bit pattern,
    inverted when the scores are <= -0.0 (their patterns fall as the score
    rises). Either way ascending keys are the rows in ascending score order,
    each with its label in the lowest bit: the shift drops the sign bit, the
    same in every row. Decoding is exact: key >> 1, inverted again for
    negative scores (which also puts the sign bit back).

    The table's rows run the other way (descending scores), so it reads the
    sorted keys backwards: the thresholds and the ROC curve's thresholds are
    reversed views of one buffer, not copies. The passes before and after
    the sort run in parts on every core (:mod:`.parallel`).

    Returns (table, positive rows), the rows None when there are ties. With
    every score distinct the table is a :class:`_UnitStepTable`.
    """
    # buf[:n] holds the keys; on the eager road buf becomes tp, read backwards
    n = buf.size - 1
    keys = buf[:n]
    invert = not nonnegative
    if rates and not keep_keys and 0 < n_pos < n and not _ties_in_spread_sample(keys):
        table = _rated_distinct_table(buf, n_pos, invert=invert)  # (sorts the keys)
        if table is None:  # tied scores (the keys are sorted, as they were)
            return _table_from_key_runs(keys, invert=invert), None
        return table
    parallel.sort_in_place(keys)
    if _ties_in_sample(keys):  # tied scores: skip the row-by-row work below
        return _table_from_key_runs(keys, invert=invert), None

    if keep_keys:
        return _keyed_distinct_table(keys, n_pos, invert=invert)
    # Thresholds ascending, then +inf: read backwards, the table's thresholds
    # and the ROC curve's (+inf, then these) share this one buffer.
    with_inf = np.empty(n + 1, dtype=np.float64)
    if _decode_finds_tie(keys, with_inf[:n], invert=invert):  # ties the sample missed
        del with_inf
        return _table_from_key_runs(keys, invert=invert), None
    with_inf[n] = np.inf
    # Every score distinct: one row per score; the keys' buffer becomes tp.
    tp, rows = _cumulate_labels(keys, buf, n_pos, in_place=True)
    return _UnitStepTable(tp, ascending_with_inf=with_inf, invert=invert), rows


def _rated_distinct_table(buf: np.ndarray, n_pos: int, *, invert: bool):
    """Sort the keys, and form the table of distinct keys of both classes
    with the ROC and P-R curves' rates, in one pass over the keys; None if
    two keys share a score (the keys are then sorted, and undecoded).

    The keys are sorted part by part (:func:`.parallel.sort_in_place`'s
    parts: one ``np.partition`` at their edges), each part by the thread
    that then makes the pass over it: the passes over one part overlap the
    sort of another, and find its keys in cache. A part whose keys show a
    tie in a sample (:func:`_ties_in_sample`) stops there.

    Each block of keys, from the top, is checked for ties, gives its labels
    (the positives' rows, and their sums from the top: tp, in a small
    scratch buffer), the rates of its rows (:class:`_UnitCurveBuffers`) and
    then its thresholds, decoded in place: the keys' buffer becomes the
    thresholds ascending, then +inf (``buf[n]``). tp itself is not kept: it
    is exactly ``rint(tpr * m+)`` (:class:`_UnitStepTable`).

    Why one pass: each fresh array of n costs a page fault per page on first
    touch (on a virtual machine about as much as a pass over it), and each
    extra pass re-reads n from memory. This road writes three arrays of n
    (fpr, tpr, precision) and no others besides the keys' own buffer.
    """
    n = buf.size - 1
    keys = buf[:n]
    size = parallel.BLOCK
    edges = parallel.partition_into_parts(keys)

    above = _positives_above(keys, edges, n_pos)  # (the labels' count does not need the order)
    rows = np.empty(n_pos, dtype=np.int64)
    curves = _UnitCurveBuffers(n, n_pos)

    def part(lo, hi):
        """Sort part [lo, hi) and fill it from its top; return (tied, lowest
        index done, rows written)."""
        carry = above[lo]
        keys[lo:hi].sort()
        if _ties_in_sample(keys[lo:hi]):
            return True, hi, carry  # nothing decoded
        scratch = _LabelScratch(min(size, hi - lo))
        same = scratch.is_pos  # (free once a block's positives are found)
        for start, stop in reversed(list(blocks(lo, hi))):
            block = keys[start:stop]
            m = stop - start
            labels = scratch.labels[:m]
            at = _block_positives(block, labels, scratch, n - start, rows, carry)
            tp = labels.view(np.int64)
            sums = tp[::-1]
            sums[0] += carry  # the positives above stop, carried down by the sum
            np.cumsum(sums, out=sums)  # tp of rows n - stop + 1 .. n - start, read backwards
            curves.fill(tp, start, stop)
            carry += at.size
            # The thresholds, in place. A tie: two neighbouring equal scores
            # (the same bits), here or across the block above.
            bits = _decode_keys(block, block.view(np.float64), invert=invert).view(np.uint64)
            if (np.equal(bits[1:], bits[:-1], out=same[:m - 1]).any()
                    or (stop < hi and keys[stop] == bits[-1])):
                return True, start, carry
        return False, lo, carry

    results = run_parts(part, edges)
    with_inf = buf.view(np.float64)
    tied = any(t for t, _, _ in results) or any(
        with_inf[e - 1] == with_inf[e] for e in edges[1:-1])
    if tied:
        # Put back the keys of what was decoded: the score's bits, shifted,
        # and the label bit of each positive (its row j is index n - j).
        for lo, hi, (_, low, carry) in zip(edges[:-1], edges[1:], results):
            if low < hi:
                _encode_keys(with_inf[low:hi], keys[low:hi], invert=invert)
                keys[n - rows[above[lo]:carry]] |= _ONE
        return None
    with_inf[n] = np.inf
    table = _UnitStepTable(None, n_rows=n, n_pos=n_pos, ascending_with_inf=with_inf, invert=invert,
                           curves=UnitCurves(*curves.rates()))
    return table, rows


def precision_sum(rows: np.ndarray, n: int) -> float:
    """Sum of the precision i / k_i at the rows ``rows`` = k_i (ascending)
    where the positives of a table of n distinct unweighted scores enter:
    m+ times the average precision.

    The terms are the floats the P-R curve holds at those rows (i / k_i,
    both exact in float64), summed in a fixed order, so that every road
    gives the same float whatever the number of threads: block by block of
    the keys' index (row k is index n - k; blocks of :data:`parallel.BLOCK`
    from index 0), the top block first, each block's terms in ascending
    index, that is descending row.
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
        # 2**52, as in _UnitCurveBuffers.fill; NumPy's mixed int-float
        # division is slower), in a buffer reused from block to block
        k = terms[:b - a]
        np.bitwise_or(rows[a:b], _TWO_52_BITS, out=k.view(np.int64))
        np.subtract(k, _TWO_52, out=k)
        np.divide(np.add(ones[:b - a], a + 1), k, out=k)
        # (NumPy sums a reversed view in the view's order: the same float as
        # its contiguous copy, without the copy)
        total += float(k[::-1].sum())
    return total


def _encode_keys(scores: np.ndarray, out: np.ndarray, *, invert: bool) -> None:
    """Undo :func:`_decode_keys` but for the label bit: ``out`` = the score's
    pattern (inverted for scores <= -0.0) shifted left by one (``scores``
    and ``out`` may share memory)."""
    bits = scores.view(np.uint64)
    if invert:
        np.invert(bits, out=out)
        np.left_shift(out, _ONE, out=out)
    else:
        np.left_shift(bits, _ONE, out=out)


def _decode_keys(keys: np.ndarray, out: np.ndarray, *, invert: bool) -> np.ndarray:
    """The float64 scores of ``keys``, written into ``out`` (returned)."""
    bits = out.view(np.uint64)
    np.right_shift(keys, _ONE, out=bits)
    if invert:
        np.invert(bits, out=bits)
    return out


def _decode_finds_tie(keys: np.ndarray, out: np.ndarray, *, invert: bool) -> bool:
    """Decode ascending ``keys`` into ``out``; whether two scores are equal."""

    def decode(lo, hi):
        for start, stop in blocks(lo, hi):
            block = _decode_keys(keys[start:stop], out[start:stop], invert=invert)
            if np.any(block[1:] == block[:-1]) or (start > lo and out[start - 1] == block[0]):
                return True
        return False

    edges = part_edges(keys.size)
    return any(run_parts(decode, edges)) or any(out[e - 1] == out[e] for e in edges[1:-1])


def _positives_above(keys: np.ndarray, edges: list[int], n_pos: int) -> dict[int, int]:
    """For each part ``[lo, hi)`` of ascending ``keys``, keyed by ``lo``: the
    number of positives above it (at indices >= hi). With one part no keys
    are read."""
    def count(lo, hi):
        return sum(int(np.count_nonzero(keys[start:stop] & _ONE)) for start, stop in blocks(lo, hi))

    counts = run_parts(count, edges) if len(edges) > 2 else [n_pos]
    return dict(zip(edges[:-1], (np.cumsum(counts[::-1])[::-1].tolist() + [0])[1:]))


class _LabelScratch:
    """Reused per-part buffers of :func:`_block_positives` (a fresh
    temporary per block costs its page faults)."""

    def __init__(self, size: int):
        self.labels = np.empty(size, dtype=np.uint64)
        self.is_pos = np.empty(size, dtype=bool)


def _block_positives(block, labels, scratch: _LabelScratch, top_row: int, rows, carry: int):
    """The labels of a block of ascending keys, written to ``labels``
    (0 or 1), and the rows of its positives, written to
    ``rows[carry:carry + P]`` ascending; returns the positives' places in
    the block. ``top_row`` is the row of the block's first key (row j is
    index n - j)."""
    np.bitwise_and(block, _ONE, out=labels)
    is_pos = scratch.is_pos[:block.size]
    np.not_equal(labels, 0, out=is_pos)
    at = np.flatnonzero(is_pos)  # far faster on bools than on ints
    np.subtract(top_row, at[::-1], out=rows[carry:carry + at.size])
    return at


def _cumulate_labels(keys: np.ndarray, buf: np.ndarray, n_pos: int, *, in_place: bool):
    """``tp`` and the positives' rows of distinct ascending ``keys``.

    ``buf`` holds n + 1 integers. ``in_place``: ``buf[:n]`` is the keys'
    own buffer; it receives the labels, then their sums from the top, and
    read backwards it is ``tp`` (``buf[n] = 0`` is ``tp[0]``): no new array
    of n, but a reversed view. Otherwise ``buf`` is ``tp``, contiguous, and
    each block's labels go through a small temporary (a report keeps the
    keys, and hands ``tp`` to NumPy calls that copy a reversed view whole).
    Returns (tp, rows): ``rows`` ascending, the rows where the positives
    enter (row ``j`` is index ``n - j``).

    With several parts, the positives of each part are counted first (a read
    of the keys), so that each part knows how many lie above it; each part
    sums its labels block by block from its top, carrying the sum down.
    (Over a reversed view NumPy's cumulative sum also takes its plain
    strided loop, several times faster than its contiguous one.)
    """
    n = keys.size
    tp = buf.view(np.int64)
    if in_place:
        tp[n] = 0
    else:
        tp[0] = 0
    edges = part_edges(n)
    above = _positives_above(keys, edges, n_pos)
    rows = np.empty(n_pos, dtype=np.int64)

    def label(lo, hi):
        carry = above[lo]
        scratch = _LabelScratch(min(parallel.BLOCK, hi - lo))
        for start, stop in reversed(list(blocks(lo, hi))):
            labels = buf[start:stop] if in_place else scratch.labels[:stop - start]
            at = _block_positives(keys[start:stop], labels, scratch, n - start, rows, carry)
            sums = labels.view(np.int64)[::-1]
            sums[0] += carry  # the positives above stop, carried down by the sum
            # positives in [i, n): in place, or into tp's rows n - stop + 1 .. n - start
            np.cumsum(sums, out=sums if in_place else tp[n - stop + 1:n - start + 1])
            carry += at.size

    run_parts(label, edges)
    return (tp[::-1] if in_place else tp), rows


@dataclass(frozen=True, eq=False)
class UnitCurves:
    """FPR, TPR and precision at every row of a :class:`_UnitStepTable`
    (``tpr``, ``fpr``: rows 0..n; ``precision``: rows 1..n). Reversed views
    of ascending buffers, like the table's own ``tp`` and thresholds."""

    fpr: np.ndarray
    tpr: np.ndarray
    precision: np.ndarray


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


class _UnitCurveBuffers:
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


def _keyed_distinct_table(keys: np.ndarray, n_pos: int, *, invert: bool):
    """The table of sorted keys kept undecoded (see ``keep_keys``), or the
    tied road when two keys share a score."""
    n = keys.size
    # A tie the sample missed: two neighbouring keys of one score differ at
    # most in the label bit, so their exclusive or is 0 or 1. (Worked out in
    # the buffer tp will use, rather than in one more fresh array.)
    buf = np.empty(n + 1, dtype=np.uint64)

    def tied(lo, hi):
        hi = min(hi, n - 1)
        differ = buf[lo:hi]
        np.bitwise_xor(keys[lo + 1:hi + 1], keys[lo:hi], out=differ)
        return bool(np.any(differ <= _ONE))

    if any(in_parts(tied, n)):
        del buf
        return _table_from_key_runs(keys, invert=invert), None
    # Every score distinct: one row per score; the keys stay, for the thresholds.
    tp, rows = _cumulate_labels(keys, buf, n_pos, in_place=False)
    return _UnitStepTable(tp, keys=keys, invert=invert), rows


def _ties_in_sample(sorted_keys: np.ndarray, windows: int = 16, width: int = 256) -> bool:
    """Whether a few windows of sorted keys hold a tied score (a cheap guess).

    Only decides which road is faster: a wrong "no" is caught by the exact check
    on the thresholds, and a wrong "yes" cannot happen (a tie seen is a tie).
    """
    n = sorted_keys.size
    if n <= windows * width:
        scores = sorted_keys >> _ONE
        return bool(np.any(scores[1:] == scores[:-1]))
    starts = np.linspace(0, n - width, windows).astype(np.int64)
    scores = sorted_keys[starts[:, None] + np.arange(width)] >> _ONE  # one row per window
    return bool(np.any(scores[:, 1:] == scores[:, :-1]))


def _ties_in_spread_sample(keys: np.ndarray, size: int = 4096) -> bool:
    """Whether about ``size`` keys spread over the (unsorted) ``keys`` hold a
    tied score: a cheap guess made before the sort, like :func:`_ties_in_sample`
    after it. Continuous scores show no tie; scores of a few thousand values
    (rounded, binned) show many."""
    scores = np.sort(keys[::max(1, keys.size // size)] >> _ONE)
    return bool(np.any(scores[1:] == scores[:-1]))


def _table_from_key_runs(sorted_keys: np.ndarray, *, invert: bool) -> CountTable:
    """Count table from ascending keys with ties: one row per run of equal scores.

    A run of equal keys is one (score, label) block; a score held by both
    classes is two adjacent blocks, negatives first (label 0 sorts first).
    """
    n = sorted_keys.size
    change = np.flatnonzero(sorted_keys[1:] != sorted_keys[:-1])
    ends = np.empty(change.size + 1, dtype=np.int64)  # end (exclusive) of each block
    ends[:-1] = change + 1
    ends[-1] = n
    block_keys = sorted_keys[ends - 1]
    sizes = np.diff(ends, prepend=0)
    positive = (block_keys & _ONE).astype(bool)
    scores = _decode_keys(block_keys, np.empty(block_keys.size), invert=invert)
    starts = np.flatnonzero(np.concatenate(([True], scores[1:] != scores[:-1])))
    pos_w = np.add.reduceat(np.where(positive, sizes, 0), starts)
    neg_w = np.add.reduceat(np.where(positive, 0, sizes), starts)
    return _table_from_ascending(scores[starts], pos_w, neg_w, n)


def _table_by_class(s: np.ndarray, is_pos: np.ndarray) -> CountTable:
    """Count table of unweighted scores of any signs: gather, sort and merge each class."""
    n = s.size
    n_pos = int(np.count_nonzero(is_pos))
    # Both classes' scores side by side in one buffer, each run sorted in place.
    buf = np.empty(n, dtype=np.float64)
    np.compress(is_pos, s, out=buf[:n_pos])
    np.compress(~is_pos, s, out=buf[n_pos:])
    parallel.sort_parts(buf, [0, n_pos, n])
    if not (_has_ties(buf[:n_pos]) or _has_ties(buf[n_pos:])):
        # Continuous scores: merge the two runs (NumPy's timsort does a stable
        # argsort of two sorted runs as one linear merge), read the thresholds
        # in descending order and count. Buffers are released as soon as they
        # are used so that the peak stays near three arrays of n.
        desc = np.argsort(buf, kind="stable")[::-1]
        threshold = buf[desc]
        if not _has_ties(threshold):
            from_pos = desc < n_pos
            del buf, desc
            tp = np.empty(n + 1, dtype=np.int64)
            tp[0] = 0
            np.cumsum(from_pos, out=tp[1:])
            del from_pos
            fp = np.arange(n + 1, dtype=np.int64)
            fp -= tp
            return CountTable(threshold=threshold, tp=tp, fp=fp, n_rows=n)
        del desc, threshold  # a positive and a negative share a score: fold below
    vp, cp = _class_blocks(buf[:n_pos])
    vn, cn = _class_blocks(buf[n_pos:])
    return _table_from_ascending(*_merge_blocks(vp, cp, vn, cn), n)


def _has_ties(sorted_values: np.ndarray) -> bool:
    return sorted_values.size > 1 and bool(np.any(sorted_values[1:] == sorted_values[:-1]))


def count_table_from_aggregates(score, positives, negatives, *, n_rows=None) -> CountTable:
    """Build the table from per-score aggregates (one row per distinct score).

    This is the entry point for engines that aggregate where the data lives
    (a ``GROUP BY score`` in DuckDB or Spark): they return, for each distinct
    score, the weight of positives and of negatives, in any order.
    """
    score = np.asarray(score, dtype=np.float64)
    pos = np.asarray(positives)
    neg = np.asarray(negatives)
    if not (score.shape == pos.shape == neg.shape) or score.ndim != 1:
        raise ValueError("score, positives and negatives must be 1-D arrays of one length")
    if not np.isfinite(score).all():
        raise ValueError(f"score has a non-finite value at index {_first_index(~np.isfinite(score))}")
    integral = pos.dtype.kind in "iub" and neg.dtype.kind in "iub"
    dtype = np.int64 if integral else np.float64
    pos = pos.astype(dtype)
    neg = neg.astype(dtype)
    if (pos < 0).any() or (neg < 0).any():
        raise ValueError("aggregated counts must be non-negative")
    order = np.argsort(score, kind="stable")
    values, ends = _runs(score[order])
    starts = np.concatenate(([0], ends[:-1])) if values.size else ends
    pos_w = np.add.reduceat(pos[order], starts) if values.size else pos[:0]
    neg_w = np.add.reduceat(neg[order], starts) if values.size else neg[:0]
    if n_rows is None:
        n_rows = int(round(float(pos.sum() + neg.sum())))
    return _table_from_ascending(values, pos_w, neg_w, int(n_rows))
