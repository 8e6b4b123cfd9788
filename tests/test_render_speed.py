"""What a small run imports and draws: start-up cost is most of a small
report's time (bench/render.py), so a run loads only what its formats need."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _modules_after_run(tmp_path, example: str, formats: str) -> set[str]:
    code = (
        "import sys\n"
        "from evalreport.__main__ import main\n"
        f"main(['run', {str(ROOT / 'examples' / example / 'spec.yaml')!r}, '--out', {str(tmp_path / 'out')!r},"
        f" '--format', {formats!r}, '--quiet'])\n"
        "print('\\n'.join(sorted(sys.modules)))\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT), MPLBACKEND="Agg")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    return set(proc.stdout.split())


def test_reading_a_small_csv_does_not_import_pandas(tmp_path):
    # pyarrow imports pandas on to_numpy() and on any Python value made an Arrow scalar
    for example in ("watermelon", "breast_cancer"):  # text ids, number ids
        assert "pandas" not in _modules_after_run(tmp_path, example, "json")
