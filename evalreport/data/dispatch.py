"""Which road each prediction file takes, and the files taken together.

:func:`load_sources` reads a file in memory (:mod:`evalreport.data.memory`)
or has it aggregated where it lives (``engine: duckdb`` or ``spark``: count
tables, no rows, the engines' errors told at the spec's key), then checks
that the files of one data set pair up by id, and raises one
:class:`~evalreport.errors.DataError` listing every problem.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from ..errors import DataError
from ..counting import WeightScaleError
from ..spec import FALLBACK_THRESHOLD, Spec, data_suffix
from .checks import (MEMORY_SCALES, engine_weight_problem, positive_loc, Problems, yaml_boolean_hint,
                     scale_note, weight_exponent)
from .memory import load_one
from .source import Source, BackgroundSha256, combined_sha256
from .tables import in_memory_tables


def _check_pairing(spec: Spec, sources: list[Source], problems: Problems) -> None:
    """Learners of one data set are paired: several files must hold the same ids."""
    by_dataset: dict[str | None, list[Source]] = {}
    for s in sources:
        if s.tables is None:  # aggregated sources have no rows to pair
            by_dataset.setdefault(s.dataset, []).append(s)
    for dataset, group in by_dataset.items():
        if len(group) < 2:
            continue
        first = group[0]
        for other in group[1:]:
            loc = ("data", other.index, "id")
            if first.ids is None or other.ids is None:
                which = first if first.ids is None else other
                problems.add(("data", which.index), f"learners of the same data set come from "
                             f"{first.path} and {other.path}: give id: <column> in each so that "
                             "their rows can be paired")
                continue
            a, b = set(first.ids.tolist()), set(other.ids.tolist())
            if a != b:
                only_a = sorted(a - b, key=str)[:3]
                only_b = sorted(b - a, key=str)[:3]
                parts = []
                if only_a:
                    parts.append(f"ids in {first.path} but not in {other.path}: "
                                 + ", ".join(map(repr, only_a)) + (", ..." if len(a - b) > 3 else ""))
                if only_b:
                    parts.append(f"ids in {other.path} but not in {first.path}: "
                                 + ", ".join(map(repr, only_b)) + (", ..." if len(b - a) > 3 else ""))
                problems.add(loc, "ids do not align across the files of one data set; " + "; ".join(parts))


def _engine_files(spec: Spec, src) -> list[Path]:
    """The files behind an engine source (a path or glob), for their sha256."""
    import glob

    if src.kind in ("table", "sql"):
        return []
    pattern = str(spec.resolve(src.path))
    return sorted(Path(p) for p in glob.glob(pattern, recursive=True) if Path(p).is_file())


def _load_engine(spec: Spec, i: int, problems: Problems, progress=None) -> Source | None:
    """Aggregate one source where it lives (DuckDB or Spark): count tables, no rows."""
    src = spec.data[i]
    base = ("data", i)
    if progress:
        progress(f"aggregating {src.path} with {src.engine}")
    files = _engine_files(spec, src)
    if src.kind not in ("table", "sql") and not files:
        problems.add(base + ("path",), f"no file matches {src.path}")
        return None
    if not _engine_agrees(spec, i, files, problems):
        return None
    exponent, notes = _duckdb_weight_scale(spec, src, files) if src.engine == "duckdb" else (0, ())
    if spec.task == "multiclass":
        return _load_engine_multiclass(spec, i, files, exponent, notes, problems)
    agg = _aggregate_binary(spec, i, files, exponent, problems)
    if agg is None or not _engine_labels_and_weights_agree(spec, i, agg, problems):
        return None
    tables, group_tables, bounds = _learner_tables(src, agg)
    return Source(
        index=i, path=src.path, file=files[0] if files else Path(src.path),
        sha256=combined_sha256(files) if files else None, rows=agg.rows, dataset=src.dataset,
        labels=None, ids=None, groups=None, weights=None, tables=tables, group_tables=group_tables,
        resolution_bound=bounds, engine=src.engine, reductions=agg.reductions, warnings=notes,
    )


def _load_engine_multiclass(spec: Spec, i: int, files: list, exponent: int, notes, problems: Problems):
    """A multi-class source aggregated where it lives: each learner's count tables."""
    src = spec.data[i]
    base = ("data", i)
    lists = {name: list(learner.scores) for name, learner in src.learners.items()}
    try:
        if src.engine == "duckdb":
            from ..engines.duckdb import aggregate_duckdb_multiclass

            rows, counts = aggregate_duckdb_multiclass(
                [str(f) for f in files] if files else src.path, label=src.label, classes=spec.classes,
                learners=lists, weight=src.weight, memory_limit=src.memory_limit, kind=src.kind,
                database=str(spec.resolve(src.database)) if src.database else None, weight_exponent=exponent)
        else:
            from ..engines.spark import aggregate_spark_multiclass

            session = spec.spark
            rows, counts = aggregate_spark_multiclass(
                str(spec.resolve(src.path)), label=src.label, classes=spec.classes, learners=lists,
                weight=src.weight, master=session.master if session else None,
                conf=dict(session.conf) if session else None,
                remote=session.remote if session else None,
                **_spark_reader(src))
    except WeightScaleError as exc:
        problems.add(base + ("weight",), f"{src.path}: column '{src.weight}': {exc}{MEMORY_SCALES}")
        return None
    except (ValueError, ImportError) as exc:
        problems.add(*_engine_error(spec, i, files, exc))
        return None
    first = next(iter(counts.values()), None)
    for table in first.tables if first is not None else ():  # (every learner has the same weights)
        problem = engine_weight_problem(src, table)
        if problem is not None:
            problems.add(base + ("weight",), problem)
            return None
    return Source(
        index=i, path=src.path, file=files[0] if files else Path(src.path),
        sha256=combined_sha256(files) if files else None, rows=rows, dataset=src.dataset,
        labels=None, ids=None, groups=None, weights=None, mc_counts=counts, engine=src.engine,
        warnings=notes)


def _aggregate_binary(spec: Spec, i: int, files: list, exponent: int, problems: Problems):
    """A binary source's aggregates (DuckDB's exact tables streamed, or Spark's),
    or None with the problem told."""
    src = spec.data[i]
    base = ("data", i)
    scores = {name: learner.score for name, learner in src.learners.items()}
    try:
        if src.engine == "duckdb":
            from ..engines.duckdb import aggregate_duckdb

            source = [str(f) for f in files] if files else src.path
            database = str(spec.resolve(src.database)) if src.database else None
            # Exact tables are streamed and, when long, reduced: name in advance the
            # thresholds and partial AUC the report will ask for, so they stay exact.
            keep = [learner.threshold for learner in src.learners.values() if learner.threshold is not None]
            # 'optimal' is a hull vertex (always kept), or the fallback when there is no hull
            # ({optimal_on: ..}: chosen on another data set, not known yet: checked when applied)
            keep.append(float(spec.threshold) if isinstance(spec.threshold, (int, float)) else FALLBACK_THRESHOLD)
            keep += [] if spec.thresholds is None else spec.thresholds.at  # the threshold table's
            fprs = [] if spec.partial_auc is None else [spec.partial_auc.max_fpr]
            agg = aggregate_duckdb(source, label=src.label, positive=spec.positive_label, scores=scores,
                                   weight=src.weight, resolution=src.resolution, by=src.group,
                                   memory_limit=src.memory_limit, kind=src.kind, database=database,
                                   keep_thresholds=keep, max_fprs=fprs, labels_as_text=True,
                                   weight_exponent=exponent)
        else:
            from ..engines.spark import aggregate_spark

            session = spec.spark
            agg = aggregate_spark(str(spec.resolve(src.path)), label=src.label, positive=spec.positive_label,
                                  scores=scores, weight=src.weight, resolution=src.resolution,
                                  master=session.master if session else None,
                                  conf=dict(session.conf) if session else None,
                                  remote=session.remote if session else None, by=src.group,
                                  labels_as_text=True, **_spark_reader(src))
    except WeightScaleError as exc:  # (the streamed exact tables check the totals)
        problems.add(base + ("weight",), f"{src.path}: column '{src.weight}': {exc}{MEMORY_SCALES}")
        return None
    except (ValueError, ImportError, RuntimeError) as exc:
        problems.add(*_engine_error(spec, i, files, exc))
        return None
    return agg


def _engine_labels_and_weights_agree(spec: Spec, i: int, agg, problems: Problems) -> bool:
    """Whether the labels the engine saw are the task's (the positive label among
    them) and the weights pass the memory path's checks on the tables; else told."""
    src = spec.data[i]
    base = ("data", i)
    from ..engines import PositiveLabelMissing, check_labels

    try:
        check_labels(agg.labels_seen, spec.positive_label, truncated=agg.labels_truncated, where=src.path,
                     as_text=True)
    except PositiveLabelMissing as exc:
        problems.add(positive_loc(spec, base + ("label",)), str(exc) + yaml_boolean_hint(spec))
        return False
    except ValueError as exc:
        problems.add(base + ("label",), str(exc))
        return False
    problem = engine_weight_problem(src, next(iter(agg.tables.values()))) if agg.tables else None
    if problem is not None:
        problems.add(base + ("weight",), problem)
        return False
    return True


def _learner_tables(src, agg):
    """(each learner's table, each learner's tables by group or None, the resolution's
    bounds): with groups, the learner's own table is the sum of its groups'."""
    tables, group_tables, bounds = dict(agg.tables), None, agg.resolution_bound
    if src.group is not None:
        # one table per (learner, group): the learner's own table is their sum (exact)
        group_tables = {}
        for (name, g), table in agg.tables.items():
            group_tables.setdefault(name, {})[str(g)] = table
        if agg.learner_tables is not None:  # streamed: the learner's own table came with them
            tables = dict(agg.learner_tables)
        else:
            tables = {name: _merge_tables(list(by_group.values())) for name, by_group in group_tables.items()}
        if bounds is not None:  # the learner's bound: at most the sum of its groups' bounds
            merged = {}
            for (name, _), b in bounds.items():
                acc = merged.setdefault(name, {})
                for k, v in b.items():
                    acc[k] = None if v is None or acc.get(k, 0.0) is None else acc.get(k, 0.0) + v
            bounds = merged
    return tables, group_tables, bounds


def _merge_tables(tables: list):
    """One count table from several (the rows of all of them)."""
    from ..metrics import count_table_from_aggregates

    score = np.concatenate([t.threshold for t in tables])
    pos = np.concatenate([np.diff(t.tp) for t in tables])
    neg = np.concatenate([np.diff(t.fp) for t in tables])
    return count_table_from_aggregates(score, pos, neg, n_rows=sum(t.n_rows for t in tables))


def _duckdb_weight_scale(spec: Spec, src, files: list) -> tuple[int, tuple]:
    """(exponent, warnings): DuckDB sums the weights scaled by ``2**-exponent`` where
    the in-memory road would scale them (sums that overflow, products that underflow:
    issue 36, the engines agree), with the same warning."""
    if src.weight is None:
        return 0, ()
    from ..engines.duckdb_ids import largest_weight_duckdb

    try:
        top = largest_weight_duckdb([str(f) for f in files] if files else src.path, src.weight,
                                    memory_limit=src.memory_limit, kind=src.kind,
                                    database=str(spec.resolve(src.database)) if src.database else None)
    except (ValueError, ImportError):
        return 0, ()  # the aggregation tells what DuckDB cannot read
    exponent = weight_exponent(top) if top is not None else 0
    return exponent, ((scale_note(src.path, src.weight, top, exponent),) if exponent else ())


def _engine_agrees(spec: Spec, i: int, files: list, problems: Problems) -> bool:
    """What the in-memory road refuses, refused before DuckDB or Spark aggregates
    (issue 36: the engines agree): a UTF-16, compressed-but-not-named-so or empty
    text file, a header past the limits, a .csv whose header is split by another
    separator, and a missing or repeated id. False when a problem was recorded."""
    from ..engines import ColumnError
    from ..spec.headers import header_problem
    from .file_problems import (header_line, other_separator, rows_problem, separator_problem, text_problem,
                                utf8_problem)

    src, base = spec.data[i], ("data", i)
    first = files[0] if files else None
    if first is not None and data_suffix(first)[0] in (".csv", ".tsv", ".jsonl"):
        problem = text_problem(first, src.path)  # UTF-16, compressed but not named so, empty
        if problem is not None:
            problems.add(base + ("path",), problem)
            return False
    for file in files:  # (each header: DuckDB reads every file's columns)
        shown = src.path if len(files) == 1 else os.path.relpath(file, spec.base_dir)  # (a glob's file)
        problem = header_problem(file, shown)
        if problem is not None:
            problems.add(base + ("path",), problem)
            return False
    if first is not None and data_suffix(first)[0] in (".csv", ".tsv"):
        header = header_line(first)
        own = "\t" if data_suffix(first)[0] == ".tsv" else ","
        separator = other_separator(first, [header]) if header and own not in header else None
        if separator is not None:
            problems.add(base + ("path",), separator_problem(src.path, first, header, separator))
            return False
    for file in files if src.engine == "spark" else ():
        # Spark reads a short row padded with nulls and a long one cut, and bytes that are not
        # UTF-8 as replacement characters: find them first (a pass each)
        shown = src.path if len(files) == 1 else os.path.relpath(file, spec.base_dir)
        problem = utf8_problem(file, shown) if _is_text(src, file) else None
        if problem is None and data_suffix(file)[0] in (".csv", ".tsv"):
            problem = rows_problem(file, shown)
        if problem is not None:
            problems.add(base + ("path",), problem)
            return False
    if src.id is None:
        return True
    try:
        _check_ids(spec, src, files)
    except ColumnError as exc:
        problems.add(base + ("id",), f"{src.path}: {exc}")
        return False
    except (ValueError, ImportError):
        pass  # the aggregation tells what the engine cannot read, at its key
    return True


def _check_ids(spec: Spec, src, files: list) -> None:
    """The engine's own check of the id column (ColumnError: a missing or repeated id)."""
    if src.engine == "duckdb":
        from ..engines.duckdb_ids import check_ids_duckdb

        check_ids_duckdb([str(f) for f in files] if files else src.path, src.id, memory_limit=src.memory_limit,
                         kind=src.kind, database=str(spec.resolve(src.database)) if src.database else None)
        return
    from ..engines.spark import check_ids_spark

    session = spec.spark
    check_ids_spark(str(spec.resolve(src.path)), src.id, master=session.master if session else None,
                    conf=dict(session.conf) if session else None, remote=session.remote if session else None,
                    **_spark_reader(src))


def _engine_error(spec: Spec, i: int, files: list, exc) -> tuple[tuple, str]:
    """(key, message) of an engine's error. When DuckDB fails on a CSV/TSV file (its
    sniffer, given a row of the wrong number of fields, finds no dialect or no header;
    a quote never closed makes the score text), the row is found by line as the
    memory engine finds it (a pass over the files, on failure only)."""
    from .file_problems import rows_problem, utf8_problem

    src, base = spec.data[i], ("data", i)
    if src.engine == "duckdb":
        for file in files:
            shown = src.path if len(files) == 1 else os.path.relpath(file, spec.base_dir)
            # DuckDB refuses bytes that are not UTF-8 in any column, naming a line of its
            # buffer: the line and the byte as the other engines name them
            problem = utf8_problem(file, shown) if _is_text(src, file) else None
            if problem is None and data_suffix(file)[0] in (".csv", ".tsv"):
                problem = rows_problem(file, shown)
            if problem is not None:
                return base + ("path",), problem
    return base + _engine_key(exc, spec), f"{src.path}: {exc}{_memory_hint(src, exc)}"


def _is_text(src, file: Path) -> bool:
    """Whether the engine reads ``file`` as text (CSV, TSV, JSON lines: by its suffix or ``kind``)."""
    return data_suffix(file)[0] in (".csv", ".tsv", ".jsonl") or src.kind in ("csv", "json")


def _memory_hint(src, exc) -> str:
    """What to do when DuckDB runs out of its budget: its CSV reader holds buffers for
    every column of the file (5,000 columns need about 700MB of memory_limit)."""
    if src.engine != "duckdb" or "Out of Memory" not in str(exc):
        return ""
    if data_suffix(src.path)[0] not in (".csv", ".tsv"):
        return f" (memory_limit is {src.memory_limit}: raise it)"
    return (f" (memory_limit is {src.memory_limit}; DuckDB's CSV reader needs memory for every column of "
            "the file, the ones the spec does not name too: raise memory_limit, or keep fewer columns)")


def _engine_key(exc, spec: Spec) -> tuple:
    """The key of the data source an engine's error belongs to: the named
    column's key for a column problem (a multi-class learner's key for one
    of its score columns), else the path."""
    from ..engines import ColumnError

    if not isinstance(exc, ColumnError):
        return ("path",)
    if exc.role == "score":
        return ("learners", exc.learner) + (("score",) if spec.task == "binary" else ())
    return (exc.role,)


#: Spark's reader and its options for each data file suffix (Spark's Hadoop
#: codecs read the compressed text files too)
_SPARK_READERS = {".csv": ("csv", {}), ".txt": ("csv", {}), ".tsv": ("csv", {"sep": "\t"}),
                  ".jsonl": ("json", {}), ".ndjson": ("json", {}), ".json": ("json", {})}


def _spark_reader(src) -> dict:
    """``fmt`` (Spark's reader) and ``options`` for a source: the spec's kind,
    else the path's suffix (a folder or any other name: Parquet)."""
    fmt, options = _SPARK_READERS.get(data_suffix(src.path)[0], ("parquet", {}))
    if src.kind != "auto":  # (a .tsv named kind: csv keeps its tab)
        fmt, options = src.kind, (options if fmt == src.kind else {})
    return {"fmt": fmt, "options": options}


def load_sources(spec: Spec, progress=None, tables=None) -> list[Source]:
    """Read and check every prediction file, and every in-memory table the spec
    names (``data[i].table``) from ``tables`` (name -> a pyarrow Table, or a pandas
    or polars DataFrame); raise :class:`DataError` listing every problem."""
    tables = in_memory_tables(spec, tables)
    problems = Problems(spec)
    sources = []
    for i in range(len(spec.data)):
        if spec.data[i].engine != "memory":
            s = _load_engine(spec, i, problems, progress)
        else:
            s = load_one(spec, i, problems, progress, tables)
        if s is not None:
            sources.append(s)
    if not problems.items:
        _check_pairing(spec, sources, problems)
    if problems.items:
        for s in sources:  # nothing will be written: stop hashing
            if isinstance(s.sha256, BackgroundSha256):
                s.sha256.cancel()
        raise DataError(problems.items)
    return sources
