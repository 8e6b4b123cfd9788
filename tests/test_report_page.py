"""The report's context is typed (report/page.py): the templates read declared
fields only, a typo fails (in a template: Jinja's StrictUndefined; in a builder:
the dataclass refuses the name), and the render's values are added by name."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import jinja2
import jinja2.meta
import pytest

import evalreport
from evalreport.report.context import report_context
from evalreport.report.html import environment, template_dirs
from evalreport.report.page import (QuickViewContext, CalibrationContext, ConfigurationsContext, HistoryContext,
                                    LeaderboardContext, ReportContext, SignificanceContext, VerdictContext,
                                    context_of)
from evalreport.resources import templates_dir

#: names a template reads that the context does not hold, each with why
NOT_CONTEXT = {
    "sec": "the sections' counter, set by report.html.j2 and notebook.html.j2 before they include a section",
    "parts": "set inside a macro's branch of macros.html.j2 (Jinja's scan counts it as read first)",
}


@pytest.fixture(scope="module")
def small():
    result = evalreport.from_predictions([0, 1, 1, 0, 1, 0, 0, 1], {"a": [.2, .9, .6, .4, .7, .1, .3, .8],
                                                                     "b": [.5, .4, .6, .3, .2, .1, .7, .9]},
                                         positive=1, confidence={"bootstrap": 0})
    return result, report_context(result)


def _templates() -> list[Path]:
    return sorted(Path(templates_dir()).rglob("*.j2"))


def test_every_name_a_template_reads_is_a_field_of_the_context():
    env = environment([templates_dir()])
    fields = {f.name for f in dataclasses.fields(ReportContext)}
    quick = {f.name for f in dataclasses.fields(QuickViewContext)}  # a deferred result's quick view
    unknown = {}
    for path in _templates():
        read = jinja2.meta.find_undeclared_variables(env.parse(path.read_text(encoding="utf-8")))
        if path.name == "notebook_quick.html.j2":
            read -= quick
        if extra := sorted(read - fields - set(NOT_CONTEXT)):
            unknown[path.name] = extra
    assert unknown == {}


@pytest.mark.parametrize("name, typed", [("verdict", VerdictContext), ("tests", SignificanceContext),
                                         ("leaderboard", LeaderboardContext), ("history", HistoryContext),
                                         ("calibration", CalibrationContext),
                                         ("configurations", ConfigurationsContext)])
def test_every_value_of_a_typed_block_a_template_reads_is_a_field(name, typed):
    fields = {f.name for f in dataclasses.fields(typed)}
    read = {value for path in _templates()
            for value in re.findall(rf"(?<![/\w.]){name}\.(\w+)", path.read_text(encoding="utf-8"))}
    assert read and read <= fields, read - fields


def test_a_typo_in_a_template_fails(small):
    result, context = small
    env = environment(template_dirs(result))
    assert env.from_string("{{ title }}: {{ verdict.gate_summary }}").render(context.names())
    for typo in ("{{ titel }}", "{{ verdict.sentencs | join(' ') }}", "{% if verdict.gate_sumary %}x{% endif %}"):
        with pytest.raises(jinja2.UndefinedError):
            env.from_string(typo).render(context.names())


def test_a_name_no_builder_should_give_fails(small):
    _, context = small
    def shallow(block):  # a typed block back to the builders' dict (its values, not copies)
        return block if block is None else {f.name: getattr(block, f.name) for f in dataclasses.fields(block)}

    values = {**context.names(), **{name: shallow(getattr(context, name))
                                    for name in ("verdict", "tests", "leaderboard", "history", "calibration",
                                                 "configurations")}}
    assert context_of(values) == context  # the same values, frozen again
    with pytest.raises(TypeError, match="titel"):
        context_of({**values, "titel": "x"})
    with pytest.raises(TypeError, match="headlin"):
        context_of({**values, "verdict": {**values["verdict"], "headlin": None}})


def test_the_context_is_frozen_and_the_render_adds_its_values_by_name(small):
    _, context = small
    with pytest.raises(dataclasses.FrozenInstanceError):
        context.title = "x"
    page = context.rendered(attachments=True, results_sha256="ab")
    assert (page.attachments, page.results_sha256, context.attachments) == (True, "ab", False)
    assert page.names()["title"] == context.title and set(page.names()) == {
        f.name for f in dataclasses.fields(ReportContext)}


def test_the_task_s_sections_and_labels_are_prepared(small):
    result, context = small
    assert context.labels == {"name": "positive label", "value": "1"}
    assert all((Path(templates_dir()) / name).is_file() for name in context.task_sections)
    multi = evalreport.from_predictions([0, 1, 2, 2, 1, 0], {"m": [[.8, .1, .1], [.2, .7, .1], [.1, .2, .7],
                                                                   [.3, .3, .4], [.5, .4, .1], [.6, .2, .2]]},
                                        confidence={"bootstrap": 0})
    other = report_context(multi)
    assert other.labels == {"name": "classes", "value": "0, 1, 2"}
    assert set(other.task_sections).isdisjoint(context.task_sections)
    assert [c.name for c in other.class_balance] == ["0", "1", "2"] and context.class_balance == []


def test_many_multiclass_learners_make_long_tables():
    """Past 12 learners the measure tables may break across pages (print.css's
    section.long): a multi-class report too (its template read the binary
    learners' rows, empty there, so its tables never could)."""
    import numpy as np

    from evalreport.report.html import render_html

    rng = np.random.default_rng(0)
    y = np.tile([0, 1, 2], 10)
    scores = {f"m{i}": rng.dirichlet([1, 1, 1], size=y.size) for i in range(13)}
    result = evalreport.from_predictions(y, scores, confidence={"bootstrap": 0})
    html = render_html(result)
    assert '<section id="measures" class="long">' in html and '<section id="calibration" class="long">' in html


#: filters that compute (filter, join, count, sum, format) rather than print or lay out
COMPUTING_FILTERS = {"join", "selectattr", "rejectattr", "select", "reject", "map", "sum", "length", "count",
                     "list", "sort", "groupby", "unique", "min", "max", "round", "int", "float", "format",
                     "replace", "truncate", "wordcount", "first", "last", "string", "default", "d"}
#: what computes in a template and must stay, by template and the statement's start, each with why
TEMPLATE_ALLOWED = {
    # the sections number themselves in the order the page includes them, and list themselves in
    # the table of contents: a counter of what is printed, not a value of the report
    ("report.html.j2", "set sec = namespace"): "the sections' counter and table of contents",
    ("notebook.html.j2", "set sec = namespace"): "the sections' counter (page one)",
    ("report.html.j2", "set sections"): "the sections rendered first, so that the contents above list them",
    ("macros.html.j2", "set sec . n = sec . n + 1"): "the next section's number",
    ("macros.html.j2", "set sec . toc = sec . toc +"): "the section entered in the table of contents",
}


def _statements(path: Path):
    """Each ``{{ ... }}`` and ``{% ... %}`` of a template: (its tokens' text joined by
    spaces, its tokens as (type, value))."""
    env = jinja2.Environment()
    current = None
    for _, kind, value in env.lex(path.read_text()):
        if kind in ("variable_begin", "block_begin"):
            current = []
        elif kind in ("variable_end", "block_end"):
            yield " ".join(str(v) for _, v in current), current
            current = None
        elif current is not None and kind != "whitespace":
            current.append((kind, value))


def _computing(tokens) -> list[str]:
    """What a statement computes: string concatenation (~), arithmetic, an inline
    ``if ... else``, a filter that computes, a ``set`` of a value."""
    found = []
    for i, (kind, value) in enumerate(tokens):
        if kind == "operator" and value in ("~", "+", "-", "*", "/", "//", "%"):
            found.append(value)
        if kind == "operator" and value == "|" and i + 1 < len(tokens) and tokens[i + 1][1] in COMPUTING_FILTERS:
            found.append("|" + tokens[i + 1][1])
        if kind == "name" and value == "else" and tokens[0][1] != "else":  # inline: not a block's {% else %}
            found.append("if ... else")
    if tokens and tokens[0] == ("name", "set"):
        found.append("set")
    return found


def test_templates_only_print_and_loop():
    # issue 35: captions, notes, the rows a section shows and the choices the render makes are
    # prepared in Python (report/prepared.py and the builders); a template prints and loops,
    # and lays out (batch: figures a row). Only TEMPLATE_ALLOWED computes, each for its reason.
    offences, used = [], set()
    for path in _templates():
        for text, tokens in _statements(path):
            found = _computing(tokens)
            allowed = [k for k in TEMPLATE_ALLOWED if k[0] == path.name and text.startswith(k[1])]
            if found and not allowed:
                offences.append(f"{path.name}: {{% {text} %}} ({', '.join(found)})")
            used.update(allowed)
    assert not offences, "templates compute:\n" + "\n".join(offences)
    assert used == set(TEMPLATE_ALLOWED), f"allowed but not found: {set(TEMPLATE_ALLOWED) - used}"


def test_the_template_scan_finds_what_it_forbids(tmp_path):
    cases = {'{% set c = "ROC of " ~ name %}': "~", '{{ rows | selectattr("x") | list }}': "|selectattr",
             '{{ works | join("; ") }}': "|join", '{{ "is" if n == 1 else "are" }}': "if ... else",
             "{{ n + 1 }}": "+", '{% if rows | rejectattr("detail") | list %}x{% endif %}': "|rejectattr",
             '{% set caption = "Curves." %}': "set"}
    for source, what in cases.items():
        path = tmp_path / "t.html.j2"
        path.write_text(source)
        assert any(what in _computing(tokens) for _, tokens in _statements(path)), source
    path.write_text("{% for r in rows | batch(2) %}{{ r.text }}{% if r.mark %}{{ r.mark }}{% else %}-{% endif %}"
                    "{% endfor %}")
    assert not any(_computing(tokens) for _, tokens in _statements(path))


def test_a_table_cell_is_a_prepared_cell():
    # issue 35: the value and its interval are set apart in Python (number_style.Cell), not split
    # by the template; a cell given as bare text is refused at render (StrictUndefined)
    from evalreport.number_style import Cell

    macros = environment([templates_dir()]).get_template("macros.html.j2").module
    cell = Cell("0.912 [0.880, 0.940]", note="few positives", mark="1")
    assert (cell.value, cell.interval, cell.nowrap, cell.undefined) == ("0.912", "[0.880, 0.940]", True, False)
    assert str(macros.value_cell(cell)) == (
        '<td class="num nowrap" title="few positives">0.912 <span class="ci">[0.880, 0.940]</span>'
        '<sup class="mark">1</sup></td>')
    assert str(macros.value_cell(Cell("undefined"))) == '<td class="num undefined">undefined</td>'
    assert str(macros.value_cell(Cell("<b>"))) == '<td class="num">&lt;b&gt;</td>'  # escaped
    with pytest.raises(jinja2.UndefinedError):
        macros.value_cell("0.912 [0.880, 0.940]")
