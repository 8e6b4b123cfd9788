"""What results.json computes the same on every processor, and the tools that
check it (docs/architecture.md, "What is bit-identical across machines").

- The sums that went through BLAS (``np.dot``: OpenBLAS picks a kernel for the
  processor, and each adds in its own order) give the same bits under two
  OpenBLAS kernels, in two processes; ``np.dot`` itself does not, which shows
  that the kernels did change.
- Where CI sets ``NPY_DISABLE_CPU_FEATURES`` (.ci/run's second pass), NumPy
  really runs without those kernels: its features say so, and its float64 exp
  is then the C library's (NumPy's own is the AVX-512 one).
- tests/goldens.py, the comparison every golden test uses, finds what it must.
"""

from __future__ import annotations

import json
import math
import os
import platform
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import threadpoolctl

from goldens import REL, ZERO_FLOOR, assert_matches, differences

ROOT = Path(__file__).resolve().parents[1]
X86 = platform.machine().lower() in ("x86_64", "amd64")

# Each value once through np.dot (the BLAS kernel's order) and once as results.json
# computes it now: the dot product of the measures, the calibration and AP of one
# learner, the bootstrap's ECE and Brier score of each resample (BLAS products before).
SUMS = """\
import json, sys
import numpy as np
from evalreport.compare.stats import bootstrap as B
from evalreport.compare.stats import bootstrap_measures as M
from evalreport.metrics import evaluate_binary
from evalreport.metrics.calibration import brier_score, log_loss
from evalreport.metrics.sums import dot

rng = np.random.default_rng(35)
a, b = rng.random(1001), rng.random(1001)
y = rng.random(3000) < 0.3
s = np.clip(rng.normal(0.3 + 0.4 * y, 0.2), 0.0, 1.0)
ev = evaluate_binary(y, s)
pos = y.astype(float)
boot = B.resampled_values(y, s, statistics={"ece": M.ece_of(), "brier": M.brier_of}, n_resamples=40)
json.dump({"np.dot": repr(float(np.dot(a, b))),
           "ours": [repr(dot(a, b)), repr(ev.average_precision), repr(brier_score(s, pos, 1.0 - pos)),
                    repr(log_loss(s, pos, 1.0 - pos)),
                    [repr(float(v)) for v in boot["ece"]], [repr(float(v)) for v in boot["brier"]]]}, sys.stdout)
"""


def _openblas_can_switch() -> str | None:
    """Why the kernel test cannot run here, or None."""
    if not (X86 and sys.platform.startswith("linux")):
        return "OpenBLAS's x86-64 kernels on Linux"
    if not any(lib.get("internal_api") == "openblas" for lib in threadpoolctl.threadpool_info()):
        return "NumPy's BLAS is not OpenBLAS"
    flags = Path("/proc/cpuinfo").read_text()
    return None if " avx2" in flags else "the Haswell kernel needs AVX2"


@pytest.mark.slow
@pytest.mark.skipif(_openblas_can_switch() is not None, reason=str(_openblas_can_switch()))
def test_sums_are_the_same_under_two_blas_kernels():
    got = {}
    for core in ("Prescott", "Haswell"):  # SSE3 and AVX2: on every x86-64 with AVX2
        env = dict(os.environ, OPENBLAS_CORETYPE=core, OPENBLAS_NUM_THREADS="1",
                   PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
        proc = subprocess.run([sys.executable, "-c", SUMS], env=env, capture_output=True, text=True,
                              timeout=600)  # a hang guard
        assert proc.returncode == 0, proc.stderr
        got[core] = json.loads(proc.stdout)
    assert got["Prescott"]["np.dot"] != got["Haswell"]["np.dot"]  # the kernels differ
    assert got["Prescott"]["ours"] == got["Haswell"]["ours"]


def _disabled() -> list[str]:
    return os.environ.get("NPY_DISABLE_CPU_FEATURES", "").replace(",", " ").split()


@pytest.mark.skipif(not _disabled(), reason="NPY_DISABLE_CPU_FEATURES is not set (.ci/run's second pass sets it)")
def test_numpy_runs_without_the_kernels_ci_turned_off():
    from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__

    for name in _disabled():
        # a name NumPy does not dispatch on is ignored by NumPy with a warning only: refuse it here
        assert name in __cpu_dispatch__, f"{name} is not one of NumPy's dispatch targets {__cpu_dispatch__}"
        assert not __cpu_features__[name], f"NumPy still uses {name}"
    if X86 and "X86_V4" in _disabled():
        # NumPy's float64 exp is its AVX-512 kernel, else the C library's (math.exp):
        # without AVX-512 the two agree on every value
        x = np.random.default_rng(4).normal(size=2000)
        assert np.exp(x).tolist() == [math.exp(v) for v in x.tolist()]


def test_goldens_compare_floats_to_a_relative_tolerance():
    assert differences(0.1 + 0.2, 0.3) == []  # a few ulp
    assert differences(1.0 + 2 * REL, 1.0) == ["$: 1.000000000002 != 1.0"]
    assert differences(1e-300 * (1 + REL / 2), 1e-300) == []  # relative at any scale
    assert differences(ZERO_FLOOR / 2, 0.0) == [] and differences(2 * ZERO_FLOOR, 0.0) != []
    assert differences(1e-17, 1e-300) != []  # the floor is for a golden 0 only


def test_goldens_compare_everything_else_exactly():
    want = {"n": 3, "ok": True, "name": "a", "v": [0.5, None], "w": {"x": 1, "y": 2}}
    assert differences(json.loads(json.dumps(want)), want) == []
    assert differences({**want, "n": 3.0}, want) == ["$.n: type float != int (3.0 != 3)"]
    assert differences({**want, "ok": 1}, want) == ["$.ok: type int != bool (1 != True)"]
    assert differences({**want, "name": "b"}, want) == ["$.name: 'b' != 'a'"]
    assert differences({**want, "v": [0.5]}, want) == ["$.v: length 1 != 2"]
    assert differences({**want, "w": {"y": 2, "x": 1}}, want) == ["$.w: keys differ (key order differs)"]
    assert differences({**want, "w": {"x": 1}}, want) == ["$.w: keys differ (missing ['y'], extra [])"]
    with pytest.raises(AssertionError, match=r"1 difference\(s\) from the golden file:\n\$.name: 'b' != 'a'"):
        assert_matches({**want, "name": "b"}, want)
