"""Resampler.ffill / bfill / nearest / asfreq / interpolate / quantile against the same calls on pandas
objects: up- and downsampling, gaps, closed / label, limit, errors."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import ember
from ember.testing import assert_eq

PANDAS_31 = tuple(int(p) for p in pd.__version__.split(".")[:2]) >= (3, 1)

_TIMES = [
    "2021-01-01 00:10",
    "2021-01-01 02:40",
    "2021-01-01 03:00",
    "2021-01-02 05:20",
    "2021-01-03 23:30",
    "2021-01-04 00:00",
]


def _series() -> pd.Series:
    idx = pd.DatetimeIndex(_TIMES, name="when")
    return pd.Series([1.0, np.nan, 3.0, 4.0, 5.0, np.nan], index=idx, name="x")


def _frame() -> pd.DataFrame:
    idx = pd.DatetimeIndex(_TIMES)
    return pd.DataFrame({"i": [1, 2, 3, 4, 5, 6], "f": [1.5, np.nan, 2.5, 3.5, np.nan, 0.25]}, index=idx)


def _check(obj: pd.Series | pd.DataFrame, rule: str, fn: str, closed=None, label=None, **kw) -> None:
    """ember's answer equals pandas' exactly (ember's indexes carry no freq)."""
    want = getattr(obj.resample(rule, closed=closed, label=label), fn)(**kw)
    got = getattr(ember.from_pandas(obj).resample(rule, closed=closed, label=label), fn)(**kw)
    assert_eq(got, want, check_freq=False, check_exact=True)


METHODS = [
    ("ffill", {}),
    ("bfill", {}),
    ("nearest", {}),
    ("asfreq", {}),
    ("interpolate", {}),
    ("quantile", {}),
    ("quantile", {"q": 0.3}),
]
# 'D' and '2h' downsample, 'h' and '30min' upsample the gaps (rows from 20 minutes to 2 days apart)
RULES = ["D", "h", "30min", "2h"]


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize(("method", "kw"), METHODS)
@pytest.mark.parametrize("make", [_series, _frame])
def test_methods(make, method, kw, rule):
    _check(make(), rule, method, **kw)


@pytest.mark.parametrize(("closed", "label"), [("right", None), ("left", "right"), ("right", "left")])
@pytest.mark.parametrize("method", ["ffill", "bfill", "nearest", "asfreq", "interpolate", "quantile"])
@pytest.mark.parametrize("rule", ["D", "h"])
def test_closed_label(rule, method, closed, label):
    # pandas reindexes to the bins' edges on the closed side, whatever the label
    if not PANDAS_31 and rule == "D" and closed == "right":
        pytest.skip("pandas 3.0 places daily bins closed on the right otherwise (ember follows 3.1)")
    _check(_frame(), rule, method, closed=closed, label=label)


@pytest.mark.parametrize("rule", ["ME", "MS", "W"])
@pytest.mark.parametrize("method", ["ffill", "bfill", "nearest", "asfreq", "interpolate", "quantile"])
def test_calendar_rules(rule, method):
    _check(_series(), rule, method)


@pytest.mark.parametrize("limit", [1, 2, 100])
@pytest.mark.parametrize("method", ["ffill", "bfill", "nearest"])
@pytest.mark.parametrize("rule", ["h", "30min", "D"])
def test_limit(rule, method, limit):
    _check(_frame(), rule, method, limit=limit)


def test_nearest_tie_takes_the_later_row():
    s = pd.Series([1, 2], index=pd.DatetimeIndex(["2021-01-01 00:00", "2021-01-01 01:00"]))
    _check(s, "30min", "nearest")
    _check(s, "20min", "nearest", limit=1)


@pytest.mark.parametrize(
    "kw",
    [
        {"method": "time"},
        {"method": "index"},
        {"method": "values"},
        {"limit": 1},
        {"limit": 2, "limit_direction": "backward"},
        {"limit": 1, "limit_direction": "both"},
        {"limit_direction": "both"},
        {"limit_area": "inside"},
        {"limit_area": "outside", "limit_direction": "both"},
    ],
)
@pytest.mark.parametrize("rule", ["h", "30min", "D"])
def test_interpolate_options(rule, kw):
    _check(_frame(), rule, "interpolate", **kw)
    _check(_series(), rule, "interpolate", **kw)


@pytest.mark.parametrize("fill_value", [0, -1.5])
def test_asfreq_fill_value(fill_value):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pandas warns of the int column's cast to float
        _check(_frame(), "h", "asfreq", fill_value=fill_value)
        _check(_series(), "30min", "asfreq", fill_value=fill_value)


@pytest.mark.parametrize("method", ["ffill", "bfill", "nearest", "asfreq", "interpolate", "quantile"])
def test_int_column_keeps_its_dtype_where_every_label_has_a_row(method):
    idx = pd.date_range("2021-01-01", periods=6, freq="30min")
    df = pd.DataFrame({"i": np.arange(6), "f": np.linspace(0, 1, 6)}, index=idx)
    _check(df, "h", method)  # every hourly edge is a row
    _check(df, "30min", method)  # the rows are the edges


def test_unsorted_index_and_float32():
    s = _series().astype(np.float32).iloc[[3, 0, 5, 1, 4, 2]]
    for method in ("ffill", "bfill", "nearest", "asfreq", "interpolate", "quantile"):
        _check(s, "h", method)
        _check(s, "D", method)


def test_other_dtypes():
    idx = pd.DatetimeIndex(_TIMES[:3])
    for s in (
        pd.Series([True, False, True], index=idx),
        pd.Series([1, None, 3], index=idx, dtype="Int64"),
        pd.Series(["a", "b", None], index=idx),
    ):
        for method in ("ffill", "bfill", "nearest", "asfreq"):
            _check(s, "h", method)


@pytest.mark.parametrize("method", ["ffill", "bfill", "nearest", "asfreq", "interpolate", "quantile"])
@pytest.mark.parametrize("dtype", ["float64", "int64"])
def test_empty(method, dtype):
    s = pd.Series([], dtype=dtype, index=pd.DatetimeIndex([], name="w"), name="n")
    _check(s, "D", method)
    _check(pd.DataFrame({"a": s}), "h", method)


def test_utc_index():
    s = _series().tz_localize("UTC")
    for method in ("ffill", "bfill", "nearest", "asfreq", "interpolate", "quantile"):
        _check(s, "h", method)
        _check(s, "D", method)


def _raises_as_pandas(obj, rule, fn, resample_kw=None, **kw):
    resample_kw = resample_kw or {}
    with pytest.raises(Exception) as want:
        getattr(obj.resample(rule, **resample_kw), fn)(**kw)
    with pytest.raises(want.type) as got:
        getattr(ember.from_pandas(obj).resample(rule, **resample_kw), fn)(**kw)
    assert str(got.value) == str(want.value)


def test_errors():
    dup = pd.Series([1.0, 2.0, 3.0], index=pd.DatetimeIndex(_TIMES[:2] + _TIMES[1:2]))
    for method in ("ffill", "bfill", "nearest", "asfreq", "interpolate"):
        _raises_as_pandas(dup, "h", method)
    s = _series()
    for limit in (0, -1, 1.5):
        for method in ("ffill", "bfill", "nearest", "interpolate"):
            _raises_as_pandas(s, "h", method, limit=limit)
    _raises_as_pandas(s, "h", "interpolate", limit_direction="sideways")
    _raises_as_pandas(s, "h", "interpolate", limit_area="middle")
    _raises_as_pandas(s, "h", "interpolate", method="foo")
    _raises_as_pandas(s, "h", "quantile", q=1.5)
    _raises_as_pandas(s.astype(bool), "h", "quantile")
    _raises_as_pandas(s.astype(str), "h", "quantile")
    df = _frame().reset_index(names="t")
    for method in ("ffill", "bfill", "nearest", "asfreq", "interpolate"):
        _raises_as_pandas(df, "h", method, resample_kw={"on": "t"})


def test_quantile_on_column():
    df = _frame().reset_index(names="t")
    want = df.resample("h", on="t").quantile(0.25)
    got = ember.from_pandas(df).resample("h", on="t").quantile(0.25)
    assert_eq(got, want, check_freq=False, check_exact=True)


def test_unsupported():
    e = ember.from_pandas(_series())
    with pytest.raises(NotImplementedError, match="interpolate"):
        e.resample("h").interpolate(method="cubic")
    with pytest.raises(NotImplementedError, match="quantile"):
        e.resample("h").quantile([0.25, 0.5])
    with pytest.raises(NotImplementedError, match="quantile"):
        e.resample("h").quantile(0.5, interpolation="lower")
    with pytest.raises(NotImplementedError, match="interpolate"):
        ember.from_pandas(_series().astype("Float64")).resample("h").interpolate()
    utc = ember.from_pandas(_series().tz_localize("UTC"))
    with pytest.raises(NotImplementedError, match="tz-aware"):
        utc.resample("D", closed="right").ffill()
    nat = ember.from_pandas(pd.Series([1.0, 2.0], index=pd.DatetimeIndex(["2021-01-01", None])))
    with pytest.raises(NotImplementedError, match="NaT"):
        nat.resample("h").ffill()
