"""The DuckDB engine's queries for a binary task: the schema checked, one
pass of data checks, the distinct labels, then one ``GROUP BY score`` per
learner, binned (``resolution``: the rows come back whole, one per bin) or
exact (streamed in score order, in Arrow batches, through
:class:`~evalreport.metrics.CountReducer`). See
:mod:`evalreport.engines.duckdb` for the passes in order and their memory.
"""

from __future__ import annotations

import re

import numpy as np

from ..arrow import arrow_to_numpy
from ..metrics import stream as _stream
from .checks import LABELS_CAP, check_columns, judge_checks, match_positive, quote_ident, sorted_labels
from .duckdb_source import booleans_as_in_memory, column_types, duckdb_text, type_problem
from .resolution import cell_scale, cells_for
from .tables import Aggregated, build_tables


def aggregate(duckdb, con, from_sql, params, where, *, label, positive, scores, weight, mode, by,
              labels_as_text=False, stream=None, weight_exponent=0):
    """The count tables of the learners' ``scores`` over the rows of ``from_sql``:
    the schema checked, one pass of data checks, the distinct labels, then one
    ``GROUP BY`` per learner, binned (``mode``) or exact, streamed (``mode`` None)."""
    bound, run = _statements(con, params)

    # 1. schema
    types = column_types(con, duckdb, from_sql, bound(f"SELECT * FROM {from_sql}"), where)
    from_sql, params = booleans_as_in_memory(con, duckdb, from_sql, params,
                                              (label, by, weight, *scores.values()), where, types)
    bound, run = _statements(con, params)  # (the source's parameters as the booleans left them)
    check_columns(list(types), label=label, scores=scores, weight=weight, by=by, where=where, engine="DuckDB",
                  type_problem=type_problem(types))

    lab = quote_ident(label)
    # 2. checks, one pass
    cols = list(dict.fromkeys(scores.values()))
    checks = _check_items(lab, types, cols, mode=mode, weight=weight, by=by)
    try:
        row = list(run(f"SELECT {', '.join(checks)} FROM {from_sql}").fetchall()[0])
    except duckdb.Error as exc:
        raise ValueError(f"DuckDB failed reading {where}: {duckdb_text(exc)}") from None
    rows, ranges = judge_checks(row, cols=cols, scores=scores, mode=mode, label=label,
                                weight=weight, by=by, where=where)

    # 3. labels
    labels, truncated, positive_label = _labels(run, from_sql, lab, positive, labels_as_text)

    # 4. one GROUP BY per learner
    is_pos, bind = _positive_test(lab, positive_label)
    if mode is None:
        return _stream_exact(
            duckdb, con, from_sql, where, bound, run, lab=lab, is_pos=is_pos, bind=bind, scores=scores,
            weight=weight, by=by, rows=rows, labels=labels, truncated=truncated,
            positive_label=positive_label, weight_exponent=weight_exponent, **(stream or {}),
        )
    tables, bounds = _binned_tables(duckdb, from_sql, where, run, scores=scores, mode=mode, ranges=ranges,
                                    counts=_class_sums(is_pos, weight, weight_exponent), bind=bind,
                                    weight=weight, by=by, rows=rows)
    return Aggregated(
        tables=tables,
        rows=rows,
        resolution_bound=bounds,
        labels_seen=labels,
        labels_truncated=truncated,
        positive_label=positive_label,
    )


def _statements(con, params):
    """(bound, run): a statement's parameters out of ``params``, and the statement run."""
    def bound(sql, extra=None):
        p = dict(params)
        if extra:
            p.update(extra)
        # Bind only what the statement uses (DuckDB rejects unused named parameters).
        return {k: v for k, v in p.items() if re.search(rf"\${k}\b", sql)}

    def run(sql, extra=None):
        return con.execute(sql, bound(sql, extra))

    return bound, run


def _check_items(lab: str, types: dict, cols: list, *, mode, weight, by) -> list[str]:
    """The SELECT items of the one pass of data checks, in the order
    :func:`~evalreport.engines.checks.judge_checks` reads them."""
    checks = ["count(*)", f"count(*) FILTER (WHERE {lab} IS NULL)"]
    for col in cols:
        x = f"CAST({quote_ident(col)} AS DOUBLE)"
        if types[col] == "BOOLEAN":
            # never NaN or infinite; and DuckDB 2.0 fails on a CSV column sniffed
            # BOOLEAN when one SELECT casts it to DOUBLE for both isnan and isinf
            checks += [f"count(*) FILTER (WHERE {quote_ident(col)} IS NULL)", "0", "0"]
        else:
            checks += [
                f"count(*) FILTER (WHERE {x} IS NULL)",
                f"count(*) FILTER (WHERE isnan({x}))",
                f"count(*) FILTER (WHERE isinf({x}))",
            ]
        if mode is not None and mode[0] == "bins":
            checks += [f"min({x})", f"max({x})"]
    if weight is not None:
        w = f"CAST({quote_ident(weight)} AS DOUBLE)"
        checks += [
            f"count(*) FILTER (WHERE {w} IS NULL)",
            f"count(*) FILTER (WHERE NOT isfinite({w}))",
            f"count(*) FILTER (WHERE {w} < 0)",
            f"min({w})",
        ]
    if by is not None:
        checks.append(f"count(*) FILTER (WHERE {quote_ident(by)} IS NULL)")
    return checks


def _labels(run, from_sql: str, lab: str, positive, labels_as_text: bool):
    """(labels seen, whether more were left unfetched, the positive label or None)."""
    found = [r[0] for r in run(
        f"SELECT DISTINCT {lab} FROM {from_sql} ORDER BY 1 LIMIT {LABELS_CAP + 1}"
    ).fetchall()]
    truncated = len(found) > LABELS_CAP
    labels = sorted_labels(found)
    positive_label = match_positive(labels, positive, as_text=labels_as_text)
    if positive_label is None and truncated:
        # More labels than fetched: look for the positive one among the rest.
        probe = [r[0] for r in run(
            f"SELECT DISTINCT {lab} FROM {from_sql} WHERE CAST({lab} AS VARCHAR) = $plabel",
            {"plabel": str(positive)},
        ).fetchall()]
        positive_label = match_positive(probe, positive, as_text=labels_as_text)
    return labels, truncated, positive_label


def _positive_test(lab: str, positive_label):
    """(the SQL test of a positive row, its bound parameters): FALSE with no positive label."""
    if positive_label is None:
        return "FALSE", {}
    return f"{lab} = $positive", {
        "positive": positive_label.item() if isinstance(positive_label, np.generic) else positive_label}


def _binned_tables(duckdb, from_sql, where, run, *, scores, mode, ranges, counts, bind, weight, by, rows):
    """(tables, resolution bounds): one ``GROUP BY`` of binned scores per learner,
    every row coming back (one per bin, or per group and bin)."""
    tables: dict = {}
    bounds = {}
    g = f"{quote_ident(by)} AS g, " if by is not None else ""
    for name, col in scores.items():
        x = f"CAST({quote_ident(col)} AS DOUBLE)"
        extra = dict(bind)
        smin = ""
        if mode[0] == "step":
            key = f"floor({x} / $step)"
            extra["step"] = mode[1]
        else:
            cells = cells_for(mode[1])
            lo, hi = ranges[col]
            key = f"least(floor(({x} - $lo) * $scale), $last)"
            extra.update(lo=float(lo), scale=cell_scale(float(lo), float(hi), cells), last=float(cells - 1))
            smin = f", min({x}) AS smin"
        # the row count n only where it cannot be inferred (see build_tables)
        n = "count(*) AS n, " if mode[0] == "bins" or (weight is not None and by) else ""
        sql = f"SELECT {g}{key} AS key, {n}{counts}{smin} FROM {from_sql} GROUP BY ALL"
        try:
            frame = run(sql, extra).fetchnumpy()
        except duckdb.Error as exc:
            raise ValueError(f"DuckDB failed aggregating learner {name!r} of {where}: {duckdb_text(exc)}") from None
        build_tables(
            frame, learner=name, by=by is not None, mode=mode,
            weighted=weight is not None, tables=tables, bounds=bounds, rows=rows,
        )
        del frame
    return tables, bounds


def scaled_weight(weight: str, exponent: int = 0) -> str:
    """The SQL of a weight column as DOUBLE, scaled by ``2**-exponent`` (exactly: two
    factors, each a power of two that float64 holds; see data.checks._scaled_weights)."""
    w = f"CAST({quote_ident(weight)} AS DOUBLE)"
    if not exponent:
        return w
    half = -exponent // 2
    return f"({w} * {2.0 ** half!r} * {2.0 ** (-exponent - half)!r})"


def _class_sums(is_pos: str, weight: str | None, weight_exponent: int = 0) -> str:
    """SELECT items ``pos`` and ``neg``: the rows (or weights) of each class in a group."""
    if weight is None:
        return f"count(*) FILTER (WHERE {is_pos}) AS pos, count(*) - count(*) FILTER (WHERE {is_pos}) AS neg"
    w = scaled_weight(weight, weight_exponent)
    # fsum: compensated (Kahan-Babuska) sums, whose result does not hang on the order
    # DuckDB's threads add the rows in, as a plain float sum's last digit does
    return (f"coalesce(fsum({w}) FILTER (WHERE {is_pos}), 0)::DOUBLE AS pos, "
            f"coalesce(fsum({w}) FILTER (WHERE NOT ({is_pos})), 0)::DOUBLE AS neg")


def _stream_exact(duckdb, con, from_sql, where, bound, run, *, lab, is_pos, bind, scores, weight, by, rows,
                  labels, truncated, positive_label, batch_rows, keep_thresholds=(), max_fprs=(),
                  cap=None, weight_exponent=0) -> Aggregated:
    """Exact tables, streamed: ``GROUP BY score ORDER BY score DESC`` read in Arrow
    batches through :class:`~evalreport.metrics.CountReducer`, so Python holds one
    batch and the reducer's kept rows, never the whole table."""
    import pyarrow as pa  # (Arrow batches: pyarrow is needed here whatever the options)
    import pyarrow.compute as pc

    cap = _stream._integer(_stream.DEFAULT_CAP if cap is None else cap, "cap", 2)
    batch_rows = _stream._integer(batch_rows, "batch_rows", 1)  # (its default: aggregate_duckdb's)
    counts = _class_sums(is_pos, weight, weight_exponent)
    # The class totals first (one pass over the label and weight columns): the
    # reducer needs m+ for the break-even point and m+, m- for partial AUCs.
    try:
        m_pos, m_neg = run(f"SELECT {counts} FROM {from_sql}", bind).fetchall()[0]
    except duckdb.Error as exc:
        raise ValueError(f"DuckDB failed reading {where}: {duckdb_text(exc)}") from None
    value_set = group_values = None
    if by is not None:
        try:
            distinct = _arrow_table(con.sql(f"SELECT DISTINCT {quote_ident(by)} AS g FROM {from_sql}",
                                            params=bound(from_sql) or None)).column("g").combine_chunks()
        except duckdb.Error as exc:
            raise ValueError(f"DuckDB failed reading the groups of {where}: {duckdb_text(exc)}") from None
        found = distinct.to_pylist()
        group_values = sorted_labels(found)
        first = {v: i for i, v in enumerate(found)}
        value_set = distinct.take(pa.array([first[v] for v in group_values], type=pa.int64()))
    g = f"{quote_ident(by)} AS g, " if by is not None else ""
    n = "count(*) AS n, " if weight is not None and by is not None else ""
    tables: dict = {}
    reductions: dict = {}
    learner_tables = {} if by is not None else None
    for name, col in scores.items():
        x = f"CAST({quote_ident(col)} AS DOUBLE)"
        sql = f"SELECT {g}{x} AS key, {n}{counts} FROM {from_sql} GROUP BY ALL ORDER BY key DESC"
        reducer = _stream.CountReducer(
            positives=m_pos, negatives=m_neg, keep_thresholds=keep_thresholds, max_fprs=max_fprs,
            cap=cap, n_groups=0 if by is None else len(group_values),
        )
        try:
            for batch in _fixed_batches(_arrow_batches(con.sql(sql, params=bound(sql, bind) or None), batch_rows),
                                        batch_rows):
                codes = None
                if by is not None:
                    codes = _numpy(pc.index_in(batch.column("g"), value_set=value_set))
                reducer.feed(
                    _numpy(batch.column("key")), _numpy(batch.column("pos")), _numpy(batch.column("neg")),
                    codes, _numpy(batch.column("n")) if n else None,
                )
                del batch
        except duckdb.Error as exc:
            raise ValueError(f"DuckDB failed aggregating learner {name!r} of {where}: {duckdb_text(exc)}") from None
        result = reducer.finish(rows)
        del reducer
        reductions[name] = result.reduction
        if by is None:
            tables[name] = result.table
        else:
            learner_tables[name] = result.table
            for code, table in result.group_tables.items():
                tables[(name, group_values[code])] = table
    return Aggregated(
        tables=tables,
        rows=rows,
        resolution_bound=None,
        labels_seen=labels,
        labels_truncated=truncated,
        positive_label=positive_label,
        reductions=reductions,
        learner_tables=learner_tables,
    )


def _fixed_batches(batches, rows: int):
    """The batches re-cut at every ``rows`` rows of the ordered result: DuckDB hands
    back batches whose sizes depend on its threads, and the reducer's float sums
    depend on where a batch ends; fixed boundaries make the tables, and so every
    measure, the same bits whatever the threads (issue 36: OMP_NUM_THREADS=1 moved
    an average precision in its last digit)."""
    import pyarrow as pa

    held, count = [], 0
    for batch in batches:
        held.append(batch)
        count += batch.num_rows
        while count >= rows:
            table = pa.Table.from_batches(held).combine_chunks()
            yield from table.slice(0, rows).to_batches(max_chunksize=rows)
            rest = table.slice(rows)
            held, count = rest.combine_chunks().to_batches(), rest.num_rows
    if count:
        yield from pa.Table.from_batches(held).combine_chunks().to_batches(max_chunksize=rows)


def _numpy(array) -> np.ndarray:
    """A primitive Arrow array without nulls as a NumPy view of its buffer.

    (``Array.to_numpy`` would do, but in recent pyarrow it imports pandas: half
    a second and 60 MiB for nothing here.)"""
    import pyarrow as pa

    array = array.combine_chunks() if isinstance(array, pa.ChunkedArray) else array
    kind = array.type
    if array.null_count or not (pa.types.is_integer(kind) or pa.types.is_floating(kind)):
        return array.to_numpy(zero_copy_only=False)
    return arrow_to_numpy(array)


def _arrow_table(relation):
    """A DuckDB relation's result as one Arrow table (DuckDB 2 and 1.x names)."""
    for method in ("to_arrow_table", "fetch_arrow_table", "arrow"):
        fetch = getattr(relation, method, None)
        if fetch is not None:
            return fetch()
    raise ImportError("this duckdb cannot return Arrow tables: python3 -m pip install -U duckdb")


def _arrow_batches(relation, rows: int):
    """Arrow record batches of a DuckDB relation, ``rows`` at a time, streamed
    (``to_arrow_reader`` in DuckDB 2, ``fetch_record_batch`` in 1.x)."""
    for method in ("to_arrow_reader", "fetch_arrow_reader", "fetch_record_batch"):
        reader = getattr(relation, method, None)
        if reader is not None:
            return reader(rows)
    raise ImportError("this duckdb cannot stream Arrow batches: python3 -m pip install -U duckdb")
