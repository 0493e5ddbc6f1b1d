"""ops.window kernels against pandas' rolling / expanding / ewm (pandas computes the expected values)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ember
from ember.column import from_pandas
from ember.ops import window as W

OPS = ["sum", "mean", "count", "min", "max", "var", "std", "median"]


def _xp():
    return ember.backend.xp()


def _col(s: pd.Series):
    return from_pandas(s, _xp())


def _host(a):
    return ember.backend.to_host(a)


def _fixed(
    s: pd.Series,
    window: int,
    op: str,
    min_periods: int,
    center: bool = False,
    closed: str | None = None,
    **kw,
):
    start, end = W.rolling_bounds(len(s), window, center, closed, _xp())
    return _host(W.window_aggregate(W.Windows(_col(s), start, end), op, min_periods, **kw).data)


def _check(got, expected: pd.Series) -> None:
    np.testing.assert_allclose(got, expected.to_numpy(dtype=np.float64), rtol=1e-9, atol=1e-9, equal_nan=True)


@pytest.fixture
def series() -> pd.Series:
    rng = np.random.default_rng(0)
    x = rng.normal(size=60)
    x[[0, 4, 9, 10, 33]] = np.nan
    return pd.Series(x)


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("window", [1, 2, 5])
@pytest.mark.parametrize("center", [False, True])
@pytest.mark.parametrize("closed", ["right", "left", "both", "neither"])
def test_fixed_windows(series, op, window, center, closed):
    mp = 1
    expected = getattr(series.rolling(window, min_periods=mp, center=center, closed=closed), op)()
    _check(_fixed(series, window, op, mp, center, closed), expected)


@pytest.mark.parametrize("op", OPS)
def test_default_min_periods(series, op):
    _check(_fixed(series, 4, op, 4), getattr(series.rolling(4), op)())


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "uint64", "float32", "bool"])
@pytest.mark.parametrize("op", ["sum", "mean", "min", "max", "var", "median"])
def test_dtypes(dtype, op):
    rng = np.random.default_rng(1)
    s = pd.Series(rng.integers(0, 50, 40)).astype(dtype)
    _check(_fixed(s, 3, op, 3), getattr(s.rolling(3), op)())


@pytest.mark.parametrize("op", ["sum", "mean", "min", "max", "count", "std"])
def test_nullable_int(op):
    s = pd.Series([1, None, 3, 4, None, None, 7, 8], dtype="Int64")
    _check(_fixed(s, 3, op, 1), getattr(s.rolling(3, min_periods=1), op)())


def test_integer_sums_exact():
    s = pd.Series(np.arange(2**52, 2**52 + 20, dtype=np.int64))
    got = _fixed(s, 3, "sum", 3)
    assert (got[2:] == s.rolling(3).sum().to_numpy()[2:]).all()


def test_constant_windows_give_zero_variance():
    s = pd.Series([1e9 + 0.1] * 6 + [5.0, 5.0, 5.0])
    _check(_fixed(s, 3, "var", 3), s.rolling(3).var())
    assert _fixed(s, 3, "var", 3)[-1] == 0.0
    _check(_fixed(s, 3, "mean", 3), s.rolling(3).mean())


def test_infinities():
    s = pd.Series([1.0, np.inf, 2.0, -np.inf, 3.0, 4.0, 5.0])
    for op in ["sum", "mean", "min", "max"]:
        _check(_fixed(s, 2, op, 1), getattr(s.rolling(2, min_periods=1), op)())


@pytest.mark.parametrize("q", [0.0, 0.1, 0.5, 0.75, 1.0])
@pytest.mark.parametrize("interpolation", ["linear", "lower", "higher", "midpoint", "nearest"])
def test_quantile(series, q, interpolation):
    expected = series.rolling(5, min_periods=2).quantile(q, interpolation=interpolation)
    _check(_fixed(series, 5, "quantile", 2, q=q, interpolation=interpolation), expected)


def test_empty_and_one_row():
    for n in (0, 1):
        s = pd.Series(np.arange(n, dtype=float))
        for op in OPS:
            _check(_fixed(s, 3, op, 1), getattr(s.rolling(3, min_periods=1), op)())


def test_all_missing():
    s = pd.Series([np.nan] * 5)
    for op in OPS:
        _check(_fixed(s, 2, op, 1), getattr(s.rolling(2, min_periods=1), op)())


@pytest.mark.parametrize("window", ["1s", "3s", "10s"])
@pytest.mark.parametrize("center", [False, True])
@pytest.mark.parametrize("closed", ["right", "left", "both", "neither"])
def test_time_windows(series, window, center, closed):
    rng = np.random.default_rng(5)
    idx = pd.DatetimeIndex(pd.to_datetime(np.sort(rng.integers(0, 100, len(series))), unit="s")).as_unit("ns")
    s = series.set_axis(idx)
    ticks = ember.backend.asarray_on(idx.asi8, _xp())
    for bounds in (
        W.time_bounds(ticks, pd.Timedelta(window).value, center, closed),
        W.grouped_time_bounds(
            _xp().zeros(len(s), dtype=np.int64), ticks, pd.Timedelta(window).value, center, closed
        ),
    ):
        win = W.Windows(_col(series), *bounds)
        for op in ["sum", "max", "median", "count", "var"]:
            expected = getattr(s.rolling(window, center=center, closed=closed), op)()
            _check(_host(W.window_aggregate(win, op, 1).data), expected)


@pytest.mark.parametrize("op", ["sum", "mean", "min", "max", "var", "count"])
def test_expanding(series, op):
    start, end = W.expanding_bounds(len(series), _xp())
    got = _host(W.window_aggregate(W.Windows(_col(series), start, end, expanding=True), op, 1).data)
    _check(got, getattr(series.expanding(), op)())


@pytest.mark.parametrize(
    "func", [np.sum, np.nansum, np.mean, np.nanmax, np.min, np.median, np.std, np.nanvar]
)
def test_apply_numpy_reductions(series, func):
    start, end = W.rolling_bounds(len(series), 3, xp=_xp())
    got = _host(W.apply_reduction(W.Windows(_col(series), start, end), func, 2).data)
    _check(got, series.rolling(3, min_periods=2).apply(func, raw=True))


def test_apply_rejects_other_callables(series):
    start, end = W.rolling_bounds(len(series), 3, xp=_xp())
    with pytest.raises(NotImplementedError, match="rolling apply"):
        W.apply_reduction(W.Windows(_col(series), start, end), lambda a: a[0], 1)


def test_quantile_window_limit():
    s = pd.Series(np.arange(10, dtype=float))
    start = _xp().zeros(10, dtype=np.int64)
    end = _xp().full(10, W.MAX_SORT_WINDOW + 1, dtype=np.int64)
    with pytest.raises(NotImplementedError, match="longer than"):
        W.window_quantile(_col(s).data, start, end, end, 0.5)


@pytest.mark.parametrize("adjust", [True, False])
@pytest.mark.parametrize("ignore_na", [True, False])
@pytest.mark.parametrize("op", ["mean", "var", "std", "sum"])
def test_ewm(series, adjust, ignore_na, op):
    if op == "sum" and not adjust:
        with pytest.raises(NotImplementedError):
            W.ewm_aggregate(_col(series), op, 0.3, adjust, ignore_na)
        return
    expected = getattr(series.ewm(alpha=0.3, adjust=adjust, ignore_na=ignore_na, min_periods=2), op)()
    _check(_host(W.ewm_aggregate(_col(series), op, 0.3, adjust, ignore_na, 2).data), expected)


def test_ewm_bias_and_long_series():
    rng = np.random.default_rng(2)
    s = pd.Series(rng.normal(size=5000) + 100.0)
    _check(
        _host(W.ewm_aggregate(_col(s), "var", 0.01, True, False, 0, bias=True).data),
        s.ewm(alpha=0.01).var(bias=True),
    )
    _check(_host(W.ewm_aggregate(_col(s), "mean", 0.9999, True).data), s.ewm(alpha=0.9999).mean())


@pytest.mark.parametrize(
    ("kw", "alpha"),
    [({"com": 1.0}, 0.5), ({"span": 3}, 0.5), ({"halflife": 1.0}, 0.5), ({"alpha": 0.2}, 0.2)],
)
def test_ewm_alpha(kw, alpha):
    assert W.ewm_alpha(**kw) == pytest.approx(alpha)


def test_ewm_alpha_errors():
    with pytest.raises(ValueError, match="mutually exclusive"):
        W.ewm_alpha(com=1, span=2)
    with pytest.raises(ValueError, match="Must pass"):
        W.ewm_alpha()
    with pytest.raises(ValueError, match="alpha"):
        W.ewm_alpha(alpha=1.5)


def test_linear_scan():
    rng = np.random.default_rng(3)
    a, b = rng.uniform(0, 1, 37), rng.normal(size=37)
    y, expected = 0.0, []
    for ai, bi in zip(a, b, strict=True):
        y = ai * y + bi
        expected.append(y)
    np.testing.assert_allclose(_host(W.linear_scan(_xp().asarray(a), _xp().asarray(b))), expected, rtol=1e-12)


@settings(max_examples=60, deadline=None)
@given(
    values=st.lists(st.one_of(st.none(), st.integers(-1000, 1000)), min_size=0, max_size=40),
    window=st.integers(1, 8),
    min_periods=st.integers(0, 8),
    center=st.booleans(),
    op=st.sampled_from(OPS),
)
def test_fixed_windows_hypothesis(values, window, min_periods, center, op):
    min_periods = min(min_periods, window)
    s = pd.Series([np.nan if v is None else v / 7.0 for v in values], dtype=float)
    expected = getattr(s.rolling(window, min_periods=min_periods, center=center), op)()
    _check(_fixed(s, window, op, min_periods, center), expected)


@settings(max_examples=40, deadline=None)
@given(
    gaps=st.lists(st.integers(0, 5), min_size=1, max_size=30),
    window=st.integers(1, 12),
    closed=st.sampled_from(["right", "left", "both", "neither"]),
    op=st.sampled_from(["sum", "min", "count", "median"]),
)
def test_time_windows_hypothesis(gaps, window, closed, op):
    ticks = np.cumsum(gaps).astype(np.int64)
    idx = pd.DatetimeIndex(ticks.astype("datetime64[s]")).as_unit("s")
    s = pd.Series(np.arange(len(ticks), dtype=float) * 1.5, index=idx)
    start, end = W.time_bounds(ember.backend.asarray_on(ticks, _xp()), window, False, closed)
    got = _host(W.window_aggregate(W.Windows(_col(s.reset_index(drop=True)), start, end), op, 1).data)
    _check(got, getattr(s.rolling(f"{window}s", closed=closed), op)())


@pytest.mark.parametrize("op", ["mean", "var", "std"])
def test_windows_whose_valid_values_are_equal_are_exact(op):
    """Missing rows do not break a run of equal values: pandas' mean is the value and its variance
    exactly 0 there (the sums of shifted squares alone leave ~1e-9 after cancellation)."""
    s = pd.Series([4, None, -1, -1, 1000, None, 1000, 0.1, 0.1, None, 0.1])
    got = _fixed(s, 3, op, 0, False)
    expected = getattr(s.rolling(3, min_periods=0), op)().to_numpy()
    constant = [3, 6, 9, 10]  # windows [None, -1, -1], [1000, None, 1000], [0.1, 0.1, None], [0.1, None, 0.1]
    np.testing.assert_array_equal(np.asarray(got)[constant], expected[constant])
