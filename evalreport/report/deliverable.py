"""What the PDF carries (``report.attach``) and its list of it, then the signature.

The PDF attaches, as PDF/A-3 associated files: results.json (AFRelationship
/Data), the spec (/Source, credentials redacted), with ``data`` the data the
measures were computed from (/Source; see :mod:`evalreport.attachments`), and
always :data:`~evalreport.attachments.MANIFEST` (/Supplement): every one of them
(and every file listed but not attached: a data file over ``report.attach_limit``,
results.json or the spec when ``attach`` leaves them out) with its sha256 and
size. ``evalreport verify`` checks each attachment against that list; each
attachment's description in the PDF's attachment panel says its sha256 too.
"""

from __future__ import annotations

import hashlib
import json

from .._version import __version__
from ..attachments import MANIFEST, RESULTS, data_bytes, spec_attachment_name

__all__ = ["pdf_attachments", "manifest_entries", "MANIFEST_FORMAT"]

#: the manifest's own version: what ``evalreport verify`` reads
MANIFEST_FORMAT = 1

_MIME = {".csv": "text/csv", ".tsv": "text/tab-separated-values", ".parquet": "application/vnd.apache.parquet",
         ".jsonl": "application/jsonl", ".npz": "application/octet-stream", ".json": "application/json",
         ".gz": "application/gzip", ".bz2": "application/x-bzip2", ".zst": "application/zstd",
         ".lz4": "application/octet-stream"}


def _mime(name: str) -> str:
    suffix = "." + name.rsplit(".", 1)[-1].lower() if "." in name else ""
    return _MIME.get(suffix, "application/octet-stream")


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def manifest_entries(result, results_json: bytes, spec_bytes: bytes | None) -> list[dict]:
    """The manifest's ``files``: results.json, the spec, then the data, each with its
    role, sha256, size and whether the PDF attaches it."""
    attach = result.spec.report.attach
    entries = [{"name": RESULTS, "role": "results", "sha256": _digest(results_json), "size": len(results_json),
                "attached": "results" in attach}]
    if spec_bytes is not None:
        entries.append({"name": spec_attachment_name(result.spec), "role": "spec", "sha256": _digest(spec_bytes),
                        "size": len(spec_bytes), "attached": "spec" in attach})
    for f in result.attached_data:
        entries.append({"role": "data", **f.as_dict()})
    return entries


def pdf_attachments(result, results_json: bytes, spec_bytes: bytes | None):
    """``(attachments, kinds)`` for :func:`.pdf.html_to_pdf`: name -> bytes, and
    name -> (MIME type, AFRelationship, description)."""
    entries = manifest_entries(result, results_json, spec_bytes)
    by_name = {f.name: f for f in result.attached_data}
    files, kinds = {}, {}
    for e in entries:
        if not e["attached"]:
            continue
        name = e["name"]
        if e["role"] == "results":
            files[name] = results_json
            kinds[name] = ("application/json", "Data", f"evaluation results; sha256 {e['sha256']}")
        elif e["role"] == "spec":
            files[name] = spec_bytes
            kinds[name] = ("application/yaml", "Source", f"evaluation spec; sha256 {e['sha256']}")
        else:
            files[name] = data_bytes(by_name[name])
            what = {"predictions": "predictions evaluated", "table": "in-memory table evaluated (Parquet)",
                    "count tables": "count tables the engine aggregated, the measures' exact input (Parquet)"}
            kinds[name] = (_mime(name), "Source", f"{what.get(e['what'], e['what'])}: {e['source']}; "
                           f"sha256 {e['sha256']}")
    manifest = {"evalreport_version": __version__, "manifest_format": MANIFEST_FORMAT, "files": entries}
    files[MANIFEST] = (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    kinds[MANIFEST] = ("application/json", "Supplement", "the list of what this PDF carries, with sha256 and size")
    return files, kinds
