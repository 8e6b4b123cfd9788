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

The engine by job: this module (the two entry points),
:mod:`~evalreport.engines.duckdb_source` (sources, connection, column types)
and :mod:`~evalreport.engines.duckdb_queries` (the binary task's queries).
"""

from __future__ import annotations

import os
import shutil
import tempfile

import numpy as np

from .checks import check_columns, judge_class_checks, quote_ident
from .duckdb_queries import aggregate, scaled_weight
from .duckdb_source import (  # noqa: F401 (KINDS, DUCKDB_SHARE and share_memory: re-exported)
    DUCKDB_SHARE,
    KINDS,
    booleans_as_in_memory,
    check_memory_limit,
    column_types,
    connect,
    import_duckdb,
    resolve_source,
    session,
    share_memory,
    type_problem,
    duckdb_text,
)
from .resolution import parse_resolution
from .tables import Aggregated, MulticlassAggregated, class_column, class_key

__all__ = ["KINDS", "aggregate_duckdb"]

#: Rows per Arrow batch when an exact table is streamed.
BATCH_ROWS = 1 << 18


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
    weight_exponent: int = 0,
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
    weight_exponent : int
        The weights are summed scaled by ``2**-weight_exponent`` (exactly): weights of
        a scale whose sums overflow or whose products underflow, as the in-memory
        road scales them (see :func:`weight_exponent_duckdb`).
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
    check_memory_limit(memory_limit)
    kind, database, from_sql, params, where = resolve_source(source, kind, database)

    duckdb = import_duckdb()
    own_tmp = temp_directory is None
    tmp = tempfile.mkdtemp(prefix="evalreport-duckdb-") if own_tmp else os.fspath(temp_directory)
    try:
        con = connect(duckdb, database, memory_limit=memory_limit, temp_directory=tmp, threads=threads)
        try:
            return aggregate(
                duckdb, con, from_sql, params, where,
                label=label, positive=positive, scores=scores, weight=weight,
                mode=mode, by=by, labels_as_text=labels_as_text, weight_exponent=weight_exponent, stream=dict(keep_thresholds=tuple(keep_thresholds),
                                             max_fprs=tuple(max_fprs), cap=cap,
                                             batch_rows=BATCH_ROWS if batch_rows is None else batch_rows),
            )
        finally:
            con.close()
    finally:
        if own_tmp:
            shutil.rmtree(tmp, ignore_errors=True)


def aggregate_duckdb_multiclass(source, *, label: str, classes, learners: dict[str, list[str]],
                                weight: str | None = None, memory_limit: str = "1GB",
                                kind: str = "auto", database: str | None = None, weight_exponent: int = 0):
    """Multi-class counts of each learner with DuckDB: one GROUP BY (true class,
    decision) for the confusion matrix and one GROUP BY (score, true class) per
    class column, from which the one-vs-rest tables and the pairwise wins follow
    exactly as on the in-memory path. Returns (rows, {learner: MulticlassAggregated}).
    """
    keys = [class_key(c) for c in classes]
    k = len(keys)
    with session(source, memory_limit=memory_limit, kind=kind, database=database) as db:
        duckdb, con, from_sql, params, where = db.duckdb, db.con, db.from_sql, db.params, db.where

        def run(sql):
            try:
                return con.execute(sql, params).fetchall()
            except duckdb.Error as exc:
                raise ValueError(f"DuckDB failed reading {where}: {duckdb_text(exc)}") from None

        types = column_types(con, duckdb, from_sql, params, where)
        cols = [c for columns in learners.values() for c in columns]
        from_sql, params = booleans_as_in_memory(con, duckdb, from_sql, params, (label, weight, *cols), where,
                                                  types)
        check_columns(list(types), label=label, scores=learners, weight=weight, by=None, where=where,
                      engine="DuckDB", type_problem=type_problem(types))
        owner = {c: name for name, columns in learners.items() for c in columns}
        lab = f"CAST({quote_ident(label)} AS VARCHAR)"
        w = "1" if weight is None else scaled_weight(weight, weight_exponent)
        # (a boolean is never NaN or infinite, and isnan takes no BOOLEAN)
        checks = ", ".join(
            f"count(*) FILTER (WHERE {quote_ident(c)} IS NULL)" if types[c] == "BOOLEAN" else
            f"count(*) FILTER (WHERE {quote_ident(c)} IS NULL OR isnan({quote_ident(c)}) "
            f"OR isinf({quote_ident(c)}))" for c in cols)
        counts = run(f"SELECT count(*), count(*) FILTER (WHERE {quote_ident(label)} IS NULL), {checks} "
                     f"FROM {from_sql}")[0]
        rows = counts[0]
        judge_class_checks(rows, counts[1], counts[2:], cols=cols, owner=owner, label=label, where=where)
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
