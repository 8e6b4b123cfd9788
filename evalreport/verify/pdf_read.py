"""Reading a report's PDF for ``evalreport verify``: its embedded files and its list
of them (the manifest), with pyHanko's PDF reader (which reads the latest revision
of a file with incremental updates, as a viewer shows it)."""

from __future__ import annotations

import contextlib
import io
import json
import logging
from dataclasses import dataclass, field

from ..attachments import MANIFEST
from ..errors import EvalReportError

__all__ = ["Unreadable", "ReadPdf", "read_pdf", "quiet_pyhanko"]


class Unreadable(EvalReportError):
    """The file given to verify cannot be read as a report (not a PDF, damaged). Exit status 2."""

    exit_status = 2


@dataclass
class ReadPdf:
    """What verify needs of a PDF: its bytes, its attachments, its list of them."""

    data: bytes
    reader: object  # pyhanko.pdf_utils.reader.PdfFileReader
    files: dict[str, bytes] = field(default_factory=dict)
    manifest: dict | None = None
    manifest_problem: str | None = None


@contextlib.contextmanager
def quiet_pyhanko():
    """pyHanko logs its failures with tracebacks; ours say what is wrong. Its loggers'
    levels are put back afterwards."""
    loggers = [logging.getLogger(n) for n in ("pyhanko", "pyhanko_certvalidator")]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for lg, level in zip(loggers, levels):
            lg.setLevel(level)


def _name_tree(node, out: dict) -> None:
    node = node.get_object()
    names = node.get("/Names")
    if names is not None:
        for k in range(0, len(names) - 1, 2):
            out[str(names[k])] = names[k + 1].get_object()
    for kid in node.get("/Kids") or []:
        _name_tree(kid, out)


def read_pdf(path) -> ReadPdf:
    """The PDF at ``path`` and its embedded files (name -> bytes); an Unreadable error
    when it is not a PDF that can be read."""
    from pyhanko.pdf_utils.misc import PdfError
    from pyhanko.pdf_utils.reader import PdfFileReader

    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise Unreadable([f"{path}: cannot read: {exc.strerror or exc}"]) from None
    if not data.startswith(b"%PDF-"):
        raise Unreadable([f"{path}: not a PDF (it does not start with %PDF-)"])
    try:
        reader = PdfFileReader(io.BytesIO(data), strict=False)
        root = reader.root
        tree = root.get("/Names", {}).get("/EmbeddedFiles") if "/Names" in root else None
        specs: dict = {}
        if tree is not None:
            _name_tree(tree, specs)
        files = {}
        for name, spec in specs.items():
            shown = str(spec.get("/UF", spec.get("/F", name)))
            files[shown] = spec["/EF"]["/F"].get_object().data
    except (PdfError, KeyError, ValueError, TypeError, AttributeError) as exc:
        raise Unreadable([f"{path}: cannot read the PDF: {type(exc).__name__}: {exc}"]) from None
    read = ReadPdf(data=data, reader=reader, files=files)
    raw = files.get(MANIFEST)
    if raw is None:
        read.manifest_problem = (f"the PDF carries no {MANIFEST} (the list of its attachments with their "
                                 "sha256): it was not written by an evalreport that records one")
    else:
        try:
            manifest = json.loads(raw)
            if not isinstance(manifest, dict) or not isinstance(manifest.get("files"), list):
                raise ValueError("no list of files")
            read.manifest = manifest
        except ValueError as exc:
            read.manifest_problem = f"{MANIFEST} cannot be read: {exc}"
    return read
