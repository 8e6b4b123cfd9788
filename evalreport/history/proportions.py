"""Two independent proportions (the same measure in two runs): the pooled z test
and the score interval that inverts it, so that the interval excludes 0 exactly
when the test's p-value is below 1 - level.

The pooled two-proportion z test is the score test of p1 == p2. Its interval is
the set of differences d that the score test of p2 - p1 == d does not reject,
each d's variance taken at the restricted maximum-likelihood proportions under
that d (Mee 1984; Miettinen & Nurminen 1985 without their N / (N - 1) factor;
statsmodels' ``confint_proportions_2indep(method="score", correction=False)``).
At d = 0 the restricted proportions are the pooled one, so that the interval's
test at 0 is the z test itself: the two never disagree. (Newcombe's hybrid
interval, :func:`newcombe_interval`, can: it is built from two Wilson
intervals, not from the test.)
"""

from __future__ import annotations

import math

from ..compare.stats.core import two_sided_normal
from ..metrics.levels import check_level, normal_quantile
from ..metrics.proportion import wilson_interval
from ..words import general

__all__ = ["newcombe_interval", "score_interval", "two_proportion_test"]


def newcombe_interval(x1: float, n1: float, x2: float, n2: float, *,
                      level: float = 0.95) -> tuple[float, float] | None:
    """Newcombe's hybrid score interval of p2 - p1 (two independent samples).

    (p2 - p1 - sqrt((p2 - l2)^2 + (u1 - p1)^2), p2 - p1 + sqrt((u2 - p2)^2 +
    (p1 - l1)^2)) with (l, u) Wilson's interval of each proportion (Newcombe
    1998, method 10); None when a sample is empty. Not the interval of
    :func:`two_proportion_test` (see the module's docstring).

    >>> [round(v, 4) for v in newcombe_interval(30, 100, 45, 100)]
    [0.0159, 0.2768]
    """
    a, b = wilson_interval(x1, n1, level), wilson_interval(x2, n2, level)
    if a is None or b is None:
        return None
    p1, p2 = x1 / n1, x2 / n2
    d = p2 - p1
    return (float(d - math.hypot(p2 - b[0], a[1] - p1)), float(d + math.hypot(b[1] - p2, p1 - a[0])))


def _restricted(p1: float, n1: float, p2: float, n2: float, d: float) -> tuple[float, float]:
    """The maximum-likelihood (q1, q2) under q2 - q1 = d: the root in [0, 1] of
    Farrington & Manning's cubic, in the closed form of Miettinen & Nurminen
    (1985), written for the difference of the second sample from the first."""
    # in their notation: sample "1" is our second (p2), sample "2" our first, delta = d.
    # The cubic a q^3 + b q^2 + c q + e is divided through by a = 1 + n1/n2 first:
    # with r1 = n1/(n1+n2) and r2 = n2/(n1+n2) its coefficients stay within a few
    # units whatever the counts (a weighted count of 1e-281 made a**3 overflow).
    r1, r2 = n1 / (n1 + n2), n2 / (n1 + n2)
    b = -(r2 * (1.0 + p2 + 2.0 * d) + r1 * (1.0 + p1 + d))
    c = r2 * (d * d + d * (2.0 * p2 + 1.0) + p2) + r1 * (d + p1)
    e = -r2 * p2 * d * (1.0 + d)
    v = b ** 3 / 27.0 - b * c / 6.0 + e / 2.0
    u2 = b * b / 9.0 - c / 3.0
    if u2 <= 0.0:
        q2 = -b / 3.0
    else:
        u = math.copysign(math.sqrt(u2), v) if v != 0 else math.sqrt(u2)
        w = (math.pi + math.acos(max(-1.0, min(1.0, v / u ** 3)))) / 3.0
        q2 = 2.0 * u * math.cos(w) - b / 3.0
    q2 = min(1.0, max(0.0, q2))
    q1 = min(1.0, max(0.0, q2 - d))
    return q1, q2


def _score(p1, n1, p2, n2, d) -> float:
    """The score statistic of q2 - q1 = d: (p2 - p1 - d) / its restricted standard error."""
    q1, q2 = _restricted(p1, n1, p2, n2, d)
    num = p2 - p1 - d
    var = q1 * (1.0 - q1) / n1 + q2 * (1.0 - q2) / n2
    if var <= 0.0:
        return 0.0 if num == 0.0 else math.copysign(math.inf, num)
    return num / math.sqrt(var)


def _solve(f, lo: float, hi: float) -> float:
    """The root of the increasing-or-decreasing f on [lo, hi] (f(lo), f(hi) of
    opposite signs), by bisection to the last bit: no tolerance to choose."""
    flo = f(lo)
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        fm = f(mid)
        if (fm > 0) == (flo > 0):
            lo, flo = mid, fm
        else:
            hi = mid
    return 0.5 * (lo + hi)


def score_interval(x1: float, n1: float, x2: float, n2: float, *,
                   level: float = 0.95) -> tuple[float, float] | None:
    """The score interval of p2 - p1 that inverts the pooled z test (Mee 1984).

    The differences d in [-1, 1] whose score statistic (p2 - p1 - d) / sqrt(q1 (1 -
    q1) / n1 + q2 (1 - q2) / n2), with (q1, q2) the maximum-likelihood proportions
    under q2 - q1 = d, lies within -/+ z_{(1+level)/2}. None when a sample is empty.

    >>> [round(v, 4) for v in score_interval(30, 100, 45, 100)]
    [0.0159, 0.2792]
    """
    level = check_level(level)
    if n1 <= 0 or n2 <= 0:
        return None
    p1, p2 = x1 / n1, x2 / n2
    d = p2 - p1
    z = normal_quantile(level)

    def f(delta):
        return _score(p1, n1, p2, n2, delta)

    # the statistic falls as d rises: it is 0 at the estimate, +z at the lower end, -z at the upper
    lo = -1.0 if f(-1.0) <= z else _solve(lambda t: f(t) - z, -1.0, d)
    hi = 1.0 if f(1.0) >= -z else _solve(lambda t: f(t) + z, d, 1.0)
    return float(lo), float(hi)


def two_proportion_test(x1: float, n1: float, x2: float, n2: float, *, level: float = 0.95) -> dict:
    """The two-proportion z test of p1 == p2 and the score interval of p2 - p1.

    z = (p2 - p1) / sqrt(p (1 - p) (1/n1 + 1/n2)) with the pooled proportion
    p = (x1 + x2) / (n1 + n2); the p-value is two-sided, from the normal law.
    The interval is :func:`score_interval`'s, which inverts this test: it
    excludes 0 exactly when p < 1 - level. Weighted counts are used as counts.

    Parameters
    ----------
    x1, n1 : float
        Successes and trials of the previous run.
    x2, n2 : float
        The same for the current run.
    level : float, default 0.95
        Level of the interval.

    Returns
    -------
    dict
        ``previous``, ``current``, ``change`` (p2 - p1), ``z``, ``p_value``,
        ``interval`` (a list) and ``note``: None where undefined (an empty
        sample; both proportions 0 or both 1, which leaves no variance), with
        ``note`` saying why.

    Examples
    --------
    >>> t = two_proportion_test(30, 100, 45, 100)
    >>> round(t["change"], 2), round(t["z"], 3), round(t["p_value"], 4)
    (0.15, 2.191, 0.0285)
    >>> two_proportion_test(0, 10, 0, 12)["note"]
    'both runs have the proportion 0: no variance, no test'
    """
    level = check_level(level)
    out = {"previous": None, "current": None, "change": None, "z": None, "p_value": None,
           "interval": None, "note": None}
    if n1 <= 0 or n2 <= 0:
        which = "previous" if n1 <= 0 else "current"
        out["note"] = f"the proportion is undefined in the {which} run (no trials: 0 / 0)"
        if n1 > 0:
            out["previous"] = x1 / n1
        if n2 > 0:
            out["current"] = x2 / n2
        return out
    p1, p2 = x1 / n1, x2 / n2
    out.update(previous=float(p1), current=float(p2), change=float(p2 - p1))
    out["interval"] = list(score_interval(x1, n1, x2, n2, level=level))
    pooled = (x1 + x2) / (n1 + n2)
    var = pooled * (1 - pooled) * (1 / n1 + 1 / n2)
    if var <= 0:
        out["note"] = f"both runs have the proportion {general(pooled)}: no variance, no test"
        return out
    z = (p2 - p1) / math.sqrt(var)
    out.update(z=float(z), p_value=two_sided_normal(z))
    return out
