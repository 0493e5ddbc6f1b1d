"""Divergences the differential fuzzer drew (seed 302), each against pandas on the shrunk input and
its neighbours."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq


def test_idxmin_axis1_of_object_string_labels_infers_str() -> None:
    df = pd.DataFrame({"index": [1, 2], "b": [0, 5]})
    df.columns = pd.Index(["index", "b"], dtype=object)
    for op in ("idxmin", "idxmax"):
        assert_eq(getattr(em.from_pandas(df), op)(axis=1), getattr(df, op)(axis=1))


@pytest.mark.parametrize(
    "right",
    [
        pd.Index([0], dtype=object),
        pd.Index([], dtype=object),
        pd.Index([], dtype="int64"),
        pd.Index([0.0]),
        pd.Index([1], dtype="int32"),
        pd.RangeIndex(1),
    ],
    ids=repr,
)
def test_frame_arithmetic_column_labels_take_the_union_type(right: pd.Index) -> None:
    left = pd.DataFrame([[1.0, 2.0, 3.0]], columns=pd.RangeIndex(3))
    other = (
        pd.DataFrame([[1.0] * len(right)], columns=right)
        if len(right)
        else pd.DataFrame(index=[0], columns=right)
    )
    el, er = em.from_pandas(left), em.from_pandas(other)
    assert_eq(el + er, left + other)
    assert_eq(el.truediv(er, fill_value=1.5), left.truediv(other, fill_value=1.5))


def test_nan_column_labels_align_with_each_other() -> None:
    df = pd.DataFrame({"a": [np.nan], "c": pd.Series([5], dtype="uint64")})
    other = pd.DataFrame({np.nan: pd.Series([], dtype="UInt8")}).set_axis(pd.Index([], dtype="str"))
    left = df.groupby(["a"], dropna=False).agg("nunique")[["c"]].T[[np.nan]]
    eleft = em.from_pandas(df).groupby(["a"], dropna=False).agg("nunique")[["c"]].T[[np.nan]]
    for op in ("lt", "add", "eq", "mul"):
        assert_eq(getattr(eleft, op)(em.from_pandas(other)), getattr(left, op)(other))
    assert_eq(eleft.add(em.from_pandas(other), fill_value=1), left.add(other, fill_value=1))


def test_an_empty_selection_of_a_range_keeps_a_range() -> None:
    # pandas' RangeIndex survives an empty take, which decides the type of later label joins
    df = pd.DataFrame(
        {"d": pd.Series([3], dtype="int8"), "c": pd.Series([None], dtype="Int32")}, index=pd.RangeIndex(2, 3)
    )
    other = pd.DataFrame({"b": pd.Series([], dtype="datetime64[ms, UTC]")}).set_axis(
        pd.Index([], dtype="str")
    )
    e = em.from_pandas(df)
    picked, epicked = df[df["c"] < 3][["d"]].T, e[e["c"] < 3][["d"]].T
    assert_eq(epicked.columns, picked.columns, check_exact=True)
    for kw in ({"ignore_index": True}, {}):
        got = em.concat([epicked, em.from_pandas(other)], axis=0, join="inner", **kw)
        assert_eq(
            got.columns, pd.concat([picked, other], axis=0, join="inner", **kw).columns, check_exact=True
        )


@pytest.mark.parametrize("count", [0, 2])
def test_repeat_of_a_range_is_a_plain_index(count: int) -> None:
    idx = pd.RangeIndex(2, 5, name="r")
    assert_eq(em.from_pandas(pd.Series(range(3), index=idx)).index.repeat(count), idx.repeat(count))
