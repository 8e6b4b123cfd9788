"""A multi-class task's drift and class balance between two runs, from
results.json's ``score_summary`` ({class: the class's score column over all
instances}) and ``class_counts`` ({class: weight}); used by
:func:`evalreport.history.changes.changes`.

The drift is per learner and class, with no pooled row: the columns are
different quantities (each class's score), and where they are probabilities,
which sum to 1 in every row, one class's rise is another's fall, which pooling
hides. The balance: each class's share in either run and Pearson's chi-squared
test of homogeneity of the two runs' class counts.
"""

from __future__ import annotations

import numpy as np

from ..compare.stats.core import scipy_special
from .drift import as_distribution, drift_label, drift_method, ks_distance, psi

__all__ = ["chi2_homogeneity", "class_drift_rows", "multiclass_balance"]


def class_drift_rows(learner, a, b) -> list[dict]:
    """A multi-class learner's drift: one row per class, of the class's score column
    over all instances (results.json's ``score_summary`` {class: S})."""
    sa, sb = a.get("score_summary"), b.get("score_summary")
    classes = list(dict.fromkeys([*(sb or b.get("class_counts") or {}), *(sa or a.get("class_counts") or {})]))
    rows = []
    for cls in classes:
        row = {"learner": learner, "class": cls, "psi": None, "psi_bins": None, "ks": None, "method": None,
               "label": "undefined", "note": None}
        rows.append(row)
        for which, blk, s in (("previous", a, sa), ("current", b, sb)):
            if s is None:
                row["note"] = (f"the {which} run's results.json has no score_summary" if "score_summary" not in blk
                               else f"no score distribution in the {which} run (hard decisions)")
                break
            if s.get(cls) is None:
                row["note"] = (f"class {cls} is not in the {which} run" if cls not in s
                               else f"no scores for class {cls} in the {which} run")
                break
        if row["note"] is not None:
            continue
        ca, cb = sa[cls], sb[cls]
        p = psi(ca, cb)
        fa, fb = as_distribution(ca), as_distribution(cb)
        row.update(psi=p["psi"], psi_bins=p["bins"], ks=ks_distance(fa, fb), label=drift_label(p["psi"]),
                   note=p["note"], method=drift_method(fa.exact and fb.exact, f"of the {cls} score column "))
    return rows


def chi2_homogeneity(previous: dict, current: dict) -> dict:
    """Pearson's chi-squared test that two runs draw their classes from the same
    shares: the 2 x k table of the runs' class counts, X^2 = sum (O - E)^2 / E with
    E from the margins, k - 1 degrees of freedom, no continuity correction (as
    ``scipy.stats.chi2_contingency(table, correction=False)``; for two classes
    its p-value is the two-proportion z test's). Weighted counts are used as
    counts. A class absent from both runs is left out (it has no expected count).

    Parameters
    ----------
    previous, current : dict
        {class: count} of each run.

    Returns
    -------
    dict
        ``classes`` (the classes compared, the current run's order first),
        ``previous``, ``current`` ({class: share}), ``change`` ({class: current -
        previous share}), ``statistic``, ``df``, ``p_value`` and ``note``: None
        where undefined (a run without instances; one class only), ``note``
        saying why.

    Examples
    --------
    >>> t = chi2_homogeneity({"a": 50, "b": 30, "c": 20}, {"a": 30, "b": 40, "c": 30})
    >>> round(t["statistic"], 3), t["df"], round(t["p_value"], 4)
    (8.429, 2, 0.0148)
    >>> {c: round(v, 2) for c, v in t["change"].items()}
    {'a': -0.2, 'b': 0.1, 'c': 0.1}
    """
    classes = list(dict.fromkeys([*current, *previous]))
    a = np.asarray([float(previous.get(c) or 0.0) for c in classes])
    b = np.asarray([float(current.get(c) or 0.0) for c in classes])
    out = {"classes": classes, "previous": None, "current": None, "change": None, "statistic": None,
           "df": None, "p_value": None, "note": None}
    na, nb = float(a.sum()), float(b.sum())
    if na > 0:
        out["previous"] = {c: float(x / na) for c, x in zip(classes, a)}
    if nb > 0:
        out["current"] = {c: float(x / nb) for c, x in zip(classes, b)}
    if na <= 0 or nb <= 0:
        out["note"] = f"the {'previous' if na <= 0 else 'current'} run has no instances"
        return out
    out["change"] = {c: out["current"][c] - out["previous"][c] for c in classes}
    seen = (a + b) > 0
    if int(seen.sum()) < 2:
        out["note"] = "one class only in both runs: no test"
        return out
    a, b = a[seen], b[seen]
    total = na + nb
    col = a + b
    expected = np.vstack([col * na / total, col * nb / total])
    observed = np.vstack([a, b])
    stat = float(np.sum((observed - expected) ** 2 / expected))
    df = int(seen.sum()) - 1
    out.update(statistic=stat, df=df, p_value=float(scipy_special().chdtrc(df, stat)))
    missing = [c for c, s in zip(classes, seen) if not s]
    if missing:
        out["note"] = f"not in either run, left out of the test: {', '.join(map(str, missing))}"
    return out


def multiclass_balance(prev_l: dict, cur_l: dict, common: list) -> dict:
    out = {"classes": None, "previous": None, "current": None, "change": None, "p_value": None,
           "interval": None, "statistic": None, "df": None, "method": "chi2_homogeneity", "learner": None,
           "note": None}
    for name in common:
        ca, cb = prev_l[name].get("class_counts"), cur_l[name].get("class_counts")
        if not isinstance(ca, dict) or not isinstance(cb, dict):
            continue
        t = chi2_homogeneity(ca, cb)
        out.update({k: t[k] for k in ("classes", "previous", "current", "change", "statistic", "df",
                                      "p_value", "note")}, learner=name)
        counts = [{k: v for k, v in (blk.get("class_counts") or {}).items()} for run in (prev_l, cur_l)
                  for blk in run.values()]
        if len({tuple(sorted(c.items())) for c in counts if c}) > 2:
            extra = f"the learners' data sets differ: the balance is that of {name}'s"
            out["note"] = extra if out["note"] is None else f"{out['note']}; {extra}"
        return out
    out["note"] = "no learner with class counts in both runs"
    return out
