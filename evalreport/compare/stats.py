"""Tests of significance for comparing learners (Zhou, section 2.4; pROC).

Pure functions over arrays: no I/O, no spec objects. Each returns a frozen
dataclass; a value that cannot be computed is ``None`` and ``note`` says why
(never a silent 0 or NaN). SciPy is used for the reference distributions only
(normal, t, chi-square, F, studentized range); every statistic is computed here.

* :func:`delong_auc`: DeLong's standard error and interval of one AUC.
* :func:`delong_paired`: DeLong's test of two AUCs on the same instances.
* :func:`delong_unpaired`: the same for two learners on different data sets.
* :func:`mcnemar`: McNemar's test on paired decisions (Zhou eq. 2.33).
* :func:`paired_t_test`: the k-fold cross-validated paired t-test (Zhou 2.4.2).
* :func:`friedman_nemenyi`: Friedman's test and the Nemenyi critical difference
  over several data sets (Zhou 2.4.4, Demšar 2006).
* :func:`bootstrap_intervals`: seeded, stratified percentile bootstrap of any
  measure the engine computes (BEP, AP, expected total cost, F1 at a threshold).

DeLong's variance, and why it is O(n log n) (Sun & Xu 2014)
-------------------------------------------------------------
With m positives (scores X_i) and n negatives (Y_j), let psi(x, y) = 1 if
x > y, 1/2 if x == y, 0 otherwise. The structural components are

    V10_i = (1/n) sum_j psi(X_i, Y_j)   (per positive),
    V01_j = (1/m) sum_i psi(X_i, Y_j)   (per negative),

the AUC is their common mean, and DeLong's variance is
var(V10)/m + var(V01)/n (sample variances, ddof = 1, as in pROC). Sun & Xu
obtain them from midranks: with T_Z the midrank of a score among all scores
and T_X, T_Y its midrank within its own class, V10_i = (T_Z - T_X)/n and
V01_j = 1 - (T_Z - T_Y)/m. T_Z - T_X is just "negatives below, ties counting
1/2", so here it is read off one sort of the negatives by two binary searches
(``side='left'`` and ``'right'``: (left + right)/2 = below + ties/2), and
likewise for the negatives against the sorted positives. The queries are
themselves sorted, which keeps the searches cache-friendly: about 0.15 s for
10^6 scores for one AUC and 0.4 s for a paired test, where the components
must be aligned per instance (from 2^15 scores, one packed sort of all the
scores: :mod:`evalreport.metrics.order`; below that, an ``argsort``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Mapping, NamedTuple

import numpy as np

from ..metrics.binary import BinaryEvaluation, evaluate_counts
from ..metrics.order import SMALL, argsort_scores, runs_of_pairs
from ..metrics.counts import CountTable

__all__ = [
    "AucInterval",
    "BootstrapInterval",
    "DelongTest",
    "Friedman",
    "McNemar",
    "PairedT",
    "StructuralComponents",
    "auc_score",
    "average_precision_score",
    "bep_score",
    "bootstrap_intervals",
    "delong_auc",
    "delong_paired",
    "delong_unpaired",
    "expected_total_cost",
    "f1_at",
    "friedman_nemenyi",
    "mcnemar",
    "nemenyi_q",
    "paired_t_test",
    "structural_components",
]


# --------------------------------------------------------------------------
# validation
# --------------------------------------------------------------------------


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


def _check_level(level: float) -> float:
    level = float(level)
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must be in (0, 1), got {level!r}")
    return level


def _special():
    # scipy.special holds the distribution functions that scipy.stats' norm,
    # t, chi2 and f call; importing it instead of scipy.stats saves about a
    # second of start-up, and only runs that test something import it at all.
    import scipy.special

    return scipy.special


def _z(level: float) -> float:
    return float(_special().ndtri(0.5 + level / 2.0))  # norm.ppf


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


# --------------------------------------------------------------------------
# DeLong
# --------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class StructuralComponents:
    """DeLong's structural components of one AUC.

    Attributes
    ----------
    auc : float
        The AUC (Mann-Whitney, ties 1/2), the mean of ``v10`` and of ``v01``.
    v10 : ndarray, shape (m,)
        Per positive, in input order: share of negatives scoring lower, ties 1/2.
    v01 : ndarray, shape (n,)
        Per negative, in input order: share of positives scoring higher, ties 1/2.
    """

    auc: float
    v10: np.ndarray
    v01: np.ndarray


def _half_counts_below(sorted_ref: np.ndarray, sorted_queries: np.ndarray) -> np.ndarray:
    """2 x (reference values < q) + (reference values == q), for each query.

    Doubled so that it stays an exact integer; queries sorted (cache-friendly).
    """
    below = np.searchsorted(sorted_ref, sorted_queries, side="left")
    below += np.searchsorted(sorted_ref, sorted_queries, side="right")
    return below


def _components(y, s, m, n, *, aligned: bool):
    """(auc, v10, v01); in input order when ``aligned``, else in sorted order."""
    if aligned and s.size >= SMALL:
        return _components_one_order(y, s, m, n)
    x = np.compress(y, s)
    z = np.compress(~y, s)
    if aligned:
        ox = np.argsort(x)  # tied scores get equal components: any order will do
        oz = np.argsort(z)
        xs, zs = x[ox], z[oz]
    else:
        xs, zs = np.sort(x), np.sort(z)
    twice_x = _half_counts_below(zs, xs)  # 2 * (negatives below + ties / 2)
    twice_z = _half_counts_below(xs, zs)  # 2 * (positives below + ties / 2)
    auc = float(int(twice_x.sum(dtype=np.int64)) / (2.0 * m * n))
    v10 = twice_x / (2.0 * n)
    v01 = 1.0 - twice_z / (2.0 * m)
    if aligned:
        a = np.empty_like(v10)
        a[ox] = v10
        b = np.empty_like(v01)
        b[oz] = v01
        v10, v01 = a, b
    return auc, v10, v01


def _components_one_order(y, s, m, n):
    """:func:`_components` in input order, from one ordering of all the scores.

    With the instances in ascending score order (``argsort_scores``, a sort
    of packed keys rather than NumPy's slower ``argsort``), the negatives
    below each position are a running count; a positive's doubled component
    is twice the negatives below it plus the negatives tied with it, and a
    negative's is the same with the positives. One scatter puts them back in
    input order. The same integers as the two-sorts-and-searches road.
    """
    order, ties = argsort_scores(s)
    ys = y[order]
    neg_upto = np.cumsum(~ys, dtype=np.int64)  # negatives at or before each position
    twice = np.arange(1, s.size + 1, dtype=np.int64)
    twice -= neg_upto  # positives at or before each position
    np.copyto(twice, neg_upto, where=ys)  # a positive counts negatives, a negative positives
    twice *= 2  # untied: twice the other class strictly below
    if ties.size:
        _tied_runs(twice, ys, neg_upto, ties)
    del neg_upto
    full = np.empty_like(twice)
    full[order] = twice
    del twice, order
    twice_x = np.compress(y, full)
    twice_z = np.compress(~y, full)
    auc = float(int(twice_x.sum(dtype=np.int64)) / (2.0 * m * n))
    return auc, twice_x / (2.0 * n), 1.0 - twice_z / (2.0 * m)


def _tied_runs(twice, ys, neg_upto, ties) -> None:
    """Within each run of tied scores: twice the other class below the run, plus
    the other class inside it (each tie counts 1/2). In place."""
    first, last, sizes, at = runs_of_pairs(ties)  # runs [first, last]
    neg_below = np.where(first > 0, neg_upto[np.maximum(first - 1, 0)], 0)
    neg_in = neg_upto[last] - neg_below
    pos_below = first - neg_below
    pos_in = sizes - neg_in
    x = np.repeat(2 * neg_below + neg_in, sizes)  # for the run's positives
    z = np.repeat(2 * pos_below + pos_in, sizes)  # for its negatives
    twice[at] = np.where(ys[at], x, z)


def structural_components(y_true_bool, scores) -> StructuralComponents:
    """DeLong's structural components (placement values) of one AUC.

    Parameters
    ----------
    y_true_bool : array-like of shape (N,)
        True where the instance is positive (booleans or 0/1).
    scores : array-like of shape (N,)
        Finite scores, higher = more positive.

    Returns
    -------
    StructuralComponents
        ``v10`` for the positives and ``v01`` for the negatives, each in the
        order the instances come in (pROC's ``placements``: X and Y).

    Examples
    --------
    >>> c = structural_components([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1])
    >>> c.auc, c.v10.tolist(), c.v01.tolist()
    (0.875, [1.0, 0.75], [0.75, 1.0])
    """
    y, s, m, n = _classes(y_true_bool, scores)
    auc, v10, v01 = _components(y, s, m, n, aligned=True)
    return StructuralComponents(auc=auc, v10=v10, v01=v01)


def _variance(v10, v01, m, n):
    """DeLong's variance var(V10)/m + var(V01)/n, or None with m or n < 2."""
    if m < 2 or n < 2:
        return None
    return float(np.var(v10, ddof=1) / m + np.var(v01, ddof=1) / n)


def _too_few(m, n) -> str:
    return (
        f"DeLong's variance needs at least 2 positives and 2 negatives "
        f"(got {m} and {n})"
    )


@dataclass(frozen=True)
class AucInterval:
    """An AUC with DeLong's standard error and normal interval.

    Attributes
    ----------
    auc : float
    se : float or None
        sqrt(var(V10)/m + var(V01)/n); None with fewer than 2 of a class.
    ci : (float, float) or None
        auc -/+ z * se, clipped to [0, 1].
    level : float
    note : str or None
        Why ``se`` or ``ci`` is missing, or that the interval was clipped.
    """

    auc: float
    se: float | None
    ci: tuple[float, float] | None
    level: float
    note: str | None = None


def delong_auc(y_true_bool, scores, *, level: float = 0.95) -> AucInterval:
    """DeLong's confidence interval of one AUC (fast algorithm of Sun & Xu 2014).

    Parameters
    ----------
    y_true_bool : array-like of shape (N,)
        True where the instance is positive (booleans or 0/1).
    scores : array-like of shape (N,)
        Finite scores, higher = more positive. Ties count 1/2.
    level : float, default 0.95
        Confidence level of the two-sided interval.

    Returns
    -------
    AucInterval
        ``ci`` = AUC -/+ z_{(1+level)/2} * se, clipped to [0, 1] as pROC's
        ``ci.auc`` does (the normal approximation can overshoot near 0 or 1);
        ``note`` says when it was clipped.

    Raises
    ------
    ValueError
        One class missing, lengths differ, non-finite scores, labels not 0/1.

    Notes
    -----
    O(N log N): one sort per class and binary searches (module docstring).
    Sample weights are not supported.

    Examples
    --------
    >>> r = delong_auc([0, 0, 1, 0, 1, 1], [0.1, 0.4, 0.35, 0.2, 0.8, 0.9])
    >>> round(r.auc, 4), round(r.se, 4), tuple(round(v, 4) for v in r.ci)
    (0.8889, 0.1571, (0.5809, 1.0))
    """
    level = _check_level(level)
    y, s, m, n = _classes(y_true_bool, scores)
    auc, v10, v01 = _components(y, s, m, n, aligned=False)
    return _interval(auc, v10, v01, m, n, level)


def auc_interval(components: StructuralComponents, *, level: float = 0.95) -> AucInterval:
    """:func:`delong_auc` from a learner's structural components (computed once,
    shared with the paired tests).

    >>> c = structural_components([0, 0, 1, 0, 1, 1], [0.1, 0.4, 0.35, 0.2, 0.8, 0.9])
    >>> tuple(round(v, 4) for v in auc_interval(c).ci)
    (0.5809, 1.0)
    """
    level = _check_level(level)
    return _interval(components.auc, components.v10, components.v01,
                     components.v10.size, components.v01.size, level)


def _interval(auc, v10, v01, m, n, level) -> AucInterval:
    var = _variance(v10, v01, m, n)
    if var is None:
        return AucInterval(auc=auc, se=None, ci=None, level=level, note=_too_few(m, n))
    se = math.sqrt(var)
    half = _z(level) * se
    lo, hi = auc - half, auc + half
    note = None
    if lo < 0.0 or hi > 1.0:
        note = "the normal interval was clipped to [0, 1]"
    return AucInterval(
        auc=auc, se=se, ci=(max(lo, 0.0), min(hi, 1.0)), level=level, note=note
    )


@dataclass(frozen=True)
class DelongTest:
    """DeLong's test of H0: AUC_a == AUC_b (two-sided).

    Attributes
    ----------
    auc_a, auc_b : float
    difference : float
        auc_a - auc_b.
    se : float or None
        Standard error of the difference.
    z : float or None
        difference / se; None when se is 0 or undefined (see ``note``).
    p_value : float or None
        Two-sided, from the standard normal.
    ci : (float, float) or None
        difference -/+ z_{(1+level)/2} * se (not clipped).
    level : float
    paired : bool
    df : float or None
        Unpaired test only: the Welch-Satterthwaite degrees of freedom pROC
        uses for its p-value (``2 * t.sf(|z|, df)``); ``p_value`` here is the
        normal one of DeLong et al.
    note : str or None
    """

    auc_a: float
    auc_b: float
    difference: float
    se: float | None
    z: float | None
    p_value: float | None
    ci: tuple[float, float] | None
    level: float
    paired: bool
    df: float | None = None
    note: str | None = None


def _test_result(auc_a, auc_b, var, level, *, paired, df=None, note=None) -> DelongTest:
    d = auc_a - auc_b
    if var is None:
        return DelongTest(auc_a, auc_b, d, None, None, None, None, level, paired, df, note)
    var = max(var, 0.0)  # a difference of nearly equal terms can round below 0
    se = math.sqrt(var)
    if se == 0.0:
        if d == 0.0:
            note = (
                "the two learners have identical structural components (for instance "
                "identical predictions): the difference is 0 with no variance, p = 1"
            )
            return DelongTest(auc_a, auc_b, d, 0.0, None, 1.0, (d, d), level, paired, df, note)
        note = (
            f"the AUCs differ by {d:g} but DeLong's variance of the difference is 0 "
            "(each learner's structural components are constant): the normal "
            "approximation does not apply"
        )
        return DelongTest(auc_a, auc_b, d, 0.0, None, None, (d, d), level, paired, df, note)
    z = d / se
    half = _z(level) * se
    return DelongTest(
        auc_a, auc_b, d, se, z, _two_sided_normal(z), (d - half, d + half), level, paired, df, note
    )


def delong_paired(y_true_bool, scores_a, scores_b, *, level: float = 0.95) -> DelongTest:
    """DeLong's test between two learners scored on the same instances.

    z = (A - B) / sqrt(var A + var B - 2 cov(A, B)), where the covariance is
    that of the two learners' structural components, instance by instance
    (DeLong, DeLong & Clarke-Pearson 1988; pROC's ``roc.test(paired=TRUE)``).

    Parameters
    ----------
    y_true_bool : array-like of shape (N,)
        True where the instance is positive.
    scores_a, scores_b : array-like of shape (N,)
        The two learners' scores for the same instances, in the same order.
    level : float, default 0.95
        Confidence level of the interval of the difference.

    Returns
    -------
    DelongTest
        With ``paired=True``. Identical predictions give z None, p 1 and a note.

    Examples
    --------
    >>> y = [0, 0, 1, 0, 1, 1, 0, 1]
    >>> t = delong_paired(y, [.1, .4, .35, .2, .8, .9, .5, .7], [.2, .1, .3, .6, .5, .9, .4, .8])
    >>> round(t.difference, 4), round(t.z, 3), round(t.p_value, 3)
    (0.0625, 0.369, 0.712)
    >>> delong_paired(y, [1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 3, 4, 5, 6, 7, 8]).p_value
    1.0
    """
    level = _check_level(level)
    y, sa, m, n = _classes(y_true_bool, scores_a, "scores_a")
    sb = _as_scores(scores_b, y.size, "scores_b")
    auc_a, xa, ya = _components(y, sa, m, n, aligned=True)
    auc_b, xb, yb = _components(y, sb, m, n, aligned=True)
    if m < 2 or n < 2:
        return _test_result(auc_a, auc_b, None, level, paired=True, note=_too_few(m, n))
    # var(A - B) over the components directly: var A + var B - 2 cov(A, B)
    var = float(np.var(xa - xb, ddof=1) / m + np.var(ya - yb, ddof=1) / n)
    return _test_result(auc_a, auc_b, var, level, paired=True)


def delong_paired_components(a: StructuralComponents, b: StructuralComponents, *,
                              level: float = 0.95) -> DelongTest:
    """:func:`delong_paired` from each learner's structural components, computed
    once per learner (for many pairs: O(N) per pair instead of a sort).

    >>> y = [0, 0, 1, 0, 1, 1, 0, 1]
    >>> a = structural_components(y, [.1, .4, .35, .2, .8, .9, .5, .7])
    >>> b = structural_components(y, [.2, .1, .3, .6, .5, .9, .4, .8])
    >>> round(delong_paired_components(a, b).z, 3)
    0.369
    """
    level = _check_level(level)
    m, n = a.v10.size, a.v01.size
    if (m, n) != (b.v10.size, b.v01.size):
        raise ValueError("the two learners' components come from different instances")
    if m < 2 or n < 2:
        return _test_result(a.auc, b.auc, None, level, paired=True, note=_too_few(m, n))
    var = float(np.var(a.v10 - b.v10, ddof=1) / m + np.var(a.v01 - b.v01, ddof=1) / n)
    return _test_result(a.auc, b.auc, var, level, paired=True)


def delong_unpaired(
    y_true_a, scores_a, y_true_b, scores_b, *, level: float = 0.95
) -> DelongTest:
    """DeLong's test between two learners scored on different data sets.

    z = (A - B) / sqrt(var A + var B): the two AUCs are independent.

    Parameters
    ----------
    y_true_a, scores_a : array-like
        Labels (True = positive) and scores of learner A's data set.
    y_true_b, scores_b : array-like
        The same for learner B (any size).
    level : float, default 0.95

    Returns
    -------
    DelongTest
        With ``paired=False``; ``p_value`` from the standard normal. ``df`` is
        the Welch-Satterthwaite degrees of freedom with which pROC turns the
        same statistic (its "D") into a t p-value.

    Examples
    --------
    >>> t = delong_unpaired([0, 1, 0, 1, 1, 0], [.2, .9, .4, .6, .3, .1],
    ...                     [1, 0, 0, 1, 0, 1, 0], [.7, .3, .6, .8, .2, .5, .4])
    >>> round(t.difference, 4), round(t.z, 3), round(t.p_value, 3)
    (-0.0278, -0.141, 0.888)
    """
    level = _check_level(level)
    ya, sa, ma, na = _classes(y_true_a, scores_a, "scores_a")
    yb, sb, mb, nb = _classes(y_true_b, scores_b, "scores_b")
    auc_a, xa, za = _components(ya, sa, ma, na, aligned=False)
    auc_b, xb, zb = _components(yb, sb, mb, nb, aligned=False)
    var_a = _variance(xa, za, ma, na)
    var_b = _variance(xb, zb, mb, nb)
    if var_a is None or var_b is None:
        note = _too_few(*((ma, na) if var_a is None else (mb, nb)))
        return _test_result(auc_a, auc_b, None, level, paired=False, note=note)
    total = var_a + var_b
    df = None
    if total > 0:
        df = total**2 / (var_a**2 / (ma + na - 1) + var_b**2 / (mb + nb - 1))
    return _test_result(auc_a, auc_b, total, level, paired=False, df=df)


# --------------------------------------------------------------------------
# McNemar
# --------------------------------------------------------------------------


#: McNemar: fewer disagreements than this get the exact binomial p-value as well
EXACT_BELOW = 25


@dataclass(frozen=True)
class McNemar:
    """McNemar's test on two learners' decisions about the same instances.

    Zhou's Table 2.4 (rows: learner B, columns: learner A; index 0 = correct,
    1 = wrong), so that

    * ``e01``: instances A got wrong and B got right;
    * ``e10``: instances A got right and B got wrong;
    * ``e00``: both right; ``e11``: both wrong.

    The statistic is symmetric in e01 and e10, so only the labels depend on
    this convention.

    Attributes
    ----------
    e01, e10 : int
    statistic : float or None
        (|e01 - e10| - 1)^2 / (e01 + e10) (Zhou eq. 2.33, continuity
        corrected); None when the learners never disagree.
    p_value : float
        Upper tail of chi-square with 1 degree of freedom (1.0 without
        disagreements).
    e00, e11 : int
    note : str or None
    p_value_exact : float or None
        With fewer than 25 disagreements (where the chi-square approximation
        is rough), the exact two-sided binomial p-value: twice the smaller
        tail of Binomial(e01 + e10, 1/2), at most 1 (statsmodels'
        ``mcnemar(exact=True)``); None otherwise.
    """

    e01: int
    e10: int
    statistic: float | None
    p_value: float
    e00: int = 0
    e11: int = 0
    note: str | None = None
    p_value_exact: float | None = None


def mcnemar(y_true_bool, pred_a_bool, pred_b_bool) -> McNemar:
    """McNemar's test, continuity corrected (Zhou eq. 2.33).

    Parameters
    ----------
    y_true_bool : array-like of shape (N,)
        True where the instance is positive.
    pred_a_bool, pred_b_bool : array-like of shape (N,)
        The two learners' decisions (True = predicted positive), e.g.
        ``scores >= threshold``.

    Returns
    -------
    McNemar
        ``e01`` = A wrong and B right, ``e10`` = A right and B wrong.

    Examples
    --------
    >>> y = [1, 1, 1, 1, 0, 0, 0, 0, 1, 0]
    >>> r = mcnemar(y, [1, 1, 0, 0, 0, 1, 1, 0, 0, 1], [1, 1, 1, 1, 0, 0, 0, 0, 1, 1])
    >>> r.e01, r.e10, round(r.statistic, 3), round(r.p_value, 4), r.p_value_exact  # 2 / 2**5
    (5, 0, 3.2, 0.0736, 0.0625)
    """
    y = _as_bool(y_true_bool)
    a = _as_bool(pred_a_bool, "pred_a_bool")
    b = _as_bool(pred_b_bool, "pred_b_bool")
    if not (a.shape == b.shape == y.shape):
        raise ValueError(
            f"y_true_bool, pred_a_bool and pred_b_bool have lengths {y.size}, {a.size} and {b.size}"
        )
    right_a = a == y
    right_b = b == y
    e00 = int(np.count_nonzero(right_a & right_b))
    e01 = int(np.count_nonzero(~right_a & right_b))
    e10 = int(np.count_nonzero(right_a & ~right_b))
    e11 = y.size - e00 - e01 - e10
    disagree = e01 + e10
    if disagree == 0:
        return McNemar(
            e01, e10, None, 1.0, e00, e11,
            note="the two learners never disagree (e01 + e10 = 0): no evidence of a difference",
        )
    stat = (abs(e01 - e10) - 1) ** 2 / disagree
    note = exact = None
    if disagree < EXACT_BELOW:
        # the binomial test of e01 among the disagreements, Binomial(n, 1/2)
        exact = min(1.0, 2.0 * float(_special().bdtr(min(e01, e10), disagree, 0.5)))
        note = (
            f"only {disagree} disagreement{'s' if disagree > 1 else ''} (e01 + e10): the chi-square "
            f"approximation is rough; the exact binomial test gives p = {exact:.3g} (p_value_exact)"
        )
    return McNemar(e01, e10, float(stat), float(_special().chdtrc(1, stat)), e00, e11, note, exact)


# --------------------------------------------------------------------------
# paired t-test over folds
# --------------------------------------------------------------------------


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
    level = _check_level(level)
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
            f"every fold gives the same nonzero difference ({mu:g}): t is infinite, p = 0"
        )
        return PairedT(mu, None, dof, 0.0, (mu, mu), level, note)
    se = sd / math.sqrt(k)
    t = mu / se
    p = float(2.0 * _special().stdtr(dof, -abs(t)))  # 2 t.sf(|t|)
    half = float(_special().stdtrit(dof, 0.5 + level / 2.0)) * se  # t.ppf
    return PairedT(mu, t, dof, p, (mu - half, mu + half), level)


# --------------------------------------------------------------------------
# Friedman and Nemenyi
# --------------------------------------------------------------------------


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
        tau_chi2 = 12N/(k(k+1)) (sum r_i^2 - k(k+1)^2/4).
    p_value_chi2 : float
        Upper tail of chi-square with k - 1 degrees of freedom.
    f_statistic : float or None
        tau_F = (N-1) tau_chi2 / (N(k-1) - tau_chi2) (Iman & Davenport);
        None when the denominator is 0 (every data set ranks the learners in
        the same order, no ties) or N = 1.
    p_value_f : float or None
        Upper tail of F(k-1, (k-1)(N-1)).
    critical_difference : float
        CD = q_alpha sqrt(k(k+1)/(6N)).
    q_alpha : float
    alpha : float
    n_datasets, n_learners : int
    ranks : tuple of tuple of float
        The rank of each learner on each data set (rows = data sets).
    significant_pairs : tuple of (int, int)
        Column index pairs (i, j), i < j, whose average ranks differ by more
        than the CD.
    note : str or None
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


def _ranks_best_first(table: np.ndarray, higher_is_better: bool) -> np.ndarray:
    """Rank each row, 1 = best, ties sharing the average of their ranks."""
    if not higher_is_better:
        table = -table
    col = table[:, :, None]
    row = table[:, None, :]
    better = np.count_nonzero(row > col, axis=2)  # learners strictly better than each
    equal = np.count_nonzero(row == col, axis=2)  # including itself
    return better + (equal + 1) / 2.0


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
    >>> r.average_ranks, round(r.f_statistic, 3), round(r.critical_difference, 3)
    ((1.0, 2.125, 2.875), 24.429, 1.657)
    >>> r.significant_pairs
    ((0, 2),)
    """
    t = np.asarray(ranks_table, dtype=np.float64)
    if t.ndim != 2:
        raise ValueError(f"the table must be 2-D (data sets x learners), got shape {t.shape}")
    N, k = t.shape
    if N < 1 or k < 2:
        raise ValueError(f"the table needs at least 1 data set and 2 learners, got shape {t.shape}")
    if not np.isfinite(t).all():
        i, j = map(int, np.argwhere(~np.isfinite(t))[0])
        raise ValueError(f"the table has a non-finite value at data set {i}, learner {j}")
    ranks = _ranks_best_first(t, higher_is_better)
    r = ranks.mean(axis=0)
    chi2 = float(12.0 * N / (k * (k + 1)) * (np.sum(r * r) - k * (k + 1) ** 2 / 4.0))
    chi2 = max(chi2, 0.0)  # rounding when every average rank is (k + 1) / 2
    p_chi2 = float(_special().chdtrc(k - 1, chi2))
    den = N * (k - 1) - chi2
    note = None
    if N < 2:
        f = p_f = None
        note = "tau_F needs at least 2 data sets"
    elif den <= 1e-12 * N * (k - 1):
        f, p_f = None, 0.0
        note = "every data set ranks the learners in the same order: tau_F is infinite, p = 0"
    else:
        f = float((N - 1) * chi2 / den)
        p_f = float(_special().fdtrc(k - 1, (k - 1) * (N - 1), f))
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
    )


# --------------------------------------------------------------------------
# bootstrap
# --------------------------------------------------------------------------

Statistic = Callable[[BinaryEvaluation], "float | None"]


def bep_score(ev: BinaryEvaluation) -> float | None:
    """Break-even point of an evaluation (a bootstrap statistic)."""
    return ev.bep


def average_precision_score(ev: BinaryEvaluation) -> float | None:
    """Average precision of an evaluation (a bootstrap statistic)."""
    return ev.average_precision


def expected_total_cost(ev: BinaryEvaluation) -> float | None:
    """Area under the cost curve of an evaluation (a bootstrap statistic)."""
    return ev.expected_total_cost


def auc_score(ev: BinaryEvaluation) -> float | None:
    """AUC of an evaluation (a bootstrap statistic)."""
    return ev.auc


def f1_at(threshold: float) -> Statistic:
    """A bootstrap statistic: F1 of "positive iff score >= threshold".

    >>> from evalreport.metrics import evaluate_binary
    >>> f1_at(0.5)(evaluate_binary([0, 1, 1, 0], [0.2, 0.9, 0.4, 0.7]))
    0.5
    """
    threshold = float(threshold)

    def f1(ev: BinaryEvaluation) -> float | None:
        return ev.at_threshold(threshold).f1

    f1.__name__ = f"f1_at_{threshold:g}"
    return f1


class BootstrapInterval(NamedTuple):
    """A percentile interval; (None, None) when no resample defined the statistic."""

    low: float | None
    high: float | None


def _table_from_block_counts(thr_desc, pos, neg, n_rows) -> CountTable:
    """The count table of a resample, from its counts per distinct score."""
    keep = (pos + neg) > 0  # a score not drawn is not a threshold
    p = pos[keep]
    q = neg[keep]
    tp = np.zeros(p.size + 1, dtype=np.int64)
    fp = np.zeros(p.size + 1, dtype=np.int64)
    np.cumsum(p, out=tp[1:])
    np.cumsum(q, out=fp[1:])
    return CountTable(threshold=thr_desc[keep], tp=tp, fp=fp, n_rows=int(n_rows))


def _block_counts(blocks: np.ndarray, draws: np.ndarray, n_blocks: int) -> np.ndarray:
    """Per resample (row of ``draws``), how many draws fall in each score block."""
    rows = draws.shape[0]
    flat = blocks[draws]
    flat += (np.arange(rows, dtype=np.int64) * n_blocks)[:, None]
    return np.bincount(flat.ravel(), minlength=rows * n_blocks).reshape(rows, n_blocks)


def _resampled_evaluations(y, s, n_resamples, rng, stratified):
    """Yield (positive draws, negative draws, evaluation) for each resample.

    The scores are sorted once: every instance gets the index of its distinct
    score (a block), and a resample is just the number of times each block is
    drawn per class, turned into a count table and evaluated by the engine
    without another sort. Draws are indices into the positives and the
    negatives (stratified), or into all instances (then "positive draws"
    holds all draws and "negative draws" is None).
    """
    n = y.size
    thr, inverse = np.unique(s, return_inverse=True)  # ascending
    K = thr.size
    block = (K - 1) - inverse.astype(np.int64)  # index in descending order
    thr_desc = thr[::-1].copy()
    pos_idx = np.flatnonzero(y)
    neg_idx = np.flatnonzero(~y)
    m, nn = pos_idx.size, neg_idx.size
    pos_blocks = block[pos_idx]
    neg_blocks = block[neg_idx]
    # chunks of resamples, so that the draws and per-block counts stay small
    chunk = max(1, min(n_resamples, 4_000_000 // max(n, K, 1)))
    done = 0
    while done < n_resamples:
        c = min(chunk, n_resamples - done)
        if stratified:
            # one class only (a degenerate but legitimate input): that class is
            # the one stratum, and the measures that need the other are None
            dp = rng.integers(0, m, size=(c, m)) if m else np.empty((c, 0), dtype=np.int64)
            dn = rng.integers(0, nn, size=(c, nn)) if nn else np.empty((c, 0), dtype=np.int64)
            cp = _block_counts(pos_blocks, dp, K)
            cn = _block_counts(neg_blocks, dn, K)
        else:
            dp = rng.integers(0, n, size=(c, n))
            dn = None
            drawn_pos = y[dp]
            flat = block[dp] + (np.arange(c, dtype=np.int64) * K)[:, None]
            cp = np.bincount(flat[drawn_pos], minlength=c * K).reshape(c, K)
            cn = np.bincount(flat[~drawn_pos], minlength=c * K).reshape(c, K)
        for r in range(c):
            table = _table_from_block_counts(thr_desc, cp[r], cn[r], n)
            yield dp[r], (None if dn is None else dn[r]), evaluate_counts(table)
        done += c


def bootstrap_intervals(
    y_true_bool,
    scores,
    *,
    statistics: Mapping[str, Statistic],
    n_resamples: int = 2000,
    seed: int = 0,
    level: float = 0.95,
    stratified: bool = True,
) -> dict[str, BootstrapInterval]:
    """Seeded percentile-bootstrap intervals of measures computed by the engine.

    Parameters
    ----------
    y_true_bool : array-like of shape (N,)
        True where the instance is positive.
    scores : array-like of shape (N,)
        Finite scores, higher = more positive.
    statistics : mapping of name -> callable
        Each takes the engine's :class:`~evalreport.metrics.BinaryEvaluation`
        of a resample (what ``evaluate_binary`` returns) and gives a float or
        None when undefined. Ready ones: :func:`bep_score`,
        :func:`average_precision_score`, :func:`expected_total_cost`,
        :func:`auc_score`, and ``f1_at(threshold)``.
    n_resamples : int, default 2000
    seed : int, default 0
        Seeds ``numpy.random.Generator(PCG64(seed))``: the same inputs and seed
        give the same intervals.
    level : float, default 0.95
        The interval is the (1-level)/2 and (1+level)/2 quantiles (linear
        interpolation) of the resampled values.
    stratified : bool, default True
        Resample the positives and the negatives separately, keeping both
        class sizes (pROC's ``boot.stratified``; with one class only, that
        class is resampled and the measures that need both are undefined in
        every resample, so their intervals are ``(None, None)``); otherwise resample all
        instances together (a resample may then lack a class, and measures
        that need it are undefined there).

    Returns
    -------
    dict of name -> BootstrapInterval
        ``(low, high)``, computed over the resamples where the statistic is
        defined; ``(None, None)`` when it never is.

    Notes
    -----
    Cost: the scores are sorted once; each resample then costs O(N) to draw
    (vectorised over chunks of resamples) plus one engine evaluation of its
    count table, O(K) for K distinct scores, without a sort. In all about
    O(B (N + K)) for B resamples: about 2 ms per resample of 10^4 scores
    (4 s for 2,000) and 25 ms per resample of 10^5; keep B * N in mind for
    large data sets.

    Examples
    --------
    >>> y = [0, 0, 1, 0, 1, 1, 0, 1, 1, 0]
    >>> s = [.1, .4, .35, .2, .8, .9, .5, .7, .6, .3]
    >>> ci = bootstrap_intervals(y, s, statistics={"bep": bep_score}, n_resamples=200, seed=1)
    >>> ci["bep"].low <= 0.8 <= ci["bep"].high
    True
    """
    level = _check_level(level)
    y = _as_bool(y_true_bool)
    s = _as_scores(scores, y.size, "scores")
    if y.size == 0:
        raise ValueError("y_true_bool and scores are empty")
    n_resamples = int(n_resamples)
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be >= 1, got {n_resamples}")
    if not statistics:
        raise ValueError("statistics is empty: name at least one measure to bootstrap")
    names = list(statistics)
    values = np.full((len(names), n_resamples), np.nan)
    rng = np.random.Generator(np.random.PCG64(seed))
    resamples = _resampled_evaluations(y, s, n_resamples, rng, stratified)
    for b, (_, _, ev) in enumerate(resamples):
        for i, name in enumerate(names):
            v = statistics[name](ev)
            if v is not None:
                values[i, b] = v
    lo_q, hi_q = (1.0 - level) / 2.0, (1.0 + level) / 2.0
    out: dict[str, BootstrapInterval] = {}
    for i, name in enumerate(names):
        row = values[i][~np.isnan(values[i])]
        if row.size == 0:
            out[name] = BootstrapInterval(None, None)
        else:
            lo, hi = np.quantile(row, [lo_q, hi_q])
            out[name] = BootstrapInterval(float(lo), float(hi))
    return out
