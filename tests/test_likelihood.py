"""The likelihood ratios LR+, LR- and the diagnostic odds ratio (evalreport/metrics/likelihood.py),
added as the recipe of docs/architecture.md says: one pure function each, one registry entry each,
these tests. Checked against scikit-learn's ``class_likelihood_ratios`` (weights included), which
gives NaN with an ``UndefinedMetricWarning`` where ours is undefined; the odds ratio against LR+ / LR-
of scikit-learn's."""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings, strategies as st
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import class_likelihood_ratios

import evalreport
from evalreport import registry
from evalreport.measure import Undefined
from evalreport.metrics.likelihood import dor, lr_minus, lr_plus


def _counts(y, yhat, w) -> tuple[float, float, float, float]:
    """TP, FP, TN, FN by plain sums (not the engine's)."""
    y, yhat, w = np.asarray(y, bool), np.asarray(yhat, bool), np.asarray(w, float)
    return (float(w[y & yhat].sum()), float(w[~y & yhat].sum()), float(w[~y & ~yhat].sum()),
            float(w[y & ~yhat].sum()))


def _sklearn(y, yhat, w) -> tuple[float, float, bool]:
    """scikit-learn's (LR+, LR-) and whether it warned that one is undefined."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pos, neg = class_likelihood_ratios(np.asarray(y, int), np.asarray(yhat, int), labels=[0, 1],
                                           sample_weight=np.asarray(w, float))
    said = any(issubclass(c.category, UndefinedMetricWarning) for c in caught)
    return float(pos), float(neg), said


rows = st.lists(st.tuples(st.booleans(), st.booleans(), st.integers(0, 3)), min_size=1, max_size=30)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(rows)
def test_the_ratios_are_scikit_learns_and_undefined_where_it_says_nan(data):
    y, yhat, w = zip(*data)
    if sum(w) == 0:
        w = (1,) * len(w)
    counts = _counts(y, yhat, w)
    sk_plus, sk_minus, warned = _sklearn(y, yhat, w)
    ours_plus, ours_minus, ours_dor = lr_plus(*counts), lr_minus(*counts), dor(*counts)
    for ours, theirs in ((ours_plus, sk_plus), (ours_minus, sk_minus)):
        if math.isnan(theirs):
            assert isinstance(ours, Undefined) and ours.why
        else:
            assert ours == pytest.approx(theirs, rel=1e-12, abs=1e-300)
    # scikit-learn warns exactly when one of them is undefined
    assert warned == (isinstance(ours_plus, Undefined) or isinstance(ours_minus, Undefined))
    # the odds ratio: LR+ / LR-, undefined where either is or where LR- = 0 (infinite)
    if math.isnan(sk_plus) or math.isnan(sk_minus) or sk_minus == 0:
        assert isinstance(ours_dor, Undefined)
    else:
        assert ours_dor == pytest.approx(sk_plus / sk_minus, rel=1e-12)


@pytest.mark.parametrize("counts,undefined", [
    ((0, 3, 5, 0), {"lr_plus": "there are no positives", "lr_minus": "there are no positives",
                    "dor": "there are no positives"}),
    ((3, 0, 0, 2), {"lr_plus": "there are no negatives", "lr_minus": "there are no negatives",
                    "dor": "there are no negatives"}),
    ((3, 0, 5, 2), {"lr_plus": "there are no false positives (FPR = 0)",
                    "dor": "there are no false positives (FPR = 0)"}),
    ((3, 5, 0, 2), {"lr_minus": "there are no true negatives (TNR = 0)",
                    "dor": "there are no true negatives (TNR = 0)"}),
    ((3, 1, 5, 0), {"dor": "there are no false negatives (LR- = 0: the odds ratio is infinite)"}),
    ((0, 1, 5, 2), {}),  # LR+ = 0, the odds ratio 0: defined
])
def test_each_undefined_value_says_why(counts, undefined):
    for f in (lr_plus, lr_minus, dor):
        value = f(*counts)
        if f.__name__ in undefined:
            assert isinstance(value, Undefined) and value.why == undefined[f.__name__]
        else:
            assert isinstance(value, float) and math.isfinite(value)
    # by hand: TP = 0, FP = 1, TN = 5, FN = 2
    assert lr_plus(0, 1, 5, 2) == 0.0 and lr_minus(0, 1, 5, 2) == pytest.approx(1 / (5 / 6))
    assert dor(0, 1, 5, 2) == 0.0


def test_the_registry_declares_them_once():
    plus, minus, odds = (registry.get(n) for n in ("lr_plus", "lr_minus", "dor"))
    assert (plus.direction, minus.direction, odds.direction) == ("higher", "lower", "higher")
    assert {m.unit for m in (plus, minus, odds)} == {"ratio"} and all(m.gate for m in (plus, minus, odds))
    assert all(m.tasks == ("binary",) and m.json_path == {"binary": f"learners.*.{m.name}"}
               for m in (plus, minus, odds))


def _run(y, p, *, threshold=0.5, extra=None):
    spec = {"version": 1, "task": "binary", "positive": 1, "threshold": threshold,
            "confidence": {"bootstrap": 0},
            "data": [{"table": "t", "label": "y", "learners": {"m": {"score": "p"}}}], **(extra or {})}
    return evalreport.evaluate(spec, data={"t": pa.table({"y": y, "p": p})})


@pytest.mark.slow
def test_a_run_writes_them_and_warns_where_undefined(tmp_path):
    # TP 2, FP 1, TN 2, FN 1 at 0.5: LR+ = (2/3) / (1/3) = 2, LR- = (1/3) / (2/3) = 0.5, DOR = 4
    result = _run([1, 1, 1, 0, 0, 0], [0.9, 0.8, 0.3, 0.7, 0.2, 0.1],
                  extra={"gates": [{"metric": "lr_plus", "min": 1.5}, {"metric": "dor", "min": 5}]})
    values = result.learners["m"].values
    assert (values["lr_plus"], values["lr_minus"], values["dor"]) == pytest.approx((2.0, 0.5, 4.0), rel=1e-15)
    assert [(g["metric"], g["passed"]) for g in result.gates] == [("lr_plus", True), ("dor", False)]
    evalreport.render(result, out=tmp_path / "out", formats=["json", "html"])
    learner = json.loads((tmp_path / "out" / "results.json").read_text())["learners"]["m"]
    assert (learner["lr_plus"], learner["lr_minus"], learner["dor"]) == pytest.approx((2.0, 0.5, 4.0))
    html = (tmp_path / "out" / "report.html").read_text()
    family = html[html.index("The confusion-matrix family at the threshold"):]
    assert "LR+" in family and "diagnostic odds ratio" in family
    # no false positive: LR+ and the odds ratio undefined, null in results.json, a warning each
    result = _run([1, 1, 1, 0, 0, 0], [0.9, 0.8, 0.3, 0.4, 0.2, 0.1])
    assert result.learners["m"].values["lr_plus"] is None and result.learners["m"].values["dor"] is None
    said = [(w.measure, w.message) for w in result.warnings if w.measure in ("lr_plus", "lr_minus", "dor")]
    assert said == [("lr_plus", "learner 'm': lr_plus at threshold 0.500 is undefined: there are no false "
                                "positives (FPR = 0)"),
                    ("dor", "learner 'm': dor at threshold 0.500 is undefined: there are no false positives "
                            "(FPR = 0)")]
    evalreport.render(result, out=tmp_path / "undefined", formats=["json"])
    data = json.loads((tmp_path / "undefined" / "results.json").read_text())
    assert data["learners"]["m"]["lr_plus"] is None and data["learners"]["m"]["dor"] is None
    assert any("lr_plus at threshold" in w for w in data["warnings"])


def test_the_leaderboard_resamples_them_from_their_function_of_the_counts():
    """rank_by: lr_plus: the paired bootstrap draws LR+ from the registry's ``of_counts``
    (compare.stats.of_counts_at), nothing written for it by hand; on the whole data
    the statistic is the learner's value."""
    from evalreport.compare import stats
    from evalreport.compare.leaderboard import leaderboard
    from evalreport.metrics import evaluate_binary

    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 200)
    table = pa.table({"y": y, "a": np.clip(0.3 * y + 0.7 * rng.random(200), 0, 1), "b": rng.random(200)})
    spec = {"version": 1, "task": "binary", "positive": 1, "rank_by": "lr_plus", "confidence": {"bootstrap": 100},
            "data": [{"table": "t", "label": "y", "learners": {"a": {"score": "a"}, "b": {"score": "b"}}}]}
    result = evalreport.evaluate(spec, data={"t": table})
    board = leaderboard(result)
    assert board["rank_by"] == "lr_plus" and [r["learner"] for r in board["rows"]] == ["a", "b"]
    assert board["rows"][1]["p_vs_best"] is not None
    for key, lr in result.learners.items():
        statistic = stats.statistic_for("lr_plus", lr, result.spec)
        ev = evaluate_binary(y == 1, table.column(key).to_numpy())
        assert statistic(ev) == pytest.approx(lr.values["lr_plus"], rel=1e-12)
