"""Page counts of the examples' PDFs against issue 21's targets, both reached:
watermelon in at most four pages (13 at first), breast_cancer (four learners) in at
most six (19 at first). What got there: the PDF prints a one-line glossary (the
HTML the full definitions), curves three across for a few learners, rankings that
agree and envelopments that the sentences already state said once, the tests of a
few pairs one line each."""

from __future__ import annotations

import pytest


# example -> issue 21's target (reached: it must not grow back; issue 34 brought breast_cancer
# back to 6 after issue 33's page one had taken it to 8)
PAGES = {"watermelon": 4, "breast_cancer": 6}


@pytest.fixture(scope="module", params=sorted(PAGES))
def pages(request, example_report):
    from pypdf import PdfReader

    report = example_report(request.param, ["pdf"])  # rendered once a session: tests/conftest.py
    assert report.status in (0, 3)
    return request.param, len(PdfReader(report.out / "report.pdf").pages)


@pytest.mark.slow
def test_pages_within_the_issue_21_target(pages):
    example, count = pages
    assert count <= PAGES[example]
