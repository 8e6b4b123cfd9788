"""How the report prints values: the one place numbers become text.

Templates never compute or format; the report's context modules call these.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import registry
from ..words import and_join

__all__ = ["UNDEFINED", "fmt", "measure_text", "Column", "Cell", "and_join", "p_text", "p_value_text",
           "with_interval"]

UNDEFINED = "undefined"


def fmt(value, digits: int = 4) -> str:
    """A number as text: integers with separators, floats to ``digits`` significant
    places; None is 'undefined'; +inf thresholds are 'inf' (nothing positive)."""
    if value is None:
        return UNDEFINED
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    value = float(value)
    if value != value:
        return UNDEFINED
    if value in (float("inf"), float("-inf")):
        return "+inf" if value > 0 else "-inf"
    if value.is_integer() and abs(value) < 1e15:
        return f"{int(value):,}"
    return f"{value:.{digits}g}"


def measure_text(name: str, value) -> str:
    """A value of the registry's measure ``name`` as the registry says to print it
    (its ``format``), else as :func:`fmt`; undefined is always "undefined"."""
    measure = registry.MEASURES.get(name)
    if value is None or measure is None or measure.format is None:
        return fmt(value)
    return measure.format(value)


@dataclass(frozen=True)
class Column:
    key: str
    label: str
    better: str  # "higher", "lower" or ""


@dataclass(frozen=True)
class Cell:
    """A table cell: its text, and the warning about its value (printed beside
    the table, marked in the cell)."""

    text: str
    note: str = ""
    mark: str = ""  # the cell's mark, tying it to its note ("1", "2", ...)

    def __str__(self) -> str:
        return self.text


def p_value_text(value, digits: int = 3) -> str:
    """"0.0272", or "< 1e-16" below the float resolution: a test's p-value
    under about 1e-16 comes out as 0.0 from the distribution's tail, and
    "p = 0" would claim a certainty no test gives."""
    if value is None:
        return UNDEFINED
    return "< 1e-16" if value < 1e-16 else fmt(value, digits)


def p_text(value, digits: int = 3) -> str:
    """"p = 0.0272", or "p < 1e-16" (never p = 0; see :func:`p_value_text`)."""
    text = p_value_text(value, digits)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


def with_interval(text: str, interval) -> str:
    if interval is None or text == UNDEFINED:
        return text
    lo, hi = tuple(interval)
    if lo is None or hi is None:
        return text
    return f"{text} [{fmt(lo, 3)}, {fmt(hi, 3)}]"
