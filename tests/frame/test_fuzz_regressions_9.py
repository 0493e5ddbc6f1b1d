"""Divergences the differential fuzzer found (loc with missing labels, quantile of integer
extremes): pandas' answer computed with the installed pandas."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq

NA_LABELS = [None, np.nan, pd.NA, pd.NaT]

#: indexes holding a missing label (and a valid one), by pandas dtype
INDEXES = {
    "Int64": [1, None],
    "Float64": [1.0, None],
    "boolean": [True, None],
    "float64": [1.0, np.nan],
    "category": ["a", None],
    "str": ["a", None],
    "string": ["a", None],
    "object-None": ["a", None],
    "object-nan": ["a", np.nan],
    "datetime64[ms, UTC]": ["2020-01-01", None],
    "datetime64[ns, Europe/Berlin]": ["2020-01-01", None],
    "datetime64[ns]": ["2020-01-01", None],
    "timedelta64[ns]": [1, None],
    "int64": [1, 2],
}


def _pandas_index(name):
    dtype = "object" if name.startswith("object") else name
    return pd.Index(INDEXES[name], dtype=dtype)


def _check_same(ember_call, pandas_call):
    """pandas 3.0 finds NaT in fewer indexes than 3.1: ember follows the installed pandas."""
    try:
        expected = pandas_call()
    except KeyError:
        with pytest.raises(KeyError):
            ember_call()
        return
    assert_eq(ember_call(), expected)


def _check_loc(pobj, key):
    obj = em.from_pandas(pobj)
    _check_same(lambda: obj.loc[key], lambda: pobj.loc[key])


@pytest.mark.parametrize("name", list(INDEXES))
@pytest.mark.parametrize("na", NA_LABELS, ids=repr)
@pytest.mark.parametrize("shape", ["alone", "twice", "after a label"])
def test_loc_list_of_missing_labels_found_as_pandas_finds_them(name, na, shape):
    index = _pandas_index(name)
    key = {"alone": [na], "twice": [na, na], "after a label": [index[0], na]}[shape]
    pdf = pd.DataFrame({"v": [1, 2], "w": ["x", "y"]}, index=index)
    _check_loc(pdf, key)
    _check_loc(pdf["v"], key)


def test_loc_nat_labels_of_a_grouped_tz_aware_index():
    # the shrunk repro: groupby(dropna=False) keeps a NaT group; loc[[NaT, NaT]] selects it twice
    ps = pd.Series([None], dtype="datetime64[ms, UTC]", index=pd.RangeIndex(1, 2))
    pdf = ps.to_frame("x").groupby(["x"], sort=False, dropna=False, observed=False).min()
    df = em.from_pandas(ps).to_frame("x").groupby(["x"], sort=False, dropna=False, observed=False).min()
    _check_same(lambda: df.loc[[pd.NaT, pd.NaT]], lambda: pdf.loc[[pd.NaT, pd.NaT]])


def test_loc_nat_labels_after_a_merge_and_groupby():
    left = pd.DataFrame(
        {"d": pd.Series([], dtype="datetime64[ns, Europe/Berlin]"), "c": pd.Series([], dtype="int32")}
    )
    right = pd.DataFrame(
        {
            "b": pd.Series([None], dtype="boolean"),
            "c_k": pd.Series([-7], dtype="int32"),
            "d_k": pd.Series([None], dtype="datetime64[ns, Europe/Berlin]"),
        },
        index=[-3],
    )

    def run(lib, a, b):
        r = a.merge(b, how="right_anti", left_on=["c", "d"], right_on=["c_k", "d_k"], indicator=True)
        r = r.groupby("d", dropna=False, observed=False).sum(numeric_only=True)
        return r.loc[[pd.NaT, pd.NaT]]

    _check_same(lambda: run(em, em.from_pandas(left), em.from_pandas(right)), lambda: run(pd, left, right))


@pytest.mark.parametrize(
    "dtype, key",
    [
        ("datetime64[ns]", ["2020-01-01"]),
        ("datetime64[ms, UTC]", ["2020-01-01"]),
        ("datetime64[ns]", ["2020-01-01", pd.NaT]),
        ("datetime64[ms, UTC]", [pd.Timestamp("2020-01-01", tz="UTC"), pd.NaT]),
        ("datetime64[ms, UTC]", [pd.Timestamp("2020-01-01"), pd.NaT]),
        ("datetime64[ms, UTC]", [pd.NaT, None]),
        ("timedelta64[ns]", ["1ns"]),
        ("timedelta64[ns]", [pd.NaT, np.nan]),
        ("timedelta64[ns]", [np.timedelta64("NaT", "ns")]),
        ("datetime64[ns]", [np.datetime64("NaT", "ns")]),
    ],
    ids=repr,
)
def test_loc_list_on_datetimelike_index_casts_as_pandas(dtype, key):
    values = [1, None] if dtype.startswith("timedelta") else ["2020-01-01", None]
    pdf = pd.DataFrame({"v": [1, 2]}, index=pd.Index(values, dtype=dtype))
    _check_loc(pdf, key)


@pytest.mark.parametrize("name", ["datetime64[ms, UTC]", "timedelta64[ns]", "str", "Int64"])
def test_drop_of_missing_labels(name):
    pdf = pd.DataFrame({"v": [1, 2]}, index=_pandas_index(name))
    df = em.from_pandas(pdf)
    for na in NA_LABELS:
        try:
            expected = pdf.drop(index=[na])
        except KeyError:
            with pytest.raises(KeyError):
                df.drop(index=[na])
        else:
            assert_eq(df.drop(index=[na]), expected)
        assert_eq(df.drop(index=[na], errors="ignore"), pdf.drop(index=[na], errors="ignore"))


def test_loc_missing_labels_on_an_empty_index():
    pdf = pd.DataFrame({"v": pd.Series([], dtype="int64")}, index=pd.DatetimeIndex([], tz="UTC"))
    _check_loc(pdf, [pd.NaT])
    _check_loc(pdf, [])


def test_loc_missing_label_on_an_index_without_missing_values():
    pdf = pd.DataFrame({"v": [1, 2]}, index=pd.DatetimeIndex(["2020-01-01", "2020-01-02"], tz="UTC"))
    _check_loc(pdf, [pd.NaT])
    _check_loc(pdf, [pd.Timestamp("2020-01-02", tz="UTC"), pd.NaT])


@pytest.mark.parametrize(
    "values, dtype, qs, interpolation",
    [
        ([-2147483648, 5], "Int32", [0.1, 0.9], "linear"),
        ([-2147483648, 5], "int32", [0.1, 0.9], "linear"),
        ([42, -9223372036854775808], "int64", [0.1, 0.9], "midpoint"),
        ([42, -9223372036854775808], "int64", [0.1, 0.9], "linear"),
    ],
)
def test_quantile_of_integer_extremes_does_not_wrap(values, dtype, qs, interpolation):
    # pandas (NumPy's integer lerp) wraps the difference of the extremes around: its answers lie
    # outside the data; ember interpolates in float64, as NumPy does for float input
    s = em.from_pandas(pd.Series(values, dtype=dtype))
    got = s.quantile(qs, interpolation=interpolation).to_pandas()
    as_float = pd.Series(values, dtype="float64").quantile(qs, interpolation=interpolation)
    np.testing.assert_allclose(got.to_numpy(dtype="float64"), as_float.to_numpy(), rtol=1e-12)
    assert (got >= min(values)).all() and (got <= max(values)).all()


@pytest.mark.parametrize("how", ["outer", "left", "right", "inner"])
@pytest.mark.parametrize("empty_dtype", ["datetime64[s]", "int64", "str"])
def test_join_of_an_unordered_categorical_index_with_an_empty_frame(how, empty_dtype):
    cats = ["a", "b", "ç", "日本", ""]
    left = pd.DataFrame({"c": pd.Categorical(["a", "ç"], categories=cats)}).groupby("c").sum()
    left["x"] = [1, 2]
    right = pd.DataFrame(
        {"a_o": pd.Series([], dtype="boolean"), "c_o": pd.Series([], dtype="Int32")},
        index=pd.Index([], dtype=empty_dtype),
    )
    got = em.from_pandas(left).join(em.from_pandas(right), how=how)
    assert_eq(got, left.join(right, how=how))
