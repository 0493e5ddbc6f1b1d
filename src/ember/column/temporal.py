"""datetime64 / timedelta64 columns: int64 ticks of a unit (s, ms, us, ns) plus an optional time zone.

CuPy has no datetime dtypes, so the ticks are stored as int64 on both backends; missing values (NaT)
live in the mask. Time-zone-aware columns store UTC ticks.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from ember.backend import to_host
from ember.column.base import Column

NAT = np.iinfo(np.int64).min


class DatetimeColumn(Column):
    __slots__ = ("unit", "tz")

    def __init__(self, data: Any, unit: str = "ns", tz: Any = None, mask: Any = None) -> None:
        super().__init__(data, mask)
        self.unit = unit
        self.tz = tz

    @property
    def dtype(self) -> Any:
        if self.tz is not None:
            return pd.DatetimeTZDtype(unit=self.unit, tz=self.tz)
        return np.dtype(f"datetime64[{self.unit}]")

    @property
    def numpy_dtype(self) -> np.dtype:
        return np.dtype(f"datetime64[{self.unit}]")

    def _rebuild(self, data: Any, mask: Any) -> DatetimeColumn:
        return DatetimeColumn(data, self.unit, self.tz, mask)

    def to_numpy(self) -> np.ndarray:
        ticks = to_host(self.data).copy() if self.mask is not None else to_host(self.data)
        if self.mask is not None:
            ticks[~to_host(self.mask)] = NAT
        return ticks.view(self.numpy_dtype)

    def to_pandas(self, index: Any = None, name: Any = None) -> pd.Series:
        s = pd.Series(self.to_numpy(), index=index, name=name, copy=False)
        if self.tz is not None:
            s = s.dt.tz_localize("UTC").dt.tz_convert(self.tz)
        return s

    def to_arrow(self) -> pa.Array:
        mask = None if self.mask is None else ~to_host(self.mask)
        tz = None if self.tz is None else str(self.tz)
        return pa.array(to_host(self.data), type=pa.timestamp(self.unit, tz=tz), mask=mask)


class TimedeltaColumn(Column):
    __slots__ = ("unit",)

    def __init__(self, data: Any, unit: str = "ns", mask: Any = None) -> None:
        super().__init__(data, mask)
        self.unit = unit

    @property
    def dtype(self) -> np.dtype:
        return np.dtype(f"timedelta64[{self.unit}]")

    def _rebuild(self, data: Any, mask: Any) -> TimedeltaColumn:
        return TimedeltaColumn(data, self.unit, mask)

    def to_numpy(self) -> np.ndarray:
        ticks = to_host(self.data).copy() if self.mask is not None else to_host(self.data)
        if self.mask is not None:
            ticks[~to_host(self.mask)] = NAT
        return ticks.view(self.dtype)

    def to_pandas(self, index: Any = None, name: Any = None) -> pd.Series:
        return pd.Series(self.to_numpy(), index=index, name=name, copy=False)

    def to_arrow(self) -> pa.Array:
        mask = None if self.mask is None else ~to_host(self.mask)
        return pa.array(to_host(self.data), type=pa.duration(self.unit), mask=mask)
