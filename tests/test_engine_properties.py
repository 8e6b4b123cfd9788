"""Properties of the binary engine, checked against brute force written here.

Small inputs whose scores come from a small pool (so ties are frequent), with and
without weights (zero weights included). Every reference is computed in this file
straight from the definitions of docs/measures.md: pairs for the rank loss,
"score >= t" sums for the ROC points, the minimum over every ROC point's cost line
for the cost curve, a walk along the (FP, TP) polyline for the BEP, Andrew's
monotone chain for the ROC hull.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from evalreport.metrics import count_table_from_aggregates, evaluate_binary, evaluate_counts

TOL = 1e-12
EXAMPLES = 80

SCORE_POOLS = [
    [0.0, 1.0, 2.0, 3.0],
    [float(v) for v in range(-4, 9)],
    [k / 7 for k in range(8)],
    [-2.5, -1.0, 0.0, 0.1, 0.3, 0.75, 4.0],
]
WEIGHT_POOL = [0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 7.0]


@st.composite
def binary_data(draw, *, max_n=24, weights="maybe", integer_weights=False, both_classes=True):
    """(y, s, w): labels 0/1, scores from a small pool, optional non-negative weights."""
    n = draw(st.integers(2 if both_classes else 1, max_n))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    if both_classes:
        i = draw(st.integers(0, n - 1))
        j = draw(st.integers(0, n - 2))
        j += j >= i
        y[i], y[j] = 1, 0
    pool = draw(st.sampled_from(SCORE_POOLS + ["distinct"]))
    if pool == "distinct":  # no ties at all (the engine has a separate path for it)
        s = np.array(draw(st.lists(st.integers(-60, 60), min_size=n, max_size=n, unique=True))) / 8
    else:
        s = np.array(draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n)))
    use_w = draw(st.booleans()) if weights == "maybe" else weights
    w = None
    if use_w:
        elem = st.integers(0, 3) if integer_weights else st.sampled_from(WEIGHT_POOL)
        w = np.array(draw(st.lists(elem, min_size=n, max_size=n)), dtype=float)
        if both_classes:
            assume(w[y == 1].sum() > 0 and w[y == 0].sum() > 0)
    return y, s, w


def weights_of(y, w):
    return np.ones(y.size) if w is None else w


def brute_counts(y, s, w):
    """Thresholds (distinct scores carrying weight, descending) and cumulative TP, FP."""
    distinct = sorted(set(s.tolist()), reverse=True)
    if w is not None:  # a score carried only by zero-weight rows is no threshold
        distinct = [t for t in distinct if w[s == t].sum() > 0]
    w = weights_of(y, w)
    thresholds = distinct
    tp = [0.0] + [w[(y == 1) & (s >= t)].sum() for t in thresholds]
    fp = [0.0] + [w[(y == 0) & (s >= t)].sum() for t in thresholds]
    return np.array(thresholds), np.array(tp), np.array(fp)


def brute_rank_loss(y, s, w):
    """Zhou eq. 2.21 over all (positive, negative) pairs, weight w+ w-, ties 1/2."""
    w = weights_of(y, w)
    sp, wp = s[y == 1], w[y == 1]
    sn, wn = s[y == 0], w[y == 0]
    loss = 0.0
    for a, wa in zip(sp, wp):
        for b, wb in zip(sn, wn):
            loss += wa * wb * (1.0 if a < b else 0.5 if a == b else 0.0)
    return loss / (wp.sum() * wn.sum())


def brute_envelope(y, s, w, pc):
    """min over every ROC point of NEC = FNR PC + FPR (1 - PC), at each pc."""
    _, tp, fp = brute_counts(y, s, w)
    fnr = 1 - tp / tp[-1]
    fpr = fp / fp[-1]
    pc = np.asarray(pc, dtype=float)
    return np.min(fnr[:, None] * pc[None, :] + fpr[:, None] * (1 - pc[None, :]), axis=0)


def scalars(ev):
    op = ev.operating_point(0.3)
    return {
        "auc": ev.auc,
        "rank_loss": ev.rank_loss,
        "average_precision": ev.average_precision,
        "bep": ev.bep,
        "expected_total_cost": ev.expected_total_cost,
        "partial_auc": ev.partial_auc(0.3),
        "partial_auc_std": ev.partial_auc(0.3, standardized=True),
        "min_cost_0.3": None if op is None else op.min_cost,
    }


def assert_same_scalars(a, b, tol=TOL):
    for name, va in scalars(a).items():
        vb = scalars(b)[name]
        if va is None or vb is None:
            assert va is vb, name
        else:
            assert va == pytest.approx(vb, abs=tol), name


def assert_same_curves(a, b):
    for curve in ("roc", "pr"):
        for attr in ("fpr", "tpr") if curve == "roc" else ("recall", "precision"):
            np.testing.assert_allclose(
                getattr(getattr(a, curve), attr), getattr(getattr(b, curve), attr),
                rtol=0, atol=TOL, err_msg=f"{curve}.{attr}",
            )
    np.testing.assert_allclose(a.cost_curve.pc, b.cost_curve.pc, rtol=0, atol=TOL)
    np.testing.assert_allclose(a.cost_curve.cost, b.cost_curve.cost, rtol=0, atol=TOL)
    np.testing.assert_allclose(a.hull.fpr, b.hull.fpr, rtol=0, atol=TOL)
    np.testing.assert_allclose(a.hull.tpr, b.hull.tpr, rtol=0, atol=TOL)


# ---------------------------------------------------------------------------


@settings(max_examples=EXAMPLES)
@given(binary_data())
def test_auc_is_one_minus_brute_force_rank_loss(data):
    y, s, w = data
    ev = evaluate_binary(y, s, sample_weight=w)
    loss = brute_rank_loss(y, s, w)
    assert ev.rank_loss == pytest.approx(loss, abs=TOL)
    assert ev.auc == pytest.approx(1 - loss, abs=TOL)


@settings(max_examples=EXAMPLES)
@given(binary_data(both_classes=False))
def test_roc_and_pr_points_are_brute_force_counts(data):
    y, s, w = data
    ev = evaluate_binary(y, s, sample_weight=w)
    thr, tp, fp = brute_counts(y, s, w)
    pos, neg = tp[-1], fp[-1]
    assert ev.positives == pytest.approx(pos) and ev.negatives == pytest.approx(neg)
    np.testing.assert_array_equal(ev.roc.threshold, np.concatenate(([math.inf], thr)))
    np.testing.assert_array_equal(ev.pr.threshold, thr)
    if neg > 0:
        np.testing.assert_allclose(ev.roc.fpr, fp / neg, rtol=0, atol=TOL)
    if pos > 0:
        np.testing.assert_allclose(ev.roc.tpr, tp / pos, rtol=0, atol=TOL)
        np.testing.assert_allclose(ev.pr.recall, tp[1:] / pos, rtol=0, atol=TOL)
        # AP = sum_k (R_k - R_{k-1}) P_k
        ap = sum((tp[k] - tp[k - 1]) / pos * tp[k] / (tp[k] + fp[k]) for k in range(1, tp.size))
        assert ev.average_precision == pytest.approx(ap, abs=TOL)
    np.testing.assert_allclose(ev.pr.precision, tp[1:] / (tp[1:] + fp[1:]), rtol=0, atol=TOL)
    if pos == 0 or neg == 0:
        assert ev.auc is None and "auc" in ev.undefined


@settings(max_examples=EXAMPLES)
@given(binary_data(both_classes=False), st.data())
def test_at_threshold_counts_are_brute_force(data, draw):
    y, s, w = data
    ev = evaluate_binary(y, s, sample_weight=w)
    ww = weights_of(y, w)
    candidates = sorted(set(s.tolist()))
    t = draw.draw(st.one_of(
        st.sampled_from(candidates),
        st.sampled_from(candidates).map(lambda v: v + 1e-9),
        st.sampled_from(candidates).map(lambda v: v - 1e-9),
        st.just(math.inf), st.just(-math.inf),
    ))
    r = ev.at_threshold(t, costs={"false_negative": 3, "false_positive": 0.5}, betas=(0.5, 2))
    pred = s >= t
    tp, fp = ww[pred & (y == 1)].sum(), ww[pred & (y == 0)].sum()
    fn, tn = ww[~pred & (y == 1)].sum(), ww[~pred & (y == 0)].sum()
    assert (r.tp, r.fp, r.tn, r.fn) == tuple(pytest.approx(v, abs=TOL) for v in (tp, fp, tn, fn))
    m = tp + fp + tn + fn
    if m > 0:
        assert r.error_rate == pytest.approx((fp + fn) / m, abs=TOL)
        assert r.accuracy == pytest.approx((tp + tn) / m, abs=TOL)
        assert r.cost_sensitive_error == pytest.approx((3 * fn + 0.5 * fp) / m, abs=TOL)
    else:  # every weight is 0
        assert r.error_rate is None and "error_rate" in r.undefined
        assert r.cost_sensitive_error is None
    if tp + fp > 0:
        assert r.precision == pytest.approx(tp / (tp + fp), abs=TOL)
    else:
        assert r.precision is None and "precision" in r.undefined
    if 2 * tp + fp + fn > 0:
        assert r.f1 == pytest.approx(2 * tp / (2 * tp + fp + fn), abs=TOL)
        assert r.fbeta[2] == pytest.approx(5 * tp / (5 * tp + 4 * fn + fp), abs=TOL)
        assert r.fbeta[0.5] == pytest.approx(1.25 * tp / (1.25 * tp + 0.25 * fn + fp), abs=TOL)
    else:
        assert r.f1 is None and "f1" in r.undefined


TRANSFORMS = {
    "affine": lambda s: 3 * s + 1,
    "exp": np.exp,
    "cube": lambda s: s**3 - 2,
    "arctan": np.arctan,
}


@settings(max_examples=EXAMPLES)
@given(binary_data(), st.sampled_from(sorted(TRANSFORMS)))
def test_invariant_under_strictly_increasing_transforms(data, name):
    y, s, w = data
    t = TRANSFORMS[name](s)
    # the transform must keep distinct scores distinct in floating point
    assert len(set(t.tolist())) == len(set(s.tolist()))
    a = evaluate_binary(y, s, sample_weight=w)
    b = evaluate_binary(y, t, sample_weight=w)
    assert_same_scalars(a, b)
    assert_same_curves(a, b)


@settings(max_examples=EXAMPLES)
@given(binary_data(), st.randoms(use_true_random=False))
def test_invariant_under_shuffling_rows(data, rnd):
    y, s, w = data
    perm = np.array(rnd.sample(range(y.size), y.size))
    a = evaluate_binary(y, s, sample_weight=w)
    b = evaluate_binary(y[perm], s[perm], sample_weight=None if w is None else w[perm])
    assert_same_scalars(a, b)
    assert_same_curves(a, b)
    np.testing.assert_array_equal(a.roc.threshold, b.roc.threshold)


@pytest.mark.slow
@settings(max_examples=EXAMPLES)
@given(binary_data(weights=True, integer_weights=True))
def test_integer_weights_equal_repeated_rows(data):
    y, s, w = data
    reps = w.astype(int)
    a = evaluate_binary(y, s, sample_weight=w)
    b = evaluate_binary(np.repeat(y, reps), np.repeat(s, reps))
    assert_same_scalars(a, b)
    assert_same_curves(a, b)
    np.testing.assert_array_equal(a.roc.threshold, b.roc.threshold)
    for t in set(s.tolist()):
        ra, rb = a.at_threshold(t, betas=(0.5, 2)), b.at_threshold(t, betas=(0.5, 2))
        for f in ("tp", "fp", "tn", "fn", "error_rate", "precision", "recall", "f1"):
            va, vb = getattr(ra, f), getattr(rb, f)
            assert (va is None and vb is None) or va == pytest.approx(vb, abs=TOL), f


@settings(max_examples=EXAMPLES)
@given(binary_data(weights=True, integer_weights=True))
def test_scalars_from_integer_aggregates_are_brute_force(data):
    # What a GROUP BY score (SUM of integer weights per class) hands the engine; a score
    # whose rows all weigh 0 comes back as a row of zeros.
    y, s, w = data
    scores = np.unique(s)
    pos = np.array([int(w[(s == v) & (y == 1)].sum()) for v in scores])
    neg = np.array([int(w[(s == v) & (y == 0)].sum()) for v in scores])
    ev = evaluate_counts(count_table_from_aggregates(scores[::-1], pos[::-1], neg[::-1]))
    loss = brute_rank_loss(y, s, w)
    assert ev.auc == pytest.approx(1 - loss, abs=TOL)
    assert ev.rank_loss == pytest.approx(loss, abs=TOL)
    ref = evaluate_binary(y, s, sample_weight=w)  # its scalars are checked against brute force above
    assert ev.average_precision == pytest.approx(ref.average_precision, abs=TOL)
    assert ev.bep == pytest.approx(ref.bep, abs=TOL)
    assert ev.expected_total_cost == pytest.approx(ref.expected_total_cost, abs=TOL)


GRID = np.linspace(0.0, 1.0, 20001)


@settings(max_examples=EXAMPLES)
@given(binary_data())
def test_expected_total_cost_is_area_under_brute_force_envelope(data):
    y, s, w = data
    ev = evaluate_binary(y, s, sample_weight=w)
    env = brute_envelope(y, s, w, GRID)
    area = float(np.sum(np.diff(GRID) * (env[1:] + env[:-1])) / 2)
    # trapezoids on a concave piecewise-linear function: error <= h^2 * (slope change) / 4
    assert ev.expected_total_cost == pytest.approx(area, abs=1e-8)


@settings(max_examples=EXAMPLES)
@given(binary_data(), st.lists(st.floats(0.0, 1.0), min_size=1, max_size=20))
def test_cost_curve_is_the_lower_envelope_of_all_roc_points(data, pcs):
    y, s, w = data
    ev = evaluate_binary(y, s, sample_weight=w)
    cc = ev.cost_curve
    assert cc.pc[0] == 0.0 and cc.pc[-1] == 1.0
    assert np.all(np.diff(cc.pc) > 0)
    pcs = np.concatenate((pcs, [0.0, 1.0], GRID[::500], cc.pc))
    expected = brute_envelope(y, s, w, pcs)
    np.testing.assert_allclose(np.interp(pcs, cc.pc, cc.cost), expected, rtol=0, atol=TOL)
    # each segment is the cost line of the (FPR, FNR) it names
    mid = (cc.pc[1:] + cc.pc[:-1]) / 2
    seg = cc.segment_fnr * mid + cc.segment_fpr * (1 - mid)
    np.testing.assert_allclose(seg, brute_envelope(y, s, w, mid), rtol=0, atol=TOL)


@settings(max_examples=EXAMPLES)
@given(binary_data(), st.floats(0.0, 1.0))
def test_operating_point_is_the_brute_force_minimum(data, pc):
    y, s, w = data
    ev = evaluate_binary(y, s, sample_weight=w)
    op = ev.operating_point(pc)
    best = brute_envelope(y, s, w, [pc])[0]
    assert op.min_cost == pytest.approx(best, abs=TOL)
    # the threshold it names reaches that cost (score >= threshold, counted here)
    ww = weights_of(y, w)
    pred = s >= op.threshold
    tpr = ww[pred & (y == 1)].sum() / ww[y == 1].sum()
    fpr = ww[pred & (y == 0)].sum() / ww[y == 0].sum()
    assert (1 - tpr) * pc + fpr * (1 - pc) == pytest.approx(best, abs=TOL)
    assert (op.fpr, op.tpr) == (pytest.approx(fpr, abs=TOL), pytest.approx(tpr, abs=TOL))


@settings(max_examples=EXAMPLES)
@given(binary_data())
def test_bep_is_where_precision_equals_recall_on_the_count_polyline(data):
    y, s, w = data
    ev = evaluate_binary(y, s, sample_weight=w)
    _, tp, fp = brute_counts(y, s, w)
    pos = tp[-1]
    # Walk the (FP, TP) polyline from the origin; on a segment, TP + FP is linear in the
    # parameter u; P = TP / (TP + FP) equals R = TP / m+ where TP + FP = m+ (TP > 0).
    found = None
    for k in range(1, tp.size):
        a, b = tp[k - 1] + fp[k - 1], tp[k] + fp[k]
        if a <= pos <= b and b > a:
            u = (pos - a) / (b - a)
            tpu, fpu = tp[k - 1] + u * (tp[k] - tp[k - 1]), fp[k - 1] + u * (fp[k] - fp[k - 1])
            if tpu > 0:
                found = (tpu, fpu)
                break
    if found is None:  # P = R = 0 only: no positive before rank m+ anywhere
        assert ev.bep == pytest.approx(0.0, abs=TOL)
        return
    tpu, fpu = found
    precision, recall = tpu / (tpu + fpu), tpu / pos
    assert precision == pytest.approx(recall, abs=TOL)
    assert ev.bep == pytest.approx(recall, abs=TOL)


def upper_hull(points):
    """Andrew's monotone chain, upper part, collinear points dropped."""
    pts = sorted(set(points))
    hull = []
    for p in pts:
        while len(hull) >= 2:
            (x1, y1), (x2, y2) = hull[-2], hull[-1]
            if (x2 - x1) * (p[1] - y1) - (y2 - y1) * (p[0] - x1) >= 0:  # not a right turn
                hull.pop()
            else:
                break
        hull.append(p)
    return hull


@settings(max_examples=EXAMPLES)
@given(binary_data())
def test_roc_hull_is_the_upper_convex_hull(data):
    y, s, w = data
    ev = evaluate_binary(y, s, sample_weight=w)
    _, tp, fp = brute_counts(y, s, w)
    fpr, tpr = fp / fp[-1], tp / tp[-1]
    hx, hy = ev.hull.fpr, ev.hull.tpr
    assert (hx[0], hy[0], hx[-1], hy[-1]) == (0, 0, 1, 1)
    # every vertex is an ROC point
    for x, yv in zip(hx, hy):
        assert np.any((np.abs(fpr - x) < TOL) & (np.abs(tpr - yv) < TOL))
    # every ROC point lies on or below the supporting line of every hull edge
    for i in range(hx.size - 1):
        cross = (hx[i + 1] - hx[i]) * (tpr - hy[i]) - (hy[i + 1] - hy[i]) * (fpr - hx[i])
        assert np.all(cross <= 1e-12), i
    # strictly convex: each vertex is a strict right turn (no collinear vertex)
    for i in range(1, hx.size - 1):
        cross = (hx[i] - hx[i - 1]) * (hy[i + 1] - hy[i - 1]) - (hy[i] - hy[i - 1]) * (hx[i + 1] - hx[i - 1])
        assert cross < 0, i
    # and it is the hull Andrew's algorithm finds (in exact count space when unweighted)
    ref = upper_hull(list(zip(fp.tolist(), tp.tolist())))
    rx, ry = np.array(ref).T
    np.testing.assert_allclose(hx, rx / fp[-1], rtol=0, atol=TOL)
    np.testing.assert_allclose(hy, ry / tp[-1], rtol=0, atol=TOL)
    # the thresholds name the rows that reach those points
    ww = weights_of(y, w)
    for x, yv, t in zip(hx, hy, ev.hull.threshold):
        pred = s >= t
        assert ww[pred & (y == 0)].sum() / fp[-1] == pytest.approx(x, abs=TOL)
        assert ww[pred & (y == 1)].sum() / tp[-1] == pytest.approx(yv, abs=TOL)


def test_large_input_hull_and_cost_curve_against_brute_force():
    # Continuous scores, n = 100000: some 25000 hull candidates (a positive followed by a
    # negative in score order), several times the 4096 at which the engine builds its
    # hull in two stages, even after it prunes about half of them locally.
    # Reference: Andrew's monotone chain, and the minimum over every ROC point.
    rng = np.random.default_rng(7)
    n = 100_000
    y = (rng.random(n) < 0.5).astype(int)
    s = rng.normal(size=n) + 0.4 * y
    order = np.argsort(-s, kind="stable")
    ys = y[order]
    assert np.count_nonzero((ys[:-1] == 1) & (ys[1:] == 0)) > 4 * 4096
    ev = evaluate_binary(y, s)
    tp = np.concatenate(([0], np.cumsum(ys)))
    fp = np.concatenate(([0], np.cumsum(1 - ys)))
    hull = np.array(upper_hull(list(zip(fp.tolist(), tp.tolist()))))
    np.testing.assert_array_equal(ev.hull.fpr, hull[:, 0] / fp[-1])
    np.testing.assert_array_equal(ev.hull.tpr, hull[:, 1] / tp[-1])
    pcs = np.linspace(0, 1, 101)
    fnr, fpr = 1 - tp / tp[-1], fp / fp[-1]
    env = np.array([np.min(fnr * pc + fpr * (1 - pc)) for pc in pcs])
    np.testing.assert_allclose(np.interp(pcs, ev.cost_curve.pc, ev.cost_curve.cost), env, rtol=0, atol=TOL)
    # AUC by counting: for each positive, the negatives scored below it (no ties here).
    neg_below = fp[-1] - fp[1:][ys == 1]
    assert ev.auc == pytest.approx(neg_below.sum() / (tp[-1] * fp[-1]), abs=TOL)
