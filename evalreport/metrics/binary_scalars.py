"""The scalars of a binary evaluation read off a count table: AUC (as twice the
area in count units), average precision and the break-even point, by the
general road (any ties, any weights) or from the rows where the positives
enter (distinct unweighted scores). Used by :mod:`evalreport.metrics.binary`
(and, the pieces, by the streamed roads)."""

from __future__ import annotations

import numpy as np

from .cost import UnitStepCorners
from .sums import dot
from ..counting.table import CountTable, pair_counts_leave_int64
from ..counting.unit_rates import precision_sum as counts_precision_sum


def precision_column(table: CountTable) -> np.ndarray:
    # (tables of distinct unweighted scores with both classes take _unit_step_curves)
    predicted = np.add(table.tp[1:], table.fp[1:])
    return np.divide(table.tp[1:], predicted, dtype=np.float64)


def _bep(table: CountTable) -> float:
    """P = R where TP + FP = m+; interpolated inside a tied block."""
    pos = table.positives
    predicted = np.add(table.tp, table.fp)
    k = int(np.searchsorted(predicted, pos, side="left"))
    if predicted[k] == pos:
        return float(table.tp[k] / pos)
    tp = bep_between(predicted[k - 1], table.tp[k - 1], predicted[k], table.tp[k], pos)
    return float(tp / pos)


def bep_between(p0, t0, p1, t1, pos):
    """TP where TP + FP = ``pos`` on the segment from (TP + FP, TP) = (p0, t0) to
    (p1, t1) (also used by :mod:`evalreport.metrics.stream`)."""
    return t0 + (t1 - t0) * ((pos - p0) / (p1 - p0))


def mcclish(area: float, fpr_max: float) -> float:
    """McClish's standardised partial AUC (0.5 random, 1 perfect) from the area
    over FPR in [0, fpr_max] (also used by :mod:`evalreport.metrics.stream`)."""
    min_area = 0.5 * fpr_max**2
    return 0.5 * (1.0 + (area - min_area) / (fpr_max - min_area))


def scalars_general(table: CountTable):
    """AUC sum, AP and BEP from the whole table (any ties, any weights).

    The fourth item, the hull's candidate corners and their counts, is left to
    :func:`roc_hull` here: ``(None, None)``.
    """
    tp, fp = table.tp, table.fp
    # Twice the area under the ROC polyline in count units: exact when unweighted.
    auc2 = trapezoids2(tp, fp)
    recall_steps = np.subtract(tp[1:], tp[:-1], dtype=np.float64)
    # sums.dot: NumPy's pairwise sum, not BLAS: the same last digit on every processor and thread count
    ap = dot(recall_steps, precision_column(table)) / table.positives
    return auc2, ap, _bep(table), (None, None)


def trapezoids2(tp: np.ndarray, fp: np.ndarray):
    """sum (fp[k+1] - fp[k]) (tp[k+1] + tp[k]): twice the area under the ROC
    polyline in count units. Integer counts give a Python int, exact even
    where the sum leaves int64 (2 m+ m- >= 2**63, aggregated tables of
    billions of rows): then it is summed in chunks whose sums fit."""
    dfp = np.subtract(fp[1:], fp[:-1])
    both = np.add(tp[1:], tp[:-1])
    if dfp.dtype.kind == "f" or both.dtype.kind == "f":
        return dot(dfp, both)
    pos, neg = int(tp[-1]), int(fp[-1])
    if not pair_counts_leave_int64(pos, neg):
        return int(np.dot(dfp, both))
    # Within a chunk whose fp rises by at most 2**61 / m+, the sum is under
    # 2**63 (each tp[k+1] + tp[k] <= 2 m+). A single step wider than that is
    # multiplied in Python ints.
    limit = (1 << 61) // pos
    wide = dfp > limit
    total = sum(a * b for a, b in zip(dfp[wide].tolist(), both[wide].tolist()))
    dfp = np.where(wide, 0, dfp)
    rise = np.cumsum(dfp)
    ends = np.searchsorted(rise, np.arange(1, int(rise[-1]) // limit + 1, dtype=np.int64) * limit,
                           side="right")
    start = 0
    for end in [*ends.tolist(), dfp.size]:
        total += int(np.dot(dfp[start:end], both[start:end]))
        start = end
    return total


def scalars_distinct(table: CountTable, rows=None):
    """The same from the rows where positives enter, when every row is one score.

    Unweighted and without ties, the i-th positive (i = 1..P) enters at row
    k_i and then TP = i, FP = k_i - i, so every scalar is a sum over the P
    positives instead of over all K rows. ``rows`` (the k_i) if the caller
    has them, else they are read off ``tp``. The fourth item is the hull's
    candidate corners (see :func:`roc_hull`).
    """
    pos, neg = table.positives, table.negatives
    if rows is None:
        tp = table.tp
        rows = np.flatnonzero(tp[1:] != tp[:-1]) + 1  # k_i, ascending
    row_sum = int(rows.sum())
    precision_sum = counts_precision_sum(rows, len(table))  # of i / k_i
    # Pairs ranked wrong: the i-th positive has k_i - i negatives above it.
    wrong = row_sum - pos * (pos + 1) // 2
    # pairs ranked right, doubled to match the trapezoid sum of the general path
    auc2 = 2 * (pos * neg - wrong)
    ap = float(precision_sum / pos)
    bep = int(np.searchsorted(rows, pos, side="right")) / pos
    # Hull candidates: the rows where a positive enters, with TP = i and
    # FP = k_i - i, so the hull needs no gathers from tp, fp. Only those
    # followed by a negative row can be vertices, but picking them out costs
    # more than the hull spends on the others (each lies under the next one).
    return auc2, ap, float(bep), (rows, UnitStepCorners(rows))
