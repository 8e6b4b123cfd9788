"""The confusion-matrix family at a threshold: pure functions of the counts.

Specificity, NPV, FPR, FNR, balanced accuracy, Matthews' correlation, Cohen's
kappa and Youden's J of one binary confusion matrix (:func:`family_at`), and
all but Youden's J of a k x k one (:func:`family_matrix`); weighted counts allowed.
A value whose denominator is 0 is undefined: None, with the reason, never 0
(scikit-learn returns 0 for MCC and NaN for kappa there).
"""

from __future__ import annotations

import math

import numpy as np

from .sums import dot

__all__ = ["FAMILY", "FAMILY_MULTICLASS", "family_at", "family_matrix"]

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


#: the multi-class members (Youden's J has no standard multi-class form: binary only)
FAMILY_MULTICLASS = tuple(name for name in FAMILY if name != "youden")


def family_matrix(confusion, classes=None) -> tuple[dict[str, float | None], dict[str, str], dict[str, str]]:
    """The family of a k x k confusion matrix (rows the true class, columns the
    decided one; weighted counts allowed): name -> value (None: undefined), name
    -> why for each undefined one, and name -> which classes a defined macro
    value leaves out (and why).

    Balanced accuracy is the mean recall over the classes with instances
    (scikit-learn's ``balanced_accuracy_score``); MCC is Gorodkin's R_K
    (scikit-learn's multi-class ``matthews_corrcoef``); kappa is Cohen's
    (``cohen_kappa_score``). Specificity, NPV, FPR and FNR are macro: the mean,
    over the classes where it is defined, of each class's value one vs rest
    (so that macro FNR = 1 - balanced accuracy and macro FPR = 1 - macro
    specificity, as in the binary case); undefined when it is defined for none.
    """
    c = np.asarray(confusion, dtype=float)
    k = c.shape[0]
    names = [str(x) for x in classes] if classes is not None else [str(i) for i in range(k)]
    rows, cols = c.sum(axis=1), c.sum(axis=0)  # true classes' weights, decided classes' weights
    diag = np.diag(c)
    n = float(c.sum())
    values: dict[str, float | None] = {}
    why: dict[str, str] = {}
    left_out: dict[str, str] = {}
    if n == 0:
        for name in FAMILY_MULTICLASS:
            values[name], why[name] = None, "the total weight is 0"
        return values, why, left_out
    # one vs rest, per class: TP = c_ii, FN = row_i - c_ii, FP = col_i - c_ii, TN = n - row_i - col_i + c_ii
    tn = n - rows - cols + diag
    per_class = {
        # name: (numerator, denominator, why a class's value is undefined)
        "specificity": (tn, n - rows, "all the instances are of that class"),
        "npv": (tn, n - cols, "every instance is decided that class"),
        "fpr": (cols - diag, n - rows, "all the instances are of that class"),
        "fnr": (rows - diag, rows, "it has no instances"),
        "balanced_accuracy": (diag, rows, "it has no instances"),
    }
    for name, (num, den, reason) in per_class.items():
        ok = den > 0
        absent = [names[i] for i in np.flatnonzero(~ok)]
        if not ok.any():  # k >= 2 and n > 0 leave at least one class defined; kept for k = 1
            values[name], why[name] = None, f"no class has a value ({reason})"
            continue
        values[name] = float(np.mean(num[ok] / den[ok]))
        if absent:
            left_out[name] = f"the mean leaves out class{'es' if len(absent) > 1 else ''} " \
                             f"{', '.join(absent)} ({reason})"
    # MCC (Gorodkin 2004): cov(t, p) / sqrt(cov(t, t) cov(p, p)) of the one-hot codes
    # sums.dot, not @ (BLAS): the same last digit on every processor
    t_dot_p = dot(rows, cols)
    cov_tp = float(diag.sum()) * n - t_dot_p
    cov_tt = n * n - dot(rows, rows)
    cov_pp = n * n - dot(cols, cols)
    if cov_tt == 0 or cov_pp == 0:
        values["mcc"] = None
        why["mcc"] = ("all the instances are of one class" if cov_tt == 0
                      else "every instance is decided the same class")
    else:
        values["mcc"] = cov_tp / (math.sqrt(cov_tt) * math.sqrt(cov_pp))
    # kappa = (p_o - p_e) / (1 - p_e) = (n trace - rows.cols) / (n^2 - rows.cols)
    den = n * n - t_dot_p
    if den == 0:
        values["kappa"] = None
        why["kappa"] = "the chance agreement is 1 (one class, all decided alike)"
    else:
        values["kappa"] = cov_tp / den
    return {name: values[name] for name in FAMILY_MULTICLASS}, why, left_out
