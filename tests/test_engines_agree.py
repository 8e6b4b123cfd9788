"""The three engines refuse the same bad files alike (issue 36): exit 2, the same
located message, no traceback, nothing written.

What the in-memory road refuses (a .csv of another separator, UTF-16, gzip not
named so, a missing or repeated id) and the header limits every engine keeps
(:data:`evalreport.spec.headers.MAX_COLUMNS` columns, :data:`MAX_HEADER_BYTES`
bytes), through ``engine: memory``, ``duckdb`` and ``spark``. Spark starts one
JVM for the module (a session is reused by ``getOrCreate``), in one test.
"""

from __future__ import annotations

import csv
import io
import json
from unittest import mock

import pyarrow as pa
import pyarrow.csv as pacsv
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

from evalreport.spec import headers
from evalreport.spec.headers import MAX_COLUMNS, MAX_HEADER_BYTES
from test_data_corpus import ENGINE_AGREES, GOOD, LABELS, ROWS, SCORES, _refused, _run, _spec

SPARK = 'spark: {master: "local[2]", conf: {spark.ui.enabled: "false", spark.sql.shuffle.partitions: "2"}}\n'

WHY = ("a prediction file holds a label, an id, weights, groups and score columns: headers of at most "
       f"{MAX_COLUMNS:,} columns and {MAX_HEADER_BYTES // 2**20} MiB are read (keep the columns the spec names)")


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


def _engine_spec(engine: str) -> str:
    # (the engine's key goes after id: the lines of path and id stay; the session last)
    if engine == "memory":
        return _spec()
    return _spec(extra_keys=f"    engine: {engine}\n") + (SPARK if engine == "spark" else "")


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


@pytest.mark.slow
def test_spark_refuses_as_memory_and_duckdb_do(tmp_path, capsys):
    pytest.importorskip("pyspark")
    # each case's DuckDB line (the memory engine's says the same, with the rows); the id
    # checks are Spark's own jobs, the rest is read from the file before Spark starts
    cases = [(name, content, expected[1]) for name, content, expected in ENGINE_AGREES] + HEADERS[:1] + ROWS_CASES
    for name, content, expected in cases:
        folder = tmp_path / name.replace(" ", "_")
        folder.mkdir()
        _refused(folder, capsys, _engine_spec("spark"), {"pred.csv": content}, [expected])
    folder = tmp_path / "good"
    folder.mkdir()
    status, lines, out = _run(folder, capsys, _engine_spec("spark"), {"pred.csv": GOOD})
    assert (status, lines) == (0, [])
    d = json.loads((out / "results.json").read_text())
    assert d["learners"]["a"]["auc"] == pytest.approx(skm.roc_auc_score(LABELS, SCORES), abs=1e-12)


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
