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
0 is "0"; one of +-inf is "+inf" or "-inf". No text uses exponent notation (issue
34): far from 1 a threshold is its digits times a power of ten, "1.00 × 10⁻¹²"
(:func:`threshold_value` reads every text back).
"""

from __future__ import annotations

import math
from fractions import Fraction

from ..counting.table import CountTable

__all__ = ["PLACE_ZEROS", "SIGNIFICANT", "exact_text", "shortest_between", "threshold_value", "threshold_bracket", "threshold_text", "threshold_texts"]


#: the plain decimal is written while at most this many zeros only place its point
#: (0.000123, 123000); past that, its digits times a power of ten (1.23 × 10⁻⁵):
#: the bound below is general's and :g's (a number under 0.0001 turns), so that a
#: threshold and a warning's number turn at the same size (docs/reference.md, "How
#: numbers print")
PLACE_ZEROS = 3

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
_FROM_SUPERSCRIPT = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")
_TIMES_TEN = " × 10"


def _plain(k: int, e: int) -> str:
    """k * 10**e as a plain decimal, its digits as given (trailing zeros kept)."""
    sign, digits = ("-" if k < 0 else ""), str(abs(k))
    if e >= 0:
        return sign + digits + "0" * e
    if -e < len(digits):
        return sign + digits[:e] + "." + digits[e:]
    return sign + "0." + "0" * (-e - len(digits)) + digits


def _text(k: int, e: int) -> str:
    """k * 10**e written with its digits as given (trailing zeros kept: they are
    significant, "0.500"), never in exponent notation (issue 34: no "1.00e-12" in
    the report): the plain decimal while at most PLACE_ZEROS zeros only place the
    point, else its digits times a power of ten with a superscript exponent, the
    form the report's other far-from-1 numbers take ("1.00 × 10⁻¹²"); both read
    back with :func:`threshold_value`."""
    if k == 0:
        return "0"
    digits = str(abs(k))
    first = e + len(digits) - 1  # the power of ten of the first significant digit
    if first >= -(PLACE_ZEROS + 1) and e <= PLACE_ZEROS:
        return _plain(k, e)
    mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    return ("-" if k < 0 else "") + mantissa + _TIMES_TEN + str(first).translate(_SUPERSCRIPT)


def threshold_value(text: str) -> float:
    """The double a threshold's text reads as (the inverse of its printing): a plain
    decimal, "+inf"/"-inf", or digits times a power of ten ("1.00 × 10⁻¹²").

    >>> threshold_value("0.500"), threshold_value("-1.23 × 10⁻¹²"), threshold_value("2.50 × 10²⁰⁰")
    (0.5, -1.23e-12, 2.5e+200)
    """
    mantissa, times, power = text.partition(_TIMES_TEN)
    if not times:
        return float(text)
    # read as one decimal (not mantissa * 10.0**power: that rounds twice)
    return float(f"{mantissa}e{power.translate(_FROM_SUPERSCRIPT)}")


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
            if k == 0 or not lower < float(f"{k}e{e}") <= upper:
                continue
            if len(str(abs(k))) + max(e, 0) < significant:
                continue  # fewer digits than asked (99 at the third digit of 0.100)
            # ties go to the shorter plain decimal, whichever form prints it
            key = (abs(Fraction(k) * step - target), len(_plain(k, e)), -k)
            text = _text(k, e)
            if best is None or key < best[0]:
                best = (key, text)
        if best is not None:
            return best[1]
        e -= 1
    return exact_text(near)  # not reached for doubles: repr(near) is a candidate


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


def exact_text(t: float) -> str:
    """The text of a threshold whose neighbouring scores are unknown (a reduced
    streamed table): the shortest decimal that reads back as ``t`` exactly (``repr``'s
    digits), with at least SIGNIFICANT significant digits, printed as every
    threshold is (no exponent notation).

    >>> exact_text(0.5), exact_text(1e-12), exact_text(0.1234567), exact_text(-2.0)
    ('0.500', '1.00 × 10⁻¹²', '0.1234567', '-2.00')
    """
    t = float(t)
    if math.isinf(t):
        return "+inf" if t > 0 else "-inf"
    if t == 0:
        return "0"
    mantissa, _, power = repr(abs(t)).partition("e")
    whole, _, frac = mantissa.partition(".")
    frac = frac.rstrip("0")  # "2.0": no decimal digit of its own
    k, e = int(whole + frac), int(power or 0) - len(frac)
    while k % 10 == 0 and len(str(k)) > SIGNIFICANT:  # 1230000.0: zeros that only place the point
        k, e = k // 10, e + 1
    pad = SIGNIFICANT - len(str(k))
    if pad > 0:  # trailing zeros up to the third significant digit (0.500)
        k, e = k * 10 ** pad, e - pad
    return _text(-k if t < 0 else k, e)
