"""What the audit measures of issue 20 add to a learner's evaluation.

Run from the repository root:

    python3 bench/audit.py                 # n = 1e6 and 1e7, 5 rounds
    python3 bench/audit.py --sizes 1e6 --rounds 9

For each n (continuous scores in [0, 1], 30 % positives) the rounds are
interleaved in one process: ``np.sort(scores)``, the engine's evaluation
(``evaluate_binary_for_report``: one sort, the count table), then, on that
evaluation's count table as the pipeline reads it, the calibration (Brier score,
log loss, ECE and ten reliability bins), KS, the threshold table of five
operating points with the gains by decile, and the confusion-matrix family at
0.5. Medians over the rounds, and each as a ratio to np.sort and to the
evaluation. Once per size the calibration is checked against scikit-learn's
brier_score_loss and log_loss (outside the timing).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from evalreport.metrics.binary import evaluate_binary_for_report  # noqa: E402
from evalreport.metrics.calibration import calibration_of, table_outcomes  # noqa: E402
from evalreport.metrics.family import family_at  # noqa: E402
from evalreport.metrics.ks import ks_of  # noqa: E402
from evalreport.metrics.operating_table import operating_table  # noqa: E402

ASKED = {"at": [0.3, 0.5], "top_fraction": [0.1], "recall": [0.9], "fpr": [0.05]}


def _timed(fn):
    gc.collect()
    t = time.perf_counter()
    out = fn()
    elapsed = time.perf_counter() - t
    del out
    return elapsed


def calibration(ev):
    scores, pos, neg, counts = table_outcomes(ev.counts)
    return calibration_of(scores, pos, neg, bins=10, strategy="uniform", level=0.95, counts=counts,
                          descending=True)


def family(ev):
    at = ev.at_threshold(0.5)
    return family_at(at.tp, at.fp, at.tn, at.fn)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="1e6,1e7")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args(argv)
    rng = np.random.default_rng(0)
    print("| n | np.sort s | evaluation s | calibration s (/ sort, / evaluation) | KS s | threshold table + gains s "
          "| family s |")
    print("|---|---|---|---|---|---|---|")
    for n in (int(float(x)) for x in args.sizes.split(",")):
        y = rng.random(n) < 0.3
        s = rng.random(n)
        ev = evaluate_binary_for_report(y, s, positive=True)
        cal = calibration(ev)
        try:
            from sklearn.metrics import brier_score_loss, log_loss
        except ImportError:
            pass
        else:
            assert abs(cal.brier - brier_score_loss(y, s)) < 1e-9 and abs(cal.log_loss - log_loss(y, s)) < 1e-9
        times = {k: [] for k in ("sort", "evaluate", "calibration", "ks", "table", "family")}
        for _ in range(args.rounds):
            times["sort"].append(_timed(lambda: np.sort(s)))
            times["evaluate"].append(_timed(lambda: evaluate_binary_for_report(y, s, positive=True)))
            ev = evaluate_binary_for_report(y, s, positive=True)  # a fresh table: its columns not yet formed
            times["calibration"].append(_timed(lambda: calibration(ev)))
            times["ks"].append(_timed(lambda: ks_of(ev)))
            times["table"].append(_timed(lambda: operating_table(ev.counts, ASKED)))
            times["family"].append(_timed(lambda: family(ev)))
            del ev
        med = {k: statistics.median(v) for k, v in times.items()}
        print(f"| {n:.0e} | {med['sort']:.3f} | {med['evaluate']:.3f} | {med['calibration']:.3f} "
              f"({med['calibration'] / med['sort']:.2f}x, {med['calibration'] / med['evaluate']:.2f}x) "
              f"| {med['ks']:.5f} | {med['table']:.4f} | {med['family']:.5f} |")


if __name__ == "__main__":
    main()
