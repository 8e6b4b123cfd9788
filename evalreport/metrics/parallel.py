"""The engine's linear passes, split into parts run on several threads.

After the one sort, every pass over the scores (decoding thresholds, counting
positives, dividing counts into rates) is elementwise or a running sum, and
NumPy releases the GIL inside such loops: split into contiguous parts, the
passes run on every core the process may use. The sort itself stays one
``np.sort``.

Only elementwise work and integer sums are split, so the results are the
same, bit for bit, whatever the number of threads: a float sum split in two
would round differently. ``EVALREPORT_THREADS=1`` runs everything on the
calling thread (the default is the number of CPUs this process may use, at
most 8).
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, Sequence, TypeVar

__all__ = ["MIN_PART", "in_parts", "part_edges", "run_parts", "thread_count"]

T = TypeVar("T")

# Below this many elements a part is not worth a thread (a dispatch costs
# tens of microseconds; a pass over 2**16 float64 a few tens).
MIN_PART = 1 << 17
_MAX_THREADS = 8

_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None
_pool_size = 0


def thread_count() -> int:
    """Threads the engine may use: ``EVALREPORT_THREADS`` if set, else the
    CPUs available to this process (at most 8)."""
    env = os.environ.get("EVALREPORT_THREADS", "").strip()
    if env:
        try:
            return max(1, min(int(env), _MAX_THREADS))
        except ValueError:
            raise ValueError(f"EVALREPORT_THREADS must be a whole number, got {env!r}") from None
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, _MAX_THREADS))


def part_edges(n: int, *, min_part: int | None = None) -> list[int]:
    """Edges ``[0, ..., n]`` of contiguous parts of ``range(n)``: one per
    thread, none shorter than ``min_part`` (default :data:`MIN_PART`; so one
    part when ``n`` is small)."""
    min_part = MIN_PART if min_part is None else min_part
    parts = max(1, min(thread_count(), n // max(min_part, 1)))
    return [n * i // parts for i in range(parts + 1)]


def run_parts(fn: Callable[[int, int], T], edges: Sequence[int]) -> list[T]:
    """``[fn(lo, hi) for each part]``, the parts run in parallel; the calling
    thread runs the first part itself. Exceptions propagate."""
    if len(edges) <= 2:
        return [fn(edges[0], edges[-1])]
    futures = [_executor(len(edges) - 2).submit(fn, lo, hi)
               for lo, hi in zip(edges[1:-1], edges[2:])]
    try:
        first = fn(edges[0], edges[1])
    finally:
        rest = [f.result() for f in futures]  # waited for even if the first part fails
    return [first, *rest]


def in_parts(fn: Callable[[int, int], T], n: int, *, min_part: int | None = None) -> list[T]:
    """:func:`run_parts` over :func:`part_edges` of ``n``."""
    return run_parts(fn, part_edges(n, min_part=min_part))


def _forget_pool_after_fork() -> None:
    # a forked child has none of the parent's threads: start a new pool
    global _pool, _pool_size, _lock
    _pool, _pool_size, _lock = None, 0, threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool_after_fork)


def _executor(workers: int) -> ThreadPoolExecutor:
    """The shared pool, grown when more workers are asked for. Workers only
    run leaf NumPy passes, never wait on other parts: no deadlock."""
    global _pool, _pool_size
    with _lock:
        if _pool is None or _pool_size < workers:
            if _pool is not None:
                _pool.shutdown(wait=False)
            _pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="evalreport")
            _pool_size = workers
        return _pool
