"""The C allocator's settings for a command-line run (issue 38).

The bootstrap works on a few resamples at a time (compare.stats.bootstrap): each
step makes arrays of about 0.5 MiB (the draws, several MiB) and frees them.
glibc's malloc gives such blocks back to the system as soon as the free space at
the top of its heap passes its trim threshold, and each new array is then faulted
in again page by page: in a JSON run of 1e4 rows and two learners, about 80,000 page faults and 0.2 s of
system CPU (bench/README.md, "bench/api.py"). :func:`keep_freed_memory` raises
the thresholds so that the freed blocks are reused: blocks under 32 MiB come
from the heap, and up to 128 MiB of free heap is kept. The command line calls
it for ``evalreport run``, whose process is its own; the Python API never
does (a notebook's allocator is the user's). A run's peak memory grows by at
most the 128 MiB kept; arrays of 32 MiB or more are mapped and unmapped as before.
"""

from __future__ import annotations

import os
import sys

__all__ = ["keep_freed_memory"]

_M_TRIM_THRESHOLD = -1  # glibc's malloc.h
_M_MMAP_THRESHOLD = -3
#: the environment variables by which a user sets glibc's malloc (left alone then)
_USER_SETTINGS = ("GLIBC_TUNABLES", "MALLOC_TRIM_THRESHOLD_", "MALLOC_MMAP_THRESHOLD_", "MALLOC_TOP_PAD_")


def keep_freed_memory() -> bool:
    """Raise glibc's trim and mmap thresholds (see the module's text). True when
    set; False elsewhere than glibc's Linux, or when the environment sets malloc's
    options itself."""
    if not sys.platform.startswith("linux") or any(name in os.environ for name in _USER_SETTINGS):
        return False
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt  # the process's C library
        gnu = ctypes.CDLL(None).gnu_get_libc_version  # glibc only (musl's mallopt does nothing)
    except (OSError, AttributeError):
        return False
    del gnu
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    # mmap first: setting it fixes both thresholds (no more dynamic adjustment)
    return bool(mallopt(_M_MMAP_THRESHOLD, 32 << 20)) and bool(mallopt(_M_TRIM_THRESHOLD, 128 << 20))
