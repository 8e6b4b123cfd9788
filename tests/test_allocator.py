"""evalreport.allocator: glibc's malloc thresholds, set for a command-line run only
where the user has not set them."""

from __future__ import annotations

import subprocess
import sys

import pytest

from evalreport import allocator

CHILD = ("import os, sys; sys.path.insert(0, os.getcwd()); from evalreport.allocator import keep_freed_memory; "
         "print(keep_freed_memory())")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's Linux")
def test_set_on_glibc_and_left_alone_when_the_user_sets_malloc(tmp_path):
    import os
    from pathlib import Path

    root = Path(allocator.__file__).resolve().parents[1]
    env = {k: v for k, v in os.environ.items() if k not in allocator._USER_SETTINGS}
    run = subprocess.run([sys.executable, "-c", CHILD], cwd=root, env=env, capture_output=True, text=True)
    glibc = bool(os.confstr("CS_GNU_LIBC_VERSION")) if hasattr(os, "confstr") else False
    assert run.stdout.strip() == str(glibc)
    env["MALLOC_TRIM_THRESHOLD_"] = "131072"
    run = subprocess.run([sys.executable, "-c", CHILD], cwd=root, env=env, capture_output=True, text=True)
    assert run.stdout.strip() == "False"
