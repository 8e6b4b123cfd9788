"""Issue 19: multi-class learners compared by the paired t-test over groups, and
bootstrap intervals of accuracy and macro-F1; against scipy, the engine and a
brute-force bootstrap over instances."""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path

import numpy as np
import pytest

from evalreport.__main__ import main
from evalreport.compare.stats.bootstrap_confusion import (accuracy_of, bootstrap_confusion_intervals,
                                                          macro_f1_of)
from evalreport.metrics.multiclass import evaluate_multiclass_counts

ROOT = Path(__file__).resolve().parents[1]


def test_vectorised_statistics_are_the_engines():
    rng = np.random.default_rng(0)
    draws = rng.integers(0, 6, size=(300, 4, 4))
    draws[:40, :, 2] = 0  # a class never predicted: its precision counts as 0
    draws[40:60, 1, :] = 0  # a class without instances
    draws[60] = 0
    draws[60, 0, 1] = 5  # nothing right: P + R = 0, macro-F1 undefined
    acc, f1 = accuracy_of(draws), macro_f1_of(draws)
    for b in range(draws.shape[0]):
        ev = evaluate_multiclass_counts(draws[b], ["a", "b", "c", "d"], n=int(draws[b].sum()))
        assert acc[b] == pytest.approx(ev.accuracy, abs=1e-15)
        if ev.averages.macro_f1 is None:
            assert np.isnan(f1[b])
        else:
            assert f1[b] == pytest.approx(ev.averages.macro_f1, rel=1e-13)


def test_bootstrap_matches_resampling_the_instances():
    """A row drawn from a multinomial is the row of a resample of that class's
    instances: the intervals agree with a brute-force stratified bootstrap."""
    rng = np.random.default_rng(1)
    y = rng.choice(3, 400, p=[0.5, 0.3, 0.2])
    yhat = np.where(rng.random(400) < 0.75, y, rng.integers(0, 3, 400))
    confusion = np.zeros((3, 3), dtype=int)
    np.add.at(confusion, (y, yhat), 1)
    got = bootstrap_confusion_intervals(confusion, statistics={"accuracy": accuracy_of, "macro_f1": macro_f1_of},
                                        n_resamples=4000, seed=3)
    acc, f1 = [], []
    by_class = [np.flatnonzero(y == c) for c in range(3)]
    for _ in range(4000):
        idx = np.concatenate([rng.choice(ix, ix.size) for ix in by_class])
        m = np.zeros((1, 3, 3), dtype=int)
        np.add.at(m[0], (y[idx], yhat[idx]), 1)
        acc.append(accuracy_of(m)[0])
        f1.append(macro_f1_of(m)[0])
    for name, values in (("accuracy", acc), ("macro_f1", f1)):
        lo, hi = np.quantile(values, [0.025, 0.975])
        assert got[name].low == pytest.approx(lo, abs=0.012) and got[name].high == pytest.approx(hi, abs=0.012)


def test_bootstrap_refuses_weights():
    with pytest.raises(ValueError, match="unweighted counts"):
        bootstrap_confusion_intervals([[1.5, 0], [0, 2]], statistics={"accuracy": accuracy_of})


def _folds(tmp_path) -> dict:
    folder = ROOT / "examples" / "multiclass_folds"
    for p in folder.iterdir():
        if p.is_file():
            shutil.copy(p, tmp_path / p.name)
    assert main(["run", str(tmp_path / "spec.yaml"), "--quiet", "--out", str(tmp_path / "out"),
                 "--format", "json,html"]) == 0
    return json.loads((tmp_path / "out" / "results.json").read_text())


@pytest.mark.slow
def test_multiclass_paired_t_is_scipys_and_bootstrap_is_reported(tmp_path):
    from scipy import stats
    data = _folds(tmp_path)
    rows = data["comparisons"]["paired_t"]
    assert [(r["a"], r["b"]) for r in rows] == [("logistic", "bayes"), ("logistic", "knn"), ("bayes", "knn")]
    for r in rows:
        ea = [g["error_rate"] for g in data["learners"][r["a"]]["groups"].values()]
        eb = [g["error_rate"] for g in data["learners"][r["b"]]["groups"].values()]
        want = stats.ttest_rel(ea, eb)
        assert r["t"] == pytest.approx(want.statistic, rel=1e-10)
        assert r["p_value"] == pytest.approx(want.pvalue, rel=1e-10)
        assert r["dof"] == len(ea) - 1
    for key, lr in data["learners"].items():
        boot = lr["bootstrap"]
        assert boot["resamples"] == 2000 and boot["level"] == 0.95
        assert boot["accuracy"][0] <= lr["accuracy"] <= boot["accuracy"][1]
        assert boot["macro_f1"][0] <= lr["macro"]["f1"] <= boot["macro_f1"][1]
    html = (tmp_path / "out" / "report.html").read_text()
    lo, hi = data["learners"]["knn"]["bootstrap"]["accuracy"]
    assert f"[{lo:.4f}, {hi:.4f}]" in html  # a table's interval: 4 decimals


def test_paired_t_asked_without_groups_says_why(tmp_path):
    (tmp_path / "p.csv").write_text("y,a_x,a_y,b_x,b_y\nx,0.9,0.1,0.6,0.4\ny,0.2,0.8,0.7,0.3\n"
                                    "x,0.4,0.6,0.8,0.2\ny,0.3,0.7,0.1,0.9\n")
    (tmp_path / "spec.yaml").write_text(textwrap.dedent("""\
        version: 1
        title: t
        task: multiclass
        classes: [x, y]
        data:
          - path: p.csv
            label: y
            learners:
              a: [a_x, a_y]
              b: [b_x, b_y]
        compare: [mcnemar, paired_t]
        report: {formats: [json], out: out}
        """))
    assert main(["run", str(tmp_path / "spec.yaml"), "--quiet"]) == 0
    data = json.loads((tmp_path / "out" / "results.json").read_text())
    assert "paired_t" not in data["comparisons"] and len(data["comparisons"]["mcnemar"]) == 1
    assert ("compare: the paired t-test is not computed: it needs a group column (folds) with at least "
            "2 groups") in data["warnings"]
