"""``bdate_range`` (business days, made on the device by ``datetimes.date_range``), the business-day
index it returns, and ``interval_range`` / ``period_range``, which ember refuses (it holds no
Interval or Period data)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from ember.frame._fallback import unsupported
from ember.frame.index import Index
from ember.ops.datetimes import BOOL_FIELDS

#: the fields pandas computes by business days on an index of business-day frequency
_BUSINESS_FIELDS = tuple(f for f in BOOL_FIELDS if f != "is_leap_year")


class BusinessDayIndex(Index):
    """The datetime labels of a business-day range. pandas' index keeps the frequency 'B', and its
    is_month_start ... follow business days there (the first business day of a month starts it);
    ember keeps no frequency, so those fields are refused here rather than answered by calendar."""

    @classmethod
    def of(cls, index: Index) -> BusinessDayIndex:
        obj = object.__new__(cls)
        obj._column, obj.name = index.column, index.name
        return obj

    def slice(self, start: int, stop: int, step: int = 1) -> Index:
        return BusinessDayIndex.of(super().slice(start, stop, step))  # pandas keeps the frequency


def _refused_field(name: str) -> property:
    def field(self: BusinessDayIndex) -> Any:
        raise unsupported(
            f"DatetimeIndex.{name}",
            "an index of business-day frequency (pandas counts business days there; ember keeps no "
            "frequency): convert with .to_series() or index.to_numpy() first for calendar fields",
            fallback=False,
        )

    return property(field)


for _name in _BUSINESS_FIELDS:
    setattr(BusinessDayIndex, _name, _refused_field(_name))


def is_business_day(off: Any) -> bool:
    """Whether ``off`` is pandas' BusinessDay (no custom calendar, no time offset)."""
    return type(off) is pd.offsets.BusinessDay and not off.offset


def bdate_range(
    start: Any = None,
    end: Any = None,
    periods: int | None = None,
    freq: Any = "B",
    tz: Any = None,
    normalize: bool = True,
    name: Any = None,
    weekmask: Any = None,
    holidays: Any = None,
    inclusive: str = "both",
    **kwargs: Any,
) -> Index:
    """pandas.bdate_range: business days ('B' and its multiples), or any frequency date_range takes.
    Custom business days (freq='C...', weekmask=, holidays=) are refused."""
    from ember.frame.datetimes import date_range

    if freq is None:
        raise TypeError("freq must be specified for bdate_range; use date_range instead")
    custom = isinstance(freq, str) and freq.startswith("C")
    if not custom and (weekmask is not None or holidays is not None):
        raise ValueError(
            "a custom frequency string is required when holidays or weekmask are passed, "
            f"got frequency {freq}"
        )
    if custom or isinstance(freq, pd.offsets.CustomBusinessDay):
        raise unsupported(
            "bdate_range", "custom business days (freq='C', weekmask=, holidays=)", fallback=False
        )
    unknown = set(kwargs) - {"unit"}
    if unknown:
        raise TypeError(f"bdate_range() got an unexpected keyword argument {sorted(unknown)[0]!r}")
    return date_range(start, end, periods, freq, tz, normalize, name, inclusive, unit=kwargs.get("unit"))


def interval_range(
    start: Any = None,
    end: Any = None,
    periods: Any = None,
    freq: Any = None,
    name: Any = None,
    closed: str = "right",
) -> Any:
    """Refused: ember holds no Interval data (an IntervalIndex)."""
    raise unsupported(
        "interval_range", "ember holds no Interval data; build it with pandas.interval_range", fallback=False
    )


def period_range(
    start: Any = None, end: Any = None, periods: Any = None, freq: Any = None, name: Any = None
) -> Any:
    """Refused: ember holds no Period data (a PeriodIndex)."""
    raise unsupported(
        "period_range", "ember holds no Period data; build it with pandas.period_range", fallback=False
    )
