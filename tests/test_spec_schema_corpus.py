"""Bad specs generated from the spec's JSON Schema (issue 36): every key the
schema names, at every level (the models' own schema: evalreport.spec.json_schema),
given what the schema says it cannot hold: each JSON type it does not take, a
number past each of its bounds, NaN and infinity, a number written as text, a
name outside its enumeration, a list one item too long, an item of the wrong
type, an unknown key in each mapping. Each case runs evalreport's main in this
process: exit status 2, every stderr line ``error: spec.yaml:N: key.path: ...``
(one of them at the key changed or a key holding it), no traceback, and nothing
written (a previous report stays byte for byte). The few values the schema
refuses and the spec takes are in ACCEPTED, each with the reason.

The schema is read when the tests are collected: a key added to the models is
in the corpus with no change here.
"""

from __future__ import annotations

import datetime as dt
import math
import os
from copy import deepcopy

import pytest

from evalreport.__main__ import main
from evalreport.spec import json_schema
from test_spec_corpus import BINARY, LINE, MULTICLASS, _dotted, _set, _snapshot, _write_case

#: the binary base of tests/test_spec_corpus.py, with every optional block present,
#: so that each key of the schema has a place in it
BASE = deepcopy(BINARY)
BASE["metrics"] = BASE["metrics"] + ["threshold_table", "calibration"]
BASE["thresholds"] = {"at": [0.5], "top_fraction": [0.1], "recall": [0.8], "fpr": [0.1]}
BASE["calibration"] = {"bins": 10, "strategy": "uniform"}
BASE["history"] = {"dir": "hist", "keep": 3}
BASE["confidence"] = {**BASE["confidence"], "mcnemar": "auto", "margin": 0.0, "slices_min": 10}
BASE["gates"] = [{**BASE["gates"][0], "dataset": "ds"}]
BASE["deployed"] = "a"
BASE["rank_by"] = "auc"

#: the multiclass base of tests/test_spec_corpus.py: the keys of a multiclass spec
BASES = {"binary": BASE, "multi": MULTICLASS}

SCHEMA = json_schema()
#: the learner whose keys are walked (it has a score and a threshold)
LEARNER = "b"


def _resolve(node: dict) -> dict:
    while "$ref" in node:
        node = SCHEMA["$defs"][node["$ref"].rsplit("/", 1)[1]]
    return node


def _members(node: dict) -> list[dict]:
    """The alternatives a value may take (a union's members, flattened)."""
    node = _resolve(node)
    if "anyOf" in node:
        return [m for sub in node["anyOf"] for m in _members({**sub, **{k: v for k, v in node.items()
                                                                       if k in ("gt", "ge", "lt", "le")}})]
    return [node]


def _types(members) -> set[str]:
    out = set()
    for m in members:
        if "const" in m or "enum" in m:
            out.add("name")
        elif "type" in m:
            out.add(m["type"])
        elif "properties" in m or "additionalProperties" in m:
            out.add("object")
    if "integer" in out:
        out.add("number-integral")
    return out


def _wrong_values(node: dict) -> dict:
    """{kind: value} of values the schema refuses at a key of schema ``node``."""
    members = _members(node)
    types = _types(members)
    out = {}
    out["binary"] = b"hi"  # the YAML tag !!binary: never a spec's value
    if not types & {"string", "name"}:
        out["text"] = "abc"
        out["a-date"] = dt.date(2026, 1, 2)
    if types & {"number", "integer"} and "string" not in types:
        out["quoted-number"] = "0.5"  # a number written as text (threshold: "0.5")
        out["nan"], out["inf"], out["-inf"] = math.nan, math.inf, -math.inf
    if "boolean" not in types:
        out["bool"] = True
    if "integer" in types and "number" not in types:
        out["fraction"] = 1.5
    if not types & {"number", "integer", "boolean"}:
        out["number"] = 7
    if "array" not in types:
        out["list"] = [1]
    if "object" not in types:
        out["mapping"] = {"k": 1}
    if "null" not in types:
        out["null"] = None
    if types & {"name"} and not types & {"string"}:
        out["unknown-name"] = "zzz_unknown"
    for m in members:  # a number past each bound
        for key, past in (("minimum", -1), ("exclusiveMinimum", 0), ("maximum", 1), ("exclusiveMaximum", 0)):
            if key in m:
                out[f"{key}"] = m[key] + past
        for key, past in (("ge", -1), ("gt", 0), ("le", 1), ("lt", 0)):
            if key in m:
                out[f"bound-{key}"] = m[key] + past
        if m.get("type") == "array" and "maxItems" in m:
            out["too-many-items"] = [1.0] * (m["maxItems"] + 1)
        if m.get("type") == "array" and "items" in m:
            for kind, value in _wrong_values(m["items"]).items():
                if kind not in ("null",) or "null" not in _types(_members(m["items"])):
                    out[f"item-{kind}"] = [value]
    return out


def _keys(node: dict, path: tuple, value) -> list[tuple[tuple, dict]]:
    """(key path, schema) of every key below ``path`` whose parent is in the base spec."""
    node = _resolve(node)
    out = []
    objects = [m for m in _members(node) if "properties" in m or "additionalProperties" in m]
    for m in objects:
        if not isinstance(value, dict):
            continue
        for key, sub in (m.get("properties") or {}).items():
            if _resolve(sub).get("x-internal") or sub.get("x-internal"):
                continue
            out.append((path + (key,), sub))
            out += _keys(sub, path + (key,), value.get(key))
        extra = m.get("additionalProperties")
        if isinstance(extra, dict):  # a mapping of names: the learners, spark.conf
            name = LEARNER if LEARNER in value else next(iter(value), None)
            if name is not None:
                out.append((path + (name,), extra))
                out += _keys(extra, path + (name,), value[name])
        if m.get("additionalProperties") is False:
            out.append((path + ("zzz_unknown",), {"x-unknown": True}))
    for m in _members(node):
        if m.get("type") == "array" and isinstance(value, list) and value:
            item = m.get("items", {})
            out.append((path + (0,), item))
            out += _keys(item, path + (0,), value[0])
    return out


def _cases():
    for name, base in BASES.items():
        seen = set()
        for path, node in _keys(SCHEMA, (), base):
            if path in seen:
                continue
            seen.add(path)
            if node.get("x-unknown"):
                yield f"{name}-{_dotted(path)}", name, path, 1
                continue
            for kind, value in _wrong_values(node).items():
                yield f"{name}-{_dotted(path)}-{kind}", name, path, value


CASES = list(_cases())

#: values the schema refuses and the spec takes (exit 0): case id -> why
ACCEPTED: dict[str, str] = {}


def test_the_corpus_covers_the_schema():
    assert len(CASES) >= 1000, len(CASES)
    paths = {c[2][0] for c in CASES}
    assert set(SCHEMA["properties"]) <= paths | {"base_dir", "source"}
    assert set(ACCEPTED) <= {c[0] for c in CASES}


# the inner loop (pytest -m "not slow") runs every fifth case, the whole suite all
@pytest.mark.parametrize("case_id,base,path,value", [
    pytest.param(*c, id=c[0], marks=[pytest.mark.slow] if i % 5 else []) for i, c in enumerate(CASES)])
def test_schema_mutation(tmp_path, capsys, case_id, base, path, value):
    spec_path = _write_case(tmp_path, _set(BASES[base], path, value))
    before = _snapshot(tmp_path)
    status = main(["run", str(spec_path), "--quiet", "--format", "json"])
    captured = capsys.readouterr()
    err = captured.err.replace(str(tmp_path) + os.sep, "")
    assert "Traceback" not in err + captured.out
    if case_id in ACCEPTED:
        assert status in (0, 3), err
        return
    assert status == 2, f"exit {status}, stderr: {err[:2000]}"
    lines = err.splitlines()
    assert lines
    for line in lines:
        assert LINE.match(line), line[:300]
    top = path[0]
    assert any(LINE.match(line)["path"].startswith(top) for line in lines), (top, lines)
    assert _snapshot(tmp_path) == before
