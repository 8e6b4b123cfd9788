"""Curves for output: keep the vertices, then simplify to a bounded size.

Scalars are always computed on the full curves; this only decides what is
written to results.json and drawn in figures, so the output does not grow
with the number of rows. Vertices are found in integer count space (exact),
and only the vertices are turned into rates.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from .metrics import BinaryEvaluation, CostCurve
from .metrics.cost import row_thresholds

__all__ = ["CurveBlock", "OutputCurves", "StepProfile", "output_curves", "vertex_indices"]


@dataclass(frozen=True, eq=False)
class CurveBlock:
    """A curve as drawn and written: its kept points and how faithful they are."""

    x: np.ndarray
    y: np.ndarray
    threshold: np.ndarray
    vertices: int | None  # vertices of the full curve (None: not known, see _widened)
    simplified: bool  # True when vertices were dropped (to meet the budget, or while streaming)
    max_error: float  # bound on the distance of the full curve from the kept polyline
    tp: np.ndarray | None = None  # P-R only: counts at the kept points, so that figures
    fp: np.ndarray | None = None  # can draw straight lines in count space between them


@dataclass(frozen=True, eq=False)
class OutputCurves:
    roc: CurveBlock | None  # x = FPR, y = TPR
    pr: CurveBlock | None  # x = recall, y = precision
    cost: CostCurve | None
    roc_vertices: tuple[np.ndarray, np.ndarray] | None = None  # every ROC vertex (FPR, TPR), exact
    profile: "StepProfile | None" = None  # the same curve, compactly, when every row is one instance

    @property
    def exact_roc(self) -> tuple[np.ndarray, np.ndarray] | None:
        """The full ROC curve (FPR, TPR) through every vertex: from either form."""
        if self.profile is not None:
            return self.profile.polyline()
        return self.roc_vertices


@dataclass(frozen=True, eq=False)
class StepProfile:
    """An ROC curve of unit steps (each row one unweighted instance, no ties), exactly.

    ``top[k]`` is the number of positives ranked above the (k+1)-th negative,
    i.e. the TP at the top of the curve's vertical run at FP = k (k = 0..m-;
    ``top[m-] = m+``); the run's bottom is ``top[k - 1]`` (0 for k = 0). That
    is the whole curve, in 4 bytes per negative instead of two float64 arrays
    of vertices, and learners on the same instances compare by ``top`` alone
    (:func:`evalreport.compare.curves.envelopment_steps`).
    """

    top: np.ndarray
    positives: int
    negatives: int

    def polyline(self) -> tuple[np.ndarray, np.ndarray]:
        """(FPR, TPR) through the bottom and the top of every vertical run."""
        m = self.negatives
        x = np.repeat(np.arange(m + 1), 2) / m
        y = np.empty(2 * (m + 1))
        y[0] = 0.0
        y[1::2] = self.top
        y[2::2] = self.top[:-1]
        return x, y / self.positives


def vertex_indices(x: np.ndarray, y: np.ndarray, chunk: int = 1 << 20) -> np.ndarray:
    """Points where the polyline through (x, y) turns.

    Points on a straight run between two vertices are dropped; the first and
    last points are kept. Exact for integer coordinates. Works in chunks so
    that the temporaries stay small whatever the curve's length.
    """
    n = x.size
    if n <= 2:
        return np.arange(n)
    found = [np.zeros(1, dtype=np.int64)]
    for lo in range(1, n - 1, chunk):
        hi = min(lo + chunk, n - 1)  # interior points lo..hi-1
        dx_in, dy_in = x[lo:hi] - x[lo - 1:hi - 1], y[lo:hi] - y[lo - 1:hi - 1]
        dx_out, dy_out = x[lo + 1:hi + 1] - x[lo:hi], y[lo + 1:hi + 1] - y[lo:hi]
        turns = dx_in * dy_out != dy_in * dx_out
        found.append(np.flatnonzero(turns) + lo)
    found.append(np.array([n - 1]))
    return np.concatenate(found)


def _segment_bound(x0, y0, x1, y1, lo_y, hi_y) -> float:
    """Largest distance from the chord (x0,y0)-(x1,y1) of any point in the box
    [x0, x1] x [lo_y, hi_y], over all segments: a rigorous bound on how far the
    full curve strays from the kept polyline when, between two kept points,
    x is monotone and y stays within [lo_y, hi_y]."""
    vx, vy = x1 - x0, y1 - y0
    length = np.hypot(vx, vy)
    worst = np.zeros(x0.size)
    for cx, cy in ((x0, lo_y), (x0, hi_y), (x1, lo_y), (x1, hi_y)):
        # distance of a corner from the chord's line, and from its ends
        px, py = cx - x0, cy - y0
        with np.errstate(invalid="ignore", divide="ignore"):
            t = np.clip(np.where(length > 0, (px * vx + py * vy) / (length * length), 0.0), 0.0, 1.0)
        d = np.hypot(px - t * vx, py - t * vy)
        np.maximum(worst, d, out=worst)
    return float(worst.max()) if worst.size else 0.0


def _pick(weight: np.ndarray, budget: int) -> np.ndarray:
    """Positions of ``budget`` points spread evenly along a non-decreasing measure."""
    targets = np.linspace(weight[0], weight[-1], budget)
    pick = np.searchsorted(weight, targets)
    pick[0], pick[-1] = 0, weight.size - 1
    return np.unique(np.clip(pick, 0, weight.size - 1))


def output_curves(ev: BinaryEvaluation, budget) -> OutputCurves:
    """The ROC, P-R and cost curves of ``ev``, each at most ``budget`` points (or 'all').

    Every vertex is kept when they fit in the budget. Otherwise the points are
    spread evenly along the ROC curve's length (FPR + TPR, which only grows)
    and ``max_error`` is a rigorous bound on the distance of any point of the
    full curve from the kept polyline (between two kept points the curve stays
    in the box they span: monotone in ROC space; precision within its range
    between them in P-R space).

    For comparisons the full curve is kept exactly: as a :class:`StepProfile`
    when every row is one unweighted instance (a few bytes per negative), else
    as its vertices in rates.
    """
    t = ev.counts
    pos, neg = ev.positives, ev.negatives
    if t.unit_steps and len(t) > 1:
        kept = _unit_step_points(t, budget)
    else:
        kept = _vertex_points(t, budget)
    krows = kept.rows
    ktp, kfp = t.tp[krows], t.fp_at(krows)
    roc = pr = None
    if pos > 0 and neg > 0:
        fpr, tpr = kfp / neg, ktp / pos
        err = 0.0
        if kept.simplified:
            err = _segment_bound(fpr[:-1], tpr[:-1], fpr[1:], tpr[1:], tpr[:-1], tpr[1:])
        roc = CurveBlock(x=fpr, y=tpr, threshold=row_thresholds(t, krows), vertices=kept.vertices,
                         simplified=kept.simplified, max_error=err)
    if pos > 0:
        pr_rows = krows[krows > 0]
        # The P-R curve starts at row 1, which need not be an ROC vertex (a run
        # of positives at the top: ROC vertical from row 0, precision 1 all along).
        if pr_rows[0] != 1:
            pr_rows = np.concatenate(([1], pr_rows))
        tp, fp = t.tp[pr_rows], t.fp_at(pr_rows)
        recall, precision = tp / pos, tp / (tp + fp)
        err = 0.0
        if kept.simplified and pr_rows.size > 1:
            pmin, pmax = kept.precision_ranges(pr_rows, precision)
            err = _segment_bound(recall[:-1], precision[:-1], recall[1:], precision[1:], pmin, pmax)
        pr = CurveBlock(x=recall, y=precision, threshold=t.threshold_at(pr_rows - 1),
                        # row 0, always an ROC vertex, has no P-R point; row 1 is the first
                        vertices=kept.vertices - 1 + (not _row_1_is_vertex(t)),
                        simplified=kept.simplified, max_error=err,
                        tp=tp.astype(float), fp=fp.astype(float))
    if _reduced(ev):
        roc, pr = _widened(roc, pr, t, ev.reduction)
    # (roc_vertices and profile: both None unless both classes are present)
    return OutputCurves(roc=roc, pr=pr, cost=ev.cost_curve, roc_vertices=kept.roc_vertices,
                        profile=kept.profile)


def _reduced(ev: BinaryEvaluation) -> bool:
    """Whether ``ev``'s table is a streamed table with rows dropped."""
    # metrics.reduced, the streamed engines' module, is not imported by a run of the
    # memory engine (issue 38): until it is loaded, no evaluation is one of its kind
    reduced = sys.modules.get("evalreport.metrics.reduced")
    return reduced is not None and isinstance(ev, reduced.ReducedEvaluation) and ev.reduction.reduced


def _row_1_is_vertex(t) -> bool:
    """Whether the ROC curve turns at row 1 (rows 0, 1, 2 not collinear in
    count space); with one row, row 1 is the curve's end."""
    if len(t) < 2:
        return True
    rows = np.arange(3)
    return 1 in vertex_indices(t.fp_at(rows), t.tp_at(rows))


def _widened(roc: CurveBlock | None, pr: CurveBlock | None, t, reduction):
    """The blocks of a table reduced while it streamed (the reduced table is
    ``t``): its curves pass through kept rows of the exact table only.

    So they are simplified whether or not the budget dropped more, the number
    of vertices of the exact curve is not known (None), and the bound grows by
    the reduction's: every exact point lies within the reduction's bound of
    the reduced curve, which lies within ``max_error`` of the kept polyline.
    For P-R the reduction's bound comes from the box of the rows dropped
    between two kept rows (see :func:`_dropped_pr_bound`).
    """
    if roc is not None:
        roc = replace(roc, simplified=True, vertices=None, max_error=roc.max_error + reduction.roc_error)
    if pr is not None:
        bound = _dropped_pr_bound(t, np.flatnonzero(np.diff(reduction.row_index) > 1))
        pr = replace(pr, simplified=True, vertices=None, max_error=pr.max_error + bound)
    return roc, pr


def _dropped_pr_bound(t, gaps: np.ndarray) -> float:
    """Largest distance in P-R space of a dropped row from the reduced curve.

    ``gaps``: the reduced rows i after which exact rows were dropped (never
    row 0: a reduction always keeps the exact row 1, see
    :meth:`~evalreport.metrics.stream.Reduction.exact_row`). Such a row has
    TP in [TP_i, TP_i+1] and FP in [FP_i, FP_i+1], so its recall lies between
    theirs and its precision in [TP_i / (TP_i + FP_i+1), TP_i+1 / (TP_i+1 + FP_i)]:
    a box spanned by the chord from row i to row i + 1 (:func:`_segment_bound`).
    """
    if gaps.size == 0:
        return 0.0
    pos = t.positives
    tp0, fp0 = t.tp_at(gaps).astype(np.float64), t.fp_at(gaps).astype(np.float64)
    tp1, fp1 = t.tp_at(gaps + 1).astype(np.float64), t.fp_at(gaps + 1).astype(np.float64)
    return _segment_bound(tp0 / pos, tp0 / (tp0 + fp0), tp1 / pos, tp1 / (tp1 + fp1),
                          tp0 / (tp0 + fp1), tp1 / (tp1 + fp0))


@dataclass(frozen=True, eq=False)
class _Kept:
    """The rows an output curve keeps, and what the full curve needs remembered."""

    rows: np.ndarray
    vertices: int  # vertices of the full ROC curve (rows 0 and K included)
    # (kept P-R rows, their precision) -> (least, greatest) precision between them; None
    # when nothing was dropped
    precision_ranges: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]] | None
    profile: StepProfile | None = None
    roc_vertices: tuple | None = None

    @property
    def simplified(self) -> bool:
        """Whether rows of the full curve were dropped."""
        return self.precision_ranges is not None


def _unit_step_points(t, budget) -> _Kept:
    """:class:`_Kept` for a table whose every row is one unweighted instance.

    Nothing here gathers the vertices: their number comes from one pass over
    the steps, and when they do not fit the budget the kept rows are found by
    bisection on the curve's length, which at row j is ``j m+ + TP_j (m- - m+)``
    in count units. Precision at row j is ``TP_j / j``, so its range between
    two kept rows is a contiguous division and a reduction.
    """
    pos, neg = t.positives, t.negatives
    k = len(t)
    steps = np.not_equal(t.tp[1:], t.tp[:-1])  # True where a positive enters, False: a negative
    turns = np.not_equal(steps[1:], steps[:-1])  # row j + 1 is a vertex
    n_vertices = int(np.count_nonzero(turns)) + 2
    profile = None
    if pos > 0 and neg > 0:
        top = np.empty(neg + 1, dtype=np.int32 if pos < 2**31 else np.int64)
        np.invert(steps, out=steps)  # now True where a negative enters
        np.compress(steps, t.tp[1:], out=top[:-1])  # TP before each negative enters
        top[-1] = pos
        profile = StepProfile(top=top, positives=pos, negatives=neg)
    del steps
    if budget == "all" or n_vertices <= budget:
        rows = np.empty(n_vertices, dtype=np.int64)
        rows[0], rows[-1] = 0, k
        np.add(np.flatnonzero(turns), 1, out=rows[1:-1])
        return _Kept(rows, n_vertices, None, profile)
    del turns
    tp = t.tp

    def length(j):
        return j * pos + tp[j] * (neg - pos)

    targets = np.linspace(0, length(np.int64(k)), int(budget))
    lo = np.zeros(targets.size, dtype=np.int64)
    hi = np.full(targets.size, k, dtype=np.int64)
    while np.any(lo < hi):  # the first row whose length reaches each target
        mid = (lo + hi) // 2
        reached = length(mid) >= targets
        hi = np.where(reached, mid, hi)
        lo = np.where(reached, lo, mid + 1)
    rows = np.unique(np.concatenate(([0], lo, [k])))

    def precision_ranges(pr_rows, precision):
        first, last = int(pr_rows[0]), int(pr_rows[-1])
        every = np.arange(first, last + 1, dtype=np.float64)
        np.divide(tp[first: last + 1], every, out=every)  # TP_j / j at rows first..last
        return _ranges(every, pr_rows - first, precision)

    return _Kept(rows, n_vertices, precision_ranges, profile)


def _vertex_points(t, budget) -> _Kept:
    """:class:`_Kept` for any table (ties, weights): its vertices, then a pick of them."""
    rows = vertex_indices(t.fp, t.tp)
    vtp, vfp = t.tp[rows], t.fp[rows]
    pos, neg = t.positives, t.negatives
    roc_vertices = (vfp / neg, vtp / pos) if pos > 0 and neg > 0 else None
    if budget == "all" or rows.size <= budget:
        return _Kept(rows, int(rows.size), None, roc_vertices=roc_vertices)
    # L1 length along the ROC curve in count units, exact in integers when unweighted
    keep = _pick(vtp * neg + vfp * pos, int(budget))

    def precision_ranges(pr_rows, precision):
        # Between two consecutive vertices the curve is straight in count
        # space, and TP / (TP + FP) along a straight piece is monotone, so the
        # extremes over any stretch of rows are at vertices or at its ends.
        inner = rows > 0
        cand, ctp, cfp = rows[inner], vtp[inner], vfp[inner]
        if cand[0] != 1:
            cand = np.concatenate(([1], cand))
            ctp = np.concatenate((t.tp[1:2], ctp))
            cfp = np.concatenate((t.fp[1:2], cfp))
        at = np.searchsorted(cand, pr_rows)  # every kept row is a candidate
        span = slice(at[0], at[-1] + 1)
        cprec = ctp[span] / (ctp[span] + cfp[span])
        return _ranges(cprec, at - at[0], precision)

    return _Kept(rows[keep], int(rows.size), precision_ranges, roc_vertices=roc_vertices)


def _ranges(values, starts, precision):
    """Least and greatest of ``values`` over each stretch [starts[i], starts[i + 1]].

    reduceat's stretch i runs up to the next start (exclusive): its right end,
    the next kept row, is ``precision[i + 1]``, added below.
    """
    pmin = np.minimum(np.minimum.reduceat(values, starts[:-1]), precision[1:])
    pmax = np.maximum(np.maximum.reduceat(values, starts[:-1]), precision[1:])
    return pmin, pmax
