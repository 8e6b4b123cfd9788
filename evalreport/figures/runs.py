"""Figures of many runs: the best few drawn, the rest as a band.

Past a handful of learners (report/summary.py) the ROC figure draws only the
top ones; the others vanish from the picture. This figure puts them back as a
summary: on a common grid of false positive rates, the spread of the other
learners' true positive rates (the middle 80 % of them, and their least and
greatest) as grey bands under the curves of the learners drawn. A reader sees at
once whether the top runs stand out from the crowd or sit inside it. Plots take
results and never compute a measure: the band is read off the learners' ROC
curves as the engine computed them (through the points the report keeps).
"""

from __future__ import annotations

import numpy as np

from .canvas import FULL_WIDTH, legend_below, new_figure, rc_context
from .svg import to_svg
from .paths import log_path
from .plots import learner_handle, line_style, thin, unit_axes, value_text
from ..words import general

__all__ = ["tpr_on_grid", "roc_band", "roc_band_figure", "GRID"]

#: the common FPR grid of the band: fine near 0, where good classifiers differ
GRID = np.unique(np.concatenate([np.linspace(0.0, 1.0, 201), np.geomspace(1e-4, 0.05, 60)]))


def tpr_on_grid(fpr: np.ndarray, tpr: np.ndarray, grid: np.ndarray = GRID) -> np.ndarray:
    """The ROC curve's TPR at each FPR of ``grid``, by the straight lines between
    its vertices (the curve the report draws); where the curve rises straight up
    at one FPR, the top of the rise."""
    fpr, tpr = np.asarray(fpr, float), np.asarray(tpr, float)
    order = np.lexsort((tpr, fpr))
    fpr, tpr = fpr[order], tpr[order]
    # of the vertices at one FPR, the last (the highest): np.interp then takes the
    # top of a vertical rise at exactly that FPR, and the line from it after
    last = np.r_[fpr[1:] != fpr[:-1], True]
    return np.interp(grid, fpr[last], tpr[last], left=tpr[last][0], right=tpr[last][-1])


def roc_band(curves: list[tuple[np.ndarray, np.ndarray]], grid: np.ndarray = GRID) -> dict | None:
    """The spread of the curves' TPR at each FPR of the grid: {"grid", "low", "high"
    (least and greatest), "p10", "p90" (10th and 90th percentiles)}; None without curves."""
    if not curves:
        return None
    tprs = np.vstack([tpr_on_grid(x, y, grid) for x, y in curves])
    return {"grid": grid, "low": tprs.min(axis=0), "high": tprs.max(axis=0),
            "p10": np.percentile(tprs, 10, axis=0), "p90": np.percentile(tprs, 90, axis=0)}


def roc_band_figure(result, shown: list[str], styles: dict) -> tuple[str, str]:
    """The ROC curves of the ``shown`` learners over the band of the others' ("", "")
    when no other learner has a curve. Returns (SVG, caption)."""
    from matplotlib.patches import Patch
    from matplotlib.ticker import FuncFormatter, NullFormatter

    rest = [k for k, lr in result.learners.items() if k not in shown and lr.curves.roc is not None]
    band = roc_band([(result.learners[k].curves.roc.x, result.learners[k].curves.roc.y) for k in rest])
    if band is None:
        return "", ""
    n = len(rest)
    with rc_context():
        # the page's width: the whole curves (left) and their top-left corner with FPR on a
        # log scale (right), where runs of one model part; half the width left the rest empty
        fig = new_figure((FULL_WIDTH, 3.3), layout="constrained")
        ax, corner = fig.subplots(1, 2)
        positive = [float(result.learners[k].curves.roc.x[result.learners[k].curves.roc.x > 0].min())
                    for k in shown + rest if result.learners[k].curves.roc is not None
                    and np.any(result.learners[k].curves.roc.x > 0)]
        left = max(min(positive) / 2 if positive else 1e-3, float(GRID[GRID > 0][0]))
        on_log = band["grid"] >= left
        for panel, where in ((ax, slice(None)), (corner, on_log)):
            panel.plot([0, 1], [0, 1], color="#999999", linewidth=0.8, linestyle=":")
            panel.fill_between(band["grid"][where], band["low"][where], band["high"][where], color="#d9d9d9",
                               linewidth=0, zorder=1)
            panel.fill_between(band["grid"][where], band["p10"][where], band["p90"][where], color="#a6a6a6",
                               linewidth=0, zorder=1.5)
        handles = []
        low = 1.0
        for key in shown:
            lr = result.learners[key]
            st, roc = styles[key], lr.curves.roc
            auc = lr.summary.auc
            handles.append(learner_handle(key, st, f"{key} (AUC {value_text(auc)})" if roc is not None and auc is not None
                                           else key, lr.hard or roc is None))
            if roc is not None:
                ax.plot(*thin(roc.x, roc.y), **line_style(st))
                x, y = log_path(roc.x, roc.y, left)
                corner.plot(x, y, **line_style(st))
                low = min(low, float(np.max(y[x <= left], initial=y[0])))
        low = min(low, float(band["low"][on_log][0]))
        handles += [Patch(color="#a6a6a6", linewidth=0, label=f"other {n}: 10–90%"),
                    Patch(color="#d9d9d9", linewidth=0, label=f"other {n}: min–max")]
        unit_axes(ax, "False positive rate (FPR)", "True positive rate (TPR = recall)")
        ax.set_title(f"ROC: {len(shown)} learner{'s' if len(shown) > 1 else ''} over the other {n}")
        corner.set_xscale("log")
        corner.set_xlim(left, 1.0)
        corner.xaxis.set_major_formatter(FuncFormatter(lambda v, _: general(v)))
        corner.xaxis.set_minor_formatter(NullFormatter())
        pad = max(0.04 * (1 - low), 0.004)
        corner.set_ylim(max(low - pad, 0.0), 1.0 + pad / 2)
        corner.set_xlabel("False positive rate (log scale)")
        corner.set_ylabel("True positive rate")
        corner.set_title("The top-left corner, FPR on a log scale")
        legend_below(fig, [ax], handles, [h.get_label() for h in handles], width=FULL_WIDTH)
        inside = _inside(result, shown, band)
        alt = (f"ROC curves of {', '.join(shown)} over grey bands: the spread of the true positive rates of the "
               f"other {n} learners at each false positive rate; right, the same with the false positive rate on "
               f"a log scale. {inside}")
        svg = to_svg(fig, "roc-band", alt)
    caption = (f"ROC curves of the {len(shown)} learners the figures draw in colour, over the spread of the other {n}"
               " (right: the top-left corner, the false positive rate on a log scale): "
               "at each false positive rate, the dark band holds the middle 80% of their true positive rates "
               f"(10th to 90th percentile), the light band the least to the greatest. {inside}")
    return svg, caption


def _inside(result, shown: list[str], band: dict) -> str:
    """Which drawn learners lie above the others' greatest TPR at every FPR (a
    sentence; "" when none does)."""
    above = []
    for key in shown:
        roc = result.learners[key].curves.roc
        if roc is None:
            continue
        if np.all(tpr_on_grid(roc.x, roc.y, band["grid"]) >= band["high"] - 1e-12):
            above.append(key)
    if not above:
        return ""
    who = above[0] if len(above) == 1 else ", ".join(above[:-1]) + " and " + above[-1]
    return f"{who} {'is' if len(above) == 1 else 'are'} at least as high as every other learner at every FPR drawn."
