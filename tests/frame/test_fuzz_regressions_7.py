"""Divergences the differential fuzzer found: pandas' answer computed with the installed pandas."""

from __future__ import annotations

import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq

WINDOW_SUMS = {
    "expanding mean": lambda d: d.expanding().mean(),
    "expanding sum": lambda d: d.expanding().sum(),
    "rolling sum": lambda d: d.rolling(2).sum(),
    "rolling mean": lambda d: d.rolling(2, min_periods=1).mean(),
}


@pytest.mark.parametrize("name", list(WINDOW_SUMS))
@pytest.mark.parametrize(
    "values, dtype",
    [
        ([-(2**63), 2**63 - 1], "Int64"),  # 2**63 - 1 reads 2**63 as float64: the sum is 0
        ([2**63 - 1, 2**63 - 1, -5], "int64"),
        ([2**64 - 1, 3, 2**63], "uint64"),
        ([2**53 + 1, 1, None, 4], "Int64"),
    ],
)
def test_window_sums_of_integers_round_each_value_to_float64_first(name, values, dtype):
    df = pd.DataFrame({"c": pd.Series(values, dtype=dtype)})
    assert_eq(WINDOW_SUMS[name](em.from_pandas(df)), WINDOW_SUMS[name](df))
