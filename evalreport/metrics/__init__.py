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
from .stream import (
    CountReducer,
    ReducedEvaluation,
    Reduction,
    StreamResult,
    evaluate_reduced,
    reduce_count_stream,
)

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
