"""The archive of a scheduled audit's runs (spec ``history: {dir, keep}``).

One folder per run, named by its report date, holding that run's results.json:
``<dir>/<date>/results.json``. What later runs compare with is all in that file
(the learners' ``auc_variance``, ``class_counts`` and ``score_summary``), so the
archive holds nothing else.

A rerun for the same date replaces its entry atomically: the new file is
written beside the old one under a temporary name and moved over it with
``os.replace`` (atomic within one file system), so a failure mid-write leaves the
previous entry whole. Then the oldest entries beyond ``keep`` are deleted.

Reading never raises on a bad entry: a results.json that cannot be read, or
holds a value of a shape the history cannot use (checked once, here, by
:mod:`.entry`), is skipped and said in :attr:`Runs.warnings`, naming the entry
and the key; the run goes on as if the entry were absent, so one damaged week
does not stop the audit.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
from pathlib import Path

from .entry import BadEntry, read_run

__all__ = ["RESULTS", "Runs", "fate", "store", "runs", "previous", "entry_sha256"]

#: the file each entry holds
RESULTS = "results.json"

# a run's folder name: the report date (or any plain name): no separators, no leading dot
_ENTRY = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.:+-]*")


class Runs(list):
    """The archived runs, ``[(date, results), ...]`` by date ascending, and
    ``warnings``: one sentence per entry skipped as unreadable."""

    def __init__(self, items=(), warnings=()):
        super().__init__(items)
        self.warnings = list(warnings)


def _entry_name(date: str) -> str:
    date = str(date)
    if not _ENTRY.fullmatch(date):
        raise ValueError(f"the run date {date!r} cannot name an archive folder (letters, digits, '-', '_', "
                         "'.', ':', '+' only, not starting with '.')")
    return date


def store(folder, date: str, results_bytes: bytes, *, keep: int) -> list[str]:
    """Write ``results_bytes`` as ``folder/<date>/results.json``, atomically
    (a rerun for the same date replaces that entry), then delete the oldest
    entries beyond ``keep``. Returns the dates deleted."""
    if int(keep) < 1:
        raise ValueError(f"keep must be at least 1 (got {keep!r})")
    folder = Path(folder)
    entry = folder / _entry_name(date)
    created = not entry.exists()
    entry.mkdir(parents=True, exist_ok=True)
    # the temporary file in the entry's own folder: os.replace is atomic only
    # within one file system, and a folder is never split across two
    fd, tmp = tempfile.mkstemp(prefix=f".{RESULTS}.", suffix=".tmp", dir=entry)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(results_bytes)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, entry / RESULTS)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        if created:  # a first write that failed leaves no empty entry behind
            try:
                entry.rmdir()
            except OSError:
                pass
        raise
    return _prune(folder, int(keep))


def _entries(folder: Path) -> list[str]:
    """The names of the entries (folders holding a results.json), ascending."""
    if not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir()
                  if p.is_dir() and _ENTRY.fullmatch(p.name) and (p / RESULTS).is_file())


def _prune(folder: Path, keep: int) -> list[str]:
    names = _entries(folder)
    old = names[:max(0, len(names) - keep)]
    for name in old:
        shutil.rmtree(folder / name)
    return old


def runs(folder) -> Runs:
    """The archived runs, ``[(date, results dict), ...]``, date ascending; an
    entry whose results.json cannot be read or is not a results.json object is
    skipped, with a sentence in the returned list's ``warnings`` (each begins
    with ``history:``)."""
    folder = Path(folder)
    out, warnings = [], []
    for name in _entries(folder):
        path = folder / name / RESULTS
        try:
            data = read_run(path)
        except OSError as e:
            warnings.append(f"history: {path} skipped: it cannot be read ({e.strerror or e})")
            continue
        except BadEntry as e:
            warnings.append(f"history: {path} skipped: {e.reason}")
            continue
        out.append((name, data))
    return Runs(out, warnings)


def previous(folder, date: str, archived: Runs | None = None) -> tuple[str, dict] | None:
    """The latest archived run strictly before ``date`` (None: there is none);
    ``archived``: the runs already read (:func:`runs`), else they are read."""
    earlier = [r for r in (runs(folder) if archived is None else archived) if r[0] < str(date)]
    return earlier[-1] if earlier else None


def entry_sha256(folder, name: str) -> str | None:
    """The sha256 of the entry ``name``'s results.json as archived (its bytes), or
    None when it cannot be read: what the next run records to chain the audits."""
    try:
        return hashlib.sha256((Path(folder) / name / RESULTS).read_bytes()).hexdigest()
    except OSError:
        return None


def fate(folder, date: str, keep: int) -> list[str]:
    """What storing a run of ``date`` will do beyond adding it, in sentences for the
    run's warnings: a same-date entry it replaces, and, when ``date`` is older than
    the ``keep`` newest entries (a backfill), that the run is not kept. Said before
    the run is stored (the warnings go into its results.json)."""
    folder = Path(folder)
    names = _entries(folder)
    said = []
    if date in names:
        said.append(f"history: the archive's entry for {date} ({folder / date}) is replaced by this run "
                    "(a second run on the same date)")
    after = sorted(set(names) | {date})
    if date in after[:max(0, len(after) - int(keep))]:
        said.append(f"history: this run ({date}) is older than the {keep} newest runs of the archive "
                    f"(history.keep: {keep}): it is compared with them but not kept")
    return said
