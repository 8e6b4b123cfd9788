"""The archive of a scheduled audit's runs (evalreport.history.archive): atomic
replacement, keep-n pruning, reading back, the previous run."""

import json
import os

import pytest

from evalreport.history import archive
from evalreport.history.archive import previous, runs, store


def _results(auc):
    return json.dumps({"date": "x", "learners": {"a": {"auc": auc}}}).encode()


def test_store_and_read_back(tmp_path):
    assert store(tmp_path, "2026-01-08", _results(0.8), keep=5) == []
    store(tmp_path, "2026-01-01", _results(0.7), keep=5)
    got = runs(tmp_path)
    assert [d for d, _ in got] == ["2026-01-01", "2026-01-08"]
    assert got[1][1]["learners"]["a"]["auc"] == 0.8
    assert got.warnings == []
    assert (tmp_path / "2026-01-08" / "results.json").read_bytes() == _results(0.8)


def test_rerun_same_date_replaces_entry(tmp_path):
    store(tmp_path, "2026-01-08", _results(0.8), keep=5)
    store(tmp_path, "2026-01-08", _results(0.9), keep=5)
    got = runs(tmp_path)
    assert [(d, r["learners"]["a"]["auc"]) for d, r in got] == [("2026-01-08", 0.9)]
    assert sorted(os.listdir(tmp_path / "2026-01-08")) == ["results.json"]  # no temporary file left


def test_failure_mid_write_leaves_previous_entry_intact(tmp_path, monkeypatch):
    store(tmp_path, "2026-01-08", _results(0.8), keep=5)

    def broken(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(archive.os, "replace", broken)
    with pytest.raises(OSError, match="disk full"):
        store(tmp_path, "2026-01-08", _results(0.9), keep=5)
    with pytest.raises(OSError, match="disk full"):
        store(tmp_path, "2026-01-15", _results(0.9), keep=1)  # nor prunes on failure
    monkeypatch.undo()
    assert (tmp_path / "2026-01-08" / "results.json").read_bytes() == _results(0.8)
    assert sorted(os.listdir(tmp_path / "2026-01-08")) == ["results.json"]
    assert not (tmp_path / "2026-01-15").exists()  # a failed first write leaves no empty entry
    assert [d for d, _ in runs(tmp_path)] == ["2026-01-08"]


def test_keep_prunes_the_oldest(tmp_path):
    for day in ("01", "08", "15", "22"):
        store(tmp_path, f"2026-01-{day}", _results(0.8), keep=10)
    (tmp_path / "notes.txt").write_text("not an entry")
    (tmp_path / "other").mkdir()  # a folder without results.json: not an entry, not deleted
    assert store(tmp_path, "2026-01-29", _results(0.8), keep=3) == ["2026-01-01", "2026-01-08"]
    assert [d for d, _ in runs(tmp_path)] == ["2026-01-15", "2026-01-22", "2026-01-29"]
    assert (tmp_path / "notes.txt").exists() and (tmp_path / "other").is_dir()


def test_unreadable_entries_are_skipped_with_a_warning(tmp_path):
    store(tmp_path, "2026-01-01", _results(0.7), keep=5)
    store(tmp_path, "2026-01-08", _results(0.8), keep=5)
    (tmp_path / "2026-01-08" / "results.json").write_text("{not json")
    (tmp_path / "2026-01-15").mkdir()
    (tmp_path / "2026-01-15" / "results.json").write_text("[1, 2]")
    got = runs(tmp_path)
    assert [d for d, _ in got] == ["2026-01-01"]
    assert len(got.warnings) == 2
    assert got.warnings[0].startswith(f"history: {tmp_path / '2026-01-08' / 'results.json'} skipped: not JSON (")
    assert got.warnings[1] == (f"history: {tmp_path / '2026-01-15' / 'results.json'} skipped: not an evalreport "
                               "results.json (no learners)")


def test_previous_is_strictly_before(tmp_path):
    assert previous(tmp_path, "2026-01-08") is None  # no archive yet
    for day in ("01", "08", "15"):
        store(tmp_path, f"2026-01-{day}", _results(0.8), keep=10)
    assert previous(tmp_path, "2026-01-15")[0] == "2026-01-08"
    assert previous(tmp_path, "2026-01-10")[0] == "2026-01-08"
    assert previous(tmp_path, "2026-01-01") is None
    assert previous(tmp_path, "2026-02-01")[0] == "2026-01-15"


@pytest.mark.parametrize("date", ["../x", "a/b", ".hidden", ""])
def test_date_must_name_a_folder(tmp_path, date):
    with pytest.raises(ValueError, match="cannot name an archive folder"):
        store(tmp_path, date, _results(0.8), keep=3)


def test_keep_at_least_one(tmp_path):
    with pytest.raises(ValueError, match="keep must be at least 1"):
        store(tmp_path, "2026-01-01", _results(0.8), keep=0)


# --- the spec's history: {dir, keep} ---------------------------------------

SPEC = """\
version: 1
data:
  - path: pred.csv
    label: y
    learners: {a: p_a}
report: {formats: [json], out: out}
"""


def _validate(tmp_path, capsys, history: str):
    from evalreport.__main__ import main

    (tmp_path / "pred.csv").write_text("y,p_a\n1,0.9\n0,0.2\n1,0.6\n0,0.4\n")
    path = tmp_path / "spec.yaml"
    path.write_text(SPEC + history)
    status = main(["validate", str(path)])
    err = capsys.readouterr().err
    return status, [line.replace(str(tmp_path) + "/", "") for line in err.splitlines()]


def test_spec_history_defaults(tmp_path):
    from evalreport.spec import parse_spec

    spec = parse_spec(SPEC + "history: {dir: archive}\n", base_dir=tmp_path)
    assert (spec.history.dir, spec.history.keep) == ("archive", 52)
    assert spec.resolve(spec.history.dir) == tmp_path / "archive"
    assert parse_spec(SPEC).history is None


@pytest.mark.parametrize("history, expected", [
    ("history:\n  dir: archive\n  kep: 4\n",
     "error: spec.yaml:9: history.kep: unknown key 'kep' (did you mean 'keep'?); valid keys here: dir, keep"),
    ("history:\n  dir: archive\n  keep: 0\n",
     "error: spec.yaml:9: history.keep: Input should be greater than or equal to 1 (got 0)"),
    ("history:\n  dir: archive\n  keep: true\n",
     "error: spec.yaml:9: history.keep: Input should be a number, not a boolean (got True)"),
    ("history: {keep: 3}\n", "error: spec.yaml:7: history.dir: required key is missing"),
    ("history: {dir: ' '}\n", "error: spec.yaml:7: history.dir: give the archive's folder (relative to the spec file)"),
])
def test_spec_history_errors(tmp_path, capsys, history, expected):
    status, lines = _validate(tmp_path, capsys, history)
    assert status == 2
    assert lines == [expected]


def test_spec_history_in_schema():
    from evalreport.spec import schema_text

    schema = json.loads(schema_text())
    history = schema["$defs"]["History"]
    assert history["additionalProperties"] is False
    assert history["required"] == ["dir"]
    assert history["properties"]["keep"]["default"] == 52
    assert "relative to the spec file" in history["properties"]["dir"]["description"]
