"""Multi-class one-vs-rest tables and Hand & Till's wins from the packed-key
ordering (issue 24) against the np.argsort road they replaced, number for
number: continuous, tied, weighted (with zero weights) scores, on both sides
of counting.order.SMALL."""

import numpy as np
import pytest

from evalreport.counting import order
from evalreport.metrics.multiclass import _small_labels, column_pass, evaluate_multiclass


def _old_column_pass(y, column, w, i, k):
    """The np.argsort road as it was (tables as (threshold, tp, fp), and wins)."""
    order_ = np.argsort(column, kind="stable")[::-1]
    ss, yy = column[order_], y[order_]
    new_block = np.empty(ss.size, dtype=bool)
    new_block[0] = True
    np.not_equal(ss[1:], ss[:-1], out=new_block[1:])
    starts = np.flatnonzero(new_block)
    block = np.cumsum(new_block) - 1
    is_i = yy == i
    if w is None:
        ww = None
        block_i = np.add.reduceat(is_i.astype(np.int64), starts)
        block_all = np.diff(np.append(starts, ss.size))
    else:
        ww = w[order_]
        block_i = np.add.reduceat(np.where(is_i, ww, 0.0), starts)
        block_all = np.add.reduceat(ww, starts)
    above = np.cumsum(block_i) - block_i
    credit = above[block] + 0.5 * block_i[block]
    wins = np.bincount(yy, weights=credit if ww is None else ww * credit, minlength=k)
    tp = np.concatenate(([0], np.cumsum(block_i)))
    fp = np.concatenate(([0], np.cumsum(block_all - block_i)))
    keep = block_all > 0
    rows = np.concatenate(([0], np.flatnonzero(keep) + 1))
    return ss[starts][keep], tp[rows], fp[rows], wins


@pytest.mark.parametrize("small", [0, None])
@pytest.mark.parametrize("kind", ["continuous", "rounded", "weighted", "weighted-rounded", "zeros"])
def test_tables_and_wins_as_the_argsort_road(monkeypatch, small, kind):
    if small is not None:
        monkeypatch.setattr(order, "SMALL", small)  # the packed-key road at any size
    rng = np.random.default_rng(len(kind))
    n, k = 3000, 5
    y = rng.integers(0, k, n)
    s = rng.random((n, k)) + 0.5 * np.eye(k)[y]
    if "rounded" in kind:
        s = np.round(s, 1)
    if kind == "zeros":
        s = np.where(rng.random((n, k)) < 0.3, 0.0, s)
        s[::7] = -0.0
    w = None
    if "weighted" in kind:
        w = np.where(rng.random(n) < 0.1, 0.0, rng.random(n) * 3)
        w[::5] = 1.0  # repeated weights: tied blocks sum them in another order; exact here
        w = np.round(w, 2) if "rounded" not in kind else np.round(w * 4) / 4
    yk = _small_labels(y, k)
    assert yk.dtype == np.int8
    for i in range(k):
        table, wins = column_pass(yk, s[:, i], w, i, k, n)
        threshold, tp, fp, want_wins = _old_column_pass(y, s[:, i], w, i, k)
        np.testing.assert_array_equal(table.threshold, threshold)
        np.testing.assert_array_equal(table.tp, tp)
        np.testing.assert_array_equal(table.fp, fp)
        if w is None or "rounded" in kind:  # (quarter weights: every sum exact, in any order)
            np.testing.assert_array_equal(wins, want_wins)
        else:
            np.testing.assert_allclose(wins, want_wins, rtol=1e-13)


def test_small_labels():
    y = np.array([0, 3, 2])
    assert _small_labels(y, 4).dtype == np.int8 and _small_labels(y, 200).dtype == np.int16
    assert _small_labels(y, 40_000).dtype == np.int32
    np.testing.assert_array_equal(_small_labels(y, 200), y)


@pytest.mark.slow
def test_multiclass_auc_against_scikit_learn():
    from sklearn.metrics import roc_auc_score

    rng = np.random.default_rng(2)
    n, k = 40_000, 6  # past counting.order.SMALL: the packed-key road
    y = rng.integers(0, k, n)
    logits = rng.normal(size=(n, k)) + np.eye(k)[y]
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    p[:, 2] = np.round(p[:, 2], 2)  # one tied column
    p /= p.sum(axis=1, keepdims=True)
    ev = evaluate_multiclass(y, classes=list(range(k)), scores=p, encoded=True)
    assert ev.ovo_auc == pytest.approx(roc_auc_score(y, p, multi_class="ovo"), abs=1e-12)
    assert ev.macro_auc == pytest.approx(roc_auc_score(y, p, multi_class="ovr"), abs=1e-12)
