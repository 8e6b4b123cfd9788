"""A result in a notebook: results.json as a dict, the measures and the
comparisons as pandas DataFrames, a short text and page one of the report as
HTML (``Result.to_dict``, ``to_frame``, ``comparisons_frame``, ``__repr__``,
``_repr_html_``). Each view is read off what the report already builds
(results.json's dict, the report's context and templates): nothing is
computed here. The result reaches these through its task
(``Task.views``), so that :mod:`evalreport.result` imports no sink.
"""

from __future__ import annotations

import json

from ..errors import EvalReportError

__all__ = ["NotebookViews", "PandasMissing"]


class PandasMissing(EvalReportError, ImportError):
    """pandas is not installed: a table out needs it (``pip install evalreport[notebook]``)."""


def _pandas():
    try:
        import pandas
    except ImportError:
        raise PandasMissing(["a table as a DataFrame needs pandas: pip install evalreport[notebook] "
                             "(or pip install pandas)"]) from None
    return pandas


class NotebookViews:
    """The notebook's views of a :class:`~evalreport.result.Result` (static: a
    class, so that a result and its task still pickle)."""

    @staticmethod
    def to_dict(result) -> dict:
        """results.json as a dict: the file's text read back (a JSON round trip)."""
        from . import json_text

        return json.loads(json_text(result))

    @staticmethod
    def to_frame(result):
        """One row per learner (its results.json key), one column per scalar
        measure of the registry (None: undefined), as ``Result.values``."""
        pd = _pandas()
        rows = {key: dict(lr.values) for key, lr in result.learners.items()}
        # (None, an undefined value, as NaN: the columns are numbers)
        frame = pd.DataFrame.from_dict(rows, orient="index").astype("float64")
        frame.index.name = "learner"
        return frame

    @staticmethod
    def comparisons_frame(result):
        """One row per pair of learners and test of results.json's
        ``comparisons`` (DeLong's, McNemar's, the paired t-test, ...): a column
        ``test``, then the row's keys (``a``, ``b``, the statistic, p-values)."""
        pd = _pandas()
        comparisons = NotebookViews.to_dict(result).get("comparisons") or {}
        rows = []
        for test, value in comparisons.items():
            if isinstance(value, list) and value and all(isinstance(r, dict) and "a" in r and "b" in r
                                                         for r in value):
                rows += [{"test": test, **r} for r in value]
        if not rows:
            return pd.DataFrame(columns=["test", "a", "b"])
        return pd.DataFrame(rows)

    @staticmethod
    def text(result) -> str:
        """The short repr: title, task, learners and the verdict's recommendation."""
        from ..redact import published
        from .verdicts import recommendation

        learners = ", ".join(result.learners)
        return (f"<evalreport.Result {published(result).title!r}: {result.spec.task}, "
                f"{len(result.learners)} learner(s) ({learners})>\n{recommendation(result)}")

    @staticmethod
    def html(result) -> str:
        """Page one of the report as HTML (see :func:`.html.render_page_one`)."""
        from .html import render_page_one

        return render_page_one(result)
