"""Data files as a spec names them: the formats read, the compressions each
engine reads, a name's format and compression suffixes, and what a path is
when it is not a regular file (said alike of the spec and of data files).
"""

from __future__ import annotations

import stat
from pathlib import Path

DATA_SUFFIXES = (".csv", ".tsv", ".parquet", ".jsonl", ".npz")
#: compressions the text formats (.csv, .tsv, .jsonl) may carry: pyarrow
#: decompresses them as it reads, chosen by this last suffix
COMPRESSED_SUFFIXES = (".gz", ".bz2", ".zst", ".lz4")
_TEXT_SUFFIXES = (".csv", ".tsv", ".jsonl")
#: the compressions each out-of-core engine reads (DuckDB's CSV reader; Spark's
#: Hadoop codecs without native libraries)
ENGINE_COMPRESSIONS = {"duckdb": (".gz", ".zst"), "spark": (".gz", ".bz2")}


def data_suffix(path) -> tuple[str, str | None]:
    """(format suffix, compression suffix or None) of a data file's name:
    ``preds.csv.gz`` -> ``(".csv", ".gz")``, ``preds.parquet`` -> ``(".parquet", None)``."""
    p = Path(str(path))
    last = p.suffix.lower()
    if last in COMPRESSED_SUFFIXES:
        inner = Path(p.stem).suffix.lower()
        if inner in _TEXT_SUFFIXES:
            return inner, last
    return last, None


def not_a_file(mode: int, what: str = "a file") -> str | None:
    """What a file of this ``st_mode`` is when it is not a regular file ("a
    folder, not a file"), None when it is one: the spec and the data files say
    it alike, and a FIFO is named before anything opens it (it would block)."""
    if stat.S_ISREG(mode):
        return None
    kind = ("a folder" if stat.S_ISDIR(mode) else "a named pipe (FIFO)" if stat.S_ISFIFO(mode)
            else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
            else "a socket" if stat.S_ISSOCK(mode) else "a special file")
    return f"{kind}, not {what}"
