"""The spec as the report prints it: its lines as written, numbered as in the file.

The report prints the YAML text line by line, in one column of monospaced type,
each line with its number in the file (the numbers the error messages give), so
that a reader can audit it against the attached spec. The layout never wraps a
line: a line longer than :data:`FOLD_WIDTH` characters is folded here, each
further piece marked with :data:`CONTINUATION`, and the pieces joined again are
the line exactly (a folded line is never taken for two lines of YAML).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["FOLD_WIDTH", "CONTINUATION", "SpecLine", "spec_lines", "fold"]

#: characters a printed line holds (A4's text width at 6.8 pt DejaVu Sans Mono,
#: less the line numbers' gutter: about 112; some room left for the mark)
FOLD_WIDTH = 100
#: the mark in the gutter of a folded line's further pieces
CONTINUATION = "\u21aa"  # ↪
#: PyYAML's line breaks (its Mark.line counts these)
_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")


@dataclass(frozen=True)
class SpecLine:
    """One line of the spec: its number in the file and its printed pieces (one
    unless the line was folded; joined, they are the line)."""

    number: int
    pieces: tuple[str, ...]


def fold(line: str, width: int = FOLD_WIDTH) -> tuple[str, ...]:
    """``line`` in pieces of at most ``width`` characters. A piece ends after a
    space when one is in its last third (a word is not cut when it need not be),
    else at ``width`` characters. ``"".join(fold(line)) == line``."""
    if width < 1:
        raise ValueError("the fold width must be at least 1")
    pieces = []
    while len(line) > width:
        cut = line.rfind(" ", width - width // 3, width) + 1 or width
        pieces.append(line[:cut])
        line = line[cut:]
    pieces.append(line)
    return tuple(pieces)


def spec_lines(text: str, width: int = FOLD_WIDTH) -> tuple[SpecLine, ...]:
    """The lines of the spec's YAML ``text``, numbered from 1 as in the file (a
    line break is one as PyYAML reads them, whose marks number the error messages),
    tabs kept as they are, each folded by :func:`fold`. No line for the empty text."""
    if not text:
        return ()
    lines = _BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()  # the file's final line break ends the last line: no line after it
    return tuple(SpecLine(n, fold(line, width)) for n, line in enumerate(lines, start=1))
