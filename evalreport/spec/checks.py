"""The spec's checks beyond one key's type, each told at its key and line:
pydantic's errors read back into key paths, unknown names (metrics,
comparisons, formats, gate metrics) checked on the raw data, and the checks
across keys (task and classes, priors, costs, data sources and learners,
gates, the report's template folder).
"""

from __future__ import annotations

import math
import types
import typing
from typing import Annotated, Any, Union

from pydantic import BaseModel, ValidationError

from .. import registry
from ..errors import suggest
from ..measure import SCALAR_KINDS
from ..metrics.labels import label_key
from .files import COMPRESSED_SUFFIXES, DATA_SUFFIXES, ENGINE_COMPRESSIONS, data_suffix
from .messages import cut, Locator, short, unknown_name, format_path
from .models import (Confidence, DataSource, Gate, History, Learner, OptimalOn, PartialAuc, Report, Spark, Spec,
                     ThresholdTable)
from .names import FORMATS, comparison_names, gate_names, metric_names
from .slice_checks import slice_problems

#: the largest cost: costs are relative (only their ratios matter), and a
#: multi-class cost-sensitive error sums one cost per row, which must stay finite
MAX_COST = 1e100


_MODEL_FIELDS = {
    (): Spec,
    ("data", int): DataSource,
    ("data", int, "learners", str): Learner,
    ("partial_auc",): PartialAuc,
    ("thresholds",): ThresholdTable,
    ("threshold",): OptimalOn,
    ("confidence",): Confidence,
    ("gates", int): Gate,
    ("report",): Report,
    ("spark",): Spark,
    ("history",): History,
}


def _fields_at(loc) -> list[str]:
    for pattern, model in _MODEL_FIELDS.items():
        if len(pattern) == len(loc) and all(
            (p is int and isinstance(x, int)) or (p is str and isinstance(x, str)) or p == x
            for p, x in zip(pattern, loc)
        ):
            return [f.alias or name for name, f in model.model_fields.items() if not f.exclude]
    return []


def _members(tp) -> list:
    """The types a value of type ``tp`` may take (one unless a union; None aside)."""
    while typing.get_origin(tp) is Annotated:
        tp = typing.get_args(tp)[0]
    if typing.get_origin(tp) in (Union, types.UnionType):
        return [m for m in typing.get_args(tp) if m is not type(None)]
    return [tp]


def _holds_keys(tp) -> bool:
    """Whether a location can go on below a value of type ``tp``."""
    tp = _members(tp)[0]
    return typing.get_origin(tp) in (list, dict) or (isinstance(tp, type) and issubclass(tp, BaseModel))


def clean_loc(loc) -> tuple:
    """pydantic's error location with only the spec's keys and indexes.

    pydantic puts a tag after a union key, naming the member that failed
    ('float', "literal['optimal']", 'function-after[...]'), and '[key]' after a
    mapping key that fails. They are found by position, following the model's
    types: a learner may be called 'str' or 'list', a key may be 'date'.
    """
    out, tp, i = [], Spec, 0
    while i < len(loc):
        members = _members(tp)
        if len(members) > 1:  # loc[i] is the union's tag: skip it, follow the member
            nested = [m for m in members if _holds_keys(m)]
            tp = nested[0] if len(nested) == 1 else Any
            i += 1
            continue
        tp, part = members[0], loc[i]
        out.append(part)
        i += 1
        origin = typing.get_origin(tp)
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            field = tp.model_fields.get(part)
            tp = field.annotation if field is not None else Any
        elif origin is list:
            tp = typing.get_args(tp)[0]
        elif origin is dict:
            tp = typing.get_args(tp)[1]
            if i < len(loc) and loc[i] == "[key]":  # the key itself is wrong, not its value
                i += 1
        else:
            tp = Any
    return tuple(out)


def pydantic_problems(exc: ValidationError, where: Locator) -> list[str]:
    problems = []
    seen = set()
    for err in exc.errors(include_url=False):
        loc = clean_loc(err["loc"])
        kind = err["type"]
        if kind == "extra_forbidden":
            key = loc[-1]
            valid = _fields_at(loc[:-1])
            text = f"unknown key '{key}'{suggest(key, valid)}"
            if valid:
                text += f"; valid keys here: {', '.join(valid)}"
        elif kind == "missing":
            text = "required key is missing"
        elif kind in ("value_error", "assertion_error"):
            text = str(err.get("ctx", {}).get("error", err["msg"]))
        else:
            text = err["msg"]
            if "input" in err and not isinstance(err["input"], (dict, list)):
                text += f" (got {short(err['input'])})"
        msg = where.message(loc, text)
        # A union reports once per member; keep the first message per location.
        if loc in seen and kind not in ("extra_forbidden",):
            continue
        seen.add(loc)
        problems.append(msg)
    return problems


def semantic_problems(spec: Spec, where: Locator) -> list[str]:
    """Cross-key checks that a field-by-field model cannot express."""
    out = []

    def add(loc, text):
        out.append(where.message(loc, text))

    _task_problems(spec, add)
    # priors and costs
    _prior_problems(spec, add)
    _cost_problems(spec, add)
    # data sources and learners
    by_dataset: dict[str | None, dict[str, int]] = {}
    for i, src in enumerate(spec.data):
        _source_problems(spec, i, src, add)
        _learner_problems(spec, i, src, by_dataset.setdefault(src.dataset, {}), where, add)
    all_learners = sorted({n for d in by_dataset.values() for n in d})
    if isinstance(spec.threshold, OptimalOn):
        _optimal_on_problems(spec, by_dataset, add)
    _gate_problems(spec, all_learners, sorted(str(d) for d in by_dataset if d is not None), add)
    slice_problems(spec, add)
    if spec.rank_by is not None:
        _rank_by_problems(spec, add)
    template = _template_problem(spec)
    if template:
        add(("report", "template"), template)
    return out


def _task_problems(spec: Spec, add) -> None:
    """The keys that belong to the other task (classes, positive, thresholds), and fbeta."""
    if spec.task == "binary":
        if spec.classes is not None:
            add(("classes",), "classes is for multiclass tasks; a binary task names its positive label")
    else:
        if spec.classes is None:
            add(("task",), "a multiclass task needs classes: [..] in order")
        elif len(spec.classes) < 2 or len({label_key(c) for c in spec.classes}) != len(spec.classes):
            add(("classes",), "classes must be at least two distinct labels")
        if spec.positive is not None:
            add(("positive",), "positive is for binary tasks; a multiclass task lists its classes")

    if spec.thresholds is not None:
        if spec.task != "binary":
            add(("thresholds",), "thresholds (a threshold table) is for binary tasks; a multiclass task decides "
                "by the class of highest score")
        elif "threshold_table" not in spec.metric_set:
            add(("thresholds",), "thresholds asks for a threshold table, which the spec's metrics leave out: "
                "add threshold_table to metrics")

    for i, b in enumerate(spec.fbeta):
        if not (b > 0 and math.isfinite(b * b)):  # F-beta weighs by beta squared
            add(("fbeta", i), f"beta must be a positive number (its square finite), got {b!r}")


def _prior_problems(spec: Spec, add) -> None:
    """priors: the binary task's positive prior, or the classes' priors summing to 1."""
    if spec.priors is not None:
        if spec.task == "binary":
            for key in spec.priors:
                if key != "positive":
                    add(("priors", key), f"unknown key '{key}'{suggest(key, ['positive'])}; "
                        "a binary task gives priors: {positive: p}")
            p = spec.priors.get("positive")
            if p is None:
                add(("priors",), "give priors: {positive: p} with 0 < p < 1")
            elif not 0 < p < 1:
                add(("priors", "positive"), f"the positive prior must be in (0, 1), got {p!r}")
        elif spec.classes is not None:
            names = [str(c) for c in spec.classes]
            for key, p in spec.priors.items():
                if key not in names:
                    add(("priors", key), unknown_name("class", key, names))
                elif not 0 <= p <= 1:
                    add(("priors", key), f"a class prior must be in [0, 1], got {p!r}")
            total = sum(spec.priors.values())
            if set(spec.priors) == set(names) and abs(total - 1) > 1e-9:
                add(("priors",), f"class priors must sum to 1 (they sum to {total:g})")


def _cost_problems(spec: Spec, add) -> None:
    """costs: the binary task's two error costs, or the classes' cost matrix."""
    if spec.costs is not None:
        if spec.task == "binary":
            names = ("false_negative", "false_positive")
            for key, value in spec.costs.items():
                if key not in names:
                    add(("costs", key), f"unknown cost '{key}'{suggest(key, names)}; "
                        "a binary task names false_negative and false_positive")
                elif _cost_problem(value):
                    add(("costs", key), f"a cost {_cost_problem(value)}, got {short(value)}")
            if all(isinstance(spec.costs.get(k), (int, float)) for k in names):
                if spec.costs["false_negative"] == 0 and spec.costs["false_positive"] == 0:
                    add(("costs",), "false_negative and false_positive cannot both be 0")
            for key in names:
                if key not in spec.costs:
                    add(("costs",), f"missing cost {key}")
        else:
            matrix = spec.costs.get("matrix")
            for key in spec.costs:
                if key != "matrix":
                    add(("costs", key), f"unknown key '{key}'; a multiclass task gives costs: {{matrix: [[..]]}}")
            k = len(spec.classes or [])
            ok = (isinstance(matrix, list) and len(matrix) == k
                  and all(isinstance(r, list) and len(r) == k for r in matrix))
            if not ok:
                add(("costs", "matrix"), f"the cost matrix must be {k} x {k} (rows true, columns predicted)")
            else:
                for i, row in enumerate(matrix):
                    for j, c in enumerate(row):
                        if _cost_problem(c):
                            add(("costs", "matrix", i), f"cost [{i}][{j}] {_cost_problem(c)}, got {short(c)}")
                        elif i == j and c != 0:
                            add(("costs", "matrix", i), f"the diagonal must be 0 (cost [{i}][{i}] is {c!r})")


def _source_problems(spec: Spec, i: int, src, add) -> None:
    """A data source's file type and compression, and the keys its engine reads."""
    if src.table is not None:  # an in-memory table: no file, read by the memory road only
        if src.engine != "memory":
            add(("data", i, "table"), f"an in-memory table is read with engine: memory, not {src.engine}")
    suffix, compression = data_suffix(src.path) if src.path is not None else (".arrow", None)
    if suffix not in DATA_SUFFIXES and src.engine == "memory" and src.table is None:
        add(("data", i, "path"), f"unsupported file type '{suffix or src.path}'; "
            f"use one of {', '.join(DATA_SUFFIXES)} (.csv, .tsv and .jsonl may be compressed: "
            f"{', '.join(COMPRESSED_SUFFIXES)})")
    engine_codecs = ENGINE_COMPRESSIONS.get(src.engine, COMPRESSED_SUFFIXES)
    if compression is not None and compression not in engine_codecs:
        add(("data", i, "path"), f"engine: {src.engine} reads compressed text files ending in "
            f"{' or '.join(engine_codecs)}, not {compression}")
    if src.engine != "memory":
        if suffix == ".npz" and src.kind == "auto":
            add(("data", i, "path"), f"engine: {src.engine} reads Parquet, CSV, TSV and JSON lines "
                "files; a .npz file needs engine: memory")
        if spec.task != "binary" and src.group is not None:
            add(("data", i, "group"), "a multiclass task with groups needs engine: memory in this version")
        if spec.task != "binary" and src.resolution is not None:
            add(("data", i, "resolution"), "resolution applies to binary tasks in this version")
        for name, learner in src.learners.items():
            if learner.predicted is not None:
                add(("data", i, "learners", name), f"engine '{src.engine}' aggregates score columns; "
                    "hard decisions need engine: memory")
    elif src.kind not in ("auto",) or src.database is not None:
        add(("data", i, "kind"), "kind and database apply to engine duckdb or spark only")
    if src.resolution is not None and src.engine == "memory":
        add(("data", i, "resolution"), "resolution applies to engine duckdb or spark only")


def _learner_problems(spec: Spec, i: int, src, seen: dict[str, int], where: Locator, add) -> None:
    """A source's learners: each name once per data set (``seen``: name -> the
    source that defined it), and score columns that suit the task."""
    for name, learner in src.learners.items():
        loc = ("data", i, "learners", name)
        if name in seen:
            first = format_path(where.original(("data", seen[name])))  # as written (patterns expanded)
            add(loc, f"learner '{name}' is already defined in {first} of the same "
                "data set; a name is unique within a data set")
        seen[name] = i
        if spec.task == "binary" and learner.scores is not None:
            add(loc, "a list of score columns is for multiclass tasks; a binary learner "
                "gives one score column")
        if spec.task == "multiclass" and learner.score is not None:
            add(loc, "a multiclass learner gives one score column per class (a list) "
                "or {predicted: column}")
        if spec.task == "multiclass" and learner.scores is not None and spec.classes \
                and len(learner.scores) != len(spec.classes):
            add(loc, f"{len(learner.scores)} score columns for {len(spec.classes)} classes")


def _gate_problems(spec: Spec, all_learners: list[str], datasets: list[str], add) -> None:
    """deployed and the gates name learners and data sets of the spec; a gate's bounds."""
    if spec.deployed is not None and spec.deployed not in all_learners:
        add(("deployed",), unknown_name("learner", spec.deployed, all_learners))
    for i, gate in enumerate(spec.gates):
        if gate.learner is not None and gate.learner not in all_learners:
            add(("gates", i, "learner"), unknown_name("learner", gate.learner, all_learners))
        if gate.dataset is not None and gate.dataset not in datasets:
            add(("gates", i, "dataset"), unknown_name("data set", gate.dataset, datasets) if datasets else
                f"no data set is named '{gate.dataset}': name the data sets with data[].dataset")
        if gate.metric == "partial_auc" and spec.partial_auc is None:
            add(("gates", i, "metric"), "gate on partial_auc needs partial_auc: {max_fpr: ..} in the spec")
        if gate.min is not None and gate.max is not None and gate.min > gate.max:
            add(("gates", i), f"min ({gate.min}) is above max ({gate.max})")
        _change_gate_problems(spec, i, gate, add)


def rank_names(task: str) -> list[str]:
    """The measures ``rank_by`` accepts for ``task``: the registry's scalars of the
    task that have a better direction (fbeta aside: one value per beta)."""
    return [m.name for m in registry.measures_for(task, *SCALAR_KINDS)
            if m.direction in ("higher", "lower") and m.name != "fbeta"]


def rank_measure(spec: Spec) -> str:
    """The measure the learners are ranked by: ``rank_by`` when given, else the
    expected cost when the spec gives costs (binary: cost_at_threshold, the cost
    of each learner's deployed threshold at the operating point, not min_cost,
    the least cost over thresholds chosen on the data judged, which is
    optimistic; multiclass: cost_sensitive_error), else auc. Which way is better
    is the registry entry's ``direction``."""
    if spec.rank_by is not None:
        return spec.rank_by
    if spec.costs is not None:
        return "cost_at_threshold" if spec.task == "binary" else "cost_sensitive_error"
    return "auc"


def _rank_by_problems(spec: Spec, add) -> None:
    name, valid = spec.rank_by, rank_names(spec.task)
    if name in valid:
        if name == "partial_auc" and spec.partial_auc is None:
            add(("rank_by",), "rank_by: partial_auc needs partial_auc: {max_fpr: ..} in the spec")
        return
    task = "a multiclass" if spec.task == "multiclass" else "a binary"
    if name in registry.MEASURES:
        m = registry.get(name)
        why = (f"{name} is not a measure of {task} task" if spec.task not in m.tasks
               else f"{name} has no single value per learner to rank by")
        add(("rank_by",), f"{why}{suggest(name, valid)}; valid for {task} task: {', '.join(valid)}")
    else:
        add(("rank_by",), f"unknown measure '{cut(name)}'{suggest(name, valid)}; valid for {task} task: "
            f"{', '.join(valid)}")


def _change_gate_problems(spec: Spec, i: int, gate: Gate, add) -> None:
    """A gate on the change since the previous run (max_drop, significant_drop,
    drift) compares with the archive of earlier runs: the spec needs history:, and
    the measure one whose change is computed."""
    if not gate.on_change:
        return
    key = "drift" if gate.drift is not None else ("max_drop" if gate.max_drop is not None else "significant_drop")
    # getattr: history: is the archive's key (spec.models.History)
    if getattr(spec, "history", None) is None:
        add(("gates", i, key), f"a gate on {key} compares with the previous run, which needs history: "
            "{dir: <folder>} in the spec (the archive of the runs)")
    # the measures whose change evalreport.history.changes computes (the registry's ``history``)
    allowed = registry.change_names(spec.task or "binary")
    if gate.drift is None and gate.metric in gate_names() and gate.metric not in allowed:
        task = " for a multiclass task" if spec.task == "multiclass" else ""
        add(("gates", i, "metric"), f"the change since the previous run is not computed for {gate.metric}"
            f"{task}; a gate on {key} takes one of {', '.join(allowed)}")


def _optimal_on_problems(spec: Spec, by_dataset: dict, add) -> None:
    """threshold: {optimal_on: name}: a binary task, a data set of that name, and
    each learner of the other data sets among its learners (matched by name)."""
    name = spec.threshold.optimal_on
    loc = ("threshold", "optimal_on")
    if spec.task != "binary":
        add(loc, "optimal_on chooses a binary learner's threshold; a multiclass task has none")
        return
    names = [d for d in by_dataset if d is not None]
    if name not in by_dataset:
        add(loc, unknown_name("data set", name, names) if names else
            f"no data set is named '{name}': name the data sets (data[].dataset) and give the "
            "validation one here")
        return
    if len(by_dataset) < 2:
        add(loc, f"'{name}' is the only data set: optimal_on chooses the thresholds on one data set "
            "and applies them to the others (threshold: optimal chooses them on the data measured)")
        return
    chosen = by_dataset[name]
    for i, src in enumerate(spec.data):
        if src.dataset == name:
            continue
        for learner, columns in src.learners.items():
            if learner not in chosen and columns.threshold is None and columns.predicted is None:
                add(("data", i, "learners", learner),
                    f"learner '{learner}' is not in data set '{name}', where threshold: {{optimal_on: "
                    f"{name}}} chooses each learner's threshold{suggest(learner, sorted(chosen))}; "
                    "give it its own threshold or the same name there")


def _cost_problem(value) -> str | None:
    """What is wrong with a cost ('must be ...'), or None."""
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 <= value < math.inf:
        return "must be a number >= 0"
    if value > MAX_COST:
        return f"must be at most {MAX_COST:g} (costs are relative: scale them down)"
    return None


def _template_problem(spec: Spec) -> str | None:
    """Why report.template names no folder of templates (checked here, before any
    evaluation, rather than when the report is rendered)."""
    name = spec.report.template
    if name == "default":  # the built-in templates
        return None
    folder = spec.resolve(name)
    try:
        if folder.is_dir():
            return None
        exists = folder.exists()
    except (OSError, ValueError) as exc:  # a name too long, a NUL character
        return f"cannot read the folder {cut(name)}: {getattr(exc, 'strerror', None) or exc}"
    if exists:
        return f"{cut(name)} is a file; give a folder of templates (or 'default')"
    try:
        near = sorted(p.name for p in folder.parent.iterdir() if p.is_dir())
    except OSError:
        near = []
    return f"no such folder: {cut(name)}{suggest(folder.name, near)}"


def name_problems(data: dict, where: Locator) -> list[str]:
    """Unknown metric, comparison, format and gate-metric names, on the raw data
    (so they are reported even when other keys fail to validate)."""
    out = []

    def check(loc, value, kind, valid):
        if isinstance(value, list):
            for i, name in enumerate(value):
                if isinstance(name, str) and name not in valid:
                    out.append(where.message(loc + (i,), unknown_name(kind, name, valid)))

    check(("metrics",), data.get("metrics"), "metric", metric_names())
    check(("compare",), data.get("compare"), "comparison", comparison_names())
    report = data.get("report")
    if isinstance(report, dict):
        check(("report", "formats"), report.get("formats"), "format", FORMATS)
    gates = data.get("gates")
    if isinstance(gates, list):
        for i, gate in enumerate(gates):
            metric = gate.get("metric") if isinstance(gate, dict) else None
            if isinstance(metric, str) and metric not in gate_names():
                out.append(where.message(("gates", i, "metric"),
                                         unknown_name("gate metric", metric, gate_names())))
    return out
