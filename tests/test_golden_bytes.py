"""results.json byte for byte: every example (large_data on 2,000 rows of its
own make_data.py) gives exactly the file stored in
tests/golden/bytes/. Where test_examples.py compares parsed JSON, this one also
holds the key order, the number formatting and the layout still: a change of
structure (issue 18's redesign, say) must leave every byte in place.

After a deliberate change of the numbers or of the layout, update with:

    EVALREPORT_UPDATE_GOLDEN=1 python3 -m pytest tests/test_golden_bytes.py
"""

from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path

import pytest

from evalreport.__main__ import main

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


def _large_data(tmp_path: Path) -> None:
    path = ROOT / "examples" / "large_data" / "make_data.py"
    spec = importlib.util.spec_from_file_location("example_large_data_make_data", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.write(tmp_path / "predictions.parquet", 2_000)


@pytest.mark.parametrize("name", list(SPECS))
def test_results_json_is_byte_identical(tmp_path, monkeypatch, name):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    spec = SPECS[name]
    if name.startswith("large_data"):
        if name.endswith("duckdb"):
            pytest.importorskip("duckdb")
        _large_data(tmp_path)
        shutil.copy(spec, tmp_path / spec.name)
        spec = tmp_path / spec.name
    out = tmp_path / "out"
    main(["run", str(spec), "--quiet", "--out", str(out), "--format", "json"])
    got = (out / "results.json").read_bytes()
    golden = BYTES / f"{name}.results.json"
    if os.environ.get("EVALREPORT_UPDATE_GOLDEN"):
        golden.write_bytes(got)
    assert got == golden.read_bytes()

