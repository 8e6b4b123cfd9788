"""Test settings for the whole suite, and the location of the test data.

The reference data (pROC's aSAH set and its s100b coords) lives in tests/data/asah/,
inside the repository, so the tests pass from a clone alone (its source and licence:
tests/data/asah/README.md).
"""

from __future__ import annotations

import atexit
import gc
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ASAH_DIR = Path(__file__).resolve().parent / "data" / "asah"

# examples/credit_audit signs its PDF with a demo certificate whose password the
# example publishes (its README): the tests that render it read it from here, as a
# user's shell would give it (never from the spec)
os.environ.setdefault("CREDIT_AUDIT_PASSWORD", "credit-audit-demo")

# The tests' child processes (python -m evalreport, the signal and packaging runs:
# about eighty) where the shell asks Python to write no .pyc beside the sources
# (PYTHONDONTWRITEBYTECODE): each child compiled every module of evalreport it imports
# from source again. They share compiled files in a folder of their own for the
# session instead (PYTHONPYCACHEPREFIX, outside the checkout, removed at the end);
# this process is left as it is.
if sys.flags.dont_write_bytecode and "PYTHONPYCACHEPREFIX" not in os.environ:
    _PYCACHE = tempfile.mkdtemp(prefix="evalreport-tests-pycache-")
    atexit.register(shutil.rmtree, _PYCACHE, ignore_errors=True)
    os.environ["PYTHONPYCACHEPREFIX"] = _PYCACHE
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

# Spark's driver JVMs of the tests (this process's, and the children's that inherit the
# variable): a JVM that starts, runs a few small jobs and ends, on a machine of two
# cores, spends more CPU compiling and verifying Spark's classes than running the jobs.
# C1 only, one compiler thread, one GC thread and no verification of Spark's own jars
# cut a JVM's CPU by about half (25 to 13 CPU-seconds for a session and two jobs);
# what the jobs compute is the same. spark.driver.defaultJavaOptions is Spark's slot
# for an administrator's defaults: the options evalreport adds to
# spark.driver.extraJavaOptions (its log4j configuration, the user's own) stay as
# they are, after these. No web UI either (no test looks at it; a Spark Connect
# server of a test would start one). A PYSPARK_SUBMIT_ARGS of the shell's own wins.
os.environ.setdefault("PYSPARK_SUBMIT_ARGS", (
    "--conf 'spark.driver.defaultJavaOptions=-XX:+IgnoreUnrecognizedVMOptions -XX:TieredStopAtLevel=1 "
    "-XX:CICompilerCount=1 -XX:+UseSerialGC -XX:+UnlockDiagnosticVMOptions -XX:-BytecodeVerificationRemote' "
    "--conf spark.ui.enabled=false pyspark-shell"))

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


# The youngest generation is collected after 10,000 net allocations, not 700: the report
# tests make figures by the hundred thousand objects, and each full pass (one per hundred
# young ones) walks everything the session's fixtures keep. Measured on five report
# files with gc.callbacks: 7.7-8.5 s of collection in 83-100 s of CPU, 4.4-4.7 s after.
gc.set_threshold(10_000, 10, 10)


def pytest_collection_finish(session):
    """The imported modules and the collected tests (5,700, their parameters) live to the
    end of the session: frozen out of the garbage collector's reach, its full passes no
    longer walk them again and again (the collector's CPU a quarter less)."""
    gc.collect()
    gc.freeze()


def pytest_sessionfinish(session):
    """At the end pytest collects garbage five times over (to raise any unraisable
    exception a finaliser left): one full pass here runs every finaliser once, and
    what lives on is frozen, so its passes walk only what came after (about 3 s)."""
    gc.collect()
    gc.freeze()


@pytest.fixture(scope="session")
def asah_dir() -> Path:
    return ASAH_DIR


#: the date of example specs without one (the audit's): SOURCE_DATE_EPOCH, 2026-11-22 UTC
EXAMPLE_EPOCH = "1795305600"
EXAMPLES_DIR = Path(__file__).resolve().parents[1] / "examples"
ALL_FORMATS = ("json", "html", "pdf")


@dataclass(frozen=True)
class ExampleReport:
    """An example's report set, rendered once for the whole session: read it, never write to it."""

    name: str
    out: Path
    status: int
    formats: frozenset

    def text(self, file: str) -> str:
        return (self.out / file).read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def example_report(tmp_path_factory, pytestconfig):
    """``example_report(name, formats)``: the example's report set, written by the command
    line (``run --out --format --quiet``, SOURCE_DATE_EPOCH the audit's date) once a session
    and shared by every test that reads it (the print layout, the screen, the tagged PDF, the
    goldens, the page counts): a PDF of an example takes seconds. The HTML and results.json
    do not depend on the other formats written beside them (the report renders each from the
    one Result), so one run of every format serves all; the inner loop (-m "not slow")
    renders only the formats its tests ask for."""
    cache: dict[str, ExampleReport] = {}
    inner_loop = "not slow" in (pytestconfig.getoption("markexpr", "") or "")

    def render(name: str, formats=ALL_FORMATS) -> ExampleReport:
        asked = frozenset(formats)
        done = cache.get(name)
        if done is not None and asked <= done.formats:
            return done
        wanted = asked | (done.formats if done else frozenset()) if inner_loop else frozenset(ALL_FORMATS)
        out = tmp_path_factory.mktemp(f"example-{name}")
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("SOURCE_DATE_EPOCH", EXAMPLE_EPOCH)
            from evalreport.__main__ import main

            status = main(["run", str(EXAMPLES_DIR / name / "spec.yaml"), "--out", str(out), "--format",
                           ",".join(f for f in ALL_FORMATS if f in wanted), "--quiet"])
        cache[name] = ExampleReport(name, out, status, wanted)
        return cache[name]

    return render
