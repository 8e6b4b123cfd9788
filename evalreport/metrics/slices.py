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
  (as compare.stats.bootstrap_confusion does for a multi-class matrix);
- Wilson's interval of each proportion of a value's confusion matrix (accuracy,
  precision, recall, ...), the intervals printed beside the slices' measures.

A value with fewer than ``confidence.slices_min`` positive rows or negative rows
is *too small to compare*: it is left out of the parity differences (and their
bootstrap) and of the gates on the slice, and listed as such. Rows are counted,
not weights: whether a rate can be told from another depends on how many
instances it rests on, and a weight's scale (weights summing to 1, or to the
population) would otherwise decide it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..compare.stats.bootstrap import percentile_intervals
from .levels import check_level
from .proportion import PROPORTIONS, proportion_intervals, wilson_interval

__all__ = ["PARITY", "RATES", "PROPORTIONS", "SliceValue", "SliceColumn", "Parity", "wilson_interval",
           "cell_counts", "rates_of", "parity_of", "bootstrap_parity", "is_small", "small_slice_notes",
           "too_small_text", "proportion_intervals"]

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
    #: values left out because they are too small to compare (is_small)
    too_small: tuple[str, ...] = ()


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
    small: bool  # too small to compare (is_small): left out of the parity differences and gates
    #: registry name -> (low, high) at the column's level, or None: Wilson's interval of
    #: each proportion (PROPORTIONS), DeLong's of the AUC; {} for weighted data
    intervals: dict = field(default_factory=dict)


@dataclass(frozen=True, eq=False)
class SliceColumn:
    """A slice column of one learner: its values (sorted) and the parity differences."""

    column: str
    values: list[SliceValue]
    parity: dict[str, Parity]
    level: float
    resamples: int  # bootstrap resamples of the parity intervals (0: none)
    notes: tuple[str, ...] = field(default=())
    slices_min: int = 1  # confidence.slices_min: the fewest positives and negatives a value needs

    @property
    def too_small(self) -> tuple[str, ...]:
        """The values too small to compare, in the column's order."""
        return tuple(v.value for v in self.values if v.small)


def is_small(positives: int, negatives: int, slices_min: int) -> bool:
    """Whether a slice value is too small to compare: fewer than ``slices_min``
    positive rows or negative rows (rows, whatever their weights)."""
    return positives < slices_min or negatives < slices_min


def too_small_text(value: str, rows: int, positives: int) -> str:
    """How the report and the gates name a value too small to compare:
    "40-49 (n = 27, 5 positives)"."""
    return f"{value} (n = {rows:,}, {positives:,} positive{'' if positives == 1 else 's'})"


def small_slice_notes(display: str, slices: dict, is_pos: np.ndarray, slices_min: int) -> list[str]:
    """A note per slice column naming its values too small to compare (said once per
    data entry: every learner of it has the same subgroups)."""
    from .groups import group_codes

    out = []
    for column, raw in slices.items():
        names, codes = group_codes(raw)
        rows = np.bincount(codes, minlength=len(names))
        pos = np.bincount(codes, weights=np.asarray(is_pos, float), minlength=len(names)).astype(int)
        small = [f"'{name}' ({n:,} instances, {p:,} positives, {n - p:,} negatives)"
                 for name, n, p in zip(names, rows.tolist(), pos.tolist()) if is_small(p, n - p, slices_min)]
        if small:
            out.append(f"{display}: slice {column}: too small to compare (fewer than {slices_min} positives or "
                       f"fewer than {slices_min} negatives, confidence.slices_min): {', '.join(small)}; left out "
                       "of the parity differences and the gates on the slice, their measures shown, marked "
                       "too small")
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
        # initial: no value kept at all (every one too small) is a difference undefined, not an error
        hi = np.where(defined, rate, -np.inf).max(axis=-1, initial=-np.inf)
        lo = np.where(defined, rate, np.inf).min(axis=-1, initial=np.inf)
    return np.where(enough, hi - lo, np.nan)


def _differences(rates: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    return {name: np.max([_spread(rates[r]) for r in used], axis=0) if len(used) > 1
            else _spread(rates[used[0]]) for name, used in PARITY.items()}


def parity_of(counts: np.ndarray, names: list[str], keep=None) -> dict[str, Parity]:
    """The parity differences across the values (rows of ``counts``: TP, FP, TN, FN;
    ``names`` their texts), with no interval. Only the values where ``keep`` is True
    count (None: all); the others are listed in ``too_small``. A value whose rate is
    undefined is left out of that difference; fewer than two values left: undefined.

    >>> p = parity_of(np.array([[8, 2, 8, 2], [5, 5, 5, 5]]), ["a", "b"])
    >>> round(p["equal_opportunity_difference"].value, 3), p["equal_opportunity_difference"].between
    (0.3, ('a', 'b'))
    >>> parity_of(np.array([[8, 2, 8, 2], [5, 5, 5, 5], [1, 0, 2, 0]]), ["a", "b", "c"],
    ...           keep=[True, True, False])["equal_opportunity_difference"].too_small
    ('c',)
    """
    keep = np.ones(len(names), bool) if keep is None else np.asarray(keep, bool)
    too_small = tuple(n for n, k in zip(names, keep) if not k)
    names = [n for n, k in zip(names, keep) if k]
    rates = rates_of(np.asarray(counts, float)[keep])
    diffs = _differences(rates)
    out = {}
    for name, used in PARITY.items():
        value = float(diffs[name])
        if np.isnan(value):
            out[name] = Parity(None, None, None, _left_out(rates, used, names), too_small)
            continue
        # the rate that gives the difference (equalized odds: the larger spread; TPR on a tie)
        rate = max(used, key=lambda r: (float(_spread(rates[r])), r == "tpr"))
        r = rates[rate]
        hi, lo = int(np.nanargmax(r)), int(np.nanargmin(r))
        out[name] = Parity(value, None, (names[hi], names[lo]), _left_out(rates, used, names), too_small)
    return out


def _left_out(rates, used, names) -> tuple[str, ...]:
    return tuple(n for i, n in enumerate(names) if any(np.isnan(rates[r][i]) for r in used))


def bootstrap_parity(counts: np.ndarray, *, n_resamples: int, seed: int, level: float, keep=None
                     ) -> dict[str, tuple[float | None, float | None]]:
    """Percentile intervals of the parity differences over resamples stratified within
    each (value, class) cell of ``counts`` (unweighted TP, FP, TN, FN per value): a
    resample of a cell's instances draws its predicted positives from Binomial(cell
    size, the cell's predicted-positive share), so a resample costs one draw per cell.
    Only the values where ``keep`` is True are resampled (those :func:`parity_of`
    counts). (None, None) where the difference is undefined in every resample."""
    level = check_level(level)
    counts = np.asarray(counts, dtype=float)
    if keep is not None:
        counts = counts[np.asarray(keep, bool)]
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
