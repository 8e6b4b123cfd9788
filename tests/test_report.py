"""The report: HTML structure and escaping, PDF structure, templates,
determinism, size, and the examples against their golden results.json."""

from __future__ import annotations

import json
import os
import textwrap
from pathlib import Path

import numpy as np
import pytest

from evalreport.__main__ import main
from goldens import assert_matches

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = Path(__file__).resolve().parent / "golden"
EVIL = "<script>alert(1)</script>"

SECTIONS = ["verdict", "provenance", "measures", "curves", "comparisons", "warnings", "appendix"]


def _spec(tmp: Path, extra: str = "", learners: str | None = None) -> Path:
    rng = np.random.default_rng(7)
    n = 300
    y = rng.random(n) < 0.35
    a = np.round(rng.random(n) + 0.5 * y, 2)
    b = np.round(rng.random(n) + 0.25 * y, 2)
    rows = ["id,y,a,b"] + [f"{i},{int(t)},{u},{v}" for i, (t, u, v) in enumerate(zip(y, a, b))]
    (tmp / "pred.csv").write_text("\n".join(rows) + "\n")
    learners = learners or f'      "{EVIL}": a\n      plain: b\n'
    (tmp / "spec.yaml").write_text(textwrap.dedent("""\
        version: 1
        title: "Audit & <b>check</b>"
        description: |
          Some *emphasis*, <img src="https://example.com/x.png"> raw html, and
          ![remote](https://example.com/pixel.png) an image.
        date: 2026-11-22
        data:
          - path: pred.csv
            label: y
            id: id
            learners:
        """) + learners + textwrap.dedent("""\
        costs: {false_negative: 4, false_positive: 1}
        priors: {positive: 0.2}
        gates:
          - {metric: auc, min: 0.6}
        report: {formats: [html, pdf, json], out: out}
        """) + extra)
    return tmp / "spec.yaml"


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("report")
    spec = _spec(tmp)
    status = main(["run", str(spec), "--quiet"])
    return tmp, status


@pytest.mark.slow
def test_html_sections_in_order_and_learners(rendered):
    tmp, status = rendered
    assert status in (0, 3)
    html = (tmp / "out" / "report.html").read_text()
    positions = [html.index(f'<section id="{s}"') for s in SECTIONS]
    assert positions == sorted(positions)
    assert html.count("&lt;script&gt;alert(1)&lt;/script&gt;") >= 3
    assert EVIL not in html
    assert "plain" in html


def test_html_is_self_contained(rendered):
    tmp, _ = rendered
    html = (tmp / "out" / "report.html").read_text()
    for needle in ("<link", "<script", "src=\"http", "@import", "url(http"):
        assert needle not in html
    assert "<style>" in html and html.count("<svg") >= 4


def test_description_markdown_is_safe(rendered):
    tmp, _ = rendered
    html = (tmp / "out" / "report.html").read_text()
    assert "<em>emphasis</em>" in html
    assert "&lt;img src=&quot;https://example.com/x.png&quot;&gt;" in html  # raw HTML escaped
    assert "<img" not in html  # no image to fetch
    assert "Audit &amp; &lt;b&gt;check&lt;/b&gt;" in html


@pytest.mark.slow
def test_pdf_structure(rendered):
    from pypdf import PdfReader

    tmp, _ = rendered
    reader = PdfReader(tmp / "out" / "report.pdf")
    assert len(reader.pages) >= 3
    titles = [item.title for item in reader.outline if not isinstance(item, list)]
    assert titles[0].startswith("Audit")
    flat = " ".join(str(t) for t in reader.outline)
    for heading in ("1. Verdict", "2. Data and provenance", "5. Calibration", "8. Appendix"):
        assert heading in flat
    attachments = reader.attachments
    assert attachments["results.json"][0] == (tmp / "out" / "results.json").read_bytes()
    assert attachments["spec.yaml"][0] == (tmp / "spec.yaml").read_bytes()
    xmp = reader.xmp_metadata
    raw = xmp.stream.get_data().decode() if xmp is not None else reader.trailer["/Root"]["/Metadata"].get_data().decode()
    import re

    assert re.search(r'pdfaid:part(="3"|>3<)', raw) and re.search(r'pdfaid:conformance(="B"|>B<)', raw)
    text = "\n".join(page.extract_text() for page in reader.pages)
    assert "plain" in text and "alert(1)" in text
    assert f"page 1 of {len(reader.pages)}" in text
    assert reader.metadata.title.startswith("Audit")


def test_gate_verdict_on_first_page(rendered):
    from pypdf import PdfReader

    tmp, status = rendered
    data = json.loads((tmp / "out" / "results.json").read_text())
    failed = [g for g in data["gates"] if not g["passed"]]
    assert status == (3 if failed else 0)
    first = PdfReader(tmp / "out" / "report.pdf").pages[0].extract_text()
    flat = " ".join(first.split())
    assert "Verdict" in first and ("gates passed" in flat or "failed" in flat)
    assert "deployed threshold" in flat and "deploy " not in flat.replace("deployed", "")


@pytest.mark.slow
def test_byte_identical_renders(rendered, tmp_path):
    # the module's render once more, from another folder (the same spec and data) and
    # later in the process: the same bytes
    first, _ = rendered
    spec = _spec(tmp_path)
    assert main(["run", str(spec), "--quiet", "--out", str(tmp_path / "two")]) in (0, 3)
    for name in ("report.html", "report.pdf", "results.json"):
        assert (first / "out" / name).read_bytes() == (tmp_path / "two" / name).read_bytes(), name


@pytest.mark.slow
def test_template_override_by_file_name(tmp_path):
    (tmp_path / "mytemplates" / "sections").mkdir(parents=True)
    (tmp_path / "mytemplates" / "sections" / "appendix.html.j2").write_text(
        '<section id="appendix"><h2>Company appendix</h2><p>{{ title }}</p></section>\n')
    spec = _spec(tmp_path, learners="      a: a\n      b: b\n")
    text = spec.read_text().replace("report: {formats: [html, pdf, json], out: out}",
                                    "report: {formats: [html], out: out, template: mytemplates}")
    spec.write_text(text)
    assert main(["run", str(spec), "--quiet"]) in (0, 3)
    html = (tmp_path / "out" / "report.html").read_text()
    assert "Company appendix" in html and "Appendix: the spec and the definitions" not in html
    assert '<section id="verdict"' in html  # the rest from the defaults


@pytest.mark.slow
def test_undefined_name_in_template_is_an_error(tmp_path):
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "sections").mkdir()
    (tmp_path / "bad" / "sections" / "warnings.html.j2").write_text("{{ no_such_value }}")
    spec = _spec(tmp_path, learners="      a: a\n")
    spec.write_text(spec.read_text().replace("out: out}", "out: out, template: bad}"))
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "report.html").write_text("previous")
    assert main(["run", str(spec), "--quiet"]) == 2  # the user's template: exit 2, naming it (issue 36)
    assert (tmp_path / "out" / "report.html").read_text() == "previous"


@pytest.mark.slow
def test_output_size_does_not_grow_with_rows(tmp_path):
    rng = np.random.default_rng(3)
    n = 200_000
    y = rng.random(n) < 0.3
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"y": y.astype(np.int8), "a": rng.random(n) + 0.4 * y,
                             "b": rng.random(n) + 0.2 * y}), tmp_path / "big.parquet")
    (tmp_path / "spec.yaml").write_text(textwrap.dedent("""\
        version: 1
        date: 2026-11-22
        data:
          - {path: big.parquet, label: y, learners: {a: a, b: b}}
        report: {formats: [html, pdf], out: out, curve_points: 1000}
        """))
    assert main(["run", str(tmp_path / "spec.yaml"), "--quiet"]) == 0
    assert (tmp_path / "out" / "report.html").stat().st_size < 1_000_000
    assert (tmp_path / "out" / "report.pdf").stat().st_size < 1_000_000


@pytest.mark.slow
@pytest.mark.parametrize("example", ["watermelon"])
def test_examples_match_golden_results(example_report, example):
    """Update with: EVALREPORT_UPDATE_GOLDEN=1 python3 -m pytest tests/test_report.py -k golden"""
    report = example_report(example, ["json", "html"])  # run --out, once a session: tests/conftest.py
    assert report.status in (0, 3)
    got = json.loads(report.text("results.json"))
    got.pop("evalreport_version")
    golden = GOLDEN / f"{example}.json"
    if os.environ.get("EVALREPORT_UPDATE_GOLDEN"):
        golden.write_text(json.dumps(got, indent=2) + "\n")
    assert_matches(got, json.loads(golden.read_text()))  # floats to 1e-12: tests/goldens.py
    html = report.text("report.html")
    for name in got["learners"]:
        assert name in html


def test_note_on_curves_drawn_through_part_of_their_points():
    # The note names the ROC curve's points and bound and the P-R curve's
    # bound; with one class only (no ROC curve) the P-R curve's own.
    from evalreport.curves import CurveBlock, OutputCurves
    from evalreport.report.binary import simplified_note as _simplified_note

    def block(points, vertices, simplified, err):
        x = np.linspace(0, 1, points)
        return CurveBlock(x=x, y=x, threshold=x, vertices=vertices, simplified=simplified, max_error=err)

    full = OutputCurves(roc=block(5, 5, False, 0.0), pr=block(4, 4, False, 0.0), cost=None)
    assert _simplified_note(full) == ""
    budget = OutputCurves(roc=block(50, 12345, True, 0.0012), pr=block(50, 12345, True, 0.0031), cost=None)
    assert _simplified_note(budget) == "50 of 12,345 ROC vertices, within 0.0012 (the P-R curve within 0.0031)"
    streamed = OutputCurves(roc=block(82, None, True, 0.016), pr=block(81, None, True, 0.094), cost=None)
    assert _simplified_note(streamed) == ("82 ROC points through rows kept from the streamed table, within 0.016 "
                                          "(the P-R curve within 0.094)")
    positives_only = OutputCurves(roc=None, pr=block(2, None, True, 0.0), cost=None)
    assert _simplified_note(positives_only) == "2 P-R points through rows kept from the streamed table, within 0"
