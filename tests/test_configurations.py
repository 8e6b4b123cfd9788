"""Replicates (issue 33, item 8): ``data[].replicates: seed`` groups the learners
that differ by the ``{seed}`` part of their names alone into one configuration;
each headline measure is summarised over the replicates (mean, sample sd, min,
max) and the configurations are ranked by the mean of the ranked measure.

The numbers are checked against values computed here, independently: the AUCs
with scikit-learn from the score files written in the test, the summaries with
NumPy and :mod:`statistics`."""

from __future__ import annotations

import json
import math
import statistics
import textwrap
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import evalreport
from evalreport.__main__ import main
from evalreport.compare.configurations import (
    Configuration,
    Summary,
    configuration_ranks,
    configurations,
    summarise,
)
from evalreport.errors import SpecError
from evalreport.spec.replicates import configuration_name, replicates_of, template_configuration
from evalreport.spec.patterns import PART

ROOT = Path(__file__).resolve().parent.parent
N = 60
CS, SEEDS = ["0.1", "1"], [0, 1, 2]


def _data(seed: int, strength: float):
    """Labels and scores of one run: a noisier run for a weaker configuration."""
    rng = np.random.default_rng(seed)
    y = (np.arange(N) % 3 == 0).astype(int)
    score = np.clip(0.5 + (y - 0.5) * strength + rng.normal(0, 0.25, N), 0.001, 0.999).round(4)
    return y, score


def _write_runs(tmp: Path) -> dict:
    """Three replicates of two configurations, each a folder C{c}_seed{seed}; the
    scores of each learner, by its name."""
    scores = {}
    for k, c in enumerate(CS):
        for seed in SEEDS:
            y, s = _data(100 * k + seed, 0.3 + 0.2 * k)
            folder = tmp / "runs" / f"C{c}_seed{seed}"
            folder.mkdir(parents=True)
            lines = ["id,y,score"] + [f"{i},{a},{b}" for i, (a, b) in enumerate(zip(y, s))]
            (folder / "p.csv").write_text("\n".join(lines) + "\n")
            scores[f"C{c}_seed{seed}"] = (y, s)
    return scores


def _spec(tmp: Path, text: str) -> Path:
    path = tmp / "spec.yaml"
    path.write_text(textwrap.dedent(text))
    return path


FILES = """\
version: 1
confidence: {bootstrap: 0}
data:
  - path: runs/C{c}_seed{seed}/p.csv
    label: y
    id: id
    replicates: seed
    learners: {"C{c}_seed{seed}": score}
report: {formats: [json], out: out}
"""


@pytest.mark.slow
def test_three_replicates_of_two_configurations(tmp_path):
    from sklearn.metrics import average_precision_score, roc_auc_score

    scores = _write_runs(tmp_path)
    result = evalreport.evaluate(_spec(tmp_path, FILES))
    configs = configurations(result)
    assert list(configs) == ["C0.1", "C1"]
    for c in CS:
        conf = configs[f"C{c}"]
        assert conf.replicates == tuple(f"C{c}_seed{s}" for s in SEEDS)
        assert conf.values == ("0", "1", "2") and conf.dataset is None
        for name, reference in (("auc", roc_auc_score), ("average_precision", average_precision_score)):
            xs = np.array([reference(*scores[k]) for k in conf.replicates])
            s = conf.measures[name]
            assert s.n == 3
            assert s.mean == pytest.approx(xs.mean(), abs=1e-12)
            assert s.sd == pytest.approx(np.std(xs, ddof=1), abs=1e-12)
            assert s.sd == pytest.approx(statistics.stdev(xs.tolist()), abs=1e-12)
            assert (s.min, s.max) == (pytest.approx(xs.min(), abs=1e-12), pytest.approx(xs.max(), abs=1e-12))
    # ranked by the mean AUC (rank_by's default without costs), higher first
    means = {k: np.mean([roc_auc_score(*scores[r]) for r in configs[k].replicates]) for k in configs}
    expected = sorted(means, key=lambda k: -means[k])
    assert [k for k, _ in configuration_ranks(configs, "auc")] == expected
    # results.json: the block, after the leaderboard, the numbers as above
    block = result.to_dict()["configurations"]
    assert list(block) == ["C0.1", "C1"]
    one = block["C1"]
    assert one["replicates"] == ["C1_seed0", "C1_seed1", "C1_seed2"]
    assert one["rank"] == expected.index("C1") + 1
    assert set(one["auc"]) == {"mean", "sd", "min", "max", "n"}
    assert one["auc"]["mean"] == pytest.approx(means["C1"], abs=1e-12)
    assert "dataset" not in one


def test_the_report_shows_the_configurations(tmp_path):
    _write_runs(tmp_path)
    result = evalreport.evaluate(_spec(tmp_path, FILES))
    from evalreport.report.configurations import configurations_context

    section = configurations_context(result)
    assert [r.name for r in section["rows"]] == [k for k, _ in configuration_ranks(configurations(result), "auc")]
    assert section["configurations"] == "2" and section["replicates"] == "3" and section["part"] == "seed"
    first = section["rows"][0].cells[0]
    assert " ± " in first.text and "–" in first.range
    # the replicate count's title names the replicates' seeds (it printed a dict method's repr, an address,
    # when the row's key was "values": Jinja reads r.values as the method)
    import re

    from evalreport.report.html import render_html

    html = render_html(result)
    assert re.findall(r'title="seed: ([^"]*)"', html) == ["0, 1, 2", "0, 1, 2"]


def test_a_regex_group_names_the_replicates(tmp_path):
    from sklearn.metrics import roc_auc_score

    y, _ = _data(0, 0.3)
    cols = {f"p_C{c}_seed{s}": _data(10 * k + s, 0.2 + 0.3 * k)[1] for k, c in enumerate(CS) for s in SEEDS}
    lines = ["id,y," + ",".join(cols)] + [f"{i},{y[i]}," + ",".join(str(v[i]) for v in cols.values())
                                         for i in range(N)]
    (tmp_path / "p.csv").write_text("\n".join(lines) + "\n")
    path = _spec(tmp_path, """\
        version: 1
        confidence: {bootstrap: 0}
        data:
          - path: p.csv
            label: y
            replicates: seed
            learners: {match: "p_(?P<name>C[0-9.]+_seed(?P<seed>[0-9]+))"}
        report: {formats: [json], out: out}
        """)
    result = evalreport.evaluate(path)
    configs = configurations(result)
    assert list(configs) == ["C0.1", "C1"]
    xs = [roc_auc_score(y, cols[f"p_C1_seed{s}"]) for s in SEEDS]
    assert configs["C1"].measures["auc"].mean == pytest.approx(statistics.fmean(xs), abs=1e-12)
    assert configs["C1"].measures["auc"].sd == pytest.approx(statistics.stdev(xs), abs=1e-12)


@pytest.mark.slow
def test_no_replicates_no_block(tmp_path):
    _write_runs(tmp_path)
    result = evalreport.evaluate(_spec(tmp_path, FILES.replace("    replicates: seed\n", "")))
    assert configurations(result) == {} and "configurations" not in result.to_dict()


def _errors(path: Path, capsys) -> list[str]:
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    with pytest.raises(SpecError):
        evalreport.load_spec(path)
    return [line.replace(str(path.parent) + "/", "") for line in err.splitlines()]


def test_replicates_naming_no_part_of_the_pattern(tmp_path, capsys):
    _write_runs(tmp_path)
    path = _spec(tmp_path, FILES.replace("replicates: seed", "replicates: sed"))
    assert _errors(path, capsys) == [
        "error: spec.yaml:7: data[0].replicates: replicates: 'sed' is not a part of the learner names' pattern "
        "(did you mean 'seed'?); its parts: c, seed (a part of the path only, or of the data set name, does "
        "not tell learners of one data set apart)"]


def test_replicates_in_the_path_only(tmp_path, capsys):
    _write_runs(tmp_path)
    path = _spec(tmp_path, FILES.replace('learners: {"C{c}_seed{seed}": score}',
                                         'learners: {"C{c}": score}\n    dataset: "s{seed}"'))
    lines = _errors(path, capsys)
    assert len(lines) == 1 and "data[0].replicates: replicates: 'seed' is not a part of the learner names' " \
        "pattern; its parts: c (a part of the path only" in lines[0]


def test_replicates_without_a_pattern(tmp_path, capsys):
    (tmp_path / "p.csv").write_text("id,y,a\n1,1,0.9\n2,0,0.2\n")
    path = _spec(tmp_path, """\
        version: 1
        data:
          - {path: p.csv, label: y, replicates: seed, learners: {a: a}}
        """)
    lines = _errors(path, capsys)
    assert len(lines) == 1
    assert lines[0].startswith("error: spec.yaml:3: data[0].replicates: replicates: 'seed' names the part of "
                               "the learner names' pattern that tells replicates apart, and no learner name")


def test_a_configuration_named_as_another_learner(tmp_path, capsys):
    _write_runs(tmp_path)
    (tmp_path / "runs" / "C1").mkdir()
    (tmp_path / "runs" / "C1" / "q.csv").write_text((tmp_path / "runs" / "C1_seed0" / "p.csv").read_text())
    text = FILES.replace("report:", "  - {path: runs/C1/q.csv, label: y, id: id, learners: {C1: score}}\nreport:")
    path = _spec(tmp_path, text)
    lines = _errors(path, capsys)
    assert lines == ["error: spec.yaml:7: data[0].replicates: the configuration 'C1' (the learners' names "
                     "without their seed) is also the name of a learner of the same data set: rename one"]


# the naming rule

@pytest.mark.parametrize("template, values, expected", [
    ("C{c}_seed{seed}", {"c": "0.1", "seed": "2"}, "C0.1"),
    ("C{c}-s{seed}", {"c": "1", "seed": "2"}, "C1"),
    ("C{c}seed{seed}", {"c": "1", "seed": "2"}, "C1"),
    ("lr_{seed}_C{c}", {"c": "1", "seed": "2"}, "lr_C1"),
    ("{seed}_C{c}", {"c": "1", "seed": "2"}, "C1"),
    ("{m}{seed}", {"m": "lr", "seed": "2"}, "lr"),  # a filled part is never taken for the label
    ("run{seed}", {"seed": "2"}, "run*"),
    ("C{c}", {"c": "1", "seed": "2"}, None),
])
def test_the_configuration_of_a_template(template, values, expected):
    assert template_configuration(template, "seed", values, PART) == expected


def test_configuration_name_of_a_name():
    assert configuration_name("", "C0.1_seed", "3", "") == "C0.1"
    assert configuration_name("", "", "3", "") == "*"


# the summaries and the ranks

_finite = st.floats(-1e6, 1e6, allow_nan=False)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(_finite, st.none()), max_size=8))
def test_summarise_is_numpys(values):
    s = summarise(values)
    xs = [v for v in values if v is not None]
    assert s.n == len(xs)
    if not xs:
        assert s == Summary(None, None, None, None, 0)
        return
    assert s.mean == pytest.approx(statistics.fmean(xs), rel=1e-9, abs=1e-6)
    assert (s.min, s.max) == (min(xs), max(xs))
    if len(xs) == 1:
        assert s.sd is None
    else:
        assert s.sd == pytest.approx(float(np.std(xs, ddof=1)), rel=1e-7, abs=1e-6)
    # the mean of the same values in another order is the same float (ties stay ties)
    assert summarise(list(reversed(values))).mean == s.mean


def test_summarise_leaves_out_nan():
    assert summarise([1.0, math.nan, 3.0]) == Summary(2.0, math.sqrt(2.0), 1.0, 3.0, 2)


def _conf(name, xs, dataset=None):
    return Configuration(name, dataset, (name,), ("",), {"auc": summarise(xs), "min_cost": summarise(xs)})


def test_ties_share_a_rank_and_undefined_comes_last():
    configs = {"a": _conf("a", [0.7, 0.9]), "b": _conf("b", [0.9, 0.7]), "c": _conf("c", [0.95]),
               "d": _conf("d", [None]), "e": _conf("e", [0.5])}
    assert configuration_ranks(configs, "auc") == [("c", 1), ("a", 2), ("b", 2), ("e", 4), ("d", None)]
    # lower is better for a cost
    assert configuration_ranks(configs, "min_cost") == [("e", 1), ("a", 2), ("b", 2), ("c", 4), ("d", None)]


def test_each_data_set_is_ranked_apart():
    configs = {"a@x": _conf("a", [0.6], "x"), "b@x": _conf("b", [0.8], "x"), "a@y": _conf("a", [0.9], "y")}
    assert configuration_ranks(configs, "auc") == [("b@x", 1), ("a@x", 2), ("a@y", 1)]


@pytest.mark.slow
def test_experiment_runs_groups_twenty_runs_into_five_configurations():
    spec = evalreport.load_spec(ROOT / "examples" / "experiment_runs" / "spec.yaml")
    mapping = replicates_of(spec)
    assert len(mapping) == 20
    assert sorted({c for c, _ in mapping.values()}) == ["C0.001", "C0.01", "C0.1", "C1", "C10"]
    assert mapping[(None, "C0.1_seed2")] == ("C0.1", "2")
    result = evalreport.evaluate(spec)
    configs = configurations(result)
    assert list(configs) == ["C0.001", "C0.01", "C0.1", "C1", "C10"]
    assert all(len(c.replicates) == 4 for c in configs.values())
    # min_cost is ranked (the spec's rank_by); its mean against the learners' own values
    for c in configs.values():
        xs = [result.learners[k].values["min_cost"] for k in c.replicates]
        assert c.measures["min_cost"].mean == pytest.approx(float(np.mean(xs)), abs=1e-12)
        assert c.measures["min_cost"].sd == pytest.approx(float(np.std(xs, ddof=1)), abs=1e-12)
    block = json.loads(json.dumps(result.to_dict()))["configurations"]
    assert sorted(block[k]["rank"] for k in block) == [1, 2, 3, 4, 5]


def test_multiclass_replicates(tmp_path):
    """A multi-class learner's columns from {class}, its runs from {seed}: accuracy
    summarised against the accuracy computed here from the argmax of the scores."""
    classes = ["a", "b", "c"]
    accuracy = {}
    for seed in SEEDS:
        rng = np.random.default_rng(seed)
        y = np.arange(N) % 3
        p = rng.dirichlet([1, 1, 1], N) + np.eye(3)[y] * 0.6
        folder = tmp_path / "runs" / f"mlp_seed{seed}"
        folder.mkdir(parents=True)
        lines = ["id,y,p_a,p_b,p_c"] + [f"{i},{classes[y[i]]}," + ",".join(f"{v:.4f}" for v in p[i])
                                        for i in range(N)]
        (folder / "p.csv").write_text("\n".join(lines) + "\n")
        accuracy[seed] = float(np.mean(np.argmax(np.round(p, 4), axis=1) == y))
    path = _spec(tmp_path, """\
        version: 1
        task: multiclass
        classes: [a, b, c]
        confidence: {bootstrap: 0}
        data:
          - path: runs/mlp_seed{seed}/p.csv
            label: y
            id: id
            replicates: seed
            learners: {"mlp_seed{seed}": {columns: "p_{class}"}}
        report: {formats: [json], out: out}
        """)
    result = evalreport.evaluate(path)
    configs = configurations(result)
    assert list(configs) == ["mlp"]
    s = configs["mlp"].measures["accuracy"]
    xs = [accuracy[seed] for seed in SEEDS]
    assert (s.mean, s.n) == (pytest.approx(statistics.fmean(xs), abs=1e-12), 3)
    assert s.sd == pytest.approx(statistics.stdev(xs), abs=1e-12)
    assert list(configs["mlp"].measures)[0] == "auc"  # the ranked measure first (auc without costs)
    assert result.to_dict()["configurations"]["mlp"]["rank"] == 1
