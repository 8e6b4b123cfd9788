"""The verdict in exact words: who is above on each interval of FPR where two
ROC curves cross, and rankings that agree only when they order every pair alike."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from evalreport.compare import Comparisons, Disagreement, Ranking, ranking_disagreements
from evalreport.compare.curves import FprInterval as I
from evalreport.report.verdicts import fpr_bounds, interval_phrases, ranking_sentence

ROOT = Path(__file__).resolve().parents[1]
LABEL = {"accuracy": "accuracy", "macro_f1": "macro-F1", "macro_auc": "macro AUC"}


def _ranking(measure, values, higher=True):
    defined = [k for k, v in values.items() if v is not None]
    order = sorted(defined, key=lambda k: (-values[k] if higher else values[k], list(values).index(k)))
    return Ranking(measure, tuple(order), values)


def test_rankings_with_the_same_top_but_different_orders_disagree():
    # accuracy X > Z > Y, macro AUC X > Y > Z: the same first learner, not the same order
    ranks = (_ranking("accuracy", {"X": 0.9, "Y": 0.7, "Z": 0.8}),
             _ranking("macro_auc", {"X": 0.95, "Y": 0.9, "Z": 0.85}))
    assert ranking_disagreements(ranks, ("X", "Y", "Z")) == (
        Disagreement("Y", "Z", prefer_a=("macro_auc",), prefer_b=("accuracy",)),)


def test_ties_and_undefined_values_are_no_disagreement():
    # Y and Z tie on accuracy (listed in the learners' order) and Z has no macro AUC
    ranks = (_ranking("accuracy", {"X": 0.9, "Y": 0.8, "Z": 0.8}),
             _ranking("macro_f1", {"X": 0.9, "Y": 0.7, "Z": 0.8}),
             _ranking("macro_auc", {"X": 0.9, "Y": 0.8, "Z": None}))
    assert ranking_disagreements(ranks, ("X", "Y", "Z")) == ()


def test_multiclass_compare_sets_rankings_agree_from_full_orders():
    from evalreport.tasks.multiclass_compare import compare_dataset

    learners = {k: SimpleNamespace(values=v) for k, v in {
        "X": {"accuracy": 0.9, "macro_f1": 0.9, "mean_f1": 0.9, "macro_auc": 0.95},
        "Y": {"accuracy": 0.7, "macro_f1": 0.7, "mean_f1": 0.7, "macro_auc": 0.9},
        "Z": {"accuracy": 0.8, "macro_f1": 0.8, "mean_f1": 0.8, "macro_auc": 0.85}}.items()}
    comp = compare_dataset(learners, frozenset())
    assert not comp.rankings_agree
    assert comp.disagreements == (Disagreement("Y", "Z", ("macro_auc",), ("accuracy", "macro_f1", "mean_f1")),)


def test_ranking_sentences():
    ranks = (_ranking("accuracy", {"X": 0.9, "Y": 0.7, "Z": 0.8}),
             _ranking("macro_f1", {"X": 0.9, "Y": 0.7, "Z": 0.8}),
             _ranking("macro_auc", {"X": 0.95, "Y": 0.9, "Z": 0.85}))
    d = ranking_disagreements(ranks, ("X", "Y", "Z"))
    comp = Comparisons(None, ("X", "Y", "Z"), rankings=ranks, rankings_agree=False, disagreements=d)
    assert ranking_sentence(comp, LABEL) == (
        "The rankings disagree: macro AUC ranks Y above Z, accuracy and macro-F1 rank Z above Y. "
        "These are orders of point values, not tested differences.")
    same = Comparisons(None, ("X", "Y", "Z"), rankings=ranks[:2])
    assert ranking_sentence(same, LABEL, " on d1") == (
        "Every ranking on d1 (accuracy, macro-F1) orders the learners the same way.")


def test_interval_phrases_and_bounds():
    # 143 negatives: one negative is 1/143 of FPR
    iv = (I(0, 13 / 143, "a"), I(13 / 143, 16 / 143, "equal"), I(16 / 143, 17 / 143, "b"),
          I(17 / 143, 1, "equal"))
    words = {"a": "a is above", "b": "b is above", "equal": "they coincide on the rest"}
    assert interval_phrases(iv, words, 143) == [
        "a is above on (0, 0.0909)", "b is above on (0.112, 0.119) (1 negative)", "they coincide on the rest"]
    # more digits where three would print two ends alike
    assert fpr_bounds([0.1, 0.10001, 0.2]) == ["0.1", "0.10001", "0.2"]
    # at most `limit` intervals a side
    many = tuple(I(k / 10, (k + 1) / 10, "ab"[k % 2]) for k in range(10))
    assert interval_phrases(many, {"a": "A", "b": "B"}, limit=2) == [
        "A on (0, 0.1), (0.2, 0.3), 3 more", "B on (0.1, 0.2), (0.3, 0.4), 3 more"]


@pytest.fixture(scope="module")
def breast_cancer():
    import evalreport
    from evalreport.spec import load_spec

    return evalreport.evaluate(load_spec(ROOT / "examples/breast_cancer/spec.yaml"))


@pytest.mark.slow
def test_breast_cancer_verdict_says_who_is_above_where(breast_cancer):
    from evalreport.report.binary import _details, _matrix, _sentences

    (comp,) = breast_cancer.comparisons
    env = {(p.a, p.b): p.envelopment for p in comp.pairs}
    # 143 negatives: every interval end is a count of negatives
    got = [(round(i.fpr_from * 143), round(i.fpr_to * 143), i.above) for i in env[("logistic", "forest")].intervals]
    assert got == [(0, 8, "a"), (8, 9, "equal"), (9, 13, "a"), (13, 16, "equal"), (16, 17, "b"),
                   (17, 31, "equal"), (31, 141, "a"), (141, 143, "equal")]
    sentences = _details(breast_cancer)  # the comparisons section's, not page one's
    assert ("logistic's and forest's ROC curves cross, so neither is better at every false positive rate. "
            "By FPR, logistic is above on (0, 0.0559), (0.0629, 0.0909), (0.217, 0.986); forest is above on "
            "(0.112, 0.119) (1 negative); they coincide on the rest.") in sentences
    assert ("logistic's ROC curve envelops those of tree and bayes: logistic is at least as good at every "
            "false positive rate (and so is its P-R curve).") in sentences
    assert _sentences(breast_cancer) == [
        "The rankings disagree: BEP, F1, expected total cost and least cost over all thresholds rank tree "
        "above bayes, AUC ranks bayes above tree. These are orders of point values, not tested differences."]
    assert not any("every threshold" in s for s in sentences)
    # every crossing pair is said with its intervals: no envelopment matrix repeats them
    assert _matrix(breast_cancer) == []


def test_envelopment_matrix_cells(breast_cancer, monkeypatch):
    from evalreport.report import binary

    monkeypatch.setattr(binary, "CROSSINGS_SAID", 0)  # as if the sentences left pairs unsaid
    (matrix,) = binary._matrix(breast_cancer)
    rows = {r.name: dict(zip(matrix.names, r.cells)) for r in matrix.rows}
    # the cell says that they cross; where, the sentences above it (a cell holding the
    # intervals took a page of four learners)
    assert rows["forest"]["logistic"] == rows["logistic"]["forest"] == "crosses"
    assert rows["logistic"]["tree"] == "envelops" and rows["tree"]["logistic"] == "is enveloped by"


def test_gates_summary_counts_every_outcome_and_says_all_passed_only_then():
    from evalreport.report.verdicts import GATES_LISTED, GateLine, gates_summary

    rows = [GateLine("fail" if i in (3, 7) else "inconclusive" if i == 20 else "pass", "", f"g{i}")
            for i in range(36)]
    assert gates_summary(rows) == ("Of 36 gates: 2 failed, 1 inconclusive, 33 passed (the findings list those "
                                   "that did not pass).", [])
    nothing = [GateLine("not_evaluated", "", "x")] * 3 + [GateLine("pass", "", "y")] * 2
    assert gates_summary(nothing)[0] == ("Of 5 gates: 3 not evaluated, 2 passed (the findings list those that "
                                         "did not pass).")
    few = [GateLine("pass", "", "x")] * GATES_LISTED
    assert gates_summary(few) == (f"All {GATES_LISTED} gates passed.", few)
    assert gates_summary([GateLine("pass", "", "x")] * 40) == ("All 40 gates passed.", [])
    assert gates_summary([GateLine("not_evaluated", "", "x")])[0].startswith("The gate not evaluated")
    assert gates_summary([]) == ("No gates were set.", [])


def test_page_one_never_says_deploy(breast_cancer):
    from evalreport.report.verdicts import recommendation

    text = recommendation(breast_cancer)
    assert "deploy " not in text.replace("deployed", "")
    assert "from the priors, p(+) = 0.100, the population the headline table is in" in text


def test_a_tie_is_said_and_no_one_ranks_first_alone_by_it():
    """Equal values order nothing (the review of validated_threshold: BEP 0.9434 each):
    the agreeing rankings' sentence names the tie, and a learner tied for first is
    not said to rank first by that measure."""
    from types import SimpleNamespace

    from evalreport.compare import Ranking
    from evalreport.report.verdicts import ranking_sentence

    bep = Ranking("bep", ("a", "b", "c"), {"a": 0.9434, "b": 0.9434, "c": 0.5})
    auc = Ranking("auc", ("b", "a", "c"), {"a": 0.97, "b": 0.98, "c": 0.6})
    assert bep.ties() == [["a", "b"]] and auc.ties() == []
    assert bep.first_alone is None and auc.first_alone == "b"
    comp = SimpleNamespace(rankings=[auc, bep], rankings_agree=True, learners=("a", "b", "c"))
    text = ranking_sentence(comp, {"bep": "BEP", "auc": "AUC"})
    assert text == "Every ranking (AUC, BEP) orders the learners the same way, or ties them; BEP ties a and b."


def test_a_gap_under_the_smallest_printed_value_keeps_its_side():
    from evalreport.report.slices import _gap

    assert [_gap(-5e-5), _gap(5e-5), _gap(-0.01), _gap(0.0)] == ["> −0.0001", "< 0.0001", "−0.0100", "±0.0000"]


def test_a_change_under_the_smallest_printed_value_keeps_its_side():
    # the history's changes share the slices' signed style (number_style.signed)
    from evalreport.report.history import _signed

    assert [_signed("auc", -5e-5), _signed("auc", 5e-5), _signed("auc", -0.031), _signed("auc", 0.012)] == [
        "> -0.0001", "< 0.0001", "-0.0310", "+0.0120"]
