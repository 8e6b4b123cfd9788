"""The tests of significance (evalreport.compare.stats) against references.

* DeLong: scikit-learn's AUC; a brute-force O(m n) DeLong written here from the
  definition (the pairwise comparison matrix psi); pROC's own test suite on its aSAH
  data (xrobin/pROC tests/testthat: test-roc.test.R, test-ci.auc.R and
  helper-deLongPlacementsCpp-expected.R), and the interval pROC prints for s100b.
* McNemar: statsmodels' ``mcnemar(exact=False, correction=True)``.
* Paired t-test: scipy's ``ttest_rel``.
* Friedman: scipy's ``friedmanchisquare``; Zhou's worked example (Table 2.5);
  Demšar's (2006) table of Nemenyi's q_alpha.
* Bootstrap: determinism, the resample's evaluation against the engine on the
  materialised resample, and coverage of the point estimate.
"""

from __future__ import annotations

import csv
import math

import numpy as np
import pytest
from scipy import stats as st
from sklearn.metrics import roc_auc_score

from evalreport.compare.stats import (
    average_precision_score,
    auc_score,
    bep_score,
    bootstrap_intervals,
    delong_auc,
    delong_paired,
    delong_unpaired,
    expected_total_cost,
    f1_at,
    friedman_nemenyi,
    mcnemar,
    nemenyi_q,
    paired_t_test,
    structural_components,
    resampled_evaluations,
)
from evalreport.metrics import evaluate_binary


# ---------------------------------------------------------------------------
# brute-force DeLong from the definition


def _psi(y, s):
    """The m x n matrix psi(X_i, Y_j): 1 if the positive scores higher, 1/2 if tied."""
    y = np.asarray(y, bool)
    s = np.asarray(s, float)
    x, z = s[y][:, None], s[~y][None, :]
    return (x > z) + 0.5 * (x == z)


def _brute(y, s):
    psi = _psi(y, s)
    m, n = psi.shape
    v10, v01 = psi.mean(axis=1), psi.mean(axis=0)
    var = v10.var(ddof=1) / m + v01.var(ddof=1) / n
    return psi.mean(), v10, v01, var


def _brute_paired_var(y, a, b):
    """var(A - B) = L S L' with S = S10/m + S01/n (DeLong et al. 1988, eq. for L = (1, -1))."""
    pa, pb = _psi(y, a), _psi(y, b)
    m, n = pa.shape
    s10 = np.cov(np.vstack([pa.mean(1), pb.mean(1)]))  # ddof = 1
    s01 = np.cov(np.vstack([pa.mean(0), pb.mean(0)]))
    s = s10 / m + s01 / n
    return pa.mean() - pb.mean(), s[0, 0] + s[1, 1] - 2 * s[0, 1]


def _random_case(seed, n=300, levels=None):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < rng.uniform(0.15, 0.85)
    y[:2], y[2:4] = True, False  # at least two of each class
    a = rng.normal(size=n) + y
    b = 0.6 * a + rng.normal(size=n)  # correlated with a
    if levels:  # coarse scores: many ties, within and across classes
        a, b = np.round(a * levels) / levels, np.round(b * levels) / levels
    return y, a, b


CASES = [(seed, levels) for seed in range(4) for levels in (None, 4, 1)]


@pytest.mark.parametrize("seed,levels", CASES)
def test_delong_auc_equals_sklearn_and_brute_force(seed, levels):
    y, a, _ = _random_case(seed, levels=levels)
    auc, v10, v01, var = _brute(y, a)
    r = delong_auc(y, a)
    assert r.auc == pytest.approx(roc_auc_score(y, a), abs=1e-12)
    assert r.auc == pytest.approx(auc, abs=1e-12)
    assert r.se == pytest.approx(math.sqrt(var), rel=1e-10)
    z = st.norm.ppf(0.975)
    assert r.ci == pytest.approx((r.auc - z * r.se, r.auc + z * r.se), rel=1e-12)
    c = structural_components(y, a)  # per instance, in input order
    np.testing.assert_allclose(c.v10, v10, rtol=0, atol=1e-12)
    np.testing.assert_allclose(c.v01, v01, rtol=0, atol=1e-12)


@pytest.mark.parametrize("seed,levels", CASES)
def test_delong_paired_equals_brute_force(seed, levels):
    y, a, b = _random_case(seed, levels=levels)
    d, var = _brute_paired_var(y, a, b)
    t = delong_paired(y, a, b, level=0.9)
    assert t.paired and t.note is None
    assert t.auc_a == pytest.approx(roc_auc_score(y, a), abs=1e-12)
    assert t.auc_b == pytest.approx(roc_auc_score(y, b), abs=1e-12)
    assert t.difference == pytest.approx(d, abs=1e-12)
    assert t.se == pytest.approx(math.sqrt(var), rel=1e-9)
    assert t.z == pytest.approx(d / math.sqrt(var), rel=1e-9)
    assert t.p_value == pytest.approx(2 * st.norm.sf(abs(d) / math.sqrt(var)), rel=1e-9)
    half = st.norm.ppf(0.95) * math.sqrt(var)
    assert t.ci == pytest.approx((d - half, d + half), rel=1e-9)
    # swapping the learners flips the sign only
    s = delong_paired(y, b, a, level=0.9)
    assert (s.z, s.p_value) == (pytest.approx(-t.z), pytest.approx(t.p_value))


@pytest.mark.parametrize("seed,levels", CASES[:6])
def test_delong_unpaired_equals_brute_force(seed, levels):
    ya, a, _ = _random_case(seed, n=120, levels=levels)
    yb, b, _ = _random_case(seed + 10, n=90, levels=levels)
    auc_a, *_, var_a = _brute(ya, a)
    auc_b, *_, var_b = _brute(yb, b)
    t = delong_unpaired(ya, a, yb, b)
    assert not t.paired
    assert t.difference == pytest.approx(auc_a - auc_b, abs=1e-12)
    assert t.se == pytest.approx(math.sqrt(var_a + var_b), rel=1e-10)
    assert t.z == pytest.approx((auc_a - auc_b) / math.sqrt(var_a + var_b), rel=1e-10)


def test_delong_shuffle_and_label_type_invariance():
    y, a, b = _random_case(7, levels=3)
    perm = np.random.default_rng(0).permutation(y.size)
    t1 = delong_paired(y, a, b)
    t2 = delong_paired(y[perm].astype(int), a[perm], b[perm])
    assert (t2.difference, t2.se) == (pytest.approx(t1.difference), pytest.approx(t1.se))


# ---------------------------------------------------------------------------
# pROC's aSAH data and pROC's published values


@pytest.fixture(scope="module")
def asah(asah_dir):
    with open(asah_dir / "proc_asah.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    y = np.array([r["label"] == "1" for r in rows])
    assert (y.size, int(y.sum())) == (113, 41)
    return y, {c: np.array([float(r[c]) for r in rows]) for c in ("s100b", "ndka", "wfns")}


def test_asah_placements_equal_procs(asah):
    # helper-deLongPlacementsCpp-expected.R, s100b "forward": theta and the first
    # placements X (per case = positive) and Y (per control = negative).
    y, mk = asah
    c = structural_components(y, mk["s100b"])
    assert c.auc == pytest.approx(0.731368563685637, abs=1e-14)
    np.testing.assert_allclose(
        c.v10[:5], [0.5625, 0.4375, 0.715277777777778, 0.541666666666667, 0.902777777777778],
        atol=1e-14)
    np.testing.assert_allclose(
        c.v01[:5], [0.707317073170732, 0.670731707317073, 0.804878048780488,
                    0.975609756097561, 0.341463414634146], atol=1e-14)


def test_asah_auc_intervals_equal_procs(asah):
    y, mk = asah
    # test-ci.auc.R: ci.auc(r.ndka) == c(0.501244999271703, 0.611957994579946, 0.722670989888189)
    r = delong_auc(y, mk["ndka"])
    assert (r.ci[0], r.auc, r.ci[1]) == pytest.approx(
        (0.501244999271703, 0.611957994579946, 0.722670989888189), abs=1e-13)
    # pROC prints for roc(outcome ~ s100b, aSAH): "95% CI: 0.6301-0.8326 (DeLong)"
    r = delong_auc(y, mk["s100b"])
    assert tuple(round(v, 4) for v in r.ci) == (0.6301, 0.8326)


# test-roc.test.R: roc.test(r.wfns, r.s100b) etc. (paired DeLong, two-sided):
# (Z, p, CI low, CI high) at 15 significant digits.
PROC_PAIRED = {
    ("wfns", "s100b"): (2.20898359144091, 0.0271757822291882, 0.0104061769564846, 0.174214419249478),
    ("wfns", "ndka"): (2.79777591868904, 0.00514557970691098, 0.0634011709339876, 0.3600405634833566),
    ("ndka", "s100b"): (-1.39077002573558, 0.164295175223054, -0.2876917446341914, 0.0488706064228094),
}
# roc.test(..., paired = FALSE): pROC's "D" and its p-value from t(df).
PROC_UNPAIRED = {
    ("wfns", "s100b"): (1.43490640926908, 0.152825378808796),
    ("wfns", "ndka"): (3.10125096778969, 0.00220950791756457),
    ("ndka", "s100b"): (-1.55995743389685, 0.120192832430845),
}


@pytest.mark.parametrize("pair", list(PROC_PAIRED))
def test_asah_paired_delong_equals_procs(asah, pair):
    y, mk = asah
    z, p, lo, hi = PROC_PAIRED[pair]
    t = delong_paired(y, mk[pair[0]], mk[pair[1]])
    assert t.z == pytest.approx(z, rel=1e-12)
    assert t.p_value == pytest.approx(p, rel=1e-10)
    assert t.ci == pytest.approx((lo, hi), rel=1e-12)


@pytest.mark.parametrize("pair", list(PROC_UNPAIRED))
def test_asah_unpaired_delong_equals_procs(asah, pair):
    y, mk = asah
    d, p_t = PROC_UNPAIRED[pair]
    t = delong_unpaired(y, mk[pair[0]], y, mk[pair[1]])
    assert t.z == pytest.approx(d, rel=1e-12)
    # pROC's p-value: t(df) with Welch-Satterthwaite df, and so is evalreport's
    assert t.p_value == pytest.approx(p_t, rel=1e-10)
    assert t.p_value == pytest.approx(2 * st.t.sf(abs(t.z), t.df), rel=1e-12)


# ---------------------------------------------------------------------------
# DeLong: edge cases and errors


def test_identical_predictions_give_p_one_with_a_note():
    y, a, _ = _random_case(1)
    t = delong_paired(y, a, a.copy())
    assert (t.difference, t.se, t.z, t.p_value, t.ci) == (0.0, 0.0, None, 1.0, (0.0, 0.0))
    assert "identical" in t.note


def test_zero_variance_with_a_difference_has_no_p_value():
    y = np.array([1, 1, 0, 0], bool)
    t = delong_paired(y, [0.9, 0.8, 0.2, 0.1], [0.5, 0.5, 0.5, 0.5])  # perfect vs constant
    assert (t.difference, t.se, t.z, t.p_value) == (0.5, 0.0, None, None)
    assert "does not apply" in t.note


def test_interval_is_clipped_and_says_so():
    r = delong_auc([0, 0, 0, 1, 0, 1, 1, 1], [1, 2, 3, 3.5, 4, 5, 6, 7])
    assert r.ci[1] == 1.0 and r.ci[0] < r.auc < 1.0
    assert "clipped" in r.note
    perfect = delong_auc([0, 0, 1, 1], [1, 2, 3, 4])
    assert (perfect.auc, perfect.se, perfect.ci, perfect.note) == (1.0, 0.0, (1.0, 1.0), None)


def test_one_positive_has_an_auc_but_no_variance():
    r = delong_auc([0, 1, 0, 0], [0.1, 0.9, 0.3, 0.5])
    assert (r.auc, r.se, r.ci) == (1.0, None, None)
    assert "at least 2 positives" in r.note
    t = delong_paired([0, 1, 0, 0], [0.1, 0.9, 0.3, 0.5], [0.1, 0.2, 0.3, 0.5])
    assert (t.difference, t.z, t.p_value) == (pytest.approx(2 / 3), None, None)


@pytest.mark.parametrize(
    "y,s,match",
    [
        ([1, 1, 1], [0.1, 0.2, 0.3], "no negatives"),
        ([0, 0], [0.1, 0.2], "no positives"),
        ([0, 1, 2], [0.1, 0.2, 0.3], "index 2 holds 2"),
        ([0, 1], [0.1, 0.2, 0.3], "length 3"),
        ([0, 1, 1], [0.1, np.nan, 0.3], "non-finite value .* at index 1"),
        ([0, 1], ["a", "b"], "numeric"),
    ],
)
def test_delong_rejects_bad_input(y, s, match):
    with pytest.raises(ValueError, match=match):
        delong_auc(y, s)


def test_level_is_checked():
    with pytest.raises(ValueError, match="level"):
        delong_auc([0, 1, 0, 1], [1, 2, 3, 4], level=1.0)


# ---------------------------------------------------------------------------
# McNemar


def test_mcnemar_counts_follow_zhou_table_2_4():
    y = np.array([1, 1, 1, 1, 0, 0, 0, 0], bool)
    a = np.array([1, 0, 0, 0, 0, 1, 0, 1], bool)  # right on 0, 4, 6
    b = np.array([1, 1, 1, 0, 0, 0, 1, 1], bool)  # right on 0, 1, 2, 4, 5
    r = mcnemar(y, a, b, method="corrected")
    # e01: A wrong and B right (1, 2, 5); e10: A right and B wrong (6); e00 (0, 4); e11 (3, 7)
    assert (r.e00, r.e01, r.e10, r.e11) == (2, 3, 1, 2)
    assert r.method == "corrected"
    assert r.statistic == pytest.approx((abs(3 - 1) - 1) ** 2 / 4)
    assert r.p_value == pytest.approx(st.chi2.sf(0.25, 1))


@pytest.mark.parametrize("seed", range(5))
def test_mcnemar_equals_statsmodels(seed):
    from statsmodels.stats import contingency_tables as sm
    rng = np.random.default_rng(seed)
    n = 400
    y = rng.random(n) < 0.4
    a = np.where(rng.random(n) < 0.8, y, ~y)
    b = np.where(rng.random(n) < 0.7 + 0.04 * seed, y, ~y)
    r = mcnemar(y, a, b, method="corrected")
    ra, rb = a == y, b == y
    table = [[np.sum(ra & rb), np.sum(ra & ~rb)], [np.sum(~ra & rb), np.sum(~ra & ~rb)]]
    ref = sm.mcnemar(table, exact=False, correction=True)
    assert r.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert r.p_value == pytest.approx(ref.pvalue, rel=1e-12)


def test_mcnemar_without_disagreement():
    y = [1, 0, 1, 0]
    r = mcnemar(y, [1, 1, 0, 0], [1, 1, 0, 0])
    assert (r.e01, r.e10, r.statistic, r.p_value) == (0, 0, None, 1.0)
    assert "never disagree" in r.note


def test_mcnemar_rejects_mismatched_lengths():
    with pytest.raises(ValueError, match="lengths 3, 2 and 3"):
        mcnemar([1, 0, 1], [1, 0], [1, 0, 1])


# ---------------------------------------------------------------------------
# paired t-test


@pytest.mark.parametrize("k", [2, 5, 10])
def test_paired_t_equals_scipy(k):
    rng = np.random.default_rng(k)
    a = rng.uniform(0.05, 0.3, k)
    b = a + rng.normal(0.01, 0.02, k)
    r = paired_t_test(a, b, level=0.9)
    ref = st.ttest_rel(a, b)
    assert r.t == pytest.approx(ref.statistic, rel=1e-12)
    assert r.p_value == pytest.approx(ref.pvalue, rel=1e-12)
    assert r.dof == k - 1
    assert r.mean_difference == pytest.approx(np.mean(a - b))
    ci = ref.confidence_interval(confidence_level=0.9)
    assert r.ci == pytest.approx((ci.low, ci.high), rel=1e-12)


def test_paired_t_degenerate_folds():
    same = paired_t_test([0.1, 0.2, 0.3], [0.1, 0.2, 0.3])
    assert (same.t, same.p_value) == (None, 1.0) and "no difference" in same.note
    shifted = paired_t_test([0.25, 0.5, 0.75], [0.0, 0.25, 0.5])
    assert (shifted.t, shifted.p_value) == (None, 0.0) and "infinite" in shifted.note
    with pytest.raises(ValueError, match="at least 2 folds"):
        paired_t_test([0.1], [0.2])


# ---------------------------------------------------------------------------
# Friedman and Nemenyi


def test_zhou_table_2_5_worked_example():
    # Zhou, Table 2.5: ranks of A, B, C on D1..D4; average ranks 1, 2.125, 2.875;
    # Nemenyi CD = 1.657 at alpha = 0.05 (the book's q_0.05 = 2.344). The book's
    # tau_chi2 = 7.125 (12*4/(3*4) * (1 + 2.125^2 + 2.875^2 - 12)) and tau_F = 24.429
    # leave out the correction for D2's tie (2.5, 2.5): C = 1 - (2^3 - 2)/(4 (3^3 - 3))
    # = 0.9375, tau_chi2 = 7.125 / C = 7.6 (scipy's friedmanchisquare), tau_F = 57.
    ranks = [[1, 2, 3], [1, 2.5, 2.5], [1, 2, 3], [1, 2, 3]]
    r = friedman_nemenyi(ranks, higher_is_better=False)
    assert r.average_ranks == (1.0, 2.125, 2.875)
    assert r.ranks == tuple(tuple(map(float, row)) for row in ranks)
    assert r.chi2 == pytest.approx(7.125 / 0.9375)
    assert r.chi2 == pytest.approx(st.friedmanchisquare(*np.array(ranks).T).statistic, rel=1e-12)
    assert r.f_statistic == pytest.approx(3 * 7.6 / (8 - 7.6))
    assert r.p_value_f == pytest.approx(st.f.sf(r.f_statistic, 2, 6))
    assert round(r.q_alpha, 3) == 2.344
    assert round(r.critical_difference, 3) == 1.657
    assert r.significant_pairs == ((0, 2),)  # A vs C differ by 1.875 > CD; A vs B by 1.125


def test_performance_tables_are_ranked_per_data_set():
    # accuracies (higher is better): ranks 1, 2.5, 2.5 on the tie
    r = friedman_nemenyi([[0.9, 0.8, 0.8], [0.7, 0.75, 0.6]])
    assert r.ranks == ((1.0, 2.5, 2.5), (2.0, 1.0, 3.0))
    low = friedman_nemenyi([[0.1, 0.2, 0.2], [0.3, 0.25, 0.4]], higher_is_better=False)
    assert low.ranks == r.ranks


@pytest.mark.parametrize("seed", range(4))
def test_friedman_chi2_equals_scipy(seed):
    rng = np.random.default_rng(seed)
    n, k = 8 + seed, 3 + seed
    table = rng.random((n, k)) + np.linspace(0, 0.3, k)  # continuous: no ties
    r = friedman_nemenyi(table)
    # scipy ranks ascending; the statistic is the same either way without ties
    ref = st.friedmanchisquare(*table.T)
    assert r.chi2 == pytest.approx(ref.statistic, rel=1e-12)
    assert r.p_value_chi2 == pytest.approx(ref.pvalue, rel=1e-12)
    assert r.f_statistic == pytest.approx((n - 1) * r.chi2 / (n * (k - 1) - r.chi2))


@pytest.mark.parametrize("seed", range(6))
def test_friedman_chi2_with_ties_equals_scipy(seed):
    # few distinct values: ties on most data sets, some rows tied throughout
    rng = np.random.default_rng(100 + seed)
    n, k = 5 + seed, 3 + seed % 3
    table = rng.integers(0, 3, size=(n, k)).astype(float)
    table[0] = 1.0  # one data set ties every learner
    r = friedman_nemenyi(table, higher_is_better=False)  # ascending, as scipy ranks
    ref = st.friedmanchisquare(*table.T)
    assert r.chi2 == pytest.approx(ref.statistic, rel=1e-12)
    assert r.p_value_chi2 == pytest.approx(ref.pvalue, rel=1e-12)
    # tau_F from the corrected tau_chi2 is the two-way analysis of variance of the
    # ranks (Iman & Davenport): between learners over the residual mean square
    ranks = np.array(r.ranks)
    grand = ranks.mean()
    ss_learners = n * np.sum((ranks.mean(axis=0) - grand) ** 2)
    ss_total = np.sum((ranks - grand) ** 2)
    ss_datasets = k * np.sum((ranks.mean(axis=1) - grand) ** 2)
    resid = ss_total - ss_learners - ss_datasets
    f_anova = (ss_learners / (k - 1)) / (resid / ((k - 1) * (n - 1)))
    assert r.f_statistic == pytest.approx(f_anova, rel=1e-10)
    # the ranks with higher_is_better mirror; the statistic is the same
    assert friedman_nemenyi(table).chi2 == pytest.approx(r.chi2, rel=1e-12)


def test_friedman_with_every_learner_tied_everywhere():
    r = friedman_nemenyi([[0.5, 0.5, 0.5], [0.7, 0.7, 0.7]])
    assert (r.chi2, r.p_value_chi2, r.f_statistic, r.p_value_f) == (0.0, 1.0, 0.0, 1.0)
    assert r.note == "every data set ties every learner: no evidence of a difference"


def test_friedman_with_every_data_set_in_the_same_order():
    r = friedman_nemenyi([[3, 2, 1], [30, 20, 10]])
    assert r.chi2 == pytest.approx(4.0)  # = N (k - 1), the maximum
    assert (r.f_statistic, r.p_value_f) == (None, 0.0) and r.identical_ranks
    assert r.note.startswith("the ranks are identical on every data set") and "p = 0" not in r.note
    assert "p < 0.001" in r.note


@pytest.mark.parametrize("n_datasets", [1, 2, 3, 4, 5, 6])
def test_friedman_too_few_datasets_below_five(n_datasets):
    """The statistic is computed whatever N; below 5 data sets it is flagged."""
    rng = np.random.default_rng(n_datasets)
    table = rng.random((n_datasets, 3))
    r = friedman_nemenyi(table)
    assert r.too_few_datasets == (n_datasets < 5)
    if n_datasets > 1:  # still the statistic: scipy's
        assert r.chi2 == pytest.approx(st.friedmanchisquare(*table.T).statistic, rel=1e-12)
    assert not friedman_nemenyi([[1, 2], [2, 1], [1, 2]]).identical_ranks


# Demšar (2006), Table 5: critical values of the two-tailed Nemenyi test, k = 2..10.
DEMSAR_Q = {
    0.05: [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164],
    0.10: [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920],
}


@pytest.mark.parametrize("alpha", list(DEMSAR_Q))
def test_nemenyi_q_matches_demsars_table(alpha):
    # The table is printed to 3 decimals and not always rounded (k = 3 at 0.05 is
    # 2.3437, which Demšar prints 2.343 and Zhou 2.344): compare within 1e-3.
    q = [nemenyi_q(k, alpha) for k in range(2, 11)]
    assert q == pytest.approx(DEMSAR_Q[alpha], abs=1e-3)


# ---------------------------------------------------------------------------
# bootstrap


def _bootstrap_case(n=400, seed=3):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.35
    s = np.round(rng.normal(size=n) + 1.2 * y, 1)  # ties
    return y, s


STATS = {
    "bep": bep_score,
    "ap": average_precision_score,
    "etc": expected_total_cost,
    "auc": auc_score,
    "f1@0.5": f1_at(0.5),
}


def test_bootstrap_is_seeded():
    y, s = _bootstrap_case()
    one = bootstrap_intervals(y, s, statistics=STATS, n_resamples=200, seed=7)
    two = bootstrap_intervals(y, s, statistics=STATS, n_resamples=200, seed=7)
    other = bootstrap_intervals(y, s, statistics=STATS, n_resamples=200, seed=8)
    assert one == two
    assert all(one[k] != other[k] for k in STATS)


def test_bootstrap_intervals_contain_the_point_estimates():
    y, s = _bootstrap_case()
    ev = evaluate_binary(y, s)
    point = {"bep": ev.bep, "ap": ev.average_precision, "etc": ev.expected_total_cost,
             "auc": ev.auc, "f1@0.5": ev.at_threshold(0.5).f1}
    ci = bootstrap_intervals(y, s, statistics=STATS, n_resamples=300, seed=0)
    narrow = bootstrap_intervals(y, s, statistics=STATS, n_resamples=300, seed=0, level=0.5)
    for name, value in point.items():
        lo, hi = ci[name]
        assert lo < value < hi, name
        assert lo <= narrow[name].low <= narrow[name].high <= hi  # same resamples: nested
    # the bootstrap AUC interval is close to DeLong's
    d = delong_auc(y, s).ci
    assert ci["auc"] == pytest.approx(d, abs=0.02)


@pytest.mark.parametrize("stratified", [True, False])
def test_each_resample_is_evaluated_as_the_engine_would(stratified):
    y, s = _bootstrap_case(n=60, seed=1)
    rng = np.random.Generator(np.random.PCG64(5))
    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
    for i, (dp, dn, ev) in enumerate(resampled_evaluations(y, s, 5, rng, stratified)):
        idx = np.concatenate([pos[dp], neg[dn]]) if stratified else dp
        if stratified:
            assert (ev.positives, ev.negatives) == (pos.size, neg.size)
        ref = evaluate_binary(y[idx], s[idx])
        np.testing.assert_array_equal(ev.counts.threshold, ref.counts.threshold)
        np.testing.assert_array_equal(ev.counts.tp, ref.counts.tp)
        np.testing.assert_array_equal(ev.counts.fp, ref.counts.fp)
        assert (ev.auc, ev.average_precision, ev.bep, ev.expected_total_cost) == (
            ref.auc, ref.average_precision, ref.bep, ref.expected_total_cost)
    assert i == 4


def test_unstratified_bootstrap_skips_undefined_resamples():
    y = np.array([1] + [0] * 9, bool)  # often no positive in a resample
    s = np.linspace(0, 1, 10)
    ci = bootstrap_intervals(y, s, statistics={"auc": auc_score}, n_resamples=50,
                             seed=0, stratified=False)
    assert ci["auc"].low is not None and 0.0 <= ci["auc"].low <= ci["auc"].high <= 1.0
    never = bootstrap_intervals(y, s, statistics={"none": lambda ev: None}, n_resamples=5)
    assert never == {"none": (None, None)}
    # one class only: that class is resampled; what needs both classes is (None, None)
    one = bootstrap_intervals([1, 1, 1], [0.1, 0.2, 0.3], n_resamples=20,
                              statistics={"auc": auc_score, "bep": bep_score})
    assert one == {"auc": (None, None), "bep": (1.0, 1.0)}
