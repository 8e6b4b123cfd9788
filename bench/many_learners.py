"""Time and size of a report of many learners.

Writes a synthetic binary data set (``--rows`` rows, about 30 % positive, seeded)
scored by N learners of varying quality (binormal scores whose separation runs
from about chance to very good, so the ranking is spread out, plus ties in some),
a spec over it, and runs ``python3 -m evalreport run SPEC --format F`` in a fresh
subprocess for each format set and each N. For each run it prints the wall
seconds, the CPU seconds of the child (user + system), its peak memory
(``ru_maxrss`` of that child alone, from ``os.wait4``) and, where a PDF was
written, its pages and size.

    python3 bench/many_learners.py                         # N = 5, 50, 200; json, html, pdf, all three
    python3 bench/many_learners.py --learners 200 --formats json --profile
    python3 bench/many_learners.py --learners 50 --keep /tmp/many50   # keep the data, spec and report
    python3 bench/many_learners.py --learners 200 --stages            # CPU of each step, in process

Run it from the repository root; the checkout's ``evalreport`` is put first on
``PYTHONPATH``. ``--profile`` runs each case under cProfile instead and prints the
top functions by cumulative time (the timings are then of the profiled run).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
FORMAT_SETS = ("json", "html", "pdf", "html,pdf,json")

SPEC = """\
version: 1
title: "{n} synthetic learners"
date: 2026-11-22
task: binary
positive: 1
data:
  - path: predictions.csv
    label: y
    id: id
    learners:
{learners}
threshold: optimal
priors: {{positive: 0.2}}
costs: {{false_negative: 5, false_positive: 1}}
partial_auc: {{max_fpr: 0.1}}
confidence: {{bootstrap: {bootstrap}, seed: 0}}
report: {{formats: [json], out: reports}}
"""


def write_case(folder: Path, n: int, rows: int, seed: int, bootstrap: int) -> Path:
    """predictions.csv and spec.yaml of n learners in folder; returns the spec's path."""
    rng = np.random.default_rng(seed)
    y = (rng.random(rows) < 0.3).astype(int)
    cols = {"id": np.arange(rows), "y": y}
    names = []
    for i in range(n):
        sep = 0.1 + 2.9 * rng.random()          # binormal separation: about chance to very good
        s = rng.normal(size=rows) + sep * y
        p = 1 / (1 + np.exp(-s))
        if i % 7 == 3:                           # some coarse scores: ties
            p = np.round(p, 2)
        name = f"m{i:03d}"
        names.append(name)
        cols[name] = p
    folder.mkdir(parents=True, exist_ok=True)
    header = ",".join(cols)
    table = np.column_stack([np.asarray(v, dtype=float) for v in cols.values()])
    fmt = ["%d", "%d"] + ["%.6g"] * n
    np.savetxt(folder / "predictions.csv", table, delimiter=",", header=header, comments="", fmt=fmt)
    learners = "\n".join(f"      {m}: {m}" for m in names)
    spec = folder / "spec.yaml"
    spec.write_text(SPEC.format(n=n, learners=learners, bootstrap=bootstrap))
    return spec


def _env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.setdefault("MPLBACKEND", "Agg")
    return env


def _pdf_pages(path: Path) -> int | None:
    try:
        out = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    for line in out.splitlines():
        if line.startswith("Pages:"):
            return int(line.split()[1])
    return None


def timed_case(spec: Path, out: Path, formats: str, profile: bool) -> dict:
    """One run in a fresh child; its own rusage (wait4), so peak memory is that run's alone."""
    if out.exists():
        shutil.rmtree(out)
    cmd = [sys.executable]
    if profile:
        cmd += ["-m", "cProfile", "-s", "cumulative"]
    cmd += ["-m", "evalreport", "run", str(spec), "--out", str(out), "--format", formats, "--quiet"]
    with tempfile.TemporaryFile() as so, tempfile.TemporaryFile() as se:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, env=_env(), cwd=ROOT, stdout=so, stderr=se)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        so.seek(0)
        se.seek(0)
        stdout, stderr = so.read(), se.read()
    # 0 done, 3 written but a gate failed
    if proc.returncode not in (0, 3):
        sys.exit(f"{' '.join(cmd)}: exit status {proc.returncode}\n{stderr.decode(errors='replace')}")
    row = {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss_gb": usage.ru_maxrss * 1024 / 1e9,
           "profile": stdout.decode(errors="replace") if profile else ""}
    pdf = out / "report.pdf"
    if pdf.exists():
        row["pages"] = _pdf_pages(pdf)
        row["pdf_mb"] = pdf.stat().st_size / 1e6
    html = out / "report.html"
    if html.exists():
        row["html_mb"] = html.stat().st_size / 1e6
    return row


def stages(spec: Path) -> dict:
    """CPU seconds (this process) of each step of one in-process run of every format:
    evaluating, the report's context and figures, results.json, the HTML, and the PDF
    (WeasyPrint's layout and writing, results.json attached as a real run does)."""
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("MPLBACKEND", "Agg")
    from evalreport.pipeline import evaluate
    from evalreport.report import json_text
    from evalreport.report.context import report_context
    from evalreport.report.html import render_html, template_dirs
    from evalreport.report.pdf import html_to_pdf
    from evalreport.spec import load_spec

    out = {}
    t = time.process_time()
    result = evaluate(load_spec(str(spec)))
    out["evaluate"] = time.process_time() - t
    t = time.process_time()
    context = report_context(result)  # draws the figures (once: the HTML below prints them)
    out["figures"] = time.process_time() - t
    t = time.process_time()
    results_json = json_text(result).encode()
    out["json"] = time.process_time() - t
    t = time.process_time()
    html = render_html(result, attachments=True, context=context)
    out["html"] = time.process_time() - t
    t = time.process_time()
    html_to_pdf(html, title="t", date=result.date, attachments={"results.json": results_json},
                template_dirs=template_dirs(result))
    out["pdf"] = time.process_time() - t
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--learners", default="5,50,200", help="numbers of learners, comma-separated")
    ap.add_argument("--formats", default=";".join(FORMAT_SETS),
                    help="format sets separated by ';' (each as --format takes it), e.g. 'json;pdf'")
    ap.add_argument("--rows", type=int, default=2000)
    ap.add_argument("--bootstrap", type=int, default=200, help="confidence.bootstrap of the spec")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--profile", action="store_true", help="run under cProfile; print the top 40 lines")
    ap.add_argument("--stages", action="store_true",
                    help="instead: CPU seconds of each step of one in-process run per N")
    ap.add_argument("--keep", type=Path, help="write the cases here (kept) instead of a temporary folder")
    args = ap.parse_args(argv)
    ns = [int(x) for x in args.learners.split(",")]
    format_sets = [f for f in args.formats.split(";") if f]

    tmp = None
    base = args.keep
    if base is None:
        tmp = tempfile.TemporaryDirectory(prefix="evalreport-many-")
        base = Path(tmp.name)
    if args.stages:
        print(f"{'learners':>8} {'evaluate':>9} {'figures':>8} {'json':>6} {'html':>6} {'pdf':>6}  (CPU s)")
        with tempfile.TemporaryDirectory(prefix="evalreport-many-") as folder:
            for n in ns:
                r = stages(write_case(Path(folder) / f"n{n}", n, args.rows, args.seed, args.bootstrap))
                print(f"{n:>8} {r['evaluate']:>9.1f} {r['figures']:>8.1f} {r['json']:>6.1f} {r['html']:>6.1f} "
                      f"{r['pdf']:>6.1f}", flush=True)
        return 0
    print(f"{'learners':>8} {'formats':<14} {'wall s':>8} {'CPU s':>8} {'peak GB':>8} {'pages':>6} "
          f"{'PDF MB':>7} {'HTML MB':>8}")
    try:
        for n in ns:
            spec = write_case(base / f"n{n}", n, args.rows, args.seed, args.bootstrap)
            for formats in format_sets:
                out = base / f"n{n}" / f"out-{formats.replace(',', '-')}"
                r = timed_case(spec, out, formats, args.profile)
                pages = "" if r.get("pages") is None else str(r["pages"])
                pdf_mb = f"{r['pdf_mb']:.2f}" if "pdf_mb" in r else ""
                html_mb = f"{r['html_mb']:.2f}" if "html_mb" in r else ""
                print(f"{n:>8} {formats:<14} {r['wall']:>8.1f} {r['cpu']:>8.1f} {r['rss_gb']:>8.2f} "
                      f"{pages:>6} {pdf_mb:>7} {html_mb:>8}", flush=True)
                if args.profile:
                    lines = r["profile"].splitlines()
                    start = next((i for i, ln in enumerate(lines) if "ncalls" in ln), 0)
                    print("\n".join(lines[start:start + 41]), flush=True)
    finally:
        if tmp is not None:
            tmp.cleanup()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
