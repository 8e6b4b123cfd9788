"""The command line: a thin layer over the Python API.

Exit status: 0 done; 2 a spec, data file or argument is wrong, or the report
cannot be written where it should go (messages on stderr, nothing written);
3 the report was written but a gate failed (or, with --strict, a warning was
raised); 4 (verify) something does not check; 1 an internal error; 130 / 143 interrupted by SIGINT (Ctrl-C) /
SIGTERM (one line on stderr; the previous report intact unless the new one
was complete).

This module imports little before it handles signals (the spec, NumPy and the
rest come inside the commands), so a Ctrl-C during start-up is handled too.
"""

from __future__ import annotations

import signal
import sys


class _Signals:
    """SIGINT and SIGTERM: remember which came, and raise KeyboardInterrupt (or
    Terminated) in the main thread, once armed.

    The record matters because a library may swallow the exception (WeasyPrint's
    SVG drawing catches everything): before the new report goes in, ``check``
    raises again if a signal came. Before ``main`` is armed (during the imports,
    when run as ``python -m evalreport``) a signal is only recorded.
    """

    def __init__(self):
        self.received: int | None = None
        self.armed = False
        self.saved: dict[int, object] | None = None
        self.saved_hook = None
        self.keep = False  # the process's entry (cli): the handlers stay until the process ends
        self.told = False  # the one line is printed
        self.args = None  # the command's arguments, for the line (run: written or not)

    def handler(self, signum, frame):
        if self.received is None:
            self.received = signum
        if self.armed:
            self.raise_it()

    def raise_it(self):
        raise Terminated() if self.received == signal.SIGTERM else KeyboardInterrupt()

    def unraisable(self, unraisable) -> None:
        """sys.unraisablehook: our KeyboardInterrupt, raised inside a finaliser or a
        weakref callback (the garbage collector runs them anywhere), cannot propagate;
        Python would print it with a traceback. Drop it quietly: the signal is recorded,
        and ``check`` raises it again at the next progress step or before the report
        is written."""
        if isinstance(unraisable.exc_value, KeyboardInterrupt) and self.received is not None:
            return
        (self.saved_hook or sys.__unraisablehook__)(unraisable)

    def check(self) -> None:
        if self.received is not None:
            self.raise_it()

    def install(self) -> bool:
        """Install the handlers (main thread only); True if this call did."""
        if self.saved is not None:
            return False
        try:
            self.saved = {}
            for signum in (signal.SIGINT, signal.SIGTERM):
                # A signal ignored by whoever started us (a background job, nohup) stays
                # so; one whose handler was not installed from Python (None: an embedding
                # host's) too, since it could not be put back.
                if signal.getsignal(signum) not in (signal.SIG_IGN, None):
                    self.saved[signum] = signal.signal(signum, self.handler)
        except ValueError:  # not the main thread: leave the signals alone
            self.saved = None
            return False
        self.saved_hook, sys.unraisablehook = sys.unraisablehook, self.unraisable
        return True

    def restore(self) -> None:
        if self.saved is not None:
            for signum, old in self.saved.items():
                if old is not None:  # None: not Python's (it changed meanwhile); signal() refuses it
                    signal.signal(signum, old)
            self.saved = None
            sys.unraisablehook, self.saved_hook = self.saved_hook, None

    def quiet(self) -> None:
        """From now on only record: the message and the exit must not be cut short."""
        self.armed = False


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C so that the same clean-up runs."""


_SIGNALS = _Signals()
if __name__ == "__main__":
    _SIGNALS.install()  # before the imports below

import argparse  # noqa: E402
import os  # noqa: E402
import time  # noqa: E402

from . import start_up  # noqa: E402
from ._version import __version__  # noqa: E402
from .errors import EvalReportError, OutputError, SpecError, suggest  # noqa: E402
from .words import gate_text  # noqa: E402

EXIT_OK, EXIT_INTERNAL, EXIT_INPUT, EXIT_GATE = 0, 1, 2, 3
EXIT_SIGNAL = 128  # + the signal's number: 130 SIGINT, 143 SIGTERM


class Progress:
    """Progress lines on stderr, only when it is a terminal and not --quiet."""

    def __init__(self, quiet: bool):
        self.enabled = not quiet and sys.stderr.isatty()
        self.start = time.perf_counter()

    def __call__(self, message: str) -> None:
        _SIGNALS.check()  # each step is a point where a signal something swallowed surfaces
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
    run.add_argument("--quiet", action="store_true",
                     help="print nothing but errors and failed gates (no progress, wrote lines or warnings)")
    val = sub.add_parser("validate", help="check the spec and its data; write nothing")
    val.add_argument("spec", metavar="SPEC.yaml")
    init = sub.add_parser("init", help="write a commented starter spec")
    init.add_argument("dir", nargs="?", default=".", metavar="DIR")
    init.add_argument("--task", choices=("binary", "audit", "multiclass"), default="binary")
    sub.add_parser("schema", help="print the JSON Schema of the spec")
    mea = sub.add_parser("measures", help="list every measure: name, tasks, direction, definition, reference")
    mea.add_argument("--format", choices=("text", "json", "markdown"), default="text",
                     help="text (default), json (a list of objects) or markdown (the README's table)")
    mea.add_argument("--task", choices=("binary", "multiclass"), help="only the measures of this task")
    diff = sub.add_parser(
        "diff", help="compare two runs' results.json: the changes, whether each is more than noise, and the drift",
        description="Compare two results.json files (two runs made without an archive): each headline measure "
        "before and now, the change and its test (unpaired DeLong for the AUC, two proportions at the "
        "threshold), and the drift of the scores (PSI over the previous run's deciles, with the 0.1 / 0.25 "
        "conventions; KS). Exit status 3 when a --gate fails, 2 on an unreadable file or a bad gate.")
    diff.add_argument("old", metavar="OLD/results.json", help="the previous run's results.json")
    diff.add_argument("new", metavar="NEW/results.json", help="the current run's results.json")
    diff.add_argument("--gate", action="append", default=[], metavar="GATE",
                      help="a gate on change, repeatable: [LEARNER/]MEASURE:max_drop=X (e.g. auc:max_drop=0.02), "
                      "[LEARNER/]MEASURE:significant_drop (a drop that is more than noise at --level), "
                      "[LEARNER/]psi:max=X (e.g. psi:max=0.25); without LEARNER, every learner")
    diff.add_argument("--level", type=float, default=0.95, metavar="LEVEL",
                      help="confidence level of the tests and intervals (default 0.95)")
    ver = sub.add_parser(
        "verify", help="check a report: its attachments' sha256, its signature, its numbers rerun, the chain of audits",
        description="Check a report written by evalreport run: every attachment of the PDF against the sha256 "
        "its list records; each signature (intact, who signed, nothing appended after it, trusted by --trust); "
        "with the data attached (report.attach: [results, spec, data]) or found by sha256 in --data, the "
        "evaluation rerun from the attached spec in a temporary folder and every value of the attached "
        "results.json compared; with --history, the chain of audits. An HTML report: the sha256 of results.json "
        "it records. Exit status 0 when everything checks, 4 when something does not, 2 for an unreadable file. "
        "Nothing is written next to the report.")
    ver.add_argument("report", nargs="?", metavar="REPORT.pdf", help="report.pdf or report.html")
    ver.add_argument("--json", action="store_true", help="the checks as JSON on stdout")
    ver.add_argument("--trust", action="append", default=[], metavar="CERT",
                     help="a certificate (PEM or DER) the signer's must chain to; repeatable")
    ver.add_argument("--data", metavar="DIR", help="a folder where data not attached is found by its sha256")
    ver.add_argument("--history", metavar="DIR", help="the archive (history.dir): walk the chain of audits")
    return p


def _formats(arg: str | None):
    from .spec import FORMATS

    if arg is None:
        return None
    formats = [f.strip() for f in arg.split(",") if f.strip()]
    bad = [f for f in formats if f not in FORMATS]
    if bad or not formats:
        name = bad[0] if bad else arg
        raise SpecError([f"--format: unknown format '{name}'{suggest(name, FORMATS)}; "
                         f"valid: {', '.join(FORMATS)}"])
    return formats


def _check_environment() -> None:
    """The environment variables the engine reads, checked before any work."""
    from .counting import keysort, rated_pass
    from .counting.parallel import thread_count
    from .pipeline import source_date_epoch

    source_date_epoch()  # WeasyPrint and fontTools read it too, and fail on '' with a traceback
    try:
        thread_count()
        keysort._setting()  # EVALREPORT_SORT
        rated_pass._setting()  # EVALREPORT_PASS
    except ValueError as exc:
        raise SpecError([str(exc)]) from None


def cmd_run(args) -> int:
    from .pipeline import evaluate, report_date
    from .redact import redact_text
    from .report import check_output, render
    from .report.output_check import check_history
    from .results import report_warnings
    from .spec import load_spec
    from .verdict import gate_failed, status_line

    start_up.imports_done()
    formats = _formats(args.format)
    spec = load_spec(args.spec)
    wanted = formats if formats is not None else spec.report.formats
    out = check_output(args.out, spec)  # before the evaluation: fail in a second, not after it
    if "pdf" in wanted and spec.report.sign is not None:  # the signing key too (report.sign)
        from .report.sign import load_signer

        load_signer(spec)
    _check_environment()
    check_history(spec, report_date(spec))  # history.dir too: exit 2 means nothing was written
    if {"html", "pdf"} & set(wanted):
        from .report.html import check_template  # (Jinja: not imported by a JSON-only run)

        check_template(spec)  # report.template: the folder, and its templates compile
    progress = Progress(args.quiet)
    from .allocator import keep_freed_memory

    keep_freed_memory()  # the bootstrap's freed arrays reused, not faulted in again (issue 38)
    result = evaluate(spec, progress=progress)
    progress("writing the report")

    def checkpoint():  # the last moment to stop with the previous report intact
        _SIGNALS.check()
        args.committing = True

    left: list[str] = []  # report files in the folder that are not this run's, left in place
    drawn: list[str] = []  # the warnings raised while the figures were drawn
    written = render(result, out=out, formats=wanted, progress=progress, checkpoint=checkpoint,
                     warn=left.append, figures_warned=drawn.extend)
    if not args.quiet:
        for fmt, path in written.items():
            print(f"wrote {path}")
        for note in left:
            print(f"warning: {redact_text(note)[0]}", file=sys.stderr)
    status = EXIT_OK
    failed = [g for g in result.gates if gate_failed(g)]
    for g in failed:
        said = {"fail": "failed", "inconclusive": "inconclusive"}.get(g.get("outcome"), "not evaluated")
        print(f"gate {said}: {gate_text(g, lambda x: f'{x:.6g}')}", file=sys.stderr)
    if failed:
        status = EXIT_GATE
    # Every warning of the run: the evaluation's, as results.json lists them, then
    # NumPy's or matplotlib's while drawing the figures, as the report lists them;
    # --quiet keeps cron's mail empty.
    warnings = report_warnings(result) + drawn
    if not args.quiet or args.strict:
        for w in warnings:
            print(f"warning: {w}", file=sys.stderr)
    if args.strict and warnings:
        status = EXIT_GATE
    # the overall status last; --quiet prints it only when it is bad news
    verdict = result.verdict
    if verdict is not None and (not args.quiet or verdict.status in ("not_fit", "inconclusive")):
        print(status_line(verdict), file=sys.stderr)
    return status


def cmd_validate(args) -> int:
    from .data import load_sources
    from .pipeline import report_date
    from .report import check_output
    from .report.output_check import check_history
    from .spec import load_spec

    start_up.imports_done()
    spec = load_spec(args.spec)
    check_output(None, spec)  # report.out: a folder that can be written (nothing is left in it)
    if "pdf" in spec.report.formats and spec.report.sign is not None:  # the signing key and its password
        from .report.sign import load_signer

        load_signer(spec)
    _check_environment()
    check_history(spec, report_date(spec))
    sources = load_sources(spec)
    rows = sum(s.rows for s in sources)
    learners = sum(len(s.learner_names) for s in sources)
    print(f"{args.spec}: valid ({len(sources)} file(s), {rows:,} rows, {learners} learner(s))")
    # the learners the spec comes to, patterns expanded (files, columns, classes): what
    # a run will compare, before it runs
    datasets = any(src.dataset is not None for src in spec.data)
    table = [("learner",) + (("data set",) if datasets else ()) + ("file", "column(s)")]
    for src in spec.data:
        for name, learner in src.learners.items():
            columns = ", ".join(learner.columns) + (" (decisions)" if learner.predicted is not None else "")
            table.append((name,) + ((src.dataset or "",) if datasets else ()) + (src.display, columns))
    widths = [max(len(row[k]) for row in table) for k in range(len(table[0]))]
    for row in table:
        print("  " + "  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
    return EXIT_OK


def cmd_init(args) -> int:
    from .report.output import check_output
    from .resources import starter_data, starter_spec

    folder = check_output(args.dir)  # a file, /dev/null, a path under a file, no permission
    target = folder / "evalreport.yaml"
    exists = SpecError([f"{target}: already exists; remove it or choose another folder"])
    if os.path.lexists(target):
        raise exists
    # sample predictions beside it, so that validate and run work at once (the README's quick
    # start); a file of that name already there is the user's and stays
    name, sample = starter_data(args.task)
    data = folder / name
    written = []
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for path, text, mine in ((target, starter_spec(args.task).encode("utf-8"), True),
                                 (data, sample, False)):
            if not mine and os.path.lexists(path):
                continue
            with open(path, "xb") as f:  # "x": never over a file made meanwhile
                written.append(path)
                f.write(text)
    except FileExistsError as exc:
        for path in written:
            path.unlink(missing_ok=True)
        if exc.filename == str(target):
            raise exists from None
        raise OutputError([f"{exc.filename}: made by something else meanwhile; run init again"]) from None
    except OSError as exc:
        for path in written:  # no half-written starter
            path.unlink(missing_ok=True)
        raise OutputError([f"{exc.filename or target}: cannot write: {exc.strerror or exc}"]) from None
    print(f"wrote {target}")
    if data in written:
        print(f"wrote {data} (sample predictions: replace them with yours)")
    return EXIT_OK


def _schema(args) -> int:
    from .spec import schema_text

    sys.stdout.write(schema_text())
    return EXIT_OK


def _measures(args) -> int:
    """The registry of measures, for people (text), programs (json) or the README (markdown)."""
    import json
    import textwrap

    from . import registry

    records = [r for r in registry.as_records() if args.task is None or args.task in r["tasks"]]
    if args.format == "json":
        sys.stdout.write(json.dumps(records, indent=2, ensure_ascii=False) + "\n")
    elif args.format == "markdown":
        sys.stdout.write(registry.markdown_table())
    else:
        for r in records:
            better = {"higher": "higher is better", "lower": "lower is better", "none": ""}[r["direction"]]
            head = ", ".join(x for x in (r["kind"].replace("_", " "), "/".join(r["tasks"]), better) if x)
            print(f"{r['name']}  ({r['label']}: {head})")
            for line in textwrap.wrap(r["definition"], 88):
                print(f"    {line}")
            if r["undefined_when"]:
                print(f"    undefined when: {r['undefined_when']}")
            uses = ", ".join(r["spec"])
            print(f"    reference: {r['reference']}" + (f"; spec: {uses}" if uses else ""))
    return EXIT_OK


def cmd_diff(args) -> int:
    from . import history
    from .history.diff import check_gates, parse_gate, read_results, table_text

    if not 0 < args.level < 1:
        raise SpecError([f"--level {args.level:g}: give a level between 0 and 1 (e.g. 0.95)"])
    gates = [parse_gate(g) for g in args.gate]  # before reading: a bad gate is said first
    previous, current = read_results(args.old), read_results(args.new)
    # history.changes comes from history/changes.py (imported here, as the rest, when used)
    diff = history.changes(previous, current, level=args.level)
    try:  # the PSI conventions' words (0.1 / 0.25)
        from .history.changes import drift_label as label
    except ImportError:
        label = None
    checked = check_gates(gates, diff, level=args.level)  # a gate matching nothing: exit 2 before the table
    print(table_text(diff, label))
    failed = [g for g in checked if not g["passed"]]
    for g in failed:
        value = "undefined" if g["value"] is None else f"{g['value']:.6g}"
        of = f", class {g['class']}" if "class" in g else ""  # a multi-class task's drift, per class
        print(f"gate failed: {g['gate']} (learner {g['learner']}{of}: {value})", file=sys.stderr)
    return EXIT_GATE if failed else EXIT_OK


def _verify(args) -> int:
    from .verify.cli import cmd_verify

    start_up.imports_done()  # (a rerun of the evaluation may follow)
    return cmd_verify(args)


def _redacted(problem: str) -> str:
    """An error message as printed: credentials in it redacted (evalreport.redact), the
    location it starts with ("spec.yaml:12: spark.conf.fs.s3a.secret.key: ") kept as it is:
    a key path names a key, it holds no secret."""
    import re

    from .redact import redact_text

    located = re.match(r".*?:\d+: [^\s:]+(?:\.[^\s:]+)*: ", problem)
    head = located.group(0) if located else ""
    return head + redact_text(problem[len(head):])[0]


def _interrupted(args) -> int:
    """One line on stderr and 128 + the signal's number; nothing more may be raised."""
    _SIGNALS.quiet()
    _SIGNALS.told = True
    # CPython quirk: a KeyboardInterrupt that left code run by exec() of a string (the
    # dataclasses of a module being imported, say) marks the interpreter, and with
    # `python -m` it then dies by SIGINT after main returns, whatever it returned.
    # The next exec() of a string clears the mark.
    exec("")
    signum = _SIGNALS.received or signal.SIGINT
    name = signal.Signals(signum).name
    if getattr(args, "command", None) != "run":
        print(f"interrupted ({name})", file=sys.stderr)
    elif args.committing:
        print(f"interrupted ({name}) after the report was written", file=sys.stderr)
    else:
        print(f"interrupted ({name}); nothing was written, the previous report is intact",
              file=sys.stderr)
    return EXIT_SIGNAL + signum


def main(argv=None) -> int:
    installed = _SIGNALS.install()
    if installed:
        _SIGNALS.received = None  # a new run (tests call main again and again)
    _SIGNALS.told, _SIGNALS.args = False, None
    args = None
    try:
        _SIGNALS.armed = True
        _SIGNALS.check()  # a signal during start-up
        parser = _parser()
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help(sys.stderr)
            return EXIT_INPUT
        commands = {"run": cmd_run, "validate": cmd_validate, "init": cmd_init, "schema": _schema,
                    "measures": _measures, "diff": cmd_diff, "verify": _verify}
        args.committing = False
        _SIGNALS.args = args
        try:
            status = commands[args.command](args)
        except EvalReportError as exc:
            if _SIGNALS.received is not None:  # e.g. a render that failed because of it
                raise KeyboardInterrupt from exc
            _SIGNALS.quiet()
            for problem in exc.problems:
                # one line each: stderr holds error: and warning: lines only (a library's
                # message of several lines is joined); a message may quote a credential
                # (DuckDB echoes its SQL): redacted
                one = " ".join(p.strip() for p in str(problem).splitlines() if p.strip())
                print(f"error: {_redacted(one)}", file=sys.stderr)
            return exc.exit_status
        _SIGNALS.check()  # a signal something swallowed
        _SIGNALS.quiet()
        return status
    except KeyboardInterrupt:
        return _interrupted(args)
    finally:
        _SIGNALS.quiet()
        if installed and not _SIGNALS.keep:
            _SIGNALS.restore()


def cli(argv=None) -> None:
    """The process's entry (the ``evalreport`` script, ``python -m evalreport``):
    :func:`main`, then the end of the process, with SIGINT and SIGTERM handled until
    it exits.

    A signal after the status is decided (the report just swapped in) is only
    recorded by then; once ``main`` put the handlers back, or while the interpreter
    shuts down (it resets them to the default action), it would kill the process
    with nothing said. So the handlers stay, the signals are blocked, any that came
    or are pending is told in its one line (128 + its number), and the process ends
    at once (``os._exit`` after flushing: no shutdown in which a signal could go
    unsaid; the exit functions run first, with the signals held). What could still
    arrive after the last look stays blocked, pending, and goes with the process."""
    _SIGNALS.keep = True
    start_up.hold()  # until the command's imports are done (run, validate, verify; the rest are short)
    status = main(argv)
    sys.exit(_end(status))


def _end(status: int):
    mask = {signal.SIGINT, signal.SIGTERM}
    try:
        signal.pthread_sigmask(signal.SIG_BLOCK, mask)
    except (AttributeError, ValueError, OSError):  # no pthread_sigmask here: the ordinary exit
        return status
    import atexit

    try:  # what the interpreter's exit would have run (temporary folders, logging), signals held
        atexit._run_exitfuncs()
    except Exception:  # noqa: BLE001 - a clean-up that fails must not lose the status
        pass
    for _ in range(2):  # once more after flushing: the flush may have taken a while
        pending = signal.sigpending() & mask
        if not _SIGNALS.told and (_SIGNALS.received is not None or pending):
            if _SIGNALS.received is None:
                _SIGNALS.received = min(pending)  # SIGINT (2) before SIGTERM (15)
            status = _interrupted(_SIGNALS.args)
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError, AttributeError):  # a closed pipe, a closed or missing stream
                pass
    os._exit(status)


if __name__ == "__main__":
    cli()
