"""``Series.dt`` algorithms on int64 ticks, vectorized (NumPy or CuPy).

Calendar fields come from Howard Hinnant's ``civil_from_days`` / ``days_from_civil`` (proleptic
Gregorian, exact for the whole int64 tick range) written over arrays. Time zones: a column holds UTC
ticks; local wall time is UTC plus the zone's offset, looked up with ``searchsorted`` in a table of
(transition instant, offset) pairs built on the host for the data's time span from ``zoneinfo`` (the
offset is sampled once a day across the span and every change is bisected to the second: a host step
proportional to the number of days spanned, not to the rows). Parsing strings and numbers into datetimes
lives in ``ops.datetime_parse``.
"""

from __future__ import annotations

import datetime as _dt
import functools
from typing import Any

import numpy as np
import pandas as pd

from ember._compat import PANDAS_31, timedelta_product_overflow
from ember.backend import asarray_on, to_host
from ember.column import Column, DatetimeColumn, NumericColumn, StringColumn, TimedeltaColumn
from ember.ops._common import UNIT_NS

DAY_S = 86_400


def per_second(unit: str) -> int:
    return 1_000_000_000 // UNIT_NS[unit]


def per_day(unit: str) -> int:
    return DAY_S * per_second(unit)


# --- overflow-checked tick arithmetic ------------------------------------------------------------------
#
# Ticks are int64, and NaT is the int64 minimum, so a valid tick lies in [-I64_MAX, I64_MAX]. Every
# scaling or shifting of ticks goes through these helpers: they compute the (wrapping) result, flag the
# valid rows that left the range, and raise pandas' error when any did. One reduction and one device
# sync per operation (a second only to name the offending value), none where the operands' bounds
# prove that nothing can overflow (a factor of 1, a zero shift, a narrow multiplier).

I64_MAX = int(np.iinfo(np.int64).max)
I64_MIN = int(np.iinfo(np.int64).min)
_UNIT_WORDS = {"s": "second", "ms": "millisecond", "us": "microsecond", "ns": "nanosecond"}
_UNIT_PLURALS = {"s": "seconds", "ms": "milliseconds", "us": "microseconds", "ns": "nanoseconds"}


def _is_array(x: Any) -> bool:
    return getattr(x, "ndim", 0) > 0


def first_bad(xp: Any, bad: Any, valid: Any = None) -> int | None:
    """Position of the first row flagged in ``bad`` among the ``valid`` ones (None when none).
    Synchronizes once (twice when a row is flagged)."""
    if not _is_array(bad):
        return 0 if bool(bad) else None
    if valid is not None:
        bad = bad & valid
    if not bool(bad.any()):
        return None
    return int(to_host(xp.flatnonzero(bad)[:1])[0])


def _pick(x: Any, i: int) -> int:
    return int(to_host(x[i : i + 1])[0]) if _is_array(x) else int(x)


def out_of_bounds(kind: str, value: int, frm: str, to: str) -> Exception:
    """pandas' error for a datetime (kind 'M') or timedelta ('m') tick ``value`` in unit ``frm`` that
    does not fit in unit ``to``."""
    if kind == "M":
        try:
            shown: Any = pd.Timestamp(np.datetime64(value, frm))
        except (ValueError, OverflowError):
            shown = np.datetime64(value, frm)
        return pd.errors.OutOfBoundsDatetime(f"Out of bounds {_UNIT_WORDS[to]} timestamp: {shown}")
    return pd.errors.OutOfBoundsTimedelta(
        f"Cannot convert {value} {_UNIT_PLURALS[frm]} to timedelta64[{to}] without overflow"
    )


def rescale_checked(xp: Any, ticks: Any, frm: str, to: str, kind: str, valid: Any = None) -> Any:
    """Ticks (array or int) of unit ``frm`` in the finer or equal unit ``to``; pandas' OutOfBounds
    error where a valid value leaves the int64 range."""
    factor = UNIT_NS[frm] // UNIT_NS[to]
    if factor == 1:
        return ticks
    lim = I64_MAX // factor
    if not _is_array(ticks):
        if ticks is not None and not -lim <= int(ticks) <= lim:
            raise out_of_bounds(kind, int(ticks), frm, to)
        return ticks * factor
    i = first_bad(xp, (ticks > lim) | (ticks < -lim), valid)
    if i is not None:
        raise out_of_bounds(kind, _pick(ticks, i), frm, to)
    return ticks * factor


def add_checked(xp: Any, a: Any, b: Any, valid: Any = None, sub: bool = False) -> Any:
    """``a + b`` (``a - b`` with ``sub``) of int64 ticks (arrays or ints); pandas' OverflowError
    ("Overflow in int64 addition") where a valid row leaves [-I64_MAX, I64_MAX]."""
    if not _is_array(b) and int(b) == 0:
        return a if _is_array(a) else xp.asarray(a, dtype=np.int64)
    if not _is_array(a) and not sub and int(a) == 0:
        return b
    with np.errstate(over="ignore"):
        x = a if _is_array(a) else np.int64(a)
        y = b if _is_array(b) else np.int64(b)
        out = x - y if sub else x + y
        flip = ((x ^ y) & (x ^ out)) if sub else ((x ^ out) & (y ^ out))
    if first_bad(xp, (flip < 0) | (out == I64_MIN), valid) is not None:
        raise OverflowError("Overflow in int64 addition")
    return out


def mul_checked(xp: Any, ticks: Any, k: Any, valid: Any = None) -> Any:
    """Timedelta ticks times integers (either may be an array, the other an int); pandas'
    OutOfBoundsTimedelta where a valid product leaves [-I64_MAX, I64_MAX]. A scalar bounds the other
    side: an int8-int32 column times a tick count below 2**32 needs no check."""
    err = timedelta_product_overflow()  # pandas 3.0: OverflowError
    if not _is_array(ticks) and not _is_array(k):
        if abs(int(ticks) * int(k)) > I64_MAX:
            raise err
        return int(ticks) * int(k)
    col, s = (ticks, k) if not _is_array(k) else ((k, ticks) if not _is_array(ticks) else (None, None))
    if col is not None:  # array times a scalar: bound the array by I64_MAX // |scalar|
        s = int(s)
        if s == 0:
            return xp.zeros(col.shape[0], dtype=np.int64)
        lim = I64_MAX // abs(s)
        if col.dtype.kind in "iu" and col.dtype.itemsize < 8 and int(np.iinfo(col.dtype).max) + 1 <= lim:
            return col.astype(np.int64) * s
        if first_bad(xp, (col > lim) | (col < -lim), valid) is not None:
            raise err
        if abs(s) > I64_MAX:  # only zeros got through
            return xp.zeros(col.shape[0], dtype=np.int64)
        return col.astype(np.int64) * s
    big = None
    if k.dtype == np.uint64:  # beyond int64: only a zero tick count survives
        big = k > np.uint64(I64_MAX)
        k = xp.where(big, 0, k).astype(np.int64)
    k = k.astype(np.int64)
    with np.errstate(over="ignore"):
        out = ticks * k
        safe = xp.where(k == 0, 1, k)
        back = xp.where(safe == -1, -out, out // safe)  # MIN // -1 would trap
    bad = ((back != ticks) & (k != 0)) | (out == I64_MIN)  # x * 0 is 0: nothing to divide back
    if big is not None:
        bad |= big & (ticks != 0)
    if first_bad(xp, bad, valid) is not None:
        raise err
    return out


def float_ticks_checked(xp: Any, out: Any, valid: Any, what: str) -> tuple[Any, Any]:
    """Float tick results (timedelta times or divided by floats) as int64 ticks and validity: NaN is
    NaT; a finite value outside the int64 range raises pandas' OutOfBoundsTimedelta, so does an
    infinite one from a multiplication (a division's infinity, x / 0, is NaT as in pandas)."""
    finite = xp.isfinite(out)
    over = (out >= 2.0**63) | (out <= -(2.0**63))
    bad = over & finite if what == "division" else over
    if first_bad(xp, bad, valid) is not None:
        raise pd.errors.OutOfBoundsTimedelta(f"Overflow in timedelta {what}")
    keep = finite & ~over
    ticks = xp.where(keep, out, 0).astype(np.int64)
    return ticks, keep if valid is None else valid & keep


def compare_mixed_units(xp: Any, a: Any, ua: str, b: Any, ub: str, op: Any) -> Any:
    """``op(a, b)`` of ticks in two units, exactly and without scaling the coarser side up (which
    could overflow): the finer side splits into (coarse ticks, remainder) and the pairs compare in
    order."""
    if UNIT_NS[ua] == UNIT_NS[ub]:
        return op(a, b)
    if UNIT_NS[ua] < UNIT_NS[ub]:  # a is the finer: compare (b vs a) with the operator mirrored
        swapped = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le"}.get(op.__name__, op.__name__)
        import operator

        return compare_mixed_units(xp, b, ub, a, ua, getattr(operator, swapped))
    f = UNIT_NS[ua] // UNIT_NS[ub]  # a coarse, b fine
    q = xp.floor_divide(b, f) if _is_array(b) else int(b) // f
    r = b - q * f
    name = op.__name__
    if name == "eq":
        return (a == q) & (r == 0)
    if name == "ne":
        return (a != q) | (r != 0)
    if name == "lt":  # a < q + r/f
        return (a < q) | ((a == q) & (r > 0))
    if name == "le":
        return a <= q
    if name == "gt":
        return a > q
    return (a > q) | ((a == q) & (r == 0))  # ge


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
        elif ambiguous == "infer":
            out = _inferred_dst(col, amb, u1, u2, out)
        else:
            raise NotImplementedError(
                f"tz_localize: ambiguous={ambiguous!r} is not supported; use 'raise', 'infer', "
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


def _inferred_dst(col: DatetimeColumn, amb: Any, early: Any, late: Any, out: Any) -> Any:
    """pandas' ``ambiguous='infer'``: each run of consecutive ambiguous rows is one fall-back
    transition, read as summer time until its UTC times (as summer time) stop increasing, winter
    time from there; ValueError as pandas where a run has one row, never goes back, or goes back
    more than once. Synchronizes twice (the ambiguous rows are few: gathered on the host)."""
    xp = col.xp
    rows = to_host(xp.flatnonzero(amb))
    if rows.shape[0] == 0:
        return out

    def stamp(i: int) -> str:
        return str(pd.Timestamp(int(to_host(col.data[i : i + 1])[0]), unit=col.unit))

    if rows.shape[0] == 1:
        raise ValueError(f"Cannot infer dst time from {stamp(int(rows[0]))} as there are no repeated times")
    rows_dev = asarray_on(rows, xp)
    summer = to_host(early[rows_dev])
    winter_from = np.zeros(rows.shape[0], dtype=bool)
    bounds = [0, *(np.flatnonzero(np.diff(rows) != 1) + 1).tolist(), rows.shape[0]]
    for lo, hi in zip(bounds[:-1], bounds[1:]):  # one run per transition in the data
        back = np.flatnonzero(np.diff(summer[lo:hi]) <= 0)
        if hi - lo == 1 or back.shape[0] == 0:
            raise ValueError(f"{stamp(int(rows[lo]))} is an ambiguous time and cannot be inferred.")
        if back.shape[0] > 1:
            raise ValueError(f"There are {back.shape[0]} dst switches when there should only be 1.")
        winter_from[lo + int(back[0]) + 1 : hi] = True
    out = out.copy()
    out[rows_dev] = xp.where(asarray_on(winter_from, xp), late[rows_dev], early[rows_dev])
    return out


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
    return _nat_as_nan(col, vals[alias.get(name, name)]().astype(np.int32))


def _nat_as_nan(col: Any, out: Any) -> NumericColumn:
    """A field's integers, or float64 with NaN where a row is NaT (pandas, only where one is: a mask
    of no missing row keeps the integers). One sync where there is a mask."""
    if col.mask is None or bool(col.mask.all()):
        return NumericColumn(out)
    return NumericColumn(col.xp.where(col.mask, out.astype(np.float64), np.nan))


def isocalendar(col: DatetimeColumn) -> list[NumericColumn]:
    """ISO 8601 (year, week, day) of each row, as pandas' masked Int32 / UInt32 / UInt32: weeks start
    on Monday, and a week belongs to the year of its Thursday (week 1 holds the year's first one)."""
    xp = col.xp
    days, _ = _parts(col)
    weekday = (days + 3) % 7 + 1  # Monday 1 .. Sunday 7
    thursday = days - weekday + 4
    year, _, _ = civil_from_days(xp, thursday)
    week = (thursday - days_from_civil(xp, year, 1, 1)) // 7 + 1
    mask = col.mask
    return [
        NumericColumn(year.astype(np.int32 if PANDAS_31 else np.uint32), mask, nullable=True),  # 3.0: UInt32
        NumericColumn(week.astype(np.uint32), mask, nullable=True),
        NumericColumn(weekday.astype(np.uint32), mask, nullable=True),
    ]


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
    calendar offset (no ``.nanos``), pandas 3.1 a Tick again; both spell it rule_code == "D"."""
    if off.rule_code == "D":
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
    return _nat_as_nan(col, out if name == "days" else out.astype(np.int32))


COMPONENTS = ("days", "hours", "minutes", "seconds", "milliseconds", "microseconds", "nanoseconds")


def td_components(col: TimedeltaColumn) -> list[NumericColumn]:
    """``.dt.components``: days (floored, as pandas: -1s is -1 days +23:59:59) and the clock parts of
    the rest; int64, or float64 with NaN where a row is NaT."""
    xp = col.xp
    pdd = per_day(col.unit)
    days = xp.floor_divide(col.data, pdd)
    rest_ns = (col.data - days * pdd) * UNIT_NS[col.unit]  # below one day: fits in int64 nanoseconds
    parts = [
        days,
        rest_ns // 3_600_000_000_000,
        rest_ns // 60_000_000_000 % 60,
        rest_ns // 1_000_000_000 % 60,
        rest_ns // 1_000_000 % 1000,
        rest_ns // 1000 % 1000,
        rest_ns % 1000,
    ]
    if col.mask is None or bool(col.mask.all()):  # one sync: float64 only where a row is NaT
        return [NumericColumn(p.astype(np.int64, copy=False)) for p in parts]
    return [NumericColumn(xp.where(col.mask, p.astype(np.float64), np.nan)) for p in parts]
