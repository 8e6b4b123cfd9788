"""Render time of whole `evalreport run` commands, as a user starts them.

Each measurement is a fresh ``python3 -m evalreport run SPEC --format F`` in its
own subprocess (imports, evaluation, figures, rendering, writing: everything a
user waits for), timed by its wall clock and by its CPU time (user + system,
from ``getrusage(RUSAGE_CHILDREN)``). Each round runs every case once and, in
the same series, ``python3 -c "import numpy"``: the ratio to it says how a
report compares with the cheapest start of a NumPy program on the same
machine at the same moment, so a busy spell hits both alike.

    python3 bench/render.py                      # 5 rounds, both examples, 4 format sets
    python3 bench/render.py --rounds 3 --examples watermelon --formats json,pdf
    python3 bench/render.py --stages             # also: where one in-process run spends its time

Run it from the repository root; the checkout's ``evalreport`` is put first on
``PYTHONPATH`` (so an editable install of another checkout does not answer).
``--stages`` times, in this process, the steps of one run of each example:
loading and evaluating, results.json (as a JSON-only run makes it: the
figures built for their warnings but not drawn), drawing the figures (the
report context), the HTML template, WeasyPrint's layout (``render``) and its
PDF writing (``write_pdf``).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ("watermelon", "breast_cancer")
FORMAT_SETS = ("json", "html", "pdf", "html,pdf,json")


def _env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.setdefault("MPLBACKEND", "Agg")
    return env


def _timed(cmd: list[str], env: dict) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child) of one command; a failure aborts."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # 0 done, 3 written but a gate failed (an example may fail one on purpose)
    if proc.returncode not in (0, 3):
        sys.exit(f"{' '.join(cmd)}: exit status {proc.returncode}\n{proc.stderr.decode(errors='replace')}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def series(examples, format_sets, rounds: int) -> dict:
    env = _env()
    baseline = [sys.executable, "-c", "import numpy"]
    times: dict[tuple[str, str], list[tuple[float, float]]] = {("numpy", ""): []}
    with tempfile.TemporaryDirectory(prefix="evalreport-bench-") as tmp:
        for r in range(rounds):
            times[("numpy", "")].append(_timed(baseline, env))
            for ex in examples:
                spec = ROOT / "examples" / ex / "spec.yaml"
                for formats in format_sets:
                    out = Path(tmp) / f"{ex}-{formats.replace(',', '-')}"
                    cmd = [sys.executable, "-m", "evalreport", "run", str(spec), "--out", str(out),
                           "--format", formats, "--quiet"]
                    times.setdefault((ex, formats), []).append(_timed(cmd, env))
                    html = out / "report.html"
                    if "pdf" in formats and html.exists():
                        # WeasyPrint alone, importing and laying out the same report.html
                        # into a PDF: the floor under any report of these pages
                        alone = [sys.executable, "-c", "import sys, weasyprint; "
                                 "weasyprint.HTML(filename=sys.argv[1]).write_pdf(sys.argv[2])",
                                 str(html), str(Path(tmp) / "alone.pdf")]
                        times.setdefault((ex, f"{formats} WP"), []).append(_timed(alone, env))
            print(f"round {r + 1} of {rounds} done", file=sys.stderr, flush=True)
    return times


def report(times: dict, rounds: int) -> None:
    base_wall = statistics.median(w for w, _ in times[("numpy", "")])
    base_cpu = statistics.median(c for _, c in times[("numpy", "")])
    print(f"median of {rounds} rounds, each a fresh process; "
          f"ratio = median / median of `python3 -c \"import numpy\"` in the same series")
    print(f"{'example':<15} {'formats':<16} {'wall s':>7} {'CPU s':>7} {'wall ratio':>10} {'CPU ratio':>9}")
    for (ex, formats), values in times.items():
        wall = statistics.median(w for w, _ in values)
        cpu = statistics.median(c for _, c in values)
        name = "import numpy" if ex == "numpy" else ex
        shown = "WeasyPrint alone" if formats.endswith(" WP") else formats
        print(f"{name:<15} {shown:<16} {wall:7.2f} {cpu:7.2f} {wall / base_wall:10.1f} {cpu / base_cpu:9.1f}")
    print("whole run in these formats against WeasyPrint alone on its report.html (target <= 2x):")
    for (ex, formats), values in times.items():
        if formats.endswith(" WP"):
            run = statistics.median(c for _, c in times[(ex, formats[:-3])])
            alone = statistics.median(c for _, c in values)
            print(f"  {ex:<15} {formats[:-3]:<14} CPU {run:.2f} s / {alone:.2f} s = {run / alone:.2f}x")


def _timing_weasyprint(weasyprint) -> dict:
    """Wrap WeasyPrint's layout (HTML.render) and PDF writing (Document.write_pdf)
    so that the seconds each took land in the returned dict."""
    spent = {"render": 0.0, "write_pdf": 0.0, "pages": 0}
    html_cls, doc_cls = weasyprint.HTML, weasyprint.document.Document
    render, write = html_cls.render, doc_cls.write_pdf
    if getattr(render, "_bench", False):
        render, write = render.__wrapped__, write.__wrapped__

    def timed_render(self, *a, **k):
        t = time.perf_counter()
        doc = render(self, *a, **k)
        spent["render"] = time.perf_counter() - t
        spent["pages"] = len(doc.pages)
        return doc

    def timed_write(self, *a, **k):
        t = time.perf_counter()
        out = write(self, *a, **k)
        spent["write_pdf"] = time.perf_counter() - t
        return out

    for fn, orig in ((timed_render, render), (timed_write, write)):
        fn._bench, fn.__wrapped__ = True, orig
    html_cls.render, doc_cls.write_pdf = timed_render, timed_write
    return spent


def stages(examples) -> None:
    """Where one in-process run of each example spends its time (the second run of
    each step is not timed: the figures and context are drawn once per result)."""
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("MPLBACKEND", "Agg")
    t0 = time.perf_counter()
    from evalreport.pipeline import evaluate
    from evalreport.report import json_text
    from evalreport.spec import load_spec
    t_import = time.perf_counter() - t0
    print(f"\nstages, in one process (imports of the pipeline: {t_import:.2f} s)")
    print(f"{'example':<15} {'evaluate':>9} {'json':>6} {'figures':>8} {'html':>6} "
          f"{'import wp':>9} {'layout':>7} {'write_pdf':>9} {'pages':>5}")
    for ex in examples:
        t = time.perf_counter()
        result = evaluate(load_spec(str(ROOT / "examples" / ex / "spec.yaml")))
        t_eval = time.perf_counter() - t
        t = time.perf_counter()
        json_text(result)  # as a JSON-only run: the figures built for their warnings, not drawn
        t_json = time.perf_counter() - t
        from evalreport.report.context import report_context
        t = time.perf_counter()
        context = report_context(result)  # draws the figures (once: the HTML below prints them)
        t_fig = time.perf_counter() - t
        from evalreport.report.html import render_html
        t = time.perf_counter()
        html = render_html(result, attachments=True, context=context)
        t_html = time.perf_counter() - t
        t = time.perf_counter()
        import weasyprint
        t_wp = time.perf_counter() - t
        spent = _timing_weasyprint(weasyprint)
        from evalreport.report.pdf import html_to_pdf
        from evalreport.report.html import template_dirs
        html_to_pdf(html, title="t", date=result.date, attachments={"results.json": b"{}"},
                          template_dirs=template_dirs(result))
        t_layout, t_write, pages = spent["render"], spent["write_pdf"], spent["pages"]
        print(f"{ex:<15} {t_eval:9.2f} {t_json:6.2f} {t_fig:8.2f} {t_html:6.2f} "
              f"{t_wp:9.2f} {t_layout:7.2f} {t_write:9.2f} {pages:5d}")


def _compile_bytecode() -> None:
    """Write the checkout's bytecode (__pycache__, git-ignored) before any child
    runs, as ``pip install`` does: under PYTHONDONTWRITEBYTECODE=1 (set on this
    project's shared machine) no child writes it, so each one compiled every
    evalreport module from source, about 0.3 s of CPU that no installed copy pays."""
    import compileall

    compileall.compile_dir(str(ROOT / "evalreport"), quiet=1)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--examples", default=",".join(EXAMPLES))
    p.add_argument("--formats", default=";".join(FORMAT_SETS),
                   help="format sets separated by ';' (each as --format takes it), e.g. 'json;pdf'")
    p.add_argument("--stages", action="store_true", help="also time the steps of one in-process run")
    p.add_argument("--no-series", action="store_true", help="only --stages")
    args = p.parse_args(argv)
    examples = [e for e in args.examples.split(",") if e]
    format_sets = [f for f in args.formats.split(";") if f]
    _compile_bytecode()
    if not args.no_series:
        report(series(examples, format_sets, args.rounds), args.rounds)
    if args.stages:
        stages(examples)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
