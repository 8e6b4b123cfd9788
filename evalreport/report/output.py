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

The work is split by job: :mod:`.output_check` (the check before a run),
:mod:`.output_lock` (the lock), :mod:`.output_set` (the set's names and manifest,
what is proved an earlier set's, leftovers of killed runs), :mod:`.output_fs` (the
file-system steps); this module writes the set, in swap mode or file mode.
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

from ..errors import OutputError
from .output_check import check_output, output_path
from .output_fs import (
    UNSUPPORTED,
    error_text,
    fsync_dir,
    move_no_replace,
    signals_held,
    temp_beside,
    write_new,
    exchange,  # read from this module by _swap_in: the tests replace output.exchange
)
from .output_lock import LOCK_TIMEOUT, lock_path, locked  # (locked reads output_lock.LOCK_TIMEOUT)
from .output_set import (
    REPORT_NAMES,
    MANIFEST,
    SET_FILES,
    clean_leftovers,
    dispose,
    is_ours,
    left_in_place,
    manifest_bytes,
    manifest_files,
    proved_files,
)

__all__ = ["check_output", "write_report_set", "OutputError",
           "SET_FILES", "MANIFEST", "LOCK_TIMEOUT"]

LOGGER = logging.getLogger("evalreport")


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
        return all(is_ours(e.name) and not e.is_dir(follow_symlinks=False) for e in os.scandir(real))
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
        temps = {name: temp_beside(staging / name) for name in files}
        for name, data in files.items():
            with _naming(shown / name):
                write_new(temps[name], data)
        with _naming(shown / MANIFEST):
            write_new(staging / MANIFEST, manifest_bytes(files))
        for name, tmp in temps.items():
            with _naming(shown / name):
                os.rename(tmp, staging / name)
        with _naming(shown):
            _adopt_folder(staging, real)
            fsync_dir(staging)
        listed = manifest_files(real)
        proved = proved_files(real, listed)
        carry = [name for name in sorted(REPORT_NAMES - set(files))
                 if os.path.lexists(real / name) and name not in proved]
        with signals_held():
            if checkpoint is not None:
                checkpoint()
            for name in carry:  # not provably an earlier set's: it stays in the folder
                with _naming(shown / name):
                    move_no_replace(real / name, staging / name)
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
                    if exc.errno not in UNSUPPORTED:
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
            fsync_dir(parent)
    finally:
        with signals_held():
            # The old set goes; or, not committed, the unused staging folder goes and
            # what was carried into it moves back.
            dispose(staging, real, frozenset(files) if committed else frozenset(), notes)
    notes.extend(left_in_place(shown / name, listed) for name in carried)
    return True


def _replace_files(real: Path, shown: Path, files: dict[str, bytes], checkpoint, notes: list[str]) -> None:
    """File mode: each file to a temporary name beside it, then renamed; the manifest
    goes first and comes back last. A report file of a format not written now is
    deleted only when the previous manifest proves it an earlier set's."""
    with _naming(shown):
        real.mkdir(parents=True, exist_ok=True)
    listed = manifest_files(real)
    proved = proved_files(real, listed)
    others = [name for name in sorted(REPORT_NAMES - set(files)) if os.path.lexists(real / name)]
    ordered = dict(files)
    ordered[MANIFEST] = manifest_bytes(files)
    staged: list[tuple[Path, str]] = []
    try:
        for name, data in ordered.items():
            tmp = temp_beside(real / name)
            staged.append((tmp, name))  # removed in the end if anything fails, even half-written
            with _naming(shown / name):
                write_new(tmp, data)
        with signals_held():
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
            fsync_dir(real)
    finally:
        for tmp, _ in staged:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    notes.extend(left_in_place(shown / name, listed) for name in others if name not in proved)


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
    unknown = sorted(set(files) - REPORT_NAMES)
    if unknown:
        raise ValueError(f"not report files: {', '.join(unknown)}")
    shown = Path(out)
    real = Path(os.path.realpath(shown))
    notes: list[str] = []
    try:
        with _naming(shown):
            real.parent.mkdir(parents=True, exist_ok=True)
        lock, beside = lock_path(real)
        with locked(lock, shown, progress):
            clean_leftovers(real, beside, notes)
            if beside and _swappable(real) and _swap_in(real, shown, files, checkpoint, notes):
                return
            _replace_files(real, shown, files, checkpoint, notes)
    except _Failed as failed:
        raise OutputError([
            f"{failed.shown}: cannot write the report: {error_text(failed.exc)}; the previous report is intact"
        ]) from None
    finally:
        for note in notes:
            if warn is not None:
                warn(note)
            else:
                LOGGER.warning("%s", note)
