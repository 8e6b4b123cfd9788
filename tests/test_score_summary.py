"""The score summary and DeLong's variance that results.json keeps for later runs
(metrics.score_summary), read off the count table: against numpy's weighted
inverted-CDF quantiles, the distinct scores themselves, and compare.stats."""

import numpy as np
import pytest

from evalreport.compare.stats import delong_auc
from evalreport.counting.build import count_table_and_positive_rows
from evalreport.metrics.score_summary import PROBABILITIES, delong_variance, score_summary
from evalreport.counting.table import UnitStepTable


def _check(table, y, s, w=None):
    summary = score_summary(table)
    for cls, mask in (("positive", y), ("negative", ~y)):
        c = summary[cls]
        ww = np.ones(mask.sum()) if w is None else w[mask]
        distinct = np.unique(s[mask])
        if distinct.size <= 1000:
            assert c.kind == "values"
            assert np.array_equal(c.values, distinct)
            assert np.allclose(c.weights, [ww[s[mask] == v].sum() for v in distinct])
        else:
            assert c.kind == "quantiles"
            assert c.probabilities.size == 1001 and c.weight == pytest.approx(ww.sum())
            ref = np.quantile(s[mask], PROBABILITIES, weights=ww, method="inverted_cdf")
            assert np.array_equal(c.values, ref)
    return summary


@pytest.mark.parametrize("n, decimals, weighted", [
    (40, None, False), (3000, None, False), (3000, 1, False), (5000, 2, True), (2500, None, True)])
def test_summary_matches_numpy(n, decimals, weighted):
    rng = np.random.default_rng(n)
    y = rng.random(n) < 0.4
    s = rng.normal(size=n) + y
    if decimals is not None:
        s = np.round(s, decimals)
    w = rng.integers(1, 5, n).astype(float) if weighted else None
    _check(count_table_and_positive_rows(y, s, sample_weight=w)[0], y, s, w)


@pytest.mark.parametrize("n, kw", [(3000, {"keep_keys": True}), (3000, {"rates": True}), (700, {"keep_keys": True})])
def test_summary_of_unit_step_tables(n, kw):
    """Tables of one instance per row, whose columns are formed lazily: read by bisection."""
    rng = np.random.default_rng(7)
    y = rng.random(n) < 0.3
    s = rng.random(n) + y
    table = count_table_and_positive_rows(y, s, **kw)[0]
    assert isinstance(table, UnitStepTable)
    summary = _check(table, y, s)
    assert summary["positive"].kind == "values"  # fewer than 1,001 positives


def test_empty_class_has_no_summary():
    y = np.array([True, True, True])
    table = count_table_and_positive_rows(y, np.array([0.1, 0.5, 0.9]))[0]
    assert score_summary(table)["negative"] is None
    assert delong_variance(table) is None


@pytest.mark.parametrize("decimals", [None, 1])
def test_delong_variance_from_counts_equals_components(decimals):
    rng = np.random.default_rng(3)
    y = rng.random(2000) < 0.35
    s = rng.normal(size=2000) + y
    if decimals is not None:
        s = np.round(s, decimals)
    table = count_table_and_positive_rows(y, s)[0]
    assert delong_variance(table) == pytest.approx(delong_auc(y, s).se ** 2, rel=1e-12)


def test_delong_variance_undefined_with_weights():
    y = np.array([True, False, True, False])
    table = count_table_and_positive_rows(y, np.array([0.9, 0.1, 0.4, 0.5]), sample_weight=np.ones(4) * 2)[0]
    assert delong_variance(table) is None


def test_delong_variance_in_chunks(monkeypatch):
    """Summed chunk by chunk (a chunk far smaller than the table): the same variance."""
    import evalreport.metrics.score_summary as module

    rng = np.random.default_rng(4)
    y = rng.random(3000) < 0.3
    s = np.round(rng.normal(size=3000) + y, 2)
    table = count_table_and_positive_rows(y, s)[0]
    whole = delong_variance(table)
    monkeypatch.setattr(module, "_CHUNK", 7)
    assert delong_variance(table) == pytest.approx(whole, rel=1e-12)
    assert whole == pytest.approx(delong_auc(y, s).se ** 2, rel=1e-12)
