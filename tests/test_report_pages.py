"""Page counts of the examples' PDFs against issue 21's targets, both reached:
watermelon in at most four pages (13 at first), breast_cancer (four learners) in at
most six (19 at first). What got there: the PDF prints a one-line glossary (the
HTML the full definitions), curves three across for a few learners, rankings that
agree and envelopments that the sentences already state said once, the tests of a
few pairs one line each."""

from __future__ import annotations

from pathlib import Path

import pytest

from evalreport.__main__ import main

ROOT = Path(__file__).resolve().parents[1]

# example -> issue 21's target (reached: it must not grow back; issue 34 brought breast_cancer
# back to 6 after issue 33's page one had taken it to 8)
PAGES = {"watermelon": 4, "breast_cancer": 6}


@pytest.fixture(scope="module", params=sorted(PAGES))
def pages(request, tmp_path_factory):
    from pypdf import PdfReader

    out = tmp_path_factory.mktemp(request.param)
    spec = ROOT / "examples" / request.param / "spec.yaml"
    assert main(["run", str(spec), "--out", str(out), "--format", "pdf", "--quiet"]) in (0, 3)
    return request.param, len(PdfReader(out / "report.pdf").pages)


@pytest.mark.slow
def test_pages_within_the_issue_21_target(pages):
    example, count = pages
    assert count <= PAGES[example]
