"""The spec (version 1): a typed model of every key, loaded from YAML safely.

Every problem is reported at once, each naming the file, the YAML line and the
key path, with the closest valid name suggested for unknown keys and names::

    spec.yaml:12: data[0].learners.boosted.score: column 'p_gbm' is not in ...
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import os
import re
import stat
import types
import typing
from pathlib import Path
from typing import Annotated, Any, Literal, Union

import yaml
from pydantic import (
    AllowInfNan,
    BaseModel,
    BeforeValidator,
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
#: the largest cost: costs are relative (only their ratios matter), and a
#: multi-class cost-sensitive error sums one cost per row, which must stay finite
MAX_COST = 1e100
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
    return (f"unknown {kind} '{_cut(str(name))}'{suggest(name, valid)}; "
            f"valid: {', '.join(_cut(str(v)) for v in valid)}")


#: a number with an exponent and no dot (1e3, -2E-5), which YAML 1.1 reads as text
_EXPONENT_NUMBER = re.compile(r"[-+]?[0-9]+(\.[0-9]*)?[eE][-+]?[0-9]+")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _not_bool(value):
    # pydantic's lax mode takes true for 1 and 1.0; in a spec it is a slip
    # (threshold: true, min: yes), never a number
    if isinstance(value, bool):
        raise ValueError(f"Input should be a number, not a boolean (got {value!r})")
    return value


#: a number of the spec: finite (.nan and .inf are refused: they make no
#: threshold, bound, prior or cost, and results.json cannot hold them), not a boolean
Number = Annotated[float, BeforeValidator(_not_bool), AllowInfNan(False)]
#: a whole number of the spec (a count, a seed), not a boolean
Count = Annotated[int, BeforeValidator(_not_bool)]


class Learner(_Model):
    """One learner's columns: a score column, hard decisions, or one score per class."""

    score: str | None = Field(None, description="Score column, higher = more positive (binary).")
    scores: list[str] | None = Field(
        None, description="Multiclass: one score column per class, in `classes` order."
    )
    predicted: str | None = Field(None, description="Column of hard decisions (no curves).")
    threshold: Number | None = Field(None, description="Per-learner decision threshold.")

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
    resolution: Union[Count, Number, None] = Field(
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
    max_fpr: Number = Field(gt=0, le=1, description="AUC over FPR in [0, max_fpr].")
    standardized: StrictBool = Field(True, description="McClish standardisation (0.5 random, 1 perfect).")


class Confidence(_Model):
    level: Number = Field(0.95, gt=0, lt=1)
    bootstrap: Count = Field(2000, ge=0, description="Bootstrap resamples (0: none).")
    seed: Count = Field(0, ge=0, description="Seed of the bootstrap's random numbers (NumPy's, >= 0).")


class Gate(_Model):
    learner: str | None = Field(None, description="A learner name; omitted: every learner.")
    metric: str
    min: Number | None = None
    max: Number | None = None

    @model_validator(mode="after")
    def _bound(self):
        if self.min is None and self.max is None:
            raise ValueError("a gate needs min or max")
        return self


class Report(_Model):
    formats: list[str] = Field(default_factory=lambda: list(FORMATS))
    out: str = Field("reports", description="Output folder, relative to the spec file.")
    template: str = Field("default", description="'default' or a folder of templates overriding the default ones.")
    curve_points: Union[Count, Literal["all"]] = Field(
        5000, description="Most points per curve kept in results.json, or 'all'."
    )

    @field_validator("formats")
    @classmethod
    def _some_format(cls, value):
        if not value:  # a run that writes nothing would still exit 0
            raise ValueError(f"give at least one format: {', '.join(FORMATS)}")
        return value

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

    version: Annotated[Literal[1], BeforeValidator(_not_bool)] = Field(
        description="Spec format version; must be 1.")
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
    threshold: Union[Number, Literal["optimal"]] = Field(
        0.5, description="Decision threshold, or 'optimal' (least cost at the operating point)."
    )
    priors: dict[str, Number] | None = Field(
        None, description="Class priors of the target population; binary: {positive: p}."
    )
    costs: dict[str, Any] | None = Field(
        None, description="Binary: {false_negative, false_positive}; multiclass: {matrix: [[...]]}."
    )
    metrics: Union[Literal["all"], list[str]] = "all"
    fbeta: list[Number] = Field(default_factory=lambda: [0.5, 2.0], description="Betas reported for F-beta.")
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

    @field_validator("costs", mode="before")
    @classmethod
    def _numeric_costs(cls, value):
        # YAML 1.1 (PyYAML) reads 1e3 as text (its floats need a dot); a number
        # written so is a number here, as for every other numeric key
        def number(v):
            if isinstance(v, str) and _EXPONENT_NUMBER.fullmatch(v.strip()):
                return float(v)
            return [number(x) for x in v] if isinstance(v, list) else v

        return {k: number(v) for k, v in value.items()} if isinstance(value, dict) else value

    @field_validator("positive", "classes", mode="before")
    @classmethod
    def _plain_labels(cls, value):
        # NumPy scalars (a spec built in Python) as the Python values they hold:
        # the strict types would take np.True_ or np.int64(1) for a float
        def plain(v):
            return v.item() if type(v).__module__ == "numpy" and hasattr(v, "item") else v

        return [plain(v) for v in value] if isinstance(value, (list, tuple)) else plain(value)

    @field_validator("date", mode="before")
    @classmethod
    def _iso_date(cls, value):
        # a YAML date (2026-11-22) or that text quoted; pydantic's lax date
        # would take 0 for 1970-01-01 and a date with a time of day
        if value is None or (isinstance(value, _dt.date) and not isinstance(value, _dt.datetime)):
            return value
        if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
            try:
                return _dt.date.fromisoformat(value)
            except ValueError as exc:
                raise ValueError(f"{value!r} is not a valid date ({exc})") from None
        got = "a date and time" if isinstance(value, _dt.datetime) else _short(value)
        raise ValueError(f"give a date as YYYY-MM-DD (got {got})")

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
        try:
            p = Path(path).expanduser()
        except RuntimeError:  # ~nobody/x.csv: no such user; the path is then not found as written
            p = Path(path)
        return p if p.is_absolute() else self.base_dir / p


# ---------------------------------------------------------------------------
# YAML with line numbers

KeyPath = tuple


#: lists and mappings inside one another: a spec needs about seven levels; the
#: cap keeps PyYAML's recursive composer far from Python's recursion limit
MAX_DEPTH = 50
#: values an alias may build, all aliases together: reusing a block of learners
#: costs a few dozen, while aliases of aliases grow exponentially (nine lines of
#: a "billion laughs" would build a billion values); each expansion counts its
#: whole subtree again, so the work stays bounded whatever the spec
MAX_EXPANDED = 100_000
_TAG = "tag:yaml.org,2002:"
#: the scalar types a spec is written in; any other tag (!!python/..., !!binary,
#: !!set, a local !tag) is refused before anything is built from it
_SCALAR_KINDS = {_TAG + "str": "text", _TAG + "int": "integer", _TAG + "float": "number",
                 _TAG + "bool": "boolean", _TAG + "null": "null", _TAG + "timestamp": "date"}
_TAG_ADVICE = "is not allowed; a spec holds text, numbers, booleans, dates, lists and mappings"


class _Alias(yaml.nodes.Node):
    """An alias (*name) as written, with the node of its anchor: PyYAML's
    composer would hand back the anchor's node itself, losing where the alias
    is (the line to report a problem at) and hiding the repetition that the
    build counts (a "billion laughs") and the alias inside its own anchor (a
    cycle) that the build refuses."""

    id = "alias"

    def __init__(self, anchor: str, target: yaml.Node, start_mark, end_mark):
        super().__init__(target.tag, anchor, start_mark, end_mark)
        self.target = target


class _TooDeep(Exception):
    def __init__(self, path, mark, through: str = ""):
        super().__init__(path, mark, through)
        self.path, self.mark, self.through = path, mark, through


class _TooLarge(Exception):
    def __init__(self, alias: _Alias, path):
        super().__init__(alias, path)
        self.alias, self.path = alias, path


class _Loader(yaml.SafeLoader):
    """The safe loader, composing only: aliases come back as :class:`_Alias`
    and nesting is capped at :data:`MAX_DEPTH`."""

    def __init__(self, text):
        super().__init__(text)
        self._path: list = []

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            if event.anchor in self.anchors:
                self.get_event()
                return _Alias(event.anchor, self.anchors[event.anchor], event.start_mark, event.end_mark)
            return super().compose_node(parent, index)  # found undefined alias
        # index: the position in a list, the key node of a mapping's value, None for a key
        if isinstance(index, _Alias):
            index = index.target
        part = index.value if isinstance(index, yaml.ScalarNode) else index
        self._path.append("?" if part is None and parent is not None else part)
        if len(self._path) > MAX_DEPTH + 1:
            raise _TooDeep(self._path[1:2], self.peek_event().start_mark)
        try:
            return super().compose_node(parent, index)
        finally:
            self._path.pop()



def _yaml_problem(exc: yaml.YAMLError, text: str, source: str) -> str:
    if isinstance(exc, yaml.reader.ReaderError):  # a control character: no mark, a position
        line = text.count("\n", 0, exc.position) + 1
        char = f"#x{exc.character:04x}" if isinstance(exc.character, int) else repr(exc.character)
        return f"{source}:{line}: invalid YAML: unacceptable character {char}: {exc.reason}"
    mark = getattr(exc, "problem_mark", None)
    where = f"{source}:{mark.line + 1}" if mark is not None else source
    context = getattr(exc, "context", None) or ""
    what = getattr(exc, "problem", None) or context or "cannot be parsed"
    if context.startswith("found duplicate anchor"):  # the problem alone reads "second occurrence"
        what = f"{context.split(';')[0]} (first at line {exc.context_mark.line + 1})"
    elif what.startswith("but "):  # "expected a single document in the stream, but found another document"
        what = f"{context}, {what}"
    return f"{where}: invalid YAML: {what}"


def _tag_name(tag: str) -> str:
    return "!!" + tag[len(_TAG):] if tag.startswith(_TAG) else tag if tag.startswith("!") else f"!<{tag}>"


def _kind_of(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, _dt.date):
        return "a date"
    return "text"


def _compose_lines(text: str, source: str):
    """Parse YAML safely, once; return (data, {key path: line}).

    The data is built here from the composed nodes (not by a second
    ``yaml.load``), so every problem is known with its node: tags other than
    plain text, numbers, booleans, nulls and dates; scalars their tag cannot
    read (``!!int abc``, ``date: 2026-13-45``); keys that are not text or that
    repeat. All of them are raised together as a :class:`SpecError`.

    Aliases are expanded and merge keys (``<<: *defaults``, ``<<: [*a, *b]``)
    merged as ``yaml.safe_load`` does: the keys written in the mapping win,
    then the earlier merged mapping. What an alias builds is counted, and the
    spec refused past :data:`MAX_EXPANDED` values (a "billion laughs") or when
    an alias is inside its own anchor (a cycle). A value reached through an
    alias has the key path where it is used and the alias's line (the place
    the user wrote it); a problem in the anchor's own text is reported once,
    where it is written.
    """
    loader = None
    try:
        loader = _Loader(text)  # the reader refuses control characters here
        node = loader.get_single_node()
    except yaml.YAMLError as exc:
        raise SpecError([_yaml_problem(exc, text, source)]) from None
    except _TooDeep as exc:
        raise SpecError([f"{source}:{exc.mark.line + 1}: {format_path(exc.path)}: {_too_deep()}"]) from None
    except RecursionError:  # only when called with little stack left
        raise SpecError([f"{source}: invalid YAML: nested too deeply to be read"]) from None
    finally:
        if loader is not None:
            loader.dispose()
    if node is None:
        raise SpecError([f"{source}: the spec is empty"])
    lines: dict[tuple, int] = {(): node.start_mark.line + 1}
    problems: list[str] = []
    told: set[int] = set()  # nodes with a problem told: an alias reaching one again says nothing
    active: set[int] = set()  # the lists and mappings being built: an alias of one is a cycle
    expanded = 0  # values built through aliases

    # `at` is (alias, key path) of the outermost alias being expanded, None in
    # the text as written; `record` says whether key paths get their lines here
    # (not below an alias, nor in a merged mapping: they keep the line above).

    def problem(n, path, text, at):
        if id(n) not in told:
            told.add(id(n))
            line = (at[0] if at else n).start_mark.line + 1
            problems.append(f"{source}:{line}: {format_path(path)}: {text}")

    def scalar(n, path, at):
        kind = _SCALAR_KINDS.get(n.tag)
        if kind is None:
            return problem(n, path, f"the YAML tag {_tag_name(n.tag)} {_TAG_ADVICE}", at)
        try:
            return loader.yaml_constructors[n.tag](loader, n)
        except (ValueError, TypeError, AttributeError, LookupError, ArithmeticError) as exc:
            # !!int abc, !!timestamp xyz, 2026-13-45 (a date's own message says which part)
            why = f" ({exc})" if kind == "date" and isinstance(exc, ValueError) else ""
            return problem(n, path, f"{_short(n.value)} is not a valid {kind}{why}", at)

    def cycle(alias, path, at) -> bool:
        if id(alias.target) not in active:
            return False
        problem(alias, path, f"*{alias.value} is inside &{alias.value} (line {alias.target.start_mark.line + 1}), "
                             "the list or mapping it repeats: it would repeat for ever", at)
        return True

    def build(n, path, at, record):
        nonlocal expanded
        if isinstance(n, _Alias):
            if cycle(n, path, at):
                return None
            return build(n.target, path, at or (n, path), False)
        if at is not None:
            expanded += 1
            if expanded > MAX_EXPANDED:
                raise _TooLarge(*at)
            if len(path) > MAX_DEPTH:  # the text is capped as composed; an alias can nest it deeper
                raise _TooDeep(at[1], at[0].start_mark, at[0].value)
        if isinstance(n, yaml.ScalarNode):
            return scalar(n, path, at)
        if n.tag != _TAG + ("seq" if isinstance(n, yaml.SequenceNode) else "map"):
            return problem(n, path, f"the YAML tag {_tag_name(n.tag)} {_TAG_ADVICE}", at)
        active.add(id(n))
        if isinstance(n, yaml.SequenceNode):
            out = []
            for i, item in enumerate(n.value):
                if record:
                    lines[path + (i,)] = item.start_mark.line + 1
                out.append(build(item, path + (i,), at, record))
        else:
            out = mapping(n, path, at, record)
        active.discard(id(n))
        return out

    def mapping(n, path, at, record):
        merged: list = []  # (key, value, line) from merge keys, in yaml.safe_load's order
        written, first, merge_line = {}, {}, None
        for k, v in n.value:
            key_node = k.target if isinstance(k, _Alias) else k
            if not isinstance(key_node, yaml.ScalarNode):  # a list, a mapping, an alias of one
                problem(k, path, "a key must be text, not a list or mapping", at)
                continue
            if key_node.tag == _TAG + "merge":
                if merge_line is not None:  # `<<` is a key like any other: once per mapping
                    problem(k, path + ("<<",), f"duplicate key (first at line {merge_line})", at)
                merge_line = merge_line or k.start_mark.line + 1
                merged += merge(k, v, path, at)
                continue
            key = scalar(key_node, path + (key_node.value,), at)
            if not isinstance(key, str):
                if key is not None or key_node.tag == _TAG + "null":
                    problem(k, path + (key_node.value,), f"a key must be text, and {_short(key_node.value)} "
                                                         f"reads as {_kind_of(key)}; quote it", at)
                continue
            kp = path + (key,)
            line = k.start_mark.line + 1
            if key in first:
                problem(k, kp, f"duplicate key (first at line {first[key]})", at)
            first.setdefault(key, line)
            if record:
                lines[kp] = line
            written[key] = build(v, kp, at, record)
        out = {}
        for key, value, line in merged:  # an earlier merged mapping comes later here, and wins
            out[key] = value
            if record and key not in written:
                lines[path + (key,)] = line
        out.update(written)
        return out

    def merge(k, v, path, at):
        """The (key, value, line) of the mappings merged by ``<<: v``: the
        pairs of a list's last mapping first, so that the first one wins."""
        kp, ref = path + ("<<",), v  # a merged key's line: the alias, else the mapping as written
        if isinstance(v, _Alias):
            if cycle(v, kp, at):
                return []
            at, v = at or (v, kp), v.target
        items = v.value if isinstance(v, yaml.SequenceNode) else [v]
        if not all(isinstance(m.target if isinstance(m, _Alias) else m, yaml.MappingNode) for m in items):
            problem(k, kp, "a merge key (<<) takes a mapping (<<: *name) or a list of them (<<: [*a, *b])", at)
            return []
        pairs = []
        for m in reversed(items):
            line = (m if ref is v else ref).start_mark.line + 1
            built = build(m, path, at or ((m, kp) if isinstance(m, _Alias) else None), False)
            pairs += [(key, value, line) for key, value in (built or {}).items()]
        return pairs

    try:
        data = build(node, (), None, True)
    except _TooLarge as exc:
        problems.append(f"{source}:{exc.alias.start_mark.line + 1}: {format_path(exc.path)}: the spec expands "
                        f"to more than {MAX_EXPANDED:,} values through aliases (*{exc.alias.value} at line "
                        f"{exc.alias.start_mark.line + 1}); a spec this large is refused")
        raise SpecError(_by_line(problems)) from None
    except _TooDeep as exc:
        problems.append(f"{source}:{exc.mark.line + 1}: {format_path(exc.path)}: {_too_deep(exc.through)}")
        raise SpecError(_by_line(problems)) from None
    if problems:
        raise SpecError(_by_line(problems))
    return data, lines


def _too_deep(through: str = "") -> str:
    via = f" through *{through}" if through else ""
    return f"lists and mappings nested more than {MAX_DEPTH} levels deep{via}; a spec needs a few"


def _cut(text: str, most: int = 60) -> str:
    """Text from the spec, cut short: a message names it, it need not hold 1 MB of it."""
    return text if len(text) <= most else text[: most - 3] + "..."


def _short(value) -> str:
    return _cut(repr(value))


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


def _clean_loc(loc) -> tuple:
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
                text += f" (got {_short(err['input'])})"
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
        if not (b > 0 and math.isfinite(b * b)):  # F-beta weighs by beta squared
            add(("fbeta", i), f"beta must be a positive number (its square finite), got {b!r}")

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
            for key, p in spec.priors.items():
                if key not in names:
                    add(("priors", key), _unknown_name("class", key, names))
                elif not 0 <= p <= 1:
                    add(("priors", key), f"a class prior must be in [0, 1], got {p!r}")
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
                elif _cost_problem(value):
                    add(("costs", key), f"a cost {_cost_problem(value)}, got {_short(value)}")
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
                            add(("costs", "matrix", i), f"cost [{i}][{j}] {_cost_problem(c)}, got {_short(c)}")
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
    template = _template_problem(spec)
    if template:
        add(("report", "template"), template)
    return out


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
        return f"cannot read the folder {_cut(name)}: {getattr(exc, 'strerror', None) or exc}"
    if exists:
        return f"{_cut(name)} is a file; give a folder of templates (or 'default')"
    try:
        near = sorted(p.name for p in folder.parent.iterdir() if p.is_dir())
    except OSError:
        near = []
    return f"no such folder: {_cut(name)}{suggest(folder.name, near)}"


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
    data, lines = _compose_lines(text, source)
    problems: list[str] = []
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
    return parse_spec(_read_spec(path), source=str(path), base_dir=path.resolve().parent)


def _read_spec(path: Path) -> str:
    """The text of a spec file: a regular file only. Opened without blocking and
    checked before reading: a FIFO would block for ever, a device never end."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise SpecError([f"{path}: no such spec file"]) from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL character in the path
        raise SpecError([f"{path}: cannot read the spec: {getattr(exc, 'strerror', None) or exc}"]) from None
    kind = not_a_file(os.fstat(fd).st_mode, "a spec file")
    if kind is not None:
        os.close(fd)
        raise SpecError([f"{path}: {kind}"])
    with open(fd, encoding="utf-8") as f:  # universal newlines, as read_text
        try:
            return f.read()
        except (OSError, UnicodeDecodeError) as exc:
            raise SpecError([f"{path}: cannot read the spec: {exc}"]) from None


def not_a_file(mode: int, what: str = "a file") -> str | None:
    """What a file of this ``st_mode`` is when it is not a regular file ("a
    folder, not a file"), None when it is one: the spec and the data files say
    it alike, and a FIFO is named before anything opens it (it would block)."""
    if stat.S_ISREG(mode):
        return None
    kind = ("a folder" if stat.S_ISDIR(mode) else "a named pipe (FIFO)" if stat.S_ISFIFO(mode)
            else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
            else "a socket" if stat.S_ISSOCK(mode) else "a special file")
    return f"{kind}, not {what}"


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
