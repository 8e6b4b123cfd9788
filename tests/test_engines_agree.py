"""The three engines refuse the same bad files alike (issue 36): exit 2, the same
located message, no traceback, nothing written.

What the in-memory road refuses (a .csv of another separator, UTF-16, gzip not
named so, a missing or repeated id), text that is not UTF-8 anywhere in the file,
and the limits every engine keeps (:data:`evalreport.spec.headers.MAX_COLUMNS`
columns of a CSV/TSV header, a Parquet schema or a JSON lines file's first object;
:data:`MAX_HEADER_BYTES` bytes of a header), through ``engine: memory``, ``duckdb``
and ``spark``. Spark starts one JVM for the module, in one test, in a child
process: its stderr (the JVM's too, which capsys does not see) must hold
evalreport's lines only.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

from evalreport.data import file_problems
from evalreport.spec import headers
from evalreport.spec.headers import MAX_COLUMNS, MAX_HEADER_BYTES
from test_data_corpus import ENGINE_AGREES, GOOD, LABELS, PREVIOUS, ROWS, SCORES, _refused, _run, _spec, _write

SPARK = 'spark: {master: "local[2]", conf: {spark.ui.enabled: "false", spark.sql.shuffle.partitions: "2"}}\n'

WHY = ("a prediction file holds a label, an id, weights, groups and score columns: headers of at most "
       f"{MAX_COLUMNS:,} columns and {MAX_HEADER_BYTES // 2**20} MiB are read (keep the columns the spec names)")


#: why the Parquet and JSON lines files are refused past MAX_COLUMNS
WHY_FILES = ("a prediction file holds a label, an id, weights, groups and score columns: files of at most "
             f"{MAX_COLUMNS:,} columns are read (keep the columns the spec names)")


def _wide(columns: int) -> str:
    """GOOD with extra columns, to ``columns`` in all."""
    extra = columns - 3
    return ("id,y,p," + ",".join(f"c{j}" for j in range(extra)) + "\n"
            + "".join(f"{i},{y},{p}" + ",0" * extra + "\n" for i, y, p in ROWS))


def _long(length: int) -> str:
    """GOOD with a fourth column whose name makes the header ``length`` bytes."""
    name = "x" * (length - len("id,y,p,"))
    return f"id,y,p,{name}\n" + "".join(f"{i},{y},{p},0\n" for i, y, p in ROWS)


HEADERS = [
    ("one column too many", _wide(MAX_COLUMNS + 1),
     f"error: spec.yaml:4: data[0].path: pred.csv: the header (line 1) has {MAX_COLUMNS + 1:,} columns; {WHY}"),
    ("a quoted comma is no column", '"a,b",' + _wide(MAX_COLUMNS + 1).replace(",c0,", ",", 1),
     f"error: spec.yaml:4: data[0].path: pred.csv: the header (line 1) has {MAX_COLUMNS + 1:,} columns; {WHY}"),
    ("one byte too long", _long(MAX_HEADER_BYTES + 1),
     f"error: spec.yaml:4: data[0].path: pred.csv: the header (line 1) is longer than {MAX_HEADER_BYTES:,} "
     f"bytes; {WHY}"),
]


# rows Spark's CSV reader reads without a word (a short row padded with nulls, a long one cut:
# a decimal comma shifts the score), which the in-memory reader refuses by line
ROWS_CASES = [
    ("a short row", GOOD + "21,1\n",
     "error: spec.yaml:4: data[0].path: pred.csv: line 22: 2 fields where the header has 3: '21,1'"),
    ("a decimal comma", GOOD + "21,1,0,5\n",
     "error: spec.yaml:4: data[0].path: pred.csv: line 22: 4 fields where the header has 3: '21,1,0,5'"),
    ("a quote never closed", GOOD + '21,1,"0.5',
     "error: spec.yaml:4: data[0].path: pred.csv: row 21, the last, ends inside a quoted field that is not "
     "closed: '21,1,\"0.5' (the file ends in this line, without a line end: cut short?)"),
]


#: (name, file name, content, positive label or None, the message of every engine): a file
#: that is not UTF-8 is refused whole, a column the spec does not name too, by its line and
#: byte (DuckDB refused it naming another line; Spark read 'caf\ufffd' and said the positive
#: label did not occur; the memory engine read it when the column was not named)
_LATIN = {"id": 0, "y": 1, "p": 2}
CAFE, THE, ETE = "caf\xe9", "th\xe9", "\xe9t\xe9"
LATIN1 = [
    ("a Latin-1 label", "pred.csv",
     ("id,y,p\n" + "".join(f"{i},{CAFE if y else THE},{p}\n" for i, y, p in ROWS)).encode("latin-1"),
     CAFE, "error: spec.yaml:5: data[0].path: pred.csv: line 2 is not UTF-8 text (byte 0xe9 after '1,caf'); "
     "save the file as UTF-8"),
    ("Latin-1 in a column the spec does not name", "pred.csv",
     ("id,y,p,note\n" + "".join(f"{i},{y},{p},{CAFE if i == 7 else 'x'}\n" for i, y, p in ROWS)).encode("latin-1"),
     None, "error: spec.yaml:4: data[0].path: pred.csv: line 8 is not UTF-8 text (byte 0xe9 after '7,1,0.9,caf'); "
     "save the file as UTF-8"),
    ("Latin-1 in a gzipped file", "pred.csv.gz",
     gzip.compress(("id,y,p,note\n" + "".join(f"{i},{y},{p},{ETE if i == 20 else 'x'}\n"
                                              for i, y, p in ROWS)).encode("latin-1"), mtime=0),
     None, "error: spec.yaml:4: data[0].path: pred.csv.gz: line 21 is not UTF-8 text (byte 0xe9 after '20,0,0.0,'); "
     "save the file as UTF-8"),
    ("Latin-1 in a key the spec does not name", "pred.jsonl",
     "".join(json.dumps({"id": i, "y": y, "p": p, "note": CAFE if i == 3 else "x"}, ensure_ascii=False) + "\n"
             for i, y, p in ROWS).encode("latin-1"),
     None, "error: spec.yaml:4: data[0].path: pred.jsonl: line 3 is not UTF-8 text (byte 0xe9 after "
     "'\": 0.1, \"note\": \"caf'); save the file as UTF-8"),
]


def _wide_parquet(columns: int):
    extra = {f"c{j}": [0] * len(ROWS) for j in range(columns - 3)}
    return lambda path: pq.write_table(pa.table({k: [r[j] for r in ROWS] for k, j in _LATIN.items()} | extra), path)


def _wide_jsonl(columns: int) -> str:
    extra = {f"c{j}": 0 for j in range(columns - 3)}
    return "".join(json.dumps({"id": i, "y": y, "p": p} | extra) + "\n" for i, y, p in ROWS)


#: (name, file name, content, message): the column limit of a CSV header, for Parquet and JSON lines
WIDE = [
    ("a Parquet schema of one column too many", "pred.parquet", _wide_parquet(MAX_COLUMNS + 1),
     f"error: spec.yaml:4: data[0].path: pred.parquet: the schema has {MAX_COLUMNS + 1:,} columns; {WHY_FILES}"),
    ("a JSON object of one key too many", "pred.jsonl", _wide_jsonl(MAX_COLUMNS + 1),
     f"error: spec.yaml:4: data[0].path: pred.jsonl: the first object (line 1) has {MAX_COLUMNS + 1:,} keys, "
     f"each a column; {WHY_FILES}"),
]


def _engine_spec(engine: str, path: str = "pred.csv", positive: str | None = None) -> str:
    # (the engine's key goes after id: the lines of path and id stay; the session last)
    top = "" if positive is None else f"positive: {positive}\n"
    if engine == "memory":
        return _spec(path, top=top)
    return _spec(path, extra_keys=f"    engine: {engine}\n", top=top) + (SPARK if engine == "spark" else "")


@pytest.mark.parametrize("engine", ["memory", "duckdb"])
@pytest.mark.parametrize("name,content,expected", HEADERS, ids=[c[0] for c in HEADERS])
def test_headers_past_the_limits_are_refused_by_every_engine(tmp_path, capsys, engine, name, content, expected):
    # 250,000 columns took 80 s in memory; DuckDB ran out of its memory (10,000 did) or its line length
    _refused(tmp_path, capsys, _engine_spec(engine), {"pred.csv": content}, [expected])


@pytest.mark.parametrize("engine", ["memory", "duckdb"])
@pytest.mark.parametrize("name,content,expected", ROWS_CASES, ids=[c[0] for c in ROWS_CASES])
def test_rows_of_the_wrong_length_are_refused_alike(tmp_path, capsys, engine, name, content, expected):
    # DuckDB refused them as a dialect it could not sniff, a header it did not find ('column0')
    # or a score that is text: the row is now found by line, as in memory
    _refused(tmp_path, capsys, _engine_spec(engine), {"pred.csv": content}, [expected])


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["memory", "duckdb"])
def test_headers_at_the_limits_are_read(tmp_path, capsys, engine):
    for name, content in {"columns": _wide(MAX_COLUMNS), "bytes": _long(MAX_HEADER_BYTES)}.items():
        folder = tmp_path / name
        folder.mkdir()
        status, lines, out = _run(folder, capsys, _engine_spec(engine), {"pred.csv": content})
        assert (status, lines) == (0, []), (name, lines)
        d = json.loads((out / "results.json").read_text())
        assert d["learners"]["a"]["auc"] == pytest.approx(skm.roc_auc_score(LABELS, SCORES), abs=1e-12), name


def test_a_pattern_over_a_wide_file_is_refused_with_the_limit(tmp_path, capsys):
    spec = _spec().replace("      a: p\n", "      match: '^p$'\n")
    status, lines, out = _run(tmp_path, capsys, spec, {"pred.csv": _wide(MAX_COLUMNS + 1)})
    assert status == 2 and len(lines) == 1, lines
    assert lines[0].startswith("error: spec.yaml:4: data[0].path: ") and f"{MAX_COLUMNS + 1:,} columns" in lines[0]


@pytest.mark.parametrize("engine", ["memory", "duckdb"])
@pytest.mark.parametrize("name,file,content,positive,expected", LATIN1, ids=[c[0] for c in LATIN1])
def test_text_that_is_not_utf8_is_refused_alike(tmp_path, capsys, engine, name, file, content, positive, expected):
    _refused(tmp_path, capsys, _engine_spec(engine, file, positive), {file: content}, [expected])


@pytest.mark.parametrize("engine", ["memory", "duckdb"])
@pytest.mark.parametrize("name,file,content,expected", WIDE, ids=[c[0] for c in WIDE])
def test_parquet_and_json_lines_past_the_column_limit_are_refused(tmp_path, capsys, engine, name, file, content,
                                                                  expected):
    _refused(tmp_path, capsys, _engine_spec(engine, file), {file: content}, [expected])


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["memory", "duckdb"])
def test_parquet_and_json_lines_at_the_column_limit_are_read(tmp_path, capsys, engine):
    # (DuckDB read a JSON object of more than 200 keys as one MAP column named 'json')
    for file, content in {"pred.parquet": _wide_parquet(MAX_COLUMNS), "pred.jsonl": _wide_jsonl(MAX_COLUMNS)}.items():
        folder = tmp_path / file.replace(".", "_")
        folder.mkdir()
        status, lines, out = _run(folder, capsys, _engine_spec(engine, file), {file: content})
        assert (status, lines) == (0, []), (file, lines)
        d = json.loads((out / "results.json").read_text())
        assert d["learners"]["a"]["auc"] == pytest.approx(skm.roc_auc_score(LABELS, SCORES), abs=1e-12), file


def _mixed_parts(folder: Path) -> None:
    """Two Parquet files of one glob, the score a number in one and text in the other:
    Spark reads the schema of one and fails in a task on the other."""
    (folder / "parts").mkdir()
    half = len(ROWS) // 2
    for name, rows, as_text in (("a", ROWS[:half], False), ("b", ROWS[half:], True)):
        table = pa.table({"id": [r[0] for r in rows], "y": [r[1] for r in rows],
                          "p": [str(r[2]) if as_text else r[2] for r in rows]})
        pq.write_table(table, folder / "parts" / f"{name}.parquet")


#: the child's Spark runs, one JVM: a marker line before each (the test's, not evalreport's)
_CHILD = """
import sys
from evalreport.__main__ import main
for folder in sys.argv[1:]:
    print("=== " + folder, file=sys.stderr, flush=True)
    status = main(["run", folder + "/spec.yaml", "--quiet"])
    print("=== status " + str(status), file=sys.stderr, flush=True)
"""


@pytest.mark.slow
def test_spark_refuses_as_memory_and_duckdb_do_and_says_nothing_else(tmp_path):
    pytest.importorskip("pyspark")
    # each case's DuckDB line (the memory engine's says the same, with the rows); the id
    # checks are Spark's own jobs, the rest is read from the file before Spark starts
    # first, before any JVM runs: a master URL Spark does not know is one line with its reason
    cases = {"an unknown master": (_engine_spec("spark").replace("local[2]", "nonsense://x"), {"pred.csv": GOOD},
                                   ("error: spec.yaml:4: data[0].path: pred.csv: Spark cannot start its driver: ",
                                    "Master"))}
    cases |= {name: (_engine_spec("spark"), {"pred.csv": content}, [expected[1]])
              for name, content, expected in ENGINE_AGREES}
    cases |= {name: (_engine_spec("spark"), {"pred.csv": content}, [expected])
              for name, content, expected in HEADERS[:1] + ROWS_CASES}
    cases |= {name: (_engine_spec("spark", file, positive), {file: content}, [expected])
              for name, file, content, positive, expected in LATIN1}
    cases |= {name: (_engine_spec("spark", file), {file: content}, [expected])
              for name, file, content, expected in WIDE}
    cases["good"] = (_engine_spec("spark"), {"pred.csv": GOOD}, [])
    # a Spark job that fails (a file of the glob whose score column is text): one line, exit 2
    cases["a failed job"] = (_engine_spec("spark", "parts/*.parquet").replace("    id: id\n", ""), {},
                             ("error: spec.yaml:4: data[0].path: parts/*.parquet: Spark failed reading ", "b.parquet"))
    folders = {}
    for k, (name, (spec, files, _)) in enumerate(cases.items()):
        folder = tmp_path / f"case{k}"
        folder.mkdir()
        if name == "a failed job":
            _mixed_parts(folder)
        _write(folder, spec, files)
        (folder / "out").mkdir()
        (folder / "out" / "results.json").write_text(PREVIOUS)
        folders[name] = folder
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-c", _CHILD, *map(str, folders.values())], cwd=root,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout == ""  # (--quiet; the JVM's stdout is the child's too)
    # stderr: the markers, and evalreport's error lines; not one line of Spark's or the JVM's
    seen: dict[str, tuple[list[str], int]] = {}
    by_folder = {str(f): name for name, f in folders.items()}
    name, lines = None, []
    for line in done.stderr.splitlines():
        if line.startswith("=== status "):
            seen[name] = (lines, int(line.removeprefix("=== status ")))
        elif line.startswith("=== "):
            name, lines = by_folder[line.removeprefix("=== ")], []
        else:
            assert name is not None, f"a line before the first run: {line!r}"
            lines.append(line.replace(str(folders[name]) + "/", ""))
    assert sorted(seen) == sorted(cases)
    for name, (spec, files, expected) in cases.items():
        lines, status = seen[name]
        out = folders[name] / "out"
        if name == "good":
            assert (status, lines) == (0, []), name
            d = json.loads((out / "results.json").read_text())
            assert d["learners"]["a"]["auc"] == pytest.approx(skm.roc_auc_score(LABELS, SCORES), abs=1e-12)
            continue
        if isinstance(expected, tuple):  # (start, a word): Spark's own words are its version's
            assert status == 2 and len(lines) == 1, (name, lines)
            assert lines[0].startswith(expected[0]) and expected[1] in lines[0], (name, lines)
        else:
            assert (status, lines) == (2, expected), name
        assert (out / "results.json").read_text() == PREVIOUS, name
        assert sorted(p.name for p in out.iterdir()) == ["results.json"], name


@settings(max_examples=40, deadline=None)
@given(text=st.text(st.characters(blacklist_categories=("Cs",)), max_size=60),
       bad=st.one_of(st.none(), st.tuples(st.integers(0, 60), st.sampled_from([b"\xe9", b"\xff", b"\xc3(", b"\x80"]))),
       piece=st.integers(1, 9))
def test_the_utf8_pass_finds_the_line_pythons_decoder_finds(tmp_path_factory, text, bad, piece):
    # the oracle: the whole file decoded at once; the pass reads it in pieces of a few bytes
    data = text.encode("utf-8")
    if bad is not None:
        at = len(data[:bad[0]].decode("utf-8", "ignore").encode("utf-8"))  # (at a character's start)
        data = data[:at] + bad[1] + data[at:]
    file = tmp_path_factory.mktemp("u") / "pred.csv"
    file.write_bytes(data)
    with mock.patch.object(file_problems, "UTF8_PIECE_BYTES", piece):
        problem = file_problems.utf8_problem(file, "pred.csv")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        assert problem is not None and problem.startswith(f"pred.csv: line {line} is not UTF-8 text (byte "
                                                          f"0x{data[exc.start]:02x} after "), (data, problem)
    else:
        assert problem is None, (data, problem)


@settings(max_examples=25, deadline=None)
@given(keys=st.lists(st.text(max_size=4), max_size=12, unique=True), limit=st.integers(1, 12))
def test_the_key_count_is_jsons(tmp_path_factory, keys, limit):
    # the first object's keys, as json reads them (colons inside the keys and values too)
    file = tmp_path_factory.mktemp("j") / "pred.jsonl"
    file.write_text(json.dumps({k: k + ":" for k in keys}) + "\n" + json.dumps({"x": 1}) + "\n")
    with mock.patch.object(headers, "MAX_COLUMNS", limit):
        problem = headers.header_problem(file, "pred.jsonl")
    if len(keys) > limit:
        assert problem is not None and f"has {len(keys):,} keys" in problem, (keys, problem)
    else:
        assert problem is None, (keys, problem)


_NAME = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n\x00"), max_size=6)


@settings(max_examples=25, deadline=None)
@given(names=st.lists(st.sampled_from(["a", "b,c", '"', 'x"y', "", " ", ",,"]) | _NAME, min_size=1, max_size=12),
       limit=st.integers(1, 12))
def test_the_column_count_is_pyarrows(tmp_path_factory, names, limit):
    # the header's fields counted by the csv module, as pyarrow parses them (the oracle)
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow(names)
    file = tmp_path_factory.mktemp("h") / "pred.csv"
    file.write_bytes(buf.getvalue().encode())
    count = len(pacsv.read_csv(pa.py_buffer(file.read_bytes()), read_options=pacsv.ReadOptions(
        autogenerate_column_names=True)).schema.names)
    with mock.patch.object(headers, "MAX_COLUMNS", limit):
        problem = headers.header_problem(file, "pred.csv")
    if count > limit:
        assert problem is not None and f"has {count:,} columns" in problem, (names, problem)
    else:
        assert problem is None, (names, problem)


@pytest.mark.slow
def test_duckdb_out_of_memory_says_what_to_do(tmp_path, capsys):
    # DuckDB's CSV reader holds buffers for every column: 5,000 columns do not fit in 64MB
    spec = _spec(extra_keys="    engine: duckdb\n    memory_limit: 64MB\n")
    status, lines, out = _run(tmp_path, capsys, spec, {"pred.csv": _wide(MAX_COLUMNS)})
    assert status == 2 and len(lines) == 1, lines
    assert lines[0].startswith("error: spec.yaml:4: data[0].path: pred.csv: ") and "Out of Memory" in lines[0]
    assert lines[0].endswith("(memory_limit is 64MB; DuckDB's CSV reader needs memory for every column of the "
                             "file, the ones the spec does not name too: raise memory_limit, or keep fewer columns)")
    assert (out / "results.json").read_text() == "previous report\n"


def test_every_file_of_a_glob_has_its_header_checked(tmp_path, capsys):
    # DuckDB reads the columns of every file: the one past the limit is named
    spec = _spec("parts/p*.csv", "    engine: duckdb\n").replace("    id: id\n", "")
    (tmp_path / "parts").mkdir()
    files = {"parts/p1.csv": GOOD, "parts/p2.csv": _wide(MAX_COLUMNS + 1)}
    _refused(tmp_path, capsys, spec, files, [
        f"error: spec.yaml:4: data[0].path: parts/p2.csv: the header (line 1) has {MAX_COLUMNS + 1:,} columns; {WHY}"])


def test_the_driver_is_given_the_quiet_log_configuration_unless_the_user_names_one(tmp_path):
    from evalreport.engines import spark_quiet

    option = f"-Dlog4j2.configurationFile={spark_quiet.LOG4J2_FILE}"
    assert spark_quiet.LOG4J2_FILE.is_file()
    assert "rootLogger.level = off" in spark_quiet.LOG4J2_FILE.read_text().splitlines()
    assert spark_quiet.quiet_conf(None) == {"spark.driver.extraJavaOptions": option}
    # the user's options kept, ours after them
    assert spark_quiet.quiet_conf({"spark.driver.extraJavaOptions": "-XX:+UseSerialGC", "a": "b"}) == {
        "spark.driver.extraJavaOptions": f"-XX:+UseSerialGC {option}", "a": "b"}
    # the user's own log configuration: their levels
    theirs = {"spark.driver.extraJavaOptions": "-Dlog4j2.configurationFile=/x/log4j2.properties"}
    assert spark_quiet.quiet_conf(theirs) == theirs and spark_quiet.log4j2_named(theirs)
    assert not spark_quiet.log4j2_named({"spark.driver.memory": "1g"})
    # a path with a space is one word of Spark's Java options (its launcher honours double quotes)
    spaced = tmp_path / "a b" / "log4j2.properties"
    spaced.parent.mkdir()
    spaced.write_text("")
    with mock.patch.object(spark_quiet, "LOG4J2_FILE", spaced):
        assert spark_quiet.quiet_conf({}) == {"spark.driver.extraJavaOptions": f'-Dlog4j2.configurationFile="{spaced}"'}


class _Java:
    """A Py4J JavaObject's stand-in: a Java exception's message and cause."""

    def __init__(self, message, cause=None):
        self.message, self.cause = message, cause

    def getMessage(self):  # noqa: N802 (Java's name)
        return self.message

    def getCause(self):  # noqa: N802
        return self.cause


class Py4JJavaError(Exception):
    __module__ = "py4j.protocol"

    def __init__(self, java):
        super().__init__("An error occurred while calling o84.collectToPython.\n: ...")
        self.java_exception = java


def test_a_failed_spark_job_is_one_line_with_sparks_reason():
    from evalreport.engines.spark_quiet import failure_line, spark_failures

    reason = "[FAILED_READ_FILE.PARQUET_COLUMN_DATA_TYPE_MISMATCH] Encountered error while reading file b.parquet."
    stage = _Java("Job aborted due to stage failure: Task 0 in stage 1.0 failed 1 times, most recent failure: ...\n"
                  "Driver stacktrace:", _Java(reason + "\n\tat org.apache.spark..."))
    assert failure_line(Py4JJavaError(_Java(reason + "\nCaused by: ..."))) == reason
    assert failure_line(Py4JJavaError(stage)) == reason  # (a stage failure: its cause says why)
    assert failure_line(Py4JJavaError(_Java(None))) == "An error occurred while calling o84.collectToPython."
    assert failure_line(RuntimeError("")) == "RuntimeError"
    with pytest.raises(ValueError) as caught:
        with spark_failures("parquet 'parts/*.parquet'"):
            raise Py4JJavaError(stage)
    assert str(caught.value) == f"Spark failed reading parquet 'parts/*.parquet': {reason}"
    # evalreport's own errors and Python's pass as they are
    for own in (ValueError("column 'p' is not numeric"), KeyError("x")):
        with pytest.raises(type(own)) as caught:
            with spark_failures("x"):
                raise own
        assert caught.value is own
