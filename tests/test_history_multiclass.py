"""History for a multi-class task, end to end: two weekly runs of a small seeded
three-class data set through ``evalreport run`` (the real archive and changes),
the second with one class's scores shifted and other class shares.

Checked against independent computations on the raw CSV columns: each class's
score summary (numpy), the KS distance (scipy's ks_2samp), the PSI by hand over
the previous run's deciles, the accuracy's two-proportion z test, and the class
balance's chi-squared test (scipy's chi2_contingency without correction)."""

from __future__ import annotations

import datetime as dt
import json
import math
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from evalreport.__main__ import main
from evalreport.errors import SpecError
from evalreport.history.changes import changes, chi2_homogeneity
from evalreport.history.gates import change_gates
from evalreport.metrics.score_summary import column_scores
from evalreport.counting.table import CountTable
from evalreport.spec.models import Gate

CLASSES = ("a", "b", "c")

SPEC = """\
version: 1
title: weekly wine
task: multiclass
classes: [a, b, c]
data:
  - path: week.csv
    label: y
    learners:
      m: [m_a, m_b, m_c]
confidence: {bootstrap: 200, seed: 0}
history: {dir: hist, keep: 4}
gates:
  - {metric: accuracy, max_drop: 0.5}
  - {metric: f1, significant_drop: true}
  - {drift: psi, max: 0.25}
report: {formats: [json, html]}
"""


def _week(path: Path, seed: int, shares, shift: float) -> np.ndarray:
    """400 rows of three classes drawn with ``shares``; the learner's scores are a
    softmax of noisy logits, with ``shift`` added to class a's logit (every row)."""
    rng = np.random.default_rng(seed)
    y = rng.choice(3, size=400, p=shares)
    logits = rng.normal(0.0, 1.0, (400, 3))
    logits[np.arange(400), y] += 1.5
    logits[:, 0] += shift
    p = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    p = np.round(p, 4)
    lines = ["y,m_a,m_b,m_c"] + [f"{CLASSES[t]},{u:.4f},{v:.4f},{w:.4f}" for t, (u, v, w) in zip(y, p)]
    path.write_text("\n".join(lines) + "\n")
    return p, y


@pytest.fixture(scope="module")
def weeks(tmp_path_factory):
    folder = tmp_path_factory.mktemp("mc")
    (folder / "spec.yaml").write_text(SPEC)
    mp = pytest.MonkeyPatch()
    statuses, results, raw = [], [], []
    try:
        for day, seed, shares, shift in ((2, 1, (0.5, 0.3, 0.2), 0.0), (9, 2, (0.3, 0.4, 0.3), 1.5)):
            raw.append(_week(folder / "week.csv", seed, shares, shift))
            epoch = int(dt.datetime(2026, 11, day, 6, tzinfo=dt.timezone.utc).timestamp())
            mp.setenv("SOURCE_DATE_EPOCH", str(epoch))
            out = folder / "reports" / f"2026-11-{day:02d}"
            statuses.append(main(["run", str(folder / "spec.yaml"), "--quiet", "--out", str(out)]))
            results.append(json.loads((out / "results.json").read_text()))
    finally:
        mp.undo()
    return folder, statuses, results, raw


@pytest.mark.slow
def test_results_json_keeps_each_class_count_and_score_column(weeks):
    _, _, results, raw = weeks
    for r, (p, y) in zip(results, raw):
        block = r["learners"]["m"]
        assert block["class_counts"] == {c: float(np.sum(y == i)) for i, c in enumerate(CLASSES)}
        for i, c in enumerate(CLASSES):
            s = block["score_summary"][c]
            values, counts = np.unique(p[:, i], return_counts=True)
            assert s["kind"] == "values"
            assert s["values"] == pytest.approx(values.tolist(), abs=0)
            assert s["weights"] == counts.tolist()


def test_column_scores_is_the_whole_column_of_a_one_vs_rest_table():
    # class c's column 0.9, 0.5, 0.5, 0.2 (positives 0.9 and 0.2): both classes together
    table = CountTable(threshold=np.array([0.9, 0.5, 0.2]), tp=np.array([0, 1, 1, 2]), fp=np.array([0, 0, 2, 2]),
                       n_rows=4)
    s = column_scores(table)
    assert (s.kind, s.values.tolist(), s.weights.tolist()) == ("values", [0.2, 0.5, 0.9], [1, 2, 1])
    assert column_scores(CountTable(threshold=np.array([]), tp=np.array([0]), fp=np.array([0]), n_rows=0)) is None


def test_drift_per_learner_and_class_against_scipy_and_by_hand(weeks):
    _, statuses, results, raw = weeks
    drift = results[1]["history"]["drift"]
    assert [(d["learner"], d["class"]) for d in drift] == [("m", c) for c in CLASSES]
    (p1, _), (p2, _) = raw
    for i, d in enumerate(drift):
        assert d["ks"] == pytest.approx(stats.ks_2samp(p1[:, i], p2[:, i]).statistic, abs=1e-12)
        # PSI by hand: bins (edge_{k-1}, edge_k] at the previous column's inverted-CDF deciles
        edges = np.unique(np.quantile(p1[:, i], np.arange(1, 10) / 10, method="inverted_cdf"))
        cut = lambda x: np.bincount(np.searchsorted(edges, x, side="left"), minlength=edges.size + 1) / x.size  # noqa: E731
        e, a = np.maximum(cut(p1[:, i]), 1e-4), np.maximum(cut(p2[:, i]), 1e-4)
        assert d["psi"] == pytest.approx(float(np.sum((a - e) * np.log(a / e))), rel=1e-9)
        assert "of the " + CLASSES[i] + " score column" in d["method"]
    assert drift[0]["psi"] > 0.25 and drift[0]["label"] == "major shift"


def test_balance_and_accuracy_change(weeks):
    _, _, results, raw = weeks
    (_, y1), (_, y2) = raw
    history = results[1]["history"]
    balance = history["balance"]
    table = [[np.sum(y == i) for i in range(3)] for y in (y1, y2)]
    ref = stats.chi2_contingency(table, correction=False)
    assert balance["method"] == "chi2_homogeneity" and balance["df"] == 2
    assert balance["statistic"] == pytest.approx(ref.statistic, rel=1e-12)
    assert balance["p_value"] == pytest.approx(ref.pvalue, rel=1e-9)
    assert balance["previous"] == {c: pytest.approx(np.mean(y1 == i)) for i, c in enumerate(CLASSES)}
    assert balance["change"]["a"] == pytest.approx(np.mean(y2 == 0) - np.mean(y1 == 0))

    rows = {r["measure"]: r for r in history["changes"]}
    assert set(rows) == {"accuracy", "macro_f1"}
    acc = rows["accuracy"]
    cm = [np.asarray(r["learners"]["m"]["confusion_matrix"], dtype=float) for r in results]
    (x1, n1), (x2, n2) = ((np.trace(c), c.sum()) for c in cm)
    pooled = (x1 + x2) / (n1 + n2)
    z = (x2 / n2 - x1 / n1) / math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    assert acc["method"] == "two_proportion_z"
    assert acc["change"] == pytest.approx(x2 / n2 - x1 / n1)
    assert acc["p_value"] == pytest.approx(2 * stats.norm.sf(abs(z)), rel=1e-9)
    assert rows["macro_f1"]["method"] == "intervals" and rows["macro_f1"]["interval"] is not None


def test_the_drift_gate_fails_with_exit_3_naming_the_class(weeks):
    _, statuses, results, _ = weeks
    assert statuses == [0, 3]
    first = [g for g in results[0]["gates"] if "drift_since" in g]
    assert first[0]["outcome"] == "not_evaluated" and not first[0]["passed"]
    assert first[0]["note"] == "no previous run to compare with"
    gates = {g.get("metric"): g for g in results[1]["gates"]}
    psi = gates["psi"]
    worst = max(results[1]["history"]["drift"], key=lambda d: d["psi"])
    assert (psi["passed"], psi["value"], psi["class"]) == (False, worst["psi"], "a")
    assert gates["accuracy"]["passed"] and gates["accuracy"]["value"] == pytest.approx(
        next(r["change"] for r in results[1]["history"]["changes"] if r["measure"] == "accuracy"))


def test_the_report_has_the_section_per_class_and_the_trend(weeks):
    folder, _, _, _ = weeks
    html = (folder / "reports" / "2026-11-09" / "report.html").read_text()
    assert "Since the last run" in html and 'data-figure="trend"' in html
    assert "<th scope=\"col\">class</th>" in html
    assert "Class balance (share of each class, then and now): a 0.525 → 0.320 (-0.205); b 0.285 → 0.390" in html
    assert "Pearson's chi-squared test of homogeneity of the two runs' class counts: p &lt; 0.001" in html
    assert "The scores of m for class a drifted since the last run (2026-11-02): PSI 0.365" in html
    assert "Accuracy and macro-F1 over the 2 kept runs (from 2026-11-02)" in html
    assert "positive share" not in html


def test_trend_runs_hold_accuracy_and_macro_f1_with_intervals(weeks):
    _, _, results, _ = weeks
    runs = results[1]["history"]["runs"]
    assert [r["date"] for r in runs] == ["2026-11-02", "2026-11-09"]
    values = runs[1]["values"]["m"]
    block = results[1]["learners"]["m"]
    assert values["accuracy"] == block["accuracy"] and values["macro_f1"] == block["macro"]["f1"]
    assert values["accuracy_ci"] == block["bootstrap"]["accuracy"]
    assert values["macro_f1_ci"] == block["bootstrap"]["macro_f1"]


def test_chi2_homogeneity_leaves_out_a_class_absent_from_both_runs():
    t = chi2_homogeneity({"a": 10, "b": 20, "c": 0}, {"a": 15, "b": 15, "c": 0})
    ref = stats.chi2_contingency([[10, 20], [15, 15]], correction=False)
    assert (t["df"], t["note"]) == (1, "not in either run, left out of the test: c")
    assert t["p_value"] == pytest.approx(ref.pvalue, rel=1e-12)
    empty = chi2_homogeneity({"a": 0, "b": 0}, {"a": 3, "b": 4})
    assert (empty["p_value"], empty["note"]) == (None, "the previous run has no instances")


def test_a_multiclass_change_gate_on_auc_is_refused(tmp_path):
    (tmp_path / "week.csv").write_text("y,m_a,m_b,m_c\na,0.6,0.3,0.1\nb,0.2,0.7,0.1\nc,0.1,0.2,0.7\n")
    (tmp_path / "spec.yaml").write_text(SPEC.replace("{metric: accuracy, max_drop: 0.5}",
                                                     "{metric: auc, max_drop: 0.5}"))
    from evalreport.spec import load_spec

    with pytest.raises(SpecError) as e:
        load_spec(tmp_path / "spec.yaml")
    assert ("the change since the previous run is not computed for auc for a multiclass task; a gate on "
            "max_drop takes one of accuracy, f1") in str(e.value)


def test_drift_gate_of_a_learner_with_an_undefined_class_fails():
    history = {"previous": {"date": "2026-11-02"}, "changes": [],
               "drift": [{"learner": "m", "class": "a", "psi": 0.01, "ks": 0.1},
                         {"learner": "m", "class": "b", "psi": None, "ks": None}]}
    rows, warnings = change_gates([Gate(drift="psi", max=0.25)], [("m", "m")], history, level=0.95)
    assert (rows[0]["value"], rows[0]["passed"], rows[0]["class"]) == (None, False, None)
    assert warnings[0][0] == "gate on the drift (psi) of the scores of learner 'm' fails: the value is undefined"


def test_changes_of_multiclass_runs_without_summaries_say_why():
    run = {"task": "multiclass", "learners": {"m": {"accuracy": 0.5, "class_counts": {"a": 2, "b": 2}}}}
    c = changes(run, run)
    assert [(d["class"], d["note"]) for d in c["drift"]] == [
        ("a", "the previous run's results.json has no score_summary"),
        ("b", "the previous run's results.json has no score_summary")]


def test_diff_prints_the_classes_and_names_the_drifted_one(weeks, capsys):
    folder, _, _, _ = weeks
    old, new = (str(folder / "reports" / d / "results.json") for d in ("2026-11-02", "2026-11-09"))
    assert main(["diff", old, new, "--gate", "psi:max=0.25"]) == 3
    out, err = capsys.readouterr()
    assert "learner  class  PSI     PSI convention  KS" in out
    assert "class balance: a 0.525 -> 0.32; b 0.285 -> 0.39; c 0.19 -> 0.29 (chi-squared test of homogeneity" in out
    assert err.splitlines()[0].startswith("gate failed: psi:max=0.25 (learner m, class a: 0.3654")
