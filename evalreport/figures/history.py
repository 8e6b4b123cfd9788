"""The trend of the kept runs (results.json ``history.runs``) as small multiples:
one panel per headline measure, each learner's value per run with its interval as
an error bar, and the gates' bounds as dashed lines. Drawn as evalreport.figures
draws (matplotlib's object API, no pyplot; deterministic SVG). Plots what the runs
computed and computes no measure.
"""

from __future__ import annotations

import math

from .. import registry
from .text import legend_label
from .canvas import FULL_WIDTH, legend_below, new_figure, rc_context
from .styles import muted_handle, proxy
from .svg import to_svg
from ..words import and_join, general

__all__ = ["trend_figure", "trend_alt"]

#: most date labels under a panel (the rest of the runs are drawn, not labelled)
_MOST_TICKS = 8


def _series(runs: list[dict], key: str, measure: str):
    """(run index, value, (lo, hi) or None) of one learner's measure over the runs."""
    out = []
    for i, run in enumerate(runs):
        values = (run.get("values") or {}).get(key) or {}
        v = values.get(measure)
        if v is not None:
            out.append((i, float(v), values.get(f"{measure}_ci")))
    return out


def trend_alt(runs: list[dict], measures: list[str], keys: list[str], bounds: dict) -> str:
    """What the trend figure shows, in sentences: the runs, each learner's first
    and last value of each measure, the bounds drawn."""
    first, last = runs[0]["date"], runs[-1]["date"]
    parts = []
    for m in measures:
        label = registry.get(m).label
        said = []
        for k in keys:
            s = _series(runs, k, m)
            if s:
                said.append(f"{k} {general(s[0][1], 3)} to {general(s[-1][1], 3)}" if len(s) > 1
                            else f"{k} {general(s[0][1], 3)}")
        if said:
            parts.append(f"{label}: {and_join(said)}")
    text = f"Trend over {len(runs)} run{'s' if len(runs) != 1 else ''} from {first} to {last}; " + "; ".join(parts)
    if any(bounds.get(m) for m in measures):
        text += ". Dashed lines: the gates' bounds"
    return text + ". Error bars: confidence intervals where computed."


def trend_figure(runs: list[dict], measures: list[str], keys: list[str], styles: dict,
                 bounds: dict | None = None) -> str:
    """Small multiples of ``measures`` (registry names) over ``runs`` (results.json
    ``history.runs``, oldest first) for learners ``keys`` (their ``styles``: colour and
    dash, as in every figure). ``bounds``: measure -> [(value, label)] or
    [(value, label, (x0, x1))], the gates' bounds, drawn as dashed lines across the
    runs, or from run x0 to run x1 (the least a max_drop gate lets the current run
    reach). SVG text."""
    bounds = bounds or {}
    ncols = 2 if len(measures) > 1 else 1
    nrows = math.ceil(len(measures) / ncols)
    dates = [r["date"] for r in runs]
    step = max(1, math.ceil(len(dates) / _MOST_TICKS))
    ticks = list(range(0, len(dates), step))
    if ticks[-1] != len(dates) - 1:
        ticks.append(len(dates) - 1)  # the current run is always labelled
    spread = 0.25 / max(1, len(keys))  # learners side by side at a run: their bars do not overlap
    with rc_context():
        fig = new_figure((FULL_WIDTH, 1.85 * nrows + 0.55), layout="constrained")
        axes = fig.subplots(nrows, ncols, squeeze=False).ravel()
        for ax, m in zip(axes, measures):
            for j, k in enumerate(keys):
                s = _series(runs, k, m)
                if not s:
                    continue
                dx = (j - (len(keys) - 1) / 2) * spread
                xs = [i + dx for i, _, _ in s]
                ys = [v for _, v, _ in s]
                low = [v - ci[0] if ci else 0.0 for _, v, ci in s]
                high = [ci[1] - v if ci else 0.0 for _, v, ci in s]
                st = styles[k]
                muted = st.get("muted")  # grey, thin and behind: not the leader, deployed or a challenger
                ax.errorbar(xs, ys, yerr=[low, high], color=st["color"], linestyle=st["linestyle"],
                            linewidth=0.8 if muted else 1.2, marker=st.get("marker", "o"),
                            markersize=2.5 if muted else 3.5, capsize=2, elinewidth=0.6 if muted else 0.8,
                            zorder=1.5 if muted else 2)
            for bound in bounds.get(m, []):
                value, label = bound[0], bound[1]
                span = bound[2] if len(bound) > 2 else None
                if span is None:  # a bound on the value: every run
                    ax.axhline(value, color="#444444", linestyle=(0, (4, 3)), linewidth=0.9)
                    ax.annotate(label, (0.01, value), xycoords=("axes fraction", "data"), ha="left",
                                va="bottom", fontsize=7, color="#444444")
                else:  # a bound on the change: from the previous run to this one
                    ax.plot(span, [value, value], color="#444444", linestyle=(0, (2, 2)), linewidth=0.9)
                    ax.annotate(label, (span[1], value), ha="right", va="top", fontsize=7, color="#444444",
                                xytext=(0, -2), textcoords="offset points")
            measure = registry.get(m)
            better = {"higher": " (higher is better)", "lower": " (lower is better)"}.get(measure.direction, "")
            ax.set_title(measure.label + better, loc="left")
            ax.set_xticks(ticks)
            ax.set_xticklabels([dates[i] for i in ticks], rotation=20, ha="right")
            ax.set_xlim(-0.5, len(dates) - 0.5)
            ax.grid(axis="x", visible=False)
        for ax in axes[len(measures):]:
            ax.set_visible(False)
        # every learner, whether or not it has a value in every panel
        handles = [proxy(legend_label(k), color=styles[k]["color"], linestyle=styles[k]["linestyle"],
                          marker=styles[k].get("marker", "o"), markersize=3.5) for k in keys
                   if not styles[k].get("muted")]
        grey = muted_handle(keys, styles)
        handles += [grey] if grey is not None else []
        legend_below(fig, axes, handles, [h.get_label() for h in handles], width=FULL_WIDTH)
        return to_svg(fig, "trend", trend_alt(runs, measures, keys, bounds))
