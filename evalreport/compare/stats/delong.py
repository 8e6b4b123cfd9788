"""DeLong's interval of one AUC and his tests of two (DeLong, DeLong &
Clarke-Pearson 1988; pROC's ``ci.auc`` and ``roc.test``).

The variance of an AUC is var(V10)/m + var(V01)/n over its structural
components (:mod:`~evalreport.compare.stats.components`); the paired test takes
the variance of the two learners' components' difference, instance by instance,
the unpaired one the sum of the two variances.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .components import StructuralComponents, auc_components
from .components import structural_components  # noqa: F401 (the examples use it)
from ...metrics.levels import check_level, normal_quantile
from .core import as_scores, auc_classes, scipy_special, two_sided_normal
from ...words import general

__all__ = ["AucInterval", "DelongTest", "auc_interval", "delong_auc", "delong_paired", "delong_paired_many",
           "delong_paired_components", "delong_unpaired", "delong_unpaired_summary", "welch_df"]


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
    O(N log N): one sort per class and binary searches (:mod:`.components`).
    Sample weights are not supported.

    Examples
    --------
    >>> r = delong_auc([0, 0, 1, 0, 1, 1], [0.1, 0.4, 0.35, 0.2, 0.8, 0.9])
    >>> round(r.auc, 4), round(r.se, 4), tuple(round(v, 4) for v in r.ci)
    (0.8889, 0.1571, (0.5809, 1.0))
    """
    level = check_level(level)
    y, s, m, n = auc_classes(y_true_bool, scores)
    auc, v10, v01 = auc_components(y, s, m, n, aligned=False)
    return _interval(auc, v10, v01, m, n, level)


def auc_interval(components: StructuralComponents, *, level: float = 0.95) -> AucInterval:
    """:func:`delong_auc` from a learner's structural components (computed once,
    shared with the paired tests).

    >>> c = structural_components([0, 0, 1, 0, 1, 1], [0.1, 0.4, 0.35, 0.2, 0.8, 0.9])
    >>> tuple(round(v, 4) for v in auc_interval(c).ci)
    (0.5809, 1.0)
    """
    level = check_level(level)
    return _interval(components.auc, components.v10, components.v01,
                     components.v10.size, components.v01.size, level)


def _interval(auc, v10, v01, m, n, level) -> AucInterval:
    var = _variance(v10, v01, m, n)
    if var is None:
        return AucInterval(auc=auc, se=None, ci=None, level=level, note=_too_few(m, n))
    se = math.sqrt(var)
    half = normal_quantile(level) * se
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
        Unpaired test only: the Welch-Satterthwaite degrees of freedom of
        pROC's ``roc.test(paired = FALSE, method = "delong")``; ``z`` is then
        pROC's statistic "D", ``p_value`` is ``2 * t.sf(|D|, df)`` and ``ci``
        is d -/+ t_{df, (1+level)/2} * se (the same law, so the interval
        excludes 0 exactly when p < 1 - level). None (the paired test, or an
        unpaired one without the data sets' sizes): the standard normal.
    note : str or None
    p_holm : float or None
        Holm's adjusted p-value over the pairs of one data set (set by
        :func:`evalreport.compare.pair_tests`); None from this module.
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
    p_holm: float | None = None


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
            f"the AUCs differ by {general(d)} but DeLong's variance of the difference is 0 "
            "(each learner's structural components are constant): the normal "
            "approximation does not apply"
        )
        return DelongTest(auc_a, auc_b, d, 0.0, None, None, (d, d), level, paired, df, note)
    z = d / se
    if df is None:
        half, p = normal_quantile(level) * se, two_sided_normal(z)
    else:  # pROC's unpaired test: Student's t with Welch's df, for the p-value and the interval alike
        half, p = _t_quantile(level, df) * se, _two_sided_t(z, df)
    return DelongTest(auc_a, auc_b, d, se, z, p, (d - half, d + half), level, paired, df, note)


def _two_sided_t(t: float, df: float) -> float:
    return float(2.0 * scipy_special().stdtr(df, -abs(t)))  # 2 t.sf(|t|, df), as pROC's 2 * pt(-abs(D), df)


def _t_quantile(level: float, df: float) -> float:
    return float(scipy_special().stdtrit(df, 0.5 + level / 2.0))  # t.ppf((1 + level) / 2, df)


def welch_df(var_a: float, n_a: float, var_b: float, n_b: float) -> float | None:
    """The Welch-Satterthwaite degrees of freedom of pROC's unpaired DeLong test:
    (V_a + V_b)^2 / (V_a^2 / (n_a - 1) + V_b^2 / (n_b - 1)), with V the DeLong
    variance of each AUC and n the size (cases + controls) of its data set
    (pROC's ``delong.unpaired.test``); None where it is 0 / 0 (both variances 0)
    or a data set has fewer than 2 rows.

    >>> round(welch_df(0.01, 10, 0.01, 10), 6)
    18.0
    """
    total = var_a + var_b
    if total <= 0 or n_a <= 1 or n_b <= 1:
        return None
    return float(total**2 / (var_a**2 / (n_a - 1) + var_b**2 / (n_b - 1)))


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
    level = check_level(level)
    y, sa, m, n = auc_classes(y_true_bool, scores_a, "scores_a")
    sb = as_scores(scores_b, y.size, "scores_b")
    auc_a, xa, ya = auc_components(y, sa, m, n, aligned=True)
    auc_b, xb, yb = auc_components(y, sb, m, n, aligned=True)
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
    level = check_level(level)
    m, n = a.v10.size, a.v01.size
    if (m, n) != (b.v10.size, b.v01.size):
        raise ValueError("the two learners' components come from different instances")
    if m < 2 or n < 2:
        return _test_result(a.auc, b.auc, None, level, paired=True, note=_too_few(m, n))
    var = float(np.var(a.v10 - b.v10, ddof=1) / m + np.var(a.v01 - b.v01, ddof=1) / n)
    return _test_result(a.auc, b.auc, var, level, paired=True)


def delong_paired_many(a: StructuralComponents, others, *, level: float = 0.95) -> list[DelongTest]:
    """:func:`delong_paired_components` of ``a`` against each of ``others``, the
    variances of a block of pairs in one NumPy call (many learners: k(k - 1)/2
    pairs, each otherwise a few small calls). The same numbers: each row's
    variance is reduced alone, by the same pairwise summation as one pair's.

    >>> y = [0, 0, 1, 0, 1, 1, 0, 1]
    >>> a = structural_components(y, [.1, .4, .35, .2, .8, .9, .5, .7])
    >>> b = structural_components(y, [.2, .1, .3, .6, .5, .9, .4, .8])
    >>> delong_paired_many(a, [b])[0] == delong_paired_components(a, b)
    True
    """
    level = check_level(level)
    others = list(others)
    m, n = a.v10.size, a.v01.size
    if m < 2 or n < 2 or any((m, n) != (b.v10.size, b.v01.size) for b in others):
        return [delong_paired_components(a, b, level=level) for b in others]
    out = []
    chunk = max(1, 4_000_000 // (m + n))  # pairs per block: the differences stay small
    for start in range(0, len(others), chunk):
        part = others[start:start + chunk]
        var = (np.var(a.v10 - np.stack([b.v10 for b in part]), axis=1, ddof=1) / m
               + np.var(a.v01 - np.stack([b.v01 for b in part]), axis=1, ddof=1) / n)
        out += [_test_result(a.auc, b.auc, float(v), level, paired=True) for b, v in zip(part, var)]
    return out


def delong_unpaired(
    y_true_a, scores_a, y_true_b, scores_b, *, level: float = 0.95
) -> DelongTest:
    """DeLong's test between two learners scored on different data sets.

    D = (A - B) / sqrt(var A + var B): the two AUCs are independent. As pROC's
    ``roc.test(paired = FALSE, method = "delong")`` (its ``delong.unpaired.test``),
    D is read against Student's t with the Welch-Satterthwaite degrees of
    freedom (:func:`welch_df`, each data set's size cases + controls), for the
    p-value and the interval of the difference alike.

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
        With ``paired=False``; ``z`` is D, ``df`` Welch's degrees of freedom,
        ``p_value`` = 2 t.sf(|D|, df) and ``ci`` = d -/+ t_{df,(1+level)/2} se.

    Examples
    --------
    >>> t = delong_unpaired([0, 1, 0, 1, 1, 0], [.2, .9, .4, .6, .3, .1],
    ...                     [1, 0, 0, 1, 0, 1, 0], [.7, .3, .6, .8, .2, .5, .4])
    >>> round(t.difference, 4), round(t.z, 3), round(t.df, 2), round(t.p_value, 3)
    (-0.0278, -0.141, 9.66, 0.89)
    """
    level = check_level(level)
    ya, sa, ma, na = auc_classes(y_true_a, scores_a, "scores_a")
    yb, sb, mb, nb = auc_classes(y_true_b, scores_b, "scores_b")
    auc_a, xa, za = auc_components(ya, sa, ma, na, aligned=False)
    auc_b, xb, zb = auc_components(yb, sb, mb, nb, aligned=False)
    var_a = _variance(xa, za, ma, na)
    var_b = _variance(xb, zb, mb, nb)
    if var_a is None or var_b is None:
        note = _too_few(*((ma, na) if var_a is None else (mb, nb)))
        return _test_result(auc_a, auc_b, None, level, paired=False, note=note)
    return _test_result(auc_a, auc_b, var_a + var_b, level, paired=False,
                        df=welch_df(var_a, ma + na, var_b, mb + nb))


def delong_unpaired_summary(auc_a: float, var_a: float | None, auc_b: float, var_b: float | None, *,
                            n_a: float | None = None, n_b: float | None = None,
                            level: float = 0.95) -> DelongTest:
    """:func:`delong_unpaired` from each data set's AUC and DeLong variance alone
    (two runs' results.json: ``auc`` and ``auc_variance``, no per-row data).

    D = (A - B) / sqrt(var A + var B), the statistic of pROC's
    ``roc.test(paired = FALSE, method = "delong")``, read against Student's t
    with Welch's degrees of freedom as pROC does.

    Parameters
    ----------
    auc_a, var_a : float, float or None
        Learner A's AUC and DeLong's variance of it (``AucInterval.se ** 2``);
        None where it was undefined (fewer than 2 of a class).
    auc_b, var_b : float, float or None
        The same for B, on an independent data set.
    n_a, n_b : float, optional
        The data sets' sizes (positives + negatives), for the Welch-Satterthwaite
        ``df``; without them ``df`` is None and the p-value and interval are the
        standard normal ones (DeLong et al.'s), with a note saying so.
    level : float, default 0.95
        Confidence level of the interval of the difference.

    Returns
    -------
    DelongTest
        With ``paired=False``: the same numbers as :func:`delong_unpaired` on
        the raw data (pROC's t p-value with ``df``). A variance None gives z and
        p None and a note; both variances 0 give the notes of
        :func:`delong_unpaired`.

    Raises
    ------
    ValueError
        A variance below 0, or a level outside (0, 1).

    Examples
    --------
    >>> a = delong_auc([0, 1, 0, 1, 1, 0], [.2, .9, .4, .6, .3, .1])
    >>> b = delong_auc([1, 0, 0, 1, 0, 1, 0], [.7, .3, .6, .8, .2, .5, .4])
    >>> u = delong_unpaired_summary(a.auc, a.se ** 2, b.auc, b.se ** 2, n_a=6, n_b=7)
    >>> round(u.difference, 4), round(u.z, 3), round(u.p_value, 3), round(u.df, 2)
    (-0.0278, -0.141, 0.89, 9.66)
    """
    level = check_level(level)
    for name, v in (("var_a", var_a), ("var_b", var_b)):
        if v is not None and not (math.isfinite(v) and v >= 0):
            raise ValueError(f"{name} must be a finite variance >= 0, got {v!r}")
    if var_a is None or var_b is None:
        which = "A" if var_a is None else "B"
        note = f"DeLong's variance of {which}'s AUC is undefined (fewer than 2 positives or 2 negatives)"
        return _test_result(auc_a, auc_b, None, level, paired=False, note=note)
    df = None if n_a is None or n_b is None else welch_df(var_a, n_a, var_b, n_b)
    note = None
    if df is None and var_a + var_b > 0:
        note = "the data sets' sizes are unknown: the p-value is the standard normal one, not pROC's t"
    return _test_result(auc_a, auc_b, var_a + var_b, level, paired=False, df=df, note=note)
