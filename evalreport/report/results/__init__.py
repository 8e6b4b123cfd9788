"""results.json: the result as plain data, in its stable key order.

One writer for every task: the keys every results.json has, and in between
what the task supplies (``result.task``: its head, its learner blocks). How
values are written is in :mod:`.format`.
"""

from __future__ import annotations

from ...redact import published
from ...result import Result
from ..context import figure_warnings
from .comparisons import comparisons_dict
from .format import InlineList

__all__ = ["result_dict", "report_warnings", "published_inputs", "InlineList", "comparisons_dict"]


def report_warnings(result: Result) -> list[str]:
    """Every warning of the run, as results.json and the report list them: the
    evaluation's (``result.warnings``), then those raised while drawing the
    report's figures (matplotlib, NumPy). The figures are drawn once per result,
    whatever the formats, so results.json is the same with or without the HTML.
    Credentials in them are redacted (a warning may name a data file's URL)."""
    return list(published(result).warnings) + figure_warnings(result)


def published_inputs(result: Result) -> list[dict]:
    """The inputs as the report publishes them: a URL's credentials redacted."""
    return [dict(i) for i in published(result).inputs]


def result_dict(result: Result) -> dict:
    """results.json as a dict, keys in their stable order."""
    spec, task = result.spec, result.task
    return {
        "evalreport_version": result.version,
        "spec_version": spec.version,
        "title": published(result).title,
        "date": result.date,
        "task": spec.task,
        **task.json_head(result),
        "inputs": published_inputs(result),
        **task.json_after_inputs(result),
        "learners": {key: task.learner_json(lr, result) for key, lr in result.learners.items()},
        "comparisons": comparisons_dict(result),
        "gates": result.gates,
        "warnings": report_warnings(result),
    }
