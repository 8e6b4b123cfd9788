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
    scipy.special, not scipy.stats: it imports in a fraction of the time."""
    import scipy.special

    return float(scipy.special.ndtri(0.5 + level / 2.0))
