"""The file-system steps of writing a report set, each one that cannot be cut short.

SIGINT and SIGTERM held back for a few calls (:func:`signals_held`); a file
created with its data on disk, every failure surfacing (:func:`write_new`); a
rename made durable (:func:`fsync_dir`); two paths swapped in one step, or a
rename that never replaces (Linux ``renameat2``: :func:`exchange`,
:func:`move_no_replace`).
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import secrets
import signal
import threading
from collections.abc import Iterator
from pathlib import Path


def error_text(exc: OSError) -> str:
    return exc.strerror or str(exc)


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Hold SIGINT and SIGTERM back for a few file-system calls that must run to the end.

    A signal that arrives meanwhile is recorded and raised again when they are done, to
    the handler there was before. (Blocking the signals with pthread_sigmask would not
    do: another thread, a worker of a pool, receives the signal, and Python runs the
    handler in the main thread all the same.) Only the main thread runs Python's signal
    handlers, and only it may change them: elsewhere this does nothing, and needs not.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pending: list[int] = []
    saved = {}
    try:
        for signum in (signal.SIGINT, signal.SIGTERM):
            if signal.getsignal(signum) not in (signal.SIG_IGN, None):  # None: not Python's
                saved[signum] = signal.signal(signum, lambda s, frame: pending.append(s))
        yield
    finally:
        for signum, handler in saved.items():
            signal.signal(signum, handler)
        for signum in dict.fromkeys(pending):
            signal.raise_signal(signum)  # its handler runs now (SIGTERM's default: exit)


def fsync_dir(path: Path) -> None:
    """Make a rename in ``path`` durable; some file systems cannot, which is fine."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_new(path: Path, data: bytes) -> None:
    """Create ``path`` (it must not exist) with the usual permissions and ``data``, on disk.

    ``os.write`` in a loop rather than a buffered file: every failure (ENOSPC, EIO, a
    short write) surfaces here as an OSError, and ``close`` is checked too (NFS reports
    a full disk there).
    """
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        raise
    os.close(fd)


def temp_beside(path: Path) -> Path:
    return path.with_name(f".{path.name.lstrip('.')}.{secrets.token_hex(8)}.tmp")


_LIBC = None


def _renameat2():
    """libc's renameat2, or None (not Linux, an old libc, no ctypes)."""
    global _LIBC
    if _LIBC is None:
        try:
            func = ctypes.CDLL(None, use_errno=True).renameat2
            func.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
            func.restype = ctypes.c_int
            _LIBC = func
        except (AttributeError, OSError, TypeError):
            _LIBC = False
    return _LIBC or None


_AT_FDCWD = -100
_RENAME_NOREPLACE, _RENAME_EXCHANGE = 1, 2
# errno values that mean "this system or file system cannot exchange"
UNSUPPORTED = {errno.ENOSYS, errno.EINVAL, getattr(errno, "ENOTSUP", -1), getattr(errno, "EOPNOTSUPP", -1)}


def _rename2(src: Path, dst: Path, flags: int) -> None:
    func = _renameat2()
    if func is None:
        raise OSError(errno.ENOSYS, "renameat2 is not available", str(src))
    if func(_AT_FDCWD, os.fsencode(src), _AT_FDCWD, os.fsencode(dst), flags) != 0:
        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code), str(src), None, str(dst))


def exchange(a: Path, b: Path) -> None:
    """Swap the paths ``a`` and ``b`` in one atomic step (Linux 3.15+, on ext4, XFS,
    Btrfs, tmpfs, ...). Raises OSError, with ENOSYS or EINVAL where unsupported."""
    _rename2(a, b, _RENAME_EXCHANGE)


def move_no_replace(src: Path, dst: Path) -> None:
    """Rename ``src`` to ``dst`` unless ``dst`` exists (FileExistsError)."""
    try:
        _rename2(src, dst, _RENAME_NOREPLACE)
        return
    except OSError as exc:
        if exc.errno not in UNSUPPORTED:
            raise
    if os.path.lexists(dst):  # racy without renameat2, but under our lock
        raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(dst))
    os.rename(src, dst)
