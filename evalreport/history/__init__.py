"""Scheduled audits remember: the runs before this one (:mod:`.archive`) and what
changed since (:mod:`.changes`, :mod:`.drift`)."""

from .archive import Runs, previous, runs, store  # noqa: F401
from .changes import changes  # noqa: F401
