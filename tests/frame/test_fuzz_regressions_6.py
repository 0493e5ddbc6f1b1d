"""Divergences the differential fuzzer found: pandas' answer computed with the installed pandas."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq

PANDAS_31 = tuple(int(p) for p in pd.__version__.split(".")[:2]) >= (3, 1)


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


@pytest.mark.parametrize("other_dtype", ["float64", "float32"])
def test_combine_first_with_repeated_labels(other_dtype):
    index = pd.Index(["a", "B", "B"])
    s = pd.Series([np.nan, 0.5, 7.0], dtype="float32", index=index)
    other = pd.Series([-3.25, 1.0, 1.0], dtype=other_dtype, index=index)
    try:
        want = s.combine_first(other)
    except ValueError as exc:  # two dtypes: pandas reindexes the repeated labels
        with pytest.raises(ValueError, match=str(exc)):
            em.from_pandas(s).combine_first(em.from_pandas(other))
        return
    assert_eq(em.from_pandas(s).combine_first(em.from_pandas(other)), want)


EMPTY_LABELS = [
    pd.DatetimeIndex([], dtype="datetime64[s]"),
    pd.Index([], dtype="str"),
    pd.RangeIndex(0),
    pd.Index([], dtype="float64"),
    pd.Index([], dtype="uint64"),
]
LABELS = [pd.Index(["x", "a"]), pd.Index([3, 1]), pd.DatetimeIndex(["2020"]), pd.Index([7], dtype="int32")]


@pytest.mark.parametrize("empty", EMPTY_LABELS, ids=lambda i: str(i.dtype))
@pytest.mark.parametrize("other", EMPTY_LABELS + LABELS, ids=lambda i: f"{i.dtype}{len(i)}")
@pytest.mark.parametrize("empty_first", [True, False])
def test_alignment_beside_empty_labels_of_another_dtype(empty, other, empty_first):
    # pandas joins beside an empty index whatever the other's dtype: the other's labels, sorted
    pair = [pd.Series(np.arange(len(i), dtype="float64"), index=i) for i in (empty, other)]
    if not empty_first:
        pair.reverse()
    x, y = (em.from_pandas(s) for s in pair)
    assert_eq(x % y, pair[0] % pair[1])
    assert_eq(x.add(y, fill_value=1), pair[0].add(pair[1], fill_value=1))
    assert_eq(x.eq(y), pair[0].eq(pair[1]))
    want, got = pair[0].to_frame("a"), x.to_frame("a")
    want["b"], got["b"] = pair[1], y  # a left join
    assert_eq(got, want)


@pytest.mark.parametrize(
    ("left", "right"),
    [([5], [3]), ([5, 2**63], [3]), ([5], [2, 3]), ([42, 3], [7])],
)
def test_unsigned_labels_beside_signed_ones_without_negatives(left, right):
    # pandas casts the signed labels to uint64 when the unsigned ones come first
    a = pd.Series(1.0, index=pd.Index(left, dtype="uint64"))
    b = pd.Series(2.0, index=pd.Index(right, dtype="int64"))
    assert_eq(em.from_pandas(a) + em.from_pandas(b), a + b)
    assert_eq(em.from_pandas(a).lt(em.from_pandas(b)), a.lt(b))


@pytest.mark.parametrize(("left", "right"), [([5], [-5]), ([3], [5])])
def test_uint64_labels_pandas_types_by_their_order_are_refused(left, right):
    a = pd.Series(1.0, index=pd.Index(left, dtype="uint64"))
    b = pd.Series(2.0, index=pd.Index(right, dtype="int64"))
    for x, y in ((a, b), (b, a)):
        if x.index.dtype == "uint64" and y.index.min() >= 0:
            continue  # the cast above
        with pytest.raises(NotImplementedError):
            em.from_pandas(x) + em.from_pandas(y)


@pytest.mark.parametrize("value", ["series", "list", "array"])
@pytest.mark.parametrize("with_columns", [False, True])
def test_setitem_on_a_frame_without_rows_takes_the_values_rows(value, with_columns):
    def make(m):
        if not with_columns:
            return m.DataFrame()
        columns = {
            "a": m.Series([], dtype="int64"),
            "s": m.Series([], dtype="str"),
            "b": m.Series([], dtype=bool),
            "d": m.Series([], dtype="datetime64[ns]"),
        }
        return m.DataFrame(columns, index=m.Index([], name="nm"))

    def values(m):
        return {
            "series": m.Series([1.0, 2.0], index=["x", "y"]),
            "list": [1, 2],
            "array": np.array([3, 4]),
        }[value]

    want, got = make(pd), make(em)
    want["z"], got["z"] = values(pd), values(em)
    assert_eq(got, want)


TIMEDELTAS = [
    pd.Series(pd.to_timedelta(["1h", "-1h", "0s", "100000 days 1ns"]), dtype="timedelta64[ns]"),
    pd.Series(pd.to_timedelta(["1h", None, "0s", "3s"]), dtype="timedelta64[s]"),
    pd.Series(pd.to_timedelta(["100000 days 1ns", None, "-100000 days 1ns", "3s"]), dtype="timedelta64[ns]"),
]
DIVISORS = [
    pd.Timedelta(0),
    pd.Timedelta("7min"),
    pd.Timedelta("-7ns"),
    np.timedelta64(3, "s"),
    pd.Series(pd.to_timedelta(["0s", "3s", "-3s", "7ns"])),
    pd.Series(pd.to_timedelta(["0s", None, "-3ns", "7ns"])),
    pd.Series(pd.to_timedelta(["0s", None, "-3s", "7s"]), dtype="timedelta64[s]"),
]


@pytest.mark.parametrize("values", TIMEDELTAS, ids=["ns", "s-with-nat", "ns-large-with-nat"])
@pytest.mark.parametrize("divisor", DIVISORS, ids=range(len(DIVISORS)))
@pytest.mark.parametrize("op", ["floordiv", "mod", "truediv", "rfloordiv", "rmod"])
def test_timedelta_division_as_pandas(values, divisor, op):
    # pandas divides the ticks as NumPy integers (0 beside a zero divisor, x % 0 is x); beside a NaT
    # the quotient is float64, and the remainder is rounded through it
    want = getattr(values, op)(divisor)
    other = em.from_pandas(divisor) if isinstance(divisor, pd.Series) else divisor
    assert_eq(getattr(em.from_pandas(values), op)(other), want)


@pytest.mark.parametrize("keys", [["c", "a", "f"], ["d", "a"], ["f", "c"]])
@pytest.mark.parametrize("sort", [True, False])
def test_groupby_dropna_false_keeps_missing_keys_as_level_values(keys, sort):
    # pandas' row labels hold <NA> / NaT / NaN themselves, not the NaN of a missing code
    df = pd.DataFrame(
        {
            "c": pd.Series([None, "x", None, "b"], dtype="string"),
            "a": pd.Series([None, 1, None, 3], dtype="Int32"),
            "f": [np.nan, 1.0, 2.0, np.nan],
            "d": pd.to_datetime(["2020", None, "2021", "2020"]),
            "v": [1.0, 2, 3, 4],
        }
    )
    want = df.groupby(keys, dropna=False, sort=sort)[["v"]].median()
    got = em.from_pandas(df).groupby(keys, dropna=False, sort=sort)[["v"]].median()
    assert_eq(got, want)
    for i in range(len(want)):
        assert repr(got.index[i]) == repr(want.index[i])
        assert repr(got.iloc[i].name) == repr(want.iloc[i].name)
    for mine, theirs in zip(got.index.to_pandas().levels, want.index.levels):
        assert mine.equals(theirs)


MISSING_KINDS = {
    "object None": pd.Series([None], dtype=object),
    "object NaN": pd.Series([np.nan], dtype=object),
    "object NA": pd.Series([pd.NA], dtype=object),
    "string NA": pd.Series([None], dtype="string"),
    "str NaN": pd.Series([None], dtype="str"),
    "float NaN": pd.Series([np.nan]),
    "Float64 NA": pd.Series([None], dtype="Float64"),
    "object x None": pd.Series(["x", None], dtype=object),
}


@pytest.mark.parametrize("column", MISSING_KINDS, ids=str)
@pytest.mark.parametrize("values", MISSING_KINDS, ids=str)
def test_isin_matches_missing_values_as_pandas(column, values):
    # an object column's missing value finds only the same missing object (None, NaN or pd.NA)
    s, v = MISSING_KINDS[column], MISSING_KINDS[values]
    assert_eq(em.from_pandas(s).isin(em.from_pandas(v)), s.isin(v))
    assert_eq(em.from_pandas(s).isin(list(v)), s.isin(list(v)))


@pytest.mark.parametrize("numbers", [pd.Series([None], dtype="UInt8"), pd.Series([None], dtype="boolean")])
def test_object_strings_beside_masked_ints_raise_beneath_the_mask(numbers):
    # pandas' Int / boolean arrays apply the operator beneath their mask: 'AB' + 0 fails
    strings = pd.Series(["AB"], dtype=object)
    for f in (lambda x, y: x + y, lambda x, y: y + x):
        with pytest.raises(TypeError):
            f(strings, numbers)
        with pytest.raises(TypeError):
            f(em.from_pandas(strings), em.from_pandas(numbers))
    floats = pd.Series([None], dtype="Float64")  # a Float64 mask is respected
    assert_eq(em.from_pandas(strings) + em.from_pandas(floats), strings + floats)


@pytest.mark.parametrize("op", ["cummax", "cummin", "cumsum"])
def test_groupby_running_ops_of_nat_beside_dropped_keys_are_refused(op):
    # pandas reads the NaT as the smallest int64 there: cummax skips it, cumsum overflows
    s = pd.Series(pd.to_timedelta(["1h", None, "5h", "2h"]))
    keys = pd.Series([3, 3, None, 3])
    with pytest.raises(NotImplementedError):
        getattr(em.from_pandas(s).groupby(em.from_pandas(keys)), op)()
    if op == "cumsum":
        return  # (ember's groupby cumsum takes no timedeltas yet)
    kept = pd.Series([3, 3, 4, 3])
    want = getattr(s.groupby(kept), op)()
    assert_eq(getattr(em.from_pandas(s).groupby(em.from_pandas(kept)), op)(), want)


def test_outer_alignment_beside_an_empty_side_orders_repeated_labels_as_pandas():
    # pandas sorts the non-empty side with NumPy's quicksort: repeated labels in its order
    empty = pd.Series([], dtype="int64")
    other = pd.Series([0, 3, 10, 42, 2, 0], dtype="uint8", index=[20.5, 12.0, 11.5, 18.0, 4.0, 12.0])
    assert_eq(
        em.from_pandas(empty).add(em.from_pandas(other), fill_value=2.5), empty.add(other, fill_value=2.5)
    )
    frame = pd.DataFrame({"d": [7.0, 0.0, np.nan, 0.001, 1.0, np.nan]}, index=[0, 2, 0, 2, 1, 0])
    no_rows = pd.DataFrame({"d": pd.Series([], dtype="Int32")})
    want = no_rows.add(frame, fill_value=0)
    assert_eq(em.from_pandas(no_rows).add(em.from_pandas(frame), fill_value=0), want)


@pytest.mark.parametrize("op", ["sum", "mean"])
def test_expanding_sums_keep_small_values_after_huge_ones(op):
    # pandas keeps a compensated running sum: 100 stays 100 beside the 1e18 that follows
    s = pd.Series([100.0 * 100.0**i for i in range(9)])
    assert_eq(
        getattr(em.from_pandas(s).expanding(), op)(),
        getattr(s.expanding(), op)(),
        check_exact=False,
        rtol=1e-12,
    )
    rng = np.random.default_rng(0)
    values = rng.standard_normal(2000) * 10.0 ** rng.integers(-5, 15, 2000)
    values[rng.random(2000) < 0.1] = np.nan
    s = pd.Series(values)
    got = getattr(em.from_pandas(s).expanding(), op)()
    assert_eq(got, getattr(s.expanding(), op)(), check_exact=False, rtol=1e-10)
    keys = pd.Series(rng.integers(0, 5, 2000))
    got = getattr(em.from_pandas(s).groupby(em.from_pandas(keys)).expanding(), op)()
    assert_eq(got, getattr(s.groupby(keys).expanding(), op)(), check_exact=False, rtol=1e-10)


@pytest.mark.parametrize("how", ["right", "outer", "left", "inner"])
@pytest.mark.parametrize("empty_left", [True, False])
def test_merge_beside_an_empty_side_of_timedeltas_in_another_unit_sorts_nat_last(how, empty_left):
    # pandas merges timedeltas of two units as objects, even beside an empty side: NaT sorts last
    full = pd.DataFrame({"d": pd.Series(["1h", None, "1min"], dtype="timedelta64[s]"), "v": [1, 2, 3]})
    empty = pd.DataFrame({"d": pd.Series([], dtype="timedelta64[ns]"), "w": pd.Series([], dtype="int64")})
    a, b = (empty, full) if empty_left else (full, empty)
    want = a.merge(b, how=how, on="d", sort=True)
    assert_eq(em.from_pandas(a).merge(em.from_pandas(b), how=how, on="d", sort=True), want)


@pytest.mark.parametrize(
    ("left", "right"),
    [
        (pd.Series([0.0, 2.5], dtype="float32"), pd.Series([False, True], dtype="boolean")),
        (pd.Series([False, True], dtype="boolean"), pd.Series([0.0, 2.5], dtype="float32")),
        (pd.Series([None, 1.5], dtype="Float32"), 0.0),
        (pd.Series([None, 1.5], dtype="Float32"), False),
        (pd.Series([None, 3], dtype="Int8"), pd.Series([0.0, 2.5], dtype="float32")),
        (pd.Series([None, 1.5], dtype="Float32"), 2.0),
    ],
)
def test_masked_float32_floor_division_by_zero_widens_as_pandas(left, right):
    # pandas' zero-division fill makes float32 // 0 Float64, except under a masked int's own //
    other = em.from_pandas(right) if isinstance(right, pd.Series) else right
    assert_eq(em.from_pandas(left) // other, left // right)


@pytest.mark.parametrize("keys", [["e", "d"], ["d"], ["d", "e"]])
@pytest.mark.parametrize("as_index", [True, False])
def test_groupby_key_of_object_bools_all_missing_is_float(keys, as_index):
    # a bool column made object by a join, holding only missing values: pandas infers float64 keys
    left = pd.DataFrame({"d": pd.Series([], dtype="bool"), "w": pd.Series([], dtype="int64")})
    right = pd.DataFrame({"k": [True], "e": ["x"], "v": [2.0]})
    df = left.merge(right, how="right", left_on="d", right_on="k")
    got = em.from_pandas(left).merge(em.from_pandas(right), how="right", left_on="d", right_on="k")
    assert_eq(got, df)
    want = df.groupby(keys, dropna=False, as_index=as_index)[["v"]].max()
    assert_eq(got.groupby(keys, dropna=False, as_index=as_index)[["v"]].max(), want)


@pytest.mark.parametrize(
    ("left", "right"),
    [
        (pd.DataFrame({"index": [1.0], 0: [2.0]})[["index"]], pd.DataFrame({"index": [1.0], "o": [2.0]})),
        (pd.DataFrame({0: [1.0], 1: [2.0]}), pd.DataFrame({2: [1.0]})),
        (pd.DataFrame({"a": [1.0]}), pd.DataFrame({"b": [1.0]})),
        (pd.DataFrame({1: [1.0]}), pd.DataFrame({1.5: [1.0]})),
    ],
)
def test_frame_arithmetic_unites_column_labels_of_pandas_type(left, right):
    # pandas' union of the column axes: object labels beside str ones stay object
    got = em.from_pandas(left) - em.from_pandas(right)
    assert_eq(got, left - right)


@pytest.mark.parametrize("keys", [["d", "b"], ["b", "d"], ["d"]])
@pytest.mark.parametrize("op", ["sum", "nunique", "max", "size", "first"])
@pytest.mark.parametrize("rows", [0, 1])
def test_groupby_observed_false_with_an_empty_level_has_no_groups(keys, op, rows):
    # the product of a categorical's categories with no values of another key is empty: every level too
    df = pd.DataFrame(
        {
            "b": pd.Series([1] * rows, dtype="int64"),
            "d": pd.Categorical([None] * rows, categories=["a", "b"]),
            "v": pd.Series([1.0] * rows, dtype="float64"),
        }
    )
    want = getattr(df.groupby(keys, observed=False), op)()
    assert_eq(getattr(em.from_pandas(df).groupby(keys, observed=False), op)(), want)


@pytest.mark.parametrize(
    "values",
    [[0, 0], [0.0], [1], [0, pd.Timedelta(0)], [1, pd.Timedelta(0)], [0, None], np.array([0]), [np.int64(0)]],
    ids=repr,
)
@pytest.mark.parametrize(
    "s",
    [pd.Series(pd.to_timedelta(["0s", None, "1ns"])), pd.Series(pd.to_datetime(["1970-01-01", None]))],
    ids=["timedelta", "datetime"],
)
def test_isin_reads_no_number_as_a_time(s, values):
    assert_eq(em.from_pandas(s).isin(values), s.isin(values))


def _floats_with_nan_values():
    # a masked float column holding NaN as a value beside a missing one (pandas keeps them apart)
    data = np.array([np.nan, 1.0, np.nan, 0.0, 1.0])
    return pd.Series(pd.arrays.FloatingArray(data, np.array([False, False, False, True, False])))


@pytest.mark.parametrize("sort", [True, False])
@pytest.mark.parametrize("dropna", [True, False])
def test_nan_values_of_a_masked_float_column_are_one_value(sort, dropna):
    s = _floats_with_nan_values()
    e = em.from_pandas(s)
    assert_eq(e.groupby(e, sort=sort, dropna=dropna).size(), s.groupby(s, sort=sort, dropna=dropna).size())
    assert_eq(e.drop_duplicates(), s.drop_duplicates())
    assert_eq(e.value_counts(dropna=dropna), s.value_counts(dropna=dropna))
    assert e.nunique(dropna=dropna) == s.nunique(dropna=dropna)


@pytest.mark.skipif(not PANDAS_31, reason="pandas 3.0 keeps every float32 mean float32")
@pytest.mark.parametrize(
    ("values", "keys"),
    [
        ([2.5, 0.5], None),  # grouped by themselves: rows out of group order
        ([2.5, 0.5, 1.25], [1, 1, 2]),  # rows in group order: pandas' float64 fast path
        ([2.5, 0.5, 1.25], [2, 1, 2]),
        ([2.5, np.nan, 1.25], [1, 1, 2]),  # a NaN value: the float32 path
        ([2.5], [np.nan]),  # no row left
    ],
)
def test_groupby_mean_of_float32_takes_pandas_result_type(values, keys):
    s = pd.Series(values, dtype="float32")
    by = s if keys is None else pd.Series(keys)
    got = em.from_pandas(s).groupby(em.from_pandas(by)).mean()
    assert_eq(got, s.groupby(by).mean())


@pytest.mark.parametrize(
    "s",
    [
        pd.Series([], dtype=object),
        pd.Series(["x"], dtype=object),
        pd.Series(["x", "b"], dtype=object),
        pd.Series(["x"], dtype="str"),
    ],
    ids=["empty-object", "object", "object-match", "str"],
)
@pytest.mark.parametrize(
    "mapping",
    [{"b": 0, "c": 1}, {"b": "x"}, {"b": 1.5}, {}, {"b": True}, {"b": pd.Timestamp("2020")}],
    ids=repr,
)
def test_map_dict_result_type_as_pandas(s, mapping):
    # no rows of object data take the values' dtype; unmatched bools over objects stay object
    if not PANDAS_31 and s.dtype != object and mapping == {"b": True}:
        pytest.skip("pandas 3.0 gives str data's unmatched bools another dtype")
    assert_eq(em.from_pandas(s).map(mapping), s.map(mapping))


@pytest.mark.parametrize("op", ["min", "max"])
@pytest.mark.parametrize("rows", [[], [None], ["x"]])
def test_frame_min_max_of_string_columns_take_their_common_dtype(op, rows):
    # pandas' row across 'string' and str columns is 'string' (<NA> for a missing result)
    df = pd.DataFrame({"b": pd.Series(rows, dtype="string"), "a": pd.Series(rows, dtype="str")})
    assert_eq(getattr(em.from_pandas(df), op)(), getattr(df, op)())
    mixed = df.assign(e=pd.Series(rows, dtype=object))
    if not rows or rows == [None]:  # NaN beside <NA> in one object Series: refused
        with pytest.raises(NotImplementedError):
            getattr(em.from_pandas(mixed), op)()
    else:
        assert_eq(getattr(em.from_pandas(mixed), op)(), getattr(mixed, op)())


@pytest.mark.parametrize("dtype", ["int64", "int32", "str"])
@pytest.mark.parametrize("how", ["outer", "right", "left", "inner"])
@pytest.mark.parametrize("sort", [False, True])
@pytest.mark.parametrize("empty_left", [True, False])
def test_index_join_beside_an_empty_frame_orders_repeated_labels_as_pandas(dtype, how, sort, empty_left):
    labels = [3, 0, 2, 2, 0] if dtype != "str" else ["c", "a", "b", "b", "a"]
    full = pd.DataFrame({"d": [5, 0, 2, 0, -1]}, index=pd.Index(labels, dtype=dtype, name="idx"))
    empty = pd.DataFrame({"a": pd.Series([], dtype="float64")})
    a, b = (empty, full) if empty_left else (full, empty)
    want = a.join(b, how=how, sort=sort)
    assert_eq(em.from_pandas(a).join(em.from_pandas(b), how=how, sort=sort), want)


@pytest.mark.parametrize(
    "values", [["B", "10"], ["B", "B", None], ["B", None, None], [None, None], [True, None, True]], ids=repr
)
@pytest.mark.parametrize("dropna", [True, False])
def test_mode_of_object_data_stays_object(values, dropna):
    s = pd.Series(values, dtype=object)
    assert_eq(em.from_pandas(s).mode(dropna=dropna), s.mode(dropna=dropna))


@pytest.mark.parametrize(
    "s",
    [
        pd.Series(pd.to_datetime(["2020-01-01 01:00:00.5", None]).tz_localize("Europe/Berlin")),
        pd.Series(pd.to_timedelta(["1s", "1.5s"])),
        pd.Series([1.0, 2.5, None]),
        pd.Series(["a", None]),
    ],
    ids=["datetime", "timedelta", "float", "str"],
)
@pytest.mark.parametrize("target", ["string", "str"])
def test_categorical_to_strings_formats_each_category_as_pandas(s, target):
    # pandas formats a category as its Python object: str(Timestamp) keeps six fraction digits
    c = s.astype("category")
    assert_eq(em.from_pandas(c).astype(target), c.astype(target))


@pytest.mark.parametrize("how", ["left", "inner", "outer"])
@pytest.mark.parametrize("suffixes", [("_l", ""), ("_l", "_r"), ("", "_r")])
@pytest.mark.parametrize("right_has_key", [True, False])
@pytest.mark.parametrize("key_dtype", ["float64", "int64"])
def test_merge_of_a_column_key_with_an_index_key_keeps_the_other_sides_column(
    how, suffixes, right_has_key, key_dtype
):
    # pandas fills a result column named like the key only on rows a side lacks: where a suffix
    # renamed the key, that column is the other side's, kept as it is
    left = pd.DataFrame({"k": pd.Series([1, 3], dtype=key_dtype), "x": [5, 6]})
    right = pd.DataFrame(
        {"k": [0.0, 7.0], "c_o": [1, 2]} if right_has_key else {"c_o": [1, 2]}, index=[1.0, 9.0]
    )
    want = left.merge(right, how=how, left_on="k", right_index=True, suffixes=suffixes)
    got = em.from_pandas(left).merge(
        em.from_pandas(right), how=how, left_on="k", right_index=True, suffixes=suffixes
    )
    assert_eq(got, want)
    want = (
        left.join(right, on="k", how=how, lsuffix=suffixes[0], rsuffix=suffixes[1])
        if suffixes[0] or suffixes[1]
        else None
    )
    if want is not None:
        got = em.from_pandas(left).join(
            em.from_pandas(right), on="k", how=how, lsuffix=suffixes[0], rsuffix=suffixes[1]
        )
        assert_eq(got, want)


@pytest.mark.parametrize(
    "keys, values", [([np.nan], ["ab"]), ([np.nan], [None]), ([], []), ([1, 1], ["b", "a"])]
)
@pytest.mark.parametrize("op", ["min", "max", "first"])
def test_groupby_min_max_of_object_strings_without_groups_infers_str(keys, values, op):
    df = pd.DataFrame({"k": pd.Series(keys, dtype="float64"), "a": pd.Series(values, dtype=object)})
    assert_eq(getattr(em.from_pandas(df).groupby("k")["a"], op)(), getattr(df.groupby("k")["a"], op)())


@pytest.mark.parametrize(
    "values", [[], ["a"], ["a", "b"], [np.nan, np.nan], [None, None], ["a", np.nan, np.nan]], ids=repr
)
@pytest.mark.parametrize("periods", [1, -1, 5])
def test_diff_of_object_data_as_pandas(values, periods):
    # pandas subtracts the objects pairwise: no pair gives NaN objects, a string or None in one fails
    s = pd.Series(values, dtype=object)
    try:
        want = s.diff(periods)
    except TypeError:
        with pytest.raises(TypeError):
            em.from_pandas(s).diff(periods)
        return
    assert_eq(em.from_pandas(s).diff(periods), want)


@pytest.mark.parametrize("missing", [pd.NaT, None, np.nan, pd.NA], ids=repr)
@pytest.mark.parametrize("op", ["eq", "ne", "lt", "ge"])
@pytest.mark.parametrize("scalar", ["a", 1, 2.5, pd.Timestamp("2020")], ids=repr)
def test_object_column_of_one_missing_value_compares_as_pandas(missing, op, scalar):
    # an object column of NaT (a datetime column cast to object) holds them as object missing values
    s = pd.Series([missing, missing], dtype=object)
    got = em.from_pandas(s)
    assert_eq(got, s)
    assert_eq(getattr(got, op)(scalar), getattr(s, op)(scalar))


@pytest.mark.parametrize(
    "values",
    [[None], [np.nan], [pd.NA], [True, None], [None, None], ["a", None], [], [True, np.nan]],
    ids=repr,
)
@pytest.mark.parametrize("op", ["max", "min", "sum", "prod"])
@pytest.mark.parametrize("skipna", [True, False])
@pytest.mark.skipif(not PANDAS_31, reason="pandas 3.0 raises comparing an object block's missing values")
def test_frame_reductions_of_object_columns_null_out_as_pandas(values, op, skipna):
    # pandas nulls out an object block's missing min / max with None
    df = pd.DataFrame({"e": pd.Series(values, dtype=object)})
    try:
        want = getattr(df, op)(skipna=skipna)
    except TypeError:
        with pytest.raises((TypeError, NotImplementedError)):
            getattr(em.from_pandas(df), op)(skipna=skipna)
        return
    try:
        got = getattr(em.from_pandas(df), op)(skipna=skipna)
    except NotImplementedError:
        return
    mine, theirs = got.to_pandas().iloc[0], want.iloc[0]
    if pd.isna(theirs):
        assert type(mine) is type(theirs) or (isinstance(mine, float) and isinstance(theirs, float))
    else:
        assert mine == theirs


@pytest.mark.parametrize(
    "other", [pd.Series([None], dtype="str"), pd.Series([None], dtype=object), pd.Series(["x"], dtype=object)]
)
@pytest.mark.parametrize("skipna", [True, False])
def test_frame_sum_of_strings_beside_numbers_is_refused(other, skipna):
    # pandas' result is an object Series, each column keeping its own type
    df = pd.DataFrame({"a": [7], "b": other})
    assert df.sum(skipna=skipna).dtype == object
    with pytest.raises(NotImplementedError):
        em.from_pandas(df).sum(skipna=skipna)


@pytest.mark.parametrize(
    "s",
    [
        pd.Series(pd.Categorical(["both"], categories=["left_only", "right_only", "both"])),
        pd.Series(pd.Categorical(["a", "b", None, "a"], categories=["a", "b", "c"])),
        pd.Series(pd.Categorical(["a", "b"], categories=["a", "b"])),
    ],
    ids=["unused-categories", "missing", "plain"],
)
@pytest.mark.parametrize(
    "mapping",
    [{"both": 0, "right_only": 7}, {"a": 1, "b": 1}, {"a": "x", "b": "y", "c": "z"}, {"a": 1.5}],
    ids=repr,
)
def test_categorical_map_takes_the_mapped_categories_by_code(s, mapping):
    # pandas maps every category, unused ones too: one unmapped makes the result float64
    assert_eq(em.from_pandas(s).map(mapping), s.map(mapping))


@pytest.mark.parametrize("values", [[None], ["a", None], [pd.NA, "b"]], ids=repr)
def test_where_replacing_nothing_keeps_an_object_columns_missing_value(values):
    s = pd.Series(values, dtype=object)
    cond = [True] * len(values)
    assert_eq(em.from_pandas(s).where(cond), s.where(cond))
    assert [repr(v) for v in em.from_pandas(s).where(cond).to_pandas()] == [repr(v) for v in s.where(cond)]


def test_groupby_as_index_false_with_integer_column_keys_is_refused():
    # pandas inserts such key columns by position, under the wrong labels
    df = pd.DataFrame({0: pd.Series([5, 6], dtype="uint64"), 1: [1, 2], 2: [1.5, 2.5]})
    with pytest.raises(NotImplementedError):
        em.from_pandas(df).groupby([1, 0], as_index=False).sum()
    assert_eq(em.from_pandas(df).groupby([1, 0]).sum(), df.groupby([1, 0]).sum())


@pytest.mark.parametrize("missing", [pd.NA, None, np.nan], ids=repr)
@pytest.mark.parametrize(
    "op",
    [lambda x: x * 3, lambda x: x + "x", lambda x: "x" + x, lambda x: x + x, lambda x: x.str.split(" ")],
    ids=["mul", "add", "radd", "self", "split"],
)
def test_object_string_results_keep_pandas_missing_value(missing, op):
    # NA * 3 and NA + 'x' are NA; a split of NaN is NaN (None + 'x' fails: NaN then)
    s = pd.Series(["a b", missing], dtype=object)
    got = op(em.from_pandas(s)).to_pandas()
    assert [repr(v) for v in got] == [repr(v) for v in op(s)]


def test_alignment_of_tz_naive_beside_tz_aware_labels_raises_even_without_rows():
    a = pd.Series([], dtype="float64", index=pd.DatetimeIndex([], tz="Europe/Berlin"))
    b = pd.Series([], dtype="float64", index=pd.DatetimeIndex([]))
    for x, y in ((a, b), (b, a)):
        with pytest.raises(TypeError, match="tz-naive"):
            x.mod(y, fill_value=1)
        with pytest.raises(TypeError, match="tz-naive"):
            em.from_pandas(x).mod(em.from_pandas(y), fill_value=1)


@pytest.mark.parametrize("ids", [[], ["x", None], [None], [np.nan]], ids=repr)
def test_melt_keeps_an_object_id_column_without_strings_object(ids):
    df = pd.DataFrame({"b": pd.Series(ids, dtype=object), "d": pd.Series([1.0] * len(ids), dtype="float32")})
    assert_eq(em.from_pandas(df).melt(id_vars=["b"]), df.melt(id_vars=["b"]))


@pytest.mark.parametrize("values", [[""], ["ab", ""], [None], [np.nan, ""], ["abc"], []], ids=repr)
def test_str_get_of_object_data_infers_as_pandas(values):
    # a result of NaN only (no character at that position) is float64
    s = pd.Series(values, dtype=object)
    assert_eq(em.from_pandas(s).str.get(-1), s.str.get(-1))


@pytest.mark.parametrize("method", ["isalpha", "upper", "len"])
def test_str_accessor_over_object_data_without_rows(method):
    # pandas allows .str on an object Series without rows, whatever made it object
    s = pd.Series([], dtype="int8").duplicated().shift(1)
    assert s.dtype == object
    e = em.from_pandas(pd.DataFrame({"e": pd.Series([], dtype="int8")})).duplicated().shift(1)
    assert_eq(getattr(e.str, method)(), getattr(s.str, method)())


def test_pct_change_of_object_data_without_rows():
    s = pd.Series([], dtype=object, index=pd.RangeIndex(0, 0, name="idx"))
    assert_eq(em.from_pandas(s).pct_change(1), s.pct_change(1))


VALUE_COUNT_FRAMES = [
    pd.DataFrame(
        {
            "b": pd.Series([None, None, "x"], dtype="string"),
            "d": pd.Series([0.001, np.nan, 2.0], dtype="float32"),
        }
    ),
    pd.DataFrame({"b": pd.Series([None, "x", None], dtype="str"), "d": pd.Series([1, 2, 1], dtype="Int64")}),
]


@pytest.mark.parametrize("df", VALUE_COUNT_FRAMES, ids=["string-float32", "str-Int64"])
@pytest.mark.parametrize("ascending", [True, False])
@pytest.mark.parametrize("na_position", ["first", "last"])
def test_sort_index_of_missing_keys_held_as_level_values(df, ascending, na_position):
    # value_counts / groupby(dropna=False) hold a missing key as a level value: pandas sorts by the
    # codes into the levels, whatever na_position says
    want = df.value_counts(dropna=False)
    got = em.from_pandas(df).value_counts(dropna=False)
    assert_eq(got, want)
    assert_eq(
        got.sort_index(ascending=ascending, na_position=na_position),
        want.sort_index(ascending=ascending, na_position=na_position),
    )
    grouped = df.assign(v=1.0).groupby(["b", "d"], dropna=False).sum()
    mine = em.from_pandas(df.assign(v=1.0)).groupby(["b", "d"], dropna=False).sum()
    assert_eq(
        mine.sort_index(ascending=ascending, na_position=na_position),
        grouped.sort_index(ascending=ascending, na_position=na_position),
    )


@pytest.mark.parametrize("name", ["nm", None, 3])
@pytest.mark.parametrize("pat", [r"(\d)", r"(?P<g>\d)", r"([a-z])(\d)"])
@pytest.mark.parametrize("expand", [False, True])
def test_str_extract_names_an_unnamed_group_after_the_series(name, pat, expand):
    s = pd.Series(["a1", "b2", None], name=name)
    assert_eq(em.from_pandas(s).str.extract(pat, expand=expand), s.str.extract(pat, expand=expand))


@pytest.mark.parametrize("as_index", [True, False])
def test_frame_groupby_min_of_object_strings_without_groups_stays_object(as_index):
    # only a SeriesGroupBy's min / max infer str; a frame's keep the object column
    df = pd.DataFrame(
        {
            "c": pd.Series([""], dtype=object),
            "d": pd.Series([10], dtype="UInt8"),
            "a": pd.Series([None], dtype="datetime64[ns]"),
        }
    )
    assert_eq(
        em.from_pandas(df).groupby(["d", "a"], as_index=as_index).min(),
        df.groupby(["d", "a"], as_index=as_index).min(),
    )
    assert_eq(em.from_pandas(df).groupby(["d", "a"])["c"].max(), df.groupby(["d", "a"])["c"].max())


@pytest.mark.parametrize(
    "s",
    [
        pd.Series([1, 2], dtype="Int32"),
        pd.Series([], dtype="Int32"),
        pd.Series(["a", "b"]),
        pd.Series([1.5, 2.5], dtype="float32"),
    ],
    ids=["Int32", "empty", "str", "float32"],
)
@pytest.mark.parametrize("mapping", [{1: 10}, {"a": "A"}, {1.5: 3}, {}], ids=repr)
def test_rename_categories_with_a_dict_infers_the_categories_as_pandas(s, mapping):
    # pandas builds the new categories from a Python list: their dtype is inferred anew
    c = s.astype("category")
    assert_eq(em.from_pandas(c).cat.rename_categories(mapping), c.cat.rename_categories(mapping))


def test_right_join_on_a_key_no_left_row_matches_takes_the_right_keys():
    # pandas takes the other side's keys as they are (a categorical index's dtype too)
    df = pd.DataFrame({"b": pd.Series(["ab"], dtype="object")}, index=pd.RangeIndex(15, 16))
    empty = pd.DataFrame({"a": pd.Series([], dtype="datetime64[s]"), "b": pd.Series([], dtype="object")})
    other = pd.DataFrame({"a_o": [100.0]}, index=pd.Index(["ç"], dtype="category"))
    left = df.merge(empty, how="left", on="b", indicator=True)
    mine = em.from_pandas(df).merge(em.from_pandas(empty), how="left", on="b", indicator=True)
    want = left.join(other, on="_merge", how="right", lsuffix="_l")
    assert_eq(mine.join(em.from_pandas(other), on="_merge", how="right", lsuffix="_l"), want)


@pytest.mark.parametrize("dtype", ["float64", "Float64", "float32"])
def test_groupby_cumsum_after_an_infinity_is_nan_as_pandas(dtype):
    # pandas' compensated running sum turns NaN after an infinity of the group (inf - inf)
    s = pd.Series([1.0, np.inf, -1.0, np.nan, 2.0, -np.inf, 3.0], dtype=dtype)
    keys = pd.Series([1, 1, 1, 1, 1, 2, 2])
    assert_eq(em.from_pandas(s).groupby(em.from_pandas(keys)).cumsum(), s.groupby(keys).cumsum())
    df = pd.DataFrame({"v": s, "k": keys})
    assert_eq(em.from_pandas(df).groupby("k").cumsum(), df.groupby("k").cumsum())


@pytest.mark.parametrize("periods", [1, -1, 2])
def test_diff_of_masked_floats_holding_nan_values(periods):
    # pandas' masked arithmetic makes a NaN result missing
    values = np.array([np.nan, 3.0, np.inf, np.inf])
    s = pd.Series(pd.arrays.FloatingArray(values, np.zeros(4, dtype=bool)))
    assert_eq(em.from_pandas(s).diff(periods), s.diff(periods))


@pytest.mark.parametrize("missing", [pd.NaT, None, np.nan, pd.NA], ids=repr)
@pytest.mark.parametrize("with_string", [False, True])
@pytest.mark.parametrize(
    "op",
    [
        lambda x: x * 2,
        lambda x: 2 * x,
        lambda x: x + 1,
        lambda x: x / 2,
        lambda x: x * True,
        lambda x: x + "a",
    ],
    ids=["mul", "rmul", "add", "div", "mul-bool", "add-str"],
)
def test_object_arithmetic_leaves_pandas_missing_object(missing, with_string, op):
    # Python's operator on the missing object itself where it works (NaT * 2 is NaT), else NaN
    s = pd.Series(["ab", missing] if with_string else [missing, missing], dtype=object)
    try:
        want = [repr(v) for v in op(s)]
    except TypeError:
        with pytest.raises((TypeError, NotImplementedError)):
            op(em.from_pandas(s))
        return
    try:
        got = op(em.from_pandas(s))
    except NotImplementedError:
        return
    assert [repr(v) for v in got.to_pandas()] == want


@pytest.mark.parametrize("start", ["2021-03-01", "2021-03-01 05:00", "2021-02-28 23:30"])
@pytest.mark.parametrize("rule", ["D", "2D", "24h", "48h", "12h"])
@pytest.mark.parametrize("closed", ["left", "right"])
def test_resample_of_utc_times_by_days(start, rule, closed):
    # pandas bins a tz-aware index by calendar days for 'D' rules: only 'D' closed on the left
    # matches 24-hour steps; the others are refused rather than binned otherwise
    s = pd.Series(np.arange(7.0), index=pd.date_range(start, periods=7, freq="9h", tz="UTC"))
    want = s.resample(rule, closed=closed).sum()
    try:
        got = em.from_pandas(s).resample(rule, closed=closed).sum()
    except NotImplementedError:
        assert rule in ("D", "2D") and not (rule == "D" and closed == "left")
        return
    assert_eq(got, want, check_freq=False)


@pytest.mark.parametrize(
    "values", [[np.nan, True], [True, np.nan, False], [None, True, False], [True, False]], ids=repr
)
@pytest.mark.parametrize("sort", [True, False])
def test_groupby_dropna_false_of_object_bools_with_missing_keys(values, sort):
    # pandas sorts such keys by Python comparisons with NaN (no order): refused; unsorted, as pandas
    df = pd.DataFrame({"a": pd.Series(values, dtype=object), "v": range(len(values))})
    want = df.groupby("a", dropna=False, sort=sort).size()
    if sort and None in values or (sort and any(v != v for v in values if isinstance(v, float))):
        with pytest.raises(NotImplementedError):
            em.from_pandas(df).groupby("a", dropna=False, sort=sort).size()
        return
    assert_eq(em.from_pandas(df).groupby("a", dropna=False, sort=sort).size(), want)


@pytest.mark.parametrize("op", ["max", "min"])
@pytest.mark.parametrize("skipna", [True, False])
def test_frame_min_max_beside_an_object_column_of_missing_bools(op, skipna):
    if not PANDAS_31 and not skipna:
        pytest.skip("pandas 3.0 raises comparing the object block's missing values")
    # pandas' row across a bool column and an all-missing object one: object, None for the latter
    df = pd.DataFrame({"b": [True, False]}, index=pd.RangeIndex(2, 4))
    other = pd.Series([], dtype="bool", index=pd.Index([], dtype="int64"))
    want = getattr(df.assign(w=other), op)(skipna=skipna)
    got = getattr(em.from_pandas(df).assign(w=em.from_pandas(other)), op)(skipna=skipna)
    assert_eq(got, want)
    assert [repr(v) for v in got.to_pandas()][1] == "None"


def test_frame_reduction_labels_keep_the_column_axis_type():
    # an object axis of strings stays object; one of numbers held as objects is refused
    df = pd.DataFrame({"index": [1, 2], 0: [1.5, 2.5]})
    assert_eq(em.from_pandas(df)[["index"]].sum(), df[["index"]].sum())
    with pytest.raises(NotImplementedError):
        em.from_pandas(df)[[0]].sum()
