"""Resampling a datetime column into time bins: bin codes from the frequency (a floor division of the
ticks for fixed frequencies, calendar arithmetic on civil dates for months / quarters / years /
weeks) and the bins' labels; the aggregation itself is ``ops.groupby.aggregate`` over a Grouping made
from the codes (empty bins included, as pandas gives them).

Supported rules: fixed frequencies (s, min, h, D, ms, us, ns and multiples: bins anchored at midnight
of the first day, pandas' ``origin='start_day'``), and ME / MS / QE / QS / YE / YS / W[-DAY] with
n = 1 (their default ``closed``; ``label`` either way). Time zones: tz-naive or UTC columns.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember._compat import PANDAS_31
from ember.backend import to_host
from ember.column import DatetimeColumn
from ember.ops._common import UNIT_NS
from ember.ops.datetimes import civil_from_days, days_from_civil, per_day
from ember.ops.grouping import Grouping

_CALENDAR = {
    "MonthEnd": ("month", True),
    "MonthBegin": ("month", False),
    "QuarterEnd": ("quarter", True),
    "QuarterBegin": ("quarter", False),
    "YearEnd": ("year", True),
    "YearBegin": ("year", False),
    "Week": ("week", True),
}
_WEEKDAYS = ("MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN")


def parse_rule(rule: Any) -> tuple[str, Any, int]:
    """('tick', nanos, 1) for fixed frequencies or (calendar kind, anchor, n) for calendar ones."""
    try:
        off = pd.tseries.frequencies.to_offset(rule)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"Invalid frequency: {rule}") from exc
    name = type(off).__name__
    if isinstance(off, pd.offsets.Tick):
        return "tick", int(off.nanos), 1
    if name == "Day":
        return "tick", int(off.n) * 86_400 * 10**9, 1
    if name not in _CALENDAR:
        raise NotImplementedError(
            f"resample: rule {rule!r} is not supported; supported: fixed frequencies "
            "(s, min, h, D ...), ME, MS, QE, QS, YE, YS, W[-DAY]"
        )
    if off.n != 1:
        raise NotImplementedError(
            f"resample: rule {rule!r}: calendar rules with a multiple are not supported"
        )
    kind = _CALENDAR[name][0]
    if kind == "quarter" and off.rule_code.split("-")[1] not in (
        ("MAR", "JUN", "SEP", "DEC") if name == "QuarterEnd" else ("JAN", "APR", "JUL", "OCT")
    ):
        raise NotImplementedError(
            f"resample: rule {rule!r}: only calendar quarters (QE-DEC / QS-JAN) are supported"
        )
    if kind == "year" and off.month != (12 if name == "YearEnd" else 1):
        raise NotImplementedError(f"resample: rule {rule!r}: only YE-DEC / YS-JAN years are supported")
    anchor = _WEEKDAYS.index(off.rule_code.split("-")[1]) if kind == "week" else _CALENDAR[name][1]
    return kind, anchor, 1


def default_closed_label(rule: Any) -> tuple[str, str]:
    """pandas' defaults: right/right for end-anchored calendar rules (ME, QE, YE, W), else left/left."""
    kind, anchor, _ = parse_rule(rule)
    end = kind == "week" or (kind != "tick" and anchor is True)
    return ("right", "right") if end else ("left", "left")


def bin_grouping(
    col: DatetimeColumn, rule: Any, closed: str | None = None, label: str | None = None
) -> Grouping:
    """A Grouping of the rows into the rule's bins (NaT rows dropped), its one key column the bins'
    labels. Synchronizes once (first and last time, NaT count)."""
    if not isinstance(col, DatetimeColumn):
        raise TypeError(
            "Only valid with DatetimeIndex, TimedeltaIndex or PeriodIndex, "
            f"but got an instance of '{type(col).__name__}'"
        )
    if col.tz is not None and str(col.tz) not in ("UTC", "utc"):
        raise NotImplementedError(
            "resample: time zones other than UTC are not supported; tz_convert to UTC "
            "or tz_localize(None) first"
        )
    d_closed, d_label = default_closed_label(rule)
    closed = d_closed if closed is None else closed
    label = d_label if label is None else label
    if closed not in ("left", "right") or label not in ("left", "right"):
        raise ValueError("closed and label must be 'left' or 'right'")
    kind, anchor, _ = parse_rule(rule)
    if kind != "tick" and closed != d_closed:
        raise NotImplementedError(
            f"resample: closed={closed!r} with rule {rule!r} is not supported; use closed={d_closed!r}"
        )
    xp = col.xp
    t = col.data.astype(np.int64)
    valid = None if col.mask is None else col.mask
    first, last, nat = _span(xp, t, valid)
    if nat == len(t):
        return Grouping(xp.full(len(t), -1, dtype=np.int64), 0, [col.take(xp.zeros(0, dtype=np.int64))], nat)
    calendar_days = isinstance(pd.tseries.frequencies.to_offset(rule), pd.offsets.Day)
    # pandas bins a tz-aware index by calendar days (from the midnight before, one day more on the
    # right), and a naive one too in pandas 3.0 (its Day is a calendar offset): only 'D' closed on
    # the left (any multiple of it when naive) gives the same bins as 24-hour steps
    aware_differs = col.tz is not None and (anchor != 86_400 * 10**9 or closed != "left")
    if calendar_days and (aware_differs or (not PANDAS_31 and closed != "left")):
        where = "on a tz-aware index" if col.tz is not None else "with pandas 3.0"
        raise NotImplementedError(
            f"resample: rule {rule!r} with closed={closed!r} {where} is not supported "
            "(pandas bins by calendar days there); use 'D' with closed='left'"
        )
    if kind == "tick":
        codes, ngroups, labels = _tick_bins(
            xp, t, first, last, anchor // UNIT_NS[col.unit], closed, label, per_day(col.unit)
        )
    else:
        codes, ngroups, labels = _calendar_bins(xp, t, first, last, kind, anchor, label, per_day(col.unit))
    if valid is not None:
        codes = xp.where(valid, codes, -1)
    return Grouping(codes.astype(np.int64), ngroups, [DatetimeColumn(labels, col.unit, col.tz)], nat)


def _span(xp: Any, t: Any, valid: Any) -> tuple[int, int, int]:
    if t.shape[0] == 0:
        return 0, 0, 0
    big = np.iinfo(np.int64)
    lo = t if valid is None else xp.where(valid, t, big.max)
    hi = t if valid is None else xp.where(valid, t, big.min)
    nat = xp.zeros((), dtype=np.int64) if valid is None else (~valid).sum()
    host = to_host(xp.stack([lo.min(), hi.max(), nat.astype(np.int64)]))
    return int(host[0]), int(host[1]), int(host[2])


def _tick_bins(
    xp: Any, t: Any, first: int, last: int, step: int, closed: str, label: str, day: int
) -> tuple[Any, int, Any]:
    """pandas' ``_adjust_dates_anchored`` with origin='start_day' (midnight of the first day)."""
    step = max(step, 1)
    origin = (first // day) * day
    foff = (first - origin) % step
    loff = (last - origin) % step
    if closed == "right":
        fres = first - foff if foff > 0 else first - step
        lres = last + (step - loff) if loff > 0 else last
        codes = (t - fres - 1) // step
    else:
        fres = first - foff
        lres = last + (step - loff) if loff > 0 else last + step
        codes = (t - fres) // step
    ngroups = (lres - fres) // step
    labels = fres + (xp.arange(ngroups, dtype=np.int64) + (1 if label == "right" else 0)) * step
    return codes, int(ngroups), labels


def _period_of_days(xp: Any, days: Any, kind: str, anchor: Any) -> Any:
    """Calendar period number of every day (months / quarters / years since 0, weeks since the epoch)."""
    if kind == "week":
        dow = (days + 3) % 7  # 1970-01-01 was a Thursday; Monday = 0
        end = days + (anchor - dow) % 7
        return end // 7
    y, m, _ = civil_from_days(xp, days)
    if kind == "month":
        return y * 12 + (m - 1)
    if kind == "quarter":
        return y * 4 + (m - 1) // 3
    return y


def _period_bounds(xp: Any, p: Any, kind: str, anchor: Any) -> tuple[Any, Any]:
    """(first day, last day) of calendar periods ``p``."""
    if kind == "week":
        last = p * 7 + (anchor - 3) % 7  # the anchor weekday of that week
        return last - 6, last
    months = {"month": 1, "quarter": 3, "year": 12}[kind]
    per_year = 12 // months
    y = xp.floor_divide(p, per_year)
    m0 = (p - y * per_year) * months + 1
    start = days_from_civil(xp, y, m0, 1)
    m1 = m0 + months
    y1 = y + (m1 > 12)
    m1 = xp.where(m1 > 12, m1 - 12, m1)
    return start, days_from_civil(xp, y1, m1, 1) - 1


def _calendar_bins(
    xp: Any, t: Any, first: int, last: int, kind: str, anchor: Any, label: str, day: int
) -> tuple[Any, int, Any]:
    days = xp.floor_divide(t, day)
    ends = np.array([first // day, last // day], dtype=np.int64)
    pf, pl = (int(v) for v in _period_of_days(np, ends, kind, anchor))
    codes = _period_of_days(xp, days, kind, anchor) - pf
    ngroups = pl - pf + 1
    periods = xp.arange(pf, pl + 1, dtype=np.int64)
    start, end = _period_bounds(xp, periods, kind, anchor)
    is_end = kind == "week" or anchor is True
    if is_end:  # end-anchored: label right = the period's last day, left = the previous period's last day
        lab = end if label == "right" else start - 1
    else:  # start-anchored: label left = the period's first day, right = the next period's first day
        lab = start if label == "left" else end + 1
    return codes, int(ngroups), lab * day


__all__ = ["bin_grouping", "default_closed_label", "parse_rule"]
