"""``Series.dt``: thin wrappers over ops.datetimes (datetime and timedelta Series)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.column import DatetimeColumn, TimedeltaColumn
from ember.frame._fallback import unsupported
from ember.ops import datetimes as D

_NOT_HELD = {  # pandas' .dt members whose results ember columns cannot hold
    "to_period": "Period values (pandas' period dtype)",
    "to_pydatetime": "a Series of Python datetime objects (pandas' object column)",
    "freq": "the inferred frequency of the values",
}


class DatetimeMethods:
    """pandas' ``.dt`` accessor: calendar fields, rounding, formatting and time zones."""

    def __init__(self, series: Any) -> None:
        if not isinstance(series.column, (DatetimeColumn, TimedeltaColumn)):
            raise AttributeError("Can only use .dt accessor with datetimelike values")
        self._s = series
        self._col = series.column

    def _wrap(self, col: Any) -> Any:
        return self._s._wrap(col)

    def _dt(self, what: str) -> DatetimeColumn:
        if not isinstance(self._col, DatetimeColumn):
            raise AttributeError(f"'TimedeltaProperties' object has no attribute '{what}'")
        return self._col

    def __getattr__(self, name: str) -> Any:
        if name in D.INT_FIELDS or name in D.BOOL_FIELDS:
            return self._wrap(D.field(self._dt(name), name))
        if name in ("days", "seconds", "microseconds", "nanoseconds") and isinstance(
            self._col, TimedeltaColumn
        ):
            return self._wrap(D.td_field(self._col, name))
        if name in _NOT_HELD:
            raise unsupported(f".dt.{name}", _NOT_HELD[name], fallback=False)
        raise AttributeError(f"'DatetimeProperties' object has no attribute '{name}'")

    def as_unit(self, unit: str) -> Any:
        """The values in another unit (a coarser one floors, as pandas)."""
        from ember.ops.unary import astype

        col = self._col
        if isinstance(col, TimedeltaColumn):
            dtype = np.dtype(f"m8[{unit}]")
        elif col.tz is not None:
            dtype = pd.DatetimeTZDtype(unit=unit, tz=col.tz)
        else:
            dtype = np.dtype(f"M8[{unit}]")
        return self._wrap(astype(col, dtype))

    @property
    def components(self) -> Any:
        """A frame of days, hours, minutes, seconds, milliseconds, microseconds and nanoseconds of
        timedeltas, on the Series' index (float64 with NaN where a row is NaT)."""
        from ember.frame.dataframe import DataFrame

        if not isinstance(self._col, TimedeltaColumn):
            raise AttributeError("'DatetimeProperties' object has no attribute 'components'")
        cols = D.td_components(self._col)
        return DataFrame._from_columns(dict(zip(D.COMPONENTS, cols)), self._s.index)

    def to_pytimedelta(self) -> np.ndarray:
        """A NumPy object array of ``datetime.timedelta`` (on the host, as pandas gives it: the column
        is copied there)."""
        if not isinstance(self._col, TimedeltaColumn):
            raise AttributeError("'DatetimeProperties' object has no attribute 'to_pytimedelta'")
        return self._s.to_pandas().dt.to_pytimedelta()

    @property
    def tz(self) -> Any:
        return self._dt("tz").tz

    @property
    def unit(self) -> str:
        return self._col.unit

    def day_name(self) -> Any:
        return self._wrap(D.names(self._dt("day_name"), "day_name"))

    def month_name(self) -> Any:
        return self._wrap(D.names(self._dt("month_name"), "month_name"))

    def total_seconds(self) -> Any:
        if not isinstance(self._col, TimedeltaColumn):
            raise AttributeError("'DatetimeProperties' object has no attribute 'total_seconds'")
        return self._wrap(D.td_field(self._col, "total_seconds"))

    @property
    def date(self) -> Any:
        raise NotImplementedError(
            ".dt.date returns Python date objects, which ember columns do not hold; "
            "use .dt.normalize() (datetime64 at midnight) instead"
        )

    @property
    def time(self) -> Any:
        raise NotImplementedError(
            ".dt.time returns Python time objects, which ember columns do not hold; "
            "use .dt.hour / .dt.minute / .dt.second, or the offset from .dt.normalize()"
        )

    @property
    def timetz(self) -> Any:
        return self.time

    def isocalendar(self) -> Any:
        """A frame of the ISO year, week and day (1 = Monday) of each row, on the Series' index."""
        from ember.frame.dataframe import DataFrame

        cols = D.isocalendar(self._dt("isocalendar"))
        return DataFrame._from_columns(dict(zip(["year", "week", "day"], cols)), self._s.index)

    def normalize(self) -> Any:
        return self._wrap(D.normalize(self._dt("normalize")))

    def floor(self, freq: Any, ambiguous: Any = "raise", nonexistent: str = "raise") -> Any:
        return self._wrap(D.round_col(self._col, freq, "floor", ambiguous, nonexistent))

    def ceil(self, freq: Any, ambiguous: Any = "raise", nonexistent: str = "raise") -> Any:
        return self._wrap(D.round_col(self._col, freq, "ceil", ambiguous, nonexistent))

    def round(self, freq: Any, ambiguous: Any = "raise", nonexistent: str = "raise") -> Any:
        return self._wrap(D.round_col(self._col, freq, "round", ambiguous, nonexistent))

    def strftime(self, date_format: str) -> Any:
        return self._wrap(D.strftime(self._dt("strftime"), date_format))

    def tz_localize(self, tz: Any, ambiguous: Any = "raise", nonexistent: str = "raise") -> Any:
        return self._wrap(D.tz_localize(self._dt("tz_localize"), tz, ambiguous, nonexistent))

    def tz_convert(self, tz: Any) -> Any:
        return self._wrap(D.tz_convert(self._dt("tz_convert"), tz))
