"""One exception family. Library code raises these; only the CLI turns them
into messages on stderr and an exit status."""

from __future__ import annotations

import difflib


class EvalReportError(Exception):
    """Base class. ``problems`` holds one message per problem found."""

    exit_status = 1

    def __init__(self, problems):
        if isinstance(problems, str):
            problems = [problems]
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


class SpecError(EvalReportError):
    """The spec is wrong: a key, a value, a name. Exit status 2."""

    exit_status = 2


class DataError(EvalReportError):
    """A prediction file is wrong: missing, unreadable, bad column or row. Exit status 2."""

    exit_status = 2


class RenderError(EvalReportError):
    """The report could not be rendered (a template, WeasyPrint). Exit status 1."""

    exit_status = 1


class OutputError(RenderError):
    """The report cannot be written where it should go: the output folder is a file or
    unwritable, the disk is full, another run holds the folder. Exit status 2, like
    other problems of the input and the environment; nothing was replaced."""

    exit_status = 2


def closest(name, valid) -> str | None:
    """The valid name closest to ``name``, or None.

    A name that differs only in case (or in surrounding spaces) comes first:
    difflib alone finds no match for one-letter names ('Y' for 'y').
    """
    valid = [str(v) for v in valid]
    folded = str(name).strip().casefold()
    same = [v for v in valid if v.strip().casefold() == folded and v != str(name)]
    close = same or difflib.get_close_matches(str(name), valid, n=1, cutoff=0.6)
    return close[0] if close else None


def suggest(name, valid) -> str:
    """' (did you mean 'x'?)' for the closest valid name, or ''."""
    close = closest(name, valid)
    return f" (did you mean '{close}'?)" if close is not None else ""
