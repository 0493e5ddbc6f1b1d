"""groupby with pd.Grouper / em.Grouper (key, level, freq), resample of rows out of time order,
bdate_range and date_range(freq='B'), interval_range / period_range refused — against pandas."""

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember._compat import PANDAS_31
from ember.testing import assert_eq

TIMES = ["2020-01-02", "2020-01-01", None, "2020-03-05", "2020-01-08", "2020-01-07"]


def _frame(v=None):
    return pd.DataFrame(
        {
            "t": pd.to_datetime(TIMES),
            "v": [1, 2, 3, 4, 5, 6] if v is None else v,
            "f": [1.5, np.nan, 3.0, 4.0, 5.0, 6.0],
            "k": list("abaabb"),
        }
    )


def _same(got, want):
    if isinstance(want, pd.Index):  # ember's indexes keep no freq
        assert_eq(got, pd.Index(list(want), dtype=want.dtype, name=want.name))
    else:
        assert_eq(got, want, check_freq=False)


def test_grouper_is_pandas_grouper():
    assert em.Grouper is pd.Grouper
    assert isinstance(em.Grouper(key="t", freq="2D"), pd.Grouper)


@pytest.mark.parametrize("freq", ["2D", "D", "12h", "ME", "W", "MS"])
@pytest.mark.parametrize(
    "op", ["sum", "mean", "max", "min", "count", "first", "last", "size", "std", "nunique"]
)
def test_freq_grouper_key_alone_is_resample(freq, op):
    df = _frame()
    e = em.from_pandas(df)
    want = getattr(df.groupby(pd.Grouper(key="t", freq=freq))[["v", "f"]], op)()
    got = getattr(e.groupby(em.Grouper(key="t", freq=freq))[["v", "f"]], op)()
    _same(got, want)
    _same(
        getattr(e.groupby(em.Grouper(key="t", freq=freq)).v, op)(),
        getattr(df.groupby(pd.Grouper(key="t", freq=freq)).v, op)(),
    )


def test_freq_grouper_on_index_frame_and_series():
    df = _frame().set_index("t")
    e = em.from_pandas(df)
    _same(e.groupby(pd.Grouper(freq="W")).v.mean(), df.groupby(pd.Grouper(freq="W")).v.mean())
    _same(e.v.groupby(pd.Grouper(freq="ME")).sum(), df.v.groupby(pd.Grouper(freq="ME")).sum())
    _same(
        e.groupby(pd.Grouper(level="t", freq="2D")).f.sum(),
        df.groupby(pd.Grouper(level="t", freq="2D")).f.sum(),
    )
    _same(e.groupby(pd.Grouper(level=0, freq="2D")).size(), df.groupby(pd.Grouper(level=0, freq="2D")).size())
    _same(
        e[["v", "f"]].groupby(pd.Grouper(freq="2D")).agg(["sum", "max"]),
        df[["v", "f"]].groupby(pd.Grouper(freq="2D")).agg(["sum", "max"]),
    )


def test_freq_grouper_closed_label_origin():
    df = _frame()
    e = em.from_pandas(df)
    for kw in [
        dict(closed="right"),
        dict(label="right"),
        dict(origin="epoch"),
        dict(offset="6h"),
        dict(origin="end"),
    ]:
        g = dict(key="t", freq="2D", **kw)
        if not PANDAS_31 and "right" in (
            kw.get("closed"),
            "right" if "origin" in kw and kw["origin"] == "end" else 0,
        ):
            with pytest.raises(NotImplementedError):  # pandas 3.0 bins 'D' multiples by calendar days
                e.groupby(em.Grouper(**g)).v.sum()
            continue
        _same(e.groupby(em.Grouper(**g)).v.sum(), df.groupby(pd.Grouper(**g)).v.sum())


def test_freq_grouper_masked_and_bool_values():
    df = _frame()
    df["i"] = pd.array([1, None, 3, 4, None, 6], dtype="Int64")
    df["b"] = [True, False, True, False, True, True]
    e = em.from_pandas(df)
    for op in ["sum", "max", "first", "count"]:
        want = getattr(df.groupby(pd.Grouper(key="t", freq="2D"))[["i", "b"]], op)()
        _same(getattr(e.groupby(pd.Grouper(key="t", freq="2D"))[["i", "b"]], op)(), want)


def test_freq_grouper_empty_and_all_nat():
    df = _frame().iloc[:0]
    e = em.from_pandas(df)
    _same(e.groupby(pd.Grouper(key="t", freq="D")).v.sum(), df.groupby(pd.Grouper(key="t", freq="D")).v.sum())
    df = _frame()
    df["t"] = pd.NaT
    e = em.from_pandas(df)
    if not PANDAS_31:  # pandas 3.0 fails inside (AttributeError: NaT has no normalize)
        assert len(e.groupby(pd.Grouper(key="t", freq="D")).v.sum()) == 0
        return
    _same(e.groupby(pd.Grouper(key="t", freq="D")).v.sum(), df.groupby(pd.Grouper(key="t", freq="D")).v.sum())


@pytest.mark.parametrize("keys", [["k", "freq"], ["freq", "k"]])
@pytest.mark.parametrize("op", ["sum", "first", "last", "size", "mean"])
def test_freq_grouper_among_keys(keys, op):
    df = _frame()
    e = em.from_pandas(df)

    def by(mod):
        return [mod.Grouper(key="t", freq="ME") if k == "freq" else k for k in keys]

    _same(getattr(e.groupby(by(em)).v, op)(), getattr(df.groupby(by(pd)).v, op)())
    ix = df.set_index("t")
    by_index = [pd.Grouper(freq="ME") if k == "freq" else k for k in keys]
    _same(getattr(em.from_pandas(ix).groupby(by_index).f, op)(), getattr(ix.groupby(by_index).f, op)())


def test_plain_grouper_key_and_level():
    df = _frame()
    e = em.from_pandas(df)
    _same(e.groupby(em.Grouper(key="k")).v.sum(), df.groupby(pd.Grouper(key="k")).v.sum())
    ix = df.set_index("k")
    _same(
        em.from_pandas(ix).groupby(em.Grouper(level="k")).v.sum(), ix.groupby(pd.Grouper(level="k")).v.sum()
    )


def test_freq_grouper_errors_and_refusals():
    df = _frame()
    e = em.from_pandas(df)
    with pytest.raises(KeyError):
        df.groupby(pd.Grouper(key="nope", freq="D")).v.sum()
    with pytest.raises(KeyError):
        e.groupby(pd.Grouper(key="nope", freq="D")).v.sum()
    with pytest.raises(KeyError):
        e.v.groupby(pd.Grouper(key="t", freq="D")).sum()
    for call in [
        lambda: e.groupby(pd.Grouper(key="t", freq="D"), as_index=False).v.sum(),
        lambda: e.groupby(pd.Grouper(key="t", freq="D")).v.transform("sum"),
        lambda: e.groupby(pd.Grouper(key="t", freq="D")).v.cumsum(),
        lambda: e.groupby(pd.Grouper(key="t", freq="D")).v.ffill(),
        lambda: e.groupby(pd.Grouper(key="t", freq="D")).apply(len),
        lambda: e.groupby(["k", pd.Grouper(key="t", freq="D")], sort=False).v.sum(),
    ]:
        with pytest.raises(NotImplementedError):
            call()


def test_resample_rows_out_of_time_order():
    ser = pd.Series(
        [1, 2, 3, 4], index=pd.DatetimeIndex(["2023-02-01", "2023-01-01", "2023-01-03", "2023-01-02"])
    )
    e = em.from_pandas(ser)
    for op in ["first", "last", "sum"]:
        _same(getattr(e.resample("2D"), op)(), getattr(ser.resample("2D"), op)())
    _same(e.resample("2D").transform("first"), ser.resample("2D").transform("first"))
    assert e.resample("MS").groups == ser.resample("MS").groups
    _same(e.resample("MS").get_group("2023-01-01"), ser.resample("MS").get_group("2023-01-01"))
    _same(e.resample("12h").ffill(), ser.resample("12h").ffill())


# --- ranges --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kw",
    [
        dict(start="2020-01-04 10:00", periods=3, normalize=False),
        dict(start="2020-01-04 10:00", end="2020-01-10", tz="US/Eastern"),
        dict(end="2020-01-04 10:00", periods=3, freq="2B", normalize=False),
        dict(start="2020-01-01", end="2020-01-03", freq="h"),
        dict(start="2019-12-25", end="2020-02-03", name="d"),
        dict(start="2020-01-03", end="2020-01-06", inclusive="neither"),
        dict(start="2020-01-03", end="2020-01-06", inclusive="left"),
        dict(start="2020-01-05", end="2020-01-04"),
        dict(start="2020-01-01", periods=10, freq="3B"),
        dict(start="2020-01-01", periods=4, freq="-1B"),
        dict(start="2020-01-01", periods=0),
        dict(start=pd.Timestamp("2020-01-01", tz="UTC"), periods=5),
    ],
)
def test_bdate_range(kw):
    _same(em.bdate_range(**kw), pd.bdate_range(**kw))


def test_date_range_business_days():
    _same(em.date_range("2020-01-01", periods=7, freq="B"), pd.date_range("2020-01-01", periods=7, freq="B"))
    _same(
        em.date_range("2020-01-04", "2020-02-01", freq="2B"),
        pd.date_range("2020-01-04", "2020-02-01", freq="2B"),
    )


def test_bdate_range_errors_and_refusals():
    for kw, exc in [
        (dict(freq=None), TypeError),
        (dict(weekmask="Mon Wed"), ValueError),
        (dict(holidays=["2020-01-02"]), ValueError),
        (dict(freq="C"), NotImplementedError),
        (dict(freq="C", weekmask="Mon Wed"), NotImplementedError),
    ]:
        with pytest.raises(exc):
            em.bdate_range("2020-01-01", periods=3, **kw)
    with pytest.raises(ValueError):
        em.bdate_range("2020-01-01")
    index = em.bdate_range("2020-01-01", periods=30)
    for field in ["is_month_start", "is_month_end", "is_quarter_start", "is_year_end"]:
        with pytest.raises(NotImplementedError):
            getattr(index, field)
        with pytest.raises(NotImplementedError):
            getattr(index[2:], field)  # pandas keeps the business frequency on a slice
    _same(index.day, pd.bdate_range("2020-01-01", periods=30).day)


def test_interval_and_period_range_refused():
    with pytest.raises(NotImplementedError, match="Interval"):
        em.interval_range(0, 3)
    with pytest.raises(NotImplementedError, match="Period"):
        em.period_range("2020-01", periods=3, freq="M")


def test_date_and_timedelta_range_exist():
    _same(em.date_range("2020-01-01", periods=3, freq="D"), pd.date_range("2020-01-01", periods=3, freq="D"))
    _same(em.timedelta_range("1D", periods=3, freq="h"), pd.timedelta_range("1D", periods=3, freq="h"))
