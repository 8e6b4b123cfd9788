"""Threshold tables and cumulative gains: read off a learner's count table.

A **threshold table** gives the confusion-matrix family at operating points the
spec names (``thresholds: {at, top_fraction, recall, fpr}``): each point is one
row of the count table (the classifier "positive iff score >= threshold"), found
by bisection on its cumulative columns, so a table formed lazily
(:class:`~evalreport.counting.table.UnitStepTable`) is read at a few dozen rows
only, and an aggregated one (DuckDB, Spark) is read as it is.

- ``at`` t: the row of threshold t itself.
- ``top_fraction`` q: the highest threshold whose flagged (weighted) share is
  >= q. Ties are never split: a tied block is flagged whole, so the share
  reached may exceed q (it is given).
- ``recall`` r: the highest threshold whose recall is >= r.
- ``fpr`` f: the lowest threshold whose FPR is <= f (the most flagged within the
  FPR budget); +inf (nothing flagged) when even the top score's block is over it.

**Cumulative gains** by decile: flagging the top q = 0.1, ..., 1.0 of the
(weighted) instances by score, the share of the positives captured, the lift
(captured / q) and the decile's own response rate (its positives' weight over
its weight). A tied block straddling a decile's boundary counts with its
expected share: linear inside the block, as the ROC curve's diagonal segment
across a tie (the average over the block's orders).

A streamed count table reduced to some of its rows (DuckDB, long tables) is exact
only at the rows kept: a point found between two kept rows that were not next to
each other in the exact table is undefined, with that reason.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .binary import measures_at_row
from .family import FAMILY, family_at
from .frozen import FrozenMapping
from ..counting.table import CountTable

__all__ = ["KINDS", "ROW_MEASURES", "DECILES", "OperatingRow", "GainsRow", "OperatingTable",
           "operating_table", "row_label", "row_note", "gains_note"]

#: the kinds of operating point, in the order of the spec's key and of the table
KINDS = ("at", "top_fraction", "recall", "fpr")
#: the measures of each row (after the counts), in the order of results.json
ROW_MEASURES = ("accuracy", "error_rate", "precision", "recall", "f1") + FAMILY
DECILES = 10


@dataclass(frozen=True)
class OperatingRow:
    """One operating point: its kind and target, the threshold found (+inf: nothing
    flagged; None: the point is undefined, ``undefined['row']`` says why), the share
    flagged, the counts and :data:`ROW_MEASURES` (name -> value, None: undefined)."""

    kind: str
    target: float
    threshold: float | None
    flagged: float | None
    tp: float | None
    fp: float | None
    tn: float | None
    fn: float | None
    values: Mapping[str, float | None]
    undefined: Mapping[str, str] = field(default_factory=FrozenMapping)  # name (or "row") -> why

    @property
    def label(self) -> str:
        return row_label(self.kind, self.target)


@dataclass(frozen=True)
class GainsRow:
    """The top ``flagged`` share of the instances by score: the share of the
    positives captured, the lift and the decile's own response rate."""

    decile: int
    flagged: float
    captured: float | None
    lift: float | None
    response_rate: float | None


@dataclass(frozen=True)
class OperatingTable:
    """A learner's threshold table (empty when the spec asks for none) and gains;
    ``gains_undefined``: why values of the gains are undefined ("" when none is)."""

    rows: tuple[OperatingRow, ...]
    gains: tuple[GainsRow, ...]
    gains_undefined: str = ""

    def notes(self, text=None) -> list[tuple[str, str]]:
        """(registry measure, message) for each undefined value: one per row of the
        threshold table with any, one for the gains. ``text(threshold)`` prints a
        row's threshold (the learner's threshold texts; default ``:g``)."""
        out = [("threshold_table", note) for note in (row_note(r, text) for r in self.rows) if note]
        if self.gains_undefined:
            out.append(("gains", gains_note(self)))
        return out


def row_note(row: OperatingRow, text=None) -> str:
    """The warning about a row's undefined values ("" when none is); ``text`` prints
    its threshold (default ``:g``)."""
    if "row" in row.undefined:
        return f"threshold table, {row.label}: undefined: {row.undefined['row']}"
    if not row.undefined:
        return ""
    at = "" if row.kind == "at" else (
        f" (threshold {text(row.threshold) if text else format(row.threshold, 'g')})" if row.threshold != float("inf") else " (nothing flagged)")
    parts = "; ".join(f"{k} ({why})" for k, why in row.undefined.items())
    return f"threshold table, {row.label}{at}: undefined: {parts}"


def gains_note(table: OperatingTable) -> str:
    """The warning about the gains' undefined values ("" when none is)."""
    return f"cumulative gains: {table.gains_undefined}" if table.gains_undefined else ""


def row_label(kind: str, target: float) -> str:
    """How the report and the warnings name an operating point."""
    from ..number_style import plain  # the spec's number as written, never in exponents

    if kind == "at":
        return f"at threshold {plain(target)}"
    if kind == "top_fraction":
        return f"top {plain(100 * target)}% flagged"
    if kind == "recall":
        return f"recall >= {plain(target)}"
    return f"FPR <= {plain(target)}"


def _first(pred, lo: int, hi: int) -> int:
    """The least row in [lo, hi] where the monotone ``pred`` (false, then true)
    holds; hi + 1 when it holds nowhere. Bisection: O(log rows) reads."""
    while lo <= hi:
        mid = (lo + hi) // 2
        if pred(mid):
            hi = mid - 1
        else:
            lo = mid + 1
    return lo


def _num(x):
    return x.item() if hasattr(x, "item") else x


class _Reader:
    """Scalar reads of a count table (only the rows asked for), and whether a row
    found on a reduced streamed table is the exact table's."""

    def __init__(self, table: CountTable, reduction=None):
        self.t = table
        self.rows = len(table)
        self.pos, self.neg = table.positives, table.negatives
        self.m = self.pos + self.neg
        self.reduction = reduction if reduction is not None and reduction.reduced else None

    def tp(self, k):
        return _num(self.t.tp_at(k))

    def fp(self, k):
        return _num(self.t.fp_at(k))

    def flagged(self, k):
        return self.tp(k) + self.fp(k)

    def threshold(self, k) -> float:
        return float("inf") if k == 0 else float(self.t.threshold_at(k - 1))

    def adjacent(self, a: int, b: int) -> bool:
        """Whether kept rows a < b = a + 1 are next to each other in the exact table
        (nothing was dropped between them): always, when nothing was reduced."""
        if self.reduction is None or a < 0 or b > self.rows:
            return True
        index = self.reduction.row_index
        return int(index[b]) == int(index[a]) + 1

    def inexact(self) -> str:
        r = self.reduction
        return (f"the count table was streamed and reduced to {r.kept:,} of its {r.rows:,} rows, and the "
                "point falls between two rows kept; give the data set a resolution, or engine: memory")


def _row(kind: str, target: float, reader: _Reader, k: int | None, threshold: float | None = None,
         why: str = "") -> OperatingRow:
    if k is None:
        return OperatingRow(kind, float(target), None, None, None, None, None, None,
                            FrozenMapping(dict.fromkeys(ROW_MEASURES)), FrozenMapping({"row": why}))
    threshold = reader.threshold(k) if threshold is None else threshold
    at = measures_at_row(reader.t, k, threshold)
    family, family_why = family_at(at.tp, at.fp, at.tn, at.fn)
    values = {name: family[name] if name in family else getattr(at, name) for name in ROW_MEASURES}
    undefined = {name: at.undefined[name] for name in ROW_MEASURES[:5] if name in at.undefined}
    undefined.update(family_why)
    flagged = None if reader.m == 0 else float((at.tp + at.fp) / reader.m)
    if flagged is None:
        undefined["flagged"] = "the total weight is 0"
    return OperatingRow(kind, float(target), float(threshold), flagged, at.tp, at.fp, at.tn, at.fn,
                        FrozenMapping(values), FrozenMapping(undefined))


def _at(reader: _Reader, t: float) -> OperatingRow:
    r = reader.reduction
    if r is not None and not r.exact_row(reader.t, t):
        return _row("at", t, reader, None, why=reader.inexact())
    return _row("at", t, reader, reader.t.rows_at(t), threshold=float(t))


def _top_fraction(reader: _Reader, q: float) -> OperatingRow:
    if reader.m == 0:
        return _row("top_fraction", q, reader, None, why="the total weight is 0")
    # the share as the row reports it, so the share printed is >= q
    k = _first(lambda k: reader.flagged(k) / reader.m >= q, 1, reader.rows)
    if not reader.adjacent(k - 1, k):
        return _row("top_fraction", q, reader, None, why=reader.inexact())
    return _row("top_fraction", q, reader, k)


def _recall(reader: _Reader, r: float) -> OperatingRow:
    if reader.pos == 0:
        return _row("recall", r, reader, None, why="there are no positives")
    k = _first(lambda k: reader.tp(k) / reader.pos >= r, 0, reader.rows)
    if k > 0 and not reader.adjacent(k - 1, k):
        return _row("recall", r, reader, None, why=reader.inexact())
    return _row("recall", r, reader, k)


def _fpr(reader: _Reader, f: float) -> OperatingRow:
    if reader.neg == 0:
        return _row("fpr", f, reader, None, why="there are no negatives")
    # the last row within the budget: the one before the first over it (row 0 never is)
    k = _first(lambda k: reader.fp(k) / reader.neg > f, 1, reader.rows) - 1
    if k < reader.rows and not reader.adjacent(k, k + 1):
        return _row("fpr", f, reader, None, why=reader.inexact())
    return _row("fpr", f, reader, k)


_FIND = {"at": _at, "top_fraction": _top_fraction, "recall": _recall, "fpr": _fpr}


def _gains(reader: _Reader) -> tuple[tuple[GainsRow, ...], str]:
    """The ten deciles, and why values are undefined ("" when none is)."""
    m, pos = reader.m, reader.pos
    fractions = [d / DECILES for d in range(1, DECILES + 1)]
    if m == 0:
        return tuple(GainsRow(d + 1, q, None, None, None) for d, q in enumerate(fractions)), \
            "undefined: the total weight is 0"
    captured_weight: list[float | None] = [0.0]
    inexact = False
    for q in fractions:
        target = q * m  # q = 1.0 exactly at the last decile: target = m
        k = _first(lambda k: reader.flagged(k) >= target, 1, reader.rows)
        k = min(k, reader.rows)  # (float sums: the last row holds m)
        n0, n1 = reader.flagged(k - 1), reader.flagged(k)
        t0, t1 = reader.tp(k - 1), reader.tp(k)
        # between two rows kept apart the rows dropped are unknown, unless the step holds
        # one class only: then TP is linear in the weight flagged whatever they were
        if not reader.adjacent(k - 1, k) and t1 != t0 and n1 - t1 != n0 - t0:
            captured_weight.append(None)
            inexact = True
            continue
        # the tied block of row k enters in part: its expected positives, linear in its weight
        share = 1.0 if n1 <= n0 else min(1.0, max(0.0, (target - n0) / (n1 - n0)))
        captured_weight.append(float(t0 + (t1 - t0) * share))
    rows = []
    for d, q in enumerate(fractions, start=1):
        cw, prev = captured_weight[d], captured_weight[d - 1]
        captured = None if cw is None or pos == 0 else cw / pos
        rate = None if cw is None or prev is None else (cw - prev) / (m / DECILES)
        rows.append(GainsRow(d, q, captured, None if captured is None else captured / q, rate))
    why = []
    if pos == 0:
        why.append("the share of the positives captured and the lift are undefined: there are no positives")
    if inexact:
        why.append("deciles whose boundary falls between two rows kept are undefined: " + reader.inexact())
    return tuple(rows), "; ".join(why)


def operating_table(table: CountTable, asked: Mapping[str, Sequence[float]] | None = None,
                    reduction=None) -> OperatingTable:
    """The threshold table of the operating points ``asked`` (kind -> targets; the
    spec's ``thresholds``, None: none) and the cumulative gains by decile, read off
    ``table`` (a reduced streamed table with its ``reduction``)."""
    reader = _Reader(table, reduction)
    asked = asked or {}
    rows = [_FIND[kind](reader, float(target)) for kind in KINDS
            for target in dict.fromkeys(asked.get(kind) or ())]
    gains, why = _gains(reader)
    return OperatingTable(tuple(rows), gains, why)
