"""Arrow arrays as NumPy, read off their buffers (without pandas).

Shared by the in-memory readers (:mod:`evalreport.data.readers`) and the
DuckDB engine (:mod:`evalreport.engines.duckdb`); it imports neither.
"""

from __future__ import annotations

import numpy as np

__all__ = ["arrow_to_numpy"]


def arrow_to_numpy(chunk) -> np.ndarray:
    """A null-free number or boolean Arrow array as NumPy, read off its buffers.

    (``Array.to_numpy`` would do, but it imports pandas, half a second of
    start-up, even for a zero-copy view.)
    """
    import pyarrow as pa

    data = chunk.buffers()[1]
    if pa.types.is_boolean(chunk.type):  # bit-packed, least significant bit first
        bits = np.unpackbits(np.frombuffer(data, dtype=np.uint8), bitorder="little")
        return bits[chunk.offset: chunk.offset + len(chunk)].view(bool)
    dtype = np.dtype(chunk.type.to_pandas_dtype())
    return np.frombuffer(data, dtype=dtype, count=len(chunk), offset=chunk.offset * dtype.itemsize)
