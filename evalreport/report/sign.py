"""Signing the PDF (``report.sign``): a PAdES B-B signature made with pyHanko.

The key is a PKCS#12 file (``certificate: signer.p12``), or a PEM certificate and
a PEM private key (``certificate: signer.crt``, ``key: signer.key``); paths are
relative to the spec. The password comes from the environment variable the spec
names (``password_env``), never from the spec. The key is loaded with
``cryptography`` before anything is rendered (the command line does it before the
evaluation): a missing file, a missing variable, a wrong password or a key that
does not belong to the certificate is a :class:`SpecError` (exit status 2) and
nothing is written. No message names the password, and none is logged.

The signature is an incremental update of the PDF/A-3b file: the bytes WeasyPrint
wrote stay as they are, followed by an invisible signature field (a zero-size
widget, printable and locked, which PDF/A allows without an appearance) and the
signature. pyHanko would also rewrite the document information and the XMP
metadata (producer, modification date); it is told not to, since PDF/A requires the
two to agree and WeasyPrint wrote them to agree. With ``timestamp_url`` the
signature gets an RFC 3161 timestamp (PAdES B-T): a trusted time, which needs the
network.
"""

from __future__ import annotations

import io
import logging
import os
from dataclasses import dataclass
from pathlib import Path

from ..errors import SpecError

__all__ = ["Signer", "load_signer", "sign_pdf", "FIELD_NAME"]

#: the signature field's name in the PDF
FIELD_NAME = "evalreport"
_PKCS12 = (".p12", ".pfx")


@dataclass(frozen=True)
class Signer:
    """A loaded key: pyHanko's signer, and where the key came from (for messages)."""

    signer: object  # pyhanko.sign.signers.SimpleSigner
    subject: str
    timestamp_url: str | None


def _problem(spec, key: str, text: str) -> SpecError:
    from ..spec import locate

    return SpecError([locate(spec, ("report", "sign", key), f"{text}; nothing was written")])


def _read(spec, key: str, name: str) -> bytes:
    path = spec.resolve(name)
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise _problem(spec, key, f"no such file: {path}") from None
    except OSError as exc:
        raise _problem(spec, key, f"cannot read {path}: {exc.strerror or exc}") from None


def _password(spec) -> bytes | None:
    name = spec.report.sign.password_env
    if name is None:
        return None
    value = os.environ.get(name)
    if value is None:
        raise _problem(spec, "password_env", f"the environment variable {name} is not set (it holds the "
                       "key's password)")
    return value.encode("utf-8")


def _load_key_and_certificates(spec):
    """(private key, certificate, other certificates) with cryptography, or a SpecError."""
    from cryptography import x509
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.serialization import pkcs12

    sign = spec.report.sign
    password = _password(spec)
    data = _read(spec, "certificate", sign.certificate)
    if sign.key is None or Path(sign.certificate).suffix.lower() in _PKCS12:
        try:
            key, cert, others = pkcs12.load_key_and_certificates(data, password)
        except (ValueError, TypeError):
            why = "wrong password (report.sign.password_env)" if password is not None else "no password given "\
                  "(name the variable holding it in report.sign.password_env)"
            raise _problem(spec, "certificate", f"cannot open the PKCS#12 file {sign.certificate}: {why}, or "
                           "not a PKCS#12 file") from None
        if key is None or cert is None:
            raise _problem(spec, "certificate", f"the PKCS#12 file {sign.certificate} holds no private key "
                           "and certificate")
        return key, cert, list(others or [])
    try:
        certs = x509.load_pem_x509_certificates(data)
    except ValueError:
        raise _problem(spec, "certificate", f"{sign.certificate} is not a PEM certificate (give a PKCS#12 "
                       "file with the suffix .p12 or .pfx, or a PEM certificate and key)") from None
    key_data = _read(spec, "key", sign.key)
    try:
        key = serialization.load_pem_private_key(key_data, password)
    except TypeError:  # a password for a key without one, or none for an encrypted key
        why = ("the key is encrypted: name the variable holding its password in report.sign.password_env"
               if password is None else "the key is not encrypted: leave report.sign.password_env out")
        raise _problem(spec, "key", why) from None
    except ValueError:
        raise _problem(spec, "key", f"cannot open the key {sign.key}: wrong password (report.sign.password_env), "
                       "or not a PEM private key") from None
    return key, certs[0], certs[1:]


def load_signer(spec) -> Signer:
    """The spec's signing key, loaded and checked (a SpecError, exit status 2, if not)."""
    from cryptography.hazmat.primitives import serialization

    key, cert, others = _load_key_and_certificates(spec)
    public = serialization.PublicFormat.SubjectPublicKeyInfo
    if key.public_key().public_bytes(serialization.Encoding.DER, public) != \
            cert.public_key().public_bytes(serialization.Encoding.DER, public):
        raise _problem(spec, "key", "the private key does not belong to the certificate")
    from asn1crypto import keys as asn1_keys
    from asn1crypto import x509 as asn1_x509
    from pyhanko.sign.signers import SimpleSigner
    from pyhanko_certvalidator.registry import SimpleCertificateStore

    der = serialization.Encoding.DER
    signing_key = asn1_keys.PrivateKeyInfo.load(key.private_bytes(
        der, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    signing_cert = asn1_x509.Certificate.load(cert.public_bytes(der))
    chain = [asn1_x509.Certificate.load(c.public_bytes(der)) for c in others]
    signer = SimpleSigner(signing_cert=signing_cert, signing_key=signing_key,
                          cert_registry=SimpleCertificateStore.from_certs([signing_cert, *chain]))
    return Signer(signer=signer, subject=signing_cert.subject.human_friendly,
                  timestamp_url=spec.report.sign.timestamp_url)


def sign_pdf(pdf: bytes, signer: Signer, spec=None) -> bytes:
    """``pdf`` with a PAdES signature appended as an incremental update."""
    from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
    from pyhanko.sign import signers
    from pyhanko.sign.fields import SigSeedSubFilter

    writer = IncrementalPdfFileWriter(io.BytesIO(pdf))
    # keep the document information and the XMP metadata as WeasyPrint wrote them
    # (PDF/A: the two must agree; pyHanko would change the producer in one only)
    writer._update_meta = lambda: None
    meta = signers.PdfSignatureMetadata(field_name=FIELD_NAME, md_algorithm="sha256",
                                        subfilter=SigSeedSubFilter.PADES)
    timestamper = None
    if signer.timestamp_url:
        from pyhanko.sign.timestamps import HTTPTimeStamper

        timestamper = HTTPTimeStamper(signer.timestamp_url)
    # pyHanko logs its own failures with tracebacks; ours say what went wrong
    logger = logging.getLogger("pyhanko")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        out = signers.sign_pdf(writer, meta, signer=signer.signer, timestamper=timestamper)
    except Exception as exc:
        if timestamper is not None and spec is not None:
            raise _problem(spec, "timestamp_url", f"cannot sign with a timestamp from "
                           f"{signer.timestamp_url}: {type(exc).__name__}: {exc}") from None
        from ..errors import RenderError

        raise RenderError([f"PDF: cannot sign the report: {type(exc).__name__}: {exc}"]) from None
    finally:
        logger.setLevel(level)
    return out.getvalue()
