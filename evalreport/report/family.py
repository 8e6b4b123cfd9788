"""The report's table of the confusion-matrix family (metrics.family): its columns
are the registry's scalars of section "family" the spec's metrics ask for, its
cells marked by the warnings about them, as in the other measure tables."""

from __future__ import annotations

from dataclasses import dataclass

from .. import registry
from .format import Column, measure_text
from .notes import CellNote, cells_with_notes

__all__ = ["FamilyRow", "FamilyTable", "family_table"]


@dataclass(frozen=True)
class FamilyRow:
    """A learner's row of the family's table."""

    key: str
    color: str
    family: list  # one text per column, then (cells_with_notes) one Cell


@dataclass(frozen=True)
class FamilyTable:
    title: str
    columns: list[Column]
    rows: list[FamilyRow]
    notes: list[CellNote]
    note: str  # the task's words under the table


def family_table(result, learners: list, title: str, note: str) -> FamilyTable | None:
    """``learners``: the report's rows (``key``, ``color``), in the order of
    ``result.learners``; ``title`` and ``note``: the task's words on the table (the
    task's builder, report/binary.py or report/multiclass.py, gives them). None when
    the spec's metrics leave the whole family out."""
    task = result.task.name
    metrics = result.spec.metric_set
    columns = [Column(m.name, m.label, "" if m.direction == "none" else m.direction)
               for m in registry.measures_for(task, *registry.SCALAR_KINDS)
               if m.section == "family" and task in m.compute and m.name in metrics]
    if not columns:
        return None
    rows = [FamilyRow(row.key, row.color, [measure_text(c.key, lr.values.get(c.key), table=True) for c in columns])
            for row, lr in zip(learners, result.learners.values())]
    rows, notes = cells_with_notes(result, rows, "family", columns)
    return FamilyTable(title, columns, rows, notes, note)
