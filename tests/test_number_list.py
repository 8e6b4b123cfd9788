"""results.json's lists of numbers (evalreport.results.format.number_list): each value
as Python's json writes it, a non-finite one as null, whatever the array's dtype and
wherever the non-finite values fall (a curve's thresholds start with +inf)."""

from __future__ import annotations

import json
import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from evalreport.results.format import InlineList, number_list


def _plain(values) -> list:
    """The list written element by element, without NumPy: null for NaN and +-inf."""
    out = []
    for v in values:
        if isinstance(v, (bool, np.bool_)):
            out.append(bool(v))
        elif isinstance(v, (int, np.integer)):
            out.append(int(v))
        else:
            out.append(float(v) if math.isfinite(float(v)) else None)
    return out


@given(hnp.arrays(st.sampled_from([np.float64, np.float32, np.float16, np.int64, np.int8, np.bool_]),
                  st.integers(0, 40)))
def test_number_list_writes_each_value_or_null(a):
    got = number_list(a)
    want = _plain(a.tolist())
    assert isinstance(got, InlineList)
    assert json.dumps(got, allow_nan=False) == json.dumps(want, allow_nan=False)
    assert [type(v) for v in got] == [type(v) for v in want]


def test_a_curves_thresholds_start_with_null():
    assert number_list(np.array([np.inf, 0.75, 0.5, -np.inf, np.nan])) == [None, 0.75, 0.5, None, None]
    assert number_list([1, 2.5]) == [1.0, 2.5] and number_list(np.array([], float)) == []
