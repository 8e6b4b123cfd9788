"""The tasks: what differs between a binary and a multi-class evaluation.

Each :class:`~.base.Task` bundles the task's own stages (check, evaluate,
compare) and how results.json writes its learners. The pipeline picks one by
the spec's ``task:`` (:func:`task_of`) and asks nothing else. The tasks know
nothing of the report: the report picks its builder by the task
(``report/context.py``'s ``BUILDERS``).
"""

from __future__ import annotations

from ..results import binary as binary_json
from ..results import multiclass as multiclass_json
from .base import Task
from .binary_compare import compare_binary
from .binary_evaluate import evaluate_learners, operating_point

__all__ = ["Task", "BINARY", "MULTICLASS", "TASKS", "task_of"]


def _no_check(spec, sources):
    return None


# The multi-class stages are imported when a multi-class spec runs: a binary run
# never needs their modules (metrics.multiclass and the rest: about 4 ms of its
# start-up, issue 38).
def evaluate_multiclass_learners(*args, **kwargs):
    from .multiclass_evaluate import evaluate_multiclass_learners as evaluate

    return evaluate(*args, **kwargs)


def compare_multiclass(*args, **kwargs):
    from .multiclass_compare import compare_multiclass as compare

    return compare(*args, **kwargs)


BINARY = Task(
    name="binary",
    check=operating_point,
    evaluate=evaluate_learners,
    compare=compare_binary,
    across_measure="auc",
    winner_key="winner_at_operating_point",
    json_head=binary_json.json_head,
    json_after_inputs=binary_json.json_after_inputs,
    learner_json=binary_json.learner_json,
)

MULTICLASS = Task(
    name="multiclass",
    check=_no_check,
    evaluate=evaluate_multiclass_learners,
    compare=compare_multiclass,
    across_measure="accuracy",
    winner_key="best_accuracy",
    json_head=multiclass_json.json_head,
    json_after_inputs=multiclass_json.json_after_inputs,
    learner_json=multiclass_json.learner_json,
    per_class=True,
)

TASKS = {t.name: t for t in (BINARY, MULTICLASS)}


def task_of(spec) -> Task:
    return TASKS[spec.task]
