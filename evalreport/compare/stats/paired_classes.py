"""The paired, stratified bootstrap of a multi-class data set's learners: every
learner measured on the same resampled rows, so that the difference of two
learners' measures keeps their correlation (the multi-class side of
:mod:`.paired_bootstrap`, whose interval and p-value read these values).

Each resample draws, for each true class, as many of that class's rows as it has,
with replacement (stratified, as the learners' own intervals); the rows drawn are
the same for every learner. A learner's measures of a resample are those of its
decisions (the class of highest score, the first on ties, as the evaluation) on
the rows drawn, defined as the engine's:

* ``accuracy``, ``error_rate``: the share of right (wrong) decisions;
* ``macro_f1`` (Zhou's: 2PR/(P+R) of the macro precision and recall) and
  ``mean_f1`` (the mean of the classes' F1), an undefined class counted as 0;
* ``cost_sensitive_error``: sum(M_ij f_i C_ij) / sum(M_ij f_i), M the resample's
  confusion matrix, C the cost matrix and f_i the weight that makes class i's
  share the prior's (1 without priors: each class keeps its count in every
  resample, so the weights are those of the data);
* ``macro_auc``: the mean of the classes' one-vs-rest AUCs (ties count 1/2).

NaN where a value is undefined in a resample.
"""

from __future__ import annotations

from typing import Iterator, Mapping, Sequence

import numpy as np

from .bootstrap_confusion import accuracy_of, macro_f1_of
from .paired_bootstrap import PairedResamples

__all__ = ["MEASURES", "draw_rows", "values_on_rows", "paired_class_resamples"]

#: the measures this module resamples
MEASURES = ("accuracy", "error_rate", "macro_f1", "mean_f1", "cost_sensitive_error", "macro_auc")

#: rows x resamples drawn at a time (an int64 array of about 32 MiB)
_CELLS = 1 << 22


def draw_rows(labels: np.ndarray, k: int, n_resamples: int, rng: np.random.Generator) -> Iterator[np.ndarray]:
    """Yield (c, n) arrays of row indices, c resamples at a time: in each resample,
    the rows of class 0 drawn with replacement from class 0's rows, then class 1's,
    and so on (the chunk size fixes the random stream: keep it)."""
    n = labels.size
    members = [np.flatnonzero(labels == i) for i in range(k)]
    chunk = max(1, min(n_resamples, _CELLS // max(n, 1)))
    done = 0
    while done < n_resamples:
        c = min(chunk, n_resamples - done)
        parts = [m[rng.integers(0, m.size, size=(c, m.size))] for m in members if m.size]
        yield np.concatenate(parts, axis=1) if parts else np.empty((c, 0), dtype=np.int64)
        done += c


def _confusions(labels: np.ndarray, decided: np.ndarray, rows: np.ndarray, k: int) -> np.ndarray:
    """(c, k, k) confusion matrices (rows the true class) of the resamples ``rows``."""
    c = rows.shape[0]
    cell = labels[rows] * k + decided[rows] + (np.arange(c, dtype=np.int64) * k * k)[:, None]
    return np.bincount(cell.ravel(), minlength=c * k * k).reshape(c, k, k)


def _mean_f1(draws: np.ndarray) -> np.ndarray:
    tp = np.diagonal(draws, axis1=1, axis2=2).astype(float)
    denominator = draws.sum(axis=1) + draws.sum(axis=2)  # 2TP + FP + FN
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.nan_to_num(np.where(denominator > 0, 2 * tp / denominator, np.nan)).mean(axis=1)


def _cost(draws: np.ndarray, cost: np.ndarray, factor: np.ndarray) -> np.ndarray:
    weighted = draws * factor[None, :, None]
    with np.errstate(invalid="ignore", divide="ignore"):
        return (weighted * cost[None]).sum(axis=(1, 2)) / weighted.sum(axis=(1, 2))


def _macro_auc(labels: np.ndarray, scores: np.ndarray, rows: np.ndarray, k: int) -> np.ndarray:
    """The mean one-vs-rest AUC of each resample (NaN when a class has no row, or all)."""
    c, n = rows.shape[0], labels.size
    times = np.bincount((rows + (np.arange(c, dtype=np.int64) * n)[:, None]).ravel(),
                        minlength=c * n).reshape(c, n).astype(float)  # how often each row is drawn
    aucs = np.empty((c, k))
    for j in range(k):
        positive = labels == j
        n_pos, n_neg = int(positive.sum()), int(n - positive.sum())
        if not n_pos or not n_neg:
            aucs[:, j] = np.nan
            continue
        order = np.argsort(scores[:, j], kind="stable")
        s = scores[order, j]
        starts = np.flatnonzero(np.r_[True, s[1:] != s[:-1]])  # the tied scores' groups
        drawn = times[:, order]
        pos = np.add.reduceat(drawn * positive[order], starts, axis=1)
        neg = np.add.reduceat(drawn * ~positive[order], starts, axis=1)
        below = np.cumsum(neg, axis=1) - neg  # negatives with a lower score
        aucs[:, j] = (pos * (below + 0.5 * neg)).sum(axis=1) / (n_pos * n_neg)
    return aucs.mean(axis=1)


def values_on_rows(labels: np.ndarray, decided: np.ndarray, scores: np.ndarray | None, rows: np.ndarray,
                   k: int, measures: Sequence[str], cost=None, factor=None) -> dict:
    """{measure: (c,) values} of one learner on the resamples ``rows`` ((c, n) row
    indices); ``decided`` its decisions (class indices), ``scores`` its (n, k)
    scores (None for hard decisions: no AUC), ``cost`` the k x k matrix and
    ``factor`` each true class's weight (the priors)."""
    draws = _confusions(labels, decided, rows, k)
    out = {}
    for m in measures:
        if m == "accuracy":
            out[m] = accuracy_of(draws)
        elif m == "error_rate":
            out[m] = 1.0 - accuracy_of(draws)
        elif m == "macro_f1":
            out[m] = macro_f1_of(draws)
        elif m == "mean_f1":
            out[m] = _mean_f1(draws)
        elif m == "cost_sensitive_error":
            f = np.ones(k) if factor is None else np.asarray(factor, dtype=float)
            out[m] = _cost(draws, np.asarray(cost, dtype=float), f)
        elif m == "macro_auc" and scores is not None:
            out[m] = _macro_auc(labels, scores, rows, k)
        else:
            raise ValueError(f"{m} is not resampled here (one of {', '.join(MEASURES)})")
    return out


def paired_class_resamples(labels: np.ndarray, k: int, learners: Mapping[str, tuple], measures: Sequence[str],
                           *, n_resamples: int, seed: int, cost=None, factor=None) -> PairedResamples:
    """Each learner's ``measures`` in ``n_resamples`` stratified resamples of the
    rows, the same rows for every learner. ``learners``: {key: (decisions,
    scores or None)}. A learner without scores has no ``macro_auc`` (a note says so)."""
    rng = np.random.Generator(np.random.PCG64(seed))
    values: dict = {m: {key: [] for key in learners} for m in measures}
    notes: dict = {m: {} for m in measures}
    for rows in draw_rows(labels, k, n_resamples, rng):
        for key, (decided, scores) in learners.items():
            wanted = [m for m in measures if m != "macro_auc" or scores is not None]
            for m, v in values_on_rows(labels, decided, scores, rows, k, wanted, cost, factor).items():
                values[m][key].append(v)
    for m in measures:
        for key in list(values[m]):
            if values[m][key]:
                values[m][key] = np.concatenate(values[m][key])
            else:
                del values[m][key]
                notes[m][key] = f"{key} gives hard decisions: it has no scores to rank"
    return PairedResamples(n_resamples=n_resamples, seed=seed, values=values, notes=notes)
