"""DatetimeIndex / TimedeltaIndex attributes and Index.str, compared with pandas' results for an Index."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.backend import to_host
from ember.testing import assert_eq

PANDAS_31 = tuple(int(p) for p in pd.__version__.split(".")[:2]) >= (3, 1)

_STAMPS = ["2020-01-31 10:11:12.123456789", None, "2024-02-29 23:59:59", "2021-12-31 00:30:00"]

DATETIME_INDEXES = {
    "naive_nat": lambda: pd.DatetimeIndex(_STAMPS),
    "berlin": lambda: pd.DatetimeIndex(_STAMPS).tz_localize("Europe/Berlin"),
    "unit_s": lambda: pd.DatetimeIndex([s for s in _STAMPS if s]).as_unit("s"),
    "unit_ns_named": lambda: pd.DatetimeIndex([s for s in _STAMPS if s], name="when").as_unit("ns"),
    "empty": lambda: pd.DatetimeIndex([], dtype="datetime64[ns]", name="e"),
}

INT_FIELDS = [
    "year", "month", "day", "hour", "minute", "second", "microsecond", "nanosecond",
    "dayofweek", "day_of_week", "weekday", "dayofyear", "day_of_year", "quarter",
    "days_in_month", "daysinmonth",
]  # fmt: skip
BOOL_FIELDS = [
    "is_month_start", "is_month_end", "is_quarter_start", "is_quarter_end",
    "is_year_start", "is_year_end", "is_leap_year",
]  # fmt: skip


def _pandas(fn):
    """pandas' answer, without its deprecation warnings for the older field names."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn()


def _ember_index(pidx: pd.Index):
    """The index as ember holds it under a frame's rows."""
    return em.from_pandas(pd.Series(np.arange(len(pidx)), index=pidx)).index


@pytest.fixture(params=list(DATETIME_INDEXES))
def dt_pair(request):
    pidx = DATETIME_INDEXES[request.param]()
    return _ember_index(pidx), pidx


def test_issue_example():
    pidx = pd.to_datetime(["2020-01-31"])
    idx = em.from_pandas(pd.Series([1], index=pidx)).index
    assert_eq(idx.year, pidx.year)


@pytest.mark.parametrize("field", INT_FIELDS)
def test_datetime_int_fields(dt_pair, field):
    idx, pidx = dt_pair
    assert_eq(getattr(idx, field), _pandas(lambda: getattr(pidx, field)))


@pytest.mark.parametrize("field", BOOL_FIELDS)
def test_datetime_bool_fields(dt_pair, field):
    idx, pidx = dt_pair
    got, want = to_host(getattr(idx, field)), getattr(pidx, field)
    assert isinstance(want, np.ndarray) and got.dtype == want.dtype == np.bool_
    np.testing.assert_array_equal(got, want)


def test_datetime_scalar_attributes(dt_pair):
    idx, pidx = dt_pair
    assert idx.tz == pidx.tz
    assert idx.unit == pidx.unit


@pytest.mark.parametrize("attr", ["date", "time", "timetz"])
def test_datetime_python_objects(dt_pair, attr):
    idx, pidx = dt_pair
    got, want = getattr(idx, attr), getattr(pidx, attr)
    assert got.dtype == want.dtype == object
    np.testing.assert_array_equal(pd.isna(got), pd.isna(want))
    assert [x for x in got if not pd.isna(x)] == [x for x in want if not pd.isna(x)]


@pytest.mark.parametrize(
    "method, args",
    [
        ("strftime", ("%Y-%m-%d %H:%M",)),
        ("day_name", ()),
        ("month_name", ()),
        ("normalize", ()),
        ("round", ("h",)),
        ("floor", ("h",)),
        ("ceil", ("D",)),
        ("as_unit", ("ms",)),
        ("tz_localize", (None,)),
    ],
)
def test_datetime_methods(dt_pair, method, args):
    idx, pidx = dt_pair
    if method == "tz_localize" and pidx.tz is None:
        args = ("UTC",)
    assert_eq(getattr(idx, method)(*args), getattr(pidx, method)(*args))


def test_tz_convert():
    pidx = DATETIME_INDEXES["berlin"]().rename("b")
    idx = _ember_index(pidx)
    assert_eq(idx.tz_convert("UTC"), pidx.tz_convert("UTC"))
    assert_eq(idx.tz_convert("Asia/Tokyo").hour, pidx.tz_convert("Asia/Tokyo").hour)


def test_tz_localize_ambiguous_raises_as_pandas():
    pidx = pd.DatetimeIndex(["2020-10-25 02:30"])
    with pytest.raises(Exception) as want:
        pidx.tz_localize("Europe/Berlin")
    with pytest.raises(type(want.value)):
        _ember_index(pidx).tz_localize("Europe/Berlin")


def test_isocalendar():
    pidx = DATETIME_INDEXES["unit_ns_named"]()
    assert_eq(_ember_index(pidx).isocalendar(), pidx.isocalendar())


def test_unsupported_datetime_members():
    idx = _ember_index(DATETIME_INDEXES["naive_nat"]())
    with pytest.raises(NotImplementedError):
        idx.to_period("M")
    with pytest.raises(NotImplementedError):
        _ = idx.freq
    with pytest.raises(NotImplementedError):
        idx.day_name(locale="de_DE")


# --- timedeltas ----------------------------------------------------------------------------------

TD_INDEXES = {
    "nat": lambda: pd.TimedeltaIndex(["1 days 02:03:04.000005006", None, "-3h", "0s"], name="t"),
    "no_nat_s": lambda: pd.TimedeltaIndex(["1 days 02:03:04", "-3h", "0s"]).as_unit("s"),
    "empty": lambda: pd.TimedeltaIndex([], dtype="timedelta64[ns]"),
}


@pytest.fixture(params=list(TD_INDEXES))
def td_pair(request):
    pidx = TD_INDEXES[request.param]()
    return _ember_index(pidx), pidx


@pytest.mark.parametrize("field", ["days", "seconds", "microseconds", "nanoseconds"])
def test_timedelta_fields(td_pair, field):
    idx, pidx = td_pair
    assert_eq(getattr(idx, field), getattr(pidx, field))


@pytest.mark.parametrize(
    "method, args",
    [("total_seconds", ()), ("round", ("h",)), ("floor", ("h",)), ("ceil", ("h",)), ("as_unit", ("ms",))],
)
def test_timedelta_methods(td_pair, method, args):
    idx, pidx = td_pair
    assert_eq(getattr(idx, method)(*args), getattr(pidx, method)(*args))


def test_timedelta_components_and_unit(td_pair):
    idx, pidx = td_pair
    assert_eq(idx.components, pidx.components)
    assert idx.unit == pidx.unit
    got, want = idx.to_pytimedelta(), pidx.to_pytimedelta()
    np.testing.assert_array_equal(pd.isna(got), pd.isna(want))
    assert [x for x in got if not pd.isna(x)] == [x for x in want if not pd.isna(x)]


# --- the wrong kind of labels raises AttributeError, as pandas ---------------------------------------


@pytest.mark.parametrize(
    "pidx",
    [
        pd.Index([1, 2]),
        pd.RangeIndex(3),
        pd.Index(["a", "b"]),
        pd.TimedeltaIndex(["1D"]),
        pd.MultiIndex.from_arrays([pd.DatetimeIndex(["2020-01-01"]), [1]]),
    ],
    ids=["int", "range", "str", "timedelta", "multi"],
)
@pytest.mark.parametrize(
    "attr",
    [
        "year",
        "is_month_start",
        "tz",
        "date",
        "strftime",
        "normalize",
        "day_name",
        "tz_localize",
        "isocalendar",
    ],
)
def test_datetime_attribute_on_other_labels_raises(pidx, attr):
    with pytest.raises(AttributeError):
        getattr(pidx, attr)
    with pytest.raises(AttributeError, match=attr):
        getattr(_ember_index(pidx), attr)


@pytest.mark.parametrize("attr", ["days", "total_seconds", "components", "to_pytimedelta"])
def test_timedelta_attribute_on_datetimes_raises(attr):
    pidx = DATETIME_INDEXES["naive_nat"]()
    with pytest.raises(AttributeError):
        getattr(pidx, attr)
    with pytest.raises(AttributeError):
        getattr(_ember_index(pidx), attr)


def test_hasattr_follows_pandas():
    assert not hasattr(_ember_index(pd.Index([1, 2])), "year")
    assert hasattr(_ember_index(DATETIME_INDEXES["unit_s"]()), "year")


def test_numeric_round():
    for pidx, decimals in [(pd.Index([1.55, 2.0, np.nan], name="x"), 1), (pd.Index([15, 2]), -1)]:
        assert_eq(_ember_index(pidx).round(decimals), pidx.round(decimals))
    assert_eq(em.Index(np.arange(3)).round(), pd.Index(np.arange(3)).round())


# --- Index.str -----------------------------------------------------------------------------------

STR_INDEXES = {
    "str_missing_named": lambda: pd.Index(["ab", None, "Cd e", "b-a"], name="n"),
    "str_no_missing": lambda: pd.Index(["ab", "x", "Cd e"]),
    "empty": lambda: pd.Index([], dtype="str"),
}


@pytest.fixture(params=list(STR_INDEXES))
def str_pair(request):
    pidx = STR_INDEXES[request.param]()
    return _ember_index(pidx), pidx


STR_CALLS = [
    ("upper", (), {}),
    ("lower", (), {}),
    ("len", (), {}),
    ("find", ("b",), {}),
    ("count", ("a",), {}),
    ("get", (0,), {}),
    ("slice", (0, 1), {}),
    ("strip", (), {}),
    ("zfill", (5,), {}),
    ("replace", ("a", "z"), {}),
    ("removeprefix", ("a",), {}),
    ("extract", ("(a)",), {"expand": False}),
    ("extract", ("(?P<g>a)",), {"expand": False}),
    ("extract", ("(?P<g>a)(b)?",), {}),
    ("cat", (), {}),
    ("cat", (), {"sep": "-", "na_rep": "?"}),
]


@pytest.mark.parametrize(
    "method, args, kwargs", STR_CALLS, ids=[f"{c[0]}{i}" for i, c in enumerate(STR_CALLS)]
)
def test_str_methods(str_pair, method, args, kwargs):
    idx, pidx = str_pair
    assert_eq(getattr(idx.str, method)(*args, **kwargs), getattr(pidx.str, method)(*args, **kwargs))


@pytest.mark.parametrize(
    "method, args",
    [("contains", ("a",)), ("startswith", ("a",)), ("endswith", ("e",)), ("match", ("a",)), ("isalpha", ())],
)
def test_str_predicates_are_arrays(str_pair, method, args):
    idx, pidx = str_pair
    got, want = to_host(getattr(idx.str, method)(*args)), getattr(pidx.str, method)(*args)
    assert isinstance(want, np.ndarray) and got.dtype == want.dtype == np.bool_
    np.testing.assert_array_equal(got, want)


def test_str_getitem_and_lists(str_pair):
    idx, pidx = str_pair
    assert_eq(idx.str[1:3], pidx.str[1:3])
    assert_eq(idx.str[0], pidx.str[0])
    got, want = idx.str.split().to_pandas(), pidx.str.split()
    assert got.name == want.name and got.dtype == want.dtype == object
    assert [x if isinstance(x, list) else None for x in got] == [
        x if isinstance(x, list) else None for x in want
    ]


def test_str_cat_with_list():
    pidx = STR_INDEXES["str_missing_named"]()
    others = ["1", "2", "3", "4"]
    assert_eq(_ember_index(pidx).str.cat(others), pidx.str.cat(others))


@pytest.mark.parametrize(
    "method, args, kwargs",
    [
        ("split", (), {"expand": True}),
        ("split", ("-",), {"expand": True}),
        ("rsplit", (" ",), {"expand": True, "n": 1}),
        ("partition", ("b",), {}),
        ("rpartition", (), {}),
    ],
)
def test_str_expand_gives_multiindex(method, args, kwargs):
    for pidx in (STR_INDEXES["str_missing_named"](), STR_INDEXES["str_no_missing"]()):
        want = getattr(pidx.str, method)(*args, **kwargs)
        assert_eq(getattr(_ember_index(pidx).str, method)(*args, **kwargs), want)


def test_str_expand_one_part_and_empty():
    pidx = pd.Index(["ab", "x", None], name="n")
    assert_eq(_ember_index(pidx).str.split(expand=True), pidx.str.split(expand=True))
    empty = pd.Index([], dtype="str")
    with pytest.raises(TypeError):
        empty.str.split(expand=True)
    with pytest.raises(TypeError):
        _ember_index(empty).str.split(expand=True)


@pytest.mark.parametrize(
    "pidx",
    [pd.Index([1, 2]), pd.RangeIndex(2), pd.Index([True, False]), pd.MultiIndex.from_arrays([["a"], ["b"]])],
    ids=["int", "range", "bool", "multi"],
)
def test_str_on_other_labels_raises(pidx):
    with pytest.raises(AttributeError):
        _ = pidx.str
    with pytest.raises(AttributeError):
        _ = _ember_index(pidx).str


def test_str_refused_where_pandas_results_differ():
    obj = pd.Index(["ab", None], dtype=object)
    with pytest.raises(NotImplementedError):
        _ember_index(obj).str.upper()
    nullable = _ember_index(pd.Index(["ab", pd.NA], dtype="string"))
    with pytest.raises(NotImplementedError):
        nullable.str.contains("a")  # pandas: a BooleanArray
    assert_eq(nullable.str.upper(), pd.Index(["ab", pd.NA], dtype="string").str.upper())
    with pytest.raises(NotImplementedError):
        _ember_index(STR_INDEXES["str_no_missing"]()).str.cat(pd.Series(["1", "2", "3"]))


def test_str_extractall_and_cat_with_index():
    pidx = STR_INDEXES["str_missing_named"]()
    idx = _ember_index(pidx)
    assert_eq(idx.str.extractall("(?P<letter>[ab])"), pidx.str.extractall("(?P<letter>[ab])"))
    others = pd.Index(["1", "2", None, "4"])
    assert_eq(idx.str.cat(others, na_rep="-"), pidx.str.cat(others, na_rep="-"))


@pytest.mark.parametrize("attr", ["floor", "ceil", "as_unit", "unit", "total_seconds", "days"])
def test_datetimelike_attribute_on_numbers_raises(attr):
    pidx = pd.Index([1.5, 2.0])
    with pytest.raises(AttributeError):
        getattr(pidx, attr)
    with pytest.raises(AttributeError):
        getattr(_ember_index(pidx), attr)
