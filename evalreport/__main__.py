"""The command line: a thin layer over the Python API.

Exit status: 0 done; 2 a spec, data file or argument is wrong (messages on
stderr, nothing written); 3 the report was written but a gate failed (or,
with --strict, a warning was raised); 1 an internal error.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from . import __version__
from .errors import EvalReportError, SpecError
from .spec import FORMATS, load_spec, schema_text, suggest

EXIT_OK, EXIT_INTERNAL, EXIT_INPUT, EXIT_GATE = 0, 1, 2, 3


class Progress:
    """Progress lines on stderr, only when it is a terminal and not --quiet."""

    def __init__(self, quiet: bool):
        self.enabled = not quiet and sys.stderr.isatty()
        self.start = time.perf_counter()

    def __call__(self, message: str) -> None:
        if self.enabled:
            print(f"[{time.perf_counter() - self.start:6.1f}s] {message}", file=sys.stderr, flush=True)


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse exits 2 as well; keep its message short
        self.print_usage(sys.stderr)
        print(f"evalreport: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_INPUT)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="evalreport", description="Declarative evaluation reports for classifiers.")
    p.add_argument("--version", action="version", version=f"evalreport {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    run = sub.add_parser("run", help="evaluate a spec and write the report")
    run.add_argument("spec", metavar="SPEC.yaml")
    run.add_argument("--out", metavar="DIR", help="output folder (overrides report.out)")
    run.add_argument("--format", metavar="FORMATS",
                     help="comma-separated: html,pdf,json (overrides report.formats)")
    run.add_argument("--strict", action="store_true",
                     help="treat warnings (undefined measures, ...) like a failed gate: exit 3")
    run.add_argument("--quiet", action="store_true", help="no progress on stderr")
    val = sub.add_parser("validate", help="check the spec and its data; write nothing")
    val.add_argument("spec", metavar="SPEC.yaml")
    init = sub.add_parser("init", help="write a commented starter spec")
    init.add_argument("dir", nargs="?", default=".", metavar="DIR")
    init.add_argument("--task", choices=("binary", "audit", "multiclass"), default="binary")
    sub.add_parser("schema", help="print the JSON Schema of the spec")
    return p


def _formats(arg: str | None):
    if arg is None:
        return None
    formats = [f.strip() for f in arg.split(",") if f.strip()]
    bad = [f for f in formats if f not in FORMATS]
    if bad or not formats:
        name = bad[0] if bad else arg
        raise SpecError([f"--format: unknown format '{name}'{suggest(name, FORMATS)}; "
                         f"valid: {', '.join(FORMATS)}"])
    return formats


def cmd_run(args) -> int:
    from .pipeline import evaluate
    from .report import render

    formats = _formats(args.format)
    spec = load_spec(args.spec)
    wanted = formats if formats is not None else spec.report.formats
    progress = Progress(args.quiet)
    result = evaluate(spec, progress=progress)
    progress("writing the report")
    written = render(result, out=args.out, formats=wanted)
    if not args.quiet:
        for fmt, path in written.items():
            print(f"wrote {path}")
    status = EXIT_OK
    failed = [g for g in result.gates if not g["passed"]]
    for g in failed:
        bound = " and ".join(f"{k} {g[k]}" for k in ("min", "max") if k in g)
        value = "undefined" if g["value"] is None else f"{g['value']:.6g}"
        print(f"gate failed: {g['learner']}: {g['metric']} = {value} (needs {bound})", file=sys.stderr)
    if failed:
        status = EXIT_GATE
    if args.strict and result.warnings:
        for w in result.warnings:
            print(f"warning: {w}", file=sys.stderr)
        status = EXIT_GATE
    return status


def cmd_validate(args) -> int:
    from .data import load_sources

    spec = load_spec(args.spec)
    sources = load_sources(spec)
    rows = sum(s.rows for s in sources)
    learners = sum(len(s.learner_names) for s in sources)
    print(f"{args.spec}: valid ({len(sources)} file(s), {rows:,} rows, {learners} learner(s))")
    return EXIT_OK


def cmd_init(args) -> int:
    from .resources import starter_spec

    folder = Path(args.dir)
    target = folder / "evalreport.yaml"
    if target.exists():
        raise SpecError([f"{target}: already exists; remove it or choose another folder"])
    folder.mkdir(parents=True, exist_ok=True)
    target.write_text(starter_spec(args.task), encoding="utf-8")
    print(f"wrote {target}")
    return EXIT_OK


def main(argv=None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_INPUT
    commands = {"run": cmd_run, "validate": cmd_validate, "init": cmd_init,
                "schema": lambda a: (sys.stdout.write(schema_text()), EXIT_OK)[1]}
    try:
        return commands[args.command](args)
    except EvalReportError as exc:
        for problem in exc.problems:
            print(f"error: {problem}", file=sys.stderr)
        return exc.exit_status
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
