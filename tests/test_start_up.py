"""The command line's start-up settings (evalreport/start_up.py, issue 38): one BLAS
thread unless the user chose a count, no pydantic plugins unless the user chose, and
the garbage collector held during the imports, then running again. What they save is measured in bench/fixed_costs.py, not
here; here, that they do what they say and leave a user's choice alone."""

from __future__ import annotations

import gc
import os

import pytest

from evalreport import start_up


@pytest.fixture
def collector(monkeypatch):
    # (hold() sets variables of this process: monkeypatch puts them back)
    for name in start_up.BLAS_THREADS + ("PYDANTIC_DISABLE_PLUGINS",):
        monkeypatch.setenv(name, "x")
        monkeypatch.delenv(name)
    was = gc.isenabled()
    gc.enable()
    yield
    gc.unfreeze()  # (what imports_done froze: this process is the test runner, not a run)
    if was:
        gc.enable()
    else:
        gc.disable()


def test_one_blas_thread_and_the_collector_held_until_the_imports_are_done(monkeypatch, collector):
    start_up.hold()
    assert os.environ["OPENBLAS_NUM_THREADS"] == "1"
    assert os.environ["PYDANTIC_DISABLE_PLUGINS"] == "__all__"
    assert not gc.isenabled()
    start_up.imports_done()
    assert gc.isenabled() and gc.get_freeze_count() > 0
    start_up.imports_done()  # once only
    assert gc.isenabled()


@pytest.mark.parametrize("name", start_up.BLAS_THREADS)
def test_a_thread_count_the_user_set_stays(monkeypatch, collector, name):
    monkeypatch.setenv(name, "3")
    start_up.hold()
    start_up.imports_done()
    assert {n: os.environ.get(n) for n in start_up.BLAS_THREADS} == {
        n: ("3" if n == name else None) for n in start_up.BLAS_THREADS}


def test_the_pydantic_plugins_the_user_chose_stay(monkeypatch, collector):
    monkeypatch.setenv("PYDANTIC_DISABLE_PLUGINS", "some_plugin")
    start_up.hold()
    start_up.imports_done()
    assert os.environ["PYDANTIC_DISABLE_PLUGINS"] == "some_plugin"


def test_a_collector_the_caller_turned_off_stays_off(monkeypatch, collector):
    gc.disable()
    start_up.hold()
    start_up.imports_done()
    assert not gc.isenabled()
