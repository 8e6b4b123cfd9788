"""evalreport: declarative evaluation reports for classifiers.

>>> import evalreport
>>> spec = evalreport.load_spec("spec.yaml")            # doctest: +SKIP
>>> result = evalreport.evaluate(spec)                  # doctest: +SKIP
>>> evalreport.render(result, out="reports/x", formats=["json"])   # doctest: +SKIP
"""

__version__ = "0.1.0"

from .errors import DataError, EvalReportError, RenderError, SpecError  # noqa: E402
from .spec import load_spec  # noqa: E402


def evaluate(spec, *, progress=None):
    """Load the data of a spec and compute every number (see :mod:`evalreport.pipeline`)."""
    from .pipeline import evaluate as _evaluate

    return _evaluate(spec, progress=progress)


def render(result, out=None, formats=None):
    """Write the report of an evaluated result (see :mod:`evalreport.report`)."""
    from .report import render as _render

    return _render(result, out=out, formats=formats)


__all__ = [
    "DataError",
    "EvalReportError",
    "RenderError",
    "SpecError",
    "evaluate",
    "load_spec",
    "render",
]
