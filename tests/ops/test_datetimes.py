"""ops.datetimes and frame.datetimes against pandas."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ember
from ember.column import StringColumn, from_pandas
from ember.frame.datetimes import date_range, timedelta_range, to_datetime
from ember.ops import datetime_parse as P
from ember.ops import datetimes as D

STAMPS = [
    "1970-01-01",
    "2000-02-29 23:59:59.999999",
    "1969-12-31 12:00",
    None,
    "2021-03-14 01:30",
    "2021-11-07 01:30",
    "1900-03-01",
    "2262-04-11",
    "1677-09-22 00:00:01",
    "2024-12-31 06:07:08.5",
]


def _eq(got: object, exp: pd.Series) -> None:
    pd.testing.assert_series_equal(got.to_pandas(), exp.reset_index(drop=True), check_names=False)


@pytest.fixture(params=["us", "ns", "s"])
def pair(request: pytest.FixtureRequest, xp: object) -> tuple[pd.Series, object]:
    s = pd.Series(pd.to_datetime(STAMPS, format="ISO8601")).dt.as_unit(request.param)
    return s, from_pandas(s, xp)


@pytest.mark.parametrize(
    "name",
    [
        "year",
        "month",
        "day",
        "hour",
        "minute",
        "second",
        "microsecond",
        "nanosecond",
        "day_of_week",
        "weekday",
        "day_of_year",
        "quarter",
        "days_in_month",
    ]
    + list(D.BOOL_FIELDS),
)
def test_fields(pair: tuple, name: str) -> None:
    s, c = pair
    _eq(D.field(c, name), getattr(s.dt, name))


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(-(2**62), 2**62), min_size=1, max_size=20))
def test_civil_hypothesis(ticks: list) -> None:
    s = pd.Series(np.asarray(ticks, dtype="datetime64[ns]"))
    c = from_pandas(s, np)
    for name in ("year", "month", "day", "hour", "day_of_year", "day_of_week", "nanosecond"):
        _eq(D.field(c, name), getattr(s.dt, name))


def test_names_normalize_round(pair: tuple) -> None:
    s, c = pair
    _eq(D.names(c, "day_name"), s.dt.day_name())
    _eq(D.names(c, "month_name"), s.dt.month_name())
    _eq(D.normalize(c), s.dt.normalize())
    for how in ("floor", "ceil", "round"):
        for freq in ("h", "15min", "D", "s"):
            _eq(D.round_col(c, freq, how), getattr(s.dt, how)(freq))


def test_strftime(pair: tuple) -> None:
    s, c = pair
    fmt = "%Y-%m-%d %H:%M:%S.%f %y %j %I%p %a %b %%"
    _eq(D.strftime(c, fmt), s.dt.strftime(fmt))
    with pytest.raises(NotImplementedError, match="%U"):
        D.strftime(c, "%U")


@pytest.mark.parametrize("tz", ["US/Eastern", "Europe/Berlin", "UTC", "Asia/Kolkata"])
def test_tz_localize_convert(xp: object, tz: str) -> None:
    s = pd.Series(pd.to_datetime(["2021-01-01 10:00", "2021-07-01 12:30", None, "1999-10-31 00:00"]))
    c = from_pandas(s, xp)
    loc = D.tz_localize(c, tz)
    _eq(loc, s.dt.tz_localize(tz))
    _eq(D.tz_convert(loc, "Asia/Tokyo"), s.dt.tz_localize(tz).dt.tz_convert("Asia/Tokyo"))
    aware = s.dt.tz_localize(tz)
    ca = from_pandas(aware, xp)
    for name in ("hour", "day", "day_of_week"):
        _eq(D.field(ca, name), getattr(aware.dt, name))
    _eq(D.round_col(ca, "h", "floor"), aware.dt.floor("h"))
    _eq(D.tz_localize(ca, None), aware.dt.tz_localize(None))


def test_tz_ambiguous_nonexistent(xp: object) -> None:
    s = pd.Series(pd.to_datetime(["2021-11-07 01:30", "2021-03-14 02:30", "2021-06-01"], format="ISO8601"))
    c = from_pandas(s, xp)
    with pytest.raises(ValueError, match="Cannot infer dst time"):
        D.tz_localize(c.take(np.array([0])), "US/Eastern")
    with pytest.raises(ValueError, match="nonexistent"):
        D.tz_localize(c.take(np.array([1])), "US/Eastern", ambiguous="NaT")
    _eq(D.tz_localize(c, "US/Eastern", "NaT", "NaT"), s.dt.tz_localize("US/Eastern", "NaT", "NaT"))
    for nonexistent in ("shift_forward", "shift_backward"):
        _eq(
            D.tz_localize(c, "US/Eastern", np.array([True, False, False]), nonexistent),
            s.dt.tz_localize("US/Eastern", np.array([True, False, False]), nonexistent),
        )


def test_timedelta_fields(xp: object) -> None:
    s = pd.Series(pd.to_timedelta(["1 days 02:00:03.5", "-1 days +00:00:01", None, "0 ns"]))
    c = from_pandas(s, xp)
    for name in ("days", "seconds", "microseconds", "nanoseconds", "total_seconds"):
        exp = s.dt.total_seconds() if name == "total_seconds" else getattr(s.dt, name)
        _eq(D.td_field(c, name), exp)
    _eq(D.round_col(c, "h", "floor"), s.dt.floor("h"))


@pytest.mark.parametrize(
    "values",
    [
        ["2020-01-01", "2021-03-04 05:06:07", None, "1999-12-31T23:59:59.123456"],
        ["2020-01-01 00:00:00.123456789", "2020-01-02"],
        ["2020-01-01T00:00:00+05:30", "2021-06-01T10:00:00+05:30"],
        ["2020-01-01T00:00:00Z", None],
        [],
    ],
)
def test_to_datetime_iso(values: list) -> None:
    s = pd.Series(values, dtype="str")
    _eq(to_datetime(ember.Series(s), format="ISO8601"), pd.to_datetime(s, format="ISO8601"))


def test_to_datetime_errors() -> None:
    s = pd.Series(["2020-01-01", "not a date", "2020-02-30"], dtype="str")
    _eq(to_datetime(ember.Series(s), errors="coerce"), pd.to_datetime(s, errors="coerce", format="ISO8601"))
    with pytest.raises(ValueError, match="not a date"):
        to_datetime(ember.Series(s))
    mixed = pd.Series(["2020-01-01T00:00:00+01:00", "2020-01-01T00:00:00+02:00"])
    with pytest.raises(ValueError, match="Mixed timezones"):
        to_datetime(ember.Series(mixed))
    _eq(to_datetime(ember.Series(mixed), utc=True), pd.to_datetime(mixed, utc=True))


@pytest.mark.parametrize(
    "fmt, values",
    [
        ("%d/%m/%Y", ["31/12/2020", "1/2/2021", None]),
        ("%Y%m%d %H%M%S", ["20200101 101112", "19991231 235959"]),
        ("%m/%d/%y %I:%M %p", ["03/04/21 10:11 PM", "12/31/99 12:00 AM"]),
        ("%d %b %Y", ["01 Jan 2020", "15 aug 1999"]),
        ("%Y-%m-%d %H:%M:%S.%f", ["2020-01-01 00:00:00.5", "2020-01-01 00:00:00.123456"]),
    ],
)
def test_to_datetime_format(fmt: str, values: list) -> None:
    s = pd.Series(values, dtype="str")
    _eq(to_datetime(ember.Series(s), format=fmt), pd.to_datetime(s, format=fmt))


PANDAS_31 = tuple(int(p) for p in pd.__version__.split(".")[:2]) >= (3, 1)


@pytest.mark.parametrize("unit", ["s", "ms", "us", "ns", "D"])
def test_to_datetime_unit(unit: str) -> None:
    for s in (pd.Series([0, 1, 18_000]), pd.Series([1.5, np.nan, -2.25])):
        _eq(to_datetime(ember.Series(s), unit=unit), pd.to_datetime(s, unit=unit))


def _idx(got: object, exp: pd.Index) -> None:
    pd.testing.assert_index_equal(
        got.to_pandas(), exp._with_freq(None) if hasattr(exp, "_with_freq") else exp, exact=False
    )


@pytest.mark.parametrize(
    "kwargs",
    [
        {"start": "2020-01-01", "periods": 5},
        {"start": "2020-01-01", "end": "2020-01-10", "freq": "2D"},
        {"end": "2020-01-10", "periods": 4, "freq": "h"},
        {"start": "2020-01-01", "end": "2020-01-02", "periods": 5},
        {"start": "2020-01-30", "periods": 5, "freq": "ME"},
        {"start": "2020-01-30 10:00", "end": "2020-08-01", "freq": "MS"},
        {"start": "2020-02-15", "periods": 5, "freq": "QS"},
        {"start": "2020-02-15", "periods": 3, "freq": "YE"},
        {"end": "2020-02-15", "periods": 3, "freq": "ME"},
        {"start": "2020-01-01", "periods": 4, "freq": "W-SUN"},
        {"start": "2021-03-13", "periods": 3, "tz": "US/Eastern"},
        {"start": "2021-03-14", "periods": 4, "freq": "h", "tz": "UTC"},
        {"start": "2020-01-01", "end": "2020-01-05", "inclusive": "neither"},
    ],
)
def test_date_range(kwargs: dict) -> None:
    _idx(date_range(**kwargs), pd.date_range(**kwargs))


def test_timedelta_range() -> None:
    _idx(timedelta_range("1D", periods=3, freq="6h"), pd.timedelta_range("1D", periods=3, freq="6h"))
    _idx(timedelta_range("0s", "10s", freq="3s"), pd.timedelta_range("0s", "10s", freq="3s"))
    with pytest.raises(ValueError, match="exactly three"):
        date_range("2020-01-01")


# --- ISO 8601 parsing: the device kernel against the host cursor -----------------------------------------

ISO_TRICKY = [
    "2020-01-01",
    "2020-1-5",
    "2020-01",
    "2020-1",
    "2020-",
    "2020",
    "202",
    "",
    "2",
    "2020-01-01T10:11",
    "2020-01-01 10:11",
    "2020-01-01T10:11:12",
    *(f"2020-01-01T10:11:12.{'123456789'[:k]}" for k in range(1, 10)),
    "2020-01-01T10:11:12.1234567891",
    "2020-01-01T10:11:12.",
    "2020-01-01T10:11:12Z",
    "2020-01-01T10:11Z",
    "2020-01-01Z",
    "2020-01Z",
    "2020-01-01T10:11:12+05",
    "2020-01-01T10:11:12-05",
    "2020-01-01T10:11:12+0530",
    "2020-01-01T10:11:12-05:30",
    "2020-01-01T10:11:12.5+05:30",
    "2020-01-01T10:11+05:",
    "2020-01-01T10:11+05:3",
    "2020-01-01T10:11+5",
    "2020-01-01T10:11+05:300",
    "2020-01-01+05:00",
    "2020-01-01T",
    "2020-01-01 ",
    "2020-01-01T1:02",
    "2020-01-01T10:1",
    "2020-01-01T10",
    "2020-01-01T10:11:1",
    "2020-01-01T10:11:12x",
    "2020-01-01x",
    " 2020-01-01",
    "2021-02-29",
    "2020-02-29",
    "2021-02-30",
    "1900-02-29",
    "2000-02-29",
    "2020-04-31",
    "2020-13-01",
    "2020-00-10",
    "2020-01-00",
    "2020-01-32",
    "2020-01-01T24:00",
    "2020-01-01T23:60",
    "2020-01-01T23:59:60",
    "2020-01-01T23:59:59.999999999",
    "1677-09-22T00:12:43.145224193",
    "2262-04-11T23:47:16.854775807",
    "9999-12-31T23:59:59.999999999Z",
    "0000-01-01",
    "0000-02-29",
    None,
    "2020-01-01é",
    "２０２０-01-01",
    "2020-01-01T10:11:12Zé",
    "2020-01-01T10:11:12.123456789+05:30 trailing garbage",
    "2020-01-01T10:11:12.123456789+05:30",
    None,
]


def _iso_column(strings: list, xp: object) -> object:
    """A StringColumn of raw byte strings (None = null) on the module ``xp``, its offsets not starting at 0."""
    data = [b"" if s is None else s for s in strings]
    chars = np.frombuffer(b"xx" + b"".join(data) + b"yy", dtype=np.uint8)
    offsets = np.cumsum([2] + [len(s) for s in data]).astype(np.int64)
    mask = np.array([s is not None for s in strings])
    return StringColumn(xp.asarray(offsets), xp.asarray(chars), None if mask.all() else xp.asarray(mask))


def _assert_parse_iso_matches_host(col: object) -> None:
    """The backend's parse against the host's: ``ok`` on every row, the other outputs where ok."""
    got = P.parse_iso(col)
    exp = P.parse_iso(col.to(np))
    ok = exp[2]
    np.testing.assert_array_equal(ember.backend.to_host(got[2]), ok, err_msg="ok")
    for name, g, e in zip(("days", "nsod", "ok", "tzoff", "has_tz", "fcnt"), got, exp, strict=True):
        g = ember.backend.to_host(g)
        assert g.dtype == e.dtype, name
        np.testing.assert_array_equal(g[ok], e[ok], err_msg=name)


def test_parse_iso_device_matches_host_tricky(xp: object) -> None:
    """The device kernel against the host parse: the same ok on every row, the same outputs where ok
    (pandas is the oracle of the host parse: test_to_datetime_iso_grammar_like_pandas_*)."""
    if xp is np:
        pytest.skip("a differential test of the device kernel (run with --backend gpu)")
    data = [None if s is None else s.encode() for s in ISO_TRICKY]
    data += [b"2020-01-01\xff", b"\x00", b"2020-01-01T10:11\x00", b"2020-01-01T10:11:12.5\xc3"]
    full = b"2020-01-01T10:11:12.123456789+05:30 trailing garbage"
    data += [full[:k] for k in range(1, 41)]
    _assert_parse_iso_matches_host(_iso_column(data, xp))
    _assert_parse_iso_matches_host(_iso_column([s for s in data if s is not None], xp))  # no mask
    _assert_parse_iso_matches_host(_iso_column([], xp))
    assert P.parse_iso(_iso_column(data, np))[2].sum() > 20  # the list does reach the valid forms


def test_parse_iso_device_matches_host_fuzz(xp: object) -> None:
    if xp is np:
        pytest.skip("a differential test of the device kernel (run with --backend gpu)")
    rng = np.random.default_rng(20240611)
    alphabet = np.frombuffer(b"0123456789-:T .Z+", dtype=np.uint8)
    data: list = [bytes(alphabet[rng.integers(0, len(alphabet), rng.integers(0, 31))]) for _ in range(3000)]
    # mutations of valid strings reach the later fields far more often than random ones
    bases = [s.encode() for s in ISO_TRICKY if s is not None]
    for _ in range(3000):
        s = bytearray(bases[rng.integers(len(bases))])
        for _ in range(rng.integers(0, 4)):
            p = int(rng.integers(0, len(s) + 1))
            op = rng.integers(3)
            if op == 0 and p < len(s):
                del s[p]
            elif op == 1:
                s.insert(p, int(alphabet[rng.integers(len(alphabet))]))
            elif p < len(s):
                s[p] = int(alphabet[rng.integers(len(alphabet))])
        data.append(bytes(s))
    data = [None if rng.random() < 0.05 else s for s in data]
    _assert_parse_iso_matches_host(_iso_column(data, xp))


ISO_VALID = [
    "2020-01-01",
    "2020-01",
    "2020-1-5",
    "2020-02-29 23:59",
    "1999-12-31T23:59:59",
    *(f"2021-06-15T01:02:03.{'987654321'[:k]}" for k in range(1, 10)),
    "1677-09-22T00:12:44",
    "2262-04-11T23:47:16",
    None,
]


@pytest.mark.parametrize("frac_digits", [6, 9])
def test_to_datetime_iso_forms_like_pandas(frac_digits: int) -> None:
    values = [s for s in ISO_VALID if s is None or "." not in s or len(s.split(".")[1]) <= frac_digits]
    s = pd.Series(values + ["not a date", "2021-02-29"], dtype="str")
    exp = pd.to_datetime(s, errors="coerce", format="ISO8601")
    _eq(to_datetime(ember.Series(s), errors="coerce", format="ISO8601"), exp)
    for offsets in (["Z", "Z"], ["+05:30", "+0530"], ["-08", "-08:00"]):
        aware = pd.Series([f"2020-01-0{i + 1}T10:11:12{o}" for i, o in enumerate(offsets)], dtype="str")
        _eq(to_datetime(ember.Series(aware), format="ISO8601"), pd.to_datetime(aware, format="ISO8601"))


def test_to_datetime_years_outside_the_nanosecond_range_like_pandas() -> None:
    """Years outside 1677-2262 are exact in the microsecond unit pandas 3 infers; with nanosecond
    fractions they raise OutOfBoundsDatetime (or become NaT with errors='coerce'), as in pandas."""
    s = pd.Series(["9999-12-31", "0001-01-01T10:00:00.5", "1500-06-15 12:30", None])
    _eq(ember.to_datetime(ember.from_pandas(s), format="ISO8601"), pd.to_datetime(s, format="ISO8601"))
    fmt = pd.Series(["1500-12-31 10:00", "2020-01-01 00:00"])
    got = ember.to_datetime(ember.from_pandas(fmt), format="%Y-%m-%d %H:%M")
    _eq(got, pd.to_datetime(fmt, format="%Y-%m-%d %H:%M"))
    wide_ns = pd.Series(["9999-12-31T00:00:00.1234567", "2020-01-01T00:00:00.1234567"])
    with pytest.raises(pd.errors.OutOfBoundsDatetime, match="Out of bounds nanosecond timestamp"):
        pd.to_datetime(wide_ns)
    with pytest.raises(pd.errors.OutOfBoundsDatetime, match="Out of bounds nanosecond timestamp"):
        ember.to_datetime(ember.from_pandas(wide_ns))
    coerced = ember.to_datetime(ember.from_pandas(wide_ns), errors="coerce").to_pandas()
    assert coerced.isna().tolist() == [True, False]
    assert coerced.iloc[1] == pd.Timestamp("2020-01-01T00:00:00.1234567")


def _mutations(rng: np.random.Generator, bases: list[str], count: int) -> list[str]:
    alphabet = list("0123456789-:T .Z+/")
    out = []
    for _ in range(count):
        chars = list(bases[rng.integers(0, len(bases))])
        for _ in range(rng.integers(1, 3)):
            i = int(rng.integers(0, len(chars) + 1))
            op = rng.integers(0, 3)
            if op == 0 and chars:
                del chars[min(i, len(chars) - 1)]
            elif op == 1:
                chars.insert(i, alphabet[rng.integers(0, len(alphabet))])
            elif chars:
                chars[min(i, len(chars) - 1)] = alphabet[rng.integers(0, len(alphabet))]
        out.append("".join(chars))
    return out


ISO_FORMS = [
    "2020-01-01", "2020-1-5", "2020-01", "2020", "20200105", "2020/01/05", "2020.01.05", "2020 01 05",
    "2020-12-31T23:59:59.123456789+05:30", "2020-02-29 12:00", "2021-06-15T01:02:03.5Z", "2020-01-01T10",
    "2020-01-01T1:02", "2020-01-01T10:02+0530", "2020-01-01T10:02:03-08", "2020-01-01T10:02+5",
    "2020-01-01 10:02:03.", "20200105T1002", "  2020-01-05", "2020-01-05T10:02:03  Z ",
    "2020-01-05T10:02:03.1234567890123", "2020-01-05T10:02+1:30",
]  # fmt: skip


def test_to_datetime_iso_grammar_like_pandas_on_mutated_strings() -> None:
    """pandas' format="ISO8601" grammar as the oracle, on valid forms and on ~1,500 one- or two-character
    mutations of them (errors="coerce": the same value, or NaT where pandas fails). Negative years
    (a leading '-') are not supported and left out."""
    strings = ISO_FORMS + _mutations(np.random.default_rng(7), ISO_FORMS, 1500)
    strings = [s for s in strings if not s.lstrip().startswith("-")]
    for s in strings:
        exp = pd.to_datetime(pd.Series([s]), format="ISO8601", errors="coerce")
        got = to_datetime(ember.Series(pd.Series([s])), errors="coerce", format="ISO8601").to_pandas()
        assert (pd.isna(exp.iloc[0]) and pd.isna(got.iloc[0])) or exp.iloc[0] == got.iloc[0], (s, exp, got)
