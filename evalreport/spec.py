"""The spec (version 1): a typed model of every key, loaded from YAML safely.

Every problem is reported at once, each naming the file, the YAML line and the
key path, with the closest valid name suggested for unknown keys and names::

    spec.yaml:12: data[0].learners.boosted.score: column 'p_gbm' is not in ...
"""

from __future__ import annotations

import datetime as _dt
import json
import math
from pathlib import Path
from typing import Any, Literal, Union

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    ValidationError,
    field_validator,
    model_validator,
)

from .errors import SpecError, suggest
from .metrics.labels import label_key

__all__ = [
    "METRICS",
    "COMPARISONS",
    "FORMATS",
    "GATE_METRICS",
    "Spec",
    "DataSource",
    "Learner",
    "load_spec",
    "parse_spec",
    "json_schema",
    "KeyPath",
]

METRICS = (
    "error_rate", "accuracy", "precision", "recall", "f1", "fbeta", "confusion_matrix",
    "roc", "auc", "rank_loss", "pr", "average_precision", "bep", "cost_sensitive_error",
    "cost_curve", "expected_total_cost", "macro", "micro",
)
COMPARISONS = (
    "envelopment", "auc", "bep", "f1", "expected_total_cost", "cost_envelope",
    "delong", "mcnemar", "paired_t", "friedman",
)
FORMATS = ("html", "pdf", "json")
ENGINES = ("memory", "duckdb", "spark")
#: scalars a gate can test, per learner
GATE_METRICS = (
    "error_rate", "accuracy", "precision", "recall", "f1", "cost_sensitive_error", "auc",
    "rank_loss", "average_precision", "bep", "expected_total_cost", "partial_auc", "min_cost",
)
#: the decision threshold of hard decisions (0/1), and of ``threshold: optimal``
#: when there is no ROC hull to pick from (one class only)
FALLBACK_THRESHOLD = 0.5
DATA_SUFFIXES = (".csv", ".tsv", ".parquet", ".jsonl", ".npz")
#: compressions the text formats (.csv, .tsv, .jsonl) may carry: pyarrow
#: decompresses them as it reads, chosen by this last suffix
COMPRESSED_SUFFIXES = (".gz", ".bz2", ".zst", ".lz4")
_TEXT_SUFFIXES = (".csv", ".tsv", ".jsonl")
#: the compressions each out-of-core engine reads (DuckDB's CSV reader; Spark's
#: Hadoop codecs without native libraries)
ENGINE_COMPRESSIONS = {"duckdb": (".gz", ".zst"), "spark": (".gz", ".bz2")}


def data_suffix(path) -> tuple[str, str | None]:
    """(format suffix, compression suffix or None) of a data file's name:
    ``preds.csv.gz`` -> ``(".csv", ".gz")``, ``preds.parquet`` -> ``(".parquet", None)``."""
    p = Path(str(path))
    last = p.suffix.lower()
    if last in COMPRESSED_SUFFIXES:
        inner = Path(p.stem).suffix.lower()
        if inner in _TEXT_SUFFIXES:
            return inner, last
    return last, None


def _unknown_name(kind: str, name, valid) -> str:
    return f"unknown {kind} '{name}'{suggest(name, valid)}; valid: {', '.join(valid)}"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Learner(_Model):
    """One learner's columns: a score column, hard decisions, or one score per class."""

    score: str | None = Field(None, description="Score column, higher = more positive (binary).")
    scores: list[str] | None = Field(
        None, description="Multiclass: one score column per class, in `classes` order."
    )
    predicted: str | None = Field(None, description="Column of hard decisions (no curves).")
    threshold: float | None = Field(None, description="Per-learner decision threshold.")

    @model_validator(mode="before")
    @classmethod
    def _shorthand(cls, value):
        # `name: column` and `name: [c1, c2, c3]` are shorthands.
        if isinstance(value, str):
            return {"score": value}
        if isinstance(value, list):
            return {"scores": value}
        return value

    @model_validator(mode="after")
    def _one_kind(self):
        given = [k for k in ("score", "scores", "predicted") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError(
                "give exactly one of score (a column), predicted (a column of decisions) "
                "or a list of per-class score columns"
                + (f"; got {', '.join(given)}" if given else "")
            )
        if self.threshold is not None and self.score is None:
            raise ValueError("threshold applies only to a score column")
        return self

    @property
    def columns(self) -> list[str]:
        if self.scores is not None:
            return list(self.scores)
        return [self.score if self.score is not None else self.predicted]


class DataSource(_Model):
    path: str = Field(description="Prediction file, relative to the spec: .csv .tsv .parquet .jsonl .npz "
                                  "(.csv .tsv .jsonl also compressed: .gz .bz2 .zst .lz4)")
    label: str = Field(description="Column of true labels.")
    id: str | None = Field(None, description="Column of instance ids; aligns learners across files.")
    group: str | None = Field(None, description="Column of groups (folds, runs): one confusion matrix per group.")
    weight: str | None = Field(None, description="Column of non-negative sample weights.")
    dataset: str | None = Field(None, description="Name of the data set (for comparisons across data sets).")
    engine: Literal["memory", "duckdb", "spark"] = Field("memory", description="Where the data is aggregated.")
    resolution: Union[int, float, None] = Field(
        None, gt=0, description="duckdb/spark: a float is a rounding step of the scores, an integer a "
                                "number of quantile bins; caps the count table and reports the bound it "
                                "puts on AUC, AP and BEP.")
    kind: Literal["auto", "parquet", "csv", "json", "table", "sql"] = Field(
        "auto", description="duckdb and spark: what `path` is (auto: by its suffix; parquet, csv or json "
                            "files or a glob; a table; a SQL query).")
    database: str | None = Field(None, description="duckdb: a database file for kind table or sql.")
    memory_limit: str = Field("1GB", description="duckdb: memory budget of the aggregation (DuckDB's buffers get half of it and spill to disk past that).")
    learners: dict[str, Learner] = Field(description="Learner name -> its column(s).")

    @field_validator("learners")
    @classmethod
    def _some_learner(cls, value):
        if not value:
            raise ValueError("name at least one learner")
        return value


class PartialAuc(_Model):
    max_fpr: float = Field(gt=0, le=1, description="AUC over FPR in [0, max_fpr].")
    standardized: bool = Field(True, description="McClish standardisation (0.5 random, 1 perfect).")


class Confidence(_Model):
    level: float = Field(0.95, gt=0, lt=1)
    bootstrap: int = Field(2000, ge=0, description="Bootstrap resamples (0: none).")
    seed: int = 0


class Gate(_Model):
    learner: str | None = Field(None, description="A learner name; omitted: every learner.")
    metric: str
    min: float | None = None
    max: float | None = None

    @model_validator(mode="after")
    def _bound(self):
        if self.min is None and self.max is None:
            raise ValueError("a gate needs min or max")
        return self


class Report(_Model):
    formats: list[str] = Field(default_factory=lambda: list(FORMATS))
    out: str = Field("reports", description="Output folder, relative to the spec file.")
    template: str = Field("default", description="'default' or a folder of templates overriding the default ones.")
    curve_points: Union[int, Literal["all"]] = Field(
        5000, description="Most points per curve kept in results.json, or 'all'."
    )

    @field_validator("curve_points")
    @classmethod
    def _points(cls, value):
        if value != "all" and value < 2:
            raise ValueError("curve_points must be at least 2, or 'all'")
        return value


class Spark(_Model):
    master: str | None = None
    remote: str | None = None
    conf: dict[str, str] = Field(default_factory=dict)


class Spec(_Model):
    """An evalreport spec, version 1."""

    version: Literal[1] = Field(description="Spec format version; must be 1.")
    title: str = "Evaluation report"
    description: str | None = Field(None, description="Shown under the title (Markdown).")
    date: _dt.date | None = Field(None, description="Report date. Default: SOURCE_DATE_EPOCH, else today.")
    task: Literal["binary", "multiclass"] = "binary"
    # Strict: a label is taken as written (lax parsing made 1.0 the boolean True,
    # refused 1.5, and turned classes [true, false] into 1 and 0).
    positive: Union[StrictBool, StrictInt, StrictFloat, StrictStr, None] = Field(
        None, description="Binary: the label of the positive class (default 1)."
    )
    classes: list[Union[StrictBool, StrictInt, StrictFloat, StrictStr]] | None = Field(
        None, description="Multiclass: the classes, in order.")

    data: list[DataSource] = Field(min_length=1)
    threshold: Union[float, Literal["optimal"]] = Field(
        0.5, description="Decision threshold, or 'optimal' (least cost at the operating point)."
    )
    priors: dict[str, float] | None = Field(
        None, description="Class priors of the target population; binary: {positive: p}."
    )
    costs: dict[str, Any] | None = Field(
        None, description="Binary: {false_negative, false_positive}; multiclass: {matrix: [[...]]}."
    )
    metrics: Union[Literal["all"], list[str]] = "all"
    fbeta: list[float] = Field(default_factory=lambda: [0.5, 2.0], description="Betas reported for F-beta.")
    partial_auc: PartialAuc | None = None
    compare: Union[Literal["all"], list[str]] = "all"
    confidence: Confidence = Field(default_factory=Confidence)
    gates: list[Gate] = Field(default_factory=list)
    report: Report = Field(default_factory=Report)
    spark: Spark | None = None

    # Resolved on load, not part of the YAML.
    base_dir: Path = Field(Path("."), exclude=True, json_schema_extra={"x-internal": True})
    source: str = Field("<spec>", exclude=True)
    _locator: Any = PrivateAttr(None)
    _text: str = PrivateAttr("")

    @field_validator("positive", "classes", mode="before")
    @classmethod
    def _plain_labels(cls, value):
        # NumPy scalars (a spec built in Python) as the Python values they hold:
        # the strict types would take np.True_ or np.int64(1) for a float
        def plain(v):
            return v.item() if type(v).__module__ == "numpy" and hasattr(v, "item") else v

        return [plain(v) for v in value] if isinstance(value, (list, tuple)) else plain(value)

    @property
    def metric_set(self) -> frozenset[str]:
        return frozenset(METRICS if self.metrics == "all" else self.metrics)

    @property
    def compare_set(self) -> frozenset[str]:
        return frozenset(COMPARISONS if self.compare == "all" else self.compare)

    @property
    def positive_label(self):
        return 1 if self.positive is None else self.positive

    def resolve(self, path: str) -> Path:
        """A path from the spec, relative to the spec file's folder."""
        p = Path(path).expanduser()
        return p if p.is_absolute() else self.base_dir / p


# ---------------------------------------------------------------------------
# YAML with line numbers

KeyPath = tuple


def _compose_lines(text: str, source: str):
    """Parse YAML safely; return (data, {key path: line}, problems)."""
    problems: list[str] = []
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{source}:{mark.line + 1}" if mark is not None else source
        what = getattr(exc, "problem", None) or str(exc)
        raise SpecError([f"{where}: invalid YAML: {what}"]) from None
    if node is None:
        raise SpecError([f"{source}: the spec is empty"])
    lines: dict[tuple, int] = {(): node.start_mark.line + 1}

    def walk(n, path):
        if isinstance(n, yaml.MappingNode):
            seen = {}
            for k, v in n.value:
                key = k.value if isinstance(k, yaml.ScalarNode) else str(k)
                kp = path + (key,)
                if key in seen:
                    problems.append(
                        f"{source}:{k.start_mark.line + 1}: {format_path(kp)}: duplicate key "
                        f"(first at line {seen[key]})"
                    )
                seen[key] = k.start_mark.line + 1
                lines[kp] = k.start_mark.line + 1
                walk(v, kp)
        elif isinstance(n, yaml.SequenceNode):
            for i, item in enumerate(n.value):
                lines[path + (i,)] = item.start_mark.line + 1
                walk(item, path + (i,))

    walk(node, ())
    data = yaml.load(text, Loader=yaml.SafeLoader)  # noqa: S506 - SafeLoader
    return data, lines, problems


def format_path(loc) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "(top level)"


class _Locator:
    def __init__(self, source: str, lines: dict):
        self.source = source
        self.lines = lines

    def line(self, loc) -> int | None:
        loc = tuple(loc)
        while loc not in self.lines and loc:
            loc = loc[:-1]
        return self.lines.get(loc)

    def message(self, loc, text: str) -> str:
        line = self.line(loc)
        where = f"{self.source}:{line}" if line else self.source
        return f"{where}: {format_path(loc)}: {text}"


_MODEL_FIELDS = {
    (): Spec,
    ("data", int): DataSource,
    ("data", int, "learners", str): Learner,
    ("partial_auc",): PartialAuc,
    ("confidence",): Confidence,
    ("gates", int): Gate,
    ("report",): Report,
    ("spark",): Spark,
}


def _fields_at(loc) -> list[str]:
    for pattern, model in _MODEL_FIELDS.items():
        if len(pattern) == len(loc) and all(
            (p is int and isinstance(x, int)) or (p is str and isinstance(x, str)) or p == x
            for p, x in zip(pattern, loc)
        ):
            return [name for name, f in model.model_fields.items() if not f.exclude]
    return []


def _clean_loc(loc) -> tuple:
    # pydantic inserts union / validator tags into locations; keep the real keys.
    return tuple(p for p in loc if not (isinstance(p, str) and ("[" in p or p in _UNION_TAGS)))


_UNION_TAGS = {"int", "str", "bool", "float", "literal", "list", "dict", "none", "date"}


def _pydantic_problems(exc: ValidationError, where: _Locator) -> list[str]:
    problems = []
    seen = set()
    for err in exc.errors(include_url=False):
        loc = _clean_loc(err["loc"])
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
                text += f" (got {err['input']!r})"
        msg = where.message(loc, text)
        # A union reports once per member; keep the first message per location.
        if loc in seen and kind not in ("extra_forbidden",):
            continue
        seen.add(loc)
        problems.append(msg)
    return problems


def _semantic_problems(spec: Spec, where: _Locator) -> list[str]:
    """Cross-key checks that a field-by-field model cannot express."""
    out = []

    def add(loc, text):
        out.append(where.message(loc, text))

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

    for i, b in enumerate(spec.fbeta):
        if not (b > 0 and math.isfinite(b)):
            add(("fbeta", i), f"beta must be a positive number, got {b!r}")
    if isinstance(spec.threshold, float) and not math.isfinite(spec.threshold):
        add(("threshold",), "threshold must be a finite number or 'optimal'")

    # priors and costs
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
            for key in spec.priors:
                if key not in names:
                    add(("priors", key), _unknown_name("class", key, names))
            total = sum(spec.priors.values())
            if set(spec.priors) == set(names) and abs(total - 1) > 1e-9:
                add(("priors",), f"class priors must sum to 1 (they sum to {total:g})")
    if spec.costs is not None:
        if spec.task == "binary":
            names = ("false_negative", "false_positive")
            for key, value in spec.costs.items():
                if key not in names:
                    add(("costs", key), f"unknown cost '{key}'{suggest(key, names)}; "
                        "a binary task names false_negative and false_positive")
                elif not isinstance(value, (int, float)) or isinstance(value, bool) or value < 0 \
                        or not math.isfinite(value):
                    add(("costs", key), f"a cost must be a number >= 0, got {value!r}")
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
                        if not isinstance(c, (int, float)) or isinstance(c, bool) or c < 0:
                            add(("costs", "matrix", i), f"cost [{i}][{j}] must be a number >= 0, got {c!r}")
                        elif i == j and c != 0:
                            add(("costs", "matrix", i), f"the diagonal must be 0 (cost [{i}][{i}] is {c!r})")

    # data sources and learners
    by_dataset: dict[str | None, dict[str, int]] = {}
    for i, src in enumerate(spec.data):
        suffix, compression = data_suffix(src.path)
        if suffix not in DATA_SUFFIXES and src.engine == "memory":
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
        seen = by_dataset.setdefault(src.dataset, {})
        for name, learner in src.learners.items():
            loc = ("data", i, "learners", name)
            if name in seen:
                add(loc, f"learner '{name}' is already defined in data[{seen[name]}] of the same "
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
    all_learners = sorted({n for d in by_dataset.values() for n in d})
    for i, gate in enumerate(spec.gates):
        if gate.learner is not None and gate.learner not in all_learners:
            add(("gates", i, "learner"), _unknown_name("learner", gate.learner, all_learners))
        if gate.metric == "partial_auc" and spec.partial_auc is None:
            add(("gates", i, "metric"), "gate on partial_auc needs partial_auc: {max_fpr: ..} in the spec")
        if gate.min is not None and gate.max is not None and gate.min > gate.max:
            add(("gates", i), f"min ({gate.min}) is above max ({gate.max})")
    return out


def _name_problems(data: dict, where: _Locator) -> list[str]:
    """Unknown metric, comparison, format and gate-metric names, on the raw data
    (so they are reported even when other keys fail to validate)."""
    out = []

    def check(loc, value, kind, valid):
        if isinstance(value, list):
            for i, name in enumerate(value):
                if isinstance(name, str) and name not in valid:
                    out.append(where.message(loc + (i,), _unknown_name(kind, name, valid)))

    check(("metrics",), data.get("metrics"), "metric", METRICS)
    check(("compare",), data.get("compare"), "comparison", COMPARISONS)
    report = data.get("report")
    if isinstance(report, dict):
        check(("report", "formats"), report.get("formats"), "format", FORMATS)
    gates = data.get("gates")
    if isinstance(gates, list):
        for i, gate in enumerate(gates):
            metric = gate.get("metric") if isinstance(gate, dict) else None
            if isinstance(metric, str) and metric not in GATE_METRICS:
                out.append(where.message(("gates", i, "metric"),
                                         _unknown_name("gate metric", metric, GATE_METRICS)))
    return out


def _by_line(problems: list[str]) -> list[str]:
    def key(msg):
        head = msg.split(": ", 1)[0]
        line = head.rsplit(":", 1)[-1]
        return int(line) if line.isdigit() else 0
    return sorted(problems, key=key)


def parse_spec(text: str, *, source: str = "<spec>", base_dir: Path | str = ".") -> Spec:
    """Validate spec text; raise :class:`SpecError` listing every problem."""
    data, lines, problems = _compose_lines(text, source)
    where = _Locator(source, lines)
    if not isinstance(data, dict):
        raise SpecError([f"{source}:1: the spec must be a mapping of keys (version, data, ...)"])
    if "base_dir" in data or "source" in data:
        key = "base_dir" if "base_dir" in data else "source"
        problems.append(where.message((key,), f"unknown key '{key}'"))
        data = {k: v for k, v in data.items() if k not in ("base_dir", "source")}
    problems += _name_problems(data, where)
    try:
        spec = Spec.model_validate({**data, "base_dir": Path(base_dir), "source": source})
    except ValidationError as exc:
        raise SpecError(_by_line(problems + _pydantic_problems(exc, where))) from None
    problems += _semantic_problems(spec, where)
    if problems:
        raise SpecError(_by_line(problems))
    spec._locator = where
    spec._text = text
    return spec


def locate(spec: Spec, loc, text: str) -> str:
    """A message for a problem at key path ``loc`` of ``spec``, with its YAML line."""
    where = spec._locator or _Locator(spec.source, {})
    return where.message(loc, text)


def spec_text(spec: Spec) -> str:
    """The YAML text the spec was loaded from ('' if built in Python)."""
    return spec._text


def load_spec(path) -> Spec:
    """Load and validate a spec file.

    Raises
    ------
    SpecError
        With one message per problem (file, line, key path).
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SpecError([f"{path}: no such spec file"]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SpecError([f"{path}: cannot read the spec: {exc}"]) from None
    return parse_spec(text, source=str(path), base_dir=path.resolve().parent)


def json_schema() -> dict:
    """JSON Schema of the spec (for editors: yaml-language-server)."""
    schema = Spec.model_json_schema(mode="validation")
    props = schema.get("properties", {})
    props.pop("base_dir", None)
    props.pop("source", None)
    schema["title"] = "evalreport spec, version 1"
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    # Name lists as enums so editors can complete them.
    defs = schema.setdefault("$defs", {})
    defs["MetricName"] = {"enum": list(METRICS)}
    defs["ComparisonName"] = {"enum": list(COMPARISONS)}
    props["metrics"] = {"anyOf": [{"const": "all"}, {"type": "array", "items": {"$ref": "#/$defs/MetricName"}}],
                        "default": "all"}
    props["compare"] = {"anyOf": [{"const": "all"}, {"type": "array", "items": {"$ref": "#/$defs/ComparisonName"}}],
                        "default": "all"}
    report = defs.get("Report", {}).get("properties", {})
    if "formats" in report:
        report["formats"]["items"] = {"enum": list(FORMATS)}
    gate = defs.get("Gate", {}).get("properties", {})
    if "metric" in gate:
        gate["metric"] = {"enum": list(GATE_METRICS), "title": "Metric"}
    return schema


def schema_text() -> str:
    return json.dumps(json_schema(), indent=2, sort_keys=False) + "\n"
