"""libyaml's parser reads specs as PyYAML's pure-Python one does (evalreport/yaml_read.py).

The spec loader and the redaction read a text with libyaml's parser where
PyYAML has it, and fall back to the pure-Python reader on any refusal. What a
user sees must not depend on which ran: the same data and key lines, the same
refusal in the same words, the same redacted text. Each test compares the two
paths end to end, on every YAML file the project holds and on generated texts
(valid and not: YAML's own characters shuffled, dumped data cut anywhere).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evalreport import redact, yaml_read
from evalreport.errors import SpecError
from evalreport.spec import yaml_lines

from specs import BASE

ROOT = Path(__file__).resolve().parents[1]
YAML_FILES = sorted(p for pattern in ("examples/**/*.yaml", "configs/**/*.yaml", "tests/**/*.yaml", "*.yml")
                    for p in ROOT.glob(pattern))
#: the YAML blocks of the docs and the README (specs, parts of specs, a spec per key)
YAML_BLOCKS = [(f"{p.relative_to(ROOT)}#{i}", block)
               for p in sorted([ROOT / "README.md", *ROOT.glob("docs/**/*.md")])
               for i, block in enumerate(re.findall(r"```ya?ml\n(.*?)```", p.read_text(encoding="utf-8"), re.S))]

pytestmark = pytest.mark.skipif(not yaml_read.C_PARSER, reason="this PyYAML has no libyaml: one reader only")


def _pure(monkeypatch):
    """Within it, the pure-Python reader alone (as on a PyYAML without libyaml)."""
    monkeypatch.setattr(yaml_read, "C_PARSER", False)


def _outcome(function, text):
    try:
        return "read", function(text)
    except SpecError as exc:
        return "refused", exc.problems


def _lines(text):
    return yaml_lines.compose_lines(text, "spec.yaml")


def _both(monkeypatch, function, text):
    fast = _outcome(function, text)
    with monkeypatch.context() as m:
        _pure(m)
        slow = _outcome(function, text)
    return fast, slow


def _tree(node):
    """A node as comparable values: its kind, tag, value and marks, children first to last."""
    marks = (node.start_mark.index, node.start_mark.line, node.start_mark.column,
             node.end_mark.index, node.end_mark.line, node.end_mark.column)
    if isinstance(node, yaml.ScalarNode):
        # a plain scalar's style: None in Python, "" from libyaml (nothing in evalreport reads it)
        return ("scalar", node.tag, node.value, node.style or None, marks)
    if isinstance(node, yaml.SequenceNode):
        return ("sequence", node.tag, node.flow_style, marks, [_tree(n) for n in node.value])
    return ("mapping", node.tag, node.flow_style, marks, [(_tree(k), _tree(v)) for k, v in node.value])


def _tokens(tokens):
    return [(type(t).__name__, getattr(t, "value", None), t.start_mark.index, t.start_mark.line,
             t.start_mark.column, t.end_mark.index, t.end_mark.line, t.end_mark.column) for t in tokens]


def test_the_fast_path_runs_where_it_may():
    assert yaml_read.safe_loaders("a: 1\n") == (yaml.CSafeLoader, yaml.SafeLoader)
    assert yaml_lines._loader_classes("a: 1\n")[0] is not yaml_lines._Loader
    # a character the pure reader refuses: that reader alone, so the refusal is worded as before
    assert yaml_read.safe_loaders("a: \x07\n") == (yaml.SafeLoader,)
    assert yaml_lines._loader_classes("a: \x07\n") == (yaml_lines._Loader,)


def test_the_project_holds_yaml_to_compare():
    assert len(YAML_FILES) > 10, YAML_FILES  # examples, starter configs
    assert len(YAML_BLOCKS) > 5, [name for name, _ in YAML_BLOCKS]


@pytest.mark.parametrize("name,text", [*((str(p.relative_to(ROOT)), p.read_text(encoding="utf-8")) for p in YAML_FILES),
                                       *YAML_BLOCKS, ("tests/specs.py BASE", BASE)],
                         ids=lambda v: v if "\n" not in v else "")
def test_every_yaml_text_reads_alike(monkeypatch, name, text):
    fast_tokens, fast_root = yaml_read.scan_and_compose(text)
    pure_tokens = list(yaml.scan(text, Loader=yaml.SafeLoader))
    assert _tokens(fast_tokens) == _tokens(pure_tokens)
    assert _tree(fast_root) == _tree(yaml.compose(text, Loader=yaml.SafeLoader))
    fast, slow = _both(monkeypatch, _lines, text)
    assert fast == slow
    fast, slow = _both(monkeypatch, redact.redact_spec_text, text)
    assert fast == slow


#: YAML's own characters, letters, digits, spaces, line breaks and a few beyond ASCII
_YAML_CHARS = st.sampled_from(list(":-?,[]{}#&*!|>'\"%@`\\ \t\n\r") + list("abkxy019.") +
                              ["é", "日", "😀", "\x85", "\u2028", "\ufeff"])
#: the kinds of values a spec holds, nested
_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False) |
    st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text("abcdé_ ", min_size=1, max_size=6),
                                                                 inner, max_size=4),
    max_leaves=12)


def _dumped(value, flow, cut):
    text = yaml.safe_dump({"spec": value, "learners": {"a": {"score": "p", "threshold": 0.5}}},
                          default_flow_style=flow, allow_unicode=True, sort_keys=False)
    return text[:cut] if cut is not None else text


_TEXTS = (st.lists(_YAML_CHARS, max_size=60).map("".join)
          | st.builds(_dumped, _VALUES, st.sampled_from([False, True, None]), st.none() | st.integers(0, 200)))
_ANCHORED = st.sampled_from([
    "base: &b {score: p, threshold: 0.5}\nlearners:\n  a: *b\n  c:\n    <<: *b\n    threshold: 0.7\n",
    "x: &x [1, 2]\ny: *x\nz: *missing\n",
    "a: &a\n  b: *a\n",
    "k: 1\nk: 2\n",
    "? [a, b]\n: 1\n",
    "a: !!int 12\nb: !!float '1.5'\nc: !!python/name:os.system ''\n",
    "--- \na: 1\n--- \nb: 2\n",
    "a: |\n  two\n  lines\nb: >-\n  folded\n  text\n",
    "date: 2026-11-28\nwhen: 2026-11-28 10:00:00\nbad: 2026-13-45\n",
    "password: hunter2 # secret\n# token: abc\nurl: https://u:pw@host/x?key=v\n",
    "---\n", "---\nversion: 1\n", "a:\n  - \n  -\nb:\n", "{a: , b}\n", "a: # c\n  \nb: 2\n",
    "a:\nb: 1\n", "[a, , b]\n", "? a\n", "a: 'it''s'\nb: \"x\\ty\"\n", "a: b\r\nc: d\r\n",
])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=_TEXTS | _ANCHORED | (_TEXTS | _ANCHORED).map(lambda t: t + "\n"))
def test_generated_texts_read_alike(monkeypatch, text):
    fast, slow = _both(monkeypatch, _lines, text)
    assert fast == slow
    fast, slow = _both(monkeypatch, redact.redact_spec_text, text)
    assert fast == slow
