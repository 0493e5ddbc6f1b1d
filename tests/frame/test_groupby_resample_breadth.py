"""Breadth of GroupBy / resample / window arguments against pandas: callables in agg / transform,
Resampler.aggregate with callables, lists and dicts, forward-looking window indexers, and the
Series constructor of a dict with index=."""

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq


# --- Series(dict, index=) ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("data", "kwargs"),
    [
        ({"a": 1, "b": 2, "c": 3}, {"index": ["a", "b", "c"]}),
        ({"a": 1, "b": 2, "c": 3}, {"index": ["x", "y", "z"]}),
        ({"a": 1, "b": 2}, {"index": ["b", "q", "a", "a"]}),
        ({"a": 1.5, "b": None}, {"index": ["b", "a"]}),
        ({"a": "s", "b": "t"}, {"index": ["b", "z"]}),
        ({"a": True, "b": False}, {"index": ["b", "z"]}),
        ({"a": True, "b": False}, {"index": ["b", "a"]}),
        ({"a": 1, "b": 2}, {"index": ["b", "q"], "dtype": "int64"}),
        ({"a": 1, "b": 2}, {"index": ["b", "q"], "dtype": "Int64"}),
        ({}, {"index": ["a", "b"]}),
        ({}, {"index": []}),
        ({1: 1, 2: 2}, {"index": [2, 3], "name": "n"}),
        ({"a": 1, "b": 2}, {"index": pd.Index(["b", "a"], name="k")}),
        ({"a": pd.Timestamp("2020-01-01"), "b": pd.Timestamp("2021-01-01")}, {"index": ["b", "c"]}),
    ],
)
def test_series_dict_with_index(data, kwargs):
    assert_eq(em.Series(data, **kwargs), pd.Series(data, **kwargs))


def test_series_dict_with_ember_index():
    idx = pd.Index(["c", "a"])
    assert_eq(em.Series({"a": 1, "c": 2}, index=em.from_pandas(idx)), pd.Series({"a": 1, "c": 2}, index=idx))


# --- GroupBy.agg / transform with a callable ----------------------------------------------------
@pytest.fixture
def frame():
    return pd.DataFrame(
        {
            "A": ["foo", "bar", "foo", "bar", "foo", "bar"],
            "B": ["one", "one", "two", "three", "two", "two"],
            "C": [1, 5, 5, 2, 5, 5],
            "D": [2.0, 5.0, 8.0, 1.0, 2.0, np.nan],
        }
    )


UDFS = {
    "zscore": lambda x: (x - x.mean()) / x.std(),
    "range": lambda x: x.max() - x.min(),
    "int_max": lambda x: x.astype(int).max() if not x.isna().any() else 0,
    "plus": lambda x: sum(x) + 2,
    "float_min": lambda x: x.astype(float).min(),
    "length": lambda x: len(x),
    "first": lambda x: x.iloc[0],
    "cumsum": lambda x: x.cumsum(),
}
REDUCING = ("range", "int_max", "plus", "float_min", "length", "first")


@pytest.mark.parametrize("name", list(UDFS))
@pytest.mark.parametrize("sel", [["C", "D"], "C", "D"])
def test_groupby_transform_callable(frame, name, sel):
    f = UDFS[name]
    assert_eq(em.from_pandas(frame).groupby("A")[sel].transform(f), frame.groupby("A")[sel].transform(f))
    keys = ["A", "B"]
    assert_eq(em.from_pandas(frame).groupby(keys)[sel].transform(f), frame.groupby(keys)[sel].transform(f))


@pytest.mark.parametrize("name", REDUCING)
@pytest.mark.parametrize("sel", [["C", "D"], "C"])
@pytest.mark.parametrize("as_index", [True, False])
def test_groupby_agg_callable(frame, name, sel, as_index):
    f = UDFS[name]
    got = em.from_pandas(frame).groupby("A", as_index=as_index)[sel].agg(f)
    assert_eq(got, frame.groupby("A", as_index=as_index)[sel].agg(f))
    got = em.from_pandas(frame).groupby(["A", "B"])[sel].agg(f)
    assert_eq(got, frame.groupby(["A", "B"])[sel].agg(f))


@pytest.mark.parametrize("col", ["v", "s", "t", "m"])
@pytest.mark.parametrize(
    "f", [lambda x: x.iloc[0], lambda x: x.max(), lambda x: str(len(x)), lambda x: x.shift()]
)
def test_series_groupby_callable_dtypes(col, f):
    df = pd.DataFrame(
        {
            "k": [1, 1, 3, 2],
            "v": [1.0, 2, 3, 4],
            "s": ["a", "b", "c", "d"],
            "t": pd.to_datetime(["2020", "2021", "2022", "2023"]),
            "m": pd.array([1, None, 3, 4], dtype="Int64"),
        }
    )
    e = em.from_pandas(df)
    assert_eq(e.groupby("k")[col].transform(f), df.groupby("k")[col].transform(f))
    dropped = df.assign(k=[1, 1, np.nan, 2])
    if f(df[col]) is not None and pd.api.types.is_scalar(f(df[col])):
        assert_eq(em.from_pandas(dropped).groupby("k")[col].agg(f), dropped.groupby("k")[col].agg(f))


def test_groupby_callable_arguments_and_empty():
    s = pd.Series([1.0, 2.0, 3.0, 4.0])
    e = em.from_pandas(s)
    assert_eq(
        e.groupby([1, 1, 2, 2]).agg(lambda x, a: x.sum() + a, 3),
        s.groupby([1, 1, 2, 2]).agg(lambda x, a: x.sum() + a, 3),
    )
    got = e.groupby([1, 1, 2, 2]).transform(lambda x, a: x + a, a=3)
    assert_eq(got, s.groupby([1, 1, 2, 2]).transform(lambda x, a: x + a, a=3))
    assert_eq(
        e.iloc[:0].groupby(e.iloc[:0]).agg(lambda x: x.sum()),
        s.iloc[:0].groupby(s.iloc[:0]).agg(lambda x: x.sum()),
    )


def test_groupby_frame_transform_not_columnwise(frame):
    f = lambda x: x / x.sum().sum()  # noqa: E731 - the whole group differs from column by column
    assert_eq(
        em.from_pandas(frame).groupby("A")[["C", "D"]].transform(f),
        frame.groupby("A")[["C", "D"]].transform(f),
    )


def test_groupby_transform_callable_refusals():
    df = pd.DataFrame({"k": [1, 1, np.nan, 2], "v": [1.0, 2, 3, 4]})
    e = em.from_pandas(df)
    with pytest.raises(NotImplementedError):
        e.groupby("k")["v"].transform(lambda x: x + 1)  # rows of no group
    with pytest.raises(NotImplementedError):
        e.groupby("k").agg(lambda x: x.cumsum())  # not an aggregation
