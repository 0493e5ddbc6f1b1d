"""``to_datetime`` of a DataFrame of date parts (year / month / day and optional hour ... ns
columns, pandas' "assemblage") and of numbers counted from an ``origin``."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember._compat import PANDAS_31
from ember.column import DatetimeColumn, NumericColumn
from ember.ops import datetimes as D

# pandas' names of the parts (lower-cased column labels); the time parts add timedeltas of that unit
_PARTS = {
    "year": "year",
    "years": "year",
    "month": "month",
    "months": "month",
    "day": "day",
    "days": "day",
    "hour": "h",
    "hours": "h",
    "h": "h",
    "minute": "m",
    "minutes": "m",
    "m": "m",
    "second": "s",
    "seconds": "s",
    "s": "s",
    "ms": "ms",
    "millisecond": "ms",
    "milliseconds": "ms",
    "us": "us",
    "microsecond": "us",
    "microseconds": "us",
    "ns": "ns",
    "nanosecond": "ns",
    "nanoseconds": "ns",
}
_TIME_NS = {"h": 3_600 * 10**9, "m": 60 * 10**9, "s": 10**9, "ms": 10**6, "us": 10**3, "ns": 1}


def _part_columns(frame: Any) -> dict[str, Any]:
    """part name -> the frame's Series of it; pandas' errors for missing and unknown columns."""
    found: dict[str, Any] = {}
    extra = []
    for label in frame._names:
        part = _PARTS.get(str(label).lower())
        if part is None:
            extra.append(label)
        else:
            found[part] = frame[label]
    missing = [p for p in ("year", "month", "day") if p not in found]
    if missing:
        raise ValueError(
            "to assemble mappings requires at least that [year, month, day] be specified: "
            f"[{','.join(missing)}] is missing"
        )
    if extra:
        raise ValueError(
            f"extra keys have been passed to the datetime assemblage: [{', '.join(map(str, extra))}]"
        )
    return found


def _numbers(series: Any, part: str) -> tuple[Any, Any, Any]:
    """(float64 values, where present, array module) of a part column (strings parsed as numbers,
    as pandas)."""
    from ember.frame.algorithms import to_numeric

    col = to_numeric(series)._column
    if not isinstance(col, NumericColumn) or col.is_bool:
        raise TypeError(f"cannot assemble the datetimes: column '{part}' is not numeric")
    xp = col.xp
    values = col.data.astype(np.float64)
    present = ~xp.isnan(values) if col.mask is None else col.mask & ~xp.isnan(values)
    return values, present, xp


def assemble(frame: Any, errors: str, utc: bool) -> Any:
    """pandas.to_datetime(DataFrame): a datetime64 Series from the date parts (us; ns with time
    parts), NaT where a part is missing; an impossible date raises pandas' ValueError (NaT with
    errors='coerce'). One sync to check the dates."""
    from ember.frame.series import Series

    parts = _part_columns(frame)
    values = {p: _numbers(s, p) for p, s in parts.items()}
    xp = values["year"][2]
    present = values["year"][1] & values["month"][1] & values["day"][1]
    for part in ("year", "month", "day"):
        fractional = present & (values[part][0] != xp.floor(values[part][0]))
        if bool(xp.any(fractional)):
            if errors != "coerce":
                raise ValueError(f"cannot assemble the datetimes: column '{part}' contains fractional values")
            present &= ~fractional
    y, m, d = (xp.where(present, values[p][0], 1).astype(np.int64) for p in ("year", "month", "day"))
    month_days = xp.asarray([31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31])[xp.clip(m - 1, 0, 11)]
    valid_date = (m >= 1) & (m <= 12) & (d >= 1) & (d <= month_days) & ((m != 2) | (d <= 28) | D.is_leap(y))
    valid_date &= (y >= 1) & (y <= 9999)
    bad = present & ~valid_date
    if bool(xp.any(bad)):
        if errors != "coerce":
            at = int(xp.argmax(bad))
            raise ValueError(
                f'cannot assemble the datetimes: invalid or out-of-bounds date "{int(y[at])}-{int(m[at]):02d}-'
                f'{int(d[at]):02d}"'
            )
        present &= valid_date
    days = D.days_from_civil(xp, y, m, d)
    times = [p for p in _TIME_NS if p in values]
    unit, per_day = ("ns", 86_400 * 10**9) if times else ("us", 86_400 * 10**6)
    ticks = days * per_day
    for p in times:
        v, ok, _ = values[p]
        present &= ok
        ticks = ticks + xp.round(xp.where(ok, v, 0.0) * _TIME_NS[p]).astype(np.int64)
    col = DatetimeColumn(ticks, unit, mask=None if bool(xp.all(present)) else present)
    if utc:
        col = D.tz_localize(col, "UTC")
    return Series._from_column(col, frame.index)


def shift_to_origin(arg: Any, origin: Any, unit: str | None) -> Any:
    """Numbers counted from ``origin`` as numbers counted from the epoch in ``unit`` (pandas'
    ``_adjust_to_origin``: the origin plus timedeltas of the unit, pandas 3.0 a whole number of units;
    'julian': days from the Julian epoch,
    within Timestamp's bounds)."""
    from ember.frame.series import Series

    values = arg if isinstance(arg, Series) else Series(arg)
    if not isinstance(values._column, NumericColumn) or values._column.is_bool:
        raise ValueError(
            f"'{arg}' is not compatible with origin='{origin}'; it must be numeric with a unit specified"
        )
    if origin == "julian":
        if unit != "D":
            raise ValueError("unit must be 'D' for origin='julian'")
        shifted = values - pd.Timestamp(0).to_julian_date()
        lo = pd.Timestamp.min.to_julian_date() - pd.Timestamp(0).to_julian_date()
        hi = pd.Timestamp.max.to_julian_date() - pd.Timestamp(0).to_julian_date()
        if bool((shifted > hi).any()) or bool((shifted < lo).any()):
            raise pd.errors.OutOfBoundsDatetime(f"{arg} is Out of Bounds for origin='julian'")
        return shifted
    try:
        offset = pd.Timestamp(origin, unit=unit) if pd.api.types.is_number(origin) else pd.Timestamp(origin)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"origin {origin} cannot be converted to a Timestamp") from exc
    if offset.tz is not None:
        raise ValueError(f"origin offset {offset} must be tz-naive")
    if PANDAS_31:  # the origin plus the numbers as timedeltas of the unit
        from ember.frame.timedeltas import to_timedelta

        return offset + to_timedelta(values, unit=unit or "ns")
    return values + (offset - pd.Timestamp(0)) // pd.Timedelta(1, unit=unit or "ns")  # whole units
