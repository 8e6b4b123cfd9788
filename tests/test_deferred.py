"""Intervals when asked for (issue 38): the Python API returns the point values at
once and computes the intervals (and the gates, tests, warnings, verdict) on
first access, the same numbers as the command line's pipeline."""

from __future__ import annotations

import json
import pickle

import numpy as np

import evalreport
from evalreport.compare import stats
from evalreport.deferred import DeferredResult
from evalreport.pipeline import evaluate as full_evaluate
from evalreport.arrays import predictions_spec
from evalreport.results import result_dict
from evalreport.spec import load_spec


def _arrays(n=400, seed=5):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    return y, {"a": np.clip(0.3 * y + rng.random(n) * 0.7, 0, 1), "b": rng.random(n)}


OPTIONS = dict(positive=1, confidence={"bootstrap": 120, "seed": 4}, gates=[{"metric": "auc", "min": 0.6}])


def test_point_values_at_once_and_the_rest_on_first_access():
    y, scores = _arrays()
    result = evalreport.from_predictions(y, scores, **OPTIONS)
    assert isinstance(result, DeferredResult) and isinstance(result, evalreport.pipeline.Result)
    auc = result.learners["a"].values["auc"]
    assert not result.intervals_computed  # the point values did not compute the intervals
    from sklearn.metrics import roc_auc_score

    assert auc == roc_auc_score(y, scores["a"])
    interval = result.learners["a"].bootstrap["bep"]  # transparent: the first read computes them
    assert result.intervals_computed
    alone = stats.bootstrap_intervals(y == 1, scores["a"], statistics={"bep": stats.bep_score},
                                      n_resamples=120, seed=4)
    assert tuple(interval) == tuple(alone["bep"])


def test_the_full_result_is_the_command_lines():
    y, scores = _arrays()
    result = evalreport.from_predictions(y, scores, **OPTIONS)
    spec_dict, data = predictions_spec(y, scores, **OPTIONS)
    cli = full_evaluate(load_spec(spec_dict), data=data)
    full = result.with_intervals()
    assert full is result.with_intervals() and type(full) is evalreport.pipeline.Result
    mine, theirs = result_dict(full), result_dict(cli)
    mine.pop("date", None), theirs.pop("date", None)
    assert json.dumps(mine, sort_keys=True) == json.dumps(theirs, sort_keys=True)
    # the deferred result's own views print the full one
    assert result.gates == full.gates and result.verdict is full.verdict
    assert json.dumps(result.to_dict(), sort_keys=True) == json.dumps(full.to_dict(), sort_keys=True)
    for key, lr in result.learners.items():
        assert lr.values == cli.learners[key].values
        assert lr.summary.auc == cli.learners[key].summary.auc


def test_gates_come_from_the_full_result():
    y, scores = _arrays()
    result = evalreport.from_predictions(y, scores, **OPTIONS)
    outcomes = {(g["learner"], g["outcome"]) for g in result.gates}
    assert result.intervals_computed
    assert ("b", "fail") in outcomes or ("b", "inconclusive") in outcomes  # a random learner's AUC


def test_copies_and_no_bootstrap():
    y, scores = _arrays(n=100)
    result = evalreport.from_predictions(y, scores, **OPTIONS)
    again = pickle.loads(pickle.dumps(result))
    assert type(again) is evalreport.pipeline.Result and again.learners["a"].bootstrap is not None
    plain = evalreport.from_predictions(y, scores, positive=1, confidence={"bootstrap": 0})
    assert not isinstance(plain, DeferredResult) and plain.with_intervals() is plain


def test_the_quick_fields_are_the_full_results_on_an_example():
    """Every learner field read off the quick evaluation is the full result's, byte for byte
    (pickled), on an example with slices, groups and calibration."""
    import dataclasses

    from evalreport.deferred import DEFERRED_LEARNER_FIELDS
    from evalreport.pipeline import evaluate_deferred

    spec = load_spec("examples/credit_audit/spec.yaml")
    spec = spec.model_copy(update={"confidence": spec.confidence.model_copy(update={"bootstrap": 50})})
    deferred, full = evaluate_deferred(spec), full_evaluate(spec)
    assert isinstance(deferred, DeferredResult)
    for key, lr in deferred.learners.items():
        for f in dataclasses.fields(lr):
            if f.name not in DEFERRED_LEARNER_FIELDS:
                assert pickle.dumps(object.__getattribute__(lr, f.name)) == pickle.dumps(
                    getattr(full.learners[key], f.name)), (key, f.name)
    assert not deferred.intervals_computed


def test_the_first_output_cell_shows_the_point_values_and_says_what_is_not_computed():
    """Before the intervals, _repr_html_ prints each learner's point values (the full
    result's, as page one prints them) and says that the intervals, tests, gates and
    verdict are not computed yet and how to get them; it computes nothing more."""
    import re

    from sklearn.metrics import average_precision_score, roc_auc_score

    y, scores = _arrays()
    result = evalreport.from_predictions(y, scores, **OPTIONS)
    html = result._repr_html_()
    assert not result.intervals_computed
    assert html.startswith('<div class="evalreport-notebook evalreport-quick">')
    text = re.sub(r"<[^>]+>", "", html)
    assert "Point values only." in text and "result.with_intervals()" in text
    assert "intervals, the tests, the gates and the verdict are not computed yet" in text
    assert "120 bootstrap resamples" in text and "Verdict" not in text and "<svg" not in html
    rows = dict(re.findall(r'<span class="learner">(\w+)</span></th>(.*?)</tr>', html))
    cells = {k: re.findall(r'<td class="num">([^<]*)</td>', v) for k, v in rows.items()}
    heads = re.findall(r'<th scope="col"[^>]*>([^<&]*)', html)[1:]
    for key in ("a", "b"):
        got = dict(zip(heads, cells[key]))
        assert got["AUC"] == f"{roc_auc_score(y, scores[key]):.4f}"
        assert got["average precision"] == f"{average_precision_score(y, scores[key]):.4f}"
        assert got["threshold"] == "0.500"
    # once computed, the cell is page one of the report, with its intervals
    full_html = result.with_intervals()._repr_html_()
    assert result._repr_html_() == full_html and '<section id="verdict"' in full_html
