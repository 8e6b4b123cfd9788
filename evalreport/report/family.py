"""The report's table of the confusion-matrix family (metrics.family): its columns
are the registry's scalars of section "family" the spec's metrics ask for, its
cells marked by the warnings about them, as in the other measure tables."""

from __future__ import annotations

from .. import registry
from .format import Column, measure_text
from .notes import cells_with_notes

__all__ = ["family_table"]


def family_table(result, learners: list[dict], title: str, note: str) -> dict | None:
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
    rows = [{"key": row["key"], "color": row["color"],
             "family": [measure_text(c.key, lr.values.get(c.key), table=True) for c in columns]}
            for row, lr in zip(learners, result.learners.values())]
    notes = cells_with_notes(result, rows, "family", columns)
    return {"title": title, "columns": columns, "rows": rows, "notes": notes, "note": note}
