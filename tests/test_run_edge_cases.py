"""Edge cases of a run: costs that make every error free, a bad EVALREPORT_THREADS."""

from __future__ import annotations

import pytest

from evalreport.__main__ import main

ONLY_POSITIVES = "y,p\n1,0.2\n1,0.7\n1,0.9\n"


def _spec(tmp_path, csv: str, more: str = "") -> str:
    (tmp_path / "d.csv").write_text(csv)
    path = tmp_path / "spec.yaml"
    path.write_text("version: 1\n"
                    "data:\n"
                    "  - path: d.csv\n"
                    "    label: y\n"
                    "    learners: {a: p}\n"
                    + more +
                    "report: {formats: [json], out: out}\n")
    return str(path)


@pytest.mark.slow
def test_only_positives_and_a_free_false_negative(tmp_path, capsys):
    spec = _spec(tmp_path, ONLY_POSITIVES, "costs: {false_negative: 0, false_positive: 1}\n")
    assert main(["run", spec]) == 2
    assert capsys.readouterr().err == (
        f"error: {spec}:6: costs.false_negative: the data hold only positives "
        "(p(+) = 1) and false negatives cost 0, so no error costs anything and the operating point "
        "PC(+) is undefined; give priors: {positive: p} with 0 < p < 1 or a false_negative cost above 0\n"
    )
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_only_positives_with_priors_runs(tmp_path):
    # The same data with priors: the population has both classes, so PC(+) is defined.
    spec = _spec(tmp_path, ONLY_POSITIVES, "priors: {positive: 0.2}\n"
                 "costs: {false_negative: 0, false_positive: 1}\nconfidence: {bootstrap: 0}\n")
    assert main(["run", "--quiet", spec]) == 0
    assert (tmp_path / "out" / "results.json").is_file()


def test_bad_thread_count_is_a_clear_error(tmp_path, capsys, monkeypatch):
    spec = _spec(tmp_path, "y,p\n1,0.2\n0,0.7\n1,0.9\n")
    monkeypatch.setenv("EVALREPORT_THREADS", "four")
    for command in ("run", "validate"):
        assert main([command, spec]) == 2
        assert capsys.readouterr().err == "error: EVALREPORT_THREADS must be a whole number from 1 to 16, got 'four'\n"
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("name, message", [
    ("EVALREPORT_SORT", "EVALREPORT_SORT must be auto, numpy or radix, got 'fast'"),
    ("EVALREPORT_PASS", "EVALREPORT_PASS must be auto, numpy or compiled, got 'fast'")])
def test_bad_engine_roads_are_clear_errors(tmp_path, capsys, monkeypatch, name, message):
    spec = _spec(tmp_path, "y,p\n1,0.2\n0,0.7\n1,0.9\n")
    monkeypatch.setenv(name, "fast")
    for command in ("run", "validate"):
        assert main([command, spec]) == 2
        assert capsys.readouterr().err == f"error: {message}\n"
    assert not (tmp_path / "out").exists()
