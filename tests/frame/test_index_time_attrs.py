"""DatetimeIndex / TimedeltaIndex asi8, is_normalized, unit, as_unit, freq / freqstr against pandas."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import ember
from ember.backend import to_host
from ember.testing import assert_eq

INDEXES = [
    pd.DatetimeIndex(["2020-01-01", None, "2020-01-02 01:00"], tz="US/Eastern"),
    pd.DatetimeIndex(["2020-01-01", None, "2020-01-02"], tz="US/Eastern"),
    pd.DatetimeIndex(["2020-01-01", "2020-01-02"], tz="US/Eastern"),
    pd.DatetimeIndex(["2020-03-08", "2020-11-01"], tz="US/Eastern"),  # DST days
    pd.DatetimeIndex(["2020-01-01", "2020-01-02"], dtype="M8[s]"),
    pd.DatetimeIndex(["2020-01-01", "2020-01-02 00:00:00.000000001"]),
    pd.DatetimeIndex([], dtype="M8[ns]"),
    pd.DatetimeIndex([None]),
]


@pytest.mark.parametrize("idx", INDEXES)
def test_datetime_attrs(idx):
    e = ember.from_pandas(idx)
    np.testing.assert_array_equal(to_host(e.asi8), idx.asi8)
    assert e.asi8.dtype == np.int64
    assert e.is_normalized == idx.is_normalized
    assert e.unit == idx.unit
    assert_eq(e.as_unit("s"), idx.as_unit("s"), check_exact=True)


def test_timedelta_attrs():
    idx = pd.TimedeltaIndex(["1 day", None, "2 days"], dtype="m8[ms]")
    e = ember.from_pandas(idx)
    np.testing.assert_array_equal(to_host(e.asi8), idx.asi8)
    assert e.unit == idx.unit
    for name in ("is_normalized",):
        assert not hasattr(idx, name)
        with pytest.raises(AttributeError):
            getattr(e, name)


def test_other_labels_raise_attribute_error():
    for name in ("asi8", "is_normalized", "freqstr"):
        assert not hasattr(pd.Index([1, 2]), name)
        with pytest.raises(AttributeError):
            getattr(ember.Index([1, 2]), name)


def test_freq_refused():
    e = ember.from_pandas(pd.date_range("2020-01-01", periods=3))
    for name in ("freq", "freqstr"):
        with pytest.raises(NotImplementedError):
            getattr(e, name)


def test_resampler_apply_name_and_numpy_function():
    s = pd.Series(np.arange(5.0), index=pd.date_range("2020-01-01", periods=5, freq="7min"))
    e = ember.from_pandas(s)
    assert_eq(e.resample("15min").apply("sum"), s.resample("15min").apply("sum"), check_freq=False)
    assert_eq(e.resample("15min").apply(np.sum), s.resample("15min").apply(np.sum), check_freq=False)
