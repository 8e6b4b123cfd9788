"""The report's values as the templates read them: a typed, frozen context.

The builders (report/context.py for what every report has, report/binary.py and
report/multiclass.py for the task's own) prepare every value, numbers formatted
and sentences assembled; :func:`context_of` then freezes them into a
:class:`ReportContext`, which refuses a name it does not declare (a builder's
typo fails at once), and the templates, rendered with undefined names as errors
(Jinja's StrictUndefined, report/html.py), only print its fields. A field the
other task has no use for keeps its empty default.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .family import FamilyTable

__all__ = ["ReportContext", "VerdictContext", "SignificanceContext", "LeaderboardContext", "HistoryContext",
           "CalibrationContext", "ConfigurationsContext", "QuickViewContext", "context_of",
           "NamedCells", "PairMatrix", "Ranking", "PopulationRow", "PopulationTable"]


# -- rows the binary and the multi-class builders share (report/binary.py, report/multiclass.py)

@dataclass(frozen=True)
class NamedCells:
    """A table row headed by a name (a group, a class, a learner of the envelopment
    matrix or of the notebook's quick view, the share flagged in the gains table):
    the name, then its cells."""

    name: str
    cells: list


@dataclass(frozen=True)
class PairMatrix:
    """A value for each pair of one data set's learners, as a matrix (rows a, columns
    b): the binary envelopment (report/binary.py), DeLong's p-values
    (report/significance.py)."""

    dataset: str | None  # None or "" with one data set
    names: list[str]  # the columns' learners
    rows: list[NamedCells]


@dataclass(frozen=True)
class Ranking:
    """One ranking as a line: the learners by one measure on one data set."""

    dataset: str  # "" with one data set
    measure: str  # the measure's ranking label
    order: str  # "a > b > c"


@dataclass(frozen=True)
class PopulationRow:
    """A learner's row of the population table (with priors)."""

    key: str
    color: str
    population: list  # its cells, one per column


@dataclass(frozen=True)
class PopulationTable:
    columns: list
    rows: list[PopulationRow]
    p: str = ""  # binary: the priors' p(+) as given ("" for a multi-class task, which has no one share)


@dataclass(frozen=True)
class VerdictContext:
    """Page one's verdict (report/verdicts.py's ``page_one``, then the sentences the
    builders add): the status, the deployed learners, the findings, the gates."""

    sentences: list
    gates: list
    gate_summary: str
    gates_failed: bool
    recommendation: str = ""
    #: the comparisons' technical sentences (envelopment, crossings): the comparisons section
    details: list = field(default_factory=list)
    #: page one's table and chart (report/headline.py); None: no learner has a value
    headline: Any = None
    status: str = ""
    status_words: str = ""
    status_sentence: str = ""
    learners: list = field(default_factory=list)
    findings: list = field(default_factory=list)
    findings_more: str = ""
    suggestions: str = ""
    leader: str = ""
    challengers: list = field(default_factory=list)


@dataclass(frozen=True)
class SignificanceContext:
    """The tests of significance between pairs of learners (report/significance.py's
    ``tests_section``): the table's rows and columns, the sentences, the assumptions."""

    rows: list
    sentences: list  # for the verdict: who is significantly better
    matrices: list  # DeLong's Holm-adjusted p-values as a matrix per data set (many pairs)
    friedman: Any  # across data sets: the paragraph and the diagram (significance.py's FriedmanSection; None)
    level: str
    ran: list  # the tests the rows hold: "delong", "mcnemar", "paired_t"
    summarised: bool  # many learners: the pairs that matter
    best: str
    pairs: int
    holm: bool  # the p-values are adjusted by Holm's method
    level_pct: str
    mcnemar_method: str
    bootstrap: bool
    has_t: bool
    delong_columns: int
    mcnemar_columns: int
    rows_shown: int
    assumptions: str


@dataclass(frozen=True)
class LeaderboardContext:
    """Every learner ranked by the primary measure, from a dozen learners on
    (report/leaderboard.py's ``leaderboard_section``)."""

    columns: list
    measure: str  # the ranked measure's label
    direction: str
    interval: str  # which interval the rows give
    others: list  # the task's other ranked measures, beside it
    rows: list
    several: bool  # several data sets: each ranked apart
    test: str  # the test against the best, in words
    significant: Any
    alpha: str
    compared: int  # the comparisons with the best
    rule: str  # when the report shows it
    figure: Any = ""  # the ROC band of the learners not drawn in colour (binary, past a handful)
    significant_verb: str = "are"  # agrees with ``significant``: "1 is", "3 are"
    figure_caption: str = ""


@dataclass(frozen=True)
class HistoryContext:
    """"Since the last run" (report/history.py's ``history_context``): the changes,
    the drift, the class balance, the trend over the kept runs."""

    previous: dict | None  # the previous run's date and title
    changes: list
    drift: list
    balances: list
    tested: int  # the changes with a p-value
    methods: list
    psi_low: str
    psi_high: str
    level: str
    alpha: str
    runs: int  # the kept runs drawn
    first: str | None  # the first kept run's date
    figure: Any
    sentences: list
    by_class: bool  # drift of each class's score column (multi-class)
    chain: Any  # report/history.py's ChainLine: the previous run's results.json by its sha256 (None: no previous)
    caption: str = ""  # the trend figure's: the task's builder gives it


@dataclass(frozen=True)
class CalibrationContext:
    """The calibration section (report/calibration.py): the table, the reliability
    diagrams, the binning."""

    columns: list
    rows: list
    notes: list
    diagrams: list  # the rows whose reliability diagram is drawn
    bins: int
    strategy: str  # "equal-width" or "equal-mass"
    top_label: bool  # multi-class: the top label's calibration
    poor: str  # the ECE above which the verdict calls a calibration poor


@dataclass(frozen=True)
class ConfigurationsContext:
    """With ``data[].replicates``: the configurations, ranked by their mean
    (report/configurations.py)."""

    columns: list
    rows: list
    several: bool  # several data sets
    measure: str
    direction: str
    learners: str
    configurations: str
    replicates: str  # the replicates of each ("3", or "2 to 4")
    part: str  # what tells the replicates apart ("seed")
    partial: list  # the measures undefined on some replicates


@dataclass(frozen=True)
class ReportContext:
    """Every value the page templates print (report.html.j2, notebook.html.j2 and
    their sections), by name."""

    # -- what every report has (report/context.py)
    title: str
    description: Any  # the spec's description as safe HTML (markupsafe.Markup)
    date: str
    version: str
    task: str  # the task's name, printed in the page's header line (never compared)
    verdict: VerdictContext
    inputs: list
    spec_text: str
    spec_lines: list
    spec_fold_mark: str
    spec_redacted: str
    warnings: list  # the evaluation's (as results.json lists them), then the figures'
    gates: list
    learner_count: int
    learner_pairs: int  # the pairs of learners (the heatmaps' note)
    long_tables: bool  # many learners: the measure tables may break across pages (print.css)
    tests: SignificanceContext
    leaderboard: LeaderboardContext | None
    configurations: ConfigurationsContext | None
    history: HistoryContext | None
    #: the page's header line: {"name": "positive label" | "classes", "value": text}
    labels: dict
    #: the task's own sections of the page, after the provenance (template names)
    task_sections: tuple
    figures: dict
    learners: list = field(default_factory=list)
    positive: str = ""
    operating_point: Any = None  # binary: report/binary_rows.py's OperatingPointText
    balance: list = field(default_factory=list)
    class_balance: list = field(default_factory=list)
    matrix: list = field(default_factory=list)
    rankings: list = field(default_factory=list)
    rankings_agreed: Any = None
    rankings_disagree: bool = False
    envelope: list = field(default_factory=list)
    envelope_infinite: bool = False  # a stretch of the cost envelope at the threshold +inf
    at_notes: list = field(default_factory=list)
    rank_notes: list = field(default_factory=list)
    summary_notes: list = field(default_factory=list)
    calibration: CalibrationContext | None = None
    family: FamilyTable | None = None
    population: PopulationTable | None = None
    pair_heatmaps: Any = None
    definitions: list = field(default_factory=list)
    works: list = field(default_factory=list)
    works_brief: list = field(default_factory=list)
    glossary: list = field(default_factory=list)
    #: the warnings raised while the figures were drawn (in ``warnings`` too; not in results.json)
    figure_warnings: list = field(default_factory=list)
    # -- prepared from the builders' values (report/prepared.py): what templates used to work out
    #: the curves' captions by figure ("roc", "roc_log", "pr", "cost"; "thirds": the three under one)
    curve_captions: dict = field(default_factory=dict)
    confusion_captions: dict = field(default_factory=dict)  # multi-class: "counts", "shares"
    curves_note: str = ""  # the note on curves drawn through part of their points ("" for none)
    detailed: list = field(default_factory=list)  # the learners' rows whose detail is drawn
    detail_partial: bool = False  # some learners' detail is not drawn: a note says so
    grouped: list = field(default_factory=list)  # the binary learners' rows with per-group tables
    roc_figures: list = field(default_factory=list)  # multi-class: a CaptionedFigure per learner drawn (prepared.py)
    works_text: str = ""  # the works cited short, one text
    works_brief_text: str = ""  # the main works, for the PDF's glossary
    #: the appendix's entries (name -> text): the full definitions, or with attachments
    #: the one-line glossary (``appendix_brief``), chosen by :meth:`rendered`
    appendix_entries: dict = field(default_factory=dict)
    appendix_brief: bool = False
    # -- a binary report's (report/binary.py)
    at_columns: list = field(default_factory=list)
    rank_columns: list = field(default_factory=list)
    #: the measures over every threshold: a table per group of columns (ranking, cost)
    rank_tables: list = field(default_factory=list)
    test_share: str = ""
    sample_label: str = ""
    threshold_notes: str = ""
    operating: Any = None  # report/operating.py's OperatingSection (None: no operating points)
    slices: list = field(default_factory=list)
    slice_columns: list = field(default_factory=list)
    slices_min: Any = None
    # -- a multi-class report's (report/multiclass.py)
    classes: list = field(default_factory=list)
    mc_columns: list = field(default_factory=list)
    class_columns: list = field(default_factory=list)
    mc_learners: list = field(default_factory=list)
    priors_text: str = ""
    # -- the render's (report/html.py): what the file carries
    attachments: bool = False
    results_sha256: str = ""
    attached_note: str = ""

    def names(self) -> dict:
        """The fields by name, as Jinja takes a template's variables (shallow: the
        values themselves, not copies)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def rendered(self, **values) -> "ReportContext":
        """This context with the render's values (``attachments``, ...), and what they
        choose: with attachments (the PDF) the appendix's one-line glossary, where there
        is one, and the heatmaps without their hover titles."""
        done = replace(self, **values)
        brief = bool(done.attachments and done.glossary)
        heatmaps = done.pair_heatmaps and [
            replace(h, shown=h.svg_print if done.attachments else h.svg) for h in done.pair_heatmaps]
        return replace(done, appendix_brief=brief, appendix_entries=done.glossary if brief else done.definitions,
                       pair_heatmaps=heatmaps)


def context_of(values: dict) -> ReportContext:
    """The builders' values, frozen: a TypeError names any value the context does
    not declare, or a declared one without a default that no builder gave."""
    blocks = {"verdict": VerdictContext, "tests": SignificanceContext, "leaderboard": LeaderboardContext,
              "history": HistoryContext, "calibration": CalibrationContext,
              "configurations": ConfigurationsContext}
    return ReportContext(**{**values, **{name: None if values[name] is None else typed(**values[name])
                                         for name, typed in blocks.items()}})


@dataclass(frozen=True)
class QuickViewContext:
    """What ``notebook_quick.html.j2`` prints: a deferred result's header line and its
    learners' point values, before its intervals are computed
    (report/notebook.py's ``point_values_context``)."""

    title: str
    date: str
    version: str
    task: str
    #: the header line's label: {"name": "positive label" | "classes", "value": ...}
    labels: dict
    #: "2,000" when intervals will come from that many resamples; "" when none are asked
    resamples: str
    columns: list  # each a format.Column (its label and the way it is better)
    rows: list[NamedCells]  # a learner's name, then its point values' texts
    caption: str = ""

    def names(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}
