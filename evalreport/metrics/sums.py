"""Sums of products whose last digit depends neither on the BLAS threads nor on
the processor.

``np.dot`` hands a float dot product to BLAS. OpenBLAS (NumPy's) picks its
kernel for the processor at run time (SkylakeX with AVX-512, Haswell with AVX2,
...), and each kernel adds the products in the order of its vector width, so the
last digit of a dot product differs between machines. Above 10,000 elements it
also splits the sum into one part per thread, so the last digit depended on
``OPENBLAS_NUM_THREADS`` too (tests/test_bootstrap_threads.py).

:func:`dot` therefore never calls BLAS. Each product is one IEEE multiplication,
the same on every machine, and NumPy's own pairwise sum adds them, in an order
fixed by the array's length and not by the processor's vector width (blocks of
128 with eight partial sums in plain C, whichever SIMD kernel NumPy dispatched:
docs/architecture.md, "What is bit-identical across machines"). It costs about
three times np.dot (33 against 10 microseconds at 10,000 elements, where
math.fsum takes 1.9 ms: too slow for the bootstrap's one sum per resample).
"""

from __future__ import annotations

import numpy as np

__all__ = ["dot"]

def dot(a, b) -> float:
    """sum(a * b) as a Python float, in an order that neither the processor nor
    the thread count changes."""
    products = np.multiply(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64))
    return float(np.add.reduce(products, axis=None))
