"""The report's tests of significance: sentences, a table of pairs, a p-value
matrix for many learners, and Friedman's test with its critical-difference figure."""

from __future__ import annotations

from markupsafe import Markup

from .. import registry
from ..figures import critical_difference_figure
from .format import UNDEFINED, fmt, p_text, p_value_text

__all__ = ["tests_section"]


def tests_section(result) -> dict:
    """Tests of significance as sentences, a pairs table and a p-value matrix."""
    level = result.spec.confidence.level
    pct = f"{100 * (1 - level):g}%"
    rows, sentences = [], []
    significant, not_significant = [], 0
    for comp in result.comparisons:
        for t in comp.tests:
            row = {"dataset": comp.dataset or "", "a": t.a, "b": t.b,
                   "delong": "", "mcnemar": "", "paired_t": ""}
            if t.delong is not None:
                d = t.delong
                if d.p_value is None:
                    row["delong"] = d.note or UNDEFINED
                else:
                    ci = f" [{fmt(d.ci[0], 3)}, {fmt(d.ci[1], 3)}]" if d.ci else ""
                    row["delong"] = f"ΔAUC {d.difference:+.4f}{ci}, z = {fmt(d.z, 3)}, {p_text(d.p_value)}"
                    if d.z is None and d.note:  # why z is undefined (also in the warnings)
                        row["delong"] += f" ({d.note})"
                    if d.p_value < 1 - level:
                        better, worse = (t.a, t.b) if d.difference > 0 else (t.b, t.a)
                        significant.append(f"{better} over {worse} ({p_text(d.p_value)})")
                    else:
                        not_significant += 1
            if t.mcnemar is not None:
                m = t.mcnemar
                row["mcnemar"] = (f"e01 = {fmt(m.e01)}, e10 = {fmt(m.e10)}, "
                                  + (f"χ² = {fmt(m.statistic, 3)}, " if m.statistic is not None else "")
                                  + f"{p_text(m.p_value)}")
                if m.p_value_exact is not None:
                    # few disagreements: the χ² p-value is rough, the exact one is the one to read
                    row["mcnemar"] += (f"; only {fmt(m.e01 + m.e10)} disagreements, exact binomial "
                                       f"{p_text(m.p_value_exact)}")
            if t.paired_t is not None:
                pt = t.paired_t
                row["paired_t"] = (f"mean error difference {pt.mean_difference:+.4f}, t = {fmt(pt.t, 3)} "
                                   f"({pt.dof} dof), {p_text(pt.p_value)}")
            rows.append(row)
    if significant:
        sentences.append(f"DeLong's test finds a significantly higher AUC (at the {pct} level) for "
                         + "; ".join(significant[:6]) + ("; ..." if len(significant) > 6 else "")
                         + (f"; the other {not_significant} difference{'s are' if not_significant > 1 else ' is'}"
                            " not significant." if not_significant else "."))
    elif not_significant:
        sentences.append(f"DeLong's test finds no AUC difference significant at the {pct} level.")
    matrices = []
    for comp in result.comparisons:
        if len(comp.tests) <= 6:
            continue  # a table of pairs is clearer
        names = list(dict.fromkeys([t.a for t in comp.tests] + [t.b for t in comp.tests]))
        cell = {}
        for t in comp.tests:
            if t.delong is not None and t.delong.p_value is not None:
                cell[(t.a, t.b)] = cell[(t.b, t.a)] = p_value_text(t.delong.p_value, 2)
        matrices.append({"dataset": comp.dataset or "", "names": names,
                         "rows": [{"name": a, "cells": ["—" if a == b else cell.get((a, b), "")
                                                        for b in names]} for a in names]})
    friedman = None
    if result.friedman is not None:
        f, fr = result.friedman, result.friedman.friedman
        friedman = {
            "measure": f.measure, "datasets": ", ".join(f.datasets),
            "ranks": [{"learner": n, "rank": fmt(r, 3)} for n, r in zip(f.learners, fr.average_ranks)],
            "text": (f"Friedman's test over {len(f.datasets)} data sets ({registry.get(f.measure).label}): "
                     f"χ² = {fmt(fr.chi2, 4)}, "
                     f"{p_text(fr.p_value_chi2)}; F = {fmt(fr.f_statistic, 4)}, {p_text(fr.p_value_f)}. "
                     f"Nemenyi's critical difference at α = {fmt(fr.alpha, 2)}: {fmt(fr.critical_difference, 4)}."),
            "svg": Markup(critical_difference_figure(list(f.learners), fr.average_ranks,
                                                     fr.critical_difference, fr.significant_pairs)),
        }
    ran = {name for r in rows for name in ("delong", "mcnemar", "paired_t") if r[name]}
    return {"rows": rows, "sentences": sentences, "matrices": matrices, "friedman": friedman,
            "level": fmt(level), "ran": sorted(ran),
            "bootstrap": any(getattr(lr, "bootstrap", None) for lr in result.learners.values())}
