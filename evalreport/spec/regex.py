"""The user's regular expressions (``learners: {match: <regex>}``), matched in
time linear in the column name's length.

Python's ``re`` backtracks: ``(a+)+$`` on a column name of 40 characters runs
for hours. The patterns are therefore matched by RE2 (google-re2), whose
automaton never backtracks. Python's own parser reads a pattern first, so a
pattern that is not a regular expression is told in Python's words (and its
FutureWarnings, "possible nested set", never reach stderr); a pattern Python
reads and RE2 refuses uses what a linear-time match cannot do (lookaround,
backreferences, repetition counts above 1,000) and is told so.

RE2's ``\\d``, ``\\w`` and ``\\s`` are ASCII classes (Python's are Unicode's).
"""

from __future__ import annotations

import re
import warnings

__all__ = ["compile_pattern", "span"]


def compile_pattern(pattern: str):
    """The compiled pattern (RE2's, with ``pattern``, ``groupindex``, ``groups``,
    ``fullmatch``); ValueError saying why when it cannot be."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # FutureWarning: a warning about the pattern, not an error line
        try:
            re.compile(pattern)
        except re.error as exc:
            raise ValueError(f"is not a regular expression: {exc}") from None
        except RecursionError:
            raise ValueError("is not a regular expression: nested too deeply") from None
    import re2

    options = re2.Options()
    options.log_errors = False  # RE2 would write its own line on stderr
    try:
        return re2.compile(pattern, options=options)
    except re2.error as exc:
        why = exc.args[0].decode("utf-8", "replace") if exc.args and isinstance(exc.args[0], bytes) else str(exc)
        raise ValueError("uses what a regular expression matched in linear time cannot do (lookaround, "
                         f"backreferences, repetition counts above 1,000): {why}") from None


def span(regex, match, group) -> tuple[int, int]:
    """``match.span(group)`` for a group given by number or by name."""
    return match.span(regex.groupindex[group] if isinstance(group, str) else group)
