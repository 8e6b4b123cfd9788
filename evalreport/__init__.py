"""evalreport: declarative evaluation reports for classifiers.

>>> import evalreport
>>> spec = evalreport.load_spec("spec.yaml")            # doctest: +SKIP
>>> result = evalreport.evaluate(spec)                  # doctest: +SKIP
>>> evalreport.render(result, out="reports/x", formats=["json"])   # doctest: +SKIP
"""

from ._version import __version__  # noqa: E402

from .errors import DataError, EvalReportError, OutputError, RenderError, SpecError  # noqa: E402


def __getattr__(name):
    # load_spec comes from evalreport.spec, which imports NumPy and pydantic (a
    # third of a second): only when asked, so that `python -m evalreport` handles
    # Ctrl-C from its first moments (see evalreport.__main__).
    if name == "load_spec":
        from .spec import load_spec

        globals()["load_spec"] = load_spec
        return load_spec
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def evaluate(spec, *, progress=None):
    """Load the data of a spec and compute every number (see :mod:`evalreport.pipeline`)."""
    from .pipeline import evaluate as _evaluate

    return _evaluate(spec, progress=progress)


def render(result, out=None, formats=None):
    """Write the report of an evaluated result (see :mod:`evalreport.report`)."""
    from .report import render as _render

    return _render(result, out=out, formats=formats)


def check_output(out=None, spec=None):
    """Check, before evaluating, that the report can be written into folder ``out``
    (default: the spec's report.out); raises OutputError (see :mod:`evalreport.report.output`)."""
    from .report.output import check_output as _check_output

    return _check_output(out, spec)


__all__ = [
    "DataError",
    "EvalReportError",
    "OutputError",
    "RenderError",
    "SpecError",
    "check_output",
    "evaluate",
    "load_spec",
    "render",
]
