"""to_datetime(dayfirst= / yearfirst=), tz_localize(ambiguous='infer'), ewm(times=) — against pandas."""

import warnings

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
