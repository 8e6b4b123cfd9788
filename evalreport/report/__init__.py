"""Sinks over one result: JSON now; HTML and PDF from the same templates.

Every file of the report is rendered in memory first; :mod:`.output` then replaces
the report set in the output folder as a whole (see there).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path

from ..errors import OutputError, RenderError
from ..result import Result
from ..results import InlineList, result_dict
from ..redact import published
from .output import SET_FILES, check_output, write_report_set
from . import notebook  # noqa: F401  (lends every Result its notebook views: evalreport.result.lend_views)

__all__ = ["render", "check_output", "json_text", "OutputError"]

AVAILABLE = ("html", "pdf", "json")


def _inline_number_lists(data, inline: dict):
    """Replace each list of numbers by a placeholder; ``inline`` maps it to compact JSON."""
    if isinstance(data, dict):
        return {k: _inline_number_lists(v, inline) for k, v in data.items()}
    if isinstance(data, list):
        if isinstance(data, InlineList):
            key = f"@@inline{len(inline)}@@"
            inline[f'"{key}"'] = json.dumps(data, separators=(", ", ": "), allow_nan=False)
            return key
        return [_inline_number_lists(v, inline) for v in data]
    return data


def json_text(result: Result) -> str:
    """results.json: indented, with each list of numbers on one line (curves stay readable
    and the file stays small)."""
    inline: dict[str, str] = {}
    data = _inline_number_lists(result_dict(result), inline)
    text = json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False)
    if inline:
        import re

        text = re.sub(r'"@@inline\d+@@"', lambda m: inline[m.group(0)], text)
    return text + "\n"


def _archive(result: Result, results_json: bytes) -> None:
    """With ``history:`` in the spec, store this run's results.json in the archive,
    once the report is written (a run that fails before stores nothing, so the
    next run compares with the last one that was reported)."""
    options = getattr(result.spec, "history", None)  # spec.models.History
    if options is None:
        return
    from ..history.archive import store

    folder = result.spec.resolve(options.dir)
    try:
        store(folder, result.date, results_json, keep=options.keep)
    except OSError as exc:
        raise OutputError([f"{folder}: cannot store the run in the history archive: "
                           f"{exc.strerror or exc}; the report is written"]) from None


def render(result: Result, out=None, formats=None, **options) -> dict[str, Path]:
    """Write the report of ``result`` into folder ``out`` (:func:`_render_set`). With
    the user's templates (``report.template: DIR``) a failure to render is theirs:
    a :class:`SpecError` (exit status 2) naming ``report.template``, and nothing is
    written (the files are made before the set goes in)."""
    try:
        return _render_set(result, out, formats, **options)
    except RenderError as exc:
        from .html import blame_template

        raise blame_template(result.spec, exc) from None


def _render_set(
    result: Result,
    out=None,
    formats=None,
    *,
    progress: Callable[[str], None] | None = None,
    checkpoint: Callable[[], None] | None = None,
    warn: Callable[[str], None] | None = None,
    figures_warned: Callable[[list[str]], None] | None = None,
) -> dict[str, Path]:
    """Write the report of ``result`` into folder ``out``, replacing the previous set.

    ``out`` defaults to the spec's ``report.out``; ``formats`` to ``report.formats``.
    Returns the written paths by format. ``progress``, ``checkpoint`` and ``warn``
    (which hears of a report file left in place, not this run's nor provably an
    earlier set's): see :func:`.output.write_report_set`. ``figures_warned`` hears the
    warnings raised while the figures were drawn (none without HTML or PDF), which
    the report lists after results.json's. Call :func:`check_output`
    before evaluating to learn early that the folder cannot be written; a failure to
    write raises :class:`OutputError` (exit status 2), a failure to render
    :class:`RenderError`.
    """
    spec = result.spec
    formats = list(formats) if formats is not None else list(spec.report.formats)
    unknown = [f for f in formats if f not in AVAILABLE]
    if unknown:
        raise RenderError([f"unknown format {', '.join(unknown)}; valid: {', '.join(AVAILABLE)}"])
    out = check_output(out, spec)  # before rendering: a PDF takes seconds
    signer = None
    if "pdf" in formats and spec.report.sign is not None:
        from .sign import load_signer

        signer = load_signer(spec)  # before rendering: a wrong password writes nothing
    files: dict[str, bytes] = {}
    context = None
    if "html" in formats or "pdf" in formats:
        from .context import report_context

        context = report_context(result)  # the figures drawn once, for the HTML and the PDF
        if figures_warned is not None:
            figures_warned(list(context.figure_warnings))
    results_json = json_text(result).encode("utf-8")
    digest = hashlib.sha256(results_json).hexdigest()  # the HTML's meta tag: verify checks it
    if "json" in formats:
        files[SET_FILES["json"]] = results_json
    if "html" in formats:
        from .html import render_html

        files[SET_FILES["html"]] = render_html(result, results_sha256=digest, context=context).encode("utf-8")
    if "pdf" in formats:
        from .deliverable import pdf_attachments
        from .html import render_html, template_dirs
        from .pdf import html_to_pdf

        shown = published(result)  # credentials redacted, as in the HTML and results.json
        spec_bytes = shown.spec_text.encode("utf-8") if shown.spec_text else None
        attached, kinds = pdf_attachments(result, results_json, spec_bytes)
        pdf = html_to_pdf(
            render_html(result, attachments=True, results_sha256=digest, context=context), title=shown.title,
            date=result.date,
            attachments=attached, template_dirs=template_dirs(result),
            subject="Evaluation report", keywords=list(result.learners), kinds=kinds,
        )
        if signer is not None:
            from .sign import sign_pdf

            pdf = sign_pdf(pdf, signer, spec)  # into the set before it is swapped in: all or nothing
        files[SET_FILES["pdf"]] = pdf
    write_report_set(out, files, progress=progress, checkpoint=checkpoint, warn=warn)
    _archive(result, results_json)
    return {fmt: out / SET_FILES[fmt] for fmt in formats if SET_FILES[fmt] in files}
