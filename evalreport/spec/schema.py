"""The spec's JSON Schema, for editors (yaml-language-server): the models'
schema, with the name lists of :mod:`evalreport.spec.names` as enums so that
an editor can complete them.
"""

from __future__ import annotations

import json

from .checks import rank_names
from .models import Spec
from .names import FORMATS, comparison_names, gate_names, metric_names


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
    defs["MetricName"] = {"enum": list(metric_names())}
    defs["ComparisonName"] = {"enum": list(comparison_names())}
    props["metrics"] = {"anyOf": [{"const": "all"}, {"type": "array", "items": {"$ref": "#/$defs/MetricName"}}],
                        "default": "all"}
    props["compare"] = {"anyOf": [{"const": "all"}, {"type": "array", "items": {"$ref": "#/$defs/ComparisonName"}}],
                        "default": "all"}
    report = defs.get("Report", {}).get("properties", {})
    if "formats" in report:
        report["formats"]["items"] = {"enum": list(FORMATS)}
    # learners: {match: ..} is carried as a learner's internal key, not one to write under a learner
    defs.get("Learner", {}).get("properties", {}).pop("match", None)
    # rank_by: the measures with one value per learner, of either task (checked against the task on load)
    props["rank_by"] = {"anyOf": [{"enum": list(dict.fromkeys(rank_names("binary") + rank_names("multiclass")))},
                                  {"type": "null"}],
                        "default": None, "description": props.get("rank_by", {}).get("description", "")}
    gate = defs.get("Gate", {}).get("properties", {})
    if "metric" in gate:
        gate["metric"] = {"enum": list(gate_names()), "title": "Metric"}
    return schema


def schema_text() -> str:
    return json.dumps(json_schema(), indent=2, sort_keys=False) + "\n"
