"""The spec printed as written (report/spec_lines.py): numbered as in the file, each
long line folded into marked pieces that join to the line."""

from __future__ import annotations

import pytest
import yaml
from hypothesis import assume, given
from hypothesis import strategies as st

from evalreport.report.spec_lines import FOLD_WIDTH, fold, spec_lines

LINE = st.text(alphabet=st.sampled_from("ab :#-{}[],'\"\t\u00e9"), max_size=260)


@given(LINE, st.integers(1, 120))
def test_a_folded_line_joins_to_the_line(line, width):
    pieces = fold(line, width)
    assert "".join(pieces) == line
    assert all(len(p) <= width for p in pieces)
    assert all(pieces[:-1])  # no empty piece but a line that is empty
    assert len(pieces) == 1 or len(line) > width


def test_a_fold_prefers_a_space_in_the_last_third():
    assert fold("aaaa bbbb cccc", 10) == ("aaaa bbbb ", "cccc")
    assert fold("aaaaaaa bbbbbbbbb", 10) == ("aaaaaaa ", "bbbbbbbbb")
    assert fold("a" * 25, 10) == ("a" * 10, "a" * 10, "a" * 5)


@pytest.mark.slow
@given(st.lists(LINE, max_size=30), st.sampled_from(["\n", "\r\n", "\r"]), st.booleans())
def test_the_numbers_are_the_files_lines(lines, newline, final_break):
    lines = [ln.replace("\r", "").replace("\n", "") for ln in lines]
    assume(final_break or not lines or lines[-1])  # a text ending in a break has no empty line after it
    text = newline.join(lines) + (newline if final_break and lines else "")
    got = spec_lines(text, 40)
    if not text:
        assert got == ()
        return
    assert [g.number for g in got] == list(range(1, len(got) + 1))
    assert ["".join(g.pieces) for g in got] == lines


def test_the_line_numbers_are_those_of_pyyamls_marks():
    # the numbers the error messages give come from PyYAML's marks (0-based lines)
    text = "a: 1\r\nb:\r\n  - 2\n\n# a comment\nc: {d: 3}\n"
    node = yaml.compose(text)
    for key, value in node.value:
        line = spec_lines(text)[key.start_mark.line]
        assert "".join(line.pieces).lstrip().startswith(key.value)


def test_a_long_line_is_folded_at_the_print_width():
    line = "description: " + "word " * 60
    (only,) = spec_lines(line)
    assert len(only.pieces) > 1 and "".join(only.pieces) == line
    assert all(len(p) <= FOLD_WIDTH for p in only.pieces)
