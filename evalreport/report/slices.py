"""The report's section "Subgroup slices": per learner and slice column, a table
of the column's values by a readable subset of the measures (each with its
interval and its gap to the whole population), values too small to compare
marked (and given no gap), undefined values marked with the reason under the
table; then the parity differences with their intervals, over the values not too
small, which are named. results.json holds every measure of every slice."""

from __future__ import annotations

from dataclasses import dataclass

from ..metrics.slices import too_small_text
from .format import UNDEFINED, Column, fmt, measure_column, measure_interval_text, signed
from .notes import CellNote

__all__ = ["slices_section", "SLICE_COLUMNS", "SliceCell", "SliceRow", "ParityRow", "SliceTable", "LearnerSlices"]


@dataclass(frozen=True)
class SliceCell:
    """A measure on one slice value: its value, interval and gap to the whole."""

    text: str
    interval: str  # "[low, high]", or ""
    gap: str  # slice − whole, signed; "" for a value too small to compare
    mark: str = ""  # the mark of the note on why the value is undefined
    note: str = ""


@dataclass(frozen=True)
class SliceRow:
    name: str  # the slice column's value
    small: bool  # too small to compare: shown, not compared
    n: str
    positives: str
    cells: list[SliceCell]


@dataclass(frozen=True)
class ParityRow:
    """A parity difference over the values not too small."""

    label: str
    value: str
    interval: str  # "" without one
    between: str  # the two values it is between ("a vs b"), or ""
    left_out: str  # the values too small, joined


@dataclass(frozen=True)
class SliceTable:
    """A learner's table of one slice column."""

    column: str
    rows: list[SliceRow]
    notes: list[CellNote]  # why values are undefined
    parity: list[ParityRow]
    level: str  # the spec's own number
    resamples: str
    too_small: str  # the values left out of the parity differences, in words
    intervals: bool  # the parities have bootstrap intervals


@dataclass(frozen=True)
class LearnerSlices:
    key: str
    color: str
    tables: list[SliceTable]

#: the table's columns: (key, heading, better); keys are registry names (heading and
#: direction the registry's, but recall's heading names the TPR the parity compares),
#: fpr read off the slice's rates, and selection_rate, which is no measure of its own
SLICE_COLUMNS = tuple((c.key, c.label, c.better) for c in (
    measure_column("auc"), measure_column("accuracy"), measure_column("recall", "recall (TPR)"),
    measure_column("fpr"), Column("selection_rate", "selection rate", ""), measure_column("precision")))
#: where a column's undefined value is explained (the engine's names of its reasons)
_REASON_OF = {"auc": ("auc",), "accuracy": ("accuracy",), "recall": ("recall",), "fpr": ("fpr",),
              "selection_rate": ("accuracy",), "precision": ("precision",)}


def _gap(value) -> str:
    if value is None:
        return ""
    return signed(fmt(abs(value), table=True), value, minus="−", zero="±")


def _reasons(sub) -> dict[str, str]:
    why = {} if sub.hard else dict(sub.summary.undefined)
    why.update({k.split("[")[0]: v for k, v in sub.at_threshold.undefined.items()})
    if sub.hard:
        why.setdefault("auc", "hard decisions only: no ranking")
    return why


def _table(column, marks: dict, notes: list[CellNote]) -> list[SliceRow]:
    rows = []
    for v in column.values:
        sub = v.learner
        why = _reasons(sub)
        cells = []
        for key, _, _ in SLICE_COLUMNS:
            if key in ("fpr", "selection_rate"):
                value, interval, gap = v.rates[key]
            else:
                value, interval, gap = sub.values.get(key), v.intervals.get(key), v.gaps.get(key)
            text, _, ends = measure_interval_text(key, value, interval, table=True).partition(" [")
            # a value too small to compare is shown, but not compared with the whole
            note = "" if value is not None else next(
                (f"{v.value}: {why[r]}" for r in _REASON_OF[key] if r in why), "")
            if note and note not in marks:
                marks[note] = str(len(marks) + 1)
                notes.append(CellNote(marks[note], note))
            cells.append(SliceCell(text, f"[{ends}" if ends else "", "" if v.small else _gap(gap),
                                   mark=marks[note] if note else "", note=note))
        rows.append(SliceRow(v.value, v.small, fmt(int(sub.summary.n)), fmt(sub.summary.positives), cells))
    return rows


def _parity(column) -> list[ParityRow]:
    out = []
    for name, p in column.parity.items():
        interval = "" if p.interval is None or None in p.interval else \
            f"[{fmt(p.interval[0])}, {fmt(p.interval[1])}]"
        out.append(ParityRow(label=name.replace("_", " "), value=fmt(p.value) if p.value is not None
                             else UNDEFINED, interval=interval,
                             between="" if p.between is None else f"{p.between[0]} vs {p.between[1]}",
                             left_out=", ".join(p.left_out)))
    return out


def _too_small(column) -> str:
    """The values left out of the parity differences: "islands (n = 27, 5 positives)"."""
    return ", ".join(too_small_text(v.value, v.rows, v.positive_rows) for v in column.values if v.small)


def slices_section(result, styles: dict) -> dict:
    """The section's template values: ``slices`` (one entry per learner with slices,
    one table per slice column; [] without slices: no section)."""
    out, slices_min = [], None
    for key, lr in result.learners.items():
        if not lr.slices:
            continue
        tables = []
        for column in lr.slices.values():
            slices_min = column.slices_min
            marks: dict[str, str] = {}
            notes: list[CellNote] = []
            rows = _table(column, marks, notes)
            tables.append(SliceTable(column.column, rows, notes, _parity(column), level=fmt(column.level, 6),
                                     resamples=fmt(column.resamples), too_small=_too_small(column),
                                     intervals=bool(column.resamples)))
        out.append(LearnerSlices(key, styles[key]["color"], tables))
    return {"slices": out, "slice_columns": [Column(k, label, better) for k, label, better in SLICE_COLUMNS],
            "slices_min": slices_min}
