"""Curves for output: keep the vertices, then simplify to a bounded size.

Scalars are always computed on the full curves; this only decides what is
written to results.json and drawn in figures.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Simplified", "vertex_indices", "simplify"]


@dataclass(frozen=True, eq=False)
class Simplified:
    index: np.ndarray  # rows of the full curve that are kept
    simplified: bool  # True when vertices were dropped to meet the budget
    max_error: float  # largest distance of a dropped vertex from the kept polyline


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
    seg = np.searchsorted(kept, np.arange(x.size), side="right") - 1
    seg = np.clip(seg, 0, kept.size - 2)
    ax, ay = x[kept[seg]], y[kept[seg]]
    bx, by = x[kept[seg + 1]], y[kept[seg + 1]]
    vx, vy = bx - ax, by - ay
    length2 = vx * vx + vy * vy
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.where(length2 > 0, ((x - ax) * vx + (y - ay) * vy) / length2, 0.0)
    t = np.clip(t, 0.0, 1.0)
    dist = np.hypot(x - (ax + t * vx), y - (ay + t * vy))
    return float(dist.max())


def simplify(x: np.ndarray, y: np.ndarray, candidates: np.ndarray, max_points) -> Simplified:
    """Keep at most ``max_points`` of the ``candidates`` (vertex rows of the curve).

    Points are chosen evenly along the curve's arc length, always including
    the ends, and the resulting largest deviation is measured, not guessed.
    """
    if max_points == "all" or candidates.size <= max_points:
        return Simplified(candidates, False, 0.0)
    cx, cy = x[candidates], y[candidates]
    arc = np.concatenate(([0.0], np.cumsum(np.hypot(np.diff(cx), np.diff(cy)))))
    targets = np.linspace(0.0, arc[-1], int(max_points))
    pick = np.unique(np.clip(np.searchsorted(arc, targets), 0, candidates.size - 1))
    pick[0], pick[-1] = 0, candidates.size - 1
    pick = np.unique(pick)
    return Simplified(candidates[pick], True, _max_error(cx, cy, pick))
