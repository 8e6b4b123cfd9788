"""The Spark engine: count tables aggregated by Spark, returned to the driver.

:func:`aggregate_spark` does what :func:`evalreport.engines.duckdb.aggregate_duckdb`
does, with the Spark DataFrame API: per learner, in effect,
``df.groupBy(score).agg(count(*), count(when(label == positive, 1)))`` (or
``sum(when(label == positive, w).otherwise(0))`` and its complement with a
weight). The learners share one job: each row is exploded into one
``(learner, key)`` item per learner and the job groups by both, so the data is
scanned once (plus one pass of checks and one for the distinct labels). Only
the aggregated rows come back to the driver (``DataFrame.toArrow()`` where the
installed PySpark has it, 4.0 on; ``collect()`` before). See
:mod:`evalreport.engines` for the count table, ``resolution`` and its bounds.

Unlike DuckDB's exact mode, the table comes back whole: with exact continuous
scores that is one row per data row and per learner on the driver (tens of
bytes each, more while it is built), so at 1e7 rows and beyond give
``resolution``, which bounds the table and reports what it costs in AUC, AP
and BEP.

pyspark is imported lazily: nothing here needs it until the function runs.

Session, in order of preference:

1. ``spark``: a SparkSession the caller passes;
2. ``remote``: a Spark Connect session (``sc://host:port``) built with
   ``SparkSession.builder.remote(remote)`` and ``conf`` (needs the Spark
   Connect client: ``pip install "pyspark[connect]"``);
3. the active session (``SparkSession.getActiveSession()``), when neither
   ``master`` nor ``conf`` is given;
4. ``SparkSession.builder.master(master).config(k, v)...getOrCreate()``
   (``master`` default: Spark's, i.e. ``local[*]``).

A session built here is left running (a later call reuses it through
``getOrCreate``); stop it with ``SparkSession.getActiveSession().stop()``.
Driver settings such as ``spark.driver.memory`` only take effect when the JVM
starts, so pass them in ``conf`` before any session exists.

Sources (``fmt``): ``"parquet"`` (a path, glob, directory or list),
``"csv"`` (header and schema inferred), ``"table"`` (a catalog table or view
name), ``"sql"`` (a query), any other ``spark.read.format(fmt).load(source)``
format (``"orc"``, ``"json"``, ``"delta"``...); ``source`` may also be a Spark
DataFrame itself. Column names are always backtick-quoted; the positive label,
step and cell bounds are literals built with ``F.lit``, never SQL text.
"""

from __future__ import annotations

import numpy as np

from . import (
    MulticlassAggregated,
    class_column,
    class_key,
    judge_checks,
    judge_class_checks,
    LABELS_CAP,
    Aggregated,
    build_tables,
    cell_scale,
    cells_for,
    match_positive,
    check_columns,
    id_problem,
    parse_resolution,
    sorted_labels,
)
from .spark_quiet import (failure_line, log4j2_named, pandas_warning_off, quiet_conf, spark_failures,
                          start_driver)

__all__ = ["aggregate_spark", "check_ids_spark", "spark_session"]


def _pyspark():
    try:
        import pyspark  # noqa: F401
        from pyspark.sql import SparkSession
        from pyspark.sql import functions as F
        from pyspark.sql import types as T
    except ImportError as exc:
        raise ImportError(
            "the spark engine needs PySpark (and Java 17 or later): "
            "python3 -m pip install pyspark; for Spark Connect: python3 -m pip install 'pyspark[connect]'"
        ) from exc
    return SparkSession, F, T


def spark_session(*, spark=None, master: str | None = None, conf: dict | None = None, remote: str | None = None):
    """The session :func:`aggregate_spark` uses (see the module docstring)."""
    SparkSession, _, _ = _pyspark()
    if spark is not None:
        return spark
    conf = dict(conf or {})
    if remote is not None:
        if remote.startswith("local"):
            # a local Connect server: its driver's JVM starts here, without its log; the settings
            # given to spark-submit reach the server's context (it loads them), not the session's
            start_driver({"spark.master": remote, "spark.ui.showConsoleProgress": "false", **quiet_conf(conf)},
                         context=False)
        builder = SparkSession.builder.remote(remote)
        for k, v in conf.items():
            builder = builder.config(k, v)
        with pandas_warning_off():
            return builder.getOrCreate()
    if master is None and not conf:
        active = SparkSession.getActiveSession()
        if active is not None:
            return active
    # a report run is not an interactive job: no console progress bars, no log on stderr
    # (spark_quiet: Spark's start-up lines off; a failed job is told by its exception)
    options = {"spark.app.name": "evalreport", "spark.ui.showConsoleProgress": "false"}
    if master is not None:
        options["spark.master"] = master
    options.update({k: str(v) for k, v in quiet_conf(conf).items()})
    start_driver(options)
    builder = SparkSession.builder
    for k, v in options.items():
        builder = builder.config(k, v)
    session = builder.getOrCreate()
    if not log4j2_named(conf):  # (the user's own log4j configuration: their levels)
        session.sparkContext.setLogLevel("OFF")
    return session


def _col(F, name: str):
    """A top-level column, whatever its name holds (dots, spaces, backticks)."""
    return F.col("`" + name.replace("`", "``") + "`")


def aggregate_spark(
    source,
    *,
    label: str,
    positive,
    scores: dict[str, str],
    weight: str | None = None,
    resolution: float | None = None,
    spark=None,
    master: str | None = None,
    conf: dict | None = None,
    remote: str | None = None,
    fmt: str = "parquet",
    by: str | None = None,
    options: dict | None = None,
    labels_as_text: bool = False,
) -> Aggregated:
    """Aggregate the count tables of ``scores`` with Spark.

    The arguments mean what they mean for
    :func:`~evalreport.engines.duckdb.aggregate_duckdb`; in addition ``spark``,
    ``master``, ``conf`` and ``remote`` choose the session, ``fmt`` the reader,
    and ``options`` are passed to the reader (e.g. ``{"sep": ";"}`` for CSV).

    Raises ``ValueError`` for the same data problems (missing columns with the
    closest name, non-numeric scores or weights, missing/NaN/infinite scores
    with the learner, column and count, bad weights, missing labels or groups,
    no rows), ``ValueError`` of one line for a Spark job that fails (a file of
    a folder whose column has another type, say), and ``ImportError`` when
    PySpark is not installed.
    """
    if not scores:
        raise ValueError("name at least one learner (scores: learner -> column)")
    mode = parse_resolution(resolution)
    session = None
    if not hasattr(source, "groupBy"):
        session = spark_session(spark=spark, master=master, conf=conf, remote=remote)
    _, F, T = _pyspark()
    df, where = _read(session, source, fmt, options)
    check_columns(list(df.columns), label=label, scores=scores, weight=weight, by=by, where=where,
                  engine="Spark", type_problem=_type_problem(df, T))
    with spark_failures(where):
        rows, ranges = _checked(df, F, label=label, scores=scores, mode=mode, weight=weight, by=by,
                                where=where)
        labels, truncated, positive_label = _labels(df, F, label, positive, labels_as_text)
        frame = _counts(df, F, label=label, scores=scores, mode=mode, ranges=ranges, weight=weight, by=by,
                        positive_label=positive_label)
    which = np.asarray(frame.pop("i"))
    tables: dict = {}
    bounds = {} if mode is not None else None
    for i, name in enumerate(scores):
        sel = which == i
        build_tables(
            {k: np.asarray(v)[sel] for k, v in frame.items()}, learner=name, by=by is not None,
            mode=mode, weighted=weight is not None, tables=tables, bounds=bounds,
        )
    return Aggregated(tables=tables, rows=rows, resolution_bound=bounds, labels_seen=labels,
                      labels_truncated=truncated, positive_label=positive_label)


def _dbl(F, name: str):
    return _col(F, name).cast("double")


def _count_if(F, cond):
    return F.count(F.when(cond, F.lit(1)))


def _checked(df, F, *, label, scores, mode, weight, by, where):
    """One job of counts (rows, missing labels, each score column's missing, NaN and
    infinite values and, for quantile bins, its range; the weights' and groups'
    problems), judged: (rows, {score column: (min, max)}) or ValueError."""
    lab = _col(F, label)
    cols = list(dict.fromkeys(scores.values()))
    inf = float("inf")
    checks = [F.count(F.lit(1)), _count_if(F, lab.isNull())]
    for col in cols:
        x = _dbl(F, col)
        checks += [_count_if(F, x.isNull()), _count_if(F, F.isnan(x)), _count_if(F, x.isin(inf, -inf))]
        if mode is not None and mode[0] == "bins":
            checks += [F.min(x), F.max(x)]
    if weight is not None:
        w = _dbl(F, weight)
        checks += [
            _count_if(F, w.isNull()),
            _count_if(F, F.isnan(w) | w.isin(inf, -inf)),
            _count_if(F, w < 0),
            F.min(w),
        ]
    if by is not None:
        checks.append(_count_if(F, _col(F, by).isNull()))
    row = list(df.agg(*checks).collect()[0])
    return judge_checks(row, cols=cols, scores=scores, mode=mode, label=label, weight=weight, by=by, where=where)


def _labels(df, F, label: str, positive, labels_as_text: bool):
    """(the labels seen, sorted, at most LABELS_CAP; whether there were more; the
    positive label as the column holds it, or None): one job, two past the cap."""
    lab = _col(F, label)
    found = [r[0] for r in df.select(lab.alias("label")).distinct().limit(LABELS_CAP + 1).collect()]
    truncated = len(found) > LABELS_CAP
    labels = sorted_labels(found)
    positive_label = match_positive(labels, positive, as_text=labels_as_text)
    if positive_label is None and truncated:
        probe = [r[0] for r in df.select(lab.alias("label")).where(lab.cast("string") == F.lit(str(positive)))
                 .distinct().limit(1).collect()]
        positive_label = match_positive(probe, positive, as_text=labels_as_text)
    return labels, truncated, positive_label


def _key(F, x, mode, lo_hi):
    """A score's key in the count table: the score itself, its step, or its cell of the range."""
    if mode is None:
        return x
    if mode[0] == "step":
        return F.floor(x / F.lit(mode[1])).cast("double")
    cells = cells_for(mode[1])
    lo, hi = (float(v) for v in lo_hi)
    scale = cell_scale(lo, hi, cells)
    return F.least(F.floor((x - F.lit(lo)) * F.lit(scale)), F.lit(cells - 1).cast("long")).cast("double")


def _counts(df, F, *, label, scores, mode, ranges, weight, by, positive_label) -> dict:
    """Every learner's aggregated rows in one job, as NumPy arrays (``i``: the
    learner's index in ``scores``, ``key``, ``n``, ``pos``, ``neg``, perhaps ``g``
    and ``smin``): each row is exploded into one (learner, key) item per learner,
    so the data is scanned once whatever the number of learners."""
    if positive_label is None:
        is_pos = F.lit(False)
    else:
        value = positive_label.item() if isinstance(positive_label, np.generic) else positive_label
        is_pos = _col(F, label) == F.lit(value)
    items = []
    for i, column in enumerate(scores.values()):
        x = _dbl(F, column)
        key = _key(F, x, mode, ranges[column] if mode is not None and mode[0] == "bins" else None)
        items.append(F.struct(F.lit(i).alias("i"), key.alias("key"), x.alias("x")))
    cols_out = [is_pos.alias("is_pos"), F.explode(F.array(*items)).alias("t")]
    if weight is not None:
        cols_out.insert(0, _dbl(F, weight).alias("w"))
    if by is not None:
        cols_out.insert(0, _col(F, by).alias("g"))
    exploded = df.select(*cols_out)
    keys = [F.col("t.i").alias("i"), F.col("t.key").alias("key")]
    if by is not None:
        keys.insert(0, F.col("g"))
    aggs = [F.count(F.lit(1)).alias("n")]
    if weight is None:
        aggs.append(_count_if(F, F.col("is_pos")).alias("pos"))
    else:
        aggs.append(F.sum(F.when(F.col("is_pos"), F.col("w")).otherwise(F.lit(0.0))).alias("pos"))
        aggs.append(F.sum(F.when(F.col("is_pos"), F.lit(0.0)).otherwise(F.col("w"))).alias("neg"))
    if mode is not None and mode[0] == "bins":
        aggs.append(F.min(F.col("t.x")).alias("smin"))
    frame = _fetch(exploded.groupBy(*keys).agg(*aggs))
    if weight is None:
        frame["neg"] = np.asarray(frame["n"], dtype=np.int64) - np.asarray(frame["pos"], dtype=np.int64)
    return frame


def check_ids_spark(source, id_column: str, *, spark=None, master: str | None = None, conf: dict | None = None,
                    remote: str | None = None, fmt: str = "parquet", options: dict | None = None) -> None:
    """Raise :class:`~evalreport.engines.checks.ColumnError` (role "id") when the id
    column holds a missing (null or empty) id or an id twice, as the in-memory road
    and :func:`~evalreport.engines.duckdb_ids.check_ids_duckdb` do (issue 36: the
    engines agree). A missing column is left to the aggregation (it names the closest).
    Two jobs: a count, and a group-by of the ids that keeps the smallest repeated one."""
    session = None
    if not hasattr(source, "groupBy"):
        session = spark_session(spark=spark, master=master, conf=conf, remote=remote)
    _, F, T = _pyspark()
    df, _ = _read(session, source, fmt, options)
    fields = {f.name: f.dataType for f in df.schema.fields}
    if id_column not in fields:
        return
    col = _col(F, id_column)
    empty = col.isNull()
    if isinstance(fields[id_column], T.StringType):
        empty = empty | (F.trim(col) == F.lit(""))
    try:
        missing = df.where(empty).count()
        twice = (df.where(col.isNotNull()).groupBy(col.alias("v")).agg(F.count(F.lit(1)).alias("n"))
                 .where(F.col("n") > 1).orderBy("v").limit(1).collect())
    except Exception as exc:  # noqa: BLE001 - a failed job (Py4J, SparkRuntimeException): the aggregation says it
        raise ValueError(f"Spark failed reading the ids of {source!r}: {failure_line(exc)}") from None
    id_problem(id_column, missing, (twice[0]["v"], twice[0]["n"]) if twice else None)


def _type_problem(df, T):
    """:func:`check_columns`' test: None for a numeric or boolean column, else its Spark type."""
    fields = {f.name: f.dataType for f in df.schema.fields}

    def problem(column):
        dtype = fields[column]
        return None if isinstance(dtype, (T.NumericType, T.BooleanType)) else dtype.simpleString()

    return problem


def _read(session, source, fmt: str, options):
    """(DataFrame, description for messages)."""
    if hasattr(source, "groupBy"):
        return source, "the Spark DataFrame"
    options = {k: str(v) for k, v in (options or {}).items()}
    if fmt == "table":
        return session.table(source), f"table {source!r}"
    if fmt == "sql":
        return session.sql(source), "the SQL query"
    reader = session.read.options(**options)
    paths = [str(p) for p in source] if isinstance(source, (list, tuple)) else str(source)
    try:
        if fmt == "parquet":
            df = reader.parquet(*paths) if isinstance(paths, list) else reader.parquet(paths)
        elif fmt == "csv":
            # escape: a quote inside a quoted field is doubled (RFC 4180, as pyarrow
            # and DuckDB read it); Spark's default escape is a backslash
            reader = reader.option("header", options.get("header", "true")).option(
                "inferSchema", options.get("inferSchema", "true")
            ).option("escape", options.get("escape", '"'))
            df = reader.csv(paths)
        else:
            df = reader.format(fmt).load(paths)
    except Exception as exc:  # noqa: BLE001 - AnalysisException and friends
        raise ValueError(f"Spark cannot read {fmt} {source!r}: {failure_line(exc)}") from None
    return df, f"{fmt} {source!r}"


def _fetch(df) -> dict:
    """The aggregated rows as NumPy arrays (Arrow when available)."""
    table = None
    if hasattr(df, "toArrow"):
        try:
            table = df.toArrow()
        except ImportError:  # PySpark's Arrow path wants pandas/pyarrow versions it likes
            table = None
    if table is not None:
        out = {}
        for name in table.column_names:
            col = table.column(name)
            out[name] = col.to_numpy(zero_copy_only=False) if col.null_count == 0 else np.asarray(col.to_pylist(), dtype=object)
        return out
    rows = df.collect()
    names = df.columns
    return {n: np.asarray([r[i] for r in rows]) for i, n in enumerate(names)}



def aggregate_spark_multiclass(source, *, label: str, classes, learners: dict[str, list[str]],
                               weight: str | None = None, spark=None, master=None, conf=None, remote=None,
                               fmt: str = "parquet", options: dict | None = None):
    """Multi-class counts of each learner with Spark (see
    :func:`~evalreport.engines.duckdb.aggregate_duckdb_multiclass`): one
    aggregation (true class, decision) for the confusion matrix and one
    (score, true class) per class column. Returns (rows, {learner: MulticlassAggregated})."""
    session = None
    if not hasattr(source, "groupBy"):
        session = spark_session(spark=spark, master=master, conf=conf, remote=remote)
    _, F, T = _pyspark()
    df, where = _read(session, source, fmt, options)
    keys = [class_key(c) for c in classes]
    check_columns(list(df.columns), label=label, scores=learners, weight=weight, by=None, where=where,
                  engine="Spark", type_problem=_type_problem(df, T))
    with spark_failures(where):
        return _multiclass_counts(df, F, label=label, keys=keys, learners=learners, weight=weight, where=where)


def _multiclass_counts(df, F, *, label: str, keys: list, learners: dict, weight, where: str):
    """:func:`aggregate_spark_multiclass`'s jobs: the checks, the labels, each learner's counts."""
    k = len(keys)
    owner = {c: name for name, columns in learners.items() for c in columns}
    lab = _col(F, label).cast("string")
    w = F.lit(1.0) if weight is None else _col(F, weight).cast("double")
    checks = [F.count(F.lit(1)), F.sum(F.when(_col(F, label).isNull(), 1).otherwise(0))]
    cols = [c for cs in learners.values() for c in cs]
    for c in cols:
        x = _col(F, c).cast("double")
        checks.append(F.sum(F.when(x.isNull() | F.isnan(x) | (F.abs(x) == float("inf")), 1).otherwise(0)))
    row = df.agg(*checks).collect()[0]
    rows = int(row[0])
    judge_class_checks(rows, int(row[1] or 0), [int(v or 0) for v in row[2:]], cols=cols, owner=owner,
                       label=label, where=where)
    index = {}
    for r in df.select(lab.alias("l")).distinct().collect():
        key = class_key(r["l"])
        if key not in keys:
            raise ValueError(f"label {r['l']!r} in {where} is not one of the classes ({', '.join(keys)})")
        index[r["l"]] = keys.index(key)
    out = {}
    for name, columns in learners.items():
        xs = [_col(F, c).cast("double") for c in columns]
        top = F.greatest(*xs)
        decision = F.lit(len(xs) - 1)
        for j in range(len(xs) - 2, -1, -1):  # the first column holding the top score
            decision = F.when(xs[j] == top, F.lit(j)).otherwise(decision)
        confusion = np.zeros((k, k))
        for r in df.groupBy(lab.alias("l"), decision.alias("d")).agg(F.sum(w).alias("n")).collect():
            confusion[index[r["l"]], int(r["d"])] += float(r["n"])
        tables, wins = [], np.zeros((k, k))
        for i, x in enumerate(xs):
            got = df.groupBy(x.alias("s"), lab.alias("l")).agg(F.sum(w).alias("n")).collect()
            table, wins[i] = class_column([tuple(r) for r in got], index, i, k, rows, integral=weight is None)
            tables.append(table)
        out[name] = MulticlassAggregated(confusion, tables, wins)
    return rows, out
