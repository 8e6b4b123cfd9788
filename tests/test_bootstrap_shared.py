"""The bootstrap once per data set (issue 38): the learners of a data set share one
stream of draws, and the paired bootstrap of the compare stage reuses the values
the intervals' pass computed. Checked against scikit-learn's AUC of each
resample's rows (drawn here with NumPy's generator, as documented), and against
each learner's own bootstrap (the same intervals, bit for bit)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from sklearn.metrics import roc_auc_score

import evalreport
from evalreport.compare import stats


def _data(seed, n=120):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n).astype(bool)
    y[:2] = [True, False]
    a = np.round(np.clip(y * 0.3 + rng.random(n) * 0.7, 0, 1), 2)  # ties, as real scores have
    b = rng.random(n)
    return y, a, b


def _sklearn_aucs(y, s, n_resamples, seed):
    """Each stratified resample's AUC by scikit-learn: the draws are the positives'
    then the negatives' positions, from PCG64(seed), all resamples in one chunk."""
    rng = np.random.Generator(np.random.PCG64(seed))
    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
    dp = rng.integers(0, pos.size, (n_resamples, pos.size))
    dn = rng.integers(0, neg.size, (n_resamples, neg.size))
    out = []
    for r in range(n_resamples):
        rows = np.concatenate([pos[dp[r]], neg[dn[r]]])
        out.append(roc_auc_score(y[rows], s[rows]))
    return np.array(out)


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), resample_seed=st.integers(0, 2**32 - 1))
def test_shared_draws_are_each_learners_own(seed, resample_seed):
    y, a, b = _data(seed)
    many = stats.resampled_values_many(y, {"a": (a, {"auc": stats.auc_score}),
                                           "b": (b, {"auc": stats.auc_score, "bep": stats.bep_score})},
                                       n_resamples=40, seed=resample_seed)
    for key, s in (("a", a), ("b", b)):
        np.testing.assert_allclose(many[key]["auc"], _sklearn_aucs(y, s, 40, resample_seed), rtol=0, atol=1e-12)
    alone = stats.resampled_values(y, b, statistics={"bep": stats.bep_score}, n_resamples=40, seed=resample_seed)
    assert np.array_equal(alone["bep"], many["b"]["bep"], equal_nan=True)


@pytest.mark.slow
def test_the_pipeline_intervals_and_paired_values_are_the_learners_own():
    y, a, b = _data(7, n=300)
    result = evalreport.from_predictions(y.astype(int), {"a": a, "b": b}, positive=1,
                                         confidence={"bootstrap": 150, "seed": 11})
    for key, s in (("a", a), ("b", b)):
        lr = result.learners[key]
        alone = stats.bootstrap_intervals(y, s, n_resamples=150, seed=11, statistics={
            "bep": stats.bep_score, "average_precision": stats.average_precision_score})
        for name in alone:
            assert tuple(lr.bootstrap[name]) == tuple(alone[name])
    resamples = result.comparisons[0].resamples
    assert set(resamples.values["auc"]) == {"a", "b"}  # the ranked measure (AUC: no costs)
    for key, s in (("a", a), ("b", b)):
        np.testing.assert_allclose(resamples.values["auc"][key], _sklearn_aucs(y, s, 150, 11), rtol=0, atol=1e-12)


def test_hard_decisions_are_still_resampled_in_pairs():
    y, a, b = _data(3, n=200)
    result = evalreport.from_predictions(y.astype(int), {"a": a, "hard": (b > 0.5).astype(int)}, positive=1,
                                         confidence={"bootstrap": 60, "seed": 2}, rank_by="f1",
                                         threshold=0.5)
    values = result.comparisons[0].resamples.values["f1"]
    assert set(values) == {"a", "hard"}
    rng = np.random.Generator(np.random.PCG64(2))
    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
    dp = rng.integers(0, pos.size, (60, pos.size))
    dn = rng.integers(0, neg.size, (60, neg.size))
    for key, decide in (("a", a >= 0.5), ("hard", b > 0.5)):
        want = []
        for r in range(60):
            rows = np.concatenate([pos[dp[r]], neg[dn[r]]])
            tp = np.sum(y[rows] & decide[rows])
            want.append(2 * tp / (2 * tp + np.sum(~y[rows] & decide[rows]) + np.sum(y[rows] & ~decide[rows])))
        np.testing.assert_allclose(values[key], want, rtol=0, atol=1e-12)
