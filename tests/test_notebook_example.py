"""examples/notebook/notebook.ipynb runs, top to bottom, in a Jupyter kernel
(nbclient; the [test] extra installs it with nbformat and ipykernel), against
the package of this tree, and shows what it promises: the report's first page
and a BinaryEvaluation inline (SVG, nothing fetched), a custom figure drawn by
the plot helpers, and tables out."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "examples" / "notebook" / "notebook.ipynb"
#: the names an inline SVG declares (never fetched)
NAMESPACES = ('xmlns="http://www.w3.org/2000/svg"', 'xmlns:xlink="http://www.w3.org/1999/xlink"')


def _fetches_nothing(html: str) -> bool:
    for name in NAMESPACES:
        html = html.replace(name, "")
    return not re.search(r"https?://|src=|<link|@import|href=\"(?!#)|url\((?!#)", html)


@pytest.fixture(scope="module")
def executed():
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(NOTEBOOK, as_version=4)
    # which evalreport the kernel imported: this tree's (checked below)
    nb.cells.append(nbformat.v4.new_code_cell("print(evalreport.__file__)"))
    env = os.environ.copy()
    # the kernel imports the package of this tree first, as the tests do
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    env.pop("MPLBACKEND", None)  # the kernel's own (inline) backend shows the figure
    NotebookClient(nb, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute(env=env)
    return nb


def _outputs(nb, source_start: str) -> list[dict]:
    (cell,) = [c for c in nb.cells if c.cell_type == "code" and c.source.startswith(source_start)]
    return cell.outputs


def _data(outputs) -> dict:
    return {k: v for o in outputs for k, v in o.get("data", {}).items()}


@pytest.mark.slow
def test_the_notebook_runs_against_this_tree(executed):
    assert all(o.output_type != "error" for c in executed.cells if c.cell_type == "code" for o in c.outputs)
    (printed,) = [o.text for o in executed.cells[-1].outputs if o.output_type == "stream"]
    assert Path(printed.strip()).resolve() == ROOT / "evalreport" / "__init__.py"


def test_the_arrays_go_in_and_the_report_shows_inline(executed):
    assert "text/html" in _data(_outputs(executed, "import numpy"))  # df.head()
    html = _data(_outputs(executed, "result = evalreport.from_predictions("))["text/html"]
    assert html.startswith('<div class="evalreport-notebook">')
    assert "Two learners in a notebook" in html and '<section id="verdict"' in html
    assert "<svg" in html and _fetches_nothing(html)


def test_a_binary_evaluation_shows_its_scalars_and_curves(executed):
    data = _data(_outputs(executed, "from evalreport.metrics import evaluate_binary"))
    assert data["text/plain"].startswith("<BinaryEvaluation: 400 rows, ")
    assert '<div class="evalreport-evaluation">' in data["text/html"]
    assert data["text/html"].count("<svg") == 1 and _fetches_nothing(data["text/html"])


def test_the_custom_figure_and_the_tables_out(executed):
    assert "image/png" in _data(_outputs(executed, "import matplotlib.pyplot"))
    table = _data(_outputs(executed, "result.to_frame()"))
    assert "logistic" in table["text/plain"] and "forest" in table["text/plain"]
    assert "<table" in table["text/html"] and "average_precision" in table["text/html"]
    tests = _data(_outputs(executed, "result.comparisons_frame()"))["text/plain"]
    assert "delong" in tests
