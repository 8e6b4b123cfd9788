"""How a threshold is printed so that the printed number gives the same decisions.

A least-cost threshold is one of the learner's scores, often with many digits
(0.9999999999999716): printed to four significant digits it reads "1", and
``score >= 1`` flags other instances than the matrix it heads. The text of a
threshold ``t`` is instead the shortest decimal ``d`` with ``lower < d <= upper``,
where ``upper`` is the smallest distinct score at or above ``t`` and ``lower`` the
largest below it: ``score >= d`` then makes exactly the decisions ``score >= t``
makes on these data. Among decimals of the same length, the one nearest ``t``
(a spec threshold of 0.5 stays "0.5").
"""

from __future__ import annotations

import math
from fractions import Fraction

from .table import CountTable

__all__ = ["shortest_between", "threshold_text", "threshold_texts"]


def _text(k: int, e: int) -> str:
    """k * 10**e in plain form, or in scientific form where the plain one is long
    (1e-12, not 0.000000000001)."""
    if k == 0:
        return "0"
    sign, digits = ("-" if k < 0 else ""), str(abs(k))
    stripped = digits.rstrip("0")
    e += len(digits) - len(stripped)
    digits = stripped
    if e >= 0:
        plain = digits + "0" * e
    elif -e < len(digits):
        plain = digits[:e] + "." + digits[e:]
    else:
        plain = "0." + "0" * (-e - len(digits)) + digits
    point = len(digits) - 1  # scientific: d.ddd e(e + point)
    sci = (digits[0] + ("." + digits[1:] if len(digits) > 1 else "")) + f"e{e + point}"
    return sign + (plain if len(plain) <= max(len(sci), 8) else sci)


def _trailing_zeros(k: int) -> int:
    k, n = abs(k), 0
    while k and k % 10 == 0:
        k, n = k // 10, n + 1
    return n


def shortest_between(lower: float, upper: float, near: float | None = None) -> str:
    """The shortest decimal text ``d`` with ``lower < float(d) <= upper`` (ties:
    the one nearest ``near``, default ``upper``). ``lower`` may be -inf and
    ``upper`` +inf; ``lower < upper`` is required."""
    if not lower < upper:
        raise ValueError(f"need lower < upper, got {lower!r} and {upper!r}")
    near = upper if near is None else near
    if not math.isfinite(near):
        near = lower if math.isfinite(lower) else 0.0
    finite = [abs(x) for x in (lower, upper, near) if math.isfinite(x)]
    top = max(finite) if finite else 0.0
    e = (math.floor(math.log10(top)) + 1) if top > 0 else 1
    lo = Fraction(lower) if math.isfinite(lower) else None
    hi = Fraction(upper) if math.isfinite(upper) else None
    target = Fraction(near)
    best: tuple | None = None
    # Scales from coarser than every number down: a finer scale never gives a shorter
    # fraction, but at scales >= 1 a trailing zero can make a coarser text longer
    # ("1000" against "600"), so every scale down to 1, and two finer ones, are tried.
    found_at = None
    while e > -1080:
        step = Fraction(10) ** e
        k_min = math.floor(lo / step) + 1 if lo is not None else None
        k_max = math.floor(hi / step) if hi is not None else None
        k0 = round(target / step)
        ks = {k0 - 1, k0, k0 + 1}
        if k_min is not None:
            ks.add(k_min)
        if k_max is not None:
            ks.add(k_max)
        for k in ks:
            # no filter on k_min <= k <= k_max: those bound the exact decimals, and a
            # decimal just past a bound can still read as a double inside (0.3 reads as
            # the double 0.29999999999999998890 = upper, above the decimals' k_max = 2)
            text = _text(k, e)
            value = float(text)
            if not lower < value <= upper:  # the decimal is inside, its double is not
                continue
            # fewest places after the point, then the shortest text, then the nearest
            places = max(-e - _trailing_zeros(k), 0)
            key = (places, len(text), abs(Fraction(k) * step - target), -k)
            if best is None or key < best[0]:
                best = (key, text)
        if best is not None and found_at is None:
            found_at = e
        if found_at is not None and e <= min(found_at - 2, 0):
            break
        e -= 1
    if best is None:  # cannot happen for doubles: repr(upper) is one of the candidates
        return repr(float(upper))
    return best[1]


def threshold_text(table: CountTable, t: float) -> str:
    """The text of threshold ``t`` on ``table``: a decimal that makes the same
    decisions as ``t`` on the table's scores (see the module docstring)."""
    t = float(t)
    if math.isinf(t):
        return "+inf" if t > 0 else "-inf"
    n = len(table)
    if n == 0:
        return shortest_between(-math.inf, math.inf, t)
    r = table.rows_at(t)  # the distinct scores >= t are rows 0 .. r - 1
    upper = float(table.threshold_at(r - 1)) if r > 0 else math.inf
    lower = float(table.threshold_at(r)) if r < n else -math.inf
    return shortest_between(lower, upper, t)


def threshold_texts(table: CountTable, thresholds) -> dict[float, str]:
    """:func:`threshold_text` of each of ``thresholds`` (a threshold -> text map)."""
    return {float(t): threshold_text(table, t) for t in dict.fromkeys(float(x) for x in thresholds)}
