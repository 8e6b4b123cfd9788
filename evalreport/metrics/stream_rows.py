"""The exact table's rows as a stream completes them, folded in one pass.

:class:`~evalreport.metrics.stream.CountReducer` (:mod:`.stream`) reads the
chunks, checks them and holds back a score's rows until the score is complete;
:class:`ExactRows`, its base, takes the complete rows in descending score order
and keeps, chunk by chunk, what the reduced table and the exact scalars need
(see :mod:`.stream`'s docstring: Numbers, Memory): the cumulative counts, twice
the AUC's area, the AP's step sum, the break-even point, the partial AUCs, the
running ROC hull, the rows at the keep thresholds, the evenly spaced rows, and
each group's counts at the kept rows. :meth:`ExactRows._reduced` builds the
reduced tables from them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .binary_scalars import bep_between, trapezoids2
from .cost import upper_hull_indices
from .frozen import FrozenMapping
from .reduced import Reduction, StreamResult, roc_polyline_error
from .sums import dot
from ..counting.table import CountTable

__all__ = ["ExactRows"]


class ExactRows:
    """The state of the exact table's completed rows (module docstring).

    ``keep_t``: the keep thresholds, distinct and descending; ``max_fprs``: the
    partial AUCs' bounds, sorted; ``m_pos``, ``m_neg``: the class totals given in
    advance. The counts' dtype is set by the first chunk, then :meth:`_start`.
    """

    def __init__(self, *, m_pos, m_neg, keep_t: np.ndarray, max_fprs: list[float], cap: int,
                 n_groups: int):
        self.cap = cap
        self.n_groups = n_groups
        self.m_pos = m_pos
        self.m_neg = m_neg
        self.keep_t = keep_t
        self.max_fprs = max_fprs
        self.dtype = None  # int64 or float64, from the first chunk
        self.integral = True
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
        self.n_given = None  # whether chunks carry n (the rows behind each streamed row)

    def _start(self) -> None:
        """The state's arrays, in the counts' dtype (known from the first chunk)."""
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

    # ------------------------------------------------------------------ rows

    def _rows(self, s, p, m, g, n) -> None:
        """Complete rows of the table: raw rows whose score does not go on."""
        if g is not None and (n is not None or self.integral):
            # rows per group: n if given, else (unweighted) the counts themselves
            rows_behind = n if n is not None else p + m
            self.g_rows += bincount(g, rows_behind, self.n_groups, True)
        P, N, thr, raw_row = _folded(s, p, m, g)
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
        d = trapezoids2(tp_all, fp_all)
        self.auc2 += int(d) if self.integral else float(d)
        # AP: the step sum, as binary_scalars.scalars_general
        steps = np.subtract(tp, tp_prev, dtype=np.float64)
        precision = np.divide(tp, np.add(tp, fp), dtype=np.float64)
        self.ap_sum += dot(steps, precision)  # sums.dot: no BLAS, the same bits on every processor
        self._bep(tp, fp, tp_prev, fp_prev)
        self._partial_auc(tp, fp)
        self._hull_and_keep_rows(rows, thr, tp, fp, raw_row, g, p, m)
        if self.first is None:
            self.first = (rows[:1], thr[:1], tp[:1], fp[:1])
        self._sample(rows, thr, tp, fp)
        # carry
        self.row += k
        self.tp, self.fp = tp[-1], fp[-1]
        if g is not None:
            self.g_tp = self.g_tp + bincount(g, p, self.n_groups, self.integral)
            self.g_fp = self.g_fp + bincount(g, m, self.n_groups, self.integral)

    def _bep(self, tp, fp, tp_prev, fp_prev) -> None:
        """BEP: where TP + FP first reaches m+ (binary._bep), once."""
        if self.bep_tp is None and self.m_pos > 0:
            predicted = np.add(tp, fp)
            j = int(np.searchsorted(predicted, self.m_pos, side="left"))
            if j < tp.size:
                if predicted[j] == self.m_pos:
                    self.bep_tp = tp[j]
                else:
                    self.bep_tp = bep_between(tp_prev[j] + fp_prev[j], tp_prev[j], predicted[j], tp[j], self.m_pos)

    def _hull_and_keep_rows(self, rows, thr, tp, fp, raw_row, g, p, m) -> None:
        """The hull of this chunk's rows merged into the running hull, and the
        keep-threshold rows in it (each with its groups' counts)."""
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

    def _sample(self, rows, thr, tp, fp) -> None:
        """The evenly spaced rows: every ``stride``-th, the stride doubled while
        more than ``cap`` are kept."""
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
            sums = bincount(seg * G + g, values, size, self.integral).reshape(selected.size + 1, G)
            cum = np.cumsum(sums[:-1], axis=0) + carry
            out.append(cum.astype(self.dtype, copy=False))
        return out[0], out[1]

    # ------------------------------------------------------------------ result

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
            roc_error=roc_polyline_error(table, row_index), exact_at=tuple(self.keep_t.tolist()), **scalars,
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

def _cumsum_from(start, values: np.ndarray) -> np.ndarray:
    """``start``, ``start + values[0]``, ``start + values[0] + values[1]``, ...: one
    running sum from ``start``, so chunk after chunk gives the floats of one cumsum
    over all."""
    out = np.empty(values.size + 1, dtype=values.dtype)
    out[0] = start
    out[1:] = values
    np.cumsum(out, out=out)
    return out


def bincount(codes, values, size: int, integral: bool) -> np.ndarray:
    sums = np.bincount(codes, weights=values, minlength=size)
    return np.rint(sums).astype(np.int64) if integral else sums


def _folded(s, p, m, g):
    """(positives, negatives, threshold) of each complete score of a chunk's rows
    (several streamed rows of one score folded into one, weightless scores
    dropped), and, with groups, each streamed row's row among them."""
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
    return P, N, thr, raw_row
