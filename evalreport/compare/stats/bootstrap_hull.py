"""The ROC hulls and cost curves of many bootstrap resamples at once (for the
expected total cost of :mod:`.bootstrap`), with the engine's arithmetic: the same
vertices as :func:`~evalreport.metrics.cost.roc_hull`, the same floats as
:func:`~evalreport.metrics.cost.cost_curve` (tests/test_bootstrap_vectorised.py).
"""

from __future__ import annotations

import numpy as np

__all__ = ["cost_curve_areas", "hull_packed", "hull_rows"]


def cost_curve_areas(chunk, ok: np.ndarray, hull_cols: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """``cost_curve(table, hull).area`` of each resample ``ok[i]`` of ``chunk`` (a
    bootstrap chunk: cumulative ``fp``, ``tp``, class totals ``pos``, ``neg``) whose hull
    vertices (columns) are the first ``counts[ok[i]]`` of ``hull_cols[ok[i]]``
    (:func:`hull_packed`'s): metrics.cost.cost_curve's arithmetic, operation for
    operation, on all the resamples' vertices at once; each area's sum is NumPy's,
    row by row, as CostCurve.area sums it."""
    sizes = counts[ok]
    row = np.repeat(ok, sizes)
    col = hull_cols[ok][np.arange(hull_cols.shape[1]) < sizes[:, None]]
    fp, tp = chunk.fp[row, col], chunk.tp[row, col]
    pos, neg = chunk.pos[row], chunk.neg[row]
    ends = np.cumsum(sizes)
    first = np.zeros(col.size, dtype=bool)
    first[ends - sizes] = True
    last = np.zeros(col.size, dtype=bool)
    last[ends - 1] = True
    # breakpoints of the edges (vertex i to i + 1 within a row): dfp P / (dfp P + dtp N)
    dfp = (fp[1:] - fp[:-1]) * pos[:-1]
    dtp = (tp[1:] - tp[:-1]) * neg[:-1]
    with np.errstate(invalid="ignore", divide="ignore"):  # (across rows: not used)
        breaks = dfp / (dfp + dtp)
    fpr = fp / neg
    fnr = 1.0 - tp / pos
    # vertex i owns [lo, hi]: from the break before it (0 first) to the one after (1 last)
    lo = np.empty(col.size)
    lo[1:] = breaks
    lo[first] = 0.0
    hi = np.empty(col.size)
    hi[:-1] = breaks
    hi[last] = 1.0
    owns = hi > lo
    lo, hi, fpr, fnr, row_of = lo[owns], hi[owns], fpr[owns], fnr[owns], row[owns]
    cost = fnr * lo + fpr * (1.0 - lo)
    # each owned vertex's segment ends at the next owned vertex of its row, the
    # row's last at (hi, its FNR): np.diff(pc) * (cost[1:] + cost[:-1])
    tail = np.append(row_of[1:] != row_of[:-1], True)
    next_pc = np.where(tail, hi, np.append(lo[1:], 0.0))
    next_cost = np.where(tail, fnr, np.append(cost[1:], 0.0))
    terms = (next_pc - lo) * (next_cost + cost)
    counts = np.bincount(np.searchsorted(ok, row_of), minlength=ok.size)
    stops = np.cumsum(counts)
    add = np.add.reduce  # (np.sum's own reduction of a 1-D array, without its wrapper)
    return np.array([float(add(terms[a:b]) / 2.0) for a, b in zip((stops - counts).tolist(), stops.tolist())])


#: columns between the sampled points of :func:`_hull_rows`, and the most points
#: a row may have to be pruned directly
_HULL_STEP = 32
_HULL_DIRECT = 256


def _pack(keep: np.ndarray, *columns: np.ndarray, positions: bool = True):
    """Each row's kept entries of ``columns`` (C-contiguous, shaped as ``keep``)
    moved to the left, in order; the rest of the row repeats its last kept entry.
    Returns the packed columns, the kept entries' positions in their rows (packed
    the same way; None unless ``positions``) and the number kept per row (each
    row keeps at least one)."""
    c, width = keep.shape
    flat = np.flatnonzero(keep)  # row by row, in order
    ends = np.searchsorted(flat, np.arange(1, c + 1) * width)  # (each row's end in it: no pass over keep)
    starts = np.concatenate(([0], ends[:-1]))
    counts = ends - starts
    src = flat[starts[:, None] + np.minimum(np.arange(int(counts.max())), (counts - 1)[:, None])]
    return ([col.reshape(-1)[src] for col in columns], src - (np.arange(c) * width)[:, None] if positions else None,
            counts)


def _prune(x: np.ndarray, y: np.ndarray, cols: np.ndarray, counts: np.ndarray):
    """Row by row, drop the points on or under the chord of their neighbours
    until none is (all rows at once). Each row holds ``counts[r]`` points packed
    to the left, ``x``, ``y`` non-decreasing along them, its first and last the
    ends; ``cols`` are their columns. Returns the columns of the points left and
    their count per row.

    Each point dropped lies on or under a chord of the row's points, so it is
    no strict vertex of their upper hull; what is left is that hull (as
    metrics.cost._prune_concave, which drops several at once the same way; of
    equal points, the first stays). The rows are packed again after each round:
    the neighbours are then the entries beside each point, and the rows shrink.
    """
    while True:
        # (q - p) x (m - p) for each point m between p and q, from the steps d between
        # neighbours (m - p = d1, q - m = d2): d2x d1y - d2y d1x, the same integers
        dx, dy = np.diff(x, axis=1), np.diff(y, axis=1)
        cross = dx[:, 1:] * dy[:, :-1]
        cross -= dy[:, 1:] * dx[:, :-1]
        # a point equal to its next one (its cross product 0: the steps are never
        # negative) stays while that one goes (it is on their "chord" only by being
        # one of its ends)
        drop = cross <= 0
        drop &= (dx[:, 1:] + dy[:, 1:]) > 0
        drop &= np.arange(1, x.shape[1] - 1) < (counts - 1)[:, None]  # the last end stays
        if not drop.any():
            return cols, counts
        keep = np.ones(x.shape, dtype=bool)
        np.logical_not(drop, out=keep[:, 1:-1])
        keep &= np.arange(x.shape[1]) < counts[:, None]
        (x, y, cols), _, counts = _pack(keep, x, y, cols, positions=False)


def hull_rows(x: np.ndarray, y: np.ndarray) -> list[np.ndarray]:
    """Per row (a resample's ROC chain in counts, ``x`` = FP and ``y`` = TP
    non-decreasing along each row), the columns of the strict vertices of its
    upper hull, ascending, the ends included (:func:`upper_hull_indices`'s):
    :func:`hull_packed`'s, a row each."""
    hull_cols, counts = hull_packed(x, y)
    return [hull_cols[r, :n] for r, n in enumerate(counts.tolist())]


def hull_packed(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`hull_rows`, packed: the vertices' columns of each row to the left of
    a (rows, most vertices) array, the rest of the row repeating its last, and
    the number of vertices of each row.

    Vectorised over the rows: the hull of every ``_HULL_STEP``-th point (found
    the same way, down to rows of at most ``_HULL_DIRECT`` points), then the hull
    of its vertices and every point strictly above its polyline. A strict vertex
    of the whole hull is a vertex of the sampled hull (extreme among the samples
    too) or strictly above it (on or under it, it would lie on or under a chord
    of points of the set).
    """
    c, width = x.shape
    last = width - 1
    # a point no higher than the one before it (at a score no positive of this
    # resample has) is no vertex: it lies on or under the chord from that point to
    # the next higher one, or on the level top that ends at the end; the points
    # left have the same hull. (Not applied to the sampled hull's vertices
    # below: one may be the copy that stands for points equal to it.)
    rises = np.ones((c, width), dtype=bool)
    np.not_equal(y[:, 1:-1], y[:, :-2], out=rises[:, 1:-1])
    if width <= _HULL_DIRECT:
        # nor is a point equal to the end (scores not drawn at the bottom); (x <=
        # the end's x and y <= its y: equal to the end iff x + y is the end's). Past
        # this size no such point is a candidate: it is on the edge to the end of
        # the sampled hull, whose own vertices are found here
        np.not_equal(x[:, :-1] + y[:, :-1], x[:, -1:] + y[:, -1:], out=rises[:, :-1], where=rises[:, :-1])
        (px, py), pcols, counts = _pack(rises, x, y)
        return _prune(px, py, pcols, counts)
    cols = np.arange(0, width, _HULL_STEP)
    if cols[-1] != last:
        cols = np.append(cols, last)
    S = cols.size
    sx, sy = x[:, cols], y[:, cols]
    alive = np.zeros((c, S), dtype=bool)
    # (a packed row's repeats of its last vertex mark that vertex again)
    alive[np.arange(c)[:, None], hull_packed(sx, sy)[0]] = True
    # each column's edge of the sampled hull: from the last live sample at or
    # before it to the first live sample after it
    index = np.broadcast_to(np.arange(S), (c, S))
    before = np.maximum.accumulate(np.where(alive, index, 0), axis=1)
    after = np.minimum.accumulate(np.where(alive, index, S - 1)[:, ::-1], axis=1)[:, ::-1]
    # (one edge for each run of _HULL_STEP columns: broadcast, not gathered)
    nseg = (width - 1) // _HULL_STEP  # runs starting at a sample, the last column left out
    edge = (slice(None), slice(0, nseg))
    ax, ay = np.take_along_axis(sx, before[edge], 1), np.take_along_axis(sy, before[edge], 1)
    bx, by = np.take_along_axis(sx, after[:, 1:nseg + 1], 1), np.take_along_axis(sy, after[:, 1:nseg + 1], 1)
    keep = np.zeros((c, width), dtype=bool)
    main = nseg * _HULL_STEP
    runs = (c, nseg, _HULL_STEP)
    xr, yr = x[:, :main].reshape(runs), y[:, :main].reshape(runs)
    # strictly above the edge: a positive cross product, (bx - ax)(y - ay) > (by - ay)(x - ax),
    # as dx y - dy x > dx ay - dy ax (the same integers: one product a point less)
    dx, dy = bx - ax, by - ay
    above = dx[:, :, None] * yr
    above -= dy[:, :, None] * xr
    np.greater(above, (dx * ay - dy * ax)[:, :, None], out=keep[:, :main].reshape(runs))
    if main < last:  # the columns after the last full run, on the edge to the end
        i = np.minimum(before[:, nseg], S - 1)[:, None]
        ax, ay = np.take_along_axis(sx, i, 1), np.take_along_axis(sy, i, 1)
        bx, by = sx[:, -1:], sy[:, -1:]
        tail = slice(main, last)
        keep[:, tail] = (bx - ax) * (y[:, tail] - ay) - (by - ay) * (x[:, tail] - ax) > 0
    keep &= rises
    keep[:, cols] |= alive  # the sampled hull's vertices, the ends among them
    # the candidates of each row packed to the left
    (px, py), pcols, counts = _pack(keep, x, y)
    return _prune(px, py, pcols, counts)
