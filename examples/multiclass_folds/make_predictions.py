"""Write predictions.csv: three classifiers, 5-fold cross-validated, on the wine data.

The wine data (178 wines of three cultivars grown in one region of Italy, 13 chemical
measurements; shipped with scikit-learn, no download) is split into 5 stratified,
seeded folds. Each wine is scored by models fitted on the other 4 folds
(cross_val_predict), so every row is an out-of-fold prediction. The columns:

    id            the wine's row in sklearn.datasets.load_wine()
    cultivar      barolo, grignolino or barbera (scikit-learn's class_0, class_1, class_2)
    fold          1 to 5: the fold in which the wine was held out
    <model>_<cultivar>   the model's probability of each cultivar, in the order
                         barolo, grignolino, barbera (the spec's `classes`)

The models: logistic regression on standardised features, Gaussian naive Bayes,
and 15-nearest neighbours on the raw (unscaled) features, a deliberately weak model.
Probabilities are rounded to 4 decimals so the file is the same on every machine.
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
CULTIVARS = ["barolo", "grignolino", "barbera"]  # scikit-learn's class_0, class_1, class_2


def predictions() -> str:
    """The CSV text (header and one row per wine, in the data set's order)."""
    import numpy as np
    from sklearn.datasets import load_wine
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold, cross_val_predict
    from sklearn.naive_bayes import GaussianNB
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = load_wine(return_X_y=True)
    folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=SEED)
    fold = np.zeros(len(y), dtype=int)
    for k, (_, test) in enumerate(folds.split(X, y), start=1):
        fold[test] = k
    models = {
        "logistic": make_pipeline(StandardScaler(), LogisticRegression(C=0.1, max_iter=1000)),
        "bayes": GaussianNB(),
        "knn": KNeighborsClassifier(n_neighbors=15),
    }
    proba = {name: cross_val_predict(model, X, y, cv=folds, method="predict_proba")
             for name, model in models.items()}

    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["id", "cultivar", "fold"] + [f"{m}_{c}" for m in models for c in CULTIVARS])
    for i in range(len(y)):
        row = [i, CULTIVARS[y[i]], fold[i]]
        for p in proba.values():
            row += [f"{round(float(v), 4):.4f}" for v in p[i]]
        w.writerow(row)
    return out.getvalue()


def main(argv=None) -> int:
    target = HERE / "predictions.csv"
    target.write_text(predictions(), encoding="utf-8")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
