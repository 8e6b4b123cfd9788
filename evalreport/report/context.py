"""Result -> the values the templates print, every number already formatted,
frozen into a typed :class:`.page.ReportContext`.

Templates never compute or format. This module holds what every report has
(title, provenance, the verdict's gates and Friedman's test, the tests of
significance, the warnings) and takes the rest from the task's builder
(:data:`BUILDERS`: report/binary.py, report/multiclass.py). The
figures are drawn once per result, whatever the formats.
"""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from .. import registry
from ..capture import routed_warnings
from ..redact import published, redact_text
from ..result import Result
from ..words import gate_text
from .binary import binary_context
from .configurations import configurations_context
from .format import UNDEFINED, Column, ends_text, fmt, p_text, plain
from .history import history_context, history_sentences
from .leaderboard import leaderboard_context
from .multiclass import multiclass_context
from .page import ReportContext, context_of
from .prepared import prepared
from ..results import report_warnings
from .significance import tests_section
from .spec_lines import CONTINUATION, spec_lines
from .summary import shown_learners
from .verdicts import MARKS, GateLine, gates_summary, page_one

__all__ = ["report_context", "ReportContext", "BUILDERS", "fmt", "UNDEFINED", "Column", "InputLine"]


@dataclass(frozen=True)
class InputLine:
    """An input file as the provenance lists it."""

    path: str  # redacted
    sha256: str
    rows: str


def _markdown(text: str | None) -> Markup:
    """The spec's description as safe HTML: raw HTML escaped, no images fetched."""
    if not text:
        return Markup("")
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False, "linkify": False}).disable("image")
    return Markup(md.render(text))


def _verdict(result: Result) -> dict:
    """Page one's verdict (verdicts.page_one: the status, the deployed learners, the
    findings, the suggestions, the leader), Friedman's test across data sets where
    enough data sets support a sentence, and the gates; the task adds its
    sentences on the comparisons."""
    sentences = []
    if result.friedman is not None and not result.friedman.too_few_datasets:  # too few: no claim on the ranks
        f, fr = result.friedman, result.friedman.friedman
        best = f.learners[int(min(range(len(f.learners)), key=lambda i: fr.average_ranks[i]))]
        sig = "significantly" if fr.p_value_chi2 is not None and fr.p_value_chi2 < fr.alpha else "not significantly"
        sentences.append(f"Across {len(f.datasets)} data sets, {best} has the best average rank by "
                         f"{registry.get(f.measure).label}; the learners differ "
                         f"{sig} (Friedman {p_text(fr.p_value_chi2)}).")
    sentences += history_sentences(result)  # a significant change, a drift gate failed
    gates = [GateLine(g["outcome"], MARKS[g["outcome"]], _gate_line(g)) for g in result.gates]
    summary, listed = gates_summary(gates)
    one = page_one(result) if result.verdict is not None else {}
    return {**one, "recommendation": one.get("leader", ""), "sentences": sentences, "gates": listed,
            "gate_summary": summary, "gates_failed": any(g.outcome != "pass" for g in gates),
            # the technical sentences (envelopment, crossings): the comparisons section prints them
            "details": [], "headline": None}


def _gate_line(g: dict) -> str:
    """A gate row in words, with its interval where one is computed (beside the value)."""
    return gate_text(g, fmt, plain, ends_text)  # the spec's bound as written


_STAGE = "drawing the report's figures"


def _made(result: Result) -> tuple[dict, list[str], list[str]]:
    """(the context, the warnings of making the figures, those of laying them out)."""
    from ..figures.svg import drawing

    # matplotlib's and NumPy's warnings go to the report's warnings, not stderr
    with routed_warnings(_STAGE) as routed, drawing(stage=_STAGE) as layout:
        context = _context(result)
    # redacted as the evaluation's are (published): a warning may quote a value
    said = {str(w) for w in result.warnings}
    made = [redact_text(w)[0] for w in routed.lines() if w not in said]
    laid = [redact_text(w)[0] for w in layout.lines() if w not in said]
    return context, made, [w for w in laid if w not in made]


def report_context(result: Result) -> ReportContext:
    """The values the templates print (a typed, frozen :class:`.page.ReportContext`),
    the figures drawn: each call draws them, so
    the renderer makes it once and passes it on (the HTML and the PDF print the
    same one). ``figure_warnings``: the warnings raised while the figures were
    drawn (matplotlib's, NumPy's), which the report lists after the run's
    (``warnings`` holds both) and results.json does not (they are the figures'
    warnings, not the evaluation's; a JSON-only run draws none)."""
    context, made, laid = _made(result)
    context["figure_warnings"] = made + laid
    context["warnings"] = report_warnings(result) + made + laid
    return context_of(prepared(context))


#: past this many learners a section's tables may break across pages (print.css: section.long)
LONG_TABLES = 12

#: the task's own values (its measure tables, figures, comparisons), by the task's
#: name: the report picks its builder, so that a task imports no sink
BUILDERS = {"binary": binary_context, "multiclass": multiclass_context}


def _context(result: Result) -> dict:
    return BUILDERS[result.task.name](result, _common(result))


def _common(result: Result) -> dict:
    """What binary and multi-class reports share."""
    spec = result.spec
    texts = published(result)  # every free text, credentials redacted (redact.py)
    return {
        "title": texts.title,
        "description": _markdown(texts.description),
        "date": result.date,
        "version": result.version,
        "task": spec.task,
        "positive": "",
        "verdict": _verdict(result),
        "operating_point": None,
        "inputs": [InputLine(i["path"], i["sha256"], fmt(i["rows"])) for i in texts.inputs],
        "balance": [],
        "class_balance": [],  # a multi-class report's, per class (else the binary's balance per file)
        "spec_text": texts.spec_text,
        # the spec's lines as in the file, numbered, long ones folded (report/spec_lines.py)
        "spec_lines": spec_lines(texts.spec_text),
        "spec_fold_mark": CONTINUATION,
        "spec_redacted": texts.note,
        "matrix": [],
        "rankings": [],
        "rankings_agreed": None,
        "rankings_disagree": False,
        "envelope": [],
        "warnings": list(texts.warnings),
        "gates": result.gates,
        "learners": [],
        "learner_count": len(result.learners),
        "learner_pairs": len(result.learners) * (len(result.learners) - 1) // 2,
        "long_tables": len(result.learners) > LONG_TABLES,
        "tests": tests_section(result, shown_learners(result)),
        # many learners: every one ranked by the primary measure, near the front (None: few)
        "leaderboard": leaderboard_context(result),
        # with data[].replicates: the configurations, ranked by their mean (report/configurations.py)
        "configurations": configurations_context(result),
        "history": history_context(result, None),  # with history: in the spec, "Since the last run"
        "at_notes": [], "rank_notes": [], "summary_notes": [],
    }
