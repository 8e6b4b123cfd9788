"""The report's "Configurations" section: with ``data[].replicates``, the
configurations (compare/configurations.py) ranked by the mean of the ranked
measure, each headline measure as mean ± sd over the replicates, and their range."""

from __future__ import annotations

from dataclasses import dataclass

from .. import registry
from ..compare.configurations import configuration_ranks, configurations
from .format import UNDEFINED, Column, fmt, measure_text

__all__ = ["configurations_context", "SpreadCell", "ConfigurationRow"]


@dataclass(frozen=True)
class SpreadCell:
    """A measure over a configuration's replicates."""

    text: str  # "mean ± sd" (the mean alone with one replicate)
    range: str  # "min–max" ("" with one replicate)
    note: str  # why it is undefined ("")


@dataclass(frozen=True)
class ConfigurationRow:
    rank: str  # "—": its mean is undefined
    name: str
    dataset: str
    n: str  # its replicates
    # not "values": Jinja read a dict's r.values as the dict's method (its repr, an address, was printed)
    replicate_values: str  # what tells its replicates apart, joined
    cells: list[SpreadCell]


def _cell(name: str, s) -> SpreadCell:
    """The measure's mean ± sd over the replicates and its range, by the measure's own format."""
    if s.mean is None:
        return SpreadCell(UNDEFINED, "", "undefined on every replicate")
    text = measure_text(name, s.mean, table=True) + (f" ± {measure_text(name, s.sd, table=True)}"
                                                     if s.sd is not None else "")
    span = "" if s.n < 2 else f"{measure_text(name, s.min, table=True)}–{measure_text(name, s.max, table=True)}"
    return SpreadCell(text, span, "")


def configurations_context(result) -> dict | None:
    """The section's values (None: no data entry declares ``replicates``)."""
    from ..spec import rank_measure

    configs = configurations(result)
    if not configs:
        return None
    ranked_by = rank_measure(result.spec)
    measures = list(next(iter(configs.values())).measures)
    parts = sorted({src.replicates for src in result.spec.data if src.replicates})
    rows, partial = [], []
    for key, rank in configuration_ranks(configs, ranked_by):
        c = configs[key]
        cells = [_cell(m, c.measures[m]) for m in measures]
        short = [registry.get(m).label for m in measures if 0 < c.measures[m].n < len(c.replicates)]
        if short:
            partial.append(f"{key}: {', '.join(short)} undefined on some replicates (the summary is over the "
                           "others)")
        rows.append(ConfigurationRow(rank="—" if rank is None else str(rank), name=c.name, dataset=c.dataset or "",
                                     n=fmt(len(c.replicates)), replicate_values=", ".join(v for v in c.values if v),
                                     cells=cells))
    columns = [Column(m, registry.get(m).label, "" if registry.get(m).direction == "none"
                      else registry.get(m).direction) for m in measures]
    measure = registry.get(ranked_by)
    counts = sorted({len(c.replicates) for c in configs.values()})
    return {
        "columns": columns, "rows": rows, "several": len({c.dataset for c in configs.values()}) > 1,
        "measure": measure.label,
        "direction": {"higher": "higher is better", "lower": "lower is better"}.get(measure.direction, ""),
        "learners": fmt(len(result.learners)), "configurations": fmt(len(configs)),
        "replicates": " to ".join(fmt(n) for n in (counts[0], counts[-1])) if len(counts) > 1 else fmt(counts[0]),
        "part": " and ".join(parts), "partial": partial,
    }
