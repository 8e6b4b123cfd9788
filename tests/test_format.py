"""The report's number style (report/format.py, docs/reference.md "How numbers print"):
3 significant digits in prose, 4 decimals in tables, the interval with its value's
digits, "< 0.0001" below 0.0001, p as "p = 0.032" or "p < 0.001", percentages with one
decimal, and never exponent notation."""

from __future__ import annotations

import math
import re
from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from evalreport.report.format import (count, cost, ends_text, fmt, interval_text, measure_interval_text, measure_text,
                                      p_text, p_value_text, percent, plain, rate, value_text)

EXPONENT = re.compile(r"\d[eE][-+]?\d")
FINITE = st.floats(min_value=-1e9, max_value=1e9, allow_nan=False, allow_infinity=False)


def test_prose_has_three_significant_digits():
    assert [rate(v) for v in (0.94312, 0.5, 1.0, 0.008309, 0.0)] == ["0.943", "0.500", "1.00", "0.00831", "0.00"]
    assert [cost(v) for v in (0.04387, 0.3, 12.345, 1234.5)] == ["0.0439", "0.300", "12.3", "1,234"]
    assert measure_text("min_cost", 0.04387) == "0.0439"
    assert measure_text("log_loss", 1.2345) == "1.23"
    assert measure_text("auc", 0.99172) == "0.992"
    assert rate(None) == "undefined" and rate(float("nan")) == "undefined"


def test_tables_have_four_decimals():
    assert [rate(v, table=True) for v in (0.94312, 0.5, 1.0, 0.008309, 0.0)] == \
        ["0.9431", "0.5000", "1.0000", "0.0083", "0.0000"]
    assert measure_text("auc", 0.99172, table=True) == "0.9917"
    assert measure_text("tp", 12, table=True) == "12"  # a count stays a count
    assert fmt(1.0, table=True) == "1.0000" and fmt(1.0) == "1"


def test_below_the_floor():
    assert value_text(0.00007) == "< 0.0001" and value_text(0.00007, table=True) == "< 0.0001"
    assert value_text(-7.7e-05) == "> -0.0001"
    assert value_text(0.0001) == "0.000100" and value_text(0.0001, table=True) == "0.0001"


def test_p_values():
    assert [p_value_text(v) for v in (0.0272, 0.5, 0.001, 0.00099, 0.0)] == ["0.027", "0.50", "0.0010",
                                                                            "< 0.001", "< 0.001"]
    assert p_text(0.0272) == "p = 0.027" and p_text(1e-20) == "p < 0.001"
    assert p_text(0.032) == "p = 0.032"


def test_counts_and_percentages():
    assert [count(v) for v in (1234, 1234.0, 1234.5678, 0.5)] == ["1,234", "1,234", "1,234.57", "0.5"]
    assert fmt(1234567) == "1,234,567"
    assert [percent(v) for v in (0.3729, 0.32, 0.05, 1.0, 0.00004)] == ["37.3%", "32.0%", "5.0%", "100.0%", "0.0%"]


def test_a_spec_number_as_written_never_in_exponents():
    assert [plain(v) for v in (1e-05, 0.1, 20.0, 2.5e-7, 0.123456789)] == \
        ["0.00001", "0.1", "20", "0.00000025", "0.123457"]
    assert plain(1e7) == "10000000"
    assert fmt(2.3e-05, 6) == "0.000023"


def test_intervals_take_the_values_digits_and_never_print_equal_ends():
    assert interval_text(0.98891, (0.9761, 0.9972)) == "0.989 [0.976, 0.997]"
    assert interval_text(0.98891, (0.9761, 0.9972), table=True) == "0.9889 [0.9761, 0.9972]"
    assert interval_text(0.88512, (0.88501, 0.88534)) == "0.8851 [0.8850, 0.8853]"
    assert interval_text(0.5, (0.5, 0.5)) == "0.500 ± 0"
    assert interval_text(0.04387, (0.031, 0.0572)) == "0.0439 [0.0310, 0.0572]"
    assert measure_interval_text("auc", 0.99, None) == "0.990"
    assert ends_text(-0.053, 0.00949) == "[-0.0530, 0.0095]" and ends_text(0.983, 1.0) == "[0.983, 1.000]"
    assert ends_text(11.24, 13.4) == "[11.2, 13.4]" and ends_text(0.5, 0.5) == "[0.500, 0.500]"
    assert measure_interval_text("auc", None, (0.1, 0.2)) == "undefined"


@given(FINITE, st.booleans())
def test_never_an_exponent(value, table):
    for text in (value_text(value, table=table), fmt(value), fmt(value, 3), plain(value), count(value)):
        assert not EXPONENT.search(text), text


@given(st.floats(min_value=1e-4, max_value=1e6, allow_nan=False), st.booleans())
def test_prose_keeps_three_significant_digits(value, negative):
    value = -value if negative else value
    text = value_text(value)
    if _prints_as_one(value, 3):  # short of ±1: never printed as ±1 (test_short_of_one_is_never_one)
        return
    digits = Decimal(text.replace(",", "")).as_tuple()
    # an independent reading: the text's digits less its leading zeros (integers keep all theirs)
    significant = len(re.sub(r"\D", "", text).lstrip("0"))
    assert significant == 3 or (abs(value) >= 999.5 and "." not in text)
    # and the text is the value to within half a unit of its last digit
    assert abs(float(text.replace(",", "")) - value) <= 0.5 * 10 ** digits.exponent + 1e-12 * abs(value)


@given(st.floats(min_value=1e-4, max_value=1e6, allow_nan=False), st.booleans())
def test_tables_keep_four_decimals(value, negative):
    value = -value if negative else value
    text = value_text(value, table=True)
    if _prints_as_one(value, 4):
        assert text == ("> 0.9999" if value > 0 else "< -0.9999")
        return
    whole, _, decimals = text.replace(",", "").partition(".")
    assert len(decimals) == 4
    assert math.isclose(float(text.replace(",", "")), round(value, 4), abs_tol=1.00001e-4)


@given(st.floats(min_value=-1, max_value=1, allow_nan=False), st.floats(0, 0.5), st.floats(0, 0.5),
       st.booleans())
def test_an_interval_has_its_values_digits(value, below, above, table):
    lo, hi = value - below, value + above
    text = interval_text(value, (lo, hi), table=table)
    if hi - lo < 1e-9 or min(abs(value), abs(lo), abs(hi)) < 1e-4:
        return
    head, _, ends = text.partition(" [")
    a, b = ends.rstrip("]").split(", ")
    places = {len(x.partition(".")[2]) for x in (head, a, b)}
    assert len(places) == 1  # the value and both ends, the same decimals
    assert a != b


@given(st.floats(0, 1, allow_nan=False))
def test_percentages_have_one_decimal(share):
    text = percent(share)
    assert re.fullmatch(r"\d{1,3}\.\d%", text)
    assert abs(float(text[:-1]) - 100 * share) <= 0.05 + 1e-9


@given(st.floats(0, 1, allow_nan=False))
def test_p_values_are_p_equals_or_below_the_floor(p):
    text = p_text(p)
    assert re.fullmatch(r"p = (0\.\d+|1\.0*)|p < 0\.001", text), text
    if text.startswith("p = "):
        assert p >= 0.001 and math.isclose(float(text[4:]), p, rel_tol=0.06)


def _prints_as_one(value: float, decimals: int) -> bool:
    """Whether ``value``, short of ±1, rounds to ±1 with ``decimals`` (Decimal, not the code's f-format)."""
    return 0 < 1 - abs(value) and abs(Decimal(value).quantize(Decimal(1).scaleb(-decimals))) == 1


@given(st.floats(min_value=0.99, max_value=1, exclude_max=True), st.booleans(), st.booleans())
def test_short_of_one_is_never_one(value, negative, table):
    # a measure's 1 is perfect: 0.99959 is "0.9996", not "1.00" (model-risk review: "auc = 1.00"
    # for an AUC of 0.9996); at 4 decimals and still 1, "> 0.9999"
    value = -value if negative else value
    text = value_text(value, table=table)
    if _prints_as_one(value, 4):
        assert text == ("> 0.9999" if value > 0 else "< -0.9999")
    else:
        shown = Decimal(text)
        assert abs(shown) != 1 and abs(shown - Decimal(value)) <= Decimal("0.5") * Decimal(10) ** shown.as_tuple().exponent
        if not _prints_as_one(value, 4 if table else 3):  # no more digits than the policy's where not needed
            assert len(text.partition(".")[2]) == (4 if table else 3 if abs(value) < 1 else 2)
    assert value_text(1.0) == "1.00" and value_text(-1.0, table=True) == "-1.0000"


def test_short_of_one_by_hand():
    assert [value_text(v) for v in (0.99959, 0.9994, 0.99996, -0.99959)] == ["0.9996", "0.999", "> 0.9999", "-0.9996"]
    assert [value_text(v, table=True) for v in (0.99994, 0.99996)] == ["0.9999", "> 0.9999"]
    assert interval_text(0.99959, (0.998, 1.0)) == "0.9996 [0.9980, 1.0000]"
    assert ends_text(0.9981, 0.99958) == "[0.9981, 0.9996]" and ends_text(0.983, 1.0) == "[0.983, 1.000]"
