"""Seeded, stratified percentile bootstrap of any measure the engine computes
(BEP, AP, expected total cost, AUC, F1 at a threshold).

The scores are sorted once; each resample is the cumulative count of how often
each distinct score is drawn per class (:func:`_resampled_chunks`). The ready
statistics are computed from those counts for many resamples at once, with the
engine's arithmetic (the same floats as its evaluation of each resample's count
table: tests/test_bootstrap_vectorised.py); any other statistic reads the
engine's evaluation of each resample (:func:`resampled_evaluations`).
"""

from __future__ import annotations

import functools
from typing import Callable, Mapping, NamedTuple

import numpy as np

from ...metrics.binary import BinaryEvaluation, evaluate_counts
from ...counting.table import CountTable
from .bootstrap_values import (auc_values, average_precision_values, bep_values, expected_total_cost_values,
                               f1_values, row_at, etc_finish, etc_part)
from ...metrics.levels import check_level
from .core import as_bool_labels, as_scores

__all__ = ["BootstrapInterval", "Statistic", "auc_score", "average_precision_score", "bep_score",
           "bootstrap_intervals", "expected_total_cost", "f1_at", "percentile_intervals", "population_at",
           "resampled_values", "resampled_values_many"]


Statistic = Callable[[BinaryEvaluation], "float | None"]


def _vectorised(compute):
    """Mark ``compute(chunk) -> values`` (NaN where undefined) as the vectorised form
    of the statistic it decorates: the same floats as the statistic of each
    resample's evaluation (tests/test_bootstrap_vectorised.py checks them)."""
    def mark(statistic):
        statistic._vectorised = compute
        return statistic
    return mark



@_vectorised(lambda chunk: bep_values(chunk))
def bep_score(ev: BinaryEvaluation) -> float | None:
    """Break-even point of an evaluation (a bootstrap statistic)."""
    return ev.bep


@_vectorised(lambda chunk: average_precision_values(chunk))
def average_precision_score(ev: BinaryEvaluation) -> float | None:
    """Average precision of an evaluation (a bootstrap statistic)."""
    return ev.average_precision


@_vectorised(lambda chunk: expected_total_cost_values(chunk))
def expected_total_cost(ev: BinaryEvaluation) -> float | None:
    """Area under the cost curve of an evaluation (a bootstrap statistic)."""
    return ev.expected_total_cost


# (gathered over the chunks of one draw, then computed at once: resampled_values_many)
expected_total_cost._gathered = (etc_part, etc_finish)


@_vectorised(lambda chunk: auc_values(chunk))
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
    f1._vectorised = f1_values(threshold)
    f1._gathered = f1_values(threshold, gathered=True)
    return f1


def population_at(threshold: float, measure: str, p_positive: float, c_fn: float = 1.0,
                  c_fp: float = 1.0) -> Statistic:
    """A bootstrap statistic: ``measure`` (one of metrics.population.MEASURES) of
    "positive iff score >= threshold" in a population with a share ``p_positive``
    of positives: a function of the resample's TPR and FPR at the threshold, which
    the stratified bootstrap draws per class (metrics.population).

    >>> from evalreport.metrics import evaluate_binary
    >>> round(population_at(0.5, "precision", 0.1)(evaluate_binary([0, 1, 1, 0], [0.2, 0.9, 0.4, 0.7])), 4)
    0.1
    """
    from ...metrics.population import population_arrays

    threshold = float(threshold)

    def rates(tp, fp, pos, neg):
        with np.errstate(invalid="ignore", divide="ignore"):
            tpr = np.where(pos > 0, tp / np.maximum(pos, 1), np.nan)
            fpr = np.where(neg > 0, fp / np.maximum(neg, 1), np.nan)
        return population_arrays(tpr, fpr, p_positive, c_fn, c_fp)[measure]

    def statistic(ev: BinaryEvaluation) -> float | None:
        at = ev.at_threshold(threshold)
        v = float(rates(np.array([at.tp]), np.array([at.fp]), np.array([at.tp + at.fn]),
                        np.array([at.fp + at.tn]))[0])
        return None if np.isnan(v) else v

    def compute(chunk: _Chunk) -> np.ndarray:
        j = row_at(chunk, threshold)
        return rates(chunk.tp[:, j], chunk.fp[:, j], chunk.pos, chunk.neg)

    statistic.__name__ = f"population_{measure}_at_{threshold:g}"
    statistic._vectorised = compute
    return statistic


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


def _draw(rng, high: int, shape) -> np.ndarray:
    """``rng.integers(0, high, shape)``: the very draws of the default int64, taken as
    int32 where they fit (NumPy draws a range under 2**32 from the same 32-bit
    stream either way; half the memory and a third of the time)."""
    if high == 0:
        return np.empty(shape, dtype=np.int64)
    if high < 2**31:
        return rng.integers(0, high, size=shape, dtype=np.int32)
    return rng.integers(0, high, size=shape)


class _Chunk:
    """A chunk of resamples as cumulative counts over all the distinct scores
    (descending), whether drawn or not: ``tp``, ``fp`` of shape (c, K + 1),
    column 0 zero. A score not drawn in a resample repeats the column before it,
    which changes none of the measures below (the engine's table of that
    resample is these columns with the repeats left out: :meth:`table`).

    ``counts`` (2, c, K + 1) holds the draws per block, positives then negatives,
    laid out as the columns of ``tp``, ``fp`` (block k is column k + 1; column 0
    is zero): one cumulative sum makes both, and a flat index of one is a flat
    index of the others. What several statistics read is made once, on first use
    (the blocks drawn, the rows of the tables, the hull rows' counts), and what is
    the same in every chunk of a learner once per learner (``memo``)."""

    def __init__(self, counts, layout, draws_pos, draws_neg, both=None):
        c = counts.shape[1]
        cum = np.cumsum(counts, axis=2)
        self.tp, self.fp = cum[0], cum[1]
        self.counts = counts
        self.cp, self.cn = counts[0, :, 1:], counts[1, :, 1:]
        self.pos = self.tp[:, -1]
        self.neg = self.fp[:, -1]
        self.thr_desc = layout.thr_desc
        self.n_rows = layout.n
        # the rows (1..K) of the scores some positive has; the same with the ends
        # (rows 0 and K): the only rows that can be vertices of an ROC hull
        self.positive_rows, self.hull_rows, self.negative_runs = layout.positive_rows
        self.memo = layout.memo
        self.size = c
        # every resample has both classes (a stratified draw of both: no denominator
        # is then 0, and the statistics skip their checks); and no product of two
        # class counts (at most n^2 / 4) nears 2^53: int64 products and their float
        # conversions are exact (each resample draws n instances)
        self.both = both if both is not None else bool(self.pos.min() > 0 and self.neg.min() > 0)
        self.small = layout.small
        self.draws_pos, self.draws_neg = draws_pos, draws_neg
        self._evaluations: dict[int, BinaryEvaluation] = {}
        self._drawn = self._at_hull = self._drawn_rows = self._classes = None
        self._columns: dict = {}

    @property
    def drawn(self) -> np.ndarray:
        """Per resample, how many instances of each block were drawn (cp + cn), laid
        out as ``tp``'s columns (column 0 zero)."""
        if self._drawn is None:
            self._drawn = np.add(self.counts[0], self.counts[1])
        return self._drawn

    def drawn_rows(self) -> tuple:
        """The rows of every resample's count table (the blocks drawn: :meth:`table`),
        one resample after the other: their flat indices into ``tp``, ``fp``; where
        each resample's run of them starts and ends; and TP, TP + FP there (int64)."""
        if self._drawn_rows is None:
            drawn = np.not_equal(self.drawn, 0)  # (column 0: never)
            at = np.flatnonzero(drawn)
            width = self.tp.shape[1]
            ends = np.searchsorted(at, np.arange(1, self.size + 1) * width)
            starts = np.concatenate(([0], ends[:-1]))
            tp = np.take(self.tp, at)
            tpfp = np.take(self.fp, at)
            tpfp += tp
            self._drawn_rows = (at, starts, ends, tp, tpfp)
        return self._drawn_rows

    def classes(self) -> tuple[np.ndarray, np.ndarray]:
        """(positives, negatives) of every resample, copies (kept past the chunk by the
        statistics gathered over several chunks: resampled_values_many)."""
        if self._classes is None:
            self._classes = (self.pos.copy(), self.neg.copy())
        return self._classes

    def at_column(self, j: int) -> tuple:
        """(TP, FP, positives, negatives) of every resample at column ``j``, copies."""
        if j not in self._columns:
            self._columns[j] = (self.tp[:, j].copy(), self.fp[:, j].copy(), *self.classes())
        return self._columns[j]

    def at_hull(self) -> tuple[np.ndarray, np.ndarray]:
        """(TP, FP) at :attr:`hull_rows` (the least cost's, KS's and the hull's rows)."""
        if self._at_hull is None:
            self._at_hull = (np.take(self.tp, self.hull_rows, axis=1), np.take(self.fp, self.hull_rows, axis=1))
        return self._at_hull

    def table(self, r: int) -> CountTable:
        return _table_from_block_counts(self.thr_desc, self.cp[r], self.cn[r], self.n_rows)

    def evaluation(self, r: int) -> BinaryEvaluation:
        """The engine's evaluation of resample ``r`` (for a statistic without a
        vectorised form; shared by all such statistics)."""
        if r not in self._evaluations:
            self._evaluations[r] = evaluate_counts(self.table(r))
        return self._evaluations[r]


def _per_resample(statistic: Statistic, chunk: _Chunk) -> np.ndarray:
    out = np.full(chunk.size, np.nan)
    for r in range(chunk.size):
        v = statistic(chunk.evaluation(r))
        if v is not None:
            out[r] = v
    return out


#: resamples x distinct scores counted and measured at a time (512 KiB an int64 array:
#: each statistic's passes over a chunk's counts then run in the core's cache; a
#: quarter of issue 38's 2 MiB, which left them to the shared cache, took about a
#: fifth longer in all for 10^4 rows, bench/README.md; fewer resamples a chunk pay
#: more in calls than they save)
_PART = 1 << 16
#: the most resamples a gathered statistic (the expected total cost) is computed for at once
_GATHER = 128


def _resampled_chunks(y, s, n_resamples, rng, stratified):
    """Yield the resamples in chunks (:class:`_Chunk`).

    The scores are sorted once: every instance gets the index of its distinct
    score (a block), and a resample is just the number of times each block is
    drawn per class. Draws are indices into the positives and the negatives
    (stratified), or into all instances (then "positive draws" holds all draws
    and "negative draws" is None); they are drawn chunk by chunk, positives
    then negatives, so the chunk size fixes the random stream: keep it.
    """
    layout = _Layout(y, s)
    for dp, dn in _draws(y, n_resamples, rng, stratified):
        yield from layout.chunks(dp, dn)


def _draws(y, n_resamples, rng, stratified):
    """Yield each chunk's draws (positives', negatives'): a function of the labels,
    ``n_resamples`` and the generator alone, never of the scores, so one stream
    serves every learner scored on these rows (:func:`resampled_values_many`)."""
    n = y.size
    m = int(np.count_nonzero(y))
    nn = n - m
    # chunks of resamples, so that the draws and per-block counts stay small (the
    # distinct scores K are at most n: max(n, K) is n, whatever the scores)
    chunk = max(1, min(n_resamples, 4_000_000 // max(n, 1)))
    done = 0
    while done < n_resamples:
        c = min(chunk, n_resamples - done)
        if stratified:
            # one class only (a degenerate but legitimate input): that class is
            # the one stratum, and the measures that need the other are None
            dp = _draw(rng, m, (c, m))
            dn = _draw(rng, nn, (c, nn))
        else:
            dp = _draw(rng, n, (c, n))
            dn = None
        yield dp, dn
        done += c


class _Layout:
    """One learner's scores sorted once: each instance's block (the index of its
    distinct score, descending), per class; :meth:`chunks` counts a chunk of draws."""

    def __init__(self, y, s):
        thr, inverse = np.unique(s, return_inverse=True)  # ascending
        self.K = K = thr.size
        self.y, self.n = y, y.size
        self.block = (K - 1) - inverse.astype(np.int64)  # index in descending order
        self.thr_desc = thr[::-1].copy()
        self.pos_blocks = self.block[np.flatnonzero(y)]
        self.neg_blocks = self.block[np.flatnonzero(~y)]
        #: what the statistics compute once per learner (their weights of the scores)
        self.memo: dict = {}
        # (each instance's column of _Chunk.counts: its block's, plus one)
        self.bins_pos, self.bins_neg = self.pos_blocks + 1, self.neg_blocks + 1
        self.small = 2 * self.n * self.n <= 2**53  # (_Chunk.small)
        # The rows that can be a vertex of a resample's ROC hull, or hold its least
        # cost or its KS: the ends, and the last row of each run of blocks with
        # positives before a block with negatives (issue 38; about half the rows
        # with positives). In every resample, a row after a block without positives
        # has the TP of the row before it and no fewer FP; a row whose next block
        # has no negatives has the FP of the next row and no more TP: either lies
        # on or under the chain's segment through a row kept, so it is no strict
        # vertex, and its cost is no lower (its TPR - FPR no higher), in floats too
        # (each operation rounds monotonically).
        has_pos = np.zeros(K + 1, dtype=bool)
        has_pos[self.pos_blocks] = True
        has_neg = np.zeros(K + 1, dtype=bool)
        has_neg[self.neg_blocks] = True
        rows = np.flatnonzero(has_pos[:K]) + 1  # (np.unique's, without its import of numpy.ma)
        has_neg[K] = True  # (the last block's row is an end)
        ends = np.flatnonzero(has_pos[:K] & has_neg[1:]) + 1
        # The AUC's runs: each maximal run of blocks with negatives and no positives,
        # and each block with both, as (the row before it, its last row)
        neg_only = has_neg[:K] & ~has_pos[:K]
        mixed = np.flatnonzero(has_neg[:K] & has_pos[:K])
        edges = np.diff(np.concatenate(([False], neg_only, [False])).astype(np.int8))
        run_start, run_end = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
        order = np.argsort(np.concatenate((run_start, mixed)), kind="stable")
        runs = (np.concatenate((run_start, mixed))[order], np.concatenate((run_end, mixed + 1))[order])
        hull = np.concatenate(([0], ends if ends.size and ends[-1] == K else np.append(ends, K)))
        self.positive_rows = (rows, hull, runs)

    def chunks(self, dp, dn):
        K = self.K
        c = dp.shape[0]
        part = max(1, _PART // (K + 1))
        # counted and measured a few resamples at a time: arrays that stay in the cache
        for lo in range(0, c, part):
            hi = min(c, lo + part)
            rows = hi - lo
            # one bincount for both classes: block k of resample r is bin r (K + 1) + k + 1
            # of the positives, the same past rows (K + 1) for the negatives (_Chunk.counts)
            offset = (np.arange(rows, dtype=np.int64) * (K + 1))[:, None]
            if dn is not None:
                m = dp.shape[1]
                flat = np.empty(rows * (m + dn.shape[1]), dtype=np.int64)
                at_pos, at_neg = flat[:rows * m].reshape(rows, m), flat[rows * m:].reshape(rows, dn.shape[1])
                # (the draws are in range: "wrap" takes them as they are, into ``out``
                # unbuffered, and checks less than "clip")
                np.take(self.bins_pos, dp[lo:hi], out=at_pos, mode="wrap")
                np.take(self.bins_neg, dn[lo:hi], out=at_neg, mode="wrap")
                at_pos += offset
                offset += rows * (K + 1)
                at_neg += offset
            else:
                flat = np.take(self.block, dp[lo:hi])
                flat += offset
                flat += np.take(~self.y, dp[lo:hi]) * (rows * (K + 1)) + 1
            counts = np.bincount(flat.ravel(), minlength=2 * rows * (K + 1)).reshape(2, rows, K + 1)
            # (a stratified draw of both classes has both in every resample)
            both = True if dn is not None and dp.shape[1] and dn.shape[1] else None
            yield _Chunk(counts, self, dp[lo:hi], None if dn is None else dn[lo:hi], both)


def resampled_evaluations(y, s, n_resamples, rng, stratified):
    """Yield (positive draws, negative draws, evaluation) for each resample: the
    engine's evaluation of each resample's count table (see :func:`_resampled_chunks`)."""
    for chunk in _resampled_chunks(y, s, n_resamples, rng, stratified):
        for r in range(chunk.size):
            yield (chunk.draws_pos[r], None if chunk.draws_neg is None else chunk.draws_neg[r],
                   chunk.evaluation(r))


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
    and O(K) to count, for K distinct scores, and the ready statistics take a
    few passes over the counts, for many resamples at once (a statistic of
    your own costs one engine evaluation of each resample). In all about
    O(B (N + K)) for B resamples: about 0.2 ms per resample of 10^4 scores
    for the nine statistics of a default report's learner (0.4 s for 2,000 on a
    busy 2-core EPYC; bench/README.md, "bench/api.py"); keep B * N in mind for
    large data sets.

    Examples
    --------
    >>> y = [0, 0, 1, 0, 1, 1, 0, 1, 1, 0]
    >>> s = [.1, .4, .35, .2, .8, .9, .5, .7, .6, .3]
    >>> ci = bootstrap_intervals(y, s, statistics={"bep": bep_score}, n_resamples=200, seed=1)
    >>> ci["bep"].low <= 0.8 <= ci["bep"].high
    True
    """
    level = check_level(level)
    y = as_bool_labels(y_true_bool)
    s = as_scores(scores, y.size, "scores")
    if y.size == 0:
        raise ValueError("y_true_bool and scores are empty")
    n_resamples = int(n_resamples)
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be >= 1, got {n_resamples}")
    if not statistics:
        raise ValueError("statistics is empty: name at least one measure to bootstrap")
    names = list(statistics)
    values = resampled_values(y, s, statistics=statistics, n_resamples=n_resamples, seed=seed,
                              stratified=stratified)
    return percentile_intervals(names, np.array([values[name] for name in names]), level)


def resampled_values(y_true_bool, scores, *, statistics: Mapping[str, Statistic], n_resamples: int = 2000,
                     seed: int = 0, stratified: bool = True) -> dict[str, np.ndarray]:
    """Each statistic's value in each resample (NaN where undefined): what
    :func:`bootstrap_intervals` takes its quantiles of.

    The resamples are draws of rows: the positions of the positives and of the
    negatives (stratified) drawn from ``numpy.random.Generator(PCG64(seed))``, a
    chunk of resamples at a time, the positives' then the negatives' draws, the
    chunk's size a function of the number of rows alone. So the draws depend on
    the labels, ``n_resamples`` and the seed, never on the scores: two learners
    scored on the same rows (in the same order) and resampled with the same seed
    are measured on the same resampled rows, which makes the difference of their
    values a paired bootstrap (compare.stats.paired_bootstrap)."""
    y = as_bool_labels(y_true_bool)
    s = as_scores(scores, y.size, "scores")
    return resampled_values_many(y, {None: (s, statistics)}, n_resamples=n_resamples, seed=seed,
                                 stratified=stratified)[None]


def resampled_values_many(y_true_bool, learners: Mapping, *, n_resamples: int = 2000, seed: int = 0,
                          stratified: bool = True) -> dict:
    """:func:`resampled_values` of several learners scored on the same rows:
    ``learners`` maps a key to (scores, statistics); returns key -> {name: values}.
    The draws are made once per chunk for all of them: the same draws, so the same
    values, as each learner's own call (the stream depends on the labels alone)."""
    y = as_bool_labels(y_true_bool)
    jobs = [(key, _Layout(y, as_scores(s, y.size, "scores")), list(st), st) for key, (s, st) in learners.items()]
    values = {key: np.full((len(names), n_resamples), np.nan) for key, _, names, _ in jobs}
    rng = np.random.Generator(np.random.PCG64(seed))
    done = 0
    for dp, dn in _draws(y, n_resamples, rng, stratified):
        for key, layout, names, statistics in jobs:
            at = done
            # a statistic whose vectorised rounds cost as much for a few resamples as
            # for many (the hull's) keeps what it needs of each chunk, and is computed
            # once for the whole draw
            gathered = {i: [] for i, name in enumerate(names) if hasattr(statistics[name], "_gathered")}
            # (each statistic's step, looked up once: a chunk holds a few resamples)
            steps = [(i, None, gathered[i].append, statistics[name]._gathered[0]) if i in gathered else
                     (i, values[key][i], None, getattr(statistics[name], "_vectorised", None)
                      or functools.partial(_per_resample, statistics[name])) for i, name in enumerate(names)]
            since = at
            for chunk in layout.chunks(dp, dn):
                for i, row, keep, compute in steps:
                    if row is None:
                        keep(compute(chunk))
                    else:
                        row[at:at + chunk.size] = compute(chunk)
                at += chunk.size
                if at - since >= _GATHER or at == done + dp.shape[0]:
                    for i, parts in gathered.items():
                        values[key][i, since:at] = statistics[names[i]]._gathered[1](parts)
                        parts.clear()
                    since = at
        done += dp.shape[0]
    return {key: {name: values[key][i] for i, name in enumerate(names)} for key, _, names, _ in jobs}


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
