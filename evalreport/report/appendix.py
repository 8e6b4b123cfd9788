"""The appendix of definitions: the measures the report shows, not every measure
of the task. A spec with ``metrics: all`` computes measures that a report may
have no place for (subgroup parity without ``data[].slices``, macro and micro
averages without groups, the population's measures without priors...): their
definitions would be pages of text about numbers the reader never sees."""

from __future__ import annotations

from .. import registry
from ..result import Result

__all__ = ["shown_measures", "definitions", "glossary", "works_cited", "WORKS", "WORKS_BRIEF"]

#: the works most definitions cite, cited short in the appendix and listed once
#: under it: (the registry's long form, the short form, the full reference)
WORKS = (
    ("Zhou, Machine Learning (2016), section ", "Zhou §",
     "Zhou: Zhou Zhihua, Machine Learning, Tsinghua University Press, 2016, chapter 2."),
    ("Drummond & Holte, Cost curves (Machine Learning 65, 2006)", "Drummond & Holte",
     "Drummond & Holte: C. Drummond and R. C. Holte, Cost curves: an improved method for visualizing "
     "classifier performance, Machine Learning 65 (2006)."),
    ("Fawcett, Pattern Recognition Letters 27 (2006)", "Fawcett",
     "Fawcett: T. Fawcett, An introduction to ROC analysis, Pattern Recognition Letters 27 (2006)."),
)
#: the same works cited in a few words each, where the PDF prints the glossary
WORKS_BRIEF = {
    "Zhou §": "Zhou Zhihua, Machine Learning (2016), ch. 2",
    "Drummond & Holte": "Drummond & Holte, Machine Learning 65 (2006)",
    "Fawcett": "Fawcett, Pattern Recognition Letters 27 (2006)",
}


def shown_measures(result: Result) -> frozenset[str]:
    """The registry names whose values (or tables, curves, tests) the report of
    ``result`` prints."""
    spec = result.spec
    learners = list(result.learners.values())
    # the spec's metrics and comparisons; the measures no list names (partial AUC,
    # the intervals...) by the rules below
    names = {m.name for m in registry.measures_for(spec.task)
             if (m.metric and m.name in spec.metric_set) or (m.compare and m.name in spec.compare_set)
             or not (m.metric or m.compare)}
    grouped = any(lr.groups for lr in learners)
    absent = {
        # subgroup tables and parity: only with data[].slices
        "slice": not any(getattr(lr, "slices", None) for lr in learners),
        # binary macro and micro: over the groups' confusion matrices (multi-class
        # reports average over the classes, always)
        "average": not result.task.per_class and not grouped,
        # the population of the priors: only with priors
        "population": not spec.priors,
    }
    names = {n for n in names if not absent.get(registry.get(n).kind, False)}
    if not grouped:
        names.discard("paired_t")
    if result.friedman is None and not grouped:
        names.discard("friedman")
    if spec.thresholds is None:
        names.discard("threshold_table")
    if spec.partial_auc is None:
        names.discard("partial_auc")
    if not any(getattr(lr, "bootstrap", None) for lr in learners):
        names.discard("bootstrap")
    if not any(getattr(lr, "auc_ci", None) for lr in learners):
        names.discard("auc_ci")
    if len(learners) < 2:  # nothing is compared
        names -= {m.name for m in registry.MEASURES.values() if m.kind in ("comparison", "test")}
    return frozenset(names)


def definitions(result: Result) -> dict[str, str]:
    """label -> definition of each measure the report shows, and the terms; the
    works of :data:`WORKS` cited short (the appendix lists them once)."""
    out = {}
    for label, text in registry.definitions(result.spec.task, shown_measures(result)).items():
        for long, short, _ in WORKS:
            text = text.replace(long, short)
        out[label] = text
    return out


def glossary(result: Result) -> dict[str, str]:
    """label -> the one-line form (:mod:`evalreport.glossary`) of each measure the
    report shows, and the terms: the PDF's appendix, where the full definitions
    took pages (the HTML report prints :func:`definitions`)."""
    from ..glossary import brief, term_brief

    shown = shown_measures(result)
    out = {m.label: brief(m.name, m.definition) for m in registry.measures_for(result.spec.task)
           if m.name in shown}
    out.update({t.name: term_brief(t) for t in registry.TERMS
                if result.spec.task in t.tasks})
    return out


def works_cited(definitions: dict[str, str], *, brief: bool = False) -> list[str]:
    """The full references of the works the definitions cite short (``brief``: in
    a few words each, for the glossary)."""
    texts = " ".join(definitions.values())
    return [WORKS_BRIEF[short] if brief else full for _, short, full in WORKS if short in texts]
