"""The report's values for the operating points: the threshold table of the spec's
``thresholds:`` (one row per learner and operating point), the cumulative gains and
lift by decile, and their figure. Every number is in results.json; the tables show
a subset that fits a page."""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from ..figures import gains_figures
from ..metrics.operating_table import gains_note, row_note
from ..redact import published
from .format import UNDEFINED, Cell, Column, fmt, measure_column, percent
from .notes import CellNote
from .page import NamedCells

__all__ = ["operating_context", "ROW_COLUMNS", "GAINS_COLUMNS", "ThresholdRow", "LearnerName",
           "GainsTable", "OperatingSection"]


@dataclass(frozen=True)
class ThresholdRow:
    """A learner's row of the threshold table at one operating point."""

    key: str
    color: str
    first: bool  # the learner's first row: it heads the learner's rows
    span: int  # the learner's rows
    label: str  # the operating point ("top 10% flagged", ...)
    cells: list[Cell]


@dataclass(frozen=True)
class LearnerName:
    """A learner as a table's heading names it: its key and colour."""

    key: str
    color: str


@dataclass(frozen=True)
class GainsTable:
    """The gains and lift of a few learners side by side, by decile."""

    learners: list[LearnerName]
    rows: list[NamedCells]  # a row per decile, headed by the share flagged


@dataclass(frozen=True)
class OperatingSection:
    columns: list[Column]  # the threshold table's, after the operating point
    rows: list[ThresholdRow]
    row_notes: list[CellNote]
    gains_columns: list[str]  # each learner's headings in the gains table
    gains_span: int  # the columns under each learner's heading
    gains: list[GainsTable]
    gains_notes: list[CellNote]
    figures: list  # the gains and the lift (Markup); [] without gains

#: the threshold table's measures shown (the rest are in results.json: a page's width);
#: their headings and directions are the registry's
ROW_SHOWN = ("precision", "recall", "fpr", "npv", "f1", "mcc", "balanced_accuracy")
#: the threshold table's columns after the operating point: (key, heading, better)
ROW_COLUMNS = (("threshold", "threshold", ""), ("flagged", "flagged", ""), *ROW_SHOWN)
#: each learner's columns in the gains table: (key, heading)
GAINS_COLUMNS = (("captured", "captured"), ("lift", "lift"), ("response_rate", "decile response"))
#: the most learners side by side in one gains table (three columns each: a page's width)
LEARNERS_PER_TABLE = 4


class _Marks:
    """Notes under a table, numbered in the order their cells are marked."""

    def __init__(self):
        self.notes: list[CellNote] = []
        self._marks: dict[str, str] = {}

    def cell(self, text: str, note: str) -> Cell:
        """The cell, marked with ``note`` when its value is undefined."""
        if text != UNDEFINED or not note:
            return Cell(text)
        if note not in self._marks:
            self._marks[note] = str(len(self._marks) + 1)
            self.notes.append(CellNote(self._marks[note], note))
        return Cell(text, note, self._marks[note])


def _published_notes(result) -> dict[tuple[str, str], str]:
    """(learner key, the note of metrics.operating_table) -> the published (redacted)
    text of the warning that says it ("learner 'key': note")."""
    return {(w.learner, w.message.removeprefix(f"learner '{w.learner}': ")): text
            for w, text in zip(result.warnings, published(result).warnings)
            if getattr(w, "measure", None) in ("threshold_table", "gains")}


def _share(value) -> str:
    return percent(value)


def _row_cells(lr, row, note: str, marks: _Marks) -> list[Cell]:
    texts = {
        "threshold": UNDEFINED if row.threshold is None else lr.threshold_text(row.threshold),
        "flagged": _share(row.flagged),
        **{k: fmt(row.values.get(k), table=True) for k in ROW_SHOWN},
    }
    return [marks.cell(texts[k], note) for k in ("threshold", "flagged", *ROW_SHOWN)]


def _threshold_rows(result, learners, styles, notes) -> tuple[list[ThresholdRow], list[CellNote]]:
    marks, rows = _Marks(), []
    for key, lr in learners.items():
        table = lr.operating_table.rows
        for i, row in enumerate(table):
            note = notes.get((key, row_note(row)), "")
            rows.append(ThresholdRow(key, styles[key]["color"], first=i == 0, span=len(table), label=row.label,
                                     cells=_row_cells(lr, row, note, marks)))
    return rows, marks.notes


def _gains_tables(learners, styles, notes) -> tuple[list[GainsTable], list[CellNote]]:
    marks, tables = _Marks(), []
    keys = list(learners)
    n_tables = -(-len(keys) // LEARNERS_PER_TABLE)
    per_table = -(-len(keys) // n_tables)  # balanced: 5 learners are 3 and 2, not 4 and 1
    for start in range(0, len(keys), per_table):
        chunk = keys[start:start + per_table]
        rows = []
        for d in range(len(learners[chunk[0]].operating_table.gains)):
            cells = []
            for key in chunk:
                table = learners[key].operating_table
                g = table.gains[d]
                note = notes.get((key, gains_note(table)), "")
                cells += [marks.cell(fmt(getattr(g, k), table=True), note) for k, _ in GAINS_COLUMNS]
            rows.append(NamedCells(_share(learners[chunk[0]].operating_table.gains[d].flagged), cells))
        tables.append(GainsTable([LearnerName(k, styles[k]["color"]) for k in chunk], rows))
    return tables, marks.notes


def operating_context(result, styles) -> OperatingSection | None:
    """The section's values (None when no learner has a ranking or the spec's
    metrics ask for neither table)."""
    metrics = result.spec.metric_set
    learners = {k: lr for k, lr in result.learners.items() if lr.operating_table is not None}
    with_table = result.spec.thresholds is not None and "threshold_table" in metrics
    with_gains = "gains" in metrics
    if not learners or not (with_table or with_gains):
        return None
    notes = _published_notes(result)
    rows, row_notes = _threshold_rows(result, learners, styles, notes) if with_table else ([], [])
    gains, gains_notes = _gains_tables(learners, styles, notes) if with_gains else ([], [])
    return OperatingSection(
        columns=[Column(k, label, better) for k, label, better in ROW_COLUMNS[:2]]
        + [measure_column(k) for k in ROW_SHOWN],
        rows=rows, row_notes=row_notes,
        gains_columns=[label for _, label in GAINS_COLUMNS],
        gains_span=len(GAINS_COLUMNS),
        gains=gains, gains_notes=gains_notes,
        # the gains and the lift, two figures (a row in print, one under the other on a phone)
        figures=[Markup(svg) for svg in gains_figures(result, styles)] if with_gains else [],
    )
