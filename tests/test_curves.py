"""Output curves: every vertex when they fit; otherwise a bounded simplification
whose stated error bound holds for every point of the full curve."""

import numpy as np
import pytest

from evalreport.curves import output_curves, vertex_indices
from evalreport.metrics import evaluate_binary

from brute import distance_to_polyline


def test_vertex_indices_drop_points_on_straight_runs():
    # (0,0) (1,0) (2,0) (2,1) (2,2) (3,3) (4,4): vertices at 0, 2, 4, 6
    x = np.array([0, 1, 2, 2, 2, 3, 4])
    y = np.array([0, 0, 0, 1, 2, 3, 4])
    assert vertex_indices(x, y).tolist() == [0, 2, 4, 6]
    assert vertex_indices(x, y, chunk=2).tolist() == [0, 2, 4, 6]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_simplified_curves_respect_their_error_bound(seed):
    rng = np.random.default_rng(seed)
    n = 3000
    y = rng.random(n) < 0.3
    s = np.round(rng.random(n) + 0.4 * y, 3)
    ev = evaluate_binary(y, s)
    full = output_curves(ev, "all")
    small = output_curves(ev, 60)
    assert not full.roc.simplified and small.roc.simplified and small.roc.x.size <= 60
    assert small.roc.vertices == full.roc.x.size
    # every point of the full ROC lies within max_error of the simplified one
    d = distance_to_polyline(ev.roc.fpr, ev.roc.tpr, small.roc.x, small.roc.y)
    assert d.max() <= small.roc.max_error + 1e-12
    assert 0 < small.roc.max_error < 0.05
    d = distance_to_polyline(ev.pr.recall, ev.pr.precision, small.pr.x, small.pr.y)
    assert d.max() <= small.pr.max_error + 1e-12
    # kept points are points of the curve
    assert np.isin(small.roc.threshold[1:], ev.roc.threshold).all()


def test_all_vertices_kept_when_they_fit():
    # A perfect ranking of 10^5 distinct scores has 3 ROC vertices.
    rng = np.random.default_rng(3)
    s = rng.random(100_000)
    y = s > 0.7
    c = output_curves(evaluate_binary(y, s), 5000)
    assert c.roc.x.tolist() == [0.0, 0.0, 1.0] and c.roc.y.tolist() == [0.0, 1.0, 1.0]
    assert not c.roc.simplified and c.roc.max_error == 0.0


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("decimals, road", [(None, "vertices"), (2, "vertices"), (None, "unit steps")])
def test_precision_ranges_equal_those_over_every_row(seed, decimals, road):
    # Precision is monotone along each straight piece of the curve, so its
    # range between two kept rows is found among the vertices alone; for a
    # table of unit steps it is read off every row directly.
    from evalreport.curves import _unit_step_points, _vertex_points

    rng = np.random.default_rng(seed)
    n = 2000
    y = rng.random(n) < 0.3
    s = rng.random(n) + 0.3 * y
    if decimals is not None:  # tied scores: not unit steps
        s = np.round(s, decimals)
    t = evaluate_binary(y, s).counts
    kept = (_unit_step_points if road == "unit steps" else _vertex_points)(t, 15)
    assert kept.simplified and kept.rows.size <= 15
    pr_rows = kept.rows[kept.rows > 0]
    if pr_rows[0] != 1:
        pr_rows = np.concatenate(([1], pr_rows))
    precision = t.tp[pr_rows] / (t.tp[pr_rows] + t.fp[pr_rows])
    pmin, pmax = kept.precision_ranges(pr_rows, precision)
    every = t.tp[1:] / (t.tp[1:] + t.fp[1:])  # row r at index r - 1
    for j in range(pr_rows.size - 1):
        stretch = every[pr_rows[j] - 1: pr_rows[j + 1]]
        assert pmin[j] == stretch.min() and pmax[j] == stretch.max()


@pytest.mark.parametrize("seed", range(6))
def test_unit_step_vertex_count_and_rows(seed):
    # the unit-step road counts the same vertices as the general one, and
    # with room for them keeps exactly those rows
    from evalreport.curves import _unit_step_points, _vertex_points

    rng = np.random.default_rng(seed)
    y = rng.random(500) < 0.4
    t = evaluate_binary(y, rng.random(500) + 0.2 * y).counts
    a, b = _unit_step_points(t, "all"), _vertex_points(t, "all")
    assert a.vertices == b.vertices
    np.testing.assert_array_equal(a.rows, b.rows)
    small = _unit_step_points(t, 9)
    assert small.vertices == b.vertices and small.rows.size <= 9
    assert small.rows[0] == 0 and small.rows[-1] == len(t)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("top", [0, 1, 5])
def test_pr_curve_starts_at_row_1_whether_or_not_it_is_an_roc_vertex(weighted, top):
    # A run of positives at the top of the ranking: the ROC curve rises
    # straight from row 0 to the run's end, so row 1 is no ROC vertex, but
    # the P-R curve starts there (recall 1/m+, precision 1). Written by hand:
    # scores 10..1, the top `top` positive, then n p n p ...
    y = np.array([True] * top + [False, True, False, True, False, True, False])
    s = np.arange(y.size, 0, -1).astype(float)
    w = np.linspace(1.0, 2.0, y.size) if weighted else None
    ev = evaluate_binary(y, s, sample_weight=w)
    pos = (w if weighted else np.ones(y.size))[y].sum()
    first = (w[0] if weighted else 1.0) if top else 0.0  # row 1: the top instance
    for budget in ("all", 3):
        pr = output_curves(ev, budget).pr
        assert pr.x[0] == pytest.approx(first / pos) and pr.y[0] == (1.0 if top else 0.0)
        assert pr.threshold[0] == s[0]
        if budget == "all":
            # every point is a vertex: the ROC vertices but row 0, and row 1
            roc = output_curves(ev, "all").roc
            assert pr.vertices == pr.x.size == roc.x.size - 1 + (top > 1)
