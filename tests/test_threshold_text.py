"""A printed threshold reproduces the decisions of the threshold it stands for
(issue 19): ``score >= threshold_value(text)`` flags exactly what ``score >= t`` flags, and
no decimal with fewer digits does."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalreport.metrics import evaluate_binary
from evalreport.metrics.threshold_text import exact_text, shortest_between, threshold_text, threshold_value


def _as_e(text: str) -> str:
    """The text with its power of ten written as "e" (for these helpers only: the
    report prints "1.00 × 10⁻¹²", never "1.00e-12")."""
    mantissa, times, power = text.partition(" × 10")
    return mantissa + ("e" + power.translate(str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")) if times else "")


def _decimals_after_point(text: str) -> int:
    mantissa, _, exp = _as_e(text).lstrip("-").partition("e")
    places = len(mantissa.partition(".")[2])
    return places - int(exp or 0)


def _significant_digits(text: str) -> int:
    """Digits from the first non-zero one to the last written one ("0.0300": 3)."""
    mantissa = _as_e(text).lstrip("-").partition("e")[0].replace(".", "")
    return len(mantissa.lstrip("0"))


def _third_digit_places(t: float) -> int:
    """Places after the point of t's third significant digit, exactly (Fractions)."""
    x, e = abs(Fraction(t)), 0
    while Fraction(10) ** e > x:
        e -= 1
    while Fraction(10) ** (e + 1) <= x:
        e += 1
    return -(e - 2)


def _some_decimal_with(places: int, lower: float, upper: float) -> bool:
    """Whether a decimal of ``places`` places reads as a double in (lower, upper]
    (the reading is monotone: the largest k with k 10^-places <= upper, or one more
    for a decimal that rounds down onto upper, is the one to try)."""
    if upper == math.inf:
        return True
    k = math.floor(Fraction(upper) * Fraction(10) ** places)
    return any(lower < float(f"{j}e{-places}") <= upper for j in (k, k + 1))


def _is_shortest(text: str, t: float, lower: float, upper: float) -> bool:
    """At least 3 significant digits at t's magnitude, and no decimal with fewer
    places (down to t's third significant digit) in (lower, upper]."""
    if t == 0:
        return text == "0"
    places, first = _decimals_after_point(text), _third_digit_places(t)
    if places == 0 and "×" not in text:  # an integer's trailing zeros: read at the coarsest place allowed
        places = max(len(text.rstrip("0")) - len(text), first)
    return places >= first and not any(_some_decimal_with(p, lower, upper) for p in range(first, places))


def _scores(rng, kind):
    n = int(rng.integers(2, 60))
    if kind == "near_one":
        return 1 - rng.integers(0, 40, n) * 2.0 ** -52 * rng.choice([1, 7, 1e3], n)
    if kind == "ties":
        return rng.choice(rng.normal(size=5), n)
    if kind == "negative":
        return -rng.exponential(size=n) * 10.0 ** rng.integers(-8, 4)
    return rng.random(n) * 10.0 ** rng.integers(-12, 6) * rng.choice([-1, 1])


@pytest.mark.slow
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
            assert np.array_equal(scores >= threshold_value(text), scores >= t), (scores.tolist(), t, text)
            below, above = distinct[distinct < t], distinct[distinct >= t]
            lower = float(below.max()) if below.size else -math.inf
            upper = float(above.min()) if above.size else math.inf
            assert _is_shortest(text, t, lower, upper), (t, text, lower, upper)
            assert t == 0 or _significant_digits(text) >= 3, (t, text)


def test_the_least_cost_threshold_of_breast_cancer_is_not_printed_as_1():
    # nb's least-cost threshold (examples/breast_cancer): "1" flags 132 instances, it 140
    assert shortest_between(0.9999999999999, 0.9999999999999716) == "0.99999999999997"
    assert float(shortest_between(0.9999999999999, 0.9999999999999716)) > 0.9999999999999


def test_ties_go_to_the_number_nearest_the_threshold_with_three_significant_digits():
    # hand-made: the third significant digit is the coarsest place allowed (issue 33)
    assert shortest_between(0.3, 0.7, 0.5) == "0.500"  # a spec threshold, at its precision
    assert shortest_between(0.3, 0.7312) == "0.731"
    assert shortest_between(-math.inf, 0.03) == "0.0300"  # every instance flagged
    assert shortest_between(500, math.inf, 600) == "600"
    assert shortest_between(1e-13, 3e-12) == "3.00 × 10⁻¹²"  # no exponent notation (issue 34)
    assert shortest_between(0.0001, 0.000123) == "0.000123"  # plain down to 0.0001, as general
    assert shortest_between(0.2, 0.3, 0.25) == "0.250"  # not "0.3": one digit
    assert shortest_between(0.25369, 0.2537, 0.2537) == "0.2537"  # 0.254 is past the score
    assert shortest_between(-1.0, 1.0, 0.0) == "0"
    assert threshold_text(evaluate_binary([0, 1], [0.2, 0.8]).counts, math.inf) == "+inf"


def test_a_threshold_whose_double_is_below_its_decimal_is_printed_as_written():
    # the double 0.3 is 0.2999999999999999889: the decimal 0.3 lies above it, but
    # reads back as it ("0.29" was printed for a spec threshold of 0.3)
    assert shortest_between(0.2, 0.3, 0.3) == "0.300"
    assert shortest_between(0.1, 0.7) == "0.700"
    assert threshold_text(evaluate_binary([0, 1, 1], [0.2, 0.3, 0.9]).counts, 0.3) == "0.300"


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 30), min_size=2, max_size=40),
       st.lists(st.booleans(), min_size=2, max_size=40),
       st.sampled_from([1e-3, 0.0371, 1.0, 7.3, 1e4, -0.01]), st.integers(0, 39),
       st.floats(-2, 2))
def test_hypothesis_scores_with_ties(codes, labels, scale, pick, jitter):
    # few distinct values (ties), at several magnitudes; thresholds at a score
    # (a least-cost threshold) and between scores (a spec threshold)
    n = min(len(codes), len(labels))
    scores = np.array(codes[:n], dtype=float) * scale + 0.1 * scale
    table = evaluate_binary(labels[:n], scores).counts
    distinct = np.unique(scores)
    for t in (float(distinct[pick % distinct.size]), float(distinct[pick % distinct.size] + jitter * scale)):
        text = threshold_text(table, t)
        # recounted here: the same confusion matrix
        y = np.array(labels[:n])
        got, want = scores >= threshold_value(text), scores >= t
        assert (np.sum(got & y), np.sum(got & ~y)) == (np.sum(want & y), np.sum(want & ~y))
        assert np.array_equal(got, want), (scores.tolist(), t, text)
        below, above = distinct[distinct < t], distinct[distinct >= t]
        lower = float(below.max()) if below.size else -math.inf
        upper = float(above.min()) if above.size else math.inf
        assert t == 0 or _significant_digits(text) >= 3, (t, text)
        assert _is_shortest(text, t, lower, upper), (t, text, lower, upper)


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


@pytest.mark.slow
def test_the_report_prints_thresholds_that_keep_the_matrix(tmp_path):
    import evalreport
    from evalreport.report.context import report_context

    result = evalreport.evaluate(evalreport.load_spec(_near_one_spec(tmp_path)))
    lr = result.learners["a"]
    assert lr.threshold == 1 - 2.0 ** -45 and lr.at_threshold.tp == 3
    ctx = report_context(result)
    row = next(r for r in ctx.learners if r.key == "a")
    # the next score below is 1 - 2**-40 = 0.99999999999909...: 13 places are needed
    shown = row.at[[c.key for c in ctx.at_columns].index("threshold")].text
    assert shown == "0.9999999999999"  # the measures table's column
    its = row.rank[[c.key for c in ctx.rank_columns].index("op_threshold")].text
    assert its == shown  # "its threshold" of the least cost
    assert any("at threshold 0.9999999999999 " in line for line in ctx.verdict.learners)
    envelope = [r.threshold for r in ctx.envelope if r.learner == "a"]
    texts = set(lr.threshold_texts.values())
    assert envelope and all(set(t.split(" (")[0].split(" down to ")) <= texts for t in envelope)
    for t in lr.threshold_texts:  # every recorded text keeps its threshold's decisions
        if np.isfinite(t):
            scores = np.array([1.0, 1 - 2.0 ** -45, 1 - 2.0 ** -40, 0.2, 0.1])
            assert np.array_equal(scores >= threshold_value(lr.threshold_text(t)), scores >= t)


@pytest.mark.slow
def test_a_threshold_chosen_on_validation_prints_one_text_on_both_data_sets(tmp_path):
    # the least-cost threshold of a on validation is its score 0.2537; the test set
    # has scores 0.2532 and 0.2536 just below it: validation's own text would be
    # 0.253 (0.254 is past the score) and test's 0.254; 0.253 flags two more
    # instances on test, so one text for both needs four places
    import evalreport
    from evalreport.results import result_dict

    val = [(1, 0.9), (1, 0.2537), (0, 0.2), (0, 0.1), (1, 0.8), (0, 0.05)]
    test = [(1, 0.95), (1, 0.2532), (0, 0.2536), (0, 0.1), (1, 0.7), (0, 0.3)]
    for name, rows in (("v.csv", val), ("t.csv", test)):
        (tmp_path / name).write_text("y,a\n" + "\n".join(f"{y},{s!r}" for y, s in rows) + "\n")
    (tmp_path / "spec.yaml").write_text(
        "version: 1\ndate: 2026-11-25\ndata:\n"
        "  - {path: v.csv, dataset: validation, label: y, learners: {a: a}}\n"
        "  - {path: t.csv, dataset: test, label: y, learners: {a: a}}\n"
        "threshold: {optimal_on: validation}\ncosts: {false_negative: 5, false_positive: 1}\n"
        "report: {formats: [json], out: out}\n")
    result = evalreport.evaluate(evalreport.load_spec(tmp_path / "spec.yaml"))
    blocks = result_dict(result)["learners"]
    t = result.learners["a@validation"].threshold
    assert t == 0.2537 and result.learners["a@test"].threshold == t
    texts = {k: b["threshold_text"] for k, b in blocks.items()}
    assert len(set(texts.values())) == 1, texts
    text = texts["a@test"]
    # recounted: the text flags what the threshold flags on both data sets
    for rows in (val, test):
        s = np.array([x for _, x in rows])
        assert np.array_equal(s >= threshold_value(text), s >= t)
    # and is the shortest such with >= 3 significant digits: the bracket is
    # (max(0.2, 0.2536), min(0.2537, 0.7)] = (0.2536, 0.2537], so four places
    # are not enough (none of 0.2536 < d <= 0.2537 but 0.2537 itself)
    assert text == "0.2537"
    assert result.learners["a@validation"].threshold_text(t) == text


_ANY_DOUBLE = st.floats(allow_nan=False, allow_infinity=False)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_ANY_DOUBLE, st.booleans()), min_size=2, max_size=12), st.integers(0, 11),
       _ANY_DOUBLE)
def test_hypothesis_no_exponent_notation_and_the_same_matrix_at_any_magnitude(rows, pick, between):
    # scores of any size a double holds (1e-320 to 1e308, subnormals included): the
    # text never has an exponent ("e"), reads back (threshold_value) as a number that
    # selects the same confusion matrix, recounted here, and is a plain decimal where
    # 0.0001 <= |text| < 10^4 at three digits (docs/reference.md, "How numbers print")
    scores = np.array([s for s, _ in rows])
    y = np.array([b for _, b in rows])
    table = evaluate_binary(y, scores).counts
    for t in (float(scores[pick % scores.size]), between):
        text = threshold_text(table, t)
        assert "e" not in text.replace("+inf", "").replace("-inf", ""), (t, text)
        got, want = scores >= threshold_value(text), scores >= t
        assert (np.sum(got & y), np.sum(got & ~y)) == (np.sum(want & y), np.sum(want & ~y)), (t, text)
        assert t == 0 or _significant_digits(text) >= 3, (t, text)
        if "×" in text:  # digits x 10^n only where the plain decimal needs over 3 placing zeros
            assert not 1e-4 <= abs(threshold_value(text)) < 1e4 or len(_as_e(text).partition(".")[2]) > 6, text
        else:
            assert threshold_value(text) == 0 or 1e-4 <= abs(threshold_value(text)) < 1e7, text


@settings(max_examples=300, deadline=None)
@given(_ANY_DOUBLE)
def test_hypothesis_the_exact_text_reads_back_as_the_double(t):
    # the text of a threshold whose neighbours are unknown (a reduced streamed table)
    text = exact_text(t)
    assert "e" not in text and threshold_value(text) == t, (t, text)
    assert t == 0 or _significant_digits(text) >= 3, (t, text)


def test_far_from_one_a_threshold_is_its_digits_times_a_power_of_ten():
    # hand-written: the plain decimal while at most three zeros only place the point
    # (0.000123, 123000, as :g and words.general turn under 0.0001), else the form
    # the report's warnings print far-from-1 numbers in
    assert exact_text(0.000123) == "0.000123" and exact_text(0.0000123) == "1.23 × 10⁻⁵"
    assert exact_text(123000.0) == "123000" and exact_text(1.23e6) == "1.23 × 10⁶"
    assert exact_text(-1e-12) == "-1.00 × 10⁻¹²" and exact_text(1e200) == "1.00 × 10²⁰⁰"
    assert shortest_between(1e-300, 3e-300, 2.5e-300) == "2.50 × 10⁻³⁰⁰"
    assert threshold_value("1.00 × 10⁻¹²") == 1e-12 and threshold_value("-2.50 × 10²⁰⁰") == -2.5e200
