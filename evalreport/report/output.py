"""Where the report goes: the check before a run, and replacing the report set as a whole.

The report set is the files one run writes into its output folder (``results.json``,
``report.html``, ``report.pdf``, as many as asked for), and ``.evalreport-set.json``,
its manifest: the set's files with their SHA-256. The set is replaced as a whole. A
file of the folder is only ever deleted as stale when it provably belongs to an
earlier set: the manifest found in the folder lists it and its SHA-256 still matches
(a report file of a format this run did not write would describe another run). A
report file that is not proved ours (the user's own ``report.pdf``, one edited since,
one of a set whose manifest a hard kill removed) is left in place, and the run says so
(``warn``). The files this run writes replace whatever had their names.

* :func:`check_output` says, before anything is evaluated, whether the folder can be
  written: not a file, ``/dev/null``, a path under a file or a path with a NUL byte;
  a file is created in it (or in the nearest folder that exists) and removed at once
  (an unnamed O_TMPFILE where the file system has it), so a read-only file system or
  a missing permission shows before the evaluation, as root too.
* :func:`write_report_set` takes a lock, so runs into one folder take turns: an
  ``flock`` on ``.<name>.evalreport.lock`` beside the folder (the folder itself is
  swapped). It is held only while the rendered bytes are written and swapped in, not
  while evaluating or rendering; a run that cannot get it within :data:`LOCK_TIMEOUT`
  seconds fails with an :class:`OutputError` naming the lock file. The lock dies with
  its holder (a killed run leaves none held), and the file goes when it is released.
* Swap mode, when the folder holds nothing but report files: the new set and its
  manifest are written into a fresh folder beside it (``.<name>.evalreport-new-<random>``),
  which takes the old folder's permissions; the report files of the old folder that
  are not proved ours and that this run does not write are moved into it; then the
  two folders are exchanged in one step (Linux ``renameat2(RENAME_EXCHANGE)``;
  elsewhere two renames, between which the folder is briefly absent, never mixed), and
  the old set is deleted. A reader that opens the folder once (``cd``, a directory
  descriptor) sees one whole set; a shell left in the old folder sees it empty (``cd``
  there again).
* File mode, otherwise: a folder with anything else in it (the spec and its data with
  ``--out .``, dated sub-folders), the current directory, a mount point, another user's
  folder, or one whose parent cannot be written is never swapped away. Each
  file is written to a temporary name beside it and renamed; the manifest is removed
  before the first rename and written after the last, so a set without it, or whose
  files do not match it, was cut short by a hard kill (SIGKILL, power loss).

Either way SIGINT and SIGTERM are held back while the set is swapped or renamed (they
take effect right after), and each run first removes what killed runs left behind:
their temporary files, staging folders and old sets. In those folders too a report
file is deleted only when their own manifest proves it ours, or when the set now in
the folder, proved by its manifest, has replaced it; anything else is moved back into
the folder (or kept, with a warning, when its name is taken there).
Any ``OSError`` while writing (a full disk, a lost permission) is an
:class:`OutputError` (exit status 2) naming the file; the previous set stays whole.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import hashlib
import json
import logging
import os
import re
import secrets
import signal
import stat
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from .._version import __version__
from ..errors import OutputError

try:  # POSIX; elsewhere runs into one folder are not serialised
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None

__all__ = ["check_output", "write_report_set", "OutputError",
           "SET_FILES", "MANIFEST", "LOCK_TIMEOUT"]

LOGGER = logging.getLogger("evalreport")

#: Every file a run may write into its output folder, by format.
SET_FILES = {"json": "results.json", "html": "report.html", "pdf": "report.pdf"}
#: The set's files and their SHA-256 (file mode: written last). Only a report file it
#: lists, unchanged, is ever deleted as another set's.
MANIFEST = ".evalreport-set.json"
#: Seconds to wait for another run writing into the same folder (it holds the lock
#: only while its set is written and swapped in, normally well under a second).
LOCK_TIMEOUT = 60.0

_PROBE = ".evalreport-probe-"
_INNER_LOCK = ".evalreport.lock"  # the lock inside the folder, when its parent is read-only
_REPORT_NAMES = frozenset(SET_FILES.values())
_OURS = _REPORT_NAMES | {MANIFEST, _INNER_LOCK}
# A temporary file of ours: .results.json.<random>.tmp (this module, and mkstemp in
# earlier versions), .evalreport-set.json.<random>.tmp, or a probe.
_TEMP = re.compile(
    r"\.(?:%s)\.[A-Za-z0-9_]+\.tmp\Z|%s[0-9a-f]+\Z"
    % ("|".join(re.escape(n.lstrip(".")) for n in sorted(_OURS - {_INNER_LOCK})), re.escape(_PROBE))
)


def _is_ours(name: str) -> bool:
    return name in _OURS or _TEMP.match(name) is not None


def _lock_name(folder: str) -> str:
    return f".{folder}.evalreport.lock"


def _staging_pattern(folder: str) -> re.Pattern:
    return re.compile(rf"\.{re.escape(folder)}\.evalreport-(?:new|old)-[0-9a-f]{{16}}\Z")


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc)


def _kind(mode: int) -> str:
    for test, kind in ((stat.S_ISREG, "a file"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a named pipe"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return "not a folder"


# ---------------------------------------------------------------------------
# The check before a run


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
            if exc.errno not in _UNSUPPORTED | {errno.EISDIR}:  # EISDIR: a kernel without it
                raise
    probe = folder / f"{_PROBE}{secrets.token_hex(8)}"
    os.close(os.open(probe, flags | os.O_CREAT | os.O_EXCL, 0o600))
    with contextlib.suppress(FileNotFoundError):  # a run cleaning up its leftovers took it
        os.unlink(probe)


def _locate(spec, text: str) -> str:
    if spec is None:
        return text
    from ..spec import locate

    return locate(spec, ("report", "out"), text)


def output_path(out=None, spec=None) -> Path:
    """``out``, or else the spec's ``report.out`` (relative to the spec's folder)."""
    if out is not None:
        return Path(out)
    if spec is None:
        raise TypeError("output_path needs out or spec")
    return spec.resolve(spec.report.out)


def check_output(out=None, spec=None) -> Path:
    """Check that the report can be written into folder ``out`` (default: ``spec``'s
    ``report.out``, and then the messages give the spec's line) and return its path.

    Call it before evaluating: it raises :class:`OutputError` when ``out`` or one of its
    ancestors is a file or a device, or when a file cannot be created in the folder (or,
    when it does not exist yet, in its nearest existing ancestor). Nothing is left
    behind: the probe file is removed, and no folder is created.
    """
    path = output_path(out, spec)
    spec = spec if out is None else None  # the messages give the spec's line for report.out only
    try:
        where, st = _nearest_existing(path)
    except ValueError as exc:  # no system call takes a NUL byte; a name the file system cannot encode
        why = "it holds a NUL byte" if "\0" in str(path) else str(exc)
        shown = str(path).replace("\0", "\\0")  # as YAML writes it, not a raw NUL on the terminal
        raise OutputError([_locate(spec, f"{shown}: not a valid path: {why}")]) from None
    except OSError as exc:
        raise OutputError([_locate(spec, f"{path}: cannot reach the output folder: {_why(exc)}")]) from None
    if st is None:
        problem = "is a symbolic link to nothing" if where == path else (
            f"cannot create the folder: {where} is a symbolic link to nothing")
        raise OutputError([_locate(spec, f"{path}: {problem}")])
    if not stat.S_ISDIR(st.st_mode):
        problem = (f"is {_kind(st.st_mode)}, not a folder" if where == path else
                   f"cannot create the folder: {where} is {_kind(st.st_mode)}, not a folder")
        raise OutputError([_locate(spec, f"{path}: {problem}")])
    try:
        _probe(where)
    except OSError as exc:
        problem = (f"cannot write in this folder: {_why(exc)}" if where == path else
                   f"cannot create the folder in {where}: {_why(exc)}")
        raise OutputError([_locate(spec, f"{path}: {problem}")]) from None
    return path


# ---------------------------------------------------------------------------
# Small tools


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
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


def _fsync_dir(path: Path) -> None:
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


def _write_new(path: Path, data: bytes) -> None:
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


def _temp_beside(path: Path) -> Path:
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
_UNSUPPORTED = {errno.ENOSYS, errno.EINVAL, getattr(errno, "ENOTSUP", -1), getattr(errno, "EOPNOTSUPP", -1)}


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


def _move_no_replace(src: Path, dst: Path) -> None:
    """Rename ``src`` to ``dst`` unless ``dst`` exists (FileExistsError)."""
    try:
        _rename2(src, dst, _RENAME_NOREPLACE)
        return
    except OSError as exc:
        if exc.errno not in _UNSUPPORTED:
            raise
    if os.path.lexists(dst):  # racy without renameat2, but under our lock
        raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(dst))
    os.rename(src, dst)


# ---------------------------------------------------------------------------
# The lock


def _lock_path(real: Path) -> tuple[Path, bool]:
    """The lock file for folder ``real``, and whether it lies beside it (the parent can
    be written, so the folder may be swapped) or inside it."""
    parent = real.parent
    if parent != real and os.access(parent, os.W_OK | os.X_OK):
        return parent / _lock_name(real.name), True
    return real / _INNER_LOCK, False


@contextlib.contextmanager
def _locked(path: Path, shown: Path, progress) -> Iterator[None]:
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
            raise OutputError([f"{shown}: cannot create the lock file {path}: {_why(exc)}"]) from None
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


# ---------------------------------------------------------------------------
# The manifest: which report files are provably an earlier set's


def _manifest_bytes(files: dict[str, bytes]) -> bytes:
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


def _listed(folder: Path) -> dict[str, str]:
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
            if name in _REPORT_NAMES and isinstance(digest, str)}


def _proved(folder: Path, listed: dict[str, str] | None = None) -> frozenset[str]:
    """The report files in ``folder`` that provably belong to an earlier set: its
    manifest lists them, and their SHA-256 still matches. Only these may go as stale."""
    if listed is None:
        listed = _listed(folder)
    return frozenset(name for name, digest in listed.items() if _sha256(folder / name) == digest)


def _left_in_place(shown: Path, listed: dict[str, str]) -> str:
    why = f"changed since {MANIFEST} listed it" if shown.name in listed else f"not listed in {MANIFEST}"
    return f"{shown}: not written by this run and left in place ({why})"


# ---------------------------------------------------------------------------
# Leftovers


def _dispose(old: Path, home: Path | None, replaced: frozenset[str], notes: list[str]) -> bool:
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
    proved = _proved(old)
    for entry in entries:
        try:
            if entry.is_dir(follow_symlinks=False):
                ours = False
            elif entry.name in _REPORT_NAMES:
                ours = entry.name in proved or entry.name in replaced
            else:
                ours = _is_ours(entry.name)
            if ours:
                os.unlink(entry.path)
            elif home is not None:
                _move_no_replace(Path(entry.path), home / entry.name)
        except OSError as exc:
            notes.append(f"kept {entry.path}: {_why(exc)}")
    try:
        os.rmdir(old)
        return True
    except OSError:
        notes.append(f"kept {old}: it holds files that are not evalreport's")
        return False


def _clean_leftovers(real: Path, beside: bool, notes: list[str]) -> None:
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
                        replaced = _proved(real) if home is not None else frozenset()
                    _dispose(Path(entry.path), home, replaced, notes)


# ---------------------------------------------------------------------------
# Writing


def _swappable(real: Path) -> bool:
    """Whether the folder may be replaced by a new one: it holds nothing but report
    files (those not proved ours are carried over into the new one), is not the
    current directory, nor a mount point, nor (unless we are root, who can give the
    new one away) another user's."""
    if not real.exists():
        return True
    if real.is_symlink() or not real.is_dir() or os.path.ismount(real):
        return False
    euid = os.geteuid() if hasattr(os, "geteuid") else 0
    if euid != 0 and os.stat(real).st_uid != euid:
        return False
    try:
        if os.path.samefile(real, os.getcwd()):
            return False
    except OSError:
        pass
    try:
        return all(_is_ours(e.name) and not e.is_dir(follow_symlinks=False) for e in os.scandir(real))
    except OSError:
        return False


class _Failed(Exception):
    """An OSError while writing, with the user's path for it."""

    def __init__(self, shown: Path, exc: OSError):
        super().__init__(shown)
        self.shown, self.exc = shown, exc


@contextlib.contextmanager
def _naming(shown: Path) -> Iterator[None]:
    try:
        yield
    except OSError as exc:
        raise _Failed(shown, exc) from exc


def _adopt_folder(new: Path, old: Path) -> None:
    """Give the new folder the old one's permissions and owner (or, when there is no old
    folder, those of a plain mkdir): mkdtemp-like folders are private."""
    try:
        st = os.stat(old)
        mode, owner = stat.S_IMODE(st.st_mode), (st.st_uid, st.st_gid)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode, owner = 0o777 & ~umask, None
    os.chmod(new, mode)
    if owner is not None:
        st = os.stat(new)
        if (st.st_uid, st.st_gid) != owner:
            with contextlib.suppress(OSError):  # only root may give a folder away
                os.chown(new, *owner)


def _swap_in(real: Path, shown: Path, files: dict[str, bytes], checkpoint, notes: list[str]) -> bool:
    """Swap mode. False if the folders could not be exchanged here (another file
    system mounted on the folder, ...): nothing changed, use file mode."""
    parent = real.parent
    staging = parent / f".{real.name}.evalreport-new-{secrets.token_hex(8)}"
    with _naming(parent):
        os.mkdir(staging, 0o700)
    committed = False
    carried: list[str] = []
    try:
        # The files under temporary names, the manifest, then the files under their
        # names: in a staging folder a killed run left, the manifest proves every report
        # file ours, so the next run deletes them (and moves back only what was carried).
        temps = {name: _temp_beside(staging / name) for name in files}
        for name, data in files.items():
            with _naming(shown / name):
                _write_new(temps[name], data)
        with _naming(shown / MANIFEST):
            _write_new(staging / MANIFEST, _manifest_bytes(files))
        for name, tmp in temps.items():
            with _naming(shown / name):
                os.rename(tmp, staging / name)
        with _naming(shown):
            _adopt_folder(staging, real)
            _fsync_dir(staging)
        listed = _listed(real)
        proved = _proved(real, listed)
        carry = [name for name in sorted(_REPORT_NAMES - set(files))
                 if os.path.lexists(real / name) and name not in proved]
        with _signals_held():
            if checkpoint is not None:
                checkpoint()
            for name in carry:  # not provably an earlier set's: it stays in the folder
                with _naming(shown / name):
                    _move_no_replace(real / name, staging / name)
                carried.append(name)
            if not os.path.lexists(real):
                with _naming(shown):
                    os.rename(staging, real)
                committed = True
            else:
                try:
                    exchange(staging, real)
                    committed = True
                except OSError as exc:
                    if exc.errno not in _UNSUPPORTED:
                        return False
                if not committed:  # no atomic exchange here: two renames
                    old = parent / f".{real.name}.evalreport-old-{secrets.token_hex(8)}"
                    with _naming(shown):
                        os.rename(real, old)
                        try:
                            os.rename(staging, real)
                        except BaseException:
                            os.rename(old, real)
                            raise
                    committed, staging = True, old
            _fsync_dir(parent)
    finally:
        with _signals_held():
            # The old set goes; or, not committed, the unused staging folder goes and
            # what was carried into it moves back.
            _dispose(staging, real, frozenset(files) if committed else frozenset(), notes)
    notes.extend(_left_in_place(shown / name, listed) for name in carried)
    return True


def _replace_files(real: Path, shown: Path, files: dict[str, bytes], checkpoint, notes: list[str]) -> None:
    """File mode: each file to a temporary name beside it, then renamed; the manifest
    goes first and comes back last. A report file of a format not written now is
    deleted only when the previous manifest proves it an earlier set's."""
    with _naming(shown):
        real.mkdir(parents=True, exist_ok=True)
    listed = _listed(real)
    proved = _proved(real, listed)
    others = [name for name in sorted(_REPORT_NAMES - set(files)) if os.path.lexists(real / name)]
    ordered = dict(files)
    ordered[MANIFEST] = _manifest_bytes(files)
    staged: list[tuple[Path, str]] = []
    try:
        for name, data in ordered.items():
            tmp = _temp_beside(real / name)
            staged.append((tmp, name))  # removed in the end if anything fails, even half-written
            with _naming(shown / name):
                _write_new(tmp, data)
        with _signals_held():
            if checkpoint is not None:
                checkpoint()
            with _naming(shown / MANIFEST):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(real / MANIFEST)
            while len(staged) > 1:  # the report files; the manifest is last
                tmp, name = staged[0]
                with _naming(shown / name):
                    os.replace(tmp, real / name)
                staged.pop(0)
            for stale in others:  # an earlier set's, of another format
                if stale in proved:
                    with _naming(shown / stale), contextlib.suppress(FileNotFoundError):
                        os.unlink(real / stale)
            tmp, name = staged[0]
            with _naming(shown / name):
                os.replace(tmp, real / name)
            staged.pop(0)
            _fsync_dir(real)
    finally:
        for tmp, _ in staged:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    notes.extend(_left_in_place(shown / name, listed) for name in others if name not in proved)


def write_report_set(
    out,
    files: dict[str, bytes],
    *,
    progress: Callable[[str], None] | None = None,
    checkpoint: Callable[[], None] | None = None,
    warn: Callable[[str], None] | None = None,
) -> None:
    """Replace the report set in folder ``out`` by ``files`` (names -> bytes) as a whole.

    ``progress`` hears about a wait for another run's lock. ``checkpoint`` is called
    just before the new set goes in, with SIGINT and SIGTERM held back: whatever it
    raises aborts the run with the previous set intact (the CLI raises there when a
    signal came that something swallowed). ``warn`` (default: the ``evalreport``
    logger) hears, once the lock is released, of each file left in place: a report
    file this run did not write and cannot prove an earlier set's, a leftover of a
    killed run that could not be put back. Raises :class:`OutputError` when a file
    cannot be written, naming it; the previous set is then intact.
    """
    unknown = sorted(set(files) - _REPORT_NAMES)
    if unknown:
        raise ValueError(f"not report files: {', '.join(unknown)}")
    shown = Path(out)
    real = Path(os.path.realpath(shown))
    notes: list[str] = []
    try:
        with _naming(shown):
            real.parent.mkdir(parents=True, exist_ok=True)
        lock, beside = _lock_path(real)
        with _locked(lock, shown, progress):
            _clean_leftovers(real, beside, notes)
            if beside and _swappable(real) and _swap_in(real, shown, files, checkpoint, notes):
                return
            _replace_files(real, shown, files, checkpoint, notes)
    except _Failed as failed:
        raise OutputError([
            f"{failed.shown}: cannot write the report: {_why(failed.exc)}; the previous report is intact"
        ]) from None
    finally:
        for note in notes:
            if warn is not None:
                warn(note)
            else:
                LOGGER.warning("%s", note)
