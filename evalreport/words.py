"""Small helpers for the sentences evalreport writes (warnings, verdicts)."""

from __future__ import annotations

__all__ = ["and_join"]


def and_join(items) -> str:
    """'a', 'a and b', 'a, b and c' ('' for none)."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
