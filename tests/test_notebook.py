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
    return evalreport.evaluate(EXAMPLE)


def test_to_dict_is_results_json(result, tmp_path):
    written = evalreport.render(result, out=tmp_path / "r", formats=["json"])
    assert result.to_dict() == json.loads(written["json"].read_text(encoding="utf-8"))
    assert result.to_dict() == json.loads(json_text(result))


def test_to_frame_holds_the_measures(result):
    pytest.importorskip("pandas")
    frame = result.to_frame()
    assert list(frame.index) == ["A", "B"] and frame.index.name == "learner"
    assert frame.loc["A", "auc"] == pytest.approx(0.64) and frame.loc["B", "auc"] == pytest.approx(0.32)
    assert frame.loc["A", "accuracy"] == result.to_dict()["learners"]["A"]["accuracy"]
    assert frame.dtypes.unique().tolist() == [float]  # undefined: NaN, not None


def test_comparisons_frame(result):
    pytest.importorskip("pandas")
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
    assert text.splitlines()[1].startswith("At the data's class share and the stated costs, deploy A at "
                                           "threshold 0.7")
    assert len(text.splitlines()) == 2 and "DataSource" not in text


def test_a_result_still_pickles(result):
    again = pickle.loads(pickle.dumps(result))
    assert again.to_dict() == result.to_dict()


#: the namespaces an inline SVG declares (names, never fetched)
_NAMESPACES = ('xmlns="http://www.w3.org/2000/svg"', 'xmlns:xlink="http://www.w3.org/1999/xlink"')


def test_repr_html_is_page_one_inline(result):
    import re

    from evalreport.report.context import report_context
    from evalreport.report.verdicts import recommendation

    html = result._repr_html_()
    assert html.startswith('<div class="evalreport-notebook">') and "<html" not in html
    # the report's verdict section: its recommendation, gates, headline table and chart
    assert '<section id="verdict"' in html
    assert recommendation(result).replace("'", "&#39;") in html
    assert "No gates were set." in html and '<table class="measures headline">' in html
    assert str(report_context(result)["figures"]["scalars"]) in html
    assert html.count("<svg") == 1 and 'data-figure="scalars"' in html
    # nothing fetched: no link, no source, no URL but the SVG namespaces' names
    bare = html
    for name in _NAMESPACES:
        bare = bare.replace(name, "")
    assert "http" not in bare and "src=" not in bare and "<link" not in bare and "@import" not in bare
    # (an SVG's href and url() point inside it: a clip path, a marker)
    assert not re.search(r"href=\"(?!#)", bare) and not re.search(r"url\((?!#)", bare)


def test_repr_html_shows_failed_gates(tmp_path):
    import yaml

    spec = yaml.safe_load(EXAMPLE.read_text())
    spec["data"][0]["path"] = str(EXAMPLE.parent / "predictions.csv")
    spec["gates"] = [{"metric": "auc", "min": 0.5}]
    html = evalreport.evaluate(spec)._repr_html_()
    assert '<li class="fail">' in html and '<li class="pass">' in html
    assert '<div class="gates failed">' in html
