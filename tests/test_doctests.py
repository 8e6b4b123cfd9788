"""The API's docstrings: every public function and class (``evalreport.__all__``,
``evalreport.metrics.__all__``, ``evalreport.figures.plots.__all__``, the public
methods and properties of ``BinaryEvaluation`` and ``Result``) has a numpydoc
Examples section that runs, and the examples give what they say
(pytest's ``--doctest-modules`` over ``evalreport/``, which pyproject.toml turns on
for the fast loop and the whole suite alike), so they cannot rot.
"""

from __future__ import annotations

import doctest
import importlib
import inspect

import pytest

import evalreport
import evalreport.metrics
import evalreport.figures.plots
from evalreport.metrics import BinaryEvaluation
from evalreport.result import Result


def _public() -> dict[str, object]:
    objects = {f"evalreport.{n}": getattr(evalreport, n) for n in evalreport.__all__}
    objects |= {f"evalreport.metrics.{n}": getattr(evalreport.metrics, n) for n in evalreport.metrics.__all__}
    objects |= {f"evalreport.figures.plots.{n}": getattr(evalreport.figures.plots, n) for n in evalreport.figures.plots.__all__
                if callable(getattr(evalreport.figures.plots, n))}
    for cls in (BinaryEvaluation, Result):
        for name, member in vars(cls).items():
            if name.startswith("_") and name != "_repr_html_":
                continue
            if isinstance(member, property):
                member = member.fget
            elif hasattr(member, "func"):  # functools.cached_property
                member = member.func
            if callable(member):
                objects[f"{cls.__name__}.{name}"] = member
    return objects


PUBLIC = _public()
#: where the examples live (each module once)
MODULES = sorted({obj.__module__ for obj in PUBLIC.values()} | {"evalreport"})


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_every_public_object_has_a_numpydoc_example(name):
    doc = inspect.getdoc(PUBLIC[name]) or ""
    assert "\nExamples\n--------\n" in doc, f"{name}: no Examples section"
    examples = doc.split("\nExamples\n--------\n", 1)[1]
    runs = [line for line in examples.splitlines()
            if line.lstrip().startswith(">>> ") and "doctest: +SKIP" not in line]
    assert runs, f"{name}: every example line is skipped"


def test_the_examples_run_in_every_test_run(pytestconfig):
    # pytest runs each module's examples (evalreport/ is a test path, --doctest-modules
    # an option of every run: pyproject.toml), MODULES' among them: this test ran
    # doctest.testmod over MODULES as well, the same examples a second time in a run
    assert "--doctest-modules" in pytestconfig.getini("addopts")
    assert "evalreport" in pytestconfig.getini("testpaths")
    finder = doctest.DocTestFinder()
    for module in MODULES:  # each holds examples
        assert any(t.examples for t in finder.find(importlib.import_module(module))), module


def test_help_of_evaluate_is_a_reference():
    doc = inspect.getdoc(evalreport.evaluate)
    for section in ("Parameters", "Returns", "Raises", "Examples"):
        assert f"\n{section}\n" in doc
