"""Cost space: the ROC convex hull, cost curves and operating points.

Drummond & Holte (2006); Zhou, *Machine Learning*, section 2.3.4. Costs are
named, never numbered: ``false_negative`` is c_FN, the cost of calling a
positive negative; ``false_positive`` is c_FP.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..counting.table import CountTable, pair_counts_leave_int64

__all__ = [
    "UnitStepCorners",
    "Costs",
    "probability_cost",
    "RocHull",
    "CostCurve",
    "OperatingPoint",
    "roc_hull",
    "cost_curve",
    "operating_point",
]


@dataclass(frozen=True)
class Costs:
    """Misclassification costs, by name.

    Parameters
    ----------
    false_negative : float
        c_FN, the cost of calling a positive negative (finite, >= 0).
    false_positive : float
        c_FP, the cost of calling a negative positive (not both 0).

    Examples
    --------
    >>> Costs(false_negative=5, false_positive=1).false_negative
    5
    >>> Costs.coerce({"false_negative": 5, "false_positive": 1}) == Costs(5, 1)
    True
    """

    false_negative: float
    false_positive: float

    def __post_init__(self):
        for name in ("false_negative", "false_positive"):
            value = getattr(self, name)
            if not np.isfinite(value) or value < 0:
                raise ValueError(f"cost {name} must be a finite number >= 0, got {value!r}")
        if self.false_negative == 0 and self.false_positive == 0:
            raise ValueError("costs false_negative and false_positive cannot both be 0")

    @classmethod
    def coerce(cls, costs) -> "Costs":
        """Accept a ``Costs`` or a mapping with the two names (see the class's example)."""
        if isinstance(costs, Costs):
            return costs
        if isinstance(costs, dict):
            unknown = set(costs) - {"false_negative", "false_positive"}
            if unknown:
                raise ValueError(
                    f"unknown cost name(s) {sorted(unknown)}; use false_negative and false_positive"
                )
            return cls(costs["false_negative"], costs["false_positive"])
        raise TypeError(f"costs must be Costs or a dict, not {type(costs).__name__}")


def probability_cost(p_positive: float, costs: Costs) -> float:
    """PC(+) = p c_FN / (p c_FN + (1 - p) c_FP), the x axis of cost space.

    Parameters
    ----------
    p_positive : float
        The probability of the positive class, in [0, 1].
    costs : Costs

    Returns
    -------
    float

    Examples
    --------
    >>> probability_cost(0.1, Costs(false_negative=5, false_positive=1))
    0.35714285714285715
    """
    if not 0.0 <= p_positive <= 1.0:
        raise ValueError(f"p_positive must be in [0, 1], got {p_positive!r}")
    num = p_positive * costs.false_negative
    den = num + (1.0 - p_positive) * costs.false_positive
    if den == 0:
        raise ValueError("probability cost undefined: p(+) c_FN + p(-) c_FP = 0")
    return num / den


def _frozen(*arrays):
    for a in arrays:
        a.flags.writeable = False


@dataclass(frozen=True, eq=False)
class RocHull:
    """Vertices of the ROC convex hull, from (0, 0) to (1, 1).

    ``index`` are rows of the count table; ``threshold`` is +inf for row 0
    (predict nothing positive). :attr:`BinaryEvaluation.hull
    <evalreport.metrics.BinaryEvaluation>`.

    Examples
    --------
    >>> from evalreport.metrics import evaluate_binary
    >>> hull = evaluate_binary([0, 1, 1, 0], [1, 3, 2, 4]).hull
    >>> hull.fpr.tolist(), hull.tpr.tolist(), hull.threshold.tolist()
    ([0.0, 0.5, 1.0], [0.0, 1.0, 1.0], [inf, 2.0, 1.0])
    """

    fpr: np.ndarray
    tpr: np.ndarray
    threshold: np.ndarray
    index: np.ndarray

    def __post_init__(self):
        _frozen(self.fpr, self.tpr, self.threshold, self.index)


@dataclass(frozen=True, eq=False)
class CostCurve:
    """Lower envelope of a learner's cost lines, in (PC(+), normalised cost).

    ``pc`` and ``cost`` are the envelope's vertices (V of them). Segment ``i``
    (from ``pc[i]`` to ``pc[i + 1]``) is the cost line of one ROC hull vertex:
    ``segment_fpr[i]``, ``segment_fnr[i]``, reached at ``segment_threshold[i]``.

    Examples
    --------
    >>> from evalreport.metrics import evaluate_binary
    >>> curve = evaluate_binary([0, 1, 1, 0], [1, 3, 2, 4]).cost_curve
    >>> curve.pc.round(4).tolist(), curve.cost.round(4).tolist(), round(curve.area, 4)
    ([0.0, 0.3333, 1.0], [0.0, 0.3333, 0.0], 0.1667)
    """

    pc: np.ndarray
    cost: np.ndarray
    segment_threshold: np.ndarray
    segment_fpr: np.ndarray
    segment_fnr: np.ndarray

    def __post_init__(self):
        _frozen(self.pc, self.cost, self.segment_threshold, self.segment_fpr, self.segment_fnr)

    @property
    def area(self) -> float:
        """Expected total cost: the exact area under the envelope (see the class's example)."""
        return float(np.sum(np.diff(self.pc) * (self.cost[1:] + self.cost[:-1])) / 2.0)


@dataclass(frozen=True)
class OperatingPoint:
    """The least normalised expected cost at PC(+) = ``pc``, and how to reach it.

    Examples
    --------
    >>> from evalreport.metrics import evaluate_binary
    >>> op = evaluate_binary([0, 1, 1, 0], [1, 3, 2, 4]).operating_point(0.5)
    >>> op.pc, op.min_cost, op.threshold, op.fpr, op.tpr
    (0.5, 0.25, 2.0, 0.5, 1.0)
    """

    pc: float
    min_cost: float
    threshold: float
    fpr: float
    tpr: float


def row_thresholds(table: CountTable, rows: np.ndarray) -> np.ndarray:
    """Threshold of each count-table row; +inf for row 0 (nothing positive)."""
    rows = np.asarray(rows)
    out = np.full(rows.shape, np.inf)
    inner = rows > 0
    out[inner] = table.threshold_at(rows[inner] - 1)
    return out


@dataclass(frozen=True, eq=False)
class UnitStepCorners:
    """The corners of a table where row j predicts exactly j instances
    positive (distinct unweighted scores): the i-th positive (i = 1..P)
    enters at row ``rows[i - 1]`` = k_i, at TP = i and FP = k_i - i.

    The hull reads their coordinates a few at a time (:meth:`at`) or tests
    them against an edge straight from ``rows`` (:func:`above_polygon`), so
    that no arrays of P coordinates are formed.
    """

    rows: np.ndarray

    def at(self, picks: np.ndarray):
        """``(fp, tp)`` of the corners at positions ``picks`` (0-based)."""
        tp = picks + 1
        return self.rows[picks] - tp, tp


def upper_hull_indices(x: np.ndarray, y: np.ndarray, corners=None, corner_xy=None) -> np.ndarray:
    """Indices of the strict vertices of the upper convex hull of a monotone chain.

    ``x`` and ``y`` are non-decreasing (an ROC polyline in count space); the
    first and last points are always vertices, collinear points never are.
    ``corners``, if the caller knows them, are the interior points that can
    be vertices (see below), ascending; ``corner_xy`` their coordinates
    ``(x[corners], y[corners])`` if the caller has them without gathering,
    or a :class:`UnitStepCorners` that forms them.
    """
    n = x.size
    if n <= 2:
        return np.arange(n)
    if corners is None:
        # Only a corner can be a strict vertex: a point reached by a step with
        # a positive rise and left by a step with a positive run.
        corners = np.flatnonzero((y[1:-1] > y[:-2]) & (x[2:] > x[1:-1])) + 1
        corner_xy = None
    # Work on the candidates' own coordinates (contiguous, no gathers per round).
    cand = np.asarray(corners)
    unit = corner_xy if isinstance(corner_xy, UnitStepCorners) else None
    if unit is not None:  # formed here only if few; else a slice at a time below
        cx, cy = unit.at(np.arange(cand.size)) if cand.size <= _SAMPLE_FROM else (unit, None)
    else:
        cx, cy = (x[cand], y[cand]) if corner_xy is None else corner_xy
    # the hull's rows and their coordinates, carried along (no gathers per round)
    ends = np.array([0, n - 1])
    hull = Polygon(ends, x[ends], y[ends])
    if cand.size > _SAMPLE_FROM:
        # Start from the hull of every 256th corner (a polygon under the true
        # hull, found in a few milliseconds) and drop, in one pass, every corner
        # on or below it: only the few near the true hull are left. (This
        # replaces a local pruning pass over all corners, which cost more than
        # it saved.)
        step = slice(None, None, _SAMPLE_STEP)
        sx, sy = unit.at(np.arange(0, cand.size, _SAMPLE_STEP)) if unit is not None else (cx[step], cy[step])
        hull = _quickhull(hull, cand[step], sx, sy)
        if hull.rows.size <= _MAX_EDGE_LOOP:
            above = above_polygon(hull, cand, cx, cy)
            kept = np.flatnonzero(above)
            cand = cand[kept]
            cx, cy = unit.at(kept) if unit is not None else (cx[kept], cy[kept])
        elif unit is not None:
            cx, cy = unit.at(np.arange(cand.size))
    return _prune_concave(_quickhull(hull, cand, cx, cy))


# upper_hull_indices samples a first polygon when there are more corners than
# _SAMPLE_FROM, and filters against it edge by edge when it has at most
# _MAX_EDGE_LOOP vertices (one Python iteration per edge; past that the
# vectorised quickhull rounds are cheaper).
_SAMPLE_FROM = 4096
_SAMPLE_STEP = 256
_MAX_EDGE_LOOP = 512
_CHUNK = 1 << 13  # candidates per step of above_polygon's unit-step test


@dataclass(frozen=True)
class Polygon:
    """Hull vertices: their rows (ascending) and coordinates."""

    rows: np.ndarray
    x: np.ndarray
    y: np.ndarray


def above_polygon(hull: Polygon, cand, cx, cy) -> np.ndarray:
    """Mask of the candidates strictly above the polyline through ``hull``.

    ``cand`` ascend, so the candidates under each edge form one slice: each is
    tested against its own edge with scalar coefficients, with no per-candidate
    segment lookup or gathers. A candidate equal to a vertex lies on an edge
    (cross product 0) and is dropped; the quickhull keeps that vertex anyway.
    ``cx``, ``cy`` may be a :class:`UnitStepCorners` (then ``cy`` is unused).
    """
    bounds = np.searchsorted(cand, hull.rows)
    hx, hy = hull.x.tolist(), hull.y.tolist()
    above = np.zeros(cand.size, dtype=bool)
    unit = isinstance(cx, UnitStepCorners)
    exact = unit or (cx.dtype.kind in "iu" and cy.dtype.kind in "iu")
    # integers: when no product below can leave int64 (the chain ends at the
    # largest x and y, and a unit-step row is at most x + y)
    fits = exact and 2 * (hx[-1] + hy[-1]) * (hx[-1] + hy[-1]) < 1 << 62
    if unit and not fits:
        cx, cy = cx.at(np.arange(cand.size))
        unit = False
    if unit:  # small reused buffers: a fresh large temporary costs its page faults
        ones = np.arange(1, _CHUNK + 1, dtype=np.int64)
        scratch = np.empty((2, _CHUNK), dtype=np.int64)
    for j in range(hull.rows.size - 1):
        lo, hi = bounds[j], bounds[j + 1]
        if lo == hi:
            continue
        ax, ay = hx[j], hy[j]
        dx, dy = hx[j + 1] - ax, hy[j + 1] - ay
        if unit:
            # corner c has TP = c + 1 and FP = rows[c] - TP: the cross product
            # dx (TP - ay) - dy (FP - ax) > 0 is (dx + dy) TP - dy rows[c] > dx ay - dy ax
            for start in range(lo, hi, _CHUNK):
                m = min(hi - start, _CHUNK)
                rise = np.multiply(ones[:m], dx + dy, out=scratch[0, :m])  # (dx + dy) (TP - start)
                rise -= np.multiply(cx.rows[start:start + m], dy, out=scratch[1, :m])
                np.greater(rise, dx * ay - dy * ax - (dx + dy) * start, out=above[start:start + m])
            continue
        if fits:
            # dx cy - dy cx > dx ay - dy ax, in fewer passes
            cross = cy[lo:hi] * dx
            cross -= cx[lo:hi] * dy
            np.greater(cross, dx * ay - dy * ax, out=above[lo:hi])
            continue
        # the cross product of _quickhull, term for term (the same rounding
        # with float weights): dx (cy - ay) - dy (cx - ax) > 0
        cross = cy[lo:hi] - ay
        cross *= dx
        run = cx[lo:hi] - ax
        run *= dy
        cross -= run
        np.greater(cross, 0, out=above[lo:hi])
    return above


def _quickhull(hull: Polygon, cand, cx, cy) -> Polygon:
    """Add to ``hull`` every candidate above it, farthest first (vectorised quickhull).

    ``cx``, ``cy`` are the candidates' coordinates. Each round adds, for every
    hull edge, the candidate farthest above it and drops every candidate on or
    below its edge. Vertices already in ``hull`` are kept, so the result is a
    superset of the strict hull vertices.
    """
    rows, hx, hy = hull.rows, hull.x, hull.y
    while cand.size:
        seg = np.searchsorted(rows, cand) - 1
        ax, ay = hx[seg], hy[seg]
        cross = (hx[seg + 1] - ax) * (cy - ay) - (hy[seg + 1] - ay) * (cx - ax)
        above = cross > 0
        if not above.all():
            cand, cx, cy, seg, cross = cand[above], cx[above], cy[above], seg[above], cross[above]
            if not cand.size:
                break
        # per edge, the farthest candidate (the first of equals): ordered by
        # edge, then farthest first (lexsort is stable), take each edge's first
        order = np.lexsort((-cross, seg))
        edge = seg[order]
        farthest = order[np.concatenate(([True], edge[1:] != edge[:-1]))]
        rows = np.concatenate((rows, cand[farthest]))
        placed = np.argsort(rows, kind="stable")
        rows = rows[placed]
        hx = np.concatenate((hx, cx[farthest]))[placed]
        hy = np.concatenate((hy, cy[farthest]))[placed]
        # (the new vertices stay candidates: next round each lies on its own
        # edge, cross product exactly 0, and is dropped with those below)
    return Polygon(rows, hx, hy)


def _prune_concave(hull: Polygon) -> np.ndarray:
    """Drop vertices on or below the chord of their neighbours until none is;
    return the rows of those left.

    Each dropped point lies under a chord of the set, so it is not a strict
    hull vertex, and dropping several at once is safe.
    """
    rows, x, y = hull.rows, hull.x, hull.y
    while rows.size > 2:
        cross = (x[2:] - x[:-2]) * (y[1:-1] - y[:-2]) - (y[2:] - y[:-2]) * (x[1:-1] - x[:-2])
        keep = np.concatenate(([True], cross > 0, [True]))
        if keep.all():
            break
        rows, x, y = rows[keep], x[keep], y[keep]
    return rows


class _ColumnAt:
    """``table.fp`` or ``table.tp`` as :func:`upper_hull_indices` reads it
    when given the corners: its size and gathers at a few rows, never the
    whole column."""

    def __init__(self, table: CountTable, at):
        self._at = at
        self.size = len(table) + 1

    def __getitem__(self, rows):
        return self._at(rows)


def roc_hull(table: CountTable, corners=None, corner_counts=None) -> RocHull | None:
    """The ROC convex hull; None with one class only.

    ``corners``: optional rows (ascending) that are the only possible interior
    vertices; ``corner_counts``: optional ``(fp, tp)`` at those rows, or a
    :class:`UnitStepCorners` that forms them.
    """
    pos, neg = table.positives, table.negatives
    if pos <= 0 or neg <= 0:
        return None
    if corners is None:
        fp, tp = table.fp, table.tp
    else:  # with corners: read at a few rows only
        fp, tp = _ColumnAt(table, table.fp_at), _ColumnAt(table, table.tp_at)
    if not table.weighted and pair_counts_leave_int64(pos, neg):
        # Cross products of counts would leave int64 (billions of rows on each
        # side): in float64 instead, exact to about 1e-16 relative, which can
        # only decide whether an all-but-collinear point is a vertex.
        fp, tp = np.asarray(table.fp, dtype=np.float64), np.asarray(table.tp, dtype=np.float64)
        corners = corner_counts = None
    idx = upper_hull_indices(fp, tp, corners, corner_counts)
    return RocHull(
        fpr=table.fp_at(idx) / neg,
        tpr=table.tp_at(idx) / pos,
        threshold=row_thresholds(table, idx),
        index=idx,
    )


def cost_curve(table: CountTable, hull: RocHull | None = None) -> CostCurve | None:
    """Lower envelope of the cost lines of every ROC point, in O(hull size).

    Between adjacent hull vertices with slope s = dTPR/dFPR the envelope
    breaks at PC = 1 / (1 + s) = dFPR / (dFPR + dTPR).
    """
    if hull is None:
        hull = roc_hull(table)
        if hull is None:
            return None
    pos, neg = table.positives, table.negatives
    idx = hull.index
    # Breakpoints in counts: dFPR / (dFPR + dTPR) = dfp P / (dfp P + dtp N).
    dfp, dtp = np.diff(table.fp_at(idx)), np.diff(table.tp_at(idx))
    if not table.weighted and pair_counts_leave_int64(pos, neg):
        # the products would leave int64: in Python ints, one per hull edge
        breaks = np.array([a * pos / (a * pos + b * neg) for a, b in zip(dfp.tolist(), dtp.tolist())],
                          dtype=np.float64)
    else:
        dfp = dfp * pos
        dtp = dtp * neg
        breaks = dfp / (dfp + dtp)
    fpr = hull.fpr
    fnr = 1.0 - hull.tpr
    bounds = np.concatenate(([0.0], breaks, [1.0]))
    # Vertex i owns [bounds[i], bounds[i + 1]]; drop the empty ones (a vertical
    # first edge gives PC = 0, a horizontal last edge PC = 1).
    owns = bounds[1:] > bounds[:-1]
    seg_fpr, seg_fnr = fpr[owns], fnr[owns]
    seg_thr = hull.threshold[owns]
    lo, hi = bounds[:-1][owns], bounds[1:][owns]
    pc = np.append(lo, hi[-1])
    cost = np.empty(pc.size)
    cost[:-1] = seg_fnr * lo + seg_fpr * (1.0 - lo)
    cost[-1] = seg_fnr[-1]
    return CostCurve(
        pc=pc,
        cost=cost,
        segment_threshold=seg_thr,
        segment_fpr=seg_fpr,
        segment_fnr=seg_fnr,
    )


def operating_point(hull: RocHull, pc: float) -> OperatingPoint:
    """The least normalised expected cost at PC(+) = pc (a hull vertex reaches it).

    Ties go to the hull vertex of the highest threshold.
    """
    if not 0.0 <= pc <= 1.0:
        raise ValueError(f"pc must be in [0, 1], got {pc!r}")
    nec = (1.0 - hull.tpr) * pc + hull.fpr * (1.0 - pc)
    # Ties (to rounding) go to the first vertex: the highest threshold.
    i = int(np.flatnonzero(nec <= nec.min() + 1e-12)[0])
    return OperatingPoint(
        pc=float(pc),
        min_cost=float(nec[i]),
        threshold=float(hull.threshold[i]),
        fpr=float(hull.fpr[i]),
        tpr=float(hull.tpr[i]),
    )
