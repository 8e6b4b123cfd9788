"""Small helpers for the sentences evalreport writes (warnings, verdicts)."""

from __future__ import annotations

__all__ = ["and_join", "gate_text"]


def and_join(items) -> str:
    """'a', 'a and b', 'a, b and c' ('' for none)."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def gate_text(g: dict, number, bound_number=None) -> str:
    """A gate row of results.json in words, its numbers written by ``number`` (None:
    "undefined"), the spec's bounds by ``bound_number`` (default ``number``): the learner, the metric, where on a slice (the value, or the two
    values a parity difference lies between), the value, its gap, and the bounds.
    A gate on the change since the previous run says so ("auc change since
    2026-11-09"), with its p-value, and why it passed with nothing to compare."""
    def shown(x):
        return "undefined" if x is None else number(x)

    where = ""
    if "slice_value" in g:
        where = f" [{g['slice']} = '{g['slice_value']}']"
    elif "slice" in g:
        between = g.get("between")
        where = f" across {g['slice']}" + (f" (between '{between[0]}' and '{between[1]}')" if between else "")
    elif "change_since" in g:
        where = " change" + (f" since {g['change_since']}" if g["change_since"] else "")
    elif "drift_since" in g:
        where = " drift of the scores" + (f" of class {g['class']}" if g.get("class") is not None else "")
        where += f" since {g['drift_since']}" if g["drift_since"] else ""
    gap = f", gap {shown(g['gap'])}" if "gap" in g else ""
    gap += f", p = {shown(g['p_value'])}" if g.get("p_value") is not None else ""
    # a gate on a significant drop decides on the Holm-adjusted p (history.changes' p_holm)
    gap += f", Holm-adjusted p = {shown(g['p_holm'])}" if g.get("p_holm") is not None else ""
    bound = " and ".join(f"{k} {(bound_number or number)(g[k])}" for k in ("min", "max", "max_gap", "max_drop") if k in g)
    if g.get("significant_drop"):
        bound = "no significant drop"
    note = f": {g['note']}" if g.get("note") else ""
    return f"{g['learner']}: {g['metric']}{where} = {shown(g['value'])}{gap} (needs {bound}){note}"
