"""The multi-class paired bootstrap (compare.stats.paired_classes) against
scikit-learn and hand computations on each resample's rows, and the leaderboard's
test of a multi-class ranking read off it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from sklearn.metrics import accuracy_score, f1_score, precision_score, recall_score, roc_auc_score

from evalreport.compare.stats import paired_classes
from evalreport.compare.stats.paired_bootstrap import paired_difference
from brute import scipy_monte_carlo_p


def _data(seed: int, n: int, k: int = 3, ties: bool = True):
    rng = np.random.default_rng(seed)
    labels = np.r_[np.arange(k), rng.integers(0, k, n - k)]  # every class present
    raw = rng.random((n, k)) + 0.8 * np.eye(k)[labels] * rng.random(n)[:, None]
    if ties:
        raw = np.round(raw, 1)  # many tied scores
    return labels, raw / raw.sum(axis=1, keepdims=True)


def _by_hand(labels, scores, cost, factor, k):
    """The measures on one set of rows, computed with scikit-learn and loops."""
    decided = np.argmax(scores, axis=1)
    p = precision_score(labels, decided, labels=range(k), average="macro", zero_division=0)
    r = recall_score(labels, decided, labels=range(k), average="macro", zero_division=0)
    num = sum(factor[y] * cost[y][d] for y, d in zip(labels, decided))
    den = sum(factor[y] for y in labels)
    return {"accuracy": accuracy_score(labels, decided),
            "error_rate": 1 - accuracy_score(labels, decided),
            "macro_f1": 2 * p * r / (p + r) if p + r else np.nan,
            "mean_f1": f1_score(labels, decided, labels=range(k), average="macro", zero_division=0),
            "cost_sensitive_error": num / den,
            "macro_auc": roc_auc_score(labels, scores, multi_class="ovr", average="macro", labels=range(k))}


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(12, 60), ties=st.booleans())
def test_each_resample_is_measured_as_scikit_learn_measures_its_rows(seed, n, ties):
    k = 3
    labels, scores = _data(seed, n, k, ties)
    cost = np.array([[0, 3, 3], [10, 0, 1], [10, 1, 0]], dtype=float)
    factor = np.array([0.5, 2.0, 1.25])
    rng = np.random.Generator(np.random.PCG64(seed))
    rows = next(paired_classes.draw_rows(labels, k, 4, rng))
    got = paired_classes.values_on_rows(labels, np.argmax(scores, axis=1), scores, rows, k,
                                        paired_classes.MEASURES, cost, factor)
    for r in range(rows.shape[0]):
        want = _by_hand(labels[rows[r]], scores[rows[r]], cost, factor, k)
        for m in paired_classes.MEASURES:
            np.testing.assert_allclose(got[m][r], want[m], rtol=1e-12, atol=1e-15, err_msg=m)


def test_the_draws_are_stratified_and_the_same_for_every_learner():
    labels, scores = _data(3, 50)
    rng = np.random.Generator(np.random.PCG64(0))
    for rows in paired_classes.draw_rows(labels, 3, 30, rng):
        for r in rows:
            np.testing.assert_array_equal(np.bincount(labels[r], minlength=3), np.bincount(labels, minlength=3))
    decided = np.argmax(scores, axis=1)
    out = paired_classes.paired_class_resamples(labels, 3, {"a": (decided, scores), "b": (decided, None)},
                                                ("accuracy", "macro_auc"), n_resamples=40, seed=5)
    # the same rows for both: the same decisions give the same accuracy in every resample
    np.testing.assert_array_equal(out.values["accuracy"]["a"], out.values["accuracy"]["b"])
    assert out.values["accuracy"]["a"].shape == (40,)
    assert "b" not in out.values["macro_auc"] and "hard decisions" in out.notes["macro_auc"]["b"]


@pytest.mark.slow
def test_the_paired_p_value_follows_an_independent_loop_over_the_same_rows():
    """The two-sided p-value of the cost difference equals the one computed from
    scratch (scikit-learn's confusion matrices) on the very rows drawn."""
    from sklearn.metrics import confusion_matrix

    k = 3
    labels, a = _data(11, 80, ties=False)
    rng = np.random.default_rng(12)
    b = np.abs(a + rng.normal(0, 0.3, a.shape))
    cost = np.array([[0, 3, 3], [10, 0, 1], [10, 1, 0]], dtype=float)
    out = paired_classes.paired_class_resamples(
        labels, k, {"a": (np.argmax(a, 1), a), "b": (np.argmax(b, 1), b)}, ("cost_sensitive_error",),
        n_resamples=300, seed=7, cost=cost)
    rows = np.concatenate(list(paired_classes.draw_rows(labels, k, 300, np.random.Generator(np.random.PCG64(7)))))

    def cost_of(scores, r):
        m = confusion_matrix(labels[r], np.argmax(scores[r], 1), labels=range(k))
        return (m * cost).sum() / m.sum()

    d = np.array([cost_of(a, r) - cost_of(b, r) for r in rows])
    want_p = scipy_monte_carlo_p(d, "two-sided")  # 2 (min side + 1) / (B + 1)
    got = paired_difference(cost_of(a, np.arange(80)), cost_of(b, np.arange(80)),
                            out.values["cost_sensitive_error"]["a"], out.values["cost_sensitive_error"]["b"])
    assert got.p_value == pytest.approx(want_p, rel=1e-12)
    np.testing.assert_allclose(got.interval, np.quantile(d, [0.025, 0.975]), rtol=1e-12)
