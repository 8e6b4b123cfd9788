"""Warnings are records: which learner, which measure, why; the report prints
each beside the number it concerns, results.json keeps the messages."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest

import evalreport
from evalreport.__main__ import main
from evalreport.result import RunWarning


def _spec(tmp: Path) -> Path:
    # learner a predicts nothing positive at 0.5: its precision is undefined
    (tmp / "p.csv").write_text("y,a,b\n1,0.3,0.9\n0,0.2,0.1\n1,0.4,0.8\n0,0.1,0.3\n1,0.45,0.6\n0,0.05,0.7\n")
    (tmp / "spec.yaml").write_text(textwrap.dedent("""\
        version: 1
        title: records
        date: 2026-11-25
        data:
          - path: p.csv
            label: y
            learners: {a: a, b: b}
        threshold: 0.5
        confidence: {mcnemar: corrected}  # with few disagreements: a warning of no learner
        gates:
          - {learner: a, metric: precision, min: 0.5}
        report: {formats: [html, json], out: out}
        """))
    return tmp / "spec.yaml"


@pytest.mark.slow
def test_records_name_the_learner_and_the_measure(tmp_path):
    result = evalreport.evaluate(evalreport.load_spec(_spec(tmp_path)))
    assert all(isinstance(w, RunWarning) for w in result.warnings)
    by: dict = {}
    for w in result.warnings:
        by.setdefault((w.learner, w.measure), []).append(str(w))
    # the undefined value, and the gate that fails on it
    assert by[("a", "precision")] == [
        "learner 'a': precision at threshold 0.500 is undefined: nothing is predicted positive at the threshold",
        "gate precision of learner 'a' is not evaluated: the value is undefined"]
    assert ("b", "precision") not in by
    mcnemar = [w for w in result.warnings if str(w).startswith("McNemar")]
    assert mcnemar and mcnemar[0].learner is None and mcnemar[0].measure == "mcnemar"


@pytest.mark.slow
def test_report_marks_the_cell_and_json_keeps_messages(tmp_path):
    assert main(["run", str(_spec(tmp_path)), "--quiet"]) == 3  # the gate on an undefined value fails
    data = json.loads((tmp_path / "out" / "results.json").read_text())
    assert all(isinstance(w, str) for w in data["warnings"])
    message = ("learner 'a': precision at threshold 0.500 is undefined: nothing is predicted positive "
               "at the threshold")  # the threshold's one text (issue 33), said once
    assert message in data["warnings"]
    html = (tmp_path / "out" / "report.html").read_text()
    table = html[html.index("At the decision threshold"):html.index("Ranking (every threshold)")]
    # a's precision cell carries mark 1, and note 1 under the table says why
    row_a = re.search(r'<tr><th scope="row">.*?<span class="learner">a</span></th>(.*?)</tr>', table, re.S)
    assert re.search(r'undefined<sup class="mark">1</sup>', row_a.group(1))
    escaped = message.replace(chr(39), "&#39;")
    gate = "gate precision of learner &#39;a&#39; is not evaluated: the value is undefined"
    assert f'<li value="1">{escaped}; {gate}</li>' in table
    row_b = re.search(r'<tr><th scope="row">.*?<span class="learner">b</span></th>(.*?)</tr>', table, re.S)
    assert 'class="mark"' not in row_b.group(1)


@pytest.mark.slow
def test_multiclass_records_use_the_registry_names(tmp_path):
    """A class never predicted: macro-P counts it as 0 and says so; the record names
    the registry's precision (the table's macro-P column), and the cell is marked."""
    (tmp_path / "p.csv").write_text("y,a_x,a_y,a_z\nx,0.8,0.1,0.1\ny,0.1,0.8,0.1\nz,0.6,0.3,0.1\n"
                                    "x,0.7,0.2,0.1\ny,0.2,0.7,0.1\nz,0.2,0.6,0.2\n")
    (tmp_path / "spec.yaml").write_text(textwrap.dedent("""\
        version: 1
        title: records
        date: 2026-11-25
        task: multiclass
        classes: [x, y, z]
        data:
          - path: p.csv
            label: y
            learners:
              a: [a_x, a_y, a_z]
        report: {formats: [html, json], out: out}
        """))
    result = evalreport.evaluate(evalreport.load_spec(tmp_path / "spec.yaml"))
    assert [(w.learner, w.measure, str(w)) for w in result.warnings] == [
        ("a", None, "learner 'a': classes.z.precision is undefined: class z is never predicted"),
        ("a", "precision", "learner 'a': macro_precision is undefined: precision is undefined for z "
                           "(counted as 0 in the mean)")]
    assert main(["run", str(tmp_path / "spec.yaml"), "--quiet"]) == 0
    html = (tmp_path / "out" / "report.html").read_text()
    table = html[html.index('id="measures"'):]
    table = table[:table.index("</table>") + 200]
    assert '<sup class="mark">1</sup>' in table and '<ol class="cell-notes">' in table
