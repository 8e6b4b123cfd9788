"""The 64-bit sort keys of the fast road: a score's bits and its label in one integer.

key = (pattern << 1) | label, where pattern is the score's IEEE bit pattern,
inverted when the scores are <= -0.0 (their patterns fall as the score rises).
For scores of one sign the sign bit is the same in every row, so the shift
loses nothing: ascending keys are the rows in ascending score order, each with
its label in the lowest bit, and decoding is exact (key >> 1, inverted again
for negative scores). :func:`checked_keys` checks the common input (integer
labels, probabilities) and encodes it in the same pass;
:mod:`.sorting` builds the count table from the sorted keys.
"""

from __future__ import annotations

import numpy as np

from . import parallel
from .parallel import blocks, in_parts

ONE = np.uint64(1)
TOP_BIT = np.uint64(1 << 63)
INF_BITS = np.float64(np.inf).view(np.uint64)

def encode_keys(scores: np.ndarray, out: np.ndarray, *, invert: bool) -> None:
    """Undo :func:`decode_keys` but for the label bit: ``out`` = the score's
    pattern (inverted for scores <= -0.0) shifted left by one (``scores``
    and ``out`` may share memory)."""
    bits = scores.view(np.uint64)
    if invert:
        np.invert(bits, out=out)
        np.left_shift(out, ONE, out=out)
    else:
        np.left_shift(bits, ONE, out=out)


def decode_keys(keys: np.ndarray, out: np.ndarray, *, invert: bool) -> np.ndarray:
    """The float64 scores of ``keys``, written into ``out`` (returned)."""
    bits = out.view(np.uint64)
    np.right_shift(keys, ONE, out=bits)
    if invert:
        np.invert(bits, out=bits)
    return out


def checked_keys(y_true, y_score, positive):
    """The sort keys of :func:`.sorting.table_from_keys` for the common input, checked
    in the same pass: integer labels, an integer positive label, float64
    scores all finite and >= +0.0 (probabilities).

    Reads the labels and the scores once, block by block (the checks run on
    blocks in cache), instead of once per check. Returns the keys' buffer and
    the number of positives, or None when the input is not of this kind or
    fails a check: the caller then runs the full checks, which say what is
    wrong.
    """
    y = y_true if isinstance(y_true, np.ndarray) else None
    s = y_score if isinstance(y_score, np.ndarray) else None
    if (y is None or s is None or y.ndim != 1 or s.shape != y.shape or y.size == 0
            or s.dtype != np.float64 or y.dtype.kind not in "iu" or not y.dtype.isnative
            or not isinstance(positive, (int, np.integer)) or np.signbit(s[0])):
        return None
    n = s.size
    buf = np.empty(n + 1, dtype=np.uint64)
    bits = s.view(np.uint64)
    # Labels 0 and 1 with 1 positive (the usual case): a block whose labels,
    # read as unsigned, OR to at most 1 holds no other label, and its labels
    # are its label bits.
    zero_one = y.view(f"u{y.dtype.itemsize}") if positive == 1 else None

    def encode(lo, hi):
        """(scores all finite and >= +0.0, positives, the other label or
        None); ok False also when a block holds a third label."""
        ok, n_pos, other = True, 0, None
        for start, stop in blocks(lo, hi, parallel.long_block()):  # (few calls a block: on every thread)
            block, keys = bits[start:stop], buf[start:stop]
            ok = ok and block.max() < INF_BITS
            np.left_shift(block, ONE, out=keys)
            if zero_one is not None and np.bitwise_or.reduce(zero_one[start:stop]) <= 1:
                if other not in (None, 0):
                    return False, n_pos, other  # 0 may be a third label: leave it to the full checks
                other = 0  # (perhaps absent from the block: then the full checks decide)
                n_pos += int(np.add.reduce(zero_one[start:stop]))  # (0s and 1s: a sum counts)
                np.bitwise_or(keys, zero_one[start:stop], out=keys)
                continue
            labels = y[start:stop]
            is_pos = np.equal(labels, positive)
            found = int(np.count_nonzero(is_pos))
            if found < stop - start:
                if other is None:
                    other = labels[int(np.argmin(is_pos))].item()
                if found + int(np.count_nonzero(labels == other)) < stop - start:
                    return False, n_pos, other  # a third label
            n_pos += found
            np.bitwise_or(keys, is_pos, out=keys)
        return ok, n_pos, other

    parts = in_parts(encode, n, threads=parallel.thread_count())
    others = {other for _, _, other in parts if other is not None}
    if not all(ok for ok, _, _ in parts) or len(others) > 1:
        return None
    return buf, sum(n_pos for _, n_pos, _ in parts)


def encoded_keys(s: np.ndarray, is_pos: np.ndarray, *, nonnegative: bool) -> np.ndarray:
    """The keys' buffer (n + 1; the keys in ``[:n]``) of checked scores of one sign."""
    n = s.size
    buf = np.empty(n + 1, dtype=np.uint64)
    keys = buf[:n]

    def encode(lo, hi):
        part = keys[lo:hi]
        encode_keys(s[lo:hi], part, invert=not nonnegative)
        np.bitwise_or(part, is_pos[lo:hi], out=part)

    in_parts(encode, n)
    return buf
