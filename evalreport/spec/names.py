"""The names a spec may use: measures, comparisons, formats, engines, gate metrics.

Plain tuples, read by the model (``Spec.metric_set``, ``Spec.compare_set``,
the report's default formats), by the name checks (an unknown name, with the
closest one suggested) and by the JSON schema (the enums editors complete).
"""

from __future__ import annotations

__all__ = ["METRICS", "COMPARISONS", "FORMATS", "ENGINES", "GATE_METRICS"]

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
