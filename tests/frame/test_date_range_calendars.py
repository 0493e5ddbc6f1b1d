"""date_range with pandas' business / custom calendars, and a Series named after the Index it is
made of."""

import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq


@pytest.mark.parametrize(
    "kwargs",
    [
        {"start": "2020-10-30", "periods": 4, "freq": "BYS"},
        {"start": "2020-01-01", "end": "2020-02-01", "freq": "B"},
        {"start": "2020-01-01", "periods": 5, "freq": "BME", "tz": "US/Eastern", "name": "x"},
        {"start": "2020-01-03", "periods": 3, "freq": "C"},
        {"start": "2020-01-01", "periods": 3, "freq": "2BQS", "inclusive": "left"},
        {"end": "2020-01-01", "periods": 3, "freq": "BMS", "normalize": True},
    ],
)
def test_business_calendars(kwargs):
    assert_eq(em.date_range(**kwargs), pd.date_range(**kwargs))
    got = em.Series(em.date_range(**kwargs)).dt.is_year_start
    assert_eq(got, pd.Series(pd.date_range(**kwargs)).dt.is_year_start)


@pytest.mark.parametrize("make", [em.Index, pd.Index])
def test_series_of_an_index_takes_its_name(make):
    assert_eq(em.Series(make([1, 2], name="x")), pd.Series(pd.Index([1, 2], name="x")))
    assert_eq(em.Series(make([1, 2], name="x"), name="y"), pd.Series(pd.Index([1, 2], name="x"), name="y"))
