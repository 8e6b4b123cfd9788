"""The confusion-matrix family at a threshold: pure functions of the four counts.

Specificity, NPV, FPR, FNR, balanced accuracy, Matthews' correlation, Cohen's
kappa and Youden's J of one binary confusion matrix (weighted counts allowed).
A value whose denominator is 0 is undefined: None, with the reason, never 0
(scikit-learn returns 0 for MCC and NaN for kappa there).
"""

from __future__ import annotations

import math

__all__ = ["FAMILY", "family_at"]

#: the family's names, in the order of results.json and of the report's table
FAMILY = ("specificity", "npv", "fpr", "fnr", "balanced_accuracy", "mcc", "kappa", "youden")


def family_at(tp: float, fp: float, tn: float, fn: float) -> tuple[dict[str, float | None], dict[str, str]]:
    """The family of the matrix (TP, FP, TN, FN): name -> value (None: undefined),
    and name -> why, for each undefined one."""
    tp, fp, tn, fn = float(tp), float(fp), float(tn), float(fn)
    pos, neg = tp + fn, fp + tn
    pred_pos, pred_neg = tp + fp, fn + tn
    m = pos + neg
    why: dict[str, str] = {}
    no_pos, no_neg = "there are no positives", "there are no negatives"

    def ratio(name, a, b, reason):
        if b == 0:
            why[name] = reason
            return None
        return a / b

    values = {
        "specificity": ratio("specificity", tn, neg, no_neg),
        "npv": ratio("npv", tn, pred_neg, "nothing is predicted negative"),
        "fpr": ratio("fpr", fp, neg, no_neg),
        "fnr": ratio("fnr", fn, pos, no_pos),
    }
    one_class = no_pos if pos == 0 else no_neg
    if pos == 0 or neg == 0:
        for name in ("balanced_accuracy", "youden"):
            why[name] = one_class
        values["balanced_accuracy"] = values["youden"] = None
    else:
        tpr, tnr = tp / pos, tn / neg
        values["balanced_accuracy"] = (tpr + tnr) / 2
        values["youden"] = tpr + tnr - 1
    # MCC: the product of the four margins is 0 when a class or a decision is absent
    margins = pos * neg * pred_pos * pred_neg
    if margins == 0:
        absent = one_class if pos == 0 or neg == 0 else (
            "nothing is predicted positive" if pred_pos == 0 else "nothing is predicted negative")
        why["mcc"] = absent
        values["mcc"] = None
    else:
        # the square root of each pair, so that the product cannot overflow
        values["mcc"] = (tp * tn - fp * fn) / (math.sqrt(pos * neg) * math.sqrt(pred_pos * pred_neg))
    # kappa = (p_o - p_e) / (1 - p_e), with counts: 2 (TP TN - FP FN) / (P pred_N + N pred_P)
    den = pos * pred_neg + neg * pred_pos
    if m == 0 or den == 0:
        why["kappa"] = "the total weight is 0" if m == 0 else (
            "the chance agreement is 1 (one class, all decided alike)")
        values["kappa"] = None
    else:
        values["kappa"] = 2 * (tp * tn - fp * fn) / den
    return values, why
