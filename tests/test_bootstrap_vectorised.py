"""The bootstrap's statistics computed for many resamples at once (issue 24) are the
very floats the engine gives each resample's count table, and the resamples are
the very draws of before (int32 draws from the same stream as int64 ones)."""

from __future__ import annotations

import numpy as np
import pytest

from evalreport.compare.stats import bootstrap as B
from evalreport.compare.stats import bootstrap_hull as H
from evalreport.compare.stats import bootstrap_measures as M
from evalreport.metrics.cost import upper_hull_indices

STATS = {
    "bep": B.bep_score,
    "ap": B.average_precision_score,
    "etc": B.expected_total_cost,
    "auc": B.auc_score,
    "f1@0.5": B.f1_at(0.5),
    "f1@0.9": B.f1_at(0.9),
}


def _case(n, decimals, seed, share=0.35):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < share
    s = np.round(rng.random(n) + 0.5 * y, decimals)  # few decimals: ties, within and across classes
    return y, s


CASES = [(10, 1, 0), (10, 8, 1), (37, 2, 2), (200, 8, 3), (200, 1, 4), (1500, 3, 5), (3000, 9, 6)]


@pytest.mark.parametrize("stratified", [True, False])
@pytest.mark.parametrize("n, decimals, seed", CASES)
def test_each_vectorised_statistic_is_the_engines_value_of_each_resample(n, decimals, seed, stratified):
    y, s = _case(n, decimals, seed)
    rng = np.random.Generator(np.random.PCG64(seed))
    for chunk in B._resampled_chunks(y, s, 60, rng, stratified):
        for name, statistic in STATS.items():
            fast = statistic._vectorised(chunk)
            slow = B._per_resample(statistic, chunk)  # evaluate_counts of each resample's table
            np.testing.assert_array_equal(fast, slow, err_msg=name)


def test_one_class_and_one_row():
    # one class: what needs the other is undefined in every resample
    ci = B.bootstrap_intervals([1, 1, 1], [0.1, 0.2, 0.3], n_resamples=20,
                               statistics={"auc": B.auc_score, "bep": B.bep_score, "etc": B.expected_total_cost,
                                           "ap": B.average_precision_score})
    assert ci == {"auc": (None, None), "bep": (1.0, 1.0), "etc": (None, None), "ap": (1.0, 1.0)}
    one = B.bootstrap_intervals([0, 1], [0.5, 0.5], n_resamples=5, statistics={"ap": B.average_precision_score})
    assert one == {"ap": (0.5, 0.5)}


def test_a_statistic_without_a_vectorised_form_reads_each_resamples_evaluation():
    y, s = _case(200, 3, 7)
    ci = B.bootstrap_intervals(y, s, n_resamples=50, statistics={
        "auc": B.auc_score, "rank_loss": lambda ev: ev.rank_loss})
    assert ci["auc"].low == pytest.approx(1.0 - ci["rank_loss"].high)
    assert ci["auc"].high == pytest.approx(1.0 - ci["rank_loss"].low)


@pytest.mark.parametrize("high", [1, 2, 3, 569, 7000, 2**20 + 3, 2**31 - 1])
def test_int32_draws_are_the_int64_draws(high):
    a, b = np.random.Generator(np.random.PCG64(3)), np.random.Generator(np.random.PCG64(3))
    for shape in [(7, 13), (3, 1000), (2, 2)]:
        np.testing.assert_array_equal(B._draw(a, high, shape), b.integers(0, high, size=shape))


def test_the_hull_of_many_rows_at_once_is_upper_hull_indices_of_each():
    rng = np.random.default_rng(11)
    for width, step in [(5, 2), (40, 4), (3000, 16), (1001, 64)]:
        old = H._HULL_STEP, H._HULL_DIRECT
        H._HULL_STEP, H._HULL_DIRECT = step, 4 * step
        try:
            # staircases with repeated points (steps of zero), ties (diagonal steps)
            # and long straight runs (collinear points)
            dx = rng.integers(0, 3, size=(30, width - 1)) * (rng.random((30, width - 1)) < 0.6)
            dy = rng.integers(0, 3, size=(30, width - 1)) * (rng.random((30, width - 1)) < 0.5)
            dx[:, -1] += 1  # both classes present
            dy[:, 0] += 1
            if width > 10:  # in a third of the rows the chain ends with repeats of its end
                dx[::3, -3:] = dy[::3, -3:] = 0
                dx[::3, -4] += 1
            x = np.concatenate((np.zeros((30, 1), np.int64), np.cumsum(dx, axis=1)), axis=1)
            y = np.concatenate((np.zeros((30, 1), np.int64), np.cumsum(dy, axis=1)), axis=1)
            got = H.hull_rows(x, y)
        finally:
            H._HULL_STEP, H._HULL_DIRECT = old
        for r in range(30):
            # the engine's tables have no repeated points (a score not drawn is no
            # row): its hull of the chain without them
            new = np.concatenate(([True], (np.diff(x[r]) > 0) | (np.diff(y[r]) > 0)))
            xs, ys = x[r][new], y[r][new]
            ref = upper_hull_indices(xs, ys)
            assert list(zip(x[r, got[r]], y[r, got[r]])) == list(zip(xs[ref], ys[ref]))


#: the statistics whose vectorised form is the engine's float of each resample, bit
#: for bit: a default report's (its threshold's measures, the costs at PC(+), KS)
#: beside the ready ones (the Brier score and the ECE are tested against their
#: earlier vectorised forms: tests/test_bootstrap_rows.py)
EXACT = {**STATS, "cost": M.cost_at(0.5, 0.3), "least": M.least_cost_at(0.3), "ks": M.ks_score,
         "mcc": M.at_threshold_of("mcc", 0.45), "recall": M.at_threshold_of("recall", 0.5),
         "precision_pop": B.population_at(0.5, "precision", 0.1, 2.0, 1.0)}


def _engine_values(y, s, n_resamples, seed, stratified):
    """Each statistic of each resample as the engine evaluates the resample's count
    table (_per_resample), chunk by chunk of the documented stream."""
    rng = np.random.Generator(np.random.PCG64(seed))
    chunks = list(B._resampled_chunks(y, s, n_resamples, rng, stratified))
    return {name: np.concatenate([B._per_resample(st, chunk) for chunk in chunks]) for name, st in EXACT.items()}


@pytest.mark.parametrize("stratified", [True, False])
@pytest.mark.parametrize("n, decimals, seed, share", [(40, 1, 0, 0.35), (300, 2, 1, 0.04), (300, 9, 2, 0.5),
                                                      (1200, 3, 3, 0.97), (25, 0, 4, 0.5)])
def test_two_learners_values_are_the_engines_whatever_the_chunks(n, decimals, seed, share, stratified, monkeypatch):
    """resampled_values_many of two learners (one with heavy ties, one class small),
    with the chunk size of the counts changed (it is no part of the random stream)
    and with the general forms forced (as if a resample could lack a class, and the
    class counts were too large for exact products): each value is the engine's of
    that resample, float for float."""
    y, s = _case(n, decimals, seed, share)
    t = np.round(s * 0.3 + np.random.default_rng(seed).random(n) * 0.5, 1)  # (few distinct scores)
    want = {"s": _engine_values(y, s, 70, seed, stratified), "t": _engine_values(y, t, 70, seed, stratified)}
    for part, general in [(B._PART, False), (1 << 9, False), (1 << 9, True)]:
        monkeypatch.setattr(B, "_PART", part)
        if general:
            init = B._Chunk.__init__

            def general_init(self, *args):
                init(self, *args)
                self.both = self.small = False

            monkeypatch.setattr(B._Chunk, "__init__", general_init)
        got = B.resampled_values_many(y, {"s": (s, EXACT), "t": (t, EXACT)}, n_resamples=70, seed=seed,
                                      stratified=stratified)
        for key in want:
            for name in EXACT:
                np.testing.assert_array_equal(got[key][name], want[key][name], err_msg=f"{key} {name} {part}")


@pytest.mark.parametrize("stratified", [True, False])
@pytest.mark.parametrize("part", [1 << 9, 1 << 16])
def test_the_counts_are_the_documented_draws_counted_by_hand(stratified, part, monkeypatch):
    """Each chunk's counts per distinct score and class (both classes counted at once,
    laid out as the cumulative counts' columns) are the documented draws' (PCG64(seed):
    the positives' positions then the negatives', or all rows' positions), counted with
    plain NumPy."""
    y, s = _case(300, 2, 5, 0.3)
    monkeypatch.setattr(B, "_PART", part)
    rng = np.random.Generator(np.random.PCG64(9))
    if stratified:
        pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
        rows = np.concatenate([pos[rng.integers(0, pos.size, (40, pos.size))],
                               neg[rng.integers(0, neg.size, (40, neg.size))]], axis=1)
    else:
        rows = rng.integers(0, y.size, (40, y.size))
    scores = np.unique(s)[::-1]  # descending: the chunks' columns 1..K
    chunks = list(B._resampled_chunks(y, s, 40, np.random.Generator(np.random.PCG64(9)), stratified))
    cp = np.concatenate([chunk.cp for chunk in chunks])
    cn = np.concatenate([chunk.cn for chunk in chunks])
    tp = np.concatenate([chunk.tp for chunk in chunks])
    for r in range(40):
        drawn_s, drawn_y = s[rows[r]], y[rows[r]]
        want_p = np.array([np.sum(drawn_y & (drawn_s == v)) for v in scores])
        want_n = np.array([np.sum(~drawn_y & (drawn_s == v)) for v in scores])
        np.testing.assert_array_equal(cp[r], want_p)
        np.testing.assert_array_equal(cn[r], want_n)
        np.testing.assert_array_equal(tp[r], np.concatenate(([0], np.cumsum(want_p))))
