"""The rows and tables of a binary report (report/binary.py builds them): frozen,
so that a builder's misspelt field fails where the row is made, not when a
template happens to read it."""

from __future__ import annotations

from dataclasses import dataclass

from .format import Column
from .page import NamedCells

__all__ = ["ConfusionCells", "BinaryLearnerRow", "GroupTable", "RankTable", "RankTableRow", "BalanceRow", "OperatingPointText",
           "EnvelopeRow"]


@dataclass(frozen=True)
class GroupTable:
    """A learner's per-group table (its confusion matrix per group at its threshold)."""

    columns: list[str]  # the headings
    rows: list[NamedCells]  # one per group
    mean: list  # the mean's cells over the groups where a value is defined
    sd: list  # the standard deviation's (n - 1)
    averages: str  # the macro and micro averages, in words


@dataclass(frozen=True)
class ConfusionCells:
    """A 2 x 2 confusion matrix's four cells: the counts' texts, or each count's
    share of all the instances (a whole percent, the bar under the count)."""

    tp: str | int
    fp: str | int
    tn: str | int
    fn: str | int


@dataclass(frozen=True)
class BinaryLearnerRow:
    """A learner's row of the binary measure tables, and its detail blocks."""

    key: str
    color: str
    source: str  # its predictions' file, redacted
    dataset: str  # "" with one data set
    hard: bool  # hard decisions: no scores
    threshold_note: str  # where its threshold comes from
    at: list  # the cells at the threshold, one per at-column (texts, then Cells)
    rank: list  # the cells over every threshold, one per rank-column (texts, then Cells)
    n: str
    positives: str
    negatives: str
    confusion: ConfusionCells  # the counts' texts
    confusion_share: ConfusionCells  # each count's share of all the instances, in %
    curves_note: str  # how its curves are drawn through part of their points ("" for all)
    groups: GroupTable | None  # with groups and its detail drawn
    detail: bool  # its confusion matrix is drawn


@dataclass(frozen=True)
class RankTableRow:
    learner: BinaryLearnerRow
    cells: list  # the learner's cells of the table's columns


@dataclass(frozen=True)
class RankTable:
    """The measures over every threshold of one group of columns (ranking, cost)."""

    title: str
    columns: list[Column]
    rows: list[RankTableRow]


@dataclass(frozen=True)
class BalanceRow:
    """The provenance's class balance: a file's counts and the learners that read it."""

    file: str
    positives: str
    negatives: str
    share: str  # the positives' share
    learners: str  # their keys, joined


@dataclass(frozen=True)
class OperatingPointText:
    """The spec's operating point as given (not measured values)."""

    p: str  # p(+)
    p_source: str  # "spec priors" or "the data's own share"
    cost_fn: str
    cost_fp: str
    pc: str  # PC(+), the probability cost


@dataclass(frozen=True)
class EnvelopeRow:
    """A run of one learner along the cost envelope."""

    learner: str
    color: str
    threshold: str  # its threshold, or their range
    pc_from: str  # the run's PC(+) interval
    pc_to: str
    dataset: str
    infinite: bool  # a threshold of the run is +inf (the page's note on it)
