"""``engine: memory``: one prediction file read and checked into a
:class:`~evalreport.data.source.Source` of NumPy arrays (the path, then the
header and the columns the spec names, then their types and values), every
problem recorded with its key rather than raised at the first.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..metrics.labels import label_key
from ..metrics.slices import small_slice_notes
from ..spec import Spec, data_suffix, suggest
from ..spec.headers import header_problem
from .checks import (
    binary_labels,
    binary_row,
    class_labels,
    class_weight_problem,
    decisions,
    distinct,
    empty_text_row,
    first_duplicate,
    null_row,
    numeric,
    Problems,
    scaled_weights,
    to_numpy,
    type_problem,
)
from .file_problems import (
    CUT,
    header_line,
    open_quote_at_end,
    other_separator,
    path_problem,
    read_problem,
    separator_problem,
    text_problem,
    utf8_problem,
)
from .readers import column_names, MemberError, read_columns
from .source import Source, BackgroundSha256, python_value, shown_text
from .tables import InMemoryTable


def load_one(spec: Spec, i: int, problems: Problems, progress=None, tables=None) -> Source | None:
    src = spec.data[i]
    base = ("data", i)
    if src.table is not None:  # an in-memory table: the file road from its column names on
        table = (tables or {})[src.table]  # (given: checked by tables.in_memory_tables)
        names = table.column_names()
        if _missing_columns(src.display, names, _wanted(src, base), problems):
            return None
        return _checked_source(spec, i, problems, table, _wanted(src, base))
    file = spec.resolve(src.path)
    display = src.path
    problem = path_problem(file, display)
    if problem is not None:
        problems.add(base + ("path",), problem)
        return None
    if progress:
        progress(f"reading {display}")
    text = data_suffix(file)[0] in (".csv", ".tsv", ".jsonl")
    problem = text_problem(file, display) if text else None
    problem = problem or header_problem(file, display)  # (past the limits every engine keeps)
    # the whole file, as every engine checks it (pyarrow checks only the columns it converts)
    problem = problem or (utf8_problem(file, display) if text else None)
    if problem is not None:
        problems.add(base + ("path",), problem)
        return None
    wanted = _wanted(src, base)
    try:
        names = column_names(file)
    except Exception as exc:  # pyarrow / numpy parse errors: report, do not crash
        # (a .csv saved with semicolons and decimal commas fails to parse at all)
        header = header_line(file) if data_suffix(file)[0] in (".csv", ".tsv") else ""
        separator = other_separator(file, [header]) if header else None
        if separator is not None:
            problems.add(base + ("path",), separator_problem(display, file, header, separator))
        else:
            problems.add(base + ("path",), read_problem(file, display, exc))
        return None
    separator = other_separator(file, names) if any(col not in names for _, col, _ in wanted) else None
    if separator is not None:  # one problem, not one per column
        problems.add(base + ("path",), separator_problem(display, file, names[0], separator))
        return None
    if _missing_columns(display, names, wanted, problems):
        return None
    return _checked_source(spec, i, problems, file, wanted)


def _missing_columns(display: str, names: list[str], wanted, problems: Problems) -> bool:
    """Record each column the spec names that is not in the input, or in it twice."""
    missing = False
    shown = ", ".join(names[:20]) + (", ..." if len(names) > 20 else "")
    for loc, col, _ in wanted:
        if col not in names:
            problems.add(loc, f"column '{col}' is not in {display} (columns: {shown}){suggest(col, names)}")
            missing = True
        elif names.count(col) > 1:
            # the readers would take one of them, silently
            at = [str(j + 1) for j, n in enumerate(names) if n == col]
            problems.add(loc, f"{display}: column '{col}' appears {len(at)} times in the header (columns "
                         f"{', '.join(at[:-1])} and {at[-1]}): rename all but one")
            missing = True
    return missing


def _wanted(src, base: tuple) -> list[tuple[tuple, str, str]]:
    """(key, column, role) of each column data[i] names: its label, id, group,
    weight, and each learner's score, scores or decisions."""
    wanted = [(base + ("label",), src.label, "label")]
    for key in ("id", "group", "weight"):
        if getattr(src, key) is not None:
            wanted.append((base + (key,), getattr(src, key), key))
    for j, col in enumerate(src.slices):
        wanted.append((base + ("slices", j), col, "slice"))
    for name, learner in src.learners.items():
        kind = "scores" if learner.scores is not None else ("score" if learner.score else "predicted")
        for j, col in enumerate(learner.columns):
            loc = base + ("learners", name) + ((kind, j) if kind == "scores" else (kind,))
            wanted.append((loc, col, "decision" if kind == "predicted" else "score"))
    return wanted


def _checked_source(spec: Spec, i: int, problems: Problems, file: "Path | InMemoryTable",
                    wanted) -> Source | None:
    """Read the columns of data[i] and check them (the second half of :func:`load_one`)."""
    src = spec.data[i]
    base = ("data", i)
    display = src.display
    columns = list(dict.fromkeys(col for _, col, _ in wanted))
    table = isinstance(file, InMemoryTable)
    # an in-memory table has no suffix: read as Arrow columns, like a Parquet file's
    suffix = (None, None) if table else data_suffix(file)
    kind = "member" if suffix[0] == ".npz" else "column"
    where = base + (("table",) if table else ("path",))  # the key a problem of the whole input is told at
    data = _read(file, columns, wanted, display, kind, where, problems)
    if data is None or _bad_columns(data, wanted, suffix, display, kind, problems):
        return None
    rows = _rows(data, file, suffix, display, kind, where, problems)
    if rows is None:
        return None

    before = len(problems.items)
    text = suffix[0] in (".csv", ".tsv")  # an empty cell is '' there, not null
    labels, weights, notes = _labels_and_weights(spec, src, data, display, base, problems, text)
    ids = _ids(src, data, display, base, problems, text)
    groups, slices = _groups_and_slices(src, data, display, base, problems, text)
    if labels is not None and spec.task == "binary":
        notes += small_slice_notes(display, slices, labels, spec.confidence.slices_min)
    learners, hard = _learner_arrays(spec, src, data, labels, display, base, problems, text)
    if len(problems.items) != before:
        return None
    return Source(
        # hashed in a thread while the learners are evaluated (on the other core)
        index=i, path=display, file=None if table else file,
        sha256=file.sha256() if table else BackgroundSha256(file), rows=rows,
        dataset=src.dataset, labels=labels, ids=ids, groups=groups, weights=weights,
        learners=learners, hard=frozenset(hard), warnings=tuple(notes), slices=slices or None,
    )


def _read(file, columns: list[str], wanted, display: str, kind: str, where: tuple, problems: Problems):
    """The columns read (a file's, or an in-memory table's), or None with the problem told."""
    table = isinstance(file, InMemoryTable)
    try:
        data = file.read_columns(columns) if table else read_columns(file, columns)
    except MemberError as exc:
        loc = next(loc for loc, col, _ in wanted if col == exc.column)
        problems.add(loc, f"{display}: {kind} '{exc.column}' {exc.text}")
        return None
    except Exception as exc:
        problems.add(where, f"{display}: {exc}" if table else read_problem(file, display, exc))
        return None
    return data


def _bad_columns(data, wanted, suffix, display: str, kind: str, problems: Problems) -> bool:
    """Whether a column has a type its role cannot take, or (in a text file) bytes
    that are not UTF-8; each such column told."""
    from_text = suffix[0] in (".csv", ".tsv", ".jsonl")  # (where bytes mean "not UTF-8")
    bad = False
    for loc, col, role in wanted:
        why = type_problem(data[col], role)
        if why is not None:
            problems.add(loc, f"{display}: {kind} '{col}' {why}")
            bad = True
            continue
        found = binary_row(data[col]) if from_text else None
        if found is not None:
            row, value = found
            problems.add(loc, f"{display}: column '{col}', row {row}: {value!r} is not UTF-8 text; "
                         "save the file as UTF-8")
            bad = True
    return bad


def _rows(data, file, suffix, display: str, kind: str, where: tuple, problems: Problems) -> int | None:
    """The number of rows, or None with the problem told: columns of different
    lengths, a CSV or TSV file that ends inside a quoted field, no rows."""
    lengths = {c: len(v) for c, v in data.items()}
    if len(set(lengths.values())) > 1:  # (NPZ members)
        shown = ", ".join(f"'{c}' {n:,}" for c, n in lengths.items())
        problems.add(where, f"{display}: the {kind}s have different lengths ({shown})")
        return None
    rows = next(iter(lengths.values()), 0)
    if suffix in ((".csv", None), (".tsv", None)):
        last = open_quote_at_end(file)
        if last is not None:
            problems.add(where, f"{display}: row {rows:,}, the last, ends inside a quoted field "
                         f"that is not closed: {shown_text(last)}{CUT}")
            return None
    if rows == 0:
        problems.add(where, f"{display} has no rows")
        return None
    return rows


def _labels_and_weights(spec: Spec, src, data, display: str, base: tuple, problems: Problems, text: bool):
    """(labels, weights, notes): the labels checked for the task, the weights checked and
    scaled (a note when scaled), and whether one class weighs next to nothing."""
    if spec.task == "binary":
        labels = binary_labels(data[src.label], spec, display, src.label, base + ("label",), problems,
                                empty_is_missing=text)
    else:
        labels = class_labels(data[src.label], spec, display, src.label, base + ("label",), problems,
                               what="label", empty_is_missing=text)
    weights, notes = None, []
    if src.weight is not None:
        weights = numeric(data[src.weight], what="weight", display=display, column=src.weight,
                           loc=base + ("weight",), problems=problems, allow_negative=False)
        if weights is not None:
            weights = scaled_weights(weights, display, src.weight, base + ("weight",), problems, notes)
    if weights is not None and labels is not None:
        problem = class_weight_problem(weights, labels, len(spec.classes or ()))
        if problem is not None:
            problems.add(base + ("weight",), f"{display}: column '{src.weight}': {problem}: one class weighs "
                         "next to nothing against the other")
    return labels, weights, notes


def _ids(src, data, display: str, base: tuple, problems: Problems, text: bool):
    """The id column (text, or integers), each id present and once; else None."""
    ids = None
    if src.id is not None:
        null = null_row(data[src.id])
        empty = empty_text_row(data[src.id]) if null is None and text else None
        if null is not None or empty is not None:
            problems.add(base + ("id",), f"{display}: column '{src.id}', row {null or empty}: missing id"
                         + (" (empty)" if empty else ""))
        else:
            ids = to_numpy(data[src.id])
            if ids.dtype.kind not in "biu":
                ids = ids.astype(str)
            dup = first_duplicate(data[src.id], ids)
            if dup is not None:
                a, b = dup
                problems.add(base + ("id",), f"{display}: column '{src.id}': id {python_value(ids[a])!r} appears "
                             f"twice (rows {a + 1} and {b + 1})")
    return ids


def _groups_and_slices(src, data, display: str, base: tuple, problems: Problems, text: bool):
    """(groups, {slice column: values}), each value present."""
    groups = None
    if src.group is not None:
        null = null_row(data[src.group])
        # (an empty CSV cell would be a group named '')
        empty = empty_text_row(data[src.group]) if null is None and text else None
        if null is not None or empty is not None:
            problems.add(base + ("group",), f"{display}: column '{src.group}', row {null or empty}: "
                         "missing group" + (" (empty)" if empty else ""))
        else:
            groups = to_numpy(data[src.group])
    slices = {}
    for j, col in enumerate(src.slices):
        null = null_row(data[col])
        empty = empty_text_row(data[col]) if null is None and text else None
        if null is not None or empty is not None:
            # a subgroup nobody named is not one: the file says which to call it
            problems.add(base + ("slices", j), f"{display}: column '{col}', row {null or empty}: missing "
                         "slice value" + (" (empty)" if empty else "") + "; fill the missing values (e.g. "
                         "with 'unknown') to make them a slice of their own")
        else:
            slices[col] = to_numpy(data[col])
    return groups, slices


def _learner_arrays(spec: Spec, src, data, labels, display: str, base: tuple, problems: Problems, text: bool):
    """({learner: scores or decisions}, the learners of hard decisions)."""
    learners: dict[str, np.ndarray] = {}
    hard = set()
    for name, learner in src.learners.items():
        loc = base + ("learners", name)
        if learner.score is not None:
            arr = numeric(data[learner.score], what="score", display=display, column=learner.score,
                           loc=loc + ("score",), problems=problems)
        elif learner.predicted is not None:
            hard.add(name)
            arr = None
            if spec.task == "binary" and labels is not None:
                keys = {label_key(v) for v in distinct(data[src.label])[0]}
                arr = decisions(data[learner.predicted], keys, spec, display, learner.predicted,
                                 loc + ("predicted",), problems)
            elif spec.task != "binary":
                arr = class_labels(data[learner.predicted], spec, display, learner.predicted,
                                    loc + ("predicted",), problems, what="decision", empty_is_missing=text)
        else:
            cols = [
                numeric(data[c], what="score", display=display, column=c,
                         loc=loc + ("scores", j), problems=problems)
                for j, c in enumerate(learner.scores)
            ]
            arr = None if any(c is None for c in cols) else np.column_stack(cols)
        if arr is not None:
            learners[name] = arr
    return learners, hard
