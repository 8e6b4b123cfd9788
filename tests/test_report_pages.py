"""Page counts of the examples' PDFs against issue 21's targets: watermelon in at
most four pages (reached: 13 at first, then 10, 6, 5; four since the PDF prints a
glossary, the curves go three across and agreeing rankings are a sentence),
breast_cancer (four learners) in at most six (7 now, from 19: stated as an
expected failure until it is reached); a ceiling keeps what was gained."""

from __future__ import annotations

from pathlib import Path

import pytest

from evalreport.__main__ import main

ROOT = Path(__file__).resolve().parents[1]

# example -> (the target, the count reached so far: it must not grow back)
PAGES = {"watermelon": (4, 4), "breast_cancer": (6, 7)}


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


def test_pages_within_the_issue_21_target(pages):
    example, count = pages
    if example == "breast_cancer" and count > PAGES[example][0]:
        pytest.xfail(f"issue 21 target: breast_cancer <= 6 pages (has {count})")
    assert count <= PAGES[example][0]
