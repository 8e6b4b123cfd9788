"""A few tied scores among distinct ones (counting/few_ties.py): the distinct
road's table with the rows inside each tie dropped, against the general road
(the same scores with unit weights, which never takes the key roads) and
scikit-learn; the same bits whatever the threads and parts; the limit."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import average_precision_score, roc_auc_score

import evalreport.counting.parallel as parallel
import evalreport.counting.sorting as sorting
from evalreport.metrics import evaluate_binary
from evalreport.metrics.binary import evaluate_binary_for_report


def _lazy(y, s):  # the road that forms tp whole (no rates formed with the table)
    return evaluate_binary(y, s, lazy_curves=True)


ROADS = [evaluate_binary, evaluate_binary_for_report, _lazy]
from evalreport.counting.few_ties import FewTiesTable, _drop_ranges, few_ties_limit
from evalreport.counting.table import CountTable


@pytest.fixture(autouse=True)
def _no_spread_guess(monkeypatch):
    # The guess before the sort sends small tied inputs to the key-runs road
    # (it reads every key below 4,096): without it they take the rated road.
    monkeypatch.setattr(sorting, "_ties_in_spread_sample", lambda keys: False)


def _with_ties(seed: int, n: int, ties: int, *, top: int = 0, bottom: int = 0, negative: bool = False):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < rng.uniform(0.1, 0.9)).astype(np.int64)
    y[:2] = (0, 1)
    s = rng.random(n) + 0.3 * y
    for _ in range(ties):  # a score repeated once or a few times
        s[rng.integers(2, n, rng.integers(1, 4))] = s[rng.integers(0, n)]
    if top:  # capped probabilities: rows of both classes at the highest score
        s[rng.integers(0, n, top)] = s.max()
    if bottom:
        s[rng.integers(0, n, bottom)] = s.min()
    return y, (-s if negative else s)


def _assert_as_general_road(y, s, evaluate=evaluate_binary):
    ev = evaluate(y, s)
    ref = evaluate_binary(y, s, sample_weight=np.ones(y.size))  # the general road
    assert ev.auc == ref.auc and ev.rank_loss == ref.rank_loss and ev.bep == ref.bep
    assert ev.average_precision == pytest.approx(ref.average_precision, rel=1e-14)
    assert ev.expected_total_cost == ref.expected_total_cost
    table = ev.counts
    assert len(table) == np.unique(s).size and table.n_rows == y.size
    np.testing.assert_array_equal(table.threshold, ref.counts.threshold)
    np.testing.assert_array_equal(table.tp, ref.counts.tp.astype(np.int64))
    np.testing.assert_array_equal(table.fp, ref.counts.fp.astype(np.int64))
    for t in (s[0], s[1], float(np.median(s)), s.max(), s.min(), 0.5):  # (before the curves decode all)
        assert ev.at_threshold(t) == ref.at_threshold(t)
    for a, b in ((ev.roc.fpr, ref.roc.fpr), (ev.roc.tpr, ref.roc.tpr), (ev.roc.threshold, ref.roc.threshold),
                 (ev.pr.precision, ref.pr.precision), (ev.pr.recall, ref.pr.recall)):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(ev.hull.index, ref.hull.index)
    np.testing.assert_array_equal(ev.hull.fpr, ref.hull.fpr)
    np.testing.assert_array_equal(ev.hull.threshold, ref.hull.threshold)
    np.testing.assert_array_equal(ev.cost_curve.cost, ref.cost_curve.cost)
    for t in (s[0], s[1], float(np.median(s)), s.max(), s.min(), 0.5):
        assert ev.at_threshold(t) == ref.at_threshold(t)
    assert ev.operating_point(0.3) == ref.operating_point(0.3)
    assert ev.auc == pytest.approx(roc_auc_score(y, s), abs=1e-12)
    assert ev.average_precision == pytest.approx(average_precision_score(y, s), abs=1e-12)
    return ev


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(4_000, 20_000), st.integers(1, 3),
       st.sampled_from([0, 0, 2, 5]), st.sampled_from([0, 3]), st.booleans(), st.sampled_from(ROADS))
def test_few_ties_table_is_the_general_roads(seed, n, ties, top, bottom, negative, evaluate):
    # each road: the rates formed with the table, a report's (sorted keys and
    # tp kept), tp formed whole (lazy curves)
    y, s = _with_ties(seed, n, ties, top=top, bottom=bottom, negative=negative)
    ev = _assert_as_general_road(y, s, evaluate)
    assert isinstance(ev.counts, FewTiesTable) == (y.size - np.unique(s).size <= few_ties_limit(y.size))


@pytest.mark.parametrize("evaluate", ROADS)
def test_a_tie_at_a_vertex_of_the_distinct_hull(evaluate):
    # a tie of both classes at the top score: the as-if hull's first vertex
    # lies inside it, and the hull is found again without it
    y, s = _with_ties(5, 5_000, 1, top=6)
    y[np.flatnonzero(s == s.max())[:3]] = (0, 1, 1)
    ev = _assert_as_general_road(y, s, evaluate)
    assert isinstance(ev.counts, FewTiesTable)


@pytest.mark.parametrize("negative", [False, True])
def test_the_same_bits_whatever_the_threads_and_parts(monkeypatch, negative):
    # parts of 1,024 keys, so that ties fall inside and across parts
    monkeypatch.setattr(parallel, "MIN_SORT_PART", 1 << 10)
    y, s = _with_ties(11, 40_000, 40, top=4, bottom=3, negative=negative)
    s[np.argsort(s)[[10_000, 20_000, 30_000]]] = np.sort(s)[[10_001, 20_001, 30_001]]
    results = []
    for threads in ("1", "2", "3", "8"):
        monkeypatch.setenv("EVALREPORT_THREADS", threads)
        for evaluate in ROADS:  # (and every road gives the same numbers, as lazy_curves promises)
            ev = evaluate(y, s)
            assert isinstance(ev.counts, FewTiesTable)
            results.append(ev)
    first = results[0]
    for ev in results[1:]:
        assert (ev.auc, ev.average_precision, ev.bep, ev.expected_total_cost) == (
            first.auc, first.average_precision, first.bep, first.expected_total_cost)
        np.testing.assert_array_equal(ev.roc.fpr, first.roc.fpr)
        np.testing.assert_array_equal(ev.pr.precision, first.pr.precision)
        np.testing.assert_array_equal(ev.hull.index, first.hull.index)
    _assert_as_general_road(y, s)


@pytest.mark.parametrize("extra, few", [(0, True), (1, False)])
def test_past_the_limit_the_key_runs_road(monkeypatch, extra, few):
    monkeypatch.setattr(parallel, "MIN_SORT_PART", 1 << 10)
    n = 8_192
    limit = few_ties_limit(n)
    rng = np.random.default_rng(3)
    y = (rng.random(n) < 0.4).astype(np.int64)
    s = rng.random(n)
    order = np.argsort(s)
    pairs = order[np.arange(limit + extra) * 3]  # this many neighbouring tied pairs
    s[pairs] = s[order[np.arange(limit + extra) * 3 + 1]]
    assert n - np.unique(s).size == limit + extra
    for threads in ("1", "2", "5"):
        monkeypatch.setenv("EVALREPORT_THREADS", threads)
        for evaluate in ROADS:
            ev = _assert_as_general_road(y, s, evaluate)
            assert isinstance(ev.counts, FewTiesTable) == few
            assert isinstance(ev.counts, CountTable)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 300_000), st.lists(st.tuples(st.integers(0, 299_999), st.integers(1, 70_000)),
                                            min_size=1, max_size=5))
def test_drop_ranges_is_np_delete(size, spans):
    # the compaction in place, either side moving, against np.delete
    cuts, last = [], 0
    for start, width in sorted(spans):
        start = max(start % size, last)
        stop = min(start + width, size)
        if start < stop:
            cuts.append((start, stop))
            last = stop + 1  # disjoint and apart, as ties are
    if not cuts:
        return
    values = np.arange(size, dtype=np.float64) * 0.5
    expected = np.delete(values, np.concatenate([np.arange(a, b) for a, b in cuts]))
    np.testing.assert_array_equal(_drop_ranges(values, cuts), expected)
