"""Issue 33, item 9: page one's headline table gives the population's measures
with their intervals when the spec gives priors, and names the sample's share once
without; elsewhere the measures at the sample's share are labelled so."""

from __future__ import annotations

from html import unescape

import numpy as np
import pytest

import evalreport
from evalreport.report.context import report_context
from evalreport.report.html import render_html


def _spec(tmp_path, priors: bool):
    rng = np.random.default_rng(9)
    y = np.array([1] * 60 + [0] * 90)  # the sample: 40 % positive
    a = np.round(rng.normal(y * 1.4, 1.0), 2)
    (tmp_path / "p.csv").write_text("y,a\n" + "\n".join(f"{yi},{float(ai)!r}" for yi, ai in zip(y, a)) + "\n")
    (tmp_path / "spec.yaml").write_text(
        "version: 1\ndate: 2026-11-25\ndata:\n  - {path: p.csv, label: y, learners: {a: a}}\n"
        "threshold: 0.5\n" + ("priors: {positive: 0.05}\n" if priors else "")
        + "confidence: {level: 0.9, bootstrap: 200, seed: 2}\n"
        "report: {formats: [json], out: out}\n")
    return evalreport.evaluate(evalreport.load_spec(tmp_path / "spec.yaml")), y, a


@pytest.mark.slow
def test_with_priors_page_one_gives_the_population_with_intervals(tmp_path):
    result, y, a = _spec(tmp_path, priors=True)
    ctx = report_context(result)
    head = ctx.verdict.headline
    labels = [c.label for c in head.columns]
    assert "precision, p(+) = 0.05" in labels and "F1, p(+) = 0.05" in labels
    assert "F1 at the threshold" not in labels  # the sample's F1 is not page one's
    assert "in the population, p(+) = 0.05" in head.caption
    assert "the sample's share of positives is 0.40" in head.caption
    # by hand: TPR and FPR at 0.5 reweighted to p = 0.05
    tpr = np.mean(a[y == 1] >= 0.5)
    fpr = np.mean(a[y == 0] >= 0.5)
    precision = 0.05 * tpr / (0.05 * tpr + 0.95 * fpr)
    cell = head.rows[0].cells[labels.index("precision, p(+) = 0.05")]
    low, high = result.learners["a"].population.intervals["precision"]
    assert cell.text == f"{precision:.4f} [{low:.4f}, {high:.4f}]"  # a table: 4 decimals
    assert low < precision < high
    # the threshold column prints the threshold's one text
    assert head.rows[0].cells[labels.index("threshold")].text == "0.500"
    # elsewhere, the sample's measures say whose share they are at
    assert ctx.sample_label == "(sample: 40.0% positive)"
    html = unescape(render_html(result))
    assert "Precision (sample: 40.0% positive), not the population's." in html  # the P-R caption
    assert "Cumulative gains and lift by decile (sample: 40.0% positive)" in html


@pytest.mark.slow
def test_without_priors_the_sample_share_is_named_once(tmp_path):
    result, y, _ = _spec(tmp_path, priors=False)
    ctx = report_context(result)
    head = ctx.verdict.headline
    assert head.caption == f"Measures at the sample's share of positives, {y.mean():.2f}."
    assert "F1 at the threshold" in [c.label for c in head.columns]
    assert ctx.sample_label == ""
    assert "(sample:" not in render_html(result)
