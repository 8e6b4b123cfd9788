"""Three weeks of labelled predictions of the deployed model (`logistic`) and its
challenger (`forest`), 400 cases a week: data/week-1.csv, week-2.csv, week-3.csv.

Synthetic and seeded (NumPy only): the same file every run. Weeks 1 and 2 are
alike; in week 3 the population the deployed model scores has changed under it:
its scores shift up and blur (AUC falls by about 0.1, more than noise, and its
scores drift: PSI above 0.25), while the challenger holds.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROWS = 400


def week(number: int, seed: int) -> str:
    rng = np.random.default_rng(seed)
    y = (rng.random(ROWS) < 0.35).astype(int)
    shifted = number == 3
    # a logistic model's score: the sigmoid of a margin that separates the classes
    separation, noise, shift = (0.8, 1.2, 0.9) if shifted else (1.0, 1.0, 0.0)
    margin = separation * (y - 0.5) * 2 + rng.normal(0.0, noise, ROWS) + shift - 1.0
    logistic = 1 / (1 + np.exp(-margin))
    forest_margin = 1.0 * (y - 0.5) * 2 + rng.normal(0.0, 1.1, ROWS) - 1.0
    forest = np.round(1 / (1 + np.exp(-forest_margin)) * 50) / 50  # a forest's votes: coarse
    lines = ["id,y,logistic,forest"]
    lines += [f"{number}-{i:03d},{t},{u:.4f},{v:.2f}" for i, (t, u, v) in enumerate(zip(y, logistic, forest))]
    return "\n".join(lines) + "\n"


def main() -> None:
    (HERE / "data").mkdir(exist_ok=True)
    for number, seed in ((1, 101), (2, 202), (3, 303)):
        path = HERE / "data" / f"week-{number}.csv"
        path.write_text(week(number, seed))
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
