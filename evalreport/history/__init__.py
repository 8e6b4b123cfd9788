"""Scheduled audits remember: the runs before this one and what changed since."""

from .changes import changes  # noqa: F401
