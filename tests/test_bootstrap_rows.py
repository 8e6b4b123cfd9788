"""The bootstrap's statistics that read only some rows of a chunk (issue 38), against
the per-resample code and against the earlier vectorised forms over every row.

The least cost, KS and the expected total cost read only the ends of the runs of
blocks with positives (and the ends of the chain); the AUC sums its trapezoids run by
run of blocks with negatives; BEP finds its row by a binary search; the ECE reads
each bin's positives off the cumulative TP; the Brier score divides by the class
totals; the expected total cost is computed for several chunks at once. Each must
give the very floats of before: hypothesis draws labels and scores with many ties
(few decimals), within and across the classes, stratified or not.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from evalreport.compare.stats import bootstrap as B
from evalreport.compare.stats import bootstrap_measures as M
from evalreport.compare.stats import bootstrap_values as V

PC = 0.3


def _old_normalised(tp, fp, pos, neg, pc):
    """bootstrap_measures._normalised before issue 38 (every row, np.where)."""
    tp, fp, pos, neg = (np.asarray(a, dtype=np.float64) for a in (tp, fp, pos, neg))
    with np.errstate(invalid="ignore", divide="ignore"):
        ok = (pos > 0) & (neg > 0)
        return np.where(ok, (pos - tp) / np.where(ok, pos, 1) * pc + fp / np.where(ok, neg, 1) * (1 - pc), np.nan)


def old_least_cost(chunk):
    v = _old_normalised(chunk.tp, chunk.fp, chunk.pos[:, None], chunk.neg[:, None], PC)
    out = np.full(chunk.size, np.nan)
    ok = ~np.isnan(v).all(axis=1)
    out[ok] = v[ok].min(axis=1)
    return out


def old_ks(chunk):
    with np.errstate(invalid="ignore", divide="ignore"):
        ok = (chunk.pos > 0) & (chunk.neg > 0)
        d = chunk.tp / np.where(ok, chunk.pos, 1)[:, None] - chunk.fp / np.where(ok, chunk.neg, 1)[:, None]
    return np.where(ok, d.max(axis=1), np.nan)


def old_auc(chunk):
    out = np.full(chunk.size, np.nan)
    ok = np.flatnonzero((chunk.pos > 0) & (chunk.neg > 0))
    tp, fp = chunk.tp[ok], chunk.fp[ok]
    auc2 = ((fp[:, 1:] - fp[:, :-1]) * (tp[:, 1:] + tp[:, :-1])).sum(axis=1)
    out[ok] = auc2 / (2 * chunk.pos[ok] * chunk.neg[ok])
    return out


def old_brier(chunk):
    s = chunk.thr_desc
    total = chunk.cp.sum(axis=1) + chunk.cn.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return ((chunk.cp * (1.0 - s) ** 2).sum(axis=1) + (chunk.cn * s ** 2).sum(axis=1)) / total


def old_ece(chunk, bins=10):
    edges = np.linspace(0.0, 1.0, bins + 1)
    s = chunk.thr_desc
    which = np.searchsorted(edges[1:-1], s, side="left")
    starts = np.flatnonzero(np.r_[True, which[1:] != which[:-1]])
    drawn = chunk.cp + chunk.cn
    positives = np.add.reduceat(chunk.cp, starts, axis=1)
    score_sums = np.add.reduceat(drawn * s, starts, axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.abs(positives - score_sums).sum(axis=1) / drawn.sum(axis=1)


def old_bep(chunk):
    pos = chunk.pos
    out = np.full(chunk.size, np.nan)
    ok = np.flatnonzero(pos > 0)
    if not ok.size:
        return out
    tp, fp, p = chunk.tp[ok], chunk.fp[ok], pos[ok]
    predicted = tp + fp
    k = (predicted < p[:, None]).sum(axis=1)
    rows = np.arange(ok.size)
    p1, t1 = predicted[rows, k], tp[rows, k]
    km = np.maximum(k - 1, 0)
    p0, t0 = predicted[rows, km], tp[rows, km]
    with np.errstate(invalid="ignore", divide="ignore"):
        between = t0 + (t1 - t0) * ((p - p0) / (p1 - p0))
    out[ok] = np.where(p1 == p, t1 / p, between / p)
    return out


NEW = {"least": M.least_cost_at(PC), "ks": M.ks_score, "auc": B.auc_score, "brier": M.brier_of,
       "ece": M.ece_of(10, "uniform"), "bep": B.bep_score}
OLD = {"least": old_least_cost, "ks": old_ks, "auc": old_auc, "brier": old_brier, "ece": old_ece, "bep": old_bep}
#: those whose per-resample form (the engine's evaluation of each resample's table) is the same float
ENGINE = ("least", "ks", "auc", "bep", "etc", "ap")


@st.composite
def cases(draw):
    n = draw(st.integers(2, 160))
    seed = draw(st.integers(0, 2**32 - 1))
    decimals = draw(st.sampled_from([0, 1, 2, 3, 9]))
    share = draw(st.sampled_from([0.0, 0.05, 0.35, 0.6, 1.0]))
    rng = np.random.default_rng(seed)
    y = rng.random(n) < share
    s = np.clip(np.round(rng.random(n) * 0.8 + 0.3 * y * rng.random(n), decimals), 0, 1)
    return y, s, seed, draw(st.booleans())


@settings(max_examples=120, deadline=None)
@given(cases())
def test_the_rows_read_give_the_floats_of_before(case):
    y, s, seed, stratified = case
    rng = np.random.Generator(np.random.PCG64(seed))
    chunks = list(B._resampled_chunks(y, s, 30, rng, stratified))
    for chunk in chunks:
        for name, statistic in NEW.items():
            got = statistic._vectorised(chunk)
            np.testing.assert_array_equal(got, OLD[name](chunk), err_msg=name)
            if name in ENGINE:
                np.testing.assert_array_equal(got, B._per_resample(statistic, chunk), err_msg=name)
        for name, statistic in (("etc", B.expected_total_cost), ("ap", B.average_precision_score)):
            np.testing.assert_array_equal(statistic._vectorised(chunk), B._per_resample(statistic, chunk),
                                          err_msg=name)
    # the expected total cost of several chunks at once: each chunk's own values
    together = V.etc_finish([V.etc_part(chunk) for chunk in chunks])
    one_by_one = np.concatenate([B.expected_total_cost._vectorised(chunk) for chunk in chunks])
    np.testing.assert_array_equal(together, one_by_one)


def test_gathered_and_chunk_by_chunk_values_are_the_same_draws():
    """resampled_values_many gathers the expected total cost over up to _GATHER
    resamples: the values are those of each chunk computed alone."""
    rng = np.random.default_rng(8)
    y = rng.random(3000) < 0.3
    s = np.round(rng.random(3000) + 0.4 * y, 3)
    old = B._GATHER
    try:
        B._GATHER = 1  # every chunk alone
        alone = B.resampled_values(y, s, statistics={"etc": B.expected_total_cost}, n_resamples=300, seed=2)
    finally:
        B._GATHER = old
    gathered = B.resampled_values(y, s, statistics={"etc": B.expected_total_cost}, n_resamples=300, seed=2)
    np.testing.assert_array_equal(gathered["etc"], alone["etc"])
