"""Wilson's score interval of a proportion: the one interval of a share that the
reliability bins (metrics.calibration) and the slices' rates (metrics.slices) give."""

from __future__ import annotations

import math

from .levels import check_level as _check_level
from .levels import normal_quantile as _z

__all__ = ["wilson_interval", "PROPORTIONS", "proportion_intervals"]


def wilson_interval(successes: float, n: float, level: float = 0.95) -> tuple[float, float] | None:
    """Wilson's score interval of the proportion successes / n (None when n = 0);
    the ends are exactly 0 and 1 when nothing or everything succeeds, as scipy's
    ``binomtest(...).proportion_ci(method="wilson")`` gives them.

    >>> [round(x, 4) for x in wilson_interval(3, 10)]
    [0.1078, 0.6032]
    """
    level = _check_level(level)
    if n <= 0:
        return None
    z = _z(level)
    p = successes / n
    z2n = z * z / n
    centre = (p + z2n / 2) / (1 + z2n)
    half = z / (1 + z2n) * math.sqrt(max(p * (1 - p) / n + z2n / (4 * n), 0.0))
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return float(low), float(high)


#: registry name -> the columns of (TP, FP, TN, FN) counting its successes and its trials:
#: the proportions of a confusion matrix, each given Wilson's interval
PROPORTIONS = {
    "accuracy": ((0, 2), (0, 1, 2, 3)), "error_rate": ((1, 3), (0, 1, 2, 3)),
    "precision": ((0,), (0, 1)), "recall": ((0,), (0, 3)), "specificity": ((2,), (1, 2)),
    "npv": ((2,), (2, 3)), "fpr": ((1,), (1, 2)), "fnr": ((3,), (0, 3)),
    "selection_rate": ((0, 1), (0, 1, 2, 3)),
}


def proportion_intervals(counts, level: float) -> dict[str, tuple[float, float] | None]:
    """Wilson's interval of each proportion of one (TP, FP, TN, FN) (unweighted), None
    where it has no trials.

    >>> [round(x, 4) for x in proportion_intervals([3, 1, 5, 7], 0.95)["recall"]]
    [0.1078, 0.6032]
    """
    c = [float(x) for x in counts]
    return {name: wilson_interval(sum(c[i] for i in hits), sum(c[i] for i in trials), level)
            for name, (hits, trials) in PROPORTIONS.items()}
