"""The envelopment of a tied learner against a continuous one (issue 24): the
grid road a piece at a time (envelopment_counts) against the whole-grid road
it replaces (envelopment_on_grid of roc_profile_counts) and a brute force."""

from itertools import combinations
from types import SimpleNamespace

import numpy as np
import pytest
from test_compare_curves import _brute_verdict, _curve_values

from evalreport.compare import _envelopment_pairs
from evalreport.compare.curves import (
    envelopment,
    envelopment_counts,
    envelopment_on_grid,
    roc_profile_counts,
    steps_on_grid,
    vertices_on_grid,
)
from evalreport.curves import output_curves
from evalreport.metrics import evaluate_binary


def _learner(y, s):
    ev = evaluate_binary(y, s)
    return SimpleNamespace(curves=output_curves(ev, 20), summary=SimpleNamespace(negatives=ev.negatives))


def _source(lr, n_neg):
    p = lr.curves.profile
    return steps_on_grid(p.top, p.positives) if p is not None else vertices_on_grid(*lr.curves.roc_vertices, n_neg)


def _learners(seed):
    """Continuous learners (step profiles) and learners with ties (vertices), some
    crossing, on the same instances."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 300))
    y = rng.random(n) < rng.uniform(0.1, 0.9)
    if y.all() or not y.any():
        y[0] = not y[0]
    out, scores = {}, []
    for k in range(4):
        scores.append(rng.normal(rng.uniform(0, 1.5) * y, np.where(y, rng.uniform(0.3, 2.0), 1.0)))
        out[f"L{k}"] = _learner(y, np.round(scores[-1], int(rng.integers(0, 2))) if k % 2 else scores[-1])
    # and the first one's scores rounded: its curve through some of the first one's vertices
    out["L0_tied"] = _learner(y, np.round(scores[0], 0))
    return y, out


def _check_intervals_off_runs(e, fa, ta, fb, tb):
    """As test_compare_curves._check_intervals, sampling each interval at points
    that no vertical run of these curves (at multiples of 1/m-) can hold."""
    iv = e.intervals
    assert iv[0].fpr_from == 0 and iv[-1].fpr_to == 1
    assert all(p.fpr_to == q.fpr_from and p.above != q.above for p, q in zip(iv, iv[1:]))
    for i in iv:
        xs = i.fpr_from + (i.fpr_to - i.fpr_from) * np.array([1 / np.pi, 1 / np.sqrt(2), 1 / np.e])
        alo, ahi = _curve_values(np.asarray(fa), np.asarray(ta), xs)
        blo, bhi = _curve_values(np.asarray(fb), np.asarray(tb), xs)
        np.testing.assert_array_equal(alo, ahi)  # off the vertical runs
        d = alo - blo
        want = np.where(np.abs(d) <= 1e-9, "equal", np.where(d > 0, "a", "b"))
        assert set(want.tolist()) == {i.above}, (i, d)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(25))
def test_pieces_give_the_whole_grid_road_exactly(seed):
    y, learners = _learners(seed)
    n_neg = int((~y).sum())
    grid = np.arange(n_neg + 1) / n_neg
    prof = {k: roc_profile_counts(*lr.curves.exact_roc, n_neg) for k, lr in learners.items()}
    got = {(p.a, p.b): p.envelopment for p in _envelopment_pairs(learners)}
    rng = np.random.default_rng(seed)
    for a, b in combinations(learners, 2):
        want = envelopment_on_grid(grid, prof[a], prof[b])
        for piece in (1, 2, int(rng.integers(3, 50)), 1 << 16):
            e = envelopment_counts(_source(learners[a], n_neg), _source(learners[b], n_neg), n_neg, piece=piece)
            assert e == want, (a, b, piece)  # verdict, crossings and intervals, float for float
        if learners[a].curves.profile is not None or learners[b].curves.profile is not None:
            assert got[(a, b)] == want
        (fa, ta), (fb, tb) = learners[a].curves.exact_roc, learners[b].curves.exact_roc
        assert want.verdict == _brute_verdict(fa, ta, fb, tb) == envelopment(fa, ta, fb, tb).verdict
        _check_intervals_off_runs(got[(a, b)], fa, ta, fb, tb)


def test_a_tied_learner_against_a_continuous_one_by_hand():
    # a: p n p n (continuous); b ties the middle two: p {n p} n
    y = np.array([1, 0, 1, 0], bool)
    a = _learner(y, np.array([4.0, 3, 2, 1]))
    b = _learner(y, np.array([4.0, 2, 2, 1]))
    assert a.curves.profile is not None and b.curves.profile is None
    (pair,) = _envelopment_pairs({"a": a, "b": b})
    # b's diagonal from (0, 1/2) to (1/2, 1) lies above a's step through (0, 1/2), (1/2, 1/2), (1/2, 1)
    assert pair.envelopment.verdict == "b_envelops_a"
    assert [tuple(i) for i in pair.envelopment.intervals] == [(0.0, 0.5, "b"), (0.5, 1.0, "equal")]


def test_the_pair_road_keeps_no_array_per_negative(monkeypatch):
    # the whole-grid road built float64 arrays of the grid's size per learner;
    # the piece road never asks a source for more than a piece
    from evalreport.compare import curves

    rng = np.random.default_rng(5)
    y = rng.random(5000) < 0.3
    learners = {"c": _learner(y, rng.normal(y, 1.0)), "t": _learner(y, np.round(rng.normal(y, 1.0), 1))}
    asked = []
    real = curves.envelopment_counts

    def spy(a, b, n_neg, **kw):
        return real(lambda k0, k1: asked.append(k1 - k0) or a(k0, k1), b, n_neg, piece=512)

    monkeypatch.setattr("evalreport.compare.envelopment_counts", spy)
    (pair,) = _envelopment_pairs(learners)
    assert max(asked) == 513 and sum(asked) >= (~y).sum()
    # two learners took the pairwise road through the union of their vertices
    # before: the same verdict and intervals, the crossings to the last bits
    # (that road interpolates in rates, this one in counts, as three learners did)
    old = envelopment(*learners["c"].curves.exact_roc, *learners["t"].curves.exact_roc)
    assert pair.envelopment.verdict == old.verdict == "cross"
    assert [i.above for i in pair.envelopment.intervals] == [i.above for i in old.intervals]
    np.testing.assert_allclose(pair.envelopment.crossings_fpr, old.crossings_fpr, rtol=0, atol=1e-15)
