"""The report's calibration section: each learner's Brier score, log loss and ECE
(the registry's measures of section "calibration", in one table, warnings marked
as in the other tables), its reliability diagram, and the verdict's sentence on
a learner that ranks first but whose calibration is poor."""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from .. import registry
from ..figures import reliability_figure
from ..metrics.calibration import POOR_ECE
from ..words import and_join
from .format import Column, ends_text, fmt, measure_text, plain
from .notes import cells_with_notes

__all__ = ["CalibrationRow", "calibration_section", "poor_calibration_sentences", "ece_differences"]


@dataclass(frozen=True)
class CalibrationRow:
    """A learner's row of the calibration table, and its reliability diagram."""

    key: str
    color: str
    svg: str  # the reliability diagram (Markup); "" where none is drawn
    cells: list  # one text per column, then (cells_with_notes) one Cell

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
    from .summary import shown_styles

    styles = shown_styles(result, shown)  # the figures' colours (grey past a handful, but the leaders)
    rows = []
    for i, (key, lr) in enumerate(result.learners.items()):
        cal = lr.calibration
        svg = ""
        if diagrams and cal is not None and cal.bins is not None and (shown is None or key in shown):
            svg = Markup(reliability_figure(key, cal.bins, styles[key]["color"], f"reliability-{i}",
                                            top_label=cal.top_label))
        rows.append(CalibrationRow(key, styles[key]["color"], svg,
                                   [measure_text(c.key, lr.values.get(c.key), table=True) for c in cols]))
    rows, notes = cells_with_notes(result, rows, "cells", cols)
    options = result.spec.calibration
    top_label = any(lr.calibration is not None and lr.calibration.top_label for lr in result.learners.values())
    base["calibration"] = {
        "columns": cols, "rows": rows, "notes": notes, "diagrams": [r for r in rows if r.svg],
        "bins": options.bins, "strategy": "equal-width" if options.strategy == "uniform" else "equal-mass",
        "top_label": top_label, "poor": fmt(POOR_ECE, 6),
    }
    base["verdict"]["sentences"] += poor_calibration_sentences(result)


def ece_differences(result, comp, key: str) -> dict:
    """{other learner of the data set: the paired bootstrap of its ECE minus
    ``key``'s} (compare.stats.PairedDifference at confidence.level); a learner
    without resampled ECEs (no bootstrap, weighted or aggregated data) is left out."""
    from ..compare.leaderboard import resampled
    from ..compare.stats.paired_bootstrap import paired_difference

    draws = resampled(comp, "ece")
    if key not in draws:
        return {}
    level = result.spec.confidence.level
    ece = result.learners[key].values.get("ece")
    return {k: paired_difference(result.learners[k].values.get("ece"), ece, draws[k], draws[key], level=level)
            for k in comp.learners if k != key and k in draws}


def _named(keys: list[str], text) -> str:
    """The first :data:`NAMED` learners by name (``text`` of each), the rest counted."""
    named = [text(k) for k in keys[:NAMED]]
    if len(keys) > NAMED:
        named.append(f"{len(keys) - NAMED} others")
    return and_join(named)


def poor_calibration_sentences(result) -> list[str]:
    """A sentence for each learner that ranks first by some measure on a data set
    but whose calibration is poor: its ECE above POOR_ECE (0.05: on average its
    scores are more than 5 points off the observed frequencies) over its whole
    bootstrap interval ("may be poor" where the interval holds 0.05), with the learners
    of that data set whose ECE is lower. One "calibrated better" only where the
    paired bootstrap interval of the ECE difference excludes 0 (:func:`ece_differences`);
    a lower ECE whose interval holds 0 "cannot be told apart", with the interval;
    one not tested (no paired bootstrap) is said so. Its ranking may stand, but
    its scores should not be read as probabilities."""
    label = {m.name: m.ranking_label for m in registry.ranked(result.task.name)} if result.task else {}
    level = f"{plain(result.spec.confidence.level * 100)}%"
    out = []
    for comp in result.comparisons:
        first: dict[str, list[str]] = {}
        for r in comp.rankings:
            # a learner tied with the next on the value ranks first with it, not alone
            if r.first_alone is not None:
                first.setdefault(r.first_alone, []).append(label.get(r.measure, r.measure))
        for key, measures in first.items():
            ece = result.learners[key].values.get("ece")
            if ece is None or ece <= POOR_ECE:
                continue
            judged = _poor(ece, (getattr(result.learners[key], "bootstrap", None) or {}).get("ece"), level)
            others = {k: result.learners[k].values.get("ece") for k in comp.learners if k != key}
            # among many learners, the best-calibrated few by name: a list of all says nothing
            lower = sorted((k for k, v in others.items() if v is not None and v < ece), key=lambda k: others[k])
            diffs = ece_differences(result, comp, key)
            better = [k for k in lower if k in diffs and diffs[k].interval is not None and diffs[k].interval[1] < 0]
            alike = [k for k in lower if k in diffs and diffs[k].interval is not None and k not in better]
            untested = [k for k in lower if k not in better and k not in alike]
            where = f" on {comp.dataset}" if comp.dataset else ""
            also = ""
            if better:
                also += (f"; {_named(better, lambda k: f'{k} ({fmt(others[k])})')} calibrated better (the "
                         f"{level} paired-bootstrap interval of the ECE difference excludes 0)")
            if alike:
                one = len(alike) == 1
                also += (f"; {_named(alike, lambda k: _with_interval(k, others[k], diffs[k].interval))} "
                         f"{'has a lower ECE but cannot' if one else 'have lower ECEs but cannot'} be told apart "
                         f"from it (the {level} paired-bootstrap interval of the difference holds 0)")
            if untested:
                one = len(untested) == 1
                also += (f"; {_named(untested, lambda k: f'{k} ({fmt(others[k])})')} "
                         f"{'has' if one else 'have'} a lower ECE, not tested ({ECE_UNTESTED})")
            out.append(f"{key} ranks first{where} by {and_join(measures)}, but {judged}{also}. Its scores "
                       "should not be read as probabilities without recalibration.")
    return out


#: why a lower ECE is not tested: what the paired bootstrap of the ECE needs, not a guess at
#: which need this run misses (a multi-class run resamples no ECE whatever its bootstrap)
ECE_UNTESTED = ("no paired bootstrap of the ECE here: it needs confidence.bootstrap above 0, unweighted rows "
                "and a binary task")


def _poor(ece: float, interval, level: str) -> str:
    """The words for an ECE above POOR_ECE: "poor" only when its bootstrap interval
    lies above the cut too; an interval that holds the cut says the calibration
    may be poor (the ECE is biased upwards in small samples: a point estimate
    above the cut is no proof)."""
    cut = fmt(POOR_ECE, 6)
    if interval is None or interval[0] is None:
        return f"its calibration is poor: ECE {fmt(ece)} (above {cut}; no interval computed)"
    low, high = interval
    shown = f"ECE {fmt(ece)} [{fmt(low)}, {fmt(high)}]"
    if low > POOR_ECE:
        return f"its calibration is poor: {shown}, above {cut} over the whole {level} interval"
    return f"its calibration may be poor: {shown}, whose {level} interval holds {cut}"


def _with_interval(key: str, ece: float, interval) -> str:
    return f"{key} ({fmt(ece)}, difference {ends_text(*interval)})"
