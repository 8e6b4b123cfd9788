"""Page counts of the examples' PDFs against issue 21's targets: watermelon in at
most four pages, breast_cancer (four learners) in at most six. Not reached yet
(10 and 14 pages after the print-CSS work, from 13 and 19; breast_cancer 15 once
its ROC figure gained the log-FPR panel): the targets stay stated here as expected
failures until the page work is done; a ceiling keeps what was gained."""

from __future__ import annotations

from pathlib import Path

import pytest

from evalreport.__main__ import main

ROOT = Path(__file__).resolve().parents[1]

# example -> (the target, the count reached so far: it must not grow back)
PAGES = {"watermelon": (4, 5), "breast_cancer": (6, 7)}


@pytest.fixture(scope="module", params=sorted(PAGES))
def pages(request, tmp_path_factory):
    from pypdf import PdfReader

    out = tmp_path_factory.mktemp(request.param)
    spec = ROOT / "examples" / request.param / "spec.yaml"
    assert main(["run", str(spec), "--out", str(out), "--format", "pdf", "--quiet"]) in (0, 3)
    return request.param, len(PdfReader(out / "report.pdf").pages)


def test_pages_not_more_than_reached(pages):
    example, count = pages
    assert count <= PAGES[example][1]


@pytest.mark.xfail(reason="issue 21 target: watermelon <= 4 pages, breast_cancer <= 6", strict=False)
def test_pages_within_the_issue_21_target(pages):
    example, count = pages
    assert count <= PAGES[example][0]
