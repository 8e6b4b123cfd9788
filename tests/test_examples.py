"""The examples in examples/ and the multi-class starter spec.

Every example spec runs with the exit status it intends and gives the results.json
of its golden file in tests/golden/<example>.json (``evalreport_version`` aside).
After a deliberate change of the numbers, update the golden files with:

    EVALREPORT_UPDATE_GOLDEN=1 python3 -m pytest tests/test_examples.py -k golden

The committed prediction files are reproduced byte for byte by their seeded
make_predictions.py scripts (scikit-learn ships the breast cancer and wine data,
no download). large_data needs 10^7 generated rows: its spec is only checked, on
a small file written by its own make_data.py.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
from pathlib import Path

import pytest

import evalreport
from evalreport.__main__ import main
from goldens import assert_matches

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
GOLDEN = Path(__file__).resolve().parent / "golden"

#: example -> (exit status it intends, formats the test reads)
RUN = {
    "breast_cancer": (0, "json,html"),
    "multiclass_folds": (0, "json,html"),
    "scheduled_audit": (3, "json,html,pdf"),  # the archived deliverable: the one PDF (recall inconclusive)
    "validated_threshold": (0, "json,html"),
    "credit_audit": (3, "json,html"),  # its gates fail: the audit's finding
    "experiment_runs": (0, "json,html"),  # twenty learners from one glob, no gates
}
#: every example folder (watermelon, older than this file, is covered by test_report.py)
FOLDERS = [*RUN, "large_data"]


def _module(path: Path):
    spec = importlib.util.spec_from_file_location(f"example_{path.parent.name}_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
@pytest.mark.parametrize("example", list(RUN))
def test_examples_match_golden_results(example_report, example):
    """Update with: EVALREPORT_UPDATE_GOLDEN=1 python3 -m pytest tests/test_examples.py -k golden"""
    status, formats = RUN[example]
    # run --out --format --quiet, dated 2026-11-22 (SOURCE_DATE_EPOCH), once a session: tests/conftest.py
    report = example_report(example, formats.split(","))
    assert report.status == status
    out = report.out
    got = json.loads((out / "results.json").read_text())
    got.pop("evalreport_version")
    golden = GOLDEN / f"{example}.json"
    if os.environ.get("EVALREPORT_UPDATE_GOLDEN"):
        golden.write_text(json.dumps(got, indent=2) + "\n")
    assert_matches(got, json.loads(golden.read_text()))  # floats to 1e-12: tests/goldens.py
    assert all(g["passed"] for g in got["gates"]) == (status == 0)
    html = (out / "report.html").read_text()
    for name in got["learners"]:
        assert name in html
    if "pdf" in formats:
        from pypdf import PdfReader

        reader = PdfReader(out / "report.pdf")
        assert reader.attachments["results.json"][0] == (out / "results.json").read_bytes()
        first = " ".join(reader.pages[0].extract_text().split())
        assert "gates passed" in first or "Of " in first or "No gates were set" in first


def test_breast_cancer_learners_cross():
    """The example promises crossing ROC curves and a least-cost winner; keep them."""
    got = json.loads((GOLDEN / "breast_cancer.json").read_text())
    verdicts = {(e["a"], e["b"]): e for e in got["comparisons"]["envelopment"]}
    assert verdicts[("logistic", "forest")]["verdict"] == "cross"
    assert verdicts[("tree", "bayes")]["verdict"] == "cross"
    assert got["comparisons"]["winner_at_operating_point"] == "logistic"
    owners = {row["learner"] for row in got["comparisons"]["cost_envelope"]}
    assert owners == {"logistic", "forest"}
    assert got["learners"]["forest"]["threshold_source"] == "learner"


@pytest.mark.parametrize("example", FOLDERS)
def test_every_example_has_a_readme_and_a_spec(example):
    folder = EXAMPLES / example
    readme = (folder / "README.md").read_text()
    assert readme.startswith("# ") and f"examples/{example}/" in readme  # the command to run it
    assert (folder / "spec.yaml").is_file()
    assert example in (EXAMPLES / "README.md").read_text()


@pytest.mark.slow
@pytest.mark.parametrize("example", ["breast_cancer", "multiclass_folds", "credit_audit"])
def test_make_predictions_reproduces_the_committed_csv(example):
    module = _module(EXAMPLES / example / "make_predictions.py")
    committed = (EXAMPLES / example / "predictions.csv").read_text(encoding="utf-8")
    assert module.predictions() == committed


@pytest.mark.slow
def test_experiment_runs_are_reproduced():
    folder = EXAMPLES / "experiment_runs"
    module = _module(folder / "make_runs.py")
    runs = module.runs()
    assert len(runs) == 20
    committed = sorted(p.parent.name for p in (folder / "runs").glob("*/predictions.csv"))
    assert sorted(runs) == committed
    for name, text in runs.items():
        assert text == (folder / "runs" / name / "predictions.csv").read_text(encoding="utf-8"), name


def test_experiment_runs_spec_names_no_learner_by_hand():
    """The example's learners all come from the glob: twenty, named by their folders."""
    text = (EXAMPLES / "experiment_runs" / "spec.yaml").read_text()
    assert 'learners: {"C{c}_seed{seed}": score}, replicates: seed' in text
    spec = evalreport.load_spec(EXAMPLES / "experiment_runs" / "spec.yaml")
    names = [name for src in spec.data for name in src.learners]
    assert len(names) == 20 and names[:2] == ["C0.001_seed0", "C0.001_seed1"] and names[-1] == "C10_seed3"
    assert [src.path for src in spec.data][:1] == ["runs/C0.001_seed0/predictions.csv"]


def test_validated_threshold_predictions_are_reproduced():
    folder = EXAMPLES / "validated_threshold"
    module = _module(folder / "make_predictions.py")
    for name, text in module.predictions().items():
        assert text == (folder / name).read_text(encoding="utf-8"), name


def test_validated_threshold_applies_the_validation_thresholds():
    """Each learner's test threshold is its least-cost threshold on validation; the
    test set pays more than its own least cost for it (forest: the best on validation,
    the costlier on test)."""
    got = json.loads((GOLDEN / "validated_threshold.json").read_text())["learners"]
    for name in ("logistic", "forest"):
        valid, test = got[f"{name}@validation"], got[f"{name}@test"]
        assert valid["threshold"] == valid["operating_point"]["threshold"] == test["threshold"]
        assert test["threshold_source"] == "optimal_on:validation"
        assert test["cost_at_threshold"] > test["operating_point"]["min_cost"]
        assert set(test["groups"]) == {"week 1", "week 2", "week 3", "week 4"}
    assert got["forest@validation"]["cost_at_threshold"] < got["logistic@validation"]["cost_at_threshold"]
    assert got["forest@test"]["cost_at_threshold"] > got["logistic@test"]["cost_at_threshold"]


def test_large_data_spec_validates_on_a_small_file(tmp_path, capsys):
    folder = EXAMPLES / "large_data"
    spec = evalreport.load_spec(folder / "spec.yaml")
    assert [d.path for d in spec.data] == ["predictions.parquet"]
    assert "json" in spec.report.formats and spec.report.curve_points == 5000  # the default
    ignored = (folder / ".gitignore").read_text().split()
    assert "*.parquet" in ignored and "reports/" in ignored
    # the same spec on 20,000 rows of make_data.py's output
    make_data = _module(folder / "make_data.py")
    make_data.write(tmp_path / "predictions.parquet", 20_000)
    shutil.copy(folder / "spec.yaml", tmp_path / "spec.yaml")
    assert main(["validate", str(tmp_path / "spec.yaml")]) == 0
    assert "20,000 rows, 2 learner(s)" in capsys.readouterr().out


@pytest.mark.slow
def test_large_data_duckdb_spec_runs_on_a_small_file(tmp_path):
    """spec_duckdb.yaml: the same report through DuckDB, within its resolution bound
    of the in-memory numbers."""
    import json

    folder = EXAMPLES / "large_data"
    make_data = _module(folder / "make_data.py")
    make_data.write(tmp_path / "predictions.parquet", 20_000)
    for name in ("spec.yaml", "spec_duckdb.yaml"):
        text = (folder / name).read_text().replace("formats: [json, html, pdf]", "formats: [json]")
        (tmp_path / name).write_text(text)
        assert main(["run", str(tmp_path / name), "--quiet"]) == 0
    memory = json.loads((tmp_path / "reports" / "results.json").read_text())["learners"]
    duck = json.loads((tmp_path / "reports-duckdb" / "results.json").read_text())["learners"]
    for learner, d in duck.items():
        for measure in ("auc", "average_precision", "bep"):
            assert abs(d[measure] - memory[learner][measure]) <= d["resolution_bound"][measure] + 1e-12


def _uncomment_optional_blocks(text: str) -> str:
    """The starter with its commented priors, costs and gates switched on."""
    out = []
    for line in text.splitlines():
        m = re.match(r"# ((priors|costs|gates):.*|( +)(matrix:|- ).*)$", line)
        out.append(m.group(1) if m else line)
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("variant", ["as shipped", "optional blocks on"])
def test_multiclass_starter_validates(tmp_path, capsys, variant):
    text = (ROOT / "configs" / "multiclass.yaml").read_text()
    if variant != "as shipped":
        text = _uncomment_optional_blocks(text)
        assert "\npriors:" in text and "\ncosts:" in text and "\ngates:" in text
    (tmp_path / "evalreport.yaml").write_text(text)
    spec = evalreport.load_spec(tmp_path / "evalreport.yaml")
    assert spec.task == "multiclass"
    columns = {spec.data[0].label, *(c for lr in spec.data[0].learners.values() for c in lr.columns)}
    assert columns == {"y", "p_cat", "p_dog", "p_bird"}
    rows = ["y,p_cat,p_dog,p_bird", "cat,0.7,0.2,0.1", "dog,0.1,0.8,0.1", "bird,0.2,0.2,0.6",
            "cat,0.5,0.4,0.1", "dog,0.3,0.6,0.1", "bird,0.1,0.3,0.6"]
    (tmp_path / "predictions.csv").write_text("\n".join(rows) + "\n")
    assert main(["validate", str(tmp_path / "evalreport.yaml")]) == 0
    assert "valid (1 file(s), 6 rows, 1 learner(s))" in capsys.readouterr().out


def test_example_numbers_match_scikit_learn(tmp_path):
    """The golden files pin the examples; this checks their headline numbers
    against scikit-learn on the committed prediction files."""
    import json

    import numpy as np
    from sklearn import metrics as skm

    bc = np.genfromtxt(EXAMPLES / "breast_cancer" / "predictions.csv", delimiter=",", names=True)
    golden = json.loads((ROOT / "tests" / "golden" / "breast_cancer.json").read_text())["learners"]
    for name in ("logistic", "tree", "bayes", "forest"):
        assert golden[name]["auc"] == pytest.approx(skm.roc_auc_score(bc["y"], bc[name]), abs=1e-12)
        assert golden[name]["average_precision"] == pytest.approx(
            skm.average_precision_score(bc["y"], bc[name]), abs=1e-12)
    wine = np.genfromtxt(EXAMPLES / "multiclass_folds" / "predictions.csv", delimiter=",", names=True,
                         dtype=None, encoding="utf-8")
    classes = ["barolo", "grignolino", "barbera"]
    golden = json.loads((ROOT / "tests" / "golden" / "multiclass_folds.json").read_text())["learners"]
    for name in ("logistic", "bayes", "knn"):
        p = np.column_stack([wine[f"{name}_{c}"] for c in classes])
        yhat = np.array(classes)[p.argmax(axis=1)]
        assert golden[name]["accuracy"] == pytest.approx(skm.accuracy_score(wine["cultivar"], yhat))
        assert golden[name]["macro"]["mean_f1"] == pytest.approx(
            skm.f1_score(wine["cultivar"], yhat, average="macro", labels=classes))
