"""The spec's typed model (pydantic): every key, its type, default and
description, and the checks one key can make alone. Cross-key checks are in
:mod:`evalreport.spec.checks`; the JSON schema is made from these models.
"""

from __future__ import annotations

import datetime as _dt
import re
from pathlib import Path
from typing import Annotated, Any, Literal, Union

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
    field_validator,
    model_validator,
)

from .deliverable import DEFAULT_ATTACH_LIMIT, AttachItem, Sign, attach_field, parse_size
from .messages import short
from .names import FORMATS, comparison_names, metric_names

#: the decision threshold of hard decisions (0/1), and of ``threshold: optimal``
#: when there is no ROC hull to pick from (one class only)
FALLBACK_THRESHOLD = 0.5

#: a number with an exponent and no dot (1e3, -2E-5), which YAML 1.1 reads as text
_EXPONENT_NUMBER = re.compile(r"[-+]?[0-9]+(\.[0-9]*)?[eE][-+]?[0-9]+")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _not_bool(value):
    # pydantic's lax mode takes true for 1 and 1.0; in a spec it is a slip
    # (threshold: true, min: yes), never a number
    if isinstance(value, bool):
        raise ValueError(f"Input should be a number, not a boolean (got {value!r})")
    # pydantic's lax mode reads the text '0.5' as a number; in a spec a quoted number
    # is a slip (threshold: "0.5") that would be read silently. Only the exponent form
    # YAML 1.1 itself reads as text (1e3, 5e-1) is taken as the number it is.
    if isinstance(value, str) and not _EXPONENT_NUMBER.fullmatch(value.strip()):
        try:
            float(value)
        except ValueError:
            return value  # not a number at all: pydantic tells it as such
        raise ValueError(f"Input should be a number, not text (got {short(value)}); write it without quotes")
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
    # `columns:` in YAML (the attribute `columns` is the list of the learner's columns)
    class_columns: str | None = Field(
        None, alias="columns", description="Multiclass: the score columns as one name with {class} in it "
        "(mlp_{class}), expanded over `classes` in their order.")
    # learners: {match: <regex>} (see DataSource._match_key): not a key of a learner of its own
    match: list[str] | None = Field(None, exclude=True, json_schema_extra={"x-internal": True})

    @field_validator("match", mode="before")
    @classmethod
    def _one_pattern(cls, value):
        # (a text under a learner's own name, {a: {match: ..}}: kept, so the pattern
        # check can say where match goes)
        return [value] if isinstance(value, str) else value

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
        if self.match is not None:  # a pattern over columns (learners: {match: ...}): nothing else
            return self
        given = [k for k in ("score", "scores", "predicted") if getattr(self, k) is not None]
        given += ["columns"] if self.class_columns is not None else []
        if len(given) != 1:
            raise ValueError(
                "give exactly one of score (a column), predicted (a column of decisions) "
                "or a list of per-class score columns (or columns: <name with {class}>)"
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


#: a memory size as DuckDB reads it: a number and a unit (or a percentage of the memory)
_MEMORY_SIZE = re.compile(r"(\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)\s*(%|b|bytes|kb|mb|gb|tb|kib|mib|gib|tib)", re.I)
_MEMORY_UNITS = {"b": 1, "bytes": 1, "kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12, "kib": 2**10, "mib": 2**20,
                 "gib": 2**30, "tib": 2**40}
_MIN_MEMORY = 16e6


class DataSource(_Model):
    path: str | None = Field(None, description="Prediction file, relative to the spec: .csv .tsv .parquet "
                                               ".jsonl .npz (.csv .tsv .jsonl also compressed: .gz .bz2 .zst "
                                               ".lz4). Give path or table.")
    table: str | None = Field(None, description="Python API, engine memory: the name of an in-memory table "
                              "(a pyarrow Table, a pandas or polars DataFrame) passed as "
                              "evaluate(spec, data={name: table}), instead of a path.")
    label: str = Field(description="Column of true labels.")
    id: str | None = Field(None, description="Column of instance ids; aligns learners across files.")
    group: str | None = Field(None, description="Column of groups (folds, runs): one confusion matrix per group.")
    slices: list[str] = Field(
        default_factory=list, description="Binary, engine memory: columns of subgroups of the population "
        "(region, sex, age band): every measure per value of each, its gap to the whole population, and "
        "the parity differences across the values.")
    weight: str | None = Field(None, description="Column of non-negative sample weights.")
    dataset: str | None = Field(None, description="Name of the data set (for comparisons across data sets).")
    replicates: str | None = Field(
        None, description="A part of the learner names' pattern (the file pattern's {seed}, or the regex group "
        "seed) that only tells replicates apart: learners that differ by it alone are one configuration, "
        "ranked and judged as one (results.json configurations).")
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
    learners: dict[str, Learner] = Field(
        description="Learner name -> its column(s). A name may hold a part of the path ('{run}', "
        "'lr_{run}': one learner per matching file), and the key match: <regex> (or a list of them) gives "
        "one learner per matching column, named by the regex's group `name`.")

    @field_validator("memory_limit")
    @classmethod
    def _a_size(cls, value):
        # DuckDB reads -1GB as no limit at all, and '10 bytes' fails later with an
        # out-of-memory error: a budget is a positive size it can work in
        match = _MEMORY_SIZE.fullmatch(value.strip())
        if match is None:
            raise ValueError(f"memory_limit is a size such as '1GB', '512MiB' or '50%' (of the machine's memory); "
                             f"got {short(value)}")
        number, unit = float(match[1]), match[2].lower()
        if unit == "%":
            if not 0 < number <= 100:
                raise ValueError(f"a memory_limit in percent is in (0, 100]; got {short(value)}")
        elif number * _MEMORY_UNITS[unit] < _MIN_MEMORY:
            raise ValueError(f"memory_limit must be at least 16MB (DuckDB needs buffers to work in); got "
                             f"{short(value)}")
        return value

    @field_validator("learners", mode="before")
    @classmethod
    def _match_key(cls, value):
        # learners: {match: <regex> | [<regex>, ...]}: a pattern over the columns, carried
        # as the learner 'match' holding the patterns until the spec's files expand it
        # (spec.patterns); a regex is text, which the shorthand would take for a score column
        if isinstance(value, dict) and isinstance(value.get("match"), (str, list)):
            patterns = value["match"]
            return {**value, "match": {"match": [patterns] if isinstance(patterns, str) else patterns}}
        return value

    @field_validator("learners")
    @classmethod
    def _some_learner(cls, value):
        if not value:
            raise ValueError("name at least one learner")
        return value

    @model_validator(mode="after")
    def _path_or_table(self):
        if (self.path is None) == (self.table is None):
            raise ValueError("give either path (a file) or table (an in-memory table's name)")
        return self

    @property
    def display(self) -> str:
        """How the data messages name this input: the path as written, or ``table 'name'``."""
        return self.path if self.path is not None else f"table '{self.table}'"


class PartialAuc(_Model):
    max_fpr: Number = Field(gt=0, le=1, description="AUC over FPR in [0, max_fpr].")
    standardized: StrictBool = Field(True, description="McClish standardisation (0.5 random, 1 perfect).")


#: a share of the instances flagged, in (0, 1]
_Fraction = Annotated[Number, Field(gt=0, le=1)]
#: a rate (recall, FPR), in [0, 1]
_Rate = Annotated[Number, Field(ge=0, le=1)]


class ThresholdTable(_Model):
    """``thresholds:``: the operating points of the threshold table (binary); each
    row gives the threshold found and the confusion-matrix family there."""

    at: list[Number] = Field(default_factory=list, description="Thresholds: positive iff score >= t.")
    top_fraction: list[_Fraction] = Field(
        default_factory=list, description="Shares in (0, 1]: the highest threshold flagging at least that "
        "(weighted) share; a tied block is flagged whole.")
    recall: list[_Rate] = Field(default_factory=list,
                                description="Recalls in [0, 1]: the highest threshold reaching at least it.")
    fpr: list[_Rate] = Field(default_factory=list,
                             description="FPRs in [0, 1]: the lowest threshold whose FPR is at most it.")

    @model_validator(mode="after")
    def _something(self):
        if not (self.at or self.top_fraction or self.recall or self.fpr):
            raise ValueError("give at least one operating point: at, top_fraction, recall or fpr")
        return self

    def asked(self) -> dict[str, list[float]]:
        """kind -> targets, in metrics.operating_table.KINDS's order."""
        return {"at": list(self.at), "top_fraction": list(self.top_fraction), "recall": list(self.recall),
                "fpr": list(self.fpr)}


class Confidence(_Model):
    level: Number = Field(0.95, gt=0, lt=1)
    bootstrap: Count = Field(2000, ge=0, description="Bootstrap resamples (0: none).")
    seed: Count = Field(0, ge=0, description="Seed of the bootstrap's random numbers (NumPy's, >= 0).")
    mcnemar: Literal["auto", "exact", "corrected"] = Field(
        "auto", description="McNemar's p-value: the exact binomial test, the continuity-corrected "
        "chi-square, or auto (exact below 25 disagreements, corrected from 25).")
    margin: Number = Field(
        0.0, ge=0, description="Non-inferiority margin of a challenger against the deployed learner, on the "
        "rank_by measure's scale (0: a challenger must be plainly better).")
    slices_min: Count = Field(
        10, ge=1, description="The fewest positives and negatives a slice value needs to count in parity "
        "differences and slice gaps (smaller values are listed as too small).")




#: the most calibration bins: metrics.calibration.MAX_BINS (not imported: importing that
#: module first closes an import cycle through compare.stats; a test holds them equal)
MAX_BINS = 10_000


class CalibrationOptions(_Model):
    """``calibration:``: the bins of the reliability diagram and of the ECE."""

    bins: Count = Field(10, ge=2, description="Number of bins of the reliability diagram and the ECE "
                        f"(2 to {MAX_BINS:,}).")
    strategy: Literal["uniform", "quantile"] = Field(
        "uniform", description="uniform: equal-width bins over [0, 1]; quantile: bins of equal mass (edges at "
        "the scores' quantiles).")

    @field_validator("bins")
    @classmethod
    def _few_bins(cls, value):
        if value > MAX_BINS:
            raise ValueError(f"at most {MAX_BINS:,} bins (got {short(value)}): each bin estimates a rate, and "
                             "more bins hold too few scores to estimate it")
        return value


class Gate(_Model):
    learner: str | None = Field(None, description="A learner name; omitted: every learner.")
    dataset: str | None = Field(None, description="A data set name (data[].dataset): the gate applies on that "
                                "data set only; omitted: every data set.")
    metric: str | None = Field(None, description="The measure gated (a registry name); a drift gate names "
                                                 "`drift` instead.")
    min: Number | None = None
    max: Number | None = None
    slice: str | None = Field(None, description="A slice column (data[].slices): the bounds hold for every "
                                                "value of it; a parity difference across its values.")
    max_gap: Number | None = Field(None, ge=0, description="With slice: the most |slice value - whole "
                                                           "population| of the metric, for every value.")
    max_drop: Number | None = Field(
        None, ge=0, description="With history: the most the metric may get worse since the previous run "
        "(a fall of a measure where higher is better, a rise of a cost).")
    significant_drop: StrictBool = Field(
        False, description="With history: true fails the gate when the metric got significantly worse since "
        "the previous run (the test of its change at confidence.level).")
    drift: Literal["psi", "ks"] | None = Field(
        None, description="With history and max: a gate on the drift of each learner's scores since the "
        "previous run (psi: population stability index; ks: Kolmogorov-Smirnov distance).")

    @property
    def on_change(self) -> bool:
        """Whether the gate is on the change since the previous run (max_drop,
        significant_drop, drift): the history stage evaluates it, not check_gates."""
        return self.max_drop is not None or self.significant_drop or self.drift is not None

    @model_validator(mode="after")
    def _bound(self):
        if self.drift is not None:
            given = [k for k in ("metric", "min", "slice", "max_gap", "max_drop") if getattr(self, k) is not None]
            given += ["significant_drop"] if self.significant_drop else []
            if given:
                raise ValueError(f"a drift gate takes drift, max and learner only; got {', '.join(given)}")
            if self.max is None:
                raise ValueError(f"a drift gate needs max (e.g. {{drift: {self.drift}, max: 0.25}})")
            return self
        if self.metric is None:
            raise ValueError("a gate needs metric (or drift: psi or ks)")
        if self.max_drop is not None or self.significant_drop:
            given = [k for k in ("min", "max", "slice", "max_gap") if getattr(self, k) is not None]
            if given:
                raise ValueError(f"a gate on the change since the previous run (max_drop, significant_drop) "
                                 f"takes no {', '.join(given)}; give bounds in a gate of their own")
            return self
        if self.min is None and self.max is None and self.max_gap is None:
            raise ValueError("a gate needs min or max" + (" or max_gap" if self.slice is not None else ""))
        return self


class OptimalOn(_Model):
    """``threshold: {optimal_on: <data set>}``: each learner's least-cost threshold
    chosen on one data set (validation) and applied to the others (test)."""

    optimal_on: str = Field(description="The data set (data[].dataset) whose learners choose the thresholds.")


class Report(_Model):
    formats: list[str] = Field(default_factory=lambda: list(FORMATS))
    out: str = Field("reports", description="Output folder, relative to the spec file.")
    template: str = Field("default", description="'default' or a folder of templates overriding the default ones.")
    curve_points: Union[Count, Literal["all"]] = Field(
        5000, description="Most points per curve kept in results.json, or 'all'."
    )
    attach: list[AttachItem] = attach_field()
    attach_limit: Union[Count, str] = Field(
        DEFAULT_ATTACH_LIMIT, description="A data file larger than this (50MB, 200kB, 1GB, 64MiB or bytes) is "
        "listed with its sha256 in the PDF but not attached.")
    sign: Sign | None = Field(None, description="Sign the PDF: {certificate, key, password_env, timestamp_url}.")

    @field_validator("attach_limit")
    @classmethod
    def _size(cls, value):
        parse_size(value)
        return value

    @property
    def attach_limit_bytes(self) -> int:
        return parse_size(self.attach_limit)

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


class History(_Model):
    """``history:``: an archive of the runs (evalreport.history.archive), so that
    each scheduled run is compared with the one before it."""

    dir: str = Field(description="The archive's folder, relative to the spec file: one folder per run, named by "
                     "its report date, holding that run's results.json.")
    keep: Count = Field(52, ge=1, description="How many runs the archive keeps (the oldest beyond it are "
                        "deleted; 52: a year of weekly runs).")

    @field_validator("dir")
    @classmethod
    def _some_dir(cls, value):
        if not value.strip():
            raise ValueError("give the archive's folder (relative to the spec file)")
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
    threshold: Union[Number, Literal["optimal"], OptimalOn] = Field(
        0.5, description="Decision threshold; 'optimal' (least cost at the operating point, chosen on the "
        "data measured: optimistic); or {optimal_on: <data set>} (least cost on that data set, applied to "
        "the others)."
    )
    priors: dict[str, Number] | None = Field(
        None, description="Class priors of the target population; binary: {positive: p}."
    )
    costs: dict[str, Any] | None = Field(
        None, description="Binary: {false_negative, false_positive}; multiclass: {matrix: [[...]]}."
    )
    metrics: Union[Literal["all"], list[str]] = "all"
    fbeta: list[Number] = Field(default_factory=lambda: [0.5, 2.0], max_length=100,
                                description="Betas reported for F-beta (at most 100).")
    partial_auc: PartialAuc | None = None
    thresholds: ThresholdTable | None = Field(
        None, description="Binary: the threshold table's operating points {at, top_fraction, recall, fpr}.")
    compare: Union[Literal["all"], list[str]] = "all"
    confidence: Confidence = Field(default_factory=Confidence)
    calibration: CalibrationOptions = Field(default_factory=CalibrationOptions)
    gates: list[Gate] = Field(default_factory=list)
    report: Report = Field(default_factory=Report)
    history: History | None = Field(None, description="An archive of the runs: each run compared with the one "
                                    "before it (changes, drift) and the kept runs' trend.")
    spark: Spark | None = None
    deployed: str | None = Field(
        None, description="The learner in production (a learner name): the verdict's status is its status, "
        "and every other learner is a challenger tested against it. Omitted: the worst status of the "
        "learners.")
    rank_by: str | None = Field(
        None, description="The measure the learners are ranked by (the report's leaderboard): a registry "
        "measure with one value per learner (auc, min_cost, f1, average_precision, ...; multiclass: "
        "macro_f1, macro_auc, ...), better in the registry's direction. Default: min_cost (multiclass: "
        "cost_sensitive_error) when the spec gives costs, else auc.")

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

    @field_validator("priors", mode="before")
    @classmethod
    def _priors_mapping(cls, value):
        if value is not None and not isinstance(value, dict):
            raise ValueError(f"priors is a mapping of class -> prior (binary: {{positive: 0.3}}; multiclass: one "
                             f"prior per class), not {short(value)}")
        return value

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
        got = "a date and time" if isinstance(value, _dt.datetime) else short(value)
        raise ValueError(f"give a date as YYYY-MM-DD (got {got})")

    @property
    def metric_set(self) -> frozenset[str]:
        return frozenset(metric_names() if self.metrics == "all" else self.metrics)

    @property
    def compare_set(self) -> frozenset[str]:
        return frozenset(comparison_names() if self.compare == "all" else self.compare)

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
