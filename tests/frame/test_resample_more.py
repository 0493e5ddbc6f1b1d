"""resample with origin / offset, the group-wise resample of a GroupBy, Resampler.pipe, and the index
time-zone methods of DataFrame / Series (tz_localize / tz_convert), against the same calls on pandas."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import ember
from ember._compat import PANDAS_31
from ember.testing import assert_eq

ORIGINS = ["epoch", "start", "start_day", "end", "end_day", "2000-01-01 00:03"]


def _eq(got, want) -> None:
    assert_eq(got, want, check_freq=False)


def _series(tz=None, dtype="float64") -> pd.Series:
    idx = pd.date_range("2000-10-01 23:30", "2000-10-02 00:30", freq="7min", tz=tz, name="t")
    values = pd.array([1, None, 3, 4, 5, None, 7, 8, 9], dtype=dtype)
    return pd.Series(values, index=idx, name="x")


def _origin(origin, tz):
    return pd.Timestamp(origin, tz=tz) if origin not in ORIGINS[:5] else origin


# --- origin / offset ------------------------------------------------------------------------------


@pytest.mark.parametrize("origin", ORIGINS)
@pytest.mark.parametrize("closed", ["left", "right"])
@pytest.mark.parametrize("label", ["left", "right"])
@pytest.mark.parametrize("offset", [None, "23h30min", "-2min"])
def test_origin_offset_series(origin, closed, label, offset):
    for tz in (None, "UTC"):
        s = _series(tz)
        kw = dict(closed=closed, label=label, origin=_origin(origin, tz), offset=offset)
        try:
            want = s.resample("17min", **kw)
            want.sum()
        except ValueError as err:  # an 'end' origin moved past the first time
            with pytest.raises(ValueError, match=str(err)):
                ember.from_pandas(s).resample("17min", **kw).sum()
            continue
        got = ember.from_pandas(s).resample("17min", **kw)
        for fn in ("sum", "mean", "count", "size", "min", "max", "first", "last"):
            _eq(getattr(got, fn)(), getattr(want, fn)())
        _eq(got.ffill(), want.ffill())
        _eq(got.asfreq(), want.asfreq())


@pytest.mark.parametrize("dtype", ["int64", "Int64", "Float64", "float64"])
@pytest.mark.parametrize("origin", ORIGINS)
def test_origin_frame_dtypes_and_on(dtype, origin):
    s = _series(dtype="Int64" if dtype == "int64" else dtype)
    if dtype == "int64":
        s = s.fillna(0).astype("int64")
    df = pd.DataFrame({"v": s, "w": np.arange(9.0), "b": [True, False] * 4 + [True]})
    e = ember.from_pandas(df)
    for rule in ("17min", "h", "2D", "90s"):
        offset = "1min"
        if rule == "2D" and not PANDAS_31 and origin in ("end", "end_day"):
            # pandas 3.0 bins its calendar Day closed on the right from the midnight before: refused
            with pytest.raises(NotImplementedError):
                e.resample(rule, origin=_origin(origin, None), offset=offset).sum()
            continue
        want = df.resample(rule, origin=_origin(origin, None), offset=offset)
        got = e.resample(rule, origin=_origin(origin, None), offset=offset)
        _eq(got.sum(), want.sum())
        _eq(got.max(), want.max())
    flat = df.reset_index()
    want = flat.resample("17min", on="t", origin=_origin(origin, None)).sum()
    _eq(ember.from_pandas(flat).resample("17min", on="t", origin=_origin(origin, None)).sum(), want)


def test_origin_empty_bins_and_missing_times():
    idx = pd.DatetimeIndex(["2021-01-01 00:01", "NaT", "2021-01-01 09:50", "2021-01-01 00:02"])
    s = pd.Series([1.0, 2.0, np.nan, 4.0], index=idx)
    for origin in ORIGINS[:5]:
        for offset in ("7min", "-7min"):
            _check_or_raise(s, "45min", origin=origin, offset=offset)


def _check_or_raise(s, rule, **kw) -> None:
    try:
        want = s.resample(rule, **kw)
        want.sum()
    except ValueError as err:  # pandas' "Values falls before first bin"
        with pytest.raises(ValueError, match=str(err)):
            ember.from_pandas(s).resample(rule, **kw).sum()
        return
    got = ember.from_pandas(s).resample(rule, **kw)
    for fn in ("sum", "count", "max", "first"):
        _eq(getattr(got, fn)(), getattr(want, fn)())


def test_origin_empty_series():
    s = pd.Series([], dtype="float64", index=pd.DatetimeIndex([], dtype="datetime64[ns]"))
    for origin in ("epoch", "end"):
        _eq(
            ember.from_pandas(s).resample("17min", origin=origin).sum(),
            s.resample("17min", origin=origin).sum(),
        )


def test_origin_units():
    s = _series()
    s.index = s.index.as_unit("s")
    for origin in ORIGINS:
        offset = "30s"
        want = s.resample("17min", origin=origin, offset=offset).sum()
        _eq(ember.from_pandas(s).resample("17min", origin=origin, offset=offset).sum(), want)


def test_origin_ignored_for_calendar_rules():
    s = pd.Series(np.arange(60.0), index=pd.date_range("2000-01-01", periods=60, freq="D"))
    with pytest.warns(RuntimeWarning):
        want = s.resample("ME", origin="epoch").sum()
    with pytest.warns(RuntimeWarning):
        got = ember.from_pandas(s).resample("ME", origin="epoch").sum()
    _eq(got, want)


def test_origin_bad_arguments():
    s = _series()
    e = ember.from_pandas(s)
    for kw in ({"origin": "nope"}, {"offset": "nope"}, {"origin": pd.Timestamp("2000-01-01", tz="UTC")}):
        with pytest.raises(ValueError) as want:
            s.resample("17min", **kw)
        with pytest.raises(ValueError, match=str(want.value)[:30]):
            e.resample("17min", **kw)


def test_origin_refused_tz_aware_day_rule():
    s = _series("UTC")
    if not PANDAS_31:  # pandas 3.0's Day is a calendar offset: origin ignored with a warning
        with pytest.warns(RuntimeWarning):
            got = ember.from_pandas(s).resample("D", origin="epoch").sum()
        with pytest.warns(RuntimeWarning):
            _eq(got, s.resample("D", origin="epoch").sum())
        return
    with pytest.raises(NotImplementedError):
        ember.from_pandas(s).resample("D", origin="epoch")


# --- groupby().resample ---------------------------------------------------------------------------


def _grouped_frame() -> pd.DataFrame:
    idx = pd.DatetimeIndex(
        [
            "2000-01-01 00:00",
            "2000-01-01 00:20",
            "2000-01-01 01:10",
            "2000-01-01 05:50",
            "NaT",
            "2000-01-03 00:00",
        ],
        name="t",
    )
    return pd.DataFrame(
        {
            "a": [1, 2, 1, 2, 1, 1],
            "b": [1.0, 2.0, 3.0, np.nan, 5.0, 6.0],
            "i": pd.array([1, None, 3, 4, 5, 6], dtype="Int64"),
            "s": ["x", "y", None, "x", "y", "z"],
        },
        index=idx,
    )


@pytest.mark.parametrize("rule", ["2h", "3min", "D", "ME", "W"])
@pytest.mark.parametrize("fn", ["mean", "count", "size", "min", "max", "first", "last"])
def test_groupby_resample(rule, fn):
    df = _grouped_frame()
    e = ember.from_pandas(df)
    if fn == "mean":
        df, e = df[["a", "b", "i"]], e[["a", "b", "i"]]
    _eq(getattr(e.groupby("a").resample(rule), fn)(), getattr(df.groupby("a").resample(rule), fn)())
    _eq(getattr(e.groupby("a")["b"].resample(rule), fn)(), getattr(df.groupby("a")["b"].resample(rule), fn)())


@pytest.mark.parametrize("closed", ["left", "right"])
@pytest.mark.parametrize("label", ["left", "right"])
@pytest.mark.parametrize("origin", ["start_day", "epoch", "start", "end"])
def test_groupby_resample_closed_label_origin(closed, label, origin):
    df = _grouped_frame()[["a", "b", "i"]]
    kw = dict(closed=closed, label=label, origin=origin)
    e = ember.from_pandas(df)
    _eq(e.groupby("a").resample("50min", **kw).sum(), df.groupby("a").resample("50min", **kw).sum())
    _eq(e.groupby("a").resample("50min", **kw).agg("max"), df.groupby("a").resample("50min", **kw).agg("max"))


def test_groupby_resample_on_and_keys():
    df = _grouped_frame()[["a", "b", "i"]].reset_index()
    df["k"] = ["p", "q", "p", None, "q", "p"]
    e = ember.from_pandas(df)
    nums, enums = df.drop(columns="k"), e.drop(columns="k")
    _eq(enums.groupby("a").resample("2h", on="t").sum(), nums.groupby("a").resample("2h", on="t").sum())
    _eq(e.groupby("k").resample("2h", on="t").max(), df.groupby("k").resample("2h", on="t").max())
    if PANDAS_31:  # pandas 3.0 fails on this one ('NaTType' object has no attribute 'normalize')
        _eq(
            e.groupby(["k", "a"]).resample("h", on="t").mean(),
            df.groupby(["k", "a"]).resample("h", on="t").mean(),
        )


def test_groupby_resample_pipe_and_utc():
    df = _grouped_frame()[["a", "b"]]
    df.index = df.index.tz_localize("UTC")
    e = ember.from_pandas(df)
    want = df.groupby("a").resample("2h").pipe(lambda r: r.max())
    _eq(e.groupby("a").resample("2h").pipe(lambda r: r.max()), want)


def test_groupby_resample_refusals():
    df = _grouped_frame()[["a", "b"]]
    e = ember.from_pandas(df)
    with pytest.raises(NotImplementedError):
        e.groupby("a").resample("2h").ffill()
    with pytest.raises(KeyError):
        e.groupby("a").resample("2h", on="zz")
    with pytest.raises(ValueError):
        df.groupby("a").resample("2h", include_groups=True)
    with pytest.raises(ValueError):
        e.groupby("a").resample("2h", include_groups=True)


def test_resampler_pipe():
    s = _series()
    e = ember.from_pandas(s)
    _eq(
        e.resample("17min").pipe(lambda r, k: r.sum() + k, 2),
        s.resample("17min").pipe(lambda r, k: r.sum() + k, 2),
    )

    def f(x, *, r):
        return r.max() * x

    _eq(e.resample("h").pipe((f, "r"), 3), s.resample("h").pipe((f, "r"), 3))


# --- tz_localize / tz_convert ---------------------------------------------------------------------


def test_tz_localize_series_and_frame():
    idx = pd.DatetimeIndex(["2018-10-28 01:30", "2018-10-28 02:00", "2018-10-28 03:00", "NaT"])
    s = pd.Series([1, 2, 3, 4], index=idx, name="x")
    df = pd.DataFrame({"x": [1.0, None, 3.0, 4.0], "s": list("abcd")}, index=idx)
    for obj in (s, df):
        e = ember.from_pandas(obj)
        _eq(e.tz_localize("UTC"), obj.tz_localize("UTC"))
        _eq(e.tz_localize("CET", ambiguous="NaT"), obj.tz_localize("CET", ambiguous="NaT"))
        flags = np.array([True, True, False, False])
        _eq(e.tz_localize("CET", ambiguous=flags), obj.tz_localize("CET", ambiguous=flags))
        with pytest.raises(Exception) as want:
            obj.tz_localize("CET")
        with pytest.raises(type(want.value)):
            e.tz_localize("CET")
        aware = obj.tz_localize("UTC")
        ea = ember.from_pandas(aware)
        _eq(ea.tz_convert("US/Eastern"), aware.tz_convert("US/Eastern"))
        _eq(ea.tz_localize(None), aware.tz_localize(None))


def test_tz_localize_nonexistent():
    idx = pd.DatetimeIndex(["2015-03-29 02:30:00", "2015-03-29 03:30:00"])
    s = pd.Series(range(2), index=idx)
    e = ember.from_pandas(s)
    for how in ("shift_forward", "shift_backward", "NaT"):
        _eq(e.tz_localize("Europe/Warsaw", nonexistent=how), s.tz_localize("Europe/Warsaw", nonexistent=how))


def test_tz_errors():
    s = pd.Series([1, 2], index=[1, 2])
    e = ember.from_pandas(s)
    with pytest.raises(TypeError):
        s.tz_localize("UTC")
    with pytest.raises(TypeError):
        e.tz_localize("UTC")
    with pytest.raises(TypeError):
        e.tz_convert("UTC")
    naive = pd.Series([1], index=pd.DatetimeIndex(["2020-01-01"]))
    with pytest.raises(TypeError):
        naive.tz_convert("UTC")
    with pytest.raises(TypeError):
        ember.from_pandas(naive).tz_convert("UTC")
    with pytest.raises(NotImplementedError):
        ember.from_pandas(naive.to_frame()).tz_localize("UTC", axis=1)
    empty = pd.Series([], dtype="int64", index=pd.DatetimeIndex([]))
    _eq(ember.from_pandas(empty).tz_localize("UTC"), empty.tz_localize("UTC"))
