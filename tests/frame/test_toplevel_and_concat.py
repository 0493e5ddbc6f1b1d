"""Top-level functions against pandas: to_numeric of every input type, date_range with anchored
and multiple frequencies, cut / qcut's return types and bins, concat's columns and dtypes; each case
pandas' result, pandas' error, or NotImplementedError."""

import itertools
import warnings

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.backend import to_host
from ember.testing import assert_eq

PANDAS_31 = tuple(int(p) for p in pd.__version__.split(".")[:2]) >= (3, 1)


def _outcome(fn):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return fn()
    except Exception as exc:  # noqa: BLE001
        return exc


# --- to_numeric -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        lambda m: m.Index(["1", "2", "3"], name="x"),
        lambda m: m.Index([1, 2], dtype="int8"),
        lambda m: m.RangeIndex(3),
        lambda m: m.Series(["1", "2.5"], name="s"),
    ],
)
def test_to_numeric_keeps_the_container_type(make):
    assert_eq(em.to_numeric(make(em)), pd.to_numeric(make(pd)))


def test_to_numeric_index_coerce_and_errors():
    assert_eq(
        em.to_numeric(em.Index(["1", "2.5", "a"]), errors="coerce"),
        pd.to_numeric(pd.Index(["1", "2.5", "a"]), errors="coerce"),
    )
    with pytest.raises(ValueError):
        pd.to_numeric(pd.Index(["1", "a"]))
    with pytest.raises(ValueError):
        em.to_numeric(em.Index(["1", "a"]))


@pytest.mark.parametrize("arg", [["1", "2"], np.array(["1", "2.5"]), "3", 4.5])
def test_to_numeric_lists_arrays_scalars(arg):
    got, want = em.to_numeric(arg), pd.to_numeric(arg)
    assert type(got) is type(want)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


# --- date_range -----------------------------------------------------------------------------------

FREQS = [
    "ME", "3ME", "-1ME", "-3ME", "MS", "2MS", "-2MS", "QE", "2QE", "QE-JAN", "QE-FEB", "QS", "QS-FEB",
    "2QS-MAR", "YE", "2YE", "YE-MAR", "YS", "YS-JUN", "-1YE", "W", "W-MON", "2W-WED", "-1W", "D", "3D",
    "-2D", "h", pd.offsets.MonthEnd(3), pd.offsets.MonthBegin(-2),
]  # fmt: skip
STARTS = [None, "2018-01-01", "2018-01-31", "2018-02-15 10:30", "2018-03-31", "2018-03-01 06:00"]
ENDS = [None, "2018-12-31", "2019-02-15 08:00", "2017-06-30", "2018-01-31 12:00"]
RANGES = [
    (f, s, e, p)
    for f, s, e, p in itertools.product(FREQS, STARTS, ENDS, [None, 1, 5])
    if sum(v is not None for v in (s, e, p)) == 2
]


def _same_range(got, want):
    if isinstance(want, Exception):
        assert isinstance(got, (type(want), NotImplementedError)), (got, want)
        return
    if isinstance(got, NotImplementedError):
        return
    assert not isinstance(got, Exception), got
    got = got.to_pandas()
    assert got.dtype == want.dtype
    assert list(got.asi8) == list(want.asi8), (list(got), list(want))


@pytest.mark.parametrize("freq", FREQS, ids=str)
def test_date_range_anchored_and_multiple_frequencies(freq):
    for f, s, e, p in (r for r in RANGES if r[0] is freq):
        _same_range(
            _outcome(lambda s=s, e=e, p=p, f=f: em.date_range(start=s, end=e, periods=p, freq=f)),
            _outcome(lambda s=s, e=e, p=p, f=f: pd.date_range(start=s, end=e, periods=p, freq=f)),
        )


def test_date_range_multiple_month_end_starts_at_the_first_anchor():
    for freq in ("3ME", pd.offsets.MonthEnd(3)):
        _same_range(
            em.date_range(start="1/1/2018", periods=5, freq=freq),
            pd.date_range(start="1/1/2018", periods=5, freq=freq),
        )


@pytest.mark.parametrize("freq", ["D", "h", "W-MON", "ME", "-1ME", "QS"])
@pytest.mark.parametrize(
    "kw",
    [
        {"start": pd.Timestamp("2262-01-01").as_unit("ns"), "periods": 200},
        {"end": pd.Timestamp("1677-12-31").as_unit("ns"), "periods": 200},
        {"start": pd.Timestamp("2262-01-01").as_unit("ns"), "end": pd.Timestamp("2262-04-11").as_unit("ns")},
        {"start": pd.Timestamp("2262-01-01").as_unit("ns"), "periods": 3},
    ],
)
def test_date_range_out_of_bounds_as_pandas(freq, kw):
    _same_range(
        _outcome(lambda: em.date_range(freq=freq, **kw)), _outcome(lambda: pd.date_range(freq=freq, **kw))
    )


@pytest.mark.parametrize("freq", ["SMS", "SME"], ids=str)
def test_date_range_other_offsets_as_pandas(freq):
    assert_eq(
        em.date_range("2018-01-01", periods=3, freq=freq), pd.date_range("2018-01-01", periods=3, freq=freq)
    )


@pytest.mark.parametrize("freq", ["C", "BME", pd.DateOffset(months=1)], ids=str)
def test_date_range_other_offsets_are_refused(freq):
    # pandas' is_month_start ... of such an index follow its frequency, which ember does not keep
    with pytest.raises(NotImplementedError):
        em.date_range("2018-01-01", periods=3, freq=freq)


def test_date_range_periods_checked():
    for m in (pd, em):
        with pytest.raises(TypeError):
            m.date_range("2018-01-01", periods=2.0, freq="D")
    with pytest.raises(NotImplementedError):
        em.date_range("2018-01-01", periods=-1, freq="ME")


# --- cut / qcut -----------------------------------------------------------------------------------


def test_cut_array_with_labels_is_a_categorical():
    values = np.array([1, 7, 5])
    got = em.cut(values, 3, labels=["bad", "medium", "good"])
    want = pd.cut(values, 3, labels=["bad", "medium", "good"])
    assert isinstance(got, pd.Categorical)
    pd.testing.assert_extension_array_equal(got, want)
    got_q, got_bins = em.qcut(values, 3, labels=["a", "b", "c"], retbins=True)
    want_q, want_bins = pd.qcut(values, 3, labels=["a", "b", "c"], retbins=True)
    pd.testing.assert_extension_array_equal(got_q, want_q)
    np.testing.assert_array_equal(got_bins, want_bins)
    pd.testing.assert_extension_array_equal(
        em.cut(em.Index([1, 7, 5]), 3, labels=list("abc")), pd.cut(pd.Index([1, 7, 5]), 3, labels=list("abc"))
    )


@pytest.mark.parametrize(
    "bins", [[0, 2, 4, 8], np.array([0, 2, 4, 8], dtype=np.int32), [0, 2.5, 4, 8], 3], ids=str
)
def test_cut_retbins_keeps_the_bins_dtype(bins):
    got, got_bins = em.cut(em.Series([1, 7, 5]), bins, labels=False, retbins=True)
    want, want_bins = pd.cut(pd.Series([1, 7, 5]), bins, labels=False, retbins=True)
    assert_eq(got, want)
    assert got_bins.dtype == want_bins.dtype
    np.testing.assert_array_equal(got_bins, want_bins)
    got_a, got_bins = em.cut(np.array([1, 7, 5]), bins, labels=False, retbins=True)
    want_a, want_bins = pd.cut(np.array([1, 7, 5]), bins, labels=False, retbins=True)
    np.testing.assert_array_equal(to_host(got_a), want_a)
    assert got_bins.dtype == want_bins.dtype


def test_cut_retbins_dropped_duplicates_keep_dtype():
    got = em.cut(em.Series([1, 7, 5]), [0, 2, 2, 8], labels=False, retbins=True, duplicates="drop")
    want = pd.cut(pd.Series([1, 7, 5]), [0, 2, 2, 8], labels=False, retbins=True, duplicates="drop")
    assert_eq(got[0], want[0])
    assert got[1].dtype == want[1].dtype
    np.testing.assert_array_equal(got[1], want[1])


# --- str.is* predicates -----------------------------------------------------------------------------

PREDICATES = [
    "isalpha",
    "isdigit",
    "isdecimal",
    "isnumeric",
    "isspace",
    "isalnum",
    "islower",
    "isupper",
    "istitle",
]


def _unicode_sample():
    r = np.random.default_rng(0)
    cps = np.r_[np.arange(0x3000), r.integers(0x3000, 0x110000, 3000)]
    cps = cps[(cps < 0xD800) | (cps >= 0xE000)]
    chars = [chr(c) for c in cps.tolist()]
    pool = list("aA1 _ǅǈ½³ªʰ⅕Ⅷ二") + chars[::37]
    multi = ["".join(r.choice(pool, r.integers(0, 5))) for _ in range(3000)]
    return chars + multi + ["23", "³", "⅕", "", np.nan]


@pytest.mark.parametrize(
    "dtype", ["str", "string", pd.StringDtype("python"), "string[pyarrow]", object], ids=str
)
def test_str_predicates_follow_pandas_for_every_string_dtype(dtype):
    ps = pd.Series(_unicode_sample(), dtype=dtype)
    es = em.from_pandas(ps)
    for name in PREDICATES:
        assert_eq(getattr(es.str, name)(), getattr(ps.str, name)())


# --- concat ---------------------------------------------------------------------------------------

CATS = ["a", "b", "ç", "日本", ""]


def _frame(data, index=None):
    return pd.DataFrame(data, index=index)


CONCAT_CASES = {
    "float32 NaN with an empty Int32 part (NA in Float64)": (
        lambda: [
            _frame({"d": pd.Series([np.nan], dtype="float32")}).set_axis(pd.RangeIndex(2, 3, name="idx")),
            _frame({"d": pd.Series([], dtype="Int32"), "a": pd.Series([], dtype="uint8")}).set_axis(
                pd.Index([], dtype="str")
            ),
        ],
        {"ignore_index": True},
    ),
    "inner join keeps the common columns": (
        lambda: [_frame({"b": [1], "a": [2]}), _frame({"c": [3], "a": [4.5]})],
        {"join": "inner"},
    ),
    "inner join with no common columns": (
        lambda: [_frame({"d": pd.Series([], dtype="int64")}), _frame({"c": pd.Series([], dtype="int8")})],
        {"ignore_index": True, "join": "inner"},
    ),
    "sort=True sorts the columns": (
        lambda: [_frame({"b": [1], "a": [2]}), _frame({"c": [3], "a": [4]})],
        {"sort": True},
    ),
    "sort=True inner": (
        lambda: [_frame({"b": [1], "a": [2]}), _frame({"b": [3], "a": [4]})],
        {"sort": True, "join": "inner"},
    ),
    "sort=True of empty timedelta frames": (
        lambda: [_frame({"d": pd.Series([], dtype="timedelta64[s]")})] * 2,
        {"sort": True},
    ),
    "axis=1 ignore_index renumbers the columns": (
        lambda: [
            _frame({"b": pd.Series([], dtype="int32")}).set_axis(pd.Index([], dtype="float64")),
            _frame({"b2": pd.Series([], dtype="uint8"), "a2": pd.Series([], dtype="boolean")}).set_axis(
                pd.Index([], dtype="float64")
            ),
        ],
        {"axis": 1, "ignore_index": True},
    ),
    "axis=1 Series ignore_index": (
        lambda: [pd.Series([1], name="a"), pd.Series([2], name="b")],
        {"axis": 1, "ignore_index": True},
    ),
    "axis=1 frame and Series ignore_index": (
        lambda: [_frame({"x": [1]}), pd.Series([2], name="b")],
        {"axis": 1, "ignore_index": True},
    ),
    "axis=1 inner ignore_index of empty frames": (
        lambda: [
            _frame({"b": pd.Series([], dtype="datetime64[s]")}),
            _frame({"e": pd.Series([], dtype="timedelta64[ns]")}).set_axis(pd.RangeIndex(0, 0, name="idx")),
        ],
        {"axis": 1, "ignore_index": True, "join": "inner"},
    ),
    "axis=1 sort=False": (
        lambda: [_frame({"b": [1, 2]}, [3, 1]), _frame({"c": [1, 2]}, [2, 1])],
        {"axis": 1, "sort": False},
    ),
    "axis=1 sort=True": (
        lambda: [_frame({"b": [1, 2]}, [3, 1]), _frame({"c": [1, 2]}, [2, 1])],
        {"axis": 1, "sort": True},
    ),
    "axis=1 sort=True on equal indexes": (
        lambda: [_frame({"b": [1, 2]}, [3, 1]), _frame({"c": [1, 2]}, [3, 1])],
        {"axis": 1, "sort": True},
    ),
    "axis=1 sort=True inner": (
        lambda: [_frame({"b": [1, 2]}, [2, 1]), _frame({"c": [1, 2]}, [1, 2])],
        {"axis": 1, "sort": True, "join": "inner"},
    ),
    "axis=1 sort=True on a repeated label": (
        lambda: [_frame({"b": [1, 2, 3]}, [2, 1, 2]), _frame({"c": [1, 2, 3]}, [2, 1, 2])],
        {"axis": 1, "sort": True},
    ),
    "axis=1 Series sort=True on a repeated label": (
        lambda: [pd.Series([1, 2, 3], index=[2, 1, 2]), pd.Series([1, 2, 3], index=[2, 1, 2])],
        {"axis": 1, "sort": True},
    ),
    "axis=1 Series with a repeated label": (
        lambda: [pd.Series([1, 2], index=[0, 0]), pd.Series([1], index=[5])],
        {"axis": 1},
    ),
    "axis=1 frame with a repeated label": (
        lambda: [_frame({"a": [1, 2]}, [0, 0]), pd.Series([1], index=[5])],
        {"axis": 1},
    ),
    "axis=1 empty indexes of two dtypes": (
        lambda: [
            _frame({"a": pd.Series([], dtype="int8")}),
            _frame({"b": pd.Series([], dtype="int8")}).set_axis(pd.Index([], dtype="str", name="idx")),
        ],
        {"axis": 1, "ignore_index": True},
    ),
    "axis=1 int and float indexes": (
        lambda: [_frame({"a": [1, 2]}, [1, 2]), _frame({"b": [1, 2]}, [1.0, 2.0])],
        {"axis": 1},
    ),
    "axis=1 names of equal indexes differ": (
        lambda: [
            _frame({"a": [1]}).set_axis(pd.RangeIndex(1, name="idx")),
            _frame({"b": [1]}),
        ],
        {"axis": 1},
    ),
    "str with object strings": (
        lambda: [
            pd.Series([], dtype="str", name="s"),
            pd.Series([], dtype="object", index=pd.Index([], dtype="str")),
        ],
        {"ignore_index": True},
    ),
    "str with string": (
        lambda: [pd.Series(["x", None], dtype="str"), pd.Series(["y", "z"], dtype="string")],
        {},
    ),
    "frames str with string": (
        lambda: [
            _frame({"d": pd.Series(["x", None], dtype="str")}),
            _frame({"d": pd.Series(["y"], dtype="string")}),
        ],
        {},
    ),
    "an empty frame is dropped": (lambda: [pd.DataFrame(), _frame({"a": [1]})], {}),
    "an empty frame is dropped, axis=1": (lambda: [pd.DataFrame(), _frame({"a": [1]})], {"axis": 1}),
    "int column missing from a part": (lambda: [_frame({"a": [1], "b": [2]}), _frame({"a": [1]})], {}),
    "int8 and Int32 missing from a part": (
        lambda: [
            _frame({"d": pd.Series([1], dtype="int8")}),
            _frame({"d": pd.Series([2], dtype="Int32")}),
            _frame({"x": [1.0]}),
        ],
        {},
    ),
    "float32 missing from a part": (
        lambda: [_frame({"a": [1], "b": pd.Series([1], dtype="float32")}), _frame({"a": [1]})],
        {},
    ),
    "bool missing from a part": (lambda: [_frame({"a": [1], "b": [True]}), _frame({"a": [1]})], {}),
    "bool Series with a frame": (
        lambda: [_frame({"b": pd.Series([1, 2], dtype="uint8")}), pd.Series([True, False], name="s")],
        {"ignore_index": True},
    ),
    "str missing from a part": (lambda: [_frame({"a": [1], "b": ["x"]}), _frame({"a": [1]})], {}),
    "object strings missing from a part": (
        lambda: [_frame({"x": pd.Series(["a", "b"], dtype=object)}), _frame({"y": [1]})],
        {},
    ),
    "datetime missing from a part": (
        lambda: [_frame({"a": [1], "b": pd.to_datetime(["2020"])}), _frame({"a": [1]})],
        {},
    ),
    "categorical missing from a part": (
        lambda: [_frame({"a": [1], "b": pd.Categorical(["a"], categories=CATS)}), _frame({"a": [1]})],
        {},
    ),
    "MultiIndex with a flat index": (
        lambda: [
            _frame({"c": [1.0], "z": [2.0], "a": [3]}).set_index(["z", "a"]),
            _frame({"d": pd.Series([1], dtype="UInt8")}),
        ],
        {},
    ),
    "index names": (
        lambda: [_frame({"a": [1]}, pd.Index([0], name="x")), _frame({"a": [1]}, pd.Index([1], name="y"))],
        {},
    ),
    "range index names": (
        lambda: [
            _frame({"a": [1, 2]}).set_axis(pd.RangeIndex(2, name="idx")),
            _frame({"a": [1]}).set_axis(pd.RangeIndex(2, 3)),
        ],
        {},
    ),
    "range index then int index": (
        lambda: [
            _frame({"a": [1, 2]}).set_axis(pd.RangeIndex(2, name="idx")),
            _frame({"a": [1]}).set_axis(pd.Index([7])),
        ],
        {},
    ),
    "datetime indexes of two units": (
        lambda: [
            _frame({"a": [1]}, pd.DatetimeIndex(["2020"], dtype="M8[s]")),
            _frame({"a": [2]}, pd.DatetimeIndex(["2021"], dtype="M8[ns]")),
        ],
        {},
    ),
    "named column axes": (
        lambda: [_frame({"a": [1]}).rename_axis(columns="c"), _frame({"a": [2]}).rename_axis(columns="c")],
        {},
    ),
    "named column axes, axis=1": (
        lambda: [_frame({"a": [1]}).rename_axis(columns="c"), _frame({"b": [2]}).rename_axis(columns="c")],
        {"axis": 1},
    ),
    "a dict of frames gives keys": (lambda: {"x": _frame({"a": [1]}), "y": _frame({"a": [2]})}, {}),
    "tz-aware datetimes of two units": (
        lambda: [
            _frame({"a": pd.Series(pd.to_datetime(["2020"]).tz_localize("UTC")).dt.as_unit("s")}),
            _frame({"a": pd.Series(pd.to_datetime(["2020"]).tz_localize("UTC")).dt.as_unit("ns")}),
        ],
        {},
    ),
    "two time zones": (
        lambda: [
            _frame({"a": pd.Series(pd.to_datetime(["2020"]).tz_localize("UTC"))}),
            _frame({"a": pd.Series(pd.to_datetime(["2020"]).tz_localize("Europe/Berlin"))}),
        ],
        {},
    ),
    "bad join": (lambda: [_frame({"a": [1]})] * 2, {"join": "left"}),
}


def _ember_objs(objs):
    if isinstance(objs, dict):
        return {k: em.from_pandas(v) for k, v in objs.items()}
    return [em.from_pandas(o) for o in objs]


@pytest.mark.parametrize("case", list(CONCAT_CASES))
def test_concat_gives_pandas_result_or_refuses(case):
    make, kw = CONCAT_CASES[case]
    want = _outcome(lambda: pd.concat(make(), **kw))
    got = _outcome(lambda: em.concat(_ember_objs(make()), **kw))
    if isinstance(got, NotImplementedError):
        return
    if isinstance(want, Exception):
        assert type(got) is type(want), (got, want)
        return
    assert not isinstance(got, Exception), got
    got = got.to_pandas()
    if isinstance(want, pd.DataFrame):
        pd.testing.assert_frame_equal(got, want)
    else:
        pd.testing.assert_series_equal(got, want)


@pytest.mark.parametrize(
    "case",
    [
        "float32 NaN with an empty Int32 part (NA in Float64)",
        "sort=True sorts the columns",
        "axis=1 ignore_index renumbers the columns",
        "axis=1 Series ignore_index",
        "axis=1 sort=True",
        "str with string",
        "int8 and Int32 missing from a part",
        "an empty frame is dropped",
        "named column axes",
        "a dict of frames gives keys",
        "tz-aware datetimes of two units",
    ],
)
def test_concat_cases_that_must_not_be_refused(case):
    make, kw = CONCAT_CASES[case]
    got = em.concat(_ember_objs(make()), **kw).to_pandas()
    want = pd.concat(make(), **kw)
    if isinstance(want, pd.DataFrame):
        pd.testing.assert_frame_equal(got, want)
    else:
        pd.testing.assert_series_equal(got, want)


def test_concat_series_ignore_index_axis1_columns_are_numbers():
    out = em.concat([em.Series([1], name="a"), em.Series([2], name="b")], axis=1, ignore_index=True)
    want = pd.concat([pd.Series([1], name="a"), pd.Series([2], name="b")], axis=1, ignore_index=True)
    pd.testing.assert_index_equal(out.columns, want.columns)


@pytest.mark.parametrize("objs", [lambda: [1, 2], lambda: [_frame({"a": [1]}), [1]]])
def test_concat_of_non_pandas_objects_raises_type_error(objs):
    with pytest.raises(TypeError):
        pd.concat(objs())
    with pytest.raises(TypeError):
        em.concat([em.from_pandas(o) if isinstance(o, pd.DataFrame) else o for o in objs()])


# --- columns of several datetime units or zones, at the column layer --------------------------------


def _col(s):
    from ember.column.convert import from_pandas as column_from_pandas

    return column_from_pandas(s, np)


@pytest.mark.parametrize(
    "parts",
    [
        lambda: [
            pd.Series(pd.to_datetime(["2020", None]).as_unit("s")),
            pd.Series(pd.to_datetime(["2021"]).as_unit("ns")),
        ],
        lambda: [
            pd.Series(pd.to_datetime(["3000-01-01"]).as_unit("s")),
            pd.Series(pd.to_datetime(["2020"]).as_unit("ns")),
        ],
        lambda: [
            pd.Series(pd.to_timedelta([2**62], unit="us")),
            pd.Series(pd.to_timedelta([1]).as_unit("ns")),
        ],
        lambda: [pd.Series(pd.to_timedelta([5], unit="s")), pd.Series(pd.to_timedelta([1]).as_unit("ms"))],
        lambda: [
            pd.Series(pd.to_datetime(["2020"]).tz_localize("UTC")).dt.as_unit("s"),
            pd.Series(pd.to_datetime(["2020"]).tz_localize("UTC")).dt.as_unit("ms"),
        ],
    ],
)
def test_concat_columns_of_several_units_take_the_finest(parts):
    from ember.column import concat_columns

    want = _outcome(lambda: pd.concat(parts(), ignore_index=True))
    got = _outcome(lambda: concat_columns([_col(p) for p in parts()]))
    if isinstance(want, Exception):
        assert type(got) is type(want), got
        return
    pd.testing.assert_series_equal(got.to_pandas(), want, check_names=False)


def test_concat_columns_of_two_zones_is_refused():
    from ember.column import concat_columns

    a = pd.Series(pd.to_datetime(["2020"]).tz_localize("UTC"))
    b = pd.Series(pd.to_datetime(["2020"]))
    assert pd.concat([a, b]).dtype == object
    with pytest.raises(NotImplementedError):
        concat_columns([_col(a), _col(b)])


# --- timedelta / datetime overflow: cumsum, diff, merge keys ----------------------------------------

BIG = pd.Timedelta(2**62, unit="ns")
OVERFLOW_SERIES = {
    "cumsum wraps then returns": pd.Series([BIG, BIG, -BIG]),
    "cumsum past a missing value": pd.Series([BIG, None, BIG]),
    "cumsum to NaT's value": pd.Series([-BIG, -BIG]),
    "cumsum fits": pd.Series([-BIG, -BIG + pd.Timedelta(1)]),
    "cumsum to the maximum": pd.Series([BIG, BIG - pd.Timedelta(1)]),
    "small": pd.Series([pd.Timedelta(1), pd.Timedelta(-1), None]),
    "datetimes far apart": pd.Series(pd.to_datetime(["1677-09-22", "2262-04-10"]).as_unit("ns")),
    "datetimes near": pd.Series(pd.to_datetime(["2000-01-01", None, "2262-04-10"]).as_unit("ns")),
}
OVERFLOW_OPS = {
    "cumsum": lambda x: x.cumsum(),
    "cumsum skipna=False": lambda x: x.cumsum(skipna=False),
    "diff": lambda x: x.diff(),
    "diff -1": lambda x: x.diff(-1),
    "frame diff": lambda x: x.to_frame().diff(),
    "groupby diff": lambda x: x.groupby(np.zeros(len(x), dtype=np.int64)).diff(),
}


@pytest.mark.parametrize("op", list(OVERFLOW_OPS))
@pytest.mark.parametrize("case", list(OVERFLOW_SERIES))
def test_timedelta_overflow_raises_as_pandas(case, op, request):
    if not PANDAS_31 and case == "cumsum wraps then returns" and op in ("diff", "frame diff"):
        # -2**62 - 2**62 is -2**63 ticks, NaT's value: pandas 3.0 gives NaT, 3.1 (and ember) raise
        reason = "pandas < 3.1: NaT for a difference of -2**63 ticks"
        request.applymarker(pytest.mark.xfail(reason=reason, strict=True))
    ps = OVERFLOW_SERIES[case]
    fn = OVERFLOW_OPS[op]
    want = _outcome(lambda: fn(ps))
    got = _outcome(lambda: fn(em.from_pandas(ps)))
    if isinstance(got, NotImplementedError) and op == "groupby diff" and ps.dtype.kind == "m":
        return  # groupby diff of timedeltas is refused
    if isinstance(want, Exception):
        assert type(got) is type(want), (got, want)
        return
    if op.startswith("cumsum") and isinstance(got, pd.errors.OutOfBoundsTimedelta):
        # pandas before 3.1 wraps a running total silently (to NaT or a wrong sign): ember raises
        total = ps.dropna().astype("int64").map(int).cumsum()
        assert (total.abs() >= 2**63 - 1).any() or (total == -(2**63)).any()
        return
    assert not isinstance(got, Exception), got
    assert_eq(got, want)


def test_merge_on_datetime_keys_of_two_units_raises_out_of_bounds_as_pandas():
    left = pd.DataFrame({"k": pd.to_datetime(["3000-01-01", "2020-01-01"]).as_unit("s"), "a": [1, 2]})
    right = pd.DataFrame({"k": pd.to_datetime(["2020-01-01"]).as_unit("ns"), "b": [3]})
    for how in ("inner", "left", "outer"):
        want = _outcome(lambda how=how: pd.merge(left, right, on="k", how=how))
        got = _outcome(lambda how=how: em.merge(em.from_pandas(left), em.from_pandas(right), on="k", how=how))
        assert type(got) is type(want), (got, want)
    fits = left.iloc[1:]
    assert_eq(em.merge(em.from_pandas(fits), em.from_pandas(right), on="k"), pd.merge(fits, right, on="k"))


def test_merge_on_timedelta_keys_that_do_not_fit_the_finer_unit_is_refused():
    left = pd.DataFrame({"k": pd.to_timedelta([2**62, 5], unit="us"), "a": [1, 2]})
    right = pd.DataFrame({"k": pd.to_timedelta([5000, 2**62 * 1000 % 2**63 - 2**63], unit="ns"), "b": [3, 4]})
    pd.merge(left, right, on="k")  # pandas answers (object keys)
    with pytest.raises(NotImplementedError):
        em.merge(em.from_pandas(left), em.from_pandas(right), on="k")


TZ_RANGES = [
    ("h", {"start": "2018-03-10 05:00", "end": "2018-11-01"}),
    ("24h", {"start": "2018-03-24", "periods": 3}),
    ("-2h", {"start": "2018-10-28 06:00", "periods": 5}),
    ("D", {"start": "2018-03-24", "periods": 3}),
    ("MS", {"start": "2018-03-25 02:30", "periods": 3}),
    ("3ME", {"start": "2018-10-28 02:30", "periods": 3}),
    ("W-MON", {"start": "2018-01-01", "periods": 3}),
    (None, {"start": "2018-03-24", "end": "2018-03-26", "periods": 4}),
    (None, {"start": pd.Timestamp("2018-01-15", tz="UTC"), "end": "2018-02-01", "periods": 3}),
    (
        "D",
        {
            "start": pd.Timestamp("2018-01-15", tz="UTC"),
            "end": pd.Timestamp("2018-02-01", tz="Europe/Berlin"),
        },
    ),
    ("ME", {"start": "2018-01-15", "end": pd.Timestamp("2018-05-01", tz="UTC")}),
]


@pytest.mark.parametrize("tz", [None, "Europe/Berlin", "UTC"])
@pytest.mark.parametrize("freq,kw", TZ_RANGES, ids=str)
def test_date_range_with_time_zones(freq, kw, tz):
    _same_range(
        _outcome(lambda: em.date_range(freq=freq, tz=tz, **kw)),
        _outcome(lambda: pd.date_range(freq=freq, tz=tz, **kw)),
    )
