"""The PDF's glossary: one line per measure, what its number is.

The registry's definitions (:mod:`evalreport.registry_entries`) are complete:
each says how ties, weights and the multi-class case are handled, when the value
is undefined and where it comes from. Printed in full for every measure a report
shows they took one and a half of the breast_cancer example's eight pages, mostly
about cases the reader's data never meets (an undefined value is marked where it
occurs, with the reason). The PDF prints the one-line forms, each entry's
``brief`` in the registry; the HTML report and ``evalreport measures`` keep the
full text. tests/test_glossary.py checks that every measure has one.
"""

from __future__ import annotations

from . import registry

__all__ = ["brief", "term_brief"]


def brief(name: str, full: str) -> str:
    """The one-line form of measure ``name`` (its full definition ``full`` when it
    has none: a measure added without one still prints)."""
    measure = registry.MEASURES.get(name)
    return (measure.brief if measure is not None else "") or full


def term_brief(term) -> str:
    """The one-line form of a :class:`~evalreport.measure.Term` (its definition when it has none)."""
    return term.brief or term.definition
