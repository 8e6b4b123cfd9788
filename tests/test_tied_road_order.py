"""Tied scores in the one ordering per learner (issue 24): the neighbours'
check that replaced the sort of every tied row, and DeLong's components of
tied runs written a piece at a time, against NumPy's stable argsort and the
two-sorts-and-searches road."""

import numpy as np
import pytest

from evalreport.compare.stats import components
from evalreport.counting import order as order_mod
from evalreport.counting.order import argsort_scores


def _mixed(rng, n):
    """Rounded scores (long tied runs), and distinct scores differing only in
    the low bits the row number takes, interleaved with ties of them."""
    s = np.round(rng.random(n), 2)
    low = rng.random(n) < 0.3
    base = np.float64(0.705).view(np.uint64)
    s[low] = (base + rng.integers(0, 64, low.sum()).astype(np.uint64)).view(np.float64)
    return s


@pytest.mark.parametrize("piece", [1, 3, 64, 1 << 20])
@pytest.mark.parametrize("seed", range(4))
def test_tied_and_low_bit_scores_order_as_stable_argsort(monkeypatch, piece, seed):
    monkeypatch.setattr(order_mod, "SMALL", 0)
    monkeypatch.setattr(order_mod, "_PIECE", piece)
    s = _mixed(np.random.default_rng(seed), 5000)
    got, ties = argsort_scores(s)
    want = np.argsort(s, kind="stable")
    np.testing.assert_array_equal(got, want)
    ranked = s[want]
    np.testing.assert_array_equal(ties, np.flatnonzero(ranked[1:] == ranked[:-1]))


def test_runs_in_order_are_not_sorted_again(monkeypatch):
    # rounded scores: every prefix run is already (score, row) ordered, so only
    # neighbours are compared; no run is re-sorted (the sort of every tied row
    # by three keys took 6 s at 10^7 rows)
    monkeypatch.setattr(order_mod, "SMALL", 0)
    called = []
    monkeypatch.setattr(order_mod, "_resort_runs", lambda *a: called.append(a))
    s = np.round(np.random.default_rng(1).random(50_000), 2)
    got, ties = argsort_scores(s)
    assert not called
    np.testing.assert_array_equal(got, np.argsort(s, kind="stable"))
    assert ties.size == s.size - np.unique(s).size


@pytest.mark.parametrize("piece", [4, 64, 1 << 20])
def test_components_of_tied_runs_by_pieces_equal_the_searches(monkeypatch, piece):
    # runs longer than piece // 4 are slices, the rest in batches of about piece positions
    rng = np.random.default_rng(3)
    n = 20_000
    y = rng.random(n) < 0.35
    s = np.where(rng.random(n) < 0.5, np.round(rng.random(n), 1), np.round(rng.random(n), 4)) + 0.3 * y
    m, k = int(y.sum()), int((~y).sum())
    monkeypatch.setattr(components, "_PIECE", piece)
    monkeypatch.setattr(components, "SMALL", 0)
    one = components.auc_components(y, s, m, k, aligned=True)
    monkeypatch.setattr(components, "SMALL", 10**12)
    two = components.auc_components(y, s, m, k, aligned=True)
    assert one[0] == two[0]
    np.testing.assert_array_equal(one[1], two[1])
    np.testing.assert_array_equal(one[2], two[2])


def test_tied_scores_are_ordered_in_bounded_memory(monkeypatch):
    # every row tied with its neighbour: the ordering and DeLong's components
    # keep a few arrays of n and pieces, not a sort of every tied row by three
    # keys (65 and 66 bytes a row before; 33 and 26 now, with these pieces)
    import tracemalloc

    monkeypatch.setattr(order_mod, "_PIECE", 1 << 14, raising=False)
    monkeypatch.setattr(components, "_PIECE", 1 << 14, raising=False)
    n = 1 << 19
    rng = np.random.default_rng(1)
    s = np.round(rng.random(n), 2)
    y = rng.random(n) < 0.3
    tracemalloc.start()
    try:
        argsort_scores(s)
        ordering = tracemalloc.get_traced_memory()[1] / n
        tracemalloc.reset_peak()
        components.structural_components(y, s)
        both = tracemalloc.get_traced_memory()[1] / n
    finally:
        tracemalloc.stop()
    assert ordering < 45 and both < 45, (ordering, both)


@pytest.mark.parametrize("kind", ["rounded", "signed", "zeros", "missed", "many"])
@pytest.mark.parametrize("piece", [7, 1 << 20])
def test_components_from_the_values_table_equal_the_searches(monkeypatch, kind, piece):
    # few distinct values: each row looks its value up in the table of values
    # (no sort of the rows), values the sample missed added; too many values
    # hand over to the ordering road. Either way the two-sorts road's numbers.
    rng = np.random.default_rng(5)
    n = 20_000
    y = rng.random(n) < 0.35
    s = {
        "rounded": lambda: np.round(rng.random(n) + 0.3 * y, 2),
        "signed": lambda: np.round(rng.standard_normal(n) + 0.3 * y, 1),  # rare extremes
        "zeros": lambda: np.where(rng.random(n) < 0.5, np.where(rng.random(n) < 0.5, -0.0, 0.0),
                                  np.round(rng.random(n) + y, 1)),
        "missed": lambda: np.concatenate((np.round(rng.random(n - 3), 1), [0.123, 0.456, 0.789])),
        "many": lambda: np.round(rng.random(n), 4),
    }[kind]()
    m, k = int(y.sum()), int((~y).sum())
    monkeypatch.setattr(components, "_PIECE", piece)
    monkeypatch.setattr(components, "SMALL", 0)
    few = components._components_few_values(y, s, m, k)
    assert (few is None) == (kind == "many")
    one = components.auc_components(y, s, m, k, aligned=True)
    monkeypatch.setattr(components, "SMALL", 10**12)
    two = components.auc_components(y, s, m, k, aligned=True)
    for got in (one, few) if few is not None else (one,):
        assert got[0] == two[0]
        np.testing.assert_array_equal(got[1], two[1])
        np.testing.assert_array_equal(got[2], two[2])


def test_rounded_scores_are_not_sorted_for_delong(monkeypatch):
    monkeypatch.setattr(components, "SMALL", 0)
    monkeypatch.setattr(components, "argsort_scores", lambda s: pytest.fail("sorted the rows"))
    rng = np.random.default_rng(2)
    y = rng.random(50_000) < 0.3
    c = components.structural_components(y, np.round(rng.random(50_000) + 0.2 * y, 2))
    assert 0.5 < c.auc < 1
