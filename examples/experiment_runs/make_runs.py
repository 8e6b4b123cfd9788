"""Write runs/<run>/predictions.csv: twenty runs of one experiment.

The Wisconsin diagnostic breast cancer data (569 tumours, 30 features; shipped with
scikit-learn, no download) is split once, stratified and seeded, into 60 % training
and 40 % test (228 tumours): every run scores the same test tumours, so the runs are
paired by id. A run is logistic regression on standardised features with one of five
regularisation strengths C (0.001 to 10) and one of four seeds; the seed draws the
run's training sample (70 % of the training part, without replacement) and, for
seeds 2 and 3, keeps only the first ten features (the "mean" ones). The run's name
is its hyper-parameters, e.g. ``C0.1_seed2``. The columns of each file:

    id      the tumour's row in sklearn.datasets.load_breast_cancer()
    label   1 = malignant (the positive class), 0 = benign
    score   the run's P(malignant), rounded to 4 decimals (the same on every machine)

scikit-learn is needed only here, not to run the report:

    python3 make_runs.py            # rewrites runs/ beside this file
"""

from __future__ import annotations

import csv
import io
import sys
from pathlib import Path

SEED = 0
HERE = Path(__file__).resolve().parent
C_VALUES = (0.001, 0.01, 0.1, 1, 10)
SEEDS = (0, 1, 2, 3)
TRAIN_SHARE = 0.7
#: seeds from this one on see only the ten "mean ..." features
FEW_FEATURES_FROM_SEED = 2


def runs() -> dict[str, str]:
    """run name -> the CSV text of its predictions (one row per test tumour, sorted by id)."""
    import numpy as np
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    data = load_breast_cancer()
    X = data.data
    y = (data.target == 0).astype(int)  # scikit-learn: 0 = malignant; here 1 = malignant
    ids = np.arange(len(y))
    X_tr, X_te, y_tr, y_te, _, id_te = train_test_split(X, y, ids, test_size=0.4, stratify=y, random_state=SEED)
    order = np.argsort(id_te)
    out = {}
    for seed in SEEDS:
        rng = np.random.default_rng(seed)
        sample = np.sort(rng.choice(len(y_tr), size=round(TRAIN_SHARE * len(y_tr)), replace=False))
        columns = slice(0, 10) if seed >= FEW_FEATURES_FROM_SEED else slice(None)
        for c in C_VALUES:
            model = make_pipeline(StandardScaler(), LogisticRegression(C=c, max_iter=5000))
            model.fit(X_tr[sample][:, columns], y_tr[sample])
            score = model.predict_proba(X_te[:, columns])[:, 1]
            text = io.StringIO()
            w = csv.writer(text, lineterminator="\n")
            w.writerow(["id", "label", "score"])
            for i in order:
                w.writerow([int(id_te[i]), int(y_te[i]), f"{round(float(score[i]), 4):.4f}"])
            out[f"C{c:g}_seed{seed}"] = text.getvalue()
    return out


def main(argv=None) -> int:
    for name, text in runs().items():
        target = HERE / "runs" / name / "predictions.csv"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    print(f"wrote {len(C_VALUES) * len(SEEDS)} runs under {HERE / 'runs'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
