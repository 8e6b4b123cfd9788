"""One exception family. Library code raises these; only the CLI turns them
into messages on stderr and an exit status."""

from __future__ import annotations


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
    """The report could not be rendered or written."""

    exit_status = 1
