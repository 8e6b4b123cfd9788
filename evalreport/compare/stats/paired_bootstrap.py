"""The paired bootstrap of the difference of one measure between two learners
scored on the same rows, and the tests read off it.

Both learners are measured on the same resampled rows (the seeded, stratified
draws of :func:`.bootstrap.resampled_values` depend on the labels and the seed
alone), so the difference a* - b* of each resample keeps the correlation of two
learners judged on the same instances: its spread is that of the difference,
not of two independent measures.

With d* the differences over the B resamples where both values are defined:

* the interval is the percentile interval of d* at ``level``: its
  (1 - level)/2 and (1 + level)/2 quantiles, linear interpolation (as the
  learners' own intervals, :func:`.bootstrap.percentile_intervals`);
* the two-sided p-value of "no difference" is
  ``p = min(1, 2 (min(#{d* <= 0}, #{d* >= 0}) + 1) / (B + 1))``: twice the
  smaller share of the resamples on either side of 0, each count and B one
  higher, as a Monte Carlo p-value is (Davison & Hinkley 1997, eq. 4.11;
  Phipson & Smyth 2010, "Permutation p-values should never be zero"; SciPy's
  ``permutation_test`` for random resamples). With B resamples it is never
  below 2 / (B + 1): a p-value of 0 from B draws would claim a certainty the
  draws cannot give, and Holm's adjustment of it would stay 0 however many
  pairs were tested;
* the one-sided p-value of non-inferiority within ``margin`` (H0: a is worse
  than b by at least ``margin`` in the measure's better direction) is the share
  of the resamples in H0, the same way: ``(#{g* <= -margin} + 1) / (B + 1)``
  with g* = d* where higher is better and g* = -d* where lower is.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...metrics.levels import check_level

__all__ = ["PairedDifference", "paired_difference", "two_sided_p", "non_inferiority_p", "PairedResamples"]


@dataclass(frozen=True, eq=False)
class PairedResamples:
    """The values of measures in each paired resample of one data set's learners
    (the same rows for every learner): ``values[measure][learner key]``, an array
    of ``n_resamples`` floats, NaN where undefined. ``notes[measure]``: why a
    learner has no values of a measure (learner key -> reason)."""

    n_resamples: int
    seed: int
    values: dict
    notes: dict


@dataclass(frozen=True)
class PairedDifference:
    """a - b of one measure, its paired-bootstrap interval and two-sided p-value;
    None with ``note`` saying why where undefined."""

    difference: float | None  # on the data (not the resamples' mean)
    interval: tuple[float, float] | None  # percentile interval of the resampled differences
    p_value: float | None  # two-sided, "no difference"
    level: float
    resamples: int  # the resamples where both values are defined
    note: str | None = None


def _differences(a_values, b_values) -> np.ndarray:
    a, b = np.asarray(a_values, dtype=np.float64), np.asarray(b_values, dtype=np.float64)
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(f"the resampled values must be two arrays of one length (got {a.shape}, {b.shape})")
    d = a - b
    return d[~np.isnan(d)]


def _monte_carlo_p(count: int, resamples: int) -> float:
    """(count + 1) / (B + 1): the share of B resamples, never 0 (module docstring)."""
    return (count + 1) / (resamples + 1)


def two_sided_p(d: np.ndarray) -> float | None:
    """min(1, 2 (min(#{d <= 0}, #{d >= 0}) + 1) / (B + 1)); None for no resample."""
    if d.size == 0:
        return None
    return float(min(1.0, 2.0 * _monte_carlo_p(min(np.count_nonzero(d <= 0), np.count_nonzero(d >= 0)), d.size)))


def paired_difference(a_point, b_point, a_values, b_values, *, level: float = 0.95) -> PairedDifference:
    """The difference ``a_point - b_point`` (the measures on the data), with the
    percentile interval at ``level`` and the two-sided p-value of the resampled
    differences ``a_values - b_values`` (NaN: undefined in that resample, left out)."""
    level = check_level(level)
    d = _differences(a_values, b_values)
    point = None if a_point is None or b_point is None else float(a_point) - float(b_point)
    if d.size == 0:
        return PairedDifference(point, None, None, level, 0,
                                "no resample where both learners' values are defined")
    lo, hi = np.quantile(d, [(1.0 - level) / 2.0, (1.0 + level) / 2.0])
    note = None if point is not None else "the measure is undefined on the data for one of the two learners"
    return PairedDifference(point, (float(lo), float(hi)), two_sided_p(d), level, int(d.size), note)


def non_inferiority_p(a_values, b_values, *, margin: float, higher: bool) -> float | None:
    """One-sided p-value of H0 "a is worse than b by at least ``margin``": the share
    of resamples with (a* - b*) <= -margin (higher is better) or (a* - b*) >= margin
    (lower is better), counted as a Monte Carlo p-value ((count + 1) / (B + 1));
    None for no resample."""
    d = _differences(a_values, b_values)
    if d.size == 0:
        return None
    gain = d if higher else -d
    return float(_monte_carlo_p(int(np.count_nonzero(gain <= -float(margin))), d.size))
