"""The paired bootstrap of a difference (compare.stats.paired_bootstrap), the
bootstrap statistics of the ranked measures (compare.stats.bootstrap_measures),
the challengers' non-inferiority tests (compare.challengers) and the ECE's
intervals, each against a computation of its own: plain numpy on the documented
draws, scikit-learn, scipy's normal law."""

from __future__ import annotations

import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import evalreport
from evalreport.compare import stats
from evalreport.compare.challengers import challenger_tests
from evalreport.compare.stats import bootstrap as B
from evalreport.compare.stats import bootstrap_measures as M
from evalreport.metrics import evaluate_binary
from brute import scipy_monte_carlo_p


def _draws(y, b, seed=0):
    """The documented draws: PCG64(seed); the positives' positions then the
    negatives', int32, one chunk (small data)."""
    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
    rng = np.random.Generator(np.random.PCG64(seed))
    dp = rng.integers(0, pos.size, size=(b, pos.size), dtype=np.int32)
    dn = rng.integers(0, neg.size, size=(b, neg.size), dtype=np.int32)
    return [np.concatenate([pos[dp[r]], neg[dn[r]]]) for r in range(b)]


def _ece(y, s, bins=10):
    edges = np.linspace(0, 1, bins + 1)
    which = np.searchsorted(edges[1:-1], s, side="left")
    return sum(abs(y[which == k].sum() - s[which == k].sum()) for k in range(bins)) / y.size


def _case(n=120, seed=3):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    a = np.clip(np.round(0.3 + 0.4 * y + rng.normal(0, 0.2, n), 2), 0, 1)
    b = np.clip(np.round(0.35 + 0.3 * y + rng.normal(0, 0.25, n), 2), 0, 1)
    return y, a, b


# --- statistics: vectorised = each resample's evaluation; the scalar form = an outside reference


STATS = {"accuracy": M.at_threshold_of("accuracy", 0.5), "mcc": M.at_threshold_of("mcc", 0.45),
         "kappa": M.at_threshold_of("kappa", 0.5), "cse": M.at_threshold_of("cost_sensitive_error", 0.5, c_fn=5),
         "cost": M.cost_at(0.5, 0.3), "least": M.least_cost_at(0.3), "ks": M.ks_score, "brier": M.brier_of,
         "ece": M.ece_of(10, "uniform"), "gini": M.statistic_for("gini", None, None)}


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_each_vectorised_statistic_is_its_value_on_each_resample(seed):
    y, a, _ = _case(60, seed)
    rng = np.random.Generator(np.random.PCG64(seed))
    for chunk in B._resampled_chunks(y, a, 40, rng, True):
        for name, statistic in STATS.items():
            np.testing.assert_allclose(statistic._vectorised(chunk), B._per_resample(statistic, chunk),
                                       rtol=1e-12, atol=1e-15, err_msg=name)


@pytest.mark.slow
def test_the_scalar_forms_against_scikit_learn_and_the_engine():
    from sklearn.metrics import accuracy_score, brier_score_loss, cohen_kappa_score, matthews_corrcoef

    y, a, _ = _case()
    ev = evaluate_binary(y, a)
    d = a >= 0.5
    assert M.at_threshold_of("accuracy", 0.5)(ev) == pytest.approx(accuracy_score(y, d))
    assert M.at_threshold_of("mcc", 0.5)(ev) == pytest.approx(matthews_corrcoef(y, d))
    assert M.at_threshold_of("kappa", 0.5)(ev) == pytest.approx(cohen_kappa_score(y, d))
    assert M.brier_of(ev) == pytest.approx(brier_score_loss(y, a))
    assert M.ece_of()(ev) == pytest.approx(_ece(y, a))
    fnr, fpr = np.mean(a[y] < 0.5), np.mean(a[~y] >= 0.5)
    assert M.cost_at(0.5, 0.3)(ev) == pytest.approx(0.3 * fnr + 0.7 * fpr)
    # the least cost over every threshold (brute force), and the engine's min_cost over the hull
    cuts = np.concatenate([np.unique(a), [np.inf]])
    brute = min(0.3 * np.mean(a[y] < t) + 0.7 * np.mean(a[~y] >= t) for t in cuts)
    assert M.least_cost_at(0.3)(ev) == pytest.approx(brute)
    assert M.least_cost_at(0.3)(ev) == pytest.approx(ev.operating_point(0.3).min_cost)


# --- the paired bootstrap: the same rows for both learners


def test_resampled_values_are_the_measures_on_the_documented_draws():
    y, a, b = _case()
    rows = _draws(y, 50)
    got = {k: B.resampled_values(y, s, statistics={"acc": M.at_threshold_of("accuracy", 0.5), "ece": M.ece_of()},
                                 n_resamples=50) for k, s in (("a", a), ("b", b))}
    for k, s in (("a", a), ("b", b)):
        np.testing.assert_allclose(got[k]["acc"], [np.mean((s[r] >= 0.5) == y[r]) for r in rows], rtol=1e-12)
        np.testing.assert_allclose(got[k]["ece"], [_ece(y[r], s[r]) for r in rows], rtol=1e-9)


def _numpy_difference(a_values, b_values, level):
    d = np.asarray(a_values) - np.asarray(b_values)
    d = d[~np.isnan(d)]
    lo, hi = np.quantile(d, [(1 - level) / 2, (1 + level) / 2])
    return (lo, hi), scipy_monte_carlo_p(d, "two-sided")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.floats(-1, 1), st.floats(-1, 1)), min_size=1, max_size=40),
       st.floats(0.5, 0.99))
def test_paired_difference_is_the_percentile_interval_and_p_and_antisymmetric(pairs, level):
    a, b = np.array(pairs).T
    pd = stats.paired_difference(0.3, 0.1, a, b, level=level)
    (lo, hi), p = _numpy_difference(a, b, level)
    assert pd.difference == pytest.approx(0.2)
    assert pd.interval == pytest.approx((lo, hi)) and pd.p_value == pytest.approx(p)
    assert 2 / (len(pairs) + 1) <= pd.p_value <= 1  # never 0: B draws cannot show p < 2 / (B + 1)
    swapped = stats.paired_difference(0.1, 0.3, b, a, level=level)
    assert swapped.p_value == pd.p_value
    assert swapped.interval == pytest.approx((-hi, -lo), abs=1e-12)


def test_undefined_resamples_are_left_out_and_none_is_said():
    pd = stats.paired_difference(0.5, 0.4, [np.nan, 0.5, 0.6], [0.4, np.nan, 0.5])
    assert pd.resamples == 1 and pd.p_value == 1.0  # 2 (0 + 1) / (1 + 1): one draw shows nothing
    none = stats.paired_difference(0.5, None, [np.nan], [0.4])
    assert none.interval is None and none.p_value is None and none.note
    # by hand: differences -0.05 and 0.1; (count + 1) / (B + 1) with B = 2
    assert stats.non_inferiority_p([0.1, 0.2], [0.15, 0.1], margin=0.06, higher=True) == pytest.approx(1 / 3)
    assert stats.non_inferiority_p([0.1, 0.2], [0.15, 0.1], margin=0.04, higher=True) == pytest.approx(2 / 3)
    # lower is better: a cost of 0.1 more than the deployed one's is a loss of 0.1
    assert stats.non_inferiority_p([0.3, 0.2], [0.2, 0.2], margin=0.05, higher=False) == pytest.approx(2 / 3)


def test_every_resample_on_one_side_is_p_two_over_b_plus_one_by_hand():
    """1,000 resamples all above 0: p = 2 (0 + 1) / 1,001, not 0 (which Holm's
    adjustment would keep at 0 for any number of pairs); 13 of 1,000 at or below 0:
    p = 2 x 14 / 1,001."""
    above = np.linspace(0.01, 0.2, 1000)
    assert stats.two_sided_p(above) == pytest.approx(2 / 1001)
    assert stats.two_sided_p(-above) == pytest.approx(2 / 1001)
    some = above.copy()
    some[:13] = -some[:13]
    some[13] = 0.0  # a tie at 0 counts on both sides
    assert stats.two_sided_p(some) == pytest.approx(2 * 15 / 1001)
    assert stats.two_sided_p(np.zeros(7)) == 1.0


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(-1, 1), min_size=1, max_size=60), st.floats(0, 0.5), st.booleans())
def test_non_inferiority_p_is_scipys_one_sided_monte_carlo_p(diffs, margin, higher):
    d = np.array(diffs)
    gain = d if higher else -d
    want = scipy_monte_carlo_p(gain + margin, "less")  # H0 holds where gain <= -margin
    got = stats.non_inferiority_p(d, np.zeros_like(d), margin=margin, higher=higher)
    assert got == pytest.approx(want) and got >= 1 / (d.size + 1)


# --- the run: challengers and the ECE's intervals


def _spec(tmp_path, y, cols: dict, more: str = "") -> object:
    names = list(cols)
    lines = ["y," + ",".join(names)] + [f"{int(y[i])}," + ",".join(f"{cols[k][i]:.6g}" for k in names)
                                         for i in range(y.size)]
    (tmp_path / "p.csv").write_text("\n".join(lines) + "\n")
    learners = ", ".join(f"{k}: {k}" for k in names)
    (tmp_path / "spec.yaml").write_text(textwrap.dedent(f"""\
        version: 1
        data:
          - path: p.csv
            label: y
            learners: {{{learners}}}
        report: {{formats: [json], out: out}}
        """) + more)
    return evalreport.evaluate(evalreport.load_spec(tmp_path / "spec.yaml"))


def _non_inferior_case():
    """A challenger a shade worse than the deployed learner on most rows: within a
    margin of 0.05 of its accuracy, not better."""
    rng = np.random.default_rng(11)
    n = 600
    y = rng.random(n) < 0.5
    deployed = np.where(y, 0.7, 0.3) + rng.normal(0, 0.15, n)
    challenger = deployed.copy()
    flip = rng.random(n) < 0.02  # a few rows where the challenger decides otherwise
    challenger[flip] = 1 - challenger[flip]
    return y, np.clip(deployed, 0, 1), np.clip(challenger, 0, 1)


@pytest.mark.slow
def test_a_challenger_non_inferior_within_the_margin_but_not_superior(tmp_path):
    y, deployed, challenger = _non_inferior_case()
    result = _spec(tmp_path, y, {"deployed": deployed, "challenger": challenger},
                   "rank_by: accuracy\nconfidence: {bootstrap: 400, seed: 2}\n")
    (t,) = challenger_tests(result, "deployed", margin=0.05).values()
    assert (t.challenger, t.deployed, t.measure, t.test) == ("challenger", "deployed", "accuracy", "paired_bootstrap")
    acc = {k: np.mean((s >= 0.5) == y) for k, s in (("deployed", deployed), ("challenger", challenger))}
    assert t.difference == pytest.approx(acc["challenger"] - acc["deployed"])
    rows = _draws(y, 400, seed=2)
    d = np.array([np.mean((challenger[r] >= 0.5) == y[r]) - np.mean((deployed[r] >= 0.5) == y[r]) for r in rows])
    assert t.interval == pytest.approx(tuple(np.quantile(d, [0.025, 0.975])))
    assert t.p_value == pytest.approx(scipy_monte_carlo_p(d + 0.05, "less"))  # (#{d <= -0.05} + 1) / 401
    assert t.non_inferior is True and t.superior is False
    # with no margin, the same challenger is not shown non-inferior
    (t0,) = challenger_tests(result, "deployed", margin=0.0).values()
    assert t0.non_inferior is False and t0.p_value == pytest.approx(scipy_monte_carlo_p(d, "less"))


def test_a_challenger_on_auc_is_delongs_one_sided_test(tmp_path):
    from scipy.stats import norm

    y, deployed, challenger = _case(300, 5)[0], *_case(300, 5)[1:]
    result = _spec(tmp_path, y, {"deployed": deployed, "challenger": challenger}, "confidence: {bootstrap: 0}\n")
    (t,) = challenger_tests(result, "deployed", margin=0.02, level=0.9).values()
    ref = stats.delong_paired(y, challenger, deployed)
    assert t.test == "delong" and t.difference == pytest.approx(ref.difference)
    assert t.p_value == pytest.approx(norm.sf((ref.difference + 0.02) / ref.se))
    half = norm.ppf(0.95) * ref.se
    assert t.interval == pytest.approx((ref.difference - half, ref.difference + half))
    assert t.non_inferior == (ref.difference - half > -0.02) and t.superior == (ref.difference - half > 0)


def test_no_bootstrap_no_challenger_test_and_the_reason(tmp_path):
    y, a, b = _case()
    result = _spec(tmp_path, y, {"a": a, "b": b}, "rank_by: brier\nconfidence: {bootstrap: 0}\n")
    (t,) = challenger_tests(result, "a").values()
    assert t.test is None and t.p_value is None and t.non_inferior is None and t.interval is None
    assert "confidence.bootstrap is 0" in t.reason
    assert any("confidence.bootstrap is 0" in w.message for w in result.warnings)


def test_the_ece_interval_and_the_paired_difference_against_numpy(tmp_path):
    from evalreport.report.calibration import ece_differences, poor_calibration_sentences

    rng = np.random.default_rng(1)
    n = 400
    truth = rng.random(n)
    y = rng.random(n) < truth
    a = np.floor(truth * 4) / 4 + 0.125  # calibrated
    b = (truth ** 4).round(4)  # ranks as well, calibrated badly
    result = _spec(tmp_path, y, {"a": a, "b": b}, "confidence: {bootstrap: 300}\n")
    rows = _draws(y, 300)
    e = {k: np.array([_ece(y[r], s[r]) for r in rows]) for k, s in (("a", a), ("b", b))}
    for k in "ab":
        assert result.learners[k].bootstrap["ece"] == pytest.approx(tuple(np.quantile(e[k], [0.025, 0.975])))
    (diff,) = ece_differences(result, result.comparisons[0], "b").values()
    (lo, hi), p = _numpy_difference(e["a"], e["b"], 0.95)
    assert diff.interval == pytest.approx((lo, hi)) and hi < 0
    (sentence,) = poor_calibration_sentences(result)
    ece_a = result.learners["a"].values["ece"]
    assert (f"; a ({ece_a:#.3g}) calibrated better (the 95% paired-bootstrap interval of the ECE difference "
            "excludes 0)") in sentence


def test_a_lower_ece_that_cannot_be_told_apart_is_said_so_with_its_interval(tmp_path):
    from evalreport.report.calibration import poor_calibration_sentences

    rng = np.random.default_rng(4)
    n = 300
    truth = rng.random(n)
    y = rng.random(n) < truth
    a = 0.5 + 0.6 * (truth - 0.5)  # ranks first, underconfident: ECE about 0.1
    b = np.clip(0.5 + 0.62 * (truth - 0.5) + rng.normal(0, 0.03, n), 0, 1)  # a shade better calibrated
    result = _spec(tmp_path, y, {"a": a, "b": b}, "confidence: {bootstrap: 300}\n")
    ece = {k: result.learners[k].values["ece"] for k in "ab"}
    assert 0.05 < ece["b"] < ece["a"]
    rows = _draws(y, 300)
    e = {k: np.array([_ece(y[r], s[r]) for r in rows]) for k, s in (("a", a), ("b", b))}
    (lo, hi), _ = _numpy_difference(e["b"], e["a"], 0.95)
    assert lo < 0 < hi
    (sentence,) = poor_calibration_sentences(result)
    assert sentence.startswith("a ranks first by AUC")
    assert (f"; b ({ece['b']:#.3g}, difference [{lo:#.3g}, {hi:#.3g}]) has a lower ECE but cannot be told apart "
            "from it") in sentence
    assert "calibrated better" not in sentence
