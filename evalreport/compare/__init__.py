"""Comparing learners scored on the same data set (Zhou, section 2.3)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import combinations

from .curves import (
    CostInterval,
    Envelopment,
    HullVertex,
    combined_hull,
    cost_envelope,
    envelopment,
    envelopment_counts,
    envelopment_steps,
    steps_on_grid,
    vertices_on_grid,
)

__all__ = ["Comparisons", "Disagreement", "PairTests", "PairVerdict", "Ranking", "compare_learners",
           "pair_tests", "ranking_disagreements", "MAX_PAIRED_LEARNERS", "PAIRWISE", "pairwise_skipped", "too_many_pairs"]

#: the most learners of one data set compared pair by pair (envelopment and the paired
#: tests: k(k - 1)/2 pairs, 19,900 at 200, about a millisecond each). Past it the pairs
#: are left out with a warning: 1,000 learners are 499,500 pairs, minutes of work and a
#: results.json no one reads; the rankings, the leaderboard's order, the intervals and
#: the cost envelope stay (each linear in the learners).
MAX_PAIRED_LEARNERS = 200
#: the comparisons made pair by pair
PAIRWISE = frozenset({"envelopment", "delong", "mcnemar", "paired_t"})


def too_many_pairs(n: int) -> bool:
    """Whether ``n`` learners of a data set are too many to compare pair by pair."""
    return n > MAX_PAIRED_LEARNERS


def pairwise_skipped(n: int, wanted, dataset=None):
    """The warning (a RunWarning) that a data set of ``n`` learners is not compared
    pair by pair, or None (few enough learners, or no pairwise comparison asked)."""
    asked = sorted(PAIRWISE & set(wanted))
    if not too_many_pairs(n) or not asked:
        return None
    from ..result import RunWarning

    where = f" on {dataset}" if dataset is not None else ""
    return RunWarning(f"compare: {n:,} learners{where} are {n * (n - 1) // 2:,} pairs: the pairwise comparisons "
                      f"({', '.join(asked)}) are made for at most {MAX_PAIRED_LEARNERS} learners of a data set and "
                      "are left out (the rankings, intervals and cost envelope are kept); compare fewer learners "
                      "per data set to have them")

@dataclass(frozen=True)
class PairVerdict:
    a: str
    b: str
    envelopment: Envelopment


@dataclass(frozen=True)
class Ranking:
    measure: str
    order: tuple[str, ...]  # best first; learners whose value is undefined are left out
    values: dict

    def ties(self) -> list[list[str]]:
        """The runs of learners at exactly equal values (two or more each), in the
        order's order: where the order it lists is no order at all."""
        groups, run = [], []
        for key in self.order:
            if run and self.values.get(key) == self.values.get(run[-1]):
                run.append(key)
                continue
            if len(run) > 1:
                groups.append(run)
            run = [key]
        if len(run) > 1:
            groups.append(run)
        return groups

    @property
    def first_alone(self) -> str | None:
        """The learner first by this measure with no other at its value, else None."""
        ties = self.ties()
        if not self.order or (ties and ties[0][0] == self.order[0]):
            return None
        return self.order[0]


@dataclass(frozen=True)
class Disagreement:
    """Two learners the rankings order differently: the measures that rank ``a``
    above ``b`` and those that rank ``b`` above ``a`` (registry names)."""

    a: str
    b: str
    prefer_a: tuple[str, ...]
    prefer_b: tuple[str, ...]


def ranking_disagreements(rankings, learners) -> tuple[Disagreement, ...]:
    """Every pair of ``learners`` (in their order) that one ranking puts one way and
    another the other way. A ranking says nothing about a pair where either value
    is undefined (the learner is not in its order) or the two values are equal
    (a tie: the order between them is only the learners' order)."""
    out = []
    # each learner's place in each ranking looked up, not searched: pairs times rankings
    places = [{k: i for i, k in enumerate(r.order)} for r in rankings]
    for a, b in combinations(learners, 2):
        prefer: dict[str, list[str]] = {a: [], b: []}
        for r, place in zip(rankings, places):
            if a in place and b in place and r.values[a] != r.values[b]:
                prefer[a if place[a] < place[b] else b].append(r.measure)
        if prefer[a] and prefer[b]:
            out.append(Disagreement(a, b, tuple(prefer[a]), tuple(prefer[b])))
    return tuple(out)


@dataclass(frozen=True)
class PairTests:
    """Tests of significance between two learners of one data set."""

    a: str
    b: str
    delong: object | None = None  # stats.DelongTest
    mcnemar: object | None = None  # stats.McNemar
    paired_t: object | None = None  # stats.PairedT on per-group error rates


@dataclass(frozen=True)
class Comparisons:
    dataset: str | None
    learners: tuple[str, ...]
    pairs: tuple[PairVerdict, ...] = ()
    rankings: tuple[Ranking, ...] = ()
    cost_envelope: tuple[CostInterval, ...] = ()
    roc_hull: tuple[HullVertex, ...] = ()  # the hull across learners, each vertex's owner
    winner: str | None = None  # least cost at the operating point
    #: whether the rankings order every pair of learners the same way (ranking_disagreements)
    rankings_agree: bool = True
    disagreements: tuple[Disagreement, ...] = ()  # where they do not
    tests: tuple[PairTests, ...] = ()
    notes: tuple[str, ...] = field(default_factory=tuple)
    #: the learners' measures in paired bootstrap resamples (stats.PairedResamples), or None
    resamples: object | None = None

    def envelops(self) -> dict[str, list[str]]:
        """Learner -> the learners whose ROC curves its own envelops (in the pairs' order);
        what the verdict, the comparisons and the figures' alt texts say of them."""
        out: dict[str, list[str]] = {}
        for pair in self.pairs:
            if pair.envelopment.verdict == "a_envelops_b":
                out.setdefault(pair.a, []).append(pair.b)
            elif pair.envelopment.verdict == "b_envelops_a":
                out.setdefault(pair.b, []).append(pair.a)
        return out


def _envelopment_pairs(scoring: dict) -> list[PairVerdict]:
    """Envelopment of every pair, on the cheapest exact representation both have."""
    profiles = {k: lr.curves.profile for k, lr in scoring.items()}
    shapes = {(p.positives, p.negatives) for p in profiles.values() if p is not None}
    if len(shapes) == 1 and None not in profiles.values():
        # unit steps on the same instances: compare the integer profiles
        n_neg = next(iter(shapes))[1]
        return [PairVerdict(a, b, envelopment_steps(profiles[a].top, profiles[b].top, n_neg))
                for a, b in combinations(scoring, 2)]
    negatives = {lr.summary.negatives for lr in scoring.values()}
    if len(negatives) != 1 or not isinstance(next(iter(negatives)), int):
        curves = {k: lr.curves.exact_roc for k, lr in scoring.items()}
        return [PairVerdict(a, b, envelopment(*curves[a], *curves[b])) for a, b in combinations(scoring, 2)]
    # Same unweighted instances: every FPR is a count over m-, so the grid
    # FP = 0..m- holds every breakpoint. A learner with a step profile (its
    # polyline has two vertices per negative) is compared on it, a piece at a
    # time, from its integer profile; learners with tied scores (vertices) too
    # when the curves have about as many vertices as the grid has entries
    # (not for curves from a reduced table: those take the pairwise road).
    n_neg = next(iter(negatives))
    sizes = {k: 2 * (n_neg + 1) if profiles[k] is not None else lr.curves.roc_vertices[0].size
             for k, lr in scoring.items()}
    all_on_grid = len(scoring) > 2 and n_neg <= 4 * sum(sizes.values())
    sources: dict = {}

    def source(k):
        if k not in sources:
            p = profiles[k]
            sources[k] = (steps_on_grid(p.top, p.positives) if p is not None
                          else vertices_on_grid(*scoring[k].curves.roc_vertices, n_neg))
        return sources[k]

    out = []
    for a, b in combinations(scoring, 2):
        if all_on_grid or profiles[a] is not None or profiles[b] is not None:
            verdict = envelopment_counts(source(a), source(b), n_neg)
        else:
            verdict = envelopment(*scoring[a].curves.roc_vertices, *scoring[b].curves.roc_vertices)
        out.append(PairVerdict(a, b, verdict))
    return out


def compare_learners(learners: dict, wanted: frozenset[str], dataset=None,
                     rankings: tuple[Ranking, ...] = ()) -> Comparisons:
    """Compare the learners (key -> LearnerResult) of one data set; ``rankings`` by the
    task's ranked measures (evalreport.tasks.base.rankings); the winner is the first of
    the ranking by the least cost at the operating point."""
    scoring = {k: lr for k, lr in learners.items() if not lr.hard and lr.curves.roc is not None}
    keys = tuple(learners)
    pairs = []
    if "envelopment" in wanted:
        pairs = _envelopment_pairs(scoring)
    envelope = ()
    if "cost_envelope" in wanted and scoring:
        envelope = tuple(cost_envelope({k: lr.summary.cost_curve for k, lr in scoring.items()
                                        if lr.summary.cost_curve is not None}))
    hull = ()
    if "cost_envelope" in wanted and len(scoring) > 1:
        hull = tuple(combined_hull({k: lr.summary.hull for k, lr in scoring.items()
                                    if lr.summary.hull is not None}))
    min_cost = next((r for r in rankings if r.measure == "min_cost"), None)
    winner = min_cost.order[0] if min_cost and min_cost.order else None
    disagreements = ranking_disagreements(rankings, keys)
    return Comparisons(
        dataset=dataset, learners=keys, pairs=tuple(pairs), rankings=tuple(rankings),
        cost_envelope=envelope, roc_hull=hull, winner=winner, rankings_agree=not disagreements,
        disagreements=disagreements,
    )


def pair_tests(keys, labels, scores: dict, decisions: dict, group_errors: dict | None,
               wanted: frozenset[str], level: float, components: dict | None = None,
               mcnemar_method: str = "auto") -> tuple[PairTests, ...]:
    """DeLong's paired test, McNemar's test and the paired t-test for every pair.

    ``labels`` are the shared instances' classes (True = positive), ``scores``
    and ``decisions`` each learner's aligned scores (None for hard decisions)
    and decisions at its threshold; ``group_errors`` each learner's error rate
    per group (folds), or None; ``mcnemar_method`` the spec's
    ``confidence.mcnemar``. DeLong's and McNemar's tests of the pairs are each a
    family of k(k - 1)/2 tests: each result carries Holm's adjusted p-value
    over its family (``p_holm``).
    """
    from . import stats

    out = []
    if components is None and "delong" in wanted:
        # one sort per learner; each pair is then O(N)
        components = {k: stats.structural_components(labels, s) for k, s in scores.items() if s is not None}
    components = components or {}
    keys = list(keys)
    # the pairs in combinations(keys, 2)'s order; each learner against the ones
    # after it in one call per test (vectorised: 200 learners are 19,900 pairs)
    for i, a in enumerate(keys):
        rest = keys[i + 1:]
        scored = [b for b in rest if a in components and b in components]
        delongs = dict(zip(scored, stats.delong_paired_many(components[a], [components[b] for b in scored],
                                                            level=level))) if scored else {}
        mcnemars = dict(zip(rest, stats.mcnemar_many(labels, decisions[a], [decisions[b] for b in rest],
                                                     method=mcnemar_method))) \
            if "mcnemar" in wanted and rest else {}
        for b in rest:
            ttest = None
            if "paired_t" in wanted and group_errors and len(group_errors[a]) > 1:
                ttest = stats.paired_t_test(group_errors[a], group_errors[b], level=level)
            out.append(PairTests(a, b, delongs.get(b), mcnemars.get(b), ttest))
    for name in ("delong", "mcnemar"):
        out = _with_holm(out, name)
    return tuple(out)


def _with_holm(tests: list[PairTests], name: str) -> list[PairTests]:
    """Each pair's ``name`` test with Holm's adjusted p-value over the pairs that have it."""
    from .stats.holm import holm

    rows = [i for i, t in enumerate(tests) if getattr(t, name) is not None]
    adjusted = holm([getattr(tests[i], name).p_value for i in rows])
    out = list(tests)
    for i, p in zip(rows, adjusted):
        out[i] = replace(out[i], **{name: replace(getattr(out[i], name), p_holm=p)})
    return out
