"""The multi-class task's comparisons: the learners of one data set ranked by
accuracy, macro-F1, mean F1, macro AUC and cost (the registry's multi-class
rankings), and McNemar's test on each pair's correct and wrong decisions; curves
are compared per class in the report."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .. import registry
from ..compare import (Comparisons, pair_tests, pairwise_skipped, ranking_disagreements,
                       too_many_pairs)
from ..compare.stats import paired_classes
from ..result import RunWarning
from ..spec import Spec
from ..words import and_join
from .base import aligned, rankings
from .binary_compare import test_warnings, untested_ranking

__all__ = ["compare_multiclass"]


def compare_dataset(learners: dict, wanted: frozenset[str], dataset=None) -> Comparisons:
    """Rankings of the learners of one data set; the winner has the highest accuracy."""
    ranks = rankings("multiclass", learners, wanted, keep_empty=False)
    disagreements = ranking_disagreements(ranks, tuple(learners))
    return Comparisons(dataset=dataset, learners=tuple(learners), rankings=ranks,
                       winner=ranks[0].order[0] if ranks else None, rankings_agree=not disagreements,
                       disagreements=disagreements)


def _unpairable(sources, dataset) -> str | None:
    """Why the instances of a data set cannot be paired, or None."""
    files = [s for s in sources if s.dataset == dataset]
    if any(s.tables is not None or s.mc_counts is not None for s in files):
        return f"the data is aggregated by {files[0].engine}, and the test needs the instances"
    if any(s.weights is not None for s in files):
        return "the data is weighted, and the test assumes unit weights"
    return None


def _group_errors(group: dict) -> dict | None:
    """Each learner's error rate per group (folds), in the groups' order; None
    unless every learner has the same two or more groups."""
    names = {tuple(lr.groups) if lr.groups is not None else None for lr in group.values()}
    if len(names) != 1 or None in names or len(next(iter(names))) < 2:
        return None
    return {key: [g.error_rate for g in lr.groups.values()] for key, lr in group.items()}


def mcnemar_tests(spec: Spec, group: dict, sources, dataset) -> tuple:
    """McNemar's test of each pair of one data set's learners on their correct and
    wrong decisions (the class of highest score, or the hard decision), with Holm's
    adjusted p-values over the pairs, and the paired t-test of their error rates over
    the groups (folds) when there are groups; () when the instances cannot be paired."""
    if _unpairable(sources, dataset) is not None:
        return ()
    wanted = spec.compare_set & {"mcnemar", "paired_t"}
    labels, _, values = aligned(sources, dataset)
    right = {}
    for key, lr in group.items():
        v = values[lr.name]
        decided = v if lr.hard else np.argmax(v, axis=1)  # ties: the first class, as the evaluation
        right[key] = decided == labels
    # McNemar's counts on correct (True) against wrong: the "labels" are all True
    return pair_tests(list(group), np.ones(labels.size, dtype=bool), dict.fromkeys(group), right,
                      _group_errors(group), wanted, spec.confidence.level,
                      mcnemar_method=spec.confidence.mcnemar)


def paired_resamples(spec: Spec, group: dict, sources, dataset):
    """The measure ranked, for each learner of one data set, in the same
    ``confidence.bootstrap`` stratified resamples of its rows
    (compare.stats.paired_classes), for the leaderboard's and the challengers'
    paired bootstrap; None where the rows cannot be resampled (no bootstrap
    asked, aggregated or weighted data, more work than the bootstrap budget) or
    the measure has another test or is not resampled."""
    from ..compare.leaderboard import rank_measure, test_for
    from .binary_evaluate import BOOTSTRAP_BUDGET
    from .multiclass_evaluate import prior_factors

    name = rank_measure(spec)
    b = spec.confidence.bootstrap
    if (not b or test_for(name, "multiclass") != "paired_bootstrap" or name not in paired_classes.MEASURES
            or _unpairable(sources, dataset) is not None):
        return None
    labels, _, values = aligned(sources, dataset)
    if labels.size * b > BOOTSTRAP_BUDGET:
        return None
    cost = (spec.costs or {}).get("matrix")
    if name == "cost_sensitive_error" and cost is None:
        return None
    k = len(spec.classes)
    learners = {}
    for key, lr in group.items():
        v = values[lr.name]
        learners[key] = (v, None) if lr.hard else (np.argmax(v, axis=1), v)
    return paired_classes.paired_class_resamples(labels, k, learners, (name,), n_resamples=b,
                                                 seed=spec.confidence.seed, cost=cost,
                                                 factor=prior_factors(spec, labels))


def compare_multiclass(spec: Spec, learners: dict, sources=None):
    """The compare stage of a multi-class task: each data set's rankings and
    McNemar's tests, and a warning for each binary comparison the spec's
    ``compare:`` names."""
    by_dataset: dict = {}
    for key, lr in learners.items():
        by_dataset.setdefault(lr.dataset, {})[key] = lr
    comparisons = [compare_dataset(group, spec.compare_set, dataset)
                   for dataset, group in by_dataset.items() if len(group) > 1]
    warnings: list[RunWarning] = [w for c in comparisons
                                  if (w := pairwise_skipped(len(c.learners), spec.compare_set & {"mcnemar", "paired_t"},
                                                            c.dataset))]
    if sources is not None:
        for i, comp in enumerate(comparisons):
            comparisons[i] = replace(comp, resamples=paired_resamples(spec, by_dataset[comp.dataset], sources,
                                                                      comp.dataset))
    if spec.compare_set & {"mcnemar", "paired_t"} and sources is not None:
        for i, comp in enumerate(comparisons):
            if too_many_pairs(len(comp.learners)):
                continue  # pairwise_skipped's warning
            tests = mcnemar_tests(spec, by_dataset[comp.dataset], sources, comp.dataset)
            comparisons[i] = replace(comp, tests=tests)
            reason = _unpairable(sources, comp.dataset)
            if reason and spec.compare != "all":
                where = f" on {comp.dataset}" if comp.dataset is not None else ""
                for name, said in (("mcnemar", "McNemar's test"), ("paired_t", "the paired t-test")):
                    if name in spec.compare:
                        warnings.append(RunWarning(f"compare: {said} is not computed{where}: {reason}",
                                                   measure=name))
            elif (not reason and "paired_t" in spec.compare and spec.compare != "all"
                  and _group_errors(by_dataset[comp.dataset]) is None):
                where = f" on {comp.dataset}" if comp.dataset is not None else ""
                warnings.append(RunWarning(f"compare: the paired t-test is not computed{where}: it needs a "
                                           "group column (folds) with at least 2 groups", measure="paired_t"))
    if spec.compare != "all":
        # the comparisons a multi-class task computes (rankings by macro AUC and macro-F1,
        # among others, and Friedman's test on accuracy); the others are binary notions
        applies = {m.name for m in registry.measures_for("multiclass") if m.compare}
        skipped = [c for c in dict.fromkeys(spec.compare) if c not in applies]
        if skipped:
            one = len(skipped) == 1
            warnings.append(RunWarning(
                f"compare: {and_join(skipped)} {'applies' if one else 'apply'} to binary tasks and "
                f"{'is' if one else 'are'} not computed for a multi-class task (its learners are ranked "
                "by accuracy, macro-F1, mean F1, macro AUC and cost, compared pairwise by McNemar's test "
                "and the paired t-test over groups, and across data sets by Friedman's test)"))
    warnings += test_warnings(comparisons)
    warnings += untested_ranking(spec, comparisons)
    return learners, comparisons, warnings
