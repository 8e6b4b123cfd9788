"""The seeds' ten-sample example through the engine (a placeholder main job
until the spec and the command line land).

Learner A ranks the ten samples n p p p n n p p n n, learner B n p n n n p p p p n
(best first). The notes quote AUC 0.64 and 0.32, rank loss 0.36 and 0.68, BEP 0.6 and 0.2.
"""

import numpy as np

from evalreport.metrics import Costs, evaluate_binary, probability_cost

RANKINGS = {"A": "npppnnppnn", "B": "npnnnppppn"}


def main() -> None:
    pc = probability_cost(0.5, Costs(false_negative=1, false_positive=1))
    print(f"{'learner':8} {'AUC':>6} {'rank loss':>10} {'BEP':>5} {'AP':>7} {'exp. cost':>10} {'min NEC@0.5':>12}")
    for name, ranking in RANKINGS.items():
        y = np.array([c == "p" for c in ranking])
        score = np.arange(len(y), 0, -1)  # first = highest score
        ev = evaluate_binary(y, score, positive=True)
        op = ev.operating_point(pc)
        print(
            f"{name:8} {ev.auc:6.2f} {ev.rank_loss:10.2f} {ev.bep:5.2f} "
            f"{ev.average_precision:7.4f} {ev.expected_total_cost:10.4f} {op.min_cost:12.2f}"
        )


if __name__ == "__main__":
    main()
