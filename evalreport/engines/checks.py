"""What the engines check, and how they say it: column names quoted for SQL,
the named columns present (the closest name suggested) and numeric, the
one-pass data checks read back (missing labels, bad scores and weights,
missing groups), and the labels of a binary task matched to its positive
label, as NumPy compares or as a spec does (as text).
"""

from __future__ import annotations

from ..errors import closest


#: At most this many distinct labels are reported (one more is fetched, so
#: that ``labels_truncated`` tells whether there were more).
LABELS_CAP = 20


def quote_ident(name: str) -> str:
    """A SQL identifier, double-quoted with inner quotes doubled.

    >>> quote_ident('my "odd" col')
    '"my ""odd"" col"'
    """
    if not isinstance(name, str) or not name:
        raise ValueError(f"a column name must be a non-empty string, got {name!r}")
    if "\x00" in name:
        raise ValueError(f"column name {name!r} contains a NUL character")
    return '"' + name.replace('"', '""') + '"'


def _same_label(value, positive) -> bool:
    """Label equality with NumPy's semantics (``y == positive``): text never
    equals a number; numbers and booleans compare by value."""
    if value is None:
        return False
    if isinstance(value, (bytes, str)) != isinstance(positive, (bytes, str)):
        return False
    try:
        return bool(value == positive)
    except Exception:  # noqa: BLE001 - incomparable types are simply unequal
        return False


def _same_text(value, positive) -> bool:
    """Label equality as a spec means it (the in-memory reader's rule): as
    text, so 1, 1.0 and '1' are one label, and True is 'true', not 1."""
    from ..metrics.labels import label_key

    return value is not None and label_key(value) == label_key(positive)


def match_positive(labels, positive, *, as_text: bool = False):
    """The element of ``labels`` equal to ``positive`` (as NumPy compares, or
    ``as_text`` as a spec's labels compare), or None.

    The engines bind *this* value (typed as the column is) in their queries, so
    that a text column is never compared with a number inside the database.

    >>> match_positive([0, 1], True), match_positive(["0", "1"], 1), match_positive([0.0, 1.0], 1)
    (1, None, 1.0)
    >>> match_positive([0, 1], True, as_text=True), match_positive(["0", "1"], 1, as_text=True)
    (None, '1')
    """
    same = _same_text if as_text else _same_label
    for value in labels:
        if same(value, positive):
            return value
    return None


class PositiveLabelMissing(ValueError):
    """The positive label is not among the labels (:func:`check_labels`)."""


def check_labels(labels_seen, positive, *, truncated: bool = False, where: str = "",
                 as_text: bool = False) -> None:
    """Raise ``ValueError`` unless the labels suit a binary task.

    At most two distinct labels, one of them ``positive``; or a single label
    that is not ``positive`` (all rows are then negatives and the measures
    needing positives are undefined). ``as_text``: a spec's rule, the
    in-memory reader's: labels compare as text and ``positive`` must occur
    (:class:`PositiveLabelMissing` otherwise).
    """
    at = f" in {where}" if where else ""
    labels = list(labels_seen)
    if truncated or len(labels) > 2:
        shown = ", ".join(repr(v) for v in labels[:LABELS_CAP])
        more = " and more" if truncated or len(labels) > LABELS_CAP else ""
        raise ValueError(
            f"the label column{at} has more than two labels ({shown}{more}); "
            f"a binary task needs exactly the positive label {positive!r} and one other"
        )
    if as_text:
        if labels and match_positive(labels, positive, as_text=True) is None:
            raise PositiveLabelMissing(f"the positive label {positive!r} does not occur{at}, which holds "
                                       + " and ".join(repr(v) for v in labels))
        return
    if len(labels) == 2 and match_positive(labels, positive) is None:
        raise ValueError(
            f"the positive label {positive!r} does not occur{at}, which holds "
            f"{labels[0]!r} and {labels[1]!r}"
        )


class ColumnError(ValueError):
    """A problem with one of the named columns. ``role``: "label", "score"
    (then ``learner`` names the learner), "weight" or "group": a spec
    reports it at that key, not at the source's path."""

    def __init__(self, message: str, role: str, learner: str | None = None):
        super().__init__(message)
        self.role, self.learner = role, learner


def id_problem(id_column: str, missing: int, twice) -> None:
    """Raise :class:`ColumnError` (role "id") for ``missing`` ids (null or empty) or
    ``twice``, the first repeated id as ``(value, count)``; both engines say it so."""
    if missing:
        raise ColumnError(f"column '{id_column}': {missing:,} missing id(s) (empty or null); every row needs an id",
                          "id")
    if twice is not None:
        value, n = twice
        times = "twice" if n == 2 else f"{n:,} times"
        raise ColumnError(f"column '{id_column}': id {value!r} appears {times}; an id names one row", "id")


def check_columns(columns, *, label: str, scores: dict, weight, by, where: str, engine: str,
                  type_problem) -> None:
    """Raise :class:`ColumnError` for a named column that is missing (with the
    closest name) or a score or weight column that is not numeric.

    ``scores``: learner -> its score column, or its list of columns (one per
    class). ``type_problem(column)`` is None for a numeric (or boolean)
    column, else the engine's name of its type."""
    present = set(columns)

    def need(column, role, learner=None, text=None):
        if not isinstance(column, str) or column not in present:
            raise ColumnError(missing_column_message(str(column), list(columns), role=text or role, where=where),
                              role, learner)

    def numeric(column, what, role, learner=None):
        kind = type_problem(column)
        if kind is not None:
            raise ColumnError(f"{what} is not numeric ({engine} type {kind}) in {where}", role, learner)

    need(label, "label")
    for name, cols in scores.items():
        for col in [cols] if isinstance(cols, str) else cols:
            need(col, "score", name, f"score (learner {name!r})")
            numeric(col, f"score column {col!r} of learner {name!r}", "score", name)
    if weight is not None:
        need(weight, "weight")
        numeric(weight, f"weight column {weight!r}", "weight")
    if by is not None:
        need(by, "group", text="group (by)")


def missing_column_message(column: str, available, *, role: str, where: str) -> str:
    """"column 'x' (role) not found in where; did you mean 'y'? (columns: ...)"."""
    available = list(available)
    close = closest(column, available)
    hint = f"; did you mean {close!r}?" if close is not None else ""
    cols = ", ".join(repr(c) for c in available[:30]) + (" ..." if len(available) > 30 else "")
    return f"{role} column {column!r} not found in {where}{hint} (columns: {cols})"


def sorted_labels(values) -> list:
    """Distinct labels in a stable order (by type name, then value)."""
    def key(v):
        return (type(v).__name__, v)

    try:
        return sorted(values, key=key)
    except TypeError:
        return sorted(values, key=lambda v: (type(v).__name__, repr(v)))


def judge_class_checks(rows: int, null_labels: int, bad, *, cols, owner: dict, label: str, where: str) -> None:
    """Read the counts of a multi-class aggregation's data checks (DuckDB's and Spark's
    alike): the rows, the missing labels, then each score column's missing, NaN or
    infinite values (``bad``, in the order of ``cols``; ``owner``: column -> learner);
    raise on the first kind of problem."""
    if rows == 0:
        raise ValueError(f"{where} has no rows")
    if null_labels:
        raise ColumnError(f"label column {label!r} has {null_labels} missing value(s) in {where}", "label")
    for c, nbad in zip(cols, bad):
        if nbad:
            raise ColumnError(f"score column {c!r} has {nbad} missing, NaN or infinite value(s) in {where}",
                              "score", owner[c])


def judge_checks(row: list, *, cols, scores: dict, mode, label: str, weight, by, where: str):
    """Read the one-row result of the engines' data checks (rows, missing labels,
    then per score column missing/NaN/infinite counts and, for quantile bins, its
    range, then the weight and group checks) and raise ``ValueError`` on the first
    kind of problem. Returns (rows, {score column: (min, max)})."""
    row = list(row)
    rows, null_labels = int(row.pop(0)), int(row.pop(0))
    if rows == 0:
        raise ValueError(f"{where} has no rows")
    if null_labels:
        raise ColumnError(f"label column {label!r} has {null_labels} missing value(s) of {rows} rows in {where}",
                          "label")
    ranges = {}
    problems, first_learner = [], None
    for col in cols:
        nulls, nans, infs = (int(row.pop(0)) for _ in range(3))
        if mode is not None and mode[0] == "bins":
            ranges[col] = (row.pop(0), row.pop(0))
        bad = [f"{c} {what}" for c, what in ((nulls, "missing"), (nans, "NaN"), (infs, "infinite")) if c]
        if bad:
            learners = ", ".join(repr(n) for n, c in scores.items() if c == col)
            first_learner = first_learner or next(n for n, c in scores.items() if c == col)
            problems.append(
                f"score column {col!r} (learner {learners}) has {nulls + nans + infs} bad value(s): "
                f"{', '.join(bad)} (of {rows} rows)"
            )
    if problems:
        raise ColumnError(f"{where}: " + "; ".join(problems), "score", first_learner)
    if weight is not None:
        nulls, nonfinite, negative, wmin = int(row.pop(0)), int(row.pop(0)), int(row.pop(0)), row.pop(0)
        bad = []
        if nulls:
            bad.append(f"{nulls} missing")
        if nonfinite:
            bad.append(f"{nonfinite} NaN or infinite")
        if negative:
            bad.append(f"{negative} negative (smallest {wmin!r})")
        if bad:
            raise ColumnError(f"weight column {weight!r} has {', '.join(bad)} value(s) of {rows} rows in {where}",
                              "weight")
    if by is not None:
        nulls = int(row.pop(0))
        if nulls:
            raise ColumnError(f"group column {by!r} has {nulls} missing value(s) of {rows} rows in {where}",
                              "group")
    return rows, ranges
