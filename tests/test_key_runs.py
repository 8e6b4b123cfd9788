"""counting/sorting._table_from_key_runs, the tied road's table, against a count
made by np.unique on the raw scores (not by this project's keys): one row per
distinct score, thresholds descending, cumulative positives and negatives."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalreport.counting.sorting import ONE, _table_from_key_runs


def _keys(scores: np.ndarray, labels: np.ndarray, negative: bool) -> np.ndarray:
    # the engine's key: the score's bits (inverted for scores <= -0.0) shifted, the label below
    bits = scores.view(np.uint64)
    return np.sort(((~bits if negative else bits) << ONE) | labels.astype(np.uint64))


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.integers(1, 300), st.integers(1, 40), st.booleans(), st.integers(0, 2**32 - 1),
       st.sampled_from([None, 1, 2, 5, 16]), st.sampled_from(["1", "2", "3"]))
def test_table_from_key_runs_counts_each_distinct_score(n, values, negative, seed, stretch, threads):
    # short stretches and several parts: runs cut at their edges are joined
    import os

    import evalreport.counting.sorting as sorting
    saved, before = sorting.RUN_STRETCH, os.environ.get("EVALREPORT_THREADS")
    sorting.RUN_STRETCH = stretch or saved
    os.environ["EVALREPORT_THREADS"] = threads
    try:
        _check_key_runs(n, values, negative, seed)
    finally:
        sorting.RUN_STRETCH = saved
        if before is None:
            del os.environ["EVALREPORT_THREADS"]
        else:
            os.environ["EVALREPORT_THREADS"] = before


def _check_key_runs(n, values, negative, seed):
    rng = np.random.default_rng(seed)
    scores = rng.integers(0, values, n) / values + 1e-3
    if negative:
        scores = -scores
    labels = rng.random(n) < rng.random()
    table = _table_from_key_runs(_keys(scores, labels, negative), invert=negative)
    distinct, inverse = np.unique(scores, return_inverse=True)
    pos = np.bincount(inverse, weights=labels, minlength=distinct.size)[::-1]
    neg = np.bincount(inverse, weights=~labels, minlength=distinct.size)[::-1]
    assert table.threshold.tolist() == distinct[::-1].tolist()
    assert table.tp.tolist() == [0] + np.cumsum(pos).astype(int).tolist()
    assert table.fp.tolist() == [0] + np.cumsum(neg).astype(int).tolist()
