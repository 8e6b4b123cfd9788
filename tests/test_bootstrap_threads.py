"""results.json does not depend on the BLAS thread count (issue 24).

OpenBLAS sums a dot product of more than 10,000 elements in one part per thread,
so a sum through ``np.dot`` changes in its last digit with OPENBLAS_NUM_THREADS: the
bootstrap's average precision of each resample did (a table of over 10,000 rows),
and so did DeLong's variance, the Brier score and the log loss of a learner. The
same run, at 2e4 rows, in two processes with one and two BLAS threads, gives the
same bytes.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
ROWS = 20_000


def _write(folder: Path) -> Path:
    rng = np.random.default_rng(24)
    y = (rng.random(ROWS) < 0.3).astype(int)
    score = 1.0 / (1.0 + np.exp(-(rng.normal(size=ROWS) + 1.2 * y - 0.5)))
    lines = ["id,y,a"] + [f"{i},{y[i]},{float(score[i])!r}" for i in range(ROWS)]
    (folder / "data.csv").write_text("\n".join(lines) + "\n")
    spec = folder / "spec.yaml"
    spec.write_text(
        "version: 1\ntitle: threads\ndate: 2026-11-26\ntask: binary\n"
        "data:\n  - path: data.csv\n    label: y\n    id: id\n    learners:\n      a: a\n"
        "threshold: 0.5\ncosts: {false_negative: 5, false_positive: 1}\n"
        # 300 resamples: enough to hit the sums that moved, quick to run
        "confidence: {bootstrap: 300}\n"
        "report: {formats: [json]}\n")
    return spec


def _run(spec: Path, out: Path, threads: int) -> bytes:
    env = dict(os.environ, OPENBLAS_NUM_THREADS=str(threads), OMP_NUM_THREADS=str(threads),
               MKL_NUM_THREADS=str(threads), SOURCE_DATE_EPOCH="1795305600",
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run([sys.executable, "-m", "evalreport", "run", str(spec), "--quiet", "--format", "json",
                           "--out", str(out)], env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return (out / "results.json").read_bytes()


@pytest.mark.slow
def test_results_json_is_the_same_under_one_and_two_blas_threads(tmp_path):
    spec = _write(tmp_path)
    one = _run(spec, tmp_path / "one", 1)
    two = _run(spec, tmp_path / "two", 2)
    assert b'"bootstrap"' in one and b'"average_precision": [' in one
    assert one == two
