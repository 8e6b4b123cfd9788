"""How a threshold is printed so that the printed number gives the same decisions.

A least-cost threshold is one of the learner's scores, often with many digits
(0.9999999999999716): printed to four significant digits it reads "1", and
``score >= 1`` flags other instances than the matrix it heads. The text of a
threshold ``t`` is instead the shortest decimal ``d`` with ``lower < d <= upper``,
where ``upper`` is the smallest distinct score at or above ``t`` and ``lower`` the
largest below it: ``score >= d`` then makes exactly the decisions ``score >= t``
makes on these data, with at least three significant digits (issue 33: one
threshold, one string, of one precision): the coarsest decimal place at or
below ``t``'s third significant digit that has a decimal in the interval, and
there the one nearest ``t`` (a spec threshold of 0.5 is "0.500"; a least-cost
threshold of 0.25368... whose next score below is 0.2 is "0.254"). A threshold of
0 is "0"; one of +-inf is "+inf" or "-inf".
"""

from __future__ import annotations

import math
from fractions import Fraction

from ..counting.table import CountTable

__all__ = ["SIGNIFICANT", "shortest_between", "threshold_bracket", "threshold_text", "threshold_texts"]


def _text(k: int, e: int) -> str:
    """k * 10**e written with its digits as given (trailing zeros kept: they are
    significant, "0.500"), in plain form, or in scientific form where the plain
    one is long (1.00e-12, not 0.00000000000100)."""
    if k == 0:
        return "0"
    sign, digits = ("-" if k < 0 else ""), str(abs(k))
    if e >= 0:
        plain = digits + "0" * e
    elif -e < len(digits):
        plain = digits[:e] + "." + digits[e:]
    else:
        plain = "0." + "0" * (-e - len(digits)) + digits
    point = len(digits) - 1  # scientific: d.ddd e(e + point)
    sci = (digits[0] + ("." + digits[1:] if len(digits) > 1 else "")) + f"e{e + point}"
    return sign + (plain if len(plain) <= max(len(sci), 8) else sci)


#: the fewest significant digits a threshold is printed with
SIGNIFICANT = 3


def _first_scale(x: Fraction, significant: int) -> int:
    """The power of ten of the ``significant``-th significant digit of ``x`` (x != 0)."""
    x = abs(x)
    e = math.floor(math.log10(x))
    # log10 of a double can be off by one near a power of ten: settle it exactly
    while Fraction(10) ** e > x:
        e -= 1
    while Fraction(10) ** (e + 1) <= x:
        e += 1
    return e - (significant - 1)


def shortest_between(lower: float, upper: float, near: float | None = None,
                     significant: int = SIGNIFICANT) -> str:
    """The shortest decimal text ``d`` with ``lower < float(d) <= upper`` and at least
    ``significant`` significant digits at the magnitude of ``near`` (default ``upper``):
    the coarsest decimal place at or below ``near``'s ``significant``-th significant
    digit that has a decimal in the interval, and there the decimal nearest ``near``.
    ``lower`` may be -inf and ``upper`` +inf; ``lower < upper`` is required; a
    ``near`` of 0 prints "0".

    >>> shortest_between(0.2, 0.3, 0.25), shortest_between(0.2537, 0.2541, 0.254)
    ('0.250', '0.254')
    >>> shortest_between(0.25369, 0.2537, 0.2537)  # a score: upper is the threshold itself
    '0.2537'
    """
    if not lower < upper:
        raise ValueError(f"need lower < upper, got {lower!r} and {upper!r}")
    near = upper if near is None else near
    if not math.isfinite(near):
        near = lower if math.isfinite(lower) else 0.0
    if not lower < near <= upper:
        near = upper if math.isfinite(upper) else lower
    if near == 0:
        return "0"
    target = Fraction(near)
    lo = Fraction(lower) if math.isfinite(lower) else None
    hi = Fraction(upper) if math.isfinite(upper) else None
    e = _first_scale(target, significant)
    while e > -1100:
        step = Fraction(10) ** e
        k0 = round(target / step)
        ks = {k0 - 1, k0, k0 + 1}
        if lo is not None:
            ks.add(math.floor(lo / step) + 1)
        if hi is not None:
            ks.update((math.floor(hi / step), math.floor(hi / step) + 1))
        best = None
        for k in ks:
            # the test is on the double the text reads as, not the exact decimal: 0.3
            # reads as 0.29999999999999998890 = upper, above the exact decimals' range
            text = _text(k, e)
            if k == 0 or not lower < float(text) <= upper:
                continue
            if len(str(abs(k))) + max(e, 0) < significant:
                continue  # fewer digits than asked (99 at the third digit of 0.100)
            key = (abs(Fraction(k) * step - target), len(text), -k)
            if best is None or key < best[0]:
                best = (key, text)
        if best is not None:
            return best[1]
        e -= 1
    return repr(float(near))  # not reached for doubles: repr(near) is a candidate


def threshold_text(table: CountTable, t: float) -> str:
    """The text of threshold ``t`` on ``table``: a decimal that makes the same
    decisions as ``t`` on the table's scores (see the module docstring)."""
    t = float(t)
    if math.isinf(t):
        return "+inf" if t > 0 else "-inf"
    return shortest_between(*threshold_bracket(table, t), t)


def threshold_bracket(table: CountTable, t: float) -> tuple[float, float]:
    """(lower, upper): the largest distinct score below ``t`` and the smallest at or
    above it (-inf, +inf where there is none): every d with lower < d <= upper makes
    the decisions of ``t`` on the table's scores."""
    n = len(table)
    if n == 0:
        return -math.inf, math.inf
    r = table.rows_at(float(t))  # the distinct scores >= t are rows 0 .. r - 1
    upper = float(table.threshold_at(r - 1)) if r > 0 else math.inf
    lower = float(table.threshold_at(r)) if r < n else -math.inf
    return lower, upper


def threshold_texts(table: CountTable, thresholds) -> dict[float, str]:
    """:func:`threshold_text` of each of ``thresholds`` (a threshold -> text map)."""
    return {float(t): threshold_text(table, t) for t in dict.fromkeys(float(x) for x in thresholds)}
