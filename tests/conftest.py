"""Test settings for the whole suite, and the location of the test data.

The reference data (pROC's aSAH set and its s100b coords) lives in tests/data/asah/,
inside the repository, so the tests pass from a clone alone (its source and licence:
tests/data/asah/README.md).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ASAH_DIR = Path(__file__).resolve().parent / "data" / "asah"

# examples/credit_audit signs its PDF with a demo certificate whose password the
# example publishes (its README): the tests that render it read it from here, as a
# user's shell would give it (never from the spec)
os.environ.setdefault("CREDIT_AUDIT_PASSWORD", "credit-audit-demo")

# Property tests: no per-example deadline (the first call pays NumPy's warm-up),
# derandomized on CI so a failure reproduces; example counts are set per test.
settings.register_profile(
    "evalreport",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "evalreport-ci",
    parent=settings.get_profile("evalreport"),
    derandomize=True,
)
settings.load_profile("evalreport-ci" if os.environ.get("CI") else "evalreport")


@pytest.fixture(scope="session")
def asah_dir() -> Path:
    return ASAH_DIR
