"""Envelopment and the combined cost envelope against brute force."""

import numpy as np
import pytest

from evalreport.compare.curves import cost_envelope, envelopment
from evalreport.metrics import evaluate_binary


def _roc(seed, n=60, shift=0.5, ties=1):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    s = np.round(rng.random(n) + shift * y, ties)
    ev = evaluate_binary(y, s)
    return ev


def _curve_values(fpr, tpr, xs):
    """Brute force: TPR range (min, max) of the polyline at each x, over every
    segment whose x-range holds it (a vertical segment gives both its ends);
    segments in blocks, each against every x."""
    lo = np.full(xs.size, np.inf)
    hi = np.full(xs.size, -np.inf)
    for start in range(0, fpr.size - 1, 256):
        stop = min(start + 256, fpr.size - 1)
        x0, x1 = fpr[start:stop, None], fpr[start + 1:stop + 1, None]
        y0, y1 = tpr[start:stop, None], tpr[start + 1:stop + 1, None]
        inside = (xs >= x0) & (xs <= x1)
        sloped = x1 > x0
        y = np.where(sloped, y0 + (y1 - y0) * (xs - x0) / np.where(sloped, x1 - x0, 1), y0)
        lo = np.minimum(lo, np.where(inside, np.where(sloped, y, np.minimum(y0, y1)), np.inf).min(axis=0))
        hi = np.maximum(hi, np.where(inside, np.where(sloped, y, np.maximum(y0, y1)), -np.inf).max(axis=0))
    return lo, hi


def _brute_verdict(fa, ta, fb, tb):
    """The envelopment verdict from the polylines on a dense grid plus every vertex."""
    xs = np.union1d(np.linspace(0, 1, 4001), np.union1d(fa, fb))
    alo, ahi = _curve_values(fa, ta, xs)
    blo, bhi = _curve_values(fb, tb, xs)
    d = np.concatenate((alo - blo, ahi - bhi))
    above, below = (d > 1e-12).any(), (d < -1e-12).any()
    return ("cross" if above and below else "a_envelops_b" if above
            else "b_envelops_a" if below else "identical")


def _check_intervals(e, fa, ta, fb, tb):
    """The intervals tile [0, 1], neighbours differ, and inside each (at its middle and
    at points a third and two thirds along) the curves are as the label says."""
    iv = e.intervals
    assert iv[0].fpr_from == 0 and iv[-1].fpr_to == 1
    assert all(p.fpr_to == q.fpr_from and p.above != q.above for p, q in zip(iv, iv[1:]))
    assert all(i.fpr_from < i.fpr_to for i in iv)
    for i in iv:
        xs = i.fpr_from + (i.fpr_to - i.fpr_from) * np.array([1 / 3, 1 / 2, 2 / 3])
        alo, ahi = _curve_values(np.asarray(fa), np.asarray(ta), xs)
        blo, bhi = _curve_values(np.asarray(fb), np.asarray(tb), xs)
        for d in (alo - blo, ahi - bhi):
            want = np.where(np.abs(d) <= 1e-9, "equal", np.where(d > 0, "a", "b"))
            assert set(want.tolist()) == {i.above}, (i, d)
    # the verdict in words of the intervals
    labels = {i.above for i in iv}
    assert e.verdict == ("cross" if {"a", "b"} <= labels else "a_envelops_b" if "a" in labels
                         else "b_envelops_a" if "b" in labels else "identical")


def test_intervals_by_hand():
    from evalreport.compare.curves import FprInterval as I

    # they cross inside a segment: A above before 5/14, B after
    e = envelopment([0, 0.1, 1], [0, 0.5, 1], [0, 0.5, 1], [0, 0.9, 1])
    assert [i.above for i in e.intervals] == ["a", "b"]
    assert [i[:2] for i in e.intervals] == [pytest.approx((0, 5 / 14)), pytest.approx((5 / 14, 1))]
    # B above on (0, 0.2); A rises vertically at 0.2 to meet B; they coincide on
    # [0.2, 0.4]; A above on (0.4, 0.6) alone; they coincide again from 0.6 (the
    # breast_cancer shape: the curves touch on an interval, one is above just after it)
    a = ([0, 0.2, 0.2, 0.4, 0.5, 0.6, 1], [0, 0.4, 0.5, 0.6, 0.8, 0.8, 1])
    b = ([0, 0.2, 0.4, 0.6, 1], [0, 0.5, 0.6, 0.8, 1])
    e = envelopment(*a, *b)
    assert e.verdict == "cross" and e.crossings_fpr == (0.2,)
    assert e.intervals == (I(0.0, 0.2, "b"), I(0.2, 0.4, "equal"), I(0.4, 0.6, "a"), I(0.6, 1.0, "equal"))
    _check_intervals(e, *a, *b)
    # swapping the curves swaps the labels
    assert [i.above for i in envelopment(*b, *a).intervals] == ["a", "equal", "b", "equal"]
    # a vertical run is no interval: A jumps at 0, B is the diagonal
    assert envelopment([0, 0, 1], [0, 1, 1], [0, 1], [0, 1]).intervals == (I(0.0, 1.0, "a"),)
    assert envelopment([0, 1], [0, 1], [0, 1], [0, 1]).intervals == (I(0.0, 1.0, "equal"),)


@pytest.mark.parametrize("seed", range(25))
def test_envelopment_matches_a_dense_grid(seed):
    a = _roc(seed, shift=0.6)
    b = _roc(seed + 100, shift=0.3)
    e = envelopment(a.roc.fpr, a.roc.tpr, b.roc.fpr, b.roc.tpr)
    assert e.verdict == _brute_verdict(a.roc.fpr, a.roc.tpr, b.roc.fpr, b.roc.tpr)
    _check_intervals(e, a.roc.fpr, a.roc.tpr, b.roc.fpr, b.roc.tpr)
    if e.verdict == "cross":
        # at each reported crossing the curves meet
        for x in e.crossings_fpr:
            lo1, hi1 = _curve_values(a.roc.fpr, a.roc.tpr, np.array([x]))
            lo2, hi2 = _curve_values(b.roc.fpr, b.roc.tpr, np.array([x]))
            assert max(lo1[0], lo2[0]) <= min(hi1[0], hi2[0]) + 1e-9


def test_identical_and_swapped():
    a = _roc(1)
    assert envelopment(a.roc.fpr, a.roc.tpr, a.roc.fpr, a.roc.tpr).verdict == "identical"
    perfect = ([0, 0, 1], [0, 1, 1])
    assert envelopment(a.roc.fpr, a.roc.tpr, *perfect).verdict == "b_envelops_a"


@pytest.mark.parametrize("seed", range(10))
def test_cost_envelope_is_the_minimum_of_the_learners(seed):
    evs = {f"L{i}": _roc(seed * 10 + i, shift=0.2 + 0.2 * i) for i in range(3)}
    curves = {k: ev.cost_curve for k, ev in evs.items()}
    intervals = cost_envelope(curves)
    assert intervals[0].pc_from == 0.0 and intervals[-1].pc_to == 1.0
    for left, right in zip(intervals[:-1], intervals[1:]):
        assert left.pc_to == pytest.approx(right.pc_from)
    grid = np.linspace(0, 1, 2001)
    values = {k: np.interp(grid, c.pc, c.cost) for k, c in curves.items()}
    least = np.min(np.vstack(list(values.values())), axis=0)
    for iv in intervals:
        inside = (grid > iv.pc_from + 1e-9) & (grid < iv.pc_to - 1e-9)
        assert np.allclose(values[iv.learner][inside], least[inside], atol=1e-12)
        # the owning threshold reaches that cost: its operating point agrees
        mid = (iv.pc_from + iv.pc_to) / 2
        op = evs[iv.learner].operating_point(mid)
        assert op.min_cost == pytest.approx(np.interp(mid, curves[iv.learner].pc, curves[iv.learner].cost))


@pytest.mark.parametrize("seed", range(10))
def test_combined_hull_lies_above_every_roc_point(seed):
    from evalreport.compare.curves import combined_hull

    evs = {f"L{i}": _roc(seed * 7 + i, shift=0.1 + 0.3 * i) for i in range(3)}
    hull = combined_hull({k: ev.hull for k, ev in evs.items()})
    hx = np.array([v.fpr for v in hull])
    hy = np.array([v.tpr for v in hull])
    assert (hx[0], hy[0], hx[-1], hy[-1]) == (0, 0, 1, 1)
    assert np.all(np.diff(hx[1:]) > 0)  # only the first edge may be vertical
    with np.errstate(divide="ignore"):
        slopes = np.diff(hy) / np.diff(hx)
    assert np.all(np.diff(slopes) < 0)  # strictly convex
    for name, ev in evs.items():
        assert np.all(np.interp(ev.roc.fpr, hx, hy) >= ev.roc.tpr - 1e-12)
    # every vertex is a point of its owner's ROC curve, at its threshold
    for v in hull[1:-1]:
        roc = evs[v.learner].roc
        k = int(np.flatnonzero(roc.threshold == v.threshold)[0])
        assert (roc.fpr[k], roc.tpr[k]) == pytest.approx((v.fpr, v.tpr))


def _continuous(seed, y, shift):
    rng = np.random.default_rng(seed)
    return rng.random(y.size) + shift * y


@pytest.mark.parametrize("seed", range(30))
def test_step_profiles_give_the_same_verdicts_and_crossings(seed):
    # Distinct unweighted scores: learners compare through their integer
    # profiles; the verdict and the crossings must be those of the general
    # vertex-based envelopment (and of the brute force above).
    from evalreport.compare.curves import envelopment_steps
    from evalreport.curves import output_curves

    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 400))
    y = rng.random(n) < rng.uniform(0.1, 0.9)
    if y.all() or not y.any():
        y[0] = not y[0]
    a = evaluate_binary(y, _continuous(seed, y, rng.uniform(0, 0.8)))
    b = evaluate_binary(y, _continuous(seed + 1000, y, rng.uniform(0, 0.8)))
    pa, pb = output_curves(a, 20).profile, output_curves(b, 20).profile
    assert pa is not None and pb is not None
    # the profile is the curve: its polyline is the same curve as every ROC point
    assert envelopment(*pa.polyline(), a.roc.fpr, a.roc.tpr).verdict == "identical"
    got = envelopment_steps(pa.top, pb.top, pa.negatives)
    want = envelopment(a.roc.fpr, a.roc.tpr, b.roc.fpr, b.roc.tpr)
    assert got.verdict == want.verdict
    np.testing.assert_array_equal(got.crossings_fpr, want.crossings_fpr)
    assert [i.above for i in got.intervals] == [i.above for i in want.intervals]
    np.testing.assert_allclose([i[:2] for i in got.intervals], [i[:2] for i in want.intervals], rtol=0, atol=1e-12)
    _check_intervals(got, a.roc.fpr, a.roc.tpr, b.roc.fpr, b.roc.tpr)
    assert envelopment_steps(pa.top, pa.top, pa.negatives).verdict == "identical"


def test_step_profile_by_hand():
    # ranking p n p p n: the 1st negative has 1 positive above it, the 2nd 3
    from evalreport.curves import output_curves

    ev = evaluate_binary([1, 0, 1, 1, 0], [5, 4, 3, 2, 1])
    p = output_curves(ev, "all").profile
    assert p.top.tolist() == [1, 3, 3] and (p.positives, p.negatives) == (3, 2)
    # a tie or a weight makes the curve non-unit: the vertices are kept instead
    tied = output_curves(evaluate_binary([1, 0, 1], [2, 2, 1]), "all")
    assert tied.profile is None and tied.roc_vertices is not None


@pytest.mark.parametrize("seed", range(8))
def test_envelopment_roads_agree_for_four_learners(seed):
    # Few vertices and many negatives (coarse scores): compare_learners takes
    # the pairwise road instead of a grid with an entry per negative; both
    # must give the same verdicts and crossings.
    from itertools import combinations
    from types import SimpleNamespace

    from evalreport.compare import _envelopment_pairs
    from evalreport.compare.curves import envelopment_on_grid, roc_profile_counts
    from evalreport.curves import output_curves

    rng = np.random.default_rng(seed)
    n = 4000
    y = rng.random(n) < 0.4
    learners = {}
    for k in range(3):
        # unequal spreads of the two classes: the ROC curves cross
        ev = evaluate_binary(y, np.round(rng.normal(0.8 * y, np.where(y, 0.5 + k, 1.0)), 1))
        learners[f"L{k}"] = SimpleNamespace(curves=output_curves(ev, "all"),
                                            summary=SimpleNamespace(negatives=ev.negatives))
    # and a far better learner, whose curve envelops the others'
    ev = evaluate_binary(y, np.round(rng.normal(3.0 * y, 0.6), 1))
    learners["S"] = SimpleNamespace(curves=output_curves(ev, "all"), summary=SimpleNamespace(negatives=ev.negatives))
    n_neg = int((~y).sum())
    assert n_neg > 4 * sum(lr.curves.exact_roc[0].size for lr in learners.values())  # the pairwise road
    got = {(p.a, p.b): p.envelopment for p in _envelopment_pairs(learners)}
    assert {e.verdict for e in got.values()} == {"cross", "b_envelops_a"}
    grid = np.arange(n_neg + 1) / n_neg
    prof = {k: roc_profile_counts(*lr.curves.exact_roc, n_neg) for k, lr in learners.items()}
    for a, b in combinations(learners, 2):
        want = envelopment_on_grid(grid, prof[a], prof[b])
        assert got[(a, b)].verdict == want.verdict
        np.testing.assert_allclose(got[(a, b)].crossings_fpr, want.crossings_fpr, rtol=0, atol=1e-12)
        assert [i.above for i in got[(a, b)].intervals] == [i.above for i in want.intervals]
        np.testing.assert_allclose([i[:2] for i in got[(a, b)].intervals],
                                   [i[:2] for i in want.intervals], rtol=0, atol=1e-12)
        # and both against the brute force of the polylines themselves
        (fa, ta), (fb, tb) = learners[a].curves.exact_roc, learners[b].curves.exact_roc
        assert got[(a, b)].verdict == _brute_verdict(fa, ta, fb, tb)
        _check_intervals(got[(a, b)], fa, ta, fb, tb)
        for x in got[(a, b)].crossings_fpr:
            lo1, hi1 = _curve_values(fa, ta, np.array([x]))
            lo2, hi2 = _curve_values(fb, tb, np.array([x]))
            assert max(lo1[0], lo2[0]) <= min(hi1[0], hi2[0]) + 1e-9
