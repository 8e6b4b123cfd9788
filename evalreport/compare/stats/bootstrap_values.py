"""The ready statistics of the bootstrap (:mod:`.bootstrap`) computed for a chunk
of resamples at once, from its cumulative counts over the distinct scores
(:class:`.bootstrap._Chunk`), with the engine's arithmetic: the same floats as its
evaluation of each resample's count table (tests/test_bootstrap_vectorised.py).
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from ...metrics.cost import cost_curve, roc_hull
from .bootstrap_hull import cost_curve_areas, hull_packed

__all__ = ["etc_finish", "etc_part"]


def row_at(chunk, threshold: float) -> int:
    """The column of "score >= threshold" in a chunk's cumulative counts (the same
    in every resample)."""
    return int(chunk.thr_desc.size - np.searchsorted(chunk.thr_desc[::-1], threshold, side="left"))


def bep_values(chunk: "_Chunk") -> np.ndarray:
    """metrics.binary._bep for every resample, operation for operation: the first
    row where TP + FP reaches m+, interpolated from the row before it."""
    pos = chunk.pos
    out = np.full(chunk.size, np.nan)
    ok = slice(None) if chunk.both else np.flatnonzero(pos > 0)
    if not chunk.both and not ok.size:
        return out
    # The rows of each resample's table (chunk.drawn_rows, which AP reads too): TP + FP
    # rises along them, and a column between two of them repeats the one before, so
    # k = searchsorted(TP + FP, m+, "left") over all the columns is a row of the table,
    # and the column before k is the table's row before it (or column 0, all zero).
    _, starts, ends, tp, tpfp = chunk.drawn_rows()
    lo, hi, p = starts[ok].tolist(), ends[ok].tolist(), pos[ok]
    k = np.array([a + int(tpfp[a:b].searchsorted(m)) for a, b, m in zip(lo, hi, p.tolist())], dtype=np.int64)
    t1, p1 = tp[k], tpfp[k]
    first = k == starts[ok]
    km = np.maximum(k - 1, 0)
    t0 = np.where(first, 0, tp[km])
    p0 = np.where(first, 0, tpfp[km])
    exact = p1 == p
    between = t0 + (t1 - t0) * ((p - p0) / (p1 - p0))  # (p0 < m+ <= p1)
    out[ok] = np.where(exact, t1 / p, between / p)
    return out


def auc_values(chunk: "_Chunk") -> np.ndarray:
    """The engine's AUC: twice the trapezoid area in counts (an exact integer sum,
    in any order) over 2 m+ m-, one correctly rounded division."""
    out = np.full(chunk.size, np.nan)
    ok = slice(None) if chunk.both else np.flatnonzero((chunk.pos > 0) & (chunk.neg > 0))
    if not chunk.both and not ok.size:
        return out
    whole = chunk.both or ok.size == chunk.size  # (no copy of the counts then)
    tp, fp = (chunk.tp, chunk.fp) if whole else (chunk.tp[ok], chunk.fp[ok])
    p, q = chunk.pos[ok], chunk.neg[ok]
    # (int64 sums, or their float64 conversion, would round)
    if not chunk.small and 2 * int(p.max()) * int(q.max()) > 2**53:
        ok = np.arange(chunk.size)[ok]
        out[ok] = [chunk.evaluation(r).auc for r in ok.tolist()]
        return out
    # The trapezoids' sum, run by run: over a run of blocks with negatives and no
    # positives TP stays put, so its trapezoids add up to one, from the row before
    # the run (start) to its last row (end); a block with both classes is a run of
    # its own; the other blocks add nothing. Integers: exact in any order.
    start, end = chunk.negative_runs
    width = np.take(fp, end, axis=1)
    width -= np.take(fp, start, axis=1)
    height = np.take(tp, end, axis=1)
    height += np.take(tp, start, axis=1)
    width *= height
    auc2 = width.sum(axis=1)
    out[ok] = auc2 / (2 * p * q)
    return out


def average_precision_values(chunk: "_Chunk") -> np.ndarray:
    """Average precision as the engine's (metrics.binary._scalars_general): over
    the rows of the resample's table, sum (TP step) x precision, over m+. The sum
    is :func:`~evalreport.metrics.sums.dot`'s, whose last digit neither the
    processor nor the BLAS thread count changes (no BLAS). A resample whose
    table has one instance a row (all drawn once, distinct scores) is the
    engine's other road: evaluated as such."""
    out = np.full(chunk.size, np.nan)
    # every resample's table rows (the blocks drawn), one after the other
    _, starts, ends, tp, tpfp = chunk.drawn_rows()
    rows = ends - starts
    # (the counts as floats first: exact, and the same floats as a mixed-type
    # operation gives, without its slower casting loop)
    tp_f = tp.astype(np.float64)
    step = np.empty(tp.size, dtype=np.float64)
    np.subtract(tp_f[1:], tp_f[:-1], out=step[1:])
    step[starts] = tp_f[starts]  # each table's first row steps up from 0
    precision = tpfp.astype(np.float64)
    np.divide(tp_f, precision, out=precision)
    # dot's products, for all the rows at once (each one IEEE multiplication); each
    # resample's sum is then dot's: NumPy's pairwise sum of its contiguous run
    products = np.multiply(step, precision, out=step)
    pos, units = chunk.pos.tolist(), (rows == chunk.n_rows).tolist()  # (each resample draws n instances)
    bounds = zip(starts.tolist(), ends.tolist())
    add = np.add.reduce
    for r, (lo, hi) in enumerate(bounds):
        if pos[r] <= 0:
            continue
        if units[r]:  # unit steps
            out[r] = chunk.evaluation(r).average_precision
        else:
            out[r] = float(add(products[lo:hi], axis=None)) / pos[r]
    return out


def expected_total_cost_values(chunk: "_Chunk") -> np.ndarray:
    """The area under the cost curve of each resample's ROC hull: the engine's
    cost curve (:func:`cost_curve`; no other measure is formed) of the hull's
    vertices, found for all the chunk's resamples at once (:func:`.bootstrap_hull.hull_rows`):
    the same vertices as :func:`roc_hull` finds, so the same floats. (The
    bootstrap's loop gathers several chunks first: :func:`etc_part`, :func:`etc_finish`.)"""
    return etc_finish([etc_part(chunk)])


def etc_part(chunk: "_Chunk"):
    """What the expected total cost of a chunk's resamples needs, kept while the
    other statistics read the chunk: the chunk's FP and TP at the rows that can be
    hull vertices, and its class totals; or, where the cross products would pass
    int64, the values themselves (the engine's, resample by resample)."""
    if not chunk.small and chunk.size and 2 * int(chunk.pos.max()) * int(chunk.neg.max()) >= 1 << 62:
        out = np.full(chunk.size, np.nan)
        for r in np.flatnonzero((chunk.pos > 0) & (chunk.neg > 0)).tolist():
            table = chunk.table(r)
            out[r] = cost_curve(table, roc_hull(table)).area
        return out
    # Only a point reached by a rise, before a step to the right, can be a strict
    # vertex (besides the ends): the rows _Layout keeps, the same in every resample.
    tp, fp = chunk.at_hull()
    pos, neg = chunk.classes()  # (copies: the chunk's counts are not kept for them)
    return SimpleNamespace(fp=fp, tp=tp, pos=pos, neg=neg)


def etc_finish(parts: list) -> np.ndarray:
    """The expected total cost of the resamples of ``parts`` (:func:`etc_part`'s, of
    chunks of one learner, in order), their hulls found all at once: the hull's
    vectorised rounds cost about the same for a few resamples as for hundreds."""
    out = [p if isinstance(p, np.ndarray) else None for p in parts]
    todo = [i for i, p in enumerate(out) if p is None]
    if todo:
        group = [parts[i] for i in todo]
        one = group[0] if len(group) == 1 else SimpleNamespace(
            fp=np.concatenate([p.fp for p in group]), tp=np.concatenate([p.tp for p in group]),
            pos=np.concatenate([p.pos for p in group]), neg=np.concatenate([p.neg for p in group]))
        values = np.full(one.pos.size, np.nan)
        ok = np.flatnonzero((one.pos > 0) & (one.neg > 0))
        if ok.size:
            values[ok] = cost_curve_areas(one, ok, *hull_packed(one.fp, one.tp))  # (C-contiguous)
        at = 0
        for i in todo:
            out[i] = values[at:at + parts[i].pos.size]
            at += parts[i].pos.size
    return np.concatenate(out) if len(out) > 1 else out[0]


def column_at(chunk, threshold: float) -> int:
    """:func:`row_at`, found once per learner (the same column in all its chunks)."""
    j = chunk.memo.get(("row", threshold))
    if j is None:
        j = chunk.memo[("row", threshold)] = row_at(chunk, threshold)
    return j


def joined(parts: list) -> tuple:
    """The parts (tuples of arrays, one a chunk) of a gathered statistic, joined."""
    return tuple(np.concatenate(a) for a in zip(*parts))


def f1_values(threshold: float, gathered: bool = False):
    """F1 at ``threshold`` of a chunk's resamples; or (``gathered``) the (part,
    finish) pair that keeps each chunk's counts at the threshold's column and
    computes the values of several chunks at once (resampled_values_many): the
    same operations on each resample's counts."""
    def of(tp, fp, pos, neg):
        den = 2 * tp + fp + (pos - tp)
        if (pos > 0).all():  # (den >= m+ > 0)
            return (2 * tp) / den
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(den > 0, (2 * tp) / den, np.nan)

    def part(chunk):
        return chunk.at_column(column_at(chunk, threshold))

    if gathered:
        return part, lambda parts: of(*joined(parts))
    return lambda chunk: of(*part(chunk))
