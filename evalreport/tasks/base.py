"""What a task (binary, multi-class) supplies to the one pipeline.

The pipeline (evalreport.pipeline) runs the same stages for every task: load,
check, evaluate, compare, gates, render. What differs between tasks is in a
:class:`Task`: how the data is checked against the task, how one learner is
evaluated, how learners of one data set are compared, and how results.json
writes a learner. The report reads the task (its name and what it says of
itself) and picks its own builders by it: a task imports no sink.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from .. import registry
from ..compare import Ranking
from ..result import RunWarning

__all__ = ["Task", "with_values", "undefined_warnings", "rankings", "learner_warning", "aligned"]


@dataclass(frozen=True)
class Task:
    name: str  # "binary" or "multiclass": the spec's task, the registry's task names
    #: check: the task's checks of the data against the spec, and what evaluation
    #: needs from all the data at once (binary: the operating point); None if nothing
    check: Callable[..., Any]
    #: evaluate: (spec, sources, keys, checked, progress) -> ({key: learner result}, [RunWarning])
    evaluate: Callable[..., tuple[dict, list[RunWarning]]]
    #: compare: (spec, learners, sources) -> (learners, [Comparisons], [RunWarning]); may add
    #: intervals to the learners (DeLong's, from the components its paired tests share)
    compare: Callable[..., tuple[dict, list, list[RunWarning]]]
    #: the measure Friedman's test across data sets ranks by (a registry name)
    across_measure: str
    #: results.json's key for each data set's winner (compare: Comparisons.winner)
    winner_key: str
    #: results.json: the task's keys before "inputs" and after them (both dicts)
    json_head: Callable[..., dict]
    json_after_inputs: Callable[..., dict]
    #: results.json: one learner's block
    learner_json: Callable[..., dict]
    #: each learner is measured per class (one vs rest: a ROC curve per class) and
    #: averaged over the classes (macro, micro; results.json's learners.<k>.classes),
    #: rather than at one positive label (one ROC curve, macro and micro averages over
    #: the groups alone): what a reader of the result asks instead of the task's name
    per_class: bool = False


def with_values(task: str, learner):
    """The learner with every scalar of the registry read off its evaluation
    (``learner.values``: the one place gates, rankings, results.json and the
    report take a scalar from)."""
    values = {m.name: m.value(task, learner) for m in registry.measures_for(task, *registry.SCALAR_KINDS)}
    return replace(learner, values=values)


def undefined_warnings(task: str, learners: dict, metrics) -> list[RunWarning]:
    """Why a value is undefined, for each registry scalar the spec's ``metrics`` ask
    for whose ``compute`` says why (returns :class:`~evalreport.measure.Undefined`):
    "learner 'k': <name> at threshold <t> is undefined: <why>" (at a threshold of a
    binary learner), else "<name> is undefined: <why>". A measure added to the
    registry gets its warnings here, with nothing else to edit."""
    out = []
    for key, lr in learners.items():
        for m in registry.measures_for(task, *registry.SCALAR_KINDS):
            if m.name not in metrics or lr.values.get(m.name) is not None:
                continue
            why = m.why_undefined(task, lr)
            if not why:
                continue
            where = f" at threshold {lr.threshold_text(lr.threshold)}" if (
                m.kind == "at_threshold" and hasattr(lr, "threshold_text")) else ""
            out.append(learner_warning(key, f"{m.name}{where} is undefined: {why}", m.name))
    return out


def rankings(task: str, learners: dict, wanted: frozenset[str], *, keep_empty: bool = True
             ) -> tuple[Ranking, ...]:
    """The learners of one data set ranked by each measure the task ranks by (those the
    spec's ``compare:`` can name only when it names them); undefined values left out,
    ties in the learners' order. ``keep_empty``: keep a ranking no learner has a value
    of (binary tasks list it, empty; multi-class tasks leave it out)."""
    keys = tuple(learners)
    out = []
    for m in registry.ranked(task):
        if m.compare and m.name not in wanted:
            continue
        values = {k: lr.values.get(m.name) for k, lr in learners.items()}
        defined = [k for k in keys if values[k] is not None]
        if not defined and not keep_empty:
            continue
        higher = m.higher_is_better
        order = sorted(defined, key=lambda k: (-values[k] if higher else values[k], keys.index(k)))
        out.append(Ranking(m.name, tuple(order), values))
    return tuple(out)


def learner_warning(key: str, text: str, measure: str | None = None) -> RunWarning:
    """A warning about learner ``key`` ("learner 'key': text"), and the measure it concerns."""
    return RunWarning(f"learner '{key}': {text}", learner=key, measure=measure)


def aligned(sources, dataset) -> tuple:
    """The instances of one data set, aligned across its files by id (the paired tests).

    Returns (labels, weights, {learner name: values}) in the first file's row order.
    """
    files = [s for s in sources if s.dataset == dataset]
    first = files[0]
    values = dict(first.learners)
    for other in files[1:]:
        order = np.argsort(other.ids, kind="stable")
        perm = order[np.searchsorted(other.ids[order], first.ids)]
        for name, v in other.learners.items():
            values[name] = v[perm]
    return first.labels, first.weights, values
