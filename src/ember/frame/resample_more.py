"""Resample bins with pandas' ``origin`` / ``offset``, the group-wise resample of a GroupBy
(``df.groupby(key).resample(rule)``: every group binned from its own first to its last time, the
result indexed by (group key, bin)), and the DataFrame / Series time-zone methods of the index
(``tz_localize`` / ``tz_convert``, called from ``NDFrame``).

The bins come from ``ops.resample_bins`` (``ops.resample.bin_grouping`` keeps the plain
``origin='start_day'`` resample); the aggregations are the Resampler's.
"""

from __future__ import annotations

import warnings
from typing import Any

import pandas as pd

from ember._compat import PANDAS_31
from ember.column import DatetimeColumn
from ember.frame._fallback import unsupported
from ember.frame.index import Index, MultiIndex
from ember.frame.timeseries import Resampler, _is_frame

_DEFAULT_ORIGIN = "start_day"


# --- bins ---------------------------------------------------------------------------------------------


def _check_bins(col: Any, rule: Any, closed: str | None, label: str | None) -> tuple[str, str]:
    """``ops.resample.bin_grouping``'s checks (pandas' errors; ember's refusals) and the resolved
    closed / label."""
    from ember.ops.resample import default_closed_label, parse_rule

    if not isinstance(col, DatetimeColumn):
        raise TypeError(
            "Only valid with DatetimeIndex, TimedeltaIndex or PeriodIndex, "
            f"but got an instance of '{type(col).__name__}'"
        )
    if col.tz is not None and str(col.tz) not in ("UTC", "utc"):
        raise unsupported("resample", "time zones other than UTC (tz_convert to UTC first)")
    d_closed, d_label = default_closed_label(rule)
    closed = d_closed if closed is None else closed
    label = d_label if label is None else label
    if closed not in ("left", "right") or label not in ("left", "right"):
        raise ValueError("closed and label must be 'left' or 'right'")
    kind, _, _ = parse_rule(rule)
    if kind != "tick" and closed != d_closed:
        raise unsupported("resample", f"closed={closed!r} with rule {rule!r} (use closed={d_closed!r})")
    return closed, label


def _is_tick(rule: Any) -> bool:
    from ember.ops.resample import parse_rule

    if not PANDAS_31 and isinstance(pd.tseries.frequencies.to_offset(rule), pd.offsets.Day):
        return False  # pandas 3.0's Day is a calendar offset: origin / offset do not apply to it
    return parse_rule(rule)[0] == "tick"


def resolve_origin(col: Any, rule: Any, origin: Any, offset: Any) -> tuple[Any, int]:
    """(origin as a name or ticks, offset in ticks), pandas' errors for bad ones; the defaults for a
    calendar rule, which pandas ignores them for (with its RuntimeWarning)."""
    from ember.ops.resample_bins import offset_ticks, origin_ticks

    unit = getattr(col, "unit", "ns")
    tz = getattr(col, "tz", None)
    o, off = origin_ticks(origin, unit, tz), offset_ticks(offset, unit)
    if not _is_tick(rule):
        for name, given in (("offset", offset is not None), ("origin", origin != _DEFAULT_ORIGIN)):
            if given:
                warnings.warn(
                    f"The '{name}' keyword does not take effect when resampling with a 'freq' that "
                    "is not Tick-like (h, m, s, ms, us, ns)",
                    RuntimeWarning,
                    stacklevel=4,
                )
        return _DEFAULT_ORIGIN, 0
    if tz is not None and isinstance(pd.tseries.frequencies.to_offset(rule), pd.offsets.Day):
        if o != _DEFAULT_ORIGIN or off:
            raise unsupported("resample", "origin / offset with a 'D' rule on a tz-aware index")
    return o, off


def end_defaults(origin: Any, closed: Any, label: Any) -> tuple[Any, Any]:
    """pandas closes and labels the bins on the right by default for origin 'end' / 'end_day' (a time
    stands for the bin that ends there)."""
    if isinstance(origin, str) and origin in ("end", "end_day"):
        return ("right" if closed is None else closed), ("right" if label is None else label)
    return closed, label


def make_bins(col: Any, rule: Any, closed: Any, label: Any, origin: Any, offset: int) -> Any:
    """The Grouping of a resample's rows into bins."""
    from ember.ops.resample import bin_grouping
    from ember.ops.resample_bins import grouped_bins

    if origin == _DEFAULT_ORIGIN and not offset:
        return bin_grouping(col, rule, closed, label)
    closed, label = _check_bins(col, rule, closed, label)
    return grouped_bins(col, rule, closed, label, origin, offset)[0]


# --- the group-wise resample --------------------------------------------------------------------------


class GroupByResampler(Resampler):
    """``groupby(...).resample(rule, ...)``: the Resampler's aggregations per (group, bin)."""

    def __init__(
        self, gb: Any, rule: Any, closed: Any, label: Any, on: Any, origin: Any, offset: Any
    ) -> None:
        from ember.ops.resample_bins import grouped_bins

        self.obj, self.on, self._gb = gb.obj, on, gb
        tcol, name = self._time_column(on)
        o, off = resolve_origin(tcol, rule, origin, offset)
        closed, label = end_defaults(origin, closed, label)
        closed, label = _check_bins(tcol, rule, closed, label)
        keys = gb._grouping
        self._g, owner = grouped_bins(tcol, rule, closed, label, o, off, keys.codes, keys.ngroups)
        self._tcol, self._rule, self._closed, self._label = tcol, rule, closed, label
        self._origin, self._offset = o, off
        levels = [u.take(owner) for u in keys.uniques] + [self._g.uniques[0]]
        self._index = MultiIndex(levels, list(gb._key_names) + [name])
        self._empty: bool | None = None

    def _time_column(self, on: Any) -> tuple[Any, Any]:
        obj = self.obj
        if on is not None:
            if not _is_frame(obj) or on not in obj._columns:
                raise KeyError(on)
            return obj._columns[on], on
        if isinstance(obj.index, MultiIndex):
            raise unsupported("groupby().resample", "a MultiIndex (use on=)")
        return obj.index.column, obj.index.name

    def _values(self) -> list:
        return [(k, c) for k, c in self._gb._value_items() if k != self.on or not _is_frame(self.obj)]

    def _agg(self, op: str, **kw: Any) -> Any:
        from ember.frame.timeseries import _rewrap

        out = super()._agg(op, **kw)
        if _is_frame(self.obj) and not _is_frame(out):  # no value column left: an empty frame
            return _rewrap(self.obj, {}, self._index)
        return out

    def size(self) -> Any:
        out = super().size()
        if not _is_frame(self.obj):
            out.name = self.obj.name
        return out

    def ohlc(self) -> Any:
        raise unsupported("groupby().resample().ohlc", "a group-wise ohlc")

    def _refused(self, name: str) -> Any:
        raise unsupported(f"groupby().resample().{name}", "upsampling a group-wise resample")

    def ffill(self, limit: int | None = None) -> Any:
        return self._refused("ffill")

    def bfill(self, limit: int | None = None) -> Any:
        return self._refused("bfill")

    def nearest(self, limit: int | None = None) -> Any:
        return self._refused("nearest")

    def asfreq(self, fill_value: Any = None) -> Any:
        return self._refused("asfreq")

    def interpolate(self, *args: Any, **kwargs: Any) -> Any:
        return self._refused("interpolate")


class GroupByResample:
    """``resample`` of DataFrameGroupBy / SeriesGroupBy (mixed into the GroupBy classes)."""

    __slots__ = ()

    def resample(
        self,
        rule: Any,
        closed: str | None = None,
        label: str | None = None,
        convention: Any = None,
        on: Any = None,
        origin: Any = _DEFAULT_ORIGIN,
        offset: Any = None,
        group_keys: bool = False,
        *,
        include_groups: bool = False,
        **kwargs: Any,
    ) -> GroupByResampler:
        if kwargs:
            raise unsupported("groupby().resample", f"arguments {sorted(kwargs)}")
        if include_groups:
            raise ValueError("include_groups=True is no longer allowed.")
        if not getattr(self, "as_index", True):
            raise unsupported("groupby().resample", "as_index=False")
        return GroupByResampler(self, rule, closed, label, on, origin, offset)


# --- tz_localize / tz_convert of the index ------------------------------------------------------------


def _check_axis(fn: str, axis: Any, level: Any) -> None:
    if axis not in (0, "index", "rows"):
        if axis in (1, "columns"):
            raise unsupported(fn, "axis=1 (the column labels)")
        raise ValueError(f"No axis named {axis} for object type DataFrame")
    if level is not None:
        raise unsupported(fn, "level=")


def _datetime_index(obj: Any, fn: str) -> Index:
    index = obj.index
    if isinstance(index, MultiIndex):
        raise unsupported(fn, "a MultiIndex (level=)")
    if not isinstance(index.column, DatetimeColumn):
        raise TypeError("index is not a valid DatetimeIndex or PeriodIndex")
    return index


def _with_index(obj: Any, index: Index, copy: Any) -> Any:
    from ember.frame.timeseries import _items, _rewrap

    return _rewrap(obj, dict(_items(obj)), index)


def tz_localize(
    obj: Any,
    tz: Any,
    axis: Any = 0,
    level: Any = None,
    copy: Any = None,
    ambiguous: Any = "raise",
    nonexistent: Any = "raise",
) -> Any:
    """``DataFrame.tz_localize`` / ``Series.tz_localize``: the index's times localized (its
    ``DatetimeIndex.tz_localize``; the values unchanged)."""
    _check_axis("tz_localize", axis, level)
    index = _datetime_index(obj, "tz_localize")
    return _with_index(obj, index.tz_localize(tz, ambiguous=ambiguous, nonexistent=nonexistent), copy)


def tz_convert(obj: Any, tz: Any, axis: Any = 0, level: Any = None, copy: Any = None) -> Any:
    """``DataFrame.tz_convert`` / ``Series.tz_convert``: the index's times in another zone."""
    _check_axis("tz_convert", axis, level)
    index = _datetime_index(obj, "tz_convert")
    return _with_index(obj, index.tz_convert(tz), copy)


__all__ = [
    "GroupByResample",
    "GroupByResampler",
    "make_bins",
    "resolve_origin",
    "tz_convert",
    "tz_localize",
]
