"""The binary task's evaluation: the operating point, then each learner's
measures at its threshold, curves, groups and intervals (one sort of its scores)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType

import numpy as np

from ..compare import stats
from ..compare.stats.bootstrap import percentile_intervals
from ..curves import OutputCurves, output_curves
from ..data import Source
from ..errors import SpecError
from ..metrics import Costs
from ..metrics.binary import evaluate_binary_for_report
from ..metrics.calibration import not_probabilities
from ..metrics.cost import probability_cost
from ..metrics.groups import binary_group_matrices, group_codes
from ..metrics.operating_table import operating_table
from ..metrics.population import MEASURES as POPULATION, PopulationMeasures, population_at_threshold
from ..metrics.score_summary import delong_variance, score_summary
from ..metrics.threshold_text import threshold_bracket
from ..number_style import general
from ..result import GroupResult, LearnerResult, OperatingPointSpec, RunWarning
from ..spec import FALLBACK_THRESHOLD, Spec, locate
from ..spec.models import OptimalOn
from .base import learner_warning
from .binary_thresholds import (chosen_on_data_warnings, chosen_threshold, learner_threshold_texts,
                                one_text_per_threshold)
from .family import binary_family
from .slices import with_slices
from .calibration import binary_calibration

__all__ = ["operating_point", "evaluate_learners", "group_result", "BOOTSTRAP_BUDGET"]

def group_result(names, matrices) -> GroupResult:
    from ..metrics.multiclass import average_matrices  # (with groups only: a run without loads none of it)

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



def evaluate_learners(spec: Spec, sources: list[Source], keys: dict, op: OperatingPointSpec,
                      progress=None) -> tuple[dict[str, LearnerResult], list[RunWarning]]:
    """Each learner of each source: its measures at its threshold, its curves, its
    groups and intervals. ``keys``: (dataset, learner name) -> results.json key."""
    run = _Run(spec, op, Costs(false_negative=op.cost_fn, false_positive=op.cost_fp),
               tuple(dict.fromkeys([1.0] + [float(b) for b in spec.fbeta])),
               # threshold: {optimal_on: name}: that data set's learners first, each choosing its
               # least-cost threshold, which the learner of the same name applies elsewhere
               spec.threshold.optimal_on if isinstance(spec.threshold, OptimalOn) else None, progress)
    order = sorted(sources, key=lambda s: s.dataset != run.chosen_on) if run.chosen_on else sources
    by_source: dict[int, tuple[dict, list]] = {}
    for s in order:
        results, warnings = by_source[s.index] = ({}, [])
        jobs: dict = {}  # key -> (scores, bootstrap statistics): one stream of draws for all (_bootstrap)
        learner_values = s.learners if s.tables is None else dict.fromkeys(s.tables)
        for name, values in learner_values.items():
            if progress:
                progress(f"evaluating {name} ({s.rows:,} rows)")
            key = keys[(s.dataset, name)]
            results[key] = _evaluate_learner(run, s, name, values, key, jobs, warnings)
        if jobs:
            if progress:
                progress(f"bootstrap: {spec.confidence.bootstrap:,} resamples of {len(jobs)} learner(s)")
            results.update(_bootstrap(spec, s, jobs, results))
    # in the spec's order whatever the order of evaluation
    results = {k: v for s in sources for k, v in by_source[s.index][0].items()}
    warnings = [w for s in sources for w in by_source[s.index][1]]
    results, warnings = one_text_per_threshold(results, warnings, run.brackets)
    return results, warnings + chosen_on_data_warnings(spec, results)


@dataclass
class _Run:
    """What every learner's evaluation shares: the spec, the operating point, the
    costs and betas, the data set that chooses the thresholds (``chosen_on``) and
    the thresholds chosen there, and the brackets of the thresholds (one_text_per_threshold)."""

    spec: Spec
    op: OperatingPointSpec
    costs: Costs
    betas: tuple
    chosen_on: str | None
    progress: object = None
    chosen: dict = field(default_factory=dict)  # learner name -> its least-cost threshold on chosen_on
    brackets: dict = field(default_factory=dict)  # key -> (learner name, threshold, (lower, upper))


def _evaluate_learner(run: _Run, s: Source, name: str, values, key: str, jobs: dict,
                      warnings: list) -> LearnerResult:
    """One learner of source ``s``: its LearnerResult (with its slices); its
    warnings appended to ``warnings``, its bootstrap job put in ``jobs``."""
    spec, op = run.spec, run.op
    src_spec = spec.data[s.index]
    hard = name in s.hard
    scores, reduction, ev = _evaluation(s, name, values, key, hard, warnings)
    operating, threshold, origin, chooses = _threshold(run, s, name, src_spec.learners[name], ev, hard)
    at = ev.at_threshold(threshold, costs=run.costs, betas=run.betas)
    # the threshold table and the gains, read off the count table while it is at hand
    optable = None if hard else operating_table(
        ev.counts, spec.thresholds.asked() if spec.thresholds else None, getattr(ev, "reduction", None))
    exact = s.tables is None or reduction is None or not reduction.reduced
    texts = learner_threshold_texts(ev, threshold, exact=exact, more=optable)
    if exact and not hard and np.isfinite(threshold):
        run.brackets[key] = (name, threshold, threshold_bracket(ev.counts, threshold))
    shown = texts.get(float(threshold)) or general(threshold)
    pauc = None
    if spec.partial_auc is not None and not hard:
        pauc = ev.partial_auc(spec.partial_auc.max_fpr, standardized=spec.partial_auc.standardized)
    _undefined_warnings(key, ev, at, shown, hard, warnings)
    ks, family_warnings = binary_family(spec.metric_set, key, ev, at, shown, hard)
    warnings += family_warnings
    _least_cost_warnings(run, key, ev, origin, chooses, operating, warnings)
    summary, curves = _summary_and_curves(spec, ev, hard)
    groups = _groups(s, name, scores, threshold, key, warnings)
    auc_ci, boot = _intervals_or_notes(run, s, name, scores, threshold, key, hard, jobs, warnings)
    warnings.extend(learner_warning(key, text, m) for m, text in
                    (optable.notes(lambda t: texts.get(float(t)) or general(t)) if optable else ()))
    # what a later run compares with, read off the whole count table (a reduced
    # streamed table has only some of its rows: no summary, said with the reduction)
    whole = not hard and (s.tables is None or reduction is None or not reduction.reduced)
    if not hard and not whole:
        warnings.append(learner_warning(key, "the score summary and DeLong's variance of the AUC "
                                        "(kept for later runs' comparisons) need the whole count "
                                        "table and are undefined"))
    result = LearnerResult(
        name=name, key=key, dataset=s.dataset, source=s.path, hard=hard,
        threshold=threshold, threshold_source=origin, summary=summary, curves=curves,
        at_threshold=at, operating=operating, partial_auc=pauc, groups=groups,
        auc_ci=auc_ci, bootstrap=None if boot is None else {
            k: v for k, v in boot.items() if not k.startswith(POPULATION_PREFIX)},
        resolution_bound=None if s.resolution_bound is None else s.resolution_bound.get(name),
        pc_positive=op.pc_positive, population=_population(at, op, key, warnings, boot, spec, hard),
        threshold_texts=texts,
        operating_table=optable,
        score_summary=score_summary(ev.counts) if whole else None,
        auc_variance=delong_variance(ev.counts) if whole else None,
        ks=ks,
        calibration=binary_calibration(
            spec, key, ev, warnings, hard=hard,
            binned=None if s.resolution_bound is None else src_spec.resolution,
            reduced=s.tables is not None and reduction is not None and reduction.reduced),
    )
    # The count table is no longer needed once this returns: only the summary and
    # the bounded curves are kept, so memory does not grow with learners.
    return with_slices(spec, s, result, scores, run.costs, run.betas, warnings)


def _evaluation(s: Source, name: str, values, key: str, hard: bool, warnings: list):
    """(scores, reduction, evaluation) of one learner: its scores evaluated in memory
    (scores as float64 for hard decisions), or its aggregated table (scores None),
    with the reduction of a streamed table (else None)."""
    if s.tables is None:
        scores = values.astype(np.float64) if hard else values
        return scores, None, evaluate_binary_for_report(s.labels, scores, sample_weight=s.weights, positive=True)
    # streamed exact tables: the reducer's scalars over the kept rows' hull
    # (evaluate_counts when there is no reduction or nothing was reduced)
    from ..metrics.stream import evaluate_reduced  # (the streamed engines' module: not loaded in memory)

    reduction = None if s.reductions is None else s.reductions.get(name)
    ev = evaluate_reduced(s.tables[name], reduction)
    if reduction is not None and reduction.reduced:
        warnings.append(learner_warning(
            key, f"the exact count table ({reduction.rows:,} thresholds) was streamed "
            f"and {reduction.kept:,} of its rows kept: AUC, rank loss, AP, BEP, partial AUC, the ROC "
            "hull, cost curve, expected total cost and the measures at the threshold are the whole "
            "table's; the ROC and P-R curves (figures, results.json, envelopment comparisons) pass "
            f"through the kept rows, within {general(reduction.roc_error, 2)} of the exact ROC curve"))
    return None, reduction, ev


def _threshold(run: _Run, s: Source, name: str, learner, ev, hard: bool):
    """(the operating point, the threshold, where it came from, whether this data
    set chooses the thresholds); a least-cost threshold chosen here is noted in
    ``run.chosen``."""
    spec, chosen_on = run.spec, run.chosen_on
    operating = None if hard else ev.operating_point(run.op.pc_positive)
    least_cost = None if hard else operating.threshold if operating else FALLBACK_THRESHOLD
    chooses = chosen_on is not None and s.dataset == chosen_on
    if chooses and not hard:
        run.chosen[name] = least_cost
    if hard:
        threshold, origin = FALLBACK_THRESHOLD, "decisions"
    elif learner.threshold is not None:
        threshold, origin = learner.threshold, "learner"
    elif spec.threshold == "optimal" or chooses:
        threshold, origin = least_cost, "optimal" if chosen_on is None else f"optimal_on:{chosen_on}"
    elif chosen_on is not None:
        threshold, origin = chosen_threshold(spec, run.chosen, chosen_on, s, name, ev), f"optimal_on:{chosen_on}"
    else:
        threshold, origin = float(spec.threshold), "spec"
    return operating, threshold, origin, chooses


def _undefined_warnings(key: str, ev, at, shown: str, hard: bool, warnings: list) -> None:
    """The warnings of a learner of hard decisions, or of its undefined measures
    (threshold-free, then at the threshold)."""
    who = f"learner '{key}'"
    if hard:
        warnings.append(RunWarning(f"{who} gives hard decisions only: no curves, AUC, Gini, KS, AP, BEP or "
                                "cost curve", learner=key))
    else:
        for measure, reason in ev.undefined.items():
            if measure in ("roc_hull", "cost_curve"):
                continue
            warnings.append(learner_warning(key, f"{measure} is undefined: {reason}", measure))
    for measure, reason in at.undefined.items():
        warnings.append(learner_warning(key, f"{measure} at threshold {shown} is undefined: "
                                        f"{reason}", measure.split("[")[0]))


def _least_cost_warnings(run: _Run, key: str, ev, origin: str, chooses: bool, operating,
                         warnings: list) -> None:
    """Where this learner's threshold is its least-cost one: whether that is
    undefined (one class only) or predicts nothing positive."""
    picked_here = origin == "optimal" or (chooses and origin.startswith("optimal_on:"))
    if picked_here and operating is None:  # one class only: no ROC hull
        warnings.append(learner_warning(
            key, f"the least-cost threshold is undefined, as "
            f"{ev.undefined.get('roc_hull', 'there is no ROC hull')}: the measures at a "
            f"threshold are taken at {FALLBACK_THRESHOLD:g}", "min_cost"))
    if picked_here and operating is not None and not np.isfinite(operating.threshold):
        warnings.append(learner_warning(key, f"the least-cost decision at PC(+) = {general(run.op.pc_positive, 4)} "
                                        "is to predict nothing positive", "min_cost"))


def _summary_and_curves(spec: Spec, ev, hard: bool):
    """The threshold-free summary and the bounded curves (none for hard decisions)."""
    summary = ev.summary()
    if hard:
        # decisions only: no ranking, so no curves and no curve measures
        curves = OutputCurves(roc=None, pr=None, cost=None)
        summary = replace(summary, auc=None, rank_loss=None, average_precision=None,
                          bep=None, hull=None, cost_curve=None, expected_total_cost=None)
        return summary, curves
    return summary, output_curves(ev, spec.report.curve_points)


def _groups(s: Source, name: str, scores, threshold: float, key: str, warnings: list) -> GroupResult | None:
    """Each group's confusion matrix at the threshold: from the tables aggregated
    per group where the data lives, or counted from the scores."""
    if s.group_tables is not None:
        # aggregated per group where the data lives: each group's matrix at the threshold
        names = sorted(s.group_tables[name])
        matrices = []
        for g in names:
            t = s.group_tables[name][g]
            r = t.rows_at(threshold)
            tp, fp = float(t.tp[r]), float(t.fp_at(r))
            matrices.append((tp, fp, float(t.negatives) - fp, float(t.positives) - tp))
        return group_result(names, np.asarray(matrices))
    if s.groups is not None and scores is not None:
        names, codes = group_codes(s.groups)
        matrices = binary_group_matrices(s.labels, scores >= threshold, codes, len(names),
                                         s.weights)
        groups = group_result(names, matrices)
        for measure, reason in groups.averages.undefined.items():
            warnings.append(learner_warning(key, f"across groups, {reason}", "macro"))
        return groups
    return None


def _intervals_or_notes(run: _Run, s: Source, name: str, scores, threshold: float, key: str, hard: bool,
                        jobs: dict, warnings: list):
    """(the AUC's interval, the bootstrap's placeholders): computed from the
    instances (the bootstrap's job put in ``jobs``); for an aggregated source
    none, with a warning of what is missing and of the resolution's bound."""
    spec = run.spec
    if hard:
        return None, None
    if s.tables is not None:
        if "delong" in spec.compare_set or spec.confidence.bootstrap:
            warnings.append(learner_warning(key, f"aggregated by {s.engine}: intervals and paired "
                                            "tests need the instances and are not computed"))
        if s.resolution_bound is not None:
            bound = s.resolution_bound.get(name) or {}
            shown = ", ".join(f"{k} ±{general(v, 3)}" if np.isfinite(v) else f"{k} undefined (the bound "
                              "overflowed)" for k, v in bound.items() if v is not None)
            warnings.append(learner_warning(key, f"scores binned at resolution {spec.data[s.index].resolution}: "
                                            f"measures are exact to within {shown}"))
        return None, None
    auc_ci, statistics = _intervals(spec, s, scores, threshold, key, warnings, run.progress, run.op)
    if statistics is not None:
        jobs[key] = (scores, statistics)
    # placeholders until the source's learners are resampled together (_bootstrap)
    boot = None if statistics is None else dict.fromkeys(statistics, stats.BootstrapInterval(None, None))
    return auc_ci, boot


def _population(at, op: OperatingPointSpec, key: str, warnings: list, boot: dict | None = None,
                spec: Spec | None = None, hard: bool = False) -> PopulationMeasures | None:
    """The measures at the threshold in the population of the spec's priors (None
    without priors: the test set's own mix is then the population), with their
    bootstrap intervals (``boot``'s "population:<measure>" entries, which
    :func:`_intervals` adds with priors); None and a warning where none were drawn."""
    if op.p_positive_source != "priors":
        return None
    pop = population_at_threshold(at.tp, at.fp, at.tn, at.fn, op.p_positive, op.cost_fn, op.cost_fp)
    for measure, reason in pop.undefined.items():
        warnings.append(learner_warning(key, f"{measure} in the population of the priors is undefined: "
                                        f"{reason}", "population"))
    intervals = {m: (boot or {}).get(f"{POPULATION_PREFIX}{m}") for m in POPULATION}
    if all(iv is not None for iv in intervals.values()):
        return replace(pop, intervals=MappingProxyType({m: tuple(iv) for m, iv in intervals.items()}))
    if spec is not None and "population" in spec.metric_set:
        why = ("confidence.bootstrap is 0" if spec.confidence.bootstrap == 0 else
               "hard decisions are not resampled" if hard else "the bootstrap was not run (the warnings above say why)")
        warnings.append(learner_warning(key, f"the measures in the population of the priors have no intervals: "
                                        f"{why}", "population"))
    return pop


#: the bootstrap's names of the population's measures (kept apart from results.json's bootstrap block)
POPULATION_PREFIX = "population:"


#: bootstrap only while resamples x rows stays below this (about 2 s of CPU a learner
#: on 2 shared cores: bench/README.md, "Fixed costs (issue 24)")
BOOTSTRAP_BUDGET = 50_000_000


def _intervals(spec: Spec, s: Source, scores, threshold, key, warnings, progress, op=None):
    """The bootstrap intervals of one learner (DeLong's interval of its AUC comes with
    the comparisons, which share its structural components); with priors, those of
    the measures in their population too ("population:<measure>", from the same
    resamples: each draws TPR and FPR at the threshold per class)."""
    auc_ci = boot = None
    if s.weights is not None:
        if "delong" in spec.compare_set or spec.confidence.bootstrap:
            warnings.append(learner_warning(key, "confidence intervals are not computed for weighted data "
                                            "(DeLong's variance and the bootstrap here assume unit weights)"))
        return None, None
    # DeLong's interval comes with the comparisons (one set of components per learner)
    b = spec.confidence.bootstrap
    if b:
        if s.rows * b > BOOTSTRAP_BUDGET:
            most = BOOTSTRAP_BUDGET // s.rows
            advice = (f"set confidence.bootstrap to at most {most:,}" if most >= 200 else
                      "at this size the DeLong interval of the AUC is the practical one")
            warnings.append(learner_warning(key, f"bootstrap intervals skipped: {b:,} resamples of "
                                            f"{s.rows:,} rows is too much work; {advice} "
                                            "(confidence.bootstrap: 0 silences this)", "bootstrap"))
        else:
            statistics = {"bep": stats.bep_score, "f1": stats.f1_at(threshold),
                          "average_precision": stats.average_precision_score,
                          "expected_total_cost": stats.expected_total_cost}
            if op is not None:  # the costs at PC(+): the deployed threshold's and the least
                statistics["cost_at_threshold"] = stats.cost_at(threshold, op.pc_positive)
                statistics["min_cost"] = stats.least_cost_at(op.pc_positive)
            if op is not None and op.p_positive_source == "priors":  # the measures in the population
                statistics.update({f"{POPULATION_PREFIX}{m}": stats.population_at(
                    threshold, m, op.p_positive, op.cost_fn, op.cost_fp) for m in POPULATION})
            if not_probabilities(scores) is None:  # the calibration of scores that are probabilities
                statistics["brier"] = stats.brier_of
                statistics["ece"] = stats.ece_of(spec.calibration.bins, spec.calibration.strategy)
            boot = statistics
    return auc_ci, boot


@dataclass(frozen=True, eq=False)
class Resampled:
    """A learner's values of some measures in each of the bootstrap's resamples of
    data[``source``] (the paired bootstrap of the compare stage reads them)."""

    source: int
    n_resamples: int
    seed: int
    values: dict  # measure -> array of n_resamples floats, NaN where undefined


#: the bootstrap's names of the measures resampled for the compare stage alone
PAIRED_PREFIX = "paired:"


def _bootstrap(spec: Spec, s: Source, jobs: dict, results: dict) -> dict:
    """The bootstrap intervals of the source's learners (``jobs``: key -> (scores,
    statistics)), from one stream of draws: the draws depend on the labels and the
    seed alone, so they are those each learner would draw by itself, made once per
    chunk for all (stats.resampled_values_many). Where the data set has several
    learners, the values of the measures the compare stage resamples in pairs (the
    ranked one, the ECE) are kept on each learner (:class:`Resampled`), computed here
    when not among the intervals' statistics, so that the paired bootstrap draws
    nothing again (tasks.binary_compare.paired_resamples)."""
    from ..compare.leaderboard import rank_measure

    b, seed = spec.confidence.bootstrap, spec.confidence.seed
    paired: tuple = ()
    if sum(len(d.learners) for d in spec.data if d.dataset == s.dataset) > 1:  # compared in pairs
        paired = tuple(dict.fromkeys([rank_measure(spec), "ece"]))
    full = {}
    for key, (scores, statistics) in jobs.items():
        extra = {f"{PAIRED_PREFIX}{m}": stats.statistic_for(m, results[key], spec) for m in paired
                 if m not in statistics}
        full[key] = (scores, {**statistics, **{k: v for k, v in extra.items() if v is not None}})
    values = stats.resampled_values_many(s.labels, full, n_resamples=b, seed=seed)
    out = {}
    for key, (_, statistics) in jobs.items():
        names = list(statistics)
        boot = percentile_intervals(names, np.array([values[key][n] for n in names]), spec.confidence.level)
        lr = results[key]
        pop = lr.population
        if pop is not None and f"{POPULATION_PREFIX}{POPULATION[0]}" in boot:
            pop = replace(pop, intervals=MappingProxyType(
                {m: tuple(boot[f"{POPULATION_PREFIX}{m}"]) for m in POPULATION}))
        kept = {m: values[key].get(m if m in statistics else f"{PAIRED_PREFIX}{m}") for m in paired}
        out[key] = replace(lr, bootstrap={k: v for k, v in boot.items() if not k.startswith(POPULATION_PREFIX)},
                           population=pop, resampled=Resampled(s.index, b, seed, {
                               m: v for m, v in kept.items() if v is not None}) if paired else None)
    return out


