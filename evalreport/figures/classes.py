"""Figures of classes and ranks: the multi-class confusion heatmaps, one-vs-rest ROC
curves (small multiples past a few classes) and per-class scores, and the critical
difference diagram of Friedman's test; drawn as evalreport.figures draws (its
figure, SVG and style helpers)."""

from __future__ import annotations

import textwrap

import numpy as np

from .text import cd_alt, class_roc_alt, class_scores_alt, confusion_alt, confusion_shares_alt
from .text import legend_label
from . import MIN_TEXT, PALETTE, dot_handles, dot_style, scalar_limits, thin, unit_axes
from .canvas import FULL_WIDTH, HALF_WIDTH, legend_below, new_figure, rc_context
from .svg import to_svg
from .styles import DASHES

#: The classes' colours, never the learners' (blue is a learner on one page and a class
#: on another no more): teal, indigo, olive, orchid, each at least 3:1 on white and
#: every two at least 20 CAM02-UCS units apart under simulated deuteranopia,
#: protanopia and tritanopia (tests/test_palette.py); each class also has its own dash.
CLASS_PALETTE = ("#00796B", "#332288", "#6A6A00", "#D35FB7")
#: the heatmaps' shading: a sequential map of its own (no learner's or class's colour)
CONFUSION_CMAP = "Blues"
#: a confusion heatmap's cell up to :data:`NATURAL_CLASSES` classes, in inches: the
#: matrix is drawn at its natural size (a 3 x 3 matrix no longer takes a third of a page)
CELL = 0.42
NATURAL_CLASSES = 6


def _cell_text_size(k: int, panel_width: float, chars: int) -> float:
    """The largest size (at most 8.5 pt) at which ``chars`` characters fit a cell
    of a k x k heatmap ``panel_width`` inches across (a digit is about 0.6 em)."""
    cell = panel_width * 72 / k
    return min(8.5, 0.85 * cell / (0.62 * max(chars, 1)))


def confusion_figures(name: str, classes: list[str], confusion: np.ndarray,
                      fig_id: str) -> tuple[str, str, bool]:
    """k x k heatmaps: the counts, and the row-normalised shares (``fig_id`` +
    "-shares"), both shaded by the share of the true class, each with a colour bar
    as the shading's key: two figures, each with its own alt text (one SVG of two
    panels printed its text at 4 px on a phone). Returns (counts, shares, side):
    ``side`` when both fit side by side (each at most :data:`HALF_WIDTH`, its cell
    text at 7 pt or more; up to six classes drawn at their natural size, cells of
    :data:`CELL`, the SVG never stretched wider); else each takes the page's width,
    one under the other. The shares as whole percentages past 6 classes."""
    k = len(classes)
    rows = confusion.sum(axis=1, keepdims=True)
    shares = np.divide(confusion, rows, out=np.zeros_like(confusion, dtype=float), where=rows > 0)
    counts = [[f"{v:,.0f}" for v in row] for row in confusion]
    percent = k > 6
    share_text = [[f"{100 * v:.0f}" if percent else f"{v:.2f}" for v in row] for row in shares]
    chars = max(len(t) for row in counts + share_text for t in row) if k else 1
    longest = max((len(c) for c in classes), default=1)
    label_room = min(1.6, 0.4 + 0.065 * longest)
    rotate = k > 4 or longest * 0.065 * 0.9 > CELL  # names wider than a cell slant
    bar = 0.9  # the colour bar, its ticks and its label, right of the panel
    # the cell fits its longest number at 8 pt; the panel, k cells; beside the other figure
    # while that leaves its numbers at 7 pt or more
    panel = min(k * max(CELL, chars * 0.075 + 0.12), HALF_WIDTH - label_room - bar)
    side = k <= NATURAL_CLASSES and _cell_text_size(k, panel, chars) >= MIN_TEXT
    if not side:
        panel = min(FULL_WIDTH - label_room - bar, 0.5 * k + 0.6)
    size = min(8.0, max(MIN_TEXT, _cell_text_size(k, panel, chars)))
    width = label_room + panel + bar if side else FULL_WIDTH
    # the panel, the class names under it (slanted: about 0.7 of their length), the axis
    # label and the title (two lines beside the other figure)
    height = panel + ((0.35 + 0.04 * longest) if rotate else 0.4) + (0.5 if side else 0.35)
    out = []
    for texts, title, fid in ((counts, "counts", fig_id),
                              (share_text, "% of each true class" if percent else "share of each true class",
                               f"{fig_id}-shares")):
        with rc_context({"axes.grid": False}):
            fig = new_figure((width, height), layout="constrained")
            ax = fig.subplots()
            image = ax.imshow(shares, cmap=CONFUSION_CMAP, vmin=0, vmax=1)
            for i in range(k):
                for j in range(k):
                    ax.text(j, i, texts[i][j], ha="center", va="center", fontsize=size,
                            color="white" if shares[i, j] > 0.6 else "#1d1d1f")
            ax.set_xticks(range(k))
            ax.set_xticklabels(classes, rotation=45 if rotate else 0, ha="right" if rotate else "center",
                               rotation_mode="anchor" if rotate else "default")
            ax.set_yticks(range(k))
            ax.set_yticklabels(classes)
            ax.set_xlabel("predicted")
            ax.set_ylabel("true")
            ax.set_title(legend_label(name) + "\n" + title if side else legend_label(f"{name}: {title}"))
            # the shading's key (both are shaded by the share of the row, the true class),
            # beside the matrix, its height
            cax = ax.inset_axes([1.06, 0.0, 0.055 if side else 0.035, 1.0])
            key = fig.colorbar(image, cax=cax, ticks=[0, 0.5, 1])
            key.set_label("shading: share of\nthe true class" if side else "shading: share of the true class")
            key.ax.tick_params(labelsize=MIN_TEXT)
            key.outline.set_linewidth(0.4)
            alt = confusion_alt(name, classes, confusion) if fid == fig_id else \
                confusion_shares_alt(name, classes, confusion)
            out.append(to_svg(fig, fid, alt, natural=side))
    return out[0], out[1], side


#: past this many classes, one-vs-rest ROC curves are drawn one small panel per class
SMALL_MULTIPLES = 4


def class_roc_figure(name: str, curves: dict, aucs: dict, fig_id: str, color: str | None = None) -> str:
    """One-vs-rest ROC curves of one learner: one colour per class in one panel
    up to four classes; past that, one small panel per class in the learner's
    colour (ten colours, or colours with dashes, cannot be told apart)."""
    drawn = {c: v.roc for c, v in curves.items() if v.roc is not None}
    if len(curves) > SMALL_MULTIPLES:
        return _class_roc_grid(name, curves, aucs, fig_id, color or PALETTE[0])
    with rc_context():
        fig = new_figure((HALF_WIDTH, 4.3), layout="constrained")
        ax = fig.subplots()
        ax.plot([0, 1], [0, 1], color="#999999", linewidth=0.8, linestyle=":")
        for i, (cname, roc) in enumerate(drawn.items()):
            i = list(curves).index(cname)
            auc = aucs.get(cname)
            label = legend_label(f"{cname} (AUC {auc:.3f})" if auc is not None else cname)
            # the classes' own colours and dashes: never a learner's
            ax.plot(*thin(roc.x, roc.y), color=CLASS_PALETTE[i % len(CLASS_PALETTE)],
                    linestyle=DASHES[i % len(DASHES)], label=label)
        unit_axes(ax, "False positive rate (one vs rest)", "True positive rate")
        ax.set_title(legend_label(f"{name}: one-vs-rest ROC curves"))
        legend_below(fig, [ax])
        return to_svg(fig, fig_id, class_roc_alt(name, aucs))


def _class_roc_grid(name: str, curves: dict, aucs: dict, fig_id: str, color: str) -> str:
    k = len(curves)
    ncols = 3 if k <= 9 else 4
    nrows = -(-k // ncols)
    fit = max(6, int(HALF_WIDTH / ncols * 72 / (0.55 * 7.5)))  # characters of a 7.5 pt title per panel
    with rc_context({"axes.titlesize": 7.5, "xtick.labelsize": 7, "ytick.labelsize": 7}):
        fig = new_figure((HALF_WIDTH, 0.2 + nrows * HALF_WIDTH / ncols * 1.08 + 0.35), layout="constrained")
        axes = np.atleast_1d(fig.subplots(nrows, ncols, sharex=True, sharey=True)).ravel()
        for ax, (cname, c) in zip(axes, curves.items()):
            ax.plot([0, 1], [0, 1], color="#999999", linewidth=0.6, linestyle=":")
            if c.roc is not None:
                ax.plot(*thin(c.roc.x, c.roc.y), color=color, linewidth=1.1)
            auc = aucs.get(cname)
            # on as many lines as the panel's width needs (a long class name ran past the figure)
            title = f"{cname}" + (f" {auc:.2f}" if auc is not None else "")
            if len(title) > fit:  # the name on its lines, the AUC under it
                title = textwrap.fill(f"{cname}", fit, break_long_words=True) + (
                    f"\n{auc:.2f}" if auc is not None else "")
            ax.set_title(legend_label(title), pad=2)
            ax.set_xlim(0, 1)
            ax.set_ylim(0, 1.02)
            ax.set_aspect("equal")
            ax.set_xticks([0, 1])
            ax.set_yticks([0, 1])
        for ax in axes[k:]:
            ax.set_visible(False)
        fig.supxlabel("FPR (one vs rest)", fontsize=7.5)
        fig.supylabel("TPR", fontsize=7.5)
        fig.suptitle(legend_label(f"{name}: one-vs-rest ROC per class (AUC in titles)"), fontsize=8)
        return to_svg(fig, fig_id, class_roc_alt(name, aucs))


def class_scores_figure(classes: list[str], values: dict[str, dict[str, float | None]], styles,
                        measure: str) -> str:
    """Dot chart of one per-class measure (e.g. F1), one colour per learner; the
    x axis fitted to the values (as the headline chart's), every learner in the legend."""
    keys = list(values)
    with rc_context():
        fig = new_figure((FULL_WIDTH, 0.3 * len(classes) * max(1, len(keys) / 2) + 1.0), layout="constrained")
        ax = fig.subplots()
        step = 0.7 / max(1, len(keys))
        for j, key in enumerate(keys):
            for i, cname in enumerate(classes):
                v = values[key].get(cname)
                if v is None:
                    continue
                ax.plot([v], [i + (j - (len(keys) - 1) / 2) * step], **dot_style(styles[key]))
        ax.set_yticks(range(len(classes)))
        ax.set_yticklabels(classes)
        ax.set_ylim(len(classes) - 0.5, -0.5)
        ax.set_xlim(*scalar_limits([(c, {k: (values[k].get(c), None) for k in keys}) for c in classes]))
        ax.grid(axis="y", visible=False)
        ax.set_xlabel(f"{measure} per class (one vs rest)")
        handles = dot_handles(keys, styles)
        fig.legend(handles, [h.get_label() for h in handles], loc="outside upper center",
                   ncol=min(len(keys), 6), frameon=False, handletextpad=0.2, columnspacing=1.2)
        return to_svg(fig, "class-scores", class_scores_alt(classes, values, measure))


def critical_difference_figure(learners, average_ranks, cd: float, significant_pairs) -> str:
    """Demšar's critical-difference diagram: average ranks on an axis (1 = best),
    learners joined by a bar when their ranks differ by less than the CD."""
    k = len(learners)
    ranks = np.asarray(average_ranks, dtype=float)
    order = np.argsort(ranks)
    with rc_context({"axes.grid": False, "axes.spines.left": False}):
        fig = new_figure((7.0, 1.2 + 0.28 * k))
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
        return to_svg(fig, "cd", cd_alt(learners, average_ranks, cd, significant_pairs))
