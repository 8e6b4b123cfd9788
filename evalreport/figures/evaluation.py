"""A :class:`~evalreport.metrics.BinaryEvaluation` in Jupyter: its scalars as a
table beside a small ROC / P-R / cost figure drawn by the report's plot helpers
(:mod:`.plots`), inline SVG with nothing fetched (``BinaryEvaluation._repr_html_``,
which imports this module when the HTML is asked for: the measures import no
figure code, and matplotlib is not imported with the engine). Its text is
:mod:`evalreport.metrics.display`'s.
"""

from __future__ import annotations

import html
import itertools

from ..metrics.display import SCALARS, count_text as _count, value_text as _value

__all__ = ["evaluation_html"]

#: a figure's ids are prefixed with its name (figures/svg.py's to_svg): one name per figure shown,
#: so that several evaluations' figures can live in one notebook page
_FIGURES = itertools.count(1)


def _figure_svg(ev) -> str:
    """ROC, P-R and cost curve side by side, as the report draws them (one learner)."""
    from .canvas import FULL_WIDTH, new_figure, rc_context
    from .plots import plot_cost_curves, plot_pr, plot_roc
    from .svg import to_svg

    with rc_context():
        fig = new_figure((FULL_WIDTH, 2.6), layout="constrained")
        roc, pr, cost = fig.subplots(1, 3)
        plot_roc(roc, ev, legend=False, title="ROC curve")
        plot_pr(pr, ev, legend=False, title="P-R curve")
        plot_cost_curves(cost, ev, legend=False, title="Cost curve")
        alt = (f"ROC curve (AUC {ev.auc:.3f}), P-R curve (AP {_value(ev.average_precision)}) "
               f"and cost curve (expected total cost {_value(ev.expected_total_cost)}) of one learner")
        return to_svg(fig, f"evaluation-{next(_FIGURES)}", alt)


def evaluation_html(ev) -> str:
    """The scalars as a table and, with both classes present, the curves as inline SVG."""
    rows = [("rows", str(ev.n)), ("positives", _count(ev.positives)), ("negatives", _count(ev.negatives))]
    cells = [f"<tr><th>{label}</th><td>{value}</td></tr>" for label, value in rows]
    for name, label in SCALARS:
        value = getattr(ev, name)
        if value is None:
            why = html.escape(ev.undefined.get(name, ""), quote=True)
            cells.append(f'<tr><th>{label}</th><td title="{why}">undefined ({html.escape(why)})</td></tr>')
        else:
            cells.append(f"<tr><th>{label}</th><td>{value:.4f}</td></tr>")
    table = ('<table class="evalreport-scalars" style="display:inline-block;vertical-align:top;'
             'margin-right:1em"><caption>BinaryEvaluation</caption>' + "".join(cells) + "</table>")
    figure = ""
    if ev.auc is not None:  # both classes: every curve is defined
        figure = f'<div style="display:inline-block;max-width:44em;vertical-align:top">{_figure_svg(ev)}</div>'
    return f'<div class="evalreport-evaluation">{table}{figure}</div>'
