"""The PDF's glossary: one line per measure, what its number is.

The registry's definitions (:mod:`evalreport.registry_entries`) are complete:
each says how ties, weights and the multi-class case are handled, when the value
is undefined and where it comes from. Printed in full for every measure a report
shows they took one and a half of the breast_cancer example's eight pages, mostly
about cases the reader's data never meets (an undefined value is marked where it
occurs, with the reason). The PDF prints these one-line forms; the HTML report
and ``evalreport measures`` keep the full text. tests/test_glossary.py checks
that every measure has one.
"""

from __future__ import annotations

__all__ = ["BRIEF", "TERMS_BRIEF", "brief"]

#: registry name -> one line (the formula, or what is compared)
BRIEF = {
    "confusion_matrix": "TP, FP, TN, FN at the threshold; multi-class: true class by decided class.",
    "error_rate": "(FP + FN) / m, the weighted share misclassified.",
    "accuracy": "1 - error rate.",
    "precision": "TP / (TP + FP).",
    "recall": "TP / (TP + FN) = TPR.",
    "f1": "2PR / (P + R) = 2TP / (2TP + FP + FN).",
    "fbeta": "(1 + b²) TP / ((1 + b²) TP + b² FN + FP); b > 1 favours recall.",
    "cost_sensitive_error": "(FN c_FN + FP c_FP) / m with the spec's costs.",
    "auc": "Area under the ROC curve = share of (+, -) pairs ranked right, ties ½.",
    "ks": "Largest TPR - FPR over the thresholds, and where it is reached.",
    "gini": "2 AUC - 1.",
    "rank_loss": "Share of (+, -) pairs ranked wrong, ties ½ = 1 - AUC.",
    "average_precision": "Σ (R_k - R_k-1) P_k over thresholds, not interpolated.",
    "bep": "The value where precision = recall (TP + FP = m+).",
    "partial_auc": "ROC area for FPR up to max_fpr (McClish-standardised if asked).",
    "expected_total_cost": "Area under the cost curve over PC(+) in [0, 1].",
    "min_cost": "Least normalised cost at PC(+), over every threshold.",
    "cost_at_threshold": "Normalised cost of the deployed threshold.",
    "specificity": "TN / (TN + FP) = 1 - FPR.",
    "npv": "TN / (TN + FN).",
    "fpr": "FP / (FP + TN).",
    "fnr": "FN / (TP + FN) = 1 - recall.",
    "balanced_accuracy": "(TPR + TNR) / 2; multi-class: mean recall.",
    "mcc": "(TP TN - FP FN) / √((TP+FP)(TP+FN)(TN+FP)(TN+FN)); multi-class R_K.",
    "kappa": "(p_o - p_e) / (1 - p_e): agreement beyond chance.",
    "youden": "TPR - FPR at the threshold.",
    "population": "The threshold's measures reweighted to the priors.",
    "slices": "Every measure per value of a slice column, and its gap to the whole.",
    "demographic_parity_difference": "Largest minus smallest selection rate over a slice's values.",
    "equal_opportunity_difference": "Largest minus smallest TPR over a slice's values.",
    "equalized_odds_difference": "The larger of the TPR and FPR differences over a slice's values.",
    "roc": "TPR against FPR at every threshold; ties a diagonal segment.",
    "pr": "Precision against recall, straight in count space between points.",
    "cost_curve": "Lower envelope of the cost lines of all ROC points.",
    "threshold_table": "The measures at the spec's operating points.",
    "gains": "Positives captured in the top q by score; lift = captured / q.",
    "macro": "Mean of the per-matrix P and R; macro-F1 from them (Zhou eq. 2.14).",
    "micro": "P, R and F1 from the mean TP, FP, FN of the matrices.",
    "macro_f1": "2 macro-P macro-R / (macro-P + macro-R).",
    "mean_f1": "Mean of the per-class F1 (scikit-learn's macro F1).",
    "macro_auc": "Mean of the one-vs-rest AUCs.",
    "ovo_auc": "Mean over class pairs of the pairwise AUCs (Hand & Till).",
    "bayes_decision_cost": "Cost of deciding the class of least expected cost under the matrix.",
    "brier": "Weighted mean of (s - y)²; multi-class summed over classes.",
    "log_loss": "Weighted mean of -log of the true class's probability (clipped).",
    "ece": "Σ (n_b / n) |observed_b - mean score_b| over the score bins.",
    "calibration": "Observed share against mean score, per bin.",
    "auc_ci": "DeLong's interval of the AUC.",
    "bootstrap": "Percentile intervals over stratified resamples.",
    "envelopment": "A's ROC curve nowhere below B's, above somewhere.",
    "cost_envelope": "Cheapest learner and threshold at each PC(+).",
    "delong": "Paired test of two AUCs; Holm-adjusted p.",
    "mcnemar": "Test of paired disagreements; Holm-adjusted p.",
    "paired_t": "Paired t-test of two learners' error rates over the groups.",
    "friedman": "Test of the learners' ranks over data sets; Nemenyi's critical difference.",
}


#: the appendix's terms (registry.TERMS) -> one line
TERMS_BRIEF = {
    "probability cost PC(+)": "p c_FN / (p c_FN + (1 - p) c_FP), p the prior: cost curves' x axis.",
    "normalised expected cost": "FNR PC(+) + FPR (1 - PC(+)), a ROC point's cost line.",
}


def brief(name: str, full: str) -> str:
    """The one-line form of measure ``name`` (its full definition ``full`` when it
    has none: a measure added without one still prints)."""
    return BRIEF.get(name, full)
