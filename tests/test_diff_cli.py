"""``evalreport diff OLD NEW [--gate ...]``: the table, the gates on change
(exit 3), bad files and bad gates (exit 2, the file named, no traceback).
history.changes is another module's: a small stand-in here, in its format."""

import json

import pytest

import evalreport.history as history
from evalreport.__main__ import main


def _stand_in(previous, current, *, level=0.95):
    """history.changes's format: the AUC change and a drift row per learner."""
    changes, drift = [], []
    for key, now in current["learners"].items():
        before = previous["learners"].get(key)
        if before is None:
            continue
        change = now["auc"] - before["auc"]
        changes.append({"learner": key, "measure": "auc", "previous": before["auc"], "current": now["auc"],
                        "change": change, "p_value": now["p"], "interval": None, "method": "DeLong (unpaired)"})
        changes.append({"learner": key, "measure": "recall", "previous": 0.5, "current": 0.4, "change": -0.1,
                        "p_value": None, "interval": [-0.3, -0.01], "method": "Newcombe"})
        drift.append({"learner": key, "psi": now["psi"], "psi_bins": 10, "ks": 0.1, "method": "deciles"})
    return {"previous": {"date": previous["date"], "title": "t"}, "changes": changes, "drift": drift,
            "balance": {"previous": 0.3, "current": 0.32, "change": 0.02, "p_value": 0.5}}


@pytest.fixture
def runs(tmp_path, monkeypatch):
    monkeypatch.setattr(history, "changes", _stand_in, raising=False)
    old = tmp_path / "old.json"
    new = tmp_path / "new.json"
    old.write_text(json.dumps({"date": "2026-01-01", "learners": {"a": {"auc": 0.90}, "b": {"auc": 0.80}}}))
    new.write_text(json.dumps({"date": "2026-01-08", "learners": {"a": {"auc": 0.85, "p": 0.01, "psi": 0.3},
                                                                   "b": {"auc": 0.79, "p": 0.6, "psi": 0.05}}}))
    return str(old), str(new)


def test_table_and_exit_0(runs, capsys):
    assert main(["diff", *runs]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "since 2026-01-01 (t)"
    assert out[1].split() == ["learner", "measure", "previous", "current", "change", "p-value", "or", "interval",
                              "method"]
    assert out[3].split() == ["a", "auc", "0.9", "0.85", "-0.05", "p", "=", "0.01", "DeLong", "(unpaired)"]
    assert out[4].split() == ["a", "recall", "0.5", "0.4", "-0.1", "[-0.3,", "-0.01]", "Newcombe"]
    assert "drift of the scores" in out
    assert out[-1] == "class balance p(+): 0.3 -> 0.32 (change 0.02, p = 0.5)"


@pytest.mark.parametrize("gate, status, failed", [
    ("auc:max_drop=0.02", 3, ["gate failed: auc:max_drop=0.02 (learner a: -0.05)"]),
    ("auc:max_drop=0.06", 0, []),
    ("b/auc:max_drop=0.02", 0, []),
    ("auc:significant_drop", 3, ["gate failed: auc:significant_drop (learner a: -0.05)"]),
    ("b/auc:significant_drop", 0, []),
    ("recall:significant_drop", 3, ["gate failed: recall:significant_drop (learner a: -0.1)",
                                    "gate failed: recall:significant_drop (learner b: -0.1)"]),
    ("psi:max=0.25", 3, ["gate failed: psi:max=0.25 (learner a: 0.3)"]),
    ("a/psi:max=0.5", 0, []),
])
def test_gates(runs, capsys, gate, status, failed):
    assert main(["diff", *runs, "--gate", gate]) == status
    err = capsys.readouterr().err.splitlines()
    assert err == failed


@pytest.mark.parametrize("gate, message", [
    ("auc", "--gate 'auc': expected [LEARNER/]MEASURE:max_drop=X, [LEARNER/]MEASURE:significant_drop or "
            "[LEARNER/]psi:max=X (e.g. auc:max_drop=0.02)"),
    ("auc:max_drop", "--gate 'auc:max_drop': max_drop needs a number >= 0 (e.g. max_drop=0.02)"),
    ("auc:max_drop=x", "--gate 'auc:max_drop=x': max_drop needs a number >= 0 (e.g. max_drop=0.02)"),
    ("auc:max=0.2", "--gate 'auc:max=0.2': max=X is for psi; auc takes max_drop=X or significant_drop"),
    ("psi:max_drop=0.2", "--gate 'psi:max_drop=0.2': psi takes max=X"),
    ("auc:significant_drop=1", "--gate 'auc:significant_drop=1': significant_drop takes no value"),
    ("aucc:max_drop=0.1", "--gate 'aucc:max_drop=0.1': no change of aucc in these two runs"),
    ("z/auc:max_drop=0.1", "--gate 'z/auc:max_drop=0.1': no change of auc for learner 'z' in these two runs"),
])
def test_bad_gate_exit_2(runs, capsys, gate, message):
    assert main(["diff", *runs, "--gate", gate]) == 2
    err = capsys.readouterr().err
    assert err.splitlines() == [f"error: {message}"]


def test_bad_files_exit_2(runs, tmp_path, capsys):
    old, new = runs
    (tmp_path / "bad.json").write_text("{not json")
    (tmp_path / "list.json").write_text("[1]")
    cases = [
        ([str(tmp_path / "missing.json"), new], f"error: {tmp_path / 'missing.json'}: no such file"),
        ([old, str(tmp_path)], f"error: {tmp_path}: a folder, not a results.json file"),
        ([old, str(tmp_path / "list.json")],
         f"error: {tmp_path / 'list.json'}: not an evalreport results.json (no learners)"),
    ]
    for argv, message in cases:
        assert main(["diff", *argv]) == 2
        captured = capsys.readouterr()
        assert captured.err.splitlines() == [message]
        assert captured.out == ""
    assert main(["diff", old, str(tmp_path / "bad.json")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {tmp_path / 'bad.json'}: not JSON (") and "Traceback" not in err


def test_bad_level_exit_2(runs, capsys):
    assert main(["diff", *runs, "--level", "1.5"]) == 2
    assert capsys.readouterr().err.splitlines() == ["error: --level 1.5: give a level between 0 and 1 (e.g. 0.95)"]


def test_help_names_the_gates(capsys):
    with pytest.raises(SystemExit):
        main(["diff", "--help"])
    out = capsys.readouterr().out
    assert "auc:max_drop=0.02" in out and "psi:max=0.25" in out and "significant_drop" in out
