"""Invariances every measure of the registry must hold, run over the registry as
scikit-learn's sklearn/metrics/tests/test_common.py runs over its metrics: a
measure added to the registry is tested here with nothing to write.

For each task, every scalar of the registry the task computes, through the whole
pipeline (evalreport.evaluate on in-memory tables), on seeded random data with
tied scores and integer weights:

- the order of the rows does not matter;
- an integer weight w is the row repeated w times;
- a row of weight 0 is the row removed;
- the labels' type does not matter (int, bool, text; the positive label named in it);
- binary: swapping the positive label (and reversing the scores: s -> 1 - s, the
  threshold t -> 1 - t) gives the measure the registry's ``swapped`` names;
- one class only, and constant scores, give ``null`` where the registry's
  ``undefined`` says so, and every ``null`` of a measure the spec asks for is
  explained by a warning naming it.

Values compare at a relative 1e-12 (absolute 1e-12 near 0): sums in another order
differ in the last bits.
"""

from __future__ import annotations

import math

import numpy as np
import pyarrow as pa
import pytest

import evalreport
from evalreport import registry

#: scores on a grid of odd 64ths: ties, exact under s -> 1 - s, never on the threshold
#: 0.5 nor on an inner edge of the calibration's ten bins
GRID = (2 * np.arange(32) + 1) / 64
THRESHOLD = 0.5
CLASSES = ("a", "b", "c")
MATRIX = [[0, 1, 4], [2, 0, 1], [1, 3, 0]]


def _scalars(task: str) -> list:
    return [m for m in registry.measures_for(task, *registry.SCALAR_KINDS) if task in m.compute]


def _close(a, b) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)


def _differences(got: dict, want: dict, names) -> dict:
    return {n: (got[n], want[n]) for n in names if not _close(got[n], want[n])}


# ------------------------------------------------------------------------ running

def _binary(y, s, w=None, *, positive=1, threshold=THRESHOLD) -> tuple[dict, list]:
    """The learner's registry values and the run's warnings."""
    columns = {"y": y, "s": np.asarray(s, dtype=float)}
    data = {"table": "t", "label": "y", "learners": {"m": {"score": "s"}}}
    if w is not None:
        columns["w"] = np.asarray(w, dtype=float)
        data["weight"] = "w"
    spec = {"version": 1, "task": "binary", "positive": positive, "threshold": threshold,
            "partial_auc": {"max_fpr": 0.5}, "confidence": {"bootstrap": 0}, "data": [data]}
    result = evalreport.evaluate(spec, data={"t": pa.table(columns)})
    return dict(result.learners["m"].values), result.warnings


def _multiclass(y, scores, w=None, *, classes=CLASSES) -> tuple[dict, list]:
    columns = {"y": y, **{f"p{i}": scores[:, i] for i in range(len(classes))}}
    data = {"table": "t", "label": "y", "learners": {"m": [f"p{i}" for i in range(len(classes))]}}
    if w is not None:
        columns["w"] = np.asarray(w, dtype=float)
        data["weight"] = "w"
    spec = {"version": 1, "task": "multiclass", "classes": list(classes), "costs": {"matrix": MATRIX},
            "confidence": {"bootstrap": 0}, "data": [data]}
    result = evalreport.evaluate(spec, data={"t": pa.table(columns)})
    return dict(result.learners["m"].values), result.warnings


def _binary_data(seed: int, n: int = 60):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    # informative but imperfect scores, tied on the grid
    s = GRID[np.clip((y * 8 + rng.integers(0, 24, n)), 0, 31)]
    w = rng.integers(1, 4, n)
    return y, s, w


def _multiclass_data(seed: int, n: int = 60):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    raw = rng.integers(1, 5, (n, 3)).astype(float)
    raw[np.arange(n), y] += rng.integers(0, 4, n)  # informative, with ties between classes
    scores = raw / raw.sum(axis=1, keepdims=True)
    w = rng.integers(1, 4, n)
    return y, scores, w


SEEDS = (0, 1)


# ------------------------------------------------------------------------ binary

@pytest.mark.parametrize("seed", SEEDS)
def test_binary_row_order_weights_and_zero_weights(seed):
    y, s, w = _binary_data(seed)
    names = [m.name for m in _scalars("binary")]
    base, _ = _binary(y, s, w)
    assert sum(v is not None for v in base.values()) >= len(names) - 2, base  # the data define nearly all
    order = np.random.default_rng(seed + 100).permutation(len(y))
    assert _differences(_binary(y[order], s[order], w[order])[0], base, names) == {}
    # an integer weight is the row repeated
    repeated = np.repeat(np.arange(len(y)), w)
    assert _differences(_binary(y[repeated], s[repeated])[0], base, names) == {}
    # a row of weight 0 is the row removed (three rows added with weight 0, on scores of their own too)
    extra_y, extra_s = np.array([1, 0, 1]), np.array([GRID[0], GRID[31], GRID[5]])
    zero = _binary(np.r_[y, extra_y], np.r_[s, extra_s], np.r_[w, [0, 0, 0]])[0]
    assert _differences(zero, base, names) == {}


@pytest.mark.parametrize("labels,positive", [
    ((False, True), True),
    (("neg", "pos"), "pos"),
    ((7, 3), 3),  # the positive label need not be the larger one
])
def test_binary_label_types(labels, positive):
    y, s, w = _binary_data(2)
    names = [m.name for m in _scalars("binary")]
    base, _ = _binary(y, s, w)
    relabelled = [labels[int(v)] for v in y]
    assert _differences(_binary(relabelled, s, w, positive=positive)[0], base, names) == {}


def _partner(name: str, values: dict):
    """The value ``swapped`` names: a measure's, or its reciprocal ("1/<name>")."""
    if name.startswith("1/"):
        v = values[name[2:]]
        return None if v is None or v == 0 else 1 / v
    return values[name]


@pytest.mark.parametrize("seed", SEEDS)
def test_binary_positive_label_swapped(seed):
    """Labels swapped and the scores' order reversed (s -> 1 - s, t -> 1 - t: the
    decisions flip, no score being on the threshold): each measure with a declared
    symmetry is its partner's value."""
    y, s, w = _binary_data(seed)
    base, _ = _binary(y, s, w)
    swapped, _ = _binary(1 - y, 1 - s, w, threshold=1 - THRESHOLD)
    declared = [m for m in _scalars("binary") if m.swapped]
    assert {"accuracy", "precision", "recall", "auc", "mcc"} <= {m.name for m in declared}
    wrong = {m.name: (swapped[m.name], _partner(m.swapped, base)) for m in declared
             if not _close(swapped[m.name], _partner(m.swapped, base))}
    assert wrong == {}


def _undefined(m, task: str) -> str:
    """When the registry says ``m`` is undefined for ``task``: an entry of both tasks
    gives the multi-class case in parentheses, "(multi-class: ...)"."""
    text = m.undefined
    at = text.find("(multi-class: ")
    if at < 0:
        return text
    return text[:at] if task == "binary" else text[at + len("(multi-class: "):text.index(")", at)]


def _said(warnings, name: str) -> bool:
    return any(getattr(w, "measure", None) == name or f"{name} " in str(w) for w in warnings)


@pytest.mark.parametrize("which,words", [
    (1, ("one class only", "no negatives")),
    (0, ("one class only", "no positives")),
])
def test_binary_one_class_gives_the_documented_null(which, words):
    """One class only: all positives; or no positive carrying weight (a spec's
    positive label must occur in the data)."""
    y, s, w = _binary_data(3)
    if which == 1:
        y = np.full_like(y, 1)
    else:
        w = np.where(y == 1, 0, w)
    values, warnings = _binary(y, s, w)
    for m in _scalars("binary"):
        text = _undefined(m, "binary")
        # "no positives and nothing predicted positive" needs both: not this case alone
        documented = " and " not in text and any(word in text for word in words)
        if documented:
            assert values[m.name] is None, (m.name, values[m.name])
        if values[m.name] is None and m.metric:
            assert _said(warnings, m.name), m.name
        elif values[m.name] is not None:
            assert math.isfinite(values[m.name]), m.name


def test_binary_constant_scores_give_the_documented_null():
    """Every score the same (above the threshold): nothing is predicted negative and
    nothing is ranked."""
    y, _, w = _binary_data(4)
    values, warnings = _binary(y, np.full(len(y), GRID[20]), w)
    for m in _scalars("binary"):
        if any(words in _undefined(m, "binary") for words in ("nothing predicted negative", "one decision only")):
            assert values[m.name] is None, m.name
        if values[m.name] is None and m.metric:
            assert _said(warnings, m.name), m.name
    assert values["auc"] == 0.5 and values["ks"] == 0.0 and values["recall"] == 1.0


# ------------------------------------------------------------------------ multi-class

@pytest.mark.parametrize("seed", SEEDS)
def test_multiclass_row_order_weights_and_zero_weights(seed):
    y, scores, w = _multiclass_data(seed)
    labels = np.array(CLASSES)[y]
    names = [m.name for m in _scalars("multiclass")]
    base, _ = _multiclass(labels, scores, w)
    assert sum(v is not None for v in base.values()) >= len(names) - 1, base
    order = np.random.default_rng(seed + 100).permutation(len(y))
    assert _differences(_multiclass(labels[order], scores[order], w[order])[0], base, names) == {}
    repeated = np.repeat(np.arange(len(y)), w)
    assert _differences(_multiclass(labels[repeated], scores[repeated])[0], base, names) == {}
    extra = np.array([[0.8, 0.1, 0.1], [0.1, 0.1, 0.8]])
    zero = _multiclass(np.r_[labels, ["b", "a"]], np.r_[scores, extra], np.r_[w, [0, 0]])[0]
    assert _differences(zero, base, names) == {}


def test_multiclass_label_types_and_class_names():
    """Integer classes, or other names in the same order, give the same values."""
    y, scores, w = _multiclass_data(2)
    names = [m.name for m in _scalars("multiclass")]
    base, _ = _multiclass(np.array(CLASSES)[y], scores, w)
    assert _differences(_multiclass(y, scores, w, classes=(0, 1, 2))[0], base, names) == {}
    other = ("zebra", "ant", "moth")
    assert _differences(_multiclass(np.array(other)[y], scores, w, classes=other)[0], base, names) == {}


def test_multiclass_one_class_gives_the_documented_null():
    y, scores, w = _multiclass_data(3)
    values, warnings = _multiclass(np.full(len(y), "a"), scores, w)
    for m in _scalars("multiclass"):
        if "one class only" in _undefined(m, "multiclass"):
            assert values[m.name] is None, m.name
        if values[m.name] is None and m.metric:
            assert _said(warnings, m.name), m.name
