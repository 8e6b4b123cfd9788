"""Results cross process boundaries: they pickle, copy, and come back from a worker.

Users fan evaluations out to worker processes (multiprocessing, joblib) and cache
them to disk; a result that cannot be pickled breaks all of that. The read-only
mappings inside results (``undefined``, ``fbeta``, ``per_class``) once were
``types.MappingProxyType``, which does not pickle.
"""

from __future__ import annotations

import copy
import multiprocessing
import pickle
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pytest

import evalreport
from evalreport.metrics import evaluate_binary
from evalreport.metrics.frozen import FrozenMapping
from evalreport.report import json_text

ROOT = Path(__file__).resolve().parents[1]


def _scores(seed=0, n=500, ties=False):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(int)
    s = rng.random(n) + 0.4 * y
    return y, (np.round(s, 1) if ties else s)


def _same_evaluation(a, b):
    for name in ("auc", "rank_loss", "average_precision", "bep", "expected_total_cost"):
        assert getattr(a, name) == getattr(b, name)
    for curve, columns in (("roc", ("fpr", "tpr", "threshold")), ("pr", ("recall", "precision", "threshold"))):
        for column in columns:
            np.testing.assert_array_equal(getattr(getattr(a, curve), column), getattr(getattr(b, curve), column))
    assert a.at_threshold(0.5) == b.at_threshold(0.5)
    assert dict(a.undefined) == dict(b.undefined)


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("lazy", [False, True])
def test_binary_evaluation_pickles_and_copies(ties, lazy):
    y, s = _scores(ties=ties)
    ev = evaluate_binary(y, s, lazy_curves=lazy)
    for other in (pickle.loads(pickle.dumps(ev)), copy.deepcopy(ev), copy.copy(ev)):
        _same_evaluation(ev, other)
    measures = ev.at_threshold(0.5, betas=(0.5, 2))
    assert pickle.loads(pickle.dumps(measures)) == measures
    assert pickle.loads(pickle.dumps(ev.operating_point(0.3))) == ev.operating_point(0.3)


def test_one_class_reasons_survive_pickling():
    ev = evaluate_binary([1, 1, 1], [0.2, 0.5, 0.9])
    back = pickle.loads(pickle.dumps(ev))
    assert back.auc is None and back.undefined["auc"] == ev.undefined["auc"]


def _evaluate_in_worker(seed):
    y, s = _scores(seed)
    return evaluate_binary(y, s)


@pytest.mark.slow
def test_evaluations_come_back_from_a_worker_process():
    # spawn: the worker imports evalreport afresh, as on macOS and Windows
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        got = list(pool.map(_evaluate_in_worker, [1, 2]))
    for seed, ev in zip([1, 2], got):
        _same_evaluation(ev, _evaluate_in_worker(seed))


@pytest.mark.slow
@pytest.mark.parametrize("example", ["watermelon", "multiclass_folds"])
def test_spec_results_pickle(example):
    spec = evalreport.load_spec(ROOT / "examples" / example / "spec.yaml")
    result = evalreport.evaluate(spec)
    back = pickle.loads(pickle.dumps(result))
    # the same numbers: results.json of the copy equals the original's
    assert json_text(back) == json_text(result)


def test_frozen_mapping_is_read_only_and_a_mapping():
    source = {"a": 1, "b": None}
    m = FrozenMapping(source)
    source["a"] = 2  # a private copy: the caller's dict does not reach in
    assert m == {"a": 1, "b": None} and dict(m) == {"a": 1, "b": None} and len(m) == 2
    with pytest.raises(TypeError):
        m["a"] = 3  # noqa
    with pytest.raises(AttributeError):
        m.extra = 1  # noqa
    assert pickle.loads(pickle.dumps(m)) == m and repr(m) == "FrozenMapping({'a': 1, 'b': None})"
    assert FrozenMapping() == {}
