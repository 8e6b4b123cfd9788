"""Replicates: ``data[].replicates: seed`` names the part of the learner names'
pattern that only tells replicates apart (the seed of a run). Learners that
differ by it alone are one *configuration*, named by the learner name with the
replicate part removed.

The rule (the same for a file pattern's ``{seed}`` and a column regex's group
``seed``): the name is cut into its literal text and its parts; the replicate
part goes, with its label (the letters written right before it: ``seed`` in
``_seed{seed}``, ``s`` in ``-s{seed}``) and one separator (``_ - . space``)
next to it, the one before it when there is one, else the one after it::

    C{c}_seed{seed}  ->  C{c}      (C0.1_seed2 -> C0.1)
    lr_{seed}_C{c}   ->  lr_C{c}
    {seed}_C{c}      ->  C{c}
    run{seed}        ->  run*      (nothing left: the name with the value as *)

:func:`replicates_of` gives the mapping the expansion of the patterns made
(spec.patterns), for the later stages (compare.configurations).
"""

from __future__ import annotations

import re

#: the separators taken away with the replicate part (one, before it or else after it)
SEPARATORS = "_-. "
#: the label of the replicate part: the letters written right before it
_LABEL = re.compile(r"[A-Za-z]+$")

__all__ = ["SEPARATORS", "configuration_name", "template_configuration", "replicates_of"]


def configuration_name(prefix: str, literal: str, value: str, after: str) -> str:
    """The configuration of a learner named ``prefix + literal + value + after``:
    ``value`` is the replicate part's value, ``literal`` the text written right
    before it (where its label and separator are taken from: never a filled
    part's value), ``prefix`` what precedes that, ``after`` what follows it.

    >>> configuration_name("C0.1", "_seed", "2", "")
    'C0.1'
    >>> configuration_name("", "lr_", "3", "_C1")
    'lr_C1'
    >>> configuration_name("", "", "0", "_C1")
    'C1'
    >>> configuration_name("", "run", "7", "")
    'run*'
    """
    head = _LABEL.sub("", literal)
    if head and head[-1] in SEPARATORS:
        head, tail = head[:-1], after
    else:
        tail = after[1:] if after and after[0] in SEPARATORS else after
    name = prefix + head + tail
    return name if name else prefix + literal + "*" + after


def template_configuration(template: str, part: str, values: dict[str, str], pattern) -> str | None:
    """The configuration of the learner made from ``template`` (a name with
    ``{parts}``; ``pattern`` finds them) filled with ``values``; None when
    ``part`` is not in it."""
    m = next((m for m in pattern.finditer(template) if m.group(1) == part), None)
    if m is None:
        return None

    def fill(text):
        return pattern.sub(lambda p: values.get(p.group(1), p.group(0)), text)

    ahead = template[:m.start()]
    parts = list(pattern.finditer(ahead))
    cut = parts[-1].end() if parts else 0  # the literal text since the previous part
    return configuration_name(fill(ahead[:cut]), ahead[cut:], values[part], fill(template[m.end():]))


def replicates_of(spec) -> dict[tuple, tuple[str, str]]:
    """(data set, learner name) -> (configuration, replicate value) of every learner
    of a data entry that declares ``replicates`` (empty: none does, or the spec
    was not loaded from YAML or a mapping, which is what expands the patterns)."""
    where = getattr(spec, "_locator", None)
    return dict(getattr(where, "replicates", None) or {})
