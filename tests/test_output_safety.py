"""Where the report goes, and how it gets there (issue 17).

* The output folder is checked before the evaluation: a file, /dev/null, a path under a
  file, no permission, a read-only file system give exit status 2 and a message naming
  the path, and the evaluation does not run.
* A failure while writing (a full disk) is exit status 2 naming the file, the previous
  report intact, nothing left behind.
* SIGINT and SIGTERM: one line, exit 130 / 143, the previous report intact (or, if the
  run got that far, the whole new one), nothing left behind, also when WeasyPrint
  swallows the interrupt while it draws a figure.
* The report set is replaced as a whole: a folder swap (or, in a folder with other
  files, file by file with a manifest written last); a run killed at any step leaves the
  whole old or the whole new set, and the next run removes what it left; runs into one
  folder take turns.
* A report file the run does not write goes as stale only when the previous set's
  manifest proves it an earlier set's; a user's own report.pdf stays, with a warning.
"""

from __future__ import annotations

import errno
import hashlib
import json
import logging
import os
import re
import select
import shutil
import signal
import stat
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

import evalreport
from evalreport.__main__ import main
from evalreport.report import output, output_lock

ROOT = Path(__file__).resolve().parents[1]
WATERMELON = ROOT / "examples" / "watermelon"
SET = ("report.html", "report.pdf", "results.json")
WITH_MANIFEST = sorted((*SET, output.MANIFEST))


def _env() -> dict:
    env = dict(os.environ, MPLBACKEND="Agg")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in [env.get("PYTHONPATH")] if p])
    return env


@pytest.fixture
def melon(tmp_path) -> Path:
    """The watermelon example in tmp/proj (its report goes to tmp/proj/reports)."""
    proj = tmp_path / "proj"
    proj.mkdir()
    for name in ("spec.yaml", "predictions.csv"):
        shutil.copy(WATERMELON / name, proj / name)
    return proj


@pytest.fixture
def no_evaluation(monkeypatch):
    import evalreport.pipeline

    def evaluate(*args, **kwargs):
        pytest.fail("the evaluation ran although the output folder cannot be written")

    monkeypatch.setattr(evalreport.pipeline, "evaluate", evaluate)


def _run(spec: Path, *args) -> int:
    return main(["run", str(spec), "--quiet", *args])


def _err(capsys) -> list[str]:
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err.splitlines()


def _out_line(spec: Path) -> int:
    return next(i for i, line in enumerate(spec.read_text().splitlines(), 1) if "out: reports" in line)


def _tree(folder: Path) -> dict[str, bytes | None]:
    """Every entry under ``folder`` (hidden ones too): files with their bytes."""
    return {
        str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else None)
        for p in sorted(folder.rglob("*"))
    }


def _hidden(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def _title(text: str) -> str:
    return re.search(r"<title>([^<]*)</title>", text).group(1)


# ---------------------------------------------------------------------------
# 1-2. The output folder, checked before the evaluation


def test_out_is_a_file(melon, no_evaluation, capsys):
    (melon / "taken").write_text("mine\n")
    assert _run(melon / "spec.yaml", "--out", str(melon / "taken")) == 2
    assert _err(capsys) == [f"error: {melon}/taken: is a file, not a folder"]
    assert (melon / "taken").read_text() == "mine\n"


def test_out_under_a_file(melon, no_evaluation, capsys):
    (melon / "taken").write_text("mine\n")
    assert _run(melon / "spec.yaml", "--out", str(melon / "taken" / "sub" / "x")) == 2
    assert _err(capsys) == [
        f"error: {melon}/taken/sub/x: cannot create the folder: {melon}/taken is a file, not a folder"
    ]


def test_out_is_dev_null(melon, no_evaluation, capsys):
    assert _run(melon / "spec.yaml", "--out", "/dev/null") == 2
    assert _err(capsys) == ["error: /dev/null: is a character device, not a folder"]


def test_report_out_in_the_spec_gives_the_line(melon, no_evaluation, capsys):
    (melon / "reports").write_text("a file where the folder goes\n")
    assert _run(melon / "spec.yaml") == 2
    assert _err(capsys) == [
        f"error: {melon}/spec.yaml:{_out_line(melon / 'spec.yaml')}: report.out: "
        f"{melon}/reports: is a file, not a folder"
    ]


def test_report_out_with_a_nul_byte(melon, no_evaluation, capsys):
    spec = melon / "spec.yaml"
    line = _out_line(spec)
    _edit(spec, "out: reports", 'out: "rep\\0orts"')  # YAML's escape for a NUL byte
    expected = [f"error: {spec}:{line}: report.out: {melon}/rep\\0orts: not a valid path: it holds a NUL byte"]
    assert _run(spec) == 2
    assert _err(capsys) == expected
    assert main(["validate", str(spec)]) == 2
    assert _err(capsys) == expected
    with pytest.raises(evalreport.OutputError) as info:  # the Python API, where --out can hold one
        evalreport.check_output(f"{melon}/a\0b")
    assert info.value.problems == [f"{melon}/a\\0b: not a valid path: it holds a NUL byte"]
    assert sorted(p.name for p in melon.iterdir()) == ["predictions.csv", "spec.yaml"]


def _refuse_under(monkeypatch, folder: Path, code: int):
    """os.open refuses every path in (or equal to) ``folder`` with ``code``."""
    real_open = os.open

    def guarded(path, *args, **kwargs):
        p = Path(os.fsdecode(path))
        if p == folder or folder in p.parents:
            raise OSError(code, os.strerror(code), str(p))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", guarded)


def test_folder_without_permission(melon, no_evaluation, monkeypatch, capsys):
    (melon / "reports").mkdir()
    _refuse_under(monkeypatch, melon / "reports", errno.EACCES)
    assert _run(melon / "spec.yaml") == 2
    assert _err(capsys) == [
        f"error: {melon}/spec.yaml:{_out_line(melon / 'spec.yaml')}: report.out: "
        f"{melon}/reports: cannot write in this folder: Permission denied"
    ]


def test_read_only_file_system_for_a_new_folder(melon, no_evaluation, monkeypatch, capsys):
    (melon / "ro").mkdir()
    _refuse_under(monkeypatch, melon / "ro", errno.EROFS)
    assert _run(melon / "spec.yaml", "--out", str(melon / "ro" / "new" / "reports")) == 2
    assert _err(capsys) == [
        f"error: {melon}/ro/new/reports: cannot create the folder in {melon}/ro: Read-only file system"
    ]
    assert list((melon / "ro").iterdir()) == []


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0,
                    reason="root writes into a 0o500 folder (the test above simulates EACCES)")
def test_read_only_folder(melon, no_evaluation, capsys):  # pragma: no cover - not as root
    ro = melon / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        assert _run(melon / "spec.yaml", "--out", str(ro)) == 2
        assert _err(capsys) == [f"error: {ro}: cannot write in this folder: Permission denied"]
    finally:
        ro.chmod(0o700)


def test_the_check_leaves_nothing(melon):
    (melon / "reports").mkdir()
    before = _tree(melon)
    assert evalreport.check_output(melon / "reports") == melon / "reports"
    assert evalreport.check_output(melon / "a" / "b") == melon / "a" / "b"  # not created
    assert _tree(melon) == before


def test_init_into_a_file(tmp_path, capsys):
    (tmp_path / "taken").write_text("mine\n")
    assert main(["init", str(tmp_path / "taken")]) == 2
    assert main(["init", str(tmp_path / "taken" / "sub")]) == 2
    assert _err(capsys) == [
        f"error: {tmp_path}/taken: is a file, not a folder",
        f"error: {tmp_path}/taken/sub: cannot create the folder: {tmp_path}/taken is a file, not a folder",
    ]
    assert (tmp_path / "taken").read_text() == "mine\n"
    assert main(["init", str(tmp_path / "new" / "dir")]) == 0
    assert (tmp_path / "new" / "dir" / "evalreport.yaml").is_file()


# ---------------------------------------------------------------------------
# 2. Write failures


def _no_space(monkeypatch):
    real_write = os.write

    def write(fd, data):
        if fd > 2:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", write)


@pytest.mark.slow
@pytest.mark.parametrize("where", ["reports", "spec folder"])
def test_full_disk(melon, monkeypatch, capsys, where):
    out = melon / "reports" if where == "reports" else melon
    assert _run(melon / "spec.yaml", "--out", str(out), "--format", "json,html") == 0
    capsys.readouterr()
    before = _tree(melon)
    _no_space(monkeypatch)
    assert _run(melon / "spec.yaml", "--out", str(out), "--format", "json,html") == 2
    assert _err(capsys) == [
        f"error: {out}/results.json: cannot write the report: No space left on device; "
        "the previous report is intact"
    ]
    assert _tree(melon) == before


def test_write_failure_through_the_python_api(melon, monkeypatch):
    result = evalreport.evaluate(evalreport.load_spec(melon / "spec.yaml"))
    _no_space(monkeypatch)
    with pytest.raises(evalreport.OutputError) as info:
        evalreport.render(result, formats=["json"])
    assert info.value.exit_status == 2
    assert info.value.problems == [
        f"{melon}/reports/results.json: cannot write the report: No space left on device; "
        "the previous report is intact"
    ]
    assert not (melon / "reports").exists()
    assert _hidden(melon) == []


def test_a_template_error_is_still_an_internal_error():
    assert evalreport.RenderError.exit_status == 1
    assert issubclass(evalreport.OutputError, evalreport.RenderError)


# ---------------------------------------------------------------------------
# 4. The set is replaced as a whole


@pytest.mark.slow
def test_swap_replaces_the_folder_and_keeps_its_mode(melon):
    out = melon / "reports"
    # an earlier set with a format not written now: its manifest proves the PDF stale
    output.write_report_set(out, {"results.json": b"{}\n", "report.html": b"<html>",
                                  "report.pdf": b"a pdf of an earlier run\n"})
    out.chmod(0o750)
    first = os.stat(out).st_ino
    assert _run(melon / "spec.yaml", "--format", "json,html") == 0
    assert os.stat(out).st_ino != first  # a new folder took the old one's place
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o750
    assert sorted(p.name for p in out.iterdir()) == [output.MANIFEST, "report.html", "results.json"]
    assert json.loads((out / output.MANIFEST).read_text())["files"] == {
        name: hashlib.sha256((out / name).read_bytes()).hexdigest() for name in ("results.json", "report.html")
    }
    assert _hidden(melon) == []


def _left(capsys) -> list[str]:
    """The warnings about report files left in place (the evaluation's are not asked for)."""
    return [line for line in _err(capsys) if "left in place" in line]


def _not_listed(path) -> str:
    return f"warning: {path}: not written by this run and left in place (not listed in .evalreport-set.json)"


@pytest.mark.slow
def test_swap_carries_a_users_report_file_over(melon, capsys):
    """A folder holding only a report.pdf of the user's (not listed in a manifest):
    the new set goes in beside it, and the PDF is neither deleted nor replaced."""
    out = melon / "reports"
    out.mkdir()
    (out / "report.pdf").write_bytes(b"my own paper\n")
    first = os.stat(out).st_ino
    args = ["run", str(melon / "spec.yaml"), "--format", "json,html"]
    assert main(args) == 0
    assert _left(capsys) == [_not_listed(out / "report.pdf")]
    assert os.stat(out).st_ino != first  # swapped all the same
    assert sorted(p.name for p in out.iterdir()) == WITH_MANIFEST
    assert (out / "report.pdf").read_bytes() == b"my own paper\n"
    # html is now the earlier set's (proved by the manifest) and goes; the PDF stays
    assert main([*args[:-1], "json"]) == 0
    assert _left(capsys) == [_not_listed(out / "report.pdf")]
    assert sorted(p.name for p in out.iterdir()) == [output.MANIFEST, "report.pdf", "results.json"]
    assert (out / "report.pdf").read_bytes() == b"my own paper\n"
    assert _run(melon / "spec.yaml", "--format", "json") == 0  # --quiet: no warning
    assert capsys.readouterr().err == ""
    assert (out / "report.pdf").read_bytes() == b"my own paper\n"
    assert _hidden(melon) == []


def test_swap_falling_back_to_file_mode_puts_the_carried_file_back(melon, monkeypatch, capsys):
    def busy(a, b):  # the folders cannot be exchanged here: the run writes file by file
        raise OSError(errno.EBUSY, os.strerror(errno.EBUSY))

    out = melon / "reports"
    out.mkdir()
    (out / "report.pdf").write_bytes(b"my own paper\n")
    inode = os.stat(out).st_ino
    monkeypatch.setattr(output, "exchange", busy)
    assert main(["run", str(melon / "spec.yaml"), "--format", "json"]) == 0
    assert _left(capsys) == [_not_listed(out / "report.pdf")]
    assert os.stat(out).st_ino == inode
    assert sorted(p.name for p in out.iterdir()) == [output.MANIFEST, "report.pdf", "results.json"]
    assert (out / "report.pdf").read_bytes() == b"my own paper\n"
    assert _hidden(melon) == []


def test_the_python_api_logs_what_it_left_in_place(tmp_path, caplog):
    out = tmp_path / "reports"
    out.mkdir()
    (out / "report.pdf").write_bytes(b"my own paper\n")
    with caplog.at_level(logging.WARNING, logger="evalreport"):
        output.write_report_set(out, {"results.json": b"{}\n"})
    assert [r.getMessage() for r in caplog.records] == [
        f"{out}/report.pdf: not written by this run and left in place (not listed in .evalreport-set.json)"]
    assert sorted(p.name for p in out.iterdir()) == [output.MANIFEST, "report.pdf", "results.json"]
    assert (out / "report.pdf").read_bytes() == b"my own paper\n"


@pytest.mark.slow
def test_file_mode_deletes_only_what_the_manifest_proves(melon, monkeypatch, capsys):
    """--out . beside the spec, with a report.pdf and a report.html of the user's."""
    monkeypatch.chdir(melon)
    (melon / "report.pdf").write_bytes(b"my own paper\n")
    (melon / "report.html").write_bytes(b"my notes\n")
    spec = (melon / "spec.yaml").read_bytes()
    run = ["run", "spec.yaml", "--out", "."]
    assert main([*run, "--format", "json"]) == 0
    assert _left(capsys) == [_not_listed("report.html"), _not_listed("report.pdf")]
    assert (melon / "report.pdf").read_bytes() == b"my own paper\n"
    assert (melon / "report.html").read_bytes() == b"my notes\n"
    assert (melon / "spec.yaml").read_bytes() == spec
    assert sorted(p.name for p in melon.iterdir()) == [
        output.MANIFEST, "predictions.csv", "report.html", "report.pdf", "results.json", "spec.yaml"]
    # report.html written by a run is the run's; the next run without html deletes it
    assert main([*run, "--format", "json,html"]) == 0
    assert _left(capsys) == [_not_listed("report.pdf")]
    assert b"<html" in (melon / "report.html").read_bytes()
    assert main([*run, "--format", "json"]) == 0
    assert _left(capsys) == [_not_listed("report.pdf")]
    assert not (melon / "report.html").exists()
    # ... unless it was changed since the manifest listed it
    assert main([*run, "--format", "json,html"]) == 0
    capsys.readouterr()
    with open(melon / "report.html", "a") as f:
        f.write("<!-- my edit -->\n")
    edited = (melon / "report.html").read_bytes()
    assert main([*run, "--format", "json"]) == 0
    assert _left(capsys) == [
        "warning: report.html: not written by this run and left in place "
        "(changed since .evalreport-set.json listed it)",
        _not_listed("report.pdf"),
    ]
    assert (melon / "report.html").read_bytes() == edited
    assert (melon / "report.pdf").read_bytes() == b"my own paper\n"


@pytest.mark.slow
def test_folder_with_other_files_is_never_swapped(melon, monkeypatch):
    (melon / "reports").mkdir()
    (melon / "reports" / "2026-11-01").mkdir()
    (melon / "reports" / "2026-11-01" / "results.json").write_text("a dated report\n")
    (melon / "reports" / "notes.txt").write_text("mine\n")
    inode = os.stat(melon / "reports").st_ino
    assert _run(melon / "spec.yaml", "--format", "json,html") == 0
    assert os.stat(melon / "reports").st_ino == inode
    assert (melon / "reports" / "notes.txt").read_text() == "mine\n"
    assert (melon / "reports" / "2026-11-01" / "results.json").read_text() == "a dated report\n"
    manifest = json.loads((melon / "reports" / output.MANIFEST).read_text())
    assert manifest["files"] == {
        name: hashlib.sha256((melon / "reports" / name).read_bytes()).hexdigest()
        for name in ("results.json", "report.html")
    }
    # a user's report.pdf among them stays (it is not listed in a manifest)
    (melon / "reports" / "report.pdf").write_bytes(b"my own paper\n")
    assert _run(melon / "spec.yaml", "--format", "json") == 0
    assert sorted(p.name for p in (melon / "reports").iterdir()) == [
        output.MANIFEST, "2026-11-01", "notes.txt", "report.pdf", "results.json"]
    assert (melon / "reports" / "report.pdf").read_bytes() == b"my own paper\n"
    # --out . in the spec's own folder, with a report.pdf of the user's: written file
    # by file, the spec, the data and the PDF stay
    monkeypatch.chdir(melon)
    (melon / "report.pdf").write_bytes(b"my own paper\n")
    spec = (melon / "spec.yaml").read_bytes()
    assert _run(melon / "spec.yaml", "--out", ".", "--format", "json") == 0
    assert (melon / "spec.yaml").read_bytes() == spec
    assert (melon / "report.pdf").read_bytes() == b"my own paper\n"
    assert sorted(p.name for p in melon.iterdir()) == [
        ".evalreport-set.json", "predictions.csv", "report.pdf", "reports", "results.json", "spec.yaml"]


@pytest.mark.slow
def test_without_an_atomic_exchange(melon, monkeypatch):
    def unsupported(a, b):
        raise OSError(errno.EINVAL, "Invalid argument")

    assert _run(melon / "spec.yaml", "--format", "json,html") == 0
    old = _tree(melon / "reports")
    monkeypatch.setattr(output, "exchange", unsupported)
    _edit(melon / "spec.yaml", "Watermelons:", "Melons:")
    assert _run(melon / "spec.yaml", "--format", "json") == 0
    new = _tree(melon / "reports")
    assert list(new) == [output.MANIFEST, "results.json"] and new["results.json"] != old["results.json"]
    assert _hidden(melon) == []


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


@pytest.mark.slow
def test_leftovers_of_killed_runs_are_removed(melon):
    out = melon / "reports"
    assert _run(melon / "spec.yaml", "--format", "json") == 0
    for name in (".report.html.k2j3h4g5.tmp", ".results.json.abcdefgh.tmp",
                 ".evalreport-set.json.0123456789abcdef.tmp"):
        (out / name).write_bytes(b"half")
        (out / name).chmod(0o600)
    # a staging folder without a manifest (an earlier version's): its results.json was
    # replaced by the set now in the folder, which the folder's manifest proves
    staging = melon / ".reports.evalreport-new-0123456789abcdef"
    staging.mkdir()
    (staging / "results.json").write_text("{}")
    # an old set whose folder had a user's files in it when it was swapped out
    old = melon / ".reports.evalreport-old-fedcba9876543210"
    old.mkdir()
    (old / "report.pdf").write_text("old")
    (old / output.MANIFEST).write_text(json.dumps(
        {"files": {"report.pdf": hashlib.sha256(b"old").hexdigest()}}))
    (old / "report.html").write_text("my notes\n")  # not listed: the user's
    (old / "notes.txt").write_text("mine\n")
    mine = melon / ".reports.evalreport-new-mine"  # not a name of ours: kept
    mine.mkdir()
    assert _run(melon / "spec.yaml", "--format", "json") == 0
    # notes.txt and report.html went back into the folder, which now holds a user's
    # file: file mode; the PDF its manifest proved went
    assert sorted(p.name for p in out.iterdir()) == [output.MANIFEST, "notes.txt", "report.html", "results.json"]
    assert (out / "notes.txt").read_text() == "mine\n"
    assert (out / "report.html").read_text() == "my notes\n"
    assert _hidden(melon) == [".reports.evalreport-new-mine"]


# A child that runs the CLI and dies (os._exit: no clean-up, like SIGKILL) at one step.
KILL_AT = textwrap.dedent("""\
    import os, sys
    from evalreport.report import output
    step = sys.argv[1]
    real_exchange, real_replace = output.exchange, os.replace
    if step == "before exchange":
        output.exchange = lambda a, b: os._exit(9)
    elif step == "after exchange":
        def exchange(a, b):
            real_exchange(a, b)
            os._exit(9)
        output.exchange = exchange
    elif step == "between renames":
        def replace(a, b):
            real_replace(a, b)
            if os.path.basename(b) == "results.json":  # the first of the set
                os._exit(9)
        os.replace = replace
    from evalreport.__main__ import main
    sys.exit(main(sys.argv[2:]))
""")


@pytest.mark.slow
@pytest.mark.parametrize("step", ["before exchange", "after exchange", "between renames"])
def test_killed_while_replacing(melon, step):
    out = melon if step == "between renames" else melon / "reports"
    spec = melon / "spec.yaml"
    args = ["run", str(spec), "--quiet", "--format", "json,html", "--out", str(out)]
    assert main(args) == 0
    old = {name: (out / name).read_bytes() for name in ("results.json", "report.html")}
    (out / "report.pdf").write_bytes(b"my own paper\n")  # carried over (swap) or left in place
    _edit(spec, "Watermelons:", "Melons:")
    proc = subprocess.run([sys.executable, "-c", KILL_AT, step, *args], env=_env(),
                          capture_output=True, text=True, timeout=600)  # timeouts here: hang guards
    assert proc.returncode == 9, proc.stderr
    now = {name: (out / name).read_bytes() for name in old}
    titles = {json.loads(now["results.json"])["title"], _title(now["report.html"].decode())}
    if step == "before exchange":
        assert now == old
    elif step == "after exchange":
        assert titles == {"Melons: learner A against learner B"}
    else:
        # file by file: the first rename happened, the manifest is gone until the last
        assert json.loads(now["results.json"])["title"] == "Melons: learner A against learner B"
        assert _title(now["report.html"].decode()) == "Watermelons: learner A against learner B"
        assert not (out / output.MANIFEST).exists()
    assert main(args) == 0  # the next run completes the set and removes the leftovers
    now = {name: (out / name).read_bytes() for name in old}
    assert {json.loads(now["results.json"])["title"], _title(now["report.html"].decode())} == {
        "Melons: learner A against learner B"}
    assert (out / "report.pdf").read_bytes() == b"my own paper\n"
    assert _hidden(melon) == ([output.MANIFEST] if out == melon else [])
    assert _hidden(out) == [output.MANIFEST]


def test_lock_timeout(melon, monkeypatch, capsys):
    out = melon / "reports"
    lock = melon / ".reports.evalreport.lock"
    monkeypatch.setattr(output_lock, "LOCK_TIMEOUT", 0.2)  # where locked reads it
    with output.locked(lock, out, None):
        assert _run(melon / "spec.yaml", "--format", "json") == 2
    assert _err(capsys) == [
        f"error: {out}: another evalreport run has been writing here for over 0.2 s "
        f"(it holds the lock {lock}); try again when it is done"
    ]
    assert not out.exists()
    assert not lock.exists()  # the lock file goes with its holder


@pytest.mark.slow
def test_lock_wait(melon):
    out = melon / "reports"
    result = evalreport.evaluate(evalreport.load_spec(melon / "spec.yaml"))
    held, release = threading.Event(), threading.Event()

    def holder():
        with output.locked(melon / ".reports.evalreport.lock", out, None):
            held.set()
            release.wait(600)  # a hang guard: set as soon as the other run says it waits

    thread = threading.Thread(target=holder)
    thread.start()
    assert held.wait(600)
    messages = []

    def progress(message):  # the holder lets go once this run says it waits
        messages.append(message)
        release.set()

    evalreport.report.render(result, formats=["json"], progress=progress)
    thread.join()
    assert messages == [f"waiting for another run writing to {out}"]
    assert (out / "results.json").is_file()
    assert _hidden(melon) == []


WRITER = textwrap.dedent("""\
    import sys
    from evalreport.report.output import write_report_set
    out, tag, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
    for i in range(rounds):
        mark = f"{tag}-{i}".encode()
        write_report_set(out, {"results.json": mark, "report.html": mark * 1000, "report.pdf": mark * 50000})
""")


@pytest.mark.slow
def test_concurrent_writers_and_a_reader_never_see_a_mixed_set(tmp_path):
    out = tmp_path / "reports"
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, str(out), f"w{k}", "15"], env=_env())
               for k in range(3)]
    seen, mixed = 0, []
    while any(w.poll() is None for w in writers):
        try:  # open the folder once, then its files: one set
            fd = os.open(out, os.O_RDONLY)
        except FileNotFoundError:
            continue
        time.sleep(0.002)  # leave the writers some CPU
        try:
            parts = []
            for name in SET:
                with open(os.open(name, os.O_RDONLY, dir_fd=fd), "rb") as f:
                    parts.append(f.read())
        except FileNotFoundError:  # the folder was swapped out and deleted meanwhile
            continue
        finally:
            os.close(fd)
        mark = parts[2]
        seen += 1
        if parts != [mark * 1000, mark * 50000, mark]:
            mixed.append([p[:8] for p in parts])
    assert [w.wait() for w in writers] == [0, 0, 0]
    assert mixed == []
    assert seen > 0
    mark = (out / "results.json").read_bytes()
    assert (out / "report.html").read_bytes() == mark * 1000
    assert (out / "report.pdf").read_bytes() == mark * 50000
    assert sorted(p.name for p in tmp_path.iterdir()) == ["reports"]
    assert sorted(p.name for p in out.iterdir()) == WITH_MANIFEST


@pytest.mark.slow
def test_two_runs_into_one_folder(tmp_path):
    """Two whole CLI runs of different specs into one folder: one complete set."""
    out = tmp_path / "shared"
    specs = []
    for name in ("first", "second"):
        proj = tmp_path / name
        proj.mkdir()
        shutil.copy(WATERMELON / "predictions.csv", proj)
        text = (WATERMELON / "spec.yaml").read_text().replace("Watermelons:", f"{name}:")
        (proj / "spec.yaml").write_text(text)
        specs.append(proj / "spec.yaml")
    # two files of a set are enough to see a mixed one; the PDF would add seconds of CPU
    # to each run (runs stopped while it is drawn: test_signal_mid_run)
    procs = [subprocess.Popen([sys.executable, "-m", "evalreport", "run", str(s), "--quiet", "--format",
                               "json,html", "--out", str(out)], env=_env(), stderr=subprocess.PIPE, text=True)
             for s in specs]
    assert [(p.wait(timeout=600), p.stderr.read()) for p in procs] == [(0, ""), (0, "")]
    title = json.loads((out / "results.json").read_text())["title"]
    assert title in ("first: learner A against learner B", "second: learner A against learner B")
    assert _title((out / "report.html").read_text()) == title
    assert sorted(p.name for p in tmp_path.iterdir()) == ["first", "second", "shared"]
    assert sorted(p.name for p in out.iterdir()) == sorted([output.MANIFEST, "report.html", "results.json"])


# ---------------------------------------------------------------------------
# 3. Interrupts


OLD_TITLE = "An older report"
#: each project's title, which the run being interrupted writes
NEW_TITLE = {"breast_cancer": "Breast cancer: four classifiers compared",
             "watermelon": "Watermelons: learner A against learner B"}
ONE_LINE = {
    "nothing": "interrupted ({}); nothing was written, the previous report is intact",
    "written": "interrupted ({}) after the report was written",
}


def _previously_reported(tmp_path_factory, example: str, formats: tuple[str, ...]) -> Path:
    """The example in a project folder with a previous report set (of another title) in
    reports/, of the files ``formats`` name. The set is written by the writer a run uses
    (its files, then its manifest), as a run of the spec with another title leaves it:
    the tests compare its bytes and read its titles, nothing else of it (a whole run to
    make it took seconds of CPU, a PDF)."""
    base = tmp_path_factory.mktemp(example) / "proj"
    shutil.copytree(ROOT / "examples" / example, base, ignore=shutil.ignore_patterns("reports"))
    files = {"json": ("results.json", json.dumps({"title": OLD_TITLE}).encode() + b"\n"),
             "html": ("report.html", f"<!DOCTYPE html><html><head><title>{OLD_TITLE}</title></head></html>\n".encode()),
             "pdf": ("report.pdf", b"%PDF-1.7\n% " + OLD_TITLE.encode() + b"\n")}
    output.write_report_set(base / "reports", dict(files[f] for f in formats))
    return base


@pytest.fixture(scope="module")
def cancer(tmp_path_factory) -> Path:
    """breast_cancer (four learners: each stage lasts long enough to be interrupted in),
    every format its spec names."""
    return _previously_reported(tmp_path_factory, "breast_cancer", ("json", "html", "pdf"))


#: what the runs interrupted at a chosen point write (the PDF only where the signal comes
#: while it is drawn): the moments are the folder swap's and the process's, whichever
#: files the set holds
MELON_FORMATS = ("json", "html")


@pytest.fixture(scope="module")
def reported_melon(tmp_path_factory) -> Path:
    """watermelon, for signals sent at a chosen point: the size of the run does not matter."""
    return _previously_reported(tmp_path_factory, "watermelon", MELON_FORMATS)


def _check_interrupted(proj: Path, before: dict, proc, code: int, name: str, err: str) -> None:
    """Exit ``code`` with one line and the old set, or (finished first) 0 and the new set."""
    assert "Traceback" not in err
    reports = proj / "reports"
    after = _tree(proj)
    assert sorted(after) == sorted(before)  # nothing left behind, hidden or not
    assert sorted(p.name for p in proj.parent.iterdir() if p.suffix != ".py") == ["proj"]
    assert {k: v for k, v in after.items() if not k.startswith("reports")} == {
        k: v for k, v in before.items() if not k.startswith("reports")}
    if proc.returncode == code and err == ONE_LINE["nothing"].format(name) + "\n":
        assert after == before  # the previous report, byte for byte
        return
    assert (proc.returncode, err) in ((0, ""), (code, ONE_LINE["written"].format(name) + "\n"))
    import pypdf
    title = next(t for t in NEW_TITLE.values() if t in (proj / "spec.yaml").read_text())  # the spec's
    # the new set whole: each file of it (the same names as the previous set's, above) the new run's
    assert json.loads((reports / "results.json").read_text())["title"] == title
    assert _title((reports / "report.html").read_text()) == title
    if "reports/report.pdf" in after:
        assert pypdf.PdfReader(reports / "report.pdf").metadata.title == title


def _copy(reported: Path, tmp_path: Path) -> tuple[Path, dict]:
    """A fresh copy of a project and its files."""
    proj = tmp_path / "proj"
    shutil.copytree(reported, proj)
    return proj, _tree(proj)


# The run tells each stage as it enters it (the stage's name, a line on a pipe), so
# that the test sends its signal from outside once the run is there, whatever the
# load on the machine: the test blocks on the pipe, no sleep and no polling.
STAGE_MARKS = textwrap.dedent("""\
    import os, sys
    import evalreport.pipeline, evalreport.report, evalreport.report.pdf, evalreport.spec
    marks = int(sys.argv[1])
    def mark(module, name, stage):
        real = getattr(module, name)
        def marked(*args, **kwargs):
            os.write(marks, stage.encode() + b"\\n")
            return real(*args, **kwargs)
        setattr(module, name, marked)
    mark(evalreport.spec, "load_spec", "spec")  # the signal handlers are in by then
    mark(evalreport.pipeline, "evaluate", "evaluate")
    mark(evalreport.report, "render", "render")
    mark(evalreport.report.pdf, "html_to_pdf", "pdf")
    from evalreport.__main__ import main
    sys.exit(main(sys.argv[2:]))
""")


def _wait_for(stage: str, marks: int, proc) -> None:
    """Until the run writes ``stage`` on the pipe ``marks`` (a blocking read); a 600 s hang guard."""
    told = b""
    while stage.encode() not in told.split(b"\n"):
        ready, _, _ = select.select([marks], [], [], 600)
        assert ready, f"no {stage} after 600 s"
        chunk = os.read(marks, 4096)
        assert chunk, f"the run ended ({proc.wait()}) before {stage}"
        told += chunk


@pytest.mark.slow
@pytest.mark.parametrize("signum,code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)],
                         ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("stage", ["spec", "evaluate", "render", "pdf"])
def test_signal_mid_run(cancer, tmp_path, tmp_path_factory, signum, code, stage):
    proj, before = _copy(cancer, tmp_path)
    aux = tmp_path_factory.mktemp("marks")  # beside the project, which must stay as it was
    (aux / "stage_marks.py").write_text(STAGE_MARKS)
    env = _env()
    env["PYTHONPATH"] += os.pathsep + str(aux)
    marks, told = os.pipe()
    try:
        proc = subprocess.Popen([sys.executable, "-m", "stage_marks", str(told), "run", str(proj / "spec.yaml"),
                                 "--quiet"], env=env, stderr=subprocess.PIPE, text=True, pass_fds=(told,))
        os.close(told)  # the child's end: the read sees the end of the file when the run ends
        _wait_for(stage, marks, proc)
        proc.send_signal(signum)
        err = proc.communicate(timeout=600)[1]  # a hang guard
    finally:  # open until the run ended: a later stage's line never meets a closed pipe
        os.close(marks)
    _check_interrupted(proj, before, proc, code, signal.Signals(signum).name, err)


# Run with -m, as `python -m evalreport` is. The signal arrives inside code run by
# exec() of a string (the dataclasses of a module being imported): CPython then dies by
# SIGINT after main returned, whatever it returned, unless told otherwise; or inside a
# finaliser (__del__, a weakref callback: the garbage
# collector runs them anywhere), where Python prints a KeyboardInterrupt as "Exception
# ignored" and drops it; or while WeasyPrint draws the first SVG figure of the PDF: its
# SVG drawing catches every exception, KeyboardInterrupt included, and used to go on
# (exit 0, a PDF without the figure). Or it arrives just before the folders are
# exchanged: it is held back until the new set is in.
SIGNAL_AT = textwrap.dedent("""\
    import os, signal, sys
    where, signum = sys.argv[1], getattr(signal, sys.argv[2])
    if where == "svg":
        import weasyprint.svg
        real = weasyprint.svg.SVG.draw
        def draw(self, *args, **kwargs):
            os.kill(os.getpid(), signum)
            return real(self, *args, **kwargs)
        weasyprint.svg.SVG.draw = draw
    elif where == "exec":
        import evalreport.pipeline
        real = evalreport.pipeline.evaluate
        def evaluate(*args, **kwargs):
            exec("os.kill(os.getpid(), signum)\\nfor _ in range(10**7): pass", dict(os=os, signum=signum))
            return real(*args, **kwargs)
        evalreport.pipeline.evaluate = evaluate
    elif where == "finaliser":
        import evalreport.pipeline
        real = evalreport.pipeline.evaluate
        class Finalised:
            def __del__(self):
                os.kill(os.getpid(), signum)
        def evaluate(*args, **kwargs):
            Finalised()
            return real(*args, **kwargs)
        evalreport.pipeline.evaluate = evaluate
    elif where == "swapped":  # right after the new set is swapped in (issue 36)
        from evalreport.report import output
        real = output.exchange
        def exchange(a, b):
            done = real(a, b)
            os.kill(os.getpid(), signum)
            return done
        output.exchange = exchange
    elif where == "returned":  # after main returned its status, before the process ends (issue 36)
        import evalreport.__main__ as entry
        real = entry.main
        def main(argv=None):
            status = real(argv)
            os.kill(os.getpid(), signum)
            return status
        entry.main = main
    else:
        from evalreport.report import output
        real = output.exchange
        def exchange(a, b):
            os.kill(os.getpid(), signum)
            return real(a, b)
        output.exchange = exchange
    from evalreport.__main__ import cli
    cli(sys.argv[3:])  # the process's entry, as the evalreport script and python -m call it
""")


@pytest.mark.slow
@pytest.mark.parametrize("where", ["exec", "finaliser", "svg", "exchange", "swapped", "returned"])
@pytest.mark.parametrize("signum,code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)],
                         ids=["SIGINT", "SIGTERM"])
def test_signal_at_a_chosen_moment(reported_melon, tmp_path, signum, code, where):
    proj, before = _copy(reported_melon, tmp_path)
    name = signal.Signals(signum).name
    (tmp_path / "signal_at.py").write_text(SIGNAL_AT)
    env = _env()
    env["PYTHONPATH"] += os.pathsep + str(tmp_path)
    formats = ",".join(MELON_FORMATS + (("pdf",) if where == "svg" else ()))  # (svg: inside the PDF's drawing)
    proc = subprocess.run([sys.executable, "-m", "signal_at", where, name, "run",
                           str(proj / "spec.yaml"), "--quiet", "--format", formats],
                          env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == code
    expected = ONE_LINE["written" if where in ("exchange", "swapped", "returned") else "nothing"].format(name)
    assert proc.stderr == expected + "\n"
    _check_interrupted(proj, before, proc, code, name, proc.stderr)


# An embedding host whose SIGINT / SIGTERM handlers were not installed from Python:
# signal.getsignal() and signal.signal() give None for them, and signal.signal()
# refuses None as a handler.


def _host_signals(monkeypatch, current) -> list:
    calls = []

    def set_handler(signum, handler):
        if handler is None:
            raise TypeError("signal handler must be signal.SIG_IGN, signal.SIG_DFL, or a callable object")
        calls.append((signum, handler))
        return None  # the host's handler, unknown to Python

    monkeypatch.setattr(signal, "getsignal", lambda signum: current)
    monkeypatch.setattr(signal, "signal", set_handler)
    monkeypatch.setattr(sys, "unraisablehook", sys.unraisablehook)  # put back whatever happens
    return calls


def test_a_hosts_signal_handlers_are_left_alone(monkeypatch, capsys):
    calls = _host_signals(monkeypatch, None)
    hook = sys.unraisablehook
    assert main(["schema"]) == 0
    assert calls == []  # not replaced: it could not be put back
    assert sys.unraisablehook is hook
    assert capsys.readouterr().err == ""


def test_a_handler_python_cannot_put_back_is_skipped(monkeypatch):
    from evalreport.__main__ import _Signals

    calls = _host_signals(monkeypatch, signal.SIG_DFL)  # signal() answers None all the same
    signals = _Signals()
    assert signals.install()
    signals.restore()
    assert calls == [(signal.SIGINT, signals.handler), (signal.SIGTERM, signals.handler)]
    assert signals.saved is None


@pytest.mark.parametrize("out", ["x/../y", "y/../y", "./x/.././y"])
def test_an_output_path_with_dot_dot_is_told_as_the_folder_written(tmp_path, capsys, out):
    # issue 36: report.out: x/../y (no folder x) wrote into y/ and printed .../x/../y/results.json
    (tmp_path / "pred.csv").write_text("id,y,p\n" + "".join(f"{i},{i % 2},{(i * 7 % 10) / 10}\n"
                                                           for i in range(1, 21)))
    (tmp_path / "spec.yaml").write_text(textwrap.dedent(f"""\
        version: 1
        data:
          - path: pred.csv
            label: y
            id: id
            learners: {{a: p}}
        confidence: {{bootstrap: 0}}
        report: {{formats: [json], out: "{out}"}}
        """))
    assert main(["run", str(tmp_path / "spec.yaml")]) == 0
    captured = capsys.readouterr()
    assert f"wrote {tmp_path.resolve() / 'y' / 'results.json'}\n" in captured.out
    assert (tmp_path / "y" / "results.json").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pred.csv", "spec.yaml", "y"]  # no folder x
