"""The registry of measures (evalreport/registry.py) is what every list reads.

- `evalreport measures` lists every measure with its fields;
- every name the spec accepts (metrics, gates, compare) is a registered measure;
- every measure is found in results.json where the registry says, when computed;
- a measure added through the registry alone (one pure function, one entry) is
  accepted by the spec and its JSON Schema, gated, ranked, written in results.json,
  shown in the report's table and defined in its appendix.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import textwrap
from pathlib import Path

import pytest

from evalreport import registry
from evalreport.__main__ import main

ROOT = Path(__file__).resolve().parents[1]
BYTES = Path(__file__).resolve().parent / "golden" / "bytes"


def _json_out(capsys, *args) -> list[dict]:
    assert main(["measures", "--format", "json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_measures_command_lists_every_measure_with_its_fields(capsys):
    records = _json_out(capsys)
    assert [r["name"] for r in records] == list(registry.MEASURES)
    for r in records:
        assert {"name", "tasks", "direction", "definition", "reference"} <= set(r)
        assert r["direction"] in ("higher", "lower", "none")
        assert r["tasks"] and set(r["tasks"]) <= {"binary", "multiclass"}
        assert r["definition"].strip() and r["reference"].strip()
    by = {r["name"]: r for r in records}
    assert by["auc"]["direction"] == "higher" and by["expected_total_cost"]["direction"] == "lower"
    assert by["rank_loss"]["tasks"] == ["binary"] and by["confusion_matrix"]["direction"] == "none"
    assert "eq. 2.21" in by["rank_loss"]["reference"]


def test_measures_command_text_markdown_and_task(capsys):
    assert main(["measures"]) == 0
    text = capsys.readouterr().out
    for name in registry.MEASURES:
        assert re.search(rf"^{name}  \(", text, re.M), name
    assert main(["measures", "--format", "markdown"]) == 0
    assert capsys.readouterr().out == registry.markdown_table()
    multiclass = _json_out(capsys, "--task", "multiclass")
    assert "mean_f1" in {r["name"] for r in multiclass} and "bep" not in {r["name"] for r in multiclass}


def test_every_name_the_spec_accepts_is_a_measure(capsys):
    from evalreport import spec

    listed = {r["name"] for r in _json_out(capsys)}
    schema = json.loads(spec.schema_text())
    defs = schema.get("$defs", schema.get("definitions", {}))
    for enum_name, names in (("MetricName", registry.metric_names()),
                             ("ComparisonName", registry.comparison_names())):
        assert defs[enum_name]["enum"] == list(names)
        assert set(names) <= listed
    assert set(spec.METRICS) == set(registry.metric_names())
    assert set(spec.GATE_METRICS) == set(registry.gate_names()) <= listed
    assert set(spec.COMPARISONS) == set(registry.comparison_names())


def _paths(data, path: str) -> list:
    """Every value of results.json at ``path`` (dots; * is every key)."""
    nodes = [data]
    for part in path.split("."):
        nxt = []
        for node in nodes:
            if not isinstance(node, dict):
                continue
            if part == "*":
                nxt += list(node.values())
            elif part in node:
                nxt.append(node[part])
        nodes = nxt
    return nodes


#: example -> the measures the example does not compute (and why)
NOT_COMPUTED = {
    # binary, one data set, no groups: no averages over groups, no paired t-test,
    # no Friedman's test (it asks for partial AUC and the bootstrap)
    "breast_cancer": {"macro", "micro", "paired_t", "friedman", "slices", "demographic_parity_difference",
                      "equal_opportunity_difference", "equalized_odds_difference"},
    # binary with slices (no groups, one data set, no partial AUC, no priors)
    "credit_audit": {"macro", "micro", "paired_t", "friedman", "partial_auc", "population"},
    # multi-class: every measure of the task (Friedman's needs two data sets)
    "multiclass_folds": {"friedman"},
}


@pytest.mark.parametrize("example", list(NOT_COMPUTED))
def test_each_measure_is_where_the_registry_says(example):
    data = json.loads((BYTES / f"{example}.results.json").read_text())
    task = data["task"]
    for m in registry.measures_for(task):
        found = _paths(data, m.json_path[task])
        if m.name in NOT_COMPUTED[example]:
            assert not found, (m.name, m.json_path[task])
        else:
            assert found, (m.name, m.json_path[task])


# --- a measure added through the registry alone ---------------------------------

def youden_j(tp: float, fp: float, tn: float, fn: float) -> float | None:
    """Youden's J = TPR - FPR (undefined with a class absent): the pure function."""
    if tp + fn == 0 or fp + tn == 0:
        return None
    return tp / (tp + fn) - fp / (fp + tn)


@pytest.fixture
def youden():
    """One registry entry; removed after the test."""
    measure = registry.register(registry.Measure(
        "youden_j", "Youden's J", "at_threshold", ("binary",), "higher",
        "TPR - FPR at the decision threshold.", "Youden, Cancer 3 (1950)", "one class only",
        compute={"binary": lambda lr: youden_j(lr.at_threshold.tp, lr.at_threshold.fp,
                                               lr.at_threshold.tn, lr.at_threshold.fn)},
        gate=True, rank={"binary": 6}, format=lambda v: f"J={v:+.3f}"))
    yield measure
    registry.unregister("youden_j")


def _watermelon(tmp_path: Path, extra: str = "") -> Path:
    folder = ROOT / "examples" / "watermelon"
    shutil.copy(folder / "predictions.csv", tmp_path / "predictions.csv")
    text = (folder / "spec.yaml").read_text().replace("formats: [html, pdf, json]", "formats: [html, json]")
    (tmp_path / "spec.yaml").write_text(text + textwrap.dedent(extra))
    return tmp_path / "spec.yaml"


def test_a_measure_added_through_the_registry_alone(tmp_path, youden, capsys):
    from evalreport import spec as spec_module

    # the spec's lists and its JSON Schema
    assert "youden_j" in spec_module.METRICS and "youden_j" in spec_module.GATE_METRICS
    schema = json.loads(spec_module.schema_text())
    assert "youden_j" in json.dumps(schema["$defs"]["MetricName"])
    assert "youden_j" in {r["name"] for r in _json_out(capsys)}
    # a spec that names it, and gates on it
    path = _watermelon(tmp_path, """\
        metrics: [accuracy, youden_j, auc]
        gates:
          - {learner: A, metric: youden_j, min: -1}
        """)
    assert main(["run", str(path), "--quiet", "--out", str(tmp_path / "out")]) == 0
    data = json.loads((tmp_path / "out" / "results.json").read_text())
    for learner in data["learners"].values():
        # what the spec asks for, in the registry's order (an added measure last)
        scalars = [k for k in learner if k in registry.MEASURES and registry.get(k).scalar]
        assert scalars == ["accuracy", "auc", "youden_j"]
    # its value, from the confusion counts the report publishes (metrics: all)
    (tmp_path / "full").mkdir()
    full = _watermelon(tmp_path / "full")
    assert main(["run", str(full), "--quiet", "--out", str(tmp_path / "full_out")]) == 0
    counts = json.loads((tmp_path / "full_out" / "results.json").read_text())["learners"]
    for key, learner in data["learners"].items():
        c = counts[key]["confusion"]
        want = c["tp"] / (c["tp"] + c["fn"]) - c["fp"] / (c["fp"] + c["tn"])
        assert learner["youden_j"] == pytest.approx(want, abs=1e-15)
        assert counts[key]["youden_j"] == learner["youden_j"]  # metrics: all includes it
    assert data["gates"] == [{"learner": "A", "metric": "youden_j", "value": data["learners"]["A"]["youden_j"],
                              "min": -1, "interval": None, "outcome": "pass", "passed": True}]
    # ranked: after the five binary rankings, by its direction
    rankings = json.loads((tmp_path / "full_out" / "results.json").read_text())["comparisons"]["rankings"]
    a, b = counts["A"]["youden_j"], counts["B"]["youden_j"]
    assert rankings["youden_j"] == (["A", "B"] if a >= b else ["B", "A"])
    # the report's table and its appendix
    html = (tmp_path / "out" / "report.html").read_text()
    assert "Youden&#39;s J" in html or "Youden's J" in html
    appendix = html[html.index('id="appendix"'):]
    assert "TPR - FPR at the decision threshold. Undefined when: one class only. (Youden, Cancer 3 (1950))" \
        in appendix
    # printed as the entry's format says, in its column
    table = html[html.index("At the decision threshold"):html.index("Ranking (every threshold)")]
    assert f'J={data["learners"]["A"]["youden_j"]:+.3f}' in table


def test_registry_refuses_inconsistent_entries():
    with pytest.raises(ValueError, match="kind"):
        registry.Measure("x", "x", "scalar", ("binary",), "higher", "d", "r")
    with pytest.raises(ValueError, match="direction"):
        registry.Measure("x", "x", "at_threshold", ("binary",), "up", "d", "r")
    with pytest.raises(ValueError, match="only scalars"):
        registry.Measure("x", "x", "curve", ("binary",), "none", "d", "r", gate=True)
    with pytest.raises(ValueError, match="already registered"):
        registry.register(registry.get("auc"))


def test_docs_measure_table_is_the_registry():
    """docs/measures.md's table of every measure is generated from the registry: with
    EVALREPORT_UPDATE_DOCS=1 this test writes it."""
    path = ROOT / "docs" / "measures.md"
    text = path.read_text()
    head = "<!-- measures: generated by `evalreport measures --format markdown` -->\n"
    start, end = text.index(head) + len(head), text.index("<!-- end of measures -->")
    if os.environ.get("EVALREPORT_UPDATE_DOCS") == "1":
        text = text[:start] + registry.markdown_table() + text[end:]
        path.write_text(text)
        end = text.index("<!-- end of measures -->")
    assert text[start:end] == registry.markdown_table()
