"""Credit scoring's summaries of a ranking: the Kolmogorov-Smirnov statistic and Gini.

KS is the largest gap between the two classes' score distributions: with
TPR(t) = P(score >= t | +) and FPR(t) = P(score >= t | -), it is the maximum of
TPR - FPR over the ROC curve's vertices (the thresholds), which is scipy's
``ks_2samp(negatives, positives, alternative="greater")`` (max of F_- - F_+,
one-sided: a learner that ranks the positives first has the larger gap that
way). The maximum of a linear function over the ROC points is reached at a
vertex of their convex hull, so the hull's rows are enough (a streamed table
reduced to its hull gives the exact value). Gini is 2 AUC - 1 (the accuracy
ratio of credit scoring).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..counting.table import pair_counts_leave_int64

__all__ = ["KS", "ks_statistic", "ks_of", "gini"]


@dataclass(frozen=True)
class KS:
    """The KS statistic and the threshold where it is reached (the highest such
    threshold on ties; +inf when no threshold beats predicting nothing positive),
    or None with ``why``."""

    value: float | None
    threshold: float | None
    why: str = ""


def ks_statistic(tp, fp, thresholds, positives, negatives) -> KS:
    """max over rows of tp / positives - fp / negatives, and its row's threshold.

    ``tp``, ``fp``: cumulative weights of the positives and negatives scoring at
    least ``thresholds`` (descending; a count table's rows, or some of them: the
    ROC hull's vertices suffice); ``thresholds[0]`` may be +inf (nothing positive).
    Unweighted counts are compared exactly (tp m- - fp m+, in integers), so that a
    tie is a tie and goes to the highest threshold.
    """
    if positives <= 0 or negatives <= 0:
        return KS(None, None, "there are no positives" if positives <= 0 else "there are no negatives")
    tp, fp = np.asarray(tp), np.asarray(fp)
    integer = tp.dtype.kind in "iu" and fp.dtype.kind in "iu"
    if integer and pair_counts_leave_int64(positives, negatives):
        # products past int64: Python ints (the caller passes few rows, the hull's)
        gap = np.array([a * int(negatives) - b * int(positives) for a, b in zip(tp.tolist(), fp.tolist())],
                       dtype=object)
    elif integer:
        gap = tp.astype(np.int64) * np.int64(negatives) - fp.astype(np.int64) * np.int64(positives)
    else:
        gap = tp / float(positives) - fp / float(negatives)
    row = int(np.argmax(gap))  # the first maximum: the highest threshold
    if integer:
        value = float(int(gap[row]) / (int(positives) * int(negatives)))  # correctly rounded
    else:
        value = float(gap[row])
    return KS(value, float(np.asarray(thresholds)[row]))


def gini(auc: float | None) -> float | None:
    """2 AUC - 1 (None when the AUC is undefined)."""
    return None if auc is None else 2.0 * auc - 1.0


def ks_of(ev) -> KS:
    """The KS of a binary evaluation (a :class:`~evalreport.metrics.BinaryEvaluation`,
    whole or reduced), read at its ROC hull's vertices: O(hull) once the count
    table is built."""
    if ev.hull is None:
        return KS(None, None, ev.undefined.get("auc", "one class only"))
    rows = ev.hull.index
    return ks_statistic(ev.counts.tp_at(rows), ev.counts.fp_at(rows), ev.hull.threshold,
                        ev.positives, ev.negatives)
