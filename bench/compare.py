"""Benchmark: comparing many learners (issue: 20 learners, 190 pairs, 1e5 instances).

Times the comparison stage alone (envelopment, rankings, cost envelope, hull
across learners, DeLong's paired tests, McNemar) on learners already
evaluated, and the whole `evaluate` for reference.

    python3 bench/compare.py [--learners 20] [--rows 1e5]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

# this checkout's evalreport, not an installed one
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--learners", type=int, default=20)
    ap.add_argument("--rows", type=float, default=1e5)
    args = ap.parse_args()
    import pyarrow as pa
    import pyarrow.parquet as pq

    import evalreport
    from evalreport.tasks.binary_compare import compare_datasets

    n, k = int(args.rows), args.learners
    rng = np.random.default_rng(0)
    y = (rng.random(n) < 0.3).astype(np.int8)
    cols = {"id": np.arange(n), "y": y}
    for i in range(k):
        cols[f"p{i}"] = rng.normal(size=n) + (0.3 + 0.05 * i) * y
    with tempfile.TemporaryDirectory() as tmp:
        pq.write_table(pa.table(cols), Path(tmp) / "p.parquet")
        learners = ", ".join(f"m{i}: p{i}" for i in range(k))
        (Path(tmp) / "spec.yaml").write_text(
            f"version: 1\ndata:\n  - {{path: p.parquet, label: y, id: id, learners: {{{learners}}}}}\n"
            "confidence: {bootstrap: 0}\nreport: {formats: [json]}\n")
        spec = evalreport.load_spec(Path(tmp) / "spec.yaml")
        t0 = time.perf_counter()
        result = evalreport.evaluate(spec)
        whole = time.perf_counter() - t0
        from evalreport.data import load_sources

        sources = load_sources(spec)
        t0 = time.perf_counter()
        comps = compare_datasets(spec, result.learners, sources)
        compare = time.perf_counter() - t0
    pairs = len(comps[0].pairs)
    print(f"{k} learners ({pairs} pairs) x {n:,} rows: comparison stage {compare:.2f} s; "
          f"whole evaluate (load, {k} evaluations, comparison) {whole:.2f} s")


if __name__ == "__main__":
    main()
