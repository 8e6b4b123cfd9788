"""Benchmark of the out-of-core DuckDB engine: time and peak memory against the row count.

Run from the repository root:

    python3 bench/engines.py                       # 1e8 rows (about 2 GB of Parquet)
    python3 bench/engines.py --rows 1e7,1e8        # several sizes
    python3 bench/engines.py --rows 1e7 --json /tmp/engines.json

For each size it writes ``bench/data/engines_<rows>.parquet`` once (kept for
later runs; ``--regenerate`` rewrites it) with a streaming
``pyarrow.parquet.ParquetWriter``, 2**22 rows per chunk, so generation itself
stays within a few hundred MB. Columns: ``y`` (int8, about 30 % positives),
``s_cont`` (``U(0, 1) + 0.3 y``: continuous, every score distinct),
``s_tied`` (``s_cont`` rounded to 3 decimals: 1,301 distinct scores) and
``s_logit`` (``N(0, 1) + y``: continuous, both signs). Seeded per chunk.

Then every case runs in a child process (``python3 bench/engines.py --child``),
timed inside the child around the engine call only, its peak memory read by
the parent from ``os.wait4``'s ``ru_maxrss`` (the whole child: Python,
NumPy, DuckDB and the result). Cases:

* ``duckdb exact (tied)``: ``aggregate_duckdb`` on ``s_tied``, exact;
* ``duckdb step 1e-4 (cont)``: ``s_cont`` with ``resolution=1e-4`` (13,001 bins);
* ``duckdb 1000 bins (logit)``: ``s_logit`` with ``resolution=1000``;
* ``duckdb 3 learners step 1e-4``: all three score columns, ``resolution=1e-4``;
* ``duckdb exact (cont)``: ``s_cont`` exact: the count table has one row per
  row of data; it is streamed from DuckDB in Arrow batches through
  ``evalreport.metrics.CountReducer``, which keeps the exact scalars and at most
  2**18 evenly spaced rows plus the ROC hull (``--exact-max-rows`` skips it
  above a size; default: every size);
* ``memory (tied)`` and ``memory (cont)``: the in-memory path on the same file
  (pyarrow reads ``y`` and the score, then ``count_table`` +
  ``evaluate_counts``), only up to ``--memory-max-rows`` (default 1e7).

Each case reports AUC (and the resolution bound); where the exact DuckDB case
and the in-memory case ran on the same data, their AUC, AP, BEP and expected
total cost must agree to 1e-9 or the run aborts.

``--memory-limit`` (default 1GB, the budget of the whole aggregation: DuckDB's
buffers get half of it) and ``--threads`` go to DuckDB. Target: peak memory
under 1 GB whatever the row count, for every DuckDB case.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "bench" / "data"
CHUNK = 1 << 22
POSITIVE_RATE = 0.3
TOLERANCE = 1e-9
TARGET_MIB = 1024


# --------------------------------------------------------------------------- data


def data_file(rows: int) -> Path:
    return DATA / f"engines_{rows}.parquet"


def generate(rows: int, path: Path, seed: int = 0) -> float:
    """Write ``rows`` rows in chunks; return the seconds it took."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = pa.schema([("y", pa.int8()), ("s_cont", pa.float64()), ("s_tied", pa.float64()), ("s_logit", pa.float64())])
    tmp = path.with_suffix(".parquet.tmp")
    path.parent.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    with pq.ParquetWriter(tmp, schema, compression="snappy") as writer:
        done = 0
        chunk_index = 0
        while done < rows:
            n = min(CHUNK, rows - done)
            rng = np.random.default_rng([seed, chunk_index])
            y = (rng.random(n) < POSITIVE_RATE).astype(np.int8)
            s = rng.random(n) + 0.3 * y
            logit = rng.standard_normal(n) + y
            batch = pa.record_batch([y, s, np.round(s, 3), logit], schema=schema)
            writer.write_batch(batch, row_group_size=1 << 20)
            done += n
            chunk_index += 1
            del y, s, logit, batch
    tmp.replace(path)
    return time.perf_counter() - t0


# --------------------------------------------------------------------------- child


def child(args) -> None:
    """Run one case and print its figures as JSON on stdout."""
    case = json.loads(args.child)
    from evalreport.metrics import evaluate_counts, evaluate_reduced

    out = {}
    kept = {}
    if case["engine"] == "duckdb":
        from evalreport.engines.duckdb import aggregate_duckdb

        t0 = time.perf_counter()
        agg = aggregate_duckdb(
            case["file"],
            label="y",
            positive=1,
            scores={c: c for c in case["columns"]},
            resolution=case.get("resolution"),
            memory_limit=case["memory_limit"],
            threads=case.get("threads"),
        )
        reductions = agg.reductions or {}
        evs = {name: evaluate_reduced(t, reductions.get(name)) for name, t in agg.tables.items()}
        out["seconds"] = time.perf_counter() - t0
        out["rows"] = agg.rows
        tables = agg.tables
        kept = {name: (r.rows, r.kept) for name, r in reductions.items()}
        bounds = agg.resolution_bound or {}
    else:
        import pyarrow.parquet as pq

        from evalreport.metrics import count_table

        t0 = time.perf_counter()
        col = case["columns"][0]
        cols = pq.read_table(case["file"], columns=["y", col])
        y = cols.column("y").to_numpy()
        s = cols.column(col).to_numpy()
        del cols
        table = count_table(y, s)
        del y, s
        tables = {col: table}
        evs = {col: evaluate_counts(table)}
        out["seconds"] = time.perf_counter() - t0
        out["rows"] = table.n_rows
        bounds = {}
    out["learners"] = {}
    for name in tables:
        thresholds, n_kept = kept.get(name, (len(tables[name]),) * 2)
        out["learners"][name] = {
            "thresholds": thresholds,
            "kept": n_kept,
            "auc": evs[name].auc,
            "average_precision": evs[name].average_precision,
            "bep": evs[name].bep,
            "expected_total_cost": evs[name].expected_total_cost,
            "bound": bounds.get(name),
        }
    out["vmhwm_mib"] = _vmhwm_mib()
    print(json.dumps(out))


def _vmhwm_mib() -> float | None:
    """This process's own peak RSS (VmHWM), a cross-check of wait4's figure."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def run_case(case: dict) -> dict:
    """Run a case in a child process; add its peak RSS (MiB) from wait4."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", json.dumps(case)]
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err, cwd=ROOT)
        stdout = proc.stdout.read()
        proc.stdout.close()
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = code = os.waitstatus_to_exitcode(status)
        if code != 0:
            err.seek(0)
            raise RuntimeError(f"case {case['name']} failed ({code}):\n{err.read().decode()[-3000:]}")
    result = json.loads(stdout.decode().strip().splitlines()[-1])
    result["peak_mib"] = usage.ru_maxrss / 1024  # Linux: KiB
    result.update(name=case["name"], engine=case["engine"])
    return result


# --------------------------------------------------------------------------- main


def cases_for(rows: int, path: Path, args) -> list[dict]:
    base = {"file": str(path), "memory_limit": args.memory_limit, "threads": args.threads, "engine": "duckdb"}
    cases = [
        {**base, "name": "duckdb exact (tied)", "columns": ["s_tied"]},
        {**base, "name": "duckdb step 1e-4 (cont)", "columns": ["s_cont"], "resolution": 1e-4},
        {**base, "name": "duckdb 1000 bins (logit)", "columns": ["s_logit"], "resolution": 1000},
        {**base, "name": "duckdb 3 learners step 1e-4", "columns": ["s_cont", "s_tied", "s_logit"], "resolution": 1e-4},
    ]
    if rows <= args.exact_max_rows:
        cases.append({**base, "name": "duckdb exact (cont)", "columns": ["s_cont"]})
    if rows <= args.memory_max_rows:
        mem = {"file": str(path), "engine": "memory"}
        cases.append({**mem, "name": "memory (tied)", "columns": ["s_tied"]})
        cases.append({**mem, "name": "memory (cont)", "columns": ["s_cont"]})
    return cases


def verify(results: list[dict]) -> list[str]:
    """Exact DuckDB and in-memory figures must agree on the same column."""
    lines = []
    by_col: dict[str, dict] = {}
    for r in results:
        if r["engine"] == "memory" or "exact" in r["name"]:
            for col, v in r["learners"].items():
                by_col.setdefault(col, {})[r["engine"]] = v
    for col, pair in by_col.items():
        if len(pair) == 2:
            for m in ("auc", "average_precision", "bep", "expected_total_cost"):
                a, b = pair["duckdb"][m], pair["memory"][m]
                if not abs(a - b) <= TOLERANCE:
                    raise SystemExit(f"mismatch on {col} {m}: duckdb {a!r} memory {b!r}")
            lines.append(f"{col}: DuckDB exact = in-memory (AUC, AP, BEP, expected total cost to {TOLERANCE:g})")
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default="1e8", help="comma-separated row counts (default 1e8)")
    parser.add_argument("--memory-limit", default="1GB")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--exact-max-rows", type=float, default=float("inf"))
    parser.add_argument("--memory-max-rows", type=float, default=1e7)
    parser.add_argument("--regenerate", action="store_true")
    parser.add_argument("--json", default=None)
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--generate", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.generate:
        generate(args.generate, data_file(args.generate))
        return 0
    if args.child:
        child(args)
        return 0

    print(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}")
    print(f"# duckdb {version('duckdb')}, memory_limit {args.memory_limit}, threads {args.threads or 'default'}")
    all_results = []
    for rows in [int(float(r)) for r in args.rows.split(",")]:
        path = data_file(rows)
        if args.regenerate or not path.exists():
            # in a child, so that this process stays small: a child's ru_maxrss
            # starts from its parent's RSS at the fork
            t0 = time.perf_counter()
            subprocess.run([sys.executable, str(Path(__file__).resolve()), "--generate", str(rows)], check=True, cwd=ROOT)
            secs = time.perf_counter() - t0
            print(f"# wrote {path.relative_to(ROOT)} ({path.stat().st_size / 2**30:.2f} GiB) in {secs:.0f} s")
        else:
            print(f"# using {path.relative_to(ROOT)} ({path.stat().st_size / 2**30:.2f} GiB)")
        results = [run_case(c) for c in cases_for(rows, path, args)]
        for r in results:
            r["n"] = rows
        print()
        print("| rows | case | seconds | peak RSS MiB (wait4) | VmHWM MiB | thresholds (kept) | AUC | AUC bound |")
        print("|---:|---|---:|---:|---:|---:|---:|---:|")
        for r in results:
            first = next(iter(r["learners"].values()))
            bound = first["bound"]["auc"] if first["bound"] else None
            thresholds = "/".join(str(v["thresholds"]) + (f" ({v['kept']})" if v["kept"] < v["thresholds"] else "")
                                  for v in r["learners"].values())
            print(
                f"| {rows:.0e} | {r['name']} | {r['seconds']:.2f} | {r['peak_mib']:.0f} | {r['vmhwm_mib']:.0f} | {thresholds} "
                f"| {first['auc']:.6f} | {'' if bound is None else f'{bound:.1e}'} |"
            )
        for line in verify(results):
            print(f"# {line}")
        duck = [r for r in results if r["engine"] == "duckdb"]
        worst = max(r["peak_mib"] for r in duck)
        print(f"# DuckDB cases: peak {worst:.0f} MiB ({'met' if worst < TARGET_MIB else 'NOT met'}: < {TARGET_MIB} MiB)")
        all_results.extend(results)
    if args.json:
        Path(args.json).write_text(json.dumps(all_results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
