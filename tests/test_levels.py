"""normal_quantile (metrics.levels) against scipy.special.ndtri, the function it
replaced (issue 38: the standard library's inverse normal CDF imports in a
fraction of scipy.special's time)."""

from __future__ import annotations

import math

import pytest
import scipy.special
from hypothesis import given, settings
from hypothesis import strategies as st

from evalreport.metrics.levels import normal_quantile


@pytest.mark.parametrize("level, z", [(0.95, 1.959963984540054), (0.9, 1.6448536269514722),
                                      (0.99, 2.5758293035489004)])
def test_the_usual_levels_have_the_textbook_quantiles(level, z):
    assert normal_quantile(level) == pytest.approx(z, rel=1e-15)


@settings(max_examples=500, deadline=None)
@given(st.floats(min_value=1e-12, max_value=1 - 1e-12, exclude_min=True, exclude_max=True))
def test_within_a_few_ulp_of_scipy(level):
    want = float(scipy.special.ndtri(0.5 + level / 2.0))
    got = normal_quantile(level)
    assert math.isclose(got, want, rel_tol=4e-15, abs_tol=1e-300)


def test_a_level_within_an_ulp_of_one_is_infinite_as_ndtri():
    level = math.nextafter(1.0, 0.0)
    assert normal_quantile(level) == float(scipy.special.ndtri(0.5 + level / 2.0)) == math.inf
