"""The leaderboard in the report: the section of every learner of a data set
ranked by the spec's primary measure, with its interval and the paired test of
that measure against the best learner, and the warnings on its nulls.

The block itself (results.json's ``leaderboard``: the ranks, the tests, who
cannot be told apart from the best) is :mod:`evalreport.compare.leaderboard`,
a pure function of the result; it is re-exported here.

results.json always holds the block (:func:`leaderboard`); the report shows it
from :data:`LEADERBOARD_MIN` learners on (:func:`leaderboard_section`): with
four learners the headline table on page one already is a leaderboard.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import registry
from ..compare.leaderboard import LEADERBOARD_MIN, TEST_WORDS, leaderboard, leaderboard_warnings  # noqa: F401
from ..compare.leaderboard import rank_measure, test_for

if TYPE_CHECKING:
    from .format import Cell

__all__ = ["LEADERBOARD_MIN", "rank_measure", "leaderboard", "leaderboard_warnings", "leaderboard_section",
           "leaderboard_context", "test_for", "LeaderboardRow"]


@dataclass(frozen=True)
class LeaderboardRow:
    """A learner's row of the report's leaderboard (the block's row as text)."""

    dataset: str  # "" with one data set
    rank: str  # "—" where its value is undefined
    learner: str
    color: str
    value: Cell  # the ranked measure with its interval
    others: list[Cell]  # the task's other ranked measures
    vs_best: str  # the paired test against the best: its Holm p, "best", or why none
    significant: bool  # significantly worse than the best


def leaderboard_section(result, block: dict, styles: dict) -> dict | None:
    """The report's leaderboard (None below :data:`LEADERBOARD_MIN` learners): the
    rows of the block as text under the number policy, with the task's other
    ranked measures beside the primary one."""
    from .format import UNDEFINED, Cell, Column, cells, measure_interval_text, measure_text, p_value_text, plain

    if len(result.learners) < LEADERBOARD_MIN:
        return None
    name = block["rank_by"]
    measure = registry.get(name)
    others = [m for m in registry.ranked(result.task.name) if m.name != name
              and any(lr.values.get(m.name) is not None for lr in result.learners.values())]
    level = result.spec.confidence.level
    alpha = 1 - level
    rows = []
    for r in block["rows"]:
        lr = result.learners[r["learner"]]
        interval = (r["low"], r["high"]) if r["low"] is not None else None
        value = measure_interval_text(name, r["value"], interval, table=True)
        p, ph = r["p_vs_best"], r["p_holm_vs_best"]
        if r["rank"] == 1 and p is None and r is _first(block, r):
            vs = "best"
        elif p is None:
            vs = UNDEFINED if block["test"] else "—"
        else:
            vs = p_value_text(ph) if ph is not None else UNDEFINED
        rows.append(LeaderboardRow(
            dataset=r.get("dataset", ""), rank=str(r["rank"]) if r["rank"] is not None else "—",
            learner=r["learner"], color=styles.get(r["learner"], {}).get("color", "#b0b0b0"),
            value=Cell(value), others=cells(measure_text(m.name, lr.values.get(m.name), table=True) for m in others),
            vs_best=vs, significant=ph is not None and ph < alpha))
    test = TEST_WORDS.get(block["test"])
    worse = sum(r.significant for r in rows)
    arrow = {"higher": "higher is better", "lower": "lower is better"}.get(block["direction"], "")
    better = "" if measure.direction == "none" else measure.direction
    columns = [Column(name, measure.label + (f" [{_interval_words(result, name)}]" if _interval_words(result, name)
                                             else ""), better)]
    columns += [Column(m.name, m.label, "" if m.direction == "none" else m.direction) for m in others]
    return {
        "columns": columns,
        "measure": measure.label, "direction": arrow,
        "interval": _interval_words(result, name),
        "others": [m.label for m in others], "rows": rows, "several": any(r.dataset for r in rows),
        "test": test or "", "significant": worse, "alpha": plain(alpha),
        "significant_verb": "is" if worse == 1 else "are",  # "1 is", "3 are" significantly worse
        # the comparisons with the best: each data set's learners but its best
        "compared": len(rows) - len({r.dataset for r in rows}),
        "rule": f"from {LEADERBOARD_MIN} learners on",
    }


def _first(block: dict, row: dict) -> dict:
    """The first row of ``row``'s data set (its best learner)."""
    return next(r for r in block["rows"] if r.get("dataset") == row.get("dataset"))


def _interval_words(result, name: str) -> str:
    if name == "auc" and any(getattr(lr, "auc_ci", None) is not None for lr in result.learners.values()):
        return "DeLong's interval"
    if any(name in (getattr(lr, "bootstrap", None) or {}) for lr in result.learners.values()):
        return "percentile-bootstrap interval"
    return ""


def leaderboard_context(result) -> dict | None:
    """The report's leaderboard section (None below :data:`LEADERBOARD_MIN` learners),
    with, when the figures summarise (report/summary.py), the ROC curves of the
    learners they draw over the band of the rest (evalreport/figures/runs.py)."""
    from .summary import shown_learners, shown_styles

    shown = shown_learners(result)
    section = leaderboard_section(result, leaderboard(result), shown_styles(result, shown))
    if section is None:
        return None
    section["figure"], section["figure_caption"] = "", ""
    if shown is not None and not result.task.per_class:  # one ROC curve per learner
        from markupsafe import Markup

        from ..figures.runs import roc_band_figure

        # the learners in colour (the leader, the deployed one, its challengers) over the band of the rest
        styles = shown_styles(result, shown)
        svg, caption = roc_band_figure(result, [k for k in shown if not styles[k].get("muted")], styles)
        if svg:
            section["figure"], section["figure_caption"] = Markup(svg), caption
    return section
