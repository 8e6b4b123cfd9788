"""The shared core of the tests of significance: input checks and the normal law.

Every test checks its inputs the same way (labels booleans or 0/1, scores finite
and of the labels' length, a level in (0, 1)) and reads its reference
distribution from :mod:`scipy.special`, imported only when a test needs it (the
normal law and the chi-square of one degree of freedom come from :mod:`math`).
"""

from __future__ import annotations

import math

import numpy as np

_SQRT1_2 = math.sqrt(0.5)


def as_bool_labels(y, name="y_true_bool") -> np.ndarray:
    """``y`` as one-dimensional booleans (booleans or 0/1 taken; else a ValueError naming ``name``)."""
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


def as_scores(s, n: int, name: str) -> np.ndarray:
    """``s`` as ``n`` finite float64 scores (else a ValueError naming ``name``)."""
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


def scipy_special():
    """The :mod:`scipy.special` module, imported on first use."""
    # scipy.special holds the distribution functions that scipy.stats' norm,
    # t, chi2 and f call; importing it instead of scipy.stats saves about a
    # second of start-up, and only runs that test something import it at all.
    import scipy.special

    return scipy.special


def ndtr(x: float) -> float:
    """The standard normal CDF, Phi(x), from the C library's erf and erfc (:mod:`math`)
    as Cephes' ndtr (scipy.special.ndtr) forms it: erf near 0, erfc in the tails (a
    tail probability keeps its relative precision). Within a few ulp of scipy's
    (tests/test_levels.py); no scipy.special import, about 0.2 s of CPU, for the
    tests every run of two learners makes (DeLong's, issue 38)."""
    x = float(x)
    if math.isnan(x):
        return math.nan
    z = x * _SQRT1_2
    if abs(z) < _SQRT1_2:
        return 0.5 + 0.5 * math.erf(z)
    y = 0.5 * math.erfc(abs(z))
    return 1.0 - y if z > 0 else y


def chi2_sf_df1(x: float) -> float:
    """P(X >= x) for X chi-square with one degree of freedom (scipy.special.chdtrc(1, x)):
    erfc(sqrt(x / 2)); NaN for x < 0, as scipy's (McNemar's test; see :func:`ndtr`)."""
    x = float(x)
    if math.isnan(x) or x < 0:
        return math.nan
    return math.erfc(math.sqrt(x / 2.0))


def two_sided_normal(z: float) -> float:
    """The two-sided p-value of a standard normal statistic ``z``."""
    return float(2.0 * ndtr(-abs(z)))  # 2 norm.sf(|z|)


def auc_classes(y, scores, name="scores"):
    """(labels, scores, positives, negatives), checked; a ValueError unless both classes are present."""
    y = as_bool_labels(y)
    s = as_scores(scores, y.shape[0], name)
    m = int(np.count_nonzero(y))
    n = y.size - m
    if m == 0 or n == 0:
        missing = "positives" if m == 0 else "negatives"
        raise ValueError(f"the AUC needs both classes: y_true_bool has no {missing}")
    return y, s, m, n
