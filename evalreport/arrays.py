"""Arrays in, as scikit-learn users pass them: ``evalreport.from_predictions(y_true,
scores, ...)`` builds the spec and the in-memory table that a spec file and a
prediction file would give, and evaluates them through the same pipeline: the
same checks (their messages name ``table 'predictions'`` and its columns), the
same numbers, the same Result."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from .errors import SpecError

__all__ = ["from_predictions", "predictions_spec"]

#: the in-memory table's name (the messages and results.json's inputs name it)
TABLE = "predictions"


def _column(values, what: str) -> np.ndarray:
    try:
        a = np.asarray(values)
    except Exception as e:  # an object numpy cannot make an array of
        raise SpecError([f"{what}: not an array ({type(values).__name__}: {e})"]) from None
    if a.dtype == object or a.dtype.kind in "cmMV":
        raise SpecError([f"{what}: an array of numbers (or labels) is needed, got dtype {a.dtype}"])
    return a


def _learners(scores) -> dict:
    if isinstance(scores, Mapping):
        if not scores:
            raise SpecError(["scores: no learner (an empty mapping)"])
        return {str(k): v for k, v in scores.items()}
    return {"model": scores}


def predictions_spec(y_true, scores, *, positive=None, classes=None, priors=None, costs=None, threshold=None,
                     **spec) -> tuple[dict, dict]:
    """The spec (a dict) and the data ({name: pyarrow Table}) for
    :func:`from_predictions`; the keys in ``spec`` are the spec file's top-level
    keys (``title``, ``confidence``, ``fbeta``, ``gates``, ``deployed``, ...)."""
    import pyarrow as pa

    y = _column(y_true, "y_true")
    if y.ndim != 1:
        raise SpecError([f"y_true: one label per row is needed, got an array of shape {y.shape}"])
    learners = {name: _column(s, f"scores[{name!r}]") for name, s in _learners(scores).items()}
    for name, s in learners.items():
        if s.shape[0] != y.shape[0]:
            raise SpecError([f"scores[{name!r}]: {s.shape[0]} rows, y_true has {y.shape[0]}"])
        if s.ndim not in (1, 2):
            raise SpecError([f"scores[{name!r}]: a 1-d array (binary) or an (n, k) array (one column per "
                             f"class) is needed, got shape {s.shape}"])
    multiclass = any(s.ndim == 2 for s in learners.values())
    label = "y_true" if "y_true" not in learners else "__y_true__"
    columns = {label: y}
    entry_learners: dict = {}
    if multiclass:
        if classes is None:
            classes = [c.item() if hasattr(c, "item") else c for c in np.unique(y)]
        classes = list(classes)
        for name, s in learners.items():
            if s.ndim != 2 or s.shape[1] != len(classes):
                raise SpecError([f"scores[{name!r}]: one column per class ({len(classes)}: "
                                 f"{', '.join(map(str, classes))}) is needed, got shape {s.shape}"])
            names = [f"{name}[{c}]" for c in classes]
            columns.update({n: s[:, i] for i, n in enumerate(names)})
            entry_learners[name] = names
        head = {"task": "multiclass", "classes": classes}
    else:
        columns.update(learners)
        entry_learners = {name: name for name in learners}
        head = {"task": "binary"}
        if positive is not None:
            head["positive"] = positive.item() if hasattr(positive, "item") else positive
    if priors is not None:
        head["priors"] = priors
    if costs is not None:
        head["costs"] = costs
    if threshold is not None:
        head["threshold"] = threshold
    out = {"version": 1, **head, **spec,
           "data": [{"table": TABLE, "label": label, "learners": entry_learners}]}
    return out, {TABLE: pa.Table.from_arrays([_arrow(v) for v in columns.values()], names=list(columns))}


def _arrow(values: np.ndarray):
    """A numpy column as an Arrow array. Numbers go in as their buffer (no copy):
    ``pa.array`` would first import pandas, a fifth of a second of the first call,
    to ask whether the column is a pandas Series; labels of text or booleans go
    through ``pa.array``."""
    import pyarrow as pa

    if values.ndim == 1 and values.dtype.kind in "iuf" and values.dtype.byteorder in "=|":
        values = np.ascontiguousarray(values)
        return pa.Array.from_buffers(pa.from_numpy_dtype(values.dtype), len(values), [None, pa.py_buffer(values)])
    return pa.array(values)


def from_predictions(y_true, scores, *, positive=None, classes=None, priors=None, costs=None, threshold=None,
                     progress=None, **spec):
    """Evaluate predictions given as arrays, as a spec and a prediction file would.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        The true labels (numbers, booleans or text).
    scores : array-like or mapping
        One learner's scores (named ``model``), or {learner name: scores}. A
        1-d array of scores per row makes a binary task; an (n, k) array (one
        column per class, in the order of ``classes``) a multi-class one.
    positive : label, optional
        The positive label of a binary task (as the spec's ``positive``).
    classes : sequence, optional
        A multi-class task's classes, in the order of the score columns
        (default: the sorted distinct labels).
    priors, costs, threshold : optional
        As the spec's keys of those names (``priors: {positive: 0.1}``,
        ``costs: {false_negative: 5, false_positive: 1}``, ``threshold: 0.3``).
    progress : callable, optional
        Called with a short text at each step.
    **spec
        Any other top-level spec key (``title``, ``confidence``, ``fbeta``,
        ``gates``, ``deployed``, ``rank_by``, ...).

    Returns
    -------
    Result
        The same as :func:`evalreport.evaluate` of the equivalent spec.

    Raises
    ------
    SpecError, DataError
        With one message per problem, naming ``table 'predictions'`` and the column.

    Examples
    --------
    >>> import evalreport
    >>> y = [0, 0, 1, 1, 0, 1]
    >>> result = evalreport.from_predictions(y, {"a": [0.1, 0.4, 0.35, 0.8, 0.2, 0.7]}, positive=1,
    ...                                      confidence={"bootstrap": 0})
    >>> round(result.learners["a"].values["auc"], 4)
    0.8889
    """
    from .pipeline import evaluate_deferred  # as evalreport.evaluate does (not imported from it: no cycle)
    from .spec import load_spec

    spec_dict, data = predictions_spec(y_true, scores, positive=positive, classes=classes, priors=priors,
                                       costs=costs, threshold=threshold, **spec)
    return evaluate_deferred(load_spec(spec_dict), progress=progress, data=data)
