"""Calibration: Brier score, log loss, ECE and the reliability bins (evalreport/
metrics/calibration.py), against scikit-learn's brier_score_loss, log_loss and
calibration_curve, scipy's and statsmodels' Wilson intervals; undefined for scores
that are not probabilities; results.json, the report, gates and the verdict."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binomtest
from sklearn.calibration import calibration_curve
from sklearn.metrics import brier_score_loss, log_loss
from statsmodels.stats.proportion import proportion_confint

import evalreport
from evalreport.__main__ import main
from evalreport.metrics.binary import evaluate_binary_for_report
from evalreport.metrics.calibration import (
    EPS,
    bin_edges,
    calibration_of,
    multiclass_calibration,
    table_outcomes,
    wilson_interval,
)


def _from_table(y, s, w=None, **kw):
    """The calibration as the binary task computes it: off the learner's count table."""
    ev = evaluate_binary_for_report(y, s, sample_weight=w, positive=True)
    scores, pos, neg, counts = table_outcomes(ev.counts)
    return calibration_of(scores, pos, neg, counts=counts, **kw)


def _data(rng, n, ties=True):
    s = rng.choice(np.round(rng.random(12), 2), n) if ties else rng.random(n)
    s[: min(3, n)] = [0.0, 1.0, 0.5][: min(3, n)]  # the ends (clipped in log loss) and an edge
    y = rng.random(n) < s
    y[:2] = [True, False]  # both classes
    return y, s


def test_eps_is_float64_machine_epsilon():
    assert EPS == np.finfo(np.float64).eps == 2.220446049250313e-16


@pytest.mark.parametrize("seed", range(12))
def test_brier_and_log_loss_match_sklearn_with_ties_and_weights(seed):
    rng = np.random.default_rng(seed)
    y, s = _data(rng, int(rng.integers(5, 400)), ties=seed % 2 == 0)
    w = None if seed % 3 == 0 else rng.random(y.size) * 3
    cal = _from_table(y, s, w)
    assert cal.brier == pytest.approx(brier_score_loss(y, s, sample_weight=w), rel=1e-12, abs=1e-15)
    assert cal.log_loss == pytest.approx(log_loss(y, s, sample_weight=w), rel=1e-12)


def test_log_loss_clips_like_sklearn():
    # a positive scored 0 and a negative scored 1: each costs -log(eps), not infinity
    y, s = np.array([True, False, True]), np.array([0.0, 1.0, 0.5])
    cal = _from_table(y, s)
    assert cal.log_loss == pytest.approx((2 * -np.log(EPS) - np.log(0.5)) / 3, rel=1e-12)
    assert cal.log_loss == pytest.approx(log_loss(y, s), rel=1e-12)


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@pytest.mark.parametrize("seed", range(10))
def test_bins_and_ece_match_calibration_curve(strategy, seed):
    rng = np.random.default_rng(100 + seed)
    y, s = _data(rng, int(rng.integers(10, 500)), ties=seed % 2 == 0)
    s[3:6] = [0.1, 0.3, 0.7]  # on uniform edges: each belongs to the bin below
    bins = int(rng.integers(2, 15))
    cal = _from_table(y, s, bins=bins, strategy=strategy)
    prob_true, prob_pred = calibration_curve(y, s, n_bins=bins, strategy=strategy)
    full = [b for b in cal.bins if b.n > 0]  # calibration_curve leaves empty bins out
    assert len(cal.bins) == bins
    assert [b.observed for b in full] == pytest.approx(prob_true, rel=1e-12)
    assert [b.mean_score for b in full] == pytest.approx(prob_pred, rel=1e-12)
    # the bins' counts, as calibration_curve forms them
    if strategy == "uniform":
        edges = np.linspace(0, 1, bins + 1)
    else:
        edges = np.percentile(s, np.linspace(0, 1, bins + 1) * 100)
    assert [b.lo for b in cal.bins] + [cal.bins[-1].hi] == list(edges)
    counts = np.bincount(np.searchsorted(edges[1:-1], s), minlength=bins)
    assert [b.n for b in cal.bins] == list(counts)
    nz = counts[counts > 0]
    assert cal.ece == pytest.approx(float(np.sum(nz / s.size * np.abs(prob_true - prob_pred))), rel=1e-12)


def test_a_score_on_an_edge_goes_to_the_bin_below():
    cal = calibration_of(np.array([0.5, 0.5000001, 0.0, 1.0]), np.ones(4), np.zeros(4), bins=2, counts=True)
    assert [(b.lo, b.hi, b.n) for b in cal.bins] == [(0.0, 0.5, 2), (0.5, 1.0, 2)]


def test_weighted_quantile_edges_are_the_weighted_inverted_cdf():
    rng = np.random.default_rng(7)
    y, s = _data(rng, 300)
    w = rng.random(300) * 2
    cal = _from_table(y, s, w, bins=5, strategy="quantile")
    edges = np.percentile(s, np.linspace(0, 1, 6) * 100, method="inverted_cdf", weights=w)
    assert [b.lo for b in cal.bins] + [cal.bins[-1].hi] == pytest.approx(list(edges))
    ids = np.searchsorted(edges[1:-1], s)
    for k, b in enumerate(cal.bins):
        rows = ids == k
        if not w[rows].sum():
            assert b.n == 0 and b.observed is None
            continue
        assert b.n == pytest.approx(w[rows].sum(), rel=1e-12)
        assert b.mean_score == pytest.approx(np.average(s[rows], weights=w[rows]), rel=1e-12)
        assert b.observed == pytest.approx(np.average(y[rows], weights=w[rows]), rel=1e-12)


def test_quantile_edges_from_counts_equal_np_percentile_on_the_instances():
    rng = np.random.default_rng(3)
    for _ in range(200):
        n = int(rng.integers(1, 60))
        s = rng.choice(rng.random(5), n)
        values, counts = np.unique(s, return_counts=True)
        bins = int(rng.integers(2, 20))
        got = bin_edges(values, counts, bins, "quantile", counts=True)
        assert list(got) == list(np.percentile(s, np.linspace(0, 1, bins + 1) * 100))


@pytest.mark.parametrize("k,n", [(0, 1), (1, 1), (0, 7), (3, 7), (7, 7), (17, 40), (250, 1000)])
@pytest.mark.parametrize("level", [0.8, 0.95, 0.99])
def test_wilson_matches_scipy_and_statsmodels(k, n, level):
    low, high = wilson_interval(k, n, level)
    ci = binomtest(k, n).proportion_ci(confidence_level=level, method="wilson")
    assert (low, high) == pytest.approx((ci.low, ci.high), abs=1e-12)
    assert (low, high) == pytest.approx(proportion_confint(k, n, alpha=1 - level, method="wilson"), abs=1e-12)
    assert low <= k / n <= high
    assert wilson_interval(0, 0, level) is None


def test_bins_carry_wilson_intervals_at_the_level():
    rng = np.random.default_rng(5)
    y, s = _data(rng, 200)
    cal = _from_table(y, s, level=0.9)
    for b in cal.bins:
        if b.n:
            k = round(b.observed * b.n)
            ci = binomtest(k, int(b.n)).proportion_ci(confidence_level=0.9, method="wilson")
            assert b.interval == pytest.approx((ci.low, ci.high), abs=1e-12)


@given(st.lists(st.tuples(st.sampled_from([0.0, 0.1, 0.25, 0.3, 0.5, 0.9, 1.0]), st.booleans(),
                          st.integers(1, 3)), min_size=1, max_size=60),
       st.integers(2, 12), st.sampled_from(["uniform", "quantile"]))
def test_the_count_table_gives_what_the_instances_give(rows, bins, strategy):
    """Invariant: the calibration off the count table (a row per distinct score)
    equals the calibration of the instances repeated by their integer weights;
    0 <= ECE <= 1 and Brier in [0, 1]."""
    s = np.array([r[0] for r in rows])
    y = np.array([r[1] for r in rows])
    reps = np.array([r[2] for r in rows])
    table = _from_table(np.repeat(y, reps), np.repeat(s, reps), bins=bins, strategy=strategy)
    rows_cal = calibration_of(np.repeat(s, reps), np.repeat(y, reps) * 1.0, np.repeat(~y, reps) * 1.0,
                              bins=bins, strategy=strategy, counts=True)
    assert table.brier == pytest.approx(rows_cal.brier, rel=1e-12, abs=1e-15)
    assert table.ece == pytest.approx(rows_cal.ece, rel=1e-12, abs=1e-15)
    assert [b.n for b in table.bins] == [b.n for b in rows_cal.bins]
    assert 0 <= table.ece <= 1 and 0 <= table.brier <= 1


def test_scores_outside_0_1_are_undefined_with_the_reason():
    cal = calibration_of(np.array([-2.5, 0.3, 4.0]), np.array([1.0, 0, 1]), np.array([0.0, 1, 0]))
    assert (cal.brier, cal.log_loss, cal.ece, cal.bins) == (None, None, None, None)
    assert cal.undefined == ("the scores are not probabilities: they range over [-2.5, 4], outside [0, 1] "
                             "(margins or logits?)")


# multi-class

def _probabilities(rng, n, k):
    p = rng.dirichlet(np.ones(k) * 0.7, n)
    p = np.round(p, 2)  # ties of the top score
    p[:, -1] = 1 - p[:, :-1].sum(axis=1)
    p = np.clip(p, 0, 1)
    p /= p.sum(axis=1, keepdims=True)
    y = np.array([rng.choice(k, p=row) for row in p])
    y[:k] = np.arange(k)
    return y, p


@pytest.mark.parametrize("seed", range(8))
def test_multiclass_brier_and_log_loss_match_sklearn(seed):
    rng = np.random.default_rng(200 + seed)
    k = 3 + seed % 3
    y, p = _probabilities(rng, int(rng.integers(20, 300)), k)
    w = None if seed % 2 else rng.random(y.size) * 2
    cal = multiclass_calibration(y, p, w)
    labels = list(range(k))
    assert cal.brier == pytest.approx(brier_score_loss(y, p, sample_weight=w, labels=labels), rel=1e-12)
    assert cal.log_loss == pytest.approx(log_loss(y, p, sample_weight=w, labels=labels), rel=1e-12)


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
def test_multiclass_top_label_bins_match_calibration_curve(strategy):
    rng = np.random.default_rng(11)
    y, p = _probabilities(rng, 400, 4)
    cal = multiclass_calibration(y, p, bins=8, strategy=strategy)
    right = np.argmax(p, axis=1) == y
    prob_true, prob_pred = calibration_curve(right, p.max(axis=1), n_bins=8, strategy=strategy)
    full = [b for b in cal.bins if b.n > 0]
    assert [b.observed for b in full] == pytest.approx(prob_true, rel=1e-12)
    assert [b.mean_score for b in full] == pytest.approx(prob_pred, rel=1e-12)
    assert cal.top_label


def test_multiclass_rows_that_are_not_probabilities_are_undefined():
    y = np.array([0, 1, 2])
    rows = np.array([[0.5, 0.3, 0.1], [0.2, 0.7, 0.1], [0.1, 0.1, 0.8]])  # the first sums to 0.9
    cal = multiclass_calibration(y, rows)
    assert cal.brier is None and cal.bins is None
    assert cal.undefined == "the score rows are not probabilities: row 1 sums to 0.9, not 1 (within 0.001)"
    logits = np.array([[2.0, -1.0, 0.5], [0.1, 0.2, 0.3], [0, 0, 1]])
    assert multiclass_calibration(y, logits).undefined.startswith(
        "the scores are not probabilities: they range over [-1, 2]")


# end to end: the spec, results.json, the report, gates, the verdict

def _run_spec(tmp: Path, extra: str = "", learners: str = "{a: a, b: b, margin: m, hard: {predicted: d}}",
              formats: str = "html, json") -> Path:
    """The spec of the calibration runs (``formats``: json alone for the tests that read results.json only)."""
    rng = np.random.default_rng(0)
    n = 300
    truth = rng.random(n)
    y = (rng.random(n) < truth).astype(int)
    a = np.round(truth, 2)  # calibrated
    b = np.round(truth ** 3, 3)  # the same ranking, badly calibrated
    m = np.round(np.log(truth / (1 - truth)), 3)  # logits
    d = (truth > 0.5).astype(int)
    lines = ["y,a,b,m,d"] + [f"{y[i]},{a[i]},{b[i]},{m[i]},{d[i]}" for i in range(n)]
    (tmp / "p.csv").write_text("\n".join(lines) + "\n")
    (tmp / "spec.yaml").write_text(textwrap.dedent(f"""\
        version: 1
        title: calibration
        date: 2026-11-25
        data:
          - path: p.csv
            label: y
            learners: {learners}
        report: {{formats: [{formats}], out: out}}
        """) + extra)
    return tmp / "spec.yaml"


def test_results_json_and_warnings(tmp_path):
    assert main(["run", str(_run_spec(tmp_path, "calibration: {bins: 5}\n", formats="json")), "--quiet"]) == 0
    data = json.loads((tmp_path / "out" / "results.json").read_text())
    a = data["learners"]["a"]
    assert set(a["calibration"]) == {"strategy", "bins"} and a["calibration"]["strategy"] == "uniform"
    bins = a["calibration"]["bins"]
    assert [(b["lo"], b["hi"]) for b in bins] == [(0.0, 0.2), (0.2, 0.4), (0.4, 0.6000000000000001),
                                                  (0.6000000000000001, 0.8), (0.8, 1.0)]
    assert set(bins[0]) == {"lo", "hi", "n", "mean_score", "observed", "interval"}
    assert sum(b["n"] for b in bins) == 300 and isinstance(bins[0]["n"], int)
    assert all(b["interval"][0] <= b["observed"] <= b["interval"][1] for b in bins)
    for key in ("brier", "log_loss", "ece"):
        assert isinstance(a[key], float)
        assert data["learners"]["margin"][key] is None and data["learners"]["hard"][key] is None
    assert data["learners"]["margin"]["calibration"] is None
    assert data["learners"]["b"]["ece"] > 0.1 > a["ece"]
    assert ("learner 'margin': the Brier score, log loss and ECE (and the reliability diagram) are undefined: "
            "the scores are not probabilities: they range over [-8.109, 5.879], outside [0, 1] (margins or "
            "logits?)") in data["warnings"]
    assert ("learner 'hard': the Brier score, log loss and ECE (and the reliability diagram) are undefined: "
            "hard decisions are not probabilities") in data["warnings"]


def test_quantile_strategy_from_the_spec(tmp_path):
    spec = _run_spec(tmp_path, "calibration: {bins: 4, strategy: quantile}\n", learners="{a: a}", formats="json")
    assert main(["run", str(spec), "--quiet"]) == 0
    data = json.loads((tmp_path / "out" / "results.json").read_text())
    a = np.array([float(r.split(",")[1]) for r in (tmp_path / "p.csv").read_text().split()[1:]])
    bins = data["learners"]["a"]["calibration"]["bins"]
    assert data["learners"]["a"]["calibration"]["strategy"] == "quantile"
    assert [b["lo"] for b in bins] + [bins[-1]["hi"]] == list(np.percentile(a, [0, 25, 50, 75, 100]))


def test_report_section_table_diagrams_and_verdict(tmp_path):
    assert main(["run", str(_run_spec(tmp_path)), "--quiet"]) == 0
    html = (tmp_path / "out" / "report.html").read_text()
    section = html[html.index('<section id="calibration">'):]
    section = section[:section.index("</section>")]
    assert "<h2>5. Calibration</h2>" in section
    assert "Brier score" in section and "log loss" in section and "ECE" in section
    # a diagram for each learner with probabilities, none for the margins or the decisions
    assert section.count('data-figure="reliability-') == 2
    # the margin's cells are undefined and marked; the note under the table says why
    row = section[section.index(">margin<"):]
    row = row[:row.index("</tr>")]
    assert row.count("undefined<sup class=\"mark\">") == 3
    assert "they range over [-8.109, 5.879], outside [0, 1]" in section
    # b shares the least cost with margin (0.2033 each) and is first by nothing alone: a tie
    # is no first place, so the verdict does not single b out (the next test has b first alone)
    data = json.loads((tmp_path / "out" / "results.json").read_text())
    costs = {k: data["learners"][k]["operating_point"]["min_cost"] for k in ("a", "b", "margin")}
    assert costs["b"] == costs["margin"] < costs["a"]
    verdict = html[html.index('id="verdict"'):html.index('id="provenance"')]
    assert "b ranks first" not in verdict
    low, high = evalreport.evaluate(evalreport.load_spec(_run_spec(tmp_path))).learners["b"].bootstrap["ece"]
    assert low > 0.05


def test_verdict_names_a_first_ranked_poorly_calibrated_learner(tmp_path):
    from evalreport.report.calibration import poor_calibration_sentences

    # b ranks above a (a knows only the quarter truth falls in), but is badly calibrated
    rng = np.random.default_rng(1)
    n = 400
    truth = rng.random(n)
    y = (rng.random(n) < truth).astype(int)
    a = np.floor(truth * 4) / 4 + 0.125  # each quarter's mean: calibrated
    b = (truth ** 4).round(4)
    (tmp_path / "p.csv").write_text("y,a,b\n" + "".join(f"{y[i]},{a[i]},{b[i]}\n" for i in range(n)))
    (tmp_path / "spec.yaml").write_text(textwrap.dedent("""\
        version: 1
        data:
          - path: p.csv
            label: y
            learners: {a: a, b: b}
        report: {formats: [html], out: out}
        """))
    result = evalreport.evaluate(evalreport.load_spec(tmp_path / "spec.yaml"))
    ece_a, ece_b = (result.learners[k].values["ece"] for k in "ab")
    assert ece_b > 0.05 and ece_a < ece_b
    (sentence,) = poor_calibration_sentences(result)
    assert sentence.startswith("b ranks first by AUC")
    low, high = result.learners["b"].bootstrap["ece"]
    assert low > 0.05  # b's scores are far from calibrated: its whole interval is above the cut
    assert (f"but its calibration is poor: ECE {ece_b:#.3g} [{low:.3f}, {high:.3f}], above 0.05 over the whole 95% "
            f"interval; a ({ece_a:#.3g}) calibrated better (the "
            "95% paired-bootstrap interval of the ECE difference excludes 0).") in sentence
    assert main(["run", str(tmp_path / "spec.yaml"), "--quiet"]) == 0
    assert "b ranks first by AUC" in (tmp_path / "out" / "report.html").read_text()


def test_gate_on_brier(tmp_path):
    spec = _run_spec(tmp_path, "gates:\n  - {learner: a, metric: brier, max: 0.3}\n"
                     "  - {learner: b, metric: brier, max: 0.001}\n", formats="json")
    assert main(["run", str(spec), "--quiet"]) == 3  # b's gate fails
    data = json.loads((tmp_path / "out" / "results.json").read_text())
    gates = {g["learner"]: g for g in data["gates"]}
    assert gates["a"]["passed"] and not gates["b"]["passed"]
    assert gates["a"]["value"] == data["learners"]["a"]["brier"]


def test_calibration_bins_below_two_is_a_spec_error(tmp_path, capsys):
    spec = _run_spec(tmp_path, "calibration: {bins: 1}\n")
    assert main(["run", str(spec), "--quiet"]) == 2
    assert capsys.readouterr().err.strip() == (
        f"error: {spec}:9: calibration.bins: Input should be greater than or equal to 2 (got 1)")
    assert not (tmp_path / "out").exists()


def test_multiclass_run(tmp_path):
    rng = np.random.default_rng(4)
    y, p = _probabilities(rng, 200, 3)
    logits = np.log(np.clip(p, 1e-3, 1))
    names = ["x", "y", "z"]
    rows = ["t,p0,p1,p2,l0,l1,l2"] + [f"{names[y[i]]},{','.join(map(str, p[i]))},{','.join(map(str, logits[i]))}"
                                     for i in range(y.size)]
    (tmp_path / "p.csv").write_text("\n".join(rows) + "\n")
    (tmp_path / "spec.yaml").write_text(textwrap.dedent("""\
        version: 1
        task: multiclass
        classes: [x, y, z]
        data:
          - path: p.csv
            label: t
            learners: {prob: [p0, p1, p2], logit: [l0, l1, l2]}
        report: {formats: [html, json], out: out}
        """))
    assert main(["run", str(tmp_path / "spec.yaml"), "--quiet"]) == 0
    data = json.loads((tmp_path / "out" / "results.json").read_text())
    prob = data["learners"]["prob"]
    assert prob["brier"] == pytest.approx(brier_score_loss(y, p, labels=[0, 1, 2]), rel=1e-12)
    assert prob["log_loss"] == pytest.approx(log_loss(y, p, labels=[0, 1, 2]), rel=1e-12)
    assert len(prob["calibration"]["bins"]) == 10
    assert data["learners"]["logit"]["brier"] is None and data["learners"]["logit"]["calibration"] is None
    assert any(w.startswith("learner 'logit': the Brier score, log loss and ECE (and the reliability diagram) "
                            "are undefined: the scores are not probabilities") for w in data["warnings"])
    html = (tmp_path / "out" / "report.html").read_text()
    assert "<h2>5. Calibration</h2>" in html and "top label" in html


def test_duckdb_aggregation_gives_the_in_memory_calibration(tmp_path):
    import duckdb  # noqa: F401
    spec = _run_spec(tmp_path, learners="{a: a, b: b}")
    memory = evalreport.evaluate(evalreport.load_spec(spec))
    spec.write_text(spec.read_text().replace("    label: y\n", "    label: y\n    engine: duckdb\n"))
    duck = evalreport.evaluate(evalreport.load_spec(spec))
    for k in ("a", "b"):
        m, d = memory.learners[k].calibration, duck.learners[k].calibration
        assert d.brier == pytest.approx(m.brier, rel=1e-12) and d.log_loss == pytest.approx(m.log_loss, rel=1e-12)
        assert d.ece == pytest.approx(m.ece, rel=1e-12)
        assert [b.n for b in d.bins] == [b.n for b in m.bins]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 40), st.integers(0, 3), st.integers(0, 3)), min_size=1, max_size=60),
       st.integers(2, 12), st.sampled_from(["uniform", "quantile"]), st.booleans())
def test_the_count_tables_runs_give_the_searched_bins(rows, bins, strategy, weighted):
    """A count table's scores are sorted descending: each bin is a run of them
    (reliability_bins(descending=True)), the same bins as a search per score."""
    from evalreport.metrics.calibration import bin_edges, reliability_bins

    by_score = {}
    for k, a, b in rows:
        pa, pb = by_score.get(k, (0.0, 0.0))
        by_score[k] = (pa + a * (0.37 if weighted else 1), pb + b)
    keys = sorted(by_score, reverse=True)
    s = np.array([k / 40 for k in keys])
    p = np.array([by_score[k][0] for k in keys])
    q = np.array([by_score[k][1] for k in keys])
    if not (p + q).sum() > 0:
        return
    edges = bin_edges(s, p + q, bins, strategy, counts=False)
    searched = reliability_bins(s, p, q, edges, 0.95)
    runs = reliability_bins(s, p, q, edges, 0.95, descending=True)
    for a, b in zip(searched, runs):
        assert (a.lo, a.hi) == (b.lo, b.hi) and b.n == pytest.approx(a.n, rel=1e-12)
        if a.n > 0:
            assert (b.mean_score, b.observed) == pytest.approx((a.mean_score, a.observed), rel=1e-12)
        else:
            assert b.mean_score is None and b.observed is None


def test_calibration_is_called_poor_only_when_the_whole_interval_is_above_the_cut():
    from evalreport.report.calibration import _poor

    assert _poor(0.2, (0.12, 0.31), "95%") == ("its calibration is poor: ECE 0.200 [0.120, 0.310], above 0.05 over "
                                               "the whole 95% interval")
    assert _poor(0.06, (0.03, 0.09), "95%") == ("its calibration may be poor: ECE 0.0600 [0.0300, 0.0900], whose 95% "
                                                "interval holds 0.05")
    assert _poor(0.06, None, "95%").endswith("(above 0.05; no interval computed)")


def test_a_lower_ece_without_a_paired_bootstrap_says_what_the_test_needs(tmp_path):
    # the multi-class task resamples no ECE, whatever its bootstrap: the sentence once blamed
    # "confidence.bootstrap is 0, or the data are weighted" in a run with 2,000 resamples
    from evalreport.report.calibration import ECE_UNTESTED, poor_calibration_sentences

    rng = np.random.default_rng(4)
    n = 300
    y = rng.integers(0, 3, n)
    sharp = np.full((n, 3), 0.02)
    sharp[np.arange(n), y] = 0.96  # right every time: ranks first
    soft = sharp * 0.2 + 0.8 / 3  # the same order, scores pulled to the middle: poorly calibrated
    noisy = rng.dirichlet([1, 1, 1], n)
    noisy[np.arange(n), y] += 0.3
    noisy /= noisy.sum(axis=1, keepdims=True)
    result = evalreport.from_predictions(y, {"soft": soft, "noisy": noisy}, confidence={"bootstrap": 50})
    result = result.with_intervals()  # (from_predictions defers the bootstrap)
    eces = {k: lr.values.get("ece") for k, lr in result.learners.items()}
    assert eces["soft"] > 0.05 and eces["noisy"] < eces["soft"]  # by construction
    sentences = [s for s in poor_calibration_sentences(result) if s.startswith("soft ranks first")]
    assert sentences and f"has a lower ECE, not tested ({ECE_UNTESTED})" in sentences[0]
    assert "confidence.bootstrap is 0," not in sentences[0]
