"""The Python API with in-memory data: a spec as a mapping or YAML text, and
tables (pyarrow, pandas) named by ``data[i].table`` instead of files, through
the same checks as a file."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.csv as pacsv
import pytest
import yaml

import evalreport
from evalreport.errors import DataError, SpecError
from evalreport.results import result_dict

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "watermelon"


def _spec_mapping(**entry) -> dict:
    """The watermelon example's spec as a mapping, its data entry changed by ``entry``."""
    spec = yaml.safe_load((EXAMPLE / "spec.yaml").read_text())
    spec["data"][0].update(entry)
    spec["confidence"] = {"bootstrap": 200}
    return spec


def _table() -> pa.Table:
    return pacsv.read_csv(EXAMPLE / "predictions.csv")


def _without_inputs(d: dict) -> dict:
    """results.json less what names the input (the file's path or the table's name)."""
    out = {k: v for k, v in d.items() if k != "inputs"}
    out["learners"] = {k: {m: v for m, v in lr.items() if m != "source"} for k, lr in d["learners"].items()}
    return out


@pytest.fixture(scope="module")
def from_file():
    spec = _spec_mapping(path=str(EXAMPLE / "predictions.csv"))
    return result_dict(evalreport.evaluate(spec))


@pytest.mark.slow
def test_an_arrow_table_gives_the_numbers_of_the_file(from_file):
    spec = _spec_mapping(path=None, table="test")
    del spec["data"][0]["path"]
    result = evalreport.evaluate(spec, data={"test": _table()})
    got = result_dict(result)
    assert _without_inputs(got) == _without_inputs(from_file)
    assert got["learners"]["A"]["source"] == "table 'test'"
    (entry,) = got["inputs"]
    assert entry["path"] == "table 'test'" and entry["rows"] == 10
    assert len(entry["sha256"]) == 64
    # the same table, the same hash
    again = evalreport.evaluate(spec, data={"test": _table()})
    assert again.inputs[0]["sha256"] == entry["sha256"]


@pytest.mark.slow
def test_a_pandas_data_frame_gives_the_numbers_of_the_file(from_file):
    import pandas as pd
    spec = _spec_mapping(table="test")
    del spec["data"][0]["path"]
    frame = pd.read_csv(EXAMPLE / "predictions.csv")
    assert isinstance(frame, pd.DataFrame)
    got = result_dict(evalreport.evaluate(spec, data={"test": frame}))
    assert _without_inputs(got) == _without_inputs(from_file)


def test_a_missing_column_is_told_as_for_a_file(tmp_path):
    table = _table().rename_columns(["id", "ripe", "A", "C"])
    pacsv.write_csv(table, tmp_path / "predictions.csv")
    spec = _spec_mapping()
    text = yaml.safe_dump(spec, sort_keys=False)
    (tmp_path / "spec.yaml").write_text(text)
    with pytest.raises(DataError) as from_file:
        evalreport.evaluate(tmp_path / "spec.yaml")
    memory = dict(spec)
    memory["data"] = [{k: v for k, v in spec["data"][0].items() if k != "path"} | {"table": "test"}]
    with pytest.raises(DataError) as from_table:
        evalreport.evaluate(memory, data={"test": table})
    (file_message,) = from_file.value.problems
    (table_message,) = from_table.value.problems
    assert "column 'B' is not in predictions.csv (columns: id, ripe, A, C)" in file_message
    assert table_message.endswith("data[0].learners.B.score: column 'B' is not in table 'test' "
                                  "(columns: id, ripe, A, C)")
    # the same message but for the input's name and the spec's name and line
    tail = file_message.split(": ", 1)[1]
    assert table_message.split(": ", 1)[1] == tail.replace("predictions.csv", "table 'test'")


@pytest.mark.slow
def test_a_spec_as_yaml_text_and_as_a_mapping():
    spec = _spec_mapping(table="test")
    del spec["data"][0]["path"]
    text = yaml.safe_dump(spec, sort_keys=False)
    a = evalreport.evaluate(text, data={"test": _table()})
    b = evalreport.evaluate(spec, data={"test": _table()})
    assert result_dict(a) == result_dict(b)
    assert evalreport.load_spec(text).data[0].table == "test"
    with pytest.raises(SpecError) as bad:
        evalreport.load_spec({**spec, "positive_label": "good"})
    assert "<spec>:" in bad.value.problems[0] and "unknown key 'positive_label'" in bad.value.problems[0]


def test_a_table_named_but_not_given_and_one_given_but_not_named():
    spec = _spec_mapping(table="test")
    del spec["data"][0]["path"]
    with pytest.raises(DataError) as missing:
        evalreport.evaluate(spec, data={"tset": _table()})
    assert missing.value.problems == [
        "<spec>:12: data[0].table: table 'test' is not given: pass it as evaluate(spec, data={'test': ...}) "
        "(tables given: 'tset') (did you mean 'tset'?)",
        "data: table 'tset' is given but no data entry of the spec names it (table: tset); "
        "the spec's tables: 'test'",
    ]
    with pytest.raises(DataError) as extra:
        evalreport.evaluate(_spec_mapping(path=str(EXAMPLE / "predictions.csv")), data={"test": _table()})
    assert extra.value.problems == [
        "data: table 'test' is given but no data entry of the spec names it (table: test); "
        "the spec's tables: none: every data entry gives a path"]


def test_path_or_table_not_both():
    with pytest.raises(SpecError) as both:
        evalreport.load_spec(_spec_mapping(table="test"))
    assert "give either path (a file) or table (an in-memory table's name)" in both.value.problems[0]


def test_not_a_table():
    spec = _spec_mapping(table="test")
    del spec["data"][0]["path"]
    with pytest.raises(DataError) as bad:
        evalreport.evaluate(spec, data={"test": [1, 2, 3]})
    assert bad.value.problems == ["table 'test': expected a pyarrow Table or a pandas or polars DataFrame, "
                                  "got builtins.list"]


@pytest.mark.slow
def test_any_arrow_stream_is_read(from_file):
    """polars (and other libraries) hand their data over through the Arrow
    PyCapsule interface: an object with only __arrow_c_stream__ is read."""
    table = _table()

    class Frame:  # what polars.DataFrame offers pyarrow, and nothing else
        def __arrow_c_stream__(self, requested_schema=None):
            return table.__arrow_c_stream__(requested_schema)

    spec = _spec_mapping(table="test")
    del spec["data"][0]["path"]
    got = result_dict(evalreport.evaluate(spec, data={"test": Frame()}))
    assert _without_inputs(got) == _without_inputs(from_file)


def _missing_column(frame):
    return frame.rename(columns={"B": "C"})


def _nan_score(frame):
    frame.loc[3, "A"] = float("nan")
    return frame


def _text_score(frame):
    frame["A"] = frame["A"].astype(str)
    frame.loc[2, "A"] = "high"
    return frame


@pytest.mark.parametrize("spoil, expected", [
    (_missing_column, "data[0].learners.B.score: column 'B' is not in table 'test' (columns: id, ripe, A, C)"),
    (_nan_score, "data[0].learners.A.score: table 'test': column 'A', row 4: missing value (empty, NA or NaN)"),
    (_text_score, "data[0].learners.A.score: table 'test': column 'A', row 3: score 'high' is not a number"),
])
def test_a_data_frame_with_a_bad_column_is_told_as_a_file(tmp_path, spoil, expected):
    """A pandas DataFrame's bad column (missing, a missing value, a text) gets the
    file's message, the table named where the file's path would be."""
    import pandas as pd
    frame = spoil(pd.read_csv(EXAMPLE / "predictions.csv"))
    frame.to_csv(tmp_path / "predictions.csv", index=False)
    spec = _spec_mapping(path=str(tmp_path / "predictions.csv"))
    with pytest.raises(DataError) as from_file:
        evalreport.evaluate(spec)
    memory = dict(spec)
    memory["data"] = [{k: v for k, v in spec["data"][0].items() if k != "path"} | {"table": "test"}]
    with pytest.raises(DataError) as from_frame:
        evalreport.evaluate(memory, data={"test": frame})
    (file_message,) = from_file.value.problems
    (frame_message,) = from_frame.value.problems
    assert frame_message == "<spec>:" + frame_message.split(":")[1] + ": " + expected
    # the same message but for the input's name (and where the spec's entry is)
    path = str(tmp_path / "predictions.csv")
    assert frame_message.split(": ", 1)[1] == (file_message.split(": ", 1)[1].replace(path, "table 'test'")
                                               .replace("predictions.csv", "table 'test'"))


# issue 36: what pandas hands over that pyarrow cannot take is told by the table's and the column's name

def _frame():
    pd = pytest.importorskip("pandas")
    return pd.read_csv(EXAMPLE / "predictions.csv")


def _duplicate(frame):
    frame.columns = list(frame.columns[:-1]) + [frame.columns[-2]]
    return frame


def _complex(frame):
    frame["A"] = frame["A"] + 1j
    return frame


def _mixed(frame):
    frame["A"] = frame["A"].astype(object)
    frame.loc[2, "A"] = "high"
    frame.loc[3, "A"] = b"low"
    return frame


@pytest.mark.parametrize("spoil, expected", [
    (_duplicate, "table 'test': column 'A' appears 2 times (columns 3 and 4): rename all but one"),
    (_complex, "table 'test': column 'A' holds complex numbers (complex128); a column holds real numbers, text "
               "or booleans"),
    (_mixed, "table 'test': column 'A' (dtype object) mixes values of more than one kind (numbers, text, bytes, "
             "...) and cannot be read as one column: "),
    (lambda frame: frame["A"], "table 'test': a pandas Series is one column; pass a DataFrame of the columns the "
                               "spec names (series.to_frame(), or the whole frame)"),
    (lambda frame: list(frame["A"]), "table 'test': expected a pyarrow Table or a pandas or polars DataFrame, got "
                                     "builtins.list"),
], ids=["duplicate column", "complex scores", "mixed object column", "a Series", "a list"])
def test_a_data_frame_pyarrow_cannot_take_is_told_by_its_column(spoil, expected):
    spec = _spec_mapping(table="test")
    del spec["data"][0]["path"]
    with pytest.raises(DataError) as bad:
        evalreport.evaluate(spec, data={"test": spoil(_frame())})
    (message,) = bad.value.problems
    assert message.startswith(expected)


def test_datetime_scores_are_refused_at_their_key():
    pd = pytest.importorskip("pandas")
    frame = _frame()
    frame["A"] = pd.date_range("2020-01-01", periods=len(frame))
    spec = _spec_mapping(table="test")
    del spec["data"][0]["path"]
    with pytest.raises(DataError) as bad:
        evalreport.evaluate(spec, data={"test": frame})
    (message,) = bad.value.problems
    assert "data[0].learners.A.score: table 'test': column 'A', row 1: score " in message
    assert message.endswith("is not a number")
