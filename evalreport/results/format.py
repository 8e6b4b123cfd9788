"""How results.json writes values: one place for it.

Non-finite numbers become ``null``; thresholds of +inf ("predict nothing
positive") become ``null`` too; lists of numbers are written on one line.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["num", "InlineList", "number_list", "curve_block", "averages_dict", "groups_dict", "class_scores_json"]


def num(x):
    """A JSON number: int stays int, floats finite or None."""
    if x is None:
        return None
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    x = float(x)
    if not math.isfinite(x):
        return None
    return x


class InlineList(list):
    """A list of numbers written on one line in results.json."""


def number_list(a) -> InlineList:
    a = np.asarray(a)
    if a.dtype.kind == "f" and not np.isfinite(a).all():
        if a.ndim != 1:
            return InlineList(num(v) for v in a.tolist())
        # num()'s None for each non-finite value, placed by index: a curve's thresholds
        # (+inf first) went through num() one by one, 2.5 ms a curve of 5,000 points
        values = a.tolist()
        for i in np.flatnonzero(~np.isfinite(a)).tolist():
            values[i] = None
        return InlineList(values)
    return InlineList(a.tolist())


def curve_block(block, xname: str, yname: str) -> dict:
    x, y = block.x, block.y
    if block.simplified:
        # Already approximate to max_error (>> 1e-10): 10 decimals lose nothing
        # and keep the file (and the PDF that carries it) small.
        x, y = np.round(x, 10), np.round(y, 10)
    d = {xname: number_list(x), yname: number_list(y), "threshold": number_list(block.threshold)}
    if block.simplified:
        d.update(simplified=True, vertices=block.vertices, max_error=block.max_error)
    return d


def averages_dict(a, *, auc=None) -> tuple[dict, dict]:
    macro = {"precision": num(a.macro_precision), "recall": num(a.macro_recall),
             "f1": num(a.macro_f1), "mean_f1": num(a.mean_f1)}
    if auc is not None:
        macro.update(auc)
    micro = {"precision": num(a.micro_precision), "recall": num(a.micro_recall), "f1": num(a.micro_f1)}
    return macro, micro


def groups_dict(groups) -> dict:
    out = {"groups": {name: {k: num(v) for k, v in m.items()}
                      for name, m in zip(groups.names, groups.measures)}}
    out["groups_macro"], out["groups_micro"] = averages_dict(groups.averages)
    return out


def class_scores_json(c) -> dict | None:
    """A class's scores (metrics.score_summary.ClassScores) as results.json holds them."""
    if c is None:
        return None
    if c.kind == "values":
        return {"kind": "values", "values": number_list(c.values), "weights": number_list(c.weights)}
    return {"kind": "quantiles", "probabilities": number_list(c.probabilities), "values": number_list(c.values),
            "weight": num(c.weight)}
