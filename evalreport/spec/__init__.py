"""The spec (version 1): a typed model of every key, loaded from YAML safely.

Every problem is reported at once, each naming the file, the YAML line and the
key path, with the closest valid name suggested for unknown keys and names::

    spec.yaml:12: data[0].learners.boosted.score: column 'p_gbm' is not in ...

The package by job: :mod:`~evalreport.spec.names` (the names a spec may use),
:mod:`~evalreport.spec.files` (data file names and kinds),
:mod:`~evalreport.spec.messages` (key paths and how a problem is told),
:mod:`~evalreport.spec.yaml_lines` (YAML with the line of every key),
:mod:`~evalreport.spec.models` (the pydantic models),
:mod:`~evalreport.spec.checks` (the checks across keys),
:mod:`~evalreport.spec.loading` (load, parse, locate) and
:mod:`~evalreport.spec.schema` (the JSON Schema).
"""

from __future__ import annotations

# The names other modules and users import from evalreport.spec, each from the
# module that holds it (noqa: re-exports).
from ..errors import suggest  # noqa: F401
from .checks import MAX_COST, rank_measure, rank_names  # noqa: F401
from .files import (  # noqa: F401
    COMPRESSED_SUFFIXES,
    DATA_SUFFIXES,
    ENGINE_COMPRESSIONS,
    data_suffix,
    not_a_file,
)
from .loading import load_spec, locate, parse_spec, spec_text  # noqa: F401
from .messages import KeyPath, cut, short, format_path  # noqa: F401
from .models import (  # noqa: F401
    FALLBACK_THRESHOLD,
    Confidence,
    Count,
    DataSource,
    Gate,
    Learner,
    Number,
    PartialAuc,
    Report,
    Spark,
    Spec,
)
from .names import ENGINES, FORMATS, comparison_names, gate_names, metric_names  # noqa: F401
from .schema import json_schema, schema_text  # noqa: F401
from .yaml_lines import MAX_DEPTH, MAX_EXPANDED, compose_lines  # noqa: F401

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


def __getattr__(name):
    # METRICS, COMPARISONS, GATE_METRICS: the registry's names now (see .names)
    from . import names

    return getattr(names, name)
