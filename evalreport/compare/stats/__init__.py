"""Tests of significance for comparing learners (Zhou, section 2.4; pROC).

Pure functions over arrays: no I/O, no spec objects. Each returns a frozen
dataclass; a value that cannot be computed is ``None`` and ``note`` says why
(never a silent 0 or NaN). SciPy is used for the reference distributions only
(normal, t, chi-square, F, studentized range); every statistic is computed here.

* :func:`delong_auc`: DeLong's standard error and interval of one AUC.
* :func:`delong_paired`: DeLong's test of two AUCs on the same instances.
* :func:`delong_unpaired`: the same for two learners on different data sets
  (:func:`delong_unpaired_summary`: from each one's AUC and variance alone).
* :func:`mcnemar`: McNemar's test on paired decisions (Zhou eq. 2.33).
* :func:`paired_t_test`: the k-fold cross-validated paired t-test (Zhou 2.4.2).
* :func:`friedman_nemenyi`: Friedman's test and the Nemenyi critical difference
  over several data sets (Zhou 2.4.4, Demšar 2006).
* :func:`holm`: Holm's adjusted p-values of a family of tests (the pairs of
  DeLong's and McNemar's tests).
* :func:`bootstrap_intervals`: seeded, stratified percentile bootstrap of any
  measure the engine computes (BEP, AP, expected total cost, F1 at a threshold).

One module per test, beside a shared core (:mod:`.core`: input checks, the
normal law): :mod:`.components` (DeLong's structural components, O(n log n)),
:mod:`.delong`, :mod:`.mcnemar`, :mod:`.paired_t`, :mod:`.friedman`, :mod:`.holm` and
:mod:`.bootstrap`. Every name is importable from here.
"""

from __future__ import annotations

from .bootstrap import (
    BootstrapInterval,
    Statistic,
    auc_score,
    average_precision_score,
    bep_score,
    bootstrap_intervals,
    expected_total_cost,
    f1_at,
    population_at,
    resampled_evaluations,
    resampled_values,
    resampled_values_many,
)
from .bootstrap_measures import at_threshold_of, brier_of, cost_at, ece_of, ks_score, least_cost_at, statistic_for
from .components import StructuralComponents, structural_components
from .delong import (
    AucInterval,
    DelongTest,
    auc_interval,
    delong_auc,
    delong_paired,
    delong_paired_components,
    delong_paired_many,
    delong_unpaired,
    delong_unpaired_summary,
)
from .holm import holm
from .mcnemar import EXACT_BELOW, McNemar, mcnemar, mcnemar_many
from .paired_bootstrap import PairedDifference, PairedResamples, non_inferiority_p, paired_difference, two_sided_p


# The tests over several data sets or groups (Friedman's, the paired t-test) are
# loaded when first asked for: a run of one data set without groups never calls
# them, and their modules are about 3 ms of its start-up (issue 38).
def __getattr__(name):
    if name in ("Friedman", "friedman_nemenyi", "nemenyi_q"):
        from . import friedman

        return getattr(friedman, name)
    if name in ("PairedT", "paired_t_test"):
        from . import paired_t

        return getattr(paired_t, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "PairedDifference", "PairedResamples", "non_inferiority_p", "paired_difference", "two_sided_p",
    "resampled_values", "resampled_values_many", "at_threshold_of", "brier_of", "cost_at", "ece_of", "ks_score", "least_cost_at",
    "statistic_for",
    "AucInterval",
    "BootstrapInterval",
    "DelongTest",
    "Friedman",
    "McNemar",
    "PairedT",
    "StructuralComponents",
    "auc_score",
    "average_precision_score",
    "bep_score",
    "bootstrap_intervals",
    "delong_auc",
    "delong_paired",
    "delong_paired_many",
    "delong_unpaired",
    "delong_unpaired_summary",
    "expected_total_cost",
    "f1_at",
    "friedman_nemenyi",
    "holm",
    "mcnemar",
    "mcnemar_many",
    "nemenyi_q",
    "population_at",
    "paired_t_test",
    "structural_components",
]
