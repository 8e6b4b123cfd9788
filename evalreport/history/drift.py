"""Drift of a learner's scores between two runs, from results.json's score summaries.

The population stability index over the previous run's deciles and the two-sample
Kolmogorov-Smirnov distance, computed from each class's summary ("values": the
distinct scores and their weights, exact; "quantiles": 1,001 inverted-CDF
quantiles, within 1/1000), never from per-row data.
"""

from __future__ import annotations

import numpy as np

from ..errors import DataError

__all__ = ["CONVENTIONS", "PSI_BINS", "PSI_FLOOR", "drift_label", "drift_method", "ks_distance", "psi"]

#: PSI bins: the previous run's deciles.
PSI_BINS = 10

#: A bin's share below this is taken as this in the PSI (an empty bin would make
#: ln(actual / expected) infinite); 1e-4 is the usual choice.
PSI_FLOOR = 1e-4

#: PSI below 0.1: no significant shift; 0.1 to 0.25: moderate; above 0.25: major.
#: Industry conventions (credit scoring), not a test: the report states them as such.
CONVENTIONS = {"psi": (0.1, 0.25)}


def drift_label(psi_value: float | None) -> str:
    """The PSI's conventional reading (:data:`CONVENTIONS`).

    Parameters
    ----------
    psi_value : float or None

    Returns
    -------
    str
        "no significant shift" below 0.1, "moderate shift" up to 0.25, "major
        shift" above, "undefined" for None.

    Examples
    --------
    >>> drift_label(0.02), drift_label(0.1), drift_label(0.3), drift_label(None)
    ('no significant shift', 'moderate shift', 'major shift', 'undefined')
    """
    if psi_value is None:
        return "undefined"
    low, high = CONVENTIONS["psi"]
    if psi_value < low:
        return "no significant shift"
    if psi_value <= high:
        return "moderate shift"
    return "major shift"


def drift_method(exact: bool, what: str) -> str:
    """The drift row's ``method``: the PSI's bins (of ``what``) and how exact the KS is."""
    return (f"PSI {what}over the previous run's deciles ({PSI_BINS} bins, shares floored at {PSI_FLOOR:g}); "
            + ("KS exact from the score values" if exact
               else "from 1,001 score quantiles: KS within 0.001, the bins' shares within 0.001"))


class _Distribution:
    """A score distribution's CDF from results.json's score summaries: the
    distinct points where it jumps and F at each (right-continuous steps).

    From "values" (distinct scores and their weights) F is exact; from
    "quantiles" (inverted-CDF quantiles q_k at p_k = k / 1000) F(x) is taken as
    the largest p_k with q_k <= x, which is within [F(x) - 0.001, F(x)]: for
    q_k <= x < q_{k+1}, p_k <= F(x) < p_{k+1}.
    """

    def __init__(self, points, cdf, weight, exact):
        self.points, self.cdf, self.weight, self.exact = points, cdf, weight, exact

    @classmethod
    def from_summary(cls, s: dict) -> _Distribution:
        kind = s.get("kind")
        if kind == "values":
            x = np.asarray(s["values"], dtype=float)
            w = np.asarray(s["weights"], dtype=float)
            total = float(w.sum())
            if x.size != w.size:
                raise DataError(f"score_summary: {x.size} values but {w.size} weights")
            order = np.argsort(x, kind="stable")  # ascending already; sorting costs nothing
            x, w = x[order], w[order]
            cdf = np.cumsum(w) / total if total > 0 else np.zeros_like(w)
            return cls(x, np.minimum(cdf, 1.0), total, True)
        if kind == "quantiles":
            q = np.asarray(s["values"], dtype=float)
            p = np.asarray(s["probabilities"], dtype=float)
            if q.size != p.size:
                raise DataError(f"score_summary: {q.size} quantiles but {p.size} probabilities")
            points, last = np.unique(q[::-1], return_index=True)  # the last index of each value
            cdf = p[q.size - 1 - last]
            return cls(points, cdf, float(s.get("weight") or 0.0), False)
        raise DataError(f"score_summary: kind must be 'values' or 'quantiles', got {kind!r}")

    def at(self, x) -> np.ndarray:
        """F(x) = P(score <= x) at each of ``x``."""
        i = np.searchsorted(self.points, np.asarray(x, dtype=float), side="right") - 1
        return np.where(i >= 0, self.cdf[np.maximum(i, 0)], 0.0)


class _Mixture:
    """Several classes' distributions pooled, each by its total weight."""

    def __init__(self, parts):
        self.parts = [d for d in parts if d.weight > 0 and d.points.size]
        self.weight = sum(d.weight for d in self.parts)
        self.exact = all(d.exact for d in self.parts)
        pts = [d.points for d in self.parts]
        self.points = np.unique(np.concatenate(pts)) if pts else np.empty(0)

    def at(self, x) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        if not self.parts:
            return np.zeros_like(x)
        return sum(d.weight * d.at(x) for d in self.parts) / self.weight

    def quantile(self, p: float) -> float:
        """The inverted-CDF quantile: the smallest point where F >= p."""
        cdf = self.at(self.points)
        i = int(np.searchsorted(cdf, p - 1e-12, side="left"))  # 1e-12: F summed in floats
        return float(self.points[min(i, self.points.size - 1)])


def as_distribution(d):
    if isinstance(d, _Mixture):
        return d
    if isinstance(d, dict) and "kind" in d:  # one class: a mixture of one
        return _Mixture([_Distribution.from_summary(d)])
    if isinstance(d, dict):  # {"positive": S, "negative": S}: both classes pooled
        return _Mixture([_Distribution.from_summary(s) for s in d.values() if s is not None])
    raise TypeError(f"a score summary must be a dict, got {type(d).__name__}")


def ks_distance(previous, current) -> float | None:
    """The two-sample Kolmogorov-Smirnov distance sup |F1(x) - F2(x)| of two
    score distributions given by results.json's score summaries.

    Parameters
    ----------
    previous, current : dict
        A class's summary ({"kind": "values", ...} or {"kind": "quantiles", ...})
        or a learner's ``score_summary`` ({"positive": S, "negative": S}: the
        classes pooled, each by its weight).

    Returns
    -------
    float or None
        In [0, 1]. From "values" summaries (1,000 distinct scores or fewer) it
        equals ``scipy.stats.ks_2samp(a, b).statistic`` on the raw scores; from
        "quantiles" it is within 0.001. None when a distribution is empty.

    Examples
    --------
    >>> a = {"kind": "values", "values": [0.1, 0.2, 0.3], "weights": [1, 1, 1]}
    >>> b = {"kind": "values", "values": [0.2, 0.3, 0.4], "weights": [1, 1, 1]}
    >>> round(ks_distance(a, b), 4)
    0.3333
    """
    f, g = as_distribution(previous), as_distribution(current)
    if f.weight <= 0 or g.weight <= 0 or not f.points.size or not g.points.size:
        return None
    # both CDFs are steps that jump only at their points: the supremum is at one of them
    x = np.union1d(f.points, g.points)
    return float(np.max(np.abs(f.at(x) - g.at(x))))


def psi(previous, current, *, bins: int = PSI_BINS, floor: float = PSI_FLOOR) -> dict:
    """The population stability index of the scores over the previous run's quantiles.

    The bins' edges are the previous run's deciles (``bins`` = 10: the
    inverted-CDF quantiles at 0.1, ..., 0.9; tied deciles merge, leaving fewer
    bins); bin i is (edge_{i-1}, edge_i], the first and last open. ``expected``
    is a bin's share of the previous run's scores, ``actual`` of the current
    run's; a share below ``floor`` is taken as ``floor`` (an empty bin would
    make the logarithm infinite), then PSI = sum (actual - expected) *
    ln(actual / expected). Every term is >= 0, so PSI >= 0; it is 0 for
    identical distributions.

    Parameters
    ----------
    previous, current : dict
        Score summaries, as for :func:`ks_distance`.
    bins : int, default 10
    floor : float, default 1e-4

    Returns
    -------
    dict
        ``psi`` (float or None where a distribution is empty), ``bins``: one
        {"lo", "hi", "expected", "actual"} per bin (``lo`` None for the first,
        ``hi`` None for the last: unbounded; shares before flooring), and
        ``note`` (None, or why PSI is undefined or has fewer bins).

    Examples
    --------
    >>> a = {"kind": "values", "values": list(range(10)), "weights": [1] * 10}
    >>> b = {"kind": "values", "values": list(range(10)), "weights": [2] + [1] * 9}
    >>> r = psi(a, b)
    >>> len(r["bins"]), r["bins"][0], round(r["psi"], 4)
    (10, {'lo': None, 'hi': 0.0, 'expected': 0.1, 'actual': 0.18181818181818182}, 0.0567)
    """
    f, g = as_distribution(previous), as_distribution(current)
    if f.weight <= 0 or not f.points.size:
        return {"psi": None, "bins": None, "note": "the previous run has no scores"}
    if g.weight <= 0 or not g.points.size:
        return {"psi": None, "bins": None, "note": "the current run has no scores"}
    edges = sorted({f.quantile(k / bins) for k in range(1, bins)})
    cuts = np.asarray(edges, dtype=float)
    fe = np.concatenate([[0.0], f.at(cuts), [1.0]])
    ge = np.concatenate([[0.0], g.at(cuts), [1.0]])
    expected, actual = np.diff(fe), np.diff(ge)
    e, a = np.maximum(expected, floor), np.maximum(actual, floor)
    value = float(np.sum((a - e) * np.log(a / e)))
    lo = [None, *edges]
    hi = [*edges, None]
    out_bins = [{"lo": lo[i], "hi": hi[i], "expected": max(float(expected[i]), 0.0),
                 "actual": max(float(actual[i]), 0.0)} for i in range(len(expected))]
    note = None
    if len(out_bins) < bins:
        note = (f"the previous run's scores are tied at some deciles: {len(out_bins)} bins "
                f"instead of {bins}")
    return {"psi": max(value, 0.0), "bins": out_bins, "note": note}
