"""Python warnings (NumPy, SciPy, matplotlib) routed into the report's warnings.

Left to Python, a NumPy RuntimeWarning or a matplotlib UserWarning is printed on
stderr, even under ``--quiet`` (so cron mails it), and never reaches the report.
:func:`routed_warnings` records them instead; :meth:`Routed.lines` turns them into
lines of ``warnings`` that say what was being done (the stage), in which function
of evalreport, and where, one line per distinct message.

Deprecation warnings are about evalreport's code, not the user's data: they are
issued again after the block, to Python's usual filters (hidden by default,
shown by pytest).

``warnings.catch_warnings`` is process-wide: warnings from the engine's worker
threads are caught too, but two evaluations running at once in one process
would see each other's warnings.
"""

from __future__ import annotations

import re
import sys
import warnings
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from .words import and_join

__all__ = ["Caught", "Routed", "routed_warnings"]

_PACKAGE = Path(__file__).resolve().parent
_DEVELOPER = (DeprecationWarning, PendingDeprecationWarning)


@dataclass(frozen=True)
class Caught:
    """One warning: its class, text, the stage of the run, and where in evalreport."""

    category: str  # "RuntimeWarning"
    message: str
    stage: str  # "evaluating a (4 rows)", "drawing the report's figures"
    function: str  # the innermost public evalreport function that led to it
    location: str  # "evalreport/engines/resolution.py:105", the innermost evalreport line


#: modules whose functions a warning is never attributed to (the figure that called them is)
_PLUMBING = frozenset({"figures/svg.py", "figures/canvas.py"})


def _where(filename: str, lineno: int) -> tuple[str, str]:
    """(function, location) of the warning, from the innermost evalreport frames."""
    frame = sys._getframe(2)
    location = function = None
    while frame is not None:
        path = Path(frame.f_code.co_filename)
        if _PACKAGE in path.parents and path.name != "capture.py":
            if location is None:
                location = f"{path.relative_to(_PACKAGE.parent).as_posix()}:{frame.f_lineno}"
            name = frame.f_code.co_name
            # the figures' plumbing (drawing to SVG, the canvas) is where every figure's
            # warning surfaces: the figure that called it is the one to name
            if not name.startswith(("_", "<")) and path.relative_to(_PACKAGE).as_posix() not in _PLUMBING:
                function = name
                break
        frame = frame.f_back
    if location is None:  # raised outside evalreport (a thread of a library)
        location = f"{Path(filename).name}:{lineno}"
    return function or "", location


class Routed:
    """The warnings caught inside :func:`routed_warnings`; ``stage`` may be
    changed while it runs (each caught warning keeps the stage of its time)."""

    def __init__(self, stage: str):
        self.stage = stage
        self.caught: list[Caught] = []
        self._developer: list[tuple] = []

    def _show(self, message, category, filename, lineno, file=None, line=None):
        if issubclass(category, _DEVELOPER):
            self._developer.append((message, category, filename, lineno))
            return
        function, location = _where(filename, lineno)
        text = re.sub(r"\s+", " ", str(message)).strip()
        self.caught.append(Caught(category.__name__, text, self.stage, function, location))

    def lines(self) -> list[str]:
        """One line per distinct (class, message), in order of first appearance:
        ``RuntimeWarning in resolution_bounds (evalreport/engines/resolution.py:105),
        while aggregating p.csv with duckdb: overflow encountered in multiply``."""
        groups: dict[tuple, list[Caught]] = {}
        for c in self.caught:
            groups.setdefault((c.category, c.message), []).append(c)
        out = []
        for (category, message), found in groups.items():
            places = list(dict.fromkeys((c.function, c.location) for c in found))
            if len(places) == 1:
                function, location = places[0]
                where = f"{function} ({location})" if function else location
            else:
                functions = list(dict.fromkeys(f for f, _ in places if f))
                files = list(dict.fromkeys(loc.rsplit(":", 1)[0] for _, loc in places))
                where = f"{and_join(functions)} ({', '.join(files)})" if functions else ", ".join(files)
            stages = and_join(list(dict.fromkeys(c.stage for c in found if c.stage)))
            out.append(f"{category} in {where}" + (f", while {stages}" if stages else "") + f": {message}")
        return out


@contextmanager
def routed_warnings(stage: str = ""):
    """Catch every Python warning raised inside into a :class:`Routed` (yielded),
    instead of printing it; deprecations are issued again after the block."""
    routed = Routed(stage)
    with warnings.catch_warnings():
        # every occurrence: the same warning may come from several stages,
        # and a warning shown once before in this process must be caught again
        warnings.simplefilter("always")
        warnings.showwarning = routed._show
        yield routed
    for message, category, filename, lineno in routed._developer:
        warnings.warn_explicit(message, category, filename, lineno)
