"""results.json: the result as plain data, in its stable key order.

One writer for every task: the keys every results.json has, and in between
what the task supplies (``result.task``: its head, its learner blocks). How
values are written is in :mod:`.format`.
"""

from __future__ import annotations

from dataclasses import replace

from ..redact import published
from ..result import Result
from ..compare.leaderboard import leaderboard, leaderboard_warnings
from .comparisons import comparisons_dict
from .configurations import configurations_dict
from .format import InlineList

__all__ = ["result_dict", "result_core", "core_block", "with_history", "carried", "report_warnings", "published_inputs",
           "InlineList", "comparisons_dict"]


def report_warnings(result: Result) -> list[str]:
    """Every warning of the evaluation, as results.json lists them: the
    evaluation's (``result.warnings``), then the leaderboard's. Credentials in
    them are redacted (a warning may name a data file's URL). The warnings raised
    while drawing the report's figures are the report's (its HTML and PDF list
    them after these; ``report_context``'s ``figure_warnings``): results.json is the same
    whatever the formats, and a JSON-only run draws nothing."""
    return list(published(result).warnings) + leaderboard_warnings(result)


def published_inputs(result: Result) -> list[dict]:
    """The inputs as the report publishes them: a URL's credentials redacted."""
    return [dict(i) for i in published(result).inputs]


def result_core(result: Result) -> dict:
    """results.json up to and with the comparisons: every key but the gates, the
    history and the warnings, which the history stage adds to (a gate on change,
    a warning). What the next run compares with: the one the pipeline built once
    (``Result.json_core``), whether the history stage reads it first or not;
    built here for a result that has none (:func:`core_block`)."""
    core = result.json_core
    return core_block(result) if core is None else core


def core_block(result: Result) -> dict:
    """results.json up to the comparisons, built (:func:`result_core`)."""
    spec, task = result.spec, result.task
    return {
        "evalreport_version": result.version,
        "spec_version": spec.version,
        "title": published(result).title,
        "date": result.date,
        "task": spec.task,
        **task.json_head(result),
        "inputs": published_inputs(result),
        # with report.attach: [data]: what the PDF carries of the data (evalreport.attachments)
        **({"attachments": [f.as_dict() for f in result.attached_data]} if result.attached_data else {}),
        **task.json_after_inputs(result),
        "learners": {key: task.learner_json(lr, result) for key, lr in result.learners.items()},
        "comparisons": comparisons_dict(result),
        # every learner ranked by the spec's primary measure, against the best (report/leaderboard.py)
        "leaderboard": leaderboard(result),
        # with data[].replicates: the learners that differ by it alone, as configurations
        **_configurations(result),
    }


def _configurations(result: Result) -> dict:
    block = configurations_dict(result)
    return {} if block is None else {"configurations": block}


def with_history(result: Result, history: dict, gates: list[dict], warnings: list) -> Result:
    """``result`` with the history stage's block, its gates on change and its
    warnings added; the results.json built so far (:func:`result_core`) carried
    over, as none of it changes."""
    return carried(result, history=history, gates=result.gates + gates, warnings=result.warnings + warnings)


def carried(result: Result, **changes) -> Result:
    """``result`` with ``changes`` (the gates, the history, the warnings, the
    verdict: what :func:`result_core` leaves out); the results.json built so far
    and the leaderboard, fields of the result, come along, as neither depends on
    them. The texts as published (``published``) list the warnings: built again
    from the new result when it had them."""
    new = replace(result, **changes)
    if result.published is not None and "warnings" in changes:
        from ..redact import publish

        new = replace(new, published=publish(new))
    return new


def result_dict(result: Result) -> dict:
    """results.json as a dict, keys in their stable order (``history`` only with
    ``history:`` in the spec)."""
    history = {"history": result.history} if result.history is not None else {}
    return {
        **result_core(result),
        "verdict": None if result.verdict is None else result.verdict.to_dict(),
        "gates": result.gates,
        **history,
        "warnings": report_warnings(result),
    }
