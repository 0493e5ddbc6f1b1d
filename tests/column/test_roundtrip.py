"""Columns round-trip pandas, Arrow and NumPy for every dtype family, and row selection (take,
take_nullable, filter, slice, concat) matches what pandas does to the same Series.

Expected values come from pandas / pyarrow on the same input; hypothesis draws the inputs (with nulls,
NaN, non-ASCII strings, empty and one-row Series) from ember.testing.strategies.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ember.column import (
    CategoricalColumn,
    Column,
    DatetimeColumn,
    NumericColumn,
    StringColumn,
    TimedeltaColumn,
    concat_columns,
    from_arrow,
    from_numpy,
    from_pandas,
)
from ember.testing import assert_eq
from ember.testing import strategies as est

SETTINGS = settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
ALL = est.ALL_DTYPES + ("Int16", "UInt64", "Float32", "datetime64[s, Asia/Kolkata]", "timedelta64[s]")
NUMPY_DTYPES = (
    *est.INT_DTYPES,
    *est.FLOAT_DTYPES,
    "bool",
    *est.DATETIME_DTYPES,
    *est.TIMEDELTA_DTYPES,
)

FAMILY = {
    "int": NumericColumn,
    "uint": NumericColumn,
    "float": NumericColumn,
    "bool": NumericColumn,
    "Int": NumericColumn,
    "UInt": NumericColumn,
    "Float": NumericColumn,
    "boolean": NumericColumn,
    "str": StringColumn,
    "string": StringColumn,
    "object": StringColumn,
    "datetime64": DatetimeColumn,
    "timedelta64": TimedeltaColumn,
    "category": CategoricalColumn,
}


def family(dtype: str) -> type:
    for prefix in sorted(FAMILY, key=len, reverse=True):
        if dtype.startswith(prefix):
            return FAMILY[prefix]
    raise KeyError(dtype)


def on_host(col: Column) -> Column:
    return col.to(np)


def arrow_values(s: pd.Series) -> list[Any]:
    """pyarrow's own reading of the Series (NaN -> null as from_pandas does)."""
    return pa.array(s, from_pandas=True).to_pylist()


# --- pandas ------------------------------------------------------------------------------------


@SETTINGS
@given(data=st.data())
@pytest.mark.parametrize("dtype", ALL)
def test_pandas_round_trip(dtype: str, data: Any, xp: Any) -> None:
    s = data.draw(est.series_strategy(dtype, name="x"))
    col = from_pandas(s, xp)
    assert isinstance(col, family(dtype))
    assert col.xp is xp and len(col) == len(s)
    assert col.dtype == s.dtype
    assert_eq(col.to_pandas(name="x"), s)
    assert_eq(pd.Series(col.isna()) if xp is np else pd.Series(col.isna().get()), s.isna(), check_names=False)


@pytest.mark.parametrize(
    "s",
    [
        pd.Series([1, None, 3], dtype="Int64"),
        pd.Series([None, None], dtype="Int8"),
        pd.Series([True, None, False], dtype="boolean"),
        pd.Series([1.5, None], dtype="Float64"),
        pd.Series([pd.NA, "b"], dtype="string"),
        pd.Series([pd.NA, "b"], dtype="string[python]"),
        pd.Series(["a", None, "日本語", "ç", ""], dtype="str"),
        pd.Series(["a", np.nan, "🎉"], dtype=object),
        pd.Series([], dtype=object),
        pd.Series([], dtype="str"),
        pd.Series([], dtype="category"),
        pd.Series(["x", None, "y", "x"], dtype="category"),
        pd.Series(pd.Categorical(["x", None], categories=["z", "y", "x"], ordered=True)),
        pd.Series(pd.Categorical([3, None, 1], categories=[1, 2, 3])),
        pd.Series(pd.Categorical(pd.to_datetime(["2020-01-01", None]))),
        pd.Series([np.nan, 1.0, np.inf, -0.0]),
        pd.Series([np.nan], dtype="float32"),
        pd.Series(np.array([np.iinfo(np.int64).min, np.iinfo(np.int64).max])),
        pd.Series(np.array([0, np.iinfo(np.uint64).max], dtype=np.uint64)),
        pd.Series([7], dtype="int16"),
    ],
    ids=repr,
)
def test_pandas_round_trip_cases(s: pd.Series, xp: Any) -> None:
    col = from_pandas(s, xp)
    assert col.dtype == s.dtype
    assert_eq(col.to_pandas(), s)


@pytest.mark.parametrize("unit", ["s", "ms", "us", "ns"])
@pytest.mark.parametrize("tz", [None, "UTC", "America/New_York"])
def test_datetime_units_and_time_zones(unit: str, tz: str | None, xp: Any) -> None:
    idx = pd.to_datetime(["1969-07-20 20:17:40", None, "2024-02-29 12:00:00.123"], format="ISO8601")
    idx = idx.as_unit(unit)
    s = pd.Series(idx if tz is None else idx.tz_localize(tz))
    col = from_pandas(s, xp)
    assert isinstance(col, DatetimeColumn) and col.unit == unit
    assert_eq(col.to_pandas(), s)
    assert col.to_arrow().type == pa.timestamp(unit, tz=tz)
    assert col.to_arrow().to_pylist() == arrow_values(s)


@pytest.mark.parametrize("unit", ["s", "ms", "us", "ns"])
def test_timedelta_units(unit: str, xp: Any) -> None:
    s = pd.Series(pd.to_timedelta(["1 day", None, "-3s"]).as_unit(unit))
    col = from_pandas(s, xp)
    assert isinstance(col, TimedeltaColumn) and col.unit == unit
    assert_eq(col.to_pandas(), s)
    assert col.to_arrow().type == pa.duration(unit)


def test_nan_versus_null_in_float64(xp: Any) -> None:
    """A NaN stored in a Float64 column is a value, not a missing one (pandas keeps the two apart)."""
    arr = pd.arrays.FloatingArray(np.array([np.nan, 1.0, 2.0]), np.array([False, False, True]))
    s = pd.Series(arr)
    col = from_pandas(s, xp)
    assert_eq(col.to_pandas(), s)
    assert on_host(col).isna().tolist() == s.isna().tolist() == [False, False, True]
    no_nulls = pd.Series(pd.arrays.FloatingArray(np.array([np.nan, 1.0]), np.array([False, False])))
    assert_eq(from_pandas(no_nulls, xp).to_pandas(), no_nulls)


def test_nan_is_missing_in_numpy_floats(xp: Any) -> None:
    s = pd.Series([np.nan, 1.0])
    col = from_pandas(s, xp)
    assert col.mask is None
    assert on_host(col).isna().tolist() == [True, False]
    assert col.to_arrow().to_pylist() == [None, 1.0]


def test_mixed_objects_raise_naming_the_column(xp: Any) -> None:
    # pandas keeps these in an object column ember cannot hold: NotImplementedError, never TypeError
    with pytest.raises(NotImplementedError, match="'mixed_col'.*mixed"):
        from_pandas(pd.Series([1, "a", None], name="mixed_col", dtype=object), xp)
    with pytest.raises(NotImplementedError, match="'arr'"):
        from_numpy(np.array([1.5, "a"], dtype=object), xp, name="arr")
    with pytest.raises(NotImplementedError, match="'objs'"):
        from_numpy(np.array([object(), object()], dtype=object), xp, name="objs")


def test_unsupported_extension_dtype_names_the_column(xp: Any) -> None:
    s = pd.Series(pd.arrays.IntervalArray.from_breaks([0, 1, 2]), name="iv")
    with pytest.raises(NotImplementedError, match="'iv'"):
        from_pandas(s, xp)


# --- Arrow -------------------------------------------------------------------------------------


@SETTINGS
@given(data=st.data())
@pytest.mark.parametrize("dtype", ALL)
def test_to_arrow_matches_pyarrow(dtype: str, data: Any, xp: Any) -> None:
    s = data.draw(est.series_strategy(dtype))
    arr = from_pandas(s, xp).to_arrow()
    arr.validate(full=True)
    assert len(arr) == len(s)
    assert arr.to_pylist() == arrow_values(s)
    assert arr.null_count == int(s.isna().sum())


@SETTINGS
@given(data=st.data())
@pytest.mark.parametrize("dtype", ALL)
def test_arrow_round_trip(dtype: str, data: Any, xp: Any) -> None:
    s = data.draw(est.series_strategy(dtype))
    arr = from_pandas(s, xp).to_arrow()
    back = from_arrow(arr, xp)
    assert back.xp is xp
    assert back.to_arrow().equals(arr)


def _normalise_missing(s: pd.Series) -> pd.Series:
    """pyarrow gives None in object columns where pandas (and ember) show NaN."""
    if s.dtype == object:
        s = s.copy()
        s[s.isna()] = np.nan
    return s


@SETTINGS
@given(data=st.data())
@pytest.mark.parametrize("dtype", ALL)
def test_from_arrow_matches_pyarrow_to_pandas(dtype: str, data: Any, xp: Any) -> None:
    s = data.draw(est.series_strategy(dtype))
    arr = pa.array(s, from_pandas=True)
    expected = arr.to_pandas()
    got = from_arrow(arr, xp).to_pandas()
    if isinstance(expected.dtype, pd.CategoricalDtype):
        assert_eq(got.astype(object), expected.astype(object))  # pyarrow picks its own index width
    else:
        assert_eq(_normalise_missing(got), _normalise_missing(expected))


def test_from_arrow_chunked_and_sliced(xp: Any) -> None:
    chunked = pa.chunked_array([pa.array(["a", None]), pa.array(["日本", "d"])])
    assert_eq(from_arrow(chunked, xp).to_pandas(), pd.Series(["a", None, "日本", "d"]))
    sliced = pa.array(["x", "yy", None, "zzz"]).slice(1, 2)
    assert_eq(from_arrow(sliced, xp).to_pandas(), pd.Series(["yy", None]))
    ints = pa.array([1, None, 3, 4], type=pa.int16()).slice(1)
    assert from_arrow(ints, xp).to_arrow().to_pylist() == [None, 3, 4]


def test_from_arrow_dates_and_null_type(xp: Any) -> None:
    from ember.column.convert import arrow_dates_as_datetime64

    for dates in (
        pa.array([0, None, 19000], type=pa.date32()),
        pa.array([0, None, 19000 * 86_400_000], pa.date64()),
    ):
        with pytest.raises(NotImplementedError, match="datetime.date objects"):
            from_arrow(dates, xp)  # pandas: datetime.date objects, which ember columns do not hold
        with arrow_dates_as_datetime64():
            col = from_arrow(dates, xp)
        assert isinstance(col, DatetimeColumn)
        want = pa.table({"d": dates}).to_pandas(date_as_object=False)["d"].rename(None)
        assert_eq(col.to_pandas(), want)
    nulls = from_arrow(pa.nulls(3), xp)
    assert on_host(nulls).isna().tolist() == [True, True, True]


# --- NumPy -------------------------------------------------------------------------------------


@SETTINGS
@given(data=st.data())
@pytest.mark.parametrize("dtype", NUMPY_DTYPES)
def test_numpy_round_trip(dtype: str, data: Any, xp: Any) -> None:
    s = data.draw(est.series_strategy(dtype))
    a = s.to_numpy()
    assert_eq(from_numpy(a, xp).to_pandas(), pd.Series(a))


@pytest.mark.parametrize(
    "a",
    [
        np.array(["a", np.nan, "é"], dtype=object),
        np.array(["a", "日本"]),
        np.array([], dtype=object),
        np.array([np.nan, np.nan], dtype=object),
        np.array([1, 2], dtype=np.uint8),
        np.array(["2020-01-01", "NaT"], dtype="datetime64[ms]"),
        np.array([1, -1], dtype="timedelta64[s]"),
    ],
    ids=repr,
)
def test_numpy_cases(a: np.ndarray, xp: Any) -> None:
    assert_eq(from_numpy(a, xp).to_pandas(), pd.Series(a))


def test_numpy_2d_raises(xp: Any) -> None:
    with pytest.raises(ValueError, match="1-D"):
        from_numpy(np.zeros((2, 2)), xp, name="m")


# --- row selection -----------------------------------------------------------------------------


def _series_and_indices(dtype: str, nullable: bool = False) -> st.SearchStrategy:
    def with_indices(s: pd.Series) -> st.SearchStrategy:
        lo = -1 if nullable else 0
        if len(s) == 0:
            idx = st.lists(st.just(-1), max_size=3) if nullable else st.just([])
        else:
            idx = st.lists(st.integers(lo, len(s) - 1), max_size=25)
        return st.tuples(st.just(s), idx)

    return est.series_strategy(dtype).flatmap(with_indices)


@SETTINGS
@given(data=st.data())
@pytest.mark.parametrize("dtype", ALL)
def test_take(dtype: str, data: Any, xp: Any) -> None:
    s, idx = data.draw(_series_and_indices(dtype))
    got = from_pandas(s, xp).take(xp.asarray(np.array(idx, dtype=np.int64)))
    assert_eq(got.to_pandas(), s.take(idx).reset_index(drop=True))


@SETTINGS
@given(data=st.data())
@pytest.mark.parametrize("dtype", ALL)
def test_take_nullable_matches_reindex(dtype: str, data: Any, xp: Any) -> None:
    """-1 gives a missing value, stored as pandas stores the result of a reindex that introduced one.

    take_nullable always stores its result that way (ints become float64 ...), even when no index is
    -1; callers that know there is none call take instead, so the expectation appends one -1.
    """
    s, idx = data.draw(_series_and_indices(dtype, nullable=True))
    got = from_pandas(s, xp).take_nullable(xp.asarray(np.array(idx, dtype=np.int64)))
    expected = s.reindex([*idx, -1]).iloc[:-1].reset_index(drop=True)
    assert_eq(got.to_pandas(), expected)


@SETTINGS
@given(data=st.data())
@pytest.mark.parametrize("dtype", ALL)
def test_filter(dtype: str, data: Any, xp: Any) -> None:
    s = data.draw(est.series_strategy(dtype))
    keep = np.array(data.draw(st.lists(st.booleans(), min_size=len(s), max_size=len(s))), dtype=bool)
    got = from_pandas(s, xp).filter(xp.asarray(keep))
    assert_eq(got.to_pandas(), s[keep].reset_index(drop=True))


@SETTINGS
@given(data=st.data())
@pytest.mark.parametrize("dtype", ALL)
def test_slice(dtype: str, data: Any, xp: Any) -> None:
    s = data.draw(est.series_strategy(dtype))
    n = len(s)
    start = data.draw(st.integers(0, n))
    stop = data.draw(st.integers(start, n))
    step = data.draw(st.sampled_from([1, 1, 2, 3]))
    got = from_pandas(s, xp).slice(start, stop, step)
    assert_eq(got.to_pandas(), s.iloc[start:stop:step].reset_index(drop=True))


@SETTINGS
@given(data=st.data())
@pytest.mark.parametrize("dtype", ALL)
def test_concat_same_dtype(dtype: str, data: Any, xp: Any) -> None:
    parts = data.draw(st.lists(est.series_strategy(dtype, max_size=8), min_size=1, max_size=4))
    got = concat_columns([from_pandas(p, xp) for p in parts])
    assert_eq(got.to_pandas(), pd.concat(parts, ignore_index=True))


@pytest.mark.parametrize(
    ("left", "right"),
    [
        (pd.Series([1, 2], dtype="int8"), pd.Series([3.5], dtype="float32")),
        (pd.Series([1, 2], dtype="int64"), pd.Series([3, None], dtype="Int64")),
        (pd.Series([1, None], dtype="Int32"), pd.Series([3], dtype="Int64")),
        (pd.Series(["a", None]), pd.Series(["日本"])),
        (pd.Series(["a", "b"], dtype="category"), pd.Series(["c", None], dtype="category")),
        (pd.Series(pd.to_datetime(["2020-01-01"])), pd.Series(pd.to_datetime([None]))),
    ],
    ids=repr,
)
def test_concat_mixed(left: pd.Series, right: pd.Series, xp: Any) -> None:
    got = concat_columns([from_pandas(left, xp), from_pandas(right, xp)])
    assert_eq(got.to_pandas(), pd.concat([left, right], ignore_index=True))


def test_concat_shared_categories_keeps_categorical(xp: Any) -> None:
    col = from_pandas(pd.Series(["a", None, "b"], dtype="category"), xp)
    got = concat_columns([col, col.slice(0, 2)])
    expected = pd.concat([col.to_pandas(), col.to_pandas().iloc[:2]], ignore_index=True)
    assert isinstance(got, CategoricalColumn)
    assert_eq(got.to_pandas(), expected)


@pytest.mark.parametrize(
    "parts",
    [
        [["a", "b"], ["b", "a"]],  # equal categories, separate objects: stays categorical
        [["x", None, "y"], ["日本", "x"], []],  # different categories: the strings, nulls kept
        [["b", "a"], ["a", "b", "c"]],
    ],
    ids=repr,
)
def test_concat_string_categoricals(parts: list, xp: Any) -> None:
    series = [pd.Series(p, dtype="category") for p in parts]
    if parts[0] == ["a", "b"]:
        series = [pd.Series(p, dtype=pd.CategoricalDtype(["a", "b"])) for p in parts]
    got = concat_columns([from_pandas(s, xp) for s in series])
    assert_eq(got.to_pandas(), pd.concat(series, ignore_index=True))


def test_concat_nothing_raises() -> None:
    with pytest.raises(ValueError, match="nothing to concatenate"):
        concat_columns([])


@pytest.mark.parametrize("dtype", ALL)
def test_empty_and_one_row(dtype: str, xp: Any) -> None:
    for n in (0, 1):
        s = est._build(
            [None] * n if est.can_hold_missing(dtype) else [est_first(dtype)] * n, dtype, None, None
        )
        col = from_pandas(s, xp)
        assert len(col) == n
        assert_eq(col.to_pandas(), s)
        assert_eq(col.take(xp.zeros(0, dtype=np.int64)).to_pandas(), s.iloc[:0].reset_index(drop=True))
        assert col.to_arrow().to_pylist() == arrow_values(s)


def est_first(dtype: str) -> Any:
    """A plain value of ``dtype`` for the dtypes that cannot hold a missing value."""
    return True if dtype == "bool" else 1
