"""The report's text as a reader sees it: sentences not glued by template joins,
notes only where they apply, the class balance once per file."""

from __future__ import annotations

import html
import re

import pytest


@pytest.fixture(scope="module")
def breast_cancer_html(example_report) -> str:
    return example_report("breast_cancer", ["html"]).text("report.html")  # once a session: tests/conftest.py


def _paragraphs(page: str) -> list[str]:
    """The text of each <p> and <li>, tags dropped, entities decoded."""
    page = re.sub(r"<svg.*?</svg>", "", page, flags=re.S)
    found = re.findall(r"<(p|li)\b[^>]*>(.*?)</\1>", page, flags=re.S)
    return [html.unescape(re.sub(r"<[^>]+>", "", body)) for _, body in found]


@pytest.mark.slow
def test_assumption_sentences_are_separated(breast_cancer_html):
    note = next(p for p in _paragraphs(breast_cancer_html) if p.startswith("Assumptions."))
    assert "intervals at level 0.95. McNemar: paired decisions" in note
    assert "second right). Each data set's pairs" in note
    assert "adjusted p-value. Bootstrap intervals" in note
    # no sentence glued to the next anywhere in the report's paragraphs
    glued = [m.group(0) for p in _paragraphs(breast_cancer_html)
             for m in re.finditer(r"[a-z0-9)]\.[A-Z][a-z]+", p)]
    assert glued == []


def test_infinite_threshold_note_only_when_one_is_shown(breast_cancer_html):
    # breast_cancer's envelope thresholds are all finite (0.527 down to 0.375, 0.33, 0.1378)
    envelope = breast_cancer_html[breast_cancer_html.index('<table class="envelope">'):]
    assert "+inf" not in envelope[:envelope.index("</table>")]
    assert "predicts nothing positive" not in breast_cancer_html


@pytest.mark.slow
def test_infinite_threshold_note_when_the_envelope_has_one(example_report):
    # watermelon: learner A's run on the envelope starts at the trivial classifier, +inf
    page = example_report("watermelon", ["html"]).text("report.html")
    envelope = page[page.index('<table class="envelope">'):]
    envelope = envelope[:envelope.index("</table>")]
    assert ">+inf down to 0.300 (3 thresholds)<" in envelope  # the threshold's one text: 3 significant digits
    assert "A threshold of +inf predicts nothing positive (the trivial classifier)." in page


def test_class_balance_once_per_file(breast_cancer_html):
    table = breast_cancer_html[breast_cancer_html.index('<table class="balance">'):]
    table = table[:table.index("</table>")]
    rows = re.findall(r"<tr>(.*?)</tr>", table, flags=re.S)[1:]
    cells = [[html.unescape(re.sub(r"<[^>]+>", "", c)) for c in re.findall(r"<td[^>]*>(.*?)</td>", r)]
             for r in rows]
    assert cells == [["predictions.csv", "logistic, tree, bayes, forest", "85", "143", "0.3728"]]  # 85 / 228, a table: 4 decimals


def test_appendix_defines_the_tests_and_partial_auc_it_shows(breast_cancer_html):
    appendix = breast_cancer_html[breast_cancer_html.index('<section id="appendix"'):]
    for shown, term in (("partial AUC (FPR", "partial AUC"), ("DeLong (paired, AUC)", "DeLong&#39;s test"),
                        ("McNemar (decisions)", "McNemar&#39;s test")):
        assert shown in breast_cancer_html
        assert f"<dt>{term}</dt>" in appendix
