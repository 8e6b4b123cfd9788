"""The accessible PDF (issue 34), read back with pikepdf: every tagged figure's
/Alt is its alt text (the HTML's aria-label), every table header cell carries a
/Scope, every page's content is tagged to the structure tree or marked as an
artifact (the running header and footer), the XMP claims PDF/UA-1 beside PDF/A-3b
(with the extension schema PDF/A asks for), and the outline (the bookmarks) lists
every section.

A small document through the PDF sink checks how each ``th`` maps to its scope;
breast_cancer, rendered whole, checks the report."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

pikepdf = pytest.importorskip("pikepdf")
pytest.importorskip("weasyprint")

from evalreport.report import pdf as pdf_sink  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
RDF = "{http://www.w3.org/1999/02/22-rdf-syntax-ns#}"
PDFAID = "{http://www.aiim.org/pdfa/ns/id/}"
PDFUAID = "{http://www.aiim.org/pdfua/ns/id/}"
SCHEMA = "{http://www.aiim.org/pdfa/ns/schema#}"
PROPERTY = "{http://www.aiim.org/pdfa/ns/property#}"

SMALL = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title></head><body>
<h2>Scopes</h2>
<table>
<thead><tr><th scope="col">learner</th><th>no scope, in thead</th><th scope="colgroup">group</th></tr></thead>
<tbody>
<tr><th scope="row">a</th><td>1</td><td>2</td></tr>
<tr><th scope="rowgroup">b</th><td>3</td><td>4</td></tr>
<tr><th>no scope, in tbody</th><td>5</td><td>6</td></tr>
</tbody></table>
<svg role="img" aria-label="Two squares &amp; a line" viewBox="0 0 100 50" width="100" height="50"><title>Two squares &amp; a line</title>
<rect x="0" y="0" width="40" height="40" fill="#0072b2"/><rect x="50" y="0" width="40" height="40" fill="#d55e00"/></svg>
</body></html>"""


def _small_pdf() -> bytes:
    return pdf_sink.html_to_pdf(SMALL, title="Scopes", date="2026-11-22", attachments={"spec.yaml": b"a: 1\n"},
                                template_dirs=[ROOT / "templates"])


def _elements(pdf, kind: str) -> list:
    """The structure elements of type ``kind`` (``/Figure``, ``/TH``) in the
    structure tree's order, reached from its root."""
    found, stack = [], [pdf.Root.StructTreeRoot.K]
    while stack:
        node = stack.pop()
        if isinstance(node, pikepdf.Array):
            stack.extend(reversed(list(node)))
        elif isinstance(node, pikepdf.Dictionary):
            if node.get("/S") == kind:
                found.append(node)
            if "/K" in node:
                stack.append(node.K)
    return found


def _scope(th) -> str | None:
    attributes = th.get("/A")
    if isinstance(attributes, pikepdf.Array):  # several attribute dictionaries
        for a in attributes:
            if isinstance(a, pikepdf.Dictionary) and "/Scope" in a:
                return str(a.Scope)
        return None
    return str(attributes.Scope) if attributes is not None and "/Scope" in attributes else None


def _xmp(pdf) -> ET.Element:
    return ET.fromstring(pdf.Root.Metadata.read_bytes())


def _claims(xmp: ET.Element) -> dict[str, str]:
    """Every pdfaid / pdfuaid property of the XMP, as attributes or elements."""
    out = {}
    for description in xmp.iter(f"{RDF}Description"):
        for key, value in description.attrib.items():
            out[key] = value
        for child in description:
            if child.text and child.text.strip():
                out[child.tag] = child.text.strip()
    return {k: v for k, v in out.items() if k.startswith((PDFAID, PDFUAID))}


def _check_claims(pdf) -> None:
    xmp = _xmp(pdf)
    claims = _claims(xmp)
    assert claims == {f"{PDFAID}part": "3", f"{PDFAID}conformance": "B", f"{PDFUAID}part": "1"}, claims
    # PDF/A admits the pdfuaid property only with an extension schema that declares it
    schemas = [li for li in xmp.iter(f"{RDF}li") if li.find(f"{SCHEMA}namespaceURI") is not None]
    declared = {(li.find(f"{SCHEMA}namespaceURI").text, li.find(f"{SCHEMA}prefix").text,
                 tuple(p.text for p in li.iter(f"{PROPERTY}name"))) for li in schemas}
    assert ("http://www.aiim.org/pdfua/ns/id/", "pdfuaid", ("part",)) in declared


def test_small_document_scopes_alt_and_claims():
    data = _small_pdf()
    with pikepdf.open(__import__("io").BytesIO(data)) as pdf:
        scopes = [_scope(th) for th in _elements(pdf, "/TH")]
        # col, (auto in thead), colgroup; row, rowgroup, (auto in tbody)
        assert scopes == ["/Column", "/Column", "/Column", "/Row", "/Row", "/Row"]
        figures = _elements(pdf, "/Figure")
        assert [str(f.Alt) for f in figures] == ["Two squares & a line"]
        _check_claims(pdf)
        assert pdf.Root.MarkInfo.Marked and pdf.Root.ViewerPreferences.DisplayDocTitle
        assert str(pdf.Root.Lang) == "en"
    # the additions keep the output byte-identical
    assert _small_pdf() == data


class _Labels(HTMLParser):
    """The report's figures' aria-labels and its sections' h2 headings, in order."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.labels: list[str] = []
        self.headings: list[str] = []
        self._h2: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "svg" and attrs.get("aria-label"):
            self.labels.append(attrs["aria-label"])
        elif tag == "h2":
            self._h2 = []

    def handle_endtag(self, tag):
        if tag == "h2" and self._h2 is not None:
            self.headings.append("".join(self._h2).strip())
            self._h2 = None

    def handle_data(self, data):
        if self._h2 is not None:
            self._h2.append(data)


@pytest.fixture(scope="module")
def breast_cancer(example_report):
    report = example_report("breast_cancer", ["html", "pdf"])  # rendered once a session: tests/conftest.py
    assert report.status in (0, 3)
    out = report.out
    page = _Labels()
    page.feed((out / "report.html").read_text(encoding="utf-8"))
    with pikepdf.open(out / "report.pdf") as pdf:
        yield pdf, page


@pytest.mark.slow
def test_every_figure_has_its_alt_text(breast_cancer):
    pdf, page = breast_cancer
    alts = [str(f.Alt) if "/Alt" in f else None for f in _elements(pdf, "/Figure")]
    assert alts and None not in alts
    assert all(alt.strip() for alt in alts)
    # the same words as the HTML's aria-labels, figure for figure
    assert alts == page.labels


def test_every_table_header_has_a_scope(breast_cancer):
    pdf, _ = breast_cancer
    scopes = [_scope(th) for th in _elements(pdf, "/TH")]
    assert len(scopes) > 50
    assert set(scopes) == {"/Column", "/Row"}


def test_xmp_claims_pdf_a_3b_and_pdf_ua_1(breast_cancer):
    pdf, _ = breast_cancer
    _check_claims(pdf)
    # what PDF/UA-1 asks of the catalog besides
    assert pdf.Root.MarkInfo.Marked and pdf.Root.ViewerPreferences.DisplayDocTitle
    assert str(pdf.Root.Lang) == "en"


def test_outline_lists_every_section(breast_cancer):
    """The PDF's bookmarks: the title, and under it each numbered section."""
    pdf, page = breast_cancer
    top = pdf.Root.Outlines.First
    titles, item = [], top.get("/First")
    while item is not None:
        titles.append(str(item.Title))
        item = item.get("/Next")
    assert titles == page.headings and len(titles) >= 6


#: content operators that paint (text, images and forms, paths filled or stroked, shadings)
PAINTING = {"Tj", "TJ", "'", '"', "Do", "f", "F", "f*", "S", "s", "B", "B*", "b", "b*", "sh", "BI"}


def _reachable(pdf) -> set:
    """The object ids of the structure elements reached from the tree's root."""
    seen, stack = set(), [pdf.Root.StructTreeRoot.K]
    while stack:
        node = stack.pop()
        if isinstance(node, pikepdf.Array):
            stack.extend(node)
        elif isinstance(node, pikepdf.Dictionary):
            if node.objgen in seen:
                continue
            seen.add(node.objgen)
            if "/K" in node:
                stack.append(node.K)
    return seen


def _unmarked(pdf) -> list[str]:
    """Per page: painting outside any marked-content sequence, and marked content
    whose MCID leads to no element of the structure tree."""
    reached = _reachable(pdf)
    nums = pdf.Root.StructTreeRoot.ParentTree.Nums
    parents = {int(nums[i]): nums[i + 1] for i in range(0, len(nums), 2)}
    problems = []
    for number, page in enumerate(pdf.pages, start=1):
        depth = 0
        for operands, operator in pikepdf.parse_content_stream(page):
            op = str(operator)
            if op in ("BDC", "BMC"):
                depth += 1
                if op == "BDC" and isinstance(operands[1], pikepdf.Dictionary) and "/MCID" in operands[1]:
                    element = parents[int(page.StructParents)][int(operands[1].MCID)]
                    if element.objgen not in reached:
                        problems.append(f"page {number}: MCID {int(operands[1].MCID)} tagged to nothing")
            elif op == "EMC":
                depth -= 1
            elif op in PAINTING and depth == 0:
                problems.append(f"page {number}: {op} outside marked content")
    return problems


def test_small_document_content_is_tagged_or_artifact():
    with pikepdf.open(__import__("io").BytesIO(_small_pdf())) as pdf:
        assert _unmarked(pdf) == []


def test_every_page_is_tagged_or_artifact(breast_cancer):
    """The running title, date and page number are artifacts (pagination); the
    rest is tagged content of the structure tree."""
    pdf, _ = breast_cancer
    assert _unmarked(pdf) == []
