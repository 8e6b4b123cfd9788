"""McNemar's test on two learners' decisions about the same instances (Zhou eq. 2.33)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .core import _as_bool, _special

__all__ = ["EXACT_BELOW", "McNemar", "mcnemar"]


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
