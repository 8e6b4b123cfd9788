"""The sort road of the engine's 64-bit keys (evalreport/counting/keysort.py):
NumPy's quicksort or the optional radix sort (numba), the same results."""

import numpy as np
import pytest

from evalreport.counting import keysort
from evalreport.metrics import evaluate_binary
from evalreport.counting import order as order_mod
from evalreport.counting.order import argsort_scores

# numba is optional at run time (the radix road is left out without it) but in
# the test extra: a missing numba fails here rather than skipping the road
ROADS = ["numpy", "radix"]

TINY = np.nextafter(0.0, 1.0)  # the smallest subnormal, 5e-324


def _awkward_scores(n: int, seed: int) -> np.ndarray:
    """Scores with ties, -0.0 and +0.0, infinities and the smallest subnormals."""
    rng = np.random.default_rng(seed)
    s = np.round(rng.standard_normal(n), 2)
    special = np.array([0.0, -0.0, np.inf, -np.inf, TINY, -TINY, 2 * TINY, -2 * TINY,
                        np.finfo(float).max, -np.finfo(float).max])
    at = rng.random(n) < 0.2
    s[at] = rng.choice(special, int(at.sum()))
    return s


@pytest.mark.slow
@pytest.mark.parametrize("road", ROADS)
@pytest.mark.parametrize("seed", [1, 2])
def test_argsort_scores_is_the_stable_argsort_on_either_road(monkeypatch, road, seed):
    monkeypatch.setenv("EVALREPORT_SORT", road)
    monkeypatch.setattr(order_mod, "SMALL", 0)  # the packed-key road at any size
    s = _awkward_scores(70_000, seed)
    got, ties = argsort_scores(s)
    want = np.argsort(s, kind="stable")
    np.testing.assert_array_equal(got, want)
    ranked = s[want]
    np.testing.assert_array_equal(ties, np.flatnonzero(ranked[1:] == ranked[:-1]))


@pytest.mark.parametrize("road", ROADS)
def test_sort_keys_is_np_sort(monkeypatch, road):
    monkeypatch.setenv("EVALREPORT_SORT", road)
    rng = np.random.default_rng(3)
    keys = rng.integers(0, 2**63, 100_000, dtype=np.uint64) * np.uint64(2)
    keys[:1000] = keys[1000:2000]  # equal keys
    keys[5] = 0
    keys[6] = np.iinfo(np.uint64).max
    got = keys.copy()
    keysort.sort_keys(got)
    np.testing.assert_array_equal(got, np.sort(keys))


def test_radix_sort_itself_when_numba_is_there():
    radix = keysort._load()
    assert radix is not None, "numba (in the test extra) is not installed"
    rng = np.random.default_rng(4)
    for keys in (rng.integers(0, 2**64 - 1, 5000, dtype=np.uint64, endpoint=True),
                 np.full(300, 7, dtype=np.uint64),  # every digit shared: nothing moves
                 np.arange(1000, dtype=np.uint64)[::-1].copy() << np.uint64(40)):
        got = keys.copy()
        radix(got, np.empty_like(got))
        np.testing.assert_array_equal(got, np.sort(keys))


def test_the_roads_give_the_same_report(monkeypatch):
    assert keysort._load() is not None, "numba (in the test extra) is not installed"
    rng = np.random.default_rng(5)
    n = 1 << 17
    y = (rng.random(n) < 0.3).astype(np.int64)
    out = {}
    for road in ("numpy", "radix"):
        monkeypatch.setenv("EVALREPORT_SORT", road)
        for name, s in (("continuous", rng.random(n) + 0.3 * y), ("tied", np.round(rng.random(n), 3))):
            ev = evaluate_binary(y, s)
            out.setdefault(name, []).append((ev.auc, ev.average_precision, ev.roc.fpr.tobytes(),
                                             ev.roc.tpr.tobytes(), ev.pr.precision.tobytes()))
        rng = np.random.default_rng(5)
        y = (rng.random(n) < 0.3).astype(np.int64)
    for name, (a, b) in out.items():
        assert a == b, name


def test_which_road(monkeypatch):
    monkeypatch.setenv("EVALREPORT_SORT", "numpy")
    assert keysort.road(10**7) == "uint64 keys, NumPy quicksort (EVALREPORT_SORT=numpy)"
    assert not keysort.uses_radix(np.zeros(10, dtype=np.uint64))
    monkeypatch.setenv("EVALREPORT_SORT", "auto")
    monkeypatch.setattr(keysort, "_radix", False)  # as without numba
    assert keysort.road(10**7) == "uint64 keys, NumPy quicksort (numba not installed)"
    monkeypatch.setattr(keysort, "_radix", lambda keys, scratch: None)  # as with numba
    monkeypatch.setattr(keysort, "_measured", {"radix": 0.001, "numpy": 0.004})  # radix measured faster
    assert keysort.road(keysort.RADIX_MIN - 1) == "uint64 keys, NumPy quicksort (fewer than 8,388,608 keys)"
    assert keysort.road(keysort.RADIX_MIN) == (
        "uint64 keys, LSD radix sort (11-bit digits, numba), not NumPy's SIMD quicksort "
        "(measured faster here; 2^16 keys: radix 1.00 ms, NumPy 4.00 ms)")
    assert not keysort.uses_radix(np.zeros(10, dtype=np.float64), keysort.RADIX_MIN)  # floats: NumPy
    monkeypatch.setattr(keysort, "_measured", {"radix": 0.001, "numpy": 0.0012})  # not clearly faster
    assert keysort.road(keysort.RADIX_MIN) == (
        "uint64 keys, NumPy quicksort (NumPy's sort measured faster here; "
        "2^16 keys: radix 1.00 ms, NumPy 1.20 ms)")
    assert not keysort.uses_radix(np.zeros(10, dtype=np.uint64), keysort.RADIX_MIN)
    monkeypatch.setenv("EVALREPORT_SORT", "radix")  # forced: whatever was measured
    assert keysort.uses_radix(np.zeros(10, dtype=np.uint64))


def test_the_measurement_is_made_once_and_kept(monkeypatch):
    assert keysort._load() is not None, "numba (in the test extra) is not installed"
    monkeypatch.setattr(keysort, "_measured", None)
    faster = keysort._radix_measured_faster()
    measured = keysort._measured
    assert set(measured) == {"radix", "numpy"} and min(measured.values()) > 0
    assert faster == (measured["radix"] < keysort.FASTER * measured["numpy"])
    assert keysort._radix_measured_faster() == faster and keysort._measured is measured


def test_a_bad_setting_is_named(monkeypatch):
    monkeypatch.setenv("EVALREPORT_SORT", "fast")
    with pytest.raises(ValueError, match="EVALREPORT_SORT must be auto, numpy or radix, got 'fast'"):
        keysort.sort_keys(np.zeros(10, dtype=np.uint64))
