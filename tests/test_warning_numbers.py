"""No exponent notation in the texts of warnings and notes (issue 34): their numbers
print through the one number style's ``general`` (what ``:g`` prints, a power of ten
where ``:g`` would write an exponent) and ``plain`` (a number the spec gave, as
written). The printed value is read back here with Decimal, independently of the
code that wrote it."""

from __future__ import annotations

import re
from decimal import Decimal

import numpy as np
import pytest
from hypothesis import given, strategies as st

from evalreport.number_style import general, magnitude

#: any exponent notation: 1e+200, 2.5E-7, 1e300
EXPONENT = re.compile(r"\d[eE][-+]?\d")
_DIGITS = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")


def _read(text: str) -> Decimal:
    """A printed number back as a Decimal: "1.5", "-2.22 × 10⁻¹⁶", "1 × 10²⁰⁰"."""
    if " × 10" in text:
        mantissa, power = text.split(" × 10")
        return Decimal(mantissa) * Decimal(10) ** int(power.translate(_DIGITS))
    return Decimal(text)


@given(st.floats(allow_nan=False, allow_infinity=False), st.integers(1, 6))
def test_general_never_writes_an_exponent_and_reads_back(x, digits):
    text = general(x, digits)
    assert not EXPONENT.search(text) and "e" not in text, text
    # the same digits as Python's :g where it writes none
    plain_g = f"{x:.{digits}g}"
    if "e" not in plain_g:
        assert text == plain_g
    # rounded to `digits` significant digits: within half a unit of the last one
    if x != 0:
        error = abs(_read(text) - Decimal(x)) / abs(Decimal(x))
        assert error <= Decimal(5) * Decimal(10) ** -digits


def test_general_by_hand():
    assert general(1e200) == "1 × 10²⁰⁰"
    assert general(2.5e-300, 3) == "2.5 × 10⁻³⁰⁰"
    assert general(-2.220446049250313e-16, 3) == "-2.22 × 10⁻¹⁶"
    assert general(123456789, 4) == "1.235 × 10⁸"
    assert general(0.0001) == "0.0001" and general(0.00001) == "1 × 10⁻⁵"
    assert general(0.25) == "0.25" and general(1234.5) == "1234.5" and general(0.0) == "0"
    assert (general(None), general(float("nan")), general(float("inf")), general(-np.inf)) == \
        ("undefined", "undefined", "+inf", "-inf")
    assert magnitude(np.finfo(np.float64).max, 2) == "1.8 × 10³⁰⁸"


def test_weights_that_overflow_are_named_without_exponents():
    from evalreport.counting.table import weight_scale_problem

    text = weight_scale_problem(1e200, 3e200)
    assert text == "the product of the classes' total weights (1 × 10²⁰⁰ and 3 × 10²⁰⁰) overflows"
    assert weight_scale_problem(1e-200, 2e-200).endswith("(1 × 10⁻²⁰⁰ and 2 × 10⁻²⁰⁰) underflows")
    assert weight_scale_problem(float("inf"), 1.0) == \
        "the weights sum past the largest float64 (about 1.8 × 10³⁰⁸)"


def test_scores_outside_0_1_are_named_without_exponents():
    from evalreport.metrics.calibration import not_probabilities

    text = not_probabilities(np.array([-1e-12, 0.5, 3e9]))
    assert "[-1 × 10⁻¹², 3 × 10⁹]" in text and not EXPONENT.search(text)
    # ordinary values print as they did (:g, 6 significant digits)
    assert "[-0.25, 1.5]" in not_probabilities(np.array([-0.25, 1.5]))


def test_a_negative_multiclass_score_is_named_without_exponents():
    from evalreport.tasks.multiclass_evaluate import _as_probabilities

    warnings = []
    ok, _ = _as_probabilities(np.array([[1.0 + 1e-12, -1e-12], [0.5, 0.5]]), "model", warnings)
    assert not ok
    (w,) = warnings
    assert "(a score is negative: -1 × 10⁻¹²)" in w.message and not EXPONENT.search(w.message)


def test_a_skipped_history_entry_is_named_without_exponents():
    from evalreport.history.entry import BadEntry, _number, _shown

    assert _shown(1e300) == "1 × 10³⁰⁰" and _shown(0.5) == "0.5" and _shown(7) == "7"
    with pytest.raises(BadEntry) as e:
        _number(-1e-300, "learners.a.auc", low=0.0)
    assert e.value.reason == "learners.a.auc must be at least 0, not -1 × 10⁻³⁰⁰"


def test_operating_points_the_spec_gave_print_as_written():
    from evalreport.metrics.operating_table import row_label

    assert row_label("at", 0.5) == "at threshold 0.5"
    assert row_label("at", 0.00001) == "at threshold 0.00001"
    assert row_label("top_fraction", 0.1) == "top 10% flagged"
    assert row_label("top_fraction", 0.00002) == "top 0.002% flagged"
    assert row_label("fpr", 1e-7) == "FPR <= 0.0000001"
