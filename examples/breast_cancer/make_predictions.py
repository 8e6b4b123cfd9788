"""Write predictions.csv: four scikit-learn classifiers on the breast cancer data.

The Wisconsin diagnostic breast cancer data (569 tumours, 30 features; shipped with
scikit-learn, no download) is split once, stratified and seeded, into 60 % training
and 40 % test (228 tumours). Each model is fitted on the training part and scores
the test part. The columns of predictions.csv:

    id        the tumour's row in sklearn.datasets.load_breast_cancer()
    y         1 = malignant (the positive class), 0 = benign
              (scikit-learn's own target is the other way round: 0 = malignant)
    logistic  logistic regression on standardised features, P(malignant)
    tree      a decision tree of depth 2 (four leaves: four distinct scores)
    bayes     Gaussian naive Bayes on 5 size features, P(malignant)
    forest    a random forest of 25 trees of depth 3, P(malignant)

Scores are rounded to 4 decimals so the file is the same on every machine.
scikit-learn is needed only here, not to run the report:

    python3 make_predictions.py            # rewrites predictions.csv beside this file
"""

from __future__ import annotations

import csv
import io
import sys
from pathlib import Path

SEED = 0
HERE = Path(__file__).resolve().parent
#: naive Bayes sees only these (size) features: a cheap, weaker model
BAYES_FEATURES = ["mean radius", "mean perimeter", "mean area", "worst radius", "worst area"]


def predictions() -> str:
    """The CSV text (header and one row per test tumour, sorted by id)."""
    import numpy as np
    from sklearn.datasets import load_breast_cancer
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    from sklearn.naive_bayes import GaussianNB
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.tree import DecisionTreeClassifier

    data = load_breast_cancer()
    X = data.data
    y = (data.target == 0).astype(int)  # scikit-learn: 0 = malignant; here 1 = malignant
    ids = np.arange(len(y))
    X_tr, X_te, y_tr, y_te, _, id_te = train_test_split(
        X, y, ids, test_size=0.4, stratify=y, random_state=SEED)
    size = [list(data.feature_names).index(f) for f in BAYES_FEATURES]

    models = {
        "logistic": (make_pipeline(StandardScaler(), LogisticRegression(C=0.05, max_iter=1000)), None),
        "tree": (DecisionTreeClassifier(max_depth=2, random_state=SEED), None),
        "bayes": (GaussianNB(), size),
        "forest": (RandomForestClassifier(n_estimators=25, max_depth=3, random_state=SEED, n_jobs=1), None),
    }
    scores = {}
    for name, (model, cols) in models.items():
        tr, te = (X_tr, X_te) if cols is None else (X_tr[:, cols], X_te[:, cols])
        model.fit(tr, y_tr)
        scores[name] = model.predict_proba(te)[:, 1]

    order = np.argsort(id_te)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["id", "y", *scores])
    for i in order:
        w.writerow([int(id_te[i]), int(y_te[i]), *(f"{round(float(s[i]), 4):.4f}" for s in scores.values())])
    return out.getvalue()


def main(argv=None) -> int:
    target = HERE / "predictions.csv"
    target.write_text(predictions(), encoding="utf-8")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
