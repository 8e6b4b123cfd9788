"""counting/rated_pass.py: the compiled pass over each sorted part gives the
NumPy pass's outputs bit for bit (rates, thresholds, positives' rows, ties),
whatever the threads and parts, and leaves the keys as the key-runs road
needs them when it stops at the tie limit."""

from __future__ import annotations

import numpy as np
import pytest

import evalreport.counting.parallel as parallel
import evalreport.counting.sorting as sorting
from evalreport.metrics import evaluate_binary
from evalreport.counting.few_ties import FewTiesTable, few_ties_limit
from evalreport.counting.rated_pass import compiled_pass, uses_compiled_pass

import numba  # noqa: F401


def _inputs(kind: str, n: int, seed: int):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.35).astype(np.int64)
    s = rng.random(n) + 0.3 * y
    if kind == "few ties":
        for _ in range(5):
            s[rng.integers(0, n, 2)] = s[rng.integers(0, n)]
        s[rng.integers(0, n, 4)] = s.max()
    if kind == "many ties":  # past the limit: found by the pass, which stops
        s = np.round(s, 3)
    return y, s


def _everything(y, s):
    ev = evaluate_binary(y, s)
    return type(ev.counts), (ev.auc, ev.average_precision, ev.bep, ev.expected_total_cost), [
        a.tobytes() for a in (ev.roc.fpr, ev.roc.tpr, ev.roc.threshold, ev.pr.precision, ev.hull.index,
                              ev.counts.tp, ev.counts.fp)]


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["distinct", "few ties", "many ties"])
@pytest.mark.parametrize("negative", [False, True])
def test_compiled_pass_equals_the_numpy_pass(monkeypatch, kind, negative):
    # the guess before the sort would send the tied inputs elsewhere; parts of 2^12
    monkeypatch.setattr(sorting, "_ties_in_spread_sample", lambda keys: False)
    monkeypatch.setattr(parallel, "MIN_SORT_PART", 1 << 12)
    y, s = _inputs(kind, 60_001, 7)
    if negative:
        s = -s
    results = {}
    for road in ("numpy", "compiled"):
        monkeypatch.setenv("EVALREPORT_PASS", road)
        assert uses_compiled_pass(s.size) == (road == "compiled")
        for threads in ("1", "2", "5"):
            monkeypatch.setenv("EVALREPORT_THREADS", threads)
            results[road, threads] = _everything(y, s)
    first = results["numpy", "1"]
    assert all(got == first for got in results.values())
    expected = {"distinct": "UnitStepTable", "few ties": "FewTiesTable", "many ties": "CountTable"}[kind]
    assert first[0].__name__ == expected


def test_the_kernel_stops_past_the_limit_and_reports_its_ties():
    kernel = compiled_pass()
    n = 1000
    rng = np.random.default_rng(3)
    scores = rng.integers(0, 50, n).astype(np.uint64)
    keys = np.sort((scores << np.uint64(1)) | (rng.random(n) < 0.5).astype(np.uint64))
    n_pos = int(np.count_nonzero(keys & np.uint64(1)))
    expected_ties = np.flatnonzero((keys[1:] >> np.uint64(1)) == (keys[:-1] >> np.uint64(1)))
    curves = [np.empty(n + 1), np.empty(n + 1), np.empty(n)]
    rows = np.empty(n_pos, dtype=np.int64)
    tied = np.empty(n, dtype=np.int64)
    done = keys.copy()
    low, tp, count = kernel(done, 0, n, n, 0, n_pos, *curves, rows, False, tied, n)
    assert (low, tp, count) == (0, n_pos, expected_ties.size)
    np.testing.assert_array_equal(np.sort(tied[:count]), expected_ties)
    np.testing.assert_array_equal(done, keys >> np.uint64(1))  # the thresholds' bits
    np.testing.assert_array_equal(rows, n - np.flatnonzero(keys & np.uint64(1))[::-1])
    limit = 10
    low, tp, count = kernel(keys.copy(), 0, n, n, 0, n_pos, *curves, rows, False, tied, limit)
    assert count == limit + 1 and low == expected_ties[-limit - 1]  # stopped where the eleventh was found


def test_auto_takes_the_compiled_pass_only_for_large_inputs(monkeypatch):
    monkeypatch.delenv("EVALREPORT_PASS", raising=False)
    from evalreport.counting.keysort import RADIX_MIN
    assert not uses_compiled_pass(RADIX_MIN - 1) and uses_compiled_pass(RADIX_MIN)
    monkeypatch.setenv("EVALREPORT_PASS", "fast")
    with pytest.raises(ValueError, match="EVALREPORT_PASS"):
        uses_compiled_pass(10)


def test_few_ties_limit_is_the_same_on_both_roads(monkeypatch):
    monkeypatch.setattr(sorting, "_ties_in_spread_sample", lambda keys: False)
    n = 20_000
    limit = few_ties_limit(n)
    rng = np.random.default_rng(5)
    y = (rng.random(n) < 0.5).astype(np.int64)
    s = rng.random(n)
    order = np.argsort(s)
    s[order[np.arange(limit) * 4]] = s[order[np.arange(limit) * 4 + 1]]
    for road in ("numpy", "compiled"):
        monkeypatch.setenv("EVALREPORT_PASS", road)
        assert isinstance(evaluate_binary(y, s).counts, FewTiesTable)
