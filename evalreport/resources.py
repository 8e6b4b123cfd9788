"""Files shipped with the package: templates and starter specs.

In the wheel they live in evalreport/templates and evalreport/configs; in a
source checkout they are the top-level templates/ and configs/ folders.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent


def _folder(name: str) -> Path:
    try:
        path = Path(str(resources.files(f"evalreport.{name}")))
        if path.is_dir():
            return path
    except (ModuleNotFoundError, TypeError):
        pass
    return _ROOT / name


def templates_dir() -> Path:
    return _folder("templates")


def configs_dir() -> Path:
    return _folder("configs")


def starter_spec(task: str = "binary") -> str:
    return (configs_dir() / f"{task}.yaml").read_text(encoding="utf-8")
