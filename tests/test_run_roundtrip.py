"""Spec -> results.json for small cases whose numbers are known by hand."""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path

import pytest

import evalreport
from evalreport.__main__ import main

ROOT = Path(__file__).resolve().parents[1]
WATERMELON = ROOT / "examples" / "watermelon"


@pytest.fixture
def melon(tmp_path):
    """The watermelon example copied to a scratch folder."""
    for name in ("spec.yaml", "predictions.csv"):
        shutil.copy(WATERMELON / name, tmp_path / name)
    return tmp_path


def _run(spec: Path, *args) -> tuple[int, dict | None]:
    # results.json alone: what these tests read (a run with the HTML and PDF writes the
    # same results.json, tests/test_render_speed.py; the PDF would take seconds)
    status = main(["run", str(spec), "--quiet", "--format", "json", *args])
    out = spec.parent / "reports" / "results.json"
    return status, (json.loads(out.read_text()) if out.exists() else None)


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


@pytest.mark.slow
def test_watermelon_numbers_from_the_notes(melon):
    status, d = _run(melon / "spec.yaml")
    assert status == 0
    a, b = d["learners"]["A"], d["learners"]["B"]
    # The seeds: AUC 0.64 / 0.32, rank loss 0.36 / 0.68, BEP 0.6 / 0.2.
    assert (a["auc"], a["rank_loss"], a["bep"]) == (0.64, 0.36, 0.6)
    assert (b["auc"], b["rank_loss"], b["bep"]) == (0.32, 0.68, 0.2)
    # A at threshold 0.5 predicts N1 P1 P2 P3 N2 N3 positive: TP 3, FP 3, TN 2, FN 2.
    assert a["confusion"] == {"tp": 3, "fp": 3, "tn": 2, "fn": 2}
    assert a["precision"] == 0.5 and a["recall"] == 0.6 and a["error_rate"] == 0.5
    assert a["f1"] == pytest.approx(2 * 3 / (2 * 3 + 3 + 2))
    assert a["fbeta"]["2"] == pytest.approx(5 * 3 / (5 * 3 + 4 * 2 + 3))
    # Cost curve of A, by hand: hull (0,0) (0.2,0.6) (0.6,1) (1,1); lines PC,
    # 0.2 + 0.2 PC, 0.6 (1 - PC); breaks at 0.25 and 0.5; area 0.175.
    assert a["curves"]["cost"]["pc"] == pytest.approx([0, 0.25, 0.5, 1])
    assert a["curves"]["cost"]["cost"] == pytest.approx([0, 0.25, 0.3, 0])
    assert a["expected_total_cost"] == pytest.approx(0.175)
    assert d["operating_point"] == {"p_positive": 0.5, "p_positive_source": "observed",
                                    "cost_fn": 1.0, "cost_fp": 1.0, "pc_positive": 0.5}
    assert d["inputs"][0]["rows"] == 10 and len(d["inputs"][0]["sha256"]) == 64
    assert d["date"] == "2026-11-22"
    # A and B disagree on 2 melons: McNemar's exact binomial test, p = 2 * 1/4
    assert d["comparisons"]["mcnemar"] == [{"a": "A", "b": "B", "e01": 0, "e10": 2, "method": "exact",
                                            "statistic": None, "p_value": 0.5, "p_holm": 0.5}]
    assert d["warnings"] == []
    # ROC of A keeps only its vertices (points on straight runs dropped)
    assert a["curves"]["roc"]["fpr"] == pytest.approx([0, 0.2, 0.2, 0.6, 0.6, 1])
    assert a["curves"]["roc"]["tpr"] == pytest.approx([0, 0, 0.6, 0.6, 1, 1])
    assert a["curves"]["roc"]["threshold"][0] is None  # +inf: nothing predicted positive


@pytest.mark.slow
def test_priors_costs_and_optimal_threshold(melon):
    _edit(melon / "spec.yaml", "threshold: 0.5\ncosts: {false_negative: 1, false_positive: 1}",
          "threshold: optimal\npriors: {positive: 0.1}\ncosts: {false_negative: 5, false_positive: 1}")
    status, d = _run(melon / "spec.yaml")
    assert status == 0
    pc = 0.1 * 5 / (0.1 * 5 + 0.9 * 1)
    assert d["operating_point"]["pc_positive"] == pytest.approx(pc)
    a = d["learners"]["A"]
    # At PC = 0.357 the envelope of A is the line 0.2 + 0.2 PC of the vertex
    # (FPR 0.2, TPR 0.6), reached at threshold 0.7 (A's third-highest score).
    assert a["operating_point"]["min_cost"] == pytest.approx(0.2 + 0.2 * pc)
    assert a["threshold"] == 0.7 and a["threshold_source"] == "optimal"
    assert a["confusion"] == {"tp": 3, "fp": 1, "tn": 4, "fn": 2}
    assert a["cost_sensitive_error"] == pytest.approx((2 * 5 + 1 * 1) / 10)


@pytest.mark.slow
def test_gate_failure_writes_report_and_exits_3(melon):
    _edit(melon / "spec.yaml", "fbeta: [0.5, 2]", "fbeta: [0.5, 2]\ngates:\n  - {metric: auc, min: 0.5}")
    status, d = _run(melon / "spec.yaml")
    assert status == 3
    assert d["gates"] == [
        # A is above its bound, but DeLong's interval of 4 positives reaches below it
        {"learner": "A", "metric": "auc", "value": 0.64, "min": 0.5, "interval": d["gates"][0]["interval"],
         "outcome": "inconclusive", "passed": False},
        {"learner": "B", "metric": "auc", "value": 0.32, "min": 0.5, "interval": d["gates"][1]["interval"],
         "outcome": "fail", "passed": False},
    ]
    assert d["gates"][0]["interval"][0] < 0.5


@pytest.mark.slow
def test_strict_turns_warnings_into_status_3(melon, capsys):
    _edit(melon / "spec.yaml", "threshold: 0.5", "threshold: 2")  # nothing predicted positive
    status, d = _run(melon / "spec.yaml")
    assert status == 0
    assert d["learners"]["A"]["precision"] is None
    assert "learner 'A': precision at threshold 2.00 is undefined: nothing is predicted positive at " \
           "the threshold" in d["warnings"]
    status, _ = _run(melon / "spec.yaml", "--strict")
    assert status == 3


@pytest.mark.slow
def test_source_date_epoch_and_byte_identical_runs(melon, monkeypatch):
    _edit(melon / "spec.yaml", "date: 2026-11-22\n", "")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    _run(melon / "spec.yaml")
    first = (melon / "reports" / "results.json").read_bytes()
    _run(melon / "spec.yaml")
    assert (melon / "reports" / "results.json").read_bytes() == first
    assert json.loads(first)["date"] == "2023-11-14"


@pytest.mark.slow
def test_out_option_and_python_api(melon, tmp_path):
    spec = evalreport.load_spec(melon / "spec.yaml")
    result = evalreport.evaluate(spec)
    assert result.learners["A"].summary.auc == 0.64
    written = evalreport.render(result, out=tmp_path / "elsewhere", formats=["json"])
    assert written["json"] == tmp_path / "elsewhere" / "results.json"
    assert main(["run", str(melon / "spec.yaml"), "--out", str(tmp_path / "cli"), "--quiet", "--format", "json"]) == 0
    assert (tmp_path / "cli" / "results.json").read_bytes() == written["json"].read_bytes()
    with pytest.raises(evalreport.SpecError):
        evalreport.load_spec(tmp_path / "missing.yaml")


def test_weights_and_hard_decisions(tmp_path):
    # Hand case: positives scores 0.9 (w 2), 0.4 (w 1); negatives 0.6 (w 3), 0.1 (w 1).
    (tmp_path / "p.csv").write_text("y,s,w,d\n1,0.9,2,1\n1,0.4,1,0\n0,0.6,3,1\n0,0.1,1,0\n")
    (tmp_path / "spec.yaml").write_text(textwrap.dedent("""\
        version: 1
        data:
          - path: p.csv
            label: y
            weight: w
            learners: {s: s, rules: {predicted: d}}
        report: {formats: [json], out: reports}
        """))
    status, d = _run(tmp_path / "spec.yaml")
    assert status == 0
    s, rules = d["learners"]["s"], d["learners"]["rules"]
    assert (s["positives"], s["negatives"]) == (3.0, 4.0)
    # pairs (w+ w-): (0.9,0.6) 2*3 right, (0.9,0.1) 2*1 right, (0.4,0.6) 1*3 wrong, (0.4,0.1) 1*1 right
    assert s["auc"] == pytest.approx((6 + 2 + 1) / 12)
    # at 0.5: TP = 2 (0.9), FP = 3 (0.6)
    assert s["confusion"] == {"tp": 2.0, "fp": 3.0, "tn": 1.0, "fn": 1.0}
    assert rules["confusion"] == {"tp": 2.0, "fp": 3.0, "tn": 1.0, "fn": 1.0}
    assert rules["auc"] is None and "curves" not in rules
    assert any("'rules' gives hard decisions only" in w for w in d["warnings"])


@pytest.mark.slow
def test_progress_is_silent_when_not_a_terminal(melon, capsys):
    assert main(["run", str(melon / "spec.yaml")]) == 0
    captured = capsys.readouterr()
    # no progress lines: stderr holds the run's warnings, as results.json lists them, and the verdict last
    data = json.loads((melon / "reports" / "results.json").read_text())
    assert captured.err.splitlines()[:-1] == [f"warning: {w}" for w in data["warnings"]]
    assert captured.err.splitlines()[-1].startswith(f"verdict: {data['verdict']['status']} (")
    assert captured.out.startswith("wrote ")


def test_init_writes_a_spec_that_validates_against_its_data(tmp_path, capsys):
    assert main(["init", str(tmp_path)]) == 0
    (tmp_path / "predictions.csv").write_text("y,p_logistic\n1,0.9\n0,0.2\n1,0.6\n0,0.7\n")
    assert main(["validate", str(tmp_path / "evalreport.yaml")]) == 0
    assert main(["init", str(tmp_path)]) == 2  # never overwrites


def test_schema_lists_every_key():
    from evalreport.spec import json_schema

    schema = json_schema()
    assert set(schema["properties"]) == {
        "version", "title", "description", "date", "task", "positive", "classes", "data",
        "threshold", "priors", "costs", "metrics", "fbeta", "partial_auc", "thresholds", "compare",
        "confidence", "calibration", "gates", "history", "report", "spark", "deployed", "rank_by"}
    # the metric names are the registry's, in its order (results.json's)
    from evalreport import registry

    assert schema["$defs"]["MetricName"]["enum"] == list(registry.metric_names())
    assert {"error_rate", "auc", "confusion_matrix", "macro"} <= set(schema["$defs"]["MetricName"]["enum"])
