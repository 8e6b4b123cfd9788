"""The learners' and the classes' colours are readable by everyone (issue 34): every
line and marker at least 3:1 against white, and no two learners (or classes) drawn
together alike under simulated deuteranopia, protanopia or tritanopia.

The contrast is computed here from WCAG 2's definitions; the colour-vision
deficiencies are simulated with colorspacious (Machado, Oliveira and Fernandes 2009,
severity 100: a dichromat) and the colours compared in CAM02-UCS."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

colorspacious = pytest.importorskip("colorspacious")

from evalreport.class_figures import CLASS_PALETTE  # noqa: E402
from evalreport.plots import EMPHASIS_FROM, MUTED, PALETTE, learner_styles, plot_roc  # noqa: E402

#: The least CAM02-UCS distance between two learners' colours drawn together, in
#: every vision. One unit of CAM02-UCS is about a just-noticeable difference between
#: large patches side by side (Luo, Cui and Li 2006); for marks as thin as a 1.5 pt
#: line or a 5 pt marker the difference needed grows several-fold as the mark
#: shrinks (Stone, Szafir and Setlur 2014: about 5 to 10 units for lines of a tenth
#: of a degree, the size of a printed curve at reading distance). 10 is the top of
#: that range: two colours this far apart stay apart when drawn thin. (The palette
#: keeps at least 14: tested below with a margin.)
MIN_DISTANCE = 10.0
VISIONS = (None, "deuteranomaly", "protanomaly", "tritanomaly")


def _rgb(color: str) -> np.ndarray:
    color = color.lstrip("#")
    return np.array([int(color[i:i + 2], 16) / 255 for i in (0, 2, 4)])


def contrast_on_white(color: str) -> float:
    """WCAG 2's contrast ratio (L1 + 0.05) / (L2 + 0.05) against white (L = 1):
    the relative luminance of the linearised sRGB channels."""
    c = _rgb(color)
    linear = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    luminance = float(linear @ np.array([0.2126, 0.7152, 0.0722]))
    return 1.05 / (luminance + 0.05)


def seen(color: str, vision: str | None) -> np.ndarray:
    """The colour in CAM02-UCS as a reader of ``vision`` sees it (None: normal)."""
    rgb = _rgb(color)
    if vision is not None:
        rgb = np.clip(colorspacious.cspace_convert(
            rgb, {"name": "sRGB1+CVD", "cvd_type": vision, "severity": 100}, "sRGB1"), 0, 1)
    return colorspacious.cspace_convert(rgb, "sRGB1", "CAM02-UCS")


def distance(a: str, b: str, vision: str | None) -> float:
    return float(np.linalg.norm(seen(a, vision) - seen(b, vision)))


def test_the_contrast_formula_against_known_ratios():
    # WCAG's own: black on white 21:1, white on white 1:1; #767676 is the lightest grey at 4.5:1
    assert contrast_on_white("#000000") == pytest.approx(21.0)
    assert contrast_on_white("#ffffff") == pytest.approx(1.0)
    assert contrast_on_white("#767676") == pytest.approx(4.54, abs=0.01)
    # the figures for Okabe and Ito's yellow, sky blue and orange
    assert [round(contrast_on_white(c), 2) for c in ("#F0E442", "#56B4E9", "#E69F00")] == [1.32, 2.31, 2.25]


def test_the_simulation_merges_what_a_dichromat_cannot_tell_apart():
    # the check can fail: pure red and a green of the same lightness are far apart in normal
    # vision and close for a deuteranope (Machado's model), as they are for a reader without M cones
    assert distance("#D00000", "#007A00", None) > 30
    assert distance("#D00000", "#007A00", "deuteranomaly") < distance("#D00000", "#007A00", None) / 2


@pytest.mark.parametrize("color", PALETTE + CLASS_PALETTE + (MUTED["color"],))
def test_every_line_and_marker_at_least_3_to_1_on_white(color):
    assert contrast_on_white(color) >= 3.0


@pytest.mark.parametrize("palette", [PALETTE, CLASS_PALETTE], ids=["learners", "classes"])
@pytest.mark.parametrize("vision", VISIONS)
def test_no_two_colours_alike_in_any_vision(palette, vision):
    for a, b in itertools.combinations(palette, 2):
        assert distance(a, b, vision) >= MIN_DISTANCE + 4, (a, b, vision)


def test_classes_never_in_the_learners_colours():
    assert not set(c.lower() for c in CLASS_PALETTE) & set(c.lower() for c in PALETTE)


def _drawn_roc_styles(n: int, emphasis=None):
    """(colour, dash, width) of each learner's line as plot_roc draws it, n learners."""
    from matplotlib.figure import Figure

    from evalreport.metrics import evaluate_binary

    rng = np.random.default_rng(n)
    y = rng.integers(0, 2, 200)
    evs = {f"learner {i}": evaluate_binary(y, y + rng.normal(0, 1 + i / 4, 200)) for i in range(n)}
    ax = Figure().subplots()
    plot_roc(ax, evs, styles=learner_styles(evs, emphasis), legend=False)
    lines = [ln for ln in ax.lines if ln.get_zorder() in (3, 1.5) and len(ln.get_xdata()) > 2]
    assert len(lines) == n  # one curve per learner (not the diagonal, hulls or marks)
    return [(ln.get_color(), ln.get_dashes() if hasattr(ln, "get_dashes") else ln._dash_pattern,
             ln.get_linewidth(), ln.get_zorder()) for ln in lines]


@pytest.mark.parametrize("n", range(2, EMPHASIS_FROM + 1))
def test_no_two_learners_drawn_together_look_alike(n):
    drawn = _drawn_roc_styles(n)
    for (c1, d1, *_), (c2, d2, *_) in itertools.combinations(drawn, 2):
        assert str(d1) != str(d2)  # the dash tells them apart
        for vision in VISIONS:  # and the colour, in every vision
            assert distance(c1, c2, vision) >= MIN_DISTANCE, (c1, c2, vision)


def test_past_six_the_emphasised_in_colour_over_the_rest_in_grey():
    emphasis = {"learner 2", "learner 5"}
    drawn = _drawn_roc_styles(9, emphasis)
    coloured = [d for i, d in enumerate(drawn) if f"learner {i}" in emphasis]
    grey = [d for i, d in enumerate(drawn) if f"learner {i}" not in emphasis]
    assert len(grey) == 7 and {c for c, *_ in grey} == {MUTED["color"]}
    for color, dash, width, zorder in coloured:
        for g_color, _, g_width, g_zorder in grey:
            assert width > g_width and zorder > g_zorder  # thin and behind
            for vision in VISIONS:
                assert distance(color, g_color, vision) >= MIN_DISTANCE


@given(st.integers(1, len(PALETTE) ** 2))
def test_each_learner_its_own_colour_and_dash(n):
    styles = list(learner_styles([f"k{i}" for i in range(n)]).values())
    pairs = {(s["color"], str(s["linestyle"])) for s in styles}
    assert len(pairs) == n
    # the first six: each its own colour, dash and marker
    first = styles[:len(PALETTE)]
    for key in ("color", "marker"):
        assert len({str(s[key]) for s in first}) == len(first)


def test_emphasis_is_what_the_verdict_names():
    # the report decides who is in colour from the verdict; the figures only draw it
    from types import SimpleNamespace as NS

    from evalreport.report.summary import emphasis, shown_styles

    keys = [f"m{i}" for i in range(10)]
    learners = {k: NS(name=k) for k in keys}
    leader = NS(learner="m4", tied=("m4", "m7"), over="learners", indistinguishable_from=("m1", "m2"))
    challengers = {"m3": {"superior": False, "non_inferior": True}, "m5": {"superior": True, "non_inferior": True},
                   "m6": {"superior": False, "non_inferior": False}}
    verdict = NS(deployed="m9", leader=leader, leaders=(leader,), challengers=challengers)
    result = NS(learners=learners, verdict=verdict, comparisons=(), spec=NS(deployed="m9"))
    # deployed, the leader and its tie, the superior challenger, then the non-inferior one;
    # neither the challenger the test rejects (m6) nor those the leader's test cannot separate
    assert emphasis(result) == ["m9", "m4", "m7", "m5", "m3"]
    styles = shown_styles(result, None)
    assert [k for k in keys if not styles[k].get("muted")] == ["m3", "m4", "m5", "m7", "m9"]
    assert len({styles[k]["color"] for k in ["m3", "m4", "m5", "m7", "m9"]}) == 5
    # six learners or fewer: every one in colour, whatever the verdict
    few = NS(learners={k: learners[k] for k in keys[:6]}, verdict=verdict, comparisons=(), spec=NS(deployed="m9"))
    assert not any(s.get("muted") for s in shown_styles(few, None).values())
