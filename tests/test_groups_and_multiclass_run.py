"""Multi-class specs and groups through the whole pipeline."""

import json
import textwrap

import numpy as np
import pytest
from sklearn import metrics as skm

from evalreport.__main__ import main
from evalreport.report.context import fmt

CLASSES = ["cat", "dog", "bird"]


def _multiclass(tmp, *, formats="json"):
    rng = np.random.default_rng(5)
    n = 300
    y = rng.integers(0, 3, n)
    logits = rng.normal(size=(n, 3)) + 1.3 * np.eye(3)[y]
    p = np.round(np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True), 4)
    rows = ["id,y,fold,p_cat,p_dog,p_bird,rules"]
    for i in range(n):
        rows.append(f"{i},{CLASSES[y[i]]},{i % 4},{p[i, 0]},{p[i, 1]},{p[i, 2]},{CLASSES[(y[i] + i) % 3]}")
    (tmp / "pred.csv").write_text("\n".join(rows) + "\n")
    (tmp / "spec.yaml").write_text(textwrap.dedent(f"""\
        version: 1
        date: 2026-11-22
        task: multiclass
        classes: [cat, dog, bird]
        data:
          - path: pred.csv
            label: y
            id: id
            group: fold
            learners:
              mlp: [p_cat, p_dog, p_bird]
              rules: {{predicted: rules}}
        costs: {{matrix: [[0, 1, 4], [2, 0, 1], [1, 1, 0]]}}
        gates:
          - {{learner: mlp, metric: accuracy, min: 0.5}}
        report: {{formats: [{formats}], out: out}}
        """))
    return np.array(CLASSES)[y], p, rows


@pytest.mark.slow
def test_multiclass_results_match_scikit_learn(tmp_path):
    y, p, _ = _multiclass(tmp_path)
    assert main(["run", str(tmp_path / "spec.yaml"), "--quiet"]) == 0
    d = json.loads((tmp_path / "out" / "results.json").read_text())
    mlp = d["learners"]["mlp"]
    yhat = np.array(CLASSES)[p.argmax(axis=1)]
    assert mlp["confusion_matrix"] == skm.confusion_matrix(y, yhat, labels=CLASSES).tolist()
    assert mlp["accuracy"] == pytest.approx(skm.accuracy_score(y, yhat))
    assert mlp["macro"]["mean_f1"] == pytest.approx(skm.f1_score(y, yhat, average="macro"))
    assert mlp["micro"]["f1"] == pytest.approx(skm.f1_score(y, yhat, average="micro"))
    for i, c in enumerate(CLASSES):
        assert mlp["classes"][c]["auc"] == pytest.approx(skm.roc_auc_score(y == c, p[:, i]))
    cost = np.array([[0, 1, 4], [2, 0, 1], [1, 1, 0]])
    yi = np.array([CLASSES.index(v) for v in y])
    assert mlp["cost_sensitive_error"] == pytest.approx(cost[yi, p.argmax(axis=1)].mean())
    assert mlp["bayes_decision_cost"] == pytest.approx(cost[yi, (p @ cost).argmin(axis=1)].mean())
    # groups: one matrix per fold, and the fold accuracies by hand
    assert sorted(mlp["groups"]) == ["0", "1", "2", "3"]
    folds = np.arange(y.size) % 4
    for g in range(4):
        assert mlp["groups"][str(g)]["accuracy"] == pytest.approx((yhat == y)[folds == g].mean())
    assert "auc" not in d["learners"]["rules"]["classes"]["cat"]
    assert d["gates"][0]["passed"] is True
    assert d["comparisons"]["best_accuracy"] == "mlp"


@pytest.mark.slow
def test_multiclass_report_renders(tmp_path):
    _multiclass(tmp_path, formats="html")
    assert main(["run", str(tmp_path / "spec.yaml"), "--quiet"]) == 0
    html = (tmp_path / "out" / "report.html").read_text()
    for text in ("macro-F1 (Zhou)", "mean F1", "one-vs-rest ROC", "cat", "bird", "Hand &amp; Till"):
        assert text in html


@pytest.mark.slow
def test_multiclass_report_says_when_curves_are_simplified(tmp_path):
    # 300 rows of 4-decimal scores: each one-vs-rest ROC curve has far more
    # than 20 vertices, so with curve_points: 20 each is drawn through part of them
    _multiclass(tmp_path, formats="html, json")
    spec = tmp_path / "spec.yaml"
    spec.write_text(spec.read_text().replace("out: out}", "out: out, curve_points: 20}"))
    assert main(["run", str(spec), "--quiet"]) == 0
    html = (tmp_path / "out" / "report.html").read_text()
    d = json.loads((tmp_path / "out" / "results.json").read_text())
    rocs = [d["learners"]["mlp"]["curves"][c]["roc"] for c in CLASSES]
    assert all(r["simplified"] and r["vertices"] > 20 for r in rocs)
    points, bound = max(len(r["fpr"]) for r in rocs), max(r["max_error"] for r in rocs)
    assert points <= 20
    assert "Some curves are drawn through part of their points" in html
    assert f"mlp: the ROC curves of 3 classes through at most {points} points, within {fmt(bound, 2)}" in html


@pytest.mark.slow
def test_multiclass_report_without_simplified_curves_has_no_note(tmp_path):
    _multiclass(tmp_path, formats="html")
    assert main(["run", str(tmp_path / "spec.yaml"), "--quiet"]) == 0
    assert "Some curves are drawn" not in (tmp_path / "out" / "report.html").read_text()


def test_label_outside_the_classes(tmp_path, capsys):
    _multiclass(tmp_path)
    text = (tmp_path / "pred.csv").read_text().replace(",dog,", ",wolf,", 1)
    (tmp_path / "pred.csv").write_text(text)
    assert main(["run", str(tmp_path / "spec.yaml"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "label 'wolf' is not one of the classes ('cat', 'dog', 'bird')" in err


def test_empty_label_is_missing_not_a_class(tmp_path, capsys):
    _multiclass(tmp_path)
    lines = (tmp_path / "pred.csv").read_text().splitlines()
    row = next(i for i, line in enumerate(lines) if ",dog," in line)  # i = data row (1 = the first)
    lines[row] = lines[row].replace(",dog,", ",,", 1)
    (tmp_path / "pred.csv").write_text("\n".join(lines) + "\n")
    assert main(["run", str(tmp_path / "spec.yaml"), "--quiet"]) == 2
    assert f"row {row}: missing label (empty)" in capsys.readouterr().err


def test_empty_decision_is_missing_not_a_class(tmp_path, capsys):
    _multiclass(tmp_path)
    lines = (tmp_path / "pred.csv").read_text().splitlines()
    row = 7
    lines[row] = lines[row].rsplit(",", 1)[0] + ","  # the rules learner's decision, emptied
    (tmp_path / "pred.csv").write_text("\n".join(lines) + "\n")
    assert main(["run", str(tmp_path / "spec.yaml"), "--quiet"]) == 2
    assert f"column 'rules', row {row}: missing decision (empty)" in capsys.readouterr().err


def test_binary_groups_by_hand(tmp_path):
    (tmp_path / "p.csv").write_text("y,s,fold\n1,0.9,a\n0,0.8,a\n1,0.3,a\n1,0.7,b\n0,0.2,b\n0,0.6,b\n")
    (tmp_path / "spec.yaml").write_text(textwrap.dedent("""\
        version: 1
        data:
          - {path: p.csv, label: y, group: fold, learners: {s: s}}
        report: {formats: [json], out: out}
        """))
    assert main(["run", str(tmp_path / "spec.yaml"), "--quiet"]) == 0
    s = json.loads((tmp_path / "out" / "results.json").read_text())["learners"]["s"]
    # fold a at 0.5: TP 1 (0.9), FP 1 (0.8), FN 1 (0.3); fold b: TP 1 (0.7), FP 1 (0.6), TN 1
    assert s["groups"]["a"] == {"tp": 1.0, "fp": 1.0, "tn": 0.0, "fn": 1.0, "accuracy": 1 / 3,
                                "error_rate": 2 / 3, "precision": 0.5, "recall": 0.5, "f1": 0.5}
    assert s["groups"]["b"]["recall"] == 1.0 and s["groups"]["b"]["precision"] == 0.5
    # macro over the folds (Zhou): P = (0.5 + 0.5)/2, R = (0.5 + 1)/2
    assert s["groups_macro"]["precision"] == 0.5 and s["groups_macro"]["recall"] == 0.75
    assert s["groups_macro"]["f1"] == pytest.approx(2 * 0.5 * 0.75 / 1.25)
    assert s["groups_micro"]["precision"] == pytest.approx(1 / 2)


def test_boolean_classes_stay_booleans(tmp_path):
    # classes: [true, false] were read as 1 and 0 ("label 'false' is not one of the classes")
    rng = np.random.default_rng(9)
    y = rng.random(200) < 0.4
    p = np.clip(0.5 + 0.3 * (2 * y - 1) + 0.3 * rng.normal(size=200), 0, 1).round(3)
    (tmp_path / "b.csv").write_text("y,p_t,p_f\n" + "".join(
        f"{str(v).lower()},{s},{round(1 - s, 3)}\n" for v, s in zip(y, p)))
    (tmp_path / "spec.yaml").write_text(textwrap.dedent("""\
        version: 1
        task: multiclass
        classes: [true, false]
        data:
          - {path: b.csv, label: y, learners: {m: [p_t, p_f]}}
        report: {formats: [json], out: out}
        """))
    assert main(["run", str(tmp_path / "spec.yaml"), "--quiet"]) == 0
    d = json.loads((tmp_path / "out" / "results.json").read_text())["learners"]["m"]
    yhat = np.where(p >= 1 - p, True, False)  # (a tie goes to the first class, true)
    assert d["confusion_matrix"] == skm.confusion_matrix(y, yhat, labels=[True, False]).tolist()


@pytest.mark.slow
def test_binary_report_shows_each_group(tmp_path):
    # the same folds as above: the report has a table per learner, a row per group,
    # the mean and standard deviation across groups, and the macro/micro averages
    (tmp_path / "p.csv").write_text("y,s,fold\n1,0.9,a\n0,0.8,a\n1,0.3,a\n1,0.7,b\n0,0.2,b\n0,0.6,b\n")
    (tmp_path / "spec.yaml").write_text(textwrap.dedent("""\
        version: 1
        data:
          - {path: p.csv, label: y, group: fold, learners: {s: s}}
        report: {formats: [html], out: out}
        """))
    assert main(["run", str(tmp_path / "spec.yaml"), "--quiet"]) == 0
    html = (tmp_path / "out" / "report.html").read_text()
    assert "<h3>Per group at the threshold</h3>" in html
    cells = lambda row: "".join(f'<td class="num">{v}</td>' for v in row)  # noqa: E731
    # fold a: TP 1, FP 1, TN 0, FN 1; fold b: TP 1, FP 1, TN 1, FN 0
    # a table's values with 4 decimals (docs/reference.md, "How numbers print")
    assert f'<th scope="row">a</th>{cells(["1", "1", "0", "1", "0.3333", "0.5000", "0.5000", "0.5000"])}' in html
    assert f'<th scope="row">b</th>{cells(["1", "1", "1", "0", "0.6667", "0.5000", "1.0000", "0.6667"])}' in html
    # mean of the two folds, and their standard deviation (n - 1): |x - y| / sqrt(2)
    assert f'<th scope="row">mean</th>{cells(["1", "1", "0.5000", "0.5000", "0.5000", "0.5000", "0.7500", "0.5833"])}' in html
    assert (f'<th scope="row">standard deviation</th>'
            f'{cells(["0", "0", "0.7071", "0.7071", "0.2357", "0.0000", "0.3536", "0.1179"])}') in html
    assert "s across groups: macro-P 0.500, macro-R 0.750, macro-F1 (Zhou) 0.600, mean F1 0.583; micro-P 0.500" in html
