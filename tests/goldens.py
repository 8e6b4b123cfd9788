"""Compare a results.json with its golden file so that the comparison holds on
any x86-64 or ARM machine, not only on the one that wrote the golden.

NumPy picks its SIMD kernels at run time (AVX-512, AVX2, NEON...), and the
kernels sum in other orders and use other approximations of exp and log, so the
last bits of a float can differ from one CPU to another (docs/architecture.md,
"What is bit-identical across machines"). The goldens therefore compare:

- floats at a relative ``REL`` = 1e-12 (about 4,500 ulp: far above a reordered
  sum's or a vectorised log's few ulp, far below any change a reader could see
  in a report printed to 3 or 4 significant digits);
- a float that is exactly 0.0 in the golden within an absolute ``ZERO_FLOOR`` =
  1e-12 of zero: a relative tolerance around 0 is no tolerance at all, and a
  zero in results.json is either exact on every machine (an empty count, two
  identical learners' difference) or the cancellation of two quantities of
  order one (a difference of two AUCs, an interval's lower end clipped at 0),
  whose rounding error is a few ulp of 1 (about 1e-16): 1e-12 is the relative
  tolerance measured against the operands' scale;
- integers, booleans, strings, nulls, key sets, key order and list lengths
  exactly (a float never equals an int here: ``1`` against ``1.0`` is a change
  of type, so a change of the file's structure).

Byte identity stays a test, as a rerun on the same machine
(tests/test_golden_bytes.py): the same inputs on the same CPU give the same bytes.
"""

from __future__ import annotations

import math

REL = 1e-12
ZERO_FLOOR = 1e-12


def differences(got, want, path: str = "$", *, rel: float = REL, zero_floor: float = ZERO_FLOOR) -> list[str]:
    """Every place where ``got`` differs from ``want`` beyond the tolerances
    above, as ``path: got != want`` lines (empty when they agree)."""
    out: list[str] = []
    _walk(got, want, path, rel, zero_floor, out)
    return out


def _walk(got, want, path, rel, zero_floor, out) -> None:
    # bool before int (bool is an int in Python), int before float: the JSON
    # types must be the same, then the values
    if type(got) is not type(want):
        out.append(f"{path}: type {type(got).__name__} != {type(want).__name__} ({got!r} != {want!r})")
    elif isinstance(want, dict):
        if list(got) != list(want):
            missing = [k for k in want if k not in got]
            extra = [k for k in got if k not in want]
            what = f"missing {missing}, extra {extra}" if missing or extra else "key order differs"
            out.append(f"{path}: keys differ ({what})")
        for key in want:
            if key in got:
                _walk(got[key], want[key], f"{path}.{key}", rel, zero_floor, out)
    elif isinstance(want, list):
        if len(got) != len(want):
            out.append(f"{path}: length {len(got)} != {len(want)}")
        for i, (g, w) in enumerate(zip(got, want)):
            _walk(g, w, f"{path}[{i}]", rel, zero_floor, out)
    elif isinstance(want, float):
        if not _close(got, want, rel, zero_floor):
            out.append(f"{path}: {got!r} != {want!r}")
    elif got != want:
        out.append(f"{path}: {got!r} != {want!r}")


def _close(got: float, want: float, rel: float, zero_floor: float) -> bool:
    if math.isnan(want) or math.isinf(want):  # not in JSON written by the project, but exact if ever
        return math.isnan(got) if math.isnan(want) else got == want
    if want == 0.0:
        return abs(got) <= zero_floor
    return abs(got - want) <= rel * max(abs(got), abs(want))


def assert_matches(got, want, *, rel: float = REL, zero_floor: float = ZERO_FLOOR) -> None:
    """Assert that ``got`` matches the golden ``want`` (see the module's text);
    the message lists the first 20 differences with their JSON paths."""
    found = differences(got, want, rel=rel, zero_floor=zero_floor)
    if found:
        shown = "\n".join(found[:20])
        more = f"\n... and {len(found) - 20} more" if len(found) > 20 else ""
        raise AssertionError(f"{len(found)} difference(s) from the golden file:\n{shown}{more}")
