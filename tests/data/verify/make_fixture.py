"""Make report.pdf, the fixture of tests/test_verify.py: a signed report with its
data attached, written by the evalreport of this checkout. Run from the
repository's root once per minor release (and after a change of results.json,
which a rerun must reproduce):

    python3 tests/data/verify/make_fixture.py

It writes report.pdf and signer.crt here (the signing key is made and thrown away
in a temporary folder: nothing can sign as this fixture's signer again).
"""

import datetime as dt
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import NameOID

HERE = Path(__file__).resolve().parent
SPEC = """version: 1
title: Verify fixture
date: 2026-11-22
positive: 1
data:
  - path: preds.csv
    label: y
    learners: {a: a, b: b}
threshold: 0.5
report:
  formats: [pdf]
  attach: [results, spec, data]
  sign: {certificate: signer.p12, password_env: FIXTURE_PASSWORD}
"""


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        rng = np.random.default_rng(37)
        y = rng.integers(0, 2, 150)
        a = np.round(np.clip(0.3 * y + rng.uniform(0, 0.7, 150), 0, 1), 3)
        b = np.round(rng.uniform(0, 1, 150), 3)
        (tmp / "preds.csv").write_text("y,a,b\n" + "".join(f"{y[i]},{a[i]},{b[i]}\n" for i in range(150)))
        key = ec.generate_private_key(ec.SECP256R1())
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "evalreport fixture signer")])
        start = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
        cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
                .serial_number(x509.random_serial_number()).not_valid_before(start)
                .not_valid_after(start + dt.timedelta(days=30 * 365))
                .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
                .sign(key, hashes.SHA256()))
        (tmp / "signer.p12").write_bytes(pkcs12.serialize_key_and_certificates(
            b"fixture", key, cert, None, serialization.BestAvailableEncryption(b"fixture")))
        (tmp / "spec.yaml").write_text(SPEC)
        env = {**os.environ, "FIXTURE_PASSWORD": "fixture"}
        subprocess.run([sys.executable, "-m", "evalreport", "run", str(tmp / "spec.yaml"), "--quiet",
                        "--out", str(tmp / "out")], check=True, env=env)
        shutil.copy(tmp / "out" / "report.pdf", HERE / "report.pdf")
        (HERE / "signer.crt").write_bytes(cert.public_bytes(serialization.Encoding.PEM))


if __name__ == "__main__":
    main()
