"""Configurations: the learners that differ only by a replicate part of their
names (``data[].replicates: seed``) taken as one configuration, each headline
measure summarised over its replicates (mean, sample sd, min, max), and the
configurations ranked by the mean of the ranked measure.

Twenty runs, five regularisation strengths by four seeds, are five
configurations of four replicates: the question "which C is best" is asked of
the configurations, and the spread over the seeds says how much one run's value
says about its configuration. The mapping learner -> configuration is made when
the spec's patterns expand (:func:`evalreport.spec.replicates.replicates_of`);
everything here is a pure function of the :class:`~evalreport.result.Result`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .. import registry

__all__ = ["Summary", "Configuration", "headline_measures", "summarise", "configurations",
           "configuration_ranks", "configuration_key"]


@dataclass(frozen=True)
class Summary:
    """One measure over a configuration's replicates: its defined values' mean,
    sample standard deviation (ddof = 1; None with fewer than two values), min and
    max, and ``n``, how many replicates have it defined (all None when none has)."""

    mean: float | None
    sd: float | None
    min: float | None
    max: float | None
    n: int


@dataclass(frozen=True, eq=False)
class Configuration:
    """The replicates of one configuration of one data set: ``replicates`` are the
    learners' results.json keys in the learners' order, ``values`` the replicate
    part's value of each (the seeds), ``measures`` measure name -> :class:`Summary`."""

    name: str
    dataset: str | None
    replicates: tuple[str, ...]
    values: tuple[str, ...]
    measures: dict


def summarise(values) -> Summary:
    """The :class:`Summary` of ``values`` (None, NaN and infinities are undefined
    and left out). The sum is exact (``math.fsum``), so the mean of the same values
    is the same in any order and equal means tie exactly."""
    xs = [float(v) for v in values if v is not None and math.isfinite(float(v))]
    n = len(xs)
    if n == 0:
        return Summary(None, None, None, None, 0)
    mean = math.fsum(xs) / n
    sd = math.sqrt(math.fsum((x - mean) ** 2 for x in xs) / (n - 1)) if n > 1 else None
    return Summary(mean, sd, min(xs), max(xs), n)


def headline_measures(result) -> list[str]:
    """The measures a configuration is summarised by: the ranked measure
    (:func:`evalreport.spec.rank_measure`) first, then binary: AUC, average
    precision, F1, the cost at the threshold and the least cost; multi-class:
    accuracy, macro F1, macro AUC, the cost-sensitive error; each only where some
    learner has it defined (the costs: only with costs)."""
    from ..spec import rank_measure

    task = result.spec.task or "binary"
    names = [rank_measure(result.spec)]
    # (a multi-class "auc" is the macro AUC: one of the two names, the one ranked if it is)
    names += (["auc", "average_precision", "f1", "cost_at_threshold", "min_cost"] if task == "binary"
              else ["accuracy", "macro_f1", "macro_auc" if names[0] == "macro_auc" else "auc",
                    "cost_sensitive_error"])
    out = []
    for name in dict.fromkeys(names):
        if name in registry.MEASURES and any(lr.values.get(name) is not None for lr in result.learners.values()):
            out.append(name)
    return out


def configuration_key(name: str, dataset, several: set) -> str:
    """results.json key of a configuration: its name, or name@dataset when the name
    is a configuration of several data sets (as a learner's key)."""
    return f"{name}@{dataset}" if name in several else name


def configurations(result) -> dict[str, Configuration]:
    """Every configuration of the run, by its results.json key, in the order of
    their first learner; empty when no data entry declares ``replicates``. A
    learner of a run with replicates whose name holds no replicate part is a
    configuration of one replicate, named as the learner."""
    from ..spec.replicates import replicates_of

    mapping = replicates_of(result.spec)
    if not mapping:
        return {}
    groups: dict[tuple, list[tuple[str, str]]] = {}
    for key, lr in result.learners.items():
        configuration, value = mapping.get((lr.dataset, lr.name), (lr.name, None))
        groups.setdefault((lr.dataset, configuration), []).append((key, value))
    datasets_of: dict[str, set] = {}
    for dataset, name in groups:
        datasets_of.setdefault(name, set()).add(dataset)
    several = {name for name, sets in datasets_of.items() if len(sets) > 1}
    measures = headline_measures(result)
    out = {}
    for (dataset, name), members in groups.items():
        keys = tuple(k for k, _ in members)
        summaries = {m: summarise(result.learners[k].values.get(m) for k in keys) for m in measures}
        out[configuration_key(name, dataset, several)] = Configuration(
            name, dataset, keys, tuple("" if v is None else v for _, v in members), summaries)
    return out


def configuration_ranks(configs: dict[str, Configuration], measure: str) -> list[tuple[str, int | None]]:
    """(key, rank) of the configurations of each data set, best first by the mean
    of ``measure`` in the registry's direction; equal means share a rank
    ("1, 2, 2, 4"); a configuration whose mean is undefined comes last, rank None.
    Data sets in the order of their first configuration."""
    higher = registry.get(measure).direction != "lower"
    by_dataset: dict = {}
    for key, c in configs.items():
        by_dataset.setdefault(c.dataset, []).append(key)
    out = []
    for keys in by_dataset.values():
        mean = {k: (configs[k].measures[measure].mean if measure in configs[k].measures else None) for k in keys}
        defined = sorted((k for k in keys if mean[k] is not None),
                         key=lambda k: (-mean[k] if higher else mean[k], keys.index(k)))
        rank, previous = 0, None
        for i, k in enumerate(defined):
            if i == 0 or mean[k] != previous:
                rank, previous = i + 1, mean[k]
            out.append((k, rank))
        out += [(k, None) for k in keys if mean[k] is None]
    return out
