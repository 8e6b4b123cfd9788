"""Write validation.csv and test.csv: two scikit-learn classifiers on the breast
cancer data, with a validation set to choose thresholds on.

The Wisconsin diagnostic breast cancer data (569 tumours; shipped with
scikit-learn, no download) is split once, stratified and seeded, into 50 %
training, 25 % validation and 25 % test. Each model is fitted on the training part
and scores the validation and the test parts. The columns:

    id        the tumour's row in sklearn.datasets.load_breast_cancer()
    y         1 = malignant (the positive class), 0 = benign
    batch     test.csv only: the test tumours dealt into 4 batches (by id), as a
              weekly audit would see them
    logistic  logistic regression on standardised features, P(malignant)
    forest    a random forest of 25 trees of depth 3, P(malignant)

Scores are rounded to 4 decimals so the files are the same on every machine.
scikit-learn is needed only here, not to run the report:

    python3 make_predictions.py            # rewrites both files beside this file
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

SEED = 1
HERE = Path(__file__).resolve().parent


def predictions() -> dict[str, str]:
    """{file name: CSV text}, rows sorted by id."""
    import numpy as np
    from sklearn.datasets import load_breast_cancer
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    data = load_breast_cancer()
    X, y = data.data, (data.target == 0).astype(int)
    ids = np.arange(len(y))
    X_tr, X_rest, y_tr, y_rest, _, id_rest = train_test_split(
        X, y, ids, test_size=0.5, stratify=y, random_state=SEED)
    X_va, X_te, y_va, y_te, id_va, id_te = train_test_split(
        X_rest, y_rest, id_rest, test_size=0.5, stratify=y_rest, random_state=SEED)
    models = {
        "logistic": make_pipeline(StandardScaler(), LogisticRegression(C=0.05, max_iter=1000)),
        "forest": RandomForestClassifier(n_estimators=25, max_depth=3, random_state=SEED, n_jobs=1),
    }
    for model in models.values():
        model.fit(X_tr, y_tr)
    out = {}
    for name, X_part, y_part, id_part in (("validation.csv", X_va, y_va, id_va), ("test.csv", X_te, y_te, id_te)):
        scores = {k: m.predict_proba(X_part)[:, 1] for k, m in models.items()}
        order = np.argsort(id_part)
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        test = name == "test.csv"
        w.writerow(["id", "y"] + (["batch"] if test else []) + list(models))
        for rank, i in enumerate(order):
            batch = [f"week {rank % 4 + 1}"] if test else []
            w.writerow([int(id_part[i]), int(y_part[i])] + batch + [f"{scores[k][i]:.4f}" for k in models])
        out[name] = buf.getvalue()
    return out


if __name__ == "__main__":
    for name, text in predictions().items():
        (HERE / name).write_text(text, encoding="utf-8")
        print(f"wrote {HERE / name}")
