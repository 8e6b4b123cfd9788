"""Result -> figures as inline SVG text (matplotlib). Plots take results and
never compute a measure: every number drawn was computed by the engine.

Deterministic: a fixed hash salt per figure, no dates in the SVG, ids
prefixed per figure so several figures can live in one HTML page. Sizes do
not grow with the number of rows: curves arrive already bounded
(``report.curve_points``) and are drawn as they are.
"""

from __future__ import annotations

import numpy as np

from .figure_svg import FONT, _svg, drawing
from .figure_text import CROWDED_FPR, CROWDED_TPR, _label, _partial_auc, cost_alt, gains_alt, pr_alt, reliability_alt, roc_alt, scalars_alt

__all__ = ["PALETTE", "learner_styles", "figures", "gains_figure", "drawing"]

#: Okabe & Ito's colour-blind-safe palette (yellow last: weak on white)
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442")
_DASHES = ("-", (0, (6, 2)), (0, (2, 1.5)), (0, (6, 2, 2, 2)))


def learner_styles(keys) -> dict[str, dict]:
    """One colour (and, past eight learners, a dash pattern) per learner, in every figure."""
    return {
        key: {"color": PALETTE[i % len(PALETTE)], "linestyle": _DASHES[(i // len(PALETTE)) % len(_DASHES)]}
        for i, key in enumerate(keys)
    }


def _rc(extra: dict | None = None):
    """matplotlib's settings for drawing one figure (read when artists are made
    and when the SVG is written, so the whole drawing runs inside)."""
    import matplotlib

    return matplotlib.rc_context({**_RC, **(extra or {})})


def _figure(figsize, **kwargs):
    """A Figure on the SVG backend's canvas, made without pyplot: no global
    figure registry to close figures from (a figure left open by an exception
    lived on), no process-wide backend switch (``matplotlib.use``) under the
    caller, and the Agg backend is never loaded. (pyplot's own import is small
    once matplotlib.figure is loaded: about 15 ms.)"""
    from matplotlib.backends.backend_svg import FigureCanvasSVG
    from matplotlib.figure import Figure

    fig = Figure(figsize=figsize, **kwargs)
    FigureCanvasSVG(fig)
    return fig


#: Figures are drawn at the size they are printed (A4 less the margins: 7.0 in
#: across, 3.45 in for a figure beside another), so a point here is a point on
#: paper: no text is set under 7 pt.
FULL_WIDTH, HALF_WIDTH, QUARTER_WIDTH = 7.0, 3.45, 1.68
MIN_TEXT = 7.0

_RC = {
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


def _legend_below(fig, axes, handles=None, labels=None, width: float = HALF_WIDTH) -> None:
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
    # a character of 7.5 pt DejaVu Sans is about 0.06 in wide; the marker and gaps 0.45 in
    longest = max(len(lab) for lab in labels) * 0.062 + 0.45
    ncol = max(1, min(len(labels), int((width - 0.2) // longest)))
    fig.legend(handles, labels, loc="outside lower center", ncol=ncol, frameon=False,
               handlelength=1.8, columnspacing=1.0, handletextpad=0.4, borderaxespad=0.2)


#: points per curve in a figure: a few per pixel of a printed figure is plenty
FIGURE_POINTS = 800


def _thin(*arrays, points: int = FIGURE_POINTS):
    """The curve (x, y, ...) at most ``points`` points, spread evenly along its
    L1 length; drawing only (every number was computed on the full curve)."""
    x, y = arrays[0], arrays[1]
    if x.size <= points:
        return arrays
    length = np.concatenate(([0.0], np.cumsum(np.abs(np.diff(x)) + np.abs(np.diff(y)))))
    pick = np.unique(np.searchsorted(length, np.linspace(0.0, length[-1], points)))
    pick = np.unique(np.concatenate(([0], np.clip(pick, 0, x.size - 1), [x.size - 1])))
    return tuple(a[pick] for a in arrays)


def _unit_axes(ax, xlabel, ylabel):
    ax.set_xlim(-0.01, 1.01)
    ax.set_ylim(-0.01, 1.01)
    ax.set_aspect("equal")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)


def _deployed(color: str) -> dict:
    """The marker of a learner's own (deployed) threshold: a square."""
    return dict(marker="s", markersize=5.5, markerfacecolor=color, markeredgecolor="white",
                markeredgewidth=0.8, linestyle="none", zorder=6, clip_on=False)


def _proxy(label: str, **kwargs):
    """A legend entry for a kind of mark (its colour neutral: every learner has one)."""
    from matplotlib.lines import Line2D

    return Line2D([], [], label=label, **{"color": "#555555", **kwargs})


def _deployed_proxy():
    return _proxy("deployed thresholds (squares)", marker="s", markersize=5.5, linestyle="none",
                  markeredgecolor="white")


def _learner_handle(key: str, st: dict, label: str, hard: bool):
    """A learner's legend entry: its line, or for hard decisions the square of its one point."""
    if hard:
        return _proxy(_label(f"{key} (hard decisions: one point)"), color=st["color"], marker="s",
                      markersize=5.5, linestyle="none", markeredgecolor="white")
    return _proxy(_label(label), color=st["color"], linestyle=st["linestyle"])


def roc_crowded(curves) -> bool:
    """Whether every ROC curve (x = FPR, y = TPR) reaches TPR 0.8 by FPR 0.1: at a
    linear scale they then differ only in the top-left corner, and a second panel
    with FPR on a log scale shows where they part."""
    return bool(curves) and all(float(np.max(c.y[c.x <= CROWDED_FPR], initial=0.0)) >= CROWDED_TPR
                                for c in curves)


def _log_path(x, y, left: float):
    """A ROC curve for a log-FPR axis: its segments (straight at a linear scale)
    drawn through points between the vertices, FPR below ``left`` (0 included)
    put at ``left``, the axis' edge."""
    if 1 < x.size <= 400:
        steps = np.linspace(0.0, 1.0, 17)[:-1]
        x = np.append((x[:-1, None] + (x[1:, None] - x[:-1, None]) * steps).ravel(), x[-1])
        y = np.append((y[:-1, None] + (y[1:, None] - y[:-1, None]) * steps).ravel(), y[-1])
    else:
        x, y = _thin(x, y)
    return np.maximum(x, left), y


def roc_figure(result, styles) -> str:
    curves = {k: lr.curves.roc for k, lr in result.learners.items() if lr.curves.roc is not None}
    crowded = roc_crowded(list(curves.values()))
    max_fpr = _partial_auc(result)
    with _rc():
        # crowded: the whole curve and its top-left corner side by side, across the page
        fig = _figure((FULL_WIDTH, 3.2) if crowded else (HALF_WIDTH, 4.2), layout="constrained")
        if crowded:
            ax, zoom = fig.subplots(1, 2)
        else:
            ax, zoom = fig.subplots(), None
        ax.plot([0, 1], [0, 1], color="#999999", linewidth=0.8, linestyle=":")
        handles, best, hulls = [], None, False
        for key, lr in result.learners.items():
            st, roc, at = styles[key], lr.curves.roc, lr.at_threshold
            handles.append(_learner_handle(key, st, f"{key} (AUC {lr.summary.auc:.3f})"
                                           if roc is not None and lr.summary.auc is not None else key,
                                           lr.hard or roc is None))
            if roc is not None:
                ax.plot(*_thin(roc.x, roc.y), color=st["color"], linestyle=st["linestyle"], zorder=3)
            hull = lr.summary.hull
            if hull is not None:
                hulls = True
                ax.plot(hull.fpr, hull.tpr, color=st["color"], linestyle=(0, (3, 2)), linewidth=0.8,
                        alpha=0.8, zorder=2)
            if at.fpr is not None and at.recall is not None:  # the deployed threshold's point
                ax.plot([at.fpr], [at.recall], **_deployed(st["color"]))
            op = lr.operating
            if op is not None and (best is None or op.min_cost < best[1].min_cost):
                best = (key, op)
        if hulls:
            handles.append(_proxy("convex hulls (dashed)", linestyle=(0, (3, 2)), linewidth=0.8))
        handles.append(_deployed_proxy())
        if max_fpr is not None:
            from matplotlib.patches import Patch

            ax.axvspan(0, max_fpr, color="#8a8a8a", alpha=0.14, linewidth=0, zorder=0)
            handles.append(Patch(color="#8a8a8a", alpha=0.3, linewidth=0,
                                 label=f"partial-AUC region (FPR \u2264 {max_fpr:g})"))
        pc = result.operating_point.pc_positive
        if best is not None and 0 < pc < 1:
            key, op = best
            # iso-cost line: every ROC point of the same expected cost at PC(+)
            slope = (1 - pc) / pc
            xs = np.array([0.0, 1.0])
            ys = op.tpr + slope * (xs - op.fpr)
            ax.plot(xs, ys, color="#444444", linewidth=0.9, linestyle=(0, (1, 1.5)), zorder=4)
            least = dict(marker="o", markersize=6, markerfacecolor="white", markeredgecolor=styles[key]["color"],
                         markeredgewidth=1.6, linestyle="none", zorder=7, clip_on=False)
            ax.plot([op.fpr], [op.tpr], **least)
            handles.append(_proxy(f"iso-cost line at PC(+) = {pc:.3g}", linewidth=0.9, linestyle=(0, (1, 1.5))))
            handles.append(_proxy(_label(f"least cost: {key}"), **least))
        _unit_axes(ax, "False positive rate (FPR)", "True positive rate (TPR = recall)")
        ax.set_title("ROC curves")
        if zoom is not None:
            _roc_log_panel(zoom, result, styles, curves, max_fpr, best)
        _legend_below(fig, [ax], handles, [h.get_label() for h in handles],
                      width=FULL_WIDTH if crowded else HALF_WIDTH)
        return _svg(fig, "roc", roc_alt(result, crowded))


def _roc_log_panel(ax, result, styles, curves, max_fpr, best) -> None:
    """The ROC curves with FPR on a log scale, from about the smallest FPR any
    curve reaches, and TPR fitted to where the curves are."""
    positive = [float(c.x[c.x > 0].min()) for c in curves.values() if np.any(c.x > 0)]
    left = max(min(positive) / 2 if positive else 1e-3, 1e-5)
    low = 1.0
    for key, roc in curves.items():
        x, y = _log_path(roc.x, roc.y, left)
        ax.plot(x, y, color=styles[key]["color"], linestyle=styles[key]["linestyle"], zorder=3)
        low = min(low, float(np.max(y[x <= left], initial=y[0])))
    for key, lr in result.learners.items():
        at = lr.at_threshold
        if at.fpr is not None and at.recall is not None:
            ax.plot([max(at.fpr, left)], [at.recall], **_deployed(styles[key]["color"]))
            low = min(low, at.recall) if at.fpr >= left else low
    if best is not None:
        key, op = best
        ax.plot([max(op.fpr, left)], [op.tpr], marker="o", markersize=6, markerfacecolor="white",
                markeredgecolor=styles[key]["color"], markeredgewidth=1.6, linestyle="none", zorder=7,
                clip_on=False)
    if max_fpr is not None and max_fpr > left:
        ax.axvspan(left, max_fpr, color="#8a8a8a", alpha=0.14, linewidth=0, zorder=0)
    pad = max(0.04 * (1 - low), 0.004)
    from matplotlib.ticker import FuncFormatter, NullFormatter

    ax.set_xscale("log")
    ax.set_xlim(left, 1.0)
    # plain numbers: mathtext is off (names are text), so no '$10^{-2}$'
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_ylim(max(low - pad, 0.0), 1.0 + pad / 2)
    ax.set_xlabel("False positive rate (log scale; 0 at the left edge)")
    ax.set_ylabel("True positive rate")
    ax.set_title("The top-left corner, FPR on a log scale")


def _pr_path(block, positives: float):
    """P-R points joined by straight lines in (FP, TP) count space, drawn in (R, P)."""
    tp, fp = block.tp, block.fp
    if tp is None or tp.size > 400:  # dense enough: the segments are short
        return _thin(block.x, block.y)
    steps = np.linspace(0.0, 1.0, 17)[:-1]
    t0, t1, f0, f1 = tp[:-1, None], tp[1:, None], fp[:-1, None], fp[1:, None]
    tpi = (t0 + (t1 - t0) * steps).ravel()
    fpi = (f0 + (f1 - f0) * steps).ravel()
    tpi = np.append(tpi, tp[-1])
    fpi = np.append(fpi, fp[-1])
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = np.where(tpi + fpi > 0, tpi / (tpi + fpi), 0.0)
    return tpi / positives, precision


def pr_figure(result, styles) -> str:
    with _rc():
        fig = _figure((HALF_WIDTH, 3.7), layout="constrained")
        ax = fig.subplots()
        r = np.linspace(0.001, 1, 400)
        for f in (0.2, 0.4, 0.6, 0.8):
            rr = r[2 * r > f]
            ax.plot(rr, f * rr / (2 * rr - f), color="#c8c8c8", linewidth=0.5, zorder=0)
            ax.annotate(f"F1={f:.1f}", (1.0, f / (2 - f)), fontsize=MIN_TEXT, color="#888888",
                        xytext=(2, 0), textcoords="offset points", va="center")
        ax.plot([0, 1], [0, 1], color="#999999", linewidth=0.8, linestyle=":")
        handles, beps = [], False
        for key, lr in result.learners.items():
            pr, st, at = lr.curves.pr, styles[key], lr.at_threshold
            ap, bep = lr.summary.average_precision, lr.summary.bep
            parts = [f"AP {ap:.3f}" if ap is not None else "", f"BEP {bep:.3f}" if bep is not None else ""]
            parts = ", ".join(p for p in parts if p)
            handles.append(_learner_handle(key, st, f"{key} ({parts})" if parts else key, lr.hard or pr is None))
            if pr is not None:
                ax.plot(*_pr_path(pr, lr.summary.positives), color=st["color"], linestyle=st["linestyle"],
                        zorder=3)
            if at.recall is not None and at.precision is not None:
                ax.plot([at.recall], [at.precision], **_deployed(st["color"]))
            if bep is not None:
                beps = True
                ax.plot([bep], [bep], marker="D", markersize=5.5, color=st["color"], linestyle="none", zorder=5,
                        markeredgecolor="white", markeredgewidth=0.6, clip_on=False)
        if beps:
            handles.append(_proxy("break-even points (diamonds)", marker="D", markersize=5.5, linestyle="none",
                                  markeredgecolor="white"))
        handles.append(_deployed_proxy())
        _unit_axes(ax, "Recall (TPR)", "Precision")
        ax.set_title("P-R curves (grey: iso-F1)")
        _legend_below(fig, [ax], handles, [h.get_label() for h in handles])
        return _svg(fig, "pr", pr_alt(result))


def cost_limits(result) -> tuple[float, float]:
    """The cost figure's y range: from 0 to a little above the highest of the
    learners' lower envelopes (cost curves) and the deployed thresholds' costs at
    the operating point, not the whole range of the cost lines under them."""
    pc = result.operating_point.pc_positive
    top = 0.0
    for lr in result.learners.values():
        curve = lr.summary.cost_curve
        if curve is not None and curve.cost.size:
            top = max(top, float(np.nanmax(curve.cost)))
        at = lr.at_threshold
        if at.fpr is not None and at.recall is not None:
            top = max(top, at.fpr + (1 - at.recall - at.fpr) * pc)
    return 0.0, (top * 1.12 if top > 0 else 0.5)


def cost_figure(result, styles) -> str:
    with _rc():
        fig = _figure((HALF_WIDTH, 3.7), layout="constrained")
        ax = fig.subplots()
        pc_star = result.operating_point.pc_positive
        envelope = [iv for c in result.comparisons for iv in c.cost_envelope]
        for key, lr in result.learners.items():
            hull = lr.summary.hull
            if hull is not None and len(hull.fpr) <= 12:
                # the cost lines of the hull's vertices, faintly: the ones the envelope is made of
                for fpr, tpr in zip(hull.fpr, hull.tpr):
                    ax.plot([0, 1], [fpr, 1 - tpr], color=styles[key]["color"], linewidth=0.45,
                            alpha=0.12, zorder=1)
        for iv in envelope:
            curve = result.learners[iv.learner].summary.cost_curve
            xs = np.concatenate(([iv.pc_from], curve.pc[(curve.pc > iv.pc_from) & (curve.pc < iv.pc_to)],
                                 [iv.pc_to]))
            ax.fill_between(xs, 0, np.interp(xs, curve.pc, curve.cost),
                            color=styles[iv.learner]["color"], alpha=0.13, linewidth=0, zorder=0)
        handles = []
        for key, lr in result.learners.items():
            curve, st, at = lr.summary.cost_curve, styles[key], lr.at_threshold
            cost = lr.summary.expected_total_cost
            handles.append(_learner_handle(key, st, f"{key} (expected total cost {cost:.3f})"
                                           if curve is not None and cost is not None else key,
                                           lr.hard or curve is None))
            if curve is not None:
                ax.plot(curve.pc, curve.cost, color=st["color"], linestyle=st["linestyle"], zorder=3)
            if at.fpr is not None and at.recall is not None:
                # the deployed threshold's cost line, FPR at PC(+) = 0 to FNR at 1, and its cost at PC(+)
                ax.plot([0, 1], [at.fpr, 1 - at.recall], color=st["color"], linewidth=0.9,
                        linestyle=(0, (1, 1.2)), alpha=0.9, zorder=2)
                ax.plot([pc_star], [at.fpr + (1 - at.recall - at.fpr) * pc_star], **_deployed(st["color"]))
        handles.append(_proxy("deployed thresholds' cost lines (dotted)", linewidth=0.9, linestyle=(0, (1, 1.2))))
        handles.append(_deployed_proxy())
        ax.axvline(pc_star, color="#444444", linewidth=0.9, linestyle=(0, (4, 2)), zorder=2)
        right = pc_star < 0.45  # the label (about 1.7 in) fits right of the line on a half-width figure
        # at the top of the axes, on a white ground: no curve runs through the label
        ax.annotate(f"operating point PC(+) = {pc_star:.3g}", (pc_star, 1.0), xytext=(4 if right else -4, -2),
                    textcoords="offset points", fontsize=7.5, va="top", ha="left" if right else "right",
                    color="#333333", xycoords=("data", "axes fraction"), zorder=10,
                    bbox=dict(boxstyle="square,pad=0.2", facecolor="white", edgecolor="none", alpha=0.9))
        ax.set_xlim(0, 1)
        ax.set_ylim(*cost_limits(result))
        ax.set_xlabel("Probability cost PC(+)")
        ax.set_ylabel("Normalised expected cost")
        ax.set_title("Cost curves (shaded: the least cost at each PC(+))")
        _legend_below(fig, [ax], handles, [h.get_label() for h in handles])
        return _svg(fig, "cost", cost_alt(result))


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
    with _rc():
        fig = _figure((FULL_WIDTH, 0.26 * len(rows) * max(1, len(keys) / 4) + 0.9), layout="constrained")
        ax = fig.subplots()
        step = 0.7 / max(1, len(keys))
        for i, (label, values) in enumerate(rows):
            for j, key in enumerate(keys):
                value, interval = values.get(key, (None, None))
                if value is None:
                    continue
                y = i + (j - (len(keys) - 1) / 2) * step
                color = styles[key]["color"]
                if interval is not None:
                    ax.plot(interval, [y, y], color=color, linewidth=1.2)
                ax.plot([value], [y], marker="o", markersize=5, color=color, linestyle="none", clip_on=False)
        ax.set_yticks(range(len(rows)))
        ax.set_yticklabels([label for label, _ in rows])
        ax.set_ylim(len(rows) - 0.5, -0.5)
        ax.set_xlim(*scalar_limits(rows))
        ax.grid(axis="y", visible=False)
        ax.set_xlabel("value (higher is better; lines: confidence intervals where computed)")
        # every learner, those with hard decisions too (no AUC: not on the first row)
        handles = [_proxy(_label(k), color=styles[k]["color"], marker="o", markersize=5, linestyle="none")
                   for k in keys]
        fig.legend(handles, [h.get_label() for h in handles], loc="outside upper center",
                   ncol=min(len(keys), 6), frameon=False, handletextpad=0.2, columnspacing=1.2)
        return _svg(fig, "scalars", scalars_alt(rows))


def gains_figure(result, styles) -> str:
    """Cumulative gains (left: the share of the positives captured against the share
    flagged, the diagonal a random ranking) and lift by decile (right), per learner."""
    with _rc():
        fig = _figure((FULL_WIDTH, 2.5), layout="constrained")
        (left, right) = fig.subplots(1, 2)
        left.plot([0, 1], [0, 1], color="#999999", linewidth=0.8, linestyle=":", label="random")
        right.axhline(1.0, color="#999999", linewidth=0.8, linestyle=":")
        for key, lr in result.learners.items():
            table = lr.operating_table
            if table is None:
                continue
            st = styles[key]
            line = dict(color=st["color"], linestyle=st["linestyle"], marker="o", markersize=3.2)
            points = [(0.0, 0.0)] + [(g.flagged, g.captured) for g in table.gains if g.captured is not None]
            if len(points) > 1:
                left.plot(*zip(*points), label=_label(key), **line)
            lifts = [(g.flagged, g.lift) for g in table.gains if g.lift is not None]
            if lifts:
                right.plot(*zip(*lifts), **line)
        _unit_axes(left, "Share flagged (top by score)", "Share of positives captured")
        left.set_title("Cumulative gains")
        right.set_xlim(0, 1.02)
        right.set_ylim(bottom=0)
        right.set_xlabel("Share flagged (top by score)")
        right.set_ylabel("Lift (captured / flagged)")
        right.set_title("Cumulative lift by decile")
        _legend_below(fig, [left], width=FULL_WIDTH)
        return _svg(fig, "gains", gains_alt(result))


def figures(result, scalar_rows) -> dict[str, str]:
    """Every figure of the report, as inline SVG text: each key is there, ""
    when nothing is drawn (no learner has the curve: a class is absent, or
    hard decisions only), since the templates ask for every key."""
    styles = learner_styles(result.learners)
    learners = result.learners.values()
    return {
        # the ROC figure takes the page's width when it adds its log-FPR panel
        "roc_wide": "wide" if roc_crowded([lr.curves.roc for lr in learners if lr.curves.roc is not None]) else "",
        "roc": roc_figure(result, styles) if any(lr.curves.roc is not None for lr in learners) else "",
        "pr": pr_figure(result, styles) if any(lr.curves.pr is not None for lr in learners) else "",
        "cost": cost_figure(result, styles) if any(lr.summary.cost_curve is not None for lr in learners)
        else "",
        "scalars": scalars_figure(result, styles, scalar_rows) if scalar_rows else "",
    }


def reliability_figure(name: str, bins, color: str, fig_id: str, *, top_label: bool = False) -> str:
    """A learner's reliability diagram: the observed frequency of each bin against
    its mean score, with Wilson's interval, beside the diagonal of perfect
    calibration; underneath, each bin's weight as a histogram over its range."""
    shown = [b for b in bins if b.n > 0]
    with _rc():
        # four across the page (QUARTER_WIDTH) with fixed margins (the labels are
        # known): a layout engine measures every text again, a third of the drawing
        fig = _figure((QUARTER_WIDTH, 2.35))
        fig.subplots_adjust(left=0.3, right=0.95, top=0.9, bottom=0.17, hspace=0.12)
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
                    markersize=4, linewidth=1.2, elinewidth=0.8, capsize=2, label=_label(name))
        ax.set_xlim(-0.01, 1.01)
        ax.set_ylim(-0.01, 1.01)
        ax.set_ylabel("share right" if top_label else "share positive")
        ax.set_title(_label(name) + (" (top label)" if top_label else ""))
        ax.set_yticks([0, 0.5, 1])
        hist.set_xticks([0, 0.5, 1])
        hist.bar([b.lo for b in bins], [b.n for b in bins], width=[b.hi - b.lo for b in bins], align="edge",
                 color=color, alpha=0.45, edgecolor="white", linewidth=0.5)
        hist.set_xlabel("top score (confidence)" if top_label else "score")
        hist.set_ylabel("weight" if any(not float(b.n).is_integer() for b in bins) else "instances")
        hist.grid(axis="x", visible=False)
        return _svg(fig, fig_id, reliability_alt(name, bins, top_label))
