"""A read-only mapping for the engine's results that pickles and copies.

``types.MappingProxyType`` is read-only but cannot be pickled, so results
holding one could not be sent to worker processes (multiprocessing, joblib),
cached to disk or deep-copied. This mapping is read-only in the same way
(no item assignment) and pickles as the dict it wraps.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Iterator, TypeVar

K = TypeVar("K")
V = TypeVar("V")

__all__ = ["FrozenMapping"]


class FrozenMapping(Mapping[K, V]):
    """An immutable view of a private copy of ``data``; equal to any mapping
    with the same items."""

    __slots__ = ("_data",)

    def __init__(self, data: Mapping[K, V] | None = None, /):
        self._data = dict(data or {})

    def __getitem__(self, key: K) -> V:
        return self._data[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return f"FrozenMapping({self._data!r})"

    def __reduce__(self):
        return type(self), (self._data,)
