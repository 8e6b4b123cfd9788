"""The paths the plot helpers draw (:mod:`evalreport.figures.plots`): curves thinned to
what a printed figure shows, and the straight segments of ROC and P-R curves
filled in where a log axis or the P-R space would bend them. Drawing only: every
number was computed on the full curves."""

from __future__ import annotations

import numpy as np

#: points per curve in a figure: a few per pixel of a printed figure is plenty
FIGURE_POINTS = 800


def thin(*arrays, points: int = FIGURE_POINTS):
    """The curve (x, y, ...) at most ``points`` points, spread evenly along its
    L1 length; drawing only (every number was computed on the full curve)."""
    x, y = arrays[0], arrays[1]
    if x.size <= points:
        return arrays
    length = np.concatenate(([0.0], np.cumsum(np.abs(np.diff(x)) + np.abs(np.diff(y)))))
    pick = np.unique(np.searchsorted(length, np.linspace(0.0, length[-1], points)))
    pick = np.unique(np.concatenate(([0], np.clip(pick, 0, x.size - 1), [x.size - 1])))
    return tuple(a[pick] for a in arrays)


def log_path(x, y, left: float):
    """A ROC curve for a log-FPR axis: its segments (straight at a linear scale)
    drawn through points between the vertices, FPR below ``left`` (0 included)
    put at ``left``, the axis' edge."""
    if 1 < x.size <= 400:
        steps = np.linspace(0.0, 1.0, 17)[:-1]
        x = np.append((x[:-1, None] + (x[1:, None] - x[:-1, None]) * steps).ravel(), x[-1])
        y = np.append((y[:-1, None] + (y[1:, None] - y[:-1, None]) * steps).ravel(), y[-1])
    else:
        x, y = thin(x, y)
    return np.maximum(x, left), y


def pr_path(block, positives: float):
    """P-R points joined by straight lines in (FP, TP) count space, drawn in (R, P)."""
    tp, fp = block.tp, block.fp
    if tp is None or tp.size > 400:  # dense enough: the segments are short
        return thin(block.x, block.y)
    steps = np.linspace(0.0, 1.0, 17)[:-1]
    t0, t1, f0, f1 = tp[:-1, None], tp[1:, None], fp[:-1, None], fp[1:, None]
    tpi = (t0 + (t1 - t0) * steps).ravel()
    fpi = (f0 + (f1 - f0) * steps).ravel()
    tpi = np.append(tpi, tp[-1])
    fpi = np.append(fpi, fp[-1])
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = np.where(tpi + fpi > 0, tpi / (tpi + fpi), 0.0)
    return tpi / positives, precision
