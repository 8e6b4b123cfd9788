"""The comparisons section says each thing once (issue 21's page targets): a
ranking every measure agrees on is a sentence, not a table of identical rows;
two learners get no two-by-two envelopment table beside the sentence that says
it; the tests of a few pairs print one line a pair, the numbers in columns."""

from __future__ import annotations

import dataclasses
import html
import re
from pathlib import Path

import pytest

from evalreport.pipeline import evaluate
from evalreport.report.html import render_html
from evalreport.report.page import Ranking
from evalreport.report.verdicts import AgreedRanking, agreed_ranking
from evalreport.spec import load_spec

ROOT = Path(__file__).resolve().parents[1]


def _section(page: str, name: str) -> str:
    start = page.index(f'<section id="{name}"')
    return page[start:page.index("</section>", start)]


# the examples' report.html, rendered once a session (tests/conftest.py)
@pytest.fixture(scope="module")
def watermelon(example_report) -> str:
    return _section(example_report("watermelon", ["html"]).text("report.html"), "comparisons")


@pytest.fixture(scope="module")
def breast_cancer(example_report) -> str:
    return _section(example_report("breast_cancer", ["html"]).text("report.html"), "comparisons")


def test_agreed_ranking_is_one_order_of_one_data_set():
    rows = [Ranking("", m, "A > B") for m in ("AUC", "F1", "BEP")]
    assert agreed_ranking(rows) == AgreedRanking("A > B", "AUC, F1 and BEP",
                                                 "These are orders of point values, not tested differences.")
    assert agreed_ranking(rows[:2] + [Ranking("", "BEP", "B > A")]) is None
    assert agreed_ranking([dataclasses.replace(r, dataset="d1") for r in rows]) is None
    assert agreed_ranking([]) is None


@pytest.mark.slow
def test_rankings_that_agree_are_a_sentence(watermelon):
    text = html.unescape(re.sub(r"<[^>]+>", "", watermelon))
    assert ("Every measure (AUC, BEP, F1, expected total cost and least cost over all thresholds) ranks the "
            "learners alike, best first: A > B. These are orders of point values, not tested differences.") in text
    assert 'class="rankings"' not in watermelon


@pytest.mark.slow
def test_rankings_that_disagree_keep_their_table(breast_cancer):
    assert 'class="rankings"' in breast_cancer and "The rankings disagree" in breast_cancer


def test_no_envelopment_table_where_the_sentences_say_every_pair(watermelon, breast_cancer):
    assert "A&#39;s ROC curve envelops B&#39;s" in watermelon
    # breast_cancer: three pairs envelop, three cross, each said with its intervals
    assert breast_cancer.count("ROC curves cross, so neither is better") == 3
    for page in (watermelon, breast_cancer):
        assert 'class="matrix"' not in page and "Envelopment is exact" in page


@pytest.mark.slow
def test_an_envelopment_table_where_pairs_are_left_unsaid(monkeypatch):
    from evalreport.report import binary

    result = evaluate(load_spec(str(ROOT / "examples" / "breast_cancer" / "spec.yaml")))
    monkeypatch.setattr(binary, "CROSSINGS_SAID", 2)  # three pairs cross: one left unsaid
    page = _section(render_html(result), "comparisons")
    assert page.count("ROC curves cross, so neither is better") == 2
    assert "1 more pair of ROC curves crosses (the envelopment matrix below" in page
    assert 'class="matrix"' in page and "<td>crosses</td>" in page


def test_tests_of_a_few_pairs_are_one_line_each_in_columns(breast_cancer):
    table = breast_cancer[breast_cancer.index('<table class="tests"'):]
    table = table[:table.index("</table>")]
    rows = re.findall(r"<tr><td class=\"nowrap\">logistic vs tree</td>(.*?)</tr>", table, flags=re.S)
    assert len(rows) == 1
    cells = [html.unescape(re.sub(r"<[^>]+>", "", c)) for c in re.findall(r"<td[^>]*>(.*?)</td>", rows[0])]
    # DeLong: the difference and its interval, z, p, Holm p; McNemar: e01, e10, the test, p, Holm p
    assert len(cells) == 9
    assert cells[0].startswith("+0.04") and "[" in cells[0]
    assert cells[4:7] == ["4", "18", "exact"]
    for header in ("ΔAUC [interval]", "e01", "e10", "Holm p"):
        assert header in html.unescape(table)


@pytest.mark.slow
def test_page_one_of_many_runs_names_a_few_and_counts_the_rest(example_report):
    from evalreport.report.verdicts import DEPLOYED_SHOWN, DISAGREEMENTS_SHOWN, SUGGESTIONS_SHOWN

    page = example_report("experiment_runs", ["html"]).text("report.html")
    verdict = html.unescape(re.sub(r"<[^>]+>", "", _section(page, "verdict")))
    # twenty learners: page one names a few of them at their deployed thresholds and counts the rest
    named = [line for line in verdict.splitlines() if "(the spec's threshold)" in line]
    assert len(named) <= DEPLOYED_SHOWN
    assert any(line.strip().startswith(f"{20 - len(named)} more: ") for line in verdict.splitlines())
    suggestions = next(line for line in verdict.splitlines() if "Suggestions" in line)
    assert suggestions.count("(tuned on the data judged)") == SUGGESTIONS_SHOWN and "16 more in results.json" in suggestions
    disagree = next(line for line in verdict.splitlines() if "The rankings disagree" in line)
    assert disagree.count(" above ") == 2 * DISAGREEMENTS_SHOWN and "more pairs (results.json lists them)" in disagree
