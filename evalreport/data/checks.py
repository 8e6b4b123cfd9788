"""The values of a prediction file's columns, checked, each problem told by
file, column and row with the spec's key and line: labels (binary or
classes), scores, hard decisions, weights (scaled when their scale would
break the arithmetic), ids (none missing or repeated), groups, and a
column's type before its values.
"""

from __future__ import annotations

import math

import numpy as np

from ..arrow import arrow_to_numpy
from ..counting import SCALE_ADVICE, weight_scale_problem
from ..metrics.labels import label_key
from ..spec import Spec, locate, suggest
from .source import with_article, python_value


def _first_row(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0]) + 1


def to_numpy(col):
    """A column as a NumPy array; strings stay strings (an object array, as
    pyarrow's to_numpy gives), nulls are reported by the caller.

    Numbers and text without pandas: ``to_numpy`` imports it, 0.17 s of a small
    run (text through Python objects costs about 0.03 s more per million rows)."""
    if isinstance(col, np.ndarray):
        return col
    import pyarrow as pa

    t = col.type
    if col.null_count == 0 and (pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_boolean(t)):
        return np.concatenate([arrow_to_numpy(ch) for ch in col.chunks]) if col.num_chunks else \
            np.zeros(0, dtype=t.to_pandas_dtype())
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        out = np.empty(len(col), dtype=object)
        out[:] = col.to_pylist()
        return out
    return col.to_numpy(zero_copy_only=False)


def null_row(col, *, nan: bool = True) -> int | None:
    """Row of the first missing value: null, or (``nan``) NaN in a NumPy float
    column (Parquet and NPZ floats arrive as NumPy; the CSV reader makes NaN null)."""
    if isinstance(col, np.ndarray):
        if nan and col.dtype.kind == "f" and col.ndim == 1:
            missing = np.isnan(col)
            return _first_row(missing) if missing.any() else None
        return None
    if col.null_count == 0:
        return None
    import pyarrow.compute as pc

    mask = pc.is_null(col).to_numpy(zero_copy_only=False)
    return _first_row(mask)


class Problems:
    def __init__(self, spec: Spec):
        self.spec = spec
        self.items: list[str] = []

    def add(self, loc, text):
        self.items.append(locate(self.spec, loc, text))


def numeric(col, *, what: str, display: str, column: str, loc, problems: Problems,
             allow_negative=True):
    """A numeric, finite float64 column, or None after recording the problem."""
    null = null_row(col, nan=False)  # (NaN in NumPy floats: said below)
    if null is not None:
        problems.add(loc, f"{display}: column '{column}', row {null}: missing value (empty, NA or NaN)")
        return None
    arr = to_numpy(col)
    if arr.ndim != 1:
        problems.add(loc, f"{display}: column '{column}' is not one-dimensional")
        return None
    if arr.dtype.kind not in "biuf":
        bad = None
        for i, v in enumerate(arr):
            try:
                float(v)
            except (TypeError, ValueError):
                bad = (i + 1, v)
                break
        if bad is None:
            arr = arr.astype(np.float64)
        else:
            # (a quote left open swallows the lines below into one field)
            hint = " (a quoted field that is not closed?)" if "\n" in str(bad[1]) else ""
            problems.add(loc, f"{display}: column '{column}', row {bad[0]}: {what} {bad[1]!r} "
                         f"is not a number{hint}")
            return None
    arr = arr.astype(np.float64, copy=False)
    finite = np.isfinite(arr)
    if not finite.all():
        row = _first_row(~finite)
        kind = "NaN" if np.isnan(arr[row - 1]) else "infinite"
        problems.add(loc, f"{display}: column '{column}', row {row}: {kind} {what}")
        return None
    if not allow_negative and (arr < 0).any():
        row = _first_row(arr < 0)
        problems.add(loc, f"{display}: column '{column}', row {row}: negative {what} {python_value(arr[row - 1])!r}")
        return None
    return arr


def _integers(col):
    """A null-free Arrow column of integers or booleans as NumPy (off its
    buffers), else the column as it is: labels and decisions such as 0/1 are
    then counted and compared by NumPy, and a run reading them never imports
    pyarrow.compute (about 0.03 s of CPU).
    (Floats stay Arrow's: its hashing and NumPy's equality may differ on -0.0.)"""
    if isinstance(col, np.ndarray) or col.null_count:
        return col
    import pyarrow as pa

    t = col.type
    return to_numpy(col) if pa.types.is_integer(t) or pa.types.is_boolean(t) else col


def distinct(col):
    """Distinct values of a column, the row index where each first occurs, and
    each value as :func:`_equal_mask` takes it (for pyarrow an Arrow scalar: a
    Python value makes pyarrow import pandas, about 0.17 s of a small run).

    Hash-based through pyarrow (no sort of the whole column); NumPy for .npz
    and for Arrow integers and booleans (:func:`_integers`).
    """
    col = _integers(col)
    if isinstance(col, np.ndarray):
        if col.dtype.kind in "biu" and col.size:
            lo, hi = col.min().item(), col.max().item()
            if hi - lo < 64:  # labels: a pass per possible value beats np.unique's sort
                values, first = [], []
                for v in range(int(lo), int(hi) + 1):
                    at = int(np.argmax(col == v))
                    if col[at] == v:
                        values.append(col[at])
                        first.append(at)
                return values, first, values
        values, first = np.unique(col if col.dtype.kind in "biuf" else col.astype(str), return_index=True)
        return list(values), [int(f) for f in first], list(values)
    import pyarrow.compute as pc

    unique = pc.unique(col)
    values, scalars = unique.to_pylist(), list(unique)
    first = [int(pc.index(col, v).as_py()) for v in scalars] if len(values) <= 16 else [0] * len(values)
    return values, first, scalars


def _equal_mask(col, value) -> np.ndarray:
    col = _integers(col)  # as distinct read it, whose values come here
    if isinstance(col, np.ndarray):
        return (col if col.dtype.kind in "biuf" else col.astype(str)) == value
    import pyarrow.compute as pc

    mask = pc.equal(col, value)  # no nulls: the caller has reported them
    # off the buffers: to_numpy imports pandas (about 0.17 s of a small run)
    return np.concatenate([arrow_to_numpy(ch) for ch in mask.chunks]) if mask.num_chunks else \
        np.zeros(0, dtype=bool)


def _empty_label_row(col, values) -> int | None:
    """Row of the first empty text label of a CSV/TSV column. pyarrow's CSV
    reader keeps an empty text cell as '' (DuckDB and Spark read it as
    null): as a label it would pass for a class of its own, the negative one
    if it is the only other. (In Parquet, JSONL and NPZ '' is a value.)"""
    if "" not in values:
        return None
    return _first_row(_equal_mask(col, ""))


def empty_text_row(col) -> int | None:
    """Row of the first empty cell of a CSV/TSV text column ('' there, not null)."""
    import pyarrow as pa

    if not isinstance(col, pa.ChunkedArray) or not pa.types.is_string(col.type):
        return None
    import pyarrow.compute as pc

    # by length: comparing with a Python "" (and to_numpy) would import pandas
    lengths = pc.utf8_length(col)
    if not lengths.num_chunks:
        return None
    empty = np.concatenate([arrow_to_numpy(ch) for ch in lengths.chunks]) == 0
    return _first_row(empty) if empty.any() else None


#: weights whose largest lies outside [2**-WEIGHT_EXPONENT, 2**WEIGHT_EXPONENT]
#: are scaled by a power of two (see scaled_weights)
WEIGHT_EXPONENT = 256


def scaled_weights(w: np.ndarray, display, column, loc, problems, notes: list) -> np.ndarray | None:
    """The weights, checked: not all 0, and scaled by a power of two when their
    scale would break the arithmetic.

    Every measure is a ratio of weight sums, so it does not depend on the
    weights' scale; but sums of weights near 1e308 overflow to inf, and
    products of sums (AUC's pairs) of weights below about 1e-154, subnormal
    ones above all, underflow to 0, and both give NaN. Scaling by a power of
    two is exact (every sum and ratio is the same, bar weights below 2**-1074
    of the largest, which become 0), so the measures are computed correctly;
    the counts are then in the scaled unit, which a warning says. Weights of
    an ordinary scale are left as they are, counts and all."""
    top = float(w.max()) if w.size else 0.0
    if top == 0.0:
        problems.add(loc, f"{display}: column '{column}': every weight is 0, so the total weight is 0 and "
                     "no measure is defined")
        return None
    exponent = math.frexp(top)[1]
    if abs(exponent) <= WEIGHT_EXPONENT:
        return w
    notes.append(scale_note(display, column, top, exponent))
    return np.ldexp(w, -exponent)


def weight_exponent(top: float) -> int:
    """The power of two the weights are scaled by (``2**-exponent``), their largest
    being ``top``: 0 for weights of an ordinary scale (see :func:`scaled_weights`)."""
    if not top > 0 or not math.isfinite(top):
        return 0
    exponent = math.frexp(top)[1]
    return exponent if abs(exponent) > WEIGHT_EXPONENT else 0


def scale_note(display, column, top: float, exponent: int) -> str:
    """The warning that the weights are scaled by ``2**-exponent`` (every engine's words)."""
    from ..number_style import magnitude

    why = ("sums and products of weights this large overflow" if exponent > 0 else
           "products of sums of weights this small underflow")
    return (f"{display}: column '{column}': the weights are scaled by 2^{-exponent} (the largest is "
            f"{magnitude(top)}: {why}); the measures do not depend on the weights' scale, but the counts "
            "(TP, FP, TN, FN, positives, negatives) are in the scaled unit")


def class_weight_problem(weights: np.ndarray, labels: np.ndarray, k: int) -> str | None:
    """:func:`weight_scale_problem` of each class against the rest (the weights
    already scaled: only classes whose totals lie some 290 orders of magnitude
    apart are left to fail)."""
    if labels.dtype == bool:
        by_class = np.array([weights[~labels].sum(), weights[labels].sum()])
    else:
        by_class = np.bincount(labels, weights=weights, minlength=k)
    for i in range(by_class.size):
        # the rest summed apart (total - class would cancel to 0 against a class far heavier)
        problem = weight_scale_problem(by_class[i], np.delete(by_class, i).sum())
        if problem is not None:
            return problem
    return None


def engine_weight_problem(src, table) -> str | None:
    """The memory path's weight checks on an engine's table (the weights stay
    where the data lives, so they cannot be scaled here)."""
    if src.weight is None:
        return None
    pos, neg = float(table.positives), float(table.negatives)
    if pos + neg == 0:
        return (f"{src.path}: column '{src.weight}': every weight is 0, so the total weight is 0 and no "
                "measure is defined")
    problem = weight_scale_problem(pos, neg)
    if problem is None:
        return None
    return f"{src.path}: column '{src.weight}': {problem} ({SCALE_ADVICE}){MEMORY_SCALES}"


#: an engine's weights stay where the data lives; in memory they are scaled (scaled_weights)
MEMORY_SCALES = "; engine: memory scales them itself"


def binary_labels(col, spec: Spec, display, column, loc, problems, *, empty_is_missing=False) -> np.ndarray | None:
    """Labels as a boolean array (True = positive), checked."""
    null = null_row(col)
    if null is not None:
        problems.add(loc, f"{display}: column '{column}', row {null}: missing label")
        return None
    positive = label_key(spec.positive_label)
    values, first, scalars = distinct(col)
    empty = _empty_label_row(col, values) if empty_is_missing and positive else None
    if empty is not None:
        problems.add(loc, f"{display}: column '{column}', row {empty}: missing label (empty)")
        return None
    keys = [label_key(v) for v in values]
    order = sorted(range(len(keys)), key=lambda i: keys[i])
    if positive not in keys:
        shown = ", ".join(repr(keys[i]) for i in order[:5]) + (", ..." if len(keys) > 5 else "")
        hint = suggest(positive, keys) + yaml_boolean_hint(spec)
        problems.add(positive_loc(spec, loc),
                     f"{display}: the positive label {spec.positive_label!r} does not occur in column "
                     f"'{column}' (labels: {shown}){hint}")
        return None
    if len(keys) > 2:
        others = sorted((first[i], keys[i]) for i in range(len(keys)) if keys[i] != positive)
        row, label = others[1]
        shown = ", ".join(repr(keys[i]) for i in order[:6])
        problems.add(loc, f"{display}: column '{column}', row {row + 1}: label {label!r} makes "
                     f"{len(keys)} labels ({shown}); a binary task has the positive label and one other")
        return None
    return _equal_mask(col, scalars[keys.index(positive)])


def positive_loc(spec: Spec, loc):
    """Where a positive label that does not occur is reported: at the spec's
    ``positive`` key when it is written, else at the data source's ``loc``."""
    return ("positive",) if spec._locator and ("positive",) in spec._locator.lines else loc


def yaml_boolean_hint(spec: Spec) -> str:
    if isinstance(spec.positive, bool):
        return " (YAML reads yes, no, on, off, true and false as booleans: quote a text label)"
    return ""


def class_labels(col, spec: Spec, display, column, loc, problems, *, what: str,
                  empty_is_missing=False) -> np.ndarray | None:
    """Multi-class labels as class indices (0..k-1, in ``classes`` order), checked."""
    null = null_row(col)
    if null is not None:
        problems.add(loc, f"{display}: column '{column}', row {null}: missing {what}")
        return None
    keys = [label_key(c) for c in spec.classes]
    values, first, scalars = distinct(col)
    empty = _empty_label_row(col, values) if empty_is_missing and "" not in keys else None
    if empty is not None:
        problems.add(loc, f"{display}: column '{column}', row {empty}: missing {what} (empty)")
        return None
    value_keys = [label_key(v) for v in values]
    unknown = [(f, k) for k, f in zip(value_keys, first) if k not in keys]
    if unknown:
        f, k = min(unknown)
        problems.add(loc, f"{display}: column '{column}', row {f + 1}: {what} {k!r} is not one of the "
                     f"classes ({', '.join(repr(c) for c in keys)}){suggest(k, keys)}")
        return None
    out = np.empty(len(col), dtype=np.int64)
    for v, k in zip(scalars, value_keys):
        out[_equal_mask(col, v)] = keys.index(k)
    return out


def decisions(col, labels_keys, spec, display, column, loc, problems) -> np.ndarray | None:
    """Hard decisions as booleans (True = predicted positive)."""
    null = null_row(col)
    if null is not None:
        problems.add(loc, f"{display}: column '{column}', row {null}: missing decision")
        return None
    positive = label_key(spec.positive_label)
    values, first, scalars = distinct(col)
    keys = [label_key(v) for v in values]
    extra = [(f, k) for k, f in zip(keys, first) if k not in labels_keys]
    if len(labels_keys) == 1 and len(extra) == 1:
        extra = []  # the labels hold the positive class only: the other decision is the negative label
    if extra:
        f, k = min(extra)
        problems.add(loc, f"{display}: column '{column}', row {f + 1}: decision {k!r} is not a "
                     f"label of the task ({', '.join(repr(x) for x in sorted(labels_keys))})")
        return None
    if positive not in keys:
        return np.zeros(len(col), dtype=bool)
    return _equal_mask(col, scalars[keys.index(positive)])


def first_duplicate(col, ids: np.ndarray):
    """Rows (0-based) of the first repeated id, or None.

    Integer ids: ids in increasing order (the common case) need one pass;
    otherwise one ``np.sort``. Text ids: a hash count. The sort that locates
    the repeated pair runs only when there is one.
    """
    if ids.dtype.kind in "biu":
        if ids.size < 2 or np.all(ids[1:] > ids[:-1]):
            return None
        s = np.sort(ids)
        if not np.any(s[1:] == s[:-1]):
            return None
    elif isinstance(col, np.ndarray):
        if np.unique(ids).size == ids.size:
            return None
    else:
        import pyarrow.compute as pc

        if pc.count_distinct(col).as_py() == ids.size:
            return None
    order = np.argsort(ids, kind="stable")
    sorted_ids = ids[order]
    i = int(np.flatnonzero(sorted_ids[1:] == sorted_ids[:-1])[0])
    return tuple(sorted(int(r) for r in order[i: i + 2]))


def type_problem(col, role: str) -> str | None:
    """Why a column as read cannot hold a ``role`` at all (its shape or type;
    the text after its name), or None. Its values are checked later."""
    if isinstance(col, np.ndarray):  # NPZ members
        if col.ndim == 0:
            return "is a single value (a 0-d array), not a column of values"
        if col.ndim > 1:
            return f"has shape {col.shape}; a column is one-dimensional"
        if col.dtype.kind not in "biufUS":
            kind = {"c": "complex numbers", "V": "structured records", "M": "dates and times",
                    "m": "time spans", "O": "Python objects"}.get(col.dtype.kind, "values")
            return f"holds {kind} (dtype {col.dtype}); {with_article(role)} column holds real numbers, text or booleans"
        return None
    import pyarrow as pa

    if isinstance(col, (pa.ChunkedArray, pa.Array)) and pa.types.is_nested(col.type):
        return (f"is of the nested type {col.type}; {with_article(role)} column holds plain values (numbers, text or "
                "booleans)")
    return None


def binary_row(col) -> tuple[int, bytes] | None:
    """The first value that is not UTF-8 in a column the CSV reader left as
    bytes (it does so for any column with one such value)."""
    import pyarrow as pa

    if not isinstance(col, pa.ChunkedArray) or not (pa.types.is_binary(col.type) or
                                                    pa.types.is_large_binary(col.type)):
        return None
    for row, value in enumerate(col.to_pylist(), 1):
        if value is not None:
            try:
                value.decode("utf-8")
            except UnicodeDecodeError:
                return row, value
    return None
