"""The wheel ships every subpackage, the templates and the starter configs, and
an installed wheel finds them wherever it was imported from: unpacked into a
site-packages-like folder, or imported from the zip itself (a zipapp).

The wheel is built from this checkout once per session (``pip wheel``, about
10 s); the installed runs import evalreport from the wheel, never from the
checkout, and work in a folder outside it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")

ROOT = Path(__file__).resolve().parents[1]


def test_every_subpackage_is_listed():
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(conf["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "evalreport").rglob("__init__.py")}
    assert found <= listed, found - listed
    assert conf["package-dir"]["evalreport.templates"] == "templates"
    assert conf["package-dir"]["evalreport.configs"] == "configs"


def test_project_metadata_builds_without_deprecations():
    # issue 36: the SPDX string form of the license (the TOML table stops working in 2027), and the
    # templates' sections folder declared as a package (setuptools warned it was not)
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert conf["project"]["license"] == "MIT"
    assert any(r.startswith("setuptools>=") and int(r.split(">=")[1].split(".")[0]) >= 77
               for r in conf["build-system"]["requires"])
    setuptools = conf["tool"]["setuptools"]
    folders = {"evalreport.templates." + ".".join(p.relative_to(ROOT / "templates").parts)
               for p in (ROOT / "templates").rglob("*") if p.is_dir() and p.name != "__pycache__"}
    assert folders <= set(setuptools["packages"]), folders - set(setuptools["packages"])
    assert folders <= set(setuptools["package-data"])


def test_gitignore_has_the_virtual_environment():
    assert ".venv/" in (ROOT / ".gitignore").read_text().splitlines()


def test_resources_are_found():
    from evalreport.resources import configs_dir, starter_spec, templates_dir

    assert (templates_dir() / "report.html.j2").is_file()
    assert (configs_dir() / "binary.yaml").is_file()
    assert starter_spec("binary").startswith("# yaml-language-server")


def test_unknown_starter_task():
    from evalreport.resources import starter_spec

    with pytest.raises(ValueError, match="unknown starter task 'nope'; valid: binary, audit, multiclass"):
        starter_spec("nope")


@pytest.fixture(scope="session")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    build = tmp_path_factory.mktemp("src")
    # Build from a copy: pip would otherwise leave build/ and *.egg-info in the checkout.
    for name in ("pyproject.toml", "README.md", "evalreport", "templates", "configs"):
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, build / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(src, build / name)
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "-w", str(out), str(build)],  # -v: the build's warnings
        capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    # the build's own warnings (a license table, a folder of templates not declared as a package)
    assert "SetuptoolsDeprecationWarning" not in done.stderr and "is absent from the `packages`" not in done.stderr
    (whl,) = out.glob("evalreport-*.whl")
    return whl


@pytest.mark.slow
def test_wheel_holds_templates_and_configs(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = {f"evalreport/templates/{p.relative_to(ROOT / 'templates').as_posix()}"
               for p in (ROOT / "templates").rglob("*") if p.is_file()}
    shipped |= {f"evalreport/configs/{p.name}" for p in (ROOT / "configs").glob("*.yaml")}
    assert shipped <= names, shipped - names
    assert not any(n.startswith(("templates/", "configs/", "tests/")) for n in names)


def _installed_run(tmp_path: Path, import_path: Path) -> None:
    """init, then run the watermelon example writing every format, with evalreport
    imported from ``import_path`` only, in a folder outside the checkout."""
    work = tmp_path / "work"
    work.mkdir()
    shutil.copytree(ROOT / "examples" / "watermelon", work / "watermelon",
                    ignore=shutil.ignore_patterns("reports"))
    env = {**os.environ, "PYTHONPATH": str(import_path), "MPLBACKEND": "Agg", "SOURCE_DATE_EPOCH": "0"}

    def cli(*args):
        return subprocess.run([sys.executable, "-m", "evalreport", *args], cwd=work, env=env,
                              capture_output=True, text=True, timeout=300)

    where = subprocess.run([sys.executable, "-c", "import evalreport; print(evalreport.__file__)"],
                           cwd=work, env=env, capture_output=True, text=True)
    assert where.stdout.startswith(str(import_path)), where.stdout + where.stderr
    for task in ("binary", "audit", "multiclass"):
        done = cli("init", f"audit-{task}", "--task", task)
        assert done.returncode == 0, done.stderr
        assert (work / f"audit-{task}" / "evalreport.yaml").read_text().startswith("# yaml-language-server")
    done = cli("run", "watermelon/spec.yaml", "--format", "html,pdf,json", "--quiet")
    assert done.returncode == 0, done.stderr
    reports = work / "watermelon" / "reports"
    assert json.loads((reports / "results.json").read_text())["learners"]["A"]["auc"] == pytest.approx(0.64)
    html = (reports / "report.html").read_text()
    assert "<svg" in html and "Appendix: the spec and the definitions" in html
    assert (reports / "report.pdf").read_bytes().startswith(b"%PDF-")
    assert "Traceback" not in done.stderr


@pytest.mark.slow
def test_wheel_unpacked_like_site_packages(wheel, tmp_path):
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    _installed_run(tmp_path, site)


@pytest.mark.slow
def test_wheel_imported_from_zip(wheel, tmp_path):
    # A zipapp or zipped site-packages: the templates are not files on disk.
    _installed_run(tmp_path, wheel)
