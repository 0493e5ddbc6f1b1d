"""to_datetime of a DataFrame of date parts, and of numbers counted from an origin."""

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq


def _same(fn):
    """fn with pandas and with ember: equal results, or the same exception type (ember may refuse)."""
    try:
        want = fn(pd)
    except Exception as exc:  # noqa: BLE001 - pandas' error type is the oracle
        with pytest.raises((type(exc), NotImplementedError)):
            fn(em)
        return
    assert_eq(fn(em), want)


FRAMES = [
    {"year": [2015, 2016], "month": [2, 3], "day": [4, 5]},
    {
        "Year": [2015, 2016],
        "months": [2, 3],
        "day": [4, 5],
        "h": [1, 2],
        "minute": [3, 4],
        "s": [5, 6],
        "ms": [7, 8],
        "us": [9, 1],
        "ns": [1, 2],
    },
    {"year": [2015, 2016], "month": [2, 13], "day": [4, 5]},
    {"year": [2015, None], "month": [2, 3], "day": [4, 5]},
    {"year": [2015.0, 2016.5], "month": [2, 3], "day": [4, 5]},
    {"year": [2015], "month": [2]},
    {"year": [2015], "month": [2], "day": [1], "foo": [1]},
    {"year": ["2015"], "month": ["2"], "day": [1]},
    {"year": [2015], "month": [2], "day": [1], "hour": [1.5]},
    {"year": [2016, 2015], "month": [2, 2], "day": [29, 29]},
]


@pytest.mark.parametrize("parts", FRAMES)
@pytest.mark.parametrize("kwargs", [{}, {"errors": "coerce"}, {"utc": True}])
def test_assemble_as_pandas(parts, kwargs):
    _same(lambda m: m.to_datetime(m.DataFrame(parts), **kwargs))


@pytest.mark.parametrize(
    ("values", "kwargs"),
    [
        ([1, 2, 3], {"unit": "D", "origin": pd.Timestamp("1960-01-01")}),
        ([1, 2], {"unit": "s", "origin": "2000-01-01"}),
        ([1, 2], {"unit": "D", "origin": "julian"}),
        ([2451545, 2451546.5], {"unit": "D", "origin": "julian"}),
        ([1, 2], {"unit": "s", "origin": "julian"}),
        ([1, 2], {"unit": "D", "origin": "x"}),
        (["1", "2"], {"unit": "D", "origin": "2000"}),
        (np.array([1, 2]), {"unit": "h", "origin": "2000-01-01 12:30"}),
        ([1, 2], {"unit": "D", "origin": pd.Timestamp("2000-01-01", tz="UTC")}),
        (5, {"unit": "D", "origin": "2000-01-01"}),
    ],
)
def test_origin_as_pandas(values, kwargs):
    _same(lambda m: m.to_datetime(values, **kwargs))
    if isinstance(values, list):
        _same(lambda m: m.to_datetime(m.Series(values, name="n"), **kwargs))


@pytest.mark.parametrize("unit", ["D", "h", "m", "s", "ms", "us", "ns"])
@pytest.mark.parametrize("values", [[1, 2], [1.0, 2.0], [1, None]])
def test_epoch_numbers_unit_as_the_installed_pandas(unit, values):
    _same(lambda m: m.to_datetime(values, unit=unit))
    _same(lambda m: m.to_datetime(m.Series(values), unit=unit))
