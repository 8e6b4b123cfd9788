"""Small helpers for the sentences evalreport writes (warnings, verdicts)."""

from __future__ import annotations

__all__ = ["and_join", "gate_text"]


def and_join(items) -> str:
    """'a', 'a and b', 'a, b and c' ('' for none)."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def gate_text(g: dict, number) -> str:
    """A gate row of results.json in words, its numbers written by ``number`` (None:
    "undefined"): the learner, the metric, where on a slice (the value, or the two
    values a parity difference lies between), the value, its gap, and the bounds."""
    def shown(x):
        return "undefined" if x is None else number(x)

    where = ""
    if "slice_value" in g:
        where = f" [{g['slice']} = '{g['slice_value']}']"
    elif "slice" in g:
        between = g.get("between")
        where = f" across {g['slice']}" + (f" (between '{between[0]}' and '{between[1]}')" if between else "")
    gap = f", gap {shown(g['gap'])}" if "gap" in g else ""
    bound = " and ".join(f"{k} {number(g[k])}" for k in ("min", "max", "max_gap") if k in g)
    return f"{g['learner']}: {g['metric']}{where} = {shown(g['value'])}{gap} (needs {bound})"
