"""The scalars and the ROC hull of a count table with a few ties
(:class:`evalreport.counting.few_ties.FewTiesTable`, whose module text says how
the table drops the rows inside each tie and how these numbers follow from the
positives' as-if rows): the measures' half of that road, kept with the measures
so that the counting engine imports none of them.
"""

from __future__ import annotations

import numpy as np

from ..counting.few_ties import FewTiesTable, Ties
from ..counting.table import pair_counts_leave_int64
from ..counting.unit_rates import precision_sum
from .binary_scalars import bep_between
from .cost import (
    RocHull,
    UnitStepCorners,
    above_polygon,
    Polygon,
    roc_hull as _general_hull,
    row_thresholds,
    upper_hull_indices,
)

__all__ = ["roc_hull", "scalars"]


def scalars(table: FewTiesTable):
    """Twice the AUC's area in counts, the average precision and the
    break-even point (see the module's text); exact integers and the general
    road's terms."""
    rows, ties = table.as_if_rows, table.ties
    pos, neg, n = table.positives, table.negatives, table.n_rows
    wrong = int(rows.sum()) - pos * (pos + 1) // 2
    auc2 = 2 * (pos * neg - wrong) - int(np.dot(ties.pos, ties.neg))
    with_pos = ties.pos > 0
    skip = np.concatenate([np.arange(a, a + p) for a, p in
                           zip(ties.pos_before[with_pos].tolist(), ties.pos[with_pos].tolist())]
                          or [np.zeros(0, dtype=np.int64)])
    total = precision_sum(rows, n, skip=skip)
    for p, t, r in zip(ties.pos[with_pos].tolist(), (ties.pos_before + ties.pos)[with_pos].tolist(),
                       ties.last[with_pos].tolist()):
        total += float(p) * (t / r)  # the recall step times the precision t / (t + fp)
    return auc2, total / pos, _bep(rows, ties, pos)


def _bep(rows: np.ndarray, ties: Ties, pos: int) -> float:
    """P = R at TP + FP = m+ (:func:`.binary_scalars._bep`): the as-if row m+
    if kept, else interpolated across the tie that holds it."""
    k = int(np.searchsorted(ties.first, pos, side="right")) - 1
    if k < 0 or pos >= ties.last[k]:  # row m+ is a row of the tied table
        return int(np.searchsorted(rows, pos, side="right")) / pos
    first, last = int(ties.first[k]), int(ties.last[k])
    t0 = int(ties.pos_before[k])
    tp = bep_between(np.int64(first - 1), np.int64(t0), np.int64(last), np.int64(t0 + ties.pos[k]), pos)
    return float(tp / pos)


class _AsIfColumn:
    """fp or tp of the as-if table at a few rows (the hull reads its ends)."""

    def __init__(self, rows: np.ndarray, n: int, tp: bool):
        self.rows, self.size, self.tp = rows, n + 1, tp

    def __getitem__(self, at):
        at = np.asarray(at, dtype=np.int64)
        tp = np.searchsorted(self.rows, at, side="right")
        return tp if self.tp else at - tp


def roc_hull(table: FewTiesTable) -> RocHull | None:
    """The ROC convex hull of the tied table (see the module's text)."""
    pos, neg, n = table.positives, table.negatives, table.n_rows
    if pos <= 0 or neg <= 0:
        return None
    if pair_counts_leave_int64(pos, neg):  # (billions of rows: the general road's floats)
        return _general_hull(table)
    rows, ties = table.as_if_rows, table.ties
    x, y = _AsIfColumn(rows, n, tp=False), _AsIfColumn(rows, n, tp=True)
    corners = UnitStepCorners(rows)
    vertices = upper_hull_indices(x, y, rows, corners)
    inside = ties.dropped_rows(vertices)
    if inside.any():
        # The other vertices are points of the tied table: its hull lies on or
        # above their polygon. Only the corners strictly above it, and each
        # tie's kept row, can be its vertices.
        lower = vertices[~inside]
        above = above_polygon(Polygon(lower, x[lower], y[lower]), rows, corners, None)
        cand = rows[above]
        cand = np.union1d(np.union1d(cand[~ties.dropped_rows(cand)], lower[1:-1]), ties.last[ties.pos > 0])
        cand = cand[(cand > 0) & (cand < n)]
        vertices = upper_hull_indices(x, y, cand, (x[cand], y[cand]))
    idx = ties.kept_row(vertices)
    return RocHull(
        fpr=table.fp_at(idx) / neg,
        tpr=table.tp_at(idx) / pos,
        threshold=row_thresholds(table, idx),
        index=idx,
    )
