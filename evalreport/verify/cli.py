"""``evalreport verify``'s output: one line per check, then the verdict (or JSON)."""

from __future__ import annotations

import json
import sys

from . import EXIT_FAILED, verify

__all__ = ["cmd_verify"]

_MARK = {True: "ok", False: "FAILED", None: "note"}


def cmd_verify(args) -> int:
    """Exit status 0: every check holds; 4: something does not (said why); 2: a file
    that cannot be read (raised as an EvalReportError for the command line)."""
    if args.report is None and args.history is None:
        from ..errors import SpecError

        raise SpecError(["verify: give a report (REPORT.pdf or report.html), --history DIR, or both"])
    v = verify(args.report, trust=args.trust, data_dir=args.data, history_dir=args.history)
    if args.json:
        sys.stdout.write(json.dumps(v.to_dict(), indent=2, ensure_ascii=False) + "\n")
    else:
        if v.file:
            print(v.file)
        for c in v.checks:
            print(f"  {_MARK[c['ok']]:<6}  {c['check']}: {c['text']}")
        for d in v.differences:
            print(f"  differs  {d}")
        failed = sum(1 for c in v.checks if c["ok"] is False)
        print("verify: every check holds" if v.ok else f"verify: {failed} check(s) failed")
    return 0 if v.ok else EXIT_FAILED
