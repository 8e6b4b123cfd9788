"""results.json's ``learners.<l>.calibration``: the reliability diagram's bins
(the Brier score, log loss and ECE are scalars, written under their names)."""

from __future__ import annotations

from .format import InlineList, num

__all__ = ["calibration_json"]


def _count(n: float):
    # a bin's weight: a whole number of instances when unweighted
    return int(n) if float(n).is_integer() else num(n)


def calibration_json(cal) -> dict | None:
    """{strategy, bins: [{lo, hi, n, mean_score, observed, interval: [low, high]}, ...]};
    None (null) when the calibration is undefined (its warning says why)."""
    if cal is None or cal.bins is None:
        return None
    return {"strategy": cal.strategy,
            "bins": [{"lo": num(b.lo), "hi": num(b.hi), "n": _count(b.n), "mean_score": num(b.mean_score),
                      "observed": num(b.observed),
                      "interval": None if b.interval is None else InlineList(num(x) for x in b.interval)}
                     for b in cal.bins]}
