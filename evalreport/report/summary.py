"""Past a handful of learners the report summarises: figures draw the top
learners, tables keep every one.

A figure with two hundred curves says nothing and costs minutes in the PDF (and
gigabytes); a per-learner section two hundred times over is a book. So past
:data:`SHOWN_LEARNERS` learners the report shows, in its figures and its
per-learner detail (confusion matrices, reliability diagrams, fold tables), only
the top learners by the verdict's ranking (least cost at the operating point for
a binary task, the first ranking for a multi-class one), always with the deployed
one; its tables of measures keep every learner; the pairwise matrices become a
heatmap (evalreport/figures/pairs.py). A note in the report says what was summarised
and why; results.json keeps every number of every learner and pair.
"""

from __future__ import annotations

import dataclasses

__all__ = ["SHOWN_LEARNERS", "shown_learners", "shown_styles", "emphasis", "coloured", "ShownResult", "summary_note",
           "pair_heatmaps", "PairHeatmap"]


@dataclasses.dataclass(frozen=True)
class PairHeatmap:
    """A heatmap of every pair of one data set's learners (when the report summarises)."""

    dataset: str
    svg: str  # with each cell's title, its pair's verdict or p-value on hover (Markup)
    caption: str
    svg_print: str = ""  # the PDF's copy, without the titles
    titled: bool = False  # the cells carry titles (few enough learners)
    shown: str = ""  # the copy the render prints (report/prepared.py, page.ReportContext.rendered)

#: the most learners drawn in a figure and given per-learner detail; past it the
#: report summarises. Eight: the colour-blind-safe palette's colours, one each
SHOWN_LEARNERS = 8


def _ranked(result) -> list[str]:
    """Every learner, best first by the verdict's ranking: per data set the
    ranking of least cost (binary) or the task's first ranking (multi-class),
    the data sets' orders interleaved; learners no ranking orders come last in
    the result's order."""
    orders = []
    for comp in result.comparisons:
        ranking = next((r for r in comp.rankings if r.measure == "min_cost" and r.order), None) \
            or next((r for r in comp.rankings if r.order), None)
        if ranking is not None:
            orders.append(list(ranking.order))
    out: list[str] = []
    for i in range(max((len(o) for o in orders), default=0)):
        out += [o[i] for o in orders if i < len(o) and o[i] not in out]
    return out + [k for k in result.learners if k not in out]


def _deployed(result, ranked: list[str]) -> list[str]:
    """The learners page one is about: the spec's ``deployed`` learner (on each data
    set it is measured on), else per data set the first by the ranking."""
    if result.spec.deployed is not None:
        return [k for k, lr in result.learners.items() if lr.name == result.spec.deployed]
    out = []
    for comp in result.comparisons:
        best = next((k for k in ranked if k in comp.learners), None)
        if best is not None and best not in out:
            out.append(best)
    return out


def shown_learners(result, limit: int = SHOWN_LEARNERS) -> list[str] | None:
    """The learners the figures and the detail sections show, in the result's
    order; None when there are at most ``limit`` (every one is shown). The
    deployed learners first, then those that are least cost somewhere on the
    cost envelope (the cost figure shades their stretch), then the ranking's."""
    if len(result.learners) <= limit:
        return None
    ranked = _ranked(result)
    envelope = [iv.learner for c in result.comparisons for iv in c.cost_envelope]
    picked: list[str] = []
    # the learners drawn in colour (the leader, the deployed one, its challengers) first
    first = _deployed(result, ranked) + emphasis(result)
    for key in first + sorted(set(envelope), key=ranked.index) + ranked:
        if key not in picked and len(picked) < limit:
            picked.append(key)
    return [k for k in result.learners if k in picked]


class ShownResult:
    """The result as the figures and detail sections see it when the report
    summarises: ``learners`` holds only the shown ones, and the comparisons only
    their pairs, tests and stretches of the cost envelope. Everything else is the
    result's own."""

    def __init__(self, result, keys: list[str]):
        self._result = result
        keep = set(keys)
        self.learners = {k: result.learners[k] for k in result.learners if k in keep}
        self.comparisons = tuple(dataclasses.replace(
            c, learners=tuple(k for k in c.learners if k in keep),
            pairs=tuple(p for p in c.pairs if p.a in keep and p.b in keep),
            tests=tuple(t for t in c.tests if t.a in keep and t.b in keep),
            cost_envelope=tuple(iv for iv in c.cost_envelope if iv.learner in keep),
            roc_hull=tuple(v for v in c.roc_hull if v.learner is None or v.learner in keep))
            for c in result.comparisons)

    def __getattr__(self, name):
        return getattr(self._result, name)


def _ranking_label(result, short: bool = False) -> str:
    """The ranking the report's summary orders the learners by (:func:`_ranked`), in
    words: as the rankings table names it when ``short``."""
    from .. import registry

    binary = result.operating_point is not None  # judged at an operating point in cost space
    if binary and not short:
        return "least expected cost at the operating point"
    rankings = [r for c in result.comparisons for r in c.rankings if r.order]
    measure = next((r.measure for r in rankings if r.measure == "min_cost"), None) if binary else None
    measure = measure or next((r.measure for r in rankings), None)
    if measure is None:
        return "the result's order"
    label = {m.name: m.ranking_label for m in registry.ranked(result.task.name if result.task else "binary")}
    return label.get(measure, measure)


def summary_note(result, shown: list[str] | None, limit: int = SHOWN_LEARNERS) -> str:
    """The report's note on what it summarised ("" when it shows every learner)."""
    if shown is None:
        return ""
    n = len(result.learners)
    by = _ranking_label(result)
    return (f"{n} learners: past {limit}, the report summarises (a figure of {n} curves cannot be read, "
            f"nor {n} sets of per-learner details). The figures, the headline table and the per-learner details "
            "(confusion matrices, per-group tables, threshold and gains tables, reliability diagrams) show the "
            f"top {len(shown)} by {by}, always with the deployed one: {', '.join(shown)}. "
            f"The leaderboard and the tables of measures list every learner; the table of tests lists each "
            f"learner against the best and the significant pairs among those shown; the pairwise comparisons "
            f"of all {n} are drawn as heatmaps. results.json holds every number of every learner and pair. "
            + _colour_words(result, shown))


def _colour_words(result, shown: list[str]) -> str:
    """Which of the drawn learners are in colour, and why, in a sentence."""
    from ..words import and_join

    picked = coloured(result, shown)
    verdict = getattr(result, "verdict", None)
    over = verdict.leader.over if verdict is not None and verdict.leader is not None else "learners"
    why = ["the runs of the leading configuration" if over == "configurations" else "the leader"]
    if verdict is not None and verdict.deployed is not None:
        why.append("the deployed learner")
        if any(t.get("superior") or t.get("non_inferior") for t in (verdict.challengers or {}).values()):
            why.append("the challengers that may replace it")
    verb = "is" if len(picked) == 1 else "are"
    rest = len(shown) - len(picked)
    return (f"In the figures {and_join(picked)} {verb} drawn in colour ({and_join(why)}), "
            f"the other {rest} in grey.")


#: the swatch of a learner the figures do not draw: no colour of the palette
#: (those are the drawn learners', one each)
UNDRAWN = {"color": "#b0b0b0", "linestyle": "-"}


def emphasis(result) -> list[str]:
    """The learners the figures draw in colour past :data:`~evalreport.figures.plots.EMPHASIS_FROM`
    learners, as the verdict (result.verdict) names them, at most six: the deployed
    learner (spec ``deployed``), each data set's leader and those tied with it (a
    leading configuration of replicates: its replicates), the challengers the tests
    find superior to the deployed one, then those found non-inferior (a learner the
    leader's test cannot separate from it is not emphasised: without a test, that is
    every learner). Without a verdict: the
    deployed learner, else each data set's first by the ranking. The figures draw
    the rest in grey: they take this list, and never decide it."""
    from ..figures.plots import PALETTE

    verdict = getattr(result, "verdict", None)
    if verdict is None:
        return _deployed(result, _ranked(result))
    learners = result.learners

    def keys_of(name: str) -> list[str]:
        return [k for k, lr in learners.items() if k == name or lr.name == name]

    picked: list[str] = []
    if verdict.deployed is not None:
        picked += keys_of(verdict.deployed)
    leaders = verdict.leaders or ((verdict.leader,) if verdict.leader is not None else ())
    replicates = {}
    if any(x.over == "configurations" for x in leaders):
        from ..compare.configurations import configurations

        replicates = {k: list(c.replicates) for k, c in configurations(result).items()}
    for x in leaders:
        for name in (x.learner, *x.tied):
            picked += replicates.get(name, []) if x.over == "configurations" else keys_of(name)
    tests = verdict.challengers or {}
    for flag in ("superior", "non_inferior"):
        picked += [k for name, t in tests.items() if t.get(flag) for k in keys_of(name)]
    out: list[str] = []
    for k in picked:
        if k in learners and k not in out and len(out) < len(PALETTE):
            out.append(k)
    return out


def coloured(result, keys: list[str]) -> list[str]:
    """Of the drawn ``keys``, those in colour past a handful: :func:`emphasis`'s, else
    the deployed (or first-ranked) one, else the first."""
    return [k for k in emphasis(result) if k in keys] or \
        [k for k in _deployed(result, _ranked(result)) if k in keys][:1] or list(keys)[:1]


def shown_styles(result, shown: list[str] | None) -> dict[str, dict]:
    """Each learner's colour, dash and marker, as every figure and table swatch
    draws it: up to :data:`~evalreport.figures.plots.EMPHASIS_FROM` learners each in its
    colour; past it only the learners of :func:`emphasis` (in the result's order),
    the other drawn ones grey (thin, behind), and those not drawn a lighter grey."""
    from ..figures import learner_styles
    from ..figures.plots import EMPHASIS_FROM

    keys = list(result.learners) if shown is None else list(shown)
    picked = coloured(result, keys) if len(result.learners) > EMPHASIS_FROM else None
    styles = learner_styles(keys, picked)
    return {k: styles.get(k, UNDRAWN) for k in result.learners}


def pair_heatmaps(result, shown: list[str] | None) -> list[PairHeatmap]:
    """The pairwise comparisons of every learner as heatmaps, per data set, when
    the report summarises ([] otherwise: the tables are drawn): the ROC
    envelopment and DeLong's and McNemar's Holm-adjusted p-values, in the
    ranking's order."""
    from markupsafe import Markup

    from ..figures.pairs import TITLED_CELLS, envelopment_heatmap, significance_heatmap, without_titles
    from .format import p_text

    if shown is None:
        return []
    ranked = _ranked(result)
    by = _ranking_label(result, short=True)
    alpha = 1 - result.spec.confidence.level
    out = []
    for i, comp in enumerate(result.comparisons):
        names = [k for k in ranked if k in comp.learners]
        where = f" on {comp.dataset}" if comp.dataset else ""
        if comp.pairs:
            curved = [k for k in names if not result.learners[k].hard]
            out.append(PairHeatmap(comp.dataset or "", Markup(envelopment_heatmap(
                curved, comp.pairs, f"envelopment-map-{i}", by)),
                caption=f"ROC envelopment of every pair{where}: the row's learner envelops the column's "
                        "(blue) or is enveloped by it (orange); grey: the curves cross. Learners in the "
                        f"order of the ranking by {by} (the rankings table below), best first."))
        delong = {(t.a, t.b): (t.delong.p_holm if t.delong.p_holm is not None else t.delong.p_value,
                               (t.delong.difference or 0) > 0)
                  for t in comp.tests if t.delong is not None and t.delong.p_value is not None}
        mcnemar = {(t.a, t.b): (t.mcnemar.p_holm if t.mcnemar.p_holm is not None else t.mcnemar.p_value,
                                t.mcnemar.e10 > t.mcnemar.e01)
                   for t in comp.tests if t.mcnemar is not None}
        if delong and mcnemar:
            # both tests in one square, DeLong's above the diagonal and McNemar's below: a
            # third heatmap alone on its row left half a page empty (issue 25)
            out.append(PairHeatmap(comp.dataset or "", Markup(significance_heatmap(
                names, delong, alpha, "AUC (DeLong) above, decisions (McNemar) below", f"tests-map-{i}",
                "DeLong's test of AUC (above the diagonal) and McNemar's test of decisions (below)", by, p_text,
                lower=mcnemar)),
                caption=f"The paired tests of every pair{where}, Holm-adjusted p-values: above the diagonal "
                        "DeLong's test of AUC, below it McNemar's test of the decisions; blue where the row's "
                        "learner is significantly better (higher AUC, right more often), orange where the "
                        "column's is."))
        elif delong:
            out.append(PairHeatmap(comp.dataset or "", Markup(significance_heatmap(
                names, delong, alpha, "DeLong's test of AUC (Holm)", f"delong-map-{i}", "DeLong's test of AUC",
                by, p_text)),
                caption=f"DeLong's paired test of AUC for every pair{where}, Holm-adjusted p-values: blue where "
                        "the row's learner has the significantly higher AUC, orange where the column's has."))
        elif mcnemar:
            out.append(PairHeatmap(comp.dataset or "", Markup(significance_heatmap(
                names, mcnemar, alpha, "McNemar's test of decisions (Holm)", f"mcnemar-map-{i}",
                "McNemar's test of decisions", by, p_text)),
                caption=f"McNemar's test of the paired decisions for every pair{where}, Holm-adjusted "
                        "p-values: blue where the row's learner is right significantly more often, orange "
                        "where the column's is."))
    # the PDF's copy without the cells' tooltips (comparisons.html.j2 picks by format)
    titled = len(result.learners) <= TITLED_CELLS  # the cells carry tooltips (figures/pairs.py)
    return [dataclasses.replace(h, svg_print=Markup(without_titles(str(h.svg))), titled=titled) for h in out]
