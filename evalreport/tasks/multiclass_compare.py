"""The multi-class task's comparisons: the learners of one data set ranked by
accuracy, macro-F1, mean F1, macro AUC and cost (the registry's multi-class
rankings); curves are compared per class in the report."""

from __future__ import annotations

from .. import registry
from ..compare import Comparisons, ranking_disagreements
from ..result import RunWarning
from ..spec import Spec
from ..words import and_join
from .base import rankings

__all__ = ["compare_multiclass"]


def compare_dataset(learners: dict, wanted: frozenset[str], dataset=None) -> Comparisons:
    """Rankings of the learners of one data set; the winner has the highest accuracy."""
    ranks = rankings("multiclass", learners, wanted, keep_empty=False)
    disagreements = ranking_disagreements(ranks, tuple(learners))
    return Comparisons(dataset=dataset, learners=tuple(learners), rankings=ranks,
                       winner=ranks[0].order[0] if ranks else None, rankings_agree=not disagreements,
                       disagreements=disagreements)


def compare_multiclass(spec: Spec, learners: dict, sources=None):
    """The compare stage of a multi-class task: each data set's rankings, and a
    warning for each binary comparison the spec's ``compare:`` names."""
    by_dataset: dict = {}
    for key, lr in learners.items():
        by_dataset.setdefault(lr.dataset, {})[key] = lr
    comparisons = [compare_dataset(group, spec.compare_set, dataset)
                   for dataset, group in by_dataset.items() if len(group) > 1]
    warnings: list[RunWarning] = []
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
                "by accuracy, macro-F1, mean F1, macro AUC and cost, and compared across data sets by "
                "Friedman's test)"))
    return learners, comparisons, warnings
