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
from .counts import CountTable, count_table, count_table_from_aggregates

__all__ = [
    "BinaryEvaluation",
    "BinarySummary",
    "CostCurve",
    "Costs",
    "CountTable",
    "OperatingPoint",
    "PrCurve",
    "RocCurve",
    "RocHull",
    "ThresholdMeasures",
    "count_table",
    "count_table_from_aggregates",
    "evaluate_binary",
    "evaluate_counts",
    "probability_cost",
]
