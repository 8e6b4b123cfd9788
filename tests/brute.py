"""Brute-force references shared by the tests: slow, obvious, and computed
without the project's code (or by an outside library)."""

from __future__ import annotations

import numpy as np


def twice_right_pairs(y, s) -> int:
    """2 x (pairs ranked right) + ties, by brute force over the pairs."""
    y = np.asarray(y, dtype=bool)
    s = np.asarray(s)
    p, n = s[y], s[~y]
    return int(2 * (p[:, None] > n[None, :]).sum() + (p[:, None] == n[None, :]).sum())


def distance_to_polyline(px, py, x, y) -> np.ndarray:
    """Distance of each point (px, py) from the polyline through (x, y), over
    every segment. (Of the points given only: for a curve, pass its vertices;
    between two vertices a polyline's distance is at most theirs.)"""
    best = np.full(px.size, np.inf)
    for i in range(x.size - 1):
        vx, vy = x[i + 1] - x[i], y[i + 1] - y[i]
        l2 = vx * vx + vy * vy
        t = np.zeros(px.size) if l2 == 0 else np.clip(((px - x[i]) * vx + (py - y[i]) * vy) / l2, 0, 1)
        best = np.minimum(best, np.hypot(px - x[i] - t * vx, py - y[i] - t * vy))
    return best


def scipy_monte_carlo_p(null, alternative: str) -> float:
    """SciPy's Monte Carlo p-value of an observed 0 against the draws ``null``
    (scipy.stats.monte_carlo_test: each count and B one higher; two-sided, twice
    the smaller side), clipped to 1."""
    from scipy.stats import monte_carlo_test

    null = np.asarray(null, dtype=float)
    draws = iter([null.reshape(-1, 1)])
    res = monte_carlo_test(np.zeros(1), lambda size: next(draws), lambda x, axis: x[..., 0],
                           vectorized=True, n_resamples=null.size, batch=null.size, alternative=alternative)
    return min(1.0, float(res.pvalue))
