"""Threshold tables (spec `thresholds:`) and cumulative gains and lift by decile:
the spec's checks, each kind of operating point and the gains against computations
by another route (brute force over the thresholds, argsort, random tie-breaks,
repeated rows for integer weights), results.json and the report."""

from __future__ import annotations

import json
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import balanced_accuracy_score, cohen_kappa_score, matthews_corrcoef

from specs import BASE

from evalreport.__main__ import main
from evalreport.metrics import evaluate_binary, evaluate_reduced, reduce_count_stream
from evalreport.metrics.binary import evaluate_binary_for_report
from evalreport.metrics.operating_table import ROW_MEASURES, operating_table

ASKED = {"at": [0.3, 0.5, -1.0, 9.0], "top_fraction": [0.01, 0.05, 0.1, 0.37, 1.0],
         "recall": [0.0, 0.5, 0.9, 1.0], "fpr": [0.0, 0.05, 0.3, 1.0]}


def _data(n, seed, *, ties, weighted):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.35
    s = rng.normal(size=n) + 1.0 * y
    if ties:
        s = np.round(s * 2) / 2
    w = rng.integers(1, 4, size=n).astype(float) if weighted else None
    return y, s, w


def _brute(y, s, w, kind, target):
    """The operating point by trying every threshold (+inf and each distinct score)."""
    w = np.ones(y.size) if w is None else w
    pos, neg = w[y].sum(), w[~y].sum()
    cands = [np.inf] + sorted(set(s.tolist()), reverse=True)  # highest first
    counts = []
    for t in cands:
        f = s >= t
        counts.append((t, w[f & y].sum(), w[f & ~y].sum()))
    if kind == "at":
        f = s >= target
        return target, w[f & y].sum(), w[f & ~y].sum()
    if kind == "top_fraction":
        return next(c for c in counts[1:] if (c[1] + c[2]) / (pos + neg) >= target)
    if kind == "recall":
        return next(c for c in counts if c[1] / pos >= target)
    return [c for c in counts if c[2] / neg <= target][-1]  # fpr: the lowest threshold within it


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_each_kind_of_row_against_brute_force(ties, weighted, seed):
    y, s, w = _data(300, seed, ties=ties, weighted=weighted)
    table = operating_table(evaluate_binary_for_report(y, s, sample_weight=w, positive=True).counts, ASKED)
    assert [r.kind for r in table.rows] == [k for k in ASKED for _ in ASKED[k]]
    ww = np.ones(y.size) if w is None else w
    m = ww.sum()
    for row in table.rows:
        t, tp, fp = _brute(y, s, w, row.kind, row.target)
        assert row.threshold == t, (row.kind, row.target)
        pos, neg = ww[y].sum(), ww[~y].sum()
        assert (row.tp, row.fp, row.tn, row.fn) == (tp, fp, neg - fp, pos - tp)
        assert row.flagged == pytest.approx((tp + fp) / m, abs=1e-15)
        if row.kind == "top_fraction":
            assert row.flagged >= row.target
        assert list(row.values) == list(ROW_MEASURES)
        pred = s >= t
        if 0 < tp + fp < m:  # both decisions present: the family is defined
            assert row.values["mcc"] == pytest.approx(matthews_corrcoef(y, pred, sample_weight=w), abs=1e-12)
            assert row.values["kappa"] == pytest.approx(cohen_kappa_score(y, pred, sample_weight=w), abs=1e-12)
            assert row.values["balanced_accuracy"] == pytest.approx(
                balanced_accuracy_score(y, pred, sample_weight=w), abs=1e-12)
        assert row.values["recall"] == pytest.approx(tp / pos, abs=1e-15)
        assert row.values["fpr"] == pytest.approx(fp / neg, abs=1e-15)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 6), st.integers(1, 3)), min_size=2, max_size=40),
       st.floats(0.01, 1), st.floats(0, 1))
def test_each_point_is_the_extreme_row_meeting_its_target(rows, q, r):
    """top_fraction and recall: the first row meeting the target, the one before it
    short of it; fpr: the last row within the budget, the next one over it."""
    y = np.array([a for a, _, _ in rows])
    s = np.array([b for _, b, _ in rows], float)
    w = np.array([c for _, _, c in rows], float)
    t = evaluate_binary(y, s, sample_weight=w).counts
    table = operating_table(t, {"top_fraction": [q], "recall": [r], "fpr": [r]})
    m, pos, neg = t.positives + t.negatives, t.positives, t.negatives
    share = (t.tp + t.fp) / m
    top, recall, fpr = table.rows
    k = t.rows_at(top.threshold)
    assert share[k] >= q and share[k - 1] < q
    if pos:
        k = t.rows_at(recall.threshold)
        assert t.tp[k] / pos >= r and (k == 0 or t.tp[k - 1] / pos < r)
    if neg:
        k = t.rows_at(fpr.threshold)
        assert t.fp[k] / neg <= r and (k == len(t) or t.fp[k + 1] / neg > r)
    captured = [g.captured for g in table.gains]
    if pos:
        assert all(0 <= a <= b <= 1 for a, b in zip([0] + captured, captured)) and captured[-1] == 1


def test_rows_by_hand_with_a_tied_block():
    # scores 0.9 (+), 0.8 (+ - - tied), 0.2 (+), 0.1 (-): m = 6, m+ = 3, m- = 3
    y = np.array([1, 1, 0, 0, 1, 0], bool)
    s = np.array([0.9, 0.8, 0.8, 0.8, 0.2, 0.1])
    ev = evaluate_binary(y, s)
    table = operating_table(ev.counts, {"top_fraction": [0.2, 0.5], "recall": [0.5, 0.7], "fpr": [0.5, 0.0]})
    got = [(r.kind, r.target, r.threshold, r.flagged, r.tp, r.fp) for r in table.rows]
    assert got == [
        ("top_fraction", 0.2, 0.8, 4 / 6, 2, 2),  # 1/6 < 0.2: the tied block is flagged whole
        ("top_fraction", 0.5, 0.8, 4 / 6, 2, 2),
        ("recall", 0.5, 0.8, 4 / 6, 2, 2),  # recall 1/3 at 0.9
        ("recall", 0.7, 0.2, 5 / 6, 3, 2),
        ("fpr", 0.5, 0.9, 1 / 6, 1, 0),  # the tied block brings FPR 2/3
        ("fpr", 0.0, 0.9, 1 / 6, 1, 0),
    ]
    assert table.rows[0].values["precision"] == 0.5 and table.rows[0].values["npv"] == 0.5


def test_unreachable_points_are_undefined_with_the_reason():
    y = np.array([False, False, False])
    table = operating_table(evaluate_binary(y, np.array([0.1, 0.5, 0.9])).counts,
                            {"recall": [0.9], "fpr": [0.1], "at": [0.5]})
    recall, fpr = (next(r for r in table.rows if r.kind == k) for k in ("recall", "fpr"))
    assert recall.threshold is None and recall.undefined == {"row": "there are no positives"}
    assert all(v is None for v in recall.values.values())
    assert ("threshold_table", "threshold table, recall >= 0.9: undefined: there are no positives") in table.notes()
    assert ("threshold_table", "threshold table, at threshold 0.5: undefined: recall (there are no positives (only "
            "one class in y_true)); fnr (there are no positives); balanced_accuracy (there are no positives); "
            "youden (there are no positives); mcc (there are no positives)") in table.notes()
    assert fpr.threshold == np.inf and fpr.fp == 0  # negatives only: any flag is over 0.1
    assert table.gains_undefined.startswith("the share of the positives captured and the lift are undefined")
    assert all(g.captured is None and g.lift is None and g.response_rate == 0 for g in table.gains)
    # nothing flagged: +inf, precision undefined (said in the note), FPR 0
    table = operating_table(evaluate_binary(np.array([1, 0], bool), np.array([0.2, 0.9])).counts, {"fpr": [0.0]})
    (row,) = table.rows
    assert row.threshold == np.inf and row.flagged == 0 and row.values["precision"] is None
    assert table.notes() == [("threshold_table", "threshold table, FPR <= 0 (nothing flagged): undefined: "
                              "precision (nothing is predicted positive at the threshold); mcc (nothing is "
                              "predicted positive)")]


def _gains_reference(y, s, w):
    """Captured share at each decile by argsort (distinct scores): the instance
    straddling a boundary enters by its fraction."""
    order = np.argsort(-s, kind="stable")
    ww = np.ones(y.size) if w is None else w[order]
    cw = np.concatenate(([0.0], np.cumsum(ww)))
    cp = np.concatenate(([0.0], np.cumsum(ww * y[order])))
    q = np.arange(1, 11) / 10
    captured = np.interp(q * cw[-1], cw, cp)
    rate = np.diff(np.concatenate(([0.0], captured))) / (cw[-1] / 10)
    return captured / cp[-1], captured / cp[-1] / q, rate


@pytest.mark.parametrize("n", [37, 200])
@pytest.mark.parametrize("weighted", [False, True])
def test_gains_against_argsort_with_distinct_scores(n, weighted):
    y, s, w = _data(n, n, ties=False, weighted=weighted)
    gains = operating_table(evaluate_binary_for_report(y, s, sample_weight=w, positive=True).counts).gains
    captured, lift, rate = _gains_reference(y, s, w)
    assert [g.flagged for g in gains] == [d / 10 for d in range(1, 11)]
    np.testing.assert_allclose([g.captured for g in gains], captured, rtol=0, atol=1e-12)
    np.testing.assert_allclose([g.lift for g in gains], lift, rtol=0, atol=1e-12)
    np.testing.assert_allclose([g.response_rate for g in gains], rate, rtol=0, atol=1e-12)
    assert gains[-1].captured == 1.0 and gains[-1].lift == 1.0


def test_integer_weights_are_repeated_rows():
    y, s, w = _data(120, 5, ties=True, weighted=True)
    a = operating_table(evaluate_binary(y, s, sample_weight=w).counts, ASKED)
    reps = w.astype(int)
    b = operating_table(evaluate_binary(np.repeat(y, reps), np.repeat(s, reps)).counts, ASKED)
    for ra, rb in zip(a.rows, b.rows):
        assert (ra.threshold, ra.tp, ra.fp, ra.tn, ra.fn) == (rb.threshold, rb.tp, rb.fp, rb.tn, rb.fn)
        assert ra.values == pytest.approx(dict(rb.values), abs=1e-12)
    for ga, gb in zip(a.gains, b.gains):
        assert (ga.captured, ga.lift, ga.response_rate) == pytest.approx(
            (gb.captured, gb.lift, gb.response_rate), abs=1e-12)


def test_gains_with_ties_are_the_average_over_random_tie_breaks():
    y, s, _ = _data(53, 11, ties=True, weighted=False)
    s = np.round(s)  # a few large tied blocks
    gains = operating_table(evaluate_binary(y, s).counts).gains
    rng = np.random.default_rng(0)
    runs = []
    for _ in range(4000):
        jitter = rng.random(s.size) * 1e-3  # breaks the ties at random, keeps the blocks' order
        runs.append(_gains_reference(y, s + jitter, None)[0])
    np.testing.assert_allclose([g.captured for g in gains], np.mean(runs, axis=0), rtol=0, atol=0.01)


def test_gains_by_hand_with_a_tied_block():
    # 0.9 (+), then a block of four at 0.5 (+ + - -), then 0.1 (-) x 5: m = 10, m+ = 3
    y = np.array([1, 1, 1, 0, 0] + [0] * 5, bool)
    s = np.array([0.9] + [0.5] * 4 + [0.1] * 5)
    gains = operating_table(evaluate_binary(y, s).counts).gains
    # 20 %: the top one and a quarter of the block's expected two positives: 1 + 0.5
    assert [round(g.captured * 3, 12) for g in gains[:6]] == [1, 1.5, 2, 2.5, 3, 3]
    assert [round(g.response_rate, 12) for g in gains[:6]] == [1, 0.5, 0.5, 0.5, 0.5, 0]
    assert gains[1].lift == pytest.approx(0.5 / 0.2)


def test_a_reduced_streamed_table_is_exact_or_undefined():
    y, s, _ = _data(20000, 3, ties=False, weighted=False)
    want = operating_table(evaluate_binary(y, s).counts, ASKED)
    order = np.argsort(-s)
    pos, neg = np.asarray(y[order], np.int64), np.asarray(~y[order], np.int64)
    result = reduce_count_stream(iter([(s[order], pos, neg)]), positives=int(y.sum()), negatives=int((~y).sum()),
                                 n_rows=y.size, keep_thresholds=(0.3, 0.5, -1.0, 9.0), cap=64)
    assert result.reduced
    ev = evaluate_reduced(result.table, result.reduction)
    got = operating_table(ev.counts, ASKED, ev.reduction)
    undefined = 0
    for g, w in zip(got.rows, want.rows):
        if g.threshold is None:
            undefined += 1
            assert g.undefined["row"].startswith("the count table was streamed and reduced to ")
        else:
            assert (g.threshold, g.tp, g.fp) == (w.threshold, w.tp, w.fp)
    assert undefined and all(r.threshold is not None for r in got.rows if r.kind == "at")
    for g, w in zip(got.gains, want.gains):
        assert g.captured is None or g.captured == pytest.approx(w.captured, abs=1e-12)


# --- the spec, results.json and the report ------------------------------------------

CSV = "id,y,p_a,p_b,w\n" + "\n".join(
    f"{i},{i % 2},{(i * 7 % 10) / 10},{(i * 3 % 10) / 10},{1 + i % 3}" for i in range(1, 41)) + "\n"

SPEC = BASE  # the small valid binary spec of the error corpora, over pred.csv


def _run(tmp_path, extra: str, *, command="run", csv=CSV, spec=SPEC):
    (tmp_path / "pred.csv").write_text(csv)
    path = tmp_path / "spec.yaml"
    path.write_text(textwrap.dedent(spec) + extra)
    return main([command, str(path)] + (["--quiet"] if command == "run" else []))


@pytest.mark.parametrize("extra,message", [
    ("thresholds: {top_fraction: [0.1, 0]}\n",
     "spec.yaml:11: thresholds.top_fraction[1]: Input should be greater than 0 (got 0)"),
    ("thresholds:\n  recall: [0.9, 1.5]\n",
     "spec.yaml:12: thresholds.recall[1]: Input should be less than or equal to 1 (got 1.5)"),
    ("thresholds:\n  fpr: [-0.1]\n",
     "spec.yaml:12: thresholds.fpr[0]: Input should be greater than or equal to 0 (got -0.1)"),
    ("thresholds:\n  at: [.nan]\n",
     "spec.yaml:12: thresholds.at[0]: Input should be a finite number (got nan)"),
    ("thresholds: {}\n",
     "spec.yaml:11: thresholds: give at least one operating point: at, top_fraction, recall or fpr"),
    ("thresholds: {recal: [0.9]}\n",
     "spec.yaml:11: thresholds.recal: unknown key 'recal' (did you mean 'recall'?); valid keys here: "
     "at, top_fraction, recall, fpr"),
    ("metrics: [auc]\nthresholds: {at: [0.5]}\n",
     "spec.yaml:12: thresholds: thresholds asks for a threshold table, which the spec's metrics leave out: "
     "add threshold_table to metrics"),
])
def test_spec_errors_at_their_lines(tmp_path, capsys, extra, message):
    assert _run(tmp_path, extra, command="validate") == 2
    err = capsys.readouterr().err
    assert err.splitlines() == [f"error: {tmp_path}/{message}"]
    assert "Traceback" not in err


def test_a_multiclass_spec_refuses_thresholds(tmp_path, capsys):
    spec = """\
version: 1
task: multiclass
classes: [x, y, z]
data:
  - path: pred.csv
    label: y
    learners:
      a: [p_a, p_b, p_c]
thresholds:
  at: [0.5]
"""
    assert _run(tmp_path, "", command="validate", csv="y,p_a,p_b,p_c\nx,1,0,0\n", spec=spec) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"error: {tmp_path}/spec.yaml:9: thresholds: thresholds (a threshold table) is for binary tasks; "
        "a multiclass task decides by the class of highest score"]


@pytest.mark.slow
def test_results_json_and_report(tmp_path):
    spec = SPEC.replace("    id: id\n", "    id: id\n    weight: w\n").replace("[json]", "[json, html]")
    assert _run(tmp_path, "thresholds: {at: [0.5], top_fraction: [0.25], recall: [0], fpr: [0]}\n",
                spec=spec) == 0
    data = json.loads((tmp_path / "out" / "results.json").read_text())
    for key in ("a", "b"):
        lr = data["learners"][key]
        rows = lr["threshold_table"]
        assert [(r["kind"], r["target"]) for r in rows] == [("at", 0.5), ("top_fraction", 0.25), ("recall", 0),
                                                           ("fpr", 0)]
        assert list(rows[0]) == ["kind", "target", "threshold", "flagged", "tp", "fp", "tn", "fn",
                                 *ROW_MEASURES]
        # the row at the learner's own threshold (0.5) is its confusion matrix
        assert {k: rows[0][k] for k in ("tp", "fp", "tn", "fn")} == lr["confusion"]
        assert rows[0]["precision"] == lr["precision"] and rows[0]["recall"] == lr["recall"]
        assert len(lr["gains"]) == 10 and lr["gains"][-1] == {"flagged": 1.0, "captured": 1.0, "lift": 1.0,
                                                               "response_rate": lr["gains"][-1]["response_rate"]}
        # what the engine gives on the same data (tested against references above)
        raw = np.genfromtxt(tmp_path / "pred.csv", delimiter=",", names=True)
        want = operating_table(evaluate_binary(raw["y"] == 1, raw[f"p_{key}"], sample_weight=raw["w"]).counts)
        assert [g["captured"] for g in lr["gains"]] == [g.captured for g in want.gains]
        assert [g["lift"] for g in lr["gains"]] == [g.lift for g in want.gains]
    html = (tmp_path / "out" / "report.html").read_text()
    assert "Threshold table: the spec's operating points" in html
    assert "Cumulative gains and lift by decile" in html and 'data-figure="gains"' in html
    assert "top 25% flagged" in html and "FPR &lt;= 0" in html
    # recall >= 0 flags nothing: precision undefined, marked, and the warning under the table
    section = html[html.index('<section id="operating">'):html.index("Cumulative gains and lift by decile")]
    assert data["learners"]["a"]["threshold_table"][2]["precision"] is None
    assert '<td class="num undefined" title="learner &#39;a&#39;: threshold table, recall &gt;= 0 (nothing flagged)' \
        in section and '<ol class="cell-notes"><li value="1">learner &#39;a&#39;: threshold table, recall' in section


@pytest.mark.slow
def test_without_thresholds_only_the_gains(tmp_path):
    assert _run(tmp_path, "") == 0
    lr = json.loads((tmp_path / "out" / "results.json").read_text())["learners"]["a"]
    assert "threshold_table" not in lr and len(lr["gains"]) == 10
    assert _run(tmp_path, "metrics: [auc]\n") == 0
    assert "gains" not in json.loads((tmp_path / "out" / "results.json").read_text())["learners"]["a"]


@pytest.mark.slow
def test_duckdb_gives_the_same_table_as_memory(tmp_path):
    import duckdb  # noqa: F401
    extra = "thresholds: {at: [0.5], top_fraction: [0.1, 0.3], recall: [0.8], fpr: [0.2]}\n"
    assert _run(tmp_path, extra) == 0
    memory = json.loads((tmp_path / "out" / "results.json").read_text())["learners"]
    spec = SPEC.replace("    id: id\n", "    engine: duckdb\n")
    assert _run(tmp_path, extra, spec=spec) == 0
    duck = json.loads((tmp_path / "out" / "results.json").read_text())["learners"]
    for key in ("a", "b"):
        assert duck[key]["threshold_table"] == memory[key]["threshold_table"]
        assert duck[key]["gains"] == memory[key]["gains"]


def test_a_reduced_table_of_one_class_keeps_its_gains_exact():
    # between two kept rows the dropped ones hold positives only: TP is linear in the weight
    s = np.random.default_rng(2).random(2000)
    order = np.argsort(-s)
    result = reduce_count_stream(iter([(s[order], np.ones(2000, np.int64), np.zeros(2000, np.int64))]),
                                 positives=2000, negatives=0, n_rows=2000, cap=16)
    assert result.reduced
    gains = operating_table(result.table, None, result.reduction).gains
    assert [g.captured for g in gains] == pytest.approx([d / 10 for d in range(1, 11)], abs=1e-12)
    assert all(g.response_rate == pytest.approx(1.0) for g in gains)
