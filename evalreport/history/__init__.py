from .archive import Runs, previous, runs, store  # noqa: F401
