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
    cost_curve,
    operating_point,
    roc_hull,
)
from . import few_ties_measures
from ..counting.build import count_table_and_positive_rows
from ..counting.few_ties import FewTiesTable
from ..counting.table import (
    CountTable,
    SCALE_ADVICE,
    WeightScaleError,
    weight_scale_problem,
)
from ..counting.unit_rates import UnitCurveBuffers
# the scalars' arithmetic (its pieces also read by metrics.stream_rows and metrics.reduced)
from .binary_scalars import mcclish, precision_column, scalars_distinct, scalars_general
from .frozen import FrozenMapping
from ..counting.parallel import blocks, in_parts

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
    Read-only arrays; :attr:`BinaryEvaluation.roc`.

    Examples
    --------
    >>> roc = evaluate_binary([0, 1, 1, 0], [4, 3, 2, 1]).roc
    >>> roc.fpr.tolist(), roc.tpr.tolist(), roc.threshold.tolist()
    ([0.0, 0.5, 0.5, 0.5, 1.0], [0.0, 0.0, 0.5, 1.0, 1.0], [inf, 4.0, 3.0, 2.0, 1.0])
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
    Read-only arrays; :attr:`BinaryEvaluation.pr`.

    Examples
    --------
    >>> pr = evaluate_binary([0, 1, 1, 0], [4, 3, 2, 1]).pr
    >>> pr.recall.tolist(), pr.precision.tolist()
    ([0.0, 0.5, 1.0, 1.0], [0.0, 0.5, 0.6666666666666666, 0.5])
    """

    recall: np.ndarray
    precision: np.ndarray
    threshold: np.ndarray

    def __post_init__(self):
        _ro(self.recall, self.precision, self.threshold)


@dataclass(frozen=True)
class ThresholdMeasures:
    """Counts and rates of the classifier "positive iff score >= threshold".

    Rates are ``None`` where undefined, ``undefined[name]`` saying why;
    ``fbeta`` maps each beta to its F-measure. Made by
    :meth:`BinaryEvaluation.at_threshold`.

    Examples
    --------
    >>> at = evaluate_binary([0, 1, 1, 0], [4, 3, 2, 1]).at_threshold(2.5)
    >>> at.tp, at.fp, at.tn, at.fn, at.precision, at.recall, at.f1
    (1, 1, 1, 1, 0.5, 0.5, 0.5)
    """

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


def plain_number(x):
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
    tp, fp = plain_number(table.tp_at(row)), plain_number(table.fp_at(row))
    fn, tn = pos - tp, neg - fp
    m = pos + neg
    und: dict[str, str] = {}
    err = _ratio(fp + fn, m, "error_rate", "the total weight is 0", und)
    acc = None if err is None else float((tp + tn) / m)
    if acc is None:
        und["accuracy"] = und["error_rate"]
    # no number here: the warning that quotes this reason prints the threshold's text
    nothing = "nothing is predicted positive at the threshold"
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
    the count table (small: what a report keeps once the curves are drawn).

    ``n`` rows, ``positives`` and ``negatives`` (counts, or total weights), the
    ``auc``, ``rank_loss``, ``average_precision``, ``bep`` (break-even point),
    the ROC ``hull``, the ``cost_curve`` and its area ``expected_total_cost``;
    ``None`` where undefined, with ``undefined[name]`` saying why.

    Examples
    --------
    >>> evaluate_binary([0, 1, 1, 0], [4, 3, 2, 1]).summary().auc
    0.5
    """

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
    ``undefined[name]`` gives the reason. Its ``repr`` is one line of the
    scalars; in Jupyter it shows them beside a small ROC / P-R / cost figure.

    Examples
    --------
    >>> ev = evaluate_binary([0, 1, 1, 1, 0, 0, 1, 1, 0, 0], [10, 9, 8, 7, 6, 5, 4, 3, 2, 1])
    >>> ev
    <BinaryEvaluation: 10 rows, 5 positive, 5 negative; AUC 0.640, rank loss 0.360, AP 0.623, BEP 0.600, expected total cost 0.175>
    >>> evaluate_binary([1, 1], [0.3, 0.9]).undefined["auc"]
    'there are no negatives (only one class in y_true)'
    """

    counts: CountTable = field(kw_only=True)

    def __repr__(self) -> str:
        from .display import evaluation_text

        return evaluation_text(self)

    def _repr_html_(self) -> str:
        """The scalars and a small ROC / P-R / cost figure, inline SVG (Jupyter's display).

        Examples
        --------
        >>> html = evaluate_binary([0, 1, 1, 0], [1, 3, 2, 4])._repr_html_()
        >>> html.startswith('<div class="evalreport-evaluation">'), html.count("<svg")
        (True, 1)
        """
        from ..figures.evaluation import evaluation_html  # the figures' side: drawn when asked for

        return evaluation_html(self)

    def summary(self) -> BinarySummary:
        """Everything but the count table and the full curves.

        Examples
        --------
        >>> evaluate_binary([0, 1, 1, 0], [4, 3, 2, 1]).summary().bep
        0.5
        """
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
        return _rate(t.fp, self.negatives), _rate(t.tp, self.positives), precision_column(t)

    @cached_property
    def roc(self) -> RocCurve:
        """ROC points at every distinct threshold (NaN rates when a class is absent).

        Examples
        --------
        >>> evaluate_binary([0, 1, 1, 0], [4, 3, 2, 1]).roc.tpr.tolist()
        [0.0, 0.0, 0.5, 1.0, 1.0]
        """
        fpr, tpr, _ = self._curves
        return RocCurve(fpr=fpr, tpr=tpr, threshold=self.counts.thresholds_with_inf())

    @cached_property
    def pr(self) -> PrCurve:
        """P-R points at every threshold with something predicted positive.

        Examples
        --------
        >>> evaluate_binary([0, 1, 1, 0], [4, 3, 2, 1]).pr.recall.tolist()
        [0.0, 0.5, 1.0, 1.0]
        """
        _, tpr, precision = self._curves
        return PrCurve(recall=tpr[1:], precision=precision, threshold=self.counts.threshold)

    def at_threshold(self, t: float, *, costs=None, betas=(1,)) -> ThresholdMeasures:
        """Counts and rates when predicting positive iff score >= ``t``.

        Parameters
        ----------
        t : float
            The threshold.
        costs : Costs or mapping, optional
            ``{"false_negative": .., "false_positive": ..}`` for the
            cost-sensitive error (Zhou eq. 2.23).
        betas : sequence of float, default (1,)
            The F-measures' betas (``fbeta``).

        Returns
        -------
        ThresholdMeasures

        Examples
        --------
        >>> ev = evaluate_binary([0, 1, 1, 0], [4, 3, 2, 1])
        >>> at = ev.at_threshold(2.5, costs={"false_negative": 5, "false_positive": 1}, betas=(2,))
        >>> at.recall, at.cost_sensitive_error, at.fbeta[2.0]
        (0.5, 1.5, 0.5)
        """
        t = float(t)
        if np.isnan(t):
            raise ValueError("threshold is NaN")
        return measures_at_row(self.counts, self.counts.rows_at(t), t, costs=costs, betas=betas)

    def partial_auc(self, fpr_max: float, *, standardized: bool = False) -> float | None:
        """Area under the ROC curve for FPR in [0, fpr_max].

        With ``standardized=True``, McClish's correction (as scikit-learn's
        ``roc_auc_score(max_fpr=...)`` and pROC's ``partial.auc.correct``):
        0.5 for a random ranking and 1 for a perfect one. ``None`` when the AUC
        is undefined.

        Examples
        --------
        >>> ev = evaluate_binary([0, 1, 1, 0], [1, 3, 2, 4])
        >>> ev.partial_auc(0.5), ev.partial_auc(1.0) == ev.auc
        (0.0, True)
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
        return mcclish(area, fpr_max) if standardized else area

    def operating_point(self, pc: float) -> OperatingPoint | None:
        """Least normalised expected cost at PC(+) = ``pc`` and the threshold reaching it.

        ``None`` when a class is absent (no ROC hull).

        Examples
        --------
        >>> op = evaluate_binary([0, 1, 1, 0], [1, 3, 2, 4]).operating_point(0.5)
        >>> op.min_cost, op.fpr, op.tpr
        (0.25, 0.5, 1.0)
        """
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
    the eager road forms them (:class:`~evalreport.counting.unit_rates.UnitCurveBuffers`):
    the same floats as fp / neg, tp / pos and tp / (tp + fp), in reversed views.
    """
    n = tp.size - 1
    buffers = UnitCurveBuffers(n, pos)
    ascending = tp[::-1]  # the buffers' order: index i is row n - i

    def fill(lo, hi):
        for start, stop in blocks(lo, hi):
            buffers.fill(ascending[start:stop], start, stop)

    in_parts(fill, n)
    return buffers.rates()


def evaluate_counts(table: CountTable) -> BinaryEvaluation:
    """All measures from a count table (see :func:`evaluate_binary`).

    Parameters
    ----------
    table : CountTable
        From :func:`~evalreport.metrics.count_table` or
        :func:`~evalreport.metrics.count_table_from_aggregates`.

    Returns
    -------
    BinaryEvaluation

    Examples
    --------
    >>> from evalreport.metrics import count_table_from_aggregates
    >>> table = count_table_from_aggregates([0.9, 0.5, 0.1], positives=[3, 1, 0], negatives=[0, 1, 3])
    >>> evaluate_counts(table).auc
    0.96875
    """
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
    few = isinstance(table, FewTiesTable)
    if pos > 0:
        if table.unit_steps:
            auc2, ap, bep, hull_corners = scalars_distinct(table, positive_rows)
        elif few:  # a few ties among distinct scores
            auc2, ap, bep = few_ties_measures.scalars(table)
        else:
            auc2, ap, bep, hull_corners = scalars_general(table)
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
        hull = few_ties_measures.roc_hull(table) if few else roc_hull(table, *hull_corners)
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
