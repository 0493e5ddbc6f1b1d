"""``to_datetime``, ``date_range`` and ``timedelta_range``: validate, call ops.datetimes, wrap."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.backend import asarray_on
from ember.backend import xp as current_xp
from ember.column import Column, DatetimeColumn, NumericColumn, StringColumn, TimedeltaColumn, from_any
from ember.ops import datetime_parse as P
from ember.ops import datetimes as D
from ember.ops._common import UNIT_NS


def _convert(col: Column, fmt: str | None, errors: str, unit: str | None, utc: bool) -> Column:
    if isinstance(col, StringColumn):
        if unit is not None:
            raise NotImplementedError(
                "to_datetime: unit= with string input is not supported; convert the strings to numbers first"
            )
        return P.strings_to_datetime(col, fmt, errors, utc)
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
) -> Any:
    """pandas.to_datetime for ember Series / Index / lists / scalars.

    Strings: with ``format=None`` the format pandas guesses from the first non-missing string, which
    every string must match (ValueError, or NaT with errors='coerce'); ``format='ISO8601'``: any ISO 8601
    form per row; ``format='mixed'``: ISO 8601 per row, other strings refused (pandas hands them to
    dateutil); or a strptime format (subset: %Y %m %d %H %M %S %f %y %I %p %b %B %a %A %z %%).
    ``unit=`` converts epoch numbers (out of range: OutOfBoundsDatetime). ``errors``: 'raise' or
    'coerce'."""
    from ember.frame.index import Index
    from ember.frame.series import Series

    if dayfirst or yearfirst:
        raise NotImplementedError("to_datetime: dayfirst/yearfirst are not supported; pass format=")
    if isinstance(arg, Series):
        return arg._wrap(_convert(arg.column, format, errors, unit, utc))
    if isinstance(arg, Index):
        return Index._from_column(_convert(arg.column, format, errors, unit, utc), arg.name)
    if arg is None or isinstance(arg, (str, int, float, np.integer, np.floating)):
        col = from_any([arg], current_xp())
        out = _convert(col, format, errors, unit, utc).to_pandas().iloc[0]
        return out
    if isinstance(arg, (list, tuple, np.ndarray, pd.Index, pd.Series)):
        col = from_any(list(arg) if isinstance(arg, tuple) else arg, current_xp())
        out = _convert(col, format, errors, unit, utc)
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
    if step is None:  # start, end, periods: evenly spaced
        if periods == 1:
            return asarray_on(np.asarray([lo], dtype=np.int64), xp)
        return asarray_on(np.linspace(lo, hi, periods).astype(np.int64), xp)
    if lo is not None and periods is not None:
        return lo + xp.arange(periods, dtype=np.int64) * step
    if hi is not None and periods is not None:
        return hi - xp.arange(periods - 1, -1, -1, dtype=np.int64) * step
    count = (hi - lo) // step + 1 if hi >= lo else 0
    return lo + xp.arange(count, dtype=np.int64) * step


def _month_anchor(off: Any) -> tuple[int, str] | None:
    """(months per step, 'start' | 'end') for month/quarter/year offsets anchored as pandas' defaults."""
    name = type(off).__name__
    table = {
        "MonthBegin": (1, "start"),
        "MonthEnd": (1, "end"),
        "QuarterBegin": (3, "start"),
        "QuarterEnd": (3, "end"),
        "YearBegin": (12, "start"),
        "YearEnd": (12, "end"),
    }
    if name not in table:
        return None
    months, side = table[name]
    anchor = getattr(off, "startingMonth", None) or getattr(off, "month", None)
    expected = {"QuarterBegin": 1, "QuarterEnd": 3, "YearBegin": 1, "YearEnd": 12}.get(name)
    if expected is not None and anchor != expected:
        raise NotImplementedError(
            f"date_range: freq={off.freqstr!r} is not supported; anchored quarters/years "
            "use the defaults (QS, QE, YS, YE)"
        )
    return months * off.n, side


def _calendar_range(xp: Any, off: Any, lo: int | None, hi: int | None, periods: int | None, unit: str) -> Any:
    step, side = _month_anchor(off)
    pday = D.per_day(unit)
    ref = lo if lo is not None else hi
    day, tod = divmod(ref, pday)
    y, m, d = (int(v) for v in D.civil_from_days(np, np.int64(day)))
    base = y * 12 + (m - 1)
    period = abs(step)
    phase = {1: 0, 3: 2 if side == "end" else 0, 12: 11 if side == "end" else 0}[period]

    def month_ticks(mi: Any) -> Any:
        yy, mm = mi // 12, mi % 12 + 1
        dd = D.days_in_month(xp, yy, mm) if side == "end" else 1
        return D.days_from_civil(xp, yy, mm, dd) * pday + tod

    on_anchor = (base % period == phase % period) and (
        d == (1 if side == "start" else int(D.days_in_month(np, np.int64(y), np.int64(m))))
    )
    # first anchor month at or after (start) / at or before (end) the reference
    k = base + ((phase - base) % period)
    if lo is not None:
        if not on_anchor and k == base and side == "start":
            k += period
        first = k
        if hi is not None:
            endday = hi // pday
            ey, em, _ = (int(v) for v in D.civil_from_days(np, np.int64(endday)))
            count = max(0, ((ey * 12 + em - 1) - first) // period + 2)
            mi = first + xp.arange(count, dtype=np.int64) * period
            t = month_ticks(mi)
            return t[(t >= lo) & (t <= hi)]
        return month_ticks(first + xp.arange(periods, dtype=np.int64) * period)
    k2 = base - ((base - phase) % period)
    if not on_anchor and k2 == base and side == "end":
        k2 -= period
    return month_ticks(k2 - xp.arange(periods - 1, -1, -1, dtype=np.int64) * period)


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
    """pandas.date_range: fixed frequencies (D, h, min, s, ms, us, ns, W-XXX and multiples) and month
    anchors (MS, ME, QS, QE, YS, YE). Returns an ember Index of datetime64."""
    from ember.frame.index import Index

    if freq is None and (start is None or end is None or periods is None):
        freq = "D"
    _count(start, end, periods, freq)
    xp = current_xp()
    s, e = _ts(start, tz), _ts(end, tz)
    if normalize:
        s = s.normalize() if s is not None else None
        e = e.normalize() if e is not None else None
    aware = next((t.tz for t in (s, e) if t is not None and t.tz is not None), None)
    tz = D.normalize_tz(tz) if tz is not None else aware
    off = pd.tseries.frequencies.to_offset(freq) if freq is not None else None
    if unit is None:
        unit = _inferred_unit([t.unit for t in (s, e) if t is not None], off)

    def wall(t: pd.Timestamp | None) -> int | None:
        if t is None:
            return None
        if t.tz is not None:
            t = t.tz_convert(tz).tz_localize(None)
        return int(t.as_unit(unit, round_ok=False)._value)

    lo, hi = wall(s), wall(e)
    if off is None:
        ticks = _fixed_range(xp, lo, hi, periods, None)
    elif _month_anchor(off) is not None:
        ticks = _calendar_range(xp, off, lo, hi, periods, unit)
    elif type(off).__name__ == "Week" and off.weekday is not None:
        pday = D.per_day(unit)
        ref = lo if lo is not None else hi
        dow = (ref // pday + 3) % 7
        shift = ((off.weekday - dow) % 7) if lo is not None else -((dow - off.weekday) % 7)
        ref = ref + shift * pday
        step = 7 * pday * off.n
        ticks = _fixed_range(xp, ref if lo is not None else None, ref if lo is None else hi, periods, step)
    else:
        try:
            step = D.fixed_nanos(off) // UNIT_NS[unit]
        except (ValueError, TypeError, AttributeError) as exc:
            raise NotImplementedError(
                f"date_range: freq={freq!r} is not supported; use a fixed frequency "
                "(D, h, min, s, ms, us, ns), W-XXX, MS, ME, QS, QE, YS or YE"
            ) from exc
        if D.fixed_nanos(off) % UNIT_NS[unit]:
            raise ValueError(
                f"freq={off!r} is incompatible with unit={unit}. Use a lower freq or a higher unit instead."
            )
        ticks = _fixed_range(xp, lo, hi, periods, step)
    ticks = _inclusive(xp, ticks, lo, hi, inclusive)
    col = DatetimeColumn(ticks, unit)
    if tz is not None:
        col = D.tz_localize(col, tz)
    return Index._from_column(col, name)


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
