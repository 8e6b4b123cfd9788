"""``resolution``: the scores binned (a step, or about ``q`` bins of equal
row counts made of equal-width cells), and the bounds that binning puts on
AUC, average precision and BEP, from the binned table alone. The package's
docstring (:mod:`evalreport.engines`) derives them.
"""

from __future__ import annotations

import math

import numpy as np

from ..counting import CountTable
from ..metrics.sums import dot


#: Cells per requested bin for an integer resolution, and the most cells.
CELLS_PER_BIN = 64
MAX_CELLS = 1 << 22


def parse_resolution(resolution):
    """None, ("step", h) for a float, or ("bins", q) for an int."""
    if resolution is None:
        return None
    if isinstance(resolution, bool):
        raise ValueError(f"resolution must be a positive float step or an int number of bins, not {resolution!r}")
    if isinstance(resolution, (int, np.integer)):
        q = int(resolution)
        if q < 1:
            raise ValueError(f"resolution (a number of bins) must be at least 1, got {q}")
        return ("bins", q)
    if isinstance(resolution, (float, np.floating)):
        h = float(resolution)
        if not (math.isfinite(h) and h > 0):
            raise ValueError(f"resolution (a step) must be a positive finite number, got {resolution!r}")
        return ("step", h)
    raise ValueError(
        f"resolution must be a positive float (a step) or an int (a number of bins), got {resolution!r}"
    )


def cells_for(q: int) -> int:
    """Equal-width cells used to form ``q`` bins of about equal counts."""
    return int(max(q, min(CELLS_PER_BIN * q, MAX_CELLS)))


def cell_scale(lo: float, hi: float, cells: int) -> float:
    """Multiplier of ``score - lo`` giving the cell index (0 when min == max)."""
    span = hi - lo
    if not (span > 0) or not math.isfinite(span):
        return 0.0
    scale = cells / span
    return scale if math.isfinite(scale) else 0.0


def merge_cells(cell, n, pos, neg, smin, q: int):
    """Merge equal-width cells (any order) into about ``q`` bins of equal row counts.

    A cell starts bin ``floor(q * rows before it / total rows)``; the bin's
    threshold is its smallest score. Returns (threshold, pos, neg) per bin.
    """
    order = np.argsort(cell, kind="stable")
    n = np.asarray(n, dtype=np.int64)[order]
    before = np.cumsum(n) - n
    total = int(n.sum())
    bin_id = (before.astype(np.float64) * q) // max(total, 1) if total else np.zeros(n.size)
    # bins are runs of equal bin_id (bin_id is non-decreasing)
    starts = np.flatnonzero(np.concatenate(([True], bin_id[1:] != bin_id[:-1])))
    pos = np.asarray(pos)[order]
    neg = np.asarray(neg)[order]
    smin = np.asarray(smin, dtype=np.float64)[order]
    return (
        np.minimum.reduceat(smin, starts),
        np.add.reduceat(pos, starts),
        np.add.reduceat(neg, starts),
    )


def resolution_bounds(table: CountTable) -> dict:
    """Bounds on ``|exact - binned|`` for AUC, average precision and BEP.

    ``table`` is the binned table; each entry is None where the measure is
    undefined. See :mod:`evalreport.engines` for the derivations.

    >>> from evalreport.metrics import count_table_from_aggregates
    >>> t = count_table_from_aggregates([1.0, 0.0], [2, 1], [1, 2])
    >>> b = resolution_bounds(t)
    >>> round(b["auc"], 6)  # (2*1 + 1*2) / (2 * 3 * 3)
    0.222222
    """
    tp = table.tp.astype(np.float64)
    fp = table.fp.astype(np.float64)
    mp, mn = float(tp[-1]), float(fp[-1])
    P = np.diff(tp)
    N = np.diff(fp)
    out: dict[str, float | None] = {"auc": None, "average_precision": None, "bep": None}
    if mp > 0 and mn > 0:
        out["auc"] = dot(P, N) / (2.0 * mp * mn)  # sums.dot: no BLAS
    if mp > 0:
        a = tp[:-1]
        d = a + fp[:-1]
        c = d + N
        has = P > 0
        with np.errstate(divide="ignore", invalid="ignore"):
            binned = np.where(has, P * (a + P) / (d + P + N), 0.0)
            upper = np.where(has, P * (a + P) / (d + P), 0.0)
            lower = np.where(c > 0, P - (c - a) * _log1p(P / np.where(c > 0, c, 1.0)), P)
        lower = np.where(has, lower, 0.0)
        gap = np.maximum(np.maximum(upper - binned, binned - lower), 0.0)
        out["average_precision"] = float(gap.sum() / mp)
        predicted = tp + fp
        k = int(np.searchsorted(predicted, mp, side="left"))
        if k >= predicted.size or predicted[k] == mp or k == 0:
            out["bep"] = 0.0
        else:
            r = mp - predicted[k - 1]
            pb, nb = P[k - 1], N[k - 1]
            xb = pb * r / (pb + nb)
            hi = min(r, pb)
            lo = max(0.0, r - nb)
            out["bep"] = float(max(hi - xb, xb - lo, 0.0) / mp)
    return out


def _log1p(x: np.ndarray) -> np.ndarray:
    """log(1 + x) by the C library (math.log1p), value by value: NumPy's log1p is
    an AVX-512 kernel where the processor has one and the C library's elsewhere,
    and the two differ in the last digit. One value per bin (10^4 at resolution
    1e-4): a millisecond."""
    return np.fromiter(map(math.log1p, x.tolist()), dtype=np.float64, count=x.size)
