"""The counting engine: the sorted count table of a binary score, built in memory.

For each distinct score, in descending order, the (weighted) numbers of
positives and negatives scoring at least that much: every binary curve and
scalar of :mod:`evalreport.metrics` is read off this one table. This package
builds it, and knows nothing of the measures:

* :mod:`.table`: what the table is (:class:`CountTable`), and the limits of the
  weights' scale;
* :mod:`.checks`: the inputs checked (labels, finite scores, weights);
* :mod:`.build`: the entry points, which pick the road, the by-class road, and
  the table from per-score aggregates (what :mod:`evalreport.engines` hand over);
* :mod:`.keys`, :mod:`.keysort`, :mod:`.sorting`: the fast road, one sort of
  64-bit keys (a score's bits and its label);
* :mod:`.few_ties`: that road's table when a few scores tie;
* :mod:`.unit_rates`, :mod:`.rated_pass`: the curves' rates formed in the same
  passes (in NumPy, or compiled with numba);
* :mod:`.parallel`: the passes split across threads, bit for bit the same;
* :mod:`.order`: the same keys' sort as a permutation (DeLong's test, the
  multi-class tables).

docs/architecture.md, "The counting engine", explains its words (road, key,
pass, part, block, as-if table).
"""

from __future__ import annotations

from .build import count_table, count_table_and_positive_rows, count_table_from_aggregates
from .checks import check_binary_inputs
from .table import SCALE_ADVICE, CountTable, WeightScaleError, weight_scale_problem

__all__ = ["CountTable", "SCALE_ADVICE", "WeightScaleError", "check_binary_inputs", "count_table",
           "count_table_and_positive_rows", "count_table_from_aggregates", "weight_scale_problem"]
