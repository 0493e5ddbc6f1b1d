"""Rolling / Expanding / EWM objects, resample, merge_asof and shift / diff / pct_change / asfreq on ember
frames, against the same calls on pandas objects."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import ember
from ember.frame.timeseries import asfreq, diff, merge_asof, pct_change, resample, shift
from ember.frame.window import ewm, expanding, rolling


def _frame() -> pd.DataFrame:
    rng = np.random.default_rng(7)
    n = 40
    df = pd.DataFrame(
        {
            "t": pd.date_range("2021-03-01", periods=n, freq="7s"),
            "k": rng.integers(0, 3, n),
            "a": rng.normal(size=n),
            "b": rng.integers(0, 10, n),
            "c": pd.array(rng.integers(0, 5, n), dtype="Int64"),
        }
    )
    df.loc[[2, 5, 6], "a"] = np.nan
    df.loc[[1, 8], "c"] = pd.NA
    return df


def _series() -> pd.Series:
    df = _frame()
    return df.set_index("t")["a"]


# --- rolling / expanding / ewm ------------------------------------------------------------------------


@pytest.mark.parametrize("op", ["sum", "mean", "min", "max", "count", "std", "var", "median"])
def test_series_rolling_int(op):
    s = _series()
    got = getattr(rolling(ember.from_pandas(s), 4, min_periods=2), op)()
    pd.testing.assert_series_equal(got.to_pandas(), getattr(s.rolling(4, min_periods=2), op)())


@pytest.mark.parametrize("op", ["sum", "mean", "max", "count", "std"])
@pytest.mark.parametrize("window", ["15s", pd.Timedelta("30s")])
def test_series_rolling_offset(op, window):
    s = _series()
    got = getattr(rolling(ember.from_pandas(s), window), op)()
    pd.testing.assert_series_equal(got.to_pandas(), getattr(s.rolling(window), op)())


def test_series_rolling_center_closed_quantile():
    s = _series()
    e = ember.from_pandas(s)
    pd.testing.assert_series_equal(
        rolling(e, 5, center=True, closed="both", min_periods=1).quantile(0.3).to_pandas(),
        s.rolling(5, center=True, closed="both", min_periods=1).quantile(0.3),
    )
    pd.testing.assert_series_equal(
        rolling(e, "20s", center=True).median().to_pandas(), s.rolling("20s", center=True).median()
    )


def test_rolling_apply():
    s = _series()
    got = rolling(ember.from_pandas(s), 3).apply(np.nanmax, raw=True)
    pd.testing.assert_series_equal(got.to_pandas(), s.rolling(3).apply(np.nanmax, raw=True))


def test_frame_rolling_on_keeps_column():
    df = _frame().drop(columns="k")
    e = ember.from_pandas(df)
    pd.testing.assert_frame_equal(
        rolling(e, "20s", on="t").sum().to_pandas(), df.rolling("20s", on="t").sum()
    )
    pd.testing.assert_frame_equal(rolling(e, 3, on="t").mean().to_pandas(), df.rolling(3, on="t").mean())


def test_decreasing_index():
    s = _series().iloc[::-1]
    pd.testing.assert_series_equal(
        rolling(ember.from_pandas(s), "20s").sum().to_pandas(), s.rolling("20s").sum()
    )


def test_rolling_errors():
    e = ember.from_pandas(_series())
    with pytest.raises(ValueError, match="window must be an integer 0 or greater"):
        rolling(e, -1)
    with pytest.raises(ValueError, match="min_periods 5 must be <= window 2"):
        rolling(e, 2, min_periods=5)
    with pytest.raises(ValueError, match="window must be an integer"):
        rolling(ember.from_pandas(pd.Series([1.0, 2.0])), "2s")
    unsorted = pd.Series([1.0, 2.0, 3.0], index=pd.to_datetime([0, 2, 1], unit="s"))
    with pytest.raises(ValueError, match="index values must be monotonic"):
        rolling(ember.from_pandas(unsorted), "2s").sum()
    with pytest.raises(ValueError, match="not compatible"):
        rolling(e, "1ME")
    strings = ember.from_pandas(pd.DataFrame({"s": ["a", "b", "c"]}))
    with pytest.raises(pd.errors.DataError, match="non-numeric"):
        rolling(strings, 2).sum()


def test_nat_on_column():
    df = pd.DataFrame({"t": pd.to_datetime([0, None, 2], unit="s"), "a": [1.0, 2.0, 3.0]})
    with pytest.raises(ValueError, match="must not have NaT"):
        rolling(ember.from_pandas(df), "2s", on="t").sum()


@pytest.mark.parametrize("op", ["sum", "mean", "min", "max", "std", "count", "median"])
def test_expanding(op):
    df = _frame().drop(columns="t")
    got = getattr(expanding(ember.from_pandas(df), min_periods=2), op)()
    pd.testing.assert_frame_equal(got.to_pandas(), getattr(df.expanding(min_periods=2), op)())


@pytest.mark.parametrize(
    "kw",
    [
        {"com": 2.0},
        {"span": 5},
        {"halflife": 3},
        {"alpha": 0.4, "adjust": False},
        {"alpha": 0.1, "ignore_na": True, "min_periods": 3},
    ],
)
@pytest.mark.parametrize("op", ["mean", "std", "var"])
def test_ewm(kw, op):
    df = _frame().drop(columns=["t", "k"])
    got = getattr(ewm(ember.from_pandas(df), **kw), op)()
    pd.testing.assert_frame_equal(got.to_pandas(), getattr(df.ewm(**kw), op)())


def test_ewm_times_of_numbers_raise_as_pandas():
    s = _series()
    with pytest.raises(ValueError, match="times must be datetime64"):
        s.ewm(halflife=2, times=[1, 2, 3])
    with pytest.raises(ValueError, match="times must be datetime64"):
        ewm(ember.from_pandas(s), halflife=2, times=[1, 2, 3])


@pytest.mark.parametrize("op", ["sum", "mean", "max", "std", "count"])
def test_groupby_rolling(op):
    df = _frame().drop(columns="t")
    got = getattr(rolling(ember.from_pandas(df).groupby("k"), 3, min_periods=1), op)()
    pd.testing.assert_frame_equal(got.to_pandas(), getattr(df.groupby("k").rolling(3, min_periods=1), op)())


def test_groupby_rolling_offset_and_expanding():
    df = _frame().set_index("t")
    e = ember.from_pandas(df)
    pd.testing.assert_frame_equal(
        rolling(e.groupby("k"), "20s").mean().to_pandas(), df.groupby("k").rolling("20s").mean()
    )
    pd.testing.assert_frame_equal(
        expanding(e.groupby("k")).max().to_pandas(), df.groupby("k").expanding().max()
    )
    pd.testing.assert_series_equal(
        rolling(e.groupby("k")["a"], 2).median().to_pandas(), df.groupby("k")["a"].rolling(2).median()
    )


def test_empty_and_one_row():
    for n in (0, 1):
        s = pd.Series(np.arange(n, dtype=float), index=pd.date_range("2020", periods=n, freq="s"))
        e = ember.from_pandas(s)
        pd.testing.assert_series_equal(rolling(e, 2).sum().to_pandas(), s.rolling(2).sum(), check_freq=False)
        pd.testing.assert_series_equal(
            rolling(e, "2s").mean().to_pandas(), s.rolling("2s").mean(), check_freq=False
        )
        pd.testing.assert_series_equal(
            ewm(e, alpha=0.5).mean().to_pandas(), s.ewm(alpha=0.5).mean(), check_freq=False
        )


# --- resample -----------------------------------------------------------------------------------------


def _ts(dtype: str = "float64") -> pd.Series:
    rng = np.random.default_rng(11)
    n = 300
    t = pd.to_datetime(np.sort(rng.integers(0, 60 * 86_400 * 10**9, n))).as_unit("ns")
    s = pd.Series(rng.integers(0, 100, n), index=t, name="v").astype(dtype)
    if dtype == "float64":
        s.iloc[[3, 9]] = np.nan
    return s


@pytest.mark.parametrize(
    "rule", ["5min", "h", "6h", "D", "2D", "W", "W-MON", "ME", "MS", "QE", "QS", "YE", "YS"]
)
@pytest.mark.parametrize("op", ["sum", "mean", "min", "max", "count", "first", "last", "median", "std"])
@pytest.mark.parametrize("dtype", ["float64", "int64"])
def test_resample(rule, op, dtype):
    s = _ts(dtype)
    got = getattr(resample(ember.from_pandas(s), rule), op)()
    pd.testing.assert_series_equal(got.to_pandas(), getattr(s.resample(rule), op)(), check_freq=False)


@pytest.mark.parametrize("rule", ["15min", "h", "D"])
@pytest.mark.parametrize("closed", ["left", "right"])
@pytest.mark.parametrize("label", ["left", "right"])
def test_resample_closed_label(rule, closed, label):
    s = _ts()
    got = resample(ember.from_pandas(s), rule, closed=closed, label=label).sum()
    pd.testing.assert_series_equal(
        got.to_pandas(), s.resample(rule, closed=closed, label=label).sum(), check_freq=False
    )


def test_resample_ohlc_frame_on_and_nat():
    s = _ts()
    pd.testing.assert_frame_equal(
        resample(ember.from_pandas(s), "D").ohlc().to_pandas(), s.resample("D").ohlc(), check_freq=False
    )
    df = pd.DataFrame({"t": s.index, "a": s.to_numpy(), "b": np.arange(len(s))})
    pd.testing.assert_frame_equal(
        resample(ember.from_pandas(df), "D", on="t").mean().to_pandas(),
        df.resample("D", on="t").mean(),
        check_freq=False,
    )
    df.loc[[0, 5], "t"] = pd.NaT
    pd.testing.assert_frame_equal(
        resample(ember.from_pandas(df), "D", on="t").sum().to_pandas(),
        df.resample("D", on="t").sum(),
        check_freq=False,
    )


def test_resample_errors():
    with pytest.raises(NotImplementedError, match="rule"):
        resample(ember.from_pandas(_ts()), "B")
    with pytest.raises(TypeError, match="DatetimeIndex"):
        resample(ember.from_pandas(pd.Series([1.0, 2.0])), "D")


# --- merge_asof ----------------------------------------------------------------------------------------


def _asof_frames(temporal: bool = False) -> tuple[pd.DataFrame, pd.DataFrame]:
    rng = np.random.default_rng(3)
    left = pd.DataFrame(
        {"t": np.sort(rng.integers(0, 100, 40)), "k": rng.integers(0, 3, 40), "x": rng.normal(size=40)}
    )
    right = pd.DataFrame(
        {"t": np.sort(rng.integers(0, 100, 30)), "k": rng.integers(0, 3, 30), "y": rng.integers(0, 9, 30)}
    )
    if temporal:
        left["t"] = pd.to_datetime(left["t"], unit="s")
        right["t"] = pd.to_datetime(right["t"], unit="s")
    return left, right


@pytest.mark.parametrize("direction", ["backward", "forward", "nearest"])
@pytest.mark.parametrize("exact", [True, False])
@pytest.mark.parametrize("by", [None, "k"])
@pytest.mark.parametrize("tolerance", [None, 3])
def test_merge_asof(direction, exact, by, tolerance):
    left, right = _asof_frames()
    got = merge_asof(
        ember.from_pandas(left),
        ember.from_pandas(right),
        on="t",
        by=by,
        direction=direction,
        allow_exact_matches=exact,
        tolerance=tolerance,
    )
    expected = pd.merge_asof(
        left, right, on="t", by=by, direction=direction, allow_exact_matches=exact, tolerance=tolerance
    )
    pd.testing.assert_frame_equal(got.to_pandas(), expected)


def test_merge_asof_datetime_tolerance_and_left_on():
    left, right = _asof_frames(temporal=True)
    got = merge_asof(
        ember.from_pandas(left), ember.from_pandas(right), on="t", by="k", tolerance=pd.Timedelta("2s")
    )
    pd.testing.assert_frame_equal(
        got.to_pandas(), pd.merge_asof(left, right, on="t", by="k", tolerance=pd.Timedelta("2s"))
    )
    r2 = right.rename(columns={"t": "u"})
    got = merge_asof(ember.from_pandas(left), ember.from_pandas(r2), left_on="t", right_on="u")
    pd.testing.assert_frame_equal(got.to_pandas(), pd.merge_asof(left, r2, left_on="t", right_on="u"))


def test_merge_asof_errors():
    left, right = _asof_frames()
    el, er = ember.from_pandas(left), ember.from_pandas(right)
    with pytest.raises(ValueError, match="left keys must be sorted"):
        merge_asof(ember.from_pandas(left.iloc[::-1]), er, on="t")
    with pytest.raises(ValueError, match="right keys must be sorted"):
        merge_asof(el, ember.from_pandas(right.iloc[::-1]), on="t")
    with pytest.raises(ValueError, match="direction invalid"):
        merge_asof(el, er, on="t", direction="sideways")
    with pytest.raises(pd.errors.MergeError):
        merge_asof(el, er, on="t", tolerance=-1)


# --- shift / diff / pct_change / asfreq -----------------------------------------------------------------


@pytest.mark.parametrize(
    "dtype", ["int8", "int16", "int32", "int64", "uint8", "float32", "float64", "Int64", "Float64"]
)
@pytest.mark.parametrize("periods", [1, -1, 2, 0])
def test_shift_diff_pct_change(dtype, periods):
    s = pd.Series([1, 2, 4, 7, 11, 3], dtype=dtype)
    if dtype in ("Int64", "Float64"):
        s.iloc[2] = pd.NA
    e = ember.from_pandas(s)
    pd.testing.assert_series_equal(shift(e, periods).to_pandas(), s.shift(periods))
    pd.testing.assert_series_equal(diff(e, periods).to_pandas(), s.diff(periods))
    pd.testing.assert_series_equal(pct_change(e, periods).to_pandas(), s.pct_change(periods))


def test_shift_frame_fill_value_and_freq():
    df = _frame()
    e = ember.from_pandas(df.drop(columns="c"))
    pd.testing.assert_frame_equal(shift(e, 2).to_pandas(), df.drop(columns="c").shift(2))
    s = _series()
    pd.testing.assert_series_equal(
        shift(ember.from_pandas(s), 1, fill_value=0.0).to_pandas(), s.shift(1, fill_value=0.0)
    )
    pd.testing.assert_series_equal(
        shift(ember.from_pandas(s), 3, freq="min").to_pandas(), s.shift(3, freq="min"), check_freq=False
    )


@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8", "bool", "float32", "Int64", "boolean", "str"])
@pytest.mark.parametrize("fill_value", [2, True, 2.5, "x"])
def test_shift_empty_with_fill_value_casts_as_a_filled_one(dtype, fill_value):
    # pandas casts for the fill value before moving rows: an empty Series takes the dtype a filled one has
    s = pd.Series([], dtype=dtype)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = s.shift(2, fill_value=fill_value)
    except Exception as exc:  # noqa: BLE001 - then ember raises it too
        with pytest.raises(type(exc)):
            shift(ember.from_pandas(s), 2, fill_value=fill_value)
        return
    try:
        got = shift(ember.from_pandas(s), 2, fill_value=fill_value)
    except NotImplementedError:  # refused as for a non-empty column (a value of another kind)
        assert want.dtype == object or isinstance(want.dtype, pd.StringDtype)
        return
    pd.testing.assert_series_equal(got.to_pandas(), want)


def test_diff_datetime():
    s = pd.Series(pd.to_datetime(["2020-01-01", None, "2020-01-05", "2020-02-01"]))
    pd.testing.assert_series_equal(diff(ember.from_pandas(s)).to_pandas(), s.diff())


@pytest.mark.parametrize("method", [None, "ffill", "bfill"])
@pytest.mark.parametrize("freq", ["D", "12h", "W"])
def test_asfreq(method, freq):
    s = pd.Series(
        [1.0, 2.0, np.nan, 4.0],
        index=pd.to_datetime(["2020-01-01", "2020-01-03", "2020-01-06", "2020-01-20"]),
    )
    pd.testing.assert_series_equal(
        asfreq(ember.from_pandas(s), freq, method=method).to_pandas(),
        s.asfreq(freq, method=method),
        check_freq=False,
    )


def test_asfreq_fill_value_frame():
    df = pd.DataFrame({"a": [1, 2, 3]}, index=pd.to_datetime(["2020-01-01", "2020-01-03", "2020-01-04"]))
    pd.testing.assert_frame_equal(
        asfreq(ember.from_pandas(df), "D", fill_value=0).to_pandas(),
        df.asfreq("D", fill_value=0),
        check_freq=False,
    )
