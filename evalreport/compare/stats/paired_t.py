"""The k-fold cross-validated paired t-test (Zhou 2.4.2)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ...metrics.levels import check_level
from .core import scipy_special
from ...words import general

__all__ = ["PairedT", "paired_t_test"]


@dataclass(frozen=True)
class PairedT:
    """The k-fold cross-validated paired t-test (Zhou 2.4.2).

    Attributes
    ----------
    mean_difference : float
        mean of errors_a - errors_b over the folds.
    t : float or None
        sqrt(k) * mean / sd (signed; Zhou's tau_t is its absolute value);
        None when every fold gives the same difference.
    dof : int
        k - 1.
    p_value : float
        Two-sided, from t(k - 1).
    ci : (float, float)
        Interval of the mean difference at ``level``.
    level : float
    note : str or None
    """

    mean_difference: float
    t: float | None
    dof: int
    p_value: float
    ci: tuple[float, float]
    level: float
    note: str | None = None


def paired_t_test(errors_a, errors_b, *, level: float = 0.95) -> PairedT:
    """Paired t-test on two learners' per-fold error rates (Zhou 2.4.2).

    Delta_i = errors_a[i] - errors_b[i]; tau_t = sqrt(k) mu / sigma with
    sigma the sample standard deviation (ddof = 1), against t(k - 1).
    Same statistic as :func:`scipy.stats.ttest_rel`.

    Parameters
    ----------
    errors_a, errors_b : array-like of shape (k,)
        Error rates (or any paired measure) of the two learners on the same
        k folds, k >= 2.
    level : float, default 0.95

    Returns
    -------
    PairedT

    Notes
    -----
    The folds' training sets overlap, so the differences are not independent
    and the test is optimistic (Zhou suggests 5x2 cross-validation).

    Examples
    --------
    >>> r = paired_t_test([0.10, 0.12, 0.09, 0.11, 0.13], [0.12, 0.15, 0.10, 0.12, 0.16])
    >>> round(r.mean_difference, 4), round(r.t, 3), r.dof, round(r.p_value, 4)
    (-0.02, -4.472, 4, 0.0111)
    """
    level = check_level(level)
    a = np.asarray(errors_a, dtype=np.float64)
    b = np.asarray(errors_b, dtype=np.float64)
    if a.ndim != 1 or a.shape != b.shape:
        raise ValueError(
            f"errors_a and errors_b must be 1-D of one length (got shapes {a.shape} and {b.shape})"
        )
    k = a.size
    if k < 2:
        raise ValueError(f"the paired t-test needs at least 2 folds, got {k}")
    if not (np.isfinite(a).all() and np.isfinite(b).all()):
        raise ValueError("errors_a and errors_b must be finite")
    d = a - b
    mu = float(d.mean())
    sd = float(d.std(ddof=1))
    dof = k - 1
    if sd == 0.0:
        if mu == 0.0:
            note = "every fold gives the same error for both learners: no difference, p = 1"
            return PairedT(mu, None, dof, 1.0, (mu, mu), level, note)
        note = (
            f"every fold gives the same nonzero difference ({general(mu)}): t is infinite, p = 0"
        )
        return PairedT(mu, None, dof, 0.0, (mu, mu), level, note)
    se = sd / math.sqrt(k)
    t = mu / se
    p = float(2.0 * scipy_special().stdtr(dof, -abs(t)))  # 2 t.sf(|t|)
    half = float(scipy_special().stdtrit(dof, 0.5 + level / 2.0)) * se  # t.ppf
    return PairedT(mu, t, dof, p, (mu - half, mu + half), level)
