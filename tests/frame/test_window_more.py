"""Rolling / Expanding first, last, nunique, sem, skew, kurt, rank, pipe, cov, corr, aggregate by list
or dict, and rolling(step=) against pandas."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember._compat import PANDAS_31
from ember.testing import assert_eq

METHODS = ["first", "last", "nunique", "sem", "skew", "kurt", "rank"]

VALUES = [1.0, np.nan, 1, 2, 2, np.inf, 3, -0.0, 0.0, np.nan, 5, 7, 1, 2, 2, 2, 2, 2.5, -4, 1e3]


def _series(dtype: str = "float64") -> pd.Series:
    if dtype == "float64":
        return pd.Series(VALUES, name="v")
    if dtype == "int64":
        return pd.Series([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9], name="v")
    if dtype == "bool":
        return pd.Series([True, False, True, True, False, False, True], name="v")
    if dtype == "Int64":
        return pd.Series([1, None, 3, 3, 2, None, 5, 1, 1, 1], dtype="Int64", name="v")
    return pd.Series([1.5, None, 2.5, 2.5, 0.5, 4.0, None, 1.0], dtype="Float64", name="v")


#: pandas 3.0's rolling moments come from running raw power sums, which lose the variance of windows
#: far from zero or nearly constant (NaN / inf where 3.1 and ember give the value, GH 62946)
PANDAS_30_MOMENTS = "pandas 3.0's rolling moments lose precision that pandas 3.1 keeps"


def _both(p, fn):
    return fn(em.from_pandas(p)), fn(p)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("dtype", ["float64", "int64", "bool", "Int64", "Float64"])
@pytest.mark.parametrize("min_periods", [None, 0, 1, 3])
def test_rolling_methods_series(method, dtype, min_periods):
    s = _series(dtype)
    got, exp = _both(s, lambda o: getattr(o.rolling(4, min_periods=min_periods), method)())
    assert_eq(got, exp)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("dtype", ["float64", "int64", "Int64"])
@pytest.mark.parametrize("min_periods", [0, 1, 4])
def test_expanding_methods_series(method, dtype, min_periods):
    s = _series(dtype)
    got, exp = _both(s, lambda o: getattr(o.expanding(min_periods=min_periods), method)())
    assert_eq(got, exp)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("center", [False, True])
@pytest.mark.parametrize("closed", [None, "left", "both", "neither"])
def test_rolling_center_closed(method, center, closed):
    s = _series()
    got, exp = _both(
        s, lambda o: getattr(o.rolling(3, min_periods=1, center=center, closed=closed), method)()
    )
    assert_eq(got, exp)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("window", ["48h", "72h"])
@pytest.mark.parametrize("closed", [None, "both"])
def test_rolling_time_windows(method, window, closed):
    if not PANDAS_31 and method in ("skew", "kurt"):
        pytest.skip(PANDAS_30_MOMENTS)
    idx = pd.to_datetime(
        [
            "2020-01-01",
            "2020-01-02",
            "2020-01-02",
            "2020-01-04",
            "2020-01-05",
            "2020-01-05",
            "2020-01-06",
            "2020-01-09",
            "2020-01-10",
            "2020-01-11",
        ]
    )
    s = pd.Series([1.0, 2, 2, np.nan, 5, 3, 3, 8, 1, 4], index=idx, name="t")
    got, exp = _both(s, lambda o: getattr(o.rolling(window, closed=closed), method)())
    assert_eq(got, exp)


@pytest.mark.parametrize("method", METHODS)
def test_frame_methods(method):
    df = pd.DataFrame(
        {"A": [1.0, 2, np.nan, 4, 4, 4, 7, 1], "B": [3, 1, 4, 1, 5, 9, 2, 6], "C": [True, False] * 4},
        index=list("abcdefgh"),
    )
    got, exp = _both(df, lambda o: getattr(o.rolling(3, min_periods=2), method)())
    assert_eq(got, exp)
    got, exp = _both(df, lambda o: getattr(o.expanding(2), method)())
    assert_eq(got, exp)


@pytest.mark.parametrize("method", METHODS)
def test_groupby_rolling_methods(method):
    df = pd.DataFrame({"g": [1, 2, 1, 2, 1, 1, 2, 1], "v": [1.0, 2, 2, np.nan, 5, 2, 3, 8]})
    got, exp = _both(df, lambda o: getattr(o.groupby("g").rolling(3, min_periods=1), method)())
    assert_eq(got, exp)
    got, exp = _both(df, lambda o: getattr(o.groupby("g").expanding(), method)())
    assert_eq(got, exp)


@pytest.mark.parametrize("method", ["average", "min", "max"])
@pytest.mark.parametrize("ascending", [True, False])
@pytest.mark.parametrize("pct", [True, False])
def test_rank_options(method, ascending, pct):
    s = _series()
    got, exp = _both(
        s, lambda o: o.rolling(5, min_periods=1).rank(method=method, ascending=ascending, pct=pct)
    )
    assert_eq(got, exp)
    got, exp = _both(s, lambda o: o.expanding().rank(method=method, ascending=ascending, pct=pct))
    assert_eq(got, exp)


def test_rank_bad_method():
    s = _series()
    with pytest.raises(ValueError):
        s.rolling(3).rank(method="dense")
    with pytest.raises(ValueError):
        em.from_pandas(s).rolling(3).rank(method="dense")


@pytest.mark.parametrize("ddof", [0, 1, 2])
def test_sem_ddof(ddof):
    s = _series()
    got, exp = _both(s, lambda o: o.rolling(4, min_periods=1).sem(ddof=ddof))
    assert_eq(got, exp)


def test_skew_kurt_random_long_windows():
    rng = np.random.default_rng(0)
    s = pd.Series(rng.normal(100.0, 3.0, 300))
    s[rng.integers(0, 300, 20)] = np.nan
    for w in [5, 50, 200]:
        for m in ["skew", "kurt"]:
            got, exp = _both(s, lambda o, w=w, m=m: getattr(o.rolling(w), m)())
            assert_eq(got, exp)
    for m in ["skew", "kurt", "sem", "nunique"]:
        got, exp = _both(s, lambda o, m=m: getattr(o.expanding(3), m)())
        assert_eq(got, exp)


def test_constant_windows_skew_kurt_nan():
    s = pd.Series([1.0, 5, 3, 2, 2, 2, 2, 2, 2.5, 2.5, 2.5, 2.5, np.nan, 2.5])
    for m in ["skew", "kurt"]:
        got, exp = _both(s, lambda o, m=m: getattr(o.rolling(4, min_periods=3), m)())
        assert_eq(got, exp)


def test_nunique_ties_and_signed_zero():
    s = pd.Series([0.0, -0.0, 1, 1, np.nan, 1, 2, 0.0, 2, 2, 3, np.nan, np.nan, np.nan])
    for w in [1, 2, 3, 5]:
        got, exp = _both(s, lambda o, w=w: o.rolling(w, min_periods=0).nunique())
        assert_eq(got, exp)


def test_empty_and_one_row():
    for s in [pd.Series([], dtype="float64"), pd.Series([2.5])]:
        for m in METHODS:
            got, exp = _both(s, lambda o, m=m: getattr(o.rolling(2, min_periods=1), m)())
            assert_eq(got, exp)
            got, exp = _both(s, lambda o, m=m: getattr(o.expanding(), m)())
            assert_eq(got, exp)


def test_non_numeric_raises():
    s = pd.Series(["a", "b", "c"])
    with pytest.raises(pd.errors.DataError):
        s.rolling(2).first()
    with pytest.raises(pd.errors.DataError):
        em.from_pandas(s).rolling(2).first()


# --- step ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("step", [1, 2, 3, 10])
@pytest.mark.parametrize("center", [False, True])
@pytest.mark.parametrize(
    "method", ["sum", "mean", "count", "max", "std", "median", "first", "nunique", "rank"]
)
def test_step(step, center, method):
    s = _series()
    got, exp = _both(s, lambda o: getattr(o.rolling(3, min_periods=1, center=center, step=step), method)())
    assert_eq(got, exp)


def test_step_frame_and_on():
    df = pd.DataFrame({"A": [1.0, 2, 3, 4, 5, 6, 7], "B": range(7)}, index=list("abcdefg"))
    got, exp = _both(df, lambda o: o.rolling(2, min_periods=1, step=2).sum())
    assert_eq(got, exp)
    got, exp = _both(df, lambda o: o.rolling(2, on="B", step=3).sum())
    assert_eq(got, exp)


def test_step_errors():
    s = pd.Series([1.0, 2, 3])
    e = em.from_pandas(s)
    for bad in [-1, 1.5, True]:
        with pytest.raises(ValueError):
            s.rolling(2, step=bad).sum()
        with pytest.raises(ValueError):
            e.rolling(2, step=bad).sum()
    with pytest.raises(ZeroDivisionError):
        e.rolling(2, step=0).sum()
    t = pd.Series([1.0, 2, 3], index=pd.date_range("2020", periods=3))
    with pytest.raises(NotImplementedError):
        em.from_pandas(t).rolling("48h", step=1)


# --- pipe / aggregate ----------------------------------------------------------------------------


def test_pipe():
    df = pd.DataFrame({"A": [1.0, 4, 2, 8, 5]}, index=pd.date_range("2020", periods=5))
    got, exp = _both(df, lambda o: o.rolling("48h").pipe(lambda x: x.max() - x.min()))
    assert_eq(got, exp, check_freq=False)  # ember's DatetimeIndex keeps no freq
    got, exp = _both(df, lambda o: o.expanding().pipe(lambda x, k: x.sum() * k, 3))
    assert_eq(got, exp, check_freq=False)
    got, exp = _both(df, lambda o: o.rolling(2).pipe((lambda k, r: r.mean() + k, "r"), 1))
    assert_eq(got, exp, check_freq=False)


def test_agg_list_and_dict():
    df = pd.DataFrame({"A": [1.0, 2, 3, np.nan, 5], "B": [5, 1, 4, 2, 3]})
    for fn in [
        ["sum", "mean"],
        ["min"],
        {"A": "sum", "B": "min"},
        {"B": "max", "A": "sum"},
        {"A": ["sum", "min"], "B": "max"},
        {"B": ["first", "nunique"]},
    ]:
        got, exp = _both(df, lambda o, fn=fn: o.rolling(2).agg(fn))
        assert_eq(got, exp)
        got, exp = _both(df, lambda o, fn=fn: o.expanding(2).agg(fn))
        assert_eq(got, exp)
    s = df["A"]
    got, exp = _both(s, lambda o: o.rolling(2).agg(["sum", "skew", "max"]))
    assert_eq(got, exp)


def test_agg_errors():
    df = pd.DataFrame({"A": [1.0, 2, 3]})
    e = em.from_pandas(df)
    with pytest.raises(KeyError):
        df.rolling(2).agg({"Z": "sum"})
    with pytest.raises(KeyError):
        e.rolling(2).agg({"Z": "sum"})
    with pytest.raises(AttributeError):
        e.rolling(2).agg("foo")
    with pytest.raises(NotImplementedError):
        e.rolling(2).agg([np.sum])


# --- cov / corr ----------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["cov", "corr"])
@pytest.mark.parametrize("ddof", [0, 1])
def test_series_with_series(method, ddof):
    if not PANDAS_31 and method == "corr":
        pytest.skip(PANDAS_30_MOMENTS)
    a = pd.Series([1.0, 2, 4, np.nan, 3, 7, 7, 7, 7, 2, np.inf, 5], name="a")
    b = pd.Series([2.0, 1, 3, 5, 4, 8, 1, 2, 3, np.nan, 2, 6], name="b")
    for mk in [lambda o: o.rolling(4), lambda o: o.rolling(3, min_periods=1), lambda o: o.expanding(2)]:
        got = getattr(mk(em.from_pandas(a)), method)(em.from_pandas(b), ddof=ddof)
        exp = getattr(mk(a), method)(b, ddof=ddof)
        assert_eq(got, exp)
    got = getattr(em.from_pandas(a).rolling(4), method)()
    assert_eq(got, getattr(a.rolling(4), method)())


@pytest.mark.parametrize("method", ["cov", "corr"])
def test_series_alignment(method):
    a = pd.Series([1.0, 2, 4, 3, 7, 2], index=[0, 1, 2, 3, 4, 5], name="x")
    b = pd.Series([2.0, 1, 3, 5, 4, 8], index=[3, 4, 5, 6, 7, 8], name="x")
    got = getattr(em.from_pandas(a).rolling(2, min_periods=1), method)(em.from_pandas(b))
    assert_eq(got, getattr(a.rolling(2, min_periods=1), method)(b))


@pytest.mark.parametrize("method", ["cov", "corr"])
def test_frame_with_series_and_frame(method):
    rng = np.random.default_rng(1)
    df = pd.DataFrame({"A": rng.normal(size=30), "B": rng.integers(0, 5, 30)})
    other = pd.DataFrame({"A": rng.normal(size=30), "B": rng.normal(size=30)})
    s = pd.Series(rng.normal(size=30))
    edf, eo, es = em.from_pandas(df), em.from_pandas(other), em.from_pandas(s)
    assert_eq(getattr(edf.rolling(5), method)(es), getattr(df.rolling(5), method)(s))
    assert_eq(getattr(edf.rolling(5), method)(eo), getattr(df.rolling(5), method)(other))
    assert_eq(getattr(es.rolling(5), method)(edf), getattr(s.rolling(5), method)(df))
    assert_eq(
        getattr(edf.rolling(40, min_periods=2), method)(es), getattr(df.rolling(40, min_periods=2), method)(s)
    )


@pytest.mark.parametrize("method", ["cov", "corr"])
def test_pairwise(method):
    df = pd.DataFrame(
        {"A": [1.0, 2, 4, 3, 5, 6, np.nan, 2], "B": [2.0, 1, 3, 5, 4, 8, 1, 1], "C": range(8)},
        index=pd.Index(list("abcdefgh"), name="ix"),
    )
    e = em.from_pandas(df)
    assert_eq(getattr(e.rolling(4), method)(), getattr(df.rolling(4), method)())
    assert_eq(getattr(e.rolling(4), method)(pairwise=True), getattr(df.rolling(4), method)(pairwise=True))
    assert_eq(getattr(e.expanding(), method)(), getattr(df.expanding(), method)())
    assert_eq(getattr(e.rolling(3), method)(pairwise=False), getattr(df.rolling(3), method)(pairwise=False))


def test_cov_bad_other():
    with pytest.raises(ValueError):
        pd.Series([1.0, 2]).rolling(2).cov(5)
    with pytest.raises(ValueError):
        em.from_pandas(pd.Series([1.0, 2])).rolling(2).cov(5)


def test_corr_time_window():
    idx = pd.date_range("2020", periods=8, freq="D")
    a = pd.Series([1.0, 2, 4, 3, 5, 6, 2, 9], index=idx)
    b = pd.Series([2.0, 1, 3, 5, 4, 8, 1, 1], index=idx)
    got = em.from_pandas(a).rolling("72h").corr(em.from_pandas(b))
    assert_eq(got, a.rolling("72h").corr(b), check_freq=False)


def test_agg_keeps_column_axis_names_and_levels():
    df = pd.DataFrame({"A": [1.0, 2, 3, 4], "B": [4, 3, 2, 1]})
    df.columns.name = "c"
    e = em.from_pandas(df)
    for fn in [["sum", "min"], {"A": "sum"}, {"A": ["sum"]}]:
        assert_eq(e.rolling(2).agg(fn), df.rolling(2).agg(fn))
    mi = pd.DataFrame({("a", "x"): [1.0, 2, 3], ("b", "y"): [3.0, 1, 2]})
    mi.columns.names = ["p", "q"]
    em_mi = em.from_pandas(mi)
    assert_eq(em_mi.rolling(2).agg(["sum", "max"]), mi.rolling(2).agg(["sum", "max"]))
    assert_eq(em_mi.rolling(2).agg({("a", "x"): ["sum"]}), mi.rolling(2).agg({("a", "x"): ["sum"]}))


def test_moments_far_from_zero():
    if not PANDAS_31:
        pytest.skip(PANDAS_30_MOMENTS)
    rng = np.random.default_rng(7)
    s = pd.Series(1e6 + 1e-3 * rng.normal(size=120))
    walk = pd.Series(1e6 + np.cumsum(rng.normal(size=120)) * 1e-2)
    for data in [s, walk]:
        for w in [5, 20, 60]:
            for m in ["skew", "kurt"]:
                got, exp = _both(data, lambda o, w=w, m=m: getattr(o.rolling(w), m)())
                assert_eq(got, exp)
        other = data[::-1].reset_index(drop=True)
        for m in ["cov", "corr"]:
            assert_eq(
                getattr(em.from_pandas(data).rolling(5), m)(em.from_pandas(other)),
                getattr(data.rolling(5), m)(other),
            )


@pytest.mark.parametrize("method", ["first", "last", "nunique", "rank", "skew", "kurt"])
def test_on_column(method):
    df = pd.DataFrame({"t": pd.date_range("2020", periods=6, freq="12h"), "v": [1.0, 3, 2, np.nan, 5, 5]})
    got, exp = _both(df, lambda o: getattr(o.rolling("24h", on="t"), method)())
    assert_eq(got, exp)
    got, exp = _both(df, lambda o: getattr(o.rolling(2, on="t", step=2), method)())
    assert_eq(got, exp)


def test_sem_on_time_column_raises_as_pandas():
    df = pd.DataFrame({"t": pd.date_range("2020", periods=4, freq="12h"), "v": [1.0, 3, 2, 5]})
    for make in [lambda o: o.rolling("24h", on="t"), lambda o: o.rolling(2, on="t")]:
        with pytest.raises(TypeError):
            make(df).sem()
        with pytest.raises(TypeError):
            make(em.from_pandas(df)).sem()
