"""The engine's inputs checked: labels of at most two values, one of them the positive
label; finite scores (and their common sign, which picks the road of :mod:`.build`);
non-negative finite weights whose total float64 can carry. Each error names the
problem and the first offending index.
"""

from __future__ import annotations

import numpy as np

from .keys import INF_BITS, TOP_BIT
from .parallel import in_parts
from .table import SCALE_ADVICE, WeightScaleError, weight_scale_problem

def first_index(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def check_binary_inputs(y_true, y_score, sample_weight=None, positive=1):
    """Validate the engine's inputs; return (is_positive, scores, weights).

    Raises ``ValueError`` naming the problem and the first offending index.
    """
    return checked_inputs(y_true, y_score, sample_weight, positive)[:3]


def checked_inputs(y_true, y_score, sample_weight, positive):
    """:func:`check_binary_inputs`, plus the scores' sign (see :func:`_score_sign`)."""
    y = np.asarray(y_true)
    s = np.asarray(y_score)
    if y.ndim != 1 or s.ndim != 1:
        raise ValueError(
            f"y_true and y_score must be one-dimensional (got shapes {y.shape} and {s.shape})"
        )
    if y.shape[0] != s.shape[0]:
        raise ValueError(
            f"y_true and y_score have different lengths ({y.shape[0]} and {s.shape[0]})"
        )
    if y.shape[0] == 0:
        raise ValueError("y_true and y_score are empty")
    if s.dtype.kind not in "biuf":
        try:
            s = s.astype(np.float64)
        except (TypeError, ValueError) as exc:
            missing = _first_missing(s)
            if missing is not None:  # pandas.NA, which no float conversion takes
                raise _missing_error(s, missing, name="y_score") from None
            raise ValueError(f"y_score must be numeric (dtype {s.dtype}): {exc}") from None
    s = s.astype(np.float64, copy=False)
    sign = _score_sign(s)

    w = None
    if sample_weight is not None:
        w = np.asarray(sample_weight)
        if w.shape != y.shape:
            raise ValueError(
                f"sample_weight has length {w.shape[0] if w.ndim else 'scalar'}, "
                f"y_true has {y.shape[0]}"
            )
        w = w.astype(np.float64, copy=False)
        bad = ~np.isfinite(w)
        if bad.any():
            raise ValueError(f"sample_weight has a non-finite value at index {first_index(bad)}")
        neg = w < 0
        if neg.any():
            i = first_index(neg)
            raise ValueError(f"sample_weight has a negative value ({w[i]!r}) at index {i}")
        with np.errstate(over="ignore"):
            total = np.sum(w)
        if not np.isfinite(total):  # the count table's sums would be inf, every rate NaN
            raise WeightScaleError(f"sample_weight: {weight_scale_problem(total, 0)} ({SCALE_ADVICE})")

    is_pos = _positive_mask(y, positive)
    return is_pos, s, w, sign


def _score_sign(s: np.ndarray) -> int:
    """Check that the scores are finite; return their common sign bit.

    +1 if every sign bit is 0 (all scores >= +0.0), -1 if every one is 1 (all
    <= -0.0), 0 if both occur. The common case costs one pass: finite scores
    >= +0.0 are exactly the bit patterns below that of +inf.
    """
    bits = s.view(np.uint64)
    if max(in_parts(lambda lo, hi: bits[lo:hi].max(), bits.size)) < INF_BITS:
        return 1
    finite = np.isfinite(s)
    if not finite.all():
        i = first_index(~finite)
        kind = "NaN" if np.isnan(s[i]) else "infinite"
        raise ValueError(f"y_score has a {kind} value at index {i}")
    return -1 if bits.min() >= TOP_BIT else 0


def _positive_mask(y: np.ndarray, positive) -> np.ndarray:
    """Boolean mask of the positive class; the labels must be at most two values."""
    if not isinstance(positive, (np.ndarray, list, tuple)) and _is_missing(positive):
        raise ValueError(f"the positive label is a missing value ({positive!r}); name the positive class")
    if y.dtype == bool:
        if positive not in (True, False, 0, 1):
            raise ValueError(f"positive label {positive!r} cannot match boolean labels")
        return y if bool(positive) else ~y
    numeric = y.dtype.kind in "biuf" and isinstance(positive, (int, float, np.number))
    if numeric:
        is_pos, n_pos = _equal_in_parts(y, positive, keep=True)
    else:
        is_pos = _equal_labels(y, positive)
        n_pos = int(np.count_nonzero(is_pos))
    if n_pos == y.size:
        return is_pos
    other_index = int(np.argmin(is_pos))  # first row that is not positive
    other = y[other_index]
    if _is_missing(other):  # (None would otherwise pass for the other class)
        raise _missing_error(y, other_index)
    n_other = _equal_in_parts(y, other)[1] if numeric else int(np.count_nonzero(_equal_labels(y, other)))
    if n_pos + n_other != y.size:
        missing = _first_missing(y)
        if missing is not None:
            raise _missing_error(y, missing)
        i = first_index(~(is_pos | (y == other)))
        if n_pos == 0:
            raise ValueError(
                f"the positive label {positive!r} does not occur in y_true, which holds "
                f"{_plain(other)!r} (index {other_index}) and {_plain(y[i])!r} (index {i})"
            )
        raise ValueError(
            f"y_true has more than two labels: {_plain(other)!r} (index {other_index}), "
            f"{_plain(y[i])!r} (index {i}) and the positive label {positive!r}; "
            "a binary task needs exactly the positive label and one other"
        )
    # One label only, and not the positive one: all negatives (measures that
    # need positives are undefined, with a reason, downstream).
    return is_pos


def _equal_labels(y: np.ndarray, value) -> np.ndarray:
    """``y == value`` as a boolean mask of non-numeric labels: all False
    where the types cannot be compared; a missing label (pandas.NA makes
    the comparison itself fail) is reported."""
    try:
        equal = np.asarray(y == value)
        if equal.shape == y.shape and equal.dtype == bool:
            return equal
    except (TypeError, ValueError):
        pass
    missing = _first_missing(y)
    if missing is not None:
        raise _missing_error(y, missing)
    return np.zeros(y.shape, dtype=bool)  # e.g. a comparison of incompatible types gave a scalar


def _is_missing(v) -> bool:
    """NaN, None or pandas' NA (a label no class can be)."""
    try:
        return v is None or bool(v != v)  # NaN is the one value not equal to itself
    except TypeError:  # pandas.NA: its comparisons are NA, whose truth is undefined
        return True


def _first_missing(y: np.ndarray) -> int | None:
    """Index of the first missing value, or None (on the error path only)."""
    if y.dtype.kind in "fc":
        nan = np.isnan(y)
        return first_index(nan) if nan.any() else None
    if y.dtype.kind not in "OT":  # (T: NumPy's StringDType, whose na_object marks a missing text)
        return None
    return next((i for i, v in enumerate(y.tolist()) if _is_missing(v)), None)


def _missing_error(values: np.ndarray, i: int, *, name: str = "y_true") -> ValueError:
    """The error naming the missing value at index ``i`` of ``name``."""
    value = values[i]
    # (a missing date or duration is NumPy's NaT, whose .item() is None)
    shown = "NaT" if isinstance(value, (np.datetime64, np.timedelta64)) else repr(_plain(value))
    return ValueError(f"{name} has a missing value ({shown}) at index {i}")


def _plain(value):
    """A NumPy scalar as the Python value it holds (``0``, not ``np.int64(0)``, in messages)."""
    return value.item() if isinstance(value, np.generic) else value


def _equal_in_parts(y: np.ndarray, value, *, keep: bool = False):
    """(mask or None, count) of numeric ``y == value``, compared in parts."""
    mask = np.empty(y.shape, dtype=bool)

    def compare(lo, hi):
        part = np.equal(y[lo:hi], value, out=mask[lo:hi])
        return int(np.count_nonzero(part))

    count = sum(in_parts(compare, y.size))
    return (mask if keep else None), count
