"""Multi-class measures against scikit-learn, and Zhou's macro-F1 by hand."""

import numpy as np
import pytest
from sklearn import metrics as skm

from evalreport.metrics.multiclass import average_matrices, evaluate_multiclass

CLASSES = ["cat", "dog", "bird", "fish"]


def _data(seed, n=400, k=4, weights=False):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    logits = rng.normal(size=(n, k)) + 1.2 * np.eye(k)[y]
    logits = np.round(logits, 1)  # ties
    p = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    w = rng.random(n) * 2 if weights else None
    return np.array(CLASSES[:k])[y], p, w


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("weights", [False, True])
def test_against_scikit_learn(seed, weights):
    y, p, w = _data(seed, weights=weights)
    ev = evaluate_multiclass(y, classes=CLASSES, scores=p, sample_weight=w, betas=(1.0, 2.0))
    yhat = np.array(CLASSES)[np.argmax(p, axis=1)]
    cm = skm.confusion_matrix(y, yhat, labels=CLASSES, sample_weight=w)
    assert np.allclose(ev.confusion, cm)
    assert ev.accuracy == pytest.approx(skm.accuracy_score(y, yhat, sample_weight=w), abs=1e-12)
    P, R, F, S = skm.precision_recall_fscore_support(y, yhat, labels=CLASSES, sample_weight=w,
                                                     zero_division=0)
    F2 = skm.fbeta_score(y, yhat, beta=2, labels=CLASSES, average=None, sample_weight=w, zero_division=0)
    for i, c in enumerate(CLASSES):
        m = ev.per_class[c]
        assert (m.precision or 0) == pytest.approx(P[i], abs=1e-12)
        assert (m.recall or 0) == pytest.approx(R[i], abs=1e-12)
        assert (m.f1 or 0) == pytest.approx(F[i], abs=1e-12)
        assert (m.fbeta[2.0] or 0) == pytest.approx(F2[i], abs=1e-12)
        assert m.support == pytest.approx(S[i] if w is None else w[y == c].sum())
        assert m.auc == pytest.approx(skm.roc_auc_score(y == c, p[:, i], sample_weight=w), abs=1e-12)
        assert m.average_precision == pytest.approx(
            skm.average_precision_score(y == c, p[:, i], sample_weight=w), abs=1e-12)
    a = ev.averages
    assert a.mean_f1 == pytest.approx(skm.f1_score(y, yhat, average="macro", sample_weight=w,
                                                   zero_division=0), abs=1e-12)
    assert a.macro_precision == pytest.approx(skm.precision_score(y, yhat, average="macro",
                                                                  sample_weight=w, zero_division=0))
    assert a.micro_precision == pytest.approx(skm.precision_score(y, yhat, average="micro", sample_weight=w))
    assert a.micro_recall == pytest.approx(skm.recall_score(y, yhat, average="micro", sample_weight=w))
    assert a.micro_f1 == pytest.approx(skm.f1_score(y, yhat, average="micro", sample_weight=w))
    # scikit-learn wants the labels (and score columns) in sorted order
    order = np.argsort(CLASSES)
    labels, ps = list(np.array(CLASSES)[order]), p[:, order]
    assert ev.macro_auc == pytest.approx(skm.roc_auc_score(y, ps, multi_class="ovr", average="macro",
                                                           labels=labels, sample_weight=w), abs=1e-12)
    assert ev.weighted_auc == pytest.approx(skm.roc_auc_score(y, ps, multi_class="ovr", average="weighted",
                                                              labels=labels, sample_weight=w), abs=1e-12)
    if w is None:  # scikit-learn's one-vs-one takes no weights
        assert ev.ovo_auc == pytest.approx(skm.roc_auc_score(y, ps, multi_class="ovo", labels=labels),
                                           abs=1e-12)


def test_zhou_macro_f1_by_hand():
    # Two matrices (TP, FP, TN, FN): P = 8/10, 3/4; R = 8/13, 3/9.
    a = average_matrices([(8, 2, 85, 5), (3, 1, 90, 6)])
    mp, mr = (0.8 + 0.75) / 2, (8 / 13 + 3 / 9) / 2
    assert a.macro_precision == pytest.approx(mp)
    assert a.macro_recall == pytest.approx(mr)
    assert a.macro_f1 == pytest.approx(2 * mp * mr / (mp + mr))  # Zhou eq. 2.14
    f1s = [2 * 8 / (16 + 2 + 5), 2 * 3 / (6 + 1 + 6)]
    assert a.mean_f1 == pytest.approx(sum(f1s) / 2)  # scikit-learn's "macro F1": another number
    assert a.macro_f1 != pytest.approx(a.mean_f1)
    # micro: average the counts first
    assert a.micro_precision == pytest.approx(5.5 / (5.5 + 1.5))
    assert a.micro_recall == pytest.approx(5.5 / (5.5 + 5.5))


def test_undefined_counts_as_zero_with_a_reason():
    a = average_matrices([(0, 0, 10, 2), (4, 1, 5, 0)], names=["x", "y"])
    assert a.macro_precision == pytest.approx((0 + 0.8) / 2)
    assert "x" in a.undefined["macro_precision"]


def test_costs_and_bayes_decision():
    y = ["a", "a", "b", "c"]
    p = np.array([[0.5, 0.3, 0.2], [0.4, 0.1, 0.5], [0.2, 0.7, 0.1], [0.3, 0.3, 0.4]])
    cost = [[0, 1, 10], [1, 0, 1], [1, 1, 0]]
    ev = evaluate_multiclass(y, classes=["a", "b", "c"], scores=p, cost_matrix=cost)
    # decisions a, c, b, c: costs 0 + 10 + 0 + 0 over 4
    assert ev.cost_sensitive_error == pytest.approx(10 / 4)
    # Bayes: expected cost of predicting j = sum_i p_i cost[i][j]
    # row 2: [0.5*0+0.1*1+0.5... ] computed by hand below
    exp = np.array(p) @ np.array(cost, float)
    pred = exp.argmin(axis=1)
    want = sum(np.array(cost)[["abc".index(t) for t in y][i]][pred[i]] for i in range(4)) / 4
    assert ev.bayes_cost == pytest.approx(want)
    assert ev.bayes_cost < ev.cost_sensitive_error


def test_hard_predictions_and_unknown_label():
    ev = evaluate_multiclass([1, 2, 3], classes=[1, 2, 3], predicted=[1, 2, 2])
    assert ev.macro_auc is None and ev.per_class["3"].precision is None
    with pytest.raises(ValueError, match="'4', which is not one of the classes"):
        evaluate_multiclass([1, 4], classes=[1, 2], predicted=[1, 2])
