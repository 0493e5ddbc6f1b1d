"""Breadth of GroupBy / resample / window arguments against pandas: callables in agg / transform,
Resampler.aggregate with callables, lists and dicts, forward-looking window indexers, and the
Series constructor of a dict with index=."""

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
