"""The sort of the engine's 64-bit keys: NumPy's quicksort, or a radix sort.

NumPy 2.x sorts 64-bit integers with x86-simd-sort, on the AVX-512 path
wherever the CPU has AVX-512. On AMD Zen 4 (this project's machines, and
much cloud capacity) that path is several times slower than NumPy's own AVX2
path: its partitioning step stores with ``vpcompressq``, which Zen 4 runs
slowly. Measured on a 2-vCPU AMD EPYC (Zen 4), NumPy 2.4.6, 10^6 keys: 50 ms
on the AVX-512 path, 11 ms on the AVX2 path (``NPY_DISABLE_CPU_FEATURES=
"X86_V4 AVX512_ICL"``), 54 ms scalar. NumPy reads that variable only at
import, so a library cannot choose the path; and no other NumPy road comes
near 11 ms there (``kind="stable"``: 61 ms; see bench/README.md, "The sort
road (issue 24)").

So when numba is installed (an optional package; nothing requires it) the
keys of large sorts go through an LSD radix sort of 11-bit digits instead:
linear, independent of the SIMD path (15 ms at 10^6, 235 ms at 10^7 against
NumPy's 50 and 630 on the AVX-512 path). Digits where every key agrees are
skipped (the row numbers and the top bits of scores in [0, 1] leave several).
An ascending sort of integers has exactly one result, so the road changes no
number, bit for bit. Without numba, or below :data:`RADIX_MIN` keys (where
importing numba costs more than it saves), or with ``EVALREPORT_SORT=numpy``,
the keys take NumPy's sort, as before.

Where NumPy's sort is fast (its AVX2 path: 11 ms at 10^6 on the same
machine; Intel's AVX-512) the radix sort would be the slower road, so the
default ("auto") also measures both once per process, on 2^16 keys, before
the first large sort, and takes the radix sort only where it was clearly
faster (:func:`_radix_measured_faster`).

The radix sort is compiled once per machine (``cache=True``: the first call
ever takes a few seconds, later processes load it) and releases the GIL, so
the parts of :func:`.parallel.sort_in_place` still sort side by side.
"""

from __future__ import annotations

import os
import threading
import time

import numpy as np

__all__ = ["RADIX_MIN", "road", "sort_keys"]

#: fewest keys for the radix road: importing numba and loading the compiled
#: sort takes about 0.3-0.5 s of CPU, about what the radix sort saves on
#: one sort of 10^7 keys on a Zen 4 (its parts on two threads: about 0.2 s)
RADIX_MIN = 1 << 23

_DIGIT = 11  # bits per pass: a 2,048-entry count table stays in L1
_radix = None  # the compiled sort, once loaded; False when numba is missing
#: the radix sort's time over NumPy's below which "auto" takes it (a margin for noise)
FASTER = 0.7
_measured: dict | None = None  # {"radix": s, "numpy": s} for 2^16 keys, once measured
_measuring = threading.Lock()  # (parts sort on several threads: measure once)


def _setting() -> str:
    """``EVALREPORT_SORT``: "auto" (default), "numpy" or "radix"."""
    value = os.environ.get("EVALREPORT_SORT", "").strip().lower() or "auto"
    if value not in ("auto", "numpy", "radix"):
        raise ValueError(f"EVALREPORT_SORT must be auto, numpy or radix, got {value!r}")
    return value


def compile_without_gil(function):
    """``function`` compiled by numba (releasing the GIL, cached on disk), or
    False when numba cannot be imported (it is optional)."""
    try:
        import numba
    except ImportError:
        return False
    return numba.njit(nogil=True, cache=True)(function)


def _load():
    """The compiled radix sort, or None when numba cannot be imported."""
    global _radix
    if _radix is None:
        _radix = compile_without_gil(_radix_sort_py)
    return _radix or None


def _radix_sort_py(keys, scratch):  # pragma: no cover (compiled by numba)
    """Sort uint64 ``keys`` ascending in place (LSD, 11-bit digits, skipping
    digits every key shares); ``scratch`` is as long as ``keys``."""
    n = keys.size
    if n < 2:
        return
    first = keys[0]
    differ = np.uint64(0)
    for i in range(n):
        differ |= keys[i] ^ first
    mask = np.uint64((1 << 11) - 1)
    src, dst = keys, scratch
    moved = False
    shift = 0
    while shift < 64:
        sh = np.uint64(shift)
        if (differ >> sh) & mask:
            count = np.zeros(2049, np.int64)
            for i in range(n):
                count[((src[i] >> sh) & mask) + 1] += 1
            for j in range(2048):
                count[j + 1] += count[j]
            for i in range(n):
                d = (src[i] >> sh) & mask
                dst[count[d]] = src[i]
                count[d] += 1
            src, dst = dst, src
            moved = not moved
        shift += 11
    if moved:
        keys[:] = src


def _radix_measured_faster() -> bool:
    """Whether the radix sort took under :data:`FASTER` of NumPy's time to sort
    2^16 random keys here (best of 3 each; measured once per process, after a
    first call that compiles or loads the radix sort)."""
    global _measured
    with _measuring:
        if _measured is None:
            radix = _load()
            radix(np.arange(3, dtype=np.uint64), np.empty(3, dtype=np.uint64))
            keys = np.random.default_rng(0).integers(0, 1 << 62, 1 << 16, dtype=np.uint64)
            scratch = np.empty_like(keys)
            times = {"radix": [], "numpy": []}
            for _ in range(3):
                for name in times:
                    work = keys.copy()
                    start = time.perf_counter()
                    radix(work, scratch) if name == "radix" else work.sort()
                    times[name].append(time.perf_counter() - start)
            _measured = {name: min(t) for name, t in times.items()}
    return _measured["radix"] < FASTER * _measured["numpy"]


def uses_radix(values: np.ndarray, total: int | None = None) -> bool:
    """Whether :func:`sort_keys` sorts ``values`` by the radix road (``total``:
    the size of the whole sort a part belongs to, for the threshold)."""
    setting = _setting()
    if setting == "numpy" or values.dtype != np.uint64:
        return False
    if setting == "auto" and (values.size if total is None else total) < RADIX_MIN:
        return False
    if _load() is None:
        return False
    return setting == "radix" or _radix_measured_faster()


def sort_keys(values: np.ndarray, *, total: int | None = None, scratch: np.ndarray | None = None) -> None:
    """Sort a contiguous 1-D array in place, ascending: uint64 keys by the
    radix road where :func:`uses_radix`, anything else by ``values.sort()``.

    ``scratch``: a uint64 array of the same size that the radix sort may
    overwrite (else it takes a new one): a caller that will fill a buffer of
    its own after the sort lends it, and no array of n is added at the peak.
    """
    if values.size > 1 and uses_radix(values, total):
        _load()(values, np.empty_like(values) if scratch is None else scratch)
    else:
        values.sort()


def road(n: int) -> str:
    """In words, the road :func:`sort_keys` takes for ``n`` uint64 keys."""
    timed = ("" if _measured is None else
             f"; 2^16 keys: radix {_measured['radix'] * 1e3:.2f} ms, NumPy {_measured['numpy'] * 1e3:.2f} ms")
    if uses_radix(np.empty(0, dtype=np.uint64), n):
        how = "EVALREPORT_SORT=radix" if _setting() == "radix" else "measured faster here"
        return (f"uint64 keys, LSD radix sort ({_DIGIT}-bit digits, numba), not NumPy's SIMD quicksort "
                f"({how}{timed})")
    setting = _setting()
    if setting == "numpy":
        why = "EVALREPORT_SORT=numpy"
    elif _load() is None:
        why = "numba not installed"
    elif n < RADIX_MIN:
        why = f"fewer than {RADIX_MIN:,} keys"
    else:
        why = f"NumPy's sort measured faster here{timed}"
    return f"uint64 keys, NumPy quicksort ({why})"
