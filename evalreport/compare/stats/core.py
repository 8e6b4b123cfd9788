"""The shared core of the tests of significance: input checks and the normal law.

Every test checks its inputs the same way (labels booleans or 0/1, scores finite
and of the labels' length, a level in (0, 1)) and reads its reference
distribution from :mod:`scipy.special`, imported only when a test runs.
"""

from __future__ import annotations

import numpy as np

from ...metrics.levels import check_level as _check_level
from ...metrics.levels import normal_quantile as _z


def _as_bool(y, name="y_true_bool") -> np.ndarray:
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional (got shape {y.shape})")
    if y.dtype == bool:
        return y
    if y.dtype.kind not in "biuf":
        raise ValueError(f"{name} must be booleans or 0/1 (dtype {y.dtype})")
    bad = (y != 0) & (y != 1)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{name} must be booleans or 0/1; index {i} holds {y[i].item()!r}")
    return y == 1


def _as_scores(s, n: int, name: str) -> np.ndarray:
    s = np.asarray(s)
    if s.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional (got shape {s.shape})")
    if s.shape[0] != n:
        raise ValueError(f"{name} has length {s.shape[0]}, the labels have {n}")
    if s.dtype.kind not in "biuf":
        raise ValueError(f"{name} must be numeric (dtype {s.dtype})")
    s = s.astype(np.float64, copy=False)
    finite = np.isfinite(s)
    if not finite.all():
        i = int(np.flatnonzero(~finite)[0])
        raise ValueError(f"{name} has a non-finite value ({s[i]!r}) at index {i}")
    return s


def _special():
    # scipy.special holds the distribution functions that scipy.stats' norm,
    # t, chi2 and f call; importing it instead of scipy.stats saves about a
    # second of start-up, and only runs that test something import it at all.
    import scipy.special

    return scipy.special


def _two_sided_normal(z: float) -> float:
    return float(2.0 * _special().ndtr(-abs(z)))  # 2 norm.sf(|z|)


def _classes(y, scores, name="scores"):
    y = _as_bool(y)
    s = _as_scores(scores, y.shape[0], name)
    m = int(np.count_nonzero(y))
    n = y.size - m
    if m == 0 or n == 0:
        missing = "positives" if m == 0 else "negatives"
        raise ValueError(f"the AUC needs both classes: y_true_bool has no {missing}")
    return y, s, m, n
