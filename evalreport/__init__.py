"""evalreport: declarative evaluation reports for classifiers.

>>> import evalreport
>>> spec = evalreport.load_spec("spec.yaml")            # doctest: +SKIP
>>> result = evalreport.evaluate(spec)                  # doctest: +SKIP
>>> evalreport.render(result, out="reports/x", formats=["json"])   # doctest: +SKIP
"""

from ._version import __version__  # noqa: E402

from .errors import DataError, EvalReportError, OutputError, RenderError, SpecError  # noqa: E402


_PLOTS = ("plot_roc", "plot_pr", "plot_cost_curves")
#: the display objects (evalreport.displays), loaded when first used as the helpers are
_DISPLAYS = ("RocCurveDisplay", "PrecisionRecallDisplay", "CostCurveDisplay")


def __getattr__(name):
    # load_spec comes from evalreport.spec, which imports NumPy and pydantic (a
    # third of a second): only when asked, so that `python -m evalreport` handles
    # Ctrl-C from its first moments (see evalreport.__main__).
    if name == "load_spec":
        from .spec import load_spec

        globals()["load_spec"] = load_spec
        return load_spec
    # the plot helpers import NumPy (matplotlib only when they draw): likewise when asked
    if name in _PLOTS:
        from .figures import plots

        globals()[name] = value = getattr(plots, name)
        return value
    if name in _DISPLAYS:
        from . import displays

        globals()[name] = value = getattr(displays, name)
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def from_predictions(y_true, scores, **options):
    """Evaluate predictions given as arrays: see :func:`evalreport.arrays.from_predictions`.

    Examples
    --------
    >>> result = from_predictions([0, 1, 1, 0], {"a": [0.2, 0.9, 0.6, 0.4]}, positive=1,
    ...                           confidence={"bootstrap": 0})
    >>> result.learners["a"].values["auc"]
    1.0
    """
    from .arrays import from_predictions as _from_predictions
    from .report import notebook  # noqa: F401  (lends the result its views: repr, to_dict, _repr_html_)

    return _from_predictions(y_true, scores, **options)


def evaluate(spec=None, *, data=None, progress=None, y_true=None, scores=None, **options):
    """Load the data of a spec and compute every number (no report written).

    Parameters
    ----------
    spec : Spec, str, os.PathLike or mapping
        A loaded spec, a path to a spec file, YAML text or a mapping of the
        spec's keys (see :func:`load_spec`). Leave it out to pass arrays.
    y_true, scores : array-like, optional
        Instead of a spec: the labels and the scores (one array, or {learner:
        scores}), with ``options`` as :func:`from_predictions` takes them
        (``evaluate(y_true=y, scores={"a": p}, positive=1)``).
    data : mapping, optional
        In-memory tables by name, for the data entries of the spec that give
        ``table: <name>`` instead of ``path:``: pyarrow Tables, or pandas or
        polars DataFrames (taken through the Arrow interchange; neither is a
        dependency). Each table goes through every check of a file, its
        messages naming ``table '<name>'``; results.json's ``inputs`` name it
        the same way, with the sha256 of its Arrow IPC stream.
    progress : callable, optional
        Called with a short text at each step.

    Returns
    -------
    Result
        With a bootstrap in the spec, an :class:`evalreport.deferred.DeferredResult`:
        the point values at once, the intervals, tests, gates, warnings and verdict
        computed once on first access (or by ``result.with_intervals()``), the same
        numbers as ``evalreport run``.

    Raises
    ------
    SpecError, DataError
        With one message per problem.

    Examples
    --------
    >>> import pyarrow as pa
    >>> table = pa.table({"y": [0, 0, 1, 1, 0, 1], "p": [0.1, 0.4, 0.35, 0.8, 0.2, 0.7]})
    >>> spec = {"version": 1, "task": "binary", "positive": 1,
    ...         "confidence": {"bootstrap": 0},
    ...         "data": [{"table": "test", "label": "y", "learners": {"model": {"score": "p"}}}]}
    >>> result = evaluate(spec, data={"test": table})
    >>> round(result.learners["model"].values["auc"], 4)
    0.8889
    """
    if y_true is not None or scores is not None:
        if spec is not None or data is not None:
            raise TypeError("evaluate: give either a spec (and data) or y_true and scores, not both")
        if y_true is None or scores is None:
            raise TypeError("evaluate: y_true and scores go together")
        return from_predictions(y_true, scores, progress=progress, **options)
    if spec is None:
        raise TypeError("evaluate: a spec (a path, YAML text or a mapping), or y_true and scores, is needed")
    if options:
        raise TypeError(f"evaluate: unexpected keyword argument(s) {', '.join(sorted(options))} (spec keys "
                        "go in the spec; with y_true and scores they are taken as spec keys)")
    from .pipeline import evaluate_deferred as _evaluate
    from .report import notebook  # noqa: F401  (lends the result its views: repr, to_dict, _repr_html_)
    from .spec import load_spec as _load_spec

    # the point values now, the intervals on first access (evalreport.deferred)
    return _evaluate(_load_spec(spec), progress=progress, data=data)


def render(result, out=None, formats=None):
    """Write the report of an evaluated result into folder ``out``, replacing the previous set.

    Parameters
    ----------
    result : Result
        From :func:`evaluate`.
    out : str or os.PathLike, optional
        The folder (default: the spec's ``report.out``). Checked first, as
        :func:`check_output` does; nothing is replaced when a file cannot be
        written.
    formats : list of str, optional
        Of ``"html"``, ``"pdf"`` and ``"json"`` (default: the spec's
        ``report.formats``).

    Returns
    -------
    dict
        format -> the :class:`~pathlib.Path` written.

    Raises
    ------
    OutputError
        The folder cannot be written (exit status 2 from the command line).
    RenderError
        The report could not be rendered (a template, WeasyPrint).

    Examples
    --------
    >>> import pyarrow as pa, tempfile
    >>> spec = {"version": 1, "task": "binary", "positive": 1, "confidence": {"bootstrap": 0},
    ...         "data": [{"table": "test", "label": "y", "learners": {"A": "p"}}]}
    >>> result = evaluate(spec, data={"test": pa.table({"y": [0, 1, 1, 0], "p": [0.2, 0.9, 0.6, 0.4]})})
    >>> written = render(result, out=tempfile.mkdtemp(), formats=["json", "html"])
    >>> sorted(written), written["json"].name
    (['html', 'json'], 'results.json')
    """
    from .report import render as _render

    return _render(result, out=out, formats=formats)


def check_output(out=None, spec=None):
    """Check, before evaluating, that the report can be written into folder ``out``.

    Nothing is written (a probe file is made and removed) and no folder is made.

    Parameters
    ----------
    out : str or os.PathLike, optional
        The folder; default the spec's ``report.out`` (the messages then give
        its line in the spec).
    spec : Spec, optional
        A loaded spec (:func:`load_spec`).

    Returns
    -------
    pathlib.Path
        The folder's path.

    Raises
    ------
    OutputError
        ``out`` or an ancestor is a file or a device, or no file can be
        created there (exit status 2 from the command line).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp()) / "reports" / "x"
    >>> check_output(folder) == folder, folder.exists()
    (True, False)
    """
    from .report.output import check_output as _check_output

    return _check_output(out, spec)


__all__ = [
    "CostCurveDisplay",
    "DataError",
    "EvalReportError",
    "OutputError",
    "PrecisionRecallDisplay",
    "RenderError",
    "RocCurveDisplay",
    "SpecError",
    "check_output",
    "evaluate",
    "from_predictions",
    "load_spec",
    "plot_cost_curves",
    "plot_pr",
    "plot_roc",
    "render",
]


def __dir__():
    # the names loaded when first used (load_spec, the plot helpers) are listed too
    return sorted(set(globals()) | set(__all__))
