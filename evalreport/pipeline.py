"""spec -> data -> evaluate -> result. No rendering here.

A short list of named stages, each taking and returning typed data:
``load_sources`` (data.py), ``operating_point``, ``evaluate_learners``,
``check_gates``; :func:`evaluate` runs them in order.
"""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass, field, replace

import numpy as np

from ._version import __version__
from .capture import routed_warnings
from .data import Source, load_sources
from .errors import SpecError
from .compare import Comparisons, compare_learners
from .curves import OutputCurves, output_curves
from .metrics import (
    BinarySummary,
    Costs,
    OperatingPoint,
    ThresholdMeasures,
    evaluate_reduced,
)
from .metrics.binary import evaluate_binary_for_report
from .metrics.groups import binary_group_matrices, group_codes
from .metrics.multiclass import Averages, average_matrices
from .metrics.cost import probability_cost
from .spec import FALLBACK_THRESHOLD, Spec, locate

__all__ = ["Result", "LearnerResult", "OperatingPointSpec", "evaluate", "report_date"]


@dataclass(frozen=True)
class OperatingPointSpec:
    """Where the learners are judged in cost space."""

    p_positive: float
    p_positive_source: str  # "priors" or "observed"
    cost_fn: float
    cost_fp: float
    pc_positive: float


@dataclass(frozen=True, eq=False)
class GroupResult:
    """One confusion matrix per group (folds, runs) at the learner's threshold."""

    names: list[str]
    measures: list[dict]  # per group: tp, fp, tn, fn, accuracy, error_rate, precision, recall, f1
    averages: Averages  # macro and micro across the groups


def group_result(names, matrices) -> GroupResult:
    measures = []
    for tp, fp, tn, fn in np.asarray(matrices, dtype=float):
        m = tp + fp + tn + fn

        def ratio(a, b):
            return None if b == 0 else float(a / b)

        measures.append({"tp": float(tp), "fp": float(fp), "tn": float(tn), "fn": float(fn),
                         "accuracy": ratio(tp + tn, m), "error_rate": ratio(fp + fn, m),
                         "precision": ratio(tp, tp + fp), "recall": ratio(tp, tp + fn),
                         "f1": ratio(2 * tp, 2 * tp + fp + fn)})
    return GroupResult(list(names), measures, average_matrices(matrices, names))


@dataclass(frozen=True, eq=False)
class LearnerResult:
    name: str
    key: str  # the learner's key in results.json
    dataset: str | None
    source: str  # prediction file (as in the spec)
    hard: bool  # hard decisions only: no curves
    threshold: float
    threshold_source: str  # "spec", "learner", "optimal" or "decisions"
    summary: BinarySummary  # scalars, hull and cost curve (computed on the full curves)
    curves: OutputCurves  # ROC and P-R vertices, simplified to report.curve_points
    at_threshold: ThresholdMeasures
    operating: OperatingPoint | None
    partial_auc: float | None
    groups: GroupResult | None = None
    auc_ci: object | None = None  # DeLong's interval (compare.stats.AucInterval)
    resolution_bound: dict | None = None  # engines with `resolution`: bounds on |exact - binned|
    bootstrap: dict | None = None  # name -> (low, high) percentile-bootstrap interval

    @property
    def roc_vertices(self):
        """The full ROC curve (FPR, TPR) through every vertex: what comparisons use."""
        return self.curves.exact_roc


@dataclass(frozen=True, eq=False)
class Result:
    """Everything computed for a spec; every sink (JSON, HTML, PDF) prints this."""

    spec: Spec
    version: str
    date: str
    inputs: list[dict]
    operating_point: OperatingPointSpec | None  # binary tasks only
    learners: dict  # key -> LearnerResult (binary) or MulticlassLearnerResult
    gates: list[dict]
    comparisons: list[Comparisons] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    friedman: object | None = None  # across data sets: (measure, datasets, learners, stats.Friedman)

    @property
    def gates_passed(self) -> bool:
        return all(g["passed"] for g in self.gates)


def report_date(spec: Spec) -> str:
    """The spec's date, else SOURCE_DATE_EPOCH, else today (UTC)."""
    if spec.date is not None:
        return spec.date.isoformat()
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch:
        try:
            return dt.datetime.fromtimestamp(int(epoch), tz=dt.timezone.utc).date().isoformat()
        except (ValueError, OverflowError, OSError):
            raise SpecError([f"SOURCE_DATE_EPOCH={epoch!r} is not a Unix timestamp"]) from None
    return dt.datetime.now(tz=dt.timezone.utc).date().isoformat()


def operating_point(spec: Spec, sources: list[Source]) -> OperatingPointSpec:
    """PC(+) from the priors (default: the observed share) and the named costs."""
    costs = spec.costs or {}
    c_fn = float(costs.get("false_negative", 1.0))
    c_fp = float(costs.get("false_positive", 1.0))
    if spec.priors is not None and "positive" in spec.priors:
        p, origin = float(spec.priors["positive"]), "priors"
    else:
        pos = tot = 0.0
        for s in sources:
            if s.tables is not None:  # aggregated: any learner's table has the class totals
                table = next(iter(s.tables.values()))
                pos += float(table.positives)
                tot += float(table.positives + table.negatives)
                continue
            w = s.weights
            pos += float(s.labels.sum() if w is None else w[s.labels].sum())
            tot += float(s.labels.size if w is None else w.sum())
        p, origin = (pos / tot if tot > 0 else 0.5), "observed"
    if p * c_fn + (1.0 - p) * c_fp == 0:
        # Every error costs nothing in this population: cost space has no x axis.
        cls, cost = ("positives", "false_negative") if p == 1 else ("negatives", "false_positive")
        raise SpecError([locate(spec, ("costs", cost), (
            f"the data hold only {cls} (p(+) = {p:g}) and {cost.replace('_', ' ')}s cost 0, so no error "
            "costs anything and the operating point PC(+) is undefined; give priors: {positive: p} "
            f"with 0 < p < 1 or a {cost} cost above 0"))])
    pc = probability_cost(p, Costs(false_negative=c_fn, false_positive=c_fp))
    return OperatingPointSpec(p, origin, c_fn, c_fp, pc)


def _learner_keys(sources: list[Source]) -> dict[tuple, str]:
    """results.json key of each (dataset, learner): the name, or name@dataset when
    the same learner is measured on several data sets."""
    datasets_of: dict[str, set] = {}
    for s in sources:
        for name in s.learner_names:
            datasets_of.setdefault(name, set()).add(s.dataset)
    keys = {}
    for s in sources:
        for name in s.learner_names:
            several = len(datasets_of[name]) > 1
            keys[(s.dataset, name)] = f"{name}@{s.dataset}" if several else name
    return keys


def evaluate_learners(spec: Spec, sources: list[Source], op: OperatingPointSpec,
                      progress=None) -> tuple[dict[str, LearnerResult], list[str]]:
    warnings: list[str] = []
    results: dict[str, LearnerResult] = {}
    keys = _learner_keys(sources)
    costs = Costs(false_negative=op.cost_fn, false_positive=op.cost_fp)
    betas = tuple(dict.fromkeys([1.0] + [float(b) for b in spec.fbeta]))
    for s in sources:
        src_spec = spec.data[s.index]
        learner_values = s.learners if s.tables is None else dict.fromkeys(s.tables)
        for name, values in learner_values.items():
            if progress:
                progress(f"evaluating {name} ({s.rows:,} rows)")
            learner = src_spec.learners[name]
            key = keys[(s.dataset, name)]
            hard = name in s.hard
            if s.tables is not None:
                scores = None
                # streamed exact tables: the reducer's scalars over the kept rows' hull
                # (evaluate_counts when there is no reduction or nothing was reduced)
                reduction = None if s.reductions is None else s.reductions.get(name)
                ev = evaluate_reduced(s.tables[name], reduction)
                if reduction is not None and reduction.reduced:
                    warnings.append(
                        f"learner '{key}': the exact count table ({reduction.rows:,} thresholds) was streamed "
                        f"and {reduction.kept:,} of its rows kept: AUC, rank loss, AP, BEP, partial AUC, the ROC "
                        "hull, cost curve, expected total cost and the measures at the threshold are the whole "
                        "table's; the ROC and P-R curves (figures, results.json, envelopment comparisons) pass "
                        f"through the kept rows, within {reduction.roc_error:.2g} of the exact ROC curve")
            else:
                scores = values.astype(np.float64) if hard else values
                ev = evaluate_binary_for_report(s.labels, scores, sample_weight=s.weights, positive=True)
            operating = None if hard else ev.operating_point(op.pc_positive)
            if hard:
                threshold, origin = FALLBACK_THRESHOLD, "decisions"
            elif learner.threshold is not None:
                threshold, origin = learner.threshold, "learner"
            elif spec.threshold == "optimal":
                threshold, origin = (operating.threshold if operating else FALLBACK_THRESHOLD), "optimal"
            else:
                threshold, origin = float(spec.threshold), "spec"
            at = ev.at_threshold(threshold, costs=costs, betas=betas)
            pauc = None
            if spec.partial_auc is not None and not hard:
                pauc = ev.partial_auc(spec.partial_auc.max_fpr, standardized=spec.partial_auc.standardized)
            who = f"learner '{key}'"
            if hard:
                warnings.append(f"{who} gives hard decisions only: no curves, AUC, AP, BEP or cost curve")
            else:
                for measure, reason in ev.undefined.items():
                    if measure in ("roc_hull", "cost_curve"):
                        continue
                    warnings.append(f"{who}: {measure} is undefined: {reason}")
            for measure, reason in at.undefined.items():
                warnings.append(f"{who}: {measure} at threshold {threshold:g} is undefined: {reason}")
            if origin == "optimal" and operating is None:  # one class only: no ROC hull
                warnings.append(f"{who}: the least-cost threshold is undefined, as "
                                f"{ev.undefined.get('roc_hull', 'there is no ROC hull')}: the measures at a "
                                f"threshold are taken at {FALLBACK_THRESHOLD:g}")
            if origin == "optimal" and operating is not None and not np.isfinite(operating.threshold):
                warnings.append(f"{who}: the least-cost decision at PC(+) = {op.pc_positive:.4g} is to "
                                "predict nothing positive")
            summary = ev.summary()
            if hard:
                # decisions only: no ranking, so no curves and no curve measures
                curves = OutputCurves(roc=None, pr=None, cost=None)
                summary = replace(summary, auc=None, rank_loss=None, average_precision=None,
                                  bep=None, hull=None, cost_curve=None, expected_total_cost=None)
            else:
                curves = output_curves(ev, spec.report.curve_points)
            groups = None
            if s.group_tables is not None:
                # aggregated per group where the data lives: each group's matrix at the threshold
                names = sorted(s.group_tables[name])
                matrices = []
                for g in names:
                    t = s.group_tables[name][g]
                    r = t.rows_at(threshold)
                    tp, fp = float(t.tp[r]), float(t.fp_at(r))
                    matrices.append((tp, fp, float(t.negatives) - fp, float(t.positives) - tp))
                groups = group_result(names, np.asarray(matrices))
            elif s.groups is not None and scores is not None:
                names, codes = group_codes(s.groups)
                matrices = binary_group_matrices(s.labels, scores >= threshold, codes, len(names),
                                                 s.weights)
                groups = group_result(names, matrices)
                for measure, reason in groups.averages.undefined.items():
                    warnings.append(f"{who}: across groups, {reason}")
            if hard:
                auc_ci, boot = None, None
            elif s.tables is not None:
                auc_ci = boot = None
                if "delong" in spec.compare_set or spec.confidence.bootstrap:
                    warnings.append(f"{who}: aggregated by {s.engine}: intervals and paired tests need the "
                                    "instances and are not computed")
                if s.resolution_bound is not None:
                    bound = s.resolution_bound.get(name) or {}
                    shown = ", ".join(f"{k} ±{v:.3g}" if np.isfinite(v) else f"{k} undefined (the bound "
                                      "overflowed)" for k, v in bound.items() if v is not None)
                    warnings.append(f"{who}: scores binned at resolution {src_spec.resolution}: "
                                    f"measures are exact to within {shown}")
            else:
                auc_ci, boot = _intervals(spec, s, scores, threshold, who, warnings, progress)
            results[key] = LearnerResult(
                name=name, key=key, dataset=s.dataset, source=s.path, hard=hard,
                threshold=threshold, threshold_source=origin, summary=summary, curves=curves,
                at_threshold=at, operating=operating, partial_auc=pauc, groups=groups,
                auc_ci=auc_ci, bootstrap=boot,
                resolution_bound=None if s.resolution_bound is None else s.resolution_bound.get(name),
            )
            # The count table is no longer needed: only the summary and the
            # bounded curves are kept, so memory does not grow with learners.
            del ev
    return results, warnings


#: bootstrap only while resamples x rows stays below this (about 10 s a learner)
BOOTSTRAP_BUDGET = 50_000_000


def _intervals(spec: Spec, s: Source, scores, threshold, who, warnings, progress):
    """DeLong's AUC interval and the bootstrap intervals of one learner."""
    from .compare import stats

    level = spec.confidence.level
    auc_ci = boot = None
    if s.weights is not None:
        if "delong" in spec.compare_set or spec.confidence.bootstrap:
            warnings.append(f"{who}: confidence intervals are not computed for weighted data "
                            "(DeLong's variance and the bootstrap here assume unit weights)")
        return None, None
    # DeLong's interval comes with the comparisons (one set of components per learner)
    b = spec.confidence.bootstrap
    if b:
        if s.rows * b > BOOTSTRAP_BUDGET:
            most = BOOTSTRAP_BUDGET // s.rows
            advice = (f"set confidence.bootstrap to at most {most:,}" if most >= 200 else
                      "at this size the DeLong interval of the AUC is the practical one")
            warnings.append(f"{who}: bootstrap intervals skipped: {b:,} resamples of {s.rows:,} rows "
                            f"is too much work; {advice} (confidence.bootstrap: 0 silences this)")
        else:
            if progress:
                progress(f"bootstrap: {b:,} resamples")
            boot = stats.bootstrap_intervals(
                s.labels, scores, n_resamples=b, seed=spec.confidence.seed, level=level,
                statistics={"bep": stats.bep_score, "f1": stats.f1_at(threshold),
                            "average_precision": stats.average_precision_score,
                            "expected_total_cost": stats.expected_total_cost})
    return auc_ci, boot


def _gate_value(lr, metric: str):
    if not isinstance(lr, LearnerResult):
        from .pipeline_multiclass import multiclass_gate_value

        return multiclass_gate_value(lr, metric)
    at, ev = lr.at_threshold, lr.summary
    if metric in ("error_rate", "accuracy", "precision", "recall", "f1", "cost_sensitive_error"):
        return getattr(at, metric)
    if lr.hard:
        return None
    if metric in ("auc", "rank_loss", "average_precision", "bep", "expected_total_cost"):
        return getattr(ev, metric)
    if metric == "partial_auc":
        return lr.partial_auc
    if metric == "min_cost":
        return None if lr.operating is None else lr.operating.min_cost
    raise AssertionError(metric)


def check_gates(spec: Spec, learners: dict[str, LearnerResult]) -> tuple[list[dict], list[str]]:
    rows, warnings = [], []
    for gate in spec.gates:
        targets = [lr for lr in learners.values() if gate.learner in (None, lr.name)]
        for lr in targets:
            value = _gate_value(lr, gate.metric)
            passed = value is not None
            if value is not None and gate.min is not None:
                passed = passed and value >= gate.min
            if value is not None and gate.max is not None:
                passed = passed and value <= gate.max
            row = {"learner": lr.key, "metric": gate.metric, "value": value}
            if gate.min is not None:
                row["min"] = gate.min
            if gate.max is not None:
                row["max"] = gate.max
            row["passed"] = bool(passed)
            rows.append(row)
            if value is None:
                warnings.append(f"gate {gate.metric} of learner '{lr.key}' fails: the value is undefined")
    return rows, warnings


def _aligned(sources: list[Source], dataset) -> tuple:
    """The instances of one data set, aligned across its files by id.

    Returns (labels, weights, {learner name: values}) in the first file's row order.
    """
    files = [s for s in sources if s.dataset == dataset]
    first = files[0]
    values = dict(first.learners)
    for other in files[1:]:
        order = np.argsort(other.ids, kind="stable")
        perm = order[np.searchsorted(other.ids[order], first.ids)]
        for name, v in other.learners.items():
            values[name] = v[perm]
    return first.labels, first.weights, values


def delong_intervals(spec: Spec, learners: dict, sources: list[Source], warnings: list[str]) -> dict:
    """DeLong's interval of each AUC, and each learner's structural components
    (one sort per learner, shared with the paired tests): {dataset: {key: components}}."""
    from .compare import stats

    out: dict = {}
    if "delong" not in spec.compare_set:
        return out
    for dataset in dict.fromkeys(lr.dataset for lr in learners.values()):
        files = [s for s in sources if s.dataset == dataset]
        if any(s.tables is not None or s.weights is not None for s in files):
            continue  # aggregated or weighted: said in the learners' warnings
        labels, _, values = _aligned(sources, dataset)
        comps = {}
        for key, lr in learners.items():
            if lr.dataset != dataset or not isinstance(lr, LearnerResult) or lr.hard:
                continue
            if lr.summary.auc is None:
                continue
            c = stats.structural_components(labels, values[lr.name])
            comps[key] = c
            ci = stats.auc_interval(c, level=spec.confidence.level)
            if ci.ci is None and ci.note:
                warnings.append(f"learner '{key}': no AUC interval: {ci.note}")
            learners[key] = replace(lr, auc_ci=ci)
        out[dataset] = comps
    return out


def _pair_tests(spec: Spec, group: dict, sources: list[Source], dataset, components=None):
    from .compare import pair_tests

    wanted = spec.compare_set & {"delong", "mcnemar", "paired_t"}
    binary = [k for k, lr in group.items() if isinstance(lr, LearnerResult)]
    if not wanted or len(binary) < 2:
        return ()
    if any(s.tables is not None for s in sources if s.dataset == dataset):
        return ()  # aggregated where the data lives: no instances to pair
    labels, weights, values = _aligned(sources, dataset)
    if weights is not None:
        return ()  # the tests here assume unit weights (said in the learners' warnings)
    scores, decisions, errors = {}, {}, {}
    for k in binary:
        lr = group[k]
        v = values[lr.name]
        scores[k] = None if lr.hard else v
        decisions[k] = v.astype(bool) if lr.hard else v >= lr.threshold
        if lr.groups is not None:
            errors[k] = [m["error_rate"] for m in lr.groups.measures]
    return pair_tests(binary, labels, scores, decisions, errors or None, wanted, spec.confidence.level,
                      components=components)


def compare_datasets(spec: Spec, learners: dict, sources: list[Source] | None = None,
                     components: dict | None = None) -> list[Comparisons]:
    """Compare the learners of each data set (learners of one data set share their instances)."""
    by_dataset: dict = {}
    for key, lr in learners.items():
        by_dataset.setdefault(lr.dataset, {})[key] = lr
    if spec.task == "multiclass":
        from .pipeline_multiclass import compare_multiclass

        return [compare_multiclass(group, dataset) for dataset, group in by_dataset.items()
                if len(group) > 1]
    out = []
    for dataset, group in by_dataset.items():
        if len(group) < 2:
            continue
        comp = compare_learners(group, spec.compare_set, dataset)
        if sources is not None:
            comp = replace(comp, tests=_pair_tests(spec, group, sources, dataset,
                                                   (components or {}).get(dataset)))
        out.append(comp)
    return out


@dataclass(frozen=True)
class AcrossDatasets:
    """Friedman's test and the Nemenyi critical difference over several data sets."""

    measure: str
    datasets: tuple[str, ...]
    learners: tuple[str, ...]
    values: tuple[tuple[float, ...], ...]  # data sets x learners
    friedman: object  # compare.stats.Friedman


def across_datasets(spec: Spec, learners: dict) -> AcrossDatasets | None:
    """Learners measured on every one of several data sets, compared by Friedman's test
    (binary: AUC; multi-class: accuracy; higher is better)."""
    if "friedman" not in spec.compare_set:
        return None
    datasets = list(dict.fromkeys(lr.dataset for lr in learners.values()))
    if len(datasets) < 2:
        return None
    by = {(lr.dataset, lr.name): lr for lr in learners.values()}
    names = [n for n in dict.fromkeys(lr.name for lr in learners.values())
             if all((d, n) in by for d in datasets)]
    if len(names) < 2:
        return None
    if spec.task == "binary":
        measure = "auc"
        get = lambda lr: lr.summary.auc  # noqa: E731
    else:
        measure = "accuracy"
        get = lambda lr: lr.evaluation.accuracy  # noqa: E731
    table = [[get(by[(d, n)]) for n in names] for d in datasets]
    if any(v is None for row in table for v in row):
        return None
    from .compare.stats import friedman_nemenyi

    result = friedman_nemenyi(np.asarray(table, dtype=float), alpha=round(1 - spec.confidence.level, 10))
    return AcrossDatasets(measure, tuple(str(d) for d in datasets), tuple(names),
                          tuple(tuple(r) for r in table), result)


#: the comparisons a multi-class task computes (rankings by macro AUC and macro-F1,
#: among others, and Friedman's test on accuracy); the others are binary notions
MULTICLASS_COMPARISONS = frozenset({"auc", "f1", "friedman"})
_TEST_NAMES = {"delong": "DeLong's test", "mcnemar": "McNemar's test", "paired_t": "the paired t-test"}


def _and(names) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _on(dataset) -> str:
    return f" on {dataset}" if dataset is not None else ""


def unmet_comparisons(spec: Spec, learners: dict, sources: list[Source], comparisons) -> list[str]:
    """A warning for each comparison named in ``compare:`` that the run does not
    compute, with the reason. ``compare: all`` means every comparison that applies
    to the task and the data: what does not apply is left out without a word."""
    if spec.compare == "all":
        return []
    asked = list(spec.compare)
    if spec.task == "multiclass":
        skipped = [c for c in dict.fromkeys(asked) if c not in MULTICLASS_COMPARISONS]
        if not skipped:
            return []
        one = len(skipped) == 1
        return [f"compare: {_and(skipped)} {'applies' if one else 'apply'} to binary tasks and "
                f"{'is' if one else 'are'} not computed for a multi-class task (its learners are ranked "
                "by accuracy, macro-F1, mean F1, macro AUC and cost, and compared across data sets by "
                "Friedman's test)"]
    out = []
    for comp in comparisons:
        files = [s for s in sources if s.dataset == comp.dataset]
        where = _on(comp.dataset)
        pairs = len(comp.learners) * (len(comp.learners) - 1) // 2
        for name in (n for n in _TEST_NAMES if n in asked):
            done = sum(getattr(t, name) is not None for t in comp.tests)
            if done == pairs:
                continue
            if any(s.tables is not None for s in files):
                reason = f"the data is aggregated by {files[0].engine}, and the test needs the instances"
            elif any(s.weights is not None for s in files):
                reason = "the data is weighted, and the test assumes unit weights"
            elif name == "paired_t" and not any(s.groups is not None for s in files):
                reason = f"it needs a group column (folds), and data[{files[0].index}] has none"
            elif name == "paired_t":
                reason = "it needs at least 2 groups"
            elif name == "delong":
                lacking = [k for k in comp.learners
                           if learners[k].hard or learners[k].summary.auc is None]
                reason = (f"it needs a defined AUC, and {_and([repr(k) for k in lacking])} "
                          f"{'has' if len(lacking) == 1 else 'have'} none" if lacking else "")
            else:
                reason = ""
            count = "" if done == 0 else f" for {pairs - done} of {pairs} pairs"
            out.append(f"compare: {_TEST_NAMES[name]} is not computed{where}{count}"
                       + (f": {reason}" if reason else ""))
    return out


def test_warnings(comparisons) -> list[str]:
    """A warning for each test whose statistic is undefined (null in results.json),
    and for McNemar's tests with few disagreements (its note: the exact p-value)."""
    out = []
    for comp in comparisons:
        for t in comp.tests:
            pair = f"'{t.a}' and '{t.b}'{_on(comp.dataset)}"
            d = t.delong
            if d is not None and d.z is None:
                what = "z is undefined" if d.p_value is not None else "z and the p-value are undefined"
                out.append(f"DeLong's test of {pair}: {what}" + (f": {d.note}" if d.note else ""))
            m = t.mcnemar
            if m is not None and m.note:
                what = "the statistic is undefined: " if m.statistic is None else ""
                out.append(f"McNemar's test of {pair}: {what}{m.note}")
            pt = t.paired_t
            if pt is not None and pt.t is None:
                out.append(f"the paired t-test of {pair}: t is undefined"
                           + (f": {pt.note}" if pt.note else ""))
    return out


def friedman_warnings(spec: Spec, learners: dict, friedman: AcrossDatasets | None) -> list[str]:
    """What Friedman's test across data sets leaves out, or why it is not computed."""
    if "friedman" not in spec.compare_set:
        return []
    datasets = list(dict.fromkeys(lr.dataset for lr in learners.values()))
    if len(datasets) < 2:
        if spec.compare == "all":
            return []  # does not apply: one data set
        return ["compare: Friedman's test is not computed: it needs learners measured on at least 2 data "
                f"sets (data[].dataset), and this spec has {len(datasets)}"]
    by = {(lr.dataset, lr.name) for lr in learners.values()}
    names = list(dict.fromkeys(lr.name for lr in learners.values()))
    missing = {n: [str(d) for d in datasets if (d, n) not in by] for n in names}
    common = [n for n in names if not missing[n]]
    if len(common) < 2:
        if spec.compare == "all":
            return []  # does not apply: the data sets do not share two learners
        return ["compare: Friedman's test is not computed: fewer than 2 learners are measured on every "
                f"data set ({_and([str(d) for d in datasets])})"]
    out = [f"Friedman's test across data sets leaves out learner '{n}': it is not measured on {_and(ds)}"
           for n, ds in missing.items() if ds]
    if friedman is None:
        measure = "AUC" if spec.task == "binary" else "accuracy"
        undefined = [f"'{lr.key}'" for lr in learners.values() if lr.name in common and
                     (lr.summary.auc if spec.task == "binary" else lr.evaluation.accuracy) is None]
        out.append(f"Friedman's test is not computed: the {measure} of {_and(undefined)} is undefined")
    elif friedman.friedman.note:
        out.append(f"Friedman's test: {friedman.friedman.note}")
    return out


def evaluate(spec: Spec, *, progress=None) -> Result:
    """Load the data of ``spec`` and compute every number. No rendering.

    Python warnings raised meanwhile (NumPy, SciPy, a data reader) are not
    printed: they end in ``Result.warnings``, with the stage and the function
    that raised them (see :mod:`evalreport.capture`).

    Raises
    ------
    SpecError, DataError
        With one message per problem.
    """
    with routed_warnings("reading the data") as routed:
        def tracked(message: str) -> None:
            routed.stage = message  # each caught warning says what was being done
            if progress:
                progress(message)

        result = _evaluate(spec, tracked, routed)
    return replace(result, warnings=result.warnings + routed.lines())


def _evaluate(spec: Spec, progress, routed) -> Result:
    date = report_date(spec)
    sources = load_sources(spec, progress)
    routed.stage = "evaluating the learners"
    if spec.task == "multiclass":
        from .pipeline_multiclass import evaluate_multiclass_learners

        op = None
        learners, warnings = evaluate_multiclass_learners(spec, sources, _learner_keys(sources), progress)
    else:
        op = operating_point(spec, sources)
        learners, warnings = evaluate_learners(spec, sources, op, progress)
    gates, gate_warnings = check_gates(spec, learners)
    routed.stage = "comparing the learners"
    if progress and len(learners) > 1:
        progress("comparing learners")
    components = delong_intervals(spec, learners, sources, warnings) if spec.task == "binary" else {}
    comparisons = compare_datasets(spec, learners, sources, components)
    del components
    friedman = across_datasets(spec, learners)
    warnings += unmet_comparisons(spec, learners, sources, comparisons)
    warnings += test_warnings(comparisons)
    warnings += friedman_warnings(spec, learners, friedman)
    inputs = [{"path": s.path, "sha256": s.sha256_hex, "rows": s.rows} for s in sources]
    return Result(
        spec=spec, version=__version__, date=date, inputs=inputs, operating_point=op,
        learners=learners, gates=gates, comparisons=comparisons,
        warnings=[w for s in sources for w in s.warnings] + warnings + gate_warnings,
        friedman=friedman,
    )
