"""The engine's linear passes, split into parts run on several threads.

After the one sort, every pass over the scores (decoding thresholds, counting
positives, dividing counts into rates) is elementwise or a running sum, and
NumPy releases the GIL inside such loops: split into contiguous parts, the
passes run on every core the process may use. The sort is split too
(:func:`sort_in_place`): ``np.partition`` (a SIMD selection, about an
eighth of a sort, as a tree of one-kth selections) puts every value in its
part, and the parts are sorted side by side.

Only elementwise work and integer sums are split, so the results are the
same, bit for bit, whatever the number of threads: a float sum split in two
would round differently. ``EVALREPORT_THREADS=1`` runs everything on the
calling thread (the default is the number of CPUs this process may use, at
most 16). Within a part, passes run block by block (:func:`blocks`), so that
the passes after the first over a block read it from cache.
"""

from __future__ import annotations

import itertools
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, Sequence, TypeVar

from .keysort import sort_keys

__all__ = ["BLOCK", "MIN_PART", "MIN_SORT_PART", "blocks", "in_parts", "part_edges", "partition_into_parts",
           "pass_threads",
           "run_parts", "sort_in_place", "sort_parts", "thread_count"]

T = TypeVar("T")

# Below this many elements a part is not worth a thread. Waking a thread and
# handing the GIL back and forth between blocks cost far more than they look
# on a virtual machine (a sleeping vCPU takes 0.2-1 ms to wake): at 1e6 scores
# splitting the cheap passes made the whole suite a third slower, and
# splitting the curves' six passes per block gained too little to be sure of.
MIN_PART = 1 << 20
# Parts per thread. With more parts than threads a late thread takes fewer,
# but every part costs a hand-off: one part per thread measured faster.
PARTS_PER_THREAD = 1
# The most threads the engine takes. Measured on a 16-core Intel Xeon (bench/
# README.md, "The engine on 16 cores"): with the partition as a tree and the
# compiled pass, the suite at 1e7 and 1e8 was fastest on all 16; no larger
# machine was measured.
_MAX_THREADS = 16
# A pass over blocks holds the GIL between its NumPy calls (a few per block of
# BLOCK elements, each tens of microseconds), so threads queue for it: on a
# 16-core Intel Xeon at 10^7 rows the rated pass's time summed over its parts
# grew 1.3x from one thread to 4, 2.8x at 8 and 8.9x at 16, so that 4 threads
# finished it as soon as 8 and sooner than 16. Such passes run on at most this
# many threads; the sort (one long NumPy call without the GIL) on every one.
PASS_THREADS = 4
# A sort is one long NumPy call that releases the GIL: a thread pays for
# itself on far shorter parts than the linear passes need. Partition and two
# sorted halves against one sort, measured on 2 CPUs: 0.92 of the time at
# 2**16 keys, 0.76 at 2**17, 0.63 at 2**20 (1.2x slower at 2**15).
MIN_SORT_PART = 1 << 16

_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None
_pool_size = 0


def thread_count() -> int:
    """Threads the engine may use: ``EVALREPORT_THREADS`` if set, else the
    CPUs available to this process (at most 16)."""
    env = os.environ.get("EVALREPORT_THREADS", "").strip()
    if env:
        # checked as EVALREPORT_SORT is: 0, -2 or 10**9 is a slip, not a request for 1 or 16
        if not env.isdigit() or not 1 <= int(env) <= _MAX_THREADS:
            raise ValueError(f"EVALREPORT_THREADS must be a whole number from 1 to {_MAX_THREADS}, got {env!r}")
        return int(env)
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, _MAX_THREADS))


def pass_threads() -> int:
    """Threads for the passes that hold the GIL between NumPy calls
    (:data:`PASS_THREADS` at most)."""
    return min(thread_count(), PASS_THREADS)


def part_edges(n: int, *, min_part: int | None = None, per_thread: int = PARTS_PER_THREAD,
               threads: int | None = None) -> list[int]:
    """Edges ``[0, ..., n]`` of contiguous parts of ``range(n)``: up to
    ``per_thread`` parts per thread (default :func:`pass_threads`), none
    shorter than ``min_part`` (default :data:`MIN_PART`; so one part when
    ``n`` is small, or with one thread)."""
    min_part = MIN_PART if min_part is None else min_part
    threads = pass_threads() if threads is None else threads
    parts = 1 if threads == 1 else max(1, min(threads * per_thread, n // max(min_part, 1)))
    return [n * i // parts for i in range(parts + 1)]


def run_parts(fn: Callable[[int, int], T], edges: Sequence[int]) -> list[T]:
    """``[fn(lo, hi) for each part]``, the parts run in parallel.

    The calling thread and the pool's threads take the parts in order, each
    the next one not yet taken, so a thread that starts late (waking a
    thread costs tens of microseconds, more on a busy machine) takes fewer.
    Every part is run, or failed, before an exception propagates.
    """
    parts = len(edges) - 1
    if parts <= 1:
        return [fn(edges[0], edges[-1])]
    results: list = [None] * parts
    errors: list[BaseException] = []
    taken = itertools.count()  # next() on it is atomic under the GIL

    def drain() -> None:
        while (i := next(taken)) < parts:
            try:
                results[i] = fn(edges[i], edges[i + 1])
            except BaseException as exc:  # noqa: BLE001 (re-raised below)
                errors.append(exc)

    futures = _start(drain, min(thread_count(), parts) - 1)
    drain()
    for f in futures:
        f.result()
    if errors:
        raise errors[0]
    return results


def in_parts(fn: Callable[[int, int], T], n: int, *, min_part: int | None = None,
             threads: int | None = None) -> list[T]:
    """:func:`run_parts` over :func:`part_edges` of ``n``."""
    return run_parts(fn, part_edges(n, min_part=min_part, threads=threads))


def sort_in_place(values, *, min_part: int | None = None) -> None:
    """Sort a contiguous 1-D array in place, ascending, on every thread allowed.

    ``np.partition`` at the parts' edges leaves each part holding exactly the
    values it holds when sorted, in some order; the parts are then sorted
    side by side (:func:`sort_parts`; uint64 keys by :func:`.keysort.sort_keys`,
    which may take a radix sort). For integer keys (the engine's sort
    keys) the result is the same array, bit for bit, as one
    ``values.sort()``; for floats the order among equal values (-0.0 and
    +0.0) may differ.
    """
    sort_parts(values, partition_into_parts(values, min_part=min_part), min_part=min_part)


def partition_into_parts(values, *, min_part: int | None = None) -> list[int]:
    """Partition a contiguous 1-D array in place at the edges of its sort's
    parts (:func:`part_edges` with ``min_part``, default
    :data:`MIN_SORT_PART`), and return the edges: each part then holds
    exactly the values it holds when the whole is sorted."""
    edges = part_edges(values.size, min_part=MIN_SORT_PART if min_part is None else min_part,
                       threads=thread_count())
    if len(edges) > 2:
        _partition_by_halves(values, edges)
    return edges


def _partition_by_halves(values, edges: Sequence[int]) -> None:
    """``values.partition(edges[1:-1])``, as a tree of one-kth partitions.

    NumPy selects one kth on its SIMD path (x86-simd-sort), but several kth
    with its generic introselect, one after another: measured on a 16-core
    Intel Xeon at 10^7 keys, one kth took 0.017 s, three 0.24 s and fifteen
    0.35 s, more than the parts' sorts saved. So the middle edge is selected
    first, then the middle edge of each side, side by side on threads (NumPy
    releases the GIL in a partition): about two one-kth partitions of the
    whole in all, whatever the number of parts. Each part ends with exactly
    the values it holds when sorted, as with one call.
    """
    bounds = [0, len(edges) - 1]  # edge indices: ranges still to split
    while len(bounds) < len(edges):
        def split(i: int, j: int) -> None:
            if j - i > 1:
                lo = edges[i]
                values[lo:edges[j]].partition(edges[(i + j) // 2] - lo)

        run_parts(split, bounds)
        bounds = sorted({*bounds, *((i + j) // 2 for i, j in zip(bounds[:-1], bounds[1:]))})


def sort_parts(values, edges: Sequence[int], *, min_part: int | None = None) -> None:
    """Sort each part ``values[edges[i]:edges[i + 1]]`` in place: side by
    side, or one after the other when a part is shorter than ``min_part``
    (default :data:`MIN_SORT_PART`)."""
    min_part = MIN_SORT_PART if min_part is None else min_part

    def sort(lo: int, hi: int) -> None:
        sort_keys(values[lo:hi], total=values.size)  # uint64 keys may take the radix road

    if min(hi - lo for lo, hi in zip(edges[:-1], edges[1:])) < min_part:
        for lo, hi in zip(edges[:-1], edges[1:]):
            sort(lo, hi)
    else:
        run_parts(sort, edges)


BLOCK = 1 << 16  # elements per block: a few float64 blocks stay in a core's L2 cache


def long_block() -> int:
    """Blocks of a pass with few NumPy calls per block (the encoding of the
    keys): four :data:`BLOCK`, long enough that the GIL is held only between
    calls of a few hundred microseconds, so that such a pass runs on every
    thread; 2 MiB of keys, in a core's L2 on the 16-core Xeon measured."""
    return 4 * BLOCK


def blocks(lo: int, hi: int, size: int | None = None):
    """``(start, stop)`` of consecutive blocks of ``range(lo, hi)``, each at
    most ``size`` (default :data:`BLOCK`) long. A part runs its passes block
    by block, so that every pass after the first reads from cache."""
    size = BLOCK if size is None else size
    for start in range(lo, hi, size):
        yield start, min(start + size, hi)


def _forget_pool_after_fork() -> None:
    # a forked child has none of the parent's threads: start a new pool
    global _pool, _pool_size, _lock
    _pool, _pool_size, _lock = None, 0, threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool_after_fork)


def _start(fn: Callable[[], None], helpers: int) -> list:
    """Run ``fn`` on up to ``helpers`` pool threads; the futures of those
    started. None start while the interpreter shuts down (no new threads
    then): the caller's own ``fn`` then does all the work. The pool's threads
    only run leaf NumPy passes and never wait on other parts: no deadlock."""
    global _pool, _pool_size
    with _lock:  # grow and submit under one lock: no submit to a pool shut down meanwhile
        if helpers > 0 and (_pool is None or _pool_size < helpers):
            if _pool is not None:
                _pool.shutdown(wait=False)  # its queued work still runs
            _pool = ThreadPoolExecutor(max_workers=helpers, thread_name_prefix="evalreport")
            _pool_size = helpers
        futures = []
        for _ in range(helpers):
            try:
                futures.append(_pool.submit(fn))
            except RuntimeError:  # "cannot schedule new futures after interpreter shutdown"
                break
        return futures
