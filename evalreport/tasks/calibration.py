"""Each learner's calibration (Brier score, log loss, ECE, reliability bins), for
the binary and the multi-class evaluation: where the values come from, and the
warning when they are undefined. The measures themselves: metrics.calibration."""

from __future__ import annotations

from ..metrics.calibration import Calibration, calibration_of, multiclass_calibration, table_outcomes
from .base import learner_warning

__all__ = ["binary_calibration", "multiclass_learner_calibration"]

WHAT = "the Brier score, log loss and ECE (and the reliability diagram) are undefined"
HARD = "hard decisions are not probabilities"


def _undefined(spec, key: str, why: str, warnings: list, top_label: bool = False) -> Calibration:
    warnings.append(learner_warning(key, f"{WHAT}: {why}", "calibration"))
    return Calibration(spec.calibration.strategy, undefined=why, top_label=top_label)


def binary_calibration(spec, key: str, ev, warnings: list, *, hard: bool, binned: str | None,
                       reduced: bool) -> Calibration:
    """From the learner's count table (per distinct score, the weights of its
    positives and negatives), so that learners aggregated by an engine get it too.
    ``binned``: the engine's resolution when the scores were binned (each bin is
    known only by its smallest score: not the scores); ``reduced``: a streamed
    table whose dropped rows were merged into the kept ones."""
    if hard:
        return _undefined(spec, key, HARD, warnings)
    if binned is not None:
        return _undefined(spec, key, f"the scores were binned at resolution {binned} and each bin is known only "
                          "by its smallest score", warnings)
    if reduced:
        return _undefined(spec, key, "the streamed count table was reduced: the scores of the rows it dropped "
                          "are not known", warnings)
    scores, pos, neg, counts = table_outcomes(ev.counts)
    options = spec.calibration
    cal = calibration_of(scores, pos, neg, bins=options.bins, strategy=options.strategy,
                         level=spec.confidence.level, counts=counts, descending=True)
    if cal.undefined:
        warnings.append(learner_warning(key, f"{WHAT}: {cal.undefined}", "calibration"))
    return cal


def multiclass_learner_calibration(spec, key: str, labels, values, weights, warnings: list, *,
                                   hard: bool, engine: str | None = None) -> Calibration:
    """Multi-class Brier score and log loss, top-label ECE and bins, from the
    instances' score rows (None: aggregated by an engine, which keeps no rows)."""
    if hard:
        return _undefined(spec, key, HARD, warnings, top_label=True)
    if values is None:
        return _undefined(spec, key, f"aggregated by {engine}: the measures need each instance's score row",
                          warnings, top_label=True)
    options = spec.calibration
    cal = multiclass_calibration(labels, values, weights, bins=options.bins, strategy=options.strategy,
                                 level=spec.confidence.level)
    if cal.undefined:
        warnings.append(learner_warning(key, f"{WHAT}: {cal.undefined}", "calibration"))
    return cal
