"""The verdict: what the run concludes, decided once, printed by every sink.

The basis is the deployed configuration: each learner judged at its deployed
threshold (the spec's, its own, or one chosen on another data set), never at a
threshold tuned on the data being judged. A tuned threshold is only a
*suggestion*, labelled optimistic, with its cost beside the deployed one's.

- Each learner's **status** follows from its gates' outcomes and the findings
  that concern it (:func:`learner_status`); the overall status is the deployed
  learner's (spec ``deployed``), else the worst of the judged learners'.
- **Findings**, most severe first: a failed gate (high); an inconclusive gate, a
  gate that could not be checked, a threshold tuned on the data judged, a test
  that could not be made where a conclusion rests on it (the test of the measure
  ranked, or one the spec's ``compare:`` names) (medium); every other warning
  (low).
- The **leader** says only what the tests support: the learners whose
  Holm-adjusted paired test against the first-ranked one is not significant are
  named as indistinguishable from it, and then no single learner is
  recommended.

The data set that ``threshold: {optimal_on: X}`` chooses the thresholds on gives
no verdict: its learners are measured at thresholds tuned on it.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

from ..number_style import ends_text, fmt, plain
from ..words import gate_text

__all__ = ["STATUSES", "SEVERITIES", "Finding", "Suggestion", "LearnerVerdict", "Leader", "Verdict",
           "build_verdict", "learner_status", "worst_status", "judged_keys", "status_line"]

#: the statuses, worst first
STATUSES = ("not_fit", "inconclusive", "fit_with_findings", "fit", "not_assessed")
#: the severities of findings, most severe first
SEVERITIES = ("high", "medium", "low")
#: the warnings' measures that are tests between learners: a test that could not
#: be made is a medium finding (the comparison it would have supported is missing)
_TESTS = frozenset({"delong", "mcnemar", "paired_t", "friedman"})


@dataclass(frozen=True)
class Finding:
    severity: str  # high, medium, low
    learner: str | None
    measure: str | None
    text: str


@dataclass(frozen=True)
class Suggestion:
    """A threshold tuned on the data judged: what it would cost there, beside the
    deployed threshold's cost. Optimistic by construction: never a verdict."""

    learner: str
    threshold: float
    threshold_text: str
    chosen_on: str  # the data set it was tuned on ("the data judged" without names)
    optimistic: bool
    cost: float | None
    cost_at_deployed: float | None


@dataclass(frozen=True)
class LearnerVerdict:
    status: str
    threshold: float | None
    threshold_text: str | None
    threshold_source: str
    gates: dict  # outcome -> how many of the learner's gate rows
    dataset: str | None = None
    judged: bool = True  # False: the data set the thresholds were chosen on


@dataclass(frozen=True)
class Leader:
    learner: str
    rank_by: str
    test: str | None
    indistinguishable_from: tuple[str, ...]
    dataset: str | None = None
    value: float | None = None
    #: every learner that shares the first rank with an equal value
    tied: tuple[str, ...] = ()
    #: what is ranked: "learners", or "configurations" (replicates grouped: data[].replicates)
    over: str = "learners"


@dataclass(frozen=True)
class Verdict:
    status: str
    basis: str
    deployed: str | None
    learners: dict  # results.json key -> LearnerVerdict
    leader: Leader | None
    findings: tuple[Finding, ...]
    suggestions: tuple[Suggestion, ...]
    challengers: dict = field(default_factory=dict)  # name -> dict (the challenger's test)
    leaders: tuple[Leader, ...] = ()  # one per judged data set (leader: the first)
    level: float = 0.95

    def to_dict(self) -> dict:
        """results.json's ``verdict`` block (a non-finite number, such as the +inf
        threshold that flags nothing, is null; its ``threshold_text`` says it)."""
        def leader(x: Leader | None):
            if x is None:
                return None
            d = _finite(asdict(x))
            d["indistinguishable_from"] = list(x.indistinguishable_from)
            d["tied"] = list(x.tied)
            return d

        out = {
            "status": self.status,
            "basis": self.basis,
            "deployed": self.deployed,
            "learners": {k: {"status": v.status, "threshold": _finite(v.threshold), "threshold_text": v.threshold_text,
                             "threshold_source": v.threshold_source, "dataset": v.dataset, "judged": v.judged,
                             "gates": dict(v.gates)} for k, v in self.learners.items()},
            "leader": leader(self.leader),
            "findings": [asdict(f) for f in self.findings],
            "suggestions": [_finite(asdict(s)) for s in self.suggestions],
            "challengers": {k: _finite(dict(v)) for k, v in self.challengers.items()},
        }
        if len(self.leaders) > 1:
            out["leaders"] = [leader(x) for x in self.leaders]
        return out


def _finite(x):
    """``x`` with every non-finite float (in dicts and lists) as None: JSON has no inf."""
    if isinstance(x, dict):
        return {k: _finite(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_finite(v) for v in x]
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return x


def worst_status(statuses) -> str:
    """The worst of ``statuses`` (not_assessed only when every one is)."""
    assessed = [s for s in statuses if s != "not_assessed"]
    if not assessed:
        return "not_assessed"
    return min(assessed, key=STATUSES.index)


def learner_status(outcomes: list[str], findings: list[Finding]) -> str:
    """A learner's status from its gate rows' outcomes and the findings that concern it."""
    if not outcomes:
        return "not_assessed"
    if "fail" in outcomes:
        return "not_fit"
    if "inconclusive" in outcomes:
        return "inconclusive"
    if "not_evaluated" in outcomes or any(f.severity in ("high", "medium") for f in findings):
        return "fit_with_findings"
    return "fit"


def _source_dataset(spec) -> str | None:
    """The data set ``threshold: {optimal_on: X}`` chooses the thresholds on."""
    return getattr(spec.threshold, "optimal_on", None)


def judged_keys(result) -> list[str]:
    """The learners the verdict judges: all but those of the data set the
    thresholds were chosen on."""
    source = _source_dataset(result.spec)
    return [k for k, lr in result.learners.items() if source is None or lr.dataset != source]


def _threshold(lr) -> tuple[float | None, str | None, str]:
    """(threshold, its text, its source) of a learner; multi-class: the decision
    rule (highest score), no threshold."""
    threshold = getattr(lr, "threshold", None)
    if threshold is None:
        return None, None, "argmax"
    if getattr(lr, "hard", False):
        return None, None, "decisions"
    return float(threshold), lr.threshold_text(threshold), lr.threshold_source


# Findings ---------------------------------------------------------------

def _gate_findings(gates: list[dict]) -> list[Finding]:
    out = []
    for g in gates:
        text = gate_text(g, fmt, plain, ends_text)  # the spec's bound as written
        kind = g.get("outcome")
        # the interval is in the gate's text; say which one decides
        ends = g.get("gap_interval")
        gap = ends is not None and "max_gap" in g and max(abs(ends[0]), abs(ends[1])) > g["max_gap"]
        why = ("the gap is within max_gap but its interval reaches past it" if gap
               else "the value is within the bound but its interval crosses it")
        if kind == "fail":
            out.append(Finding("high", g.get("learner"), g.get("metric"), f"Gate failed: {text}."))
        elif kind == "inconclusive":
            out.append(Finding("medium", g.get("learner"), g.get("metric"),
                               f"Gate inconclusive: {text}; {why}."))
        elif kind == "not_evaluated" and not g.get("note"):
            out.append(Finding("medium", g.get("learner"), g.get("metric"),
                               f"Gate not evaluated: {text}; the value is undefined."))
        elif kind == "not_evaluated":
            out.append(Finding("low", g.get("learner"), g.get("metric"), f"Gate not evaluated: {text}."))
    return out


def _threshold_findings(result, keys: list[str]) -> list[Finding]:
    """A threshold tuned on the data it is judged on (``threshold: optimal``): medium."""
    tuned = [k for k in keys if getattr(result.learners[k], "threshold_source", None) == "optimal"]
    if not tuned:
        return []
    return [Finding("medium", k, "threshold",
                    f"{k} is judged at threshold {result.learners[k].threshold_text(result.learners[k].threshold)}, "
                    "tuned on the data it is judged on: its measures at the threshold are optimistic.")
            for k in tuned]


def _optimism_findings(result, keys: list[str]) -> list[Finding]:
    """With ``threshold: {optimal_on: X}``: each judged learner whose measure ranked (one
    at the threshold) is worse than on X, where its threshold was chosen. X's figure is
    optimistic by construction and the judged data's is the one to expect; the size of the
    drop is what a reader of X's figures needs. Low: the verdict already judges the
    learner on the judged data."""
    from .. import registry
    from ..compare.leaderboard import rank_measure
    from ..number_style import measure_text

    source = _source_dataset(result.spec)
    name = rank_measure(result.spec)
    if source is None or name not in registry.MEASURES or registry.get(name).kind != "at_threshold":
        return []
    measure = registry.get(name)
    chosen = {lr.name: lr for lr in result.learners.values() if lr.dataset == source}
    out = []
    for k in keys:
        lr = result.learners[k]
        there = chosen.get(lr.name)
        here_value = lr.values.get(name)
        there_value = there.values.get(name) if there is not None else None
        if here_value is None or there_value is None or here_value == there_value:
            continue
        if (here_value < there_value) == measure.higher_is_better:  # worse on the judged data
            out.append(Finding("low", k, name, (
                f"{k}: {measure.label} is {measure_text(name, here_value)} on {lr.dataset} against "
                f"{measure_text(name, there_value)} on {source}, where its threshold was chosen: {source}'s "
                f"figure is optimistic; {lr.dataset}'s is the one to expect.")))
    return out


def _relied_on(result) -> set[str]:
    """The tests a missing one of which weakens a conclusion: the test of the
    measure ranked (the leader's and the challengers') and those the spec's
    ``compare:`` names; a test run because ``compare: all`` lists every test that
    applies (Friedman's over the data sets, say) is a low finding when it cannot
    be made."""
    from ..compare.leaderboard import rank_measure, test_for

    spec = result.spec
    ranked = rank_measure(spec)
    out = {ranked, test_for(ranked, spec.task or "binary")}  # the measure ranked: its test not made
    if spec.compare != "all":
        out |= set(spec.compare)
    return out


def _warning_findings(result, judged: set[str]) -> list[Finding]:
    out = []
    relied_on = _relied_on(result)
    for w in result.warnings:
        text = str(w)
        learner, measure = getattr(w, "learner", None), getattr(w, "measure", None)
        if learner is not None and learner not in judged:
            continue
        if "optimistic" in text and "threshold" in text:
            continue  # said as a finding of its own (_threshold_findings)
        if text.startswith("gate ") and "not evaluated" in text:
            continue  # said as the gate's finding
        untested = measure in _TESTS or "not tested against the best" in text
        severity = "medium" if untested and measure in relied_on else "low"
        out.append(Finding(severity, learner, measure, text + ("" if text.endswith(".") else ".")))
    return out


def _suggestions(result, keys: list[str]) -> list[Suggestion]:
    """The least-cost threshold on the data judged, where it differs from the
    deployed one and costs less there (binary, with scores): optimistic."""
    out = []
    for k in keys:
        lr = result.learners[k]
        operating = getattr(lr, "operating", None)
        if operating is None or getattr(lr, "hard", False) or operating.min_cost is None:
            continue
        at_deployed = lr.values.get("cost_at_threshold")
        if lr.threshold_source == "optimal" or operating.threshold == lr.threshold:
            continue
        if at_deployed is not None and not operating.min_cost < at_deployed:
            continue
        out.append(Suggestion(k, float(operating.threshold), lr.threshold_text(operating.threshold),
                              lr.dataset if lr.dataset is not None else "the data judged", True,
                              float(operating.min_cost), None if at_deployed is None else float(at_deployed)))
    return out


# The leader -------------------------------------------------------------

def _uncovered_findings(result, block: dict | None, keys: list[str], alpha: float,
                        found: list[Finding]) -> list[Finding]:
    """A learner that would be "fit" (its gates all pass, no high or medium finding in
    ``found``) though none of its gates is on the measure the learners are ranked by,
    while the paired test shows it worse than its data set's best by that measure
    (Holm-adjusted p < alpha): "fit" would say nothing of what it is shown worse at. A
    medium finding, so its status is fit_with_findings. Not with a deployed learner (the
    others are challengers, tested against it) nor with ranked configurations (the
    leaderboard ranks runs, the verdict configurations)."""
    from .. import registry
    from ..compare.configurations import configurations
    from ..number_style import measure_text, p_text

    if not block or not block.get("rows") or result.spec.deployed is not None or configurations(result):
        return []
    name, task = block["rank_by"], result.spec.task or "binary"
    label = registry.get(name).label if name in registry.MEASURES else name
    best = {x.dataset: x for x in _leaders(block, keys, alpha)}  # each data set's first-ranked
    noted = {f.learner for f in found if f.severity in ("high", "medium")}  # not "fit" already
    out = []
    for r in block["rows"]:
        k, p = r["learner"], r.get("p_holm_vs_best")
        rows = [g for g in result.gates if g.get("learner") == k]
        if (k not in keys or k in noted or p is None or p >= alpha or not rows
                or any(g.get("outcome") != "pass" for g in rows)):
            continue
        if name in {registry.reads(g.get("metric"), task) for g in rows}:
            continue
        first = best[r.get("dataset")]
        gates = ", ".join(dict.fromkeys(g["metric"] for g in rows))
        passed = (f"its one gate ({gates}) passes but does not test" if len(rows) == 1
                  else f"all {len(rows)} of its gates ({gates}) pass but none tests")
        out.append(Finding("medium", k, name, (
            f"{k}: {passed} {label}, by which it is worse than {first.learner} "
            f"({measure_text(name, r['value'])} against {measure_text(name, first.value)}; Holm-adjusted "
            f"{p_text(p)}): its status says nothing of {label}.")))
    return out


def _leaders(block: dict | None, keys: list[str], alpha: float) -> list[Leader]:
    """Per data set of ``keys``: the first-ranked learner and those its test cannot
    separate from it (Holm-adjusted p >= alpha, or no p), and those tied with it."""
    if not block or not block.get("rows"):
        return []
    by_dataset: dict = {}
    for r in block["rows"]:
        if r["learner"] in keys:
            by_dataset.setdefault(r.get("dataset"), []).append(r)
    out = []
    for dataset, rows in by_dataset.items():
        rows = [r for r in rows if r["value"] is not None]
        if not rows:
            continue
        first = rows[0]
        tied = tuple(r["learner"] for r in rows if r["value"] == first["value"])
        same = [r["learner"] for r in rows[1:] if r["learner"] not in tied and (
            r.get("p_holm_vs_best") is None or r["p_holm_vs_best"] >= alpha)]
        out.append(Leader(first["learner"], block["rank_by"], block.get("test"),
                          tuple(t for t in tied if t != first["learner"]) + tuple(same), dataset,
                          float(first["value"]), tied))
    return out


def _configuration_leaders(result, configs: dict, keys: list[str], alpha: float) -> list[Leader]:
    """With replicates (data[].replicates), the configurations ranked by the mean of
    ``rank_by`` over their replicates: the first, those tied with it, and those that
    Welch's t-test of the replicates' values (Holm-adjusted over the comparisons
    with the first) cannot separate from it; a configuration of one replicate, or
    of replicates that do not vary, cannot be tested and is counted with them."""

    from scipy import stats

    from ..compare.configurations import configuration_ranks
    from ..compare.leaderboard import rank_measure
    from ..compare.stats.holm import holm

    name = rank_measure(result.spec)  # the leaderboard's (a multi-class auc is its macro AUC)
    judged = set(keys)
    configs = {k: c for k, c in configs.items() if set(c.replicates) <= judged}
    order = [k for k, rank in configuration_ranks(configs, name) if rank is not None]
    out = []
    for dataset in dict.fromkeys(configs[k].dataset for k in order):
        mine = [k for k in order if configs[k].dataset == dataset]
        first = mine[0]

        def values(k):
            return [result.learners[r].values.get(name) for r in configs[k].replicates
                    if result.learners[r].values.get(name) is not None]

        mean = configs[first].measures[name].mean
        tied = tuple(k for k in mine if configs[k].measures[name].mean == mean)
        p = []
        for k in mine[1:]:
            a, b = values(first), values(k)
            defined = len(a) > 1 and len(b) > 1 and (max(a) > min(a) or max(b) > min(b))
            test = stats.ttest_ind(a, b, equal_var=False) if defined else None
            p.append(None if test is None or not math.isfinite(test.pvalue) else float(test.pvalue))
        adjusted = holm(p)
        same = tuple(k for k, q in zip(mine[1:], adjusted) if k not in tied and (q is None or q >= alpha))
        out.append(Leader(first, name, "welch_t", tuple(t for t in tied if t != first) + same, dataset,
                          float(mean), tied, "configurations"))
    return out


def build_verdict(result, leaderboard: dict | None = None, challengers: dict | None = None) -> Verdict:
    """The verdict of ``result`` (its gate rows already carry their outcomes;
    ``leaderboard``: results.json's block, whose rows give the leader;
    ``challengers``: each challenger's test against the deployed learner)."""
    spec = result.spec
    level = spec.confidence.level
    alpha = round(1 - level, 10)
    keys = judged_keys(result)
    judged = set(keys)
    gates = [g for g in result.gates if g.get("learner") in judged or g.get("learner") not in result.learners]
    findings = (_gate_findings(gates) + _threshold_findings(result, keys) + _optimism_findings(result, keys)
                + _warning_findings(result, judged))
    findings += _uncovered_findings(result, leaderboard, keys, alpha, findings)
    findings.sort(key=lambda f: SEVERITIES.index(f.severity))  # stable: the run's order within a severity
    learners = {}
    for k, lr in result.learners.items():
        rows = [g for g in result.gates if g.get("learner") == k]
        counts = {o: sum(g.get("outcome") == o for g in rows) for o in ("pass", "fail", "inconclusive",
                                                                         "not_evaluated")}
        threshold, text, source = _threshold(lr)
        mine = [f for f in findings if f.learner == k]
        status = learner_status([g["outcome"] for g in rows], mine) if k in judged else "not_assessed"
        learners[k] = LearnerVerdict(status, threshold, text, source, counts, lr.dataset, k in judged)
    deployed = spec.deployed
    if deployed is not None:
        mine = [k for k in keys if result.learners[k].name == deployed]
        status = worst_status([learners[k].status for k in mine]) if mine else "not_assessed"
    else:
        status = worst_status([learners[k].status for k in keys])
    from ..compare.configurations import configurations

    configs = configurations(result)
    leaders = _configuration_leaders(result, configs, keys, alpha) if configs else _leaders(leaderboard, keys, alpha)
    return Verdict(status=status, basis="deployed", deployed=deployed, learners=learners,
                   leader=leaders[0] if leaders else None, findings=tuple(findings),
                   suggestions=tuple(_suggestions(result, keys) if spec.task == "binary" else ()),
                   challengers=dict(challengers or {}), leaders=tuple(leaders), level=level)


def status_line(verdict: Verdict) -> str:
    """The command line's last line: the overall status and what it rests on."""
    judged = {k: v for k, v in verdict.learners.items() if v.judged}
    def tally(k: str) -> str:
        g = judged[k].gates
        parts = [f"{g[o]} {o.replace('_', ' ')}" for o in ("fail", "inconclusive", "not_evaluated") if g.get(o)]
        total = sum(g.values())
        return f"{k} {judged[k].status}" + (f" ({', '.join(parts)} of {total} gates)" if parts else "")
    if verdict.deployed is not None:
        mine = [k for k in judged if k == verdict.deployed or k.startswith(verdict.deployed + "@")]
        basis = "deployed " + "; ".join(tally(k) for k in mine)
    else:
        shown = [k for k in judged if judged[k].status != "fit"][:4] or list(judged)[:4]
        more = len(judged) - len(shown)
        basis = "; ".join(tally(k) for k in shown) + (f"; {more} more" if more > 0 else "")
    return f"verdict: {verdict.status} ({basis})"
