"""A printed threshold reproduces the decisions of the threshold it stands for
(issue 19): ``score >= float(text)`` flags exactly what ``score >= t`` flags, and
no decimal with fewer digits does."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from evalreport.metrics import evaluate_binary
from evalreport.metrics.threshold_text import shortest_between, threshold_text


def _decimals_after_point(text: str) -> int:
    mantissa, _, exp = text.lstrip("-").partition("e")
    places = len(mantissa.partition(".")[2])
    return places - int(exp or 0)


def _no_coarser_decimal(text: str, lower: float, upper: float) -> bool:
    """No multiple of a coarser power of ten lies in (lower, upper] (checked
    independently of the construction, with exact fractions)."""
    places = _decimals_after_point(text)
    if places <= 0:  # an integer: fewer places would not make it shorter
        return True
    step = Fraction(10) ** (-(places - 1))
    hi = Fraction(upper) if math.isfinite(upper) else None
    lo = Fraction(lower) if math.isfinite(lower) else None
    if hi is None or lo is None:
        return True
    return math.floor(hi / step) * step <= lo


def _scores(rng, kind):
    n = int(rng.integers(2, 60))
    if kind == "near_one":
        return 1 - rng.integers(0, 40, n) * 2.0 ** -52 * rng.choice([1, 7, 1e3], n)
    if kind == "ties":
        return rng.choice(rng.normal(size=5), n)
    if kind == "negative":
        return -rng.exponential(size=n) * 10.0 ** rng.integers(-8, 4)
    return rng.random(n) * 10.0 ** rng.integers(-12, 6) * rng.choice([-1, 1])


@pytest.mark.parametrize("kind", ["near_one", "ties", "negative", "many_decimals"])
def test_every_threshold_text_gives_the_same_decisions_and_is_shortest(kind):
    rng = np.random.default_rng(19)
    for _ in range(150):
        scores = _scores(rng, kind)
        labels = rng.random(scores.size) < 0.5
        table = evaluate_binary(labels, scores).counts
        distinct = np.unique(scores)
        given = [*distinct, *(rng.uniform(distinct.min() - 1, distinct.max() + 1, 5)),
                 float(distinct.max()) + 0.5]
        for t in given:
            text = threshold_text(table, t)
            assert np.array_equal(scores >= float(text), scores >= t), (scores.tolist(), t, text)
            below, above = distinct[distinct < t], distinct[distinct >= t]
            lower = float(below.max()) if below.size else -math.inf
            upper = float(above.min()) if above.size else math.inf
            assert _no_coarser_decimal(text, lower, upper), (t, text, lower, upper)


def test_the_least_cost_threshold_of_breast_cancer_is_not_printed_as_1():
    # nb's least-cost threshold (examples/breast_cancer): "1" flags 132 instances, it 140
    assert shortest_between(0.9999999999999, 0.9999999999999716) == "0.99999999999997"
    assert float(shortest_between(0.9999999999999, 0.9999999999999716)) > 0.9999999999999


def test_ties_go_to_the_number_nearest_the_threshold():
    assert shortest_between(0.3, 0.7, 0.5) == "0.5"  # a spec threshold stays as written
    assert shortest_between(0.3, 0.7312) == "0.7"
    assert shortest_between(-math.inf, 0.03) == "0"  # every instance flagged
    assert shortest_between(500, math.inf, 600) == "600"
    assert shortest_between(1e-13, 3e-12) == "3e-12"
    assert threshold_text(evaluate_binary([0, 1], [0.2, 0.8]).counts, math.inf) == "+inf"


def test_a_threshold_whose_double_is_below_its_decimal_is_printed_as_written():
    # the double 0.3 is 0.2999999999999999889: the decimal 0.3 lies above it, but
    # reads back as it ("0.29" was printed for a spec threshold of 0.3)
    assert shortest_between(0.2, 0.3, 0.3) == "0.3"
    assert shortest_between(0.1, 0.7) == "0.7"
    assert threshold_text(evaluate_binary([0, 1, 1], [0.2, 0.3, 0.9]).counts, 0.3) == "0.3"


def _near_one_spec(tmp, threshold="optimal"):
    # a's least-cost threshold is 1 - 2**-45 (0.99999999999997...): "1" would flag
    # only the scores of exactly 1, not the matrix's two positives below it
    a = [1.0, 1 - 2.0 ** -45, 1 - 2.0 ** -45, 1 - 2.0 ** -40, 0.2, 0.1]
    y = [1, 1, 1, 0, 0, 0]
    rows = "\n".join(f"{yi},{ai!r},{bi}" for yi, ai, bi in zip(y, a, [0.9, 0.8, 0.3, 0.7, 0.6, 0.1]))
    (tmp / "p.csv").write_text("y,a,b\n" + rows + "\n")
    (tmp / "spec.yaml").write_text(
        "version: 1\ndate: 2026-11-25\ndata:\n  - path: p.csv\n    label: y\n    learners: {a: a, b: b}\n"
        f"threshold: {threshold}\nreport: {{formats: [json], out: out}}\n")
    return tmp / "spec.yaml"


def test_the_report_prints_thresholds_that_keep_the_matrix(tmp_path):
    import evalreport
    from evalreport.report.context import report_context

    result = evalreport.evaluate(evalreport.load_spec(_near_one_spec(tmp_path)))
    lr = result.learners["a"]
    assert lr.threshold == 1 - 2.0 ** -45 and lr.at_threshold.tp == 3
    ctx = report_context(result)
    row = next(r for r in ctx["learners"] if r["key"] == "a")
    # the next score below is 1 - 2**-40 = 0.99999999999909...: 13 places are needed
    shown = row["at"][[c.key for c in ctx["at_columns"]].index("threshold")].text
    assert shown == "0.9999999999999"  # the measures table's column
    its = row["rank"][[c.key for c in ctx["rank_columns"]].index("op_threshold")].text
    assert its == shown  # "its threshold" of the least cost
    assert any("at threshold 0.9999999999999 " in line for line in ctx["verdict"]["learners"])
    envelope = [r["threshold"] for r in ctx["envelope"] if r["learner"] == "a"]
    texts = set(lr.threshold_texts.values())
    assert envelope and all(set(t.split(" (")[0].split(" down to ")) <= texts for t in envelope)
    for t in lr.threshold_texts:  # every recorded text keeps its threshold's decisions
        if np.isfinite(t):
            scores = np.array([1.0, 1 - 2.0 ** -45, 1 - 2.0 ** -40, 0.2, 0.1])
            assert np.array_equal(scores >= float(lr.threshold_text(t)), scores >= t)
