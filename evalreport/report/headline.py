"""Page one's headline table of a binary report (the values behind
``verdict.headline``: columns, rows and a caption) and the labels that say at which
share of positives a measure is taken (issue 33, item 9: one population, said
everywhere): with priors, the population's measures at the deployed threshold with
their intervals; the measures at the sample's share are marked so wherever else
they appear (:func:`sample_label`)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from .. import registry
from .format import UNDEFINED, Column, cells, fmt, measure_column, measure_interval_text, measure_text, percent, plain

__all__ = ["headline_caption", "population_share_text", "sample_label", "sample_shares", "HeadlineRow",
           "HeadlineTable"]


@dataclass(frozen=True)
class HeadlineRow:
    """A learner's row of page one's table."""

    key: str
    color: str
    cells: list  # the kept columns' Cells


@dataclass(frozen=True)
class HeadlineTable:
    columns: list[Column]  # those where some learner has a value
    rows: list[HeadlineRow]
    caption: str = ""  # the binary table's (the share of positives its measures are at)


def binary_headline(result, styles) -> HeadlineTable | None:
    """Page one's table: per learner the headline measures with their intervals
    (AUC with DeLong's or the bootstrap interval, the least cost at PC(+) over every
    threshold, the deployed threshold and its cost, ECE when computed) and, at the
    deployed threshold, the population's precision, NPV and F1 with their bootstrap
    intervals when the spec gives priors (issue 33: page one's measures are the
    population's), else F1 at the sample's share, which the caption names once.
    Columns where no learner has a value are left out."""
    op_point = result.operating_point
    priors = op_point.p_positive_source == "priors" and "population" in result.spec.metric_set
    p = population_share_text(op_point.p_positive)
    rows = []
    for key, lr in result.learners.items():
        boot = lr.bootstrap or {}
        auc_ci = lr.auc_ci.ci if lr.auc_ci is not None else boot.get("auc")
        op = lr.operating
        cells = {
            "auc": (lr.summary.auc, measure_interval_text("auc", lr.summary.auc, auc_ci, table=True)),
            "min_cost": (op.min_cost if op else None, measure_text("min_cost", op.min_cost if op else None, table=True)),
            "threshold": (lr.threshold, "—" if lr.hard else lr.threshold_text(lr.threshold)),
            "cost_at_threshold": (lr.values.get("cost_at_threshold"),
                                  measure_text("cost_at_threshold", lr.values.get("cost_at_threshold"), table=True)),
            "f1": (lr.at_threshold.f1, measure_interval_text("f1", lr.at_threshold.f1, boot.get("f1"), table=True)),
            "ece": (lr.values.get("ece"), measure_text("ece", lr.values.get("ece"), table=True)),
        }
        pop = lr.population
        for name in POPULATION_HEADLINE:
            value = None if pop is None else getattr(pop, name)
            interval = None if pop is None or pop.intervals is None else pop.intervals.get(name)
            cells[f"population_{name}"] = (value, measure_interval_text(name, value, interval, table=True))
        rows.append((key, styles[key]["color"], cells))
    pc = fmt(op_point.pc_positive)
    # page one's headings say more than the registry's labels; the directions are the registry's
    columns = [measure_column("auc"), measure_column("min_cost", f"least cost (any threshold) at PC(+) = {pc}"),
               Column("threshold", "threshold", ""),
               measure_column("cost_at_threshold", "cost at the threshold")]
    if priors:
        columns += [Column(f"population_{name}", f"{registry.get(name).label}, p(+) = {p}",
                           registry.get(name).direction) for name in POPULATION_HEADLINE]
    else:
        columns.append(measure_column("f1", "F1 at the threshold"))
    columns.append(measure_column("ece"))
    table = headline_table(columns, rows)
    return None if table is None else replace(table, caption=headline_caption(result, priors))


#: the population's measures on page one (with priors), by registry name
POPULATION_HEADLINE = ("precision", "npv", "f1")


def population_share_text(p: float) -> str:
    """A share of positives as page one prints it: two decimals ("0.10"), or two
    significant digits below 0.1 ("0.005"), never in exponents."""
    return f"{p:.2f}" if p >= 0.1 else plain(p, 2)


def sample_shares(result) -> dict:
    """Each data set's share of positives as sampled: data set (None: the only one)
    -> share (None: no instances). The learners of one data set share its labels."""
    shares = {}
    for lr in result.learners.values():
        total = lr.summary.positives + lr.summary.negatives
        shares.setdefault(lr.dataset, None if not total else float(lr.summary.positives / total))
    return shares


def _percent(share: float) -> str:
    return percent(share)


def sample_label(result) -> str:
    """With priors, what marks a measure taken at the sample's share of positives
    rather than the population's: "(sample: 37.3% positive)" (per data set where
    they differ); "" without priors (the sample's share is then the population's,
    named once on page one)."""
    if result.operating_point.p_positive_source != "priors":
        return ""
    shares = {k: v for k, v in sample_shares(result).items() if v is not None}
    texts = {k: _percent(v) for k, v in shares.items()}
    if not texts:
        return ""
    if len(set(texts.values())) == 1:
        return f"(sample: {next(iter(texts.values()))} positive)"
    return "(samples: " + ", ".join(f"{k} {t}" for k, t in texts.items()) + " positive)"


def headline_caption(result, priors: bool) -> str:
    """The headline table's caption: with priors, the population its measures are
    in (and the sample's share beside it); without, the sample's share, once."""
    shares = {k: v for k, v in sample_shares(result).items() if v is not None}
    if len(shares) == 1 or len({population_share_text(v) for v in shares.values()}) == 1:
        sample = population_share_text(next(iter(shares.values()))) if shares else UNDEFINED
    else:
        sample = ", ".join(f"{population_share_text(v)} on {k}" for k, v in shares.items())
    level = f"{result.spec.confidence.level:.0%}"
    if priors:
        p = population_share_text(result.operating_point.p_positive)
        with_iv = (f", with {level} bootstrap intervals" if result.spec.confidence.bootstrap else
                   " (no intervals: confidence.bootstrap is 0)")
        return (f"Precision, NPV and F1 at each learner's threshold in the population, p(+) = {p} (the spec's "
                f"priors; the sample's share of positives is {sample}){with_iv}. AUC does not depend on the "
                "share; the costs are at the operating point PC(+).")
    return f"Measures at the sample's share of positives, {sample}."


def headline_table(columns, learners: list[tuple[str, str, dict]]) -> HeadlineTable | None:
    """The columns where some learner has a value, and each learner's row of their
    texts as Cells (None: no column has one). ``learners``: (key, colour,
    {column key: (value, text)}) per learner, as the task's builder gives them."""
    keep = [c for c in columns if any(values[c.key][0] is not None for _, _, values in learners)]
    if not keep:
        return None
    return HeadlineTable(keep, [HeadlineRow(key, color, cells(values[c.key][1] for c in keep))
                                for key, color, values in learners])
