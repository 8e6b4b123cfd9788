"""What changed since the previous run: pure functions over two results.json dicts.

:func:`changes` compares each learner's headline measures in two runs made on
independent data (last week's test set and this week's), tests whether each
change is more than noise, and measures the drift of the score distributions
and of the class balance. Nothing here reads a file or per-row data: the runs'
results.json hold what the comparison needs (``auc_variance``, ``class_counts``
and ``score_summary`` of each learner).

* AUC: DeLong's test for two independent ROC curves, D = (A2 - A1) / sqrt(V1 +
  V2) from the two runs' AUCs and DeLong variances (DeLong, DeLong &
  Clarke-Pearson 1988), read as pROC's ``roc.test(paired = FALSE, method =
  "delong")`` reads it: against Student's t with the Welch-Satterthwaite
  degrees of freedom, for the p-value and the interval alike.
* Proportions at the threshold (accuracy, precision, recall, specificity): the
  two-proportion z test with the pooled proportion, from the confusion counts,
  and the score interval of the difference that inverts it (Mee 1984,
  :mod:`.proportions`).

Every interval agrees with its row's p-value: it excludes 0 exactly when p <
1 - level. The changes tested in one run are one family: each row's ``p_holm``
is Holm's adjusted p-value over the rows with a p-value, and a change is
called more than noise on it (the report, the gates on ``significant_drop``).
* Expected total cost and F1: the change, and where both runs hold a bootstrap
  interval at the same level, the interval of the difference recovered from
  them (MOVER, Zou & Donner 2008: the same construction as Newcombe's from two
  independent intervals), method ``"intervals"``, no p-value; otherwise and for
  min_cost, ``"no test"``.
* Drift: the population stability index (PSI) of the scores over the previous
  run's deciles, and the two-sample Kolmogorov-Smirnov distance, both classes
  pooled and per class; the change in the share of positives, with the
  two-proportion test.
* A multi-class task: accuracy (two-proportion test from the confusion
  matrices' diagonals) and macro-F1 (the bootstrap intervals); drift per learner
  and class, of the class's score column over all instances (no pooled row: the
  columns are different quantities, and where they are probabilities, which sum
  to 1 in every row, one class's rise is another's fall, which pooling hides);
  the change in the class shares, with Pearson's chi-squared test of homogeneity
  of the two runs' class counts.

Undefined is explicit: a value that cannot be computed is None and the row's
``note`` says why (a learner in one run only, one class only, no variance).
"""

from __future__ import annotations

import math

import numpy as np

from .. import registry
from ..compare.stats.holm import holm
from ..compare.stats.delong import delong_unpaired_summary
from ..metrics.levels import check_level
from ..errors import DataError
from ..metrics.proportion import PROPORTIONS as CELLS
from .drift import CONVENTIONS, PSI_BINS, PSI_FLOOR, as_distribution, drift_label, drift_method, ks_distance, psi
from .multiclass import chi2_homogeneity, class_drift_rows, multiclass_balance
from .names import METHOD_NAMES, balance_rows
from .proportions import newcombe_interval, score_interval, two_proportion_test
from ..words import general

__all__ = ["CONVENTIONS", "METHOD_NAMES", "measures", "balance_rows", "PSI_BINS", "PSI_FLOOR", "changes", "chi2_homogeneity", "drift_label", "ks_distance",
           "newcombe_interval", "psi", "score_interval", "two_proportion_test"]

#: the cells of (TP, FP, TN, FN), in metrics.proportion's order
_CELLS = ("tp", "fp", "tn", "fn")
#: Proportions at the threshold: (successes, trials) from the confusion counts
#: (every proportion of metrics.proportion; the registry's ``history`` says which are compared).
PROPORTIONS = {name: (tuple(_CELLS[i] for i in hits), tuple(_CELLS[i] for i in trials))
               for name, (hits, trials) in CELLS.items()}


def measures(task: str = "binary") -> tuple[str, ...]:
    """The measures compared for ``task``, in the order of the table: the registry's
    with a ``history`` method for the task (a multi-class task: accuracy, and
    macro-F1, which its ``f1`` reads), each by the name of the value it reads."""
    return tuple(m.reads(task) for m in registry.history_measures(task))


def _method(measure: str, task: str) -> str:
    """The registry's ``history`` method of the row ``measure`` (a name or an alias)."""
    for m in registry.history_measures(task):
        if measure in (m.name, m.reads(task)):
            return m.history[task]
    return "no test"


def _num(x) -> float | None:
    """A JSON-ready float: None for None and NaN."""
    if x is None:
        return None
    x = float(x)
    return None if math.isnan(x) else x


# ----------------------------------------------------------------- the comparison

def _row(learner, measure, prev, cur, *, p_value=None, interval=None, method="no test", note=None) -> dict:
    prev, cur = _num(prev), _num(cur)
    return {"learner": learner, "measure": measure, "previous": prev, "current": cur,
            "change": None if prev is None or cur is None else cur - prev,
            "p_value": _num(p_value), "p_holm": None, "interval": None if interval is None else [_num(v) for v in interval],
            "method": method, "note": note}


def _value(block: dict, measure: str, task: str = "binary"):
    """(present, value) of a measure in a learner's block: where the registry says
    results.json holds it for ``task`` (``json_path``, below ``learners.<key>``)."""
    m = registry.MEASURES.get(measure)
    path = f"learners.*.{measure}" if m is None else m.json_path.get(task, f"learners.*.{measure}")
    node = block
    for part in path.split(".")[2:]:
        if not isinstance(node, dict) or part not in node:
            return False, None
        node = node[part]
    return True, node


def _counts(block: dict, measure: str):
    matrix = block.get("confusion_matrix")  # multi-class: accuracy = trace / total
    if measure == "accuracy" and isinstance(matrix, list) and matrix:
        cells = np.asarray(matrix, dtype=float)
        return float(np.trace(cells)), float(cells.sum())
    c = block.get("confusion")
    if not isinstance(c, dict) or any(c.get(k) is None for k in ("tp", "fp", "tn", "fn")):
        return None
    succ, trials = PROPORTIONS[measure]
    return float(sum(c[k] for k in succ)), float(sum(c[k] for k in trials))


def _auc_row(learner, a, b, level) -> dict:
    pa, va = a.get("auc"), a.get("auc_variance")
    pb, vb = b.get("auc"), b.get("auc_variance")
    method = "delong_unpaired"
    if pa is None or pb is None:
        which = "previous" if pa is None else "current"
        return _row(learner, "auc", pa, pb, method=method,
                    note=f"the AUC is undefined in the {which} run (hard decisions, or one class only)")
    for which, blk in (("previous", a), ("current", b)):
        if "auc_variance" not in blk:
            return _row(learner, "auc", pa, pb, method=method,
                        note=f"the {which} run's results.json has no auc_variance (an older evalreport)")
    t = delong_unpaired_summary(pb, vb, pa, va, n_a=_size(b), n_b=_size(a), level=level)
    note = t.note
    if vb is None or va is None:
        which = "current" if vb is None else "previous"
        note = f"DeLong's variance of the AUC is undefined in the {which} run (fewer than 2 of a class)"
    return _row(learner, "auc", pa, pb, p_value=t.p_value, interval=t.ci, method=method, note=note)


def _size(block: dict):
    c = block.get("class_counts") or {}
    try:
        return float(c["positive"]) + float(c["negative"])
    except (KeyError, TypeError):
        return None


def _proportion_row(learner, measure, a, b, level) -> dict:
    ca, cb = _counts(a, measure), _counts(b, measure)
    if ca is None or cb is None:
        which = "previous" if ca is None else "current"
        return _row(learner, measure, a.get(measure), b.get(measure),
                    note=f"the {which} run has no confusion counts")
    t = two_proportion_test(*ca, *cb, level=level)
    note = t["note"]
    ta, tb = a.get("threshold"), b.get("threshold")
    if ta != tb:
        extra = f"the thresholds differ ({_fmt(ta)} then {_fmt(tb)})"
        note = extra if note is None else f"{note}; {extra}"
    return _row(learner, measure, t["previous"], t["current"], p_value=t["p_value"],
                interval=t["interval"], method="two_proportion_z", note=note)


def _fmt(x) -> str:
    return "none" if x is None else general(x) if isinstance(x, (int, float)) else str(x)


def _mover(pa, ia, pb, ib) -> tuple[float, float]:
    """The interval of pb - pa from each one's interval (Zou & Donner 2008)."""
    d = pb - pa
    return (d - math.hypot(pb - ib[0], ia[1] - pa), d + math.hypot(ib[1] - pb, pa - ia[0]))


def _interval_row(learner, measure, a, b, level, method: str, task: str) -> dict:
    pa, pb = _value(a, measure, task)[1], _value(b, measure, task)[1]
    if pa is None or pb is None:
        which = "previous" if pa is None else "current"
        return _row(learner, measure, pa, pb, note=f"{measure} is undefined in the {which} run")
    if method != "intervals":
        return _row(learner, measure, pa, pb, note=f"results.json holds no interval of {measure}")
    ia, ib = (blk.get("bootstrap") or {} for blk in (a, b))
    for which, bs in (("previous", ia), ("current", ib)):
        if not isinstance(bs.get(measure), (list, tuple)) or None in bs[measure]:
            return _row(learner, measure, pa, pb, note=f"the {which} run has no bootstrap interval of {measure}")
        if bs.get("level") is None or abs(float(bs["level"]) - level) > 1e-12:
            return _row(learner, measure, pa, pb,
                        note=f"the {which} run's bootstrap level is {bs.get('level')}, not {general(level)}")
    return _row(learner, measure, pa, pb, interval=_mover(pa, ia[measure], pb, ib[measure]), method="intervals")


def _measure_row(learner, measure, a, b, level, task: str) -> dict:
    method = _method(measure, task)
    if method == "delong_unpaired":
        return _auc_row(learner, a, b, level)
    if method == "two_proportion_z":
        return _proportion_row(learner, measure, a, b, level)
    return _interval_row(learner, measure, a, b, level, method, task)


def _drift_row(learner, a, b) -> dict:
    sa, sb = a.get("score_summary"), b.get("score_summary")
    row = {"learner": learner, "psi": None, "psi_bins": None, "ks": None, "method": None,
           "label": "undefined", "by_class": None, "note": None}
    if sa is None or sb is None:
        for which, blk, s in (("previous", a, sa), ("current", b, sb)):
            if s is None:
                row["note"] = (f"the {which} run's results.json has no score_summary" if "score_summary" not in blk
                               else f"no score distribution in the {which} run (hard decisions)")
                return row
    pooled = psi(sa, sb)
    fa, fb = as_distribution(sa), as_distribution(sb)
    exact = fa.exact and fb.exact
    row.update(psi=pooled["psi"], psi_bins=pooled["bins"], ks=ks_distance(fa, fb), label=drift_label(pooled["psi"]),
               note=pooled["note"])
    row["method"] = drift_method(exact, "")
    by_class = {}
    for cls in ("positive", "negative"):
        ca, cb = sa.get(cls), sb.get(cls)
        if ca is None or cb is None:
            by_class[cls] = {"psi": None, "psi_bins": None, "ks": None, "note": f"no {cls} scores in a run"}
            continue
        p = psi(ca, cb)
        by_class[cls] = {"psi": p["psi"], "psi_bins": p["bins"], "ks": ks_distance(ca, cb), "note": p["note"]}
    row["by_class"] = by_class
    return row


def _class_counts(block: dict):
    c = block.get("class_counts")
    if isinstance(c, dict) and c.get("positive") is not None and c.get("negative") is not None:
        return float(c["positive"]), float(c["negative"])
    if block.get("positives") is not None and block.get("negatives") is not None:
        return float(block["positives"]), float(block["negatives"])
    return None


def _balance(prev_l: dict, cur_l: dict, common: list, level: float) -> dict:
    out = {"previous": None, "current": None, "change": None, "p_value": None, "interval": None,
           "method": "two_proportion_z", "learner": None, "note": None}
    for name in common:
        ca, cb = _class_counts(prev_l[name]), _class_counts(cur_l[name])
        if ca is None or cb is None:
            continue
        t = two_proportion_test(ca[0], sum(ca), cb[0], sum(cb), level=level)
        out.update(previous=t["previous"], current=t["current"], change=t["change"], p_value=t["p_value"],
                   interval=t["interval"], learner=name, note=t["note"])
        # learners on other data sets (several data sets in one spec) may hold other counts
        if any(len({_class_counts(blk) for blk in run.values()} - {None}) > 1 for run in (prev_l, cur_l)):
            extra = f"the learners' data sets differ: the balance is that of {name}'s"
            out["note"] = extra if out["note"] is None else f"{out['note']}; {extra}"
        return out
    out["note"] = "no learner with class counts in both runs"
    return out


def _balances(prev_l: dict, cur_l: dict, common: list, level: float, multiclass: bool):
    """The class balance of each data set: one dict with one data set (as before
    several data sets were compared), else a list of them, each with ``dataset``.
    Each data set's balance is read off its first learner with class counts in
    both runs; learners of one data set share its counts."""
    groups: dict = {}
    for name in common:
        dataset = cur_l[name].get("dataset", prev_l[name].get("dataset"))
        groups.setdefault(dataset, []).append(name)

    def one(names):
        a, b = {n: prev_l[n] for n in names}, {n: cur_l[n] for n in names}
        return multiclass_balance(a, b, names) if multiclass else _balance(a, b, names, level)

    if len(groups) <= 1:
        return one(common)
    return [{"dataset": None if d is None else str(d), **one(names)} for d, names in groups.items()]


def _learners(results: dict, which: str) -> dict:
    if not isinstance(results, dict):
        raise DataError(f"the {which} results.json must be an object, got {type(results).__name__}")
    learners = results.get("learners")
    if not isinstance(learners, dict):
        raise DataError(f"the {which} results.json has no 'learners' object")
    return learners


def changes(previous: dict, current: dict, *, level: float = 0.95) -> dict:
    """Each learner's headline measures now and at the previous run, the
    changes tested, and the drift of the scores and of the class balance.

    Parameters
    ----------
    previous, current : dict
        Two runs' results.json (binary task), parsed. Learners are matched by
        their key in ``learners``; a learner in one run only is listed with
        None for the other run and a note, not an error.
    level : float, default 0.95
        Level of the intervals of the changes.

    Returns
    -------
    dict
        JSON-ready (floats, str or None):

        ``previous``
            {"date", "title"} of the previous run.
        ``changes``
            One row per learner and measure (:func:`measures` present in
            either run): {"learner", "measure", "previous", "current",
            "change" (current - previous), "p_value", "p_holm" (Holm's
            adjusted p-value over this run's rows with a p-value; None
            without one), "interval" (of the change, [lo, hi]), "method",
            "note"}. ``method`` (:data:`METHOD_NAMES` names each in words) is
            "delong_unpaired" (AUC: D = (A2 - A1) / sqrt(V1 + V2), pROC's t
            with Welch's df), "two_proportion_z" (pooled z test, the score
            interval that inverts it), "intervals" (the bootstrap intervals of
            the two runs combined, no p-value) or "no test".
        ``drift``
            One row per learner: {"learner", "psi", "psi_bins", "ks",
            "method", "label" (:func:`drift_label`), "by_class" ({"positive":
            {"psi", "psi_bins", "ks", "note"}, "negative": ...}), "note"}:
            both classes pooled; the bins as :func:`psi` states them. A
            multi-class task: one row per learner and class, {"learner",
            "class", "psi", "psi_bins", "ks", "method", "label", "note"}, of the
            class's score column over all instances; no pooled row (see above).
        ``balance``
            {"previous", "current" (shares of positives), "change",
            "p_value", "interval", "method", "learner" (whose counts), "note"}.
            With learners on several data sets (``dataset`` in their
            blocks), a list of these, one per data set, each led by
            ``"dataset"``.
            A multi-class task: "previous", "current" and "change" are
            {class: share} (:func:`chi2_homogeneity`), with "classes",
            "statistic", "df", the test's "p_value", "interval" None and
            "method" "chi2_homogeneity".

    Raises
    ------
    DataError
        A run is not a results.json object (no ``learners``).

    Examples
    --------
    >>> def run(date, auc, var, tp, fn, tn, fp):
    ...     summary = {"positive": {"kind": "values", "values": [0.2, 0.8], "weights": [fn, tp]},
    ...                "negative": {"kind": "values", "values": [0.2, 0.8], "weights": [tn, fp]}}
    ...     return {"date": date, "title": "audit", "learners": {"lr": {
    ...         "threshold": 0.5, "confusion": {"tp": tp, "fp": fp, "tn": tn, "fn": fn},
    ...         "recall": tp / (tp + fn), "auc": auc, "auc_variance": var,
    ...         "class_counts": {"positive": tp + fn, "negative": tn + fp},
    ...         "score_summary": summary}}}
    >>> c = changes(run("2026-01-05", 0.90, 0.0004, 80, 20, 90, 10),
    ...             run("2026-01-12", 0.84, 0.0005, 70, 30, 88, 12))
    >>> c["previous"]
    {'date': '2026-01-05', 'title': 'audit'}
    >>> [(r["measure"], round(r["change"], 2), round(r["p_value"], 4), r["method"]) for r in c["changes"]]
    [('auc', -0.06, 0.0462, 'delong_unpaired'), ('recall', -0.1, 0.1025, 'two_proportion_z')]
    >>> [round(r["p_holm"], 4) for r in c["changes"]]  # Holm: 2 x 0.0462, then max(0.0924, 0.1025)
    [0.0924, 0.1025]
    >>> c["balance"]["change"], c["balance"]["p_value"]
    (0.0, 1.0)
    >>> d = c["drift"][0]
    >>> round(d["psi"], 4), round(d["ks"], 2), d["label"], len(d["psi_bins"])
    (0.0065, 0.04, 'no significant shift', 3)
    >>> d["note"]
    "the previous run's scores are tied at some deciles: 3 bins instead of 10"
    """
    level = check_level(level)
    prev_l, cur_l = _learners(previous, "previous"), _learners(current, "current")
    multiclass = "multiclass" in (previous.get("task"), current.get("task"))
    task = "multiclass" if multiclass else "binary"
    compared = measures(task)
    names = [*cur_l, *(k for k in prev_l if k not in cur_l)]
    common = [k for k in cur_l if k in prev_l]
    rows, drift = [], []
    for name in names:
        a, b = prev_l.get(name), cur_l.get(name)
        if a is None or b is None:
            _one_run_rows(name, a, b, compared, task, multiclass, rows, drift)
            continue
        for m in compared:
            pa, pb = _value(a, m, task)[0], _value(b, m, task)[0]
            if pa and pb:
                rows.append(_measure_row(name, m, a, b, level, task))
            elif pa or pb:
                which = "current" if pa else "previous"
                rows.append(_row(name, m, _value(a, m, task)[1], _value(b, m, task)[1],
                                 note=f"{m} is not in the {which} run's results.json"))
        if multiclass:
            drift += class_drift_rows(name, a, b)
        else:
            drift.append(_drift_row(name, a, b))
    # the changes tested in one run are one family: Holm's adjustment keeps the chance of
    # calling any of them a change by noise at 1 - level (the rows without a p-value are not in it)
    for row, adjusted in zip(rows, holm([r["p_value"] for r in rows])):
        row["p_holm"] = adjusted
    return {
        "previous": {"date": previous.get("date"), "title": previous.get("title")},
        "changes": rows,
        "drift": drift,
        "balance": _balances(prev_l, cur_l, common, level, multiclass),
    }


def _one_run_rows(name: str, a: dict | None, b: dict | None, compared, task: str, multiclass: bool,
                  rows: list, drift: list) -> None:
    """The rows of a learner in one run only (``a`` previous or ``b`` current is
    None): its values in that run, no change, no drift, and a note saying so."""
    only = "current" if a is None else "previous"
    note = f"learner '{name}' is in the {only} run only"
    blk = b if a is None else a
    for m in compared:
        present, v = _value(blk, m, task)
        if present:
            rows.append({**_row(name, m, None if a is None else v, v if a is None else None, note=note),
                         "only_in": only})
    # only_in: which run has the learner (gates on change pass for a new learner)
    if multiclass:
        drift += [{"learner": name, "class": cls, "psi": None, "psi_bins": None, "ks": None,
                   "method": None, "label": "undefined", "note": note, "only_in": only}
                  for cls in (blk.get("class_counts") or {})]
    else:
        drift.append({"learner": name, "psi": None, "psi_bins": None, "ks": None, "method": None,
                      "label": "undefined", "by_class": None, "note": note, "only_in": only})
