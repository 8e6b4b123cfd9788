"""results.json's ``history`` -> the values the "Since the last run" section and
page one print: the changes table, the drift table with the PSI conventions
stated, the class balance, the trend figure, and the verdict's sentences. Every
number is formatted here by the report's policy (:mod:`.format`).
"""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from .. import registry
from .format import measure_text, p_value_text, plain, rate, signed

__all__ = ["history_context", "history_sentences", "with_trend_caption", "ChangeRow", "DriftRow", "ClassShare",
           "BalanceChange", "ChainLine"]


@dataclass(frozen=True)
class ChangeRow:
    """A headline measure's change since the previous run."""

    learner: str
    measure: str  # its label
    previous: str
    current: str
    change: str  # signed
    interval: str  # the change's ("" without one)
    p: str  # "" when untested
    p_holm: str  # Holm-adjusted over the run's tested changes
    method: str  # the test, in words
    note: str
    significant: bool  # more than noise (on its Holm p)
    worse: bool
    row_class: str  # a significant change: "fail" (worse) or "pass"; "" otherwise


@dataclass(frozen=True)
class DriftRow:
    """The drift of a learner's scores (of one class's, multi-class) since the previous run."""

    learner: str
    class_name: str | None  # the class whose score column drifted (multi-class); None: binary
    psi: str
    ks: str
    label: str  # the PSI named by the industry's conventions
    bins: object  # the PSI's bins (results.json's psi_bins)
    method: str
    note: str


@dataclass(frozen=True)
class ClassShare:
    """A class's share, then and now (a multi-class data set's balance)."""

    name: str
    previous: str
    current: str
    change: str


@dataclass(frozen=True)
class BalanceChange:
    """A data set's class balance, then and now: a binary task's positive share
    (``previous`` ... ``interval``) or each class's (``classes``)."""

    dataset: str | None
    p: str  # the test's p-value ("" untested)
    note: str
    on: str  # " of <data set>" ("" with one)
    classes: list[ClassShare] | None = None  # multi-class
    previous: str = ""
    current: str = ""
    change: str = ""
    interval: str = ""


@dataclass(frozen=True)
class ChainLine:
    """The chain of audits: the previous run's date and the sha256 of its results.json."""

    date: str | None
    sha256: str


def _conventions() -> tuple[tuple[float, float], object]:
    """The PSI conventions (no shift below the first, major above the second) and
    the function naming a PSI by them: evalreport.history.changes's."""
    from ..history.changes import CONVENTIONS, drift_label

    return CONVENTIONS["psi"], drift_label


def _label(measure: str) -> str:
    m = registry.MEASURES.get(measure)
    return m.label if m is not None else measure.replace("_", " ")


def _signed(measure: str, change, table: bool = True) -> str:
    """A change with its sign: a table's digits ("+0.0120", "-0.0310"), or a sentence's."""
    if change is None:
        return measure_text(measure, None)
    return signed(measure_text(measure, abs(float(change)), table=table), change)


def _interval(measure: str, interval, table: bool = True) -> str:
    if interval is None or None in tuple(interval):
        return ""
    lo, hi = (float(x) for x in interval)
    return f"[{_signed(measure, lo, table)}, {_signed(measure, hi, table)}]"


def _worse(measure: str, change: float) -> bool:
    m = registry.MEASURES.get(measure)
    return (change > 0) if (m is not None and m.direction == "lower") else (change < 0)


def _significant(entry: dict, alpha: float) -> bool:
    """A change is called more than noise on its Holm-adjusted p-value (over the
    changes tested in the run), never on its own one."""
    p = entry.get("p_holm")
    return p is not None and entry.get("change") is not None and p < alpha


def _method(code) -> str:
    """A row's ``method`` in words ("DeLong's test for two independent ROC curves")."""
    from ..history.names import METHOD_NAMES

    return METHOD_NAMES.get(code, code or "")


def _balances(history: dict) -> list[BalanceChange]:
    """Each data set's class balance, as the section prints it."""
    from ..history.names import balance_rows

    out = []
    for b in balance_rows(history.get("balance")):
        p = "" if b.get("p_value") is None else p_value_text(b["p_value"])
        said = {"dataset": b.get("dataset"), "p": p, "note": b.get("note") or "",
                "on": f" of {b['dataset']}" if b.get("dataset") else ""}  # "Class balance of <data set>"
        if isinstance(b.get("classes"), list):  # a multi-class task: each class's share
            shares = [(b.get(k) or {}) for k in ("previous", "current", "change")]
            out.append(BalanceChange(**said, classes=[
                ClassShare(c, rate(shares[0].get(c)), rate(shares[1].get(c)),
                           _signed("accuracy", shares[2].get(c), False)) for c in b["classes"]]))
        else:
            out.append(BalanceChange(**said, previous=rate(b.get("previous")), current=rate(b.get("current")),
                                     change=_signed("accuracy", b.get("change"), False),  # a sentence's digits
                                     interval=_interval("accuracy", b.get("interval"), False)))
    return out


def _bounds(spec, history: dict, runs: int) -> dict:
    """measure -> [(value, label[, (x0, x1)])]: the gates' bounds drawn on the trend:
    min and max across the runs; a max_drop gate from the previous run to this one,
    at the worst value it lets this run reach (the previous value less the drop)."""
    from ..history.gates import change_measure  # a multi-class f1 gate: the macro_f1 row and panel

    out: dict = {}
    previous = {(c.get("learner"), c.get("measure")): c.get("previous") for c in history.get("changes", [])}
    for gate in spec.gates:
        if gate.max_drop is None or runs < 2:
            continue
        for (key, measure), value in previous.items():
            if measure != change_measure(gate.metric, spec.task) or value is None or gate.learner not in (None, key.split("@")[0]):
                continue
            m = registry.MEASURES.get(measure)
            bound = value + gate.max_drop if (m is not None and m.direction == "lower") else value - gate.max_drop
            out.setdefault(measure, []).append((bound, f"max_drop ({key})", (runs - 2, runs - 1)))
    for gate in spec.gates:
        if gate.slice is not None or gate.drift is not None or gate.metric is None:
            continue
        who = gate.learner or "every learner"
        for key in ("min", "max"):
            if getattr(gate, key) is not None:
                out.setdefault(change_measure(gate.metric, spec.task), []).append(
                    (getattr(gate, key), f"{key} ({who})"))
    return out


def history_sentences(result) -> list[str]:
    """Page one: each significant change, and each failed drift gate, in a sentence."""
    history = result.history
    if not history or not history.get("previous"):
        return []
    alpha = round(1 - result.spec.confidence.level, 10)
    since = history["previous"].get("date")
    out = []
    for c in history.get("changes", []):
        if not _significant(c, alpha):
            continue
        way = "fell" if c["change"] < 0 else "rose"
        judged = "worse" if _worse(c["measure"], c["change"]) else "better"
        out.append(f"Since the last run ({since}), the {_label(c['measure'])} of {c['learner']} {way} from "
                   f"{measure_text(c['measure'], c['previous'])} to {measure_text(c['measure'], c['current'])} "
                   f"({judged}; Holm-adjusted p {p_text_short(c['p_holm'])}): more than noise.")
    for g in result.gates:
        if "drift_since" in g and not g["passed"] and g["value"] is not None:
            of = f" for class {g['class']}" if g.get("class") is not None else ""
            out.append(f"The scores of {g['learner']}{of} drifted since the last run ({since}): "
                       f"{g['metric'].upper()} {rate(g['value'])}, above the gate's {rate(g['max'])}.")
    return out


def p_text_short(p) -> str:
    text = p_value_text(p)
    return text if text.startswith("<") else f"= {text}"


def history_context(result, styles) -> dict | None:
    """The section's values, or None without ``history:`` in the spec."""
    history = result.history
    if history is None:
        return None
    alpha = round(1 - result.spec.confidence.level, 10)
    previous = history.get("previous")
    changes = []
    for c in history.get("changes", []):
        m = c.get("measure")
        change = c.get("change")
        changes.append(ChangeRow(
            learner=c.get("learner"), measure=_label(m) if m else "",
            previous=measure_text(m, c.get("previous"), table=True),
            current=measure_text(m, c.get("current"), table=True),
            change=_signed(m, change), interval=_interval(m, c.get("interval")),
            p="" if c.get("p_value") is None else p_value_text(c["p_value"]),
            p_holm="" if c.get("p_holm") is None else p_value_text(c["p_holm"]),
            method=_method(c.get("method")), note=c.get("note") or "",
            significant=_significant(c, alpha),
            worse=change is not None and _worse(m, change),
            row_class=("fail" if change is not None and _worse(m, change) else "pass")
            if _significant(c, alpha) else "",
        ))
    (low, high), label = _conventions() if previous else ((0.1, 0.25), None)
    drift = []
    for d in history.get("drift", []):
        psi = d.get("psi")
        drift.append(DriftRow(
            learner=d.get("learner"), class_name=d.get("class"), psi=rate(psi, table=True),
            ks=rate(d.get("ks"), table=True), label=label(psi) if (label is not None and psi is not None) else "",
            bins=d.get("psi_bins"), method=d.get("method") or "", note=d.get("note") or "",
        ))
    runs = history.get("runs") or []
    figure = ""
    if runs:
        from ..figures import learner_styles
        from ..history.trend import HEADLINE, MULTICLASS_HEADLINE
        from ..figures.history import trend_figure

        keys = list(dict.fromkeys([*result.learners, *(k for r in runs for k in (r.get("values") or {}))]))
        from .summary import shown_learners, shown_styles

        # the current learners as every other figure draws them (past a handful, the rest grey)
        styles = {**learner_styles(keys), **(styles or shown_styles(result, shown_learners(result)))}
        measures = [m for m in (*HEADLINE, *MULTICLASS_HEADLINE) if any(m in v for r in runs for v in (r.get("values") or {}).values())]
        if measures:
            figure = Markup(trend_figure(runs, measures, keys, styles, _bounds(result.spec, history, len(runs))))
    return {
        "previous": previous, "changes": changes, "drift": drift, "balances": _balances(history),
        "tested": sum(1 for c in history.get("changes", []) if c.get("p_holm") is not None),
        "methods": list(dict.fromkeys(c.method for c in changes if c.method)),
        "psi_low": rate(low), "psi_high": rate(high), "level": plain(result.spec.confidence.level),
        "alpha": plain(alpha), "runs": len(runs), "first": runs[0]["date"] if runs else None,
        "figure": figure, "sentences": history_sentences(result),
        "by_class": any(d.class_name is not None for d in drift),
        "caption": "",  # the trend figure's: the task's builder gives it (with_trend_caption)
        "chain": _chain_line(previous, history.get("previous_sha256")),
    }


def with_trend_caption(history: dict | None, what: str, intervals: str) -> None:
    """Put the trend figure's caption in the section's values (``history["caption"]``;
    nothing without history): ``what`` is drawn over the kept runs, with
    ``intervals`` (the task's words: report/binary.py's and report/multiclass.py's
    TREND_CAPTION)."""
    if history:
        history["caption"] = f"{what} over the {history['runs']} kept runs (from {history['first']}), {intervals}"


def _chain_line(previous, digest) -> ChainLine | None:
    """The chain of audits: the previous run's date and the sha256 of its
    results.json as archived (``evalreport verify --history DIR`` walks the
    chain); None without a previous run."""
    if not previous or not digest:
        return None
    return ChainLine(previous.get("date"), digest)
