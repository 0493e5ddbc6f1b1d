"""Label-driven row selection of ``FrameExtras`` / ``SeriesExtras``: ``asof`` (the last row without a
missing value at or before each label) and ``between_time`` / ``at_time`` (rows of a DatetimeIndex by
wall-clock time).

The positions are found from the index labels (``asof``: the host labels, as ``Index.asof_locs``;
the time filters: on the labels' own module); the rows themselves are taken from the columns where
they are.
"""

from __future__ import annotations

import datetime
from typing import Any

import numpy as np
import pandas as pd

from ember.backend import to_host
from ember.column import DatetimeColumn, NumericColumn
from ember.frame._fallback import unsupported


# --- asof -------------------------------------------------------------------------------------------
def asof(obj: Any, where: Any, subset: Any = None) -> Any:
    """pandas' ``asof`` for a Series or DataFrame (``subset``: the columns whose missing values make a
    row skipped, every column by default)."""
    from ember.frame.series import Series

    if isinstance(where, str):
        where = pd.Timestamp(where)
    if not obj.index.is_monotonic_increasing:
        raise ValueError("asof requires a sorted index")
    is_series = isinstance(obj, Series)
    if is_series and subset is not None:
        raise ValueError("subset is not valid for Series")
    if not is_series:
        subset = list(obj.columns) if subset is None else subset
        subset = subset if pd.api.types.is_list_like(subset) else [subset]
    is_list = pd.api.types.is_list_like(where)
    if not is_list and where < obj.index[0]:
        if is_series:
            return np.nan
        return Series(pd.Series(index=obj.columns, name=where, dtype=np.float64))
    where_index = where if isinstance(where, pd.Index) else pd.Index(where if is_list else [where])
    nulls = obj.isna() if is_series else obj[subset].isna().any(axis=1)
    valid = ~to_host(nulls.column.data).astype(bool)
    if not valid.any():
        return _all_missing(obj, where_index, is_series, is_list)
    locs = np.asarray(obj.index.asof_locs(where_index, valid), dtype=np.int64)
    if is_series and not is_list:  # pandas: the value itself, the first one where none is valid
        return obj.iat[int(max(locs[0], 0))]
    data = _taken(obj, locs, is_series)
    data.index = where_index
    return data if is_list else data.iloc[-1]


def _all_missing(obj: Any, where: pd.Index, is_series: bool, is_list: bool) -> Any:
    """pandas' answer where every row has a missing value: NaN everywhere (float64)."""
    from ember.frame.dataframe import DataFrame
    from ember.frame.series import Series

    if is_series:
        return Series(pd.Series(np.nan, index=where, name=obj.name))
    if is_list:
        return DataFrame(pd.DataFrame(np.nan, index=where, columns=obj.columns))
    return Series(pd.Series(np.nan, index=obj.columns, name=where[0]))


def _taken(obj: Any, locs: np.ndarray, is_series: bool) -> Any:
    """The rows at ``locs``, missing where -1 (pandas sets NaN there: ints become float64, and a bool
    column cannot hold it)."""
    xp = obj.column.xp if is_series else _xp(obj)
    positions = xp.asarray(locs)
    if not (locs == -1).any():
        return obj._take_rows(positions)
    cols = {"": obj.column} if is_series else obj._columns
    for c in cols.values():
        if isinstance(c, NumericColumn) and not c.nullable and c.data.dtype.kind == "b":
            raise TypeError("Invalid value 'nan' for dtype 'bool'")
    taken = {k: c.take_nullable(positions) for k, c in cols.items()}
    from ember.frame.index import RangeIndex

    index = RangeIndex(len(locs))
    if is_series:
        return obj._constructor._from_column(taken[""], index, obj.name)
    return obj._with_rows(taken, index)


def _xp(obj: Any) -> Any:
    from ember.backend import xp as current_xp

    cols = list(obj._columns.values())
    return cols[0].xp if cols else current_xp()


# --- between_time / at_time -------------------------------------------------------------------------
def _time_micros(obj: Any, axis: Any, method: str) -> tuple[Any, DatetimeColumn]:
    """Microseconds since the wall-clock midnight of each row label (-1 for NaT), as pandas'
    ``DatetimeIndex._get_time_micros``."""
    from ember.frame.index import MultiIndex
    from ember.ops.datetimes import local_ticks, per_day, per_second

    if axis not in (None, 0, "index", "rows"):
        if axis in (1, "columns") and not hasattr(obj, "_columns"):
            raise ValueError(f"No axis named {axis} for object type Series")
        if axis in (1, "columns"):
            raise unsupported(method, "axis=1 (a DatetimeIndex of column labels)")
        raise ValueError(f"No axis named {axis} for object type {type(obj).__name__}")
    index = obj.index
    col = None if isinstance(index, MultiIndex) else index.column
    if not isinstance(col, DatetimeColumn):
        raise TypeError("Index must be DatetimeIndex")
    xp = col.xp
    frac = local_ticks(col) % per_day(col.unit)
    per_sec = per_second(col.unit)
    micros = frac // (per_sec // 1_000_000) if per_sec >= 1_000_000 else frac * (1_000_000 // per_sec)
    if col.mask is not None:
        micros = xp.where(col.mask, micros, -1)
    return micros, col


def _to_micros(t: datetime.time) -> int:
    return ((t.hour * 60 + t.minute) * 60 + t.second) * 1_000_000 + t.microsecond


def between_time(
    obj: Any, start_time: Any, end_time: Any, inclusive: str = "both", axis: Any = None, method: str = ""
) -> Any:
    from pandas.core.tools.times import to_time
    from pandas.util._validators import validate_inclusive

    micros, col = _time_micros(obj, axis, method)
    left, right = validate_inclusive(inclusive)
    start, end = to_time(start_time), to_time(end_time)
    lo, hi = _to_micros(start), _to_micros(end)
    above = (lo <= micros) if left else (lo < micros)
    below = (micros <= hi) if right else (micros < hi)
    keep = (above & below) if start <= end else (above | below)
    return obj._take_rows(col.xp.flatnonzero(keep))


def at_time(obj: Any, time: Any, asof: bool = False, axis: Any = None, method: str = "") -> Any:
    if asof:
        raise NotImplementedError("'asof' argument is not supported")
    micros, col = _time_micros(obj, axis, method)
    t = _parsed_time(time)
    if t.tzinfo is not None:
        if col.tz is None:
            raise ValueError("Index must be timezone aware.")
        raise unsupported(method, "a time with a time zone")
    return obj._take_rows(col.xp.flatnonzero(micros == _to_micros(t)))


def _parsed_time(time: Any) -> datetime.time:
    """pandas' reading of an ``at_time`` string (dateutil first, ``to_time`` where it fails)."""
    if not isinstance(time, str):
        return time
    from dateutil.parser import parse
    from pandas.core.tools.times import to_time

    try:
        alt = to_time(time)
    except ValueError:
        return parse(time).time()
    try:
        return parse(time).time()
    except ValueError:
        return alt
