"""Benchmark: multi-class evaluation (issue: 1e6 instances x 10 classes x 3 learners
in a few seconds).

Times (wall and CPU seconds: on a shared machine the CPU time is the steady
figure) the engine's `evaluate_multiclass` (confusion matrix, one-vs-rest measures
with their AUC and AP, macro and micro averages, one-vs-one AUC) per learner,
in one process, and the one-vs-rest AUCs by scikit-learn for reference.

    python3 bench/multiclass.py [--rows 1e6] [--classes 10] [--learners 3]
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=float, default=1e6)
    ap.add_argument("--classes", type=int, default=10)
    ap.add_argument("--learners", type=int, default=3)
    ap.add_argument("--sklearn", action="store_true", help="also time scikit-learn's OvR + OvO AUC")
    args = ap.parse_args()
    from evalreport.metrics.multiclass import evaluate_multiclass

    n, k = int(args.rows), args.classes
    rng = np.random.default_rng(0)
    y = rng.integers(0, k, n)
    classes = list(range(k))
    total = cpu_total = 0.0
    for j in range(args.learners):
        logits = rng.normal(size=(n, k)) + (0.8 + 0.3 * j) * np.eye(k)[y]
        p = np.exp(logits - logits.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        t0, c0 = time.perf_counter(), time.process_time()
        ev = evaluate_multiclass(y, classes=classes, scores=p, encoded=True)
        dt, cpu = time.perf_counter() - t0, time.process_time() - c0
        total += dt
        cpu_total += cpu
        line = f"learner {j}: {dt:.2f} s, CPU {cpu:.2f} s (accuracy {ev.accuracy:.3f}, macro AUC {ev.macro_auc:.4f}, OvO AUC {ev.ovo_auc:.4f})"
        if args.sklearn:
            from sklearn.metrics import roc_auc_score

            t0 = time.perf_counter()
            roc_auc_score(y, p, multi_class="ovr")
            roc_auc_score(y, p, multi_class="ovo")
            line += f"; scikit-learn OvR + OvO AUC {time.perf_counter() - t0:.2f} s"
        print(line)
    print(f"{n:,} instances x {k} classes x {args.learners} learners: {total:.2f} s in all, CPU {cpu_total:.2f} s")


if __name__ == "__main__":
    main()
