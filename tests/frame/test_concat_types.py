"""concat of parts of different dtypes: pandas' common dtype (datetimes / timedeltas of several units
take the finest, raising where a value does not fit), or NotImplementedError where pandas keeps the
mix in an object column (ember has none). Expectations come from the installed pandas."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import ember as em
from ember.testing import assert_eq

NAIVE = pd.Series(pd.date_range("2020", periods=2))
UTC = pd.Series(pd.date_range("2020", periods=2, tz="UTC"))
PARIS = pd.Series(pd.date_range("2020", periods=2, tz="Europe/Paris"))
TD = pd.Series(pd.to_timedelta(["1D", "2D"]))

PAIRS = {
    "naive+utc": (NAIVE, UTC),
    "utc+paris": (UTC, PARIS),
    "datetime+timedelta": (NAIVE, TD),
    "datetime+int": (NAIVE, pd.Series([1, 2])),
    "datetime+nan": (NAIVE, pd.Series([np.nan])),
    "datetime+empty_float": (NAIVE, pd.Series([], dtype=float)),
    "datetime+str": (NAIVE, pd.Series(["a"])),
    "timedelta+int": (TD, pd.Series([1])),
    "int+bool": (pd.Series([1]), pd.Series([True])),
    "str+int": (pd.Series(["a"]), pd.Series([1])),
    "category+int": (pd.Series(["a"], dtype="category"), pd.Series([1])),
    "categories_differ": (pd.Series(["a", "b"], dtype="category"), pd.Series(["c"], dtype="category")),
    "int_categories_differ": (pd.Series([1, 2], dtype="category"), pd.Series([3], dtype="category")),
    "us+ns": (NAIVE, NAIVE.dt.as_unit("ns") + pd.Timedelta(1)),
    "utc_us+utc_ns": (UTC, UTC.dt.as_unit("ns")),
    "s_9999+ns": (pd.Series(np.array(["9999-01-01"], dtype="M8[s]")), NAIVE.dt.as_unit("ns")),
    "td_s+td_ns": (pd.Series(np.array([2**50], dtype="m8[s]")), pd.Series(np.array([1], dtype="m8[ns]"))),
    "td_s+td_ns_fits": (pd.Series(np.array([5], dtype="m8[s]")), pd.Series(np.array([1], dtype="m8[ns]"))),
    "Int64+float": (pd.Series([1], dtype="Int64"), pd.Series([1.5])),
}


def _outcome(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return fn(), None
        except Exception as exc:  # noqa: BLE001 - the type is compared
            return None, exc


def _check(fn):
    expected, perr = _outcome(lambda: fn(pd))
    got, eerr = _outcome(lambda: fn(em))
    if perr is not None:
        assert isinstance(eerr, type(perr)), f"pandas raised {perr!r}, ember {eerr!r} / {got!r}"
        return
    dtypes = list(expected.dtypes) if isinstance(expected, pd.DataFrame) else [expected.dtype]
    if object in dtypes + [expected.index.dtype]:
        assert isinstance(eerr, NotImplementedError), f"pandas gives object, ember {eerr!r} / {got!r}"
        return
    assert eerr is None, f"ember raised {eerr!r}"
    assert_eq(got, expected)


@pytest.mark.parametrize("name", list(PAIRS))
def test_concat_series(name):
    a, b = PAIRS[name]
    _check(lambda m: m.concat([m.Series(a), m.Series(b)]))


@pytest.mark.parametrize("name", list(PAIRS))
def test_concat_frames(name):
    a, b = PAIRS[name]
    _check(lambda m: m.concat([m.DataFrame({"x": a}), m.DataFrame({"x": b})]))


def test_concat_index_of_two_time_zones():
    _check(lambda m: m.concat([m.Series([1, 2], index=m.Index(UTC)), m.Series([3, 4], index=m.Index(PARIS))]))


@pytest.mark.parametrize(
    "values",
    [
        [pd.Timestamp("2020"), pd.Timestamp("2020", tz="UTC")],
        [pd.Timestamp("2020", tz="UTC"), pd.Timestamp("2020", tz="Europe/Paris")],
    ],
)
def test_series_of_naive_and_aware_timestamps_is_refused(values):
    assert pd.Series(values).dtype == object
    with pytest.raises(NotImplementedError):
        em.Series(values)
