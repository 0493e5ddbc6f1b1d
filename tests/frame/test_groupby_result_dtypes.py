"""Result dtypes of groupby results against pandas: running sums / products of small integers
(computed in 64 bits, narrowed back only when every value fits) and the dtypes of the group keys."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import ember as em

PANDAS_31 = tuple(int(p) for p in pd.__version__.split(".")[:2]) >= (3, 1)
_SMALL = ["int8", "int16", "int32", "uint8", "uint16", "uint32", "bool"]
_MASKED = ["Int8", "Int16", "Int32", "UInt8", "UInt16", "UInt32", "boolean"]


def _values(dtype: str, big: bool) -> pd.Series:
    if dtype in ("bool", "boolean"):
        return pd.Series([True, True, False, True, True], dtype=dtype)
    if not big:
        return pd.Series([1, 2, 0, 1, 2], dtype=dtype)
    hi = np.iinfo(getattr(pd.api.types.pandas_dtype(dtype), "numpy_dtype", dtype)).max
    return pd.Series([hi, 42, 3, hi, 2], dtype=dtype)


@pytest.mark.parametrize("dtype", _SMALL + _MASKED)
@pytest.mark.parametrize("big", [False, True])
@pytest.mark.parametrize("op", ["cumsum", "cumprod", "cummin", "cummax", "sum", "prod"])
def test_groupby_running_sums_widen_like_pandas(dtype, big, op) -> None:
    s = _values(dtype, big)
    if dtype in _MASKED:
        s[2] = pd.NA
    keys = pd.Series([0.5, 0.5, 0.5, np.nan, 1.0])
    for dropna in (True, False):
        want = getattr(s.groupby(keys, dropna=dropna), op)()
        got = getattr(em.from_pandas(s).groupby(em.from_pandas(keys), dropna=dropna), op)().to_pandas()
        if not PANDAS_31 and dropna and dtype in _MASKED and str(want.dtype) == "Float64":
            got = got.astype("Float64")  # pandas 3.0 gives Float64 beside a dropped key; 3.1 the ints
        pd.testing.assert_series_equal(got, want)


@pytest.mark.parametrize("dtype", ["uint8", "int8", "Int16"])
def test_frame_groupby_cumsum_widens_like_pandas(dtype) -> None:
    pdf = pd.DataFrame({"k": [1, 1, 2, 1], "v": _values(dtype, True)[:4]})
    for op in ("cumsum", "cumprod"):
        want = getattr(pdf.groupby("k"), op)()
        got = getattr(em.from_pandas(pdf).groupby("k"), op)().to_pandas()
        pd.testing.assert_frame_equal(got, want)


@pytest.mark.parametrize("dtype", _SMALL + _MASKED)
@pytest.mark.parametrize("op", ["cumsum", "cumprod", "cummin", "cummax"])
def test_series_running_sums_widen_like_pandas(dtype, op) -> None:
    s = _values(dtype, True)
    want = getattr(s, op)()
    pd.testing.assert_series_equal(getattr(em.from_pandas(s), op)().to_pandas(), want)
    pdf = s.to_frame("v")
    pd.testing.assert_frame_equal(getattr(em.from_pandas(pdf), op)().to_pandas(), getattr(pdf, op)())


@pytest.mark.parametrize(
    "keys",
    [[np.nan, True, False, True], [True, False, True, True], [None, True, True, np.nan], [True] * 4],
)
@pytest.mark.parametrize("op", ["sum", "all", "prod", "max"])
def test_groupby_object_bool_keys_give_bool_keys(keys, op) -> None:
    """pandas infers the groups' keys of an object key of True / False: bool when none is missing."""
    k = pd.Series(keys, dtype=object)
    s = pd.Series([5, 10, 0, 3], dtype="int32")
    want = getattr(s.groupby(k), op)()
    got = getattr(em.from_pandas(s).groupby(em.from_pandas(k)), op)().to_pandas()
    pd.testing.assert_series_equal(got, want)
    pdf = pd.DataFrame({"e": [False, False, True, True], "w": k, "v": s})
    for by in ("w", ["e", "w"], ["w", "e"]):
        for as_index in (True, False):
            want = getattr(pdf.groupby(by, as_index=as_index), op)()
            got = getattr(em.from_pandas(pdf).groupby(by, as_index=as_index), op)().to_pandas()
            pd.testing.assert_frame_equal(got, want)


def test_groupby_key_assigned_from_other_labels_keeps_bool_level() -> None:
    pdf = pd.DataFrame({"e": [False, False]}, index=pd.RangeIndex(1, 5, 2))
    other = pd.Series([False], index=pd.RangeIndex(1, 2, 1), name="a")
    want = pdf.assign(w=other).groupby(["e", "w"]).prod()
    got = em.from_pandas(pdf).assign(w=em.from_pandas(other)).groupby(["e", "w"]).prod().to_pandas()
    pd.testing.assert_frame_equal(got, want)
