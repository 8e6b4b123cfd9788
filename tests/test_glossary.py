"""The PDF's glossary (evalreport/glossary.py): a line for every measure, and the
PDF prints it where the HTML prints the full definitions."""

from __future__ import annotations

from evalreport import registry
from evalreport.glossary import BRIEF


def test_every_measure_has_a_line_and_no_line_names_a_lost_measure():
    assert set(BRIEF) == set(registry.MEASURES)


def test_the_lines_are_short_and_end_as_sentences():
    for name, line in BRIEF.items():
        assert len(line) <= 80, name
        assert line.endswith("."), name


def test_pdf_html_prints_the_glossary_and_html_the_full_text(tmp_path):
    from evalreport.pipeline import evaluate
    from evalreport.report.html import render_html
    from evalreport.spec import load_spec

    (tmp_path / "p.csv").write_text("y,s\n1,0.9\n0,0.8\n1,0.7\n0,0.2\n1,0.6\n0,0.1\n")
    spec = load_spec({"version": 1, "task": "binary", "positive": 1, "confidence": {"bootstrap": 0},
                      "data": [{"path": str(tmp_path / "p.csv"), "label": "y", "learners": {"m": "s"}}]})
    result = evaluate(spec)
    full, for_pdf = render_html(result), render_html(result, attachments=True)
    appendix = lambda html: html[html.index('<section id="appendix"'):]  # noqa: E731
    assert f"<dd>{BRIEF['auc']}</dd>" in appendix(for_pdf)
    assert f"<dd>{BRIEF['auc']}</dd>" not in appendix(full)
    assert "ties counting 1/2; multi-class: the mean of the one-vs-rest AUCs" in appendix(full)
    assert "ties counting 1/2; multi-class" not in appendix(for_pdf)
