"""Building the count table (:mod:`.table`) from raw scores, or from per-score aggregates.

The floor is one ``np.sort`` of the scores. :func:`count_table_and_positive_rows`
picks the road:

* unweighted scores of one sign (the common case: probabilities) take the
  sort-key road of :mod:`.sorting`; integer labels with probabilities are
  checked and encoded in one pass over blocks that stay in cache
  (:func:`.keys.checked_keys`), anything else is checked first (:mod:`.checks`);
* unweighted scores of both signs (:func:`_table_by_class`): the scores of each
  class are gathered with ``np.compress`` (far cheaper than boolean indexing)
  into one buffer and each run is sorted in place with ``np.sort``'s SIMD
  quicksort (the two runs side by side on two threads when both are large):
  together about one sort of all the scores;
* each sorted run collapses to (distinct value, count): a tied block is one
  entry, so ties are never split;
* the two runs of distinct values are merged with a stable ``argsort`` of their
  concatenation, which NumPy's timsort does as one linear merge of two runs;
* counts are integers when there are no weights (exact AUC and hull) and
  float64 with weights (then each class is ordered with ``argsort``, since the
  weights must follow the scores).

:func:`count_table_from_aggregates` is the entry point of engines that aggregate
where the data lives (``GROUP BY score``).
"""

from __future__ import annotations

import numpy as np

from . import parallel
from .checks import checked_inputs, first_index
from .keys import checked_keys, encoded_keys
from .sorting import table_from_keys
from .table import CountTable, table_from_ascending

def count_table(y_true, y_score, *, sample_weight=None, positive=1) -> CountTable:
    """Build the count table of one learner's scores.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels: ints, bools or strings; ``positive`` names the positive one.
    y_score : array-like of shape (n,)
        Real scores, higher = more positive.
    sample_weight : array-like of shape (n,), optional
        Non-negative weights.
    positive : label
        The positive label.

    Examples
    --------
    >>> t = count_table([0, 1, 1, 0], [0.1, 0.8, 0.8, 0.3])
    >>> t.threshold.tolist(), t.tp.tolist(), t.fp.tolist()
    ([0.8, 0.3, 0.1], [0, 2, 2, 2], [0, 0, 1, 2])
    """
    return count_table_and_positive_rows(
        y_true, y_score, sample_weight=sample_weight, positive=positive
    )[0]


def count_table_and_positive_rows(y_true, y_score, *, sample_weight=None, positive=1, keep_keys=False,
                                  rates=False):
    """:func:`count_table`, and the rows where the positives enter when known.

    The rows (ascending, ``k_i`` for the i-th positive from the top) come for
    free when every score is distinct and unweighted and the table was built
    from sort keys; otherwise they are None. The engine reads its scalars and
    hull corners off them instead of scanning ``tp`` again.

    ``keep_keys``: for distinct unweighted scores, keep the sorted keys and
    decode thresholds (and form ``fp``) only when asked for whole
    (:class:`.table.UnitStepTable`). A report, which reads them at a few rows,
    saves two passes each; a caller that reads every curve point (the ROC
    curve) is faster without, as the keys buffer then becomes ``tp`` in place.

    ``rates``: for distinct unweighted scores of both classes (and without
    ``keep_keys``), form the ROC and P-R rates in the pass that sums tp
    (:func:`_rated_distinct_table`; the table's ``curves``).
    """
    if sample_weight is None:
        checked = checked_keys(y_true, y_score, positive)
        if checked is not None:  # the common case, checked and encoded in one pass
            return table_from_keys(*checked, nonnegative=True, keep_keys=keep_keys, rates=rates)
    is_pos, s, w, sign = checked_inputs(y_true, y_score, sample_weight, positive)
    n = s.size
    if w is not None:
        neg = ~is_pos
        vp, cp = _class_blocks_weighted(np.compress(is_pos, s), np.compress(is_pos, w))
        vn, cn = _class_blocks_weighted(np.compress(neg, s), np.compress(neg, w))
        return table_from_ascending(*_merge_blocks(vp, cp, vn, cn), n), None
    if sign == 0:
        return _table_by_class(s, is_pos), None
    buf = encoded_keys(s, is_pos, nonnegative=sign > 0)
    return table_from_keys(buf, int(np.count_nonzero(is_pos)), nonnegative=sign > 0, keep_keys=keep_keys,
                            rates=rates)


def _runs(sorted_values: np.ndarray):
    """Distinct values of a sorted array and where each run ends (exclusive)."""
    if sorted_values.size == 0:
        return sorted_values, np.zeros(0, dtype=np.int64)
    change = np.flatnonzero(sorted_values[1:] != sorted_values[:-1])
    ends = np.empty(change.size + 1, dtype=np.int64)
    ends[:-1] = change + 1
    ends[-1] = sorted_values.size
    return sorted_values[ends - 1], ends


def _class_blocks(sorted_values: np.ndarray):
    """Distinct values (ascending) of a sorted run and how many times each occurs."""
    values, ends = _runs(sorted_values)
    return values, np.diff(ends, prepend=0)


def _class_blocks_weighted(values: np.ndarray, weights: np.ndarray):
    order = np.argsort(values)
    v = values[order]
    w = weights[order]
    distinct, ends = _runs(v)
    if distinct.size == 0:
        return distinct, np.zeros(0)
    sums = np.add.reduceat(w, np.concatenate(([0], ends[:-1])))
    return distinct, sums


def _merge_blocks(vp, cp, vn, cn):
    """Merge two classes' (distinct value, weight) runs into one descending table."""
    kp = vp.size
    both = np.concatenate((vp, vn))
    order = np.argsort(both, kind="stable")  # timsort: one linear merge of two runs
    merged = both[order]
    from_pos = order < kp
    pos_w = np.zeros(merged.size, dtype=np.result_type(cp.dtype, cn.dtype))
    neg_w = np.zeros_like(pos_w)
    pos_idx = np.flatnonzero(from_pos)
    neg_idx = np.flatnonzero(~from_pos)
    pos_w[pos_idx] = cp  # stable: positives appear in their own ascending order
    neg_w[neg_idx] = cn
    # A value present in both classes appears twice in a row: fold the pair.
    distinct, ends = _runs(merged)
    if distinct.size != merged.size:
        starts = np.concatenate(([0], ends[:-1]))
        pos_w = np.add.reduceat(pos_w, starts)
        neg_w = np.add.reduceat(neg_w, starts)
    return distinct, pos_w, neg_w


def _table_by_class(s: np.ndarray, is_pos: np.ndarray) -> CountTable:
    """Count table of unweighted scores of any signs: gather, sort and merge each class."""
    n = s.size
    n_pos = int(np.count_nonzero(is_pos))
    # Both classes' scores side by side in one buffer, each run sorted in place.
    buf = np.empty(n, dtype=np.float64)
    np.compress(is_pos, s, out=buf[:n_pos])
    np.compress(~is_pos, s, out=buf[n_pos:])
    parallel.sort_parts(buf, [0, n_pos, n])
    if not (_has_ties(buf[:n_pos]) or _has_ties(buf[n_pos:])):
        # Continuous scores: merge the two runs (NumPy's timsort does a stable
        # argsort of two sorted runs as one linear merge), read the thresholds
        # in descending order and count. Buffers are released as soon as they
        # are used so that the peak stays near three arrays of n.
        desc = np.argsort(buf, kind="stable")[::-1]
        threshold = buf[desc]
        if not _has_ties(threshold):
            from_pos = desc < n_pos
            del buf, desc
            tp = np.empty(n + 1, dtype=np.int64)
            tp[0] = 0
            np.cumsum(from_pos, out=tp[1:])
            del from_pos
            fp = np.arange(n + 1, dtype=np.int64)
            fp -= tp
            return CountTable(threshold=threshold, tp=tp, fp=fp, n_rows=n)
        del desc, threshold  # a positive and a negative share a score: fold below
    vp, cp = _class_blocks(buf[:n_pos])
    vn, cn = _class_blocks(buf[n_pos:])
    return table_from_ascending(*_merge_blocks(vp, cp, vn, cn), n)


def _has_ties(sorted_values: np.ndarray) -> bool:
    return sorted_values.size > 1 and bool(np.any(sorted_values[1:] == sorted_values[:-1]))


def count_table_from_aggregates(score, positives, negatives, *, n_rows=None) -> CountTable:
    """Build the table from per-score aggregates (one row per distinct score).

    This is the entry point for engines that aggregate where the data lives
    (a ``GROUP BY score`` in DuckDB or Spark): they return, for each distinct
    score, the weight of positives and of negatives, in any order.

    Parameters
    ----------
    score : array-like of shape (k,)
        The distinct scores (finite), in any order; a score given twice is summed.
    positives, negatives : array-like of shape (k,)
        The count (ints) or total weight (floats) of each class at each score.
    n_rows : int, optional
        The rows aggregated (default: the counts' sum).

    Returns
    -------
    CountTable

    Examples
    --------
    >>> table = count_table_from_aggregates([0.1, 0.9, 0.5], positives=[0, 3, 1], negatives=[3, 0, 1])
    >>> table.threshold.tolist(), table.tp.tolist(), table.fp.tolist(), table.n_rows
    ([0.9, 0.5, 0.1], [0, 3, 4, 4], [0, 0, 1, 4], 8)
    """
    score = np.asarray(score, dtype=np.float64)
    pos = np.asarray(positives)
    neg = np.asarray(negatives)
    if not (score.shape == pos.shape == neg.shape) or score.ndim != 1:
        raise ValueError("score, positives and negatives must be 1-D arrays of one length")
    if not np.isfinite(score).all():
        raise ValueError(f"score has a non-finite value at index {first_index(~np.isfinite(score))}")
    integral = pos.dtype.kind in "iub" and neg.dtype.kind in "iub"
    dtype = np.int64 if integral else np.float64
    pos = pos.astype(dtype)
    neg = neg.astype(dtype)
    if (pos < 0).any() or (neg < 0).any():
        raise ValueError("aggregated counts must be non-negative")
    order = np.argsort(score, kind="stable")
    values, ends = _runs(score[order])
    starts = np.concatenate(([0], ends[:-1])) if values.size else ends
    pos_w = np.add.reduceat(pos[order], starts) if values.size else pos[:0]
    neg_w = np.add.reduceat(neg[order], starts) if values.size else neg[:0]
    if n_rows is None:
        n_rows = int(round(float(pos.sum() + neg.sum())))
    return table_from_ascending(values, pos_w, neg_w, int(n_rows))
