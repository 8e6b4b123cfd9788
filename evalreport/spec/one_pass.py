"""Every problem of a spec in one pass (issue 36): when keys fail their own
checks (pydantic's), the checks across keys still run, on the spec with those
keys left out, and the problems they find are told with the others.

A key that failed is left out (its default stands in); where that cannot be
done (a required key, a learner or a data entry itself) the checks across keys
wait for the next run. A problem across keys that touches a key left out (the
key itself, a key inside it or the one holding it) is not told: it could come
from the leaving out. The data is read only when the spec is valid.
"""

from __future__ import annotations

from copy import deepcopy
from pathlib import Path

from pydantic import ValidationError

from .checks import clean_loc, semantic_problems
from .messages import Locator
from .models import Spec
from .patterns import expand_patterns

__all__ = ["cross_key_problems"]

#: rounds of leaving keys out (a key left out may reveal another: a learner without
#: its only column)
_ROUNDS = 3


def cross_key_problems(data: dict, exc: ValidationError, where: Locator, *, base_dir: Path, source: str
                       ) -> list[str]:
    """The cross-key problems of ``data`` (whose validation raised ``exc``) with the
    keys that failed left out; [] when the spec cannot be made valid so."""
    data = deepcopy(data)
    pruned: list[tuple] = []
    for _ in range(_ROUNDS):
        before = list(pruned)
        # (a union's members each fail at one key: the key once)
        for key in dict.fromkeys(_key_of(clean_loc(err["loc"])) for err in exc.errors(include_url=False)):
            if key is None or key in before or not _remove(data, key):
                return []  # a key every spec needs, or one that fails again: the next run tells the rest
            pruned.append(key)
        try:
            spec = Spec.model_validate({**data, "base_dir": Path(base_dir), "source": source})
        except ValidationError as again:
            exc = again
            continue
        except Exception:  # noqa: BLE001 - a spec left so short that a check trips: no more to tell
            return []
        # learners from patterns expanded first, as on the way of a valid spec (a gate names
        # lr_r001, not lr_{run}); on a locator of its own (the expansion records its aliases)
        local = Locator(where.source, where.lines)
        try:
            spec, expanded = expand_patterns(spec, local)
            if expanded:
                return []  # the patterns' problems are told when the keys are fixed
            recorder = _Recorder(local)
            semantic_problems(spec, recorder)
        except Exception:  # noqa: BLE001 - the same
            return []
        return [message for loc, message in recorder.told if not any(_related(loc, key) for key in pruned)]
    return []


def _key_of(loc: tuple) -> tuple | None:
    """The key to leave out for a problem at ``loc``: the deepest mapping key of it
    (an item of a list: the list's key); None where it is a learner, a data entry or
    a key every spec needs."""
    k = len(loc)
    while k and not isinstance(loc[k - 1], str):
        k -= 1
    key = tuple(loc[:k])
    if not key or key in (("version",), ("data",)) or (key[0] == "data" and len(key) <= 4 and "learners" in key):
        return None
    if key[0] == "data" and len(key) == 3 and key[2] in ("label", "path", "table"):
        return None
    return key


def _remove(data, key: tuple) -> bool:
    node = data
    for part in key[:-1]:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return False
    if not isinstance(node, dict) or key[-1] not in node:
        return False
    del node[key[-1]]
    return True


def _related(a: tuple, b: tuple) -> bool:
    n = min(len(a), len(b))
    return tuple(a[:n]) == tuple(b[:n])


class _Recorder:
    """A locator that records the key path of each message it makes."""

    def __init__(self, where: Locator):
        self._where = where
        self.told: list[tuple[tuple, str]] = []

    def message(self, loc, text: str) -> str:
        out = self._where.message(loc, text)
        self.told.append((tuple(loc), out))
        return out

    def __getattr__(self, name):
        return getattr(self._where, name)
