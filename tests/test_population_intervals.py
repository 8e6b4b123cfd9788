"""Issue 33, item 9: the population's measures carry percentile-bootstrap
intervals, from the stratified resamples: checked against a plain-NumPy bootstrap
written here (the same random stream: per resample, the positives' and the
negatives' indices drawn with replacement), with the measures reweighted by hand."""

from __future__ import annotations

import numpy as np
import pytest

import evalreport
from evalreport.compare.stats import bootstrap_intervals, population_at
from evalreport.metrics.population import MEASURES
from evalreport.results import result_dict


def _by_hand(tp, fp, m_pos, m_neg, p, c_fn, c_fp) -> dict:
    """Every positive weighs p / m+, every negative (1 - p) / m-; NaN where undefined."""
    TP, FN = tp * p / m_pos, (m_pos - tp) * p / m_pos
    FP, TN = fp * (1 - p) / m_neg, (m_neg - fp) * (1 - p) / m_neg
    with np.errstate(invalid="ignore", divide="ignore"):
        return {"precision": np.where(TP + FP > 0, TP / (TP + FP), np.nan),
                "npv": np.where(TN + FN > 0, TN / (TN + FN), np.nan),
                "accuracy": TP + TN, "error_rate": FP + FN,
                "f1": np.where(2 * TP + FP + FN > 0, 2 * TP / (2 * TP + FP + FN), np.nan),
                "cost_sensitive_error": c_fn * FN + c_fp * FP}


def _numpy_bootstrap(y, s, t, p, c_fn, c_fp, b, seed, level) -> dict:
    rng = np.random.Generator(np.random.PCG64(seed))
    pos, neg = s[y], s[~y]
    dp = rng.integers(0, pos.size, (b, pos.size))  # all resamples' positives, then negatives
    dn = rng.integers(0, neg.size, (b, neg.size))
    tp = (pos[dp] >= t).sum(axis=1).astype(float)
    fp = (neg[dn] >= t).sum(axis=1).astype(float)
    values = _by_hand(tp, fp, pos.size, neg.size, p, c_fn, c_fp)
    q = [(1 - level) / 2, (1 + level) / 2]
    out = {}
    for k, v in values.items():
        v = v[~np.isnan(v)]
        out[k] = tuple(np.quantile(v, q)) if v.size else (None, None)
    return out


@pytest.mark.parametrize("seed", [0, 7, 33])
def test_population_intervals_are_a_numpy_stratified_bootstrap(seed):
    rng = np.random.default_rng(seed)
    n = 80
    y = rng.random(n) < 0.35
    s = np.round(rng.normal(y * 1.2, 1.0), 1)  # rounded: ties across the threshold
    t, p, c_fn, c_fp, b, level = 0.6, 0.05, 20.0, 1.0, 400, 0.9
    got = bootstrap_intervals(y, s, statistics={m: population_at(t, m, p, c_fn, c_fp) for m in MEASURES},
                              n_resamples=b, seed=seed, level=level)
    want = _numpy_bootstrap(y, s, t, p, c_fn, c_fp, b, seed, level)
    for m in MEASURES:
        assert got[m].low == pytest.approx(want[m][0], rel=1e-12, abs=1e-15), m
        assert got[m].high == pytest.approx(want[m][1], rel=1e-12, abs=1e-15), m


def test_precision_undefined_in_some_resamples_is_left_out():
    # one positive above the threshold and no negative: a resample may draw no
    # positive above it, and then nothing is predicted positive (precision undefined)
    y = np.array([True, False, False, True, False, True])
    s = np.array([0.9, 0.1, 0.2, 0.3, 0.4, 0.2])
    got = bootstrap_intervals(y, s, statistics={"precision": population_at(0.8, "precision", 0.1)},
                              n_resamples=300, seed=3, level=0.95)
    want = _numpy_bootstrap(y, s, 0.8, 0.1, 1.0, 1.0, 300, 3, 0.95)
    assert (got["precision"].low, got["precision"].high) == pytest.approx(want["precision"])
    assert got["precision"].low == 1.0  # every defined resample: only positives flagged


def _spec(tmp_path, bootstrap: int, priors: bool = True) -> object:
    rng = np.random.default_rng(5)
    y = rng.random(120) < 0.4
    a = np.round(rng.normal(y * 1.5, 1.0), 2)
    (tmp_path / "p.csv").write_text("y,a\n" + "\n".join(f"{int(yi)},{float(ai)!r}" for yi, ai in zip(y, a)) + "\n")
    (tmp_path / "spec.yaml").write_text(
        "version: 1\ndate: 2026-11-25\ndata:\n  - {path: p.csv, label: y, learners: {a: a}}\n"
        "threshold: 0.5\n" + ("priors: {positive: 0.1}\n" if priors else "")
        + "costs: {false_negative: 5, false_positive: 1}\n"
        f"confidence: {{level: 0.95, bootstrap: {bootstrap}, seed: 11}}\n"
        "report: {formats: [json], out: out}\n")
    return evalreport.load_spec(tmp_path / "spec.yaml"), y, a


@pytest.mark.slow
def test_results_json_population_intervals_from_the_spec(tmp_path):
    spec, y, a = _spec(tmp_path, 300)
    result = evalreport.evaluate(spec)
    block = result_dict(result)["learners"]["a"]["population"]
    want = _numpy_bootstrap(y, a.astype(float), 0.5, 0.1, 5.0, 1.0, 300, 11, 0.95)
    assert set(block["intervals"]) == set(MEASURES)
    for m in MEASURES:
        low, high = block["intervals"][m]
        assert (low, high) == pytest.approx(want[m], rel=1e-12), m
        assert low <= block[m] <= high, m  # the point estimate inside its interval here
    # the sample's own bootstrap block is unchanged: no population entries in it
    assert not any(k.startswith("population") for k in result_dict(result)["learners"]["a"]["bootstrap"])


def test_without_resamples_the_intervals_are_null_with_a_warning(tmp_path):
    spec, _, _ = _spec(tmp_path, 0)
    result = evalreport.evaluate(spec)
    d = result_dict(result)
    assert d["learners"]["a"]["population"]["intervals"] is None
    assert any("population of the priors have no intervals: confidence.bootstrap is 0" in w
               for w in d["warnings"])


def test_without_priors_no_population_block(tmp_path):
    spec, _, _ = _spec(tmp_path, 50, priors=False)
    d = result_dict(evalreport.evaluate(spec))
    assert "population" not in d["learners"]["a"]
