"""A prediction file, read and checked: :class:`Source`, what every road
(in memory, DuckDB, Spark) hands the pipeline; the input's sha256, hashed in
a thread while the file is read; and small helpers of the data messages.
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np


@dataclass(frozen=True, eq=False)
class Source:
    """One prediction file, validated."""

    index: int  # position in spec.data
    path: str  # as written in the spec
    file: Path | None  # None: an in-memory table (evaluate(spec, data=...))
    sha256: "str | BackgroundSha256 | None"  # see sha256_hex
    rows: int
    dataset: str | None
    labels: np.ndarray
    ids: np.ndarray | None
    groups: np.ndarray | None
    weights: np.ndarray | None
    learners: dict[str, np.ndarray] = field(default_factory=dict)  # name -> scores or decisions
    hard: frozenset[str] = frozenset()  # learners given as hard decisions
    # engine duckdb / spark: the count tables, aggregated where the data lives (no rows here)
    tables: dict | None = None
    group_tables: dict | None = None  # learner -> {group: count table}, with a group column
    mc_counts: dict | None = None  # multiclass through an engine: learner -> MulticlassAggregated
    resolution_bound: dict | None = None
    engine: str = "memory"
    # engine duckdb, exact: learner -> metrics.Reduction (exact scalars; which rows the table kept)
    reductions: dict | None = None
    slices: dict | None = None  # slice column -> its values (binary, engine memory)
    # what the report says about the input as read (weights rescaled, ...)
    warnings: tuple[str, ...] = ()

    @property
    def sha256_hex(self) -> str | None:
        """The input's sha256 (waits for the background hash if it is still running)."""
        return self.sha256.result() if isinstance(self.sha256, BackgroundSha256) else self.sha256

    @property
    def learner_names(self) -> list[str]:
        if self.mc_counts is not None:
            return list(self.mc_counts)
        return list(self.tables if self.tables is not None else self.learners)


def file_sha256(path: Path, stop: threading.Event | None = None) -> str | None:
    """The file's sha256 (None if ``stop`` was set before the end)."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            if stop is not None and stop.is_set():
                return None
            h.update(chunk)
    return h.hexdigest()


class BackgroundSha256:
    """Hash a file in a thread while it is read and checked.

    hashlib releases the GIL on large updates, so on two cores the hash costs
    no wall time; if the file turns out to be unusable the thread is stopped.
    """

    def __init__(self, path: Path):
        self._stop = threading.Event()
        self._value: str | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(path,), daemon=True,
                                        name="evalreport-sha256")
        self._thread.start()

    def _run(self, path):
        try:
            self._value = file_sha256(path, self._stop)
        except BaseException as exc:  # reported by result(), in the caller's thread
            self._error = exc

    def result(self) -> str:
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._value

    def cancel(self) -> None:
        self._stop.set()


def combined_sha256(files: list[Path]) -> str:
    """One file's sha256; for several (a glob), the sha256 of their names and sha256s."""
    if len(files) == 1:
        return file_sha256(files[0])
    h = hashlib.sha256()
    for f in files:
        h.update(f"{f.name} {file_sha256(f)}\n".encode())
    return h.hexdigest()


# Small helpers of the messages (the readers' problems and the checks say things alike)


def with_article(word: str) -> str:
    return ("an " if word[0] in "aeiou" else "a ") + word


def shown_text(text: str, most: int = 60) -> str:
    return repr(text if len(text) <= most else text[:most] + "...")


def python_value(value):
    """A NumPy scalar as the plain Python value (for messages)."""
    return value.item() if hasattr(value, "item") else value
