"""The values the templates print that follow from the builders' own: captions,
notes assembled from several learners' rows, the rows a section shows (issue 35:
templates only print and loop).

The builders (report/binary.py, report/multiclass.py, report/context.py) give each
learner's row; :func:`prepared` adds what a template used to work out from those
rows (which learners' blocks are drawn, the sentence on simplified curves, a
caption with the sample's share), so that no template filters, joins or
concatenates. What depends on the render (with attachments, the PDF's short
glossary) is chosen by :meth:`.page.ReportContext.rendered`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .format import cells

__all__ = ["CONFUSION_CAPTIONS", "CURVE_CAPTIONS", "CaptionedFigure", "StyledCell", "curve_captions", "curves_note",
           "prepared"]


@dataclass(frozen=True)
class CaptionedFigure:
    svg: str  # Markup
    caption: str


@dataclass(frozen=True)
class StyledCell:
    """A table cell's text and its HTML class (the tests table's McNemar cells)."""

    text: str
    cls: str

#: the captions of the binary report's curves (templates/sections/curves.html.j2)
CURVE_CAPTIONS = {
    "roc": "ROC curves with their convex hulls (dashed). The dotted line joins every ROC point of the same "
           "expected cost as the best learner's best point at the operating point. Squares: each learner's "
           "deployed threshold.",
    "roc_log": "The top-left corner of the ROC curves, FPR on a log scale (0 at the left edge): where curves "
               "that crowd the corner part. Squares: each learner's deployed threshold; the circle: the "
               "least-cost point at the operating point.",
    "pr": "P-R curves, drawn straight in count space between points; diamonds mark the break-even points "
          "(P = R, on the diagonal); grey: iso-F1 contours; squares: each learner's deployed threshold.",
    "cost": "Cost curves: each learner's lower envelope of cost lines; the shading shows which learner has "
            "the least cost at each PC(+); the dashed line is the operating point; dotted: the cost line of "
            "each learner's deployed threshold, its square the cost it pays at the operating point (against "
            "the least cost, on its curve).",
}


#: the captions of a multi-class learner's two confusion matrices (measures_multiclass.html.j2)
CONFUSION_CAPTIONS = {
    "counts": "Confusion matrix: counts (rows true, columns predicted), shaded by the share of the true class.",
    "shares": "Confusion matrix: the share of each true class (rows true, columns predicted).",
}


def curve_captions(sample_label: str, several: bool = False) -> dict:
    """The curves' captions; with priors the P-R curve's precision is the sample's
    (``sample_label``, "(sample: 37.3% positive)"), which its caption says; with
    ``several`` data sets, each has its own least-cost point and envelope (a learner is
    compared with those scored on the same rows). ``thirds``: the three figures three
    across under one caption."""
    out = dict(CURVE_CAPTIONS)
    if several:
        out["roc"] = out["roc"].replace("as the best learner's best point at the operating point",
                                        "as each data set's least-cost point at the operating point (circles)")
        out["roc_log"] = out["roc_log"].replace("the circle: the least-cost point at the operating point",
                                                "circles: each data set's least-cost point at the operating point")
        out["cost"] = out["cost"].replace("the shading shows which learner has the least cost at each PC(+)",
                                          "the shading shows which learner has the least cost at each PC(+) "
                                          "within each data set")
    if sample_label:
        out["pr"] += f" Precision {sample_label}, not the population's."
    out["thirds"] = " ".join(out[k] for k in ("roc", "pr", "cost"))
    return out


def curves_note(rows: list) -> str:
    """The note on curves drawn through part of their points ("" when none is):
    each such learner's key and its row's ``curves_note``."""
    simplified = [f"{r.key}: {r.curves_note}" for r in rows if r.curves_note]
    if not simplified:
        return ""
    return ("Some curves are drawn through part of their points, within a bound on their distance from the "
            f"full curve: {'; '.join(simplified)}. Every measure is computed on the full curves.")


def _drawn(rows: list) -> list:
    """The rows whose detail (confusion matrix, per-class block) is drawn."""
    return [r for r in rows if r.detail]


def _mcnemar_cells(cells: list | None, holm: bool) -> list[StyledCell] | None:
    """McNemar's cells of a tests row with their classes: the third (the method, in
    words) is not a number; the fifth, the Holm-adjusted p, only where Holm's
    method is used."""
    if not cells:
        return None
    shown = [StyledCell(c, "nowrap" if i == 2 else "num nowrap") for i, c in enumerate(cells[:4])]
    if holm:
        shown.append(StyledCell(cells[4], "num nowrap"))
    return shown


def _tests(tests: dict) -> dict:
    """The tests' rows with the cells each prints (DeLong's, as many as its columns)."""
    rows = [replace(r, delong_shown=cells((r.delong_cells or [])[:tests["delong_columns"]]),
                    mcnemar_shown=_mcnemar_cells(r.mcnemar_cells, tests["holm"])) for r in tests["rows"]]
    return {**tests, "rows": rows}


def prepared(values: dict) -> dict:
    """The builders' values with what the templates print of them, prepared."""
    learners, mc = values.get("learners") or [], values.get("mc_learners") or []
    out = {**values,
           "curve_captions": curve_captions(values.get("sample_label", ""),
                                            len({r.dataset for r in learners}) > 1),
           "curves_note": curves_note(learners or mc),
           "confusion_captions": CONFUSION_CAPTIONS,
           # the learners whose confusion matrix (binary) or per-class block (multi-class) is drawn
           "detailed": _drawn(learners or mc),
           # some are not: the note saying so
           "detail_partial": len(_drawn(learners or mc)) < len(learners or mc),
           "grouped": [r for r in learners if r.groups],
           "roc_figures": [CaptionedFigure(r.roc_svg, f"One-vs-rest ROC curves of {r.key}, one colour per class.")
                           for r in mc if r.roc_svg],
           "works_text": " ".join(values.get("works") or []),
           "works_brief_text": "; ".join(values.get("works_brief") or []),
           # the screen's appendix and heatmaps; ReportContext.rendered picks the PDF's
           "appendix_entries": values.get("definitions") or {}, "appendix_brief": False,
           }
    if learners and not values.get("threshold_notes"):
        # a few learners: each its own note (many: by kind, report/binary.py)
        out["threshold_notes"] = "; ".join(f"{r.key}: {r.threshold_note}" for r in learners)
    if values.get("pair_heatmaps"):
        out["pair_heatmaps"] = [replace(h, shown=h.svg) for h in values["pair_heatmaps"]]
    if values.get("tests"):
        out["tests"] = _tests(values["tests"])
    return out
