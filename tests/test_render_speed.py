"""What a small run imports and draws: start-up cost is most of a small
report's time (bench/render.py), so a run loads only what its formats need."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _modules_after_run(tmp_path, example: str, formats: str) -> set[str]:
    code = (
        "import sys\n"
        "from evalreport.__main__ import main\n"
        f"main(['run', {str(ROOT / 'examples' / example / 'spec.yaml')!r}, '--out', {str(tmp_path / 'out')!r},"
        f" '--format', {formats!r}, '--quiet'])\n"
        "print('\\n'.join(sorted(sys.modules)))\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT), MPLBACKEND="Agg")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    return set(proc.stdout.split())


@pytest.mark.slow
def test_reading_a_small_csv_does_not_import_pandas(tmp_path):
    # pyarrow imports pandas on to_numpy() and on any Python value made an Arrow scalar
    for example in ("watermelon", "breast_cancer"):  # text ids, number ids
        assert "pandas" not in _modules_after_run(tmp_path, example, "json")


@pytest.mark.slow
def test_a_json_only_run_imports_no_matplotlib_and_lists_the_same_warnings(tmp_path):
    """A JSON-only run draws no figure (no dry pass either): matplotlib, Jinja and
    WeasyPrint are never imported, and its results.json is the one a run with the
    HTML writes (the figures' warnings are the report's)."""
    import subprocess
    import sys

    from test_warnings_and_redaction import BINARY_CSV, CJK_SPEC, GLYPH, _report_warnings, _run, _write

    spec = _write(tmp_path, CJK_SPEC, **{"pred.csv": BINARY_CSV})
    code = ("import sys; from evalreport.__main__ import main; "
            f"main(['run', {str(spec)!r}, '--format', 'json', '--out', {str(tmp_path / 'alone')!r}, '--quiet']); "
            "print(sorted(m for m in ('matplotlib', 'jinja2', 'weasyprint') if m in sys.modules))")
    imported = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                              cwd=Path(__file__).resolve().parents[1]).stdout.strip()
    assert imported == "[]"
    _, alone, _ = _run(spec, "json")
    _, with_html, page = _run(spec, "json,html")
    assert with_html == alone and GLYPH in _report_warnings(page) and GLYPH not in alone["warnings"]


@pytest.mark.slow
def test_what_laying_out_raises_is_listed_by_the_report_not_results_json(tmp_path, monkeypatch):
    import warnings

    from matplotlib.figure import Figure

    from test_warnings_and_redaction import BINARY_CSV, CJK_SPEC, _report_warnings, _run, _write

    spec = _write(tmp_path, CJK_SPEC.replace("{模型: a, b: b}", "{a: a, b: b}"), **{"pred.csv": BINARY_CSV})
    savefig = Figure.savefig

    def warning_savefig(self, *a, **k):
        warnings.warn("constrained_layout not applied", UserWarning)
        return savefig(self, *a, **k)

    monkeypatch.setattr(Figure, "savefig", warning_savefig)
    _, d, page = _run(spec, "json,html")
    listed = _report_warnings(page)
    assert not any("constrained_layout" in w for w in d["warnings"])
    assert listed[:len(d["warnings"])] == d["warnings"]
    assert listed[len(d["warnings"]):] == [
        "UserWarning in reliability_figure, roc_figure, pr_figure, cost_figure, scalars_figure and gains_figures "
        "(evalreport/figures/svg.py), while drawing the report's figures: constrained_layout not applied"]


def test_figures_svg_leaves_out_only_what_draws_nothing():
    import io
    import xml.etree.ElementTree as ET

    from evalreport.figures.svg import _lean
    from evalreport.figures.canvas import new_figure, rc_context

    with rc_context():  # text as text, as the report's figures
        fig = new_figure((3, 2))
        ax = fig.subplots()
        ax.plot([0, 1], [0, 1], marker="o", label="a  b")  # a label's own spaces are kept
        ax.legend()
        buf = io.StringIO()
        fig.savefig(buf, format="svg")
    raw = buf.getvalue()
    lean = _lean(raw)
    assert "<metadata" not in lean and "<!--" not in lean and "\n" not in lean
    assert not re.search(r'<g(\s+id="[^"]*")?>', lean)
    assert lean.count("<g") < raw.count("<g") / 3
    assert ">a  b</text>" in lean and ' style="' not in lean

    def drawn(text):
        # every element that draws, in order, with its attributes (a style's
        # declarations counted as attributes) and those of the groups around it
        # (a group's transform or clip path applies to what it holds)
        root = ET.fromstring(text[text.index("<svg"):])
        out = []

        def attributes(el):
            attrs = {k: " ".join(v.split()) for k, v in el.attrib.items() if k not in ("id", "style")}
            for declaration in el.attrib.get("style", "").split(";"):
                if declaration.strip():
                    name, value = declaration.split(":", 1)
                    attrs[name.strip()] = value.strip()
            return attrs

        def walk(el, inherited):
            tag = el.tag.split("}")[1]
            if tag in ("metadata", "style"):
                return
            attrs = attributes(el)
            if tag == "g":
                for child in el:
                    walk(child, inherited + tuple(sorted(attrs.items())))
                return
            if tag != "defs" or any(not c.tag.endswith("}style") for c in el):
                out.append((tag, inherited, tuple(sorted(attrs.items())), (el.text or "").strip()))
            for child in el:
                walk(child, inherited)

        walk(root, ())
        # matplotlib's stylesheet sets two properties everywhere; the lean SVG on the root
        sheet = [(el.text or "") for el in root.iter() if el.tag.endswith("}style")]
        if sheet:
            assert sheet == ["*{stroke-linejoin: round; stroke-linecap: butt}"]
            tag, inherited, attrs, body = out[0]
            extra = (("stroke-linecap", "butt"), ("stroke-linejoin", "round"))
            out[0] = (tag, inherited, tuple(sorted(attrs + extra)), body)
        return out

    assert drawn(lean) == drawn(raw)


@pytest.mark.slow
def test_a_report_with_html_builds_its_figures_once(tmp_path, monkeypatch):
    from test_warnings_and_redaction import BINARY_CSV, CJK_SPEC, _run, _write

    from evalreport import figures

    spec = _write(tmp_path, CJK_SPEC.replace("{模型: a, b: b}", "{a: a, b: b}"), **{"pred.csv": BINARY_CSV})
    made = []
    real = figures.to_svg
    monkeypatch.setattr(figures, "to_svg", lambda fig, name, alt: made.append(name) or real(fig, name, alt))
    _run(spec, "json,html")
    assert sorted(made) == sorted(set(made)) and "roc" in made  # no dry run besides the drawing
