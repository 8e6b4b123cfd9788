"""The DuckDB engine: count tables from files, database tables or queries, out of core.

:func:`aggregate_duckdb` reads the data where it is (DuckDB streams Parquet and
CSV, and spills to disk past its memory limit), runs one ``GROUP BY score``
per learner and returns the count tables (see :mod:`evalreport.engines`).
With ``resolution`` Python holds the aggregated rows (one per bin). Exact
tables (no ``resolution``) are streamed in score order, in Arrow batches,
through :class:`evalreport.metrics.CountReducer`: Python holds one batch and
the reducer's kept rows, never the whole table, whatever the number of
distinct scores.

Sources (``kind``)
------------------
``"parquet"``
    ``source`` is a path, a glob (``data/*.parquet``, ``data/**/*.parquet``)
    or a list of paths, read with ``read_parquet``.
``"csv"``
    The same, read with ``read_csv`` (DuckDB's sniffer finds the delimiter,
    header and types: ``read_csv_auto``). A named column the sniffer takes
    for BOOLEAN is read as text unless its words are true and false: DuckDB
    also takes yes/no and t/f for booleans, pyarrow (the in-memory road) does
    not, and the same file must give the same labels (and refuse the same
    scores) on both.
``"json"``
    The same, read with ``read_json`` (JSON lines, or one JSON array).
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
    ``.txt`` (optionally ``.gz`` / ``.zst``) -> csv, ``.jsonl`` / ``.ndjson``
    / ``.json`` (the same) -> json; a source starting with SELECT, WITH or
    FROM -> sql.

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

Exact mode (no ``resolution``) runs, before step 4, the class totals (the same
counts over the whole source: the reducer needs m+ and m- in advance for the
break-even point and partial AUCs) and with ``by`` the distinct groups; step 4
then adds ``ORDER BY key DESC`` and is read in Arrow batches of
:data:`BATCH_ROWS` rows (with ``by`` it groups by (group, score), and each
batch's groups are coded with ``pyarrow.compute.index_in``). What comes back
(see :mod:`evalreport.metrics.stream`): a table of at most ``cap`` rows is
kept whole, the very table the fetch-everything path built; a longer one is
reduced to the ROC hull's vertices, the rows of ``keep_thresholds`` and at
most ``cap`` evenly spaced rows, and ``Aggregated.reductions`` carries the
AUC, rank loss, AP, BEP and partial AUCs computed over every row (bit for bit
or to rounding, as :mod:`evalreport.metrics.stream` says). With ``by``, each
group's table is then reduced to the hull and ``keep_thresholds`` rows (exact there:
what a per-group confusion matrix at the decision threshold needs) and the
learner's own table comes in ``Aggregated.learner_tables``.

Memory: ``memory_limit`` is the budget of the whole aggregation; DuckDB's
buffers get half of it (:data:`DUCKDB_SHARE`), past which it spills to disk,
because DuckDB's resident memory overshoots its limit while it sorts and the
Python side needs the rest. Python holds, with ``resolution``, the binned
rows (nothing); in exact mode one Arrow batch, the reducer's temporaries for
it and at most ``2 cap`` kept rows (a few tens of MiB). ``bench/engines.py``
with the default 1GB: 1e8 rows of exact continuous scores (1e8 distinct) in
716 MiB of peak RSS (72 s on 2 CPUs, mostly DuckDB's sort); tied scores and
resolutions in 150-250 MiB.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from urllib.parse import parse_qs, unquote

import numpy as np

from ..arrow import arrow_to_numpy
from ..metrics import stream as _stream
from ..spec import ENGINE_COMPRESSIONS
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
    ColumnError,
    check_columns,
    parse_resolution,
    quote_ident,
    sorted_labels,
)

__all__ = ["KINDS", "aggregate_duckdb"]

KINDS = ("auto", "parquet", "csv", "json", "table", "sql")

#: Rows per Arrow batch when an exact table is streamed.
BATCH_ROWS = 1 << 18

#: Share of ``memory_limit`` given to DuckDB's own buffers. DuckDB's resident
#: memory overshoots its limit by 10-20 % while it sorts and spills, and the
#: Python side (interpreter, NumPy, pyarrow, one Arrow batch, the reducer's kept
#: rows) needs about 150-250 MiB: with half, a 1GB budget holds at 1e8 rows.
DUCKDB_SHARE = 0.5

_SIZE = re.compile(r"\s*([0-9]+(?:\.[0-9]+)?)\s*(B|bytes|KiB|MiB|GiB|TiB|PiB|KB|MB|GB|TB|PB)?\s*")
_UNITS = {None: 1, "B": 1, "bytes": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40, "PiB": 2**50,
          "KB": 10**3, "MB": 10**6, "GB": 10**9, "TB": 10**12, "PB": 10**15}

_PARQUET = re.compile(r"\.(parquet|parq|pq)$", re.IGNORECASE)
_COMPRESSED = r"(\.(" + "|".join(c.lstrip(".") for c in ENGINE_COMPRESSIONS["duckdb"]) + "))?$"
_CSV = re.compile(r"\.(csv|tsv|txt)" + _COMPRESSED, re.IGNORECASE)
_JSON = re.compile(r"\.(jsonl|ndjson|json)" + _COMPRESSED, re.IGNORECASE)
_FILE_READERS = {"parquet": "read_parquet($source)", "csv": "read_csv($source)", "json": "read_json($source)"}
#: read_csv with some columns' types given (``$csv_types``: column -> type)
_CSV_TYPED = "read_csv($source, types = $csv_types)"
#: the words pyarrow's CSV reader (the in-memory road) reads as booleans
_ARROW_BOOLEAN_WORDS = frozenset({"true", "True", "TRUE", "false", "False", "FALSE"})
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
    keep_thresholds=(),
    max_fprs=(),
    cap: int | None = None,
    batch_rows: int | None = None,
    labels_as_text: bool = False,
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
        The memory budget of the aggregation (e.g. ``"1GB"``, ``"512MB"``, any
        size DuckDB reads): DuckDB's buffers get :data:`DUCKDB_SHARE` (half) of
        it, past which it spills to ``temp_directory``; the rest is for the
        Python side (one Arrow batch, the reducer's kept rows). At 1e8 rows of
        exact continuous scores, 1GB keeps the whole process under 1 GB.
    threads : int, optional
        DuckDB's ``threads`` (default: DuckDB's, one per core).
    kind : {"auto", "parquet", "csv", "json", "table", "sql"}
    database : str, optional
        A DuckDB database file, opened read-only, for ``kind`` "table" or "sql".
    by : str, optional
        A column (groups, folds, classes): one table per (learner, value);
        ``tables`` is then keyed by ``(learner, value)``.
    temp_directory : str, optional
        Where DuckDB spills; default a private temporary directory, removed after.
    keep_thresholds : floats
        Exact mode: thresholds at which each table must stay exact when it is
        reduced (the decision thresholds the caller will ask for).
    max_fprs : floats
        Exact mode: partial AUCs to compute exactly while streaming
        (``Aggregated.reductions[learner].partial_auc``).
    cap : int, optional
        Exact mode: a table of at most ``cap`` rows is kept whole; a longer one is
        reduced (see :mod:`evalreport.metrics.stream`). An integer >= 2; default
        :data:`evalreport.metrics.stream.DEFAULT_CAP`, read at each call.
    batch_rows : int, optional
        Exact mode: rows per Arrow batch fetched from DuckDB (default
        :data:`BATCH_ROWS`, read at each call).
    labels_as_text : bool
        Match ``positive`` to the labels as a spec does (as text: 1, 1.0 and
        '1' are one label; True is 'true'), not as NumPy compares.

    Returns
    -------
    Aggregated

    Raises
    ------
    ValueError
        A missing column (with the closest name), a non-numeric score or weight
        column, missing/NaN/infinite scores (the learner, column and count),
        missing, non-finite or negative weights, missing labels or groups, an
        empty source, or a source DuckDB cannot read. In exact mode also: a
        ``cap`` or ``batch_rows`` that is not an integer, more than
        :data:`evalreport.metrics.stream.MAX_GROUPS` groups, or unweighted
        class totals past the int64 limit (2 m+ m- >= 2**63; see
        :mod:`evalreport.metrics.stream`, Limits).
    """
    if not scores:
        raise ValueError("name at least one learner (scores: learner -> column)")
    mode = parse_resolution(resolution)
    if threads is not None and (isinstance(threads, bool) or int(threads) < 1):
        raise ValueError(f"threads must be a positive integer, got {threads!r}")
    _check_memory_limit(memory_limit)
    kind, database, from_sql, params, where = _resolve_source(source, kind, database)

    duckdb = _duckdb()
    own_tmp = temp_directory is None
    tmp = tempfile.mkdtemp(prefix="evalreport-duckdb-") if own_tmp else os.fspath(temp_directory)
    try:
        con = _connect(duckdb, database, memory_limit=memory_limit, temp_directory=tmp, threads=threads)
        try:
            return _aggregate(
                duckdb, con, from_sql, params, where,
                label=label, positive=positive, scores=scores, weight=weight,
                mode=mode, by=by, labels_as_text=labels_as_text, stream=dict(keep_thresholds=tuple(keep_thresholds),
                                             max_fprs=tuple(max_fprs), cap=cap, batch_rows=batch_rows),
            )
        finally:
            con.close()
    finally:
        if own_tmp:
            shutil.rmtree(tmp, ignore_errors=True)


def _check_memory_limit(memory_limit) -> None:
    if not isinstance(memory_limit, str) or not memory_limit.strip():
        raise ValueError(f"memory_limit must be a size such as '1GB', got {memory_limit!r}")


def _connect(duckdb, database, *, memory_limit: str, temp_directory: str, threads=None):
    """A DuckDB connection for one aggregation: spilling to ``temp_directory``,
    its buffers held to :data:`DUCKDB_SHARE` of ``memory_limit`` (the budget
    of the whole aggregation, Python's side included)."""
    config = {"memory_limit": memory_limit, "temp_directory": temp_directory,
              "preserve_insertion_order": False}
    if threads is not None:
        config["threads"] = int(threads)
    try:
        con = duckdb.connect(database or ":memory:", read_only=bool(database), config=config)
    except duckdb.Error as exc:
        raise ValueError(f"DuckDB cannot open {database or 'an in-memory database'}: {exc}") from None
    try:
        _share_memory(con, DUCKDB_SHARE)
    except BaseException:
        con.close()
        raise
    return con


def _share_memory(con, share: float) -> None:
    """Lower DuckDB's ``memory_limit`` to ``share`` of the one it parsed from the
    caller's (``memory_limit`` is the budget of the whole aggregation, Python's
    side included). DuckDB reads the caller's text (units, percentages of RAM)
    and shows it back as a size such as ``953.6 MiB``, which is read here."""
    shown = con.execute("SELECT current_setting('memory_limit')").fetchone()[0]
    match = _SIZE.fullmatch(str(shown))
    if match is None:  # an unknown format: leave DuckDB's limit as it is
        return
    limit = float(match[1]) * _UNITS[match[2]]
    con.execute(f"SET memory_limit = '{max(int(limit * share), 1 << 20)}B'")


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
        if kind not in _FILE_READERS:
            raise ValueError(f"a list of files needs kind 'parquet', 'csv' or 'json', not {kind!r}")
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
    if kind in _FILE_READERS:
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
    return _FILE_READERS[kind]


def _booleans_as_in_memory(con, duckdb, from_sql: str, params: dict, columns, where: str, types: dict):
    """(FROM clause, parameters) that read the named ``columns`` of a CSV
    source as the in-memory road does; ``types`` (the sniffed column types)
    is updated to match.

    DuckDB's sniffer types a column of yes/no (or t/f) as BOOLEAN; pyarrow
    reads only true/false words as booleans, the rest as text. So a column
    sniffed BOOLEAN is read as VARCHAR if any value is not one of
    :data:`_ARROW_BOOLEAN_WORDS`: a label or group is then text, and a
    score or weight is refused as not numeric, as in memory.
    """
    if from_sql != _FILE_READERS["csv"]:
        return from_sql, params
    text = {}
    try:
        for column in dict.fromkeys(c for c in columns if c is not None and types.get(c) == "BOOLEAN"):
            other = con.execute(
                f"SELECT 1 FROM {_CSV_TYPED} WHERE NOT list_contains($words, {quote_ident(column)}) LIMIT 1",
                {**params, "csv_types": {column: "VARCHAR"}, "words": sorted(_ARROW_BOOLEAN_WORDS)}).fetchall()
            if other:
                text[column] = types[column] = "VARCHAR"
    except duckdb.Error as exc:
        raise ValueError(f"DuckDB cannot read {where}: {str(exc).strip()}") from None
    return (_CSV_TYPED, {**params, "csv_types": text}) if text else (from_sql, params)


def _schema(con, duckdb, from_sql: str, params: dict, where: str) -> dict:
    """The source's column types (the name DuckDB gives each), in order."""
    try:
        desc = con.execute(f"SELECT * FROM {from_sql} LIMIT 0", params).description
    except duckdb.Error as exc:
        raise ValueError(f"DuckDB cannot read {where}: {str(exc).strip()}") from None
    return {d[0]: str(d[1]) for d in desc}


def _kind_of_path(path: str) -> str:
    if _PARQUET.search(path):
        return "parquet"
    if _CSV.search(path):
        return "csv"
    if _JSON.search(path):
        return "json"
    raise ValueError(
        f"cannot tell the kind of source {path!r}: name a .parquet, .csv, .tsv or .jsonl file or glob, "
        "a duckdb:///db.duckdb?table=name URL, or pass kind='parquet', 'csv', 'json', 'table' or 'sql'"
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


def _aggregate(duckdb, con, from_sql, params, where, *, label, positive, scores, weight, mode, by,
               labels_as_text=False, stream=None):
    def bound(sql, extra=None):
        p = dict(params)
        if extra:
            p.update(extra)
        # Bind only what the statement uses (DuckDB rejects unused named parameters).
        return {k: v for k, v in p.items() if re.search(rf"\${k}\b", sql)}

    def run(sql, extra=None):
        return con.execute(sql, bound(sql, extra))

    # 1. schema
    types = _schema(con, duckdb, from_sql, bound(f"SELECT * FROM {from_sql}"), where)
    from_sql, params = _booleans_as_in_memory(con, duckdb, from_sql, params,
                                              (label, by, weight, *scores.values()), where, types)
    check_columns(list(types), label=label, scores=scores, weight=weight, by=by, where=where, engine="DuckDB",
                  type_problem=_type_problem(types))

    lab = quote_ident(label)
    # 2. checks, one pass
    checks = ["count(*)", f"count(*) FILTER (WHERE {lab} IS NULL)"]
    cols = list(dict.fromkeys(scores.values()))
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
    positive_label = match_positive(labels, positive, as_text=labels_as_text)
    if positive_label is None and truncated:
        # More labels than fetched: look for the positive one among the rest.
        probe = [r[0] for r in run(
            f"SELECT DISTINCT {lab} FROM {from_sql} WHERE CAST({lab} AS VARCHAR) = $plabel",
            {"plabel": str(positive)},
        ).fetchall()]
        positive_label = match_positive(probe, positive, as_text=labels_as_text)

    # 4. one GROUP BY per learner
    if positive_label is None:
        is_pos = "FALSE"
        bind = {}
    else:
        is_pos = f"{lab} = $positive"
        bind = {"positive": positive_label.item() if isinstance(positive_label, np.generic) else positive_label}
    if mode is None:
        return _stream_exact(
            duckdb, con, from_sql, where, bound, run, lab=lab, is_pos=is_pos, bind=bind, scores=scores,
            weight=weight, by=by, rows=rows, labels=labels, truncated=truncated,
            positive_label=positive_label, **(stream or {}),
        )
    tables: dict = {}
    bounds = {}
    counts = _class_sums(is_pos, weight)
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


def _class_sums(is_pos: str, weight: str | None) -> str:
    """SELECT items ``pos`` and ``neg``: the rows (or weights) of each class in a group."""
    if weight is None:
        return f"count(*) FILTER (WHERE {is_pos}) AS pos, count(*) - count(*) FILTER (WHERE {is_pos}) AS neg"
    w = f"CAST({quote_ident(weight)} AS DOUBLE)"
    return (f"coalesce(sum({w}) FILTER (WHERE {is_pos}), 0)::DOUBLE AS pos, "
            f"coalesce(sum({w}) FILTER (WHERE NOT ({is_pos})), 0)::DOUBLE AS neg")


def _stream_exact(duckdb, con, from_sql, where, bound, run, *, lab, is_pos, bind, scores, weight, by, rows,
                  labels, truncated, positive_label, keep_thresholds=(), max_fprs=(), cap=None,
                  batch_rows=None) -> Aggregated:
    """Exact tables, streamed: ``GROUP BY score ORDER BY score DESC`` read in Arrow
    batches through :class:`~evalreport.metrics.CountReducer`, so Python holds one
    batch and the reducer's kept rows, never the whole table."""
    import pyarrow as pa  # (Arrow batches: pyarrow is needed here whatever the options)
    import pyarrow.compute as pc

    cap = _stream._integer(_stream.DEFAULT_CAP if cap is None else cap, "cap", 2)
    batch_rows = _stream._integer(BATCH_ROWS if batch_rows is None else batch_rows, "batch_rows", 1)
    counts = _class_sums(is_pos, weight)
    # The class totals first (one pass over the label and weight columns): the
    # reducer needs m+ for the break-even point and m+, m- for partial AUCs.
    try:
        m_pos, m_neg = run(f"SELECT {counts} FROM {from_sql}", bind).fetchall()[0]
    except duckdb.Error as exc:
        raise ValueError(f"DuckDB failed reading {where}: {str(exc).strip()}") from None
    value_set = group_values = None
    if by is not None:
        try:
            distinct = _arrow_table(con.sql(f"SELECT DISTINCT {quote_ident(by)} AS g FROM {from_sql}",
                                            params=bound(from_sql) or None)).column("g").combine_chunks()
        except duckdb.Error as exc:
            raise ValueError(f"DuckDB failed reading the groups of {where}: {str(exc).strip()}") from None
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
            for batch in _arrow_batches(con.sql(sql, params=bound(sql, bind) or None), batch_rows):
                codes = None
                if by is not None:
                    codes = _numpy(pc.index_in(batch.column("g"), value_set=value_set))
                reducer.feed(
                    _numpy(batch.column("key")), _numpy(batch.column("pos")), _numpy(batch.column("neg")),
                    codes, _numpy(batch.column("n")) if n else None,
                )
                del batch
        except duckdb.Error as exc:
            raise ValueError(f"DuckDB failed aggregating learner {name!r} of {where}: {str(exc).strip()}") from None
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


def _type_problem(types: dict):
    """:func:`check_columns`' test: None for a numeric or boolean column, else its DuckDB type."""
    def problem(column):
        base = types[column].upper()
        return None if base in _NUMERIC or base.startswith("DECIMAL") else types[column]

    return problem


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
    _check_memory_limit(memory_limit)
    kind, database, from_sql, params, where = _resolve_source(source, kind, database)
    duckdb = _duckdb()
    tmp = tempfile.mkdtemp(prefix="evalreport-duckdb-")
    try:
        con = _connect(duckdb, database, memory_limit=memory_limit, temp_directory=tmp)
        try:
            def run(sql):
                try:
                    return con.execute(sql, params).fetchall()
                except duckdb.Error as exc:
                    raise ValueError(f"DuckDB failed reading {where}: {str(exc).strip()}") from None

            types = _schema(con, duckdb, from_sql, params, where)
            cols = [c for columns in learners.values() for c in columns]
            from_sql, params = _booleans_as_in_memory(con, duckdb, from_sql, params, (label, weight, *cols), where,
                                                      types)
            check_columns(list(types), label=label, scores=learners, weight=weight, by=None, where=where,
                          engine="DuckDB", type_problem=_type_problem(types))
            owner = {c: name for name, columns in learners.items() for c in columns}
            lab = f"CAST({quote_ident(label)} AS VARCHAR)"
            w = "1" if weight is None else quote_ident(weight)
            # (a boolean is never NaN or infinite, and isnan takes no BOOLEAN)
            checks = ", ".join(
                f"count(*) FILTER (WHERE {quote_ident(c)} IS NULL)" if types[c] == "BOOLEAN" else
                f"count(*) FILTER (WHERE {quote_ident(c)} IS NULL OR isnan({quote_ident(c)}) "
                f"OR isinf({quote_ident(c)}))" for c in cols)
            counts = run(f"SELECT count(*), count(*) FILTER (WHERE {quote_ident(label)} IS NULL), {checks} "
                         f"FROM {from_sql}")[0]
            rows, null_labels, bad = counts[0], counts[1], counts[2:]
            if rows == 0:
                raise ValueError(f"{where} has no rows")
            if null_labels:
                raise ColumnError(f"label column {label!r} has {null_labels} missing value(s) in {where}", "label")
            for c, nbad in zip(cols, bad):
                if nbad:
                    raise ColumnError(f"score column {c!r} has {nbad} missing, NaN or infinite value(s) in {where}",
                                      "score", owner[c])
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
