"""The engine's passes split into parts on several threads give the same
numbers, bit for bit, as on one thread (evalreport.metrics.parallel)."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from evalreport.metrics import evaluate_binary
from evalreport.metrics import counts as K
from evalreport.metrics import parallel as P
from evalreport.metrics.binary import evaluate_binary_for_report


def test_part_edges_cover_the_range_in_order(monkeypatch):
    monkeypatch.setenv("EVALREPORT_THREADS", "3")
    assert P.part_edges(10, min_part=1) == [0, 3, 6, 10]
    assert P.part_edges(10, min_part=4) == [0, 5, 10]  # no part under min_part
    assert P.part_edges(10, min_part=11) == [0, 10]
    assert P.part_edges(0, min_part=1) == [0, 0]
    monkeypatch.setenv("EVALREPORT_THREADS", "1")
    assert P.part_edges(10**7) == [0, 10**7]


def test_run_parts_returns_results_in_order_from_several_threads():
    seen = set()

    def work(lo, hi):
        seen.add(threading.get_ident())
        return lo, hi

    edges = [0, 2, 5, 9, 11]
    assert P.run_parts(work, edges) == [(0, 2), (2, 5), (5, 9), (9, 11)]
    assert threading.get_ident() in seen  # the caller runs the first part


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


@pytest.mark.parametrize("value, expected", [("1", 1), ("4", 4), ("99", 8), ("0", 1), (" 2 ", 2)])
def test_thread_count_from_the_environment(monkeypatch, value, expected):
    monkeypatch.setenv("EVALREPORT_THREADS", value)
    assert P.thread_count() == expected


def test_thread_count_rejects_a_bad_value(monkeypatch):
    monkeypatch.setenv("EVALREPORT_THREADS", "two")
    with pytest.raises(ValueError, match="EVALREPORT_THREADS must be a whole number, got 'two'"):
        P.thread_count()


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
    monkeypatch.setenv("EVALREPORT_THREADS", "1")
    one_arrays, one_scalars = _everything(y, s, report)
    monkeypatch.setenv("EVALREPORT_THREADS", threads)
    monkeypatch.setattr(P, "MIN_PART", 7)  # parts of a few hundred rows
    assert len(P.part_edges(s.size)) == int(threads) + 1
    arrays, scalars = _everything(y, s, report)
    assert scalars == one_scalars
    for a, b in zip(arrays, one_arrays):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a.view(np.uint8), b.view(np.uint8))  # bit for bit


@pytest.mark.parametrize("threads", ["1", "4"])
def test_label_checks_in_parts(monkeypatch, threads):
    monkeypatch.setenv("EVALREPORT_THREADS", threads)
    monkeypatch.setattr(P, "MIN_PART", 3)
    y = np.zeros(40, dtype=np.int64)
    y[::3] = 1
    assert K._positive_mask(y, 1).tolist() == (y == 1).tolist()
    y[37] = 2  # a third label in the last part
    with pytest.raises(ValueError, match=r"more than two labels.*\(index 37\)"):
        K._positive_mask(y, 1)
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
