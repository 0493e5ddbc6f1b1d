"""``to_datetime``, ``date_range`` and ``timedelta_range``: validate, call ops.datetimes, wrap."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.backend import asarray_on
from ember.backend import xp as current_xp
from ember.column import Column, DatetimeColumn, NumericColumn, StringColumn, TimedeltaColumn, from_any
from ember.frame.timeseries_ranges import BusinessDayIndex, is_business_day
from ember.ops import datetime_parse as P
from ember.ops import datetimes as D
from ember.ops._common import UNIT_NS


def _convert(
    col: Column, fmt: str | None, errors: str, unit: str | None, utc: bool, firsts: tuple = (False, False)
) -> Column:
    if isinstance(col, StringColumn):
        if unit is not None:
            raise NotImplementedError(
                "to_datetime: unit= with string input is not supported; convert the strings to numbers first"
            )
        return P.strings_to_datetime(col, fmt, errors, utc, *firsts)
    if isinstance(col, NumericColumn) and not col.is_bool:
        out = P.numbers_to_datetime(col, unit or "ns", errors)
        return D.tz_localize(out, "UTC") if utc else out
    if isinstance(col, DatetimeColumn):
        if utc and col.tz is None:
            return D.tz_localize(col, "UTC")
        return D.tz_convert(col, "UTC") if utc else col
    raise TypeError(f"to_datetime: cannot convert values of dtype {col.dtype} to datetime64")


def to_datetime(
    arg: Any,
    errors: str = "raise",
    format: str | None = None,
    unit: str | None = None,  # noqa: A002
    utc: bool = False,
    dayfirst: bool = False,
    yearfirst: bool = False,
    origin: Any = "unix",
) -> Any:
    """pandas.to_datetime for ember Series / Index / lists / scalars.

    Strings: with ``format=None`` the format pandas guesses from the first non-missing string, which
    every string must match (ValueError, or NaT with errors='coerce'); ``format='ISO8601'``: any ISO 8601
    form per row; ``format='mixed'``: ISO 8601 per row, other strings refused (pandas hands them to
    dateutil); or a strptime format (subset: %Y %m %d %H %M %S %f %y %I %p %b %B %a %A %z %%).
    ``unit=`` converts epoch numbers (out of range: OutOfBoundsDatetime), counted from ``origin``
    (a timestamp or 'julian'). A DataFrame of year / month / day (hour ... ns) columns assembles
    dates. ``errors``: 'raise' or 'coerce'. ``dayfirst``: the format guessed from the first string
    reads an ambiguous day / month day first (pandas' rule: one format for every string);
    ``yearfirst`` changes nothing there (pandas reads it only in dateutil, which ember refuses)."""
    from ember.frame.dataframe import DataFrame
    from ember.frame.datetime_assemble import assemble, shift_to_origin
    from ember.frame.index import Index
    from ember.frame.series import Series

    firsts = (bool(dayfirst), bool(yearfirst))
    if getattr(arg, "_ember_kind", "") == "frame" or isinstance(arg, pd.DataFrame):
        frame = arg if not isinstance(arg, pd.DataFrame) else DataFrame(arg)
        return assemble(frame, errors, utc)
    if isinstance(origin, str) and origin == "unix":
        pass
    elif isinstance(arg, (Series, Index, list, tuple, np.ndarray, pd.Index, pd.Series)):
        shifted = shift_to_origin(arg, origin, unit)
        out = to_datetime(shifted, errors, format, unit, utc, dayfirst, yearfirst)
        if isinstance(arg, (Series, pd.Series)):
            return out
        return Index._from_column(out._column, getattr(arg, "name", None))
    else:
        out = to_datetime([arg], errors, format, unit, utc, dayfirst, yearfirst, origin=origin)
        return out.to_pandas()[0]
    if isinstance(arg, Series):
        return arg._wrap(_convert(arg.column, format, errors, unit, utc, firsts))
    if isinstance(arg, Index):
        return Index._from_column(_convert(arg.column, format, errors, unit, utc, firsts), arg.name)
    if arg is None or isinstance(arg, (str, int, float, np.integer, np.floating)):
        col = from_any([arg], current_xp())
        out = _convert(col, format, errors, unit, utc, firsts).to_pandas().iloc[0]
        return out
    if isinstance(arg, (list, tuple, np.ndarray, pd.Index, pd.Series)):
        col = from_any(list(arg) if isinstance(arg, tuple) else arg, current_xp())
        out = _convert(col, format, errors, unit, utc, firsts)
        if isinstance(arg, pd.Series):
            return Series(arg)._wrap(out)
        return Index._from_column(out, getattr(arg, "name", None))
    raise TypeError(f"to_datetime: unsupported input type {type(arg).__name__}")


# --- ranges --------------------------------------------------------------------------------------------


def _ts(x: Any, tz: Any) -> pd.Timestamp | None:
    if x is None:
        return None
    ts = pd.Timestamp(x)
    if tz is not None and ts.tz is None:
        return ts  # localized after generation, as pandas does
    return ts


def _count(start: Any, end: Any, periods: Any, freq: Any) -> int:
    given = sum(v is not None for v in (start, end, periods, freq))
    if given != 3:
        raise ValueError(
            "Of the four parameters: start, end, periods, and freq, exactly three must be specified"
        )
    return given


def _periods(periods: Any, fn: str) -> int | None:
    """periods as pandas takes it: an integer (TypeError otherwise); a negative count is refused
    (pandas' answer depends on the frequency: an empty range or an OverflowError)."""
    if periods is None:
        return None
    if not isinstance(periods, (int, np.integer)) or isinstance(periods, (bool, np.bool_)):
        raise TypeError(f"periods must be an integer, got {periods}")
    if periods < 0:
        raise NotImplementedError(f"{fn}: periods={periods} (a negative count) is not supported")
    return int(periods)


def _inferred_unit(units: list[str], off: Any) -> str:
    """pandas' unit for date_range / timedelta_range: the finer of start's and end's, or the
    frequency's when that is finer still (a 1500ns step gives ns)."""
    unit = min(units, key=lambda u: UNIT_NS.get(u, 1), default="ns")
    unit = unit if unit in UNIT_NS else "ns"
    base = getattr(getattr(off, "base", None), "freqstr", None)
    if base in UNIT_NS and UNIT_NS[base] < UNIT_NS[unit]:
        unit = base
    return unit


def _inclusive(xp: Any, ticks: Any, lo: int | None, hi: int | None, inclusive: str) -> Any:
    if inclusive not in ("both", "neither", "left", "right"):
        raise ValueError("Inclusive has to be either 'both', 'neither', 'left' or 'right'")
    keep = xp.ones(ticks.shape[0], dtype=bool)
    if lo is not None and inclusive in ("neither", "right"):
        keep &= ticks != lo
    if hi is not None and inclusive in ("neither", "left"):
        keep &= ticks != hi
    return ticks[keep]


def _fixed_range(xp: Any, lo: int | None, hi: int | None, periods: int | None, step: int | None) -> Any:
    """Ticks of a fixed step as pandas' ``generate_regular_range`` (``range(b, e, step)``), with its
    OutOfBoundsDatetime where start / end plus the periods leave the int64 range."""
    if step is None:  # start, end, periods: evenly spaced
        if periods == 1:
            return asarray_on(np.asarray([lo], dtype=np.int64), xp)
        return asarray_on(np.linspace(lo, hi, periods).astype(np.int64), xp)
    if lo is not None and hi is not None:
        count = len(range(lo, lo + (hi - lo) // step * step + step // 2 + 1, step))
        return lo + xp.arange(count, dtype=np.int64) * step
    if lo is not None:
        last = lo + (periods - 1) * step
        if (step > 0 and last > _I64_MAX) or (step < 0 and last + step < -_I64_MAX):
            raise pd.errors.OutOfBoundsDatetime(
                f"Cannot generate range with start={lo} and periods={periods}"
            )
        return lo + xp.arange(periods, dtype=np.int64) * step
    first = hi - (periods - 1) * step
    if not -_I64_MAX <= first <= _I64_MAX or not -_I64_MAX <= hi + step <= _I64_MAX:
        raise pd.errors.OutOfBoundsDatetime(
            f"Cannot generate range with end={hi + step} and periods={periods}"
        )
    return first + xp.arange(periods, dtype=np.int64) * step


_ANCHORS = {  # offset class: (months per anchor, 'start' | 'end', attribute naming the anchor month)
    "MonthBegin": (1, "start", None),
    "MonthEnd": (1, "end", None),
    "QuarterBegin": (3, "start", "startingMonth"),
    "QuarterEnd": (3, "end", "startingMonth"),
    "YearBegin": (12, "start", "month"),
    "YearEnd": (12, "end", "month"),
}
_I64_MAX = 2**63 - 1


def _anchors(off: Any, unit: str) -> tuple[Any, Any] | None:
    """For an anchored offset (month / quarter / year begin or end, a week on a weekday): a function
    rolling a tick onto the anchors, ``(t, forward) -> (anchor number, time of day)``, and one giving
    the days since the epoch of anchor numbers, ``(a, xp) -> days``; None for other offsets."""
    pday = D.per_day(unit)
    name = type(off).__name__
    if is_business_day(off):
        if off.n == 0 or off.normalize:
            raise NotImplementedError(f"date_range: freq={off!r} is not supported (n=0 or normalize=True)")
        return _business_anchors(pday)
    if name == "Week" and off.weekday is not None:
        if off.n == 0 or off.normalize:
            raise NotImplementedError(f"date_range: freq={off!r} is not supported (n=0 or normalize=True)")
        first = off.weekday - 3  # 1970-01-01 is a Thursday: days d with d % 7 == first are anchors

        def roll_week(t: int, forward: bool) -> tuple[int, int]:
            day, tod = divmod(t, pday)
            return (-(-(day - first) // 7) if forward else (day - first) // 7), tod

        return roll_week, lambda a, mod: a * 7 + first
    spec = _ANCHORS.get(name)
    if spec is None:
        return None
    months, side, attr = spec
    if off.n == 0 or off.normalize:
        raise NotImplementedError(f"date_range: freq={off!r} is not supported (n=0 or normalize=True)")
    phase = (getattr(off, attr) - 1) % months if attr else 0

    def roll_month(t: int, forward: bool) -> tuple[int, int]:
        day, tod = divmod(t, pday)
        y, m, d = (int(v) for v in D.civil_from_days(np, np.int64(day)))
        r = y * 12 + m - 1 - phase
        last = int(D.days_in_month(np, np.int64(y), np.int64(m)))
        if r % months == 0 and d == (1 if side == "start" else last):
            return r // months, tod
        if side == "start":
            return r // months + (1 if forward else 0), tod
        return -(-r // months) - (0 if forward else 1), tod

    def days_of(a: Any, mod: Any) -> Any:
        mi = a * months + phase
        yy, mm = mi // 12, mi % 12 + 1
        dd = D.days_in_month(mod, yy, mm) if side == "end" else 1
        return D.days_from_civil(mod, yy, mm, dd)

    return roll_month, days_of


def _business_anchors(pday: int) -> tuple[Any, Any]:
    """Business days numbered from Monday 1969-12-29 (five a week): a weekend rolls onto the next
    Monday (forward) or the Friday before."""

    def roll_business(t: int, forward: bool) -> tuple[int, int]:
        day, tod = divmod(t, pday)
        week, weekday = divmod(day + 3, 7)
        if weekday < 5:
            return week * 5 + weekday, tod
        return week * 5 + (5 if forward else 4), tod

    return roll_business, lambda a, mod: (a // 5) * 7 + a % 5 - 3


def _anchored_range(
    xp: Any, off: Any, anchors: tuple, lo: int | None, hi: int | None, periods: int | None, unit: str
) -> Any:
    """pandas' ``_generate_range`` for anchored offsets: start rolled forward onto an anchor (back
    for a negative step), end rolled back (forward) when it and periods are given, then every n-th
    anchor at the time of day of the first; OutOfBoundsDatetime as pandas where a date it reaches
    does not fit. Anchors are counted on the host; the dates made on the device."""
    roll, days_of = anchors
    n, pday = int(off.n), D.per_day(unit)

    def tick(a: int, tod: int) -> int:
        """The tick of anchor ``a`` (exact, on the host); OutOfBoundsDatetime where it does not fit."""
        t = None
        if -120_000_000 < a * abs(n) < 120_000_000:  # weeks / months beyond any int64 date otherwise
            t = int(days_of(np.int64(a), np)) * pday + tod
        if t is None or not -_I64_MAX <= t <= _I64_MAX:
            raise pd.errors.OutOfBoundsDatetime(f"Out of bounds {unit} timestamp (offset {off!r})")
        return t

    if lo is not None:
        a0, tod = roll(lo, n >= 0)
    else:
        ae, tod = roll(hi, n < 0)
        a0 = ae - (periods - 1) * n
    if periods is None:  # start and end: anchors from start while not past end
        a_hi, _ = roll(hi, n > 0)
        periods = max(0, (a_hi - a0) // n + 2)
        while periods and (tick(a0 + (periods - 1) * n, tod) - hi) * n > 0:
            periods -= 1  # one or two candidates past end
        if periods and tick(a0 + (periods - 1) * n, tod) != hi:
            tick(a0 + periods * n, tod)  # pandas steps past the last date and fails where that overflows
    if periods:
        tick(a0, tod)
        tick(a0 + (periods - 1) * n, tod)
    return (days_of(a0 + xp.arange(periods, dtype=np.int64) * n, xp)) * pday + tod


def date_range(
    start: Any = None,
    end: Any = None,
    periods: int | None = None,
    freq: Any = None,
    tz: Any = None,
    normalize: bool = False,
    name: Any = None,
    inclusive: str = "both",
    unit: str | None = None,
) -> Any:
    """pandas.date_range: fixed frequencies (D, h, min, s, ms, us, ns, W-XXX and multiples), month
    anchors (MS, ME, QS, QE, YS, YE) and business days (B: an index refusing the fields pandas
    counts in business days). Returns an ember Index of datetime64."""
    from ember.frame.index import Index

    if freq is None and (start is None or end is None or periods is None):
        freq = "D"
    _count(start, end, periods, freq)
    periods = _periods(periods, "date_range")
    xp = current_xp()
    s, e = _ts(start, tz), _ts(end, tz)
    if normalize:
        s = s.normalize() if s is not None else None
        e = e.normalize() if e is not None else None
    aware = next((t.tz for t in (s, e) if t is not None and t.tz is not None), None)
    zones = {str(t.tz) for t in (s, e) if t is not None}
    if len(zones) > 1:
        raise TypeError("Start and end cannot both be tz-aware with different timezones")
    if tz is not None and aware is not None and str(D.normalize_tz(tz)) != str(D.normalize_tz(aware)):
        raise AssertionError("Inferred time zone not equal to passed time zone")
    tz = D.normalize_tz(tz) if tz is not None else aware
    for t in (s, e):
        if tz is not None and t is not None and t.tz is None:
            t.tz_localize(tz)  # pandas' error for a given wall time that is ambiguous or missing
    off = pd.tseries.frequencies.to_offset(freq) if freq is not None else None
    if unit is None:
        unit = _inferred_unit([t.unit for t in (s, e) if t is not None], off)

    # pandas steps fixed frequencies (and start-to-end spacing) in UTC, calendar ones in wall time
    utc = tz is not None and (off is None or isinstance(off, pd.offsets.Tick))

    def wall(t: pd.Timestamp | None) -> int | None:
        if t is None:
            return None
        if utc and t.tz is None:
            t = t.tz_localize(tz)  # pandas' errors for an ambiguous or missing wall time
        elif t.tz is not None and not utc:
            t = t.tz_convert(tz).tz_localize(None)
        return int(t.as_unit(unit, round_ok=False)._value)

    lo, hi = wall(s), wall(e)
    if off is None:
        ticks = _fixed_range(xp, lo, hi, periods, None)
    elif (anchors := _anchors(off, unit)) is not None:
        ticks = _anchored_range(xp, off, anchors, lo, hi, periods, unit)
    else:
        try:
            step = D.fixed_nanos(off) // UNIT_NS[unit]
        except (ValueError, TypeError, AttributeError, NotImplementedError):
            # semi-months: pandas' own labels, made on the host from the arguments
            # alone. Other offsets change what pandas' is_month_start ... of the index give (they
            # follow its frequency, which ember does not keep): refused
            if _rule_code(off) not in _HOST_RANGES:
                raise NotImplementedError(
                    f"date_range: freq={freq!r} is not supported; use a fixed frequency (D, h, min, s, ms, "
                    "us, ns), W-XXX, MS, ME, QS, QE, YS, YE, SMS, SME or B"
                ) from None
            labels = pd.date_range(start, end, periods, freq, tz, normalize, name, inclusive, unit=unit)
            return Index._from_column(from_any(labels.array, xp), name)
        if D.fixed_nanos(off) % UNIT_NS[unit]:
            raise ValueError(
                f"freq={off!r} is incompatible with unit={unit}. Use a lower freq or a higher unit instead."
            )
        ticks = _fixed_range(xp, lo, hi, periods, step)
    ticks = _inclusive(xp, ticks, lo, hi, inclusive)
    col = DatetimeColumn(ticks, unit)
    if utc:
        col = DatetimeColumn(ticks, unit, tz)
    elif tz is not None:
        col = D.tz_localize(col, tz)
    index = Index._from_column(col, name)
    return BusinessDayIndex.of(index) if off is not None and is_business_day(off) else index


#: offsets date_range takes from pandas on the host (the fields of their index do not depend on them)
_HOST_RANGES = ("SMS", "SME")


def _rule_code(off: Any) -> str | None:
    try:
        return off.rule_code.split("-")[0]
    except NotImplementedError:  # a DateOffset of several units has none
        return None


def timedelta_range(
    start: Any = None,
    end: Any = None,
    periods: int | None = None,
    freq: Any = None,
    name: Any = None,
    closed: str | None = None,
    unit: str | None = None,
) -> Any:
    """pandas.timedelta_range with fixed frequencies. Returns an ember Index of timedelta64."""
    from ember.frame.index import Index

    if freq is None and (start is None or end is None or periods is None):
        freq = "D"
    _count(start, end, periods, freq)
    periods = _periods(periods, "timedelta_range")
    xp = current_xp()
    s = pd.Timedelta(start) if start is not None else None
    e = pd.Timedelta(end) if end is not None else None
    off = pd.tseries.frequencies.to_offset(freq) if freq is not None else None
    if unit is None:
        unit = _inferred_unit([t.unit for t in (s, e) if t is not None], off)
    lo = int(s.as_unit(unit, round_ok=False)._value) if s is not None else None
    hi = int(e.as_unit(unit, round_ok=False)._value) if e is not None else None
    step = None
    if off is not None:
        step_ns = int(pd.Timedelta(off).value)
        if step_ns % UNIT_NS[unit]:
            raise ValueError(
                f"freq={off!r} is incompatible with unit={unit}. Use a lower freq or a higher unit instead."
            )
        step = step_ns // UNIT_NS[unit]
    ticks = _fixed_range(xp, lo, hi, periods, step)
    ticks = _inclusive(xp, ticks, lo, hi, "both" if closed is None else closed)
    return Index._from_column(TimedeltaColumn(ticks, unit), name)
