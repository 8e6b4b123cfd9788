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


#: the longest header line read: pyarrow parses blocks of 1 MiB by default and calls a
#: header longer than a block an "Empty CSV file or block" (issue 36); the block grows
#: to hold the header, up to this
MAX_HEADER_BYTES = 64 * 2**20


def csv_read_options(file: Path):
    """pyarrow's ReadOptions for a CSV/TSV file: blocks that hold its header line
    whole (four times its length, at least pyarrow's 1 MiB). ValueError for a
    header longer than :data:`MAX_HEADER_BYTES`."""
    import pyarrow as pa
    import pyarrow.csv as pacsv

    compression = data_suffix(file)[1]
    length = 0
    with pa.input_stream(str(file), compression=CODECS.get(compression)) as stream:
        while length <= MAX_HEADER_BYTES:
            piece = stream.read(1 << 20)
            end = piece.find(b"\n")
            if end >= 0 or not piece:
                length += end if end >= 0 else 0
                break
            length += len(piece)
    if length > MAX_HEADER_BYTES:
        raise ValueError(f"the header line is longer than {MAX_HEADER_BYTES // 2**20} MiB (a file of that "
                         "many column names is not a prediction file)")
    return pacsv.ReadOptions(block_size=max(1 << 20, 4 * length + 1))


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

        return list(pq.read_schema(file).names)
    if suffix == ".jsonl":
        import pyarrow.json as pajson

        with text_input(file) as src:
            return list(pajson.read_json(src).schema.names)
    if suffix == ".npz":
        import numpy as np

        if not zipfile.is_zipfile(file):  # (np.load would leave the file open)
            raise ValueError("not a zip archive")
        with np.load(file, allow_pickle=False) as z:
            return list(z.files)
    raise ValueError(f"unsupported file type {suffix}")
