"""Divergences the differential fuzzer found: pandas' answer computed with the installed pandas."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq


def _object_columns():
    return pd.DataFrame(
        {
            "bools": pd.Series([True, False, None], dtype=object),  # a masked bool column in ember
            "nans": pd.Series([np.nan] * 3, dtype=object),
            "f": [1.0, 2.0, 4.0],
            "k": [1, 1, 2],
        }
    )


@pytest.mark.parametrize("op", ["mean", "std", "sum", "max", "median"])
def test_numeric_only_leaves_object_bool_columns_out(op):
    df = _object_columns()
    assert_eq(getattr(em.from_pandas(df), op)(numeric_only=True), getattr(df, op)(numeric_only=True))


@pytest.mark.parametrize("op", ["mean", "max", "sum"])
def test_groupby_numeric_only_leaves_object_bool_columns_out(op):
    df = _object_columns()
    got = getattr(em.from_pandas(df).groupby("k"), op)(numeric_only=True)
    assert_eq(got, getattr(df.groupby("k"), op)(numeric_only=True))
    got = em.from_pandas(df).groupby("k").cumsum(numeric_only=True)
    assert_eq(got, df.groupby("k").cumsum(numeric_only=True))


def test_numeric_only_after_a_merge_that_made_a_bool_column_object():
    df = pd.DataFrame({"b": pd.Series([False], dtype="boolean")})
    other = pd.DataFrame({"d": pd.Series([], dtype="bool"), "b": pd.Series([], dtype="boolean")})
    want = df.merge(other, how="left", on="b")
    got = em.from_pandas(df).merge(em.from_pandas(other), how="left", on="b")
    assert_eq(got.mean(numeric_only=True), want.mean(numeric_only=True))


@pytest.mark.parametrize("op", ["sum", "mean", "max", "std"])
def test_series_numeric_only_on_object_data_raises_as_pandas(op):
    s = pd.Series([True, None], dtype=object)
    with pytest.raises(TypeError, match="does not allow numeric_only=True"):
        getattr(s, op)(numeric_only=True)
    with pytest.raises(TypeError, match="does not allow numeric_only=True"):
        getattr(em.from_pandas(s), op)(numeric_only=True)
    s = pd.Series([1.5, 2.0])
    assert getattr(em.from_pandas(s), op)(numeric_only=True) == getattr(s, op)(numeric_only=True)


OBJECT_BOOLS = [
    [True, np.nan, False],
    [np.nan, True],
    [np.nan, np.nan, False],
    [False, True, np.nan, False, True],
    [np.nan, False, True, np.nan],
    [True, None, False],
    [None, True],
]


@pytest.mark.parametrize("values", OBJECT_BOOLS)
@pytest.mark.parametrize("op", ["cummin", "cummax"])
@pytest.mark.parametrize("skipna", [True, False])
def test_running_min_max_of_object_bools_as_pandas(values, op, skipna):
    # pandas compares the objects as numpy does: a NaN restarts the scan, a None beside a bool raises
    s = pd.Series(values, dtype=object)
    try:
        want = getattr(s, op)(skipna=skipna)
    except TypeError:
        with pytest.raises(TypeError):
            getattr(em.from_pandas(s), op)(skipna=skipna)
        return
    got = getattr(em.from_pandas(s), op)(skipna=skipna).to_pandas()
    assert_eq(got, want)
    assert [type(v) for v in got] == [type(v) for v in want]


@pytest.mark.parametrize("op", ["cumsum", "cumprod"])
def test_sums_of_object_bools_are_refused(op):
    # pandas adds the Python objects: True, then 1 (True + False), floats after a NaN
    s = pd.Series([True, np.nan, False], dtype=object)
    assert [type(v) for v in getattr(s, op)()] == [bool, float, float]
    with pytest.raises(NotImplementedError):
        getattr(em.from_pandas(s), op)()
