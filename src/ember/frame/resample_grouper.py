"""``groupby(pd.Grouper(freq=...))``: pandas groups the rows into the resample bins (a BinGrouper,
empty bins kept). Alone, the Grouper gives a Resampler over the same bins that answers the
aggregations; in a list of keys, it stands for a key of each row's bin label (only the observed
combinations, as pandas)."""

from __future__ import annotations

import copy
from typing import Any

import pandas as pd

from ember.column import DatetimeColumn
from ember.frame._fallback import unsupported as _fallback_unsupported
from ember.frame.groupby_keys import _hashable
from ember.frame.index import Index, MultiIndex
from ember.frame.timeseries import Resampler, _is_frame

#: the GroupBy methods a freq Grouper answers as resample does (the same bins, the same results)
_AGGREGATIONS = frozenset(
    "sum prod mean median min max count nunique first last std var sem size ohlc aggregate agg "
    "quantile groups indices get_group".split()
)


def _unsupported(detail: str) -> Exception:
    return _fallback_unsupported("groupby", detail, fallback=False)


def is_freq_grouper(g: Any) -> bool:
    return isinstance(g, pd.Grouper) and getattr(g, "freq", None) is not None


def _check(g: Any) -> None:
    if g.key is not None and g.level is not None:
        raise ValueError("The Grouper cannot specify both a key and a level!")


def _time_source(obj: Any, g: Any) -> tuple[Any, Any]:
    """(``on`` for the Resampler, the time column) that the Grouper names: its key column, or the
    index (``level=`` its name or 0)."""
    if g.key is not None:
        if not _is_frame(obj) or not _hashable(g.key) or g.key not in obj._columns:
            raise KeyError(f"The grouper name {g.key} is not found")
        return g.key, obj._columns[g.key]
    if isinstance(obj.index, MultiIndex):
        raise _unsupported("a Grouper with freq= on a MultiIndex")
    if g.level is not None and g.level not in (0, -1) and g.level != obj.index.name:
        if isinstance(g.level, int):
            raise IndexError(f"Too many levels: Index has only 1 level, not {g.level + 1}")
        raise ValueError(f"level name {g.level} is not the name of the index")
    return None, obj.index.column


def freq_groupby(obj: Any, by: Any, level: Any, as_index: bool) -> FreqGroupBy | None:
    """The GroupBy of ``obj.groupby(by)`` when ``by`` is one Grouper with a frequency, else None."""
    if not is_freq_grouper(by):
        return None
    _check(by)
    if level is not None:
        raise _unsupported("a Grouper with freq= together with level=")
    if not as_index:
        raise _unsupported("a Grouper with freq= and as_index=False")
    on, tcol = _time_source(obj, by)
    if not isinstance(tcol, DatetimeColumn):
        raise _unsupported("a Grouper with freq= of values that are not datetimes")
    return FreqGroupBy(obj, by.freq, by.closed, by.label, on, by.origin, by.offset)


def bin_label_key(obj: Any, g: Any) -> Index:
    """For a freq Grouper in a list of keys: a key of each row's bin label (NaT rows missing, so
    dropped). The rows keep their order (pandas' aggregations there see them unsorted)."""
    from ember.frame.resample_more import end_defaults, make_bins, resolve_origin

    _check(g)
    on, tcol = _time_source(obj, g)
    if not isinstance(tcol, DatetimeColumn):
        raise _unsupported("a Grouper with freq= of values that are not datetimes")
    origin, offset = resolve_origin(tcol, g.freq, g.origin, g.offset)
    closed, label = end_defaults(g.origin, g.closed, g.label)
    grouping = make_bins(tcol, g.freq, closed, label, origin, offset)
    codes = grouping.codes
    labels = grouping.uniques[0].take(grouping.xp.maximum(codes, 0)) if len(codes) else tcol
    return Index._from_column(labels.set_missing(codes >= 0), on if on is not None else obj.index.name)


class FreqGroupBy(Resampler):
    """``groupby(Grouper(freq=...))``: the Resampler's aggregations over the bins, a column selection,
    and NotImplementedError for the GroupBy methods whose rows-wise answers differ from resample's."""

    def __getitem__(self, key: Any) -> FreqGroupBy:
        if not _is_frame(self.obj):
            raise _unsupported("a column selection of a SeriesGroupBy")
        selected = copy.copy(self)
        selected.obj = self.obj[key]
        return selected

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        obj = self.__dict__.get("obj")
        if _is_frame(obj) and name in obj._columns:
            return self[name]
        raise _unsupported(f"{name} with a Grouper of freq= (supported: {', '.join(sorted(_AGGREGATIONS))})")

    def _rows_wise(self, name: str) -> Any:
        raise _unsupported(f"{name} with a Grouper of freq= (supported: {', '.join(sorted(_AGGREGATIONS))})")

    def transform(self, func: Any, *args: Any, **kwargs: Any) -> Any:
        return self._rows_wise("transform")

    def apply(self, func: Any, *args: Any, **kwargs: Any) -> Any:
        return self._rows_wise("apply")

    def pipe(self, func: Any, *args: Any, **kwargs: Any) -> Any:
        return self._rows_wise("pipe")

    def ffill(self, limit: int | None = None) -> Any:
        return self._rows_wise("ffill")

    def bfill(self, limit: int | None = None) -> Any:
        return self._rows_wise("bfill")

    def nearest(self, limit: int | None = None) -> Any:
        return self._rows_wise("nearest")

    def asfreq(self, fill_value: Any = None) -> Any:
        return self._rows_wise("asfreq")

    def interpolate(self, *args: Any, **kwargs: Any) -> Any:
        return self._rows_wise("interpolate")
