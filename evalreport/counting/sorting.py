"""The fast road to the count table: one sort of 64-bit keys (:mod:`.keys`).

Unweighted scores of one sign (all >= +0.0, or all <= -0.0: probabilities,
log-probabilities) take this road, :func:`table_from_keys`: the IEEE sign
bit is then the same in every score, so it can be shifted out and the label
stored in the freed lowest bit. One in-place sort of these 64-bit keys (split
across threads by :func:`.parallel.sort_in_place` when large)
orders the scores (ascending) and carries each row's label along, which
replaces the two gathers, the two sorts and the merge of :mod:`.build`'s
road. The table reads
the sorted keys backwards (descending scores). Untied, the sorted labels are
the table (a cumulative sum from the top gives tp, and fp = row - tp); tied,
each run of equal keys is one (score, label) block, folded per score. Scores
of both signs have no bit to spare and keep the general road. Either way the
table is the same, bit for bit.

Untied with both classes, :func:`evaluate_binary`'s table comes from one
more pass (:func:`_rated_distinct_table`), made part by part by the thread
that sorted the part (one part's pass overlaps another's sort). Block by
block, each block's tp goes straight into the ROC and P-R rates, and the
keys are decoded in place
into the thresholds. So the curves cost three fresh arrays and no re-reads
of tp, and tp itself is not kept: it is ``rint(tpr * m+)``, exact. (On a
virtual machine a fresh array of n costs about as much in page faults as a
pass over it, so fewer arrays matter as much as fewer passes.)

The passes after the sort run block by block, and in parts on several
threads for large inputs (:mod:`.parallel`).
"""

from __future__ import annotations

import threading

import numpy as np

from . import parallel
from .keys import ONE, decode_keys, encode_keys
from .few_ties import (few_ties_limit, keyed_table_without_tie_rows, table_without_tie_rows,
                        tp_table_without_tie_rows)
from .keysort import sort_keys
from .rated_pass import compiled_pass, uses_compiled_pass
from .parallel import blocks, in_parts, part_edges, run_parts
from .table import CountTable, UnitCurves, table_from_ascending, UnitStepTable
from .unit_rates import UnitCurveBuffers

def table_from_keys(buf: np.ndarray, n_pos: int, *, nonnegative: bool, keep_keys: bool = False,
                     rates: bool = False):
    """Count table of unweighted finite scores of one sign, from one sort of 64-bit keys.

    key = (pattern << 1) | label, where pattern is the score's bit pattern,
    inverted when the scores are <= -0.0 (their patterns fall as the score
    rises). Either way ascending keys are the rows in ascending score order,
    each with its label in the lowest bit: the shift drops the sign bit, the
    same in every row. Decoding is exact: key >> 1, inverted again for
    negative scores (which also puts the sign bit back).

    The table's rows run the other way (descending scores), so it reads the
    sorted keys backwards: the thresholds and the ROC curve's thresholds are
    reversed views of one buffer, not copies. The passes before and after
    the sort run in parts on every core (:mod:`.parallel`).

    Returns (table, positive rows), the rows None when there are ties. With
    every score distinct the table is a :class:`UnitStepTable`.
    """
    # buf[:n] holds the keys; on the eager road buf becomes tp, read backwards
    n = buf.size - 1
    keys = buf[:n]
    invert = not nonnegative
    if rates and not keep_keys and 0 < n_pos < n and not _ties_in_spread_sample(keys):
        table = _rated_distinct_table(buf, n_pos, invert=invert)  # (sorts the keys)
        if table is None:  # tied scores (the keys are sorted, as they were)
            return _table_from_key_runs(keys, invert=invert), None
        return table
    parallel.sort_in_place(keys)
    # Many ties in the sample: skip the row-by-row work below. (A few, such
    # as capped scores at the top, may be a few in all: counted exactly below.)
    if _ties_in_sample(keys):
        return _table_from_key_runs(keys, invert=invert), None
    if keep_keys:
        return _keyed_distinct_table(keys, n_pos, invert=invert)
    # Thresholds ascending, then +inf: read backwards, the table's thresholds
    # and the ROC curve's (+inf, then these) share this one buffer.
    with_inf = np.empty(n + 1, dtype=np.float64)
    pairs = _decoded_ties(keys, with_inf[:n], invert=invert, limit=few_ties_limit(n))
    if pairs is None:  # more ties than the few-ties road takes
        del with_inf
        return _table_from_key_runs(keys, invert=invert), None
    with_inf[n] = np.inf
    # One row per score; the keys' buffer becomes tp.
    tp, rows = _cumulate_labels(keys, buf, n_pos, in_place=True)
    if pairs.size:  # a few ties: the as-if table less the rows inside each tie
        return tp_table_without_tie_rows(with_inf, tp, rows, pairs, n_pos=n_pos, invert=invert), None
    return UnitStepTable(tp, ascending_with_inf=with_inf, invert=invert), rows


def _rated_distinct_table(buf: np.ndarray, n_pos: int, *, invert: bool):
    """Sort the keys, and form the table of distinct keys of both classes
    with the ROC and P-R curves' rates, in one pass over the keys. A few
    tied scores (at most :func:`.few_ties.few_ties_limit` neighbouring pairs)
    give the table without the rows inside each tie
    (:func:`.few_ties.table_without_tie_rows`); with more, None (the keys are
    then sorted, and undecoded), and the caller takes the key-runs road.

    The keys are sorted part by part (:func:`.parallel.sort_in_place`'s
    parts, put in place by :func:`.parallel.partition_into_parts`), each part
    by the thread that then makes the pass over it (compiled, without the
    GIL, where :mod:`.rated_pass` says so; else NumPy's calls, a few parts
    at a time): the passes over one part overlap the
    sort of another, and find its keys in cache. A part that finds more
    tied pairs than the limit stops there (so the road taken depends on the
    scores, not on how they were split into parts).

    Each block of keys, from the top, is checked for ties, gives its labels
    (the positives' rows, and their sums from the top: tp, in a small
    scratch buffer), the rates of its rows (:class:`UnitCurveBuffers`) and
    then its thresholds, decoded in place: the keys' buffer becomes the
    thresholds ascending, then +inf (``buf[n]``). tp itself is not kept: it
    is exactly ``rint(tpr * m+)`` (:class:`UnitStepTable`).

    Why one pass: each fresh array of n costs a page fault per page on first
    touch (on a virtual machine about as much as a pass over it), and each
    extra pass re-reads n from memory. This road writes three arrays of n
    (fpr, tpr, precision) and no others besides the keys' own buffer.
    """
    n = buf.size - 1
    keys = buf[:n]
    size = parallel.BLOCK
    edges = parallel.partition_into_parts(keys)

    above = _positives_above(keys, edges, n_pos)  # (the labels' count does not need the order)
    rows = np.empty(n_pos, dtype=np.int64)
    curves = UnitCurveBuffers(n, n_pos)

    limit = few_ties_limit(n)
    passing = threading.BoundedSemaphore(parallel.pass_threads())
    kernel = compiled_pass() if uses_compiled_pass(n) else None

    def part(lo, hi):
        """Sort part [lo, hi) and fill it from its top; return (the indices
        i of its keys tied with key i + 1, or None past the limit; lowest
        index done; rows written)."""
        carry = above[lo]
        # (the part's own stretch of the FPR buffer, filled after the sort,
        # lends the radix sort its scratch: no array of n more at the peak)
        sort_keys(keys[lo:hi], total=n, scratch=curves.fpr[lo:hi].view(np.uint64))
        if kernel is not None:  # one compiled loop, without the GIL (counting.rated_pass)
            tied = np.empty(min(limit + 1, hi - lo), dtype=np.int64)
            low, carry, count = kernel(keys, lo, hi, n, carry, n_pos, curves.tpr, curves.fpr,
                                       curves.precision, rows, invert, tied, limit)
            return (None if count > limit else [tied[:count]]), low, carry
        with passing:  # (at most parallel.pass_threads() parts at once: the pass holds the GIL between calls)
            return _pass(lo, hi, carry)

    def _pass(lo, hi, carry):
        scratch = _LabelScratch(min(size, hi - lo))
        same = scratch.is_pos  # (free once a block's positives are found)
        tied, count = [], 0
        for start, stop in reversed(list(blocks(lo, hi))):
            block = keys[start:stop]
            m = stop - start
            labels = scratch.labels[:m]
            at = _block_positives(block, labels, scratch, n - start, rows, carry)
            tp = labels.view(np.int64)
            sums = tp[::-1]
            sums[0] += carry  # the positives above stop, carried down by the sum
            np.cumsum(sums, out=sums)  # tp of rows n - stop + 1 .. n - start, read backwards
            curves.fill(tp, start, stop)
            carry += at.size
            # The thresholds, in place. A tie: two neighbouring equal scores
            # (the same bits), here or across the block above. The pass goes
            # on as if they were distinct (few_ties drops the rows between).
            bits = decode_keys(block, block.view(np.float64), invert=invert).view(np.uint64)
            if np.equal(bits[1:], bits[:-1], out=same[:m - 1]).any():
                tied.append(np.flatnonzero(same[:m - 1]) + start)
                count += tied[-1].size
            if stop < hi and keys[stop] == bits[-1]:
                tied.append(np.array([stop - 1]))
                count += 1
            if count > limit:  # (so more than the limit in all: the key-runs road)
                return None, start, carry
        return tied, lo, carry

    results = run_parts(part, edges)
    return _rated_table_of_parts(buf, n_pos, edges, results, above, rows, curves, limit, invert=invert)


def _rated_table_of_parts(buf: np.ndarray, n_pos: int, edges, results, above, rows, curves, limit: int, *,
                          invert: bool):
    """The table of :func:`_rated_distinct_table` from its parts' passes (each
    part's (tied pairs or None, lowest index done, rows written)): the ties
    within and between the parts gathered; past ``limit`` of them, None, with
    the keys of what was decoded put back."""
    n = buf.size - 1
    keys = buf[:n]
    with_inf = buf.view(np.float64)
    many = any(t is None for t, _, _ in results)
    tied = [] if many else [i for t, _, _ in results for i in t if i.size]
    if not many:
        tied += [np.array([e - 1]) for e in edges[1:-1] if with_inf[e - 1] == with_inf[e]]
        pairs = np.sort(np.concatenate(tied)) if tied else None
        many = pairs is not None and pairs.size > limit
    if many:
        # Put back the keys of what was decoded: the score's bits, shifted,
        # and the label bit of each positive (its row j is index n - j).
        for lo, hi, (_, low, carry) in zip(edges[:-1], edges[1:], results):
            if low < hi:
                encode_keys(with_inf[low:hi], keys[low:hi], invert=invert)
                keys[n - rows[above[lo]:carry]] |= ONE
        return None
    with_inf[n] = np.inf
    if pairs is not None:
        return table_without_tie_rows(with_inf, curves, rows, pairs, n_pos=n_pos, invert=invert), None
    table = UnitStepTable(None, n_rows=n, n_pos=n_pos, ascending_with_inf=with_inf, invert=invert,
                           curves=UnitCurves(*curves.rates()))
    return table, rows


def _decoded_ties(keys: np.ndarray, out: np.ndarray, *, invert: bool, limit: int):
    """Decode ascending ``keys`` into ``out``; the indices i whose score
    equals that of i + 1 (ascending), or None when there are more than
    ``limit`` (the decoding then stops: the caller takes the key runs)."""

    def decode(lo, hi):
        found, count = [], 0
        for start, stop in blocks(lo, hi):
            block = decode_keys(keys[start:stop], out[start:stop], invert=invert)
            at = np.flatnonzero(block[1:] == block[:-1]) + start
            if start > lo and out[start - 1] == block[0]:
                at = np.concatenate(([start - 1], at))
            found.append(at)
            count += at.size
            if count > limit:
                return None
        return found

    edges = part_edges(keys.size)
    parts = run_parts(decode, edges)
    if any(found is None for found in parts):
        return None
    pairs = np.concatenate([at for found in parts for at in found]
                           + [np.array([e - 1]) for e in edges[1:-1] if out[e - 1] == out[e]])
    return None if pairs.size > limit else np.sort(pairs).astype(np.int64)


def _positives_above(keys: np.ndarray, edges: list[int], n_pos: int) -> dict[int, int]:
    """For each part ``[lo, hi)`` of ascending ``keys``, keyed by ``lo``: the
    number of positives above it (at indices >= hi). With one part no keys
    are read."""
    def count(lo, hi):
        return sum(int(np.count_nonzero(keys[start:stop] & ONE))
                   for start, stop in blocks(lo, hi, parallel.long_block()))  # (on every thread)

    counts = run_parts(count, edges) if len(edges) > 2 else [n_pos]
    return dict(zip(edges[:-1], (np.cumsum(counts[::-1])[::-1].tolist() + [0])[1:]))


class _LabelScratch:
    """Reused per-part buffers of :func:`_block_positives` (a fresh
    temporary per block costs its page faults)."""

    def __init__(self, size: int):
        self.labels = np.empty(size, dtype=np.uint64)
        self.is_pos = np.empty(size, dtype=bool)


def _block_positives(block, labels, scratch: _LabelScratch, top_row: int, rows, carry: int):
    """The labels of a block of ascending keys, written to ``labels``
    (0 or 1), and the rows of its positives, written to
    ``rows[carry:carry + P]`` ascending; returns the positives' places in
    the block. ``top_row`` is the row of the block's first key (row j is
    index n - j)."""
    np.bitwise_and(block, ONE, out=labels)
    is_pos = scratch.is_pos[:block.size]
    np.not_equal(labels, 0, out=is_pos)
    at = np.flatnonzero(is_pos)  # far faster on bools than on ints
    np.subtract(top_row, at[::-1], out=rows[carry:carry + at.size])
    return at


def _cumulate_labels(keys: np.ndarray, buf: np.ndarray, n_pos: int, *, in_place: bool):
    """``tp`` and the positives' rows of distinct ascending ``keys``.

    ``buf`` holds n + 1 integers. ``in_place``: ``buf[:n]`` is the keys'
    own buffer; it receives the labels, then their sums from the top, and
    read backwards it is ``tp`` (``buf[n] = 0`` is ``tp[0]``): no new array
    of n, but a reversed view. Otherwise ``buf`` is ``tp``, contiguous, and
    each block's labels go through a small temporary (a report keeps the
    keys, and hands ``tp`` to NumPy calls that copy a reversed view whole).
    Returns (tp, rows): ``rows`` ascending, the rows where the positives
    enter (row ``j`` is index ``n - j``).

    With several parts, the positives of each part are counted first (a read
    of the keys), so that each part knows how many lie above it; each part
    sums its labels block by block from its top, carrying the sum down.
    (Over a reversed view NumPy's cumulative sum also takes its plain
    strided loop, several times faster than its contiguous one.)
    """
    n = keys.size
    tp = buf.view(np.int64)
    if in_place:
        tp[n] = 0
    else:
        tp[0] = 0
    edges = part_edges(n)
    above = _positives_above(keys, edges, n_pos)
    rows = np.empty(n_pos, dtype=np.int64)

    def label(lo, hi):
        carry = above[lo]
        scratch = _LabelScratch(min(parallel.BLOCK, hi - lo))
        for start, stop in reversed(list(blocks(lo, hi))):
            labels = buf[start:stop] if in_place else scratch.labels[:stop - start]
            at = _block_positives(keys[start:stop], labels, scratch, n - start, rows, carry)
            sums = labels.view(np.int64)[::-1]
            sums[0] += carry  # the positives above stop, carried down by the sum
            # positives in [i, n): in place, or into tp's rows n - stop + 1 .. n - start
            np.cumsum(sums, out=sums if in_place else tp[n - stop + 1:n - start + 1])
            carry += at.size

    run_parts(label, edges)
    return (tp[::-1] if in_place else tp), rows


def _keyed_distinct_table(keys: np.ndarray, n_pos: int, *, invert: bool):
    """The table of sorted keys kept undecoded (see ``keep_keys``); with a
    few ties (:func:`.few_ties.few_ties_limit`), the same without the rows
    inside each tie (:func:`.few_ties.keyed_table_without_tie_rows`); with
    more, the key-runs road."""
    n = keys.size
    limit = few_ties_limit(n)
    # Two neighbouring keys of one score differ at most in the label bit, so
    # their exclusive or is 0 or 1. (Worked out in the buffer tp will use,
    # rather than in one more fresh array.)
    buf = np.empty(n + 1, dtype=np.uint64)

    def tied(lo, hi):
        hi = min(hi, n - 1)
        differ = buf[lo:hi]
        np.bitwise_xor(keys[lo + 1:hi + 1], keys[lo:hi], out=differ)
        at = np.flatnonzero(differ <= ONE)
        return None if at.size > limit else at + lo

    found = in_parts(tied, n)
    pairs = None if any(at is None for at in found) else np.concatenate(found)
    if pairs is None or pairs.size > limit:
        del buf
        return _table_from_key_runs(keys, invert=invert), None
    # One row per score; the keys stay, for the thresholds.
    tp, rows = _cumulate_labels(keys, buf, n_pos, in_place=False)
    if pairs.size:  # a few ties: tp and the keys as if distinct, less the rows inside each tie
        return keyed_table_without_tie_rows(keys, tp, rows, pairs, n_pos=n_pos, invert=invert), None
    return UnitStepTable(tp, keys=keys, invert=invert), rows


def _ties_in_sample(sorted_keys: np.ndarray) -> bool:
    """Whether a few windows of sorted keys hold more tied scores than a
    few-ties input would (a cheap guess, :data:`_FEW_IN_SAMPLE`).

    Only decides which road is faster: a wrong "no" is caught by the exact
    count of the ties, and a "yes" sends the keys to the key runs, which
    give the same table for any ties.
    """
    return _tied_pairs_in_sample(sorted_keys) > _FEW_IN_SAMPLE


#: tied pairs in :func:`_tied_pairs_in_sample`'s 16 windows of 255 pairs
#: above which the sorted keys go straight to the key runs: four times
#: the few-ties limit's density (one pair in 256), so that a few ties are
#: counted exactly (a tie of a few capped scores may fill the top window)
#: and many (rounded scores: thousands in the sample) skip the count
_FEW_IN_SAMPLE = 64


def _tied_pairs_in_sample(sorted_keys: np.ndarray, windows: int = 16, width: int = 256) -> int:
    """The neighbouring pairs of one score in a few windows of sorted keys
    (all of them below ``windows * width`` keys)."""
    n = sorted_keys.size
    if n <= windows * width:
        scores = sorted_keys >> ONE
        return int(np.count_nonzero(scores[1:] == scores[:-1]))
    starts = np.linspace(0, n - width, windows).astype(np.int64)
    scores = sorted_keys[starts[:, None] + np.arange(width)] >> ONE  # one row per window
    return int(np.count_nonzero(scores[:, 1:] == scores[:, :-1]))


def _ties_in_spread_sample(keys: np.ndarray, size: int = 4096) -> bool:
    """Whether about ``size`` keys spread over the (unsorted) ``keys`` hold a
    tied score: a cheap guess made before the sort, like :func:`_ties_in_sample`
    after it. Continuous scores show no tie; scores of a few thousand values
    (rounded, binned) show many."""
    scores = np.sort(keys[::max(1, keys.size // size)] >> ONE)
    return bool(np.any(scores[1:] == scores[:-1]))


def _table_from_key_runs(sorted_keys: np.ndarray, *, invert: bool) -> CountTable:
    """Count table from ascending keys with ties: one row per distinct score.

    A row starts where the score changes (a score held by both classes is one
    run of keys, negatives first: label 0 sorts first). Its positives are the
    sum of the keys' label bits over the run, its negatives the rest of the
    run. The keys are read in parts on every thread, each part in stretches
    of :data:`RUN_STRETCH` keys (long NumPy calls, which release the GIL:
    the parts run side by side), each stretch giving its runs; a run that
    goes on into the next stretch is joined to it afterwards. Temporaries
    are a stretch long, and the runs' arrays as long as the distinct scores.
    """
    n = sorted_keys.size

    def runs(lo, hi):
        found = []
        # one scratch per part, reused stretch by stretch: a fresh temporary
        # per stretch costs its page faults, which threads take in turn
        size = min(RUN_STRETCH, hi - lo)
        scratch, changes = np.empty(size, dtype=np.uint64), np.empty(size, dtype=bool)
        for start in range(lo, hi, RUN_STRETCH):
            keys = sorted_keys[start:min(start + RUN_STRETCH, hi)]
            m = keys.size
            bits = np.right_shift(keys, ONE, out=scratch[:m])
            changes[0] = True
            np.not_equal(bits[1:], bits[:-1], out=changes[1:m])
            starts = np.flatnonzero(changes[:m])
            values = bits[starts]
            labels = np.bitwise_and(keys, ONE, out=scratch[:m])
            found.append((values, starts + start, np.add.reduceat(labels, starts)))
        return found

    found = [run for part in parallel.run_parts(runs, parallel.part_edges(n, min_part=RUN_STRETCH,
                                                                            threads=parallel.thread_count()))
             for run in part]
    bits, starts, pos_w = (np.concatenate(column) for column in zip(*found))
    if len(found) > 1:  # join the runs cut at a stretch's edge (the same score on both sides)
        joined = np.flatnonzero(bits[1:] == bits[:-1]) + 1
        if joined.size:
            first = np.ones(bits.size, dtype=bool)
            first[joined] = False
            heads = np.flatnonzero(first)
            pos_w = np.add.reduceat(pos_w, heads)
            bits, starts = bits[heads], starts[heads]
    pos_w = pos_w.astype(np.int64)
    neg_w = np.diff(starts, append=n) - pos_w
    scores = decode_keys(bits << ONE, np.empty(bits.size), invert=invert)
    return table_from_ascending(scores, pos_w, neg_w, n)


#: keys per stretch of :func:`_table_from_key_runs` (2^20: 8 MiB of keys, a
#: few milliseconds per NumPy call, so the GIL is held only between long calls)
RUN_STRETCH = 1 << 20
