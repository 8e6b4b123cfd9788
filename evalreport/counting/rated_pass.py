"""The rated road's pass over one sorted part, compiled (numba, optional).

:func:`.sorting._rated_distinct_table` gives each sorted part one pass from
its top: the labels, their running sum (tp), the rates of every row, the
thresholds decoded in place, the positives' rows and the tied neighbours.
In NumPy that is a dozen calls per block of keys with Python between them,
and Python holds the GIL there: on a 16-core Intel Xeon at 10^7 rows the
pass's time summed over its parts grew 8.9x from one thread to sixteen
(parallel.PASS_THREADS). Compiled as one loop that releases the GIL, the pass
runs on every core, reads each key once and writes each output once.

Every output is the same, bit for bit, as the NumPy pass's: tp, j and j - tp
are integers, exact in float64, and each rate is one IEEE division of two of
them (tp / m+, (j - tp) / m-, tp / j), correctly rounded on either road; the
thresholds are the keys' bits shifted (and inverted for scores <= -0.0).
tests/test_rated_pass.py compares the two roads' buffers.

``EVALREPORT_PASS``: "auto" (the default: compiled when numba can be
imported and the input has at least :data:`.keysort.RADIX_MIN` rows, where
loading numba costs less than the pass saves), "numpy", or "compiled"
(whenever numba can be imported: for tests).
"""

from __future__ import annotations

import os

import numpy as np

from .keysort import RADIX_MIN, compile_without_gil

__all__ = ["compiled_pass", "uses_compiled_pass"]

_kernel = None  # the compiled pass, once loaded; False when numba is missing


def _setting() -> str:
    value = os.environ.get("EVALREPORT_PASS", "").strip().lower() or "auto"
    if value not in ("auto", "numpy", "compiled"):
        raise ValueError(f"EVALREPORT_PASS must be auto, numpy or compiled, got {value!r}")
    return value


def uses_compiled_pass(n: int) -> bool:
    """Whether the rated road's pass over ``n`` rows takes the compiled loop."""
    setting = _setting()
    if setting == "numpy" or (setting == "auto" and n < RADIX_MIN):
        return False
    return compiled_pass() is not None


def compiled_pass():
    """The compiled pass (:func:`_pass_py`), or None when numba cannot be imported."""
    global _kernel
    if _kernel is None:
        _kernel = compile_without_gil(_pass_py)
    return _kernel or None


def _pass_py(keys, lo, hi, n, carry, n_pos, tpr, fpr, precision, rows, invert,
             tied, limit):  # pragma: no cover (compiled by numba)
    """The pass over sorted ``keys[lo:hi]`` from its top (index hi - 1, row
    n - hi + 1), with ``carry`` positives above it.

    Writes, at each index i (row j = n - i): ``tpr[i]``, ``fpr[i]``,
    ``precision[i]``, and the threshold's bits into ``keys[i]``; appends the
    rows of the positives to ``rows[carry:]`` (ascending) and the indices i
    whose score equals that of i + 1 to ``tied`` (descending). Stops after
    the index at which more than ``limit`` tied pairs are found.

    Returns (lowest index done, positives written through, tied pairs found).
    """
    neg = n - n_pos
    pos_f = np.float64(n_pos)
    neg_f = np.float64(neg)
    tp = carry
    count = 0
    one = np.uint64(1)
    above = np.uint64(0)
    for i in range(hi - 1, lo - 1, -1):
        key = keys[i]
        j = n - i
        if key & one:
            rows[tp] = j
            tp += 1
        tp_f = np.float64(tp)
        j_f = np.float64(j)
        tpr[i] = tp_f / pos_f
        fpr[i] = (j_f - tp_f) / neg_f
        precision[i] = tp_f / j_f
        bits = key >> one
        if invert:
            bits = ~bits
        keys[i] = bits
        if i < hi - 1 and bits == above:
            tied[count] = i
            count += 1
            if count > limit:
                return i, tp, count
        above = bits
    return lo, tp, count
