"""The metric engine: pure NumPy functions over arrays (no I/O, no specs)."""

from .binary import (
    BinaryEvaluation,
    BinarySummary,
    PrCurve,
    RocCurve,
    ThresholdMeasures,
    evaluate_binary,
    evaluate_counts,
)
from .cost import CostCurve, Costs, OperatingPoint, RocHull, probability_cost
from ..counting.build import count_table, count_table_from_aggregates
from ..counting.table import CountTable

#: the streamed engines' names (duckdb, spark: metrics.stream), loaded when first asked
#: for: a run of the memory engine never needs them, and their modules are about 4 ms
#: of its start-up (issue 38)
_STREAM = ("CountReducer", "ReducedEvaluation", "Reduction", "StreamResult", "evaluate_reduced",
           "reduce_count_stream")


def __getattr__(name):
    if name in _STREAM:
        from . import stream

        return getattr(stream, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "BinaryEvaluation",
    "BinarySummary",
    "CostCurve",
    "Costs",
    "CountReducer",
    "CountTable",
    "OperatingPoint",
    "PrCurve",
    "ReducedEvaluation",
    "Reduction",
    "RocCurve",
    "RocHull",
    "StreamResult",
    "ThresholdMeasures",
    "count_table",
    "count_table_from_aggregates",
    "evaluate_binary",
    "evaluate_counts",
    "evaluate_reduced",
    "probability_cost",
    "reduce_count_stream",
]
