"""Pairwise comparisons of many learners as heatmaps (inline SVG, the matrix a
raster image inside it): the ROC envelopment, and DeLong's and McNemar's tests
adjusted by Holm's method. Past a handful of learners an N x N table of text
neither fits a page nor can be read; a heatmap in the ranking's order (best
first) shows at a glance who dominates whom. Plots take results and never
compute a measure: every cell is a verdict or p-value the engine computed."""

from __future__ import annotations

import textwrap

import numpy as np

from .canvas import HALF_WIDTH, new_figure, rc_context
from .svg import to_svg
from ..words import general

__all__ = ["envelopment_heatmap", "significance_heatmap", "without_titles", "NAMED_TICKS", "TITLED_CELLS"]

#: up to this many learners the axes name each one; past it they give ranks
NAMED_TICKS = 40

_ENVELOPMENT = (("row envelops column", "#0072B2"), ("row enveloped by column", "#D55E00"),
                ("the curves cross", "#e6e6e6"), ("identical curves", "#009E73"))
#: a test's cell: the better learner's side and how small the adjusted p-value is
_TEST = (("row better, p < 0.001", "#08306b"), ("row better, p < 0.01", "#2171b5"),
         ("row better, p < level", "#9ecae1"), ("not significant", "#eeeeee"),
         ("column better, p < level", "#fdbe85"), ("column better, p < 0.01", "#e6550d"),
         ("column better, p < 0.001", "#8c2d04"), ("not tested / undefined", "#ffffff"))


#: up to this many learners each cell of the upper triangle carries its pair's verdict as
#: an SVG <title> (a tooltip in a browser); past it, the HTML would grow by the square
#: of the learners for little use, and results.json holds every pair
TITLED_CELLS = 60


def _cell_titles(fig, ax, titles: dict, n: int) -> str:
    """An invisible rectangle over each titled cell, its <title> the pair's text:
    ``titles`` (row, column) -> text. Placed from the axes' position after the
    figure was laid out (the SVG's user units are points, its origin top left)."""
    import html

    if not titles or n > TITLED_CELLS:
        return ""
    width, height = (float(v) * 72 for v in fig.get_size_inches())
    box = ax.get_position()
    x0, y0 = box.x0 * width, (1 - box.y1) * height
    cw, ch = box.width * width / n, box.height * height / n
    rects = "".join(
        f'<rect x="{x0 + j * cw:.2f}" y="{y0 + i * ch:.2f}" width="{cw:.2f}" height="{ch:.2f}">'
        f"<title>{html.escape(text)}</title></rect>" for (i, j), text in titles.items())
    return f'<g class="cell-titles" fill="#fff" fill-opacity="0">{rects}</g>'


def without_titles(svg: str) -> str:
    """The heatmap without its cells' titles (the PDF: no tooltips there)."""
    import re

    return re.sub(r'<g class="cell-titles".*?</g>', "", svg, flags=re.S)


def _heatmap(codes: np.ndarray, legend, names: list[str], title: str, fig_id: str, alt: str, by: str,
             titles: dict | None = None) -> str:
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch

    n = len(names)
    with rc_context({"axes.grid": False}):
        fig = new_figure((HALF_WIDTH, HALF_WIDTH + 0.35 + 0.16 * len(legend)), layout="constrained")
        ax = fig.subplots()
        cmap = ListedColormap([c for _, c in legend] + ["#bdbdbd"])  # last: the diagonal
        ax.imshow(codes, cmap=cmap, vmin=-0.5, vmax=len(legend) + 0.5, interpolation="nearest", aspect="equal")
        if n <= NAMED_TICKS:
            ax.set_xticks(range(n), names, rotation=90, fontsize=7)
            ax.set_yticks(range(n), names, fontsize=7)
        else:
            ticks = [0] + list(range(9, n, 10 if n <= 100 else 20))
            ax.set_xticks(ticks, [str(t + 1) for t in ticks])
            ax.set_yticks(ticks, [str(t + 1) for t in ticks])
            ax.set_xlabel(f"column: learner's rank by {by}")
            ax.set_ylabel(f"row: learner's rank by {by}")
        ax.tick_params(length=2)
        # on two lines when wider than the figure ("... (McNemar) below" was cut at "belc")
        ax.set_title(textwrap.fill(title, 32))
        used = set(np.unique(codes[codes < len(legend)]).tolist())
        handles = [Patch(facecolor=c, edgecolor="#999999", linewidth=0.4, label=lab)
                   for i, (lab, c) in enumerate(legend) if i in used]
        if handles:
            fig.legend(handles, [h.get_label() for h in handles], loc="outside lower center", ncol=2,
                       frameon=False, handlelength=1.2, columnspacing=1.0, handletextpad=0.4)
        svg = to_svg(fig, fig_id, alt)
        layer = _cell_titles(fig, ax, titles or {}, n)  # the layout is done: the axes are in place
        return svg[:svg.rindex("</svg>")] + layer + "</svg>" if layer else svg


def envelopment_heatmap(names: list[str], pairs, fig_id: str, by: str = "the ranking") -> str:
    """Row vs column: envelops, is enveloped, crosses or is identical
    (``pairs``: PairVerdicts; learners in ``names``' order, best first)."""
    index = {k: i for i, k in enumerate(names)}
    n = len(names)
    codes = np.full((n, n), len(_ENVELOPMENT), dtype=float)  # the diagonal
    code = {"a_envelops_b": (0, 1), "b_envelops_a": (1, 0), "identical": (3, 3)}
    titles = {}
    for p in pairs:
        if p.a not in index or p.b not in index:
            continue
        ab, ba = code.get(p.envelopment.verdict, (2, 2))
        codes[index[p.a], index[p.b]], codes[index[p.b], index[p.a]] = ab, ba
        i, j = sorted((index[p.a], index[p.b]))
        titles[(i, j)] = f"{names[i]} vs {names[j]}: " + _ENVELOPMENT[int(codes[i, j])][0].replace(
            "row", names[i]).replace("column", names[j])
    won = int((codes == 0).sum())
    alt = (f"Heatmap of ROC envelopment among {n} learners, best first: {won} of the "
           f"{n * (n - 1) // 2} pairs have one curve enveloping the other; the rest cross or coincide.")
    return _heatmap(codes, _ENVELOPMENT, names, "ROC envelopment (row vs column)", fig_id, alt, by, titles)


def _test_code(p: float | None, row_better: bool, alpha: float) -> int:
    if p is None:
        return 7
    if p >= alpha:
        return 3
    strength = 0 if p < 0.001 else 1 if p < 0.01 else 2
    return strength if row_better else 6 - strength


def significance_heatmap(names: list[str], cells: dict, alpha: float, title: str, fig_id: str, what: str,
                 by: str = "the ranking", p_text=lambda p: f"p = {general(p, 2)}", lower: dict | None = None) -> str:
    """``cells``: (a, b) -> (Holm-adjusted p-value or None, whether a is the better);
    each pair once, drawn in both triangles, or with ``lower`` (a second test's cells,
    the same form) above the diagonal only, ``lower``'s below it: two tests of every
    pair in one square. ``p_text``: a p-value's text in the cells' tooltips
    ("p = 0.027", "p < 0.001": the report's number policy, passed in)."""
    index = {k: i for i, k in enumerate(names)}
    n = len(names)
    codes = np.full((n, n), len(_TEST), dtype=float)
    significant = 0
    titles = {}
    for triangle, source in (("upper", cells), ("lower", lower)):
        for (a, b), (p, a_better) in (source or {}).items():
            if a not in index or b not in index:
                continue
            (r, x), (c, y) = sorted(((index[a], a), (index[b], b)))
            row_better = a_better if x == a else not a_better  # x: the learner of the upper cell's row
            better = a if a_better else b
            text = (f"{x} vs {y}: " + (f"Holm {p_text(p)}" if p is not None else "undefined")
                    + (f", {better} better" if p is not None and p < alpha else ""))
            if triangle == "upper":
                codes[r, c] = _test_code(p, row_better, alpha)
                titles[(r, c)] = text
            if triangle == "lower" or lower is None:
                codes[c, r] = _test_code(p, not row_better, alpha)
                if lower is not None:
                    titles[(c, r)] = f"{y} vs {x}: " + text.partition(": ")[2]
            significant += p is not None and p < alpha
    tested = len(cells) + len(lower or {})
    alt = (f"Heatmap of {what} among {n} learners, best first: {significant} of the {tested} "
           f"{'tests of pairs' if lower else 'pairs'} differ significantly after Holm's adjustment.")
    legend = [(label.replace("level", f"{alpha:g}"), color) for label, color in _TEST]
    return _heatmap(codes, legend, names, title, fig_id, alt, by, titles)
