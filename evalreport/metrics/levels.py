"""A confidence level checked, and the normal quantile of a two-sided interval at
it: the one definition that the measures' intervals (metrics) and the tests
(compare.stats) share, kept in the lower layer so that metrics imports nothing
from compare."""

from __future__ import annotations

__all__ = ["check_level", "normal_quantile"]


def check_level(level: float) -> float:
    """``level`` as a float, or ValueError unless 0 < level < 1."""
    level = float(level)
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must be in (0, 1), got {level!r}")
    return level


def normal_quantile(level: float) -> float:
    """z with P(|Z| <= z) = level for a standard normal Z: norm.ppf(0.5 + level/2).

    The standard library's inverse normal CDF (Wichura's AS 241, relative error
    about 1e-16: within a few ulp of scipy.special.ndtri, tests/test_levels.py),
    not scipy's: importing scipy.special costs about 0.2 s of CPU (it imports
    numpy.f2py through its array-API layer), which a notebook's first call paid
    for the reliability bins' Wilson intervals alone (issue 38)."""
    from statistics import NormalDist

    p = 0.5 + level / 2.0
    if p >= 1.0:  # a level within an ulp of 1: ndtri's infinity (inv_cdf refuses 1)
        return float("inf")
    return NormalDist().inv_cdf(p)
