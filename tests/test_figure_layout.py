"""Every text of every figure inside the figure, and no axis label over its tick
labels (issue 34): the figures of a binary report with costs (breast_cancer), a
multi-class one (multiclass_folds), twenty learners (experiment_runs: the
leaderboard's band, the heatmaps) and the history's trend, laid out as they are
printed, each text's box measured with matplotlib's renderer after drawing."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
#: a box may touch the figure's edge: a pixel at 100 dpi
SLACK = 1.0


def _drawn_ticks(axis):
    """The tick labels matplotlib draws (not those of ticks outside the view)."""
    return [t.label1 for t in axis._update_ticks() if t.label1.get_visible() and t.label1.get_text()] + \
        [t.label2 for t in axis._update_ticks() if t.label2.get_visible() and t.label2.get_text()]


def _texts(fig):
    """Every text artist drawn: figure texts, legends, titles, axis labels, tick labels, annotations."""
    out = [t for t in fig.texts]
    for legend in fig.legends:
        out += legend.get_texts()
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        out += [ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label, *ax.texts]
        out += _drawn_ticks(ax.xaxis) + _drawn_ticks(ax.yaxis)
        if ax.get_legend() is not None:
            out += ax.get_legend().get_texts()
    for sup in (fig._suptitle, fig._supxlabel, fig._supylabel):
        if sup is not None:
            out.append(sup)
    return [t for t in dict.fromkeys(out) if t.get_visible() and t.get_text().strip()]


def _overlap(a, b) -> float:
    """The area two boxes share, in square pixels."""
    w = min(a.x1, b.x1) - max(a.x0, b.x0)
    h = min(a.y1, b.y1) - max(a.y0, b.y0)
    return max(w, 0.0) * max(h, 0.0)


def check_layout(fig, name: str) -> list[str]:
    """What lies outside ``fig`` or overlaps, as sentences ([] when nothing)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig)
    fig.set_dpi(100)
    renderer = fig.canvas.get_renderer()
    fig.draw(renderer)  # the layout as printed (constrained layout runs here)
    box = fig.bbox
    problems = []
    for t in _texts(fig):
        e = t.get_window_extent(renderer)
        if e.x0 < box.x0 - SLACK or e.y0 < box.y0 - SLACK or e.x1 > box.x1 + SLACK or e.y1 > box.y1 + SLACK:
            problems.append(f"{name}: {t.get_text()!r} at {e.bounds} outside {box.bounds}")
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        for axis in (ax.xaxis, ax.yaxis):
            label = axis.label
            if not label.get_visible() or not label.get_text():
                continue
            le = label.get_window_extent(renderer)
            for tick in _drawn_ticks(axis):
                if _overlap(le, tick.get_window_extent(renderer)) > 1.0:
                    problems.append(f"{name}: axis label {label.get_text()!r} over tick label {tick.get_text()!r}")
    return problems


@pytest.fixture
def captured(monkeypatch):
    """Every figure drawn while the fixture lives, as (name, Figure)."""
    from evalreport import figures
    from evalreport.figures import classes, history, pairs, runs, svg

    seen = []
    real = svg.to_svg

    def keep(fig, name, alt, natural=False):
        seen.append((name, fig))
        return real(fig, name, alt, natural=natural)

    for module in (figures, classes, pairs, runs, history):
        monkeypatch.setattr(module, "to_svg", keep)
    return seen


def _report_figures(example: str, captured):
    from evalreport.pipeline import evaluate
    from evalreport.report.context import report_context
    from evalreport.spec import load_spec

    report_context(evaluate(load_spec(ROOT / "examples" / example / "spec.yaml")))
    return list(captured)


@pytest.mark.parametrize("example,expected", [
    ("breast_cancer", {"roc", "roc-log", "pr", "cost", "scalars", "gains", "lift", "reliability-0"}),
    ("multiclass_folds", {"confusion-0", "confusion-0-shares", "roc-0", "scalars", "class-scores"}),
    ("experiment_runs", {"roc-band", "envelopment-map-0", "tests-map-0", "cost"}),
])
@pytest.mark.slow
def test_every_text_inside_its_figure(example, expected, captured):
    drawn = _report_figures(example, captured)
    assert expected <= {name for name, _ in drawn}
    problems = [p for name, fig in drawn for p in check_layout(fig, name)]
    assert problems == []


@pytest.mark.slow
def test_the_trend_figure_inside(captured):
    from evalreport.figures.history import trend_figure
    from evalreport.figures.plots import learner_styles

    rng = np.random.default_rng(3)
    keys = ["logistic", "forest"]
    runs = [{"date": f"2026-{m:02d}-0{d}", "values": {k: {"auc": 0.8 + 0.1 * rng.random(), "auc_ci": [0.7, 0.95],
                                                          "f1": 0.6 + 0.1 * rng.random()} for k in keys}}
            for m in range(1, 7) for d in (1, 8)]
    trend_figure(runs, ["auc", "f1"], keys, learner_styles(keys),
                 {"auc": [(0.75, "gate: auc >= 0.75")], "f1": [(0.62, "max drop 0.05", (10, 11))]})
    (name, fig), = captured
    assert check_layout(fig, name) == []


def test_the_check_finds_a_title_cut_and_a_label_over_the_ticks():
    # the check itself: a title wider than its figure, and a y label moved onto the tick labels
    from evalreport.figures.canvas import new_figure

    fig = new_figure((2.0, 2.0))
    ax = fig.subplots()
    ax.set_title("a title much wider than the two inches of this figure")
    ax.set_ylim(0, 1000)
    ax.set_ylabel("value")
    ax.yaxis.set_label_coords(-0.08, 0.5)
    problems = check_layout(fig, "f")
    assert any("outside" in p and "a title" in p for p in problems)
    assert any("axis label 'value' over tick label" in p for p in problems)


@pytest.mark.slow
def test_the_figures_of_many_classes_and_ranks_inside(captured):
    from types import SimpleNamespace

    from evalreport.figures.classes import class_roc_figure, confusion_figures, critical_difference_figure
    from evalreport.figures.pairs import significance_heatmap

    rng = np.random.default_rng(0)
    roc = SimpleNamespace(x=np.array([0, 0.1, 1.0]), y=np.array([0, 0.8, 1.0]))
    for k in (2, 3, 6, 10):
        classes = [f"class number {i}" for i in range(k)]
        confusion_figures("gradient boosting", classes, rng.integers(0, 20000, (k, k)).astype(float), f"c{k}")
        class_roc_figure("knn", {c: SimpleNamespace(roc=roc) for c in classes}, dict.fromkeys(classes, 0.9),
                         f"r{k}", "#0072B2")
    critical_difference_figure([f"learner {i}" for i in range(7)], list(np.linspace(1.5, 6.2, 7)), 2.1,
                               [(0, 6), (1, 6)])
    names = [f"C{i}_seed{j}" for i in range(12) for j in range(4)]
    cells = {(a, b): (float(rng.random()), bool(rng.random() < 0.5)) for i, a in enumerate(names)
             for b in names[i + 1:]}
    significance_heatmap(names, cells, 0.05, "AUC (DeLong) above, decisions (McNemar) below", "t", "tests",
                         lower=cells)
    problems = [p for name, fig in captured for p in check_layout(fig, name)]
    assert len(captured) == 14 and problems == []
