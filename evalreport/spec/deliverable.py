"""The spec's keys of what the PDF carries and who signs it: ``report.attach``,
``report.attach_limit`` and ``report.sign`` (see docs/verify.md).

Kept apart from :mod:`.models` (which imports them) so that the size parser can
be read and tested alone.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

__all__ = ["ATTACHABLE", "DEFAULT_ATTACH", "DEFAULT_ATTACH_LIMIT", "Sign", "parse_size"]

#: what report.attach may name: results.json, the spec, the data the measures were computed from
ATTACHABLE = ("results", "spec", "data")
DEFAULT_ATTACH = ("results", "spec")
#: 50 MB: a PDF a mail server and an archive still take, with a quarter-million-row CSV in it
DEFAULT_ATTACH_LIMIT = "50MB"

# decimal units as disks and mail servers count them; the binary ones for those who mean them
_UNITS = {"": 1, "b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9,
          "kib": 2**10, "mib": 2**20, "gib": 2**30}
_SIZE = re.compile(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([A-Za-z]*)\s*")


def parse_size(value) -> int:
    """A size in bytes from ``50MB``, ``1.5 GB``, ``512KiB`` or a whole number of bytes.

    >>> parse_size("50MB"), parse_size("2 KiB"), parse_size(1000)
    (50000000, 2048, 1000)
    """
    if isinstance(value, bool):
        raise ValueError(f"give a size such as 50MB or a number of bytes (got {value!r})")
    if isinstance(value, int):
        if value < 0:
            raise ValueError(f"a size cannot be negative (got {value})")
        return value
    match = _SIZE.fullmatch(str(value))
    unit = match.group(2).lower() if match else None
    if match is None or unit not in _UNITS:
        raise ValueError(f"give a size such as 50MB, 200kB, 1GB, 64MiB or a number of bytes (got {value!r})")
    return int(float(match.group(1)) * _UNITS[unit])


class Sign(BaseModel):
    """``report.sign``: sign the PDF (PAdES B-B, pyHanko) with this key."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    certificate: str = Field(description="The signer's certificate, relative to the spec: a PKCS#12 file "
                             "(.p12, .pfx) holding the key too, or a PEM certificate (then give key).")
    key: str | None = Field(None, description="A PEM private key, relative to the spec, when certificate is a "
                            "PEM certificate; left out for a PKCS#12 file.")
    password_env: str | None = Field(None, description="The name of the environment variable holding the "
                                     "password of the PKCS#12 file or of the key (never the password itself).")
    timestamp_url: str | None = Field(None, description="An RFC 3161 timestamp authority's URL: the signature "
                                      "gets a trusted time (PAdES B-T). Needs the network at render time.")

    @field_validator("password_env")
    @classmethod
    def _a_name(cls, value):
        if value is not None and not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", value):
            raise ValueError("give the name of an environment variable (letters, digits, '_'), "
                             "not the password itself")
        return value


def attach_field():
    return Field(default_factory=lambda: list(DEFAULT_ATTACH), description="What the PDF carries: results "
                 "(results.json), spec, data (each prediction file, an in-memory table as Parquet, or an "
                 "engine's count tables). Default [results, spec].")


AttachItem = Literal["results", "spec", "data"]
