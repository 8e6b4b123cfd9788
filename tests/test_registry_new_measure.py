"""A measure added in a temporary registry reaches every place a measure goes, with
no other file edited: results.json, the report (its table, its appendix and the
PDF's glossary), the spec's names and gates (on the value and on its change),
`evalreport measures`, the warnings of an undefined value, the bootstrap of the
leaderboard and the history diff. The made-up measure is markedness (Powers 2011),
precision + NPV - 1, which evalreport does not have: everything that lists
measures must derive from the registry for this test to pass."""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path

import pytest

from evalreport import registry
from evalreport.__main__ import main
from evalreport.measure import Undefined

ROOT = Path(__file__).resolve().parents[1]


def markedness(tp: float, fp: float, tn: float, fn: float):
    """precision + NPV - 1: the pure function (undefined when a decision is never made)."""
    if tp + fp == 0:
        return Undefined("nothing is predicted positive")
    if tn + fn == 0:
        return Undefined("nothing is predicted negative")
    return tp / (tp + fp) + tn / (tn + fn) - 1


def _by_hand(c: dict) -> float:
    return c["tp"] / (c["tp"] + c["fp"]) + c["tn"] / (c["tn"] + c["fn"]) - 1


@pytest.fixture
def with_markedness():
    """The registry with markedness (one entry, the only declaration), as it was after."""
    before = list(registry.MEASURES)
    registry.register(registry.Measure(
        "markedness", "markedness", "at_threshold", ("binary",), "higher",
        "precision + NPV - 1 at the decision threshold.", "Powers, J. Mach. Learn. Technol. 2 (2011)",
        "nothing predicted positive, or nothing predicted negative", of_counts=markedness, gate=True,
        section="family", history={"binary": "no test"}, swapped="markedness",
        brief="Precision + NPV - 1."), after="youden")
    try:
        yield registry.get("markedness")
    finally:
        registry.unregister("markedness")
        assert list(registry.MEASURES) == before


def _spec(folder: Path, extra: str = "") -> Path:
    source = ROOT / "examples" / "watermelon"
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(source / "predictions.csv", folder / "predictions.csv")
    text = (source / "spec.yaml").read_text().replace("formats: [html, pdf, json]", "formats: [html, json]")
    (folder / "spec.yaml").write_text(text + textwrap.dedent(extra))
    return folder / "spec.yaml"


def test_markedness_reaches_every_place_from_its_registry_entry(tmp_path, with_markedness, capsys):
    # `evalreport measures`: text, json and the docs' markdown
    assert main(["measures", "--task", "binary"]) == 0
    assert "markedness  (markedness: at threshold, binary, higher is better)" in capsys.readouterr().out
    assert main(["measures", "--format", "json"]) == 0
    record = {r["name"]: r for r in json.loads(capsys.readouterr().out)}["markedness"]
    assert record["results_json"] == {"binary": "learners.*.markedness"} and record["spec"] == ["metrics", "gates"]
    assert record["history"] == {"binary": "no test"} and record["unit"] == "rate"
    assert "| `markedness` | markedness | binary | higher |" in registry.markdown_table()

    # a run: results.json, gates on the value and on the change, the report; twice, for the history
    gates = """\
        history: {dir: archive}
        gates:
          - {learner: A, metric: markedness, min: -1}
          - {learner: A, metric: markedness, max_drop: 0.5}
        """
    first = _spec(tmp_path / "run", gates)
    assert main(["run", str(first), "--quiet", "--out", str(tmp_path / "out1")]) == 0
    data = json.loads((tmp_path / "out1" / "results.json").read_text())
    for learner in data["learners"].values():
        assert learner["markedness"] == pytest.approx(_by_hand(learner["confusion"]), abs=1e-15)
    keys = list(data["learners"]["A"])
    assert keys.index("markedness") == keys.index("youden") + 1  # where the registry put it
    value = data["learners"]["A"]["markedness"]
    assert [(g["metric"], g["outcome"]) for g in data["gates"]] == [("markedness", "pass"),
                                                                    ("markedness", "not_evaluated")]
    assert data["gates"][0]["value"] == value

    html = (tmp_path / "out1" / "report.html").read_text()
    family = html[html.index("The confusion-matrix family at the threshold"):]
    assert "markedness" in family[:family.index("</table>")]
    appendix = html[html.index('id="appendix"'):]
    assert ("precision + NPV - 1 at the decision threshold. Undefined when: nothing predicted positive, or "
            "nothing predicted negative. (Powers, J. Mach. Learn. Technol. 2 (2011))") in appendix

    # the second run, a week later, with learner A's scores changed: the history diff has its row
    second = tmp_path / "run" / "spec.yaml"
    second.write_text(second.read_text().replace("date: 2026-11-22", "date: 2026-11-29"))
    csv = tmp_path / "run" / "predictions.csv"
    lines = csv.read_text().splitlines()
    lines[1] = lines[1].replace(",0.9,0.9", ",0.1,0.9")  # P1 (good): A now scores it 0.1
    csv.write_text("\n".join(lines) + "\n")
    assert main(["run", str(second), "--quiet", "--out", str(tmp_path / "out2")]) in (0, 3)
    now = json.loads((tmp_path / "out2" / "results.json").read_text())
    row = next(r for r in now["history"]["changes"] if r["learner"] == "A" and r["measure"] == "markedness")
    assert row["previous"] == value and row["current"] == now["learners"]["A"]["markedness"]
    assert row["change"] == pytest.approx(row["current"] - row["previous"]) and row["method"] == "no test"
    change_gate = next(g for g in now["gates"] if g["metric"] == "markedness" and "max_drop" in g)
    assert change_gate["value"] == pytest.approx(row["change"])


def test_an_undefined_markedness_warns_why(tmp_path, with_markedness):
    import evalreport
    import pyarrow as pa

    table = pa.table({"y": [1, 0, 1, 0], "p": [0.9, 0.8, 0.7, 0.6]})  # all predicted positive at 0.5
    spec = {"version": 1, "task": "binary", "positive": 1, "confidence": {"bootstrap": 0},
            "data": [{"table": "t", "label": "y", "learners": {"m": {"score": "p"}}}]}
    result = evaluate_and_render(evalreport, spec, table, tmp_path)
    assert result.learners["m"].values["markedness"] is None
    assert "learner 'm': markedness at threshold 0.500 is undefined: nothing is predicted negative" in [
        w.message for w in result.warnings]
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["learners"]["m"]["markedness"] is None
    # the PDF's glossary prints the entry's one line
    from evalreport.report.html import render_html

    for_pdf = render_html(result, attachments=True)
    assert "<td><b>markedness</b>: Precision + NPV - 1.</td>" in for_pdf[for_pdf.index('<section id="appendix"'):]


def evaluate_and_render(evalreport, spec, table, out):
    result = evalreport.evaluate(spec, data={"t": table})
    evalreport.render(result, out=out, formats=["json"])
    return result


def test_no_file_of_the_project_names_the_made_up_measure():
    """What the first test saw came from the registry entry alone: nothing in the
    package, its templates or its docs lists markedness."""
    for folder in ("evalreport", "templates", "docs"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and path.suffix in (".py", ".html", ".j2", ".md", ".css", ".yaml", ".json"):
                assert "markedness" not in path.read_text(encoding="utf-8").lower(), path
