"""What a streamed count table is once reduced: the exact scalars, which rows of the
exact table were kept, and the evaluation read off them.

:class:`~evalreport.metrics.stream.CountReducer` (:mod:`.stream`, whose docstring
says what is kept and how exact each number is) returns a :class:`StreamResult`;
:func:`evaluate_reduced` turns its table and :class:`Reduction` into the final
:class:`~evalreport.metrics.BinaryEvaluation`, and :class:`ReducedEvaluation`
refuses what a reduced table cannot give exactly.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from .binary import BinaryEvaluation, evaluate_counts
from .binary_scalars import mcclish
from .frozen import FrozenMapping
from ..counting.table import CountTable
from ..words import general

__all__ = ["ReducedEvaluation", "Reduction", "StreamResult", "evaluate_reduced"]

@dataclass(frozen=True, eq=False)
class Reduction:
    """What the stream measured exactly, and which rows of the exact table were kept.

    Attributes
    ----------
    rows : int
        Rows (distinct scores carrying weight) of the exact table.
    row_index : ndarray of int64
        For each row of the reduced table (row 0, "nothing positive", included),
        its row in the exact table; ``arange(rows + 1)`` when nothing was reduced.
    positives, negatives : int or float
        m+ and m- of the exact table (Python ints when unweighted).
    auc2 : int or float or None
        Twice the area under the ROC polyline in count units (an exact Python int
        when unweighted); None with one class only.
    auc, rank_loss, average_precision, bep : float or None
        As :func:`~evalreport.metrics.evaluate_counts` gives them on the exact
        table (None where undefined), to the precision the module docstring
        states (Numbers), whether or not the table was reduced.
    partial_auc : mapping
        ``max_fpr -> area`` (not standardised) for each ``max_fprs`` asked for;
        empty with one class only.
    exact_at : tuple of float
        The ``keep_thresholds``: where the reduced table is exact by construction.
    roc_error : float
        Largest distance, in ROC space, of any point of the exact ROC curve from
        the polyline through the kept rows (0 when nothing was reduced): between
        two kept rows the exact curve is monotone, so it stays in the box they
        span, at most ``dx dy / hypot(dx, dy)`` from their chord.

    Examples
    --------
    >>> from evalreport.metrics import reduce_count_stream, evaluate_reduced
    >>> chunks = [([0.9, 0.8, 0.7], [1, 1, 0], [0, 0, 1]), ([0.4, 0.3, 0.1], [1, 0, 0], [0, 1, 1])]
    >>> out = reduce_count_stream(chunks, positives=3, negatives=3, keep_thresholds=[0.7], cap=2)
    >>> out.reduction.kept, out.reduction.rows, out.reduction.exact_row(out.table, 0.7)
    (5, 6, True)
    """

    rows: int
    row_index: np.ndarray
    positives: int | float
    negatives: int | float
    auc2: int | float | None
    auc: float | None
    rank_loss: float | None
    average_precision: float | None
    bep: float | None
    partial_auc: Mapping[float, float] = field(default_factory=FrozenMapping)
    roc_error: float = 0.0
    exact_at: tuple[float, ...] = ()

    @property
    def kept(self) -> int:
        """Rows of the reduced table (row 0 not counted)."""
        return int(self.row_index.size - 1)

    @property
    def reduced(self) -> bool:
        """True when rows of the exact table were dropped."""
        return self.kept < self.rows

    def exact_row(self, table: CountTable, t: float) -> bool:
        """Whether ``table.rows_at(t)`` on the reduced ``table`` is the exact table's row.

        It is at the ``keep_thresholds``; and when no dropped row can score >= t:
        the row selected is the last one, or ``t`` is its own threshold (thresholds
        strictly descend), or the next kept row follows it directly in the exact
        table. Row 1 is always kept, so a ``t`` above every score selects row 0
        exactly. Hull vertices are kept rows: their thresholds are exact.
        """
        t = float(t)
        if t in self.exact_at:
            return True
        r = table.rows_at(t)
        if r == self.kept or (r > 0 and table.threshold[r - 1] == t):
            return True
        return int(self.row_index[r + 1]) == int(self.row_index[r]) + 1


@dataclass(frozen=True, eq=False)
class StreamResult:
    """What :func:`reduce_count_stream` returns.

    ``table``: the whole exact table, or the reduced one; ``reduction``: the
    exact scalars and which rows were kept; ``group_tables``: with group codes,
    group code -> that group's table (whole, or reduced to the hull and
    ``keep_thresholds`` rows), else None.

    Examples
    --------
    >>> from evalreport.metrics import reduce_count_stream, evaluate_reduced
    >>> chunks = [([0.9, 0.8, 0.7], [1, 1, 0], [0, 0, 1]), ([0.4, 0.3, 0.1], [1, 0, 0], [0, 1, 1])]
    >>> out = reduce_count_stream(chunks, positives=3, negatives=3, keep_thresholds=[0.7], cap=2)
    >>> out.reduced, out.table.threshold.tolist()
    (True, [0.9, 0.8, 0.7, 0.4, 0.1])
    """

    table: CountTable
    reduction: Reduction
    group_tables: dict[int, CountTable] | None = None

    @property
    def reduced(self) -> bool:
        return self.reduction.reduced


# repr=False: BinaryEvaluation's short repr (metrics.display), not the dataclass's dump
@dataclass(frozen=True, eq=False, repr=False)
class ReducedEvaluation(BinaryEvaluation):
    """A :class:`BinaryEvaluation` whose count table is a reduced one.

    The hull, cost curve, expected total cost and operating points are exact
    (the reduced table holds every hull vertex); AUC, rank loss, AP and BEP are
    the stream's exact values; ``roc`` and ``pr`` are drawn through the kept rows
    only. :meth:`at_threshold` and :meth:`partial_auc` refuse what the reduced
    table cannot give exactly rather than answer approximately.

    Examples
    --------
    >>> from evalreport.metrics import reduce_count_stream, evaluate_reduced
    >>> chunks = [([0.9, 0.8, 0.7], [1, 1, 0], [0, 0, 1]), ([0.4, 0.3, 0.1], [1, 0, 0], [0, 1, 1])]
    >>> out = reduce_count_stream(chunks, positives=3, negatives=3, keep_thresholds=[0.7], cap=2)
    >>> ev = evaluate_reduced(out.table, out.reduction)
    >>> type(ev).__name__, round(ev.auc, 4), round(ev.at_threshold(0.7).recall, 4)
    ('ReducedEvaluation', 0.8889, 0.6667)
    >>> ev.at_threshold(0.35)
    Traceback (most recent call last):
    ...
    ValueError: threshold 0.35 was not asked for in advance: ...
    """

    reduction: Reduction = field(kw_only=True)

    def at_threshold(self, t: float, *, costs=None, betas=(1,)):
        t = float(t)
        if not np.isnan(t) and not self.reduction.exact_row(self.counts, t):
            raise ValueError(
                f"threshold {general(t)} was not asked for in advance: the count table was reduced to "
                f"{self.reduction.kept:,} of {self.reduction.rows:,} rows, exact only at the "
                "keep_thresholds and at the ROC hull's vertices"
            )
        return super().at_threshold(t, costs=costs, betas=betas)

    def partial_auc(self, fpr_max: float, *, standardized: bool = False) -> float | None:
        if not 0.0 < fpr_max <= 1.0:
            raise ValueError(f"fpr_max must be in (0, 1], got {fpr_max!r}")
        if self.auc is None:
            return None
        area = self.reduction.partial_auc.get(float(fpr_max))
        if area is None:
            raise ValueError(
                f"the partial AUC at max_fpr {general(fpr_max)} was not computed while streaming the "
                "count table (pass it in max_fprs)"
            )
        return mcclish(area, fpr_max) if standardized else area


def evaluate_reduced(table: CountTable, reduction: Reduction | None) -> BinaryEvaluation:
    """The evaluation of a streamed table: exact scalars over the kept rows' hull.

    With nothing reduced (or no ``reduction``) this is just
    :func:`~evalreport.metrics.evaluate_counts` on the whole table.

    Parameters
    ----------
    table : CountTable
        :attr:`StreamResult.table`.
    reduction : Reduction or None
        :attr:`StreamResult.reduction`.

    Returns
    -------
    BinaryEvaluation
        A :class:`ReducedEvaluation` when rows were dropped.

    Examples
    --------
    >>> from evalreport.metrics import reduce_count_stream, evaluate_reduced
    >>> chunks = [([0.9, 0.8, 0.7], [1, 1, 0], [0, 0, 1]), ([0.4, 0.3, 0.1], [1, 0, 0], [0, 1, 1])]
    >>> out = reduce_count_stream(chunks, positives=3, negatives=3, keep_thresholds=[0.7], cap=2)
    >>> round(evaluate_reduced(out.table, out.reduction).auc, 4)
    0.8889
    """
    ev = evaluate_counts(table)
    if reduction is None or not reduction.reduced:
        return ev
    return ReducedEvaluation(
        counts=table, n=ev.n, positives=ev.positives, negatives=ev.negatives,
        auc=reduction.auc, rank_loss=reduction.rank_loss,
        average_precision=reduction.average_precision, bep=reduction.bep,
        hull=ev.hull, cost_curve=ev.cost_curve, expected_total_cost=ev.expected_total_cost,
        undefined=ev.undefined, reduction=reduction,
    )


def roc_polyline_error(table: CountTable, row_index: np.ndarray) -> float:
    """Largest distance of the exact ROC curve from the polyline through the
    reduced table's rows. Where rows were dropped between two kept ones the
    curve is monotone in between, so it stays in the box they span, whose
    farthest corner is ``dx dy / hypot(dx, dy)`` from the chord; where none
    were, the polyline is the curve."""
    pos, neg = table.positives, table.negatives
    if not (pos > 0 and neg > 0) or len(table) == 0:
        return 0.0
    gap = np.diff(row_index) > 1
    dx = np.diff(table.fp / neg)[gap]
    dy = np.diff(table.tp / pos)[gap]
    length = np.hypot(dx, dy)
    with np.errstate(invalid="ignore", divide="ignore"):
        d = np.where(length > 0, dx * dy / np.where(length > 0, length, 1.0), 0.0)
    return float(d.max()) if d.size else 0.0
