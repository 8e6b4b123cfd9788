"""The streamed readers give exactly what a whole-file pyarrow read gives."""

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest

from evalreport.data import readers


def _as_list(col):
    return col.tolist() if isinstance(col, np.ndarray) else col.to_pylist()


def _frame(n, seed=0):
    rng = np.random.default_rng(seed)
    return {
        "id": np.arange(n, dtype=np.int64) * 3,
        "y": (rng.random(n) < 0.3).astype(np.int8),
        "p": rng.random(n),
        "flag": rng.random(n) < 0.5,
    }


@pytest.mark.parametrize("row_group_size", [7, 64, 1000])
def test_parquet_in_pieces(tmp_path, monkeypatch, row_group_size):
    monkeypatch.setattr(readers, "PARQUET_PIECE_ROWS", 50)
    cols = _frame(1000)
    cols["name"] = np.array([f"r{i}" for i in range(1000)])
    path = tmp_path / "p.parquet"
    pq.write_table(pa.table(cols), path, row_group_size=row_group_size)
    got = readers.read_columns(path, ["y", "p", "id", "name", "flag"])
    assert list(got) == ["y", "p", "id", "name", "flag"]
    for c in ("y", "p", "id", "flag"):
        assert isinstance(got[c], np.ndarray) and got[c].dtype == cols[c].dtype
        np.testing.assert_array_equal(got[c], cols[c])
    assert isinstance(got["name"], pa.ChunkedArray) and got["name"].to_pylist() == cols["name"].tolist()


@pytest.mark.parametrize("at", [5, 95])  # in a piece before the last, and in the last
def test_parquet_missing_values_stay_arrow(tmp_path, monkeypatch, at):
    monkeypatch.setattr(readers, "PARQUET_PIECE_ROWS", 10)
    p = pa.array([0.5] * at + [None] + [0.25] * (99 - at))
    path = tmp_path / "p.parquet"
    pq.write_table(pa.table({"p": p, "y": np.zeros(100, np.int64)}), path, row_group_size=10)
    got = readers.read_columns(path, ["p", "y"])
    assert isinstance(got["p"], pa.ChunkedArray) and got["p"].null_count == 1
    assert _as_list(got["p"]) == p.to_pylist()
    assert isinstance(got["y"], np.ndarray)


def _write_csv(path, cols, sep=","):
    names = list(cols)
    with open(path, "w") as f:
        f.write(sep.join(names) + "\n")
        for row in zip(*(cols[c] for c in names)):
            f.write(sep.join(str(v) for v in row) + "\n")


@pytest.mark.parametrize("suffix", [".csv", ".tsv"])
def test_csv_in_slices_equals_a_whole_read(tmp_path, monkeypatch, suffix):
    monkeypatch.setattr(readers, "CSV_SLICE_BYTES", 1000)  # many slices, cut mid-line
    cols = _frame(3000, seed=1)
    cols["p"] = np.round(cols["p"], 6)
    path = tmp_path / f"p{suffix}"
    _write_csv(path, {"id": cols["id"], "y": cols["y"], "p": cols["p"]}, "\t" if suffix == ".tsv" else ",")
    got = readers.read_columns(path, ["p", "y", "id"])
    whole = pacsv.read_csv(path, parse_options=readers.csv_parse(suffix))
    for c in ("p", "y", "id"):
        assert isinstance(got[c], np.ndarray), c
        np.testing.assert_array_equal(got[c], whole.column(c).to_numpy())
        assert got[c].dtype == whole.column(c).to_numpy().dtype


@pytest.mark.parametrize("tail", ["0.5", "abc", ""])
def test_csv_slices_fall_back_when_a_later_slice_differs(tmp_path, monkeypatch, tail):
    # integers first, then a float, a word or a missing value far down: the
    # first slice's types do not fit, so the file is read whole, as before
    monkeypatch.setattr(readers, "CSV_SLICE_BYTES", 500)
    n = 2000
    score = [str(i % 7) for i in range(n)]
    score[-3] = tail
    path = tmp_path / "p.csv"
    _write_csv(path, {"y": [i % 2 for i in range(n)], "s": score})
    got = readers.read_columns(path, ["y", "s"])
    whole = pacsv.read_csv(path)
    assert _as_list(got["s"]) == whole.column("s").to_pylist()
    assert _as_list(got["y"]) == whole.column("y").to_pylist()


def test_csv_text_columns_read_whole(tmp_path, monkeypatch):
    monkeypatch.setattr(readers, "CSV_SLICE_BYTES", 300)
    n = 500
    path = tmp_path / "p.csv"
    _write_csv(path, {"label": ["pos" if i % 3 else "neg" for i in range(n)], "s": [i / n for i in range(n)]})
    got = readers.read_columns(path, ["label", "s"])
    assert isinstance(got["label"], pa.ChunkedArray)
    assert got["label"].to_pylist()[:3] == ["neg", "pos", "pos"]


@pytest.mark.parametrize("name, compression", [("p.csv.gz", "gzip"), ("p.tsv.bz2", "bz2"),
                                               ("p.csv.zst", "zstd"), ("p.jsonl.gz", "gzip"),
                                               ("p.jsonl.lz4", "lz4")])
def test_compressed_text_files_read_as_the_plain_ones(tmp_path, monkeypatch, name, compression):
    # compressed files are read whole (slices are cut at the plain text's byte offsets)
    monkeypatch.setattr(readers, "CSV_SLICE_BYTES", 1000)
    sliced = readers._read_csv_slices

    def only_plain(file, *args):
        assert readers.data_suffix(file)[1] is None, "a compressed file was sliced"
        return sliced(file, *args)

    monkeypatch.setattr(readers, "_read_csv_slices", only_plain)
    import json

    cols = _frame(3000, seed=2)
    cols["p"] = np.round(cols["p"], 6)
    plain = tmp_path / name.rsplit(".", 1)[0]
    if plain.suffix == ".jsonl":
        plain.write_text("".join(json.dumps({"id": int(i), "y": int(y), "p": float(p)}) + "\n"
                                 for i, y, p in zip(cols["id"], cols["y"], cols["p"])))
    else:
        _write_csv(plain, {"id": cols["id"], "y": cols["y"], "p": cols["p"]}, "\t" if plain.suffix == ".tsv" else ",")
    # an upper-case name too: pyarrow's own guess of the codec knows lower case only
    name = name.upper() if compression == "gzip" else name
    with pa.CompressedOutputStream(str(tmp_path / name), compression) as out:
        out.write(plain.read_bytes())
    assert (tmp_path / name).stat().st_size > 2 * readers.CSV_SLICE_BYTES  # (past the size that slices)
    assert readers.column_names(tmp_path / name) == ["id", "y", "p"]
    got = readers.read_columns(tmp_path / name, ["p", "y", "id"])
    want = readers.read_columns(plain, ["p", "y", "id"])
    for c in ("p", "y", "id"):
        assert _as_list(got[c]) == _as_list(want[c]), c
    np.testing.assert_array_equal(np.asarray(_as_list(got["p"])), cols["p"])


def test_data_suffix():
    from evalreport.spec import data_suffix

    assert data_suffix("a/b.CSV.GZ") == (".csv", ".gz")
    assert data_suffix("b.jsonl.zst") == (".jsonl", ".zst")
    assert data_suffix("b.parquet") == (".parquet", None)
    assert data_suffix("b.parquet.gz") == (".gz", None)  # Parquet compresses inside: not a format
    assert data_suffix("b.gz") == (".gz", None)
