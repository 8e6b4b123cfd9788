"""Intervals when asked for (the Python API; issue 38).

``evalreport.evaluate()`` and ``evalreport.from_predictions()`` return at once
with the point values: the pipeline's load, check and evaluate stages run with
the bootstrap left out (``confidence.bootstrap: 0``), which is all the learners'
point values need. Everything an interval can change is deferred: the learners'
``bootstrap``, ``population``, ``slices`` and ``auc_ci``, and the result's
``gates``, ``comparisons``, ``warnings``, ``friedman``, ``history`` and
``verdict`` (a gate's outcome, a test, a warning and the verdict depend on the
intervals). The first read of any of them (the views that read them too:
``to_dict``, ``to_frame``, ``_repr_html_``, ``render``, the plots of a Result), or
:meth:`DeferredResult.with_intervals`,
runs the whole pipeline once, as the command line does (the same spec, seed and
numbers), and caches that full result; every later read comes from it.

The command line never defers: ``evalreport run`` evaluates in full
(:func:`evalreport.pipeline.evaluate`), so its results.json keeps every interval.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Callable

from .result import Result

__all__ = ["DeferredResult", "DEFERRED_LEARNER_FIELDS", "DEFERRED_RESULT_FIELDS"]

#: what a learner's bootstrap (or the compare stage) fills: read from the full result
DEFERRED_LEARNER_FIELDS = frozenset({"auc_ci", "bootstrap", "population", "slices", "resampled"})
#: what depends on the intervals, the tests or the warnings of the whole run
DEFERRED_RESULT_FIELDS = frozenset({"gates", "comparisons", "warnings", "friedman", "history", "verdict",
                                    "attached_data",  # report.attach: [data], made with the full run
                                    # built by the pipeline from all of the above (pipeline.with_blocks)
                                    "leaderboard", "json_core", "published"})

_classes: dict[type, type] = {}


def _learner_class(cls: type) -> type:
    """A subclass of the task's learner result whose deferred fields read the full
    result's learner (isinstance and the methods stay the learner's own)."""
    if cls not in _classes:
        def __getattribute__(self, name):
            if name in DEFERRED_LEARNER_FIELDS:
                return getattr(object.__getattribute__(self, "_full_learner")(), name)
            return object.__getattribute__(self, name)

        _classes[cls] = type(cls.__name__, (cls,), {"__getattribute__": __getattribute__,
                                                     "__module__": cls.__module__,
                                                     "__qualname__": cls.__qualname__})
    return _classes[cls]


def _deferred_learner(lr, full: Callable[[], Result]):
    out = object.__new__(_learner_class(type(lr)))
    for f in fields(lr):
        object.__setattr__(out, f.name, getattr(lr, f.name))
    key = lr.key
    object.__setattr__(out, "_full_learner", lambda: full().learners[key])
    return out


class DeferredResult(Result):
    """A :class:`Result` whose intervals (and all that depends on them) are computed
    on first access, or by :meth:`with_intervals`: see :mod:`evalreport.deferred`."""

    def __init__(self, quick: Result | None = None, compute: Callable[[], Result] | None = None, **values):
        if quick is None:  # dataclasses.replace of a deferred result: a full one
            Result.__init__(self, **values)
            object.__setattr__(self, "_compute", None)
            object.__setattr__(self, "_full", self)
            return
        for f in fields(Result):
            object.__setattr__(self, f.name, getattr(quick, f.name))
        object.__setattr__(self, "_compute", compute)
        object.__setattr__(self, "_full", None)
        object.__setattr__(self, "learners", {k: _deferred_learner(lr, self.with_intervals)
                                              for k, lr in quick.learners.items()})

    def __getattribute__(self, name):
        if name in DEFERRED_RESULT_FIELDS:
            full = object.__getattribute__(self, "with_intervals")()
            if full is not self:
                return getattr(full, name)
        return object.__getattribute__(self, name)

    @property
    def intervals_computed(self) -> bool:
        """Whether the full result (with the intervals) has been computed."""
        return object.__getattribute__(self, "_full") is not None

    def with_intervals(self) -> Result:
        """The full result: every interval, test, gate outcome, warning and the verdict,
        computed once (the same numbers as ``evalreport run``) and cached."""
        full = object.__getattribute__(self, "_full")
        if full is None:
            full = object.__getattribute__(self, "_compute")()
            object.__setattr__(self, "_full", full)
        return full

    def __reduce__(self):  # a copy or a pickle is the full result
        return self.with_intervals().__reduce__()
