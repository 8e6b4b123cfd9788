"""What the report and the terminal need to read results.json's ``history``
without the comparisons' code: each test's name in words, and the class balance
as a list of data sets."""

from __future__ import annotations

__all__ = ["METHOD_NAMES", "balance_rows"]

#: Each row's ``method`` in words, as the report names the test.
METHOD_NAMES = {
    "delong_unpaired": "DeLong's test for two independent ROC curves",
    "two_proportion_z": "the two-proportion z-test",
    "intervals": "no test: the two runs' bootstrap intervals combined",
    "no test": "no test",
    "chi2_homogeneity": "Pearson's chi-squared test of homogeneity",
}


def balance_rows(balance) -> list[dict]:
    """``history.balance`` as a list: one data set's dict alone, several data sets'
    list as it is (each with ``dataset``), none as []."""
    if not balance:
        return []
    return [balance] if isinstance(balance, dict) else [b for b in balance if isinstance(b, dict)]
