"""Series.str / .dt / .cat through the frame layer, against pandas."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import ember
from ember.ops.categorical import codes_dtype, to_categorical


def _eq(got: object, exp: object) -> None:
    if isinstance(exp, pd.DataFrame):
        pd.testing.assert_frame_equal(got.to_pandas(), exp)
    else:
        pd.testing.assert_series_equal(got.to_pandas(), exp)


@pytest.fixture
def strs() -> pd.Series:
    return pd.Series(["a1b2", None, "xyz", "Ñandú 9", ""], dtype="str", index=[10, 11, 12, 13, 14], name="s")


def test_str_methods(strs: pd.Series) -> None:
    e = ember.Series(strs)
    _eq(e.str.upper(), strs.str.upper())
    _eq(e.str.len(), strs.str.len())
    _eq(e.str[1:3], strs.str[1:3])
    _eq(e.str[0], strs.str[0])
    _eq(e.str.contains(r"\d"), strs.str.contains(r"\d"))
    _eq(e.str.fullmatch(r"[a-z]+"), strs.str.fullmatch(r"[a-z]+"))
    _eq(e.str.replace("a", "A"), strs.str.replace("a", "A"))
    _eq(e.str.center(8, "-"), strs.str.center(8, "-"))
    _eq(e.str.isalnum(), strs.str.isalnum())
    _eq(e.str.count("a"), strs.str.count("a"))


def test_str_frames(strs: pd.Series) -> None:
    e = ember.Series(strs)
    _eq(e.str.split(" ", expand=True), strs.str.split(" ", expand=True))
    _eq(e.str.extract(r"([a-z])(\d)"), strs.str.extract(r"([a-z])(\d)"))
    _eq(e.str.extract(r"(?P<d>\d)", expand=False), strs.str.extract(r"(?P<d>\d)", expand=False))
    _eq(e.str.extractall(r"([a-z])(\d)"), strs.str.extractall(r"([a-z])(\d)"))
    assert e.str.cat(sep="+") == strs.str.cat(sep="+")
    _eq(e.str.cat(e, sep="|", na_rep="-"), strs.str.cat(strs, sep="|", na_rep="-"))


def test_str_unsupported(strs: pd.Series) -> None:
    e = ember.Series(strs)
    with pytest.raises(NotImplementedError, match="Series.str"):
        e.str.encode("utf-8")  # bytes objects: no ember column holds them (lists: test_string_lists.py)
    with pytest.raises((AttributeError, NotImplementedError)):
        _ = ember.Series(pd.Series([1, 2])).str


def test_dt_methods() -> None:
    s = pd.Series(pd.to_datetime(["2020-02-29 13:45:10", None, "1999-01-01"], format="ISO8601"), name="t")
    e = ember.Series(s)
    for name in (
        "year",
        "month",
        "day",
        "hour",
        "minute",
        "second",
        "day_of_week",
        "quarter",
        "is_leap_year",
        "is_month_end",
        "day_of_year",
    ):
        _eq(getattr(e.dt, name), getattr(s.dt, name))
    _eq(e.dt.day_name(), s.dt.day_name())
    _eq(e.dt.floor("h"), s.dt.floor("h"))
    _eq(e.dt.strftime("%d.%m.%Y"), s.dt.strftime("%d.%m.%Y"))
    _eq(
        e.dt.tz_localize("Europe/Paris").dt.tz_convert("UTC"),
        s.dt.tz_localize("Europe/Paris").dt.tz_convert("UTC"),
    )
    with pytest.raises(NotImplementedError, match="normalize"):
        _ = e.dt.date
    with pytest.raises((AttributeError, NotImplementedError)):
        _ = ember.Series(pd.Series(["a"])).dt


@pytest.mark.parametrize("tz", [None, "America/New_York"])
@pytest.mark.parametrize("unit", ["ns", "s"])
def test_dt_isocalendar(tz: str | None, unit: str) -> None:
    """ISO year / week / day around year ends (a week 53, week 1 starting in December, before 1970)
    and NaT, as pandas' Int32 / UInt32 frame on the Series' index; .dt.time says what to use."""
    days = ["2020-12-31", "2021-01-03", "2021-01-04", "2024-12-30", "2015-12-31", "1969-12-29", None,
            "2027-01-01", "2000-02-29 23:59"]  # fmt: skip
    s = pd.Series(pd.to_datetime(days, format="ISO8601"), index=range(5, 14)).astype(f"datetime64[{unit}]")
    if tz:
        s = s.dt.tz_localize(tz)
    e = ember.Series(s)
    _eq(e.dt.isocalendar(), s.dt.isocalendar())
    with pytest.raises(NotImplementedError, match="dt.hour"):
        _ = e.dt.time


def test_dt_timedelta() -> None:
    s = pd.Series(pd.to_timedelta(["1 days 00:00:01", None]))
    e = ember.Series(s)
    _eq(e.dt.days, s.dt.days)
    _eq(e.dt.seconds, s.dt.seconds)
    _eq(e.dt.total_seconds(), s.dt.total_seconds())


@pytest.mark.parametrize("values", [["b", "a", None, "b"], [3, 1, 2, 1], [1.5, np.nan, 0.5], []])
def test_to_categorical(xp: object, values: list) -> None:
    s = pd.Series(values, dtype=None if values else "str")
    col = ember.column.from_pandas(s, xp)
    _eq(ember.Series(s)._wrap(to_categorical(col)), s.astype("category"))
    dtype = pd.CategoricalDtype(list(s.dropna().unique()[::-1]) + ([] if not values else []), ordered=True)
    _eq(ember.Series(s)._wrap(to_categorical(col, dtype)), s.astype(dtype))


def test_cat_accessor() -> None:
    s = pd.Series(["b", "a", None, "b", "c"]).astype("category")
    e = ember.Series(s)
    _eq(e.cat.codes, s.cat.codes)
    pd.testing.assert_index_equal(e.cat.categories.to_pandas(), s.cat.categories)
    assert e.cat.ordered is s.cat.ordered
    _eq(e.cat.rename_categories(["x", "y", "z"]), s.cat.rename_categories(["x", "y", "z"]))
    _eq(e.cat.rename_categories({"a": "A"}), s.cat.rename_categories({"a": "A"}))
    _eq(e.cat.add_categories(["d"]), s.cat.add_categories(["d"]))
    _eq(e.cat.remove_categories(["a"]), s.cat.remove_categories(["a"]))
    _eq(e.cat.set_categories(["c", "b", "q"]), s.cat.set_categories(["c", "b", "q"]))
    _eq(e.cat.set_categories(["c", "b"], ordered=True), s.cat.set_categories(["c", "b"], ordered=True))
    _eq(e.cat.reorder_categories(["c", "b", "a"]), s.cat.reorder_categories(["c", "b", "a"]))
    _eq(e.cat.as_ordered(), s.cat.as_ordered())
    _eq(e.cat.as_ordered().cat.as_unordered(), s.cat.as_ordered().cat.as_unordered())
    _eq(
        e.cat.add_categories(["z"]).cat.remove_unused_categories(),
        s.cat.add_categories(["z"]).cat.remove_unused_categories(),
    )
    with pytest.raises(ValueError, match="must not include old"):
        e.cat.add_categories(["a"])
    with pytest.raises(ValueError, match="removals must all be in old"):
        e.cat.remove_categories(["nope"])
    with pytest.raises((AttributeError, NotImplementedError)):
        _ = ember.Series(pd.Series([1])).cat


def test_codes_dtype() -> None:
    assert codes_dtype(3) == np.int8 and codes_dtype(200) == np.int16 and codes_dtype(40000) == np.int32
