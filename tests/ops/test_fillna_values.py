"""fillna with a Series of values (row by row) and ``limit``: only the first ``limit`` missing values are
filled, as pandas."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import ember as em


@pytest.mark.parametrize("limit", [None, 1, 2, 5])
@pytest.mark.parametrize("dtype", ["float64", "Int64", "str"])
def test_fillna_with_a_series_and_limit(dtype, limit):
    if dtype == "str":
        s = pd.Series(["a", None, None, "d", None], dtype="str")
        v = pd.Series(["p", "q", "r", "s", "t"], dtype="str")
    else:
        s = pd.Series([1, None, None, 4, None], dtype=dtype)
        v = pd.Series([10, 20, 30, 40, 50], dtype=dtype)
    got = em.from_pandas(s).fillna(em.from_pandas(v), limit=limit).to_pandas()
    pd.testing.assert_series_equal(got, s.fillna(v, limit=limit))


def test_fillna_with_a_series_fills_only_missing_rows():
    s = pd.Series([1.0, np.nan, 3.0, np.nan])
    v = pd.Series([9.0, 8.0, 7.0, 6.0])
    pd.testing.assert_series_equal(em.from_pandas(s).fillna(em.from_pandas(v)).to_pandas(), s.fillna(v))
