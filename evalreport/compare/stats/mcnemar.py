"""McNemar's test on two learners' decisions about the same instances (Zhou eq. 2.33)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .core import as_bool_labels, chi2_sf_df1, scipy_special
from ...words import general

__all__ = ["EXACT_BELOW", "METHODS", "McNemar", "mcnemar", "mcnemar_many"]


#: McNemar, ``method="auto"``: fewer disagreements than this get the exact binomial
#: test, where the chi-square approximation is rough; from this many, the chi-square
EXACT_BELOW = 25

#: the spec's ``confidence.mcnemar``
METHODS = ("auto", "exact", "corrected")


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
        The chi-square (|e01 - e10| - 1)^2 / (e01 + e10) (Zhou eq. 2.33,
        continuity corrected) when ``method`` is "corrected"; None when the
        learners never disagree, and with the exact test (whose statistic is
        the count e01 itself, of e01 + e10 disagreements).
    p_value : float
        The method's two-sided p-value: "corrected", the upper tail of
        chi-square with 1 degree of freedom (statsmodels' ``mcnemar(exact=False,
        correction=True)``); "exact", twice the smaller tail of
        Binomial(e01 + e10, 1/2), at most 1 (statsmodels' ``mcnemar(exact=True)``).
        1.0 without disagreements.
    e00, e11 : int
    note : str or None
    p_value_exact : float or None
        Only when the chi-square was asked for (``method="corrected"``) with
        fewer than 25 disagreements, where it is rough: the exact p-value
        beside it; None otherwise (with the exact test it is ``p_value``).
    method : str
        "exact" or "corrected": the test ``p_value`` comes from.
    p_holm : float or None
        Holm's adjusted p-value over the pairs of one data set (set by
        :func:`evalreport.compare.pair_tests`); None from this module.
    """

    e01: int
    e10: int
    statistic: float | None
    p_value: float
    e00: int = 0
    e11: int = 0
    note: str | None = None
    p_value_exact: float | None = None
    method: str = "corrected"
    p_holm: float | None = None


def _exact_p(e01: int, e10: int) -> float:
    """The two-sided binomial test of e01 among e01 + e10 disagreements, Binomial(n, 1/2)."""
    n = e01 + e10
    if n == 0:
        return 1.0
    return min(1.0, 2.0 * float(scipy_special().bdtr(min(e01, e10), n, 0.5)))


def mcnemar(y_true_bool, pred_a_bool, pred_b_bool, *, method: str = "auto") -> McNemar:
    """McNemar's test: exact binomial or continuity-corrected chi-square (Zhou eq. 2.33).

    Parameters
    ----------
    y_true_bool : array-like of shape (N,)
        True where the instance is positive.
    pred_a_bool, pred_b_bool : array-like of shape (N,)
        The two learners' decisions (True = predicted positive), e.g.
        ``scores >= threshold``.
    method : {"auto", "exact", "corrected"}, default "auto"
        "exact": the binomial test; "corrected": the chi-square with
        continuity correction; "auto": exact below 25 disagreements
        (``EXACT_BELOW``), corrected from 25.

    Returns
    -------
    McNemar
        ``e01`` = A wrong and B right, ``e10`` = A right and B wrong.

    Examples
    --------
    >>> y = [1, 1, 1, 1, 0, 0, 0, 0, 1, 0]
    >>> r = mcnemar(y, [1, 1, 0, 0, 0, 1, 1, 0, 0, 1], [1, 1, 1, 1, 0, 0, 0, 0, 1, 1])
    >>> r.e01, r.e10, r.method, r.statistic, r.p_value  # 5 disagreements: exact, 2 / 2**5
    (5, 0, 'exact', None, 0.0625)
    >>> r = mcnemar(y, [1, 1, 0, 0, 0, 1, 1, 0, 0, 1], [1, 1, 1, 1, 0, 0, 0, 0, 1, 1],
    ...             method="corrected")
    >>> r.method, round(r.statistic, 3), round(r.p_value, 4), r.p_value_exact
    ('corrected', 3.2, 0.0736, 0.0625)
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}; got {method!r}")
    y = as_bool_labels(y_true_bool)
    a = as_bool_labels(pred_a_bool, "pred_a_bool")
    b = as_bool_labels(pred_b_bool, "pred_b_bool")
    if not (a.shape == b.shape == y.shape):
        raise ValueError(
            f"y_true_bool, pred_a_bool and pred_b_bool have lengths {y.size}, {a.size} and {b.size}"
        )
    right_a = a == y
    right_b = b == y
    e00 = int(np.count_nonzero(right_a & right_b))
    e01 = int(np.count_nonzero(~right_a & right_b))
    e10 = int(np.count_nonzero(right_a & ~right_b))
    return _from_counts(e00, e01, e10, y.size - e00 - e01 - e10, method)


def mcnemar_many(y_true_bool, pred_a_bool, others, *, method: str = "auto") -> list[McNemar]:
    """:func:`mcnemar` of learner A's decisions against each of ``others`` (a
    sequence of decision arrays), the counts of a block of pairs in one NumPy
    call (many learners: k(k - 1)/2 pairs).

    >>> y = [1, 1, 1, 1, 0, 0, 0, 0, 1, 0]
    >>> a, b = [1, 1, 0, 0, 0, 1, 1, 0, 0, 1], [1, 1, 1, 1, 0, 0, 0, 0, 1, 1]
    >>> mcnemar_many(y, a, [b, a]) == [mcnemar(y, a, b), mcnemar(y, a, a)]
    True
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}; got {method!r}")
    y = as_bool_labels(y_true_bool)
    a = as_bool_labels(pred_a_bool, "pred_a_bool")
    others = [as_bool_labels(b, "pred_b_bool") for b in others]
    if a.shape != y.shape or any(b.shape != y.shape for b in others):
        return [mcnemar(y, a, b, method=method) for b in others]
    right_a = a == y
    out = []
    chunk = max(1, 8_000_000 // max(y.size, 1))  # pairs per block
    for start in range(0, len(others), chunk):
        right_b = np.stack(others[start:start + chunk]) == y
        e00 = np.count_nonzero(right_a & right_b, axis=1)
        e01 = np.count_nonzero(~right_a & right_b, axis=1)
        e10 = np.count_nonzero(right_a & ~right_b, axis=1)
        out += [_from_counts(int(p), int(q), int(r), y.size - int(p) - int(q) - int(r), method)
                for p, q, r in zip(e00, e01, e10)]
    return out


def _from_counts(e00: int, e01: int, e10: int, e11: int, method: str) -> McNemar:
    """The test from the pair's counts (``method`` as :func:`mcnemar` takes it)."""
    disagree = e01 + e10
    if method == "auto":
        method = "exact" if disagree < EXACT_BELOW else "corrected"
    if disagree == 0:
        return McNemar(
            e01, e10, None, 1.0, e00, e11,
            note="the two learners never disagree (e01 + e10 = 0): no evidence of a difference",
            method=method,
        )
    if method == "exact":
        return McNemar(e01, e10, None, _exact_p(e01, e10), e00, e11, method="exact")
    stat = (abs(e01 - e10) - 1) ** 2 / disagree
    note = exact = None
    if disagree < EXACT_BELOW:
        # asked for the chi-square where it is rough: the exact p-value beside it
        exact = _exact_p(e01, e10)
        note = (
            f"only {disagree} disagreement{'s' if disagree > 1 else ''} (e01 + e10): the chi-square "
            f"approximation is rough; the exact binomial test gives p = {general(exact, 3)} (p_value_exact)"
        )
    return McNemar(e01, e10, float(stat), chi2_sf_df1(stat), e00, e11, note, exact,
                   "corrected")
