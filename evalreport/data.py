"""Prediction files -> validated arrays per learner.

CSV/TSV, Parquet and JSONL are read with pyarrow (only the columns the spec
names), NPZ with NumPy (no pickles). Every problem names the file, the column
and the row (rows count from 1, after the header), with the YAML line of the
key that named the column.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import threading
import zipfile
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .errors import DataError
from .metrics.counts import SCALE_ADVICE, WeightScaleError, weight_scale_problem
from .metrics.labels import label_key
from .spec import FALLBACK_THRESHOLD, Spec, _cut, _short, data_suffix, locate, not_a_file, suggest

__all__ = ["Source", "load_sources", "file_sha256", "read_columns", "arrow_to_numpy"]


@dataclass(frozen=True, eq=False)
class Source:
    """One prediction file, validated."""

    index: int  # position in spec.data
    path: str  # as written in the spec
    file: Path
    sha256: "str | _BackgroundSha256 | None"  # see sha256_hex
    rows: int
    dataset: str | None
    labels: np.ndarray
    ids: np.ndarray | None
    groups: np.ndarray | None
    weights: np.ndarray | None
    learners: dict[str, np.ndarray] = field(default_factory=dict)  # name -> scores or decisions
    hard: frozenset[str] = frozenset()  # learners given as hard decisions
    # engine duckdb / spark: the count tables, aggregated where the data lives (no rows here)
    tables: dict | None = None
    group_tables: dict | None = None  # learner -> {group: count table}, with a group column
    mc_counts: dict | None = None  # multiclass through an engine: learner -> MulticlassAggregated
    resolution_bound: dict | None = None
    engine: str = "memory"
    # engine duckdb, exact: learner -> metrics.Reduction (exact scalars; which rows the table kept)
    reductions: dict | None = None
    # what the report says about the input as read (weights rescaled, ...)
    warnings: tuple[str, ...] = ()

    @property
    def sha256_hex(self) -> str | None:
        """The input's sha256 (waits for the background hash if it is still running)."""
        return self.sha256.result() if isinstance(self.sha256, _BackgroundSha256) else self.sha256

    @property
    def learner_names(self) -> list[str]:
        if self.mc_counts is not None:
            return list(self.mc_counts)
        return list(self.tables if self.tables is not None else self.learners)


def file_sha256(path: Path, stop: threading.Event | None = None) -> str | None:
    """The file's sha256 (None if ``stop`` was set before the end)."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            if stop is not None and stop.is_set():
                return None
            h.update(chunk)
    return h.hexdigest()


class _BackgroundSha256:
    """Hash a file in a thread while it is read and checked.

    hashlib releases the GIL on large updates, so on two cores the hash costs
    no wall time; if the file turns out to be unusable the thread is stopped.
    """

    def __init__(self, path: Path):
        self._stop = threading.Event()
        self._value: str | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(path,), daemon=True,
                                        name="evalreport-sha256")
        self._thread.start()

    def _run(self, path):
        try:
            self._value = file_sha256(path, self._stop)
        except BaseException as exc:  # reported by result(), in the caller's thread
            self._error = exc

    def result(self) -> str:
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._value

    def cancel(self) -> None:
        self._stop.set()


#: pyarrow's codec for each compression suffix (named explicitly: pyarrow's own
#: guess from the name knows lower-case suffixes only)
_CODECS = {".gz": "gzip", ".bz2": "bz2", ".zst": "zstd", ".lz4": "lz4"}


@contextmanager
def _text_input(file: Path):
    """A text data file as pyarrow's readers take it: the path, or a
    decompressing stream for a compressed file."""
    compression = data_suffix(file)[1]
    if compression is None:
        yield file
        return
    import pyarrow as pa

    with pa.input_stream(str(file), compression=_CODECS[compression]) as stream:
        yield stream


def _header_line(file: Path) -> str:
    """The first line of a text data file (decompressed), '' if unreadable."""
    import pyarrow as pa

    try:
        with pa.input_stream(str(file), compression=_CODECS.get(data_suffix(file)[1])) as stream:
            raw = stream.read(1 << 16)
    except Exception:  # noqa: BLE001 (only for a hint)
        return ""
    return raw.split(b"\n", 1)[0].rstrip(b"\r").decode("utf-8", "replace").lstrip("\ufeff")


#: the first bytes of each compression's stream, for a text file whose name does not say it is compressed
_MAGIC = {b"\x1f\x8b": ".gz", b"BZh": ".bz2", b"\x28\xb5\x2f\xfd": ".zst", b"\x04\x22\x4d\x18": ".lz4"}


def _text_problem(file: Path, display: str) -> str | None:
    """Why a CSV, TSV or JSONL file cannot be read as UTF-8 text at all, from
    its first bytes: compressed but named as plain text, UTF-16, empty. None
    when it looks like text (a wrong compression is the reader's to report).

    pyarrow would read a UTF-16 file as NUL-riddled columns and a gzipped
    .csv as one column of binary noise, and say neither."""
    if data_suffix(file)[1] is None:
        with open(file, "rb") as f:
            start = f.read(4)
        for magic, suffix in _MAGIC.items():
            if start.startswith(magic):
                return (f"{display} is {_CODECS[suffix]}-compressed, but its name does not say so "
                        f"(name it {Path(display).name}{suffix})")
    import pyarrow as pa

    try:
        with pa.input_stream(str(file), compression=_CODECS.get(data_suffix(file)[1])) as stream:
            head = stream.read(1 << 16)
    except Exception:  # noqa: BLE001 (a wrong compression: the reader says so)
        return None
    if not head:
        return f"{display} is empty" + (" (no header, no rows)" if data_suffix(file)[0] != ".jsonl" else "")
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return f"{display} is UTF-16 text (it starts with a UTF-16 byte-order mark); save it as UTF-8"
    nul = head.find(b"\0")
    if nul >= 0:
        line = head.count(b"\n", 0, nul) + 1
        return (f"{display}: line {line} holds a NUL byte: not UTF-8 text "
                "(UTF-16 without a byte-order mark?); save it as UTF-8")
    return None


def _lines(file: Path):
    """(line number, bytes without the line end, whether it had one) of a
    text data file, decompressed."""
    import pyarrow as pa

    with pa.input_stream(str(file), compression=_CODECS.get(data_suffix(file)[1])) as stream:
        for number, line in enumerate(io.BufferedReader(stream, 1 << 20), 1):
            yield number, line.rstrip(b"\r\n"), line.endswith(b"\n")


_CUT = " (the file ends in this line, without a line end: cut short?)"


def _not_utf8(display: str, number: int, line: bytes, exc: UnicodeDecodeError) -> str:
    before = line[:exc.start].decode("utf-8", "replace")[-20:]
    return (f"{display}: line {number} is not UTF-8 text (byte 0x{line[exc.start]:02x} after {before!r}); "
            "save the file as UTF-8")


def _utf8_problem(file: Path, display: str) -> str | None:
    """The first line of a text file that is not UTF-8 (the readers say only
    'can't decode byte 0xe9 in position 3' of some buffer)."""
    for number, line, _ in _lines(file):
        try:
            line.decode("utf-8")
        except UnicodeDecodeError as exc:
            return _not_utf8(display, number, line, exc)
    return None


def _shown(text: str, most: int = 60) -> str:
    return repr(text if len(text) <= most else text[:most] + "...")


def _csv_problem(file: Path, display: str) -> str | None:
    """The line a CSV/TSV parse fails on, by its number: read again on one
    thread (the threaded reader's error names no line)."""
    import pyarrow.csv as pacsv

    found = []

    def first(row):
        found.append(row)
        return "error"

    parse = _csv_parse(data_suffix(file)[0])
    parse = pacsv.ParseOptions(delimiter=parse.delimiter, invalid_row_handler=first)
    try:
        with _text_input(file) as src:
            pacsv.read_csv(src, parse_options=parse, read_options=pacsv.ReadOptions(use_threads=False))
    except Exception:  # noqa: BLE001 (what it says is in found)
        pass
    if not found:
        return None
    row = found[0]
    where = f"line {row.number}" if row.number is not None else "a line"
    hint = ""
    if row.text.count('"') % 2:
        hint = " (a quoted field is not closed)"
    elif data_suffix(file)[1] is None:
        with open(file, "rb") as f:  # the last line, without a line end: the file was cut short?
            f.seek(max(0, file.stat().st_size - len(row.text.encode()) - 1))
            tail = f.read()
        if tail.endswith(row.text.encode()) and not tail.endswith(b"\n"):
            hint = _CUT
    return (f"{display}: {where}: {row.actual_columns} fields where the header has {row.expected_columns}: "
            f"{_shown(row.text)}{hint}")


def _json_kind(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return {str: "string", dict: "object", list: "array"}[type(value)]


def _jsonl_problem(file: Path, display: str) -> str | None:
    """The line a JSON lines read fails on (pyarrow numbers rows within its
    blocks, so its row numbers mislead): not JSON, not an object, a key given
    twice, or a key whose kind of value changes (pyarrow reads every key)."""
    kinds: dict[str, tuple[str, int, object]] = {}

    def no_twice(pairs):
        seen = set()
        for key, _ in pairs:
            if key in seen:
                raise KeyError(key)
            seen.add(key)
        return dict(pairs)

    for number, line, ended in _lines(file):
        if not line.strip():
            continue
        try:
            record = json.loads(line.decode("utf-8"), object_pairs_hook=no_twice)
        except UnicodeDecodeError as exc:
            return _not_utf8(display, number, line, exc)
        except KeyError as exc:
            return f"{display}: line {number}: key {exc.args[0]!r} appears twice"
        except json.JSONDecodeError as exc:
            return (f"{display}: line {number} is not valid JSON ({exc.msg}: character {exc.colno})"
                    + ("" if ended else _CUT))
        if not isinstance(record, dict):
            return f"{display}: line {number} is not a JSON object ({_shown(line.decode())})"
        for c in record:
            if record[c] is not None:
                kind = _json_kind(record[c])
                first = kinds.setdefault(c, (kind, number, record[c]))
                if first[0] != kind:
                    return (f"{display}: column '{c}': line {first[1]} holds {_a(first[0])} "
                            f"({json.dumps(first[2])[:40]}), line {number} {_a(kind)} "
                            f"({json.dumps(record[c])[:40]})")
    return None


def _read_problem(file: Path, display: str, exc: Exception) -> str:
    """What a reader's failure means, by file, line and column where it can be found."""
    suffix = data_suffix(file)[0]
    found = None
    try:
        if isinstance(exc, UnicodeDecodeError) and suffix != ".npz":
            found = _utf8_problem(file, display)
        elif suffix in (".csv", ".tsv") and "CSV parse error" in str(exc):
            found = _csv_problem(file, display)
        elif suffix == ".jsonl" and "JSON" in str(exc):
            found = _jsonl_problem(file, display)
        elif suffix == ".npz" and not zipfile.is_zipfile(file):
            found = f"{display} is not an NPZ file (not a zip archive: cut short, or another format?)"
        elif suffix == ".parquet":
            found = _parquet_problem(file, display)
    except Exception:  # noqa: BLE001 (only a better message; the reader's stands)
        found = None
    return found or f"cannot read {display}: {exc}".strip()


def _parquet_problem(file: Path, display: str) -> str | None:
    """An empty, cut short or other file named .parquet (a Parquet file starts
    and ends with b'PAR1'; pyarrow says only that the footer is wrong)."""
    size = file.stat().st_size
    if size == 0:
        return f"{display} is empty"
    with open(file, "rb") as f:
        head = f.read(4)
        f.seek(max(0, size - 4))
        tail = f.read(4)
    if head != b"PAR1":
        return f"{display} is not a Parquet file (it does not start with PAR1)"
    if tail != b"PAR1":
        return f"{display} is cut short: a Parquet file ends with its footer and PAR1, this one does not"
    return None


def _open_quote_at_end(file: Path) -> str | None:
    """The last line of a plain CSV/TSV file that ends inside a quoted field
    (cut short there, pyarrow reads the field to the end of the file and
    says nothing), or None. Only a file without a line end at its end can,
    and then the quotes of the whole file are odd in number (a quote inside
    an unquoted field, 12" say, would make them odd too: the last line must
    hold an odd number as well)."""
    size = file.stat().st_size
    with open(file, "rb") as f:
        f.seek(max(0, size - (1 << 16)))
        tail = f.read()
        if not tail or tail.endswith(b"\n"):
            return None
        last = tail.rsplit(b"\n", 1)[-1]
        if last.count(b'"') % 2 == 0:
            return None
        f.seek(0)
        quotes = sum(chunk.count(b'"') for chunk in iter(lambda: f.read(1 << 24), b""))
    return last.decode("utf-8", "replace") if quotes % 2 else None


class _MemberError(ValueError):
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
                raise _MemberError(c, "holds Python objects (an object array), which NumPy reads only by "
                                      "unpickling (unsafe): save numbers or text") from None
        return out


def _column_names(file: Path) -> list[str]:
    suffix, _ = data_suffix(file)
    if suffix in (".csv", ".tsv"):
        import pyarrow.csv as pacsv

        with _text_input(file) as src:
            reader = pacsv.open_csv(src, parse_options=_csv_parse(suffix))
            return list(reader.schema.names)
    if suffix == ".parquet":
        import pyarrow.parquet as pq

        return list(pq.read_schema(file).names)
    if suffix == ".jsonl":
        import pyarrow.json as pajson

        with _text_input(file) as src:
            return list(pajson.read_json(src).schema.names)
    if suffix == ".npz":
        if not zipfile.is_zipfile(file):  # (np.load would leave the file open)
            raise ValueError("not a zip archive")
        with np.load(file, allow_pickle=False) as z:
            return list(z.files)
    raise ValueError(f"unsupported file type {suffix}")


def _separator_problem(display: str, file: Path, header: str, separator: str) -> str:
    suffix = data_suffix(file)[0]
    return (f"{display}: the header reads as one column {header!r}; the file looks separated by "
            f"{separator!r}, but {suffix} is read as {'tab' if suffix == '.tsv' else 'comma'}-separated "
            "(.csv: commas, .tsv: tabs)")


def _other_separator(file: Path, names: list[str]) -> str | None:
    """The separator a text file's one-column header seems split by, when it
    is not the one its suffix reads (a .csv saved with semicolons, as
    spreadsheets do where the comma is the decimal mark)."""
    suffix = data_suffix(file)[0]
    if len(names) != 1 or suffix not in (".csv", ".tsv"):
        return None
    own = "\t" if suffix == ".tsv" else ","
    if own in names[0]:
        return None
    found = [sep for sep in (";", "\t", ",", "|") if sep != own and sep in names[0]]
    return max(found, key=names[0].count) if found else None


def _csv_parse(suffix: str):
    import pyarrow.csv as pacsv

    return pacsv.ParseOptions(delimiter="\t" if suffix == ".tsv" else ",")


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

        with _text_input(file) as src:
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


def arrow_to_numpy(chunk) -> np.ndarray:
    """A null-free number or boolean Arrow array as NumPy, read off its buffers.

    (``Array.to_numpy`` would do, but it imports pandas, half a second of
    start-up, even for a zero-copy view.)
    """
    import pyarrow as pa

    data = chunk.buffers()[1]
    if pa.types.is_boolean(chunk.type):  # bit-packed, least significant bit first
        bits = np.unpackbits(np.frombuffer(data, dtype=np.uint8), bitorder="little")
        return bits[chunk.offset: chunk.offset + len(chunk)].view(bool)
    dtype = np.dtype(chunk.type.to_pandas_dtype())
    return np.frombuffer(data, dtype=dtype, count=len(chunk), offset=chunk.offset * dtype.itemsize)


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

    parse = _csv_parse(suffix)
    size = file.stat().st_size
    whole = None
    if sliced and size > 2 * CSV_SLICE_BYTES:
        try:
            whole = _read_csv_slices(file, columns, parse)
        except (pa.ArrowInvalid, ValueError):
            whole = None
    if whole is not None:
        return whole
    with _text_input(file) as src:
        table = pacsv.read_csv(src, parse_options=parse,
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


def _py(value):
    """A NumPy scalar as the plain Python value (for messages)."""
    return value.item() if hasattr(value, "item") else value


def _first_row(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0]) + 1


def _to_numpy(col):
    """A column as a NumPy array; strings stay strings, nulls are reported by the caller."""
    if isinstance(col, np.ndarray):
        return col
    return col.to_numpy(zero_copy_only=False)


def _null_row(col, *, nan: bool = True) -> int | None:
    """Row of the first missing value: null, or (``nan``) NaN in a NumPy float
    column (Parquet and NPZ floats arrive as NumPy; the CSV reader makes NaN null)."""
    if isinstance(col, np.ndarray):
        if nan and col.dtype.kind == "f" and col.ndim == 1:
            missing = np.isnan(col)
            return _first_row(missing) if missing.any() else None
        return None
    if col.null_count == 0:
        return None
    import pyarrow.compute as pc

    mask = pc.is_null(col).to_numpy(zero_copy_only=False)
    return _first_row(mask)


class _Problems:
    def __init__(self, spec: Spec):
        self.spec = spec
        self.items: list[str] = []

    def add(self, loc, text):
        self.items.append(locate(self.spec, loc, text))


def _numeric(col, *, what: str, display: str, column: str, loc, problems: _Problems,
             allow_negative=True):
    """A numeric, finite float64 column, or None after recording the problem."""
    null = _null_row(col, nan=False)  # (NaN in NumPy floats: said below)
    if null is not None:
        problems.add(loc, f"{display}: column '{column}', row {null}: missing value (empty, NA or NaN)")
        return None
    arr = _to_numpy(col)
    if arr.ndim != 1:
        problems.add(loc, f"{display}: column '{column}' is not one-dimensional")
        return None
    if arr.dtype.kind not in "biuf":
        bad = None
        for i, v in enumerate(arr):
            try:
                float(v)
            except (TypeError, ValueError):
                bad = (i + 1, v)
                break
        if bad is None:
            arr = arr.astype(np.float64)
        else:
            # (a quote left open swallows the lines below into one field)
            hint = " (a quoted field that is not closed?)" if "\n" in str(bad[1]) else ""
            problems.add(loc, f"{display}: column '{column}', row {bad[0]}: {what} {bad[1]!r} "
                         f"is not a number{hint}")
            return None
    arr = arr.astype(np.float64, copy=False)
    finite = np.isfinite(arr)
    if not finite.all():
        row = _first_row(~finite)
        kind = "NaN" if np.isnan(arr[row - 1]) else "infinite"
        problems.add(loc, f"{display}: column '{column}', row {row}: {kind} {what}")
        return None
    if not allow_negative and (arr < 0).any():
        row = _first_row(arr < 0)
        problems.add(loc, f"{display}: column '{column}', row {row}: negative {what} {_py(arr[row - 1])!r}")
        return None
    return arr


def _distinct(col):
    """Distinct values of a column and the row index where each first occurs.

    Hash-based through pyarrow (no sort of the whole column); NumPy for .npz.
    """
    if isinstance(col, np.ndarray):
        if col.dtype.kind in "biu" and col.size:
            lo, hi = col.min().item(), col.max().item()
            if hi - lo < 64:  # labels: a pass per possible value beats np.unique's sort
                values, first = [], []
                for v in range(int(lo), int(hi) + 1):
                    at = int(np.argmax(col == v))
                    if col[at] == v:
                        values.append(col[at])
                        first.append(at)
                return values, first
        values, first = np.unique(col if col.dtype.kind in "biuf" else col.astype(str), return_index=True)
        return list(values), [int(f) for f in first]
    import pyarrow.compute as pc

    values = pc.unique(col).to_pylist()
    first = [int(pc.index(col, v).as_py()) for v in values] if len(values) <= 16 else [0] * len(values)
    return values, first


def _equal_mask(col, value) -> np.ndarray:
    if isinstance(col, np.ndarray):
        return (col if col.dtype.kind in "biuf" else col.astype(str)) == value
    import pyarrow.compute as pc

    return pc.equal(col, value).to_numpy(zero_copy_only=False)


def _empty_label_row(col, values) -> int | None:
    """Row of the first empty text label of a CSV/TSV column. pyarrow's CSV
    reader keeps an empty text cell as '' (DuckDB and Spark read it as
    null): as a label it would pass for a class of its own, the negative one
    if it is the only other. (In Parquet, JSONL and NPZ '' is a value.)"""
    if "" not in values:
        return None
    return _first_row(_equal_mask(col, ""))


def _empty_text_row(col) -> int | None:
    """Row of the first empty cell of a CSV/TSV text column ('' there, not null)."""
    import pyarrow as pa

    if not isinstance(col, pa.ChunkedArray) or not pa.types.is_string(col.type):
        return None
    import pyarrow.compute as pc

    empty = pc.equal(col, "")
    return _first_row(empty.to_numpy(zero_copy_only=False)) if pc.any(empty).as_py() else None


#: weights whose largest lies outside [2**-WEIGHT_EXPONENT, 2**WEIGHT_EXPONENT]
#: are scaled by a power of two (see _scaled_weights)
WEIGHT_EXPONENT = 256


def _scaled_weights(w: np.ndarray, display, column, loc, problems, notes: list) -> np.ndarray | None:
    """The weights, checked: not all 0, and scaled by a power of two when their
    scale would break the arithmetic.

    Every measure is a ratio of weight sums, so it does not depend on the
    weights' scale; but sums of weights near 1e308 overflow to inf, and
    products of sums (AUC's pairs) of weights below about 1e-154, subnormal
    ones above all, underflow to 0, and both give NaN. Scaling by a power of
    two is exact (every sum and ratio is the same, bar weights below 2**-1074
    of the largest, which become 0), so the measures are computed correctly;
    the counts are then in the scaled unit, which a warning says. Weights of
    an ordinary scale are left as they are, counts and all."""
    top = float(w.max()) if w.size else 0.0
    if top == 0.0:
        problems.add(loc, f"{display}: column '{column}': every weight is 0, so the total weight is 0 and "
                     "no measure is defined")
        return None
    exponent = math.frexp(top)[1]
    if abs(exponent) <= WEIGHT_EXPONENT:
        return w
    why = ("sums and products of weights this large overflow" if exponent > 0 else
           "products of sums of weights this small underflow")
    notes.append(f"{display}: column '{column}': the weights are scaled by 2^{-exponent} (the largest is "
                 f"{top:.3g}: {why}); the measures do not depend on the weights' scale, but the counts "
                 "(TP, FP, TN, FN, positives, negatives) are in the scaled unit")
    return np.ldexp(w, -exponent)


def _class_weight_problem(weights: np.ndarray, labels: np.ndarray, k: int) -> str | None:
    """:func:`weight_scale_problem` of each class against the rest (the weights
    already scaled: only classes whose totals lie some 290 orders of magnitude
    apart are left to fail)."""
    if labels.dtype == bool:
        by_class = np.array([weights[~labels].sum(), weights[labels].sum()])
    else:
        by_class = np.bincount(labels, weights=weights, minlength=k)
    for i in range(by_class.size):
        # the rest summed apart (total - class would cancel to 0 against a class far heavier)
        problem = weight_scale_problem(by_class[i], np.delete(by_class, i).sum())
        if problem is not None:
            return problem
    return None


def _engine_weight_problem(src, table) -> str | None:
    """The memory path's weight checks on an engine's table (the weights stay
    where the data lives, so they cannot be scaled here)."""
    if src.weight is None:
        return None
    pos, neg = float(table.positives), float(table.negatives)
    if pos + neg == 0:
        return (f"{src.path}: column '{src.weight}': every weight is 0, so the total weight is 0 and no "
                "measure is defined")
    problem = weight_scale_problem(pos, neg)
    if problem is None:
        return None
    return f"{src.path}: column '{src.weight}': {problem} ({SCALE_ADVICE}){_MEMORY_SCALES}"


#: an engine's weights stay where the data lives; in memory they are scaled (_scaled_weights)
_MEMORY_SCALES = "; engine: memory scales them itself"


def _binary_labels(col, spec: Spec, display, column, loc, problems, *, empty_is_missing=False) -> np.ndarray | None:
    """Labels as a boolean array (True = positive), checked."""
    null = _null_row(col)
    if null is not None:
        problems.add(loc, f"{display}: column '{column}', row {null}: missing label")
        return None
    positive = label_key(spec.positive_label)
    values, first = _distinct(col)
    empty = _empty_label_row(col, values) if empty_is_missing and positive else None
    if empty is not None:
        problems.add(loc, f"{display}: column '{column}', row {empty}: missing label (empty)")
        return None
    keys = [label_key(v) for v in values]
    order = sorted(range(len(keys)), key=lambda i: keys[i])
    if positive not in keys:
        shown = ", ".join(repr(keys[i]) for i in order[:5]) + (", ..." if len(keys) > 5 else "")
        hint = suggest(positive, keys) + _yaml_boolean_hint(spec)
        problems.add(_positive_loc(spec, loc),
                     f"{display}: the positive label {spec.positive_label!r} does not occur in column "
                     f"'{column}' (labels: {shown}){hint}")
        return None
    if len(keys) > 2:
        others = sorted((first[i], keys[i]) for i in range(len(keys)) if keys[i] != positive)
        row, label = others[1]
        shown = ", ".join(repr(keys[i]) for i in order[:6])
        problems.add(loc, f"{display}: column '{column}', row {row + 1}: label {label!r} makes "
                     f"{len(keys)} labels ({shown}); a binary task has the positive label and one other")
        return None
    return _equal_mask(col, values[keys.index(positive)])


def _positive_loc(spec: Spec, loc):
    """Where a positive label that does not occur is reported: at the spec's
    ``positive`` key when it is written, else at the data source's ``loc``."""
    return ("positive",) if spec._locator and ("positive",) in spec._locator.lines else loc


def _yaml_boolean_hint(spec: Spec) -> str:
    if isinstance(spec.positive, bool):
        return " (YAML reads yes, no, on, off, true and false as booleans: quote a text label)"
    return ""


def _class_labels(col, spec: Spec, display, column, loc, problems, *, what: str,
                  empty_is_missing=False) -> np.ndarray | None:
    """Multi-class labels as class indices (0..k-1, in ``classes`` order), checked."""
    null = _null_row(col)
    if null is not None:
        problems.add(loc, f"{display}: column '{column}', row {null}: missing {what}")
        return None
    keys = [label_key(c) for c in spec.classes]
    values, first = _distinct(col)
    empty = _empty_label_row(col, values) if empty_is_missing and "" not in keys else None
    if empty is not None:
        problems.add(loc, f"{display}: column '{column}', row {empty}: missing {what} (empty)")
        return None
    value_keys = [label_key(v) for v in values]
    unknown = [(f, k) for k, f in zip(value_keys, first) if k not in keys]
    if unknown:
        f, k = min(unknown)
        problems.add(loc, f"{display}: column '{column}', row {f + 1}: {what} {k!r} is not one of the "
                     f"classes ({', '.join(repr(c) for c in keys)}){suggest(k, keys)}")
        return None
    out = np.empty(len(col), dtype=np.int64)
    for v, k in zip(values, value_keys):
        out[_equal_mask(col, v)] = keys.index(k)
    return out


def _decisions(col, labels_keys, spec, display, column, loc, problems) -> np.ndarray | None:
    """Hard decisions as booleans (True = predicted positive)."""
    null = _null_row(col)
    if null is not None:
        problems.add(loc, f"{display}: column '{column}', row {null}: missing decision")
        return None
    positive = label_key(spec.positive_label)
    values, first = _distinct(col)
    keys = [label_key(v) for v in values]
    extra = [(f, k) for k, f in zip(keys, first) if k not in labels_keys]
    if len(labels_keys) == 1 and len(extra) == 1:
        extra = []  # the labels hold the positive class only: the other decision is the negative label
    if extra:
        f, k = min(extra)
        problems.add(loc, f"{display}: column '{column}', row {f + 1}: decision {k!r} is not a "
                     f"label of the task ({', '.join(repr(x) for x in sorted(labels_keys))})")
        return None
    if positive not in keys:
        return np.zeros(len(col), dtype=bool)
    return _equal_mask(col, values[keys.index(positive)])


def _first_duplicate(col, ids: np.ndarray):
    """Rows (0-based) of the first repeated id, or None.

    Integer ids: ids in increasing order (the common case) need one pass;
    otherwise one ``np.sort``. Text ids: a hash count. The sort that locates
    the repeated pair runs only when there is one.
    """
    if ids.dtype.kind in "biu":
        if ids.size < 2 or np.all(ids[1:] > ids[:-1]):
            return None
        s = np.sort(ids)
        if not np.any(s[1:] == s[:-1]):
            return None
    elif isinstance(col, np.ndarray):
        if np.unique(ids).size == ids.size:
            return None
    else:
        import pyarrow.compute as pc

        if pc.count_distinct(col).as_py() == ids.size:
            return None
    order = np.argsort(ids, kind="stable")
    sorted_ids = ids[order]
    i = int(np.flatnonzero(sorted_ids[1:] == sorted_ids[:-1])[0])
    return tuple(sorted(int(r) for r in order[i: i + 2]))


def _path_problem(file: Path, display: str) -> str | None:
    """Why a data file cannot be read at all, None when it can: it is missing,
    not a regular file (a folder; a FIFO, never opened: it would block), or the
    system refuses it (no permission, a name too long, a NUL byte in it)."""
    try:
        mode = file.stat().st_mode
    except (FileNotFoundError, NotADirectoryError):
        try:
            hint = suggest(file.name, [p.name for p in file.parent.iterdir()])
        except (OSError, ValueError):  # only a hint
            hint = ""
        return f"file not found: {display}{hint}"
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte
        shown = _cut(display) if display.isprintable() else _short(display)
        return f"cannot read {shown}: {getattr(exc, 'strerror', None) or exc}"
    kind = not_a_file(mode)
    if kind is not None:
        return f"{display} is {kind}"
    try:
        with open(file, "rb"):  # a regular file: opening it does not block
            pass
    except OSError as exc:  # no permission to read it
        return f"cannot read {_cut(display)}: {exc.strerror or exc}"
    return None


def _load_one(spec: Spec, i: int, problems: _Problems, progress=None) -> Source | None:
    src = spec.data[i]
    base = ("data", i)
    file = spec.resolve(src.path)
    display = src.path
    problem = _path_problem(file, display)
    if problem is not None:
        problems.add(base + ("path",), problem)
        return None
    if progress:
        progress(f"reading {display}")
    text = data_suffix(file)[0] in (".csv", ".tsv", ".jsonl")
    problem = _text_problem(file, display) if text else None
    if problem is not None:
        problems.add(base + ("path",), problem)
        return None
    wanted = _wanted(src, base)
    try:
        names = _column_names(file)
    except Exception as exc:  # pyarrow / numpy parse errors: report, do not crash
        # (a .csv saved with semicolons and decimal commas fails to parse at all)
        header = _header_line(file) if data_suffix(file)[0] in (".csv", ".tsv") else ""
        separator = _other_separator(file, [header]) if header else None
        if separator is not None:
            problems.add(base + ("path",), _separator_problem(display, file, header, separator))
        else:
            problems.add(base + ("path",), _read_problem(file, display, exc))
        return None
    separator = _other_separator(file, names) if any(col not in names for _, col, _ in wanted) else None
    if separator is not None:  # one problem, not one per column
        problems.add(base + ("path",), _separator_problem(display, file, names[0], separator))
        return None
    missing = False
    shown = ", ".join(names[:20]) + (", ..." if len(names) > 20 else "")
    for loc, col, _ in wanted:
        if col not in names:
            problems.add(loc, f"column '{col}' is not in {display} (columns: {shown}){suggest(col, names)}")
            missing = True
        elif names.count(col) > 1:
            # the readers would take one of them, silently
            at = [str(j + 1) for j, n in enumerate(names) if n == col]
            problems.add(loc, f"{display}: column '{col}' appears {len(at)} times in the header (columns "
                         f"{', '.join(at[:-1])} and {at[-1]}): rename all but one")
            missing = True
    if missing:
        return None
    return _checked_source(spec, i, problems, file, wanted)


def _wanted(src, base: tuple) -> list[tuple[tuple, str, str]]:
    """(key, column, role) of each column data[i] names: its label, id, group,
    weight, and each learner's score, scores or decisions."""
    wanted = [(base + ("label",), src.label, "label")]
    for key in ("id", "group", "weight"):
        if getattr(src, key) is not None:
            wanted.append((base + (key,), getattr(src, key), key))
    for name, learner in src.learners.items():
        kind = "scores" if learner.scores is not None else ("score" if learner.score else "predicted")
        for j, col in enumerate(learner.columns):
            loc = base + ("learners", name) + ((kind, j) if kind == "scores" else (kind,))
            wanted.append((loc, col, "decision" if kind == "predicted" else "score"))
    return wanted


def _type_problem(col, role: str) -> str | None:
    """Why a column as read cannot hold a ``role`` at all (its shape or type;
    the text after its name), or None. Its values are checked later."""
    if isinstance(col, np.ndarray):  # NPZ members
        if col.ndim == 0:
            return "is a single value (a 0-d array), not a column of values"
        if col.ndim > 1:
            return f"has shape {col.shape}; a column is one-dimensional"
        if col.dtype.kind not in "biufUS":
            kind = {"c": "complex numbers", "V": "structured records", "M": "dates and times",
                    "m": "time spans", "O": "Python objects"}.get(col.dtype.kind, "values")
            return f"holds {kind} (dtype {col.dtype}); {_a(role)} column holds real numbers, text or booleans"
        return None
    import pyarrow as pa

    if isinstance(col, (pa.ChunkedArray, pa.Array)) and pa.types.is_nested(col.type):
        return (f"is of the nested type {col.type}; {_a(role)} column holds plain values (numbers, text or "
                "booleans)")
    return None


def _a(word: str) -> str:
    return ("an " if word[0] in "aeiou" else "a ") + word


def _binary_row(col) -> tuple[int, bytes] | None:
    """The first value that is not UTF-8 in a column the CSV reader left as
    bytes (it does so for any column with one such value)."""
    import pyarrow as pa

    if not isinstance(col, pa.ChunkedArray) or not (pa.types.is_binary(col.type) or
                                                    pa.types.is_large_binary(col.type)):
        return None
    for row, value in enumerate(col.to_pylist(), 1):
        if value is not None:
            try:
                value.decode("utf-8")
            except UnicodeDecodeError:
                return row, value
    return None


def _checked_source(spec: Spec, i: int, problems: _Problems, file: Path, wanted) -> Source | None:
    """Read the columns of data[i] and check them (the second half of :func:`_load_one`)."""
    src = spec.data[i]
    base = ("data", i)
    display = src.path
    columns = list(dict.fromkeys(col for _, col, _ in wanted))
    kind = "member" if data_suffix(file)[0] == ".npz" else "column"
    try:
        data = read_columns(file, columns)
    except _MemberError as exc:
        loc = next(loc for loc, col, _ in wanted if col == exc.column)
        problems.add(loc, f"{display}: {kind} '{exc.column}' {exc.text}")
        return None
    except Exception as exc:
        problems.add(base + ("path",), _read_problem(file, display, exc))
        return None
    from_text = data_suffix(file)[0] in (".csv", ".tsv", ".jsonl")  # (where bytes mean "not UTF-8")
    bad = False
    for loc, col, role in wanted:
        why = _type_problem(data[col], role)
        if why is not None:
            problems.add(loc, f"{display}: {kind} '{col}' {why}")
            bad = True
            continue
        found = _binary_row(data[col]) if from_text else None
        if found is not None:
            row, value = found
            problems.add(loc, f"{display}: column '{col}', row {row}: {value!r} is not UTF-8 text; "
                         "save the file as UTF-8")
            bad = True
    if bad:
        return None
    lengths = {c: len(v) for c, v in data.items()}
    if len(set(lengths.values())) > 1:  # (NPZ members)
        shown = ", ".join(f"'{c}' {n:,}" for c, n in lengths.items())
        problems.add(base + ("path",), f"{display}: the {kind}s have different lengths ({shown})")
        return None
    rows = next(iter(lengths.values()), 0)
    if data_suffix(file) in ((".csv", None), (".tsv", None)):
        last = _open_quote_at_end(file)
        if last is not None:
            problems.add(base + ("path",), f"{display}: row {rows:,}, the last, ends inside a quoted field "
                         f"that is not closed: {_shown(last)}{_CUT}")
            return None
    if rows == 0:
        problems.add(base + ("path",), f"{display} has no rows")
        return None

    before = len(problems.items)
    text = data_suffix(file)[0] in (".csv", ".tsv")  # an empty cell is '' there, not null
    if spec.task == "binary":
        labels = _binary_labels(data[src.label], spec, display, src.label, base + ("label",), problems,
                                empty_is_missing=text)
    else:
        labels = _class_labels(data[src.label], spec, display, src.label, base + ("label",), problems,
                               what="label", empty_is_missing=text)
    weights, notes = None, []
    if src.weight is not None:
        weights = _numeric(data[src.weight], what="weight", display=display, column=src.weight,
                           loc=base + ("weight",), problems=problems, allow_negative=False)
        if weights is not None:
            weights = _scaled_weights(weights, display, src.weight, base + ("weight",), problems, notes)
    if weights is not None and labels is not None:
        problem = _class_weight_problem(weights, labels, len(spec.classes or ()))
        if problem is not None:
            problems.add(base + ("weight",), f"{display}: column '{src.weight}': {problem}: one class weighs "
                         "next to nothing against the other")
    ids = None
    if src.id is not None:
        null = _null_row(data[src.id])
        empty = _empty_text_row(data[src.id]) if null is None and text else None
        if null is not None or empty is not None:
            problems.add(base + ("id",), f"{display}: column '{src.id}', row {null or empty}: missing id"
                         + (" (empty)" if empty else ""))
        else:
            ids = _to_numpy(data[src.id])
            if ids.dtype.kind not in "biu":
                ids = ids.astype(str)
            dup = _first_duplicate(data[src.id], ids)
            if dup is not None:
                a, b = dup
                problems.add(base + ("id",), f"{display}: column '{src.id}': id {_py(ids[a])!r} appears "
                             f"twice (rows {a + 1} and {b + 1})")
    groups = None
    if src.group is not None:
        null = _null_row(data[src.group])
        # (an empty CSV cell would be a group named '')
        empty = _empty_text_row(data[src.group]) if null is None and text else None
        if null is not None or empty is not None:
            problems.add(base + ("group",), f"{display}: column '{src.group}', row {null or empty}: "
                         "missing group" + (" (empty)" if empty else ""))
        else:
            groups = _to_numpy(data[src.group])
    learners: dict[str, np.ndarray] = {}
    hard = set()
    for name, learner in src.learners.items():
        loc = base + ("learners", name)
        if learner.score is not None:
            arr = _numeric(data[learner.score], what="score", display=display, column=learner.score,
                           loc=loc + ("score",), problems=problems)
        elif learner.predicted is not None:
            hard.add(name)
            arr = None
            if spec.task == "binary" and labels is not None:
                keys = {label_key(v) for v in _distinct(data[src.label])[0]}
                arr = _decisions(data[learner.predicted], keys, spec, display, learner.predicted,
                                 loc + ("predicted",), problems)
            elif spec.task != "binary":
                arr = _class_labels(data[learner.predicted], spec, display, learner.predicted,
                                    loc + ("predicted",), problems, what="decision", empty_is_missing=text)
        else:
            cols = [
                _numeric(data[c], what="score", display=display, column=c,
                         loc=loc + ("scores", j), problems=problems)
                for j, c in enumerate(learner.scores)
            ]
            arr = None if any(c is None for c in cols) else np.column_stack(cols)
        if arr is not None:
            learners[name] = arr
    if len(problems.items) != before:
        return None
    return Source(
        # hashed in a thread while the learners are evaluated (on the other core)
        index=i, path=display, file=file, sha256=_BackgroundSha256(file), rows=rows,
        dataset=src.dataset, labels=labels, ids=ids, groups=groups, weights=weights,
        learners=learners, hard=frozenset(hard), warnings=tuple(notes),
    )


def _check_pairing(spec: Spec, sources: list[Source], problems: _Problems) -> None:
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


def _load_engine(spec: Spec, i: int, problems: _Problems, progress=None) -> Source | None:
    """Aggregate one source where it lives (DuckDB or Spark): count tables, no rows."""
    src = spec.data[i]
    base = ("data", i)
    scores = {name: learner.score for name, learner in src.learners.items()}
    if progress:
        progress(f"aggregating {src.path} with {src.engine}")
    files = _engine_files(spec, src)
    if src.kind not in ("table", "sql") and not files:
        problems.add(base + ("path",), f"no file matches {src.path}")
        return None
    if spec.task == "multiclass":
        lists = {name: list(learner.scores) for name, learner in src.learners.items()}
        try:
            if src.engine == "duckdb":
                from .engines.duckdb import aggregate_duckdb_multiclass

                rows, counts = aggregate_duckdb_multiclass(
                    [str(f) for f in files] if files else src.path, label=src.label, classes=spec.classes,
                    learners=lists, weight=src.weight, memory_limit=src.memory_limit, kind=src.kind,
                    database=str(spec.resolve(src.database)) if src.database else None)
            else:
                from .engines.spark import aggregate_spark_multiclass

                session = spec.spark
                rows, counts = aggregate_spark_multiclass(
                    str(spec.resolve(src.path)), label=src.label, classes=spec.classes, learners=lists,
                    weight=src.weight, master=session.master if session else None,
                    conf=dict(session.conf) if session else None,
                    remote=session.remote if session else None,
                    **_spark_reader(src))
        except WeightScaleError as exc:
            problems.add(base + ("weight",), f"{src.path}: column '{src.weight}': {exc}{_MEMORY_SCALES}")
            return None
        except (ValueError, ImportError) as exc:
            problems.add(base + _engine_key(exc, spec), f"{src.path}: {exc}")
            return None
        first = next(iter(counts.values()), None)
        for table in first.tables if first is not None else ():  # (every learner has the same weights)
            problem = _engine_weight_problem(src, table)
            if problem is not None:
                problems.add(base + ("weight",), problem)
                return None
        return Source(
            index=i, path=src.path, file=files[0] if files else Path(src.path),
            sha256=_combined_sha256(files) if files else None, rows=rows, dataset=src.dataset,
            labels=None, ids=None, groups=None, weights=None, mc_counts=counts, engine=src.engine)
    try:
        if src.engine == "duckdb":
            from .engines.duckdb import aggregate_duckdb

            source = [str(f) for f in files] if files else src.path
            database = str(spec.resolve(src.database)) if src.database else None
            # Exact tables are streamed and, when long, reduced: name in advance the
            # thresholds and partial AUC the report will ask for, so they stay exact.
            keep = [learner.threshold for learner in src.learners.values() if learner.threshold is not None]
            # 'optimal' is a hull vertex (always kept), or the fallback when there is no hull
            keep.append(FALLBACK_THRESHOLD if spec.threshold == "optimal" else float(spec.threshold))
            fprs = [] if spec.partial_auc is None else [spec.partial_auc.max_fpr]
            agg = aggregate_duckdb(source, label=src.label, positive=spec.positive_label, scores=scores,
                                   weight=src.weight, resolution=src.resolution, by=src.group,
                                   memory_limit=src.memory_limit, kind=src.kind, database=database,
                                   keep_thresholds=keep, max_fprs=fprs, labels_as_text=True)
        else:
            from .engines.spark import aggregate_spark

            session = spec.spark
            agg = aggregate_spark(str(spec.resolve(src.path)), label=src.label, positive=spec.positive_label,
                                  scores=scores, weight=src.weight, resolution=src.resolution,
                                  master=session.master if session else None,
                                  conf=dict(session.conf) if session else None,
                                  remote=session.remote if session else None, by=src.group,
                                  labels_as_text=True, **_spark_reader(src))
    except WeightScaleError as exc:  # (the streamed exact tables check the totals)
        problems.add(base + ("weight",), f"{src.path}: column '{src.weight}': {exc}{_MEMORY_SCALES}")
        return None
    except (ValueError, ImportError, RuntimeError) as exc:
        problems.add(base + _engine_key(exc, spec), f"{src.path}: {exc}")
        return None
    from .engines import PositiveLabelMissing, check_labels

    try:
        check_labels(agg.labels_seen, spec.positive_label, truncated=agg.labels_truncated, where=src.path,
                     as_text=True)
    except PositiveLabelMissing as exc:
        problems.add(_positive_loc(spec, base + ("label",)), str(exc) + _yaml_boolean_hint(spec))
        return None
    except ValueError as exc:
        problems.add(base + ("label",), str(exc))
        return None
    problem = _engine_weight_problem(src, next(iter(agg.tables.values()))) if agg.tables else None
    if problem is not None:
        problems.add(base + ("weight",), problem)
        return None
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
    return Source(
        index=i, path=src.path, file=files[0] if files else Path(src.path),
        sha256=_combined_sha256(files) if files else None, rows=agg.rows, dataset=src.dataset,
        labels=None, ids=None, groups=None, weights=None, tables=tables, group_tables=group_tables,
        resolution_bound=bounds, engine=src.engine, reductions=agg.reductions,
    )


def _merge_tables(tables: list):
    """One count table from several (the rows of all of them)."""
    from .metrics import count_table_from_aggregates

    score = np.concatenate([t.threshold for t in tables])
    pos = np.concatenate([np.diff(t.tp) for t in tables])
    neg = np.concatenate([np.diff(t.fp) for t in tables])
    return count_table_from_aggregates(score, pos, neg, n_rows=sum(t.n_rows for t in tables))


def _engine_key(exc, spec: Spec) -> tuple:
    """The key of the data source an engine's error belongs to: the named
    column's key for a column problem (a multi-class learner's key for one
    of its score columns), else the path."""
    from .engines import ColumnError

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


def _combined_sha256(files: list[Path]) -> str:
    """One file's sha256; for several (a glob), the sha256 of their names and sha256s."""
    if len(files) == 1:
        return file_sha256(files[0])
    h = hashlib.sha256()
    for f in files:
        h.update(f"{f.name} {file_sha256(f)}\n".encode())
    return h.hexdigest()


def load_sources(spec: Spec, progress=None) -> list[Source]:
    """Read and check every prediction file; raise :class:`DataError` listing every problem."""
    problems = _Problems(spec)
    sources = []
    for i in range(len(spec.data)):
        if spec.data[i].engine != "memory":
            s = _load_engine(spec, i, problems, progress)
        else:
            s = _load_one(spec, i, problems, progress)
        if s is not None:
            sources.append(s)
    if not problems.items:
        _check_pairing(spec, sources, problems)
    if problems.items:
        for s in sources:  # nothing will be written: stop hashing
            if isinstance(s.sha256, _BackgroundSha256):
                s.sha256.cancel()
        raise DataError(problems.items)
    return sources
