"""The dtype a constructed column gets, against pandas: empty data, missing values in object columns,
True / False with missing values, scalars broadcast over an index, Python objects ember cannot hold
(NotImplementedError, never a TypeError or another dtype), copy=False and .values."""

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.backend import to_host
from ember.backend import xp as current_xp
from ember.frame._fallback import Unsupported
from ember.testing import assert_eq


def _both(build):
    """``build`` run on pandas and on ember (the same call, the module passed in)."""
    return build(em), build(pd)


EMPTY = {
    "series_no_args": lambda m: m.Series(),
    "series_none": lambda m: m.Series(None),
    "series_list": lambda m: m.Series([]),
    "series_tuple": lambda m: m.Series(()),
    "series_dict": lambda m: m.Series({}),
    "series_empty_index": lambda m: m.Series(index=[]),
    "series_range": lambda m: m.Series(range(0)),
    "series_int64": lambda m: m.Series(dtype="int64"),
    "series_str": lambda m: m.Series(dtype="str"),
    "series_object": lambda m: m.Series([], dtype=object),
    "series_Int64": lambda m: m.Series([], dtype="Int64"),
    "series_no_data_index": lambda m: m.Series(index=[0, 1]),
    "series_none_index_object": lambda m: m.Series(None, index=[0, 1], dtype=object),
    "frame_list": lambda m: m.DataFrame({"a": []}),
    "frame_tuple": lambda m: m.DataFrame({"a": ()}),
    "frame_range": lambda m: m.DataFrame({"a": range(0)}),
    "frame_object_array": lambda m: m.DataFrame({"a": np.array([], dtype=object)}),
}


@pytest.mark.parametrize("build", list(EMPTY.values()), ids=list(EMPTY))
def test_empty_data_gets_pandas_dtype(build):
    """pandas 3: pd.Series() / pd.Series([]) are object (a frame's empty list column is float64)."""
    got, want = _both(build)
    assert_eq(got, want)


@pytest.mark.parametrize("data", [[], (), np.array([], dtype=object), range(0)], ids=repr)
def test_empty_index_gets_pandas_dtype(data):
    got, want = em.Index(data), pd.Index(data)
    assert got.dtype == want.dtype
    assert_eq(got, want, exact="equiv")


@pytest.mark.parametrize("data", [None, 5, "a"])
def test_index_of_a_scalar_raises_type_error(data):
    with pytest.raises(TypeError):
        pd.Index(data)
    with pytest.raises(TypeError, match="collection"):
        em.Index(data)


MISSING_OBJECTS = {
    "all_none": lambda m: m.Series([None, None]),
    "all_none_array": lambda m: m.Series(np.array([None, None], dtype=object)),
    "all_na": lambda m: m.Series([pd.NA, pd.NA]),
    "all_nan_object": lambda m: m.Series([np.nan, np.nan], dtype=object),
    "strings_none_object": lambda m: m.Series(["a", None], dtype=object),
    "from_pandas_object": lambda m: m.Series(pd.Series(["a", None, "b"], dtype=object)),
    "frame_all_none": lambda m: m.DataFrame({"a": [None, None]}),
    "frame_rows_none": lambda m: m.DataFrame([[None], [None]]),
    "frame_scalar_none": lambda m: m.DataFrame({"a": None}, index=[0, 1]),
    "frame_missing_label": lambda m: m.DataFrame({"a": [1, 2]}, columns=["a", "b"]),
}


@pytest.mark.parametrize("build", list(MISSING_OBJECTS.values()), ids=list(MISSING_OBJECTS))
def test_missing_values_of_object_columns_are_pandas_own(build):
    """pandas keeps the None (or NaN, pd.NA) the data held in an object column; its asserter tells
    them apart, so compare the values too."""
    got, want = _both(build)
    assert_eq(got, want)
    if isinstance(want, pd.Series):
        assert got.tolist() == want.tolist() or [repr(v) for v in got.tolist()] == [
            repr(v) for v in want.tolist()
        ]


@pytest.mark.parametrize("values", [["a", "b"], ["a", None]], ids=["no_missing", "none"])
def test_reindex_and_take_of_an_object_column(values):
    """Rows taken keep their None; reindex introduces NaN, as pandas. (A column that held None and
    gains a NaN gives NaN for both: one missing marker per column.)"""
    ps = pd.Series(values, dtype=object)
    s = em.Series(ps)
    assert_eq(s.iloc[[1, 0]], ps.iloc[[1, 0]])
    assert_eq(s.iloc[1:], ps.iloc[1:])
    if values[1] is not None:
        assert_eq(s.reindex([0, 5]), ps.reindex([0, 5]))


BOOL_OBJECTS = {
    "true_none": lambda m: m.Series([True, None]),
    "none_true": lambda m: m.Series([None, True]),
    "true_nan": lambda m: m.Series([True, np.nan]),
    "frame": lambda m: m.DataFrame({"a": [True, None, False]}),
    "object_array": lambda m: m.Series(np.array([True, False], dtype=object)),
    "object_series": lambda m: m.Series(pd.Series([False, True], dtype=object)),
}


@pytest.mark.parametrize("build", list(BOOL_OBJECTS.values()), ids=list(BOOL_OBJECTS))
def test_booleans_with_missing_values_are_object(build):
    got, want = _both(build)
    assert_eq(got, want)
    if isinstance(want, pd.Series):
        assert got.dtype == want.dtype == object
        assert [repr(v) for v in got.tolist()] == [repr(v) for v in want.tolist()]
    else:
        assert list(got.dtypes) == list(want.dtypes)


def test_reindexed_bool_column_reports_object_as_pandas():
    ps = pd.Series([True, False])
    got, want = em.Series(ps).reindex([0, 5]), ps.reindex([0, 5])
    assert got.dtype == want.dtype
    assert_eq(got, want)


OBJECTS_EMBER_CANNOT_HOLD = {
    "int_str": lambda m: m.Series([1, "a"]),
    "timestamp_timedelta": lambda m: m.Series([pd.Timestamp("2020"), pd.Timedelta(1)]),
    "timestamp_int": lambda m: m.Series([pd.Timestamp("2020"), 1]),
    "int_na": lambda m: m.Series([1, pd.NA]),
    "ints_object_array": lambda m: m.Series(np.array([1, 2], dtype=object)),
    "floats_object_array": lambda m: m.Series(np.array([1.5, None], dtype=object)),
    "ints_dtype_object": lambda m: m.Series([1, 2], dtype=object),
    "dict_dtype_object": lambda m: m.Series({"a": 1, "b": None}, dtype=object),
    "from_pandas_ints": lambda m: m.Series(pd.Series([1, 2], dtype=object)),
    "from_pandas_timestamps": lambda m: m.Series(pd.Series([pd.Timestamp("2020")], dtype=object)),
    "frame_mixed": lambda m: m.DataFrame({"a": [1, "a", 2.5]}),
    "frame_rows_mixed": lambda m: m.DataFrame([[1], ["a"]]),
    "index_mixed": lambda m: m.Index([1, "a"]),
}


@pytest.mark.parametrize(
    "build", list(OBJECTS_EMBER_CANNOT_HOLD.values()), ids=list(OBJECTS_EMBER_CANNOT_HOLD)
)
def test_objects_pandas_keeps_in_an_object_column_are_refused(build):
    """pandas answers with an object column of Python objects: ember raises Unsupported (a
    NotImplementedError the opt-in pandas fallback catches), never a TypeError or a typed column."""
    want = build(pd)
    assert want.dtype == object if not isinstance(want, pd.DataFrame) else (want.dtypes == object).any()
    with pytest.raises(Unsupported, match="object column"):
        build(em)


def test_from_pandas_of_an_object_frame_is_refused_naming_the_column():
    pdf = pd.DataFrame({"ok": [1, 2], "mixed": pd.Series([1, "a"], dtype=object)})
    with pytest.raises(NotImplementedError, match="'mixed'.*mixed types"):
        em.from_pandas(pdf)


def test_fallback_answers_a_result_ember_cannot_hold():
    """pd.concat of a categorical and a datetime Series is an object Series in pandas: refused as
    NotImplementedError (was a TypeError), which the opt-in fallback answers with pandas' result."""
    a = pd.Series(pd.to_datetime(["2020-01-01"]).tz_localize("UTC"))
    b = pd.Series(pd.Categorical(["a"]))
    want = pd.concat([a, b], ignore_index=True)
    assert want.dtype == object
    with pytest.raises(NotImplementedError):
        em.concat([em.from_pandas(a), em.from_pandas(b)], ignore_index=True)


SCALARS = {
    "timestamp": pd.Timestamp("2020-01-02"),
    "timestamp_ns": pd.Timestamp(1),
    "timestamp_tz": pd.Timestamp("2020-01-02", tz="UTC"),
    "timedelta": pd.Timedelta(1),
    "datetime64": np.datetime64("2020-01-01"),
    "timedelta64": np.timedelta64(3, "s"),
    "str": "a",
    "bool": True,
    "int": 5,
    "float32": np.float32(1.5),
    "none": None,
    "nan": np.nan,
    "na": pd.NA,
    "nat": pd.NaT,
}


@pytest.mark.parametrize("value", list(SCALARS.values()), ids=list(SCALARS))
@pytest.mark.parametrize("index", [None, [0, 1, 2], []], ids=["no_index", "index", "empty_index"])
def test_series_of_a_scalar_broadcasts_over_the_index(value, index):
    """pandas: a scalar is one row, or one value per label of index= (None without index: empty)."""
    want = pd.Series(value, index=index)
    got = em.Series(value, index=index)
    assert got.dtype == want.dtype
    assert_eq(got, want)


@pytest.mark.parametrize("value", list(SCALARS.values()), ids=list(SCALARS))
def test_frame_of_a_scalar_broadcasts_over_the_index(value):
    want = pd.DataFrame({"a": value, "b": [1, 2]}, index=[3, 4])
    got = em.DataFrame({"a": value, "b": [1, 2]}, index=[3, 4])
    assert list(got.dtypes) == list(want.dtypes)
    assert_eq(got, want)


def test_series_with_dtype_types_python_values_as_pandas():
    for data, dtype in [
        (["a", None], object),
        ([1, None], "Int64"),
        (["x", "y"], "category"),
        ([1, 2], "f4"),
    ]:
        assert_eq(em.Series(data, dtype=dtype), pd.Series(data, dtype=dtype))
    with pytest.raises(ValueError):
        pd.Series([1.5], dtype="int64")
    with pytest.raises(ValueError):
        em.Series([1.5], dtype="int64")


VALUES = {
    "str": lambda m: m.Series(list("ab")),
    "string": lambda m: m.Series(["a", None], dtype="string"),
    "category": lambda m: m.Series(list("ab")).astype("category"),
    "Int64": lambda m: m.Series([1, None], dtype="Int64"),
    "boolean": lambda m: m.Series([True, None], dtype="boolean"),
    "tz": lambda m: m.Series(pd.to_datetime(["2020-01-01"]).tz_localize("UTC")),
    "datetime": lambda m: m.Series(pd.to_datetime(["2020-01-01", None])),
    "object_bool": lambda m: m.Series([True, None]),
    "object_str": lambda m: m.Series(["a", None], dtype=object),
    "float_nan": lambda m: m.Series([1.5, None]),
}


@pytest.mark.parametrize("build", list(VALUES.values()), ids=list(VALUES))
def test_values_is_pandas_array_type(build, xp):
    """Series.values: pandas' extension array (ArrowStringArray, Categorical, IntegerArray ...) or
    NumPy array, as pandas gives it; numbers without a mask are an array of the backend (CuPy on the
    GPU, NumPy on the CPU)."""
    got, want = _both(build)
    got_values, want_values = got.values, want.values
    if type(want_values) is np.ndarray and want_values.dtype.kind in "biuf":
        assert type(got_values) is xp.ndarray
        got_values = to_host(got_values)
    assert type(got_values) is type(want_values)
    assert got_values.dtype == want_values.dtype
    pd.testing.assert_extension_array_equal(pd.array(got_values), pd.array(want_values))


def test_values_of_numbers_is_a_read_only_host_view_on_the_cpu(backend, xp):
    """Series.values of numbers: a read-only NumPy view on the CPU (as pandas 3), a CuPy array on
    the GPU."""
    got = em.Series([1, 2]).values
    assert type(got) is xp.ndarray
    if backend == "cpu":
        assert not got.flags.writeable
    np.testing.assert_array_equal(to_host(got), pd.Series([1, 2]).values)


@pytest.mark.parametrize(
    "array",
    [
        np.array([1, 2]),
        np.array([1.5, 2.5], dtype="float32"),
        np.array([True, False]),
        np.array(["2020-01-01", "2021-01-01"], dtype="datetime64[s]"),
        np.array([1, 2], dtype="timedelta64[ns]"),
    ],
    ids=lambda a: str(a.dtype),
)
def test_copy_false_shares_a_numpy_array_on_the_cpu(array):
    """pandas' Series(arr, copy=False) / DataFrame({...}, copy=False) show later changes to the array;
    the default (copy) does not."""
    if current_xp() is not np:  # the GPU: the array cannot be shared
        with pytest.raises(NotImplementedError, match="copy=False"):
            em.Series(array.copy(), copy=False)
        return
    results = {}
    for mod in (pd, em):
        arrays = [array.copy() for _ in range(3)]
        shared = mod.Series(arrays[0], copy=False)
        copied = mod.Series(arrays[1])
        frame = mod.DataFrame({"a": arrays[2]}, copy=False)
        for a in arrays:
            a[0] = a[1]
        results[mod] = (shared, copied, frame)
    for got, want in zip(results[em], results[pd]):
        assert_eq(got, want)


def test_copy_false_of_a_2d_array_is_refused():
    a = np.arange(4).reshape(2, 2)
    with pytest.raises(NotImplementedError, match="copy=False"):
        em.DataFrame(a, copy=False)
    assert_eq(em.DataFrame(a), pd.DataFrame(a))


@pytest.mark.parametrize("unit", ["D", "h", "m", "W", "M", "Y", "s", "ms", "us", "ns"])
def test_datetime_arrays_of_any_unit_get_pandas_unit(unit):
    a = np.array([1, 2]).astype(f"datetime64[{unit}]")
    assert_eq(em.Series(a), pd.Series(a))
    if unit not in ("M", "Y"):
        t = np.array([1, 2]).astype(f"timedelta64[{unit}]")
        assert_eq(em.Series(t), pd.Series(t))
