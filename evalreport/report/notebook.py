"""A result in a notebook: results.json as a dict, the measures and the
comparisons as pandas DataFrames, a short text and page one of the report as
HTML (``Result.to_dict``, ``to_frame``, ``comparisons_frame``, ``__repr__``,
``_repr_html_``). Each view is read off what the report already builds
(results.json's dict, the report's context and templates): nothing is
computed here. The result reaches these as this module lends them when it is
imported (:func:`evalreport.result.lend_views`; :mod:`evalreport.report` imports
it), so that :mod:`evalreport.result` imports no sink.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from ..errors import EvalReportError
from ..result import lend_views

if TYPE_CHECKING:
    from .page import QuickViewContext

__all__ = ["NotebookViews", "PandasMissing", "point_values_context"]

#: the point values a deferred result shows before its intervals (page one's
#: headline measures, read from ``LearnerResult.values``; "threshold" is the learner's)
_POINT_COLUMNS = {
    "binary": ("auc", "average_precision", "min_cost", "threshold", "cost_at_threshold", "f1", "ece"),
    "multiclass": ("accuracy", "macro_f1", "macro_auc", "ovo_auc", "log_loss", "ece"),
}


def point_values_context(result) -> QuickViewContext:
    """What ``notebook_quick.html.j2`` prints of a deferred result whose intervals
    are not computed: its title line and each learner's point values, read only
    from what the quick evaluation holds (nothing that would start the bootstrap:
    evalreport.deferred). A column no learner has a value in is left out."""
    from .. import registry
    from ..redact import published_spec
    from .format import Column, fmt, measure_text
    from .page import NamedCells, QuickViewContext

    spec = result.spec
    op = result.operating_point
    learners = result.learners
    columns, rows = [], {key: [] for key in learners}
    for name in _POINT_COLUMNS.get(spec.task, ()):
        if name == "threshold":
            texts = {k: ("—" if lr.hard else lr.threshold_text(lr.threshold)) for k, lr in learners.items()}
            columns.append(Column("threshold", "threshold", ""))
        else:
            values = {k: lr.values.get(name) for k, lr in learners.items()}
            if all(v is None for v in values.values()):
                continue
            m = registry.get(name)
            label = m.label
            if name == "min_cost" and op is not None:
                label = f"least cost (any threshold) at PC(+) = {fmt(op.pc_positive)}"
            elif name in ("cost_at_threshold", "f1"):
                label = f"{m.label if name == 'f1' else 'cost'} at the threshold"
            columns.append(Column(name, label, "" if m.direction == "none" else m.direction))
            texts = {k: measure_text(name, v, table=True) for k, v in values.items()}
        for k in learners:
            rows[k].append(texts[k])
    caption = ""
    if not result.task.per_class and op is not None:
        caption = f"F1 is on the sample as given; the costs are at PC(+) = {fmt(op.pc_positive)}."
    classes = [str(c) for c in (getattr(spec, "classes", None) or [])]
    labels = ({"name": "classes", "value": ", ".join(classes)} if result.task.per_class
              else {"name": "positive label", "value": str(getattr(spec, "positive_label", ""))})
    return QuickViewContext(
        title=published_spec(spec)[0], date=result.date, version=result.version, task=spec.task, labels=labels,
        resamples=f"{spec.confidence.bootstrap:,}" if spec.confidence.bootstrap else "", columns=columns,
        rows=[NamedCells(k, v) for k, v in rows.items()], caption=caption)


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
        """results.json as a dict: the file's values read back (a JSON round trip:
        lists, floats, None, as :func:`json.loads` gives them from the file)."""
        from ..results import result_dict

        return json.loads(json.dumps(result_dict(result), ensure_ascii=False, allow_nan=False))

    @staticmethod
    def to_frame(result):
        """One row per learner (its results.json key), one column per scalar
        measure of the registry (NaN: undefined), as ``Result.values``; F-beta
        as one column per b of the spec (``fbeta_2``). A column that cannot hold
        a value in this run is left out: undefined for every learner with no
        warning about it (a measure of the other task's kind, ``partial_auc``
        without ``partial_auc:``); one undefined for a reason a warning gives
        stays, as NaN."""
        pd = _pandas()
        explained = {getattr(w, "measure", None) for w in result.warnings}
        rows = {key: dict(lr.values) for key, lr in result.learners.items()}
        names = list(dict.fromkeys(m for r in rows.values() for m in r))
        keep = [m for m in names if m != "fbeta" and (any(r.get(m) is not None for r in rows.values())
                                                      or m in explained)]
        fbeta = NotebookViews._fbeta_columns(result)
        table = {key: {**{m: r.get(m) for m in keep}, **fbeta.get(key, {})} for key, r in rows.items()}
        # (None, an undefined value, as NaN: the columns are numbers)
        frame = pd.DataFrame.from_dict(table, orient="index").astype("float64")
        frame.index.name = "learner"
        return frame

    @staticmethod
    def _fbeta_columns(result) -> dict:
        """{learner: {"fbeta_<b>": value}} of a binary task (multi-class: per class,
        in :meth:`per_class_frame`)."""
        learners = NotebookViews.to_dict(result).get("learners") or {}
        out = {}
        for key, block in learners.items():
            fb = block.get("fbeta") if isinstance(block, dict) else None
            if isinstance(fb, dict):
                out[key] = {f"fbeta_{b}": v for b, v in fb.items()}
        return out

    @staticmethod
    def per_class_frame(result):
        """A multi-class result's measures per class, as scikit-learn's
        ``classification_report(output_dict=True)`` gives them: one row per
        (learner, class), then the learner's ``macro`` and ``micro`` averages
        (Zhou's: macro-F1 from the macro precision and recall), columns
        precision, recall, f1, support, auc, average_precision and one
        ``fbeta_<b>`` per b of the spec (NaN: undefined or not computed)."""
        pd = _pandas()
        if result.task is None or not result.task.per_class:
            raise TypeError("per_class_frame() is for multi-class results; a binary result's measures are in "
                            "to_frame()")
        learners = NotebookViews.to_dict(result).get("learners") or {}
        rows, index = [], []
        for key, block in learners.items():
            for cls, m in (block.get("classes") or {}).items():
                fb = {f"fbeta_{b}": v for b, v in (m.get("fbeta") or {}).items()}
                rows.append({c: m.get(c) for c in ("precision", "recall", "f1", "support", "auc",
                                                   "average_precision")} | fb)
                index.append((key, cls))
            for avg in ("macro", "micro"):
                m = block.get(avg) or {}
                rows.append({"precision": m.get("precision"), "recall": m.get("recall"), "f1": m.get("f1"),
                             "support": block.get("n"), "auc": m.get("auc") if avg == "macro" else None})
                index.append((key, avg))
        frame = pd.DataFrame(rows, index=pd.MultiIndex.from_tuples(index, names=["learner", "class"]))
        return frame.astype("float64")

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
        """Page one of the report as HTML (see :func:`.html.render_page_one`); a
        deferred result whose intervals are not computed yet shows its point values
        instead, and says so (:func:`point_values_context`): page one's verdict,
        tests and intervals would start the bootstrap (issue 38: the first output
        cell returns at once)."""
        from .html import render_page_one, render_point_values

        if not getattr(result, "intervals_computed", True):
            return render_point_values(result, point_values_context(result))
        return render_page_one(result)


lend_views(NotebookViews)
