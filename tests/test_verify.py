"""Deliverables that prove themselves (issue 37): report.attach, report.sign and
`evalreport verify`, each failing check with its exact reason, and the chain of
audits. The certificates are made here with `cryptography`; nothing is fetched."""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import json
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

pypdf = pytest.importorskip("pypdf")
pikepdf = pytest.importorskip("pikepdf")
pytest.importorskip("pyhanko")
pytest.importorskip("weasyprint")

from cryptography import x509  # noqa: E402
from cryptography.hazmat.primitives import hashes, serialization  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import ec  # noqa: E402
from cryptography.hazmat.primitives.serialization import pkcs12  # noqa: E402
from cryptography.x509.oid import NameOID  # noqa: E402

from evalreport.__main__ import main  # noqa: E402

PASSWORD = "s3cret-test-pass"
RDF = "{http://www.w3.org/1999/02/22-rdf-syntax-ns#}"
PDFAID = "{http://www.aiim.org/pdfa/ns/id/}"

SPEC = """version: 1
title: Verify test
date: 2026-11-22
positive: 1
data:
  - path: preds.csv
    label: y
    learners: {{a: a, b: b}}
threshold: 0.5
report:
  formats: [pdf, json, html]
  attach: [results, spec, data]
{sign}"""

SIGN_P12 = """  sign:
    certificate: signer.p12
    password_env: EVALREPORT_TEST_PASSWORD
"""


def _certificate(folder: Path, name: str = "Test signer"):
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name),
                         x509.NameAttribute(NameOID.ORGANIZATION_NAME, "evalreport tests")])
    start = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(subject).issuer_name(subject).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(start)
            .not_valid_after(start + dt.timedelta(days=3650))
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    return key, cert


def _write_signer(folder: Path, name="Test signer"):
    key, cert = _certificate(folder, name)
    (folder / "signer.p12").write_bytes(pkcs12.serialize_key_and_certificates(
        b"signer", key, cert, None, serialization.BestAvailableEncryption(PASSWORD.encode())))
    (folder / "signer.crt").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    (folder / "signer.key").write_bytes(key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.BestAvailableEncryption(PASSWORD.encode())))
    return cert


def _write_data(folder: Path, seed=0, n=120):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    a = np.round(np.clip(0.3 * y + rng.uniform(0, 0.7, n), 0, 1), 3)
    b = np.round(rng.uniform(0, 1, n), 3)
    lines = ["y,a,b"] + [f"{y[i]},{a[i]},{b[i]}" for i in range(n)]
    (folder / "preds.csv").write_text("\n".join(lines) + "\n")


@pytest.fixture(scope="module")
def signed(tmp_path_factory):
    """One signed report with its data attached, made through the command line."""
    folder = tmp_path_factory.mktemp("signed")
    _write_data(folder)
    cert = _write_signer(folder)
    (folder / "spec.yaml").write_text(SPEC.format(sign=SIGN_P12))
    from evalreport.report import sign

    unsigned = []  # the PDF the run made, as it went to be signed (test_signed_file_keeps_pdf_a_3b)
    sign_pdf = sign.sign_pdf

    def kept(pdf, *args, **kwargs):
        unsigned.append(pdf)
        return sign_pdf(pdf, *args, **kwargs)

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("EVALREPORT_TEST_PASSWORD", PASSWORD)
        mp.setattr(sign, "sign_pdf", kept)
        assert main(["run", str(folder / "spec.yaml"), "--quiet", "--out", str(folder / "out")]) == 0
    (unsigned,) = unsigned
    return {"folder": folder, "pdf": folder / "out" / "report.pdf", "cert": cert, "unsigned": unsigned}


def _verify(capsys, *args) -> tuple[int, str]:
    capsys.readouterr()
    status = main(["verify", *map(str, args)])
    return status, capsys.readouterr().out


@pytest.mark.slow
def test_signed_report_verifies(signed, capsys):
    status, out = _verify(capsys, signed["pdf"], "--trust", signed["folder"] / "signer.crt")
    assert status == 0, out
    assert "signed by Organization: evalreport tests, Common Name: Test signer" in out
    assert "intact, covers the whole file; trusted by --trust" in out
    n = int(re.search(r"verified: (\d+) values reproduce", out).group(1))
    results = json.loads((signed["folder"] / "out" / "results.json").read_text())

    def leaves(x):
        if isinstance(x, dict):
            return sum(leaves(v) for k, v in x.items() if k != "evalreport_version")
        if isinstance(x, list):
            return sum(leaves(v) for v in x)
        return 1

    assert n == leaves(results)  # every value of results.json, counted independently


def test_json_output_and_another_certificate_is_not_trusted(signed, tmp_path, capsys):
    _, other = _certificate(tmp_path, "Someone else")
    (tmp_path / "other.crt").write_bytes(other.public_bytes(serialization.Encoding.PEM))
    status, out = _verify(capsys, signed["pdf"], "--json", "--trust", tmp_path / "other.crt")
    assert status == 4
    data = json.loads(out)
    assert data["ok"] is False
    [sig] = [c for c in data["checks"] if c["check"] == "signature"]
    assert sig["ok"] is False and sig["text"].endswith("the signer's certificate is not trusted by --trust")


@pytest.mark.slow
def test_data_attached_with_sha256_and_size(signed):
    reader = pypdf.PdfReader(signed["pdf"])
    csv = (signed["folder"] / "preds.csv").read_bytes()
    assert reader.attachments["preds.csv"] == [csv]
    catalog = reader.trailer["/Root"]
    by_name = {s.get_object()["/UF"]: s.get_object() for s in catalog["/AF"]}
    assert by_name["preds.csv"]["/AFRelationship"] == "/Source"
    assert hashlib.sha256(csv).hexdigest() in by_name["preds.csv"]["/Desc"]
    manifest = json.loads(reader.attachments["evalreport-attachments.json"][0])
    [entry] = [e for e in manifest["files"] if e["role"] == "data"]
    assert (entry["sha256"], entry["size"], entry["attached"]) == (hashlib.sha256(csv).hexdigest(), len(csv), True)
    results = json.loads(reader.attachments["results.json"][0])
    assert results["attachments"] == [{"name": "preds.csv", "source": "preds.csv", "what": "predictions",
                                       "path": "preds.csv", "sha256": hashlib.sha256(csv).hexdigest(),
                                       "size": len(csv), "attached": True}]
    listed = {e["name"]: e["sha256"] for e in manifest["files"]}
    for name in ("results.json", "spec.yaml"):
        assert listed[name] == hashlib.sha256(reader.attachments[name][0]).hexdigest()


@pytest.mark.slow
def test_signed_file_keeps_pdf_a_3b(signed, monkeypatch):
    """The signature is an incremental update: the unsigned file's bytes come first,
    unchanged, and the signed file passes the PDF/A checks test_pdf_sink makes."""
    from evalreport.report.sign import load_signer, sign_pdf
    from evalreport.spec import load_spec

    folder = signed["folder"]
    spec = load_spec(folder / "spec.yaml")
    monkeypatch.setenv("EVALREPORT_TEST_PASSWORD", PASSWORD)
    unsigned = signed["unsigned"]  # the run's PDF before its signature
    assert signed["pdf"].read_bytes().startswith(unsigned)
    assert pypdf.PdfReader(io.BytesIO(unsigned)).trailer["/Root"].get("/AcroForm") is None  # (not signed yet)
    signed_bytes = sign_pdf(unsigned, load_signer(spec))
    assert signed_bytes.startswith(unsigned) and len(signed_bytes) > len(unsigned)
    for data in (signed_bytes, signed["pdf"].read_bytes()):
        reader = pypdf.PdfReader(io.BytesIO(data))
        catalog = reader.trailer["/Root"]
        xmp = ET.fromstring(catalog["/Metadata"].get_object().get_data())
        ids = {}
        for d in xmp.iter(f"{RDF}Description"):
            for key in ("part", "conformance"):
                if f"{PDFAID}{key}" in d.attrib:
                    ids[key] = d.attrib[f"{PDFAID}{key}"]
        assert ids == {"part": "3", "conformance": "B"}
        assert "/OutputIntents" in catalog and catalog["/MarkInfo"]["/Marked"] == True  # noqa: E712
        assert catalog["/StructTreeRoot"].get_object()["/Type"] == "/StructTreeRoot"
        assert data.startswith(b"%PDF-1.7")
        # the document information as written, agreeing with the XMP (PDF/A)
        info = reader.metadata
        assert info["/Producer"].startswith("WeasyPrint") and "pyHanko" not in info["/Producer"]
        assert info["/ModDate"] == "D:20261122000000Z"
        # the signature field: an invisible, printable widget (PDF/A needs no appearance for it)
        [field] = [f.get_object() for f in catalog["/AcroForm"]["/Fields"]]
        assert field["/FT"] == "/Sig" and [float(x) for x in field["/Rect"]] == [0, 0, 0, 0]
        assert int(field["/F"]) & 4 and not int(field["/F"]) & (1 | 2 | 32)
        relationships = {s.get_object()["/UF"]: s.get_object()["/AFRelationship"] for s in catalog["/AF"]}
        assert relationships == {"results.json": "/Data", "spec.yaml": "/Source", "preds.csv": "/Source",
                                 "evalreport-attachments.json": "/Supplement"}


def _content_stream_offset(data: bytes) -> int:
    pdf = pikepdf.open(io.BytesIO(data))
    contents = pdf.pages[0].obj["/Contents"]
    num = (contents[0] if isinstance(contents, pikepdf.Array) else contents).objgen[0]
    start = re.search(rb"(?<![0-9])%d 0 obj" % num, data).start()
    return data.index(b"stream", start) + 40


def test_one_byte_changed_in_a_content_stream(signed, tmp_path, capsys):
    data = bytearray(signed["pdf"].read_bytes())
    at = _content_stream_offset(bytes(data))
    data[at] ^= 0x01
    (tmp_path / "report.pdf").write_bytes(data)
    status, out = _verify(capsys, tmp_path / "report.pdf")
    assert status == 4
    assert "the signed bytes were changed after signing (their digest does not match)" in out
    assert "ok      attachments:" in out  # the attachments themselves are whole


def test_an_attachment_replaced(signed, tmp_path, capsys):
    pdf = pikepdf.open(signed["pdf"])
    forged = b'{"learners": {}}\n'
    pdf.attachments["results.json"].obj.EF.F.write(forged)
    pdf.save(tmp_path / "report.pdf")
    status, out = _verify(capsys, tmp_path / "report.pdf")
    assert status == 4
    digest = hashlib.sha256(forged).hexdigest()
    assert f"results.json does not match the PDF's list: its sha256 is {digest}" in out
    assert "not rerun: the attachments do not match the PDF's list" in out


def test_attached_data_edited_so_a_number_no_longer_reproduces(signed, tmp_path, capsys):
    """A forger who edits the data and its entry in the list too: the hashes agree,
    the rerun does not."""
    pdf = pikepdf.open(signed["pdf"])
    csv = (signed["folder"] / "preds.csv").read_text().splitlines()
    y, a, b = csv[1].split(",")
    csv[1] = f"{y},{1 - float(a):.3f},{b}"  # learner a's first score, moved
    edited = ("\n".join(csv) + "\n").encode()
    pdf.attachments["preds.csv"].obj.EF.F.write(edited)
    manifest = json.loads(pdf.attachments["evalreport-attachments.json"].get_file().read_bytes())
    for e in manifest["files"]:
        if e["name"] == "preds.csv":
            e["sha256"], e["size"] = hashlib.sha256(edited).hexdigest(), len(edited)
    pdf.attachments["evalreport-attachments.json"].obj.EF.F.write(json.dumps(manifest).encode())
    pdf.save(tmp_path / "report.pdf")
    status, out = _verify(capsys, tmp_path / "report.pdf")
    assert status == 4
    assert "ok      attachments:" in out
    assert re.search(r"FAILED  rerun: \d+ value\(s\) do not reproduce", out)
    assert re.search(r"differs  learners\.a\.[a-z_.]*auc: recorded 0\.\d+, rerun 0\.\d+", out), out
    assert not re.search(r"differs  learners\.b\.auc", out)  # b's scores were not touched
    assert "signature evalreport" in out and "FAILED  signature" in out


def test_wrong_or_missing_password_exit_2_and_nothing_written(signed, tmp_path, monkeypatch, capsys):
    folder = signed["folder"]
    for password in ("wrong-password", None):
        if password is None:
            monkeypatch.delenv("EVALREPORT_TEST_PASSWORD", raising=False)
        else:
            monkeypatch.setenv("EVALREPORT_TEST_PASSWORD", password)
        capsys.readouterr()
        out = tmp_path / f"out-{password}"
        assert main(["run", str(folder / "spec.yaml"), "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert not out.exists()
        assert password is None or password not in err
        assert ("wrong password" in err) if password else ("EVALREPORT_TEST_PASSWORD is not set" in err)


@pytest.mark.slow
def test_pem_key_and_certificate(tmp_path, monkeypatch, capsys):
    _write_data(tmp_path)
    _write_signer(tmp_path, "PEM signer")
    sign = "  sign: {certificate: signer.crt, key: signer.key, password_env: EVALREPORT_TEST_PASSWORD}\n"
    (tmp_path / "spec.yaml").write_text(SPEC.format(sign=sign).replace("[pdf, json, html]", "[pdf]"))
    monkeypatch.setenv("EVALREPORT_TEST_PASSWORD", PASSWORD)
    assert main(["run", str(tmp_path / "spec.yaml"), "--quiet", "--out", str(tmp_path / "out")]) == 0
    status, out = _verify(capsys, tmp_path / "out" / "report.pdf", "--trust", tmp_path / "signer.crt")
    assert status == 0 and "Common Name: PEM signer" in out
    for f in (tmp_path / "out").iterdir():  # the password is in no file written
        assert PASSWORD.encode() not in f.read_bytes()


def test_html_records_the_results_sha256(signed, tmp_path, capsys):
    out = signed["folder"] / "out"
    status, text = _verify(capsys, out / "report.html")
    assert status == 0 and "matches the sha256 the HTML records" in text
    shutil.copy(out / "report.html", tmp_path / "report.html")
    (tmp_path / "results.json").write_bytes((out / "results.json").read_bytes().replace(b"Verify test", b"Verify tost"))
    status, text = _verify(capsys, tmp_path / "report.html")
    assert status == 4 and "does not match: its sha256 is" in text


def test_unreadable_file_is_exit_2(tmp_path, capsys):
    (tmp_path / "x.pdf").write_bytes(b"not a pdf")
    assert main(["verify", str(tmp_path / "x.pdf")]) == 2
    assert "x.pdf: neither a PDF nor an HTML report" in capsys.readouterr().err
    (tmp_path / "cut.pdf").write_bytes((FIXTURE / "report.pdf").read_bytes()[:3000])  # cut short
    assert main(["verify", str(tmp_path / "cut.pdf")]) == 2
    assert "cut.pdf: cannot read the PDF" in capsys.readouterr().err
    assert main(["verify", str(tmp_path / "missing.pdf")]) == 2


@pytest.mark.slow
def test_data_found_by_sha256_in_data_dir(tmp_path, capsys):
    _write_data(tmp_path)
    spec = SPEC.format(sign="").replace("attach: [results, spec, data]", "attach: [results, spec, data]\n"
                                        "  attach_limit: 100B").replace("[pdf, json, html]", "[pdf]")
    (tmp_path / "spec.yaml").write_text(spec)
    assert main(["run", str(tmp_path / "spec.yaml"), "--out", str(tmp_path / "out")]) == 0
    err = capsys.readouterr().err
    assert "larger than report.attach_limit (100B): listed in the PDF with its sha256, not attached" in err
    assert "preds.csv" not in pypdf.PdfReader(tmp_path / "out" / "report.pdf").attachments
    status, out = _verify(capsys, tmp_path / "out" / "report.pdf")
    assert status == 0 and "not rerun: preds.csv is not attached (give --data DIR" in out
    (tmp_path / "elsewhere").mkdir()
    shutil.move(tmp_path / "preds.csv", tmp_path / "elsewhere" / "renamed.csv")
    status, out = _verify(capsys, tmp_path / "out" / "report.pdf", "--data", tmp_path / "elsewhere")
    assert status == 0 and re.search(r"verified: \d+ values reproduce", out)


HISTORY_SPEC = """version: 1
title: Weekly
date: {date}
positive: 1
data:
  - path: preds.csv
    label: y
    learners: {{a: a, b: b}}
history: {{dir: archive}}
report: {{formats: [json], out: out}}
"""


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    folder = tmp_path_factory.mktemp("history")
    for k, date in enumerate(("2026-11-01", "2026-11-08", "2026-11-15", "2026-11-22")):
        _write_data(folder, seed=k)
        (folder / "spec.yaml").write_text(HISTORY_SPEC.format(date=date))
        assert main(["run", str(folder / "spec.yaml"), "--quiet"]) == 0
    return folder / "archive"


def test_history_chain_holds(archive, capsys):
    runs = sorted(p.name for p in archive.iterdir())
    assert runs == ["2026-11-01", "2026-11-08", "2026-11-15", "2026-11-22"]
    for before, after in zip(runs, runs[1:]):
        recorded = json.loads((archive / after / "results.json").read_text())["history"]["previous_sha256"]
        assert recorded == hashlib.sha256((archive / before / "results.json").read_bytes()).hexdigest()
    assert json.loads((archive / runs[0] / "results.json").read_text())["history"]["previous_sha256"] is None
    status, out = _verify(capsys, "--history", archive)
    assert status == 0
    assert "chain of audits: 4 run(s), 2026-11-01 to 2026-11-22, each linked to the one before it" in out


def test_history_run_removed(archive, tmp_path, capsys):
    copy = tmp_path / "archive"
    shutil.copytree(archive, copy)
    shutil.rmtree(copy / "2026-11-15")
    status, out = _verify(capsys, "--history", copy)
    assert status == 4
    assert "FAILED  history: run 2026-11-15 is missing: run 2026-11-22 was made after it" in out


def test_history_run_edited(archive, tmp_path, capsys):
    copy = tmp_path / "archive"
    shutil.copytree(archive, copy)
    path = copy / "2026-11-08" / "results.json"
    path.write_bytes(path.read_bytes().replace(b'"title": "Weekly"', b'"title": "Weakly"'))
    status, out = _verify(capsys, "--history", copy)
    assert status == 4
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    assert f"FAILED  history: run 2026-11-08 was altered: its results.json's sha256 is {digest}" in out


def test_history_run_out_of_order(archive, tmp_path, capsys):
    copy = tmp_path / "archive"
    shutil.copytree(archive, copy)
    shutil.copytree(copy / "2026-11-08", copy / "2026-11-09")  # a run slipped in afterwards
    status, out = _verify(capsys, "--history", copy)
    assert status == 4
    assert "run 2026-11-09: out of order: its results.json is the run of 2026-11-08" in out


FIXTURE = Path(__file__).resolve().parent / "data" / "verify"


def test_fixture_made_by_an_earlier_release_verifies(capsys):
    """tests/data/verify/report.pdf was made by evalreport 0.1.0 (README there)."""
    status, out = _verify(capsys, FIXTURE / "report.pdf", "--trust", FIXTURE / "signer.crt")
    assert status == 0, out
    assert re.search(r"verified: \d+ values reproduce", out)


@pytest.mark.slow
def test_an_update_appended_after_signing(signed, tmp_path, capsys):
    """An incremental update after the signature (the signed revision intact):
    verify says something was appended."""
    from pyhanko.pdf_utils import generic
    from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter

    writer = IncrementalPdfFileWriter(io.BytesIO(signed["pdf"].read_bytes()))
    writer.root["/Lang"] = generic.TextStringObject("fr")
    writer.update_root()
    out = io.BytesIO()
    writer.write(out)
    (tmp_path / "report.pdf").write_bytes(out.getvalue())
    status, text = _verify(capsys, tmp_path / "report.pdf")
    assert status == 4
    assert "something was appended after signing (an incremental update the signature does not cover)" in text
    assert "the signed bytes were changed" not in text


@pytest.mark.slow
def test_in_memory_table_attached_as_parquet_and_rerun(tmp_path, capsys):
    import pyarrow as pa
    import pyarrow.parquet as pq

    import evalreport

    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 80)
    table = pa.table({"y": y, "p": np.round(0.4 * y + rng.uniform(0, 0.6, 80), 3)})
    spec = {"version": 1, "date": "2026-11-22", "data": [{"table": "test", "label": "y", "learners": {"m": "p"}}],
            "report": {"formats": ["pdf"], "attach": ["results", "spec", "data"]}}
    result = evalreport.evaluate(spec, data={"test": table})
    evalreport.render(result, out=tmp_path / "out")
    reader = pypdf.PdfReader(tmp_path / "out" / "report.pdf")
    attached = reader.attachments["test.parquet"][0]
    assert pq.read_table(io.BytesIO(attached)).equals(table)
    status, out = _verify(capsys, tmp_path / "out" / "report.pdf")
    assert status == 0, out
    assert re.search(r"verified: \d+ values reproduce", out)


@pytest.mark.slow
def test_engine_attaches_its_count_tables(tmp_path, capsys):
    """DuckDB: the count tables it handed the measures, checked against cumulative
    counts made here with NumPy from the raw file."""
    pytest.importorskip("duckdb")
    import pyarrow.parquet as pq

    _write_data(tmp_path)
    spec = SPEC.format(sign="").replace("    label: y\n", "    label: y\n    engine: duckdb\n").replace(
        "[pdf, json, html]", "[pdf]")
    (tmp_path / "spec.yaml").write_text(spec)
    assert main(["run", str(tmp_path / "spec.yaml"), "--quiet", "--out", str(tmp_path / "out")]) == 0
    reader = pypdf.PdfReader(tmp_path / "out" / "report.pdf")
    counts = pq.read_table(io.BytesIO(reader.attachments["preds-duckdb-counts.parquet"][0])).to_pydict()
    raw = np.genfromtxt(tmp_path / "preds.csv", delimiter=",", names=True)
    for learner in ("a", "b"):
        rows = [k for k, name in enumerate(counts["learner"]) if name == learner]
        thresholds = np.unique(raw[learner])[::-1]
        assert [counts["threshold"][k] for k in rows] == [None, *thresholds.tolist()]
        tp = [float(((raw[learner] >= t) & (raw["y"] == 1)).sum()) for t in thresholds]
        fp = [float(((raw[learner] >= t) & (raw["y"] == 0)).sum()) for t in thresholds]
        assert [counts["tp"][k] for k in rows] == [0.0, *tp]
        assert [counts["fp"][k] for k in rows] == [0.0, *fp]
    status, out = _verify(capsys, tmp_path / "out" / "report.pdf")
    assert status == 0
    assert "not rerun: the data of preds.csv is attached as the count tables an engine aggregated" in out


@pytest.mark.parametrize("given, size", [("50MB", 50_000_000), ("50 MB", 50_000_000), ("1.5GB", 1_500_000_000),
                                         ("200kB", 200_000), ("64MiB", 64 * 2**20), (1234, 1234), ("0", 0)])
def test_attach_limit_sizes(given, size):
    from evalreport.spec.deliverable import parse_size

    assert parse_size(given) == size


@pytest.mark.parametrize("report, said", [
    ("{attach_limit: 50 parsecs}", "give a size such as 50MB"),
    ("{attach: [dat]}", "report.attach"),
    ("{sign: {certificate: x.p12, password_env: 'hunter 2'}}", "the name of an environment variable"),
])
def test_bad_report_keys_exit_2(tmp_path, capsys, report, said):
    _write_data(tmp_path)
    (tmp_path / "spec.yaml").write_text(f"version: 1\ndata: [{{path: preds.csv, label: y, learners: {{a: a}}}}]\n"
                                        f"report: {report}\n")
    assert main(["validate", str(tmp_path / "spec.yaml")]) == 2
    err = capsys.readouterr().err
    assert said in err and "spec.yaml:3" in err


def test_a_key_that_is_not_the_certificates(tmp_path, monkeypatch, capsys):
    _write_data(tmp_path)
    _write_signer(tmp_path)
    key, _ = _certificate(tmp_path, "Another")
    (tmp_path / "other.key").write_bytes(key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    (tmp_path / "spec.yaml").write_text(SPEC.format(sign="  sign: {certificate: signer.crt, key: other.key}\n"))
    assert main(["run", str(tmp_path / "spec.yaml"), "--out", str(tmp_path / "out")]) == 2
    assert "report.sign.key: the private key does not belong to the certificate; nothing was written" in \
        capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_values_compared_exactly_or_within_1e_12():
    from evalreport.verify.compare import compare_values

    recorded = {"evalreport_version": "0.1.0", "n": 3, "name": "a", "x": 0.1, "ok": True, "v": [1.0, None]}
    assert compare_values(recorded, {**recorded, "evalreport_version": "0.1.9"}) == (6, [])
    assert compare_values(recorded, {**recorded, "x": 0.1 * (1 + 5e-13)}) == (6, [])
    same, diffs = compare_values(recorded, {**recorded, "x": 0.1 * (1 + 5e-12), "n": 4, "ok": 1,
                                            "v": [1.0], "extra": 1})
    assert same == 1 and diffs == ["n: recorded 3, rerun 4", "x: recorded 0.1, rerun 0.10000000000050001",
                                   "ok: recorded True, rerun 1", "v: recorded 2 items, rerun 1",
                                   "extra: not recorded, present in the rerun"]


@pytest.mark.slow
def test_rerun_with_history_uses_the_archive(archive, tmp_path, capsys):
    """A spec with history: reruns against the runs of --history DIR before its date."""
    folder = tmp_path / "weekly"
    shutil.copytree(archive.parent, folder)
    _write_data(folder, seed=9)
    text = HISTORY_SPEC.format(date="2026-11-29").replace("formats: [json]", "formats: [pdf], "
                                                          "attach: [results, spec, data]")
    (folder / "spec.yaml").write_text(text)
    assert main(["run", str(folder / "spec.yaml"), "--quiet"]) == 0
    pdf = folder / "out" / "report.pdf"
    status, out = _verify(capsys, pdf)
    assert status == 0 and "not rerun: the spec has history: give --history DIR" in out
    status, out = _verify(capsys, pdf, "--history", folder / "archive")
    assert status == 0, out
    assert re.search(r"verified: \d+ values reproduce", out)
    assert "chain of audits: 5 run(s), 2026-11-01 to 2026-11-29" in out
    shutil.rmtree(folder / "archive" / "2026-11-29")  # the report's own run gone from the archive
    status, out = _verify(capsys, pdf, "--history", folder / "archive")
    assert status == 4 and "run 2026-11-29 (this report's) is missing from the archive" in out


@pytest.mark.slow
@pytest.mark.parametrize("where", ["parent", "absolute"])
def test_rerun_lays_out_data_outside_the_spec_folder(tmp_path, capsys, where):
    (tmp_path / "specs").mkdir()
    (tmp_path / "data").mkdir()
    _write_data(tmp_path / "data")
    path = "../data/preds.csv" if where == "parent" else str(tmp_path / "data" / "preds.csv")
    (tmp_path / "specs" / "s.yaml").write_text(
        f"version: 1\ndate: 2026-11-22\ndata:\n  - {{path: '{path}', label: y, learners: {{a: a}}}}\n"
        "report: {formats: [pdf], attach: [results, spec, data]}\n")
    assert main(["run", str(tmp_path / "specs" / "s.yaml"), "--quiet", "--out", str(tmp_path / "out")]) == 0
    shutil.rmtree(tmp_path / "data")  # only the PDF is left: the rerun reads the attached copy
    status, out = _verify(capsys, tmp_path / "out" / "report.pdf")
    assert status == 0, out
    assert re.search(r"verified: \d+ values reproduce", out)


def test_a_value_a_later_release_adds_is_noted_not_a_difference():
    """A report made by an earlier release of the same minor version lacks the
    measures added since (LR+, say): the rerun's extra keys are listed, not failed;
    a recorded value that does not reproduce still is a difference."""
    from evalreport.verify.compare import compare_values

    new: list = []
    same, diffs = compare_values({"a": {"auc": 0.5}}, {"a": {"auc": 0.5, "lr_plus": 2.0}}, new)
    assert (same, diffs, new) == (1, [], ["a.lr_plus"])
    same, diffs = compare_values({"a": {"auc": 0.5, "x": 1}}, {"a": {"auc": 0.6}}, new)
    assert diffs == ["a.auc: recorded 0.5, rerun 0.6", "a.x: recorded, missing from the rerun"]


def test_a_spec_published_redacted_still_reruns(tmp_path, capsys):
    """A credential in the spec (here in a comment) is redacted in the attached copy,
    with a warning saying so; the rerun from that copy has nothing to redact, and the
    verification compares every other value (the warning is the report's alone)."""
    _write_data(tmp_path)
    spec = SPEC.format(sign="").replace("[pdf, json, html]", "[pdf]") + "# export DB_PASSWORD=hunter2hunter2\n"
    (tmp_path / "spec.yaml").write_text(spec)
    assert main(["run", str(tmp_path / "spec.yaml"), "--quiet", "--out", str(tmp_path / "out")]) == 0
    results = json.loads(pypdf.PdfReader(tmp_path / "out" / "report.pdf").attachments["results.json"][0])
    assert any(w.startswith("the report publishes the spec with credentials redacted") for w in results["warnings"])
    status, out = _verify(capsys, tmp_path / "out" / "report.pdf")
    assert status == 0, out
    assert re.search(r"verified: \d+ values reproduce", out)
