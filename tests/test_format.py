"""The report's number policy (report/format.py): one style per kind of value."""

from __future__ import annotations

from evalreport.report.format import (count, cost, fmt, interval_text, measure_interval_text, measure_text,
                                      p_text, p_value_text, rate)


def test_rates_have_three_decimals():
    assert [rate(v) for v in (0.94312, 0.5, 1.0, 0.008309, 0.0)] == ["0.943", "0.500", "1.000", "0.008", "0.000"]
    # a nonzero rate never prints as 0.000: 2 significant digits below 0.0005
    assert rate(0.00042) == "0.00042"
    assert rate(None) == "undefined" and rate(float("nan")) == "undefined"


def test_costs_have_three_significant_digits():
    assert [cost(v) for v in (0.04387, 0.3, 12.345, 1234.5)] == ["0.0439", "0.300", "12.3", "1,234"]
    assert measure_text("min_cost", 0.04387) == "0.0439"
    assert measure_text("log_loss", 1.2345) == "1.23"
    assert measure_text("auc", 0.99172) == "0.992"


def test_p_values():
    assert [p_value_text(v) for v in (0.0272, 0.5, 0.001, 0.00099, 0.0)] == ["0.027", "0.50", "0.0010",
                                                                            "< 0.001", "< 0.001"]
    assert p_text(0.0272) == "p = 0.027" and p_text(1e-20) == "p < 0.001"


def test_counts():
    assert [count(v) for v in (1234, 1234.0, 1234.5678, 0.5)] == ["1,234", "1,234", "1,234.57", "0.5"]
    assert fmt(1234567) == "1,234,567"


def test_intervals_take_the_values_decimals_and_never_print_equal_ends():
    assert interval_text(0.98891, (0.9761, 0.9972)) == "0.989 [0.976, 0.997]"
    assert interval_text(0.88512, (0.88501, 0.88534)) == "0.8851 [0.8850, 0.8853]"
    assert interval_text(0.5, (0.5, 0.5)) == "0.500 ± 0"
    assert interval_text(0.04387, (0.031, 0.0572), "cost") == "0.0439 [0.0310, 0.0572]"
    assert measure_interval_text("auc", 0.99, None) == "0.990"
    assert measure_interval_text("auc", None, (0.1, 0.2)) == "undefined"
