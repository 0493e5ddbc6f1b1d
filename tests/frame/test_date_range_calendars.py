"""date_range with pandas' semi-month offsets (other offsets refused), and a Series named after the Index it is
made of."""

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.backend import to_host
from ember.testing import assert_eq


@pytest.mark.parametrize(
    "kwargs",
    [
        {"start": "2020-01-01", "end": "2020-05-01", "freq": "SME"},
        {"start": "2020-01-03", "periods": 3, "freq": "SMS", "tz": "US/Eastern", "name": "x"},
        {"start": "2020-01-03", "periods": 4, "freq": "SMS-10"},
        {"start": "2020-01-01", "periods": 5, "freq": "SME", "inclusive": "left"},
        {"end": "2020-01-01", "periods": 3, "freq": "2SME", "normalize": True},
    ],
)
def test_business_calendars(kwargs):
    assert_eq(em.date_range(**kwargs), pd.date_range(**kwargs))
    for field in ("is_month_start", "is_month_end", "is_quarter_start", "is_year_end"):
        got = to_host(getattr(em.date_range(**kwargs), field))  # a device array on the GPU backend
        np.testing.assert_array_equal(got, getattr(pd.date_range(**kwargs), field))
    got = em.Series(em.date_range(**kwargs)).dt.is_year_start
    assert_eq(got, pd.Series(pd.date_range(**kwargs)).dt.is_year_start)


@pytest.mark.parametrize(
    "freq", ["BYS", "BMS", "BME", "2BQS", "BQE", "C", pd.DateOffset(months=1, days=2)], ids=str
)
def test_offsets_refused(freq):
    # pandas' is_month_start ... of such an index follow its frequency, which ember does not keep
    with pytest.raises(NotImplementedError):
        em.date_range("2020-10-30", periods=4, freq=freq)


@pytest.mark.parametrize("make", [em.Index, pd.Index])
def test_series_of_an_index_takes_its_name(make):
    assert_eq(em.Series(make([1, 2], name="x")), pd.Series(pd.Index([1, 2], name="x")))
    assert_eq(em.Series(make([1, 2], name="x"), name="y"), pd.Series(pd.Index([1, 2], name="x"), name="y"))


@pytest.mark.parametrize("freq", ["B", "2B"])
def test_business_days_build_the_labels_and_refuse_the_calendar_fields(freq):
    # pandas counts is_month_start ... of a business-day index in business days: refused there
    got, want = (
        em.date_range("2020-10-30", periods=4, freq=freq),
        pd.date_range("2020-10-30", periods=4, freq=freq),
    )
    assert_eq(em.Series(got), pd.Series(want))
    with pytest.raises(NotImplementedError):
        _ = got.is_month_start
