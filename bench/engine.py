"""Benchmark of the binary metric engine against np.sort and scikit-learn.

Run from the repository root:

    python3 bench/engine.py                      # n = 1e6 and 1e7, default rounds
    python3 bench/engine.py --sizes 1e6 --rounds 7
    python3 bench/engine.py --no-sklearn         # skip timing scikit-learn
    EVALREPORT_THREADS=1 python3 bench/engine.py # the engine on one thread only
    python3 bench/engine.py --json bench/engine.json
    python3 bench/engine.py --sizes 1e6,1e7 --threads 1,2 --no-sklearn   # a threads sweep
    python3 bench/engine.py --sizes 1e8 --no-sklearn --rounds 3          # checks the memory first
    python3 bench/engine.py --sizes 1e8 --no-sklearn --check-up-to 1e7  # no scikit-learn check at 1e8
    python3 bench/engine.py --threads 1,4,16 --max-threads 32            # past the engine's cap of 16

For every case (n scores, continuous or rounded to 3 decimals) the rounds are
interleaved in one process: each round times ``np.sort(scores)``, then the
whole evalreport suite, then scikit-learn's four calls, on the same arrays.
Every timed call is preceded by ``gc.collect()`` and timed with
``time.perf_counter``; its result is dropped only after the clock stops. The
table reports the median (and the min) over the rounds.

The evalreport suite is ``evaluate_binary`` plus reading every scalar, the
hull and the cost curve, the ROC and P-R curves (formed with the table for
distinct scores, on first access with ties; scikit-learn returns arrays, so the
comparison is only fair if ours are built too), ``at_threshold(0.5)`` and
``operating_point(0.3)``.

scikit-learn's four calls are ``roc_curve``, ``precision_recall_curve``,
``roc_auc_score`` and ``average_precision_score`` (defaults).

Once per case, outside the timing, evalreport's AUC and average precision are
checked against scikit-learn's to 1e-9 (and the P-R curve against
``precision_recall_curve`` when scikit-learn is timed), so the benchmark cannot
silently compare different work. A mismatch aborts the run.

The engine runs its linear passes on every CPU the process may use (past
2**20 scores; see evalreport/counting/parallel.py), np.sort and scikit-learn on
one; each round also times the suite with ``EVALREPORT_THREADS=1`` (the
"1 thread" column; ``--no-one-thread`` skips it).

``--threads 1,2,4,...`` sweeps the engine's thread count instead: each round
times np.sort, then the suite once per setting of ``EVALREPORT_THREADS``, in
this process; the sweep table gives each setting's median, its time per row
and its ratio to np.sort, and says whether more threads were ever slower
(the engine uses at most 16 unless ``--max-threads`` raises its cap: a larger
setting runs as the cap, and is printed so).

Before any data is made, the sizes are checked against the memory available
(``MemAvailable`` in /proc/meminfo): an estimate of the bytes per row this
benchmark holds at its peak (:func:`bytes_per_row`: the inputs, the rounded
copy and the largest call's working memory, measured with tracemalloc at
10^6 rows) times the largest size. A size that does not fit is refused with a
message and exit status 2 before anything runs.

For every case the output names the sort road the engine took (which count
table road, how many parts the sort was split into on how many threads, how
the 64-bit keys were sorted: NumPy's quicksort or the radix road of
evalreport/counting/keysort.py, and which SIMD path NumPy's sort dispatches to
on this CPU), from one untimed call.

Where NumPy's sort takes its AVX-512 path (x86-simd-sort; several times
slower than its AVX2 path on AMD Zen 4), ``np.sort`` itself is slow, and a
ratio to it flatters the engine. So each case also times ``np.sort`` of the
same scores on NumPy's AVX2 path, in a subprocess started with
``NPY_DISABLE_CPU_FEATURES="X86_V4 AVX512_ICL"`` (NumPy 2.4 groups the
AVX-512 features as X86_V4; naming AVX512F etc. alone leaves the path on),
and the last table gives the engine's ratio to that too
(``--no-avx2-reference`` skips it).

Targets (on the medians): evalreport at most 3x np.sort, and at least 25x
faster than scikit-learn's four calls.

Standard library, NumPy and scikit-learn only.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import os
import platform
import pstats
import statistics
import sys
import time

import numpy as np

from evalreport.metrics import evaluate_binary
from evalreport.counting.parallel import thread_count

SORT_TARGET = 3.0  # evalreport seconds / np.sort seconds, at most
SKLEARN_TARGET = 25.0  # sklearn seconds / evalreport seconds, at least
TOLERANCE = 1e-9
POSITIVE_RATE = 0.3
BIG = 10**6  # sizes above this get the "large" default rounds


# --------------------------------------------------------------------------- work


def work_sort(y, s):
    return np.sort(s)  # a fresh sorted copy


def work_evalreport(y, s):
    ev = evaluate_binary(y, s)
    touched = (
        ev.auc,
        ev.rank_loss,
        ev.average_precision,
        ev.bep,
        ev.expected_total_cost,
        ev.cost_curve,
        ev.hull,
        ev.roc.fpr,
        ev.roc.tpr,
        ev.roc.threshold,
        ev.pr.recall,
        ev.pr.precision,
        ev.pr.threshold,
        ev.at_threshold(0.5),
        ev.operating_point(0.3),
    )
    return ev, touched


def work_sklearn(y, s):
    from sklearn.metrics import (
        average_precision_score,
        precision_recall_curve,
        roc_auc_score,
        roc_curve,
    )

    roc = roc_curve(y, s)
    pr = precision_recall_curve(y, s)
    auc = roc_auc_score(y, s)
    ap = average_precision_score(y, s)
    return roc, pr, auc, ap


def timed(fn, y, s):
    """(seconds, result) of one call; the result is freed by the caller, untimed."""
    gc.collect()
    t0 = time.perf_counter()
    out = fn(y, s)
    t1 = time.perf_counter()
    return t1 - t0, out


def work_with_threads(threads: int):
    """The suite with ``EVALREPORT_THREADS`` set to ``threads`` for the call."""
    def work(y, s):
        before = os.environ.get("EVALREPORT_THREADS")
        os.environ["EVALREPORT_THREADS"] = str(threads)
        try:
            return work_evalreport(y, s)
        finally:
            if before is None:
                del os.environ["EVALREPORT_THREADS"]
            else:
                os.environ["EVALREPORT_THREADS"] = before
    return work


#: the same suite with the engine's passes on the calling thread only
work_evalreport_one_thread = work_with_threads(1)


# --------------------------------------------------------------------------- memory

#: Peak bytes per row of each call, measured with tracemalloc at 10^6 rows
#: (NumPy 2.4, 2 CPUs): the suite 36.5 continuous / 9 tied, scikit-learn's four
#: calls 111 / 56, its AUC and AP (the check) about half of that, np.sort 8.
#: Rounded up, with room for the allocator and larger parts at larger sizes.
CALL_BYTES = {"evalreport": 48, "sklearn": 120, "check": 64, "sort": 8}
#: what the benchmark holds throughout: y (int64), the scores and their rounded
#: copy (both alive while the copy is made)
HELD_BYTES = 8 + 8 + 8


#: the share of the available memory the benchmark may plan to use (the estimate
#: is of NumPy's arrays; the interpreter, the allocator and the page cache need the rest)
MEMORY_SHARE = 0.8


def bytes_per_row(time_sklearn: bool, check: bool) -> int:
    """The benchmark's estimated peak memory per row: what it holds, plus the
    largest single call (the calls run one at a time, each result freed)."""
    calls = [CALL_BYTES["evalreport"], CALL_BYTES["sort"]]
    if time_sklearn:
        calls.append(CALL_BYTES["sklearn"])
    if check:
        calls.append(CALL_BYTES["check"])
    return HELD_BYTES + max(calls)


def available_bytes() -> int | None:
    """MemAvailable from /proc/meminfo (None where there is none)."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def memory_problem(sizes, per_row: int, available: int | None) -> str | None:
    """A message when the largest size would not fit in the memory available, else None."""
    if available is None:
        return None
    n = max(sizes)
    need = n * per_row
    usable = MEMORY_SHARE * available
    if need <= usable:
        return None
    fits = int(usable // per_row)
    return (f"--sizes {fmt_n(n)} needs about {need / 2**30:.1f} GiB ({per_row} bytes a row: the inputs, "
            f"their rounded copy and the largest call), more than {MEMORY_SHARE:.0%} of the "
            f"{available / 2**30:.1f} GiB available; this machine fits about {fits:,} rows "
            "(--no-sklearn lowers the estimate)")


# --------------------------------------------------------------------------- sort road


def numpy_sort_simd() -> str:
    """Which SIMD path NumPy's quicksort dispatches to on this CPU (x86-simd-sort:
    AVX-512 where the CPU has it, else AVX2), and NPY_DISABLE_CPU_FEATURES if set."""
    try:
        from numpy._core._multiarray_umath import __cpu_features__ as features
    except ImportError:
        return "unknown"
    if features.get("AVX512_SKX"):
        path = "AVX-512 (x86-simd-sort)"
    elif features.get("AVX2"):
        path = "AVX2 (x86-simd-sort)"
    elif features.get("ASIMD") or features.get("SVE"):
        path = "Arm SIMD (highway)"
    else:
        path = "scalar"
    disabled = os.environ.get("NPY_DISABLE_CPU_FEATURES")
    return path + (f"; NPY_DISABLE_CPU_FEATURES={disabled}" if disabled else "")


def sort_road(y, s) -> str:
    """The road one untimed suite call took: which count-table builder ran and
    how the sort was split (parts, threads), and NumPy's sort SIMD path."""
    from evalreport.counting import build, keysort, parallel, sorting

    taken: list[str] = []
    parts: list[int] = []
    spied = [(build, "table_from_keys", "sort keys (counting.sorting)"),
             (sorting, "_rated_distinct_table", "distinct keys, sorted and passed part by part"),
             (sorting, "table_without_tie_rows", "a few ties: their inner rows dropped (counting.few_ties)"),
             (sorting, "_keyed_distinct_table", "tied keys"),
             (sorting, "_table_from_key_runs", "key runs"),
             (build, "_table_by_class", "by class (scores of both signs)"),
             (build, "table_from_ascending", "ascending merge")]
    saved = []
    for module, name, label in spied:
        real = getattr(module, name)
        saved.append((module, name, real))

        def spy(*a, _real=real, _label=label, **k):
            taken.append(_label)
            return _real(*a, **k)
        setattr(module, name, spy)
    real_partition = parallel.partition_into_parts

    def spy_parts(values, **k):
        edges = real_partition(values, **k)
        parts.append(len(edges) - 1)
        return edges
    saved.append((parallel, "partition_into_parts", real_partition))
    parallel.partition_into_parts = spy_parts
    try:
        work_evalreport(y, s)
    finally:
        for module, name, real in saved:
            setattr(module, name, real)
    roads = " + ".join(dict.fromkeys(taken)) or "other"
    threads = parallel.thread_count()
    if parts and max(parts) > 1:
        split = f"the sort split into {max(parts)} parts by np.partition, sorted on {threads} threads"
    else:
        split = f"one np.sort, not split (too few rows for parts; {threads} thread(s) allowed)"
    return (f"{roads}; {split}; key sort: {keysort.road(s.size)}; "
            f"np.sort SIMD path: {numpy_sort_simd()}")


#: what turns NumPy 2.4's AVX-512 sort path off (X86_V4 is the group of the
#: AVX-512 features; AVX512_ICL builds on it and must go too)
AVX2_ONLY = "X86_V4 AVX512_ICL"


def avx2_sort_reference(n: int, seed: int, rounds: int) -> dict | None:
    """Median seconds of ``np.sort`` on NumPy's AVX2 path, for the two cases
    of n scores (``{"continuous": s, "ties (3 dp)": s}``), timed in a
    subprocess with NPY_DISABLE_CPU_FEATURES set; None if it fails."""
    import subprocess

    code = (
        "import gc, json, statistics, sys, time\n"
        "import numpy as np\n"
        f"sys.path.insert(0, {os.path.dirname(os.path.abspath(__file__))!r})\n"
        "from engine import make_scores\n"
        f"y, s = make_scores({n}, {seed})\n"
        "out = {}\n"
        "for name, v in (('continuous', s), ('ties (3 dp)', np.round(s, 3))):\n"
        "    ts = []\n"
        f"    for _ in range({rounds}):\n"
        "        gc.collect(); t = time.perf_counter(); r = np.sort(v)\n"
        "        ts.append(time.perf_counter() - t); del r\n"
        "    out[name] = statistics.median(ts)\n"
        "print(json.dumps(out))\n")
    env = dict(os.environ, NPY_DISABLE_CPU_FEATURES=AVX2_ONLY)
    try:
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                              timeout=600, check=True)
        return json.loads(done.stdout.strip().splitlines()[-1])
    except (subprocess.SubprocessError, OSError, ValueError, IndexError):
        return None


# --------------------------------------------------------------------------- data


def make_scores(n: int, seed: int):
    """Labels ~30 % positive and informative continuous scores in [0, 1.3)."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < POSITIVE_RATE).astype(np.int64)
    s = rng.random(n)
    s += 0.3 * y
    return y, s


# --------------------------------------------------------------------------- checks


class Mismatch(AssertionError):
    pass


def check_close(name, ours, theirs):
    if ours is None or not abs(ours - theirs) <= TOLERANCE:
        raise Mismatch(f"{name}: evalreport {ours!r} != scikit-learn {theirs!r} (tol {TOLERANCE})")


def verify(ev_values, sk_result, y, s):
    """Compare evalreport's figures with scikit-learn's; return a one-line report."""
    auc, ap, pr = ev_values
    if sk_result is None:
        from sklearn.metrics import average_precision_score, roc_auc_score

        sk_auc = roc_auc_score(y, s)
        sk_ap = average_precision_score(y, s)
        sk_pr = None
    else:
        _, sk_pr, sk_auc, sk_ap = sk_result
    check_close("AUC", auc, sk_auc)
    check_close("average precision", ap, sk_ap)
    line = f"AUC {auc:.12f} = {sk_auc:.12f}, AP {ap:.12f} = {sk_ap:.12f}"
    if sk_pr is not None:
        # scikit-learn: ascending distinct thresholds, precision/recall with a
        # final (1, 0) point appended; ours: descending thresholds, no extra point.
        precision, recall, thr = sk_pr
        if not np.array_equal(thr, pr.threshold[::-1]):
            raise Mismatch("P-R thresholds differ from precision_recall_curve's")
        if not (
            np.allclose(precision[:-1][::-1], pr.precision, rtol=0, atol=TOLERANCE)
            and np.allclose(recall[:-1][::-1], pr.recall, rtol=0, atol=TOLERANCE)
        ):
            raise Mismatch("P-R curve differs from precision_recall_curve's")
        line += f", P-R curve equal ({thr.size} thresholds)"
    return line


# --------------------------------------------------------------------------- profile


def profile_suite(y, s, top: int = 12) -> str:
    prof = cProfile.Profile()
    gc.collect()
    prof.enable()
    out = work_evalreport(y, s)
    prof.disable()
    del out
    buf = io.StringIO()
    pstats.Stats(prof, stream=buf).sort_stats("tottime").print_stats(top)
    return buf.getvalue()


# --------------------------------------------------------------------------- run


def summary(times):
    if not times:
        return None
    return {"median": statistics.median(times), "min": min(times), "rounds": list(times)}


def run_case(name, y, s, rounds, sk_rounds, has_sklearn, do_profile, one_thread, threads=None):
    n = s.size
    distinct = int(np.unique(s).size)
    print(f"\n== {name}, n = {n:,} ({distinct:,} distinct scores, "
          f"{int(y.sum()):,} positives); {rounds} rounds, "
          f"scikit-learn {sk_rounds} round(s)", flush=True)
    road = sort_road(y, s)
    print(f"  sort road: {road}", flush=True)
    t_sort, t_ev, t_one, t_sk = [], [], [], []
    t_threads = {t: [] for t in threads or ()}
    check_line = None
    for r in range(rounds):
        dt, out = timed(work_sort, y, s)
        del out
        t_sort.append(dt)

        dt, (ev, _) = timed(work_evalreport, y, s)
        t_ev.append(dt)
        keep = (ev.auc, ev.average_precision, ev.pr) if r == 0 else None
        del ev, _

        line = f"  round {r + 1}: np.sort {t_sort[-1]:.4f} s, evalreport {t_ev[-1]:.4f} s"
        for t in t_threads:
            dt, out = timed(work_with_threads(t), y, s)
            del out
            t_threads[t].append(dt)
            line += f", {t} thread(s) {dt:.4f} s"
        if one_thread:
            dt, out = timed(work_evalreport_one_thread, y, s)
            del out
            t_one.append(dt)
            line += f" (one thread {dt:.4f} s)"
        sk = None
        if r < sk_rounds:
            dt, sk = timed(work_sklearn, y, s)
            t_sk.append(dt)
            line += f", scikit-learn {dt:.3f} s"
        print(line, flush=True)

        if r == 0 and has_sklearn:
            check_line = verify(keep, sk, y, s)  # outside the timing
            print(f"  check: {check_line}: OK", flush=True)
        del keep, sk

    prof_text = profile_suite(y, s) if do_profile else None
    if prof_text:
        print(f"  cProfile of one evalreport suite call ({name}, n = {n:,}):")
        print("    " + prof_text.strip().replace("\n", "\n    "))

    res = {
        "case": name,
        "n": n,
        "distinct_scores": distinct,
        "positives": int(y.sum()),
        "np_sort": summary(t_sort),
        "evalreport": summary(t_ev),
        "evalreport_one_thread": summary(t_one),
        "sklearn": summary(t_sk),
        "check": check_line,
        "profile": prof_text,
        "sort_road": road,
        "threads": {t: summary(v) for t, v in t_threads.items()},
    }
    ev_med, sort_med = res["evalreport"]["median"], res["np_sort"]["median"]
    res["ratio_evalreport_sort"] = ev_med / sort_med
    res["ratio_one_thread_sort"] = (res["evalreport_one_thread"]["median"] / sort_med
                                    if t_one else None)
    res["sort_target_met"] = res["ratio_evalreport_sort"] <= SORT_TARGET
    if res["sklearn"]:
        res["ratio_sklearn_evalreport"] = res["sklearn"]["median"] / ev_med
        res["sklearn_target_met"] = res["ratio_sklearn_evalreport"] >= SKLEARN_TARGET
    else:
        res["ratio_sklearn_evalreport"] = None
        res["sklearn_target_met"] = None
    return res


def fmt_n(n: int) -> str:
    e = len(str(n)) - 1
    return f"1e{e}" if n == 10**e else f"{n:,}"


def print_table(results, stat: str):
    head = (f"{'case':<12} {'n':>5} {'np.sort s':>10} {'evalreport s':>13} "
            f"{'ev/sort':>8} {'1 thread':>9} {'sklearn s':>10} {'sk/ev':>7}")
    if stat == "median":
        head += f"  {'<=3x sort':>10} {'>=25x sklearn':>14}"
    print(head)
    print("-" * len(head))
    for r in results:
        so, ev = r["np_sort"][stat], r["evalreport"][stat]
        sk = r["sklearn"][stat] if r["sklearn"] else None
        one = r["evalreport_one_thread"][stat] if r["evalreport_one_thread"] else None
        line = (f"{r['case']:<12} {fmt_n(r['n']):>5} {so:>10.4f} {ev:>13.4f} "
                f"{ev / so:>7.2f}x "
                + (f"{one / so:>8.2f}x " if one is not None else f"{'-':>9} ")
                + (f"{sk:>10.3f} {sk / ev:>6.1f}x" if sk is not None else f"{'-':>10} {'-':>7}"))
        if stat == "median":
            met1 = "met" if r["sort_target_met"] else "NOT MET"
            met2 = {True: "met", False: "NOT MET", None: "-"}[r["sklearn_target_met"]]
            line += f"  {met1:>10} {met2:>14}"
        print(line)


def print_avx2_table(results):
    """Per case: np.sort here and on the AVX2 path, and the engine's ratio to each."""
    head = (f"{'case':<12} {'n':>5} {'np.sort s':>10} {'AVX2 sort s':>12} {'evalreport s':>13} "
            f"{'ev/sort':>8} {'ev/AVX2 sort':>13}")
    print(head)
    print("-" * len(head))
    for r in results:
        so, ev, ref = r["np_sort"]["median"], r["evalreport"]["median"], r.get("np_sort_avx2_median")
        if ref:
            print(f"{r['case']:<12} {fmt_n(r['n']):>5} {so:>10.4f} {ref:>12.4f} {ev:>13.4f} "
                  f"{ev / so:>7.2f}x {ev / ref:>12.2f}x")


def _engine_cap() -> int:
    from evalreport.counting import parallel
    return parallel._MAX_THREADS


def print_sweep(results):
    """Per case: each thread setting's median, time per row, and ratio to np.sort."""
    settings = list(results[0]["threads"])
    head = f"{'case':<12} {'n':>5} {'np.sort s':>10} {'ns/row':>7}"
    for t in settings:
        used = min(t, _engine_cap())
        label = f"{t} thr" + (f" (runs {used})" if used != t else "")
        head += f" | {label + ' s':>10} {'ns/row':>7} {'/sort':>6}"
    print(head + "  more threads never slower")
    print("-" * (len(head) + 27))
    for r in results:
        n, so = r["n"], r["np_sort"]["median"]
        line = f"{r['case']:<12} {fmt_n(n):>5} {so:>10.4f} {so / n * 1e9:>7.1f}"
        medians = [r["threads"][t]["median"] for t in settings]
        for m in medians:
            line += f" | {m:>10.4f} {m / n * 1e9:>7.1f} {m / so:>5.2f}x"
        never_slower = all(b <= a for a, b in zip(medians, medians[1:]))
        print(line + f"  {'yes' if never_slower else 'NO'}")


def machine_info():
    model = platform.processor() or "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    info = {
        "cpu": model,
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "platform": platform.platform(),
    }
    try:
        import sklearn

        info["sklearn"] = sklearn.__version__
    except ImportError:
        info["sklearn"] = None
    return info


def parse_threads(text: str):
    try:
        values = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"bad thread counts {text!r} (give e.g. 1,2,4)") from None
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError(f"bad thread counts {text!r} (give e.g. 1,2,4)")
    return values


def parse_sizes(text: str):
    sizes = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        value = float(part)
        if value < 2 or value != int(value):
            raise argparse.ArgumentTypeError(f"bad size {part!r}")
        sizes.append(int(value))
    if not sizes:
        raise argparse.ArgumentTypeError("no sizes given")
    return sizes


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", type=parse_sizes, default=parse_sizes("1e6,1e7"),
                   help="comma-separated numbers of scores (default 1e6,1e7)")
    p.add_argument("--rounds", type=int, default=None,
                   help="rounds per case (default 11 for n <= 1e6, 7 above)")
    p.add_argument("--sklearn-rounds", type=int, default=None,
                   help="rounds that also time scikit-learn (default: every round for "
                        "n <= 1e6, 1 above, since its four calls take ~20 s at 1e7)")
    p.add_argument("--no-sklearn", action="store_true",
                   help="do not time scikit-learn (the AUC/AP check still calls it once per case)")
    p.add_argument("--no-one-thread", action="store_true",
                   help="do not also time the suite with EVALREPORT_THREADS=1 (the '1 thread' column)")
    p.add_argument("--threads", type=parse_threads, default=None, metavar="1,2,4,...",
                   help="time the suite at each EVALREPORT_THREADS setting (a sweep table; "
                        "replaces the '1 thread' column)")
    p.add_argument("--no-avx2-reference", action="store_true",
                   help="do not time np.sort on NumPy's AVX2 path in a subprocess (done by "
                        "default where NumPy's sort takes its AVX-512 path)")
    p.add_argument("--check-up-to", type=parse_sizes, default=None, metavar="N",
                   help="check AUC and AP against scikit-learn only for sizes up to N (the check "
                        "takes minutes of one core at 1e8)")
    p.add_argument("--max-threads", type=int, default=None,
                   help="raise the engine's cap on threads (counting/parallel.py; for measuring only)")
    p.add_argument("--seed", type=int, default=20240601, help="RNG seed")
    p.add_argument("--profile", action="store_true",
                   help="also cProfile one evalreport suite call per case (untimed)")
    p.add_argument("--json", metavar="PATH", help="write the figures to PATH as JSON")
    args = p.parse_args(argv)
    if args.rounds is not None and args.rounds < 1:
        p.error("--rounds must be >= 1")
    if args.sklearn_rounds is not None and args.sklearn_rounds < 0:
        p.error("--sklearn-rounds must be >= 0")

    if args.max_threads:
        from evalreport.counting import parallel
        parallel._MAX_THREADS = args.max_threads
    info = machine_info()
    has_sklearn = info["sklearn"] is not None
    if not has_sklearn and not args.no_sklearn:
        p.error("scikit-learn is not installed (pip install scikit-learn, or use --no-sklearn)")
    per_row = bytes_per_row(time_sklearn=has_sklearn and not args.no_sklearn, check=has_sklearn)
    problem = memory_problem(args.sizes, per_row, available_bytes())
    if problem:
        print(f"bench/engine.py: {problem}", file=sys.stderr)
        return 2

    print(f"evalreport engine benchmark: {info['cpu']}, {info['cpus']} CPUs, "
          f"Python {info['python']}, NumPy {info['numpy']}, scikit-learn {info['sklearn']}")
    threads = thread_count()
    print(f"engine threads: {threads} (EVALREPORT_THREADS; the '1 thread' column sets it to 1); "
          "np.sort and scikit-learn use one")
    print(f"Targets (medians): evalreport <= {SORT_TARGET:g}x np.sort; "
          f"scikit-learn's four calls >= {SKLEARN_TARGET:g}x evalreport.")
    if not has_sklearn:
        print("scikit-learn not installed: no scikit-learn timing and no AUC/AP check.")

    # Warm up every code path (imports, first-call overheads) on a small input.
    y, s = make_scores(2000, args.seed)
    for fn in (work_sort, work_evalreport) + ((work_sklearn,) if has_sklearn else ()):
        fn(y, s)
        fn(y, np.round(s, 3))
    del y, s

    avx2_ref = not args.no_avx2_reference and numpy_sort_simd().startswith("AVX-512")
    results = []
    notes = []
    for n in args.sizes:
        rounds = args.rounds if args.rounds is not None else (11 if n <= BIG else 7)
        if args.no_sklearn:
            sk_rounds = 0
        elif args.sklearn_rounds is not None:
            sk_rounds = min(args.sklearn_rounds, rounds)
        else:
            sk_rounds = rounds if n <= BIG else 1
        if 0 < sk_rounds < rounds:
            notes.append(f"n = {fmt_n(n)}: scikit-learn timed in {sk_rounds} of {rounds} "
                         f"rounds (its median is over those)")

        if avx2_ref:
            ref = avx2_sort_reference(n, args.seed, rounds)
            print(f"\nnp.sort on NumPy's AVX2 path (subprocess, NPY_DISABLE_CPU_FEATURES={AVX2_ONLY}), "
                  f"n = {fmt_n(n)}, median of {rounds}: "
                  + (", ".join(f"{k} {v:.4f} s" for k, v in ref.items()) if ref else "failed"), flush=True)
        else:
            ref = None
        y, s = make_scores(n, args.seed)
        one = not args.no_one_thread and args.threads is None
        check = has_sklearn and (args.check_up_to is None or n <= max(args.check_up_to))
        if not check and has_sklearn:
            sk_rounds = 0
            notes.append(f"n = {fmt_n(n)}: not checked against scikit-learn (--check-up-to)")
        results.append(run_case("continuous", y, s, rounds, sk_rounds, check, args.profile, one,
                                args.threads))
        results[-1]["np_sort_avx2_median"] = ref and ref["continuous"]
        s3 = np.round(s, 3)
        del s
        gc.collect()
        results.append(run_case("ties (3 dp)", y, s3, rounds, sk_rounds, check, args.profile, one,
                                args.threads))
        results[-1]["np_sort_avx2_median"] = ref and ref["ties (3 dp)"]
        del y, s3
        gc.collect()

    for stat in ("median", "min"):
        print(f"\n{stat} of the rounds (seconds; ratios of the {stat}s):")
        print_table(results, stat)
    if any(r.get("np_sort_avx2_median") for r in results):
        print("\nagainst np.sort on NumPy's AVX2 path (medians; np.sort here is on the "
              f"{numpy_sort_simd()} path):")
        print_avx2_table(results)
    if args.threads:
        print("\nthreads sweep (medians; EVALREPORT_THREADS per column, np.sort on one thread):")
        print_sweep(results)
    if args.no_sklearn:
        notes.append("scikit-learn not timed (--no-sklearn)")
    for note in notes:
        print(f"note: {note}")
    sort_ok = all(r["sort_target_met"] for r in results)
    sk_flags = [r["sklearn_target_met"] for r in results if r["sklearn_target_met"] is not None]
    print(f"target <= {SORT_TARGET:g}x np.sort: "
          + ("met in every case" if sort_ok else "NOT met in every case"))
    if sk_flags:
        print(f"target >= {SKLEARN_TARGET:g}x faster than scikit-learn: "
              + ("met in every case" if all(sk_flags) else "NOT met in every case"))

    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": info, "seed": args.seed, "engine_threads": threads,
                       "targets": {"max_ratio_evalreport_sort": SORT_TARGET,
                                   "min_ratio_sklearn_evalreport": SKLEARN_TARGET},
                       "notes": notes, "cases": results}, f, indent=2)
        print(f"figures written to {args.json}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Mismatch as exc:
        print(f"CHECK FAILED: {exc}", file=sys.stderr)
        sys.exit(1)
