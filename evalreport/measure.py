"""What a measure is: :class:`Measure` (one entry of the registry) and :class:`Term`,
with the tasks and the kinds of measures. The entries are in
:mod:`evalreport.registry_entries`; the registry's functions in :mod:`evalreport.registry`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

__all__ = ["Measure", "Term", "KINDS", "TASKS", "SCALAR_KINDS", "GATE_KINDS"]

TASKS = ("binary", "multiclass")
Task = Literal["binary", "multiclass"]
Direction = Literal["higher", "lower", "none"]
#: what a measure is; scalars (the first two) get a column, a gate and a ranking
KINDS = {
    "at_threshold": "scalar at the decision threshold",
    "threshold_free": "scalar over every threshold",
    "table": "table of counts",
    "average": "average over several confusion matrices",
    "population": "scalars at the decision threshold in the population of the priors",
    "slice": "per subgroup of the population (data[].slices), and parity across the subgroups",
    "curve": "curve",
    "interval": "confidence interval",
    "comparison": "comparison of learners",
    "test": "test of significance",
}
SCALAR_KINDS = ("at_threshold", "threshold_free")
#: what gates may test: the scalars, and the parity differences across a slice column's values
GATE_KINDS = SCALAR_KINDS + ("slice",)


@dataclass(frozen=True)
class Measure:
    """One measure. ``compute[task]`` reads the value off one learner's result for
    that task (a pure function: ``LearnerResult`` or ``MulticlassLearnerResult``
    in, a float or None out); a task absent from ``compute`` has no single value
    of it (a curve, a table, or per-class values the task's writer prints)."""

    name: str
    label: str  # the report's column heading and appendix entry
    kind: str  # a key of KINDS
    tasks: tuple[str, ...]
    direction: Direction
    definition: str
    reference: str
    undefined: str = ""  # when the value is undefined ("" never, or not a scalar)
    compute: Mapping[str, Callable[[Any], float | None]] = field(default_factory=dict)
    #: how the report prints a defined value (None: report.format's number style, 3
    #: significant digits in prose, 4 decimals in tables); an undefined one is always "undefined"
    format: Callable[[Any], str] | None = None
    metric: bool = True  # a name the spec's `metrics:` list accepts
    gate: bool = False  # gates may test it (a scalar)
    compare: bool = False  # a name the spec's `compare:` list accepts
    rank: Mapping[str, int] = field(default_factory=dict)  # task -> place among the rankings
    rank_label: str = ""  # how rankings and verdicts name it ("" : the label)
    #: where results.json holds it, per task ("*": each learner, each class, each group);
    #: default: learners.*.<name> for every task
    json_path: Mapping[str, str] = field(default_factory=dict)
    #: the report's table of its own that shows this scalar ("": the table of its kind,
    #: at the threshold or over every threshold); e.g. "family" (the confusion-matrix
    #: family at the threshold), "calibration"
    section: str = ""

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"measure {self.name!r}: kind {self.kind!r} is not one of {', '.join(KINDS)}")
        if self.direction not in ("higher", "lower", "none"):
            raise ValueError(f"measure {self.name!r}: direction must be higher, lower or none")
        if unknown := set(self.tasks) - set(TASKS):
            raise ValueError(f"measure {self.name!r}: unknown task {sorted(unknown)}")
        if (self.rank and self.kind not in SCALAR_KINDS) or (self.gate and self.kind not in GATE_KINDS):
            raise ValueError(f"measure {self.name!r}: only scalars can be gated or ranked")
        object.__setattr__(self, "compute", MappingProxyType(dict(self.compute)))
        object.__setattr__(self, "rank", MappingProxyType(dict(self.rank)))
        paths = {t: self.json_path.get(t, f"learners.*.{self.name}") for t in self.tasks}
        object.__setattr__(self, "json_path", MappingProxyType(paths))

    @property
    def higher_is_better(self) -> bool:
        return self.direction == "higher"

    @property
    def scalar(self) -> bool:
        return self.kind in SCALAR_KINDS

    def value(self, task: str, learner) -> float | None:
        """The learner's value (None: undefined, or no single value for this task)."""
        get = self.compute.get(task)
        return None if get is None else get(learner)

    @property
    def ranking_label(self) -> str:
        return self.rank_label or self.label


@dataclass(frozen=True)
class Term:
    """A notion the appendix defines that is not itself a measure (PC(+), say)."""

    name: str
    tasks: tuple[str, ...]
    definition: str
