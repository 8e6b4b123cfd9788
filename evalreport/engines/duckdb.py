"""The DuckDB engine: count tables from files, database tables or queries, out of core.

:func:`aggregate_duckdb` reads the data where it is (DuckDB streams Parquet and
CSV, and spills to disk past its memory limit), runs one ``GROUP BY score``
per learner and returns the count tables (see :mod:`evalreport.engines`).
Python only ever holds the aggregated rows: one per distinct score (or per
bin, with ``resolution``).

Sources (``kind``)
------------------
``"parquet"``
    ``source`` is a path, a glob (``data/*.parquet``, ``data/**/*.parquet``)
    or a list of paths, read with ``read_parquet``.
``"csv"``
    The same, read with ``read_csv`` (DuckDB's sniffer finds the delimiter,
    header and types: ``read_csv_auto``).
``"table"``
    ``source`` is a table (or view) name in the DuckDB database file
    ``database``, opened read-only: ``name``, ``schema.name`` or
    ``catalog.schema.name`` (each part is quoted as an identifier).
``"sql"``
    ``source`` is a query (``SELECT ...`` / ``WITH ...`` / ``FROM ...``) run
    as a subquery; with ``database`` it runs in that database (read-only),
    otherwise in a fresh in-memory one (where it can still read files with
    ``read_parquet(...)``). The query is the caller's own SQL, used as given:
    it is trusted like code, unlike column names and labels.
``"auto"`` (default)
    ``duckdb:///path/db.duckdb?table=name`` (``duckdb://relative/db.duckdb?...``
    for a relative path) is a table of that database; otherwise, with
    ``database`` given, a query if ``source`` starts with SELECT, WITH or FROM
    and a table name if not; otherwise by the suffix of the path or glob:
    ``.parquet`` / ``.parq`` / ``.pq`` -> parquet, ``.csv`` / ``.tsv`` /
    ``.txt`` (optionally ``.gz`` / ``.zst``) -> csv; a source starting with
    SELECT, WITH or FROM -> sql.

Safety: column names come from user specs and are always quoted as identifiers
(:func:`~evalreport.engines.quote_ident`); values (paths, the positive label,
the step, cell bounds) are always bound as parameters, never spliced into SQL.

Queries, in order (each a streaming pass over only the columns it names):

1. the schema (``LIMIT 0``): every named column must exist (the closest name
   is suggested) and scores and weights must be numeric or boolean;
2. one pass of checks: rows; missing labels; missing, NaN and infinite scores
   per learner; missing, non-finite and negative weights; missing groups; and
   with an integer resolution each score's min and max;
3. ``SELECT DISTINCT label ... ORDER BY 1 LIMIT LABELS_CAP + 1``;
4. per learner: ``SELECT score AS key, count(*) FILTER (WHERE label = $positive)
   AS pos, count(*) - pos AS neg FROM src GROUP BY ALL`` (BIGINT counts:
   exact), or with a weight ``sum(w) FILTER (WHERE label = $positive)`` and
   ``sum(w) FILTER (WHERE NOT label = $positive)`` (DOUBLE); ``count(*) AS n``
   too where the row counts cannot be inferred (integer resolution; weights
   with ``by``). The label bound is the distinct label equal to ``positive``
   as NumPy compares (so the text ``"1"`` never matches the number ``1``);
   when no label matches, every row is a negative.

Memory: DuckDB's part is capped by ``memory_limit`` (the aggregation spills
past it). The Python side holds the aggregated rows and builds the table from
them: about 100-130 bytes per distinct score at the peak. That is nothing with
tied scores or a ``resolution`` (1e8 rows aggregate in about 130-300 MiB of
peak RSS, see ``bench/engines.py``), but exact tables of continuous scores
have one row per data row (1e7 distinct scores: about 1.25 GiB), so past a few
million continuous scores under a 1 GB budget, use ``resolution``.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from urllib.parse import parse_qs, unquote

import numpy as np

from . import (
    MulticlassAggregated,
    class_column,
    class_key,
    judge_checks,
    LABELS_CAP,
    Aggregated,
    build_tables,
    cell_scale,
    cells_for,
    match_positive,
    missing_column_message,
    parse_resolution,
    quote_ident,
    sorted_labels,
)

__all__ = ["KINDS", "aggregate_duckdb"]

KINDS = ("auto", "parquet", "csv", "table", "sql")

_PARQUET = re.compile(r"\.(parquet|parq|pq)$", re.IGNORECASE)
_CSV = re.compile(r"\.(csv|tsv|txt)(\.(gz|zst))?$", re.IGNORECASE)
_QUERY = re.compile(r"^\s*\(?\s*(select|with|from)\b", re.IGNORECASE)
_NUMERIC = {
    "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT",
    "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT",
    "FLOAT", "DOUBLE", "BOOLEAN",
}


def _duckdb():
    try:
        import duckdb
    except ImportError as exc:  # pragma: no cover - duckdb is installed where this runs
        raise ImportError(
            "the duckdb engine needs the duckdb package: python3 -m pip install duckdb"
        ) from exc
    return duckdb


def aggregate_duckdb(
    source,
    *,
    label: str,
    positive,
    scores: dict[str, str],
    weight: str | None = None,
    resolution: float | None = None,
    memory_limit: str = "1GB",
    threads: int | None = None,
    kind: str = "auto",
    database: str | None = None,
    by: str | None = None,
    temp_directory: str | None = None,
) -> Aggregated:
    """Aggregate the count tables of ``scores`` with DuckDB, out of core.

    Parameters
    ----------
    source : str or list of str
        A path, glob or list of paths (Parquet, CSV); a table name; a query;
        or ``duckdb:///path/db.duckdb?table=name``. See the module docstring.
    label : str
        Column of true labels (any type; no missing values).
    positive : label
        The positive label, compared as NumPy would (text never equals a number).
    scores : dict
        Learner name -> score column (numeric or boolean; no missing, NaN or
        infinite values).
    weight : str, optional
        Column of non-negative finite weights; the tables are then float64.
    resolution : float or int, optional
        A float: bin the scores by ``floor(score / resolution)`` (thresholds are
        the bins' lower edges); an int: about that many bins of equal row counts.
        ``resolution_bound`` then bounds the error this puts on AUC, AP and BEP.
    memory_limit : str
        DuckDB's ``memory_limit`` (e.g. ``"1GB"``, ``"512MB"``): past it, the
        aggregation spills to ``temp_directory``. It caps DuckDB's buffers, not
        the Python process: the result (24 bytes per distinct score) comes on top.
    threads : int, optional
        DuckDB's ``threads`` (default: DuckDB's, one per core).
    kind : {"auto", "parquet", "csv", "table", "sql"}
    database : str, optional
        A DuckDB database file, opened read-only, for ``kind`` "table" or "sql".
    by : str, optional
        A column (groups, folds, classes): one table per (learner, value);
        ``tables`` is then keyed by ``(learner, value)``.
    temp_directory : str, optional
        Where DuckDB spills; default a private temporary directory, removed after.

    Returns
    -------
    Aggregated

    Raises
    ------
    ValueError
        A missing column (with the closest name), a non-numeric score or weight
        column, missing/NaN/infinite scores (the learner, column and count),
        missing, non-finite or negative weights, missing labels or groups, an
        empty source, or a source DuckDB cannot read.
    """
    if not scores:
        raise ValueError("name at least one learner (scores: learner -> column)")
    mode = parse_resolution(resolution)
    if threads is not None and (isinstance(threads, bool) or int(threads) < 1):
        raise ValueError(f"threads must be a positive integer, got {threads!r}")
    if not isinstance(memory_limit, str) or not memory_limit.strip():
        raise ValueError(f"memory_limit must be a size such as '1GB', got {memory_limit!r}")
    kind, database, from_sql, params, where = _resolve_source(source, kind, database)

    duckdb = _duckdb()
    own_tmp = temp_directory is None
    tmp = tempfile.mkdtemp(prefix="evalreport-duckdb-") if own_tmp else os.fspath(temp_directory)
    config = {
        "memory_limit": memory_limit,
        "temp_directory": tmp,
        "preserve_insertion_order": False,
    }
    if threads is not None:
        config["threads"] = int(threads)
    try:
        try:
            con = duckdb.connect(database or ":memory:", read_only=bool(database), config=config)
        except duckdb.Error as exc:
            raise ValueError(f"DuckDB cannot open {database or 'an in-memory database'}: {exc}") from None
        try:
            return _aggregate(
                duckdb, con, from_sql, params, where,
                label=label, positive=positive, scores=scores, weight=weight,
                mode=mode, by=by,
            )
        finally:
            con.close()
    finally:
        if own_tmp:
            shutil.rmtree(tmp, ignore_errors=True)


def _resolve_source(source, kind: str, database):
    """(kind, database, FROM clause, parameters, description for messages)."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}; got {kind!r}")
    if isinstance(source, (list, tuple)):
        paths = [os.fspath(p) for p in source]
        if not paths:
            raise ValueError("the source is an empty list of files")
        if kind == "auto":
            kind = _kind_of_path(paths[0])
        if kind not in ("parquet", "csv"):
            raise ValueError(f"a list of files needs kind 'parquet' or 'csv', not {kind!r}")
        return kind, None, _reader(kind), {"source": paths}, f"{kind} files {paths!r}"
    if not isinstance(source, (str, os.PathLike)):
        raise ValueError(f"source must be a path, glob, table, query or duckdb:// URL, got {source!r}")
    source = os.fspath(source)
    if source.startswith("duckdb://"):
        if kind not in ("auto", "table"):
            raise ValueError(f"a duckdb:// source is a table; kind {kind!r} does not apply")
        database, table = _parse_url(source)
        kind = "table"
        source = table
    elif kind == "auto":
        if database is not None:
            kind = "sql" if _QUERY.match(source) else "table"
        elif _QUERY.match(source):
            kind = "sql"
        else:
            kind = _kind_of_path(source)
    if kind in ("parquet", "csv"):
        if database is not None:
            raise ValueError(f"database applies to kind 'table' or 'sql', not {kind!r}")
        return kind, None, _reader(kind), {"source": source}, f"{kind} {source!r}"
    if kind == "table":
        if database is None:
            raise ValueError(
                f"table {source!r}: give the database file (database=..., or "
                "source='duckdb:///path/db.duckdb?table=name')"
            )
        parts = source.split(".")
        if not 1 <= len(parts) <= 3 or not all(parts):
            raise ValueError(f"a table is name, schema.name or catalog.schema.name; got {source!r}")
        return kind, os.fspath(database), ".".join(quote_ident(p) for p in parts), {}, (
            f"table {source!r} of {os.fspath(database)!r}"
        )
    # sql
    query = source.strip().rstrip(";").strip()
    if not query:
        raise ValueError("the SQL query is empty")
    return kind, database, f"({query}) AS src", {}, "the SQL query" + (
        f" on {os.fspath(database)!r}" if database is not None else ""
    )


def _reader(kind: str) -> str:
    return "read_parquet($source)" if kind == "parquet" else "read_csv($source)"


def _kind_of_path(path: str) -> str:
    if _PARQUET.search(path):
        return "parquet"
    if _CSV.search(path):
        return "csv"
    raise ValueError(
        f"cannot tell the kind of source {path!r}: name a .parquet or .csv file or glob, "
        "a duckdb:///db.duckdb?table=name URL, or pass kind='parquet', 'csv', 'table' or 'sql'"
    )


def _parse_url(url: str):
    """duckdb:///abs/db.duckdb?table=t -> ('/abs/db.duckdb', 't')."""
    rest = url[len("duckdb://"):]
    path, _, query = rest.partition("?")
    path = unquote(path)
    table = parse_qs(query).get("table", [None])[-1]
    if not path:
        raise ValueError(f"{url!r}: no database path (duckdb:///path/db.duckdb?table=name)")
    if not table:
        raise ValueError(f"{url!r}: name the table: duckdb:///path/db.duckdb?table=name")
    return path, table


def _aggregate(duckdb, con, from_sql, params, where, *, label, positive, scores, weight, mode, by):
    def run(sql, extra=None):
        p = dict(params)
        if extra:
            p.update(extra)
        # Bind only what the statement uses (DuckDB rejects unused named parameters).
        p = {k: v for k, v in p.items() if re.search(rf"\${k}\b", sql)}
        return con.execute(sql, p)

    # 1. schema
    try:
        desc = run(f"SELECT * FROM {from_sql} LIMIT 0").description
    except duckdb.Error as exc:
        raise ValueError(f"DuckDB cannot read {where}: {str(exc).strip()}") from None
    types = {d[0]: str(d[1]) for d in desc}
    columns = list(types)

    def need(column, role):
        if not isinstance(column, str) or column not in types:
            raise ValueError(missing_column_message(str(column), columns, role=role, where=where))

    need(label, "label")
    for name, col in scores.items():
        need(col, f"score (learner {name!r})")
        _numeric(types[col], f"score column {col!r} of learner {name!r}", where)
    if weight is not None:
        need(weight, "weight")
        _numeric(types[weight], f"weight column {weight!r}", where)
    if by is not None:
        need(by, "group (by)")

    lab = quote_ident(label)
    # 2. checks, one pass
    checks = ["count(*)", f"count(*) FILTER (WHERE {lab} IS NULL)"]
    cols = list(dict.fromkeys(scores.values()))
    for col in cols:
        x = f"CAST({quote_ident(col)} AS DOUBLE)"
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
    try:
        row = list(run(f"SELECT {', '.join(checks)} FROM {from_sql}").fetchall()[0])
    except duckdb.Error as exc:
        raise ValueError(f"DuckDB failed reading {where}: {str(exc).strip()}") from None
    rows, ranges = judge_checks(row, cols=cols, scores=scores, mode=mode, label=label,
                                weight=weight, by=by, where=where)

    # 3. labels
    found = [r[0] for r in run(
        f"SELECT DISTINCT {lab} FROM {from_sql} ORDER BY 1 LIMIT {LABELS_CAP + 1}"
    ).fetchall()]
    truncated = len(found) > LABELS_CAP
    labels = sorted_labels(found)
    positive_label = match_positive(labels, positive)
    if positive_label is None and truncated:
        # More labels than fetched: look for the positive one among the rest.
        probe = [r[0] for r in run(
            f"SELECT DISTINCT {lab} FROM {from_sql} WHERE CAST({lab} AS VARCHAR) = $plabel",
            {"plabel": str(positive)},
        ).fetchall()]
        positive_label = match_positive(probe, positive)

    # 4. one GROUP BY per learner
    if positive_label is None:
        is_pos = "FALSE"
        bind = {}
    else:
        is_pos = f"{lab} = $positive"
        bind = {"positive": positive_label.item() if isinstance(positive_label, np.generic) else positive_label}
    tables: dict = {}
    bounds = {} if mode is not None else None
    g = f"{quote_ident(by)} AS g, " if by is not None else ""
    for name, col in scores.items():
        x = f"CAST({quote_ident(col)} AS DOUBLE)"
        extra = dict(bind)
        smin = ""
        if mode is None:
            key = x
        elif mode[0] == "step":
            key = f"floor({x} / $step)"
            extra["step"] = mode[1]
        else:
            cells = cells_for(mode[1])
            lo, hi = ranges[col]
            key = f"least(floor(({x} - $lo) * $scale), $last)"
            extra.update(lo=float(lo), scale=cell_scale(float(lo), float(hi), cells), last=float(cells - 1))
            smin = f", min({x}) AS smin"
        if weight is None:
            counts = f"count(*) FILTER (WHERE {is_pos}) AS pos, count(*) - count(*) FILTER (WHERE {is_pos}) AS neg"
        else:
            w = f"CAST({quote_ident(weight)} AS DOUBLE)"
            counts = (
                f"coalesce(sum({w}) FILTER (WHERE {is_pos}), 0)::DOUBLE AS pos, "
                f"coalesce(sum({w}) FILTER (WHERE NOT ({is_pos})), 0)::DOUBLE AS neg"
            )
        # the row count n only where it cannot be inferred (see build_tables)
        n = "count(*) AS n, " if (mode is not None and mode[0] == "bins") or (weight is not None and by) else ""
        sql = f"SELECT {g}{key} AS key, {n}{counts}{smin} FROM {from_sql} GROUP BY ALL"
        try:
            frame = run(sql, extra).fetchnumpy()
        except duckdb.Error as exc:
            raise ValueError(f"DuckDB failed aggregating learner {name!r} of {where}: {str(exc).strip()}") from None
        build_tables(
            frame, learner=name, by=by is not None, mode=mode,
            weighted=weight is not None, tables=tables, bounds=bounds, rows=rows,
        )
        del frame
    return Aggregated(
        tables=tables,
        rows=rows,
        resolution_bound=bounds,
        labels_seen=labels,
        labels_truncated=truncated,
        positive_label=positive_label,
    )


def _numeric(type_name: str, what: str, where: str) -> None:
    base = type_name.upper()
    if base in _NUMERIC or base.startswith("DECIMAL"):
        return
    raise ValueError(f"{what} is not numeric (DuckDB type {type_name}) in {where}")


def aggregate_duckdb_multiclass(source, *, label: str, classes, learners: dict[str, list[str]],
                                weight: str | None = None, memory_limit: str = "1GB",
                                kind: str = "auto", database: str | None = None):
    """Multi-class counts of each learner with DuckDB: one GROUP BY (true class,
    decision) for the confusion matrix and one GROUP BY (score, true class) per
    class column, from which the one-vs-rest tables and the pairwise wins follow
    exactly as on the in-memory path. Returns (rows, {learner: MulticlassAggregated}).
    """
    keys = [class_key(c) for c in classes]
    k = len(keys)
    kind, database, from_sql, params, where = _resolve_source(source, kind, database)
    duckdb = _duckdb()
    tmp = tempfile.mkdtemp(prefix="evalreport-duckdb-")
    config = {"memory_limit": memory_limit, "temp_directory": tmp, "preserve_insertion_order": False}
    try:
        con = duckdb.connect(database or ":memory:", read_only=bool(database), config=config)
        try:
            def run(sql):
                try:
                    return con.execute(sql, params).fetchall()
                except duckdb.Error as exc:
                    raise ValueError(f"DuckDB failed reading {where}: {str(exc).strip()}") from None

            lab = f"CAST({quote_ident(label)} AS VARCHAR)"
            w = "1" if weight is None else quote_ident(weight)
            cols = [c for columns in learners.values() for c in columns]
            checks = ", ".join(
                f"count(*) FILTER (WHERE {quote_ident(c)} IS NULL OR isnan({quote_ident(c)}) "
                f"OR isinf({quote_ident(c)}))" for c in cols)
            counts = run(f"SELECT count(*), count(*) FILTER (WHERE {quote_ident(label)} IS NULL), {checks} "
                         f"FROM {from_sql}")[0]
            rows, null_labels, bad = counts[0], counts[1], counts[2:]
            if rows == 0:
                raise ValueError(f"{where} has no rows")
            if null_labels:
                raise ValueError(f"label column {label!r} has {null_labels} missing value(s) in {where}")
            for c, nbad in zip(cols, bad):
                if nbad:
                    raise ValueError(f"score column {c!r} has {nbad} missing, NaN or infinite value(s) in {where}")
            labels = [r[0] for r in run(f"SELECT DISTINCT {lab} FROM {from_sql}")]
            index = {}
            for value in labels:
                key = class_key(value)
                if key not in keys:
                    raise ValueError(f"label {value!r} in {where} is not one of the classes ({', '.join(keys)})")
                index[value] = keys.index(key)
            out = {}
            for name, columns in learners.items():
                listed = ", ".join(quote_ident(c) for c in columns)
                confusion = np.zeros((k, k))
                for value, pred, total in run(
                        f"SELECT {lab}, list_position([{listed}], greatest({listed})), sum({w}) "
                        f"FROM {from_sql} GROUP BY ALL"):
                    confusion[index[value], int(pred) - 1] += float(total)
                tables, wins = [], np.zeros((k, k))
                for i, c in enumerate(columns):
                    got = run(f"SELECT {quote_ident(c)}, {lab}, sum({w}) FROM {from_sql} GROUP BY ALL")
                    table, wins[i] = class_column(got, index, i, k, int(rows), integral=weight is None)
                    tables.append(table)
                out[name] = MulticlassAggregated(confusion, tables, wins)
            return int(rows), out
        finally:
            con.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
