"""The out-of-core engines against the in-memory engine.

DuckDB (always): Parquet, CSV, globs and lists of files, a table of a DuckDB
database (by argument and by duckdb:// URL), a SQL query, groups (``by``);
continuous, tied and integer scores of both signs, weights, int and string
labels. Every count table must equal ``count_table`` on the same rows
(thresholds and counts exactly when unweighted, 1e-9 with weights) and the
scalars of ``evaluate_counts`` must agree to 1e-9. Bad inputs raise clear
ValueErrors. With ``resolution``, the reported bounds must hold against the
exact values, on random data and on orderings built to reach them.

Spark (when PySpark is installed): one local[2] session for the module, the
same equality checks on one small data set.
"""

from __future__ import annotations

import math

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest

from evalreport.engines import (
    Aggregated,
    check_labels,
    match_positive,
    resolution_bounds,
)
from evalreport.engines.duckdb import aggregate_duckdb
from evalreport.metrics import count_table, count_table_from_aggregates, evaluate_counts

from brute import twice_right_pairs

SCALARS = ("auc", "average_precision", "bep", "expected_total_cost")
LEARNERS = {"cont": "s_cont", "tied": "s_tied", "int": "s_int"}


def make_data(n: int, seed: int, *, string_labels: bool = False, groups: int = 0) -> dict:
    """Labels ~30 % positive; continuous scores of both signs, scores tied to one
    decimal, integer scores in [-5, 5]; weights in [0, 3) with some zeros."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    data = {
        "y": np.where(y, "pos", "neg") if string_labels else y.astype(np.int8),
        "s_cont": rng.normal(size=n) + 0.8 * y,
        "s_tied": np.round(rng.random(n) + 0.4 * y, 1),
        "s_int": rng.integers(-5, 6, size=n) + y.astype(np.int64) * rng.integers(0, 3, size=n),
        "w": np.where(rng.random(n) < 0.05, 0.0, rng.random(n) * 3),
    }
    if groups:
        data["g"] = np.array([f"fold{i}" for i in rng.integers(0, groups, size=n)])
    return data


def write_parquet(data: dict, path, **kw) -> str:
    pq.write_table(pa.table(data), path, **kw)
    return str(path)


def write_csv(data: dict, path) -> str:
    pacsv.write_csv(pa.table(data), path)
    return str(path)


def assert_same_table(got, want, *, weighted: bool) -> None:
    assert np.array_equal(got.threshold, want.threshold)
    assert got.n_rows == want.n_rows
    if weighted:
        assert got.tp.dtype == np.float64 and got.fp.dtype == np.float64
        np.testing.assert_allclose(got.tp, want.tp, rtol=1e-12, atol=1e-9)
        np.testing.assert_allclose(got.fp, want.fp, rtol=1e-12, atol=1e-9)
    else:
        assert got.tp.dtype == np.int64 and got.fp.dtype == np.int64
        assert np.array_equal(got.tp, want.tp)
        assert np.array_equal(got.fp, want.fp)


def assert_same_scalars(got, want, tol: float = 1e-9) -> None:
    a, b = evaluate_counts(got), evaluate_counts(want)
    for name in SCALARS:
        x, y = getattr(a, name), getattr(b, name)
        assert (x is None) == (y is None), name
        if x is not None:
            assert abs(x - y) <= tol, (name, x, y)


def check_against_memory(agg: Aggregated, data: dict, *, positive, weighted: bool, learners=LEARNERS):
    assert agg.rows == len(data["y"])
    assert set(agg.tables) == set(learners)
    for name, col in learners.items():
        want = count_table(
            data["y"], data[col], sample_weight=data["w"] if weighted else None, positive=positive
        )
        assert_same_table(agg.tables[name], want, weighted=weighted)
        assert_same_scalars(agg.tables[name], want)


# --------------------------------------------------------------------------- DuckDB


@pytest.mark.slow
@pytest.mark.parametrize("weighted", [False, True], ids=["counts", "weights"])
@pytest.mark.parametrize("string_labels", [False, True], ids=["int-labels", "str-labels"])
def test_parquet_equals_memory(tmp_path, weighted, string_labels):
    data = make_data(5000, 1, string_labels=string_labels)
    positive = "pos" if string_labels else 1
    path = write_parquet(data, tmp_path / "pred.parquet", row_group_size=700)
    agg = aggregate_duckdb(
        path, label="y", positive=positive, scores=LEARNERS, weight="w" if weighted else None, threads=2
    )
    check_against_memory(agg, data, positive=positive, weighted=weighted)
    assert agg.labels_seen == (["neg", "pos"] if string_labels else [0, 1])
    assert agg.positive_label == positive and not agg.labels_truncated
    assert agg.resolution_bound is None
    # streamed, and small enough to be kept whole
    assert set(agg.reductions) == set(LEARNERS) and not any(r.reduced for r in agg.reductions.values())


@pytest.mark.parametrize("weighted", [False, True], ids=["counts", "weights"])
def test_csv_equals_memory(tmp_path, weighted):
    data = make_data(3000, 2, string_labels=True)
    path = write_csv(data, tmp_path / "pred.csv")
    agg = aggregate_duckdb(path, label="y", positive="pos", scores=LEARNERS, weight="w" if weighted else None)
    check_against_memory(agg, data, positive="pos", weighted=weighted)


def test_glob_and_list_of_parquet_files(tmp_path):
    data = make_data(4000, 3)
    parts = np.array_split(np.arange(4000), 4)
    files = []
    for i, idx in enumerate(parts):
        files.append(write_parquet({k: v[idx] for k, v in data.items()}, tmp_path / f"part-{i}.parquet"))
    write_parquet({k: v[:10] for k, v in data.items()}, tmp_path / "other.parquet")  # not matched
    by_glob = aggregate_duckdb(str(tmp_path / "part-*.parquet"), label="y", positive=1, scores=LEARNERS)
    check_against_memory(by_glob, data, positive=1, weighted=False)
    by_list = aggregate_duckdb(files, label="y", positive=1, scores=LEARNERS, weight="w")
    check_against_memory(by_list, data, positive=1, weighted=True)


def test_duckdb_database_table(tmp_path):
    data = make_data(3000, 4, string_labels=True)
    src = write_parquet(data, tmp_path / "pred.parquet")
    db = str(tmp_path / "preds.duckdb")
    with duckdb.connect(db) as con:
        con.execute("CREATE SCHEMA runs")
        con.execute("CREATE TABLE runs.preds AS SELECT * FROM read_parquet(?)", [src])
    agg = aggregate_duckdb("runs.preds", database=db, label="y", positive="pos", scores=LEARNERS)
    check_against_memory(agg, data, positive="pos", weighted=False)
    url = aggregate_duckdb(f"duckdb://{db}?table=runs.preds", label="y", positive="pos", scores=LEARNERS, weight="w")
    check_against_memory(url, data, positive="pos", weighted=True)
    # a query on the database
    q = aggregate_duckdb(
        "SELECT * FROM runs.preds WHERE s_int >= 0", database=db, label="y", positive="pos", scores=LEARNERS
    )
    keep = data["s_int"] >= 0
    check_against_memory(q, {k: v[keep] for k, v in data.items()}, positive="pos", weighted=False)
    with pytest.raises(ValueError, match="give the database file"):
        aggregate_duckdb("runs.preds", kind="table", label="y", positive="pos", scores=LEARNERS)
    with pytest.raises(ValueError, match="name the table"):
        aggregate_duckdb(f"duckdb://{db}", label="y", positive="pos", scores=LEARNERS)


def test_sql_query(tmp_path):
    data = make_data(3000, 5)
    path = write_parquet(data, tmp_path / "pred.parquet")
    query = f"SELECT y, s_cont * 2 AS doubled, w FROM read_parquet('{path}') WHERE w > 0;"
    agg = aggregate_duckdb(query, label="y", positive=1, scores={"x": "doubled"}, weight="w")
    assert agg.tables.keys() == {"x"}
    keep = data["w"] > 0
    want = count_table(data["y"][keep], data["s_cont"][keep] * 2, sample_weight=data["w"][keep])
    assert_same_table(agg.tables["x"], want, weighted=True)
    assert_same_scalars(agg.tables["x"], want)


def test_groups_give_one_table_per_learner_and_group(tmp_path):
    data = make_data(4000, 6, groups=3)
    path = write_parquet(data, tmp_path / "pred.parquet")
    agg = aggregate_duckdb(path, label="y", positive=1, scores=LEARNERS, weight="w", by="g")
    assert set(agg.tables) == {(n, f"fold{i}") for n in LEARNERS for i in range(3)}
    for (name, group), table in agg.tables.items():
        keep = data["g"] == group
        want = count_table(data["y"][keep], data[LEARNERS[name]][keep], sample_weight=data["w"][keep])
        assert_same_table(table, want, weighted=True)


def test_odd_column_names_are_quoted(tmp_path):
    data = make_data(500, 7)
    odd = {'the "label"': data["y"], "score; DROP TABLE x": data["s_cont"], "Tied Score": data["s_tied"]}
    path = write_parquet(odd, tmp_path / "odd.parquet")
    agg = aggregate_duckdb(
        path, label='the "label"', positive=1, scores={"a": "score; DROP TABLE x", "b": "Tied Score"}
    )
    assert_same_table(agg.tables["a"], count_table(data["y"], data["s_cont"]), weighted=False)
    assert_same_table(agg.tables["b"], count_table(data["y"], data["s_tied"]), weighted=False)


def test_labels_are_reported_and_matched_as_numpy_does(tmp_path):
    data = make_data(600, 8)
    data["three"] = np.array(["a", "b", "c"])[np.arange(600) % 3]
    data["bools"] = data["y"].astype(bool)
    path = write_parquet(data, tmp_path / "pred.parquet")
    three = aggregate_duckdb(path, label="three", positive="a", scores={"m": "s_cont"})
    assert three.labels_seen == ["a", "b", "c"]
    with pytest.raises(ValueError, match="more than two labels"):
        check_labels(three.labels_seen, "a")
    # positive True matches boolean labels; the text "1" never matches the number 1
    bools = aggregate_duckdb(path, label="bools", positive=True, scores={"m": "s_cont"})
    assert_same_table(bools.tables["m"], count_table(data["bools"], data["s_cont"], positive=True), weighted=False)
    text = aggregate_duckdb(path, label="y", positive="1", scores={"m": "s_cont"})
    assert text.positive_label is None and text.tables["m"].positives == 0
    with pytest.raises(ValueError, match="does not occur"):
        check_labels(text.labels_seen, "1")
    check_labels([0, 1], 1)
    check_labels([0], 1)  # one label, not the positive one: all negatives
    assert match_positive([0.0, 1.0], True) == 1.0
    many = {"y": np.arange(50), "s": np.linspace(0, 1, 50)}
    agg = aggregate_duckdb(write_parquet(many, tmp_path / "many.parquet"), label="y", positive=3, scores={"m": "s"})
    assert agg.labels_truncated and len(agg.labels_seen) == 21 and agg.positive_label == 3


# ---- bad inputs


def _bad(tmp_path, **changes) -> str:
    data = make_data(200, 9)
    data.update(changes)
    return write_parquet(data, tmp_path / "bad.parquet")


def test_nan_null_and_infinite_scores_are_rejected(tmp_path):
    s = make_data(200, 9)["s_cont"].copy()
    s[[3, 50]] = np.nan
    s[7] = np.inf
    path = _bad(tmp_path, s_cont=s)
    with pytest.raises(ValueError, match=r"score column 's_cont' \(learner 'cont'\) has 3 bad value\(s\): 2 NaN, 1 infinite \(of 200 rows\)"):
        aggregate_duckdb(path, label="y", positive=1, scores={"cont": "s_cont"})
    nulls = pa.array(make_data(200, 9)["s_tied"].tolist()[:-1] + [None])
    path = _bad(tmp_path, s_tied=nulls)
    with pytest.raises(ValueError, match=r"'s_tied' \(learner 'tied'\) has 1 bad value\(s\): 1 missing"):
        aggregate_duckdb(path, label="y", positive=1, scores={"tied": "s_tied"})


def test_missing_and_non_numeric_columns(tmp_path):
    path = _bad(tmp_path, text=np.array(["x"] * 200))
    with pytest.raises(ValueError, match=r"score \(learner 'a'\) column 's_cnt' not found in parquet .*did you mean 's_cont'"):
        aggregate_duckdb(path, label="y", positive=1, scores={"a": "s_cnt"})
    with pytest.raises(ValueError, match="label column 'label' not found"):
        aggregate_duckdb(path, label="label", positive=1, scores={"a": "s_cont"})
    with pytest.raises(ValueError, match=r"weight column 'wt' not found.*did you mean 'w'"):
        aggregate_duckdb(path, label="y", positive=1, scores={"a": "s_cont"}, weight="wt")
    with pytest.raises(ValueError, match=r"score column 'text' of learner 'a' is not numeric \(DuckDB type VARCHAR\)"):
        aggregate_duckdb(path, label="y", positive=1, scores={"a": "text"})


def test_bad_weights_labels_and_sources(tmp_path):
    w = make_data(200, 9)["w"].copy()
    w[[1, 2]] = -0.5
    path = _bad(tmp_path, w=w)
    with pytest.raises(ValueError, match=r"weight column 'w' has 2 negative \(smallest -0.5\) value\(s\) of 200 rows"):
        aggregate_duckdb(path, label="y", positive=1, scores={"a": "s_cont"}, weight="w")
    labels = pa.array([None] + make_data(200, 9)["y"].tolist()[1:], type=pa.int8())
    path = _bad(tmp_path, y=labels)
    with pytest.raises(ValueError, match=r"label column 'y' has 1 missing value"):
        aggregate_duckdb(path, label="y", positive=1, scores={"a": "s_cont"})
    empty = write_parquet({k: v[:0] for k, v in make_data(10, 1).items()}, tmp_path / "empty.parquet")
    with pytest.raises(ValueError, match="has no rows"):
        aggregate_duckdb(empty, label="y", positive=1, scores={"a": "s_cont"})
    with pytest.raises(ValueError, match="DuckDB cannot read parquet"):
        aggregate_duckdb(str(tmp_path / "nothing-*.parquet"), label="y", positive=1, scores={"a": "s_cont"})
    with pytest.raises(ValueError, match="cannot tell the kind"):
        aggregate_duckdb(str(tmp_path / "pred.feather"), label="y", positive=1, scores={"a": "s_cont"})
    with pytest.raises(ValueError, match="kind must be one of"):
        aggregate_duckdb(empty, kind="excel", label="y", positive=1, scores={"a": "s_cont"})
    with pytest.raises(ValueError, match="resolution"):
        aggregate_duckdb(empty, label="y", positive=1, scores={"a": "s_cont"}, resolution=-0.1)
    with pytest.raises(ValueError, match="Memory must have a number|memory_limit"):
        aggregate_duckdb(empty, label="y", positive=1, scores={"a": "s_cont"}, memory_limit="lots")


def test_memory_limit_threads_and_temp_directory(tmp_path):
    data = make_data(20000, 10)
    path = write_parquet(data, tmp_path / "pred.parquet")
    spill = tmp_path / "spill"
    spill.mkdir()
    agg = aggregate_duckdb(
        path, label="y", positive=1, scores={"cont": "s_cont"}, memory_limit="64MB", threads=1,
        temp_directory=str(spill),
    )
    check_against_memory(agg, data, positive=1, weighted=False, learners={"cont": "s_cont"})


# ---- resolution and its bounds


def _assert_within_bounds(binned, exact, bound, slack=1e-12):
    a, b = evaluate_counts(binned), evaluate_counts(exact)
    for name in ("auc", "average_precision", "bep"):
        x, y = getattr(a, name), getattr(b, name)
        if y is None:
            assert bound[name] is None
            continue
        assert abs(x - y) <= bound[name] + slack, (name, x, y, bound[name])


@pytest.mark.parametrize("seed", range(40))
def test_bounds_hold_on_random_binnings(seed):
    """Pure NumPy: bin random scores by floor(s / h); the exact table against the binned one."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 400))
    y = rng.random(n) < rng.uniform(0.05, 0.95)
    kind = seed % 4
    if kind == 0:  # continuous
        s = rng.normal(size=n) + y
    elif kind == 1:  # heavy ties
        s = rng.integers(0, 20, size=n) / 10.0 + 0.2 * y
    elif kind == 2:  # adversarial: in every bin the positives on top
        s = np.floor(rng.random(n) * 8) + np.where(y, 0.9, 0.1) * rng.random(n)
    else:  # adversarial: in every bin the positives at the bottom
        s = np.floor(rng.random(n) * 8) + np.where(y, 0.1, 0.9) * rng.random(n)
    w = rng.random(n) * 2 if seed % 3 == 0 else None
    h = float(rng.choice([0.05, 0.3, 1.0, 2.5]))
    exact = count_table(y, s, sample_weight=w)
    binned = count_table(y, np.floor(s / h) * h, sample_weight=w)
    _assert_within_bounds(binned, exact, resolution_bounds(binned))


def test_bounds_are_reached_for_auc_and_zero_without_mixing():
    # One bin, positives all above the negatives: the exact AUC is 1, binned 1/2.
    exact = count_table([1, 1, 0, 0], [0.9, 0.8, 0.2, 0.1])
    binned = count_table_from_aggregates([0.0], [2], [2])
    b = resolution_bounds(binned)
    assert b["auc"] == pytest.approx(evaluate_counts(exact).auc - evaluate_counts(binned).auc)
    # Bins never mix classes: nothing is lost.
    pure = count_table_from_aggregates([1.0, 0.0], [3, 0], [0, 4])
    assert resolution_bounds(pure) == {"auc": 0.0, "average_precision": 0.0, "bep": 0.0}
    only_neg = resolution_bounds(count_table_from_aggregates([1.0], [0], [3]))
    assert only_neg == {"auc": None, "average_precision": None, "bep": None}


@pytest.mark.parametrize("weighted", [False, True], ids=["counts", "weights"])
def test_duckdb_step_resolution(tmp_path, weighted):
    data = make_data(20000, 11)
    path = write_parquet(data, tmp_path / "pred.parquet")
    w = data["w"] if weighted else None
    for step in (0.01, 0.25):
        agg = aggregate_duckdb(
            path, label="y", positive=1, scores={"cont": "s_cont", "tied": "s_tied"},
            weight="w" if weighted else None, resolution=step,
        )
        for name in ("cont", "tied"):
            s = data[LEARNERS[name]]
            # the binned table is the in-memory table of the bins' lower edges
            want = count_table(data["y"], np.floor(s / step) * step, sample_weight=w)
            assert_same_table(agg.tables[name], want, weighted=weighted)
            exact = count_table(data["y"], s, sample_weight=w)
            _assert_within_bounds(agg.tables[name], exact, agg.resolution_bound[name])
        assert len(agg.tables["cont"]) < len(count_table(data["y"], data["s_cont"]))


@pytest.mark.parametrize("weighted", [False, True], ids=["counts", "weights"])
def test_duckdb_quantile_resolution(tmp_path, weighted):
    data = make_data(20000, 12, groups=2)
    path = write_parquet(data, tmp_path / "pred.parquet")
    w = data["w"] if weighted else None
    agg = aggregate_duckdb(
        path, label="y", positive=1, scores={"cont": "s_cont", "int": "s_int"},
        weight="w" if weighted else None, resolution=50,
    )
    cont = agg.tables["cont"]
    assert 40 <= len(cont) <= 50  # about 50 bins of equal counts
    for name in ("cont", "int"):
        s = data[LEARNERS[name]]
        table = agg.tables[name]
        exact = count_table(data["y"], s, sample_weight=w)
        _assert_within_bounds(table, exact, agg.resolution_bound[name])
        # thresholds are data scores and "score >= threshold" is exact at each
        assert np.isin(table.threshold, s).all()
        for k, t in enumerate(table.threshold, start=1):
            row = exact.rows_at(t)
            assert table.tp[k] == pytest.approx(exact.tp[row], rel=1e-12)
            assert table.fp[k] == pytest.approx(exact.fp[row], rel=1e-12)
    # with groups: one binned table per (learner, group), bounds for each
    by = aggregate_duckdb(path, label="y", positive=1, scores={"cont": "s_cont"}, resolution=20, by="g")
    for (name, group), table in by.tables.items():
        keep = data["g"] == group
        exact = count_table(data["y"][keep], data["s_cont"][keep])
        _assert_within_bounds(table, exact, by.resolution_bound[(name, group)])


def test_integer_and_float_resolution_differ():
    from evalreport.engines import parse_resolution

    assert parse_resolution(10) == ("bins", 10)
    assert parse_resolution(10.0) == ("step", 10.0)
    for bad in (0, -1, 0.0, math.inf, True, "0.1"):
        with pytest.raises(ValueError):
            parse_resolution(bad)


# ---- exact tables streamed and reduced (evalreport.metrics.stream)


def _assert_streamed_equals_memory(table, reduction, y, s, w, keep, fprs, *, positive=1):
    """The reduced table and its exact scalars give the in-memory numbers."""
    from evalreport.metrics import evaluate_binary, evaluate_reduced

    want = evaluate_binary(y, s, sample_weight=w, positive=positive)
    got = evaluate_reduced(table, reduction)
    for name in SCALARS + ("rank_loss",):
        assert getattr(got, name) == pytest.approx(getattr(want, name), abs=1e-12), name
    for f in fprs:
        assert got.partial_auc(f, standardized=True) == pytest.approx(want.partial_auc(f, standardized=True),
                                                                      abs=1e-12)
    np.testing.assert_array_equal(got.hull.threshold, want.hull.threshold)
    exact = w is None
    for a, b in ((got.hull.fpr, want.hull.fpr), (got.hull.tpr, want.hull.tpr)):
        np.testing.assert_allclose(a, b, rtol=0 if exact else 1e-12)
    for t in list(keep) + want.hull.threshold.tolist():
        a, b = got.at_threshold(t), want.at_threshold(t)
        for field in ("tp", "fp", "tn", "fn", "precision", "recall", "f1", "error_rate"):
            x, z = getattr(a, field), getattr(b, field)
            if z is None or exact:  # undefined (nothing predicted positive) must match too
                assert x == z, (t, field)
            else:
                assert x == pytest.approx(z, rel=1e-12, abs=1e-12), (t, field)
    for pc in (0.2, 0.5, 0.7):
        a, b = got.operating_point(pc), want.operating_point(pc)
        assert a.threshold == b.threshold and a.min_cost == pytest.approx(b.min_cost, abs=1e-12)
    # the kept rows are the exact table's rows, with their exact counts
    full = want.counts
    rows = reduction.row_index
    np.testing.assert_array_equal(table.threshold, full.threshold[rows[1:] - 1])
    np.testing.assert_allclose(table.tp, full.tp[rows], rtol=0 if exact else 1e-12)
    np.testing.assert_allclose(table.fp, full.fp[rows], rtol=0 if exact else 1e-12)
    return got, want


@pytest.mark.parametrize("weighted", [False, True], ids=["counts", "weights"])
def test_exact_continuous_tables_are_streamed_and_reduced(tmp_path, weighted):
    data = make_data(6000, 21, string_labels=True)
    path = write_parquet(data, tmp_path / "pred.parquet", row_group_size=999)
    keep, fprs = (0.3, -0.2, 1.7), (0.2,)
    w = data["w"] if weighted else None
    agg = aggregate_duckdb(path, label="y", positive="pos", scores=LEARNERS, weight="w" if weighted else None,
                           keep_thresholds=keep, max_fprs=fprs, cap=50, batch_rows=97, threads=2)
    assert agg.learner_tables is None and set(agg.reductions) == set(LEARNERS)
    cont = agg.reductions["cont"]
    assert cont.reduced and cont.rows == len(count_table(data["y"], data["s_cont"], sample_weight=w,
                                                         positive="pos"))
    assert cont.kept < 50 + 60 and 0 < cont.roc_error < 0.05
    assert not agg.reductions["int"].reduced  # 13 distinct scores: kept whole
    assert_same_table(agg.tables["int"], count_table(data["y"], data["s_int"], sample_weight=w, positive="pos"),
                      weighted=weighted)
    for name, col in LEARNERS.items():
        _assert_streamed_equals_memory(agg.tables[name], agg.reductions[name], data["y"], data[col], w, keep,
                                       fprs, positive="pos")
    if not weighted:  # the twice-area is the exact integer: pairs ranked right, by brute force
        assert cont.auc2 == twice_right_pairs(np.asarray(data["y"]) == "pos", data["s_cont"])


@pytest.mark.parametrize("weighted", [False, True], ids=["counts", "weights"])
def test_streamed_groups_are_exact_at_the_thresholds_needed(tmp_path, weighted):
    data = make_data(5000, 22, groups=3)
    path = write_parquet(data, tmp_path / "pred.parquet")
    keep = (0.25,)
    w = data["w"] if weighted else None
    agg = aggregate_duckdb(path, label="y", positive=1, scores={"cont": "s_cont"}, by="g",
                           weight="w" if weighted else None, keep_thresholds=keep, cap=40, batch_rows=101)
    assert set(agg.tables) == {("cont", f"fold{i}") for i in range(3)}
    _, want = _assert_streamed_equals_memory(agg.learner_tables["cont"], agg.reductions["cont"], data["y"],
                                             data["s_cont"], w, keep, ())
    assert agg.reductions["cont"].reduced
    for (_, group), table in agg.tables.items():
        sel = data["g"] == group
        exact = count_table(data["y"][sel], data["s_cont"][sel], sample_weight=None if w is None else w[sel])
        assert table.n_rows == exact.n_rows
        for t in list(keep) + want.hull.threshold.tolist():
            r, e = table.rows_at(t), exact.rows_at(t)
            assert table.tp[r] == pytest.approx(exact.tp[e], rel=1e-12) and \
                table.fp[r] == pytest.approx(exact.fp[e], rel=1e-12), (group, t)


def test_duckdb_gets_half_of_the_memory_budget():
    from evalreport.engines.duckdb import share_memory

    for given, want in (("1GB", 0.5e9), ("2GiB", 2**30), ("800MB", 4e8)):
        con = duckdb.connect(config={"memory_limit": given})
        share_memory(con, 0.5)
        shown = con.execute("SELECT current_setting('memory_limit')").fetchone()[0]
        value, unit = shown.split()
        got = float(value) * {"MiB": 2**20, "GiB": 2**30}[unit]
        assert got == pytest.approx(want, rel=1e-3), (given, shown)
        con.close()


@pytest.mark.parametrize("task", ["binary", "multiclass"])
def test_every_aggregation_gives_duckdb_half_of_memory_limit(tmp_path, monkeypatch, task):
    # The binary and the multi-class aggregations open DuckDB the same way:
    # its buffers get half the budget, the Python side the rest.
    import evalreport.engines.duckdb as engine

    seen = []
    connect = engine.connect

    def recording(*args, **kwargs):
        con = connect(*args, **kwargs)
        seen.append(con.execute("SELECT current_setting('memory_limit')").fetchone()[0])
        return con

    import evalreport.engines.duckdb_source as source

    monkeypatch.setattr(engine, "connect", recording)
    monkeypatch.setattr(source, "connect", recording)  # (the multi-class road opens its session there)
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 300)
    path = write_parquet({"y": y, "p0": rng.random(300), "p1": rng.random(300), "p2": rng.random(300)},
                         tmp_path / "pred.parquet")
    if task == "binary":
        engine.aggregate_duckdb(path, label="y", positive=1, scores={"a": "p1"}, memory_limit="800MB")
    else:
        engine.aggregate_duckdb_multiclass(path, label="y", classes=[0, 1, 2],
                                           learners={"a": ["p0", "p1", "p2"]}, memory_limit="800MB")
    assert len(seen) == 1
    value, unit = seen[0].split()
    assert float(value) * {"MiB": 2**20, "GiB": 2**30}[unit] == pytest.approx(4e8, rel=1e-3)
    with pytest.raises(ValueError, match="memory_limit"):
        engine.aggregate_duckdb_multiclass(path, label="y", classes=[0, 1, 2],
                                           learners={"a": ["p0", "p1", "p2"]}, memory_limit=" ")


# --------------------------------------------------------------------------- Spark


@pytest.fixture(scope="module")
def spark():
    pytest.importorskip("pyspark")
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2]")
        .appName("evalreport-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.default.parallelism", "2")
        .config("spark.driver.memory", "512m")
        .config("spark.sql.codegen.wholeStage", "false")
        .config("spark.sql.adaptive.enabled", "false")
        .config("spark.driver.extraJavaOptions", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas:FutureWarning")
def test_spark_equals_memory(tmp_path, spark):
    from evalreport.engines.spark import aggregate_spark

    data = make_data(2000, 13, string_labels=True, groups=2)
    data["s_tied"][5] = -0.0  # -0.0 and 0.0 are one threshold
    path = write_parquet(data, tmp_path / "pred.parquet")
    agg = aggregate_spark(path, label="y", positive="pos", scores=LEARNERS, spark=spark)
    check_against_memory(agg, data, positive="pos", weighted=False)
    assert agg.labels_seen == ["neg", "pos"] and agg.rows == 2000
    grouped = aggregate_spark(path, label="y", positive="pos", scores=LEARNERS, weight="w", by="g", spark=spark)
    assert set(grouped.tables) == {(n, g) for n in LEARNERS for g in ("fold0", "fold1")}
    for (name, group), table in grouped.tables.items():
        keep = data["g"] == group
        want = count_table(data["y"][keep], data[LEARNERS[name]][keep], sample_weight=data["w"][keep], positive="pos")
        assert_same_table(table, want, weighted=True)
        assert_same_scalars(table, want)
    # both kinds of resolution: the same tables and bounds as DuckDB
    for kw in ({"resolution": 0.1}, {"resolution": 16, "weight": "w"}):
        a = aggregate_spark(path, label="y", positive="pos", scores={"cont": "s_cont", "int": "s_int"}, spark=spark, **kw)
        b = aggregate_duckdb(path, label="y", positive="pos", scores={"cont": "s_cont", "int": "s_int"}, **kw)
        assert a.tables.keys() == b.tables.keys()
        for key in a.tables:
            assert_same_table(a.tables[key], b.tables[key], weighted="weight" in kw)
            assert a.resolution_bound[key] == pytest.approx(b.resolution_bound[key], rel=1e-9)
    s = data["s_cont"].copy()
    s[4] = np.nan
    bad = write_parquet({**data, "s_cont": s}, tmp_path / "bad.parquet")
    with pytest.raises(ValueError, match=r"'s_cont' \(learner 'cont'\) has 1 bad value\(s\): 1 NaN"):
        aggregate_spark(bad, label="y", positive="pos", scores={"cont": "s_cont"}, spark=spark)
    with pytest.raises(ValueError, match="did you mean 's_cont'"):
        aggregate_spark(bad, label="y", positive="pos", scores={"cont": "s_cnt"}, spark=spark)


def test_fixed_batches_cut_at_the_same_rows_whatever_the_chunks():
    # issue 36: DuckDB's batch sizes follow its threads; the reducer sees batches cut every `rows` rows
    from evalreport.engines.duckdb_queries import _fixed_batches

    values = np.arange(1000, dtype=np.float64)
    rng = np.random.default_rng(4)
    for _ in range(5):
        cuts = np.sort(rng.choice(np.arange(1, 1000), size=rng.integers(1, 40), replace=False))
        pieces = [pa.record_batch({"key": values[a:b]}) for a, b in zip([0, *cuts], [*cuts, 1000])]
        got = [b.column("key").to_numpy() for b in _fixed_batches(iter(pieces), 97)]
        assert [len(g) for g in got] == [97] * 10 + [30]
        assert np.array_equal(np.concatenate(got), values)


@pytest.mark.parametrize("weighted", [False, True], ids=["counts", "weights"])
def test_duckdb_results_do_not_depend_on_its_threads(tmp_path, weighted):
    # issue 36: OMP_NUM_THREADS=1 changed an average precision in its last digit; the tables
    # and the measures are the same bits with 1 thread and with 4
    data = make_data(30000, 8)
    path = write_parquet(data, tmp_path / "pred.parquet", row_group_size=1777)
    out = []
    for threads in (1, 4):
        agg = aggregate_duckdb(path, label="y", positive=1, scores={"cont": "s_cont"},
                               weight="w" if weighted else None, cap=300, batch_rows=1000, threads=threads)
        t = agg.tables["cont"]
        out.append((t.threshold.tobytes(), t.tp.tobytes(), t.fp.tobytes(),
                    repr(evaluate_counts(t).average_precision)))
    assert out[0] == out[1]


def test_the_multiclass_checks_read_alike_in_every_engine():
    # DuckDB's and Spark's multi-class aggregations read their check counts through one function
    from evalreport.engines.checks import ColumnError, judge_class_checks

    common = dict(cols=["s1", "s2"], owner={"s1": "a", "s2": "b"}, label="y", where="data[0]")
    judge_class_checks(5, 0, [0, 0], **common)  # nothing wrong: no exception
    with pytest.raises(ValueError, match=r"^data\[0\] has no rows$"):
        judge_class_checks(0, 0, [0, 0], **common)
    with pytest.raises(ColumnError, match="label column 'y' has 2 missing value") as e:
        judge_class_checks(5, 2, [1, 0], **common)
    assert e.value.role == "label"
    with pytest.raises(ColumnError, match="score column 's2' has 3 missing, NaN or infinite value") as e:
        judge_class_checks(5, 0, [0, 3], **common)
    assert (e.value.role, e.value.learner) == ("score", "b")
