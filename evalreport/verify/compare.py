"""Two results.json compared value by value: exact for text, integers, booleans and
null; floats within a relative 1e-12 (the last bits of a sum may differ across
machines, nothing a report prints does). Each difference names its key path."""

from __future__ import annotations

import math

__all__ = ["compare_values", "REL_TOL", "IGNORED"]

REL_TOL = 1e-12
#: keys not compared: the version that wrote the file (a later release of the same
#: minor version reproduces the values, not its own version number)
IGNORED = frozenset({"evalreport_version"})


def _path(parts) -> str:
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "(the whole file)"


def _close(a: float, b: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b or abs(a - b) <= REL_TOL * max(abs(a), abs(b))


def compare_values(recorded, rerun, new: list | None = None) -> tuple[int, list[str]]:
    """(the number of values that reproduce, one line per difference). A key the
    rerun has and the recorded file has not is a value a later release of the same
    minor version adds (a new measure): listed in ``new`` when given (not a
    difference: the report never claimed it), else a difference.

    >>> compare_values({"a": 1, "b": [0.5, "x"]}, {"a": 1, "b": [0.5 + 1e-17, "x"]})
    (3, [])
    >>> compare_values({"a": {"b": 0.25}}, {"a": {"b": 0.5}})
    (0, ['a.b: recorded 0.25, rerun 0.5'])
    """
    same, diffs = 0, []

    def walk(a, b, parts):
        nonlocal same
        if isinstance(a, dict) and isinstance(b, dict):
            for k in a:
                if not parts and k in IGNORED:
                    continue
                if k not in b:
                    diffs.append(f"{_path(parts + [k])}: recorded, missing from the rerun")
                else:
                    walk(a[k], b[k], parts + [k])
            for k in b:
                if k not in a and not (not parts and k in IGNORED):
                    if new is not None:
                        new.append(_path(parts + [k]))
                    else:
                        diffs.append(f"{_path(parts + [k])}: not recorded, present in the rerun")
            return
        if isinstance(a, list) and isinstance(b, list):
            if len(a) != len(b):
                diffs.append(f"{_path(parts)}: recorded {len(a)} items, rerun {len(b)}")
                return
            for k, (x, y) in enumerate(zip(a, b)):
                walk(x, y, parts + [k])
            return
        floats = isinstance(a, float) or isinstance(b, float)
        numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (a, b))
        if (floats and numbers and _close(float(a), float(b))) or (not floats and type(a) is type(b) and a == b):
            same += 1
        else:
            diffs.append(f"{_path(parts)}: recorded {a!r}, rerun {b!r}")

    walk(recorded, rerun, [])
    return same, diffs
