"""Index truth reductions, identity (identical / is_ / view), repeat, shift, the datetime mean / std,
the label searches (slice_locs, get_slice_bound, asof, asof_locs, get_indexer_non_unique, join)
and RangeIndex.from_range, each compared with pandas."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.backend import to_host
from ember.testing import assert_eq

PANDAS_31 = tuple(int(p) for p in pd.__version__.split(".")[:2]) >= (3, 1)

INDEXES = {
    "int": pd.Index([3, 1, 2, 2, 5], name="a"),
    "int_sorted": pd.Index([1, 2, 2, 4, 7]),
    "int_unique": pd.Index([1, 3, 4, 7], name="a"),
    "float": pd.Index([1.5, np.nan, 0.0, 2.5], name="f"),
    "float_sorted": pd.Index([0.5, 1.5, 1.5, 2.5]),
    "str": pd.Index(["b", None, "a", "c"], name="s"),
    "str_sorted": pd.Index(["a", "b", "b", "d"]),
    "object": pd.Index(["b", None, "", "a"], dtype=object),
    "dt": pd.DatetimeIndex(["2020-01-03", None, "2020-01-01", "2020-01-02"], name="d"),
    "dt_sorted": pd.DatetimeIndex(["2020-01-01", "2020-01-02", "2020-01-02", "2020-01-05"]),
    "dt_s": pd.DatetimeIndex(["2020-01-01", None, "2020-02-01"], dtype="datetime64[s]"),
    "dt_tz": pd.DatetimeIndex(["2020-03-07 12:00", "2020-03-08 12:00", None], tz="US/Eastern"),
    "td": pd.to_timedelta(["1D", None, "0s", "2h"]),
    "bool": pd.Index([True, False, True]),
    "Int64": pd.Index([1, None, 0], dtype="Int64", name="n"),
    "range": pd.RangeIndex(2, 12, 3, name="r"),
    "empty_int": pd.Index([], dtype="int64", name="e"),
    "empty_str": pd.Index([], dtype="str"),
    "empty_dt": pd.DatetimeIndex([], name="e"),
}
NAMES = list(INDEXES)
DATETIMES = ["dt", "dt_sorted", "dt_s", "dt_tz", "td", "empty_dt"]


def _pair(name: str) -> tuple:
    p = INDEXES[name]
    return p, em.from_pandas(p)


def _compare(got, expected) -> None:
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected)
        for g, e in zip(got, expected):
            _compare(g, e)
    elif isinstance(expected, pd.Index):
        assert_eq(got, expected, exact=True)
    elif isinstance(expected, np.ndarray):
        got = to_host(got)
        assert got.dtype == expected.dtype
        np.testing.assert_array_equal(got, expected)
    elif expected is None:
        assert got is None
    else:  # a scalar: the same type and value (missing == missing)
        assert type(got) is type(expected), (got, expected)
        assert (pd.isna(got) and pd.isna(expected)) or got == expected, (got, expected)


def _same(pd_call, em_call) -> None:
    """ember's result or error is pandas' (the error's type)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = pd_call()
    except Exception as exc:
        with pytest.raises(type(exc)), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            em_call()
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = em_call()
    _compare(got, expected)


def _same_call(p, e, method: str, *args, **kwargs) -> None:
    """``_same`` of one method called with the same arguments on a pandas and an ember object."""
    _same(lambda: getattr(p, method)(*args, **kwargs), lambda: getattr(e, method)(*args, **kwargs))


# --- all / any ------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("op", ["all", "any"])
def test_all_any(name, op):
    p, e = _pair(name)
    _same(lambda: getattr(p, op)(), lambda: getattr(e, op)())


TRUTH_CASES = [
    ([0.0, np.nan], None),
    ([np.nan], None),
    ([1, None, 0], "Int64"),
    ([None], "Int64"),
    ([0.0, np.nan], "Float64"),
    ([True, None], "boolean"),
    ([True, None], object),
    ([True, np.nan], object),
    ([False, np.nan], object),
    (["", None], "str"),
    (["a", None], "str"),
    (["a", ""], "str"),
    (["", np.nan], object),
    (["a", None], "string"),
    ([0, None], "timedelta64[ns]"),
    ([1, None], "timedelta64[ns]"),
    ([None], "timedelta64[ns]"),
    (["a", "b"], "category"),
]


@pytest.mark.parametrize("values, dtype", TRUTH_CASES)
@pytest.mark.parametrize("op", ["all", "any"])
def test_all_any_truth_of_missing_values(values, dtype, op):
    p = pd.Index(values, dtype=dtype)
    e = em.from_pandas(p)
    _same(lambda: getattr(p, op)(), lambda: getattr(e, op)())


@pytest.mark.parametrize("rng", [(0, 0), (1, 4), (0, -3, -1), (-1, 2), (5, 0, -2), (0, 1)])
@pytest.mark.parametrize("op", ["all", "any"])
def test_all_any_range(rng, op):
    p = pd.RangeIndex(*rng)
    e = em.from_pandas(p)
    _same(lambda: getattr(p, op)(), lambda: getattr(e, op)())


@pytest.mark.parametrize(
    "args, kwargs", [((), {"axis": 1}), ((True,), {}), ((), {"axis": None}), ((), {"skipna": False})]
)
def test_all_any_arguments(args, kwargs):
    p, e = _pair("int")
    _same(lambda: p.all(*args, **kwargs), lambda: e.all(*args, **kwargs))
    _same(lambda: p.any(*args, **kwargs), lambda: e.any(*args, **kwargs))


def test_all_any_multiindex():
    p = pd.MultiIndex.from_arrays([[1, 2], [3, 4]])
    e = em.from_pandas(p)
    _same(p.all, e.all)
    _same(p.any, e.any)


# --- array ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_array(name):
    p, e = _pair(name)
    got, expected = e.array, p.array
    assert type(got) is type(expected)
    pd.testing.assert_extension_array_equal(got, expected)


# --- identical / is_ / view -----------------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_identical(name):
    p, e = _pair(name)
    others = [
        p.copy(),
        p.rename("other"),
        p.astype(object),
        pd.Index(list(p), dtype=object, name=p.name),
        p[::-1],
    ]
    for other in others:
        try:
            e_other = em.from_pandas(other)
        except NotImplementedError:  # an object index of numbers or dates: no ember column
            continue
        assert e.identical(e_other) == p.identical(other)
    assert e.identical(e.view()) == p.identical(p.view())
    assert e.identical(list(p)) == p.identical(list(p))


def test_identical_range_and_materialized():
    p = pd.RangeIndex(3)
    q = pd.Index([0, 1, 2])
    assert em.from_pandas(p).identical(em.from_pandas(q)) == p.identical(q)
    assert em.from_pandas(q).identical(em.from_pandas(q.copy())) == q.identical(q.copy())


@pytest.mark.parametrize("name", ["int", "str", "dt", "range", "empty_int"])
def test_is_(name):
    p, e = _pair(name)
    assert e.is_(e) == p.is_(p)
    assert e.is_(e.view()) == p.is_(p.view())
    assert e.view().is_(e) == p.view().is_(p)
    assert e.view().view().is_(e) == p.view().view().is_(p)
    assert e.view().is_(e.view()) == p.view().is_(p.view())
    assert e.is_(e.copy()) == p.is_(p.copy())
    assert e.view().copy().is_(e) == p.view().copy().is_(p)
    assert e.is_(e.rename("x")) == p.is_(p.rename("x"))
    assert e.is_(em.from_pandas(p)) == p.is_(pd.Index(p))
    assert e.is_(list(p)) == p.is_(list(p))


@pytest.mark.parametrize("name", NAMES)
def test_view(name):
    p, e = _pair(name)
    assert_eq(e.view(), p.view(), exact=True)
    assert_eq(e.view().rename("x"), p.view().rename("x"), exact=True)
    assert repr(e.view()) == repr(p.view())


def test_view_of_a_dtype_is_refused():
    e = em.from_pandas(pd.Index(["a", "b"]))  # numbers: test_index_breadth.test_view_as_dtype
    with pytest.raises(NotImplementedError):
        e.view("float64")
    with pytest.raises(NotImplementedError):
        em.from_pandas(pd.MultiIndex.from_arrays([[1], [2]])).view()


# --- repeat ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("repeats", [2, 0, 1, np.int64(3), True])
def test_repeat(name, repeats):
    p, e = _pair(name)
    _same(lambda: p.repeat(repeats), lambda: e.repeat(repeats))


@pytest.mark.parametrize("name", ["int", "float", "str", "dt", "range", "empty_int"])
def test_repeat_counts(name):
    p, e = _pair(name)
    n = len(p)
    counts = [(i * 2) % 3 for i in range(n)]
    for reps in (counts, np.array(counts), pd.Series(counts), [1] * (n + 1), [-1] * n, 2.0, "2", -1):
        _same_call(p, e, "repeat", reps)
    _same(lambda: p.repeat(2, axis=0), lambda: e.repeat(2, axis=0))
    _same(lambda: p.repeat(counts), lambda: e.repeat(em.from_pandas(pd.Series(counts))))


def test_repeat_multiindex():
    p = pd.MultiIndex.from_arrays([[1, 2, 2], ["x", "y", None]], names=["a", "b"])
    e = em.from_pandas(p)
    _same(lambda: p.repeat(2), lambda: e.repeat(2))
    _same(lambda: p.repeat([2, 0, 1]), lambda: e.repeat([2, 0, 1]))


# --- shift ----------------------------------------------------------------------------------------
FREQS = ["D", "h", "ms", "ns", "2min", pd.Timedelta("1h"), pd.Timedelta(0), np.timedelta64(1, "D")]


@pytest.mark.parametrize("name", DATETIMES)
@pytest.mark.parametrize("freq", FREQS)
@pytest.mark.parametrize("periods", [1, -2, 0])
def test_shift_by_a_fixed_step(name, freq, periods):
    if not PANDAS_31 and freq == "D":
        pytest.skip("pandas 3.0 shifts by a 'D' frequency otherwise (ember follows 3.1)")
    p, e = _pair(name)
    if name == "dt_tz" and freq == "D":
        with pytest.raises(NotImplementedError):  # a calendar day across a DST change
            e.shift(periods, freq=freq)
        return
    _same(lambda: p.shift(periods, freq=freq), lambda: e.shift(periods, freq=freq))


@pytest.mark.parametrize("name", NAMES)
def test_shift_of_other_labels_raises_as_pandas(name):
    p, e = _pair(name)
    if name in DATETIMES:
        return
    _same(lambda: p.shift(1), lambda: e.shift(1))
    _same(lambda: p.shift(1, freq="D"), lambda: e.shift(1, freq="D"))


@pytest.mark.parametrize("name", DATETIMES)
def test_shift_without_freq(name):
    p, e = _pair(name)
    _same(lambda: p.shift(0), lambda: e.shift(0))
    if len(p):  # pandas shifts by the index' own freq or raises: ember keeps no freq
        with pytest.raises(NotImplementedError):
            e.shift(1)
    else:
        _same(lambda: p.shift(3), lambda: e.shift(3))


@pytest.mark.parametrize("name", ["dt", "td", "dt_tz"])
def test_shift_errors_and_calendar_offsets(name):
    p, e = _pair(name)
    _same(lambda: p.shift(1, freq="xyz"), lambda: e.shift(1, freq="xyz"))
    _same(lambda: p.shift(1.5, freq="h"), lambda: e.shift(1.5, freq="h"))
    for freq in ("ME", "B"):
        if name == "td":  # pandas: TypeError (no calendar offsets on timedeltas)
            _same_call(p, e, "shift", 1, freq=freq)
        else:
            with pytest.raises(NotImplementedError):
                e.shift(1, freq=freq)


def test_shift_multiindex_raises_as_pandas():
    p = pd.MultiIndex.from_arrays([[1, 2], [3, 4]])
    _same(lambda: p.shift(1), lambda: em.from_pandas(p).shift(1))


# --- mean / std -----------------------------------------------------------------------------------
@pytest.mark.parametrize("name", DATETIMES)
def test_mean_std(name):
    p, e = _pair(name)
    _same(p.mean, e.mean)
    _same(p.std, e.std)
    _same(lambda: p.mean(skipna=False), lambda: e.mean(skipna=False))
    _same(lambda: p.std(skipna=False), lambda: e.std(skipna=False))
    _same(lambda: p.std(ddof=0), lambda: e.std(ddof=0))
    _same(lambda: p.mean(axis=1), lambda: e.mean(axis=1))
    _same(lambda: p.mean(axis=None), lambda: e.mean(axis=None))
    _same(lambda: p.std(keepdims=True), lambda: e.std(keepdims=True))
    _same(lambda: p.std(0), lambda: e.std(0))
    _same(lambda: p.mean(0), lambda: e.mean(0))


def test_mean_std_of_missing_labels():
    for p in (pd.DatetimeIndex([None, None]), pd.to_timedelta([None]), pd.DatetimeIndex(["2020"])):
        e = em.from_pandas(p)
        _same(p.mean, e.mean)
        _same(p.std, e.std)


@pytest.mark.parametrize("name", [n for n in NAMES if n not in DATETIMES])
def test_mean_std_of_other_labels_are_no_attributes(name):
    p, e = _pair(name)
    for attr in ("mean", "std"):
        assert hasattr(e, attr) == hasattr(p, attr)
        _same_call(p, e, attr)


# --- label searches -------------------------------------------------------------------------------
LABELS = {
    "int": [2, 3, 0, 9, None],
    "int_sorted": [2, 3, 0, 9, 1.5],
    "int_unique": [1, 3, 5, 0, 9],
    "float": [1.5, 2.0, np.nan],
    "float_sorted": [1.5, 2.0, 0.0, 3.0],
    "str": ["a", "bb", None],
    "str_sorted": ["b", "c", "a", "z", ""],
    "dt": [pd.Timestamp("2020-01-01"), "2020-01-02"],
    "dt_sorted": ["2020-01-02", "2020-01-03", pd.Timestamp("2019-12-01"), "2020-01", "2021"],
    "range": [5, 6, 2, 100, -3],
    "empty_int": [1],
    "empty_str": ["a"],
    "empty_dt": ["2020"],
}


@pytest.mark.parametrize("name", list(LABELS))
def test_slice_locs_and_bounds(name):
    p, e = _pair(name)
    labels = LABELS[name]
    _same(p.slice_locs, e.slice_locs)
    for a in labels:
        _same_call(p, e, "slice_locs", a)
        _same_call(p, e, "slice_locs", end=a)
        _same_call(p, e, "slice_locs", a, step=-1)
        for b in labels:
            _same_call(p, e, "slice_locs", a, b)
        for side in ("left", "right", "middle"):
            _same_call(p, e, "get_slice_bound", a, side)


@pytest.mark.parametrize("name", list(LABELS))
def test_asof(name):
    p, e = _pair(name)
    for label in LABELS[name]:
        _same_call(p, e, "asof", label)
    _same(lambda: p.asof(LABELS[name][:2]), lambda: e.asof(LABELS[name][:2]))


@pytest.mark.parametrize("name", ["int_unique", "float_sorted", "dt_sorted", "range", "empty_int"])
def test_asof_locs(name):
    p, e = _pair(name)
    where = pd.Index(sorted(p)[:2] + [p.max()] if len(p) else [], dtype=p.dtype)
    mask = np.arange(len(p)) % 2 == 0
    _same(lambda: p.asof_locs(where, mask), lambda: e.asof_locs(em.from_pandas(where), mask))
    _same(lambda: p.asof_locs(where, mask), lambda: e.asof_locs(where, mask))
    _same(lambda: p.asof_locs(list(where), mask), lambda: e.asof_locs(list(where), mask))


@pytest.mark.parametrize("name", list(LABELS))
def test_get_indexer_non_unique(name):
    p, e = _pair(name)
    target = [x for x in LABELS[name] if x is not None]
    _same(lambda: p.get_indexer_non_unique(target), lambda: e.get_indexer_non_unique(target))
    t = pd.Index(target)
    if t.dtype != object:
        e_t = em.from_pandas(t)
        _same(lambda: p.get_indexer_non_unique(t), lambda: e.get_indexer_non_unique(e_t))
    _same(lambda: p.get_indexer_non_unique(p), lambda: e.get_indexer_non_unique(e))
    _same(lambda: p.get_indexer_non_unique(3), lambda: e.get_indexer_non_unique(3))


def test_label_searches_on_a_multiindex():
    p = pd.MultiIndex.from_arrays([[1, 1, 2], ["x", "y", "x"]])
    e = em.from_pandas(p)
    _same(lambda: p.slice_locs((1, "y"), (2, "x")), lambda: e.slice_locs((1, "y"), (2, "x")))
    _same(lambda: p.get_slice_bound((1, "y"), "left"), lambda: e.get_slice_bound((1, "y"), "left"))
    _same(lambda: p.get_indexer_non_unique(p[:2]), lambda: e.get_indexer_non_unique(p[:2]))


# --- join -----------------------------------------------------------------------------------------
JOIN_PAIRS = [
    (pd.Index([1, 2, 2, 4], name="a"), pd.Index([2, 4, 5], name="a")),
    (pd.Index([3, 1, 2], name="a"), pd.Index([2, 3, 7], name="b")),
    (pd.Index([3, 1, 3], name="a"), pd.Index([3, 3, 1, 8])),
    (pd.Index([1, 2, 3]), pd.Index([1.5, 2.0, np.nan])),
    (pd.Index([1.5, np.nan, 0.0], name="f"), pd.Index([np.nan, 0.0, 4.0], name="f")),
    (pd.Index(["b", None, "a"]), pd.Index(["a", "c", None])),
    (pd.Index(["a", "b", "b"], name="s"), pd.Index(["b", "c"], name="s")),
    (INDEXES["dt"], INDEXES["dt_sorted"]),
    (pd.RangeIndex(5, name="r"), pd.RangeIndex(2, 8, name="r")),
    (pd.RangeIndex(5), pd.Index([4, 2, 9])),
    (pd.Index([], dtype="int64"), pd.Index([1, 2])),
    (pd.Index([1, 2]), pd.Index([], dtype="int64", name="e")),
    (pd.Index([1, 2]), pd.Index(["x"])),
]


@pytest.mark.parametrize("left, right", JOIN_PAIRS)
@pytest.mark.parametrize("how", ["left", "right", "inner", "outer"])
@pytest.mark.parametrize("sort", [False, True])
@pytest.mark.parametrize("flag", [False, True])
def test_join(left, right, how, sort, flag):
    el, er = em.from_pandas(left), em.from_pandas(right)
    joined = left.join(right, how=how)
    if joined.inferred_type == "mixed-integer" or (
        joined.dtype == object and joined.inferred_type == "integer"
    ):
        with pytest.raises(NotImplementedError):  # labels of several types: no ember column
            el.join(er, how=how, sort=sort)
        return
    _same(
        lambda: left.join(right, how=how, return_indexers=flag, sort=sort),
        lambda: el.join(er, how=how, return_indexers=flag, sort=sort),
    )
    _same(lambda: left.join(right, how=how, sort=sort), lambda: el.join(right, how=how, sort=sort))


def test_join_errors_and_refusals():
    p = pd.Index([1, 2], name="a")
    e = em.from_pandas(p)
    _same(lambda: p.join(p, how="cross"), lambda: e.join(e, how="cross"))
    _same(lambda: p.join([2, 3]), lambda: e.join([2, 3]))
    with pytest.raises(NotImplementedError):
        e.join(e, level=0)
    m = pd.MultiIndex.from_arrays([[1, 2], ["x", "y"]], names=["a", "b"])
    with pytest.raises(NotImplementedError):
        e.join(em.from_pandas(m))
    with pytest.raises(NotImplementedError):
        em.from_pandas(m).join(e)


# --- RangeIndex.from_range ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "data, kwargs",
    [
        (range(2, 5), {}),
        (range(10, 0, -3), {"name": "x"}),
        (range(0), {"dtype": "int64"}),
        (range(3), {"dtype": "float64"}),
        (range(3), {"dtype": "int32"}),
        ([1, 2], {}),
        (3, {}),
    ],
)
def test_from_range(data, kwargs):
    _same(
        lambda: pd.RangeIndex.from_range(data, **kwargs),
        lambda: em.RangeIndex.from_range(data, **kwargs),
    )
    assert hasattr(em.Index, "from_range") == hasattr(pd.Index, "from_range")
