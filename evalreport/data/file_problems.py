"""Why a prediction file cannot be read, told by file, line and column: a
path that is no readable file, text that is compressed, UTF-16 or not UTF-8,
a CSV line with the wrong number of fields or a quote left open, a JSON line
that is not an object, a Parquet file cut short, a separator the suffix does
not read. The readers' own errors name no line; these find it.
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

from ..spec import cut, short, data_suffix, not_a_file, suggest
from .readers import CODECS, csv_parse, csv_read_options, text_input
from .source import with_article, shown_text


def path_problem(file: Path, display: str) -> str | None:
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
        # a relative path starts from the spec's folder, not the current one: say where it was looked for
        where = "" if Path(display).is_absolute() or display == str(file) else (
            f" (looked for {file}: a relative path starts from the spec's folder)")
        return f"file not found: {display}{where}{hint}"
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte
        shown = cut(display) if display.isprintable() else short(display)
        return f"cannot read {shown}: {getattr(exc, 'strerror', None) or exc}"
    kind = not_a_file(mode)
    if kind is not None:
        return f"{display} is {kind}"
    try:
        with open(file, "rb"):  # a regular file: opening it does not block
            pass
    except OSError as exc:  # no permission to read it
        return f"cannot read {cut(display)}: {exc.strerror or exc}"
    return None


def header_line(file: Path) -> str:
    """The first line of a text data file (decompressed), '' if unreadable."""
    import pyarrow as pa

    try:
        with pa.input_stream(str(file), compression=CODECS.get(data_suffix(file)[1])) as stream:
            raw = stream.read(1 << 16)
    except Exception:  # noqa: BLE001 (only for a hint)
        return ""
    return raw.split(b"\n", 1)[0].rstrip(b"\r").decode("utf-8", "replace").lstrip("\ufeff")


#: the first bytes of each compression's stream, for a text file whose name does not say it is compressed
_MAGIC = {b"\x1f\x8b": ".gz", b"BZh": ".bz2", b"\x28\xb5\x2f\xfd": ".zst", b"\x04\x22\x4d\x18": ".lz4"}


def text_problem(file: Path, display: str) -> str | None:
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
                return (f"{display} is {CODECS[suffix]}-compressed, but its name does not say so "
                        f"(name it {Path(display).name}{suffix})")
    import pyarrow as pa

    try:
        with pa.input_stream(str(file), compression=CODECS.get(data_suffix(file)[1])) as stream:
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

    with pa.input_stream(str(file), compression=CODECS.get(data_suffix(file)[1])) as stream:
        for number, line in enumerate(io.BufferedReader(stream, 1 << 20), 1):
            yield number, line.rstrip(b"\r\n"), line.endswith(b"\n")


CUT = " (the file ends in this line, without a line end: cut short?)"


def _not_utf8(display: str, number: int, line: bytes, exc: UnicodeDecodeError) -> str:
    before = line[:exc.start].decode("utf-8", "replace")[-20:]
    return (f"{display}: line {number} is not UTF-8 text (byte 0x{line[exc.start]:02x} after {before!r}); "
            "save the file as UTF-8")


#: bytes per piece of :func:`utf8_problem`'s pass
UTF8_PIECE_BYTES = 1 << 24


def utf8_problem(file: Path, display: str) -> str | None:
    """The first line of a CSV, TSV or JSON lines file (decompressed) holding a byte
    that is not UTF-8, by its number and the byte, or None (all UTF-8, or unreadable:
    the readers say why). The whole file is checked, the columns the spec does not
    name too: a file that is not UTF-8 is refused by every engine alike (DuckDB
    refuses one in any column, pyarrow only in the columns it converts, and Spark
    reads replacement characters: a Latin-1 'caf\xe9' label became 'caf\ufffd').
    One streamed pass of 16 MiB pieces, decoded by Python's UTF-8 codec (about
    1 GB/s: a few percent of reading the file); a character cut between two
    pieces is carried to the next."""
    import pyarrow as pa

    number, carry = 1, b""
    try:
        with pa.input_stream(str(file), compression=CODECS.get(data_suffix(file)[1])) as stream:
            while True:
                piece = stream.read(UTF8_PIECE_BYTES)
                data = carry + piece
                try:
                    data.decode("utf-8")
                    carry = b""
                except UnicodeDecodeError as exc:
                    if piece and exc.end == len(data) and len(data) - exc.start < 4:
                        carry = data[exc.start:]  # (a character cut by the piece's end)
                    else:
                        start = data.rfind(b"\n", 0, exc.start) + 1
                        number += data.count(b"\n", 0, exc.start)
                        return _not_utf8(display, number, data[start:exc.end], UnicodeDecodeError(
                            "utf-8", data[start:exc.end], exc.start - start, exc.end - start, exc.reason))
                    data = data[:exc.start]
                if not piece:
                    return None
                number += data.count(b"\n")
    except Exception:  # noqa: BLE001 (a wrong compression, a file cut short: the readers say why)
        return None


def _csv_problem(file: Path, display: str) -> str | None:
    """The line a CSV/TSV parse fails on, by its number: read again on one
    thread (the threaded reader's error names no line)."""
    import pyarrow.csv as pacsv

    found = []

    def first(row):
        found.append(row)
        return "error"

    parse = csv_parse(data_suffix(file)[0])
    parse = pacsv.ParseOptions(delimiter=parse.delimiter, invalid_row_handler=first)
    try:
        with text_input(file) as src:
            pacsv.read_csv(src, parse_options=parse, read_options=pacsv.ReadOptions(use_threads=False))
    except Exception:  # noqa: BLE001 (what it says is in found)
        pass
    return _row_message(file, display, found[0]) if found else None


def _row_message(file: Path, display: str, row) -> str:
    """The message of pyarrow's invalid row ``row``: its line, its fields against the header's."""
    where = f"line {row.number}" if row.number is not None else "a line"
    hint = ""
    if row.text.count('"') % 2:
        hint = " (a quoted field is not closed)"
    elif data_suffix(file)[1] is None:
        with open(file, "rb") as f:  # the last line, without a line end: the file was cut short?
            f.seek(max(0, file.stat().st_size - len(row.text.encode()) - 1))
            tail = f.read()
        if tail.endswith(row.text.encode()) and not tail.endswith(b"\n"):
            hint = CUT
    return (f"{display}: {where}: {row.actual_columns} fields where the header has {row.expected_columns}: "
            f"{shown_text(row.text)}{hint}")


def rows_problem(file: Path, display: str) -> str | None:
    """The first row of a CSV/TSV file with the wrong number of fields, or its last
    row ending inside a quoted field never closed, in one streamed pass (pyarrow, one
    thread, the first column only kept, as text: the memory of one block): what the
    in-memory reader refuses and Spark's CSV reader reads without a word (it pads a
    short row with nulls and drops a long row's extra fields: a decimal comma shifts
    the score). None when every row is whole, or when the pass fails (the readers say why)."""
    import pyarrow as pa
    import pyarrow.csv as pacsv

    found = []

    def first(row):
        found.append(row)
        return "skip"

    try:
        read = csv_read_options(file)
        # the header read as a row (its fields are the columns): lines keep their numbers
        read.use_threads, read.autogenerate_column_names = False, True
        parse = pacsv.ParseOptions(delimiter=csv_parse(data_suffix(file)[0]).delimiter, invalid_row_handler=first)
        convert = pacsv.ConvertOptions(include_columns=["f0"], column_types={"f0": pa.string()})
        rows = -1  # (the header)
        with text_input(file) as src:
            for batch in pacsv.open_csv(src, parse_options=parse, read_options=read, convert_options=convert):
                if found:
                    break
                rows += batch.num_rows
    except Exception:  # noqa: BLE001 (the readers say what they cannot read)
        return None
    if found:
        return _row_message(file, display, found[0])
    last = open_quote_at_end(file) if data_suffix(file)[1] is None else None
    if last is not None:
        return (f"{display}: row {rows:,}, the last, ends inside a quoted field that is not closed: "
                f"{shown_text(last)}{CUT}")
    return None


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
                    + ("" if ended else CUT))
        if not isinstance(record, dict):
            return f"{display}: line {number} is not a JSON object ({shown_text(line.decode())})"
        for c in record:
            if record[c] is not None:
                kind = _json_kind(record[c])
                first = kinds.setdefault(c, (kind, number, record[c]))
                if first[0] != kind:
                    return (f"{display}: column '{c}': line {first[1]} holds {with_article(first[0])} "
                            f"({json.dumps(first[2])[:40]}), line {number} {with_article(kind)} "
                            f"({json.dumps(record[c])[:40]})")
    return None


def read_problem(file: Path, display: str, exc: Exception) -> str:
    """What a reader's failure means, by file, line and column where it can be found."""
    suffix = data_suffix(file)[0]
    found = None
    try:
        if isinstance(exc, UnicodeDecodeError) and suffix != ".npz":
            found = utf8_problem(file, display)
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


def open_quote_at_end(file: Path) -> str | None:
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


def separator_problem(display: str, file: Path, header: str, separator: str) -> str:
    suffix = data_suffix(file)[0]
    return (f"{display}: the header reads as one column {header!r}; the file looks separated by "
            f"{separator!r}, but {suffix} is read as {'tab' if suffix == '.tsv' else 'comma'}-separated "
            "(.csv: commas, .tsv: tabs)")


def other_separator(file: Path, names: list[str]) -> str | None:
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
