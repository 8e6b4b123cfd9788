"""What an engine returns, and the count tables built from its aggregates:
:class:`Aggregated` (binary: a count table per learner, or per learner and
group) and :class:`MulticlassAggregated` (confusion matrix, one-vs-rest
tables, pairwise wins), with the arithmetic that turns an engine's grouped
rows into them, the same as the in-memory path's.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..counting import CountTable, count_table_from_aggregates
from .checks import sorted_labels
from .resolution import merge_cells, resolution_bounds


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
        undefined: no positives, or no negatives for the AUC). See
        :mod:`evalreport.engines` for the derivations. None without ``resolution``.
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

    from ..metrics.multiclass import column_pass

    score = np.array([r[0] for r in rows], dtype=float)
    y = np.array([index[r[1]] for r in rows], dtype=np.int64)
    weight = np.array([r[2] for r in rows], dtype=float)
    table, wins = column_pass(y, score, weight, i, k, n_rows)
    if integral:  # the weights were counts: keep the table exact
        table = replace(table, tp=np.rint(table.tp).astype(np.int64), fp=np.rint(table.fp).astype(np.int64))
    return table, wins
