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


# The normal CDF and the chi-square (1 df) tail that DeLong's and McNemar's tests
# read, from math.erf / erfc (compare.stats.core), against scipy.special's.

from evalreport.compare.stats.core import chi2_sf_df1, ndtr  # noqa: E402


@settings(max_examples=1000, deadline=None)
@given(st.floats(min_value=-37.0, max_value=37.0, allow_nan=False))
def test_ndtr_within_a_few_ulp_of_scipy(x):
    # (in the far tail both are about 1e-13 from the exact value: the rounding of
    # x / sqrt(2), times 2 x^2 / 2; measured with mpmath at x = -29: ours -9.0e-14, scipy's -1.1e-13)
    want = float(scipy.special.ndtr(x))
    assert math.isclose(ndtr(x), want, rel_tol=3e-13, abs_tol=0.0) or want == ndtr(x)


@settings(max_examples=1000, deadline=None)
@given(st.floats(min_value=0.0, max_value=1400.0, allow_nan=False))  # (p above the subnormals)
def test_chi2_tail_within_3e_13_of_scipy(x):
    want = float(scipy.special.chdtrc(1, x))
    assert math.isclose(chi2_sf_df1(x), want, rel_tol=3e-13)


def test_the_ends():
    assert ndtr(0.0) == 0.5 and ndtr(-math.inf) == 0.0 and ndtr(math.inf) == 1.0 and math.isnan(ndtr(math.nan))
    assert chi2_sf_df1(0.0) == 1.0 == float(scipy.special.chdtrc(1, 0.0))
    assert math.isnan(chi2_sf_df1(-1.0)) and math.isnan(float(scipy.special.chdtrc(1, -1.0)))
    assert chi2_sf_df1(math.inf) == 0.0 and chi2_sf_df1(3.841458820694124) == pytest.approx(0.05, rel=1e-12)
