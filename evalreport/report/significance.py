"""The report's tests of significance: sentences, a table of pairs, a p-value
matrix for many learners, and Friedman's test with its critical-difference figure."""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from .. import registry
from ..figures.classes import critical_difference_figure
from .format import UNDEFINED, fmt, interval_text, p_text, p_value_text, plain, value_text
from .page import NamedCells, PairMatrix
from ..words import and_join

__all__ = ["tests_section", "PairTestsRow", "FriedmanRank", "FriedmanSection"]


@dataclass(frozen=True)
class PairTestsRow:
    """A pair's row of the tests table: each test in words, and as the table's cells."""

    dataset: str  # "" with one data set
    a: str
    b: str
    delong: str = ""  # "" where DeLong's test is not run
    mcnemar: str = ""
    paired_t: str = ""
    delong_cells: list | None = None  # ΔAUC [interval], z, p, Holm p (None: in words only)
    mcnemar_cells: list | None = None  # e01, e10, the test, p, Holm p (None: in words only)
    # the cells the table prints of them (report/prepared.py, from the section's columns)
    delong_shown: list | None = None
    mcnemar_shown: list | None = None


@dataclass(frozen=True)
class FriedmanRank:
    learner: str
    rank: str  # its average rank


@dataclass(frozen=True)
class FriedmanSection:
    """The "Across data sets" paragraph: Friedman's test, its ranks and diagram."""

    measure: str  # the ranked measure's registry name
    datasets: str  # joined
    ranks: list[FriedmanRank]  # [] when too few data sets
    text: str
    svg: str  # the critical-difference diagram (Markup); "" when too few data sets


_MCNEMAR_METHOD = {
    "auto": "the exact binomial test of e01 among the e01 + e10 disagreements below 25 of them, the "
            "continuity-corrected χ² with 1 degree of freedom from 25",
    "exact": "the exact binomial test of e01 among the e01 + e10 disagreements",
    "corrected": "continuity-corrected χ² with 1 degree of freedom, rough when e01 + e10 is small: below "
                 "25 disagreements the exact binomial p-value is given beside it",
}


def _holm(p_value, p_holm, family: int) -> str:
    """", Holm p = ..." when the test is one of several pairs (alone, Holm's p is p)."""
    return f", Holm {p_text(p_holm)}" if family > 1 and p_holm is not None else ""


def _mcnemar_cell(m, family: int) -> str:
    counts = f"e01 = {fmt(m.e01)}, e10 = {fmt(m.e10)}, "
    if m.method == "exact":
        text = counts + f"exact binomial {p_text(m.p_value)}"
    else:
        text = counts + (f"χ² = {value_text(m.statistic)}, " if m.statistic is not None else "") + p_text(m.p_value)
    text += _holm(m.p_value, m.p_holm, family)
    if m.p_value_exact is not None:
        # the χ² asked for with few disagreements: it is rough, the exact one is beside it
        text += f"; only {fmt(m.e01 + m.e10)} disagreements, exact binomial {p_text(m.p_value_exact)}"
    return text


def _mcnemar_cells(m, family: int) -> list[str]:
    """e01, e10, the test (exact, or χ² and its statistic), p and Holm's p: the
    table's columns of :func:`_mcnemar_cell`'s sentence."""
    test = "exact" if m.method == "exact" else ("χ² " + value_text(m.statistic) if m.statistic is not None else "χ²")
    p = p_value_text(m.p_value)
    if m.p_value_exact is not None:  # the χ² asked for with few disagreements: the exact p beside it
        p += f" (exact {p_value_text(m.p_value_exact)})"
    return [fmt(m.e01), fmt(m.e10), test, p, p_value_text(m.p_holm) if family > 1 and m.p_holm is not None else ""]


def _best(result) -> dict:
    """Each data set's best learner by the leaderboard's measure (report/leaderboard.py)."""
    from .leaderboard import leaderboard

    out: dict = {}
    for r in leaderboard(result)["rows"]:
        if r["rank"] == 1:
            out.setdefault(r.get("dataset", result.learners[r["learner"]].dataset), r["learner"])
    return out


def _matters(t, best: str | None, shown: list[str], alpha: float) -> bool:
    """Whether the report lists the pair when it summarises: a learner against the
    best, or two learners the figures show whose difference is significant after
    Holm's adjustment (by DeLong's or McNemar's test)."""
    if best in (t.a, t.b):
        return True
    if t.a not in shown or t.b not in shown:
        return False
    return any(x is not None and x.p_holm is not None and x.p_holm < alpha for x in (t.delong, t.mcnemar))


def tests_section(result, shown: list[str] | None = None) -> dict:
    """Tests of significance as sentences, a pairs table and a p-value matrix.

    A difference is significant when its p-value adjusted by Holm's method over
    the pairs of its data set (``p_holm``) is below 1 - level. ``shown``: when the
    report summarises (report/summary.py), the table lists only the pairs that
    matter (:func:`_matters`: each learner against the best, and the significant
    pairs among the shown learners); every pair is in the sentences, the heatmaps
    and results.json."""
    level = result.spec.confidence.level
    pct = f"{plain(100 * (1 - level))}%"
    # many learners: the pairs that matter are each against the best (the leaderboard's)
    best = _best(result) if shown is not None else {}
    rows, significant, not_significant, adjusted = _pair_rows(result, shown, best, level)
    holm_words = " after Holm's adjustment over each data set's pairs" if adjusted else ""
    sentences = []
    if significant:
        sentences.append(f"DeLong's test finds a significantly higher AUC (at the {pct} level{holm_words}) for "
                         + "; ".join(significant[:6]) + ("; ..." if len(significant) > 6 else "")
                         + (f"; the other {not_significant} difference{'s are' if not_significant > 1 else ' is'}"
                            " not significant." if not_significant else "."))
    elif not_significant:
        sentences.append(f"DeLong's test finds no AUC difference significant at the {pct} level{holm_words}.")
    rough = _rough(result, level)
    if significant and rough:
        one = len(rough) == 1
        sentences.append(f"The AUC interval of {and_join(rough)} reach{'es' if one else ''} 1, where DeLong's "
                         f"normal approximation is rough: read {'its' if one else 'their'} significant differences "
                         "with the other tests.")
    matrices = _matrices(result, shown)
    friedman = None
    if result.friedman is not None:
        f, fr = result.friedman, result.friedman.friedman
        friedman = _friedman(f, fr)
    ran = {name for r in rows for name in ("delong", "mcnemar", "paired_t") if getattr(r, name)}
    bootstrap = any(getattr(lr, "bootstrap", None) for lr in result.learners.values())
    mcnemar_method = _MCNEMAR_METHOD[result.spec.confidence.mcnemar]
    return {"rows": rows, "sentences": sentences, "matrices": matrices, "friedman": friedman,
            "level": fmt(level, 6), "ran": sorted(ran), "summarised": shown is not None,
            "best": ", ".join(dict.fromkeys(best.values())),
            "pairs": sum(len(c.tests) for c in result.comparisons), "holm": adjusted, "level_pct": pct,
            "mcnemar_method": mcnemar_method, "bootstrap": bootstrap,
            # the table's columns: the paired t-test's, and how many DeLong's and McNemar's span
            "has_t": "paired_t" in ran, "delong_columns": 4 if adjusted else 3,
            "mcnemar_columns": 5 if adjusted else 4, "rows_shown": len(rows),
            "assumptions": _assumptions(ran, fmt(level, 6), mcnemar_method, pct, adjusted, bootstrap)}


def _pair_rows(result, shown: list[str] | None, best: dict, level: float
               ) -> tuple[list[PairTestsRow], list[str], int, bool]:
    """The pairs table's rows (those that matter when the report summarises); DeLong's
    significant differences as phrases, the count of those not significant, and
    whether some family has more than one pair (Holm's adjustment applies)."""
    rows, significant = [], []
    not_significant = 0
    adjusted = False  # some family has more than one pair
    for comp in result.comparisons:
        family = len(comp.tests)
        for t in comp.tests:
            tests: dict = {}  # PairTestsRow's fields of the tests run
            if t.delong is not None:
                tests["delong"], tests["delong_cells"], found = _delong(t, family, shown is not None, level)
                if found is not None:  # a p-value
                    adjusted = adjusted or family > 1
                    if found:
                        significant.append(found)
                    else:
                        not_significant += 1
            if t.mcnemar is not None:
                m = t.mcnemar
                tests["mcnemar"] = (f"e01 = {fmt(m.e01)}, e10 = {fmt(m.e10)}, Holm {p_text(m.p_holm)}"
                                    if shown is not None and m.p_holm is not None and family > 1
                                    else _mcnemar_cell(m, family))
                if m.p_value is not None:
                    tests["mcnemar_cells"] = _mcnemar_cells(m, family)
                adjusted = adjusted or family > 1
            if t.paired_t is not None:
                pt = t.paired_t
                tests["paired_t"] = (f"mean error difference {'+' if pt.mean_difference > 0 else ''}{fmt(pt.mean_difference)}, t = {value_text(pt.t)} "
                                     f"({pt.dof} dof), {p_text(pt.p_value)}")
            if shown is None or _matters(t, best.get(comp.dataset), shown, 1 - level):
                rows.append(PairTestsRow(comp.dataset or "", t.a, t.b, **tests))
    return rows, significant, not_significant, adjusted


def _rough(result, level: float) -> list[str]:
    """The learners of a significant DeLong difference whose AUC interval reaches 1."""
    out = []
    for comp in result.comparisons:
        for t in comp.tests:
            if t.delong is not None and _significant(t.delong, level):
                out += [k for k in (t.a, t.b) if k not in out and _auc_reaches_one(result, k)]
    return out


def _significant(d, level: float) -> bool:
    """Whether DeLong's difference is significant: its Holm-adjusted p (its p when
    alone in its family) below 1 - level."""
    p = d.p_holm if d.p_holm is not None else d.p_value
    return p is not None and p < 1 - level


def _auc_reaches_one(result, key: str) -> bool:
    """Whether the learner's DeLong interval of its AUC reaches 1 (clipped there)."""
    lr = (getattr(result, "learners", None) or {}).get(key)
    ci = getattr(getattr(lr, "auc_ci", None), "ci", None)
    return ci is not None and ci[1] is not None and ci[1] >= 1.0


def _delong(t, family: int, summarised: bool, level: float) -> tuple[str, list | None, str | None]:
    """DeLong's test of the pair ``t``: its text, the table's cells (None where z is
    undefined), and None when its p-value is undefined, else the phrase of a
    significant difference ("a over b (p ...)"), or "" when not significant."""
    d = t.delong
    if d.p_value is None:
        return d.note or UNDEFINED, None, None
    # the difference and its interval: 3 significant digits in a sentence, 4 decimals in the table
    diff = interval_text(d.difference, tuple(d.ci) if d.ci else None)
    cell = interval_text(d.difference, tuple(d.ci) if d.ci else None, table=True)
    sign = "+" if d.difference > 0 else ""
    if summarised and d.p_holm is not None and family > 1:
        # many pairs: one line each, the adjusted p the verdict reads (results.json: the rest)
        text = f"ΔAUC {sign}{diff}, Holm {p_text(d.p_holm)}"
    else:
        text = (f"ΔAUC {sign}{diff}, z = {value_text(d.z)}, {p_text(d.p_value)}"
                + _holm(d.p_value, d.p_holm, family))
    table = None
    if d.z is None and d.note:  # why z is undefined (also in the warnings)
        text += f" ({d.note})"
    else:
        # the table's cells: one line a pair, the numbers in columns
        table = [f"{sign}{cell}", value_text(d.z), p_value_text(d.p_value),
                 p_value_text(d.p_holm) if family > 1 else ""]
    if _significant(d, level):
        p = d.p_holm if d.p_holm is not None else d.p_value
        better, worse = (t.a, t.b) if d.difference > 0 else (t.b, t.a)
        said = f"Holm {p_text(p)}" if family > 1 else p_text(p)
        return text, table, f"{better} over {worse} ({said})"
    return text, table, ""


def _matrices(result, shown: list[str] | None) -> list[PairMatrix]:
    """DeLong's Holm-adjusted p-values as a matrix per data set of more than six
    pairs, when the report does not summarise."""
    matrices = []
    for comp in result.comparisons:
        if len(comp.tests) <= 6 or shown is not None:
            continue  # a table of pairs is clearer; past a handful of learners, a heatmap (summary.py)
        names = list(dict.fromkeys([t.a for t in comp.tests] + [t.b for t in comp.tests]))
        cell = {}
        for t in comp.tests:
            if t.delong is not None and t.delong.p_holm is not None:
                cell[(t.a, t.b)] = cell[(t.b, t.a)] = p_value_text(t.delong.p_holm, 2)
        matrices.append(PairMatrix(comp.dataset or "", names,
                                   [NamedCells(a, ["—" if a == b else cell.get((a, b), "") for b in names])
                                    for a in names]))
    return matrices


def _assumptions(ran, level: str, mcnemar_method: str, pct: str, holm: bool, bootstrap: bool) -> str:
    """The tests' assumptions, one sentence for each test the table shows."""
    said = [
        "DeLong: the two learners score the same instances; AUC's sampling distribution is approximately normal "
        f"(large samples); ties count 1/2; intervals at level {level}." if "delong" in ran else "",
        "McNemar: paired decisions, right or wrong (binary: at each learner's threshold; multi-class: the class of "
        f"highest score); {mcnemar_method} (e01: the first learner wrong, the second right)."
        if "mcnemar" in ran else "",
        "Each data set's pairs are a family of tests: their DeLong and McNemar p-values are adjusted by Holm's "
        f"method (Holm p), which keeps the chance of any false difference among them at {pct}, and a difference "
        "is called significant on its adjusted p-value." if holm else "",
        "Paired t: per-group error rates, approximately normal differences (few groups make that a strong "
        "assumption); where the groups are cross-validation folds, they share training data, so the p-values "
        "are optimistic." if "paired_t" in ran else "",
        "Bootstrap intervals: stratified percentile bootstrap with a fixed seed." if bootstrap else "",
    ]
    return " ".join(s for s in said if s)


def _friedman(f, fr) -> FriedmanSection:
    """The "Across data sets" paragraph. With too few data sets, only that it is not
    reported and why: no ranks, no diagram (results.json keeps the statistic). Never
    "p = 0": an infinite tau_F (the ranks identical on every data set) prints p < 0.001."""
    label = registry.get(f.measure).label
    n = len(f.datasets)
    if f.too_few_datasets:
        from ..compare.stats.friedman import MIN_DATASETS

        return FriedmanSection(
            measure=f.measure, datasets=", ".join(f.datasets), ranks=[], svg="",
            text=(f"Friedman's test of the learners' ranks ({label}) is not reported: it is made over "
                  f"{n} data sets ({', '.join(f.datasets)}), fewer than {MIN_DATASETS}, too few for its "
                  "approximations to tell the ranks apart. Its statistic is in results.json."))
    if fr.identical_ranks:
        f_part = f"the ranks are identical on every data set, so F is infinite, {p_text(fr.p_value_f)}"
    else:
        f_part = f"F = {value_text(fr.f_statistic)}, {p_text(fr.p_value_f)}"
    return FriedmanSection(
        measure=f.measure, datasets=", ".join(f.datasets),
        ranks=[FriedmanRank(n, fmt(r, 3)) for n, r in zip(f.learners, fr.average_ranks)],
        text=(f"Friedman's test over {n} data sets ({label}): χ² = {value_text(fr.chi2)}, "
              f"{p_text(fr.p_value_chi2)}; {f_part}. "
              f"Nemenyi's critical difference at α = {fmt(fr.alpha, 2)}: {value_text(fr.critical_difference)}."),
        svg=Markup(critical_difference_figure(list(f.learners), fr.average_ranks,
                                              fr.critical_difference, fr.significant_pairs)),
    )
