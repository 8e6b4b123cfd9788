"""The Python API's first calls, as a notebook user waits for them (issue 38).

    python3 bench/api.py                 # 3 rounds
    python3 bench/api.py --rounds 5 --rows 10000

Prints, for labels and two learners' scores of ``--rows`` rows (seeded):

1. ``evalreport.from_predictions(y, {"a": p1, "b": p2})``: CPU seconds after
   ``import evalreport`` (each round in a fresh subprocess, timed around the call
   alone, the first-use imports it makes included: scipy.special for the
   reliability bins' Wilson intervals, pandas, which pyarrow's ``pa.array``
   imports; the bootstrap is deferred: :mod:`evalreport.deferred`), then a
   second call in the same process. Target < 0.15 s.
2. The first ``result._repr_html_()`` of that result: CPU seconds. Before the
   intervals are computed it shows the point values and says that the intervals,
   tests, gates and verdict are not computed yet, and how to get them
   (report/notebook.py's ``point_values_context``). Target < 1 s.
3. ``result.with_intervals()`` alone (the full result the report prints), then
   ``_repr_html_`` again: page one of the report (it draws the report's figures).
4. A JSON-only ``python3 -m evalreport run`` of the same data as a CSV file:
   the child's CPU seconds (user + system), imports included. Target < 1.5 s.

With the CPU's name (/proc/cpuinfo) and NumPy's SIMD path (``numpy.show_runtime``'s
``simd_extensions``), and the load average at the start. The figures are medians
over the rounds. Not a test: nothing asserts a time.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = textwrap.dedent("""
    import json, sys, time
    import numpy as np
    import evalreport
    rng = np.random.default_rng(0)
    n = int(sys.argv[1])
    y = rng.integers(0, 2, n)
    p1 = np.clip(y * 0.3 + rng.random(n) * 0.7, 0, 1)
    p2 = np.clip(y * 0.2 + rng.random(n) * 0.8, 0, 1)
    import evalreport.arrays, evalreport.pipeline, evalreport.spec, pyarrow  # the imports, before the clock
    t = time.process_time()
    result = evalreport.from_predictions(y, {"a": p1, "b": p2}, positive=1)
    quick = time.process_time() - t
    t = time.process_time()
    evalreport.from_predictions(y, {"a": p1, "b": p2}, positive=1)
    again = time.process_time() - t
    t = time.process_time()
    result.with_intervals()
    full = time.process_time() - t
    t = time.process_time()
    result._repr_html_()
    html = time.process_time() - t
    print(json.dumps({"quick": quick, "again": again, "full": full, "page_one": html}))
""")

HTML_CHILD = textwrap.dedent("""
    import json, sys, time
    import numpy as np
    import evalreport
    rng = np.random.default_rng(0)
    n = int(sys.argv[1])
    y = rng.integers(0, 2, n)
    p1 = np.clip(y * 0.3 + rng.random(n) * 0.7, 0, 1)
    p2 = np.clip(y * 0.2 + rng.random(n) * 0.8, 0, 1)
    result = evalreport.from_predictions(y, {"a": p1, "b": p2}, positive=1)
    t = time.process_time()
    result._repr_html_()
    print(json.dumps({"first_html": time.process_time() - t}))
""")


def _env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.setdefault("MPLBACKEND", "Agg")
    return env


def _child(code: str, rows: int) -> dict:
    proc = subprocess.run([sys.executable, "-c", code, str(rows)], env=_env(), cwd=ROOT, capture_output=True,
                          text=True, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _run_cpu(spec: Path, out: Path) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([sys.executable, "-m", "evalreport", "run", str(spec), "--format", "json",
                           "--out", str(out)], env=_env(), cwd=ROOT, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 3):
        sys.exit(proc.stderr.decode(errors="replace"))
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


def _simd() -> str:
    import numpy as np

    try:
        from numpy._core._multiarray_umath import __cpu_baseline__, __cpu_dispatch__, __cpu_features__
        found = [f for f in __cpu_dispatch__ if __cpu_features__.get(f)]
        return f"NumPy {np.__version__}: baseline {' '.join(__cpu_baseline__)}; found {' '.join(found)}"
    except ImportError:
        return f"NumPy {np.__version__}"


def _spec(folder: Path, rows: int) -> Path:
    import numpy as np

    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, rows)
    p1 = np.clip(y * 0.3 + rng.random(rows) * 0.7, 0, 1)
    p2 = np.clip(y * 0.2 + rng.random(rows) * 0.8, 0, 1)
    with open(folder / "scores.csv", "w") as f:
        f.write("y,a,b\n")
        for row in zip(y.tolist(), p1.tolist(), p2.tolist()):
            f.write("%d,%r,%r\n" % row)
    spec = folder / "spec.yaml"
    spec.write_text("version: 1\ntask: binary\npositive: 1\ndata:\n  - path: scores.csv\n    label: y\n"
                    "    learners: {a: a, b: b}\nreport: {formats: [json]}\n")
    return spec


def _compile_bytecode() -> None:
    """Write the checkout's bytecode (__pycache__, git-ignored) before any child
    runs, as ``pip install`` does: under PYTHONDONTWRITEBYTECODE=1 (set on this
    project's shared machine) no child writes it, so each one compiled every
    evalreport module from source, about 0.3 s of CPU that no installed copy pays."""
    import compileall

    compileall.compile_dir(str(ROOT / "evalreport"), quiet=1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--rows", type=int, default=10_000)
    args = ap.parse_args()
    _compile_bytecode()
    print(f"CPU: {_cpu_name()}, {os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.1f} at the start")
    print(_simd())
    rows: dict[str, list[float]] = {"quick": [], "again": [], "first_html": [], "full": [], "page_one": [],
                                    "run": []}
    with tempfile.TemporaryDirectory() as tmp:
        spec = _spec(Path(tmp), args.rows)
        for r in range(args.rounds):
            got = _child(CHILD, args.rows)
            rows["quick"].append(got["quick"])
            rows["again"].append(got["again"])
            rows["full"].append(got["full"])
            rows["page_one"].append(got["page_one"])
            rows["first_html"].append(_child(HTML_CHILD, args.rows)["first_html"])
            rows["run"].append(_run_cpu(spec, Path(tmp) / f"out{r}"))
    targets = {"quick": 0.15, "again": 0.15, "first_html": 1.0, "full": None, "page_one": None, "run": 1.5}
    names = {"quick": f"from_predictions, {args.rows:,} rows, 2 learners: the first call after import "
                      "(its first-use imports included)",
             "again": "from_predictions again, same process (no import left)",
             "first_html": "first _repr_html_ (the point values; says the intervals are not computed yet)",
             "full": "with_intervals() (the bootstrap, tests, verdict)",
             "page_one": "_repr_html_ after with_intervals() (page one: the report's figures drawn)",
             "run": f"evalreport run --format json, {args.rows:,} rows (child CPU, imports included)"}
    print(f"\n| what | CPU s, median of {args.rounds} | min | target |")
    print("|---|---:|---:|---:|")
    for k, v in rows.items():
        t = targets[k]
        print(f"| {names[k]} | {statistics.median(v):.3f} | {min(v):.3f} | {'' if t is None else f'< {t:g}'} |")
    print(f"\nload average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
