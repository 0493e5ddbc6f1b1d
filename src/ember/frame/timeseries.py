"""Time-series helpers for Series and DataFrame: resample (a Resampler over ``ops.resample`` bins and
``ops.groupby`` aggregations), merge_asof (``ops.asof``), shift / diff / pct_change (with ``freq``:
the index moves instead of the values) and asfreq. The lead wires them as methods
(``Series.shift = lambda self, *a, **k: shift(self, *a, **k)`` ...)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.column import Column, DatetimeColumn, NumericColumn, StringColumn, TimedeltaColumn
from ember.frame._fallback import unsupported
from ember.frame.index import Index, MultiIndex, RangeIndex

_UNIT_NS = {"s": 10**9, "ms": 10**6, "us": 10**3, "ns": 1}
RESAMPLE_OPS = (
    "sum",
    "mean",
    "min",
    "max",
    "count",
    "first",
    "last",
    "median",
    "std",
    "var",
    "sem",
    "prod",
    "nunique",
    "size",
)


def _is_frame(obj: Any) -> bool:
    return getattr(obj, "_ember_kind", "") == "frame"


def _items(obj: Any) -> list[tuple[Any, Column]]:
    if _is_frame(obj):
        return [(k, obj._columns[k]) for k in obj._names]
    return [(obj.name, obj.column)]


def _rewrap(obj: Any, cols: dict, index: Index) -> Any:
    from ember.frame.series import Series

    if _is_frame(obj):  # the frame's column axis (its names and type), as pandas
        return obj._with_rows(cols, index)
    return Series._from_column(next(iter(cols.values())), index, obj.name)


# --- resample ----------------------------------------------------------------------------------------


class Resampler:
    """``obj.resample(rule, closed, label, on)``: aggregations per time bin, empty bins included."""

    def __init__(
        self,
        obj: Any,
        rule: Any,
        closed: str | None = None,
        label: str | None = None,
        on: Any = None,
        origin: Any = "start_day",
        offset: Any = None,
    ) -> None:
        from ember.frame.resample_more import end_defaults, make_bins, resolve_origin

        self.on = on
        if on is not None:
            if not _is_frame(obj) or on not in obj._columns:
                raise KeyError(on)
            tcol, name = obj._columns[on], on
        else:
            if isinstance(obj.index, MultiIndex):
                raise unsupported("resample", "a MultiIndex (use on=)")
            tcol, name = obj.index.column, obj.index.name
        obj, tcol = _time_sorted(obj, tcol, on)
        self.obj = obj
        self._origin, self._offset = resolve_origin(tcol, rule, origin, offset)
        closed, label = end_defaults(origin, closed, label)
        self._g = make_bins(tcol, rule, closed, label, self._origin, self._offset)
        self._tcol, self._rule = tcol, rule
        self._closed, self._label = _closed_label(rule, closed, label)
        self._index = Index._from_column(self._g.uniques[0], name)
        self._empty: bool | None = None

    def _values(self) -> list[tuple[Any, Column]]:
        return [(k, c) for k, c in _items(self.obj) if k != self.on or not _is_frame(self.obj)]

    def _agg(self, op: str, **kw: Any) -> Any:
        from ember.ops.groupby import aggregate

        cols = {k: aggregate(self._g, c, op, **kw) for k, c in self._values()}
        if op in ("min", "max", "first", "last", "nth") and self._has_empty():
            filled = self._g.sizes[: self._g.ngroups] > 0
            cols = {k: _bool_as_float(c).set_missing(filled) for k, c in cols.items()}
        return _rewrap(self.obj, cols, self._index)

    def _has_empty(self) -> bool:
        """Whether some bin holds no row (groupby never has one; pandas gives min/first... NaN there).
        Synchronizes once per Resampler."""
        if self._empty is None:
            g = self._g
            self._empty = bool((g.sizes[: g.ngroups] == 0).any()) if g.ngroups else False
        return self._empty

    def sum(self, numeric_only: bool = False, min_count: int = 0) -> Any:
        return self._agg("sum", min_count=min_count)

    def prod(self, numeric_only: bool = False, min_count: int = 0) -> Any:
        return self._agg("prod", min_count=min_count)

    def mean(self, numeric_only: bool = False) -> Any:
        return self._agg("mean")

    def median(self, numeric_only: bool = False) -> Any:
        return self._agg("median")

    def min(self, numeric_only: bool = False, min_count: int = 0) -> Any:
        return self._agg("min")

    def max(self, numeric_only: bool = False, min_count: int = 0) -> Any:
        return self._agg("max")

    def count(self) -> Any:
        return self._agg("count")

    def nunique(self) -> Any:
        return self._agg("nunique")

    def first(self, numeric_only: bool = False, min_count: int = 0, skipna: bool = True) -> Any:
        return self._agg("first", skipna=skipna)

    def last(self, numeric_only: bool = False, min_count: int = 0, skipna: bool = True) -> Any:
        return self._agg("last", skipna=skipna)

    def std(self, ddof: int = 1, numeric_only: bool = False) -> Any:
        return self._agg("std", ddof=ddof)

    def var(self, ddof: int = 1, numeric_only: bool = False) -> Any:
        return self._agg("var", ddof=ddof)

    def sem(self, ddof: int = 1, numeric_only: bool = False) -> Any:
        return self._agg("sem", ddof=ddof)

    def size(self) -> Any:
        from ember.frame.series import Series
        from ember.ops.groupby import aggregate

        any_col = self._g.uniques[0]
        col = aggregate(self._g, NumericColumn(any_col.xp.zeros(self._g.nrows, dtype=np.int64)), "size")
        return Series._from_column(col, self._index, None if _is_frame(self.obj) else self.obj.name)

    def ohlc(self) -> Any:
        """open / high / low / close per bin (a Series gives a DataFrame with those four columns)."""
        from ember.frame.dataframe import DataFrame
        from ember.ops.groupby import aggregate

        if _is_frame(self.obj):
            raise unsupported(
                "DataFrame.resample().ohlc",
                "DataFrames (the result has MultiIndex columns); use it on one column",
            )
        col = self.obj.column
        ops = {"open": "first", "high": "max", "low": "min", "close": "last"}
        cols = {k: aggregate(self._g, col, op) for k, op in ops.items()}
        if self._has_empty():
            filled = self._g.sizes[: self._g.ngroups] > 0
            cols = {k: c.set_missing(filled) for k, c in cols.items()}
        return DataFrame._from_columns(cols, self._index)

    def aggregate(self, func: Any = None, *args: Any, **kwargs: Any) -> Any:
        """A method name, a callable (run on each bin's rows), a list, a dict, or named aggregations."""
        from ember.frame.resample_agg import aggregate

        return aggregate(self, func, args, kwargs)

    def transform(self, func: Any, *args: Any, **kwargs: Any) -> Any:
        """Each row's bin result (a method name), or ``func`` on each bin's rows, on the rows."""
        from ember.frame.resample_agg import transform

        return transform(self, func, args, kwargs)

    agg = aggregate
    apply = aggregate

    @property
    def groups(self) -> dict:
        from ember.frame.resample_agg import groups

        return groups(self)

    @property
    def indices(self) -> dict:
        from ember.frame.resample_agg import indices

        return indices(self)

    def get_group(self, name: Any) -> Any:
        from ember.frame.resample_agg import get_group

        return get_group(self, name)

    def pipe(self, func: Any, *args: Any, **kwargs: Any) -> Any:
        """``func(self, *args, **kwargs)``; a ``(callable, keyword)`` tuple passes self as that keyword."""
        if isinstance(func, tuple):
            func, target = func
            if target in kwargs:
                raise ValueError(f"{target} is both the pipe target and a keyword argument")
            kwargs[target] = self
            return func(*args, **kwargs)
        return func(self, *args, **kwargs)

    # --- reindexing to the bins' edges (resample_fill) ------------------------------------------------
    def ffill(self, limit: int | None = None) -> Any:
        from ember.frame.resample_fill import upsample

        return upsample(self, "ffill", limit)

    def bfill(self, limit: int | None = None) -> Any:
        from ember.frame.resample_fill import upsample

        return upsample(self, "bfill", limit)

    def nearest(self, limit: int | None = None) -> Any:
        from ember.frame.resample_fill import upsample

        return upsample(self, "nearest", limit)

    def asfreq(self, fill_value: Any = None) -> Any:
        from ember.frame.resample_fill import upsample

        return upsample(self, None, fill_value=fill_value)

    def interpolate(
        self,
        method: str = "linear",
        *,
        axis: Any = 0,
        limit: int | None = None,
        limit_direction: str = "forward",
        limit_area: str | None = None,
        **kwargs: Any,
    ) -> Any:
        from ember.frame.resample_fill import interpolate

        return interpolate(self, method, axis, limit, limit_direction, limit_area, **kwargs)

    def quantile(self, q: Any = 0.5, **kwargs: Any) -> Any:
        from ember.frame.resample_fill import quantile

        return quantile(self, q, **kwargs)


def _time_sorted(obj: Any, tcol: Column, on: Any) -> tuple[Any, Column]:
    """The rows in time order (stable, NaT first) when they are not already: pandas sorts them
    before binning, so first / last / an applied function see each bin's rows by time. Synchronizes
    once."""
    from ember.backend import to_host
    from ember.ops.sort import argsort

    if not isinstance(tcol, (DatetimeColumn, TimedeltaColumn)) or len(tcol) < 2:
        return obj, tcol
    t = tcol.data.astype(np.int64)
    ordered = t[1:] >= t[:-1]
    if tcol.mask is not None:
        ordered = ordered & tcol.mask[1:] & tcol.mask[:-1]
    if bool(to_host(ordered.all())):
        return obj, tcol
    obj = obj._take_rows(argsort([tcol], na_position="first"))
    return obj, (obj._columns[on] if on is not None else obj.index.column)


def _bool_as_float(col: Column) -> Column:
    """pandas gives a NumPy bool column's empty bins NaN in a float64 column (1.0 / 0.0 elsewhere)."""
    if isinstance(col, NumericColumn) and col.is_bool and not col.nullable:
        return NumericColumn(col.data.astype(np.float64), col.mask)
    return col


def _closed_label(rule: Any, closed: str | None, label: str | None) -> tuple[str, str]:
    from ember.ops.resample import default_closed_label

    d_closed, d_label = default_closed_label(rule)
    return (d_closed if closed is None else closed), (d_label if label is None else label)


def resample(
    obj: Any,
    rule: Any,
    closed: str | None = None,
    label: str | None = None,
    on: Any = None,
    axis: Any = None,
    convention: Any = None,
    kind: Any = None,
    level: Any = None,
    origin: Any = "start_day",
    offset: Any = None,
    group_keys: bool = False,
) -> Resampler:
    """``Series.resample`` / ``DataFrame.resample`` (origin / offset: pandas' bins of fixed
    frequencies; no level, no PeriodIndex conventions)."""
    if level is not None:
        raise unsupported("resample", "level=")
    if axis not in (None, 0, "index", "rows") or kind is not None:
        raise unsupported("resample", "axis / kind (removed in pandas 3)")
    if convention not in (None, "start", "end", "s", "e"):  # only a PeriodIndex reads it
        raise unsupported("resample", f"convention={convention!r}")
    return Resampler(obj, rule, closed, label, on, origin, offset)


# --- merge_asof --------------------------------------------------------------------------------------


def _as_list(x: Any) -> list:
    return [] if x is None else (list(x) if isinstance(x, (list, tuple)) else [x])


def merge_asof(
    left: Any,
    right: Any,
    on: Any = None,
    left_on: Any = None,
    right_on: Any = None,
    left_index: bool = False,
    right_index: bool = False,
    by: Any = None,
    left_by: Any = None,
    right_by: Any = None,
    suffixes: tuple = ("_x", "_y"),
    tolerance: Any = None,
    allow_exact_matches: bool = True,
    direction: str = "backward",
) -> Any:
    """pandas.merge_asof on ember DataFrames: both sides sorted by the ``on`` key; every left row takes
    the right row nearest to it in ``direction`` (within equal ``by`` keys and ``tolerance``)."""
    from ember.backend import array_module
    from ember.frame.merge import _assemble
    from ember.ops.asof import asof_positions

    if left_index or right_index:
        raise unsupported("merge_asof", "left_index/right_index (use on=)")
    if on is not None:
        if left_on is not None or right_on is not None:
            from pandas.errors import MergeError

            raise MergeError(
                'Can only pass argument "on" OR "left_on" and "right_on", not a combination of both.'
            )
        left_on = right_on = on
    if left_on is None or right_on is None:
        from pandas.errors import MergeError

        raise MergeError("Must pass on, or left_on and right_on")
    if isinstance(left_on, (list, tuple)) or isinstance(right_on, (list, tuple)):
        from pandas.errors import MergeError

        raise MergeError("can only asof on a key for left")
    if by is not None:
        left_by = right_by = by
    lby, rby = _as_list(left_by), _as_list(right_by)
    if len(lby) != len(rby):
        from pandas.errors import MergeError

        raise MergeError("left_by and right_by must be the same length")
    for frame, names in ((left, [left_on] + lby), (right, [right_on] + rby)):
        for k in names:
            if k not in frame._columns:
                raise KeyError(k)
    rpos = asof_positions(
        left._columns[left_on],
        right._columns[right_on],
        [left._columns[k] for k in lby],
        [right._columns[k] for k in rby],
        tolerance,
        allow_exact_matches,
        direction,
    )
    xp = array_module(rpos)
    lpos = xp.arange(len(left), dtype=np.int64)
    shared = [a for a, b in zip([left_on] + lby, [right_on] + rby, strict=True) if a == b]
    return _assemble(
        left, right, lpos, rpos, shared, [left_on] + lby, tuple(suffixes), False, RangeIndex(len(left))
    )


# --- shift / diff / pct_change / asfreq ---------------------------------------------------------------


def _shift_positions(xp: Any, n: int, periods: int) -> Any:
    src = xp.arange(n, dtype=np.int64) - periods
    return xp.where((src >= 0) & (src < n), src, -1)


def _xp_of(obj: Any) -> Any:
    items = _items(obj)
    if items:
        return items[0][1].xp
    return obj.index.column.xp


def _freq_ticks(freq: Any, unit: str, fn: str) -> int:
    off = pd.tseries.frequencies.to_offset(freq)
    if isinstance(off, pd.offsets.Tick):
        nanos = int(off.nanos)
    elif type(off).__name__ == "Day":
        nanos = int(off.n) * 86_400 * 10**9
    else:
        raise unsupported(fn, f"freq={freq!r} (only fixed frequencies: D, h, min, s, ms, us, ns)")
    return nanos // _UNIT_NS[unit]


def _shift_index(obj: Any, periods: int, freq: Any) -> Index:
    index = obj.index
    col = None if isinstance(index, MultiIndex) else index.column
    if not isinstance(col, (DatetimeColumn, TimedeltaColumn)):
        raise unsupported("shift", "freq= with an index that is not datetime-like")
    if freq == "infer":
        raise unsupported("shift", "freq='infer'")
    step = _freq_ticks(freq, col.unit, "shift")
    return Index._from_column(col._rebuild(col.data + periods * step, col.mask), index.name)


def shift(obj: Any, periods: int = 1, freq: Any = None, axis: Any = None, fill_value: Any = None) -> Any:
    """``Series.shift`` / ``DataFrame.shift``: values move ``periods`` rows (missing where they leave a
    gap, ints becoming float64 as in pandas), or, with ``freq``, the datetime index moves instead."""
    if axis not in (None, 0, "index"):
        raise unsupported("shift", "axis=1")
    if not isinstance(periods, (int, np.integer)):
        raise unsupported("shift", "periods other than one integer")
    periods = int(periods)
    if freq is not None:
        return _rewrap(obj, dict(_items(obj)), _shift_index(obj, periods, freq))
    xp = _xp_of(obj)
    n = len(obj)
    pos = _shift_positions(xp, n, periods)
    cols = {}
    for k, c in _items(obj):
        # nothing moves: the dtype is kept (an empty frame too; an empty Series changes as pandas')
        kept = periods == 0 or (n == 0 and _is_frame(obj))
        cols[k] = c if kept else _take_fill(c, pos, fill_value)
    return _rewrap(obj, cols, obj.index)


def _take_fill(col: Column, pos: Any, fill_value: Any) -> Column:
    """Rows at ``pos``; where ``pos`` is -1, missing, or ``fill_value`` (keeping the dtype when it fits,
    as pandas does: an int column filled with an int stays int)."""
    if fill_value is None:
        out = col.take_nullable(pos)
        if col.dtype == object and hasattr(out, "na"):  # pandas 3 fills an object column with None
            if col.na is not None and col.mask is not None and not bool(col.mask.all()):  # one sync
                # pandas keeps the column's NaN beside them
                raise unsupported("shift", "an object column holding NaN (pandas fills None beside it)")
            out.na = None
        return out
    from ember.ops.missing import where

    xp = col.xp
    if isinstance(col, NumericColumn) and col.nullable:
        # pandas sets the value into the masked array's NumPy data: NumPy's cast and errors (2.5 -> 2
        # and True -> 1 for ints, 2.5 -> True for booleans, NaN a value of Float64, not missing)
        if len(col) == 0:
            return col  # nothing is set
        cell = np.zeros(1, dtype=col.data.dtype)
        cell[:1] = fill_value
        taken, filled = col.take(xp.maximum(pos, 0)), pos < 0
        data = xp.where(filled, cell[0], taken.data).astype(col.data.dtype, copy=False)
        mask = None if taken.mask is None else taken.mask | filled
        return NumericColumn(data, mask, nullable=True)
    if len(col) == 0:  # pandas casts for the fill value before moving anything: as if one row were filled
        return _take_fill(col.empty_like(1).with_mask(None), xp.full(1, -1), fill_value).slice(0, 0)
    return where(col.take(xp.maximum(pos, 0)), pos >= 0, fill_value)


def _object_diff(col: StringColumn, periods: int) -> Column:
    """pandas subtracts an object column's Python objects pairwise: no pair (or only NaN) gives NaN
    objects, a pair holding a string or None raises Python's TypeError. One sync."""
    n = len(col)
    pairs = n > abs(periods)
    if pairs and not (isinstance(col.na, float) and col.na != col.na):  # None / NA / NaT objects
        if col.na is pd.NA:
            raise unsupported("diff", "object data holding pd.NA")
        raise TypeError("unsupported operand type(s) for -: 'NoneType' and 'NoneType'")
    if pairs and (col.mask is None or bool(col.mask.any())):
        raise TypeError("unsupported operand type(s) for -: 'str' and 'str'")
    xp = col.xp
    offsets, chars = xp.zeros(n + 1, dtype=np.int64), xp.zeros(0, dtype=np.uint8)
    return StringColumn(offsets, chars, xp.zeros(n, dtype=bool), np.dtype(object), np.nan)


def _diff_column(col: Column, periods: int) -> Column:
    xp = col.xp
    prev = col.take_nullable(_shift_positions(xp, len(col), periods))
    if isinstance(col, (DatetimeColumn, TimedeltaColumn)):
        if isinstance(col, DatetimeColumn) and col.tz is not None:
            raise unsupported("diff", "tz-aware datetimes")
        from ember.ops.datetimes import add_checked

        missing = col.isna() | prev.isna()
        delta = add_checked(xp, col.data, prev.data, ~missing, sub=True)  # pandas' OverflowError
        return TimedeltaColumn(xp.where(missing, 0, delta), col.unit, ~missing)
    if isinstance(col, StringColumn) and col.dtype == object:
        return _object_diff(col, periods)
    if not isinstance(col, NumericColumn):
        raise TypeError(f"unsupported operand type(s) for -: {col.dtype} (diff)")
    if col.data.dtype.kind == "b" and not col.nullable:
        raise unsupported("diff", "numpy bool columns (pandas gives an object column)")
    missing = col.isna() | prev.isna()
    if col.nullable:
        a, b = col.data, xp.where(missing, 0, prev.data).astype(col.data.dtype)
        data = (a != b) if col.data.dtype.kind == "b" else a - b
        if data.dtype.kind == "f":  # pandas' masked arithmetic: a NaN result is missing
            missing = missing | xp.isnan(data)
        return NumericColumn(data, ~missing, True)
    dt = col.data.dtype
    out_dtype = (
        np.float32 if dt in (np.dtype(np.int8), np.dtype(np.int16), np.dtype(np.float32)) else np.float64
    )
    if dt.kind == "u" or (dt.kind == "i" and out_dtype is np.float64):
        # pandas subtracts in the unsigned / int32 / int64 dtype (wrapping around), then casts
        pos = _shift_positions(xp, len(col), periods)
        d = (col.data - col.data[xp.maximum(pos, 0)]).astype(out_dtype)
    else:
        d = col.data.astype(out_dtype) - prev.data.astype(out_dtype)
    return NumericColumn(xp.where(missing, np.nan, d).astype(out_dtype))


def diff(obj: Any, periods: int = 1, axis: Any = None) -> Any:
    """``Series.diff`` / ``DataFrame.diff``: the value minus the value ``periods`` rows earlier."""
    if axis not in (None, 0, "index"):
        raise unsupported("diff", "axis=1")
    frame = getattr(obj, "_ember_kind", "") == "frame"
    return _rewrap(obj, {k: _diff_one(c, int(periods), frame) for k, c in _items(obj)}, obj.index)


def _diff_one(col: Column, periods: int, frame: bool) -> Column:
    from ember.ops.object_missing import diff as missing_objects_diff

    out = missing_objects_diff(col, periods, frame)  # NaT / pd.NA objects: the marker's difference
    return _diff_column(col, periods) if out is None else out


def pct_change(obj: Any, periods: int = 1, fill_method: Any = None, freq: Any = None, **kwargs: Any) -> Any:
    """``Series.pct_change`` / ``DataFrame.pct_change``: value / value ``periods`` rows earlier - 1 (no
    filling: pandas 3 dropped ``fill_method``)."""
    from ember.ops.binary import binary_op

    if fill_method is not None:
        raise unsupported("pct_change", "fill_method (pandas 3 removed it; call ffill() first)")
    if freq is not None or kwargs:
        raise unsupported("pct_change", "freq / extra arguments")
    shifted = shift(obj, periods)
    cols = {}
    for (k, c), (_, p) in zip(_items(obj), _items(shifted), strict=True):
        if c.dtype == object and not len(c):  # pandas divides no objects: an empty object column
            cols[k] = c
            continue
        # timedeltas divide into floats; objects by Python's operators (pandas' object arithmetic)
        if not (isinstance(c, (NumericColumn, TimedeltaColumn)) or c.dtype == object):
            raise TypeError(f"pct_change: not supported for {c.dtype} values")
        cols[k] = binary_op(binary_op(c, p, "truediv"), 1, "sub")
    return _rewrap(obj, cols, obj.index)


def asfreq(
    obj: Any,
    freq: Any,
    method: str | None = None,
    how: Any = None,
    normalize: bool = False,
    fill_value: Any = None,
) -> Any:
    """``Series.asfreq`` / ``DataFrame.asfreq``: reindex a sorted, unique datetime index to a regular
    range from its first to its last label (``method`` 'ffill'/'pad' or 'bfill'/'backfill' fill the
    new labels from the previous / next existing row)."""
    from ember.backend import to_host

    if how is not None or normalize:
        raise unsupported("asfreq", "how= / normalize=")
    index = obj.index
    col = None if isinstance(index, MultiIndex) else index.column
    if not isinstance(col, DatetimeColumn):
        raise unsupported("asfreq", "an index that is not a DatetimeIndex")
    xp = col.xp
    n = len(col)
    if n == 0:
        return obj
    t = col.data.astype(np.int64)
    first, last = (int(v) for v in to_host(xp.stack([t[0], t[-1]])))
    labels = _asfreq_labels(xp, first, last, freq, col)
    if method in ("ffill", "pad"):
        pos = xp.searchsorted(t, labels, side="right") - 1
    elif method in ("bfill", "backfill"):
        pos = xp.searchsorted(t, labels, side="left")
        pos = xp.where(pos < n, pos, -1)
    elif method is None:
        p = xp.searchsorted(t, labels, side="left")
        ps = xp.minimum(p, n - 1)
        pos = xp.where((p < n) & (t[ps] == labels), p, -1)
    else:
        raise ValueError(f"Invalid fill method. Expecting pad (ffill) or backfill (bfill). Got {method}")
    pos = pos.astype(np.int64)
    cols = {}
    for k, c in _items(obj):
        cols[k] = _take_fill(c, pos, fill_value)
    new_index = Index._from_column(DatetimeColumn(labels, col.unit, col.tz), index.name)
    return _rewrap(obj, cols, new_index)


def _asfreq_labels(xp: Any, first: int, last: int, freq: Any, col: DatetimeColumn) -> Any:
    off = pd.tseries.frequencies.to_offset(freq)
    if isinstance(off, pd.offsets.Tick) or type(off).__name__ == "Day":
        step = _freq_ticks(freq, col.unit, "asfreq")
        return xp.arange(first, last + 1, step, dtype=np.int64)
    from ember.backend import asarray_on

    rng = pd.date_range(
        pd.Timestamp(first, unit=col.unit), pd.Timestamp(last, unit=col.unit), freq=off, unit=col.unit
    )
    return asarray_on(rng.asi8.astype(np.int64), xp)


__all__ = ["Resampler", "asfreq", "diff", "merge_asof", "pct_change", "resample", "shift"]
