"""YAML read safely, with the line of every key.

The text is composed once into nodes and the data built from them here, so
every problem is known with its line: tags other than plain scalars, scalars
their tag cannot read, keys that are not text or that repeat, nesting past
:data:`MAX_DEPTH`, and aliases past their budget (:data:`MAX_EXPANDED`, a
"billion laughs") or inside their own anchor.
"""

from __future__ import annotations

import datetime as _dt

import yaml

from ..errors import SpecError
from ..yaml_read import C_PARSER, fast_enough
from .messages import by_line, short, format_path


#: lists and mappings inside one another: a spec needs about seven levels; the
#: cap keeps PyYAML's recursive composer far from Python's recursion limit
MAX_DEPTH = 50
#: values an alias may build, all aliases together: reusing a block of learners
#: costs a few dozen, while aliases of aliases grow exponentially (nine lines of
#: a "billion laughs" would build a billion values); each expansion counts its
#: whole subtree again, so the work stays bounded whatever the spec
MAX_EXPANDED = 100_000
#: the largest spec, in characters: a spec holds keys and names (the data is in
#: the data files), and PyYAML reads about half a megabyte a second, comments too
MAX_SPEC_CHARS = 2 * 2**20
#: the most values (scalars, lists, mappings) written in a spec: a thousand learners
#: with their thresholds are a few thousand, a cost matrix of 100 classes ten thousand;
#: each costs about 0.2 ms to compose (a list of 200,000 betas took 40 s)
MAX_VALUES = 20_000
_TAG = "tag:yaml.org,2002:"
#: the scalar types a spec is written in; any other tag (!!python/..., !!binary,
#: !!set, a local !tag) is refused before anything is built from it
_SCALAR_KINDS = {_TAG + "str": "text", _TAG + "int": "integer", _TAG + "float": "number",
                 _TAG + "bool": "boolean", _TAG + "null": "null", _TAG + "timestamp": "date"}
_TAG_ADVICE = "is not allowed; a spec holds text, numbers, booleans, dates, lists and mappings"


class _Alias(yaml.nodes.Node):
    """An alias (*name) as written, with the node of its anchor: PyYAML's
    composer would hand back the anchor's node itself, losing where the alias
    is (the line to report a problem at) and hiding the repetition that the
    build counts (a "billion laughs") and the alias inside its own anchor (a
    cycle) that the build refuses."""

    id = "alias"

    def __init__(self, anchor: str, target: yaml.Node, start_mark, end_mark):
        super().__init__(target.tag, anchor, start_mark, end_mark)
        self.target = target


class _TooMany(Exception):
    def __init__(self, path, mark):
        super().__init__(path, mark)
        self.path, self.mark = path, mark


class _TooDeep(Exception):
    def __init__(self, path, mark, through: str = ""):
        super().__init__(path, mark, through)
        self.path, self.mark, self.through = path, mark, through


class _TooLarge(Exception):
    def __init__(self, alias: _Alias, path):
        super().__init__(alias, path)
        self.alias, self.path = alias, path


class _Composing:
    """PyYAML's composer, composing only: aliases come back as :class:`_Alias`
    and nesting is capped at :data:`MAX_DEPTH`. Over either parser
    (:func:`_loader_classes`): the nodes are composed here, in Python."""

    def _start(self):
        self._path: list = []
        self._values = 0

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            if event.anchor in self.anchors:
                self.get_event()
                return _Alias(event.anchor, self.anchors[event.anchor], event.start_mark, event.end_mark)
            return super().compose_node(parent, index)  # found undefined alias
        # index: the position in a list, the key node of a mapping's value, None for a key
        if isinstance(index, _Alias):
            index = index.target
        part = index.value if isinstance(index, yaml.ScalarNode) else index
        self._path.append("?" if part is None and parent is not None else part)
        self._values += 1
        if self._values > MAX_VALUES:
            raise _TooMany(self._path[1:3], self.peek_event().start_mark)
        if len(self._path) > MAX_DEPTH + 1:
            raise _TooDeep(self._path[1:2], self.peek_event().start_mark)
        try:
            return super().compose_node(parent, index)
        finally:
            self._path.pop()


class _Loader(_Composing, yaml.SafeLoader):
    """PyYAML's pure-Python reader, scanner and parser: the one that words a refusal."""

    def __init__(self, text):
        yaml.SafeLoader.__init__(self, text)
        self._start()


if C_PARSER:
    class _CLoader(_Composing, yaml.composer.Composer, yaml.CSafeLoader):
        """libyaml's parser (several times faster: evalreport/yaml_read.py) under the
        same Python composer (before libyaml's loader in the order: it has its own)."""

        def __init__(self, text):
            yaml.CSafeLoader.__init__(self, text)
            yaml.composer.Composer.__init__(self)  # its anchors: libyaml's loader does not call it
            self._start()


def _loader_classes(text: str) -> tuple:
    """The loaders to read ``text`` with, in order: libyaml's where it may, then
    the pure-Python one, which decides wherever the first refuses the text."""
    return (_CLoader, _Loader) if fast_enough(text) else (_Loader,)


def _yaml_problem(exc: yaml.YAMLError, text: str, source: str) -> str:
    if isinstance(exc, yaml.reader.ReaderError):  # a control character: no mark, a position
        line = text.count("\n", 0, exc.position) + 1
        char = f"#x{exc.character:04x}" if isinstance(exc.character, int) else repr(exc.character)
        return f"{source}:{line}: invalid YAML: unacceptable character {char}: {exc.reason}"
    mark = getattr(exc, "problem_mark", None)
    where = f"{source}:{mark.line + 1}" if mark is not None else source
    context = getattr(exc, "context", None) or ""
    what = getattr(exc, "problem", None) or context or "cannot be parsed"
    if context.startswith("found duplicate anchor"):  # the problem alone reads "second occurrence"
        what = f"{context.split(';')[0]} (first at line {exc.context_mark.line + 1})"
    elif what.startswith("but "):  # "expected a single document in the stream, but found another document"
        what = f"{context}, {what}"
    return f"{where}: invalid YAML: {what}"


def _tag_name(tag: str) -> str:
    return "!!" + tag[len(_TAG):] if tag.startswith(_TAG) else tag if tag.startswith("!") else f"!<{tag}>"


def _kind_of(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, _dt.date):
        return "a date"
    return "text"


def compose_lines(text: str, source: str):
    """Parse YAML safely, once; return (data, {key path: line}).

    The data is built here from the composed nodes (not by a second
    ``yaml.load``), so every problem is known with its node: tags other than
    plain text, numbers, booleans, nulls and dates; scalars their tag cannot
    read (``!!int abc``, ``date: 2026-13-45``); keys that are not text or that
    repeat. All of them are raised together as a :class:`SpecError`.

    Aliases are expanded and merge keys (``<<: *defaults``, ``<<: [*a, *b]``)
    merged as ``yaml.safe_load`` does: the keys written in the mapping win,
    then the earlier merged mapping. What an alias builds is counted, and the
    spec refused past :data:`MAX_EXPANDED` values (a "billion laughs") or when
    an alias is inside its own anchor (a cycle). A value reached through an
    alias has the key path where it is used and the alias's line (the place
    the user wrote it); a problem in the anchor's own text is reported once,
    where it is written.
    """
    loader, node = _composed(text, source)
    builder = _Builder(loader, source, {(): node.start_mark.line + 1})
    try:
        data = builder.build(node, (), None, True)
    except _TooLarge as exc:
        builder.problems.append(f"{source}:{exc.alias.start_mark.line + 1}: {format_path(exc.path)}: the spec "
                                f"expands to more than {MAX_EXPANDED:,} values through aliases (*{exc.alias.value} "
                                f"at line {exc.alias.start_mark.line + 1}); a spec this large is refused")
        raise SpecError(by_line(builder.problems)) from None
    except _TooDeep as exc:
        builder.problems.append(f"{source}:{exc.mark.line + 1}: {format_path(exc.path)}: {_too_deep(exc.through)}")
        raise SpecError(by_line(builder.problems)) from None
    if builder.problems:
        raise SpecError(by_line(builder.problems))
    return data, builder.lines


def _composed(text: str, source: str):
    """(the loader, the document's root node), or SpecError: too long, not YAML,
    nested too deeply, too many values, or empty."""
    if len(text) > MAX_SPEC_CHARS:
        raise SpecError([f"{source}: the spec holds more than the {MAX_SPEC_CHARS:,} characters a spec may hold "
                         "(it names keys, columns and learners; the data is in the data files)"])
    readers = _loader_classes(text)
    for reader in readers:
        loader = None
        try:
            loader = reader(text)  # the pure-Python reader refuses control characters here
            node = loader.get_single_node()
        except yaml.YAMLError as exc:
            if reader is not readers[-1]:
                continue  # refused: the pure-Python reader words it (or, differing, reads it)
            raise SpecError([_yaml_problem(exc, text, source)]) from None
        except _TooDeep as exc:
            raise SpecError([f"{source}:{exc.mark.line + 1}: {format_path(exc.path)}: {_too_deep()}"]) from None
        except _TooMany as exc:
            raise SpecError([f"{source}:{exc.mark.line + 1}: {format_path(exc.path)}: the spec holds more than "
                             f"{MAX_VALUES:,} values (scalars, lists and mappings); a spec this large is refused"]
                            ) from None
        except RecursionError:  # only when called with little stack left
            raise SpecError([f"{source}: invalid YAML: nested too deeply to be read"]) from None
        finally:
            if loader is not None:
                loader.dispose()
        break
    if node is None:
        raise SpecError([f"{source}: the spec is empty"])
    return loader, node


class _Builder:
    """The data built from the composed nodes, the key paths' lines, and the
    problems found (see :func:`compose_lines`).

    In its methods, `at` is (alias, key path) of the outermost alias being
    expanded, None in the text as written; `record` says whether key paths get
    their lines here (not below an alias, nor in a merged mapping: they keep the
    line above).
    """

    def __init__(self, loader, source: str, lines: dict[tuple, int]):
        self.loader, self.source, self.lines = loader, source, lines
        self.problems: list[str] = []
        self.told: set[int] = set()  # nodes with a problem told: an alias reaching one again says nothing
        self.active: set[int] = set()  # the lists and mappings being built: an alias of one is a cycle
        self.expanded = 0  # values built through aliases

    def problem(self, n, path, text, at):
        if id(n) not in self.told:
            self.told.add(id(n))
            line = (at[0] if at else n).start_mark.line + 1
            self.problems.append(f"{self.source}:{line}: {format_path(path)}: {text}")

    def scalar(self, n, path, at):
        kind = _SCALAR_KINDS.get(n.tag)
        if kind is None:
            return self.problem(n, path, f"the YAML tag {_tag_name(n.tag)} {_TAG_ADVICE}", at)
        try:
            return self.loader.yaml_constructors[n.tag](self.loader, n)
        except (ValueError, TypeError, AttributeError, LookupError, ArithmeticError) as exc:
            # !!int abc, !!timestamp xyz, 2026-13-45 (a date's own message says which part)
            why = f" ({exc})" if kind == "date" and isinstance(exc, ValueError) else ""
            return self.problem(n, path, f"{short(n.value)} is not a valid {kind}{why}", at)

    def cycle(self, alias, path, at) -> bool:
        if id(alias.target) not in self.active:
            return False
        self.problem(alias, path, f"*{alias.value} is inside &{alias.value} (line "
                                  f"{alias.target.start_mark.line + 1}), "
                                  "the list or mapping it repeats: it would repeat for ever", at)
        return True

    def build(self, n, path, at, record):
        if isinstance(n, _Alias):
            if self.cycle(n, path, at):
                return None
            return self.build(n.target, path, at or (n, path), False)
        if at is not None:
            self.expanded += 1
            if self.expanded > MAX_EXPANDED:
                raise _TooLarge(*at)
            if len(path) > MAX_DEPTH:  # the text is capped as composed; an alias can nest it deeper
                raise _TooDeep(at[1], at[0].start_mark, at[0].value)
        if isinstance(n, yaml.ScalarNode):
            return self.scalar(n, path, at)
        if n.tag != _TAG + ("seq" if isinstance(n, yaml.SequenceNode) else "map"):
            return self.problem(n, path, f"the YAML tag {_tag_name(n.tag)} {_TAG_ADVICE}", at)
        self.active.add(id(n))
        if isinstance(n, yaml.SequenceNode):
            out = []
            for i, item in enumerate(n.value):
                if record:
                    self.lines[path + (i,)] = item.start_mark.line + 1
                out.append(self.build(item, path + (i,), at, record))
        else:
            out = self.mapping(n, path, at, record)
        self.active.discard(id(n))
        return out

    def mapping(self, n, path, at, record):
        merged: list = []  # (key, value, line) from merge keys, in yaml.safe_load's order
        written, first, merge_line = {}, {}, None
        for k, v in n.value:
            key_node = k.target if isinstance(k, _Alias) else k
            if not isinstance(key_node, yaml.ScalarNode):  # a list, a mapping, an alias of one
                self.problem(k, path, "a key must be text, not a list or mapping", at)
                continue
            if key_node.tag == _TAG + "merge":
                if merge_line is not None:  # `<<` is a key like any other: once per mapping
                    self.problem(k, path + ("<<",), f"duplicate key (first at line {merge_line})", at)
                merge_line = merge_line or k.start_mark.line + 1
                merged += self.merge(k, v, path, at)
                continue
            key = self.scalar(key_node, path + (key_node.value,), at)
            if not isinstance(key, str):
                if key is not None or key_node.tag == _TAG + "null":
                    self.problem(k, path + (key_node.value,), f"a key must be text, and {short(key_node.value)} "
                                                              f"reads as {_kind_of(key)}; quote it", at)
                continue
            kp = path + (key,)
            line = k.start_mark.line + 1
            if key in first:
                self.problem(k, kp, f"duplicate key (first at line {first[key]})", at)
            first.setdefault(key, line)
            if record:
                self.lines[kp] = line
            written[key] = self.build(v, kp, at, record)
        out = {}
        for key, value, line in merged:  # an earlier merged mapping comes later here, and wins
            out[key] = value
            if record and key not in written:
                self.lines[path + (key,)] = line
        out.update(written)
        return out

    def merge(self, k, v, path, at):
        """The (key, value, line) of the mappings merged by ``<<: v``: the
        pairs of a list's last mapping first, so that the first one wins."""
        kp, ref = path + ("<<",), v  # a merged key's line: the alias, else the mapping as written
        if isinstance(v, _Alias):
            if self.cycle(v, kp, at):
                return []
            at, v = at or (v, kp), v.target
        items = v.value if isinstance(v, yaml.SequenceNode) else [v]
        if not all(isinstance(m.target if isinstance(m, _Alias) else m, yaml.MappingNode) for m in items):
            self.problem(k, kp, "a merge key (<<) takes a mapping (<<: *name) or a list of them (<<: [*a, *b])",
                         at)
            return []
        pairs = []
        for m in reversed(items):
            line = (m if ref is v else ref).start_mark.line + 1
            built = self.build(m, path, at or ((m, kp) if isinstance(m, _Alias) else None), False)
            pairs += [(key, value, line) for key, value in (built or {}).items()]
        return pairs


def _too_deep(through: str = "") -> str:
    via = f" through *{through}" if through else ""
    return f"lists and mappings nested more than {MAX_DEPTH} levels deep{via}; a spec needs a few"
