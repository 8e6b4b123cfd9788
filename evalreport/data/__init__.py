"""Prediction files -> validated arrays per learner.

CSV/TSV, Parquet and JSONL are read with pyarrow (only the columns the spec
names), NPZ with NumPy (no pickles). Every problem names the file, the column
and the row (rows count from 1, after the header), with the YAML line of the
key that named the column.

The package by job: :mod:`~evalreport.data.source` (the :class:`Source` and
its sha256), :mod:`~evalreport.data.readers` (file formats -> columns),
:mod:`~evalreport.data.file_problems` (why a file cannot be read, by line),
:mod:`~evalreport.data.checks` (the values of the columns),
:mod:`~evalreport.data.memory` (one file read and checked in memory) and
:mod:`~evalreport.data.dispatch` (:func:`load_sources`: memory, DuckDB or
Spark for each file; the files of a data set paired).
"""

from __future__ import annotations

from ..arrow import arrow_to_numpy
from .dispatch import load_sources
from .readers import read_columns
from .source import Source, file_sha256

__all__ = ["Source", "load_sources", "file_sha256", "read_columns", "arrow_to_numpy"]
