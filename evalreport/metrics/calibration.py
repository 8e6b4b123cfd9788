"""Calibration of scores that are probabilities: the Brier score, log loss, the
expected calibration error (ECE) and the bins of a reliability diagram.

Every function takes the same form of input: scores (any order, repeats allowed)
and, per score, the weight of the positives and of the negatives scoring it. An
instance of weight w and label y is (score, w y, w (1 - y)); a binary count
table gives it per distinct score (:func:`table_outcomes`), so learners
aggregated where the data lives (DuckDB, Spark) get the same numbers as those
read in memory. Multi-class: :func:`multiclass_calibration`.

Conventions (scikit-learn 1.9's, which the tests check against):

- Brier score: the weighted mean of (s - y)^2 (``brier_score_loss``, binary);
  multi-class the weighted mean over instances of sum_k (p_ik - y_ik)^2 (its
  convention for three classes or more: not halved).
- Log loss: the weighted mean of -log(clip(s)) over positives and
  -log(clip(1 - s)) over negatives, clip to [eps, 1 - eps] with eps the float64
  machine epsilon (2.22e-16), as ``log_loss`` clips the column [1 - s, s];
  multi-class -log(clip(p_i,y_i)).
- Bins (``calibration_curve``): edges e_0 < ... < e_B; a score goes to bin
  ``searchsorted(e[1:-1], s, side="left")``, so a score on an inner edge belongs
  to the bin below it: [e_0, e_1], (e_1, e_2], ..., (e_B-1, e_B]. Uniform edges
  are ``linspace(0, 1, B + 1)``. Quantile edges are ``np.percentile(scores,
  linspace(0, 1, B + 1) * 100)`` (linear interpolation) over the instances when
  the weights are instance counts, computed from the counts without expanding
  them; with other weights the weighted inverted-CDF quantile
  (``np.percentile(..., method="inverted_cdf", weights=w)``). Quantile edges
  may coincide (ties): a bin between two equal edges is empty.
- A bin: ``n`` its weight, ``mean_score`` the weighted mean score, ``observed``
  the weighted share of positives, with Wilson's score interval at the given
  level (on the weighted counts; exact for unit weights). An empty bin (n = 0)
  has None for these. calibration_curve leaves empty bins out; here every bin
  is listed.
- ECE = sum over bins of (n_b / n) |observed_b - mean_score_b|.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .proportion import wilson_interval
from .sums import dot
from ..words import general

__all__ = ["EPS", "STRATEGIES", "POOR_ECE", "CalibrationBin", "Calibration", "not_probabilities",
           "brier_score", "log_loss", "bin_edges", "reliability_bins", "expected_calibration_error",
           "wilson_interval", "calibration_of", "table_outcomes", "multiclass_calibration",
           "ROW_SUM_TOLERANCE"]

#: log loss clips the probabilities to [EPS, 1 - EPS] (scikit-learn's, float64)
EPS = float(np.finfo(np.float64).eps)
STRATEGIES = ("uniform", "quantile")
#: the report calls a learner's calibration poor above this ECE (the verdict)
POOR_ECE = 0.05
#: multi-class score rows are probabilities when in [0, 1] and summing to 1 within this
#: (the tolerance the Bayes decision cost takes rows as they are)
ROW_SUM_TOLERANCE = 1e-3


@dataclass(frozen=True)
class CalibrationBin:
    lo: float
    hi: float
    n: float  # the bin's weight (its instances when unweighted)
    mean_score: float | None  # None: empty bin
    observed: float | None  # the weighted share of positives (correct decisions: top-label)
    interval: tuple[float, float] | None  # Wilson's interval of ``observed``


@dataclass(frozen=True, eq=False)
class Calibration:
    """A learner's calibration; all None (``bins`` too) with ``undefined`` saying why."""

    strategy: str
    brier: float | None = None
    log_loss: float | None = None
    ece: float | None = None
    bins: tuple[CalibrationBin, ...] | None = None
    undefined: str = ""
    #: multi-class: the bins and ECE are top-label (confidence = the top score)
    top_label: bool = False


def not_probabilities(scores: np.ndarray) -> str | None:
    """Why ``scores`` are not probabilities (some outside [0, 1]), or None."""
    if scores.size == 0:
        return None
    lo, hi = float(np.min(scores)), float(np.max(scores))
    if lo < 0 or hi > 1 or not (math.isfinite(lo) and math.isfinite(hi)):
        return (f"the scores are not probabilities: they range over [{general(lo)}, {general(hi)}], outside [0, 1] "
                "(margins or logits?)")
    return None


def _floats(*arrays):
    return [np.asarray(a, dtype=np.float64) for a in arrays]


def brier_score(scores, pos, neg) -> float | None:
    """sum(pos (1 - s)^2 + neg s^2) / sum(pos + neg); None when nothing weighs."""
    s, p, q = _floats(scores, pos, neg)
    total = float(p.sum() + q.sum())
    if total <= 0:
        return None
    return (dot(p, (1.0 - s) ** 2) + dot(q, s ** 2)) / total


def log_loss(scores, pos, neg) -> float | None:
    """Weighted mean of -log(clip(s)) (positives) and -log(clip(1 - s)) (negatives),
    clip to [EPS, 1 - EPS]; None when nothing weighs."""
    s, p, q = _floats(scores, pos, neg)
    total = float(p.sum() + q.sum())
    if total <= 0:
        return None
    return -(dot(p, _log_clipped(s.copy())) + dot(q, _log_clipped(1.0 - s))) / total


def _log_clipped(x: np.ndarray) -> np.ndarray:
    """log(clip(x, EPS, 1 - EPS)), in place (np.clip is several times slower)."""
    np.maximum(x, EPS, out=x)
    np.minimum(x, 1.0 - EPS, out=x)
    return np.log(x, out=x)


def _lerp(a: float, b: float, t: float) -> float:
    # numpy's _lerp (np.percentile, method "linear"), so that edges equal its own
    diff = b - a
    return float(b - diff * (1 - t)) if t >= 0.5 else float(a + diff * t)


#: the most bins: each bin estimates a rate, and more bins than this hold too few scores
#: to estimate it (while their edges and counts cost memory: 10**9 bins took it all)
MAX_BINS = 10_000


def bin_edges(scores, weights, bins: int, strategy: str, *, counts: bool) -> np.ndarray:
    """The ``bins + 1`` edges of the bins. ``counts``: the weights are numbers of
    instances (unweighted data), so the quantiles are np.percentile's linear ones
    over the instances; else the weighted inverted-CDF quantiles."""
    if isinstance(bins, bool) or not isinstance(bins, (int, np.integer)) or not 2 <= bins <= MAX_BINS:
        raise ValueError(f"bins must be a whole number from 2 to {MAX_BINS:,}, got {bins!r}")
    if strategy == "uniform":
        return np.linspace(0.0, 1.0, bins + 1)
    if strategy != "quantile":
        raise ValueError(f"strategy must be one of {', '.join(STRATEGIES)}, not {strategy!r}")
    s, w = _floats(scores, weights)
    keep = w > 0
    s, w = s[keep], w[keep]
    order = np.argsort(s, kind="stable")
    s, w = s[order], w[order]
    # q exactly as np.percentile forms it from calibration_curve's percentages
    q = np.true_divide(np.linspace(0, 1, bins + 1) * 100, 100)
    if not counts:
        cdf = np.cumsum(w)
        cdf /= cdf[-1]
        at = np.minimum(np.searchsorted(cdf, q, side="left"), s.size - 1)
        return s[at]
    cum = np.cumsum(w.astype(np.int64))  # instances up to and including each score
    n = int(cum[-1])

    def value(i: int) -> float:  # the i-th smallest instance's score (0-based)
        return float(s[np.searchsorted(cum, i, side="right")])

    out = np.empty(q.size)
    for k, qk in enumerate(q):
        virtual = (n - 1) * qk
        if virtual >= n - 1:
            out[k] = s[-1]
            continue
        prev = math.floor(virtual)
        out[k] = _lerp(value(prev), value(prev + 1), virtual - prev)
    return out


def reliability_bins(scores, pos, neg, edges, level: float, *, descending: bool = False
                     ) -> tuple[CalibrationBin, ...]:
    """Each bin's weight, mean score, observed share of positives and its interval.
    ``descending``: the scores are sorted descending (a count table's), so each bin
    is one run of them, summed (pairwise, by np.add.reduceat) in place of a search
    per score: equal to the searched bins' sums to rounding."""
    s, p, q = _floats(scores, pos, neg)
    edges = np.asarray(edges, dtype=np.float64)
    k = edges.size - 1
    w = p + q
    if descending:
        total, score_sum, positives = _run_sums(s, (w, s * w, p), edges)
    else:
        ids = np.searchsorted(edges[1:-1], s, side="left")
        total = np.bincount(ids, weights=w, minlength=k)
        score_sum = np.bincount(ids, weights=s * w, minlength=k)
        positives = np.bincount(ids, weights=p, minlength=k)
    out = []
    for b in range(k):
        n = float(total[b])
        if n > 0:
            observed = float(positives[b] / n)
            out.append(CalibrationBin(float(edges[b]), float(edges[b + 1]), n, float(score_sum[b] / n),
                                      observed, wilson_interval(float(positives[b]), n, level)))
        else:
            out.append(CalibrationBin(float(edges[b]), float(edges[b + 1]), 0.0, None, None, None))
    return tuple(out)


def _run_sums(s, columns, edges) -> list[np.ndarray]:
    """Per bin, the sum of each column over the scores in it, for scores sorted
    descending: bin b holds edges[b] < s <= edges[b + 1] (the first bin also what
    lies at or below edges[1]), a run of the sorted scores."""
    k = edges.size - 1
    # the run of bin b (counted from the top bin down) starts after the scores above edges[b + 1]
    ascending = s[::-1]
    above = s.size - np.searchsorted(ascending, edges[1:-1], side="right")  # scores > each inner edge
    starts = np.concatenate(([0], above[::-1]))  # top bin first: [0, #>e_{k-1}, ..., #>e_1]
    ends = np.concatenate((starts[1:], [s.size]))
    out = []
    for col in columns:
        sums = np.zeros(k)
        filled = starts < ends
        if filled.any():
            sums_top_first = np.zeros(k)
            sums_top_first[filled] = np.add.reduceat(col, starts[filled])
            sums = sums_top_first[::-1]
        out.append(sums)
    return out


def expected_calibration_error(bins) -> float | None:
    """sum_b (n_b / n) |observed_b - mean_score_b| (None when no bin has weight)."""
    total = sum(b.n for b in bins)
    if total <= 0:
        return None
    return float(sum(b.n * abs(b.observed - b.mean_score) for b in bins if b.n > 0) / total)


def calibration_of(scores, pos, neg, *, bins: int = 10, strategy: str = "uniform", level: float = 0.95,
                   counts: bool = False, descending: bool = False) -> Calibration:
    """Brier score, log loss, ECE and the bins of one binary learner. Scores outside
    [0, 1] (margins, logits) are not probabilities: every value is then undefined,
    with the reason (never computed on them). ``counts``: see :func:`bin_edges`."""
    s, p, q = _floats(scores, pos, neg)
    why = not_probabilities(s[[0, -1]] if descending and s.size else s)  # sorted: its ends
    if why is None and not float(p.sum() + q.sum()) > 0:
        why = "no instance carries weight"
    if why is not None:
        return Calibration(strategy, undefined=why)
    edges = bin_edges(s, p + q, bins, strategy, counts=counts)
    shown = reliability_bins(s, p, q, edges, level, descending=descending)
    return Calibration(strategy, brier_score(s, p, q), log_loss(s, p, q), expected_calibration_error(shown),
                       shown)


def table_outcomes(table):
    """(scores, positives' weight, negatives' weight) per distinct score of a binary
    count table (the differences of its cumulative columns), and whether those
    weights are instance counts. Reads the columns whole: O(rows)."""
    scores = np.asarray(table.threshold, dtype=np.float64)
    pos = np.diff(np.asarray(table.tp, dtype=np.float64))
    if table.unit_steps:  # one unweighted instance a row: a negative wherever not a positive
        return scores, pos, 1.0 - pos, True
    return scores, pos, np.diff(np.asarray(table.fp, dtype=np.float64)), not table.weighted


def multiclass_calibration(labels, scores, weights=None, *, bins: int = 10, strategy: str = "uniform",
                           level: float = 0.95) -> Calibration:
    """Multi-class Brier score and log loss, and top-label calibration: confidence =
    the top score of a row, an outcome positive when the decision (the first class
    of the top score) is right; its ECE and bins. ``labels``: class indices,
    ``scores``: one row per instance, one column per class. The rows must be
    probabilities (in [0, 1], summing to 1 within ROW_SUM_TOLERANCE), else every
    value is undefined with the reason."""
    y = np.asarray(labels, dtype=np.int64)
    P = np.asarray(scores, dtype=np.float64)
    w = np.ones(y.size) if weights is None else np.asarray(weights, dtype=np.float64)
    why = not_probabilities(P.ravel())
    if why is None and P.size:
        sums = P.sum(axis=1)
        worst = int(np.argmax(np.abs(sums - 1.0)))
        if abs(sums[worst] - 1.0) > ROW_SUM_TOLERANCE:
            why = (f"the score rows are not probabilities: row {worst + 1} sums to {general(float(sums[worst]))}, "
                   f"not 1 (within {general(ROW_SUM_TOLERANCE)})")
    if why is None and not float(w.sum()) > 0:
        why = "no instance carries weight"
    if why is not None:
        return Calibration(strategy, undefined=why, top_label=True)
    rows = np.arange(y.size)
    onehot = np.zeros_like(P)
    onehot[rows, y] = 1.0
    total = float(w.sum())
    brier = dot(w, ((P - onehot) ** 2).sum(axis=1)) / total
    loss = dot(w, -np.log(np.clip(P[rows, y], EPS, 1.0 - EPS))) / total
    confidence = P.max(axis=1)
    right = (np.argmax(P, axis=1) == y).astype(np.float64)
    top = calibration_of(confidence, w * right, w * (1.0 - right), bins=bins, strategy=strategy, level=level,
                         counts=weights is None)
    return Calibration(strategy, brier, loss, top.ece, top.bins, top_label=True)
