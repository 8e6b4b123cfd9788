"""The leaderboard of many runs (report/leaderboard.py, issue 25): every learner
ranked by the primary measure, its interval, and the paired test against the
best, Holm-adjusted over the comparisons with the best; results.json always has
the block, the report shows it from LEADERBOARD_MIN learners on."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from evalreport.__main__ import main
from evalreport.compare import PairTests
from evalreport.report.leaderboard import LEADERBOARD_MIN, leaderboard, leaderboard_warnings, rank_measure
from brute import scipy_monte_carlo_p

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from many_learners import write_case  # noqa: E402  (the benchmark's data and spec)

N = 12


def _run(folder: Path, n: int, formats: str, *, costs: bool = True, bootstrap: int = 0,
         more: str = "") -> tuple[dict, Path]:
    spec = write_case(folder, n, rows=400, seed=1, bootstrap=bootstrap)
    if not costs:  # no costs: ranked by AUC
        text = spec.read_text()
        spec.write_text("\n".join(line for line in text.splitlines()
                                  if not line.startswith(("costs:", "priors:", "threshold:"))) + "\n")
    spec.write_text(spec.read_text() + more)
    assert main(["run", str(spec), "--out", str(folder / "out"), "--format", formats, "--quiet"]) in (0, 3)
    return json.loads((folder / "out" / "results.json").read_text()), folder / "out"


B = 300  # the paired bootstrap's resamples in by_cost


@pytest.fixture(scope="module")
def by_cost(tmp_path_factory):
    return _run(tmp_path_factory.mktemp("lb_cost"), N, "json,html", bootstrap=B)


@pytest.fixture(scope="module")
def by_accuracy(tmp_path_factory):
    return _run(tmp_path_factory.mktemp("lb_acc"), N, "json", more="rank_by: accuracy\n")


@pytest.fixture(scope="module")
def by_auc(tmp_path_factory):
    return _run(tmp_path_factory.mktemp("lb_auc"), N, "json", costs=False)


@pytest.mark.slow
def test_sorted_by_the_deployed_thresholds_cost_when_costs_are_given(by_cost):
    results, _ = by_cost
    lb = results["leaderboard"]
    assert (lb["rank_by"], lb["direction"], lb["test"]) == ("cost_at_threshold", "lower", "paired_bootstrap")
    values = [r["value"] for r in lb["rows"]]
    assert values == sorted(values)
    assert {r["learner"] for r in lb["rows"]} == set(results["learners"])
    for r in lb["rows"]:
        learner = results["learners"][r["learner"]]
        assert r["value"] == learner["cost_at_threshold"]
        assert [r["low"], r["high"]] == learner["bootstrap"]["cost_at_threshold"]


def _numpy_paired_costs(folder: Path, results: dict, keys, b: int, seed: int = 0) -> dict:
    """Each learner's cost at its threshold in each of b stratified resamples, in
    plain numpy: the positives' and the negatives' positions drawn as the project
    documents (PCG64(seed); positives then negatives; int32 draws)."""
    data = np.genfromtxt(folder / "predictions.csv", delimiter=",", names=True)
    y = data["y"] == 1
    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
    rng = np.random.Generator(np.random.PCG64(seed))
    dp = rng.integers(0, pos.size, size=(b, pos.size), dtype=np.int32)
    dn = rng.integers(0, neg.size, size=(b, neg.size), dtype=np.int32)
    pc = results["operating_point"]["pc_positive"]
    out = {}
    for k in keys:
        s, t = data[k], results["learners"][k]["threshold"]
        fnr = (s[pos][dp] < t).mean(axis=1)
        fpr = (s[neg][dn] >= t).mean(axis=1)
        out[k] = fnr * pc + fpr * (1 - pc)
    return out


@pytest.mark.slow
def test_p_vs_best_is_a_paired_bootstrap_of_the_cost_difference_and_holm_over_the_best(by_cost):
    from statsmodels.stats.multitest import multipletests

    results, out = by_cost
    rows = results["leaderboard"]["rows"]
    best = rows[0]["learner"]
    assert rows[0]["p_vs_best"] is None and rows[0]["p_holm_vs_best"] is None  # not tested against itself
    draws = _numpy_paired_costs(out.parent, results, [r["learner"] for r in rows], B)
    expected = []
    for r in rows[1:]:
        d = draws[r["learner"]] - draws[best]
        expected.append(scipy_monte_carlo_p(d, "two-sided"))  # 2 (min side + 1) / (B + 1)
    np.testing.assert_allclose([r["p_vs_best"] for r in rows[1:]], expected, rtol=1e-12)
    holm = multipletests(expected, method="holm")[1]
    np.testing.assert_allclose([r["p_holm_vs_best"] for r in rows[1:]], holm, rtol=1e-12)
    alpha = 0.05
    assert results["leaderboard"]["indistinguishable_from_best"] == [
        r["learner"] for r, h in zip(rows[1:], holm) if h >= alpha]
    assert results["leaderboard"]["untested"] == []


@pytest.mark.slow
def test_p_vs_best_by_accuracy_is_the_runs_mcnemar_and_holm_over_the_comparisons_with_the_best(by_accuracy):
    from statsmodels.stats.multitest import multipletests

    results, _ = by_accuracy
    assert (results["leaderboard"]["rank_by"], results["leaderboard"]["test"]) == ("accuracy", "mcnemar")
    rows = results["leaderboard"]["rows"]
    best = rows[0]["learner"]
    assert rows[0]["p_vs_best"] is None and rows[0]["p_holm_vs_best"] is None  # not tested against itself
    mcnemar = {frozenset((t["a"], t["b"])): t["p_value"] for t in results["comparisons"]["mcnemar"]}
    p = [r["p_vs_best"] for r in rows[1:]]
    assert p == [mcnemar[frozenset((best, r["learner"]))] for r in rows[1:]]
    expected = multipletests(p, method="holm")[1]
    np.testing.assert_allclose([r["p_holm_vs_best"] for r in rows[1:]], expected, rtol=1e-12)
    # a family of the k - 1 comparisons with the best, not of every pair (the comparisons block's p_holm)
    all_pairs = {frozenset((t["a"], t["b"])): t["p_holm"] for t in results["comparisons"]["mcnemar"]}
    assert any(r["p_holm_vs_best"] != all_pairs[frozenset((best, r["learner"]))] for r in rows[1:])


def test_without_bootstrap_the_cost_is_ranked_untested_and_a_warning_says_why(tmp_path):
    results, _ = _run(tmp_path, LEADERBOARD_MIN, "json")
    lb = results["leaderboard"]
    assert lb["rank_by"] == "cost_at_threshold" and lb["test"] is None
    assert all(r["p_vs_best"] is None for r in lb["rows"])
    assert lb["indistinguishable_from_best"] == [] and len(lb["untested"]) == LEADERBOARD_MIN - 1
    assert any("paired bootstrap" in w and "confidence.bootstrap is 0" in w for w in results["warnings"])


@pytest.mark.slow
def test_sorted_by_auc_without_costs_with_delongs_interval_and_test(by_auc):
    from statsmodels.stats.multitest import multipletests

    results, _ = by_auc
    lb = results["leaderboard"]
    assert (lb["rank_by"], lb["direction"], lb["test"]) == ("auc", "higher", "delong")
    rows = lb["rows"]
    assert [r["value"] for r in rows] == sorted((r["value"] for r in rows), reverse=True)
    for r in rows:
        learner = results["learners"][r["learner"]]
        assert r["value"] == learner["auc"]
        assert [r["low"], r["high"]] == learner["auc_ci"]
    delong = {frozenset((t["a"], t["b"])): t["p_value"] for t in results["comparisons"]["delong"]}
    assert [r["p_vs_best"] for r in rows[1:]] == [delong[frozenset((rows[0]["learner"], r["learner"]))]
                                                  for r in rows[1:]]
    np.testing.assert_allclose([r["p_holm_vs_best"] for r in rows[1:]],
                               multipletests([r["p_vs_best"] for r in rows[1:]], method="holm")[1], rtol=1e-12)


def test_the_report_shows_the_leaderboard_with_many_learners(by_cost):
    results, out = by_cost
    html = (out / "report.html").read_text()
    section = html[html.index('<section id="leaderboard">'):]
    section = section[:section.index("</section>")]
    # near the front: right after the verdict
    assert html.index('<section id="leaderboard">') < html.index('<section id="provenance"') \
        if '<section id="provenance"' in html else True
    order = [r["learner"] for r in results["leaderboard"]["rows"]]
    assert [section.index(f'<span class="learner">{k}</span>') for k in order] == \
        sorted(section.index(f'<span class="learner">{k}</span>') for k in order)
    assert ">best<" in section or ">best " in section
    # the ROC figure of the top learners over the band of the rest
    assert 'data-figure="roc-band"' in section
    # the learners in colour (the leader, issue 34) over the band of every other
    drawn, rest = map(int, re.search(r"ROC: (\d+) learners? over the other (\d+)", section).groups())
    assert drawn >= 1 and drawn + rest == N
    assert f"other {rest}: 10–90%" in section and f"other {rest}: min–max" in section


@pytest.mark.slow
def test_no_leaderboard_in_the_report_below_the_rule(tmp_path):
    results, out = _run(tmp_path, LEADERBOARD_MIN - 1, "json,html")
    assert len(results["leaderboard"]["rows"]) == LEADERBOARD_MIN - 1  # results.json: always
    assert 'id="leaderboard"' not in (out / "report.html").read_text()


# --- the rule on fakes: ties, undefined values, no test -----------------------------------------


class _Fake(SimpleNamespace):
    """A result (or a part of one) that, like Result, can be weakly referenced."""

    __slots__ = ("__weakref__",)
    __hash__ = object.__hash__  # by identity, as Result (eq=False)


def _test(p):
    return SimpleNamespace(p_value=p, p_holm=p)


def _result(values: dict, p: dict, measure: str = "auc", costs=None):
    learners = {k: _Fake(values={measure: v}, dataset=None, auc_ci=None, bootstrap=None) for k, v in values.items()}
    tests = tuple(PairTests(a, b, delong=_test(pv)) for (a, b), pv in p.items())
    spec = _Fake(task="binary", costs=costs, rank_by=None, confidence=SimpleNamespace(level=0.95))
    return _Fake(spec=spec, learners=learners, comparisons=(_Fake(dataset=None, tests=tests),),
                 leaderboard=None)  # none built yet (the pipeline builds it: Result.leaderboard)


def test_ties_share_a_rank_in_the_learners_order_and_undefined_comes_last():
    result = _result({"a": 0.8, "b": 0.9, "c": None, "d": 0.8, "e": 0.7},
                     {("b", "a"): 0.01, ("d", "b"): 0.04, ("b", "e"): 0.03, ("b", "c"): None})
    lb = leaderboard(result)
    assert [(r["learner"], r["rank"]) for r in lb["rows"]] == [("b", 1), ("a", 2), ("d", 2), ("e", 4), ("c", None)]
    assert [r["p_vs_best"] for r in lb["rows"]] == [None, 0.01, 0.04, 0.03, None]
    # Holm over the three defined p-values: 0.01 * 3, max(0.03 * 2, 0.03), max(0.04, 0.06)
    assert [r["p_holm_vs_best"] for r in lb["rows"]] == pytest.approx([None, 0.03, 0.06, 0.06, None])
    assert leaderboard_warnings(result) == [
        "leaderboard: learner 'c': AUC is undefined: ranked last, without a rank"]


def test_nan_is_undefined_and_no_test_is_said():
    result = _result({"a": float("nan"), "b": 0.6, "c": 0.5, "d": 0.4, "e": 0.3}, {})
    lb = leaderboard(result)
    assert lb["test"] is None
    assert [(r["learner"], r["rank"], r["value"], r["p_vs_best"], r["p_holm_vs_best"]) for r in lb["rows"]] == \
        [("b", 1, 0.6, None, None), ("c", 2, 0.5, None, None), ("d", 3, 0.4, None, None),
         ("e", 4, 0.3, None, None), ("a", None, None, None, None)]
    assert leaderboard_warnings(result) == [
        "leaderboard: learner 'a': AUC is undefined: ranked last, without a rank",
        "leaderboard: no paired test of AUC against the best learner (the spec's compare: leaves out delong, "
        "and the paired bootstrap is not computed: confidence.bootstrap is 0, or the data are weighted or "
        "aggregated): p_vs_best is null"]
    # below the rule the report shows no leaderboard, and its warnings say nothing of it
    assert leaderboard_warnings(_result({"a": None, "b": 0.6}, {})) == []


def test_a_best_tied_with_another_is_tested_against_it():
    result = _result({"a": 0.9, "b": 0.9}, {("a", "b"): 1.0})
    assert [(r["rank"], r["p_vs_best"]) for r in leaderboard(result)["rows"]] == [(1, None), (1, 1.0)]


@pytest.mark.parametrize("task, costs, rank_by, expected", [
    ("binary", None, None, "auc"), ("binary", {"false_negative": 5}, None, "cost_at_threshold"),
    ("binary", {"false_negative": 5}, "f1", "f1"), ("multiclass", None, None, "macro_auc"),
    ("multiclass", None, "auc", "macro_auc"), ("multiclass", {"a": 1}, None, "cost_sensitive_error"),
])
def test_rank_measure(task, costs, rank_by, expected):
    assert rank_measure(SimpleNamespace(task=task, costs=costs, rank_by=rank_by)) == expected


def test_lower_is_better_sorts_ascending():
    result = _result({"a": 0.3, "b": 0.1, "c": 0.2}, {}, measure="cost_at_threshold", costs={"false_negative": 1})
    assert [r["learner"] for r in leaderboard(result)["rows"]] == ["b", "c", "a"]


def test_the_tests_table_lists_only_the_pairs_that_matter(by_cost):
    """Each learner against the best, and significant pairs among the shown ones;
    results.json keeps every pair."""
    import re

    results, out = by_cost
    html = (out / "report.html").read_text()
    table = html[html.index('<table class="tests"'):]
    table = table[:table.index("</table>")]
    listed = {frozenset(p) for p in re.findall(r"<td class=\"nowrap\">(m\d{3}) vs (m\d{3})</td>", table)}
    best = results["leaderboard"]["rows"][0]["learner"]
    holm = {frozenset((t["a"], t["b"])): t["p_holm"] for t in results["comparisons"]["mcnemar"]}
    holm_d = {frozenset((t["a"], t["b"])): t["p_holm"] for t in results["comparisons"]["delong"]}
    against_best = {frozenset((best, k)) for k in results["learners"] if k != best}
    assert against_best <= listed
    for pair in listed - against_best:
        assert min(holm[pair], holm_d[pair]) < 0.05
    assert len(listed) < len(holm) == N * (N - 1) // 2  # results.json: every pair


def test_tpr_on_grid_takes_the_top_of_a_vertical_rise_and_interpolates():
    from evalreport.figures.runs import roc_band, tpr_on_grid

    fpr, tpr = np.array([0.0, 0.0, 0.5, 1.0]), np.array([0.0, 0.6, 0.8, 1.0])
    assert tpr_on_grid(fpr, tpr, np.array([0.0, 0.25, 0.5, 1.0])).tolist() == [0.6, 0.7, 0.8, 1.0]
    band = roc_band([(fpr, tpr), (np.array([0.0, 1.0]), np.array([0.0, 1.0]))], np.array([0.0, 0.5]))
    assert band["low"].tolist() == [0.0, 0.5] and band["high"].tolist() == [0.6, 0.8]
    assert band["p10"].tolist() == pytest.approx([0.06, 0.53])
    assert roc_band([]) is None
