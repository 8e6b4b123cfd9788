"""ROC, P-R and cost curves drawn on a matplotlib Axes: the report's own drawing.

:func:`plot_roc`, :func:`plot_pr` and :func:`plot_cost_curves` draw what the
report's figures draw (:mod:`evalreport.figures` calls them) on an Axes of the
caller's figure. They take the engine's results and compute no measure: a
:class:`~evalreport.result.Result` of a binary task (every learner, its
deployed threshold, the operating point, the least cost's shading), a
:class:`~evalreport.metrics.BinaryEvaluation` of
:func:`~evalreport.metrics.evaluate_binary`, or a mapping of names to
evaluations (or to a Result's learners). Only matplotlib's object API is used
(never pyplot), imported when a function draws, not with this module.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from .text import legend_label, partial_auc_limit
from .paths import log_path, pr_path, thin
# the learners' colours, dashes and markers (re-exported: the figure modules import them from here)
from .styles import EMPHASIS_FROM, MUTED, PALETTE, learner_styles  # noqa: F401
from .styles import learner_handles, line_style, proxy
from ..words import general

__all__ = ["plot_roc", "plot_pr", "plot_cost_curves", "learner_styles", "PALETTE", "MUTED", "EMPHASIS_FROM"]

#: the smallest text on a printed figure, in points
MIN_TEXT = 7.0


def value_text(value) -> str:
    """A measure's value in a legend, as the report's sentences print it (number_style.py;
    imported here, not at the top: importing evalreport.report imports the figures)."""
    from ..number_style import value_text as text

    return text(value)


@dataclass(frozen=True)
class _Curve:
    """A curve as drawn: x, y and, for P-R, the counts at its points."""

    x: np.ndarray
    y: np.ndarray
    tp: np.ndarray | None = None
    fp: np.ndarray | None = None


@dataclass(frozen=True)
class _Learner:
    """What the figures read of one learner, from a Result's learner or an evaluation."""

    roc: Any  # .x = FPR, .y = TPR, or None
    pr: Any  # .x = recall, .y = precision (.tp, .fp), or None
    summary: Any  # auc, average_precision, bep, hull, cost_curve, expected_total_cost, positives
    at: Any  # the deployed threshold's measures (fpr, recall, precision), or None
    operating: Any  # the least-cost OperatingPoint at PC(+), or None
    hard: bool
    dataset: str | None = None  # a Result's learner's data set (several: each its least cost)


@dataclass(frozen=True)
class _Drawn:
    learners: dict  # name -> _Learner
    pc: float | None  # the operating point PC(+)
    max_fpr: float | None  # the partial-AUC region
    envelope: list  # the least cost's intervals of PC(+) (compare.curves)


def _from_evaluation(ev, threshold, pc) -> _Learner:
    both = ev.auc is not None  # both classes: the rates are numbers
    roc = _Curve(ev.roc.fpr, ev.roc.tpr) if both else None
    pr = None
    if ev.positives > 0:
        pr = _Curve(ev.pr.recall, ev.pr.precision, tp=ev.counts.tp[1:], fp=ev.counts.fp[1:])
    at = ev.at_threshold(threshold) if threshold is not None else None
    operating = ev.operating_point(pc) if pc is not None and 0 <= pc <= 1 else None
    return _Learner(roc=roc, pr=pr, summary=ev, at=at, operating=operating, hard=False)


def _from_learner(lr) -> _Learner:
    return _Learner(roc=lr.curves.roc, pr=lr.curves.pr, summary=lr.summary, at=lr.at_threshold,
                    operating=lr.operating, hard=lr.hard, dataset=lr.dataset)


def _one(value, threshold, pc) -> _Learner:
    if hasattr(value, "counts") and hasattr(value, "at_threshold"):  # a BinaryEvaluation
        return _from_evaluation(value, threshold, pc)
    if hasattr(value, "curves") and hasattr(value, "summary"):  # a Result's binary learner
        return _from_learner(value)
    raise TypeError(f"cannot draw {type(value).__name__}: give a BinaryEvaluation "
                    "(evalreport.metrics.evaluate_binary), a Result of a binary task or a mapping of "
                    "names to evaluations")


def drawn_learners(source, *, threshold=None, pc_positive=None, max_fpr=None) -> _Drawn:
    """The learners of ``source`` as the figures read them (see the module's text)."""
    if hasattr(source, "learners") and hasattr(source, "operating_point"):  # a Result
        if source.operating_point is None:
            raise TypeError("these plots draw binary tasks; this Result is of a multi-class task")
        return _Drawn({key: _from_learner(lr) for key, lr in source.learners.items()},
                      source.operating_point.pc_positive,
                      partial_auc_limit(source) if max_fpr is None else max_fpr,
                      [iv for c in source.comparisons for iv in c.cost_envelope])
    if not isinstance(source, Mapping):
        source = {"learner": source}
    thresholds = threshold if isinstance(threshold, Mapping) else dict.fromkeys(source, threshold)
    return _Drawn({key: _one(v, thresholds.get(key), pc_positive) for key, v in source.items()},
                  pc_positive, max_fpr, [])


def unit_axes(ax, xlabel, ylabel):
    ax.set_xlim(-0.01, 1.01)
    ax.set_ylim(-0.01, 1.01)
    ax.set_aspect("equal")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)


def _deployed(color: str) -> dict:
    """The marker of a learner's own (deployed) threshold: a square."""
    return dict(marker="s", markersize=5.5, markerfacecolor=color, markeredgecolor="white",
                markeredgewidth=0.8, linestyle="none", zorder=6, clip_on=False)


def _deployed_proxy():
    return proxy("deployed thresholds (squares)", marker="s", markersize=5.5, linestyle="none",
                  markeredgecolor="white")


def learner_handle(key: str, st: dict, label: str, hard: bool):
    """A learner's legend entry: its line, or for hard decisions the square of its one point."""
    if hard:
        return proxy(legend_label(f"{key} (hard decisions: one point)"), color=st["color"], marker="s",
                      markersize=5.5, linestyle="none", markeredgecolor="white")
    return proxy(legend_label(label), color=st["color"], linestyle=st["linestyle"])


def _placed(at) -> bool:
    """Whether a deployed threshold has a point on the ROC (both rates defined)."""
    return at is not None and at.fpr is not None and at.recall is not None


def _finish(ax, handles, legend, loc):
    if legend and handles:
        ax.legend(handles=handles, loc=loc, fontsize="small", frameon=False)
    return handles


def roc_crowded(curves) -> bool:
    """Whether every ROC curve (x = FPR, y = TPR) reaches TPR 0.8 by FPR 0.1: at a
    linear scale they then differ only in the top-left corner, and a second panel
    with FPR on a log scale shows where they part."""
    from .text import CROWDED_FPR, CROWDED_TPR

    return bool(curves) and all(float(np.max(c.y[c.x <= CROWDED_FPR], initial=0.0)) >= CROWDED_TPR
                                for c in curves)


def _least_costs(drawn: _Drawn) -> list[tuple[str, str, Any]]:
    """(legend label, name, OperatingPoint) of the learner of least cost at PC(+), one
    per data set: a learner is compared with the learners scored on the same rows
    only (results.json's ``winner_at_operating_point`` is per data set too), so a
    tuning set's optimistic least cost is never drawn as the test set's."""
    best: dict = {}
    for key, lr in drawn.learners.items():
        op = lr.operating
        if op is not None and (lr.dataset not in best or op.min_cost < best[lr.dataset][1].min_cost):
            best[lr.dataset] = (key, op)
    several = len(best) > 1
    return [(f"least cost on {dataset}: {key}" if several else f"least cost: {key}", key, op)
            for dataset, (key, op) in best.items()]


def plot_roc(ax, source, *, styles=None, threshold=None, pc_positive=None, max_fpr=None,
             log_fpr=False, legend=True, title=None):
    """Draw ROC curves on ``ax`` as the report does.

    Each learner's curve, its ROC convex hull (dashed), its deployed threshold
    (a square), the chance diagonal; with an operating point, the iso-cost line
    through the least-cost point (a circle); with a partial-AUC limit, its
    region shaded.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw (any figure's; pyplot is not used).
    source : Result, BinaryEvaluation or mapping
        A :class:`~evalreport.result.Result` of a binary task, a
        :class:`~evalreport.metrics.BinaryEvaluation`, or a mapping of names
        to either evaluations or a Result's learners.
    styles : mapping, optional
        name -> matplotlib keywords ``color`` and ``linestyle``; default
        :func:`learner_styles` (the report's colours).
    threshold : float or mapping, optional
        For evaluations: the deployed threshold(s) to mark (a Result's
        learners carry their own).
    pc_positive : float, optional
        For evaluations: the operating point PC(+) of the iso-cost line (a
        Result carries its own).
    max_fpr : float, optional
        Shade FPR <= ``max_fpr`` (a Result: the spec's ``partial_auc``).
    log_fpr : bool, default False
        Draw the report's second ROC figure instead: FPR on a log scale, the
        top-left corner where crowded curves part (its entries: the learners,
        the deployed thresholds, the partial-AUC region, the least-cost point).
    legend : bool, default True
        Put a legend on ``ax``; the entries are returned either way.
    title : str, optional
        Default the report's.

    Returns
    -------
    list of matplotlib.artist.Artist
        The legend's entries (learners first, then the kinds of marks).

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from evalreport.metrics import evaluate_binary
    >>> ev = evaluate_binary([0, 1, 1, 1, 0, 0, 1, 1, 0, 0], [10, 9, 8, 7, 6, 5, 4, 3, 2, 1])
    >>> ax = Figure().subplots()
    >>> for h in plot_roc(ax, {"A": ev}, threshold=6.5, pc_positive=0.5):
    ...     print(h.get_label())
    A (AUC 0.640)
    convex hulls (dashed)
    deployed thresholds (squares)
    iso-cost line at PC(+) = 0.5
    least cost: A
    """
    drawn = drawn_learners(source, threshold=threshold, pc_positive=pc_positive, max_fpr=max_fpr)
    styles = styles or learner_styles(drawn.learners)
    handles = learner_handles([learner_handle(key, styles[key], f"{key} (AUC {value_text(lr.summary.auc)})"
                                                if lr.roc is not None and lr.summary.auc is not None else key,
                                                lr.hard or lr.roc is None) for key, lr in drawn.learners.items()],
                               list(drawn.learners), styles)
    if log_fpr:  # its own figure in the report: the legend of what it draws
        return _finish(ax, handles + _roc_log_panel(ax, drawn, styles), legend, "lower right")
    ax.plot([0, 1], [0, 1], color="#999999", linewidth=0.8, linestyle=":")
    hulls = False
    for key, lr in drawn.learners.items():
        st, roc, at, summary = styles[key], lr.roc, lr.at, lr.summary
        if roc is not None:
            ax.plot(*thin(roc.x, roc.y), **line_style(st))
        hull = summary.hull
        if hull is not None and not st.get("muted"):
            hulls = True
            ax.plot(hull.fpr, hull.tpr, color=st["color"], linestyle=(0, (3, 2)), linewidth=0.8,
                    alpha=0.8, zorder=2)
        if _placed(at):  # the deployed threshold's point
            ax.plot([at.fpr], [at.recall], **_deployed(st["color"]))
    least = _least_costs(drawn)
    if hulls:
        handles.append(proxy("convex hulls (dashed)", linestyle=(0, (3, 2)), linewidth=0.8))
    if any(lr.at is not None for lr in drawn.learners.values()):
        handles.append(_deployed_proxy())
    if drawn.max_fpr is not None:
        from matplotlib.patches import Patch

        ax.axvspan(0, drawn.max_fpr, color="#8a8a8a", alpha=0.14, linewidth=0, zorder=0)
        handles.append(Patch(color="#8a8a8a", alpha=0.3, linewidth=0,
                             label=f"partial-AUC region (FPR \u2264 {general(drawn.max_fpr)})"))
    pc = drawn.pc
    if least and pc is not None and 0 < pc < 1:
        for _, key, op in least:
            # iso-cost line: every ROC point of the same expected cost at PC(+)
            slope = (1 - pc) / pc
            xs = np.array([0.0, 1.0])
            ys = op.tpr + slope * (xs - op.fpr)
            ax.plot(xs, ys, color="#444444", linewidth=0.9, linestyle=(0, (1, 1.5)), zorder=4)
            ax.plot([op.fpr], [op.tpr], **_least_marker(styles[key]["color"]))
        handles.append(proxy(f"iso-cost line{'s' if len(least) > 1 else ''} at PC(+) = {general(pc, 3)}",
                             linewidth=0.9, linestyle=(0, (1, 1.5))))
        handles += [proxy(legend_label(label), **_least_marker(styles[key]["color"])) for label, key, _ in least]
    unit_axes(ax, "False positive rate (FPR)", "True positive rate (TPR = recall)")
    ax.set_title("ROC curves" if title is None else title)
    return _finish(ax, handles, legend, "lower right")


def _least_marker(color: str) -> dict:
    """The marker of the least-cost point at PC(+): an open circle."""
    return dict(marker="o", markersize=6, markerfacecolor="white", markeredgecolor=color,
                markeredgewidth=1.6, linestyle="none", zorder=7, clip_on=False)


def _roc_log_panel(ax, drawn: _Drawn, styles) -> list:
    """The ROC curves with FPR on a log scale, from about the smallest FPR any
    curve reaches, and TPR fitted to where the curves are; the legend entries of
    its marks (the learners' are the caller's)."""
    curves = {k: lr.roc for k, lr in drawn.learners.items() if lr.roc is not None}
    least, max_fpr = _least_costs(drawn), drawn.max_fpr
    positive = [float(c.x[c.x > 0].min()) for c in curves.values() if np.any(c.x > 0)]
    left = max(min(positive) / 2 if positive else 1e-3, 1e-5)
    low = 1.0
    for key, roc in curves.items():
        x, y = log_path(roc.x, roc.y, left)
        ax.plot(x, y, **line_style(styles[key]))
        low = min(low, float(np.max(y[x <= left], initial=y[0])))
    for key, lr in drawn.learners.items():
        at = lr.at
        if _placed(at):
            ax.plot([max(at.fpr, left)], [at.recall], **_deployed(styles[key]["color"]))
            low = min(low, at.recall) if at.fpr >= left else low
    for _, key, op in least:
        ax.plot([max(op.fpr, left)], [op.tpr], **_least_marker(styles[key]["color"]))
    marks = [_deployed_proxy()] if any(_placed(lr.at) for lr in drawn.learners.values()) else []
    if max_fpr is not None and max_fpr > left:
        from matplotlib.patches import Patch

        ax.axvspan(left, max_fpr, color="#8a8a8a", alpha=0.14, linewidth=0, zorder=0)
        marks.append(Patch(color="#8a8a8a", alpha=0.3, linewidth=0,
                           label=f"partial-AUC region (FPR \u2264 {general(max_fpr)})"))
    marks += [proxy(legend_label(label), **_least_marker(styles[key]["color"])) for label, key, _ in least]
    pad = max(0.04 * (1 - low), 0.004)
    from matplotlib.ticker import FuncFormatter, NullFormatter

    ax.set_xscale("log")
    ax.set_xlim(left, 1.0)
    # plain numbers: mathtext is off (names are text), so no '$10^{-2}$'
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: general(v)))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_ylim(max(low - pad, 0.0), 1.0 + pad / 2)
    ax.set_xlabel("False positive rate (log scale; 0 at the left edge)")
    ax.set_ylabel("True positive rate")
    ax.set_title("The top-left corner, FPR on a log scale")
    return marks


def plot_pr(ax, source, *, styles=None, threshold=None, legend=True, title=None):
    """Draw precision-recall curves on ``ax`` as the report does.

    Each learner's curve (straight in count space between its points, as
    interpolation of P-R curves must be), its break-even point (a diamond),
    its deployed threshold (a square), and grey iso-F1 lines.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw.
    source : Result, BinaryEvaluation or mapping
        As for :func:`plot_roc`.
    styles : mapping, optional
        name -> ``color`` and ``linestyle``; default :func:`learner_styles`.
    threshold : float or mapping, optional
        For evaluations: the deployed threshold(s) to mark.
    legend : bool, default True
        Put a legend on ``ax``; the entries are returned either way.
    title : str, optional
        Default the report's.

    Returns
    -------
    list of matplotlib.artist.Artist
        The legend's entries.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from evalreport.metrics import evaluate_binary
    >>> ev = evaluate_binary([0, 1, 1, 1, 0, 0, 1, 1, 0, 0], [10, 9, 8, 7, 6, 5, 4, 3, 2, 1])
    >>> ax = Figure().subplots()
    >>> [h.get_label() for h in plot_pr(ax, {"A": ev})]
    ['A (AP 0.623, BEP 0.600)', 'break-even points (diamonds)']
    """
    drawn = drawn_learners(source, threshold=threshold)
    styles = styles or learner_styles(drawn.learners)
    r = np.linspace(0.001, 1, 400)
    for f in (0.2, 0.4, 0.6, 0.8):
        rr = r[2 * r > f]
        ax.plot(rr, f * rr / (2 * rr - f), color="#c8c8c8", linewidth=0.5, zorder=0)
        ax.annotate(f"F1={f:.1f}", (1.0, f / (2 - f)), fontsize=MIN_TEXT, color="#888888",
                    xytext=(2, 0), textcoords="offset points", va="center")
    ax.plot([0, 1], [0, 1], color="#999999", linewidth=0.8, linestyle=":")
    handles, beps = [], False
    for key, lr in drawn.learners.items():
        pr, st, at = lr.pr, styles[key], lr.at
        ap, bep = lr.summary.average_precision, lr.summary.bep
        parts = [f"AP {value_text(ap)}" if ap is not None else "", f"BEP {value_text(bep)}" if bep is not None else ""]
        parts = ", ".join(p for p in parts if p)
        handles.append(learner_handle(key, st, f"{key} ({parts})" if parts else key, lr.hard or pr is None))
        if pr is not None:
            ax.plot(*pr_path(pr, lr.summary.positives), **line_style(st))
        if at is not None and at.recall is not None and at.precision is not None:
            ax.plot([at.recall], [at.precision], **_deployed(st["color"]))
        if bep is not None and not st.get("muted"):
            beps = True
            ax.plot([bep], [bep], marker="D", markersize=5.5, color=st["color"], linestyle="none", zorder=5,
                    markeredgecolor="white", markeredgewidth=0.6, clip_on=False)
    handles = learner_handles(handles, list(drawn.learners), styles)
    if beps:
        handles.append(proxy("break-even points (diamonds)", marker="D", markersize=5.5, linestyle="none",
                              markeredgecolor="white"))
    if any(lr.at is not None for lr in drawn.learners.values()):
        handles.append(_deployed_proxy())
    unit_axes(ax, "Recall (TPR)", "Precision")
    ax.set_title("P-R curves (grey: iso-F1)" if title is None else title)
    return _finish(ax, handles, legend, "lower left")


def _deployed_cost(at, pc: float) -> float:
    """The deployed threshold's normalised expected cost at PC(+) = ``pc``."""
    return at.fpr + (1 - at.recall - at.fpr) * pc


def drawn_cost_limits(drawn: _Drawn) -> tuple[float, float]:
    """See :func:`evalreport.figures.cost_limits`."""
    top = 0.0
    for lr in drawn.learners.values():
        curve = lr.summary.cost_curve
        if curve is not None and curve.cost.size:
            top = max(top, float(np.nanmax(curve.cost)))
        if _placed(lr.at) and drawn.pc is not None:
            top = max(top, _deployed_cost(lr.at, drawn.pc))
    return 0.0, (top * 1.12 if top > 0 else 0.5)


def plot_cost_curves(ax, source, *, styles=None, threshold=None, pc_positive=None, legend=True,
                     title=None):
    """Draw cost curves (Drummond and Holte) on ``ax`` as the report does.

    Each learner's cost curve (the lower envelope of its ROC hull's cost
    lines, those faintly behind it when there are few), its deployed
    threshold's cost line (dotted) and, at the operating point, its cost (a
    square); for a Result, the least cost at each PC(+) shaded in the colour
    of the learner reaching it.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw.
    source : Result, BinaryEvaluation or mapping
        As for :func:`plot_roc`.
    styles : mapping, optional
        name -> ``color`` and ``linestyle``; default :func:`learner_styles`.
    threshold : float or mapping, optional
        For evaluations: the deployed threshold(s), drawn as cost lines.
    pc_positive : float, optional
        For evaluations: the operating point PC(+) to mark (a Result
        carries its own).
    legend : bool, default True
        Put a legend on ``ax``; the entries are returned either way.
    title : str, optional
        Default the report's.

    Returns
    -------
    list of matplotlib.artist.Artist
        The legend's entries.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from evalreport.metrics import evaluate_binary
    >>> ev = evaluate_binary([0, 1, 1, 1, 0, 0, 1, 1, 0, 0], [10, 9, 8, 7, 6, 5, 4, 3, 2, 1])
    >>> ax = Figure().subplots()
    >>> for h in plot_cost_curves(ax, {"A": ev}, threshold=6.5, pc_positive=0.5):
    ...     print(h.get_label())
    A (expected total cost 0.175)
    deployed thresholds' cost lines
    deployed thresholds (squares)
    """
    drawn = drawn_learners(source, threshold=threshold, pc_positive=pc_positive)
    styles = styles or learner_styles(drawn.learners)
    pc_star = drawn.pc
    for key, lr in drawn.learners.items():
        hull = lr.summary.hull
        if hull is not None and len(hull.fpr) <= 12 and not styles[key].get("muted"):
            # the cost lines of the hull's vertices, faintly: the ones the envelope is made of
            for fpr, tpr in zip(hull.fpr, hull.tpr):
                ax.plot([0, 1], [fpr, 1 - tpr], color=styles[key]["color"], linewidth=0.45,
                        alpha=0.12, zorder=1)
    for iv in drawn.envelope:
        curve = drawn.learners[iv.learner].summary.cost_curve
        xs = np.concatenate(([iv.pc_from], curve.pc[(curve.pc > iv.pc_from) & (curve.pc < iv.pc_to)],
                             [iv.pc_to]))
        ax.fill_between(xs, 0, np.interp(xs, curve.pc, curve.cost),
                        color=styles[iv.learner]["color"], alpha=0.13, linewidth=0, zorder=0)
    handles = []
    for key, lr in drawn.learners.items():
        curve, st, at = lr.summary.cost_curve, styles[key], lr.at
        cost = lr.summary.expected_total_cost
        handles.append(learner_handle(key, st, f"{key} (expected total cost {value_text(cost)})"
                                       if curve is not None and cost is not None else key,
                                       lr.hard or curve is None))
        if curve is not None:
            ax.plot(curve.pc, curve.cost, **line_style(st))
        if _placed(at):
            # the deployed threshold's cost line, FPR at PC(+) = 0 to FNR at 1, and its cost at PC(+)
            ax.plot([0, 1], [at.fpr, 1 - at.recall], color=st["color"], linewidth=0.9,
                    linestyle=(0, (1, 1.2)), alpha=0.9, zorder=2)
            if pc_star is not None:
                ax.plot([pc_star], [_deployed_cost(at, pc_star)], **_deployed(st["color"]))
    handles = learner_handles(handles, list(drawn.learners), styles)
    if drawn.envelope:
        from matplotlib.patches import Patch

        several = len({lr.dataset for lr in drawn.learners.values()}) > 1
        handles.append(Patch(color="#8a8a8a", alpha=0.3, linewidth=0,
                             label="shaded: each data set's least cost at each PC(+)" if several
                             else "shaded: the least cost at each PC(+)"))
    if any(lr.at is not None for lr in drawn.learners.values()):
        handles.append(proxy("deployed thresholds' cost lines", linewidth=0.9,
                              linestyle=(0, (1, 1.2))))
        handles.append(_deployed_proxy())
    if pc_star is not None:
        ax.axvline(pc_star, color="#444444", linewidth=0.9, linestyle=(0, (4, 2)), zorder=2)
        right = pc_star < 0.45  # the label (about 1.7 in) fits right of the line on a half-width figure
        # on a narrow figure (three across) the label is only the value: the caption names the line
        label = ("operating point " if ax.figure.get_figwidth() >= 3 else "") + f"PC(+) = {general(pc_star, 3)}"
        # at the top of the axes, on a white ground: no curve runs through the label
        ax.annotate(label, (pc_star, 1.0), xytext=(4 if right else -4, -2),
                    textcoords="offset points", fontsize=7.5, va="top", ha="left" if right else "right",
                    color="#333333", xycoords=("data", "axes fraction"), zorder=10,
                    bbox=dict(boxstyle="square,pad=0.2", facecolor="white", edgecolor="none", alpha=0.9))
    ax.set_xlim(0, 1)
    ax.set_ylim(*drawn_cost_limits(drawn))
    ax.set_xlabel("Probability cost PC(+)")
    ax.set_ylabel("Normalised expected cost")
    # the shading's key in the legend: in the title it made the title wider than a
    # half-width figure (its ")" was cut)
    ax.set_title("Cost curves" if title is None else title)
    return _finish(ax, handles, legend, "best")  # the curves peak in the middle: no fixed corner is free
