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
from collections.abc import Iterable, Sequence

import numpy as np

from .binary import plain_number
from ..counting.build import count_table_from_aggregates
from .frozen import FrozenMapping
from .reduced import ReducedEvaluation, Reduction, StreamResult, evaluate_reduced
from .stream_rows import ExactRows, bincount
from ..counting.table import SCALE_ADVICE, WeightScaleError, pair_counts_leave_int64, weight_scale_problem

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

    Returns
    -------
    StreamResult

    Examples
    --------
    Six scores in two chunks, kept to about ``cap`` rows (and exact at 0.7):

    >>> chunks = [([0.9, 0.8, 0.7], [1, 1, 0], [0, 0, 1]), ([0.4, 0.3, 0.1], [1, 0, 0], [0, 1, 1])]
    >>> out = reduce_count_stream(chunks, positives=3, negatives=3, keep_thresholds=[0.7], cap=2)
    >>> out.reduced, out.reduction.kept, out.reduction.rows, round(out.reduction.auc, 4)
    (True, 5, 6, 0.8889)
    """
    reducer = CountReducer(
        positives=positives, negatives=negatives, keep_thresholds=keep_thresholds,
        max_fprs=max_fprs, cap=cap, n_groups=n_groups,
    )
    for chunk in chunks:
        reducer.feed(*chunk)
    return reducer.finish(n_rows)


class CountReducer(ExactRows):
    """The state of :func:`reduce_count_stream`: :meth:`feed` chunks, then :meth:`finish`.

    Memory: the current chunk, at most ``2 cap`` sampled rows, the running hull
    (its vertices: small), one row per keep threshold, and with groups
    ``2 n_groups`` counts per hull vertex and keep row (module docstring, Memory).

    This class reads the stream: it checks the arguments and each chunk, holds
    back the rows of a score that may go on in the next chunk, and keeps the
    chunks whole while they fit in ``cap`` rows; the complete rows are folded
    by its base, :class:`~evalreport.metrics.stream_rows.ExactRows`.

    Examples
    --------
    >>> reducer = CountReducer(positives=3, negatives=3)
    >>> reducer.feed([0.9, 0.8, 0.7], [1, 1, 0], [0, 0, 1])
    >>> reducer.feed([0.4, 0.3, 0.1], [1, 0, 0], [0, 1, 1])
    >>> out = reducer.finish()
    >>> out.reduced, out.table.tp.tolist()
    (False, [0, 1, 2, 2, 3, 3, 3])
    """

    def __init__(self, *, positives, negatives, keep_thresholds: Sequence[float] = (),
                 max_fprs: Sequence[float] = (), cap: int = DEFAULT_CAP, n_groups: int = 0):
        cap = _integer(cap, "cap", 2)
        n_groups = _integer(n_groups, "n_groups", 0)
        if n_groups > MAX_GROUPS:
            raise ValueError(
                f"{n_groups:,} groups: the streamed tables keep every group's counts at each ROC hull "
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
        m_pos = plain_number(positives)
        m_neg = plain_number(negatives)
        thresholds = np.asarray([float(t) for t in keep_thresholds], dtype=np.float64)
        if np.isnan(thresholds).any():
            raise ValueError("keep_thresholds holds a NaN")
        keep_t = np.unique(thresholds)[::-1].copy()  # descending, distinct
        fprs = []
        for f in max_fprs:
            f = float(f)
            if not 0.0 < f <= 1.0:
                raise ValueError(f"max_fpr must be in (0, 1], got {f!r}")
            fprs.append(f)
        super().__init__(m_pos=m_pos, m_neg=m_neg, keep_t=keep_t,
                         max_fprs=sorted(set(fprs)), cap=cap, n_groups=n_groups)
        self.finished = False
        self.chunks = 0  # chunks fed (named in error messages, counted from 0)
        self.last_score = np.inf
        self.pending = None  # raw rows of the last score seen, which may go on in the next chunk
        # whole mode: the raw chunks as given, while they fit in cap rows
        self.raw: list[tuple] | None = []
        self.n_raw = 0

    # ------------------------------------------------------------------ input

    def feed(self, score, pos, neg, group=None, n=None) -> None:
        """Consume one chunk (see :func:`reduce_count_stream` and the class's example)."""
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
            self._start()
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
        return (np.full(codes.size, s[0]), bincount(idx, p, codes.size, self.integral),
                bincount(idx, m, codes.size, self.integral), codes,
                None if n is None else bincount(idx, n, codes.size, True))

    # ------------------------------------------------------------------ result

    def finish(self, n_rows: int | None = None) -> StreamResult:
        """Flush the last score; return the (whole or reduced) table and the exact scalars
        (a :class:`StreamResult`; see the class's example)."""
        if self.finished:
            raise ValueError("the reducer is already finished")
        if self.dtype is None:  # nothing streamed
            self._set_dtype(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))
        if self.pending is not None:
            self._rows(*self.pending)
            self.pending = None
        self.finished = True
        pos, neg = plain_number(self.tp), plain_number(self.fp)
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
