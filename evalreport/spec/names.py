"""The names a spec may use: measures, comparisons, formats, engines, gate metrics.

The measure names come from the registry of measures (evalreport/registry.py),
read at each call so that a measure registered at run time is a name the spec
accepts: :func:`metric_names` (``metrics:``), :func:`comparison_names`
(``compare:``) and :func:`gate_names` (``gates[].metric``). ``METRICS``,
``COMPARISONS`` and ``GATE_METRICS`` are the same lists as tuples, for those who
imported them (read through the module's ``__getattr__``, so they follow the
registry too).
"""

from __future__ import annotations

from .. import registry

__all__ = ["METRICS", "COMPARISONS", "FORMATS", "ENGINES", "GATE_METRICS", "metric_names",
           "comparison_names", "gate_names"]

FORMATS = ("html", "pdf", "json")
ENGINES = ("memory", "duckdb", "spark")

metric_names = registry.metric_names
comparison_names = registry.comparison_names
gate_names = registry.gate_names

_DYNAMIC = {"METRICS": metric_names, "COMPARISONS": comparison_names, "GATE_METRICS": gate_names}


def __getattr__(name):
    if name in _DYNAMIC:
        return _DYNAMIC[name]()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
