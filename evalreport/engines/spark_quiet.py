"""A Spark driver started without its noise on stderr (issue 36): a report run's
stderr holds evalreport's own ``error:`` and ``warning:`` lines only.

Starting a local driver, Spark and its JVM print about eight lines: log4j's
"Using Spark's default log4j profile", "Setting default log level", WARN lines
(a loopback host name, no native Hadoop library) and the JVM's own "WARNING:
Using incubator modules: jdk.incubator.vector" (Spark's launcher always adds
that module; no JVM option silences the warning). Three things keep them off:

1. :func:`quiet_conf` names the log4j2 configuration shipped beside this
   module (``spark_log4j2.properties``: nothing logged) in the driver's
   ``spark.driver.extraJavaOptions``, after the user's own options, unless
   those name a log4j configuration themselves (then the log is theirs);
2. the session's ``SparkContext.setLogLevel("OFF")`` (see
   :func:`evalreport.engines.spark.spark_session`), for a JVM started before
   and without it;
3. :func:`start_driver` starts the JVM with its stderr through a pipe that
   drops the known start-up lines (:data:`NOISE`) and passes every other line
   on as it came (an ``OutOfMemoryError``): nothing real is hidden. A JVM that
   does not start (a master URL Spark does not know) is one error line with
   its reason.

A failed Spark job is not hidden either: it reaches evalreport as an exception
(Py4J's, PySpark's), which :func:`spark_failures` turns into a ``ValueError`` of
one line (the Java exception's own message: Py4J's first line names only the
call, "An error occurred while calling o84.collectToPython."), told at the data
entry's key with exit status 2.
"""

from __future__ import annotations

import os
import re
import threading
import warnings
from contextlib import contextmanager
from pathlib import Path

__all__ = ["LOG4J2_FILE", "NOISE", "failure_line", "log4j2_named", "pandas_warning_off", "quiet_conf",
           "spark_failures", "start_driver"]

#: the driver's log4j2 configuration, shipped in the package (pyproject.toml's package-data)
LOG4J2_FILE = Path(__file__).with_name("spark_log4j2.properties")
#: the lines of the JVM's stderr dropped: its start-up noise, nothing else
NOISE = (re.compile(rb"^WARNING: Using incubator modules: "),)

_JAVA_OPTIONS = "spark.driver.extraJavaOptions"


def log4j2_named(conf: dict | None) -> bool:
    """Whether the user's driver Java options name a log4j configuration of their own."""
    theirs = str((conf or {}).get(_JAVA_OPTIONS, ""))
    return "log4j2.configurationFile" in theirs or "log4j.configuration" in theirs


def _java_quoted(value: str) -> str:
    """``value`` as one word of Spark's Java options (its launcher splits them at
    spaces, honouring double quotes and backslashes)."""
    if not re.search(r"[\s\"'\\]", value):
        return value
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def quiet_conf(conf: dict | None) -> dict:
    """``conf`` with evalreport's log4j2 configuration added to the driver's Java
    options (after the user's), unless the user names one of their own or the
    file is not on disk (a zip import: Spark reads files only)."""
    conf = dict(conf or {})
    if log4j2_named(conf) or not LOG4J2_FILE.is_file():
        return conf
    option = "-Dlog4j2.configurationFile=" + _java_quoted(str(LOG4J2_FILE))
    conf[_JAVA_OPTIONS] = f"{conf.get(_JAVA_OPTIONS, '')} {option}".strip()
    return conf


class _Forwarder:
    """The JVM's stderr passed on to this process's (file descriptor 2), line by
    line, less :data:`NOISE`, until the JVM closes it. The lines of its start are
    held until :meth:`release` (it started: they are passed on) or :meth:`reason`
    (it did not: they are the reason, told in evalreport's one error line)."""

    def __init__(self, read_fd: int):
        self.held: list[bytes] | None = []
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._run, args=(read_fd,), name="evalreport-spark-stderr",
                                       daemon=True)
        self.thread.start()

    def _run(self, read_fd: int) -> None:
        with os.fdopen(read_fd, "rb", buffering=0) as pipe:
            for line in iter(pipe.readline, b""):
                if any(p.match(line) for p in NOISE):
                    continue
                with self.lock:
                    if self.held is not None:
                        self.held.append(line)
                        continue
                _write(line)

    def release(self) -> None:
        with self.lock:  # (the held lines first, in their order)
            held, self.held = self.held or [], None
            for line in held:
                _write(line)

    def reason(self) -> str | None:
        """The JVM's reason for not starting: its exception's line ('Exception in thread
        "main" org.apache.spark.SparkException: Master must ...'), else its first line."""
        self.thread.join(timeout=5)  # (the JVM has exited: the pipe ends)
        with self.lock:
            lines = [line.decode("utf-8", "replace").strip() for line in self.held or []]
            self.held = None
        lines = [line for line in lines if line and not line.startswith(("at ", "..."))]
        told = next((line for line in lines if "Exception" in line or "Error" in line), None) or next(iter(lines), None)
        return None if told is None else re.sub(r'^Exception in thread "[^"]*" ', "", told)


def _write(line: bytes) -> None:
    try:
        os.write(2, line)
    except OSError:  # (stderr closed: nowhere to say it)
        pass


def start_driver(options: dict[str, str], *, context: bool = True) -> None:
    """Start the driver's JVM and its SparkContext from the builder's ``options``
    (``spark.master``, ``spark.app.name``, conf) with the JVM's stderr through
    :class:`_Forwarder`, when this process has no JVM yet; else nothing (the
    builder's ``getOrCreate`` reuses the one there is). ``ValueError`` of one
    line when the JVM does not start (a master URL Spark does not know, no Java),
    with the JVM's reason.

    PySpark's ``launch_gateway(conf, popen_kwargs)`` is its documented way to
    capture the JVM's output; the ``SparkContext(conf=..., gateway=...)`` made
    here is the one ``SparkSession.builder.getOrCreate()`` then finds. ``context``
    False: the JVM only, made PySpark's (``SparkContext._ensure_initialized``, what
    ``SparkContext()`` does first), for a local Spark Connect server whose context
    PySpark makes itself with its plugin."""
    from pyspark import SparkConf, SparkContext
    from pyspark.java_gateway import launch_gateway

    # (PySpark keeps its gateway on the class; PYSPARK_GATEWAY_PORT: a JVM started by spark-submit)
    if getattr(SparkContext, "_gateway", None) is not None or "PYSPARK_GATEWAY_PORT" in os.environ:
        return
    conf = SparkConf()
    for key, value in options.items():
        conf.set(key, str(value))
    read_fd, write_fd = os.pipe()
    forwarder = _Forwarder(read_fd)
    try:
        gateway = launch_gateway(conf, popen_kwargs={"stderr": write_fd})
    except Exception as exc:  # noqa: BLE001 (PySpark's JAVA_GATEWAY_EXITED, a missing spark-submit)
        os.close(write_fd)
        raise ValueError(f"Spark cannot start its driver: {forwarder.reason() or failure_line(exc)}") from None
    except BaseException:
        os.close(write_fd)
        forwarder.release()
        raise
    os.close(write_fd)  # (the JVM holds its copy: the pipe ends when the JVM does)
    forwarder.release()
    if not context:
        SparkContext._ensure_initialized(gateway=gateway)
        return
    with pandas_warning_off():
        SparkContext(conf=conf, gateway=gateway)


@contextmanager
def pandas_warning_off():
    """PySpark 4's warning of pandas 3 as a session starts left out: the counts come
    back through Arrow, not pandas (a ``warning:`` line about nothing evalreport uses)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="PySpark does not yet fully support pandas", category=FutureWarning)
        yield


#: a stage failure's message wraps its cause's: the cause says what went wrong
_WRAPPERS = ("Job aborted due to stage failure",)


def failure_line(exc: BaseException) -> str:
    """One line saying why a Spark call failed: the first line of the Java
    exception's message (a stage failure's cause's), else of the exception's."""
    text = None
    java = getattr(exc, "java_exception", None)
    try:
        while java is not None:
            text, cause = java.getMessage(), java.getCause()
            if cause is None or not str(text or "").startswith(_WRAPPERS):
                break
            java = cause
    except Exception:  # noqa: BLE001 (the JVM gone: what Python says stands)
        text = None
    lines = [line.strip() for line in str(text or exc).splitlines() if line.strip()]
    return lines[0] if lines else type(exc).__name__


def _from_spark(exc: BaseException) -> bool:
    """Whether ``exc`` is Spark's (Py4J's or PySpark's), not evalreport's or Python's own."""
    return type(exc).__module__.split(".")[0] in ("py4j", "pyspark") and not isinstance(exc, (ValueError, ImportError))


@contextmanager
def spark_failures(where: str):
    """Spark's exceptions inside as ``ValueError("Spark failed reading <where>: <why>")``,
    of one line; evalreport's own (ValueError, ColumnError) pass as they are."""
    try:
        yield
    except Exception as exc:
        if not _from_spark(exc):
            raise
        raise ValueError(f"Spark failed reading {where}: {failure_line(exc)}") from None
