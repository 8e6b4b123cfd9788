"""Result -> the values the templates print, every number already formatted.

Templates never compute or format: this module is the one place that turns
numbers into text ("undefined" for None), and words into sentences.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

from markupsafe import Markup

from ..capture import routed_warnings
from ..figures import figures, learner_styles
from ..pipeline import Result
from ..redact import published, redact_text

__all__ = ["report_context", "figure_warnings", "fmt", "UNDEFINED"]

UNDEFINED = "undefined"


def fmt(value, digits: int = 4) -> str:
    """A number as text: integers with separators, floats to ``digits`` significant
    places; None is 'undefined'; +inf thresholds are 'inf' (nothing positive)."""
    if value is None:
        return UNDEFINED
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    value = float(value)
    if value != value:
        return UNDEFINED
    if value in (float("inf"), float("-inf")):
        return "+inf" if value > 0 else "-inf"
    if value.is_integer() and abs(value) < 1e15:
        return f"{int(value):,}"
    return f"{value:.{digits}g}"


def _markdown(text: str | None) -> Markup:
    """The spec's description as safe HTML: raw HTML escaped, no images fetched."""
    if not text:
        return Markup("")
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False, "linkify": False}).disable("image")
    return Markup(md.render(text))


DEFINITIONS = {
    "error rate": "(FP + FN) / m: the share of instances misclassified (weights count).",
    "accuracy": "1 - error rate.",
    "precision": "TP / (TP + FP); undefined when nothing is predicted positive.",
    "recall": "TP / (TP + FN) = TPR; undefined without positives.",
    "F1": "2PR / (P + R), computed as 2TP / (2TP + FP + FN).",
    "F-beta": "(1 + b^2) TP / ((1 + b^2) TP + b^2 FN + FP); b > 1 weighs recall more, b < 1 precision.",
    "cost-sensitive error": "(FN c_FN + FP c_FP) / m (Zhou eq. 2.23), with the spec's named costs.",
    "ROC curve": "TPR against FPR at every distinct threshold; a tied block of scores is one diagonal segment.",
    "AUC": "Area under the ROC curve (trapezoids) = the share of (positive, negative) pairs ranked "
           "right, ties counting 1/2.",
    "rank loss": "The share of (positive, negative) pairs ranked wrong, ties counting 1/2 "
                 "(Zhou eq. 2.21); always 1 - AUC. (scikit-learn's label_ranking_loss counts ties as 1.)",
    "average precision": "Sum over thresholds of (R_k - R_{k-1}) P_k, without interpolation "
                         "(scikit-learn's definition); not the trapezoid area under the P-R curve.",
    "break-even point": "The value where precision = recall, i.e. where TP + FP = m+ (as many predicted "
                        "positive as there are positives); interpolated inside a tied block.",
    "P-R curve": "Precision against recall; between points it follows straight lines in (FP, TP) "
                 "count space (Davis & Goadrich 2006), which is curved in P-R space.",
    "probability cost PC(+)": "p c_FN / (p c_FN + (1 - p) c_FP), with p the positive prior and the "
                              "named costs: the x axis of cost curves.",
    "normalised expected cost": "FNR PC(+) + FPR (1 - PC(+)): the cost line of one ROC point.",
    "cost curve": "The lower envelope of the cost lines of all ROC points, the trivial classifiers "
                  "included; it is made of the ROC convex hull's vertices.",
    "expected total cost": "The area under the cost curve for PC(+) in [0, 1]; lower is better.",
    "envelopment": "A envelops B when A's ROC curve is nowhere below B's and above somewhere "
                   "(compared exactly at every breakpoint of both curves); then A's P-R curve "
                   "envelops B's as well.",
}


@dataclass(frozen=True)
class Column:
    key: str
    label: str
    better: str  # "higher", "lower" or ""


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _verdict(result: Result, styles) -> dict:
    op = result.operating_point
    sentences = []
    if result.friedman is not None:
        f, fr = result.friedman, result.friedman.friedman
        best = f.learners[int(min(range(len(f.learners)), key=lambda i: fr.average_ranks[i]))]
        sig = "significantly" if fr.p_value_chi2 is not None and fr.p_value_chi2 < fr.alpha else "not significantly"
        sentences.append(f"Across {len(f.datasets)} data sets, {best} has the best average rank by "
                         f"{f.measure.upper() if f.measure == 'auc' else f.measure}; the learners differ "
                         f"{sig} (Friedman {_p(fr.p_value_chi2)}).")
    for comp in (result.comparisons if result.spec.task == "binary" else []):
        where = f" on {comp.dataset}" if comp.dataset else ""
        if comp.winner:
            lr = result.learners[comp.winner]
            sentences.append(
                f"At the operating point{where} (PC(+) = {fmt(op.pc_positive)}), {comp.winner} has the "
                f"least expected cost: {fmt(lr.operating.min_cost)} (normalised), at threshold "
                f"{fmt(lr.operating.threshold)}.")
        envelops: dict[str, list[str]] = {}
        crosses, identical = [], []
        for pair in comp.pairs:
            v = pair.envelopment.verdict
            if v == "a_envelops_b":
                envelops.setdefault(pair.a, []).append(pair.b)
            elif v == "b_envelops_a":
                envelops.setdefault(pair.b, []).append(pair.a)
            elif v == "identical":
                identical.append(f"{pair.a} and {pair.b}")
            else:
                at = ", ".join(fmt(x, 3) for x in pair.envelopment.crossings_fpr[:3])
                more = ", ..." if len(pair.envelopment.crossings_fpr) > 3 else ""
                crosses.append(f"{pair.a} and {pair.b} (at FPR {at}{more})")
        for a, bs in envelops.items():
            whose = f"{bs[0]}'s" if len(bs) == 1 else f"those of {_and(bs)}"
            sentences.append(f"{a}'s ROC curve envelops {whose}: {a} is at least as good at every "
                             "threshold (and so is its P-R curve).")
        if crosses:
            shown = crosses[:4] + ([f"{len(crosses) - 4} more pairs"] if len(crosses) > 4 else [])
            sentences.append(f"ROC curves cross, so neither is better at every threshold: {'; '.join(shown)}.")
        if identical:
            sentences.append(f"Identical ROC curves: {'; '.join(identical)}.")
        for pair in [p for p in comp.pairs if p.envelopment.verdict == "cross"][:4]:
            prefer = {}
            for r in comp.rankings:
                if pair.a in r.order and pair.b in r.order:
                    better = pair.a if r.order.index(pair.a) < r.order.index(pair.b) else pair.b
                    prefer.setdefault(better, []).append(_RANK_LABEL[r.measure])
            if len(prefer) == 1:
                (better, _), = prefer.items()
                sentences.append(f"Where {pair.a}'s and {pair.b}'s curves cross, every summary (AUC, BEP, "
                                 f"F1, expected total cost, cost at the operating point) prefers {better}.")
            elif prefer:
                parts = "; ".join(f"{', '.join(ms)} prefer{'s' if len(ms) == 1 else ''} {who}"
                                  for who, ms in prefer.items())
                sentences.append(f"The summaries disagree between {pair.a} and {pair.b}: {parts}.")
    if result.spec.task == "binary" and not result.comparisons and len(result.learners) == 1:
        (key, lr), = result.learners.items()
        if lr.operating is not None:
            sentences.append(f"At the operating point (PC(+) = {fmt(op.pc_positive)}), {key}'s least "
                             f"expected cost is {fmt(lr.operating.min_cost)} (normalised), at threshold "
                             f"{fmt(lr.operating.threshold)}.")
    gates = []
    for g in result.gates:
        bound = " and ".join(f"{k} {fmt(g[k])}" for k in ("min", "max") if k in g)
        gates.append({"passed": g["passed"],
                      "text": f"{g['learner']}: {g['metric']} = {fmt(g['value'])} (needs {bound})"})
    failed = sum(not g["passed"] for g in gates)
    if not gates:
        gate_summary = "No gates were set."
    elif failed:
        gate_summary = f"{failed} of {len(gates)} gates FAILED."
    else:
        gate_summary = f"All {len(gates)} gates passed."
    if result.spec.task == "binary":
        sentences += _tests(result)["sentences"]
    return {"sentences": sentences, "gates": gates, "gate_summary": gate_summary,
            "gates_failed": failed > 0}


_RANK_LABEL = {"auc": "AUC", "bep": "BEP", "f1": "F1", "expected_total_cost": "expected total cost",
               "min_cost": "cost at the operating point"}


def _matrix(result: Result) -> list[dict]:
    """Pairwise envelopment as a matrix per data set (rows a, columns b)."""
    out = []
    for comp in result.comparisons:
        if not comp.pairs:
            continue
        names = [k for k in comp.learners if not result.learners[k].hard]
        cell = {}
        for p in comp.pairs:
            v = p.envelopment.verdict
            x = ", ".join(fmt(c, 3) for c in p.envelopment.crossings_fpr[:2])
            if len(p.envelopment.crossings_fpr) > 2:
                x += ", ..."
            text = {"a_envelops_b": ("envelops", "is enveloped by"),
                    "b_envelops_a": ("is enveloped by", "envelops"),
                    "identical": ("identical", "identical"),
                    "cross": (f"crosses at FPR {x}", f"crosses at FPR {x}")}[v]
            cell[(p.a, p.b)], cell[(p.b, p.a)] = text
        rows = [{"name": a, "cells": ["—" if a == b else cell.get((a, b), "") for b in names]}
                for a in names]
        out.append({"dataset": comp.dataset, "names": names, "rows": rows})
    return out


#: result -> (its report context, the warnings raised while drawing its figures):
#: the figures are drawn once per result, for results.json, the HTML and the PDF
_DRAWN: "weakref.WeakKeyDictionary[Result, tuple[dict, list[str]]]" = weakref.WeakKeyDictionary()


def _drawn(result: Result) -> tuple[dict, list[str]]:
    if result not in _DRAWN:
        # matplotlib's and NumPy's warnings go to the report's warnings, not stderr
        with routed_warnings("drawing the report's figures") as routed:
            context = _context(result)
        # redacted as the evaluation's are (published): a warning may quote a value
        drawn = [redact_text(w)[0] for w in routed.lines() if w not in result.warnings]
        context["warnings"] = list(published(result).warnings) + drawn
        _DRAWN[result] = (context, drawn)
    return _DRAWN[result]


def report_context(result: Result) -> dict:
    """The values the templates print (a new dict each call: the renderer adds to it)."""
    return dict(_drawn(result)[0])


def figure_warnings(result: Result) -> list[str]:
    """The warnings raised while drawing the report's figures (drawn if not yet)."""
    return list(_drawn(result)[1])


def _context(result: Result) -> dict:
    if result.spec.task == "multiclass":
        return _multiclass_report_context(result)
    spec = result.spec
    op = result.operating_point
    styles = learner_styles(result.learners)
    metrics = spec.metric_set
    # TP, FP, TN and FN are in the confusion matrices just below: repeating
    # them here made the table too wide for a page at millions of rows
    at_cols = [Column("threshold", "threshold", "")]
    for key, label, better in (("accuracy", "accuracy", "higher"), ("error_rate", "error rate", "lower"),
                               ("precision", "precision", "higher"), ("recall", "recall", "higher"),
                               ("f1", "F1", "higher")):
        if key in metrics:
            at_cols.append(Column(key, label, better))
    if "fbeta" in metrics:
        at_cols += [Column(f"fbeta_{b:g}", f"F{b:g}", "higher") for b in spec.fbeta]
    if "cost_sensitive_error" in metrics:
        at_cols.append(Column("cost_sensitive_error", "cost-sensitive error", "lower"))
    rank_cols = []
    for key, label, better in (("auc", "AUC", "higher"), ("rank_loss", "rank loss", "lower"),
                               ("average_precision", "average precision", "higher"),
                               ("bep", "break-even point", "higher")):
        if key in metrics:
            rank_cols.append(Column(key, label, better))
    if spec.partial_auc is not None:
        rank_cols.append(Column("partial_auc", f"partial AUC (FPR <= {fmt(spec.partial_auc.max_fpr)}"
                                + (", McClish)" if spec.partial_auc.standardized else ")"), "higher"))
    if "expected_total_cost" in metrics:
        rank_cols.append(Column("expected_total_cost", "expected total cost", "lower"))
    rank_cols += [Column("min_cost", "least cost at PC(+)", "lower"),
                  Column("op_threshold", "its threshold", "")]

    learners = []
    scalar_rows = {"AUC": {}, "average precision": {}, "break-even point": {}, "F1": {}, "accuracy": {}}
    for key, lr in result.learners.items():
        at, sm = lr.at_threshold, lr.summary
        values = {
            "threshold": lr.threshold, "accuracy": at.accuracy, "error_rate": at.error_rate, "precision": at.precision,
            "recall": at.recall, "f1": at.f1, "cost_sensitive_error": at.cost_sensitive_error,
            "auc": sm.auc, "rank_loss": sm.rank_loss, "average_precision": sm.average_precision,
            "bep": sm.bep, "partial_auc": lr.partial_auc, "expected_total_cost": sm.expected_total_cost,
            "min_cost": lr.operating.min_cost if lr.operating else None,
            "op_threshold": lr.operating.threshold if lr.operating else None,
        }
        for b in spec.fbeta:
            values[f"fbeta_{b:g}"] = at.fbeta.get(float(b))
        ci = lr.auc_ci.ci if lr.auc_ci is not None else None
        boot = lr.bootstrap or {}
        learners.append({
            "key": key, "color": styles[key]["color"],
            "source": published(result).sources[key],
            "dataset": lr.dataset or "", "hard": lr.hard,
            "threshold_note": {"spec": "spec threshold", "learner": "learner's own threshold",
                               "optimal": "least-cost threshold at PC(+)",
                               "decisions": "hard decisions"}[lr.threshold_source],
            "at": [fmt(values[c.key]) for c in at_cols],
            "rank": [_with_interval(fmt(values[c.key]), ci if c.key == "auc" else
                                    boot.get({"bep": "bep", "average_precision": "average_precision",
                                              "expected_total_cost": "expected_total_cost"}.get(c.key, "")))
                     for c in rank_cols],
            "n": fmt(sm.n), "positives": fmt(sm.positives), "negatives": fmt(sm.negatives),
            "confusion": {k: fmt(getattr(at, k)) for k in ("tp", "fp", "tn", "fn")},
            "confusion_share": _shares(at),
            "curves_note": _simplified_note(lr.curves),
        })
        for label, v, iv in (("AUC", sm.auc, ci), ("average precision", sm.average_precision,
                                                    boot.get("average_precision")),
                             ("break-even point", sm.bep, boot.get("bep")), ("F1", at.f1, boot.get("f1")),
                             ("accuracy", at.accuracy, None)):
            interval = tuple(iv) if iv is not None and None not in tuple(iv) else None
            scalar_rows[label][key] = (v, interval)
    scalar_rows = [(label, vals) for label, vals in scalar_rows.items()
                   if any(v[0] is not None for v in vals.values())]

    rankings = []
    for comp in result.comparisons:
        for r in comp.rankings:
            rankings.append({"dataset": comp.dataset or "", "measure": _RANK_LABEL[r.measure],
                             "order": " > ".join(r.order) if r.order else UNDEFINED})
    envelope = _envelope_rows(result, styles)
    shown_definitions = dict(DEFINITIONS)
    balance = [{"key": lr_key, "positives": fmt(lr.summary.positives), "negatives": fmt(lr.summary.negatives),
                "share": fmt(lr.summary.positives / (lr.summary.positives + lr.summary.negatives), 3)
                if (lr.summary.positives + lr.summary.negatives) else UNDEFINED}
               for lr_key, lr in result.learners.items()]
    return {
        **_common(result),
        "operating_point": {
            "p": fmt(op.p_positive), "p_source": "spec priors" if op.p_positive_source == "priors"
            else "the data's own share", "cost_fn": fmt(op.cost_fn), "cost_fp": fmt(op.cost_fp),
            "pc": fmt(op.pc_positive)},
        "balance": balance,
        "at_columns": at_cols,
        "rank_columns": rank_cols,
        "learners": learners,
        # every name the templates ask for, "" where nothing is drawn (one-class data: no curves)
        "figures": {"roc": "", "pr": "", "cost": "", "scalars": "",
                    **{k: Markup(v) for k, v in figures(result, scalar_rows).items()}},
        "matrix": _matrix(result),
        "rankings": rankings,
        "rankings_disagree": any(not c.rankings_agree for c in result.comparisons),
        "envelope": envelope,
        "definitions": shown_definitions,
    }


def _envelope_rows(result: Result, styles) -> list[dict]:
    """The cost envelope for people: one row per run of one learner (its thresholds
    as a range when it changes threshold along the way); results.json has every interval."""
    rows = []
    for comp in result.comparisons:
        runs: list[list] = []
        for iv in comp.cost_envelope:
            if runs and runs[-1][0] == iv.learner:
                runs[-1][2] = iv.pc_to
                runs[-1][3].append(iv.threshold)
            else:
                runs.append([iv.learner, iv.pc_from, iv.pc_to, [iv.threshold]])
        for learner, lo, hi, thresholds in runs:
            if len(thresholds) == 1:
                thr = fmt(thresholds[0])
            else:
                thr = f"{fmt(max(thresholds))} down to {fmt(min(thresholds))} ({len(thresholds)} thresholds)"
            rows.append({"learner": learner, "color": styles[learner]["color"], "threshold": thr,
                         "from": fmt(lo, 3), "to": fmt(hi, 3), "dataset": comp.dataset or ""})
    return rows


def _simplified_note(curves) -> str:
    """How a learner's curves are drawn when they are drawn through part of
    their points ("" when every vertex is drawn): the ROC curve's points and
    bound, and the P-R curve's bound (larger than the ROC's when a streamed
    table was reduced: precision moves more between kept rows)."""
    roc, pr = curves.roc, curves.pr
    shown = roc if roc is not None else pr
    if shown is None or not shown.simplified:
        return ""
    name = "ROC" if shown is roc else "P-R"
    if shown.vertices is None:  # a table reduced while it streamed: its vertices are not known
        of = f"{name} points through rows kept from the streamed table"
    else:
        of = f"of {fmt(shown.vertices)} {name} vertices"
    text = f"{fmt(shown.x.size)} {of}, within {fmt(shown.max_error, 2)}"
    if shown is roc and pr is not None and pr.simplified:
        text += f" (the P-R curve within {fmt(pr.max_error, 2)})"
    return text


def _p_value(value, digits: int = 3) -> str:
    """"0.0272", or "< 1e-16" below the float resolution: a test's p-value
    under about 1e-16 comes out as 0.0 from the distribution's tail, and
    "p = 0" would claim a certainty no test gives."""
    if value is None:
        return UNDEFINED
    return "< 1e-16" if value < 1e-16 else fmt(value, digits)


def _p(value, digits: int = 3) -> str:
    """"p = 0.0272", or "p < 1e-16" (never p = 0; see :func:`_p_value`)."""
    text = _p_value(value, digits)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


def _with_interval(text: str, interval) -> str:
    if interval is None or text == UNDEFINED:
        return text
    lo, hi = tuple(interval)
    if lo is None or hi is None:
        return text
    return f"{text} [{fmt(lo, 3)}, {fmt(hi, 3)}]"


def _tests(result: Result) -> dict:
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
                    row["delong"] = f"ΔAUC {d.difference:+.4f}{ci}, z = {fmt(d.z, 3)}, {_p(d.p_value)}"
                    if d.z is None and d.note:  # why z is undefined (also in the warnings)
                        row["delong"] += f" ({d.note})"
                    if d.p_value < 1 - level:
                        better, worse = (t.a, t.b) if d.difference > 0 else (t.b, t.a)
                        significant.append(f"{better} over {worse} ({_p(d.p_value)})")
                    else:
                        not_significant += 1
            if t.mcnemar is not None:
                m = t.mcnemar
                row["mcnemar"] = (f"e01 = {fmt(m.e01)}, e10 = {fmt(m.e10)}, "
                                  + (f"χ² = {fmt(m.statistic, 3)}, " if m.statistic is not None else "")
                                  + f"{_p(m.p_value)}")
                if m.p_value_exact is not None:
                    # few disagreements: the χ² p-value is rough, the exact one is the one to read
                    row["mcnemar"] += (f"; only {fmt(m.e01 + m.e10)} disagreements, exact binomial "
                                       f"{_p(m.p_value_exact)}")
            if t.paired_t is not None:
                pt = t.paired_t
                row["paired_t"] = (f"mean error difference {pt.mean_difference:+.4f}, t = {fmt(pt.t, 3)} "
                                   f"({pt.dof} dof), {_p(pt.p_value)}")
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
                cell[(t.a, t.b)] = cell[(t.b, t.a)] = _p_value(t.delong.p_value, 2)
        matrices.append({"dataset": comp.dataset or "", "names": names,
                         "rows": [{"name": a, "cells": ["—" if a == b else cell.get((a, b), "")
                                                        for b in names]} for a in names]})
    friedman = None
    if result.friedman is not None:
        from ..figures import critical_difference_figure

        f, fr = result.friedman, result.friedman.friedman
        friedman = {
            "measure": f.measure, "datasets": ", ".join(f.datasets),
            "ranks": [{"learner": n, "rank": fmt(r, 3)} for n, r in zip(f.learners, fr.average_ranks)],
            "text": (f"Friedman's test over {len(f.datasets)} data sets ({f.measure}): χ² = {fmt(fr.chi2, 4)}, "
                     f"{_p(fr.p_value_chi2)}; F = {fmt(fr.f_statistic, 4)}, {_p(fr.p_value_f)}. "
                     f"Nemenyi's critical difference at α = {fmt(fr.alpha, 2)}: {fmt(fr.critical_difference, 4)}."),
            "svg": Markup(critical_difference_figure(list(f.learners), fr.average_ranks,
                                                     fr.critical_difference, fr.significant_pairs)),
        }
    ran = {name for r in rows for name in ("delong", "mcnemar", "paired_t") if r[name]}
    return {"rows": rows, "sentences": sentences, "matrices": matrices, "friedman": friedman,
            "level": fmt(level), "ran": sorted(ran),
            "bootstrap": any(getattr(lr, "bootstrap", None) for lr in result.learners.values())}


def _shares(at) -> dict:
    total = at.tp + at.fp + at.tn + at.fn
    if not total:
        return {k: 0 for k in ("tp", "fp", "tn", "fn")}
    return {k: round(100 * getattr(at, k) / total) for k in ("tp", "fp", "tn", "fn")}




def _common(result: Result) -> dict:
    """What binary and multi-class reports share."""
    spec = result.spec
    texts = published(result)  # every free text, credentials redacted (redact.py)
    return {
        "title": texts.title,
        "description": _markdown(texts.description),
        "date": result.date,
        "version": result.version,
        "task": spec.task,
        "positive": str(spec.positive_label) if spec.task == "binary" else "",
        "verdict": _verdict(result, {}),
        "operating_point": None,
        "inputs": [{"path": i["path"], "sha256": i["sha256"], "rows": fmt(i["rows"])}
                   for i in texts.inputs],
        "balance": [],
        "spec_text": texts.spec_text,
        "spec_redacted": texts.note,
        "matrix": [],
        "rankings": [],
        "rankings_disagree": False,
        "envelope": [],
        "warnings": list(result.warnings),
        "gates": result.gates,
        "learners": [],
        "tests": _tests(result),
    }


def _multiclass_report_context(result: Result) -> dict:
    from .context_multiclass import multiclass_context

    return multiclass_context(result, _common(result))
