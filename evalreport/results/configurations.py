"""results.json's ``configurations`` block (compare/configurations.py): only when
a data entry declares ``replicates``."""

from __future__ import annotations

from ..compare.configurations import configuration_ranks, configurations
from ..spec import rank_measure
from .format import num

__all__ = ["configurations_dict"]


def configurations_dict(result) -> dict | None:
    """{key: {dataset (with several data sets), rank, replicates: [learner keys],
    <measure>: {mean, sd, min, max, n}}} in the order of the configurations' first
    learners; ``rank`` by the mean of the ranked measure (ties share it, null when
    the mean is undefined). None when no data entry declares replicates."""
    configs = configurations(result)
    if not configs:
        return None
    ranks = dict(configuration_ranks(configs, rank_measure(result.spec)))
    several = len({c.dataset for c in configs.values()}) > 1
    out = {}
    for key, c in configs.items():
        block = {**({"dataset": c.dataset} if several else {}), "rank": ranks[key],
                 "replicates": list(c.replicates)}
        for name, s in c.measures.items():
            block[name] = {"mean": num(s.mean), "sd": num(s.sd), "min": num(s.min), "max": num(s.max), "n": s.n}
        out[key] = block
    return out
