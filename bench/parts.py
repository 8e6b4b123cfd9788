"""Where the engine's time goes on many cores: its parts, timed one by one.

Run from the repository root:

    python3 bench/parts.py                         # n = 1e7, threads 1,2,4,8
    python3 bench/parts.py --sizes 1e7,1e8 --threads 1,2,4,8,16 --rounds 2

For each size and each ``EVALREPORT_THREADS`` setting, one call of the
engine's suite (bench/engine.py's ``work_evalreport``) on continuous scores,
with its stages timed from inside (wall clock, ``time.perf_counter``):

* ``encode``: checking the inputs and forming the 64-bit sort keys (in parts);
* ``partition``: the one ``np.partition`` that puts every key in its part
  (a single NumPy call: on one thread whatever the setting);
* ``parts``: from the partition's end until the last part is done: each part
  is sorted and then given its one pass (labels, tp, rates, thresholds) by
  the thread that took it;
* ``after``: the rest of the suite (scalars, hull, cost curve, curves read).

For the parts it also gives the sum over parts of the sort's time and of the
pass's time, and the longest part: with t threads and no waiting, the parts'
wall time would be about the sum over t. ``busy`` is that ratio, sum /
(threads x wall): near 1 when every thread works the whole time, low when
threads wait (for the GIL, which NumPy holds between its calls, or for memory
bandwidth, which shows instead as each part's time growing with the threads).

On the NumPy pass (``EVALREPORT_PASS=numpy``, or without numba, or below 2^23
rows) a part's pass time includes its wait for one of the
``parallel.PASS_THREADS`` slots; the compiled pass never waits.

``np.sort`` of the same scores (one thread) is timed in each round for scale.
The medians over the rounds are printed. ``--max-threads`` lets the engine use
more than its cap of threads (for measuring only).
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402

import evalreport.counting.keys as keys_module  # noqa: E402
import evalreport.counting.parallel as parallel  # noqa: E402
import evalreport.counting.sorting as sorting  # noqa: E402
from engine import make_scores, parse_sizes, parse_threads, work_evalreport  # noqa: E402


class Stages:
    """Wall-clock times of the suite's stages, recorded by wrappers."""

    def __init__(self):
        self.lock = threading.Lock()
        self.clear()

    def clear(self):
        self.times = {"encode": 0.0, "partition": 0.0}
        self.sorts, self.passes, self.part_walls = [], [], []
        self.parts_start = self.parts_end = None

    def wrap(self):
        real_checked, real_partition = keys_module.checked_keys, parallel.partition_into_parts
        real_sort, real_run_parts = sorting.sort_keys, sorting.run_parts
        local = threading.local()
        stages = self

        def checked(*a, **k):
            t = time.perf_counter()
            try:
                return real_checked(*a, **k)
            finally:
                stages.times["encode"] += time.perf_counter() - t

        def partition(*a, **k):
            t = time.perf_counter()
            try:
                return real_partition(*a, **k)
            finally:
                stages.times["partition"] += time.perf_counter() - t
                stages.parts_start = time.perf_counter()

        def sort(*a, **k):
            t = time.perf_counter()
            try:
                return real_sort(*a, **k)
            finally:
                local.sorted = time.perf_counter() - t

        def run_parts(fn, edges):
            if fn.__name__ != "part":  # (the rated road's sort-and-pass parts only)
                return real_run_parts(fn, edges)

            def timed(lo, hi):
                local.sorted = 0.0
                t = time.perf_counter()
                try:
                    return fn(lo, hi)
                finally:
                    wall = time.perf_counter() - t
                    with stages.lock:
                        stages.sorts.append(local.sorted)
                        stages.passes.append(wall - local.sorted)
                        stages.part_walls.append(wall)
            out = real_run_parts(timed, edges)
            stages.parts_end = time.perf_counter()
            return out

        # the engine's modules hold their own names for these functions
        import evalreport.counting.build as build
        build.checked_keys = checked
        parallel.partition_into_parts = partition
        sorting.sort_keys = sort
        sorting.run_parts = run_parts


def one_call(y, s, stages: Stages) -> dict:
    stages.clear()
    gc.collect()
    t0 = time.perf_counter()
    result = work_evalreport(y, s)
    total = time.perf_counter() - t0
    del result
    parts = (stages.parts_end - stages.parts_start) if stages.parts_start else 0.0
    return {
        "total": total,
        "encode": stages.times["encode"],
        "partition": stages.times["partition"],
        "parts": parts,
        "after": total - stages.times["encode"] - stages.times["partition"] - parts,
        "sort sum": sum(stages.sorts),
        "pass sum": sum(stages.passes),
        "longest part": max(stages.part_walls, default=0.0),
        "n parts": len(stages.part_walls),
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=parse_sizes, default=[10**7])
    ap.add_argument("--threads", type=parse_threads, default=[1, 2, 4, 8])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-threads", type=int, default=None,
                    help="raise the engine's cap on threads (measuring only)")
    args = ap.parse_args(argv)
    if args.max_threads:
        parallel._MAX_THREADS = args.max_threads
    stages = Stages()
    stages.wrap()
    print(f"{os.cpu_count()} CPUs; NumPy {np.__version__}; engine cap {parallel._MAX_THREADS} threads")
    for n in args.sizes:
        y, s = make_scores(n, args.seed)
        work_evalreport(y[:1 << 17], s[:1 << 17])  # compile and warm up
        rows = {t: [] for t in args.threads}
        sorts = []
        for _ in range(args.rounds):
            gc.collect()
            t = time.perf_counter()
            np.sort(s)
            sorts.append(time.perf_counter() - t)
            for threads in args.threads:
                os.environ["EVALREPORT_THREADS"] = str(threads)
                rows[threads].append(one_call(y, s, stages))
        os.environ.pop("EVALREPORT_THREADS", None)
        sort_s = statistics.median(sorts)
        print(f"\nn = {n:.0e}: np.sort {sort_s:.3f} s (one thread); medians of {args.rounds} rounds, seconds")
        cols = ["total", "encode", "partition", "parts", "after", "sort sum", "pass sum", "longest part"]
        print("| threads | parts | " + " | ".join(cols) + " | busy | /np.sort |")
        print("|---" * (len(cols) + 4) + "|")
        for threads, got in rows.items():
            med = {c: statistics.median(r[c] for r in got) for c in cols}
            n_parts = got[0]["n parts"]
            used = min(threads, parallel._MAX_THREADS, max(n_parts, 1))
            busy = (med["sort sum"] + med["pass sum"]) / (used * med["parts"]) if med["parts"] else float("nan")
            print(f"| {threads} | {n_parts} | " + " | ".join(f"{med[c]:.3f}" for c in cols)
                  + f" | {busy:.2f} | {med['total'] / sort_s:.2f}x |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
