"""The binary engine against hand calculations and published values.

Every expected number below is worked out in the comments from the definitions of
docs/measures.md, quoted from the seeds, or published by pROC (its own test
suite, xrobin/pROC tests/testthat/test-auc.R, on the aSAH data).
"""

from __future__ import annotations

import csv
import math
from fractions import Fraction

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from evalreport.metrics import (
    Costs,
    count_table,
    count_table_from_aggregates,
    evaluate_binary,
    evaluate_counts,
    probability_cost,
)

TOL = 1e-12


def approx(x):
    return pytest.approx(float(x), abs=TOL)


def ranking(labels: str):
    """Labels best first ('p'/'n') -> (y, scores 10..1)."""
    y = np.array([1 if c == "p" else 0 for c in labels])
    return y, np.arange(len(labels), 0, -1, dtype=float)


# The seeds' ten-sample example (best first).
A = "npppnnppnn"
B = "npnnnppppn"


# ---------------------------------------------------------------------------
# The seeds' example


@pytest.mark.parametrize(
    "labels, auc, rank_loss, bep",
    [(A, 0.64, 0.36, 0.6), (B, 0.32, 0.68, 0.2)],
    ids=["A", "B"],
)
def test_seed_example(labels, auc, rank_loss, bep):
    ev = evaluate_binary(*ranking(labels))
    assert ev.positives == 5 and ev.negatives == 5 and ev.n == 10
    assert ev.auc == approx(auc)
    assert ev.rank_loss == approx(rank_loss)
    # BEP: no ties, so the precision of the top m+ = 5 (A: n p p p n -> 3/5; B: n p n n n -> 1/5).
    assert ev.bep == approx(bep)
    assert not ev.undefined


def test_seed_example_roc_points():
    # A = n p p p n n p p n n, m+ = m- = 5: cumulative (FP, TP) after each sample.
    ev = evaluate_binary(*ranking(A))
    fp = [0, 1, 1, 1, 1, 2, 3, 3, 3, 4, 5]
    tp = [0, 0, 1, 2, 3, 3, 3, 4, 5, 5, 5]
    np.testing.assert_allclose(ev.roc.fpr, np.array(fp) / 5, rtol=0, atol=TOL)
    np.testing.assert_allclose(ev.roc.tpr, np.array(tp) / 5, rtol=0, atol=TOL)
    assert ev.roc.threshold[0] == math.inf
    assert ev.roc.threshold[1:].tolist() == list(range(10, 0, -1))


def test_average_precision_step_sum_by_hand():
    # A = n p p p n n p p n n: P at each recall step (R rises by 1/5 at every positive):
    #   k=2: 1/2, k=3: 2/3, k=4: 3/4, k=7: 4/7, k=8: 5/8
    # AP = (1/5)(1/2 + 2/3 + 3/4 + 4/7 + 5/8) = (1/5)(523/168) = 523/840.
    expected = Fraction(1, 5) * (
        Fraction(1, 2) + Fraction(2, 3) + Fraction(3, 4) + Fraction(4, 7) + Fraction(5, 8)
    )
    assert expected == Fraction(523, 840)
    ev = evaluate_binary(*ranking(A))
    assert ev.average_precision == approx(expected)
    # The P-R points themselves: (R_k, P_k) for every k >= 1.
    tp = np.array([0, 1, 2, 3, 3, 3, 4, 5, 5, 5])
    np.testing.assert_allclose(ev.pr.recall, tp / 5, rtol=0, atol=TOL)
    np.testing.assert_allclose(ev.pr.precision, tp / np.arange(1, 11), rtol=0, atol=TOL)


# ---------------------------------------------------------------------------
# At one threshold


def test_at_threshold_by_hand():
    # A = n p p p n n p p n n with scores 10..1. At t = 4 (score >= 4) the top seven
    # n p p p n n p are positive: TP = 4, FP = 3; the rest p n n: FN = 1, TN = 2. m = 10.
    ev = evaluate_binary(*ranking(A))
    costs = Costs(false_negative=5, false_positive=1)
    for t in (4, 3.5, 3.0001):  # any t in (3, 4] selects the same seven
        r = ev.at_threshold(t, costs=costs, betas=(0.5, 1, 2))
        assert (r.tp, r.fp, r.tn, r.fn) == (4, 3, 2, 1)
        assert r.error_rate == approx(0.4)  # (FP + FN) / m = 4/10
        assert r.accuracy == approx(0.6)
        assert r.precision == approx(4 / 7)  # TP / (TP + FP)
        assert r.recall == approx(0.8)  # TP / (TP + FN) = 4/5
        assert r.fpr == approx(0.6)  # FP / (FP + TN) = 3/5
        assert r.specificity == approx(0.4)  # TN / (FP + TN) = 2/5
        assert r.f1 == approx(2 / 3)  # 2TP / (2TP + FP + FN) = 8/12
        # F-beta = (1 + b2) TP / ((1 + b2) TP + b2 FN + FP)
        assert r.fbeta[0.5] == approx(20 / 33)  # 5 / (5 + 0.25 + 3) = 5/8.25
        assert r.fbeta[2] == approx(20 / 27)  # 20 / (20 + 4 + 3)
        assert r.fbeta[1] == approx(2 / 3)  # F1 again
        # (FN c_FN + FP c_FP) / m = (1*5 + 3*1) / 10
        assert r.cost_sensitive_error == approx(0.8)
        assert not r.undefined
    # t exactly equal to a score includes that score (s >= t); just above excludes it.
    r = ev.at_threshold(4.0000001)
    assert (r.tp, r.fp, r.tn, r.fn) == (3, 3, 2, 2)
    # The cost dict form gives the same number.
    r = ev.at_threshold(4, costs={"false_negative": 5, "false_positive": 1})
    assert r.cost_sensitive_error == approx(0.8)


def test_at_threshold_weighted_by_hand():
    # y, s, w = (1, .9, 2), (0, .8, 1), (1, .3, .5), (0, .2, 3). At t = 0.5:
    # TP = 2, FP = 1, FN = 0.5, TN = 3, m = 6.5.
    ev = evaluate_binary([1, 0, 1, 0], [0.9, 0.8, 0.3, 0.2], sample_weight=[2, 1, 0.5, 3])
    r = ev.at_threshold(0.5, costs=Costs(false_negative=2, false_positive=3), betas=(2,))
    assert (r.tp, r.fp, r.tn, r.fn) == (2, 1, 3, 0.5)
    assert r.error_rate == approx(1.5 / 6.5)
    assert r.accuracy == approx(5 / 6.5)
    assert r.precision == approx(2 / 3)
    assert r.recall == approx(0.8)  # 2 / 2.5
    assert r.fpr == approx(0.25)  # 1 / 4
    assert r.specificity == approx(0.75)
    assert r.f1 == approx(4 / 5.5)  # 4 / (4 + 1 + 0.5)
    assert r.fbeta[2] == approx(10 / 13)  # 5*2 / (10 + 4*0.5 + 1)
    assert r.cost_sensitive_error == approx(4 / 6.5)  # (0.5*2 + 1*3) / 6.5
    # AUC by hand: pairs (w+ w-): .9 beats both negatives: 2*1 + 2*3 = 8;
    # .3 beats .2 only: .5*3 = 1.5; total 9.5 of m+ m- = 2.5 * 4 = 10.
    assert ev.auc == approx(0.95)


def test_nothing_predicted_positive():
    # Threshold above the highest score: TP = FP = 0, so precision is undefined;
    # recall = 0 and F1 = 2TP / (2TP + FP + FN) = 0 / 5 = 0 are defined.
    ev = evaluate_binary(*ranking(A))
    r = ev.at_threshold(11)
    assert (r.tp, r.fp, r.tn, r.fn) == (0, 0, 5, 5)
    assert r.precision is None
    assert "nothing is predicted positive" in r.undefined["precision"]
    assert r.recall == 0.0
    assert r.f1 == 0.0
    assert r.error_rate == approx(0.5)
    # Threshold +inf: the same classifier.
    assert ev.at_threshold(math.inf).precision is None


def test_f1_undefined_without_positives_and_predictions():
    ev = evaluate_binary([0, 0, 0], [0.1, 0.2, 0.3])
    r = ev.at_threshold(1.0, betas=(1, 2))
    assert r.f1 is None and "f1" in r.undefined
    assert r.fbeta[2] is None and any(k.startswith("fbeta") for k in r.undefined)
    assert r.recall is None and "no positives" in r.undefined["recall"]
    assert r.fpr == 0.0 and r.error_rate == 0.0
    # Predicting everything positive: F1 = 0 / (0 + 3 + 0) = 0, precision 0.
    r = ev.at_threshold(0.0)
    assert r.f1 == 0.0 and r.precision == 0.0


# ---------------------------------------------------------------------------
# Ties

# Tie example: scores 0.9 (p) | 0.5 (p, n, n) | 0.2 (p, n); m+ = m- = 3.
# Cumulative (FP, TP) per block: (0, 0), (0, 1), (2, 2), (3, 3).
TIE_Y = [1, 0, 1, 0, 1, 0]
TIE_S = [0.2, 0.5, 0.5, 0.2, 0.9, 0.5]


def test_tied_block_is_one_diagonal_roc_segment():
    ev = evaluate_binary(TIE_Y, TIE_S)
    # (0, 1/3) -> (2/3, 2/3) in one step: no (1/3, 1/3) or (0, 2/3) in between.
    np.testing.assert_allclose(ev.roc.fpr, [0, 0, 2 / 3, 1], rtol=0, atol=TOL)
    np.testing.assert_allclose(ev.roc.tpr, [0, 1 / 3, 2 / 3, 1], rtol=0, atol=TOL)
    assert ev.roc.threshold.tolist() == [math.inf, 0.9, 0.5, 0.2]
    # AUC by trapezoids: (2/3)(1/3 + 2/3)/2 + (1/3)(2/3 + 1)/2 = 1/3 + 5/18 = 11/18.
    # Mann-Whitney: .9 beats 3; .5 ties 2 (1) and beats .2 (1); .2 loses 2, ties 1 (.5):
    # (3 + 2 + .5) / 9 = 11/18.
    assert ev.auc == approx(11 / 18)
    assert ev.rank_loss == approx(7 / 18)


def test_bep_interpolated_inside_a_tied_block():
    # m+ = 3; TP + FP per block: 0, 1, 4, 6. The rank m+ = 3 falls inside the tied
    # block 0.5 (from 1 to 4 predicted): 2 of its 3 members, in proportion 1 p : 2 n,
    # so TP = 1 + 1 * (3 - 1) / (4 - 1) = 5/3 and BEP = (5/3) / 3 = 5/9.
    ev = evaluate_binary(TIE_Y, TIE_S)
    assert ev.bep == approx(5 / 9)


def test_average_precision_with_ties_by_hand():
    # P-R points (R, P): (1/3, 1/1), (2/3, 2/4), (1, 3/6); AP = 1/3 (1 + 1/2 + 1/2) = 2/3.
    ev = evaluate_binary(TIE_Y, TIE_S)
    np.testing.assert_allclose(ev.pr.recall, [1 / 3, 2 / 3, 1], rtol=0, atol=TOL)
    np.testing.assert_allclose(ev.pr.precision, [1, 0.5, 0.5], rtol=0, atol=TOL)
    assert ev.pr.threshold.tolist() == [0.9, 0.5, 0.2]
    assert ev.average_precision == approx(2 / 3)


def test_bep_without_tie_is_r_precision():
    # p p n p n n: m+ = 3, the top 3 hold 2 positives -> BEP = 2/3.
    ev = evaluate_binary(*ranking("ppnpnn"))
    assert ev.bep == approx(2 / 3)


# ---------------------------------------------------------------------------
# Cost space


def test_probability_cost():
    # PC(+) = p c_FN / (p c_FN + (1 - p) c_FP) = 0.5 / (0.5 + 0.9)
    assert probability_cost(0.1, Costs(5, 1)) == approx(0.5 / 1.4)
    assert probability_cost(0.1, Costs(false_negative=5, false_positive=1)) == approx(0.5 / 1.4)
    assert probability_cost(0.5, Costs(1, 1)) == approx(0.5)
    assert probability_cost(0.3, Costs(0, 1)) == 0.0


def test_expected_total_cost_perfect_and_trivial():
    # Perfect: the ROC point (0, 1) has NEC = 0 for every PC.
    ev = evaluate_binary([0, 0, 1, 1], [0.1, 0.2, 0.8, 0.9])
    assert ev.expected_total_cost == approx(0)
    # One tied block (a constant score): ROC (0,0)-(1,1); envelope min(PC, 1 - PC),
    # a triangle of area 1/4 with its top at (1/2, 1/2).
    ev = evaluate_binary([0, 1, 0, 1, 1], [0.5] * 5)
    assert ev.expected_total_cost == approx(0.25)
    np.testing.assert_allclose(ev.cost_curve.pc, [0, 0.5, 1], rtol=0, atol=TOL)
    np.testing.assert_allclose(ev.cost_curve.cost, [0, 0.5, 0], rtol=0, atol=TOL)


def test_cost_curve_by_hand_seed_example():
    # A = n p p p n n p p n n; ROC points in counts (FP, TP), m+ = m- = 5:
    # (0,0) (1,0) (1,1) (1,2) (1,3) (2,3) (3,3) (3,4) (3,5) (4,5) (5,5).
    # Upper hull: from (0,0) the steepest is (1,3) (slope 3 vs 5/3 for (3,5)); from (1,3)
    # (3,5) (slope 1 vs 1/2 for (5,5)); then (5,5). In ROC space: (0,0), (.2,.6), (.6,1), (1,1).
    ev = evaluate_binary(*ranking(A))
    np.testing.assert_allclose(ev.hull.fpr, [0, 0.2, 0.6, 1], rtol=0, atol=TOL)
    np.testing.assert_allclose(ev.hull.tpr, [0, 0.6, 1, 1], rtol=0, atol=TOL)
    assert ev.hull.threshold.tolist() == [math.inf, 7, 3, 1]
    # Cost lines NEC = FNR PC + FPR (1 - PC):
    #   (0,0): PC;  (.2,.6): .4 PC + .2 (1 - PC) = .2 + .2 PC;  (.6,1): .6 (1 - PC);
    #   (1,1): 1 - PC (never below .6 (1 - PC)).
    # Breaks at PC = 1 / (1 + slope): slope 3 -> 1/4, slope 1 -> 1/2, slope 0 -> 1.
    # Vertices: (0, 0), (1/4, 1/4), (1/2, .3), (1, 0).
    np.testing.assert_allclose(ev.cost_curve.pc, [0, 0.25, 0.5, 1], rtol=0, atol=TOL)
    np.testing.assert_allclose(ev.cost_curve.cost, [0, 0.25, 0.3, 0], rtol=0, atol=TOL)
    # Area: .25 * .25 / 2 + .25 (.25 + .3) / 2 + .5 * .3 / 2 = .03125 + .06875 + .075.
    assert ev.expected_total_cost == approx(0.175)


def test_cost_curve_by_hand_with_tie():
    # Tie example: ROC (0,0), (0,1/3), (2/3,2/3), (1,1). (2/3, 2/3) lies under the chord
    # from (0, 1/3) to (1, 1) (which is at 7/9 there): hull (0,0), (0,1/3), (1,1).
    # Envelope of PC, (2/3) PC, 1 - PC (and 2/3 - PC/3 from (2/3,2/3), never lowest):
    # (2/3) PC = 1 - PC at PC = 3/5 = 1 / (1 + 2/3), cost 2/5. Area = (1/2)(1)(2/5) = 1/5.
    ev = evaluate_binary(TIE_Y, TIE_S)
    np.testing.assert_allclose(ev.hull.fpr, [0, 0, 1], rtol=0, atol=TOL)
    np.testing.assert_allclose(ev.hull.tpr, [0, 1 / 3, 1], rtol=0, atol=TOL)
    np.testing.assert_allclose(ev.cost_curve.pc, [0, 0.6, 1], rtol=0, atol=TOL)
    np.testing.assert_allclose(ev.cost_curve.cost, [0, 0.4, 0], rtol=0, atol=TOL)
    assert ev.expected_total_cost == approx(0.2)


@pytest.mark.parametrize(
    "pc, min_cost, threshold, fpr, tpr",
    [
        # Lines of A's hull (see above) at PC = 0.4: .4, .28, .36, .6 -> (.2, .6), t = 7.
        (0.4, 0.28, 7, 0.2, 0.6),
        # At PC = 0.8: .8, .36, .12, .2 -> (.6, 1), t = 3.
        (0.8, 0.12, 3, 0.6, 1.0),
        # At PC = 0.1: .1, .22, .54, .9 -> predict nothing positive, t = +inf.
        (0.1, 0.1, math.inf, 0.0, 0.0),
        # At the envelope's corners two vertices tie; operating_point documents that
        # the highest threshold wins. PC = 1/4: .25, .25, .45, .75 -> +inf over 7;
        # PC = 1/2: .5, .3, .3, .5 -> 7 over 3; PC = 1: 1, .6, 0, 0 -> 3 over 1.
        (0.25, 0.25, math.inf, 0.0, 0.0),
        (0.5, 0.3, 7, 0.2, 0.6),
        (1.0, 0.0, 3, 0.6, 1.0),
    ],
)
def test_operating_point_by_hand(pc, min_cost, threshold, fpr, tpr):
    ev = evaluate_binary(*ranking(A))
    op = ev.operating_point(pc)
    assert op.min_cost == approx(min_cost)
    assert op.threshold == threshold
    assert (op.fpr, op.tpr) == (approx(fpr), approx(tpr))
    # The threshold reaches that cost when used as a decision threshold.
    r = ev.at_threshold(op.threshold)
    fnr = r.fn / (r.tp + r.fn)
    assert fnr * pc + r.fpr * (1 - pc) == approx(min_cost)


# ---------------------------------------------------------------------------
# Partial AUC


def test_partial_auc_raw_by_hand():
    # A's ROC: flat at 0 up to FPR .2, vertical to .6, flat to FPR .6, vertical to 1.
    ev = evaluate_binary(*ranking(A))
    assert ev.partial_auc(0.3) == approx(0.1 * 0.6)  # FPR .2..  .3 at height .6
    assert ev.partial_auc(0.5) == approx(0.3 * 0.6)
    assert ev.partial_auc(0.7) == approx(0.4 * 0.6 + 0.1 * 1)
    assert ev.partial_auc(1.0) == approx(0.64)
    # A diagonal (tied) segment is interpolated: tie example, FPR in [0, 1/3]: the
    # segment (0, 1/3) -> (2/3, 2/3) is at 1/2 at FPR 1/3: area (1/3)(1/3 + 1/2)/2 = 5/36.
    ev = evaluate_binary(TIE_Y, TIE_S)
    assert ev.partial_auc(1 / 3) == approx(5 / 36)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("max_fpr", [0.05, 0.1, 0.3, 0.5, 0.8])
def test_partial_auc_standardized_vs_sklearn(seed, max_fpr):
    rng = np.random.default_rng(seed)
    n = 300
    y = rng.integers(0, 2, n)
    s = np.round(rng.normal(size=n) + 0.8 * y, 1)  # heavy ties
    ev = evaluate_binary(y, s)
    expected = roc_auc_score(y, s, max_fpr=max_fpr)
    assert ev.partial_auc(max_fpr, standardized=True) == approx(expected)


def test_partial_auc_of_one_class_is_undefined():
    assert evaluate_binary([1, 1], [0.1, 0.2]).partial_auc(0.1) is None


# ---------------------------------------------------------------------------
# Undefined measures


@pytest.mark.parametrize("y", [[1, 1, 1], [0, 0, 0]])
def test_one_class_only(y):
    ev = evaluate_binary(y, [0.3, 0.1, 0.2])
    for name in ("auc", "rank_loss", "expected_total_cost"):
        assert getattr(ev, name) is None
        assert "only one class" in ev.undefined[name]
    assert ev.hull is None and ev.cost_curve is None
    assert ev.operating_point(0.5) is None
    if y[0] == 0:
        assert ev.average_precision is None and "no positives" in ev.undefined["average_precision"]
        assert ev.bep is None and "no positives" in ev.undefined["bep"]
    else:
        # With positives only, every prediction is right: AP = BEP = 1.
        assert ev.average_precision == 1.0 and ev.bep == 1.0


# ---------------------------------------------------------------------------
# Labels


def test_label_types():
    y_int, s = ranking(A)
    expected = (0.64, 0.36, 0.6, Fraction(523, 840))
    variants = [
        (y_int, 1),
        (y_int.astype(bool), True),
        (y_int.tolist(), 1),
        ([bool(v) for v in y_int], True),
        (np.where(y_int == 1, "yes", "no"), "yes"),
        (["yes" if v else "no" for v in y_int], "yes"),
        (np.where(y_int == 1, 7, -3), 7),
        (y_int.astype(float), 1.0),
    ]
    for y, positive in variants:
        ev = evaluate_binary(y, s, positive=positive)
        got = (ev.auc, ev.rank_loss, ev.bep, ev.average_precision)
        assert got == tuple(approx(v) for v in expected), (y, positive)


def test_positive_label_selects_the_class():
    # With the negatives as the positive class, AUC is P(neg scores above pos) = A's
    # rank loss 0.36; the top 5 (n p p p n) hold 2 n: BEP 2/5.
    y, s = ranking(A)
    ev = evaluate_binary(y, s, positive=0)
    assert ev.auc == approx(0.36)
    assert ev.bep == approx(0.4)
    ev = evaluate_binary(np.where(y == 1, "yes", "no"), s, positive="no")
    assert ev.auc == approx(0.36)
    ev = evaluate_binary(y.astype(bool), s, positive=False)
    assert ev.auc == approx(0.36)


# ---------------------------------------------------------------------------
# Errors


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(y_true=[0, 1, 0, 1], y_score=[0.1, 0.2, np.nan, np.nan]), r"NaN.*index 2\b"),
        (dict(y_true=[0, 1, 0, 1], y_score=[0.1, 0.2, 0.3, np.inf]), r"infinite.*index 3\b"),
        (dict(y_true=[0, 1, 0, 1], y_score=[0.1, -np.inf, 0.3, 0.4]), r"infinite.*index 1\b"),
        (dict(y_true=[0, 1, 0], y_score=[0.1, 0.2]), r"different lengths \(3 and 2\)"),
        (
            dict(y_true=[0, 1, 0], y_score=[0.1, 0.2, 0.3], sample_weight=[1, -0.5, -1]),
            r"negative.*index 1\b",
        ),
        (
            dict(y_true=[0, 1, 0], y_score=[0.1, 0.2, 0.3], sample_weight=[1, 1]),
            r"sample_weight has length 2",
        ),
        (
            dict(y_true=[0, 1, 0], y_score=[0.1, 0.2, 0.3], sample_weight=[1, 1, np.nan]),
            r"sample_weight.*non-finite.*index 2\b",
        ),
        (dict(y_true=[], y_score=[]), r"empty"),
        (dict(y_true=[0, 1, 0, 2, 2], y_score=[1, 2, 3, 4, 5]), r"more than two labels.*index 3\b"),
        (
            dict(y_true=["a", "b", "a", "b"], y_score=[1, 2, 3, 4], positive="yes"),
            r"'yes' does not occur.*index 1\b",
        ),
    ],
    ids=[
        "nan", "inf", "neg-inf", "lengths", "negative-weight", "weight-length",
        "nan-weight", "empty", "three-labels", "positive-absent",
    ],
)
def test_invalid_input_raises(kwargs, match):
    with pytest.raises(ValueError, match=match):
        evaluate_binary(**kwargs)
    kwargs = dict(kwargs)
    with pytest.raises(ValueError, match=match):
        count_table(kwargs.pop("y_true"), kwargs.pop("y_score"), **kwargs)


@pytest.mark.parametrize(
    "y_true, y_score, positive, match",
    [
        # a missing label is named as missing, never counted as a third class (or,
        # with one other label, as the negative class)
        ([0, 1, np.nan, 1], None, 1, r"y_true has a missing value \(nan\) at index 2$"),
        ([np.nan, 1, 0, 1], None, 1, r"missing value \(nan\) at index 0$"),
        ([1, 1, np.nan, 1], None, 1, r"missing value \(nan\) at index 2$"),
        (np.array(["a", None, "a", None], dtype=object), None, "a", r"missing value \(None\) at index 1$"),
        (np.array(["a", "b", None, "b"], dtype=object), None, "a", r"missing value \(None\) at index 2$"),
        ("pandas-string", None, "a", r"y_true has a missing value \(<NA>\) at index 2$"),
        ("pandas-Int64", None, 1, r"y_true has a missing value \(nan\) at index 2$"),
        ([0, 1, 0, 1], "pandas-object", 1, r"y_score has a missing value \(<NA>\) at index 2$"),
        (np.array(["a", "b", np.nan, "b"], dtype=np.dtypes.StringDType(na_object=np.nan)), None, "a",
         r"missing value \(nan\) at index 2$"),
        # a missing date is NaT (NumPy's .item() of it is None)
        (np.array(["2026-01-01", "NaT", "2026-01-01", "2026-01-02"], dtype="datetime64[D]"), None,
         np.datetime64("2026-01-01"), r"y_true has a missing value \(NaT\) at index 1$"),
        (np.array([np.datetime64("2026-01-01"), np.datetime64("NaT")], dtype=object), [0.1, 0.2],
         np.datetime64("2026-01-01"), r"y_true has a missing value \(NaT\) at index 1$"),
        # nor can a missing value be the positive class
        (np.array(["a", None, None, "a"], dtype=object), None, None,
         r"the positive label is a missing value \(None\); name the positive class$"),
        ([0.0, 1.0, np.nan, 1.0], None, np.nan, r"the positive label is a missing value \(nan\)"),
    ],
)
def test_missing_values_are_named(y_true, y_score, positive, match):
    if isinstance(y_true, str) or isinstance(y_score, str):
        import pandas as pd
        if y_true == "pandas-string":
            y_true = pd.Series(["a", "b", pd.NA, "b"], dtype="string")
        elif y_true == "pandas-Int64":
            y_true = pd.Series([1, 0, pd.NA, 0], dtype="Int64")
        if y_score == "pandas-object":
            y_score = pd.Series([0.1, 0.2, pd.NA, 0.4], dtype=object)
    if y_score is None:
        y_score = [0.1, 0.2, 0.3, 0.4]
    with pytest.raises(ValueError, match=match):
        evaluate_binary(y_true, y_score, positive=positive)


# ---------------------------------------------------------------------------
# Count tables


def test_count_table_by_hand():
    # Scores descending 0.8 (p, p), 0.3 (n), 0.1 (n).
    t = count_table([0, 1, 1, 0], [0.1, 0.8, 0.8, 0.3])
    assert t.threshold.tolist() == [0.8, 0.3, 0.1]
    assert t.tp.tolist() == [0, 2, 2, 2]
    assert t.fp.tolist() == [0, 0, 1, 2]


def test_count_table_from_aggregates_by_hand():
    # Per-score aggregates in any order, one score repeated:
    # 0.9 -> (2 p, 0 n); 0.5 -> (1 + 0 p, 1 + 2 n); 0.1 -> (0 p, 3 n).
    t = count_table_from_aggregates([0.5, 0.9, 0.5, 0.1], [1, 2, 0, 0], [1, 0, 2, 3])
    assert t.threshold.tolist() == [0.9, 0.5, 0.1]
    assert t.tp.tolist() == [0, 2, 3, 3]
    assert t.fp.tolist() == [0, 0, 3, 6]
    assert t.n_rows == 9


def test_evaluate_counts_from_aggregates_matches_hand_values():
    # The tie example as per-score aggregates: 0.9 (1 p), 0.5 (1 p, 2 n), 0.2 (1 p, 1 n).
    ev = evaluate_counts(count_table_from_aggregates([0.2, 0.9, 0.5], [1, 1, 1], [1, 0, 2]))
    assert ev.auc == approx(11 / 18)
    assert ev.bep == approx(5 / 9)
    assert ev.average_precision == approx(2 / 3)
    assert ev.expected_total_cost == approx(0.2)


@pytest.mark.parametrize(
    "score, positives, negatives, auc, ap, bep",
    [
        # One tied block (1 p, 1 n) at 0.5, plus a score (0.7) that carries nothing, as a
        # GROUP BY over rows of integer weight 0 gives. AUC: the one pair ties -> 1/2.
        # AP: one point (R 1, P 1/2) -> 1/2. BEP: TP + FP = m+ = 1 halfway into the
        # block -> TP = 1/2, BEP = 1/2.
        ([0.5, 0.7], [1, 0], [1, 0], 0.5, 0.5, 0.5),
        # 0.3 carries nothing, 0.2 holds 2 p, 0.1 holds 1 n: both positives above the
        # negative -> AUC 1; the first point is (R 1, P 1) -> AP 1; top m+ = 2 -> BEP 1.
        ([0.1, 0.2, 0.3], [0, 2, 0], [1, 0, 0], 1.0, 1.0, 1.0),
        # The empty score on top: 1.0 carries nothing, 0.0 holds 1 p and 2 n (one tied
        # block). AUC 1/2; AP: one point (R 1, P 1/3) -> 1/3; BEP: a third of the way
        # into the block -> TP = 1/3, BEP = 1/3.
        ([1.0, 0.0], [0, 1], [0, 2], 0.5, 1 / 3, 1 / 3),
    ],
    ids=["tie-and-empty-score", "two-per-score-and-empty-score", "empty-score-on-top"],
)
def test_integer_aggregates_with_an_empty_score(score, positives, negatives, auc, ap, bep):
    # Three scores' worth of rows, as many rows as samples (n_rows = 2 or 3): the counts
    # are integers and the number of distinct scores equals n_rows, yet the rows do not
    # hold one sample each.
    ev = evaluate_counts(count_table_from_aggregates(score, positives, negatives))
    got = {"auc": ev.auc, "average_precision": ev.average_precision, "bep": ev.bep}
    assert got == {"auc": approx(auc), "average_precision": approx(ap), "bep": approx(bep)}
    # P-R points exist only where something is predicted positive (TP + FP > 0)
    assert not np.isnan(ev.pr.precision).any(), ev.pr.precision
    # The same aggregates as floats (where zero-weight scores are dropped) agree.
    evf = evaluate_counts(
        count_table_from_aggregates(score, np.asarray(positives, float), np.asarray(negatives, float))
    )
    assert (evf.auc, evf.average_precision, evf.bep) == (approx(auc), approx(ap), approx(bep))


# ---------------------------------------------------------------------------
# pROC's aSAH data


def _read_asah(asah_dir):
    with open(asah_dir / "proc_asah.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    y = np.array([int(r["label"]) for r in rows])
    markers = {c: np.array([float(r[c]) for r in rows]) for c in ("s100b", "ndka", "wfns")}
    return y, markers


# pROC's values, from its own test suite (xrobin/pROC, tests/testthat/test-auc.R and
# test-roc.R): the full AUC; the partial AUC over specificity 1..0.99, 1..0.95 and
# 1..0.9 (FPR 0..0.01, 0..0.05, 0..0.1: our partial_auc(fpr_max)); over specificity
# 0.5..0 (FPR 0.5..1, our auc - partial_auc(0.5)); and the McClish-corrected partial
# AUC over FPR 0..0.1 where pROC's tests state it.
# pROC prints the AUCs as 0.7314 (s100b), 0.8237 (wfns) and 0.612 (ndka). ndka's exact
# AUC 0.611958 is 0.6120 to 4 decimals: "0.6119" would be truncation, not rounding.
PROC = {
    "wfns": dict(auc=0.823678861788618, p01=0.000395121951219513, p05=0.00987804878048782,
                 p10=0.0334417344173442, tail50=0.488134475939354,
                 p10_correct=0.649693339038653),
    "ndka": dict(auc=0.611957994579946, p01=0.00024390243902439, p05=0.00284552845528456,
                 p10=0.0107046070460705, tail50=0.416836043360434,
                 p10_correct=0.530024247610897),
    "s100b": dict(auc=0.731368563685637, p01=0.00292682926829269, p05=0.0155487804878049,
                  p10=0.0327574525745257, tail50=0.448128387533875,
                  p10_correct=None),
}


def _mcclish(pauc, fpr_max):
    # pROC's pauc_correct: (1 + (pauc - min) / (max - min)) / 2, min = fpr_max^2 / 2
    # (the diagonal), max = fpr_max (a perfect curve).
    lo = fpr_max**2 / 2
    return (1 + (pauc - lo) / (fpr_max - lo)) / 2


@pytest.mark.parametrize("marker, printed", [("s100b", 0.7314), ("wfns", 0.8237), ("ndka", 0.612)])
def test_asah_auc_matches_proc(asah_dir, marker, printed):
    y, markers = _read_asah(asah_dir)
    assert (y.size, int(y.sum())) == (113, 41)  # 72 controls < 41 cases, as pROC says
    ev = evaluate_binary(y, markers[marker])
    ref = PROC[marker]
    assert round(ev.auc, len(str(printed)) - 2) == printed
    assert ev.auc == pytest.approx(ref["auc"], abs=1e-14)
    assert 1 - ev.rank_loss == pytest.approx(ref["auc"], abs=1e-14)
    for key, fpr_max in (("p01", 0.01), ("p05", 0.05), ("p10", 0.1)):
        assert ev.partial_auc(fpr_max) == pytest.approx(ref[key], abs=1e-14), key
        assert ev.partial_auc(fpr_max, standardized=True) == pytest.approx(
            _mcclish(ref[key], fpr_max), abs=1e-12
        ), key
    assert ev.auc - ev.partial_auc(0.5) == pytest.approx(ref["tail50"], abs=1e-14)
    if ref["p10_correct"] is not None:
        assert ev.partial_auc(0.1, standardized=True) == pytest.approx(ref["p10_correct"], abs=1e-14)


def test_asah_s100b_roc_points_match_proc_coords(asah_dir):
    y, markers = _read_asah(asah_dir)
    s = markers["s100b"]
    ev = evaluate_binary(y, s)
    with open(asah_dir / "proc_asah_s100b_coords.csv", newline="") as f:
        coords = list(csv.DictReader(f))
    proc_pairs = {(int(r["tp"]), int(r["fp"])) for r in coords}
    assert len(proc_pairs) == len(coords)  # pROC lists each ROC point once
    ours = ev.counts
    our_pairs = set(zip(ours.tp.tolist(), ours.fp.tolist()))
    assert our_pairs == proc_pairs
    # The ROC points in rates, against pROC's counts in ROC order (both coordinates rise).
    tp, fp = np.array(sorted(proc_pairs, key=lambda p: (p[1], p[0]))).T
    np.testing.assert_allclose(ev.roc.tpr, tp / 41, rtol=0, atol=TOL)
    np.testing.assert_allclose(ev.roc.fpr, fp / 72, rtol=0, atol=TOL)
    # pROC's thresholds are midpoints between adjacent scores: each one (finite) used as
    # our threshold (score >= t) must give pROC's confusion matrix.
    for r in coords:
        t = float(r["threshold"])
        m = ev.at_threshold(t)
        assert (m.tp, m.fp, m.tn, m.fn) == tuple(int(r[k]) for k in ("tp", "fp", "tn", "fn")), t
