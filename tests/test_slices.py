"""Subgroup slices (data[].slices): the parity differences against fairlearn's, each
slice's measures against the subset evaluated alone, gaps, weights, small slices,
gates on slices, the spec's errors at their YAML lines, results.json and the
report's section."""

from __future__ import annotations

import json
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalreport.__main__ import main
from evalreport.metrics import evaluate_binary
from evalreport.metrics.slices import (PARITY, bootstrap_parity, cell_counts, parity_of, rates_of,
                                       wilson_interval)


def _random(seed: int, n: int = 400, values: int = 4, weighted: bool = False):
    """Labels, tied scores (two decimals), a slice column of text and weights."""
    rng = np.random.default_rng(seed)
    g = rng.integers(0, values, n)
    y = rng.random(n) < 0.25 + 0.1 * g
    s = np.round(np.clip(0.3 * y + 0.08 * g + rng.normal(0.35, 0.2, n), 0, 1), 2)
    w = rng.uniform(0.2, 3.0, n) if weighted else None
    return y, s, np.array([f"v{k}" for k in g]), w


# --- the parity differences: fairlearn's definitions -----------------------------

@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("weighted", [False, True])
def test_parity_differences_match_fairlearn(seed, weighted):
    from fairlearn import metrics as fm
    y, s, g, w = _random(seed, weighted=weighted)
    t = float(np.quantile(s, 0.6))
    pred = s >= t
    names, codes = np.unique(g, return_inverse=True)
    got = parity_of(cell_counts(y, pred, codes, len(names), w), list(names))
    kw = {"sensitive_features": g, "sample_weight": w}
    assert got["demographic_parity_difference"].value == pytest.approx(
        fm.demographic_parity_difference(y, pred, **kw), abs=1e-12)
    assert got["equal_opportunity_difference"].value == pytest.approx(
        fm.equal_opportunity_difference(y, pred, **kw), abs=1e-12)
    assert got["equalized_odds_difference"].value == pytest.approx(
        fm.equalized_odds_difference(y, pred, **kw), abs=1e-12)


def test_parity_names_the_values_between_and_leaves_out_undefined_rates():
    # value c has no positives: its TPR is undefined, left out of equal opportunity
    counts = np.array([[8, 2, 8, 2], [5, 5, 5, 5], [0, 3, 7, 0]])
    p = parity_of(counts, ["a", "b", "c"])
    eo = p["equal_opportunity_difference"]
    assert eo.value == pytest.approx(0.3) and eo.between == ("a", "b") and eo.left_out == ("c",)
    # FPR: a 0.2, b 0.5, c 0.3 -> 0.3; TPR 0.3: a tie, TPR is named
    assert p["equalized_odds_difference"].value == pytest.approx(0.3)
    # selection rates 0.5, 0.5, 0.3: the first of a tie is named
    assert p["demographic_parity_difference"].between == ("a", "c")
    # one value with positives: undefined
    one = parity_of(np.array([[1, 1, 1, 1], [0, 2, 2, 0]]), ["a", "b"])
    assert one["equal_opportunity_difference"].value is None
    assert one["equalized_odds_difference"].value is None
    assert one["demographic_parity_difference"].value == 0.0


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(*[st.integers(0, 30)] * 4), min_size=2, max_size=6), st.randoms())
def test_parity_differences_are_in_0_1_and_do_not_depend_on_the_order_of_the_values(rows, rnd):
    counts = np.array(rows)
    names = [f"v{i}" for i in range(len(rows))]
    p = parity_of(counts, names)
    order = list(range(len(rows)))
    rnd.shuffle(order)
    q = parity_of(counts[order], [names[i] for i in order])
    for k in PARITY:
        assert (p[k].value is None) == (q[k].value is None)
        if p[k].value is not None:
            assert 0 <= p[k].value <= 1 and p[k].value == pytest.approx(q[k].value)
    # the same rates in every value: no difference
    same = parity_of(np.tile(counts[:1], (3, 1)), ["a", "b", "c"])
    assert all(v.value in (None, 0.0) for v in same.values())


def test_wilson_interval_matches_statsmodels():
    from statsmodels.stats.proportion import proportion_confint

    for k, n, level in [(3, 10, 0.95), (0, 7, 0.9), (40, 40, 0.99), (17, 123, 0.95)]:
        lo, hi = proportion_confint(k, n, alpha=1 - level, method="wilson")
        assert wilson_interval(k, n, level) == pytest.approx((lo, hi), abs=1e-12)
    assert wilson_interval(0, 0) is None


@pytest.mark.slow
def test_the_binomial_bootstrap_is_resampling_within_value_and_class():
    """One binomial draw per (value, class) cell is resampling that cell's rows: the
    intervals agree with an explicit row bootstrap (to Monte Carlo error), and the
    same seed gives the same intervals."""
    y, s, g, _ = _random(3, n=600)
    pred = s >= 0.5
    names, codes = np.unique(g, return_inverse=True)
    counts = cell_counts(y, pred, codes, len(names))
    got = bootstrap_parity(counts, n_resamples=3000, seed=7, level=0.9)
    assert got == bootstrap_parity(counts, n_resamples=3000, seed=7, level=0.9)
    rng = np.random.default_rng(11)
    strata = [np.flatnonzero((codes == j) & (y == c)) for j in range(len(names)) for c in (True, False)]
    diffs = {k: [] for k in PARITY}
    for _ in range(3000):
        idx = np.concatenate([rng.choice(st_, st_.size) for st_ in strata])
        c = cell_counts(y[idx], pred[idx], codes[idx], len(names))
        for k, p in parity_of(c, list(names)).items():
            diffs[k].append(p.value)
    for k in PARITY:
        lo, hi = np.quantile(diffs[k], [0.05, 0.95])
        assert got[k][0] == pytest.approx(lo, abs=0.015) and got[k][1] == pytest.approx(hi, abs=0.015)


def test_rates_of_is_undefined_without_the_class():
    r = rates_of(np.array([[0.0, 2.0, 3.0, 0.0]]))
    assert np.isnan(r["tpr"][0]) and r["fpr"][0] == pytest.approx(0.4) and r["selection_rate"][0] == 0.4


# --- values too small to compare (confidence.slices_min) ----------------------------

def test_a_value_of_5_positives_is_left_out_of_the_parity_differences_by_hand():
    # a: TPR 8/10, FPR 2/10, selection 10/20; b: TPR 6/12, FPR 6/12, selection 12/24;
    # tiny: 5 positives (TPR 0/5, FPR 1/20): with it, EO would be 0.8 - 0 = 0.8
    counts = np.array([[8, 2, 8, 2], [6, 6, 6, 6], [0, 1, 19, 5]])
    names = ["a", "b", "tiny"]
    every = parity_of(counts, names)
    assert every["equal_opportunity_difference"].value == pytest.approx(0.8)
    p = parity_of(counts, names, keep=[True, True, False])
    assert p["equal_opportunity_difference"].value == pytest.approx(0.8 - 0.5)
    assert p["equal_opportunity_difference"].between == ("a", "b")
    assert p["equalized_odds_difference"].value == pytest.approx(max(0.8 - 0.5, 0.5 - 0.2))
    assert p["demographic_parity_difference"].value == pytest.approx(0.0)
    assert all(x.too_small == ("tiny",) and x.left_out == () for x in p.values())


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(*[st.integers(0, 30)] * 4), min_size=2, max_size=6), st.data())
def test_the_values_left_out_change_nothing(rows, data):
    """The differences and their bootstrap over the kept values are those of the kept
    values alone, whatever the counts of the values left out."""
    counts = np.array(rows)
    keep = data.draw(st.lists(st.booleans(), min_size=len(rows), max_size=len(rows)))
    names = [f"v{i}" for i in range(len(rows))]
    got = parity_of(counts, names, keep=keep)
    alone = parity_of(counts[np.array(keep, bool)], [n for n, k in zip(names, keep) if k])
    for k in PARITY:
        assert got[k].value == alone[k].value and got[k].between == alone[k].between
        assert got[k].too_small == tuple(n for n, k_ in zip(names, keep) if not k_)
    boot = bootstrap_parity(counts, n_resamples=50, seed=1, level=0.9, keep=keep)
    assert boot == bootstrap_parity(counts[np.array(keep, bool)], n_resamples=50, seed=1, level=0.9)


def _with_tiny(seed=0):
    """The fixture's data with region 'isle' of exactly 5 positives and 22 negatives,
    its TPR far from the others' (every positive missed)."""
    text, c = _data(seed=seed, tiny=False)
    extra = [(1, 0.05)] * 5 + [(0, 0.05)] * 22
    text += "".join(f"{y},isle,1,{s},{s}\n" for y, s in extra)
    c = {k: np.concatenate([v, np.array(add)]) if v is not None else None for k, v, add in [
        ("y", c["y"], [bool(y) for y, _ in extra]), ("region", c["region"], ["isle"] * 27),
        ("band", c["band"], [1] * 27), ("p_a", c["p_a"], [s for _, s in extra]),
        ("p_b", c["p_b"], [s for _, s in extra]), ("w", None, None)]}
    return text, c


@pytest.mark.slow
def test_a_slice_of_5_positives_is_left_out_end_to_end(tmp_path):
    from fairlearn import metrics as fm
    got, c = _run(tmp_path, csv=_with_tiny(), status=0)
    block = got["learners"]["a"]["slices"]["region"]
    assert block["too_small"] == ["isle"] and block["values"]["isle"]["positives"] == 5
    assert block["values"]["isle"]["small"] is True
    kept = c["region"] != "isle"
    pred = c["p_a"] >= 0.5
    for name in PARITY:
        with_tiny = getattr(fm, name)(c["y"], pred, sensitive_features=c["region"])
        ref = getattr(fm, name)(c["y"][kept], pred[kept], sensitive_features=c["region"][kept])
        assert block["parity"][name]["value"] == pytest.approx(ref, abs=1e-12)
        assert block["parity"][name]["too_small"] == ["isle"]
        if name != "demographic_parity_difference":
            assert with_tiny > ref + 0.1  # isle's TPR of 0 would have made the difference
    # the bootstrap intervals are over the kept values only
    names, codes = np.unique(c["region"][kept], return_inverse=True)
    counts = cell_counts(c["y"][kept], pred[kept], codes, len(names))
    boot = bootstrap_parity(counts, n_resamples=200, seed=3, level=0.95)
    for name in PARITY:
        assert block["parity"][name]["interval"] == [pytest.approx(x, abs=1e-12) for x in boot[name]]
    assert any(w.startswith("pred.csv: slice region: too small to compare (fewer than 10 positives or fewer "
                            "than 10 negatives, confidence.slices_min): 'isle' (27 instances, 5 positives, 22 "
                            "negatives)") for w in got["warnings"])
    html = (tmp_path / "out" / "report.html").read_text()
    assert "Too small to compare: isle (n = 27, 5 positives); left out of these differences." in html
    assert '<span class="small-tag">too small</span>' in html


@pytest.mark.slow
def test_slices_min_decides_what_is_too_small(tmp_path):
    spec = SPEC.format(extra="").replace("seed: 3}", "seed: 3, slices_min: 5}")
    got, c = _run(tmp_path, csv=_with_tiny(), spec=spec, status=0)
    block = got["learners"]["a"]["slices"]["region"]
    assert block["slices_min"] == 5 and block["too_small"] == []
    from fairlearn import metrics as fm
    ref = fm.equal_opportunity_difference(c["y"], c["p_a"] >= 0.5, sensitive_features=c["region"])
    assert block["parity"]["equal_opportunity_difference"]["value"] == pytest.approx(ref, abs=1e-12)
    assert not any("too small" in w for w in got["warnings"])


@pytest.mark.slow
def test_weighted_values_are_counted_in_rows_not_weights(tmp_path):
    """A value's size is its rows: weights scaled a thousandfold down leave it in."""
    text, c = _data(weighted=True, tiny=False)
    lines = text.splitlines()
    lines = [lines[0]] + [",".join(r.split(",")[:-1] + [f"{float(r.split(',')[-1]) / 1000:g}"])
                          if r.split(",")[1] == "east" else r for r in lines[1:]]
    spec = SPEC.format(extra="").replace("    label: y\n", "    label: y\n    weight: w\n")
    got, _ = _run(tmp_path, csv=("\n".join(lines) + "\n", c), spec=spec, status=0)
    block = got["learners"]["a"]["slices"]["region"]
    assert block["too_small"] == [] and block["values"]["east"]["small"] is False


# --- per-slice intervals --------------------------------------------------------------

def _delong_by_hand(y, s, level):
    """DeLong's interval, plainly: placement values over every (positive, negative) pair."""
    from scipy.stats import norm

    pos, neg = s[y], s[~y]
    psi = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    auc = psi.mean()
    v10, v01 = psi.mean(axis=1), psi.mean(axis=0)
    se = np.sqrt(v10.var(ddof=1) / pos.size + v01.var(ddof=1) / neg.size)
    z = norm.ppf((1 + level) / 2)
    return max(auc - z * se, 0.0), min(auc + z * se, 1.0)


@pytest.mark.slow
def test_slice_intervals_match_statsmodels_wilson_and_delong(tmp_path):
    from statsmodels.stats.proportion import proportion_confint

    spec = SPEC.format(extra="").replace("seed: 3}", "seed: 3, level: 0.9}")
    got, c = _run(tmp_path, spec=spec, status=0)
    for value, v in got["learners"]["a"]["slices"]["region"]["values"].items():
        m = c["region"] == value
        y, s = c["y"][m], c["p_a"][m]
        pred = s >= 0.5
        tp, fp, tn, fn = (y & pred).sum(), (~y & pred).sum(), (~y & ~pred).sum(), (y & ~pred).sum()
        for name, (k, n) in {"accuracy": (tp + tn, m.sum()), "error_rate": (fp + fn, m.sum()),
                             "precision": (tp, tp + fp), "recall": (tp, tp + fn), "specificity": (tn, tn + fp),
                             "npv": (tn, tn + fn), "fpr": (fp, fp + tn), "fnr": (fn, fn + tp)}.items():
            lo, hi = proportion_confint(k, n, alpha=0.1, method="wilson")
            assert v["intervals"][name] == [pytest.approx(lo, abs=1e-12), pytest.approx(hi, abs=1e-12)], name
        assert v["intervals"]["auc"] == [pytest.approx(x, abs=1e-12) for x in _delong_by_hand(y, s, 0.9)]
    html = (tmp_path / "out" / "report.html").read_text()
    north = got["learners"]["a"]["slices"]["region"]["values"]["north"]["intervals"]["recall"]
    assert f"[{north[0]:.4f}, {north[1]:.4f}]" in html  # printed beside the value (a table: 4 decimals)


# --- end to end: a spec with slices ----------------------------------------------

SPEC = """\
version: 1
title: slices
data:
  - path: pred.csv
    label: y
    slices: [region, band]
    learners: {{a: p_a, b: p_b}}
threshold: 0.5
costs: {{false_negative: 2, false_positive: 1}}
confidence: {{bootstrap: 200, seed: 3}}
{extra}report: {{formats: [json, html], out: out}}
"""


def _data(n=600, seed=0, weighted=False, tiny=True):
    rng = np.random.default_rng(seed)
    region = rng.choice(["north", "south", "east"], n, p=[0.5, 0.3, 0.2])
    if tiny:
        region[:12] = "isle"  # a small slice: 12 instances
    band = rng.choice([1, 2], n)
    y = rng.random(n) < np.where(region == "south", 0.45, 0.3)
    p_a = np.round(np.clip(0.35 * y + rng.normal(0.35, 0.2, n), 0, 1), 2)
    p_b = np.round(np.clip(np.where(region == "east", 0.05, 0.3) * y + rng.normal(0.4, 0.2, n), 0, 1), 2)
    w = np.round(rng.uniform(0.5, 2.0, n), 3)
    lines = ["y,region,band,p_a,p_b" + (",w" if weighted else "")]
    for i in range(n):
        lines.append(f"{int(y[i])},{region[i]},{band[i]},{p_a[i]},{p_b[i]}" + (f",{w[i]}" if weighted else ""))
    return "\n".join(lines) + "\n", dict(y=y, region=region, band=band, p_a=p_a, p_b=p_b, w=w)


def _run(tmp_path, extra="", csv=None, spec=None, status=None):
    text, cols = _data() if csv is None else csv
    (tmp_path / "pred.csv").write_text(text)
    (tmp_path / "spec.yaml").write_text(spec if spec is not None else SPEC.format(extra=extra))
    rc = main(["run", str(tmp_path / "spec.yaml"), "--quiet"])
    if status is not None:
        assert rc == status
    return json.loads((tmp_path / "out" / "results.json").read_text()), cols


@pytest.fixture(scope="module")
def default_run(tmp_path_factory):
    """The SPEC's run on ``_data()`` (results.json, its columns, the folder with report.html),
    once for the tests that read different things of it: never write to it."""
    folder = tmp_path_factory.mktemp("slices")
    got, cols = _run(folder, status=0)
    return got, cols, folder


@pytest.mark.slow
def test_each_slice_is_the_subset_evaluated_alone(default_run):
    from sklearn.metrics import average_precision_score, precision_score, recall_score, roc_auc_score

    got, c, _ = default_run
    whole = got["learners"]["a"]
    block = whole["slices"]["region"]
    assert list(block) == ["level", "resamples", "slices_min", "too_small", "values", "parity"]
    assert block["slices_min"] == 10 and block["too_small"] == ["isle"]
    assert list(block["values"]) == ["east", "isle", "north", "south"]  # sorted
    assert list(got["learners"]["a"]["slices"]["band"]["values"]) == ["1", "2"]  # as text
    for value, v in block["values"].items():
        m = c["region"] == value
        y, s = c["y"][m], c["p_a"][m]
        assert v["n"] == m.sum() and v["positives"] == y.sum() and v["negatives"] == (~y).sum()
        assert v["auc"] == pytest.approx(roc_auc_score(y, s), abs=1e-12)
        assert v["average_precision"] == pytest.approx(average_precision_score(y, s), abs=1e-12)
        assert v["recall"] == pytest.approx(recall_score(y, s >= 0.5), abs=1e-12)
        assert v["precision"] == pytest.approx(precision_score(y, s >= 0.5), abs=1e-12)
        ev = evaluate_binary(y, s)
        at = ev.at_threshold(0.5, costs={"false_negative": 2, "false_positive": 1})
        assert v["cost_sensitive_error"] == pytest.approx(at.cost_sensitive_error, abs=1e-12)
        assert v["bep"] == pytest.approx(ev.bep, abs=1e-12)
        # gaps: slice - whole, for every measure listed
        assert set(v["gap"]) == set(v) - {"n", "positives", "negatives", "small", "gap", "rates", "intervals"}
        for k, gap in v["gap"].items():
            of_whole = whole["operating_point"]["min_cost"] if k == "min_cost" else whole[k]
            if v[k] is None or of_whole is None:  # undefined in the slice (LR+ with no negative predicted, say)
                assert gap is None, (value, k)
            else:
                assert gap == pytest.approx(v[k] - of_whole, abs=1e-12)
        # rates, their Wilson intervals and gaps
        pred = s >= 0.5
        tpr = pred[y].mean()
        assert v["rates"]["tpr"]["value"] == pytest.approx(tpr, abs=1e-12)
        assert v["rates"]["tpr"]["interval"] == pytest.approx(list(wilson_interval(pred[y].sum(), y.sum())))
        sel_whole = (c["p_a"] >= 0.5).mean()
        assert v["rates"]["selection_rate"]["gap"] == pytest.approx(pred.mean() - sel_whole, abs=1e-12)
        assert v["small"] == (value == "isle")


@pytest.mark.slow
def test_parity_in_results_json_matches_fairlearn_with_bootstrap_intervals(default_run):
    from fairlearn import metrics as fm
    got, c, _ = default_run
    for learner in ("a", "b"):
        block = got["learners"][learner]["slices"]["region"]
        assert block["level"] == 0.95 and block["resamples"] == 200
        kept = c["region"] != "isle"  # too small to compare: fewer than 10 positives
        pred = c[f"p_{learner}"] >= 0.5
        for name in PARITY:
            ref = getattr(fm, name)(c["y"][kept], pred[kept], sensitive_features=c["region"][kept])
            p = block["parity"][name]
            assert p["value"] == pytest.approx(ref, abs=1e-12)
            lo, hi = p["interval"]
            assert lo <= hi and len(p["between"]) == 2 and "isle" not in p["between"]
            assert p["too_small"] == ["isle"]


@pytest.mark.slow
def test_weighted_slices_are_weighted_without_intervals(tmp_path):
    from fairlearn import metrics as fm
    from sklearn.metrics import roc_auc_score

    csv = _data(weighted=True)
    spec = SPEC.format(extra="").replace("    label: y\n", "    label: y\n    weight: w\n")
    got, c = _run(tmp_path, csv=csv, spec=spec, status=0)
    block = got["learners"]["a"]["slices"]["region"]
    assert block["resamples"] == 0
    for value, v in block["values"].items():
        m = c["region"] == value
        assert v["auc"] == pytest.approx(roc_auc_score(c["y"][m], c["p_a"][m], sample_weight=c["w"][m]),
                                         abs=1e-9)
        assert all(r["interval"] is None for r in v["rates"].values())
        assert all(iv is None for iv in v["intervals"].values())
    kept = c["region"] != "isle"
    ref = fm.equalized_odds_difference(c["y"][kept], c["p_a"][kept] >= 0.5, sensitive_features=c["region"][kept],
                                       sample_weight=c["w"][kept])
    assert block["parity"]["equalized_odds_difference"]["value"] == pytest.approx(ref, abs=1e-9)
    assert block["parity"]["equalized_odds_difference"]["interval"] is None
    assert ("learner 'a': slices of weighted data: the measures, rates and parity differences are weighted; "
            "their intervals (Wilson's, the bootstrap's) assume unit weights and are not computed"
            ) in got["warnings"]


@pytest.mark.slow
def test_a_small_slice_is_marked_and_warned_about_once(default_run):
    got, _, _ = default_run
    said = [w for w in got["warnings"] if "too small" in w]
    n_pos = got["learners"]["a"]["slices"]["region"]["values"]["isle"]["positives"]
    assert n_pos < 10
    assert said == [f"pred.csv: slice region: too small to compare (fewer than 10 positives or fewer than 10 "
                    f"negatives, confidence.slices_min): 'isle' (12 instances, {n_pos} positives, {12 - n_pos} "
                    "negatives); left out of the parity differences and the gates on the slice, their measures "
                    "shown, marked too small"]
    assert got["learners"]["b"]["slices"]["region"]["values"]["isle"]["small"] is True
    assert got["learners"]["b"]["slices"]["region"]["values"]["north"]["small"] is False


@pytest.mark.slow
def test_undefined_measures_of_a_slice_are_null_with_a_warning(tmp_path):
    text, cols = _data(tiny=False)
    lines = text.splitlines()
    # one more region holding negatives only: undefined TPR, and too small to compare
    lines += [f"0,void,1,0.{i + 1},0.{i + 2}" for i in range(5)]
    got, _ = _run(tmp_path, csv=("\n".join(lines) + "\n", cols), status=0)
    v = got["learners"]["a"]["slices"]["region"]["values"]["void"]
    assert v["auc"] is None and v["recall"] is None and v["gap"]["auc"] is None
    assert v["rates"]["tpr"] == {"value": None, "interval": None, "gap": None}
    assert v["intervals"]["recall"] is None and v["intervals"]["auc"] is None
    # scores 0.1 ... 0.5: the last one flagged at 0.5, 4 of the 5 negatives not
    assert v["intervals"]["specificity"] == [pytest.approx(x) for x in wilson_interval(4, 5)]
    assert ("learner 'a': slice region = 'void': undefined: average_precision, bep, auc, rank_loss, "
            "expected_total_cost, recall (there are no positives (only one class in y_true))") in got["warnings"]
    eo = got["learners"]["a"]["slices"]["region"]["parity"]["equal_opportunity_difference"]
    assert eo["value"] is not None and eo["too_small"] == ["void"]  # over the other values


# --- gates on slices ---------------------------------------------------------------

@pytest.mark.slow
def test_gates_on_slices_name_the_failing_value(tmp_path, capsys):
    from statsmodels.stats.proportion import proportion_confint

    extra = ("gates:\n"
             "  - {learner: b, metric: auc, slice: region, min: 0.6}\n"
             "  - {learner: a, metric: recall, slice: band, max_gap: 0.2}\n"
             "  - {learner: a, metric: precision, slice: band, min: 0.2}\n"
             "  - {metric: demographic_parity_difference, slice: region, max: 0.01}\n")
    got, c = _run(tmp_path, extra=extra, status=3)
    rows = got["gates"]
    by_value = [r for r in rows if r["metric"] == "auc"]
    assert [r["slice_value"] for r in by_value] == ["east", "isle", "north", "south"]
    east = by_value[0]
    auc_east = got["learners"]["b"]["slices"]["region"]["values"]["east"]["auc"]
    ci_east = got["learners"]["b"]["slices"]["region"]["values"]["east"]["intervals"]["auc"]
    assert east == {"learner": "b", "metric": "auc", "slice": "region", "slice_value": "east",
                    "value": auc_east, "interval": ci_east, "min": 0.6, "outcome": east["outcome"],
                    "passed": east["outcome"] == "pass"}
    # the point value against the bound, then the interval: inconclusive where it crosses it
    assert east["outcome"] == ("fail" if auc_east < 0.6 else "inconclusive" if ci_east[0] < 0.6 else "pass")
    gaps = [r for r in rows if r["metric"] == "recall"]
    for r in gaps:
        gap = got["learners"]["a"]["slices"]["band"]["values"][r["slice_value"]]["gap"]["recall"]
        assert r["gap"] == gap and r["max_gap"] == 0.2
        # the value's Wilson interval (statsmodels), and the gap's: it less the whole population's recall
        m = c["band"] == int(r["slice_value"])
        y, pred = c["y"][m].astype(bool), c["p_a"][m] >= 0.5
        lo, hi = proportion_confint((y & pred).sum(), y.sum(), alpha=0.05, method="wilson")
        assert r["interval"] == [pytest.approx(lo, abs=1e-12), pytest.approx(hi, abs=1e-12)]
        whole = (c["y"].astype(bool) & (c["p_a"] >= 0.5)).sum() / c["y"].astype(bool).sum()
        assert r["gap_interval"] == [pytest.approx(lo - whole, abs=1e-12), pytest.approx(hi - whole, abs=1e-12)]
        widest = max(abs(lo - whole), abs(hi - whole))
        want = "fail" if abs(gap) > 0.2 else "inconclusive" if widest > 0.2 else "pass"
        assert r["outcome"] == want and r["passed"] == (want == "pass")
    # a per-value gate on a proportion: Wilson's interval of that value
    for r in (r for r in rows if r["metric"] == "precision"):
        m = c["band"] == int(r["slice_value"])
        pred = c["p_a"][m] >= 0.5
        lo, hi = proportion_confint((c["y"][m] & pred).sum(), pred.sum(), alpha=0.05, method="wilson")
        assert r["interval"] == [pytest.approx(lo, abs=1e-12), pytest.approx(hi, abs=1e-12)]
    parity = [r for r in rows if r["metric"] == "demographic_parity_difference"]
    assert [r["learner"] for r in parity] == ["a", "b"]
    p = got["learners"]["a"]["slices"]["region"]["parity"]["demographic_parity_difference"]
    assert parity[0] == {"learner": "a", "metric": "demographic_parity_difference", "slice": "region",
                         "value": p["value"], "between": p["between"], "too_small": ["isle"],
                         "interval": p["interval"], "max": 0.01, "outcome": "fail", "passed": False}
    err = capsys.readouterr().err
    assert (f"gate failed: a: demographic_parity_difference across region (between '{p['between'][0]}' and "
            f"'{p['between'][1]}') = {p['value']:.6g} [{p['interval'][0]:.6g}, {p['interval'][1]:.6g}] "
            "(needs max 0.01)") in err
    html = (tmp_path / "out" / "report.html").read_text()
    assert "a: demographic_parity_difference across region (between" in html


@pytest.mark.slow
def test_a_gate_on_a_too_small_value_is_not_evaluated(tmp_path):
    got, _ = _run(tmp_path, extra="gates:\n  - {learner: a, metric: auc, slice: region, min: 0.5}\n"
                                   "  - {learner: a, metric: recall, slice: region, max_gap: 0.5}\n")
    isle = got["learners"]["a"]["slices"]["region"]["values"]["isle"]
    pos = isle["positives"]
    note = (f"too small to compare: isle (n = 12, {pos} positive{'' if pos == 1 else 's'}); a value needs 10 "
            "positives and 10 negatives (confidence.slices_min)")
    rows = [r for r in got["gates"] if r["slice_value"] == "isle"]
    assert rows == [
        {"learner": "a", "metric": "auc", "slice": "region", "slice_value": "isle", "value": None,
         "interval": None, "min": 0.5, "outcome": "not_evaluated", "passed": False, "note": note},
        {"learner": "a", "metric": "recall", "slice": "region", "slice_value": "isle", "value": None,
         "gap": None, "interval": None, "gap_interval": None, "max_gap": 0.5, "outcome": "not_evaluated",
         "passed": False, "note": note}]
    assert f"gate auc of learner 'a' on slice region = 'isle' is not evaluated: {note}" in got["warnings"]
    # its measures are still in the slice's block
    assert isle["auc"] is not None and isle["gap"]["recall"] is not None
    # every other value is evaluated
    assert all("note" not in r and r["value"] is not None for r in got["gates"] if r["slice_value"] != "isle")


@pytest.mark.slow
def test_a_gate_on_an_undefined_slice_value_fails_with_a_warning(tmp_path):
    text, cols = _data(tiny=False)
    # a region of 10 positives and 10 negatives that nothing flags: its precision is undefined
    text += "".join(f"{i % 2},void,1,0.0{i % 5},0.0{i % 5}\n" for i in range(20))
    got, _ = _run(tmp_path, csv=(text, cols), status=3,
                  extra="gates:\n  - {learner: a, metric: precision, slice: region, min: 0.5}\n")
    void = [r for r in got["gates"] if r["slice_value"] == "void"]
    assert void == [{"learner": "a", "metric": "precision", "slice": "region", "slice_value": "void",
                     "value": None, "interval": None, "min": 0.5, "outcome": "not_evaluated", "passed": False}]
    assert ("gate precision of learner 'a' on slice region = 'void' is not evaluated: the value is undefined"
            in got["warnings"])


@pytest.mark.slow
def test_a_parity_gate_with_one_value_left_is_not_evaluated(tmp_path):
    """slices_min above every value but one: no difference, a note naming the values."""
    got, _ = _run(tmp_path, extra="gates:\n  - {learner: a, metric: equalized_odds_difference, slice: band, "
                                   "max: 0.5}\n", spec=SPEC.format(extra="gates:\n  - {learner: a, metric: "
                                   "equalized_odds_difference, slice: band, max: 0.5}\n").replace(
                                       "seed: 3}", "seed: 3, slices_min: 100000}"))
    block = got["learners"]["a"]["slices"]["band"]
    assert block["too_small"] == ["1", "2"]
    assert block["parity"]["equalized_odds_difference"] == {"value": None, "interval": None, "between": None,
                                                            "too_small": ["1", "2"]}
    (row,) = got["gates"]
    v = block["values"]
    assert row["value"] is None and row["interval"] is None and row["too_small"] == ["1", "2"]
    assert row["note"] == ("fewer than two values of band have 100000 positives and 100000 negatives; too small "
                           f"to compare: 1 (n = {v['1']['n']:,}, {v['1']['positives']} positives), "
                           f"2 (n = {v['2']['n']:,}, {v['2']['positives']} positives)")


# --- the spec's errors at their lines ------------------------------------------------

@pytest.mark.parametrize("extra, replace, message", [
    ("gates:\n  - {metric: auc, slice: regoin, min: 0.7}\n", None,
     "spec.yaml:12: gates[0].slice: unknown slice column 'regoin' (did you mean 'region'?); valid: region, band"),
    ("gates:\n  - {metric: recall, max_gap: 0.1}\n", None,
     "spec.yaml:12: gates[0].max_gap: max_gap bounds each slice value's gap to the whole population: give the "
     "slice column (slice: <column>); slices named: region, band"),
    ("gates:\n  - {metric: equalized_odds_difference, max: 0.1}\n", None,
     "spec.yaml:12: gates[0].metric: equalized_odds_difference is a difference across the values of a slice "
     "column: give the column (slice: <column>); slices named: region, band"),
    ("gates:\n  - {metric: equalized_odds_difference, slice: region, max_gap: 0.1}\n", None,
     "spec.yaml:12: gates[0].max_gap: equalized_odds_difference is already a difference across the values: "
     "bound it with max (max_gap bounds a measure's gap to the whole population)"),
    ("gates:\n  - {metric: auc, slice: region}\n", None,
     "spec.yaml:12: gates[0]: a gate needs min or max or max_gap"),
    ("", ("slices: [region, band]", "slices: [region, region]"),
     "spec.yaml:6: data[0].slices[1]: column 'region' is named twice in slices"),
    ("", ("    label: y\n", "    label: y\n    engine: duckdb\n"),
     "spec.yaml:7: data[0].slices: slices need engine: memory (engine duckdb aggregates the count tables "
     "where the data lives, without the slices)"),
    ("", ("slices: [region, band]", "slices: [regoin]"),
     "spec.yaml:6: data[0].slices[0]: column 'regoin' is not in pred.csv (columns: y, region, band, p_a, p_b) "
     "(did you mean 'region'?)"),
])
def test_spec_errors_at_their_lines(tmp_path, monkeypatch, capsys, extra, replace, message):
    monkeypatch.chdir(tmp_path)
    text = SPEC.format(extra=extra)
    if replace:
        text = text.replace(*replace)
    (tmp_path / "pred.csv").write_text(_data()[0])
    (tmp_path / "spec.yaml").write_text(text)
    assert main(["run", "spec.yaml", "--quiet"]) == 2
    assert capsys.readouterr().err.strip() == f"error: {message}"
    assert not (tmp_path / "out").exists()


def test_a_gate_slice_missing_from_the_learners_data_entry(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    text = textwrap.dedent("""\
        version: 1
        data:
          - {path: pred.csv, label: y, dataset: one, slices: [region], learners: {a: p_a}}
          - {path: pred.csv, label: y, dataset: two, slices: [band], learners: {a: p_a}}
        gates:
          - {metric: auc, slice: region, min: 0.5}
        """)
    (tmp_path / "pred.csv").write_text(_data()[0])
    (tmp_path / "spec.yaml").write_text(text)
    assert main(["validate", "spec.yaml"]) == 2
    assert capsys.readouterr().err.strip() == (
        "error: spec.yaml:6: gates[0].slice: the gate applies to learner 'a' of data[1], whose slices do not "
        "include 'region'; add it there or name the gate's learner")


def test_a_missing_slice_value_is_an_error_at_its_row(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    text, _ = _data()
    lines = text.splitlines()
    lines[5] = lines[5].replace(lines[5].split(",")[1], "", 1)
    (tmp_path / "pred.csv").write_text("\n".join(lines) + "\n")
    (tmp_path / "spec.yaml").write_text(SPEC.format(extra=""))
    assert main(["run", "spec.yaml", "--quiet"]) == 2
    assert capsys.readouterr().err.strip() == (
        "error: spec.yaml:6: data[0].slices[0]: pred.csv: column 'region', row 5: missing slice value (empty); "
        "fill the missing values (e.g. with 'unknown') to make them a slice of their own")


def test_slices_in_a_multiclass_task_are_refused(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    text = textwrap.dedent("""\
        version: 1
        task: multiclass
        classes: [a, b, c]
        data:
          - path: pred.csv
            label: y
            slices: [region]
            learners: {m: [pa, pb, pc]}
        """)
    (tmp_path / "pred.csv").write_text("y,region,pa,pb,pc\na,x,0.5,0.3,0.2\n")
    (tmp_path / "spec.yaml").write_text(text)
    assert main(["validate", "spec.yaml"]) == 2
    assert capsys.readouterr().err.strip() == (
        "error: spec.yaml:7: data[0].slices: slices apply to binary tasks in this version")


# --- the report ----------------------------------------------------------------------

@pytest.mark.slow
def test_the_report_shows_the_slices(default_run):
    html = (default_run[2] / "out" / "report.html").read_text()
    assert "7. Subgroup slices" in html and "8. Warnings" in html and "9. Appendix" in html
    assert "<caption>" in html and "</span>a</span> by region</caption>" in html.replace(
        '<span class="learner">', "</span>")
    assert '<span class="small-tag">too small</span>' in html
    assert "Parity across region (0.95 bootstrap intervals, 200 resamples): demographic parity difference" in html
    assert "demographic parity difference" in html and "equalized odds difference" in html


@pytest.mark.slow
def test_no_slices_no_section(tmp_path):
    spec = SPEC.format(extra="").replace("    slices: [region, band]\n", "")
    _run(tmp_path, spec=spec, status=0)
    html = (tmp_path / "out" / "report.html").read_text()
    assert "Subgroup slices" not in html.split("Appendix")[0] and "7. Warnings" in html
    got = json.loads((tmp_path / "out" / "results.json").read_text())
    assert "slices" not in got["learners"]["a"]


def test_a_slice_inherits_nothing_of_the_whole_population(tmp_path, monkeypatch):
    """A slice's result is built afresh: every field it does not fill (intervals, groups,
    the population of the priors, and any field a later measure adds) is at its default,
    so a measure read off it is undefined in the slice, never the whole's value."""
    import dataclasses

    from evalreport import load_spec
    from evalreport.pipeline import evaluate

    text, _ = _data()
    (tmp_path / "pred.csv").write_text(text)
    (tmp_path / "spec.yaml").write_text(SPEC.format(extra="").replace("threshold: 0.5\n",
                                                                     "threshold: 0.5\npriors: {positive: 0.2}\n"))
    result = evaluate(load_spec(tmp_path / "spec.yaml"))
    whole = result.learners["a"]
    assert whole.population is not None and whole.bootstrap
    sub = whole.slices["region"].values[0].learner
    filled = {"name", "key", "dataset", "source", "hard", "threshold", "threshold_source", "summary", "curves",
              "at_threshold", "operating", "partial_auc", "pc_positive", "values", "ks", "calibration"}
    for f in dataclasses.fields(sub):
        if f.name not in filled:
            default = f.default if f.default is not dataclasses.MISSING else f.default_factory()
            assert getattr(sub, f.name) == default, f.name


@pytest.mark.slow
def test_a_learner_of_hard_decisions_has_slices_without_curve_measures(tmp_path):
    from sklearn.metrics import recall_score

    text, c = _data()
    lines = text.splitlines()
    lines = [lines[0] + ",d"] + [f"{row},{int(float(row.split(',')[3]) >= 0.5)}" for row in lines[1:]]
    spec = SPEC.format(extra="").replace("{a: p_a, b: p_b}", "{a: p_a, h: {predicted: d}}")
    got, _ = _run(tmp_path, csv=("\n".join(lines) + "\n", c), spec=spec, status=0)
    for value, v in got["learners"]["h"]["slices"]["region"]["values"].items():
        m = c["region"] == value
        assert v["auc"] is None and v["gap"]["auc"] is None and v["bep"] is None
        assert v["recall"] == pytest.approx(recall_score(c["y"][m], c["p_a"][m] >= 0.5), abs=1e-12)
        assert v == {**got["learners"]["a"]["slices"]["region"]["values"][value], **{
            k: v[k] for k in ("auc", "ks", "gini", "brier", "log_loss", "ece", "rank_loss", "average_precision", "bep", "expected_total_cost", "min_cost",
                              "cost_at_threshold", "gap")},
            # hard decisions: no AUC, so no DeLong interval; the proportions' are the same
            "intervals": {**got["learners"]["a"]["slices"]["region"]["values"][value]["intervals"], "auc": None}}
