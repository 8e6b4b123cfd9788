"""Every binary measure of docs/measures.md, from one sorted count table.

Pure functions over arrays: no I/O, no spec objects. Undefined values are
``None`` and ``undefined[name]`` says why; nothing undefined is silently 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from functools import cached_property
from typing import Mapping

import numpy as np

from .cost import (
    CostCurve,
    Costs,
    OperatingPoint,
    RocHull,
    UnitStepCorners,
    cost_curve,
    operating_point,
    roc_hull,
)
from .build import count_table_and_positive_rows
from .table import (
    CountTable,
    SCALE_ADVICE,
    WeightScaleError,
    pair_counts_leave_int64,
    weight_scale_problem,
)
from .unit_rates import _UnitCurveBuffers
from .unit_rates import precision_sum as counts_precision_sum
from .frozen import FrozenMapping
from .parallel import blocks, in_parts

__all__ = [
    "BinaryEvaluation",
    "BinarySummary",
    "RocCurve",
    "PrCurve",
    "ThresholdMeasures",
    "evaluate_binary",
    "evaluate_counts",
]

NO_POSITIVES = "there are no positives (only one class in y_true)"
NO_NEGATIVES = "there are no negatives (only one class in y_true)"
# weighted: rows of the class may be there, with weight 0
NO_POSITIVE_WEIGHT = "the positives weigh 0 in total (only one class carries weight)"
NO_NEGATIVE_WEIGHT = "the negatives weigh 0 in total (only one class carries weight)"


def _absent(table, positives: bool) -> str:
    """Why a measure that needs both classes is undefined for ``table``."""
    if table.weighted:
        return NO_POSITIVE_WEIGHT if positives else NO_NEGATIVE_WEIGHT
    return NO_POSITIVES if positives else NO_NEGATIVES


def _ro(*arrays):
    for a in arrays:
        a.flags.writeable = False


@dataclass(frozen=True, eq=False)
class RocCurve:
    """ROC points at every distinct threshold (descending), from (0, 0) to (1, 1).

    ``threshold[0]`` is +inf: the classifier that predicts nothing positive.
    """

    fpr: np.ndarray
    tpr: np.ndarray
    threshold: np.ndarray

    def __post_init__(self):
        _ro(self.fpr, self.tpr, self.threshold)


@dataclass(frozen=True, eq=False)
class PrCurve:
    """P-R points (R_k, P_k) for every threshold with something predicted positive.

    Thresholds descend, so recall rises. Between points the curve is straight
    in (FP, TP) count space, not in (R, P) space (Davis & Goadrich 2006).
    """

    recall: np.ndarray
    precision: np.ndarray
    threshold: np.ndarray

    def __post_init__(self):
        _ro(self.recall, self.precision, self.threshold)


@dataclass(frozen=True)
class ThresholdMeasures:
    """Counts and rates of the classifier "positive iff score >= threshold"."""

    threshold: float
    tp: float
    fp: float
    tn: float
    fn: float
    error_rate: float | None
    accuracy: float | None
    precision: float | None
    recall: float | None
    fpr: float | None
    specificity: float | None
    f1: float | None
    fbeta: Mapping[float, float | None]
    cost_sensitive_error: float | None
    undefined: Mapping[str, str]


def _num(x):
    """A count as a plain Python number (int when unweighted)."""
    return x.item() if hasattr(x, "item") else x


def _ratio(num, den, name, reason, undefined):
    if den == 0:
        undefined[name] = reason
        return None
    return float(num / den)


def _fbeta_value(tp, fp, fn, beta):
    b2 = beta * beta
    den = (1 + b2) * tp + b2 * fn + fp
    return None if den == 0 else float((1 + b2) * tp / den)


def measures_at_row(table: CountTable, row: int, threshold: float, *, costs=None, betas=(1,)):
    """The at-threshold measures for one row of the count table."""
    pos, neg = table.positives, table.negatives
    tp, fp = _num(table.tp_at(row)), _num(table.fp_at(row))
    fn, tn = pos - tp, neg - fp
    m = pos + neg
    und: dict[str, str] = {}
    err = _ratio(fp + fn, m, "error_rate", "the total weight is 0", und)
    acc = None if err is None else float((tp + tn) / m)
    if acc is None:
        und["accuracy"] = und["error_rate"]
    nothing = f"nothing is predicted positive at threshold {threshold:g}"
    prec = _ratio(tp, tp + fp, "precision", nothing, und)
    rec = _ratio(tp, pos, "recall", _absent(table, True), und)
    fpr = _ratio(fp, neg, "fpr", _absent(table, False), und)
    spec = _ratio(tn, neg, "specificity", _absent(table, False), und)
    f1 = _ratio(2 * tp, 2 * tp + fp + fn, "f1", "there are no positives and " + nothing, und)
    fbeta = {}
    for beta in betas:
        beta = float(beta)
        if not beta > 0:
            raise ValueError(f"beta must be > 0, got {beta!r}")
        fbeta[beta] = _fbeta_value(tp, fp, fn, beta)
        if fbeta[beta] is None:
            und[f"fbeta[{beta:g}]"] = "there are no positives and " + nothing
    cse = None
    if costs is not None:
        c = Costs.coerce(costs)
        cse = _ratio(
            fn * c.false_negative + fp * c.false_positive, m, "cost_sensitive_error",
            "the total weight is 0", und,
        )
    return ThresholdMeasures(
        threshold=float(threshold), tp=tp, fp=fp, tn=tn, fn=fn,
        error_rate=err, accuracy=acc, precision=prec, recall=rec, fpr=fpr,
        specificity=spec, f1=f1, fbeta=FrozenMapping(fbeta),
        cost_sensitive_error=cse, undefined=FrozenMapping(und),
    )


@dataclass(frozen=True, eq=False)
class BinarySummary:
    """The scalars, hull and cost curve of a :class:`BinaryEvaluation`, without
    the count table (small: what a report keeps once the curves are drawn)."""

    n: int
    positives: float
    negatives: float
    auc: float | None
    rank_loss: float | None
    average_precision: float | None
    bep: float | None
    hull: RocHull | None
    cost_curve: CostCurve | None
    expected_total_cost: float | None
    undefined: Mapping[str, str] = field(default_factory=FrozenMapping)


@dataclass(frozen=True, eq=False)
class BinaryEvaluation(BinarySummary):
    """Everything measured for one learner on one binary data set: the
    :class:`BinarySummary` fields and the count table the curves come from.

    Built by :func:`evaluate_binary`. Scalars are ``None`` when undefined and
    ``undefined[name]`` gives the reason.
    """

    counts: CountTable = field(kw_only=True)

    def __repr__(self) -> str:
        from .display import evaluation_text

        return evaluation_text(self)

    def _repr_html_(self) -> str:
        """The scalars and a small ROC / P-R / cost figure, inline SVG (Jupyter's display)."""
        from .display import evaluation_html

        return evaluation_html(self)

    def summary(self) -> BinarySummary:
        """Everything but the count table and the full curves."""
        return BinarySummary(**{f.name: getattr(self, f.name) for f in fields(BinarySummary)})

    @cached_property
    def _curves(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(fpr, tpr, precision) at every row, formed together (the ROC and
        the P-R curves share tpr): read off the table if it formed them, else
        from tp (for distinct unweighted scores block by block, as the table
        would have, without forming fp)."""
        t = self.counts
        if t.curves is not None:  # formed with tp (distinct unweighted scores)
            return t.curves.fpr, t.curves.tpr, t.curves.precision
        if t.unit_steps and self.positives > 0 and self.negatives > 0:
            return _unit_step_curves(t.tp, self.positives)
        return _rate(t.fp, self.negatives), _rate(t.tp, self.positives), _precision(t)

    @cached_property
    def roc(self) -> RocCurve:
        """ROC points at every distinct threshold (NaN rates when a class is absent)."""
        fpr, tpr, _ = self._curves
        return RocCurve(fpr=fpr, tpr=tpr, threshold=self.counts.thresholds_with_inf())

    @cached_property
    def pr(self) -> PrCurve:
        """P-R points at every threshold with something predicted positive."""
        _, tpr, precision = self._curves
        return PrCurve(recall=tpr[1:], precision=precision, threshold=self.counts.threshold)

    def at_threshold(self, t: float, *, costs=None, betas=(1,)) -> ThresholdMeasures:
        """Counts and rates when predicting positive iff score >= ``t``.

        ``costs``: a :class:`Costs` or ``{"false_negative": .., "false_positive": ..}``
        for the cost-sensitive error (Zhou eq. 2.23).
        """
        t = float(t)
        if np.isnan(t):
            raise ValueError("threshold is NaN")
        return measures_at_row(self.counts, self.counts.rows_at(t), t, costs=costs, betas=betas)

    def partial_auc(self, fpr_max: float, *, standardized: bool = False) -> float | None:
        """Area under the ROC curve for FPR in [0, fpr_max].

        With ``standardized=True``, McClish's correction (as scikit-learn's
        ``roc_auc_score(max_fpr=...)`` and pROC's ``partial.auc.correct``):
        0.5 for a random ranking and 1 for a perfect one.
        """
        if not 0.0 < fpr_max <= 1.0:
            raise ValueError(f"fpr_max must be in (0, 1], got {fpr_max!r}")
        if self.auc is None:
            return None
        fpr, tpr = self.roc.fpr, self.roc.tpr
        stop = int(np.searchsorted(fpr, fpr_max, side="right"))
        x = fpr[:stop]
        y = tpr[:stop]
        if stop < fpr.size and x[-1] < fpr_max:
            # interpolate the segment that crosses fpr_max
            x0, x1, y0, y1 = fpr[stop - 1], fpr[stop], tpr[stop - 1], tpr[stop]
            x = np.append(x, fpr_max)
            y = np.append(y, y0 + (y1 - y0) * (fpr_max - x0) / (x1 - x0))
        area = float(np.sum(np.diff(x) * (y[1:] + y[:-1])) / 2.0)
        return _mcclish(area, fpr_max) if standardized else area

    def operating_point(self, pc: float) -> OperatingPoint | None:
        """Least normalised expected cost at PC(+) = ``pc`` and the threshold reaching it."""
        if self.hull is None:
            return None
        return operating_point(self.hull, pc)


def _rate(counts: np.ndarray, total) -> np.ndarray:
    if total <= 0:
        return np.full(counts.size, np.nan)
    out = np.empty(counts.size, dtype=np.float64)
    in_parts(lambda lo, hi: np.divide(counts[lo:hi], total, out=out[lo:hi]), counts.size)
    return out


def _unit_step_curves(tp: np.ndarray, pos: int):
    """(fpr, tpr, precision) when row j predicts exactly j samples positive
    (so there are ``tp.size - 1 - pos`` negatives), formed block by block as
    the eager road forms them (:class:`~evalreport.metrics.unit_rates._UnitCurveBuffers`):
    the same floats as fp / neg, tp / pos and tp / (tp + fp), in reversed views.
    """
    n = tp.size - 1
    buffers = _UnitCurveBuffers(n, pos)
    ascending = tp[::-1]  # the buffers' order: index i is row n - i

    def fill(lo, hi):
        for start, stop in blocks(lo, hi):
            buffers.fill(ascending[start:stop], start, stop)

    in_parts(fill, n)
    return buffers.rates()


def _precision(table: CountTable) -> np.ndarray:
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
    tp = _bep_between(predicted[k - 1], table.tp[k - 1], predicted[k], table.tp[k], pos)
    return float(tp / pos)


def _bep_between(p0, t0, p1, t1, pos):
    """TP where TP + FP = ``pos`` on the segment from (TP + FP, TP) = (p0, t0) to
    (p1, t1) (also used by :mod:`evalreport.metrics.stream`)."""
    return t0 + (t1 - t0) * ((pos - p0) / (p1 - p0))


def _mcclish(area: float, fpr_max: float) -> float:
    """McClish's standardised partial AUC (0.5 random, 1 perfect) from the area
    over FPR in [0, fpr_max] (also used by :mod:`evalreport.metrics.stream`)."""
    min_area = 0.5 * fpr_max**2
    return 0.5 * (1.0 + (area - min_area) / (fpr_max - min_area))


def _scalars_general(table: CountTable):
    """AUC sum, AP and BEP from the whole table (any ties, any weights).

    The fourth item, the hull's candidate corners and their counts, is left to
    :func:`roc_hull` here: ``(None, None)``.
    """
    tp, fp = table.tp, table.fp
    # Twice the area under the ROC polyline in count units: exact when unweighted.
    auc2 = _trapezoids2(tp, fp)
    recall_steps = np.subtract(tp[1:], tp[:-1], dtype=np.float64)
    ap = float(np.dot(recall_steps, _precision(table)) / table.positives)
    return auc2, ap, _bep(table), (None, None)


def _trapezoids2(tp: np.ndarray, fp: np.ndarray):
    """sum (fp[k+1] - fp[k]) (tp[k+1] + tp[k]): twice the area under the ROC
    polyline in count units. Integer counts give a Python int, exact even
    where the sum leaves int64 (2 m+ m- >= 2**63, aggregated tables of
    billions of rows): then it is summed in chunks whose sums fit."""
    dfp = np.subtract(fp[1:], fp[:-1])
    both = np.add(tp[1:], tp[:-1])
    if dfp.dtype.kind == "f" or both.dtype.kind == "f":
        return np.dot(dfp, both)
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


def _scalars_distinct(table: CountTable, rows=None):
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


def evaluate_counts(table: CountTable) -> BinaryEvaluation:
    """All measures from a count table (see :func:`evaluate_binary`)."""
    return _evaluate(table, None)


def _evaluate(table: CountTable, positive_rows) -> BinaryEvaluation:
    """:func:`evaluate_counts`, given the positives' rows if already known."""
    pos, neg = table.positives, table.negatives
    if table.weighted:
        problem = weight_scale_problem(pos, neg)
        if problem is not None:  # (the measures would be NaN)
            raise WeightScaleError(f"{problem} ({SCALE_ADVICE})")
    und: dict[str, str] = {}
    auc = rank_loss = ap = bep = etc = None
    hull = curve = None
    if pos > 0:
        if table.unit_steps:
            auc2, ap, bep, hull_corners = _scalars_distinct(table, positive_rows)
        else:
            auc2, ap, bep, hull_corners = _scalars_general(table)
    else:
        und["average_precision"] = _absent(table, True)
        und["bep"] = _absent(table, True)
    if pos > 0 and neg > 0:
        pairs2 = 2 * pos * neg
        if not table.weighted:
            # Python ints: the quotient is correctly rounded at any count
            # (an int64 over int64 rounds both to float64 first past 2**53)
            auc2 = int(auc2)
        auc = float(auc2 / pairs2)
        rank_loss = float((pairs2 - auc2) / pairs2)
        hull = roc_hull(table, *hull_corners)
        curve = cost_curve(table, hull)
        etc = curve.area
    else:
        reason = _absent(table, pos <= 0)
        for name in ("auc", "rank_loss", "roc_hull", "cost_curve", "expected_total_cost"):
            und[name] = reason
    return BinaryEvaluation(
        counts=table,
        n=table.n_rows,
        positives=pos,
        negatives=neg,
        auc=auc,
        rank_loss=rank_loss,
        average_precision=ap,
        bep=bep,
        hull=hull,
        cost_curve=curve,
        expected_total_cost=etc,
        undefined=FrozenMapping(und),
    )


def evaluate_binary(y_true, y_score, *, sample_weight=None, positive=1,
                    lazy_curves: bool = False) -> BinaryEvaluation:
    """Evaluate one scoring learner on a binary task.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        True labels (ints, bools or strings).
    y_score : array-like of shape (n,)
        Scores, higher = more positive; must be finite.
    sample_weight : array-like of shape (n,), optional
        Non-negative weights (default 1).
    positive : label, default 1
        The label of the positive class.
    lazy_curves : bool, default False
        Form the ROC and P-R curves (``roc``, ``pr``) when first read rather
        than with the count table. With distinct scores the curves take
        three float arrays of n, formed with the table in the pass that
        counts (the fastest way to everything); lazily, a caller that wants
        the scalars only holds about half the memory, and reading the curves
        later costs a little more. The numbers are the same either way.

    Returns
    -------
    BinaryEvaluation

    Raises
    ------
    ValueError
        Mismatched lengths, empty input, NaN or infinite scores, negative or
        non-finite weights, more than two labels; the message names the first
        offending index.

    Examples
    --------
    The ten-sample example of the seeds: learner A ranks n p p p n n p p n n.

    >>> y = [0, 1, 1, 1, 0, 0, 1, 1, 0, 0]
    >>> ev = evaluate_binary(y, [10, 9, 8, 7, 6, 5, 4, 3, 2, 1])
    >>> ev.auc, ev.rank_loss, ev.bep
    (0.64, 0.36, 0.6)
    """
    table, positive_rows = count_table_and_positive_rows(
        y_true, y_score, sample_weight=sample_weight, positive=positive, rates=not lazy_curves
    )
    return _evaluate(table, positive_rows)


def evaluate_binary_for_report(y_true, y_score, *, sample_weight=None, positive=1) -> BinaryEvaluation:
    """:func:`evaluate_binary` for a caller that reads the count table at a few
    rows only (a report: hull, kept curve points, the decision threshold).

    The same numbers; with distinct unweighted scores the table keeps its
    sorted keys and forms thresholds and ``fp`` only if asked for whole,
    which saves a report two passes over the scores each and costs a caller
    of ``roc`` and ``pr`` about as much again.
    """
    table, positive_rows = count_table_and_positive_rows(
        y_true, y_score, sample_weight=sample_weight, positive=positive, keep_keys=True
    )
    return _evaluate(table, positive_rows)
