"""Prediction files -> columns: CSV/TSV (plain or compressed), Parquet and
JSONL read with pyarrow (only the columns the spec names), NPZ with NumPy (no
pickles). Parquet is read a few row groups at a time and plain CSV/TSV a
slice at a time, so that the peak memory is the columns plus one piece.
Nothing here judges the values: :mod:`evalreport.data.checks` does.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..arrow import arrow_to_numpy
from ..spec import data_suffix
# the header readers are the spec's (a path pattern's files are matched when the spec loads);
# named here as before
from ..spec.headers import CODECS, column_names, csv_parse, csv_read_options, text_input  # noqa: F401


class MemberError(ValueError):
    """An NPZ member that cannot be read as a column (its text, after the name)."""

    def __init__(self, column: str, text: str):
        super().__init__(text)
        self.column, self.text = column, text


def _read_npz(file: Path, columns: list[str]) -> dict[str, np.ndarray]:
    with np.load(file, allow_pickle=False) as z:
        out = {}
        for c in columns:
            try:
                out[c] = np.asarray(z[c])
            except ValueError as exc:
                if "allow_pickle" not in str(exc):
                    raise
                raise MemberError(c, "holds Python objects (an object array), which NumPy reads only by "
                                      "unpickling (unsafe): save numbers or text") from None
        return out


def read_columns(file: Path, columns: list[str]) -> dict[str, object]:
    """Read the named columns: NumPy arrays, or pyarrow ChunkedArrays for text
    columns and columns with missing values (their checks need pyarrow).

    Parquet is read a few row groups at a time and CSV/TSV a slice of the file
    at a time, each piece copied into NumPy at once, so that the peak memory is
    the loaded columns plus one piece, not the file's whole Arrow table on top
    of the NumPy copies.
    """
    suffix, compression = data_suffix(file)
    if suffix in (".csv", ".tsv"):
        return _released(_read_csv(file, columns, suffix, sliced=compression is None))
    if suffix == ".parquet":
        return _released(_read_parquet(file, columns))
    if suffix == ".jsonl":
        import pyarrow.json as pajson

        with text_input(file) as src:
            table = pajson.read_json(src).select(columns)
        return {c: table.column(c) for c in columns}
    return _read_npz(file, columns)


def _released(columns: dict) -> dict:
    """Give the memory of the Arrow pieces back to the system (the pool keeps it otherwise)."""
    import pyarrow as pa

    pa.default_memory_pool().release_unused()
    return columns


#: rows per Parquet read (whole row groups, at least one) and bytes per CSV slice
PARQUET_PIECE_ROWS = 1 << 21
CSV_SLICE_BYTES = 1 << 24


def _plain(arrow_type) -> bool:
    """Numbers and booleans: columns that go to NumPy as they are read."""
    import pyarrow as pa

    return pa.types.is_integer(arrow_type) or pa.types.is_floating(arrow_type) or pa.types.is_boolean(arrow_type)


def _read_parquet(file: Path, columns: list[str]) -> dict[str, object]:
    import pyarrow.parquet as pq

    pf = pq.ParquetFile(file)
    meta = pf.metadata
    schema = pf.schema_arrow
    n = meta.num_rows
    plain = [c for c in columns if _plain(schema.field(c).type)]
    out: dict[str, object] = {c: np.empty(n, dtype=schema.field(c).type.to_pandas_dtype()) for c in plain}
    other: dict[str, list] = {c: [] for c in columns if c not in out}
    groups = list(range(meta.num_row_groups))
    offset = 0
    while groups:
        take = [groups.pop(0)]
        rows = meta.row_group(take[0]).num_rows
        while groups and rows < PARQUET_PIECE_ROWS:
            rows += meta.row_group(groups[0]).num_rows
            take.append(groups.pop(0))
        piece = pf.read_row_groups(take, columns=columns)
        for c in columns:
            col = piece.column(c)
            if c in other:
                if other[c] is not None:  # (None: read again whole below)
                    other[c].extend(col.chunks)
            elif col.null_count:
                other[c] = None  # missing values: read again below, whole, for the checks
                del out[c]
            elif c in out:
                _copy_chunks(col, out[c], offset)
        offset += piece.num_rows
        del piece
    missing = [c for c, chunks in other.items() if chunks is None]
    if missing:
        table = pq.read_table(file, columns=missing)
        for c in missing:
            other[c] = table.column(c).chunks
    import pyarrow as pa

    for c, chunks in other.items():
        col = pa.chunked_array(chunks, type=schema.field(c).type)
        if pa.types.is_dictionary(col.type):
            # dictionary-encoded (pandas' category): the values themselves, as
            # every other reader gives them (pyarrow's compute kernels used
            # on labels have no dictionary version)
            col = col.cast(col.type.value_type)
            if _plain(col.type) and not col.null_count:
                col = np.concatenate([arrow_to_numpy(ch) for ch in col.chunks]) if col.num_chunks else \
                    np.empty(0, dtype=col.type.to_pandas_dtype())
        out[c] = col
    return {c: out[c] for c in columns}


def _copy_chunks(col, dest: np.ndarray, offset: int) -> None:
    for chunk in col.chunks:
        k = len(chunk)
        dest[offset: offset + k] = arrow_to_numpy(chunk)
        offset += k


def _read_csv(file: Path, columns: list[str], suffix: str, *, sliced: bool = True) -> dict[str, object]:
    """CSV/TSV in slices of whole lines, each parsed by pyarrow's threaded reader.

    The first slice fixes the column types for the others. Whenever a slice
    does not fit them (a number column with text further down, a missing
    value), or the file is small, or compressed (``sliced`` False: slices are
    cut at byte offsets of the plain text), the whole file is read at once
    instead, so that every check sees exactly what a plain read gives.
    """
    import pyarrow as pa
    import pyarrow.csv as pacsv

    parse = csv_parse(suffix)
    size = file.stat().st_size
    whole = None
    if sliced and size > 2 * CSV_SLICE_BYTES:
        try:
            whole = _read_csv_slices(file, columns, parse)
        except (pa.ArrowInvalid, ValueError):
            whole = None
    if whole is not None:
        return whole
    read = csv_read_options(file)  # blocks that hold the header whole
    with text_input(file) as src:
        table = pacsv.read_csv(src, parse_options=parse, read_options=read,
                               convert_options=pacsv.ConvertOptions(include_columns=columns))
    return {c: table.column(c) for c in columns}


def _read_csv_slices(file: Path, columns: list[str], parse):
    """None when the types found in the first slice are not plain numbers."""
    import pyarrow as pa
    import pyarrow.csv as pacsv

    parts: dict[str, list] = {c: [] for c in columns}
    with open(file, "rb") as f:
        header = f.readline()
        names = pacsv.read_csv(pa.py_buffer(header), parse_options=parse).schema.names
        # a few blocks per slice, parsed in parallel (measured: 16 MiB slices of
        # 4 MiB blocks parse about as fast as the whole file at once)
        read = pacsv.ReadOptions(column_names=names, block_size=max(CSV_SLICE_BYTES // 4, 1 << 16))
        convert = pacsv.ConvertOptions(include_columns=columns)
        first = True
        while True:
            chunk = f.read(CSV_SLICE_BYTES)
            if not chunk:
                break
            cut = chunk.rfind(b"\n") + 1
            if 0 < cut < len(chunk):
                f.seek(cut - len(chunk), 1)  # the next slice starts at this line's end
            else:
                cut = len(chunk)  # the last line, or a line longer than a slice
                if not chunk.endswith(b"\n"):
                    rest = f.readline()
                    chunk, cut = chunk + rest, len(chunk) + len(rest)
            piece = pacsv.read_csv(pa.py_buffer(memoryview(chunk)[:cut]), parse_options=parse,
                                   convert_options=convert, read_options=read)
            del chunk
            if first:
                types = {c: piece.schema.field(c).type for c in columns}
                if not all(_plain(t) for t in types.values()):
                    return None
                convert = pacsv.ConvertOptions(include_columns=columns, column_types=types)
                first = False
            for c in columns:
                col = piece.column(c)
                if col.null_count:
                    return None
                if col.num_chunks:
                    parts[c].append(np.concatenate([arrow_to_numpy(ch) for ch in col.chunks]))
            del piece
    out = {}
    for c in columns:
        out[c] = np.concatenate(parts[c]) if parts[c] else np.empty(0)
        parts[c] = None
    return out
