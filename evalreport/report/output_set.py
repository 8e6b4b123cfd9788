"""The report set's files, and which files of a folder provably belong to an earlier set.

The set is the report files a run writes (:data:`SET_FILES`) and its manifest
(:data:`MANIFEST`: the set's files with their SHA-256). Only a report file that a
manifest lists, unchanged, is ever deleted as another set's (:func:`proved_files`);
what killed runs left behind (temporary files, staging folders, old sets) is
removed on that rule too (:func:`clean_leftovers`), anything else put back.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import stat
from pathlib import Path

from .._version import __version__
from .output_fs import error_text, move_no_replace

#: Every file a run may write into its output folder, by format.
SET_FILES = {"json": "results.json", "html": "report.html", "pdf": "report.pdf"}
#: The set's files and their SHA-256 (file mode: written last). Only a report file it
#: lists, unchanged, is ever deleted as another set's.
MANIFEST = ".evalreport-set.json"

PROBE = ".evalreport-probe-"
INNER_LOCK = ".evalreport.lock"  # the lock inside the folder, when its parent is read-only
REPORT_NAMES = frozenset(SET_FILES.values())
_OURS = REPORT_NAMES | {MANIFEST, INNER_LOCK}
# A temporary file of ours: .results.json.<random>.tmp (output_fs._temp_beside, and mkstemp in
# earlier versions), .evalreport-set.json.<random>.tmp, or a probe.
_TEMP = re.compile(
    r"\.(?:%s)\.[A-Za-z0-9_]+\.tmp\Z|%s[0-9a-f]+\Z"
    % ("|".join(re.escape(n.lstrip(".")) for n in sorted(_OURS - {INNER_LOCK})), re.escape(PROBE))
)


def is_ours(name: str) -> bool:
    return name in _OURS or _TEMP.match(name) is not None


def _staging_pattern(folder: str) -> re.Pattern:
    return re.compile(rf"\.{re.escape(folder)}\.evalreport-(?:new|old)-[0-9a-f]{{16}}\Z")


def manifest_bytes(files: dict[str, bytes]) -> bytes:
    manifest = {
        "evalreport_version": __version__,
        "files": {name: hashlib.sha256(data).hexdigest() for name, data in files.items()},
    }
    return (json.dumps(manifest, indent=2) + "\n").encode("utf-8")


# O_NONBLOCK: a named pipe under a report's name opens at once (and is then refused)
_READ_FLAGS = (os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
               | getattr(os, "O_CLOEXEC", 0))


def _open_regular(path: Path) -> int | None:
    """A descriptor for ``path`` if it is a regular file (not through a symbolic link), else None."""
    try:
        fd = os.open(path, _READ_FLAGS)
    except OSError:
        return None
    try:
        if stat.S_ISREG(os.fstat(fd).st_mode):
            return fd
    except OSError:
        pass
    os.close(fd)
    return None


def _sha256(path: Path) -> str | None:
    fd = _open_regular(path)
    if fd is None:
        return None
    digest = hashlib.sha256()
    try:
        with open(fd, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                digest.update(chunk)
    except OSError:
        return None
    return digest.hexdigest()


def manifest_files(folder: Path) -> dict[str, str]:
    """The report files the manifest in ``folder`` lists, with their SHA-256 ({} when
    there is none, or it cannot be read)."""
    fd = _open_regular(folder / MANIFEST)
    if fd is None:
        return {}
    try:
        with open(fd, "rb") as f:
            data = json.loads(f.read(1 << 20))
    except (OSError, ValueError):
        return {}
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, dict):
        return {}
    return {name: digest for name, digest in files.items()
            if name in REPORT_NAMES and isinstance(digest, str)}


def proved_files(folder: Path, listed: dict[str, str] | None = None) -> frozenset[str]:
    """The report files in ``folder`` that provably belong to an earlier set: its
    manifest lists them, and their SHA-256 still matches. Only these may go as stale."""
    if listed is None:
        listed = manifest_files(folder)
    return frozenset(name for name, digest in listed.items() if _sha256(folder / name) == digest)


def left_in_place(shown: Path, listed: dict[str, str]) -> str:
    why = f"changed since {MANIFEST} listed it" if shown.name in listed else f"not listed in {MANIFEST}"
    return f"{shown}: not written by this run and left in place ({why})"


def dispose(old: Path, home: Path | None, replaced: frozenset[str], notes: list[str]) -> bool:
    """Delete a staging folder or old set of ours: our temporary files and manifest go,
    and the report files that its manifest proves ours or whose names are in
    ``replaced`` (the set now in ``home`` took their place). Anything else (a user's
    file that was in the folder when it was swapped out, a report file carried over
    that a killed run left here) is moved back into ``home``, or kept with a note.
    True when the folder is gone."""
    try:
        entries = list(os.scandir(old))
    except OSError:
        return False
    proved = proved_files(old)
    for entry in entries:
        try:
            if entry.is_dir(follow_symlinks=False):
                ours = False
            elif entry.name in REPORT_NAMES:
                ours = entry.name in proved or entry.name in replaced
            else:
                ours = is_ours(entry.name)
            if ours:
                os.unlink(entry.path)
            elif home is not None:
                move_no_replace(Path(entry.path), home / entry.name)
        except OSError as exc:
            notes.append(f"kept {entry.path}: {error_text(exc)}")
    try:
        os.rmdir(old)
        return True
    except OSError:
        notes.append(f"kept {old}: it holds files that are not evalreport's")
        return False


def clean_leftovers(real: Path, beside: bool, notes: list[str]) -> None:
    """Remove what killed runs left: our temporary files in the folder, and (when the
    lock lies beside it) the staging folders and old sets next to it. Called under the
    lock, so none of them belongs to a live run. A report file in those replaced by
    the set now in the folder (proved by its manifest) goes too."""
    home = real if real.is_dir() else None
    if home is not None:
        with contextlib.suppress(OSError):
            for entry in os.scandir(real):
                if _TEMP.match(entry.name) and entry.is_file(follow_symlinks=False):
                    with contextlib.suppress(OSError):
                        os.unlink(entry.path)
    if beside:
        pattern = _staging_pattern(real.name)
        replaced = None  # read only when there are leftovers
        with contextlib.suppress(OSError):
            for entry in os.scandir(real.parent):
                if pattern.match(entry.name) and entry.is_dir(follow_symlinks=False):
                    if replaced is None:
                        replaced = proved_files(real) if home is not None else frozenset()
                    dispose(Path(entry.path), home, replaced, notes)
