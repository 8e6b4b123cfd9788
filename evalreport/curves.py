"""Curves for output: keep the vertices, then simplify to a bounded size.

Scalars are always computed on the full curves; this only decides what is
written to results.json and drawn in figures, so the output does not grow
with the number of rows. Vertices are found in integer count space (exact),
and only the vertices are turned into rates.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .metrics import BinaryEvaluation, CostCurve
from .metrics.cost import row_thresholds

__all__ = ["CurveBlock", "OutputCurves", "vertex_indices", "simplify", "output_curves"]


@dataclass(frozen=True, eq=False)
class CurveBlock:
    """A curve as drawn and written: its kept points and how faithful they are."""

    x: np.ndarray
    y: np.ndarray
    threshold: np.ndarray
    vertices: int  # vertices of the full curve
    simplified: bool  # True when vertices were dropped to meet the budget
    max_error: float  # largest distance of a dropped vertex from the kept polyline


@dataclass(frozen=True, eq=False)
class OutputCurves:
    roc: CurveBlock | None  # x = FPR, y = TPR
    pr: CurveBlock | None  # x = recall, y = precision
    cost: CostCurve | None


def vertex_indices(dx: np.ndarray, dy: np.ndarray) -> np.ndarray:
    """Points where a polyline turns, from its steps (dx, dy) between points.

    Points on a straight run between two vertices are dropped; the first and
    last points are kept. Exact for integer steps.
    """
    n = dx.size + 1
    if n <= 2:
        return np.arange(n)
    turns = dx[:-1] * dy[1:] != dy[:-1] * dx[1:]
    keep = np.empty(n, dtype=bool)
    keep[0] = keep[-1] = True
    keep[1:-1] = turns
    return np.flatnonzero(keep)


def _max_error(x, y, kept: np.ndarray) -> float:
    """Largest Euclidean distance of any point from the kept polyline.

    Each point is measured against the kept segment that spans it by index.
    The distance to one segment is convex along a straight run, so measuring
    the vertices bounds every point of the curve.
    """
    if kept.size == x.size:
        return 0.0
    seg = np.repeat(np.arange(kept.size - 1), np.diff(kept))
    a, b = kept[seg], kept[seg + 1]
    ax, ay = x[a], y[a]
    vx, vy = x[b] - ax, y[b] - ay
    px, py = x[: seg.size] - ax, y[: seg.size] - ay
    length2 = vx * vx + vy * vy
    np.maximum(length2, np.finfo(float).tiny, out=length2)  # kept points are distinct
    t = px * vx
    t += py * vy
    t /= length2
    np.minimum(t, 1.0, out=t)
    np.maximum(t, 0.0, out=t)
    vx *= t
    vy *= t
    px -= vx
    py -= vy
    px *= px
    py *= py
    px += py
    return float(np.sqrt(px.max()))


def simplify(x: np.ndarray, y: np.ndarray, max_points) -> tuple[np.ndarray, bool, float]:
    """Keep at most ``max_points`` of the points (x, y): (kept positions, simplified, max_error).

    Points are chosen evenly along the curve's arc length, always including
    the ends, and the resulting largest deviation is measured, not guessed.
    """
    n = x.size
    if max_points == "all" or n <= max_points:
        return np.arange(n), False, 0.0
    arc = np.empty(n)
    arc[0] = 0.0
    np.cumsum(np.hypot(np.diff(x), np.diff(y)), out=arc[1:])
    targets = np.linspace(0.0, arc[-1], int(max_points))
    pick = np.clip(np.searchsorted(arc, targets), 0, n - 1)
    pick[0], pick[-1] = 0, n - 1
    pick = np.unique(pick)
    return pick, True, _max_error(x, y, pick)


def _block(x, y, thr, budget) -> CurveBlock:
    keep, simplified, err = simplify(x, y, budget)
    return CurveBlock(x=x[keep], y=y[keep], threshold=thr[keep], vertices=int(x.size),
                      simplified=simplified, max_error=err)


def output_curves(ev: BinaryEvaluation, budget) -> OutputCurves:
    """The ROC, P-R and cost curves of ``ev``, each at most ``budget`` points (or 'all')."""
    t = ev.counts
    pos, neg = ev.positives, ev.negatives
    rows = vertex_indices(np.diff(t.fp), np.diff(t.tp))
    roc = pr = None
    if pos > 0 and neg > 0:
        roc = _block(t.fp[rows] / neg, t.tp[rows] / pos, row_thresholds(t, rows), budget)
    if pos > 0:
        pr_rows = rows[rows > 0]
        tp, fp = t.tp[pr_rows], t.fp[pr_rows]
        pr = _block(tp / pos, tp / (tp + fp), t.threshold[pr_rows - 1], budget)
    return OutputCurves(roc=roc, pr=pr, cost=ev.cost_curve)
