"""The canvas every figure is drawn on: its sizes in inches (the printed
page's), matplotlib's settings for the report's figures, a Figure made without
pyplot, and the legend under the axes. Shared by the figure modules."""

from __future__ import annotations

import functools
import warnings

from .svg import FONT

__all__ = ["FULL_WIDTH", "HALF_WIDTH", "QUARTER_WIDTH", "THIRD_WIDTH", "THIRD_HEIGHT", "RC", "rc_context",
           "new_figure", "remember_svg_text_metrics", "legend_columns", "legend_below"]


def rc_context(extra: dict | None = None):
    """matplotlib's settings for drawing one figure (read when artists are made
    and when the SVG is written, so the whole drawing runs inside)."""
    import matplotlib

    return matplotlib.rc_context({**RC, **(extra or {})})


def new_figure(figsize, **kwargs):
    """A Figure on the SVG backend's canvas, made without pyplot: no global
    figure registry to close figures from (a figure left open by an exception
    lived on), no process-wide backend switch (``matplotlib.use``) under the
    caller, and the Agg backend is never loaded. (pyplot's own import is small
    once matplotlib.figure is loaded: about 15 ms.) Its texts are measured
    through :func:`remember_svg_text_metrics`."""
    from matplotlib.backends.backend_svg import FigureCanvasSVG
    from matplotlib.figure import Figure

    remember_svg_text_metrics()
    fig = Figure(figsize=figsize, **kwargs)
    FigureCanvasSVG(fig)
    return fig


def remember_svg_text_metrics() -> None:
    """Have matplotlib measure each text for the SVG backend once per process,
    not once per renderer. matplotlib caches a text's size per renderer object,
    and every figure is laid out with one renderer and drawn with another, so
    the same tick labels, learner names and legends were measured again in each
    (about a fifth of drawing a report's figures). An SVG renderer's measure of a
    text depends only on the text, its font properties and whether it is math
    (``RendererSVG.get_text_width_height_descent`` asks matplotlib's shared
    ``TextToPath``), so one cache keyed on those gives the same numbers, and the
    SVG the same bytes (tests/test_figures.py). Any other renderer (Agg, PDF, a
    user's own figures on them) is measured as matplotlib does. Installed once,
    on matplotlib's module function that every text measure goes through."""
    import matplotlib.text as mtext

    measure = mtext._get_text_metrics_with_cache
    if getattr(measure, "_evalreport_svg", False):
        return

    from matplotlib.backends.backend_svg import RendererSVG

    def measured(renderer, text, fontprop, ismath, dpi):
        drawn_by = getattr(renderer, "_renderer", renderer)  # the SVG renderer inside a MixedModeRenderer
        if type(drawn_by) is RendererSVG and ismath != "TeX":
            return _svg_text_metrics(text, fontprop.copy(), ismath)  # a copy: FontProperties is mutable
        return measure(renderer, text, fontprop, ismath, dpi)

    measured._evalreport_svg = True
    measured.__wrapped__ = measure
    mtext._get_text_metrics_with_cache = measured


@functools.lru_cache(8192)
def _svg_text_metrics(text: str, fontprop, ismath) -> tuple[float, float, float]:
    from matplotlib.textpath import text_to_path  # matplotlib's TextToPath, as RendererSVG's own

    return text_to_path.get_text_width_height_descent(text, fontprop, ismath)


#: Figures are drawn at the size they are printed (A4 less the margins: 7.0 in
#: across, 3.45 in for a figure beside another), so a point here is a point on
#: paper: no text is set under 7 pt.
FULL_WIDTH, HALF_WIDTH, QUARTER_WIDTH = 7.0, 3.45, 1.68
#: ROC, P-R and cost curves three across (a few learners, no crowded corner):
#: each 2.22 in wide, one height, so the row is a third of a page, not two thirds
THIRD_WIDTH, THIRD_HEIGHT = 2.22, 3.4

RC = {
    "svg.fonttype": "none",  # text stays text: small, selectable, fast to lay out in the PDF
    "font.family": FONT,
    "font.size": 8,
    "axes.titlesize": 8.5,
    "axes.labelsize": 8,
    "xtick.labelsize": 7.5,
    "ytick.labelsize": 7.5,
    "legend.fontsize": 7.5,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.color": "#e4e4e4",
    "grid.linewidth": 0.5,
    "lines.linewidth": 1.5,
    "path.simplify": False,  # the engine already bounded the points
    # learner and class names are text: '$' is not mathtext ('$\\frac{$' would not parse)
    "text.parse_math": False,
    # room for the legends outside the axes, without tight_layout's guesses
    "figure.constrained_layout.h_pad": 0.03,
    "figure.constrained_layout.w_pad": 0.03,
}


def legend_columns(labels, width: float) -> int:
    """How many columns of legend entries fit ``width`` inches: matplotlib fills the
    columns one after another, each as wide as its widest entry (a column of short
    learner names beside one of longer marks), the texts measured in the legend's font."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextToPath

    font = FontProperties(family=FONT, size=RC["legend.fontsize"])
    measure = TextToPath().get_text_width_height_descent  # names are text: no mathtext ('$')
    # an entry: its handle (1.8 em) and the pad after it (0.4 em), then its text; columns 0.8 em apart
    em = RC["legend.fontsize"] / 72
    with warnings.catch_warnings():  # a glyph the font lacks: to_svg warns of it, once, as drawing does
        warnings.simplefilter("ignore")
        entries = [2.2 * em + measure(lab, font, ismath=False)[0] / 72 for lab in labels]
    best = 1
    for ncol in range(2, len(entries) + 1):
        rows, large = divmod(len(entries), ncol)
        start, total = 0, 0.8 * em * (ncol - 1)
        for n in [rows + 1] * large + [rows] * (ncol - large):
            total += max(entries[start:start + n], default=0.0)
            start += n
        if total > width - 0.12:  # the figure's padding and the legend's own
            break
        best = ncol
    return best


def legend_below(fig, axes, handles=None, labels=None, width: float = HALF_WIDTH) -> None:
    """The legend under the axes, outside the data (constrained layout makes
    room for it); as many columns as the longest label allows at this width."""
    if handles is None:
        pairs = {}
        for ax in axes:
            for h, lab in zip(*ax.get_legend_handles_labels()):
                pairs.setdefault(lab, h)
        labels, handles = list(pairs), list(pairs.values())
    if not handles:
        return
    ncol = legend_columns(labels, width)
    fig.legend(handles, labels, loc="outside lower center", ncol=ncol, frameon=False,
               handlelength=1.8, columnspacing=0.8, handletextpad=0.4, borderaxespad=0.2)
