"""In-memory tables (the Python API's ``evaluate(spec, data={name: table})``):
a pyarrow Table, or a pandas or polars DataFrame taken through the Arrow
PyCapsule interface (``__arrow_c_stream__``), so that neither library is a
dependency. A table then takes the file road of :mod:`evalreport.data.memory`
from the column names on: the same checks, the same messages, with
``table 'name'`` where a file's path would be.
"""

from __future__ import annotations

import hashlib

from ..errors import DataError


class InMemoryTable:
    """One named in-memory table as the memory road reads it (a file's stand-in).

    Parameters
    ----------
    name : str
        The name the spec gives it (``data[i].table``).
    table : pyarrow.Table
        The data, already in Arrow (see :func:`as_arrow`).
    """

    def __init__(self, name: str, table):
        self.name, self.table = name, table

    def column_names(self) -> list[str]:
        return list(self.table.column_names)

    def read_columns(self, columns: list[str]) -> dict[str, object]:
        """The named columns as pyarrow ChunkedArrays (as a JSONL file's are read)."""
        return {c: self.table.column(c) for c in columns}

    def sha256(self) -> str:
        """The sha256 of the table's Arrow IPC stream (its schema, then its record
        batches as they are chunked), written straight into the hash: no copy."""
        import pyarrow as pa

        h = hashlib.sha256()

        class _Sink:  # a file-like object that hashes what is written to it
            closed = False

            def write(self, data):
                h.update(data)
                return len(data)

            def flush(self):
                pass

        with pa.ipc.new_stream(pa.PythonFile(_Sink(), mode="w"), self.table.schema) as writer:
            writer.write_table(self.table)
        return h.hexdigest()


def as_arrow(name: str, obj):
    """A pyarrow Table from ``obj``: a pyarrow Table or RecordBatch, any object of
    the Arrow PyCapsule interface (polars, pandas >= 2.2), else a pandas
    DataFrame through ``pyarrow.Table.from_pandas`` (its index left out).

    Raises
    ------
    DataError
        When ``obj`` is none of these, naming the table.

    Examples
    --------
    >>> import pyarrow as pa
    >>> as_arrow("test", pa.table({"y": [0, 1]})).num_rows
    2
    """
    import pyarrow as pa

    if isinstance(obj, pa.Table):
        return obj
    if isinstance(obj, pa.RecordBatch):
        return pa.Table.from_batches([obj])
    if _is_pandas(obj):
        # (not through the capsule: pyarrow's own conversion leaves a pandas index out
        # and reads the columns of object dtype as text)
        return _from_pandas(name, obj)
    if _is_pandas_series(obj):
        raise DataError([f"table '{name}': a pandas Series is one column; pass a DataFrame of the columns the "
                         "spec names (series.to_frame(), or the whole frame)"])
    if hasattr(obj, "__arrow_c_stream__"):
        try:
            return pa.table(obj)
        except (pa.ArrowException, TypeError, ValueError) as exc:
            raise DataError([f"table '{name}': cannot be read as a table: {str(exc).splitlines()[0]}"]) from None
    raise DataError([f"table '{name}': expected a pyarrow Table or a pandas or polars DataFrame, "
                     f"got {type(obj).__module__}.{type(obj).__qualname__}"])


def _from_pandas(name: str, frame):
    """A pandas DataFrame as a pyarrow Table; a column pyarrow cannot take (a name
    twice, complex numbers, an object column of numbers and text mixed) is told by
    its name, as a file's column is, not as pyarrow's error from deep inside."""
    import pyarrow as pa

    names = [str(c) for c in frame.columns]
    for col in dict.fromkeys(names):
        if names.count(col) > 1:
            at = [str(j + 1) for j, n in enumerate(names) if n == col]
            raise DataError([f"table '{name}': column '{col}' appears {len(at)} times (columns {', '.join(at[:-1])} "
                             f"and {at[-1]}): rename all but one"])
    try:
        return pa.Table.from_pandas(frame, preserve_index=False)
    except (pa.ArrowException, TypeError, ValueError):
        pass
    for j, col in enumerate(frame.columns):  # the column that fails, by its name
        series = frame.iloc[:, j]
        if series.dtype.kind == "c":
            raise DataError([f"table '{name}': column '{col}' holds complex numbers ({series.dtype}); a column "
                             "holds real numbers, text or booleans"])
        try:
            pa.array(series, from_pandas=True)
        except (pa.ArrowException, TypeError, ValueError) as exc:
            why = str(exc.args[0] if exc.args else exc).splitlines()[0]
            raise DataError([f"table '{name}': column '{col}' (dtype {series.dtype}) mixes values of more than one "
                             f"kind (numbers, text, bytes, ...) and cannot be read as one column: {why}"]) from None
    raise DataError([f"table '{name}': cannot be read as a table"])  # pragma: no cover - a column fails above


def _is_pandas_series(obj) -> bool:
    return type(obj).__module__.split(".")[0] == "pandas" and type(obj).__name__ == "Series"


def _is_pandas(obj) -> bool:
    return type(obj).__module__.split(".")[0] == "pandas" and hasattr(obj, "columns") and hasattr(obj, "iloc")


def in_memory_tables(spec, data) -> dict[str, InMemoryTable]:
    """The tables passed to ``evaluate(spec, data=...)`` checked against the spec's
    ``data[].table`` names: every one named must be given, every one given named.

    Raises
    ------
    DataError
        Listing every table named but not given and every table given but not named.
    """
    data = dict(data or {})
    named = [src.table for src in spec.data if src.table is not None]
    problems = []
    from ..spec import locate, suggest

    for i, src in enumerate(spec.data):
        if src.table is not None and src.table not in data:
            given = ", ".join(f"'{k}'" for k in data) or "none"
            problems.append(locate(spec, ("data", i, "table"), f"table '{src.table}' is not given: pass it as "
                                   f"evaluate(spec, data={{'{src.table}': ...}}) (tables given: {given})"
                                   f"{suggest(src.table, list(data))}"))
    for key in data:
        if key not in named:
            shown = ", ".join(f"'{n}'" for n in named) or "none: every data entry gives a path"
            problems.append(f"data: table '{key}' is given but no data entry of the spec names it "
                            f"(table: {key}); the spec's tables: {shown}")
    if problems:
        raise DataError(problems)
    return {key: InMemoryTable(key, as_arrow(key, obj)) for key, obj in data.items()}
