"""The spec's checks of subgroup slices (``data[].slices``) and of the gates on
them (``gates[].slice``, ``max_gap``), each told at its key and line."""

from __future__ import annotations

from .. import registry
from ..errors import suggest
from .messages import unknown_name

__all__ = ["slice_problems"]


def _parity_names() -> list[str]:
    return [m.name for m in registry.measures_for("binary", "slice") if m.gate]


def slice_problems(spec, add) -> None:
    """``add(loc, text)`` for each problem: slices outside a binary in-memory task, a
    column named twice, a gate on a slice no data entry names (or not every entry
    of its learners), max_gap without slice, a parity difference without slice."""
    for i, src in enumerate(spec.data):
        if not src.slices:
            continue
        if spec.task != "binary":
            add(("data", i, "slices"), "slices apply to binary tasks in this version")
        elif src.engine != "memory":
            # the engines aggregate one count table per learner (and group) where the data lives;
            # a slice's AUC, curves and every measure need its own table: not carried yet
            add(("data", i, "slices"), f"slices need engine: memory (engine {src.engine} aggregates the "
                "count tables where the data lives, without the slices)")
        for j, col in enumerate(src.slices):
            if col in src.slices[:j]:
                add(("data", i, "slices", j), f"column '{col}' is named twice in slices")
    named = list(dict.fromkeys(c for src in spec.data for c in src.slices))
    parity = _parity_names()
    for g, gate in enumerate(spec.gates):
        if gate.slice is None:
            if gate.max_gap is not None:
                add(("gates", g, "max_gap"), "max_gap bounds each slice value's gap to the whole population: "
                    "give the slice column (slice: <column>)" + (f"; slices named: {', '.join(named)}"
                                                                  if named else ""))
            if gate.metric in parity:
                add(("gates", g, "metric"), f"{gate.metric} is a difference across the values of a slice "
                    "column: give the column (slice: <column>)" + (f"; slices named: {', '.join(named)}"
                                                                   if named else ""))
            continue
        if not named:
            add(("gates", g, "slice"), f"no data entry names slices, so there is no slice '{gate.slice}': "
                "add slices: [column, ...] to the data entry")
            continue
        if gate.slice not in named:
            add(("gates", g, "slice"), unknown_name("slice column", gate.slice, named))
            continue
        if gate.metric in parity and gate.max_gap is not None:
            add(("gates", g, "max_gap"), f"{gate.metric} is already a difference across the values: bound it "
                "with max (max_gap bounds a measure's gap to the whole population)")
        for i, src in enumerate(spec.data):
            if gate.slice in src.slices:
                continue
            learners = [n for n in src.learners if gate.learner in (None, n)]
            if learners:
                add(("gates", g, "slice"), f"the gate applies to learner '{learners[0]}' of data[{i}], whose "
                    f"slices do not include '{gate.slice}'{suggest(gate.slice, src.slices)}; add it there or "
                    "name the gate's learner")
                break
