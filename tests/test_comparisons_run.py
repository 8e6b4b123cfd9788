"""Comparisons and tests of significance through the whole pipeline, against
pROC's published results on its aSAH data and against hand-made cases."""

import json
import re
import textwrap

import numpy as np
import pytest

from evalreport.__main__ import main

@pytest.mark.slow
def test_asah_delong_matches_proc(tmp_path, asah_dir):
    (tmp_path / "spec.yaml").write_text(textwrap.dedent(f"""\
        version: 1
        date: 2026-11-22
        data:
          - path: {asah_dir / 'proc_asah.csv'}
            label: label
            id: id
            learners: {{wfns: wfns, s100b: s100b, ndka: ndka}}
        confidence: {{level: 0.95, bootstrap: 0}}
        report: {{formats: [json], out: out}}
        """))
    assert main(["run", str(tmp_path / "spec.yaml"), "--quiet"]) == 0
    d = json.loads((tmp_path / "out" / "results.json").read_text())
    # pROC: ci.auc(aSAH$outcome, aSAH$s100b) -> 95% CI 0.6301-0.8326 (DeLong)
    lo, hi = d["learners"]["s100b"]["auc_ci"]
    assert (round(lo, 4), round(hi, 4)) == (0.6301, 0.8326)
    # pROC: roc.test(roc(wfns), roc(s100b)) -> Z = 2.209, p-value = 0.02718
    test = next(t for t in d["comparisons"]["delong"] if {t["a"], t["b"]} == {"wfns", "s100b"})
    sign = 1 if test["a"] == "wfns" else -1
    assert round(sign * test["z"], 3) == 2.209
    assert round(test["p_value"], 5) == 0.02718
    assert {r["a"] + r["b"] for r in d["comparisons"]["mcnemar"]} == {"wfnss100b", "wfnsndka", "s100bndka"}


def test_mcnemar_counts_by_hand(tmp_path):
    # A right on rows 1-4, B right on rows 1, 2, 5: e01 (A wrong, B right) = 1, e10 = 2
    (tmp_path / "p.csv").write_text("y,a,b\n1,0.9,0.9\n0,0.1,0.1\n1,0.8,0.2\n0,0.2,0.7\n1,0.3,0.6\n")
    (tmp_path / "spec.yaml").write_text(textwrap.dedent("""\
        version: 1
        data:
          - {path: p.csv, label: y, learners: {a: a, b: b}}
        confidence: {bootstrap: 0, mcnemar: corrected}
        report: {formats: [json], out: out}
        """))
    assert main(["run", str(tmp_path / "spec.yaml"), "--quiet"]) == 0
    m = json.loads((tmp_path / "out" / "results.json").read_text())["comparisons"]["mcnemar"][0]
    assert (m["e01"], m["e10"], m["method"]) == (1, 2, "corrected")
    assert m["statistic"] == pytest.approx((abs(1 - 2) - 1) ** 2 / 3)


def _friedman_run(tmp_path, n_datasets, extra=()):
    """``n_datasets`` data sets of 150 rows, learners a, b, c; their AUCs (sklearn) per data set."""
    from sklearn.metrics import roc_auc_score

    rng = np.random.default_rng(1)
    lines = ["version: 1", "data:"]
    aucs = []
    for d in range(n_datasets):
        n = 150
        y = rng.random(n) < 0.4
        cols = {name: rng.random(n) + shift * y for name, shift in (("a", 0.7), ("b", 0.4), ("c", 0.1))}
        rows = ["y,a,b,c"] + [f"{int(y[i])},{cols['a'][i]},{cols['b'][i]},{cols['c'][i]}" for i in range(n)]
        (tmp_path / f"d{d}.csv").write_text("\n".join(rows) + "\n")
        lines += [f"  - {{path: d{d}.csv, label: y, dataset: s{d}, learners: {{a: a, b: b, c: c}}}}"]
        aucs.append([roc_auc_score(y, cols[k]) for k in "abc"])
    lines += ["confidence: {bootstrap: 0}", "report: {formats: [json, html], out: out}", *extra]
    (tmp_path / "spec.yaml").write_text("\n".join(lines) + "\n")
    assert main(["run", str(tmp_path / "spec.yaml"), "--quiet"]) == 0
    data = json.loads((tmp_path / "out" / "results.json").read_text())
    return data, (tmp_path / "out" / "report.html").read_text(), np.array(aucs)


@pytest.mark.slow
def test_friedman_across_data_sets(tmp_path):
    data, html, aucs = _friedman_run(tmp_path, 5)
    f = data["comparisons"]["friedman"]
    from scipy.stats import friedmanchisquare

    assert f["chi2"] == pytest.approx(friedmanchisquare(*aucs.T).statistic)
    ranks = np.mean([np.argsort(np.argsort(-np.array(r))) + 1 for r in aucs], axis=0)
    assert [f["average_ranks"][k] for k in "abc"] == pytest.approx(list(ranks))
    assert f["too_few_datasets"] is False
    assert "Across data sets" in html and "Critical-difference diagram" in html


@pytest.mark.slow
def test_friedman_over_two_data_sets_is_too_few(tmp_path):
    """Two data sets: the statistic in results.json, flagged; no diagram, no ranks
    in the report, and a warning saying why; never "p = 0"."""
    data, html, aucs = _friedman_run(tmp_path, 2)
    f = data["comparisons"]["friedman"]
    from scipy.stats import friedmanchisquare

    assert f["too_few_datasets"] is True and f["datasets"] == ["s0", "s1"]
    assert f["chi2"] == pytest.approx(friedmanchisquare(*aucs.T).statistic)
    section = html[html.index("<h3>Across data sets</h3>"):]
    section = section[:section.index("</section>")]
    assert "Critical-difference diagram" not in html and "average rank" not in section
    assert "fewer than 5" in section and "is not reported" in section
    assert "p = 0<" not in html and "p = 0 " not in html and "p = 0." not in section
    assert any("Friedman's test across 2 data sets: fewer than 5" in w["text"] if isinstance(w, dict) else
               "Friedman's test across 2 data sets: fewer than 5" in w for w in data["warnings"])


@pytest.mark.slow
def test_friedman_leaves_out_the_data_set_the_thresholds_are_chosen_on(tmp_path):
    data, html, aucs = _friedman_run(tmp_path, 6, ["threshold: {optimal_on: s0}"])
    f = data["comparisons"]["friedman"]
    from scipy.stats import friedmanchisquare

    assert f["datasets"] == ["s1", "s2", "s3", "s4", "s5"] and f["too_few_datasets"] is False
    assert f["chi2"] == pytest.approx(friedmanchisquare(*aucs[1:].T).statistic)
    text = json.dumps(data["warnings"])
    assert "Friedman's test leaves out data set 's0': the thresholds are chosen on it" in text


def test_p_values_under_the_float_resolution_never_read_p_0():
    from evalreport.report.format import p_text as _p, p_value_text as _p_value

    # the report's policy: below 0.001, "< 0.001" (never "p = 0"); else 2 significant digits
    assert _p(0.0) == "p < 0.001" and _p_value(0.0, 2) == "< 0.001"
    assert _p(3e-17) == "p < 0.001"
    assert _p(0.02718) == "p = 0.027" and _p_value(0.02718, 2) == "0.027"
    assert _p(None) == "p = undefined" and _p_value(None) == "undefined"


@pytest.mark.slow
def test_delong_p_value_matrix_prints_p_under_1e_16(tmp_path):
    # Five learners (ten pairs: the report prints a matrix), 4000 rows, AUCs
    # from about 1.0 down to 0.5: DeLong's p for the far pairs is 0.0 in
    # float64, and the matrix says "< 0.001", never "0".
    rng = np.random.default_rng(3)
    n = 4000
    y = rng.random(n) < 0.5
    names = ["a", "b", "c", "d", "e"]
    cols = {k: rng.random(n) + shift * y for k, shift in zip(names, (3.0, 1.0, 0.5, 0.2, 0.0))}
    rows = ["y," + ",".join(names)] + [f"{int(y[i])}," + ",".join(str(float(cols[k][i])) for k in names)
                                       for i in range(n)]
    (tmp_path / "d.csv").write_text("\n".join(rows) + "\n")
    (tmp_path / "spec.yaml").write_text(
        "version: 1\n"
        "data:\n  - {path: d.csv, label: y, learners: {a: a, b: b, c: c, d: d, e: e}}\n"
        "confidence: {bootstrap: 0}\n"
        "report: {formats: [json, html], out: out}\n")
    assert main(["run", str(tmp_path / "spec.yaml"), "--quiet"]) == 0
    delong = json.loads((tmp_path / "out" / "results.json").read_text())["comparisons"]["delong"]
    assert 0.0 in [d["p_value"] for d in delong]  # underflowed: the case under test
    html = (tmp_path / "out" / "report.html").read_text()
    matrix = html[html.index("DeLong p-values"):]
    matrix = matrix[:matrix.index("</table>")]
    cells = re.findall(r'<td class="num">([^<]*)</td>', matrix)
    assert len(cells) == 25
    assert "&lt; 0.001" in cells  # a vs e: z far past 8
    assert "0" not in cells and not re.search(r"p = 0(?![.\d])", html)
