"""Out-of-core engines: aggregate the count table where the data lives.

Every binary curve and measure depends only on the count table: for each
distinct score, the (weighted) numbers of positives and negatives. An engine
therefore never brings the rows to Python; it runs one ``GROUP BY score`` per
learner where the data lives and hands the aggregates to
:func:`evalreport.metrics.count_table_from_aggregates`. Memory is then bounded
by the number of distinct scores, not by the number of rows; and DuckDB, for
exact tables, streams the table in score order through
:class:`evalreport.metrics.CountReducer`, so that even one distinct score per
row (continuous scores) needs bounded memory: the scalars stay exact and the
table kept holds the ROC hull, the decision thresholds' rows and at most
``cap`` evenly spaced rows (see :mod:`evalreport.metrics.stream`). Spark
brings the aggregated table to the driver whole: with continuous scores,
``resolution`` is its bounded way.

* :func:`evalreport.engines.duckdb.aggregate_duckdb`: Parquet or CSV files
  (globs too), a table of a DuckDB database, or a SQL query, read out of core
  by DuckDB under a memory limit (spilling to a temporary directory);
* :func:`evalreport.engines.spark.aggregate_spark`: the same through the Spark
  DataFrame API (a local session, a cluster, or Spark Connect).

Both return an :class:`Aggregated`. Both are pure functions: no spec objects.

Exact by default
----------------
Without ``resolution`` the table is exact: unweighted counts are summed as
64-bit integers (the same table as :func:`evalreport.metrics.count_table`
on the rows, threshold for threshold and count for count); weighted sums are
float64 sums taken in the engine's order, so they agree to rounding (about
1e-15 relative) with the in-memory engine. A streamed table that was reduced
keeps exact rows of that table (``Aggregated.reductions`` says which, and
carries the scalars computed over all of them).

Resolution: a table of bounded size, with rigorous error bounds
---------------------------------------------------------------
With continuous scores the exact table has one row per row of data, so it
cannot be smaller than the data. ``resolution`` bins the scores first:

* a float ``h`` (a step): bin ``b = floor(score / h)``; the table's thresholds
  are the bins' lower edges ``b * h`` (so "score >= t" is exact at every
  multiple ``t`` of ``h``);
* an int ``q`` (a number of bins): about ``q`` bins of roughly equal row
  counts. The engine first reads each score's min and max, groups the rows into
  ``cells_for(q) = max(q, min(64 q, 2**22))`` equal-width cells between them, then merges adjacent cells
  left to right into bins, a new bin starting at each further ``1/q`` of the
  rows. This is deterministic (unlike DuckDB's ``approx_quantile``, whose
  T-digest depends on the order the threads merge, and much cheaper than
  ``ntile``, which needs a full sort); its limit is that a bin is a union of
  cells, so a single cell holding more than ``1/q`` of the rows stays one
  (bigger) bin and very skewed scores get fewer bins than asked. A bin's
  threshold is its smallest score, so "score >= threshold" reproduces the
  binned classifier exactly on the data.

Either way the binning is a monotone (non-decreasing) map of the score, so
every exact tie group lies inside one bin, bins are ordered like their scores,
and the cumulative counts at bin boundaries are the exact ones. Only the order
*inside* a bin is lost. :func:`resolution_bounds` bounds what that can change,
from the binned table alone (``P_b``, ``N_b``: the bin's positive and negative
weight; ``TP_a``, ``FP_a``: the weight above the bin; ``m+``, ``m-``: totals):

AUC
    A positive-negative pair in different bins is ranked the same way in both
    tables; a pair inside one bin counts 1/2 in the binned table and 0, 1/2 or
    1 in the exact one. So
    ``|AUC_exact - AUC_binned| <= sum_b P_b N_b / (2 m+ m-)``.

Average precision (the step sum ``AP = sum_k (tp_k - tp_{k-1}) prec_k / m+``)
    Terms outside a bin are the same in both tables. Inside bin ``b`` the
    exact table contributes ``E_b = sum_j p_j prec_j`` over its distinct scores
    ``j`` (in order), ``prec_j = (TP_a + X_j) / (TP_a + FP_a + X_j + Y_j)``
    with ``X_j``, ``Y_j`` the bin's positives and negatives down to ``j``
    (``0 < X_j <= P_b``, ``0 <= Y_j <= N_b``); the binned table contributes
    ``B_b = P_b (TP_a + P_b) / (TP_a + FP_a + P_b + N_b)``. With
    ``D = TP_a + FP_a``:

    * ``prec_j <= (TP_a + X_j) / (D + X_j) <= (TP_a + P_b) / (D + P_b)``
      (drop ``Y_j``; the ratio rises with ``X_j`` because ``D >= TP_a``), so
      ``E_b <= U_b = P_b (TP_a + P_b) / (D + P_b)``;
    * ``prec_j >= f(X_j)`` with ``f(x) = (TP_a + x) / (c + x)``, ``c = D + N_b``
      (all the bin's negatives first), ``f`` rising, and ``sum_j p_j f(X_j)``
      is a right Riemann sum of ``f`` over ``[0, P_b]``, so
      ``E_b >= L_b = integral_0^P_b f = P_b - (c - TP_a) ln(1 + P_b / c)``
      (``L_b = P_b`` when ``c = 0``: every precision is then 1).

    ``B_b`` lies in ``[L_b, U_b]`` too, hence
    ``|AP_exact - AP_binned| <= sum_b max(U_b - B_b, B_b - L_b) / m+``.

Break-even point (``TP / m+`` where ``TP + FP = m+``, interpolated in a tie)
    The predicted count ``TP + FP`` at bin boundaries is exact, so the point
    falls in the same bin ``b`` in both tables, ``r = m+ - (TP_a + FP_a)``
    into it (``0 < r <= P_b + N_b``; no bin when it falls on a boundary: bound
    0). There the exact table has taken ``x`` of the bin's positives and
    ``r - x`` of its negatives, so ``max(0, r - N_b) <= x <= min(r, P_b)``
    (interpolation inside an exact tie stays in this interval), and the binned
    table ``x_b = P_b r / (P_b + N_b)``. Hence
    ``|BEP_exact - BEP_binned| <= max(min(r, P_b) - x_b, x_b - max(0, r - N_b)) / m+``,
    which is at most ``min(P_b, N_b) / m+``.

The bounds hold for weighted tables too (read weights for counts). They are
computed from the binned table actually returned (after any bins merge), so
they stay valid whatever the binning did; they are exact arithmetic statements,
so a comparison in floating point should allow ~1e-12 of rounding.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import closest
from ..metrics.counts import CountTable, count_table_from_aggregates

__all__ = [
    "LABELS_CAP",
    "Aggregated",
    "ColumnError",
    "PositiveLabelMissing",
    "check_columns",
    "check_labels",
    "match_positive",
    "quote_ident",
    "resolution_bounds",
]

#: At most this many distinct labels are reported (one more is fetched, so
#: that ``labels_truncated`` tells whether there were more).
LABELS_CAP = 20

#: Cells per requested bin for an integer resolution, and the most cells.
CELLS_PER_BIN = 64
MAX_CELLS = 1 << 22


@dataclass(frozen=True)
class Aggregated:
    """What an engine returns.

    Attributes
    ----------
    tables : dict
        Learner name -> :class:`~evalreport.metrics.CountTable`; with ``by``,
        ``(learner, group value) -> CountTable``.
    rows : int
        Rows read (all of them; zero-weight rows included).
    resolution_bound : dict or None
        With ``resolution``: per key of ``tables``,
        ``{"auc": b, "average_precision": b, "bep": b}``, each the largest
        possible ``|exact - binned|`` of that measure (None where the measure is
        undefined: no positives, or no negatives for the AUC). See the module
        docstring for the derivations. None without ``resolution``.
    labels_seen : list
        The distinct labels found, sorted, at most ``LABELS_CAP + 1`` of them
        (``labels_truncated`` then says there are more). The engines do not judge
        them: the caller checks them, e.g. with :func:`check_labels`.
    labels_truncated : bool
        True when there are more than ``LABELS_CAP`` distinct labels.
    positive_label : object
        The label of ``labels_seen`` that matched ``positive`` (None if none).
    reductions : dict or None
        Exact tables streamed through :class:`~evalreport.metrics.CountReducer`
        (DuckDB without ``resolution``): learner name ->
        :class:`~evalreport.metrics.Reduction`, the exact AUC, rank loss, AP, BEP
        and partial AUCs and which rows of the exact table ``tables`` keeps
        (``reduction.reduced`` says whether rows were dropped). Evaluate with
        :func:`~evalreport.metrics.evaluate_reduced`. None when the tables were
        fetched whole.
    learner_tables : dict or None
        With ``by`` and streamed tables: learner name -> the learner's own table
        (whole or reduced; the group tables are then reduced to the hull and
        ``keep_thresholds`` rows, so they cannot be summed back into it). None
        otherwise (the learner's table is then the sum of its groups' tables).
    """

    tables: dict[Any, CountTable]
    rows: int
    resolution_bound: dict[Any, dict] | None
    labels_seen: list
    labels_truncated: bool = False
    positive_label: Any = None
    reductions: dict[Any, Any] | None = None
    learner_tables: dict[Any, CountTable] | None = None


def quote_ident(name: str) -> str:
    """A SQL identifier, double-quoted with inner quotes doubled.

    >>> quote_ident('my "odd" col')
    '"my ""odd"" col"'
    """
    if not isinstance(name, str) or not name:
        raise ValueError(f"a column name must be a non-empty string, got {name!r}")
    if "\x00" in name:
        raise ValueError(f"column name {name!r} contains a NUL character")
    return '"' + name.replace('"', '""') + '"'


def _same_label(value, positive) -> bool:
    """Label equality with NumPy's semantics (``y == positive``): text never
    equals a number; numbers and booleans compare by value."""
    if value is None:
        return False
    if isinstance(value, (bytes, str)) != isinstance(positive, (bytes, str)):
        return False
    try:
        return bool(value == positive)
    except Exception:  # noqa: BLE001 - incomparable types are simply unequal
        return False


def _same_text(value, positive) -> bool:
    """Label equality as a spec means it (the in-memory reader's rule): as
    text, so 1, 1.0 and '1' are one label, and True is 'true', not 1."""
    from ..metrics.labels import label_key

    return value is not None and label_key(value) == label_key(positive)


def match_positive(labels, positive, *, as_text: bool = False):
    """The element of ``labels`` equal to ``positive`` (as NumPy compares, or
    ``as_text`` as a spec's labels compare), or None.

    The engines bind *this* value (typed as the column is) in their queries, so
    that a text column is never compared with a number inside the database.

    >>> match_positive([0, 1], True), match_positive(["0", "1"], 1), match_positive([0.0, 1.0], 1)
    (1, None, 1.0)
    >>> match_positive([0, 1], True, as_text=True), match_positive(["0", "1"], 1, as_text=True)
    (None, '1')
    """
    same = _same_text if as_text else _same_label
    for value in labels:
        if same(value, positive):
            return value
    return None


class PositiveLabelMissing(ValueError):
    """The positive label is not among the labels (:func:`check_labels`)."""


def check_labels(labels_seen, positive, *, truncated: bool = False, where: str = "",
                 as_text: bool = False) -> None:
    """Raise ``ValueError`` unless the labels suit a binary task.

    At most two distinct labels, one of them ``positive``; or a single label
    that is not ``positive`` (all rows are then negatives and the measures
    needing positives are undefined). ``as_text``: a spec's rule, the
    in-memory reader's: labels compare as text and ``positive`` must occur
    (:class:`PositiveLabelMissing` otherwise).
    """
    at = f" in {where}" if where else ""
    labels = list(labels_seen)
    if truncated or len(labels) > 2:
        shown = ", ".join(repr(v) for v in labels[:LABELS_CAP])
        more = " and more" if truncated or len(labels) > LABELS_CAP else ""
        raise ValueError(
            f"the label column{at} has more than two labels ({shown}{more}); "
            f"a binary task needs exactly the positive label {positive!r} and one other"
        )
    if as_text:
        if labels and match_positive(labels, positive, as_text=True) is None:
            raise PositiveLabelMissing(f"the positive label {positive!r} does not occur{at}, which holds "
                                       + " and ".join(repr(v) for v in labels))
        return
    if len(labels) == 2 and match_positive(labels, positive) is None:
        raise ValueError(
            f"the positive label {positive!r} does not occur{at}, which holds "
            f"{labels[0]!r} and {labels[1]!r}"
        )


class ColumnError(ValueError):
    """A problem with one of the named columns. ``role``: "label", "score"
    (then ``learner`` names the learner), "weight" or "group": a spec
    reports it at that key, not at the source's path."""

    def __init__(self, message: str, role: str, learner: str | None = None):
        super().__init__(message)
        self.role, self.learner = role, learner


def check_columns(columns, *, label: str, scores: dict, weight, by, where: str, engine: str,
                  type_problem) -> None:
    """Raise :class:`ColumnError` for a named column that is missing (with the
    closest name) or a score or weight column that is not numeric.

    ``scores``: learner -> its score column, or its list of columns (one per
    class). ``type_problem(column)`` is None for a numeric (or boolean)
    column, else the engine's name of its type."""
    present = set(columns)

    def need(column, role, learner=None, text=None):
        if not isinstance(column, str) or column not in present:
            raise ColumnError(missing_column_message(str(column), list(columns), role=text or role, where=where),
                              role, learner)

    def numeric(column, what, role, learner=None):
        kind = type_problem(column)
        if kind is not None:
            raise ColumnError(f"{what} is not numeric ({engine} type {kind}) in {where}", role, learner)

    need(label, "label")
    for name, cols in scores.items():
        for col in [cols] if isinstance(cols, str) else cols:
            need(col, "score", name, f"score (learner {name!r})")
            numeric(col, f"score column {col!r} of learner {name!r}", "score", name)
    if weight is not None:
        need(weight, "weight")
        numeric(weight, f"weight column {weight!r}", "weight")
    if by is not None:
        need(by, "group", text="group (by)")


def missing_column_message(column: str, available, *, role: str, where: str) -> str:
    """"column 'x' (role) not found in where; did you mean 'y'? (columns: ...)"."""
    available = list(available)
    close = closest(column, available)
    hint = f"; did you mean {close!r}?" if close is not None else ""
    cols = ", ".join(repr(c) for c in available[:30]) + (" ..." if len(available) > 30 else "")
    return f"{role} column {column!r} not found in {where}{hint} (columns: {cols})"


def sorted_labels(values) -> list:
    """Distinct labels in a stable order (by type name, then value)."""
    def key(v):
        return (type(v).__name__, v)

    try:
        return sorted(values, key=key)
    except TypeError:
        return sorted(values, key=lambda v: (type(v).__name__, repr(v)))


def parse_resolution(resolution):
    """None, ("step", h) for a float, or ("bins", q) for an int."""
    if resolution is None:
        return None
    if isinstance(resolution, bool):
        raise ValueError(f"resolution must be a positive float step or an int number of bins, not {resolution!r}")
    if isinstance(resolution, (int, np.integer)):
        q = int(resolution)
        if q < 1:
            raise ValueError(f"resolution (a number of bins) must be at least 1, got {q}")
        return ("bins", q)
    if isinstance(resolution, (float, np.floating)):
        h = float(resolution)
        if not (math.isfinite(h) and h > 0):
            raise ValueError(f"resolution (a step) must be a positive finite number, got {resolution!r}")
        return ("step", h)
    raise ValueError(
        f"resolution must be a positive float (a step) or an int (a number of bins), got {resolution!r}"
    )


def cells_for(q: int) -> int:
    """Equal-width cells used to form ``q`` bins of about equal counts."""
    return int(max(q, min(CELLS_PER_BIN * q, MAX_CELLS)))


def cell_scale(lo: float, hi: float, cells: int) -> float:
    """Multiplier of ``score - lo`` giving the cell index (0 when min == max)."""
    span = hi - lo
    if not (span > 0) or not math.isfinite(span):
        return 0.0
    scale = cells / span
    return scale if math.isfinite(scale) else 0.0


def merge_cells(cell, n, pos, neg, smin, q: int):
    """Merge equal-width cells (any order) into about ``q`` bins of equal row counts.

    A cell starts bin ``floor(q * rows before it / total rows)``; the bin's
    threshold is its smallest score. Returns (threshold, pos, neg) per bin.
    """
    order = np.argsort(cell, kind="stable")
    n = np.asarray(n, dtype=np.int64)[order]
    before = np.cumsum(n) - n
    total = int(n.sum())
    bin_id = (before.astype(np.float64) * q) // max(total, 1) if total else np.zeros(n.size)
    # bins are runs of equal bin_id (bin_id is non-decreasing)
    starts = np.flatnonzero(np.concatenate(([True], bin_id[1:] != bin_id[:-1])))
    pos = np.asarray(pos)[order]
    neg = np.asarray(neg)[order]
    smin = np.asarray(smin, dtype=np.float64)[order]
    return (
        np.minimum.reduceat(smin, starts),
        np.add.reduceat(pos, starts),
        np.add.reduceat(neg, starts),
    )


def build_tables(
    frame: dict, *, learner: str, by: bool, mode, weighted: bool, tables: dict, bounds, rows: int | None = None
):
    """Turn one learner's aggregated rows into count tables (one per group).

    ``frame`` holds NumPy arrays: ``key`` (score, bin index or cell index),
    ``pos`` and ``neg`` (counts or weights), ``n`` (rows; needed with an
    integer resolution, and for weighted tables with ``by``; otherwise it is
    ``pos + neg`` unweighted, or ``rows``), ``smin`` (the smallest score, for
    integer resolutions) and ``g`` (the group, with ``by``).
    """
    key = np.asarray(frame["key"])
    n = frame.get("n")
    if n is not None:
        n = np.asarray(n, dtype=np.int64)
    elif weighted and (by or rows is None):
        raise ValueError("weighted tables with groups need the row counts n")
    pos = np.asarray(frame["pos"])
    neg = np.asarray(frame["neg"])
    if weighted:
        pos = pos.astype(np.float64, copy=False)
        neg = neg.astype(np.float64, copy=False)
    else:
        pos = pos.astype(np.int64, copy=False)
        neg = neg.astype(np.int64, copy=False)
    if by:
        g = np.asarray(frame["g"], dtype=object)
        values, inverse = _unique_objects(g)
        parts = [(v, inverse == i) for i, v in enumerate(values)]
    else:
        parts = [(None, slice(None))]
    for value, sel in parts:
        k, p, m = key[sel], pos[sel], neg[sel]
        if n is not None:
            n_rows = int(n[sel].sum())
        elif weighted:
            n_rows = int(rows)
        else:
            n_rows = int(p.sum() + m.sum())
        if mode is None:
            score = k.astype(np.float64, copy=False)
        elif mode[0] == "step":
            score = k.astype(np.float64) * mode[1]
        else:
            score, p, m = merge_cells(k, n[sel], p, m, np.asarray(frame["smin"])[sel], mode[1])
        table = count_table_from_aggregates(score, p, m, n_rows=n_rows)
        name = (learner, value) if by else learner
        tables[name] = table
        if bounds is not None:
            bounds[name] = resolution_bounds(table)


def _unique_objects(values: np.ndarray):
    """Distinct values (sorted as :func:`sorted_labels`) and each row's index."""
    index: dict[Hashable, int] = {}
    codes = np.empty(values.size, dtype=np.int64)
    for i, v in enumerate(values.tolist()):
        codes[i] = index.setdefault(v, len(index))
    distinct = list(index)
    ordered = sorted_labels(distinct)
    remap = np.empty(len(distinct), dtype=np.int64)
    for new, v in enumerate(ordered):
        remap[index[v]] = new
    return ordered, remap[codes] if codes.size else codes


def resolution_bounds(table: CountTable) -> dict:
    """Bounds on ``|exact - binned|`` for AUC, average precision and BEP.

    ``table`` is the binned table; each entry is None where the measure is
    undefined. See the module docstring for the derivations.

    >>> from evalreport.metrics import count_table_from_aggregates
    >>> t = count_table_from_aggregates([1.0, 0.0], [2, 1], [1, 2])
    >>> b = resolution_bounds(t)
    >>> round(b["auc"], 6)  # (2*1 + 1*2) / (2 * 3 * 3)
    0.222222
    """
    tp = table.tp.astype(np.float64)
    fp = table.fp.astype(np.float64)
    mp, mn = float(tp[-1]), float(fp[-1])
    P = np.diff(tp)
    N = np.diff(fp)
    out: dict[str, float | None] = {"auc": None, "average_precision": None, "bep": None}
    if mp > 0 and mn > 0:
        out["auc"] = float(np.dot(P, N) / (2.0 * mp * mn))
    if mp > 0:
        a = tp[:-1]
        d = a + fp[:-1]
        c = d + N
        has = P > 0
        with np.errstate(divide="ignore", invalid="ignore"):
            binned = np.where(has, P * (a + P) / (d + P + N), 0.0)
            upper = np.where(has, P * (a + P) / (d + P), 0.0)
            lower = np.where(c > 0, P - (c - a) * np.log1p(P / np.where(c > 0, c, 1.0)), P)
        lower = np.where(has, lower, 0.0)
        gap = np.maximum(np.maximum(upper - binned, binned - lower), 0.0)
        out["average_precision"] = float(gap.sum() / mp)
        predicted = tp + fp
        k = int(np.searchsorted(predicted, mp, side="left"))
        if k >= predicted.size or predicted[k] == mp or k == 0:
            out["bep"] = 0.0
        else:
            r = mp - predicted[k - 1]
            pb, nb = P[k - 1], N[k - 1]
            xb = pb * r / (pb + nb)
            hi = min(r, pb)
            lo = max(0.0, r - nb)
            out["bep"] = float(max(hi - xb, xb - lo, 0.0) / mp)
    return out


def judge_checks(row: list, *, cols, scores: dict, mode, label: str, weight, by, where: str):
    """Read the one-row result of the engines' data checks (rows, missing labels,
    then per score column missing/NaN/infinite counts and, for quantile bins, its
    range, then the weight and group checks) and raise ``ValueError`` on the first
    kind of problem. Returns (rows, {score column: (min, max)})."""
    row = list(row)
    rows, null_labels = int(row.pop(0)), int(row.pop(0))
    if rows == 0:
        raise ValueError(f"{where} has no rows")
    if null_labels:
        raise ColumnError(f"label column {label!r} has {null_labels} missing value(s) of {rows} rows in {where}",
                          "label")
    ranges = {}
    problems, first_learner = [], None
    for col in cols:
        nulls, nans, infs = (int(row.pop(0)) for _ in range(3))
        if mode is not None and mode[0] == "bins":
            ranges[col] = (row.pop(0), row.pop(0))
        bad = [f"{c} {what}" for c, what in ((nulls, "missing"), (nans, "NaN"), (infs, "infinite")) if c]
        if bad:
            learners = ", ".join(repr(n) for n, c in scores.items() if c == col)
            first_learner = first_learner or next(n for n, c in scores.items() if c == col)
            problems.append(
                f"score column {col!r} (learner {learners}) has {nulls + nans + infs} bad value(s): "
                f"{', '.join(bad)} (of {rows} rows)"
            )
    if problems:
        raise ColumnError(f"{where}: " + "; ".join(problems), "score", first_learner)
    if weight is not None:
        nulls, nonfinite, negative, wmin = int(row.pop(0)), int(row.pop(0)), int(row.pop(0)), row.pop(0)
        bad = []
        if nulls:
            bad.append(f"{nulls} missing")
        if nonfinite:
            bad.append(f"{nonfinite} NaN or infinite")
        if negative:
            bad.append(f"{negative} negative (smallest {wmin!r})")
        if bad:
            raise ColumnError(f"weight column {weight!r} has {', '.join(bad)} value(s) of {rows} rows in {where}",
                              "weight")
    if by is not None:
        nulls = int(row.pop(0))
        if nulls:
            raise ColumnError(f"group column {by!r} has {nulls} missing value(s) of {rows} rows in {where}",
                              "group")
    return rows, ranges


@dataclass(frozen=True)
class MulticlassAggregated:
    """A multi-class learner's counts, aggregated where the data lives.

    ``confusion``: k x k (rows true, columns predicted: the highest score, ties
    to the class listed first); ``tables``: each class's one-vs-rest count
    table; ``wins``: Hand & Till's pairwise win sums (row i: class i's score).
    """

    confusion: np.ndarray
    tables: list
    wins: np.ndarray


def class_key(value) -> str:
    """Class labels compare as text: 1, 1.0 and '1' are the same class. An engine
    may hand labels back as text ('1.0' from a float column cast to VARCHAR)."""
    from ..metrics.labels import label_key

    if isinstance(value, str):
        try:
            number = float(value)
            if number.is_integer() and value.strip().lstrip("-").replace(".", "", 1).isdigit():
                return str(int(number))
        except ValueError:
            pass
    return label_key(value)


def class_column(rows, index: dict, i: int, k: int, n_rows: int, *, integral: bool):
    """Class i's one-vs-rest count table and its row of Hand & Till's wins, from
    (score, label, weight) groups of its score column; the same arithmetic as the
    in-memory path. ``index`` maps a label as returned to its class index."""
    from dataclasses import replace

    from ..metrics.multiclass import _column_pass

    score = np.array([r[0] for r in rows], dtype=float)
    y = np.array([index[r[1]] for r in rows], dtype=np.int64)
    weight = np.array([r[2] for r in rows], dtype=float)
    table, wins = _column_pass(y, score, weight, i, k, n_rows)
    if integral:  # the weights were counts: keep the table exact
        table = replace(table, tp=np.rint(table.tp).astype(np.int64), fp=np.rint(table.fp).astype(np.int64))
    return table, wins
