"""Arrays in (issue 38): from_predictions and evaluate(y_true=, scores=) give the
Result a spec and a file give; to_frame keeps only the columns that can hold a
value; per_class_frame matches scikit-learn's classification_report; every public
name is in dir(evalreport)."""

from __future__ import annotations

import textwrap

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import classification_report, fbeta_score, roc_auc_score

import evalreport


def _binary(seed=0, n=200):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    return y, {"a": np.round(np.clip(0.35 * y + rng.random(n) * 0.65, 0, 1), 2),
               "b": np.round(rng.random(n), 2)}


def _without_inputs(d: dict) -> dict:
    """results.json less what names the input (the file, or the in-memory table)."""
    out = {k: v for k, v in d.items() if k not in ("inputs", "spec", "provenance")}
    out["learners"] = {k: {m: v for m, v in block.items() if m != "source"} for k, block in out["learners"].items()}
    return out


def test_from_predictions_gives_the_result_of_the_equivalent_spec_and_file(tmp_path):
    y, scores = _binary()
    (tmp_path / "p.csv").write_text("y,a,b\n" + "".join(f"{y[i]},{scores['a'][i]},{scores['b'][i]}\n"
                                                        for i in range(y.size)))
    (tmp_path / "spec.yaml").write_text(textwrap.dedent("""\
        version: 1
        task: binary
        positive: 1
        priors: {positive: 0.2}
        costs: {false_negative: 4, false_positive: 1}
        threshold: 0.4
        fbeta: [2]
        data:
          - path: p.csv
            label: y
            learners: {a: a, b: b}
        """))
    from_file = evalreport.evaluate(evalreport.load_spec(tmp_path / "spec.yaml"))
    from_arrays = evalreport.from_predictions(y, scores, positive=1, priors={"positive": 0.2},
                                              costs={"false_negative": 4, "false_positive": 1}, threshold=0.4,
                                              fbeta=[2])
    a, b = _without_inputs(from_file.to_dict()), _without_inputs(from_arrays.to_dict())
    assert a["learners"] == b["learners"] and a["verdict"] == b["verdict"]
    assert from_arrays.learners["a"].values["auc"] == pytest.approx(roc_auc_score(y, scores["a"]), rel=1e-12)
    # the shortcut
    again = evalreport.evaluate(y_true=y, scores=scores, positive=1, priors={"positive": 0.2},
                                costs={"false_negative": 4, "false_positive": 1}, threshold=0.4, fbeta=[2])
    assert _without_inputs(again.to_dict())["learners"] == b["learners"]
    # to_frame: fbeta per b, as scikit-learn computes it at the threshold
    frame = from_arrays.to_frame()
    assert frame.loc["a", "fbeta_2"] == pytest.approx(fbeta_score(y, scores["a"] >= 0.4, beta=2), rel=1e-12)
    assert "fbeta" not in frame.columns and "partial_auc" not in frame.columns
    assert not frame.isna().all().any()  # no column that cannot hold a value


def test_a_single_score_array_is_one_learner_named_model():
    y, scores = _binary(1)
    result = evalreport.from_predictions(y, scores["a"], positive=1, confidence={"bootstrap": 0})
    assert list(result.learners) == ["model"]


def test_multiclass_arrays_and_the_per_class_frame_match_scikit_learn():
    rng = np.random.default_rng(4)
    n, classes = 150, ["x", "y", "z"]
    y = rng.choice(classes, n)
    s = rng.dirichlet([1, 1, 1], n) + 0.6 * (y[:, None] == np.array(classes))
    s = s / s.sum(axis=1, keepdims=True)
    result = evalreport.from_predictions(y, {"m": s}, confidence={"bootstrap": 0})
    assert result.spec.task == "multiclass"
    frame = result.per_class_frame()
    decided = np.array(classes)[np.argmax(s, axis=1)]
    report = classification_report(y, decided, labels=classes, output_dict=True, zero_division=0)
    for c in classes:
        for ours, theirs in (("precision", "precision"), ("recall", "recall"), ("f1", "f1-score"),
                             ("support", "support")):
            assert frame.loc[("m", c), ours] == pytest.approx(report[c][theirs], rel=1e-12)
        auc = roc_auc_score(y == c, s[:, classes.index(c)])
        assert frame.loc[("m", c), "auc"] == pytest.approx(auc, rel=1e-12)
    assert frame.loc[("m", "micro"), "precision"] == pytest.approx(report["accuracy"], rel=1e-12)
    assert frame.loc[("m", "macro"), "recall"] == pytest.approx(report["macro avg"]["recall"], rel=1e-12)
    columns = result.to_frame().columns
    assert "average_precision" not in columns and "fbeta" not in columns and "macro_auc" in columns


def test_per_class_frame_of_a_binary_result_says_where_to_look():
    y, scores = _binary()
    with pytest.raises(TypeError, match="to_frame"):
        evalreport.from_predictions(y, scores, positive=1, confidence={"bootstrap": 0}).per_class_frame()


@pytest.mark.parametrize("y, scores, message", [
    ([0, 1, 1, 0], {"a": [0.1, 0.2, 0.3]}, "3 rows, y_true has 4"),
    ([0, 1, 1, 0], {"a": np.zeros((4, 2, 2))}, "shape (4, 2, 2)"),
    ([0, 1, 1, 0], {"a": np.array([1 + 1j, 2, 3, 4])}, "dtype complex128"),
    ([0, 1, 1, 0], {"a": np.array([object(), 1, 2, 3], dtype=object)}, "dtype object"),
    ([0, 1, 1, 0], {}, "no learner"),
    ([[0, 1], [1, 0]], {"a": [0.1, 0.2]}, "one label per row"),
    ([0, 1, 2, 2], {"a": np.ones((4, 2))}, "one column per class (3"),
])
def test_bad_arrays_are_refused_with_a_message(y, scores, message):
    with pytest.raises(evalreport.SpecError, match=message.replace("(", r"\(").replace(")", r"\)")):
        evalreport.from_predictions(y, scores)


def test_evaluate_takes_a_spec_or_arrays_not_both():
    with pytest.raises(TypeError, match="either a spec"):
        evalreport.evaluate({"version": 1}, y_true=[0, 1], scores=[0.1, 0.9])
    with pytest.raises(TypeError, match="go together"):
        evalreport.evaluate(y_true=[0, 1])
    with pytest.raises(TypeError, match="is needed"):
        evalreport.evaluate()


def test_every_public_name_is_listed_before_first_use():
    names = dir(evalreport)
    for name in evalreport.__all__:
        assert name in names
        assert getattr(evalreport, name) is not None
    assert {"load_spec", "plot_roc", "from_predictions"} <= set(names)
