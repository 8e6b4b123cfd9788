"""PyYAML's safe reading through libyaml, where PyYAML was built with it.

PyYAML's pure-Python reader, scanner and parser read about half a megabyte of
text a second; a spec is read at each load (spec/yaml_lines.py) and its text
scanned and composed again when it is redacted for the report (redact.py).
libyaml's parser (PyYAML's ``CParser``, in every PyYAML wheel on PyPI) gives
the same tokens, events and marks (line, column and character index) about
ten times faster. What is built from them stays PyYAML's Python code (the
composer, the safe constructors), so the nodes and values are the same.

The two parsers are not the same program, and they word their errors
differently. So the pure-Python reader keeps the last word: it reads every
text libyaml refuses (the messages, and whether the text is refused at all,
are its own) and every text with a character it refuses
(:func:`fast_enough`); tests/test_yaml_read.py checks that both give the same
tokens and nodes on every spec the project holds and on generated texts.
"""

from __future__ import annotations

import re

import yaml
from yaml.reader import Reader

__all__ = ["C_PARSER", "fast_enough", "safe_loaders", "scan_and_compose"]

#: whether this PyYAML has libyaml's parser (a PyYAML built without it reads in Python alone)
C_PARSER: bool = bool(getattr(yaml, "__with_libyaml__", False))


#: what the two parsers read differently (found by tests/test_yaml_read.py), and so
#: left to the pure-Python reader: a tab (libyaml reads "|\t" as a block scalar, Python
#: refuses it), a tag or anything that may be one (libyaml reads the tag "!" before an
#: empty value as text, Python as null; "!:!" is refused in other words), a directive,
#: a byte-order mark past the start, the line breaks beyond ASCII (NEL, U+2028, U+2029),
#: a block scalar's header with a comment not after a space ("|#": libyaml reads it).
#: A text must end with a line break too: without one, libyaml puts the end of the
#: stream (and of the nodes that end there) on a line of its own.
#: A spec has none of them but in its texts and comments (where they only cost speed).
_APART = re.compile("[\t!\x85\u2028\u2029]|^%|[|>][-+0-9]*#", re.M)


def fast_enough(text: str) -> bool:
    """Whether libyaml may read ``text``: it has libyaml's parser, and the text has
    no character that PyYAML's reader refuses (a control character, a
    surrogate: that text goes to the reader that words the refusal) nor one that
    the two read differently (:data:`_APART`)."""
    return (C_PARSER and text.endswith("\n") and "\ufeff" not in text[1:]
            and Reader.NON_PRINTABLE.search(text) is None and _APART.search(text) is None)


def safe_loaders(text: str) -> tuple:
    """The safe loader classes to read ``text`` with, in order: libyaml's first
    where it may (:func:`fast_enough`), then PyYAML's pure-Python one, which
    decides wherever the first raises a ``yaml.YAMLError``."""
    return (yaml.CSafeLoader, yaml.SafeLoader) if fast_enough(text) else (yaml.SafeLoader,)


def scan_and_compose(text: str):
    """(the tokens, the root node) of ``text``, as ``yaml.scan`` and ``yaml.compose``
    with the safe loader give them; a ``yaml.YAMLError`` as the pure-Python
    reader raises it."""
    *first, last = safe_loaders(text)
    for loader in first:
        try:
            return list(yaml.scan(text, Loader=loader)), yaml.compose(text, Loader=loader)
        except yaml.YAMLError:
            pass  # refused: the pure-Python reader words it (or, differing, reads it)
    return list(yaml.scan(text, Loader=last)), yaml.compose(text, Loader=last)
