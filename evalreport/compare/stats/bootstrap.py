"""Seeded, stratified percentile bootstrap of any measure the engine computes
(BEP, AP, expected total cost, AUC, F1 at a threshold).

The scores are sorted once; each resample is a count table built from how often
each distinct score is drawn per class, evaluated by the engine without a sort
(:func:`_resampled_evaluations`).
"""

from __future__ import annotations

from typing import Callable, Mapping, NamedTuple

import numpy as np

from ...metrics.binary import BinaryEvaluation, evaluate_counts
from ...metrics.table import CountTable
from .core import _as_bool, _as_scores, _check_level

__all__ = ["BootstrapInterval", "Statistic", "auc_score", "average_precision_score", "bep_score",
           "bootstrap_intervals", "expected_total_cost", "f1_at"]


Statistic = Callable[[BinaryEvaluation], "float | None"]


def bep_score(ev: BinaryEvaluation) -> float | None:
    """Break-even point of an evaluation (a bootstrap statistic)."""
    return ev.bep


def average_precision_score(ev: BinaryEvaluation) -> float | None:
    """Average precision of an evaluation (a bootstrap statistic)."""
    return ev.average_precision


def expected_total_cost(ev: BinaryEvaluation) -> float | None:
    """Area under the cost curve of an evaluation (a bootstrap statistic)."""
    return ev.expected_total_cost


def auc_score(ev: BinaryEvaluation) -> float | None:
    """AUC of an evaluation (a bootstrap statistic)."""
    return ev.auc


def f1_at(threshold: float) -> Statistic:
    """A bootstrap statistic: F1 of "positive iff score >= threshold".

    >>> from evalreport.metrics import evaluate_binary
    >>> f1_at(0.5)(evaluate_binary([0, 1, 1, 0], [0.2, 0.9, 0.4, 0.7]))
    0.5
    """
    threshold = float(threshold)

    def f1(ev: BinaryEvaluation) -> float | None:
        return ev.at_threshold(threshold).f1

    f1.__name__ = f"f1_at_{threshold:g}"
    return f1


class BootstrapInterval(NamedTuple):
    """A percentile interval; (None, None) when no resample defined the statistic."""

    low: float | None
    high: float | None


def _table_from_block_counts(thr_desc, pos, neg, n_rows) -> CountTable:
    """The count table of a resample, from its counts per distinct score."""
    keep = (pos + neg) > 0  # a score not drawn is not a threshold
    p = pos[keep]
    q = neg[keep]
    tp = np.zeros(p.size + 1, dtype=np.int64)
    fp = np.zeros(p.size + 1, dtype=np.int64)
    np.cumsum(p, out=tp[1:])
    np.cumsum(q, out=fp[1:])
    return CountTable(threshold=thr_desc[keep], tp=tp, fp=fp, n_rows=int(n_rows))


def _block_counts(blocks: np.ndarray, draws: np.ndarray, n_blocks: int) -> np.ndarray:
    """Per resample (row of ``draws``), how many draws fall in each score block."""
    rows = draws.shape[0]
    flat = blocks[draws]
    flat += (np.arange(rows, dtype=np.int64) * n_blocks)[:, None]
    return np.bincount(flat.ravel(), minlength=rows * n_blocks).reshape(rows, n_blocks)


def _resampled_evaluations(y, s, n_resamples, rng, stratified):
    """Yield (positive draws, negative draws, evaluation) for each resample.

    The scores are sorted once: every instance gets the index of its distinct
    score (a block), and a resample is just the number of times each block is
    drawn per class, turned into a count table and evaluated by the engine
    without another sort. Draws are indices into the positives and the
    negatives (stratified), or into all instances (then "positive draws"
    holds all draws and "negative draws" is None).
    """
    n = y.size
    thr, inverse = np.unique(s, return_inverse=True)  # ascending
    K = thr.size
    block = (K - 1) - inverse.astype(np.int64)  # index in descending order
    thr_desc = thr[::-1].copy()
    pos_idx = np.flatnonzero(y)
    neg_idx = np.flatnonzero(~y)
    m, nn = pos_idx.size, neg_idx.size
    pos_blocks = block[pos_idx]
    neg_blocks = block[neg_idx]
    # chunks of resamples, so that the draws and per-block counts stay small
    chunk = max(1, min(n_resamples, 4_000_000 // max(n, K, 1)))
    done = 0
    while done < n_resamples:
        c = min(chunk, n_resamples - done)
        if stratified:
            # one class only (a degenerate but legitimate input): that class is
            # the one stratum, and the measures that need the other are None
            dp = rng.integers(0, m, size=(c, m)) if m else np.empty((c, 0), dtype=np.int64)
            dn = rng.integers(0, nn, size=(c, nn)) if nn else np.empty((c, 0), dtype=np.int64)
            cp = _block_counts(pos_blocks, dp, K)
            cn = _block_counts(neg_blocks, dn, K)
        else:
            dp = rng.integers(0, n, size=(c, n))
            dn = None
            drawn_pos = y[dp]
            flat = block[dp] + (np.arange(c, dtype=np.int64) * K)[:, None]
            cp = np.bincount(flat[drawn_pos], minlength=c * K).reshape(c, K)
            cn = np.bincount(flat[~drawn_pos], minlength=c * K).reshape(c, K)
        for r in range(c):
            table = _table_from_block_counts(thr_desc, cp[r], cn[r], n)
            yield dp[r], (None if dn is None else dn[r]), evaluate_counts(table)
        done += c


def bootstrap_intervals(
    y_true_bool,
    scores,
    *,
    statistics: Mapping[str, Statistic],
    n_resamples: int = 2000,
    seed: int = 0,
    level: float = 0.95,
    stratified: bool = True,
) -> dict[str, BootstrapInterval]:
    """Seeded percentile-bootstrap intervals of measures computed by the engine.

    Parameters
    ----------
    y_true_bool : array-like of shape (N,)
        True where the instance is positive.
    scores : array-like of shape (N,)
        Finite scores, higher = more positive.
    statistics : mapping of name -> callable
        Each takes the engine's :class:`~evalreport.metrics.BinaryEvaluation`
        of a resample (what ``evaluate_binary`` returns) and gives a float or
        None when undefined. Ready ones: :func:`bep_score`,
        :func:`average_precision_score`, :func:`expected_total_cost`,
        :func:`auc_score`, and ``f1_at(threshold)``.
    n_resamples : int, default 2000
    seed : int, default 0
        Seeds ``numpy.random.Generator(PCG64(seed))``: the same inputs and seed
        give the same intervals.
    level : float, default 0.95
        The interval is the (1-level)/2 and (1+level)/2 quantiles (linear
        interpolation) of the resampled values.
    stratified : bool, default True
        Resample the positives and the negatives separately, keeping both
        class sizes (pROC's ``boot.stratified``; with one class only, that
        class is resampled and the measures that need both are undefined in
        every resample, so their intervals are ``(None, None)``); otherwise resample all
        instances together (a resample may then lack a class, and measures
        that need it are undefined there).

    Returns
    -------
    dict of name -> BootstrapInterval
        ``(low, high)``, computed over the resamples where the statistic is
        defined; ``(None, None)`` when it never is.

    Notes
    -----
    Cost: the scores are sorted once; each resample then costs O(N) to draw
    (vectorised over chunks of resamples) plus one engine evaluation of its
    count table, O(K) for K distinct scores, without a sort. In all about
    O(B (N + K)) for B resamples: about 2 ms per resample of 10^4 scores
    (4 s for 2,000) and 25 ms per resample of 10^5; keep B * N in mind for
    large data sets.

    Examples
    --------
    >>> y = [0, 0, 1, 0, 1, 1, 0, 1, 1, 0]
    >>> s = [.1, .4, .35, .2, .8, .9, .5, .7, .6, .3]
    >>> ci = bootstrap_intervals(y, s, statistics={"bep": bep_score}, n_resamples=200, seed=1)
    >>> ci["bep"].low <= 0.8 <= ci["bep"].high
    True
    """
    level = _check_level(level)
    y = _as_bool(y_true_bool)
    s = _as_scores(scores, y.size, "scores")
    if y.size == 0:
        raise ValueError("y_true_bool and scores are empty")
    n_resamples = int(n_resamples)
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be >= 1, got {n_resamples}")
    if not statistics:
        raise ValueError("statistics is empty: name at least one measure to bootstrap")
    names = list(statistics)
    values = np.full((len(names), n_resamples), np.nan)
    rng = np.random.Generator(np.random.PCG64(seed))
    resamples = _resampled_evaluations(y, s, n_resamples, rng, stratified)
    for b, (_, _, ev) in enumerate(resamples):
        for i, name in enumerate(names):
            v = statistics[name](ev)
            if v is not None:
                values[i, b] = v
    return percentile_intervals(names, values, level)


def percentile_intervals(names, values: np.ndarray, level: float) -> dict[str, BootstrapInterval]:
    """Each name's (1-level)/2 and (1+level)/2 quantiles (linear interpolation) of its
    row of resampled values, NaN (undefined) left out; (None, None) if all are."""
    lo_q, hi_q = (1.0 - level) / 2.0, (1.0 + level) / 2.0
    out: dict[str, BootstrapInterval] = {}
    for i, name in enumerate(names):
        row = values[i][~np.isnan(values[i])]
        if row.size == 0:
            out[name] = BootstrapInterval(None, None)
        else:
            lo, hi = np.quantile(row, [lo_q, hi_q])
            out[name] = BootstrapInterval(float(lo), float(hi))
    return out
