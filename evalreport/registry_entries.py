"""The registry's entries: every measure of evalreport declared once, in the order of
results.json and of the report (read by :mod:`evalreport.registry`).

A measure's pure function lives in :mod:`evalreport.metrics`; it is imported when the
measure is first computed, so that this module imports nothing else of the package at
import time.
"""

from __future__ import annotations

from .measure import TASKS, Measure, Term, Undefined

def _at(name):
    return lambda lr: getattr(lr.at_threshold, name)


def _summary(name):
    # hard decisions have no ranking: no curve measures
    return lambda lr: None if lr.hard else getattr(lr.summary, name)


def _normalised_cost(lr):
    from .metrics.population import normalised_cost

    at = lr.at_threshold
    if lr.pc_positive is None:
        return None
    value = normalised_cost(at.tp, at.fp, at.tn, at.fn, lr.pc_positive)
    if value is None:  # a class absent: said, as every undefined value is (tests/test_invariance.py)
        return Undefined("there are no positives" if at.tp + at.fn == 0 else "there are no negatives")
    return value


#: when the calibration measures are undefined
CALIBRATION_UNDEFINED = ("a score outside [0, 1] (multi-class: a row not in [0, 1] or not summing to 1 within "
                         "0.001); hard decisions; an engine's binned or reduced table")


def _calibration(name):
    def get(lr):
        cal = lr.calibration
        return None if cal is None else getattr(cal, name)
    return {"binary": get, "multiclass": get}


def _mc(get):
    return lambda lr: get(lr.evaluation)


def _family(name):
    """A member of the confusion-matrix family (metrics.family): binary from the
    counts at the threshold, multi-class from the k x k matrix of the decisions."""
    def binary(lr):
        from .metrics.family import family_at

        at = lr.at_threshold
        return family_at(at.tp, at.fp, at.tn, at.fn)[0][name]

    def multiclass(lr):
        from .metrics.family import family_matrix

        return family_matrix(lr.evaluation.confusion)[0][name]

    return {"binary": binary, "multiclass": multiclass}


def _likelihood(name):
    """The likelihood ratio ``name`` of the counts (TP, FP, TN, FN) (metrics.likelihood)."""
    def of_counts(tp, fp, tn, fn):
        from .metrics import likelihood

        return getattr(likelihood, name)(tp, fp, tn, fn)

    return of_counts


def _gini(lr):
    from .metrics.ks import gini

    return gini(_summary("auc")(lr))


def _ks(lr):
    return None if lr.hard or lr.ks is None else lr.ks.value


ZHOU = "Zhou, Machine Learning (2016), section 2."
DH = "Drummond & Holte, Cost curves (Machine Learning 65, 2006)"
COST = ZHOU + "3.4, eqs. 2.24-2.25, figure 2.5; " + DH
FAMILY_REF = "Fawcett, Pattern Recognition Letters 27 (2006); scikit-learn confusion_matrix"
OVR = "multi-class: the mean over the classes (each one vs rest) where it is defined"

ENTRIES = [
    Measure("confusion_matrix", "confusion matrix", "table", TASKS, "none",
            "TP, FP, TN, FN at the decision threshold (binary); the k x k matrix of weighted counts, rows "
            "the true class, columns the decided one (multi-class).", ZHOU + "3.2, table 2.1",
            json_path={"binary": "learners.*.confusion"},
            brief="TP, FP, TN, FN at the threshold; multi-class: true class by decided class."),
    Measure("error_rate", "error rate", "at_threshold", TASKS, "lower",
            "(FP + FN) / m: the share of instances misclassified (weights count).", ZHOU + "3.1, eq. 2.4",
            "m = 0", compute={"binary": _at("error_rate"), "multiclass": _mc(lambda ev: ev.error_rate)},
            gate=True,
            swapped="error_rate",
            brief="(FP + FN) / m, the weighted share misclassified."),
    Measure("accuracy", "accuracy", "at_threshold", TASKS, "higher", "1 - error rate.", ZHOU + "3.1, eq. 2.5",
            "m = 0", compute={"binary": _at("accuracy"), "multiclass": _mc(lambda ev: ev.accuracy)},
            gate=True, rank={"multiclass": 1},
            history={"binary": "two_proportion_z", "multiclass": "two_proportion_z"}, swapped="accuracy",
            brief="1 - error rate."),
    Measure("precision", "precision", "at_threshold", TASKS, "higher",
            "TP / (TP + FP); multi-class: per class one vs rest, and macro-P for gates.", ZHOU + "3.2, eq. 2.8",
            "nothing predicted positive",
            compute={"binary": _at("precision"), "multiclass": _mc(lambda ev: ev.averages.macro_precision)},
            gate=True,
            json_path={"multiclass": "learners.*.macro.precision"},
            history={"binary": "two_proportion_z"}, swapped="npv",
            brief="TP / (TP + FP)."),
    Measure("recall", "recall", "at_threshold", TASKS, "higher",
            "TP / (TP + FN) = TPR; multi-class: per class one vs rest, and macro-R for gates.",
            ZHOU + "3.2, eq. 2.9", "no positives",
            compute={"binary": _at("recall"), "multiclass": _mc(lambda ev: ev.averages.macro_recall)},
            gate=True,
            json_path={"multiclass": "learners.*.macro.recall"},
            history={"binary": "two_proportion_z"}, swapped="specificity",
            brief="TP / (TP + FN) = TPR."),
    Measure("f1", "F1", "at_threshold", TASKS, "higher",
            "2PR / (P + R), computed as 2TP / (2TP + FP + FN); multi-class gates read Zhou's macro-F1.",
            ZHOU + "3.2, eq. 2.10", "no positives and nothing predicted positive",
            compute={"binary": _at("f1"), "multiclass": _mc(lambda ev: ev.averages.macro_f1)},
            gate=True, compare=True, rank={"binary": 3},
            json_path={"multiclass": "learners.*.macro.f1"},
            history={"binary": "intervals", "multiclass": "intervals"}, alias={"multiclass": "macro_f1"},
            brief="2PR / (P + R) = 2TP / (2TP + FP + FN)."),
    Measure("fbeta", "F-beta", "at_threshold", TASKS, "higher",
            "(1 + b^2) TP / ((1 + b^2) TP + b^2 FN + FP), one value per b of the spec's fbeta; b > 1 weighs "
            "recall more, b < 1 precision.", ZHOU + "3.2, eq. 2.11",
            "no positives and nothing predicted positive",
            json_path={"multiclass": "learners.*.classes.*.fbeta"},
            brief="(1 + b²) TP / ((1 + b²) TP + b² FN + FP); b > 1 favours recall."),
    Measure("cost_sensitive_error", "cost-sensitive error", "at_threshold", TASKS, "lower",
            "(FN c_FN + FP c_FP) / m with the spec's named costs; multi-class: (1/m) sum_i w_i "
            "cost[y_i][yhat_i], instances reweighted to the priors.", ZHOU + "3.4, eq. 2.23", "m = 0",
            compute={"binary": _at("cost_sensitive_error"),
                     "multiclass": _mc(lambda ev: ev.cost_sensitive_error)},
            gate=True, rank={"multiclass": 5},
            unit="cost",
            brief="(FN c_FN + FP c_FP) / m with the spec's costs."),
    Measure("auc", "AUC", "threshold_free", TASKS, "higher",
            "Area under the ROC curve (trapezoids) = the share of (positive, negative) pairs ranked right, "
            "ties counting 1/2; multi-class: the mean of the one-vs-rest AUCs.", ZHOU + "3.3, eq. 2.20",
            "one class only", compute={"binary": _summary("auc"), "multiclass": _mc(lambda ev: ev.macro_auc)},
            gate=True, compare=True, rank={"binary": 1},
            json_path={"multiclass": "learners.*.macro.auc"},
            history={"binary": "delong_unpaired"}, alias={"multiclass": "macro_auc"}, swapped="auc",
            brief="Area under the ROC curve = share of (+, -) pairs ranked right, ties ½."),
    # credit scoring's summaries of the ranking (metrics.ks)
    Measure("ks", "KS", "threshold_free", ("binary",), "higher",
            "Kolmogorov-Smirnov: the largest TPR - FPR over the ROC curve's vertices = max_s (F_-(s) - F_+(s)) "
            "of the classes' score distributions, and the threshold where it is reached (the highest on ties; "
            "results.json ks_threshold).", "Kolmogorov-Smirnov two-sample statistic (scipy ks_2samp, one-sided)",
            "one class only, or hard decisions", compute={"binary": _ks}, gate=True,
            swapped="ks",
            brief="Largest TPR - FPR over the thresholds, and where it is reached."),
    Measure("gini", "Gini", "threshold_free", ("binary",), "higher",
            "2 AUC - 1 (the accuracy ratio of credit scoring; Somers' D of the score against the class).",
            "Hand, Machine Learning 77 (2009)", "one class only, or hard decisions",
            compute={"binary": _gini}, gate=True,
            swapped="gini",
            brief="2 AUC - 1."),
    Measure("rank_loss", "rank loss", "threshold_free", ("binary",), "lower",
            "The share of (positive, negative) pairs ranked wrong, ties counting 1/2; always 1 - AUC. "
            "(scikit-learn's label_ranking_loss counts ties as 1.)", ZHOU + "3.3, eq. 2.21", "one class only",
            compute={"binary": _summary("rank_loss")}, gate=True,
            swapped="rank_loss",
            brief="Share of (+, -) pairs ranked wrong, ties ½ = 1 - AUC."),
    Measure("average_precision", "average precision", "threshold_free", TASKS, "higher",
            "Sum over thresholds of (R_k - R_{k-1}) P_k, without interpolation (scikit-learn's definition); "
            "not the trapezoid area under the P-R curve.", "scikit-learn average_precision_score",
            "no positives", compute={"binary": _summary("average_precision")}, gate=True,
            json_path={"multiclass": "learners.*.classes.*.average_precision"},
            brief="Σ (R_k - R_k-1) P_k over thresholds, not interpolated."),
    Measure("bep", "break-even point", "threshold_free", ("binary",), "higher",
            "The value where precision = recall, i.e. where TP + FP = m+ (as many predicted positive as "
            "there are positives); interpolated inside a tied block.", ZHOU + "3.2 (figure 2.3)",
            "no positives", compute={"binary": _summary("bep")}, gate=True, compare=True,
            rank={"binary": 2}, rank_label="BEP",
            brief="The value where precision = recall (TP + FP = m+)."),
    Measure("partial_auc", "partial AUC", "threshold_free", ("binary",), "higher",
            "The area under the ROC curve for FPR up to the spec's partial_auc.max_fpr; McClish's "
            "standardisation maps it to [0.5, 1] when asked.", "McClish, Medical Decision Making 9 (1989)",
            "one class only", compute={"binary": lambda lr: None if lr.hard else lr.partial_auc},
            metric=False, gate=True,
            json_path={"binary": "learners.*.partial_auc.value"},
            brief="ROC area for FPR up to max_fpr (McClish-standardised if asked)."),
    Measure("expected_total_cost", "expected total cost", "threshold_free", ("binary",), "lower",
            "The area under the cost curve for PC(+) in [0, 1]; lower is better.", COST,
            "one class only", compute={"binary": _summary("expected_total_cost")}, gate=True, compare=True,
            rank={"binary": 4},
            unit="cost", history={"binary": "intervals"},
            brief="Area under the cost curve over PC(+) in [0, 1]."),
    Measure("min_cost", "least cost at PC(+)", "threshold_free", ("binary",), "lower",
            "The least normalised expected cost at the operating point PC(+), over the ROC convex hull's "
            "vertices; the learner with the least is the winner at the operating point.", COST,
            "one class only",
            compute={"binary": lambda lr: None if lr.operating is None else lr.operating.min_cost},
            metric=False, gate=True, rank={"binary": 5}, rank_label="least cost over all thresholds",
            json_path={"binary": "learners.*.operating_point.min_cost"},
            unit="cost", history={"binary": "no test"}, at_operating_point=True,
            alias={"multiclass": "cost_sensitive_error"},
            brief="Least normalised cost at PC(+), over every threshold."),
    Measure("cost_at_threshold", "cost of the threshold at PC(+)", "at_threshold", ("binary",), "lower",
            "The normalised expected cost of the learner's own (deployed) threshold at the operating point: "
            "FNR PC(+) + FPR (1 - PC(+)), the height of its cost line at PC(+), on the scale of the least "
            "cost at PC(+) (which is over every threshold).", COST, "one class only",
            compute={"binary": lambda lr: _normalised_cost(lr)}, gate=True,
            unit="cost", at_operating_point=True,
            alias={"multiclass": "cost_sensitive_error"},
            brief="Normalised cost of the deployed threshold."),
    # the confusion-matrix family at the threshold (metrics.family): a table of its own
    Measure("specificity", "specificity", "at_threshold", TASKS, "higher",
            "TN / (TN + FP) = TNR = 1 - FPR; " + OVR + ".", FAMILY_REF,
            "no negatives (multi-class: every class's instances are all there is)",
            compute=_family("specificity"), gate=True, section="family",
            history={"binary": "two_proportion_z"}, swapped="recall",
            brief="TN / (TN + FP) = 1 - FPR."),
    Measure("npv", "NPV", "at_threshold", TASKS, "higher",
            "Negative predictive value TN / (TN + FN); " + OVR + ".", FAMILY_REF,
            "nothing predicted negative (multi-class: every class is the only one decided)",
            compute=_family("npv"), gate=True, section="family",
            swapped="precision",
            brief="TN / (TN + FN)."),
    Measure("fpr", "FPR", "at_threshold", TASKS, "lower",
            "False positive rate FP / (FP + TN) = 1 - specificity; " + OVR + ".", ZHOU + "3.3, eq. 2.19",
            "no negatives (multi-class: as specificity)", compute=_family("fpr"), gate=True, section="family",
            swapped="fnr",
            brief="FP / (FP + TN)."),
    Measure("fnr", "FNR", "at_threshold", TASKS, "lower",
            "False negative rate FN / (TP + FN) = 1 - recall; " + OVR + " (the classes with instances), "
            "so 1 - balanced accuracy.", FAMILY_REF, "no positives (multi-class: no instances)",
            compute=_family("fnr"), gate=True, section="family",
            swapped="fpr",
            brief="FN / (TP + FN) = 1 - recall."),
    Measure("balanced_accuracy", "balanced accuracy", "at_threshold", TASKS, "higher",
            "(TPR + TNR) / 2; multi-class: the mean recall over the classes with instances (scikit-learn's "
            "balanced_accuracy_score, not adjusted for chance).",
            "Brodersen et al., ICPR (2010); scikit-learn balanced_accuracy_score",
            "one class only (multi-class: no instances)", compute=_family("balanced_accuracy"), gate=True,
            section="family",
            swapped="balanced_accuracy",
            brief="(TPR + TNR) / 2; multi-class: mean recall."),
    Measure("mcc", "MCC", "at_threshold", TASKS, "higher",
            "Matthews' correlation (TP TN - FP FN) / sqrt((TP + FP)(TP + FN)(TN + FP)(TN + FN)), in [-1, 1]; "
            "multi-class: Gorodkin's R_K (c s - sum_k p_k t_k) / sqrt((s^2 - sum_k p_k^2)(s^2 - sum_k t_k^2)) "
            "with c the correct, s all, t_k and p_k the true and decided weights of class k. Undefined (not 0, "
            "as scikit-learn returns) where a margin is 0.",
            "Matthews, BBA 405 (1975); Gorodkin, Comput. Biol. Chem. 28 (2004); scikit-learn matthews_corrcoef",
            "one class only, or one decision only", compute=_family("mcc"), gate=True, section="family",
            swapped="mcc",
            brief="(TP TN - FP FN) / √((TP+FP)(TP+FN)(TN+FP)(TN+FN)); multi-class R_K."),
    Measure("kappa", "Cohen's kappa", "at_threshold", TASKS, "higher",
            "(p_o - p_e) / (1 - p_e): the agreement of the decisions with the truth beyond chance, p_o the "
            "accuracy and p_e the chance agreement sum_k t_k p_k / s^2 of the margins (binary: 2 (TP TN - FP FN) "
            "/ ((TP + FN)(FN + TN) + (TP + FP)(FP + TN))).",
            "Cohen, Educ. Psychol. Meas. 20 (1960); scikit-learn cohen_kappa_score",
            "chance agreement 1 (one class, all decided alike)", compute=_family("kappa"), gate=True,
            section="family",
            swapped="kappa",
            brief="(p_o - p_e) / (1 - p_e): agreement beyond chance."),
    Measure("youden", "Youden's J", "at_threshold", ("binary",), "higher",
            "TPR - FPR = TPR + TNR - 1 = 2 balanced accuracy - 1, at the threshold (KS is its maximum over "
            "thresholds). Binary only: it has no standard multi-class form.", "Youden, Cancer 3 (1950)",
            "one class only", compute={"binary": _family("youden")["binary"]}, gate=True, section="family",
            swapped="youden",
            brief="TPR - FPR at the threshold."),
    # the likelihood ratios of the decisions (metrics.likelihood)
    Measure("lr_plus", "LR+", "at_threshold", ("binary",), "higher",
            "Positive likelihood ratio TPR / FPR = TP (FP + TN) / (FP (TP + FN)) at the threshold: how many "
            "times a positive decision multiplies the odds of the positive class; independent of the "
            "positive share. Binary only.", "Altman & Bland, BMJ 309 (1994); scikit-learn class_likelihood_ratios",
            "no positives, or no false positives (FPR = 0)", of_counts=_likelihood("lr_plus"),
            gate=True, section="family", unit="ratio", swapped="1/lr_minus",
            brief="TPR / FPR: the odds of + multiplied by a positive decision."),
    Measure("lr_minus", "LR-", "at_threshold", ("binary",), "lower",
            "Negative likelihood ratio FNR / TNR = FN (FP + TN) / (TN (TP + FN)) at the threshold: how many "
            "times a negative decision multiplies the odds of the positive class. Binary only.",
            "Altman & Bland, BMJ 309 (1994); scikit-learn class_likelihood_ratios",
            "no positives, no negatives, or no true negatives (TNR = 0)",
            of_counts=_likelihood("lr_minus"), gate=True, section="family", unit="ratio",
            swapped="1/lr_plus", brief="FNR / TNR: the odds of + multiplied by a negative decision."),
    Measure("dor", "diagnostic odds ratio", "at_threshold", ("binary",), "higher",
            "LR+ / LR- = (TP TN) / (FP FN) at the threshold: the odds of a positive decision among the "
            "positives over those among the negatives. Binary only.",
            "Glas et al., J. Clin. Epidemiol. 56 (2003)",
            "LR+ or LR- undefined, or no false negatives (infinite)", of_counts=_likelihood("dor"),
            gate=True, section="family", unit="ratio", swapped="dor",
            brief="LR+ / LR- = (TP TN) / (FP FN)."),
    Measure("population", "in the population of the priors", "population", TASKS, "none",
            "With priors, the measures at the threshold for a population with p(+) = the prior: the test "
            "set's TPR and FPR, its cells reweighted to p TPR, p FNR, (1 - p) FPR, (1 - p) TNR; precision, "
            "NPV, accuracy, error rate, F1 and the cost-sensitive error p c_FN FNR + (1 - p) c_FP FPR. "
            "Multi-class: each true class's row of the confusion matrix reweighted to its prior; accuracy, "
            "error rate, per-class precision, recall and F1, macro and micro averages.",
            DH + "; " + ZHOU + "3.4, eq. 2.23", "one class only",
            json_path={"binary": "learners.*.population", "multiclass": "learners.*.population"},
            brief="The threshold's measures reweighted to the priors."),
    Measure("slices", "subgroup slices", "slice", ("binary",), "none",
            "With data[].slices: each learner measured on each value of each slice column alone (every "
            "scalar, at its threshold and over every threshold), its gap to the whole population (slice - "
            "whole), its selection rate (TP + FP) / m, TPR and FPR, Wilson intervals of its proportions and "
            "DeLong's of its AUC; a value with fewer than confidence.slices_min positives or negatives (rows) "
            "is too small to compare: shown, marked, left out of the parity differences and slice gates.",
            "fairlearn MetricFrame (by_group, difference); Wilson, JASA 22 (1927)",
            "measures undefined in a slice as in the whole (one class only, nothing predicted positive)",
            metric=False, json_path={"binary": "learners.*.slices"},
            brief="Every measure per value of a slice column, and its gap to the whole."),
    Measure("demographic_parity_difference", "demographic parity difference", "slice", ("binary",), "lower",
            "Across the values of a slice column: the largest minus the smallest selection rate "
            "(TP + FP) / m, over the values not too small to compare; with a percentile-bootstrap interval "
            "over the same values (resamples stratified by value and class).",
            "fairlearn demographic_parity_difference", "fewer than two values not too small",
            metric=False, gate=True,
            json_path={"binary": "learners.*.slices.*.parity.demographic_parity_difference"},
            brief="Largest minus smallest selection rate over a slice's values."),
    Measure("equal_opportunity_difference", "equal opportunity difference", "slice", ("binary",), "lower",
            "Across the values of a slice column: the largest minus the smallest TPR (values with no "
            "positives, and values too small to compare, left out); with a percentile-bootstrap interval.",
            "fairlearn equal_opportunity_difference", "fewer than two values with positives",
            metric=False, gate=True,
            json_path={"binary": "learners.*.slices.*.parity.equal_opportunity_difference"},
            brief="Largest minus smallest TPR over a slice's values."),
    Measure("equalized_odds_difference", "equalized odds difference", "slice", ("binary",), "lower",
            "Across the values of a slice column: the larger of the TPR difference and the FPR difference "
            "(each the largest minus the smallest over the values where it is defined and not too small to "
            "compare); with a percentile-bootstrap interval.", "fairlearn equalized_odds_difference (agg='worst_case')",
            "fewer than two values with positives and with negatives",
            metric=False, gate=True,
            json_path={"binary": "learners.*.slices.*.parity.equalized_odds_difference"},
            brief="The larger of the TPR and FPR differences over a slice's values."),
    Measure("roc", "ROC curve", "curve", TASKS, "none",
            "TPR against FPR at every distinct threshold; a tied block of scores is one diagonal segment. "
            "Multi-class: one curve per class, one vs rest.", ZHOU + "3.3 (figure 2.4)", "one class only",
            json_path={"binary": "learners.*.curves.roc", "multiclass": "learners.*.curves.*.roc"},
            brief="TPR against FPR at every threshold; ties a diagonal segment."),
    Measure("pr", "P-R curve", "curve", ("binary",), "none",
            "Precision against recall; between points it follows straight lines in (FP, TP) count space "
            "(Davis & Goadrich 2006), which is curved in P-R space.", ZHOU + "3.2 (figure 2.3)", "no positives",
            json_path={"binary": "learners.*.curves.pr"},
            brief="Precision against recall, straight in count space between points."),
    Measure("cost_curve", "cost curve", "curve", ("binary",), "none",
            "The lower envelope of the cost lines FNR PC(+) + FPR (1 - PC(+)) of all ROC points, the trivial "
            "classifiers included; it is made of the ROC convex hull's vertices.", COST,
            "one class only",
            json_path={"binary": "learners.*.curves.cost"},
            brief="Lower envelope of the cost lines of all ROC points."),
    Measure("threshold_table", "threshold table", "table", ("binary",), "none",
            "The confusion-matrix family at the spec's operating points (thresholds: {at, top_fraction, "
            "recall, fpr}): at a threshold t; at the highest threshold flagging at least a share q of the "
            "(weighted) instances, a tied block flagged whole; at the highest threshold reaching recall r; "
            "at the lowest threshold with FPR <= f. Each row: the threshold found, the share flagged, TP, FP, "
            "TN, FN, accuracy, error rate, precision, recall, F1 and the family.",
            "Evidently's precision/recall table by threshold; " + ZHOU + "3.2",
            "a recall target with no positives, an FPR target with no negatives",
            brief="The measures at the spec's operating points."),
    Measure("gains", "cumulative gains and lift", "table", ("binary",), "none",
            "Flagging the top q = 0.1, ..., 1 of the (weighted) instances by score: the share of the positives "
            "captured, the lift (captured / q) and the decile's own response rate; a tied block straddling a "
            "decile's boundary counts with its expected share (linear inside the block).",
            "the credit-scoring gains table (Siddiqi, Credit Risk Scorecards, Wiley 2006)", "captured and lift: no positives",
            brief="Positives captured in the top q by score; lift = captured / q."),
    Measure("macro", "macro-P, macro-R, macro-F1", "average", TASKS, "higher",
            "The means of the per-matrix (per-class, one vs rest; or per-group) precision and recall; "
            "macro-F1 = 2 macro-P macro-R / (macro-P + macro-R) (Zhou eq. 2.14), and mean F1 the mean of "
            "the per-matrix F1 (scikit-learn's 'macro F1', another number).", ZHOU + "3.2, eqs. 2.12-2.14",
            json_path={"binary": "learners.*.groups_macro"},
            brief="Mean of the per-matrix P and R; macro-F1 from them (Zhou eq. 2.14)."),
    Measure("micro", "micro-P, micro-R, micro-F1", "average", TASKS, "higher",
            "From the per-matrix TP, FP, FN averaged first; for single-label multi-class data micro-P = "
            "micro-R = accuracy.", ZHOU + "3.2, eqs. 2.15-2.17",
            json_path={"binary": "learners.*.groups_micro"},
            brief="P, R and F1 from the mean TP, FP, FN of the matrices."),
    Measure("macro_f1", "macro-F1 (Zhou)", "at_threshold", ("multiclass",), "higher",
            "2 macro-P macro-R / (macro-P + macro-R), from the macro averages over the classes.",
            ZHOU + "3.2, eq. 2.14", compute={"multiclass": _mc(lambda ev: ev.averages.macro_f1)},
            metric=False, rank={"multiclass": 2},
            json_path={"multiclass": "learners.*.macro.f1"},
            brief="2 macro-P macro-R / (macro-P + macro-R)."),
    Measure("mean_f1", "mean F1", "at_threshold", ("multiclass",), "higher",
            "The mean of the per-class F1: scikit-learn's 'macro F1', a different number from Zhou's "
            "macro-F1.", "scikit-learn f1_score(average='macro')",
            compute={"multiclass": _mc(lambda ev: ev.averages.mean_f1)}, metric=False,
            rank={"multiclass": 3},
            json_path={"multiclass": "learners.*.macro.mean_f1"},
            brief="Mean of the per-class F1 (scikit-learn's macro F1)."),
    Measure("macro_auc", "macro AUC", "threshold_free", ("multiclass",), "higher",
            "The mean of the one-vs-rest AUCs; weighted AUC weighs them by class prevalence.",
            "one vs rest: Fawcett, Pattern Recognition Letters 27 (2006); weighted by prevalence: "
            "Provost & Domingos (2000)", compute={"multiclass": _mc(lambda ev: ev.macro_auc)}, metric=False,
            rank={"multiclass": 4}, rank_label="macro AUC (one vs rest)",
            json_path={"multiclass": "learners.*.macro.auc"},
            brief="Mean of the one-vs-rest AUCs."),
    Measure("ovo_auc", "one-vs-one AUC", "threshold_free", ("multiclass",), "higher",
            "Hand & Till (2001): the mean over class pairs of the two pairwise AUCs.",
            "Hand & Till, Machine Learning 45 (2001)", compute={"multiclass": _mc(lambda ev: ev.ovo_auc)},
            metric=False,
            json_path={"multiclass": "learners.*.macro.ovo_auc"},
            brief="Mean over class pairs of the pairwise AUCs (Hand & Till)."),
    Measure("bayes_decision_cost", "Bayes decision cost", "threshold_free", ("multiclass",), "lower",
            "The cost-sensitive error of the decisions that minimise the expected cost sum_i p_i cost[i][j] "
            "under the matrix, when the scores are probabilities.", "Elkan, IJCAI (2001)",
            compute={"multiclass": _mc(lambda ev: ev.bayes_cost)}, metric=False,
            unit="cost",
            brief="Cost of deciding the class of least expected cost under the matrix."),
    # calibration: scores read as probabilities (metrics.calibration); a table and a
    # reliability diagram of their own in the report (report.calibration)
    Measure("brier", "Brier score", "threshold_free", TASKS, "lower",
            "The weighted mean of (s - y)^2, y = 1 for a positive; multi-class the mean over instances of "
            "sum_k (p_ik - y_ik)^2 (not halved: scikit-learn's convention for three classes or more).",
            "Brier, Monthly Weather Review 78 (1950); scikit-learn brier_score_loss",
            CALIBRATION_UNDEFINED, compute=_calibration("brier"), gate=True, section="calibration",
            swapped="brier",
            brief="Weighted mean of (s - y)²; multi-class summed over classes."),
    Measure("log_loss", "log loss", "threshold_free", TASKS, "lower",
            "The weighted mean of -log(s) over positives and -log(1 - s) over negatives (multi-class: "
            "-log p_i,y_i), each probability first clipped to [eps, 1 - eps], eps = 2.22 × 10⁻¹⁶ (float64 machine "
            "epsilon), as scikit-learn clips.", "scikit-learn log_loss",
            CALIBRATION_UNDEFINED, compute=_calibration("log_loss"), gate=True, section="calibration",
            unit="cost", swapped="log_loss",
            brief="Weighted mean of -log of the true class's probability (clipped)."),
    Measure("ece", "ECE", "threshold_free", TASKS, "lower",
            "Expected calibration error: sum over bins of (n_b / n) |observed_b - mean score_b| (calibration."
            "bins bins, 10 by default, equal-width or of equal mass); multi-class top-label: the top score of "
            "each row against whether the decision is right.",
            "Naeini, Cooper & Hauskrecht, AAAI (2015); bins as scikit-learn calibration_curve",
            CALIBRATION_UNDEFINED, compute=_calibration("ece"), gate=True, section="calibration",
            swapped="ece",
            brief="Σ (n_b / n) |observed_b - mean score_b| over the score bins."),
    Measure("calibration", "reliability diagram", "curve", TASKS, "none",
            "Per bin of the scores (multi-class: of the top score): its bounds lo and hi (a score on an inner "
            "edge belongs to the bin below), its weight n, mean score and observed frequency of positives "
            "(multi-class: of right decisions), with Wilson's interval at confidence.level.",
            "scikit-learn calibration_curve; Wilson, JASA 22 (1927)", CALIBRATION_UNDEFINED,
            brief="Observed share against mean score, per bin."),
    Measure("auc_ci", "AUC interval (DeLong)", "interval", ("binary",), "none",
            "DeLong's confidence interval of the AUC, from the structural components' variance.",
            "DeLong, DeLong & Clarke-Pearson, Biometrics 44 (1988)", metric=False,
            brief="DeLong's interval of the AUC."),
    Measure("bootstrap", "bootstrap intervals", "interval", TASKS, "none",
            "Percentile intervals over stratified resamples of the instances: BEP, F1, average precision "
            "and expected total cost (binary); accuracy and macro-F1 (multi-class).",
            "Efron & Tibshirani (1993)", metric=False,
            brief="Percentile intervals over stratified resamples."),
    Measure("envelopment", "envelopment", "comparison", ("binary",), "none",
            "A envelops B when A's ROC curve is nowhere below B's and above somewhere (compared exactly at "
            "every breakpoint of both curves); then A's P-R curve envelops B's as well.", ZHOU + "3.3",
            metric=False, compare=True,
            json_path={"binary": "comparisons.envelopment"},
            brief="A's ROC curve nowhere below B's, above somewhere."),
    Measure("cost_envelope", "cost envelope", "comparison", ("binary",), "none",
            "The lower envelope of the learners' cost curves: which learner, at which threshold, is cheapest "
            "at each PC(+), and the ROC hull across learners.", DH + "; Provost & Fawcett, Machine Learning 42 (2001)", metric=False, compare=True,
            json_path={"binary": "comparisons.cost_envelope"},
            brief="Cheapest learner and threshold at each PC(+)."),
    Measure("delong", "DeLong's test", "test", ("binary",), "none",
            "The paired test of two AUCs on the same instances, from their structural components; with "
            "Holm's adjusted p-value over a data set's pairs.",
            "DeLong, DeLong & Clarke-Pearson, Biometrics 44 (1988)", metric=False, compare=True,
            json_path={"binary": "comparisons.delong"},
            brief="Paired test of two AUCs; Holm-adjusted p."),
    Measure("mcnemar", "McNemar's test", "test", TASKS, "none",
            "The test of two learners' disagreements (binary: at their thresholds; multi-class: right or "
            "wrong): the exact binomial test below 25 "
            "disagreements, the chi-squared with continuity correction from 25 (confidence.mcnemar); with "
            "Holm's adjusted p-value over a data set's pairs.", ZHOU + "4.3", metric=False,
            compare=True,
            json_path={"binary": "comparisons.mcnemar", "multiclass": "comparisons.mcnemar"},
            brief="Test of paired disagreements; Holm-adjusted p."),
    Measure("paired_t", "paired t-test", "test", TASKS, "none",
            "The paired t-test of two learners' error rates over the groups (folds).", ZHOU + "4.2",
            metric=False, compare=True,
            json_path={"binary": "comparisons.paired_t", "multiclass": "comparisons.paired_t"},
            brief="Paired t-test of two learners' error rates over the groups."),
    Measure("friedman", "Friedman's test", "test", TASKS, "none",
            "Friedman's test of the learners' ranks over several data sets (AUC; multi-class: accuracy), "
            "with Nemenyi's critical difference.", ZHOU + "4.4; Demsar, JMLR 7 (2006)", metric=False,
            compare=True,
            json_path={"binary": "comparisons.friedman", "multiclass": "comparisons.friedman"},
            brief="Test of the learners' ranks over data sets; Nemenyi's critical difference."),
]

TERMS = [
    Term("probability cost PC(+)", ("binary",),
         "p c_FN / (p c_FN + (1 - p) c_FP), with p the positive prior and the named costs: the x axis of "
         "cost curves.", "p c_FN / (p c_FN + (1 - p) c_FP), p the prior: cost curves' x axis."),
    Term("normalised expected cost", ("binary",), "FNR PC(+) + FPR (1 - PC(+)): the cost line of one ROC point.",
         "FNR PC(+) + FPR (1 - PC(+)), a ROC point's cost line."),
    Term("decision", ("multiclass",),
         "The class of highest score; a tie goes to the class listed first in the spec's classes."),
]
