"""The data a run attaches to its PDF (``report.attach: [..., data]``): what the
measures were computed from, each with its sha256 and size.

* a prediction file read in memory: the file itself, byte for byte (AFRelationship
  /Source), so that ``evalreport verify`` can rerun the evaluation from it;
* an in-memory table (``data[i].table``): the table written as Parquet;
* a source aggregated by an engine (DuckDB, Spark): not the raw data (which may be
  terabytes) but the count tables the engine handed the measures, as Parquet:
  their exact input.

A file larger than ``report.attach_limit`` is listed with its sha256 and size but
not attached, and a warning says so. Built once per run in the pipeline (which
holds the sources and the in-memory tables); results.json's ``attachments`` and
the PDF read it from the result.
"""

from __future__ import annotations

import hashlib
import io
import os
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

__all__ = ["DataFile", "data_files", "attachment_names", "data_bytes", "MANIFEST", "RESULTS",
           "spec_attachment_name"]

#: the PDF's list of what it carries: each attachment's name, role, sha256 and size
MANIFEST = "evalreport-attachments.json"
RESULTS = "results.json"


def spec_attachment_name(spec) -> str:
    """The spec's name in the PDF: its file's name (spec.yaml when built in Python)."""
    name = Path(spec.source).name
    return name if name and not name.startswith("<") else "spec.yaml"


@dataclass(frozen=True)
class DataFile:
    """One data attachment: its name in the PDF, what it is, its sha256 and size."""

    name: str  # the attachment's name in the PDF
    source: str  # the spec's name for it: the path as written, or table 'name'
    what: str  # "predictions" (the file), "table" (Parquet), "count tables" (Parquet)
    sha256: str
    size: int
    attached: bool  # False: over report.attach_limit, listed only
    #: the file's path relative to the spec's folder (POSIX), for a rerun to lay it out again
    relative: str | None = None
    path: Path | None = None  # the file to read at render time (predictions)
    data: bytes | None = None  # the bytes (a table or count tables, written here)

    def as_dict(self) -> dict:
        """results.json's ``attachments[i]``."""
        return {"name": self.name, "source": self.source, "what": self.what, "path": self.relative,
                "sha256": self.sha256, "size": self.size, "attached": self.attached}


def _parquet(table) -> bytes:
    import pyarrow.parquet as pq

    sink = io.BytesIO()
    # no statistics' timestamps, no created_by drift within one pyarrow: the same table
    # gives the same bytes
    pq.write_table(table, sink, compression="zstd")
    return sink.getvalue()


def _count_tables(source) -> bytes:
    """An engine source's count tables as one Parquet table: per learner (and group,
    or class one-vs-rest), each distinct threshold's cumulative positive and negative
    weight, thresholds descending (row 0: nothing predicted positive)."""
    import numpy as np
    import pyarrow as pa

    rows = {"learner": [], "part": [], "threshold": [], "tp": [], "fp": [], "n_rows": []}

    def add(learner, part, table):
        k = len(table.tp)
        rows["learner"] += [learner] * k
        rows["part"] += [part] * k
        rows["threshold"] += [None] + [float(t) for t in np.asarray(table.threshold)]
        rows["tp"] += [float(v) for v in np.asarray(table.tp)]
        rows["fp"] += [float(v) for v in np.asarray(table.fp)]
        rows["n_rows"] += [int(table.n_rows)] * k

    for learner, table in (source.tables or {}).items():
        add(learner, "all", table)
    for learner, groups in (source.group_tables or {}).items():
        for group, table in groups.items():
            add(learner, f"group {group}", table)
    for learner, counts in (source.mc_counts or {}).items():
        for j, table in enumerate(counts.tables):
            add(learner, f"class {j} vs rest", table)
    return _parquet(pa.table(rows))


def attachment_names(names: list[str]) -> list[str]:
    """Unique attachment names: a second ``predictions.csv`` becomes ``predictions-2.csv``."""
    seen: set[str] = set()
    out = []
    for name in names:
        stem, dot, suffix = name.partition(".")
        candidate, n = name, 1
        while candidate in seen:
            n += 1
            candidate = f"{stem}-{n}{dot}{suffix}"
        seen.add(candidate)
        out.append(candidate)
    return out


def _relative(spec, file: Path) -> str:
    try:
        return PurePosixPath(Path(os.path.relpath(file, spec.base_dir))).as_posix()
    except ValueError:  # another drive (Windows)
        return file.as_posix()


def data_files(spec, sources, tables=None) -> tuple[list[DataFile], list[str]]:
    """The data attachments of a run, and a warning for each one over the limit.
    Empty unless ``report.attach`` names ``data``."""
    if "data" not in spec.report.attach:
        return [], []
    limit = spec.report.attach_limit_bytes
    drafts = []  # (name, source, what, sha256, size, relative, path, data)
    for s in sources:
        src = spec.data[s.index]
        if s.engine != "memory":
            data = _count_tables(s)
            # a file or glob: its name; a table or SQL query (kind table, sql): the entry's number
            name = (f"data-{s.index + 1}" if src.kind in ("table", "sql")
                    else Path(src.path).name.split("*")[0].rstrip(".") or f"data-{s.index + 1}")
            drafts.append((f"{Path(name).stem}-{s.engine}-counts.parquet", src.path, "count tables",
                           hashlib.sha256(data).hexdigest(), len(data), None, None, data))
        elif s.file is None:  # an in-memory table
            from .data.tables import as_arrow

            data = _parquet(as_arrow(src.table, (tables or {})[src.table]))
            drafts.append((f"{src.table}.parquet", s.path, "table", hashlib.sha256(data).hexdigest(),
                           len(data), f"{src.table}.parquet", None, data))
        else:
            file = Path(s.file)
            if any(d[6] == file for d in drafts):  # two data entries reading one file: attached once
                continue
            drafts.append((file.name, s.path, "predictions", s.sha256_hex, file.stat().st_size,
                           _relative(spec, file), file, None))
    reserved = [RESULTS, MANIFEST, spec_attachment_name(spec)]  # a data file never takes their names
    names = attachment_names(reserved + [d[0] for d in drafts])[len(reserved):]
    files, warnings = [], []
    for name, (_, source, what, sha, size, relative, path, data) in zip(names, drafts):
        attached = size <= limit
        if not attached:
            warnings.append(f"report.attach: {source} ({size:,} bytes) is larger than report.attach_limit "
                            f"({spec.report.attach_limit}): listed in the PDF with its sha256, not attached")
        files.append(DataFile(name=name, source=source, what=what, sha256=sha, size=size, attached=attached,
                              relative=relative, path=path, data=data if attached else None))
    return files, warnings


def data_bytes(file: DataFile) -> bytes:
    """The bytes to attach; a prediction file is read now and must still be what was
    evaluated (its sha256 checked), or the PDF would carry other data than it measured."""
    if file.data is not None:
        return file.data
    data = file.path.read_bytes()
    if hashlib.sha256(data).hexdigest() != file.sha256:
        from .errors import DataError

        raise DataError([f"{file.source}: the file changed while it was evaluated; run again"])
    return data
