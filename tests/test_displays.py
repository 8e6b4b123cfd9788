"""The display objects (issue 38): the curves they draw against scikit-learn's
roc_curve and precision_recall_curve on the same data, and their matplotlib
objects."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from sklearn.metrics import precision_recall_curve, roc_auc_score, roc_curve

import evalreport


def _data(seed, n=60):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    s = np.round(np.clip(0.3 * y + rng.random(n) * 0.7, 0, 1), 1)  # ties
    return y, s


def _on_polyline(points, vertices, tol=1e-12):
    """Whether every point lies on the polyline through ``vertices`` (in order)."""
    a, b = vertices[:-1], vertices[1:]
    for p in points:
        d = b - a
        cross = np.abs(d[:, 0] * (p[1] - a[:, 1]) - d[:, 1] * (p[0] - a[:, 0]))
        within = ((np.minimum(a, b) - tol <= p) & (p <= np.maximum(a, b) + tol)).all(axis=1)
        if not np.any((cross <= tol) & within):
            return False
    return True


@pytest.mark.slow
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_roc_display_draws_sklearns_points(seed):
    y, s = _data(seed)
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    display = evalreport.RocCurveDisplay.from_predictions(y, {"m": s})
    np.testing.assert_allclose(display.line_.get_xydata(), np.column_stack([fpr, tpr]), rtol=0, atol=1e-15)
    # a Result's curve leaves out collinear points: every point of scikit-learn's on it, its vertices among them
    result = evalreport.from_predictions(y, {"m": s, "n": s[::-1]}, positive=1, confidence={"bootstrap": 0})
    shown = evalreport.RocCurveDisplay.from_result(result)
    assert list(shown.lines_) == ["m", "n"] and shown.line_ is shown.lines_["m"]
    drawn = shown.line_.get_xydata()
    sk = np.column_stack([fpr, tpr])
    assert _on_polyline(sk, drawn)
    assert all(np.any(np.all(np.abs(sk - v) <= 1e-12, axis=1)) for v in drawn)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_pr_display_passes_through_sklearns_points(seed):
    y, s = _data(seed)
    precision, recall, _ = precision_recall_curve(y, s)
    display = evalreport.PrecisionRecallDisplay.from_predictions(y, s)
    drawn = display.line_.get_xydata()
    for r, p in zip(recall[:-1], precision[:-1]):  # the last is scikit-learn's (recall 0, precision 1) end
        assert np.any(np.all(np.abs(drawn - [r, p]) <= 1e-12, axis=1)), (r, p)
    assert drawn[-1].tolist() == pytest.approx([1.0, y.mean()])


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_cost_display_is_the_lower_envelope_of_sklearns_roc_points(seed):
    y, s = _data(seed)
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    display = evalreport.CostCurveDisplay.from_predictions(y, {"m": s}, pc_positive=0.3)
    x, cost = display.line_.get_xydata().T
    envelope = np.min(fpr[None, :] * (1 - x[:, None]) + (1 - tpr[None, :]) * x[:, None], axis=1)
    np.testing.assert_allclose(cost, envelope, rtol=0, atol=1e-12)


def test_display_objects_hold_their_figure_and_draw_on_a_given_axes():
    from matplotlib.figure import Figure

    y, s = _data(1)
    ax = Figure().subplots()
    display = evalreport.RocCurveDisplay.from_predictions(y, {"a": s, "b": 1 - s}, ax=ax)
    assert display.ax_ is ax and display.figure_ is ax.figure
    assert list(display.lines_) == ["a", "b"] and display.line_ is display.lines_["a"]
    labels = [h.get_label() for h in display.handles_][:2]
    assert labels == [f"a (AUC {roc_auc_score(y, s):.3f})", f"b (AUC {roc_auc_score(y, 1 - s):.3f})"]
    other = Figure().subplots()
    assert display.plot(ax=other).ax_ is other and display.line_ in other.lines


def test_display_names_are_public():
    for name in ("RocCurveDisplay", "PrecisionRecallDisplay", "CostCurveDisplay"):
        assert name in evalreport.__all__ and name in dir(evalreport)
