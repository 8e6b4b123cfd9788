"""Result -> figures as inline SVG text (matplotlib). Plots take results and
never compute a measure: every number drawn was computed by the engine.

Deterministic: a fixed hash salt per figure, no dates in the SVG, ids
prefixed per figure so several figures can live in one HTML page. Sizes do
not grow with the number of rows: curves arrive already bounded
(``report.curve_points``) and are drawn as they are.
"""

from __future__ import annotations

import html
import io
import re

import numpy as np

from .words import and_join

__all__ = ["PALETTE", "learner_styles", "figures", "gains_figure"]

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
FULL_WIDTH, HALF_WIDTH = 7.0, 3.45
MIN_TEXT = 7.0

_RC = {
    "svg.fonttype": "none",  # text stays text: small, selectable, fast to lay out in the PDF
    "font.family": "DejaVu Sans",
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


def _label(text: str) -> str:
    """A legend label drawn as given. matplotlib leaves out of legends the
    labels that start with '_' (its mark for "no label"), so a learner named
    '_hidden' gets a zero-width space in front."""
    return "\u200b" + text if text.startswith("_") else text


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


def _svg(fig, name: str, alt: str) -> str:
    """The figure as SVG text; ``alt`` (what it shows, in a sentence) is its
    accessible name, read out where the picture cannot be seen."""
    import matplotlib

    buf = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": f"evalreport-{name}"}):
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    text = buf.getvalue()
    text = text[text.index("<svg"):]
    # matplotlib's comments repeat each label (escaped); they only add bytes
    text = re.sub(r"<!--.*?-->\s*", "", text, flags=re.S)
    # ids unique per figure: several SVGs share one HTML page
    text = re.sub(r'id="([^"]+)"', rf'id="{name}-\1"', text)
    text = re.sub(r'(xlink:href|href)="#([^"]+)"', rf'\1="#{name}-\2"', text)
    text = re.sub(r"url\(#([^)]+)\)", rf"url(#{name}-\1)", text)
    text = re.sub(r'<svg([^>]*?) width="[^"]*" height="[^"]*"', r'<svg\1', text, count=1)
    label = html.escape(alt, quote=True)
    return text.replace("<svg", f'<svg role="img" data-figure="{name}" aria-label="{label}"', 1)


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


def _partial_auc(result) -> float | None:
    """The spec's partial-AUC limit on FPR, if any (the region shaded on ROC figures)."""
    pa = getattr(result.spec, "partial_auc", None)
    return float(pa.max_fpr) if pa is not None else None


#: the curves crowd the top-left corner when every one reaches this TPR by this FPR
CROWDED_FPR, CROWDED_TPR = 0.1, 0.8


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
        fig = _figure((HALF_WIDTH, 6.9 if crowded else 4.6), layout="constrained")
        if crowded:
            ax, zoom = fig.subplots(2, 1, gridspec_kw={"height_ratios": [1, 0.8]})
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
        _legend_below(fig, [ax], handles, [h.get_label() for h in handles])
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
        fig = _figure((HALF_WIDTH, 4.6), layout="constrained")
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
        fig = _figure((FULL_WIDTH, 4.1), layout="constrained")
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
        right = pc_star < 0.75
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
        _legend_below(fig, [ax], handles, [h.get_label() for h in handles], width=FULL_WIDTH)
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
        fig = _figure((FULL_WIDTH, 0.34 * len(rows) * max(1, len(keys) / 3) + 1.0), layout="constrained")
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
        fig = _figure((FULL_WIDTH, 3.6), layout="constrained")
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
        "roc": roc_figure(result, styles) if any(lr.curves.roc is not None for lr in learners) else "",
        "pr": pr_figure(result, styles) if any(lr.curves.pr is not None for lr in learners) else "",
        "cost": cost_figure(result, styles) if any(lr.summary.cost_curve is not None for lr in learners)
        else "",
        "scalars": scalars_figure(result, styles, scalar_rows) if scalar_rows else "",
    }


def _cell_text_size(k: int, panel_width: float, chars: int) -> float:
    """The largest size (at most 8.5 pt) at which ``chars`` characters fit a cell
    of a k x k heatmap ``panel_width`` inches across (a digit is about 0.6 em)."""
    cell = panel_width * 72 / k
    return min(8.5, 0.85 * cell / (0.62 * max(chars, 1)))


def confusion_figure(name: str, classes: list[str], confusion: np.ndarray, fig_id: str) -> str:
    """k x k heatmap: counts (left) and row-normalised shares (right), drawn at
    print width; the two side by side while their cell text fits at 7 pt or more,
    else one above the other; the shares as whole percentages past 6 classes."""
    k = len(classes)
    rows = confusion.sum(axis=1, keepdims=True)
    shares = np.divide(confusion, rows, out=np.zeros_like(confusion, dtype=float), where=rows > 0)
    counts = [[f"{v:,.0f}" for v in row] for row in confusion]
    percent = k > 6
    share_text = [[f"{100 * v:.0f}" if percent else f"{v:.2f}" for v in row] for row in shares]
    chars = max(len(t) for row in counts + share_text for t in row) if k else 1
    label_room = min(1.6, 0.4 + 0.065 * max((len(c) for c in classes), default=1))
    side = (FULL_WIDTH - 2 * label_room - 0.3) / 2
    stacked = _cell_text_size(k, side, chars) < MIN_TEXT
    panel = min(FULL_WIDTH - label_room - 0.2, 0.5 * k + 0.6) if stacked else side
    size = max(MIN_TEXT, _cell_text_size(k, panel, chars))
    with _rc({"axes.grid": False}):
        height = (2 * (panel + 1.0) if stacked else min(panel + 1.3, 4.8)) + 0.2
        fig = _figure((FULL_WIDTH, height), layout="constrained")
        axes = fig.subplots(2, 1) if stacked else fig.subplots(1, 2)
        share_title = "% of each true class" if percent else "share of each true class"
        for ax, texts, title in ((axes[0], counts, "counts"), (axes[1], share_text, share_title)):
            ax.imshow(shares, cmap="Blues", vmin=0, vmax=1)
            for i in range(k):
                for j in range(k):
                    ax.text(j, i, texts[i][j], ha="center", va="center", fontsize=size,
                            color="white" if shares[i, j] > 0.6 else "#1d1d1f")
            ax.set_xticks(range(k))
            ax.set_xticklabels(classes, rotation=45 if k > 4 else 0, ha="right" if k > 4 else "center")
            ax.set_yticks(range(k))
            ax.set_yticklabels(classes)
            ax.set_xlabel("predicted")
            ax.set_ylabel("true")
            ax.set_title(_label(f"{name}: {title}"))
        return _svg(fig, fig_id, confusion_alt(name, classes, confusion))


#: past this many classes, one-vs-rest ROC curves are drawn one small panel per class
SMALL_MULTIPLES = 4


def class_roc_figure(name: str, curves: dict, aucs: dict, fig_id: str, color: str | None = None) -> str:
    """One-vs-rest ROC curves of one learner: one colour per class in one panel
    up to four classes; past that, one small panel per class in the learner's
    colour (ten colours, or colours with dashes, cannot be told apart)."""
    drawn = {c: v.roc for c, v in curves.items() if v.roc is not None}
    if len(curves) > SMALL_MULTIPLES:
        return _class_roc_grid(name, curves, aucs, fig_id, color or PALETTE[0])
    with _rc():
        fig = _figure((HALF_WIDTH, 4.3), layout="constrained")
        ax = fig.subplots()
        ax.plot([0, 1], [0, 1], color="#999999", linewidth=0.8, linestyle=":")
        for i, (cname, roc) in enumerate(drawn.items()):
            i = list(curves).index(cname)
            auc = aucs.get(cname)
            label = _label(f"{cname} (AUC {auc:.3f})" if auc is not None else cname)
            ax.plot(*_thin(roc.x, roc.y), color=PALETTE[i % len(PALETTE)], label=label)
        _unit_axes(ax, "False positive rate (one vs rest)", "True positive rate")
        ax.set_title(_label(f"{name}: one-vs-rest ROC curves"))
        _legend_below(fig, [ax])
        return _svg(fig, fig_id, class_roc_alt(name, aucs))


def _class_roc_grid(name: str, curves: dict, aucs: dict, fig_id: str, color: str) -> str:
    k = len(curves)
    ncols = 3 if k <= 9 else 4
    nrows = -(-k // ncols)
    with _rc({"axes.titlesize": 7.5, "xtick.labelsize": 7, "ytick.labelsize": 7}):
        fig = _figure((HALF_WIDTH, 0.2 + nrows * HALF_WIDTH / ncols * 1.08 + 0.35), layout="constrained")
        axes = np.atleast_1d(fig.subplots(nrows, ncols, sharex=True, sharey=True)).ravel()
        for ax, (cname, c) in zip(axes, curves.items()):
            ax.plot([0, 1], [0, 1], color="#999999", linewidth=0.6, linestyle=":")
            if c.roc is not None:
                ax.plot(*_thin(c.roc.x, c.roc.y), color=color, linewidth=1.1)
            auc = aucs.get(cname)
            ax.set_title(_label(f"{cname}" + (f" {auc:.2f}" if auc is not None else "")), pad=2)
            ax.set_xlim(0, 1)
            ax.set_ylim(0, 1.02)
            ax.set_aspect("equal")
            ax.set_xticks([0, 1])
            ax.set_yticks([0, 1])
        for ax in axes[k:]:
            ax.set_visible(False)
        fig.supxlabel("FPR (one vs rest)", fontsize=7.5)
        fig.supylabel("TPR", fontsize=7.5)
        fig.suptitle(_label(f"{name}: one-vs-rest ROC per class (AUC in titles)"), fontsize=8)
        return _svg(fig, fig_id, class_roc_alt(name, aucs))


def reliability_figure(name: str, bins, color: str, fig_id: str, *, top_label: bool = False) -> str:
    """A learner's reliability diagram: the observed frequency of each bin against
    its mean score, with Wilson's interval, beside the diagonal of perfect
    calibration; underneath, each bin's weight as a histogram over its range."""
    shown = [b for b in bins if b.n > 0]
    with _rc():
        fig = _figure((HALF_WIDTH, 4.4))
        # fixed margins (the labels are known): a layout engine measures every
        # text of the figure again, a third of its drawing time
        fig.subplots_adjust(left=0.17, right=0.96, top=0.94, bottom=0.1, hspace=0.08)
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
        ax.set_ylabel("share right" if top_label else "observed frequency of +")
        ax.set_title(f"{name}: reliability" + (" (top label)" if top_label else ""))
        hist.bar([b.lo for b in bins], [b.n for b in bins], width=[b.hi - b.lo for b in bins], align="edge",
                 color=color, alpha=0.45, edgecolor="white", linewidth=0.5)
        hist.set_xlabel("top score (confidence)" if top_label else "score")
        hist.set_ylabel("weight" if any(not float(b.n).is_integer() for b in bins) else "instances")
        hist.grid(axis="x", visible=False)
        return _svg(fig, fig_id, reliability_alt(name, bins, top_label))


def class_scores_figure(classes: list[str], values: dict[str, dict[str, float | None]], styles,
                        measure: str) -> str:
    """Dot chart of one per-class measure (e.g. F1), one colour per learner; the
    x axis fitted to the values (as the headline chart's), every learner in the legend."""
    keys = list(values)
    with _rc():
        fig = _figure((FULL_WIDTH, 0.3 * len(classes) * max(1, len(keys) / 2) + 1.0), layout="constrained")
        ax = fig.subplots()
        step = 0.7 / max(1, len(keys))
        for j, key in enumerate(keys):
            for i, cname in enumerate(classes):
                v = values[key].get(cname)
                if v is None:
                    continue
                ax.plot([v], [i + (j - (len(keys) - 1) / 2) * step], marker="o", markersize=5,
                        color=styles[key]["color"], linestyle="none", clip_on=False)
        ax.set_yticks(range(len(classes)))
        ax.set_yticklabels(classes)
        ax.set_ylim(len(classes) - 0.5, -0.5)
        ax.set_xlim(*scalar_limits([(c, {k: (values[k].get(c), None) for k in keys}) for c in classes]))
        ax.grid(axis="y", visible=False)
        ax.set_xlabel(f"{measure} per class (one vs rest)")
        handles = [_proxy(_label(k), color=styles[k]["color"], marker="o", markersize=5, linestyle="none")
                   for k in keys]
        fig.legend(handles, [h.get_label() for h in handles], loc="outside upper center",
                   ncol=min(len(keys), 6), frameon=False, handletextpad=0.2, columnspacing=1.2)
        return _svg(fig, "class-scores", class_scores_alt(classes, values, measure))


def critical_difference_figure(learners, average_ranks, cd: float, significant_pairs) -> str:
    """Demšar's critical-difference diagram: average ranks on an axis (1 = best),
    learners joined by a bar when their ranks differ by less than the CD."""
    k = len(learners)
    ranks = np.asarray(average_ranks, dtype=float)
    order = np.argsort(ranks)
    with _rc({"axes.grid": False, "axes.spines.left": False}):
        fig = _figure((7.0, 1.2 + 0.28 * k))
        ax = fig.subplots()
        ax.set_xlim(k + 0.3, 0.7)  # rank 1 on the right, as in Demšar's diagrams
        ax.set_ylim(-k - 1, 1.6)
        ax.set_yticks([])
        ax.xaxis.set_ticks_position("top")
        ax.set_xticks(range(1, k + 1))
        ax.spines["bottom"].set_visible(False)
        ax.plot([1, 1 + cd], [1.1, 1.1], color="#1d1d1f", linewidth=2)
        ax.text(1 + cd / 2, 1.25, f"CD = {cd:.2f}", ha="center", fontsize=8)
        for row, i in enumerate(order):
            y = -row - 0.5
            ax.plot([ranks[i], ranks[i]], [0, y], color="#555555", linewidth=0.8)
            ax.plot([ranks[i]], [0], marker="o", markersize=4, color="#1d1d1f")
            ax.text(ranks[i] - 0.05 if ranks[i] < (k + 1) / 2 else ranks[i] + 0.05, y,
                    f"{learners[i]} ({ranks[i]:.2f})", va="center", fontsize=8,
                    ha="right" if ranks[i] < (k + 1) / 2 else "left")
        # groups of learners that are not significantly different
        sig = {tuple(sorted(p)) for p in significant_pairs}
        level = -0.25
        for a in range(k):
            members = [order[b] for b in range(a, k)
                       if all(tuple(sorted((order[a], order[c]))) not in sig for c in range(a, b + 1))]
            if len(members) > 1:
                lo, hi = ranks[members].min(), ranks[members].max()
                ax.plot([lo - 0.03, hi + 0.03], [level, level], color="#D55E00", linewidth=3, alpha=0.8)
                level -= 0.22
        fig.tight_layout()
        return _svg(fig, "cd", cd_alt(learners, average_ranks, cd, significant_pairs))


# ---------------------------------------------------------------------------
# Alt text: what each figure shows, in a sentence (its accessible name)


def _num(v) -> str:
    return "undefined" if v is None else f"{v:.3g}"


def _envelopment(result) -> list[str]:
    """Which ROC curves envelop which, and which cross, per data set."""
    out = []
    for comp in result.comparisons:
        envelops: dict[str, list[str]] = {}
        crosses = []
        for pair in comp.pairs:
            v = pair.envelopment.verdict
            if v == "a_envelops_b":
                envelops.setdefault(pair.a, []).append(pair.b)
            elif v == "b_envelops_a":
                envelops.setdefault(pair.b, []).append(pair.a)
            elif v == "cross":
                crosses.append(f"{pair.a}'s and {pair.b}'s")
        where = f"on {comp.dataset}, " if comp.dataset and len(result.comparisons) > 1 else ""
        for a, bs in envelops.items():
            out.append(f"{where}{a}'s envelops {and_join([b + chr(39) + 's' for b in bs])}")
        if crosses:
            more = f" (and {len(crosses) - 3} more pairs)" if len(crosses) > 3 else ""
            out.append(f"{where}{and_join(crosses[:3])} cross{more}")
    return out


def _learners_with(result, value, name: str) -> str:
    parts = []
    for key, lr in result.learners.items():
        v = value(lr)
        parts.append(f"{key} ({name} {_num(v)})" if v is not None else f"{key} (hard decisions: one point)")
    return and_join(parts)


def roc_alt(result, log_panel: bool = False) -> str:
    """ROC curves of A (AUC ..) and B; A's envelops B's. What is marked and shaded."""
    text = f"ROC curves of {_learners_with(result, lambda lr: lr.summary.auc if lr.curves.roc else None, 'AUC')}"
    env = _envelopment(result)
    if env:
        text += "; " + "; ".join(env)
    text += ". Squares mark the deployed thresholds"
    max_fpr = _partial_auc(result)
    if max_fpr is not None:
        text += f"; shaded: the partial-AUC region, FPR up to {max_fpr:g}"
    if log_panel:
        text += "; below, the same curves with FPR on a log scale"
    return text + "."


def pr_alt(result) -> str:
    text = ("P-R curves of "
            + _learners_with(result, lambda lr: lr.summary.average_precision if lr.curves.pr else None, "AP"))
    env = _envelopment(result)
    if env:
        text += "; as their ROC curves, " + "; ".join(env)
    return text + ". Diamonds mark the break-even points, squares the deployed thresholds."


def cost_alt(result) -> str:
    pc = result.operating_point.pc_positive
    text = ("Cost curves (normalised expected cost against PC(+)) of "
            + and_join([_label(k) for k, lr in result.learners.items() if lr.summary.cost_curve is not None]))
    spans = []
    for comp in result.comparisons:
        runs: list[list] = []  # adjacent intervals of one learner (at other thresholds) as one
        for iv in comp.cost_envelope:
            if runs and runs[-1][0] == iv.learner and runs[-1][2] == iv.pc_from:
                runs[-1][2] = iv.pc_to
            else:
                runs.append([iv.learner, iv.pc_from, iv.pc_to])
        spans += [f"{who} from {a:.2g} to {b:.2g}" for who, a, b in runs]
    if spans and len(spans) <= 6:
        text += "; least cost: " + ", ".join(spans)
    winners = [c.winner for c in result.comparisons if c.winner]
    text += f". At the operating point, PC(+) = {pc:.3g}"
    text += f", {and_join(winners)} {'has' if len(winners) == 1 else 'have'} the least cost" if winners else ""
    return text + "; squares mark what the deployed thresholds cost there."


def scalars_alt(rows) -> str:
    """Headline measures: for each, its range across learners and who is highest."""
    parts = []
    for label, values in rows:
        known = {k: v for k, (v, _) in values.items() if v is not None}
        if not known:
            continue
        best = max(known, key=known.get)
        lo, hi = min(known.values()), max(known.values())
        if len(known) == 1 or lo == hi:
            parts.append(f"{label} {_num(hi)}" + (f" ({best})" if len(known) == 1 else " (all)"))
        else:
            parts.append(f"{label} {_num(lo)} to {_num(hi)} (highest: {best})")
    return "Headline measures with their confidence intervals: " + "; ".join(parts) + "."


def gains_alt(result) -> str:
    keys = [k for k, lr in result.learners.items() if lr.operating_table is not None]
    return (f"Cumulative gains and lift by decile of {and_join(keys)}: the share of the positives captured "
            "and the lift against the share flagged, top scores first.")


def confusion_alt(name: str, classes, confusion: np.ndarray) -> str:
    rows = confusion.sum(axis=1)
    right = float(np.trace(confusion))
    total = float(rows.sum())
    off = confusion.astype(float).copy()
    np.fill_diagonal(off, -1)
    text = f"Confusion matrix of {name} over {len(classes)} classes: {right / total:.1%} on the diagonal" \
        if total else f"Confusion matrix of {name} over {len(classes)} classes, empty"
    if total and off.max() > 0:
        i, j = np.unravel_index(int(np.argmax(off)), off.shape)
        text += f"; the most frequent confusion: {classes[i]} predicted as {classes[j]} ({off[i, j]:,.0f})"
    return text + "."


def class_roc_alt(name: str, aucs: dict) -> str:
    known = {c: a for c, a in aucs.items() if a is not None}
    text = f"One-vs-rest ROC curves of {name} for {len(aucs)} classes"
    if known:
        lo, hi = min(known, key=known.get), max(known, key=known.get)
        text += f"; AUC from {known[lo]:.3g} ({lo}) to {known[hi]:.3g} ({hi})"
    return text + "."


def reliability_alt(name: str, bins, top_label: bool) -> str:
    shown = [b for b in bins if b.n > 0]
    gap = max((abs(b.observed - b.mean_score) for b in shown), default=None)
    text = f"Reliability diagram of {name}{' (top label)' if top_label else ''}: {len(shown)} bins"
    if gap is not None:
        text += f"; the largest gap between observed frequency and mean score is {gap:.2f}"
    return text + "."


def class_scores_alt(classes, values: dict, measure: str) -> str:
    parts = []
    for key, per in values.items():
        known = {c: v for c, v in per.items() if v is not None}
        if known:
            worst = min(known, key=known.get)
            parts.append(f"{key}'s lowest is {worst} ({known[worst]:.3g})")
    return f"{measure} of each of {len(classes)} classes per learner" + (": " + "; ".join(parts) if parts else "") + "."


def cd_alt(learners, average_ranks, cd: float, significant_pairs) -> str:
    order = sorted(range(len(learners)), key=lambda i: average_ranks[i])
    ranks = ", ".join(f"{learners[i]} {average_ranks[i]:.2f}" for i in order)
    sig = [f"{learners[a]} and {learners[b]}" for a, b in significant_pairs]
    text = f"Critical-difference diagram: average ranks {ranks} (1 = best); critical difference {cd:.2f}"
    text += "; significantly different: " + "; ".join(sig) if sig else "; no pair differs significantly"
    return text + "."
