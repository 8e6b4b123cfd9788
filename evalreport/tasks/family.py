"""The confusion-matrix family, KS and Gini in the tasks' evaluation: what is read
off the count table while it is at hand, and the warnings that say why a value
is undefined (the values themselves are the registry's, from metrics.family)."""

from __future__ import annotations

from ..metrics.family import family_at, family_matrix
from ..metrics.ks import KS, ks_of
from ..result import RunWarning
from .base import learner_warning

__all__ = ["binary_family", "multiclass_family_warnings"]


def binary_family(metrics: frozenset[str], key: str, ev, at, threshold: str, hard: bool
                  ) -> tuple[KS | None, list[RunWarning]]:
    """One binary learner: its KS (None for hard decisions) and the warnings for
    the family's undefined values at the threshold and for KS and Gini (those the
    spec's metrics ask for: a value not shown needs no warning). ``threshold`` is
    the threshold's text (metrics.threshold_text), as every other place prints it."""
    warnings = []
    _, why = family_at(at.tp, at.fp, at.tn, at.fn)
    for measure, reason in why.items():
        # FPR and specificity are also in the threshold's own measures, warned already
        if measure in metrics and measure not in at.undefined:
            warnings.append(learner_warning(key, f"{measure} at threshold {threshold} is undefined: {reason}",
                                            measure))
    if hard:  # the warning on hard decisions says there is no ranking
        return None, warnings
    ks = ks_of(ev)
    if ks.value is None:
        for measure in ("ks", "gini"):
            if measure in metrics:
                warnings.append(learner_warning(key, f"{measure} is undefined: {ks.why}", measure))
    return ks, warnings


def multiclass_family_warnings(metrics: frozenset[str], key: str, ev) -> list[RunWarning]:
    """One multi-class learner: why a member of the family is undefined, and which
    classes a macro member leaves out."""
    _, why, left_out = family_matrix(ev.confusion, ev.classes)
    out = [learner_warning(key, f"{m} is undefined: {reason}", m) for m, reason in why.items() if m in metrics]
    out += [learner_warning(key, f"{m}: {text}", m) for m, text in left_out.items() if m in metrics]
    return out
