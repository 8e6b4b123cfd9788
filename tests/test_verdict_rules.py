"""The verdict's rules, each built from data made here (issue 33), with the
expected values computed independently of the project: scikit-learn's AUC, a
plain DeLong variance written here, statsmodels' Wilson interval.

- a gate inside its bound whose interval crosses it is inconclusive, never pass;
- an undefined value, or a gate on change with no previous run, is not evaluated;
- a learner's status and the overall status (deployed, or the worst);
- the leader names who the tests cannot separate from it, and exact ties;
- a threshold tuned on the data judged is only a suggestion, labelled optimistic;
- the data set the thresholds were chosen on gives no verdict.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import roc_auc_score
from statsmodels.stats.proportion import proportion_confint

import evalreport
from evalreport.verdict import learner_status, outcome, worst_status
from evalreport.verdict.build import Finding
from brute import scipy_monte_carlo_p


def _delong_interval(y, s, level=0.95):
    """DeLong's interval of one AUC, written here from Sun & Xu's placement values."""
    pos, neg = s[y == 1], s[y == 0]
    psi = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    v10, v01 = psi.mean(axis=1), psi.mean(axis=0)
    auc = psi.mean()
    var = v10.var(ddof=1) / len(pos) + v01.var(ddof=1) / len(neg)
    z = stats.norm.ppf(0.5 + level / 2)
    return auc, (max(0.0, auc - z * np.sqrt(var)), min(1.0, auc + z * np.sqrt(var)))


def _table(n=200, seed=0, shift=(1.0, 0.9)):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.4).astype(int)
    cols = {"y": y}
    for name, d in zip("ab", shift):
        cols[name] = np.round(rng.normal(size=n) + d * y, 6)
    return cols


def _spec(**extra):
    spec = {"version": 1, "task": "binary", "positive": 1, "confidence": {"bootstrap": 0},
            "data": [{"table": "t", "label": "y", "id": None, "learners": {"a": "a", "b": "b"}}]}
    spec["data"][0].pop("id")
    spec.update(extra)
    return spec


def _run(spec, cols):
    import pyarrow as pa

    return evalreport.evaluate(spec, data={"t": pa.table(cols)})


# outcomes -----------------------------------------------------------------

def test_outcome_rules_by_hand():
    assert outcome(0.80, [("min", 0.75)], [0.77, 0.83]) == "pass"
    assert outcome(0.80, [("min", 0.75)], [0.74, 0.86]) == "inconclusive"
    assert outcome(0.70, [("min", 0.75)], [0.65, 0.76]) == "fail"
    assert outcome(0.80, [("min", 0.75)], None) == "pass"  # no interval computed
    assert outcome(None, [("min", 0.75)], None) == "not_evaluated"
    assert outcome(0.196, [("max", 0.2)], [0.162, 0.294]) == "inconclusive"  # the parity gate
    assert outcome(0.75, [("min", 0.75)], [0.75, 0.8]) == "pass"  # on the bound is inside


def test_auc_gate_inside_its_bound_with_an_interval_across_it_is_inconclusive():
    cols = _table()
    y, s = np.asarray(cols["y"]), np.asarray(cols["a"])
    auc, (lo, hi) = _delong_interval(y, s)
    assert auc == pytest.approx(roc_auc_score(y, s), abs=1e-12)
    bound = float((lo + auc) / 2)  # inside, and the interval reaches below it
    result = _run(_spec(gates=[{"learner": "a", "metric": "auc", "min": bound}]), cols)
    (row,) = result.gates
    assert row["interval"] == pytest.approx([lo, hi], abs=1e-9)
    assert row["outcome"] == "inconclusive" and row["passed"] is False
    assert not result.gates_passed  # the exit status is 3
    assert result.verdict.learners["a"].status == "inconclusive"
    assert result.verdict.learners["b"].status == "not_assessed"
    assert result.verdict.status == "inconclusive"
    (finding,) = [f for f in result.verdict.findings if f.measure == "auc"]
    assert finding.severity == "medium" and "interval" in finding.text
    # below its interval's low end the same gate passes
    passed = _run(_spec(gates=[{"learner": "a", "metric": "auc", "min": float(lo) - 1e-6}]), cols)
    assert passed.gates[0]["outcome"] == "pass" and passed.verdict.status == "fit"


def test_a_rate_gate_carries_wilsons_interval():
    cols = _table(seed=3)
    result = _run(_spec(threshold=0.5, gates=[{"learner": "a", "metric": "recall", "min": 0.1}]), cols)
    y, s = np.asarray(cols["y"]), np.asarray(cols["a"])
    tp, fn = int(((s >= 0.5) & (y == 1)).sum()), int(((s < 0.5) & (y == 1)).sum())
    lo, hi = proportion_confint(tp, tp + fn, alpha=0.05, method="wilson")
    assert result.gates[0]["value"] == pytest.approx(tp / (tp + fn))
    assert result.gates[0]["interval"] == pytest.approx([lo, hi], abs=1e-12)


def test_an_undefined_value_is_not_evaluated_never_passed():
    cols = _table()
    # hard decisions: no AUC
    cols["d"] = (np.asarray(cols["a"]) > 0.5).astype(int)
    spec = _spec(gates=[{"learner": "d", "metric": "auc", "min": 0.5}])
    spec["data"][0]["learners"] = {"a": "a", "d": {"predicted": "d"}}
    result = _run(spec, cols)
    (row,) = result.gates
    assert row["value"] is None and row["outcome"] == "not_evaluated" and row["passed"] is False
    assert not result.gates_passed
    assert result.verdict.learners["d"].status == "fit_with_findings"


def test_a_change_gate_with_no_previous_run_is_not_evaluated(tmp_path):
    cols = _table()
    spec = _spec(history={"dir": str(tmp_path / "archive")}, date="2026-11-20",
                 gates=[{"learner": "a", "metric": "auc", "max_drop": 0.05},
                        {"learner": "a", "metric": "auc", "min": 0.5}])
    result = _run(spec, cols)
    change = next(g for g in result.gates if "change_since" in g)
    assert change["outcome"] == "not_evaluated" and change["passed"] is False and change["note"]
    assert result.gates_passed  # the archive's first run: nothing failed
    assert result.verdict.learners["a"].status == "fit_with_findings"  # never "fit" with a gate unchecked
    assert result.verdict.learners["a"].gates == {"pass": 1, "fail": 0, "inconclusive": 0, "not_evaluated": 1}


# statuses -----------------------------------------------------------------

def test_learner_status_rules():
    low, medium = Finding("low", "a", None, "x"), Finding("medium", "a", None, "x")
    assert learner_status([], []) == "not_assessed"
    assert learner_status(["pass", "fail", "inconclusive"], []) == "not_fit"
    assert learner_status(["pass", "inconclusive", "not_evaluated"], []) == "inconclusive"
    assert learner_status(["pass", "not_evaluated"], []) == "fit_with_findings"
    assert learner_status(["pass"], [medium]) == "fit_with_findings"
    assert learner_status(["pass"], [low]) == "fit"
    assert worst_status(["fit", "not_assessed", "fit_with_findings"]) == "fit_with_findings"
    assert worst_status(["not_assessed", "not_assessed"]) == "not_assessed"
    assert worst_status(["fit", "not_fit", "inconclusive"]) == "not_fit"


@pytest.mark.slow
def test_the_deployed_learners_status_is_the_overall_status():
    cols = _table(shift=(1.5, 0.2))
    gates = [{"metric": "auc", "min": 0.65}]
    worst = _run(_spec(gates=gates), cols)
    assert worst.verdict.learners["b"].status == "not_fit"
    assert worst.verdict.status == "not_fit"  # no deployed learner: the worst
    deployed = _run(_spec(gates=gates, deployed="a"), cols)
    assert deployed.verdict.deployed == "a"
    assert deployed.verdict.status == deployed.verdict.learners["a"].status == "fit"
    assert deployed.to_dict()["verdict"]["status"] == "fit"


# the leader ---------------------------------------------------------------

def test_two_learners_the_test_cannot_separate_give_no_single_recommendation():
    from evalreport.report.verdicts import page_one

    cols = _table(n=120, seed=5, shift=(1.0, 0.95))
    result = _run(_spec(rank_by="auc"), cols)
    leader = result.verdict.leader
    y = np.asarray(cols["y"])
    aucs = {k: roc_auc_score(y, np.asarray(cols[k])) for k in "ab"}
    assert leader.learner == max(aucs, key=aucs.get) and leader.rank_by == "auc" and leader.test == "delong"
    other = min(aucs, key=aucs.get)
    delong = next(t for c in result.comparisons for t in c.tests).delong
    assert delong.p_value >= 0.05  # the data make the case
    assert leader.indistinguishable_from == (other,)
    text = page_one(result)["leader"]
    # the other's AUC (scikit-learn's) and its Holm-adjusted p beside its name
    said = re.search(rf"{other} \((0\.\d+) \[[0-9.]+, [0-9.]+\], p = ([0-9.]+)\) cannot be told apart from it "
                     r"at the 5% level", text)
    assert said and float(said.group(1)) == pytest.approx(aucs[other], abs=5e-4)
    assert float(said.group(2)) == pytest.approx(delong.p_value, abs=0.006)
    assert "no single learner is recommended" in text


def test_a_clear_leader_is_said_separated():
    from evalreport.report.verdicts import page_one

    cols = _table(n=600, seed=1, shift=(2.0, 0.3))
    result = _run(_spec(rank_by="auc"), cols)
    assert result.verdict.leader.learner == "a" and result.verdict.leader.indistinguishable_from == ()
    assert "separates it from every other learner at the 5% level" in page_one(result)["leader"]


def test_a_clear_leader_is_said_with_its_interval_and_its_closest_comparison():
    """Three learners, each separated from the leader: the sentence gives the leader's
    AUC (scikit-learn's) with its interval, and the learner it is separated from least,
    with that learner's AUC and the largest Holm-adjusted p (statsmodels' Holm over the
    DeLong p-values against the leader)."""
    from statsmodels.stats.multitest import multipletests

    from evalreport.number_style import p_text
    from evalreport.report.verdicts import page_one

    cols = _table(n=600, seed=1, shift=(2.0, 0.3))
    rng = np.random.default_rng(9)
    cols["c"] = np.round(rng.normal(size=cols["y"].size) + 1.4 * cols["y"], 6)  # p = 0.0074: printed in full
    spec = _spec(rank_by="auc")
    spec["data"][0]["learners"]["c"] = "c"
    result = _run(spec, cols)
    leader = result.verdict.leader
    assert leader.learner == "a" and leader.indistinguishable_from == ()
    y = cols["y"]
    aucs = {k: roc_auc_score(y, cols[k]) for k in "abc"}
    assert max(aucs, key=aucs.get) == "a" and aucs["c"] > aucs["b"]
    text = page_one(result)["leader"]
    said = re.search(r"a ranks first \((0\.\d+) \[(0\.\d+), (0\.\d+)\]\), and DeLong's test separates it from "
                     r"every other learner at the 5% level \(Holm-adjusted; the closest is c: (0\.\d+) "
                     r"\[[0-9.]+, [0-9.]+\], (p [<=] [0-9.]+)\)\.", text)
    assert said, text
    assert float(said.group(1)) == pytest.approx(aucs["a"], abs=5e-4)
    assert float(said.group(2)) < aucs["a"] < float(said.group(3))
    assert float(said.group(4)) == pytest.approx(aucs["c"], abs=5e-4)
    delong = {frozenset((t.a, t.b)): t.delong.p_value for c in result.comparisons for t in c.tests}
    raw = [delong[frozenset(("a", k))] for k in "bc"]
    holm = dict(zip("bc", multipletests(raw, method="holm")[1]))
    assert max(holm, key=holm.get) == "c" and said.group(5) == p_text(holm["c"]) and "=" in said.group(5)


def test_exact_ties_share_the_first_rank():
    from evalreport.report.verdicts import page_one

    cols = _table(n=100, seed=2)
    cols["b"] = np.asarray(cols["a"]) * 2 + 1  # the same order: the same AUC exactly
    result = _run(_spec(rank_by="auc"), cols)
    leader = result.verdict.leader
    assert set(leader.tied) == {"a", "b"}
    assert "a = b rank first" in page_one(result)["leader"]


# thresholds ---------------------------------------------------------------

def test_a_tuned_threshold_is_only_a_suggestion_labelled_optimistic():
    from evalreport.report.verdicts import page_one

    cols = _table(n=300, seed=4)
    spec = _spec(threshold=0.9, costs={"false_negative": 5, "false_positive": 1})
    result = _run(spec, cols)
    y = np.asarray(cols["y"])
    assert result.verdict.suggestions  # threshold 0.9 is far from the least cost: each learner has one
    for s in result.verdict.suggestions:
        lr = result.learners[s.learner]
        assert s.optimistic and s.threshold != 0.9
        # the suggested threshold's cost, recomputed here: normalised expected cost at PC(+)
        score = np.asarray(cols[s.learner])
        p = y.mean()
        pc = p * 5 / (p * 5 + (1 - p) * 1)

        def cost(t):
            fnr = ((score < t) & (y == 1)).sum() / (y == 1).sum()
            fpr = ((score >= t) & (y == 0)).sum() / (y == 0).sum()
            return fnr * pc + fpr * (1 - pc)

        assert s.cost == pytest.approx(cost(s.threshold), abs=1e-12)
        assert s.cost_at_deployed == pytest.approx(cost(0.9), abs=1e-12)
        assert s.cost < s.cost_at_deployed
        assert lr.threshold == 0.9  # the verdict stays at the deployed threshold
    text = " ".join(str(v) for v in page_one(result).values())
    assert "deploy " not in text.replace("deployed", "")


def test_threshold_optimal_is_a_medium_finding():
    cols = _table(n=300, seed=4)
    result = _run(_spec(threshold="optimal", gates=[{"metric": "auc", "min": 0.5}]), cols)
    tuned = [f for f in result.verdict.findings if f.measure == "threshold"]
    assert {f.learner for f in tuned} == {"a", "b"} and all(f.severity == "medium" for f in tuned)
    assert result.verdict.learners["a"].status == "fit_with_findings"  # never plain fit at a tuned threshold
    assert not result.verdict.suggestions  # the deployed threshold already is the tuned one


def test_the_data_set_the_thresholds_were_chosen_on_gives_no_verdict():
    import pyarrow as pa

    val, test = _table(seed=7), _table(seed=8)
    spec = {"version": 1, "task": "binary", "confidence": {"bootstrap": 0},
            "threshold": {"optimal_on": "validation"}, "costs": {"false_negative": 5, "false_positive": 1},
            "gates": [{"metric": "auc", "min": 0.99, "dataset": "validation"},
                      {"metric": "auc", "min": 0.5, "dataset": "test"}],
            "data": [{"table": "v", "label": "y", "dataset": "validation", "learners": {"a": "a", "b": "b"}},
                     {"table": "t", "label": "y", "dataset": "test", "learners": {"a": "a", "b": "b"}}]}
    result = evalreport.evaluate(spec, data={"v": pa.table(val), "t": pa.table(test)})
    v = result.verdict
    assert {k for k, x in v.learners.items() if not x.judged} == {"a@validation", "b@validation"}
    assert v.learners["a@validation"].status == "not_assessed"
    # the gate with dataset: validation applies there only, and does not sink the verdict
    assert {g["learner"] for g in result.gates if g["min"] == 0.99} == {"a@validation", "b@validation"}
    assert v.status == "fit"
    assert all(x.learner.endswith("@test") for x in v.leaders)
    assert v.learners["a@test"].threshold_source == "optimal_on:validation"


def test_a_multiclass_cost_matrix_that_reverses_the_accuracy_ranking_leads_the_verdict():
    import pyarrow as pa

    rng = np.random.default_rng(11)
    n = 300
    y = rng.integers(0, 3, n)
    # x: right 80% of the time, its errors always call class 0 "2" (costly);
    # z: right 70% of the time, its errors cheap (a neighbouring class)
    x = np.where(rng.random(n) < 0.8, y, np.where(y == 0, 2, (y + 1) % 3))
    z = np.where(rng.random(n) < 0.7, y, np.where(y == 0, 1, np.where(y == 1, 0, 1)))
    matrix = [[0, 1, 20], [1, 0, 1], [1, 1, 0]]
    spec = {"version": 1, "task": "multiclass", "classes": [0, 1, 2], "confidence": {"bootstrap": 0},
            "costs": {"matrix": matrix},
            "data": [{"table": "t", "label": "y", "learners": {"x": {"predicted": "x"}, "z": {"predicted": "z"}}}]}
    result = evalreport.evaluate(spec, data={"t": pa.table({"y": y, "x": x, "z": z})})

    def cost(pred):  # the mean cost of the decisions, computed here
        return np.mean([matrix[t][p] for t, p in zip(y, pred)])

    assert (x == y).mean() > (z == y).mean() and cost(x) > cost(z)
    leader = result.verdict.leader
    assert leader.rank_by == "cost_sensitive_error" and leader.learner == "z"
    assert leader.value == pytest.approx(cost(z), abs=1e-12)
    from evalreport.report.verdicts import page_one

    assert page_one(result)["leader"].startswith("By cost-sensitive error")


def test_a_multiclass_leader_by_cost_is_tested_by_the_paired_bootstrap():
    """With the bootstrap on, the multi-class leader by cost is tested against
    each other learner by the paired bootstrap of the cost difference; the p-value
    equals one computed here on the same stratified rows (drawn as documented:
    per class, in class order, from one PCG64 stream seeded with confidence.seed)."""
    import pyarrow as pa

    rng = np.random.default_rng(5)
    n = 120
    y = rng.integers(0, 3, n)
    x = np.where(rng.random(n) < 0.85, y, (y + 1) % 3)
    z = np.where(rng.random(n) < 0.80, y, (y + 2) % 3)
    matrix = [[0, 2, 5], [1, 0, 1], [4, 1, 0]]
    spec = {"version": 1, "task": "multiclass", "classes": [0, 1, 2],
            "confidence": {"bootstrap": 200, "seed": 3}, "costs": {"matrix": matrix},
            "data": [{"table": "t", "label": "y", "learners": {"x": {"predicted": "x"}, "z": {"predicted": "z"}}}]}
    result = evalreport.evaluate(spec, data={"t": pa.table({"y": y, "x": x, "z": z})})
    from evalreport.compare.leaderboard import leaderboard

    board = leaderboard(result)
    assert board["test"] == "paired_bootstrap" and board["untested"] == []

    def cost(pred, rows):
        return np.mean([matrix[t][p] for t, p in zip(y[rows], pred[rows])])

    draw = np.random.Generator(np.random.PCG64(3))
    members = [np.flatnonzero(y == c) for c in range(3)]
    rows = np.concatenate([m[draw.integers(0, m.size, size=(200, m.size))] for m in members], axis=1)
    best, other = (x, z) if cost(x, np.arange(n)) < cost(z, np.arange(n)) else (z, x)
    d = np.array([cost(other, r) - cost(best, r) for r in rows])
    want = scipy_monte_carlo_p(d, "two-sided")  # 2 (min side + 1) / (B + 1)
    row = [r for r in board["rows"] if r["rank"] == 2][0]
    assert row["p_vs_best"] == pytest.approx(want, abs=1e-12)


@pytest.mark.slow
def test_replicates_of_one_configuration_are_ranked_and_tested_as_one():
    """experiment_runs: 20 runs, 5 configurations of 4 seeds; the leader is the
    configuration of least mean cost, and the configurations Welch's t-test
    (statsmodels, Holm-adjusted by statsmodels) cannot separate from it are named."""
    from pathlib import Path

    from statsmodels.stats.multitest import multipletests
    from statsmodels.stats.weightstats import ttest_ind

    root = Path(__file__).resolve().parents[1]
    result = evalreport.evaluate(evalreport.load_spec(root / "examples/experiment_runs/spec.yaml"))
    leader = result.verdict.leader
    assert leader.over == "configurations" and leader.test == "welch_t"
    measure = leader.rank_by
    by: dict = {}
    for key, lr in result.learners.items():
        by.setdefault(key.split("_seed")[0], []).append(lr.values[measure])
    lower = evalreport.registry.get(measure).direction == "lower"
    means = {k: float(np.mean(v)) for k, v in by.items()}
    first = (min if lower else max)(means, key=means.get)
    assert leader.learner == first and leader.value == pytest.approx(means[first], rel=1e-12)
    others = sorted((k for k in means if k != first), key=lambda k: means[k], reverse=not lower)
    p = [ttest_ind(by[first], by[k], usevar="unequal")[1] for k in others]
    adjusted = multipletests(p, method="holm")[1]
    expected = tuple(k for k, q in zip(others, adjusted) if q >= 0.05)
    assert leader.indistinguishable_from == expected


def test_a_challenger_non_inferior_within_the_margin_but_not_superior():
    """DeLong's difference of two AUCs on the same instances, with its variance
    written here: non-inferior within a margin of 0.1, not shown better."""
    from evalreport.report.verdicts import page_one

    cols = _table(n=400, seed=9, shift=(1.2, 1.15))
    spec = _spec(rank_by="auc", deployed="a", confidence={"bootstrap": 0, "margin": 0.1})
    result = _run(spec, cols)
    c = result.verdict.challengers["b"]
    y = np.asarray(cols["y"])
    sa, sb = np.asarray(cols["a"]), np.asarray(cols["b"])
    d = roc_auc_score(y, sb) - roc_auc_score(y, sa)

    def components(s):
        pos, neg = s[y == 1], s[y == 0]
        psi = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
        return psi.mean(axis=1), psi.mean(axis=0)

    (a10, a01), (b10, b01) = components(sa), components(sb)
    m, n = (y == 1).sum(), (y == 0).sum()
    var = (np.var(b10 - a10, ddof=1) / m + np.var(b01 - a01, ddof=1) / n)
    z = stats.norm.ppf(0.975)
    assert c["test"] == "delong" and c["difference"] == pytest.approx(d, abs=1e-12)
    assert c["interval"] == pytest.approx([d - z * np.sqrt(var), d + z * np.sqrt(var)], abs=1e-9)
    assert c["p_value"] == pytest.approx(stats.norm.sf((d + 0.1) / np.sqrt(var)), rel=1e-6)
    assert c["non_inferior"] is bool(d - z * np.sqrt(var) > -0.1) and c["superior"] is bool(d - z * np.sqrt(var) > 0)
    assert c["non_inferior"] and not c["superior"]  # the data make the case
    (line,) = page_one(result)["challengers"]
    assert line.startswith("May b replace a? B is not worse by more than the margin 0.1")


def test_a_test_the_conclusion_rests_on_is_medium_when_missing_others_low():
    """The leader's test not made (no bootstrap for the measure ranked) is a medium
    finding: the leader then stands untested; with the bootstrap on it is tested, and
    the finding is gone."""
    import pyarrow as pa

    rng = np.random.default_rng(2)
    n = 200
    y = rng.integers(0, 2, n)
    table = pa.table({"y": y, "a": np.clip(0.3 * y + rng.random(n) * 0.7, 0, 1), "b": rng.random(n)})
    spec = {"version": 1, "positive": 1, "confidence": {"bootstrap": 0},
            "costs": {"false_negative": 5, "false_positive": 1},
            "data": [{"table": "t", "label": "y", "learners": {"a": "a", "b": "b"}}]}
    result = evalreport.evaluate(spec, data={"t": table})
    untested = [f for f in result.verdict.findings if "not tested against the best" in f.text]
    assert len(untested) == 1 and untested[0].severity == "medium"
    assert result.verdict.leader.rank_by == "cost_at_threshold"
    # with the bootstrap on, the same ranking is tested: no such finding
    spec["confidence"] = {"bootstrap": 200}
    result = evalreport.evaluate(spec, data={"t": table})
    assert not [f for f in result.verdict.findings if "not tested against the best" in f.text]


def test_a_cost_gate_says_it_is_the_normalised_expected_cost_at_pc_plus():
    """A gate on cost_at_threshold or min_cost carries the learner's PC(+) in its row and
    says in its line which cost it is: PC(+) = p c_FN / (p c_FN + (1 - p) c_FP) by hand,
    the value FNR PC(+) + FPR (1 - PC(+)) at the threshold by hand; a gate on another
    measure, and a multi-class gate on the same name (the cost-sensitive error), do not."""
    cols = _table(n=200, seed=4, shift=(1.5, 1.0))
    spec = _spec(priors={"positive": 0.1}, costs={"false_negative": 20, "false_positive": 1}, threshold=0.5,
                 gates=[{"learner": "a", "metric": "cost_at_threshold", "max": 0.001},
                        {"learner": "a", "metric": "min_cost", "max": 0.5}, {"learner": "a", "metric": "auc", "min": 0.5}])
    result = _run(spec, cols)
    pc = 0.1 * 20 / (0.1 * 20 + 0.9 * 1)
    y, s = np.asarray(cols["y"]) == 1, np.asarray(cols["a"])
    fnr, fpr = np.mean(s[y] < 0.5), np.mean(s[~y] >= 0.5)
    rows = {g["metric"]: g for g in result.gates}
    assert rows["cost_at_threshold"]["pc_positive"] == pytest.approx(pc, rel=1e-12)
    assert rows["cost_at_threshold"]["value"] == pytest.approx(fnr * pc + fpr * (1 - pc), rel=1e-12)
    assert rows["min_cost"]["pc_positive"] == pytest.approx(pc, rel=1e-12)
    assert "pc_positive" not in rows["auc"]
    from evalreport.words import gate_text

    line = gate_text(rows["cost_at_threshold"], lambda x: f"{x:.3g}")  # the command line's words
    assert line.startswith("a: cost_at_threshold (normalised expected cost at PC(+) = 0.69) = "), line
    failed = [f.text for f in result.verdict.findings if f.text.startswith("Gate failed")]  # the report's
    assert len(failed) == 1 and "a: cost_at_threshold (normalised expected cost at PC(+) = 0.690) = " in failed[0]

    import pyarrow as pa

    rng = np.random.default_rng(2)
    k = rng.integers(0, 3, 90)
    multi = evalreport.evaluate({"version": 1, "task": "multiclass", "classes": [0, 1, 2],
                                 "costs": {"matrix": [[0, 1, 1], [1, 0, 1], [5, 1, 0]]},
                                 "gates": [{"metric": "cost_at_threshold", "max": 0.9}],
                                 "data": [{"table": "t", "label": "y", "learners": {"m": {"predicted": "p"}}}]},
                                data={"t": pa.table({"y": k, "p": np.where(rng.random(90) < 0.7, k, (k + 1) % 3)})})
    assert [g["metric"] for g in multi.gates] == ["cost_at_threshold"] and "pc_positive" not in multi.gates[0]


def test_a_learner_fit_by_gates_that_miss_the_ranked_measure_where_it_is_worse_has_a_finding():
    """b passes its one gate (AUC) but is worse than a by the cost ranked (the paired
    bootstrap, Holm-adjusted p < 0.05): a medium finding says its status says nothing of
    that cost, so b is fit_with_findings and a stays fit. A gate of b on the ranked cost,
    a deployed learner (the others are then challengers), or another medium finding of b
    leaves no such finding."""
    cols = _table(n=400, seed=3, shift=(2.0, 0.6))
    costs = {"priors": {"positive": 0.3}, "costs": {"false_negative": 5, "false_positive": 1},
             "confidence": {"bootstrap": 300, "seed": 1}}
    result = _run(_spec(**costs, gates=[{"metric": "auc", "min": 0.5}]), cols)
    from evalreport.compare.leaderboard import leaderboard

    block = leaderboard(result)
    assert block["rank_by"] == "cost_at_threshold" and block["rows"][0]["learner"] == "a"
    b = next(r for r in block["rows"] if r["learner"] == "b")
    assert b["p_holm_vs_best"] < 0.05
    y, pc = np.asarray(cols["y"]) == 1, 0.3 * 5 / (0.3 * 5 + 0.7)
    cost = {k: np.mean(np.asarray(cols[k])[y] < 0.5) * pc + np.mean(np.asarray(cols[k])[~y] >= 0.5) * (1 - pc)
            for k in "ab"}  # by hand, at the spec's threshold 0.5
    assert b["value"] == pytest.approx(cost["b"], rel=1e-12) and cost["b"] > cost["a"]
    found = [f for f in result.verdict.findings if f.learner == "b" and f.measure == "cost_at_threshold"]
    assert len(found) == 1 and found[0].severity == "medium"
    from evalreport.number_style import measure_text, p_text

    assert found[0].text == (
        f"b: its one gate (auc) passes but does not test cost of the threshold at PC(+), by which it is worse "
        f"than a ({measure_text('cost_at_threshold', cost['b'])} against "
        f"{measure_text('cost_at_threshold', cost['a'])}; Holm-adjusted {p_text(b['p_holm_vs_best'])}): its "
        "status says nothing of cost of the threshold at PC(+).")
    assert result.verdict.learners["b"].status == "fit_with_findings" and result.verdict.learners["a"].status == "fit"

    covered = _run(_spec(**costs, gates=[{"metric": "auc", "min": 0.5},
                                         {"learner": "b", "metric": "cost_at_threshold", "max": 0.9}]), cols)
    assert not [f for f in covered.verdict.findings if f.measure == "cost_at_threshold" and f.learner == "b"]
    assert covered.verdict.learners["b"].status == "fit"
    deployed = _run(_spec(**costs, deployed="a", gates=[{"metric": "auc", "min": 0.5}]), cols)
    assert deployed.verdict.learners["b"].status == "fit" and not [
        f for f in deployed.verdict.findings if f.text.startswith("b: its one gate")]
    # a learner that is not "fit" anyway (here: its threshold tuned on the data judged, a
    # medium finding) gets no second finding: the first already keeps its status from "fit"
    tuned = _run(_spec(**costs, threshold="optimal", gates=[{"metric": "auc", "min": 0.5}]), cols)
    assert tuned.verdict.learners["b"].status == "fit_with_findings"
    assert next(r for r in leaderboard(tuned)["rows"] if r["learner"] == "b")["p_holm_vs_best"] < 0.05
    assert any(f.text.startswith("b is judged at threshold") and f.severity == "medium"
               for f in tuned.verdict.findings)
    assert not [f for f in tuned.verdict.findings if f.text.startswith("b: its one gate")]


def test_the_optimism_of_the_data_set_that_chose_the_thresholds_is_a_finding():
    """threshold: {optimal_on: validation}: where a learner's cost at its threshold (FNR
    PC(+) + FPR (1 - PC(+)), by hand on each data set at the threshold chosen) is higher
    on test than on validation, a low finding gives both; where it is not, none."""
    import pyarrow as pa

    val, test = _table(n=300, seed=11, shift=(1.2, 1.0)), _table(n=300, seed=12, shift=(1.2, 1.0))
    spec = {"version": 1, "task": "binary", "positive": 1, "confidence": {"bootstrap": 0},
            "priors": {"positive": 0.3}, "costs": {"false_negative": 5, "false_positive": 1},
            "threshold": {"optimal_on": "validation"},
            "data": [{"table": name, "label": "y", "dataset": name, "learners": {"a": "a", "b": "b"}}
                     for name in ("validation", "test")]}
    result = evalreport.evaluate(spec, data={"validation": pa.table(val), "test": pa.table(test)})
    pc = 0.3 * 5 / (0.3 * 5 + 0.7)

    def cost(cols, k, t):
        y, s = np.asarray(cols["y"]) == 1, np.asarray(cols[k])
        return np.mean(s[y] < t) * pc + np.mean(s[~y] >= t) * (1 - pc)

    from evalreport.number_style import measure_text

    said = {f.learner: f for f in result.verdict.findings if f.measure == "cost_at_threshold"}
    worse = []
    for k in "ab":
        t = result.learners[f"{k}@test"].threshold
        assert t == result.learners[f"{k}@validation"].threshold
        here, there = cost(test, k, t), cost(val, k, t)
        assert result.learners[f"{k}@test"].values["cost_at_threshold"] == pytest.approx(here, rel=1e-12)
        if here > there:
            worse.append(k)
            f = said[f"{k}@test"]
            assert f.severity == "low" and f.text == (
                f"{k}@test: cost of the threshold at PC(+) is {measure_text('cost_at_threshold', here)} on test "
                f"against {measure_text('cost_at_threshold', there)} on validation, where its threshold was chosen: "
                "validation's figure is optimistic; test's is the one to expect.")
        else:
            assert f"{k}@test" not in said
    assert worse == ["a"]  # the data make both cases: a costs more on test, b does not
    assert not [f for f in result.verdict.findings if f.learner and f.learner.endswith("@validation")]
