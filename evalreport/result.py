"""The typed result of a run: what the pipeline computes and every sink prints.

Plain frozen dataclasses and nothing else, so that any layer (the tasks that
fill them, the results.json writer, the report) can import them without
importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .compare import Comparisons
    from .curves import OutputCurves
    from .metrics import BinarySummary, OperatingPoint, ThresholdMeasures
    from .metrics.multiclass import Averages, MulticlassEvaluation
    from .spec import Spec
    from .tasks.base import Task

__all__ = ["Result", "LearnerResult", "MulticlassLearnerResult", "GroupResult", "OperatingPointSpec",
           "AcrossDatasets", "RunWarning", "lend_views"]


#: the notebook's views of a result (report/notebook.py's NotebookViews), lent by
#: the report when it is imported (:func:`lend_views`); empty until then
_VIEWS: list = []


def lend_views(views) -> None:
    """Give every :class:`Result` the notebook's views (``to_dict``, ``to_frame``,
    ``__repr__``, ``_repr_html_``, ...): the report calls it when imported, so that
    the result, read by every layer, imports no sink."""
    _VIEWS[:] = [views]


@dataclass(frozen=True)
class RunWarning:
    """One warning of a run, with what it concerns: the learner (its results.json
    key) and the measure (its registry name), where it concerns one, so that the
    report can print it next to the number. ``str()`` is the message that
    results.json lists."""

    message: str
    learner: str | None = None
    measure: str | None = None

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class OperatingPointSpec:
    """Where the learners are judged in cost space (binary tasks)."""

    p_positive: float
    p_positive_source: str  # "priors" or "observed"
    cost_fn: float
    cost_fp: float
    pc_positive: float


@dataclass(frozen=True, eq=False)
class GroupResult:
    """One confusion matrix per group (folds, runs) at the learner's threshold."""

    names: list[str]
    measures: list[dict]  # per group: tp, fp, tn, fn, accuracy, error_rate, precision, recall, f1
    averages: Averages  # macro and micro across the groups


@dataclass(frozen=True, eq=False)
class LearnerResult:
    """One learner of a binary task."""

    name: str
    key: str  # the learner's key in results.json
    dataset: str | None
    source: str  # prediction file (as in the spec)
    hard: bool  # hard decisions only: no curves
    threshold: float
    threshold_source: str  # "spec", "learner", "optimal", "optimal_on:<data set>" or "decisions"
    summary: BinarySummary  # scalars, hull and cost curve (computed on the full curves)
    curves: OutputCurves  # ROC and P-R vertices, simplified to report.curve_points
    at_threshold: ThresholdMeasures
    operating: OperatingPoint | None
    partial_auc: float | None
    groups: GroupResult | None = None
    auc_ci: Any = None  # DeLong's interval (compare.stats.AucInterval)
    resolution_bound: dict | None = None  # engines with `resolution`: bounds on |exact - binned|
    bootstrap: dict | None = None  # name -> (low, high) percentile-bootstrap interval
    values: dict = field(default_factory=dict)  # registry name -> scalar (None: undefined)
    pc_positive: float | None = None  # the operating point PC(+) the learner is judged at
    #: the measures at the threshold in the population of the priors (None without priors)
    population: Any = None  # metrics.population.PopulationMeasures
    #: how the report prints the threshold and the ROC hull's thresholds (the least-cost
    #: one, the cost envelope's): decimals that make the same decisions on these data
    #: (metrics.threshold_text), found while the count table is at hand
    threshold_texts: dict = field(default_factory=dict)  # threshold -> text
    #: the Kolmogorov-Smirnov statistic and its threshold (metrics.ks.KS), read off the
    #: count table while it is at hand; None for hard decisions
    ks: Any = None
    #: data[].slices: column -> metrics.slices.SliceColumn (the learner on each subgroup)
    slices: dict | None = None
    #: Brier score, log loss, ECE and the reliability bins (metrics.calibration.Calibration)
    calibration: Any = None
    #: the threshold table of the spec's operating points and the cumulative gains by
    #: decile (None: hard decisions); metrics.operating_table.OperatingTable
    operating_table: Any = None
    #: what a later run compares with (history): each class's scores, compactly
    #: ({"positive"|"negative": metrics.score_summary.ClassScores or None}), and DeLong's
    #: variance of the AUC, read off the count table; None for hard decisions, a reduced
    #: streamed table (its rows are not all kept) and, the variance, weighted data
    score_summary: dict | None = None
    auc_variance: float | None = None
    #: the per-resample values of the measures the compare stage resamples in pairs,
    #: kept from the draws of this learner's intervals so that the paired bootstrap
    #: reuses them (tasks.binary_evaluate.Resampled); not in results.json
    resampled: Any = field(default=None, repr=False)

    def threshold_text(self, t: float) -> str:
        """The text of threshold ``t`` (the learner's or a hull vertex's): one that
        reproduces its decisions; the exact decimal for a threshold not recorded."""
        # here, not at the top: this module is plain dataclasses, importable from any layer
        from .metrics.threshold_text import exact_text

        t = float(t)
        text = self.threshold_texts.get(t)
        return exact_text(t) if text is None else text

    @property
    def roc_vertices(self):
        """The full ROC curve (FPR, TPR) through every vertex: what comparisons use."""
        return self.curves.exact_roc


@dataclass(frozen=True, eq=False)
class MulticlassLearnerResult:
    """One learner of a multi-class task."""

    name: str
    key: str
    dataset: str | None
    source: str
    hard: bool
    evaluation: MulticlassEvaluation
    class_curves: dict[str, OutputCurves]  # one-vs-rest ROC and P-R per class (bounded)
    groups: dict[str, MulticlassEvaluation] | None = None
    group_averages: Averages | None = None  # macro / micro across the groups' one-vs-rest matrices
    #: with priors: the decisions' measures in the population of the priors (no AUC)
    population: MulticlassEvaluation | None = None
    bootstrap: dict | None = None  # accuracy, macro_f1 -> (low, high) percentile-bootstrap interval
    values: dict = field(default_factory=dict)  # registry name -> scalar (None: undefined)
    #: multi-class Brier score and log loss, top-label ECE and bins (metrics.calibration.Calibration)
    calibration: Any = None
    #: what a later run compares with (history): each class's score column over all
    #: instances, compactly ({class: metrics.score_summary.ClassScores or None}, read off
    #: the class's one-vs-rest count table); None for hard decisions
    score_summary: dict | None = None


@dataclass(frozen=True)
class AcrossDatasets:
    """Friedman's test and the Nemenyi critical difference over several data sets."""

    measure: str
    datasets: tuple[str, ...]
    learners: tuple[str, ...]
    values: tuple[tuple[float, ...], ...]  # data sets x learners
    friedman: Any  # compare.stats.Friedman

    @property
    def too_few_datasets(self) -> bool:
        """Fewer than 5 data sets: no sentence about the ranks, no critical-difference
        diagram (the statistic stays in results.json)."""
        return bool(self.friedman.too_few_datasets)


@dataclass(frozen=True, eq=False)
class Result:
    """Everything computed for a spec; every sink (JSON, HTML, PDF) prints this.

    Made by :func:`evalreport.evaluate`; :func:`evalreport.render` writes its
    report. ``learners`` maps each learner's results.json key to its
    :class:`LearnerResult` (binary tasks; ``summary``, ``at_threshold``,
    ``values``, ...) or :class:`MulticlassLearnerResult`; ``gates`` are the
    spec's gates with their values and outcomes; ``comparisons`` the tests
    between learners; ``warnings`` every warning of the run. In Jupyter a
    result shows page one of its report; ``to_dict``, ``to_frame`` and
    ``comparisons_frame`` give its numbers as a dict and DataFrames.

    Examples
    --------
    >>> import evalreport, pyarrow as pa
    >>> table = pa.table({"y": [0, 0, 1, 1, 0, 1, 0, 1], "A": [.1, .4, .35, .8, .2, .7, .3, .9],
    ...                   "B": [.5, .1, .6, .4, .3, .2, .7, .8]})
    >>> spec = {"version": 1, "task": "binary", "positive": 1, "confidence": {"bootstrap": 0},
    ...         "gates": [{"metric": "auc", "min": 0.8}],
    ...         "data": [{"table": "test", "label": "y", "learners": {"A": "A", "B": "B"}}]}
    >>> result = evalreport.evaluate(spec, data={"test": table})
    >>> result
    <evalreport.Result 'Evaluation report': binary, 2 learner(s) (A, B)>
    Not fit. The status is the worst of the learners' (no learner is named deployed). Each learner is judged at its deployed threshold, at the sample's share of positives, p(+) = 0.500. By AUC, A ranks first (0.938 [0.764, 1.000]); B (0.625 [0.178, 1.000], p = 0.27) cannot be told apart from it at the 5% level (DeLong's test, Holm-adjusted): no single learner is recommended on this evidence.
    >>> result.learners["A"].summary.auc, result.learners["A"].values["accuracy"]
    (0.9375, 0.875)
    """

    spec: Spec
    version: str
    date: str
    inputs: list[dict]
    operating_point: OperatingPointSpec | None  # binary tasks only
    learners: dict  # key -> the task's learner result
    gates: list[dict]
    comparisons: list[Comparisons] = field(default_factory=list)
    warnings: list[RunWarning] = field(default_factory=list)
    friedman: AcrossDatasets | None = None  # across data sets
    task: Task | None = None  # what differs between binary and multi-class tasks
    #: with history: in the spec, results.json's ``history`` block: the changes since the
    #: previous run, the drift, and the kept runs' headline values (evalreport.history)
    history: dict | None = None
    #: the verdict (evalreport.verdict.Verdict): the statuses, the leader, the findings,
    #: decided once from everything above; every sink prints it
    verdict: Any = None
    #: with report.attach naming data: what the PDF attaches of the data
    #: (evalreport.attachments.DataFile), results.json's ``attachments``
    attached_data: tuple = ()
    #: built once by the pipeline, as each stage can (None in a Result built by hand:
    #: their readers then build them), so that every sink only reads them: the
    #: leaderboard block (compare.leaderboard.leaderboard), results.json up to the
    #: comparisons (results.result_core) and the free texts as published, credentials
    #: redacted (redact.Published)
    leaderboard: dict | None = None
    json_core: dict | None = None
    published: Any = None

    @property
    def gates_passed(self) -> bool:
        """Whether no gate failed, was inconclusive or could not be checked (True
        without gates): the command line's exit status 0. A gate on the change since
        the previous run with nothing to compare with (the archive's first run) does
        not count against it.

        Examples
        --------
        >>> import evalreport, pyarrow as pa
        >>> table = pa.table({"y": [0, 0, 1, 1, 0, 1, 0, 1], "A": [.1, .4, .35, .8, .2, .7, .3, .9],
        ...                   "B": [.5, .1, .6, .4, .3, .2, .7, .8]})
        >>> spec = {"version": 1, "task": "binary", "positive": 1, "confidence": {"bootstrap": 0},
        ...         "gates": [{"metric": "auc", "min": 0.8}],
        ...         "data": [{"table": "test", "label": "y", "learners": {"A": "A", "B": "B"}}]}
        >>> result = evalreport.evaluate(spec, data={"test": table})
        >>> result.gates_passed, [(g["learner"], g["outcome"]) for g in result.gates]
        (False, [('A', 'inconclusive'), ('B', 'fail')])
        """
        return not any(g.get("outcome", "pass" if g["passed"] else "fail") in ("fail", "inconclusive")
                       or (g.get("outcome") == "not_evaluated" and not g.get("note")) for g in self.gates)

    # The notebook's views: each read off what the report builds (results.json's
    # dict, the report's context and templates). The report lends them when it is
    # imported (report/notebook.py calls lend_views; evalreport.evaluate and
    # from_predictions import it), so that this module, which every layer reads,
    # imports no sink.

    def _views(self):
        if not _VIEWS:
            raise TypeError("a Result's views come with the report: import evalreport.report (evalreport.evaluate "
                            "and from_predictions do)")
        return _VIEWS[0]

    def with_intervals(self) -> "Result":
        """The result with every interval computed: this one (evaluated in full);
        :func:`evalreport.evaluate` returns a :class:`evalreport.deferred.DeferredResult`,
        whose intervals are computed on first access or by this method.

        Examples
        --------
        >>> import evalreport
        >>> result = evalreport.from_predictions([0, 1, 1, 0, 1, 0], {"a": [.2, .9, .6, .4, .7, .1]}, positive=1,
        ...                                      confidence={"bootstrap": 200})
        >>> full = result.with_intervals()          # the bootstrap runs now, once
        >>> low, high = full.learners["a"].bootstrap["average_precision"]
        >>> low <= full.learners["a"].values["average_precision"] <= high
        True
        """
        return self

    def to_dict(self) -> dict:
        """results.json as a dict (the file's JSON read back: lists, floats, None).

        Examples
        --------
        >>> import evalreport, pyarrow as pa
        >>> spec = {"version": 1, "task": "binary", "positive": 1, "confidence": {"bootstrap": 0},
        ...         "data": [{"table": "test", "label": "y", "learners": {"A": "p"}}]}
        >>> table = pa.table({"y": [0, 0, 1, 1, 0, 1], "p": [0.1, 0.4, 0.35, 0.8, 0.2, 0.7]})
        >>> result = evalreport.evaluate(spec, data={"test": table})
        >>> round(result.to_dict()["learners"]["A"]["auc"], 4)
        0.8889
        >>> result.to_dict()["inputs"][0]["path"]
        "table 'test'"
        """
        return self._views().to_dict(self)

    def to_frame(self):
        """The per-learner measures as a pandas DataFrame: one row per learner
        (its results.json key), one column per scalar measure (NaN: undefined).

        Raises
        ------
        ImportError
            (an :class:`~evalreport.errors.EvalReportError` too) when pandas is
            not installed: ``pip install evalreport[notebook]``.

        Examples
        --------
        >>> import evalreport, pyarrow as pa
        >>> table = pa.table({"y": [0, 0, 1, 1, 0, 1, 0, 1], "A": [.1, .4, .35, .8, .2, .7, .3, .9],
        ...                   "B": [.5, .1, .6, .4, .3, .2, .7, .8]})
        >>> spec = {"version": 1, "task": "binary", "positive": 1, "confidence": {"bootstrap": 0},
        ...         "gates": [{"metric": "auc", "min": 0.8}],
        ...         "data": [{"table": "test", "label": "y", "learners": {"A": "A", "B": "B"}}]}
        >>> result = evalreport.evaluate(spec, data={"test": table})
        >>> result.to_frame()[["auc", "accuracy"]]              # doctest: +NORMALIZE_WHITESPACE
                    auc  accuracy
        learner
        A        0.9375     0.875
        B        0.6250     0.500
        """
        return self._views().to_frame(self)

    def per_class_frame(self):
        """A multi-class result's measures per class as a pandas DataFrame, like
        scikit-learn's ``classification_report(output_dict=True)``: one row per
        (learner, class), then each learner's ``macro`` and ``micro`` averages;
        columns precision, recall, f1, support, auc, average_precision and
        ``fbeta_<b>`` (NaN: undefined). TypeError for a binary result.

        Examples
        --------
        >>> import evalreport
        >>> result = evalreport.from_predictions([0, 1, 2, 2, 1, 0], {"m": [[.8, .1, .1], [.2, .7, .1],
        ...     [.1, .2, .7], [.3, .3, .4], [.5, .4, .1], [.6, .2, .2]]}, confidence={"bootstrap": 0})
        >>> result.per_class_frame().loc["m", ["precision", "recall"]]  # doctest: +NORMALIZE_WHITESPACE
               precision    recall
        class
        0       0.666667  1.000000
        1       1.000000  0.500000
        2       1.000000  1.000000
        macro   0.888889  0.833333
        micro   0.833333  0.833333
        """
        return self._views().per_class_frame(self)

    def comparisons_frame(self):
        """The tests between pairs of learners (DeLong's, McNemar's, the paired
        t-test) as a pandas DataFrame: one row per test and pair, with results.json's
        keys (``test``, ``a``, ``b``, the statistic, ``p_value``, ``p_holm``, ...).

        Examples
        --------
        >>> import evalreport, pyarrow as pa
        >>> table = pa.table({"y": [0, 0, 1, 1, 0, 1, 0, 1], "A": [.1, .4, .35, .8, .2, .7, .3, .9],
        ...                   "B": [.5, .1, .6, .4, .3, .2, .7, .8]})
        >>> spec = {"version": 1, "task": "binary", "positive": 1, "confidence": {"bootstrap": 0},
        ...         "gates": [{"metric": "auc", "min": 0.8}],
        ...         "data": [{"table": "test", "label": "y", "learners": {"A": "A", "B": "B"}}]}
        >>> result = evalreport.evaluate(spec, data={"test": table})
        >>> result.comparisons_frame()[["test", "a", "b", "p_value"]].round(4)
                  test  a  b  p_value
        0  envelopment  A  B      NaN
        1       delong  A  B   0.2714
        2      mcnemar  A  B   0.3750
        """
        return self._views().comparisons_frame(self)

    def __repr__(self) -> str:
        if self.task is None or not _VIEWS:
            return f"<evalreport.Result {self.spec.title!r}: {len(self.learners)} learner(s)>"
        return self._views().text(self)

    def _repr_html_(self) -> str:
        """Page one of the report, as Jupyter shows a result: the verdict, the
        gates, the headline table and chart, the figures inline SVG and nothing
        fetched (the report's own context and verdict template).

        Examples
        --------
        >>> import evalreport, pyarrow as pa
        >>> table = pa.table({"y": [0, 0, 1, 1, 0, 1, 0, 1], "A": [.1, .4, .35, .8, .2, .7, .3, .9],
        ...                   "B": [.5, .1, .6, .4, .3, .2, .7, .8]})
        >>> spec = {"version": 1, "task": "binary", "positive": 1, "confidence": {"bootstrap": 0},
        ...         "gates": [{"metric": "auc", "min": 0.8}],
        ...         "data": [{"table": "test", "label": "y", "learners": {"A": "A", "B": "B"}}]}
        >>> result = evalreport.evaluate(spec, data={"test": table})
        >>> html = result._repr_html_()
        >>> html.startswith('<div class="evalreport-notebook">'), '<section id="verdict"' in html
        (True, True)
        """
        return self._views().html(self)
