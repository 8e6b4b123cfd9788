"""The binary engine against scikit-learn, the test oracle.

Random inputs with heavy ties (scores rounded to 1 or 2 decimals) or none (continuous
scores), without weights,
with random float weights and with some zero weights; n from 1 to 2000. scikit-learn
drops zero-weight samples before finding thresholds, as our count table drops the
thresholds that carry no weight, so the curves compare point for point.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import (
    average_precision_score,
    confusion_matrix,
    f1_score,
    fbeta_score,
    precision_recall_curve,
    precision_score,
    recall_score,
    roc_auc_score,
    roc_curve,
)

from evalreport.metrics import evaluate_binary

TOL = 1e-12
SIZES = [1, 2, 5, 37, 500, 2000]
SEEDS = range(4)
WEIGHTING = ["none", "float", "zeros"]


def make_case(seed, n, decimals, weighting):
    rng = np.random.default_rng([seed, n, decimals or 0, len(weighting)])
    y = (rng.random(n) < rng.uniform(0.1, 0.7)).astype(int)
    s = rng.normal(size=n) * 0.6 + rng.uniform(0, 1.5) * y
    if decimals is not None:
        s = np.round(s, decimals)
    if weighting == "none":
        w = None
    else:
        w = rng.uniform(0.01, 3.0, n)
        if weighting == "zeros":
            w[rng.random(n) < 0.25] = 0.0
    return y, s, w


def class_weights(y, w):
    w = np.ones(y.size) if w is None else w
    return w[y == 1].sum(), w[y == 0].sum()


# decimals None: continuous scores, no ties (the engine has a separate path for them)
CASES = [
    pytest.param(seed, n, decimals, weighting, id=f"s{seed}-n{n}-d{decimals}-{weighting}")
    for seed in SEEDS
    for n in SIZES
    for decimals in ((1, 2, None) if seed < 2 else (1, 2))
    for weighting in WEIGHTING
]


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
@pytest.mark.filterwarnings("ignore:No positive class found in y_true")
@pytest.mark.parametrize("seed, n, decimals, weighting", CASES)
def test_curves_and_scores_match_sklearn(seed, n, decimals, weighting):
    y, s, w = make_case(seed, n, decimals, weighting)
    pos, neg = class_weights(y, w)
    ev = evaluate_binary(y, s, sample_weight=w)

    if pos + neg == 0:  # every weight zero: nothing for scikit-learn to compare
        assert ev.auc is None
        return

    # ROC vertices: every distinct (weighted) threshold, +inf first.
    fpr, tpr, thr = roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    np.testing.assert_array_equal(ev.roc.threshold, thr)
    if neg > 0:
        np.testing.assert_allclose(ev.roc.fpr, fpr, rtol=0, atol=TOL)
    if pos > 0:
        np.testing.assert_allclose(ev.roc.tpr, tpr, rtol=0, atol=TOL)

    if pos > 0 and neg > 0:
        assert ev.auc == pytest.approx(roc_auc_score(y, s, sample_weight=w), abs=TOL)
        assert ev.rank_loss == pytest.approx(1 - roc_auc_score(y, s, sample_weight=w), abs=TOL)
        for max_fpr in (0.1, 0.37):
            expected = roc_auc_score(y, s, sample_weight=w, max_fpr=max_fpr)
            assert ev.partial_auc(max_fpr, standardized=True) == pytest.approx(expected, abs=TOL)
    else:
        # one class (by weight): scikit-learn says undefined with nan (or an error)
        assert ev.auc is None and ev.rank_loss is None and "auc" in ev.undefined
        try:
            expected = roc_auc_score(y, s, sample_weight=w)
        except ValueError:
            expected = math.nan
        assert math.isnan(expected)

    if pos > 0:
        assert ev.average_precision == pytest.approx(
            average_precision_score(y, s, sample_weight=w), abs=TOL
        )
        # scikit-learn: thresholds ascending, then an appended (recall 0, precision 1).
        precision, recall, pthr = precision_recall_curve(y, s, sample_weight=w)
        assert precision[-1] == 1.0 and recall[-1] == 0.0
        np.testing.assert_array_equal(ev.pr.threshold, pthr[::-1])
        np.testing.assert_allclose(ev.pr.precision, precision[-2::-1], rtol=0, atol=TOL)
        np.testing.assert_allclose(ev.pr.recall, recall[-2::-1], rtol=0, atol=TOL)
    else:
        assert ev.average_precision is None and "average_precision" in ev.undefined


def _none_to_nan(v):
    return math.nan if v is None else v


@pytest.mark.parametrize(
    "seed, n, decimals, weighting",
    [
        p for p in CASES
        if p.values[1] in (1, 2, 37, 500)
        and ((p.values[0] < 2 and p.values[2] == 1) or (p.values[0] == 0 and p.values[2] is None))
    ],
)
def test_at_threshold_measures_match_sklearn(seed, n, decimals, weighting):
    y, s, w = make_case(seed, n, decimals, weighting)
    ev = evaluate_binary(y, s, sample_weight=w)
    if w is not None and w.sum() == 0:  # scikit-learn refuses all-zero weights
        r = ev.at_threshold(s[0])
        assert r.error_rate is None and "error_rate" in r.undefined
        return
    distinct = np.unique(s)
    # a few scores (t equal to a score: that score is predicted positive), a midpoint,
    # and thresholds below and above every score
    picks = distinct[np.linspace(0, distinct.size - 1, min(distinct.size, 3)).astype(int)]
    thresholds = list(picks) + [distinct[0] - 1, distinct[-1] + 1]
    if distinct.size > 2:
        mid = distinct.size // 2
        thresholds.append((distinct[mid] + distinct[mid + 1]) / 2)
    for t in thresholds:
        r = ev.at_threshold(t, betas=(0.5, 1, 2))
        y_pred = (s >= t).astype(int)
        kw = dict(sample_weight=w, zero_division=np.nan)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            expected = {
                "precision": precision_score(y, y_pred, **kw),
                "recall": recall_score(y, y_pred, **kw),
                "f1": f1_score(y, y_pred, **kw),
                "f0.5": fbeta_score(y, y_pred, beta=0.5, **kw),
                "f2": fbeta_score(y, y_pred, beta=2, **kw),
            }
        got = {
            "precision": r.precision,
            "recall": r.recall,
            "f1": r.f1,
            "f0.5": r.fbeta[0.5],
            "f2": r.fbeta[2],
        }
        assert _none_to_nan(r.fbeta[1]) == pytest.approx(_none_to_nan(got["f1"]), abs=TOL, nan_ok=True)
        for name, value in expected.items():
            assert _none_to_nan(got[name]) == pytest.approx(value, abs=TOL, nan_ok=True), (t, name)
        tn, fp, fn, tp = confusion_matrix(y, y_pred, labels=[0, 1], sample_weight=w).ravel()
        assert (r.tp, r.fp, r.tn, r.fn) == tuple(
            pytest.approx(v, abs=1e-9) for v in (tp, fp, tn, fn)
        ), t
