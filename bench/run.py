"""Benchmark: `evalreport run --format json` on large prediction files.

Compares, in one run, the whole command (load spec, read, check, evaluate,
write results.json) with its floor: reading the same columns with pyarrow and
then one ``np.sort`` of each score column. Each measurement runs in a fresh
child process (rounds interleaved) so that its peak memory (max RSS) can be
read too; the baseline RSS of an idle child that only imported the same
modules is subtracted.

    python3 bench/run.py                 # 1e7 rows x 3 learners, Parquet and CSV
    python3 bench/run.py --rows 1e6      # quicker

Targets: run time at most 2x the floor; peak memory at most 3x the size of
the loaded columns. The data is generated under bench/data/ (not committed).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
LEARNERS = ("logistic", "boosted", "forest")

FLOOR = r"""
import sys, time, numpy as np
import pyarrow.parquet as pq, pyarrow.csv as pacsv
path = sys.argv[1]
cols = ["id", "y", "p_logistic", "p_boosted", "p_forest"]
t0 = time.perf_counter()
if path.endswith(".parquet"):
    t = pq.read_table(path, columns=cols)
else:
    t = pacsv.read_csv(path, convert_options=pacsv.ConvertOptions(include_columns=cols))
for c in cols[2:]:
    np.sort(t.column(c).to_numpy())
print(time.perf_counter() - t0)
"""

RUN = r"""
import sys, time
from evalreport.__main__ import main
import evalreport.pipeline, evalreport.report  # imported before the clock, as the floor imports pyarrow
t0 = time.perf_counter()
status = main(["run", sys.argv[1], "--format", "json", "--quiet", "--out", sys.argv[2]])
print(time.perf_counter() - t0)
sys.exit(status)
"""

IDLE = r"""
import numpy, pyarrow.parquet, pyarrow.csv, evalreport.pipeline, evalreport.report
print(0.0)
"""


def generate(rows: int) -> dict[str, Path]:
    import pyarrow as pa
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    DATA.mkdir(exist_ok=True)
    paths = {"parquet": DATA / f"pred_{rows}.parquet", "csv": DATA / f"pred_{rows}.csv"}
    if all(p.exists() for p in paths.values()):
        return paths
    print(f"generating {rows:,} rows ...", file=sys.stderr)
    rng = np.random.default_rng(2026)
    y = (rng.random(rows) < 0.3).astype(np.int8)
    cols = {"id": np.arange(rows, dtype=np.int64), "y": y}
    for i, name in enumerate(LEARNERS):
        signal = (0.8 + 0.4 * i) * y
        cols[f"p_{name}"] = 1.0 / (1.0 + np.exp(-(rng.normal(size=rows) + signal - 0.5)))
    table = pa.table(cols)
    pq.write_table(table, paths["parquet"])
    pacsv.write_csv(table, paths["csv"])
    return paths


#: comparisons that need only the curves (no instance-level tests of significance)
CURVES_ONLY = "compare: [envelopment, auc, bep, f1, expected_total_cost, cost_envelope]\n"


def write_spec(data: Path, tests: bool) -> Path:
    spec = DATA / f"spec_{data.suffix[1:]}_{data.stem}{'' if tests else '_notests'}.yaml"
    learners = "\n".join(f"      {n}: p_{n}" for n in LEARNERS)
    spec.write_text(
        f"version: 1\ntitle: bench\ndate: 2026-11-22\ndata:\n  - path: {data.name}\n"
        f"    label: y\n    id: id\n    learners:\n{learners}\nreport: {{formats: [json]}}\n"
        + ("" if tests else CURVES_ONLY)
    )
    return spec


def measure(code: str, *args: str) -> tuple[float, float]:
    """(seconds printed by the child, peak RSS of the child in MiB)."""
    proc = subprocess.Popen([sys.executable, "-c", code, *map(str, args)], stdout=subprocess.PIPE)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 3):
        raise SystemExit(f"child failed with status {proc.returncode}")
    return float(out.decode().strip().splitlines()[-1]), usage.ru_maxrss / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=float, default=1e7)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--json", type=Path, help="also write the figures here")
    ap.add_argument("--no-tests", action="store_true",
                    help="compare by curves only: no DeLong, McNemar or bootstrap (they need every instance)")
    ap.add_argument("--formats", default="parquet,csv", help="which files to read: parquet,csv")
    ap.add_argument("--generate-only", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    rows = int(args.rows)
    if args.generate_only:
        generate(rows)
        return
    # Generate in a child: a fork of a parent holding the data would inflate
    # the children's max RSS.
    subprocess.run([sys.executable, __file__, "--rows", str(rows), "--generate-only"], check=True)
    paths = generate(rows)
    # loaded columns: id int64, y int8, three float64 scores
    loaded_mib = rows * (8 + 1 + 3 * 8) / 2**20
    _, idle_rss = measure(IDLE)
    figures = []
    print(("curves only (no tests of significance); " if args.no_tests else "the default spec (every comparison and test); ")
          + f"{rows:,} rows x {len(LEARNERS)} learners; loaded columns {loaded_mib:,.0f} MiB; "
          f"idle child {idle_rss:,.0f} MiB RSS (subtracted)")
    print(f"{'format':8} {'floor s':>8} {'run s':>8} {'run/floor':>9} {'peak MiB':>9} "
          f"{'peak/loaded':>11}  targets (<= 2x time, <= 3x memory)")
    for fmt, data in paths.items():
        if fmt not in args.formats.split(","):
            continue
        spec = write_spec(data, tests=not args.no_tests)
        out = DATA / f"out_{fmt}"
        floors, runs, peaks = [], [], []
        for _ in range(args.rounds):
            floors.append(measure(FLOOR, data)[0])
            seconds, rss = measure(RUN, spec, out)
            runs.append(seconds)
            peaks.append(rss - idle_rss)
        f, r, peak = statistics.median(floors), statistics.median(runs), max(peaks)
        size = (out / "results.json").stat().st_size
        verdict = ("met" if r <= 2 * f else "NOT met") + " / " + ("met" if peak <= 3 * loaded_mib else "NOT met")
        print(f"{fmt:8} {f:8.2f} {r:8.2f} {r / f:9.2f} {peak:9.0f} {peak / loaded_mib:11.2f}  {verdict}"
              f"  (results.json {size / 1024:.0f} KiB)")
        figures.append({"format": fmt, "rows": rows, "floor_s": f, "run_s": r, "ratio": r / f,
                        "peak_mib": peak, "loaded_mib": loaded_mib, "results_json_bytes": size})
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
