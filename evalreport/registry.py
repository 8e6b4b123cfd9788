"""The registry of measures: each measure declared once.

An entry says what a measure is called (the spec's ``metrics:``, ``compare:``
and ``gates[].metric`` names and the results.json key), which tasks it applies
to, which way is better, what kind of thing it is, its definition and the
reference it follows, how its value is read off a learner's evaluation, how it
is printed, and whether gates and rankings may use it. Everything that lists
measures reads this table: the spec's name lists and its JSON Schema, the
results.json writer, the report's tables and its appendix of definitions, the
rankings, the gates, ``evalreport measures`` and the README's measure table.

Adding a measure is one pure function (in :mod:`evalreport.metrics`), one entry
here (with ``compute`` calling the function on the learner's evaluation) and its
tests; see docs/architecture.md.

This module imports nothing from the rest of the package at import time (a
measure's pure function is imported when it is first computed), so every layer
may read it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

__all__ = ["Measure", "Term", "MEASURES", "TERMS", "KINDS", "TASKS", "register", "unregister", "get",
           "measures_for", "metric_names", "gate_names", "comparison_names", "ranked", "definitions",
           "as_records", "markdown_table"]

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
    "curve": "curve",
    "interval": "confidence interval",
    "comparison": "comparison of learners",
    "test": "test of significance",
}
SCALAR_KINDS = ("at_threshold", "threshold_free")


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
    #: how the report prints a defined value (None: report.format.fmt, 4 significant
    #: digits); an undefined one is always "undefined"
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
        if (self.gate or self.rank) and self.kind not in SCALAR_KINDS:
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


def _at(name):
    return lambda lr: getattr(lr.at_threshold, name)


def _summary(name):
    # hard decisions have no ranking: no curve measures
    return lambda lr: None if lr.hard else getattr(lr.summary, name)


def _normalised_cost(lr):
    from .metrics.population import normalised_cost

    at = lr.at_threshold
    return None if lr.pc_positive is None else normalised_cost(at.tp, at.fp, at.tn, at.fn, lr.pc_positive)


def _mc(get):
    return lambda lr: get(lr.evaluation)


ZHOU = "Zhou, Machine Learning (2016), section 2."
DH = "Drummond & Holte, Cost curves (Machine Learning 65, 2006)"
COST = ZHOU + "3.4, eqs. 2.24-2.25, figure 2.5; " + DH

_ENTRIES = [
    Measure("confusion_matrix", "confusion matrix", "table", TASKS, "none",
            "TP, FP, TN, FN at the decision threshold (binary); the k x k matrix of weighted counts, rows "
            "the true class, columns the decided one (multi-class).", ZHOU + "3.2, table 2.1",
            json_path={"binary": "learners.*.confusion"}),
    Measure("error_rate", "error rate", "at_threshold", TASKS, "lower",
            "(FP + FN) / m: the share of instances misclassified (weights count).", ZHOU + "3.1, eq. 2.4",
            "m = 0", compute={"binary": _at("error_rate"), "multiclass": _mc(lambda ev: ev.error_rate)},
            gate=True),
    Measure("accuracy", "accuracy", "at_threshold", TASKS, "higher", "1 - error rate.", ZHOU + "3.1, eq. 2.5",
            "m = 0", compute={"binary": _at("accuracy"), "multiclass": _mc(lambda ev: ev.accuracy)},
            gate=True, rank={"multiclass": 1}),
    Measure("precision", "precision", "at_threshold", TASKS, "higher",
            "TP / (TP + FP); multi-class: per class one vs rest, and macro-P for gates.", ZHOU + "3.2, eq. 2.8",
            "nothing predicted positive",
            compute={"binary": _at("precision"), "multiclass": _mc(lambda ev: ev.averages.macro_precision)},
            gate=True,
            json_path={"multiclass": "learners.*.macro.precision"}),
    Measure("recall", "recall", "at_threshold", TASKS, "higher",
            "TP / (TP + FN) = TPR; multi-class: per class one vs rest, and macro-R for gates.",
            ZHOU + "3.2, eq. 2.9", "no positives",
            compute={"binary": _at("recall"), "multiclass": _mc(lambda ev: ev.averages.macro_recall)},
            gate=True,
            json_path={"multiclass": "learners.*.macro.recall"}),
    Measure("f1", "F1", "at_threshold", TASKS, "higher",
            "2PR / (P + R), computed as 2TP / (2TP + FP + FN); multi-class gates read Zhou's macro-F1.",
            ZHOU + "3.2, eq. 2.10", "no positives and nothing predicted positive",
            compute={"binary": _at("f1"), "multiclass": _mc(lambda ev: ev.averages.macro_f1)},
            gate=True, compare=True, rank={"binary": 3},
            json_path={"multiclass": "learners.*.macro.f1"}),
    Measure("fbeta", "F-beta", "at_threshold", TASKS, "higher",
            "(1 + b^2) TP / ((1 + b^2) TP + b^2 FN + FP), one value per b of the spec's fbeta; b > 1 weighs "
            "recall more, b < 1 precision.", ZHOU + "3.2, eq. 2.11",
            "no positives and nothing predicted positive",
            json_path={"multiclass": "learners.*.classes.*.fbeta"}),
    Measure("cost_sensitive_error", "cost-sensitive error", "at_threshold", TASKS, "lower",
            "(FN c_FN + FP c_FP) / m with the spec's named costs; multi-class: (1/m) sum_i w_i "
            "cost[y_i][yhat_i], instances reweighted to the priors.", ZHOU + "3.4, eq. 2.23", "m = 0",
            compute={"binary": _at("cost_sensitive_error"),
                     "multiclass": _mc(lambda ev: ev.cost_sensitive_error)},
            gate=True, rank={"multiclass": 5}),
    Measure("auc", "AUC", "threshold_free", TASKS, "higher",
            "Area under the ROC curve (trapezoids) = the share of (positive, negative) pairs ranked right, "
            "ties counting 1/2; multi-class: the mean of the one-vs-rest AUCs.", ZHOU + "3.3, eq. 2.20",
            "one class only", compute={"binary": _summary("auc"), "multiclass": _mc(lambda ev: ev.macro_auc)},
            gate=True, compare=True, rank={"binary": 1},
            json_path={"multiclass": "learners.*.macro.auc"}),
    Measure("rank_loss", "rank loss", "threshold_free", ("binary",), "lower",
            "The share of (positive, negative) pairs ranked wrong, ties counting 1/2; always 1 - AUC. "
            "(scikit-learn's label_ranking_loss counts ties as 1.)", ZHOU + "3.3, eq. 2.21", "one class only",
            compute={"binary": _summary("rank_loss")}, gate=True),
    Measure("average_precision", "average precision", "threshold_free", TASKS, "higher",
            "Sum over thresholds of (R_k - R_{k-1}) P_k, without interpolation (scikit-learn's definition); "
            "not the trapezoid area under the P-R curve.", "scikit-learn average_precision_score",
            "no positives", compute={"binary": _summary("average_precision")}, gate=True,
            json_path={"multiclass": "learners.*.classes.*.average_precision"}),
    Measure("bep", "break-even point", "threshold_free", ("binary",), "higher",
            "The value where precision = recall, i.e. where TP + FP = m+ (as many predicted positive as "
            "there are positives); interpolated inside a tied block.", ZHOU + "3.2 (figure 2.3)",
            "no positives", compute={"binary": _summary("bep")}, gate=True, compare=True,
            rank={"binary": 2}, rank_label="BEP"),
    Measure("partial_auc", "partial AUC", "threshold_free", ("binary",), "higher",
            "The area under the ROC curve for FPR up to the spec's partial_auc.max_fpr; McClish's "
            "standardisation maps it to [0.5, 1] when asked.", "McClish, Medical Decision Making 9 (1989)",
            "one class only", compute={"binary": lambda lr: None if lr.hard else lr.partial_auc},
            metric=False, gate=True,
            json_path={"binary": "learners.*.partial_auc.value"}),
    Measure("expected_total_cost", "expected total cost", "threshold_free", ("binary",), "lower",
            "The area under the cost curve for PC(+) in [0, 1]; lower is better.", COST,
            "one class only", compute={"binary": _summary("expected_total_cost")}, gate=True, compare=True,
            rank={"binary": 4}),
    Measure("min_cost", "least cost at PC(+)", "threshold_free", ("binary",), "lower",
            "The least normalised expected cost at the operating point PC(+), over the ROC convex hull's "
            "vertices; the learner with the least is the winner at the operating point.", COST,
            "one class only",
            compute={"binary": lambda lr: None if lr.operating is None else lr.operating.min_cost},
            metric=False, gate=True, rank={"binary": 5}, rank_label="cost at the operating point",
            json_path={"binary": "learners.*.operating_point.min_cost"}),
    Measure("cost_at_threshold", "cost of the threshold at PC(+)", "at_threshold", ("binary",), "lower",
            "The normalised expected cost of the learner's own (deployed) threshold at the operating point: "
            "FNR PC(+) + FPR (1 - PC(+)), the height of its cost line at PC(+), on the scale of the least "
            "cost at PC(+) (which is over every threshold).", COST, "one class only",
            compute={"binary": lambda lr: _normalised_cost(lr)}, gate=True),
    Measure("population", "in the population of the priors", "population", TASKS, "none",
            "With priors, the measures at the threshold for a population with p(+) = the prior: the test "
            "set's TPR and FPR, its cells reweighted to p TPR, p FNR, (1 - p) FPR, (1 - p) TNR; precision, "
            "NPV, accuracy, error rate, F1 and the cost-sensitive error p c_FN FNR + (1 - p) c_FP FPR. "
            "Multi-class: each true class's row of the confusion matrix reweighted to its prior; accuracy, "
            "error rate, per-class precision, recall and F1, macro and micro averages.",
            DH + "; " + ZHOU + "3.4, eq. 2.23", "one class only",
            json_path={"binary": "learners.*.population", "multiclass": "learners.*.population"}),
    Measure("roc", "ROC curve", "curve", TASKS, "none",
            "TPR against FPR at every distinct threshold; a tied block of scores is one diagonal segment. "
            "Multi-class: one curve per class, one vs rest.", ZHOU + "3.3 (figure 2.4)", "one class only",
            json_path={"binary": "learners.*.curves.roc", "multiclass": "learners.*.curves.*.roc"}),
    Measure("pr", "P-R curve", "curve", ("binary",), "none",
            "Precision against recall; between points it follows straight lines in (FP, TP) count space "
            "(Davis & Goadrich 2006), which is curved in P-R space.", ZHOU + "3.2 (figure 2.3)", "no positives",
            json_path={"binary": "learners.*.curves.pr"}),
    Measure("cost_curve", "cost curve", "curve", ("binary",), "none",
            "The lower envelope of the cost lines FNR PC(+) + FPR (1 - PC(+)) of all ROC points, the trivial "
            "classifiers included; it is made of the ROC convex hull's vertices.", COST,
            "one class only",
            json_path={"binary": "learners.*.curves.cost"}),
    Measure("threshold_table", "threshold table", "table", ("binary",), "none",
            "The confusion-matrix family at the spec's operating points (thresholds: {at, top_fraction, "
            "recall, fpr}): at a threshold t; at the highest threshold flagging at least a share q of the "
            "(weighted) instances, a tied block flagged whole; at the highest threshold reaching recall r; "
            "at the lowest threshold with FPR <= f. Each row: the threshold found, the share flagged, TP, FP, "
            "TN, FN, accuracy, error rate, precision, recall, F1 and the family.",
            "Evidently's precision/recall table by threshold; " + ZHOU + "3.2",
            "a recall target with no positives, an FPR target with no negatives"),
    Measure("gains", "cumulative gains and lift", "table", ("binary",), "none",
            "Flagging the top q = 0.1, ..., 1 of the (weighted) instances by score: the share of the positives "
            "captured, the lift (captured / q) and the decile's own response rate; a tied block straddling a "
            "decile's boundary counts with its expected share (linear inside the block).",
            "the credit-scoring gains table (Siddiqi, Credit Risk Scorecards, Wiley 2006)", "captured and lift: no positives"),
    Measure("macro", "macro-P, macro-R, macro-F1", "average", TASKS, "higher",
            "The means of the per-matrix (per-class, one vs rest; or per-group) precision and recall; "
            "macro-F1 = 2 macro-P macro-R / (macro-P + macro-R) (Zhou eq. 2.14), and mean F1 the mean of "
            "the per-matrix F1 (scikit-learn's 'macro F1', another number).", ZHOU + "3.2, eqs. 2.12-2.14",
            json_path={"binary": "learners.*.groups_macro"}),
    Measure("micro", "micro-P, micro-R, micro-F1", "average", TASKS, "higher",
            "From the per-matrix TP, FP, FN averaged first; for single-label multi-class data micro-P = "
            "micro-R = accuracy.", ZHOU + "3.2, eqs. 2.15-2.17",
            json_path={"binary": "learners.*.groups_micro"}),
    Measure("macro_f1", "macro-F1 (Zhou)", "at_threshold", ("multiclass",), "higher",
            "2 macro-P macro-R / (macro-P + macro-R), from the macro averages over the classes.",
            ZHOU + "3.2, eq. 2.14", compute={"multiclass": _mc(lambda ev: ev.averages.macro_f1)},
            metric=False, rank={"multiclass": 2},
            json_path={"multiclass": "learners.*.macro.f1"}),
    Measure("mean_f1", "mean F1", "at_threshold", ("multiclass",), "higher",
            "The mean of the per-class F1: scikit-learn's 'macro F1', a different number from Zhou's "
            "macro-F1.", "scikit-learn f1_score(average='macro')",
            compute={"multiclass": _mc(lambda ev: ev.averages.mean_f1)}, metric=False,
            rank={"multiclass": 3},
            json_path={"multiclass": "learners.*.macro.mean_f1"}),
    Measure("macro_auc", "macro AUC", "threshold_free", ("multiclass",), "higher",
            "The mean of the one-vs-rest AUCs; weighted AUC weighs them by class prevalence.",
            "one vs rest: Fawcett, Pattern Recognition Letters 27 (2006); weighted by prevalence: "
            "Provost & Domingos (2000)", compute={"multiclass": _mc(lambda ev: ev.macro_auc)}, metric=False,
            rank={"multiclass": 4}, rank_label="macro AUC (one vs rest)",
            json_path={"multiclass": "learners.*.macro.auc"}),
    Measure("ovo_auc", "one-vs-one AUC", "threshold_free", ("multiclass",), "higher",
            "Hand & Till (2001): the mean over class pairs of the two pairwise AUCs.",
            "Hand & Till, Machine Learning 45 (2001)", compute={"multiclass": _mc(lambda ev: ev.ovo_auc)},
            metric=False,
            json_path={"multiclass": "learners.*.macro.ovo_auc"}),
    Measure("bayes_decision_cost", "Bayes decision cost", "threshold_free", ("multiclass",), "lower",
            "The cost-sensitive error of the decisions that minimise the expected cost sum_i p_i cost[i][j] "
            "under the matrix, when the scores are probabilities.", "Elkan, IJCAI (2001)",
            compute={"multiclass": _mc(lambda ev: ev.bayes_cost)}, metric=False),
    Measure("auc_ci", "AUC interval (DeLong)", "interval", ("binary",), "none",
            "DeLong's confidence interval of the AUC, from the structural components' variance.",
            "DeLong, DeLong & Clarke-Pearson, Biometrics 44 (1988)", metric=False),
    Measure("bootstrap", "bootstrap intervals", "interval", TASKS, "none",
            "Percentile intervals over stratified resamples of the instances: BEP, F1, average precision "
            "and expected total cost (binary); accuracy and macro-F1 (multi-class).",
            "Efron & Tibshirani (1993)", metric=False),
    Measure("envelopment", "envelopment", "comparison", ("binary",), "none",
            "A envelops B when A's ROC curve is nowhere below B's and above somewhere (compared exactly at "
            "every breakpoint of both curves); then A's P-R curve envelops B's as well.", ZHOU + "3.3",
            metric=False, compare=True,
            json_path={"binary": "comparisons.envelopment"}),
    Measure("cost_envelope", "cost envelope", "comparison", ("binary",), "none",
            "The lower envelope of the learners' cost curves: which learner, at which threshold, is cheapest "
            "at each PC(+), and the ROC hull across learners.", DH + "; Provost & Fawcett, Machine Learning 42 (2001)", metric=False, compare=True,
            json_path={"binary": "comparisons.cost_envelope"}),
    Measure("delong", "DeLong's test", "test", ("binary",), "none",
            "The paired test of two AUCs on the same instances, from their structural components; with "
            "Holm's adjusted p-value over a data set's pairs.",
            "DeLong, DeLong & Clarke-Pearson, Biometrics 44 (1988)", metric=False, compare=True,
            json_path={"binary": "comparisons.delong"}),
    Measure("mcnemar", "McNemar's test", "test", TASKS, "none",
            "The test of two learners' disagreements (binary: at their thresholds; multi-class: right or "
            "wrong): the exact binomial test below 25 "
            "disagreements, the chi-squared with continuity correction from 25 (confidence.mcnemar); with "
            "Holm's adjusted p-value over a data set's pairs.", ZHOU + "4.3", metric=False,
            compare=True,
            json_path={"binary": "comparisons.mcnemar", "multiclass": "comparisons.mcnemar"}),
    Measure("paired_t", "paired t-test", "test", TASKS, "none",
            "The paired t-test of two learners' error rates over the groups (folds).", ZHOU + "4.2",
            metric=False, compare=True,
            json_path={"binary": "comparisons.paired_t", "multiclass": "comparisons.paired_t"}),
    Measure("friedman", "Friedman's test", "test", TASKS, "none",
            "Friedman's test of the learners' ranks over several data sets (AUC; multi-class: accuracy), "
            "with Nemenyi's critical difference.", ZHOU + "4.4; Demsar, JMLR 7 (2006)", metric=False,
            compare=True,
            json_path={"binary": "comparisons.friedman", "multiclass": "comparisons.friedman"}),
]

TERMS = [
    Term("probability cost PC(+)", ("binary",),
         "p c_FN / (p c_FN + (1 - p) c_FP), with p the positive prior and the named costs: the x axis of "
         "cost curves."),
    Term("normalised expected cost", ("binary",), "FNR PC(+) + FPR (1 - PC(+)): the cost line of one ROC point."),
    Term("decision", ("multiclass",),
         "The class of highest score; a tie goes to the class listed first in the spec's classes."),
]

#: name -> measure, in the registry's order (the order of results.json and of the report)
MEASURES: dict[str, Measure] = {}


def register(measure: Measure, *, after: str | None = None) -> Measure:
    """Add ``measure`` (at the end, or right after ``after``). Names are unique."""
    if measure.name in MEASURES:
        raise ValueError(f"measure {measure.name!r} is already registered")
    if after is None:
        MEASURES[measure.name] = measure
    else:
        items = list(MEASURES.items())
        at = [k for k, _ in items].index(after) + 1
        items.insert(at, (measure.name, measure))
        MEASURES.clear()
        MEASURES.update(items)
    return measure


def unregister(name: str) -> None:
    MEASURES.pop(name)


for _m in _ENTRIES:
    register(_m)
del _m


def get(name: str) -> Measure:
    return MEASURES[name]


def measures_for(task: str, *kinds: str) -> list[Measure]:
    """The measures of ``task`` (of the given kinds), in the registry's order."""
    return [m for m in MEASURES.values() if task in m.tasks and (not kinds or m.kind in kinds)]


def metric_names() -> tuple[str, ...]:
    """The names the spec's ``metrics:`` list accepts."""
    return tuple(m.name for m in MEASURES.values() if m.metric)


def gate_names() -> tuple[str, ...]:
    """The names ``gates[].metric`` accepts."""
    return tuple(m.name for m in MEASURES.values() if m.gate)


def comparison_names() -> tuple[str, ...]:
    """The names the spec's ``compare:`` list accepts."""
    return tuple(m.name for m in MEASURES.values() if m.compare)


def ranked(task: str) -> list[Measure]:
    """The measures ``task`` ranks its learners by, in the rankings' order."""
    return sorted((m for m in MEASURES.values() if task in m.rank), key=lambda m: m.rank[task])


def definitions(task: str) -> dict[str, str]:
    """The appendix: label -> definition of every measure and term of ``task``."""
    out = {}
    for m in measures_for(task):
        undefined = f" Undefined when: {m.undefined}." if m.undefined else ""
        out[m.label] = f"{m.definition}{undefined} ({m.reference})"
    out.update({t.name: t.definition for t in TERMS if task in t.tasks})
    return out


def as_records() -> list[dict]:
    """The registry for people and programs (``evalreport measures --format json``)."""
    return [{"name": m.name, "label": m.label, "tasks": list(m.tasks), "direction": m.direction,
             "kind": m.kind, "definition": m.definition, "reference": m.reference,
             "undefined_when": m.undefined or None, "spec": [k for k, on in (
                 ("metrics", m.metric), ("gates", m.gate), ("compare", m.compare)) if on],
             "ranked": sorted(m.rank, key=TASKS.index), "results_json": dict(m.json_path)}
            for m in MEASURES.values()]


def markdown_table() -> str:
    """The README's measure table (tests/test_registry.py keeps the README in step)."""
    rows = ["| name | measure | tasks | better | definition | undefined when |", "|---|---|---|---|---|---|"]
    for m in MEASURES.values():
        better = {"higher": "higher", "lower": "lower", "none": ""}[m.direction]
        tasks = ", ".join("multi-class" if t == "multiclass" else t for t in m.tasks)
        rows.append(f"| `{m.name}` | {m.label} | {tasks} | {better} | {m.definition} | {m.undefined} |")
    return "\n".join(rows) + "\n"
