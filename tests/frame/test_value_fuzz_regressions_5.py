"""Values the differential fuzzer found silently different: pandas' answer computed with the installed pandas."""

from __future__ import annotations

import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq


@pytest.mark.parametrize(
    ("dtype", "values"),
    [
        ("int32", [2147483647, -7]),
        ("int64", [9223372036854775807, -7]),
        ("int8", [127, -7]),
        ("int16", [32767, -7]),
        ("uint32", [5, 100]),
    ],
)
def test_diff_of_ints_wraps_as_pandas(dtype, values):
    df = pd.DataFrame({"b": pd.Series(values, dtype=dtype), "c": pd.Series([-1, -1], dtype="Int64")})
    df = df.set_axis(pd.RangeIndex(2, 4, 1))
    assert_eq(em.from_pandas(df).diff(1), df.diff(1))
    assert_eq(em.from_pandas(df["b"]).diff(), df["b"].diff())
