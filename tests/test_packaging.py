"""The wheel ships every subpackage, the templates and the starter configs."""

import pytest

tomllib = pytest.importorskip("tomllib")
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_subpackage_is_listed():
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(conf["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "evalreport").rglob("__init__.py")}
    assert found <= listed, found - listed
    assert conf["package-dir"]["evalreport.templates"] == "templates"
    assert conf["package-dir"]["evalreport.configs"] == "configs"


def test_resources_are_found():
    from evalreport.resources import configs_dir, starter_spec, templates_dir

    assert (templates_dir() / "report.html.j2").is_file()
    assert (configs_dir() / "binary.yaml").is_file()
    assert starter_spec("binary").startswith("# yaml-language-server")
