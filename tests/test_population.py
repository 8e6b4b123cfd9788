"""Issue 19: the measures for the population of the priors, and the cost of the
deployed threshold, against hand computations."""

from __future__ import annotations

import json
import re
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalreport.__main__ import main
from evalreport.metrics.population import normalised_cost, population_at_threshold


def _reweighted(tp, fp, tn, fn, p, c_fn, c_fp):
    """By hand: every positive weighs p / m+, every negative (1 - p) / m-."""
    wp, wn = p / (tp + fn), (1 - p) / (fp + tn)
    TP, FN, FP, TN = tp * wp, fn * wp, fp * wn, tn * wn

    def ratio(a, b):
        return None if b == 0 else a / b

    return {"precision": ratio(TP, TP + FP), "npv": ratio(TN, TN + FN), "accuracy": TP + TN,
            "error_rate": FP + FN, "f1": ratio(2 * TP, 2 * TP + FP + FN),
            "cost_sensitive_error": c_fn * FN + c_fp * FP}


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 500), st.integers(0, 500), st.integers(0, 500), st.integers(0, 500),
       st.floats(0.001, 0.999), st.floats(0.1, 50), st.floats(0.1, 50))
def test_population_measures_are_the_reweighted_counts(tp, fp, tn, fn, p, c_fn, c_fp):
    if fp + tn == 0:
        fp = 1
    got = population_at_threshold(tp, fp, tn, fn, p, c_fn, c_fp)
    want = _reweighted(tp, fp, tn, fn, p, c_fn, c_fp)
    for name, value in want.items():
        if value is None:
            assert getattr(got, name) is None and got.undefined[name], name
        else:
            assert getattr(got, name) == pytest.approx(value, rel=1e-12, abs=1e-15), name


def test_population_at_the_test_share_is_the_test_set():
    tp, fp, tn, fn = 30, 10, 50, 10
    got = population_at_threshold(tp, fp, tn, fn, (tp + fn) / 100, 3, 1)
    assert got.precision == pytest.approx(0.75) and got.accuracy == pytest.approx(0.8)
    assert got.cost_sensitive_error == pytest.approx((3 * fn + fp) / 100)


def test_population_undefined_without_a_class():
    got = population_at_threshold(0, 3, 7, 0, 0.2)
    assert got.precision is None and "no positives" in got.undefined["precision"]
    assert population_at_threshold(5, 0, 0, 5, 0.2).undefined["npv"].endswith("FPR is undefined")


def test_normalised_cost_by_hand():
    # FNR = 2/10, FPR = 3/30; at PC(+) = 0.25: 0.2 * 0.25 + 0.1 * 0.75
    assert normalised_cost(8, 3, 27, 2, 0.25) == pytest.approx(0.125)
    assert normalised_cost(0, 3, 27, 0, 0.25) is None


@pytest.mark.slow
def test_breast_cancer_example_reports_the_population_and_the_deployed_cost(example_report):
    """The issue's numbers: at the 10 % prior, logistic's precision is about 0.63 and
    the cost-sensitive errors are 0.127 (logistic) and 0.154 (forest); forest's
    deployed threshold 0.3 costs more than its least cost."""
    report = example_report("breast_cancer", ["json", "html"])  # run once a session: tests/conftest.py
    assert report.status == 0
    data = json.loads(report.text("results.json"))
    op = data["operating_point"]
    for key, lr in data["learners"].items():
        c = lr["confusion"]
        want = _reweighted(c["tp"], c["fp"], c["tn"], c["fn"], 0.1, 20, 1)
        assert lr["population"]["p_positive"] == 0.1
        for name, value in want.items():
            assert lr["population"][name] == pytest.approx(value, rel=1e-12), (key, name)
        fnr, fpr = c["fn"] / (c["tp"] + c["fn"]), c["fp"] / (c["fp"] + c["tn"])
        pc = op["pc_positive"]
        assert lr["cost_at_threshold"] == pytest.approx(fnr * pc + fpr * (1 - pc), rel=1e-12)
        assert lr["cost_at_threshold"] >= lr["operating_point"]["min_cost"] - 1e-12
    assert round(data["learners"]["logistic"]["population"]["precision"], 2) == 0.63
    assert round(data["learners"]["logistic"]["population"]["cost_sensitive_error"], 3) == 0.127
    assert round(data["learners"]["forest"]["population"]["cost_sensitive_error"], 3) == 0.154
    forest = data["learners"]["forest"]
    assert forest["cost_at_threshold"] > forest["operating_point"]["min_cost"]
    html = report.text("report.html")
    assert "in the population of the priors (p(+) = 0.1)" in html
    assert "on the data as sampled (p(+) = 0.373)" in html
    # the least-cost threshold is a suggestion beside the deployed one's cost, never the verdict
    found = re.search(r"forest at 0\.488 \(tuned on the data judged\): cost 0\.0498 at PC\(\+\) = ([0-9.]+), "
                      r"against 0\.0531 at its deployed 0\.300", html)
    assert found and float(found.group(1)) == pytest.approx(op["pc_positive"], rel=5e-3)
    assert html.count("deployed thresholds (squares)") >= 3  # ROC, P-R and cost figures


@pytest.mark.slow
def test_no_population_without_priors_and_a_gate_on_the_deployed_cost(tmp_path):
    (tmp_path / "p.csv").write_text("y,a\n1,0.9\n0,0.1\n1,0.8\n0,0.7\n1,0.3\n0,0.2\n")
    (tmp_path / "spec.yaml").write_text(textwrap.dedent("""\
        version: 1
        title: t
        data:
          - path: p.csv
            label: y
            learners: {a: a}
        threshold: 0.5
        gates:
          - {metric: cost_at_threshold, max: 0.3}
        report: {formats: [json, html], out: out}
        """))
    assert main(["run", str(tmp_path / "spec.yaml"), "--quiet"]) == 3
    data = json.loads((tmp_path / "out" / "results.json").read_text())
    a = data["learners"]["a"]
    assert "population" not in a
    # FNR 1/3, FPR 1/3 at PC(+) = 0.5
    assert a["cost_at_threshold"] == pytest.approx(1 / 3)
    assert data["gates"][0]["value"] == a["cost_at_threshold"] and data["gates"][0]["passed"] is False
    assert "At the decision threshold, in the population" not in (tmp_path / "out" / "report.html").read_text()


@pytest.mark.slow
def test_multiclass_population_is_scikit_learn_with_prior_weights(tmp_path):
    """Multi-class priors: the decisions' accuracy, precision and recall per class,
    weighted so each true class has its prior's share (scikit-learn as the oracle)."""
    from sklearn import metrics as sklearn
    rng = np.random.default_rng(3)
    n, classes = 300, ["x", "y", "z"]
    y = rng.choice(3, n, p=[0.5, 0.3, 0.2])
    scores = rng.random((n, 3)) + np.eye(3)[y] * 0.6
    rows = ["y,s_x,s_y,s_z"] + [f"{classes[t]},{a:.4f},{b:.4f},{c:.4f}" for t, (a, b, c) in zip(y, scores)]
    (tmp_path / "p.csv").write_text("\n".join(rows) + "\n")
    priors = {"x": 0.2, "y": 0.3, "z": 0.5}
    (tmp_path / "spec.yaml").write_text(textwrap.dedent(f"""\
        version: 1
        title: t
        task: multiclass
        classes: [x, y, z]
        priors: {json.dumps(priors)}
        data:
          - path: p.csv
            label: y
            learners:
              a: [s_x, s_y, s_z]
        report: {{formats: [json, html], out: out}}
        """))
    assert main(["run", str(tmp_path / "spec.yaml"), "--quiet"]) == 0
    pop = json.loads((tmp_path / "out" / "results.json").read_text())["learners"]["a"]["population"]
    decided = np.round(np.loadtxt(tmp_path / "p.csv", delimiter=",", skiprows=1, usecols=(1, 2, 3)), 4)
    yhat = np.argmax(decided, axis=1)
    share = np.bincount(y, minlength=3) / n
    w = np.array([priors[c] for c in classes])[y] / share[y]
    assert pop["accuracy"] == pytest.approx(sklearn.accuracy_score(y, yhat, sample_weight=w), rel=1e-12)
    precision = sklearn.precision_score(y, yhat, average=None, sample_weight=w)
    recall = sklearn.recall_score(y, yhat, average=None, sample_weight=w)
    for i, c in enumerate(classes):
        assert pop["classes"][c]["precision"] == pytest.approx(precision[i], rel=1e-12)
        assert pop["classes"][c]["recall"] == pytest.approx(recall[i], rel=1e-12)
    assert pop["macro"]["mean_f1"] == pytest.approx(
        sklearn.f1_score(y, yhat, average="macro", sample_weight=w), rel=1e-12)
    html = (tmp_path / "out" / "report.html").read_text()
    assert "In the population of the priors (x: 0.2, y: 0.3, z: 0.5)" in html
