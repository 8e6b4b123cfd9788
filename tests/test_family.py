"""Issue 20: the confusion-matrix family (specificity, NPV, FPR, FNR, balanced
accuracy, MCC, kappa, Youden's J), KS and Gini, against scikit-learn and scipy,
with their properties and in a run (results.json, gates, warnings, the report)."""

from __future__ import annotations

import json
import textwrap
import warnings as pywarnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalreport import registry
from evalreport.__main__ import main
from evalreport.metrics import evaluate_binary, evaluate_reduced
from evalreport.metrics.family import FAMILY, FAMILY_MULTICLASS, family_at, family_matrix
from evalreport.metrics.ks import gini, ks_of, ks_statistic

from sklearn import metrics as sk
from scipy import stats


def _sklearn(fn, *args, **kwargs):
    with pywarnings.catch_warnings():
        pywarnings.simplefilter("ignore")  # zero divisions and absent classes: the cases are chosen
        return fn(*args, **kwargs)


def _binary_rows(seed: int, n: int, weights: str):
    """Labels and decisions (correlated, so every cell is filled), and weights:
    none, integers (ties of rows: repeated instances) or floats."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    yhat = np.where(rng.random(n) < 0.7, y, rng.random(n) < 0.5)
    w = {"none": None, "int": rng.integers(1, 4, n).astype(float), "float": rng.random(n) * 3}[weights]
    return y, yhat, w


def _counts(y, yhat, w):
    w = np.ones(y.size) if w is None else w
    return (w[y & yhat].sum(), w[~y & yhat].sum(), w[~y & ~yhat].sum(), w[y & ~yhat].sum())


# --- binary: each member against scikit-learn -------------------------------------

@pytest.mark.parametrize("weights", ["none", "int", "float"])
@pytest.mark.parametrize("seed", range(6))
def test_binary_family_is_scikit_learn(seed, weights):
    y, yhat, w = _binary_rows(seed, 40 + 13 * seed, weights)
    values, why = family_at(*_counts(y, yhat, w))
    assert why == {} and set(values) == set(FAMILY)
    kw = {"sample_weight": w}
    recall_neg = sk.recall_score(y, yhat, pos_label=False, **kw)  # TN / (TN + FP)
    want = {
        "specificity": recall_neg,
        "npv": sk.precision_score(y, yhat, pos_label=False, **kw),
        "fpr": 1 - recall_neg,
        "fnr": 1 - sk.recall_score(y, yhat, **kw),
        "balanced_accuracy": sk.balanced_accuracy_score(y, yhat, **kw),
        "mcc": sk.matthews_corrcoef(y, yhat, **kw),
        "kappa": sk.cohen_kappa_score(y, yhat, **kw),
        # adjusted balanced accuracy is Youden's J for two classes
        "youden": sk.balanced_accuracy_score(y, yhat, adjusted=True, **kw),
    }
    for name in FAMILY:
        assert values[name] == pytest.approx(want[name], rel=1e-12, abs=1e-12), name


def test_integer_weights_are_repeated_rows():
    y, yhat, w = _binary_rows(11, 60, "int")
    reps = w.astype(int)
    a, _ = family_at(*_counts(y, yhat, w))
    b, _ = family_at(*_counts(np.repeat(y, reps), np.repeat(yhat, reps), None))
    assert a == pytest.approx(b, rel=1e-12)


@pytest.mark.parametrize("cells, undefined", [
    # (TP, FP, TN, FN): which members are undefined, and why
    ((3, 0, 0, 2), {"specificity": "there are no negatives", "fpr": "there are no negatives",
                    "balanced_accuracy": "there are no negatives", "youden": "there are no negatives",
                    "mcc": "there are no negatives"}),
    ((0, 2, 5, 0), {"fnr": "there are no positives", "balanced_accuracy": "there are no positives",
                    "youden": "there are no positives", "mcc": "there are no positives"}),
    ((0, 0, 5, 4), {"mcc": "nothing is predicted positive"}),
    ((4, 5, 0, 0), {"npv": "nothing is predicted negative", "mcc": "nothing is predicted negative"}),
    ((0, 0, 7, 0), {"fnr": "there are no positives", "balanced_accuracy": "there are no positives",
                    "youden": "there are no positives", "mcc": "there are no positives",
                    "kappa": "the chance agreement is 1 (one class, all decided alike)"}),
])
def test_binary_undefined_is_none_with_its_reason_never_zero(cells, undefined):
    values, why = family_at(*cells)
    assert why == undefined
    for name in FAMILY:
        assert (values[name] is None) == (name in undefined), name
    # scikit-learn says 0 for MCC (and NaN for kappa) here: we say undefined
    assert values["mcc"] is None


def test_all_zero_counts_are_undefined_everywhere():
    values, why = family_at(0, 0, 0, 0)
    assert all(v is None for v in values.values())
    assert why["kappa"] == "the total weight is 0"


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 10**6), st.integers(0, 10**6), st.integers(0, 10**6))
def test_binary_properties(tp, fp, tn, fn):
    v, why = family_at(tp, fp, tn, fn)
    assert set(why) == {k for k, x in v.items() if x is None}
    if v["youden"] is not None:
        assert v["youden"] == pytest.approx(2 * v["balanced_accuracy"] - 1, abs=1e-12)
        assert v["youden"] == pytest.approx(tp / (tp + fn) - fp / (fp + tn), abs=1e-12)
    if v["fpr"] is not None:
        assert v["fpr"] == pytest.approx(1 - v["specificity"], abs=1e-12)
    if v["fnr"] is not None:
        assert v["fnr"] == pytest.approx(fn / (tp + fn), abs=1e-15)
    if v["mcc"] is not None:
        assert -1 - 1e-12 <= v["mcc"] <= 1 + 1e-12
        # MCC and kappa share their numerator TP TN - FP FN
        assert np.sign(round(v["mcc"], 12)) == np.sign(round(v["kappa"], 12))
    if v["kappa"] is not None:
        assert v["kappa"] <= 1 + 1e-12
    # a two-class matrix gives the same MCC, kappa and balanced accuracy both ways
    m, _, _ = family_matrix([[tn, fp], [fn, tp]])
    for name in ("balanced_accuracy", "mcc", "kappa"):
        if v[name] is None:
            assert m[name] is None or name == "balanced_accuracy", name
        else:
            assert m[name] == pytest.approx(v[name], abs=1e-9), name


# --- multi-class: each member against scikit-learn ----------------------------------

def _multiclass_rows(seed: int, n: int, k: int, weights: str, absent: int | None = None):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    yhat = np.where(rng.random(n) < 0.6, y, rng.integers(0, k, n))
    if absent is not None:  # a class never true (it may still be decided)
        y = np.where(y == absent, (absent + 1) % k, y)
    w = {"none": None, "int": rng.integers(1, 4, n).astype(float), "float": rng.random(n) * 3}[weights]
    return y, yhat, w


def _matrix(y, yhat, w, k):
    return sk.confusion_matrix(y, yhat, labels=list(range(k)), sample_weight=w)


def _one_vs_rest(y, yhat, w, k):
    """scikit-learn's per-class one-vs-rest matrices: (TN, FP, FN, TP) per class."""
    mcm = sk.multilabel_confusion_matrix(y, yhat, labels=list(range(k)), sample_weight=w)
    return mcm[:, 0, 0], mcm[:, 0, 1], mcm[:, 1, 0], mcm[:, 1, 1]


@pytest.mark.parametrize("weights", ["none", "int", "float"])
@pytest.mark.parametrize("seed, k, absent", [(0, 3, None), (1, 4, None), (2, 5, 2), (3, 3, 0), (4, 6, None)])
def test_multiclass_family_is_scikit_learn(seed, k, absent, weights):
    y, yhat, w = _multiclass_rows(seed, 80 + 7 * seed, k, weights, absent)
    values, why, left_out = family_matrix(_matrix(y, yhat, w, k), [f"c{i}" for i in range(k)])
    assert why == {} and list(values) == list(FAMILY_MULTICLASS)
    kw = {"sample_weight": w}
    assert values["balanced_accuracy"] == pytest.approx(
        _sklearn(sk.balanced_accuracy_score, y, yhat, **kw), rel=1e-12)
    assert values["mcc"] == pytest.approx(sk.matthews_corrcoef(y, yhat, **kw), rel=1e-12)
    assert values["kappa"] == pytest.approx(sk.cohen_kappa_score(y, yhat, **kw), rel=1e-12)
    tn, fp, fn, tp = _one_vs_rest(y, yhat, w, k)
    with np.errstate(invalid="ignore", divide="ignore"):
        per_class = {"specificity": tn / (tn + fp), "npv": tn / (tn + fn), "fpr": fp / (fp + tn),
                     "fnr": fn / (fn + tp)}
    for name, v in per_class.items():
        assert values[name] == pytest.approx(np.nanmean(v), rel=1e-12), name
    # macro FNR = 1 - balanced accuracy; macro FPR = 1 - macro specificity
    assert values["fnr"] == pytest.approx(1 - values["balanced_accuracy"], abs=1e-12)
    assert values["fpr"] == pytest.approx(1 - values["specificity"], abs=1e-12)
    if absent is None:
        assert left_out == {}
    else:
        said = f"the mean leaves out class c{absent} (it has no instances)"
        assert left_out == {"fnr": said, "balanced_accuracy": said}


def test_multiclass_undefined_is_none_with_its_reason():
    # one true class, decided variously: MCC undefined; kappa defined (0: no agreement beyond chance)
    v, why, _ = family_matrix([[5, 3, 2], [0, 0, 0], [0, 0, 0]], ["a", "b", "c"])
    assert v["mcc"] is None and why["mcc"] == "all the instances are of one class"
    assert v["kappa"] == pytest.approx(sk.cohen_kappa_score([0] * 10, [0] * 5 + [1] * 3 + [2] * 2))
    # every instance decided the same class
    v, why, _ = family_matrix([[4, 0, 0], [3, 0, 0], [2, 0, 0]])
    assert v["mcc"] is None and why["mcc"] == "every instance is decided the same class"
    assert _sklearn(sk.matthews_corrcoef, [0] * 4 + [1] * 3 + [2] * 2, [0] * 9) == 0  # not undefined there
    # one class, all decided alike: no chance-corrected agreement
    v, why, left_out = family_matrix([[0, 0, 0], [0, 6, 0], [0, 0, 0]], ["a", "b", "c"])
    assert v["kappa"] is None and why["kappa"] == "the chance agreement is 1 (one class, all decided alike)"
    assert left_out["specificity"] == "the mean leaves out class b (all the instances are of that class)"
    assert left_out["npv"] == "the mean leaves out class b (every instance is decided that class)"
    assert left_out["fnr"] == "the mean leaves out classes a, c (it has no instances)"
    assert v["balanced_accuracy"] == 1.0 and v["specificity"] == 1.0
    # nothing at all
    v, why, _ = family_matrix(np.zeros((3, 3)))
    assert all(x is None for x in v.values()) and set(why.values()) == {"the total weight is 0"}


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 5).flatmap(lambda k: st.lists(st.lists(st.integers(0, 50), min_size=k, max_size=k),
                                                    min_size=k, max_size=k)))
def test_multiclass_properties(matrix):
    v, why, _ = family_matrix(matrix)
    assert set(why) == {k for k, x in v.items() if x is None}
    if v["mcc"] is not None:
        assert -1 - 1e-12 <= v["mcc"] <= 1 + 1e-12
    if v["kappa"] is not None:
        assert v["kappa"] <= 1 + 1e-12
    if v["fnr"] is not None:
        assert v["fnr"] == pytest.approx(1 - v["balanced_accuracy"], abs=1e-12)
        assert v["fpr"] == pytest.approx(1 - v["specificity"], abs=1e-12)
    for name in ("specificity", "npv", "fpr", "fnr", "balanced_accuracy"):
        if v[name] is not None:
            assert 0 <= v[name] <= 1


# --- KS and Gini -----------------------------------------------------------------

def _scores(seed: int, n: int, weights: str):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.35
    s = np.round(rng.normal(size=n) + 0.8 * y, 1)  # ties
    w = {"none": None, "int": rng.integers(1, 4, n), "float": rng.random(n) * 3}[weights]
    return y, s, w


def _brute_ks(y, s, w):
    """max over the distinct thresholds t (and +inf) of TPR(t) - FPR(t), in fractions."""
    w = np.ones(y.size, dtype=int) if w is None else w
    pos, neg = Fraction(int(w[y].sum())), Fraction(int(w[~y].sum()))
    best, at = Fraction(0), np.inf
    for t in np.unique(s)[::-1]:
        gap = Fraction(int(w[y & (s >= t)].sum())) / pos - Fraction(int(w[~y & (s >= t)].sum())) / neg
        if gap > best:
            best, at = gap, float(t)
    return best, at


@pytest.mark.parametrize("weights", ["none", "int"])
@pytest.mark.parametrize("seed", range(8))
def test_ks_is_scipy_ks_2samp(seed, weights):
    y, s, w = _scores(seed, 50 + 31 * seed, weights)
    ev = evaluate_binary(y, s, sample_weight=None if w is None else w.astype(float))
    ks = ks_of(ev)
    rows = s if w is None else np.repeat(s, w)  # integer weights: repeated instances
    labels = y if w is None else np.repeat(y, w)
    # F_- - F_+ at its largest: the one-sided statistic with the negatives first
    want = stats.ks_2samp(rows[~labels], rows[labels], alternative="greater").statistic
    assert ks.value == pytest.approx(want, abs=1e-12)
    # the whole table gives what its hull gives, and both what the fractions give
    full = ks_statistic(ev.counts.tp, ev.counts.fp, ev.counts.thresholds_with_inf(), ev.positives,
                        ev.negatives)
    best, at = _brute_ks(y, s, w)
    assert full.value == ks.value == pytest.approx(float(best), abs=1e-15)
    assert full.threshold == ks.threshold == at
    # at that threshold, TPR - FPR is the KS
    m = ev.at_threshold(ks.threshold)
    assert m.recall - m.fpr == pytest.approx(ks.value, abs=1e-12)


def test_ks_with_float_weights_is_the_weighted_gap():
    y, s, w = _scores(3, 300, "float")
    ks = ks_of(evaluate_binary(y, s, sample_weight=w))
    ts = np.unique(s)[::-1]
    gaps = [w[y & (s >= t)].sum() / w[y].sum() - w[~y & (s >= t)].sum() / w[~y].sum() for t in ts]
    assert ks.value == pytest.approx(max(gaps), abs=1e-12)
    assert ks.threshold == ts[int(np.argmax(gaps))]


def test_ks_ties_go_to_the_highest_threshold():
    # TPR - FPR is 1/2 at 0.9 and again at 0.5 (exactly, in counts)
    y = np.array([1, 0, 1, 0], bool)
    s = np.array([0.9, 0.7, 0.5, 0.1])
    ks = ks_of(evaluate_binary(y, s))
    assert (ks.value, ks.threshold) == (0.5, 0.9)
    # a learner ranking every negative first: no threshold beats predicting nothing positive
    ks = ks_of(evaluate_binary(y, np.array([0.1, 0.9, 0.2, 0.8])))
    assert (ks.value, ks.threshold) == (0.0, np.inf)


def test_ks_exact_past_int64():
    # billions on each side: tp m- would leave int64; compared in Python ints
    pos, neg = 3 * 10**10, 7 * 10**10 + 1
    tp = np.array([0, 10**10, 2 * 10**10, pos], dtype=np.int64)
    fp = np.array([0, 10**9, 10**10 + 3, neg], dtype=np.int64)
    ks = ks_statistic(tp, fp, np.array([np.inf, 3.0, 2.0, 1.0]), pos, neg)
    want = max(Fraction(int(a), pos) - Fraction(int(b), neg) for a, b in zip(tp, fp))
    assert ks.value == float(want) and ks.threshold == 2.0


def test_ks_of_a_streamed_reduced_table_is_the_whole_tables():
    from test_stream import make_rows, stream

    for weighted in (False, True):
        y, s, w, _ = make_rows(5000, 7, ties=False, weighted=weighted)
        want = ks_of(evaluate_binary(y, s, sample_weight=w))
        result = stream(y, s, w, sizes=(397,), cap=32)
        assert result.reduction.reduced
        got = ks_of(evaluate_reduced(result.table, result.reduction))
        assert got.threshold == want.threshold
        assert got.value == pytest.approx(want.value, abs=1e-12)


def test_ks_and_gini_undefined_with_one_class():
    ev = evaluate_binary(np.ones(5, bool), np.arange(5.0))
    ks = ks_of(ev)
    assert ks.value is None and ks.threshold is None and ks.why == ev.undefined["auc"]
    assert gini(ev.auc) is None
    assert ks_statistic([0, 1], [0, 0], [np.inf, 1.0], 1, 0).why == "there are no negatives"


@pytest.mark.parametrize("weights", ["none", "float"])
def test_gini_is_twice_roc_auc_minus_one(weights):
    y, s, w = _scores(5, 400, weights)
    ev = evaluate_binary(y, s, sample_weight=w)
    assert gini(ev.auc) == pytest.approx(2 * sk.roc_auc_score(y, s, sample_weight=w) - 1, abs=1e-12)


# --- in a run: results.json, gates, warnings, the report -------------------------

def _run(tmp_path, csv: str, extra: str = "", task: str = "", formats: str = "json, html") -> tuple[int, dict, str]:
    """The run's exit status, results.json and report.html ("" when ``formats`` has no html:
    the tests of gates read results.json only)."""
    (tmp_path / "p.csv").write_text(csv)
    (tmp_path / "spec.yaml").write_text(textwrap.dedent("""\
        version: 1
        title: t
        {task}data:
          - path: p.csv
            label: y
            learners: {learners}
        threshold: 0.5
        report: {{formats: [{formats}], out: out}}
        """).format(task=task, learners="{a: [s_x, s_y, s_z]}" if task else "{a: a, b: b}", formats=formats)
        + textwrap.dedent(extra))
    code = main(["run", str(tmp_path / "spec.yaml"), "--quiet"])
    data = json.loads((tmp_path / "out" / "results.json").read_text())
    return code, data, (tmp_path / "out" / "report.html").read_text() if "html" in formats else ""


def _binary_csv(seed=0, n=200):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    a = np.round(np.clip(0.5 + 0.3 * (y - 0.4) + rng.normal(0, 0.2, n), 0, 1), 2)
    b = np.round(rng.random(n), 2)
    return y, a, b, "y,a,b\n" + "".join(f"{int(t)},{p},{q}\n" for t, p, q in zip(y, a, b))


@pytest.mark.slow
def test_binary_run_writes_the_family_ks_and_gini(tmp_path):
    y, a, b, csv = _binary_csv()
    code, data, html = _run(tmp_path, csv)
    assert code == 0
    for name, s in (("a", a), ("b", b)):
        lr = data["learners"][name]
        yhat = s >= 0.5
        assert lr["mcc"] == pytest.approx(sk.matthews_corrcoef(y, yhat), rel=1e-12)
        assert lr["kappa"] == pytest.approx(sk.cohen_kappa_score(y, yhat), rel=1e-12)
        assert lr["balanced_accuracy"] == pytest.approx(sk.balanced_accuracy_score(y, yhat), rel=1e-12)
        assert lr["youden"] == pytest.approx(2 * lr["balanced_accuracy"] - 1, abs=1e-12)
        assert lr["specificity"] == pytest.approx(sk.recall_score(y, yhat, pos_label=False), rel=1e-12)
        assert lr["ks"] == pytest.approx(stats.ks_2samp(s[~y], s[y], alternative="greater").statistic,
                                         abs=1e-12)
        assert lr["ks_threshold"] in set(s.tolist())
        assert lr["gini"] == pytest.approx(2 * sk.roc_auc_score(y, s) - 1, abs=1e-12)
        # in the registry's order: KS and Gini after AUC, the family after the deployed cost
        keys = list(lr)
        after_auc = [k for k in keys[keys.index("auc") + 1:] if k != "auc_ci"]
        assert after_auc[:4] == ["ks", "ks_threshold", "gini", "rank_loss"]
        at = keys.index("cost_at_threshold")
        assert keys[at + 1:at + 9] == list(FAMILY)
    # the report: a table of its own, and KS with its threshold over every threshold
    family = html[html.index("The confusion-matrix family at the threshold"):html.index("Ranking (every threshold)")]
    for label in ("specificity", "NPV", "FPR", "FNR", "balanced accuracy", "MCC", "Cohen&#39;s kappa",
                  "Youden&#39;s J"):
        assert f"{label} " in family or f"{label}&nbsp;" in family, label  # (an arrow joined by a no-break space)
    first = html[html.index("At the decision threshold"):html.index("The confusion-matrix family")]
    assert "MCC" not in first and "specificity" not in first
    ranking = html[html.index("Ranking (every threshold)"):html.index("Confusion matrices at the threshold")]
    assert "KS (at threshold)" in ranking and "Gini" in ranking
    ks = data["learners"]["a"]["ks"]
    assert f"{ks:.4f} at " in ranking  # a table: 4 decimals (the one number style)
    appendix = html[html.index('id="appendix"'):]
    assert "Matthews&#39; correlation" in appendix and "Kolmogorov-Smirnov" in appendix


@pytest.mark.slow
def test_the_family_is_left_out_when_the_metrics_leave_it_out(tmp_path):
    _, _, _, csv = _binary_csv()
    code, data, html = _run(tmp_path, csv, "metrics: [accuracy, auc, mcc]\n")
    assert code == 0
    lr = data["learners"]["a"]
    assert "mcc" in lr and not {"ks", "ks_threshold", "gini", "kappa", "youden"} & set(lr)
    family = html[html.index("The confusion-matrix family at the threshold"):html.index("Ranking (every threshold)")]
    assert "MCC" in family and "kappa" not in family
    assert "KS (at" not in html
    code, data, html = _run(tmp_path, csv, "metrics: [accuracy, auc]\n")
    assert "<h3>The confusion-matrix family" not in html


@pytest.mark.slow
@pytest.mark.parametrize("bound, code", [("min: -1", 0), ("min: 0.99", 3), ("max: 0.99", 0)])
def test_a_gate_on_mcc(tmp_path, bound, code):
    _, _, _, csv = _binary_csv()
    got, data, _ = _run(tmp_path, csv, f"gates:\n  - {{learner: a, metric: mcc, {bound}}}\n", formats="json")
    assert got == code
    gate = data["gates"][0]
    assert gate["metric"] == "mcc" and gate["value"] == data["learners"]["a"]["mcc"]
    assert gate["passed"] is (code == 0)


@pytest.mark.slow
def test_gates_on_ks_and_fpr(tmp_path):
    _, _, _, csv = _binary_csv()
    got, data, _ = _run(tmp_path, csv, "gates:\n  - {learner: a, metric: ks, min: 0.2}\n"
                                       "  - {learner: b, metric: fpr, max: 0.01}\n", formats="json")
    assert got == 3
    assert [g["passed"] for g in data["gates"]] == [True, False]
    assert data["gates"][0]["value"] == data["learners"]["a"]["ks"]


@pytest.mark.slow
def test_undefined_members_are_null_with_a_warning_and_marked(tmp_path):
    # positives only: no negatives, so specificity, FPR, balanced accuracy, Youden, MCC, KS and Gini
    csv = "y,a,b\n" + "".join(f"1,{p},{q}\n" for p, q in ((0.9, 0.2), (0.4, 0.8), (0.7, 0.6)))
    code, data, html = _run(tmp_path, csv, "gates:\n  - {learner: a, metric: mcc, min: -1}\n")
    assert code == 3  # an undefined value fails its gate
    lr = data["learners"]["a"]
    for name in ("specificity", "fpr", "balanced_accuracy", "youden", "mcc", "ks", "ks_threshold", "gini"):
        assert lr[name] is None, name
    assert lr["fnr"] == pytest.approx(1 / 3) and lr["npv"] == 0.0
    warnings = data["warnings"]
    for text in ("learner 'a': mcc at threshold 0.500 is undefined: there are no negatives",
                 "learner 'a': balanced_accuracy at threshold 0.500 is undefined: there are no negatives",
                 "learner 'a': youden at threshold 0.500 is undefined: there are no negatives",
                 "learner 'a': ks is undefined: there are no negatives (only one class in y_true)",
                 "learner 'a': gini is undefined: there are no negatives (only one class in y_true)"):
        assert text in warnings, text
    # specificity and FPR are said once (the threshold's own measures say them)
    assert sum("fpr at threshold" in w and "'a'" in w for w in warnings) == 1
    family = html[html.index("The confusion-matrix family at the threshold"):html.index("Ranking (every threshold)")]
    assert 'undefined<sup class="mark">' in family
    assert "mcc at threshold 0.500 is undefined: there are no negatives" in family


def test_hard_decisions_have_the_family_but_no_ks_or_gini(tmp_path):
    csv = "y,a,b\n1,1,0.9\n0,0,0.2\n1,0,0.6\n0,1,0.4\n1,1,0.3\n"
    (tmp_path / "p.csv").write_text(csv)
    (tmp_path / "spec.yaml").write_text(textwrap.dedent("""\
        version: 1
        title: t
        data:
          - path: p.csv
            label: y
            learners: {a: {predicted: a}, b: b}
        report: {formats: [json], out: out}
        """))
    assert main(["run", str(tmp_path / "spec.yaml"), "--quiet"]) == 0
    data = json.loads((tmp_path / "out" / "results.json").read_text())
    a = data["learners"]["a"]
    assert a["ks"] is None and a["ks_threshold"] is None and a["gini"] is None
    assert a["mcc"] == pytest.approx(sk.matthews_corrcoef([1, 0, 1, 0, 1], [1, 0, 0, 1, 1]))
    assert ("learner 'a' gives hard decisions only: no curves, AUC, Gini, KS, AP, BEP or cost curve"
            in data["warnings"])


def _multiclass_csv(seed=1, n=150, only=None):
    rng = np.random.default_rng(seed)
    classes = ["x", "y", "z"]
    y = rng.integers(0, 3, n) if only is None else np.full(n, only)
    s = np.round(rng.random((n, 3)) + np.eye(3)[y] * 0.5, 3)
    rows = "".join(f"{classes[t]},{a},{b},{c}\n" for t, (a, b, c) in zip(y, s))
    return y, s, "y,s_x,s_y,s_z\n" + rows


MULTICLASS = "task: multiclass\nclasses: [x, y, z]\n"


def test_multiclass_run_writes_the_family(tmp_path):
    y, s, csv = _multiclass_csv()
    code, data, html = _run(tmp_path, csv, "gates:\n  - {metric: kappa, min: 0.99}\n", task=MULTICLASS)
    assert code == 3
    lr = data["learners"]["a"]
    yhat = np.argmax(s, axis=1)
    assert lr["mcc"] == pytest.approx(sk.matthews_corrcoef(y, yhat), rel=1e-12)
    assert lr["kappa"] == pytest.approx(sk.cohen_kappa_score(y, yhat), rel=1e-12)
    assert lr["balanced_accuracy"] == pytest.approx(sk.balanced_accuracy_score(y, yhat), rel=1e-12)
    tn, fp, fn, tp = _one_vs_rest(y, yhat, None, 3)
    assert lr["specificity"] == pytest.approx(np.mean(tn / (tn + fp)), rel=1e-12)
    assert lr["npv"] == pytest.approx(np.mean(tn / (tn + fn)), rel=1e-12)
    assert "youden" not in lr and "ks" not in lr and "gini" not in lr
    assert data["gates"] == [{"learner": "a", "metric": "kappa", "value": lr["kappa"], "min": 0.99,
                              "interval": None, "outcome": "fail", "passed": False}]
    family = html[html.index("The confusion-matrix family of the decisions"):]
    assert "balanced accuracy" in family and "Youden" not in family.split("</table>")[0]


def test_multiclass_undefined_and_left_out_classes_warn(tmp_path):
    _, _, csv = _multiclass_csv(only=0)  # every instance is x
    code, data, html = _run(tmp_path, csv, task=MULTICLASS)
    assert code == 0
    lr = data["learners"]["a"]
    assert lr["mcc"] is None and lr["kappa"] is not None
    warnings = data["warnings"]
    assert "learner 'a': mcc is undefined: all the instances are of one class" in warnings
    assert ("learner 'a': specificity: the mean leaves out class x (all the instances are of that class)"
            in warnings)
    assert "learner 'a': balanced_accuracy: the mean leaves out classes y, z (it has no instances)" in warnings
    family = html[html.index("The confusion-matrix family of the decisions"):]
    assert "mcc is undefined: all the instances are of one class" in family


def test_registry_entries():
    names = list(registry.MEASURES)
    at = names.index("cost_at_threshold")
    assert names[at + 1:at + 9] == list(FAMILY)
    assert names[names.index("auc") + 1:names.index("auc") + 3] == ["ks", "gini"]
    for name in FAMILY:
        m = registry.get(name)
        assert m.kind == "at_threshold" and m.section == "family" and m.gate
        assert m.direction == ("lower" if name in ("fpr", "fnr") else "higher")
        assert m.tasks == (("binary",) if name == "youden" else registry.TASKS)
    for name in ("ks", "gini"):
        m = registry.get(name)
        assert (m.kind, m.tasks, m.direction, m.gate, m.section) == (
            "threshold_free", ("binary",), "higher", True, "")
