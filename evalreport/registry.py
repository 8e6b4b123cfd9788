"""The registry of measures: each measure declared once.

An entry says what a measure is called (the spec's ``metrics:``, ``compare:``
and ``gates[].metric`` names and the results.json key), which tasks it applies
to, which way is better, what kind of thing it is, its definition and the
reference it follows, how its value is read off a learner's evaluation, how it
is printed, and whether gates and rankings may use it. Everything that lists
measures reads this table: the spec's name lists and its JSON Schema, the
results.json writer, the report's tables and its appendix of definitions, the
rankings, the gates, ``evalreport measures`` and the README's measure table.

Adding a measure is one pure function (in :mod:`evalreport.metrics`), one entry
in :mod:`evalreport.registry_entries` (with ``compute`` calling the function on the
learner's evaluation) and its tests; see docs/architecture.md. What an entry is:
:mod:`evalreport.measure`.

This module and those two import nothing else of the package at import time (a
measure's pure function is imported when it is first computed), so every layer
may read it.
"""

from __future__ import annotations

from collections.abc import Collection

from .measure import GATE_KINDS, HISTORY_METHODS, KINDS, SCALAR_KINDS, TASKS, UNITS, Measure, Term, Undefined
from .registry_entries import ENTRIES, TERMS

__all__ = ["Measure", "Term", "Undefined", "MEASURES", "TERMS", "KINDS", "SCALAR_KINDS", "GATE_KINDS", "TASKS",
           "UNITS", "HISTORY_METHODS", "register", "unregister", "get", "measures_for", "metric_names",
           "gate_names", "comparison_names", "ranked", "history_measures", "change_names", "reads",
           "definitions", "as_records", "markdown_table"]

#: name -> measure, in the registry's order (the order of results.json and of the report)
MEASURES: dict[str, Measure] = {}


def register(measure: Measure, *, after: str | None = None) -> Measure:
    """Add ``measure`` (at the end, or right after ``after``). Names are unique."""
    if measure.name in MEASURES:
        raise ValueError(f"measure {measure.name!r} is already registered")
    if after is None:
        MEASURES[measure.name] = measure
    else:
        items = list(MEASURES.items())
        at = [k for k, _ in items].index(after) + 1
        items.insert(at, (measure.name, measure))
        MEASURES.clear()
        MEASURES.update(items)
    return measure


def unregister(name: str) -> None:
    MEASURES.pop(name)


for _m in ENTRIES:
    register(_m)
del _m


def get(name: str) -> Measure:
    return MEASURES[name]


def measures_for(task: str, *kinds: str) -> list[Measure]:
    """The measures of ``task`` (of the given kinds), in the registry's order."""
    return [m for m in MEASURES.values() if task in m.tasks and (not kinds or m.kind in kinds)]


def metric_names() -> tuple[str, ...]:
    """The names the spec's ``metrics:`` list accepts."""
    return tuple(m.name for m in MEASURES.values() if m.metric)


def gate_names() -> tuple[str, ...]:
    """The names ``gates[].metric`` accepts."""
    return tuple(m.name for m in MEASURES.values() if m.gate)


def comparison_names() -> tuple[str, ...]:
    """The names the spec's ``compare:`` list accepts."""
    return tuple(m.name for m in MEASURES.values() if m.compare)


def ranked(task: str) -> list[Measure]:
    """The measures ``task`` ranks its learners by, in the rankings' order."""
    return sorted((m for m in MEASURES.values() if task in m.rank), key=lambda m: m.rank[task])


def history_measures(task: str) -> list[Measure]:
    """The measures the history diff compares for ``task``, in its table's order: by
    method (HISTORY_METHODS), then in the registry's order."""
    found = [m for m in MEASURES.values() if task in m.history]
    return sorted(found, key=lambda m: HISTORY_METHODS.index(m.history[task]))


def change_names(task: str) -> tuple[str, ...]:
    """The names a gate on the change since the previous run (max_drop,
    significant_drop) accepts for ``task``."""
    return tuple(m.name for m in history_measures(task))


def reads(name: str, task: str) -> str:
    """The measure whose value ``name`` reads for ``task`` (its ``alias``; an unknown
    name is itself)."""
    m = MEASURES.get(name)
    return name if m is None else m.reads(task)


def definitions(task: str, names: Collection[str] | None = None) -> dict[str, str]:
    """The appendix: label -> definition of every measure of ``task`` (of those named
    in ``names``, when given) and of the terms."""
    out = {}
    for m in measures_for(task):
        if names is not None and m.name not in names:
            continue
        undefined = f" Undefined when: {m.undefined}." if m.undefined else ""
        out[m.label] = f"{m.definition}{undefined} ({m.reference})"
    out.update({t.name: t.definition for t in TERMS if task in t.tasks})
    return out


def as_records() -> list[dict]:
    """The registry for people and programs (``evalreport measures --format json``)."""
    return [{"name": m.name, "label": m.label, "tasks": list(m.tasks), "direction": m.direction,
             "kind": m.kind, "unit": m.unit if m.scalar else None, "definition": m.definition,
             "reference": m.reference,
             "undefined_when": m.undefined or None, "spec": [k for k, on in (
                 ("metrics", m.metric), ("gates", m.gate), ("compare", m.compare)) if on],
             "ranked": sorted(m.rank, key=TASKS.index), "results_json": dict(m.json_path),
             "history": dict(m.history), "aliases": dict(m.alias)}
            for m in MEASURES.values()]


def markdown_table() -> str:
    """The README's measure table (tests/test_registry.py keeps the README in step)."""
    rows = ["| name | measure | tasks | better | definition | undefined when |", "|---|---|---|---|---|---|"]
    for m in MEASURES.values():
        better = {"higher": "higher", "lower": "lower", "none": ""}[m.direction]
        tasks = ", ".join("multi-class" if t == "multiclass" else t for t in m.tasks)
        # "[" escaped: "cost[i][j]" would otherwise read as a Markdown reference link
        definition = m.definition.replace("[", "\\[")
        rows.append(f"| `{m.name}` | {m.label} | {tasks} | {better} | {definition} | {m.undefined} |")
    return "\n".join(rows) + "\n"
