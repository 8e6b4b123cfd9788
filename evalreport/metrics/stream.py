"""Exact measures from a count table streamed in descending score order, in bounded memory.

An engine that aggregates where the data lives (``GROUP BY score ... ORDER BY
score DESC``) can hand the count table over in chunks instead of whole. With
continuous scores the table has one row per data row, so a whole table of
1e8 rows would need gigabytes in Python; :class:`CountReducer` consumes it
chunk by chunk and keeps O(chunk + cap) memory (see Memory below), yet every
scalar is computed over every row of the exact table, with the formulas of
:mod:`evalreport.metrics.binary` (see Numbers below for how exactly they agree):

* the totals m+ and m-;
* the AUC and rank loss, from twice the area under the ROC polyline in count
  units (``sum (fp_k - fp_{k-1}) (tp_k + tp_{k-1})``): a Python integer when
  unweighted (see Limits);
* average precision, the step sum ``sum (tp_k - tp_{k-1}) P_k / m+``;
* the break-even point, read where TP + FP = m+ and interpolated inside a tied
  block as ``binary._bep`` does (this needs m+ in advance: the caller gets the
  class totals first, e.g. with one cheap aggregate query). With no negatives
  it is 1 (P = 1 wherever anything is predicted, R = 1 at the end); when the
  point is not reached by the last row (weights: the m+ given was summed in
  another order, e.g. by DuckDB in parallel, and lies an ulp above the
  stream's own running sum) it is read at the last row;
* the partial AUC at each ``max_fprs`` value, the trapezoids of
  ``BinaryEvaluation.partial_auc`` (this needs m- and m+ in advance too).

With one class only, the AUC, rank loss and partial AUCs are None (and AP and
BEP with no positives), and :func:`evaluate_reduced` gives the in-memory
engine's reasons in ``undefined``.

It also returns a *reduced* :class:`~evalreport.metrics.CountTable`: a subset of
the exact table's rows, whose cumulative counts and thresholds are the exact
ones at those rows. Kept:

* every vertex of the ROC convex hull. The upper hull is maintained across
  chunks (the hull of each chunk, merged into a running stack of vertices; both
  with :func:`~evalreport.metrics.cost.upper_hull_indices`). A strict vertex of
  the hull of all rows is a strict vertex of the hull of any subset holding it,
  so the hull of the reduced table is the hull of the exact table, and so are
  the cost curve, the expected total cost and every operating point computed
  from it (with weights, see Numbers);
* for each threshold ``t`` of ``keep_thresholds`` (given in advance), the row
  ``CountTable.rows_at(t)`` selects in the exact table (the last row whose
  score is >= t), so ``at_threshold(t)`` is exact;
* rows evenly spaced in row number, at most ``cap`` of them (the stride doubles
  each time the kept rows pass ``cap``), so that curves and figures stay
  faithful: :attr:`Reduction.roc_error` bounds how far the exact ROC curve
  strays from the kept polyline.

When the stream has at most ``cap`` rows (tied scores, a small file; with
groups, one streamed row per score and group) nothing is reduced: the whole
table is kept, built from the streamed rows with
:func:`~evalreport.metrics.count_table_from_aggregates`, the same table an
engine builds when it fetches everything at once (:func:`evaluate_reduced`
then evaluates that table as the in-memory engine does; the
:class:`Reduction`'s own scalars are the stream's, as above).

Numbers
-------
Unweighted (integer counts): the cumulative counts are exact int64, and the
AUC, rank loss and BEP are the in-memory engine's bit for bit: the twice-area
is an exact integer divided as a Python integer (correctly rounded, as the
in-memory engine does too), and the BEP is
read at the same rows with the same formula. AP and partial AUC are float
sums added chunk by chunk, grouped otherwise than the in-memory engine's one
dot product: they agree to rounding (about 1e-16), not bit for bit. The hull
is found with the same exact integer cross products, so its vertices, the
cost curve, the expected total cost and the operating points are the
in-memory ones.

Float weights: the cumulative counts are one running sum carried from chunk
to chunk (the floats of one ``cumsum`` over the whole table); the scalars agree
with the in-memory engine to rounding (about 1e-15 relative; the class totals
given in advance may be summed in another order, see the BEP above). The hull's
cross products round, so where three or more ROC points are collinear up to
rounding, the hull merged chunk by chunk can keep or drop a vertex that the
whole table's hull drops or keeps: the hull's vertices (and the thresholds of
the cost curve's segments) can then differ, while the expected total cost and
the operating points' costs agree to rounding.

Limits
------
Integer counts need ``m+ + m- < 2**63`` and ``2 m+ m- < 2**63`` (about 4.3e9
rows with balanced classes), else a ValueError before the first chunk is used:
past that, the int64 cross products of the hull kept while streaming
(:func:`~evalreport.metrics.cost.upper_hull_indices`, at most m+ m-) overflow.
(A whole count table evaluated in memory switches its hull and cost curve to
float64 and Python ints there instead.) Below it, each chunk's int64 dot of the
twice-area is exact: its terms are >= 0 and sum to at most the whole table's
twice-area, <= 2 m+ m- (the chunk's counts are checked against the totals).
The same data as float weights (a weight column of ones) has no such limit.
With groups, integer group counts are summed with ``np.bincount`` in float64:
exact while ``m+ + m- <= 2**53``, refused beyond.

Memory
------
The current chunk and its temporaries (about 20 arrays of the chunk's length),
at most ``2 cap`` sampled rows, the running hull (small: a convex chain of
lattice points in an m- x m+ box has O(m^(2/3)) vertices, in practice tens to
thousands), and one row per keep threshold. With ``n_groups`` groups, each hull
vertex and keep row also carries the 2 x ``n_groups`` counts of the groups
there, and each chunk builds (its own hull vertices + keep rows) x ``n_groups``
of them: (hull vertices + kept rows) x ``n_groups`` x 16 bytes, which ``cap``
does not bound. A group column is for folds, runs or data sets; more than
:data:`MAX_GROUPS` groups (a column of ids by mistake, say) is refused with a
ValueError rather than left to exhaust memory.

Groups (folds, runs) ride along when each streamed row carries a group code:
one table per group, either whole (when the stream had at most ``cap`` rows)
or reduced to the rows that are exact hull vertices or ``keep_thresholds``
rows, with each group's own cumulative counts there. ``rows_at(t)`` on such a
group table is exact at every threshold of ``keep_thresholds`` and at every
hull vertex's threshold (the least-cost threshold at any operating point),
which is what a per-group confusion matrix needs.

:func:`evaluate_reduced` turns a reduced table and its :class:`Reduction` into
the final :class:`~evalreport.metrics.BinaryEvaluation`: the hull, cost curve
and operating points from the reduced table, the scalars from the stream.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from .binary import BinaryEvaluation, _bep_between, _mcclish, _num, _trapezoids2, evaluate_counts
from .cost import upper_hull_indices
from .build import count_table_from_aggregates
from .table import (
    CountTable,
    SCALE_ADVICE,
    WeightScaleError,
    pair_counts_leave_int64,
    weight_scale_problem,
)
from .frozen import FrozenMapping

__all__ = [
    "DEFAULT_CAP",
    "MAX_GROUPS",
    "CountReducer",
    "ReducedEvaluation",
    "Reduction",
    "StreamResult",
    "evaluate_reduced",
    "reduce_count_stream",
]

#: Rows kept evenly spaced (and the largest table kept whole) by default.
DEFAULT_CAP = 1 << 18

#: Most group codes a reducer accepts: each hull vertex and keep row carries
#: every group's counts (see the module docstring, Memory).
MAX_GROUPS = 10_000

#: Integer counts: the int64 products of the hull and cost curve stay below this.
_INT64_LIMIT = 2**63

#: Rows of one score held back between chunks before they are folded into one
#: row per group (only a stream that repeats a score many times gets there).
_PENDING_FOLD = 4096


@dataclass(frozen=True, eq=False)
class Reduction:
    """What the stream measured exactly, and which rows of the exact table were kept.

    Attributes
    ----------
    rows : int
        Rows (distinct scores carrying weight) of the exact table.
    row_index : ndarray of int64
        For each row of the reduced table (row 0, "nothing positive", included),
        its row in the exact table; ``arange(rows + 1)`` when nothing was reduced.
    positives, negatives : int or float
        m+ and m- of the exact table (Python ints when unweighted).
    auc2 : int or float or None
        Twice the area under the ROC polyline in count units (an exact Python int
        when unweighted); None with one class only.
    auc, rank_loss, average_precision, bep : float or None
        As :func:`~evalreport.metrics.evaluate_counts` gives them on the exact
        table (None where undefined), to the precision the module docstring
        states (Numbers), whether or not the table was reduced.
    partial_auc : mapping
        ``max_fpr -> area`` (not standardised) for each ``max_fprs`` asked for;
        empty with one class only.
    exact_at : tuple of float
        The ``keep_thresholds``: where the reduced table is exact by construction.
    roc_error : float
        Largest distance, in ROC space, of any point of the exact ROC curve from
        the polyline through the kept rows (0 when nothing was reduced): between
        two kept rows the exact curve is monotone, so it stays in the box they
        span, at most ``dx dy / hypot(dx, dy)`` from their chord.
    """

    rows: int
    row_index: np.ndarray
    positives: int | float
    negatives: int | float
    auc2: int | float | None
    auc: float | None
    rank_loss: float | None
    average_precision: float | None
    bep: float | None
    partial_auc: Mapping[float, float] = field(default_factory=FrozenMapping)
    roc_error: float = 0.0
    exact_at: tuple[float, ...] = ()

    @property
    def kept(self) -> int:
        """Rows of the reduced table (row 0 not counted)."""
        return int(self.row_index.size - 1)

    @property
    def reduced(self) -> bool:
        """True when rows of the exact table were dropped."""
        return self.kept < self.rows

    def exact_row(self, table: CountTable, t: float) -> bool:
        """Whether ``table.rows_at(t)`` on the reduced ``table`` is the exact table's row.

        It is at the ``keep_thresholds``; and when no dropped row can score >= t:
        the row selected is the last one, or ``t`` is its own threshold (thresholds
        strictly descend), or the next kept row follows it directly in the exact
        table. Row 1 is always kept, so a ``t`` above every score selects row 0
        exactly. Hull vertices are kept rows: their thresholds are exact.
        """
        t = float(t)
        if t in self.exact_at:
            return True
        r = table.rows_at(t)
        if r == self.kept or (r > 0 and table.threshold[r - 1] == t):
            return True
        return int(self.row_index[r + 1]) == int(self.row_index[r]) + 1


@dataclass(frozen=True, eq=False)
class StreamResult:
    """What :func:`reduce_count_stream` returns.

    ``table``: the whole exact table, or the reduced one; ``reduction``: the
    exact scalars and which rows were kept; ``group_tables``: with group codes,
    group code -> that group's table (whole, or reduced to the hull and
    ``keep_thresholds`` rows), else None.
    """

    table: CountTable
    reduction: Reduction
    group_tables: dict[int, CountTable] | None = None

    @property
    def reduced(self) -> bool:
        return self.reduction.reduced


@dataclass(frozen=True, eq=False)
class ReducedEvaluation(BinaryEvaluation):
    """A :class:`BinaryEvaluation` whose count table is a reduced one.

    The hull, cost curve, expected total cost and operating points are exact
    (the reduced table holds every hull vertex); AUC, rank loss, AP and BEP are
    the stream's exact values; ``roc`` and ``pr`` are drawn through the kept rows
    only. :meth:`at_threshold` and :meth:`partial_auc` refuse what the reduced
    table cannot give exactly rather than answer approximately.
    """

    reduction: Reduction = field(kw_only=True)

    def at_threshold(self, t: float, *, costs=None, betas=(1,)):
        t = float(t)
        if not np.isnan(t) and not self.reduction.exact_row(self.counts, t):
            raise ValueError(
                f"threshold {t:g} was not asked for in advance: the count table was reduced to "
                f"{self.reduction.kept:,} of {self.reduction.rows:,} rows, exact only at the "
                "keep_thresholds and at the ROC hull's vertices"
            )
        return super().at_threshold(t, costs=costs, betas=betas)

    def partial_auc(self, fpr_max: float, *, standardized: bool = False) -> float | None:
        if not 0.0 < fpr_max <= 1.0:
            raise ValueError(f"fpr_max must be in (0, 1], got {fpr_max!r}")
        if self.auc is None:
            return None
        area = self.reduction.partial_auc.get(float(fpr_max))
        if area is None:
            raise ValueError(
                f"the partial AUC at max_fpr {fpr_max:g} was not computed while streaming the "
                "count table (pass it in max_fprs)"
            )
        return _mcclish(area, fpr_max) if standardized else area


def evaluate_reduced(table: CountTable, reduction: Reduction | None) -> BinaryEvaluation:
    """The evaluation of a streamed table: exact scalars over the kept rows' hull.

    With nothing reduced (or no ``reduction``) this is just
    :func:`~evalreport.metrics.evaluate_counts` on the whole table.
    """
    ev = evaluate_counts(table)
    if reduction is None or not reduction.reduced:
        return ev
    return ReducedEvaluation(
        counts=table, n=ev.n, positives=ev.positives, negatives=ev.negatives,
        auc=reduction.auc, rank_loss=reduction.rank_loss,
        average_precision=reduction.average_precision, bep=reduction.bep,
        hull=ev.hull, cost_curve=ev.cost_curve, expected_total_cost=ev.expected_total_cost,
        undefined=ev.undefined, reduction=reduction,
    )


def reduce_count_stream(
    chunks: Iterable,
    *,
    positives,
    negatives,
    n_rows: int | None = None,
    keep_thresholds: Sequence[float] = (),
    max_fprs: Sequence[float] = (),
    cap: int = DEFAULT_CAP,
    n_groups: int = 0,
) -> StreamResult:
    """Reduce a count table streamed in descending score order (see the module docstring).

    Parameters
    ----------
    chunks : iterable
        Each chunk a tuple ``(score, pos, neg)`` of 1-D arrays, or with groups
        ``(score, pos, neg, group)`` or ``(score, pos, neg, group, n)``: ``group``
        an int code in ``[0, n_groups)``, ``n`` the data rows behind each streamed
        row (needed for weighted groups' ``n_rows``). Scores never rise, within a
        chunk or from one chunk to the next; one score may span several rows
        (several groups) and chunks. Counts are ints (exact) or float weights.
    positives, negatives
        m+ and m-, the class totals of the whole stream, known in advance (for
        the break-even point and the partial AUC). Checked at the end (exactly
        when unweighted, to 1e-6 relative with weights, whose sums differ in the last bits).
    n_rows : int, optional
        Data rows behind the table (default: the total count, unweighted).
    keep_thresholds : floats
        Thresholds at which the reduced table must stay exact.
    max_fprs : floats
        Partial AUCs to compute, each over FPR in [0, max_fpr].
    cap : int
        Most evenly spaced rows kept; a table of at most ``cap`` rows is kept whole.
        An integer >= 2 (a float is refused, not truncated).
    n_groups : int
        Number of group codes (0: no groups; at most :data:`MAX_GROUPS`).

    Raises
    ------
    ValueError
        Bad arguments; a chunk out of descending score order, with a NaN or
        infinite score or count, or a negative count (the chunk and row are
        named); integer counts past the int64 limits (module docstring,
        Limits); totals that differ from the stream's.
    """
    reducer = CountReducer(
        positives=positives, negatives=negatives, keep_thresholds=keep_thresholds,
        max_fprs=max_fprs, cap=cap, n_groups=n_groups,
    )
    for chunk in chunks:
        reducer.feed(*chunk)
    return reducer.finish(n_rows)


class CountReducer:
    """The state of :func:`reduce_count_stream`: :meth:`feed` chunks, then :meth:`finish`.

    Memory: the current chunk, at most ``2 cap`` sampled rows, the running hull
    (its vertices: small), one row per keep threshold, and with groups
    ``2 n_groups`` counts per hull vertex and keep row (module docstring, Memory).
    """

    def __init__(self, *, positives, negatives, keep_thresholds: Sequence[float] = (),
                 max_fprs: Sequence[float] = (), cap: int = DEFAULT_CAP, n_groups: int = 0):
        self.cap = _integer(cap, "cap", 2)
        self.n_groups = _integer(n_groups, "n_groups", 0)
        if self.n_groups > MAX_GROUPS:
            raise ValueError(
                f"{self.n_groups:,} groups: the streamed tables keep every group's counts at each ROC hull "
                f"vertex and kept row (memory in proportion to the groups, not bounded by cap), so at most "
                f"{MAX_GROUPS:,} groups are accepted; a group column is for folds, runs or data sets: use a "
                "coarser column, or evaluate in memory (engine: memory)")
        for name, total in (("positives", positives), ("negatives", negatives)):
            if not (math.isfinite(float(total)) and float(total) >= 0) and float(total) != math.inf:
                raise ValueError(f"{name} must be a finite number >= 0, got {total!r}")
        # weight sums past float64 or a product of them that under- or overflows:
        # the scalars would be NaN or divide by 0 (integer counts never do)
        problem = weight_scale_problem(positives, negatives)
        if problem is not None:
            raise WeightScaleError(f"{problem} ({SCALE_ADVICE})")
        self.m_pos = _num(positives)
        self.m_neg = _num(negatives)
        thresholds = np.asarray([float(t) for t in keep_thresholds], dtype=np.float64)
        if np.isnan(thresholds).any():
            raise ValueError("keep_thresholds holds a NaN")
        self.keep_t = np.unique(thresholds)[::-1].copy()  # descending, distinct
        fprs = []
        for f in max_fprs:
            f = float(f)
            if not 0.0 < f <= 1.0:
                raise ValueError(f"max_fpr must be in (0, 1], got {f!r}")
            fprs.append(f)
        self.max_fprs = sorted(set(fprs))
        self.dtype = None  # int64 or float64, from the first chunk
        self.integral = True
        self.finished = False
        self.chunks = 0  # chunks fed (named in error messages, counted from 0)
        self.last_score = np.inf
        self.pending = None  # raw rows of the last score seen, which may go on in the next chunk
        # the exact table, row by row (row 0 is "nothing positive")
        self.row = 0  # rows completed
        self.tp = self.fp = 0  # cumulative counts at the last completed row
        self.auc2 = 0
        self.ap_sum = 0.0
        self.bep_tp = None  # the break-even point's TP (interpolated), once reached
        # per max_fpr: [twice the area so far, done]
        self.pauc = {f: [0.0, False] for f in self.max_fprs}
        # sampled rows: lists of arrays (row, threshold, tp, fp); every stride-th row
        self.stride = 1
        self.sampled: list[tuple] = []
        self.n_sampled = 0
        # the running hull: vertices (row, threshold, tp, fp, group pos, group neg)
        self.hull = None
        # keep thresholds: the row rows_at(t) selects so far (row 0 until a score >= t)
        self.keep = None
        # groups: counts at the last completed row, and totals
        self.g_tp = self.g_fp = None
        self.g_rows = None
        # row 1 as (row, threshold, tp, fp), always kept (see Reduction.exact_row);
        # only the learner's table needs it (group tables hold hull and keep rows)
        self.first = None
        # whole mode: the raw chunks as given, while they fit in cap rows
        self.raw: list[tuple] | None = []
        self.n_raw = 0
        self.n_given = None  # whether chunks carry n

    # ------------------------------------------------------------------ input

    def feed(self, score, pos, neg, group=None, n=None) -> None:
        """Consume one chunk (see :func:`reduce_count_stream`)."""
        if self.finished:
            raise ValueError("the reducer is finished")
        chunk = self.chunks
        self.chunks += 1
        score = np.asarray(score, dtype=np.float64)
        pos, neg = np.asarray(pos), np.asarray(neg)
        if score.ndim != 1 or not (score.shape == pos.shape == neg.shape):
            raise ValueError("score, pos and neg must be 1-D arrays of one length")
        if self.n_groups:
            if group is None:
                raise ValueError("n_groups > 0: every chunk needs its group codes")
            group = np.asarray(group)
            if group.shape != score.shape or group.dtype.kind not in "iu":
                raise ValueError("group must be integer codes, one per row")
            if group.size and (group.min() < 0 or group.max() >= self.n_groups):
                raise ValueError(f"group codes must be in [0, {self.n_groups})")
            group = group.astype(np.int64, copy=False)
        elif group is not None:
            raise ValueError("group codes given but n_groups is 0")
        if n is not None:
            n = np.asarray(n, dtype=np.int64)
            if n.shape != score.shape:
                raise ValueError("n must have one entry per row")
        if self.n_given is None:
            self.n_given = n is not None
        elif self.n_given != (n is not None):
            raise ValueError("every chunk must carry n, or none")
        if score.size == 0:
            return
        self._set_dtype(pos, neg)
        pos = pos.astype(self.dtype, copy=False)
        neg = neg.astype(self.dtype, copy=False)
        self._check(chunk, score, pos, neg)
        self.last_score = score[-1]
        if self.raw is not None:
            self.n_raw += score.size
            if self.n_raw <= self.cap:
                self.raw.append((score.copy(), pos.copy(), neg.copy(),
                                 None if group is None else group.copy(), None if n is None else n.copy()))
            else:
                self.raw = None  # too many rows to keep whole: reduce
        cols = [score, pos, neg, group, n]
        if self.pending is not None:
            cols = [None if c is None else np.concatenate((p, c)) for p, c in zip(self.pending, cols)]
        s = cols[0]
        # The last score's rows may go on in the next chunk: hold them back.
        tail = int(np.searchsorted(-s, -s[-1], side="left"))
        self.pending = tuple(None if c is None else c[tail:] for c in cols)
        if self.pending[0].size > _PENDING_FOLD:
            self.pending = self._fold(self.pending)
        if tail:
            self._rows(*(None if c is None else c[:tail] for c in cols))

    def _check(self, chunk: int, score, pos, neg) -> None:
        """Finite scores in descending order, finite non-negative counts; an error
        names the first bad row of the chunk."""
        def where(i) -> str:
            return f"chunk {chunk}, row {int(i)} (counted from 0)"

        bad = ~np.isfinite(score)
        if bad.any():
            i = np.argmax(bad)
            raise ValueError(f"{where(i)}: a streamed score is NaN or infinite ({score[i]!r})")
        for name, values in (("pos", pos), ("neg", neg)):
            bad = values < 0 if self.integral else ~(np.isfinite(values) & (values >= 0))
            if bad.any():
                i = np.argmax(bad)
                what = "negative" if values[i] < 0 and np.isfinite(values[i]) else "NaN or infinite"
                raise ValueError(f"{where(i)}: {name} is {values[i].item()!r} ({what}): streamed counts must "
                                 "be finite and non-negative")
        up = score[1:] > score[:-1]
        if score[0] > self.last_score or up.any():
            i = 0 if score[0] > self.last_score else np.argmax(up) + 1
            raise ValueError(f"{where(i)}: the stream is not in descending score order "
                             f"({score[i]!r} after {(self.last_score if i == 0 else score[i - 1])!r})")

    def _set_dtype(self, pos, neg) -> None:
        integral = pos.dtype.kind in "iub" and neg.dtype.kind in "iub"
        if self.dtype is None:
            self.integral = integral
            self.dtype = np.dtype(np.int64 if integral else np.float64)
            if integral:
                self._check_int64()
            zero = self.dtype.type(0)
            self.tp = self.fp = zero
            g = self.n_groups
            self.g_tp = np.zeros(g, dtype=self.dtype)
            self.g_fp = np.zeros(g, dtype=self.dtype)
            self.g_rows = np.zeros(g, dtype=np.int64)
            self.hull = _Rows.one(0, np.inf, zero, zero, self.g_tp, self.g_fp)
            k = self.keep_t.size
            self.keep = _Rows(
                row=np.zeros(k, dtype=np.int64), threshold=np.full(k, np.inf),
                fp=np.zeros(k, dtype=self.dtype), tp=np.zeros(k, dtype=self.dtype),
                gtp=np.zeros((k, g), dtype=self.dtype), gfp=np.zeros((k, g), dtype=self.dtype),
            )
        elif integral != self.integral:
            raise ValueError("every chunk must have integer counts, or every chunk float weights")

    def _check_int64(self) -> None:
        """Integer counts: refuse totals past the int64 limits (module docstring, Limits)."""
        pos, neg = self.m_pos, self.m_neg
        if isinstance(pos, float) or isinstance(neg, float):
            if not (pos.is_integer() and neg.is_integer()):
                raise ValueError(f"integer counts, but the totals given are not integers ({pos!r}, {neg!r})")
            pos, neg = int(pos), int(neg)
        if pos + neg >= _INT64_LIMIT or pair_counts_leave_int64(pos, neg):
            raise ValueError(
                f"integer counts with m+ = {pos:,} and m- = {neg:,}: m+ + m- or 2 m+ m- reaches 2**63, "
                "past which the int64 cross products of the ROC hull kept while streaming overflow; give "
                "the counts as float weights (e.g. a weight column of ones), exact to rounding")
        if self.n_groups and pos + neg > 2**53:
            raise ValueError(
                f"integer counts with m+ + m- = {pos + neg:,} past 2**53 and groups: each group's counts are "
                "summed in float64, exact only below 2**53; give the counts as float weights")

    def _fold(self, pending):
        """One row per group for the held-back rows of one score."""
        s, p, m, g, n = pending
        if g is None:
            return (s[:1], p.sum(keepdims=True), m.sum(keepdims=True), None,
                    None if n is None else n.sum(keepdims=True))
        codes = np.unique(g)
        idx = np.searchsorted(codes, g)
        return (np.full(codes.size, s[0]), _bincount(idx, p, codes.size, self.integral),
                _bincount(idx, m, codes.size, self.integral), codes,
                None if n is None else _bincount(idx, n, codes.size, True))

    # ------------------------------------------------------------------ rows

    def _rows(self, s, p, m, g, n) -> None:
        """Complete rows of the table: raw rows whose score does not go on."""
        if g is not None and (n is not None or self.integral):
            # rows per group: n if given, else (unweighted) the counts themselves
            rows_behind = n if n is not None else p + m
            self.g_rows += _bincount(g, rows_behind, self.n_groups, True)
        new = np.empty(s.size, dtype=bool)
        new[0] = True
        np.not_equal(s[1:], s[:-1], out=new[1:])
        if new.all():  # one streamed row per score (GROUP BY score): no folding
            P, N, thr = p, m, s
        else:
            starts = np.flatnonzero(new)
            P, N, thr = np.add.reduceat(p, starts), np.add.reduceat(m, starts), s[starts]
        valid = (P + N) > 0  # a score that carries no weight is not a threshold
        raw_row = None
        if g is not None:  # each streamed row's row in this chunk's part of the table
            raw_row = np.cumsum(new) - 1
        if not valid.all():
            if raw_row is not None:  # rows of a weightless score carry nothing: any row will do
                raw_row = np.maximum(np.cumsum(valid) - 1, 0)[raw_row]
            P, N, thr = P[valid], N[valid], thr[valid]
        k = P.size
        if k == 0:
            return
        # cumulative counts, summed in order from the carried total (as one cumsum
        # over the whole table would: the same floats with weights)
        tp_all = _cumsum_from(self.tp, P)  # the carried total, then this chunk's rows
        fp_all = _cumsum_from(self.fp, N)
        tp, fp = tp_all[1:], fp_all[1:]
        if self.integral and (tp[-1] > self.m_pos or fp[-1] > self.m_neg):
            # (this also keeps every chunk's int64 dot below 2**63: module docstring, Limits)
            raise ValueError(f"the stream's counts pass the totals given in advance (positives {tp[-1].item():,} "
                             f"of {self.m_pos:,}, negatives {fp[-1].item():,} of {self.m_neg:,})")
        tp_prev, fp_prev = tp_all[:-1], fp_all[:-1]
        first_row = self.row + 1
        rows = np.arange(first_row, first_row + k, dtype=np.int64)

        # AUC: twice the trapezoids in count units. Unweighted, the int64 dot is
        # exact (its terms are >= 0 and sum to at most 2 m+ m- < 2**63: Limits)
        # and the chunks' dots are added as Python ints.
        d = _trapezoids2(tp_all, fp_all)
        self.auc2 += int(d) if self.integral else float(d)
        # AP: the step sum, as binary._scalars_general
        steps = np.subtract(tp, tp_prev, dtype=np.float64)
        precision = np.divide(tp, np.add(tp, fp), dtype=np.float64)
        self.ap_sum += float(np.dot(steps, precision))
        # BEP: where TP + FP first reaches m+ (binary._bep)
        if self.bep_tp is None and self.m_pos > 0:
            predicted = np.add(tp, fp)
            j = int(np.searchsorted(predicted, self.m_pos, side="left"))
            if j < k:
                if predicted[j] == self.m_pos:
                    self.bep_tp = tp[j]
                else:
                    self.bep_tp = _bep_between(tp_prev[j] + fp_prev[j], tp_prev[j], predicted[j], tp[j], self.m_pos)
        self._partial_auc(tp, fp)
        # the hull of this chunk's rows, and the keep-threshold rows in it
        local = upper_hull_indices(fp, tp)
        keep_local = None
        if self.keep_t.size:
            count = np.searchsorted(-thr, -self.keep_t, side="right")  # rows scoring >= t
            hit = count > 0
            keep_local = count[hit] - 1
        selected = local if keep_local is None else np.union1d(local, keep_local)
        if g is not None:
            gtp, gfp = self._group_counts(selected, raw_row, g, p, m)
        else:
            gtp = gfp = np.zeros((selected.size, 0), dtype=self.dtype)
        cand = _Rows(row=rows[selected], threshold=thr[selected], tp=tp[selected], fp=fp[selected],
                     gtp=gtp, gfp=gfp)
        at = np.searchsorted(selected, local)
        merged = self.hull.append(cand.take(at))
        self.hull = merged.take(upper_hull_indices(merged.fp, merged.tp))
        if keep_local is not None and keep_local.size:
            at = np.searchsorted(selected, keep_local)
            self.keep.put(np.flatnonzero(hit), cand.take(at))
        if self.first is None:
            self.first = (rows[:1], thr[:1], tp[:1], fp[:1])
        # evenly spaced rows
        every = rows % self.stride == 0
        if every.any():
            self.sampled.append((rows[every], thr[every], tp[every], fp[every]))
            self.n_sampled += int(every.sum())
            while self.n_sampled > self.cap:
                self.stride *= 2
                parts = [np.concatenate(c) for c in zip(*self.sampled)]
                keep = parts[0] % self.stride == 0
                self.sampled = [tuple(c[keep] for c in parts)]
                self.n_sampled = int(keep.sum())
        # carry
        self.row += k
        self.tp, self.fp = tp[-1], fp[-1]
        if g is not None:
            self.g_tp = self.g_tp + _bincount(g, p, self.n_groups, self.integral)
            self.g_fp = self.g_fp + _bincount(g, m, self.n_groups, self.integral)

    def _partial_auc(self, tp, fp) -> None:
        """Twice the trapezoids of BinaryEvaluation.partial_auc, chunk by chunk."""
        if not self.max_fprs or not (self.m_pos > 0 and self.m_neg > 0):
            return
        todo = [f for f, state in self.pauc.items() if not state[1]]
        if not todo:
            return
        # Only the rows up to the first past the largest max_fpr matter (with a
        # margin for the rounding of fp / m-).
        stop = int(np.searchsorted(fp, max(todo) * self.m_neg * (1 + 1e-9) + 1e-300, side="right")) + 1
        tp, fp = tp[:stop], fp[:stop]
        fpr = np.divide(fp, self.m_neg, dtype=np.float64)
        tpr = np.divide(tp, self.m_pos, dtype=np.float64)
        x = np.concatenate(([np.divide(self.fp, self.m_neg, dtype=np.float64)], fpr))
        y = np.concatenate(([np.divide(self.tp, self.m_pos, dtype=np.float64)], tpr))
        for f, state in self.pauc.items():
            if state[1]:
                continue
            # x[0] (the carried row) <= f: while f is not done, every row so far
            # had FPR <= f, so stop >= 1
            stop = int(np.searchsorted(x, f, side="right"))
            state[0] += float(np.sum(np.diff(x[:stop]) * (y[1:stop] + y[:stop - 1])))
            if stop < x.size:
                state[1] = True
                x0, x1, y0, y1 = x[stop - 1], x[stop], y[stop - 1], y[stop]
                if x0 < f:  # interpolate the segment that crosses max_fpr
                    yf = y0 + (y1 - y0) * (f - x0) / (x1 - x0)
                    state[0] += float((f - x0) * (yf + y0))

    def _group_counts(self, selected, raw_row, g, p, m):
        """Each group's cumulative counts at the chunk's ``selected`` rows."""
        G = self.n_groups
        seg = np.searchsorted(selected, raw_row, side="left")  # first selected row at or below
        size = (selected.size + 1) * G
        out = []
        for values, carry in ((p, self.g_tp), (m, self.g_fp)):
            sums = _bincount(seg * G + g, values, size, self.integral).reshape(selected.size + 1, G)
            cum = np.cumsum(sums[:-1], axis=0) + carry
            out.append(cum.astype(self.dtype, copy=False))
        return out[0], out[1]

    # ------------------------------------------------------------------ result

    def finish(self, n_rows: int | None = None) -> StreamResult:
        """Flush the last score; return the (whole or reduced) table and the exact scalars."""
        if self.finished:
            raise ValueError("the reducer is already finished")
        if self.dtype is None:  # nothing streamed
            self._set_dtype(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))
        if self.pending is not None:
            self._rows(*self.pending)
            self.pending = None
        self.finished = True
        pos, neg = _num(self.tp), _num(self.fp)
        for name, got, given in (("positives", pos, self.m_pos), ("negatives", neg, self.m_neg)):
            # weighted sums taken in another order differ in the last bits (at most
            # about n x 1e-16 relative): anything past 1e-6 means the data changed
            same = got == given if self.integral else math.isclose(got, given, rel_tol=1e-6, abs_tol=1e-300)
            if not same:
                raise ValueError(f"the stream's {name} ({got!r}) differ from the totals given in advance ({given!r})")
        if n_rows is None:
            if not self.integral:
                raise ValueError("weighted streams need n_rows")
            n_rows = int(pos + neg)
        scalars = self._scalars(pos, neg)
        if self.raw is not None:
            return self._whole(scalars, int(n_rows))
        return self._reduced(scalars, int(n_rows))

    def _scalars(self, pos, neg) -> dict:
        out = {"auc2": None, "auc": None, "rank_loss": None, "average_precision": None, "bep": None,
               "partial_auc": {}}
        if pos > 0:
            out["average_precision"] = float(self.ap_sum / pos)
            if neg == 0:  # P = 1 wherever anything is predicted, R = 1 at the end
                bep_tp = pos
            elif self.bep_tp is None:  # TP + FP never reached the m+ given (rounding): the last row
                bep_tp = self.tp
            else:
                bep_tp = self.bep_tp
            out["bep"] = float(bep_tp / pos)
        if pos > 0 and neg > 0:
            pairs2 = 2 * pos * neg
            auc2 = self.auc2
            out["auc2"] = auc2
            out["auc"] = float(auc2 / pairs2)
            out["rank_loss"] = float((pairs2 - auc2) / pairs2)
            out["partial_auc"] = {f: state[0] / 2.0 for f, state in self.pauc.items()}
        return out

    def _whole(self, scalars: dict, n_rows: int) -> StreamResult:
        """At most cap rows streamed: the exact tables, built as an engine would build them at once."""
        parts = list(zip(*self.raw)) if self.raw else [[] for _ in range(5)]
        empty = np.zeros(0, dtype=self.dtype)
        s = np.concatenate(parts[0]) if self.raw else np.zeros(0)
        p = np.concatenate(parts[1]) if self.raw else empty
        m = np.concatenate(parts[2]) if self.raw else empty
        table = count_table_from_aggregates(s, p, m, n_rows=n_rows)
        reduction = Reduction(
            rows=len(table), row_index=np.arange(len(table) + 1, dtype=np.int64),
            positives=table.positives, negatives=table.negatives,
            partial_auc=FrozenMapping(scalars.pop("partial_auc")), exact_at=tuple(self.keep_t.tolist()),
            **scalars,
        )
        groups = None
        if self.n_groups:
            g = np.concatenate(parts[3]) if self.raw else np.zeros(0, dtype=np.int64)
            # each group's rows, in stream order (a stable sort, not one mask per group)
            order = np.argsort(g, kind="stable")
            bounds = np.searchsorted(g[order], np.arange(self.n_groups + 1))
            groups = {}
            for code in range(self.n_groups):
                sel = order[bounds[code]:bounds[code + 1]]
                groups[code] = count_table_from_aggregates(s[sel], p[sel], m[sel],
                                                           n_rows=self._group_rows(code))
        self.raw = None
        return StreamResult(table=table, reduction=reduction, group_tables=groups)

    def _group_rows(self, code: int) -> int:
        if not self.integral and not self.n_given:
            raise ValueError("weighted streams with groups need n (the rows behind each streamed row)")
        return int(self.g_rows[code])

    def _reduced(self, scalars: dict, n_rows: int) -> StreamResult:
        # each kept row's (row, threshold, tp, fp), from whichever source holds it
        sources = [(x.row, x.threshold, x.tp, x.fp) for x in (self.hull, self.keep)]
        if self.first is not None:
            sources.append(self.first)
        if self.sampled:
            sources.append(tuple(np.concatenate(c) for c in zip(*self.sampled)))
        every = np.unique(np.concatenate([src[0] for src in sources]))
        every = every[every > 0]
        thr = np.empty(every.size)
        tp = np.empty(every.size, dtype=self.dtype)
        fp = np.empty(every.size, dtype=self.dtype)
        for r, t, a, b in sources:
            inner = r > 0
            at = np.searchsorted(every, r[inner])
            thr[at], tp[at], fp[at] = t[inner], a[inner], b[inner]
        zero = np.zeros(1, dtype=self.dtype)
        table = CountTable(threshold=thr, tp=np.concatenate((zero, tp)), fp=np.concatenate((zero, fp)),
                           n_rows=n_rows)
        row_index = np.concatenate(([0], every)).astype(np.int64)
        reduction = Reduction(
            rows=self.row, row_index=row_index, positives=table.positives,
            negatives=table.negatives, partial_auc=FrozenMapping(scalars.pop("partial_auc")),
            roc_error=_roc_error(table, row_index), exact_at=tuple(self.keep_t.tolist()), **scalars,
        )
        groups = None
        if self.n_groups:
            # the hull and keep rows, with each group's counts there
            both = _Rows.concat([self.hull, self.keep])
            r, first = np.unique(both.row, return_index=True)
            both = both.take(first[r > 0])
            groups = {}
            for code in range(self.n_groups):
                gz = np.zeros(1, dtype=self.dtype)
                groups[code] = CountTable(
                    threshold=both.threshold.copy(),
                    tp=np.concatenate((gz, both.gtp[:, code])), fp=np.concatenate((gz, both.gfp[:, code])),
                    n_rows=self._group_rows(code),
                )
        return StreamResult(table=table, reduction=reduction, group_tables=groups)


# ---------------------------------------------------------------------- helpers


@dataclass(eq=False)
class _Rows:
    """Some rows of the exact table: row number, threshold, cumulative counts
    (tp, fp: the order of the sampled rows' tuples too), and each group's
    cumulative counts there (shape rows x groups)."""

    row: np.ndarray
    threshold: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    gtp: np.ndarray
    gfp: np.ndarray

    @classmethod
    def one(cls, row, threshold, tp, fp, gtp, gfp) -> _Rows:
        return cls(row=np.array([row], dtype=np.int64), threshold=np.array([threshold], dtype=np.float64),
                   tp=np.array([tp]), fp=np.array([fp]), gtp=np.asarray(gtp)[None, :].copy(),
                   gfp=np.asarray(gfp)[None, :].copy())

    @classmethod
    def concat(cls, parts) -> _Rows:
        return cls(*(np.concatenate([getattr(p, f) for p in parts]) for f in _ROW_FIELDS))

    def append(self, other: _Rows) -> _Rows:
        return _Rows.concat([self, other])

    def take(self, index) -> _Rows:
        return _Rows(*(getattr(self, f)[index] for f in _ROW_FIELDS))

    def put(self, index, other: _Rows) -> None:
        for f in _ROW_FIELDS:
            getattr(self, f)[index] = getattr(other, f)


_ROW_FIELDS = ("row", "threshold", "tp", "fp", "gtp", "gfp")


def _integer(value, name: str, least: int) -> int:
    """``value`` as an int of at least ``least``; a float, bool or text is refused, not truncated."""
    if isinstance(value, bool):
        raise ValueError(f"{name} must be an integer of at least {least}, got {value!r}")
    try:
        value = operator.index(value)
    except TypeError:
        raise ValueError(f"{name} must be an integer of at least {least}, got {value!r}") from None
    if value < least:
        raise ValueError(f"{name} must be an integer of at least {least}, got {value!r}")
    return value


def _cumsum_from(start, values: np.ndarray) -> np.ndarray:
    """``start``, ``start + values[0]``, ``start + values[0] + values[1]``, ...: one
    running sum from ``start``, so chunk after chunk gives the floats of one cumsum
    over all."""
    out = np.empty(values.size + 1, dtype=values.dtype)
    out[0] = start
    out[1:] = values
    np.cumsum(out, out=out)
    return out


def _bincount(codes, values, size: int, integral: bool) -> np.ndarray:
    sums = np.bincount(codes, weights=values, minlength=size)
    return np.rint(sums).astype(np.int64) if integral else sums


def _roc_error(table: CountTable, row_index: np.ndarray) -> float:
    """Largest distance of the exact ROC curve from the polyline through the
    reduced table's rows. Where rows were dropped between two kept ones the
    curve is monotone in between, so it stays in the box they span, whose
    farthest corner is ``dx dy / hypot(dx, dy)`` from the chord; where none
    were, the polyline is the curve."""
    pos, neg = table.positives, table.negatives
    if not (pos > 0 and neg > 0) or len(table) == 0:
        return 0.0
    gap = np.diff(row_index) > 1
    dx = np.diff(table.fp / neg)[gap]
    dy = np.diff(table.tp / pos)[gap]
    length = np.hypot(dx, dy)
    with np.errstate(invalid="ignore", divide="ignore"):
        d = np.where(length > 0, dx * dy / np.where(length > 0, length, 1.0), 0.0)
    return float(d.max()) if d.size else 0.0
