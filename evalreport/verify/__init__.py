"""``evalreport verify``: a report checks itself, years later (see docs/verify.md).

For a PDF: every attachment's sha256 against the PDF's list of them
(``evalreport-attachments.json``); each signature (intact, who signed, anything
appended after it, trusted by ``--trust``); with the data attached (or found by
sha256 in ``--data DIR``), the evaluation rerun from the attached spec and every
value of the attached results.json compared; with ``--history DIR``, the chain of
audits walked. For an HTML report: the sha256 of results.json it records, against
the results.json beside it. Nothing is written next to the report.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..attachments import MANIFEST, RESULTS
from .pdf_read import Unreadable, quiet_pyhanko, read_pdf

__all__ = ["Verification", "verify", "Unreadable", "EXIT_FAILED"]

#: the command line's exit status when something does not check
EXIT_FAILED = 4


@dataclass
class Verification:
    """What verify found: one entry per check (``ok``: True, False, or None for a
    check that could not be made and is said why), and the rerun's differences."""

    file: str | None
    checks: list[dict] = field(default_factory=list)
    differences: list[str] = field(default_factory=list)
    reproduced: int | None = None

    def add(self, check: str, ok: bool | None, text: str) -> None:
        self.checks.append({"check": check, "ok": ok, "text": text})

    @property
    def ok(self) -> bool:
        return all(c["ok"] is not False for c in self.checks)

    def to_dict(self) -> dict:
        return {"file": self.file, "ok": self.ok, "checks": self.checks, "reproduced": self.reproduced,
                "differences": self.differences}


def _check_attachments(v: Verification, read) -> bool:
    if read.manifest is None:
        v.add("attachments", False, read.manifest_problem)
        return False
    bad, good, listed_only = [], [], []
    listed = set()
    for e in read.manifest["files"]:
        name = e.get("name")
        listed.add(name)
        if not e.get("attached"):
            listed_only.append(name)
            continue
        data = read.files.get(name)
        if data is None:
            bad.append(f"{name} is listed but not attached")
        elif hashlib.sha256(data).hexdigest() != e.get("sha256"):
            bad.append(f"{name} does not match the PDF's list: its sha256 is {hashlib.sha256(data).hexdigest()}, "
                       f"the list records {e.get('sha256')}")
        elif len(data) != e.get("size"):
            bad.append(f"{name}: {len(data)} bytes, the list records {e.get('size')}")
        else:
            good.append(name)
    bad += [f"{name} is attached but not in the PDF's list" for name in read.files
            if name not in listed and name != MANIFEST]
    if bad:
        v.add("attachments", False, "; ".join(bad))
        return False
    text = f"{len(good)} attachment(s) match their sha256 in the PDF's list ({', '.join(good)})"
    if listed_only:
        text += f"; listed with their sha256, not attached: {', '.join(listed_only)}"
    v.add("attachments", True, text)
    return True


def _verify_pdf(v: Verification, path, trust, data_dir, history_dir) -> None:
    from .signature import check_signatures, load_trust

    read = read_pdf(path)
    hashes_ok = _check_attachments(v, read)
    trusted = load_trust(trust)
    signatures = check_signatures(read.reader, trusted)
    for s in signatures:
        v.add("signature", s.ok, s.text)
    if not signatures:
        v.add("signature", False if trust else None,
              "not signed" + (": --trust asks for a signature" if trust else " (report.sign signs it)"))
    results_raw = read.files.get(RESULTS)
    results = None
    if results_raw is not None:
        try:
            results = json.loads(results_raw)
        except ValueError as exc:
            v.add("results", False, f"{RESULTS} cannot be read: {exc}")
    if results is None:
        v.add("rerun", None, f"not rerun: {RESULTS} is not attached")
    elif not hashes_ok:
        v.add("rerun", None, "not rerun: the attachments do not match the PDF's list")
    else:
        from .rerun import rerun

        outcome = rerun(read.files, read.manifest, results, data_dir=data_dir, history_dir=history_dir)
        if not outcome.ran:
            v.add("rerun", None, f"not rerun: {outcome.why_not}")
        else:
            v.reproduced, v.differences = outcome.reproduced, outcome.differences
            if outcome.differences:
                v.add("rerun", False, f"{len(outcome.differences)} value(s) do not reproduce "
                      f"({outcome.reproduced} do)")
            else:
                v.add("rerun", True, f"verified: {outcome.reproduced} values reproduce")
            for note in outcome.notes:
                v.add("rerun", None, note)
    if history_dir is not None:
        _add_chain(v, history_dir, (results.get("date"), results_raw) if isinstance(results, dict) else None)


def _add_chain(v: Verification, folder, report) -> None:
    from .chain import walk_chain

    problems, notes = walk_chain(folder, report)
    for p in problems:
        v.add("history", False, p)
    for n in notes:  # the chain's summary holds when nothing broke it; the rest are notes
        v.add("history", True if (not problems and n.startswith("chain of audits")) else None, n)


_META = re.compile(r'<meta name="evalreport-results-sha256" content="([0-9a-f]{64})">')


def _verify_html(v: Verification, path: Path, history_dir) -> None:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise Unreadable([f"{path}: cannot read: {exc}"]) from None
    match = _META.search(text)
    if match is None:
        v.add("html", False, "the HTML records no sha256 of results.json (meta evalreport-results-sha256)")
        return
    recorded = match.group(1)
    beside = path.parent / RESULTS
    if not beside.is_file():
        v.add("html", None, f"records results.json's sha256 {recorded}; no {RESULTS} beside it to compare")
    else:
        digest = hashlib.sha256(beside.read_bytes()).hexdigest()
        if digest == recorded:
            v.add("html", True, f"{beside} matches the sha256 the HTML records ({recorded})")
        else:
            v.add("html", False, f"{beside} does not match: its sha256 is {digest}, the HTML records {recorded}")
    if history_dir is not None:
        _add_chain(v, history_dir, None)


def verify(path=None, *, trust=(), data_dir=None, history_dir=None) -> Verification:
    """Verify the report at ``path`` (a PDF or an HTML report) and/or the archive
    ``history_dir``. Raises :class:`Unreadable` (exit status 2) for a file that
    cannot be read as either."""
    v = Verification(file=None if path is None else str(path))
    for folder, option in ((data_dir, "--data"), (history_dir, "--history")):
        if folder is not None and not Path(folder).is_dir():
            raise Unreadable([f"{option} {folder}: no such folder"])
    if path is None:
        _add_chain(v, history_dir, None)
        return v
    path = Path(path)
    if not path.is_file():
        raise Unreadable([f"{path}: no such file"])
    with open(path, "rb") as f:
        head = f.read(1024)
    if head.startswith(b"%PDF-"):
        with quiet_pyhanko():
            _verify_pdf(v, path, trust, data_dir, history_dir)
    elif b"<html" in head.lower() or head.lstrip().lower().startswith(b"<!doctype html"):
        _verify_html(v, path, history_dir)
    else:
        raise Unreadable([f"{path}: neither a PDF nor an HTML report"])
    return v
