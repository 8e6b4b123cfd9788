"""Warnings beside the numbers they concern.

Each warning of the run that names a learner and a measure (evalreport.result.
RunWarning) marks that learner's cell of that measure in the report's tables, and
is printed under the table with the same mark; the full list stays in the
warnings section.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..redact import published
from .format import Cell

__all__ = ["CellNote", "cells_with_notes", "column_measures"]


@dataclass(frozen=True)
class CellNote:
    """A warning printed under a table, with the mark of the cells it concerns."""

    mark: str  # "1", "2", ...: the mark beside the cells
    text: str


#: columns whose value is also what another registry name reads: the least-cost
#: threshold belongs to the least cost; a multi-class task's gates on f1 and auc
#: read macro-F1 and macro AUC; the calibration measures share their warnings
ALSO = {"op_threshold": ("min_cost",), "macro_f1": ("macro_f1", "f1"), "macro_auc": ("macro_auc", "auc"),
        # a warning on a learner's calibration concerns its three measures
        **{k: (k, "calibration") for k in ("brier", "log_loss", "ece")}}


def column_measures(key: str) -> tuple[str, ...]:
    """The registry measures a table column shows (F-beta columns are fbeta_<b>)."""
    if key.startswith("fbeta_"):
        return ("fbeta",)
    return ALSO.get(key, (key,))


def _concerning(result) -> dict[tuple[str, str], list[str]]:
    """(learner key, measure) -> the published (redacted) texts of its warnings."""
    out: dict[tuple[str, str], list[str]] = {}
    for record, text in zip(result.warnings, published(result).warnings):
        learner, measure = getattr(record, "learner", None), getattr(record, "measure", None)
        if learner is not None and measure is not None:
            out.setdefault((learner, measure), []).append(text)
    return out


def cells_with_notes(result, rows: list, field: str, columns) -> tuple[list, list[CellNote]]:
    """Each learner's row (a frozen dataclass with ``key`` and ``field``) with
    ``field`` (one text per column) turned into cells, marking those a warning
    concerns; and the notes to print under the table, in the order of the marks."""
    concerning = _concerning(result)
    notes: list[CellNote] = []
    marks: dict[str, str] = {}
    out = []
    for row in rows:
        cells = []
        for column, text in zip(columns, getattr(row, field)):
            said = [text for m in column_measures(column.key) for text in concerning.get((row.key, m), [])]
            if not said:
                cells.append(Cell(text))
                continue
            note = "; ".join(said)
            if note not in marks:
                marks[note] = str(len(marks) + 1)
                notes.append(CellNote(marks[note], note))
            cells.append(Cell(text, note, marks[note]))
        out.append(replace(row, **{field: cells}))
    return out, notes
