"""The API's docstrings: every public function and class (``evalreport.__all__``,
``evalreport.metrics.__all__``, ``evalreport.figures.plots.__all__``, the public
methods and properties of ``BinaryEvaluation`` and ``Result``) has a numpydoc
Examples section that runs, and the examples give what they say
(``doctest.testmod`` over the modules that hold them), so they cannot rot.
(pytest's ``--doctest-modules`` runs them too; this holds them when it is off.)
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


@pytest.mark.slow
@pytest.mark.parametrize("module", MODULES)
def test_the_examples_run(module, monkeypatch):
    monkeypatch.setenv("MPLBACKEND", "Agg")
    failed, attempted = doctest.testmod(importlib.import_module(module),
                                        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert attempted > 0 and failed == 0


def test_help_of_evaluate_is_a_reference():
    doc = inspect.getdoc(evalreport.evaluate)
    for section in ("Parameters", "Returns", "Raises", "Examples"):
        assert f"\n{section}\n" in doc
