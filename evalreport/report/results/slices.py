"""results.json: a binary learner's subgroup slices (``learners.<l>.slices``).

``slices.<column>`` holds the interval level, the bootstrap resamples,
``slices_min`` and ``too_small`` (the values with fewer positives or negatives:
left out of the comparisons), then ``values`` (each value of the column, sorted:
its instances, positives and negatives as the learner's block counts them,
``small``, every scalar the learner's block writes, ``gap`` to the whole
population, ``rates``: the selection rate, TPR and FPR with Wilson intervals, and
``intervals`` of the measures), then ``parity`` (the three parity differences,
each with its bootstrap interval, the two values that make it and the values too
small to count).
"""

from __future__ import annotations

from ... import registry
from ...metrics.proportion import PROPORTIONS
from .format import InlineList, num

__all__ = ["slices_json"]

#: the measures a slice value writes an interval of (``intervals``, null where not
#: computed): DeLong's for the AUC, Wilson's for the proportions (metrics.slices.PROPORTIONS)
_INTERVALS = ("auc", *(name for name in PROPORTIONS if name in registry.MEASURES))


def _interval(iv):
    return None if iv is None else InlineList([num(iv[0]), num(iv[1])])


def _names(result) -> list[str]:
    """The scalars a slice value lists: those the learner's block writes under their name."""
    spec = result.spec
    metrics = spec.metric_set
    return [m.name for m in registry.measures_for("binary", *registry.SCALAR_KINDS)
            if "binary" in m.compute and (m.name in metrics or not m.metric)
            and (m.name != "partial_auc" or spec.partial_auc is not None)]


def slices_json(d: dict, lr, result, metrics) -> None:
    if not lr.slices:
        return
    names = _names(result)
    out = {}
    for column, sc in lr.slices.items():
        values = {}
        for v in sc.values:
            sm = v.learner.summary
            values[v.value] = {
                "n": int(sm.n), "positives": num(sm.positives), "negatives": num(sm.negatives),
                "small": v.small,
                **{k: num(v.learner.values.get(k)) for k in names},
                "gap": {k: num(v.gaps.get(k)) for k in names},
                "rates": {r: {"value": num(x), "interval": _interval(iv), "gap": num(gap)}
                          for r, (x, iv, gap) in v.rates.items()},
                "intervals": {k: _interval(v.intervals.get(k)) for k in _INTERVALS},
            }
        parity = {k: {"value": num(p.value), "interval": _interval(p.interval),
                      "between": None if p.between is None else list(p.between),
                      "too_small": list(p.too_small)}
                  for k, p in sc.parity.items()}
        out[column] = {"level": sc.level, "resamples": sc.resamples, "slices_min": sc.slices_min,
                       "too_small": list(sc.too_small), "values": values, "parity": parity}
    d["slices"] = out
