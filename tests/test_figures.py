"""The figures (evalreport/figures.py): drawn without pyplot, axes fitted to
what they show, alt text that says what a figure shows."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _python(code: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("MPLBACKEND", None)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          check=True, cwd=ROOT).stdout


def test_drawing_never_imports_pyplot():
    # pyplot costs a third of matplotlib's import and picks a GUI backend; the
    # figures are drawn on Figure objects with the SVG backend's canvas
    out = _python(
        "import sys\n"
        "import evalreport.figures as f\n"
        "assert 'matplotlib.pyplot' not in sys.modules\n"
        "svg = f.critical_difference_figure(['a', 'b', 'c'], [1.2, 2.0, 2.8], 1.1, [(0, 2)])\n"
        "assert svg.startswith('<svg')\n"
        "print('matplotlib.pyplot' in sys.modules)\n")
    assert out == "False\n"
