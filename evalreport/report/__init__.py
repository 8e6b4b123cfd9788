"""Sinks over one result: JSON now; HTML and PDF from the same templates."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from ..errors import RenderError
from ..pipeline import Result
from ..results import InlineList, result_dict
from ..spec import spec_text

__all__ = ["render", "write_atomically", "json_text"]

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


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomically(files: dict[Path, bytes]) -> None:
    """Write every file to a temporary name beside it, then rename them all.

    Nothing is renamed unless every file was written, so a failure leaves the
    previous report intact.
    """
    staged = []
    try:
        for path, data in files.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
            staged.append((tmp, path))
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
        mode = 0o666 & ~_umask()
        for tmp, path in staged:
            os.chmod(tmp, mode)  # mkstemp makes 0600; give the report the usual permissions
            os.replace(tmp, path)
        staged = []
    finally:
        for tmp, _ in staged:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def render(result: Result, out=None, formats=None) -> dict[str, Path]:
    """Write the report of ``result`` into folder ``out``.

    ``out`` defaults to the spec's ``report.out``; ``formats`` to ``report.formats``.
    Returns the written paths by format.
    """
    spec = result.spec
    out = Path(out) if out is not None else spec.resolve(spec.report.out)
    formats = list(formats) if formats is not None else list(spec.report.formats)
    unknown = [f for f in formats if f not in AVAILABLE]
    if unknown:
        raise RenderError([f"unknown format {', '.join(unknown)}; valid: {', '.join(AVAILABLE)}"])
    files: dict[Path, bytes] = {}
    written = {}
    results_json = json_text(result).encode("utf-8")
    if "json" in formats:
        files[out / "results.json"] = results_json
        written["json"] = out / "results.json"
    if "html" in formats:
        from .html import render_html

        files[out / "report.html"] = render_html(result).encode("utf-8")
        written["html"] = out / "report.html"
    if "pdf" in formats:
        from .html import render_html, template_dirs
        from .pdf import html_to_pdf

        spec = result.spec
        attached = {"results.json": results_json}
        if spec_text(spec):
            attached[Path(spec.source).name or "spec.yaml"] = spec_text(spec).encode("utf-8")
        files[out / "report.pdf"] = html_to_pdf(
            render_html(result, attachments=True), title=spec.title, date=result.date,
            attachments=attached, template_dirs=template_dirs(result),
            subject="Evaluation report", keywords=list(result.learners),
        )
        written["pdf"] = out / "report.pdf"
    write_atomically(files)
    return {fmt: written[fmt] for fmt in formats if fmt in written}
