"""Friedman's test and the Nemenyi critical difference over several data sets
(Zhou 2.4.4, Demšar 2006)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .core import scipy_special

__all__ = ["MIN_DATASETS", "Friedman", "friedman_nemenyi", "nemenyi_q"]

#: Fewer data sets than this are too few for Friedman's test to say anything about
#: the ranks: its chi-squared and F laws are approximations for many data sets
#: (Demšar 2006 recommends N > 10), and with N = 2 or 3 the ranks of a few
#: learners take a handful of values. The statistic is still computed, flagged.
MIN_DATASETS = 5


def nemenyi_q(k: int, alpha: float = 0.05) -> float:
    """Nemenyi's q_alpha: the studentized range quantile over sqrt(2).

    Demšar (2006), Table 5(a); Zhou's Table 2.7.

    Examples
    --------
    >>> [round(nemenyi_q(k), 3) for k in (2, 3, 4, 10)]
    [1.96, 2.344, 2.569, 3.164]
    """
    if int(k) != k or k < 2:
        raise ValueError(f"k (number of learners) must be an integer >= 2, got {k!r}")
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
    from scipy.stats import studentized_range

    return float(studentized_range.ppf(1.0 - alpha, int(k), np.inf) / math.sqrt(2.0))


@dataclass(frozen=True)
class Friedman:
    """Friedman's test and the Nemenyi post-hoc critical difference.

    Attributes
    ----------
    average_ranks : tuple of float
        Per learner (columns of the table), 1 = best.
    chi2 : float
        tau_chi2 = 12N/(k(k+1)) (sum r_i^2 - k(k+1)^2/4) / C, where
        C = 1 - sum_ties (t^3 - t) / (N (k^3 - k)) corrects for the ties in
        the ranks (each group of t tied learners on a data set; scipy's
        ``friedmanchisquare``); C = 1 without ties (Zhou's eq. 2.34).
        With ties, tau_chi2 is (k - 1) times the ranks' between-learner sum
        of squares over their total one, so that tau_F below is exactly the
        two-way analysis of variance of the ranks (Iman & Davenport).
    p_value_chi2 : float
        Upper tail of chi-square with k - 1 degrees of freedom.
    f_statistic : float or None
        tau_F = (N-1) tau_chi2 / (N(k-1) - tau_chi2) (Iman & Davenport);
        None when the denominator is 0 (every data set ranks the learners in
        the same order) or N = 1.
    p_value_f : float or None
        Upper tail of F(k-1, (k-1)(N-1)).
    critical_difference : float
        CD = q_alpha sqrt(k(k+1)/(6N)), on the average ranks (ties averaged),
        as in Demšar (2006); the tie correction does not enter it.
    q_alpha : float
    alpha : float
    n_datasets, n_learners : int
    ranks : tuple of tuple of float
        The rank of each learner on each data set (rows = data sets).
    significant_pairs : tuple of (int, int)
        Column index pairs (i, j), i < j, whose average ranks differ by more
        than the CD.
    note : str or None
    too_few_datasets : bool
        Fewer than :data:`MIN_DATASETS` data sets: no claim about the ranks
        (no critical-difference diagram, no sentence), the statistic kept.
    identical_ranks : bool
        Every data set ranks the learners in the same order, without ties:
        tau_F is infinite and its p-value 0 in the limit (printed p < 0.001).
    """

    average_ranks: tuple[float, ...]
    chi2: float
    p_value_chi2: float
    f_statistic: float | None
    p_value_f: float | None
    critical_difference: float
    q_alpha: float
    alpha: float
    n_datasets: int
    n_learners: int
    ranks: tuple[tuple[float, ...], ...]
    significant_pairs: tuple[tuple[int, int], ...]
    note: str | None = None
    too_few_datasets: bool = False
    identical_ranks: bool = False


def _ranks_best_first(table: np.ndarray, higher_is_better: bool) -> np.ndarray:
    """Rank each row, 1 = best, ties sharing the average of their ranks."""
    if not higher_is_better:
        table = -table
    col = table[:, :, None]
    row = table[:, None, :]
    better = np.count_nonzero(row > col, axis=2)  # learners strictly better than each
    equal = np.count_nonzero(row == col, axis=2)  # including itself
    return better + (equal + 1) / 2.0


def _tie_sum(ranks: np.ndarray) -> float:
    """sum over data sets and groups of t tied ranks of t^3 - t (0 without ties)."""
    total = 0
    for row in ranks:
        _, counts = np.unique(row, return_counts=True)
        total += int(np.sum(counts ** 3 - counts))
    return float(total)


def _checked_table(ranks_table) -> np.ndarray:
    """The table as float64, or ValueError: not 2-D, fewer than 1 data set or 2
    learners, a value not finite."""
    t = np.asarray(ranks_table, dtype=np.float64)
    if t.ndim != 2:
        raise ValueError(f"the table must be 2-D (data sets x learners), got shape {t.shape}")
    N, k = t.shape
    if N < 1 or k < 2:
        raise ValueError(f"the table needs at least 1 data set and 2 learners, got shape {t.shape}")
    if not np.isfinite(t).all():
        i, j = map(int, np.argwhere(~np.isfinite(t))[0])
        raise ValueError(f"the table has a non-finite value at data set {i}, learner {j}")
    return t


def _tau_f(chi2: float, N: int, k: int):
    """(tau_F, its p-value, a note or None): Iman and Davenport's F form of the
    statistic; None with fewer than 2 data sets, infinite (p-value 0) when the
    ranks are the same on every data set."""
    den = N * (k - 1) - chi2
    if N < 2:
        return None, None, "tau_F needs at least 2 data sets"
    if den <= 1e-12 * N * (k - 1):
        # the limit of the F law's tail as tau_F grows without bound
        return None, 0.0, ("the ranks are identical on every data set: tau_F is infinite and its p-value "
                           "below any level (p < 0.001)")
    f = float((N - 1) * chi2 / den)
    return f, float(scipy_special().fdtrc(k - 1, (k - 1) * (N - 1), f)), None


def friedman_nemenyi(
    ranks_table, *, alpha: float = 0.05, higher_is_better: bool = True
) -> Friedman:
    """Friedman's test with the Nemenyi critical difference (Zhou 2.4.4).

    Parameters
    ----------
    ranks_table : array-like of shape (N, k)
        One row per data set, one column per learner: a performance measure
        (higher is better unless ``higher_is_better=False``, e.g. for error
        rates). It is ranked per data set, 1 = best, ties averaged; a table
        of ranks with ``higher_is_better=False`` is therefore returned as is.
    alpha : float, default 0.05
        Significance level of the Nemenyi test.
    higher_is_better : bool, default True

    Returns
    -------
    Friedman

    Examples
    --------
    Zhou's Table 2.5 (ranks of A, B, C on D1..D4):

    >>> r = friedman_nemenyi([[1, 2, 3], [1, 2.5, 2.5], [1, 2, 3], [1, 2, 3]],
    ...                      higher_is_better=False)
    >>> r.average_ranks, round(r.chi2, 3), round(r.critical_difference, 3)
    ((1.0, 2.125, 2.875), 7.6, 1.657)

    (the book's tau_F = 24.429 is from 7.125, the statistic without the
    correction for D2's tie; corrected, tau_F = 3 * 7.6 / (8 - 7.6) = 57).
    >>> r.significant_pairs
    ((0, 2),)
    >>> r.too_few_datasets  # 4 data sets: the statistic, no claim about the ranks
    True
    """
    t = _checked_table(ranks_table)
    N, k = t.shape
    ranks = _ranks_best_first(t, higher_is_better)
    r = ranks.mean(axis=0)
    chi2 = float(12.0 * N / (k * (k + 1)) * (np.sum(r * r) - k * (k + 1) ** 2 / 4.0))
    chi2 = max(chi2, 0.0)  # rounding when every average rank is (k + 1) / 2
    correction = 1.0 - _tie_sum(ranks) / (N * (k ** 3 - k))
    note = None
    if correction <= 1e-12:
        # every data set ties every learner: no evidence of a difference (0/0 otherwise)
        chi2 = 0.0
        note = "every data set ties every learner: no evidence of a difference"
    else:
        chi2 = chi2 / correction
    p_chi2 = float(scipy_special().chdtrc(k - 1, chi2))
    f, p_f, f_note = _tau_f(chi2, N, k)
    note = f_note or note
    q = nemenyi_q(k, alpha)
    cd = q * math.sqrt(k * (k + 1) / (6.0 * N))
    pairs = tuple(
        (i, j) for i in range(k) for j in range(i + 1, k) if abs(r[i] - r[j]) > cd
    )
    return Friedman(
        average_ranks=tuple(float(v) for v in r),
        chi2=chi2,
        p_value_chi2=p_chi2,
        f_statistic=f,
        p_value_f=p_f,
        critical_difference=float(cd),
        q_alpha=q,
        alpha=float(alpha),
        n_datasets=int(N),
        n_learners=int(k),
        ranks=tuple(tuple(float(v) for v in row) for row in ranks),
        significant_pairs=pairs,
        note=note,
        too_few_datasets=N < MIN_DATASETS,
        identical_ranks=f is None and p_f == 0.0,
    )
