"""threshold: {optimal_on: <data set>} (issue 19): each learner's least-cost threshold
chosen on one data set and applied to the others; threshold: optimal says it is
optimistic."""

from __future__ import annotations

import json

import numpy as np
import pytest

import evalreport
from evalreport.__main__ import main


def _write(tmp, threshold="{optimal_on: valid}", test_learners="{a: a, b: b}"):
    rng = np.random.default_rng(3)
    data = {}
    for name, n in (("valid", 80), ("test", 120)):
        y = rng.random(n) < 0.4
        a = np.round(y * 0.6 + rng.random(n) * 0.7, 6)
        b = np.round(y * 0.3 + rng.random(n), 6)
        data[name] = (y, a, b)
        (tmp / f"{name}.csv").write_text(
            "y,a,b\n" + "\n".join(f"{int(v)},{x},{z}" for v, x, z in zip(y, a, b)) + "\n")
    # the validation data set second: it is evaluated first all the same
    (tmp / "spec.yaml").write_text(
        "version: 1\ndate: 2026-11-25\ndata:\n"
        f"  - path: test.csv\n    dataset: test\n    label: y\n    learners: {test_learners}\n"
        "  - path: valid.csv\n    dataset: valid\n    label: y\n    learners: {a: a, b: b}\n"
        f"threshold: {threshold}\nreport: {{formats: [json], out: out}}\n")
    return tmp / "spec.yaml", data


@pytest.mark.slow
def test_thresholds_chosen_on_one_data_set_are_applied_to_the_other(tmp_path):
    path, data = _write(tmp_path)
    result = evalreport.evaluate(evalreport.load_spec(path))
    assert list(result.learners) == ["a@test", "b@test", "a@valid", "b@valid"]  # the spec's order
    for name, column in (("a", 1), ("b", 2)):
        valid, test = result.learners[f"{name}@valid"], result.learners[f"{name}@test"]
        assert valid.threshold == valid.operating.threshold  # its least-cost threshold there
        assert test.threshold == valid.threshold != test.operating.threshold
        assert test.threshold_source == valid.threshold_source == "optimal_on:valid"
        y, scores = data["test"][0], data["test"][column]
        flagged = scores >= test.threshold
        at = test.at_threshold
        assert (at.tp, at.fp, at.tn, at.fn) == (np.sum(y & flagged), np.sum(~y & flagged),
                                                np.sum(~y & ~flagged), np.sum(y & ~flagged))
    assert [str(w) for w in result.warnings if "optimal_on" in str(w)] == [
        "the thresholds are chosen on data set 'valid' (threshold: {optimal_on: valid}): its own measures "
        "at the threshold and the gates on them are optimistic; those of the other data sets are not",
        "Friedman's test leaves out data set 'valid': the thresholds are chosen on it (threshold: {optimal_on: "
        "valid}), so its learners are the same fitted models as on the data sets measured at those thresholds, "
        "not an independent data set"]


@pytest.mark.slow
def test_threshold_optimal_warns_that_it_is_optimistic(tmp_path):
    path, _ = _write(tmp_path, threshold="optimal")
    assert main(["run", str(path), "--out", str(tmp_path / "out")]) == 0
    warnings = json.loads((tmp_path / "out" / "results.json").read_text())["warnings"]
    # the first warning of no one learner (the scores here run past 1: their calibration is undefined)
    run_warnings = [w for w in warnings if not w.startswith("learner '")]
    assert run_warnings[0].startswith("threshold: optimal chooses each learner's threshold on the data it "
                                  "then measures: the measures at the threshold")


def test_an_unknown_data_set_is_a_clear_error(tmp_path, capsys):
    path, _ = _write(tmp_path, threshold="{optimal_on: vaild}")
    assert main(["run", str(path), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "spec.yaml:12: threshold.optimal_on: unknown data set 'vaild' (did you mean 'valid'?); valid: test, valid\n" in err
    assert "Traceback" not in err and not (tmp_path / "out").exists()


def test_a_learner_missing_from_the_validation_set_is_a_clear_error(tmp_path, capsys):
    path, _ = _write(tmp_path, test_learners="{a: a, c: b}")
    assert main(["run", str(path), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert ("spec.yaml:7: data[0].learners.c: learner 'c' is not in data set 'valid', where threshold: "
            "{optimal_on: valid} chooses each learner's threshold") in err


def test_only_one_data_set_is_a_clear_error(tmp_path, capsys):
    (tmp_path / "v.csv").write_text("y,a\n1,0.9\n0,0.2\n1,0.6\n0,0.4\n")
    (tmp_path / "spec.yaml").write_text(
        "version: 1\ndata:\n  - path: v.csv\n    dataset: valid\n    label: y\n    learners: {a: a}\n"
        "threshold: {optimal_on: valid}\nreport: {formats: [json], out: out}\n")
    assert main(["validate", str(tmp_path / "spec.yaml")]) == 2
    err = capsys.readouterr().err
    assert ("spec.yaml:7: threshold.optimal_on: 'valid' is the only data set: optimal_on chooses the "
            "thresholds on one data set and applies them to the others") in err
    assert "Traceback" not in err


def test_a_multiclass_task_refuses_optimal_on(tmp_path, capsys):
    (tmp_path / "v.csv").write_text("y,p,q\nx,0.9,0.1\nz,0.2,0.8\n")
    (tmp_path / "spec.yaml").write_text(
        "version: 1\ntask: multiclass\nclasses: [x, z]\ndata:\n  - path: v.csv\n    dataset: valid\n"
        "    label: y\n    learners: {a: [p, q]}\nthreshold: {optimal_on: valid}\n"
        "report: {formats: [json], out: out}\n")
    assert main(["validate", str(tmp_path / "spec.yaml")]) == 2
    err = capsys.readouterr().err
    assert "threshold.optimal_on: optimal_on chooses a binary learner's threshold; a multiclass task has none" in err
