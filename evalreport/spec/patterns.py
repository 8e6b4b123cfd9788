"""Learners from patterns, expanded when the spec loads, so that everything
after it sees ordinary data entries and learner names:

- **files**: a ``path`` with named parts (``runs/{run}/predictions.csv``)
  gives one data entry per matching file, sorted by the parts' values
  (numbers in them in numeric order: run_2 before run_10); a learner name
  (``"{run}"``, ``"lr_{run}"``) and ``dataset`` may use the parts;
- **columns**: ``learners: {match: <regex>}`` (or a list of regexes) gives one
  learner per column of the file the regex matches whole, named by the
  regex's group ``name`` (else its only group, else the whole column), sorted;
- **classes**: ``{columns: "mlp_{class}"}`` is a multi-class learner's score
  columns, one per class of ``classes`` in their order;
- **replicates**: ``data[].replicates: seed`` names the part (``{seed}``, or a
  regex group ``seed``) that tells replicates of one configuration apart; the
  mapping learner -> configuration (spec.replicates) is kept on the locator.

Each problem is told at the key and line of the pattern that made it
(:class:`~evalreport.spec.messages.Locator` keeps the expanded key paths'
originals, so the data checks later do the same).
"""

from __future__ import annotations

import glob
import re
from pathlib import Path

from ..errors import suggest
from .headers import column_names
from .messages import cut, Locator
from .models import DataSource, Learner, Spec
from .regex import compile_pattern, span
from .replicates import configuration_name, template_configuration

#: a named part of a path, learner name, data set name or columns template
PART = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
#: the glob characters a path with named parts may not hold besides them
_WILDCARDS = re.compile(r"[*?\[]")
#: how many columns or files a message lists
_SHOWN = 12


def has_patterns(src: DataSource) -> bool:
    """Whether a data entry has anything to expand."""
    return bool((src.path and PART.search(src.path)) or any(
        PART.search(name) or learner.match is not None or learner.class_columns is not None
        for name, learner in src.learners.items()))


def expand_patterns(spec: Spec, where: Locator) -> tuple[Spec, list[str]]:
    """The spec with every pattern expanded, and the problems found (none: the
    spec's data are ordinary entries, ``where`` knows their originals)."""
    problems: list[str] = []

    def add(loc, text):
        problems.append(where.message(loc, text))

    for i, src in enumerate(spec.data):
        _replicate_problems(i, src, add)
    if not any(has_patterns(src) for src in spec.data) or problems:
        return spec, problems
    data: list[DataSource] = []
    aliases: dict[tuple, tuple] = {}
    replicates: dict[tuple, tuple[str, str]] = {}

    for i, src in enumerate(spec.data):
        for entry, names, values in _files(spec, i, src, add):
            entry, more = _columns(spec, i, entry, add)
            if src.replicates is not None:
                replicates.update(_replicates(src, entry, names, more, values))
            j = len(data)
            data.append(entry)
            aliases[("data", j)] = ("data", i)
            for name, key in {**names, **more}.items():
                aliases[("data", j, "learners", name)] = ("data", i, "learners", key[0]) + key[1:]
                if key[1:] == ("columns",):  # the expanded list of score columns is the template's
                    aliases[("data", j, "learners", name, "scores")] = ("data", i, "learners", key[0], "columns")
    _configuration_clashes(spec, data, replicates, add)
    if problems:
        return spec, problems
    where.aliases = aliases
    where.replicates = replicates
    return spec.model_copy(update={"data": data}), []


def _replicate_problems(i: int, src: DataSource, add) -> None:
    """``replicates`` names a part of data[i]'s learner names (a file pattern's
    ``{part}`` in a learner name, or a named group of a ``match`` regex)."""
    part = src.replicates
    if part is None:
        return
    templates = [name for name in src.learners if PART.search(name)]
    regexes = [p for learner in src.learners.values() if learner.match is not None for p in learner.match
               if isinstance(p, str)]
    groups = []
    for pattern in regexes:
        try:
            groups += list(compile_pattern(pattern).groupindex)
        except ValueError:  # the pattern check says why
            pass
    named = list(dict.fromkeys([p for t in templates for p in PART.findall(t)] + groups))
    if part in named:
        return
    loc = ("data", i, "replicates")
    if not templates and not regexes:
        add(loc, f"replicates: {cut(part)!r} names the part of the learner names' pattern that tells "
            f"replicates apart, and no learner name of this entry has a pattern: name the learners from "
            f"the path (path: 'runs/C{{c}}_{part}{{{part}}}/predictions.csv', learners: "
            f"{{'C{{c}}_{part}{{{part}}}': score}}) or from the columns (learners: {{match: "
            f"'(?P<name>C.*_{part}(?P<{part}>[0-9]+))'}})")
        return
    add(loc, f"replicates: {cut(part)!r} is not a part of the learner names' pattern"
        f"{suggest(part, named)}; its parts: {', '.join(named) or 'none'} (a part of the path only, or of "
        "the data set name, does not tell learners of one data set apart)")


def _replicates(src: DataSource, entry: DataSource, names: dict, more: dict, values: dict) -> dict:
    """(data set, learner name) -> (configuration, replicate value) of one expanded
    entry's learners whose name holds the replicate part (spec.replicates)."""
    part, out = src.replicates, {}
    for name, key in names.items():
        if key[1:] or name not in entry.learners:  # a per-class template, or a match (below)
            continue
        configuration = template_configuration(key[0], part, values, PART)
        if configuration is not None:
            out[(entry.dataset, name)] = (configuration, values[part])
    regexes = [compile_pattern(p) for p in (src.learners["match"].match if "match" in src.learners else None) or []]
    for name, key in more.items():
        if key != ("match",):
            continue
        column = entry.learners[name].score
        for regex in regexes:
            m = regex.fullmatch(column)
            if m is None or part not in regex.groupindex or m.group(part) is None:
                continue
            # the name's span in the column: group name, else the only group, else the whole column
            at = "name" if "name" in regex.groupindex else 1 if regex.groups == 1 else 0
            start, end = span(regex, m, at)
            s, e = span(regex, m, part)
            if start <= s and e <= end:
                offset = s - start, e - start
                out[(entry.dataset, name)] = (configuration_name("", name[:offset[0]], m.group(part),
                                                                 name[offset[1]:]), m.group(part))
            break
    return out


def _configuration_clashes(spec: Spec, data: list[DataSource], replicates: dict, add) -> None:
    """A configuration named as a learner of its data set that is none of its
    replicates would merge the two: told at the replicates key."""
    for i, src in enumerate(spec.data):
        if src.replicates is None:
            continue
        mine = {conf for (ds, _), (conf, _) in replicates.items() if ds == src.dataset}
        alone = {name for entry in data if entry.dataset == src.dataset for name in entry.learners
                 if (entry.dataset, name) not in replicates}
        for name in sorted(mine & alone):
            add(("data", i, "replicates"), f"the configuration '{name}' (the learners' names without their "
                f"{src.replicates}) is also the name of a learner of the same data set: rename one")


def _natural(text: str) -> tuple:
    """Sort key: the numbers in a name as numbers (run_2 before run_10, C0.01 before
    C0.1: learning rates and strengths are decimals), ties by the text."""
    return tuple((0, float(t), "") if t[0].isdigit() else (1, 0.0, t)
                 for t in re.split(r"(\d+(?:\.\d+)?)", text) if t), text


def _fill(template: str, values: dict[str, str]) -> str:
    return PART.sub(lambda m: values.get(m.group(1), m.group(0)), template)


def _unknown_parts(text: str, parts: list[str], what: str, path: str | None) -> str | None:
    """Why ``text`` (a learner or data set name, a columns template) names a part the path lacks."""
    for name in PART.findall(text):
        if name not in parts:
            if what == "columns":  # parts: the path's and 'class'
                return (f"{{{name}}} in columns {cut(text)!r} is neither {{class}} nor a part of the path"
                        f"{suggest(name, parts)}")
            if not parts:
                return (f"{{{name}}} in the {what} {cut(text)!r} is not a part of the path: a path "
                        f"with named parts gives one learner per matching file (e.g. runs/{{{name}}}/"
                        "predictions.csv)")
            return (f"{{{name}}} in the {what} {cut(text)!r} is not a part of the path {path}"
                    f"{suggest(name, parts)}; its parts: {', '.join(parts)}")
    return None


def _files(spec: Spec, i: int, src: DataSource, add) -> list[tuple[DataSource, dict, dict]]:
    """The entries of data[i], one per file its path matches (the entry itself
    when its path has no named parts), each with {learner name: its original key}
    and the path's {part: value} of its file."""
    base = ("data", i)
    parts = list(dict.fromkeys(PART.findall(src.path or "")))
    bad = False
    for name in src.learners:
        problem = _unknown_parts(name, parts, "learner name", src.path)
        if problem:
            add(base + ("learners", name), problem)
            bad = True
    for key, text in (("dataset", src.dataset),):
        problem = _unknown_parts(text or "", parts, "data set name", src.path)
        if problem:
            add(base + (key,), problem)
            bad = True
    for name, learner in src.learners.items():
        problem = _unknown_parts(learner.class_columns or "", parts + ["class"], "columns", src.path)
        if problem:
            add(base + ("learners", name, "columns"), problem)
            bad = True
    if bad or not parts:
        return [] if bad else [(src, {name: (name,) for name in src.learners}, {})]
    if _WILDCARDS.search(PART.sub("", src.path)):
        add(base + ("path",), f"a path with named parts ({src.path}) takes no other wildcards (*, ?, [...]): "
            "each file it matches is one entry")
        return []
    if not PART.search(src.dataset or ""):
        same = [n for n in src.learners if not PART.search(n)]
        part = f"{{{parts[0]}}}"
        if same and same[0] == "match":  # its names come from the columns, alike in every file
            add(base + ("learners", "match"), f"match would give the same learners in every file matching "
                f"{src.path}: give each file its own data set (dataset: '{part}')")
            return []
        if same:
            add(base + ("learners", same[0]), f"learner '{same[0]}' would be the same learner in every file "
                f"matching {src.path}: name it from the path ('{part}', '{same[0]}_{part}'), or give "
                f"each file its own data set (dataset: '{part}')")
            return []
    files = _matching(spec, src.path, parts)
    if not files:
        pattern = PART.sub("*", src.path)
        add(base + ("path",), f"no file matches {src.path} (the glob {pattern}, relative to the spec's "
            f"folder {spec.base_dir})")
        return []
    if not _header_problems(spec, i, src, [f for f, _ in files], add):
        return []
    out = []
    for _, values in files:
        names = {_fill(name, values): (name,) for name in src.learners}
        learners = {_fill(name, values): _filled_learner(learner, values) for name, learner in src.learners.items()}
        out.append((src.model_copy(update={"path": _fill(src.path, values), "learners": learners,
                                           "dataset": _fill(src.dataset, values) if src.dataset else None}),
                    names, values))
    return out


def _filled_learner(learner: Learner, values: dict) -> Learner:
    if learner.class_columns is None:
        return learner
    return learner.model_copy(update={"class_columns": _fill(learner.class_columns, values)})


def _matching(spec: Spec, path: str, parts: list[str]) -> list[tuple[str, dict[str, str]]]:
    """(path as the spec would write it, {part: value}) of each file matching the
    pattern, sorted by the parts' values; a part is one path segment or a piece of one."""
    resolved = str(spec.resolve(path))
    pieces = PART.split(resolved)  # literal, part, literal, part, ..., literal
    regex, seen = "", set()
    for k, piece in enumerate(pieces):
        if k % 2 == 0:
            regex += re.escape(piece)
        else:
            regex += f"(?P={piece})" if piece in seen else f"(?P<{piece}>[^/]+)"
            seen.add(piece)
    matcher = re.compile(regex)
    found = []
    for name in glob.glob(PART.sub("*", glob.escape(resolved))):
        m = matcher.fullmatch(name)
        if m is not None and Path(name).is_file():
            values = m.groupdict()
            found.append((_fill(path, values), values))
    return sorted(found, key=lambda f: tuple(_natural(f[1][p]) for p in parts))


def _header_problems(spec: Spec, i: int, src: DataSource, paths: list[str], add) -> bool:
    """Each named column in every file (one message per column, naming the pattern,
    how many files lack it and the first); True when there is none."""
    headers = {}
    for path in paths:
        try:
            headers[path] = column_names(spec.resolve(path))
        except Exception:  # unreadable: the data checks say why, file by file
            pass
    base = ("data", i)
    wanted = [(base + (key,), getattr(src, key)) for key in ("label", "id", "group", "weight")
              if getattr(src, key) is not None]
    wanted += [(base + ("slices", k), col) for k, col in enumerate(src.slices)]
    for name, learner in src.learners.items():
        if learner.score is not None:
            wanted.append((base + ("learners", name, "score"), learner.score))
        elif learner.predicted is not None:
            wanted.append((base + ("learners", name, "predicted"), learner.predicted))
        elif learner.scores is not None:
            wanted += [(base + ("learners", name, "scores", k), c) for k, c in enumerate(learner.scores)]
    ok = True
    for loc, col in wanted:
        lacking = [p for p, names in headers.items() if col not in names]
        if not lacking:
            continue
        ok = False
        names = headers[lacking[0]]
        shown = ", ".join(names[:_SHOWN]) + (", ..." if len(names) > _SHOWN else "")
        add(loc, f"column '{col}' is not in {len(lacking)} of the {len(paths)} files matching {src.path}; "
            f"the first: {lacking[0]} (columns: {shown}){suggest(col, names)}")
    return ok


def _columns(spec: Spec, i: int, src: DataSource, add) -> tuple[DataSource, dict]:
    """data[i] (one of its files) with its column patterns expanded: learners from
    ``match`` and per-class columns; and {new learner name: its original key}."""
    base = ("data", i)
    learners: dict[str, Learner] = {}
    names: dict[str, tuple] = {}
    for key, learner in src.learners.items():
        if learner.class_columns is not None:
            columns = _class_columns(spec, base + ("learners", key, "columns"), learner.class_columns, add)
            if columns is not None:
                learners[key] = learner.model_copy(update={"scores": columns, "class_columns": None})
                names[key] = (key, "columns")
        elif learner.match is not None:
            if key != "match":
                add(base + ("learners", key), "unknown key 'match' in a learner: a pattern over the columns "
                    "goes directly under learners (learners: {match: <regex>}) and names its learners")
                continue
            found = _matched(spec, i, src, learner.match, add)
            for name in sorted(found, key=_natural):
                learners[name] = Learner(score=found[name])
                names[name] = ("match",)
        else:
            learners[key] = learner
    if not names:
        return src, {}
    return src.model_copy(update={"learners": learners}), names


def _class_columns(spec: Spec, loc, template: str, add) -> list[str] | None:
    if spec.task != "multiclass":
        add(loc, f"columns: {cut(template)!r} names one score column per class of a multiclass task; a "
            "binary learner gives score: <column>")
        return None
    if "{class}" not in template:
        add(loc, f"columns: {cut(template)!r} must hold {{class}}, which each class of classes replaces "
            "(e.g. mlp_{class})")
        return None
    if not spec.classes:  # (the spec's checks say a multiclass task needs classes)
        return None
    return [template.replace("{class}", str(c)) for c in spec.classes]


def _matched(spec: Spec, i: int, src: DataSource, patterns: list[str], add) -> dict[str, str]:
    """learner name -> column, of the columns of data[i]'s file the patterns match."""
    loc = ("data", i, "learners", "match")
    if spec.task != "binary":
        add(loc, "match gives one score column per learner (binary); a multiclass learner names its "
            "columns per class: {columns: '<name>_{class}'}")
        return {}
    if src.table is not None:
        add(loc, "match reads the column names of a file (path); an in-memory table names its learners")
        return {}
    compiled = []
    for k, pattern in enumerate(patterns):
        at = loc + ((k,) if len(patterns) > 1 else ())
        if not isinstance(pattern, str) or not pattern:
            add(at, f"a pattern is a regular expression (text), got {pattern!r}")
            continue
        try:
            compiled.append((at, compile_pattern(pattern)))
        except ValueError as exc:
            add(at, f"{cut(pattern)!r} {exc}")
    if len(compiled) < len(patterns):
        return {}
    try:
        columns = column_names(spec.resolve(src.path))
    except FileNotFoundError:
        add(("data", i, "path"), f"no such file: {src.path} (match reads its column names)")
        return {}
    except Exception as exc:
        add(("data", i, "path"), f"cannot read the column names of {src.path} to match them: {exc}")
        return {}
    taken = {src.label, src.id, src.group, src.weight, *src.slices}
    taken.update(c for name, learner in src.learners.items() if name != "match" for c in learner.columns)
    typed = [name for name in src.learners if name != "match"]
    found: dict[str, tuple[str, str]] = {}  # name -> (column, pattern)
    for at, regex in compiled:
        hits = 0
        for col in columns:
            m = regex.fullmatch(col)
            if m is None or col in taken:
                continue
            hits += 1
            name = (m.group("name") if "name" in regex.groupindex
                    else m.group(1) if regex.groups == 1 else col)
            if not name:
                add(at, f"column '{col}' matches {regex.pattern!r} with an empty name")
            elif name in typed:
                add(at, f"learner '{name}' from column '{col}' (match {regex.pattern!r}) is also a learner "
                    "named in learners: give it another name or narrow the pattern")
            elif name in found and found[name][0] == col:
                add(at, f"column '{col}' matches both {found[name][1]!r} and {regex.pattern!r}: make the "
                    "patterns match distinct columns")
            elif name in found:
                other, by = found[name]
                add(at, f"learner '{name}' comes from two columns: '{other}' (match {by!r}) and '{col}' "
                    f"(match {regex.pattern!r}); make the patterns give distinct names")
            else:
                found[name] = (col, regex.pattern)
        if not hits:
            free = [c for c in columns if c not in taken]
            shown = ", ".join(free[:_SHOWN]) + (", ..." if len(free) > _SHOWN else "")
            add(at, f"no column of {src.path} matches {regex.pattern!r} (the whole name; columns: "
                f"{shown or 'none but those named'})")
    return {name: col for name, (col, _) in found.items()}
