"""Out-of-core engines: aggregate the count table where the data lives.

Every binary curve and measure depends only on the count table: for each
distinct score, the (weighted) numbers of positives and negatives. An engine
therefore never brings the rows to Python; it runs one ``GROUP BY score`` per
learner where the data lives and hands the aggregates to
:func:`evalreport.metrics.count_table_from_aggregates`. Memory is then bounded
by the number of distinct scores, not by the number of rows; and DuckDB, for
exact tables, streams the table in score order through
:class:`evalreport.metrics.CountReducer`, so that even one distinct score per
row (continuous scores) needs bounded memory: the scalars stay exact and the
table kept holds the ROC hull, the decision thresholds' rows and at most
``cap`` evenly spaced rows (see :mod:`evalreport.metrics.stream`). Spark
brings the aggregated table to the driver whole: with continuous scores,
``resolution`` is its bounded way.

* :func:`evalreport.engines.duckdb.aggregate_duckdb`: Parquet or CSV files
  (globs too), a table of a DuckDB database, or a SQL query, read out of core
  by DuckDB under a memory limit (spilling to a temporary directory);
* :func:`evalreport.engines.spark.aggregate_spark`: the same through the Spark
  DataFrame API (a local session, a cluster, or Spark Connect).

Both return an :class:`Aggregated`. Both are pure functions: no spec objects.

Exact by default
----------------
Without ``resolution`` the table is exact: unweighted counts are summed as
64-bit integers (the same table as :func:`evalreport.metrics.count_table`
on the rows, threshold for threshold and count for count); weighted sums are
float64 sums taken in the engine's order, so they agree to rounding (about
1e-15 relative) with the in-memory engine. A streamed table that was reduced
keeps exact rows of that table (``Aggregated.reductions`` says which, and
carries the scalars computed over all of them).

Resolution: a table of bounded size, with rigorous error bounds
---------------------------------------------------------------
With continuous scores the exact table has one row per row of data, so it
cannot be smaller than the data. ``resolution`` bins the scores first:

* a float ``h`` (a step): bin ``b = floor(score / h)``; the table's thresholds
  are the bins' lower edges ``b * h`` (so "score >= t" is exact at every
  multiple ``t`` of ``h``);
* an int ``q`` (a number of bins): about ``q`` bins of roughly equal row
  counts. The engine first reads each score's min and max, groups the rows into
  ``cells_for(q) = max(q, min(64 q, 2**22))`` equal-width cells between them, then merges adjacent cells
  left to right into bins, a new bin starting at each further ``1/q`` of the
  rows. This is deterministic (unlike DuckDB's ``approx_quantile``, whose
  T-digest depends on the order the threads merge, and much cheaper than
  ``ntile``, which needs a full sort); its limit is that a bin is a union of
  cells, so a single cell holding more than ``1/q`` of the rows stays one
  (bigger) bin and very skewed scores get fewer bins than asked. A bin's
  threshold is its smallest score, so "score >= threshold" reproduces the
  binned classifier exactly on the data.

Either way the binning is a monotone (non-decreasing) map of the score, so
every exact tie group lies inside one bin, bins are ordered like their scores,
and the cumulative counts at bin boundaries are the exact ones. Only the order
*inside* a bin is lost. :func:`resolution_bounds` bounds what that can change,
from the binned table alone (``P_b``, ``N_b``: the bin's positive and negative
weight; ``TP_a``, ``FP_a``: the weight above the bin; ``m+``, ``m-``: totals):

AUC
    A positive-negative pair in different bins is ranked the same way in both
    tables; a pair inside one bin counts 1/2 in the binned table and 0, 1/2 or
    1 in the exact one. So
    ``|AUC_exact - AUC_binned| <= sum_b P_b N_b / (2 m+ m-)``.

Average precision (the step sum ``AP = sum_k (tp_k - tp_{k-1}) prec_k / m+``)
    Terms outside a bin are the same in both tables. Inside bin ``b`` the
    exact table contributes ``E_b = sum_j p_j prec_j`` over its distinct scores
    ``j`` (in order), ``prec_j = (TP_a + X_j) / (TP_a + FP_a + X_j + Y_j)``
    with ``X_j``, ``Y_j`` the bin's positives and negatives down to ``j``
    (``0 < X_j <= P_b``, ``0 <= Y_j <= N_b``); the binned table contributes
    ``B_b = P_b (TP_a + P_b) / (TP_a + FP_a + P_b + N_b)``. With
    ``D = TP_a + FP_a``:

    * ``prec_j <= (TP_a + X_j) / (D + X_j) <= (TP_a + P_b) / (D + P_b)``
      (drop ``Y_j``; the ratio rises with ``X_j`` because ``D >= TP_a``), so
      ``E_b <= U_b = P_b (TP_a + P_b) / (D + P_b)``;
    * ``prec_j >= f(X_j)`` with ``f(x) = (TP_a + x) / (c + x)``, ``c = D + N_b``
      (all the bin's negatives first), ``f`` rising, and ``sum_j p_j f(X_j)``
      is a right Riemann sum of ``f`` over ``[0, P_b]``, so
      ``E_b >= L_b = integral_0^P_b f = P_b - (c - TP_a) ln(1 + P_b / c)``
      (``L_b = P_b`` when ``c = 0``: every precision is then 1).

    ``B_b`` lies in ``[L_b, U_b]`` too, hence
    ``|AP_exact - AP_binned| <= sum_b max(U_b - B_b, B_b - L_b) / m+``.

Break-even point (``TP / m+`` where ``TP + FP = m+``, interpolated in a tie)
    The predicted count ``TP + FP`` at bin boundaries is exact, so the point
    falls in the same bin ``b`` in both tables, ``r = m+ - (TP_a + FP_a)``
    into it (``0 < r <= P_b + N_b``; no bin when it falls on a boundary: bound
    0). There the exact table has taken ``x`` of the bin's positives and
    ``r - x`` of its negatives, so ``max(0, r - N_b) <= x <= min(r, P_b)``
    (interpolation inside an exact tie stays in this interval), and the binned
    table ``x_b = P_b r / (P_b + N_b)``. Hence
    ``|BEP_exact - BEP_binned| <= max(min(r, P_b) - x_b, x_b - max(0, r - N_b)) / m+``,
    which is at most ``min(P_b, N_b) / m+``.

The bounds hold for weighted tables too (read weights for counts). They are
computed from the binned table actually returned (after any bins merge), so
they stay valid whatever the binning did; they are exact arithmetic statements,
so a comparison in floating point should allow ~1e-12 of rounding.

The package by job: :mod:`~evalreport.engines.tables` (what an engine
returns, and the tables built from its aggregates),
:mod:`~evalreport.engines.resolution` (binning and the bounds above),
:mod:`~evalreport.engines.checks` (columns, data checks and labels), and the
engines :mod:`~evalreport.engines.duckdb` and :mod:`~evalreport.engines.spark`.
"""

from __future__ import annotations

# The engines' shared names, from the modules that hold them (noqa: re-exports).
from .checks import (  # noqa: F401
    LABELS_CAP,
    ColumnError,
    PositiveLabelMissing,
    check_columns,
    check_labels,
    judge_checks,
    judge_class_checks,
    match_positive,
    id_problem,
    missing_column_message,
    quote_ident,
    sorted_labels,
)
from .resolution import (  # noqa: F401
    CELLS_PER_BIN,
    MAX_CELLS,
    cell_scale,
    cells_for,
    merge_cells,
    parse_resolution,
    resolution_bounds,
)
from .tables import (  # noqa: F401
    Aggregated,
    MulticlassAggregated,
    build_tables,
    class_column,
    class_key,
)

__all__ = [
    "LABELS_CAP",
    "Aggregated",
    "ColumnError",
    "PositiveLabelMissing",
    "check_columns",
    "check_labels",
    "match_positive",
    "quote_ident",
    "resolution_bounds",
]
