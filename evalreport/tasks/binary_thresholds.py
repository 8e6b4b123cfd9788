"""Which threshold a binary learner takes when another data set chooses it, and
how its thresholds are written: one text per threshold, exact enough to make
its decisions (issue 33), and the warning that a threshold chosen on the data
measured flatters it."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..data import Source
from ..errors import SpecError
from ..metrics.threshold_text import exact_text, shortest_between, threshold_texts
from ..result import RunWarning
from ..spec import Spec, locate
from ..spec.models import OptimalOn

__all__ = ["chosen_threshold", "chosen_on_data_warnings", "learner_threshold_texts", "one_text_per_threshold"]


def chosen_threshold(spec: Spec, chosen: dict, chosen_on: str, s: Source, name: str, ev) -> float:
    """The threshold learner ``name`` chose on data set ``chosen_on``, which must be
    one its (possibly reduced) count table here can be read at."""
    where = ("data", s.index, "learners", name)
    if name not in chosen:  # the spec's checks leave only a learner of hard decisions there
        raise SpecError([locate(spec, where, (
            f"learner '{name}' gives hard decisions in data set '{chosen_on}', which chooses the "
            "thresholds (threshold: {optimal_on: " f"{chosen_on}" "}): no least-cost threshold to apply here; "
            "give it its own threshold"))])
    t = chosen[name]
    reduction = getattr(ev, "reduction", None)
    if reduction is not None and np.isfinite(t) and not reduction.exact_row(ev.counts, t):
        raise SpecError([locate(spec, ("threshold", "optimal_on"), (
            f"learner '{name}''s threshold chosen on '{chosen_on}' ({t!r}) falls between the rows kept of "
            f"the count table streamed for data[{s.index}] ({reduction.kept:,} of {reduction.rows:,}): "
            "its measures there would be inexact; give that data set a resolution, or engine: memory"))])
    return t


def chosen_on_data_warnings(spec: Spec, results: dict) -> list[RunWarning]:
    """The measures at a threshold chosen on the data measured are optimistic: say so
    (threshold: optimal, or the data set that chooses them under optimal_on)."""
    if any(lr.threshold_source == "optimal" for lr in results.values()):
        return [RunWarning(
            "threshold: optimal chooses each learner's threshold on the data it then measures: the "
            "measures at the threshold (precision, recall, F1, accuracy, cost) and the gates on them are "
            "optimistic; threshold: {optimal_on: <data set>} chooses the thresholds on a validation data "
            "set and measures the others at them")]
    if isinstance(spec.threshold, OptimalOn):
        name = spec.threshold.optimal_on
        if any(lr.dataset == name and lr.threshold_source.startswith("optimal_on:") for lr in results.values()):
            return [RunWarning(
                f"the thresholds are chosen on data set '{name}' (threshold: {{optimal_on: {name}}}): its "
                "own measures at the threshold and the gates on them are optimistic; those of the other data "
                "sets are not")]
    return []


def learner_threshold_texts(ev, threshold: float, exact: bool, more=None) -> dict[float, str]:
    """The texts of the learner's threshold, of its ROC hull's (the least-cost
    threshold and the cost envelope's are among them) and of its threshold table's
    rows (``more``, an OperatingTable or None), read off its count table
    while it is at hand. A reduced streamed table lacks rows between those it kept,
    so the neighbouring scores are unknown: there the exact ``repr``."""
    wanted = [threshold] + ([] if ev.hull is None else list(ev.hull.threshold))
    wanted += [] if more is None else [r.threshold for r in more.rows if r.threshold is not None]
    if not exact:
        return {float(t): exact_text(float(t))
                for t in wanted}
    return threshold_texts(ev.counts, wanted)


def one_text_per_threshold(results: dict, warnings: list, brackets: dict) -> tuple[dict, list]:
    """One threshold, one text (issue 33): a threshold one learner applies on several
    data sets (chosen on one by threshold: {optimal_on: ...}) is printed by the
    decimal that makes its decisions on every one of them: the shortest in the
    intersection of their intervals (it holds the threshold, so it is not empty).
    The warnings that printed a data set's own text print the shared one."""
    groups: dict[tuple, list] = {}
    for key, (name, t, bracket) in brackets.items():
        groups.setdefault((name, float(t)), []).append((key, bracket))
    renamed: dict[str, tuple[str, str]] = {}
    for (_, t), members in groups.items():
        if len(members) < 2:
            continue
        lower = max(b[0] for _, b in members)
        upper = min(b[1] for _, b in members)
        text = shortest_between(lower, upper, t)
        for key, _ in members:
            lr = results[key]
            old = lr.threshold_texts.get(t)
            if old != text:
                results[key] = replace(lr, threshold_texts={**lr.threshold_texts, t: text})
                renamed[key] = (f"threshold {old}", f"threshold {text}")
    if renamed:
        warnings = [replace(w, message=w.message.replace(*renamed[w.learner]))
                    if w.learner in renamed else w for w in warnings]
    return results, warnings
