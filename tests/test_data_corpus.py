"""A corpus of bad (and odd but legitimate) data files, through the CLI in process.

Each bad input exits 2 with a message naming the file and the column and/or
the row or line, no traceback, and leaves the output folder as it was. The
legitimate ones (a UTF-8 byte-order mark, CRLF line ends, one class only,
weights of an extreme scale, names that look like mathtext) run to the end,
every format written, with the warnings that say what is undefined and why.
"""

from __future__ import annotations

import gzip
import json
import math
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from sklearn import metrics as skm

from evalreport.data import readers
from evalreport.number_style import magnitude
from evalreport.__main__ import main
from evalreport.metrics import evaluate_binary

BASE = """\
version: 1
title: t
data:
  - path: pred.csv
    label: y
    id: id
    learners:
      a: p
report: {formats: [json], out: out}
"""

N = 20
ROWS = [(i, i % 2, (i * 7 % 10) / 10) for i in range(1, N + 1)]
GOOD = "id,y,p\n" + "".join(f"{i},{y},{p}\n" for i, y, p in ROWS)
GOOD_JSONL = "".join(json.dumps({"id": i, "y": y, "p": p}) + "\n" for i, y, p in ROWS)
PREVIOUS = "previous report\n"


def _spec(path="pred.csv", extra_keys="", top=""):
    spec = BASE.replace("pred.csv", path).replace("    id: id\n", "    id: id\n" + extra_keys)
    return spec.replace("title: t\n", "title: t\n" + top)


def _write(tmp: Path, spec: str, files: dict) -> Path:
    for name, content in files.items():
        target = tmp / name
        if callable(content):
            content(target)
        elif isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8", newline="")
    (tmp / "spec.yaml").write_text(textwrap.dedent(spec))
    return tmp / "spec.yaml"


def _run(tmp: Path, capsys, spec: str, files: dict, *extra: str):
    """Run the spec with a previous report in its output folder: (status, stderr lines, folder)."""
    path = _write(tmp, spec, files)
    out = tmp / "out"
    out.mkdir(exist_ok=True)
    (out / "results.json").write_text(PREVIOUS)
    status = main(["run", str(path), "--quiet", *extra])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return status, [line.replace(str(tmp) + "/", "") for line in err.splitlines()], out


def _refused(tmp, capsys, spec, files, expected: list[str]):
    status, lines, out = _run(tmp, capsys, spec, files)
    assert (status, lines) == (2, expected)
    # nothing written: the previous report stays, alone
    assert (out / "results.json").read_text() == PREVIOUS
    assert sorted(p.name for p in out.iterdir()) == ["results.json"]


def _parquet(**columns):
    return lambda path: pq.write_table(pa.table(columns), path)


def _npz(**members):
    members = {"id": np.arange(1, N + 1), "y": np.arange(1, N + 1) % 2,
               "p": np.linspace(0, 1, N), **members}
    return lambda path: np.savez(path, **members)


def _gzip(text: str) -> bytes:
    return gzip.compress(text.encode(), mtime=0)


def _replace_row(text: str, row: int, new: str) -> str:
    lines = text.split("\n")
    lines[row] = new  # (line 0 is the header)
    return "\n".join(lines)


IDS = list(range(1, N + 1))
LABELS = [i % 2 for i in IDS]
SCORES = [(i * 7 % 10) / 10 for i in IDS]

# (name, spec, files, expected stderr lines): each exits 2 and writes nothing
BAD = [
    # 1. nested Parquet columns: pyarrow's kernels have none for them (a traceback before)
    ("nested label (struct)", _spec("pred.parquet"),
     {"pred.parquet": _parquet(id=IDS, y=[{"v": v} for v in LABELS], p=SCORES)},
     ["error: spec.yaml:5: data[0].label: pred.parquet: column 'y' is of the nested type struct<v: int64>; "
      "a label column holds plain values (numbers, text or booleans)"]),
    ("nested label (list)", _spec("pred.parquet"),
     {"pred.parquet": _parquet(id=IDS, y=[[v] for v in LABELS], p=SCORES)},
     ["error: spec.yaml:5: data[0].label: pred.parquet: column 'y' is of the nested type list<element: int64>; "
      "a label column holds plain values (numbers, text or booleans)"]),
    ("nested score", _spec("pred.parquet"),
     {"pred.parquet": _parquet(id=IDS, y=LABELS, p=[[v, v] for v in SCORES])},
     ["error: spec.yaml:8: data[0].learners.a.score: pred.parquet: column 'p' is of the nested type "
      "list<element: double>; a score column holds plain values (numbers, text or booleans)"]),
    ("nested weight", _spec("pred.parquet", "    weight: w\n"),
     {"pred.parquet": _parquet(id=IDS, y=LABELS, p=SCORES, w=[{"w": 1.0}] * N)},
     ["error: spec.yaml:7: data[0].weight: pred.parquet: column 'w' is of the nested type struct<w: double>; "
      "a weight column holds plain values (numbers, text or booleans)"]),
    ("nested group", _spec("pred.parquet", "    group: g\n"),
     {"pred.parquet": _parquet(id=IDS, y=LABELS, p=SCORES, g=[[i % 3] for i in IDS])},
     ["error: spec.yaml:7: data[0].group: pred.parquet: column 'g' is of the nested type list<element: int64>; "
      "a group column holds plain values (numbers, text or booleans)"]),
    ("nested id", _spec("pred.parquet"),
     {"pred.parquet": _parquet(id=[{"k": i} for i in IDS], y=LABELS, p=SCORES)},
     ["error: spec.yaml:6: data[0].id: pred.parquet: column 'id' is of the nested type struct<k: int64>; "
      "an id column holds plain values (numbers, text or booleans)"]),
    ("nested label (JSON object)", _spec("pred.jsonl"),
     {"pred.jsonl": "".join(json.dumps({"id": i, "y": {"v": y}, "p": p}) + "\n" for i, y, p in ROWS)},
     ["error: spec.yaml:5: data[0].label: pred.jsonl: column 'y' is of the nested type struct<v: int64>; "
      "a label column holds plain values (numbers, text or booleans)"]),
    # 3. weights
    ("every weight 0", _spec(extra_keys="    weight: w\n"),
     {"pred.csv": "id,y,p,w\n" + "".join(f"{i},{y},{p},0\n" for i, y, p in ROWS)},
     ["error: spec.yaml:7: data[0].weight: pred.csv: column 'w': every weight is 0, so the total weight is 0 "
      "and no measure is defined"]),
    # 4. NPZ members
    ("npz 0-d score", _spec("pred.npz"), {"pred.npz": _npz(p=np.array(0.5))},
     ["error: spec.yaml:8: data[0].learners.a.score: pred.npz: member 'p' is a single value (a 0-d array), "
      "not a column of values"]),
    ("npz 0-d label", _spec("pred.npz"), {"pred.npz": _npz(y=np.array(1))},
     ["error: spec.yaml:5: data[0].label: pred.npz: member 'y' is a single value (a 0-d array), not a column "
      "of values"]),
    ("npz complex scores", _spec("pred.npz"), {"pred.npz": _npz(p=np.linspace(0, 1, N) + 0j)},
     ["error: spec.yaml:8: data[0].learners.a.score: pred.npz: member 'p' holds complex numbers (dtype "
      "complex128); a score column holds real numbers, text or booleans"]),
    ("npz 2-d label", _spec("pred.npz"), {"pred.npz": _npz(y=np.zeros((N, 2), dtype=int))},
     ["error: spec.yaml:5: data[0].label: pred.npz: member 'y' has shape (20, 2); a column is one-dimensional"]),
    ("npz 2-d score", _spec("pred.npz"), {"pred.npz": _npz(p=np.zeros((N, 2)))},
     ["error: spec.yaml:8: data[0].learners.a.score: pred.npz: member 'p' has shape (20, 2); a column is "
      "one-dimensional"]),
    ("npz object array", _spec("pred.npz"),
     {"pred.npz": lambda path: np.savez(path, id=np.arange(N), y=np.arange(N) % 2,
                                        p=np.array([0.5] * N, dtype=object))},
     ["error: spec.yaml:8: data[0].learners.a.score: pred.npz: member 'p' holds Python objects (an object "
      "array), which NumPy reads only by unpickling (unsafe): save numbers or text"]),
    ("npz dates", _spec("pred.npz"), {"pred.npz": _npz(p=np.arange(N).astype("datetime64[s]"))},
     ["error: spec.yaml:8: data[0].learners.a.score: pred.npz: member 'p' holds dates and times (dtype "
      "datetime64[s]); a score column holds real numbers, text or booleans"]),
    ("npz members of different lengths", _spec("pred.npz"), {"pred.npz": _npz(p=np.linspace(0, 1, 5))},
     ["error: spec.yaml:4: data[0].path: pred.npz: the members have different lengths ('y' 20, 'id' 20, "
      "'p' 5)"]),
    ("npz float label with NaN", _spec("pred.npz"),
     {"pred.npz": _npz(y=np.where(np.arange(N) == 6, np.nan, np.arange(N) % 2))},
     ["error: spec.yaml:5: data[0].label: pred.npz: column 'y', row 7: missing label"]),
    ("npz cut short", _spec("pred.npz"),
     {"pred.npz": lambda path: (_npz()(path), path.write_bytes(path.read_bytes()[:200]))},
     ["error: spec.yaml:4: data[0].path: pred.npz is not an NPZ file (not a zip archive: cut short, or another "
      "format?)"]),
    # 5. a column name given twice
    ("duplicated header name", _spec(),
     {"pred.csv": "id,y,p,p\n" + "".join(f"{i},{y},{p},0.5\n" for i, y, p in ROWS)},
     ["error: spec.yaml:8: data[0].learners.a.score: pred.csv: column 'p' appears 2 times in the header "
      "(columns 3 and 4): rename all but one"]),
    ("duplicated label name (TSV)", _spec("pred.tsv"),
     {"pred.tsv": "id\ty\tp\ty\n" + "".join(f"{i}\t{y}\t{p}\t{1 - y}\n" for i, y, p in ROWS)},
     ["error: spec.yaml:5: data[0].label: pred.tsv: column 'y' appears 2 times in the header (columns 2 and "
      "4): rename all but one"]),
    ("duplicated key (JSON lines)", _spec("pred.jsonl"),
     {"pred.jsonl": GOOD_JSONL.replace('"p": 0.4', '"p": 0.4, "p": 0.5')},
     ["error: spec.yaml:4: data[0].path: pred.jsonl: line 2: key 'p' appears twice"]),
    ("duplicated name (Parquet)", _spec("pred.parquet"),
     {"pred.parquet": lambda path: pq.write_table(
         pa.Table.from_arrays([pa.array(IDS), pa.array(LABELS), pa.array(SCORES), pa.array(SCORES)],
                              names=["id", "y", "p", "p"]), path)},
     ["error: spec.yaml:8: data[0].learners.a.score: pred.parquet: column 'p' appears 2 times in the header "
      "(columns 3 and 4): rename all but one"]),
    # 6. an empty group (or id) cell is missing, not a group named ''
    ("empty group cell", _spec(extra_keys="    group: g\n"),
     {"pred.csv": "id,y,p,g\n" + "".join(f"{i},{y},{p},{'' if i == 6 else 'fold' + str(i % 3)}\n"
                                         for i, y, p in ROWS)},
     ["error: spec.yaml:7: data[0].group: pred.csv: column 'g', row 6: missing group (empty)"]),
    ("empty id cell", _spec(), {"pred.csv": "id,y,p\n" + "".join(f"{'' if i == 4 else 'r' + str(i)},{y},{p}\n"
                                                                 for i, y, p in ROWS)},
     ["error: spec.yaml:6: data[0].id: pred.csv: column 'id', row 4: missing id (empty)"]),
    ("NaN group (Parquet)", _spec("pred.parquet", "    group: g\n"),
     {"pred.parquet": _parquet(id=IDS, y=LABELS, p=SCORES, g=[np.nan if i == 3 else i % 3 for i in IDS])},
     ["error: spec.yaml:7: data[0].group: pred.parquet: column 'g', row 3: missing group"]),
    # 8. text files, cut, mis-encoded, mis-compressed, ragged
    ("cut mid-row", _spec(), {"pred.csv": GOOD[:-5]},
     ["error: spec.yaml:4: data[0].path: pred.csv: line 21: 2 fields where the header has 3: '20,0' (the file "
      "ends in this line, without a line end: cut short?)"]),
    ("cut mid-quoted field", _spec(), {"pred.csv": GOOD + '21,1,"0.'},
     ["error: spec.yaml:4: data[0].path: pred.csv: row 21, the last, ends inside a quoted field that is not "
      "closed: '21,1,\"0.' (the file ends in this line, without a line end: cut short?)"]),
    ("cut mid-quoted field, a field short", _spec(), {"pred.csv": GOOD + '21,"1'},
     ["error: spec.yaml:4: data[0].path: pred.csv: line 22: 2 fields where the header has 3: '21,\"1' (a "
      "quoted field is not closed)"]),
    ("quote not closed", _spec(), {"pred.csv": _replace_row(GOOD, 3, '3,1,"0.1')},
     ["error: spec.yaml:8: data[0].learners.a.score: pred.csv: column 'p', row 3: score '0.1\\n4,0,0.8\\n5,1,0.5"
      "\\n6,0,0.2\\n7,1,0.9\\n8,0,0.6\\n9,1,0.3\\n10,0,0.0\\n11,1,0.7\\n12,0,0.4\\n13,1,0.1\\n14,0,0.8\\n15,1,"
      "0.5\\n16,0,0.2\\n17,1,0.9\\n18,0,0.6\\n19,1,0.3\\n20,0,0.0\\n' is not a number (a quoted field that is "
      "not closed?)"]),
    ("a row with too many fields", _spec(), {"pred.csv": _replace_row(GOOD, 5, "5,1,0.5,7")},
     ["error: spec.yaml:4: data[0].path: pred.csv: line 6: 4 fields where the header has 3: '5,1,0.5,7'"]),
    ("a row with too few fields", _spec(), {"pred.csv": _replace_row(GOOD, 5, "5,0.5")},
     ["error: spec.yaml:4: data[0].path: pred.csv: line 6: 2 fields where the header has 3: '5,0.5'"]),
    (".csv.gz that is plain text", _spec("pred.csv.gz"), {"pred.csv.gz": GOOD},
     ["error: spec.yaml:4: data[0].path: cannot read pred.csv.gz: zlib inflate failed: incorrect header check"]),
    (".csv that is gzipped", _spec(), {"pred.csv": _gzip(GOOD)},
     ["error: spec.yaml:4: data[0].path: pred.csv is gzip-compressed, but its name does not say so (name it "
      "pred.csv.gz)"]),
    (".jsonl that is gzipped", _spec("pred.jsonl"), {"pred.jsonl": _gzip(GOOD_JSONL)},
     ["error: spec.yaml:4: data[0].path: pred.jsonl is gzip-compressed, but its name does not say so (name it "
      "pred.jsonl.gz)"]),
    ("latin-1 header", _spec(), {"pred.csv": ("id,y,p,\xe9t\xe9\n" + "".join(f"{i},{y},{p},0\n" for i, y, p in ROWS))
                                 .encode("latin-1")},
     ["error: spec.yaml:4: data[0].path: pred.csv: line 1 is not UTF-8 text (byte 0xe9 after 'id,y,p,'); save "
      "the file as UTF-8"]),
    ("latin-1 label", _spec(top="positive: caf\xe9\n"),
     {"pred.csv": "id,y,p\n1,caf\xe9,0.5\n2,th\xe9,0.2\n".encode("latin-1")},
     ["error: spec.yaml:5: data[0].path: pred.csv: line 2 is not UTF-8 text (byte 0xe9 after '1,caf'); save "
      "the file as UTF-8"]),
    ("latin-1 in JSON lines", _spec("pred.jsonl"),
     {"pred.jsonl": GOOD_JSONL.encode() + '{"id": 99, "y": "caf\xe9", "p": 0.1}\n'.encode("latin-1")},
     ["error: spec.yaml:4: data[0].path: pred.jsonl: line 21 is not UTF-8 text (byte 0xe9 after "
      "'{\"id\": 99, \"y\": \"caf'); save the file as UTF-8"]),
    ("UTF-16 with a byte-order mark", _spec(), {"pred.csv": GOOD.encode("utf-16")},
     ["error: spec.yaml:4: data[0].path: pred.csv is UTF-16 text (it starts with a UTF-16 byte-order mark); "
      "save it as UTF-8"]),
    ("UTF-16 without a byte-order mark", _spec(), {"pred.csv": GOOD.encode("utf-16-le")},
     ["error: spec.yaml:4: data[0].path: pred.csv: line 1 holds a NUL byte: not UTF-8 text (UTF-16 without a "
      "byte-order mark?); save it as UTF-8"]),
    ("empty file", _spec(), {"pred.csv": ""},
     ["error: spec.yaml:4: data[0].path: pred.csv is empty (no header, no rows)"]),
    ("empty JSON lines file", _spec("pred.jsonl"), {"pred.jsonl": ""},
     ["error: spec.yaml:4: data[0].path: pred.jsonl is empty"]),
    ("header only", _spec(), {"pred.csv": "id,y,p\n"},
     ["error: spec.yaml:4: data[0].path: pred.csv has no rows"]),
    ("NaN score", _spec(), {"pred.csv": _replace_row(GOOD, 7, "7,1,NaN")},
     ["error: spec.yaml:8: data[0].learners.a.score: pred.csv: column 'p', row 7: missing value (empty, NA or "
      "NaN)"]),
    ("infinite score", _spec(), {"pred.csv": _replace_row(GOOD, 7, "7,1,-inf")},
     ["error: spec.yaml:8: data[0].learners.a.score: pred.csv: column 'p', row 7: infinite score"]),
    ("float labels with NaN", _spec(), {"pred.csv": GOOD.replace("\n5,1,", "\n5,nan,").replace(",1,", ",1.0,")},
     ["error: spec.yaml:5: data[0].label: pred.csv: column 'y', row 5: missing label"]),
    ("JSON lines cut short", _spec("pred.jsonl"), {"pred.jsonl": GOOD_JSONL[:-8]},
     ["error: spec.yaml:4: data[0].path: pred.jsonl: line 20 is not valid JSON (Unterminated string starting "
      "at: character 20) (the file ends in this line, without a line end: cut short?)"]),
    ("JSON lines: text among numbers", _spec("pred.jsonl"),
     {"pred.jsonl": GOOD_JSONL.replace('"p": 0.4', '"p": "0.4"')},
     ["error: spec.yaml:4: data[0].path: pred.jsonl: column 'p': line 1 holds a number (0.7), line 2 a string "
      "(\"0.4\")"]),
    ("JSON lines: not an object", _spec("pred.jsonl"), {"pred.jsonl": GOOD_JSONL + "[1, 0, 0.5]\n"},
     ["error: spec.yaml:4: data[0].path: pred.jsonl: line 21 is not a JSON object ('[1, 0, 0.5]')"]),
    ("Parquet cut short", _spec("pred.parquet"),
     {"pred.parquet": lambda path: (_parquet(id=IDS, y=LABELS, p=SCORES)(path),
                                    path.write_bytes(path.read_bytes()[:-100]))},
     ["error: spec.yaml:4: data[0].path: pred.parquet is cut short: a Parquet file ends with its footer and "
      "PAR1, this one does not"]),
    ("Parquet that is CSV", _spec("pred.parquet"), {"pred.parquet": GOOD},
     ["error: spec.yaml:4: data[0].path: pred.parquet is not a Parquet file (it does not start with PAR1)"]),
    ("empty Parquet file", _spec("pred.parquet"), {"pred.parquet": b""},
     ["error: spec.yaml:4: data[0].path: pred.parquet is empty"]),
]


@pytest.mark.parametrize("name,spec,files,expected", BAD, ids=[c[0] for c in BAD])
def test_bad_data(tmp_path, capsys, name, spec, files, expected):
    _refused(tmp_path, capsys, spec, files, expected)


# A data path that cannot be examined or is no file: refused where the spec
# names it, by run and validate alike (a traceback before, or "file not found:
# predictions.csv (did you mean 'predictions.csv'?)" for a folder)
PATHS = [
    ("a folder", _spec("predictions.csv"), {"predictions.csv": lambda path: path.mkdir()},
     ["error: spec.yaml:4: data[0].path: predictions.csv is a folder, not a file"]),
    # never opened: a FIFO blocks its reader until a writer comes
    ("a named pipe", _spec(), {"pred.csv": lambda path: os.mkfifo(path)},
     ["error: spec.yaml:4: data[0].path: pred.csv is a named pipe (FIFO), not a file"]),
    ("a name too long", _spec("r" * 300 + ".csv"), {},
     ["error: spec.yaml:4: data[0].path: cannot read " + "r" * 57 + "...: File name too long"]),
    ("a NUL byte", _spec('"pr\\0ed.csv"'), {},
     ["error: spec.yaml:4: data[0].path: cannot read 'pr\\x00ed.csv': embedded null byte"]),
    ("a symbolic link to itself", _spec(), {"pred.csv": lambda path: path.symlink_to(path.name)},
     ["error: spec.yaml:4: data[0].path: cannot read pred.csv: Too many levels of symbolic links"]),
    ("the home of no user", _spec("~evalreport-no-such-user/pred.csv"), {},
     ["error: spec.yaml:4: data[0].path: file not found: ~evalreport-no-such-user/pred.csv (looked for "
      "~evalreport-no-such-user/pred.csv: a relative path starts from the spec's folder)"]),
]


@pytest.mark.parametrize("name,spec,files,expected", PATHS, ids=[c[0] for c in PATHS])
def test_data_path_that_is_no_file(tmp_path, capsys, name, spec, files, expected):
    _refused(tmp_path, capsys, spec, files, expected)
    assert main(["validate", str(tmp_path / "spec.yaml")]) == 2
    assert capsys.readouterr().err.replace(str(tmp_path) + "/", "").splitlines() == expected


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="POSIX permissions")
@pytest.mark.parametrize("path,locked,shown", [("locked/pred.csv", "locked", "locked/pred.csv"),
                                               ("pred.csv", "pred.csv", "pred.csv")],
                         ids=["in a folder without permission", "without permission to read"])
def test_data_path_without_permission(tmp_path, capsys, path, locked, shown):
    (tmp_path / "locked").mkdir()
    _write(tmp_path, _spec(path), {path: GOOD})
    (tmp_path / locked).chmod(0)
    command = ["validate", str(tmp_path / "spec.yaml")]
    try:
        if os.geteuid() != 0:
            status, err = main(command), capsys.readouterr().err
        else:  # root reads everything: run without the capabilities that let it
            setpriv = shutil.which("setpriv") or pytest.skip("running as root, and no setpriv to drop that")
            proc = subprocess.run([setpriv, "--bounding-set=-dac_override,-dac_read_search", sys.executable,
                                   "-m", "evalreport", *command], capture_output=True, text=True,
                                  timeout=600)  # a hang guard
            status, err = proc.returncode, proc.stderr
    finally:
        (tmp_path / locked).chmod(0o700)
    assert (status, err.replace(str(tmp_path) + "/", "")) == (
        2, f"error: spec.yaml:4: data[0].path: cannot read {shown}: Permission denied\n")


# Legitimate inputs, each with the reason it is one: they run and give the
# numbers of the plain file.
GOOD_AUC = skm.roc_auc_score(LABELS, SCORES)
VALID = [
    # pyarrow's readers skip a UTF-8 byte-order mark (Excel writes one): the
    # first column's name is 'y', not '\ufeffy'
    ("UTF-8 byte-order mark", _spec(),
     {"pred.csv": "\ufeffy,id,p\n" + "".join(f"{y},{i},{p}\n" for i, y, p in ROWS)}),
    ("UTF-8 byte-order mark (JSON lines)", _spec("pred.jsonl"), {"pred.jsonl": "\ufeff" + GOOD_JSONL}),
    # Windows line ends are line ends
    ("CRLF line ends", _spec(), {"pred.csv": GOOD.replace("\n", "\r\n")}),
    ("CRLF line ends (gzipped)", _spec("pred.csv.gz"), {"pred.csv.gz": _gzip(GOOD.replace("\n", "\r\n"))}),
    ("CRLF line ends (JSON lines)", _spec("pred.jsonl"), {"pred.jsonl": GOOD_JSONL.replace("\n", "\r\n")}),
    # blank lines at the end are no rows
    ("blank lines at the end", _spec(), {"pred.csv": GOOD + "\n\n"}),
]


@pytest.mark.slow
@pytest.mark.parametrize("name,spec,files", VALID, ids=[c[0] for c in VALID])
def test_legitimate_variants_run(tmp_path, capsys, name, spec, files):
    status, lines, out = _run(tmp_path, capsys, spec, files)
    assert (status, lines) == (0, [])
    d = json.loads((out / "results.json").read_text())
    assert d["learners"]["a"]["auc"] == pytest.approx(GOOD_AUC, abs=1e-15)
    assert d["inputs"][0]["rows"] == N


def _big(rows: int, last: str) -> str:
    body = "".join(f"{i},{i % 2},{(i * 7919 % 100003) / 100003}\n" for i in range(1, rows))
    return "id,y,p\n" + body + last + "\n"


@pytest.mark.slow
@pytest.mark.parametrize("sliced", [False, True])
def test_one_bad_row_at_the_end_of_a_large_file(tmp_path, capsys, monkeypatch, sliced):
    if sliced:  # the reader that reads large files a slice at a time
        monkeypatch.setattr(readers, "CSV_SLICE_BYTES", 1 << 16)
    text = _big(200_000, "200000,0,abc")
    _refused(tmp_path, capsys, _spec(), {"pred.csv": text},
             ["error: spec.yaml:8: data[0].learners.a.score: pred.csv: column 'p', row 200000: score 'abc' is "
              "not a number"])


def test_ragged_row_at_the_end_of_a_large_file(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(readers, "CSV_SLICE_BYTES", 1 << 16)
    _refused(tmp_path, capsys, _spec(), {"pred.csv": _big(200_000, "200000,0")},
             ["error: spec.yaml:4: data[0].path: pred.csv: line 200001: 2 fields where the header has 3: "
              "'200000,0'"])


@pytest.mark.slow
def test_byte_order_mark_and_crlf_on_the_sliced_reader(tmp_path, capsys, monkeypatch):
    # the first column, 'id', is found by its name: the mark is not part of it
    monkeypatch.setattr(readers, "CSV_SLICE_BYTES", 1 << 16)
    text = _big(50_000, "50000,0,0.5")
    status, lines, out = _run(tmp_path, capsys, _spec(), {"pred.csv": "\ufeff" + text.replace("\n", "\r\n")})
    assert (status, lines) == (0, [])
    d = json.loads((out / "results.json").read_text())
    rows = [line.split(",") for line in text.splitlines()[1:]]
    y = [int(r[1]) for r in rows]
    p = [float(r[2]) for r in rows]
    assert d["inputs"][0]["rows"] == 50_000
    assert d["learners"]["a"]["auc"] == pytest.approx(skm.roc_auc_score(y, p), abs=1e-12)


# 2. one class only: a degenerate but legitimate input


def _one_class_csv():
    return "id,y,p\n" + "".join(f"{i},1,{p}\n" for i, _, p in ROWS)


@pytest.mark.slow
@pytest.mark.parametrize("bootstrap", [None, 0])
def test_one_class_runs_with_undefined_measures(tmp_path, capsys, bootstrap):
    top = "" if bootstrap is None else f"confidence: {{bootstrap: {bootstrap}}}\n"
    spec = _spec(top=top).replace("formats: [json]", "formats: [html, pdf, json]")
    status, lines, out = _run(tmp_path, capsys, spec, {"pred.csv": _one_class_csv()})
    assert (status, lines) == (0, [])
    assert sorted(p.name for p in out.iterdir()) == [".evalreport-set.json", "report.html", "report.pdf", "results.json"]
    d = json.loads((out / "results.json").read_text())
    a = d["learners"]["a"]
    assert (a["positives"], a["negatives"]) == (N, 0)
    assert a["auc"] is None and a["rank_loss"] is None and a["expected_total_cost"] is None
    assert a["average_precision"] == 1.0 and a["bep"] == 1.0
    assert "learner 'a': auc is undefined: there are no negatives (only one class in y_true)" in d["warnings"]
    if bootstrap is None:  # the one class is resampled; what needs both classes has no interval
        assert a["bootstrap"]["expected_total_cost"] == [None, None]
        assert a["bootstrap"]["average_precision"] == [1.0, 1.0]
        low, high = a["bootstrap"]["f1"]
        assert 0 < low <= a["f1"] <= high < 1
    else:
        assert "bootstrap" not in a
    html = (out / "report.html").read_text()
    assert '<td class="num undefined">undefined</td>' in html
    assert "auc is undefined: there are no negatives" in html


def test_one_class_with_decisions_and_the_optimal_threshold(tmp_path, capsys):
    # labels all positive: the other decision value is the negative label
    spec = _spec(top="threshold: optimal\n").replace("      a: p\n", "      a: p\n      h: {predicted: d}\n")
    csv = "id,y,p,d\n" + "".join(f"{i},1,{p},{i % 2}\n" for i, _, p in ROWS)
    status, lines, out = _run(tmp_path, capsys, spec, {"pred.csv": csv})
    assert (status, lines) == (0, [])
    d = json.loads((out / "results.json").read_text())
    assert d["learners"]["h"]["recall"] == 0.5
    assert ("learner 'a': the least-cost threshold is undefined, as there are no negatives (only one class in "
            "y_true): the measures at a threshold are taken at 0.5") in d["warnings"]


@pytest.mark.slow
def test_multiclass_with_a_class_absent(tmp_path, capsys):
    spec = """\
    version: 1
    title: t
    task: multiclass
    classes: [a, b, c]
    data:
      - path: pred.csv
        label: y
        learners:
          m: [pa, pb, pc]
    report: {formats: [html, pdf, json], out: out}
    """
    rng = np.random.default_rng(0)
    p = rng.dirichlet([1, 1, 1], 30)
    csv = "y,pa,pb,pc\n" + "".join(f"{'ab'[i % 2]},{r[0]},{r[1]},{r[2]}\n" for i, r in enumerate(p))
    status, lines, out = _run(tmp_path, capsys, spec, {"pred.csv": csv})
    assert (status, lines) == (0, [])
    assert sorted(x.name for x in out.iterdir()) == [".evalreport-set.json", "report.html", "report.pdf", "results.json"]
    d = json.loads((out / "results.json").read_text())
    m = d["learners"]["m"]
    assert m["classes"]["c"]["recall"] is None and m["classes"]["c"]["auc"] is None
    assert m["macro"]["auc"] is None
    assert "learner 'm': classes.c.recall is undefined: class c has no instances" in d["warnings"]


# 3. weights


def _weighted(tmp_path, capsys, weights, *extra, formats=("html", "pdf", "json")):
    """The run of ``weights``, in ``formats``: every format where a class weighs 0 (its
    undefined measures reach the HTML and the PDF); results.json alone where the engine
    scales the weights by a power of two first (the sinks then see ordinary weights),
    and the HTML beside it for weights of an ordinary but large scale."""
    csv = "id,y,p,w\n" + "".join(f"{i},{y},{p},{w!r}\n" for (i, y, p), w in zip(ROWS, weights))
    spec = _spec(extra_keys="    weight: w\n").replace("formats: [json]", f"formats: [{', '.join(formats)}]")
    status, lines, out = _run(tmp_path, capsys, spec, {"pred.csv": csv}, *extra)
    assert (status, lines) == (0, [])
    files = {"html": "report.html", "pdf": "report.pdf", "json": "results.json"}
    assert sorted(x.name for x in out.iterdir()) == sorted([".evalreport-set.json", *(files[f] for f in formats)])
    return json.loads((out / "results.json").read_text())


@pytest.mark.slow
@pytest.mark.parametrize("weightless", ["positives", "negatives"])
def test_zero_weight_on_one_class_is_like_one_class(tmp_path, capsys, weightless):
    zero = 1 if weightless == "positives" else 0
    d = _weighted(tmp_path, capsys, [0.0 if y == zero else 1.0 for y in LABELS])
    a = d["learners"]["a"]
    assert a["auc"] is None and a[weightless] == 0.0
    assert (f"learner 'a': auc is undefined: the {weightless} weigh 0 in total (only one class carries "
            "weight)") in d["warnings"]


@pytest.mark.slow
@pytest.mark.parametrize("scale", [1e308, 1e-320, 2.0**-1074])
def test_weights_of_an_extreme_scale(tmp_path, capsys, scale):
    # sums of 1e308 overflow, products of sums of subnormal weights underflow:
    # the weights are scaled by a power of two (exactly), and the measures are
    # those of scikit-learn with the scaled weights
    rng = np.random.default_rng(3)
    w = np.array([scale * (0.5 + rng.random()) if scale > 1e-300 else scale * rng.integers(1, 9)
                  for _ in ROWS])
    d = _weighted(tmp_path, capsys, w.tolist(), formats=("json",))
    exponent = np.frexp(w.max())[1]
    scaled = np.ldexp(w, -exponent)
    a = d["learners"]["a"]
    assert a["auc"] == pytest.approx(skm.roc_auc_score(LABELS, SCORES, sample_weight=scaled), rel=1e-12)
    assert a["average_precision"] == pytest.approx(
        skm.average_precision_score(LABELS, SCORES, sample_weight=scaled), rel=1e-12)
    yhat = np.array(SCORES) >= 0.5
    assert a["accuracy"] == pytest.approx(skm.accuracy_score(LABELS, yhat, sample_weight=scaled), rel=1e-12)
    assert a["positives"] == pytest.approx(scaled[np.array(LABELS) == 1].sum(), rel=1e-12)
    assert d["warnings"][0].startswith(f"pred.csv: column 'w': the weights are scaled by 2^{-exponent} "
                                       f"(the largest is {magnitude(w.max())}: ")


@pytest.mark.slow
def test_weights_of_an_ordinary_scale_are_not_scaled(tmp_path, capsys):
    w = [2.0 ** 200 * (1 + i % 3) for i in range(N)]
    d = _weighted(tmp_path, capsys, w, formats=("html", "json"))
    assert d["learners"]["a"]["positives"] == sum(x for x, y in zip(w, LABELS) if y)
    assert not any("scaled" in x for x in d["warnings"])


def test_weights_summing_past_the_largest_float_are_refused_by_the_engine():
    with pytest.raises(ValueError, match=r"^sample_weight: the weights sum past the largest float64 "
                       r"\(about 1.8 × 10³⁰⁸\) \(no measure depends"):
        evaluate_binary([0, 1, 1], [0.1, 0.2, 0.3], sample_weight=[1e308, 1e308, 1.0])
    # products of the totals that underflow: NaN measures before
    with pytest.raises(ValueError, match=r"^the product of the classes' total weights \(2 × 10⁻³²⁰ and "
                       r"1 × 10⁻³²⁰\) underflows"):
        evaluate_binary([0, 1, 1], [0.1, 0.2, 0.3], sample_weight=[1e-320, 1e-320, 1e-320])


# 7. names are text


ODD = [r"$\frac{$", r"$\undefinedmacro$", "$", "_hidden", "<b>x</b> & y"]


def _svg_texts(html: str, figure: str) -> list[str]:
    svg = re.search(rf'<svg[^>]*data-figure="{figure}".*?</svg>', html, flags=re.S).group(0)
    return re.findall(r"<text[^>]*>([^<]*)</text>", svg)


@pytest.mark.slow
def test_learner_names_are_drawn_as_text(tmp_path, capsys):
    spec = _spec(extra_keys="    group: g\n").replace("      a: p\n", "".join(
        f"      {json.dumps(name)}: {'pq'[k % 2]}\n" for k, name in enumerate(ODD)))
    spec = spec.replace("formats: [json]", "formats: [html, pdf, json]")
    csv = "id,y,p,q,g\n" + "".join(f"{i},{y},{p},{(i * 3 % 10) / 10},{i % 3}\n" for i, y, p in ROWS)
    status, lines, out = _run(tmp_path, capsys, spec, {"pred.csv": csv})
    assert (status, lines) == (0, [])
    html = (out / "report.html").read_text()
    roc = _svg_texts(html, "roc")
    for name in ODD:
        shown = name.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        # in the legend, '_hidden' too (a zero-width space keeps matplotlib from dropping it)
        assert any(t.lstrip("\u200b").startswith(shown + " (AUC ") for t in roc), (name, roc)
    assert "\u200b_hidden (AUC" in "".join(roc)
    assert "<b>x</b>" not in html and "&lt;b&gt;x&lt;/b&gt; &amp; y" in html


@pytest.mark.slow
def test_class_names_are_drawn_as_text(tmp_path, capsys):
    classes = [r"$\frac{$", "_hidden", "$"]
    spec = f"""\
    version: 1
    title: t
    task: multiclass
    classes: {json.dumps(classes)}
    data:
      - path: pred.csv
        label: y
        learners:
          _m: [pa, pb, pc]
          $x: [pc, pb, pa]
    report: {{formats: [html, pdf, json], out: out}}
    """
    rng = np.random.default_rng(1)
    p = rng.dirichlet([1, 1, 1], 30)
    csv = "y,pa,pb,pc\n" + "".join(f"{classes[i % 3]},{r[0]},{r[1]},{r[2]}\n" for i, r in enumerate(p))
    status, lines, out = _run(tmp_path, capsys, spec, {"pred.csv": csv})
    assert (status, lines) == (0, [])
    html = (out / "report.html").read_text()
    roc = _svg_texts(html, "roc-0")
    assert [t.split(" (AUC")[0] for t in roc if "(AUC" in t] == [r"$\frac{$", "\u200b_hidden", "$"]
    assert "\u200b_m" in _svg_texts(html, "scalars")


def test_one_class_weighing_next_to_nothing_is_refused(tmp_path, capsys):
    # scaling cannot help: the classes' totals are some 300 orders of magnitude apart
    csv = "id,y,p,w\n" + "".join(f"{i},{y},{p},{1.0 if y else 2.0**-1000!r}\n" for i, y, p in ROWS)
    _refused(tmp_path, capsys, _spec(extra_keys="    weight: w\n"), {"pred.csv": csv},
             ["error: spec.yaml:7: data[0].weight: pred.csv: column 'w': the product of the classes' total "
              "weights (9.33 × 10⁻³⁰¹ and 10) underflows: one class weighs next to nothing against the other"])


ENGINE_WEIGHTS = [
    (0.0, "every weight is 0, so the total weight is 0 and no measure is defined"),
]


@pytest.mark.parametrize("task", ["binary", "multiclass"])
@pytest.mark.parametrize("weight,problem", ENGINE_WEIGHTS, ids=["zero"])
def test_engine_weights_of_a_scale_it_cannot_carry(tmp_path, capsys, task, weight, problem):
    # (before: a ZeroDivisionError traceback, an exit 0 with every measure
    # undefined, or a message about 'positives' at the path)
    spec, columns, line = _engine_weight_case(task, weight)
    _refused(tmp_path, capsys, spec, {"pred.parquet": _parquet(**columns)},
             [f"error: spec.yaml:{line}: data[0].weight: pred.parquet: column 'w': " + problem])


def _engine_weight_case(task, weight, engine="duckdb"):
    spec = _spec("pred.parquet", f"    engine: {engine}\n    weight: w\n").replace("    id: id\n", "")
    columns = {"y": LABELS, "p": SCORES, "w": [weight * (1 + i % 3) for i in range(N)]}
    if task == "multiclass":
        spec = spec.replace("title: t\n", "title: t\ntask: multiclass\nclasses: [0, 1]\n").replace(
            "a: p", "a: [q, p]")
        columns["q"] = [1 - s for s in SCORES]
    return spec, columns, 7 if task == "binary" else 9


@pytest.mark.parametrize("task", ["binary", "multiclass"])
@pytest.mark.parametrize("weight", [1e301, 1e-320], ids=["huge", "subnormal"])
def test_engine_weights_of_an_extreme_scale_are_scaled_as_in_memory(tmp_path, capsys, task, weight):
    # issue 36: DuckDB refused what the memory engine scales; both scale by the same power of two
    got = {}
    for engine in ("memory", "duckdb"):
        folder = tmp_path / engine
        folder.mkdir()
        spec, columns, _ = _engine_weight_case(task, weight, engine)
        status, lines, out = _run(folder, capsys, spec, {"pred.parquet": _parquet(**columns)})
        assert (status, lines) == (0, []), lines
        got[engine] = json.loads((out / "results.json").read_text())
    top = weight * 3
    exponent = math.frexp(top)[1]
    note = (f"pred.parquet: column 'w': the weights are scaled by 2^{-exponent} (the largest is {magnitude(top)}: ")
    for engine, d in got.items():
        assert any(w.startswith(note) for w in d["warnings"]), (engine, d["warnings"])
    a, b = got["memory"]["learners"]["a"], got["duckdb"]["learners"]["a"]
    scaled = np.ldexp(np.array([weight * (1 + i % 3) for i in range(N)]), -exponent)
    if task == "binary":
        assert a["auc"] == pytest.approx(skm.roc_auc_score(LABELS, SCORES, sample_weight=scaled), rel=1e-12)
        for key in ("auc", "average_precision", "accuracy", "positives", "negatives"):
            assert b[key] == pytest.approx(a[key], rel=1e-12), key
    else:
        assert b["accuracy"] == pytest.approx(a["accuracy"], rel=1e-12)
        assert b["macro"]["auc"] == pytest.approx(a["macro"]["auc"], rel=1e-12)


# 8. issue 36: the engines agree. What the in-memory road refuses, DuckDB refuses with the same
# words (a .csv of another separator, an encoding); a missing or repeated id too; and DuckDB's
# own query excerpt (LINE 1: SELECT ...) never follows the error line.

ENGINE_AGREES = [
    ("semicolons", GOOD.replace(",", ";"),
     ["error: spec.yaml:4: data[0].path: pred.csv: the header reads as one column 'id;y;p'; the file looks "
      "separated by ';', but .csv is read as comma-separated (.csv: commas, .tsv: tabs)"] * 2),
    ("bars", GOOD.replace(",", "|"),
     ["error: spec.yaml:4: data[0].path: pred.csv: the header reads as one column 'id|y|p'; the file looks "
      "separated by '|', but .csv is read as comma-separated (.csv: commas, .tsv: tabs)"] * 2),
    ("tabs", GOOD.replace(",", "\t"),
     ["error: spec.yaml:4: data[0].path: pred.csv: the header reads as one column 'id\\ty\\tp'; the file looks "
      "separated by '\\t', but .csv is read as comma-separated (.csv: commas, .tsv: tabs)"] * 2),
    ("UTF-16", GOOD.encode("utf-16"),
     ["error: spec.yaml:4: data[0].path: pred.csv is UTF-16 text (it starts with a UTF-16 byte-order mark); "
      "save it as UTF-8"] * 2),
    ("gzip not named so", _gzip(GOOD),
     ["error: spec.yaml:4: data[0].path: pred.csv is gzip-compressed, but its name does not say so (name it "
      "pred.csv.gz)"] * 2),
    ("duplicate id", _replace_row(GOOD, 5, "4,1,0.5"),
     ["error: spec.yaml:6: data[0].id: pred.csv: column 'id': id 4 appears twice (rows 4 and 5)",
      "error: spec.yaml:6: data[0].id: pred.csv: column 'id': id 4 appears twice; an id names one row"]),
    ("empty id", _replace_row(GOOD, 5, ",1,0.5"),
     ["error: spec.yaml:6: data[0].id: pred.csv: column 'id', row 5: missing id",
      "error: spec.yaml:6: data[0].id: pred.csv: column 'id': 1 missing id(s) (empty or null); every row needs "
      "an id"]),
]


@pytest.mark.parametrize("engine", ["memory", "duckdb"])
@pytest.mark.parametrize("name,content,expected", ENGINE_AGREES, ids=[c[0] for c in ENGINE_AGREES])
def test_engines_refuse_alike(tmp_path, capsys, engine, name, content, expected):
    # (the engine's key goes after id: the lines of path and id stay)
    spec = _spec(extra_keys="    engine: duckdb\n") if engine == "duckdb" else _spec()
    _refused(tmp_path, capsys, spec, {"pred.csv": content}, [expected[1 if engine == "duckdb" else 0]])


@pytest.mark.parametrize("name,content", [
    ("truncated quote", GOOD + '21,1,"0.5'),
    ("Latin-1", ("id,y,p,n\n" + "".join(f"{i},{y},{p},caf\xe9\n" for i, y, p in ROWS)).encode("latin-1")),
    ("a line of 3 MB", GOOD + "21,1," + "9" * 3_000_000 + "\n"),
], ids=["truncated", "latin-1", "very long line"])
def test_duckdb_errors_are_one_line_without_the_query_excerpt(tmp_path, capsys, name, content):
    status, lines, out = _run(tmp_path, capsys, _spec(extra_keys="    engine: duckdb\n"), {"pred.csv": content})
    assert status == 2 and len(lines) == 1, lines
    assert lines[0].startswith("error: spec.yaml:") and "LINE 1:" not in lines[0] and "^" not in lines[0]
    assert len(lines[0]) < 1000
    assert (out / "results.json").read_text() == PREVIOUS


def test_bad_sql_is_one_line(tmp_path, capsys):
    spec = _spec("SELECT * FROM nowhere_at_all", "    engine: duckdb\n    kind: sql\n").replace("    id: id\n", "")
    status, lines, _ = _run(tmp_path, capsys, spec, {})
    assert status == 2 and len(lines) == 1 and lines[0].startswith("error: spec.yaml:"), lines
    assert "LINE 1:" not in lines[0] and "nowhere_at_all" in lines[0]


def test_a_header_longer_than_a_block_is_read(tmp_path, capsys):
    # pyarrow parses 1 MiB blocks: a header line of 1 MiB (the longest read: MAX_HEADER_BYTES), its
    # line end past the block, was "Empty CSV file or block: cannot infer number of columns"
    from evalreport.spec.headers import MAX_HEADER_BYTES

    name = "x" * (MAX_HEADER_BYTES - len("id,y,p,"))
    csv = f"id,y,p,{name}\n" + "".join(f"{i},{y},{p},0\n" for i, y, p in ROWS)
    status, lines, out = _run(tmp_path, capsys, _spec(), {"pred.csv": csv})
    assert (status, lines) == (0, [])
    d = json.loads((out / "results.json").read_text())
    assert d["learners"]["a"]["auc"] == pytest.approx(skm.roc_auc_score(LABELS, SCORES), abs=1e-12)
