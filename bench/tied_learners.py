"""Benchmark (issue 24): a tied learner among continuous ones.

Two json runs of the default spec on the same rows, each in a fresh child
process (peak RSS read from the child, the RSS of an idle child that imported
the same modules subtracted): two continuous learners, and one continuous
learner with one whose scores are rounded to 2 decimals (a tied learner).
Target: the tied pair within 1.2x the memory of the continuous pair.

    python3 bench/tied_learners.py --rows 1e6
    python3 bench/tied_learners.py --rows 1e7 --rounds 1
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

import numpy as np

from run import RUN  # bench/run.py's timed json run (this folder is on the path)

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"

IDLE = r"""
import numpy, pyarrow.parquet, evalreport.pipeline, evalreport.report
print(0.0)
"""


def generate(rows: int) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    DATA.mkdir(exist_ok=True)
    path = DATA / f"tied_{rows}.parquet"
    if path.exists():
        return path
    rng = np.random.default_rng(2026)
    y = (rng.random(rows) < 0.3).astype(np.int8)
    cols = {"id": np.arange(rows, dtype=np.int64), "y": y}
    for i, name in enumerate(("a", "b")):
        cols[f"p_{name}"] = 1.0 / (1.0 + np.exp(-(rng.normal(size=rows) + (0.8 + 0.4 * i) * y - 0.5)))
    cols["p_b_tied"] = np.round(cols["p_b"], 2)
    pq.write_table(pa.table(cols), path)
    return path


def write_spec(data: Path, second: str) -> Path:
    spec = DATA / f"spec_{data.stem}_{second}.yaml"
    spec.write_text(
        f"version: 1\ntitle: bench\ndate: 2026-11-26\ndata:\n  - path: {data.name}\n"
        f"    label: y\n    id: id\n    learners:\n      a: p_a\n      b: {second}\n"
        "report: {formats: [json]}\n")
    return spec


def measure(code: str, *args) -> tuple[float, float]:
    proc = subprocess.Popen([sys.executable, "-c", code, *map(str, args)], stdout=subprocess.PIPE)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) not in (0, 3):
        raise SystemExit("child failed")
    return float(out.decode().strip().splitlines()[-1]), usage.ru_maxrss / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=float, default=1e7)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--generate-only", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    rows = int(args.rows)
    if args.generate_only:
        generate(rows)
        return
    subprocess.run([sys.executable, __file__, "--rows", str(rows), "--generate-only"], check=True)
    data = generate(rows)
    _, idle = measure(IDLE)
    print(f"{rows:,} rows, default spec (every comparison and test); idle child {idle:,.0f} MiB (subtracted)")
    peaks = {}
    for second in ("p_b", "p_b_tied"):
        spec = write_spec(data, second)
        runs = [measure(RUN, spec, DATA / f"out_tied_{second}") for _ in range(args.rounds)]
        t = statistics.median(r[0] for r in runs)
        peaks[second] = max(r[1] for r in runs) - idle
        print(f"  a + {second:9} {t:7.2f} s  {peaks[second]:7,.0f} MiB")
    ratio = peaks["p_b_tied"] / peaks["p_b"]
    print(f"  tied / continuous memory: {ratio:.2f}x (target <= 1.2x: {'met' if ratio <= 1.2 else 'NOT met'})")


if __name__ == "__main__":
    main()
