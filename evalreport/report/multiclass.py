"""The template values of a multi-class report (binary.py for binary tasks):
the summary table (the task's columns, then any other registered scalar), the
per-class tables, confusion matrices, one-vs-rest curves, rankings."""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from .. import registry
from ..figures.classes import class_roc_figure, class_scores_figure, confusion_figures
from ..figures import scalars_figure
from .appendix import definitions as appendix_definitions, glossary, works_cited
from .family import family_table
from .calibration import calibration_section
from .format import UNDEFINED, Column, cells, count, fmt, measure_column, measure_interval_text, measure_text
from .headline import HeadlineTable, headline_table
from .history import with_trend_caption
from .notes import cells_with_notes
from .page import NamedCells, PopulationRow, PopulationTable, Ranking
from .summary import ShownResult, pair_heatmaps, shown_learners, shown_styles, summary_note
from .verdicts import agreed_ranking, ranking_sentence

__all__ = ["multiclass_context", "MulticlassLearnerRow", "ConfusionFigures", "ClassBalanceRow"]


@dataclass(frozen=True)
class ConfusionFigures:
    """A learner's two confusion heatmaps."""

    counts: str  # the counts' (Markup)
    shares: str  # the shares of each true class (Markup)
    side: bool  # side by side (both fit a row)


@dataclass(frozen=True)
class MulticlassLearnerRow:
    """A learner's row of the multi-class summary table, and its per-class block."""

    key: str
    color: str
    hard: bool  # hard decisions: no scores
    summary: list  # one text per summary column, then (cells_with_notes) one Cell
    per_class: list[NamedCells]  # one row per class
    detail: bool  # its per-class block and figures are drawn
    confusion: ConfusionFigures | None  # where its detail is drawn
    roc_svg: str  # its one-vs-rest ROC curves (Markup); "" where none is drawn
    curves_note: str  # how its curves are drawn through part of their points ("" for all)
    groups: list[NamedCells]  # one row per group ([] without groups)
    groups_macro: str  # the averages across groups, in words ("" without groups)


@dataclass(frozen=True)
class ClassBalanceRow:
    name: str  # the class
    support: str
    share: str

#: the summary table's own columns: (key, heading, better, value of an evaluation)
SUMMARY = (
    ("accuracy", "accuracy", "higher", lambda ev: ev.accuracy),
    ("error_rate", "error rate", "lower", lambda ev: ev.error_rate),
    ("precision", "macro-P", "higher", lambda ev: ev.averages.macro_precision),
    ("recall", "macro-R", "higher", lambda ev: ev.averages.macro_recall),
    ("macro_f1", "macro-F1 (Zhou)", "higher", lambda ev: ev.averages.macro_f1),
    ("mean_f1", "mean F1", "higher", lambda ev: ev.averages.mean_f1),
    ("micro_f1", "micro-F1", "higher", lambda ev: ev.averages.micro_f1),
    ("macro_auc", "macro AUC", "higher", lambda ev: ev.macro_auc),
    ("weighted_auc", "weighted AUC", "higher", lambda ev: ev.weighted_auc),
    # short headings: a ten-column table must not wrap them into four lines (the appendix defines each)
    ("ovo_auc", "OvO AUC", "higher", lambda ev: ev.ovo_auc),
)
#: the task's own sections of the page, after the provenance (report.html.j2)
SECTIONS = ("sections/measures_multiclass.html.j2", "sections/curves_multiclass.html.j2")
#: the confusion-matrix family's table: its title and note (report/family.py)
FAMILY = ("The confusion-matrix family of the decisions",
          "Specificity, NPV, FPR and FNR are means over the classes, each one vs rest; balanced "
          "accuracy is the mean recall; MCC and Cohen's kappa are those of the k × k matrix. "
          "Youden's J is binary only.")
#: the history's trend figure's caption: after "<what> over the N kept runs (from DATE), "
TREND_CAPTION = ("Accuracy and macro-F1", "each with its confidence interval as an error bar (the bootstrap's, "
                 "where computed; else Wilson's for the accuracy); dashed lines: the gates' bounds.")
#: registered multi-class scalars shown elsewhere (f1 and auc are the macro values
#: gates read: macro-F1 and macro AUC, already columns)
NOT_COLUMNS = frozenset({"f1", "auc"})


def multiclass_context(result, base: dict) -> dict:
    spec = result.spec
    classes = [str(c) for c in spec.classes]
    # past a handful of learners, the figures and per-learner blocks show the top
    # ones (``view``); the tables keep every learner (report/summary.py)
    drawn = shown_learners(result)
    view = ShownResult(result, drawn) if drawn else result
    styles = shown_styles(result, drawn)
    cols = _summary_columns(result)
    class_cols = [measure_column("precision"), measure_column("recall"), measure_column("f1"),
                  Column("support", "support", ""), measure_column("auc"),
                  Column("ap", registry.get("average_precision").label, registry.get("average_precision").direction)]
    learners, f1_by_class, scalar_rows = _learner_rows(result, view, styles, cols, classes)
    figs = {}
    scalar_rows = [(label, v) for label, v in scalar_rows.items() if any(x[0] is not None for x in v.values())]
    figs["scalars"] = Markup(scalars_figure(view, styles, [
        (label, {k: v for k, v in vals.items() if k in view.learners}) for label, vals in scalar_rows]))
    figs["class_scores"] = Markup(class_scores_figure(
        classes, {k: v for k, v in f1_by_class.items() if k in view.learners}, styles, "F1"))
    label = {m.name: m.ranking_label for m in registry.ranked("multiclass")}
    learners, summary_notes = cells_with_notes(result, learners, "summary", cols)
    _verdict(result, base, view, styles, drawn, label)
    rankings = [Ranking(comp.dataset or "", label[r.measure], " > ".join(r.order) if r.order else UNDEFINED)
                for comp in result.comparisons for r in comp.rankings]
    base.update(
        classes=classes,
        labels={"name": "classes", "value": ", ".join(classes)},  # the page's header line
        task_sections=SECTIONS,
        mc_columns=cols,
        class_columns=class_cols,
        mc_learners=learners,
        rankings=rankings,
        rankings_agreed=agreed_ranking(rankings),
        rankings_disagree=any(not c.rankings_agree for c in result.comparisons),
        figures=figs,
        class_balance=_class_balance(result, classes),
        summary_notes=summary_notes,
        family=family_table(result, learners, *FAMILY),
        population=_population_table(result, learners),
        priors_text=", ".join(f"{c}: {fmt(p, 6)}" for c, p in (spec.priors or {}).items()),
        definitions=(definitions := appendix_definitions(result)),
        works=works_cited(definitions),
        works_brief=works_cited(definitions, brief=True),
        glossary=glossary(result),
        pair_heatmaps=pair_heatmaps(result, drawn),
    )
    calibration_section(result, base, shown=view.learners)  # base["calibration"], and the verdict's sentences on it
    with_trend_caption(base["history"], *TREND_CAPTION)
    return base


def _summary_columns(result) -> list[Column]:
    """The summary table's columns: its own (SUMMARY), then the registered scalars
    asked for (the costs whenever there is something to show)."""
    has_cost = any(lr.evaluation.cost_sensitive_error is not None for lr in result.learners.values())
    has_bayes = any(lr.evaluation.bayes_cost is not None for lr in result.learners.values())
    cols = [Column(key, label, better) for key, label, better, _ in SUMMARY]
    own = {key for key, *_ in SUMMARY}
    metrics = result.spec.metric_set
    for m in registry.measures_for("multiclass", *registry.SCALAR_KINDS):
        if m.name in own or m.name in NOT_COLUMNS or "multiclass" not in m.compute or m.section:
            continue  # a column already, no single value for the task (per class: below), or a table of its own
        if m.name == "cost_sensitive_error" and not has_cost or m.name == "bayes_decision_cost" and not has_bayes:
            continue  # no cost matrix, or no probabilities: nothing to show
        if m.name not in ("cost_sensitive_error", "bayes_decision_cost") and m.metric and m.name not in metrics:
            continue  # not asked for (the costs are shown whenever a cost matrix is given)
        cols.append(measure_column(m.name))
    return cols


def _learner_rows(result, view, styles, cols, classes) -> tuple[list[MulticlassLearnerRow], dict, dict]:
    """Per learner its rows and, where it is in ``view``, its figures; the F1 by
    class and the values of the scalars chart, by measure then learner."""
    learners = []
    f1_by_class, scalar_rows = {}, {"accuracy": {}, "macro-F1 (Zhou)": {}, "macro AUC": {}}
    for i, (key, lr) in enumerate(result.learners.items()):
        ev, a = lr.evaluation, lr.evaluation.averages
        values = {**lr.values, **{key: get(ev) for key, _, _, get in SUMMARY}}
        per_class = []
        for cname in classes:
            m = ev.per_class[cname]
            per_class.append(NamedCells(cname, cells([fmt(v, table=True) for v in (
                m.precision, m.recall, m.f1)] + [count(m.support)] + [fmt(v, table=True) for v in (
                m.auc, m.average_precision)])))
        f1_by_class[key] = {c: ev.per_class[c].f1 for c in classes}
        boot = lr.bootstrap or {}
        scalar_rows["accuracy"][key] = (ev.accuracy, _interval(boot.get("accuracy")))
        scalar_rows["macro-F1 (Zhou)"][key] = (a.macro_f1, _interval(boot.get("macro_f1")))
        scalar_rows["macro AUC"][key] = (ev.macro_auc, None)
        groups = []
        if lr.groups is not None:
            for gname, g in lr.groups.items():
                groups.append(NamedCells(gname, cells([count(g.n)] + [fmt(v, table=True) for v in (
                    g.accuracy, g.averages.macro_f1, g.averages.mean_f1, g.macro_auc)])))
        learners.append(MulticlassLearnerRow(
            key=key, color=styles[key]["color"], hard=lr.hard,
            summary=[measure_interval_text(c.key, values.get(c.key), (lr.bootstrap or {}).get(c.key), table=True)
                     for c in cols],
            per_class=per_class,
            detail=key in view.learners,
            # the counts and the shares: two figures, side by side while both fit (else one a row)
            confusion=_confusion(key, classes, ev.confusion, f"confusion-{i}") if key in view.learners else None,
            roc_svg=Markup(class_roc_figure(key, lr.class_curves,
                                            {c: ev.per_class[c].auc for c in classes}, f"roc-{i}",
                                            styles[key]["color"]))
            if lr.class_curves and key in view.learners else "",
            curves_note=_class_curves_note(lr.class_curves) if lr.class_curves else "",
            groups=groups,
            groups_macro="" if lr.group_averages is None else
            f"across groups: macro-F1 (Zhou) {fmt(lr.group_averages.macro_f1)}, mean F1 "
            f"{fmt(lr.group_averages.mean_f1)}, micro-F1 {fmt(lr.group_averages.micro_f1)}",
        ))
    return learners, f1_by_class, scalar_rows


def _verdict(result, base: dict, view, styles, drawn, label: dict) -> None:
    """Page one's sentences (the rankings' first, then one learner's values) and headline table."""
    sentences = []
    for comp in result.comparisons:
        # the best learner opens the verdict (verdicts.recommendation)
        sentence = ranking_sentence(comp, label, f" on {comp.dataset}" if comp.dataset else "")
        if sentence:
            sentences.append(sentence)
    if len(result.learners) == 1:
        (key, lr), = result.learners.items()
        sentences.append(f"{key}: accuracy {fmt(lr.evaluation.accuracy)}, macro-F1 (Zhou) "
                         f"{fmt(lr.evaluation.averages.macro_f1)}.")
    base["verdict"]["sentences"] = sentences + base["verdict"]["sentences"]
    base["verdict"]["headline"] = _headline(view, styles)
    if drawn:
        base["verdict"]["sentences"].append(summary_note(result, drawn))


def _class_balance(result, classes: list[str]) -> list[ClassBalanceRow]:
    """Each class's support, as the first learner's evaluation counts it, and its share."""
    support = {}
    first = next(iter(result.learners.values()))
    for cname in classes:
        support[cname] = first.evaluation.per_class[cname].support
    total = sum(support.values())
    return [ClassBalanceRow(c, fmt(v), fmt(v / total, table=True) if total else UNDEFINED)
            for c, v in support.items()]


def _headline(result, styles) -> HeadlineTable | None:
    """Page one's table: per learner accuracy and macro-F1 (Zhou) with their
    bootstrap intervals, macro AUC, and ECE when computed; columns where no
    learner has a value are left out."""
    rows = []
    for key, lr in result.learners.items():
        ev, boot = lr.evaluation, lr.bootstrap or {}
        rows.append((key, styles[key]["color"], {
            "accuracy": (ev.accuracy, measure_interval_text("accuracy", ev.accuracy, boot.get("accuracy"),
                                                            table=True)),
            "macro_f1": (ev.averages.macro_f1,
                         measure_interval_text("macro_f1", ev.averages.macro_f1, boot.get("macro_f1"), table=True)),
            "macro_auc": (ev.macro_auc, measure_interval_text("macro_auc", ev.macro_auc, boot.get("macro_auc"),
                                                              table=True)),
            "ece": (lr.values.get("ece"), measure_text("ece", lr.values.get("ece"), table=True)),
        }))
    columns = [measure_column("accuracy"), measure_column("macro_f1", "macro-F1"), measure_column("macro_auc"),
               measure_column("ece")]
    return headline_table(columns, rows)


def _interval(iv):
    """A bootstrap interval for the figure, or None when it is undefined."""
    return None if iv is None or None in tuple(iv) else tuple(iv)


def _population_table(result, rows: list[MulticlassLearnerRow]) -> PopulationTable | None:
    """With priors: each learner's decisions in the population they describe (the
    summary's first columns: accuracy to mean F1; no AUC, which no mix changes)."""
    if not result.spec.priors or "population" not in result.spec.metric_set:
        return None
    shown = SUMMARY[:6]
    return PopulationTable(columns=[Column(key, label, better) for key, label, better, _ in shown],
                           rows=[PopulationRow(row.key, row.color,
                                               cells(fmt(get(lr.population), table=True) for *_, get in shown))
                                 for row, lr in zip(rows, result.learners.values())])


def _class_curves_note(class_curves) -> str:
    """How a learner's one-vs-rest ROC curves are drawn when some are drawn
    through part of their points ("" when every vertex is drawn): how many,
    the most points one keeps, and the largest bound on the distance."""
    rocs = [c.roc for c in class_curves.values() if c.roc is not None and c.roc.simplified]
    if not rocs:
        return ""
    which = "the ROC curve of 1 class" if len(rocs) == 1 else f"the ROC curves of {len(rocs)} classes"
    return (f"{which} through at most {fmt(max(r.x.size for r in rocs))} points, "
            f"within {fmt(max(r.max_error for r in rocs), 2)}")


def _confusion(key: str, classes, confusion, fig_id: str) -> ConfusionFigures:
    """A learner's confusion heatmaps for the template: the counts', the shares', and
    whether they go side by side."""
    counts, shares, side = confusion_figures(key, classes, confusion, fig_id)
    return ConfusionFigures(Markup(counts), Markup(shares), side)
