"""The scheduled audit with history, end to end with the real archive and changes:
the example's three weeks run as run_weekly.sh runs them (examples/scheduled_audit)."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

import pytest

from evalreport.__main__ import main

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "scheduled_audit"


@pytest.fixture(scope="module")
def weeks(tmp_path_factory):
    folder = tmp_path_factory.mktemp("audit")
    shutil.copy(EXAMPLE / "weekly.yaml", folder)
    shutil.copytree(EXAMPLE / "data", folder / "data", ignore=shutil.ignore_patterns("week.csv"))
    mp = pytest.MonkeyPatch()
    statuses, results = [], []
    try:
        for week, day in ((1, 2), (2, 9), (3, 16)):
            shutil.copy(folder / "data" / f"week-{week}.csv", folder / "data" / "week.csv")
            epoch = int(dt.datetime(2026, 11, day, 6, tzinfo=dt.timezone.utc).timestamp())
            mp.setenv("SOURCE_DATE_EPOCH", str(epoch))
            out = folder / "reports" / f"2026-11-{day:02d}"
            statuses.append(main(["run", str(folder / "weekly.yaml"), "--quiet", "--out", str(out),
                                  "--format", "json"]))
            results.append(json.loads((out / "results.json").read_text()))
    finally:
        mp.undo()
    return folder, statuses, results


@pytest.mark.slow
def test_three_weeks_archived_and_the_third_fails_its_gates(weeks):
    folder, statuses, results = weeks
    assert statuses == [0, 0, 3]
    assert sorted(p.name for p in (folder / "history").iterdir()) == ["2026-11-02", "2026-11-09", "2026-11-16"]
    first = results[0]["history"]
    assert first["previous"] is None or first["previous"] == {}  # nothing to compare with


def test_the_third_week_shows_a_significant_drop_a_drift_and_the_trend(weeks):
    _, _, results = weeks
    history = results[2]["history"]
    assert history["previous"]["date"] == "2026-11-09"
    (auc,) = [c for c in history["changes"] if c["learner"] == "logistic" and c["measure"] == "auc"]
    assert auc["change"] == pytest.approx(auc["current"] - auc["previous"])
    assert auc["change"] < -0.05 and auc["p_value"] < 0.001 and auc["method"] == "delong_unpaired"
    (drift,) = [d for d in history["drift"] if d["learner"] == "logistic"]
    assert drift["psi"] > 0.25 and 0 < drift["ks"] <= 1
    assert [r["date"] for r in history["runs"]] == ["2026-11-02", "2026-11-09", "2026-11-16"]
    failed = {(g.get("metric") or g.get("drift"), g.get("max_drop"), g.get("significant_drop"))
              for g in results[2]["gates"] if not g["passed"]}
    assert ("auc", 0.05, None) in failed and ("auc", None, True) in failed and ("psi", None, None) in failed
