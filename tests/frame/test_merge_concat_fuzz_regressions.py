"""merge / join / concat / assign against pandas on the differential fuzzer's shrunk inputs and their
neighbours (index names, NaN-like key labels, kept MultiIndex levels, refusals)."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq

HOWS = ["inner", "outer", "left", "right"]

INDEXES = [
    pd.RangeIndex(2, 5, name="idx"),
    pd.RangeIndex(3, 6),
    pd.RangeIndex(7, 9),
    pd.RangeIndex(13, 16, 3, name="idx"),
    pd.RangeIndex(2, 5, name="z"),
    pd.RangeIndex(0, 0, name="idx"),
    pd.Index([3, 4, 5]),
    pd.Index([3, 4, 5], dtype="int32"),
    pd.Index([2, 3, 4], dtype="uint8"),
    pd.Index([4, 3, 2]),
    pd.Index([2, 3, 4], name="idx"),
    pd.Index([1, 2, 5]),
    pd.Index([2]),
    pd.Index([2.0, 3.0]),
    pd.Index([3, 3, 4]),
]


def _pair(a: pd.Index, b: pd.Index) -> tuple[pd.DataFrame, pd.DataFrame]:
    return pd.DataFrame({"x": range(len(a))}, index=a), pd.DataFrame({"y": range(len(b))}, index=b)


@pytest.mark.parametrize("how", HOWS)
@pytest.mark.parametrize("left", INDEXES[:6], ids=repr)
@pytest.mark.parametrize("right", INDEXES, ids=repr)
def test_join_on_index_names(left, right, how):
    """pandas' RangeIndex joins an increasing arithmetic sequence of ints by intersection / union:
    the result keeps a name only where both sides share it."""
    lf, rf = _pair(left, right)
    expected = lf.join(rf, how=how)
    assert_eq(em.from_pandas(lf).join(em.from_pandas(rf), how=how), expected, check_index_type="equiv")


@pytest.mark.parametrize("how", HOWS)
def test_join_range_index_of_other_name_fuzz(how):
    df = pd.DataFrame({"b": pd.Series(["ab"], dtype="string")}).set_axis(pd.RangeIndex(13, 16, 3, name="idx"))
    other = pd.DataFrame({"c_o": [True], "a_o": pd.Series([None], dtype="boolean")}).set_axis(
        pd.RangeIndex(9, 10)
    )
    expected = df.join(other, how=how)
    assert_eq(em.from_pandas(df).join(em.from_pandas(other), how=how), expected, check_index_type="equiv")


@pytest.mark.parametrize("how", ["right", "outer", "left", "inner"])
def test_join_on_keeps_multiindex_levels(how):
    """Rows of a join(on=) without a left match: the MultiIndex keeps its levels' dtype."""
    df = pd.DataFrame(
        {
            "b": pd.Series([3, 5, 5, 18446744073709551615, 42], dtype="uint64"),
            "a": pd.Series([3, 42, 42, -7, 3], dtype="Int32"),
            "d": pd.Series([0, 255, 42, 3, 2], dtype="UInt8"),
        }
    )
    other = pd.DataFrame({"c_o": pd.Series([42, 3, None], dtype="UInt8")}).set_axis(pd.Index([10, 3, 2]))
    grouped = df.groupby(["b", "a"])[["d"]].nunique()
    egrouped = em.from_pandas(df).groupby(["b", "a"])[["d"]].nunique()
    expected = grouped.join(other, on="d", how=how)
    assert_eq(egrouped.join(em.from_pandas(other), on="d", how=how), expected)


def _pivot_with_nat_column() -> tuple[pd.DataFrame, em.DataFrame]:
    df = pd.DataFrame(
        {"e": pd.Series([1.0], dtype="Float64"), "a": pd.Series([None], dtype="timedelta64[s]")}
    )
    args = dict(values="e", index="e", columns="a", dropna=False)
    return df.pivot_table(**args), em.from_pandas(df).pivot_table(**args)


@pytest.mark.parametrize("how", HOWS)
def test_merge_on_nat_label_finds_nan_column(how):
    """on=NaT: each side's column labelled by a NaN-like label pandas' get_loc matches."""
    left, eleft = _pivot_with_nat_column()
    right = pd.DataFrame({"d": pd.Series([], dtype="boolean"), np.nan: pd.Series([], dtype="int64")})
    right = right.set_axis(pd.Index([], dtype="float64"))
    expected = left.merge(right, how=how, on=pd.NaT, sort=True, indicator=True)
    assert_eq(eleft.merge(em.from_pandas(right), how=how, on=pd.NaT, sort=True, indicator=True), expected)


@pytest.mark.parametrize("how", HOWS)
def test_merge_on_nat_label_with_rows(how):
    left = pd.DataFrame({pd.NaT: [1, 2], "x": [1, 2]})
    right = pd.DataFrame({np.nan: [2, 3], "y": [5, 6]})
    expected = left.merge(right, how=how, on=pd.NaT, indicator=True)
    assert_eq(em.from_pandas(left).merge(em.from_pandas(right), how=how, on=pd.NaT, indicator=True), expected)


def test_merge_nan_label_of_both_sides_refused():
    left = pd.DataFrame({np.nan: [1.0, 2.0], "x": [1, 2]})
    right = pd.DataFrame({np.nan: [2.0, 3.0], "y": [5, 6]})
    with pytest.raises(NotImplementedError):
        em.from_pandas(left).merge(em.from_pandas(right), on=np.nan)
    with pytest.raises(NotImplementedError):
        em.from_pandas(left).merge(em.from_pandas(right))  # the shared NaN label is the key


def test_merge_nan_key_naming_another_na_refused():
    left, eleft = _pivot_with_nat_column()
    right = pd.DataFrame({"d": pd.Series([], dtype="boolean"), np.nan: pd.Series([], dtype="int64")})
    with pytest.raises(NotImplementedError):
        eleft.merge(em.from_pandas(right), how="left", on=np.nan)
    expected = left.merge(right, how="inner", on=np.nan)
    assert_eq(eleft.merge(em.from_pandas(right), how="inner", on=np.nan), expected)


def test_merge_without_common_columns_raises_merge_error():
    left, right = pd.DataFrame({"a": [1]}), pd.DataFrame({"b": [1]})
    with pytest.raises(pd.errors.MergeError, match="No common columns"):
        left.merge(right)
    with pytest.raises(pd.errors.MergeError, match="No common columns"):
        em.from_pandas(left).merge(em.from_pandas(right))


CAT_RIGHT = pd.DataFrame(
    {
        "d": pd.Series(["2020-01-02"], dtype="datetime64[s]"),
        "c": pd.Categorical([""], categories=["a", "b", "ç", "日本", ""]),
    }
)


@pytest.mark.parametrize("how", HOWS)
def test_merge_boolean_category_beside_string_category(how):
    """pandas fills the key of an outer merge as object holding bools and strings: refused."""
    left = pd.DataFrame({"c": pd.Series([None], dtype="boolean")}).astype({"c": "category"})
    expected = left.merge(CAT_RIGHT, how=how, on="c", indicator=True)
    call = lambda: em.from_pandas(left).merge(em.from_pandas(CAT_RIGHT), how=how, on="c", indicator=True)  # noqa: E731
    if how == "outer":
        with pytest.raises(NotImplementedError):
            call()
    else:
        assert_eq(call(), expected)


@pytest.mark.parametrize("values", [[1, 2], ["a", "zz"]])
@pytest.mark.parametrize("how", HOWS)
def test_merge_category_beside_string_category(values, how):
    left = pd.DataFrame({"c": pd.Categorical(values)})
    expected = left.merge(CAT_RIGHT, how=how, on="c", indicator=True)
    try:
        result = em.from_pandas(left).merge(em.from_pandas(CAT_RIGHT), how=how, on="c", indicator=True)
    except NotImplementedError:
        return
    assert_eq(result, expected)


DUPLICATED = pd.Series([0, 2], dtype="int8", index=pd.Index([4.0, 4.0]))


@pytest.mark.parametrize(
    "frame",
    [
        pd.DataFrame({"a": pd.Series(["abc"], dtype="string")}),
        pd.DataFrame({"a": [1, 2]}, index=[4.0, 5.0]),
        pd.DataFrame({"a": [1, 2]}, index=[5.0, 4.0]),
    ],
)
def test_assign_series_with_duplicate_labels_raises(frame):
    with pytest.raises(ValueError, match="cannot reindex on an axis with duplicate labels"):
        frame.assign(w=DUPLICATED)
    with pytest.raises(ValueError, match="cannot reindex on an axis with duplicate labels"):
        em.from_pandas(frame).assign(w=em.from_pandas(DUPLICATED))


@pytest.mark.parametrize(
    "frame",
    [pd.DataFrame({"a": [1, 2]}, index=[4.0, 4.0]), pd.DataFrame({"a": pd.Series([], dtype="float64")})],
)
def test_assign_series_with_duplicate_labels_accepted(frame):
    expected = frame.assign(w=DUPLICATED)
    assert_eq(em.from_pandas(frame).assign(w=em.from_pandas(DUPLICATED)), expected)


@pytest.mark.parametrize("kw", [{}, {"sort": False}, {"sort": True}, {"join": "inner"}])
@pytest.mark.parametrize("ignore_index", [True, False])
def test_concat_axis1_of_datetime_indexes_sorts_by_default(kw, ignore_index):
    """pandas unites DatetimeIndexes sorted when sort is not given (with a deprecation warning)."""
    cats = pd.Categorical([None], categories=["a", "b"])
    frame = pd.DataFrame({"b": cats}).set_axis(pd.DatetimeIndex(["2024-01-01 13:00"]))
    series = pd.Series([0], index=pd.DatetimeIndex(["2024-01-01 00:00"]), name="s")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = pd.concat([frame, series], axis=1, ignore_index=ignore_index, **kw)
        result = em.concat(
            [em.from_pandas(frame), em.from_pandas(series)], axis=1, ignore_index=ignore_index, **kw
        )
    assert_eq(result, expected)


def test_concat_axis1_of_int_indexes_keeps_order():
    parts = [pd.Series([1], index=[13], name="a"), pd.Series([2], index=[0], name="b")]
    assert_eq(em.concat([em.from_pandas(p) for p in parts], axis=1), pd.concat(parts, axis=1))
