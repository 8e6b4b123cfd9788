"""May a challenger replace the deployed learner? Each challenger of the deployed
learner's data set against it, on one measure (the spec's ``rank_by``), as a
one-sided test of non-inferiority within a margin.

With g = the challenger's gain over the deployed learner in the measure's better
direction (challenger - deployed where higher is better, deployed - challenger
where lower is), H0: g <= -margin ("the challenger is worse by at least the
margin"), H1: g > -margin. ``margin`` is in the measure's own units (0: plain
superiority of the interval's kind).

* AUC: DeLong's paired test (the structural components the run's comparisons
  share): the difference, its standard error se, the interval difference
  -+ z_{(1+level)/2} se, and p = 1 - Phi((g + margin) / se), Phi the standard
  normal law.
* Every other measure: the paired bootstrap of the difference (the same
  resampled rows for both: compare.stats.paired_bootstrap), its percentile
  interval at ``level`` and p = #{g* <= -margin} / B over the resamples.

``non_inferior``: the interval's bound on the worse side lies beyond -margin
(better than deployed - margin); ``superior``: the interval excludes 0 on the
better side. Both read the two-sided interval at ``level``, so non-inferiority
is the one-sided test at (1 - level) / 2 (CONSORT's reading of a two-sided
interval): ``non_inferior`` is ``p_value < (1 - level) / 2`` up to the
interpolation of the bootstrap's quantiles.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .. import registry
from .leaderboard import rank_measure, resampled, test_for
from ..metrics.levels import check_level, normal_quantile
from .stats.core import ndtr
from .stats.paired_bootstrap import non_inferiority_p, paired_difference

__all__ = ["ChallengerTest", "challenger_tests"]


@dataclass(frozen=True)
class ChallengerTest:
    """One challenger against the deployed learner on ``measure``; None fields with
    ``reason`` saying why where undefined."""

    challenger: str
    deployed: str
    measure: str
    test: str | None  # "delong" or "paired_bootstrap" (None: no test)
    margin: float
    level: float
    difference: float | None  # challenger - deployed, in the measure's units
    interval: tuple[float, float] | None  # two-sided at level, [low, high] of the difference
    p_value: float | None  # one-sided, H0: the challenger is worse by at least the margin
    non_inferior: bool | None
    superior: bool | None
    reason: str | None = None


def _decide(difference, interval, higher: bool, margin: float):
    """(non_inferior, superior) from the interval of challenger - deployed."""
    if interval is None:
        return None, None
    low, high = interval
    if higher:
        return low > -margin, low > 0
    return high < margin, high < 0


def _delong(result, comp, challenger: str, deployed: str, margin: float, level: float):
    """(difference, interval, p, reason) from the run's DeLong test of the pair, or None
    when the run has none."""
    for t in comp.tests:
        if {t.a, t.b} == {challenger, deployed} and t.delong is not None:
            d = t.delong
            sign = 1.0 if t.a == challenger else -1.0
            diff = sign * d.difference
            if d.se is None or not d.se > 0:
                return diff, None, None, (d.note or "DeLong's standard error of the difference is undefined")
            half = normal_quantile(level) * d.se
            p = ndtr(-(diff + margin) / d.se)  # 1 - Phi((g + margin) / se)
            return diff, (diff - half, diff + half), p, None
    return None


def challenger_tests(result, deployed_key: str, measure: str | None = None, margin: float | None = None,
                     level: float | None = None) -> dict[str, ChallengerTest]:
    """Each other learner of ``deployed_key``'s data set, tested for non-inferiority
    against it on ``measure`` (default: the leaderboard's, :func:`rank_measure`)
    within ``margin`` (default ``confidence.margin``) at ``level`` (default
    ``confidence.level``): {challenger key: :class:`ChallengerTest`}, in the
    learners' order. A learner of another data set is no challenger."""
    spec = result.spec
    conf = spec.confidence
    measure = measure or rank_measure(spec)
    margin = float(getattr(conf, "margin", 0.0) or 0.0) if margin is None else float(margin)
    if margin < 0 or not math.isfinite(margin):
        raise ValueError(f"margin must be a finite number >= 0, got {margin!r}")
    level = check_level(conf.level if level is None else level)
    higher = registry.get(measure).direction != "lower"
    deployed = result.learners[deployed_key]
    comp = next((c for c in result.comparisons if c.dataset == deployed.dataset and deployed_key in c.learners),
                None)
    out: dict[str, ChallengerTest] = {}
    for key, lr in result.learners.items():
        if key == deployed_key or lr.dataset != deployed.dataset:
            continue

        def make(test, difference=None, interval=None, p=None, reason=None):
            ni, sup = _decide(difference, interval, higher, margin)
            return ChallengerTest(key, deployed_key, measure, test, margin, level, difference,
                                  interval, p, ni, sup, reason)

        a, b = lr.values.get(measure), deployed.values.get(measure)
        if a is None or b is None or not (math.isfinite(a) and math.isfinite(b)):
            who = deployed_key if b is None or not math.isfinite(b) else key
            out[key] = make(None, reason=f"{measure} of learner '{who}' is undefined")
            continue
        if comp is None:
            out[key] = make(None, difference=a - b, reason="the data set's learners were not compared")
            continue
        wanted = test_for(measure, spec.task or "binary")
        found = _delong(result, comp, key, deployed_key, margin, level) if wanted == "delong" else None
        if found is not None:
            diff, interval, p, reason = found
            out[key] = make("delong", diff, interval, p, reason)
            continue
        draws = resampled(comp, measure)
        if key in draws and deployed_key in draws:
            pd = paired_difference(a, b, draws[key], draws[deployed_key], level=level)
            p = non_inferiority_p(draws[key], draws[deployed_key], margin=margin, higher=higher)
            out[key] = make("paired_bootstrap", pd.difference, pd.interval, p, pd.note if pd.interval is None
                            else None)
            continue
        out[key] = make(None, difference=a - b, reason=_why_untested(spec, comp, measure, wanted))
    return out


def _why_untested(spec, comp, measure: str, wanted: str) -> str:
    if wanted == "delong":
        head = "DeLong's test of the pair was not computed (the spec's compare: leaves out delong, or the data " \
               "are weighted or aggregated), nor the paired bootstrap"
    else:
        head = f"the test of {measure} is the paired bootstrap of the difference"
    if not spec.confidence.bootstrap:
        return f"{head}: confidence.bootstrap is 0"
    notes = (getattr(comp.resamples, "notes", None) or {}).get(measure) if comp.resamples is not None else None
    if notes:
        return f"{head}: " + "; ".join(notes.values())
    return (f"{head}, which was not computed: it needs the instances, unit weights, a bootstrap statistic of "
            f"{measure} and resamples x rows within the bootstrap budget")
