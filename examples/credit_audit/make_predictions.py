"""Write predictions.csv: three credit-risk scores of 4,000 synthetic loan applicants.

The data are SYNTHETIC: no real applicant is in them. A seeded generator (NumPy's
PCG64, seed 20) draws each applicant's region, age band, income, debt-to-income
ratio and past arrears; the true probability of default is a logistic function of
them, and ``default`` (1 = defaulted, the positive class) is drawn from it. Three
learners score every applicant:

    logistic    a well calibrated score: the true log-odds with a little noise,
                through the logistic function (a probability that means what it says)
    boosted     the same ranking information, over-confident (the log-odds tripled:
                scores crowd at 0 and 1), and blind to the thin credit files of
                the youngest applicants (age band 18-25): there it ranks no better
                than a noisy guess
    scorecard   a points table (0 to 100 in steps of 5, divided by 100): coarse,
                many ties, ranking about as well as logistic

The columns of predictions.csv: id, region (north, south, east, west: the west a
small region of about 120 applicants), age_band (18-25, 26-40, 41-60, 61+),
default, logistic, boosted, scorecard. Scores are written with 4 decimals, so the
file is the same on every machine. Only NumPy is needed:

    python3 make_predictions.py            # rewrites predictions.csv beside this file
"""

from __future__ import annotations

import sys
from pathlib import Path

SEED = 20
N = 4000
HERE = Path(__file__).resolve().parent
REGIONS = ("north", "south", "east", "west", "islands")
AGE_BANDS = ("18-25", "26-40", "41-60", "61+")


def predictions() -> str:
    """The CSV text (header and one row per applicant)."""
    import numpy as np

    rng = np.random.Generator(np.random.PCG64(SEED))
    region = rng.choice(len(REGIONS), size=N, p=[0.36, 0.34, 0.265, 0.03, 0.005])
    age = rng.choice(len(AGE_BANDS), size=N, p=[0.2, 0.35, 0.3, 0.15])
    income = rng.lognormal(mean=10.3 + 0.1 * age, sigma=0.45, size=N)
    dti = np.clip(rng.normal(0.32, 0.12, size=N), 0.0, 0.95)
    arrears = rng.poisson(0.4, size=N)
    logit = (-2.0 - 1.8 * (np.log(income) - 10.5) + 7.0 * (dti - 0.32) + 1.1 * arrears
             + np.array([0.0, 0.25, -0.1, 0.3, 0.0])[region] + np.array([0.35, 0.0, -0.2, 0.1])[age])
    default = rng.random(N) < 1.0 / (1.0 + np.exp(-logit))

    noisy = logit + rng.normal(0.0, 0.45, size=N)
    logistic = 1.0 / (1.0 + np.exp(-noisy))
    young = age == 0
    seen = np.where(young, 0.35 * logit + rng.normal(-1.0, 1.3, size=N), noisy)
    boosted = 1.0 / (1.0 + np.exp(-3.0 * (seen + 0.9)))
    points = np.clip(np.round((noisy + 4.0) / 6.0 * 20.0), 0, 20) * 5
    scorecard = points / 100.0

    lines = ["id,region,age_band,default,logistic,boosted,scorecard"]
    for i in range(N):
        lines.append(f"{i + 1},{REGIONS[region[i]]},{AGE_BANDS[age[i]]},{int(default[i])},"
                     f"{logistic[i]:.4f},{boosted[i]:.4f},{scorecard[i]:.4f}")
    return "\n".join(lines) + "\n"


def main() -> int:
    (HERE / "predictions.csv").write_text(predictions(), encoding="utf-8", newline="\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
