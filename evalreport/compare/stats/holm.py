"""Holm's step-down adjustment of the p-values of a family of tests (Holm 1979).

Pairwise tests of k learners make k(k - 1)/2 tests at one level; rejecting each
at its own p-value inflates the chance of a false difference somewhere. Holm's
adjusted p-values keep that family-wise error rate at the level, with no
assumption on how the tests depend on each other (statsmodels'
``multipletests(method="holm")``).
"""

from __future__ import annotations

__all__ = ["holm"]


def holm(p_values) -> list[float | None]:
    """Holm's adjusted p-values, in the order given.

    With the m defined p-values sorted, p_(1) <= ... <= p_(m), the adjusted
    p_(i) is max over j <= i of min(1, (m - j + 1) p_(j)). ``None`` (a test whose
    p-value is undefined) stays ``None`` and is not counted in m. Tied p-values
    get the same adjusted value.

    Examples
    --------
    >>> holm([0.01, 0.04, 0.03, None])
    [0.03, 0.06, 0.06, None]
    """
    p = list(p_values)
    defined = sorted((v, i) for i, v in enumerate(p) if v is not None)
    m = len(defined)
    out: list[float | None] = [None] * len(p)
    running = 0.0
    for rank, (v, i) in enumerate(defined):
        running = max(running, min(1.0, (m - rank) * float(v)))
        out[i] = running
    return out
