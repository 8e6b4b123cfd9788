"""The HTML on a screen and a phone (issue 34): two examples rendered, their
structure read (the table of contents links every section, every wide table sits
in its own scroll container, every header cell has a scope, every figure's title
is its aria-label), then laid out in a real browser (Chromium, driven by
Playwright) at 390 px and 1280 px: the page never scrolls sideways, no header
stacks its words one per line, figures stand one per row on the phone, no
console error, and no request but the file itself.

The browser is the system's Chromium (Debian's ``chromium`` package; Playwright's
own download is not reachable everywhere), or ``$CHROMIUM``. Without one the
browser tests skip, except in CI (``CI=true``, or ``EVALREPORT_REQUIRE_BROWSER=1``
as .ci/run sets), where they fail.
"""

from __future__ import annotations

import os
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

EXAMPLES = ["breast_cancer", "experiment_runs"]
#: the figures' text read on a phone: these and the multi-class confusion heatmaps
FIGURE_EXAMPLES = EXAMPLES + ["multiclass_folds"]
WIDTHS = [390, 1280]
#: the least size of a figure's text on a phone, in CSS px (7 pt printed is 9.3 px)
PHONE_TEXT_PX = 8.0
#: tables that never scroll: the 2 x 2 confusion matrices (side by side in print,
#: they fit a phone) and the PDF's glossary
UNWRAPPED = {"confusion", "glossary"}


@pytest.fixture(scope="module")
def pages(example_report) -> dict[str, Path]:
    """Each example's report.html, rendered once a session (tests/conftest.py)."""
    out = {}
    for name in FIGURE_EXAMPLES:
        report = example_report(name, ["html"])
        assert report.status in (0, 3), (name, report.status)
        out[name] = report.out / "report.html"
    return out


class _Outline(HTMLParser):
    """What the structure tests read: sections and their h2, the contents' links,
    tables with their classes and whether a scroll container holds them, th
    scopes, and each svg's aria-label and first-child title."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, dict]] = []
        self.sections: list[str] = []
        self.headings: dict[str, str] = {}  # section id -> its h2's text
        self.links: list[tuple[str, str]] = []  # (href, text) in nav.toc
        self.tables: list[tuple[set, bool]] = []  # (classes, inside .table-scroll)
        self.th_scopes: list[str | None] = []
        self.svgs: list[dict] = []
        self._text: list[str] | None = None
        self._text_tag = ""
        self._svg_first = False

    def _classes(self, attrs) -> set:
        return set((attrs.get("class") or "").split())

    def _inside(self, tag: str, cls: str | None = None) -> dict | None:
        for t, a in reversed(self.stack):
            if t == tag and (cls is None or cls in self._classes(a)):
                return a
        return None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if self._svg_first:  # the root svg's first child
            self.svgs[-1]["first"], self._svg_first = tag, False
        if tag == "section" and "id" in attrs:
            self.sections.append(attrs["id"])
        elif tag == "table":
            self.tables.append((self._classes(attrs), self._inside("div", "table-scroll") is not None))
        elif tag == "th":
            self.th_scopes.append(attrs.get("scope"))
        elif tag == "svg" and self._inside("svg") is None:
            self.svgs.append({"label": attrs.get("aria-label"), "first": None, "title": None})
            self._svg_first = True
        if tag in ("h2", "a", "title"):
            self._text, self._text_tag = [], tag
            self._attrs = attrs
        if tag not in ("br", "img", "meta", "input", "hr", "link"):
            self.stack.append((tag, attrs))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if self._text is not None and tag == self._text_tag:
            text = "".join(self._text).strip()
            if tag == "h2":
                section = self._inside("section")
                if section is not None and section.get("id"):
                    self.headings[section["id"]] = text
            elif tag == "a" and self._inside("nav", "toc") is not None:
                self.links.append((self._attrs.get("href", ""), text))
            elif tag == "title" and self.svgs and self.svgs[-1]["first"] == "title" and self.svgs[-1]["title"] is None:
                self.svgs[-1]["title"] = text
            self._text = None
        while self.stack:
            t, _ = self.stack.pop()
            if t == tag:
                break

    def handle_data(self, data):
        if self._text is not None:
            self._text.append(data)


def _outline(path: Path) -> _Outline:
    parser = _Outline()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


@pytest.mark.slow
@pytest.mark.parametrize("example", EXAMPLES)
def test_contents_link_every_section_in_order(pages, example):
    """The table of contents: one link a numbered section, in the page's order,
    each to the section's id, with the section's heading as its words."""
    page = _outline(pages[example])
    assert page.headings, "no numbered sections"
    numbered = [s for s in page.sections if s in page.headings]
    assert [href for href, _ in page.links] == [f"#{s}" for s in numbered]
    assert [text for _, text in page.links] == [page.headings[s] for s in numbered]
    # numbered 1, 2, 3, ... in that order
    assert [int(text.split(".")[0]) for _, text in page.links] == list(range(1, len(numbered) + 1))


@pytest.mark.parametrize("example", EXAMPLES)
def test_tables_scroll_in_their_own_box_and_headers_have_scopes(pages, example):
    page = _outline(pages[example])
    assert page.tables
    for classes, wrapped in page.tables:
        assert wrapped == (not classes & UNWRAPPED), classes
    assert page.th_scopes and all(s in ("col", "row", "colgroup", "rowgroup") for s in page.th_scopes)


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_figure_is_titled_with_its_alt_text(pages, example):
    """The svg's first child is a <title> holding the aria-label's words: the
    tagged PDF takes its figures' /Alt from there."""
    page = _outline(pages[example])
    assert len(page.svgs) >= 4
    for svg in page.svgs:
        assert svg["label"], svg
        assert svg["first"] == "title" and svg["title"] == svg["label"], svg


# ---------------------------------------------------------------------------
# In the browser


def _chromium() -> str | None:
    for candidate in (os.environ.get("CHROMIUM"), "chromium", "chromium-browser", "/usr/bin/chromium"):
        if candidate and (found := shutil.which(candidate)):
            return found
    return None


def _need_browser():
    """Playwright's sync API and the browser's path; skip without either, but
    fail in CI, which installs both (.ci/run)."""
    problem = None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        problem, sync_playwright = "playwright is not installed (pip install playwright)", None
    executable = _chromium()
    if problem is None and executable is None:
        problem = "no Chromium found (apt-get install chromium, or set $CHROMIUM)"
    if problem is not None:
        if os.environ.get("CI", "").lower() == "true" or os.environ.get("EVALREPORT_REQUIRE_BROWSER") == "1":
            pytest.fail(f"the browser tests must run in CI: {problem}")
        pytest.skip(problem)
    return sync_playwright, executable


@pytest.fixture(scope="module")
def browser():
    sync_playwright, executable = _need_browser()
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=["--no-sandbox", "--disable-gpu"])
        try:
            yield b
        finally:
            b.close()


# Measured in the page: the lines a header cell's words take (line boxes told apart
# by their vertical extent), and the figures that share a row.
_HEADERS = """() => [...document.querySelectorAll('thead th')].map(th => {
  const range = document.createRange(); range.selectNodeContents(th);
  const lines = [];
  for (const r of [...range.getClientRects()].filter(r => r.width > 0).sort((a, b) => a.top - b.top)) {
    const line = lines.find(l => r.top < l.bottom - 2 && r.bottom > l.top + 2);
    if (line) { line.top = Math.min(line.top, r.top); line.bottom = Math.max(line.bottom, r.bottom); }
    else lines.push({top: r.top, bottom: r.bottom});
  }
  return [th.textContent.trim(), lines.length];
})"""
_FIGURE_ROWS = """() => [...document.querySelectorAll('.figure-row')].map(row =>
  [...row.querySelectorAll(':scope > figure')].map(f => {
    const r = f.getBoundingClientRect(); return [Math.round(r.top), Math.round(r.width)]; }))"""


@pytest.mark.slow
@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("example", EXAMPLES)
def test_layout_in_chromium(pages, browser, example, width):
    url = pages[example].resolve().as_uri()
    context = browser.new_context(viewport={"width": width, "height": 900})
    try:
        page = context.new_page()
        requests, refused, problems = [], [], []
        page.on("request", lambda r: requests.append(r.url))
        page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: problems.append(f"page error: {e}"))

        def route(r):
            if r.request.url == url:
                r.continue_()
            else:
                refused.append(r.request.url)
                r.abort()

        page.route("**/*", route)
        page.goto(url, wait_until="load")

        assert requests == [url] and not refused, f"fetched beyond the file: {requests + refused}"
        assert not problems, problems
        # the page itself never scrolls sideways: wide tables scroll in their own box
        widths = page.evaluate("[document.documentElement.scrollWidth, document.body.scrollWidth, innerWidth]")
        assert max(widths[:2]) <= widths[2], f"{example} at {width} px: {widths}"
        # a header of three words or more never stands one word a line
        # (words: split at spaces only; an arrow is tied to its word by a no-break space)
        for text, lines in page.evaluate(_HEADERS):
            words = len(re.split(r"[ \t\n]+", text))
            if words >= 3:
                assert lines < words, f"{example} at {width} px: header {text!r} in {lines} lines"
        rows = page.evaluate(_FIGURE_ROWS)
        assert rows, "no figure rows"
        if width < 640:  # one figure a row, each as wide as the text
            for row in rows:
                tops = [top for top, _ in row]
                assert len(set(tops)) == len(tops), f"figures side by side at {width} px: {row}"
                assert all(w >= 0.9 * (width - 40) for _, w in row), row
        else:  # the wide screen keeps them side by side
            assert any(len(row) > 1 and len({top for top, _ in row}) == 1 for row in rows), rows
        # every link of the contents leads to its section
        for href in page.evaluate("[...document.querySelectorAll('nav.toc a')].map(a => a.getAttribute('href'))"):
            assert page.evaluate(f"!!document.getElementById({href[1:]!r})"), href
    finally:
        context.close()


# The size each figure's text is drawn at on the screen: its font size (in the SVG's
# units) times the scale from those units to CSS px (the determinant of its screen
# transform, which holds the viewBox's scaling and any rotation of the text).
_TEXT_SIZES = """() => [...document.querySelectorAll('svg[data-figure]')].map(svg => {
  let least = Infinity, text = null, count = 0;
  for (const t of svg.querySelectorAll('text')) {
    const m = t.getScreenCTM();
    if (!t.textContent.trim() || !m) continue;
    const px = parseFloat(getComputedStyle(t).fontSize) * Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
    count += 1;
    if (px < least) { least = px; text = t.textContent.trim(); }
  }
  return [svg.dataset.figure, count, least, text];
})"""


def _text_sizes(browser, url: str | None, width: int, html: str | None = None) -> list:
    context = browser.new_context(viewport={"width": width, "height": 900})
    try:
        page = context.new_page()
        if html is None:
            page.goto(url, wait_until="load")
        else:
            page.set_content(html)
        return page.evaluate(_TEXT_SIZES)
    finally:
        context.close()


def test_the_text_measure_finds_small_text(browser):
    # the measure itself: 7 px text in a 504-unit viewBox drawn 252 px wide is 3.5 px; rotated, the same
    svg = ('<svg data-figure="t" viewBox="0 0 504 100" style="width: 252px"><text font-size="7px" x="10" '
           'y="20">a</text><text font-size="7px" transform="translate(50 50) rotate(-90)">b</text></svg>')
    (name, count, least, _), = _text_sizes(browser, None, 390, html=svg)
    assert (name, count) == ("t", 2) and least == pytest.approx(3.5, abs=0.01)


@pytest.mark.slow
@pytest.mark.parametrize("example", FIGURE_EXAMPLES)
def test_figure_text_reads_on_a_phone(pages, browser, example):
    """At 390 px every figure's every text is drawn at 8 CSS px or more: a figure
    of two panels printed its text at 3 to 4 px there, so each panel is a figure of
    its own, one a row; a figure drawn for the page's width scrolls in its own box."""
    sizes = _text_sizes(browser, pages[example].resolve().as_uri(), 390)
    assert len(sizes) >= 4
    small = [(name, round(least, 2), text) for name, count, least, text in sizes
             if count == 0 or least < PHONE_TEXT_PX]
    assert not small, f"{example} at 390 px: figures with text under {PHONE_TEXT_PX} px: {small}"
