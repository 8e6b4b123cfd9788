"""Small helpers for the sentences evalreport writes (warnings, verdicts)."""

from __future__ import annotations

__all__ = ["and_join", "gate_text", "magnitude", "general"]


def and_join(items) -> str:
    """'a', 'a and b', 'a, b and c' ('' for none)."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def gate_text(g: dict, number, bound_number=None, ends=None) -> str:
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
    if g.get("pc_positive") is not None:  # a cost at the operating point: which cost, where
        where += f" (normalised expected cost at PC(+) = {number(g['pc_positive'])})"
    gap = f", gap {shown(g['gap'])}" if "gap" in g else ""
    ends = ends or (lambda lo, hi: f"[{number(lo)}, {number(hi)}]")  # an interval's "[low, high]"
    if g.get("gap_interval") is not None:  # the gap's interval (the slice value's, less the whole's value)
        gap += f" {ends(*g['gap_interval'])}"
    gap += f", p = {shown(g['p_value'])}" if g.get("p_value") is not None else ""
    # a gate on a significant drop decides on the Holm-adjusted p (history.changes' p_holm)
    gap += f", Holm-adjusted p = {shown(g['p_holm'])}" if g.get("p_holm") is not None else ""
    bound = " and ".join(f"{k} {(bound_number or number)(g[k])}" for k in ("min", "max", "max_gap", "max_drop") if k in g)
    if g.get("significant_drop"):
        bound = "no significant drop"
    note = f": {g['note']}" if g.get("note") else ""
    if g.get("note") and g.get("value") is None:  # nothing compared (a small slice, no previous run)
        return f"{g['learner']}: {g['metric']}{where} not evaluated (needs {bound}){note}"
    # the value's interval beside it: a failed or passed gate is read with its uncertainty
    interval = g.get("interval")
    span = (f" {ends(*interval)}" if g.get("value") is not None and interval
            and None not in interval and "change_since" not in g else "")
    return f"{g['learner']}: {g['metric']}{where} = {shown(g['value'])}{span}{gap} (needs {bound}){note}"


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def magnitude(x: float, digits: int = 3) -> str:
    """A number far from 1 as the report prints it, with no exponent notation: up
    to ``digits`` significant digits times a power of ten.

    >>> magnitude(1e200), magnitude(2.5e-300), magnitude(-2.220446049250313e-16, 2)
    ('1 × 10²⁰⁰', '2.5 × 10⁻³⁰⁰', '-2.2 × 10⁻¹⁶')
    """
    mantissa, exponent = f"{x:.{max(digits, 1) - 1}e}".split("e")
    return f"{float(mantissa):g} × 10{str(int(exponent)).translate(_SUPERSCRIPT)}"


def general(value, digits: int = 6) -> str:
    """A number in a warning's or a note's words (a data value, a sum, a bound, a
    difference; the one number style's: docs/reference.md, "How numbers print",
    and evalreport.number_style has it too): what ``f"{value:.{digits}g}"`` prints (up to ``digits`` significant
    digits, trailing zeros dropped), but where that would use exponent notation (a
    magnitude under 0.0001 or of more than ``digits`` integer digits) a power of ten
    (:func:`magnitude`); "undefined", "+inf", "-inf" as elsewhere.

    >>> general(0.25), general(1e200), general(-2.220446049250313e-16, 3), general(123456789, 4)
    ('0.25', '1 × 10²⁰⁰', '-2.22 × 10⁻¹⁶', '1.235 × 10⁸')
    """
    if value is None or value != value:
        return "undefined"
    if value in (float("inf"), float("-inf")):
        return "+inf" if value > 0 else "-inf"
    text = f"{float(value):.{digits}g}"
    return magnitude(float(value), digits) if "e" in text else text
