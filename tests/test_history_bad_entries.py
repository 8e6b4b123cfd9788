"""Corrupt history archive entries never crash a run (issue 36): an entry that
cannot be read, or holds a value the history cannot use, is a warning naming the
entry and the key, and the run goes on as if it were absent. The same reader
checks ``evalreport diff``'s files (exit 2, the file and key named). Also: the
archive's warnings reach results.json; a second run on the same date and a
backfill beyond ``keep`` are said."""

import copy
import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evalreport.__main__ import main
from evalreport.history.archive import runs
from evalreport.history.changes import changes
from evalreport.history.entry import BadEntry, check_run, parse_run
from evalreport.history.trend import trend_runs

SPEC = """\
version: 1
date: {date}
data:
  - path: pred.csv
    label: y
    learners: {{a: p_a, b: p_b}}
threshold: 0.5
report: {{formats: [json], out: out}}
history: {{dir: archive, keep: {keep}}}
gates:
  - {{metric: auc, max_drop: 0.5}}
  - {{metric: recall, significant_drop: true}}
"""

ROWS = [(1, 0.9, 0.4), (0, 0.2, 0.6), (1, 0.6, 0.3), (0, 0.4, 0.5), (1, 0.8, 0.7), (0, 0.1, 0.2),
        (1, 0.55, 0.9), (0, 0.45, 0.1), (1, 0.7, 0.35), (0, 0.3, 0.65)]


def _spec(folder, date, keep=5):
    (folder / "pred.csv").write_text("y,p_a,p_b\n" + "".join(f"{y},{a},{b}\n" for y, a, b in ROWS))
    path = folder / "spec.yaml"
    path.write_text(SPEC.format(date=date, keep=keep))
    return path


def _run(folder, date, capsys, keep=5):
    status = main(["run", str(_spec(folder, date, keep))])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return status, captured.err.splitlines()


@pytest.fixture(scope="module")
def good_entry(tmp_path_factory):
    """A real run's results.json, as the archive holds it."""
    folder = tmp_path_factory.mktemp("good")
    assert main(["run", str(_spec(folder, "2026-01-01"))]) in (0, 3)
    return (folder / "archive" / "2026-01-01" / "results.json").read_bytes()


def _set(data, path, value):
    *head, last = path
    for key in head:
        data = data[key]
    data[last] = value


def _edited(good, path, value) -> bytes:
    data = json.loads(good)
    _set(data, path, value)
    return json.dumps(data).encode()


CORRUPT = {
    # the campaign's: wrong types (TypeError in DeLong's _test_result), a bad score summary
    # (ValueError in drift's from_summary), a negative variance, NaN tokens, deep nesting
    "auc as text": (lambda g: _edited(g, ("learners", "a", "auc"), "0.9"),
                    "learners.a.auc must be a number or null, not \"0.9\""),
    "variance as text": (lambda g: _edited(g, ("learners", "b", "auc_variance"), "x"),
                         "learners.b.auc_variance must be a number or null, not \"x\""),
    "score summary values": (lambda g: _edited(g, ("learners", "a", "score_summary", "positive", "values"),
                                               ["a", "b"]),
                             "learners.a.score_summary.positive.values[0] must be a number, not \"a\""),
    "score summary lengths": (lambda g: _edited(g, ("learners", "a", "score_summary", "negative", "weights"), [1]),
                              "learners.a.score_summary.negative: "),
    "score summary kind": (lambda g: _edited(g, ("learners", "a", "score_summary", "negative", "kind"), "bins"),
                           "learners.a.score_summary.negative.kind must be 'values' or 'quantiles', not \"bins\""),
    "negative variance": (lambda g: _edited(g, ("learners", "a", "auc_variance"), -0.01),
                          "learners.a.auc_variance must be at least 0, not -0.01"),
    "NaN token": (lambda g: g.replace(b'"auc": ', b'"auc": NaN, "x": ', 1),
                  "not JSON (the token NaN is not a JSON number)"),
    "Infinity token": (lambda g: g.replace(b'"auc": ', b'"auc": -Infinity, "x": ', 1),
                       "not JSON (the token -Infinity is not a JSON number)"),
    "overflowing number": (lambda g: g.replace(b'"auc": ', b'"auc": 1e999, "x": ', 1),
                           "not JSON (the number 1e999 is out of range)"),
    "deep nesting": (lambda g: b'{"learners": ' + b"[" * 200_000 + b"]" * 200_000 + b"}",
                     "not JSON (nested too deeply)"),
    "confusion count as text": (lambda g: _edited(g, ("learners", "a", "confusion", "tp"), "3"),
                                "learners.a.confusion.tp must be a number or null, not \"3\""),
    "class count negative": (lambda g: _edited(g, ("learners", "a", "class_counts", "positive"), -5),
                             "learners.a.class_counts.positive must be at least 0, not -5"),
    "bootstrap interval": (lambda g: _edited(g, ("learners", "a", "bootstrap", "f1"), "wide"),
                           "learners.a.bootstrap.f1 must be an interval [lo, hi] or null, not \"wide\""),
    "learner not an object": (lambda g: _edited(g, ("learners", "a"), [1, 2]),
                              "learners.a must be an object, not a JSON array"),
    "title not text": (lambda g: _edited(g, ("title",), {"x": 1}),
                       "title must be a text or null, not a JSON object"),
    "boolean as number": (lambda g: _edited(g, ("learners", "a", "recall"), True),
                          "learners.a.recall must be a number or null, not true"),
    "not UTF-8": (lambda g: b'{"learners": {"a": {"title": "\xff"}}}', "not JSON ("),
}


@pytest.mark.parametrize("case", sorted(CORRUPT))
def test_corrupt_entry_is_a_warning_and_left_out(tmp_path, capsys, good_entry, case):
    make, reason = CORRUPT[case]
    entry = tmp_path / "archive" / "2026-01-01" / "results.json"
    entry.parent.mkdir(parents=True)
    entry.write_bytes(make(good_entry))
    status, err = _run(tmp_path, "2026-01-08", capsys)
    assert status in (0, 3)
    said = f"history: {entry} skipped: {reason}"
    assert any(line.startswith(f"warning: {said}") for line in err), err
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    # the archive's warning reaches results.json (pipeline.with_history read it off a tuple before: never)
    assert any(w.startswith(said) for w in results["warnings"])
    # as if the entry were absent: no previous run, the trend holds this run only
    assert results["history"]["previous"] is None
    assert [r["date"] for r in results["history"]["runs"]] == ["2026-01-08"]
    assert entry.read_bytes() == make(good_entry)  # a damaged entry is left for a person to look at


@pytest.mark.parametrize("case", ["auc as text", "negative variance", "NaN token", "deep nesting",
                                  "score summary values"])
def test_diff_refuses_a_corrupt_file(tmp_path, capsys, good_entry, case):
    make, reason = CORRUPT[case]
    (tmp_path / "old.json").write_bytes(make(good_entry))
    (tmp_path / "new.json").write_bytes(good_entry)
    status = main(["diff", str(tmp_path / "old.json"), str(tmp_path / "new.json"), "--gate", "auc:max_drop=0.1"])
    captured = capsys.readouterr()
    assert status == 2
    assert captured.out == ""
    assert captured.err.splitlines()[0].startswith(f"error: {tmp_path / 'old.json'}: {reason}")
    assert "Traceback" not in captured.err


def test_good_entry_is_compared(tmp_path, capsys, good_entry):
    entry = tmp_path / "archive" / "2026-01-01" / "results.json"
    entry.parent.mkdir(parents=True)
    entry.write_bytes(good_entry)
    status, err = _run(tmp_path, "2026-01-08", capsys)
    assert status in (0, 3)
    assert not any("history:" in line for line in err)
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    assert results["history"]["previous"]["date"] == "2026-01-01"


@pytest.mark.slow
def test_same_date_rerun_and_backfill_are_said(tmp_path, capsys):
    assert _run(tmp_path, "2026-01-08", capsys, keep=2)[0] in (0, 3)
    assert _run(tmp_path, "2026-01-15", capsys, keep=2)[0] in (0, 3)
    status, err = _run(tmp_path, "2026-01-15", capsys, keep=2)  # the same date again
    replaced = (f"warning: history: the archive's entry for 2026-01-15 ({tmp_path / 'archive' / '2026-01-15'}) "
                "is replaced by this run (a second run on the same date)")
    assert replaced in err
    status, err = _run(tmp_path, "2026-01-01", capsys, keep=2)  # a backfill older than the 2 kept
    dropped = ("warning: history: this run (2026-01-01) is older than the 2 newest runs of the archive "
               "(history.keep: 2): it is compared with them but not kept")
    assert dropped in err
    assert sorted(p.name for p in (tmp_path / "archive").iterdir()) == ["2026-01-08", "2026-01-15"]
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    assert dropped.removeprefix("warning: ") in results["warnings"]
    status, err = _run(tmp_path, "2026-01-22", capsys, keep=2)  # an ordinary next run: nothing said
    assert not any("history:" in line for line in err)


# --- the reader's promise: what it accepts, the history can compute on -------------------------

_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.floats(allow_nan=False, allow_infinity=False),
                    st.sampled_from([1e308, -1e308, 2 ** 53, 2 ** 53 + 2, 1e15, -1e15, 1e300, 5e-324, 1 + 1e-12]),
                    st.text(max_size=3), st.lists(st.integers(-1, 3), max_size=3), st.just({}),
                    st.just({"kind": "values", "values": [0.1], "weights": [1]}))


def _paths(data, prefix=()):
    """Every key path of a parsed results.json's learners (lists by index), up to a depth."""
    if len(prefix) > 6:
        return
    if isinstance(data, dict):
        for k, v in data.items():
            yield (*prefix, k)
            yield from _paths(v, (*prefix, k))
    elif isinstance(data, list) and len(data) <= 4:
        for i, v in enumerate(data):
            yield (*prefix, i)
            yield from _paths(v, (*prefix, i))


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_an_entry_the_reader_accepts_never_crashes_the_history(good_entry, data):
    good = json.loads(good_entry)
    paths = [("learners", *p) for p in _paths(good["learners"]) if len(p) < 2 or p[1] not in ("curves", "calibration", "gains")]
    entry = copy.deepcopy(good)
    for _ in range(data.draw(st.integers(1, 3))):
        try:
            _set(entry, data.draw(st.sampled_from(paths)), data.draw(_VALUES))
        except (KeyError, IndexError, TypeError):  # an earlier edit replaced a container on the path
            pass
    try:
        check_run(entry)
    except BadEntry as e:
        assert e.reason  # refused, with a reason: the archive says it and leaves the entry out
        return
    # accepted: the comparison, the trend and the results.json writer take it, both ways round
    for before, now in ((entry, good), (good, entry)):
        out = changes(before, now, level=0.95)
        json.dumps(out, allow_nan=False)
        json.dumps(trend_runs([("2026-01-01", before)], "2026-01-08", now, keep=5), allow_nan=False)


def test_the_reader_accepts_every_golden_results_json():
    import pathlib

    for path in sorted(pathlib.Path(__file__).parent.glob("golden/bytes/*.results.json")):
        parse_run(path.read_bytes())


def test_runs_reads_each_entry_once_and_names_it(tmp_path):
    good = {"learners": {"a": {"auc": 0.8, "auc_variance": 0.001}}}
    for day, body in (("2026-01-01", good), ("2026-01-08", {"learners": {"a": {"auc_variance": -1}}})):
        (tmp_path / day).mkdir()
        (tmp_path / day / "results.json").write_text(json.dumps(body))
    got = runs(tmp_path)
    assert [d for d, _ in got] == ["2026-01-01"]
    assert got.warnings == [f"history: {tmp_path / '2026-01-08' / 'results.json'} skipped: "
                            "learners.a.auc_variance must be at least 0, not -1"]
    assert not math.isnan(got[0][1]["learners"]["a"]["auc"])


# --- the archive's folder, checked before the evaluation (exit 2, nothing written) ------------

def _chattr(path, flag) -> bool:
    import shutil
    import subprocess

    if shutil.which("chattr") is None:
        return False
    return subprocess.run(["chattr", flag, str(path)], capture_output=True).returncode == 0


@pytest.fixture
def no_evaluation(monkeypatch):
    import evalreport.pipeline

    def evaluate(*args, **kwargs):
        pytest.fail("the evaluation ran although the history archive cannot be written")

    monkeypatch.setattr(evalreport.pipeline, "evaluate", evaluate)


def _history_line(spec) -> int:
    return next(i for i, line in enumerate(spec.read_text().splitlines(), 1) if line.startswith("history:"))


@pytest.mark.parametrize("command", ["run", "validate"])
@pytest.mark.parametrize("kind", ["a file", "/dev/null", "under a file", "immutable", "immutable entry",
                                  "read-only file system"])
def test_history_dir_that_cannot_be_written_is_refused_first(tmp_path, capsys, no_evaluation, monkeypatch,
                                                            command, kind):
    spec = _spec(tmp_path, "2026-01-08")
    archive = tmp_path / "archive"
    if kind == "a file":
        archive.write_text("not a folder")
        problem = f"{archive}: is a file, not a folder"
    elif kind == "/dev/null":
        spec.write_text(spec.read_text().replace("dir: archive", "dir: /dev/null"))
        archive = None
        problem = "/dev/null: is a character device, not a folder"
    elif kind == "under a file":
        (tmp_path / "f").write_text("x")
        spec.write_text(spec.read_text().replace("dir: archive", "dir: f/archive"))
        archive = None
        problem = f"{tmp_path / 'f' / 'archive'}: cannot create the folder: {tmp_path / 'f'} is a file, not a folder"
    elif kind == "read-only file system":
        import errno
        import os

        archive.mkdir()
        real_open = os.open

        def guarded(path, *args, **kwargs):  # what a read-only mount answers, as root too
            if str(path).startswith(str(archive)):
                raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
            return real_open(path, *args, **kwargs)

        monkeypatch.setattr(os, "open", guarded)
        problem = f"{archive}: cannot write in this folder: Read-only file system"
    else:
        target = archive if kind == "immutable" else archive / "2026-01-08"
        target.mkdir(parents=True)
        if not _chattr(target, "+i"):
            pytest.skip("chattr +i is not available here")
        problem = f"{target}: cannot write in this folder: Operation not permitted"
    before = sorted(p.name for p in tmp_path.iterdir())
    try:
        status = main([command, str(spec)])
    finally:
        if kind.startswith("immutable"):
            _chattr(target, "-i")
    captured = capsys.readouterr()
    assert status == 2
    assert captured.err.splitlines() == [f"error: {spec}:{_history_line(spec)}: history.dir: {problem}"]
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing written: no out/, no archive entry
    assert "wrote" not in captured.out
