"""The signature checks of ``evalreport verify`` (pyHanko): each signature intact
(the signed bytes' digest matches, the cryptographic signature holds), who signed
(the certificate's subject), whether anything was appended after it, and whether
the certificate is trusted by ``--trust``. Offline: nothing is fetched (no
revocation lists, no OCSP)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["SignatureCheck", "check_signatures", "load_trust"]


@dataclass(frozen=True)
class SignatureCheck:
    ok: bool
    text: str  # one line: what holds, or why not
    signer: str | None = None
    signed_at: str | None = None
    timestamped: bool = False


def load_trust(paths) -> list:
    """The certificates of ``--trust`` (PEM or DER) as asn1crypto certificates."""
    from pyhanko.keys import load_cert_from_pemder

    from .pdf_read import Unreadable

    certs = []
    for p in paths:
        try:
            certs.append(load_cert_from_pemder(str(p)))
        except (OSError, ValueError) as exc:
            raise Unreadable([f"--trust {p}: cannot read a certificate: {exc}"]) from None
    return certs


def check_signatures(reader, trust: list) -> list[SignatureCheck]:
    """One check per signature of the PDF ([] when it is not signed)."""
    from pyhanko.sign.validation.errors import SignatureValidationError
    from pyhanko.sign.validation import validate_pdf_signature
    from pyhanko.sign.validation.status import SignatureCoverageLevel
    from pyhanko_certvalidator import ValidationContext

    checks = []
    for sig in reader.embedded_signatures:
        context = ValidationContext(trust_roots=list(trust), allow_fetching=False)
        try:
            # skip_diff: pyHanko's analysis of what an appended update changed (seconds
            # on a report) decides nothing here: any byte after the signed revision is a
            # problem, found from the signature's coverage alone
            status = validate_pdf_signature(sig, context, skip_diff=True)
        except (SignatureValidationError, ValueError, KeyError, TypeError) as exc:
            checks.append(SignatureCheck(False, f"signature {sig.field_name}: cannot be validated: {exc}"))
            continue
        signer = status.signing_cert.subject.human_friendly
        when = status.signer_reported_dt.isoformat() if status.signer_reported_dt else None
        stamped = status.timestamp_validity is not None
        problems = []
        if not status.intact:
            problems.append("the signed bytes were changed after signing (their digest does not match)")
        elif not status.valid:
            problems.append("the cryptographic signature does not hold for the signer's certificate")
        if status.coverage != SignatureCoverageLevel.ENTIRE_FILE:
            problems.append("something was appended after signing (an incremental update the signature "
                            "does not cover)")
        if trust and not status.trusted:
            problems.append("the signer's certificate is not trusted by --trust")
        said = f"signature {sig.field_name}: signed by {signer}" + (f" at {when} (the signer's clock" + (
            ", and a timestamp authority's)" if stamped else "; no trusted time)") if when else "")
        if problems:
            checks.append(SignatureCheck(False, said + ": " + "; ".join(problems), signer, when, stamped))
            continue
        said += "; intact, covers the whole file"
        said += "; trusted by --trust" if trust else "; trust not checked (give --trust CERT)"
        checks.append(SignatureCheck(True, said, signer, when, stamped))
    return checks
