"""to_datetime(dayfirst= / yearfirst=), tz_localize(ambiguous='infer'), ewm(times=) — against pandas."""

import warnings

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq

# --- to_datetime: dayfirst / yearfirst -----------------------------------------------------------------

PARSED = [
    ["10/11/2020", "13/11/2020"],
    ["2020-01-13", "2020-02-03"],
    ["2020-01-02", "2020-03-04"],
    ["13/11/2020", "10/11/2020"],
    ["10-11-2020", None, "11-12-2021"],
    ["10.11.2020 10:30"],
    ["2020/10/11"],
    ["11 Oct 2020"],
    ["2020-13-01"],
    ["01/02/2020 10:00:00"],
    ["2020-01-02T10:00:00+01:00"],
    ["", "NaT", "10/11/2020"],
    ["31/12/2020 23:59:59.123456"],
    [None, None],
    [],
]
MISMATCHED = [["10/11/2020", "2020-01-13"], ["10/11/2020", "10/13/2020"]]
OPTIONS = [
    dict(dayfirst=True),
    dict(yearfirst=True),
    dict(dayfirst=True, yearfirst=True),
    dict(dayfirst=True, format="%m/%d/%Y"),
    dict(dayfirst=True, format="ISO8601"),
]


def _both(values, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = pd.to_datetime(pd.Series(values, dtype=object), **kw)
    got = em.to_datetime(em.Series(pd.Series(values, dtype=object)), **kw)
    return got, want


@pytest.mark.parametrize("values", PARSED)
@pytest.mark.parametrize("kw", OPTIONS)
def test_to_datetime_dayfirst(values, kw):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = pd.to_datetime(pd.Series(values, dtype=object), **kw)
    except ValueError:  # or refused where pandas' error comes from dateutil
        with pytest.raises((ValueError, NotImplementedError)):
            em.to_datetime(em.Series(pd.Series(values, dtype=object)), **kw)
        return
    assert_eq(em.to_datetime(em.Series(pd.Series(values, dtype=object)), **kw), want)


@pytest.mark.parametrize("values", MISMATCHED)
def test_to_datetime_dayfirst_one_format_for_all(values):
    with pytest.raises(ValueError, match="doesn't match format"):
        pd.to_datetime(values, dayfirst=True)
    with pytest.raises(ValueError, match="doesn't match format"):
        em.to_datetime(values, dayfirst=True)
    got, want = _both(values, dayfirst=True, errors="coerce")
    assert_eq(got, want)


def test_to_datetime_dayfirst_scalar_list_index():
    assert em.to_datetime("10/11/2020", dayfirst=True) == pd.to_datetime("10/11/2020", dayfirst=True)
    assert_eq(em.to_datetime(["10/11/2020"], dayfirst=True), pd.to_datetime(["10/11/2020"], dayfirst=True))
    idx = pd.Index(["01/02/2020", "03/04/2020"], name="d")
    assert_eq(em.to_datetime(em.from_pandas(idx), dayfirst=True), pd.to_datetime(idx, dayfirst=True))


@pytest.mark.parametrize(
    "values, kw",
    [
        (["10/11/20"], dict(dayfirst=True)),  # no format guessed: pandas goes to dateutil
        (["10/11/20"], dict(yearfirst=True)),
        (["20201011"], dict(dayfirst=True)),
        (["2020-01-02"], dict(dayfirst=True, format="mixed")),
    ],
)
def test_to_datetime_dayfirst_dateutil_refused(values, kw):
    with pytest.raises(NotImplementedError):
        em.to_datetime(values, **kw)


# --- tz_localize(ambiguous='infer') ---------------------------------------------------------------------

FALL = "2018-10-28 02:00"
AMBIGUOUS = [
    ["2018-10-28 01:00", FALL, "2018-10-28 02:30", FALL, "2018-10-28 02:30", "2018-10-28 03:00"],
    ["2018-10-28 02:30", FALL],
    [FALL, FALL],
    ["2018-10-28 02:30", FALL, "2018-10-28 02:30"],
    [FALL, "2019-10-27 02:00", "2019-10-27 02:00"],
    ["2020-01-01", None, "2020-06-01"],
    [None],
    [],
]
NOT_INFERRED = [
    [FALL],
    [FALL, "2018-10-28 02:30"],
    [FALL, "2018-10-28 02:30", FALL, "2018-10-28 02:30", FALL],
    [FALL, "2018-10-28 01:00", FALL],
    [FALL, None, FALL],
    [FALL, FALL, "2019-10-27 02:00", "2019-10-27 02:00"],
    [FALL, "2018-10-28 02:30", FALL, "2018-10-28 02:30", "2018-03-25 02:30"],  # nonexistent
]


@pytest.mark.parametrize("values", AMBIGUOUS)
@pytest.mark.parametrize("tz", ["Europe/Brussels", "US/Eastern"])
def test_tz_localize_ambiguous_infer(values, tz):
    idx = pd.DatetimeIndex(values, name="t")
    assert_eq(em.from_pandas(idx).tz_localize(tz, ambiguous="infer"), idx.tz_localize(tz, ambiguous="infer"))
    ser = pd.Series(idx)
    assert_eq(
        em.from_pandas(ser).dt.tz_localize(tz, ambiguous="infer"), ser.dt.tz_localize(tz, ambiguous="infer")
    )
    frame = pd.DataFrame({"v": np.arange(len(values))}, index=idx)
    assert_eq(
        em.from_pandas(frame).tz_localize(tz, ambiguous="infer"), frame.tz_localize(tz, ambiguous="infer")
    )
    s = frame.v
    assert_eq(em.from_pandas(s).tz_localize(tz, ambiguous="infer"), s.tz_localize(tz, ambiguous="infer"))


@pytest.mark.parametrize("values", NOT_INFERRED)
def test_tz_localize_ambiguous_infer_errors(values):
    idx = pd.DatetimeIndex(values)
    with pytest.raises(ValueError) as want:
        idx.tz_localize("Europe/Brussels", ambiguous="infer")
    with pytest.raises(ValueError) as got:
        em.from_pandas(idx).tz_localize("Europe/Brussels", ambiguous="infer")
    assert str(got.value) == str(want.value)


def test_tz_localize_ambiguous_infer_with_nonexistent_options():
    idx = pd.DatetimeIndex([FALL, FALL, "2018-03-25 02:30"])
    for nonexistent in ["NaT", "shift_forward", "shift_backward"]:
        want = idx.tz_localize("Europe/Brussels", ambiguous="infer", nonexistent=nonexistent)
        got = em.from_pandas(idx).tz_localize("Europe/Brussels", ambiguous="infer", nonexistent=nonexistent)
        assert_eq(got, want)


# --- ewm(times=) ----------------------------------------------------------------------------------------

TIMES = pd.DatetimeIndex(["2020-01-01", "2020-01-03", "2020-01-10", "2020-01-15", "2020-01-17"])
EWM_OPTIONS = [
    dict(halflife="4 days"),
    dict(halflife="4 days", ignore_na=True),
    dict(halflife="4 days", adjust=False),
    dict(halflife="4 days", adjust=False, ignore_na=True),
    dict(halflife="1D", min_periods=2),
    dict(com=0.5, halflife="4 days"),
    dict(halflife=pd.Timedelta("36h")),
    dict(halflife=np.timedelta64(2, "D")),
]


@pytest.mark.parametrize("kw", EWM_OPTIONS)
@pytest.mark.parametrize(
    "times",
    [TIMES, pd.Series(TIMES), TIMES[::-1], TIMES.tz_localize("UTC"), TIMES.as_unit("ns"), np.asarray(TIMES)],
    ids=["index", "series", "reversed", "utc", "ns", "numpy"],
)
def test_ewm_times_mean(kw, times):
    ser = pd.Series([0, 1, np.nan, 3, 4.0])
    want = ser.ewm(times=times, **kw).mean()
    assert_eq(em.from_pandas(ser).ewm(times=times, **kw).mean(), want)
    if isinstance(times, (pd.Index, pd.Series)):
        assert_eq(em.from_pandas(ser).ewm(times=em.from_pandas(times), **kw).mean(), want)


def test_ewm_times_frame_and_dtypes():
    df = pd.DataFrame(
        {
            "a": [0, 1, np.nan, 3, 4.0],
            "i": [1, 2, 3, 4, 5],
            "m": pd.array([1, None, 3, 4, 5], dtype="Float64"),
        }
    )
    for kw in [dict(ignore_na=True, min_periods=2), dict()]:
        want = df.ewm(halflife="2D", times=TIMES, **kw).mean()
        assert_eq(em.from_pandas(df).ewm(halflife="2D", times=TIMES, **kw).mean(), want)
    empty = pd.Series([], dtype=float)
    times = pd.DatetimeIndex([])
    assert_eq(
        em.from_pandas(empty).ewm(halflife="1D", times=times).mean(),
        empty.ewm(halflife="1D", times=times).mean(),
    )


@pytest.mark.parametrize(
    "call",
    [
        lambda s: s.ewm(halflife="4 days", times=TIMES).sum(),
        lambda s: s.ewm(halflife="4 days", times=TIMES).std(),
        lambda s: s.ewm(halflife="4 days", times=TIMES).var(),
        lambda s: s.ewm(halflife=4, times=TIMES),
        lambda s: s.ewm(halflife="4 days"),
        lambda s: s.ewm(halflife="4 days", times=TIMES[:3]),
        lambda s: s.ewm(halflife="4 days", times=np.arange(5)),
        lambda s: s.ewm(halflife="4 days", times=pd.DatetimeIndex([None] * 5)),
        lambda s: s.ewm(com=0.5, times=TIMES),
        lambda s: s.ewm(halflife="1D", times=list(TIMES)),
        lambda s: s.ewm(times=TIMES),
    ],
)
def test_ewm_times_errors(call):
    ser = pd.Series([0, 1, np.nan, 3, 4.0])
    with pytest.raises((ValueError, NotImplementedError)) as want:
        call(ser)
    with pytest.raises(want.type, match=str(want.value)):
        call(em.from_pandas(ser))
