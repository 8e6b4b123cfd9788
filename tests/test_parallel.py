"""The engine's passes split into parts on several threads give the same
numbers, bit for bit, as on one thread (evalreport.counting.parallel)."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from evalreport.metrics import evaluate_binary
from evalreport.counting import build, sorting
from evalreport.counting import checks
from evalreport.counting import keys as keys_mod
from evalreport.counting import parallel as P
from evalreport.metrics.binary import evaluate_binary_for_report

from brute import twice_right_pairs


def test_part_edges_cover_the_range_in_order(monkeypatch):
    monkeypatch.setenv("EVALREPORT_THREADS", "3")
    assert P.part_edges(10, min_part=1, per_thread=1) == [0, 3, 6, 10]
    assert P.part_edges(24, min_part=1, per_thread=2) == [0, 4, 8, 12, 16, 20, 24]
    assert P.part_edges(10, min_part=4) == [0, 5, 10]  # no part under min_part
    assert P.part_edges(10, min_part=11) == [0, 10]
    assert P.part_edges(0, min_part=1) == [0, 0]
    monkeypatch.setenv("EVALREPORT_THREADS", "1")
    assert P.part_edges(10**7) == [0, 10**7]


def test_blocks_cover_a_part(monkeypatch):
    monkeypatch.setattr(P, "BLOCK", 4)
    assert list(P.blocks(3, 13)) == [(3, 7), (7, 11), (11, 13)]
    assert list(P.blocks(5, 5)) == []


@pytest.mark.parametrize("threads", ["1", "2", "3"])
def test_run_parts_returns_results_in_order(monkeypatch, threads):
    monkeypatch.setenv("EVALREPORT_THREADS", threads)
    seen = set()

    def work(lo, hi):
        seen.add(threading.get_ident())
        return lo, hi

    edges = [0, 2, 5, 9, 11, 12, 20]
    assert P.run_parts(work, edges) == list(zip(edges, edges[1:]))
    if threads == "1":
        assert seen == {threading.get_ident()}  # no pool at all


def test_run_parts_propagates_errors_after_every_part_ends():
    finished = []

    def work(lo, hi):
        if lo == 0:
            raise ValueError("first part")
        finished.append(lo)
        return lo

    with pytest.raises(ValueError, match="first part"):
        P.run_parts(work, [0, 1, 2, 3])
    assert sorted(finished) == [1, 2]


@pytest.mark.parametrize("value, expected", [("1", 1), ("4", 4), ("12", 12), ("16", 16), (" 2 ", 2)])
def test_thread_count_from_the_environment(monkeypatch, value, expected):
    monkeypatch.setenv("EVALREPORT_THREADS", value)
    assert P.thread_count() == expected


@pytest.mark.parametrize("value", ["two", "0", "-2", "17", "99", str(10**30), "1.5", "+3"])
def test_thread_count_rejects_a_bad_value(monkeypatch, value):
    # issue 36: 0, negative and too many threads were clamped silently; checked as EVALREPORT_SORT is
    monkeypatch.setenv("EVALREPORT_THREADS", value)
    with pytest.raises(ValueError) as info:
        P.thread_count()
    assert str(info.value) == f"EVALREPORT_THREADS must be a whole number from 1 to 16, got {value!r}"


def _inputs(kind, n, rng):
    y = (rng.random(n) < 0.35).astype(np.int64)
    s = rng.random(n) + 0.3 * y
    if kind == "negative":
        s = np.log(s / 1.5)
    elif kind == "ties":
        s = np.round(s, 2)
    elif kind == "mixed":
        s = s - 0.6
    elif kind == "one class":
        y[:] = 0
    return y, s


def _everything(y, s, report=False):
    ev = (evaluate_binary_for_report if report else evaluate_binary)(y, s)
    t = ev.counts
    arrays = [t.threshold, t.tp, t.fp]
    if ev.auc is not None:
        arrays += [ev.roc.fpr, ev.roc.tpr, ev.roc.threshold, ev.pr.precision, ev.pr.recall,
                   ev.hull.index, ev.cost_curve.cost]
    scalars = (ev.auc, ev.rank_loss, ev.average_precision, ev.bep, ev.expected_total_cost,
               ev.at_threshold(0.5).tp, t.rows_at(0.5))
    return [np.asarray(a).copy() for a in arrays], scalars


@pytest.mark.parametrize("kind", ["nonnegative", "negative", "ties", "mixed", "one class"])
@pytest.mark.parametrize("report", [False, True])
@pytest.mark.parametrize("threads", ["2", "3", "5"])
def test_parts_on_threads_equal_one_thread(monkeypatch, kind, report, threads):
    rng = np.random.default_rng([len(kind), int(threads)])
    y, s = _inputs(kind, 5003, rng)
    # Blocks of 61 in both runs: sums kept per block (average precision) are
    # the same for any number of threads, which start parts at block edges.
    monkeypatch.setattr(P, "BLOCK", 61)
    monkeypatch.setenv("EVALREPORT_THREADS", "1")
    one_arrays, one_scalars = _everything(y, s, report)
    monkeypatch.setenv("EVALREPORT_THREADS", threads)
    monkeypatch.setattr(P, "MIN_PART", 7)  # parts of a few hundred rows
    monkeypatch.setattr(P, "MIN_SORT_PART", 7)  # the sorts split too
    monkeypatch.setattr(P, "PASS_THREADS", 8)  # the passes too, one part a thread
    assert len(P.part_edges(s.size)) == P.PARTS_PER_THREAD * int(threads) + 1
    arrays, scalars = _everything(y, s, report)
    assert scalars == one_scalars
    for a, b in zip(arrays, one_arrays):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a.view(np.uint8), b.view(np.uint8))  # bit for bit


@pytest.mark.parametrize("threads", ["2", "3", "5"])
@pytest.mark.parametrize("n", [0, 1, 2, 9, 10, 11, 1000])
def test_sort_in_place_equals_one_sort(monkeypatch, threads, n):
    monkeypatch.setenv("EVALREPORT_THREADS", threads)
    monkeypatch.setattr(P, "MIN_SORT_PART", 3)
    rng = np.random.default_rng([n, int(threads)])
    # few distinct values among many (runs of equal keys across the parts'
    # edges), and keys over the whole uint64 range
    for keys in (rng.integers(0, 7, n).astype(np.uint64), rng.integers(0, 2**64, n, dtype=np.uint64)):
        split = keys.copy()
        P.sort_in_place(split)
        np.testing.assert_array_equal(split, np.sort(keys))
    if n >= 1000:  # the parts were sorted apart: without the partition they would not join
        spans = []
        monkeypatch.setattr(P, "run_parts", lambda fn, edges: spans.append(list(edges)) or [
            fn(lo, hi) for lo, hi in zip(edges[:-1], edges[1:])])
        P.sort_in_place(rng.random(n))
        # (the spans before the last are the partition's tree, over edge indices)
        assert spans[-1] == P.part_edges(n, min_part=3, threads=int(threads))
        assert len(spans[-1]) == int(threads) + 1


@pytest.mark.parametrize("min_part", [1, 10**9])
def test_sort_parts_sorts_each_part_alone(monkeypatch, min_part):
    monkeypatch.setenv("EVALREPORT_THREADS", "2")
    rng = np.random.default_rng(min_part)
    values = rng.random(500)
    parts = values.copy()
    P.sort_parts(parts, [0, 123, 500], min_part=min_part)  # side by side, or one after the other
    np.testing.assert_array_equal(parts[:123], np.sort(values[:123]))
    np.testing.assert_array_equal(parts[123:], np.sort(values[123:]))


@pytest.mark.parametrize("threads", ["1", "4"])
def test_label_checks_in_parts(monkeypatch, threads):
    monkeypatch.setenv("EVALREPORT_THREADS", threads)
    monkeypatch.setattr(P, "MIN_PART", 3)
    y = np.zeros(40, dtype=np.int64)
    y[::3] = 1
    assert checks._positive_mask(y, 1).tolist() == (y == 1).tolist()
    y[37] = 2  # a third label in the last part
    with pytest.raises(ValueError, match=r"more than two labels.*\(index 37\)"):
        checks._positive_mask(y, 1)
    s = np.linspace(0, 1, 40)
    s[29] = np.nan  # found in its part, reported with its index
    with pytest.raises(ValueError, match="NaN value at index 29"):
        evaluate_binary(y, s)


def test_the_pool_is_replaced_in_a_forked_child():
    import os

    import warnings

    P.run_parts(lambda lo, hi: None, [0, 1, 2])  # make sure a pool exists
    with warnings.catch_warnings():  # Python 3.12+ warns about fork() with threads
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid == 0:  # child: must not wait on the parent's (absent) threads
        try:
            ok = P.run_parts(lambda lo, hi: hi - lo, [0, 1, 3, 6]) == [1, 2, 3]
        finally:
            os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


@pytest.mark.parametrize("road", ["tp", "report", "rated"])
def test_a_single_tie_is_found_at_every_block_and_part_boundary(monkeypatch, road):
    # the sampled guess says "no ties"; the exact check, run in parts and
    # blocks, must find a tie wherever it sits, boundaries included (the
    # rated road sorts its parts itself: its keys must come back sorted)
    monkeypatch.setenv("EVALREPORT_THREADS", "3")
    monkeypatch.setattr(P, "MIN_PART", 7)
    monkeypatch.setattr(P, "MIN_SORT_PART", 7)
    monkeypatch.setattr(P, "BLOCK", 61)
    monkeypatch.setattr(sorting, "_ties_in_sample", lambda keys: False)
    monkeypatch.setattr(sorting, "_ties_in_spread_sample", lambda keys: False)
    n = 600
    edges = P.part_edges(n)
    places = sorted({0, n - 2, *(e - 1 for e in edges[1:-1]), *(e for e in edges[1:-1]),
                     *(b - 1 for lo, hi in zip(edges, edges[1:]) for b, _ in P.blocks(lo, hi) if b > lo)})
    rng = np.random.default_rng(4)
    y = (rng.random(n) < 0.5).astype(np.int64)
    for i in places:  # ascending scores i and i + 1 made equal
        s = np.arange(n, dtype=np.float64) / n
        s[i + 1] = s[i]
        table, rows = build.count_table_and_positive_rows(y, s, keep_keys=road == "report", rates=road == "rated")
        assert rows is None and len(table) == n - 1, i
        expected = build.count_table_from_aggregates(*_aggregates(y, s), n_rows=n)
        np.testing.assert_array_equal(table.tp, expected.tp)
        np.testing.assert_array_equal(table.fp, expected.fp)
        np.testing.assert_array_equal(table.threshold, expected.threshold)


def _aggregates(y, s):
    values, inverse = np.unique(s, return_inverse=True)
    pos = np.bincount(inverse, weights=y, minlength=values.size).astype(np.int64)
    return values, pos, np.bincount(inverse, minlength=values.size) - pos


def _general_path_only(monkeypatch):
    monkeypatch.setattr(build, "checked_keys", lambda y, s, positive: None)


_LABELS = [((0, 1), 1), ((0, 1), 0), ((3, 7), 7), ((5,), 5), ((5,), 2), ((-1, 1), -1)]


@pytest.mark.parametrize("threads", ["1", "3"])
@pytest.mark.parametrize("labels, positive, dtype", [
    (labels, positive, dtype) for labels, positive in _LABELS
    for dtype in (np.int64, np.int8, np.uint16) if min(labels) >= 0 or dtype != np.uint16])
def test_checked_keys_give_the_general_paths_table(monkeypatch, threads, labels, positive, dtype):
    monkeypatch.setenv("EVALREPORT_THREADS", threads)
    monkeypatch.setattr(P, "MIN_PART", 7)
    monkeypatch.setattr(P, "BLOCK", 61)
    rng = np.random.default_rng(len(labels) + positive)
    y = rng.choice(np.array(labels, dtype=dtype), 2000)
    s = np.round(rng.random(2000), 2 if positive == 0 else 6)  # ties and no ties
    if s[0] == 0.0:
        s[0] = 0.5
    assert keys_mod.checked_keys(y, s, positive) is not None
    fast, fast_rows = build.count_table_and_positive_rows(y, s, positive=positive)
    with monkeypatch.context() as m:
        _general_path_only(m)
        slow, slow_rows = build.count_table_and_positive_rows(y, s, positive=positive)
    for name in ("threshold", "tp", "fp"):
        np.testing.assert_array_equal(getattr(fast, name), getattr(slow, name))
    if slow_rows is None:
        assert fast_rows is None
    else:
        np.testing.assert_array_equal(fast_rows, slow_rows)


@pytest.mark.parametrize("where", [0, 1, 60, 61, 700, 1999])
@pytest.mark.parametrize("bad", ["label", "nan", "inf", "negative", "-0.0"])
def test_checked_keys_leave_every_problem_to_the_full_checks(monkeypatch, where, bad):
    # a problem anywhere, in any block or part: the fast pass declines and the
    # full checks raise their own message (or, for a score of another sign,
    # take the road for scores of both signs)
    monkeypatch.setenv("EVALREPORT_THREADS", "3")
    monkeypatch.setattr(P, "MIN_PART", 7)
    monkeypatch.setattr(P, "BLOCK", 61)
    rng = np.random.default_rng(where)
    y = (rng.random(2000) < 0.4).astype(np.int64)
    s = rng.random(2000) + 0.1
    if bad == "label":
        y[where] = 2
    else:
        s[where] = {"nan": np.nan, "inf": np.inf, "negative": -0.25, "-0.0": -0.0}[bad]
    assert keys_mod.checked_keys(y, s, 1) is None
    if bad in ("label", "nan", "inf"):
        with pytest.raises(ValueError) as fast:
            evaluate_binary(y, s)
        with monkeypatch.context() as m:
            _general_path_only(m)
            with pytest.raises(ValueError) as slow:
                evaluate_binary(y, s)
        assert str(fast.value) == str(slow.value)
        assert f"index {where}" in str(fast.value)
    else:
        assert evaluate_binary(y, s).auc == pytest.approx(_brute_auc(y, s), abs=1e-12)


def _brute_auc(y, s):
    pos = int(np.count_nonzero(y == 1))
    return twice_right_pairs(y == 1, s) / (2 * pos * (y.size - pos))


@pytest.mark.parametrize("y, s, positive", [
    ([0, 1, 1], np.array([0.2, 0.3, 0.4]), 1),  # a list
    (np.array([0, 1, 1]), [0.2, 0.3, 0.4], 1),
    (np.array([0, 1, 1]), np.array([0.2, 0.3, 0.4], dtype=np.float32), 1),
    (np.array([0.0, 1.0, 1.0]), np.array([0.2, 0.3, 0.4]), 1),
    (np.array([False, True, True]), np.array([0.2, 0.3, 0.4]), 1),
    (np.array(["n", "p", "p"]), np.array([0.2, 0.3, 0.4]), "p"),
    (np.array([0, 1, 1]), np.array([0.2, 0.3, 0.4]), 1.0),
    (np.array([0, 1, 1]), np.array([-0.2, 0.3, 0.4]), 1),
])
def test_other_inputs_take_the_general_path(y, s, positive):
    assert keys_mod.checked_keys(y, s, positive) is None
    assert evaluate_binary(y, s, positive=positive).auc == 1.0


def test_a_third_label_filling_a_part_of_its_own(monkeypatch):
    # each part alone holds two labels; only the parts together hold three
    monkeypatch.setenv("EVALREPORT_THREADS", "3")
    monkeypatch.setattr(P, "MIN_PART", 7)
    monkeypatch.setattr(P, "BLOCK", 61)
    rng = np.random.default_rng(9)
    y = (rng.random(2000) < 0.4).astype(np.int64)
    last = P.part_edges(2000)[-2]
    y[last:][y[last:] == 0] = 2
    s = rng.random(2000) + 0.1
    assert keys_mod.checked_keys(y, s, 1) is None
    with pytest.raises(ValueError, match="more than two labels"):
        evaluate_binary(y, s)


@pytest.mark.parametrize("threads", ["1", "3"])
@pytest.mark.parametrize("layout", ["01 then 17", "17 then 01", "11 then 17", "17 then 11"])
def test_zero_one_blocks_next_to_blocks_of_other_labels(monkeypatch, threads, layout):
    # blocks of 0/1 labels take the short check; a block of 1 and 7 the full
    # one: together they hold three labels (an error) or two (1 and 7: fine)
    monkeypatch.setenv("EVALREPORT_THREADS", threads)
    monkeypatch.setattr(P, "MIN_PART", 7)
    monkeypatch.setattr(P, "BLOCK", 61)
    rng = np.random.default_rng(len(layout))
    first, second = layout.split(" then ")
    half = 61 * 16  # the halves meet at a block boundary (with one thread)
    y = np.ones(2 * half, dtype=np.int64)
    for part, kind in ((slice(0, half), first), (slice(half, None), second)):
        if kind != "11":
            other = 0 if kind == "01" else 7
            y[part] = np.where(rng.random(half) < 0.5, other, 1)
    s = rng.random(2 * half) + 0.1
    labels = set(np.unique(y).tolist())
    if len(labels) == 3:
        with pytest.raises(ValueError, match="more than two labels"):
            evaluate_binary(y, s)
    else:
        assert labels == {1, 7}
        fast, _ = build.count_table_and_positive_rows(y, s)
        with monkeypatch.context() as m:
            _general_path_only(m)
            slow, _ = build.count_table_and_positive_rows(y, s)
        np.testing.assert_array_equal(fast.tp, slow.tp)
        np.testing.assert_array_equal(fast.fp, slow.fp)


@pytest.mark.parametrize("dtype", [">i2", ">i4", ">i8", ">u8"])
def test_labels_in_the_other_byte_order_are_read_as_values(dtype):
    # a big-endian label whose bytes read natively as 1 (256 in two bytes,
    # 2**24 in four, 2**56 in eight) is not the label 1 (the 0/1 check reads
    # raw bytes: such arrays go the full way)
    big = 1 << 8 * (np.dtype(dtype).itemsize - 1)
    y = np.array([0, big, 0, big], dtype=dtype)
    s = np.array([0.1, 0.9, 0.2, 0.8])
    assert keys_mod.checked_keys(y, s, 1) is None
    with pytest.raises(ValueError, match=rf"the positive label 1 does not occur in y_true, "
                                         rf"which holds 0 \(index 0\) and {big} \(index 1\)"):
        evaluate_binary(y, s)
    assert evaluate_binary(y, s, positive=big).auc == 1.0
    assert evaluate_binary(np.array([0, 1, 0, 1], dtype=dtype), s).auc == 1.0


def test_threads_starting_the_pool_at_once(monkeypatch):
    # callers asking for pools of different sizes at the same moment: a pool
    # replaced by a bigger one must not refuse work already given to it
    import sys

    monkeypatch.setenv("EVALREPORT_THREADS", "8")
    monkeypatch.setattr(P, "MIN_PART", 1000)
    # Every pool thread asked for must start: a caller that quietly did all
    # the work itself would give the right numbers on one thread.
    started = []
    start = P._start

    def counting(fn, helpers):
        futures = start(fn, helpers)
        started.append((helpers, len(futures)))
        return futures

    monkeypatch.setattr(P, "_start", counting)
    rng = np.random.default_rng(0)
    data = {k: ((rng.random(k * 1000) < 0.5).astype(np.int64), rng.random(k * 1000)) for k in range(2, 9)}
    expected = {k: evaluate_binary(*d).auc for k, d in data.items()}
    errors = []
    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads take turns often: the race, if any, shows
    try:
        for _ in range(20):
            monkeypatch.setattr(P, "_pool", None)
            monkeypatch.setattr(P, "_pool_size", 0)
            barrier = threading.Barrier(len(data))

            def go(k):
                barrier.wait()
                try:
                    assert evaluate_binary(*data[k]).auc == expected[k]
                except BaseException as exc:  # noqa: BLE001 (collected, asserted below)
                    errors.append(exc)

            threads = [threading.Thread(target=go, args=(k,)) for k in data]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
    finally:
        sys.setswitchinterval(switch)
    assert errors == []
    assert started and all(asked == got for asked, got in started), started


def test_parts_run_on_the_caller_when_no_thread_can_start(monkeypatch):
    # at interpreter shutdown a pool refuses new work: the caller does it all
    class Refusing:
        def submit(self, fn):
            raise RuntimeError("cannot schedule new futures after interpreter shutdown")

    monkeypatch.setenv("EVALREPORT_THREADS", "4")
    monkeypatch.setattr(P, "_pool", Refusing())
    monkeypatch.setattr(P, "_pool_size", 8)
    assert P.run_parts(lambda lo, hi: (lo, hi), [0, 1, 2, 3, 4]) == [(0, 1), (1, 2), (2, 3), (3, 4)]


def test_integer_hull_filter_does_not_overflow():
    # A strictly concave chain of 6000 integer points (every one a vertex).
    # The filter tests the corners between two sampled vertices a and b
    # against their edge; its short form compares dx cy - dy cx with
    # dx ay - dy ax. The chain is moved up so that the second is just under
    # 2**63 for the edge from corner 1 to corner 257 (the first sampled pair):
    # the first then passes 2**63 and would wrap. (roc_hull never gets here
    # with such counts: it turns tables with 2 m+ m- >= 2**63 to float64
    # first; upper_hull_indices is called directly.)
    from evalreport.metrics.cost import upper_hull_indices

    k = 6000
    i = np.arange(k, dtype=np.int64)
    x = i * 7_000_000
    y = np.concatenate(([0], np.cumsum(13_000_000 - 2 * i[:-1])))  # rises less at every step
    a, b = 1, 1 + 256
    dx, dy = int(x[b] - x[a]), int(y[b] - y[a])
    lift = ((1 << 63) - 1 - (dx * int(y[a]) - dy * int(x[a]))) // dx
    y += lift
    assert (1 << 63) - dx <= dx * int(y[a]) - dy * int(x[a]) < 1 << 63 and int(y[-1]) < 1 << 62
    np.testing.assert_array_equal(upper_hull_indices(x, y), i)


@pytest.mark.parametrize("threads", ["1", "3"])
def test_a_report_table_keeps_tp_contiguous(monkeypatch, threads):
    # a report hands tp to NumPy calls (compress, take) that would copy a
    # reversed view whole: the kept-keys table writes tp in row order
    monkeypatch.setenv("EVALREPORT_THREADS", threads)
    monkeypatch.setattr(P, "MIN_PART", 7)
    monkeypatch.setattr(P, "BLOCK", 61)
    rng = np.random.default_rng(12)
    y = (rng.random(3000) < 0.3).astype(np.int64)
    s = rng.random(3000) + 0.2 * y
    kept, _ = build.count_table_and_positive_rows(y, s, keep_keys=True)
    eager, _ = build.count_table_and_positive_rows(y, s)
    assert kept.tp.flags.c_contiguous
    np.testing.assert_array_equal(kept.tp, eager.tp)


@pytest.mark.parametrize("threads, passes", [("1", 1), ("3", 3), ("8", 4)])
def test_passes_that_hold_the_gil_take_fewer_threads_than_the_sort(monkeypatch, threads, passes):
    monkeypatch.setenv("EVALREPORT_THREADS", threads)
    monkeypatch.setattr(P, "MIN_PART", 7)
    monkeypatch.setattr(P, "MIN_SORT_PART", 7)
    assert P.PASS_THREADS == 4 and P.pass_threads() == passes
    assert len(P.part_edges(1000)) - 1 == passes
    keys = np.random.default_rng(1).integers(0, 2**64, 1000, dtype=np.uint64)
    split = keys.copy()
    edges = P.partition_into_parts(split)
    assert len(edges) - 1 == int(threads)
    for lo, hi in zip(edges[:-1], edges[1:]):  # each part holds what it holds when sorted
        np.testing.assert_array_equal(np.sort(split[lo:hi]), np.sort(keys)[lo:hi])
