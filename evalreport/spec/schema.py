"""The spec's JSON Schema, for editors (yaml-language-server): the models'
schema, with the name lists of :mod:`evalreport.spec.names` as enums so that
an editor can complete them.
"""

from __future__ import annotations

import json

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
    gate = defs.get("Gate", {}).get("properties", {})
    if "metric" in gate:
        gate["metric"] = {"enum": list(gate_names()), "title": "Metric"}
    return schema


def schema_text() -> str:
    return json.dumps(json_schema(), indent=2, sort_keys=False) + "\n"
