"""The figures (evalreport/figures/: __init__.py, classes.py, text.py): drawn without pyplot, axes fitted to
what they show, alt text that says what a figure shows."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _python(code: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("MPLBACKEND", None)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          check=True, cwd=ROOT).stdout


@pytest.mark.slow
def test_drawing_never_imports_pyplot():
    # pyplot holds a global figure registry and switches the process's backend;
    # the figures are drawn on Figure objects with the SVG backend's canvas
    out = _python(
        "import sys\n"
        "import evalreport.figures.classes as f\n"
        "assert 'matplotlib.pyplot' not in sys.modules\n"
        "svg = f.critical_difference_figure(['a', 'b', 'c'], [1.2, 2.0, 2.8], 1.1, [(0, 2)])\n"
        "assert svg.startswith('<svg')\n"
        "print('matplotlib.pyplot' in sys.modules)\n")
    assert out == "False\n"


import re
from types import SimpleNamespace

import numpy as np

from evalreport.figures import classes as C
from evalreport.figures import text as T
from evalreport import figures as F

HIGH_AUCS = [
    ("AUC", {"logistic": (0.992, (0.981, 1.0)), "tree": (0.947, (0.915, 0.978)), "hard": (None, None)}),
    ("F1", {"logistic": (0.93, (0.89, 0.966)), "tree": (0.86, (0.815, 0.90)), "hard": (0.88, None)}),
]


def test_headline_limits_hold_every_value_and_interval_and_no_more():
    lo, hi = F.scalar_limits(HIGH_AUCS)
    ends = [x for _, row in HIGH_AUCS for v, iv in row.values() for x in (v, *(iv or ())) if x is not None]
    assert lo < min(ends) and hi > max(ends)  # a margin: no dot is cut at the edge
    assert hi - lo < 0.25 and lo > 0.75  # not 0 to 1 when every value is above 0.8
    # nothing to draw: the unit range
    assert F.scalar_limits([("AUC", {"a": (None, None)})]) == (0.0, 1.0)


def _texts(svg: str) -> list[str]:
    return re.findall(r"<text[^>]*>([^<]*)</text>", svg)


@pytest.mark.slow
def test_headline_chart_axis_and_legend():
    result = SimpleNamespace(learners=dict.fromkeys(["logistic", "tree", "hard"]))
    svg = F.scalars_figure(result, F.learner_styles(result.learners), HIGH_AUCS)
    ticks = [float(t) for t in _texts(svg) if re.fullmatch(r"\d\.\d+", t)]
    assert ticks and min(ticks) >= 0.8 and max(ticks) <= 1.0
    # every learner in the legend: 'hard' has no AUC (the first row) but is named
    assert {"logistic", "tree", "hard"} <= set(_texts(svg))
    assert 'aria-label="Headline measures with their confidence intervals: AUC 0.947 to 0.992 ' \
           '(highest: logistic); F1 0.860 to 0.930 (highest: logistic)."' in svg


def test_roc_crowded():
    def curve(x, y):
        return SimpleNamespace(x=np.array(x, float), y=np.array(y, float))

    good = curve([0, 0, 0.05, 1], [0, 0.7, 0.9, 1])
    fair = curve([0, 0.1, 0.5, 1], [0, 0.6, 0.9, 1])
    assert F.roc_crowded([good])
    assert not F.roc_crowded([good, fair])  # one curve far from the corner: no log panel
    assert not F.roc_crowded([])


def test_confusion_alt_names_the_most_frequent_confusion():
    m = np.array([[5, 0, 1], [3, 7, 0], [0, 0, 4]])
    assert T.confusion_alt("knn", ["x", "y", "z"], m) == (
        "Confusion matrix of knn over 3 classes: 80.0% on the diagonal; the most frequent confusion: "
        "y predicted as x (3).")
    # the shares' figure: each true class's share predicted right, x 5/6, y 7/10, z 4/4
    assert T.confusion_shares_alt("knn", ["x", "y", "z"], m) == (
        "Confusion matrix of knn over 3 classes as the share of each true class (rows sum to 1); the share "
        "predicted right: 0.700 for y, the lowest, to 1.00 for z.")
    assert T.confusion_shares_alt("knn", ["x", "y"], np.array([[2, 0], [0, 3]])).endswith("predicted right: 1.00.")


@pytest.fixture(scope="module")
def breast_cancer():
    from evalreport.pipeline import evaluate
    from evalreport.spec import load_spec

    return evaluate(load_spec(ROOT / "examples" / "breast_cancer" / "spec.yaml"))


@pytest.mark.slow
def test_alt_texts_say_what_the_figures_show(breast_cancer):
    styles = F.learner_styles(breast_cancer.learners)
    roc = F.roc_figure(breast_cancer, styles)
    alt = re.search(r'aria-label="([^"]*)"', roc).group(1)
    assert alt.startswith("ROC curves of logistic (AUC 0.992), tree (AUC 0.947), bayes (AUC 0.958) and "
                          "forest (AUC 0.982); logistic&#x27;s envelops tree&#x27;s and bayes&#x27;s; ")
    # the spec's partial AUC (max_fpr 0.1) is shaded
    assert alt.endswith("shaded: the partial-AUC region, FPR up to 0.1.")
    assert "partial-AUC region (FPR \u2264 0.1)" in _texts(roc)
    assert "deployed thresholds (squares)" in _texts(roc)
    # the curves crowd the corner: the corner on a log-FPR scale, a figure of its own with its
    # alt text and its legend (the learners and the marks it draws; no hulls, no iso-cost line)
    corner = F.roc_figure(breast_cancer, styles, log_fpr=True)
    alt = re.search(r'aria-label="([^"]*)"', corner).group(1)
    assert alt == ("The top-left corner of the ROC curves of logistic, tree, bayes and forest, with FPR on a "
                   "log scale, where curves that crowd the corner part. Squares mark the deployed thresholds; "
                   "shaded: the partial-AUC region, FPR up to 0.1.")
    texts = _texts(corner)
    assert {"logistic (AUC 0.992)", "deployed thresholds (squares)", "partial-AUC region (FPR \u2264 0.1)",
            "least cost: logistic"} <= set(texts)
    assert "convex hulls (dashed)" not in texts and not any(t.startswith("iso-cost") for t in texts)
    cost = F.cost_alt(breast_cancer)
    assert "At the operating point, PC(+) = 0.69, logistic has the least cost" in cost


def test_cost_range_fits_the_envelopes(breast_cancer):
    lo, hi = F.cost_limits(breast_cancer)
    tops = [float(lr.summary.cost_curve.cost.max()) for lr in breast_cancer.learners.values()]
    assert lo == 0 and max(tops) < hi < 0.2  # the curves reach about 0.11, not 0.55


#: the width each figure is printed at (templates: four across, beside another, or
#: across the page); the ROC's log-FPR corner, the lift beside the gains
def _print_width(name: str, drawn: float = 0.0) -> float:
    if name.startswith("reliability-"):
        return F.QUARTER_WIDTH
    return F.HALF_WIDTH if name in ("roc", "pr", "cost", "gains", "lift") or name.startswith("roc-") \
        else F.FULL_WIDTH


@pytest.mark.slow
def test_no_text_under_7pt_at_print_size(breast_cancer):
    import dataclasses

    from evalreport.report.context import report_context

    def strings(value):
        if dataclasses.is_dataclass(value):  # the context's typed blocks (report/page.py)
            value = [getattr(value, f.name) for f in dataclasses.fields(value)]
        if isinstance(value, dict):
            value = list(value.values())
        if isinstance(value, (list, tuple)):
            return "".join(strings(v) for v in value)
        return str(value) if isinstance(value, str) else ""

    svgs = re.findall(r"<svg[^>]*>.*?</svg>", strings(report_context(breast_cancer).names()), flags=re.S)
    names = {re.search(r'data-figure="([^"]+)"', svg).group(1) for svg in svgs}
    assert {"roc", "roc-log", "pr", "cost", "scalars", "gains", "lift", "reliability-0"} <= names
    for svg in svgs:
        name = re.search(r'data-figure="([^"]+)"', svg).group(1)
        width = float(re.search(r'viewBox="0 0 ([\d.]+) ', svg).group(1)) / 72  # points
        sizes = [float(s) for s in re.findall(r'font-size="([\d.]+)px"', svg)]
        assert sizes and min(sizes) * _print_width(name, width) / width >= F.MIN_TEXT - 1e-9, name


def _min_print_size(svg: str, print_width: float) -> float:
    width = float(re.search(r'viewBox="0 0 ([\d.]+) ', svg).group(1)) / 72
    return min(float(s) for s in re.findall(r'font-size="([\d.]+)px"', svg)) * print_width / width


@pytest.mark.slow
def test_ten_classes_legible_at_print_size():
    classes = [f"class {i}" for i in range(10)]
    rng = np.random.default_rng(0)
    confusion = rng.integers(0, 2000, (10, 10)).astype(float)
    counts, shares, side = C.confusion_figures("knn", classes, confusion, "confusion-0")
    assert not side  # ten classes: each heatmap across the page, one under the other
    assert _min_print_size(counts, F.FULL_WIDTH) >= F.MIN_TEXT and _min_print_size(shares, F.FULL_WIDTH) >= F.MIN_TEXT
    assert "% of each true class" in shares  # whole percentages, not 0.00 in a small cell
    roc = SimpleNamespace(x=np.array([0, 0.1, 1.0]), y=np.array([0, 0.8, 1.0]))
    curves = {c: SimpleNamespace(roc=roc) for c in classes}
    svg = C.class_roc_figure("knn", curves, dict.fromkeys(classes, 0.9), "roc-0", "#D55E00")
    assert _min_print_size(svg, F.HALF_WIDTH) >= F.MIN_TEXT
    # one small panel per class, each titled with its AUC; the curves in the learner's colour
    assert sum(t.startswith("class ") and t.endswith(" 0.90") for t in _texts(svg)) == 10
    assert 'stroke="#d55e00"' in svg


def test_each_data_set_marks_its_own_least_cost():
    # a learner's least cost is compared with those scored on the same rows only: with a
    # validation set that the thresholds are tuned on and a test set, the ROC figures mark
    # each data set's least-cost point, the winners results.json names per data set, not the
    # validation set's optimistic one as the figure's only least cost (model-risk review)
    import evalreport

    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 300)
    noise = {"a": 0.9, "b": 1.4}
    tables = {}
    for name, shift in (("validation", 0.0), ("test", 0.5)):
        scores = {k: y * 1.5 + rng.normal(0, s + shift * (k == "a"), y.size) for k, s in noise.items()}
        tables[name] = {"y": y, **scores}
    import pyarrow as pa

    spec = {"version": 1, "task": "binary", "positive": 1, "confidence": {"bootstrap": 0},
            "threshold": {"optimal_on": "validation"}, "costs": {"false_negative": 2, "false_positive": 1},
            "data": [{"table": name, "dataset": name, "label": "y", "learners": {"a": "a", "b": "b"}}
                     for name in tables]}
    result = evalreport.evaluate(spec, data={k: pa.table(v) for k, v in tables.items()})
    winners = {c.dataset: c.winner for c in result.comparisons}
    # by hand: each data set's learner of least min_cost
    for dataset, winner in winners.items():
        mine = {k: lr.operating.min_cost for k, lr in result.learners.items() if lr.dataset == dataset}
        assert winner == min(mine, key=mine.get)
    styles = F.learner_styles(result.learners)
    for svg in (F.roc_figure(result, styles), F.roc_figure(result, styles, log_fpr=True)):
        marked = sorted(t for t in _texts(svg) if t.startswith("least cost"))
        assert marked == sorted(f"least cost on {d}: {w}" for d, w in winners.items())
    # and the captions say so (each replaced phrase is found: a reworded caption fails here)
    from evalreport.report.prepared import curve_captions

    one, several = curve_captions(""), curve_captions("", several=True)
    assert all(one[k] != several[k] and "each data set" in several[k] for k in ("roc", "roc_log", "cost"))


def test_cost_alt_text_names_each_data_sets_least_cost():
    result = SimpleNamespace(
        operating_point=SimpleNamespace(pc_positive=0.5), learners={},
        comparisons=[SimpleNamespace(dataset="validation", winner="b@validation", cost_envelope=[]),
                     SimpleNamespace(dataset="test", winner="a@test", cost_envelope=[])])
    assert ("At the operating point, PC(+) = 0.5, the least cost is b@validation's on validation and "
            "a@test's on test;") in F.cost_alt(result)


def test_text_metrics_remembered_across_figures_give_the_same_svg(monkeypatch):
    # figures/canvas.py measures each text for the SVG renderer once per process;
    # matplotlib's own cache (per renderer) must give the same drawing, byte for byte
    import matplotlib.text as mtext

    from evalreport.figures import canvas
    from evalreport.figures.classes import critical_difference_figure

    def draw():
        return critical_difference_figure(["logistic", "tree", "bayes née", "forest"], [1.2, 2.0, 2.8, 3.9],
                                          1.1, [(0, 2)])

    remembered = draw()
    canvas._svg_text_metrics.cache_clear()
    again = draw()  # every text measured afresh, then again from the memo
    assert canvas._svg_text_metrics.cache_info().hits > 0
    monkeypatch.setattr(mtext, "_get_text_metrics_with_cache", mtext._get_text_metrics_with_cache.__wrapped__)
    monkeypatch.setattr(canvas, "remember_svg_text_metrics", lambda: None)
    assert draw() == remembered == again


def test_text_metrics_of_other_renderers_are_matplotlibs_own():
    import matplotlib.text as mtext
    from matplotlib.backends.backend_agg import RendererAgg
    from matplotlib.font_manager import FontProperties

    from evalreport.figures import canvas

    canvas.remember_svg_text_metrics()
    measured = mtext._get_text_metrics_with_cache
    renderer, font = RendererAgg(100, 100, 200), FontProperties(family="DejaVu Sans", size=9)
    before = canvas._svg_text_metrics.cache_info().currsize
    assert measured(renderer, "AUC 0.93", font, False, 200) == measured.__wrapped__(renderer, "AUC 0.93", font,
                                                                                  False, 200)
    assert canvas._svg_text_metrics.cache_info().currsize == before  # not remembered: not an SVG renderer
