"""Learners from patterns (issue 25): a path with a named part gives one learner per
matching file, ``learners: {match: <regex>}`` one per matching column, and
``{columns: "mlp_{class}"}`` a multi-class learner's columns over ``classes``.
Each problem is exit status 2 with one exact message at the pattern's key and line,
through the command line and the API alike; ``rank_by`` is checked against the
registry."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import evalreport
import evalreport.registry
from evalreport.__main__ import main
from evalreport.errors import SpecError
from evalreport.spec import rank_measure

ROWS = ["1,1,0.9", "2,0,0.2", "3,1,0.6", "4,0,0.4"]


def _runs(tmp: Path, names, header="id,y,score", rows=ROWS, file="p.csv"):
    for name in names:
        folder = tmp / "runs" / name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / file).write_text(header + "\n" + "\n".join(rows) + "\n")


def _spec(tmp: Path, text: str) -> Path:
    path = tmp / "spec.yaml"
    path.write_text(textwrap.dedent(text))
    return path


GLOB = """\
version: 1
data:
  - path: runs/{run}/p.csv
    label: y
    id: id
    learners: {"lr_{run}": score}
report: {formats: [json], out: out}
"""

COLUMNS = """\
version: 1
data:
  - path: p.csv
    label: y
    id: id
    learners:
      match: "p_(?P<name>.+)"
report: {formats: [json], out: out}
"""

WIDE = "id,y,p_lr,p_gbm,p_rf,yhat\n1,1,0.9,0.8,0.7,1\n2,0,0.2,0.1,0.3,0\n3,1,0.6,0.7,0.5,1\n4,0,0.4,0.3,0.2,0\n"


def _errors(path: Path, capsys) -> list[str]:
    """The command line's messages (exit 2, nothing else on stdout), checked
    to be the API's: load_spec raises SpecError with the same problems."""
    assert main(["validate", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = [line.replace(str(path.parent) + "/", "") for line in captured.err.splitlines()]
    with pytest.raises(SpecError) as exc:
        evalreport.load_spec(path)
    assert [f"error: {p}".replace(str(path.parent) + "/", "") for p in exc.value.problems] == lines
    return lines


def _names(path: Path) -> list[tuple[str, str, list[str]]]:
    spec = evalreport.load_spec(path)
    return [(name, src.path, learner.columns) for src in spec.data for name, learner in src.learners.items()]


# learners from files


def test_glob_one_match(tmp_path):
    _runs(tmp_path, ["a"])
    assert _names(_spec(tmp_path, GLOB)) == [("lr_a", "runs/a/p.csv", ["score"])]


def test_glob_many_matches_sorted_numbers_as_numbers(tmp_path, capsys):
    _runs(tmp_path, ["run10", "run2", "run1", "b0.1", "b0.01"])
    path = _spec(tmp_path, GLOB.replace('"lr_{run}"', '"{run}"'))
    assert [n for n, _, _ in _names(path)] == ["b0.01", "b0.1", "run1", "run2", "run10"]
    assert main(["validate", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith("valid (5 file(s), 20 rows, 5 learner(s))")
    assert out[1:3] == ["  learner  file              column(s)", "  b0.01    runs/b0.01/p.csv  score"]
    assert out[-1] == "  run10    runs/run10/p.csv  score"


@pytest.mark.slow
def test_glob_learners_run_and_are_paired(tmp_path):
    _runs(tmp_path, ["a", "b"])
    result = evalreport.evaluate(evalreport.load_spec(_spec(tmp_path, GLOB)))
    assert list(result.learners) == ["lr_a", "lr_b"]
    assert result.learners["lr_a"].summary.auc == 1.0


def test_glob_no_match(tmp_path, capsys):
    (tmp_path / "runs").mkdir()
    path = _spec(tmp_path, GLOB)
    assert _errors(path, capsys) == [
        f"error: spec.yaml:3: data[0].path: no file matches runs/{{run}}/p.csv (the glob runs/*/p.csv, "
        f"relative to the spec's folder {tmp_path})"]


def test_glob_file_lacking_the_column(tmp_path, capsys):
    _runs(tmp_path, ["a", "c"])
    _runs(tmp_path, ["b"], header="id,y,scores")
    assert _errors(_spec(tmp_path, GLOB), capsys) == [
        "error: spec.yaml:6: data[0].learners.lr_{run}.score: column 'score' is not in 1 of the 3 files "
        "matching runs/{run}/p.csv; the first: runs/b/p.csv (columns: id, y, scores) (did you mean 'scores'?)"]


def test_glob_bad_value_told_at_the_pattern(tmp_path, capsys):
    """A problem in one file's values is told at the pattern's key and line, naming the file."""
    _runs(tmp_path, ["a"])
    _runs(tmp_path, ["b"], rows=["1,1,0.9", "2,0,x", "3,1,0.6", "4,0,0.4"])
    assert main(["validate", str(_spec(tmp_path, GLOB))]) == 2
    assert capsys.readouterr().err.replace(str(tmp_path) + "/", "").splitlines() == [
        "error: spec.yaml:6: data[0].learners.lr_{run}.score: runs/b/p.csv: column 'score', row 2: "
        "score 'x' is not a number"]


def test_glob_part_the_path_lacks(tmp_path, capsys):
    _runs(tmp_path, ["a"])
    assert _errors(_spec(tmp_path, GLOB.replace("lr_{run}", "lr_{rnu}")), capsys) == [
        "error: spec.yaml:6: data[0].learners.lr_{rnu}: {rnu} in the learner name 'lr_{rnu}' is not a part "
        "of the path runs/{run}/p.csv (did you mean 'run'?); its parts: run"]


def test_part_in_a_name_without_a_path_pattern(tmp_path, capsys):
    (tmp_path / "p.csv").write_text(WIDE)
    path = _spec(tmp_path, COLUMNS.replace('match: "p_(?P<name>.+)"', '"{run}": p_lr'))
    assert _errors(path, capsys) == [
        "error: spec.yaml:7: data[0].learners.{run}: {run} in the learner name '{run}' is not a part of the "
        "path: a path with named parts gives one learner per matching file (e.g. runs/{run}/predictions.csv)"]


def test_glob_same_name_in_every_file(tmp_path, capsys):
    _runs(tmp_path, ["a", "b"])
    assert _errors(_spec(tmp_path, GLOB.replace('"lr_{run}"', "lr")), capsys) == [
        "error: spec.yaml:6: data[0].learners.lr: learner 'lr' would be the same learner in every file "
        "matching runs/{run}/p.csv: name it from the path ('{run}', 'lr_{run}'), or give each file its own "
        "data set (dataset: '{run}')"]


def test_glob_part_as_the_data_set(tmp_path):
    """dataset: '{run}': the same learner measured on each file's data set."""
    _runs(tmp_path, ["a", "b"])
    spec = evalreport.load_spec(_spec(tmp_path, GLOB.replace('"lr_{run}"', "lr").replace(
        "    id: id\n", "    id: id\n    dataset: 'fold_{run}'\n")))
    assert [(src.dataset, list(src.learners)) for src in spec.data] == [("fold_a", ["lr"]), ("fold_b", ["lr"])]


def test_name_collision_between_two_glob_patterns(tmp_path, capsys):
    _runs(tmp_path, ["a", "b"])
    _runs(tmp_path, ["a", "b"], file="q.csv")
    text = GLOB.replace('"lr_{run}"', '"{run}"').replace(
        "report:", '  - path: runs/{run}/q.csv\n    label: y\n    id: id\n    learners: {"{run}": score}\nreport:')
    assert _errors(_spec(tmp_path, text), capsys) == [
        "error: spec.yaml:10: data[1].learners.{run}: learner 'a' is already defined in data[0] of the same "
        "data set; a name is unique within a data set",
        "error: spec.yaml:10: data[1].learners.{run}: learner 'b' is already defined in data[0] of the same "
        "data set; a name is unique within a data set"]


@pytest.mark.slow
def test_glob_subprocess_exit_2_no_traceback(tmp_path):
    (tmp_path / "runs").mkdir()
    proc = subprocess.run([sys.executable, "-m", "evalreport", "validate", str(_spec(tmp_path, GLOB))],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "data[0].path: no file matches runs/{run}/p.csv" in proc.stderr


# learners from columns


def test_match_many_sorted_beside_a_typed_learner(tmp_path, capsys):
    (tmp_path / "p.csv").write_text(WIDE)
    path = _spec(tmp_path, COLUMNS.replace('      match: "p_(?P<name>.+)"\n',
                                           '      rules: {predicted: yhat}\n      match: "p_(?P<name>.+)"\n'))
    assert _names(path) == [("rules", "p.csv", ["yhat"]), ("gbm", "p.csv", ["p_gbm"]),
                            ("lr", "p.csv", ["p_lr"]), ("rf", "p.csv", ["p_rf"])]
    assert main(["validate", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[1:3] == ["  learner  file   column(s)",
                                                         "  rules    p.csv  yhat (decisions)"]


def test_match_one_and_names_without_a_group(tmp_path):
    (tmp_path / "p.csv").write_text(WIDE)
    assert _names(_spec(tmp_path, COLUMNS.replace("p_(?P<name>.+)", "p_l."))) == [("p_lr", "p.csv", ["p_lr"])]
    assert _names(_spec(tmp_path, COLUMNS.replace("p_(?P<name>.+)", "p_(r.)"))) == [("rf", "p.csv", ["p_rf"])]


def test_match_no_column(tmp_path, capsys):
    (tmp_path / "p.csv").write_text(WIDE)
    assert _errors(_spec(tmp_path, COLUMNS.replace("p_(", "q_(")), capsys) == [
        "error: spec.yaml:7: data[0].learners.match: no column of p.csv matches 'q_(?P<name>.+)' (the whole "
        "name; columns: p_lr, p_gbm, p_rf, yhat)"]


def test_match_bad_regex(tmp_path, capsys):
    (tmp_path / "p.csv").write_text(WIDE)
    assert _errors(_spec(tmp_path, COLUMNS.replace("(?P<name>.+)", "(.+")), capsys) == [
        "error: spec.yaml:7: data[0].learners.match: 'p_(.+' is not a regular expression: missing ), "
        "unterminated subpattern at position 2"]


def test_match_collision_between_two_patterns(tmp_path, capsys):
    (tmp_path / "p.csv").write_text("id,y,p_lr,q_lr\n1,1,0.9,0.8\n2,0,0.2,0.1\n")
    path = _spec(tmp_path, COLUMNS.replace('match: "p_(?P<name>.+)"',
                                           'match: ["p_(?P<name>.+)", "q_(?P<name>.+)"]'))
    assert _errors(path, capsys) == [
        "error: spec.yaml:7: data[0].learners.match[1]: learner 'lr' comes from two columns: 'p_lr' (match "
        "'p_(?P<name>.+)') and 'q_lr' (match 'q_(?P<name>.+)'); make the patterns give distinct names"]


def test_match_collision_with_a_typed_learner(tmp_path, capsys):
    (tmp_path / "p.csv").write_text(WIDE)
    path = _spec(tmp_path, COLUMNS.replace('      match: "p_(?P<name>.+)"\n',
                                           '      gbm: p_rf\n      match: "p_(?P<name>.+)"\n'))
    assert _errors(path, capsys) == [
        "error: spec.yaml:8: data[0].learners.match: learner 'gbm' from column 'p_gbm' (match "
        "'p_(?P<name>.+)') is also a learner named in learners: give it another name or narrow the pattern"]


def test_match_under_a_learner_name(tmp_path, capsys):
    (tmp_path / "p.csv").write_text(WIDE)
    path = _spec(tmp_path, COLUMNS.replace('match: "p_(?P<name>.+)"', 'a: {match: "p_.+"}'))
    assert _errors(path, capsys) == [
        "error: spec.yaml:7: data[0].learners.a: unknown key 'match' in a learner: a pattern over the columns "
        "goes directly under learners (learners: {match: <regex>}) and names its learners"]


def test_match_in_every_file_of_a_glob(tmp_path, capsys):
    _runs(tmp_path, ["a", "b"], header="id,y,p_lr,p_rf", rows=["1,1,0.9,0.8", "2,0,0.2,0.1"])
    assert _errors(_spec(tmp_path, GLOB.replace('{"lr_{run}": score}', '{match: "p_(?P<name>.+)"}')), capsys) == [
        "error: spec.yaml:6: data[0].learners.match: match would give the same learners in every file matching "
        "runs/{run}/p.csv: give each file its own data set (dataset: '{run}')"]
    path = _spec(tmp_path, GLOB.replace('{"lr_{run}": score}', '{match: "p_(?P<name>.+)"}').replace(
        "    id: id\n", "    id: id\n    dataset: '{run}'\n"))
    assert [(n, p) for n, p, _ in _names(path)] == [("lr", "runs/a/p.csv"), ("rf", "runs/a/p.csv"),
                                                    ("lr", "runs/b/p.csv"), ("rf", "runs/b/p.csv")]


# multi-class columns over classes

MULTICLASS = """\
version: 1
task: multiclass
classes: [a, b, c]
data:
  - path: p.csv
    label: y
    learners:
      mlp: {columns: "mlp_{class}"}
      lr: [lr_a, lr_b, lr_c]
report: {formats: [json], out: out}
"""
MC_CSV = "y,mlp_a,mlp_b,mlp_c,lr_a,lr_b,lr_c\na,0.8,0.1,0.1,0.5,0.3,0.2\nb,0.1,0.8,0.1,0.3,0.5,0.2\n" \
         "c,0.1,0.1,0.8,0.2,0.3,0.5\n"


def test_class_columns(tmp_path):
    (tmp_path / "p.csv").write_text(MC_CSV)
    assert _names(_spec(tmp_path, MULTICLASS)) == [("mlp", "p.csv", ["mlp_a", "mlp_b", "mlp_c"]),
                                                   ("lr", "p.csv", ["lr_a", "lr_b", "lr_c"])]


def test_class_column_missing(tmp_path, capsys):
    (tmp_path / "p.csv").write_text(MC_CSV.replace("mlp_c", "mlp_x"))
    assert main(["validate", str(_spec(tmp_path, MULTICLASS))]) == 2
    assert capsys.readouterr().err.replace(str(tmp_path) + "/", "").splitlines() == [
        "error: spec.yaml:8: data[0].learners.mlp.columns[2]: column 'mlp_c' is not in p.csv (columns: y, "
        "mlp_a, mlp_b, mlp_x, lr_a, lr_b, lr_c) (did you mean 'mlp_x'?)"]


def test_class_columns_without_class_or_in_a_binary_task(tmp_path, capsys):
    (tmp_path / "p.csv").write_text(MC_CSV)
    assert _errors(_spec(tmp_path, MULTICLASS.replace("mlp_{class}", "mlp_{klass}")), capsys) == [
        "error: spec.yaml:8: data[0].learners.mlp.columns: {klass} in columns 'mlp_{klass}' is neither "
        "{class} nor a part of the path (did you mean 'class'?)"]
    assert _errors(_spec(tmp_path, MULTICLASS.replace("mlp_{class}", "mlp")), capsys) == [
        "error: spec.yaml:8: data[0].learners.mlp.columns: columns: 'mlp' must hold {class}, which each class "
        "of classes replaces (e.g. mlp_{class})"]
    (tmp_path / "p.csv").write_text(WIDE)
    assert _errors(_spec(tmp_path, COLUMNS.replace('match: "p_(?P<name>.+)"', 'a: {columns: "p_{class}"}')),
                   capsys) == [
        "error: spec.yaml:7: data[0].learners.a.columns: columns: 'p_{class}' names one score column per class "
        "of a multiclass task; a binary learner gives score: <column>"]


def test_match_in_a_multiclass_task(tmp_path, capsys):
    (tmp_path / "p.csv").write_text(MC_CSV)
    path = _spec(tmp_path, MULTICLASS.replace("      lr: [lr_a, lr_b, lr_c]\n", '      match: "lr_.+"\n'))
    assert _errors(path, capsys) == [
        "error: spec.yaml:9: data[0].learners.match: match gives one score column per learner (binary); a "
        "multiclass learner names its columns per class: {columns: '<name>_{class}'}"]


# rank_by


def test_rank_by_default_and_given(tmp_path, capsys):
    _runs(tmp_path, ["a"])
    assert rank_measure(evalreport.load_spec(_spec(tmp_path, GLOB))) == "auc"
    costs = GLOB + "costs: {false_negative: 5, false_positive: 1}\n"
    assert rank_measure(evalreport.load_spec(_spec(tmp_path, costs))) == "cost_at_threshold"
    assert rank_measure(evalreport.load_spec(_spec(tmp_path, costs + "rank_by: f1\n"))) == "f1"
    (tmp_path / "p.csv").write_text(MC_CSV)
    mc = MULTICLASS + "costs: {matrix: [[0, 1, 1], [1, 0, 1], [1, 1, 0]]}\n"
    assert rank_measure(evalreport.load_spec(_spec(tmp_path, mc))) == "cost_sensitive_error"
    assert rank_measure(evalreport.load_spec(_spec(tmp_path, MULTICLASS + "rank_by: macro_f1\n"))) == "macro_f1"


def test_rank_by_unknown_or_not_ranked(tmp_path, capsys):
    _runs(tmp_path, ["a"])
    # the registry's binary scalars with a better direction (F-beta aside: one value per beta)
    valid = ", ".join(m.name for m in evalreport.registry.measures_for("binary", *evalreport.registry.SCALAR_KINDS)
                      if m.direction != "none" and m.name != "fbeta")
    assert _errors(_spec(tmp_path, GLOB + "rank_by: acu\n"), capsys) == [
        f"error: spec.yaml:8: rank_by: unknown measure 'acu' (did you mean 'auc'?); valid for a binary task: "
        f"{valid}"]
    assert _errors(_spec(tmp_path, GLOB + "rank_by: roc\n"), capsys) == [
        f"error: spec.yaml:8: rank_by: roc has no single value per learner to rank by; valid for a binary "
        f"task: {valid}"]
    assert _errors(_spec(tmp_path, GLOB + "rank_by: macro_f1\n"), capsys) == [
        f"error: spec.yaml:8: rank_by: macro_f1 is not a measure of a binary task; valid for a binary task: "
        f"{valid}"]
    assert _errors(_spec(tmp_path, GLOB + "rank_by: partial_auc\n"), capsys) == [
        "error: spec.yaml:8: rank_by: rank_by: partial_auc needs partial_auc: {max_fpr: ..} in the spec"]


def test_rank_by_in_the_schema():
    schema = evalreport.spec.json_schema()
    assert "min_cost" in schema["properties"]["rank_by"]["anyOf"][0]["enum"]
    assert "match" not in schema["$defs"]["Learner"]["properties"]
    assert "columns" in schema["$defs"]["Learner"]["properties"]


# issue 36: the patterns are matched in linear time (RE2), and nothing but error lines reaches stderr

def test_catastrophic_pattern_on_long_column_names_is_matched_at_once(tmp_path, capsys):
    # (a+)+$ on 'aaa...ab' backtracks for hours in Python's re; RE2 answers in microseconds
    long = "a" * 5000
    (tmp_path / "p.csv").write_text(f"id,y,{long}b,{long}\n1,1,0.9,0.8\n2,0,0.2,0.1\n3,1,0.6,0.7\n4,0,0.4,0.3\n")
    path = _spec(tmp_path, COLUMNS.replace('"p_(?P<name>.+)"', '"(a+)+$"'))
    assert main(["validate", str(path)]) == 0, capsys.readouterr().err
    from evalreport.spec import load_spec

    assert list(load_spec(path).data[0].learners) == ["a" * 5000]  # the only group names it, as in re


def test_pattern_python_reads_and_a_linear_match_cannot(tmp_path, capsys):
    (tmp_path / "p.csv").write_text(WIDE)
    assert _errors(_spec(tmp_path, COLUMNS.replace("(?P<name>.+)", "(?P<name>.+)(?<=r)")), capsys) == [
        "error: spec.yaml:7: data[0].learners.match: 'p_(?P<name>.+)(?<=r)' uses what a regular expression "
        "matched in linear time cannot do (lookaround, backreferences, repetition counts above 1,000): "
        "invalid perl operator: (?<="]


def test_pattern_with_a_future_warning_writes_nothing_on_stderr(tmp_path):
    # Python's re warns "possible nested set" on '[[' (a FutureWarning on stderr): not in a run's output;
    # the pattern is a valid one (a set holding '[' and 'l')
    (tmp_path / "p.csv").write_text(WIDE)
    path = _spec(tmp_path, COLUMNS.replace('"p_(?P<name>.+)"', '"p_[[l]r"'))
    proc = subprocess.run([sys.executable, "-W", "default", "-m", "evalreport", "validate", str(path)],
                          capture_output=True, text=True, timeout=60)
    assert (proc.returncode, proc.stderr) == (0, "")
    assert "p_lr     p.csv  p_lr" in proc.stdout


def test_a_key_error_beside_patterns_tells_no_problem_of_the_unexpanded_names(tmp_path, capsys):
    # issue 36 (one pass): the checks across keys run with the failed key left out, on the learners
    # the patterns give (a gate names lr_r1, not lr_{run})
    _runs(tmp_path, ["r1", "r2"])
    text = GLOB + "confidence: {bootstrap: -3}\ngates:\n  - {learner: lr_r1, metric: auc, min: 0.1}\n"
    assert _errors(_spec(tmp_path, text), capsys) == [
        "error: spec.yaml:8: confidence.bootstrap: Input should be greater than or equal to 0 (got -3)"]
    bad_gate = text.replace("learner: lr_r1", "learner: lr_r3")
    assert _errors(_spec(tmp_path, bad_gate), capsys) == [
        "error: spec.yaml:8: confidence.bootstrap: Input should be greater than or equal to 0 (got -3)",
        "error: spec.yaml:10: gates[0].learner: unknown learner 'lr_r3' (did you mean 'lr_r2'?); valid: lr_r1, "
        "lr_r2"]
