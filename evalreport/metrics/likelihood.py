"""The likelihood ratios of a test at its threshold and the diagnostic odds ratio:
pure functions of one binary confusion matrix (weighted counts allowed).

LR+ = TPR / FPR, how much a positive decision raises the odds of the positive
class; LR- = FNR / TNR, how much a negative decision lowers them; the diagnostic
odds ratio DOR = LR+ / LR- = (TP TN) / (FP FN). They do not depend on the
positive share of the data (unlike precision and NPV), which is why medical
testing reports them.

A value whose denominator is 0 is undefined: :class:`~evalreport.measure.Undefined`
with the reason (None in results.json, and a warning), never inf or 0.
scikit-learn's ``class_likelihood_ratios`` gives NaN with an
``UndefinedMetricWarning`` in the same cases (tests/test_likelihood.py); it
has no diagnostic odds ratio, which is undefined where either ratio is and also
where LR- = 0 (no false negatives: the odds ratio is infinite).
"""

from __future__ import annotations

from ..measure import Undefined

__all__ = ["lr_plus", "lr_minus", "dor"]

_NO_POSITIVES = "there are no positives"
_NO_NEGATIVES = "there are no negatives"


def lr_plus(tp: float, fp: float, tn: float, fn: float) -> float | Undefined:
    """The positive likelihood ratio TPR / FPR = TP (FP + TN) / (FP (TP + FN)).

    >>> lr_plus(8, 2, 18, 2)
    8.0
    >>> lr_plus(8, 0, 20, 2).why
    'there are no false positives (FPR = 0)'
    """
    tp, fp, tn, fn = float(tp), float(fp), float(tn), float(fn)
    if tp + fn == 0:
        return Undefined(_NO_POSITIVES)
    if fp + tn == 0:
        return Undefined(_NO_NEGATIVES)
    if fp == 0:
        return Undefined("there are no false positives (FPR = 0)")
    return (tp * (fp + tn)) / (fp * (tp + fn))


def lr_minus(tp: float, fp: float, tn: float, fn: float) -> float | Undefined:
    """The negative likelihood ratio FNR / TNR = FN (FP + TN) / (TN (TP + FN)).

    >>> lr_minus(8, 2, 18, 2)
    0.2222222222222222
    """
    tp, fp, tn, fn = float(tp), float(fp), float(tn), float(fn)
    if tp + fn == 0:
        return Undefined(_NO_POSITIVES)
    if fp + tn == 0:
        return Undefined(_NO_NEGATIVES)
    if tn == 0:
        return Undefined("there are no true negatives (TNR = 0)")
    return (fn * (fp + tn)) / (tn * (tp + fn))


def dor(tp: float, fp: float, tn: float, fn: float) -> float | Undefined:
    """The diagnostic odds ratio LR+ / LR- = (TP TN) / (FP FN).

    >>> dor(8, 2, 18, 2)
    36.0
    >>> dor(8, 2, 20, 0).why
    'there are no false negatives (LR- = 0: the odds ratio is infinite)'
    """
    for part in (lr_plus(tp, fp, tn, fn), lr_minus(tp, fp, tn, fn)):
        if isinstance(part, Undefined):
            return part
    if float(fn) == 0:
        return Undefined("there are no false negatives (LR- = 0: the odds ratio is infinite)")
    return (float(tp) * float(tn)) / (float(fp) * float(fn))
