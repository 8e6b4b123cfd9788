"""The appendix defines what the report shows, not every measure of the task."""

from __future__ import annotations

import pytest

from evalreport import registry
from evalreport.report.appendix import definitions, shown_measures
from specs import BASE


CSV = "id,y,p_a,p_b\n" + "\n".join(
    f"{i},{i % 2},{(i * 7 % 10) / 10},{(i * 3 % 10) / 10}" for i in range(1, 41)) + "\n"


def _evaluate(tmp_path, extra: str = ""):
    from evalreport.pipeline import evaluate
    from evalreport.spec.loading import parse_spec

    (tmp_path / "pred.csv").write_text(CSV)
    return evaluate(parse_spec(BASE + extra, base_dir=tmp_path))


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    return _evaluate(tmp_path_factory.mktemp("appendix"))


@pytest.mark.slow
def test_measures_the_report_has_no_place_for_are_left_out(results):
    shown = shown_measures(results)
    # no slices, no groups, no priors, no thresholds: their definitions would describe nothing
    for name in ("slices", "demographic_parity_difference", "macro", "micro", "population",
                 "threshold_table", "paired_t", "friedman"):
        assert name not in shown, name
    for name in ("auc", "precision", "roc", "cost_curve", "envelopment", "delong", "mcnemar", "gains"):
        assert name in shown, name
    labels = definitions(results)
    assert registry.get("auc").label in labels
    assert registry.get("demographic_parity_difference").label not in labels
    # the terms are always there
    assert all(t.name in labels for t in registry.TERMS if "binary" in t.tasks)


def test_a_metrics_list_narrows_the_appendix(tmp_path):
    result = _evaluate(tmp_path, "metrics: [auc, roc]\ncompare: [delong]\n")
    shown = shown_measures(result)
    assert {"auc", "roc", "delong"} <= shown
    assert not shown & {"precision", "f1", "mcnemar", "envelopment", "brier"}
