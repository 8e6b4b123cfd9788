"""What a measure is: :class:`Measure` (one entry of the registry) and :class:`Term`,
with the tasks and the kinds of measures. The entries are in
:mod:`evalreport.registry_entries`; the registry's functions in :mod:`evalreport.registry`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

__all__ = ["Measure", "Term", "Undefined", "KINDS", "TASKS", "SCALAR_KINDS", "GATE_KINDS", "UNITS", "HISTORY_METHODS"]

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
#: what a scalar's number is, which decides how the report prints it (report.format):
#: a rate, share or measure in [-1, 1] with 3 decimals; a cost or a ratio (unbounded) with
#: 3 significant digits
UNITS = ("rate", "cost", "ratio")
#: how the history diff (history.changes) compares a measure between two runs, in the
#: order of its table: DeLong's unpaired test (the AUC), the two-proportion test from the
#: confusion counts, the runs' bootstrap intervals (MOVER), the change alone
HISTORY_METHODS = ("delong_unpaired", "two_proportion_z", "intervals", "no test")


@dataclass(frozen=True)
class Undefined:
    """What a measure's ``compute`` returns when its value is undefined and it can say
    why: the value is None (null in results.json, "undefined" in the report) and the
    run warns "<name> is undefined: <why>" (tasks.base.undefined_warnings)."""

    why: str


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
    #: the PDF glossary's one line ("": the definition in full)
    brief: str = ""
    #: what its number is (a key of UNITS): how the report prints it
    unit: str = "rate"
    #: per task, how the history diff compares it between two runs (one of
    #: HISTORY_METHODS); a gate on its change (max_drop, significant_drop) needs it
    history: Mapping[str, str] = field(default_factory=dict)
    #: per task, the measure whose value this name reads there (a multi-class ``f1``
    #: gate reads Zhou's macro-F1: {"multiclass": "macro_f1"}; a binary cost given to a
    #: multi-class task's leaderboard reads the cost-sensitive error); history's rows and
    #: the leaderboard use that measure's name
    alias: Mapping[str, str] = field(default_factory=dict)
    #: the same measure with the positive label swapped (binary: labels swapped, the
    #: order of the scores reversed): "" no symmetry is declared; a name (recall ->
    #: "specificity", itself for accuracy); "1/<name>" its reciprocal. Held by
    #: tests/test_invariance.py
    swapped: str = ""
    #: binary: the value as a pure function of the weighted counts (TP, FP, TN, FN) at
    #: the threshold (a float, None or Undefined). When given, ``compute["binary"]``
    #: defaults to it, and the bootstrap resamples it (rank_by, challengers)
    of_counts: Callable[[float, float, float, float], Any] | None = None
    #: binary: the value is a normalised expected cost at the operating point PC(+), so a
    #: gate's row carries the learner's PC(+) (``pc_positive``) and its line says what
    #: the number is ("normalised expected cost at PC(+) = 0.690")
    at_operating_point: bool = False

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"measure {self.name!r}: kind {self.kind!r} is not one of {', '.join(KINDS)}")
        if self.direction not in ("higher", "lower", "none"):
            raise ValueError(f"measure {self.name!r}: direction must be higher, lower or none")
        if unknown := set(self.tasks) - set(TASKS):
            raise ValueError(f"measure {self.name!r}: unknown task {sorted(unknown)}")
        if (self.rank and self.kind not in SCALAR_KINDS) or (self.gate and self.kind not in GATE_KINDS):
            raise ValueError(f"measure {self.name!r}: only scalars can be gated or ranked")
        if self.unit not in UNITS:
            raise ValueError(f"measure {self.name!r}: unit {self.unit!r} is not one of {', '.join(UNITS)}")
        if bad := set(self.history.values()) - set(HISTORY_METHODS):
            raise ValueError(f"measure {self.name!r}: history method {sorted(bad)} is not one of "
                             f"{', '.join(HISTORY_METHODS)}")
        if self.of_counts is not None and "binary" in self.tasks and "binary" not in self.compute:
            f = self.of_counts

            def binary(lr):
                at = lr.at_threshold
                return f(at.tp, at.fp, at.tn, at.fn)

            object.__setattr__(self, "compute", {**self.compute, "binary": binary})
        for name in ("compute", "rank", "history", "alias"):
            object.__setattr__(self, name, MappingProxyType(dict(getattr(self, name))))
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
        value = None if get is None else get(learner)
        return None if isinstance(value, Undefined) else value

    def why_undefined(self, task: str, learner) -> str:
        """Why the learner's value is undefined, where ``compute`` says ("" otherwise)."""
        get = self.compute.get(task)
        value = None if get is None else get(learner)
        return value.why if isinstance(value, Undefined) else ""

    def reads(self, task: str) -> str:
        """The measure whose value this name reads for ``task`` (``alias``, else itself)."""
        return self.alias.get(task, self.name)

    @property
    def ranking_label(self) -> str:
        return self.rank_label or self.label


@dataclass(frozen=True)
class Term:
    """A notion the appendix defines that is not itself a measure (PC(+), say)."""

    name: str
    tasks: tuple[str, ...]
    definition: str
    brief: str = ""  # the PDF glossary's one line ("": the definition in full)
