"""What a command imports (issue 24): `evalreport --version` answers without NumPy,
pydantic or the spec models; a JSON run imports no pandas (tests/test_render_speed.py
checks the examples), also with text labels and text ids."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

MODULES = (
    "import runpy, sys\n"
    "sys.argv = ['evalreport', *sys.argv[1:]]\n"
    "try:\n"
    "    runpy.run_module('evalreport', run_name='__main__')\n"
    "except SystemExit as exc:\n"
    "    assert exc.code in (0, None, 3), exc.code\n"
    "print('\\n'.join(sorted(sys.modules)), file=sys.stderr)\n"
)


def _imported(*args: str, cwd: Path = ROOT) -> tuple[str, set[str]]:
    """(stdout, the modules loaded) of `python -m evalreport ARGS`, run as a module."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
               MPLBACKEND="Agg")
    proc = subprocess.run([sys.executable, "-c", MODULES, *args], capture_output=True, text=True, env=env, cwd=cwd)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout, set(proc.stderr.split())


def test_version_imports_only_what_it_needs():
    out, modules = _imported("--version")
    assert out.startswith("evalreport ")
    for heavy in ("numpy", "pydantic", "yaml", "pandas", "pyarrow", "scipy", "jinja2", "matplotlib",
                  "evalreport.spec", "evalreport.pipeline"):
        assert heavy not in modules, heavy


@pytest.mark.slow
def test_a_json_run_with_text_labels_and_ids_imports_no_pandas(tmp_path):
    rows = "".join(f"r{i},{'good' if i % 3 else 'bad'},{(i * 37 % 101) / 101}\n" for i in range(60))
    (tmp_path / "p.csv").write_text("id,ripe,a\n" + rows)
    (tmp_path / "spec.yaml").write_text(
        "version: 1\ntitle: t\ndate: 2026-11-26\ntask: binary\npositive: good\n"
        "data:\n  - path: p.csv\n    label: ripe\n    id: id\n    learners:\n      a: a\n"
        "confidence: {bootstrap: 50}\nreport: {formats: [json]}\n")
    _, modules = _imported("run", str(tmp_path / "spec.yaml"), "--quiet", "--out", str(tmp_path / "out"))
    assert (tmp_path / "out" / "results.json").exists()
    assert "pandas" not in modules


@pytest.mark.slow
def test_a_json_run_with_integer_labels_imports_no_pyarrow_compute(tmp_path):
    # 0/1 labels are counted and compared by NumPy off the Arrow buffers:
    # pyarrow.compute (about 0.03 s of CPU) stays out of such a run (data/checks._integers)
    rows = "".join(f"{i},{int(i % 3 == 0)},{(i * 37 % 101) / 101}\n" for i in range(60))
    (tmp_path / "p.csv").write_text("id,y,a\n" + rows)
    (tmp_path / "spec.yaml").write_text(
        "version: 1\ntitle: t\ndate: 2026-11-26\ntask: binary\n"
        "data:\n  - path: p.csv\n    label: y\n    id: id\n    learners:\n      a: a\n"
        "confidence: {bootstrap: 50}\nreport: {formats: [json]}\n")
    _, modules = _imported("run", str(tmp_path / "spec.yaml"), "--quiet", "--out", str(tmp_path / "out"))
    assert (tmp_path / "out" / "results.json").exists()
    assert "pyarrow.compute" not in modules and "pandas" not in modules


@pytest.mark.slow
def test_arrow_integer_and_boolean_labels_read_as_through_arrow():
    import numpy as np
    import pyarrow as pa

    from evalreport.data.checks import distinct, _equal_mask
    from evalreport.metrics.labels import label_key

    for chunks in ([[1, 0, 0, 1], [2, 1]], [[True, False], [False, True, True]], [[7, 7], [7]]):
        col = pa.chunked_array(chunks)
        values, first, scalars = distinct(col)
        flat = [v for chunk in chunks for v in chunk]
        assert sorted(label_key(v) for v in values) == sorted({label_key(v) for v in flat})
        keys = [label_key(x) for x in flat]
        for v, f, s in zip(values, first, scalars):  # (as the Arrow road gives them too)
            assert f == keys.index(label_key(v))
            assert np.array_equal(_equal_mask(col, s), np.array(keys) == label_key(v))
