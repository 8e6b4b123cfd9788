"""Rerunning the evaluation a PDF records, from what it carries: the attached spec
and data (or the data found by sha256 in ``--data DIR``), in a temporary folder
that is removed afterwards; then every value of the attached results.json compared
with the rerun's (:mod:`.compare`). Nothing is written next to the report.

The files are laid out in the temporary folder as they lay around the spec (each
data file's path relative to the spec's folder is recorded); the report's date is
the run's (``SOURCE_DATE_EPOCH``, for a spec without ``date``). A spec with
``history:`` reruns against the runs of ``--history DIR`` before the report's date
(copied into the temporary folder), or is not rerun without it. The spec's
``report.sign`` is left out: the rerun writes no PDF.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import json
import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

__all__ = ["Rerun", "rerun"]


@dataclass
class Rerun:
    ran: bool
    why_not: str | None = None  # not rerun: why (not a failure: the hashes were still checked)
    reproduced: int = 0
    differences: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _find_by_sha256(folder: Path, size: int, digest: str) -> bytes | None:
    """A file under ``folder`` of this size and sha256 (sizes compared first: cheap)."""
    for root, _, names in os.walk(folder):
        for name in names:
            path = Path(root) / name
            try:
                if path.stat().st_size != size:
                    continue
                data = path.read_bytes()
            except OSError:
                continue
            if hashlib.sha256(data).hexdigest() == digest:
                return data
    return None


@contextlib.contextmanager
def _epoch(date: str | None):
    saved = os.environ.get("SOURCE_DATE_EPOCH")
    if date:
        day = dt.date.fromisoformat(date)
        os.environ["SOURCE_DATE_EPOCH"] = str(int(dt.datetime(day.year, day.month, day.day,
                                                                tzinfo=dt.timezone.utc).timestamp()))
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("SOURCE_DATE_EPOCH", None)
        else:
            os.environ["SOURCE_DATE_EPOCH"] = saved


def _safe_relative(path: str | None) -> PurePosixPath | None:
    if not path:
        return None
    p = PurePosixPath(path)
    return None if p.is_absolute() or ":" in p.parts[0] else p


def rerun(files: dict[str, bytes], manifest: dict, results: dict, *, data_dir=None, history_dir=None) -> Rerun:
    """Rerun the evaluation the PDF records (see the module's text)."""
    import yaml

    entries = manifest.get("files", [])
    spec_entry = next((e for e in entries if e.get("role") == "spec"), None)
    if spec_entry is None or spec_entry.get("name") not in files:
        return Rerun(False, "the spec is not attached (report.attach: [results, spec, data])")
    data_entries = [e for e in entries if e.get("role") == "data"]
    if not data_entries:
        return Rerun(False, "the data is not attached (report.attach: [results, spec, data] attaches it)")
    engines = [e for e in data_entries if e.get("what") == "count tables"]
    if engines:
        return Rerun(False, f"the data of {engines[0].get('source')} is attached as the count tables an engine "
                     "aggregated (the measures' exact input): rerunning from them is not supported; the hashes "
                     "are checked")
    spec_dict = yaml.safe_load(files[spec_entry["name"]])
    if not isinstance(spec_dict, dict):
        return Rerun(False, "the attached spec is not a mapping")
    report = spec_dict.get("report")
    if isinstance(report, dict):
        report.pop("sign", None)  # no PDF is written; its key is not here (and need not be)
    history = spec_dict.get("history")
    if history is not None and history_dir is None:
        return Rerun(False, "the spec has history: give --history DIR (the archive) to rerun it")
    found: dict[str, bytes] = {}
    for e in data_entries:
        data = files.get(e["name"]) if e.get("attached") else None
        if data is None and data_dir is not None:
            data = _find_by_sha256(Path(data_dir), int(e.get("size") or 0), e.get("sha256", ""))
        if data is None:
            where = f" nor found by its sha256 in {data_dir}" if data_dir is not None else \
                " (give --data DIR: a folder holding it)"
            return Rerun(False, f"{e.get('source')} is not attached{where}")
        found[e["name"]] = data
    with tempfile.TemporaryDirectory(prefix="evalreport-verify-") as tmp:
        return _run_in(Path(tmp), spec_dict, spec_entry, data_entries, found, results, history_dir)


def _run_in(tmp: Path, spec_dict, spec_entry, data_entries, found, results, history_dir) -> Rerun:
    from ..report import json_text
    from ..spec import load_spec

    relatives = [_safe_relative(e.get("path")) for e in data_entries]
    depth = max([sum(1 for part in r.parts if part == "..") for r in relatives if r is not None] + [0])
    spec_dir = tmp.joinpath("spec", *(["d"] * depth))
    spec_dir.mkdir(parents=True)
    tables = {}
    rewritten: dict[str, str] = {}  # the laid-out copy's path -> the absolute path the spec gave
    for e, rel in zip(data_entries, relatives):
        if e.get("what") == "table":
            import io

            import pyarrow.parquet as pq

            named = re.fullmatch(r"table '(.*)'", str(e.get("source")))  # the spec's table name
            tables[named.group(1) if named else Path(e["name"]).stem] = pq.read_table(io.BytesIO(found[e["name"]]))
            continue
        if rel is None:
            return Rerun(False, f"{e.get('source')}: its recorded path cannot be laid out again")
        target = (spec_dir / Path(*rel.parts)).resolve()
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(found[e["name"]])
        for src in spec_dict.get("data") or []:  # an absolute path in the spec: the laid-out copy
            if isinstance(src, dict) and src.get("path") == e.get("source") and Path(str(src["path"])).is_absolute():
                src["path"] = str(target)
                rewritten[str(target)] = e["source"]
    if spec_dict.get("history") is not None:
        archive = spec_dir / "verify-history"
        archive.mkdir()
        before = results.get("date") or ""
        for entry in sorted(Path(history_dir).iterdir()) if Path(history_dir).is_dir() else []:
            if entry.is_dir() and entry.name < before and (entry / "results.json").is_file():
                shutil.copytree(entry, archive / entry.name)
        spec_dict["history"] = {**spec_dict["history"], "dir": "verify-history"}
    spec = load_spec(spec_dict, base_dir=spec_dir)
    with _epoch(results.get("date")):
        from ..pipeline import evaluate

        result = evaluate(spec, data=tables or None)
        text = json_text(result)  # (the figures' warnings are the report's, not results.json's)
    for copy, given in rewritten.items():  # results.json names the data as the spec gave it
        text = text.replace(json.dumps(copy)[1:-1], json.dumps(given)[1:-1])
    rerun_json = json.loads(text)
    from ..redact import REDACTED_SPEC_WARNING
    from .compare import compare_values

    # the spec attached was redacted: rerun from it, the run has nothing left to redact,
    # so that warning is the report's alone (the rest of the warnings are compared)
    recorded_warnings = results.get("warnings") if isinstance(results, dict) else None
    if isinstance(recorded_warnings, list) and isinstance(rerun_json.get("warnings"), list):
        said = [w for w in recorded_warnings if isinstance(w, str) and w.startswith(REDACTED_SPEC_WARNING)]
        if said and not any(str(w).startswith(REDACTED_SPEC_WARNING) for w in rerun_json["warnings"]):
            results = {**results, "warnings": [w for w in recorded_warnings if w not in said]}

    new: list[str] = []
    same, diffs = compare_values(results, rerun_json, new)
    notes = [f"{len(new)} value(s) this release computes are not in the report (not compared): "
             f"{', '.join(new[:6])}{', ...' if len(new) > 6 else ''}"] if new else []
    return Rerun(True, reproduced=same, differences=diffs, notes=notes)
