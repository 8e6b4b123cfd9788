"""A spec loaded: the file read (a regular file only, never blocking), its
YAML composed with lines, validated by the model and the checks, every
problem raised at once in a :class:`~evalreport.errors.SpecError`; and
:func:`locate`, which tells a later problem (in the data, say) at the key and
line of the spec that caused it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from pydantic import ValidationError

from ..errors import SpecError
from .checks import name_problems, pydantic_problems, semantic_problems
from .files import not_a_file
from .messages import by_line, Locator
from .models import Spec
from .one_pass import cross_key_problems
from .patterns import expand_patterns
from .yaml_lines import MAX_SPEC_CHARS, compose_lines


def parse_spec(text: str, *, source: str = "<spec>", base_dir: Path | str = ".") -> Spec:
    """Validate spec text; raise :class:`SpecError` listing every problem."""
    data, lines = compose_lines(text, source)
    problems: list[str] = []
    where = Locator(source, lines)
    if not isinstance(data, dict):
        raise SpecError([f"{source}:1: the spec must be a mapping of keys (version, data, ...)"])
    if "base_dir" in data or "source" in data:
        key = "base_dir" if "base_dir" in data else "source"
        problems.append(where.message((key,), f"unknown key '{key}'"))
        data = {k: v for k, v in data.items() if k not in ("base_dir", "source")}
    problems += name_problems(data, where)
    unencodable = _surrogate_problems(data, where)
    if unencodable:  # before anything uses the text: a path, results.json, the report would fail on it
        raise SpecError(by_line(problems + unencodable))
    try:
        spec = Spec.model_validate({**data, "base_dir": Path(base_dir), "source": source})
    except ValidationError as exc:
        # the checks across keys too, with the keys that failed left out: one pass tells all
        crossed = cross_key_problems(data, exc, where, base_dir=Path(base_dir), source=source)
        raise SpecError(by_line(problems + pydantic_problems(exc, where) + crossed)) from None
    # learners from patterns (files, columns, classes) become ordinary entries first:
    # the checks below see the learners' names, and the data checks the files
    spec, expanded = expand_patterns(spec, where)
    if expanded:
        raise SpecError(by_line(problems + expanded))
    problems += semantic_problems(spec, where)
    if problems:
        raise SpecError(by_line(problems))
    spec._locator = where
    spec._text = text
    return spec


def locate(spec: Spec, loc, text: str) -> str:
    """A message for a problem at key path ``loc`` of ``spec``, with its YAML line."""
    where = spec._locator or Locator(spec.source, {})
    return where.message(loc, text)


def spec_text(spec: Spec) -> str:
    """The YAML text the spec was loaded from ('' if built in Python)."""
    return spec._text


def load_spec(source, *, base_dir: Path | str | None = None) -> Spec:
    """Load and validate a spec: a file, YAML text, or a mapping.

    Parameters
    ----------
    source : str, os.PathLike, mapping or Spec
        A path to a spec file; YAML text (a string holding a line break, or a
        one-line flow mapping starting with ``{``); or a mapping of the spec's
        keys (as ``yaml.safe_load`` of a spec file gives). A :class:`Spec` is
        returned as it is.
    base_dir : path, optional
        The folder the spec's relative paths start from: the spec file's
        folder for a file, else this (default: the current folder).

    Returns
    -------
    Spec

    Raises
    ------
    SpecError
        With one message per problem (file, line, key path); YAML text and a
        mapping are named ``<spec>``.

    Examples
    --------
    >>> spec = load_spec({"version": 1, "task": "binary", "positive": 1,
    ...                   "data": [{"table": "test", "label": "y",
    ...                             "learners": {"model": {"score": "p"}}}]})
    >>> spec.data[0].table
    'test'
    """
    if isinstance(source, Spec):
        return source
    if isinstance(source, Mapping):
        import yaml

        try:  # as YAML text, so that a problem is told with its key path and line
            text = yaml.safe_dump(dict(source), sort_keys=False, allow_unicode=True)
        except yaml.YAMLError as exc:
            raise SpecError([f"<spec>: a value of the mapping is not plain data (numbers, text, lists, "
                             f"mappings): {str(exc).splitlines()[0]}"]) from None
        return parse_spec(text, source="<spec>", base_dir=base_dir or ".")
    if isinstance(source, str) and ("\n" in source or source.lstrip().startswith("{")):
        return parse_spec(source, source="<spec>", base_dir=base_dir or ".")
    if not isinstance(source, (str, os.PathLike)):
        raise SpecError([f"a spec is a path, YAML text or a mapping, not {type(source).__name__}"])
    path = Path(source)
    return parse_spec(_read_spec(path), source=str(path),
                      base_dir=path.resolve().parent if base_dir is None else base_dir)


def _read_spec(path: Path) -> str:
    """The text of a spec file: a regular file only. Opened without blocking and
    checked before reading: a FIFO would block for ever, a device never end."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise SpecError([f"{path}: no such spec file"]) from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL character in the path
        raise SpecError([f"{path}: cannot read the spec: {getattr(exc, 'strerror', None) or exc}"]) from None
    kind = not_a_file(os.fstat(fd).st_mode, "a spec file")
    if kind is not None:
        os.close(fd)
        raise SpecError([f"{path}: {kind}"])
    with open(fd, encoding="utf-8") as f:  # universal newlines, as read_text
        try:
            text = f.read(MAX_SPEC_CHARS + 1)  # a 20 GB file is not read whole to be refused
        except (OSError, UnicodeDecodeError) as exc:
            raise SpecError([f"{path}: cannot read the spec: {exc}"]) from None
    if len(text) > MAX_SPEC_CHARS:
        raise SpecError([f"{path}: the spec holds more than the {MAX_SPEC_CHARS:,} characters a spec may hold (it "
                         "names keys, columns and learners; the data is in the data files)"])
    return text


def _surrogate_problems(data, where, path=()) -> list[str]:
    """Text holding a lone surrogate (YAML's escape ``"\\ud800"``): not a character, so
    it cannot be written as UTF-8 (results.json, the report, a file name). Refused with
    its key path rather than escaped on the way out, where the report would show a
    different text from the spec's."""
    out = []
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        here = (*path, key)
        if isinstance(key, str) and _has_surrogate(key):
            out.append(where.message(path or here, f"the key {_escaped(key)} holds a lone surrogate escape "
                                     "(\\ud800 to \\udfff), which is not a character: write the character itself"))
        if isinstance(value, str) and _has_surrogate(value):
            out.append(where.message(here, f"{_escaped(value)} holds a lone surrogate escape (\\ud800 to "
                                     "\\udfff), which is not a character: write the character itself"))
        elif isinstance(value, (dict, list)):
            out += _surrogate_problems(value, where, here)
    return out


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _escaped(text: str) -> str:
    shown = text.encode("utf-8", "backslashreplace").decode("ascii", "backslashreplace")
    return f'"{shown if len(shown) <= 60 else shown[:57] + "..."}"'  # as YAML's double quotes write it
