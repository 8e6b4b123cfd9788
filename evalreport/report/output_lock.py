"""The lock that makes runs into one folder take turns.

An exclusive ``flock`` on ``.<name>.evalreport.lock`` beside the folder (the folder
itself is swapped), or inside it when its parent cannot be written. It is held only
while the rendered bytes are written and swapped in; a run that cannot get it within
:data:`LOCK_TIMEOUT` seconds fails with an :class:`OutputError` naming the lock file.
The lock dies with its holder, and the file goes when it is released.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path

from ..errors import OutputError
from .output_fs import error_text
from .output_set import INNER_LOCK

try:  # POSIX; elsewhere runs into one folder are not serialised
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None

#: Seconds to wait for another run writing into the same folder (it holds the lock
#: only while its set is written and swapped in, normally well under a second).
LOCK_TIMEOUT = 60.0


def _lock_name(folder: str) -> str:
    return f".{folder}.evalreport.lock"


def lock_path(real: Path) -> tuple[Path, bool]:
    """The lock file for folder ``real``, and whether it lies beside it (the parent can
    be written, so the folder may be swapped) or inside it."""
    parent = real.parent
    if parent != real and os.access(parent, os.W_OK | os.X_OK):
        return parent / _lock_name(real.name), True
    return real / INNER_LOCK, False


@contextlib.contextmanager
def locked(path: Path, shown: Path, progress) -> Iterator[None]:
    """Hold an exclusive ``flock`` on ``path``, waiting up to LOCK_TIMEOUT seconds.

    The file is removed when released, so no lock file stays behind: a waiter that got
    the lock on a file removed meanwhile sees that the path now names another file (or
    none) and tries again.
    """
    if fcntl is None:  # pragma: no cover
        yield
        return
    deadline = time.monotonic() + LOCK_TIMEOUT
    told = False
    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o666)
        except OSError as exc:
            raise OutputError([f"{shown}: cannot create the lock file {path}: {error_text(exc)}"]) from None
        try:
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        raise OutputError([
                            f"{shown}: another evalreport run has been writing here for over "
                            f"{LOCK_TIMEOUT:g} s (it holds the lock {path}); try again when it is done"
                        ]) from None
                    if not told and progress is not None:
                        progress(f"waiting for another run writing to {shown}")
                        told = True
                    time.sleep(0.05)
            try:
                same = os.path.samestat(os.stat(path), os.fstat(fd))
            except FileNotFoundError:
                same = False
            if same:
                break
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)  # the holder before us removed that file: lock the one there now
    try:
        yield
    finally:
        try:
            os.unlink(path)
        except OSError:
            pass
        os.close(fd)
