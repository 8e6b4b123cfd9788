"""McNemar's test's methods (``confidence.mcnemar``) and Holm's adjusted p-values
of the pairwise tests, against statsmodels (``mcnemar``, ``multipletests``), or
scipy's binomial test and a hand computation where statsmodels is missing."""

from __future__ import annotations

import json
import shutil
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from scipy import stats as st

from evalreport.__main__ import main
from evalreport.compare.stats import EXACT_BELOW, holm, mcnemar

ROOT = Path(__file__).resolve().parents[1]


def _decisions(seed, n, flip_a, flip_b):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    a = np.where(rng.random(n) < flip_a, ~y, y)
    b = np.where(rng.random(n) < flip_b, ~y, y)
    return y, a, b


def _table(y, a, b):
    ra, rb = a == y, b == y
    return [[np.sum(ra & rb), np.sum(ra & ~rb)], [np.sum(~ra & rb), np.sum(~ra & ~rb)]]


# ---------------------------------------------------------------------------
# McNemar: exact, corrected, auto


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("n", [30, 60, 400])
def test_mcnemar_methods_equal_statsmodels(seed, n):
    y, a, b = _decisions(seed, n, 0.1 + 0.02 * seed, 0.25)
    table = _table(y, a, b)
    disagree = int(table[0][1] + table[1][0])
    exact = mcnemar(y, a, b, method="exact")
    corrected = mcnemar(y, a, b, method="corrected")
    auto = mcnemar(y, a, b)
    try:
        from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar
    except ImportError:  # the references from their definitions
        ref_exact = st.binomtest(int(table[1][0]), disagree, 0.5).pvalue if disagree else 1.0
        chi2 = (abs(int(table[0][1]) - int(table[1][0])) - 1) ** 2 / disagree
        ref_stat, ref_corrected = chi2, st.chi2.sf(chi2, 1)
    else:
        ref_exact = sm_mcnemar(table, exact=True).pvalue
        ref = sm_mcnemar(table, exact=False, correction=True)
        ref_stat, ref_corrected = ref.statistic, ref.pvalue
    assert (exact.method, exact.statistic, exact.p_value_exact, exact.note) == ("exact", None, None, None)
    assert exact.p_value == pytest.approx(ref_exact, rel=1e-12)
    assert corrected.method == "corrected"
    assert corrected.statistic == pytest.approx(ref_stat, rel=1e-12)
    assert corrected.p_value == pytest.approx(ref_corrected, rel=1e-12)
    assert auto == (exact if disagree < EXACT_BELOW else corrected)
    # the chi-square asked for where it is rough: the exact p-value beside it, and a note
    if disagree < EXACT_BELOW:
        assert corrected.p_value_exact == exact.p_value and "rough" in corrected.note
    else:
        assert corrected.p_value_exact is None and corrected.note is None


def test_mcnemar_auto_switches_at_25_disagreements():
    y = np.ones(40, bool)
    for d, method in ((24, "exact"), (25, "corrected")):
        a = np.r_[np.zeros(d, bool), np.ones(40 - d, bool)]  # wrong on the first d
        r = mcnemar(y, a, np.ones(40, bool))
        assert (r.e01, r.e10, r.method) == (d, 0, method)
        assert (r.p_value_exact, r.note) == (None, None)


def test_mcnemar_without_disagreement_under_each_method():
    y = [1, 0, 1, 0]
    for method, said in (("auto", "exact"), ("exact", "exact"), ("corrected", "corrected")):
        r = mcnemar(y, [1, 1, 0, 0], [1, 1, 0, 0], method=method)
        assert (r.statistic, r.p_value, r.method) == (None, 1.0, said)
        assert "never disagree" in r.note


def test_mcnemar_rejects_an_unknown_method():
    with pytest.raises(ValueError, match="method must be one of auto, exact, corrected; got 'chi2'"):
        mcnemar([1, 0], [1, 0], [1, 1], method="chi2")


# ---------------------------------------------------------------------------
# Holm


def _holm_reference(p):
    try:
        from statsmodels.stats.multitest import multipletests
    except ImportError:  # by hand: step down, multiply by m - i, keep it monotone, cap at 1
        order = np.argsort(p, kind="stable")
        m = len(p)
        adj = np.empty(m)
        running = 0.0
        for rank, i in enumerate(order):
            running = max(running, min(1.0, (m - rank) * p[i]))
            adj[i] = running
        return adj
    return multipletests(p, method="holm")[1]


@pytest.mark.parametrize("seed", range(10))
def test_holm_equals_statsmodels_with_ties(seed):
    rng = np.random.default_rng(seed)
    m = 1 + seed * 3
    p = rng.random(m) ** 3
    if m > 3:
        p[1] = p[2] = p[0]  # ties
        p[3] = 1.0
    assert holm(list(p)) == pytest.approx(list(_holm_reference(p)), rel=1e-12, abs=0)


def test_holm_by_hand_leaves_undefined_p_values_out():
    # m = 3 defined: 0.01 * 3, max(0.03, 0.02 * 2), max(0.04, 0.5 * 1); None stays None
    assert holm([0.5, None, 0.01, 0.02]) == pytest.approx([0.5, None, 0.03, 0.04])
    assert holm([]) == [] and holm([None]) == [None]
    assert holm([0.4, 0.4]) == [0.8, 0.8]  # tied p-values, one adjusted value
    assert holm([0.6, 0.7]) == [1.0, 1.0]  # capped at 1


@pytest.mark.slow
def test_holm_on_a_run_is_per_test_over_the_data_sets_pairs(tmp_path):
    # breast_cancer: 4 learners, 6 pairs, McNemar's disagreements from 15 to 37
    shutil.copytree(ROOT / "examples" / "breast_cancer", tmp_path / "bc")
    out = tmp_path / "out"
    assert main(["run", str(tmp_path / "bc" / "spec.yaml"), "--quiet", "--out", str(out),
                 "--format", "json"]) == 0
    d = json.loads((out / "results.json").read_text())
    learners = list(dict.fromkeys(k for k in d["learners"]))
    for test in ("delong", "mcnemar"):
        rows = d["comparisons"][test]
        assert [(r["a"], r["b"]) for r in rows] == list(combinations(learners, 2))
        p = np.array([r["p_value"] for r in rows])
        assert [r["p_holm"] for r in rows] == pytest.approx(list(_holm_reference(p)), rel=1e-12)
    methods = {r["method"] for r in d["comparisons"]["mcnemar"]}
    assert methods == {"exact", "corrected"}  # the example has pairs on both sides of 25
    for r in d["comparisons"]["mcnemar"]:
        assert r["method"] == ("exact" if r["e01"] + r["e10"] < 25 else "corrected")
        assert (r["statistic"] is None) == (r["method"] == "exact")
        assert "p_value_exact" not in r


def _section(p_values, mcnemar_method="auto", learners=None):
    """The report's tests section for DeLong p-values of pairs of one data set."""
    from types import SimpleNamespace

    from evalreport.compare import PairTests, _with_holm
    from evalreport.compare.stats import DelongTest
    from evalreport.report.significance import tests_section

    names = ["a", "b", "c"]
    pairs = list(combinations(names, 2))[:len(p_values)]
    tests = [PairTests(a, b, DelongTest(0.9, 0.8, 0.1, 0.05, 2.0, p, (0.0, 0.2), 0.95, True))
             for (a, b), p in zip(pairs, p_values)]
    tests = _with_holm(tests, "delong")
    comp = SimpleNamespace(dataset=None, tests=tuple(tests))
    spec = SimpleNamespace(confidence=SimpleNamespace(level=0.95, mcnemar=mcnemar_method))
    return tests_section(SimpleNamespace(spec=spec, comparisons=[comp], friedman=None, learners=learners or {}))


def test_the_verdict_reads_holms_adjusted_p_values():
    # 0.03 and 0.04 are each below 0.05; Holm's 0.06 and 0.06 are not
    s = _section([0.03, 0.04])
    assert s["sentences"] == ["DeLong's test finds no AUC difference significant at the 5% level after "
                              "Holm's adjustment over each data set's pairs."]
    assert s["holm"] and s["rows"][0].delong.endswith("p = 0.030, Holm p = 0.060")
    s = _section([0.01, 0.04])  # Holm: 0.02 and 0.04
    assert s["sentences"] == ["DeLong's test finds a significantly higher AUC (at the 5% level after "
                              "Holm's adjustment over each data set's pairs) for a over b (Holm p = 0.020); "
                              "a over c (Holm p = 0.040)."]
    s = _section([0.03])  # one pair: no family, Holm's p is p and is not shown
    assert s["sentences"] == ["DeLong's test finds a significantly higher AUC (at the 5% level) for "
                              "a over b (p = 0.030)."]
    assert not s["holm"] and s["rows"][0].delong.endswith("p = 0.030")


def test_multiclass_mcnemar_on_right_and_wrong_decisions(tmp_path):
    # multiclass_folds: 3 learners' class probabilities for 178 wines; a decision is the
    # class of highest score (ties: the first class), right or wrong against the label
    import csv

    src = ROOT / "examples" / "multiclass_folds"
    shutil.copytree(src, tmp_path / "mc", ignore=shutil.ignore_patterns("reports"))
    out = tmp_path / "out"
    assert main(["run", str(tmp_path / "mc" / "spec.yaml"), "--quiet", "--out", str(out),
                 "--format", "json"]) in (0, 3)
    d = json.loads((out / "results.json").read_text())
    classes = ["barolo", "grignolino", "barbera"]
    rows = list(csv.DictReader((src / "predictions.csv").open()))
    right = {}
    for name in ("logistic", "bayes", "knn"):
        scores = np.array([[float(r[f"{name}_{c}"]) for c in classes] for r in rows])
        right[name] = np.array([classes[i] for i in scores.argmax(axis=1)]) == [r["cultivar"] for r in rows]
    got = d["comparisons"]["mcnemar"]
    assert [(r["a"], r["b"]) for r in got] == list(combinations(right, 2))
    ones = np.ones(len(rows), bool)
    for r in got:
        table = _table(ones, right[r["a"]], right[r["b"]])
        assert (r["e01"], r["e10"]) == (table[1][0], table[0][1])
        n = r["e01"] + r["e10"]
        assert r["method"] == ("exact" if n < 25 else "corrected")
        try:
            from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar
        except ImportError:
            ref = mcnemar(ones, right[r["a"]], right[r["b"]]).p_value
        else:
            ref = sm_mcnemar(table, exact=n < 25, correction=True).pvalue
        assert r["p_value"] == pytest.approx(ref, rel=1e-12)
    assert [r["p_holm"] for r in got] == pytest.approx(
        list(_holm_reference(np.array([r["p_value"] for r in got]))), rel=1e-12)


def test_a_difference_where_an_auc_interval_reaches_1_is_said_rough():
    """DeLong's normal approximation is rough where an AUC's interval is clipped at 1
    (the review of validated_threshold: 0.9845 against 0.9944, p = 0.045): the
    significant difference says so, naming the learner; none is said otherwise."""
    from types import SimpleNamespace

    assert "reaches 1" not in _section([0.03])["sentences"][0]
    learners = {"a": SimpleNamespace(auc_ci=SimpleNamespace(ci=(0.97, 1.0))),
                "b": SimpleNamespace(auc_ci=SimpleNamespace(ci=(0.90, 0.99)))}
    assert _section([0.03], learners=learners)["sentences"] == [
        "DeLong's test finds a significantly higher AUC (at the 5% level) for a over b (p = 0.030).",
        "The AUC interval of a reaches 1, where DeLong's normal approximation is rough: read its significant "
        "differences with the other tests."]
    assert len(_section([0.3], learners=learners)["sentences"]) == 1  # nothing significant: nothing to qualify
