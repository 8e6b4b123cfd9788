"""Past a handful of learners the report summarises (report/summary.py): the
figures and the per-learner details show the top learners by least cost, always
with the deployed one; the tables of measures and results.json keep every
learner; the pairwise matrices become heatmaps; a note says so."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from evalreport.__main__ import main
from evalreport.report.summary import SHOWN_LEARNERS

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from many_learners import write_case  # noqa: E402  (the benchmark's data and spec)

N = 30
NAME = re.compile(r"\bm\d{3}\b")


def _svg(html: str, name: str) -> str:
    start = html.index(f'data-figure="{name}"')
    return html[start:html.index("</svg>", start)]


def _names(text: str) -> set[str]:
    return set(NAME.findall(text))


def _run(folder: Path, n: int, formats: str, extra: str = "") -> Path:
    spec = write_case(folder, n, rows=400, seed=0, bootstrap=0)
    if extra:
        spec.write_text(spec.read_text() + extra)
    assert main(["run", str(spec), "--out", str(folder / "out"), "--format", formats, "--quiet"]) in (0, 3)
    return folder / "out"


@pytest.fixture(scope="module")
def many(tmp_path_factory):
    out = _run(tmp_path_factory.mktemp("many"), N, "html,pdf,json")
    results = json.loads((out / "results.json").read_text())
    return out, (out / "report.html").read_text(), results


def _emphasised(results) -> list[str]:
    """The learners drawn in colour past six (issue 34), read off results.json's verdict: the
    deployed one, the leader and those tied with it, the superior then non-inferior challengers."""
    v = results["verdict"]
    picked = [v["deployed"]] if v["deployed"] else []
    if v["leader"]:
        picked += [v["leader"]["learner"], *v["leader"]["tied"]]
    for flag in ("superior", "non_inferior"):
        picked += [k for k, t in v["challengers"].items() if t[flag]]
    return list(dict.fromkeys(picked))[:6]


def _expected_shown(results) -> list[str]:
    """The deployed learner, those in colour, those on the cost envelope, then the least-cost ranking's."""
    c = results["comparisons"]
    order = c["rankings"]["min_cost"]
    picked = [c["winner_at_operating_point"]]
    for key in _emphasised(results) + sorted({iv["learner"] for iv in c["cost_envelope"]}, key=order.index) \
            + order:
        if key not in picked and len(picked) < SHOWN_LEARNERS:
            picked.append(key)
    return picked


@pytest.mark.slow
def test_figures_draw_only_the_top_learners(many):
    _, html, results = many
    shown = set(_expected_shown(results))
    assert len(shown) == SHOWN_LEARNERS
    for figure in ("roc", "pr", "cost"):
        assert _names(_svg(html, figure)) == shown, figure
    # the headline chart names the learners in colour; the others are its grey dots
    coloured = set(_emphasised(results)) & shown
    assert coloured and coloured <= _names(_svg(html, "scalars")) <= shown
    assert f"{len(shown - coloured)} other learners (grey)" in _svg(html, "scalars")
    # the reliability diagrams and confusion matrices: the same learners only
    diagrams = set(re.findall(r'data-figure="reliability-\d+"[^>]*aria-label="[^"]*?(m\d{3})', html))
    assert diagrams == shown
    confusions = set(re.findall(r'<table class="confusion">\s*<caption>.*?(m\d{3})', html, flags=re.S))
    assert confusions == shown


@pytest.mark.slow
def test_pdf_figures_hold_only_the_top_learners_legends(many):
    out, _, results = many
    shown = set(_expected_shown(results))
    text = subprocess.run(["pdftotext", "-layout", str(out / "report.pdf"), "-"], capture_output=True,
                          text=True, check=True).stdout
    # the ROC legend's entries: "name (AUC 0.xxx)" for the learners in colour, one entry for the grey ones
    legend = set(re.findall(r"\b(m\d{3}) \(AUC \d\.\d{3}\)", text))
    coloured = set(_emphasised(results)) & shown
    assert legend == coloured
    assert f"{len(shown - coloured)} other learners (grey)" in text


def test_every_learner_in_the_tables_and_results_json(many):
    _, html, results = many
    assert len(results["learners"]) == N
    assert len(results["comparisons"]["delong"]) == N * (N - 1) // 2
    assert len(results["comparisons"]["envelopment"]) == N * (N - 1) // 2
    start = html.index("<h3>Ranking (every threshold)</h3>")
    table = html[start:html.index("</table>", start)]
    assert _names(table) == {f"m{i:03d}" for i in range(N)}


def test_the_summary_note_and_heatmaps(many):
    _, html, results = many
    shown = [k for k in results["learners"] if k in set(_expected_shown(results))]
    note = (f"{N} learners: past {SHOWN_LEARNERS}, the report summarises (a figure of {N} curves cannot be "
            f"read, nor {N} sets of per-learner details). The figures, the headline table and the per-learner "
            f"details (confusion matrices, per-group tables, threshold and gains tables, reliability diagrams) "
            f"show the top {SHOWN_LEARNERS} by least expected cost at the operating point, always with the "
            f"deployed one: {', '.join(shown)}. The leaderboard and the tables of measures list every learner; "
            f"the table of tests lists each learner against the best and the significant pairs among those "
            f"shown;")
    assert note in html
    # DeLong's and McNemar's tests in one square, above and below the diagonal (issue 25)
    for fig in ("envelopment-map-0", "tests-map-0"):
        assert f'data-figure="{fig}"' in html
    assert 'data-figure="delong-map-0"' not in html and 'data-figure="mcnemar-map-0"' not in html
    assert '<table class="matrix">' not in html  # no N x N table
    # the tests table: the pairs that matter (issue 25): each against the leaderboard's best, and
    # the pairs among the shown learners significant after Holm (DeLong's or McNemar's)
    start = html.index("<h3>Tests of significance</h3>")
    rows = html[start:html.index("</table>", start)].count("<tr>") - 1
    best = results["leaderboard"]["rows"][0]["learner"]
    holm = {}
    for test in ("delong", "mcnemar"):
        for t in results["comparisons"][test]:
            pair = frozenset((t["a"], t["b"]))
            holm[pair] = min(holm.get(pair, 1.0), t["p_holm"] if t["p_holm"] is not None else 1.0)
    significant = {pair for pair, p in holm.items() if p < 0.05 and pair <= set(shown) and best not in pair}
    assert rows == (N - 1) + len(significant)
    assert f"({rows} of {N * (N - 1) // 2})" in html


def test_heatmap_cells_name_their_pair_in_the_html_only(many):
    """Each cell of the HTML's heatmaps carries its pair and verdict or Holm p as an
    SVG <title> (a tooltip): the envelopment's upper triangle, both triangles of the
    tests' square (DeLong's above, McNemar's below); the PDF's copies carry none."""
    from evalreport.figures.pairs import without_titles
    from evalreport.report.format import p_text

    _, html, results = many
    envelopment, tests = _svg(html, "envelopment-map-0"), _svg(html, "tests-map-0")
    # one more <title>, the figure's own first: its alt text (the PDF's /Alt)
    assert envelopment.count("<title>") == N * (N - 1) // 2 + 1
    assert tests.count("<title>") == N * (N - 1) + 1
    for test in ("delong", "mcnemar"):
        t = results["comparisons"][test][0]
        said = re.escape(p_text(t["p_holm"]).replace("<", "&lt;"))
        assert re.search(rf"<title>({t['a']} vs {t['b']}|{t['b']} vs {t['a']}): Holm {said}", tests)
    assert "each cell names its pair and its verdict or p-value on hover" in html
    assert without_titles(tests).count("<title>") == 1


def test_pdf_stays_small(many):
    out, _, _ = many
    pages = subprocess.run(["pdfinfo", str(out / "report.pdf")], capture_output=True, text=True,
                           check=True).stdout
    n_pages = int(re.search(r"Pages:\s+(\d+)", pages).group(1))
    assert n_pages <= 17  # 156 pages at 50 learners before summarising; 17 when issue 34 set the limit


@pytest.mark.slow
def test_the_deployed_learner_is_shown_even_when_ranked_low(tmp_path):
    # the spec names a weak learner deployed: it ranks far down by cost, yet it is drawn
    first = _run(tmp_path / "first", 20, "json")
    results = json.loads((first / "results.json").read_text())
    order = results["comparisons"]["rankings"]["min_cost"]
    deployed = order[-1]
    assert order.index(deployed) >= SHOWN_LEARNERS  # the test means something
    out = _run(tmp_path / "second", 20, "html,json", f"deployed: {deployed}\n")
    results = json.loads((out / "results.json").read_text())
    html = (out / "report.html").read_text()
    assert results["verdict"]["deployed"] == deployed
    assert deployed in _names(_svg(html, "roc"))
    assert len(_names(_svg(html, "roc"))) == SHOWN_LEARNERS


@pytest.mark.slow
def test_a_small_report_is_unchanged(tmp_path):
    out = _run(tmp_path, SHOWN_LEARNERS, "html,json")
    html = (out / "report.html").read_text()
    everyone = {f"m{i:03d}" for i in range(SHOWN_LEARNERS)}
    assert "the report summarises" not in html
    assert _names(_svg(html, "roc")) == everyone
    assert '<table class="matrix">' in html and "heatmap" not in html
    confusions = set(re.findall(r'<table class="confusion">\s*<caption>.*?(m\d{3})', html, flags=re.S))
    assert confusions == everyone


def test_vectorised_pair_tests_give_the_same_numbers():
    """pair_tests runs DeLong's and McNemar's tests a learner against all after it
    in one call; every pair's result equals the one-pair functions' exactly."""
    from itertools import combinations

    from evalreport.compare import pair_tests
    from evalreport.compare import stats

    rng = np.random.default_rng(3)
    n = 700
    y = rng.random(n) < 0.3
    scores = {f"s{i}": np.round(rng.normal(size=n) + rng.random() * 2 * y, i % 3 + 1) for i in range(12)}
    scores["hard"] = None
    decisions = {k: (s >= 0.5 if s is not None else rng.random(n) < 0.4) for k, s in scores.items()}
    keys = list(scores)
    tests = pair_tests(keys, y, scores, decisions, None, frozenset({"delong", "mcnemar"}), 0.9,
                       mcnemar_method="auto")
    components = {k: stats.structural_components(y, s) for k, s in scores.items() if s is not None}
    assert [(t.a, t.b) for t in tests] == list(combinations(keys, 2))
    for t in tests:
        mc = stats.mcnemar(y, decisions[t.a], decisions[t.b], method="auto")
        assert t.mcnemar == mc.__class__(**{**mc.__dict__, "p_holm": t.mcnemar.p_holm})
        if "hard" in (t.a, t.b):
            assert t.delong is None
            continue
        one = stats.delong_paired_components(components[t.a], components[t.b], level=0.9)
        assert t.delong == one.__class__(**{**one.__dict__, "p_holm": t.delong.p_holm})


def test_poor_calibration_names_the_best_calibrated_few(many):
    _, html, results = many
    ece = {k: v["ece"] for k, v in results["learners"].items()}
    # confidence.bootstrap: 0 here: the lower ECEs are named, not called better (no paired interval)
    sentence = re.search(r"<li>(m\d{3}) ranks first[^<]*?have a lower ECE, not tested", html)
    assert sentence is not None
    first = sentence.group(1)
    better = sorted((k for k in ece if k != first and ece[k] < ece[first]), key=ece.get)
    assert len(better) > 4  # the test means something
    assert f"; {better[0]} (" in sentence.group(0)
    assert f"and {len(better) - 4} others have a lower ECE, not tested" in sentence.group(0)
    assert "calibrated better" not in html


@pytest.mark.slow
def test_multiclass_summarises_too(tmp_path):
    rng = np.random.default_rng(5)
    n, k = 300, 12
    y = rng.integers(0, 3, n)
    cols, learners = {"id": np.arange(n), "y": y}, []
    for i in range(k):
        logits = rng.normal(size=(n, 3)) + (0.3 + 2.5 * rng.random()) * np.eye(3)[y]
        p = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
        names = [f"m{i:03d}_{c}" for c in "abc"]
        cols.update(zip(names, p.T))
        learners.append(f"      m{i:03d}: [{', '.join(names)}]")
    lines = [",".join(cols)] + [",".join(f"{cols[c][r]:.6g}" for c in cols) for r in range(n)]
    (tmp_path / "pred.csv").write_text("\n".join(lines) + "\n")
    (tmp_path / "spec.yaml").write_text(
        "version: 1\ntitle: t\ndate: 2026-11-22\ntask: multiclass\nclasses: [0, 1, 2]\ndata:\n"
        "  - path: pred.csv\n    label: y\n    id: id\n    learners:\n" + "\n".join(learners)
        + "\nconfidence: {bootstrap: 0}\nreport: {formats: [html, json], out: out}\n")
    assert main(["run", str(tmp_path / "spec.yaml"), "--quiet"]) in (0, 3)
    html = (tmp_path / "out" / "report.html").read_text()
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    assert len(results["learners"]) == k
    note = re.search(r"12 learners: past 8, the report summarises \(.*?show the top 8 by ([^,]+), always with "
                     r"the deployed one: ([^.]+)\.", html)
    assert note is not None
    shown = set(note.group(2).split(", "))
    (measure, order), *_ = results["comparisons"]["rankings"].items()
    assert measure in ("accuracy", "macro_f1", "macro_auc") and note.group(1) != "the result's order"
    assert shown == set(order[:SHOWN_LEARNERS])  # no gates: the deployed one is the first
    # the headline chart names the learners in colour (here the leader), the others grey dots
    named = _names(_svg(html, "scalars"))
    assert set(_emphasised(results)) & shown <= named <= shown and named
    blocks = set(re.findall(r'<div class="learner-block">\s*<h3>.*?(m\d{3})', html, flags=re.S))
    assert blocks == shown
    roc = set(re.findall(r'data-figure="roc-\d+"[^>]*aria-label="[^"]*?(m\d{3})', html))
    assert roc == shown
    start = html.index('<section id="measures">')
    table = html[start:html.index("</table>", start)]
    assert _names(table) == {f"m{i:03d}" for i in range(k)}


def test_thresholds_said_by_kind(many):
    _, html, _ = many
    assert "Thresholds: every learner: least-cost threshold at PC(+). Predicted positive" in html
    assert "m001: least-cost threshold" not in html


def test_threshold_notes_of_mixed_kinds():
    from evalreport.report.binary import _threshold_notes

    # _threshold_notes reads a row's key and threshold_note (report/binary.py's BinaryLearnerRow)
    rows = [SimpleNamespace(key=k, threshold_note=n) for k, n in
            (("a", "spec threshold"), ("b", "learner's own threshold"), ("c", "spec threshold"),
             ("d", "learner's own threshold"), ("e", "spec threshold"), ("f", "hard decisions"))]
    assert _threshold_notes(rows) == ("b, d: learner's own threshold; f: hard decisions; "
                                      "every other learner: spec threshold")


@pytest.mark.parametrize("formats", ["json", "html,json"])
def test_past_the_pairwise_limit_the_pairs_are_left_out_with_a_warning(tmp_path, monkeypatch, capsys, formats):
    # issue 36: 1,000 learners of one data set (499,500 pairs) ran past a minute; past
    # MAX_PAIRED_LEARNERS the pairwise comparisons are left out, said in one warning
    import evalreport.compare as compare

    monkeypatch.setattr(compare, "MAX_PAIRED_LEARNERS", 4)
    spec = write_case(tmp_path, 6, rows=200, seed=1, bootstrap=0)
    assert main(["run", str(spec), "--out", str(tmp_path / "out"), "--format", formats, "--quiet"]) in (0, 3)
    err = capsys.readouterr().err
    assert "Traceback" not in err
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    c = results["comparisons"]
    assert all(not c.get(name) for name in ("delong", "mcnemar", "envelopment"))
    said = ("compare: 6 learners are 15 pairs: the pairwise comparisons (delong, envelopment, mcnemar, paired_t) "
            "are made for at most 4 learners of a data set and are left out (the rankings, intervals and cost "
            "envelope are kept); compare fewer learners per data set to have them")
    assert said in results["warnings"]
    # the learners are all there, each ranked, with DeLong's interval of its AUC (one per learner)
    assert len(results["learners"]) == 6 and len(c["rankings"]["auc"]) == 6
    assert all(lr["auc_ci"] is not None for lr in results["learners"].values())


def test_ranking_disagreements_match_a_plain_search():
    # the places are looked up once per ranking: the same disagreements as searching the orders
    from itertools import combinations

    from evalreport.compare import Ranking, ranking_disagreements

    rng = np.random.default_rng(5)
    keys = [f"k{i}" for i in range(12)]
    rankings = []
    for m in ("x", "y", "z"):
        values = {k: float(v) for k, v in zip(keys, rng.integers(0, 5, len(keys)))}
        kept = [k for k in keys if rng.random() > 0.2]
        rankings.append(Ranking(m, tuple(sorted(kept, key=lambda k: -values[k])), values))
    expected = []
    for a, b in combinations(keys, 2):
        pa = [r.measure for r in rankings if a in r.order and b in r.order and r.values[a] != r.values[b]
              and r.order.index(a) < r.order.index(b)]
        pb = [r.measure for r in rankings if a in r.order and b in r.order and r.values[a] != r.values[b]
              and r.order.index(b) < r.order.index(a)]
        if pa and pb:
            expected.append((a, b, tuple(pa), tuple(pb)))
    got = [(d.a, d.b, d.prefer_a, d.prefer_b) for d in ranking_disagreements(rankings, keys)]
    assert got == expected and expected
