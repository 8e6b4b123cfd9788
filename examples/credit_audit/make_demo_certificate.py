"""Write the demo signing certificate of this example: demo-signer.p12 (the key and
a self-signed certificate, PKCS#12, password "credit-audit-demo") and
demo-signer.crt (the certificate alone, PEM: what `evalreport verify --trust`
takes).

The certificate proves nothing about who signed: its key is published here, so
anyone can sign with it. It shows how report.sign works; a real deployment signs
with a key kept secret, under a certificate from an authority the readers trust.

Run once (the files are committed; a new run makes a new key):

    python3 examples/credit_audit/make_demo_certificate.py
"""

import datetime as dt
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import NameOID

HERE = Path(__file__).resolve().parent
PASSWORD = b"credit-audit-demo"  # published on purpose: a demo key, not a secret


def main() -> None:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    name = x509.Name([
        x509.NameAttribute(NameOID.COMMON_NAME, "evalreport demo signer (proves nothing)"),
        x509.NameAttribute(NameOID.ORGANIZATION_NAME, "evalreport examples"),
    ])
    start = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(start).not_valid_after(start + dt.timedelta(days=20 * 365))
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=True, key_encipherment=False,
                                         data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                         crl_sign=False, encipher_only=False, decipher_only=False), critical=True)
            .sign(key, hashes.SHA256()))
    (HERE / "demo-signer.p12").write_bytes(pkcs12.serialize_key_and_certificates(
        b"demo signer", key, cert, None, serialization.BestAvailableEncryption(PASSWORD)))
    (HERE / "demo-signer.crt").write_bytes(cert.public_bytes(serialization.Encoding.PEM))


if __name__ == "__main__":
    main()
