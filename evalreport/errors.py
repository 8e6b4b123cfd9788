"""One exception family. Library code raises these; only the CLI turns them
into messages on stderr and an exit status."""

from __future__ import annotations

import difflib


class EvalReportError(Exception):
    """Base class of evalreport's errors: ``problems`` holds one message per problem found.

    Parameters
    ----------
    problems : str or iterable of str
        The messages; ``str(error)`` is them one a line.

    Attributes
    ----------
    problems : list of str
    exit_status : int
        The command line's exit status for it (1; 2 for bad input).

    Examples
    --------
    >>> error = EvalReportError(["first problem", "second problem"])
    >>> error.problems, error.exit_status
    (['first problem', 'second problem'], 1)
    >>> print(error)
    first problem
    second problem
    """

    exit_status = 1

    def __init__(self, problems):
        if isinstance(problems, str):
            problems = [problems]
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


class SpecError(EvalReportError):
    """The spec is wrong: a key, a value, a name. Exit status 2.

    Each problem names the spec, the YAML line and the key path.

    Examples
    --------
    >>> import evalreport
    >>> try:
    ...     evalreport.load_spec({"version": 1, "task": "binary", "positive": 1, "data": [], "treshold": 0.5})
    ... except SpecError as error:
    ...     print(error.exit_status, [p for p in error.problems if "treshold" in p][0].split(";")[0])
    2 <spec>:5: treshold: unknown key 'treshold' (did you mean 'threshold'?)
    """

    exit_status = 2


class DataError(EvalReportError):
    """A prediction file is wrong: missing, unreadable, bad column or row. Exit status 2.

    In-memory tables get the same messages, the table named where the file would be.

    Examples
    --------
    >>> import evalreport, pyarrow as pa
    >>> spec = {"version": 1, "task": "binary", "positive": 1,
    ...         "data": [{"table": "test", "label": "y", "learners": {"A": "p"}}]}
    >>> try:
    ...     evalreport.evaluate(spec, data={"test": pa.table({"y": [0, 1], "q": [0.2, 0.7]})})
    ... except DataError as error:
    ...     print(error.problems[0])
    <spec>:8: data[0].learners.A.score: column 'p' is not in table 'test' (columns: y, q)
    """

    exit_status = 2


class RenderError(EvalReportError):
    """The report could not be rendered (a template, WeasyPrint). Exit status 1.

    Examples
    --------
    >>> issubclass(RenderError, EvalReportError), RenderError("no template").exit_status
    (True, 1)
    """

    exit_status = 1


class OutputError(RenderError):
    """The report cannot be written where it should go: the output folder is a file or
    unwritable, the disk is full, another run holds the folder. Exit status 2, like
    other problems of the input and the environment; nothing was replaced.

    Examples
    --------
    >>> import evalreport, os, tempfile
    >>> with tempfile.NamedTemporaryFile() as f:   # a file where the folder should be
    ...     try:
    ...         evalreport.check_output(f.name)
    ...     except OutputError as error:
    ...         print(error.exit_status, isinstance(error, RenderError))
    2 True
    """

    exit_status = 2


def closest(name, valid) -> str | None:
    """The valid name closest to ``name``, or None.

    A name that differs only in case (or in surrounding spaces) comes first:
    difflib alone finds no match for one-letter names ('Y' for 'y').
    """
    valid = [str(v) for v in valid]
    folded = str(name).strip().casefold()
    same = [v for v in valid if v.strip().casefold() == folded and v != str(name)]
    if same:
        return same[0]
    close = difflib.get_close_matches(str(name), valid, n=max(len(valid), 1), cutoff=0.6)
    if not close:
        return None
    # Of the names equally close, one with the same letters (a transposition:
    # 'lable' for 'label', not 'table') is the likelier slip; difflib would take
    # the last in alphabetical order.
    def ratio(v):
        return difflib.SequenceMatcher(None, v, str(name)).ratio()  # (as difflib orders them)

    tied = [v for v in close if ratio(v) == ratio(close[0])]
    same_letters = [v for v in tied if sorted(v) == sorted(str(name))]
    return (same_letters or tied)[0]


def suggest(name, valid) -> str:
    """' (did you mean 'x'?)' for the closest valid name, or ''."""
    close = closest(name, valid)
    return f" (did you mean '{close}'?)" if close is not None else ""
