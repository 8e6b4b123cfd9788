"""The id column checked where the data lives (``engine: duckdb``), as the
in-memory road checks it: no missing (null or empty) id, no id twice. DuckDB
aggregates without the ids, but an id column that the memory engine refuses
must be refused here too (issue 36: the engines agree on what is valid).
"""

from __future__ import annotations

from .checks import id_problem, quote_ident
from .duckdb_source import column_types, duckdb_text, session

__all__ = ["check_ids_duckdb", "largest_weight_duckdb"]


def largest_weight_duckdb(source, weight: str, *, memory_limit: str = "1GB", kind: str = "auto",
                          database: str | None = None) -> float | None:
    """The largest finite weight of the source (None: no such column, or none finite):
    the in-memory road scales weights by its power of two when their sums would
    overflow or their products underflow, and so does the DuckDB road with it."""
    with session(source, memory_limit=memory_limit, kind=kind, database=database) as db:
        types = column_types(db.con, db.duckdb, db.from_sql, db.params, db.where)
        if weight not in types:
            return None
        w = f"TRY_CAST({quote_ident(weight)} AS DOUBLE)"
        try:
            top = db.con.execute(f"SELECT max({w}) FILTER (WHERE isfinite({w})) FROM {db.from_sql}",
                                 db.params).fetchone()[0]
        except db.duckdb.Error:
            return None  # (the aggregation tells what DuckDB cannot read)
    return None if top is None else float(top)


def check_ids_duckdb(source, id_column: str, *, memory_limit: str = "1GB", kind: str = "auto",
                     database: str | None = None) -> None:
    """Raise :class:`~evalreport.engines.checks.ColumnError` (role "id") when the
    id column is missing, holds a missing or empty id, or an id twice; two
    queries (a count and a GROUP BY that DuckDB spills past ``memory_limit``)."""
    with session(source, memory_limit=memory_limit, kind=kind, database=database) as db:
        types = column_types(db.con, db.duckdb, db.from_sql, db.params, db.where)
        if id_column not in types:
            return  # the aggregation names the missing column (with the closest name)
        col = quote_ident(id_column)
        empty = f"{col} IS NULL" + (f" OR trim({col}) = ''" if types[id_column] == "VARCHAR" else "")
        try:
            missing = db.con.execute(f"SELECT count(*) FILTER (WHERE {empty}) FROM {db.from_sql}",
                                     db.params).fetchone()[0]
            twice = db.con.execute(f"SELECT {col}, count(*) AS n FROM {db.from_sql} WHERE {col} IS NOT NULL "
                                   f"GROUP BY {col} HAVING count(*) > 1 ORDER BY {col} LIMIT 1",
                                   db.params).fetchone()
        except db.duckdb.Error as exc:
            raise ValueError(f"DuckDB failed reading {db.where}: {duckdb_text(exc)}") from None
    id_problem(id_column, missing, twice)
