"""engine: duckdb (and spark) through the whole pipeline give the in-memory numbers."""

import json
import textwrap

import numpy as np
import pytest

from evalreport.__main__ import main
from evalreport.metrics.threshold_text import threshold_value

MEASURES = ("auc", "rank_loss", "average_precision", "bep", "expected_total_cost", "precision",
            "recall", "f1", "error_rate")


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    import pyarrow as pa
    import pyarrow.parquet as pq

    tmp = tmp_path_factory.mktemp("engines")
    rng = np.random.default_rng(3)
    n = 5000
    y = np.where(rng.random(n) < 0.3, "yes", "no")
    a = rng.random(n) + 0.4 * (y == "yes")
    b = np.round(rng.random(n) + 0.2 * (y == "yes"), 2)  # ties
    w = rng.integers(0, 4, n).astype(float)
    for k in range(3):
        pq.write_table(pa.table({"y": y[k::3], "a": a[k::3], "b": b[k::3], "w": w[k::3]}), tmp / f"part{k}.parquet")
    pq.write_table(pa.table({"y": y, "a": a, "b": b, "w": w}), tmp / "all.parquet")
    return tmp


def _run(tmp, name, source, extra=""):
    (tmp / f"{name}.yaml").write_text(textwrap.dedent(f"""\
        version: 1
        date: 2026-11-22
        positive: "yes"
        data:
          - {{{source}, label: y, learners: {{a: a, b: b}}{extra}}}
        confidence: {{bootstrap: 0}}
        report: {{formats: [json], out: {name}}}
        """))
    status = main(["run", str(tmp / f"{name}.yaml"), "--quiet"])
    out = tmp / name / "results.json"
    return status, (json.loads(out.read_text()) if out.exists() else None)


@pytest.mark.slow
@pytest.mark.parametrize("weighted", [False, True])
def test_duckdb_equals_memory(data, weighted):
    extra = ", weight: w" if weighted else ""
    _, mem = _run(data, f"mem{weighted}", "path: all.parquet", extra)
    status, duck = _run(data, f"duck{weighted}", 'path: "part*.parquet", engine: duckdb', extra)
    assert status == 0
    for learner in "ab":
        for m in MEASURES:
            assert duck["learners"][learner][m] == pytest.approx(mem["learners"][learner][m], abs=1e-9), m
        if not weighted:  # integer counts: the very same curves
            assert duck["learners"][learner]["curves"]["roc"] == mem["learners"][learner]["curves"]["roc"]
    assert duck["comparisons"]["envelopment"] == mem["comparisons"]["envelopment"]
    assert duck["inputs"][0]["rows"] == 5000


def test_duckdb_resolution_reports_a_bound_that_holds(data):
    _, mem = _run(data, "memr", "path: all.parquet")
    status, res = _run(data, "res", 'path: "part*.parquet", engine: duckdb, resolution: 0.05')
    assert status == 0
    for learner in "ab":
        bound = res["learners"][learner]["resolution_bound"]
        for m in ("auc", "average_precision", "bep"):
            assert abs(res["learners"][learner][m] - mem["learners"][learner][m]) <= bound[m] + 1e-12


def test_duckdb_data_errors_are_clear(data, capsys):

    (data / "bad.yaml").write_text(textwrap.dedent("""\
        version: 1
        data:
          - {path: "part*.parquet", engine: duckdb, label: y, learners: {a: a_score}}
        report: {formats: [json], out: bad}
        """))
    assert main(["run", str(data / "bad.yaml"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "a_score" in err and "data[0].learners.a.score" in err and "Traceback" not in err
    (data / "nofile.yaml").write_text(textwrap.dedent("""\
        version: 1
        data:
          - {path: "nothing*.parquet", engine: duckdb, label: y, learners: {a: a}}
        report: {formats: [json], out: bad}
        """))
    assert main(["run", str(data / "nofile.yaml"), "--quiet"]) == 2
    assert "no file matches nothing*.parquet" in capsys.readouterr().err


def test_engine_spec_limits(data, capsys):
    (data / "lim.yaml").write_text(textwrap.dedent("""\
        version: 1
        data:
          - {path: all.parquet, engine: duckdb, label: y, learners: {a: a, r: {predicted: a}}}
        report: {formats: [json], out: lim}
        """))
    assert main(["run", str(data / "lim.yaml"), "--quiet"]) == 2
    assert "hard decisions need engine: memory" in capsys.readouterr().err


@pytest.mark.slow
def test_duckdb_groups_equal_memory(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(8)
    n = 3000
    y = (rng.random(n) < 0.35).astype(np.int8)
    pq.write_table(pa.table({"y": y, "a": np.round(rng.random(n) + 0.4 * y, 3),
                             "fold": rng.integers(0, 4, n)}), tmp_path / "p.parquet")
    out = {}
    for engine in ("memory", "duckdb"):
        (tmp_path / f"{engine}.yaml").write_text(textwrap.dedent(f"""\
            version: 1
            data:
              - {{path: p.parquet, engine: {engine}, label: y, group: fold, learners: {{a: a}}}}
            confidence: {{bootstrap: 0}}
            report: {{formats: [json], out: {engine}}}
            """))
        assert main(["run", str(tmp_path / f"{engine}.yaml"), "--quiet"]) == 0
        out[engine] = json.loads((tmp_path / engine / "results.json").read_text())["learners"]["a"]
    assert out["duckdb"]["groups"] == out["memory"]["groups"]
    assert out["duckdb"]["groups_macro"] == pytest.approx(out["memory"]["groups_macro"])
    assert out["duckdb"]["auc"] == pytest.approx(out["memory"]["auc"], abs=1e-12)


@pytest.mark.slow
def test_spark_equals_memory(data):
    pytest.importorskip("pyspark")
    _, mem = _run(data, "mems", "path: all.parquet")
    spec = _spark_spec(data, "spark", 'master: "local[2]", conf: {spark.ui.enabled: "false", '
                                      'spark.sql.shuffle.partitions: "2"}')
    assert main(["run", str(spec), "--quiet"]) == 0
    _spark_equals(data / "spark", mem)


def _spark_spec(data, out: str, session: str):
    """A spec of learners a and b through engine: spark, with the session ``{session}``."""
    spec = data / f"{out}.yaml"
    spec.write_text(textwrap.dedent(f"""\
        version: 1
        date: 2026-11-22
        positive: "yes"
        data:
          - {{path: all.parquet, engine: spark, label: y, learners: {{a: a, b: b}}}}
        spark: {{{session}}}
        confidence: {{bootstrap: 0}}
        report: {{formats: [json], out: {out}}}
        """))
    return spec


def _spark_equals(out_dir, mem):
    got = json.loads((out_dir / "results.json").read_text())
    for learner in "ab":
        for m in MEASURES:
            assert got["learners"][learner][m] == pytest.approx(mem["learners"][learner][m], abs=1e-9)


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["duckdb", "spark"])
def test_multiclass_through_an_engine_equals_memory(tmp_path, engine):
    if engine == "spark":
        pytest.importorskip("pyspark")
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(4)
    n, classes = 2000, ["cat", "dog", "bird"]
    y = rng.integers(0, 3, n)
    logits = np.round(rng.normal(size=(n, 3)) + 1.2 * np.eye(3)[y], 2)
    p = np.round(np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True), 3)
    pq.write_table(pa.table({"y": np.array(classes)[y], "a": p[:, 0], "b": p[:, 1], "c": p[:, 2]}),
                   tmp_path / "p.parquet")
    out = {}
    spark = ('spark: {master: "local[2]", conf: {spark.ui.enabled: "false", '
             'spark.sql.shuffle.partitions: "2"}}')
    for name in ("memory", engine):
        (tmp_path / f"{name}.yaml").write_text(textwrap.dedent(f"""\
            version: 1
            task: multiclass
            classes: [cat, dog, bird]
            data:
              - {{path: p.parquet, engine: {name}, label: y, learners: {{m: [a, b, c]}}}}
            priors: {{cat: 0.5, dog: 0.3, bird: 0.2}}
            costs: {{matrix: [[0, 1, 4], [2, 0, 1], [1, 1, 0]]}}
            report: {{formats: [json], out: {name}}}
            """) + (spark + "\n" if name == "spark" else ""))
        assert main(["run", str(tmp_path / f"{name}.yaml"), "--quiet"]) == 0
        out[name] = json.loads((tmp_path / name / "results.json").read_text())["learners"]["m"]
    mem, duck = out["memory"], out[engine]
    assert duck["confusion_matrix"] == mem["confusion_matrix"]
    for block in ("macro", "micro"):
        assert duck[block] == pytest.approx(mem[block], abs=1e-12)
    for c in classes:
        d, m = dict(duck["classes"][c]), dict(mem["classes"][c])
        assert d.pop("fbeta") == pytest.approx(m.pop("fbeta"), abs=1e-12)
        assert d == pytest.approx(m, abs=1e-12)
    assert duck["cost_sensitive_error"] == pytest.approx(mem["cost_sensitive_error"], abs=1e-12)
    assert "bayes_decision_cost" not in duck  # needs each instance's scores


def _numbers_equal(a, b, path=""):
    """Every number of ``a`` equals ``b``'s to 1e-9 (ints exactly), key for key."""
    if isinstance(a, dict):
        assert set(a) == set(b), path
        for k in a:
            _numbers_equal(a[k], b[k], f"{path}/{k}")
    elif isinstance(a, list):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b)):
            _numbers_equal(x, y, f"{path}[{i}]")
    elif isinstance(a, float) or isinstance(b, float):
        assert a is not None and b is not None and abs(a - b) <= 1e-9, (path, a, b)
    else:
        assert a == b, (path, a, b)


@pytest.mark.slow
@pytest.mark.parametrize("threshold", ["0.5", "optimal"])
@pytest.mark.parametrize("weighted", [False, True], ids=["counts", "weights"])
def test_duckdb_reduced_tables_equal_memory(tmp_path, monkeypatch, threshold, weighted):
    """Continuous scores, a count table far longer than the cap: streamed and
    reduced, every number of results.json but the drawn ROC and P-R curves equals
    the in-memory run's, groups included."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    import evalreport.engines.duckdb as engine
    import evalreport.metrics.stream as stream

    monkeypatch.setattr(stream, "DEFAULT_CAP", 64)
    monkeypatch.setattr(engine, "BATCH_ROWS", 333)
    rng = np.random.default_rng(12)
    n = 6000
    y = np.where(rng.random(n) < 0.3, "yes", "no")
    pq.write_table(pa.table({"y": y, "a": rng.normal(size=n) + 0.9 * (y == "yes"),
                             "b": rng.random(n) + 0.3 * (y == "yes"),
                             "w": rng.integers(0, 4, n).astype(float),
                             "fold": np.array(["f1", "f2", "f3"])[rng.integers(0, 3, n)]}),
                   tmp_path / "p.parquet")
    out = {}
    for eng in ("memory", "duckdb"):
        (tmp_path / f"{eng}.yaml").write_text(textwrap.dedent(f"""\
            version: 1
            date: 2026-11-22
            positive: "yes"
            data:
              - {{path: p.parquet, engine: {eng}, label: y, group: fold{", weight: w" if weighted else ""},
                 learners: {{a: a, b: {{score: b, threshold: 0.7}}}}}}
            threshold: {threshold}
            partial_auc: {{max_fpr: 0.15}}
            priors: {{positive: 0.2}}
            costs: {{false_negative: 4, false_positive: 1}}
            compare: [envelopment, auc, bep, f1, expected_total_cost, cost_envelope]
            confidence: {{bootstrap: 0}}
            report: {{formats: [json{", html" if eng == "duckdb" else ""}], out: {eng}}}
            """))
        assert main(["run", str(tmp_path / f"{eng}.yaml"), "--quiet"]) == 0
        out[eng] = json.loads((tmp_path / eng / "results.json").read_text())
    mem, duck = out["memory"], out["duckdb"]
    # the report says which curves are drawn through kept rows only
    html = (tmp_path / "duckdb" / "report.html").read_text()
    for name in ("a", "b"):
        assert f"{name}: " in html and "ROC points through rows kept from the streamed table" in html
    for name in ("a", "b"):
        roc = duck["learners"][name]["curves"]["roc"]
        assert len(roc["fpr"]) < 130  # the reduced table's curve
        # through kept rows only: simplified, within a bound, the exact vertices unknown
        assert roc["simplified"] is True and roc["vertices"] is None and 0 < roc["max_error"] < 0.1
        assert duck["learners"][name]["curves"]["pr"]["simplified"] is True
        for block in (mem, duck):
            del block["learners"][name]["curves"]["roc"], block["learners"][name]["curves"]["pr"]
    for block in (mem, duck):
        del block["comparisons"]["envelopment"], block["inputs"][0]["sha256"]
        block["inputs"][0].pop("path")
    for name in ("a", "b"):
        # the gains are exact where a decile's boundary falls between rows kept next to
        # each other in the exact table, and undefined elsewhere (a warning says so)
        # (or a step of one class only between them)
        for got, want in zip(duck["learners"][name].pop("gains"), mem["learners"][name].pop("gains")):
            assert all(got[k] is None or got[k] == pytest.approx(want[k], abs=1e-12) for k in got)
    for name in ("a", "b"):
        # what the history compares needs every score's counts: a reduced table has
        # kept only some of them (null, and a warning says so)
        for key in ("auc_variance", "score_summary"):
            assert duck["learners"][name].pop(key) is None
            # (DeLong's variance is unweighted: null for weighted data in memory too)
            assert (mem["learners"][name].pop(key) is not None) != (weighted and key == "auc_variance")
    reduced = [w for w in duck.pop("warnings") if "thresholds) was streamed and" in w]
    assert len(reduced) == 2
    assert weighted or "(6,000 thresholds)" in reduced[0]  # weighted: zero-weight scores are no thresholds
    mem.pop("warnings")
    # the findings list the warnings (low: they differ as above); the high and medium ones
    # concern the same learners and measures
    def serious(block):
        return [(f["severity"], f["learner"], f["measure"]) for f in block["verdict"].pop("findings")
                if f["severity"] != "low"]

    assert serious(duck) == serious(mem)
    # a threshold's text keeps its decisions on the data: a reduced table does not know the
    # scores next to it, so its text is the threshold itself (exact), not the shortest
    for block in (duck, mem):
        texts = _threshold_texts(block)
        if block is duck:
            assert all(threshold_value(text) == value for text, value in texts)
    _numbers_equal(duck, mem)


def _threshold_texts(block) -> list[tuple[str, float]]:
    """Pops every ``threshold_text`` of a results.json (learners, verdict), with its threshold."""
    out = []
    for lr in block["learners"].values():
        if lr.get("threshold_text") is not None:
            out.append((lr.pop("threshold_text"), lr["threshold"]))
        else:
            lr.pop("threshold_text", None)
    verdict = block["verdict"]
    for v in verdict["learners"].values():
        text = v.pop("threshold_text")
        if text is not None:
            out.append((text, v["threshold"]))
    for s in verdict["suggestions"]:
        out.append((s.pop("threshold_text"), s["threshold"]))
    return out


def test_duckdb_reduced_one_class_only_with_optimal_threshold(tmp_path, monkeypatch):
    """No hull with one class only: 'optimal' falls back to 0.5, which the
    reduced table must hold exactly too."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    import evalreport.metrics.stream as stream

    monkeypatch.setattr(stream, "DEFAULT_CAP", 16)
    rng = np.random.default_rng(2)
    pq.write_table(pa.table({"y": np.ones(500, dtype=np.int8), "a": rng.random(500)}), tmp_path / "p.parquet")
    out = {}
    for eng in ("memory", "duckdb"):
        (tmp_path / f"{eng}.yaml").write_text(textwrap.dedent(f"""\
            version: 1
            date: 2026-11-22
            data:
              - {{path: p.parquet, engine: {eng}, label: y, learners: {{a: a}}}}
            threshold: optimal
            confidence: {{bootstrap: 0}}
            report: {{formats: [json], out: {eng}}}
            """))
        assert main(["run", str(tmp_path / f"{eng}.yaml"), "--quiet"]) == 0
        out[eng] = json.loads((tmp_path / eng / "results.json").read_text())["learners"]["a"]
    for block in out.values():
        del block["curves"]
    # the reduced table merged the rows it dropped: the scores that calibration needs are
    # gone, so it is undefined there (with a warning), not computed on the kept rows
    # (and so are the score summary and the AUC's variance the history needs)
    gone = ("brier", "log_loss", "ece", "calibration", "score_summary", "auc_variance")
    assert all(out["duckdb"].pop(k) is None for k in gone)
    for k in gone:
        del out["memory"][k]
    assert out["duckdb"]["auc"] is None and out["duckdb"]["threshold"] == 0.5
    _numbers_equal(out["duckdb"], out["memory"])


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas:FutureWarning")
def test_spark_connect_equals_memory(data):
    # Spark Connect: `spark: {remote: local}` makes PySpark start a local
    # Spark Connect server and talk to it over gRPC, the same road as a
    # remote sc://host:port cluster. In a child process, so that its JVM
    # does not meet the classic local sessions of the other tests.
    pytest.importorskip("pyspark")
    pytest.importorskip("grpc")  # the [connect] extra of pyspark
    pytest.importorskip("google.rpc")
    import subprocess
    import sys

    _, mem = _run(data, "memc", "path: all.parquet")
    spec = _spark_spec(data, "connect", 'remote: local, conf: {spark.sql.shuffle.partitions: "2"}')
    done = subprocess.run([sys.executable, "-m", "evalreport", "run", str(spec), "--quiet"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stderr == ""  # (issue 36: nothing of Spark's or its JVM's on stderr)
    _spark_equals(data / "connect", mem)


def _labelled_text(tmp, name, words, rng, n=600):
    """A CSV with labels and groups spelt ``words`` (positive first) and two learners."""
    y = rng.random(n) < 0.3
    a = np.round(rng.random(n) + 0.4 * y, 3)
    b = rng.random(n)
    group = np.where(rng.random(n) < 0.5, words[0], words[1])
    lines = ["y,a,b,g"] + [f"{words[0] if yi else words[1]},{ai},{bi},{gi}" for yi, ai, bi, gi in zip(y, a, b, group)]
    (tmp / name).write_text("\n".join(lines) + "\n")


@pytest.mark.slow
@pytest.mark.parametrize("words, positive", [(("yes", "no"), '"yes"'), (("Yes", "No"), '"Yes"'),
                                             (("t", "f"), '"t"'), (("true", "false"), "true"),
                                             (("TRUE", "FALSE"), "true")])
def test_duckdb_reads_csv_labels_and_groups_as_memory_does(tmp_path, words, positive):
    # DuckDB's sniffer takes yes/no and t/f for booleans, pyarrow only true/false:
    # the same file must hold the same labels (and groups) on both roads
    _labelled_text(tmp_path, "p.csv", words, np.random.default_rng(len(words[0])))
    out = {}
    for engine in ("memory", "duckdb"):
        (tmp_path / f"{engine}.yaml").write_text(textwrap.dedent(f"""\
            version: 1
            date: 2026-11-22
            positive: {positive}
            data:
              - {{path: p.csv, engine: {engine}, label: y, group: g, learners: {{a: a, b: b}}}}
            confidence: {{bootstrap: 0}}
            report: {{formats: [json], out: {engine}}}
            """))
        assert main(["run", str(tmp_path / f"{engine}.yaml"), "--quiet"]) == 0, engine
        out[engine] = json.loads((tmp_path / engine / "results.json").read_text())
    for learner in "ab":
        mem, duck = out["memory"]["learners"][learner], out["duckdb"]["learners"][learner]
        assert mem["auc"] is not None
        for m in MEASURES:
            assert duck[m] == pytest.approx(mem[m], abs=1e-12), m
        assert duck["groups"] == mem["groups"]


@pytest.mark.slow
def test_duckdb_multiclass_reads_yes_no_classes_as_text(tmp_path):
    rng = np.random.default_rng(11)
    n = 400
    y = rng.integers(0, 2, n)
    p = np.round(np.clip(0.5 + 0.3 * (2 * y - 1) + 0.3 * rng.normal(size=n), 0, 1), 2)
    lines = ["y,p_yes,p_no"] + [f"{'yes' if yi else 'no'},{pi},{round(1 - pi, 2)}" for yi, pi in zip(y, p)]
    (tmp_path / "m.csv").write_text("\n".join(lines) + "\n")
    out = {}
    for engine in ("memory", "duckdb"):
        (tmp_path / f"{engine}.yaml").write_text(textwrap.dedent(f"""\
            version: 1
            task: multiclass
            classes: ["yes", "no"]
            data:
              - {{path: m.csv, engine: {engine}, label: y, learners: {{m: [p_yes, p_no]}}}}
            report: {{formats: [json], out: {engine}}}
            """))
        assert main(["run", str(tmp_path / f"{engine}.yaml"), "--quiet"]) == 0, engine
        out[engine] = json.loads((tmp_path / engine / "results.json").read_text())["learners"]["m"]
    assert out["duckdb"]["confusion_matrix"] == out["memory"]["confusion_matrix"]


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["duckdb", "spark"])
def test_engines_read_tsv_and_json_lines_as_memory_does(tmp_path, engine):
    if engine == "spark":
        pytest.importorskip("pyspark")
    import gzip

    rng = np.random.default_rng(5)
    n = 500
    y = np.where(rng.random(n) < 0.3, "yes", "no")
    a = rng.random(n) + 0.4 * (y == "yes")
    b = np.round(rng.random(n), 2)
    rows = list(zip(y, a, b))
    (tmp_path / "p.tsv").write_text("y\ta\tb\n" + "".join(f"{r[0]}\t{float(r[1])!r}\t{float(r[2])!r}\n" for r in rows))
    jsonl = "".join(json.dumps({"y": str(r[0]), "a": float(r[1]), "b": float(r[2])}) + "\n" for r in rows)
    (tmp_path / "p.jsonl").write_text(jsonl)
    (tmp_path / "p.jsonl.gz").write_bytes(gzip.compress(jsonl.encode()))
    spark = ('spark: {master: "local[2]", conf: {spark.ui.enabled: "false", '
             'spark.sql.shuffle.partitions: "2"}}\n')
    _, mem = _run(tmp_path, "mem", "path: p.tsv")
    for name in ("p.tsv", "p.jsonl", "p.jsonl.gz"):
        out = name.replace(".", "_")
        (tmp_path / f"{out}.yaml").write_text(textwrap.dedent(f"""\
            version: 1
            date: 2026-11-22
            positive: "yes"
            data:
              - {{path: {name}, engine: {engine}, label: y, learners: {{a: a, b: b}}}}
            confidence: {{bootstrap: 0}}
            report: {{formats: [json], out: {out}}}
            """) + (spark if engine == "spark" else ""))
        assert main(["run", str(tmp_path / f"{out}.yaml"), "--quiet"]) == 0, name
        got = json.loads((tmp_path / out / "results.json").read_text())
        for learner in "ab":
            for m in MEASURES:
                assert got["learners"][learner][m] == pytest.approx(mem["learners"][learner][m], abs=1e-12), (name, m)


def _same_file_every_engine(tmp, name, positive, engines=("memory", "duckdb"), extra_spec=""):
    """(status, stderr-free results or None) of one file through each engine."""
    out = {}
    for engine in engines:
        spec = tmp / f"{engine}_{name.replace('.', '_')}.yaml"
        spec.write_text(textwrap.dedent(f"""\
            version: 1
            date: 2026-11-22
            positive: {positive}
            data:
              - {{path: {name}, engine: {engine}, label: y, learners: {{a: a}}}}
            confidence: {{bootstrap: 0}}
            report: {{formats: [json], out: out_{spec.stem}}}
            """) + extra_spec)
        status = main(["run", str(spec), "--quiet"])
        result = tmp / f"out_{spec.stem}" / "results.json"
        out[engine] = (status, json.loads(result.read_text())["learners"]["a"] if status == 0 else None)
    return out


def _labelled_parquet(path, labels, rng, n=300):
    import pyarrow as pa
    import pyarrow.parquet as pq

    is_pos = rng.random(n) < 0.4
    y = pa.array([labels[0] if p else labels[1] for p in is_pos]) if not isinstance(labels, pa.Array) else labels
    pq.write_table(pa.table({"y": y, "a": rng.random(n) + 0.3 * is_pos}), path)


@pytest.mark.parametrize("labels, positive, ok", [
    ((1, 0), '"1"', True),      # a spec's labels compare as text: "1" is the label 1
    (("1", "0"), "1", True),    # and 1 is the text "1"
    ((1.0, 0.0), "1", True),
    ((1, 0), "1.0", True),      # (1.0 was read as the boolean True)
    ((1.5, 0.5), "1.5", True),  # (1.5 was refused: "Input should be a valid boolean")
    ((1, 0), "true", False),    # True is 'true', not 1
    ((0, 0), "1", False),       # a single class that is not the positive one
])
@pytest.mark.slow
def test_engines_match_the_positive_label_as_memory_does(tmp_path, labels, positive, ok):
    _labelled_parquet(tmp_path / "p.parquet", labels, np.random.default_rng(2))
    out = _same_file_every_engine(tmp_path, "p.parquet", positive)
    assert out["memory"][0] == out["duckdb"][0] == (0 if ok else 2)
    if ok:
        for m in MEASURES:
            assert out["duckdb"][1][m] == pytest.approx(out["memory"][1][m], abs=1e-12), m


@pytest.mark.slow
def test_dictionary_encoded_labels_read_as_their_values(tmp_path):
    # pandas' category columns are dictionary-encoded in Parquet: the memory
    # road crashed on them (no pyarrow kernel for dictionaries)
    import pyarrow as pa

    rng = np.random.default_rng(6)
    words = pa.array(np.where(rng.random(300) < 0.4, "pos", "neg")).dictionary_encode()
    _labelled_parquet(tmp_path / "p.parquet", words, rng)
    out = _same_file_every_engine(tmp_path, "p.parquet", '"pos"')
    assert out["memory"][0] == out["duckdb"][0] == 0
    assert out["memory"][1]["auc"] == pytest.approx(out["duckdb"][1]["auc"], abs=1e-12)
    y = np.asarray(words.to_pylist()) == "pos"
    assert out["memory"][1]["positives"] == int(y.sum())


@pytest.mark.slow
def test_duckdb_reads_a_boolean_score_column_of_a_csv(tmp_path):
    rng = np.random.default_rng(7)
    y = rng.random(300) < 0.4
    hard = (rng.random(300) < 0.3) ^ y
    (tmp_path / "p.csv").write_text("y,a\n" + "".join(f"{int(v)},{str(h).lower()}\n" for v, h in zip(y, hard)))
    out = _same_file_every_engine(tmp_path, "p.csv", "1")
    assert out["memory"][0] == out["duckdb"][0] == 0
    from sklearn.metrics import roc_auc_score

    assert out["duckdb"][1]["auc"] == pytest.approx(roc_auc_score(y, hard), abs=1e-12)
    assert out["memory"][1]["auc"] == pytest.approx(roc_auc_score(y, hard), abs=1e-12)


@pytest.mark.slow  # (a Spark driver's JVM: about 12 CPU-seconds where it is the first of the run)
def test_spark_reads_doubled_quotes_in_a_csv(tmp_path):
    pytest.importorskip("pyspark")
    rng = np.random.default_rng(8)
    y = rng.random(200) < 0.4
    a = rng.random(200) + 0.3 * y
    # a quoted label holding a doubled quote and a comma (RFC 4180)
    quoted = '"say ""yes"", now"'
    (tmp_path / "p.csv").write_text("y,a\n" + "".join(
        f"{quoted if v else 'no'},{s!r}\n" for v, s in zip(y, a.tolist())))
    spark = ('spark: {master: "local[2]", conf: {spark.ui.enabled: "false", '
             'spark.sql.shuffle.partitions: "2"}}\n')
    out = _same_file_every_engine(tmp_path, "p.csv", "'say \"yes\", now'", ("memory", "spark"), spark)
    assert out["memory"][0] == out["spark"][0] == 0
    assert out["spark"][1]["auc"] == pytest.approx(out["memory"][1]["auc"], abs=1e-12)
    assert out["spark"][1]["positives"] == int(y.sum())


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["duckdb", "spark"])
def test_engine_column_problems_are_reported_at_their_key(tmp_path, capsys, engine):
    if engine == "spark":
        pytest.importorskip("pyspark")
    # each file breaks one column; the error names that column's key, as on the memory road
    cases = {
        "label": ("y,a,w,g\n1,0.3,1,x\n0,0.4,1,x\n,0.2,1,y\n", "data[0].label: "),
        "score": ("y,a,w,g\n1,0.3,1,x\n0,nan,1,x\n1,0.2,1,y\n", "data[0].learners.a.score: "),
        "weight": ("y,a,w,g\n1,0.3,1,x\n0,0.4,-1,x\n1,0.2,1,y\n", "data[0].weight: "),
        "group": ("y,a,w,g\n1,0.3,1,x\n0,0.4,1,\n1,0.2,1,y\n", "data[0].group: "),
        "missing column": ("y,b,w,g\n1,0.3,1,x\n0,0.4,1,x\n", "data[0].learners.a.score: "),
    }
    spark = ('spark: {master: "local[2]", conf: {spark.ui.enabled: "false", '
             'spark.sql.shuffle.partitions: "2"}}\n')
    for name, (text, key) in cases.items():
        (tmp_path / "bad.csv").write_text(text)
        (tmp_path / "bad.yaml").write_text(textwrap.dedent(f"""\
            version: 1
            data:
              - {{path: bad.csv, engine: {engine}, label: y, weight: w, group: g, learners: {{a: a}}}}
            report: {{formats: [json], out: bad}}
            """) + (spark if engine == "spark" else ""))
        assert main(["run", str(tmp_path / "bad.yaml"), "--quiet"]) == 2, name
        err = [line for line in capsys.readouterr().err.splitlines() if line.startswith("error:")]
        assert len(err) == 1 and key in err[0], (name, err)


def test_duckdb_refuses_a_yes_no_score_column_as_memory_does(tmp_path, capsys):
    # DuckDB's sniffer types yes/no as BOOLEAN: read as 1/0 it would be scored,
    # where the in-memory reader refuses a score that is not a number
    rng = np.random.default_rng(10)
    y = rng.random(100) < 0.4
    (tmp_path / "p.csv").write_text("y,a\n" + "".join(
        f"{int(v)},{'yes' if h else 'no'}\n" for v, h in zip(y, rng.random(100) < 0.5)))
    out = _same_file_every_engine(tmp_path, "p.csv", "1")
    assert out["memory"][0] == out["duckdb"][0] == 2
    err = capsys.readouterr().err
    assert "data[0].learners.a.score: p.csv: score column 'a' of learner 'a' is not numeric (DuckDB type VARCHAR)" in err


@pytest.mark.slow
def test_duckdb_multiclass_boolean_scores_and_column_problems(tmp_path, capsys):
    rng = np.random.default_rng(13)
    y = rng.integers(0, 2, 200)
    t_score = (rng.random(200) < 0.7) == (y == 1)
    rows = "".join(f"{'a' if v else 'b'},{str(s).lower()},{str(not s).lower()}\n" for v, s in zip(y, t_score))
    (tmp_path / "m.csv").write_text("y,p1,p2\n" + rows)
    (tmp_path / "e.csv").write_text("y,p1,p2\n" + rows + ",true,false\n")  # a missing label

    def run(engine, path, columns="[p1, p2]"):
        (tmp_path / "s.yaml").write_text(textwrap.dedent(f"""\
            version: 1
            task: multiclass
            classes: [a, b]
            data:
              - {{path: {path}, engine: {engine}, label: y, learners: {{m: {columns}}}}}
            report: {{formats: [json], out: out_{engine}}}
            """))
        status = main(["run", str(tmp_path / "s.yaml"), "--quiet"])
        err = [line for line in capsys.readouterr().err.splitlines() if line.startswith("error:")]
        result = tmp_path / f"out_{engine}" / "results.json"
        return status, err, (json.loads(result.read_text())["learners"]["m"] if status == 0 else None)

    mem, duck = run("memory", "m.csv"), run("duckdb", "m.csv")
    assert mem[0] == duck[0] == 0  # (isnan took no BOOLEAN: a Binder Error)
    assert duck[2]["confusion_matrix"] == mem[2]["confusion_matrix"]
    status, err, _ = run("duckdb", "e.csv")
    assert status == 2 and "data[0].label: e.csv: label column 'y' has 1 missing value(s)" in err[0]
    # DuckDB matches identifiers whatever their case: the spec's P1 must still be refused, as in memory
    status, err, _ = run("duckdb", "m.csv", "[P1, p2]")
    assert status == 2 and "data[0].learners.m: m.csv: score (learner 'm') column 'P1' not found" in err[0]
    assert "did you mean 'p1'?" in err[0]
