"""What the report publishes and what it says: credentials redacted from the
spec it copies; Python's warnings (NumPy, matplotlib) routed into the report's
warnings instead of stderr; and every comparison or measure a spec asks for and
the run does not compute named in the warnings, with the reason."""

from __future__ import annotations

import html
import json
import re
import textwrap
import warnings
from pathlib import Path

import numpy as np
import pytest

from evalreport.__main__ import main
from evalreport.redact import (
    looks_like_credential,
    published_spec,
    published_spec_text,
    redact_spec_text,
    redact_text,
)


def _write(tmp: Path, spec: str, **files: str) -> Path:
    for name, text in files.items():
        (tmp / name).write_text(text)
    path = tmp / "spec.yaml"
    path.write_text(textwrap.dedent(spec))
    return path


def _run(spec: Path, formats: str = "json,html", *more) -> tuple[int, dict, str]:
    out = spec.parent / "out"
    status = main(["run", str(spec), "--quiet", "--out", str(out), "--format", formats, *more])
    d = json.loads((out / "results.json").read_text())
    page = (out / "report.html").read_text() if "html" in formats else ""
    return status, d, page


def _report_warnings(page: str) -> list[str]:
    """The items of the report's warnings section, as text."""
    section = re.search(r'<section id="warnings">(.*?)</section>', page, flags=re.S).group(1)
    return [html.unescape(w) for w in re.findall(r"<li>(.*?)</li>", section, flags=re.S)]


BINARY_CSV = "id,y,a,b\n" + "".join(
    f"{i},{y},{a},{b}\n" for i, (y, a, b) in enumerate(
        [(1, 0.9, 0.7), (0, 0.1, 0.3), (1, 0.8, 0.4), (0, 0.3, 0.6), (1, 0.45, 0.8), (0, 0.6, 0.2),
         (1, 0.7, 0.9), (0, 0.2, 0.1)]))


# ---------------------------------------------------------------------------
# A. credentials in the spec


@pytest.mark.parametrize("name, secret", [
    ("fs.s3a.secret.key", True), ("fs.s3a.access.key", True), ("api_key", True), ("access-key", True),
    ("apiKey", True), ("AWS_SECRET_ACCESS_KEY", True), ("spark.ssl.keyPassword", True),
    ("password", True), ("passwd", True), ("db_pwd", True), ("token", True), ("auth", True),
    ("Authorization", True), ("credentials", True), ("client_secret", True), ("apikey", True),
    ("accesstoken", True), ("spark.hadoop.fs.azure.account.key.acct.blob.core.windows.net", True),
    ("monkey", False), ("keys", False), ("keyword", False), ("primary_keys", False), ("hotkey", False),
    ("author", False), ("authority", False), ("max_tokens", False), ("secretary", False),
    ("passage", False), ("label", False), ("spark.sql.shuffle.partitions", False), ("master", False),
    ("remote", False), ("learners", False),
])
def test_which_key_names_are_credentials(name, secret):
    assert looks_like_credential(name) is secret


@pytest.mark.parametrize("url, published", [
    ("sc://user:hunter2@host:15002", "sc://user:<redacted>@host:15002"),
    ("sc://host:15002/;user_id=me;token=abc123", "sc://host:15002/;user_id=me;token=<redacted>"),
    ("https://example.com/x.csv?sig=abc&se=2026&token=t", "https://example.com/x.csv?sig=<redacted>&se=2026&token=<redacted>"),
    ("jdbc:postgresql://db/x?user=me&password=pw", "jdbc:postgresql://db/x?user=me&password=<redacted>"),
    ("spark://host:7077", "spark://host:7077"),  # a port, not a password
    ("s3://bucket/key/predictions.parquet", "s3://bucket/key/predictions.parquet"),
    ("https://example.com/?keys=1&monkey=2", "https://example.com/?keys=1&monkey=2"),
])
def test_url_credentials(url, published):
    assert redact_text(url) == (published, published != url)


@pytest.mark.parametrize("text, published", [
    # shell and .env assignments, JVM properties, options, HTTP credentials
    ("export AWS_SECRET_ACCESS_KEY=PW", "export AWS_SECRET_ACCESS_KEY=<redacted>"),
    ("DB_PASSWORD='p w' psql", "DB_PASSWORD=<redacted> psql"),
    ("-Dspark.ui.port=4040 -Djavax.net.ssl.trustStorePassword=PW -Xmx2g",
     "-Dspark.ui.port=4040 -Djavax.net.ssl.trustStorePassword=<redacted> -Xmx2g"),
    ('"-Djavax.net.ssl.keyStorePassword=PW"', '"-Djavax.net.ssl.keyStorePassword=<redacted>"'),
    (r'"-Dapi.token=\"P W\" -Dx=1"', r'"-Dapi.token=<redacted> -Dx=1"'),  # inside a YAML "..." scalar
    ("--password=PW --verbose", "--password=<redacted> --verbose"),
    ("--token PW --verbose", "--token <redacted> --verbose"),
    ("--password --verbose", "--password --verbose"),  # no value: the next option is none
    ("Authorization: Bearer abc.DEF-1", "Authorization: Bearer <redacted>"),
    ("authorization=Basic dXNlcjpwdw==", "authorization=Basic <redacted>"),
    ("curl -H 'Bearer abc123' x", "curl -H 'Bearer <redacted>' x"),
    # a connection string: a name that is no credential does not swallow the pairs after it
    ("Server=db;User Id=me;Password=PW;Encrypt=true", "Server=db;User Id=me;Password=<redacted>;Encrypt=true"),
    ("user=me password=PW", "user=me password=<redacted>"),
    # ordinary words and settings stay
    ("keyword=AUC monkey=2 keys=3 max_tokens=5 author=me", "keyword=AUC monkey=2 keys=3 max_tokens=5 author=me"),
    ("-Dspark.ui.port=4040 -Dlog4j.configuration=x", "-Dspark.ui.port=4040 -Dlog4j.configuration=x"),
    ("--master local[2] --keys 3", "--master local[2] --keys 3"),
    ("the bearer of good news; a token= left empty", "the bearer of good news; a token= left empty"),
    ("password = PW", "password = PW"),  # prose, not an assignment
])
def test_credentials_inside_a_text(text, published):
    assert redact_text(text) == (published, published != text)
    assert redact_text(published) == (published, False)  # nothing left to redact


# Each shape once: a previous unbounded pattern made redaction quadratic, and
# 1 MB of letters in a title hung the test suite.
@pytest.mark.slow
@pytest.mark.parametrize("unit", ["a", "=", ":", "-D", "-Da=", "?a=", "--a ", "Bearer "])
def test_redaction_is_linear_in_the_length(unit):
    import subprocess
    import sys

    code = textwrap.dedent(f"""\
        from evalreport.redact import redact_spec_text, redact_text
        s = {unit!r} * (1_000_000 // {len(unit)})
        redact_text(s)
        redact_spec_text("title: x\\n# " + s + "\\n")
        redact_spec_text("title: " + s + "\\n")
        """)
    # timeout: a hang guard only, never reached under any load (linear, this takes
    # about a second; the quadratic pattern it guards against took hours)
    subprocess.run([sys.executable, "-c", code], check=True, timeout=600, env={
        **__import__("os").environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])})


SECRET_SPEC = """\
version: 1   # the spec format
title: "Credentials stay home"
description: Scores exported from https://bob:PW-8@models.example.com/q4 on Monday.
date: 2026-11-22
data:
  - path: pred.csv
    label: y
    id: id
    learners: {a: a, b: b}
spark:
  remote: "sc://spark.example.com:15002/;user_id=audit;token=TOKEN-1"
  conf:
    spark.sql.shuffle.partitions: "8"
    fs.s3a.access.key: AKIA-ID-2            # the key id
    fs.s3a.secret.key: "SECRET-3"
    spark.ssl.keyPassword: 'SECRET-4'
    spark.hadoop.api.token: SECRET-5
      continued on a second line
    fs.azure.sas.token: |
      SECRET-6-line-1
      SECRET-6-line-2
# fs.s3a.secret.key: SECRET-7 (last quarter's)
report: {formats: [html, json], out: out}
"""

SECRET_SPEC_PUBLISHED = """\
version: 1   # the spec format
title: "Credentials stay home"
description: Scores exported from https://bob:<redacted>@models.example.com/q4 on Monday.
date: 2026-11-22
data:
  - path: pred.csv
    label: y
    id: id
    learners: {a: a, b: b}
spark:
  remote: "sc://spark.example.com:15002/;user_id=audit;token=<redacted>"
  conf:
    spark.sql.shuffle.partitions: "8"
    fs.s3a.access.key: <redacted>            # the key id
    fs.s3a.secret.key: <redacted>
    spark.ssl.keyPassword: <redacted>
    spark.hadoop.api.token: <redacted>
    fs.azure.sas.token: <redacted>
# fs.s3a.secret.key: <redacted> (last quarter's)
report: {formats: [html, json], out: out}
"""

SECRET_KEYS = ["description (URL credentials)", "spark.remote (URL credentials)", "spark.conf.fs.s3a.access.key", "spark.conf.fs.s3a.secret.key",
               "spark.conf.spark.ssl.keyPassword", "spark.conf.spark.hadoop.api.token",
               "spark.conf.fs.azure.sas.token", "comment on line 22"]


def test_redact_spec_text_changes_only_the_secrets():
    import yaml

    text, keys = redact_spec_text(SECRET_SPEC)
    assert text == SECRET_SPEC_PUBLISHED
    assert keys == SECRET_KEYS
    # still YAML, of the same shape
    published, original = yaml.safe_load(text), yaml.safe_load(SECRET_SPEC)
    assert published["spark"]["conf"]["fs.azure.sas.token"] == "<redacted>"
    assert published.keys() == original.keys() and published["data"] == original["data"]
    assert redact_spec_text("") == ("", [])


@pytest.mark.parametrize("text, published, where", [
    # a flow mapping, quoted keys and values
    ('spark:\n  conf: {fs.s3a.secret.key: abc, "spark.x": "1", \'api_key\': "k y"}\n',
     'spark:\n  conf: {fs.s3a.secret.key: <redacted>, "spark.x": "1", \'api_key\': <redacted>}\n',
     ["spark.conf.fs.s3a.secret.key", "spark.conf.api_key"]),
    # everything under a credential key; anchors kept, aliases follow them
    ("credentials: {user: bob, pass: [p1, p2]}\nmonkey: banana\n",
     "credentials: {user: <redacted>, pass: [<redacted>, <redacted>]}\nmonkey: banana\n", ["credentials"]),
    ("a: &s SECRET\npassword: *s\ntoken:\nnote: fine\n",
     "a: &s <redacted>\npassword: *s\ntoken:\nnote: fine\n", ["password"]),
    # a '#' inside a value is no comment (its "password: x" is the value's, issue 36); a commented-out
    # list item is
    ('title: "a # password: x"\n#  - token: "old one"   # trailing\n',
     'title: "a # password: <redacted>"\n#  - token: <redacted>   # trailing\n',
     ["title (credentials in the value)", "comment on line 2"]),
    # not YAML: URLs and commented-out pairs still
    # (the comment's "token: t" is redacted with the whole text: a pair in running text, issue 36)
    ("a: [b\nurl: sc://u:pw@h\n# token: t\n", "a: [b\nurl: sc://u:<redacted>@h\n# token: <redacted>\n",
     ["credentials in the value"]),
    ("a: [b\nopts: -Dx.password=pw\n", "a: [b\nopts: -Dx.password=<redacted>\n", ["credentials in the value"]),
    # a commented-out pair without a blank after the colon; a commented-out shell assignment
    ("# password:PW\n#token:'P W'\n# TODO:fix\n", "# password:<redacted>\n#token:<redacted>\n# TODO:fix\n",
     ["comment on line 1", "comment on line 2"]),
    ("a: 1\n# export AWS_SECRET_ACCESS_KEY=PW\n# keyword=AUC\n",
     "a: 1\n# export AWS_SECRET_ACCESS_KEY=<redacted>\n# keyword=AUC\n", ["comment on line 2"]),
    # in a commented-out header, the token, not the scheme
    ("# Authorization: Bearer xyz\n", "# Authorization: <redacted> <redacted>\n", ["comment on line 1"]),
    # credentials inside a value: a JVM option, a command line, an HTTP header; ordinary ones stay
    ('spark:\n  conf:\n    spark.driver.extraJavaOptions: "-Dspark.ui.port=4040 '
     '-Djavax.net.ssl.trustStorePassword=PW"\n    spark.executor.extraJavaOptions: -Dspark.ui.port=4040\n',
     'spark:\n  conf:\n    spark.driver.extraJavaOptions: "-Dspark.ui.port=4040 '
     '-Djavax.net.ssl.trustStorePassword=<redacted>"\n    spark.executor.extraJavaOptions: -Dspark.ui.port=4040\n',
     ["spark.conf.spark.driver.extraJavaOptions (credentials in the value)"]),
    ("note: 'run with --token PW'\nheaders: [\"Authorization: Bearer abc\"]\n",
     "note: 'run with --token <redacted>'\nheaders: [\"Authorization: Bearer <redacted>\"]\n",
     ["note (credentials in the value)", "headers[0] (credentials in the value)"]),
    ("note: keyword=AUC monkey=2\n", "note: keyword=AUC monkey=2\n", []),
])
def test_redaction_cases(text, published, where):
    assert redact_spec_text(text) == (published, where)


@pytest.fixture(scope="module")
def secret_report(tmp_path_factory):
    """SECRET_SPEC's report in every format, once for the tests that read its files: (the
    spec's path, the run's status, results.json, report.html); never write to it."""
    spec = _write(tmp_path_factory.mktemp("secrets"), SECRET_SPEC, **{"pred.csv": BINARY_CSV})
    return (spec, *_run(spec, "json,html,pdf"))


@pytest.mark.slow
def test_no_secret_in_the_report(secret_report):
    spec, status, d, page = secret_report
    assert status == 0
    published = (spec.parent / "out" / "results.json").read_text() + page
    for secret in ("TOKEN-1", "AKIA-ID-2", "SECRET-3", "SECRET-4", "SECRET-5", "continued", "SECRET-6",
                   "SECRET-7", "PW-8"):
        assert secret not in published
    # the spec in the provenance section is the text as written, secrets aside
    shown = re.search(r'<pre class="spec">(.*?)</pre>', page, flags=re.S).group(1)
    shown = re.sub(r'<span class="ln[^"]*" aria-hidden="true">[^<]*</span>', "", shown)  # the line numbers
    assert html.unescape(shown) == SECRET_SPEC_PUBLISHED
    assert "Scores exported from https://bob:&lt;redacted&gt;@models.example.com/q4" in page  # the header
    assert ("8 values that look like credentials are redacted: " + ", ".join(SECRET_KEYS) + ".") in \
        html.unescape(page)
    # what the PDF attaches (report/__init__.py)
    from evalreport.spec import load_spec

    assert published_spec_text(load_spec(spec)) == SECRET_SPEC_PUBLISHED


@pytest.mark.slow
def test_no_secret_in_the_pdf(secret_report):
    import pypdf
    spec, status, _, _ = secret_report
    assert status == 0
    out = spec.parent / "out"
    pdf = (out / "report.pdf").read_bytes()
    attached = pypdf.PdfReader(out / "report.pdf").attachments
    assert attached["spec.yaml"] == [SECRET_SPEC_PUBLISHED.encode()]
    text = "".join(page.extract_text() for page in pypdf.PdfReader(out / "report.pdf").pages)
    for secret in ("TOKEN-1", "AKIA-ID-2", "SECRET-3", "SECRET-6", "SECRET-7", "PW-8"):
        assert secret not in text and secret.encode() not in pdf


@pytest.mark.slow
def test_warnings_on_stderr_unless_quiet(tmp_path, capsys):
    # McNemar's chi-square asked for with few disagreements: a warning
    spec = _write(tmp_path, SECRET_SPEC.replace("date: 2026-11-22\n", "date: 2026-11-22\n"
                                                "confidence: {mcnemar: corrected}\n"), **{"pred.csv": BINARY_CSV})
    main(["run", str(spec), "--out", str(tmp_path / "out"), "--format", "json"])
    listed = json.loads((tmp_path / "out" / "results.json").read_text())["warnings"]
    err = capsys.readouterr().err
    assert listed and [f"warning: {w}" for w in listed] == err.splitlines()[:-1]
    assert err.splitlines()[-1].startswith("verdict: not_assessed (")  # the status, last
    main(["run", str(spec), "--out", str(tmp_path / "out"), "--format", "json", "--quiet"])
    assert capsys.readouterr().err == ""  # not_assessed: no bad news to print under --quiet


EVERYWHERE_SPEC = """\
version: 1
title: "Audit from sc://alice:TITLEPW@host:15002/;token=TITLETOKEN"
description: "Pulled with `Authorization: Bearer DESCBEARER` and --password DESCPW on Monday."
date: 2026-11-22
data:
  - path: "pred.csv?sig=PATHSIG"
    engine: duckdb
    kind: csv
    label: y
    id: id
    learners: {a: a, b: b}
spark:
  remote: "sc://spark.example.com:15002/;user_id=audit;token=REMOTETOKEN"
  conf:
    spark.driver.extraJavaOptions: "-Dspark.ui.port=4040 -Djavax.net.ssl.trustStorePassword=JAVAPW"
    fs.s3a.secret.key: CONFSECRET
# password:COMMENTPW
# export AWS_SECRET_ACCESS_KEY=EXPORTPW
report: {formats: [html, json, pdf], out: out}
"""
EVERYWHERE_SECRETS = ("TITLEPW", "TITLETOKEN", "DESCBEARER", "DESCPW", "PATHSIG", "REMOTETOKEN", "JAVAPW",
                      "CONFSECRET", "COMMENTPW", "EXPORTPW")
EVERYWHERE_TITLE = "Audit from sc://alice:<redacted>@host:15002/;token=<redacted>"


@pytest.mark.slow
def test_no_secret_published_anywhere(tmp_path):
    # a secret in the title, the description, spark.conf, spark.remote and a data path:
    # in no file of the report, nor in the PDF's text, metadata or attachments
    import duckdb  # noqa: F401
    import pypdf
    spec = _write(tmp_path, EVERYWHERE_SPEC, **{"pred.csv?sig=PATHSIG": BINARY_CSV})
    status, d, page = _run(spec, "json,html,pdf")
    assert status == 0
    out = tmp_path / "out"
    reader = pypdf.PdfReader(out / "report.pdf")
    published = {
        "results.json": (out / "results.json").read_text(),
        "report.html": page,
        "the PDF's text": "".join(p.extract_text() for p in reader.pages),
        "the PDF's metadata": json.dumps({k: str(v) for k, v in reader.metadata.items()}),
        "the PDF's bytes": (out / "report.pdf").read_bytes().decode("latin-1"),
        **{f"the PDF's {name}": b"".join(data).decode() for name, data in reader.attachments.items()},
    }
    assert set(reader.attachments) == {"results.json", "spec.yaml", "evalreport-attachments.json"}
    for where, text in published.items():
        assert [s for s in EVERYWHERE_SECRETS if s in text] == [], where
    # the title as published, the same everywhere
    assert d["title"] == reader.metadata["/Title"] == EVERYWHERE_TITLE
    escaped = html.escape(EVERYWHERE_TITLE, quote=False)
    assert f"<title>{escaped}</title>" in page and f"<h1>{escaped}</h1>" in page
    assert f'content="Evaluation report: {html.escape(EVERYWHERE_TITLE)}"' in page
    assert d["inputs"][0]["path"] == d["learners"]["a"]["source"] == "pred.csv?sig=<redacted>"
    assert ("Pulled with <code>Authorization: Bearer &lt;redacted&gt;</code> and --password &lt;redacted&gt; "
            "on Monday.") in page
    assert ("8 values that look like credentials are redacted: title (URL credentials), description "
            "(credentials in the value), data[0].path (URL credentials), spark.remote (URL credentials), "
            "spark.conf.spark.driver.extraJavaOptions (credentials in the value), spark.conf.fs.s3a.secret.key, "
            "comment on line 17, comment on line 18.") in html.unescape(page)


# --- issue 36: secrets the third campaign found published --------------------------------------

GITHUB_TOKEN = "ghp_" + "A1b2C3d4E5" * 4  # the shape of a GitHub token: ghp_ and 36+ letters and digits
CAMPAIGN_SPEC = f"""\
version: 1
title: Campaign
description: |
  Pulled with {GITHUB_TOKEN} from the warehouse.
  Warehouse login password: DESCPASSWORD9 (rotate it).
date: 2026-11-22
data:
  - path: "user:FOLDERSECRET@host/pred.csv"
    label: y
    id: id
    learners: {{a: a, b: b}}
spark:
  conf:
    spark.hadoop.fs.azure.sas.box.acct.blob.core.windows.net: "sv=2022-11-02&ss=b&srt=co&SASSIG"
# [default]
# aws_secret_access_key = INISECRET7
# region = eu-west-1
report: {{formats: [html, json, pdf], out: out}}
"""
CAMPAIGN_SECRETS = (GITHUB_TOKEN, "DESCPASSWORD9", "FOLDERSECRET", "SASSIG", "INISECRET7")


def test_the_campaigns_secrets_are_published_nowhere(tmp_path, capsys):
    pypdf = pytest.importorskip("pypdf")
    (tmp_path / "user:FOLDERSECRET@host").mkdir()
    spec = _write(tmp_path, CAMPAIGN_SPEC, **{"user:FOLDERSECRET@host/pred.csv": BINARY_CSV})
    status = main(["run", str(spec)])
    captured = capsys.readouterr()
    assert status == 0
    out = tmp_path / "out"
    reader = pypdf.PdfReader(out / "report.pdf")
    published = {
        "results.json": (out / "results.json").read_text(),
        "report.html": html.unescape((out / "report.html").read_text()),
        "the PDF's text": "".join(p.extract_text() for p in reader.pages),
        "the PDF's bytes": (out / "report.pdf").read_bytes().decode("latin-1"),
        **{f"the PDF's {name}": b"".join(data).decode() for name, data in reader.attachments.items()},
        "stdout": captured.out, "stderr": captured.err,
    }
    for where, text in published.items():
        assert [s for s in CAMPAIGN_SECRETS if s in text] == [], where
    d = json.loads(published["results.json"])
    assert d["inputs"][0]["path"].endswith("user:<redacted>@host/pred.csv")
    attached = b"".join(reader.attachments["spec.yaml"]).decode()
    assert attached == CAMPAIGN_SPEC.replace(GITHUB_TOKEN, "<redacted>").replace(
        "DESCPASSWORD9", "<redacted>").replace("FOLDERSECRET", "<redacted>").replace(
        '"sv=2022-11-02&ss=b&srt=co&SASSIG"', "<redacted>").replace("INISECRET7", "<redacted>")
    # the attached spec is not the file's bytes: a warning says so, in results.json and on stderr
    said = [w for w in d["warnings"] if w.startswith("the report publishes the spec with credentials redacted")]
    assert len(said) == 1 and "comment on line 16" in said[0]
    assert f"warning: {said[0]}" in captured.err.splitlines()


def test_a_spec_without_secrets_is_attached_byte_for_byte(tmp_path):
    pypdf = pytest.importorskip("pypdf")
    text = "version: 1\n# a comment, kept: monkey: banana; keyword=AUC\ntitle:   'spaced'  \n" \
           "data:\n  - {path: pred.csv, label: y, id: id, learners: {a: a, b: b}}\n" \
           "report: {formats: [json, pdf], out: out}\ndate: 2026-11-22\n"
    spec = _write(tmp_path, text, **{"pred.csv": BINARY_CSV})
    assert main(["run", str(spec), "--quiet"]) == 0
    reader = pypdf.PdfReader(tmp_path / "out" / "report.pdf")
    assert b"".join(reader.attachments["spec.yaml"]) == spec.read_bytes()
    assert not [w for w in json.loads((tmp_path / "out" / "results.json").read_text())["warnings"]
                if "credentials" in w]


@pytest.mark.parametrize("text, published", [
    # known token shapes, wherever they stand
    (f"token {GITHUB_TOKEN} here", "token <redacted> here"),
    ("github_pat_11ABCDEFG0_abcdefghijklmnopqrstuv", "<redacted>"),
    ("id AKIAIOSFODNN7EXAMPLE,", "id <redacted>,"),
    ("jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJl", "jwt <redacted>"),
    # a name: value pair in running text (a description, a SQL comment DuckDB echoes)
    ("login password: hunter2 (rotate)", "login password: <redacted> (rotate)"),
    ("-- motherduck_token: MDT", "-- motherduck_token: <redacted>"),
    ("md:db?motherduck_token=MDT", "md:db?motherduck_token=<redacted>"),
    ("/* password=PW */ SELECT", "/* password=<redacted> */ SELECT"),
    ("my api_key: K", "my api_key: <redacted>"),
    # user:password@host without a scheme (a folder so named)
    ("/data/user:PW@host/pred.csv", "/data/user:<redacted>@host/pred.csv"),
    # ordinary text stays
    ("Key: the model's threshold", "Key: the model's threshold"),
    ("at 12:30@home", "at 12:30@home"),
    ("ghp_short", "ghp_short"),
    ("a time 10:15, a ratio 3:1", "a time 10:15, a ratio 3:1"),
])
def test_campaign_shapes(text, published):
    assert redact_text(text) == (published, published != text)


def test_stderr_errors_are_redacted(tmp_path, capsys):
    pytest.importorskip("duckdb")
    spec = _write(tmp_path, """\
        version: 1
        data:
          - path: "SELECT * FROM read_csv('pred.csv') WHERE 1=1 -- password: SQLPW motherduck_token=MDTOKEN"
            engine: duckdb
            kind: sql
            label: y
            learners: {a: a}
        report: {formats: [json], out: out}
        """, **{"pred.csv": BINARY_CSV})
    assert main(["run", str(spec)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "Traceback" not in err
    assert "SQLPW" not in err and "MDTOKEN" not in err
    assert "password: <redacted>" in err
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_published_texts_of_a_result(tmp_path):
    # every sink takes the texts from one view, the warnings included (one may name a data file)
    from dataclasses import replace

    from evalreport.pipeline import evaluate, with_blocks
    from evalreport.redact import published
    from evalreport.report.context import report_context
    from evalreport.results import result_dict
    from evalreport.spec import load_spec

    spec = _write(tmp_path, CJK_SPEC.replace("version: 1", 'version: 1\ntitle: "From https://u:PW@h/x"')
                  .replace("{模型: a, b: b}", "{a: a, b: b}"), **{"pred.csv": BINARY_CSV})
    result = evaluate(load_spec(spec))
    # the blocks built again, as the pipeline builds them once (pipeline.with_blocks)
    result = with_blocks(replace(result, warnings=["RuntimeWarning in f (x.py), while aggregating "
                                                   "https://h/x.csv?sig=SIG with duckdb: overflow"],
                                 inputs=[{**result.inputs[0], "path": "https://u:PW@h/x.csv"}]))
    view = published(result)
    assert view is published(result) is result.published  # made once, by the pipeline
    assert view.title == "From https://u:<redacted>@h/x"
    assert view.redacted == ("title (URL credentials)",)
    assert view.inputs == ({**result.inputs[0], "path": "https://u:<redacted>@h/x.csv"},)
    assert view.warnings == ("RuntimeWarning in f (x.py), while aggregating https://h/x.csv?sig=<redacted> "
                             "with duckdb: overflow",
                             # said once the spec's texts are redacted (issue 36)
                             "the report publishes the spec with credentials redacted (the spec shown in the report "
                             "and attached to the PDF differs from the file run, and so may the title and "
                             "description shown): 1 value that looks like a credential is redacted: title (URL "
                             "credentials).")
    d, context = result_dict(result), report_context(result)
    assert d["title"] == context.title == view.title
    assert d["inputs"] == list(view.inputs) and context.inputs[0].path == view.inputs[0]["path"]
    assert d["warnings"] == context.warnings and d["warnings"][0] == view.warnings[0]
    assert context.spec_redacted == "1 value that looks like a credential is redacted: title (URL credentials)."


def test_published_spec_built_in_python():
    # no spec text to follow: the title and description are redacted all the same
    from evalreport.spec import Spec

    spec = Spec.model_validate({"version": 1, "title": "From https://u:PW@h/x", "description": "--token TK",
                                "data": [{"path": "p.csv", "label": "y", "learners": {"a": "a"}}]})
    assert published_spec(spec) == ("From https://u:<redacted>@h/x", "--token <redacted>", "",
                                     ("title (URL credentials)", "description (credentials in the value)"))


@pytest.mark.slow
def test_no_redaction_note_without_credentials(tmp_path):
    plain = "".join(line for line in SECRET_SPEC.split("spark:")[0].splitlines(keepends=True)
                    if not line.startswith("description"))
    spec = _write(tmp_path, plain + "report: {formats: [html, json], out: out}\n",
                  **{"pred.csv": BINARY_CSV})
    _, _, page = _run(spec)
    assert "redacted" not in page


# ---------------------------------------------------------------------------
# B. Python's warnings go to the report, not to stderr

CJK_SPEC = """\
version: 1
date: 2026-11-22
data:
  - path: pred.csv
    label: y
    id: id
    learners: {模型: a, b: b}
confidence: {bootstrap: 0}
report: {formats: [html, json], out: out}
"""

GLYPH = ("UserWarning in reliability_figure, roc_figure, pr_figure, cost_figure, scalars_figure and "
         "gains_figures (evalreport/figures/svg.py), "
         "while drawing the report's figures: Glyph 27169 (\\N{CJK UNIFIED IDEOGRAPH-6A21}) missing from "
         "font(s) DejaVu Sans.")


@pytest.mark.slow
def test_matplotlib_warnings_reach_the_report_not_stderr(tmp_path, capfd):
    # DejaVu Sans has no CJK glyphs: matplotlib warns once per glyph and figure
    spec = _write(tmp_path, CJK_SPEC, **{"pred.csv": BINARY_CSV})
    capfd.readouterr()
    status, d, page = _run(spec)
    assert status == 0
    assert capfd.readouterr().err == ""
    listed = _report_warnings(page)
    assert GLYPH in listed
    assert sum("missing from font(s)" in w for w in listed) == 2  # one line per glyph
    # the figures' warnings are the report's: after the evaluation's, which results.json lists
    assert listed[:len(d["warnings"])] == d["warnings"] and GLYPH not in d["warnings"]


@pytest.mark.slow
def test_results_json_is_the_same_without_the_html(tmp_path):
    spec = _write(tmp_path, CJK_SPEC, **{"pred.csv": BINARY_CSV})
    _, with_html, _ = _run(spec, "json,html")
    _, alone, _ = _run(spec, "json")
    assert alone == with_html


@pytest.mark.slow
def test_numpy_warning_while_drawing(tmp_path, capfd):
    # PC(+) of 1e-320: the iso-cost line of the ROC figure has an infinite slope
    spec = _write(tmp_path, CJK_SPEC.replace("{模型: a, b: b}", "{a: a, b: b}")
                  + "priors: {positive: 1.0e-320}\n", **{"pred.csv": BINARY_CSV})
    capfd.readouterr()
    _, d, page = _run(spec)
    assert capfd.readouterr().err == ""
    # (the ROC figure's drawing is the plot helper's, evalreport.figures.plots.plot_roc)
    pattern = (r"RuntimeWarning in plot_roc \(evalreport/figures/plots\.py:\d+\), while drawing the report's "
               r"figures: invalid value encountered in multiply")
    listed = _report_warnings(page)
    assert any(re.fullmatch(pattern, w) for w in listed), listed
    assert listed[:len(d["warnings"])] == d["warnings"]


def test_extreme_weights_under_duckdb_are_scaled_not_overflowed(tmp_path, capfd):
    import duckdb  # noqa: F401
    # Binned by DuckDB, a weight of 1e200 once overflowed the bound on average precision
    # (a RuntimeWarning routed to the report); the engines now scale such weights by a
    # power of two, as the memory engine does (issue 36): the bound is defined, said once
    spec = _write(tmp_path, """\
        version: 1
        date: 2026-11-22
        data:
          - path: pred.csv
            label: y
            weight: w
            engine: duckdb
            resolution: 4
            learners: {a: a}
        report: {formats: [json], out: out}
        """, **{"pred.csv": "y,w,a\n1,1e200,0.9\n0,1,0.1\n1,2,0.5\n0,1,0.4\n"})
    capfd.readouterr()
    _, d, _ = _run(spec, "json")
    assert capfd.readouterr().err == ""
    assert not [w for w in d["warnings"] if w.startswith("RuntimeWarning")]
    assert any(w.startswith("pred.csv: column 'w': the weights are scaled by 2^-") for w in d["warnings"])
    assert d["learners"]["a"]["resolution_bound"]["average_precision"] is not None


def test_routed_warnings_group_by_message_and_reissue_deprecations():
    from evalreport.capture import routed_warnings

    def evaluate_one(stage_routed, x):  # a public name: the function a line names
        stage_routed.stage = f"evaluating {x}"
        return np.float64(1.0) / np.float64(0.0)

    with warnings.catch_warnings(record=True) as outside:
        warnings.simplefilter("always")
        with routed_warnings("start") as routed:
            evaluate_one(routed, "a")
            evaluate_one(routed, "b")
            warnings.warn("old API", DeprecationWarning)
    assert len(routed.caught) == 2
    (line,) = routed.lines()
    assert line.startswith("RuntimeWarning in ")  # from this test file: outside evalreport
    assert line.endswith(", while evaluating a and evaluating b: divide by zero encountered in scalar divide")
    assert [str(w.message) for w in outside] == ["old API"]  # deprecations: Python's usual way


# ---------------------------------------------------------------------------
# C. nothing asked for is dropped in silence

@pytest.mark.slow
def test_delong_with_undefined_z_is_a_warning(tmp_path):
    # both learners separate the classes perfectly: AUC 1 with no variance
    csv = "id,y,a,b\n0,1,0.9,0.8\n1,1,0.8,0.7\n2,0,0.2,0.1\n3,0,0.1,0.3\n4,1,0.7,0.9\n5,0,0.3,0.2\n"
    spec = _write(tmp_path, CJK_SPEC.replace("{模型: a, b: b}", "{a: a, b: b}"), **{"pred.csv": csv})
    _, d, page = _run(spec)
    (row,) = d["comparisons"]["delong"]
    assert row["z"] is None and row["p_value"] == 1.0
    reason = ("the two learners have identical structural components (for instance identical predictions): "
              "the difference is 0 with no variance, p = 1")
    assert f"DeLong's test of 'a' and 'b': z is undefined: {reason}" in d["warnings"]
    assert reason in html.unescape(page.split('id="comparisons"')[1].split("</section>")[0])


@pytest.mark.slow
@pytest.mark.parametrize("e01, e10", [(0, 1), (3, 9), (5, 0), (7, 7), (2, 11), (12, 12)])
def test_mcnemar_exact_p_value_matches_statsmodels(e01, e10):
    from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

    from evalreport.compare.stats import mcnemar

    # e00 = 4 instances both right, then e01 where a is wrong, e10 where b is
    y = np.ones(4 + e01 + e10, dtype=bool)
    a = np.r_[np.ones(4), np.zeros(e01), np.ones(e10)].astype(bool)
    b = np.r_[np.ones(4), np.ones(e01), np.zeros(e10)].astype(bool)
    r = mcnemar(y, a, b, method="corrected")  # the chi-square asked for: the exact p beside it
    assert (r.e01, r.e10) == (e01, e10)
    expected = sm_mcnemar([[4, e10], [e01, 0]], exact=True).pvalue
    assert r.p_value_exact == pytest.approx(expected, rel=1e-12)
    assert f"only {e01 + e10} disagreement" in r.note
    auto = mcnemar(y, a, b)  # below 25 disagreements: the exact test is the one, and says nothing
    assert (auto.method, auto.p_value_exact, auto.note) == ("exact", None, None)
    assert auto.p_value == pytest.approx(expected, rel=1e-12)


def test_mcnemar_exact_only_below_25_disagreements():
    from evalreport.compare.stats import mcnemar

    y = np.ones(30, dtype=bool)
    r = mcnemar(y, np.r_[np.zeros(10), np.ones(20)].astype(bool), np.r_[np.ones(10), np.zeros(20)].astype(bool))
    assert r.e01 + r.e10 == 30 and r.p_value_exact is None and r.note is None


@pytest.mark.slow
def test_mcnemar_exact_p_value_in_json_report_and_warnings(tmp_path):
    # the chi-square asked for (confidence.mcnemar: corrected) with few disagreements
    spec = _write(tmp_path, CJK_SPEC.replace("{模型: a, b: b}", "{a: a, b: b}")
                  .replace("{bootstrap: 0}", "{bootstrap: 0, mcnemar: corrected}"), **{"pred.csv": BINARY_CSV})
    _, d, page = _run(spec)
    (row,) = d["comparisons"]["mcnemar"]
    n = row["e01"] + row["e10"]
    assert 0 < n < 25 and row["p_value_exact"] is not None and row["method"] == "corrected"
    assert any(w.startswith(f"McNemar's test of 'a' and 'b': only {n} disagreement") and "exact binomial test "
               f"gives p = {row['p_value_exact']:.3g}" in w for w in d["warnings"])
    comparisons = html.unescape(page.split('id="comparisons"')[1])
    from evalreport.report.format import p_value_text

    # the table's p cell: the χ² p-value, and the exact one beside it
    assert f"(exact {p_value_text(row['p_value_exact'])})</td>" in comparisons
    # the stated assumptions are sentences apart
    assert "rough when e01 + e10 is small: below 25 disagreements the exact binomial p-value is given" \
        in comparisons


@pytest.mark.slow
def test_mcnemar_auto_uses_the_exact_test_without_a_warning(tmp_path):
    spec = _write(tmp_path, CJK_SPEC.replace("{模型: a, b: b}", "{a: a, b: b}"), **{"pred.csv": BINARY_CSV})
    _, d, page = _run(spec)
    (row,) = d["comparisons"]["mcnemar"]
    n = row["e01"] + row["e10"]
    assert 0 < n < 25 and (row["method"], row["statistic"]) == ("exact", None)
    assert "p_value_exact" not in row and row["p_holm"] == row["p_value"]  # one pair: Holm's p is p
    assert not any(w.startswith("McNemar's test") for w in d["warnings"])
    comparisons = html.unescape(page.split('id="comparisons"')[1])
    assert (f'<td class="num nowrap">{row["e01"]}</td><td class="num nowrap">{row["e10"]}</td>'
            '<td class="nowrap">exact</td>') in comparisons
    assert ("the exact binomial test of e01 among the e01 + e10 disagreements below 25 of them, the "
            "continuity-corrected χ² with 1 degree of freedom from 25") in comparisons
    assert "0.95. McNemar: paired decisions" in comparisons


MC_SPEC = """\
version: 1
date: 2026-11-22
task: multiclass
classes: [x, y, z]
data:
  - path: pred.csv
    label: t
    learners: {m: [px, py, pz], n: [qx, qy, qz]}
costs: {matrix: [[0, 1, 4], [2, 0, 1], [1, 1, 0]]}
report: {formats: [json], out: out}
"""


def _mc_csv(rows_m, rows_n, labels="xyzxyz") -> str:
    lines = ["t,px,py,pz,qx,qy,qz"]
    for t, m, n in zip(labels, rows_m, rows_n):
        lines.append(",".join([t, *map(str, m), *map(str, n)]))
    return "\n".join(lines) + "\n"


EXACT = [(0.7, 0.2, 0.1), (0.1, 0.8, 0.1), (0.2, 0.2, 0.6), (0.3, 0.6, 0.1), (0.1, 0.5, 0.4), (0.5, 0.1, 0.4)]
ROUNDED = [(0.33, 0.33, 0.33), (0.1, 0.8, 0.1), (0.2, 0.2, 0.61), (0.3, 0.6, 0.1), (0.1, 0.5, 0.4),
           (0.5, 0.1, 0.4)]


def test_multiclass_explicit_pair_tests_are_named(tmp_path):
    spec = _write(tmp_path, MC_SPEC + "compare: [delong, mcnemar, auc, friedman]\n",
                  **{"pred.csv": _mc_csv(EXACT, EXACT)})
    _, d, _ = _run(spec, "json")
    assert ("compare: delong applies to binary tasks and is not computed for a multi-class task "
            "(its learners are ranked by accuracy, macro-F1, mean F1, macro AUC and cost, compared pairwise "
            "by McNemar's test and the paired t-test over groups, and across data sets by Friedman's test)"
            ) in d["warnings"]
    assert "delong" not in d["comparisons"]
    # McNemar's test applies: m and n are the same scores here, they never disagree
    assert d["comparisons"]["mcnemar"] == [{"a": "m", "b": "n", "e01": 0, "e10": 0, "method": "exact",
                                            "statistic": None, "p_value": 1.0, "p_holm": 1.0}]


def test_multiclass_compare_all_means_all_that_apply(tmp_path):
    spec = _write(tmp_path, MC_SPEC, **{"pred.csv": _mc_csv(EXACT, EXACT)})
    _, d, _ = _run(spec, "json")
    assert not any(w.startswith("compare:") for w in d["warnings"])


def test_bayes_cost_of_rounded_probabilities_is_renormalised(tmp_path):
    from evalreport.metrics.multiclass import multiclass_costs

    spec = _write(tmp_path, MC_SPEC, **{"pred.csv": _mc_csv(ROUNDED, EXACT)})
    _, d, _ = _run(spec, "json")
    m = d["learners"]["m"]
    scores = np.array(ROUNDED) / np.array(ROUNDED).sum(axis=1, keepdims=True)
    y = np.array([0, 1, 2, 0, 1, 2])
    expected = multiclass_costs(y, np.argmax(scores, axis=1), scores, [[0, 1, 4], [2, 0, 1], [1, 1, 0]],
                                probabilities=True)[1]
    assert m["bayes_decision_cost"] == pytest.approx(expected)
    assert ("learner 'm': score rows sum to between 0.99 and 1.01 (rounded probabilities?): each row is "
            "divided by its sum for the Bayes decision cost (largest deviation from 1: 0.01, row 1)"
            ) in d["warnings"]
    assert "bayes_decision_cost" in d["learners"]["n"]  # exact rows: as before, no word
    assert not any(w.startswith("learner 'n'") for w in d["warnings"])


@pytest.mark.slow
def test_bayes_cost_of_scores_that_are_not_probabilities_is_named(tmp_path):
    scores = [(3 * a, 3 * b, 3 * c) for a, b, c in EXACT[:1]] + [(2 * a, 2 * b, 2 * c) for a, b, c in EXACT[1:]]
    spec = _write(tmp_path, MC_SPEC, **{"pred.csv": _mc_csv(scores, EXACT)})
    _, d, _ = _run(spec, "json")
    assert "bayes_decision_cost" not in d["learners"]["m"]
    assert ("learner 'm': the Bayes decision cost is not computed: the scores are not probabilities (row 1 "
            "sums to 3; rows within 0.02 of 1 would be renormalised)") in d["warnings"]


@pytest.mark.slow
def test_friedman_names_the_learner_it_leaves_out(tmp_path):
    other = "id,y,a,b\n" + "".join(f"{i},{y},{a},{b}\n" for i, (y, a, b) in enumerate(
        [(1, 0.9, 0.8), (0, 0.1, 0.2), (1, 0.8, 0.3), (0, 0.2, 0.1), (1, 0.6, 0.2), (0, 0.4, 0.5)]))
    spec = _write(tmp_path, """\
        version: 1
        date: 2026-11-22
        data:
          - {path: one.csv, label: y, id: id, dataset: d1, learners: {a: a, b: b, c: b}}
          - {path: two.csv, label: y, id: id, dataset: d2, learners: {a: a, b: b}}
        confidence: {bootstrap: 0}
        report: {formats: [json], out: out}
        """, **{"one.csv": BINARY_CSV, "two.csv": other})
    _, d, _ = _run(spec, "json")
    assert d["comparisons"]["friedman"]["learners"] == ["a", "b"]
    assert "Friedman's test across data sets leaves out learner 'c': it is not measured on d2" in d["warnings"]


@pytest.mark.slow
def test_explicit_tests_that_do_not_apply_are_named(tmp_path):
    spec = _write(tmp_path, CJK_SPEC.replace("{模型: a, b: b}", "{a: a, b: b}")
                  + "compare: [envelopment, paired_t, friedman]\n", **{"pred.csv": BINARY_CSV})
    _, d, _ = _run(spec, "json")
    assert "paired_t" not in d["comparisons"] and "friedman" not in d["comparisons"]
    assert ("compare: the paired t-test is not computed: it needs a group column (folds), and data[0] has none"
            in d["warnings"])
    assert ("compare: Friedman's test is not computed: it needs learners measured on at least 2 data sets "
            "(data[].dataset), and this spec has 1") in d["warnings"]
    # compare: all asks for what applies: no word about what does not
    spec.write_text(spec.read_text().replace("compare: [envelopment, paired_t, friedman]\n", ""))
    _, d, _ = _run(spec, "json")
    assert not any(w.startswith("compare:") for w in d["warnings"])


@pytest.mark.slow
def test_one_class_data_renders(tmp_path):
    # no negatives: no ROC, P-R or cost figure to draw, and the report says why
    csv = "id,y,a,b\n0,1,0.9,0.8\n1,1,0.1,0.2\n2,1,0.8,0.9\n3,1,0.2,0.1\n"
    spec = _write(tmp_path, CJK_SPEC.replace("{模型: a, b: b}", "{a: a, b: b}"), **{"pred.csv": csv})
    status, d, page = _run(spec)
    assert status == 0 and d["learners"]["a"]["auc"] is None
    assert "learner 'a': auc is undefined: there are no negatives (only one class in y_true)" in d["warnings"]
    assert _report_warnings(page) == d["warnings"]


def test_explicit_tests_on_weighted_data_are_named(tmp_path):
    csv = "id,y,w,a,b\n" + "".join(f"{i},{y},{1 + i % 2},{a},{b}\n" for i, (y, a, b) in enumerate(
        [(1, 0.9, 0.7), (0, 0.1, 0.3), (1, 0.8, 0.4), (0, 0.3, 0.6), (1, 0.45, 0.8), (0, 0.6, 0.2)]))
    spec = _write(tmp_path, """\
        version: 1
        date: 2026-11-22
        data:
          - {path: pred.csv, label: y, id: id, weight: w, learners: {a: a, b: b}}
        compare: [mcnemar, delong]
        confidence: {bootstrap: 0}
        report: {formats: [json], out: out}
        """, **{"pred.csv": csv})
    _, d, _ = _run(spec, "json")
    assert "mcnemar" not in d["comparisons"]
    assert [w for w in d["warnings"] if w.startswith("compare:")] == [
        "compare: DeLong's test is not computed: the data is weighted, and the test assumes unit weights",
        "compare: McNemar's test is not computed: the data is weighted, and the test assumes unit weights"]
