"""The command line's process: what its entry (:func:`evalreport.__main__.cli`, not a
caller of :func:`~evalreport.__main__.main` nor the Python API) sets before the command
imports NumPy and the rest (issue 38: CPU a small json run spent on nothing it needs).

- OpenBLAS, NumPy's BLAS, starts a worker thread per core when NumPy loads, and each
  spins a while waiting for work: about 50 ms of CPU a process on two cores, that
  is, a third of NumPy's import. evalreport does not use BLAS for its numbers (float
  sums go through :mod:`evalreport.metrics.sums`, the same digits on every processor;
  the one matrix product, a multi-class task's expected costs, only picks the least),
  so the process asks for one BLAS thread, unless the user set a thread count.
- pydantic, building the spec's models, looks for plugins in the entry points of every
  installed distribution (about 6 ms with 200 of them). The models are the spec's own,
  which no plugin is meant to watch: ``PYDANTIC_DISABLE_PLUGINS`` (pydantic's own
  switch) is set, unless the user set it.
- The garbage collector. The imports (NumPy, pyarrow, pydantic and its schemas, this
  package) make a few hundred thousand objects that live as long as the process and
  no garbage; yet each full collection walks them all: about 50 ms of a 1e4-row json
  run. So it is held during them; once they are done (:func:`imports_done`) what is
  alive goes into the permanent generation (``gc.freeze``) and it runs again,
  collecting the run's own cycles without the walk.
"""

from __future__ import annotations

import gc
import os

__all__ = ["BLAS_THREADS", "hold", "imports_done"]

#: the variables OpenBLAS reads for its thread count (the first set wins)
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")

_held = [False]


def hold() -> None:
    """Before the command's imports: one BLAS thread (unless chosen), no pydantic plugins
    (unless chosen), the collector held."""
    if not any(name in os.environ for name in BLAS_THREADS):
        os.environ["OPENBLAS_NUM_THREADS"] = "1"  # (read once, when NumPy loads OpenBLAS)
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    if gc.isenabled():
        gc.disable()
        _held[0] = True


def imports_done() -> None:
    """After the command's imports: what is alive frozen, the collector running again."""
    if _held[0]:
        _held[0] = False
        gc.freeze()
        gc.enable()
