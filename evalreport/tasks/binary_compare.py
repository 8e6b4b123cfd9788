"""The binary task's comparisons: envelopment, rankings, the cost envelope, and
the paired tests (DeLong, McNemar, the paired t-test) on aligned instances."""

from __future__ import annotations

from dataclasses import replace

from ..compare import (PAIRWISE, Comparisons, compare_learners, pair_tests, pairwise_skipped, stats,
                       too_many_pairs)
from ..compare.stats import paired_classes
from ..data import Source
from ..result import RunWarning
from ..spec import Spec
from ..words import and_join
from .base import aligned, learner_warning, rankings

__all__ = ["compare_binary", "delong_intervals", "compare_datasets", "unmet_comparisons", "test_warnings",
           "paired_resamples", "untested_ranking"]

def delong_intervals(spec: Spec, learners: dict, sources: list[Source], warnings: list[RunWarning]) -> dict:
    """DeLong's interval of each AUC, and each learner's structural components
    (one sort per learner, shared with the paired tests): {dataset: {key: components}}."""
    out: dict = {}
    if "delong" not in spec.compare_set:
        return out
    for dataset in dict.fromkeys(lr.dataset for lr in learners.values()):
        files = [s for s in sources if s.dataset == dataset]
        if any(s.tables is not None or s.weights is not None for s in files):
            continue  # aggregated or weighted: said in the learners' warnings
        labels, _, values = aligned(sources, dataset)
        comps = {}
        for key, lr in learners.items():
            if lr.dataset != dataset or lr.hard:
                continue
            if lr.summary.auc is None:
                continue
            c = stats.structural_components(labels, values[lr.name])
            comps[key] = c
            ci = stats.auc_interval(c, level=spec.confidence.level)
            if ci.ci is None and ci.note:
                warnings.append(learner_warning(key, f"no AUC interval: {ci.note}", "auc_ci"))
            learners[key] = replace(lr, auc_ci=ci)
        out[dataset] = comps
    return out


def _pair_tests(spec: Spec, group: dict, sources: list[Source], dataset, components=None):
    wanted = spec.compare_set & {"delong", "mcnemar", "paired_t"}
    binary = list(group)
    if not wanted or len(binary) < 2:
        return ()
    if any(s.tables is not None for s in sources if s.dataset == dataset):
        return ()  # aggregated where the data lives: no instances to pair
    labels, weights, values = aligned(sources, dataset)
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
                      components=components, mcnemar_method=spec.confidence.mcnemar)


def compare_datasets(spec: Spec, learners: dict, sources: list[Source] | None = None,
                     components: dict | None = None) -> list[Comparisons]:
    """Compare the learners of each data set (learners of one data set share their instances)."""
    by_dataset: dict = {}
    for key, lr in learners.items():
        by_dataset.setdefault(lr.dataset, {})[key] = lr
    out = []
    for dataset, group in by_dataset.items():
        if len(group) < 2:
            continue
        many = too_many_pairs(len(group))  # no pairs: pairwise_skipped's warning says so
        wanted = spec.compare_set - PAIRWISE if many else spec.compare_set
        comp = compare_learners(group, wanted, dataset, rankings("binary", group, spec.compare_set))
        if sources is not None:
            if not many:
                comp = replace(comp, tests=_pair_tests(spec, group, sources, dataset,
                                                       (components or {}).get(dataset)))
            comp = replace(comp, resamples=paired_resamples(spec, group, sources, dataset,
                                                            _resampled_measures(spec, group)))
        out.append(comp)
    return out


def _resampled_measures(spec: Spec, group: dict) -> tuple[str, ...]:
    """The measures resampled in pairs: the one ranked (the leaderboard's test and a
    challenger's, where not DeLong's), and the ECE where two learners have one (the
    calibration section says which calibrates better only when their difference's
    interval excludes 0)."""
    from ..compare.leaderboard import rank_measure

    out = [rank_measure(spec)]
    if sum(getattr(lr.calibration, "ece", None) is not None for lr in group.values()) > 1:
        out.append("ece")
    return tuple(dict.fromkeys(out))


def paired_resamples(spec: Spec, group: dict, sources: list[Source], dataset,
                     measures: tuple[str, ...]) -> stats.PairedResamples | None:
    """Each learner's ``measures`` in each of ``confidence.bootstrap`` resamples of the
    data set's rows, the same rows for every learner (compare.stats.paired_bootstrap);
    None where the rows cannot be resampled (no bootstrap asked, aggregated or
    weighted data, more work than the bootstrap budget: the learners' own intervals'
    warnings say which)."""
    from .binary_evaluate import BOOTSTRAP_BUDGET

    b = spec.confidence.bootstrap
    files = [s for s in sources if s.dataset == dataset]
    if not b or any(s.tables is not None or s.weights is not None for s in files):
        return None
    if files[0].rows * b > BOOTSTRAP_BUDGET:
        return None
    labels, _, values = aligned(sources, dataset)
    out: dict = {m: {} for m in measures}
    notes: dict = {m: {} for m in measures}
    todo: dict = {}  # the learners with measures not kept from their intervals' draws
    for key, lr in group.items():
        wanted = {}
        for m in measures:
            statistic = stats.statistic_for(m, lr, spec)
            if statistic is None or lr.values.get(m) is None:
                notes[m][key] = f"{m} is undefined for learner '{key}' or has no bootstrap statistic"
            else:
                wanted[m] = statistic
        kept = lr.resampled
        # the values its intervals' bootstrap computed: the same draws (same labels in the same
        # row order, the first file's, and the same seed), so the same values as drawn here
        if kept is not None and kept.source == files[0].index and (kept.n_resamples, kept.seed) == (
                b, spec.confidence.seed):
            for m in [m for m in wanted if m in kept.values]:
                out[m][key] = kept.values[m]
                del wanted[m]
        if wanted:
            todo[key] = (values[lr.name].astype(float) if lr.hard else values[lr.name], wanted)
    if todo:  # one stream of draws for all of them
        drawn = stats.resampled_values_many(labels, todo, n_resamples=b, seed=spec.confidence.seed)
        for key, measured in drawn.items():
            for m, v in measured.items():
                out[m][key] = v
    out = {m: {k: out[m][k] for k in group if k in out[m]} for m in measures}  # in the learners' order
    return stats.PairedResamples(n_resamples=b, seed=spec.confidence.seed, values=out, notes=notes)


def compare_binary(spec: Spec, learners: dict, sources: list[Source]):
    """The compare stage of a binary task: DeLong's interval of each AUC (the
    structural components are shared with the paired tests), then each data set's
    comparisons, and what was asked and not computed."""
    learners = dict(learners)
    warnings: list[RunWarning] = []
    components = delong_intervals(spec, learners, sources, warnings)
    comparisons = compare_datasets(spec, learners, sources, components)
    del components
    warnings += [w for c in comparisons if (w := pairwise_skipped(len(c.learners), spec.compare_set, c.dataset))]
    warnings += unmet_comparisons(spec, learners, sources, comparisons)
    warnings += test_warnings(comparisons)
    warnings += untested_ranking(spec, comparisons)
    return learners, comparisons, warnings


def untested_ranking(spec: Spec, comparisons) -> list[RunWarning]:
    """The warning that the learners ranked by a measure whose test is the paired
    bootstrap are not tested against the best (nor a challenger against the
    deployed learner) when ``confidence.bootstrap`` is 0."""
    from ..compare.leaderboard import rank_measure, test_for

    name = rank_measure(spec)
    task = spec.task or "binary"
    if not comparisons or test_for(name, task) != "paired_bootstrap":
        return []
    if any(getattr(c, "resamples", None) is not None for c in comparisons):
        return []
    if not spec.confidence.bootstrap:
        why = "and confidence.bootstrap is 0"
    elif task != "binary" and name not in paired_classes.MEASURES:
        why = f"which is not resampled for {name}"
    else:
        why = "and the rows cannot be resampled (aggregated or weighted data, or more than the bootstrap budget)"
    return [RunWarning(f"the learners ranked by {name} are not tested against the best (nor a challenger against "
                       f"the deployed learner): the test of {name} is the paired bootstrap of the difference, "
                       f"{why}", measure=name)]


_TEST_NAMES = {"delong": "DeLong's test", "mcnemar": "McNemar's test", "paired_t": "the paired t-test"}


def _on(dataset) -> str:
    return f" on {dataset}" if dataset is not None else ""


def unmet_comparisons(spec: Spec, learners: dict, sources: list[Source], comparisons) -> list[RunWarning]:
    """A warning for each comparison named in ``compare:`` that the run does not
    compute, with the reason. ``compare: all`` means every comparison that applies
    to the task and the data: what does not apply is left out without a word."""
    if spec.compare == "all":
        return []
    asked = list(spec.compare)
    out = []
    for comp in comparisons:
        if too_many_pairs(len(comp.learners)):
            continue  # pairwise_skipped's warning
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
                reason = (f"it needs a defined AUC, and {and_join([repr(k) for k in lacking])} "
                          f"{'has' if len(lacking) == 1 else 'have'} none" if lacking else "")
            else:
                reason = ""
            count = "" if done == 0 else f" for {pairs - done} of {pairs} pairs"
            out.append(RunWarning(f"compare: {_TEST_NAMES[name]} is not computed{where}{count}"
                               + (f": {reason}" if reason else ""), measure=name))
    return out


def test_warnings(comparisons) -> list[RunWarning]:
    """A warning for each test whose statistic is undefined (null in results.json),
    and for McNemar's tests with few disagreements (its note: the exact p-value)."""
    out = []
    for comp in comparisons:
        for t in comp.tests:
            pair = f"'{t.a}' and '{t.b}'{_on(comp.dataset)}"
            d = t.delong
            if d is not None and d.z is None:
                what = "z is undefined" if d.p_value is not None else "z and the p-value are undefined"
                out.append(RunWarning(f"DeLong's test of {pair}: {what}" + (f": {d.note}" if d.note else ""),
                                   measure="delong"))
            m = t.mcnemar
            if m is not None and m.note:
                what = "the statistic is undefined: " if m.statistic is None else ""
                out.append(RunWarning(f"McNemar's test of {pair}: {what}{m.note}", measure="mcnemar"))
            pt = t.paired_t
            if pt is not None and pt.t is None:
                out.append(RunWarning(f"the paired t-test of {pair}: t is undefined"
                                   + (f": {pt.note}" if pt.note else ""), measure="paired_t"))
    return out

