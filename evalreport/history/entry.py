"""An archived results.json, read and checked once (the history archive and ``evalreport diff``).

A run's results.json that has been edited, damaged or written by something else
must not reach the history's arithmetic: a text where a number belongs raises a
TypeError deep in DeLong's test, a NaN token cannot be written back into
results.json, a negative variance has no square root. So the shape of each
value the history reads (:mod:`.changes`, :mod:`.drift`, :mod:`.multiclass`,
:mod:`.trend`) is checked here, when the file is read, and nowhere else: the
reader returns the parsed dict or raises :class:`BadEntry` with the key path of
the first value that is wrong. The archive turns that into a warning naming the
entry (and the run goes on without it); ``evalreport diff`` into exit 2.

JSON that Python's parser would take but results.json never holds is refused
too: the tokens NaN and Infinity, numbers that overflow to infinity, nesting
deeper than the parser's recursion allows.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from ..words import general

__all__ = ["BadEntry", "check_run", "parse_run", "read_run"]

#: a learner's values that are a proportion in [0, 1] or null (results.json's scalars the history reads)
_PROPORTIONS = ("auc", "accuracy", "precision", "recall", "specificity", "f1")
#: a learner's values that are a count (>= 0) or null
_COUNTS = ("positives", "negatives")
#: the largest count: beyond 2^53 a float holds no count exactly, and the tests' products of
#: counts would overflow
_COUNT_MAX = float(2 ** 53)
#: the largest cost (in the spec's units): the changes' arithmetic on it stays finite
_COST_MAX = 1e15
#: the largest total weight of a class's score summary: the classes' weights are summed
_WEIGHT_MAX = 1e300
#: the bootstrap intervals the history reads (bootstrap.<name>: [lo, hi])
_BOOTSTRAPPED = ("f1", "expected_total_cost", "macro_f1")


class BadEntry(ValueError):
    """A results.json that cannot be read as one: ``reason`` says where and why."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def _no_constant(token: str):
    raise BadEntry(f"not JSON (the token {token} is not a JSON number)")


def _finite_float(text: str) -> float:
    x = float(text)
    if not math.isfinite(x):
        raise BadEntry(f"not JSON (the number {text[:40]} is out of range)")
    return x


def parse_run(raw: bytes) -> dict:
    """The JSON text of a results.json, parsed and checked (:func:`check_run`)."""
    try:
        data = json.loads(raw, parse_constant=_no_constant, parse_float=_finite_float)
    except BadEntry:
        raise
    except RecursionError:
        raise BadEntry("not JSON (nested too deeply)") from None
    except ValueError as e:  # UnicodeDecodeError included
        raise BadEntry(f"not JSON ({e})") from None
    check_run(data)
    return data


def read_run(path) -> dict:
    """The results.json at ``path``, parsed and checked; OSError as it comes."""
    return parse_run(Path(path).read_bytes())


def _is_number(x) -> bool:
    # bool is an int in Python, not a number in results.json; ints beyond a float's range too
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return False
    try:
        return math.isfinite(float(x))
    except OverflowError:
        return False


def _number(x, where: str, *, low: float | None = None, high: float | None = None, null: bool = True) -> None:
    if x is None and null:
        return
    if not _is_number(x):
        raise BadEntry(f"{where} must be a number{' or null' if null else ''}, not {_shown(x)}")
    if low is not None and x < low:
        raise BadEntry(f"{where} must be at least {general(low)}, not {_shown(x)}")
    if high is not None and x > high:
        raise BadEntry(f"{where} must be at most {general(high)}, not {_shown(x)}")


def _count(x, where: str) -> None:
    _number(x, where, low=0, high=_COUNT_MAX)


def _proportion(x, where: str) -> None:
    _number(x, where, low=0, high=1)


def _cost(x, where: str) -> None:
    _number(x, where, low=-_COST_MAX, high=_COST_MAX)


def _shown(x) -> str:
    if isinstance(x, (dict, list)):
        return f"a JSON {'object' if isinstance(x, dict) else 'array'}"
    text = json.dumps(x)
    if isinstance(x, float) and "e" in text:  # the skipped entry's warning is in the report: no exponents
        text = general(x)
    return text if len(text) <= 40 else text[:37] + "..."


def _object(x, where: str, *, null: bool = True) -> dict | None:
    if x is None and null:
        return None
    if not isinstance(x, dict):
        raise BadEntry(f"{where} must be an object{' or null' if null else ''}, not {_shown(x)}")
    return x


def _text(x, where: str) -> None:
    if x is not None and not isinstance(x, str):
        raise BadEntry(f"{where} must be a text or null, not {_shown(x)}")


def _pair(x, where: str, check=_cost) -> None:
    """An interval: [lo, hi] of numbers (either may be null), or null."""
    if x is None:
        return
    if not isinstance(x, list) or len(x) != 2:
        raise BadEntry(f"{where} must be an interval [lo, hi] or null, not {_shown(x)}")
    for i, v in enumerate(x):
        check(v, f"{where}[{i}]")


def _summary(s, where: str) -> None:
    """One class's score summary ({"kind": "values" | "quantiles", ...})."""
    kind = s.get("kind")
    if kind == "values":
        keys = ("values", "weights")
    elif kind == "quantiles":
        keys = ("values", "probabilities")
        _number(s.get("weight"), f"{where}.weight", low=0, high=_WEIGHT_MAX)
    else:
        raise BadEntry(f"{where}.kind must be 'values' or 'quantiles', not {_shown(kind)}")
    lists = []
    for key in keys:
        xs = s.get(key)
        if not isinstance(xs, list):
            raise BadEntry(f"{where}.{key} must be an array of numbers, not {_shown(xs)}")
        for i, v in enumerate(xs):
            _number(v, f"{where}.{key}[{i}]", null=False, low=0 if key != "values" else None,
                    high=1 if key == "probabilities" else None)
        lists.append(xs)
    if len(lists[0]) != len(lists[1]):
        raise BadEntry(f"{where}: {len(lists[0])} values but {len(lists[1])} {keys[1]}")
    if kind == "values" and math.fsum(lists[1]) > _WEIGHT_MAX:
        raise BadEntry(f"{where}.weights: their sum is beyond {general(_WEIGHT_MAX)}")


def _score_summary(s, where: str) -> None:
    """A learner's score_summary: one summary, or {class: summary or null}."""
    if _object(s, where) is None:
        return
    if "kind" in s:
        _summary(s, where)
        return
    for cls, one in s.items():
        if _object(one, f"{where}.{cls}") is not None:
            _summary(one, f"{where}.{cls}")


def _learner(block, where: str) -> None:
    _object(block, where, null=False)
    for key in _PROPORTIONS:
        _proportion(block.get(key), f"{where}.{key}")
    _cost(block.get("expected_total_cost"), f"{where}.expected_total_cost")
    for key in _COUNTS:
        _count(block.get(key), f"{where}.{key}")
    # DeLong's variance of an AUC (in [0, 1]): a square root is taken of it
    _number(block.get("auc_variance"), f"{where}.auc_variance", low=0, high=1)
    threshold = block.get("threshold")
    if not (threshold is None or isinstance(threshold, str) or _is_number(threshold)):
        raise BadEntry(f"{where}.threshold must be a number, a text or null, not {_shown(threshold)}")
    dataset = block.get("dataset")
    if not (dataset is None or isinstance(dataset, str) or _is_number(dataset)):
        raise BadEntry(f"{where}.dataset must be a text or null, not {_shown(dataset)}")
    _pair(block.get("auc_ci"), f"{where}.auc_ci", _proportion)
    macro = _object(block.get("macro"), f"{where}.macro")
    if macro is not None:
        _proportion(macro.get("f1"), f"{where}.macro.f1")
    op = _object(block.get("operating_point"), f"{where}.operating_point")
    if op is not None:
        _cost(op.get("min_cost"), f"{where}.operating_point.min_cost")
    confusion = _object(block.get("confusion"), f"{where}.confusion")
    if confusion is not None:
        for key in ("tp", "fp", "tn", "fn"):
            if key not in confusion:
                raise BadEntry(f"{where}.confusion has no {key}")
            _count(confusion[key], f"{where}.confusion.{key}")
    matrix = block.get("confusion_matrix")
    if matrix is not None:
        if not isinstance(matrix, list) or any(not isinstance(row, list) or len(row) != len(matrix)
                                               for row in matrix):
            raise BadEntry(f"{where}.confusion_matrix must be a square array of counts, not {_shown(matrix)}")
        for i, row in enumerate(matrix):
            for j, v in enumerate(row):
                _count(v, f"{where}.confusion_matrix[{i}][{j}]")
    counts = _object(block.get("class_counts"), f"{where}.class_counts")
    if counts is not None:
        for cls, v in counts.items():
            _count(v, f"{where}.class_counts.{cls}")
    bootstrap = _object(block.get("bootstrap"), f"{where}.bootstrap")
    if bootstrap is not None:
        _number(bootstrap.get("level"), f"{where}.bootstrap.level", low=0, high=1)
        for key in _BOOTSTRAPPED:
            check = _cost if key == "expected_total_cost" else _proportion
            _pair(bootstrap.get(key), f"{where}.bootstrap.{key}", check)
    _score_summary(block.get("score_summary"), f"{where}.score_summary")


def check_run(data) -> None:
    """Raise :class:`BadEntry` where ``data`` (a parsed results.json) holds a value
    of a shape the history cannot read; the key path says which."""
    if not isinstance(data, dict) or not isinstance(data.get("learners"), dict):
        raise BadEntry("not an evalreport results.json (no learners)")
    for key in ("date", "title", "task"):
        _text(data.get(key), key)
    for name, block in data["learners"].items():
        _learner(block, f"learners.{name}")
