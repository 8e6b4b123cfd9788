"""A result in a notebook: to_dict (results.json), the frames, the reprs."""

from __future__ import annotations

import builtins
import json
import pickle
from pathlib import Path

import pytest

import evalreport
from evalreport.report import json_text

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "watermelon" / "spec.yaml"


@pytest.fixture(scope="module")
def result():
    # the full result (intervals computed): page one is its _repr_html_ (a deferred
    # result's point values before: test_deferred.py)
    return evalreport.evaluate(EXAMPLE).with_intervals()


@pytest.mark.slow
def test_to_dict_is_results_json(result, tmp_path):
    written = evalreport.render(result, out=tmp_path / "r", formats=["json"])
    assert result.to_dict() == json.loads(written["json"].read_text(encoding="utf-8"))
    assert result.to_dict() == json.loads(json_text(result))


def test_to_frame_holds_the_measures(result):
    import pandas  # noqa: F401
    frame = result.to_frame()
    assert list(frame.index) == ["A", "B"] and frame.index.name == "learner"
    assert frame.loc["A", "auc"] == pytest.approx(0.64) and frame.loc["B", "auc"] == pytest.approx(0.32)
    assert frame.loc["A", "accuracy"] == result.to_dict()["learners"]["A"]["accuracy"]
    assert frame.dtypes.unique().tolist() == [float]  # undefined: NaN, not None


def test_comparisons_frame(result):
    import pandas  # noqa: F401
    frame = result.comparisons_frame()
    delong = frame[frame["test"] == "delong"].iloc[0]
    expected = result.to_dict()["comparisons"]["delong"][0]
    assert (delong["a"], delong["b"]) == ("A", "B")
    assert delong["p_value"] == expected["p_value"]
    assert set(frame["test"]) == {"envelopment", "delong", "mcnemar"}


def test_without_pandas_a_clear_error(result, monkeypatch):
    real = builtins.__import__

    def no_pandas(name, *args, **kwargs):
        if name == "pandas" or name.startswith("pandas."):
            raise ImportError("No module named 'pandas'")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pandas)
    for view in (result.to_frame, result.comparisons_frame):
        with pytest.raises(ImportError) as exc:
            view()
        assert isinstance(exc.value, evalreport.EvalReportError)
        assert exc.value.problems == ["a table as a DataFrame needs pandas: pip install evalreport[notebook] "
                                      "(or pip install pandas)"]


def test_repr_is_short(result):
    text = repr(result)
    assert text.splitlines()[0] == ("<evalreport.Result 'Watermelons: learner A against learner B': binary, "
                                    "2 learner(s) (A, B)>")
    assert text.splitlines()[1].startswith("Not assessed. The status is the worst of the learners'")
    assert "deploy " not in text.replace("deployed", "")
    assert len(text.splitlines()) == 2 and "DataSource" not in text


def test_a_result_still_pickles(result):
    again = pickle.loads(pickle.dumps(result))
    assert again.to_dict() == result.to_dict()


#: the namespaces an inline SVG declares (names, never fetched)
_NAMESPACES = ('xmlns="http://www.w3.org/2000/svg"', 'xmlns:xlink="http://www.w3.org/1999/xlink"')


@pytest.mark.slow
def test_repr_html_is_page_one_inline(result):
    import re

    from evalreport.report.context import report_context

    html = result._repr_html_()
    assert html.startswith('<div class="evalreport-notebook">') and "<html" not in html
    # the report's verdict section: its recommendation, gates, headline table and chart
    assert '<section id="verdict"' in html
    assert result.verdict.status in html and "Verdict" in html
    assert "No gates were set." in html and '<table class="measures headline">' in html
    assert str(report_context(result).figures["scalars"]) in html
    assert html.count("<svg") == 1 and 'data-figure="scalars"' in html
    # nothing fetched: no link, no source, no URL but the SVG namespaces' names
    bare = html
    for name in _NAMESPACES:
        bare = bare.replace(name, "")
    assert "http" not in bare and "src=" not in bare and "<link" not in bare and "@import" not in bare
    # (an SVG's href and url() point inside it: a clip path, a marker)
    assert not re.search(r"href=\"(?!#)", bare) and not re.search(r"url\((?!#)", bare)


@pytest.mark.slow
def test_repr_html_shows_failed_gates(tmp_path):
    import yaml

    spec = yaml.safe_load(EXAMPLE.read_text())
    spec["data"][0]["path"] = str(EXAMPLE.parent / "predictions.csv")
    spec["gates"] = [{"metric": "auc", "min": 0.5}]
    html = evalreport.evaluate(spec).with_intervals()._repr_html_()
    assert '<li class="finding-high">' in html and "Gate failed: " in html
    assert '<div class="gates failed">' in html and "1 failed, 1 inconclusive" in html


def _no_external_reference(html: str) -> None:
    """Nothing fetched: no URL but the SVG namespaces' names, no link, no source."""
    import re

    bare = html
    for name in _NAMESPACES:
        bare = bare.replace(name, "")
    assert "http" not in bare and "src=" not in bare and "<link" not in bare and "@import" not in bare
    assert not re.search(r"href=\"(?!#)", bare) and not re.search(r"url\((?!#)", bare)


# ---- the plot helpers (evalreport.figures.plots): the report's own drawing, on any Axes

TEN = ([0, 1, 1, 1, 0, 0, 1, 1, 0, 0], [10, 9, 8, 7, 6, 5, 4, 3, 2, 1])


def _axes():
    from matplotlib.figure import Figure

    return Figure().subplots()


def test_the_report_draws_with_the_plot_helpers(result, monkeypatch):
    from evalreport import figures
    from evalreport.figures import plots

    calls = []
    for name in ("plot_roc", "plot_pr", "plot_cost_curves"):
        real = getattr(plots, name)

        def spy(ax, source, *args, _real=real, _name=name, **kwargs):
            calls.append((_name, source, kwargs.get("log_fpr", False)))
            return _real(ax, source, *args, **kwargs)

        monkeypatch.setattr(figures, name, spy)
    figures.figures(result, [])
    assert calls == [("plot_roc", result, False), ("plot_pr", result, False), ("plot_cost_curves", result, False)]


def test_plot_roc_of_a_result_draws_every_learner_as_the_report(result):
    ax = _axes()
    labels = [h.get_label() for h in evalreport.plot_roc(ax, result)]
    assert labels[:2] == ["A (AUC 0.640)", "B (AUC 0.320)"]
    assert "deployed thresholds (squares)" in labels
    assert ax.get_title() == "ROC curves" and ax.get_legend() is not None
    curves = [line for line in ax.get_lines() if len(line.get_xdata()) > 2]
    roc = result.learners["A"].curves.roc
    assert any(list(line.get_xdata()) == list(roc.x) and list(line.get_ydata()) == list(roc.y)
               for line in curves)


def test_plot_helpers_on_an_evaluation():
    from evalreport.metrics import evaluate_binary

    ev = evaluate_binary(*TEN)
    ax = _axes()
    labels = [h.get_label() for h in evalreport.plot_pr(ax, {"A": ev}, threshold=6.5, legend=False)]
    assert labels == ["A (AP 0.623, BEP 0.600)", "break-even points (diamonds)", "deployed thresholds (squares)"]
    assert ax.get_legend() is None
    at = ev.at_threshold(6.5)
    assert any(list(line.get_xdata()) == [at.recall] and list(line.get_ydata()) == [at.precision]
               for line in ax.get_lines())
    ax = _axes()
    evalreport.plot_cost_curves(ax, ev, title="mine")
    assert ax.get_title() == "mine"
    (line,) = [line for line in ax.get_lines() if len(line.get_xdata()) == ev.cost_curve.pc.size]
    assert list(line.get_ydata()) == list(ev.cost_curve.cost)


def test_plot_helpers_refuse_what_they_cannot_draw():
    spec = evalreport.load_spec(EXAMPLE.parent.parent / "multiclass_folds" / "spec.yaml")
    multiclass = evalreport.evaluate(spec)
    with pytest.raises(TypeError, match="these plots draw binary tasks; this Result is of a multi-class task"):
        evalreport.plot_roc(_axes(), multiclass)
    with pytest.raises(TypeError, match="cannot draw list: give a BinaryEvaluation"):
        evalreport.plot_pr(_axes(), [1, 2])


def test_import_evalreport_stays_light():
    import subprocess
    import sys

    code = ("import sys, evalreport, evalreport.metrics as m\n"
            "ev = m.evaluate_binary([0, 1], [0.2, 0.7]); repr(ev)\n"
            "print('matplotlib' in sys.modules, 'evalreport.figures.plots' in sys.modules)\n"
            "evalreport.plot_roc\n"
            "print('evalreport.figures.plots' in sys.modules, 'matplotlib' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(evalreport.__file__).parent.parent).stdout
    assert out.split() == ["False", "False", "True", "False"]
    assert evalreport.plot_roc is __import__("evalreport.figures.plots").figures.plots.plot_roc


# ---- a BinaryEvaluation shows itself

def test_binary_evaluation_repr_is_short():
    from evalreport.metrics import evaluate_binary

    assert repr(evaluate_binary(*TEN)) == ("<BinaryEvaluation: 10 rows, 5 positive, 5 negative; AUC 0.640, "
                                           "rank loss 0.360, AP 0.623, BEP 0.600, expected total cost 0.175>")
    assert repr(evaluate_binary([1, 1, 0], [3, 2, 1], sample_weight=[0.5, 1, 0])) == (
        "<BinaryEvaluation: 3 rows, 1.5 positive, 0 negative; AUC undefined, rank loss undefined, AP 1.000, "
        "BEP 1.000, expected total cost undefined (undefined: the negatives weigh 0 in total "
        "(only one class carries weight))>")


@pytest.mark.slow
def test_binary_evaluation_html_holds_its_scalars_and_an_inline_figure():
    from evalreport.metrics import evaluate_binary

    ev = evaluate_binary(*TEN)
    html = ev._repr_html_()
    assert html.startswith('<div class="evalreport-evaluation">')
    assert "<tr><th>AUC</th><td>0.6400</td></tr>" in html and "<tr><th>positives</th><td>5</td></tr>" in html
    assert html.count("<svg") == 1 and 'aria-label="ROC curve (AUC 0.640), P-R curve (AP 0.623)' in html
    _no_external_reference(html)
    # two figures in one page: their ids differ
    again = ev._repr_html_()
    assert again.split('data-figure="', 1)[1].split('"')[0] != html.split('data-figure="', 1)[1].split('"')[0]
    # one class: the scalars say why they are undefined, and no figure
    one = evaluate_binary([1, 1, 1], [1, 2, 3])._repr_html_()
    assert "<svg" not in one
    assert ('<tr><th>AUC</th><td title="there are no negatives (only one class in y_true)">undefined '
            "(there are no negatives (only one class in y_true))</td></tr>") in one


def test_a_reduced_evaluation_has_the_short_repr_too():
    from evalreport.metrics import evaluate_reduced, reduce_count_stream

    chunks = [([0.9, 0.8, 0.7], [1, 1, 0], [0, 0, 1]), ([0.4, 0.3, 0.1], [1, 0, 0], [0, 1, 1])]
    out = reduce_count_stream(chunks, positives=3, negatives=3, keep_thresholds=[0.7], cap=2)
    assert repr(evaluate_reduced(out.table, out.reduction)) == (
        "<ReducedEvaluation: 6 rows, 3 positive, 3 negative; AUC 0.889, rank loss 0.111, AP 0.917, "
        "BEP 0.667, expected total cost 0.083>")
