"""history.changes: the changes since the previous run, against references.

* Unpaired DeLong from summaries: equal to ``delong_unpaired`` on the raw data, and to
  R's pROC 1.18.0 ``roc.test(r1, r2, paired = FALSE, method = "delong")`` (the
  values computed once, the R code below; rerun live when Rscript and pROC exist):
  D, Welch's df and pROC's t p-value; a tiny example worked by hand from pROC's
  ``delong.unpaired.test``; an independent re-implementation with scipy.stats.t.
* Two proportions: statsmodels' ``test_proportions_2indep(method="score",
  correction=False)`` (the pooled z test) and ``confint_proportions_2indep(method=
  "newcomb")`` (test-time references only); the score interval against a plain
  re-implementation (the restricted maximum likelihood found numerically; statsmodels'
  own score interval for a difference is off, statsmodels issue 10269), and it
  excludes 0 exactly when the test's p < 1 - level (hypothesis).
* Holm: each row's ``p_holm`` against statsmodels' ``multipletests(method="holm")``.
* The class balance of each data set.
* PSI by hand; KS against ``scipy.stats.ks_2samp`` (exact from "values"
  summaries, within 1/1000 from "quantiles").
* Hypothesis: PSI >= 0 and 0 for identical runs; KS in [0, 1] and symmetric;
  every change = current - previous.

The results.json dicts are built here with item 1's additions (``auc_variance``,
``class_counts``, ``score_summary``) from generated data: a stand-in for the
archive helper's writer, following its format.
"""

from __future__ import annotations

import json
import math
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from scipy import stats as st

from evalreport.compare.stats import delong_auc, delong_unpaired, delong_unpaired_summary
from evalreport.errors import DataError
from evalreport.history import changes
from evalreport.history.changes import (
    CONVENTIONS,
    PSI_FLOOR,
    drift_label,
    ks_distance,
    newcombe_interval,
    psi,
    two_proportion_test,
)

GOLDEN = Path(__file__).parent / "golden" / "bytes"

# ----------------------------------------------------------------- a stand-in writer of item 1's keys


def summary(scores, weights=None) -> dict:
    """A class's score_summary as item 1 writes it: the distinct scores and their
    weights (<= 1,000 distinct), else the 1,001 weighted inverted-CDF quantiles."""
    s = np.asarray(scores, dtype=float)
    w = np.ones_like(s) if weights is None else np.asarray(weights, dtype=float)
    values, inverse = np.unique(s, return_inverse=True)
    totals = np.bincount(inverse, weights=w, minlength=values.size)
    if values.size <= 1000:
        return {"kind": "values", "values": values.tolist(), "weights": totals.tolist()}
    probs = np.arange(1001) / 1000
    cum = np.cumsum(totals)
    total = float(cum[-1])
    idx = np.searchsorted(cum, probs * total * (1 - 1e-12), side="left")
    return {"kind": "quantiles", "probabilities": probs.tolist(),
            "values": values[np.minimum(idx, values.size - 1)].tolist(), "weight": total}


def learner_block(y, s, threshold=0.5, bootstrap=None) -> dict:
    y = np.asarray(y, dtype=bool)
    s = np.asarray(s, dtype=float)
    flagged = s >= threshold
    tp, fp = int(np.sum(flagged & y)), int(np.sum(flagged & ~y))
    fn, tn = int(np.sum(~flagged & y)), int(np.sum(~flagged & ~y))
    d = {"n": int(y.size), "positives": int(y.sum()), "negatives": int((~y).sum()), "threshold": threshold,
         "confusion": {"tp": tp, "fp": fp, "tn": tn, "fn": fn},
         "accuracy": (tp + tn) / y.size,
         "precision": tp / (tp + fp) if tp + fp else None,
         "recall": tp / (tp + fn) if tp + fn else None}
    if y.all() or not y.any():
        d.update(auc=None, auc_variance=None)
    else:
        r = delong_auc(y, s)
        d.update(auc=r.auc, auc_variance=None if r.se is None else r.se ** 2)
    d["class_counts"] = {"positive": float(y.sum()), "negative": float((~y).sum())}
    d["score_summary"] = {"positive": summary(s[y]), "negative": summary(s[~y])}
    if bootstrap is not None:
        d["bootstrap"] = bootstrap
    return d


def run(date, learners, title="audit") -> dict:
    return {"title": title, "date": date, "task": "binary", "learners": learners}


def rows(result, learner=None, measure=None):
    return [r for r in result["changes"]
            if (learner is None or r["learner"] == learner) and (measure is None or r["measure"] == measure)]


# ----------------------------------------------------------------- DeLong unpaired against pROC

# Two independent data sets (seeded normal scores rounded to 0.1: ties).
YA = [1] * 20 + [0] * 25
SA = [0.1, 0.3, 0.2, 0.9, 2.9, -0.1, 2.4, 2.8, 1.1, 0.8, 2.0, 2.7, 3.7, 2.4, 3.1, 1.0, 0.6, -0.2, 0.3, 1.1,
      0.2, -1.3, 0.8, -0.1, -0.6, -0.8, 2.0, 0.2, -0.9, -1.0, 1.8, -0.6, 1.2, 1.4, -2.3, 1.4, -0.2, -1.1, -0.5,
      0.6, 0.4, 0.4, -0.7, 1.3, 1.5]
YB = [1] * 22 + [0] * 18
SB = [2.5, 1.7, 2.6, 2.8, 1.4, 1.6, 1.3, 1.3, 1.6, -1.0, 0.4, 1.2, -1.4, -0.7, 2.3, -0.4, 0.2, 1.1, 0.2, -0.2,
      0.2, 0.3, -0.6, 0.2, 1.6, 0.4, 1.6, 0.7, 0.8, 0.6, -0.3, 0.4, 0.3, -1.1, 0.7, 0.6, 0.4, -0.6, -2.6, 1.5]

# R 4.x, pROC 1.18.0 (Debian r-cran-proc):
#   library(pROC)
#   r1 <- roc(YA, SA, levels = c(0, 1), direction = "<", quiet = TRUE)
#   r2 <- roc(YB, SB, levels = c(0, 1), direction = "<", quiet = TRUE)
#   t <- roc.test(r1, r2, paired = FALSE, method = "delong")
#   sprintf("%.15g", c(auc(r1), auc(r2), var(r1), var(r2), t$statistic, t$parameter, t$p.value))
# prints: DeLong's test for two ROC curves, D = 1.2414, df = 75.87, p-value = 0.2183
PROC = {"auc1": 0.761, "auc2": 0.617424242424242, "var1": 0.00504439035087719, "var2": 0.00833184896241937,
        "D": 1.24140674708939, "df": 75.8695609967425, "p_t": 0.218279929706403}


def test_delong_unpaired_summary_equals_proc():
    a, b = delong_auc(YA, SA), delong_auc(YB, SB)
    assert a.auc == pytest.approx(PROC["auc1"], abs=1e-14)
    assert a.se ** 2 == pytest.approx(PROC["var1"], rel=1e-12)
    assert b.se ** 2 == pytest.approx(PROC["var2"], rel=1e-12)
    t = delong_unpaired_summary(PROC["auc1"], PROC["var1"], PROC["auc2"], PROC["var2"], n_a=45, n_b=40)
    assert t.z == pytest.approx(PROC["D"], rel=1e-12)
    assert t.df == pytest.approx(PROC["df"], rel=1e-12)
    # pROC's p-value: Student's t with Welch's df, 2 * pt(-abs(D), df)
    assert t.p_value == pytest.approx(PROC["p_t"], rel=1e-10)
    # the interval from the same law: d -/+ t_{df, 0.975} se
    half = st.t.ppf(0.975, PROC["df"]) * math.sqrt(PROC["var1"] + PROC["var2"])
    assert t.ci == pytest.approx((t.difference - half, t.difference + half), rel=1e-12)


def test_delong_unpaired_by_hand_from_proc_formula():
    """pROC's delong.unpaired.test worked by hand on two tiny data sets.

    A: cases .9 .6 .3, controls .2 .4 .1. Placements of the cases (share of controls
    below): 1, 1, 2/3; of the controls (share of cases above): 1, 2/3, 1; theta = 8/9.
    SRX = SRY = ((1/9)^2 + (1/9)^2 + (2/9)^2) / 2 = 1/27; SR = (1/27)/3 + (1/27)/3 = 2/81.
    B: cases .7 .8 .5, controls .3 .6 .2 .4. Cases: 1, 1, 3/4; controls: 1, 2/3, 1, 1;
    theta = 11/12. SSX = ((1/12)^2 * 2 + (1/6)^2) / 2 = 1/48, SSY = ((1/12)^2 * 3 + (1/4)^2) / 3
    = 1/36; SS = (1/48)/3 + (1/36)/4 = 1/72.
    D = (8/9 - 11/12) / sqrt(2/81 + 1/72) = -(1/36) / sqrt(25/648) = -sqrt(2)/10;
    df = (25/648)^2 / ((16/648)^2/5 + (9/648)^2/6) = 625 / (256/5 + 81/6) = 6250/647."""
    t = delong_unpaired([0, 1, 0, 1, 1, 0], [.2, .9, .4, .6, .3, .1],
                        [1, 0, 0, 1, 0, 1, 0], [.7, .3, .6, .8, .2, .5, .4])
    assert t.auc_a == pytest.approx(8 / 9) and t.auc_b == pytest.approx(11 / 12)
    assert t.se ** 2 == pytest.approx(25 / 648, rel=1e-12)
    assert t.z == pytest.approx(-math.sqrt(2) / 10, rel=1e-12)
    assert t.df == pytest.approx(6250 / 647, rel=1e-12)
    assert t.p_value == pytest.approx(2 * st.t.sf(math.sqrt(2) / 10, 6250 / 647), rel=1e-12)


def _placements(y, s):
    """Plain pROC: delongPlacements by loops (ties 1/2), the AUC and DeLong's variance."""
    y, s = np.asarray(y, bool), np.asarray(s, float)
    cases, controls = s[y], s[~y]
    psi_ = lambda a, b: 1.0 if a > b else (0.5 if a == b else 0.0)  # noqa: E731
    x = np.array([np.mean([psi_(c, k) for k in controls]) for c in cases])
    yy = np.array([np.mean([psi_(c, k) for c in cases]) for k in controls])
    theta = x.mean()
    var = np.sum((x - theta) ** 2) / (x.size - 1) / x.size + np.sum((yy - theta) ** 2) / (yy.size - 1) / yy.size
    return theta, var, y.size


@settings(max_examples=40, deadline=None)
@given(hs.integers(0, 2**32 - 1), hs.sampled_from([0.8, 0.9, 0.95, 0.99]))
def test_delong_unpaired_against_plain_t_reimplementation(seed, level):
    rng = np.random.default_rng(seed)
    m1, n1, m2, n2 = rng.integers(2, 25, size=4)
    ya, yb = np.r_[np.ones(m1), np.zeros(n1)], np.r_[np.ones(m2), np.zeros(n2)]
    sa = np.round(rng.normal(size=ya.size) + ya, 1)
    sb = np.round(rng.normal(size=yb.size) + 0.5 * yb, 1)
    (ta, va, na), (tb, vb, nb) = _placements(ya, sa), _placements(yb, sb)
    t = delong_unpaired(ya, sa, yb, sb, level=level)
    if va + vb == 0:
        return
    d = (ta - tb) / math.sqrt(va + vb)
    df = (va + vb) ** 2 / (va ** 2 / (na - 1) + vb ** 2 / (nb - 1))
    assert t.z == pytest.approx(d, rel=1e-9, abs=1e-12)
    assert t.df == pytest.approx(df, rel=1e-9)
    assert t.p_value == pytest.approx(2 * st.t.sf(abs(d), df), rel=1e-9, abs=1e-15)
    lo, hi = st.t.interval(level, df, loc=ta - tb, scale=math.sqrt(va + vb))
    assert t.ci == pytest.approx((lo, hi), rel=1e-9, abs=1e-12)
    # one law for both: the interval excludes 0 exactly when p < 1 - level
    assert (t.ci[0] > 0 or t.ci[1] < 0) == (t.p_value < 1 - level)


def test_delong_unpaired_summary_equals_raw_data():
    rng = np.random.default_rng(5)
    for _ in range(20):
        m1, n1, m2, n2 = rng.integers(2, 60, size=4)
        ya = np.r_[np.ones(m1), np.zeros(n1)]
        yb = np.r_[np.ones(m2), np.zeros(n2)]
        sa = np.round(rng.normal(size=ya.size) + ya, 1)
        sb = np.round(rng.normal(size=yb.size) + 0.5 * yb, 1)
        raw = delong_unpaired(ya, sa, yb, sb, level=0.9)
        a, b = delong_auc(ya, sa), delong_auc(yb, sb)
        t = delong_unpaired_summary(a.auc, a.se ** 2, b.auc, b.se ** 2, n_a=ya.size, n_b=yb.size, level=0.9)
        for f in ("auc_a", "auc_b", "difference", "se", "z", "p_value", "df"):
            assert getattr(t, f) == pytest.approx(getattr(raw, f), rel=1e-9, abs=1e-15), f
        assert t.ci == pytest.approx(raw.ci, rel=1e-9)


def test_delong_unpaired_summary_undefined_and_bad_input():
    t = delong_unpaired_summary(0.8, None, 0.7, 0.001)
    assert (t.z, t.p_value, t.se, t.ci) == (None, None, None, None)
    assert t.note == "DeLong's variance of A's AUC is undefined (fewer than 2 positives or 2 negatives)"
    t = delong_unpaired_summary(1.0, 0.0, 1.0, 0.0)
    assert t.p_value == 1.0 and t.z is None and "no variance" in t.note
    t = delong_unpaired_summary(0.8, 0.01, 0.7, 0.01)  # no sizes: no df, the normal law, said
    assert t.df is None and t.p_value == pytest.approx(2 * st.norm.sf(0.1 / math.sqrt(0.02)), rel=1e-12)
    assert t.note == "the data sets' sizes are unknown: the p-value is the standard normal one, not pROC's t"
    with pytest.raises(ValueError, match="var_b must be a finite variance >= 0, got -0.1"):
        delong_unpaired_summary(0.8, 0.01, 0.7, -0.1)


@pytest.mark.skipif(shutil.which("Rscript") is None, reason="R is not installed")
def test_delong_unpaired_live_proc(tmp_path):
    def vec(x):
        return "c(" + ", ".join(str(v) for v in x) + ")"
    code = (f"suppressMessages(library(pROC)); ya <- {vec(YA)}; sa <- {vec(SA)}; yb <- {vec(YB)}; sb <- {vec(SB)}\n"
            "r1 <- roc(ya, sa, levels = c(0, 1), direction = '<', quiet = TRUE)\n"
            "r2 <- roc(yb, sb, levels = c(0, 1), direction = '<', quiet = TRUE)\n"
            "t <- roc.test(r1, r2, paired = FALSE, method = 'delong')\n"
            "cat(sprintf('%.15g', c(t$statistic, t$parameter, t$p.value)))\n")
    (tmp_path / "t.R").write_text(code)
    p = subprocess.run(["Rscript", str(tmp_path / "t.R")], capture_output=True, text=True, timeout=600)  # a hang guard
    if p.returncode != 0 and "pROC" in p.stderr:
        pytest.skip("pROC is not installed")
    d, df, p_t = map(float, p.stdout.split())
    t = delong_unpaired(YA, SA, YB, SB)
    assert t.z == pytest.approx(d, rel=1e-12)
    assert t.df == pytest.approx(df, rel=1e-12)
    assert t.p_value == pytest.approx(p_t, rel=1e-10)


def test_changes_auc_row_is_proc_statistic():
    prev = run("2026-01-05", {"lr": learner_block(YA, SA)})
    cur = run("2026-01-12", {"lr": learner_block(YB, SB)})
    (row,) = rows(changes(prev, cur), "lr", "auc")
    assert row["method"] == "delong_unpaired"
    assert row["previous"] == pytest.approx(PROC["auc1"])
    assert row["current"] == pytest.approx(PROC["auc2"])
    assert row["change"] == pytest.approx(PROC["auc2"] - PROC["auc1"])
    # current - previous: the sign of pROC's D (r1 - r2) reversed
    se = math.sqrt(PROC["var1"] + PROC["var2"])
    assert row["change"] / se == pytest.approx(-PROC["D"], rel=1e-10)
    assert row["p_value"] == pytest.approx(PROC["p_t"], rel=1e-10)
    q = st.t.ppf(0.975, PROC["df"])
    assert row["interval"] == pytest.approx([row["change"] - q * se, row["change"] + q * se], rel=1e-10)
    assert row["note"] is None


# ----------------------------------------------------------------- two proportions


@pytest.mark.filterwarnings("ignore:divide by zero:RuntimeWarning")  # statsmodels' ratio with p = 0
@pytest.mark.parametrize("x1,n1,x2,n2", [(30, 100, 45, 100), (80, 100, 70, 100), (0, 20, 3, 25),
                                         (19, 19, 15, 22), (1, 7, 6, 9), (412, 500, 388, 510)])
def test_two_proportions_against_statsmodels(x1, n1, x2, n2):
    from statsmodels.stats import proportion as sm
    t = two_proportion_test(x1, n1, x2, n2)
    ref = sm.test_proportions_2indep(x2, n2, x1, n1, method="score", correction=False)
    assert t["change"] == pytest.approx(x2 / n2 - x1 / n1)
    assert t["z"] == pytest.approx(ref.statistic, rel=1e-10)
    assert t["p_value"] == pytest.approx(ref.pvalue, rel=1e-10)
    assert t["interval"] == pytest.approx(list(_plain_score_interval(x1, n1, x2, n2)), abs=1e-7)
    assert newcombe_interval(x1, n1, x2, n2, level=0.9) == pytest.approx(
        sm.confint_proportions_2indep(x2, n2, x1, n1, method="newcomb", alpha=0.1), rel=1e-10, abs=1e-14)


def _plain_score_interval(x1, n1, x2, n2, level=0.95):
    """Mee's score interval of p2 - p1 by brute force: the restricted maximum
    likelihood under q2 - q1 = d found numerically (scipy's bounded minimiser),
    the ends by brentq where the score statistic is -/+ z."""
    from scipy import optimize

    p1, p2 = x1 / n1, x2 / n2
    z = st.norm.ppf(0.5 + level / 2)

    def score(d):
        def nll(q1):
            q2 = q1 + d
            terms = [(x1, np.log(q1)), (n1 - x1, np.log1p(-q1)), (x2, np.log(q2)), (n2 - x2, np.log1p(-q2))]
            return -sum(k * v for k, v in terms if k)
        q1 = optimize.minimize_scalar(nll, bounds=(max(0, -d), min(1, 1 - d)), method="bounded",
                                      options={"xatol": 1e-13}).x
        q2 = q1 + d
        return (p2 - p1 - d) / math.sqrt(q1 * (1 - q1) / n1 + q2 * (1 - q2) / n2)

    e, d = 1e-9, p2 - p1
    lo = -1.0 if score(-1 + e) <= z else optimize.brentq(lambda t: score(t) - z, -1 + e, d, xtol=1e-13)
    hi = 1.0 if score(1 - e) >= -z else optimize.brentq(lambda t: score(t) + z, d, 1 - e, xtol=1e-13)
    return lo, hi


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(hs.integers(1, 300), hs.integers(1, 300), hs.floats(0, 1), hs.floats(0, 1),
       hs.sampled_from([0.8, 0.9, 0.95, 0.99]))
def test_two_proportions_interval_agrees_with_p(n1, n2, f1, f2, level):
    x1, x2 = round(f1 * n1), round(f2 * n2)
    t = two_proportion_test(x1, n1, x2, n2, level=level)
    lo, hi = t["interval"]
    assert lo <= t["change"] <= hi
    if t["p_value"] is None or abs(t["p_value"] - (1 - level)) < 1e-9:
        return  # no test, or exactly on the level
    assert (lo > 0 or hi < 0) == (t["p_value"] < 1 - level)


def test_two_proportions_with_counts_of_any_scale():
    """The restricted estimate's cubic is solved divided through, so weighted counts
    far from 1 (1.66e-281 once crashed it with OverflowError) give the test of the
    same proportions; the scale of both runs' counts moves z by its square root only."""
    for tiny in (two_proportion_test(1.66e-281, 3.32e-281, 0.5, 2.0),
                 two_proportion_test(0.5, 2.0, 1.66e-281, 3.32e-281)):
        assert tiny["p_value"] is None or 0.0 <= tiny["p_value"] <= 1.0
    base = two_proportion_test(30, 100, 45, 100)
    for k in (1e-200, 1e-6, 1e6, 1e200):
        scaled = two_proportion_test(30 * k, 100 * k, 45 * k, 100 * k)
        assert scaled["change"] == pytest.approx(base["change"], rel=1e-12)
        assert scaled["z"] == pytest.approx(base["z"] * math.sqrt(k), rel=1e-9)


def test_two_proportions_undefined():
    t = two_proportion_test(5, 5, 8, 8)
    assert (t["change"], t["z"], t["p_value"]) == (0.0, None, None)
    assert t["note"] == "both runs have the proportion 1: no variance, no test"
    t = two_proportion_test(0, 0, 3, 10)
    assert (t["previous"], t["current"], t["change"], t["p_value"], t["interval"]) == (None, 0.3, None, None, None)
    assert t["note"] == "the proportion is undefined in the previous run (no trials: 0 / 0)"


def test_changes_proportion_rows_from_confusion_counts():
    rng = np.random.default_rng(1)
    ya = rng.random(300) < 0.4
    yb = rng.random(280) < 0.3
    sa = np.clip(rng.normal(0.3 + 0.4 * ya, 0.2), 0, 1)
    sb = np.clip(rng.normal(0.35 + 0.25 * yb, 0.2), 0, 1)
    a, b = learner_block(ya, sa), learner_block(yb, sb)
    result = changes(run("w1", {"m": a}), run("w2", {"m": b}))
    assert [r["measure"] for r in rows(result, "m")] == ["auc", "accuracy", "precision", "recall"]
    (rec,) = rows(result, "m", "recall")
    ca, cb = a["confusion"], b["confusion"]
    ref = two_proportion_test(ca["tp"], ca["tp"] + ca["fn"], cb["tp"], cb["tp"] + cb["fn"])
    assert rec["previous"] == pytest.approx(a["recall"]) and rec["current"] == pytest.approx(b["recall"])
    assert (rec["p_value"], rec["interval"], rec["method"]) == (ref["p_value"], ref["interval"], "two_proportion_z")
    assert rec["p_value"] < 0.05 and rec["interval"][1] < 0  # recall dropped
    b["threshold"] = 0.4
    (acc,) = rows(changes(run("w1", {"m": a}), run("w2", {"m": b})), "m", "accuracy")
    assert acc["note"] == "the thresholds differ (0.5 then 0.4)"


# ----------------------------------------------------------------- costs: the intervals already computed


def test_cost_rows_combine_bootstrap_intervals_or_say_no_test():
    a = learner_block(YA, SA, bootstrap={"level": 0.95, "resamples": 500, "expected_total_cost": [0.10, 0.20]})
    b = learner_block(YB, SB, bootstrap={"level": 0.95, "resamples": 500, "expected_total_cost": [0.15, 0.35]})
    a.update(expected_total_cost=0.14, operating_point={"min_cost": 0.12})
    b.update(expected_total_cost=0.22, operating_point={"min_cost": 0.19})
    result = changes(run("w1", {"m": a}), run("w2", {"m": b}))
    (etc,) = rows(result, "m", "expected_total_cost")
    # by hand: d = 0.08; lo = d - sqrt((0.22 - 0.15)^2 + (0.20 - 0.14)^2), hi = d + sqrt(0.13^2 + 0.04^2)
    assert etc["method"] == "intervals" and etc["p_value"] is None
    assert etc["change"] == pytest.approx(0.08)
    assert etc["interval"] == pytest.approx([0.08 - math.sqrt(0.07**2 + 0.06**2), 0.08 + math.sqrt(0.13**2 + 0.04**2)])
    (mc,) = rows(result, "m", "min_cost")
    assert (mc["method"], mc["p_value"], mc["interval"]) == ("no test", None, None)
    assert mc["change"] == pytest.approx(0.07)
    assert mc["note"] == "results.json holds no interval of min_cost"
    b["bootstrap"]["level"] = 0.9
    (etc,) = rows(changes(run("w1", {"m": a}), run("w2", {"m": b})), "m", "expected_total_cost")
    assert (etc["method"], etc["interval"]) == ("no test", None)
    assert etc["note"] == "the current run's bootstrap level is 0.9, not 0.95"


# ----------------------------------------------------------------- undefined is explicit


def test_learner_in_one_run_only_is_listed_with_a_note():
    prev = run("w1", {"old": learner_block(YA, SA), "both": learner_block(YA, SA)})
    cur = run("w2", {"both": learner_block(YB, SB), "new": learner_block(YB, SB)})
    result = changes(prev, cur)
    assert [d["learner"] for d in result["drift"]] == ["both", "new", "old"]
    new = rows(result, "new")
    assert [r["measure"] for r in new] == ["auc", "accuracy", "precision", "recall"]
    assert all(r["previous"] is None and r["change"] is None and r["p_value"] is None for r in new)
    assert new[0]["current"] == pytest.approx(PROC["auc2"])
    assert {r["note"] for r in new} == {"learner 'new' is in the current run only"}
    assert {r["note"] for r in rows(result, "old")} == {"learner 'old' is in the previous run only"}
    assert result["drift"][2]["psi"] is None and result["drift"][2]["note"] == "learner 'old' is in the previous run only"


def test_one_class_only_and_no_variance():
    y1 = [1, 1, 1, 1]
    a = learner_block(y1, [0.9, 0.8, 0.7, 0.6])
    b = learner_block(YB, SB)
    result = changes(run("w1", {"m": a}), run("w2", {"m": b}))
    (auc,) = rows(result, "m", "auc")
    assert (auc["previous"], auc["change"], auc["p_value"]) == (None, None, None)
    assert auc["note"] == "the AUC is undefined in the previous run (hard decisions, or one class only)"
    (d,) = result["drift"]
    assert d["by_class"]["negative"] == {"psi": None, "psi_bins": None, "ks": None,
                                         "note": "the previous run has no scores"}
    # one positive: the AUC exists, DeLong's variance does not
    a = learner_block([1, 0, 0, 0], [0.9, 0.2, 0.3, 0.1])
    (auc,) = rows(changes(run("w1", {"m": a}), run("w2", {"m": b})), "m", "auc")
    assert auc["previous"] == 1.0 and auc["change"] is not None and auc["p_value"] is None
    assert auc["note"] == "DeLong's variance of the AUC is undefined in the previous run (fewer than 2 of a class)"


def test_identical_runs_change_nothing():
    a = learner_block(YA, SA)
    result = changes(run("w1", {"m": a}), run("w2", {"m": a}))
    assert all(r["change"] == 0 for r in result["changes"])
    (auc,) = rows(result, "m", "auc")
    assert auc["p_value"] == 1.0
    (d,) = result["drift"]
    assert (d["psi"], d["ks"], d["label"]) == (0.0, 0.0, "no significant shift")
    assert result["balance"] == {"previous": 20 / 45, "current": 20 / 45, "change": 0.0, "p_value": 1.0,
                                 "interval": pytest.approx(result["balance"]["interval"]),
                                 "method": "two_proportion_z", "learner": "m", "note": None}
    json.dumps(result, allow_nan=False)  # JSON-ready


def test_results_json_without_the_new_keys():
    """A results.json written before item 1 (the golden files): the changes are
    computed, the AUC test and the drift say what is missing."""
    old = json.loads((GOLDEN / "breast_cancer.results.json").read_text())
    for learner in old["learners"].values():  # as written before these keys existed
        for key in ("auc_variance", "class_counts", "score_summary"):
            learner.pop(key, None)
    result = changes(old, old)
    assert result["previous"] == {"date": old["date"], "title": old["title"]}
    auc = rows(result, measure="auc")
    assert len(auc) == len(old["learners"])
    assert {r["note"] for r in auc} == {"the previous run's results.json has no auc_variance (an older evalreport)"}
    assert {d["note"] for d in result["drift"]} == {"the previous run's results.json has no score_summary"}
    assert result["balance"]["change"] == 0.0
    json.dumps(result, allow_nan=False)


def test_multiclass_accuracy_and_macro_f1():
    from statsmodels.stats import proportion as sm
    old = json.loads((GOLDEN / "multiclass_folds.results.json").read_text())
    new = json.loads(json.dumps(old))
    lr = new["learners"]["logistic"]
    lr["confusion_matrix"] = [[50.0, 5.0, 4.0], [3.0, 60.0, 8.0], [1.0, 2.0, 45.0]]  # 155 / 178 right
    lr["accuracy"] = 155 / 178
    lr["macro"]["f1"] -= 0.1
    lr["bootstrap"]["macro_f1"] = [x - 0.12 for x in lr["bootstrap"]["macro_f1"]]
    result = changes(old, new)
    assert [r["measure"] for r in rows(result, "logistic")] == ["accuracy", "macro_f1"]
    acc, f1 = rows(result, "logistic")
    assert (acc["previous"], acc["current"], acc["method"]) == (177 / 178, 155 / 178, "two_proportion_z")
    ref = sm.test_proportions_2indep(155, 178, 177, 178, method="score", correction=False)
    assert acc["p_value"] == pytest.approx(ref.pvalue, rel=1e-10)
    assert f1["method"] == "intervals" and f1["change"] == pytest.approx(-0.1)
    assert f1["interval"][1] < 0
    # the same data: the class shares and each class's score column unchanged
    balance = result["balance"]
    assert (balance["method"], balance["df"], balance["p_value"]) == ("chi2_homogeneity", 2, 1.0)
    assert set(balance["change"].values()) == {0.0}
    assert [(d["class"], d["psi"], d["ks"]) for d in result["drift"] if d["learner"] == "logistic"] == [
        ("barolo", 0.0, 0.0), ("grignolino", 0.0, 0.0), ("barbera", 0.0, 0.0)]
    json.dumps(result, allow_nan=False)


def test_not_a_results_json():
    with pytest.raises(DataError, match="^the previous results.json has no 'learners' object$"):
        changes({"title": "x"}, {"learners": {}})
    with pytest.raises(DataError, match="^the current results.json must be an object, got list$"):
        changes({"learners": {}}, [])


# ----------------------------------------------------------------- balance


def test_balance_two_proportion_test():
    from statsmodels.stats import proportion as sm
    a, b = learner_block(YA, SA), learner_block(YB, SB)
    bal = changes(run("w1", {"m": a}), run("w2", {"m": b}))["balance"]
    assert (bal["previous"], bal["current"]) == (20 / 45, 22 / 40)
    assert bal["change"] == pytest.approx(22 / 40 - 20 / 45)
    ref = sm.test_proportions_2indep(22, 40, 20, 45, method="score", correction=False)
    assert bal["p_value"] == pytest.approx(ref.pvalue, rel=1e-10)


def test_balance_of_every_data_set():
    """Two data sets: each one's balance, from its own learners' counts, led by its name."""
    from statsmodels.stats import proportion as sm
    rng = np.random.default_rng(8)
    ys = {("w1", "val"): rng.random(250) < 0.16, ("w1", "test"): rng.random(300) < 0.164,
          ("w2", "val"): rng.random(250) < 0.16, ("w2", "test"): rng.random(310) < 0.21}

    def week(w):
        out = {}
        for ds in ("val", "test"):
            y = ys[(w, ds)]
            for name in ("lr", "rf"):
                out[f"{name}@{ds}"] = {"dataset": ds, **learner_block(y, np.clip(rng.normal(0.3 + 0.4 * y, .2), 0, 1))}
        return out

    bal = changes(run("w1", week("w1")), run("w2", week("w2")))["balance"]
    assert [b["dataset"] for b in bal] == ["val", "test"]
    for b in bal:
        y1, y2 = ys[("w1", b["dataset"])], ys[("w2", b["dataset"])]
        assert b["learner"] == f"lr@{b['dataset']}"
        assert (b["previous"], b["current"]) == (y1.mean(), y2.mean())
        ref = sm.test_proportions_2indep(y2.sum(), y2.size, y1.sum(), y1.size, method="score", correction=False)
        assert b["p_value"] == pytest.approx(ref.pvalue, rel=1e-10)
        assert b["note"] is None  # the learners of one data set share its counts
    # one data set: the dict as before, no "dataset"
    one = {k: v for k, v in week("w1").items() if k.endswith("@test")}
    assert isinstance(changes(run("w1", one), run("w2", one))["balance"], dict)


# ----------------------------------------------------------------- Holm over the changes


def test_changes_are_holm_adjusted_as_one_family():
    from statsmodels.stats import multitest
    rng = np.random.default_rng(11)
    prev, cur = {}, {}
    for i, shift in enumerate((0.0, 0.3, 0.6)):
        ya, yb = rng.random(200) < 0.4, rng.random(220) < 0.4
        prev[f"m{i}"] = learner_block(ya, np.clip(rng.normal(0.3 + 0.4 * ya, 0.2), 0, 1))
        cur[f"m{i}"] = learner_block(yb, np.clip(rng.normal(0.3 + (0.4 - shift) * yb, 0.2), 0, 1))
    cur["m1"]["expected_total_cost"] = prev["m1"]["expected_total_cost"] = 0.2  # a row with no p-value
    result = changes(run("w1", prev), run("w2", cur))
    tested = [r for r in result["changes"] if r["p_value"] is not None]
    assert len(tested) == 12 and any(r["p_value"] is None for r in result["changes"])
    ref = multitest.multipletests([r["p_value"] for r in tested], method="holm")[1]
    assert [r["p_holm"] for r in tested] == pytest.approx(list(ref), rel=1e-12)
    assert all(r["p_holm"] is None for r in result["changes"] if r["p_value"] is None)
    assert any(r["p_value"] < 0.05 <= r["p_holm"] for r in tested)  # the adjustment matters here


# ----------------------------------------------------------------- PSI and KS


def values(xs, ws=None):
    return summary(xs, ws)


def test_psi_by_hand():
    # previous: 1..20 once each: deciles 2, 4, ..., 18, so the bins are
    # (-inf, 2], (2, 4], ..., (16, 18], (18, inf), 2 scores (0.1) each
    prev = values(list(range(1, 21)))
    # current: 10 scores of 1 and 1..10 once: shares 12/20 in (-inf, 2] (eleven 1s and a 2),
    # 2/20 in each of (2, 4], ..., (8, 10], and 0 above 10 (5 bins floored at 1e-4)
    cur = values([1] * 10 + list(range(1, 11)))
    r = psi(prev, cur)
    assert [(b["lo"], b["hi"]) for b in r["bins"]] == [(None, 2.0), *((float(k), float(k + 2)) for k in range(2, 18, 2)),
                                                       (18.0, None)]
    assert [b["expected"] for b in r["bins"]] == pytest.approx([0.1] * 10)
    assert [b["actual"] for b in r["bins"]] == pytest.approx([0.6, 0.1, 0.1, 0.1, 0.1, 0, 0, 0, 0, 0])
    hand = (0.6 - 0.1) * math.log(0.6 / 0.1) + 5 * (1e-4 - 0.1) * math.log(1e-4 / 0.1)
    assert r["psi"] == pytest.approx(hand, rel=1e-12)
    assert r["note"] is None
    assert PSI_FLOOR == 1e-4


def test_psi_pooled_over_classes_and_labels():
    rng = np.random.default_rng(3)
    ya = rng.random(2000) < 0.3
    sa = np.round(rng.normal(ya * 1.0, 1), 2)
    yb = rng.random(2000) < 0.3
    sb = np.round(rng.normal(yb * 1.0 + 0.8, 1), 2)  # the scores moved up
    a, b = learner_block(ya, sa), learner_block(yb, sb)
    (d,) = changes(run("w1", {"m": a}), run("w2", {"m": b}))["drift"]
    # pooled: the same as the summary of all scores together
    ref = psi(summary(sa), summary(sb))
    assert d["psi"] == pytest.approx(ref["psi"], rel=1e-12)
    assert d["ks"] == pytest.approx(st.ks_2samp(sa, sb).statistic, abs=1e-12)
    assert d["label"] == "major shift" and d["psi"] > CONVENTIONS["psi"][1]
    assert d["by_class"]["positive"]["ks"] == pytest.approx(st.ks_2samp(sa[ya], sb[yb]).statistic, abs=1e-12)
    assert d["by_class"]["negative"]["psi"] == pytest.approx(psi(summary(sa[~ya]), summary(sb[~yb]))["psi"])
    assert d["method"] == ("PSI over the previous run's deciles (10 bins, shares floored at 0.0001); "
                           "KS exact from the score values")
    assert drift_label(0.0999) == "no significant shift" and drift_label(0.25) == "moderate shift"


def test_ks_from_quantiles_within_a_thousandth():
    rng = np.random.default_rng(8)
    for _ in range(5):
        a = rng.normal(size=rng.integers(1500, 6000))
        b = rng.normal(rng.uniform(-0.3, 0.3), rng.uniform(0.8, 1.2), size=rng.integers(1200, 6000))
        qa, qb = summary(a), summary(b)
        assert qa["kind"] == qb["kind"] == "quantiles"
        ref = st.ks_2samp(a, b).statistic
        assert abs(ks_distance(qa, qb) - ref) <= 1e-3
        assert abs(ks_distance(summary(a[:900]), qb) - st.ks_2samp(a[:900], b).statistic) <= 1e-3  # mixed kinds
        # PSI from the quantiles: close to the exact one (the shares within 1/1000)
        exact = psi({"kind": "values", "values": np.sort(a).tolist(), "weights": [1.0] * a.size},
                    {"kind": "values", "values": np.sort(b).tolist(), "weights": [1.0] * b.size})
        assert psi(qa, qb)["psi"] == pytest.approx(exact["psi"], abs=0.01)


def test_ks_from_quantiles_with_an_atom():
    # half the scores tied at 0.5 (a clipped model), 2,000 distinct others: the quantiles
    # repeat 0.5 some 500 times, F(0.5) is the last of them
    rng = np.random.default_rng(9)
    a = np.r_[np.full(2000, 0.5), rng.uniform(0, 1, 2000)]
    b = np.r_[np.full(1000, 0.5), rng.uniform(0, 1, 3000)]
    qa, qb = summary(a), summary(b)
    assert qa["values"].count(0.5) > 400
    assert abs(ks_distance(qa, qb) - st.ks_2samp(a, b).statistic) <= 1e-3
    assert abs(ks_distance(qa, summary(np.linspace(0, 1, 10))) - st.ks_2samp(a, np.linspace(0, 1, 10)).statistic) <= 1e-3


def test_ks_weighted_values():
    # weights count as repetitions
    a, wa = [0.1, 0.5, 0.9], [3, 1, 2]
    b, wb = [0.2, 0.5], [1, 4]
    ref = st.ks_2samp(np.repeat(a, wa), np.repeat(b, wb)).statistic
    assert ks_distance(values(a, wa), values(b, wb)) == pytest.approx(ref)


def test_psi_tied_deciles_merge_bins():
    r = psi(values([0.0] * 50 + [1.0] * 50), values([0.0] * 30 + [1.0] * 70))
    assert [(b["lo"], b["hi"]) for b in r["bins"]] == [(None, 0.0), (0.0, 1.0), (1.0, None)]
    assert r["note"] == "the previous run's scores are tied at some deciles: 3 bins instead of 10"
    assert r["psi"] == pytest.approx(0.2 * math.log(0.7 / 0.5) - 0.2 * math.log(0.3 / 0.5)
                                     + 0)  # the empty bins contribute 0 (both floored)


# ----------------------------------------------------------------- properties

scores = hs.lists(hs.integers(0, 40).map(lambda k: k / 40), min_size=1, max_size=60)
weighted = hs.lists(hs.tuples(hs.integers(0, 30).map(lambda k: k / 30), hs.integers(1, 5)), min_size=1, max_size=40)


@pytest.mark.filterwarnings("ignore:ks_2samp. Exact calculation unsuccessful")  # the statistic is exact anyway
@settings(max_examples=80, deadline=None)
@given(scores, scores)
def test_ks_matches_scipy_symmetric_and_bounded(a, b):
    k = ks_distance(values(a), values(b))
    assert 0.0 <= k <= 1.0
    assert k == ks_distance(values(b), values(a))
    assert k == pytest.approx(st.ks_2samp(a, b).statistic, abs=1e-12)


@settings(max_examples=80, deadline=None)
@given(weighted, weighted)
def test_psi_nonnegative_and_zero_for_identical(a, b):
    sa, sb = values([x for x, _ in a], [w for _, w in a]), values([x for x, _ in b], [w for _, w in b])
    assert psi(sa, sb)["psi"] >= 0.0
    assert psi(sa, sa)["psi"] == 0.0
    assert ks_distance(sa, sa) == 0.0
    shares = psi(sa, sb)["bins"]
    assert sum(x["expected"] for x in shares) == pytest.approx(1.0)
    assert sum(x["actual"] for x in shares) == pytest.approx(1.0)


@settings(max_examples=40, deadline=None)
@given(hs.lists(hs.tuples(hs.booleans(), hs.integers(0, 20)), min_size=2, max_size=50),
       hs.lists(hs.tuples(hs.booleans(), hs.integers(0, 20)), min_size=2, max_size=50))
def test_every_change_is_current_minus_previous(a, b):
    blocks = [learner_block([y for y, _ in d], [s / 20 for _, s in d]) for d in (a, b)]
    result = changes(run("w1", {"m": blocks[0]}), run("w2", {"m": blocks[1]}))
    json.dumps(result, allow_nan=False)
    for r in result["changes"]:
        if r["previous"] is None or r["current"] is None:
            assert r["change"] is None and r["note"]
        else:
            assert r["change"] == r["current"] - r["previous"]
        if r["p_value"] is None and r["method"] != "no test":
            assert r["note"]
        if r["p_value"] is not None:
            assert 0.0 <= r["p_value"] <= 1.0
    bal = result["balance"]
    if bal["previous"] is not None:
        assert bal["change"] == bal["current"] - bal["previous"]


def test_gates_on_change_name_only_measures_the_changes_compare():
    """A gate on change must bound a change that is computed: the spec's list is the
    changes' own (a gate on npv passed validation, then failed as 'not in the
    previous run')."""
    import importlib

    from evalreport import registry

    C = importlib.import_module("evalreport.history.changes")  # the module, not the function

    # both read the registry's ``history``: the gates' names, the changes' rows by the value each reads
    assert C.measures("binary") == ("auc", "accuracy", "precision", "recall", "specificity", "f1",
                                    "expected_total_cost", "min_cost")
    assert registry.change_names("binary") == C.measures("binary")
    assert C.measures("multiclass") == ("accuracy", "macro_f1")
    assert registry.change_names("multiclass") == ("accuracy", "f1")


def test_a_new_learner_passes_the_gates_on_change_with_a_note():
    """A learner the previous run did not have: its drift and changes say so, and a
    drift gate (as a gate on a change) passes with the note, not a failure."""
    from evalreport.history.gates import NOT_IN_PREVIOUS, change_gates
    from evalreport.spec.models import Gate

    rng = np.random.default_rng(3)
    old = run("2026-11-02", {"m": learner_block(rng.integers(0, 2, 80), rng.random(80))})
    new = run("2026-11-09", {"m": learner_block(rng.integers(0, 2, 80), rng.random(80)),
                             "n": learner_block(rng.integers(0, 2, 80), rng.random(80))})
    result = changes(old, new)
    (drift,) = [d for d in result["drift"] if d["learner"] == "n"]
    assert drift["only_in"] == "current" and drift["psi"] is None
    gates = [Gate(drift="psi", max=0.25), Gate(metric="auc", max_drop=0.02)]
    rows, warnings = change_gates(gates, [("m", "m"), ("n", "n")], result, level=0.95)
    new_rows = [r for r in rows if r["learner"] == "n"]
    assert len(new_rows) == 2 and all(r["passed"] and r["note"] == NOT_IN_PREVIOUS for r in new_rows)
    assert not [w for w in warnings if w[1] == "n"]


def test_multiclass_balance_of_every_data_set():
    """Multi-class, two data sets: each one's chi-squared test of homogeneity (scipy's,
    without correction) from its own class counts, led by the data set's name."""
    from scipy.stats import chi2_contingency

    counts = {("w1", "val"): {"a": 50, "b": 30, "c": 20}, ("w1", "test"): {"a": 40, "b": 40, "c": 20},
              ("w2", "val"): {"a": 50, "b": 30, "c": 20}, ("w2", "test"): {"a": 20, "b": 50, "c": 30}}

    def week(w):
        return {"title": "t", "date": w, "task": "multiclass", "learners": {
            f"{n}@{ds}": {"dataset": ds, "class_counts": counts[(w, ds)]} for ds in ("val", "test") for n in ("x", "y")}}

    bal = changes(week("w1"), week("w2"))["balance"]
    assert [b["dataset"] for b in bal] == ["val", "test"]
    for b in bal:
        table = [list(counts[(w, b["dataset"])].values()) for w in ("w1", "w2")]
        ref = chi2_contingency(table, correction=False)
        assert b["statistic"] == pytest.approx(ref.statistic, abs=1e-12)
        assert b["p_value"] == pytest.approx(ref.pvalue, rel=1e-9)
        assert b["learner"] == f"x@{b['dataset']}" and b["note"] is None
