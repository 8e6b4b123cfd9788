"""The column names of a data file, read from its header alone (CSV/TSV, plain
or compressed, Parquet, JSONL, NPZ): what the spec's patterns over files and
columns (``path: runs/{run}/p.csv``, ``learners: {match: ...}``) are matched
against when a spec loads, and what the data readers check the named columns
against (:mod:`evalreport.data.readers` reads the values).
"""

from __future__ import annotations

import zipfile
from contextlib import contextmanager
from pathlib import Path

from .files import data_suffix

#: pyarrow's codec for each compression suffix (named explicitly: pyarrow's own
#: guess from the name knows lower-case suffixes only)
CODECS = {".gz": "gzip", ".bz2": "bz2", ".zst": "zstd", ".lz4": "lz4"}


@contextmanager
def text_input(file: Path):
    """A text data file as pyarrow's readers take it: the path, or a
    decompressing stream for a compressed file."""
    compression = data_suffix(file)[1]
    if compression is None:
        yield file
        return
    import pyarrow as pa

    with pa.input_stream(str(file), compression=CODECS[compression]) as stream:
        yield stream


def csv_parse(suffix: str):
    import pyarrow.csv as pacsv

    return pacsv.ParseOptions(delimiter="\t" if suffix == ".tsv" else ",")


#: The header (first line) of a CSV/TSV file is refused past these, whatever the engine
#: (issue 36): a prediction file holds a label, an id, perhaps weights, groups and slices,
#: and score columns (a multi-class learner one per class: 1,000 classes of 4 learners are
#: 4,000), so 5,000 columns and 1 MiB of names are generous. Past them pyarrow spends
#: ~20 us a column inferring types (250,000 columns: tens of seconds), DuckDB runs out of
#: its default 1GB budget (its CSV reader's buffers grow with the columns: 10,000 did not
#: fit) and its lines stop at 2,000,000 bytes; the check itself reads the first line only.
MAX_HEADER_BYTES = 2**20
MAX_COLUMNS = 5_000
#: The same column limit holds for Parquet (its schema, read from the footer) and JSON
#: lines (the keys of the first object, read when its line is at most this long: pyarrow's
#: JSON reader takes objects of at most 1 MiB and DuckDB's of 16 MiB, and 5,001 short keys
#: take some 60 KiB), so that every engine refuses the same files alike.
MAX_FIRST_OBJECT_BYTES = 2**24


def _first_line(file: Path, limit: int) -> tuple[bytes, bool]:
    """(the first line of a CSV/TSV file, decompressed, without its line end; whether
    it is longer than ``limit`` bytes, then cut there). Read 1 MiB at a time."""
    import pyarrow as pa

    line = b""
    with pa.input_stream(str(file), compression=CODECS.get(data_suffix(file)[1])) as stream:
        while len(line) <= limit:
            piece = stream.read(1 << 20)
            end = piece.find(b"\n")
            if end >= 0 or not piece:
                line += piece[:end] if end >= 0 else piece
                break
            line += piece
    too_long = len(line.rstrip(b"\r")) > limit
    return (line[:limit] if too_long else line.rstrip(b"\r")), too_long


def header_problem(file: Path, display: str) -> str | None:
    """Why the header of a CSV/TSV file is past :data:`MAX_HEADER_BYTES` or
    :data:`MAX_COLUMNS`, or a Parquet or JSON lines file past :data:`MAX_COLUMNS`,
    naming the file (None: within them, another format, or unreadable: the readers
    say why). Reads the first line only (Parquet: the schema in its footer)."""
    suffix = data_suffix(file)[0]
    try:
        if suffix in (".csv", ".tsv"):
            line, too_long = _first_line(file, MAX_HEADER_BYTES)
            problem = _limits_problem(file, line, too_long)
        elif suffix == ".parquet":
            problem = _parquet_limits(file)
        elif suffix == ".jsonl":
            problem = _jsonl_limits(file)
        else:
            return None
    except Exception:  # noqa: BLE001 (an unreadable file: the readers say why)
        return None
    return None if problem is None else f"{display}: {problem}"


def _columns_why() -> str:
    """Why :data:`MAX_COLUMNS` holds for Parquet and JSON lines too (the CSV header's words)."""
    return ("a prediction file holds a label, an id, weights, groups and score columns: files of at most "
            f"{MAX_COLUMNS:,} columns are read (keep the columns the spec names)")


def _parquet_limits(file: Path) -> str | None:
    """The schema's columns past :data:`MAX_COLUMNS` (the footer alone is read)."""
    import pyarrow.parquet as pq

    columns = len(pq.read_schema(file).names)
    return f"the schema has {columns:,} columns; {_columns_why()}" if columns > MAX_COLUMNS else None


def _jsonl_limits(file: Path) -> str | None:
    """The first object's keys past :data:`MAX_COLUMNS` (its line read, when at most
    :data:`MAX_FIRST_OBJECT_BYTES`: the readers refuse a longer one themselves)."""
    import json

    line, too_long = _first_line(file, MAX_FIRST_OBJECT_BYTES)
    if too_long or line.count(b":") <= MAX_COLUMNS:  # (fewer colons: fewer keys)
        return None
    try:
        record = json.loads(line.decode("utf-8").lstrip("\ufeff"))
    except ValueError:  # (not UTF-8, not JSON: the readers say where)
        return None
    columns = len(record) if isinstance(record, dict) else 0
    if columns <= MAX_COLUMNS:
        return None
    return f"the first object (line 1) has {columns:,} keys, each a column; {_columns_why()}"


def _limits_problem(file: Path, line: bytes, too_long: bool) -> str | None:
    """The header's limits: the fields are counted with Python's csv module (quotes as
    pyarrow and DuckDB read them), in time linear in the line."""
    import csv

    why = ("a prediction file holds a label, an id, weights, groups and score columns: "
           f"headers of at most {MAX_COLUMNS:,} columns and {MAX_HEADER_BYTES // 2**20} MiB are read "
           "(keep the columns the spec names)")
    if too_long:
        return f"the header (line 1) is longer than {MAX_HEADER_BYTES:,} bytes; {why}"
    delimiter = "\t" if data_suffix(file)[0] == ".tsv" else ","
    if line.count(delimiter.encode()) < MAX_COLUMNS:  # (fewer separators: fewer columns, whatever the quotes)
        return None
    text = line.decode("utf-8", "replace").lstrip("\ufeff")
    try:
        columns = len(next(csv.reader([text], delimiter=delimiter), []))
    except csv.Error:  # (not a header the readers read either: count the separators)
        columns = text.count(delimiter) + 1
    return f"the header (line 1) has {columns:,} columns; {why}" if columns > MAX_COLUMNS else None


def csv_read_options(file: Path):
    """pyarrow's ReadOptions for a CSV/TSV file: blocks that hold its header line
    whole (four times its length, at least pyarrow's 1 MiB: a header longer than
    a block is an "Empty CSV file or block" to pyarrow). ValueError for a header
    past :data:`MAX_HEADER_BYTES` or :data:`MAX_COLUMNS`."""
    import pyarrow.csv as pacsv

    line, too_long = _first_line(file, MAX_HEADER_BYTES)
    problem = _limits_problem(file, line, too_long)
    if problem is not None:
        raise ValueError(problem)
    return pacsv.ReadOptions(block_size=max(1 << 20, 4 * len(line) + 1))


def column_names(file: Path) -> list[str]:
    """The file's column names, in its order (NPZ: its members)."""
    suffix, _ = data_suffix(file)
    if suffix in (".csv", ".tsv"):
        import pyarrow.csv as pacsv

        read = csv_read_options(file)
        with text_input(file) as src:
            reader = pacsv.open_csv(src, parse_options=csv_parse(suffix), read_options=read)
            return list(reader.schema.names)
    if suffix == ".parquet":
        import pyarrow.parquet as pq

        problem = _parquet_limits(file)
        if problem is not None:
            raise ValueError(problem)
        return list(pq.read_schema(file).names)
    if suffix == ".jsonl":
        import pyarrow.json as pajson

        problem = _jsonl_limits(file)
        if problem is not None:
            raise ValueError(problem)
        with text_input(file) as src:
            return list(pajson.read_json(src).schema.names)
    if suffix == ".npz":
        import numpy as np

        if not zipfile.is_zipfile(file):  # (np.load would leave the file open)
            raise ValueError("not a zip archive")
        with np.load(file, allow_pickle=False) as z:
            return list(z.files)
    raise ValueError(f"unsupported file type {suffix}")
