"""The DuckDB engine's sources and connection: what ``source`` and ``kind``
name (files and globs, a database's table, a query, a ``duckdb://`` URL) as a
FROM clause with bound parameters, the connection (a private spill folder,
DuckDB's buffers held to :data:`DUCKDB_SHARE` of ``memory_limit``), the
source's column types, and a CSV's sniffed booleans read as the in-memory
road reads them. See :mod:`evalreport.engines.duckdb` for the kinds.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from contextlib import contextmanager
from types import SimpleNamespace
from urllib.parse import parse_qs, unquote

from ..spec.files import ENGINE_COMPRESSIONS
from .checks import quote_ident


KINDS = ("auto", "parquet", "csv", "json", "table", "sql")

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
#: a CSV's delimiter is the suffix's, as the in-memory road reads it (.tsv: tabs, else
#: commas): DuckDB's sniffer would read a file of ';', '|' or tabs named .csv that the
#: in-memory road refuses (issue 36: the engines agree)
#: map_inference_threshold -1: objects of more than 200 keys of one type are columns still, not one
#: MAP column named 'json' (DuckDB 1.2 on; issue 36: JSON lines of up to MAX_COLUMNS keys, as in memory)
_FILE_READERS = {"parquet": "read_parquet($source)", "csv": "read_csv($source, delim = $delim)",
                 "json": "read_json($source, map_inference_threshold = -1)"}
#: read_csv with some columns' types given (``$csv_types``: column -> type)
_CSV_TYPED = "read_csv($source, delim = $delim, types = $csv_types)"
_TSV = re.compile(r"\.tsv" + _COMPRESSED, re.IGNORECASE)
#: the words pyarrow's CSV reader (the in-memory road) reads as booleans
_ARROW_BOOLEAN_WORDS = frozenset({"true", "True", "TRUE", "false", "False", "FALSE"})
_QUERY = re.compile(r"^\s*\(?\s*(select|with|from)\b", re.IGNORECASE)
_NUMERIC = {
    "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT",
    "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT",
    "FLOAT", "DOUBLE", "BOOLEAN",
}


#: DuckDB's excerpt of a query (``LINE 1: SELECT * FROM read_csv(...)``, then a caret)
#: and its advice lists: not the user's words, and not one line of stderr
_EXCERPT = re.compile(r"^(LINE \d+:.*|\s*\^+\s*)$")
_ADVICE = re.compile(r"^(Possible (fixes|Solution)|The search space|\* |\s*-)", re.IGNORECASE)
#: the longest line of DuckDB's message kept (its "Original Line:" quotes a whole row)
_LONGEST = 200


def duckdb_text(exc) -> str:
    """A DuckDB error as one line: its own lines joined, less its query excerpt
    (``LINE 1: ...`` and the caret under it) and its lists of possible fixes."""
    kept = []
    for line in str(exc).strip().splitlines():
        if _ADVICE.match(line.strip()) and kept:
            break
        if line.strip() and not _EXCERPT.match(line):
            line = line.strip()
            kept.append(line if len(line) <= _LONGEST else line[:_LONGEST] + "...")
    return " ".join(kept) or str(exc).strip().splitlines()[0]


def import_duckdb():
    """The duckdb module, imported on first use (an ImportError saying how to install it)."""
    try:
        import duckdb
    except ImportError as exc:  # pragma: no cover - duckdb is installed where this runs
        raise ImportError(
            "the duckdb engine needs the duckdb package: python3 -m pip install duckdb"
        ) from exc
    return duckdb


def check_memory_limit(memory_limit) -> None:
    """A ValueError unless ``memory_limit`` is a non-empty text (DuckDB parses the size)."""
    if not isinstance(memory_limit, str) or not memory_limit.strip():
        raise ValueError(f"memory_limit must be a size such as '1GB', got {memory_limit!r}")


def connect(duckdb, database, *, memory_limit: str, temp_directory: str, threads=None):
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
        share_memory(con, DUCKDB_SHARE)
    except BaseException:
        con.close()
        raise
    return con


@contextmanager
def session(source, *, memory_limit: str, kind: str, database):
    """One connection to the source, in a temporary spill folder removed after:
    yields ``duckdb``, ``con``, ``from_sql``, ``params`` and ``where`` (the
    source resolved as :func:`resolve_source` resolves it)."""
    check_memory_limit(memory_limit)
    kind, database, from_sql, params, where = resolve_source(source, kind, database)
    duckdb = import_duckdb()
    tmp = tempfile.mkdtemp(prefix="evalreport-duckdb-")
    try:
        con = connect(duckdb, database, memory_limit=memory_limit, temp_directory=tmp)
        try:
            yield SimpleNamespace(duckdb=duckdb, con=con, from_sql=from_sql, params=params, where=where)
        finally:
            con.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def share_memory(con, share: float) -> None:
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


def resolve_source(source, kind: str, database):
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
        return kind, None, _reader(kind), _file_params(kind, paths, paths[0]), f"{kind} files {paths!r}"
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
        return kind, None, _reader(kind), _file_params(kind, source, source), f"{kind} {source!r}"
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


def _file_params(kind: str, source, first: str) -> dict:
    """The bound parameters of a file reader: the source, and a CSV's delimiter."""
    if kind != "csv":
        return {"source": source}
    return {"source": source, "delim": "\t" if _TSV.search(first) else ","}


def _reader(kind: str) -> str:
    return _FILE_READERS[kind]


def booleans_as_in_memory(con, duckdb, from_sql: str, params: dict, columns, where: str, types: dict):
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
        raise ValueError(f"DuckDB cannot read {where}: {duckdb_text(exc)}") from None
    return (_CSV_TYPED, {**params, "csv_types": text}) if text else (from_sql, params)


def column_types(con, duckdb, from_sql: str, params: dict, where: str) -> dict:
    """The source's column types (the name DuckDB gives each), in order."""
    try:
        desc = con.execute(f"SELECT * FROM {from_sql} LIMIT 0", params).description
    except duckdb.Error as exc:
        raise ValueError(f"DuckDB cannot read {where}: {duckdb_text(exc)}") from None
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


def type_problem(types: dict):
    """:func:`check_columns`' test: None for a numeric or boolean column, else its DuckDB type."""
    def problem(column):
        base = types[column].upper()
        return None if base in _NUMERIC or base.startswith("DECIMAL") else types[column]

    return problem
