"""How a :class:`~evalreport.metrics.BinaryEvaluation` shows itself as text:
its ``repr``, one line of the scalars. Its HTML in Jupyter (the scalars beside a
small ROC / P-R / cost figure) is drawn on the figures' side
(:mod:`evalreport.figures.evaluation`), so that the measures hold no figure code.
"""

from __future__ import annotations

__all__ = ["evaluation_text", "SCALARS", "count_text", "value_text"]

#: the scalars shown, in order: (attribute, label)
SCALARS = (("auc", "AUC"), ("rank_loss", "rank loss"), ("average_precision", "AP"), ("bep", "BEP"),
           ("expected_total_cost", "expected total cost"))


def count_text(v) -> str:
    """A count (a total weight when weighted) as text."""
    return str(v) if isinstance(v, int) else f"{float(v):.6g}"


def value_text(v) -> str:
    """A scalar as the repr prints it (3 decimals; "undefined")."""
    return "undefined" if v is None else f"{v:.3f}"


def evaluation_text(ev) -> str:
    """The one-line repr: the rows and classes, then each scalar (undefined ones with why)."""
    scalars = ", ".join(f"{label} {value_text(getattr(ev, name))}" for name, label in SCALARS)
    why = sorted({ev.undefined[name] for name, _ in SCALARS if getattr(ev, name) is None and name in ev.undefined})
    tail = f" (undefined: {'; '.join(why)})" if why else ""
    return (f"<{type(ev).__name__}: {ev.n} rows, {count_text(ev.positives)} positive, "
            f"{count_text(ev.negatives)} negative; {scalars}{tail}>")
