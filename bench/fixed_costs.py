"""Benchmark: the fixed costs a user waits for (issue 24), in CPU seconds.

Each figure comes from a fresh child process; CPU seconds are the child's user +
system time (``resource.getrusage(RUSAGE_CHILDREN)``), peak memory its max RSS.

    python3 bench/fixed_costs.py                # every figure
    python3 bench/fixed_costs.py --only run     # one: run, blas, version, imports, report

Figures:
- run: `evalreport run --format json` on 1e4 rows x two learners, a spec with
  costs and the default 2,000 bootstrap resamples (target: under 1 s of CPU);
  also the bootstrap alone (in-process, per learner), the same run without the
  bootstrap, the imports it pays for (evalreport.pipeline, pydantic, pyarrow.csv,
  after NumPy, with one BLAS thread as the command line asks for), and NumPy's
  import under OpenBLAS's default threads and one;
- blas: the same kind of run at 2e4 rows under OPENBLAS_NUM_THREADS /
  OMP_NUM_THREADS = 1 and 2: CPU seconds of each and whether results.json is
  byte-identical;
- version: `python -m evalreport --version` (CPU seconds, modules imported,
  whether pandas / pydantic / numpy / scipy.special are among them);
- imports: whether a json run imports pandas, scipy.special, matplotlib or pyarrow.compute;
- report: a run writing html and pdf (1e4 rows): CPU seconds, and how many times
  the report context was built (render_html called).

The data is generated under a temporary folder (seeded: the same every run).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def generate(folder: Path, rows: int) -> Path:
    """A CSV of ``rows`` rows (id, y, two learners' scores) and a spec with costs."""
    rng = np.random.default_rng(2024)
    y = (rng.random(rows) < 0.3).astype(np.int8)
    a = 1.0 / (1.0 + np.exp(-(rng.normal(size=rows) + 1.2 * y - 0.5)))
    b = 1.0 / (1.0 + np.exp(-(rng.normal(size=rows) + 0.8 * y - 0.5)))
    data = folder / f"pred_{rows}.csv"
    with data.open("w") as f:
        f.write("id,y,a,b\n")
        for i in range(rows):
            f.write(f"{i},{y[i]},{float(a[i])!r},{float(b[i])!r}\n")
    spec = folder / f"spec_{rows}.yaml"
    spec.write_text(
        "version: 1\ntitle: fixed costs\ndate: 2026-11-26\ntask: binary\n"
        f"data:\n  - path: {data.name}\n    label: y\n    id: id\n    learners:\n      a: a\n      b: b\n"
        "threshold: 0.5\ncosts: {false_negative: 5, false_positive: 1}\n"
        "report: {formats: [json]}\n")
    return spec


def child(argv: list[str], env: dict | None = None) -> tuple[float, float, float, str]:
    """(CPU seconds, wall seconds, peak RSS MiB, stdout) of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    e = dict(os.environ, PYTHONPATH=str(ROOT), MPLBACKEND="Agg")
    e.update(env or {})
    proc = subprocess.run(argv, capture_output=True, text=True, env=e)
    wall = time.perf_counter() - t0
    if proc.returncode not in (0, 3):
        raise SystemExit(f"{argv} failed ({proc.returncode}):\n{proc.stderr}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, after.ru_maxrss / 1024, proc.stdout + proc.stderr


def run_cmd(spec: Path, out: Path, fmt: str = "json") -> list[str]:
    return [sys.executable, "-m", "evalreport", "run", str(spec), "--format", fmt, "--quiet", "--out", str(out)]


BOOT = r"""
import sys, time, resource, numpy as np
from evalreport.compare import stats
rng = np.random.default_rng(2024)
n = int(sys.argv[1])
y = rng.random(n) < 0.3
s = 1.0 / (1.0 + np.exp(-(rng.normal(size=n) + 1.2 * y - 0.5)))
r0 = resource.getrusage(resource.RUSAGE_SELF)
ci = stats.bootstrap_intervals(y, s, n_resamples=2000, seed=0, statistics={
    "bep": stats.bep_score, "f1": stats.f1_at(0.5), "average_precision": stats.average_precision_score,
    "expected_total_cost": stats.expected_total_cost})
r1 = resource.getrusage(resource.RUSAGE_SELF)
print(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
"""

MODULES = r"""
import runpy, sys
sys.argv = ["evalreport", *sys.argv[1:]]
try:
    runpy.run_module("evalreport", run_name="__main__")
except SystemExit:
    pass
mods = sys.modules
print("MODULES", len(mods), *(m for m in ("pandas", "pydantic", "numpy", "scipy.special", "scipy.stats", "yaml",
                                          "matplotlib", "weasyprint", "pyarrow.compute") if m in mods))
"""

COUNT_RENDERS = r"""
import sys
import jinja2
import evalreport.report.html as h
counts = {"render_html": 0, "environments": 0}
original, init = h.render_html, jinja2.Environment.__init__
def counted(*a, **k):
    counts["render_html"] += 1
    return original(*a, **k)
def env_init(self, *a, **k):
    counts["environments"] += 1
    init(self, *a, **k)
h.render_html = counted
jinja2.Environment.__init__ = env_init
from evalreport.__main__ import main
status = main(sys.argv[1:])
print("RENDERS", counts["render_html"], counts["environments"])
"""

#: CPU seconds of importing a module in a fresh interpreter that has NumPy already
IMPORT_CPU = r"""
import sys, time, numpy
t = time.process_time()
for name in sys.argv[1:]:
    __import__(name)
print(time.process_time() - t)
"""


def fig_run(folder: Path, rounds: int) -> None:
    spec = generate(folder, 10_000)
    cpus = [child(run_cmd(spec, folder / f"out_run{r}"))[0] for r in range(rounds)]
    print(f"run 1e4 rows x 2 learners, json, 2,000 resamples: CPU {min(cpus):.2f} s (best of {rounds}; "
          f"all {', '.join(f'{c:.2f}' for c in cpus)}); target < 1 s")
    boot = [float(child([sys.executable, "-c", BOOT, "10000"])[3].split()[-1]) for _ in range(rounds)]
    print(f"bootstrap alone, 1e4 rows, 4 statistics, 2,000 resamples: CPU {min(boot):.3f} s per learner")
    # where the rest goes: the same run without the bootstrap, and the imports it pays for
    noboot = folder / "spec_noboot.yaml"
    noboot.write_text(spec.read_text().replace("report:", "confidence: {bootstrap: 0}\nreport:", 1))
    cpus = [child(run_cmd(noboot, folder / f"out_noboot{r}"))[0] for r in range(rounds)]
    print(f"  the same run, confidence.bootstrap 0: CPU {min(cpus):.2f} s (best of {rounds})")
    # the imports, after NumPy's, each in a child with one BLAS thread as the command line has
    for what, modules in (("import evalreport.pipeline", ["evalreport.pipeline"]),
                          ("import pydantic", ["pydantic"]),
                          ("import pyarrow.csv", ["pyarrow", "pyarrow.csv"])):
        cpus = [float(child([sys.executable, "-c", IMPORT_CPU, *modules], env={"OPENBLAS_NUM_THREADS": "1"})[3]
                      .split()[-1]) for _ in range(rounds)]
        print(f"  {what}, after NumPy: CPU {min(cpus):.3f} s")
    # NumPy's own import: OpenBLAS's worker threads spin a while when it loads (issue 38)
    for threads in ("default", "1"):
        env = {} if threads == "default" else {"OPENBLAS_NUM_THREADS": threads}
        cpus = [child([sys.executable, "-c", "import numpy"], env=env)[0] for _ in range(rounds)]
        print(f"  import numpy, BLAS threads {threads}: CPU {min(cpus):.3f} s (best of {rounds})")


def fig_blas(folder: Path) -> None:
    spec = generate(folder, 20_000)
    outs = {}
    for threads in ("1", "2"):
        env = {"OPENBLAS_NUM_THREADS": threads, "OMP_NUM_THREADS": threads, "MKL_NUM_THREADS": threads}
        out = folder / f"out_blas{threads}"
        cpu, wall, _, _ = child(run_cmd(spec, out), env)
        outs[threads] = (out / "results.json").read_bytes()
        print(f"run 2e4 rows, BLAS threads {threads}: CPU {cpu:.2f} s, wall {wall:.2f} s")
    print("results.json identical under 1 and 2 BLAS threads:", outs["1"] == outs["2"])


def fig_version(rounds: int) -> None:
    cpus = [child([sys.executable, "-m", "evalreport", "--version"])[0] for _ in range(rounds)]
    base = [child([sys.executable, "-c", "import argparse"])[0] for _ in range(rounds)]
    print(f"evalreport --version: CPU {min(cpus):.3f} s (python -c 'import argparse': {min(base):.3f} s)")
    out = child([sys.executable, "-c", MODULES, "--version"])[3]
    print("  --version imports:", out.split("MODULES", 1)[1].strip())
    err = child([sys.executable, "-X", "importtime", "-m", "evalreport", "--version"])[3]
    top = []
    for line in err.splitlines():
        if line.startswith("import time:") and "|" in line:
            parts = [p.strip() for p in line[len("import time:"):].split("|")]
            if parts[1].isdigit():
                top.append((int(parts[1]), parts[2].strip()))
    top.sort(reverse=True)
    print("  largest cumulative imports (us):", ", ".join(f"{name} {us:,}" for us, name in top[:6]))


def fig_imports(folder: Path) -> None:
    spec = generate(folder, 10_000)
    out = child([sys.executable, "-c", MODULES, "run", str(spec), "--format", "json", "--quiet",
                 "--out", str(folder / "out_imports")])[3]
    print("json run imports:", out.split("MODULES", 1)[1].strip())


def fig_report(folder: Path, rounds: int) -> None:
    import zlib

    spec = generate(folder, 10_000)
    for fmt in ("html", "html,pdf"):
        best = None
        for r in range(rounds):
            cpu, _, _, text = child([sys.executable, "-c", COUNT_RENDERS, "run", str(spec), "--format", fmt,
                                     "--quiet", "--out", str(folder / f"out_rep{r}")])
            best = cpu if best is None else min(best, cpu)
        renders, environments = text.split("RENDERS", 1)[1].split()[:2]
        print(f"run 1e4 rows, --format {fmt}: CPU {best:.2f} s (best of {rounds}); render_html called {renders}x, "
              f"Jinja environments (template compilations) {environments}")
    if not (folder / "out_run0" / "results.json").exists():
        child(run_cmd(spec, folder / "out_run0"))
    data = (folder / "out_run0" / "results.json").read_bytes()
    for level in (9, 6):
        t0 = time.process_time()
        for _ in range(5):
            size = len(zlib.compress(data, level))
        print(f"  results.json ({len(data):,} bytes) at zlib level {level}: {size:,} bytes, "
              f"{(time.process_time() - t0) / 5:.3f} s CPU a compression")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", choices=["run", "blas", "version", "imports", "report"])
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    print(f"machine: {os.cpu_count()} cores; python {sys.version.split()[0]}; numpy {np.__version__}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if args.only in (None, "version"):
            fig_version(args.rounds)
        if args.only in (None, "imports"):
            fig_imports(folder)
        if args.only in (None, "run"):
            fig_run(folder, args.rounds)
        if args.only in (None, "report"):
            fig_report(folder, args.rounds)
        if args.only in (None, "blas"):
            fig_blas(folder)


if __name__ == "__main__":
    main()
