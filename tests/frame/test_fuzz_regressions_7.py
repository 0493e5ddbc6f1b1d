"""Divergences the differential fuzzer found: pandas' answer computed with the installed pandas."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq

WINDOW_SUMS = {
    "expanding mean": lambda d: d.expanding().mean(),
    "expanding sum": lambda d: d.expanding().sum(),
    "rolling sum": lambda d: d.rolling(2).sum(),
    "rolling mean": lambda d: d.rolling(2, min_periods=1).mean(),
}


@pytest.mark.parametrize("name", list(WINDOW_SUMS))
@pytest.mark.parametrize(
    "values, dtype",
    [
        ([-(2**63), 2**63 - 1], "Int64"),  # 2**63 - 1 reads 2**63 as float64: the sum is 0
        ([2**63 - 1, 2**63 - 1, -5], "int64"),
        ([2**64 - 1, 3, 2**63], "uint64"),
        ([2**53 + 1, 1, None, 4], "Int64"),
    ],
)
def test_window_sums_of_integers_round_each_value_to_float64_first(name, values, dtype):
    df = pd.DataFrame({"c": pd.Series(values, dtype=dtype)})
    assert_eq(WINDOW_SUMS[name](em.from_pandas(df)), WINDOW_SUMS[name](df))


@pytest.mark.parametrize("empty_labels", ["UInt8", "uint8", "UInt64", "Int8"])
@pytest.mark.parametrize(
    "labels",
    [pd.Index([0]), pd.Index([-1]), pd.Index([3], dtype="Int64"), pd.Index([3, None], dtype="Int64")],
)
def test_alignment_beside_empty_unsigned_labels_casts_non_negative_signed_ones(empty_labels, labels):
    empty = pd.Series([], dtype="boolean", index=pd.Index([], dtype=empty_labels))
    other = pd.Series([False] * len(labels), dtype="boolean", index=labels)
    for a, b in [(empty, other), (other, empty)]:
        _same_outcome(lambda x, y: x | y, a, b)
        _same_outcome(lambda x, y: x.astype("Int64") + y.astype("Int64"), a, b)


def _same_outcome(f, a, b):
    try:
        expected = f(a, b)
    except ValueError as error:  # NA labels cast to numpy uint8: pandas' own error
        with pytest.raises(ValueError, match=str(error)):
            f(em.from_pandas(a), em.from_pandas(b))
        return
    assert_eq(f(em.from_pandas(a), em.from_pandas(b)), expected)


@pytest.mark.parametrize(
    "dtypes",
    [
        ("datetime64[ns]", "datetime64[us]"),
        ("datetime64[ns, UTC]", "datetime64[us, UTC]"),
        ("timedelta64[ns]", "timedelta64[s]"),
    ],
)
@pytest.mark.parametrize("values", [[], [None], [1, 2]])
@pytest.mark.parametrize("op", ["max", "min", "median", "mean"])
def test_frame_reductions_of_times_in_several_units_take_the_finest(dtypes, values, op):
    df = pd.DataFrame({"a": pd.Series(values, dtype=dtypes[0]), "b": pd.Series(values, dtype=dtypes[1])})
    assert_eq(getattr(em.from_pandas(df), op)(), getattr(df, op)())


@pytest.mark.parametrize("labels", [("float64", "datetime64[s]"), ("int64", "float64"), ("str", "int64")])
def test_combine_first_of_two_dtypes_unites_labels_of_two_types(labels):
    a = pd.Series([], dtype="float64", index=pd.Index([], dtype=labels[0]))
    b = pd.Series([], dtype="int8", index=pd.Index([], dtype=labels[1]))
    assert_eq(em.from_pandas(a).combine_first(em.from_pandas(b)), a.combine_first(b))
    a = pd.Series([1.0, None], index=pd.Index([1, 2]))
    b = pd.Series([5, 6], dtype="int8", index=pd.Index([1.0, 2.0]))
    with pytest.raises(NotImplementedError):  # pandas' union path: labels of their common type
        em.from_pandas(a).combine_first(em.from_pandas(b))


BERLIN = "datetime64[ns, Europe/Berlin]"


@pytest.mark.parametrize(
    "columns",
    [
        {"a": ([None], BERLIN), "b": ([None], BERLIN)},  # pandas: naive datetime64[s] NaT
        {"a": ([None], BERLIN), "b": ([None], "datetime64[us, Europe/Berlin]")},
        {"a": (["2020"], BERLIN), "b": (["2021"], "datetime64[us, Europe/Berlin]")},
        {"a": ([None], BERLIN), "b": (["2021"], BERLIN)},
        {"a": ([], BERLIN), "b": ([], BERLIN)},  # pandas: object
        {"a": ([None], BERLIN)},
        {"i": ([1], "int64"), "a": ([None], BERLIN), "b": ([None], BERLIN)},
    ],
)
def test_melt_of_zoned_time_columns_as_pandas_infers_them(columns):
    df = pd.DataFrame({k: pd.Series(v, dtype=d) for k, (v, d) in columns.items()})
    kw = {"id_vars": ["i"]} if "i" in columns else {}
    assert_eq(em.from_pandas(df).melt(**kw), df.melt(**kw))


@pytest.mark.parametrize("dtype", ["float32", "Float32"])
@pytest.mark.parametrize(
    "values",
    [[1e5, 0, 3, 4, None, 2], [1e5, 0, 3, 5.5, 7, 1], [1, 2, 3, 7, 8, 9], [1e10, 0, 3, 4, np.inf, 2]],
)
@pytest.mark.parametrize("op", ["std", "sem", "median", "skew", "var", "quantile"])
def test_groupby_float32_statistics_computed_in_float64_come_back_as_pandas_downcasts(dtype, values, op):
    s = pd.Series(values, dtype=dtype)
    for keys in (pd.Series([1, 1, 2, 2, 3, 3]), pd.Series([1, 1, 1, 2, 2, 2])):
        got = getattr(em.from_pandas(s).groupby(em.from_pandas(keys)), op)()
        assert_eq(got, getattr(s.groupby(keys), op)())


def test_groupby_quantile_on_an_infinite_value_is_that_value():
    s = pd.Series([4, np.inf, 2, -np.inf, np.inf, np.inf, np.inf])
    keys = [1, 1, 1, 2, 2, 3, 3]
    for q in (0.5, 0.75, 0.0, 1.0):
        assert_eq(em.from_pandas(s).groupby(keys).quantile(q), s.groupby(keys).quantile(q))


@pytest.mark.parametrize("op", ["sum", "prod", "mean", "var", "std", "median", "min", "max", "sem"])
@pytest.mark.parametrize("axis", [0, 1])
def test_frame_reductions_beside_an_object_column_are_pandas_or_refused(op, axis):
    df = pd.DataFrame({"a": pd.Series([True, None], dtype=object), "b": [1.5, 2.0]})
    try:
        want = getattr(df, op)(axis=axis)
    except TypeError:
        with pytest.raises((TypeError, NotImplementedError)):
            getattr(em.from_pandas(df), op)(axis=axis)
        return
    try:
        got = getattr(em.from_pandas(df), op)(axis=axis)
    except NotImplementedError:
        return  # a clear refusal is allowed; a different answer is not
    assert_eq(got, want)


@pytest.mark.parametrize("values", [["b"], ["b", "bb"], ["b", "a"], ["ab", None], [" ", "b "]])
@pytest.mark.parametrize("method", ["strip", "lstrip", "rstrip"])
@pytest.mark.parametrize("chars", ["b", None])
def test_strip_where_no_row_keeps_a_character(values, method, chars):
    s = pd.Series(values, dtype="str")
    assert_eq(getattr(em.from_pandas(s).str, method)(chars), getattr(s.str, method)(chars))


def test_melt_names_the_variable_column_after_the_columns_axis():
    df = pd.DataFrame({"e": [0.5], "f": [1.0]}).set_axis(pd.RangeIndex(7, 8, name="idx"))
    assert_eq(em.from_pandas(df).T.melt(), df.T.melt())
    named = df.rename_axis(columns="cn")
    assert_eq(em.from_pandas(named).melt(id_vars="e"), named.melt(id_vars="e"))
    assert_eq(em.from_pandas(named).melt(var_name="v"), named.melt(var_name="v"))


@pytest.mark.parametrize("setter", ["loc", "getitem"])
@pytest.mark.parametrize(
    "values, other",
    [
        ([1, 2, 3, 4], pd.Series([30, 40], index=[2, 3])),  # every selected row has a value: int64 kept
        ([1, 2, 3, 4], pd.Series([40.0, 30.0], index=[3, 2])),
        ([1, 2, 3, 4], pd.Series([40], index=[3])),  # a selected row without a value: float64
        ([1.0, 2, 3, 4], pd.Series([40], index=[3])),
    ],
)
def test_masked_setitem_of_an_aligned_series_uses_the_selected_rows_only(setter, values, other):
    s = pd.Series(values)
    e = em.from_pandas(s)
    if setter == "loc":
        s.loc[s > 2] = other
        e.loc[e > 2] = em.from_pandas(other)
    else:
        s[s > 2] = other
        e[e > 2] = em.from_pandas(other)
    assert_eq(e, s)


@pytest.mark.parametrize(
    "values",
    [
        pd.Series(
            [18446744073709551614, 18446744073709551613, 2], dtype="uint64"
        ),  # beyond float64's integers
        pd.Series([2**62 + 1, 2**62, None], dtype="Int64"),
        pd.Series(["b", "a", None, "c", "a"]),
    ],
)
@pytest.mark.parametrize(
    "kwargs", [{}, {"na_option": "top", "pct": True}, {"method": "dense", "ascending": False}]
)
def test_rank_of_an_unordered_categorical_is_exact(values, kwargs):
    s = values.astype("category")
    assert_eq(em.from_pandas(s).rank(**kwargs), s.rank(**kwargs))
    assert_eq(em.from_pandas(s.to_frame("a")).rank(**kwargs), s.to_frame("a").rank(**kwargs))


@pytest.mark.parametrize("values", [[1.0, 1.0, 2.0], []])
def test_reset_index_of_a_one_level_multiindex_names_columns_as_pandas(values):
    counts = pd.DataFrame({"b": pd.Series(values, dtype="float32")}).value_counts()
    e = em.from_pandas(pd.DataFrame({"b": pd.Series(values, dtype="float32")})).value_counts()
    assert_eq(e.reset_index(), counts.reset_index())
    assert_eq(e.reset_index(name="v"), counts.reset_index(name="v"))
    unnamed = pd.DataFrame({"x": [1, 2]}, index=pd.MultiIndex.from_arrays([[1, 2]]))
    assert_eq(em.from_pandas(unnamed).reset_index(), unnamed.reset_index())


@pytest.mark.parametrize("dtype", ["Float64", "Int64", "float64", "boolean"])
@pytest.mark.parametrize("labels", [[pd.NA], [np.nan], [pd.NA, 1], [np.nan, 5], [True]])
def test_loc_of_missing_labels_in_a_masked_index(dtype, labels):
    values = [True, None, False] if dtype == "boolean" else [1, None, 2]
    s = pd.Series([1, 2, 3], index=pd.Index(values, dtype=dtype))
    try:
        want = s.loc[labels]
    except (KeyError, IndexError) as err:
        with pytest.raises((type(err), NotImplementedError)):
            em.from_pandas(s).loc[labels]
        return
    assert_eq(em.from_pandas(s).loc[labels], want)


@pytest.mark.parametrize("strings", ["str", "string", "object"])
@pytest.mark.parametrize("op", ["lt", "ge", "eq", "ne"])
def test_times_beside_only_missing_strings_compare_as_beside_nat(strings, op):
    times = pd.Series(pd.to_datetime(["2020-01-01", "2021-01-01", None]))
    missing = pd.Series([None, None, None], dtype=strings)
    for left, right in ((times, missing), (missing, times)):
        try:
            want = getattr(left, op)(right)
        except TypeError:
            with pytest.raises((TypeError, NotImplementedError)):
                getattr(em.from_pandas(left), op)(em.from_pandas(right))
            continue
        got = getattr(em.from_pandas(left), op)(em.from_pandas(right))
        if str(want.dtype) == "bool[pyarrow]":  # ember gives 'boolean' there on purpose
            want = want.astype("boolean")
        assert_eq(got, want)


@pytest.mark.parametrize(
    "values, dtype", [([2**64 - 4, 2**64 - 5, None], "UInt64"), ([2**63 - 4, 2**63 - 5, None], "Int64")]
)
@pytest.mark.parametrize("kwargs", [{}, {"ascending": False, "na_option": "bottom"}, {"method": "dense"}])
def test_frame_rank_of_masked_integers_with_a_missing_value_goes_through_float64(values, dtype, kwargs):
    s = pd.Series(values, dtype=dtype)
    assert_eq(em.from_pandas(s.to_frame()).rank(**kwargs), s.to_frame().rank(**kwargs))  # ties, as pandas
    assert_eq(em.from_pandas(s).rank(**kwargs), s.rank(**kwargs))  # Series.rank stays exact


@pytest.mark.parametrize("op", ["var", "std", "sem"])
def test_groupby_variance_of_a_constant_group_is_exactly_zero(op):
    s = pd.Series([0.8, 0.8, 0.8, 0.3, 0.3, 1e-300, 7.1])
    keys = [1, 1, 1, 2, 2, 3, 3]
    got = getattr(em.from_pandas(s).groupby(keys), op)()
    assert got.iloc[0] == 0.0 and got.iloc[1] == 0.0  # not rounding noise of the mean
    assert_eq(got, getattr(s.groupby(keys), op)())


@pytest.mark.parametrize("values", [[None, "a"], ["b", None, "a"], [None, None], ["x", "a"]])
@pytest.mark.parametrize("op", ["cummin", "cummax", "cumsum"])
@pytest.mark.parametrize("skipna", [True, False])
def test_cumulative_of_object_strings_whose_missing_values_were_filtered_out(values, op, skipna):
    s = pd.Series(values, dtype=object)
    for part in (s, s[s.notna()], s.mask(s.isna(), "")):
        try:
            want = getattr(part, op)(skipna=skipna)
        except TypeError:
            with pytest.raises((TypeError, NotImplementedError)):
                getattr(em.from_pandas(part), op)(skipna=skipna)
            continue
        assert_eq(getattr(em.from_pandas(part), op)(skipna=skipna), want)


GROUPED = pd.DataFrame({"size": [1, 2, 2], "count": [1, 2, 2], "c": [1, 1, 2], "v": [3, 4, 3]})


@pytest.mark.parametrize(
    "call",
    [
        lambda d: d.groupby(["size", "c"], as_index=False).size(),  # pandas: ValueError
        lambda d: d.groupby(["size"], as_index=False)["v"].size(),
        lambda d: d.groupby("c", as_index=False).size(),
        lambda d: d.groupby("c", as_index=False)["v"].value_counts(),  # a frame, as pandas
        lambda d: d.groupby("c", as_index=False)["v"].value_counts(normalize=True, sort=False),
        lambda d: d.groupby("c", as_index=False)["count"].value_counts(),  # pandas: ValueError
        lambda d: d.groupby("c", as_index=True)["v"].value_counts(),
    ],
)
def test_groupby_size_and_value_counts_as_index_false(call):
    try:
        want = call(GROUPED)
    except ValueError:
        with pytest.raises(ValueError):
            call(em.from_pandas(GROUPED))
        return
    assert_eq(call(em.from_pandas(GROUPED)), want)


CATEGORICAL_PAIRS = [
    (pd.Series([True, None]).astype("category"), pd.Series([True, False])),
    (pd.Series([True, None], dtype="boolean").astype("category"), pd.Series([True, False])),
    (pd.Series([True, False]).astype("category"), pd.Series([True, None], dtype="boolean")),
    (pd.Series([1, None], dtype="Int64").astype("category"), pd.Series([1, None], dtype="Int64")),
    (pd.Series([1.5, None]).astype("category"), pd.Series([1.5, None], dtype="Float64")),
    (pd.Series([True, False], dtype="boolean").astype("category"), pd.Series([True, True], dtype="boolean")),
    (pd.Series([], dtype="boolean").astype("category"), pd.Series([], dtype="Float64")),
]


@pytest.mark.parametrize("pair", range(len(CATEGORICAL_PAIRS)))
@pytest.mark.parametrize("op", ["eq", "ne"])
@pytest.mark.parametrize("reflected", [False, True])
def test_categorical_equality_with_masked_values_as_numpy_arrays(pair, op, reflected):
    a, b = CATEGORICAL_PAIRS[pair]
    x, y = (b, a) if reflected else (a, b)
    try:
        want = getattr(x, f"__{op}__")(y)
    except TypeError:
        with pytest.raises((TypeError, NotImplementedError)):
            getattr(em.from_pandas(x), f"__{op}__")(em.from_pandas(y))
        return
    try:  # pandas' answer, or a clear refusal where bools meet missing values (NumPy's object rules)
        got = getattr(em.from_pandas(x), f"__{op}__")(em.from_pandas(y))
    except NotImplementedError:
        assert x.isna().any() or y.isna().any()
        return
    assert_eq(got, want)


@pytest.mark.parametrize("index", [[], [3.0], [0.0]])
@pytest.mark.parametrize("op", ["mul", "add"])
def test_frame_arithmetic_na_block_of_a_label_one_side_lacks_uses_the_aligned_dtypes(index, op):
    df = pd.DataFrame(
        {"b": pd.Series([2] * len(index), dtype="int8"), "a": pd.Series([1.5] * len(index), dtype="float32")},
        index=index,
    )
    other = pd.DataFrame(
        {"b": pd.Series([1], dtype="uint64"), "o": pd.Series([0], dtype="uint8")}, index=[3.0]
    )
    for kw in ({"fill_value": 0}, {}):
        assert_eq(getattr(em.from_pandas(df), op)(em.from_pandas(other), **kw), getattr(df, op)(other, **kw))
