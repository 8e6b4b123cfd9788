"""The engine's alternative paths against its general ones, and against scikit-learn.

Unweighted scores of one sign build the count table from one sort of 64-bit keys
(``table_from_keys``); scores of both signs gather, sort and merge each class
(``_table_by_class``); weighted scores and aggregates take ``table_from_ascending``.
Untied unweighted tables get their scalars from the positives' rows
(``scalars_distinct``), the rest from the whole table (``scalars_general``);
the ROC hull may be given its candidate corners and their counts. Every pair must
agree exactly (the same floats, bit for bit, where the docs promise exactness).
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import (
    average_precision_score,
    precision_recall_curve,
    roc_auc_score,
    roc_curve,
)

from evalreport.metrics import count_table, count_table_from_aggregates, evaluate_binary
from evalreport.metrics import binary as B
from evalreport.metrics import cost as C
from evalreport.counting import build, checks
from evalreport.counting import keys as keys_mod
from evalreport.counting import table as table_mod
from evalreport.counting import sorting


def _scores(kind, n, y, rng):
    s = rng.random(n) + 0.4 * y
    if kind == "nonnegative":
        return s
    if kind == "negative":  # log-probabilities: all <= -0.0
        return np.log(s / 1.5)
    if kind == "mixed":
        return s - 0.7
    if kind == "zeros":  # +0.0 among positive scores, and ties at 0
        s[rng.random(n) < 0.2] = 0.0
        return s
    if kind == "negative zeros":  # -0.0 among negative scores
        s = -s
        s[rng.random(n) < 0.2] = -0.0
        return s
    if kind == "ties":
        return np.round(s, 1)
    if kind == "negative ties":
        return -np.round(s, 2)
    if kind == "subnormal":  # tiny magnitudes, next to each other
        return (np.arange(n) + 1.0) * 5e-324 * (1 + y)
    raise AssertionError(kind)


KINDS = ["nonnegative", "negative", "mixed", "zeros", "negative zeros", "ties",
         "negative ties", "subnormal"]
SIZES = [1, 2, 3, 10, 257, 3000]


def _labels(n, rng, rate):
    return (rng.random(n) < rate).astype(int)


def _assert_same_table(a, b):
    assert a.n_rows == b.n_rows
    assert a.tp.dtype == b.tp.dtype == np.int64 and a.fp.dtype == b.fp.dtype == np.int64
    np.testing.assert_array_equal(a.tp, b.tp)
    np.testing.assert_array_equal(a.fp, b.fp)
    # the same floats, bit for bit (-0.0 and +0.0 included)
    assert a.threshold.dtype == b.threshold.dtype == np.float64
    np.testing.assert_array_equal(a.threshold.view(np.uint64), b.threshold.view(np.uint64))


def _by_aggregates(y, s):
    """The general path: a table from per-score aggregates (a GROUP BY)."""
    values, inverse = np.unique(s, return_inverse=True)
    pos = np.bincount(inverse, weights=y, minlength=values.size).astype(np.int64)
    neg = np.bincount(inverse, weights=1 - y, minlength=values.size).astype(np.int64)
    return count_table_from_aggregates(values, pos, neg, n_rows=y.size)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("rate", [0.0, 0.3, 1.0])
def test_key_table_equals_class_table_and_aggregates(kind, n, rate):
    rng = np.random.default_rng([n, KINDS.index(kind), int(rate * 10)])
    y = _labels(n, rng, rate)
    s = _scores(kind, n, y, rng)
    is_pos, s64, _, sign = checks.checked_inputs(y, s, None, 1)
    signbit = np.signbit(s)
    assert sign == (1 if not signbit.any() else -1 if signbit.all() else 0)
    by_class = build._table_by_class(s64, is_pos)
    table, rows = build.count_table_and_positive_rows(y, s)
    _assert_same_table(table, by_class)
    _assert_same_table(table, _by_aggregates(y, s))
    if sign != 0:
        keys_table, keys_rows = sorting.table_from_keys(keys_mod.encoded_keys(s64, is_pos, nonnegative=sign > 0), int(is_pos.sum()), nonnegative=sign > 0)
        _assert_same_table(keys_table, by_class)
        if np.unique(s).size == n:
            np.testing.assert_array_equal(keys_rows, np.flatnonzero(np.diff(by_class.tp)) + 1)
            np.testing.assert_array_equal(rows, keys_rows)
        else:
            assert keys_rows is None and rows is None


def test_sign_classes():
    assert checks._score_sign(np.array([0.0, 1.0, 5e-324, 1e308])) == 1
    assert checks._score_sign(np.array([-0.0, -1.0, -5e-324, -1e308])) == -1
    assert checks._score_sign(np.array([0.0, -0.0])) == 0
    assert checks._score_sign(np.array([-1.0, 2.0])) == 0


@pytest.mark.parametrize(
    "scores, message",
    [
        ([0.1, np.nan, 0.2], "NaN value at index 1"),
        ([0.1, 0.2, np.inf], "infinite value at index 2"),
        ([-0.1, -np.inf, -0.2], "infinite value at index 1"),
        ([-0.1, -0.2, -np.nan], "NaN value at index 2"),
        ([-0.1, 0.2, np.nan], "NaN value at index 2"),
    ],
)
def test_non_finite_scores_are_reported_whatever_their_signs(scores, message):
    with pytest.raises(ValueError, match=message):
        evaluate_binary([0, 1, 0], scores)
    # the scores are checked before the labels, as before
    with pytest.raises(ValueError, match=message):
        evaluate_binary([0, 1, 2], scores)


def _assert_same_evaluation(a, b):
    for name in ("auc", "rank_loss", "average_precision", "bep", "expected_total_cost"):
        va, vb = getattr(a, name), getattr(b, name)
        assert va == pytest.approx(vb, abs=1e-12) if va is not None else vb is None, name
    np.testing.assert_array_equal(a.roc.fpr, b.roc.fpr)
    np.testing.assert_array_equal(a.roc.tpr, b.roc.tpr)
    np.testing.assert_array_equal(a.roc.threshold, b.roc.threshold)
    np.testing.assert_array_equal(a.pr.recall, b.pr.recall)
    np.testing.assert_array_equal(a.pr.precision, b.pr.precision)
    np.testing.assert_array_equal(a.pr.threshold, b.pr.threshold)
    if a.hull is None:
        assert b.hull is None
    else:
        np.testing.assert_array_equal(a.hull.index, b.hull.index)
        np.testing.assert_array_equal(a.cost_curve.pc, b.cost_curve.pc)
        np.testing.assert_array_equal(a.cost_curve.cost, b.cost_curve.cost)


@pytest.mark.parametrize("kind", ["nonnegative", "negative", "mixed"])
@pytest.mark.parametrize("n", [2, 50, 5000, 60000])
def test_distinct_scalars_and_curves_equal_the_general_path(kind, n):
    rng = np.random.default_rng([n, 17])
    y = _labels(n, rng, 0.35)
    y[0], y[-1] = 1, 0
    s = _scores(kind, n, y, rng)
    assert np.unique(s).size == n
    ev = evaluate_binary(y, s)
    table = ev.counts
    assert table.unit_steps
    # The general path on the very same table: scalars from every row.
    auc2, ap, bep, _ = B.scalars_general(table)
    d_auc2, d_ap, d_bep, _ = B.scalars_distinct(table)
    assert d_auc2 == auc2  # exact integers
    assert d_ap == pytest.approx(ap, rel=1e-12)
    assert d_bep == bep
    # rows handed over by the key path equal the rows read off tp
    _, rows = build.count_table_and_positive_rows(y, s)
    if rows is not None:
        np.testing.assert_array_equal(rows, np.flatnonzero(np.diff(table.tp)) + 1)
    # The general path end to end: the same table via aggregates.
    _assert_same_evaluation(ev, B.evaluate_counts(_by_aggregates(y, s)))


@pytest.mark.parametrize("seed", range(3))
def test_hull_from_given_corners_equals_hull_from_the_table(seed):
    rng = np.random.default_rng(seed)
    n = 200_000  # tens of thousands of corners: the sampled first polygon is used
    y = _labels(n, rng, 0.4)
    s = rng.random(n) + 0.3 * y
    table = count_table(y, s)
    _, _, _, (corners, unit) = B.scalars_distinct(table)
    assert corners.size > C._SAMPLE_FROM and isinstance(unit, C.UnitStepCorners)
    counts = unit.at(np.arange(corners.size))
    np.testing.assert_array_equal(counts[0], table.fp[corners])
    np.testing.assert_array_equal(counts[1], table.tp[corners])
    formed = C.upper_hull_indices(table.fp, table.tp, corners, unit)
    given = C.upper_hull_indices(table.fp, table.tp, corners, counts)
    gathered = C.upper_hull_indices(table.fp, table.tp, corners)
    found = C.upper_hull_indices(table.fp, table.tp)
    np.testing.assert_array_equal(formed, found)
    np.testing.assert_array_equal(given, found)
    np.testing.assert_array_equal(gathered, found)
    # against Andrew's monotone chain on every point
    np.testing.assert_array_equal(found, _monotone_chain_upper(table.fp, table.tp))


def _monotone_chain_upper(x, y):
    x, y = x.tolist(), y.tolist()
    hull = []
    for i in range(len(x)):
        while len(hull) >= 2:
            a, b = hull[-2], hull[-1]
            cross = (x[b] - x[a]) * (y[i] - y[a]) - (y[b] - y[a]) * (x[i] - x[a])
            if cross >= 0:  # b on or below the chord a-i: not a strict vertex
                hull.pop()
            else:
                break
        hull.append(i)
    return np.array(hull)


@pytest.mark.parametrize("sample_from, step, max_edges", [(16, 4, 2), (16, 4, 10_000), (8, 2, 1)])
@pytest.mark.parametrize("shape", ["random", "all vertices"])
def test_hull_stages_with_small_limits(monkeypatch, sample_from, step, max_edges, shape):
    # Small limits make every stage run on small inputs: the sampled first
    # polygon, the edge-by-edge filter (or, past max_edges, none), the quickhull.
    monkeypatch.setattr(C, "_SAMPLE_FROM", sample_from)
    monkeypatch.setattr(C, "_SAMPLE_STEP", step)
    monkeypatch.setattr(C, "_MAX_EDGE_LOOP", max_edges)
    rng = np.random.default_rng(5)
    if shape == "random":
        y = _labels(3000, rng, 0.5)
        y = y[np.argsort(-(rng.random(y.size) + 0.5 * y))]
    else:  # one positive, then j negatives, j = 1..m: every corner is a vertex
        runs = np.arange(1, 80)
        y = np.zeros(int(runs.sum() + runs.size), dtype=int)
        y[np.concatenate(([0], np.cumsum(runs + 1)[:-1]))] = 1
    tp = np.concatenate(([0], np.cumsum(y)))
    fp = np.concatenate(([0], np.cumsum(1 - y)))
    expected = _monotone_chain_upper(fp, tp)
    np.testing.assert_array_equal(C.upper_hull_indices(fp, tp), expected)
    # float coordinates (weighted tables) go the same way
    np.testing.assert_array_equal(C.upper_hull_indices(fp * 0.5, tp * 0.25), expected)
    if shape == "all vertices":
        assert expected.size == runs.size + 2


def test_curves_share_buffers_without_changing_values():
    rng = np.random.default_rng(3)
    y = _labels(1000, rng, 0.3)
    s = rng.random(1000) + 0.2 * y
    ev = evaluate_binary(y, s)
    t = ev.counts
    np.testing.assert_array_equal(ev.roc.threshold, np.concatenate(([np.inf], t.threshold)))
    assert np.shares_memory(ev.roc.threshold, t.threshold)  # no copy on the key path
    np.testing.assert_array_equal(ev.roc.tpr, t.tp / t.positives)
    np.testing.assert_array_equal(ev.roc.fpr, t.fp / t.negatives)
    np.testing.assert_array_equal(ev.pr.recall, t.tp[1:] / t.positives)
    np.testing.assert_array_equal(ev.pr.precision, t.tp[1:] / (t.tp[1:] + t.fp[1:]))
    assert not ev.roc.threshold.flags.writeable and not ev.pr.recall.flags.writeable
    # a table built elsewhere: the thresholds are copied
    other = B.evaluate_counts(_by_aggregates(y, s))
    assert not np.shares_memory(other.roc.threshold, other.counts.threshold)
    np.testing.assert_array_equal(other.roc.threshold, ev.roc.threshold)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("decimals", [1, 2])
@pytest.mark.parametrize("sign", [1, -1])
def test_jitter_breaking_ties_matches_sklearn(seed, decimals, sign):
    # Tied scores plus a jitter far below their spacing: every score distinct,
    # the order within each tied block random. The untied paths must then agree
    # with scikit-learn point for point.
    rng = np.random.default_rng([seed, decimals])
    n = 3000
    y = _labels(n, rng, 0.4)
    s = sign * (np.round(rng.random(n) + 0.3 * y, decimals) + rng.random(n) * 1e-9)
    assert np.unique(s).size == n
    ev = evaluate_binary(y, s)  # (the rated road: the tie found in its pass)
    assert ev.auc == pytest.approx(roc_auc_score(y, s), abs=1e-12)
    assert ev.average_precision == pytest.approx(average_precision_score(y, s), abs=1e-12)
    fpr, tpr, thr = roc_curve(y, s, drop_intermediate=False)
    np.testing.assert_allclose(ev.roc.fpr, fpr, rtol=0, atol=1e-12)
    np.testing.assert_allclose(ev.roc.tpr, tpr, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(ev.roc.threshold[1:], thr[1:])
    precision, recall, thr = precision_recall_curve(y, s)
    np.testing.assert_array_equal(ev.pr.threshold, thr[::-1])
    np.testing.assert_allclose(ev.pr.precision, precision[:-1][::-1], rtol=0, atol=1e-12)
    np.testing.assert_allclose(ev.pr.recall, recall[:-1][::-1], rtol=0, atol=1e-12)


@pytest.mark.parametrize("rates", [False, True])
@pytest.mark.parametrize("guess", [True, False])
@pytest.mark.parametrize("kind", ["nonnegative", "negative", "zeros", "ties", "negative ties"])
def test_both_roads_of_the_key_table_agree_whatever_the_tie_guess(monkeypatch, guess, kind, rates):
    # the tie guesses only pick the faster road: forced either way, a tied input
    # must still fold its ties and an untied one still get one row per score.
    monkeypatch.setattr(sorting, "_ties_in_sample", lambda keys: guess)
    monkeypatch.setattr(sorting, "_ties_in_spread_sample", lambda keys: guess)
    rng = np.random.default_rng(11)
    n = 5000
    y = _labels(n, rng, 0.3)
    s = _scores(kind, n, y, rng)
    is_pos, s64, _, sign = checks.checked_inputs(y, s, None, 1)
    table, rows = sorting.table_from_keys(keys_mod.encoded_keys(s64, is_pos, nonnegative=sign > 0), int(is_pos.sum()),
                                     nonnegative=sign > 0, rates=rates)
    _assert_same_table(table, build._table_by_class(s64, is_pos))
    assert (rows is None) == (guess or np.unique(s).size < n)


def test_one_tie_among_distinct_scores():
    # a single tie far from the sampled windows: found by the exact check
    rng = np.random.default_rng(2)
    n = 100_003
    y = _labels(n, rng, 0.5)
    s = rng.random(n)
    order = np.argsort(-s)
    s[order[n // 2 + 7]] = s[order[n // 2 + 6]]
    y[order[n // 2 + 6]], y[order[n // 2 + 7]] = 1, 0
    assert not sorting._ties_in_sample(np.sort(~s.view(np.uint64) << np.uint64(1)))
    assert not sorting._ties_in_spread_sample(s.view(np.uint64) << np.uint64(1))
    table, rows = build.count_table_and_positive_rows(y, s)
    assert rows is None and len(table) == n - 1
    _assert_same_table(table, _by_aggregates(y, s))
    ev = evaluate_binary(y, s)
    assert ev.auc == pytest.approx(roc_auc_score(y, s), abs=1e-12)
    assert ev.average_precision == pytest.approx(average_precision_score(y, s), abs=1e-12)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("n", SIZES)
def test_kept_keys_table_equals_the_eager_one(kind, n):
    # keep_keys (what a report asks for): thresholds decoded and fp formed on
    # demand; whole, at a few rows, and by rows_at, the same as the eager table
    rng = np.random.default_rng([n, KINDS.index(kind), 7])
    y = _labels(n, rng, 0.3)
    s = _scores(kind, n, y, rng)
    eager, rows = build.count_table_and_positive_rows(y, s)
    lazy, lazy_rows = build.count_table_and_positive_rows(y, s, keep_keys=True)
    if lazy_rows is not None:
        np.testing.assert_array_equal(lazy_rows, rows)
    assert len(lazy) == len(eager) and lazy.negatives == eager.negatives
    picks = np.unique(rng.integers(0, len(eager), 20)) if len(eager) else np.zeros(0, dtype=np.int64)
    np.testing.assert_array_equal(lazy.threshold_at(picks).view(np.uint64),
                                  eager.threshold[picks].view(np.uint64))
    np.testing.assert_array_equal(lazy.fp_at(picks + 1), eager.fp[picks + 1])
    probes = np.concatenate((eager.threshold[picks], [np.inf, -np.inf, 0.0, -0.0],
                             np.nextafter(eager.threshold[picks], np.inf)))
    for t in probes.tolist():
        assert lazy.rows_at(t) == eager.rows_at(t), t
    _assert_same_table(lazy, eager)  # whole, after the partial reads


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("n, block", [(3000, None), (5003, 61), (200_003, None)])
def test_evaluation_for_a_report_equals_evaluate_binary(monkeypatch, seed, n, block):
    # The eager road forms the curves in one pass, the report road only the
    # rows it reads: the same floats (several blocks: a small block size, or
    # n past one block).
    from evalreport.metrics import evaluate_binary
    from evalreport.counting import parallel
    from evalreport.metrics.binary import evaluate_binary_for_report

    if block:
        monkeypatch.setattr(parallel, "BLOCK", block)
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    s = rng.random(n) + 0.3 * y
    a, b = evaluate_binary(y, s), evaluate_binary_for_report(y, s)
    for name in ("auc", "rank_loss", "average_precision", "bep", "expected_total_cost"):
        assert getattr(a, name) == getattr(b, name)
    np.testing.assert_array_equal(a.hull.threshold, b.hull.threshold)
    np.testing.assert_array_equal(a.cost_curve.cost, b.cost_curve.cost)
    for t in (0.2, 0.5, float(s[7]), 2.0):
        assert a.at_threshold(t) == b.at_threshold(t)
    assert a.operating_point(0.4) == b.operating_point(0.4)
    for curve in ("roc", "pr"):
        for field in ("threshold", "recall" if curve == "pr" else "fpr", "precision" if curve == "pr" else "tpr"):
            np.testing.assert_array_equal(getattr(getattr(a, curve), field), getattr(getattr(b, curve), field))


def test_counts_past_int64_give_the_exact_auc_and_hull():
    # an aggregated table of billions of rows a side: 2 m+ m- >= 2**63, so
    # the AUC's sum and the hull's cross products leave int64
    from fractions import Fraction

    k = 6000
    i = np.arange(k)
    c = 2 * 10**6
    pos = (k - i) * c // k + 1
    neg = (i + 1) * c // k + 1
    neg[k // 2] += 3 * 10**9  # one wide step of negatives too
    table = count_table_from_aggregates((k - i).astype(float), pos, neg)
    m_pos, m_neg = int(table.positives), int(table.negatives)
    assert 2 * m_pos * m_neg >= 2**63
    tp, fp = [int(v) for v in table.tp], [int(v) for v in table.fp]
    twice = sum((fp[j + 1] - fp[j]) * (tp[j + 1] + tp[j]) for j in range(k))
    ev = B.evaluate_counts(table)
    assert ev.auc == float(Fraction(twice, 2 * m_pos * m_neg))
    assert ev.rank_loss == pytest.approx(1 - ev.auc, abs=1e-15)
    assert ev.rank_loss == pytest.approx(float(Fraction(2 * m_pos * m_neg - twice, 2 * m_pos * m_neg)),
                                         rel=1e-15)
    expected = _monotone_chain_upper(table.fp, table.tp)  # Python ints: exact
    np.testing.assert_array_equal(ev.hull.index, expected)
    # expected total cost: the area under the least cost line of every ROC
    # point, on a dense grid of PC(+) (concave: the trapezoids are within 1e-6)
    fpr, fnr = np.array(fp) / m_neg, 1 - np.array(tp) / m_pos
    pc = np.linspace(0, 1, 20001)
    least = np.array([np.min(fnr * x + fpr * (1 - x)) for x in pc])
    assert ev.expected_total_cost == pytest.approx(np.trapezoid(least, pc), abs=1e-6)


@pytest.mark.parametrize("n", [2, 7, 5000, 70_001])
def test_rated_table_reads_tp_and_fp_at_rows_as_whole(n):
    # The eager table of distinct scores keeps the rates, not tp: tp is
    # rint(tpr * m+), read at a few rows or formed whole, exactly the counts.
    rng = np.random.default_rng(n)
    y = _labels(n, rng, 0.4)
    y[0], y[-1] = 1, 0
    s = rng.random(n)
    table, rows = build.count_table_and_positive_rows(y, s, rates=True)
    assert table.curves is not None and table._tp is None
    picks = np.unique(rng.integers(0, n + 1, 30))
    at_tp, at_fp = table.tp_at(picks), table.fp_at(picks)
    assert table._tp is None  # read at rows only
    # by hand: row k predicts the k highest scores positive
    order = np.argsort(-s, kind="stable")
    tp = np.concatenate(([0], np.cumsum(y[order])))
    fp = np.arange(n + 1) - tp
    np.testing.assert_array_equal(at_tp, tp[picks])
    np.testing.assert_array_equal(at_fp, fp[picks])
    assert table.tp_at(int(picks[0])) == tp[picks[0]]
    np.testing.assert_array_equal(rows, np.flatnonzero(y[order]) + 1)
    assert table.tp.dtype == table.fp.dtype == np.int64
    np.testing.assert_array_equal(table.tp, tp)  # whole
    np.testing.assert_array_equal(table.fp, fp)
    np.testing.assert_array_equal(table.threshold.view(np.uint64), s[order].view(np.uint64))
    assert table.positives == int(y.sum()) and table.negatives == n - int(y.sum())


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("n", [3, 257, 70_001])
def test_lazy_curves_give_the_same_evaluation(kind, n):
    # lazy_curves: the table keeps tp (and the keys' buffer becomes it); the
    # curves are formed when read. Every number the same as the eager road's.
    rng = np.random.default_rng([n, KINDS.index(kind), 3])
    y = _labels(n, rng, 0.3)
    y[0] = 1 - y[-1]
    s = _scores(kind, n, y, rng)
    eager, lazy = evaluate_binary(y, s), evaluate_binary(y, s, lazy_curves=True)
    assert getattr(lazy.counts, "curves", None) is None
    for name in ("auc", "rank_loss", "average_precision", "bep", "expected_total_cost"):
        assert getattr(lazy, name) == getattr(eager, name), name
    _assert_same_evaluation(lazy, eager)
    _assert_same_table(lazy.counts, eager.counts)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("n, block", [(1, None), (2000, None), (5003, 61), (4096, 64), (200_003, None)])
def test_precision_sum_adds_the_curves_precision_block_by_block(monkeypatch, seed, n, block):
    # precision_sum's order, worked out by hand from the P-R curve: the
    # precision at each positive's row k (index n - k), block by block of the
    # index from the top block down, each block's terms in ascending index.
    # (A deliberate pin of the order: every road and thread count adds in it,
    # so that they give the same float. The value itself is checked against
    # an exact sum and scikit-learn.)
    import math

    from evalreport.counting import parallel
    from evalreport.metrics import evaluate_binary
    from evalreport.counting.unit_rates import precision_sum

    if block:
        monkeypatch.setattr(parallel, "BLOCK", block)
    size = parallel.BLOCK
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    y[0] = True
    s = rng.permutation(n) + 0.5  # distinct
    ev = evaluate_binary(y, s)
    order = np.argsort(-s)
    rows = np.flatnonzero(y[order]) + 1  # k_i, ascending
    at_rows = np.cumsum(y[order])[rows - 1] / rows  # i / k_i, by hand
    np.testing.assert_array_equal(at_rows, ev.pr.precision[rows - 1])  # the curve's own floats
    expected = 0.0
    index = n - rows
    for b in sorted(set((index // size).tolist()), reverse=True):
        in_block = np.flatnonzero(index // size == b)
        ascending = in_block[np.argsort(index[in_block])]
        expected += float(np.ascontiguousarray(at_rows[ascending]).sum())
    got = precision_sum(rows, n)
    assert got == expected
    assert math.isclose(got, math.fsum(at_rows), rel_tol=1e-13)
    assert got / y.sum() == ev.average_precision
    from sklearn.metrics import average_precision_score

    assert ev.average_precision == pytest.approx(average_precision_score(y, s), rel=1e-12)


@pytest.mark.parametrize("lazy", [False, True])
def test_dataclasses_replace_on_a_unit_step_table(lazy):
    # The table of distinct unweighted scores is a subclass with its own
    # constructor; dataclasses.replace still gives a table of the fields.
    import dataclasses

    y = np.array([0, 1, 1, 0, 1])
    ev = evaluate_binary(y, np.array([0.1, 0.9, 0.4, 0.35, 0.8]), lazy_curves=lazy)
    table = ev.counts
    assert isinstance(table, table_mod.UnitStepTable)
    same = dataclasses.replace(table)
    assert type(same) is table_mod.CountTable
    for name in ("threshold", "tp", "fp"):
        np.testing.assert_array_equal(getattr(same, name), getattr(table, name))
    assert same.n_rows == table.n_rows == 5
    # a changed column is taken as given (weighted counts are no unit steps)
    weighted = dataclasses.replace(table, tp=table.tp * 0.5)
    assert weighted.weighted and not weighted.unit_steps
    assert B.evaluate_counts(weighted).auc == ev.auc  # AUC does not depend on the positives' scale


def test_the_spread_sample_sees_heavy_ties_and_no_false_ones():
    rng = np.random.default_rng(12)
    keys = lambda s: s.view(np.uint64) << np.uint64(1)  # noqa: E731
    assert sorting._ties_in_spread_sample(keys(np.round(rng.random(100_000), 3)))  # 1,001 values
    assert not sorting._ties_in_spread_sample(keys(rng.random(100_000)))
    # a score shared by a positive and a negative is a tie (the keys differ in the label bit)
    both = keys(np.repeat(np.arange(2000.0), 2)) | np.tile(np.array([0, 1], dtype=np.uint64), 2000)
    assert np.unique(both).size == both.size and sorting._ties_in_spread_sample(both)
