"""How the report prints values: the one place numbers become text.

Templates never compute or format; the report's context modules call these.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import registry
# magnitude and general live with the words (evalreport/words.py, which imports nothing):
# the evaluation below the registry (metrics/, compare/) prints its warnings' numbers
# with them, and this module imports the registry
from .words import and_join, general, magnitude

__all__ = ["UNDEFINED", "fmt", "measure_text", "signed", "Column", "Cell", "cells", "and_join", "p_text", "p_value_text",
           "with_interval", "interval_text", "measure_interval_text", "rate", "cost", "count", "number",
           "kind_of", "measure_column", "value_text", "percent", "plain", "ends_text", "magnitude", "general"]

UNDEFINED = "undefined"

# The number style (docs/reference.md, "How numbers print"), the one place it is applied:
#   a measure's value - in prose 3 significant digits (0.943, 0.0439, 12.3; 1,234 keeps its
#           integer digits); in a table 4 decimals (0.9431, 12.3457), so that a column lines up;
#           its interval's ends with the value's digits (one more while the ends print equal)
#   below 0.0001 - a nonzero value under 0.0001 in magnitude prints as "< 0.0001" ("> -0.0001"),
#           in prose and tables: never exponent notation
#   p     - a p-value: "p = 0.032" (2 significant digits), "p < 0.001"
#   share - a percentage measured on the data: one decimal, no space ("37.3%")
#   count - counts: thousands separators, integers without decimals, weighted at most 2 (1,234.57)
#   a number the spec gave (a cost, a prior, a level) - as the spec wrote it, never in exponents
# Thresholds are printed by their learner's threshold_text (the shortest decimals that keep the
# decisions, at least 3 significant digits), in tables, sentences and legends alike.
PROSE_DIGITS = 3
TABLE_DECIMALS = 4
#: below it in magnitude a value prints as "< 0.0001": its digits would be noise or exponents
FLOOR = 0.0001
FLOOR_TEXT = "0.0001"
P_FLOOR = 0.001
COUNT_MEASURES = frozenset({"tp", "fp", "tn", "fn", "support", "n", "positives", "negatives"})


def _special(value) -> str | None:
    """The text of a value no policy prints as digits (None, NaN, infinities, booleans)."""
    if value is None:
        return UNDEFINED
    if isinstance(value, bool):
        return "yes" if value else "no"
    value = float(value)
    if value != value:
        return UNDEFINED
    if value in (float("inf"), float("-inf")):
        return "+inf" if value > 0 else "-inf"
    return None


def _tiny(value: float) -> str | None:
    """"< 0.0001" for a nonzero value under :data:`FLOOR` in magnitude ("> -0.0001" below 0)."""
    if value != 0 and abs(value) < FLOOR:
        return f"< {FLOOR_TEXT}" if value > 0 else f"> -{FLOOR_TEXT}"
    return None


def _near_one(value: float) -> str | None:
    """"> 0.9999" for a value short of 1 that prints as 1 even with 4 decimals ("< -0.9999"
    near -1): a measure's 1 is perfect (an AUC, an accuracy), which such a value is not."""
    if 0 < 1 - abs(value) and abs(float(_fixed(value, TABLE_DECIMALS).replace(",", ""))) == 1:
        return f"> {1 - FLOOR:.4f}" if value > 0 else f"< -{1 - FLOOR:.4f}"
    return None


def _short_of_one(value: float, decimals: int) -> int:
    """``decimals``, or more (at most 4) where ``value``, short of ±1, would print as
    ±1 with them: 0.99959 is "0.9996", not "1.00"."""
    while 0 < 1 - abs(value) and abs(float(_fixed(value, decimals).replace(",", ""))) == 1 \
            and decimals < TABLE_DECIMALS:
        decimals += 1
    return decimals


def _fixed(value: float, decimals: int) -> str:
    text = f"{value:,.{max(decimals, 0)}f}"
    return text[1:] if text.startswith("-") and float(text.replace(",", "")) == 0 else text


def _decimals(value: float, kind: str = "prose") -> int:
    """How many decimals ``value`` gets: in a table (``kind`` "table") 4; in prose 3
    significant digits (never fewer decimals than none)."""
    if kind == "table":
        return TABLE_DECIMALS
    return _significant_decimals(value, PROSE_DIGITS)


def _significant_decimals(value: float, digits: int) -> int:
    """The decimals that give ``value`` ``digits`` significant digits (0.99999 rounds
    to 1.00, not 1.000: the rounding may carry into one more integer digit)."""
    import math

    a = abs(value)
    if a == 0:
        return digits - 1
    magnitude = math.floor(math.log10(a))
    d = digits - 1 - magnitude
    if d > 0 and round(a, d) >= 10 ** (magnitude + 1):
        d -= 1
    return max(d, 0)


def value_text(value, *, table: bool = False) -> str:
    """A measure's value: 3 significant digits ("0.943", "0.0439", "12.3"), in a
    table 4 decimals ("0.9431"); "< 0.0001" below 0.0001; "undefined" for None/NaN."""
    special = _special(value)
    if special:
        return special
    value = float(value)
    return _tiny(value) or _near_one(value) or _fixed(value, _short_of_one(
        value, _decimals(value, "table" if table else "prose")))


def rate(value, *, table: bool = False) -> str:
    """A rate, share or measure in [-1, 1] (:func:`value_text`)."""
    return value_text(value, table=table)


def cost(value, *, table: bool = False) -> str:
    """A cost or another unbounded value (:func:`value_text`)."""
    return value_text(value, table=table)


def percent(share) -> str:
    """A share as a percentage with one decimal: 0.3729 -> "37.3%"."""
    special = _special(share)
    if special:
        return special
    return _fixed(100 * float(share), 1) + "%"


def count(value) -> str:
    """A count: "1,234"; a weighted count with at most 2 decimals ("1,234.57")."""
    special = _special(value)
    if special:
        return special
    if isinstance(value, int) or float(value).is_integer():
        return f"{int(value):,}"
    return _tiny(float(value)) or f"{float(value):,.2f}".rstrip("0").rstrip(".")


def plain(value, digits: int = 6) -> str:
    """A number as written, up to ``digits`` significant digits, trailing zeros dropped,
    never in exponents (a spec's cost, prior or level: 0.00001, not 1e-05)."""
    special = _special(value)
    if special:
        return special
    import numpy as np

    value = float(value)
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))  # as written: no separators
    return np.format_float_positional(value, precision=digits, unique=True, fractional=False, trim="-")


def number(value, *, table: bool = False) -> str:
    """A value of unknown kind by the policy: a count when integral, else a
    measure's value (:func:`value_text`)."""
    special = _special(value)
    if special:
        return special
    if isinstance(value, int) or (float(value).is_integer() and abs(float(value)) < 1e15 and not table):
        return count(value)
    return value_text(value, table=table)


def fmt(value, digits: int | None = None, *, table: bool = False) -> str:
    """A number as text by the policy (:func:`number`): integers with separators,
    None is 'undefined', +inf thresholds are '+inf'. ``digits``: significant digits
    instead, for what is not a measured value (:func:`plain`, never exponents)."""
    if digits is None:
        return number(value, table=table)
    special = _special(value)
    if special:
        return special
    if isinstance(value, int) or (float(value).is_integer() and abs(float(value)) < 1e15):
        return count(value)
    return _tiny(float(value)) if digits <= 4 and _tiny(float(value)) else plain(value, digits)


def kind_of(name: str) -> str:
    """The policy's kind of the registry's measure (or table column) ``name``."""
    measure = registry.MEASURES.get(name)
    if measure is not None and measure.unit in ("cost", "ratio"):  # unbounded: significant digits
        return "cost"
    if name in COUNT_MEASURES:
        return "count"
    return "rate"


def measure_text(name: str, value, *, table: bool = False) -> str:
    """A value of the registry's measure ``name`` as the registry says to print it
    (its ``format``), else by the policy (:func:`value_text`; counts as counts);
    undefined is always "undefined". ``table``: the value is a table's cell."""
    measure = registry.MEASURES.get(name)
    if value is None or measure is None or measure.format is None:
        if isinstance(value, bool) or _special(value):
            return number(value)
        if kind_of(name) == "count":  # whole counts as counts; a mean of counts as a value
            return count(value) if float(value).is_integer() else value_text(value, table=table)
        return value_text(value, table=table)
    return measure.format(value)


def interval_text(value, interval, kind: str = "rate", *, table: bool = False) -> str:
    """A value and its interval on one line, the ends with the value's decimals:
    "0.943 [0.921, 0.962]" (a table's: "0.9431 [0.9210, 0.9620]"). When the ends
    would print equal, one more decimal each time until they differ; an interval of
    zero width is "0.885 ± 0". (``kind`` is kept for older callers: one policy now.)"""
    special = _special(value)
    if special:
        return special
    value = float(value)
    base = _short_of_one(value, _decimals(value, "table" if table else "prose"))
    if interval is None or None in tuple(interval):
        return value_text(value, table=table)
    lo, hi = (float(x) for x in interval)
    if lo == hi:
        return f"{_tiny(value) or _near_one(value) or _fixed(value, base)} ± 0"
    d = max(base, _short_of_one(lo, base), _short_of_one(hi, base))
    while _fixed(lo, d) == _fixed(hi, d) and d < 12:
        d += 1

    return f"{_end(value, d)} [{_end(lo, d)}, {_end(hi, d)}]"


def _end(x: float, decimals: int) -> str:
    """A value or an interval's end with ``decimals``; within the policy's decimals the
    floor's and 1's words ("< 0.0001", "> 0.9999"), where digits would mislead."""
    return (_tiny(x) or _near_one(x) if decimals <= TABLE_DECIMALS else None) or _fixed(x, decimals)


def ends_text(lo, hi, *, table: bool = False) -> str:
    """An interval alone, both ends with the same decimals (those of the larger end, at
    least 3 below 10; more while they print equal): "[-0.0530, 0.0095]", "[0.983, 1.000]"."""
    if _special(lo) or _special(hi):
        return f"[{_special(lo) or value_text(lo)}, {_special(hi) or value_text(hi)}]"
    lo, hi = float(lo), float(hi)
    d = _decimals(max(abs(lo), abs(hi)), "table" if table else "prose")
    if not table and max(abs(lo), abs(hi)) < 10:
        d = max(d, PROSE_DIGITS)  # [0.983, 1.000], not [0.98, 1.00]
    d = max(d, _short_of_one(lo, d), _short_of_one(hi, d))
    while lo != hi and _fixed(lo, d) == _fixed(hi, d) and d < 12:
        d += 1
    return f"[{_end(lo, d)}, {_end(hi, d)}]"


def measure_interval_text(name: str, value, interval, *, table: bool = False) -> str:
    """A measure's value with its interval (:func:`interval_text`)."""
    if value is None or interval is None or None in tuple(interval):
        return measure_text(name, value, table=table)
    return interval_text(value, interval, table=table)


@dataclass(frozen=True)
class Column:
    key: str
    label: str
    better: str  # "higher", "lower" or ""
    #: a table split in two prints its "cost" columns in the second (a page's width)
    group: str = ""


def measure_column(name: str, heading: str = "", group: str = "") -> Column:
    """The column of registry measure ``name``: its label (or ``heading``, where a
    table says more or less) and the way it is better, both the registry's."""
    m = registry.get(name)
    return Column(name, heading or m.label, "" if m.direction == "none" else m.direction, group)


@dataclass(frozen=True)
class Cell:
    """A table cell: its text, and the warning about its value (printed beside
    the table, marked in the cell). The page prints :attr:`value` and
    :attr:`interval` apart (a line may break between them, never inside the
    interval); every table cell of the report is one (templates/macros.html.j2)."""

    text: str
    note: str = ""
    mark: str = ""  # the cell's mark, tying it to its note ("1", "2", ...)

    def __str__(self) -> str:
        return self.text

    @property
    def value(self) -> str:
        """The text before its interval ("0.912" of "0.912 [0.880, 0.940]")."""
        return self.text.split(" [", 1)[0]

    @property
    def interval(self) -> str:
        """The interval after the value, brackets included ("" when none)."""
        _, sep, rest = self.text.partition(" [")
        return f"[{rest}" if sep else ""

    @property
    def undefined(self) -> bool:
        return self.text == UNDEFINED

    @property
    def nowrap(self) -> bool:
        """A value with its interval, a spread or a place ("0.91 ± 0.02", "0.3 at 0.5")
        is kept on one line unless the table must break it."""
        return " [" in self.text or " ± " in self.text or " at " in self.text


def cells(texts) -> list[Cell]:
    """Table cells of texts (a text that is already a :class:`Cell` is kept)."""
    return [t if isinstance(t, Cell) else Cell(t) for t in texts]


def signed(text: str, value: float, *, minus: str = "-", zero: str = "") -> str:
    """``text``, a change's or a gap's size as printed, with the value's sign ("+0.0120",
    "-0.0310"; ``zero`` before 0). A size printed as "< 0.0001" keeps its side
    instead: "< 0.0001" above 0, "> -0.0001" below (never "-< 0.0001")."""
    if text.startswith("<"):
        return text if value > 0 else f"> {minus}{text[1:].strip()}"
    return (zero if value == 0 else "+" if value > 0 else minus) + text


def p_value_text(value, digits: int = 2) -> str:
    """"0.027" (2 significant digits), or "< 0.001": below it the digits say nothing
    a reader acts on, and a test's p-value under about 1e-16 comes out as 0.0
    from the distribution's tail ("p = 0" would claim a certainty no test gives)."""
    special = _special(value)
    if special:
        return special
    value = float(value)
    if value < P_FLOOR:
        return f"< {plain(P_FLOOR)}"
    return _fixed(value, _significant_decimals(value, digits))


def p_text(value, digits: int = 2) -> str:
    """"p = 0.027", or "p < 0.001" (never p = 0; see :func:`p_value_text`)."""
    text = p_value_text(value, digits)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


def with_interval(text: str, interval) -> str:
    """``text`` and its interval's ends as rates (prefer :func:`interval_text`, which
    gives the value the ends' decimals)."""
    if interval is None or text == UNDEFINED:
        return text
    lo, hi = tuple(interval)
    if lo is None or hi is None:
        return text
    return f"{text} [{rate(lo)}, {rate(hi)}]"
