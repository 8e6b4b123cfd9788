"""Sentences of the verdict shared by the tasks' reports: the recommendation that
opens page one (what to deploy, and why), the gates in brief, where two ROC
curves cross (who is above on each interval of FPR) and where the rankings
disagree (which measures order which pair of learners differently)."""

from __future__ import annotations

from dataclasses import dataclass

from .. import registry
from ..words import and_join
from .format import cost, ends_text, fmt, interval_text, measure_text, p_text, plain, rate

__all__ = ["fpr_bounds", "interval_phrases", "ranking_sentence", "recommendation", "gates_summary",
           "GATES_LISTED", "page_one",
           "GateLine", "FindingLine", "AgreedRanking"]


@dataclass(frozen=True)
class GateLine:
    """A gate as page one lists it."""

    outcome: str  # "pass", "fail", "inconclusive", "not_evaluated"
    mark: str  # the outcome's mark (MARKS)
    text: str


@dataclass(frozen=True)
class FindingLine:
    severity: str
    text: str


@dataclass(frozen=True)
class AgreedRanking:
    """Every measure orders the learners alike (one data set): the order, said once."""

    order: str  # "a > b > c"
    measures: str  # the measures that agree, joined
    untested: str  # that these are orders of point values, not tested differences


#: intervals listed in a sentence before "and N more" (results.json lists all)
SHOWN = 6
#: the pairs whose disagreeing rankings page one spells out (each names its measures)
DISAGREEMENTS_SHOWN = 3


def fpr_bounds(values) -> list[str]:
    """The interval ends as text: 3 significant digits, more where two consecutive
    ends would otherwise read the same (an interval one negative wide among
    thousands must not print as [0.112, 0.112])."""
    values = list(values)
    for digits in range(3, 17):
        text = [fmt(v, digits) for v in values]
        if all(x != y for x, y in zip(text, text[1:])):
            return text
    return text


def _negatives(lo: float, hi: float, n_neg) -> str:
    """' (1 negative)' when the interval is a few negatives wide (FPR = FP / m-)."""
    if not isinstance(n_neg, int) or n_neg <= 0:
        return ""
    k = (hi - lo) * n_neg
    if abs(k - round(k)) > 1e-6 or round(k) > 3:
        return ""
    k = round(k)
    return f" ({k} negative{'s' if k != 1 else ''})"


def interval_phrases(intervals, words: dict, n_neg=None, *, limit: int = SHOWN) -> list[str]:
    """Who is above where, one phrase per side: 'x above on (lo, hi), (lo, hi)'
    (inside each open interval; the curves meet at its ends), then 'equal on the
    rest' where they coincide somewhere. ``words``: what to say for "a" and "b"
    above, in the order to say them, and for where they coincide (e.g. {"a":
    "logistic above", "b": "forest above", "equal": "equal on the rest"}); at most ``limit``
    intervals a side, then how many more. ``n_neg``: the data's negatives when
    every FPR is a count over them (unweighted), to say how many negatives wide
    a short interval is."""
    ends = fpr_bounds([intervals[0].fpr_from, *(i.fpr_to for i in intervals)]) if intervals else []
    out = []
    for side in [k for k in words if k in ("a", "b")]:
        mine = [k for k, iv in enumerate(intervals) if iv.above == side]
        if not mine:
            continue
        shown = [f"({ends[k]}, {ends[k + 1]}){_negatives(intervals[k].fpr_from, intervals[k].fpr_to, n_neg)}"
                 for k in mine[:limit]]
        if len(mine) > limit:
            shown.append(f"{len(mine) - limit} more")
        out.append(f"{words[side]} on {', '.join(shown)}")
    if any(iv.above == "equal" for iv in intervals):
        out.append(words.get("equal", "equal on the rest"))
    return out


def agreed_ranking(rankings: list) -> AgreedRanking | None:
    """The one order of the report's rankings (page.Ranking rows) when every
    measure orders every learner alike in a single data set: then the report says
    it in a line rather than repeat the same order in a row per measure; else None
    (the table)."""
    if not rankings or len({r.order for r in rankings}) != 1 or any(r.dataset for r in rankings):
        return None
    return AgreedRanking(rankings[0].order, and_join([r.measure for r in rankings]), UNTESTED_ORDERS)


def ranking_sentence(comp, label: dict, where: str = "") -> str:
    """Whether the rankings order the learners the same way, and if not, which
    measures order which pair differently (``label``: registry name -> text)."""
    if not comp.rankings:
        return ""
    if comp.rankings_agree:
        names = ", ".join(label[r.measure] for r in comp.rankings)
        partial = any(len(r.order) < len(comp.learners) for r in comp.rankings)
        aside = " (among the learners each one has a value for)" if partial else ""
        # a tie orders nothing: say which rankings hold one, rather than let the table's order speak
        ties = [f"{label[r.measure]} ties {and_join(group)}" for r in comp.rankings for group in r.ties()]
        tie_text = f"; {'; '.join(ties)}" if ties else ""
        return f"Every ranking{where} ({names}) orders the learners the same way{aside}, or ties them{tie_text}." \
            if ties else f"Every ranking{where} ({names}) orders the learners the same way{aside}."
    parts = []
    for d in comp.disagreements[:DISAGREEMENTS_SHOWN]:
        ma, mb = [label[m] for m in d.prefer_a], [label[m] for m in d.prefer_b]
        parts.append(f"{and_join(ma)} rank{'s' if len(ma) == 1 else ''} {d.a} above {d.b}, "
                     f"{and_join(mb)} rank{'s' if len(mb) == 1 else ''} {d.b} above {d.a}")
    if len(comp.disagreements) > DISAGREEMENTS_SHOWN:
        parts.append(f"{len(comp.disagreements) - DISAGREEMENTS_SHOWN} more pairs (results.json lists them)")
    # an order of point values, however small the difference: say so, rather than let a
    # reader take "disagree" for a tested difference
    return f"The rankings{where} disagree: {'; '.join(parts)}. {UNTESTED_ORDERS}"


#: said after the rankings' disagreements (what a test separates is said with the tests)
UNTESTED_ORDERS = "These are orders of point values, not tested differences."


#: past this many gate rows, page one lists only those that did not pass (and counts the rest)
GATES_LISTED = 6
#: findings page one lists before it counts the rest (results.json lists every one)
FINDINGS_SHOWN = 8
#: learners whose deployed configuration page one names one by one
DEPLOYED_SHOWN = 6
#: suggestions page one spells out
SUGGESTIONS_SHOWN = 4

#: how page one marks each gate outcome
MARKS = {"pass": "✔", "fail": "✘", "inconclusive": "?", "not_evaluated": "–"}
OUTCOME_WORDS = {"pass": "passed", "fail": "failed", "inconclusive": "inconclusive",
                 "not_evaluated": "not evaluated"}
STATUS_WORDS = {"not_fit": "Not fit", "inconclusive": "Inconclusive", "fit_with_findings": "Fit, with findings",
                "fit": "Fit", "not_assessed": "Not assessed"}
_SOURCES = {"spec": "the spec's threshold", "learner": "its own threshold",
            "optimal": "tuned on these data: optimistic", "decisions": "hard decisions",
            "argmax": "the class of highest score"}
_TEST_NAMES = {"delong": "DeLong's test", "mcnemar": "McNemar's test", "bootstrap": "a paired bootstrap",
               "welch_t": "Welch's t-test over the replicates",
               "paired_bootstrap": "a paired bootstrap of the difference"}


def _percent(alpha: float) -> str:
    return f"{plain(alpha * 100)}%"  # the spec's level, as written


def gates_summary(gates: list[GateLine]) -> tuple[str, list[GateLine]]:
    """The gates in brief: the summary line and the rows to list. "All N gates
    passed" only when every outcome is pass; else the count of each outcome. The
    rows are listed only when every one passed (up to GATES_LISTED): those that did
    not pass are page one's findings."""
    if not gates:
        return "No gates were set.", []
    n = len(gates)
    counts = {o: sum(g.outcome == o for g in gates) for o in OUTCOME_WORDS}
    if counts["pass"] == n:
        return (f"All {n} gates passed." if n > 1 else "The gate passed."), (gates if n <= GATES_LISTED else [])
    parts = [f"{counts[o]} {OUTCOME_WORDS[o]}" for o in ("fail", "inconclusive", "not_evaluated", "pass")
             if counts[o]]
    if n == 1:
        return f"The gate {OUTCOME_WORDS[gates[0].outcome]} (the findings say why).", []
    return f"Of {n} gates: {', '.join(parts)} (the findings list those that did not pass).", []


def _population(result) -> str:
    """Which population the measures at the threshold describe, said once: with
    priors, the gates read them as sampled and the headline table in the population."""
    from .headline import sample_label

    op = result.operating_point
    if op is None:
        return ""
    if op.p_positive_source == "priors":
        sampled = sample_label(result).strip("()").replace("sample: ", "").replace("samples: ", "")
        # the rates at the threshold are the sample's; a cost is at the priors' PC(+)
        return (f"; its gates read the rates at the threshold as sampled ({sampled}) and the costs at "
                f"PC(+) = {fmt(op.pc_positive)}, from the priors, p(+) = {rate(op.p_positive)}, the population "
                "the headline table is in")
    return f", at the sample's share of positives, p(+) = {rate(op.p_positive)}"


def _learner_line(key: str, v, result) -> str:
    source = _SOURCES.get(v.threshold_source) or (
        f"chosen on {v.threshold_source.partition(':')[2]}" if v.threshold_source.startswith("optimal_on:")
        else v.threshold_source)
    where = f"at threshold {v.threshold_text} ({source})" if v.threshold_text else f"({source})"
    total = sum(v.gates.values())
    if not total:
        gates = "no gate applies to it"
    elif total == 1:
        word = OUTCOME_WORDS[next(o for o, n in v.gates.items() if n)]
        gates = f"its one gate {word}" if word in ("passed", "failed") else f"its one gate was {word}"
    elif v.gates["pass"] == total:
        gates = f"all {total} of its gates passed" if total > 1 else "its gate passed"
    else:
        parts = [f"{v.gates[o]} {OUTCOME_WORDS[o]}" for o in ("fail", "inconclusive", "not_evaluated", "pass")
                 if v.gates[o]]
        gates = f"of its {total} gates {', '.join(parts)}"
    return f"{key} {where}: {STATUS_WORDS[v.status].lower()}, {gates}."


def _status_sentence(verdict, result) -> str:
    judged = {k: v for k, v in verdict.learners.items() if v.judged}
    if verdict.deployed is not None:
        whose = f"the deployed learner's, {verdict.deployed}"
    elif len(judged) == 1:
        whose = "its one learner's"
    else:
        whose = "the worst of the learners' (no learner is named deployed)"
    population = _population(result)
    basis = ("Each learner is judged at its deployed threshold" + population
             if result.operating_point is not None else "Each learner is judged by its decisions")
    skipped = [k for k, v in verdict.learners.items() if not v.judged]
    if skipped:
        basis += (f"; {and_join(sorted({result.learners[k].dataset for k in skipped}))}, where the thresholds "
                  "were chosen, gives no verdict")
    return f"The status is {whose}. {basis}."


def _leader_sentence(verdict, result) -> str:
    sentences = []
    for x in verdict.leaders:
        if x.over == "learners" and len([k for k, v in verdict.learners.items()
                                         if v.judged and v.dataset == x.dataset]) < 2:
            continue
        label = registry.get(x.rank_by).label if x.rank_by in registry.MEASURES else x.rank_by
        where = f" on {x.dataset}" if x.dataset is not None and len(verdict.leaders) > 1 else ""
        first = " = ".join(x.tied) if len(x.tied) > 1 else x.learner
        value = measure_text(x.rank_by, x.value) + (", the mean of its replicates" if x.over == "configurations"
                                                   else "")
        test = _TEST_NAMES.get(x.test, x.test)
        level = _percent(round(1 - verdict.level, 10))
        if x.test is None:
            sentences.append(f"By {label}{where}, {first} rank{'s' if len(x.tied) < 2 else ''} first ({value}); "
                             "no paired test of it was made, so no learner is recommended over the others.")
        elif x.indistinguishable_from:
            others = [k for k in x.indistinguishable_from if k not in x.tied]
            tied = len(x.tied) > 1
            rows = _leaderboard_rows(result, x.rank_by)
            value = _with_interval(x.rank_by, x.value, rows.get(x.learner)) + (
                ", the mean of its replicates" if x.over == "configurations" else "")
            rest = (f"; {and_join([_against(k, x.rank_by, rows.get(k)) for k in others])} cannot be told apart "
                    f"from it at the {level} level ({test}, Holm-adjusted)" if others else "")
            sentences.append(f"By {label}{where}, {first} rank{'' if tied else 's'} first ({value}){rest}: no single "
                             "learner is recommended on this evidence.")
        else:
            rows = _leaderboard_rows(result, x.rank_by) if x.over == "learners" else {}
            value = _with_interval(x.rank_by, x.value, rows.get(x.learner))
            closest = _closest(rows, x)
            how = "Holm-adjusted"
            if closest:
                row = rows[closest]
                how += (f"; the closest is {closest}: {_with_interval(x.rank_by, row['value'], row)}, "
                        f"{p_text(row['p_holm_vs_best'])}")
            sentences.append(f"By {label}{where}, {first} ranks first ({value}), and {test} separates it from every "
                             f"other learner at the {level} level ({how}).")
    return " ".join(sentences)


def _closest(rows: dict, leader) -> str | None:
    """The learner of the leader's data set that its test separates least from it (the
    largest Holm-adjusted p), where the leaderboard holds one: the sentence's evidence
    is then the weakest of its comparisons, not only their verdict."""
    tested = [(row["p_holm_vs_best"], key) for key, row in rows.items()
              if key not in leader.tied and key != leader.learner and row.get("p_holm_vs_best") is not None
              and row.get("dataset", leader.dataset) == leader.dataset]
    return max(tested)[1] if tested else None


def _leaderboard_rows(result, rank_by: str) -> dict:
    """The leaderboard's rows by learner when it ranks by ``rank_by`` (else none)."""
    from ..compare.leaderboard import leaderboard

    block = leaderboard(result)
    if not block or block.get("rank_by") != rank_by:
        return {}
    return {r["learner"]: r for r in block.get("rows", [])}


def _with_interval(name: str, value, row: dict | None) -> str:
    """A ranked value with its interval from the leaderboard row, where it has one."""
    if value is None or not row or row.get("low") is None or row.get("high") is None:
        return measure_text(name, value)
    return interval_text(value, (row["low"], row["high"]))


def _against(key: str, name: str, row: dict | None) -> str:
    """A learner the leader cannot be told from: its value, interval and Holm-adjusted p."""
    if not row or row.get("value") is None:
        return key
    p = row.get("p_holm_vs_best")
    return f"{key} ({_with_interval(name, row['value'], row)}" + (f", {p_text(p)})" if p is not None else ")")


def _suggestion_lines(verdict, result) -> list[str]:
    """One line per suggestion: its threshold and cost beside the deployed threshold's."""
    out = []
    op = result.operating_point
    pc = fmt(op.pc_positive) if op is not None else "undefined"
    for s in verdict.suggestions[:SUGGESTIONS_SHOWN]:
        deployed = verdict.learners[s.learner].threshold_text
        against = (f", against {cost(s.cost_at_deployed)} at its deployed {deployed}"
                   if s.cost_at_deployed is not None else "")
        out.append(f"{s.learner} at {s.threshold_text} (tuned on {s.chosen_on}): cost {cost(s.cost)} "
                   f"at PC(+) = {pc}{against}")
    more = len(verdict.suggestions) - SUGGESTIONS_SHOWN
    if more > 0:
        out.append(f"{more} more in results.json (verdict.suggestions)")
    return out


def _challenger_lines(verdict) -> list[str]:
    out = []
    for name, c in verdict.challengers.items():
        label = registry.get(c["measure"]).label if c.get("measure") in registry.MEASURES else c.get("measure", "")
        if c.get("difference") is None:
            out.append(f"May {name} replace {verdict.deployed}? Not tested: {c.get('reason') or 'undefined'}.")
            continue
        lo, hi = c["interval"] if c.get("interval") else (None, None)
        span = f" {ends_text(lo, hi)}" if lo is not None else ""
        margin = c.get("margin") or 0
        if c.get("superior"):
            answer = f"yes: {name} is better"
        elif c.get("non_inferior") and margin:
            answer = f"{name} is not worse by more than the margin {fmt(margin)}, but it is not shown better"
        elif margin:
            answer = f"not shown: {name} is not shown to be within the margin {fmt(margin)} of {verdict.deployed}"
        else:
            answer = f"not shown: {name} is not shown to be better than {verdict.deployed}"
        p = f", {p_text(c['p_value'])}" if c.get("p_value") is not None else ""
        out.append(f"May {name} replace {verdict.deployed}? {answer[0].upper() + answer[1:]} ({label} difference "
                   f"{fmt(c['difference'])}{span}{p}).")
    return out


def page_one(result) -> dict:
    """What page one prints of the verdict (result.verdict): the status and what it
    rests on, each judged learner at its deployed threshold, the findings most
    severe first, the suggestions (optimistic, never "deploy"), the leader and
    what the tests say of it, the challengers."""
    verdict = result.verdict
    judged = [(k, v) for k, v in verdict.learners.items() if v.judged]
    shown = judged if len(judged) <= DEPLOYED_SHOWN else [(k, v) for k, v in judged if k == verdict.deployed or (
        verdict.deployed and k.startswith(verdict.deployed + "@"))] + [
        (k, v) for k, v in judged if v.status in ("not_fit", "inconclusive")][:DEPLOYED_SHOWN]
    seen, lines = set(), []
    for k, v in shown:
        if k not in seen:
            seen.add(k)
            lines.append(_learner_line(k, v, result))
    if len(judged) > len(seen):
        counts = {}
        for k, v in judged:
            if k not in seen:
                counts[v.status] = counts.get(v.status, 0) + 1
        lines.append(f"{len(judged) - len(seen)} more: " + ", ".join(
            f"{n} {STATUS_WORDS[s].lower()}" for s, n in sorted(counts.items(), key=lambda x: x[0])) + ".")
    findings = [FindingLine(f.severity, f.text) for f in verdict.findings[:FINDINGS_SHOWN]]
    more = len(verdict.findings) - FINDINGS_SHOWN
    return {
        "status": verdict.status,
        "status_words": STATUS_WORDS[verdict.status],
        "status_sentence": _status_sentence(verdict, result),
        "learners": lines,
        "findings": findings,
        "findings_more": (f"{more} more findings, all listed in results.json (verdict.findings) and the warnings."
                          if more > 0 else ""),
        "suggestions": "; ".join(_suggestion_lines(verdict, result)),
        "leader": _leader_sentence(verdict, result),
        "challengers": _challenger_lines(verdict),
    }


def recommendation(result) -> str:
    """The verdict in a sentence or two (the notebook's short repr): the status and
    what the tests say of the leader."""
    if result.verdict is None:
        return ""
    one = page_one(result)
    return " ".join(x for x in (f"{one['status_words']}.", one["status_sentence"], one["leader"]) if x)
