"""The measures at a threshold in another population: the one the priors describe.

A test set is sampled with its own class mix; the model will face the mix of the
priors (p positives). The rates of a threshold, TPR = TP / m+ and FPR = FP / m-,
do not depend on the mix; the counts do. In the population of the priors the
shares of the four cells are

    TP' = p TPR,  FN' = p (1 - TPR),  FP' = (1 - p) FPR,  TN' = (1 - p) (1 - FPR)

and every measure at the threshold follows from them (Drummond & Holte 2006;
Zhou, section 2.3.4, for the cost). With p the test set's own share,
they are the test set's measures.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # for the annotation; population_confusion imports NumPy where it uses it
    import numpy as np

__all__ = ["PopulationMeasures", "MEASURES", "population_at_threshold", "population_arrays",
           "normalised_cost", "population_confusion"]

#: the measures of a PopulationMeasures, in the order results.json and the report give them
MEASURES = ("precision", "npv", "accuracy", "error_rate", "f1", "cost_sensitive_error")


@dataclass(frozen=True)
class PopulationMeasures:
    """The measures at one threshold for a population with a share ``p_positive``
    of positives; None where undefined, ``undefined[name]`` says why."""

    p_positive: float
    precision: float | None
    npv: float | None
    accuracy: float | None
    error_rate: float | None
    f1: float | None
    cost_sensitive_error: float | None
    undefined: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    #: measure -> (low, high) percentile-bootstrap interval at confidence.level, or
    #: (None, None) where no resample defines it; None: not computed (the warnings say why)
    intervals: MappingProxyType | None = None


def _ratio(num, den):
    return None if den == 0 else float(num / den)


def population_at_threshold(tp, fp, tn, fn, p_positive: float, c_fn: float = 1.0,
                            c_fp: float = 1.0) -> PopulationMeasures:
    """The measures of the decisions counted by (tp, fp, tn, fn) in a population
    whose share of positives is ``p_positive``.

    The cost-sensitive error is p c_FN FNR + (1 - p) c_FP FPR (Zhou eq. 2.23 with
    the population's shares).

    >>> m = population_at_threshold(tp=8, fp=2, tn=88, fn=2, p_positive=0.5)
    >>> round(m.precision, 4), round(m.accuracy, 4), round(m.npv, 4)
    (0.973, 0.8889, 0.8302)
    """
    p = float(p_positive)
    undefined: dict[str, str] = {}
    tpr = _ratio(tp, tp + fn)
    fpr = _ratio(fp, fp + tn)
    if tpr is None or fpr is None:
        reason = ("the test set has no positives: TPR is undefined" if tpr is None
                  else "the test set has no negatives: FPR is undefined")
        for name in ("precision", "npv", "accuracy", "error_rate", "f1", "cost_sensitive_error"):
            undefined[name] = reason
        return PopulationMeasures(p, None, None, None, None, None, None, MappingProxyType(undefined))
    tp_, fn_ = p * tpr, p * (1.0 - tpr)
    fp_, tn_ = (1.0 - p) * fpr, (1.0 - p) * (1.0 - fpr)
    precision = _ratio(tp_, tp_ + fp_)
    if precision is None:
        undefined["precision"] = "nothing is predicted positive in this population"
    npv = _ratio(tn_, tn_ + fn_)
    if npv is None:
        undefined["npv"] = "nothing is predicted negative in this population"
    f1 = _ratio(2 * tp_, 2 * tp_ + fp_ + fn_)
    if f1 is None:
        undefined["f1"] = "this population has no positives and nothing is predicted positive"
    return PopulationMeasures(
        p_positive=p, precision=precision, npv=npv, accuracy=float(tp_ + tn_), error_rate=float(fp_ + fn_),
        f1=f1, cost_sensitive_error=float(p * c_fn * (1.0 - tpr) + (1.0 - p) * c_fp * fpr),
        undefined=MappingProxyType(undefined))


def population_arrays(tpr, fpr, p_positive: float, c_fn: float = 1.0, c_fp: float = 1.0) -> dict:
    """:func:`population_at_threshold`'s measures for arrays of TPR and FPR (one
    pair a bootstrap resample), NaN where undefined: the same formulas, many at once.

    >>> import numpy as np
    >>> m = population_arrays(np.array([0.8]), np.array([2 / 90]), 0.5)
    >>> round(float(m["precision"][0]), 4), round(float(m["npv"][0]), 4)
    (0.973, 0.8302)
    """
    import numpy as np

    p = float(p_positive)
    tpr, fpr = np.asarray(tpr, dtype=float), np.asarray(fpr, dtype=float)
    tp_, fn_ = p * tpr, p * (1.0 - tpr)
    fp_, tn_ = (1.0 - p) * fpr, (1.0 - p) * (1.0 - fpr)

    def ratio(num, den):
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(den == 0, np.nan, num / np.where(den == 0, 1.0, den))

    return {"precision": ratio(tp_, tp_ + fp_), "npv": ratio(tn_, tn_ + fn_), "accuracy": tp_ + tn_,
            "error_rate": fp_ + fn_, "f1": ratio(2 * tp_, 2 * tp_ + fp_ + fn_),
            "cost_sensitive_error": p * c_fn * (1.0 - tpr) + (1.0 - p) * c_fp * fpr}


def normalised_cost(tp, fp, tn, fn, pc_positive: float) -> float | None:
    """The normalised expected cost of the decisions at PC(+) = ``pc_positive``:
    FNR PC(+) + FPR (1 - PC(+)), the height of their cost line there (Drummond &
    Holte), on the scale of the cost curve and of the least cost at PC(+).
    Undefined (None) when a class is absent from the test set.

    >>> normalised_cost(tp=8, fp=2, tn=88, fn=2, pc_positive=0.5)  # (0.2 + 2/90) / 2
    0.11111111111111112
    """
    fnr = _ratio(fn, tp + fn)
    fpr = _ratio(fp, fp + tn)
    if fnr is None or fpr is None:
        return None
    return float(fnr * pc_positive + fpr * (1.0 - pc_positive))


def population_confusion(confusion, priors: dict, classes) -> np.ndarray:
    """A multi-class confusion matrix (rows true) in the population of the priors:
    each true class's row scaled so that its share is the prior's (classes the
    priors do not name keep their share of the test set). The decisions' rates per
    true class are the test set's, as for binary tasks.

    >>> population_confusion([[8, 2], [1, 9]], {"a": 0.9, "b": 0.1}, ["a", "b"]).tolist()
    [[14.4, 3.6], [0.2, 1.8]]
    """
    import numpy as np

    confusion = np.asarray(confusion, dtype=float)
    rows = confusion.sum(axis=1)
    total = rows.sum()
    factor = np.ones(len(rows))
    for i, c in enumerate(classes):
        if str(c) in priors and rows[i] > 0:
            factor[i] = priors[str(c)] / (rows[i] / total)
    return confusion * factor[:, None]
