"""The streaming reducer (evalreport.metrics.stream) against the in-memory engine.

A count table streamed in descending score order, in chunks of any size (chunk
boundaries inside and across the rows of one score), reduced to at most ``cap``
evenly spaced rows plus the hull and the keep-threshold rows, must give the
in-memory engine's numbers: AUC and rank loss (the twice-area an exact integer
when unweighted), AP, BEP and partial AUC to 1e-12, and AUC, rank loss and BEP
identical when unweighted; the ROC hull, the cost
curve, the expected total cost and every operating point identical; the
measures at the keep thresholds and at every hull vertex's threshold identical,
for the learner and for each group. The exact ROC curve must stay within the
reported ``roc_error`` of the kept polyline.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from evalreport.metrics import (
    CountReducer,
    ReducedEvaluation,
    count_table,
    count_table_from_aggregates,
    evaluate_binary,
    evaluate_counts,
    evaluate_reduced,
    reduce_count_stream,
)
from evalreport.metrics.cost import roc_hull

from brute import distance_to_polyline, twice_right_pairs

TOL = 1e-12
SCALARS = ("auc", "rank_loss", "average_precision", "bep", "expected_total_cost")
#: unweighted, these are the in-memory engine's bit for bit (AP and partial AUC to rounding)
BIT_FOR_BIT = ("auc", "rank_loss", "bep", "expected_total_cost")
KEEP = (0.5, 0.0, -0.25, 0.3, 2.0, -9.0)
FPRS = (0.05, 0.3, 1.0)


def make_rows(n: int, seed: int, *, ties: bool, weighted: bool, groups: int = 0):
    """Labels ~35 % positive, scores continuous or tied to a coarse grid, weights
    with zeros, and group codes."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.35
    s = rng.normal(size=n) + 0.9 * y
    if ties:
        s = np.round(s * 2) / 2
    w = np.where(rng.random(n) < 0.1, 0.0, rng.random(n) * 3) if weighted else None
    g = rng.integers(0, groups, size=n) if groups else None
    return y, s, w, g


def grouped_rows(y, s, w, g=None):
    """What ``GROUP BY score[, g] ORDER BY score DESC`` returns: one row per
    (score, group), scores descending, the groups of one score in any order."""
    g = np.zeros(s.size, dtype=np.int64) if g is None else g
    order = np.lexsort((g, -s))
    ss, gg, yy = s[order], g[order], y[order]
    ww = np.ones(s.size, dtype=np.int64) if w is None else w[order]
    new = np.ones(s.size, dtype=bool)
    new[1:] = (ss[1:] != ss[:-1]) | (gg[1:] != gg[:-1])
    starts = np.flatnonzero(new)
    pos = np.add.reduceat(np.where(yy, ww, 0), starts)
    neg = np.add.reduceat(np.where(yy, 0, ww), starts)
    n = np.add.reduceat(np.ones(s.size, dtype=np.int64), starts)
    return ss[starts], pos, neg, gg[starts], n


def chunked(columns, sizes):
    """Split the streamed rows into chunks of the given sizes (cycled)."""
    total = columns[0].size
    i = k = 0
    while i < total:
        size = sizes[k % len(sizes)]
        yield tuple(c[i:i + size] for c in columns)
        i += size
        k += 1


def totals(y, w):
    if w is None:
        return int(y.sum()), int((~y).sum())
    return float(w[y].sum()), float(w[~y].sum())


def stream(y, s, w, *, sizes, cap, g=None, n_groups=0, keep=KEEP, fprs=FPRS):
    score, pos, neg, gg, n = grouped_rows(y, s, w, g)
    cols = (score, pos, neg) if not n_groups else (score, pos, neg, gg, n)
    m_pos, m_neg = totals(y, w)
    return reduce_count_stream(chunked(cols, sizes), positives=m_pos, negatives=m_neg, n_rows=y.size,
                               keep_thresholds=keep, max_fprs=fprs, cap=cap, n_groups=n_groups)


def assert_close(a, b) -> None:
    """Equal, or to 1e-12 for floats (weighted sums differ in the last bits when
    summed in another order); works through dataclasses and mappings."""
    if hasattr(a, "__dataclass_fields__"):
        assert type(a) is type(b)
        for name in a.__dataclass_fields__:
            assert_close(getattr(a, name), getattr(b, name))
    elif hasattr(a, "keys"):
        assert set(a.keys()) == set(b.keys())
        for k in a:
            assert_close(a[k], b[k])
    elif isinstance(a, (float, np.floating)) or isinstance(b, (float, np.floating)):
        assert a == pytest.approx(b, rel=1e-12, abs=1e-12)
    else:
        assert a == b


def assert_same(got, want, *, keep=KEEP, fprs=FPRS) -> None:
    """Every exact number of a streamed evaluation equals the in-memory one:
    identical when unweighted, to 1e-12 with weights (thresholds identical)."""
    exact = not want.counts.weighted
    check = (lambda a, b: np.testing.assert_array_equal(a, b)) if exact else (
        lambda a, b: np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12))
    same = (lambda a, b: (a == b) or pytest.fail(f"{a} != {b}")) if exact else assert_close
    assert got.n == want.n
    assert got.positives == pytest.approx(want.positives, rel=1e-12)
    assert got.negatives == pytest.approx(want.negatives, rel=1e-12)
    for name in SCALARS:
        a, b = getattr(got, name), getattr(want, name)
        assert (a is None) == (b is None), name
        if a is not None:
            assert abs(a - b) <= TOL, (name, a, b)
            if exact and name in BIT_FOR_BIT:
                assert a == b, (name, a, b)
    assert dict(got.undefined) == dict(want.undefined)
    for f in fprs:
        for standardized in (False, True):
            a, b = got.partial_auc(f, standardized=standardized), want.partial_auc(f, standardized=standardized)
            assert (a is None) == (b is None)
            if a is not None:
                assert abs(a - b) <= TOL, (f, a, b)
    if want.hull is None:
        assert got.hull is None and got.cost_curve is None
    else:
        np.testing.assert_array_equal(got.hull.threshold, want.hull.threshold)
        for field in ("fpr", "tpr"):
            check(getattr(got.hull, field), getattr(want.hull, field))
        np.testing.assert_array_equal(got.cost_curve.segment_threshold, want.cost_curve.segment_threshold)
        for field in ("pc", "cost", "segment_fpr", "segment_fnr"):
            check(getattr(got.cost_curve, field), getattr(want.cost_curve, field))
        for pc in (0.0, 0.1, 0.37, 0.5, 0.8, 1.0):
            op = got.operating_point(pc)
            same(op, want.operating_point(pc))
            same(got.at_threshold(op.threshold), want.at_threshold(op.threshold))
        for t in want.hull.threshold:  # every vertex: the least-cost threshold at some PC(+)
            same(got.at_threshold(t), want.at_threshold(t))
    costs = {"false_negative": 3, "false_positive": 1}
    for t in keep:
        same(got.at_threshold(t, costs=costs, betas=(0.5, 1, 2)), want.at_threshold(t, costs=costs, betas=(0.5, 1, 2)))


# --------------------------------------------------------------------------- against memory


@pytest.mark.parametrize("ties", [False, True], ids=["continuous", "tied"])
@pytest.mark.parametrize("weighted", [False, True], ids=["counts", "weights"])
@pytest.mark.parametrize("sizes", [(1,), (2,), (7,), (3, 1, 50), (1000,)], ids=str)
@pytest.mark.parametrize("cap", [2, 9, 64, 1 << 18])
def test_reducer_equals_memory(ties, weighted, sizes, cap):
    y, s, w, _ = make_rows(600, 7 + cap + len(sizes), ties=ties, weighted=weighted)
    want = evaluate_binary(y, s, sample_weight=w)
    result = stream(y, s, w, sizes=sizes, cap=cap)
    got = evaluate_reduced(result.table, result.reduction)
    assert_same(got, want)
    red = result.reduction
    assert red.rows == len(want.counts)
    if cap >= len(want.counts):
        assert not result.reduced and not isinstance(got, ReducedEvaluation)
        np.testing.assert_array_equal(result.table.threshold, want.counts.threshold)
        np.testing.assert_allclose(result.table.tp, want.counts.tp, rtol=0 if not weighted else 1e-12)
        np.testing.assert_allclose(result.table.fp, want.counts.fp, rtol=0 if not weighted else 1e-12)
    else:
        assert result.reduced and isinstance(got, ReducedEvaluation)
        # evenly spaced rows are at most cap; the rest are hull, keep and first rows
        assert red.kept <= cap + want.hull.index.size + len(KEEP) + 1
    # the kept rows are rows of the exact table, counts and thresholds exact
    rows = red.row_index
    assert rows[0] == 0 and np.all(np.diff(rows) > 0) and rows[-1] == len(want.counts)
    np.testing.assert_array_equal(result.table.threshold, want.counts.threshold[rows[1:] - 1])
    if weighted:
        np.testing.assert_allclose(result.table.tp, want.counts.tp[rows], rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(result.table.fp, want.counts.fp[rows], rtol=1e-12, atol=1e-12)
    else:
        assert result.table.tp.dtype == np.int64
        np.testing.assert_array_equal(result.table.tp, want.counts.tp[rows])
        np.testing.assert_array_equal(result.table.fp, want.counts.fp[rows])
        assert red.auc2 == twice_right_pairs(y, s)  # exact integer


def test_a_long_table_is_reduced_and_its_curve_stays_within_the_bound():
    y, s, w, _ = make_rows(20000, 3, ties=False, weighted=False)
    want = evaluate_binary(y, s)
    result = stream(y, s, w, sizes=(997,), cap=64)
    got = evaluate_reduced(result.table, result.reduction)
    assert_same(got, want)
    red = result.reduction
    assert red.rows == 20000 and 32 <= red.kept <= 64 + want.hull.index.size + len(KEEP) + 1
    # every point of the exact ROC curve lies within roc_error of the kept polyline
    fx, fy = want.roc.fpr, want.roc.tpr
    kx, ky = got.roc.fpr, got.roc.tpr
    seg = np.clip(np.searchsorted(red.row_index, np.arange(fx.size), side="right") - 1, 0, kx.size - 2)
    x0, y0, x1, y1 = kx[seg], ky[seg], kx[seg + 1], ky[seg + 1]
    vx, vy = x1 - x0, y1 - y0
    t = np.clip(((fx - x0) * vx + (fy - y0) * vy) / (vx * vx + vy * vy), 0, 1)
    dist = np.hypot(fx - x0 - t * vx, fy - y0 - t * vy)
    assert dist.max() <= red.roc_error + 1e-12
    assert 0 < red.roc_error < 0.02


@pytest.mark.slow
def test_rows_of_one_score_split_across_chunks_anywhere():
    """One score spread over many streamed rows (as GROUP BY score, g returns
    them) and over chunk boundaries, folded when held back for long."""
    rng = np.random.default_rng(5)
    y = rng.random(9000) < 0.4
    s = np.where(rng.random(9000) < 0.7, 1.0, rng.normal(size=9000))  # one huge tied block
    g = rng.integers(0, 3000, size=9000)  # many rows per score
    want = evaluate_binary(y, s)
    for sizes in [(1,), (7,), (4099,)]:
        result = stream(y, s, None, sizes=sizes, cap=16, g=g, n_groups=3000)
        assert_same(evaluate_reduced(result.table, result.reduction), want)


@pytest.mark.parametrize("weighted", [False, True], ids=["counts", "weights"])
@pytest.mark.parametrize("cap", [5, 1 << 18])
def test_groups_are_exact_at_keep_and_hull_thresholds(weighted, cap):
    y, s, w, g = make_rows(1500, 11, ties=False, weighted=weighted, groups=4)
    want = evaluate_binary(y, s, sample_weight=w)
    result = stream(y, s, w, sizes=(13,), cap=cap, g=g, n_groups=4)
    assert_same(evaluate_reduced(result.table, result.reduction), want)
    assert set(result.group_tables) == {0, 1, 2, 3}
    for code, table in result.group_tables.items():
        sel = g == code
        exact = count_table(y[sel], s[sel], sample_weight=None if w is None else w[sel])
        assert table.n_rows == exact.n_rows == sel.sum()
        if not result.reduced:  # kept whole: the group's own exact table
            np.testing.assert_array_equal(table.threshold, exact.threshold)
            np.testing.assert_allclose(table.tp, exact.tp, rtol=1e-12)
            np.testing.assert_allclose(table.fp, exact.fp, rtol=1e-12)
        for t in list(KEEP) + want.hull.threshold.tolist():
            r, e = table.rows_at(t), exact.rows_at(t)
            assert table.tp[r] == pytest.approx(exact.tp[e], rel=1e-12, abs=1e-12), t
            assert table.fp[r] == pytest.approx(exact.fp[e], rel=1e-12, abs=1e-12), t
        assert table.positives == pytest.approx(exact.positives, rel=1e-12)
        assert table.negatives == pytest.approx(exact.negatives, rel=1e-12)


def test_the_hull_of_a_subset_holding_every_vertex_is_the_hull():
    rng = np.random.default_rng(2)
    for trial in range(30):
        y, s, _, _ = make_rows(int(rng.integers(20, 800)), trial, ties=bool(trial % 2), weighted=False)
        table = count_table(y, s)
        hull = roc_hull(table)
        keep = np.union1d(hull.index, rng.choice(len(table) + 1, size=min(5, len(table)), replace=False))
        keep = np.union1d(keep, [0, len(table)])
        from evalreport.metrics import CountTable

        sub = CountTable(threshold=table.threshold[keep[1:] - 1], tp=table.tp[keep], fp=table.fp[keep],
                         n_rows=table.n_rows)
        sub_hull = roc_hull(sub)
        np.testing.assert_array_equal(keep[sub_hull.index], hull.index)
        np.testing.assert_array_equal(sub_hull.fpr, hull.fpr)
        np.testing.assert_array_equal(sub_hull.tpr, hull.tpr)
        np.testing.assert_array_equal(sub_hull.threshold, hull.threshold)


# --------------------------------------------------------------------------- refusals, edges


def test_reduced_evaluation_refuses_what_it_cannot_give_exactly():
    y, s, w, _ = make_rows(3000, 4, ties=False, weighted=False)
    result = stream(y, s, w, sizes=(100,), cap=8, keep=(0.5,), fprs=(0.1,))
    got = evaluate_reduced(result.table, result.reduction)
    assert result.reduced
    want = evaluate_binary(y, s)
    assert got.at_threshold(0.5) == want.at_threshold(0.5)
    assert got.at_threshold(np.inf) == want.at_threshold(np.inf)  # nothing positive
    assert got.at_threshold(-np.inf) == want.at_threshold(-np.inf)  # everything positive
    # a threshold between two kept rows with dropped rows in between
    gaps = np.flatnonzero(np.diff(result.reduction.row_index) > 1)
    r = int(gaps[len(gaps) // 2])
    t = (result.table.threshold[r - 1] + result.table.threshold[r]) / 2
    with pytest.raises(ValueError, match="not asked for in advance"):
        got.at_threshold(t)
    with pytest.raises(ValueError, match="was not computed"):
        got.partial_auc(0.2)
    assert got.partial_auc(0.1) == pytest.approx(want.partial_auc(0.1), abs=TOL)


def test_one_class_only_is_undefined_with_reasons():
    for label in (False, True):
        y = np.full(500, label)
        s = np.random.default_rng(1).normal(size=500)
        want = evaluate_binary(y, s, positive=1)
        result = stream(y, s, None, sizes=(7,), cap=4)
        got = evaluate_reduced(result.table, result.reduction)
        assert got.auc is None and got.hull is None and got.expected_total_cost is None
        assert dict(got.undefined) == dict(want.undefined)
        assert (got.average_precision is None) == (not label)
        if label:
            assert got.average_precision == pytest.approx(want.average_precision, abs=TOL)
            assert got.bep == pytest.approx(want.bep, abs=TOL)
        assert got.partial_auc(0.3) is None


def test_zero_weight_scores_are_not_thresholds():
    y = np.array([1, 0, 1, 0, 1, 0], dtype=bool)
    s = np.array([5.0, 4.0, 3.0, 2.0, 1.0, 0.0])
    w = np.array([1.0, 0.0, 2.0, 0.0, 1.0, 3.0])
    want = evaluate_binary(y, s, sample_weight=w)
    for cap in (2, 100):
        result = stream(y, s, w, sizes=(1,), cap=cap)
        assert result.reduction.rows == len(want.counts) == 4
        assert_same(evaluate_reduced(result.table, result.reduction), want)


def test_empty_stream_and_bad_streams():
    result = reduce_count_stream([], positives=0, negatives=0, n_rows=0)
    assert len(result.table) == 0 and result.reduction.auc is None and result.reduction.rows == 0
    r = CountReducer(positives=1, negatives=1)
    with pytest.raises(ValueError, match="descending"):
        r.feed([1.0, 2.0], [1, 0], [0, 1])
    r = CountReducer(positives=1, negatives=1)
    r.feed([2.0], [1], [0])
    with pytest.raises(ValueError, match="descending"):
        r.feed([3.0], [0], [1])
    r = CountReducer(positives=1, negatives=1)
    r.feed([2.0], [1], [0])
    with pytest.raises(ValueError, match="integer counts"):
        r.feed([1.0], [0.0], [1.0])
    r = CountReducer(positives=2, negatives=1)
    r.feed([2.0, 1.0], [1, 0], [0, 1])
    with pytest.raises(ValueError, match="differ from the totals"):
        r.finish()
    with pytest.raises(ValueError, match="NaN or infinite"):
        CountReducer(positives=1, negatives=1).feed([np.nan], [1], [0])
    with pytest.raises(ValueError, match="non-negative"):
        CountReducer(positives=1, negatives=1).feed([1.0], [-1], [0])
    with pytest.raises(ValueError, match="group"):
        CountReducer(positives=1, negatives=1, n_groups=2).feed([1.0], [1], [0])
    with pytest.raises(ValueError, match="group codes must be"):
        CountReducer(positives=1, negatives=1, n_groups=2).feed([1.0], [1], [0], [2])
    with pytest.raises(ValueError, match="cap"):
        CountReducer(positives=1, negatives=1, cap=1)
    with pytest.raises(ValueError, match="max_fpr"):
        CountReducer(positives=1, negatives=1, max_fprs=[0.0])


# --------------------------------------------------------------------------- properties


@st.composite
def streams(draw):
    n = draw(st.integers(2, 60))
    y = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    pool = draw(st.sampled_from(["distinct", "few", "many"]))
    if pool == "distinct":
        s = np.array(draw(st.lists(st.integers(-200, 200), min_size=n, max_size=n, unique=True))) / 16
    else:
        top = 3 if pool == "few" else 15
        s = np.array(draw(st.lists(st.integers(0, top), min_size=n, max_size=n)), dtype=float) / 4
    w = None
    if draw(st.booleans()):
        w = np.array(draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.5, 4.0]), min_size=n, max_size=n)))
    groups = draw(st.integers(0, 3))
    g = np.array(draw(st.lists(st.integers(0, groups - 1), min_size=n, max_size=n))) if groups else None
    sizes = tuple(draw(st.lists(st.integers(1, 9), min_size=1, max_size=4)))
    cap = draw(st.integers(2, 12))
    keep = tuple(draw(st.lists(st.sampled_from([-1.0, 0.0, 0.25, 0.5, 0.75, 1.0, 3.0]), max_size=3)))
    return y, s, w, g, groups, sizes, cap, keep


@pytest.mark.slow
@settings(max_examples=150)
@given(streams())
def test_property_streamed_equals_memory(case):
    y, s, w, g, groups, sizes, cap, keep = case
    if w is not None:
        assume(w.sum() > 0)
    want = evaluate_binary(y, s, sample_weight=w)
    result = stream(y, s, w, sizes=sizes, cap=cap, g=g, n_groups=groups, keep=keep)
    got = evaluate_reduced(result.table, result.reduction)
    assert_same(got, want, keep=keep)
    if w is None and want.auc is not None:
        assert result.reduction.auc2 == twice_right_pairs(y, s)
    if groups:
        thresholds = list(keep) + ([] if want.hull is None else want.hull.threshold.tolist())
        for code, table in result.group_tables.items():
            sel = g == code
            if not sel.any():
                continue
            exact = evaluate_counts(count_table(y[sel], s[sel], sample_weight=None if w is None else w[sel])).counts
            for t in thresholds:
                r, e = table.rows_at(t), exact.rows_at(t)
                assert table.tp[r] == pytest.approx(exact.tp[e], abs=1e-12)
                assert table.fp[r] == pytest.approx(exact.fp[e], abs=1e-12)


# --------------------------------------------------------------------------- review regressions


def brute_upper_hull(fp, tp) -> list[int]:
    """Rows of the strict vertices of the upper hull of the count-space polyline,
    by the monotone chain in Python integers (no NumPy, no shortcuts)."""
    hull: list[int] = []
    for i in range(len(fp)):
        while len(hull) >= 2:
            a, b = hull[-2], hull[-1]
            cross = (fp[b] - fp[a]) * (tp[i] - tp[a]) - (tp[b] - tp[a]) * (fp[i] - fp[a])
            if cross >= 0:  # b on or below the chord from a to i: not a strict vertex
                hull.pop()
            else:
                break
        hull.append(i)
    return hull


def test_weighted_one_class_with_totals_summed_in_another_order():
    """Bug: the BEP was looked for where TP + FP reaches the m+ given in advance;
    summed in another order (math.fsum here, DuckDB's parallel sum in the engine)
    it is one ulp above the stream's running sum, never reached, and finish()
    raised TypeError (None / pos). No negatives: P = 1 everywhere, BEP = 1."""
    s = np.arange(10, 0, -1).astype(float)
    w = np.full(10, 0.1)
    assert math.fsum(w) > np.cumsum(w)[-1]  # the premise: 1.0 and 0.9999999999999999
    y = np.ones(10, dtype=bool)
    want = evaluate_binary(y, s, sample_weight=w)
    for cap in (2, 100):
        for sizes in ((1,), (3,), (10,)):
            result = reduce_count_stream(chunked((s, w, np.zeros(10)), sizes), positives=math.fsum(w),
                                         negatives=0.0, n_rows=10, cap=cap, max_fprs=(0.5,))
            red = result.reduction
            assert red.bep == want.bep == 1.0
            assert red.average_precision == pytest.approx(want.average_precision, abs=TOL)
            assert red.auc is None and red.rank_loss is None and red.auc2 is None
            assert dict(red.partial_auc) == {}
            got = evaluate_reduced(result.table, red)
            assert got.bep == 1.0 and got.auc is None and got.hull is None and got.expected_total_cost is None
            assert dict(got.undefined) == dict(want.undefined)
            assert got.partial_auc(0.5) is None


@pytest.mark.slow
def test_weighted_one_class_random_weights_and_orders():
    rng = np.random.default_rng(8)
    for trial in range(200):
        n = int(rng.integers(1, 300))
        s = np.sort(np.round(rng.normal(size=n), int(rng.integers(0, 4))))[::-1].copy()
        w = rng.random(n) * rng.choice([0.1, 1.0, 3.0])
        w[rng.random(n) < 0.1] = 0.0
        if not w.sum() > 0:
            continue
        want = evaluate_binary(np.ones(n, dtype=bool), s, sample_weight=w)
        given = (math.fsum(w), float(np.sum(w[::-1])), float(np.cumsum(w)[-1]))[trial % 3]
        result = reduce_count_stream(chunked((s, w, np.zeros(n)), (int(rng.integers(1, 20)),)), positives=given,
                                     negatives=0.0, n_rows=n, cap=int(rng.integers(2, 50)))
        got = evaluate_reduced(result.table, result.reduction)
        assert result.reduction.bep == got.bep == want.bep == 1.0
        assert got.average_precision == pytest.approx(want.average_precision, abs=TOL)
        assert got.auc is None and dict(got.undefined) == dict(want.undefined)


def test_bep_not_reached_by_the_end_takes_the_last_row():
    """With negatives too light to lift TP + FP past the given m+ (one ulp above
    the stream's sum), the BEP point is never reached: the last row is taken."""
    s = np.arange(11, 0, -1).astype(float)
    pos = np.append(np.full(10, 0.1), 0.0)
    neg = np.append(np.zeros(10), 1e-30)
    y = np.append(np.ones(10, dtype=bool), False)
    want = evaluate_binary(y, s, sample_weight=pos + neg)
    for sizes in ((1,), (4,), (11,)):
        result = reduce_count_stream(chunked((s, pos, neg), sizes), positives=math.fsum(pos),
                                     negatives=1e-30, n_rows=11, cap=2)
        got = evaluate_reduced(result.table, result.reduction)
        assert got.bep == pytest.approx(want.bep, abs=TOL) and got.bep == 1.0
        assert got.auc == pytest.approx(want.auc, abs=TOL)


@pytest.mark.parametrize("seed", range(6))
def test_weighted_totals_from_another_summation_order(seed):
    """Both classes, the class totals summed as an engine sums them (math.fsum,
    reversed order), not as the stream's running sum: every scalar to rounding."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 3000))
    y = rng.random(n) < rng.choice([0.05, 0.5, 0.95])
    s = np.round(rng.normal(size=n) + y, int(rng.choice([1, 3, 8])))
    w = rng.random(n) * 2
    score, pos, neg, _, _ = grouped_rows(y, s, w)
    pick = math.fsum if seed % 2 else (lambda a: float(np.sum(a[::-1])))
    want = evaluate_binary(y, s, sample_weight=w)
    for cap in (8, 1 << 18):
        result = reduce_count_stream(chunked((score, pos, neg), (int(rng.integers(1, 500)),)),
                                     positives=pick(pos), negatives=pick(neg), n_rows=n, max_fprs=FPRS, cap=cap)
        red = result.reduction
        got = evaluate_reduced(result.table, red)
        for name in ("auc", "rank_loss", "average_precision", "bep", "expected_total_cost"):
            assert getattr(got, name) == pytest.approx(getattr(want, name), abs=1e-12), name
        for name in ("auc", "rank_loss", "average_precision", "bep"):  # the reducer's own, whole or not
            assert getattr(red, name) == pytest.approx(getattr(want, name), abs=1e-12), name
        for f in FPRS:
            assert red.partial_auc[f] == pytest.approx(want.partial_auc(f), abs=1e-12)
            assert got.partial_auc(f, standardized=True) == pytest.approx(
                want.partial_auc(f, standardized=True), abs=1e-12)


def test_integer_counts_past_the_int64_limit_are_refused():
    """Bug: 2 m+ m- >= 2**63 wrapped the int64 dot product: AUC -0.0248 for a
    perfect ranking, silently. The hull's and cost curve's int64 products
    (evalreport.metrics.cost) overflow there too: the reducer refuses."""
    s = np.array([2.0, 1.0, 0.0])
    p = np.array([3_000_000_000, 0, 0])
    n = np.array([0, 1, 3_000_000_000])
    with pytest.raises(ValueError, match=r"2\*\*63"):
        reduce_count_stream([(s, p, n)], positives=int(p.sum()), negatives=int(n.sum()), cap=2)
    # the totals as floats and the counts as ints: refused at the first chunk
    r = CountReducer(positives=float(p.sum()), negatives=float(n.sum()))
    with pytest.raises(ValueError, match=r"2\*\*63"):
        r.feed(s, p, n)
    # the same as float weights (a weight column of ones) is fine
    r = reduce_count_stream([(s, p.astype(float), n.astype(float))], positives=float(p.sum()),
                            negatives=float(n.sum()), n_rows=6_000_000_001, cap=2)
    assert r.reduction.auc == 1.0


def test_integer_counts_just_below_the_int64_limit_are_exact():
    """2 m+ m- = 2**63 - 2**32: the twice-area is an exact integer, the hull and
    the cost curve the in-memory ones."""
    s = np.array([4.0, 3.0, 2.0, 1.0, 0.0])
    p = np.array([2**30, 0, 2**29, 2**29, 0], dtype=np.int64)
    n = np.array([0, 2**29, 2**30 - 1, 0, 2**29], dtype=np.int64)
    m_pos, m_neg = int(p.sum()), int(n.sum())
    assert 2 * m_pos * m_neg < 2**63 == 2 * m_pos * (m_neg + 1)
    tp = np.concatenate(([0], np.cumsum(p))).tolist()
    fp = np.concatenate(([0], np.cumsum(n))).tolist()
    auc2 = sum((fp[k] - fp[k - 1]) * (tp[k] + tp[k - 1]) for k in range(1, len(tp)))
    want = evaluate_counts(count_table_from_aggregates(s, p, n))
    for sizes in ((1,), (2,), (5,)):
        result = reduce_count_stream(chunked((s, p, n), sizes), positives=m_pos, negatives=m_neg, cap=2,
                                     max_fprs=(0.3,))
        red = result.reduction
        assert result.reduced and red.auc2 == auc2 and isinstance(red.auc2, int)
        assert red.auc == auc2 / (2 * m_pos * m_neg)  # the correctly rounded quotient
        assert red.rank_loss == (2 * m_pos * m_neg - auc2) / (2 * m_pos * m_neg)
        got = evaluate_reduced(result.table, red)
        assert got.auc == pytest.approx(want.auc, rel=1e-15)
        assert got.bep == want.bep
        np.testing.assert_array_equal(got.hull.threshold, want.hull.threshold)
        assert got.expected_total_cost == want.expected_total_cost


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("column", ["pos", "neg"])
def test_non_finite_counts_are_refused_naming_the_chunk_and_row(bad, column):
    """Bug: a NaN or infinite weight passed the non-negativity check and was
    dropped (NaN + x > 0 is False: the row looked weightless)."""
    r = CountReducer(positives=2.0, negatives=1.0)
    r.feed([3.0, 2.0], [1.0, 0.0], [0.0, 1.0])
    r.feed([], [], [])
    cols = {"pos": [1.0, 0.0, 0.0], "neg": [0.0, 0.0, 0.0]}
    cols[column][2] = bad
    with pytest.raises(ValueError, match=rf"chunk 2, row 2.*{column}.*(NaN|infinite)"):
        r.feed([1.5, 1.0, 0.5], cols["pos"], cols["neg"])


def test_the_reducers_own_scalars_when_the_table_is_kept_whole():
    """evaluate_reduced ignores the Reduction's scalars when nothing was reduced;
    Aggregated.reductions hands them out all the same: they must be exact too."""
    for trial, (ties, weighted) in enumerate([(False, False), (True, False), (False, True), (True, True)]):
        for seed in range(5):
            y, s, w, _ = make_rows(int(300 + 97 * seed), 40 + seed, ties=ties, weighted=weighted)
            want = evaluate_binary(y, s, sample_weight=w)
            result = stream(y, s, w, sizes=(13,), cap=1 << 18)
            red = result.reduction
            assert not result.reduced
            if weighted:
                for name in ("auc", "rank_loss", "average_precision", "bep"):
                    assert getattr(red, name) == pytest.approx(getattr(want, name), abs=1e-12), name
            else:  # bit for bit: AUC, rank loss, BEP; AP and partial AUC to rounding
                assert red.auc2 == twice_right_pairs(y, s)
                assert (red.auc, red.rank_loss, red.bep) == (want.auc, want.rank_loss, want.bep)
                assert red.average_precision == pytest.approx(want.average_precision, abs=1e-15)
                assert red.positives == want.positives and isinstance(red.positives, int)
            for f in FPRS:
                assert red.partial_auc[f] == pytest.approx(want.partial_auc(f), abs=1e-15 if not weighted else 1e-12)


#: A count-space staircase (distinct scores) whose hull is known: 4 positives,
#: 1 negative, 3 positives, then n p n p (its corner (2, 8) lies on the chord
#: from (1, 7) to (3, 9): not a strict vertex), 3 negatives, 1 positive, 4
#: negatives. Strict vertices (fp, tp): (0, 0), (0, 4), (1, 7), (3, 9), (6, 10), (10, 10).
STAIRS = "pppp n ppp npnp nnn p nnnn".replace(" ", "")
STAIRS_HULL = [(0, 0), (0, 4), (1, 7), (3, 9), (6, 10), (10, 10)]


@pytest.mark.parametrize("size", [1, 2, 7])
@pytest.mark.parametrize("cap", [2, 5, 1 << 18])
def test_the_hull_is_merged_chunk_by_chunk(size, cap):
    y = np.array([c == "p" for c in STAIRS])
    s = np.arange(y.size, 0, -1).astype(float)
    tp = np.concatenate(([0], np.cumsum(y)))
    fp = np.concatenate(([0], np.cumsum(~y)))
    assert [(int(fp[i]), int(tp[i])) for i in brute_upper_hull(fp.tolist(), tp.tolist())] == STAIRS_HULL
    result = stream(y, s, None, sizes=(size,), cap=cap, keep=(), fprs=())
    got = evaluate_reduced(result.table, result.reduction)
    assert result.reduced == (cap < y.size)
    rows = result.reduction.row_index[got.hull.index]  # the hull's rows in the exact table
    assert [(int(fp[r]), int(tp[r])) for r in rows] == STAIRS_HULL
    np.testing.assert_array_equal(got.hull.threshold[1:], s[rows[1:] - 1])
    assert_same(got, evaluate_binary(y, s), keep=(), fprs=())


@pytest.mark.slow
@pytest.mark.parametrize("size", [1, 2, 7])
def test_the_hull_merged_chunk_by_chunk_against_a_brute_force_hull(size):
    rng = np.random.default_rng(size)
    for trial in range(25):
        n = int(rng.integers(5, 400))
        y, s, _, _ = make_rows(n, 100 + trial, ties=bool(trial % 2), weighted=False)
        table = count_table(y, s)
        if not (table.positives and table.negatives):
            continue
        vertices = brute_upper_hull(table.fp.tolist(), table.tp.tolist())
        result = stream(y, s, None, sizes=(size,), cap=2, keep=(), fprs=())
        got = evaluate_reduced(result.table, result.reduction)
        np.testing.assert_array_equal(result.reduction.row_index[got.hull.index], vertices)
        np.testing.assert_array_equal(got.hull.threshold[1:], table.threshold[np.asarray(vertices[1:]) - 1])


def test_empty_chunks_in_the_middle():
    y, s, w, _ = make_rows(400, 21, ties=True, weighted=False)
    score, pos, neg, _, _ = grouped_rows(y, s, w)
    empty = (score[:0], pos[:0], neg[:0])
    pieces = []
    for chunk in chunked((score, pos, neg), (5, 1, 9)):
        pieces += [empty, chunk, empty, empty]
    want = evaluate_binary(y, s)
    for cap in (4, 1 << 18):
        result = reduce_count_stream(iter(pieces), positives=int(y.sum()), negatives=int((~y).sum()),
                                     keep_thresholds=KEEP, max_fprs=FPRS, cap=cap)
        assert_same(evaluate_reduced(result.table, result.reduction), want)


@pytest.mark.parametrize("fold", [2, 4096])
@pytest.mark.parametrize("weighted", [False, True], ids=["counts", "weights"])
def test_one_score_repeated_across_consecutive_batches_without_groups(fold, weighted, monkeypatch):
    """One streamed row per data row (not aggregated), no groups: a score's rows
    span several consecutive batches, held back (and folded) until it ends."""
    from evalreport.metrics import stream as stream_module

    monkeypatch.setattr(stream_module, "_PENDING_FOLD", fold)
    rng = np.random.default_rng(9)
    n = 500
    y = rng.random(n) < 0.4
    s = np.where(rng.random(n) < 0.5, 1.0, np.round(rng.normal(size=n), 1))  # a big tied block at 1.0
    w = rng.choice([0.0, 0.5, 1.0, 2.0], size=n) if weighted else None
    order = np.argsort(-s, kind="stable")
    ww = np.ones(n, dtype=np.int64) if w is None else w[order]
    pos, neg = np.where(y[order], ww, 0), np.where(y[order], 0, ww)
    want = evaluate_binary(y, s, sample_weight=w)
    for sizes in ((1,), (3,), (64,), (7, 1, 30)):
        for cap in (3, 1 << 18):
            result = reduce_count_stream(chunked((s[order], pos, neg), sizes), positives=pos.sum().item(),
                                         negatives=neg.sum().item(), n_rows=n, keep_thresholds=KEEP,
                                         max_fprs=FPRS, cap=cap)
            assert result.reduction.rows == len(want.counts)
            assert_same(evaluate_reduced(result.table, result.reduction), want)


@pytest.mark.parametrize("cap", [8.0, 8.5, "8", True])
def test_a_cap_that_is_not_an_integer_is_refused(cap):
    with pytest.raises(ValueError, match="cap"):
        CountReducer(positives=1, negatives=1, cap=cap)


@pytest.mark.slow
def test_duckdb_refuses_non_integer_cap_and_batch_rows(tmp_path):
    from pyarrow import parquet as pq_
    import pyarrow as pa

    path = str(tmp_path / "d.parquet")
    pq_.write_table(pa.table({"y": [1, 0, 1], "s": [0.3, 0.2, 0.1]}), path)
    from evalreport.engines.duckdb import aggregate_duckdb

    with pytest.raises(ValueError, match="cap"):
        aggregate_duckdb(path, label="y", positive=1, scores={"A": "s"}, cap=8.5)
    with pytest.raises(ValueError, match="batch_rows"):
        aggregate_duckdb(path, label="y", positive=1, scores={"A": "s"}, batch_rows=2.5)


def test_too_many_groups_are_refused():
    from evalreport.metrics.stream import MAX_GROUPS

    CountReducer(positives=1, negatives=1, n_groups=MAX_GROUPS)
    with pytest.raises(ValueError, match="groups"):
        CountReducer(positives=1, negatives=1, n_groups=MAX_GROUPS + 1)


@pytest.mark.slow
def test_duckdb_weighted_one_class_file(tmp_path):
    """The engine's road to the BEP bug: DuckDB sums the weights in parallel, in
    another order than the stream's running sum (p2 of the review crashed in
    about one file of three)."""
    from pyarrow import parquet as pq_
    import pyarrow as pa

    from evalreport.engines.duckdb import aggregate_duckdb

    rng = np.random.default_rng(0)
    for trial in range(12):
        n = 1000
        w = rng.random(n) * 3
        s = rng.normal(size=n)
        path = str(tmp_path / f"pos{trial}.parquet")
        pq_.write_table(pa.table({"y": np.ones(n, dtype=np.int64), "s": s, "w": w}), path)
        want = evaluate_binary(np.ones(n, dtype=bool), s, sample_weight=w)
        for cap in (50, 1 << 18):
            agg = aggregate_duckdb(path, label="y", positive=1, scores={"A": "s"}, weight="w", cap=cap,
                                   batch_rows=128, max_fprs=(0.2,))
            red = agg.reductions["A"]
            assert red.bep == 1.0 and red.auc is None
            assert red.average_precision == pytest.approx(want.average_precision, abs=1e-12)
            got = evaluate_reduced(agg.tables["A"], red)
            assert got.bep == 1.0 and dict(got.undefined) == dict(want.undefined)


@pytest.mark.parametrize("budget", ["all", 12])
@pytest.mark.parametrize("seed, top", [(3, 0), (4, 0), (5, 40), (6, 6000)])
def test_output_curves_of_a_reduced_table_say_simplified_and_bound_the_exact_curve(budget, seed, top):
    # The output curves of a table reduced while streaming pass through kept
    # rows only: simplified, the exact curve's vertices unknown, and max_error
    # bounds every point of the exact ROC and P-R curves (by brute force).
    # ``top``: the best-scored instances made positive (a run of positives at
    # the top: the ROC curve's first vertex is past row 1, where P-R starts;
    # 6000: positives only).
    from evalreport.curves import output_curves

    y, s, w, _ = make_rows(6000, seed, ties=False, weighted=False)
    y[np.argsort(-s)[:top]] = True
    want = evaluate_binary(y, s)
    result = stream(y, s, w, sizes=(997,), cap=48)
    assert result.reduction.reduced
    curves = output_curves(evaluate_reduced(result.table, result.reduction), budget)
    roc, pr = curves.roc, curves.pr
    assert pr.simplified and pr.vertices is None
    far = distance_to_polyline(want.pr.recall, want.pr.precision, pr.x, pr.y).max()
    assert far <= pr.max_error + 1e-12 and (far > 0 or top == 6000)
    assert pr.x[0] == 1 / y.sum()  # from row 1
    if top == 6000:
        assert roc is None
        return
    assert roc.simplified and roc.vertices is None
    assert roc.max_error >= result.reduction.roc_error > 0
    far = distance_to_polyline(want.roc.fpr, want.roc.tpr, roc.x, roc.y).max()
    assert 0 < far <= roc.max_error + 1e-12
    # and the streamed table of every row is exact: nothing to widen
    whole = stream(y, s, w, sizes=(997,), cap=1 << 20)
    assert not whole.reduction.reduced
    exact = output_curves(evaluate_reduced(whole.table, whole.reduction), "all")
    assert not exact.roc.simplified and exact.roc.max_error == 0 and exact.roc.vertices > 0
