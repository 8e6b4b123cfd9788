"""spec -> data -> evaluate -> result. No rendering here.

One pipeline for every task, in named stages (:data:`STAGES`), each taking and
returning typed data; what differs between a binary and a multi-class task comes
from its :class:`~evalreport.tasks.base.Task` (evalreport.tasks):

1. **load**: read each data source (data.load_sources);
2. **check**: the task's checks of the data against the spec (binary: the
   operating point, which needs every source's class totals);
3. **evaluate**: each learner, by the task; then every scalar of the registry
   read off each learner once (``LearnerResult.values``);
4. **gates**: each gate of the spec on the registry's value (right after
   evaluate: the comparisons change no value);
5. **compare**: each data set's learners, by the task; Friedman's test across
   data sets on the task's measure;
6. **history** (with ``history:`` in the spec): the previous run of the archive,
   the changes since it, the gates on change, the kept runs' headline values
   (:func:`with_history`);
7. **render**: results.json, HTML and PDF (evalreport.report, not here), then the
   run is stored in the archive.

:func:`evaluate` runs stages 1 to 6.
"""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import replace

import numpy as np

from . import registry
from ._version import __version__
from .attachments import data_files
from .capture import routed_warnings
from .data import Source, load_sources
from .errors import SpecError
from .result import AcrossDatasets, LearnerResult, OperatingPointSpec, Result, RunWarning
from .spec import Spec
from .tasks import task_of
from .tasks.base import undefined_warnings, with_values
from .tasks.slices import slice_gate
from .words import and_join

__all__ = ["Result", "LearnerResult", "OperatingPointSpec", "RunWarning", "STAGES", "evaluate", "evaluate_deferred", "report_date", "source_date_epoch",
           "learner_keys", "check_gates", "across_datasets", "with_blocks", "with_history", "with_verdict"]

#: the stages of a run, in order (render is the report's: evalreport.report.render)
STAGES = ("load", "check", "evaluate", "gates", "compare", "history", "verdict", "render")


def source_date_epoch() -> dt.datetime | None:
    """SOURCE_DATE_EPOCH as a UTC time (None: unset), or a SpecError saying what is
    wrong with it. Set but empty is an error too: WeasyPrint and fontTools read the
    variable themselves and fail on it with a traceback, so it is checked before
    any work (the command line's environment check)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch is None:
        return None
    hint = "give whole seconds since 1970-01-01 UTC (e.g. 1767225600) or unset it"
    if not epoch.strip():
        raise SpecError([f"SOURCE_DATE_EPOCH is set but empty: {hint}"])
    try:
        if not epoch.strip().lstrip("+-").isdigit():
            raise ValueError(epoch)
        return dt.datetime.fromtimestamp(int(epoch), tz=dt.timezone.utc)
    except (ValueError, OverflowError, OSError):
        raise SpecError([f"SOURCE_DATE_EPOCH={epoch!r} is not a Unix timestamp: {hint}"]) from None


def report_date(spec: Spec) -> str:
    """The spec's date, else SOURCE_DATE_EPOCH, else today (UTC)."""
    epoch = source_date_epoch()  # checked even with a date: the PDF's writers read it too
    if spec.date is not None:
        return spec.date.isoformat()
    if epoch is not None:
        return epoch.date().isoformat()
    return dt.datetime.now(tz=dt.timezone.utc).date().isoformat()



def learner_keys(sources: list[Source]) -> dict[tuple, str]:
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



def check_gates(spec: Spec, learners: dict) -> tuple[list[dict], list[RunWarning]]:
    """Each gate of the spec on each learner it names: the registry's value of its
    metric (undefined: the gate fails, with a warning)."""
    rows, warnings = [], []
    for gate in spec.gates:
        if gate.on_change:  # on the change since the previous run: the history stage's
            continue
        targets = [lr for lr in learners.values() if gate.learner in (None, lr.name)
                   and gate.dataset in (None, lr.dataset)]
        if gate.slice is not None:  # every value of a slice column, or a parity difference across it
            more_rows, more_warnings = slice_gate(gate, targets)
            rows, warnings = rows + more_rows, warnings + more_warnings
            continue
        for lr in targets:
            value = lr.values.get(gate.metric)
            passed = value is not None
            if value is not None and gate.min is not None:
                passed = passed and value >= gate.min
            if value is not None and gate.max is not None:
                passed = passed and value <= gate.max
            row = {"learner": lr.key, "metric": gate.metric, "value": value}
            pc = getattr(lr, "pc_positive", None)  # binary learners only
            if pc is not None and registry.get(gate.metric).at_operating_point:
                row["pc_positive"] = pc  # what the value is: a normalised expected cost at PC(+)
            if gate.min is not None:
                row["min"] = gate.min
            if gate.max is not None:
                row["max"] = gate.max
            row["passed"] = bool(passed)
            rows.append(row)
            if value is None:
                warnings.append(RunWarning(f"gate {gate.metric} of learner '{lr.key}' is not evaluated: the value "
                                           "is undefined",
                                        learner=lr.key, measure=gate.metric))
    return rows, warnings


def across_datasets(spec: Spec, learners: dict, measure: str) -> AcrossDatasets | None:
    """Learners measured on every one of several data sets, compared by Friedman's test
    on ``measure`` (the task's: binary AUC, multi-class accuracy; higher is better)."""
    if "friedman" not in spec.compare_set:
        return None
    # only independent data sets: not the one the thresholds are chosen on (threshold: {optimal_on: X}),
    # whose learners are the same fitted models as on the sets measured at those thresholds
    chosen_on = getattr(spec.threshold, "optimal_on", None)
    datasets = [d for d in dict.fromkeys(lr.dataset for lr in learners.values()) if d is None or str(d) != chosen_on]
    if len(datasets) < 2:
        return None
    by = {(lr.dataset, lr.name): lr for lr in learners.values()}
    names = [n for n in dict.fromkeys(lr.name for lr in learners.values())
             if all((d, n) in by for d in datasets)]
    if len(names) < 2:
        return None
    table = [[by[(d, n)].values.get(measure) for n in names] for d in datasets]
    if any(v is None for row in table for v in row):
        return None
    from .compare.stats.friedman import friedman_nemenyi  # (several data sets only: not loaded otherwise)

    result = friedman_nemenyi(np.asarray(table, dtype=float), alpha=round(1 - spec.confidence.level, 10))
    return AcrossDatasets(measure, tuple(str(d) for d in datasets), tuple(names),
                          tuple(tuple(r) for r in table), result)


def friedman_warnings(spec: Spec, learners: dict, friedman: AcrossDatasets | None,
                      measure: str) -> list[RunWarning]:
    """What Friedman's test across data sets leaves out, or why it is not computed."""
    if "friedman" not in spec.compare_set:
        return []

    def said(text: str, learner: str | None = None) -> RunWarning:
        return RunWarning(text, learner=learner, measure="friedman")

    datasets = list(dict.fromkeys(lr.dataset for lr in learners.values()))
    chosen_on = getattr(spec.threshold, "optimal_on", None)
    left_out = []
    if chosen_on is not None and any(d is not None and str(d) == chosen_on for d in datasets):
        datasets = [d for d in datasets if d is None or str(d) != chosen_on]
        left_out = [said(f"Friedman's test leaves out data set '{chosen_on}': the thresholds are chosen on it "
                         f"(threshold: {{optimal_on: {chosen_on}}}), so its learners are the same fitted models as "
                         "on the data sets measured at those thresholds, not an independent data set")]
    if len(datasets) < 2:
        if spec.compare == "all" and not left_out:
            return []  # does not apply: one data set
        if left_out:
            return left_out + [said(f"Friedman's test is not computed: it needs at least 2 independent data sets, "
                                    f"and {len(datasets)} remain{'s' if len(datasets) == 1 else ''}")]
        return [said("compare: Friedman's test is not computed: it needs learners measured on at least 2 "
                     f"data sets (data[].dataset), and this spec has {len(datasets)}")]
    by = {(lr.dataset, lr.name) for lr in learners.values()}
    names = list(dict.fromkeys(lr.name for lr in learners.values()))
    missing = {n: [str(d) for d in datasets if (d, n) not in by] for n in names}
    common = [n for n in names if not missing[n]]
    if len(common) < 2:
        if spec.compare == "all":
            return []  # does not apply: the data sets do not share two learners
        return [said("compare: Friedman's test is not computed: fewer than 2 learners are measured on every "
                     f"data set ({and_join([str(d) for d in datasets])})")]
    out = left_out + [said(f"Friedman's test across data sets leaves out learner '{n}': it is not measured on "
                           f"{and_join(ds)}") for n, ds in missing.items() if ds]
    if friedman is None:
        undefined = [f"'{lr.key}'" for lr in learners.values()
                     if lr.name in common and lr.values.get(measure) is None]
        out.append(said(f"Friedman's test is not computed: the {registry.get(measure).label} of "
                        f"{and_join(undefined)} is undefined"))
    else:
        if friedman.friedman.note:
            out.append(said(f"Friedman's test: {friedman.friedman.note}"))
        if friedman.too_few_datasets:
            from .compare.stats.friedman import MIN_DATASETS

            n = len(friedman.datasets)
            out.append(said(f"Friedman's test across {n} data sets: fewer than {MIN_DATASETS} are too few for it to "
                            "tell the learners' ranks apart (its laws are approximations for many data sets); the "
                            "report draws no critical-difference diagram and says nothing about the ranks, and the "
                            "statistic is in results.json only"))
    return out


def evaluate(spec: Spec, *, progress=None, data=None) -> Result:
    """Load the data of ``spec`` and compute every number. No rendering.

    Python warnings raised meanwhile (NumPy, SciPy, a data reader) are not
    printed: they end in ``Result.warnings``, with the stage and the function
    that raised them (see :mod:`evalreport.capture`).

    ``data`` maps the names of the spec's in-memory tables (``data[i].table``)
    to the tables (see :func:`evalreport.evaluate`).

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

        result = _evaluate(spec, tracked, routed, data)
    result = replace(result, warnings=result.warnings + [RunWarning(w) for w in routed.lines()])
    return with_verdict(with_history(with_blocks(result)))


def with_blocks(result: Result) -> Result:
    """What every sink reads, built once when the compare stage is done: the texts as
    published (credentials redacted), the leaderboard, results.json up to the
    comparisons (the history stage compares it with the previous run's). Fields of
    the result, so that a later stage's result (more gates, warnings, the verdict)
    carries them and no sink builds them again."""
    from .compare.leaderboard import leaderboard_block
    from .redact import publish
    from .results import core_block

    result = replace(result, published=publish(result))
    result = replace(result, leaderboard=leaderboard_block(result))
    return replace(result, json_core=core_block(result))


def evaluate_deferred(spec: Spec, *, progress=None, data=None) -> Result:
    """The Python API's evaluation (:mod:`evalreport.deferred`): the point values at
    once (load, check and evaluate with the bootstrap left out), the intervals and
    all that depends on them (tests, gates, warnings, verdict) on first access, by
    :func:`evaluate` of the same spec and data, once. A spec without a bootstrap
    (``confidence.bootstrap: 0``) is evaluated in full at once."""
    if not spec.confidence.bootstrap:
        return evaluate(spec, progress=progress, data=data)
    from .deferred import DeferredResult

    quick_spec = spec.model_copy(update={"confidence": spec.confidence.model_copy(update={"bootstrap": 0})})
    with routed_warnings("reading the data") as routed:  # the full result says them
        def tracked(message: str) -> None:
            routed.stage = message
            if progress:
                progress(message)

        task = task_of(quick_spec)
        sources = load_sources(quick_spec, tracked, data)
        checked = task.check(quick_spec, sources)
        learners, _ = task.evaluate(quick_spec, sources, learner_keys(sources), checked, tracked)
        learners = {key: with_values(task.name, lr) for key, lr in learners.items()}
    inputs = [{"path": s.path, "sha256": s.sha256_hex, "rows": s.rows} for s in sources]
    quick = Result(spec=spec, version=__version__, date=report_date(spec), inputs=inputs, operating_point=checked,
                   learners=learners, gates=[], task=task)
    return DeferredResult(quick, lambda: evaluate(spec, progress=progress, data=data))


def with_verdict(result: Result) -> Result:
    """The verdict stage: each gate row's outcome and interval
    (:func:`evalreport.verdict.with_outcomes`), then the verdict, decided once
    from the result (:func:`evalreport.verdict.build_verdict`): the statuses,
    the leader, the findings, the suggestions and the challengers."""
    from .compare.leaderboard import leaderboard
    from .results import carried
    from .verdict import build_verdict, judged_keys, with_outcomes

    spec = result.spec
    gates = with_outcomes(result.gates, result.learners, spec.confidence.level, result.history, spec.task)
    result = carried(result, gates=gates)
    challengers = {}
    if spec.deployed is not None:  # each challenger against the deployed learner, on each judged data set
        from .compare.challengers import challenger_tests  # (only then: about 1 ms of a run's start-up)

        for key in (k for k in judged_keys(result) if result.learners[k].name == spec.deployed):
            challengers.update({name: _challenger_dict(t) for name, t in challenger_tests(result, key).items()})
    return carried(result, verdict=build_verdict(result, leaderboard(result), challengers))


def _challenger_dict(test) -> dict:
    """results.json's ``verdict.challengers.<name>``: the test of the challenger
    against the deployed learner (compare.challengers.ChallengerTest)."""
    return {"deployed": test.deployed, "measure": test.measure, "test": test.test, "margin": test.margin,
            "difference": test.difference, "interval": None if test.interval is None else list(test.interval),
            "p_value": test.p_value, "non_inferior": test.non_inferior, "superior": test.superior,
            "reason": test.reason}


def with_history(result: Result) -> Result:
    """The history stage, with ``history:`` in the spec (else ``result`` as it is):
    the previous run of the archive (the latest before this run's date), the
    changes since it (evalreport.history.changes), the gates on change, and the
    kept runs' headline values for the trend, in results.json's ``history``. The
    current run is compared as its results.json holds it (built here once, and
    written from the same dict). Nothing is stored here: the report's render
    stores the run once its outputs are written."""
    spec = result.spec
    options = getattr(spec, "history", None)  # spec.models.History
    if options is None:
        return result
    from .history.archive import entry_sha256, fate, previous, runs
    from .history.changes import changes
    from .history.gates import change_gates
    from .history.trend import trend_runs
    from .results import result_core, with_history as adding

    level = spec.confidence.level
    folder = spec.resolve(options.dir)
    current = result_core(result)
    # read once: an entry that cannot be read is left out, with a warning naming it (archive.Runs.warnings)
    archived = runs(folder)
    before = previous(folder, result.date, archived)
    compared = None if before is None else changes(before[1], current, level=level)
    said = archived.warnings + fate(folder, result.date, options.keep)
    block = {
        "previous": None if compared is None else compared.get("previous"),
        # the chain of audits: the previous run's results.json as archived, by its sha256
        "previous_sha256": None if before is None else entry_sha256(folder, before[0]),
        "changes": [] if compared is None else compared.get("changes", []),
        "drift": [] if compared is None else compared.get("drift", []),
        "balance": None if compared is None else compared.get("balance"),
        "runs": trend_runs(archived, result.date, current, keep=options.keep, level=level),
    }
    learners = [(lr.name, lr.key, lr.dataset) for lr in result.learners.values()]
    gates, gate_warnings = change_gates(spec.gates, learners, compared, level=level, task=spec.task)
    warnings = [RunWarning(w) for w in said]  # each begins with "history:"
    warnings += [RunWarning(text, learner=key, measure=measure) for text, key, measure in gate_warnings]
    return adding(result, block, gates, warnings)




def _evaluate(spec: Spec, progress, routed, tables=None) -> Result:
    task = task_of(spec)
    date = report_date(spec)
    # load
    sources = load_sources(spec, progress, tables)
    # check
    routed.stage = "evaluating the learners"
    checked = task.check(spec, sources)
    # evaluate
    learners, warnings = task.evaluate(spec, sources, learner_keys(sources), checked, progress)
    learners = {key: with_values(task.name, lr) for key, lr in learners.items()}
    warnings = warnings + undefined_warnings(task.name, learners, spec.metric_set)
    # gates (on the values, which the comparisons do not change)
    gates, gate_warnings = check_gates(spec, learners)
    # compare
    routed.stage = "comparing the learners"
    if progress and len(learners) > 1:
        progress("comparing learners")
    learners, comparisons, compare_warnings = task.compare(spec, learners, sources)
    friedman = across_datasets(spec, learners, task.across_measure)
    inputs = [{"path": s.path, "sha256": s.sha256_hex, "rows": s.rows} for s in sources]
    attached, attach_warnings = data_files(spec, sources, tables)  # report.attach: [data]
    return Result(
        spec=spec, version=__version__, date=date, inputs=inputs, operating_point=checked,
        learners=learners, gates=gates, comparisons=comparisons,
        warnings=([RunWarning(w) for s in sources for w in s.warnings] + warnings + compare_warnings
                  + friedman_warnings(spec, learners, friedman, task.across_measure) + gate_warnings
                  + [RunWarning(w) for w in attach_warnings]),
        friedman=friedman, task=task, attached_data=tuple(attached),
    )
