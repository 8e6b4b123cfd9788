"""The PDF sink: PDF/A-3b with attachments, metadata, outline, offline URL fetching,
byte-identical output. One small 2-page document is rendered twice per session."""

from __future__ import annotations

import io
import logging
import os
import socket
import sys
import time
import xml.etree.ElementTree as ET

import pytest

import pypdf
import weasyprint  # noqa: F401

from evalreport.errors import RenderError  # noqa: E402
from evalreport.report import pdf as pdf_sink  # noqa: E402

TITLE = "Test report"
DATE = "2026-11-22"
RESULTS = b'{"auc": 0.8125, "n": 113}\n'
SPEC = b"name: asah\nmeasures: [auc]\n"
REMOTE_IMAGE = "https://example.com/x.png"

RDF = "{http://www.w3.org/1999/02/22-rdf-syntax-ns#}"
PDFAID = "{http://www.aiim.org/pdfa/ns/id/}"

HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>overridden</title>
<link rel="stylesheet" href="style.css">
<link rel="stylesheet" href="{outside_css}">
<style>
@page {{
  size: A4; margin: 2cm;
  @top-left {{ content: "Test report | 2026-11-22"; }}
  @bottom-right {{ content: "page " counter(page) " of " counter(pages); }}
}}
body {{ font-family: "DejaVu Sans", sans-serif; bogus-property: 1; }}
h2.second {{ break-before: page; }}
.escape {{ background-image: url("../outside/pixel.svg"); width: 10px; height: 10px; }}
</style></head>
<body>
<h2>First section</h2>
<p class="marker">Some text.</p>
<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60" viewBox="0 0 120 60">
  <rect x="0" y="0" width="60" height="60" fill="#3366cc" fill-opacity="0.5"/>
  <text x="65" y="35" font-size="12">figlabel</text>
</svg>
<img src="{remote}" alt="remote">
<div class="escape"></div>
<h2 class="second">Second section</h2>
<p>More text.</p>
</body></html>
"""


class _Records(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record):
        self.records.append(record)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("pdfsink")
    templates, outside = root / "templates", root / "outside"
    templates.mkdir()
    outside.mkdir()
    (templates / "style.css").write_text('.marker::after { content: " ALLOWEDCSS"; }\n')
    (outside / "evil.css").write_text('.marker::before { content: "LEAKEDCSS "; }\n')
    (outside / "pixel.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>'
    )
    return templates, outside


@pytest.fixture(scope="module")
def rendered(site):
    """Render the document twice, with sockets and DNS forbidden, recording the
    fetchers, the evalreport log and what reaches the root logger."""
    templates, outside = site
    html = HTML.format(outside_css=(outside / "evil.css").as_uri(), remote=REMOTE_IMAGE)
    network_calls, fetchers = [], []
    root_records, evalreport_records = _Records(), _Records()

    def no_network(*args, **kwargs):
        network_calls.append(args)
        raise OSError("network access during a PDF render")

    real_make = pdf_sink.make_url_fetcher

    def spy_make(template_dirs):
        fetcher = real_make(template_dirs)
        fetchers.append(fetcher)
        return fetcher

    evalreport_logger = logging.getLogger("evalreport")
    old_level = evalreport_logger.level
    evalreport_logger.setLevel(logging.INFO)
    logging.getLogger().addHandler(root_records)
    evalreport_logger.addHandler(evalreport_records)
    epoch_before = os.environ.get("SOURCE_DATE_EPOCH")
    try:
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(socket.socket, "connect", no_network)
            mp.setattr(socket, "create_connection", no_network)
            mp.setattr(socket, "getaddrinfo", no_network)
            mp.setattr(pdf_sink, "make_url_fetcher", spy_make)
            render = lambda: pdf_sink.html_to_pdf(  # noqa: E731
                html,
                title=TITLE,
                date=DATE,
                attachments={"spec.yaml": SPEC, "results.json": RESULTS},
                template_dirs=[templates],
                subject="Evaluation of asah",
                keywords=["evaluation", "roc"],
            )
            outputs = [render()]
            # The second render happens "an hour later": nothing may depend on the clock.
            real_time = time.time
            mp.setattr(time, "time", lambda: real_time() + 3600.0)
            outputs.append(render())
    finally:
        logging.getLogger().removeHandler(root_records)
        evalreport_logger.removeHandler(evalreport_records)
        evalreport_logger.setLevel(old_level)
    return {
        "pdf": outputs[0],
        "again": outputs[1],
        "reader": pypdf.PdfReader(io.BytesIO(outputs[0])),
        "network_calls": network_calls,
        "fetchers": fetchers,
        "root_records": root_records.records,
        "evalreport_records": evalreport_records.records,
        "epoch_before": epoch_before,
        "outside": outside,
    }


def _flat_titles(outline):
    for item in outline:
        if isinstance(item, list):
            yield from _flat_titles(item)
        else:
            yield item.title


def test_two_a4_pages(rendered):
    reader = rendered["reader"]
    assert len(reader.pages) == 2
    for page in reader.pages:
        assert float(page.mediabox.width) == pytest.approx(595.28, abs=0.1)
        assert float(page.mediabox.height) == pytest.approx(841.89, abs=0.1)


def test_page_numbers_and_running_header(rendered):
    first, second = (page.extract_text() for page in rendered["reader"].pages)
    assert "page 1 of 2" in first
    assert "page 2 of 2" in second
    assert "Test report | 2026-11-22" in first
    assert "Test report | 2026-11-22" in second


def test_outline_from_headings(rendered):
    assert list(_flat_titles(rendered["reader"].outline)) == ["First section", "Second section"]


def test_inline_svg_is_drawn(rendered):
    assert "figlabel" in rendered["reader"].pages[0].extract_text()


def test_attachments_embedded_with_exact_bytes(rendered):
    reader = rendered["reader"]
    assert reader.attachments == {"results.json": [RESULTS], "spec.yaml": [SPEC]}
    catalog = reader.trailer["/Root"]
    specs = [ref.get_object() for ref in catalog["/AF"]]  # PDF/A-3 associated files
    by_name = {spec["/UF"]: spec for spec in specs}
    assert sorted(by_name) == ["results.json", "spec.yaml"]  # each listed once
    assert by_name["results.json"]["/AFRelationship"] == "/Data"
    assert by_name["spec.yaml"]["/AFRelationship"] == "/Source"
    subtypes = {name: spec["/EF"]["/F"].get_object()["/Subtype"] for name, spec in by_name.items()}
    assert subtypes == {"results.json": "/application/json", "spec.yaml": "/application/yaml"}
    # Attachment dates come from the report date, not the clock.
    params = by_name["results.json"]["/EF"]["/F"].get_object()["/Params"]
    assert params["/ModDate"] == "D:20261122000000Z"


def test_tagged_pdf_a_3b(rendered):
    """Tagged (a structure tree, marked content, the language) and still PDF/A-3b
    with its attachments (test_xmp_declares_pdfa_3b, test_attachments_...)."""
    catalog = rendered["reader"].trailer["/Root"]
    assert catalog["/MarkInfo"]["/Marked"] == True  # noqa: E712 (a pypdf BooleanObject)
    tree = catalog["/StructTreeRoot"].get_object()
    assert tree["/Type"] == "/StructTreeRoot"
    assert "/Lang" in catalog

    def kinds(node, seen):
        node = node.get_object()
        if hasattr(node, "get") and node.get("/S") is not None:
            seen.add(str(node["/S"]))
        kids = node.get("/K") if hasattr(node, "get") else None
        for kid in (kids if isinstance(kids, list) else [kids] if kids is not None else []):
            if hasattr(kid, "get_object") and hasattr(kid.get_object(), "get"):
                kinds(kid, seen)
        return seen

    assert {"/H2", "/P"} <= kinds(tree, set())


def test_xmp_declares_pdfa_3b(rendered):
    catalog = rendered["reader"].trailer["/Root"]
    xmp = ET.fromstring(catalog["/Metadata"].get_object().get_data())
    ids = {}
    for description in xmp.iter(f"{RDF}Description"):
        for key in ("part", "conformance"):
            if f"{PDFAID}{key}" in description.attrib:
                ids[key] = description.attrib[f"{PDFAID}{key}"]
            child = description.find(f"{PDFAID}{key}")
            if child is not None:
                ids[key] = child.text
    assert ids == {"part": "3", "conformance": "B"}
    assert "/OutputIntents" in catalog  # PDF/A needs an output intent (sRGB)
    assert rendered["pdf"].startswith(b"%PDF-1.7")


def test_document_info(rendered):
    info = rendered["reader"].metadata
    assert info.title == TITLE  # the argument wins over the HTML <title>
    assert info.author == "evalreport"
    assert info.subject == "Evaluation of asah"
    assert info["/Keywords"] == "evaluation, roc"
    assert info["/CreationDate"] == "D:20261122000000Z"
    assert info["/ModDate"] == "D:20261122000000Z"


def test_two_renders_are_byte_identical(rendered):
    assert rendered["pdf"] == rendered["again"]
    assert "/ID" in rendered["reader"].trailer


def test_outside_urls_refused_without_network(rendered):
    assert rendered["network_calls"] == []
    outside = rendered["outside"]
    for fetcher in rendered["fetchers"]:
        refused = set(fetcher.refused)
        assert REMOTE_IMAGE in refused
        assert (outside / "evil.css").as_uri() in refused
        assert any(url.endswith("/outside/pixel.svg") for url in refused)  # ../ escape
        assert not any(url.endswith("/style.css") for url in refused)
    text = rendered["reader"].pages[0].extract_text()
    assert "ALLOWEDCSS" in text  # the stylesheet inside the template folder applied
    assert "LEAKEDCSS" not in text  # the one outside did not
    warnings = [
        r.getMessage() for r in rendered["evalreport_records"] if r.levelno == logging.WARNING
    ]
    assert any("refused" in m and REMOTE_IMAGE in m for m in warnings)


def test_weasyprint_log_kept_off_root_and_state_restored(rendered):
    noisy = [
        r for r in rendered["root_records"]
        if r.name.split(".")[0] in ("weasyprint", "fontTools")
    ]
    assert noisy == []
    assert logging.getLogger("weasyprint").propagate is True
    assert logging.getLogger("fontTools").propagate is True
    assert os.environ.get("SOURCE_DATE_EPOCH") == rendered["epoch_before"]


def test_fetcher_confinement(tmp_path):
    templates, outside = tmp_path / "templates", tmp_path / "outside"
    templates.mkdir()
    outside.mkdir()
    (templates / "style.css").write_text(".a::after { content: 'ALLOWEDCSS'; }")
    (outside / "evil.css").write_text(".a { color: red; }")
    (templates / "link.css").symlink_to(outside / "evil.css")
    fetcher = pdf_sink.make_url_fetcher([templates])
    response = fetcher.fetch((templates / "style.css").as_uri())
    try:
        assert b"ALLOWEDCSS" in response.read()
    finally:
        response.close()
    assert fetcher.fetch("data:text/plain;base64,aGk=").read() == b"hi"
    link = templates / "link.css"
    refused = [
        (outside / "evil.css").as_uri(),
        templates.as_uri() + "/../outside/evil.css",
        link.as_uri(),  # a symlink leading out of the folder
        "file://otherhost" + str(templates / "style.css"),
        "http://example.com/a.css",
        "ftp://example.com/a.css",
    ]
    for url in refused:
        with pytest.raises(pdf_sink.RefusedURL):
            fetcher.fetch(url)
    assert fetcher.refused == refused


def test_weasyprint_failure_becomes_render_error(monkeypatch, site):
    import weasyprint

    def broken(*args, **kwargs):
        raise OSError("cannot load library 'libpango-1.0-0'")

    monkeypatch.setattr(weasyprint, "HTML", broken)
    with pytest.raises(RenderError, match="libpango"):
        pdf_sink.html_to_pdf(
            "<p>x</p>", title="t", date=DATE, attachments={}, template_dirs=[site[0]]
        )
    assert logging.getLogger("weasyprint").propagate is True


def test_missing_weasyprint_becomes_render_error(monkeypatch, site):
    monkeypatch.setitem(sys.modules, "weasyprint", None)  # import raises ImportError
    with pytest.raises(RenderError, match="WeasyPrint is not usable"):
        pdf_sink.html_to_pdf(
            "<p>x</p>", title="t", date=DATE, attachments={}, template_dirs=[site[0]]
        )


@pytest.mark.parametrize("bad", ["22/11/2026", "2026-13-01", "yesterday"])
def test_bad_date_is_render_error(bad, site):
    with pytest.raises(RenderError, match="ISO date"):
        pdf_sink.html_to_pdf(
            "<p>x</p>", title="t", date=bad, attachments={}, template_dirs=[site[0]]
        )


SVG_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title></head>
<body><p>figure:</p>
<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20"/></svg>
</body></html>"""


@pytest.mark.parametrize("raised", [KeyboardInterrupt, ValueError])
def test_failed_svg_drawing_is_not_a_pdf_without_the_figure(monkeypatch, site, raised):
    """WeasyPrint's SVG drawing catches every exception, KeyboardInterrupt included,
    logs an error and leaves the figure out: an interrupt comes back, an error is a
    RenderError."""
    import weasyprint.svg

    def draw(self, *args, **kwargs):
        raise raised("drawing failed")

    monkeypatch.setattr(weasyprint.svg.SVG, "draw", draw)
    handlers = logging.getLogger("weasyprint").handlers[:]
    expected = KeyboardInterrupt if raised is KeyboardInterrupt else RenderError
    with pytest.raises(expected) as info:
        pdf_sink.html_to_pdf(SVG_PAGE, title="t", date=DATE, attachments={}, template_dirs=[site[0]])
    if expected is RenderError:
        assert info.value.problems == [
            f"PDF: WeasyPrint: Failed to render SVG image {site[0].resolve().as_uri()}/"]
    assert logging.getLogger("weasyprint").handlers == handlers  # the collector went with the render


def test_broken_image_in_the_templates_is_a_render_error(tmp_path):
    (tmp_path / "broken.svg").write_text("<svg this is not XML")
    html = '<!doctype html><html lang="en"><body><img src="broken.svg" alt="x"></body></html>'
    with pytest.raises(RenderError) as info:
        pdf_sink.html_to_pdf(html, title="t", date=DATE, attachments={}, template_dirs=[tmp_path])
    assert len(info.value.problems) == 1
    assert info.value.problems[0].startswith(
        f"PDF: WeasyPrint: Failed to load image at '{(tmp_path / 'broken.svg').as_uri()}'")
