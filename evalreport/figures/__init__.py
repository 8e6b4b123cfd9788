"""Result -> figures as inline SVG text (matplotlib). Plots take results and
never compute a measure: every number drawn was computed by the engine.

Deterministic: a fixed hash salt per figure, no dates in the SVG, ids
prefixed per figure so several figures can live in one HTML page. Sizes do
not grow with the number of rows: curves arrive already bounded
(``report.curve_points``) and are drawn as they are.
"""

from __future__ import annotations

import numpy as np

from .svg import drawing, to_svg
from .text import cost_alt, gains_alt, legend_label, lift_alt, pr_alt, reliability_alt, roc_alt, roc_log_alt
from .text import scalars_alt
# the drawing of the ROC, P-R and cost curves is the plot helpers' (evalreport.figures.plots, for
# custom figures too); the rest is shared with the other figure modules from here
from .plots import MIN_TEXT, PALETTE, proxy, thin, unit_axes  # noqa: F401  (classes.py, ...)
from .plots import drawn_cost_limits, drawn_learners, line_style, learner_styles, plot_cost_curves, plot_pr, plot_roc
from .styles import muted_handle
from .plots import roc_crowded
from .canvas import FULL_WIDTH, HALF_WIDTH, QUARTER_WIDTH, THIRD_HEIGHT, THIRD_WIDTH
from .canvas import legend_below, legend_columns, new_figure, rc_context

__all__ = ["PALETTE", "learner_styles", "figures", "gains_figures", "drawing", "dot_handles"]

THIRDS_MAX_LEARNERS = 4


def roc_figure(result, styles, thirds: bool = False, log_fpr: bool = False) -> str:
    """The ROC curves; ``log_fpr``: their top-left corner with FPR on a log scale,
    the report's second ROC figure where the curves crowd the corner (a figure of
    its own, with its own legend and alt text, beside the first in print and under
    it on a phone: one SVG of two panels printed its text at 4 px on a phone)."""
    # a pair (the curves crowd the corner) with legends of two columns where they fit: the
    # row no taller than the one figure of two panels it replaced
    pair = log_fpr or roc_crowded([lr.curves.roc for lr in result.learners.values() if lr.curves.roc is not None])
    with rc_context():
        size = (THIRD_WIDTH, THIRD_HEIGHT) if thirds else (HALF_WIDTH, 3.2) if pair else (HALF_WIDTH, 4.2)
        fig = new_figure(size, layout="constrained")
        ax = fig.subplots()
        handles = plot_roc(ax, result, styles=styles, log_fpr=log_fpr, legend=False)
        labels = [h.get_label() for h in handles]
        if pair and not thirds:  # the axes' room, and a line (0.155 in) per row of the legend
            fig.set_size_inches(size[0], 2.43 + 0.155 * -(-len(labels) // legend_columns(labels, size[0])))
        legend_below(fig, [ax], handles, labels, width=size[0])
        if log_fpr:
            return to_svg(fig, "roc-log", roc_log_alt(result))
        return to_svg(fig, "roc", roc_alt(result))


def _curves_figure(plot, name: str, alt: str, result, styles, thirds: bool) -> str:
    """One axes of every learner's curves (``plot``: a plot helper) with the legend
    below: the P-R and the cost figures."""
    with rc_context():
        size = (THIRD_WIDTH, THIRD_HEIGHT) if thirds else (HALF_WIDTH, 3.3)
        fig = new_figure(size, layout="constrained")
        ax = fig.subplots()
        handles = plot(ax, result, styles=styles, legend=False)
        legend_below(fig, [ax], handles, [h.get_label() for h in handles], width=size[0])
        return to_svg(fig, name, alt)


def pr_figure(result, styles, thirds: bool = False) -> str:
    return _curves_figure(plot_pr, "pr", pr_alt(result), result, styles, thirds)


def cost_limits(result) -> tuple[float, float]:
    """The cost figure's y range: from 0 to a little above the highest of the
    learners' lower envelopes (cost curves) and the deployed thresholds' costs at
    the operating point, not the whole range of the cost lines under them."""
    return drawn_cost_limits(drawn_learners(result))


def cost_figure(result, styles, thirds: bool = False) -> str:
    return _curves_figure(plot_cost_curves, "cost", cost_alt(result), result, styles, thirds)


def scalar_limits(rows) -> tuple[float, float]:
    """The headline chart's x range: every value and interval end, with a margin
    so that no dot is cut at the edge; never wider than needed (AUCs of 0.94 to
    0.99 are not drawn on 0 to 1)."""
    ends = []
    for _, values in rows:
        for value, interval in values.values():
            if value is not None:
                ends.append(value)
            if interval is not None:
                ends.extend(v for v in interval if v is not None)
    ends = [float(v) for v in ends if np.isfinite(v)]
    if not ends:
        return 0.0, 1.0
    lo, hi = min(ends), max(ends)
    pad = max(0.06 * (hi - lo), 0.005)
    return lo - pad, hi + pad


def scalars_figure(result, styles, rows) -> str:
    """Dot chart of the headline scalars; ``rows`` = [(label, {learner: (value, (lo, hi) | None)})]."""
    keys = list(result.learners)
    with rc_context():
        # a label on two lines (with priors: "F1" over "(sample: 37 % positive)") needs taller rows
        per_row = 0.32 if any("\n" in label for label, _ in rows) else 0.23
        fig = new_figure((FULL_WIDTH, per_row * len(rows) * max(1, len(keys) / 4) + 0.8), layout="constrained")
        ax = fig.subplots()
        step = 0.7 / max(1, len(keys))
        for i, (label, values) in enumerate(rows):
            for j, key in enumerate(keys):
                value, interval = values.get(key, (None, None))
                if value is None:
                    continue
                y = i + (j - (len(keys) - 1) / 2) * step
                st = styles[key]
                muted = st.get("muted")
                if interval is not None:
                    ax.plot(interval, [y, y], color=st["color"], linewidth=0.8 if muted else 1.2,
                            zorder=1.5 if muted else 2)
                ax.plot([value], [y], **dot_style(st))
        ax.set_yticks(range(len(rows)))
        ax.set_yticklabels([label for label, _ in rows])
        ax.set_ylim(len(rows) - 0.5, -0.5)
        ax.set_xlim(*scalar_limits(rows))
        ax.grid(axis="y", visible=False)
        ax.set_xlabel("value (higher is better; lines: confidence intervals where computed)")
        # every learner, those with hard decisions too (no AUC: not on the first row)
        handles = dot_handles(keys, styles)
        fig.legend(handles, [h.get_label() for h in handles], loc="outside upper center",
                   ncol=min(len(keys), 6), frameon=False, handletextpad=0.2, columnspacing=1.2)
        return to_svg(fig, "scalars", scalars_alt(rows))


def dot_style(st: dict, size: float = 5) -> dict:
    """A learner's dot in a dot chart: its marker and colour; a muted one small and behind."""
    if st.get("muted"):
        return dict(marker="o", markersize=size * 0.6, color=st["color"], linestyle="none", clip_on=False,
                    zorder=1.5)
    return dict(marker=st.get("marker", "o"), markersize=size, color=st["color"], linestyle="none",
                clip_on=False, zorder=3)


def dot_handles(keys, styles, size: float = 5) -> list:
    """The legend entries of the dot charts: one per learner in colour, one for the grey ones."""
    handles = [proxy(legend_label(k), **{**dot_style(styles[k], size), "clip_on": True}) for k in keys
               if not styles[k].get("muted")]
    grey = muted_handle(keys, styles)
    if grey is not None:
        handles.append(proxy(grey.get_label(), **dot_style(styles[[k for k in keys if styles[k].get("muted")][0]],
                                                         size)))
    return handles


def gains_figures(result, styles) -> tuple[str, str]:
    """Cumulative gains (the share of the positives captured against the share
    flagged, the diagonal a random ranking) and lift by decile, per learner: two
    figures, each with its legend (side by side in print, one under the other on
    a phone)."""
    drawn = [k for k, lr in result.learners.items() if lr.operating_table is not None]
    labels = ["random"] + [legend_label(k) for k in drawn if not styles[k].get("muted")]
    labels += [] if len(labels) == len(drawn) + 1 else ["n other learners (grey)"]
    rows = -(-len(labels) // legend_columns(labels, HALF_WIDTH))
    grey = muted_handle(drawn, styles)
    out = []
    for name in ("gains", "lift"):
        with rc_context():
            # each row of legend past the first takes its height from the axes: the figure grows by it
            fig = new_figure((HALF_WIDTH, 2.0 + 0.16 * (rows - 1)), layout="constrained")
            ax = fig.subplots()
            if name == "gains":
                ax.plot([0, 1], [0, 1], color="#999999", linewidth=0.8, linestyle=":", label="random")
            else:
                ax.axhline(1.0, color="#999999", linewidth=0.8, linestyle=":", label="random")
            for key in drawn:
                table, st = result.learners[key].operating_table, styles[key]
                line = dict(**line_style(st), marker=st.get("marker", "o"), markersize=2.5 if st.get("muted") else 3.2,
                            label="_" if st.get("muted") else legend_label(key))
                if name == "gains":
                    points = [(0.0, 0.0)] + [(g.flagged, g.captured) for g in table.gains if g.captured is not None]
                else:
                    points = [(g.flagged, g.lift) for g in table.gains if g.lift is not None]
                if len(points) > (1 if name == "gains" else 0):
                    ax.plot(*zip(*points), **line)
            if name == "gains":
                unit_axes(ax, "Share flagged (top by score)", "Share of positives captured")
                ax.set_title("Cumulative gains")
            else:
                ax.set_xlim(0, 1.02)
                ax.set_ylim(bottom=0)
                ax.set_xlabel("Share flagged (top by score)")
                ax.set_ylabel("Lift (captured / flagged)")
                ax.set_title("Cumulative lift by decile")
            handles, labels_ = ax.get_legend_handles_labels()
            if grey is not None:
                handles, labels_ = handles + [grey], labels_ + [grey.get_label()]
            legend_below(fig, [ax], handles, labels_, width=HALF_WIDTH)
            out.append(to_svg(fig, name, gains_alt(result) if name == "gains" else lift_alt(result)))
    return out[0], out[1]


def figures(result, scalar_rows, styles: dict | None = None) -> dict[str, str]:
    """Every figure of the report, as inline SVG text: each key is there, ""
    when nothing is drawn (no learner has the curve: a class is absent, or
    hard decisions only), since the templates ask for every key. ``styles``:
    each learner's colour, dash and marker, the emphasis decided by the report
    (report/summary.py's ``shown_styles``); default every learner in colour."""
    styles = styles or learner_styles(result.learners)
    learners = result.learners.values()
    # the ROC figure takes the page's width when it adds its log-FPR panel; else,
    # with a few learners (legends of a few lines), the three curves go three across
    wide = roc_crowded([lr.curves.roc for lr in learners if lr.curves.roc is not None])
    drawn = [any(lr.curves.roc is not None for lr in learners), any(lr.curves.pr is not None for lr in learners),
             any(lr.summary.cost_curve is not None for lr in learners)]
    thirds = not wide and len(learners) <= THIRDS_MAX_LEARNERS and all(drawn)
    return {
        "roc_wide": "wide" if wide else "",
        "curves_thirds": "thirds" if thirds else "",
        "roc": roc_figure(result, styles, thirds) if drawn[0] else "",
        "roc_log": roc_figure(result, styles, log_fpr=True) if drawn[0] and wide else "",
        "pr": pr_figure(result, styles, thirds) if drawn[1] else "",
        "cost": cost_figure(result, styles, thirds) if drawn[2] else "",
        "scalars": scalars_figure(result, styles, scalar_rows) if scalar_rows else "",
    }


def reliability_figure(name: str, bins, color: str, fig_id: str, *, top_label: bool = False) -> str:
    """A learner's reliability diagram: the observed frequency of each bin against
    its mean score, with Wilson's interval, beside the diagonal of perfect
    calibration; underneath, each bin's weight as a histogram over its range."""
    shown = [b for b in bins if b.n > 0]
    with rc_context():
        # four across the page (QUARTER_WIDTH) with fixed margins (the labels are
        # known): a layout engine measures every text again, a third of the drawing
        fig = new_figure((QUARTER_WIDTH, 2.1))
        fig.subplots_adjust(left=0.3, right=0.95, top=0.9, bottom=0.19, hspace=0.12)
        (ax, hist) = fig.subplots(2, 1, sharex=True,
                                       gridspec_kw={"height_ratios": [3, 1]})
        ax.plot([0, 1], [0, 1], color="#999999", linewidth=0.8, linestyle=":", label="perfect calibration")
        x = np.array([b.mean_score for b in shown])
        y = np.array([b.observed for b in shown])
        low = np.array([b.interval[0] for b in shown])
        high = np.array([b.interval[1] for b in shown])
        # the interval holds the observed share; max(0, .) only absorbs rounding
        yerr = np.maximum(np.vstack([y - low, high - y]), 0.0) if shown else None
        ax.errorbar(x, y, yerr=yerr, color=color, marker="o",
                    markersize=4, linewidth=1.2, elinewidth=0.8, capsize=2, label=legend_label(name))
        ax.set_xlim(-0.01, 1.01)
        ax.set_ylim(-0.01, 1.01)
        ax.set_ylabel("share right" if top_label else "share positive")
        ax.set_title(legend_label(name) + (" (top label)" if top_label else ""))
        ax.set_yticks([0, 0.5, 1])
        hist.set_xticks([0, 0.5, 1])
        hist.bar([b.lo for b in bins], [b.n for b in bins], width=[b.hi - b.lo for b in bins], align="edge",
                 color=color, alpha=0.45, edgecolor="white", linewidth=0.5)
        hist.set_xlabel("top score (confidence)" if top_label else "score")
        hist.set_ylabel("weight" if any(not float(b.n).is_integer() for b in bins) else "instances")
        # two short tick labels ("1.5k", not "1500"): the fixed left margin holds them and
        # the rotated label beside them inside the figure
        from matplotlib.ticker import FuncFormatter, MaxNLocator

        hist.yaxis.set_major_locator(MaxNLocator(nbins=2, integer=True))
        hist.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v / 1000:g}k" if abs(v) >= 1000 else f"{v:g}"))
        hist.grid(axis="x", visible=False)
        return to_svg(fig, fig_id, reliability_alt(name, bins, top_label))
