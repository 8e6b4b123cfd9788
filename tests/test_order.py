"""argsort_scores against NumPy's stable argsort, and DeLong's components by
one ordering against the two-sorts-and-searches road."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalreport.compare.stats import components
from evalreport.counting import order as order_mod
from evalreport.counting.order import argsort_scores


def _check(s):
    got, ties = argsort_scores(s)
    want = np.argsort(s, kind="stable")
    np.testing.assert_array_equal(got, want)
    ranked = s[want]
    np.testing.assert_array_equal(ties, np.flatnonzero(ranked[1:] == ranked[:-1]))


@pytest.fixture
def packed_always(monkeypatch):
    """Take the packed-key road whatever the size."""
    monkeypatch.setattr(order_mod, "SMALL", 0)
    monkeypatch.setattr(components, "SMALL", 0)


@pytest.mark.parametrize("kind", ["continuous", "rounded", "signed", "zeros", "low-bits", "constant"])
def test_same_order_as_stable_argsort(packed_always, kind):
    rng = np.random.default_rng(7)
    n = 50_000
    s = {
        "continuous": lambda: rng.random(n),
        "rounded": lambda: np.round(rng.random(n), 2),
        "signed": lambda: rng.standard_normal(n),
        "zeros": lambda: np.where(rng.random(n) < 0.2, 0.0, rng.standard_normal(n)),
        # distinct scores that differ only in the bits the row number takes
        "low-bits": lambda: (np.float64(0.7).view(np.uint64)
                             + rng.integers(0, 2**16, n).astype(np.uint64)).view(np.float64),
        "constant": lambda: np.full(n, 0.25),
    }[kind]().copy()
    if kind == "signed":
        s[::7] = -0.0  # ties with +0.0 below
        s[::11] = 0.0
    _check(s)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(allow_nan=False, allow_infinity=False, width=64), min_size=1, max_size=60))
def test_property_any_finite_floats(values):
    s = np.array(values, dtype=np.float64)
    old = order_mod.SMALL
    order_mod.SMALL = 0
    try:
        _check(s)
    finally:
        order_mod.SMALL = old


@pytest.mark.parametrize("decimals", [None, 1, 3])
@pytest.mark.parametrize("signed", [False, True])
def test_delong_components_from_one_order_equal_the_searches(monkeypatch, decimals, signed):
    rng = np.random.default_rng(3)
    n = 20_000
    y = rng.random(n) < 0.35
    s = (rng.standard_normal(n) if signed else rng.random(n)) + 0.4 * y
    if decimals is not None:
        s = np.round(s, decimals)
    m, k = int(y.sum()), int((~y).sum())
    monkeypatch.setattr(components, "SMALL", 0)
    one = components.auc_components(y, s, m, k, aligned=True)
    monkeypatch.setattr(components, "SMALL", 10**12)
    two = components.auc_components(y, s, m, k, aligned=True)
    assert one[0] == two[0]
    np.testing.assert_array_equal(one[1], two[1])
    np.testing.assert_array_equal(one[2], two[2])


@pytest.mark.parametrize("decimals", [None, 1])
def test_delong_components_from_one_order_by_brute_force(monkeypatch, decimals):
    # the definition, pair by pair: V10 of a positive is the share of negatives
    # scoring below it (ties 1/2), V01 of a negative the share of positives above
    rng = np.random.default_rng(11)
    n = 400
    y = rng.random(n) < 0.4
    s = rng.standard_normal(n) + 0.5 * y
    if decimals is not None:
        s = np.round(s, decimals)
    monkeypatch.setattr(components, "SMALL", 0)
    x, z = s[y], s[~y]
    wins = (x[:, None] > z[None, :]) + 0.5 * (x[:, None] == z[None, :])
    auc, v10, v01 = components.auc_components(y, s, x.size, z.size, aligned=True)
    np.testing.assert_allclose(v10, wins.mean(axis=1), rtol=0, atol=1e-15)
    np.testing.assert_allclose(v01, wins.mean(axis=0), rtol=0, atol=1e-15)
    assert auc == pytest.approx(wins.mean(), abs=1e-15)
