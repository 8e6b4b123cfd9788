"""History in a run: the gates on change (max_drop, significant_drop, drift), the
results.json ``history`` block, the "Since the last run" section with its trend
figure, and the run stored in the archive once the report is written.

The comparisons (evalreport.history.changes) and the archive
(evalreport.history.archive) are tested in their own files; here small stand-ins
of the INTERFACES take their place, so that what is tested is this layer: the
pipeline, the gates, results.json and the report."""

from __future__ import annotations

import hashlib
import json
import sys
import textwrap
import types
from pathlib import Path

import numpy as np
import pytest

from evalreport.__main__ import main
from evalreport.history.gates import NO_PREVIOUS, change_gates
from evalreport.spec.models import Gate

SPEC = """\
version: 1
title: weekly
data:
  - path: week.csv
    label: y
    learners:
      a: p_a
      b: p_b
confidence: {bootstrap: 0}
report: {formats: [json], out: out}
"""


def _week(path: Path, seed: int, noise: float) -> None:
    """400 rows: a learner ``a`` whose scores blur with ``noise``; ``b`` steady."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, 400)
    a = np.clip(y * 0.6 + rng.normal(0.2, noise, 400), 0, 1)
    b = np.clip(y * 0.5 + rng.normal(0.25, 0.2, 400), 0, 1)
    lines = ["y,p_a,p_b"] + [f"{t},{u:.4f},{v:.4f}" for t, u, v in zip(y, a, b)]
    path.write_text("\n".join(lines) + "\n")


# --- stand-ins of evalreport.history.changes and evalreport.history.archive --------

def _fake_changes(previous: dict, current: dict, *, level: float = 0.95) -> dict:
    """The item-2 shape: the AUC's change of each learner in both runs, its p-value
    0.001 when it moved by more than 0.05 (else 0.5); a PSI of 0.4 for a learner whose
    AUC moved that much (else 0.02)."""
    out = {"previous": {"date": previous["date"], "title": previous["title"]}, "changes": [], "drift": [],
           "balance": {"previous": 0.5, "current": 0.5, "change": 0.0, "p_value": 1.0}}
    for key, block in current["learners"].items():
        old = previous["learners"].get(key)
        if old is None:
            out["changes"].append({"learner": key, "measure": "auc", "previous": None, "current": block["auc"],
                                   "change": None, "p_value": None, "interval": None, "method": "",
                                   "note": "not in the previous run"})
            continue
        change = block["auc"] - old["auc"]
        moved = abs(change) > 0.05
        out["changes"].append({"learner": key, "measure": "auc", "previous": old["auc"], "current": block["auc"],
                               "change": change, "p_value": 0.001 if moved else 0.5,
                               "p_holm": 0.002 if moved else 1.0, "interval": None,
                               "method": "DeLong (unpaired)"})
        out["drift"].append({"learner": key, "psi": 0.4 if moved else 0.02, "psi_bins": 10, "ks": 0.3,
                             "method": "stand-in"})
    return out


def _fake_archive() -> types.ModuleType:
    mod = types.ModuleType("evalreport.history.archive")

    def store(folder, date, results_bytes, *, keep):
        target = Path(folder) / date
        target.mkdir(parents=True, exist_ok=True)
        (target / "results.json").write_bytes(results_bytes)

    class Runs(list):  # the archive's: the runs, and warnings about entries left out
        warnings: list = []

    def runs(folder):
        folder = Path(folder)
        if not folder.is_dir():
            return Runs()
        return Runs((p.name, json.loads((p / "results.json").read_text())) for p in sorted(folder.iterdir()))

    def previous(folder, date, archived=None):
        before = [r for r in (runs(folder) if archived is None else archived) if r[0] < date]
        return before[-1] if before else None

    def entry_sha256(folder, name):  # the chain of audits (issue 37)
        return hashlib.sha256((Path(folder) / name / "results.json").read_bytes()).hexdigest()

    def fate(folder, date, keep):  # what storing will do beyond adding the run: nothing to say here
        return []

    mod.store, mod.runs, mod.previous, mod.entry_sha256, mod.fate = store, runs, previous, entry_sha256, fate
    return mod


@pytest.fixture
def stand_ins(monkeypatch):
    """The two modules of the other parts, where they are not (yet) in the package."""
    changes = types.ModuleType("evalreport.history.changes")
    changes.changes = _fake_changes
    changes.CONVENTIONS = {"psi": (0.1, 0.25)}
    changes.drift_label = lambda psi: "major" if psi > 0.25 else ("moderate" if psi >= 0.1 else "none")
    monkeypatch.setitem(sys.modules, "evalreport.history.changes", changes)
    monkeypatch.setitem(sys.modules, "evalreport.history.archive", _fake_archive())


def _spec_with_history(tmp_path, gates, monkeypatch):
    """load_spec as the CLI calls it, returning the spec with history: {dir: hist}
    and ``gates`` (the key history: is the archive part's model: set here so that
    this file tests the pipeline whether or not that model is in)."""
    import evalreport.spec as spec_module

    real = spec_module.load_spec

    def load(path):
        spec = real(path)
        options = types.SimpleNamespace(dir="hist", keep=52)
        return spec.model_copy(update={"history": options, "gates": [Gate(**g) for g in gates]})

    monkeypatch.setattr(spec_module, "load_spec", load)
    (tmp_path / "spec.yaml").write_text(SPEC)
    return tmp_path / "spec.yaml"


def _run_week(tmp_path, spec, date, seed, noise, monkeypatch, capsys, formats="json"):
    _week(tmp_path / "week.csv", seed, noise)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(int(np.datetime64(date, "s").astype(int))))
    status = main(["run", str(spec), "--quiet", "--format", formats, "--out", str(tmp_path / "out" / date)])
    err = capsys.readouterr().err
    data = json.loads((tmp_path / "out" / date / "results.json").read_text())
    return status, err, data


GATES = [{"learner": "a", "metric": "auc", "max_drop": 0.05}, {"metric": "auc", "significant_drop": True},
         {"drift": "psi", "max": 0.25}]


@pytest.mark.slow
def test_gates_on_change_fail_with_exit_status_3(tmp_path, stand_ins, monkeypatch, capsys):
    spec = _spec_with_history(tmp_path, GATES, monkeypatch)
    status, err, first = _run_week(tmp_path, spec, "2026-11-02", 1, 0.15, monkeypatch, capsys)
    # the first run: nothing to compare with; every gate on change passes, and says why
    assert status == 0, err
    assert first["history"]["previous"] is None and first["history"]["changes"] == []
    assert [g["note"] for g in first["gates"]] == [NO_PREVIOUS] * 5
    assert all(g["outcome"] == "not_evaluated" and not g["passed"] and g["value"] is None for g in first["gates"])
    assert (tmp_path / "hist" / "2026-11-02" / "results.json").is_file()  # stored once written
    # a steady week: the changes are noise, the gates pass
    status, err, second = _run_week(tmp_path, spec, "2026-11-09", 2, 0.15, monkeypatch, capsys)
    assert status == 0, err
    assert second["history"]["previous"] == {"date": "2026-11-02", "title": "weekly"}
    assert [r["date"] for r in second["history"]["runs"]] == ["2026-11-02", "2026-11-09"]
    # learner a's scores blur: its AUC falls, significantly, and its scores drift
    # (the report read only of this week's run: the weeks before write results.json alone)
    status, err, third = _run_week(tmp_path, spec, "2026-11-16", 3, 0.6, monkeypatch, capsys, "json,html")
    assert status == 3
    a_auc = third["learners"]["a"]["auc"]
    drop = a_auc - second["learners"]["a"]["auc"]
    assert drop < -0.05
    failed = [g for g in third["gates"] if not g["passed"]]
    assert failed == [
        {"learner": "a", "metric": "auc", "change_since": "2026-11-09", "value": drop, "max_drop": 0.05,
         "interval": None, "outcome": "fail", "passed": False},
        {"learner": "a", "metric": "auc", "change_since": "2026-11-09", "p_value": 0.001, "p_holm": 0.002,
         "value": drop, "significant_drop": True, "interval": None, "outcome": "fail", "passed": False},
        {"learner": "a", "metric": "psi", "drift_since": "2026-11-09", "value": 0.4, "max": 0.25,
         "interval": None, "outcome": "fail", "passed": False},
    ]
    lines = [line for line in err.splitlines() if line.startswith("gate failed")]
    assert lines == [
        f"gate failed: a: auc change since 2026-11-09 = {drop:.6g} (needs max_drop 0.05)",
        f"gate failed: a: auc change since 2026-11-09 = {drop:.6g}, p = 0.001, Holm-adjusted p = 0.002 "
        "(needs no significant drop)",
        "gate failed: a: psi drift of the scores since 2026-11-09 = 0.4 (needs max 0.25)",
    ]
    assert [r["date"] for r in third["history"]["runs"]] == ["2026-11-02", "2026-11-09", "2026-11-16"]
    assert third["history"]["runs"][-1]["values"]["a"]["auc"] == a_auc
    lo, hi = third["history"]["runs"][-1]["values"]["a"]["auc_ci"]
    assert lo < a_auc < hi
    # the report: the section, the trend figure, the sentence on page one
    html = (tmp_path / "out" / "2026-11-16" / "report.html").read_text()
    assert "Since the last run" in html and 'data-figure="trend"' in html
    assert "Since the last run (2026-11-09), the AUC of a fell from" in html
    assert "The scores of a drifted since the last run (2026-11-09): PSI 0.400, above the gate&#39;s 0.250." in html
    assert "Gate failed: a: auc change since 2026-11-09" in html  # page one's findings


def test_a_failed_run_stores_nothing(tmp_path, stand_ins, monkeypatch, capsys):
    spec = _spec_with_history(tmp_path, [], monkeypatch)
    (tmp_path / "week.csv").write_text("y,p_a,p_b\n1,0.5\n")  # a short row: exit status 2
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    assert main(["run", str(spec), "--quiet", "--out", str(tmp_path / "out")]) == 2
    assert not (tmp_path / "hist").exists()


@pytest.mark.slow
def test_no_history_key_without_the_spec_key(tmp_path, capsys):
    (tmp_path / "spec.yaml").write_text(SPEC)
    _week(tmp_path / "week.csv", 1, 0.15)
    assert main(["run", str(tmp_path / "spec.yaml"), "--quiet", "--format", "json,html"]) == 0
    data = json.loads((tmp_path / "out" / "results.json").read_text())
    assert "history" not in data
    assert list(data)[-2:] == ["gates", "warnings"]
    assert "Since the last run" not in (tmp_path / "out" / "report.html").read_text()


@pytest.mark.parametrize("gate, line", [
    ("{metric: auc, max_drop: 0.02}", "gates[0].max_drop: a gate on max_drop compares with the previous run, "
     "which needs history: {dir: <folder>} in the spec (the archive of the runs)"),
    ("{drift: psi, max: 0.25}", "gates[0].drift: a gate on drift compares with the previous run, which needs "
     "history: {dir: <folder>} in the spec (the archive of the runs)"),
    ("{drift: psi}", "gates[0]: a drift gate needs max (e.g. {drift: psi, max: 0.25})"),
    ("{drift: psi, max: 0.2, metric: auc}", "gates[0]: a drift gate takes drift, max and learner only; got metric"),
    ("{metric: auc, max_drop: 0.02, min: 0.8}", "gates[0]: a gate on the change since the previous run "
     "(max_drop, significant_drop) takes no min; give bounds in a gate of their own"),
    ("{metric: auc, max_drop: -0.1}", "gates[0].max_drop: Input should be greater than or equal to 0 (got -0.1)"),
    ("{max: 0.2}", "gates[0]: a gate needs metric (or drift: psi or ks)"),
    ("{drift: psl, max: 0.2}", "gates[0].drift: Input should be 'psi' or 'ks' (got 'psl')"),
])
def test_gate_on_change_spec_errors(tmp_path, capsys, gate, line):
    (tmp_path / "spec.yaml").write_text(SPEC + f"gates:\n  - {gate}\n")
    _week(tmp_path / "week.csv", 1, 0.15)
    assert main(["validate", str(tmp_path / "spec.yaml")]) == 2
    assert capsys.readouterr().err.splitlines() == [f"error: {tmp_path / 'spec.yaml'}:12: {line}"]


def _gate_rows(history, gates, learners=(("a", "a"), ("b", "b"))):
    return change_gates([Gate(**g) for g in gates], list(learners), history, level=0.95)


def test_change_gates_direction_and_tests():
    """A drop is the worse way: a fall of the AUC, a rise of a cost; significant_drop
    needs the p-value below 1 - level and the change the worse way; without a
    p-value, an interval wholly on the worse side."""
    history = {"previous": {"date": "d0"}, "drift": [], "changes": [
        {"learner": "a", "measure": "auc", "change": 0.1, "p_value": 0.001},  # significant, better
        {"learner": "b", "measure": "auc", "change": -0.03, "p_value": 0.04},  # significant, worse
        {"learner": "a", "measure": "expected_total_cost", "change": 0.03, "p_value": None,
         "interval": [0.01, 0.05]},  # cost rose: worse, interval clear of 0
        {"learner": "b", "measure": "expected_total_cost", "change": -0.5, "p_value": None, "interval": None},
    ]}
    rows, warnings = _gate_rows(history, [{"metric": "auc", "significant_drop": True},
                                          {"metric": "auc", "max_drop": 0.02},
                                          {"metric": "expected_total_cost", "significant_drop": True},
                                          {"metric": "expected_total_cost", "max_drop": 0.02}])
    assert [(r["learner"], r["metric"], r["passed"]) for r in rows] == [
        ("a", "auc", True), ("b", "auc", False), ("a", "auc", True), ("b", "auc", False),
        ("a", "expected_total_cost", False), ("b", "expected_total_cost", False),
        ("a", "expected_total_cost", False), ("b", "expected_total_cost", True)]
    assert warnings == [("gate on the change of expected_total_cost of learner 'b' fails: the change has no "
                         "test of significance", "b", "expected_total_cost")]


def test_change_gates_level_and_missing_learner():
    history = {"previous": {"date": "d0"}, "drift": [{"learner": "a", "psi": 0.1, "ks": 0.2}], "changes": [
        {"learner": "a", "measure": "auc", "change": -0.03, "p_value": 0.03}]}
    rows, _ = change_gates([Gate(metric="auc", significant_drop=True)], [("a", "a")], history, level=0.99)
    assert rows[0]["passed"]  # p = 0.03 is not below 0.01
    history["changes"][0]["p_holm"] = 0.09  # Holm's over the run's changes decides, not the row's own p
    rows, _ = change_gates([Gate(metric="auc", significant_drop=True)], [("a", "a")], history, level=0.95)
    assert rows[0]["passed"] and (rows[0]["p_value"], rows[0]["p_holm"]) == (0.03, 0.09)
    history["changes"][0]["p_holm"] = 0.045
    rows, _ = change_gates([Gate(metric="auc", significant_drop=True)], [("a", "a")], history, level=0.95)
    assert not rows[0]["passed"]
    del history["changes"][0]["p_holm"]
    history["changes"][0]["p_value"] = np.float64(0.5)  # a NumPy p-value: a NumPy boolean compared
    rows, _ = change_gates([Gate(metric="auc", significant_drop=True)], [("a", "a")], history, level=0.95)
    assert rows[0]["passed"] is True
    rows, warnings = _gate_rows(history, [{"drift": "ks", "max": 0.1}, {"metric": "auc", "max_drop": 0}])
    assert [(r["learner"], r["value"], r["passed"], r.get("note")) for r in rows] == [
        ("a", 0.2, False, None), ("b", None, True, "the learner is not in the previous run"),
        ("a", -0.03, False, None), ("b", None, True, "the learner is not in the previous run")]
    assert warnings == []


def test_trend_figure_draws_every_learner_and_the_bounds():
    from evalreport.figures import learner_styles
    from evalreport.figures.history import trend_figure

    runs = [{"date": f"2026-11-{d:02d}", "values": {"a": {"auc": 0.9 - 0.01 * i, "auc_ci": [0.85, 0.95],
                                                       "recall": 0.8, "recall_ci": None}}}
            for i, d in enumerate((2, 9, 16))]
    runs[-1]["values"]["new"] = {"auc": 0.7, "auc_ci": None}
    svg = trend_figure(runs, ["auc", "recall"], ["a", "new"], learner_styles(["a", "new"]),
                       {"auc": [(0.85, "min (a)")]})
    assert 'data-figure="trend"' in svg
    assert ('aria-label="Trend over 3 runs from 2026-11-02 to 2026-11-16; AUC: a 0.9 to 0.88 and new 0.7; '
            'recall: a 0.8 to 0.8. Dashed lines: the gates&#x27; bounds. Error bars: confidence intervals where '
            'computed."') in svg
    for text in (">a<", ">new<", "min (a)", "2026-11-16"):
        assert text in svg, text
