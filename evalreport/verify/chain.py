"""The chain of audits (``evalreport verify --history DIR``): each archived run
records the sha256 of the previous run's results.json (``history.previous_sha256``)
and its date (``history.previous.date``). Walking the archive by date, each link
must name the run just before it, by that run's bytes: a run removed, a run
altered or a run put in out of order breaks a link, and is named."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

__all__ = ["walk_chain"]

_ENTRY = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.:+-]*")


def _runs(folder: Path) -> list[tuple[str, bytes | None]]:
    if not folder.is_dir():
        return []
    out = []
    for p in sorted(folder.iterdir()):
        if p.is_dir() and _ENTRY.fullmatch(p.name) and (p / "results.json").is_file():
            try:
                out.append((p.name, (p / "results.json").read_bytes()))
            except OSError:
                out.append((p.name, None))
    return out


def _link(data: dict) -> tuple[bool, str | None, str | None]:
    """(whether the run records the chain at all, the previous run's date, its sha256)."""
    history = data.get("history") if isinstance(data.get("history"), dict) else {}
    previous = history.get("previous") if isinstance(history.get("previous"), dict) else {}
    return "previous_sha256" in history, previous.get("date"), history.get("previous_sha256")


def walk_chain(folder, report: tuple[str, bytes] | None = None) -> tuple[list[str], list[str]]:
    """(problems, notes) of the archive ``folder``; ``report``: the (date, results.json
    bytes) of a report being verified, which must be the archive's run of its date."""
    folder = Path(folder)
    runs = _runs(folder)
    problems, notes = [], []
    if not runs:
        return [f"{folder}: no archived run (no <date>/results.json)"], notes
    names = [n for n, _ in runs]
    digests = {n: hashlib.sha256(b).hexdigest() for n, b in runs if b is not None}
    for i, (name, raw) in enumerate(runs):
        try:
            data = json.loads(raw)
            if not isinstance(data, dict):
                raise ValueError("not an object")
        except (TypeError, ValueError):
            problems.append(f"run {name}: its results.json cannot be read")
            continue
        if data.get("date") != name:
            problems.append(f"run {name}: out of order: its results.json is the run of {data.get('date')}")
        chained, prev_date, prev_sha = _link(data)
        if not chained:
            notes.append(f"run {name}: records no previous run's sha256 (made before the chain was recorded)")
            continue
        earlier = names[:i]
        if prev_date is None:
            if earlier:
                problems.append(f"run {name}: out of order: it records no previous run, yet {earlier[-1]} "
                                "is archived before it")
            continue
        if prev_date >= name:
            problems.append(f"run {name}: out of order: its previous run is dated {prev_date}")
        elif not earlier:
            notes.append(f"the chain starts at {name} (its previous run, {prev_date}, is no longer kept)")
        elif prev_date != earlier[-1]:
            if prev_date in earlier:
                problems.append(f"run {earlier[-1]}: out of order: run {name} was made after {prev_date}, "
                                f"so {earlier[-1]} was put in the archive afterwards")
            else:
                problems.append(f"run {prev_date} is missing: run {name} was made after it")
        elif prev_sha != digests.get(prev_date):
            problems.append(f"run {prev_date} was altered: its results.json's sha256 is {digests.get(prev_date)}, "
                            f"run {name} recorded {prev_sha}")
    if report is not None:
        date, raw = report
        digest = hashlib.sha256(raw).hexdigest()
        if date not in digests:
            problems.append(f"run {date} (this report's) is missing from the archive")
        elif digests[date] != digest:
            problems.append(f"run {date} was altered: its results.json's sha256 is {digests[date]}, the "
                            f"report's is {digest}")
    if not problems:
        notes.append(f"chain of audits: {len(runs)} run(s), {names[0]} to {names[-1]}, each linked to the one "
                     "before it")
    return problems, notes
