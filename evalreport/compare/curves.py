"""Comparing learners' curves: ROC envelopment and the combined cost envelope.

Zhou, section 2.3: A envelops B when A's ROC curve is nowhere below B's and
strictly above somewhere. The curves are piecewise linear, so comparing them
at the union of both curves' breakpoints is exact. Vertical runs (a tied
block of positives, or a step) are compared at both their ends.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np

__all__ = ["Envelopment", "FprInterval", "envelopment", "envelopment_counts", "envelopment_steps", "CostInterval", "cost_envelope"]

#: differences smaller than this count as equal (rates are ratios of counts)
TOLERANCE = 1e-12


class FprInterval(NamedTuple):
    """An interval of FPR on which one curve is above the other, or they coincide."""

    fpr_from: float
    fpr_to: float
    above: str  # "a", "b" or "equal"


@dataclass(frozen=True)
class Envelopment:
    verdict: str  # "a_envelops_b", "b_envelops_a", "identical" or "cross"
    crossings_fpr: tuple[float, ...]
    #: who is above on each interval of FPR, from 0 to 1 (adjacent intervals differ in
    #: ``above``). A vertical run is a single FPR and has no interval of its own: there
    #: the curves pass from the interval on its left to the one on its right.
    intervals: tuple[FprInterval, ...] = ()


_ABOVE = {1: "a", -1: "b", 0: "equal"}


def _merged(starts, ends, signs) -> tuple[FprInterval, ...]:
    """Consecutive pieces (``starts[i]`` to ``ends[i]``, sign of A - B) joined where
    the sign stays the same."""
    if not len(signs):
        return ()
    first = np.flatnonzero(np.concatenate(([True], signs[1:] != signs[:-1])))
    last = np.append(first[1:] - 1, len(signs) - 1)
    return tuple(FprInterval(float(starts[i]), float(ends[j]), _ABOVE[int(signs[i])])
                 for i, j in zip(first.tolist(), last.tolist()))


def _intervals_on_grid(xs, d_lo, d_hi, tol: float) -> tuple[FprInterval, ...]:
    """Who is above between each two consecutive grid points, exactly.

    Between two breakpoints both curves are straight, so A - B is linear there:
    it leaves x0 at ``d_hi[x0]`` (the top of the vertical run at x0) and arrives
    at x1 at ``d_lo[x1]`` (the bottom of the run at x1). One sign, or one sign and
    zero at one end, holds on the whole open interval; opposite signs split it
    where the difference is zero."""
    def sign(d):
        return np.where(np.abs(d) <= tol, 0, np.sign(d)).astype(int)

    x0, x1 = xs[:-1], xs[1:]
    d0, d1 = d_hi[:-1], d_lo[1:]
    s0, s1 = sign(d0), sign(d1)
    split = s0 * s1 < 0
    with np.errstate(divide="ignore", invalid="ignore"):
        xc = np.where(split, x0 + (x1 - x0) * d0 / np.where(split, d0 - d1, 1.0), x1)
    # each segment as two pieces, x0 to xc and xc to x1 (empty unless split)
    starts = np.column_stack((x0, xc)).ravel()
    ends = np.column_stack((xc, x1)).ravel()
    signs = np.column_stack((np.where(split, s0, np.sign(s0 + s1)), s1)).ravel()
    keep = np.column_stack((np.ones_like(split), split)).ravel()
    return _merged(starts[keep], ends[keep], signs[keep])


def _at(fpr: np.ndarray, tpr: np.ndarray, x: np.ndarray):
    """The curve's TPR at each x: at the bottom and at the top of a vertical run."""
    n = fpr.size
    hi = np.clip(np.searchsorted(fpr, x, side="right") - 1, 0, n - 1)  # last point with fpr <= x
    lo = np.clip(np.searchsorted(fpr, x, side="left"), 0, n - 1)  # first point with fpr >= x

    def interp(i0, i1):
        x0, x1 = fpr[i0], fpr[i1]
        span = np.where(x1 > x0, x1 - x0, 1.0)
        return tpr[i0] + (tpr[i1] - tpr[i0]) * np.clip((x - x0) / span, 0.0, 1.0)

    top = np.where(fpr[hi] == x, tpr[hi], interp(hi, np.minimum(hi + 1, n - 1)))
    bottom = np.where(fpr[lo] == x, tpr[lo], interp(np.maximum(lo - 1, 0), lo))
    return bottom, top


def envelopment(a_fpr, a_tpr, b_fpr, b_tpr, *, tol: float = TOLERANCE) -> Envelopment:
    """Does A's ROC curve envelop B's, B's A's, are they identical, or do they cross?

    Both curves run from (0, 0) to (1, 1) with non-decreasing FPR and TPR.

    >>> envelopment([0, 0, 1], [0, 1, 1], [0, 1], [0, 1]).verdict
    'a_envelops_b'
    >>> e = envelopment([0, 0.2, 1], [0, 0.6, 1], [0, 0.2, 1], [0, 0.5, 1])
    >>> e.verdict
    'a_envelops_b'
    >>> e = envelopment([0, 0.1, 1], [0, 0.5, 1], [0, 0.5, 1], [0, 0.9, 1])
    >>> e.verdict, [round(x, 6) for x in e.crossings_fpr]
    ('cross', [0.357143])
    """
    a_fpr, a_tpr = np.asarray(a_fpr, float), np.asarray(a_tpr, float)
    b_fpr, b_tpr = np.asarray(b_fpr, float), np.asarray(b_tpr, float)
    xs = np.union1d(a_fpr, b_fpr)
    return envelopment_on_grid(xs, roc_profile(a_fpr, a_tpr, xs), roc_profile(b_fpr, b_tpr, xs), tol=tol)


def roc_profile(fpr, tpr, xs) -> tuple[np.ndarray, np.ndarray]:
    """A curve's TPR at the bottom and at the top of its vertical run at each x of ``xs``.

    When ``xs`` holds every breakpoint of two curves, comparing their profiles
    is exact. Learners scored on the same unweighted instances share the grid
    FP / m- (every FPR is a count over m-), so each profile is computed once.
    """
    return _at(np.asarray(fpr, float), np.asarray(tpr, float), np.asarray(xs, float))


def roc_profile_counts(fpr, tpr, n_neg: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`roc_profile` on the grid FP = 0..m- (unweighted learners), in O(m-)
    without a search: each grid point falls on a vertex's FP or inside one
    straight segment between two consecutive FP values."""
    fpr, tpr = np.asarray(fpr, float), np.asarray(tpr, float)
    fp = np.rint(fpr * n_neg).astype(np.int64)
    first = np.concatenate(([True], fp[1:] != fp[:-1]))
    last = np.concatenate((fp[1:] != fp[:-1], [True]))
    ufp, bottom, top = fp[first], tpr[first], tpr[last]  # a vertical run's two ends
    seg = np.repeat(np.arange(ufp.size - 1), np.diff(ufp))  # grid 0..m- - 1
    g = np.arange(seg.size)
    x0, x1 = ufp[seg], ufp[seg + 1]
    on_vertex = g == x0
    inner = top[seg] + (bottom[seg + 1] - top[seg]) * (g - x0) / (x1 - x0)
    lo = np.append(np.where(on_vertex, bottom[seg], inner), bottom[-1])
    hi = np.append(np.where(on_vertex, top[seg], inner), top[-1])
    return lo, hi


def steps_on_grid(top, positives: int):
    """A :class:`~evalreport.curves.StepProfile`'s ``top`` as a grid source for
    :func:`envelopment_counts`: its TPR at the bottom and the top of the vertical
    run at FP = k0..k1 - 1. The same floats as :func:`roc_profile_counts` of its
    polyline (``top / m+``), without the polyline (two float64 per vertex)."""
    top = np.asarray(top)

    def piece(k0: int, k1: int):
        hi = top[k0:k1] / positives
        lo = np.empty_like(hi)
        lo[1:] = hi[:-1]
        lo[0] = top[k0 - 1] / positives if k0 else 0.0
        return lo, hi
    return piece


def vertices_on_grid(fpr, tpr, n_neg: int):
    """A curve's vertices (unweighted FPR = FP / m-) as a grid source for
    :func:`envelopment_counts`: :func:`roc_profile_counts` a piece at a time
    (the same arithmetic, so the same floats), in memory of the vertices'
    size plus the piece's."""
    fpr, tpr = np.asarray(fpr, float), np.asarray(tpr, float)
    fp = np.rint(fpr * n_neg).astype(np.int64)
    change = fp[1:] != fp[:-1]
    first = np.concatenate(([True], change))
    last = np.concatenate((change, [True]))
    ufp, bottom, top = fp[first], tpr[first], tpr[last]  # a vertical run's two ends

    def piece(k0: int, k1: int):
        g = np.arange(k0, min(k1, n_neg), dtype=np.int64)  # the grid before FP = m-
        seg = np.searchsorted(ufp, g, side="right") - 1  # the segment FP = ufp[seg]..ufp[seg + 1]
        x0, x1 = ufp[seg], ufp[seg + 1]
        on_vertex = g == x0
        inner = top[seg] + (bottom[seg + 1] - top[seg]) * (g - x0) / (x1 - x0)
        lo = np.where(on_vertex, bottom[seg], inner)
        hi = np.where(on_vertex, top[seg], inner)
        if k1 > n_neg:  # and the last point, FP = m-
            lo, hi = np.append(lo, bottom[-1]), np.append(hi, top[-1])
        return lo, hi
    return piece


#: grid points per piece of :func:`envelopment_counts` (a few MiB of temporaries)
GRID_PIECE = 1 << 16


def envelopment_counts(a, b, n_neg: int, *, tol: float = TOLERANCE, piece: int = GRID_PIECE) -> Envelopment:
    """:func:`envelopment_on_grid` on the grid FP = 0..m- (``xs = k / m-``) of
    learners on the same unweighted instances, a piece of the grid at a time.

    ``a`` and ``b`` are grid sources (:func:`steps_on_grid`,
    :func:`vertices_on_grid`): ``a(k0, k1)`` is the curve's (bottom, top) TPR
    at FP = k0..k1 - 1. The same floats are compared in the same way as on the
    whole grid, so the verdict, the crossings and the intervals are those of
    :func:`envelopment_on_grid` with :func:`roc_profile_counts`, while the
    memory stays that of one piece, not several float64 arrays per negative
    (at 10^7 rows those arrays doubled the time and multiplied the peak memory
    of a run with a tied learner by 2.7). Intervals are merged across pieces;
    the walk for the crossings carries the last nonzero difference over.
    """
    above = below = False
    intervals: list[FprInterval] = []
    crossings: list[float] = []
    carry = None  # (position in the walk, difference) of the last nonzero difference so far
    for k0 in range(0, n_neg, piece):
        k1 = min(k0 + piece, n_neg)  # grid points k0..k1: the next piece starts at k1
        a_lo, a_hi = a(k0, k1 + 1)
        b_lo, b_hi = b(k0, k1 + 1)
        d_lo, d_hi = a_lo - b_lo, a_hi - b_hi
        del a_lo, a_hi, b_lo, b_hi
        above = above or bool((d_lo > tol).any() or (d_hi > tol).any())
        below = below or bool((d_lo < -tol).any() or (d_hi < -tol).any())
        for iv in _intervals_on_grid(np.arange(k0, k1 + 1) / n_neg, d_lo, d_hi, tol):
            if intervals and intervals[-1].above == iv.above:
                intervals[-1] = intervals[-1]._replace(fpr_to=iv.fpr_to)
            else:
                intervals.append(iv)
        # the walk (bottom, then top, at each x) over the points k0..k1 - 1, and k1 = m- at the end
        stop = k1 + 1 if k1 == n_neg else k1
        diff = np.column_stack((d_lo[:stop - k0], d_hi[:stop - k0])).ravel()
        nz = np.flatnonzero(np.abs(diff) > tol)
        at = nz + 2 * k0
        d = diff[nz]
        if carry is not None:
            at, d = np.concatenate(([carry[0]], at)), np.concatenate(([carry[1]], d))
        if d.size:
            positive = d > 0
            for k in np.flatnonzero(positive[1:] != positive[:-1]).tolist():
                crossings.append(_crossing(int(at[k]), int(at[k + 1]), d[k], d[k + 1], n_neg))
            carry = (at[-1], d[-1])
    verdict = _without_crossing(above, below)
    if verdict is not None:
        return replace(verdict, intervals=tuple(intervals))
    return Envelopment("cross", tuple(crossings), tuple(intervals))


def _crossing(j0: int, j1: int, d0, d1, n_neg: int) -> float:
    """Where the difference passes from ``d0`` at walk position ``j0`` to ``d1``
    (opposite sign) at ``j1``; position j is the bottom (even) or the top (odd)
    of the vertical run at x = (j // 2) / m-. As :func:`envelopment_on_grid`."""
    where0, where1 = np.float64(j0 // 2) / n_neg, np.float64(j1 // 2) / n_neg
    if j1 > j0 + 1:  # equal in between: they touch, then part; cross where they meet
        return float(np.float64((j0 + 1) // 2) / n_neg)
    if where0 == where1:  # within one vertical run
        return float(where0)
    return float(where0 + (where1 - where0) * d0 / (d0 - d1))


def _without_crossing(above: bool, below: bool) -> Envelopment | None:
    """The verdict when A is nowhere below B or nowhere above it; None if they cross."""
    if not above and not below:
        return Envelopment("identical", ())
    if not below:
        return Envelopment("a_envelops_b", ())
    if not above:
        return Envelopment("b_envelops_a", ())
    return None


def envelopment_steps(a_top, b_top, n_neg: int) -> Envelopment:
    """:func:`envelopment` of two unit-step curves on the same instances, from their
    :class:`~evalreport.curves.StepProfile` ``top`` arrays (equal m+ and m-).

    At FP = k both curves rise vertically from ``top[k - 1]`` to ``top[k]`` and
    then run flat at ``top[k]`` to FP = k + 1, so the difference of the curves
    is ``d[k] = a_top[k] - b_top[k]`` on the whole flat stretch and moves from
    ``d[k - 1]`` to ``d[k]`` inside the vertical run. They cross where the sign
    of ``d`` changes; the crossing is where they meet, at FP = k0 + 1 after the
    last nonzero ``d[k0]`` of one sign (the same points :func:`envelopment`
    reports). Exact integer arithmetic, O(m-), no search.
    """
    d = np.subtract(a_top, b_top, dtype=np.int64)
    # the flat stretch FP = k to k + 1 (k < m-) has difference d[k] all along
    k = np.arange(n_neg)
    intervals = _merged(k / n_neg, (k + 1) / n_neg, np.sign(d[:n_neg]))
    verdict = _without_crossing(bool((d > 0).any()), bool((d < 0).any()))
    if verdict is not None:
        return replace(verdict, intervals=intervals)
    nz = np.flatnonzero(d)
    positive = d[nz] > 0
    change = np.flatnonzero(positive[1:] != positive[:-1])
    return Envelopment("cross", tuple(((nz[change] + 1) / n_neg).tolist()), intervals)


def envelopment_on_grid(xs, a: tuple, b: tuple, *, tol: float = TOLERANCE) -> Envelopment:
    """:func:`envelopment` from two profiles on one grid that holds both curves' breakpoints."""
    a_lo, a_hi = a
    b_lo, b_hi = b
    d_lo, d_hi = a_lo - b_lo, a_hi - b_hi
    above = bool((d_lo > tol).any() or (d_hi > tol).any())
    below = bool((d_lo < -tol).any() or (d_hi < -tol).any())
    intervals = _intervals_on_grid(np.asarray(xs, float), d_lo, d_hi, tol)
    verdict = _without_crossing(above, below)
    if verdict is not None:
        return replace(verdict, intervals=intervals)
    # They cross. Walk along the curves: at each x the bottom of its vertical run, then its top.
    where = np.repeat(xs, 2)
    diff = np.column_stack((d_lo, d_hi)).ravel()
    sign = np.where(np.abs(diff) <= tol, 0, np.sign(diff)).astype(int)
    nz = np.flatnonzero(sign)
    change = np.flatnonzero(sign[nz[1:]] != sign[nz[:-1]])
    crossings = []
    for k in change:
        j0, j1 = nz[k], nz[k + 1]
        if j1 > j0 + 1:  # equal in between: they touch, then part; cross where they meet
            crossings.append(float(where[j0 + 1]))
        elif where[j0] == where[j1]:  # within one vertical run
            crossings.append(float(where[j0]))
        else:  # inside an open interval where both are straight
            x0, x1, d0, d1 = where[j0], where[j1], diff[j0], diff[j1]
            crossings.append(float(x0 + (x1 - x0) * d0 / (d0 - d1)))
    return Envelopment("cross", tuple(crossings), intervals)


@dataclass(frozen=True)
class CostInterval:
    """An interval of PC(+) where one learner (at one threshold) has the least cost."""

    learner: str
    threshold: float
    pc_from: float
    pc_to: float


def _first_below(value, slope, owner_value, owner_slope, x):
    """Where each line (``value`` at ``x``, ``slope``) goes below the owner's
    line after ``x``; inf where it never does (the owner's own line included:
    its slope difference is 0). Works elementwise on broadcast arrays."""
    ds = slope - owner_slope
    gap = value - owner_value
    with np.errstate(divide="ignore", invalid="ignore"):
        xc = np.where(ds < 0, x + gap / -ds, np.inf)
    xc[~(xc > x)] = np.inf
    return xc


def cost_envelope(curves: dict[str, object]) -> list[CostInterval]:
    """The lower envelope of several learners' cost curves over PC(+) in [0, 1].

    ``curves`` maps a learner's name to its :class:`~evalreport.metrics.CostCurve`.
    Each interval is owned by the learner (and its threshold) of least
    normalised expected cost there; ties go to the learner listed first.
    """
    names = list(curves)
    if not names:
        return []
    pcs = [np.asarray(curves[n].pc, float) for n in names]
    costs = [np.asarray(curves[n].cost, float) for n in names]
    xs = np.unique(np.concatenate(pcs))

    # every learner's envelope at every breakpoint of any of them: linear in between
    values = np.vstack([np.interp(xs, pcs[k], costs[k]) for k in range(len(names))])
    x0s, x1s = xs[:-1], xs[1:]
    v0s = values[:, :-1]
    slopes = (values[:, 1:] - v0s) / (x1s - x0s)
    # owner just right of each x0: least value, then least slope, then the first listed
    tie = v0s <= v0s.min(axis=0) + 1e-12
    owners = np.argmin(np.where(tie, slopes, np.inf), axis=0)
    # where no other line goes below the owner's inside the interval, the owner
    # holds it whole (the common case, found for every interval at once)
    cols = np.arange(x0s.size)
    xc = _first_below(v0s, slopes, v0s[owners, cols], slopes[owners, cols], x0s)
    crossed = xc.min(axis=0) < x1s - 1e-15
    pieces: list[tuple[int, float, float]] = []  # (learner index, from, to)
    for i in range(x0s.size):
        if not crossed[i]:
            pieces.append((int(owners[i]), float(x0s[i]), float(x1s[i])))
            continue
        x0, x1 = xs[i], xs[i + 1]
        v0, slope = v0s[:, i], slopes[:, i]
        owner = int(owners[i])
        x = x0
        while True:
            at_x = v0 + slope * (x - x0)
            xc = _first_below(at_x, slope, at_x[owner], slope[owner], x)
            k = int(np.argmin(xc))
            if not xc[k] < x1 - 1e-15:
                pieces.append((owner, x, x1))
                break
            pieces.append((owner, x, float(xc[k])))
            owner, x = k, float(xc[k])
    # each piece's threshold: that of the owner's segment holding the piece's middle
    owner_of = np.array([k for k, _, _ in pieces])
    middle = np.array([(a + b) / 2 for _, a, b in pieces])
    thresholds = np.empty(len(pieces))
    for k in np.unique(owner_of).tolist():
        mine = owner_of == k
        pc = pcs[k]
        seg = np.clip(np.searchsorted(pc, middle[mine], side="right") - 1, 0, pc.size - 2)
        thresholds[mine] = np.asarray(curves[names[k]].segment_threshold, float)[seg]
    out: list[CostInterval] = []
    for (k, a, b), thr in zip(pieces, thresholds.tolist()):
        if out and out[-1].learner == names[k] and out[-1].threshold == thr:
            out[-1] = CostInterval(names[k], thr, out[-1].pc_from, float(b))
        else:
            out.append(CostInterval(names[k], thr, float(a), float(b)))
    return out


@dataclass(frozen=True)
class HullVertex:
    """A vertex of the ROC convex hull across learners, and who reaches it."""

    fpr: float
    tpr: float
    learner: str | None  # None for the trivial corners (0, 0) and (1, 1)
    threshold: float


def combined_hull(hulls: dict[str, object]) -> list[HullVertex]:
    """The ROC convex hull of several learners' hulls (iso-performance: Provost &
    Fawcett). ``hulls`` maps a learner's name to its :class:`~evalreport.metrics.RocHull`.
    Ties (the same point reached by several learners) go to the learner listed first.

    >>> from types import SimpleNamespace as H
    >>> a = H(fpr=np.array([0, 0.1, 1.]), tpr=np.array([0, 0.6, 1.]), threshold=np.array([np.inf, .9, .1]))
    >>> b = H(fpr=np.array([0, 0.5, 1.]), tpr=np.array([0, 0.95, 1.]), threshold=np.array([np.inf, .5, .2]))
    >>> [(v.learner, v.fpr, v.tpr) for v in combined_hull({"a": a, "b": b})]
    [(None, 0.0, 0.0), ('a', 0.1, 0.6), ('b', 0.5, 0.95), (None, 1.0, 1.0)]
    """
    from ..metrics.cost import upper_hull_indices

    xs, ys, owners, thresholds = [0.0], [0.0], [None], [np.inf]
    for name, hull in hulls.items():
        inner = slice(1, -1)  # the corners are everyone's
        xs += list(np.asarray(hull.fpr)[inner])
        ys += list(np.asarray(hull.tpr)[inner])
        owners += [name] * max(0, len(hull.fpr) - 2)
        thresholds += list(np.asarray(hull.threshold)[inner])
    xs.append(1.0)
    ys.append(1.0)
    owners.append(None)
    thresholds.append(-np.inf)
    x, y = np.asarray(xs), np.asarray(ys)
    inner = np.arange(1, len(xs) - 1)
    order = inner[np.lexsort((-y[inner], x[inner]))]  # by FPR, the highest TPR first
    if order.size:
        order = order[np.concatenate(([True], np.diff(x[order]) > 0))]  # one point per FPR
        # a monotone chain from (0, 0): keep only the points that raise TPR
        best = np.maximum.accumulate(y[order])
        order = order[np.concatenate(([y[order[0]] > 0], np.diff(best) > 0))]
    keep = np.concatenate(([0], order, [len(xs) - 1]))
    idx = keep[upper_hull_indices(x[keep], y[keep])]
    return [HullVertex(float(x[i]), float(y[i]), owners[i], float(thresholds[i])) for i in idx]
