"""Result -> one self-contained HTML page (CSS and SVG inline, no network).

Templates come from the top-level templates/ folder (shipped in the wheel);
``report.template: DIR`` puts a folder in front of it, so any template can be
overridden by file name (a letterhead, a shorter layout). Autoescape is on and
undefined names are errors.
"""

from __future__ import annotations

import functools
from pathlib import Path

import jinja2

from ..errors import RenderError, SpecError
from ..result import Result
from ..resources import templates_dir
from ..spec import locate
from .context import report_context
from .page import ReportContext

__all__ = ["template_dirs", "check_template", "blame_template", "render_html", "render_page_one", "attached_note",
           "render_point_values"]

ENTRY = "report.html.j2"
#: page one alone, for a notebook's output cell (Result._repr_html_)
PAGE_ONE = "notebook.html.j2"
#: a deferred result's point values, before its intervals are computed (issue 38)
POINT_VALUES = "notebook_quick.html.j2"


def template_dirs(result: Result) -> list[Path]:
    """The template folders, the user's first."""
    return _template_dirs(result.spec)


def _template_dirs(spec) -> list[Path]:
    dirs = [templates_dir()]
    if spec.report.template != "default":
        user = spec.resolve(spec.report.template)
        if not user.is_dir():
            raise SpecError([locate(spec, ("report", "template"), f"{user}: no such folder")])
        dirs.insert(0, user)
    return dirs


def check_template(spec) -> None:
    """Before evaluating: the user's template folder (``report.template``) exists and
    each template in it compiles; a SpecError (exit status 2) naming the template
    otherwise. What only rendering shows (a name the context lacks, WeasyPrint's
    refusal of a page without ``lang``) is :func:`blame_template`'s."""
    dirs = _template_dirs(spec)
    if len(dirs) == 1:
        return
    env = environment(dirs)
    for path in sorted(dirs[0].rglob("*.j2")):
        name = path.relative_to(dirs[0]).as_posix()
        try:
            env.get_template(name)
        except jinja2.TemplateError as exc:
            raise blame_template(spec, RenderError([_jinja_text(exc)])) from None


def blame_template(spec, exc: RenderError) -> Exception:
    """A failure to render with the user's templates is the spec's (exit status 2),
    told at ``report.template``; with the default templates, or a failure to write,
    it stays what it is (an internal error, an OutputError)."""
    from ..errors import OutputError

    if isinstance(exc, (OutputError, SpecError)) or spec.report.template == "default":
        return exc
    user = spec.resolve(spec.report.template)
    return SpecError([locate(spec, ("report", "template"),
                             f"the report cannot be made with the templates of {user}: {problem}")
                      for problem in exc.problems])


def _jinja_text(exc: jinja2.TemplateError) -> str:
    where = f"{exc.filename}:{exc.lineno}: " if getattr(exc, "filename", None) else ""
    return f"template error: {where}{exc}"


def environment(dirs: list[Path]) -> jinja2.Environment:
    """The Jinja environment of these template folders: one per folder list, so
    that a run writing HTML and PDF compiles its templates once (compiling is
    about 0.08 s, rendering a page 2 ms); Jinja reloads a template whose file
    changed."""
    return _environment(tuple(str(d) for d in dirs))


@functools.lru_cache(maxsize=8)
def _environment(dirs: tuple[str, ...]) -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(list(dirs)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def render_html(result: Result, *, attachments: bool = False, results_sha256: str | None = None,
                context: ReportContext | None = None) -> str:
    """The report as HTML text. ``attachments``: say that the PDF carries the data;
    ``results_sha256``: the sha256 of the run's results.json, in a meta tag
    (``evalreport verify report.html`` checks it); ``context``: the report's values
    made once for the HTML and the PDF (:func:`.context.report_context`; made here
    when not given)."""
    context = report_context(result) if context is None else context
    return _render(result, ENTRY, context.rendered(attachments=attachments, results_sha256=results_sha256 or "",
                                                   attached_note=attached_note(result.spec.report.attach)))


def attached_note(attach) -> str:
    """The PDF's sentence on what it carries (report.attach)."""
    if "results" not in attach:
        return "Every number is in results.json (not attached to this PDF: report.attach leaves it out)."
    also = [w for w, key in (("the spec", "spec"), ("the data it was computed from", "data")) if key in attach]
    return "Every number is in results.json, attached to this PDF" + (
        f" with {' and '.join(also)}" if also else "") + "."


def render_page_one(result: Result) -> str:
    """Page one of the report (the verdict, the gates, the headline table and
    chart) as an HTML fragment: the report's context and verdict template, its
    figures inline SVG, nothing fetched (``notebook.html.j2``)."""
    return _render(result, PAGE_ONE, report_context(result))


def render_point_values(result: Result, context) -> str:
    """A deferred result's point values as an HTML fragment (``notebook_quick.html.j2``;
    the context: :func:`evalreport.report.notebook.point_values_context`)."""
    return _render(result, POINT_VALUES, context)


def _render(result: Result, entry: str, context) -> str:
    """``entry`` rendered with ``context`` (a ReportContext, or a deferred result's
    QuickViewContext), both typed."""
    try:
        return environment(template_dirs(result)).get_template(entry).render(context.names())
    except jinja2.TemplateError as exc:
        raise RenderError([_jinja_text(exc)]) from None
