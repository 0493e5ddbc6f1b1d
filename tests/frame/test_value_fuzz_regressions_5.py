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


@pytest.mark.parametrize("op", ["median", "mean", "sum"])
@pytest.mark.parametrize("other", ["boolean", "Int64", "float64"])
@pytest.mark.parametrize("rows", [0, 1])
def test_frame_reduction_of_timedeltas_beside_numbers_is_refused(op, other, rows):
    # pandas: an object Series, each column keeping its own type (NaT beside <NA> / NaN)
    df = pd.DataFrame(
        {"b": pd.Series([1] * rows, dtype="timedelta64[s]"), "c": pd.Series([True] * rows, dtype=other)}
    )
    want = getattr(df, op)()
    assert want.dtype == object
    with pytest.raises(NotImplementedError):
        getattr(em.from_pandas(df), op)()


@pytest.mark.parametrize("marker", [None, pd.NA, float("nan")])
@pytest.mark.parametrize("method", ["ffill", "bfill"])
@pytest.mark.parametrize("limit", [None, 1])
def test_fill_of_object_column_keeps_its_missing_marker(marker, method, limit):
    df = pd.DataFrame({"d": pd.Series([marker, "x", marker, marker], dtype="object")})
    assert_eq(getattr(em.from_pandas(df), method)(limit=limit), getattr(df, method)(limit=limit))
    assert_eq(getattr(em.from_pandas(df["d"]), method)(limit=limit), getattr(df["d"], method)(limit=limit))


def test_ffill_of_string_column_cast_to_object():
    df = pd.DataFrame({"d": pd.Series([None], dtype="string")}).set_axis(pd.RangeIndex(7, 8, 1))
    got = em.from_pandas(df).astype({"d": "object"}).ffill(limit=1)
    assert_eq(got, df.astype({"d": "object"}).ffill(limit=1))
