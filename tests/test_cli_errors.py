"""A corpus of bad specs and data files: each gives its exact message, exit
status 2, no traceback, and writes nothing (the previous report stays)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from evalreport import registry
from evalreport.__main__ import main
from specs import BASE

GOOD_CSV = "id,y,p_a,p_b,w,fold,yhat\n" + "\n".join(
    f"{i},{i % 2},{(i * 7 % 10) / 10},{(i * 3 % 10) / 10},1,{i % 3},{(i + 1) % 2}" for i in range(1, 21)
) + "\n"



def _write(tmp: Path, spec: str, files: dict[str, str | bytes] | None = None) -> Path:
    files = {"pred.csv": GOOD_CSV} if files is None else files
    for name, content in files.items():
        p = tmp / name
        if isinstance(content, bytes):
            p.write_bytes(content)
        else:
            p.write_text(content)
    path = tmp / "spec.yaml"
    path.write_text(textwrap.dedent(spec))
    return path


def _csv(rows: list[str], header="id,y,p_a,p_b") -> str:
    return header + "\n" + "\n".join(rows) + "\n"


# (name, spec text, extra files or None for the good CSV, expected stderr lines)
CASES = [
    ("unknown top key", BASE + "tresh: 0.3\n", None,
     ["error: spec.yaml:11: tresh: unknown key 'tresh' (did you mean 'threshold'?); valid keys here: "
      "version, title, description, date, task, positive, classes, data, threshold, priors, costs, "
      "metrics, fbeta, partial_auc, thresholds, compare, confidence, calibration, gates, report, history, spark, deployed, rank_by"]),
    ("missing version", BASE.replace("version: 1\n", ""), None,
     ["error: spec.yaml:1: version: required key is missing"]),
    ("wrong version", BASE.replace("version: 1", "version: 2"), None,
     ["error: spec.yaml:1: version: Input should be 1 (got 2)"]),
    # a lone surrogate cannot be written as UTF-8 (results.json, the report): refused, not escaped (issue 36)
    ("lone surrogate in a text", BASE.replace("title: t", 'title: "t\\ud800"'), None,
     ['error: spec.yaml:2: title: "t\\ud800" holds a lone surrogate escape (\\ud800 to \\udfff), which is '
      "not a character: write the character itself"]),
    ("lone surrogate in a learner's name", BASE.replace("b: p_b", '"b\\udfff": p_b'), None,
     ['error: spec.yaml:7: data[0].learners: the key "b\\udfff" holds a lone surrogate escape (\\ud800 to '
      "\\udfff), which is not a character: write the character itself"]),
    ("missing label", BASE.replace("    label: y\n", ""), None,
     ["error: spec.yaml:4: data[0].label: required key is missing"]),
    ("unknown data key", BASE.replace("    label: y\n", "    label: y\n    wieght: w\n"), None,
     ["error: spec.yaml:6: data[0].wieght: unknown key 'wieght' (did you mean 'weight'?); valid keys "
      "here: path, table, label, id, group, slices, weight, dataset, replicates, engine, resolution, kind, database, memory_limit, "
      "learners"]),
    ("unknown learner key", BASE.replace("b: p_b", "b: {score: p_b, treshold: 0.3}"), None,
     ["error: spec.yaml:9: data[0].learners.b.treshold: unknown key 'treshold' (did you mean "
      "'threshold'?); valid keys here: score, scores, predicted, threshold, columns"]),
    ("learner both kinds", BASE.replace("b: p_b", "b: {score: p_b, predicted: yhat}"), None,
     ["error: spec.yaml:9: data[0].learners.b: give exactly one of score (a column), predicted (a "
      "column of decisions) or a list of per-class score columns (or columns: <name with {class}>); got score, "
      "predicted"]),
    ("unknown metric", BASE + "metrics: [auc, acuracy]\n", None,
     ["error: spec.yaml:11: metrics[1]: unknown metric 'acuracy' (did you mean 'accuracy'?); valid: "
      + ", ".join(registry.metric_names())]),
    ("unknown comparison", BASE + "compare: [envelopment, delongg]\n", None,
     ["error: spec.yaml:11: compare[1]: unknown comparison 'delongg' (did you mean 'delong'?); valid: "
      + ", ".join(registry.comparison_names())]),
    ("unknown format", BASE.replace("formats: [json]", "formats: [jsn]"), None,
     ["error: spec.yaml:10: report.formats[0]: unknown format 'jsn' (did you mean 'json'?); valid: "
      "html, pdf, json"]),
    ("bad threshold", BASE + "threshold: best\n", None,
     ["error: spec.yaml:11: threshold: Input should be a valid number, unable to parse string as a "
      "number (got 'best')"]),
    ("bad priors key", BASE + "priors: {positve: 0.1}\n", None,
     ["error: spec.yaml:11: priors.positve: unknown key 'positve' (did you mean 'positive'?); a binary "
      "task gives priors: {positive: p}",
      "error: spec.yaml:11: priors: give priors: {positive: p} with 0 < p < 1"]),
    ("prior out of range", BASE + "priors: {positive: 1.5}\n", None,
     ["error: spec.yaml:11: priors.positive: the positive prior must be in (0, 1), got 1.5"]),
    ("numbered costs", BASE + "costs: {cost01: 5, false_positive: 1}\n", None,
     ["error: spec.yaml:11: costs.cost01: unknown cost 'cost01'; a binary task names false_negative "
      "and false_positive",
      "error: spec.yaml:11: costs: missing cost false_negative"]),
    ("negative cost", BASE + "costs: {false_negative: -1, false_positive: 1}\n", None,
     ["error: spec.yaml:11: costs.false_negative: a cost must be a number >= 0, got -1"]),
    ("gate unknown learner", BASE + "gates:\n  - {learner: c, metric: auc, min: 0.8}\n", None,
     ["error: spec.yaml:12: gates[0].learner: unknown learner 'c'; valid: a, b"]),
    ("gate unknown metric", BASE + "gates:\n  - {metric: aucc, min: 0.8}\n", None,
     ["error: spec.yaml:12: gates[0].metric: unknown gate metric 'aucc' (did you mean 'auc'?); valid: "
      + ", ".join(registry.gate_names())]),
    ("gate without bound", BASE + "gates:\n  - {metric: auc}\n", None,
     ["error: spec.yaml:12: gates[0]: a gate needs min or max"]),
    ("duplicate key", BASE.replace("      b: p_b\n", "      b: p_b\n      a: p_b\n"), None,
     ["error: spec.yaml:10: data[0].learners.a: duplicate key (first at line 8)"]),
    ("invalid yaml", "version: 1\ndata: [\n", None,
     ["error: spec.yaml:3: invalid YAML: expected the node content, but found '<stream end>'"]),
    ("not a mapping", "- 1\n- 2\n", None,
     ["error: spec.yaml:1: the spec must be a mapping of keys (version, data, ...)"]),
    ("classes in binary", BASE + "classes: [a, b]\n", None,
     ["error: spec.yaml:11: classes: classes is for multiclass tasks; a binary task names its positive label"]),
    ("unsupported suffix", BASE.replace("pred.csv", "pred.xlsx"), None,
     ["error: spec.yaml:4: data[0].path: unsupported file type '.xlsx'; use one of .csv, .tsv, "
      ".parquet, .jsonl, .npz (.csv, .tsv and .jsonl may be compressed: .gz, .bz2, .zst, .lz4)"]),
    ("engine with hard decisions",
     BASE.replace("    label: y\n", "    label: y\n    engine: duckdb\n").replace("b: p_b", "b: {predicted: yhat}"),
     None,
     ["error: spec.yaml:10: data[0].learners.b: engine 'duckdb' aggregates score columns; hard decisions "
      "need engine: memory"]),
    ("same learner twice",
     BASE.replace("report:", "  - path: pred.csv\n    label: y\n    id: id\n    learners: {a: p_b}\nreport:"),
     None,
     ["error: spec.yaml:13: data[1].learners.a: learner 'a' is already defined in data[0] of the same "
      "data set; a name is unique within a data set"]),
    # data problems
    ("file not found", BASE.replace("pred.csv", "pred2.csv"), None,
     # where it was looked for (the spec's folder, not the current one; tmp_path/ is cut from the lines)
     ["error: spec.yaml:4: data[0].path: file not found: pred2.csv (looked for pred2.csv: a relative path "
      "starts from the spec's folder) (did you mean 'pred.csv'?)"]),
    ("missing column", BASE.replace("b: p_b", "b: p_bb"), None,
     ["error: spec.yaml:9: data[0].learners.b.score: column 'p_bb' is not in pred.csv (columns: id, y, "
      "p_a, p_b, w, fold, yhat) (did you mean 'p_b'?)"]),
    ("missing label column", BASE.replace("label: y", "label: target"), None,
     ["error: spec.yaml:5: data[0].label: column 'target' is not in pred.csv (columns: id, y, p_a, p_b, "
      "w, fold, yhat)"]),
    ("non-numeric score", BASE, {"pred.csv": _csv(["1,1,0.2,0.3", "2,0,abc,0.1"])},
     ["error: spec.yaml:8: data[0].learners.a.score: pred.csv: column 'p_a', row 2: score 'abc' is not "
      "a number"]),
    ("nan score", BASE, {"pred.csv": _csv(["1,1,0.2,0.3", "2,0,0.5,0.1", "3,0,nan,0.1"])},
     ["error: spec.yaml:8: data[0].learners.a.score: pred.csv: column 'p_a', row 3: missing value (empty, NA or NaN)"]),
    ("infinite score", BASE, {"pred.csv": _csv(["1,1,0.2,inf", "2,0,0.5,0.1"])},
     ["error: spec.yaml:9: data[0].learners.b.score: pred.csv: column 'p_b', row 1: infinite score"]),
    ("empty cell", BASE, {"pred.csv": _csv(["1,1,0.2,0.3", "2,0,,0.1"])},
     ["error: spec.yaml:8: data[0].learners.a.score: pred.csv: column 'p_a', row 2: missing value (empty, NA or NaN)"]),
    ("three labels", BASE, {"pred.csv": _csv(["1,1,0.2,0.3", "2,0,0.5,0.1", "3,2,0.5,0.1"])},
     ["error: spec.yaml:5: data[0].label: pred.csv: column 'y', row 3: label '2' makes 3 labels "
      "('0', '1', '2'); a binary task has the positive label and one other"]),
    # an empty text cell is read as '' (not null): named as missing, not taken for a class
    ("empty label", BASE.replace("title: t", "title: t\npositive: 'yes'"),
     {"pred.csv": _csv(["1,yes,0.2,0.3", "2,no,0.5,0.1", "3,,0.5,0.1"])},
     ["error: spec.yaml:6: data[0].label: pred.csv: column 'y', row 3: missing label (empty)"]),
    ("empty label as the only other", BASE.replace("title: t", "title: t\npositive: 'yes'"),
     {"pred.csv": _csv(["1,yes,0.2,0.3", "2,,0.5,0.1", "3, ,0.5,0.1"])},
     ["error: spec.yaml:6: data[0].label: pred.csv: column 'y', row 2: missing label (empty)"]),
    ("positive label absent", BASE.replace("title: t", "title: t\npositive: yes"),
     {"pred.csv": _csv(["1,Yes,0.2,0.3", "2,No,0.5,0.1"])},
     ["error: spec.yaml:3: positive: pred.csv: the positive label True does not occur in column 'y' "
      "(labels: 'No', 'Yes') (YAML reads yes, no, on, off, true and false as booleans: quote a text "
      "label)"]),
    ("positive label typo", BASE.replace("title: t", "title: t\npositive: 'yes'"),
     {"pred.csv": _csv(["1,Yes,0.2,0.3", "2,No,0.5,0.1"])},
     ["error: spec.yaml:3: positive: pred.csv: the positive label 'yes' does not occur in column 'y' "
      "(labels: 'No', 'Yes') (did you mean 'Yes'?)"]),
    ("duplicate ids", BASE, {"pred.csv": _csv(["1,1,0.2,0.3", "2,0,0.5,0.1", "1,0,0.5,0.1"])},
     ["error: spec.yaml:6: data[0].id: pred.csv: column 'id': id 1 appears twice (rows 1 and 3)"]),
    ("negative weight", BASE.replace("    id: id\n", "    id: id\n    weight: w\n"),
     {"pred.csv": _csv(["1,1,0.2,0.3,1", "2,0,0.5,0.1,-2"], header="id,y,p_a,p_b,w")},
     ["error: spec.yaml:7: data[0].weight: pred.csv: column 'w', row 2: negative weight -2.0"]),
    ("semicolons in a .csv", BASE, {"pred.csv": GOOD_CSV.replace(",", ";")},
     ["error: spec.yaml:4: data[0].path: pred.csv: the header reads as one column 'id;y;p_a;p_b;w;fold;yhat'; "
      "the file looks separated by ';', but .csv is read as comma-separated (.csv: commas, .tsv: tabs)"]),
    ("semicolons and decimal commas", BASE, {"pred.csv": "id;y;p_a;p_b\n1;1;0,2;0,3\n2;0;0,5;0,1\n"},
     ["error: spec.yaml:4: data[0].path: pred.csv: the header reads as one column 'id;y;p_a;p_b'; "
      "the file looks separated by ';', but .csv is read as comma-separated (.csv: commas, .tsv: tabs)"]),
    ("compression DuckDB does not read", BASE.replace("pred.csv", "pred.csv.bz2").replace(
        "    id: id\n", "    engine: duckdb\n"), {"pred.csv.bz2": GOOD_CSV},
     ["error: spec.yaml:4: data[0].path: engine: duckdb reads compressed text files ending in .gz or .zst, "
      "not .bz2"]),
    ("classes equal as labels", BASE.replace("version: 1\n", "version: 1\ntask: multiclass\nclasses: [1, 1.0]\n")
     .replace("a: p_a\n      b: p_b", "a: [p_a, p_b]"),
     None, ["error: spec.yaml:3: classes: classes must be at least two distinct labels"]),
    ("label differing only in case", BASE.replace("label: y", "label: Y"), None,
     ["error: spec.yaml:5: data[0].label: column 'Y' is not in pred.csv (columns: id, y, p_a, p_b, w, fold, "
      "yhat) (did you mean 'y'?)"]),
    ("npz through DuckDB", BASE.replace("pred.csv", "pred.npz").replace("    id: id\n", "    engine: duckdb\n"),
     {"pred.npz": b""},
     ["error: spec.yaml:4: data[0].path: engine: duckdb reads Parquet, CSV, TSV and JSON lines files; a .npz "
      "file needs engine: memory"]),
    ("npz through Spark", BASE.replace("pred.csv", "pred.npz").replace("    id: id\n", "    engine: spark\n"),
     {"pred.npz": b""},
     ["error: spec.yaml:4: data[0].path: engine: spark reads Parquet, CSV, TSV and JSON lines files; a .npz "
      "file needs engine: memory"]),
    ("not compressed as named", BASE.replace("pred.csv", "pred.csv.gz"), {"pred.csv.gz": GOOD_CSV},
     ["error: spec.yaml:4: data[0].path: cannot read pred.csv.gz: zlib inflate failed: incorrect header check"]),
    ("unsupported compression", BASE.replace("pred.csv", "pred.csv.xz"), {"pred.csv.xz": GOOD_CSV},
     ["error: spec.yaml:4: data[0].path: unsupported file type '.xz'; use one of .csv, .tsv, .parquet, .jsonl, "
      ".npz (.csv, .tsv and .jsonl may be compressed: .gz, .bz2, .zst, .lz4)"]),
    ("empty file", BASE, {"pred.csv": "id,y,p_a,p_b\n"},
     ["error: spec.yaml:4: data[0].path: pred.csv has no rows"]),
    ("ids do not align",
     BASE.replace("      b: p_b\n", "").replace(
         "report:", "  - path: pred_b.csv\n    label: y\n    id: id\n    learners: {b: p_b}\nreport:"),
     {"pred.csv": _csv(["1,1,0.2,0.3", "2,0,0.5,0.1"]), "pred_b.csv": _csv(["1,1,0.2,0.3", "3,0,0.5,0.1"])},
     ["error: spec.yaml:11: data[1].id: ids do not align across the files of one data set; ids in "
      "pred.csv but not in pred_b.csv: 2; ids in pred_b.csv but not in pred.csv: 3"]),
    # issue 17: YAML tags, keys, dates, type-named learners, formats and templates (more in test_spec_corpus.py)
    ("python tag", BASE.replace("title: t", "title: !!python/name:os.system"), None,
     ["error: spec.yaml:2: title: the YAML tag !!python/name:os.system is not allowed; a spec holds text, "
      "numbers, booleans, dates, lists and mappings"]),
    ("list as a key", BASE + "? [a, b]\n: 1\n", None,
     ["error: spec.yaml:11: (top level): a key must be text, not a list or mapping"]),
    ("date out of range", BASE + "date: 2026-13-45\n", None,
     ["error: spec.yaml:11: date: '2026-13-45' is not a valid date (month must be in 1..12)"]),
    ("date at its line", BASE + "date: 0\n", None,
     ["error: spec.yaml:11: date: give a date as YYYY-MM-DD (got 0)"]),
    ("learner named str", BASE.replace("b: p_b", "str: {score: p_b, treshold: 0.3}"), None,
     ["error: spec.yaml:9: data[0].learners.str.treshold: unknown key 'treshold' (did you mean "
      "'threshold'?); valid keys here: score, scores, predicted, threshold, columns"]),
    ("boolean threshold", BASE + "threshold: true\n", None,
     ["error: spec.yaml:11: threshold: Input should be a number, not a boolean (got True)"]),
    ("no formats", BASE.replace("formats: [json]", "formats: []"), None,
     ["error: spec.yaml:10: report.formats: give at least one format: html, pdf, json"]),
    ("no template folder", BASE.replace("out: out}", "out: out, template: mytemplates}"), None,
     ["error: spec.yaml:10: report.template: no such folder: mytemplates"]),
    ("bad decision", BASE.replace("b: p_b", "b: {predicted: yhat}"),
     {"pred.csv": _csv(["1,1,0.2,1", "2,0,0.5,7"], header="id,y,p_a,yhat")},
     ["error: spec.yaml:9: data[0].learners.b.predicted: pred.csv: column 'yhat', row 2: decision '7' "
      "is not a label of the task ('0', '1')"]),
]


# issue 36: numbers and sizes that were accepted and then took the memory, raised, or meant nothing
DUCKDB = BASE.replace("    id: id\n", "    id: id\n    engine: duckdb\n")
CASES += [
    ("a billion calibration bins", BASE + "calibration: {bins: 1000000000}\n", None,
     ["error: spec.yaml:11: calibration.bins: at most 10,000 bins (got 1000000000): each bin estimates a rate, "
      "and more bins hold too few scores to estimate it"]),
    ("calibration bins past int64", BASE + "calibration: {bins: 9223372036854775808}\n", None,
     ["error: spec.yaml:11: calibration.bins: at most 10,000 bins (got 9223372036854775808): each bin estimates "
      "a rate, and more bins hold too few scores to estimate it"]),
    ("negative memory_limit", DUCKDB.replace("engine: duckdb", "engine: duckdb\n    memory_limit: -1GB"), None,
     ["error: spec.yaml:8: data[0].memory_limit: memory_limit is a size such as '1GB', '512MiB' or '50%' (of the "
      "machine's memory); got '-1GB'"]),
    ("memory_limit without a unit", DUCKDB.replace("engine: duckdb", "engine: duckdb\n    memory_limit: '1000'"),
     None, ["error: spec.yaml:8: data[0].memory_limit: memory_limit is a size such as '1GB', '512MiB' or '50%' (of "
            "the machine's memory); got '1000'"]),
    ("memory_limit of 10 bytes", DUCKDB.replace("engine: duckdb", "engine: duckdb\n    memory_limit: 10 bytes"),
     None, ["error: spec.yaml:8: data[0].memory_limit: memory_limit must be at least 16MB (DuckDB needs buffers "
            "to work in); got '10 bytes'"]),
    ("memory_limit of 0%", DUCKDB.replace("engine: duckdb", "engine: duckdb\n    memory_limit: 0%"),
     None, ["error: spec.yaml:8: data[0].memory_limit: a memory_limit in percent is in (0, 100]; got '0%'"]),
    ("threshold as text", BASE + "threshold: '0.5'\n", None,
     ["error: spec.yaml:11: threshold: Input should be a number, not text (got '0.5'); write it without quotes"]),
    ("learner threshold as text", BASE.replace("b: p_b", "b: {score: p_b, threshold: \"0.3\"}"), None,
     ["error: spec.yaml:9: data[0].learners.b.threshold: Input should be a number, not text (got '0.3'); "
      "write it without quotes"]),
    ("bootstrap as text", BASE + "confidence: {bootstrap: '200'}\n", None,
     ["error: spec.yaml:11: confidence.bootstrap: Input should be a number, not text (got '200'); write it "
      "without quotes"]),
    ("priors not a mapping", BASE + "priors: 0.5\n", None,
     ["error: spec.yaml:11: priors: priors is a mapping of class -> prior (binary: {positive: 0.3}; multiclass: "
      "one prior per class), not 0.5"]),
]


@pytest.mark.parametrize("name,spec,files,expected", CASES, ids=[c[0] for c in CASES])
def test_bad_input(tmp_path, capsys, name, spec, files, expected):
    path = _write(tmp_path, spec, files)
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    previous = out_dir / "results.json"
    previous.write_text("previous report\n")
    status = main(["run", str(path), "--quiet"])
    err = capsys.readouterr().err
    lines = [line.replace(str(tmp_path) + "/", "") for line in err.splitlines()]
    assert status == 2
    assert lines == expected
    assert "Traceback" not in err
    # nothing written, the previous report intact
    assert previous.read_text() == "previous report\n"
    assert sorted(p.name for p in out_dir.iterdir()) == ["results.json"]


def test_corpus_is_large_enough():
    assert len(CASES) >= 30


def test_bad_format_option(tmp_path, capsys):
    path = _write(tmp_path, BASE)
    assert main(["run", str(path), "--format", "json,pfd"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "error: --format: unknown format 'pfd' (did you mean 'pdf'?); valid: html, pdf, json"
    ]


def test_missing_spec_file(tmp_path, capsys):
    assert main(["run", str(tmp_path / "nope.yaml")]) == 2
    assert capsys.readouterr().err.strip() == f"error: {tmp_path / 'nope.yaml'}: no such spec file"


def test_validate_writes_nothing(tmp_path, capsys):
    path = _write(tmp_path, BASE)
    assert main(["validate", str(path)]) == 0
    assert "valid (1 file(s), 20 rows, 2 learner(s))" in capsys.readouterr().out
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_subprocess_no_traceback(tmp_path):
    path = _write(tmp_path, BASE + "tresh: 1\n")
    proc = subprocess.run([sys.executable, "-m", "evalreport", "run", str(path)],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert "unknown key 'tresh'" in proc.stderr
    assert proc.stdout == ""


def test_all_problems_at_once(tmp_path, capsys):
    spec = BASE.replace("b: p_b", "b: p_bb").replace("a: p_a", "a: p_aa")
    path = _write(tmp_path, spec)
    assert main(["run", str(path)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and "'p_aa'" in err[0] and "'p_bb'" in err[1]


@pytest.mark.slow
def test_npz_and_parquet_and_jsonl(tmp_path, capsys):
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 50)
    p = rng.random(50)
    np.savez(tmp_path / "pred.npz", y=y, p_a=p, p_b=p[::-1].copy(), id=np.arange(50))
    pq.write_table(pa.table({"y": y, "p_a": p, "p_b": p[::-1].copy(), "id": np.arange(50)}),
                   tmp_path / "pred.parquet")
    (tmp_path / "pred.jsonl").write_text(
        "".join(f'{{"y": {a}, "p_a": {b}, "p_b": {c}, "id": {i}}}\n'
                for i, (a, b, c) in enumerate(zip(y, p, p[::-1]))))
    import json

    aucs = []
    for suffix in ("npz", "parquet", "jsonl"):
        path = _write(tmp_path, BASE.replace("pred.csv", f"pred.{suffix}").replace("out: out", f"out: {suffix}"),
                      files={})
        assert main(["run", str(path), "--quiet"]) == 0, capsys.readouterr().err
        d = json.loads((tmp_path / suffix / "results.json").read_text())
        aucs.append((d["learners"]["a"]["auc"], d["learners"]["b"]["auc"]))
    from sklearn.metrics import roc_auc_score

    assert aucs[0] == aucs[1] == aucs[2]
    assert aucs[0][0] == pytest.approx(roc_auc_score(y, p), abs=1e-12)


def test_empty_text_label_is_a_class_outside_csv(tmp_path, capsys):
    # In Parquet (as in DuckDB and Spark) an empty text is a value, not a missing
    # cell: only the CSV/TSV reader turns empty cells into ''.
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"id": [1, 2, 3, 4], "y": ["yes", "", "", "yes"], "p_a": [0.9, 0.2, 0.6, 0.4],
                             "p_b": [0.1, 0.2, 0.3, 0.4]}), tmp_path / "pred.parquet")
    spec = BASE.replace("pred.csv", "pred.parquet").replace("title: t", "title: t\npositive: 'yes'")
    path = _write(tmp_path, spec, {})
    assert main(["validate", str(path)]) == 0, capsys.readouterr().err


@pytest.mark.parametrize("value", ["0", "-1", "17", "100000000000000000000"])
def test_threads_out_of_range(tmp_path, capsys, monkeypatch, value):
    # issue 36: EVALREPORT_THREADS is checked as EVALREPORT_SORT is, before any work
    monkeypatch.setenv("EVALREPORT_THREADS", value)
    path = _write(tmp_path, BASE)
    assert main(["run", str(path), "--quiet"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"error: EVALREPORT_THREADS must be a whole number from 1 to 16, got {value!r}"]
    assert not (tmp_path / "out").exists()


def test_every_problem_in_one_pass(tmp_path, capsys):
    # issue 36: a spec's problems came in rounds (the keys' own, then across keys, then the data);
    # the keys' own problems and those across keys now come together
    spec = BASE.replace("version: 1\n", "version: 1\ntask: multiclass\n").replace(
        "b: p_b", "b: {score: p_b, threshold: x}") + (
        "confidence: {bootstrap: -1}\nthreshold: '0.5'\ngates:\n  - {learner: zz, metric: auc, min: 0.5}\n"
        "metrics: [auc, bogus]\n")
    path = _write(tmp_path, spec)
    assert main(["validate", str(path)]) == 2
    lines = [line.replace(str(tmp_path) + "/", "") for line in capsys.readouterr().err.splitlines()]
    heads = [line.split(": ", 3)[1:3] for line in lines]
    assert heads == [
        ["spec.yaml:2", "task"],  # across keys: a multiclass task needs classes
        ["spec.yaml:9", "data[0].learners.a"],  # across keys: a multiclass learner gives a list
        ["spec.yaml:10", "data[0].learners.b.threshold"],  # its own: not a number
        ["spec.yaml:12", "confidence.bootstrap"],  # its own: negative
        ["spec.yaml:13", "threshold"],  # its own: text
        ["spec.yaml:15", "gates[0].learner"],  # across keys: no learner zz
        ["spec.yaml:16", "metrics[1]"],  # a name: no metric bogus
    ], lines
    # learner b, whose threshold failed, is not judged across keys: its problem could come from the leaving out
    assert not any(line.split(": ")[2] == "data[0].learners.b" for line in lines)


def test_bins_are_bounded_where_the_edges_are_made():
    # issue 36: bins of 10**9 took the memory, 2**63 raised IndexError in bin_edges; the spec's
    # bound is the engine's
    from evalreport.metrics.calibration import MAX_BINS, bin_edges
    from evalreport.spec.models import MAX_BINS as SPEC_MAX_BINS

    assert MAX_BINS == SPEC_MAX_BINS == 10_000
    for bins in (2**63, 10**9, MAX_BINS + 1, 1, 0, True, 2.5):
        with pytest.raises(ValueError, match=r"^bins must be a whole number from 2 to 10,000"):
            bin_edges([0.1, 0.5], [1, 1], bins, "uniform", counts=True)
    assert bin_edges([0.1, 0.5], [1, 1], MAX_BINS, "uniform", counts=True).size == MAX_BINS + 1


# --- issue 36: the environment and the user's templates, checked before any work ---------------

@pytest.mark.parametrize("epoch, message", [
    ("", "SOURCE_DATE_EPOCH is set but empty: give whole seconds since 1970-01-01 UTC (e.g. 1767225600) or "
         "unset it"),
    ("  ", "SOURCE_DATE_EPOCH is set but empty: give whole seconds since 1970-01-01 UTC (e.g. 1767225600) or "
           "unset it"),
    ("yesterday", "SOURCE_DATE_EPOCH='yesterday' is not a Unix timestamp: give whole seconds since 1970-01-01 UTC "
                  "(e.g. 1767225600) or unset it"),
    ("1.5e9", "SOURCE_DATE_EPOCH='1.5e9' is not a Unix timestamp: give whole seconds since 1970-01-01 UTC "
              "(e.g. 1767225600) or unset it"),
    ("9" * 30, f"SOURCE_DATE_EPOCH='{'9' * 30}' is not a Unix timestamp: give whole seconds since 1970-01-01 UTC "
               "(e.g. 1767225600) or unset it"),
])
@pytest.mark.parametrize("command", ["run", "validate"])
def test_source_date_epoch_is_checked_first(tmp_path, capsys, monkeypatch, epoch, message, command):
    path = _write(tmp_path, BASE.replace("title: t", "title: t\ndate: 2026-01-08").replace("[json]",
                                                                                        "[json, pdf]"))
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
    assert main([command, str(path)]) == 2  # a date in the spec too: WeasyPrint reads the variable itself
    assert capsys.readouterr().err.splitlines() == [f"error: {message}"]
    assert not (tmp_path / "out").exists()


def _template_case(tmp_path, files: dict[str, str], formats="[html, pdf]"):
    folder = tmp_path / "tpl"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text)
    return _write(tmp_path, BASE.replace("report: {formats: [json], out: out}",
                                         f"report: {{formats: {formats}, out: out, template: tpl}}"))


def _base_template() -> str:
    from evalreport.resources import templates_dir

    return (templates_dir() / "base.html.j2").read_text()


@pytest.mark.parametrize("files, formats, problem", [
    ({"base.html.j2": "{% block x %}"}, "[html]",
     "the report cannot be made with the templates of {tpl}: template error: {tpl}/base.html.j2:1: "
     "Unexpected end of template."),
    ({"base.html.j2": "{{ no_such_name }}"}, "[html]",
     "the report cannot be made with the templates of {tpl}: template error: 'no_such_name' is undefined"),
    ({"base.html.j2": "lang"}, "[pdf]",
     'the report cannot be made with the templates of {tpl}: PDF: WeasyPrint: Missing required "lang" attribute '
     "at the root of the document"),
])
def test_a_user_template_error_is_exit_2_naming_the_template(tmp_path, capsys, files, formats, problem):
    if files.get("base.html.j2") == "lang":  # the page's root without its language: PDF/UA refuses it
        files = {"base.html.j2": _base_template().replace('<html lang="en">', "<html>")}
    path = _template_case(tmp_path, files, formats)
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if text.startswith("report:"))
    assert main(["run", str(path), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1
    expected = f"error: {path}:{line}: report.template: " + problem.format(tpl=tmp_path / "tpl")
    assert lines[0].startswith(expected)
    assert not (tmp_path / "out").exists()


def test_a_missing_template_folder_is_refused_before_the_evaluation(tmp_path, capsys, monkeypatch):
    import evalreport.pipeline

    monkeypatch.setattr(evalreport.pipeline, "evaluate", lambda *a, **k: pytest.fail("evaluated"))
    path = _write(tmp_path, BASE.replace("report: {formats: [json], out: out}",
                                         "report: {formats: [html], out: out, template: nope}"))
    assert main(["run", str(path)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"error: {path}:10: report.template: no such folder: nope"]
