"""``Series.dt`` algorithms and datetime parsing on int64 ticks, vectorized (NumPy or CuPy).

Calendar fields come from Howard Hinnant's ``civil_from_days`` / ``days_from_civil`` (proleptic
Gregorian, exact for the whole int64 tick range) written over arrays. Time zones: a column holds UTC
ticks; local wall time is UTC plus the zone's offset, looked up with ``searchsorted`` in a table of
(transition instant, offset) pairs built on the host for the data's time span from ``zoneinfo`` (the
offset is sampled once a day across the span and every change is bisected to the second: a host step
proportional to the number of days spanned, not to the rows). Strings are parsed on their bytes with a
cursor per row: each format directive is a few vectorized byte comparisons (ISO 8601 strings on the
device go through a CUDA kernel instead, one thread per row, with the same grammar).
"""

from __future__ import annotations

import datetime as _dt
import functools
from typing import Any

import numpy as np
import pandas as pd

from ember.backend import asarray_on, is_device_array, to_host
from ember.column import Column, DatetimeColumn, NumericColumn, StringColumn, TimedeltaColumn
from ember.ops._common import UNIT_NS

DAY_S = 86_400


def per_second(unit: str) -> int:
    return 1_000_000_000 // UNIT_NS[unit]


def per_day(unit: str) -> int:
    return DAY_S * per_second(unit)


# --- Hinnant's civil calendar algorithms ---------------------------------------------------------------


def civil_from_days(xp: Any, z: Any) -> tuple[Any, Any, Any]:
    """(year, month 1-12, day 1-31) of days since 1970-01-01."""
    z = z + 719468
    era = xp.floor_divide(z, 146097)
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    y = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = xp.where(mp < 10, mp + 3, mp - 9)
    return y + (m <= 2), m, d


def days_from_civil(xp: Any, y: Any, m: Any, d: Any) -> Any:
    """Days since 1970-01-01 of (year, month, day) arrays (month/day may be arrays or ints)."""
    y = y - (m <= 2)
    era = xp.floor_divide(y, 400)
    yoe = y - era * 400
    mp = m - 3 if np.isscalar(m) and m > 2 else (m + 9 if np.isscalar(m) else xp.where(m > 2, m - 3, m + 9))
    doy = (153 * mp + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def is_leap(y: Any) -> Any:
    return ((y % 4 == 0) & (y % 100 != 0)) | (y % 400 == 0)


def days_in_month(xp: Any, y: Any, m: Any) -> Any:
    table = asarray_on(np.array([0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31], dtype=np.int64), xp)
    return table[m] + ((m == 2) & is_leap(y))


# --- time zones ----------------------------------------------------------------------------------------


def normalize_tz(tz: Any) -> Any:
    """The tz object pandas would store for ``tz`` (zoneinfo for names, datetime.timezone for UTC)."""
    if tz is None:
        return None
    return pd.DatetimeTZDtype(unit="ns", tz=tz).tz


def _utcoffset(tz: Any, sec: int) -> int:
    when = _dt.datetime(1970, 1, 1, tzinfo=_dt.UTC) + _dt.timedelta(seconds=sec)
    return int(when.astimezone(tz).utcoffset().total_seconds())


@functools.lru_cache(maxsize=64)
def _offset_table(tz: Any, lo_day: int, hi_day: int) -> tuple[np.ndarray, np.ndarray]:
    """(transition instants in UTC seconds, offsets in seconds (one more than transitions))."""
    days = range(lo_day - 2, hi_day + 3)
    trans: list[int] = []
    offs = [_utcoffset(tz, (lo_day - 2) * DAY_S)]
    for d in days[1:]:
        o = _utcoffset(tz, d * DAY_S)
        if o != offs[-1]:
            a, b = (d - 1) * DAY_S, d * DAY_S  # offset(a) == offs[-1], offset(b) == o
            while b - a > 1:
                mid = (a + b) // 2
                if _utcoffset(tz, mid) == offs[-1]:
                    a = mid
                else:
                    b = mid
            trans.append(b)
            offs.append(o)
    return np.asarray(trans, dtype=np.int64), np.asarray(offs, dtype=np.int64)


def _fixed_offset(tz: Any) -> int | None:
    if isinstance(tz, _dt.timezone):
        return int(tz.utcoffset(None).total_seconds())
    return None


def _span_days(xp: Any, ticks: Any, valid: Any, unit: str) -> tuple[int, int]:
    """Min and max day of the valid ticks (one sync)."""
    if ticks.shape[0] == 0:
        return 0, 0
    day = xp.floor_divide(ticks, per_day(unit))
    big = np.iinfo(np.int64).max
    lo = xp.min(xp.where(valid, day, big)) if valid is not None else xp.min(day)
    hi = xp.max(xp.where(valid, day, -big)) if valid is not None else xp.max(day)
    both = to_host(xp.stack([lo, hi]))
    if both[0] > both[1]:
        return 0, 0
    return int(both[0]), int(both[1])


def utc_offsets(xp: Any, utc_ticks: Any, valid: Any, unit: str, tz: Any) -> Any:
    """Offset of ``tz`` from UTC at each instant, in ticks of ``unit``."""
    ps = per_second(unit)
    fixed = _fixed_offset(tz)
    if fixed is not None:
        return xp.full(utc_ticks.shape[0], fixed * ps, dtype=np.int64)
    lo, hi = _span_days(xp, utc_ticks, valid, unit)
    trans, offs = _offset_table(tz, lo, hi)
    sec = xp.floor_divide(utc_ticks, ps)
    idx = xp.searchsorted(asarray_on(trans, xp), sec, side="right")
    return asarray_on(offs, xp)[idx] * ps


def local_ticks(col: DatetimeColumn) -> Any:
    """Wall-clock ticks (UTC plus the zone's offset for aware columns)."""
    if col.tz is None:
        return col.data
    return col.data + utc_offsets(col.xp, col.data, col.mask, col.unit, col.tz)


def tz_localize(
    col: DatetimeColumn, tz: Any, ambiguous: Any = "raise", nonexistent: str = "raise"
) -> DatetimeColumn:
    """Wall-clock ticks in ``tz`` -> UTC ticks, with pandas' ambiguous / nonexistent handling."""
    xp = col.xp
    if tz is None:
        if col.tz is None:
            return col
        return DatetimeColumn(local_ticks(col), col.unit, None, col.mask)
    if col.tz is not None:
        raise TypeError("Already tz-aware, use tz_convert to convert.")
    tz = normalize_tz(tz)
    t = col.data
    ps, pd_ = per_second(col.unit), per_day(col.unit)
    mask = col.mask
    if _fixed_offset(tz) is not None:
        return DatetimeColumn(t - _fixed_offset(tz) * ps, col.unit, tz, mask)
    o_before = utc_offsets(xp, t - pd_, mask, col.unit, tz)
    o_after = utc_offsets(xp, t + pd_, mask, col.unit, tz)
    u1, u2 = t - o_before, t - o_after
    v1 = utc_offsets(xp, u1, mask, col.unit, tz) == o_before
    v2 = utc_offsets(xp, u2, mask, col.unit, tz) == o_after
    valid = xp.ones(t.shape[0], dtype=bool) if mask is None else mask
    amb = v1 & v2 & (u1 != u2) & valid
    gap = ~v1 & ~v2 & valid
    out = xp.where(v1, u1, u2)
    new_valid = valid
    if isinstance(ambiguous, str):
        if ambiguous == "raise":
            _raise_at(col, amb, "Cannot infer dst time from {}, try using the 'ambiguous' argument")
        elif ambiguous == "NaT":
            new_valid = new_valid & ~amb
        else:
            raise NotImplementedError(
                f"tz_localize: ambiguous={ambiguous!r} is not supported; use 'raise', "
                "'NaT' or a boolean array"
            )
    else:
        dst = asarray_on(np.asarray(ambiguous, dtype=bool), xp)
        larger = o_before > o_after
        pick1 = xp.where(dst, larger, ~larger)
        out = xp.where(amb, xp.where(pick1, u1, u2), out)
    if nonexistent == "raise":
        _raise_at(
            col,
            gap,
            "{} is a nonexistent time due to daylight savings time. Try using the 'nonexistent' argument.",
        )
    elif nonexistent == "NaT":
        new_valid = new_valid & ~gap
    elif nonexistent in ("shift_forward", "shift_backward"):
        lo, hi = _span_days(xp, t, mask, col.unit)
        trans, _ = _offset_table(tz, lo, hi)
        tr = asarray_on(trans, xp) * ps
        nxt = (
            tr[xp.minimum(xp.searchsorted(tr, u2, side="right"), max(tr.shape[0] - 1, 0))]
            if tr.shape[0]
            else u2
        )
        shifted = nxt if nonexistent == "shift_forward" else nxt - 1
        out = xp.where(gap, shifted, out)
    else:
        raise NotImplementedError(
            f"tz_localize: nonexistent={nonexistent!r} is not supported; use 'raise', "
            "'NaT', 'shift_forward' or 'shift_backward'"
        )
    if mask is None and new_valid is valid:
        new_mask = None
    else:
        new_mask = new_valid
    return DatetimeColumn(out, col.unit, tz, new_mask)


def _raise_at(col: DatetimeColumn, bad: Any, message: str) -> None:
    hits = to_host(col.xp.flatnonzero(bad)[:1])
    if hits.shape[0]:
        value = pd.Timestamp(int(to_host(col.data[int(hits[0]) : int(hits[0]) + 1])[0]), unit=col.unit)
        raise ValueError(message.format(value))


def tz_convert(col: DatetimeColumn, tz: Any) -> DatetimeColumn:
    if col.tz is None:
        raise TypeError("Cannot convert tz-naive timestamps, use tz_localize to localize")
    return DatetimeColumn(col.data, col.unit, normalize_tz(tz) if tz is not None else None, col.mask)


# --- fields --------------------------------------------------------------------------------------------

INT_FIELDS = (
    "year",
    "month",
    "day",
    "hour",
    "minute",
    "second",
    "microsecond",
    "nanosecond",
    "dayofweek",
    "day_of_week",
    "weekday",
    "dayofyear",
    "day_of_year",
    "quarter",
    "days_in_month",
    "daysinmonth",
)
BOOL_FIELDS = (
    "is_month_start",
    "is_month_end",
    "is_quarter_start",
    "is_quarter_end",
    "is_year_start",
    "is_year_end",
    "is_leap_year",
)


def _parts(col: DatetimeColumn) -> tuple[Any, Any]:
    """(days since epoch, ticks within the day) of the wall-clock time."""
    xp = col.xp
    t = local_ticks(col)
    pdd = per_day(col.unit)
    days = xp.floor_divide(t, pdd)
    return days, t - days * pdd


def field(col: DatetimeColumn, name: str) -> NumericColumn:
    """An integer or boolean calendar field (int32 as pandas; float64 with NaN where NaT)."""
    xp = col.xp
    days, tod = _parts(col)
    ps = per_second(col.unit)
    y, m, d = civil_from_days(xp, days)
    if name in BOOL_FIELDS:
        dim = days_in_month(xp, y, m)
        out = {
            "is_month_start": d == 1,
            "is_month_end": d == dim,
            "is_quarter_start": (d == 1) & (m % 3 == 1),
            "is_quarter_end": (d == dim) & (m % 3 == 0),
            "is_year_start": (d == 1) & (m == 1),
            "is_year_end": (d == 31) & (m == 12),
            "is_leap_year": is_leap(y),
        }[name]
        return NumericColumn(out if col.mask is None else out & col.mask)
    sec = tod // ps
    sub_ns = (tod - sec * ps) * UNIT_NS[col.unit]
    vals = {
        "year": lambda: y,
        "month": lambda: m,
        "day": lambda: d,
        "hour": lambda: sec // 3600,
        "minute": lambda: sec // 60 % 60,
        "second": lambda: sec % 60,
        "microsecond": lambda: sub_ns // 1000,
        "nanosecond": lambda: sub_ns % 1000,
        "dayofweek": lambda: (days + 3) % 7,
        "dayofyear": lambda: days - days_from_civil(xp, y, 1, 1) + 1,
        "quarter": lambda: (m - 1) // 3 + 1,
        "days_in_month": lambda: days_in_month(xp, y, m),
    }
    alias = {
        "day_of_week": "dayofweek",
        "weekday": "dayofweek",
        "day_of_year": "dayofyear",
        "daysinmonth": "days_in_month",
    }
    out = vals[alias.get(name, name)]().astype(np.int32)
    if col.mask is None:
        return NumericColumn(out)
    return NumericColumn(xp.where(col.mask, out.astype(np.float64), np.nan))


_DAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_MONTH_NAMES = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]


def names(col: DatetimeColumn, kind: str) -> StringColumn:
    """day_name / month_name: a gather from a 7- or 12-row string column."""
    import pyarrow as pa

    xp = col.xp
    days, _ = _parts(col)
    if kind == "day_name":
        idx, table = (days + 3) % 7, _DAY_NAMES
    else:
        idx, table = civil_from_days(xp, days)[1] - 1, _MONTH_NAMES
    names_col = StringColumn.from_arrow(pa.array(table, type=pa.large_string()), xp)
    out = names_col.take(idx)
    return out.with_mask(col.mask)


# --- rounding ------------------------------------------------------------------------------------------


def fixed_nanos(off: Any) -> int:
    """Nanoseconds of a fixed offset. 'D' counts as 24 h on tz-naive data: pandas 3.0 made Day a
    calendar offset (no ``.nanos``), pandas 3.1 a Tick again; both spell it off.name == 'D'."""
    if off.name == "D":
        return int(off.n) * 86_400 * 10**9
    return int(off.nanos)


def freq_ticks(freq: Any, unit: str, fn: str) -> int:
    """A fixed frequency ('D', 'h', '15min', 's', 'ms', 'us', 'ns', Timedelta) in ticks of ``unit``."""
    try:
        off = pd.tseries.frequencies.to_offset(freq)
        nanos = fixed_nanos(off)
    except (ValueError, TypeError) as exc:
        raise ValueError(
            f"{fn}: {freq!r} is a non-fixed frequency; supported: fixed frequencies "
            "(D, h, min, s, ms, us, ns and multiples)"
        ) from exc
    if nanos % UNIT_NS[unit]:
        return max(nanos // UNIT_NS[unit], 1)
    return nanos // UNIT_NS[unit]


def round_ticks(xp: Any, t: Any, step: int, how: str) -> Any:
    """floor / ceil / round (half to even, as pandas) of ticks to a multiple of ``step``."""
    q = xp.floor_divide(t, step)
    r = t - q * step
    if how == "floor":
        return q * step
    if how == "ceil":
        return (q + (r > 0)) * step
    up = (2 * r > step) | ((2 * r == step) & (q % 2 == 1))
    return (q + up) * step


def round_col(
    col: DatetimeColumn | TimedeltaColumn,
    freq: Any,
    how: str,
    ambiguous: Any = "raise",
    nonexistent: str = "raise",
) -> Column:
    xp = col.xp
    step = freq_ticks(freq, col.unit, how)
    if isinstance(col, TimedeltaColumn):
        return TimedeltaColumn(round_ticks(xp, col.data, step, how), col.unit, col.mask)
    if col.tz is None:
        return DatetimeColumn(round_ticks(xp, col.data, step, how), col.unit, None, col.mask)
    wall = DatetimeColumn(round_ticks(xp, local_ticks(col), step, how), col.unit, None, col.mask)
    return tz_localize(wall, col.tz, ambiguous, nonexistent)


def normalize(col: DatetimeColumn) -> DatetimeColumn:
    return round_col(col, "D", "floor")


# --- strftime ------------------------------------------------------------------------------------------

_WIDTH = {"Y": 4, "m": 2, "d": 2, "H": 2, "M": 2, "S": 2, "f": 6, "y": 2, "j": 3, "I": 2}
_ABBR_DAYS = [d[:3] for d in _DAY_NAMES]
_ABBR_MONTHS = [m[:3] for m in _MONTH_NAMES]


def _format_tokens(fmt: str) -> list[tuple[str, str]]:
    out, i = [], 0
    while i < len(fmt):
        if fmt[i] == "%" and i + 1 < len(fmt):
            out.append(("dir", fmt[i + 1]))
            i += 2
        else:
            out.append(("lit", fmt[i]))
            i += 1
    return out


def strftime(col: DatetimeColumn, fmt: str) -> StringColumn:
    """Fixed-width directives (%Y %m %d %H %M %S %f %y %j %I %p %a %b %%) assembled as bytes: every row
    has the same length, so the output is one (n, width) byte matrix. Years must be 0-9999."""
    xp = col.xp
    days, tod = _parts(col)
    y, m, d = civil_from_days(xp, days)
    ps = per_second(col.unit)
    sec = tod // ps
    us = (tod - sec * ps) * UNIT_NS[col.unit] // 1000
    hour = sec // 3600
    values = {
        "Y": y,
        "m": m,
        "d": d,
        "H": hour,
        "M": sec // 60 % 60,
        "S": sec % 60,
        "f": us,
        "y": y % 100,
        "j": days - days_from_civil(xp, y, 1, 1) + 1,
        "I": (hour + 11) % 12 + 1,
    }
    pieces: list[Any] = []
    n = days.shape[0]
    for kind, v in _format_tokens(fmt):
        if kind == "lit" or v == "%":
            for b in (v if kind == "lit" else "%").encode("utf-8"):
                pieces.append(xp.full(n, b, dtype=np.uint8))
        elif v in _WIDTH:
            x = values[v]
            for k in range(_WIDTH[v] - 1, -1, -1):
                pieces.append((48 + (x // 10**k) % 10).astype(np.uint8))
        elif v in ("a", "b", "p"):
            table = {"a": _ABBR_DAYS, "b": _ABBR_MONTHS, "p": ["AM", "PM"]}[v]
            idx = {"a": (days + 3) % 7, "b": m - 1, "p": (hour >= 12).astype(np.int64)}[v]
            mat = asarray_on(
                np.frombuffer("".join(table).encode(), dtype=np.uint8).reshape(len(table), -1), xp
            )
            for k in range(mat.shape[1]):
                pieces.append(mat[idx, k])
        else:
            raise NotImplementedError(
                f"strftime: the directive %{v} is not supported; supported: "
                "%Y %m %d %H %M %S %f %y %j %I %p %a %b %%"
            )
    width = len(pieces)
    chars = xp.stack(pieces, axis=1).reshape(-1) if width and n else xp.zeros(0, dtype=np.uint8)
    offsets = xp.arange(n + 1, dtype=np.int64) * width
    return StringColumn(offsets, chars.astype(np.uint8), col.mask)


# --- timedelta fields ----------------------------------------------------------------------------------


def td_field(col: TimedeltaColumn, name: str) -> NumericColumn:
    xp = col.xp
    t = col.data
    pdd, ps = per_day(col.unit), per_second(col.unit)
    days = xp.floor_divide(t, pdd)
    rest = t - days * pdd
    if name == "total_seconds":
        out = t / ps
        return NumericColumn(out if col.mask is None else xp.where(col.mask, out, np.nan))
    sec = rest // ps
    sub_ns = (rest - sec * ps) * UNIT_NS[col.unit]
    vals = {"days": days, "seconds": sec, "microseconds": sub_ns // 1000, "nanoseconds": sub_ns % 1000}
    if name not in vals:
        raise NotImplementedError(
            f".dt.{name} is not supported for timedeltas; supported: days, seconds, "
            "microseconds, nanoseconds, total_seconds"
        )
    out = vals[name]
    if name != "days":
        out = out.astype(np.int32)
    if col.mask is None:
        return NumericColumn(out)
    return NumericColumn(xp.where(col.mask, out.astype(np.float64), np.nan))


# --- parsing -------------------------------------------------------------------------------------------


class _Cursor:
    """Per-row read positions over a string column's bytes."""

    def __init__(self, col: StringColumn) -> None:
        xp = self.xp = col.xp
        self.start = col.offsets[:-1]
        self.end = col.offsets[1:]
        self.chars = xp.concatenate([col.chars, xp.zeros(1, dtype=np.uint8)])
        self.pos = self.start.copy()
        self.ok = xp.ones(self.start.shape[0], dtype=bool) if col.mask is None else col.mask.copy()
        self.fields: dict[str, Any] = {}

    def byte(self, k: int = 0) -> Any:
        p = self.pos + k
        return self.xp.where(p < self.end, self.chars[self.xp.minimum(p, self.chars.shape[0] - 1)], 0)

    def lit(self, b: int, where: Any = None) -> None:
        hit = self.byte() == b
        w = self.ok if where is None else self.ok & where
        self.ok &= hit | ~w
        self.pos = self.pos + (w & hit)

    def num(self, minw: int, maxw: int, where: Any = None) -> tuple[Any, Any]:
        xp = self.xp
        v = xp.zeros(self.pos.shape[0], dtype=np.int64)
        cnt = xp.zeros(self.pos.shape[0], dtype=np.int64)
        active = self.ok if where is None else self.ok & where
        w = active
        for k in range(maxw):
            b = self.byte(k).astype(np.int64)
            isd = active & (b >= 48) & (b <= 57)
            v = xp.where(isd, v * 10 + b - 48, v)
            cnt += isd
            active = isd
        self.ok &= (cnt >= minw) | ~w
        self.pos = self.pos + cnt
        return v, cnt

    def text(self, options: list[str], where: Any = None) -> Any:
        """Index of the (case-insensitive) option found at the cursor, -1 when none."""
        xp = self.xp
        found = xp.full(self.pos.shape[0], -1, dtype=np.int64)
        flen = xp.zeros(self.pos.shape[0], dtype=np.int64)
        for i, opt in enumerate(options):
            hit = found < 0
            for k, ch in enumerate(opt.lower().encode()):
                hit &= (self.byte(k) | 0x20) == ch
            found = xp.where(hit, i, found)
            flen = xp.where(hit, len(opt), flen)
        w = self.ok if where is None else self.ok & where
        self.ok &= (found >= 0) | ~w
        self.pos = self.pos + xp.where(w, flen, 0)
        return found


def _tz_suffix(cur: _Cursor) -> tuple[Any, Any]:
    """Optional 'Z' or ±HH[:MM] at the cursor: (offset seconds, present)."""
    xp = cur.xp
    b = cur.byte()
    z = cur.ok & (b == 90)
    cur.pos = cur.pos + z
    sign = cur.ok & ((b == 43) | (b == 45))
    cur.pos = cur.pos + sign
    hh, _ = cur.num(2, 2, sign)
    colon = sign & (cur.byte() == 58)
    cur.pos = cur.pos + colon
    mm, mcnt = cur.num(0, 2, sign)
    off = (hh * 3600 + mm * 60) * xp.where(b == 45, -1, 1)
    return xp.where(sign, off, 0), z | sign


_MAX_SPACES = 8  # leading whitespace, and whitespace around a time zone, read per row (pandas: any)


def parse_iso(col: StringColumn) -> tuple[Any, Any, Any, Any, Any, Any]:
    """ISO 8601 per row, with pandas' ``format="ISO8601"`` grammar (its vendored NumPy parser):

        [ws] YYYY [S M[M] [S D[D]]] | YYYYMMDD           S one of - / . and space, the same twice
        then optionally (T|space) H[H] [[:]MM [[:]SS [.f{0,18}]]]   one-digit fields only with ':'
        then optionally [ws] Z | (+|-)H[H][[:]M[M]] [ws]

    (year-month needs the separator; an hour alone needs two digits; fractions keep 9 digits.)
    Returns (days since epoch and ns into the day of the wall time, ok, tz offset seconds, tz present,
    fraction digits); only rows with ok are meaningful.
    On the device a CUDA kernel (``ember.backend.kernels.iso``) parses one row per thread with the
    same grammar; the vectorized code below is its reference."""
    if is_device_array(col.chars):
        # the vectorized parse is a few hundred full-column passes; the kernel reads each string once
        from ember.backend.kernels.iso import parse_iso_device

        return parse_iso_device(col.offsets, col.chars, col.mask)
    return _IsoParse(col).run()


class _IsoParse:
    """The vectorized ISO 8601 parse: every row advances its own read position; ``ok`` turns False at a
    row's first error and ``done`` marks rows that ended early (date only, hour or minutes last)."""

    def __init__(self, col: StringColumn) -> None:
        xp = self.xp = col.xp
        self.end = col.offsets[1:]
        self.chars = xp.concatenate([col.chars, xp.zeros(1, dtype=np.uint8)])
        self.pos = col.offsets[:-1].astype(np.int64)
        n = self.pos.shape[0]
        self.ok = xp.ones(n, dtype=bool) if col.mask is None else col.mask.copy()
        self.done = xp.zeros(n, dtype=bool)

    def at(self, k: int = 0) -> Any:
        """The byte k past each row's position (0 past the row's end), as int64."""
        xp = self.xp
        p = self.pos + k
        return xp.where(p < self.end, self.chars[xp.minimum(p, self.chars.shape[0] - 1)], 0).astype(np.int64)

    @staticmethod
    def digit(b: Any) -> Any:
        return (b >= 48) & (b <= 57)

    @staticmethod
    def space(b: Any) -> Any:
        return (b == 32) | ((b >= 9) & (b <= 13))

    def active(self) -> Any:
        return self.ok & ~self.done

    def skip_spaces(self, rows: Any) -> None:
        for _ in range(_MAX_SPACES):
            step = rows & self.space(self.at())
            if not bool(step.any()):  # host arrays (the device runs the kernel): no sync to fear
                return
            self.pos = self.pos + step

    def field(self, rows: Any, two_needed: Any, default: int) -> tuple[Any, Any]:
        """A one- or two-digit field at the position of ``rows`` (first digit required; the second
        required where ``two_needed``): (value, whether it had two digits)."""
        xp = self.xp
        b0 = self.at()
        self.ok &= ~rows | self.digit(b0)
        rows = rows & self.ok
        v = xp.where(rows, b0 - 48, default)
        self.pos = self.pos + rows
        b1 = self.at()
        two = rows & self.digit(b1)
        v = xp.where(two, v * 10 + b1 - 48, v)
        self.pos = self.pos + two
        self.ok &= ~rows | two | ~two_needed
        return v, two

    def end_here(self, rows: Any) -> Any:
        """Rows among ``rows`` whose text ends at their position (marked done)."""
        ended = rows & self.ok & (self.pos == self.end)
        self.done |= ended
        return ended

    def run(self) -> tuple[Any, Any, Any, Any, Any, Any]:
        xp = self.xp
        n = self.pos.shape[0]
        self.skip_spaces(self.ok)
        y = xp.zeros(n, dtype=np.int64)
        for k in range(4):
            b = self.at(k)
            self.ok &= self.digit(b)
            y = y * 10 + b - 48
        self.pos = self.pos + 4 * self.ok
        self.end_here(self.ok)  # the year alone
        b = self.at()
        act = self.active()
        sep = xp.where(act & ((b == 45) | (b == 47) | (b == 46) | (b == 32)), b, 0)
        has_sep = sep != 0
        self.ok &= ~act | has_sep | self.digit(b)
        self.pos = self.pos + (act & has_sep)
        mo, _ = self.field(self.active(), ~has_sep, 1)
        ended = self.end_here(self.active())
        self.ok &= ~ended | has_sep  # YYYYMM is not a date
        act = self.active() & has_sep
        self.ok &= ~act | ((self.at() == sep) & (self.pos + 1 < self.end))
        self.pos = self.pos + (act & self.ok)
        d, _ = self.field(self.active(), ~has_sep, 1)
        self.end_here(self.active())
        act = self.active()
        b = self.at()
        self.ok &= ~act | (((b == 84) | (b == 32)) & (self.pos + 1 < self.end))
        self.pos = self.pos + (act & self.ok)
        hh, two_h = self.field(self.active(), xp.zeros(n, dtype=bool), 0)
        ended = self.end_here(self.active())
        self.ok &= ~ended | two_h  # an hour alone has two digits
        act = self.active()
        b = self.at()
        has_hms = act & (b == 58)
        self.pos = self.pos + has_hms
        self.ok &= ~has_hms | self.digit(self.at())
        to_tz = act & ~has_hms & ~self.digit(b)
        self.ok &= ~to_tz | two_h
        rows = act & ~to_tz & self.ok
        mi, _ = self.field(rows, ~has_hms, 0)
        rows &= self.ok & ~self.end_here(rows)
        b = self.at()
        sec = rows & ((has_hms & (b == 58)) | (~has_hms & self.digit(b)))
        colon = sec & has_hms
        self.pos = self.pos + colon
        self.ok &= ~colon | self.digit(self.at())
        sec &= self.ok
        ss, _ = self.field(sec, ~has_hms, 0)
        sec &= self.ok
        frac = xp.zeros(n, dtype=np.int64)
        fcnt = xp.zeros(n, dtype=np.int64)
        reading = sec & (self.at() == 46)
        self.pos = self.pos + reading
        for k in range(18):  # pandas reads up to 18 fraction digits (to attoseconds); ns keep 9
            b = self.at()
            reading = reading & self.digit(b)
            if not bool(reading.any()):
                break
            if k < 9:
                frac = xp.where(reading, frac * 10 + b - 48, frac)
                fcnt = fcnt + reading
            self.pos = self.pos + reading
        tzoff, has_tz = self._zone(hh, mi, ss)
        valid = _valid_date(xp, y, mo, d, hh, mi, ss)
        days, nsod = _assemble(xp, y, mo, d, hh, mi, ss, frac, fcnt, self.ok)
        return days, nsod, self.ok & valid, tzoff, has_tz, fcnt

    def _zone(self, hh: Any, mi: Any, ss: Any) -> tuple[Any, Any]:
        """The optional zone after the time: [ws] Z | (+|-)H[H][[:]M[M]] [ws]; every row not done must
        end after it. Returns (offset seconds, zone present)."""
        xp = self.xp
        rows = self.active()
        self.skip_spaces(rows)
        rows &= ~self.end_here(rows)
        b = self.at()
        z = rows & (b == 90)
        sign = rows & ((b == 43) | (b == 45))
        self.pos = self.pos + (z | sign)
        th, tcount = self._offset_part(sign)
        self.ok &= ~sign | (th < 24)
        more = sign & self.ok & (self.pos < self.end)
        self.pos = self.pos + (more & (self.at() == 58))
        tm, _ = self._offset_part(more)
        self.ok &= ~more | (tm < 60)
        self.skip_spaces(rows & self.ok)
        self.ok &= ~rows | (self.pos == self.end)
        off = (th * 3600 + tm * 60) * xp.where(b == 45, -1, 1)
        return xp.where(sign, off, 0), z | sign

    def _offset_part(self, rows: Any) -> tuple[Any, Any]:
        """Two digits, else one, at the position of ``rows`` (one required): (value, digits read)."""
        xp = self.xp
        b0, b1 = self.at(), self.at(1)
        two = rows & self.digit(b0) & self.digit(b1)
        one = rows & self.digit(b0) & ~self.digit(b1)
        self.ok &= ~rows | two | one
        v = xp.where(two, (b0 - 48) * 10 + b1 - 48, xp.where(one, b0 - 48, 0))
        count = xp.where(two, 2, xp.where(one, 1, 0))
        self.pos = self.pos + count
        return v, count


def _assemble(
    xp: Any, y: Any, mo: Any, d: Any, hh: Any, mi: Any, ss: Any, frac: Any, fcnt: Any, ok: Any
) -> tuple[Any, Any]:
    """(days since 1970-01-01, nanoseconds into the day): kept apart so that years outside the
    nanosecond range (1677-2262) still convert exactly to the coarser units."""
    mo_s = xp.clip(mo, 1, 12)
    days = days_from_civil(xp, xp.where(ok, y, 1970), mo_s, xp.clip(d, 1, 31))
    scale = asarray_on(10 ** (9 - np.arange(10, dtype=np.int64)), xp)[xp.clip(fcnt, 0, 9)]
    return days, ((hh * 60 + mi) * 60 + ss) * 1_000_000_000 + frac * scale


def _valid_date(xp: Any, y: Any, mo: Any, d: Any, hh: Any, mi: Any, ss: Any) -> Any:
    ok = (mo >= 1) & (mo <= 12) & (d >= 1) & (hh < 24) & (mi < 60) & (ss < 60)
    return ok & (d <= days_in_month(xp, y, xp.clip(mo, 1, 12)))


_DIRECTIVES = "YmdHMSfyjIpbBaAzZ%"


def parse_format(col: StringColumn, fmt: str) -> tuple[Any, Any, Any, Any, Any]:
    """strptime subset: %Y %m %d %H %M %S %f %y %I %p %b %B %a %A %z %%, literal text. Same
    return as :func:`parse_iso`."""
    cur = _Cursor(col)
    xp = cur.xp
    n = cur.pos.shape[0]
    zero = xp.zeros(n, dtype=np.int64)
    f = {"Y": zero + 1900, "m": zero + 1, "d": zero + 1, "H": zero, "M": zero, "S": zero, "f": zero}
    fcnt, pm, tzoff, has_tz = zero, None, zero, xp.zeros(n, dtype=bool)
    for kind, v in _format_tokens(fmt):
        if kind == "lit" or v == "%":
            for b in (v if kind == "lit" else "%").encode():
                if b == 32:  # strptime: a space matches any run of whitespace (here: one or more spaces)
                    cur.lit(32)
                    while_more = cur.ok & (cur.byte() == 32)
                    for _ in range(8):
                        cur.pos = cur.pos + while_more
                        while_more = while_more & (cur.byte() == 32)
                else:
                    cur.lit(b)
        elif v in "YmdHMSIy":
            w = {"Y": (4, 4), "y": (2, 2)}.get(v, (1, 2))
            val, _ = cur.num(*w)
            key = {"y": "Y", "I": "H"}.get(v, v)
            f[key] = val + 2000 - 100 * (val >= 69) if v == "y" else val
        elif v == "f":
            f["f"], fcnt = cur.num(1, 9)
            fcnt = xp.minimum(fcnt, 9)
        elif v == "p":
            pm = cur.text(["AM", "PM"]) == 1
        elif v in "bB":
            f["m"] = cur.text(_MONTH_NAMES if v == "B" else _ABBR_MONTHS) + 1
        elif v in "aA":
            cur.text(_DAY_NAMES if v == "A" else _ABBR_DAYS)
        elif v == "z":
            tzoff, has_tz = _tz_suffix(cur)
        else:
            raise NotImplementedError(
                f"to_datetime: format directive %{v} is not supported; supported: "
                + " ".join("%" + c for c in _DIRECTIVES if c != "Z")
            )
    if pm is not None:
        f["H"] = f["H"] % 12 + 12 * pm
    ok = cur.ok & (cur.pos == cur.end)
    days, nsod = _assemble(xp, f["Y"], f["m"], f["d"], f["H"], f["M"], f["S"], f["f"], fcnt, ok)
    valid = _valid_date(xp, f["Y"], f["m"], f["d"], f["H"], f["M"], f["S"])
    return days, nsod, ok & valid, tzoff, has_tz, fcnt


def strings_to_datetime(
    col: StringColumn, fmt: str | None = None, errors: str = "raise", utc: bool = False
) -> DatetimeColumn:
    """Parse a string column; unit ``us`` (``ns`` when a value has more than 6 fraction digits), as
    pandas 3 infers it. Offsets: all equal -> that fixed offset; ``utc=True`` -> UTC. Syncs twice."""
    if errors not in ("raise", "coerce"):
        raise ValueError(f"to_datetime: errors must be 'raise' or 'coerce', got {errors!r}")
    xp = col.xp
    days, nsod, ok, tzoff, has_tz, fcnt = (
        parse_iso(col) if fmt in (None, "ISO8601", "iso8601") else parse_format(col, fmt)
    )
    valid = col.mask
    bad = ~ok if valid is None else valid & ~ok
    good = ok if valid is None else valid & ok
    stats = to_host(
        xp.stack(
            [
                bad.any().astype(np.int64),
                xp.where(good, fcnt, 0).max() if fcnt.shape[0] else xp.asarray(0),
                (good & has_tz).any().astype(np.int64),
                (good & ~has_tz).any().astype(np.int64),
                xp.where(good & has_tz, tzoff, 1 << 40).min() if fcnt.shape[0] else xp.asarray(0),
                xp.where(good & has_tz, tzoff, -(1 << 40)).max() if fcnt.shape[0] else xp.asarray(0),
            ]
        )
    )
    if stats[0] and errors == "raise":
        i = int(to_host(xp.flatnonzero(bad)[:1])[0])
        value = col.take(xp.asarray([i])).to_pandas().iloc[0]
        what = f'doesn\'t match format "{fmt}"' if fmt else "is not a valid ISO 8601 date-time"
        raise ValueError(
            f"time data \"{value}\" {what}, at position {i}. You might want to try passing `errors='coerce'`."
        )
    unit = "ns" if stats[1] > 6 else ("us" if len(col) else "s")  # pandas 3: empty input gives [s]
    coerced = False
    if unit == "ns":
        ok, coerced = _within_ns_range(col, days, nsod, tzoff, ok, good, errors)
    ticks = days * per_day(unit) + nsod // UNIT_NS[unit]
    new_valid = ok if valid is None else valid & ok
    tz = None
    if stats[2] and stats[3] and not utc:
        raise ValueError(
            "Mixed timezones detected. Pass utc=True in to_datetime or tz='UTC' in "
            "DatetimeIndex to convert to a common timezone."
        )
    if stats[2]:
        ticks = ticks - tzoff * per_second(unit)
        if utc:
            tz = _dt.UTC
        elif stats[4] == stats[5]:
            off = int(stats[4])
            tz = _dt.UTC if off == 0 and fmt is None else _dt.timezone(_dt.timedelta(seconds=off))
        else:
            raise ValueError(
                "Mixed timezones detected. Pass utc=True in to_datetime or tz='UTC' in "
                "DatetimeIndex to convert to a common timezone."
            )
    elif utc:
        tz = _dt.UTC
    mask = None if not stats[0] and not coerced and valid is None else new_valid
    return DatetimeColumn(ticks, unit, tz, mask)


# the nanosecond range as (day, ns into that day): pandas' Timestamp.min and Timestamp.max
_NS_FIRST = (-106_752, 763_145_224_193)
_NS_LAST = (106_751, 85_636_854_775_807)
_DAY_NS = 86_400 * 1_000_000_000


def _within_ns_range(
    col: StringColumn, days: Any, nsod: Any, tzoff: Any, ok: Any, good: Any, errors: str
) -> Any:
    """``ok`` with rows whose UTC instant lies outside the nanosecond range dropped (errors='coerce'),
    or raise pandas' OutOfBoundsDatetime for the first such row. Synchronizes once."""
    xp = col.xp
    shifted = nsod - tzoff * 1_000_000_000  # the UTC instant, as (day, ns into the day)
    day = days + shifted // _DAY_NS
    ns = shifted % _DAY_NS
    out = (day < _NS_FIRST[0]) | (day > _NS_LAST[0])
    out |= ((day == _NS_FIRST[0]) & (ns < _NS_FIRST[1])) | ((day == _NS_LAST[0]) & (ns > _NS_LAST[1]))
    out &= good
    if not bool(out.any()):
        return ok, False
    if errors == "coerce":
        return ok & ~out, True
    i = int(to_host(xp.flatnonzero(out)[:1])[0])
    value = col.take(xp.asarray([i])).to_pandas().iloc[0]
    raise pd.errors.OutOfBoundsDatetime(f"Out of bounds nanosecond timestamp: {value}, at position {i}")


def numbers_to_datetime(col: NumericColumn, unit: str = "ns", errors: str = "raise") -> DatetimeColumn:
    """Epoch numbers in ``unit`` (D, h, m, s, ms, us, ns): ints keep s/ms/us/ns ticks (``us`` for coarser
    ones), floats round to ``ns``, as pandas 3."""
    xp = col.xp
    factor_ns = {
        "D": 86_400 * 10**9,
        "h": 3600 * 10**9,
        "m": 60 * 10**9,
        "s": 10**9,
        "ms": 10**6,
        "us": 1000,
        "ns": 1,
    }
    if unit not in factor_ns:
        raise ValueError(f"to_datetime: unit must be one of {sorted(factor_ns)}, got {unit!r}")
    data = col.data
    valid = col.mask
    if data.dtype.kind == "f":
        nan = xp.isnan(data)
        valid = ~nan if valid is None else valid & ~nan
        x = xp.where(nan, 0, data).astype(np.float64)
        base = xp.trunc(x)  # pandas: whole units exactly, the fraction rounded half to even
        ticks = base.astype(np.int64) * factor_ns[unit] + xp.round((x - base) * factor_ns[unit]).astype(
            np.int64
        )
        mask = valid if (col.mask is not None or bool(nan.any())) else None
        return DatetimeColumn(ticks, "ns", None, mask)
    out_unit = unit if unit in ("ns",) else "us"
    ticks = data.astype(np.int64) * (factor_ns[unit] // UNIT_NS[out_unit])
    return DatetimeColumn(ticks, out_unit, None, valid)
