"""The learners' colours, dashes and markers, as every figure draws them
(:func:`learner_styles`), and the legend entries of the learners drawn in grey.
What is emphasised is the report's decision (report/summary.py), passed in."""

from __future__ import annotations

__all__ = ["PALETTE", "MARKERS", "MUTED", "EMPHASIS_FROM", "learner_styles"]

#: The learners' colours, in the order learners get them: each at least 3:1 against
#: white (WCAG 2's contrast for graphics; Okabe & Ito's yellow, sky blue and orange
#: were 1.3 to 2.3:1), and every two at least 14 CAM02-UCS units apart under
#: simulated deuteranopia, protanopia and tritanopia as in normal vision (found by
#: search over the colours of enough contrast; tests/test_palette.py checks it). A
#: plane of two colour dimensions (what a dichromat sees) holds about six such
#: colours; each learner also has its own dash and marker, so colour is never the
#: only cue.
PALETTE = ("#0072B2", "#B46900", "#962D78", "#000000", "#FF1E69", "#A50000")
#: one dash pattern per colour: solid, dashed, dotted, dash-dot, short dashes, dash-dot-dot
DASHES = ("-", (0, (5, 1.6)), (0, (1.3, 1.3)), (0, (6, 1.5, 1.3, 1.5)), (0, (2.8, 1.6)),
           (0, (6, 1.5, 1.3, 1.5, 1.3, 1.5)))
#: one marker per colour, for the figures of points (dot charts, trends)
MARKERS = ("o", "s", "D", "^", "v", "P")
#: the style of a learner drawn for context only (past :data:`EMPHASIS_FROM` learners,
#: those neither leading, deployed nor challenging): grey at 3.4:1, thin, behind
MUTED = {"color": "#8C8C8C", "linestyle": "-", "marker": "o", "linewidth": 0.8, "muted": True}
#: past this many learners only the emphasised ones (report/summary.py) get colours
EMPHASIS_FROM = 6


def learner_styles(keys, emphasis=None) -> dict[str, dict]:
    """One colour, dash and marker per learner, in every figure.

    Parameters
    ----------
    keys : iterable of str
        The learners' names, in the order of the report.
    emphasis : collection of str, optional
        The learners drawn in colour (the report's: the leader, the deployed
        learner and its challengers); the others are drawn in grey, thin and
        behind (:data:`MUTED`). Default: every learner in colour.

    Returns
    -------
    dict
        name -> ``{"color", "linestyle", "marker"}`` (matplotlib's keywords;
        a muted learner's also ``linewidth`` and ``muted``). Up to six
        learners each has its own colour, dash and marker; past six the
        colours repeat, each time with other dashes and markers.

    Examples
    --------
    >>> learner_styles(["A", "B"])["B"]
    {'color': '#B46900', 'linestyle': (0, (5, 1.6)), 'marker': 's'}
    >>> learner_styles(["A", "B", "C"], emphasis={"C"})["A"]["color"]
    '#8C8C8C'
    """
    keys = list(keys)
    coloured = keys if emphasis is None else [k for k in keys if k in set(emphasis)]
    n = len(PALETTE)
    styles = {}
    for i, key in enumerate(coloured):
        shift = (i + i // n) % n  # the colour's next round: another dash and marker
        styles[key] = {"color": PALETTE[i % n], "linestyle": DASHES[shift], "marker": MARKERS[shift]}
    return {k: styles.get(k) or dict(MUTED) for k in keys}


def line_style(st: dict, zorder: float = 3) -> dict:
    """A learner's line keywords: its colour and dash; a muted one thin and behind."""
    if st.get("muted"):
        return {"color": st["color"], "linestyle": st["linestyle"], "linewidth": st["linewidth"], "zorder": 1.5}
    return {"color": st["color"], "linestyle": st["linestyle"], "zorder": zorder}


def muted_handle(keys, styles):
    """The one legend entry of the learners drawn in grey (None when there are none)."""
    muted = [k for k in keys if styles[k].get("muted")]
    if not muted:
        return None
    return proxy(f"{len(muted)} other learner{'s' if len(muted) > 1 else ''} (grey)", color=MUTED["color"],
                  linewidth=MUTED["linewidth"])


def learner_handles(handles: list, keys, styles) -> list:
    """``handles`` (one per learner, in ``keys``' order) less the muted learners',
    with one entry for them all after the learners'."""
    kept = [h for k, h in zip(keys, handles) if not styles[k].get("muted")]
    grey = muted_handle(keys, styles)
    return kept + ([grey] if grey is not None else [])


def proxy(label: str, **kwargs):
    """A legend entry for a kind of mark (its colour neutral: every learner has one)."""
    from matplotlib.lines import Line2D

    return Line2D([], [], label=label, **{"color": "#555555", **kwargs})
