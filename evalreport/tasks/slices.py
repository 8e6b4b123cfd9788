"""Subgroup slices of a binary learner, and the gates on them.

``slices: [column, ...]`` on a data entry names columns of subgroups of one
population (region, sex, age band). Unlike ``group`` (folds, runs: averaged,
paired across), each value of a slice column is a population of its own: the
learner is evaluated on that subset alone, exactly as on the whole (the engine's
evaluation at the learner's threshold, with the spec's costs and betas, its
summary, its operating point at the run's PC(+), its partial AUC), and every
scalar of the registry is read off it, so any measure the registry gains comes
into the slices by itself. Then each value's gap to the whole population, the
Wilson intervals of its proportions (selection rate, TPR, FPR, accuracy, precision,
...), DeLong's interval of its AUC, and the parity differences across the values
(evalreport.metrics.slices). A value with fewer than ``confidence.slices_min``
positive or negative rows is too small to compare: measured and shown, but left
out of the parity differences and of the gates on the slice.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..compare.stats.delong import delong_auc
from ..curves import OutputCurves
from ..metrics.binary import evaluate_binary_for_report
from ..metrics.ks import ks_of
from .calibration import binary_calibration
from ..metrics.groups import group_codes
from ..metrics.slices import (PARITY, SliceColumn, SliceValue, bootstrap_parity, cell_counts, is_small, parity_of,
                              proportion_intervals, rates_of, too_small_text, wilson_interval)
from ..result import LearnerResult, RunWarning
from .base import learner_warning, with_values

__all__ = ["with_slices", "slice_gate"]


def with_slices(spec, source, lr, scores, costs, betas, warnings: list):
    """``lr`` (a LearnerResult of the whole population) with its slices, when the
    data entry names slice columns; the undefined measures of each slice value and
    the intervals not computed are added to ``warnings``."""
    if not source.slices or scores is None:
        return lr
    whole = with_values("binary", lr)
    level, b, slices_min = spec.confidence.level, spec.confidence.bootstrap, spec.confidence.slices_min
    weighted = source.weights is not None
    if weighted and b:
        warnings.append(learner_warning(lr.key, "slices of weighted data: the measures, rates and parity "
                                        "differences are weighted; their intervals (Wilson's, the "
                                        "bootstrap's) assume unit weights and are not computed", "slices"))
    predicted = scores >= lr.threshold
    at = lr.at_threshold
    whole_rates = {k: float(r) for k, r in rates_of(np.array([at.tp, at.fp, at.tn, at.fn], float)).items()}
    out = {}
    for column, raw in source.slices.items():
        names, codes = group_codes(raw)
        counts = cell_counts(source.labels, predicted, codes, len(names), source.weights)
        values = []
        for j, name in enumerate(names):
            mask = codes == j
            sub = _subset(spec, lr, source, mask, scores, costs, betas)
            pos_rows = int(np.count_nonzero(source.labels[mask]))
            rows = int(np.count_nonzero(mask))
            _undefined_warnings(lr.key, column, name, sub, warnings)
            values.append(SliceValue(
                value=name, rows=rows, positive_rows=pos_rows, negative_rows=rows - pos_rows, learner=sub,
                gaps={k: None if v is None or whole.values.get(k) is None else v - whole.values[k]
                      for k, v in sub.values.items()},
                rates=_rates(counts[j], whole_rates, level, with_intervals=not weighted),
                small=is_small(pos_rows, rows - pos_rows, slices_min),
                intervals={} if weighted else _intervals(counts[j], sub, source.labels[mask], scores[mask],
                                                         level)))
        keep = [not v.small for v in values]
        parity = parity_of(counts, names, keep=keep)
        resamples = 0 if weighted else b
        if resamples:
            intervals = bootstrap_parity(counts, n_resamples=resamples, seed=spec.confidence.seed, level=level,
                                         keep=keep)
            parity = {k: replace(p, interval=intervals[k]) if p.value is not None else p
                      for k, p in parity.items()}
        kept = counts[np.asarray(keep, bool)]
        undefined = {r: [n for n, x in zip([n for n, k in zip(names, keep) if k], rate) if np.isnan(x)]
                     for r, rate in rates_of(kept).items()}
        for k, p in parity.items():
            if p.left_out:
                why = "; ".join(f"the {_RATE_WORDS[r]} of {', '.join(repr(n) for n in undefined[r])} is "
                                f"undefined (no {_CLASS_OF[r]})" for r in PARITY[k] if undefined[r])
                what = "undefined" if p.value is None else "taken over the other values"
                warnings.append(learner_warning(lr.key, f"slice {column}: {k} is {what}: {why}", k))
            elif p.value is None and p.too_small:
                warnings.append(learner_warning(
                    lr.key, f"slice {column}: {k} is undefined: fewer than two values have {slices_min} "
                    f"positives and {slices_min} negatives (too small to compare: {', '.join(p.too_small)})", k))
        out[column] = SliceColumn(column, values, parity, level, resamples, slices_min=slices_min)
    return replace(lr, slices=out)


_RATE_WORDS = {"selection_rate": "selection rate", "tpr": "TPR", "fpr": "FPR"}
_CLASS_OF = {"selection_rate": "instances", "tpr": "positives", "fpr": "negatives"}


def _subset(spec, lr, source, mask, scores, costs, betas):
    """The LearnerResult of the learner on the rows of ``mask``, with its registry values."""
    w = None if source.weights is None else source.weights[mask]
    ev = evaluate_binary_for_report(source.labels[mask], scores[mask], sample_weight=w, positive=True)
    at = ev.at_threshold(lr.threshold, costs=costs, betas=betas)
    summary = ev.summary()
    if lr.hard:  # decisions only: no ranking, as for the whole population
        summary = replace(summary, auc=None, rank_loss=None, average_precision=None, bep=None, hull=None,
                          cost_curve=None, expected_total_cost=None)
    pauc = None
    if spec.partial_auc is not None and not lr.hard:
        pauc = ev.partial_auc(spec.partial_auc.max_fpr, standardized=spec.partial_auc.standardized)
    # Built afresh, not copied from the whole population's result: a field this does not
    # fill (one a measure added later reads) stays at its default, undefined in the
    # slice, rather than the whole population's value shown as the slice's. A measure
    # read off such a field comes into the slices by filling it here from ``ev``.
    sub = LearnerResult(
        name=lr.name, key=lr.key, dataset=lr.dataset, source=lr.source, hard=lr.hard,
        threshold=lr.threshold, threshold_source=lr.threshold_source, summary=summary,
        curves=OutputCurves(roc=None, pr=None, cost=None), at_threshold=at,
        operating=None if lr.hard else ev.operating_point(lr.pc_positive), partial_auc=pauc,
        pc_positive=lr.pc_positive, ks=None if lr.hard else ks_of(ev),
        # the whole population's warnings already say why calibration is undefined
        calibration=binary_calibration(spec, lr.key, ev, [], hard=lr.hard, binned=None, reduced=False))
    return with_values("binary", sub)


def _undefined_warnings(key, column, value, sub, warnings):
    """One warning per slice value naming its undefined measures and why."""
    why = {} if sub.hard else {m: r for m, r in sub.summary.undefined.items()
                               if m not in ("roc_hull", "cost_curve")}
    why.update({m.split("[")[0]: r for m, r in sub.at_threshold.undefined.items()})
    if why:
        by_reason: dict[str, list[str]] = {}
        for m, r in why.items():
            by_reason.setdefault(r, []).append(m)
        said = "; ".join(f"{', '.join(ms)} ({r})" for r, ms in by_reason.items())
        warnings.append(learner_warning(key, f"slice {column} = '{value}': undefined: {said}", "slices"))


def _intervals(counts, sub, labels, scores, level) -> dict:
    """A value's intervals (unweighted data): Wilson's of each proportion of its
    confusion matrix, DeLong's of its AUC (None with fewer than 2 of a class, or hard
    decisions)."""
    out = dict(proportion_intervals(counts, level))
    out["tpr"] = out["recall"]
    auc = None
    if not sub.hard and sub.values.get("auc") is not None:
        auc = delong_auc(labels, scores, level=level).ci
    out["auc"] = None if auc is None else (float(auc[0]), float(auc[1]))
    return out


def _rates(counts, whole: dict, level, *, with_intervals: bool) -> dict:
    """Selection rate, TPR and FPR of one value's (TP, FP, TN, FN): each its value,
    Wilson interval (of unweighted counts) and gap to the whole population's."""
    tp, fp, tn, fn = (float(x) for x in counts)
    rates = rates_of(np.asarray(counts, float))
    k_n = {"selection_rate": (tp + fp, tp + fp + tn + fn), "tpr": (tp, tp + fn), "fpr": (fp, fp + tn)}
    out = {}
    for name, (k, n) in k_n.items():
        v = None if np.isnan(rates[name]) else float(rates[name])
        gap = None if v is None or np.isnan(whole[name]) else v - whole[name]
        out[name] = (v, wilson_interval(k, n, level) if with_intervals else None, gap)
    return out


def slice_gate(gate, targets) -> tuple[list[dict], list[RunWarning]]:
    """A gate on a slice column: for a parity difference, one row per learner; for
    any other metric, one row per learner and value of the column (every value must
    pass: ``min``/``max`` on its value, ``max_gap`` on |its gap to the whole|).

    Each row has ``interval``: the parity difference's bootstrap interval, a value's
    own (Wilson's, DeLong's; :attr:`SliceValue.intervals`) for ``min``/``max``, None
    for ``max_gap`` (no interval of a gap is computed) or where none is. A value too
    small to compare gives a row with ``value`` None and a ``note`` saying so: no
    pass or fail from it (``passed`` False: it did not pass)."""
    rows, warnings = [], []
    for lr in targets:
        column = (getattr(lr, "slices", None) or {}).get(gate.slice)
        if column is None:  # the spec's checks name the data entries that lack it
            continue
        small = {v.value: too_small_text(v.value, v.rows, v.positive_rows) for v in column.values if v.small}
        if gate.metric in PARITY:
            p = column.parity[gate.metric]
            row = {"learner": lr.key, "metric": gate.metric, "slice": gate.slice, "value": p.value}
            if p.between is not None:
                row["between"] = list(p.between)
            row["too_small"] = list(p.too_small)
            row["interval"] = _interval(p.interval)
            if p.value is None and p.too_small and not p.left_out:
                row["note"] = (f"fewer than two values of {gate.slice} have {column.slices_min} positives and "
                               f"{column.slices_min} negatives; too small to compare: "
                               f"{', '.join(small[n] for n in p.too_small)}")
            rows.append(_bounded(row, gate, p.value, None))
            if "note" in row:
                warnings.append(RunWarning(f"gate {gate.metric} of learner '{lr.key}' across slice "
                                           f"{gate.slice} is not evaluated: {row['note']}",
                                           learner=lr.key, measure=gate.metric))
            elif p.value is None:
                warnings.append(RunWarning(f"gate {gate.metric} of learner '{lr.key}' across slice "
                                           f"{gate.slice} is not evaluated: the value is undefined",
                                           learner=lr.key, measure=gate.metric))
            continue
        for v in column.values:
            value, gap = v.learner.values.get(gate.metric), v.gaps.get(gate.metric)
            if v.small:
                value = gap = None
            row = {"learner": lr.key, "metric": gate.metric, "slice": gate.slice, "slice_value": v.value,
                   "value": value}
            if gate.max_gap is not None:
                row["gap"] = gap
            row["interval"] = None if v.small else _interval(v.intervals.get(gate.metric))
            if gate.max_gap is not None:
                row["gap_interval"] = _gap_interval(row["interval"], value, gap)
            if v.small:
                row["note"] = (f"too small to compare: {small[v.value]}; a value needs {column.slices_min} "
                               f"positives and {column.slices_min} negatives (confidence.slices_min)")
            rows.append(_bounded(row, gate, value, gap))
            if v.small:
                warnings.append(RunWarning(
                    f"gate {gate.metric} of learner '{lr.key}' on slice {gate.slice} = '{v.value}' is not "
                    f"evaluated: {row['note']}", learner=lr.key, measure=gate.metric))
            elif value is None or (gate.max_gap is not None and gap is None):
                warnings.append(RunWarning(
                    f"gate {gate.metric} of learner '{lr.key}' on slice {gate.slice} = '{v.value}' is not "
                    f"evaluated: the {'value' if value is None else 'gap'} is undefined", learner=lr.key,
                    measure=gate.metric))
    return rows, warnings


def _gap_interval(interval, value, gap) -> list | None:
    """The interval of a slice value's gap to the whole population: the slice value's
    own interval less the whole population's value (value - gap). The whole
    population's uncertainty is not added: it holds the slice and many more rows, so
    its interval is the narrower, and the slice's dominates (docs/reference.md)."""
    if interval is None or value is None or gap is None:
        return None
    whole = float(value) - float(gap)
    return [float(interval[0]) - whole, float(interval[1]) - whole]


def _interval(iv) -> list | None:
    return None if iv is None or None in tuple(iv) else [float(iv[0]), float(iv[1])]


def _bounded(row: dict, gate, value, gap) -> dict:
    passed = value is not None
    if gate.min is not None:
        row["min"] = gate.min
        passed = passed and value >= gate.min
    if gate.max is not None:
        row["max"] = gate.max
        passed = passed and value <= gate.max
    if gate.max_gap is not None:
        row["max_gap"] = gate.max_gap
        passed = passed and gap is not None and abs(gap) <= gate.max_gap
    row["passed"] = bool(passed)
    # the note last: read after the bounds, as the history's gates write it
    if "note" in row:
        row["note"] = row.pop("note")
    return row
