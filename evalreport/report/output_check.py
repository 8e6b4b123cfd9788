"""The check before a run: can the report be written into its folder?

Not a file, ``/dev/null``, a path under a file or a path with a NUL byte; a file is
created in the folder (or in the nearest folder that exists) and removed at once
(an unnamed O_TMPFILE where the file system has it), so a read-only file system or
a missing permission shows before the evaluation, as root too.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from pathlib import Path

from ..errors import OutputError
from .output_fs import UNSUPPORTED, error_text
from .output_set import PROBE


def _kind(mode: int) -> str:
    for test, kind in ((stat.S_ISREG, "a file"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a named pipe"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return "not a folder"


def _nearest_existing(path: Path) -> tuple[Path, os.stat_result | None]:
    """The path itself or its nearest ancestor that exists, with its stat (None for a
    dangling symbolic link)."""
    p = path
    while True:
        try:
            return p, os.stat(p)
        except (FileNotFoundError, NotADirectoryError):
            if os.path.islink(p):
                return p, None
            if p.parent == p:
                raise
            p = p.parent


def _probe(folder: Path) -> None:
    """Create an empty file in ``folder`` and remove it: what we will do there, as root
    too (a read-only file system, a missing permission). An unnamed O_TMPFILE where the
    file system has it: nothing to remove, the folder is not even touched."""
    flags = os.O_WRONLY | getattr(os, "O_CLOEXEC", 0)
    if hasattr(os, "O_TMPFILE"):
        try:
            os.close(os.open(folder, flags | os.O_TMPFILE, 0o600))
            return
        except OSError as exc:
            if exc.errno not in UNSUPPORTED | {errno.EISDIR}:  # EISDIR: a kernel without it
                raise
    probe = folder / f"{PROBE}{secrets.token_hex(8)}"
    os.close(os.open(probe, flags | os.O_CREAT | os.O_EXCL, 0o600))
    with contextlib.suppress(FileNotFoundError):  # a run cleaning up its leftovers took it
        os.unlink(probe)


def _locate(spec, text: str, key=("report", "out")) -> str:
    if spec is None:
        return text
    from ..spec import locate

    return locate(spec, key, text)


def output_path(out=None, spec=None) -> Path:
    """``out``, or else the spec's ``report.out`` (relative to the spec's folder)."""
    if out is not None:
        return _real(Path(out))
    if spec is None:
        raise TypeError("output_path needs out or spec")
    return _real(spec.resolve(spec.report.out))


def _real(path: Path) -> Path:
    """A path with '..' in it as the folder it names: ``x/../y`` is ``y``, and the
    report says so (it wrote into y/ and printed x/../y, creating x/ on the way,
    issue 36). Symbolic links are followed as the system follows them."""
    if ".." not in path.parts:
        return path
    try:
        return path.resolve()
    except (OSError, RuntimeError, ValueError):  # a loop of links, a NUL byte: check_output tells it
        return path


def check_output(out=None, spec=None) -> Path:
    """Check that the report can be written into folder ``out`` (default: ``spec``'s
    ``report.out``, and then the messages give the spec's line) and return its path.

    Call it before evaluating: it raises :class:`OutputError` when ``out`` or one of its
    ancestors is a file or a device, or when a file cannot be created in the folder (or,
    when it does not exist yet, in its nearest existing ancestor). Nothing is left
    behind: the probe file is removed, and no folder is created.
    """
    path = output_path(out, spec)
    _check_folder(path, spec if out is None else None)  # the messages give the spec's line for report.out only
    return path


def check_history(spec, date: str):
    """With ``history:`` in the spec, check before evaluating that the run can be
    stored in the archive (``history.dir``, and the entry of the run's date if it
    exists: it is replaced; ``date``: the run's, pipeline.report_date), as :func:`check_output` checks the report's folder,
    so that exit status 2 means nothing was written. Returns the archive's path
    (None without ``history:``); raises :class:`OutputError` naming ``history.dir``."""
    options = getattr(spec, "history", None)
    if options is None:
        return None
    folder = spec.resolve(options.dir)
    _check_folder(folder, spec, ("history", "dir"))
    entry = folder / date
    if os.path.lexists(entry):
        _check_folder(entry, spec, ("history", "dir"))
    return folder


def _check_folder(path: Path, spec, key=("report", "out")) -> None:
    try:
        where, st = _nearest_existing(path)
    except ValueError as exc:  # no system call takes a NUL byte; a name the file system cannot encode
        why = "it holds a NUL byte" if "\0" in str(path) else str(exc)
        shown = str(path).replace("\0", "\\0")  # as YAML writes it, not a raw NUL on the terminal
        raise OutputError([_locate(spec, key=key, text=f"{shown}: not a valid path: {why}")]) from None
    except OSError as exc:
        raise OutputError([_locate(spec, key=key,
                                   text=f"{path}: cannot reach the output folder: {error_text(exc)}")]) from None
    if st is None:
        problem = "is a symbolic link to nothing" if where == path else (
            f"cannot create the folder: {where} is a symbolic link to nothing")
        raise OutputError([_locate(spec, key=key, text=f"{path}: {problem}")])
    if not stat.S_ISDIR(st.st_mode):
        problem = (f"is {_kind(st.st_mode)}, not a folder" if where == path else
                   f"cannot create the folder: {where} is {_kind(st.st_mode)}, not a folder")
        raise OutputError([_locate(spec, key=key, text=f"{path}: {problem}")])
    try:
        _probe(where)
    except OSError as exc:
        problem = (f"cannot write in this folder: {error_text(exc)}" if where == path else
                   f"cannot create the folder in {where}: {error_text(exc)}")
        raise OutputError([_locate(spec, key=key, text=f"{path}: {problem}")]) from None
