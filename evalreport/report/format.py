"""How the report prints values: the one place numbers become text.

Templates never compute or format; the report's context modules call these.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import registry
from ..words import and_join

__all__ = ["UNDEFINED", "fmt", "measure_text", "Column", "Cell", "and_join", "p_text", "p_value_text",
           "with_interval", "interval_text", "measure_interval_text", "rate", "cost", "count", "number",
           "kind_of", "measure_column"]

UNDEFINED = "undefined"

# The number policy: one style per kind of value, applied to every table and sentence.
#   rate  - a rate, share or measure in [-1, 1] (AUC, F1, ECE, PC(+)): 3 decimals (0.943);
#           a nonzero value that would print as 0.000 gets 2 significant digits (0.00042)
#   cost  - a cost or any other unbounded value: 3 significant digits (0.0439, 12.3, 1,230)
#   p     - a p-value: "< 0.001", else 2 significant digits (0.027)
#   count - counts: thousands separators, integers without decimals, weighted at most 2 (1,234.57)
# Thresholds are printed by their learner's threshold_text (decimals that keep the decisions).
RATE_DECIMALS = 3
COST_DIGITS = 3
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


def _fixed(value: float, decimals: int) -> str:
    text = f"{value:,.{max(decimals, 0)}f}"
    return text[1:] if text.startswith("-") and float(text.replace(",", "")) == 0 else text


def _decimals(value: float, kind: str) -> int:
    """How many decimals ``value`` gets under the policy of ``kind`` ("rate" or "cost")."""
    import math

    a = abs(value)
    if kind == "rate":
        if a == 0 or a >= 0.5 * 10 ** -RATE_DECIMALS:
            return RATE_DECIMALS
        return 1 - math.floor(math.log10(a))  # 2 significant digits below 0.0005
    if a == 0:
        return 0
    return max(COST_DIGITS - 1 - math.floor(math.log10(a)), 0)


def rate(value) -> str:
    """A rate, share or measure in [-1, 1]: 3 decimals ("0.943")."""
    return _special(value) or _fixed(float(value), _decimals(float(value), "rate"))


def cost(value) -> str:
    """A cost (or another unbounded value): 3 significant digits ("0.0439", "1,230")."""
    return _special(value) or _fixed(float(value), _decimals(float(value), "cost"))


def count(value) -> str:
    """A count: "1,234"; a weighted count with at most 2 decimals ("1,234.57")."""
    special = _special(value)
    if special:
        return special
    if isinstance(value, int) or float(value).is_integer():
        return f"{int(value):,}"
    return f"{float(value):,.2f}".rstrip("0").rstrip(".")


def number(value) -> str:
    """A value of unknown kind by the policy: a count when integral, a rate within
    [-1, 1], else a cost (3 significant digits)."""
    special = _special(value)
    if special:
        return special
    if isinstance(value, int) or (float(value).is_integer() and abs(float(value)) < 1e15):
        return count(value)
    return rate(value) if abs(float(value)) <= 1 else cost(value)


def fmt(value, digits: int | None = None) -> str:
    """A number as text by the policy (:func:`number`): integers with separators,
    None is 'undefined', +inf thresholds are '+inf'. ``digits``: significant digits
    instead, for what is not a measured value (a curve's simplification bound)."""
    if digits is None:
        return number(value)
    special = _special(value)
    if special:
        return special
    if isinstance(value, int) or (float(value).is_integer() and abs(float(value)) < 1e15):
        return count(value)
    return f"{float(value):.{digits}g}"


def kind_of(name: str) -> str:
    """The policy's kind of the registry's measure (or table column) ``name``."""
    measure = registry.MEASURES.get(name)
    if measure is not None and measure.unit in ("cost", "ratio"):  # unbounded: significant digits
        return "cost"
    if name in COUNT_MEASURES:
        return "count"
    return "rate"


def measure_text(name: str, value) -> str:
    """A value of the registry's measure ``name`` as the registry says to print it
    (its ``format``), else by the policy of its kind; undefined is always "undefined"."""
    measure = registry.MEASURES.get(name)
    if value is None or measure is None or measure.format is None:
        kind = kind_of(name)
        if kind == "count" or isinstance(value, bool):
            return number(value)
        return rate(value) if kind == "rate" and (value is None or abs(float(value)) <= 1) else \
            (cost(value) if value is not None else UNDEFINED)
    return measure.format(value)


def interval_text(value, interval, kind: str = "rate") -> str:
    """A value and its interval on one line, the ends with the value's decimals:
    "0.943 [0.921, 0.962]". When the ends would print equal, one more decimal
    each time until they differ; an interval of zero width is "0.885 ± 0"."""
    special = _special(value)
    if special:
        return special
    value = float(value)
    base = _decimals(value, kind) if kind in ("rate", "cost") else RATE_DECIMALS
    if interval is None or None in tuple(interval):
        return _fixed(value, base) if kind in ("rate", "cost") else number(value)
    lo, hi = (float(x) for x in interval)
    if lo == hi:
        return f"{_fixed(value, base)} ± 0"
    d = base
    while _fixed(lo, d) == _fixed(hi, d) and d < 12:
        d += 1
    return f"{_fixed(value, d)} [{_fixed(lo, d)}, {_fixed(hi, d)}]"


def measure_interval_text(name: str, value, interval) -> str:
    """A measure's value with its interval (:func:`interval_text`), by its kind."""
    if value is None or interval is None or None in tuple(interval):
        return measure_text(name, value)
    kind = kind_of(name)
    return interval_text(value, interval, "rate" if kind == "rate" and abs(float(value)) <= 1 else "cost")


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
    the table, marked in the cell)."""

    text: str
    note: str = ""
    mark: str = ""  # the cell's mark, tying it to its note ("1", "2", ...)

    def __str__(self) -> str:
        return self.text


def p_value_text(value, digits: int = 2) -> str:
    """"0.027" (2 significant digits), or "< 0.001": below it the digits say nothing
    a reader acts on, and a test's p-value under about 1e-16 comes out as 0.0
    from the distribution's tail ("p = 0" would claim a certainty no test gives)."""
    special = _special(value)
    if special:
        return special
    value = float(value)
    if value < P_FLOOR:
        return f"< {P_FLOOR:g}"
    import math

    return _fixed(value, max(digits - 1 - math.floor(math.log10(value)), 0))


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
