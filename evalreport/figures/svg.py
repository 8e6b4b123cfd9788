"""A matplotlib figure -> the SVG text the report inlines (figures/__init__.py draws).

The SVG is made lean for WeasyPrint (:func:`_lean`); inside :func:`drawing`, what
laying the figures out warns of is kept apart from what building them does.
"""

from __future__ import annotations

import contextvars
import html
import io
import re
import warnings
from contextlib import contextmanager

__all__ = ["FONT", "drawing"]

#: the figures' font: one WeasyPrint has too, since their text stays text
FONT = "DejaVu Sans"
#: a figure wider than this (inches) is drawn for the page's width, not half of it
WIDE = 4.0


class _Drawing:
    """How :func:`to_svg` routes a figure's warnings inside :func:`drawing`."""

    def __init__(self, layout):
        self.layout = layout  # a capture.Routed: the warnings of laying figures out


_DRAWING: contextvars.ContextVar[_Drawing | None] = contextvars.ContextVar("evalreport_drawing", default=None)


@contextmanager
def drawing(*, stage: str = "drawing the report's figures"):
    """The figures made inside are drawn with their warnings routed: the NumPy
    warnings of building them, and the glyphs missing from the font (found from
    the drawn texts: :func:`_warn_missing_glyphs`), go to the enclosing capture;
    what layout and rendering raise (rare: matplotlib on an axis or a legend it
    cannot place) goes to the yielded :class:`~evalreport.capture.Routed`: the
    report lists it after the rest; results.json, the same whatever the
    formats, does not."""
    from ..capture import Routed

    layout = Routed(stage)
    token = _DRAWING.set(_Drawing(layout))
    try:
        yield layout
    finally:
        _DRAWING.reset(token)


#: matplotlib's own message, in the same words (its _text_helpers.warn_on_missing_glyph)
_GLYPH = "Glyph {cp} ({name}) missing from font(s) {font}."
_GLYPH_RE = r"Glyph \d+ \(.*\) missing from font\(s\)"


#: the texts of matplotlib's SVG (svg.fonttype "none": each line of a text is a <text>)
_SVG_TEXT = re.compile(r"<text\b[^>]*>([^<]*)</text>")


def _warn_missing_glyphs(svg: str) -> None:
    """Warn, once per character and figure, of each character of the drawn texts
    that the figures' font has no glyph for (a learner or class name in a script
    DejaVu Sans lacks), in matplotlib's own words: matplotlib warns once per
    glyph and text drawn, and of texts measured but never drawn."""
    from matplotlib.font_manager import FontProperties, findfont, get_font

    font = get_font(findfont(FontProperties(family=FONT)))
    seen: set[int] = set()
    for text in _SVG_TEXT.findall(svg):
        for ch in html.unescape(text):
            cp = ord(ch)
            if cp < 32 or cp in seen:
                continue
            seen.add(cp)
            if font.get_char_index(cp) == 0:
                warnings.warn(_GLYPH.format(cp=cp, name=ch.encode("ascii", "namereplace").decode("ascii"),
                                            font=font.family_name), UserWarning, stacklevel=2)


_GROUP_TAG = re.compile(r"<g\b[^>]*>|</g>")
_BARE_GROUP = re.compile(r'<g(?:\s+id="[^"]*")?\s*>')


def _lean(text: str) -> str:
    """matplotlib's SVG less what draws nothing: its comments (each label again,
    escaped), its RDF metadata, the indentation, and the groups that carry no
    attribute but an id (about four elements in five: a group per tick, line and
    text). WeasyPrint gives every element of an inline SVG the HTML cascade and
    its own drawing state: a PDF takes about a fifth less time without them."""
    text = text[text.index("<svg"):]
    text = re.sub(r"<!--.*?-->|<metadata>.*?</metadata>", "", text, flags=re.S)
    out, kept, pos = [], [], 0
    for m in _GROUP_TAG.finditer(text):
        out.append(text[pos:m.start()])
        tag = m.group(0)
        if tag == "</g>":
            if kept.pop():
                out.append(tag)
        else:
            keep = not _BARE_GROUP.fullmatch(tag)  # a transform, clip path or style stays
            kept.append(keep)
            if keep:
                out.append(tag)
        pos = m.end()
    out.append(text[pos:])
    text = "".join(out)
    # no text between elements (a label's own spaces are inside <text>); paths on one line
    text = re.sub(r"\s*\n\s*", " ", re.sub(r">\s+<", "><", text))
    # style="a: b; c: d" as attributes a="b" c="d": WeasyPrint parses each style
    # with a CSS parser, and matplotlib writes one on almost every element (every
    # property it writes is an SVG presentation attribute). Its stylesheet
    # (*{stroke-linejoin: round; stroke-linecap: butt}) would then override them:
    # its two properties go on the root instead, inherited where not set.
    sheet = '<defs><style type="text/css">*{stroke-linejoin: round; stroke-linecap: butt}</style></defs>'
    if sheet in text:
        text = text.replace(sheet, "", 1).replace("<svg ", '<svg stroke-linejoin="round" stroke-linecap="butt" ', 1)
    return _STYLE.sub(_style_attributes, text)


_STYLE = re.compile(r'(?<=\s)style="([^"]*)"')


def _style_attributes(m) -> str:
    declarations = [d.split(":", 1) for d in m.group(1).split(";") if d.strip()]
    return " ".join(f'{name.strip()}="{value.strip()}"' for name, value in declarations)


def to_svg(fig, name: str, alt: str, natural: bool = False) -> str:
    """The figure as SVG text; ``alt`` (what it shows, in a sentence) is its
    accessible name, read out where the picture cannot be seen: the ``aria-label``
    in HTML and the SVG's ``<title>``, which WeasyPrint writes as the tagged PDF
    figure's ``/Alt``. ``natural``: never drawn wider than the figure's own
    size (a small figure, such as a 3 x 3 confusion matrix, is not stretched to the
    text width: its text stays the size it was set at)."""
    import matplotlib

    label = html.escape(" ".join(alt.split()), quote=True)  # one line, no stray spaces
    mode = _DRAWING.get()
    buf = io.StringIO()
    with warnings.catch_warnings():
        if mode is not None:
            warnings.simplefilter("always")
            warnings.showwarning = mode.layout._show
        warnings.filterwarnings("ignore", message=_GLYPH_RE)  # warned of below, once per glyph
        with matplotlib.rc_context({"svg.hashsalt": f"evalreport-{name}"}):
            fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    _warn_missing_glyphs(buf.getvalue())
    text = _lean(buf.getvalue())
    # ids unique per figure: several SVGs share one HTML page
    text = re.sub(r'id="([^"]+)"', rf'id="{name}-\1"', text)
    text = re.sub(r'(xlink:href|href)="#([^"]+)"', rf'\1="#{name}-\2"', text)
    text = re.sub(r"url\(#([^)]+)\)", rf"url(#{name}-\1)", text)
    text = re.sub(r'<svg([^>]*?) width="[^"]*" height="[^"]*"', r'<svg\1', text, count=1)
    if natural:
        text = text.replace("<svg", f'<svg style="max-width: {fig.get_figwidth():.2f}in"', 1)
    elif fig.get_figwidth() > WIDE:
        # drawn for the page's width: on a phone it keeps a width at which its text
        # reads (style.css), in a box that scrolls sideways, as a wide table does
        text = text.replace("<svg", '<svg class="wide"', 1)
    text = text.replace("<svg", f'<svg role="img" data-figure="{name}" aria-label="{label}"', 1)
    # the title first inside the root: WeasyPrint reads only a direct child
    start = text.index(">", text.index("<svg")) + 1
    return f"{text[:start]}<title>{label}</title>{text[start:]}"
