"""Reductions over the whole frame, groupby keys, windows on decreasing indexes, Index.get_loc and
setitem with values a column cannot hold: each against pandas' own answer (or its error)."""

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq


def _same_scalar(got, want):
    if want is pd.NA:
        assert got is pd.NA
        return
    assert type(got) is type(want), (type(got), type(want))
    if isinstance(want, float) and np.isnan(want):
        assert np.isnan(got)
    else:
        assert got == want


def _raises_like(f_pd, f_em):
    """ember raises what pandas raises (or refuses with NotImplementedError)."""
    with pytest.raises(Exception) as pd_err:
        f_pd(pd)
    with pytest.raises(Exception) as em_err:
        f_em(em)
    assert isinstance(em_err.value, (pd_err.type, NotImplementedError)), (em_err.value, pd_err.value)


# --- axis=None reductions ------------------------------------------------------------------------
FRAMES = {
    "bool": {"a": [True, False], "b": [True, True]},
    "int_float": {"a": [1, 2], "b": [1.5, 2.0]},
    "int32": {"a": np.array([1, 2], dtype="int32"), "b": np.array([3, 4], dtype="int32")},
    "nan": {"a": [1.0, np.nan], "b": [np.nan, np.nan]},
    "masked_float": {"a": pd.array([1, None]), "b": [1.5, 2.0]},
    "masked": {"a": pd.array([1, None]), "b": pd.array([1, 2])},
    "all_na": {"a": pd.array([None, None], dtype="Int64")},
    "bool_na": {"a": pd.array([True, None]), "b": [True, True]},
}


@pytest.mark.parametrize("name", sorted(FRAMES))
@pytest.mark.parametrize(
    "op", ["sum", "prod", "min", "max", "mean", "median", "std", "var", "sem", "any", "all"]
)
@pytest.mark.parametrize("skipna", [True, False])
def test_axis_none_is_one_scalar(name, op, skipna):
    pdf = pd.DataFrame(FRAMES[name])
    try:
        want = getattr(pdf, op)(axis=None, skipna=skipna)
    except Exception as err:  # noqa: BLE001 - pandas refuses: ember must raise too
        with pytest.raises((type(err), NotImplementedError)):
            getattr(em.from_pandas(pdf), op)(axis=None, skipna=skipna)
        return
    got = getattr(em.from_pandas(pdf), op)(axis=None, skipna=skipna)
    _same_scalar(got, want)


def test_axis_none_bool_only_and_numeric_only():
    pdf = pd.DataFrame({"a": [1, 0], "b": ["x", ""], "c": [True, True], "d": pd.array([False, None])})
    df = em.from_pandas(pdf)
    for op in ("any", "all"):
        _same_scalar(getattr(df, op)(axis=None), getattr(pdf, op)(axis=None))
        _same_scalar(getattr(df, op)(axis=None, bool_only=True), getattr(pdf, op)(axis=None, bool_only=True))
        assert_eq(getattr(df, op)(bool_only=True), getattr(pdf, op)(bool_only=True))
        assert_eq(getattr(df, op)(axis=1, bool_only=True), getattr(pdf, op)(axis=1, bool_only=True))
        with pytest.raises(TypeError):
            getattr(df, op)(numeric_only=True)
    pdf = pd.DataFrame({"a": [1, 2], "b": ["x", "y"], "c": [1.5, 2.5]})
    df = em.from_pandas(pdf)
    for op in ("sum", "mean", "max"):
        _same_scalar(
            getattr(df, op)(axis=None, numeric_only=True), getattr(pdf, op)(axis=None, numeric_only=True)
        )
    _raises_like(
        lambda m: m.DataFrame({"a": [1]}).count(axis=None), lambda m: m.DataFrame({"a": [1]}).count(axis=None)
    )
    _raises_like(lambda m: m.DataFrame().sum(axis=None), lambda m: m.DataFrame().sum(axis=None))
    _same_scalar(em.DataFrame().all(axis=None), pd.DataFrame().all(axis=None))
    _same_scalar(em.DataFrame().any(axis=None), pd.DataFrame().any(axis=None))


def test_axis_none_strings():
    pdf = pd.DataFrame({"a": ["x", "y"], "b": ["z", "w"]})
    df = em.from_pandas(pdf)
    for op in ("sum", "min", "max", "any", "all"):
        _same_scalar(getattr(df, op)(axis=None), getattr(pdf, op)(axis=None))


# --- reversed slices and windows on a decreasing index ---------------------------------------------
@pytest.mark.parametrize("index", [None, [10, 20, 30, 40, 50], list("abcde")])
@pytest.mark.parametrize(
    "key", [slice(None, None, -1), slice(3, None, -1), slice(None, 1, -1), slice(4, 0, -2), slice(1, 3, -1)]
)
def test_reversed_iloc_slices(index, key):
    pdf = pd.DataFrame({"a": [1, 2, 1, 4, 5], "b": [1.0, 2, 3, 4, 5], "s": list("vwxyz")}, index=index)
    df = em.from_pandas(pdf)
    assert_eq(df.iloc[key], pdf.iloc[key])
    assert_eq(df["s"].iloc[key], pdf["s"].iloc[key])
    assert_eq(df["b"][key], pdf["b"][key])
    assert list(df.index[key].to_pandas()) == list(pdf.index[key])


def test_reversed_loc_slices():
    pdf = pd.DataFrame({"b": [1.0, 2, 3, 4, 5]}, index=list("abcde"))
    df = em.from_pandas(pdf)
    for key in [slice(None, None, -1), slice("d", None, -1), slice("e", "a", -2), slice("b", "d", 2)]:
        assert_eq(df.loc[key], pdf.loc[key])
        assert_eq(df["b"].loc[key], pdf["b"].loc[key])


@pytest.mark.parametrize("closed", [None, "left", "both", "neither"])
@pytest.mark.parametrize("agg", ["sum", "mean", "count", "max"])
def test_rolling_offset_on_decreasing_index(closed, agg):
    idx = pd.date_range("2020", periods=6, freq="s")
    pdf = pd.DataFrame({"x": [1.0, 2, np.nan, 4, 5, 6]}, index=idx).iloc[::-1]
    df = em.from_pandas(pdf)
    want = getattr(pdf.rolling("3s", closed=closed), agg)()
    assert_eq(getattr(df.rolling("3s", closed=closed), agg)(), want, check_freq=False)
    want = getattr(pdf["x"].rolling("3s", closed=closed), agg)()
    assert_eq(getattr(df["x"].rolling("3s", closed=closed), agg)(), want, check_freq=False)
    on = pdf.reset_index(names="t")
    want = getattr(on.rolling("3s", on="t", closed=closed), agg)()
    assert_eq(getattr(em.from_pandas(on).rolling("3s", on="t", closed=closed), agg)(), want)


def test_rolling_offset_on_unsorted_index_raises():
    idx = pd.date_range("2020", periods=4, freq="s")[[0, 2, 1, 3]]
    _raises_like(
        lambda m: m.DataFrame({"x": [1.0, 2, 3, 4]}, index=idx).rolling("2s").sum(),
        lambda m: m.DataFrame({"x": [1.0, 2, 3, 4]}, index=idx).rolling("2s").sum(),
    )


# --- groupby apply ----------------------------------------------------------------------------------
def _reverse(x):
    return x.iloc[::-1]


@pytest.mark.parametrize("group_keys", [True, False])
@pytest.mark.parametrize("as_index", [True, False])
@pytest.mark.parametrize("select", [["B"], "B"])
@pytest.mark.parametrize("func", [lambda x: x * 2, lambda x: x.head(1), _reverse])
@pytest.mark.parametrize(
    "data,index",
    [
        ({"A": [1, 2, 1], "B": [1.0, 2, 3]}, [10, 20, 30]),
        ({"A": [1, 2, 1, None], "B": [1.0, 2, 3, 4]}, [10, 10, 30, 40]),
        ({"A": [3, 2, 1, 3], "B": [1.0, 2, 3, 4]}, None),
    ],
)
def test_groupby_apply_group_keys(group_keys, as_index, select, func, data, index):
    pdf = pd.DataFrame(data, index=index)
    want = pdf.groupby("A", group_keys=group_keys, as_index=as_index)[select].apply(func)
    got = em.from_pandas(pdf).groupby("A", group_keys=group_keys, as_index=as_index)[select].apply(func)
    assert_eq(got, want)
