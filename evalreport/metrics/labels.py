"""How labels compare: as text, so that a spec's `positive: 1` or `classes: [1, 2]`
matches 1, 1.0 read as a float, and '1'; booleans as 'true' and 'false'."""

from __future__ import annotations

import numpy as np

__all__ = ["label_key"]


def label_key(value) -> str:
    """The text a label compares as.

    >>> label_key(1), label_key(1.0), label_key("1"), label_key(np.True_)
    ('1', '1', '1', 'true')
    """
    value = value.item() if hasattr(value, "item") else value
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value)).lower()
    if isinstance(value, (float, np.floating)) and float(value).is_integer():
        return str(int(value))
    return str(value)
