"""Shared test settings and the location of the team's shared data.

The reference data (pROC's aSAH set and its coords) lives in ``../shared`` beside the
project's root, as on every developer machine and CI run (see ../shared/README.md).
Set ``EVALREPORT_SHARED`` to point elsewhere.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("EVALREPORT_SHARED", ROOT.parent / "shared"))

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
    path = SHARED / "data" / "asah"
    if not path.is_dir():
        pytest.fail(
            f"the shared aSAH data is missing: {path} "
            "(expected ../shared beside the project root, or set EVALREPORT_SHARED)"
        )
    return path
