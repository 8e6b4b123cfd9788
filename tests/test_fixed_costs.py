"""Fixed costs of writing a report (issue 24): the PDF's streams are compressed once,
the attachments at zlib level 6; a run writing HTML and PDF compiles the templates
once."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

import evalreport
from evalreport.report import html as report_html
from evalreport.report.pdf import ATTACHMENT_LEVEL, html_to_pdf

DATE = "2026-11-26"


def _embedded_streams(pdf: bytes) -> dict[str, bytes]:
    """name -> the raw (still compressed) bytes of each embedded file's stream."""
    import io

    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(pdf))
    names = reader.trailer["/Root"]["/Names"]["/EmbeddedFiles"]["/Names"]
    out = {}
    for name, spec in zip(names[::2], names[1::2]):
        stream = spec.get_object()["/EF"]["/F"].get_object()
        assert stream["/Filter"] == "/FlateDecode"
        out[str(name)] = stream._data
    return out


@pytest.mark.slow
def test_the_attachments_are_compressed_once_at_level_6(tmp_path, monkeypatch):
    rng = np.random.default_rng(0)
    data = ("[" + ", ".join(repr(float(v)) for v in rng.random(20_000)) + "]").encode()
    calls = []
    compress = zlib.compress
    monkeypatch.setattr(zlib, "compress", lambda raw, *a, **k: calls.append(len(raw)) or compress(raw, *a, **k))
    pdf = html_to_pdf("<html lang=\"en\"><head><title>t</title></head><body><p>x</p></body></html>", title="t", date=DATE,
                      attachments={"results.json": data}, template_dirs=[tmp_path])
    streams = _embedded_streams(pdf)
    assert zlib.decompress(streams["results.json"]) == data
    assert ATTACHMENT_LEVEL == 6
    assert streams["results.json"] == compress(data, 6)
    assert calls.count(len(data)) == 1  # once, not once per read of the stream
    # level 6 against 9: the same size within 2 %
    assert len(streams["results.json"]) <= 1.02 * len(compress(data, 9))


@pytest.mark.slow
def test_html_and_pdf_compile_the_templates_once(tmp_path):
    spec = tmp_path / "spec.yaml"
    (tmp_path / "p.csv").write_text("y,a\n" + "".join(f"{i % 2},{(i * 7 % 11) / 11}\n" for i in range(40)))
    spec.write_text("version: 1\ntitle: once\ndate: 2026-11-26\ntask: binary\n"
                    "data:\n  - path: p.csv\n    label: y\n    learners:\n      a: a\n"
                    "confidence: {bootstrap: 0}\n")
    result = evalreport.evaluate(spec)
    report_html._environment.cache_clear()
    evalreport.render(result, tmp_path / "out", ["html", "pdf"])
    assert report_html._environment.cache_info().misses == 1
    assert report_html._environment.cache_info().hits == 1
