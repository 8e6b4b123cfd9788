"""A generated corpus of bad specs: every key of a small valid binary spec and a
small valid multiclass spec, at every level, given every wrong type and every
awkward value. Each is refused with exit status 2, one ``error: spec.yaml:N:
key.path: ...`` line per problem, no traceback, and nothing written (a previous
report stays byte for byte); the few mutations that are legitimately valid are
listed in VALID with the reason. Then the explicit cases of issue 17: YAML
tags, unhashable and duplicate keys, YAML bombs, values that were accepted and
then crashed or were misread, a spec path that is not a regular file, and a
template folder that does not exist."""

from __future__ import annotations

import datetime as dt
import json
import math
import os
import re
import subprocess
import sys
from copy import deepcopy
from pathlib import Path

import pytest
import yaml

from evalreport.__main__ import main
from specs import BASE

BINARY_CSV = "id,y,p_a,p_b,yhat,w,fold\n" + "".join(
    f"{i},{i % 2},{(i * 7 % 10) / 10},{(i * 3 % 10) / 10},{(i + 1) % 2},1,{i % 3}\n" for i in range(1, 21))
MULTI_CSV = "id,y,s_a,s_b,s_c,t_a,t_b,t_c,yhat\n" + "".join(
    f"{i},{'abc'[i % 3]},{(i * 7 % 10) / 10},{(i * 3 % 10) / 10},{(i * 9 % 10) / 10},"
    f"{(i * 5 % 10) / 10},{(i * 1 % 10) / 10},{(i * 2 % 10) / 10},{'abc'[(i + 1) % 3]}\n" for i in range(1, 31))

BINARY = {
    "version": 1,
    "title": "Binary",
    "description": "A *small* spec.",
    "date": dt.date(2026, 1, 2),
    "task": "binary",
    "positive": 1,
    "data": [{"path": "pred.csv", "label": "y", "id": "id", "dataset": "ds", "engine": "memory",
              "memory_limit": "1GB",
              "learners": {"a": "p_a", "b": {"score": "p_b", "threshold": 0.4}, "c": {"predicted": "yhat"}}}],
    "threshold": 0.5,
    "priors": {"positive": 0.3},
    "costs": {"false_negative": 5, "false_positive": 1},
    "metrics": ["auc", "roc", "pr", "f1", "fbeta", "average_precision", "bep", "cost_curve",
                "expected_total_cost", "cost_sensitive_error", "confusion_matrix"],
    "fbeta": [0.5, 2.0],
    "partial_auc": {"max_fpr": 0.2, "standardized": True},
    "compare": ["envelopment", "auc", "delong", "mcnemar"],
    "confidence": {"level": 0.9, "bootstrap": 20, "seed": 3},
    "gates": [{"learner": "a", "metric": "auc", "min": 0.0, "max": 1.0}],
    "report": {"formats": ["json"], "out": "out", "template": "default", "curve_points": 50},
    "spark": {"master": "local[1]", "conf": {"spark.ui.enabled": "false"}},
}
MULTICLASS = {
    "version": 1,
    "title": "Multiclass",
    "task": "multiclass",
    "classes": ["a", "b", "c"],
    "data": [{"path": "multi.csv", "label": "y", "id": "id",
              "learners": {"m": ["s_a", "s_b", "s_c"], "n": {"scores": ["t_a", "t_b", "t_c"]},
                           "h": {"predicted": "yhat"}}}],
    "priors": {"a": 0.2, "b": 0.3, "c": 0.5},
    "costs": {"matrix": [[0, 1, 2], [1, 0, 1], [2, 1, 0]]},
    "confidence": {"bootstrap": 0},
    "report": {"formats": ["json"], "out": "out"},
}
BASES = {"binary": BINARY, "multi": MULTICLASS}

HUGE = "x" * 2**20
#: every wrong type and awkward value a key is given
WRONG = {
    "text": "abc",
    "number": 7,
    "bool": True,
    "list": [1],
    "mapping": {"k": 1},
    "null": None,
    "nan": math.nan,
    "inf": math.inf,
    "-inf": -math.inf,
    "empty-list": [],
    "empty-mapping": {},
    "1e308": 1e308,
    "1e30": 10**30,
    "1MB": HUGE,
}

D, L = ("data", 0), ("data", 0, "learners")
KEYS = {
    "binary": [
        ("version",), ("title",), ("description",), ("date",), ("task",), ("positive",), ("classes",),
        ("data",), ("threshold",), ("priors",), ("costs",), ("metrics",), ("fbeta",), ("partial_auc",),
        ("compare",), ("confidence",), ("gates",), ("report",), ("spark",),
        D, D + ("path",), D + ("label",), D + ("id",), D + ("group",), D + ("weight",), D + ("dataset",),
        D + ("engine",), D + ("resolution",), D + ("kind",), D + ("database",), D + ("memory_limit",),
        D + ("learners",),
        L + ("a",), L + ("b",), L + ("b", "score"), L + ("b", "threshold"), L + ("c", "predicted"),
        L + ("c", "scores"),
        ("metrics", 0), ("fbeta", 0), ("compare", 0),
        ("confidence", "level"), ("confidence", "bootstrap"), ("confidence", "seed"),
        ("partial_auc", "max_fpr"), ("partial_auc", "standardized"),
        ("gates", 0), ("gates", 0, "learner"), ("gates", 0, "metric"), ("gates", 0, "min"), ("gates", 0, "max"),
        ("report", "formats"), ("report", "formats", 0), ("report", "out"), ("report", "template"),
        ("report", "curve_points"),
        ("spark", "master"), ("spark", "remote"), ("spark", "conf"), ("spark", "conf", "spark.ui.enabled"),
        ("priors", "positive"), ("costs", "false_negative"), ("costs", "false_positive"),
    ],
    "multi": [
        ("task",), ("classes",), ("classes", 0), ("positive",), ("priors",), ("priors", "a"), ("costs",),
        ("costs", "matrix"), ("costs", "matrix", 0), ("costs", "matrix", 0, 1), ("costs", "matrix", 1, 1),
        L + ("m",), L + ("m", 0), L + ("n",), L + ("n", "scores"), L + ("n", "scores", 1),
        L + ("h", "predicted"),
    ],
}
#: a key no model knows, added to every mapping (the value is valid where any key is)
UNKNOWN_AT = {
    "binary": [(), D, L + ("b",), ("confidence",), ("partial_auc",), ("gates", 0), ("report",), ("spark",),
               ("priors",), ("costs",), L, ("spark", "conf")],
    "multi": [("priors",), ("costs",), L + ("n",)],
}


def _dotted(path) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else ("." if out else "") + str(part)
    return out or "top"


def _set(spec: dict, path, value) -> dict:
    spec = deepcopy(spec)
    node = spec
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    return spec


def _holds(spec: dict, path):
    """The base spec's value at ``path``, or None where it has none."""
    node = spec
    for part in path:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return None
    return node


def _huge_is_its_own_case(base: str, path) -> bool:
    """Whether the 1 MB text is a case of its own at ``path``: where the spec holds text there
    (a title, a name, a column, a path: the text is read, looked up, suggested from, echoed) or
    nothing. Where it holds a number, a boolean, a list or a mapping, a text is refused for its
    type whatever its length, which the "text" case at the same key checks."""
    value = _holds(BASES[base], path)
    return value is None or isinstance(value, str)


def _cases():
    for base, keys in KEYS.items():
        for path in keys:
            for kind in WRONG:
                if WRONG[kind] is HUGE and not _huge_is_its_own_case(base, path):
                    continue
                yield f"{base}-{_dotted(path)}-{kind}", base, path, WRONG[kind]
        for path in UNKNOWN_AT[base]:
            yield f"{base}-{_dotted(path)}-unknown-key", base, path + ("zzz_unknown",), 1


CASES = list(_cases())

_TEXT = ("text", "1MB")
_NUMBERS = ("number", "1e308", "1e30")
#: mutations that are legitimately valid (exit 0): case id -> the reason
VALID = {
    **{f"binary-title-{k}": "any text is a title" for k in _TEXT},
    **{f"binary-description-{k}": "any text is a description (Markdown)" for k in _TEXT},
    "binary-description-null": "description is optional",
    "binary-date-null": "date is optional (SOURCE_DATE_EPOCH, else today)",
    "binary-positive-null": "positive is optional (default 1)",
    "binary-classes-null": "classes is optional, for multiclass tasks",
    **{f"binary-threshold-{k}": "any finite threshold (above the scores: nothing predicted positive)"
       for k in _NUMBERS},
    "binary-priors-null": "priors are optional (the observed share)",
    "binary-costs-null": "costs are optional (1 and 1)",
    "binary-metrics-empty-list": "no metrics: a report of the comparisons and gates",
    "binary-fbeta-list": "fbeta: [1] is F1",
    **{f"binary-fbeta[0]-{k}": "any positive beta whose square is finite" for k in _NUMBERS if k != "1e308"},
    "binary-fbeta-empty-list": "no F-beta reported",
    "binary-partial_auc-null": "partial_auc is optional",
    "binary-compare-empty-list": "no comparisons",
    "binary-confidence-empty-mapping": "every confidence key has a default",
    "binary-gates-empty-list": "no gates",
    "binary-report-empty-mapping": "every report key has a default (--format json here)",
    "binary-spark-null": "spark is optional",
    "binary-spark-empty-mapping": "every spark key has a default",
    **{f"binary-data[0].{key}-null": "optional" for key in ("id", "group", "weight", "dataset", "resolution",
                                                             "database")},
    **{f"binary-data[0].dataset-{k}": "any name of a data set" for k in _TEXT},
    **{f"binary-data[0].learners.b.threshold-{k}": "any finite threshold" for k in _NUMBERS},
    "binary-data[0].learners.b.threshold-null": "threshold is optional (the spec's)",
    "binary-data[0].learners.c.scores-null": "scores is optional (c gives predicted)",
    "binary-confidence.bootstrap-number": "7 resamples (few, but a count)",
    "binary-confidence.bootstrap-1e30": "too many resamples for the data: skipped with a warning",
    "binary-confidence.seed-number": "any seed >= 0",
    "binary-confidence.seed-1e30": "NumPy takes seeds of any size",
    "binary-partial_auc.standardized-bool": "standardized is a boolean",
    "binary-gates[0].min-null": "the gate keeps its max",
    **{f"binary-gates[0].max-{k}": "any finite bound" for k in _NUMBERS},
    "binary-gates[0].max-null": "the gate keeps its min",
    "binary-report.out-text": "any folder (relative to the spec)",
    "binary-report.curve_points-number": "7 points per curve",
    "binary-report.curve_points-1e30": "at most that many points: all of them",
    **{f"binary-spark.{key}-{k}": "spark options are unused by engine memory"
       for key in ("master", "remote") for k in _TEXT},
    "binary-spark.master-null": "optional",
    "binary-spark.remote-null": "optional",
    "binary-spark.conf-empty-mapping": "no Spark options",
    **{f"binary-spark.conf.spark.ui.enabled-{k}": "any Spark option value (text)" for k in _TEXT},
    **{f"binary-costs.{key}-{k}": "any cost >= 0 up to 1e100 (costs are relative)"
       for key in ("false_negative", "false_positive") for k in _NUMBERS if k != "1e308"},
    "multi-positive-null": "positive is optional (and for binary tasks)",
    "multi-priors-null": "priors are optional",
    "multi-priors-empty-mapping": "no class priors: the observed shares",
    "multi-costs-null": "costs are optional",
    **{f"multi-costs.matrix[0][1]-{k}": "any cost >= 0 up to 1e100 off the diagonal" for k in ("number", "1e30")},
}
#: valid, but a gate fails (exit 3): case id -> the reason
GATE_FAILS = {
    "binary-gates[0].learner-null": "the gate then applies to c too, whose AUC is undefined (hard decisions)",
}
#: a mutation of the first key may be reported at these other keys (that depend on it)
RELATED = {
    "classes": ("task", "priors", "costs"),
}


def _snapshot(folder: Path) -> dict:
    return {str(p.relative_to(folder)): p.read_bytes() if p.is_file() else None
            for p in sorted(folder.rglob("*"))}


def _write_case(tmp_path: Path, spec: dict) -> Path:
    (tmp_path / "pred.csv").write_text(BINARY_CSV)
    (tmp_path / "multi.csv").write_text(MULTI_CSV)
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "results.json").write_text('{"previous": "report"}\n')
    path = tmp_path / "spec.yaml"
    # PyYAML's emitter looks at 1 MB of text one character at a time: dump a stand-in;
    # libyaml's emitter where PyYAML has it (the same YAML; Python's emitter took a seventh
    # of this file's CPU): what the corpus tests is evalreport's reading of the text
    text = yaml.dump(_unhuge(spec), Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper), sort_keys=False,
                     allow_unicode=True)
    path.write_text(text.replace("HUGE_STAND_IN", HUGE))
    return path


def _unhuge(value):
    if value is HUGE:
        return "HUGE_STAND_IN"
    if isinstance(value, dict):
        return {k: _unhuge(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_unhuge(v) for v in value]
    return value


#: an error line: the spec file, a line number, a key path
LINE = re.compile(r"^error: spec\.yaml:\d+: (?P<path>\(top level\)|[^\s\[\]]+?(\[\d+\])*(\.[^\s\[\]:]+?(\[\d+\])*)*): ")


# The inner loop (pytest -m "not slow") runs every fifth case and none of the 1 MB
# values (half the file's time); the whole suite runs them all.
@pytest.mark.parametrize("case_id,base,path,value", [
    pytest.param(*c, id=c[0], marks=[pytest.mark.slow] if c[0].endswith("-1MB") or i % 5 else [])
    for i, c in enumerate(CASES)])
def test_mutation(tmp_path, capsys, case_id, base, path, value):
    spec = _set(BASES[base], path, value)
    spec_path = _write_case(tmp_path, spec)
    before = _snapshot(tmp_path)
    status = main(["run", str(spec_path), "--quiet", "--format", "json"])
    captured = capsys.readouterr()
    err = captured.err.replace(str(tmp_path) + os.sep, "")
    assert "Traceback" not in err + captured.out
    if case_id in VALID or case_id in GATE_FAILS:
        assert status == (0 if case_id in VALID else 3), err
        return
    assert status == 2, f"exit {status}, stderr: {err[:2000]}"
    lines = err.splitlines()
    assert lines
    for line in lines:
        assert LINE.match(line), line[:300]
    # one of the problems is named at the key mutated, one of its parents or one below it
    tops = (path[0],) + RELATED.get(path[0], ())
    assert any(LINE.match(line)["path"].startswith(tops) for line in lines), (tops, lines)
    assert _snapshot(tmp_path) == before


def test_valid_list_names_real_cases():
    ids = {c[0] for c in CASES}
    assert set(VALID) | set(GATE_FAILS) <= ids, (set(VALID) | set(GATE_FAILS)) - ids
    assert len(CASES) > 900


# ---------------------------------------------------------------------------
# The explicit cases of issue 17, each with its exact message

TAG_ADVICE = "is not allowed; a spec holds text, numbers, booleans, dates, lists and mappings"
UNKNOWN_THRESOLD = ("unknown key 'thresold' (did you mean 'threshold'?); valid keys here: score, scores, "
                    "predicted, threshold, columns")
MERGE_ADVICE = "a merge key (<<) takes a mapping (<<: *name) or a list of them (<<: [*a, *b])"


def _cycle(name: str, line: int) -> str:
    return f"*{name} is inside &{name} (line {line}), the list or mapping it repeats: it would repeat for ever"


def _budget(name: str, line: int) -> str:
    return (f"the spec expands to more than 100,000 values through aliases (*{name} at line {line}); "
            "a spec this large is refused")
NOT_BOOL = "Input should be a number, not a boolean (got True)"


def _nested(opening: str, closing: str, depth: int) -> str:
    return opening * depth + "1" + closing * depth


def _laughs(levels: int = 9) -> str:
    lines = ["lol0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"lol{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, levels + 1)]
    return "\n".join(lines) + "\n"


# (name, spec text, expected stderr lines)
EXPLICIT = [
    # 1. YAML tags of every kind, scalars their tag cannot read, keys that are not text
    ("python object apply", BASE + "x: !!python/object/apply:os.system [echo hi]\n",
     [f"error: spec.yaml:11: x: the YAML tag !!python/object/apply:os.system {TAG_ADVICE}"]),
    ("python name", BASE.replace("title: t", "title: !!python/name:os.system"),
     [f"error: spec.yaml:2: title: the YAML tag !!python/name:os.system {TAG_ADVICE}"]),
    ("python module", BASE.replace("title: t", "title: !!python/module:os"),
     [f"error: spec.yaml:2: title: the YAML tag !!python/module:os {TAG_ADVICE}"]),
    ("unknown verbatim tag", BASE.replace("title: t", "title: !<tag:yaml.org,2002:nonsense> t"),
     [f"error: spec.yaml:2: title: the YAML tag !!nonsense {TAG_ADVICE}"]),
    ("binary, set and local tags", BASE + "x: !!binary aGk=\ny: !!set {a}\nz: !local 1\n",
     [f"error: spec.yaml:11: x: the YAML tag !!binary {TAG_ADVICE}",
      f"error: spec.yaml:12: y: the YAML tag !!set {TAG_ADVICE}",
      f"error: spec.yaml:13: z: the YAML tag !local {TAG_ADVICE}"]),
    ("int tag on text", BASE.replace("version: 1", "version: !!int abc"),
     ["error: spec.yaml:1: version: 'abc' is not a valid integer"]),
    ("float tag on text", BASE + "threshold: !!float abc\n",
     ["error: spec.yaml:11: threshold: 'abc' is not a valid number"]),
    ("timestamp tag on text", BASE + "date: !!timestamp xyz\n",
     ["error: spec.yaml:11: date: 'xyz' is not a valid date"]),
    ("list as a key", BASE + "? [a, b]\n: 1\n",
     ["error: spec.yaml:11: (top level): a key must be text, not a list or mapping"]),
    ("mapping as a learner's key", BASE.replace("      b: p_b\n", "      b: p_b\n      ? {a: 1}\n      : p_b\n"),
     ["error: spec.yaml:10: data[0].learners: a key must be text, not a list or mapping"]),
    ("keys that read as a boolean, a number, null", BASE + "yes: 1\n1.5: 2\n~: 3\n",
     ["error: spec.yaml:11: yes: a key must be text, and 'yes' reads as a boolean; quote it",
      "error: spec.yaml:12: 1.5: a key must be text, and '1.5' reads as a number; quote it",
      "error: spec.yaml:13: ~: a key must be text, and '~' reads as null; quote it"]),
    ("merge key of text", BASE + "<<: [d]\n", [f"error: spec.yaml:11: <<: {MERGE_ADVICE}"]),
    ("merge key of an alias of text", BASE.replace("title: t", "title: &t t") + "<<: *t\n",
     [f"error: spec.yaml:11: <<: {MERGE_ADVICE}"]),
    ("two merge keys", BASE + "<<: {description: d}\n<<: {description: e}\n",
     ["error: spec.yaml:12: <<: duplicate key (first at line 11)"]),
    ("control character", BASE + "description: x\x00\n",
     ["error: spec.yaml:11: invalid YAML: unacceptable character #x0000: special characters are not allowed"]),
    ("duplicate anchor", BASE.replace("title: t", "title: &a t\ndescription: &a d"),
     ["error: spec.yaml:3: invalid YAML: found duplicate anchor 'a' (first at line 2)"]),
    ("two documents", BASE + "---\nversion: 1\n",
     ["error: spec.yaml:11: invalid YAML: expected a single document in the stream, but found another document"]),
    # 2. duplicate keys at every level
    ("duplicate top key", BASE + "title: u\n",
     ["error: spec.yaml:11: title: duplicate key (first at line 2)"]),
    ("duplicate data key", BASE.replace("    id: id\n", "    id: id\n    label: y\n"),
     ["error: spec.yaml:7: data[0].label: duplicate key (first at line 5)"]),
    ("duplicate learner", BASE.replace("      b: p_b\n", "      b: p_b\n      a: p_b\n"),
     ["error: spec.yaml:10: data[0].learners.a: duplicate key (first at line 8)"]),
    ("duplicate key of a learner", BASE.replace("b: p_b", "b: {score: p_b, score: p_a}"),
     ["error: spec.yaml:9: data[0].learners.b.score: duplicate key (first at line 9)"]),
    ("duplicate gate key", BASE + "gates:\n  - {metric: auc, min: 0.5, min: 0.6}\n",
     ["error: spec.yaml:12: gates[0].min: duplicate key (first at line 12)"]),
    ("duplicate report key", BASE.replace("out: out}", "out: out, out: o2}"),
     ["error: spec.yaml:10: report.out: duplicate key (first at line 10)"]),
    # 3. a problem inside an aliased or merged mapping: where it is written, and where each alias
    # uses it (the YAML bombs are below, in a process with bounded memory)
    ("unknown key in an aliased learner",
     BASE.replace("      a: p_a\n", "      a: &l {score: p_a, thresold: 1}\n      c: *l\n"),
     [f"error: spec.yaml:8: data[0].learners.a.thresold: {UNKNOWN_THRESOLD}",
      f"error: spec.yaml:9: data[0].learners.c.thresold: {UNKNOWN_THRESOLD}"]),
    ("unknown key in a merged learner",
     BASE.replace("      a: p_a\n", "      a: &l {score: p_a, thresold: 1}\n      c:\n        score: p_b\n"
                                      "        <<: *l\n"),
     [f"error: spec.yaml:8: data[0].learners.a.thresold: {UNKNOWN_THRESOLD}",
      f"error: spec.yaml:11: data[0].learners.c.thresold: {UNKNOWN_THRESOLD}"]),
    ("unknown key in an aliased data set",
     BASE.replace("  - path: pred.csv\n", "  - &d\n    path: pred.csv\n    lable: z\n")
         .replace("report:", "  - *d\nreport:"),
     ["error: spec.yaml:6: data[0].lable: unknown key 'lable' (did you mean 'label'?); valid keys here: path, table, "
      "label, id, group, slices, weight, dataset, replicates, engine, resolution, kind, database, memory_limit, learners",
      "error: spec.yaml:12: data[1].lable: unknown key 'lable' (did you mean 'label'?); valid keys here: path, table, "
      "label, id, group, slices, weight, dataset, replicates, engine, resolution, kind, database, memory_limit, learners",
      # the checks across keys in the same pass (issue 36): the entry repeats the learners of data[0]
      "error: spec.yaml:12: data[1].learners.a: learner 'a' is already defined in data[0] of the same data set; a "
      "name is unique within a data set",
      "error: spec.yaml:12: data[1].learners.b: learner 'b' is already defined in data[0] of the same data set; a "
      "name is unique within a data set"]),
    # a YAML problem is told once, where it is written, not again at each alias
    ("YAML tag in an aliased learner",
     BASE.replace("      a: p_a\n", "      a: &l {score: !!binary aGk=}\n      c: *l\n"),
     [f"error: spec.yaml:8: data[0].learners.a.score: the YAML tag !!binary {TAG_ADVICE}"]),
    ("duplicate key in an aliased learner",
     BASE.replace("      a: p_a\n", "      a: &l {score: p_a, score: p_b}\n      c: *l\n"),
     ["error: spec.yaml:8: data[0].learners.a.score: duplicate key (first at line 8)"]),
    ("mapping merged into itself", BASE + "gates:\n  - &g {metric: auc, <<: *g}\n",
     [f"error: spec.yaml:12: gates[0].<<: {_cycle('g', 12)}"]),
    ("list merged into its own mapping", BASE + "gates: &g\n  - {metric: auc, <<: *g}\n",
     [f"error: spec.yaml:12: gates[0].<<: {_cycle('g', 11)}"]),
    # 4. values accepted, then crashing or misread
    ("negative seed", BASE + "confidence: {seed: -1}\n",
     ["error: spec.yaml:11: confidence.seed: Input should be greater than or equal to 0 (got -1)"]),
    ("learner threshold nan", BASE.replace("b: p_b", "b: {score: p_b, threshold: .nan}"),
     ["error: spec.yaml:9: data[0].learners.b.threshold: Input should be a finite number (got nan)"]),
    ("learner threshold inf", BASE.replace("b: p_b", "b: {score: p_b, threshold: .inf}"),
     ["error: spec.yaml:9: data[0].learners.b.threshold: Input should be a finite number (got inf)"]),
    ("threshold -inf", BASE + "threshold: -.inf\n",
     ["error: spec.yaml:11: threshold: Input should be a finite number (got -inf)"]),
    ("gate min nan", BASE + "gates:\n  - {metric: auc, min: .nan}\n",
     ["error: spec.yaml:12: gates[0].min: Input should be a finite number (got nan)"]),
    ("gate max inf", BASE + "gates:\n  - {metric: auc, max: .inf}\n",
     ["error: spec.yaml:12: gates[0].max: Input should be a finite number (got inf)"]),
    ("true threshold", BASE + "threshold: true\n", [f"error: spec.yaml:11: threshold: {NOT_BOOL}"]),
    ("true prior", BASE + "priors: {positive: true}\n", [f"error: spec.yaml:11: priors.positive: {NOT_BOOL}"]),
    ("true cost", BASE + "costs: {false_negative: true, false_positive: 1}\n",
     ["error: spec.yaml:11: costs.false_negative: a cost must be a number >= 0, got True"]),
    ("true in a cost matrix",
     BASE.replace("version: 1\n", "version: 1\ntask: multiclass\nclasses: [0, 1]\n").replace(
         "a: p_a\n      b: p_b", "a: [p_b, p_a]") + "costs: {matrix: [[0, true], [1, 0]]}\n",
     ["error: spec.yaml:12: costs.matrix[0]: cost [0][1] must be a number >= 0, got True"]),
    ("true beta", BASE + "fbeta: [true]\n", [f"error: spec.yaml:11: fbeta[0]: {NOT_BOOL}"]),
    ("true level", BASE + "confidence: {level: true}\n", [f"error: spec.yaml:11: confidence.level: {NOT_BOOL}"]),
    ("true bootstrap", BASE + "confidence: {bootstrap: true}\n",
     [f"error: spec.yaml:11: confidence.bootstrap: {NOT_BOOL}"]),
    ("true seed", BASE + "confidence: {seed: true}\n", [f"error: spec.yaml:11: confidence.seed: {NOT_BOOL}"]),
    ("true curve points", BASE.replace("out: out}", "out: out, curve_points: true}"),
     [f"error: spec.yaml:10: report.curve_points: {NOT_BOOL}"]),
    ("true max_fpr", BASE + "partial_auc: {max_fpr: true}\n",
     [f"error: spec.yaml:11: partial_auc.max_fpr: {NOT_BOOL}"]),
    ("yes as a gate bound", BASE + "gates: [{metric: auc, min: yes}]\n",
     [f"error: spec.yaml:11: gates[0].min: {NOT_BOOL}"]),
    ("true gate max", BASE + "gates: [{metric: auc, max: true}]\n",
     [f"error: spec.yaml:11: gates[0].max: {NOT_BOOL}"]),
    ("true resolution", BASE.replace("    id: id\n", "    engine: duckdb\n    resolution: true\n"),
     [f"error: spec.yaml:7: data[0].resolution: {NOT_BOOL}"]),
    ("true version", BASE.replace("version: 1", "version: true"), [f"error: spec.yaml:1: version: {NOT_BOOL}"]),
    ("1 as standardized", BASE + "partial_auc: {max_fpr: 0.5, standardized: 1}\n",
     ["error: spec.yaml:11: partial_auc.standardized: Input should be a valid boolean (got 1)"]),
    ("date 0", BASE + "date: 0\n", ["error: spec.yaml:11: date: give a date as YYYY-MM-DD (got 0)"]),
    ("date 2026-13-45", BASE + "date: 2026-13-45\n",
     ["error: spec.yaml:11: date: '2026-13-45' is not a valid date (month must be in 1..12)"]),
    ("quoted date 2026-02-30", BASE + "date: '2026-02-30'\n",
     ["error: spec.yaml:11: date: '2026-02-30' is not a valid date (day is out of range for month)"]),
    ("date as text", BASE + "date: xyz\n", ["error: spec.yaml:11: date: give a date as YYYY-MM-DD (got 'xyz')"]),
    ("date with a time", BASE + "date: 2026-11-22 10:30:00\n",
     ["error: spec.yaml:11: date: give a date as YYYY-MM-DD (got a date and time)"]),
    ("learners named like types",
     BASE.replace("b: p_b", "str: {score: p_b, treshold: 1}\n      int: {score: 3}\n      date: {score: [x]}\n"
                            "      literal: {predicted: 1}\n      none: {scores: [1]}"),
     ["error: spec.yaml:9: data[0].learners.str.treshold: unknown key 'treshold' (did you mean 'threshold'?); "
      "valid keys here: score, scores, predicted, threshold, columns",
      "error: spec.yaml:10: data[0].learners.int.score: Input should be a valid string (got 3)",
      "error: spec.yaml:11: data[0].learners.date.score: Input should be a valid string",
      "error: spec.yaml:12: data[0].learners.literal.predicted: Input should be a valid string (got 1)",
      "error: spec.yaml:13: data[0].learners.none.scores[0]: Input should be a valid string (got 1)"]),
    ("learners named list and float",
     BASE.replace("b: p_b", "list: [p_a, p_b]\n      float: {score: p_b, threshold: x}"),
     # the checks across keys in the same pass (issue 36): a list learner in a binary task
     ["error: spec.yaml:9: data[0].learners.list: a list of score columns is for multiclass tasks; a binary "
      "learner gives one score column",
      "error: spec.yaml:10: data[0].learners.float.threshold: Input should be a valid number, unable to parse "
      "string as a number (got 'x')"]),
    ("list learner in a binary task", BASE.replace("b: p_b", "list: [p_a, p_b]"),
     ["error: spec.yaml:9: data[0].learners.list: a list of score columns is for multiclass tasks; a binary "
      "learner gives one score column"]),
    ("no formats", BASE.replace("formats: [json]", "formats: []"),
     ["error: spec.yaml:10: report.formats: give at least one format: html, pdf, json"]),
    ("beta squared overflows", BASE + "fbeta: [1.0e+200]\n",
     ["error: spec.yaml:11: fbeta[0]: beta must be a positive number (its square finite), got 1e+200"]),
    ("cost above 1e100", BASE + "costs: {false_negative: 1.0e+101, false_positive: 1}\n",
     ["error: spec.yaml:11: costs.false_negative: a cost must be at most 1e+100 (costs are relative: scale them "
      "down), got 1e+101"]),
    ("infinite cost in a matrix",
     BASE.replace("version: 1\n", "version: 1\ntask: multiclass\nclasses: [0, 1]\n").replace(
         "a: p_a\n      b: p_b", "a: [p_b, p_a]") + "costs: {matrix: [[0, .inf], [.nan, 0]]}\n",
     ["error: spec.yaml:12: costs.matrix[0]: cost [0][1] must be a number >= 0, got inf",
      "error: spec.yaml:12: costs.matrix[1]: cost [1][0] must be a number >= 0, got nan"]),
    ("class prior above 1",
     BASE.replace("version: 1\n", "version: 1\ntask: multiclass\nclasses: [0, 1]\n").replace(
         "a: p_a\n      b: p_b", "a: [p_b, p_a]") + "priors: {'0': 1.5}\n",
     ["error: spec.yaml:12: priors.0: a class prior must be in [0, 1], got 1.5"]),
    ("output folder is a file", BASE.replace("out: out}", "out: pred.csv}"),
     ["error: spec.yaml:10: report.out: pred.csv: is a file, not a folder"]),
    # 6. issue 36: sizes bounded, so that a large spec is refused in a second, not read for a minute
    ("101 betas", BASE + "fbeta: [" + ", ".join(["2.0"] * 101) + "]\n",
     ["error: spec.yaml:11: fbeta: List should have at most 100 items after validation, not 101"]),
    ("200,000 betas", BASE + "fbeta: [" + ", ".join(["2.0"] * 200_000) + "]\n",
     ["error: spec.yaml:11: fbeta[19971]: the spec holds more than 20,000 values (scalars, lists and mappings); "
      "a spec this large is refused"]),
    ("20 MB of comments", BASE + ("# " + "x" * 78 + "\n") * 250_000,
     ["error: spec.yaml: the spec holds more than the 2,097,152 characters a spec may hold (it names keys, "
      "columns and learners; the data is in the data files)"]),
    # 5. a template folder that does not exist: refused at validation, before any evaluation
    ("no template folder", BASE.replace("out: out}", "out: out, template: nowhere}"),
     ["error: spec.yaml:10: report.template: no such folder: nowhere"]),
    ("template folder with a typo", BASE.replace("out: out}", "out: out, template: mytemplate}"),
     ["error: spec.yaml:10: report.template: no such folder: mytemplate (did you mean 'mytemplates'?)"]),
    ("template is a file", BASE.replace("out: out}", "out: out, template: pred.csv}"),
     ["error: spec.yaml:10: report.template: pred.csv is a file; give a folder of templates (or 'default')"]),
]


def _write_text(tmp_path: Path, text: str) -> Path:
    (tmp_path / "pred.csv").write_text(BINARY_CSV)
    (tmp_path / "mytemplates").mkdir()
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "results.json").write_text('{"previous": "report"}\n')
    path = tmp_path / "spec.yaml"
    path.write_text(text)
    return path


@pytest.mark.parametrize("command", ["run", "validate"])
@pytest.mark.parametrize("name,text,expected", EXPLICIT, ids=[c[0] for c in EXPLICIT])
def test_explicit(tmp_path, capsys, command, name, text, expected):
    path = _write_text(tmp_path, text)
    before = _snapshot(tmp_path)
    status = main([command, str(path)] + (["--quiet"] if command == "run" else []))
    captured = capsys.readouterr()
    assert status == 2
    assert captured.err.replace(str(tmp_path) + os.sep, "").splitlines() == expected
    assert "Traceback" not in captured.err and captured.out == ""
    assert _snapshot(tmp_path) == before


@pytest.mark.parametrize("text", [
    BASE.replace("title: t", "title: &t T\ndescription: *t"),  # an alias of a plain value
    BASE + "date: 2026-11-22\n",
    BASE + "date: '2026-11-22'\n",
    BASE.replace("b: p_b", "str: p_b\n      list: {score: p_a}\n      date: {score: p_b, threshold: 0.3}"),
    BASE.replace("out: out}", "out: out, template: mytemplates}"),
    BASE.replace("out: out}", "out: out, template: default}"),
    BASE.replace("formats: [json]", "formats: [json, json]"),
], ids=["scalar alias", "date", "quoted date", "learners named like types", "template folder",
        "default template", "a format twice"])
def test_still_valid(tmp_path, capsys, text):
    path = _write_text(tmp_path, text)
    assert main(["validate", str(path)]) == 0, capsys.readouterr().err


def test_names_like_types_keep_their_place(tmp_path, capsys):
    # learners called 'str', 'list' and 'date' load under those names, with their columns
    from evalreport.spec import load_spec

    path = _write_text(tmp_path, BASE.replace("b: p_b", "str: p_b\n      list: {score: p_a}"))
    spec = load_spec(path)
    assert {n: lr.columns for n, lr in spec.data[0].learners.items()} == {
        "a": ["p_a"], "str": ["p_b"], "list": ["p_a"]}


def test_data_equals_yaml_load_for_the_shipped_specs():
    # one parse builds the data; it is what yaml.safe_load reads from every shipped spec
    from evalreport.spec import compose_lines

    root = Path(__file__).resolve().parents[1]
    specs = sorted(root.glob("examples/*/spec.yaml")) + sorted(root.glob("configs/*.yaml"))
    assert len(specs) >= 8
    for path in specs:
        text = path.read_text(encoding="utf-8")
        assert compose_lines(text, str(path))[0] == yaml.safe_load(text), path


def test_recursion_guard(tmp_path, capsys):
    # the nesting cap keeps the composer far from the recursion limit; called with
    # little stack left, the RecursionError is still a clear error
    from evalreport.errors import SpecError
    from evalreport.spec import parse_spec

    def at_depth(n):
        return at_depth(n - 1) if n else parse_spec(BASE.replace("title: t", "title: " + _nested("[", "]", 40)),
                                                    source="spec.yaml")

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(200)
    try:
        with pytest.raises(SpecError) as info:
            at_depth(150)
    finally:
        sys.setrecursionlimit(limit)
    assert info.value.problems == ["spec.yaml: invalid YAML: nested too deeply to be read"]


# A spec path that is not a regular file: refused before it is opened for reading

def test_fifo_as_spec(tmp_path, capsys):
    fifo = tmp_path / "spec.yaml"
    os.mkfifo(fifo)
    assert main(["validate", str(fifo)]) == 2  # blocked for ever before
    assert capsys.readouterr().err == f"error: {fifo}: a named pipe (FIFO), not a spec file\n"


def test_folder_as_spec(tmp_path, capsys):
    assert main(["run", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"error: {tmp_path}: a folder, not a spec file\n"


def test_device_as_spec(capsys):
    assert main(["validate", os.devnull]) == 2
    assert capsys.readouterr().err == f"error: {os.devnull}: a device, not a spec file\n"


# YAML bombs: refused in a separate process with bounded memory and time (the
# billion laughs took 6.2 GB and 1m49s, the others a RecursionError traceback)

def _bounded_memory():  # pragma: no cover - runs in the child
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))


TOO_DEEP = "lists and mappings nested more than 50 levels deep; a spec needs a few"


def _merged_laughs(levels: int = 9) -> str:
    # each mapping merges the one before nine times: a tiny mapping, built 9**levels times
    lines = ["m0: &m0 {lol: lol}"]
    lines += [f"m{i}: &m{i} {{<<: [" + ", ".join([f"*m{i - 1}"] * 9) + "]}" for i in range(1, levels + 1)]
    return "\n".join(lines) + "\n"


def _deep_through_aliases(levels: int = 20) -> str:
    # each line nests 40 deep, within the cap as written; through the aliases, 40 more each time
    lines = ["d0: &d0 " + _nested("[", "]", 40)]
    lines += [f"d{i}: &d{i} " + "[" * 40 + f"*d{i - 1}" + "]" * 40 for i in range(1, levels + 1)]
    return "\n".join(lines) + "\n"


BOMBS = {
    # 100,000 values: lol0 to lol4 build 74,718 through aliases, lol5's first alias 66,430 more
    "billion laughs": (BASE + _laughs(), [f"error: spec.yaml:16: lol5[0]: {_budget('l4', 16)}"]),
    "billion laughs of merge keys": (BASE + _merged_laughs(), [f"error: spec.yaml:16: m5.<<: {_budget('m4', 16)}"]),
    "alias inside its own anchor": (BASE.replace("title: t", "title: &x [*x]"), [
        f"error: spec.yaml:2: title[0]: {_cycle('x', 2)}"]),
    "nested deeper through aliases": (BASE + _deep_through_aliases(), [
        "error: spec.yaml:12: d1" + "[0]" * 40 + ": lists and mappings nested more than 50 levels deep through "
        "*d0; a spec needs a few"]),
    "5,000 nested brackets": (BASE.replace("title: t", "title: " + _nested("[", "]", 5000)), [
        f"error: spec.yaml:2: title: {TOO_DEEP}"]),
    "5,000 nested flow mappings": (BASE.replace("title: t", "title: " + _nested("{a: ", "}", 5000)), [
        f"error: spec.yaml:2: title: {TOO_DEEP}"]),
    "3,000 nested block mappings": (
        BASE.replace("title: t", "title:\n" + "".join(f"{' ' * i}  a:\n" for i in range(3000)) + " " * 3002 + "1"),
        # 4.5 million characters of indentation: past the size a spec may have (issue 36) before its depth
        ["error: spec.yaml: the spec holds more than the 2,097,152 characters a spec may hold (it names keys, "
         "columns and learners; the data is in the data files)"]),
}


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="resource limits are POSIX")
@pytest.mark.parametrize("name", list(BOMBS))
def test_yaml_bomb_in_a_bounded_process(tmp_path, name):
    text, expected = BOMBS[name]
    path = _write_text(tmp_path, text)
    proc = subprocess.run([sys.executable, "-m", "evalreport", "run", str(path), "--quiet"],
                          capture_output=True, text=True, preexec_fn=_bounded_memory,
                          timeout=600)  # a hang guard only: a refused bomb takes well under a second
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    assert proc.stderr.replace(str(tmp_path) + os.sep, "").splitlines() == expected
    assert (tmp_path / "out" / "results.json").read_text() == '{"previous": "report"}\n'


@pytest.mark.slow
@pytest.mark.parametrize("name", list(BOMBS))
def test_yaml_bomb_is_refused_within_its_budget(monkeypatch, name):
    # The budget bounds the work, not only the memory: the scalars built (each
    # through one of the loader's constructors) are at most MAX_EXPANDED through
    # aliases (100,000, the number its message gives) plus those written in the
    # text (fewer than its characters). Counted,
    # not timed, so that no load on the machine can fail it; past the bound the
    # count stops the build at once (a broken budget fails here, it does not hang).
    from evalreport.errors import SpecError
    from evalreport.spec import parse_spec
    from evalreport.spec import yaml_lines

    text = BOMBS[name][0]
    bound = 100_000 + len(text)
    built = 0

    def counted(construct):
        def constructor(loader, node):
            nonlocal built
            built += 1
            assert built <= bound, f"more than {bound:,} scalars built: the alias budget does not hold"
            return construct(loader, node)
        return constructor

    for loader in yaml_lines._loader_classes(text):  # libyaml's parser where it may read the text, then Python's
        constructors = {tag: counted(f) for tag, f in loader.yaml_constructors.items()}
        monkeypatch.setattr(loader, "yaml_constructors", constructors)
    with pytest.raises(SpecError) as info:
        parse_spec(text, source="spec.yaml")
    assert ["error: " + p for p in info.value.problems] == BOMBS[name][1]
    assert built <= bound
    if "through aliases (*" in BOMBS[name][1][0]:  # refused by the budget: the count saw it spent
        assert built > 50_000


# Aliases and merge keys: a block written once and used again, as YAML reads it

#: whether this PyYAML merges ``<<: [*a, *b]`` as the YAML merge-key spec says
#: (https://yaml.org/type/merge.html: keys of the earlier mapping win). PyYAML
#: 6.0.4 lets the later one win for keys of two or more characters (its merge-key
#: DoS fix, yaml/pyyaml#937; reported as the regression yaml/pyyaml#953), 6.0.3
#: did not. The spec reader follows the merge-key spec whatever PyYAML does, so
#: PyYAML is an oracle for merges only where it does too; the expected data below
#: is written out by hand from the merge-key spec either way.
PYYAML_MERGES_AS_THE_SPEC = yaml.safe_load("<<: [{kk: 1}, {kk: 2}]") == {"kk": 1}

REUSED_LEARNERS = """\
version: 1
data:
  - path: pred.csv
    label: y
    dataset: one
    learners: &L {a: p_a, b: {score: p_b, threshold: 0.4}}
  - path: other.csv
    label: y
    dataset: two
    learners: *L
report: {formats: [json], out: out}
"""


@pytest.mark.slow
def test_learners_block_reused_across_data_sets(tmp_path, capsys):
    # the alias runs as the block written out twice: results for both data sets
    outs = []
    for name, text in [("aliased", REUSED_LEARNERS),
                       ("written", REUSED_LEARNERS.replace("*L", "{a: p_a, b: {score: p_b, threshold: 0.4}}"))]:
        folder = tmp_path / name
        folder.mkdir()
        (folder / "pred.csv").write_text(BINARY_CSV)
        (folder / "other.csv").write_text("".join(BINARY_CSV.splitlines(keepends=True)[:11]))  # 10 rows
        (folder / "spec.yaml").write_text(text)
        assert main(["validate", str(folder / "spec.yaml")]) == 0
        assert main(["run", str(folder / "spec.yaml"), "--quiet"]) == 0, capsys.readouterr().err
        outs.append(json.loads((folder / "out" / "results.json").read_text()))
    aliased, written = outs
    assert list(aliased["learners"]) == ["a@one", "b@one", "a@two", "b@two"]
    assert {k: v["dataset"] for k, v in aliased["learners"].items()} == {
        "a@one": "one", "b@one": "one", "a@two": "two", "b@two": "two"}
    assert aliased["learners"]["b@two"]["threshold"] == 0.4
    assert [v["n"] for v in aliased["learners"].values()] == [20, 20, 10, 10]
    assert aliased == written


def test_merge_keys_with_overrides():
    # explicit keys win over merged ones; of merged mappings, the earlier wins (as yaml.safe_load)
    from evalreport.spec import compose_lines, parse_spec

    text = """\
version: 1
data:
  - &first
    path: pred.csv
    label: y
    dataset: one
    learners: &L {a: p_a, b: p_b}
  - <<: *first
    dataset: two
    learners: {<<: *L, b: {score: p_b, threshold: 0.3}, c: p_a}
  - <<: [{dataset: three, label: z}, *first, {path: x.csv}]
confidence: &c {level: 0.9}
partial_auc: &p {max_fpr: 0.2}
"""
    spec = parse_spec(text, source="spec.yaml")
    assert [(d.path, d.label, d.dataset) for d in spec.data] == [
        ("pred.csv", "y", "one"), ("pred.csv", "y", "two"), ("pred.csv", "z", "three")]
    assert {n: (lr.columns, lr.threshold) for n, lr in spec.data[1].learners.items()} == {
        "a": (["p_a"], None), "b": (["p_b"], 0.3), "c": (["p_a"], None)}
    data, lines = compose_lines(text, "spec.yaml")
    first = {"path": "pred.csv", "label": "y", "dataset": "one", "learners": {"a": "p_a", "b": "p_b"}}
    assert data == {
        "version": 1,
        "data": [first,
                 {**first, "dataset": "two", "learners": {"a": "p_a", "b": {"score": "p_b", "threshold": 0.3},
                                                          "c": "p_a"}},
                 {**first, "dataset": "three", "label": "z"}],
        "confidence": {"level": 0.9}, "partial_auc": {"max_fpr": 0.2}}
    if PYYAML_MERGES_AS_THE_SPEC:
        assert data == yaml.safe_load(text)
    # a merged key's line is the alias's (the place written), an explicit key's its own
    assert lines[("data", 1, "path")] == 8 and lines[("data", 1, "dataset")] == 9
    assert lines[("data", 1, "learners", "a")] == 10 and lines[("data", 2, "path")] == 11
    # below an alias, the line of the alias
    assert spec._locator.line(("data", 2, "learners", "a")) == 11


@pytest.mark.parametrize("text,expected", [
    ("a: &x {k: [1, {j: 2}]}\nb: *x\nc: [*x, *x]\n",
     {"a": {"k": [1, {"j": 2}]}, "b": {"k": [1, {"j": 2}]}, "c": [{"k": [1, {"j": 2}]}, {"k": [1, {"j": 2}]}]}),
    ("a: &x [1, 2]\nb: {<<: {k: 1}, k: 2}\nc: {<<: [{k: 1, l: 1}, {k: 2, m: 2}], l: 3}\n",
     {"a": [1, 2], "b": {"k": 2}, "c": {"k": 1, "l": 3, "m": 2}}),
    ("a: &x {k: 1}\nb: &y {<<: *x, l: 2}\nc: {<<: [*y, *x], m: 3}\nd: &t text\n*t : *t\n",
     {"a": {"k": 1}, "b": {"k": 1, "l": 2}, "c": {"k": 1, "l": 2, "m": 3}, "d": "text", "text": "text"}),
    ("a: &x [{k: 1}, {k: 2, l: 2}]\nb: {<<: *x}\n", {"a": [{"k": 1}, {"k": 2, "l": 2}], "b": {"k": 1, "l": 2}}),
    # keys of two characters: where PyYAML 6.0.4 lets the later mapping win
    ("c: {<<: [{kk: 1, ll: 1}, {kk: 2, mm: 2}], ll: 3}\n", {"c": {"kk": 1, "ll": 3, "mm": 2}}),
])
def test_aliases_read_as_the_merge_key_spec_says(text, expected):
    from evalreport.spec import compose_lines

    assert compose_lines(text, "spec.yaml")[0] == expected
    if PYYAML_MERGES_AS_THE_SPEC:
        assert yaml.safe_load(text) == expected


def test_exponent_without_a_dot_is_a_number_where_a_number_goes():
    # PyYAML (YAML 1.1) reads 1e3 as text: a numeric key takes it for the number it
    # reads as, while a label or a text stays as written
    from evalreport.spec import parse_spec

    spec = parse_spec("version: 1\n"
                      "data: [{path: a.csv, label: y, learners: {a: p}}]\n"
                      "costs: {false_negative: 1e3, false_positive: 2E-1}\n"
                      "threshold: -5e-1\n"
                      "positive: 1e3\n"
                      "title: 1e3\n")
    assert spec.costs == {"false_negative": 1000.0, "false_positive": 0.2}
    assert spec.threshold == -0.5
    assert spec.positive == "1e3" and spec.title == "1e3"
    matrix = parse_spec("version: 1\ntask: multiclass\nclasses: [a, b]\n"
                        "data: [{path: a.csv, label: y, learners: {m: [p, q]}}]\n"
                        "costs: {matrix: [[0, 1e2], [5E-1, 0]]}\n")
    assert matrix.costs == {"matrix": [[0, 100.0], [0.5, 0]]}
