"""How a problem in a spec is told: at its key path (``data[0].learners.a``),
with the YAML line it was written on, values cut short, and the closest valid
name suggested for an unknown one.
"""

from __future__ import annotations

from ..errors import suggest

#: a key path: keys and list indexes from the top (``("data", 0, "label")``)
KeyPath = tuple


def cut(text: str, most: int = 60) -> str:
    """Text from the spec, cut short: a message names it, it need not hold 1 MB of it."""
    return text if len(text) <= most else text[: most - 3] + "..."


def short(value) -> str:
    return cut(repr(value))


def format_path(loc) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "(top level)"


def unknown_name(kind: str, name, valid) -> str:
    return (f"unknown {kind} '{cut(str(name))}'{suggest(name, valid)}; "
            f"valid: {', '.join(cut(str(v)) for v in valid)}")


class Locator:
    def __init__(self, source: str, lines: dict):
        self.source = source
        self.lines = lines
        #: a key path of the expanded spec -> the one written in the YAML (spec.patterns:
        #: data[3].learners.r07 came from data[0].learners.{run}); the longest prefix applies
        self.aliases: dict[tuple, tuple] = {}
        #: (data set, learner name) -> (configuration, replicate value) of the learners of
        #: a data entry with ``replicates`` (spec.patterns; read by spec.replicates.replicates_of)
        self.replicates: dict[tuple, tuple[str, str]] = {}

    def original(self, loc) -> tuple:
        """The key path as written in the YAML of a key path of the expanded spec."""
        loc = tuple(loc)
        for k in range(len(loc), 0, -1):
            if loc[:k] in self.aliases:
                return self.aliases[loc[:k]] + loc[k:]
        return loc

    def line(self, loc) -> int | None:
        return self._line(self.original(loc))

    def _line(self, loc: tuple) -> int | None:
        while loc not in self.lines and loc:
            loc = loc[:-1]
        return self.lines.get(loc)

    def message(self, loc, text: str) -> str:
        loc = self.original(loc)
        line = self._line(loc)
        where = f"{self.source}:{line}" if line else self.source
        return f"{where}: {format_path(loc)}: {text}"


def by_line(problems: list[str]) -> list[str]:
    def key(msg):
        head = msg.split(": ", 1)[0]
        line = head.rsplit(":", 1)[-1]
        return int(line) if line.isdigit() else 0
    return sorted(problems, key=key)
