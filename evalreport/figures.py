"""Result -> figures as inline SVG text (matplotlib). Plots take results and
never compute a measure: every number drawn was computed by the engine.

Deterministic: a fixed hash salt per figure, no dates in the SVG, ids
prefixed per figure so several figures can live in one HTML page. Sizes do
not grow with the number of rows: curves arrive already bounded
(``report.curve_points``) and are drawn as they are.
"""

from __future__ import annotations

import io
import re

import numpy as np

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
    figure manager, no GUI backend chosen, and pyplot's import (about a third
    of matplotlib's) is never paid."""
    from matplotlib.backends.backend_svg import FigureCanvasSVG
    from matplotlib.figure import Figure

    fig = Figure(figsize=figsize, **kwargs)
    FigureCanvasSVG(fig)
    return fig


_RC = {
    "svg.fonttype": "none",  # text stays text: small, selectable, fast to lay out in the PDF
    "font.family": "DejaVu Sans",
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.labelsize": 9,
    "legend.fontsize": 8,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.color": "#dddddd",
    "grid.linewidth": 0.6,
    "lines.linewidth": 1.6,
    "path.simplify": False,  # the engine already bounded the points
    # learner and class names are text: '$' is not mathtext ('$\\frac{$' would not parse)
    "text.parse_math": False,
}


def _label(text: str) -> str:
    """A legend label drawn as given. matplotlib leaves out of legends the
    labels that start with '_' (its mark for "no label"), so a learner named
    '_hidden' gets a zero-width space in front."""
    return "\u200b" + text if text.startswith("_") else text


def _legend(ax, **kwargs) -> None:
    """The legend, when something is labelled (no learner or class may have a
    curve: a class absent from the data)."""
    if ax.get_legend_handles_labels()[0]:
        ax.legend(**kwargs)


def _svg(fig, name: str) -> str:
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
    return text.replace("<svg", f'<svg role="img" aria-label="{name} figure"', 1)


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


def _deployed(color: str, marked: bool) -> dict:
    """The marker of a learner's own (deployed) threshold: a square, labelled once."""
    return dict(marker="s", markersize=5.5, markerfacecolor=color, markeredgecolor="white",
                markeredgewidth=0.8, linestyle="none", zorder=6,
                label="_deployed" if marked else "deployed thresholds (squares)")


def roc_figure(result, styles) -> str:
    with _rc():
        fig = _figure((4.6, 4.3))
        ax = fig.subplots()
        ax.plot([0, 1], [0, 1], color="#999999", linewidth=0.8, linestyle=":", label="_chance")
        best, marked = None, False
        for key, lr in result.learners.items():
            roc = lr.curves.roc
            if roc is None:
                continue
            st = styles[key]
            auc = lr.summary.auc
            ax.plot(*_thin(roc.x, roc.y), color=st["color"], linestyle=st["linestyle"],
                    label=_label(f"{key} (AUC {auc:.3f})"), drawstyle="default")
            hull = lr.summary.hull
            if hull is not None:
                ax.plot(hull.fpr, hull.tpr, color=st["color"], linestyle=(0, (3, 2)), linewidth=0.9,
                        alpha=0.8)
            at = lr.at_threshold
            if at.fpr is not None and at.recall is not None:  # the deployed threshold's point
                ax.plot([at.fpr], [at.recall], **_deployed(st["color"], marked))
                marked = True
            op = lr.operating
            if op is not None and (best is None or op.min_cost < best[1].min_cost):
                best = (key, op)
        pc = result.operating_point.pc_positive
        if best is not None and 0 < pc < 1:
            key, op = best
            # iso-cost line: every ROC point of the same expected cost at PC(+)
            slope = (1 - pc) / pc
            xs = np.array([0.0, 1.0])
            ys = op.tpr + slope * (xs - op.fpr)
            ax.plot(xs, ys, color="#444444", linewidth=0.9, linestyle=(0, (1, 1.5)),
                    label=f"iso-cost at PC(+) = {pc:.3g}")
            ax.plot([op.fpr], [op.tpr], marker="o", markersize=6, markerfacecolor="white",
                    markeredgecolor=styles[key]["color"], markeredgewidth=1.6, linestyle="none",
                    label=f"least cost: {key}")
        _unit_axes(ax, "False positive rate (FPR)", "True positive rate (TPR = recall)")
        ax.set_title("ROC curves (dashed: convex hulls)")
        _legend(ax, loc="lower right", frameon=True, framealpha=0.9)
        fig.tight_layout()
        return _svg(fig, "roc")


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
        fig = _figure((4.6, 4.3))
        ax = fig.subplots()
        r = np.linspace(0.001, 1, 400)
        for f in (0.2, 0.4, 0.6, 0.8):
            rr = r[2 * r > f]
            ax.plot(rr, f * rr / (2 * rr - f), color="#bbbbbb", linewidth=0.6, zorder=0)
            ax.annotate(f"F1={f:.1f}", (1.0, f / (2 - f)), fontsize=6.5, color="#888888",
                        xytext=(2, 0), textcoords="offset points", va="center")
        ax.plot([0, 1], [0, 1], color="#999999", linewidth=0.8, linestyle=":")
        marked = False
        for key, lr in result.learners.items():
            pr = lr.curves.pr
            if pr is None:
                continue
            st = styles[key]
            x, y = _pr_path(pr, lr.summary.positives)
            ap, bep = lr.summary.average_precision, lr.summary.bep
            ax.plot(x, y, color=st["color"], linestyle=st["linestyle"], label=_label(f"{key} (AP {ap:.3f})"))
            at = lr.at_threshold
            if at.recall is not None and at.precision is not None:
                ax.plot([at.recall], [at.precision], **_deployed(st["color"], marked))
                marked = True
            if bep is not None:
                ax.plot([bep], [bep], marker="D", markersize=5.5, color=st["color"], linestyle="none", zorder=5,
                        markeredgecolor="white", markeredgewidth=0.6, label=_label(f"{key} BEP {bep:.3f}"))
        _unit_axes(ax, "Recall (TPR)", "Precision")
        ax.set_title("P-R curves (diamonds: BEPs; squares: deployed)")
        _legend(ax, loc="lower left", frameon=True, framealpha=0.9)
        fig.tight_layout()
        return _svg(fig, "pr")


def cost_figure(result, styles) -> str:
    with _rc():
        fig = _figure((7.0, 4.0))
        ax = fig.subplots()
        pc_star = result.operating_point.pc_positive
        envelope = [iv for c in result.comparisons for iv in c.cost_envelope]
        marked = False
        for key, lr in result.learners.items():
            roc = lr.curves.roc
            if roc is not None and not roc.simplified and roc.vertices <= 30:
                verts = (roc.x, roc.y)  # every vertex is kept
                # each ROC point's cost line, faintly, where there are few
                for fpr, tpr in zip(*verts):
                    ax.plot([0, 1], [fpr, 1 - tpr], color=styles[key]["color"], linewidth=0.5,
                            alpha=0.25, zorder=1)
        for iv in envelope:
            curve = result.learners[iv.learner].summary.cost_curve
            xs = np.concatenate(([iv.pc_from], curve.pc[(curve.pc > iv.pc_from) & (curve.pc < iv.pc_to)],
                                 [iv.pc_to]))
            ax.fill_between(xs, 0, np.interp(xs, curve.pc, curve.cost),
                            color=styles[iv.learner]["color"], alpha=0.13, linewidth=0, zorder=0)
        for key, lr in result.learners.items():
            curve = lr.summary.cost_curve
            if curve is None:
                continue
            st = styles[key]
            ax.plot(curve.pc, curve.cost, color=st["color"], linestyle=st["linestyle"],
                    label=_label(f"{key} (expected total cost {lr.summary.expected_total_cost:.3f})"), zorder=3)
            at = lr.at_threshold
            if at.fpr is not None and at.recall is not None:
                # the deployed threshold's cost line, FPR at PC(+) = 0 to FNR at 1, and its cost at PC(+)
                ax.plot([0, 1], [at.fpr, 1 - at.recall], color=st["color"], linewidth=0.9,
                        linestyle=(0, (1, 1.2)), alpha=0.9, zorder=2)
                ax.plot([pc_star], [at.fpr + (1 - at.recall - at.fpr) * pc_star], **_deployed(st["color"], marked))
                marked = True
        ax.axvline(pc_star, color="#444444", linewidth=0.9, linestyle=(0, (4, 2)), zorder=2)
        ax.annotate(f"operating point\nPC(+) = {pc_star:.3g}", (pc_star, 0.02), xytext=(4, 0),
                    textcoords="offset points", fontsize=7.5, va="bottom", color="#444444",
                    xycoords=("data", "axes fraction"))
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 0.55)
        ax.set_xlabel("Probability cost PC(+)")
        ax.set_ylabel("Normalised expected cost")
        ax.set_title("Cost curves (shaded: least cost at each PC(+); dotted: deployed thresholds' cost lines)")
        _legend(ax, loc="upper right", frameon=True, framealpha=0.9)
        fig.tight_layout()
        return _svg(fig, "cost")


def scalars_figure(result, styles, rows) -> str:
    """Dot chart of the headline scalars; ``rows`` = [(label, {learner: (value, (lo, hi) | None)})]."""
    keys = list(result.learners)
    with _rc():
        fig = _figure((7.0, 0.45 * len(rows) * max(1, len(keys) / 3) + 0.9))
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
                ax.plot([value], [y], marker="o", markersize=5, color=color, linestyle="none",
                        label=_label(key) if i == 0 else None)
        ax.set_yticks(range(len(rows)))
        ax.set_yticklabels([label for label, _ in rows])
        ax.invert_yaxis()
        ax.set_xlim(0, 1.03)  # a dot at 1 stays whole
        ax.grid(axis="y", visible=False)
        ax.set_xlabel("value (higher is better; lines: confidence intervals where computed)")
        _legend(ax, loc="lower left", bbox_to_anchor=(0, 1.0), ncol=min(len(keys), 6), frameon=False,
                handletextpad=0.2, columnspacing=1.2)
        fig.tight_layout()
        return _svg(fig, "scalars")


def gains_figure(result, styles) -> str:
    """Cumulative gains (left: the share of the positives captured against the share
    flagged, the diagonal a random ranking) and lift by decile (right), per learner."""
    with _rc():
        fig = _figure((7.0, 3.3))
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
        _legend(left, loc="lower right", frameon=True, framealpha=0.9)
        right.set_xlim(0, 1.02)
        right.set_ylim(bottom=0)
        right.set_xlabel("Share flagged (top by score)")
        right.set_ylabel("Lift (captured / flagged)")
        right.set_title("Cumulative lift by decile")
        fig.tight_layout()
        return _svg(fig, "gains")


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


def confusion_figure(name: str, classes: list[str], confusion: np.ndarray, fig_id: str) -> str:
    """k x k heatmap: counts (left) and row-normalised shares (right)."""
    k = len(classes)
    with _rc({"axes.grid": False}):
        size = min(7.0, 2.2 + 0.45 * k)
        fig = _figure((2 * size, size * 0.85))
        axes = fig.subplots(1, 2)
        rows = confusion.sum(axis=1, keepdims=True)
        shares = np.divide(confusion, rows, out=np.zeros_like(confusion), where=rows > 0)
        for ax, values, title, fmt in ((axes[0], confusion, "counts", "{:,.0f}"),
                                       (axes[1], shares, "share of each true class", "{:.2f}")):
            ax.imshow(shares, cmap="Blues", vmin=0, vmax=1)
            for i in range(k):
                for j in range(k):
                    ax.text(j, i, fmt.format(values[i, j]), ha="center", va="center", fontsize=7.5,
                            color="white" if shares[i, j] > 0.6 else "#1d1d1f")
            ax.set_xticks(range(k))
            ax.set_xticklabels(classes, rotation=45 if k > 4 else 0, ha="right" if k > 4 else "center")
            ax.set_yticks(range(k))
            ax.set_yticklabels(classes)
            ax.set_xlabel("predicted")
            ax.set_ylabel("true")
            ax.set_title(f"{name}: {title}")
        fig.tight_layout()
        return _svg(fig, fig_id)


def class_roc_figure(name: str, curves: dict, aucs: dict, fig_id: str) -> str:
    """One-vs-rest ROC curves of one learner, one colour per class."""
    with _rc():
        fig = _figure((4.6, 4.3))
        ax = fig.subplots()
        ax.plot([0, 1], [0, 1], color="#999999", linewidth=0.8, linestyle=":")
        for i, (cname, c) in enumerate(curves.items()):
            if c.roc is None:
                continue
            auc = aucs.get(cname)
            label = _label(f"{cname} (AUC {auc:.3f})" if auc is not None else cname)
            ax.plot(*_thin(c.roc.x, c.roc.y), color=PALETTE[i % len(PALETTE)],
                    linestyle=_DASHES[(i // len(PALETTE)) % len(_DASHES)], label=label)
        _unit_axes(ax, "False positive rate (one vs rest)", "True positive rate")
        ax.set_title(f"{name}: one-vs-rest ROC curves")
        _legend(ax, loc="lower right", frameon=True, framealpha=0.9)
        fig.tight_layout()
        return _svg(fig, fig_id)


def reliability_figure(name: str, bins, color: str, fig_id: str, *, top_label: bool = False) -> str:
    """A learner's reliability diagram: the observed frequency of each bin against
    its mean score, with Wilson's interval, beside the diagonal of perfect
    calibration; underneath, each bin's weight as a histogram over its range."""
    shown = [b for b in bins if b.n > 0]
    with _rc():
        fig = _figure((3.6, 4.4))
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
        fig.tight_layout()
        return _svg(fig, fig_id)


def class_scores_figure(classes: list[str], values: dict[str, dict[str, float | None]], styles,
                        measure: str) -> str:
    """Dot chart of one per-class measure (e.g. F1), one colour per learner."""
    keys = list(values)
    with _rc():
        fig = _figure((7.0, 0.32 * len(classes) * max(1, len(keys) / 2) + 1.0))
        ax = fig.subplots()
        step = 0.7 / max(1, len(keys))
        for j, key in enumerate(keys):
            for i, cname in enumerate(classes):
                v = values[key].get(cname)
                if v is None:
                    continue
                ax.plot([v], [i + (j - (len(keys) - 1) / 2) * step], marker="o", markersize=5,
                        color=styles[key]["color"], linestyle="none", label=_label(key) if i == 0 else None)
        ax.set_yticks(range(len(classes)))
        ax.set_yticklabels(classes)
        ax.invert_yaxis()
        ax.set_xlim(0, 1)
        ax.grid(axis="y", visible=False)
        ax.set_xlabel(f"{measure} per class (one vs rest)")
        _legend(ax, loc="lower left", bbox_to_anchor=(0, 1.0), ncol=min(len(keys), 6), frameon=False)
        fig.tight_layout()
        return _svg(fig, "class-scores")


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
        return _svg(fig, "cd")
