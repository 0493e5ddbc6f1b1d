"""Breadth of GroupBy / resample / window arguments against pandas: callables in agg / transform,
Resampler.aggregate with callables, lists and dicts, forward-looking window indexers, and the
Series constructor of a dict with index=."""

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq


# --- Series(dict, index=) ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("data", "kwargs"),
    [
        ({"a": 1, "b": 2, "c": 3}, {"index": ["a", "b", "c"]}),
        ({"a": 1, "b": 2, "c": 3}, {"index": ["x", "y", "z"]}),
        ({"a": 1, "b": 2}, {"index": ["b", "q", "a", "a"]}),
        ({"a": 1.5, "b": None}, {"index": ["b", "a"]}),
        ({"a": "s", "b": "t"}, {"index": ["b", "z"]}),
        ({"a": True, "b": False}, {"index": ["b", "z"]}),
        ({"a": True, "b": False}, {"index": ["b", "a"]}),
        ({"a": 1, "b": 2}, {"index": ["b", "q"], "dtype": "int64"}),
        ({"a": 1, "b": 2}, {"index": ["b", "q"], "dtype": "Int64"}),
        ({}, {"index": ["a", "b"]}),
        ({}, {"index": []}),
        ({1: 1, 2: 2}, {"index": [2, 3], "name": "n"}),
        ({"a": 1, "b": 2}, {"index": pd.Index(["b", "a"], name="k")}),
        ({"a": pd.Timestamp("2020-01-01"), "b": pd.Timestamp("2021-01-01")}, {"index": ["b", "c"]}),
    ],
)
def test_series_dict_with_index(data, kwargs):
    assert_eq(em.Series(data, **kwargs), pd.Series(data, **kwargs))


def test_series_dict_with_ember_index():
    idx = pd.Index(["c", "a"])
    assert_eq(em.Series({"a": 1, "c": 2}, index=em.from_pandas(idx)), pd.Series({"a": 1, "c": 2}, index=idx))


# --- GroupBy.agg / transform with a callable ----------------------------------------------------
@pytest.fixture
def frame():
    return pd.DataFrame(
        {
            "A": ["foo", "bar", "foo", "bar", "foo", "bar"],
            "B": ["one", "one", "two", "three", "two", "two"],
            "C": [1, 5, 5, 2, 5, 5],
            "D": [2.0, 5.0, 8.0, 1.0, 2.0, np.nan],
        }
    )


UDFS = {
    "zscore": lambda x: (x - x.mean()) / x.std(),
    "range": lambda x: x.max() - x.min(),
    "int_max": lambda x: x.astype(int).max() if not x.isna().any() else 0,
    "plus": lambda x: sum(x) + 2,
    "float_min": lambda x: x.astype(float).min(),
    "length": lambda x: len(x),
    "first": lambda x: x.iloc[0],
    "cumsum": lambda x: x.cumsum(),
}
REDUCING = ("range", "int_max", "plus", "float_min", "length", "first")


@pytest.mark.parametrize("name", list(UDFS))
@pytest.mark.parametrize("sel", [["C", "D"], "C", "D"])
def test_groupby_transform_callable(frame, name, sel):
    f = UDFS[name]
    assert_eq(em.from_pandas(frame).groupby("A")[sel].transform(f), frame.groupby("A")[sel].transform(f))
    keys = ["A", "B"]
    assert_eq(em.from_pandas(frame).groupby(keys)[sel].transform(f), frame.groupby(keys)[sel].transform(f))


@pytest.mark.parametrize("name", REDUCING)
@pytest.mark.parametrize("sel", [["C", "D"], "C"])
@pytest.mark.parametrize("as_index", [True, False])
def test_groupby_agg_callable(frame, name, sel, as_index):
    f = UDFS[name]
    got = em.from_pandas(frame).groupby("A", as_index=as_index)[sel].agg(f)
    assert_eq(got, frame.groupby("A", as_index=as_index)[sel].agg(f))
    got = em.from_pandas(frame).groupby(["A", "B"])[sel].agg(f)
    assert_eq(got, frame.groupby(["A", "B"])[sel].agg(f))


@pytest.mark.parametrize("col", ["v", "s", "t", "m"])
@pytest.mark.parametrize(
    "f", [lambda x: x.iloc[0], lambda x: x.max(), lambda x: str(len(x)), lambda x: x.shift()]
)
def test_series_groupby_callable_dtypes(col, f):
    df = pd.DataFrame(
        {
            "k": [1, 1, 3, 2],
            "v": [1.0, 2, 3, 4],
            "s": ["a", "b", "c", "d"],
            "t": pd.to_datetime(["2020", "2021", "2022", "2023"]),
            "m": pd.array([1, None, 3, 4], dtype="Int64"),
        }
    )
    e = em.from_pandas(df)
    assert_eq(e.groupby("k")[col].transform(f), df.groupby("k")[col].transform(f))
    dropped = df.assign(k=[1, 1, np.nan, 2])
    if f(df[col]) is not None and pd.api.types.is_scalar(f(df[col])):
        assert_eq(em.from_pandas(dropped).groupby("k")[col].agg(f), dropped.groupby("k")[col].agg(f))


def test_groupby_callable_arguments_and_empty():
    s = pd.Series([1.0, 2.0, 3.0, 4.0])
    e = em.from_pandas(s)
    assert_eq(
        e.groupby([1, 1, 2, 2]).agg(lambda x, a: x.sum() + a, 3),
        s.groupby([1, 1, 2, 2]).agg(lambda x, a: x.sum() + a, 3),
    )
    got = e.groupby([1, 1, 2, 2]).transform(lambda x, a: x + a, a=3)
    assert_eq(got, s.groupby([1, 1, 2, 2]).transform(lambda x, a: x + a, a=3))
    assert_eq(
        e.iloc[:0].groupby(e.iloc[:0]).agg(lambda x: x.sum()),
        s.iloc[:0].groupby(s.iloc[:0]).agg(lambda x: x.sum()),
    )


def test_groupby_frame_transform_not_columnwise(frame):
    f = lambda x: x / x.sum().sum()  # noqa: E731 - the whole group differs from column by column
    assert_eq(
        em.from_pandas(frame).groupby("A")[["C", "D"]].transform(f),
        frame.groupby("A")[["C", "D"]].transform(f),
    )


def test_groupby_transform_callable_refusals():
    df = pd.DataFrame({"k": [1, 1, np.nan, 2], "v": [1.0, 2, 3, 4]})
    e = em.from_pandas(df)
    with pytest.raises(NotImplementedError):
        e.groupby("k")["v"].transform(lambda x: x + 1)  # rows of no group
    with pytest.raises(NotImplementedError):
        e.groupby("k").agg(lambda x: x.cumsum())  # not an aggregation


# --- Resampler.aggregate / transform --------------------------------------------------------------
def _gap_index():
    secs = [0, 1, 7, 8, 9]
    return pd.to_datetime(["2013-01-01"] * 5) + pd.to_timedelta(secs, unit="s")


def _resample_objects():
    s = pd.Series([1, 2, 3, 4, 5], index=pd.date_range("20130101", periods=5, freq="s"))
    gap = pd.Series([1, 2, 3, 4, 5], index=_gap_index())
    df = pd.DataFrame({"a": [1.0, 2, 3, 4, 5], "b": [5, 4, 3, 2, 1], "s": list("abcde")}, index=_gap_index())
    masked = pd.Series(
        pd.array([1, None, 3, 4], dtype="Int64"), index=pd.date_range("2020", periods=4, freq="h")
    )
    return {"s": s, "gap": gap, "frame": df[["a", "b"]], "strings": df, "masked": masked}


RESAMPLE_SPECS = {
    "list": ["sum", "mean", "max"],
    "lambda": lambda x: x.mean() / x.std(),
    "plus": lambda x: x.sum() + 5,
    "dict": {"result": lambda x: x.mean() / x.std(), "total": "sum"},
    "frame_dict_lists": {"a": ["sum", "max"], "b": ["min", lambda x: len(x)]},
    "len": len,
    "first": lambda x: x.iloc[0] if len(x) else None,
    "string": lambda x: str(len(x)),
    "lambda_list": [lambda x: x.max(), "min"],
}


def _same(got, want):
    assert_eq(got, want, check_freq=False)  # ember's datetime index carries no freq


@pytest.mark.parametrize("obj", list(_resample_objects()))
@pytest.mark.parametrize("spec", list(RESAMPLE_SPECS))
@pytest.mark.parametrize("rule", ["2s", "3s", "90min"])
def test_resample_aggregate(obj, spec, rule):
    p = _resample_objects()[obj]
    func = RESAMPLE_SPECS[spec]
    try:
        want = p.resample(rule).agg(func)
    except Exception as err:  # noqa: BLE001 - the same error type as pandas (or a refusal)
        with pytest.raises((type(err), NotImplementedError)):
            em.from_pandas(p).resample(rule).agg(func)
        return
    try:
        got = em.from_pandas(p).resample(rule).agg(func)
    except NotImplementedError:
        assert obj == "strings"  # groupby sum of strings, refused
        return
    _same(got, want)


@pytest.mark.parametrize("obj", ["s", "gap", "frame"])
def test_resample_named_apply_and_arguments(obj):
    p = _resample_objects()[obj]
    e = em.from_pandas(p)
    if obj == "frame":
        _same(
            e.resample("2s").agg(x=("a", "mean"), y=("b", lambda v: v.max())),
            p.resample("2s").agg(x=("a", "mean"), y=("b", lambda v: v.max())),
        )
    else:
        _same(
            e.resample("2s").agg(average="mean", total="sum"),
            p.resample("2s").agg(average="mean", total="sum"),
        )
    _same(e.resample("3s").apply(lambda x: x.sum() + 5), p.resample("3s").apply(lambda x: x.sum() + 5))
    _same(
        e.resample("3s").apply(lambda x, k: x.sum() * k, 2),
        p.resample("3s").apply(lambda x, k: x.sum() * k, 2),
    )


@pytest.mark.parametrize("obj", ["s", "gap", "frame"])
@pytest.mark.parametrize(
    "func",
    [
        lambda x: (x - x.mean()) / x.std(),
        lambda x: x.max(),
        lambda x: x.cumsum(),
        "mean",
        "min",
        "sum",
        "count",
    ],
)
def test_resample_transform(obj, func):
    p = _resample_objects()[obj]
    _same(em.from_pandas(p).resample("3s").transform(func), p.resample("3s").transform(func))


def test_resample_aggregate_edges():
    empty = pd.Series([], dtype="float64", index=pd.DatetimeIndex([]))
    _same(
        em.from_pandas(empty).resample("2s").agg(lambda x: x.sum()),
        empty.resample("2s").agg(lambda x: x.sum()),
    )
    _same(em.from_pandas(empty).resample("2s").agg(["sum", "max"]), empty.resample("2s").agg(["sum", "max"]))
    nat = pd.Series([1.0, 2, 3], index=pd.to_datetime(["2020-01-01", None, "2020-01-03"]))
    _same(em.from_pandas(nat).resample("D").agg(lambda x: x.sum()), nat.resample("D").agg(lambda x: x.sum()))
    s = _resample_objects()["s"]
    with pytest.raises(pd.errors.SpecificationError):
        em.from_pandas(s).resample("2s").agg({"x": ["sum"]})
    df = pd.DataFrame({"t": pd.date_range("2020", periods=4, freq="h"), "v": [1, 2, 3, 4]})
    with pytest.raises(KeyError):
        em.from_pandas(df).set_index("t").resample("2h").agg({"zz": "sum"})
    with pytest.raises(NotImplementedError):
        em.from_pandas(df).resample("2h", on="t").agg(lambda x: x.sum())


@pytest.mark.parametrize(
    "stamps",
    [
        ["2023-01-01", "2023-01-15", "2023-02-01", "2023-02-15"],
        ["2023-01-01", "2023-01-15", "2023-03-01", "2023-03-15", "2023-03-17"],
    ],
)
@pytest.mark.parametrize("rule", ["MS", "7D"])
def test_resample_groups_indices_get_group(stamps, rule):
    ser = pd.Series(range(len(stamps)), index=pd.DatetimeIndex(stamps))
    r, e = ser.resample(rule), em.from_pandas(ser).resample(rule)
    assert e.groups == r.groups
    assert type(e.indices) is type(r.indices) and dict(e.indices) == dict(r.indices)
    for key in ["2023-01-01", pd.Timestamp("2023-03-01"), "2023-02-01", "2023-01-08"]:
        try:
            want = r.get_group(key)
        except KeyError:
            with pytest.raises(KeyError):
                e.get_group(key)
            continue
        _same(e.get_group(key), want)
    frame = ser.to_frame("v")
    _same(
        em.from_pandas(frame).resample(rule).get_group("2023-01-01"),
        frame.resample(rule).get_group("2023-01-01"),
    )


def test_resample_groups_of_unsorted_rows():
    ser = pd.Series([1, 2], index=pd.DatetimeIndex(["2023-02-01", "2023-01-01"]))
    got, want = em.from_pandas(ser).resample("MS"), ser.resample("MS")
    assert got.groups == want.groups
    assert_eq(got.first(), want.first(), check_freq=False)  # ember's indexes keep no freq


# --- rolling over a BaseIndexer ---------------------------------------------------------------------
class _PairIndexer(pd.api.indexers.BaseIndexer):
    """Rows in pairs: (0, 1), (2, 3), ... each row's window its pair."""

    def get_window_bounds(self, num_values=0, min_periods=None, center=None, closed=None, step=None):
        start = (np.arange(num_values) // 2 * 2).astype(np.int64)
        return start, np.minimum(start + 2, num_values).astype(np.int64)


class _BackwardsIndexer(pd.api.indexers.BaseIndexer):
    def get_window_bounds(self, num_values=0, min_periods=None, center=None, closed=None, step=None):
        start = np.arange(num_values)[::-1].astype(np.int64)
        return start, start + 1


WINDOW_OPS = [
    "sum",
    "mean",
    "min",
    "max",
    "count",
    "std",
    "var",
    "median",
    "skew",
    "kurt",
    "sem",
    "first",
    "last",
]


@pytest.mark.parametrize(
    "indexer",
    [
        pd.api.indexers.FixedForwardWindowIndexer(window_size=2),
        pd.api.indexers.FixedForwardWindowIndexer(window_size=3),
        _PairIndexer(window_size=2),
    ],
)
@pytest.mark.parametrize("min_periods", [None, 0, 1, 3])
def test_rolling_base_indexer(indexer, min_periods):
    df = pd.DataFrame({"B": [0, 1, 2, np.nan, 4], "C": [1.5, 2, -3, 4, 5], "I": [1, 2, 3, 4, 5]})
    e = em.from_pandas(df)
    for op in WINDOW_OPS:
        got = getattr(e.rolling(indexer, min_periods=min_periods), op)()
        assert_eq(got, getattr(df.rolling(indexer, min_periods=min_periods), op)())
    assert_eq(
        e.B.rolling(indexer, min_periods=min_periods).sum(),
        df.B.rolling(indexer, min_periods=min_periods).sum(),
    )
    assert_eq(e.rolling(indexer).quantile(0.3), df.rolling(indexer).quantile(0.3))
    assert_eq(e.rolling(indexer).apply(np.sum, raw=True), df.rolling(indexer).apply(np.sum, raw=True))
    assert_eq(e.iloc[:0].rolling(indexer).sum(), df.iloc[:0].rolling(indexer).sum())


def test_rolling_base_indexer_errors_and_refusals():
    df = pd.DataFrame({"B": [0.0, 1, 2, 3], "k": [1, 1, 2, 2]})
    e = em.from_pandas(df)
    forward = pd.api.indexers.FixedForwardWindowIndexer(window_size=2)
    with pytest.raises(ValueError):
        e.rolling(forward, center=True).sum()
    with pytest.raises(ValueError):
        e.rolling(forward, closed="left").sum()
    with pytest.raises(NotImplementedError):
        e.rolling(_BackwardsIndexer(window_size=1)).sum()
    with pytest.raises(NotImplementedError):
        e.rolling(forward, step=2).sum()
    with pytest.raises(NotImplementedError):
        e.groupby("k").rolling(forward).sum()


def test_numpy_reduction_inside_a_group_function():
    s = pd.Series(np.arange(9), index=pd.date_range("1/1/2000", periods=9, freq="min"))
    e = em.from_pandas(s)
    want = s.resample("3min").apply(lambda x: np.sum(x) + 5)
    assert_eq(e.resample("3min").apply(lambda x: np.sum(x) + 5), want, check_freq=False)
    want = s.groupby(np.arange(9) // 3).agg(lambda x: np.sum(x) + 5)
    assert_eq(e.groupby(np.arange(9) // 3).agg(lambda x: np.sum(x) + 5), want)
