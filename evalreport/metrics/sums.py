"""Sums of products whose last digit does not depend on the BLAS threads.

``np.dot`` hands a float dot product to BLAS. OpenBLAS (NumPy's) sums one of at
most 10,000 elements in one thread, in the order of its kernel for the processor,
whatever ``OPENBLAS_NUM_THREADS`` says; above that it splits the sum into one part
per thread, so the last digit of the result, and the bytes of results.json, would
depend on the thread count (tests/test_bootstrap_threads.py). Up to that size
:func:`dot` is ``np.dot``, as it always was (the same numbers as before); above,
NumPy's own sum of the products, in a fixed order whatever the threads.
"""

from __future__ import annotations

import numpy as np

__all__ = ["dot", "BLAS_ONE_THREAD"]

#: the size up to which OpenBLAS computes a dot product in one thread (its
#: kernel's threshold, measured: at 10,001 elements one and two threads differ)
BLAS_ONE_THREAD = 10_000


def dot(a, b) -> float:
    """sum(a * b) as a Python float, in an order that no thread count changes."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.size <= BLAS_ONE_THREAD:
        return float(np.dot(a, b))
    return float(np.add.reduce(np.multiply(a, b)))
