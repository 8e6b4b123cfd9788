"""Files shipped with the package: templates and starter specs.

Jinja's file loader and WeasyPrint's base URL need the templates as a real
folder on disk, wherever the package was imported from:

- an installed wheel (or a frozen app that collects package data as files):
  ``evalreport/templates`` and ``evalreport/configs`` beside this module;
- a source checkout or an editable install: the top-level ``templates/`` and
  ``configs/`` folders (pyproject.toml maps them into the wheel);
- a zip import (a zipapp, a zipped site-packages): the files are read through
  :mod:`importlib.resources` and copied once into a private temporary folder,
  removed when the interpreter exits.

``importlib.resources.files()`` alone is not enough: for a folder without
``__init__.py`` it returns a ``MultiplexedPath`` whose ``str()`` is no path.
"""

from __future__ import annotations

import atexit
import functools
import shutil
import tempfile
from importlib import resources
from pathlib import Path

__all__ = ["templates_dir", "configs_dir", "starter_spec", "starter_data", "STARTER_TASKS"]

_PACKAGE = Path(__file__).resolve().parent
#: a file each folder must hold, so that an unrelated folder of the same name
#: (site-packages/templates of another project) is never taken for ours
_MARKERS = {"templates": "report.html.j2", "configs": "binary.yaml"}
STARTER_TASKS = ("binary", "audit", "multiclass")


def _copy_tree(source, target: Path) -> None:
    """Copy an importlib.resources Traversable folder into ``target``."""
    target.mkdir(parents=True, exist_ok=True)
    for entry in source.iterdir():
        if entry.name == "__pycache__":
            continue
        if entry.is_dir():
            _copy_tree(entry, target / entry.name)
        else:
            (target / entry.name).write_bytes(entry.read_bytes())


@functools.lru_cache(maxsize=None)
def _folder(name: str) -> Path:
    marker = _MARKERS[name]
    for candidate in (_PACKAGE / name, _PACKAGE.parent / name):
        if (candidate / marker).is_file():
            return candidate
    # Not on disk as files: a zip import. Copy the folder out once.
    source = resources.files("evalreport").joinpath(name)
    if not source.joinpath(marker).is_file():
        raise FileNotFoundError(
            f"evalreport's {name} folder is missing from the installed package "
            f"(looked in {_PACKAGE / name}, {_PACKAGE.parent / name} and the package's resources)"
        )
    root = Path(tempfile.mkdtemp(prefix=f"evalreport-{name}-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    _copy_tree(source, root / name)
    return root / name


def templates_dir() -> Path:
    """The folder of the default report templates (a real folder on disk)."""
    return _folder("templates")


def configs_dir() -> Path:
    """The folder of the commented starter specs (a real folder on disk)."""
    return _folder("configs")


def starter_spec(task: str = "binary") -> str:
    """The commented starter spec for ``task`` (binary, audit or multiclass)."""
    if task not in STARTER_TASKS:
        raise ValueError(f"unknown starter task {task!r}; valid: {', '.join(STARTER_TASKS)}")
    return (configs_dir() / f"{task}.yaml").read_text(encoding="utf-8")


def starter_data(task: str = "binary") -> tuple[str, bytes]:
    """The sample data the starter spec of ``task`` reads: (its file name, relative to
    the spec, and its bytes), so that ``evalreport init DIR`` then ``evalreport run
    DIR/evalreport.yaml`` works before the user's own predictions replace it."""
    if task not in STARTER_TASKS:
        raise ValueError(f"unknown starter task {task!r}; valid: {', '.join(STARTER_TASKS)}")
    sample = "multiclass" if task == "multiclass" else "binary"  # audit: the binary sample
    return "predictions.csv", (configs_dir() / f"{sample}.predictions.csv").read_bytes()
