"""The report's calibration section: each learner's Brier score, log loss and ECE
(the registry's measures of section "calibration", in one table, warnings marked
as in the other tables), its reliability diagram, and the verdict's sentence on
a learner that ranks first but whose calibration is poor."""

from __future__ import annotations

from markupsafe import Markup

from .. import registry
from ..figures import learner_styles, reliability_figure
from ..metrics.calibration import POOR_ECE
from ..words import and_join
from .format import Column, fmt, measure_text
from .notes import cells_with_notes

__all__ = ["calibration_section", "poor_calibration_sentences"]

#: the better-calibrated learners named in the verdict's sentence, best first; the rest counted
NAMED = 4


def _columns(result) -> list[Column]:
    task = result.task.name if result.task is not None else "binary"
    metrics = result.spec.metric_set
    return [Column(m.name, m.label, m.direction) for m in registry.measures_for(task, *registry.SCALAR_KINDS)
            if m.section == "calibration" and (m.name in metrics or not m.metric)]


def calibration_section(result, base: dict, shown=None) -> None:
    """Put the section's values in ``base["calibration"]`` (None when the spec's
    metrics ask for none of it) and add the verdict's sentences on calibration.
    ``shown``: the learners whose reliability diagrams are drawn (None: every one;
    the report summarises past a handful, report/summary.py); the table has all."""
    cols = _columns(result)
    diagrams = "calibration" in result.spec.metric_set
    if not cols and not diagrams:
        base["calibration"] = None
        return
    styles = learner_styles(result.learners)
    rows = []
    for i, (key, lr) in enumerate(result.learners.items()):
        cal = lr.calibration
        svg = ""
        if diagrams and cal is not None and cal.bins is not None and (shown is None or key in shown):
            svg = Markup(reliability_figure(key, cal.bins, styles[key]["color"], f"reliability-{i}",
                                            top_label=cal.top_label))
        rows.append({"key": key, "color": styles[key]["color"], "svg": svg,
                     "cells": [measure_text(c.key, lr.values.get(c.key)) for c in cols]})
    notes = cells_with_notes(result, rows, "cells", cols)
    options = result.spec.calibration
    top_label = any(lr.calibration is not None and lr.calibration.top_label for lr in result.learners.values())
    base["calibration"] = {
        "columns": cols, "rows": rows, "notes": notes, "diagrams": [r for r in rows if r["svg"]],
        "bins": options.bins, "strategy": "equal-width" if options.strategy == "uniform" else "equal-mass",
        "top_label": top_label, "poor": fmt(POOR_ECE, 6),
    }
    base["verdict"]["sentences"] += poor_calibration_sentences(result)


def poor_calibration_sentences(result) -> list[str]:
    """A sentence for each learner that ranks first by some measure on a data set
    but whose calibration is poor: its ECE above POOR_ECE (0.05: on average its
    scores are more than 5 points off the observed frequencies), naming the
    better-calibrated learners of that data set. Its ranking may stand, but its
    scores should not be read as probabilities."""
    label = {m.name: m.ranking_label for m in registry.ranked(result.task.name)} if result.task else {}
    out = []
    for comp in result.comparisons:
        first: dict[str, list[str]] = {}
        for r in comp.rankings:
            if r.order:
                first.setdefault(r.order[0], []).append(label.get(r.measure, r.measure))
        for key, measures in first.items():
            ece = result.learners[key].values.get("ece")
            if ece is None or ece <= POOR_ECE:
                continue
            others = {k: result.learners[k].values.get("ece") for k in comp.learners if k != key}
            better = [k for k, v in others.items() if v is not None and v < ece]
            where = f" on {comp.dataset}" if comp.dataset else ""
            if len(better) > NAMED:
                # among many learners, the best-calibrated few by name: a list of all says nothing
                better.sort(key=lambda k: others[k])
            named = [f"{k} ({fmt(others[k])})" for k in better[:NAMED]]
            if len(better) > NAMED:
                named.append(f"{len(better) - NAMED} others")
            named = and_join(named)
            also = f"; {named} calibrated better" if better else ""
            out.append(f"{key} ranks first{where} by {and_join(measures)}, but its calibration is poor: ECE "
                       f"{fmt(ece)} (above {fmt(POOR_ECE, 6)}){also}. Its scores should not be read as "
                       "probabilities without recalibration.")
    return out
