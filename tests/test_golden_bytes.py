"""results.json of every example (large_data on 2,000 rows of its own
make_data.py) against the file stored in tests/golden/bytes/, and byte for byte
against itself on a rerun.

Against the golden: the numbers within tests/goldens.py's tolerance (a
relative 1e-12: the last digits of a float may differ from one processor to
another), everything else exactly, and the layout too: the text with every
float written as ``F`` is the golden's, so key order, indentation, the lists
kept on one line and the formatting of integers and strings hold still (a
change of structure, issue 18's redesign say, must leave every byte of it in
place). On a rerun on the same machine: the same bytes.

After a deliberate change of the numbers or of the layout, update with:

    EVALREPORT_UPDATE_GOLDEN=1 python3 -m pytest tests/test_golden_bytes.py
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
from pathlib import Path

import pytest

from evalreport.__main__ import main
from goldens import assert_matches

ROOT = Path(__file__).resolve().parents[1]
BYTES = Path(__file__).resolve().parent / "golden" / "bytes"
#: the date of specs without one: SOURCE_DATE_EPOCH, 2026-11-22 UTC
EPOCH = "1795305600"
SPECS = {
    "watermelon": ROOT / "examples" / "watermelon" / "spec.yaml",
    "breast_cancer": ROOT / "examples" / "breast_cancer" / "spec.yaml",
    "multiclass_folds": ROOT / "examples" / "multiclass_folds" / "spec.yaml",
    "scheduled_audit": ROOT / "examples" / "scheduled_audit" / "spec.yaml",
    "validated_threshold": ROOT / "examples" / "validated_threshold" / "spec.yaml",
    "credit_audit": ROOT / "examples" / "credit_audit" / "spec.yaml",
    "large_data": ROOT / "examples" / "large_data" / "spec.yaml",
    "large_data_duckdb": ROOT / "examples" / "large_data" / "spec_duckdb.yaml",
}
#: a float literal of JSON (a fraction or an exponent); integers are left alone
FLOAT = re.compile(r"-?\d+(?:\.\d+(?:[eE][-+]?\d+)?|[eE][-+]?\d+)")
#: the first run of each example in this module, for the rerun test
_FIRST: dict[str, bytes] = {}


def _large_data(folder: Path) -> None:
    path = ROOT / "examples" / "large_data" / "make_data.py"
    spec = importlib.util.spec_from_file_location("example_large_data_make_data", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.write(folder / "predictions.parquet", 2_000)


def _run(name: str, folder: Path) -> bytes:
    spec = SPECS[name]
    if name.startswith("large_data"):
        _large_data(folder)
        shutil.copy(spec, folder / spec.name)
        spec = folder / spec.name
    out = folder / "out"
    main(["run", str(spec), "--quiet", "--out", str(out), "--format", "json"])
    return (out / "results.json").read_bytes()


def _layout(text: str) -> str:
    return FLOAT.sub("F", text)


@pytest.mark.parametrize("name", list(SPECS))
def test_results_json_matches_its_golden(tmp_path, monkeypatch, name):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    got = _FIRST[name] = _run(name, tmp_path)
    golden = BYTES / f"{name}.results.json"
    if os.environ.get("EVALREPORT_UPDATE_GOLDEN"):
        golden.write_bytes(got)
    want = golden.read_text(encoding="utf-8")
    assert_matches(json.loads(got), json.loads(want))
    assert _layout(got.decode("utf-8")) == _layout(want)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(SPECS))
def test_results_json_is_byte_identical_on_a_rerun(tmp_path, monkeypatch, name):
    # the same inputs on the same machine give the same bytes (in this process:
    # no cache or state left by the first run changes a digit)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = _FIRST.get(name) or _run(name, tmp_path / "a")
    assert _run(name, tmp_path / "b") == first


def test_the_layout_mask_hides_floats_only():
    text = '{"n": 12, "auc": 0.9123, "v": [1e-05, -2.5E+3, 3], "s": "x"}'
    assert _layout(text) == '{"n": 12, "auc": F, "v": [F, F, 3], "s": "x"}'
