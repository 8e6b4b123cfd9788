"""``evalreport diff OLD NEW``: two results.json files compared in the terminal,
and the gates on change named on the command line.

Gates: ``[learner/]measure:max_drop=X`` (the change may fall by at most X),
``[learner/]measure:significant_drop`` (fails on a drop whose Holm-adjusted
p-value, over the changes tested, is below 1 - level, or, with no p-value,
whose interval of the difference lies below 0), and
``[learner/]psi:max=X`` (the drift of the scores). Without a learner, every
learner. Bad files and bad gates raise :class:`~evalreport.errors.SpecError`
(exit status 2): the command line turns it into a message.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import SpecError
from .entry import BadEntry, parse_run
from .names import METHOD_NAMES, balance_rows
from ..words import general

__all__ = ["ChangeGate", "read_results", "parse_gate", "check_gates", "table_text"]

_GATE = re.compile(r"(?:(?P<learner>[^/:=\s]+)/)?(?P<measure>[A-Za-z_][A-Za-z0-9_]*):(?P<rule>[a-z_]+)"
                   r"(?:=(?P<value>[^=\s]+))?")
_RULES = {"max_drop": True, "significant_drop": False, "max": True}
GATE_SYNTAX = ("[LEARNER/]MEASURE:max_drop=X, [LEARNER/]MEASURE:significant_drop or [LEARNER/]psi:max=X "
               "(e.g. auc:max_drop=0.02)")


@dataclass(frozen=True)
class ChangeGate:
    text: str
    measure: str
    rule: str
    value: float | None = None
    learner: str | None = None


def read_results(path) -> dict:
    """A results.json file as a dict, checked as the archive checks its entries
    (:mod:`.entry`), or a SpecError naming it and the key that is wrong."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise SpecError([f"{path}: no such file"]) from None
    except IsADirectoryError:
        raise SpecError([f"{path}: a folder, not a results.json file"]) from None
    except OSError as e:
        raise SpecError([f"{path}: cannot be read ({e.strerror or e})"]) from None
    try:
        return parse_run(raw)
    except BadEntry as e:
        raise SpecError([f"{path}: {e.reason}"]) from None


def parse_gate(text: str) -> ChangeGate:
    m = _GATE.fullmatch(text.strip())
    if m is None or m["rule"] not in _RULES:
        raise SpecError([f"--gate {text!r}: expected {GATE_SYNTAX}"])
    measure, rule, value = m["measure"], m["rule"], m["value"]
    if (measure == "psi") != (rule == "max"):
        raise SpecError([f"--gate {text!r}: " + ("psi takes max=X" if measure == "psi" else
                                                 f"max=X is for psi; {measure} takes max_drop=X or significant_drop")])
    if _RULES[rule]:
        try:
            number = float(value) if value is not None else None
        except ValueError:
            number = None
        if number is None or number != number or number < 0 or number == float("inf"):
            raise SpecError([f"--gate {text!r}: {rule} needs a number >= 0 (e.g. {rule}=0.02)"])
        return ChangeGate(text, measure, rule, number, m["learner"])
    if value is not None:
        raise SpecError([f"--gate {text!r}: significant_drop takes no value"])
    return ChangeGate(text, measure, rule, None, m["learner"])


def _significant_drop(row: dict, alpha: float) -> bool:
    change = row.get("change")
    if change is None or change >= 0:
        return False
    p = row.get("p_holm", row.get("p_value"))  # Holm's over the run's changes (older files: p_value)
    if p is not None:
        return p < alpha
    interval = row.get("interval")
    return interval is not None and interval[1] is not None and interval[1] < 0


def check_gates(gates: list[ChangeGate], diff: dict, *, level: float = 0.95) -> list[dict]:
    """One record per (gate, learner): ``gate``, ``learner``, ``value``, ``passed``
    (a gate on an undefined value fails, as the spec's gates do; a gate matching
    nothing is a SpecError: a misspelt measure or learner must not pass silently)."""
    out = []
    for g in gates:
        rows = diff.get("drift", []) if g.measure == "psi" else [
            r for r in diff.get("changes", []) if r.get("measure") == g.measure]
        rows = [r for r in rows if g.learner is None or r.get("learner") == g.learner]
        if not rows:
            raise SpecError([f"--gate {g.text!r}: no {'drift' if g.measure == 'psi' else 'change of ' + g.measure}"
                             + (f" for learner '{g.learner}'" if g.learner else "") + " in these two runs"])
        for r in rows:
            if g.rule == "max":
                value = r.get("psi")
                passed = value is not None and value <= g.value
            elif g.rule == "max_drop":
                value = r.get("change")
                passed = value is not None and -value <= g.value
            else:
                value = r.get("change")
                passed = value is not None and not _significant_drop(r, 1 - level)
            record = {"gate": g.text, "learner": r.get("learner"), "value": value, "passed": passed}
            if "class" in r:  # a multi-class task's drift: one row per class
                record["class"] = r["class"]
            out.append(record)
    return out


def _fmt(x) -> str:
    if x is None:
        return "undefined"
    if isinstance(x, (list, tuple)):
        return "[" + ", ".join(_fmt(v) for v in x) + "]"
    if isinstance(x, float):
        return general(x, 4)
    return str(x)


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(header)]
    line = lambda cells: "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()  # noqa: E731
    return [line(header), line(["-" * w for w in widths])] + [line(r) for r in rows]


def table_text(diff: dict, label=None) -> str:
    """The changes and the drift as plain-text tables; ``label``: PSI -> its
    conventions' words (history.changes.drift_label)."""
    prev = diff.get("previous") or {}
    lines = [f"since {prev.get('date') or 'the previous run'}" + (f" ({prev['title']})" if prev.get("title") else "")]
    rows = []
    for r in diff.get("changes", []):
        test = r.get("p_value")
        test = f"p = {_fmt(test)}" if test is not None else (_fmt(r["interval"]) if r.get("interval") else "-")
        if r.get("p_holm") is not None:
            test += f" (Holm {_fmt(r['p_holm'])})"
        method = METHOD_NAMES.get(r.get("method"), r.get("method"))
        rows.append([_fmt(r.get("learner")), _fmt(r.get("measure")), _fmt(r.get("previous")), _fmt(r.get("current")),
                     _fmt(r.get("change")), test, _fmt(method) + (f" ({r['note']})" if r.get("note") else "")])
    lines += _table(["learner", "measure", "previous", "current", "change", "p-value or interval", "method"], rows)
    drift = diff.get("drift", [])
    if drift:
        lines += ["", "drift of the scores"]
        by_class = any("class" in r for r in drift)  # a multi-class task: per learner and class
        rows = [[_fmt(r.get("learner")), *([_fmt(r.get("class"))] if by_class else []), _fmt(r.get("psi")),
                 "-" if label is None or r.get("psi") is None else label(r["psi"]),
                 _fmt(r.get("ks")), _fmt(r.get("method")) + (f" ({r['note']})" if by_class and r.get("note") else "")]
                for r in drift]
        lines += _table(["learner", *(["class"] if by_class else []), "PSI", "PSI convention", "KS", "method"], rows)
    for balance in balance_rows(diff.get("balance")):
        on = f" of {balance['dataset']}" if balance.get("dataset") is not None else ""
        if isinstance(balance.get("classes"), list):  # a multi-class task: each class's share
            shares = [f"{c} {_fmt((balance.get('previous') or {}).get(c))} -> "
                      f"{_fmt((balance.get('current') or {}).get(c))}" for c in balance["classes"]]
            lines += ["", f"class balance{on}: {'; '.join(shares)} (chi-squared test of homogeneity, "
                      f"p = {_fmt(balance.get('p_value'))})" + (f" ({balance['note']})" if balance.get("note") else "")]
        else:
            lines += ["", f"class balance{on} p(+): {_fmt(balance.get('previous'))} -> {_fmt(balance.get('current'))} "
                      f"(change {_fmt(balance.get('change'))}, p = {_fmt(balance.get('p_value'))})"]
    return "\n".join(lines)
