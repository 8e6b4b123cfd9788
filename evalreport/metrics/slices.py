"""Subgroup slices: the pure arithmetic.

A slice column (region, sex, age band) splits one population into subgroups;
each learner is measured on each subgroup alone (evalreport.tasks.slices builds
those measures through the engine and the registry). What is here needs only
each value's counts at the learner's threshold:

- the rates fairness toolkits compare: the selection rate (TP + FP) / m, the
  true positive rate TP / (TP + FN) and the false positive rate FP / (FP + TN),
  each with a Wilson score interval;
- the parity differences across the values of one column, as fairlearn defines
  them: demographic parity (max - min selection rate), equal opportunity
  (max - min TPR), equalized odds (the larger of the TPR and the FPR
  differences);
- their percentile-bootstrap intervals over resamples stratified within each
  (slice value, class) cell: resampling the instances of a cell with replacement
  draws its predicted positives from a binomial law with the cell's own share,
  so each resample is one binomial draw per cell, whatever the number of rows
  (as compare.stats.bootstrap_confusion does for a multi-class matrix).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..compare.stats.bootstrap import percentile_intervals
from ..compare.stats.core import _check_level
from .proportion import wilson_interval

__all__ = ["PARITY", "RATES", "SMALL_ROWS", "SMALL_CLASS", "SliceValue", "SliceColumn", "Parity",
           "wilson_interval", "cell_counts", "rates_of", "parity_of", "bootstrap_parity", "is_small",
           "small_slice_notes"]

#: a slice value with fewer instances than this, or fewer than SMALL_CLASS of either
#: class, is too small to say anything: it is marked and warned about (its measures
#: are still computed: the reader judges them against its size)
SMALL_ROWS = 30
SMALL_CLASS = 5

#: the rates compared across the values of a slice column
RATES = ("selection_rate", "tpr", "fpr")
#: parity difference -> the rates whose spread (max - min over the values) it takes
PARITY = {
    "demographic_parity_difference": ("selection_rate",),
    "equal_opportunity_difference": ("tpr",),
    "equalized_odds_difference": ("tpr", "fpr"),
}


@dataclass(frozen=True)
class Parity:
    """One parity difference across the values of a slice column."""

    value: float | None  # None: fewer than two values have the rate(s) defined
    interval: tuple[float | None, float | None] | None  # percentile bootstrap; None: not computed
    #: the values with the largest and the smallest rate (of the rate that gives the difference)
    between: tuple[str, str] | None
    #: values left out because their rate is undefined (no positives for TPR, ...)
    left_out: tuple[str, ...] = ()


@dataclass(frozen=True, eq=False)
class SliceValue:
    """One value of a slice column: the learner measured on that subgroup alone."""

    value: str  # the value as text (results.json's key)
    rows: int  # instances (rows), whatever their weights
    positive_rows: int
    negative_rows: int
    learner: Any  # result.LearnerResult of the subgroup, its registry values read
    gaps: dict  # registry name -> slice value - whole population (None: either undefined)
    #: rate -> (value, (low, high) Wilson interval or None, gap to the whole population's rate)
    rates: dict
    small: bool


@dataclass(frozen=True, eq=False)
class SliceColumn:
    """A slice column of one learner: its values (sorted) and the parity differences."""

    column: str
    values: list[SliceValue]
    parity: dict[str, Parity]
    level: float
    resamples: int  # bootstrap resamples of the parity intervals (0: none)
    notes: tuple[str, ...] = field(default=())


def is_small(rows: int, positives: int, negatives: int) -> bool:
    return rows < SMALL_ROWS or positives < SMALL_CLASS or negatives < SMALL_CLASS


def small_slice_notes(display: str, slices: dict, is_pos: np.ndarray) -> list[str]:
    """A note per slice value too small to say anything (said once per data entry:
    every learner of it has the same subgroups)."""
    from .groups import group_codes

    out = []
    for column, raw in slices.items():
        names, codes = group_codes(raw)
        rows = np.bincount(codes, minlength=len(names))
        pos = np.bincount(codes, weights=np.asarray(is_pos, float), minlength=len(names))
        for name, n, p in zip(names, rows.tolist(), pos.astype(int).tolist()):
            if is_small(n, p, n - p):
                out.append(f"{display}: slice {column} = '{name}' has {n:,} instances ({p:,} positives, "
                           f"{n - p:,} negatives): too small to say anything (fewer than {SMALL_ROWS} "
                           f"instances or fewer than {SMALL_CLASS} of a class); its measures are shown, "
                           "marked small")
    return out


def cell_counts(is_pos: np.ndarray, predicted: np.ndarray, codes: np.ndarray, n_values: int,
                weights=None) -> np.ndarray:
    """Per value: (TP, FP, TN, FN), weighted when ``weights`` is given; shape (n_values, 4).

    >>> cell_counts(np.array([1, 1, 0, 0], bool), np.array([1, 0, 1, 0], bool),
    ...             np.array([0, 0, 1, 1]), 2).tolist()
    [[1.0, 0.0, 0.0, 1.0], [0.0, 1.0, 1.0, 0.0]]
    """
    w = np.ones(codes.size) if weights is None else np.asarray(weights, float)
    cell = 2 * (~is_pos).astype(np.int64) + (~predicted).astype(np.int64)  # TP 0, FN 1, FP 2, TN 3
    counts = np.bincount(codes * 4 + cell, weights=w, minlength=4 * n_values).reshape(n_values, 4)
    return counts[:, [0, 2, 3, 1]]


def rates_of(counts: np.ndarray) -> dict[str, np.ndarray]:
    """Selection rate, TPR and FPR of each row (TP, FP, TN, FN) of ``counts``
    (any leading shape), NaN where undefined (no instances, positives, negatives)."""
    tp, fp, tn, fn = (counts[..., i].astype(float) for i in range(4))
    with np.errstate(invalid="ignore", divide="ignore"):
        m = tp + fp + tn + fn
        return {"selection_rate": np.where(m > 0, (tp + fp) / m, np.nan),
                "tpr": np.where(tp + fn > 0, tp / (tp + fn), np.nan),
                "fpr": np.where(fp + tn > 0, fp / (fp + tn), np.nan)}


def _spread(rate: np.ndarray) -> np.ndarray:
    """max - min over the last axis, NaN (undefined rates) left out; NaN under two defined."""
    defined = ~np.isnan(rate)
    enough = defined.sum(axis=-1) >= 2
    with np.errstate(invalid="ignore"):
        hi = np.where(defined, rate, -np.inf).max(axis=-1)
        lo = np.where(defined, rate, np.inf).min(axis=-1)
    return np.where(enough, hi - lo, np.nan)


def _differences(rates: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    return {name: np.max([_spread(rates[r]) for r in used], axis=0) if len(used) > 1
            else _spread(rates[used[0]]) for name, used in PARITY.items()}


def parity_of(counts: np.ndarray, names: list[str]) -> dict[str, Parity]:
    """The parity differences across the values (rows of ``counts``: TP, FP, TN, FN;
    ``names`` their texts), with no interval. A value whose rate is undefined is left
    out of that difference; fewer than two values left: undefined.

    >>> p = parity_of(np.array([[8, 2, 8, 2], [5, 5, 5, 5]]), ["a", "b"])
    >>> round(p["equal_opportunity_difference"].value, 3), p["equal_opportunity_difference"].between
    (0.3, ('a', 'b'))
    """
    rates = rates_of(np.asarray(counts, float))
    diffs = _differences(rates)
    out = {}
    for name, used in PARITY.items():
        value = float(diffs[name])
        if np.isnan(value):
            out[name] = Parity(None, None, None, _left_out(rates, used, names))
            continue
        # the rate that gives the difference (equalized odds: the larger spread; TPR on a tie)
        rate = max(used, key=lambda r: (float(_spread(rates[r])), r == "tpr"))
        r = rates[rate]
        hi, lo = int(np.nanargmax(r)), int(np.nanargmin(r))
        out[name] = Parity(value, None, (names[hi], names[lo]), _left_out(rates, used, names))
    return out


def _left_out(rates, used, names) -> tuple[str, ...]:
    return tuple(n for i, n in enumerate(names) if any(np.isnan(rates[r][i]) for r in used))


def bootstrap_parity(counts: np.ndarray, *, n_resamples: int, seed: int, level: float
                     ) -> dict[str, tuple[float | None, float | None]]:
    """Percentile intervals of the parity differences over resamples stratified within
    each (value, class) cell of ``counts`` (unweighted TP, FP, TN, FN per value): a
    resample of a cell's instances draws its predicted positives from Binomial(cell
    size, the cell's predicted-positive share), so a resample costs one draw per cell.
    (None, None) where the difference is undefined in every resample."""
    level = _check_level(level)
    counts = np.asarray(counts, dtype=float)
    whole = np.rint(counts).astype(np.int64)
    if not np.array_equal(whole, counts) or (whole < 0).any():
        raise ValueError("the counts must be unweighted")
    tp, fp, tn, fn = whole.T
    pos, neg = tp + fn, fp + tn
    rng = np.random.Generator(np.random.PCG64(seed))
    with np.errstate(invalid="ignore", divide="ignore"):
        p_pos = np.where(pos > 0, tp / np.maximum(pos, 1), 0.0)
        p_neg = np.where(neg > 0, fp / np.maximum(neg, 1), 0.0)
    tp_b = rng.binomial(pos, p_pos, size=(n_resamples, pos.size))
    fp_b = rng.binomial(neg, p_neg, size=(n_resamples, neg.size))
    draws = np.stack([tp_b, fp_b, neg - fp_b, pos - tp_b], axis=-1)  # (B, values, 4)
    diffs = _differences(rates_of(draws))
    names = list(PARITY)
    found = percentile_intervals(names, np.array([diffs[n] for n in names]), level)
    return {n: (found[n].low, found[n].high) for n in names}
