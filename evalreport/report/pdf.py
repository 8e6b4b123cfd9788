"""The PDF sink: one self-contained HTML string in, one archival PDF out.

WeasyPrint lays the HTML out (its print CSS gives the A4 pages, the running
header and the "page X of Y" footer) and writes a PDF/A-3b file with:

* the results and the spec embedded as PDF/A-3 associated files (``/AF``, with
  an ``/AFRelationship`` of ``/Data`` or ``/Source`` and a MIME subtype);
* the document information and XMP metadata (title, author, subject, keywords,
  creation and modification dates) taken from the arguments, not the clock;
* an outline built from the headings (WeasyPrint's default for h1-h6);
* tags: a structure tree of the headings, paragraphs, lists, tables and figures
  (``PDF_TAGS``), for screen readers and reflow: each figure's ``/Alt`` is its
  alt text (the SVG's ``<title>``, the HTML's ``aria-label``), each table header
  cell has a ``/Scope`` (the ``th``'s ``scope``), the running header and footer
  are artifacts, and the XMP claims PDF/UA-1 beside PDF/A-3b (``pdfuaid:part``,
  with the extension schema PDF/A asks for): ``pdf_ua.py``.

The same arguments give byte-identical PDF bytes: every date comes from
``date`` (at 00:00:00 UTC) and the file identifier ``/ID`` is the MD5 of the
PDF's objects (what pydyf writes when the identifier option is ``True``, which
PDF/A variants set), so it changes only when the content does.

Rendering never touches the network: the URL fetcher allows ``data:`` URLs and
``file:`` URLs inside the template folders, and refuses everything else with a
warning on the ``evalreport`` logger. WeasyPrint treats a refused URL as a
resource that failed to load and renders on without it.

WeasyPrint renders on after its own errors too: it logs them (an image or SVG
figure that failed to load or draw, a stylesheet that failed to load, ...) and
leaves the figure out. Those errors are collected and make the render a
RenderError instead of a PDF without the figure; only the URLs this module
refused are let go. WeasyPrint's SVG drawing catches every exception, even
KeyboardInterrupt (Ctrl-C): an interrupt it swallowed is raised again.
"""

from __future__ import annotations

import base64
import contextlib
import datetime as _dt
import functools
import logging
import os
import pathlib
import sys
import threading
from collections.abc import Iterator, Sequence
from urllib.parse import unquote, urlsplit
from urllib.request import url2pathname

from ..errors import RenderError
from .pdf_ua import accessible

__all__ = ["html_to_pdf", "RefusedURL", "make_url_fetcher", "PDF_VARIANT", "PDF_TAGS", "PDF_UA_PART", "attachment_kind"]

LOGGER = logging.getLogger("evalreport")

PDF_VARIANT = "pdf/a-3b"
#: Tagged PDF (a structure tree, /MarkInfo /Marked true, the document's language):
#: WeasyPrint 70 adds the tags to a PDF/A-3b file when asked. Its "pdf/ua-1" variant
#: would declare PDF/UA instead, but WeasyPrint writes one variant: PDF/A-3b is kept
#: (it carries the attachments), tagged, and the finisher adds what PDF/UA-1 asks
#: beyond it (table header scopes, the PDF/UA identification: ``pdf_ua.accessible``).
PDF_TAGS = True
#: the PDF/UA part the XMP claims beside PDF/A's (ISO 14289-1)
PDF_UA_PART = 1

# name suffix -> (MIME type, PDF/A-3 AFRelationship)
_ATTACHMENT_KINDS = {
    ".json": ("application/json", "Data"),
    ".yaml": ("application/yaml", "Source"),
    ".yml": ("application/yaml", "Source"),
}
_DEFAULT_KIND = ("application/octet-stream", "Supplement")


class RefusedURL(ValueError):
    """The URL fetcher refused a URL (outside the template folders, or not local).

    WeasyPrint catches any ``Exception`` from a fetcher and reports the resource
    as failed to load, so rendering goes on without it.
    """


def attachment_kind(name: str) -> tuple[str, str]:
    """The MIME type and PDF/A-3 relationship for an attachment named ``name``."""
    return _ATTACHMENT_KINDS.get(pathlib.PurePath(name).suffix.lower(), _DEFAULT_KIND)


def _parse_date(date: str) -> _dt.datetime:
    """``"2026-11-22"`` -> 2026-11-22 00:00:00 UTC; anything else is a RenderError."""
    if isinstance(date, _dt.date) and not isinstance(date, _dt.datetime):
        day = date
    else:
        try:
            day = _dt.date.fromisoformat(str(date).strip())
        except ValueError:
            raise RenderError(
                f"PDF: the report date {date!r} is not an ISO date like 2026-11-22"
            ) from None
    return _dt.datetime(day.year, day.month, day.day, tzinfo=_dt.timezone.utc)


def _weasyprint():
    """Import WeasyPrint, turning a missing library (Pango, ...) into a RenderError."""
    try:
        import weasyprint
        from weasyprint.urls import URLFetcher
    except (ImportError, OSError) as exc:  # OSError: cffi could not dlopen Pango & co.
        raise RenderError(
            f"PDF: WeasyPrint is not usable here ({type(exc).__name__}: {exc}); "
            "it needs the Pango, HarfBuzz and fontconfig libraries "
            "(see https://doc.courtbouillon.org/weasyprint/stable/first_steps.html)"
        ) from exc
    return weasyprint, URLFetcher


def _resolve(path: os.PathLike | str) -> pathlib.Path:
    return pathlib.Path(path).expanduser().resolve()


@functools.cache
def _make_fetcher_class(base):
    class _TemplateURLFetcher(base):
        """A WeasyPrint URL fetcher that reads only ``data:`` URLs and files
        inside ``template_dirs``; it refuses everything else."""

        def __init__(self, template_dirs: Sequence[os.PathLike | str]):
            # No redirects, and only the two protocols we ever open.
            super().__init__(allowed_protocols=("data", "file"), allow_redirects=False)
            self.template_dirs = [_resolve(d) for d in template_dirs]
            #: URLs refused during this fetcher's life, in order.
            self.refused: list[str] = []

        def _refuse(self, url: str, why: str):
            shown = url if len(url) <= 200 else url[:200] + "..."
            self.refused.append(url)
            LOGGER.warning("PDF: refused to fetch %s (%s)", shown, why)
            raise RefusedURL(f"evalreport refused {shown}: {why}")

        def allows_path(self, path: pathlib.Path) -> bool:
            return any(path == d or path.is_relative_to(d) for d in self.template_dirs)

        def fetch(self, url, headers=None):
            try:
                parts = urlsplit(url)
            except ValueError:
                self._refuse(url, "malformed URL")
            scheme = parts.scheme.lower()
            if scheme == "data":
                return super().fetch(url, headers)
            if scheme != "file":
                self._refuse(url, f"{scheme or 'relative'} URLs are not fetched; "
                                  "the report must be self-contained")
            if parts.netloc not in ("", "localhost"):
                self._refuse(url, f"file URL on another host {parts.netloc!r}")
            try:
                path = _resolve(url2pathname(unquote(parts.path)))
            except (OSError, RuntimeError, ValueError) as exc:
                self._refuse(url, f"cannot resolve the path: {exc}")
            if not self.allows_path(path):
                self._refuse(url, "outside the template folders")
            # Fetch the resolved path: a symlink cannot lead out afterwards.
            try:
                return super().fetch(path.as_uri(), headers)
            except Exception as exc:
                # WeasyPrint's own "failed to load" message is silenced with the
                # rest of its log; a template file that cannot be read matters.
                LOGGER.warning("PDF: cannot read %s: %s", path, exc)
                raise

    _TemplateURLFetcher.__name__ = _TemplateURLFetcher.__qualname__ = "TemplateURLFetcher"
    return _TemplateURLFetcher


def make_url_fetcher(template_dirs: Sequence[os.PathLike | str]):
    """A WeasyPrint URL fetcher confined to ``template_dirs`` and ``data:`` URLs.

    Its ``refused`` attribute lists the URLs it refused. (The class is built on
    first use so that importing this module does not import WeasyPrint.)
    """
    _, url_fetcher_class = _weasyprint()
    return _make_fetcher_class(url_fetcher_class)(template_dirs)


class _Forward(logging.Handler):
    """Pass WeasyPrint's (and fontTools') records on to the ``evalreport`` logger at DEBUG."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            message = record.getMessage()
        except Exception:  # a bad format string in a library: keep the raw one
            message = str(record.msg)
        LOGGER.debug("%s: %s", record.name, message)


# WeasyPrint logs every unknown CSS property, failed resource and rendering
# step; fontTools (WeasyPrint's font subsetter when HarfBuzz-subset is missing)
# logs each table it subsets at INFO level.
_NOISY_LOGGERS = ("weasyprint", "fontTools")

class _Collect(logging.Handler):
    """Keep WeasyPrint's ERROR records, each with the exception being handled when it
    was logged (WeasyPrint logs from inside its ``except`` blocks)."""

    def __init__(self):
        super().__init__(logging.ERROR)
        self.errors: list[tuple[logging.LogRecord, BaseException | None]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.errors.append((record, sys.exc_info()[1]))


def _raise_swallowed(collected: _Collect) -> None:
    """Raise again an interrupt (KeyboardInterrupt, SystemExit) WeasyPrint swallowed."""
    for _, exc in collected.errors:
        if exc is not None and not isinstance(exc, Exception):
            raise exc


def _check_errors(collected: _Collect, refused: list[str]) -> None:
    """Turn WeasyPrint's errors into a RenderError, except those about a URL we
    refused (the fetcher warned already)."""
    problems = []
    for record, _ in collected.errors:
        try:
            message = record.getMessage()
        except Exception:
            message = str(record.msg)
        args = record.args if isinstance(record.args, tuple) else ()
        if any(isinstance(a, str) and a in refused for a in args) or "RefusedURL: " in message:
            continue
        problems.append(f"PDF: WeasyPrint: {message}")
    if problems:
        raise RenderError(list(dict.fromkeys(problems)))


# The render changes process-wide state (those loggers, SOURCE_DATE_EPOCH):
# one render at a time.
_RENDER_LOCK = threading.RLock()


@contextlib.contextmanager
def _render_context(when: _dt.datetime) -> Iterator[_Collect]:
    """Quiet the noisy loggers and pin the fonts' timestamps, for one render;
    yield the collector of WeasyPrint's errors.

    The noisy loggers' records still reach the ``evalreport`` logger at DEBUG
    level; the refusals that matter are logged by the fetcher as warnings.

    ``SOURCE_DATE_EPOCH`` is set to ``when``: fontTools writes the current time
    into the ``head`` table of every font subset it saves unless that variable
    is set, and that timestamp ends up in the embedded fonts (and so in the
    content-derived ``/ID``).
    """
    with _RENDER_LOCK:
        saved_loggers = []
        handler, collect = _Forward(logging.DEBUG), _Collect()
        # Only pay for the records someone may read (WeasyPrint's errors, always).
        level = logging.DEBUG if LOGGER.isEnabledFor(logging.DEBUG) else logging.CRITICAL + 1
        for name in _NOISY_LOGGERS:
            logger = logging.getLogger(name)
            saved_loggers.append((logger, logger.propagate, logger.level, logger.handlers[:]))
            logger.addHandler(handler)
            logger.propagate = False
            if name == "weasyprint":
                logger.addHandler(collect)
                logger.setLevel(min(level, logging.ERROR))
            else:
                logger.setLevel(level)
        saved_epoch = os.environ.get("SOURCE_DATE_EPOCH")
        os.environ["SOURCE_DATE_EPOCH"] = str(int(when.timestamp()))
        try:
            yield collect
        finally:
            if saved_epoch is None:
                os.environ.pop("SOURCE_DATE_EPOCH", None)
            else:
                os.environ["SOURCE_DATE_EPOCH"] = saved_epoch
            for logger, propagate, old_level, old_handlers in saved_loggers:
                logger.handlers[:] = old_handlers
                logger.propagate = propagate
                logger.setLevel(old_level)


def _attachment(weasyprint, fetcher, name: str, data: bytes, when: _dt.datetime, kind=None):
    if isinstance(data, str):
        data = data.encode("utf-8")
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise RenderError(f"PDF: the attachment {name!r} is {type(data).__name__}, not bytes")
    mime, relationship = attachment_kind(name)
    description = {"Data": "evaluation results", "Source": "evaluation spec"}.get(relationship, name)
    if kind is not None:  # (MIME type, relationship, description) given by the caller
        mime, relationship, description = kind
    # A data: URL carries the MIME type to WeasyPrint, which otherwise guesses it
    # from the name (and knows no type for .yaml on most systems).
    url = f"data:{mime};base64,{base64.b64encode(bytes(data)).decode('ascii')}"
    return weasyprint.Attachment(
        url=url,
        url_fetcher=fetcher,
        name=name,
        description=description,
        created=when,
        modified=when,
        relationship=relationship,
    )


#: zlib level of the attachments (results.json, the spec): level 9 takes three
#: times as long for a file the same size within about 1 % (bench/fixed_costs.py)
ATTACHMENT_LEVEL = 6


def _compress_once(pdf) -> None:
    """Compress each stream once, before pydyf writes the file.

    pydyf compresses a stream (zlib level 9) each time its bytes are read, and
    writing a PDF reads each twice (once for the file's identifier, once to write
    it); a results.json of a million rows takes a third of a second each time.
    Compressed here, each stream is read as the bytes it holds: the same bytes
    at level 9 for all but the embedded files, which take level 6.
    """
    import zlib

    import pydyf

    to_bytes = getattr(pydyf, "_to_bytes", None)
    if to_bytes is None:  # another pydyf: leave its streams as they are
        return
    for obj in pdf.objects:
        if not isinstance(obj, pydyf.Stream) or not obj.compress:
            continue
        raw = b"\n".join(to_bytes(item) for item in obj.stream)
        level = ATTACHMENT_LEVEL if obj.extra.get("Type") == "/EmbeddedFile" else 9
        obj.stream = [zlib.compress(raw, level)]
        obj.compress = False
        obj.extra["Filter"] = "/FlateDecode"


def _finish(document, pdf) -> None:
    """WeasyPrint's finisher hook: the catalog's ``/AF`` deduplicated, the PDF/UA
    additions, each stream compressed once."""
    _dedupe_associated_files(document, pdf)
    accessible(document, pdf, ua_part=PDF_UA_PART)
    _compress_once(pdf)


def _dedupe_associated_files(document, pdf) -> None:
    """WeasyPrint's finisher hook: list each attachment once in the catalog's ``/AF``.

    WeasyPrint 70's PDF/A-3 step appends every file specification twice (once
    from the ``/EmbeddedFiles`` name tree, once from its scan of the objects).
    """
    associated = pdf.catalog.get("AF")
    if associated:
        unique = list(dict.fromkeys(associated))
        associated.clear()
        associated.extend(unique)


def html_to_pdf(
    html: str,
    *,
    title: str,
    date: str,
    attachments: dict[str, bytes],
    template_dirs: list[pathlib.Path],
    author: str = "evalreport",
    subject: str | None = None,
    keywords: list[str] | None = None,
    kinds: dict[str, tuple[str, str, str]] | None = None,
) -> bytes:
    """Render ``html`` to PDF/A-3b bytes, deterministically and offline.

    ``title``, ``author``, ``subject`` and ``keywords`` replace whatever the
    HTML's ``<title>`` and ``<meta>`` elements say; the creation and
    modification dates are ``date`` (an ISO date) at 00:00:00 UTC.
    ``attachments`` maps file names (``results.json``, ``spec.yaml``) to their
    bytes, embedded as they are. Relative URLs resolve against the first of
    ``template_dirs``; only files inside those folders and ``data:`` URLs are
    read. ``kinds`` gives an attachment its (MIME type, AFRelationship,
    description) instead of those its name's suffix gives (a data file is
    /Source). Raises :class:`RenderError` when WeasyPrint cannot render.
    """
    when = _parse_date(date)
    stamp = when.strftime("%Y-%m-%dT%H:%M:%SZ")  # W3C date-time, what WeasyPrint expects
    template_dirs = [pathlib.Path(d) for d in template_dirs]
    base_url = str(_resolve(template_dirs[0])) + os.sep if template_dirs else None

    with _render_context(when) as collected:
        weasyprint, _ = _weasyprint()  # inside: importing parses WeasyPrint's own CSS, noisily
        fetcher = make_url_fetcher(template_dirs)
        try:
            document = weasyprint.HTML(
                string=html, base_url=base_url, url_fetcher=fetcher
            ).render(pdf_variant=PDF_VARIANT, pdf_tags=PDF_TAGS)
            meta = document.metadata
            meta.title = title
            meta.authors = [author] if author else []
            meta.description = subject
            meta.keywords = list(keywords or [])
            meta.created = stamp
            meta.modified = stamp
            # Only the attachments we were given, none declared by the HTML.
            meta.attachments = []
            pdf = document.write_pdf(
                finisher=_finish,
                pdf_variant=PDF_VARIANT,
                pdf_tags=PDF_TAGS,
                attachments=[
                    _attachment(weasyprint, fetcher, name, data, when, (kinds or {}).get(name))
                    for name, data in sorted(attachments.items())
                ],
            )
        except RenderError:
            raise
        except Exception as exc:
            _raise_swallowed(collected)  # a swallowed Ctrl-C may be why it failed
            raise RenderError(
                f"PDF: WeasyPrint could not render the report: {type(exc).__name__}: {exc}"
            ) from exc
        _raise_swallowed(collected)
        _check_errors(collected, fetcher.refused)
        return pdf
