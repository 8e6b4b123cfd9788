"""The count table, and how it is built: one import for both.

What the table is lives in :mod:`.table`; its input checks in :mod:`.checks`;
its construction roads in :mod:`.build` (the entry points, the by-class road,
per-score aggregates), :mod:`.sorting` (one sort of 64-bit keys, :mod:`.keys`)
and :mod:`.unit_rates` (the curves' rates formed in the same passes). Every name
this module had is importable from here.
"""

from __future__ import annotations

from .build import (
    _class_blocks,
    _class_blocks_weighted,
    _has_ties,
    _merge_blocks,
    _runs,
    _table_by_class,
    count_table,
    count_table_and_positive_rows,
    count_table_from_aggregates,
)
from .checks import (
    _checked_inputs,
    _equal_in_parts,
    _equal_labels,
    _first_index,
    _first_missing,
    _is_missing,
    _missing_error,
    _plain,
    _positive_mask,
    _score_sign,
    check_binary_inputs,
)
from .keys import _INF_BITS, _ONE, _TOP_BIT, _checked_keys, _decode_keys, _encode_keys, _encoded_keys
from .sorting import (
    _block_positives,
    _cumulate_labels,
    _decoded_ties,
    _keyed_distinct_table,
    _LabelScratch,
    _positives_above,
    _rated_distinct_table,
    _table_from_key_runs,
    _table_from_keys,
    _ties_in_sample,
    _ties_in_spread_sample,
)
from .table import (
    SCALE_ADVICE,
    SMALLEST_PAIRS,
    CountTable,
    UnitCurves,
    WeightScaleError,
    _table_from_ascending,
    _UnitStepTable,
    pair_counts_leave_int64,
    weight_scale_problem,
)
from .unit_rates import _TWO_52, _TWO_52_BITS, _steps, _UnitCurveBuffers, precision_sum

__all__ = ["CountTable", "count_table", "count_table_from_aggregates", "check_binary_inputs",
           "WeightScaleError", "weight_scale_problem"]
