"""The README documents every spec key, metric, comparison and exit status."""

import re
from pathlib import Path

from evalreport import spec as S

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()


def _keys(model, prefix=""):
    for name, field in model.model_fields.items():
        if field.exclude:
            continue
        yield prefix + name


def test_every_spec_key_is_documented():
    missing = []
    for model, prefix in ((S.Spec, ""), (S.DataSource, ""), (S.Learner, ""), (S.PartialAuc, ""),
                          (S.Confidence, ""), (S.Gate, ""), (S.Report, "report."), (S.Spark, "")):
        for key in _keys(model, prefix):
            if f"`{key}`" not in README and not re.search(rf"`[^`]*\b{re.escape(key.split('.')[-1])}\b[^`]*`", README):
                missing.append(key)
    assert not missing, f"spec keys not in README.md: {missing}"


def test_every_name_list_is_documented():
    for name in S.METRICS + S.COMPARISONS + S.FORMATS + S.GATE_METRICS:
        assert name in README, name


def test_exit_statuses_and_commands():
    for text in ("| 0 |", "| 2 |", "| 3 |", "| 1 |", "evalreport run", "evalreport validate",
                 "evalreport init", "evalreport schema", "python3 -m pytest"):
        assert text in README, text
