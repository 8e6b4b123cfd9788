"""The template values of a binary report: the verdict's sentences on the
comparisons, the measure tables (columns from the registry), the envelopment
matrix, the cost envelope and the figures."""

from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np
from markupsafe import Markup

from .. import registry
from ..figures import figures
from ..redact import published, redact_text
from .appendix import definitions as appendix_definitions, glossary, works_cited
from .family import family_table
from .calibration import calibration_section
from ..metrics.population import MEASURES as POPULATION
from .format import UNDEFINED, Column, and_join, cells, fmt, measure_column, measure_interval_text, measure_text
from .format import rate
from .history import with_trend_caption
from .notes import cells_with_notes
from .binary_rows import (BalanceRow, BinaryLearnerRow, ConfusionCells, EnvelopeRow, GroupTable, OperatingPointText,
                          RankTable, RankTableRow)
from .page import NamedCells, PairMatrix, PopulationRow, PopulationTable, Ranking
from .slices import slices_section
from .operating import operating_context
from .headline import binary_headline, sample_label
from .summary import ShownResult, pair_heatmaps, shown_learners, shown_styles, summary_note
from .verdicts import agreed_ranking, interval_phrases, ranking_sentence

__all__ = ["binary_context", "simplified_note"]

THRESHOLD_NOTES = {"spec": "spec threshold", "learner": "learner's own threshold",
                   "optimal": "least-cost threshold at PC(+)", "decisions": "hard decisions"}
#: the task's own sections of the page, after the provenance (report.html.j2)
SECTIONS = ("sections/measures.html.j2", "sections/curves.html.j2", "sections/operating.html.j2")
#: the confusion-matrix family's table: its title and note (report/family.py)
FAMILY = ("The confusion-matrix family at the threshold",
          "From the counts at each learner's threshold (the confusion matrices below). "
          "Youden's J = TPR − FPR = 2 balanced accuracy − 1; KS, below, is its largest value "
          "over every threshold.")
#: the history's trend figure's caption: after "<what> over the N kept runs (from DATE), "
TREND_CAPTION = ("Headline measures", "each with its confidence interval as an error bar (DeLong's for the AUC; "
                 "Wilson's for a proportion; the bootstrap's for a cost, where computed); dashed lines: the "
                 "gates' bounds.")
#: the bootstrap intervals printed beside their measure in the tables (F1's is in the figure)
BOOTSTRAPPED = ("bep", "average_precision", "expected_total_cost")


def _negatives(result, a: str, b: str):
    """The negatives both learners were scored on when every FPR is a count over
    them (unweighted, the same instances), else None."""
    n = {result.learners[k].summary.negatives for k in (a, b)}
    return n.pop() if len(n) == 1 else None


def _sentences(result) -> list[str]:
    """Page one's sentences on the comparisons beside the recommendation (which
    names the least-cost learner, verdicts.recommendation): where the rankings
    disagree. The details are in :func:`_details`."""
    label = {m.name: m.ranking_label for m in registry.ranked("binary")}
    sentences = []
    for comp in result.comparisons:
        where = f" on {comp.dataset}" if comp.dataset else ""
        if len(comp.learners) > 1 and comp.rankings:
            sentences.append(ranking_sentence(comp, label, where))
    return sentences


#: the crossing pairs whose intervals the comparisons' sentences spell out; past
#: them the envelopment matrix shows every pair (below, the sentences say it all)
CROSSINGS_SAID = 4


def _details(result) -> list[str]:
    """The comparisons' sentences for the comparisons section: which curves
    envelop, who is above on each interval of FPR where they cross, and what the
    summaries prefer there."""
    label = {m.name: m.ranking_label for m in registry.ranked("binary")}
    sentences = []
    for comp in result.comparisons:
        where = f" on {comp.dataset}" if comp.dataset else ""
        envelops = comp.envelops()
        identical = [f"{p.a} and {p.b}" for p in comp.pairs if p.envelopment.verdict == "identical"]
        crosses = [p for p in comp.pairs if p.envelopment.verdict not in ("a_envelops_b", "b_envelops_a",
                                                                          "identical")]
        for a, bs in envelops.items():
            whose = f"{bs[0]}'s" if len(bs) == 1 else f"those of {and_join(bs)}"
            # thresholds mean nothing across learners (each has its own scores):
            # the curves are compared at each false positive rate
            sentences.append(f"{a}'s ROC curve envelops {whose}: {a} is at least as good at every "
                             "false positive rate (and so is its P-R curve).")
        disagree = {(d.a, d.b) for d in comp.disagreements}
        for pair in crosses[:CROSSINGS_SAID]:
            phrases = interval_phrases(pair.envelopment.intervals,
                                       {"a": f"{pair.a} is above", "b": f"{pair.b} is above",
                                        "equal": "they coincide on the rest"},
                                       _negatives(result, pair.a, pair.b))
            sentences.append(f"{pair.a}'s and {pair.b}'s ROC curves cross{where}, so neither is better at "
                             f"every false positive rate. By FPR, {'; '.join(phrases)}.")
            if (pair.a, pair.b) in disagree:
                continue  # the rankings' sentence below names the measures
            better = {pair.a if r.order.index(pair.a) < r.order.index(pair.b) else pair.b: r.measure
                      for r in comp.rankings if pair.a in r.order and pair.b in r.order
                      and r.values[pair.a] != r.values[pair.b]}
            if len(better) == 1:
                (who, _), = better.items()
                names = ", ".join(label[r.measure] for r in comp.rankings)
                sentences.append(f"Where {pair.a}'s and {pair.b}'s curves cross, every summary ({names}) "
                                 f"that orders them prefers {who}.")
        if len(crosses) > CROSSINGS_SAID:
            more = len(crosses) - CROSSINGS_SAID
            pairs = "1 more pair of ROC curves crosses" if more == 1 else f"{more} more pairs of ROC curves cross"
            sentences.append(f"{pairs} (the envelopment matrix "
                             "below; results.json lists every interval).")
        if identical:
            sentences.append(f"Identical ROC curves: {'; '.join(identical)}.")
    return sentences




def _columns(result) -> tuple[list[Column], list[Column]]:
    """The two tables' columns, from the registry: scalars at the threshold, then
    those over every threshold; each when the spec asks for it."""
    spec = result.spec
    metrics = spec.metric_set
    # TP, FP, TN and FN are in the confusion matrices just below: repeating
    # them here made the table too wide for a page at millions of rows
    at_cols = [Column("threshold", "threshold", "")]
    rank_cols = []
    for m in registry.measures_for("binary", *registry.SCALAR_KINDS):
        if m.section:
            continue  # shown in a table of its own
        better = "" if m.direction == "none" else m.direction
        cols = at_cols if m.kind == "at_threshold" else rank_cols
        if m.name == "fbeta":
            if "fbeta" in metrics:
                cols += [Column(f"fbeta_{b:g}", f"F{b:g}", "higher") for b in spec.fbeta]
        elif m.name == "partial_auc":
            p = spec.partial_auc
            if p is not None:
                cols.append(Column("partial_auc", f"partial AUC (FPR <= {fmt(p.max_fpr)}"
                                   + (", McClish)" if p.standardized else ")"), better))
        elif m.name == "ks":
            if "ks" in metrics:  # with its threshold in the same cell (one column fewer)
                cols.append(Column("ks", "KS (at threshold)", better))
        elif m.name == "min_cost":
            cols += [Column("min_cost", m.label, better, "cost"), Column("op_threshold", "its threshold", "", "cost")]
        elif m.name == "expected_total_cost" and m.name in metrics:
            cols.append(Column(m.name, m.label, better, "cost"))
        elif "binary" in m.compute and (m.name in metrics or not m.metric):
            cols.append(Column(m.name, m.label, better))
    return at_cols, rank_cols


def binary_context(result, base: dict) -> dict:
    spec = result.spec
    op = result.operating_point
    # past a handful of learners, the figures and per-learner details show the top
    # ones (``view``); the tables keep every learner (report/summary.py)
    drawn = shown_learners(result)
    view = ShownResult(result, drawn) if drawn else result
    styles = shown_styles(result, drawn)
    at_cols, rank_cols = _columns(result)
    learners, scalar_rows = _learner_rows(result, view, styles, at_cols, rank_cols)
    # with priors, the measures that move with the share of positives are the sample's: said so
    # on the chart (AUC does not move); page one's table gives the population's
    marked = sample_label(result)
    scalar_rows = [(f"{label}\n{marked}" if marked and label != "AUC" else label, vals)
                   for label, vals in scalar_rows.items() if any(v[0] is not None for v in vals.values())]
    population = _population_table(result, learners)
    family = family_table(result, learners, *FAMILY)
    learners, at_notes = cells_with_notes(result, learners, "at", at_cols)
    learners, rank_notes = cells_with_notes(result, learners, "rank", rank_cols)
    rankings = _rankings(result)
    balance = _balance(result)
    _verdict(result, base, view, styles, drawn)
    calibration_section(result, base, shown=view.learners)  # base["calibration"], and the verdict's sentences on it
    with_trend_caption(base["history"], *TREND_CAPTION)
    return {
        **base,
        "positive": str(spec.positive_label),
        "labels": {"name": "positive label", "value": str(spec.positive_label)},  # the page's header line
        "task_sections": SECTIONS,
        "operating_point": _operating_point(op),
        "balance": balance,
        "at_columns": at_cols,
        "rank_columns": rank_cols,
        "rank_tables": _rank_tables(rank_cols, learners),
        "at_notes": at_notes,
        "family": family,
        "population": population,
        "test_share": _test_share(result),
        # "(sample: 37.3% positive)" beside the measures at the sample's share (with priors; else "")
        "sample_label": marked,
        "rank_notes": rank_notes,
        "learners": learners,
        # many learners: their thresholds' notes by kind, not one per learner
        "threshold_notes": _threshold_notes(learners) if drawn else "",
        "figures": _figures(view, scalar_rows, styles),
        "matrix": _matrix(result) if not drawn else [],
        "pair_heatmaps": pair_heatmaps(result, drawn),
        "rankings": rankings,
        "rankings_agreed": agreed_ranking(rankings),
        "rankings_disagree": any(not c.rankings_agree for c in result.comparisons),
        "envelope": (envelope := _envelope_rows(result, styles)),
        "envelope_infinite": any(row.infinite for row in envelope),  # the +inf threshold's note
        "operating": operating_context(view, styles),
        "definitions": (definitions := appendix_definitions(result)),
        "works": works_cited(definitions),
        "works_brief": works_cited(definitions, brief=True),
        "glossary": glossary(result),
        **slices_section(view, styles),
    }


def _learner_rows(result, view, styles, at_cols, rank_cols) -> tuple[list[BinaryLearnerRow], dict]:
    """Per learner its row of the tables (every learner; its details where it is in
    ``view``), and the values of the scalars chart by measure, then learner."""
    spec = result.spec
    learners = []
    scalar_rows = {"AUC": {}, "average precision": {}, "break-even point": {}, "F1": {}, "accuracy": {}}
    for key, lr in result.learners.items():
        at, sm = lr.at_threshold, lr.summary
        values = {**lr.values, "threshold": lr.threshold,
                  "op_threshold": lr.operating.threshold if lr.operating else None}
        # thresholds as decimals that make the decisions of the matrices they head
        texts = {"threshold": lr.threshold_text(lr.threshold),
                 "op_threshold": lr.threshold_text(lr.operating.threshold) if lr.operating else None,
                 "ks": _ks_text(lr)}
        for b in spec.fbeta:
            values[f"fbeta_{b:g}"] = at.fbeta.get(float(b))
        ci = lr.auc_ci.ci if lr.auc_ci is not None else None
        boot = lr.bootstrap or {}

        def shown(name):
            interval = ci if name == "auc" else boot.get(name) if name in BOOTSTRAPPED else None
            if name in texts:
                return texts[name] or measure_text(name, None)
            return measure_interval_text(name, values.get(name), interval, table=True)

        learners.append(BinaryLearnerRow(
            key=key, color=styles[key]["color"],
            source=published(result).sources[key],
            dataset=lr.dataset or "", hard=lr.hard,
            threshold_note=THRESHOLD_NOTES.get(lr.threshold_source) or
            f"least-cost threshold at PC(+) on {lr.threshold_source.partition(':')[2]}",
            at=[texts.get(c.key) or measure_text(c.key, values.get(c.key), table=True) for c in at_cols],
            rank=[shown(c.key) for c in rank_cols],
            n=fmt(sm.n), positives=fmt(sm.positives), negatives=fmt(sm.negatives),
            confusion=ConfusionCells(*(fmt(getattr(at, k)) for k in CONFUSION_CELLS)),
            confusion_share=_shares(at),
            curves_note=simplified_note(lr.curves),
            groups=_groups(lr.groups) if key in view.learners else None,
            detail=key in view.learners,
        ))
        for label, v, iv in (("AUC", sm.auc, ci), ("average precision", sm.average_precision,
                                                    boot.get("average_precision")),
                             ("break-even point", sm.bep, boot.get("bep")), ("F1", at.f1, boot.get("f1")),
                             ("accuracy", at.accuracy, None)):
            interval = tuple(iv) if iv is not None and None not in tuple(iv) else None
            scalar_rows[label][key] = (v, interval)
    return learners, scalar_rows


def _rankings(result) -> list[Ranking]:
    """The rankings by dataset and measure, each as one line (a > b > c)."""
    label = {m.name: m.ranking_label for m in registry.ranked("binary")}
    rankings = []
    for comp in result.comparisons:
        for r in comp.rankings:
            rankings.append(Ranking(comp.dataset or "", label[r.measure],
                                    " > ".join(r.order) if r.order else UNDEFINED))
    return rankings


def _balance(result) -> list[BalanceRow]:
    """Per learner its file and its counts of positives and negatives, with their share."""
    return _balance_rows([
        BalanceRow(file=redact_text(lr.source)[0], positives=fmt(lr.summary.positives),
                   negatives=fmt(lr.summary.negatives),
                   share=fmt(lr.summary.positives / (lr.summary.positives + lr.summary.negatives), table=True)
                   if (lr.summary.positives + lr.summary.negatives) else UNDEFINED, learners=lr_key)
        for lr_key, lr in result.learners.items()])


def _verdict(result, base: dict, view, styles, drawn) -> None:
    """Page one's sentences, details and headline table, into ``base["verdict"]``."""
    base["verdict"]["sentences"] += _sentences(result) + base["tests"]["sentences"]
    base["verdict"]["details"] = _details(view)
    base["verdict"]["headline"] = binary_headline(view, styles)
    if drawn:
        base["verdict"]["sentences"].append(summary_note(result, drawn))


def _operating_point(op) -> OperatingPointText:
    # the spec's own numbers, echoed as given (not measured values)
    return OperatingPointText(p=fmt(op.p_positive, 6), p_source="spec priors" if op.p_positive_source == "priors"
                              else "the data's own share", cost_fn=fmt(op.cost_fn, 6), cost_fp=fmt(op.cost_fp, 6),
                              pc=fmt(op.pc_positive))


def _figures(view, scalar_rows, styles) -> dict:
    """Every figure name the templates ask for, "" where nothing is drawn (one-class
    data: no curves); the scalars chart of the learners drawn."""
    return {"roc": "", "roc_log": "", "pr": "", "cost": "", "scalars": "",
            **{k: Markup(v) for k, v in figures(view, [
                (label, {k: v for k, v in vals.items() if k in view.learners})
                for label, vals in scalar_rows], styles).items()}}


#: the tables of the measures over every threshold, by their columns' group: (group, title)
RANK_TABLES = (("", "Ranking (every threshold)"), ("cost", "Cost (every threshold)"))


def _rank_tables(columns: list[Column], learners: list[BinaryLearnerRow]) -> list[RankTable]:
    """The measures over every threshold as two tables, ranking then cost (one with
    every column was wider than a page): each its title, its columns and one row
    per learner (the learner's row, its cells of those columns); a table with no
    column is left out."""
    out = []
    for group, title in RANK_TABLES:
        mine = [i for i, c in enumerate(columns) if c.group == group]
        if mine:
            out.append(RankTable(title, [columns[i] for i in mine],
                                 [RankTableRow(row, [row.rank[i] for i in mine]) for row in learners]))
    return out


def _balance_rows(rows: list[BalanceRow]) -> list[BalanceRow]:
    """The provenance's class balance: one row per file and class counts (learners
    that read one file share its labels), the learners' keys joined (``rows``: one
    per learner, its key as ``learners``); the rows ordered by file, then the
    counts' texts (case aside, as they were when the template grouped them)."""
    def key(row):
        return tuple(text.lower() for text in (row.file, row.positives, row.negatives))

    out = []
    for _, same in itertools.groupby(sorted(rows, key=key), key=key):
        same = list(same)
        out.append(replace(same[0], learners=", ".join(r.learners for r in same)))
    return out


def _threshold_notes(learners: list[BinaryLearnerRow]) -> str:
    """Where each learner's threshold comes from, learners of one kind together:
    "m003, m017: learner's own threshold; every other learner: least-cost threshold
    at PC(+)" (the largest kind said last, without its names)."""
    kinds: dict[str, list[str]] = {}
    for row in learners:
        kinds.setdefault(row.threshold_note, []).append(row.key)
    largest = max(kinds, key=lambda note: len(kinds[note]))
    parts = [f"{', '.join(keys)}: {note}" for note, keys in kinds.items() if note != largest]
    every = "every other learner" if parts else "every learner"
    return "; ".join(parts + [f"{every}: {largest}"])


def _ks_text(lr) -> str | None:
    """KS and the threshold where it is reached, in one cell (None: undefined)."""
    ks = lr.values.get("ks")
    if ks is None:
        return None
    return f"{measure_text('ks', ks, table=True)} at {lr.threshold_text(lr.ks.threshold)}"


#: the population table's columns: the measures of metrics.population (headings and
#: directions: the registry's)
POPULATION_COLUMNS = POPULATION


def _population_table(result, learners: list[BinaryLearnerRow]) -> PopulationTable | None:
    """With priors: each learner's measures at its threshold in the population they
    describe (None without priors, or when the spec's metrics leave it out)."""
    op = result.operating_point
    if op.p_positive_source != "priors" or "population" not in result.spec.metric_set:
        return None
    rows = []
    for row, lr in zip(learners, result.learners.values()):
        pop = lr.population
        rows.append(PopulationRow(row.key, row.color,
                                  cells(fmt(getattr(pop, k), table=True) for k in POPULATION_COLUMNS)))
    return PopulationTable(p=fmt(op.p_positive, 6), columns=[measure_column(k) for k in POPULATION_COLUMNS],
                           rows=rows)


def _test_share(result) -> str:
    """Each data set's positive share as sampled, when it is not the population's:
    "p(+) = 0.372", or "validation p(+) = 0.373, test p(+) = 0.371" (each data set
    its own: the rows of the table are per data set, never pooled)."""
    if result.operating_point.p_positive_source != "priors":
        return ""
    from .headline import sample_shares

    shares = sample_shares(result)
    texts = {k: f"p(+) = {UNDEFINED if v is None else fmt(v, 3)}" for k, v in shares.items()}
    if len(set(texts.values())) == 1:
        return next(iter(texts.values()))
    return ", ".join(f"{k} {t}" for k, t in texts.items())


def _matrix(result) -> list[PairMatrix]:
    """Pairwise envelopment as a matrix per data set (rows a, columns b), where
    the section's sentences leave pairs unsaid (more than CROSSINGS_SAID cross):
    else the matrix would repeat them."""
    out = []
    for comp in result.comparisons:
        crossing = [p for p in comp.pairs if p.envelopment.verdict not in ("a_envelops_b", "b_envelops_a",
                                                                            "identical")]
        if not comp.pairs or len(crossing) <= CROSSINGS_SAID:
            continue
        names = [k for k in comp.learners if not result.learners[k].hard]
        cell = {}
        for p in comp.pairs:
            v = p.envelopment.verdict
            if v == "cross":
                # where they cross (who is above on which FPR intervals): the section's
                # sentences say it; a cell holding the intervals took a page of four learners
                cell[(p.a, p.b)] = cell[(p.b, p.a)] = "crosses"
                continue
            text = {"a_envelops_b": ("envelops", "is enveloped by"),
                    "b_envelops_a": ("is enveloped by", "envelops"),
                    "identical": ("identical", "identical")}[v]
            cell[(p.a, p.b)], cell[(p.b, p.a)] = text
        rows = [NamedCells(a, ["—" if a == b else cell.get((a, b), "") for b in names]) for a in names]
        out.append(PairMatrix(comp.dataset, names, rows))
    return out


#: the per-group table's columns: (key of GroupResult.measures, heading; a measure's: the registry's label)
GROUP_COLUMNS = (("tp", "TP"), ("fp", "FP"), ("tn", "TN"), ("fn", "FN"),
                 *((k, registry.get(k).label) for k in ("accuracy", "precision", "recall", "f1")))


def _groups(groups) -> GroupTable | None:
    """One row per group (its confusion matrix at the learner's threshold and the
    measures read off it), then the mean and the standard deviation (n - 1) across
    the groups where the value is defined, and the macro and micro averages
    (Zhou 2.3.2: of the groups' P and R, and of their summed counts)."""
    if groups is None:
        return None
    rows = [NamedCells(name, cells(measure_text(k, m.get(k), table=True) for k, _ in GROUP_COLUMNS))
            for name, m in zip(groups.names, groups.measures)]
    mean, sd = [], []
    for k, _ in GROUP_COLUMNS:
        vals = np.array([m[k] for m in groups.measures if m.get(k) is not None], float)
        # a mean of counts is a weighted count's text; of rates, a rate's
        mean.append(measure_text(k, float(vals.mean()), table=True) if vals.size else UNDEFINED)
        sd.append(measure_text(k, float(vals.std(ddof=1)), table=True) if vals.size > 1 else UNDEFINED)
    a = groups.averages
    return GroupTable(
        columns=[label for _, label in GROUP_COLUMNS], rows=rows, mean=cells(mean), sd=cells(sd),
        averages=f"macro-P {rate(a.macro_precision)}, macro-R {rate(a.macro_recall)}, macro-F1 (Zhou) "
                 f"{rate(a.macro_f1)}, mean F1 {rate(a.mean_f1)}; micro-P {rate(a.micro_precision)}, "
                 f"micro-R {rate(a.micro_recall)}, micro-F1 {rate(a.micro_f1)}",
    )


def _envelope_rows(result, styles) -> list[EnvelopeRow]:
    """The cost envelope for people: one row per run of one learner (its thresholds
    as a range when it changes threshold along the way); results.json has every interval."""
    rows = []
    for comp in result.comparisons:
        runs: list[list] = []
        for iv in comp.cost_envelope:
            if runs and runs[-1][0] == iv.learner:
                runs[-1][2] = iv.pc_to
                runs[-1][3].append(iv.threshold)
            else:
                runs.append([iv.learner, iv.pc_from, iv.pc_to, [iv.threshold]])
        for learner, lo, hi, thresholds in runs:
            text = result.learners[learner].threshold_text  # decimals that keep the decisions
            if len(thresholds) == 1:
                thr = text(thresholds[0])
            else:
                thr = f"{text(max(thresholds))} down to {text(min(thresholds))} ({len(thresholds)} thresholds)"
            rows.append(EnvelopeRow(learner, styles[learner]["color"], thr, pc_from=fmt(lo, 3), pc_to=fmt(hi, 3),
                                    dataset=comp.dataset or "", infinite=any(t == float("inf") for t in thresholds)))
    return rows


def simplified_note(curves) -> str:
    """How a learner's curves are drawn when they are drawn through part of
    their points ("" when every vertex is drawn): the ROC curve's points and
    bound, and the P-R curve's bound (larger than the ROC's when a streamed
    table was reduced: precision moves more between kept rows)."""
    roc, pr = curves.roc, curves.pr
    shown = roc if roc is not None else pr
    if shown is None or not shown.simplified:
        return ""
    name = "ROC" if shown is roc else "P-R"
    if shown.vertices is None:  # a table reduced while it streamed: its vertices are not known
        of = f"{name} points through rows kept from the streamed table"
    else:
        of = f"of {fmt(shown.vertices)} {name} vertices"
    text = f"{fmt(shown.x.size)} {of}, within {fmt(shown.max_error, 2)}"
    if shown is roc and pr is not None and pr.simplified:
        text += f" (the P-R curve within {fmt(pr.max_error, 2)})"
    return text


#: the confusion matrix's cells, in ConfusionCells' order
CONFUSION_CELLS = ("tp", "fp", "tn", "fn")


def _shares(at) -> ConfusionCells:
    total = at.tp + at.fp + at.tn + at.fn
    if not total:
        return ConfusionCells(0, 0, 0, 0)
    return ConfusionCells(*(round(100 * getattr(at, k) / total) for k in CONFUSION_CELLS))
