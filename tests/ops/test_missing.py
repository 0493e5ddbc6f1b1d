"""fillna / ffill / bfill / interpolate_linear / where / dropna_mask against pandas."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ember.column import from_pandas
from ember.ops.missing import bfill, dropna_mask, ffill, fillna, interpolate_linear, where

SERIES = {
    "float": pd.Series([np.nan, 1.0, np.nan, np.nan, 4.0, np.nan, np.nan]),
    "Int64": pd.Series([None, 1, None, None, 4, None, None], dtype="Int64"),
    "str": pd.Series([None, "a", None, None, "bé", None, None]),
    "datetime": pd.Series(pd.to_datetime([None, "2020-01-01", None, None, "2020-02-01", None, None])),
    "category": pd.Series(pd.Categorical([None, "a", None, None, "b", None, None])),
    "int": pd.Series([1, 2, 3, 4, 5, 6, 7]),
    "empty": pd.Series([], dtype=float),
    "boolean": pd.Series([None, True, None, None, False, None, None], dtype="boolean"),
    "Float64": pd.Series([None, 1.5, None, None, 4, None, None], dtype="Float64"),
}
FILLS = {"float": 9.5, "Int64": 7, "str": "zz", "datetime": pd.Timestamp("2000-01-01"), "category": "a", "int": 0,
         "boolean": True, "Float64": 2.0, "empty": 1.0}  # fmt: skip


def check(got, expected):
    pd.testing.assert_series_equal(got.to_pandas(), expected.reset_index(drop=True), check_names=False)


@pytest.mark.parametrize("limit", [None, 1, 2])
@pytest.mark.parametrize("name", list(SERIES))
def test_ffill_bfill(name, limit, xp):
    s = SERIES[name]
    check(ffill(from_pandas(s, xp), limit), s.ffill(limit=limit))
    check(bfill(from_pandas(s, xp), limit), s.bfill(limit=limit))


@pytest.mark.parametrize("name", list(SERIES))
def test_fillna_scalar(name, xp):
    s = SERIES[name]
    check(fillna(from_pandas(s, xp), FILLS[name]), s.fillna(FILLS[name]))


def test_fillna_column(xp):
    s, other = SERIES["float"], pd.Series(np.arange(7.0))
    check(fillna(from_pandas(s, xp), from_pandas(other, xp)), s.fillna(other))


@pytest.mark.parametrize("name", list(SERIES))
def test_where(name, xp):
    s = SERIES[name]
    cond = np.arange(len(s)) % 2 == 0
    col = from_pandas(s, xp)
    xcond = xp.asarray(cond)
    check(where(col, xcond, None), s.where(cond))
    check(where(col, xcond, FILLS[name]), s.where(cond, FILLS[name]))
    rev = s[::-1].reset_index(drop=True)
    check(where(col, xcond, from_pandas(rev, xp)), s.where(cond, rev))


def test_where_upcasts_like_pandas(xp):
    s = SERIES["int"]
    cond = np.arange(7) % 2 == 0
    check(where(from_pandas(s, xp), xp.asarray(cond), 1.5), s.where(cond, 1.5))


@pytest.mark.parametrize("direction", ["forward", "backward", "both"])
@pytest.mark.parametrize("name", ["float", "Float64", "int", "empty"])
def test_interpolate(name, direction, xp):
    s = SERIES[name]
    check(interpolate_linear(from_pandas(s, xp), direction), s.interpolate(limit_direction=direction))


def test_dropna_mask(xp):
    df = pd.DataFrame({"a": [1, np.nan, np.nan, 3], "b": pd.Series([None, "x", None, "y"])})
    cols = [from_pandas(df[c], xp) for c in df]
    host = lambda a: np.asarray(a.get() if hasattr(a, "get") else a)  # noqa: E731
    np.testing.assert_array_equal(host(dropna_mask(cols, "any")), df.notna().all(axis=1))
    np.testing.assert_array_equal(host(dropna_mask(cols, "all")), df.notna().any(axis=1))
    np.testing.assert_array_equal(host(dropna_mask(cols, thresh=1)), df.notna().sum(axis=1) >= 1)
    with pytest.raises(ValueError):
        dropna_mask(cols, "some")
