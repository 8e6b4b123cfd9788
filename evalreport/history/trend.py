"""The trend of the kept runs: each run's headline values, read off its results.json.

Pure: results.json dicts in, results.json's ``history.runs`` out. An interval is
the one the run computed where it has one (DeLong's of the AUC, the bootstrap's of
a cost), else, for a proportion at the threshold, Wilson's score interval from the
run's confusion counts; none where neither is at hand.
"""

from __future__ import annotations

from ..metrics.proportion import PROPORTIONS as CELLS, wilson_interval

__all__ = ["HEADLINE", "MULTICLASS_HEADLINE", "headline_values", "trend_runs"]

#: the measures drawn over the runs, in the order of the figure's panels
HEADLINE = ("auc", "recall", "precision", "expected_total_cost")
#: a multi-class task's: those whose change evalreport.history.changes tests, with the
#: bootstrap's intervals where computed (Wilson's for the accuracy otherwise)
MULTICLASS_HEADLINE = ("accuracy", "macro_f1")

#: a proportion at the threshold: (successes, trials) from the confusion counts (each
#: of metrics.proportion's, the cells named)
_PROPORTIONS = {name: tuple(tuple(("tp", "fp", "tn", "fn")[i] for i in cells) for cells in pair)
                for name, pair in CELLS.items()}


def _interval(measure: str, block: dict, level: float):
    if measure == "auc":
        ci = block.get("auc_ci")
    else:
        ci = (block.get("bootstrap") or {}).get(measure)
    if ci is not None and None not in tuple(ci):
        return [float(x) for x in ci]
    matrix = block.get("confusion_matrix")  # multi-class: the accuracy is trace / total
    if measure == "accuracy" and isinstance(matrix, list) and matrix:
        if any(v is None for row in matrix for v in row):
            return None
        total = sum(float(v) for row in matrix for v in row)
        ci = wilson_interval(sum(float(matrix[i][i]) for i in range(len(matrix))), total, level)
        return None if ci is None else [float(x) for x in ci]
    confusion = block.get("confusion")
    if measure in _PROPORTIONS and confusion and None not in confusion.values():
        hits, trials = _PROPORTIONS[measure]
        ci = wilson_interval(sum(confusion[k] for k in hits), sum(confusion[k] for k in trials), level)
        return None if ci is None else [float(x) for x in ci]
    return None


def headline_values(run: dict, level: float = 0.95) -> dict:
    """{learner: {measure: value, "<measure>_ci": [lo, hi] or None}} of one run's
    results.json (the measures of :data:`HEADLINE` it holds; a multi-class task's,
    :data:`MULTICLASS_HEADLINE`)."""
    out = {}
    multiclass = run.get("task") == "multiclass"
    for key, block in (run.get("learners") or {}).items():
        values = {}
        for m in MULTICLASS_HEADLINE if multiclass else HEADLINE:
            if m == "macro_f1":  # results.json holds it as macro.f1
                macro = block.get("macro")
                if not isinstance(macro, dict) or "f1" not in macro:
                    continue
                value = macro["f1"]
            elif m not in block:
                continue
            else:
                value = block[m]
            values[m] = value
            values[f"{m}_ci"] = None if value is None else _interval(m, block, level)
        out[key] = values
    return out


def trend_runs(archived: list[tuple[str, dict]], date: str, current: dict, *, keep: int,
               level: float = 0.95) -> list[dict]:
    """``history.runs``: the archived runs before ``date`` and the current run (which
    replaces an archived one of the same date), the last ``keep`` of them, oldest first."""
    runs = [(d, r) for d, r in archived if d < date] + [(date, current)]
    return [{"date": d, "values": headline_values(r, level)} for d, r in runs[-keep:]]
