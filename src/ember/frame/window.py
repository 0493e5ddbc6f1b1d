"""Rolling, Expanding and ExponentialMovingWindow objects for Series and DataFrame (and their groupby
forms). They validate pandas' arguments, turn the window into row bounds (``ops.window``), and wrap
the float64 results; every kernel lives in ``ops.window``.

The lead wires the methods: ``Series.rolling = lambda self, *a, **k: rolling(self, *a, **k)`` etc.
"""

from __future__ import annotations

import datetime
from typing import Any

import numpy as np
import pandas as pd

from ember.backend import to_host
from ember.column import Column, DatetimeColumn, NumericColumn, TimedeltaColumn
from ember.frame._fallback import unsupported
from ember.frame.index import Index, MultiIndex
from ember.frame.window_more import WindowMethods

_UNIT_NS = {"s": 10**9, "ms": 10**6, "us": 10**3, "ns": 1}


def _is_frame(obj: Any) -> bool:
    return getattr(obj, "_ember_kind", "") == "frame"


def _offset_ticks(window: Any, unit: str) -> int:
    """A fixed offset ('2s', Timedelta, Tick) in ticks of ``unit``; ValueError for calendar offsets."""
    try:
        if isinstance(window, (pd.Timedelta, np.timedelta64)) or hasattr(window, "total_seconds"):
            nanos = int(pd.Timedelta(window).value)
        else:
            off = pd.tseries.frequencies.to_offset(window)
            nanos = int(pd.Timedelta(off).value)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"passed window {window} is not compatible with a datetimelike index") from exc
    return nanos // _UNIT_NS[unit]


class _Base:
    """What all window objects share: the value columns, the row order, and result wrapping."""

    _name = "Rolling"

    def __init__(self, obj: Any, on: Any = None, groupby: Any = None) -> None:
        self.obj = obj
        self.on = on
        self._groupby = groupby
        if on is not None and not _is_frame(obj):
            raise ValueError("on is not supported for a Series")
        if on is not None and on not in obj._columns:
            raise ValueError(
                f"invalid on specified as {on}, must be a column (of DataFrame), an Index or None"
            )
        self._order_cache: Any = None
        self.step: int | None = None

    # --- rows -----------------------------------------------------------------------------------
    @property
    def _grouping(self) -> Any:
        return None if self._groupby is None else self._groupby._grouping

    def _order(self) -> Any:
        """Rows in the order windows run over: row order, or sorted by group (dropped keys removed)."""
        g = self._grouping
        if g is None:
            return None
        if self._order_cache is None:
            self._order_cache = g.order[: g.nrows - g.dropped]
        return self._order_cache

    def _take(self, col: Column) -> Column:
        order = self._order()
        return col if order is None else col.take(order)

    def _group_layout(self) -> tuple[Any, Any, Any]:
        """(position within group, group size, group's first sorted row) of every sorted row."""
        g = self._grouping
        xp = g.xp
        n = g.nrows - g.dropped
        sseg = g.sorted_seg[:n]
        base = g.offsets[sseg]
        return xp.arange(n, dtype=np.int64) - base, g.sizes[sseg], base

    def _value_items(self) -> list[tuple[Any, Column]]:
        if self._groupby is not None:
            items = self._groupby._value_items()
        elif _is_frame(self.obj):
            items = [(k, self.obj._columns[k]) for k in self.obj._names]
        else:
            items = [(self.obj.name, self.obj.column)]
        return [(k, c) for k, c in items if k != self.on or not _is_frame(self.obj)]

    def _stepped(self) -> Any:
        """The rows ``step`` keeps (0, step, 2 * step ...), or None for every row."""
        if self.step is None or self.step == 1:
            return None
        if self.step == 0:
            raise ZeroDivisionError("division by zero")
        return self._xp().arange(0, len(self.obj), self.step, dtype=np.int64)

    def _result_index(self) -> Index:
        order = self._order()
        if order is None:
            rows = self._stepped()
            return self.obj.index if rows is None else self.obj.index.take(rows)
        g = self._grouping
        keys = [u.take(g.sorted_seg[: len(order)]) for u in g.uniques]
        names = list(self._groupby._key_names)
        index = self.obj.index
        own = index.levels_columns if isinstance(index, MultiIndex) else [index.column]
        inner = [c.take(order) for c in own]
        return MultiIndex(keys + inner, names + list(index.names))

    def _apply(self, fn: Any, name: str) -> Any:
        """Run ``fn(column) -> Column`` on every value column and wrap the results like pandas."""
        from ember.frame.dataframe import DataFrame
        from ember.frame.series import Series
        from ember.ops.window import missing_as_float

        results = {}
        for k, col in self._value_items():
            c = col if isinstance(col, NumericColumn) else missing_as_float(col, name)
            if c is None:
                raise pd.errors.DataError(f"Cannot aggregate non-numeric type: {col.dtype}")
            results[k] = fn(self._take(c))
        index = self._result_index()
        if not _is_frame(self.obj) and self._groupby is None:
            return Series._from_column(results[self.obj.name], index, self.obj.name)
        if self._groupby is not None and not _is_frame(self._groupby.obj):
            return Series._from_column(next(iter(results.values())), index, self._groupby.obj.name)
        if self.on is not None and self._groupby is None:
            rows = self._stepped()
            on_col = self.obj._columns[self.on]
            on_col = on_col if rows is None else on_col.take(rows)
            cols = {k: (on_col if k == self.on else results[k]) for k in self.obj._names}
            return DataFrame._from_columns(cols, index, self._axis_names(), self._axis_kind(cols))
        return DataFrame._from_columns(results, index, self._axis_names(), self._axis_kind(results))

    def _axis_kind(self, cols: dict) -> Any:
        """The type of the frame's column axis, which the result keeps, as pandas."""
        src = self.obj if self._groupby is None else self._groupby.obj
        return src._kind_for(cols) if hasattr(src, "_kind_for") else None

    def _axis_names(self) -> Any:
        """The names of the frame's column axis, which the result keeps, as pandas."""
        src = self.obj if self._groupby is None else self._groupby.obj
        return getattr(src, "_axis_names", None)


class Rolling(WindowMethods, _Base):
    """``obj.rolling(window, min_periods, center, closed, on)``: integer, fixed time-offset or
    BaseIndexer windows."""

    _indexer: Any = None  # a pandas BaseIndexer giving the windows' bounds

    def __init__(
        self,
        obj: Any,
        window: Any,
        min_periods: int | None = None,
        center: bool = False,
        closed: str | None = None,
        on: Any = None,
        groupby: Any = None,
        step: int | None = None,
    ) -> None:
        super().__init__(obj, on, groupby)
        self.step = step
        self.center = bool(center)
        self.closed = closed
        if closed is not None and closed not in ("right", "left", "both", "neither"):
            raise ValueError("closed must be 'right', 'left', 'both' or 'neither'")
        if isinstance(window, (bool, np.bool_)):
            raise NotImplementedError("rolling: window must be an int, a fixed offset or a BaseIndexer")
        if hasattr(window, "get_window_bounds"):
            from ember.frame.window_indexer import check_indexer

            check_indexer(window, groupby, step)
            self._indexer, self.window, self.time_window = window, window, None
            self.min_periods = window.window_size if min_periods is None else int(min_periods)
        elif isinstance(window, (int, np.integer)):
            if window < 0:
                raise ValueError("window must be an integer 0 or greater")
            self.window = int(window)
            self.time_window: int | None = None
            self.min_periods = self.window if min_periods is None else int(min_periods)
            if self.min_periods > self.window:
                raise ValueError(f"min_periods {self.min_periods} must be <= window {self.window}")
        else:
            ticks_col = self._time_column()
            self.window = window
            self.time_window = _offset_ticks(window, ticks_col.unit)
            if step is not None:
                raise NotImplementedError("step is not supported with frequency windows")
            self.min_periods = 1 if min_periods is None else int(min_periods)
        if self.min_periods < 0:
            raise ValueError("min_periods must be >= 0")
        self._bounds_cache: Any = None

    def _time_column(self) -> Column:
        col = (
            self.obj._columns[self.on]
            if self.on is not None
            else (None if isinstance(self.obj.index, MultiIndex) else self.obj.index.column)
        )
        if not isinstance(col, (DatetimeColumn, TimedeltaColumn)):
            raise ValueError("window must be an integer 0 or greater")
        return col

    def _bounds(self) -> tuple[Any, Any]:
        if self._bounds_cache is None:
            start, end = self._compute_bounds()
            rows = self._stepped()
            self._bounds_cache = (start, end) if rows is None else (start[rows], end[rows])
        return self._bounds_cache

    def _compute_bounds(self) -> tuple[Any, Any]:
        from ember.ops import window as W

        n = len(self.obj) if self._grouping is None else int(self._order().shape[0])
        xp = self._xp()
        if self._indexer is not None:
            from ember.frame.window_indexer import indexer_bounds

            return indexer_bounds(self._indexer, n, self.min_periods, self.center, self.closed, self.step, xp)
        if self.time_window is None:
            if self._grouping is None:
                return W.rolling_bounds(n, self.window, self.center, self.closed, xp)
            pos, size, base = self._group_layout()
            return W.fixed_bounds(pos, size, base, self.window, self.center, self.closed)
        tcol = self._take(self._time_column())
        ticks = _checked_ticks(
            tcol, self.on or "index", self._grouping, self._group_layout if self._grouping else None
        )
        if self._grouping is None:
            return W.time_bounds(ticks, self.time_window, self.center, self.closed)
        seg = self._grouping.sorted_seg[:n]
        return W.grouped_time_bounds(seg, ticks, self.time_window, self.center, self.closed)

    def _xp(self) -> Any:
        items = self._value_items()
        if items:
            return items[0][1].xp
        return self.obj.index.column.xp

    def _windows(self, col: Column) -> Any:
        from ember.ops.window import Windows

        start, end = self._bounds()
        # integer windows hold at most `window` rows (one more when closed on both sides)
        fixed = self.time_window is None and self._indexer is None
        max_len = self.window + (self.closed == "both") if fixed else None
        return Windows(col, start, end, max_len=max_len)

    def _agg(self, op: str, **kw: Any) -> Any:
        from ember.ops.window import window_aggregate

        mp = self.min_periods
        return self._apply(lambda c: window_aggregate(self._windows(c), op, mp, **kw), op)

    def sum(self, numeric_only: bool = False) -> Any:
        return self._agg("sum")

    def mean(self, numeric_only: bool = False) -> Any:
        return self._agg("mean")

    def min(self, numeric_only: bool = False) -> Any:
        return self._agg("min")

    def max(self, numeric_only: bool = False) -> Any:
        return self._agg("max")

    def count(self, numeric_only: bool = False) -> Any:
        return self._agg("count")

    def var(self, ddof: int = 1, numeric_only: bool = False) -> Any:
        return self._agg("var", ddof=ddof)

    def std(self, ddof: int = 1, numeric_only: bool = False) -> Any:
        return self._agg("std", ddof=ddof)

    def median(self, numeric_only: bool = False) -> Any:
        return self._agg("median")

    def quantile(self, q: float, interpolation: str = "linear", numeric_only: bool = False) -> Any:
        return self._agg("quantile", q=float(q), interpolation=interpolation)

    def apply(
        self,
        func: Any,
        raw: bool = False,
        engine: Any = None,
        engine_kwargs: Any = None,
        args: Any = None,
        kwargs: Any = None,
    ) -> Any:
        """``func`` must be a NumPy reduction (np.sum, np.mean, np.nanmax ...): the windows are reduced on
        the device with the same NaN rules NumPy applies; ``raw`` makes no difference then."""
        from ember.ops.window import apply_reduction

        if args or kwargs:
            raise unsupported(f"{self._name}.apply", "args/kwargs")
        mp = self.min_periods
        return self._apply(lambda c: apply_reduction(self._windows(c), func, mp), "apply")


def _checked_ticks(col: Column, name: str, grouping: Any, layout: Any) -> Any:
    """The window column's ticks as an increasing int64 key (negated when decreasing); raises as
    pandas when it holds NaT or is not monotonic (within each group). Synchronizes once."""
    xp = col.xp
    t = col.data.astype(np.int64)
    n = t.shape[0]
    if n < 2:
        if n and col.mask is not None and not bool(col.mask.all()):
            raise ValueError(f"{name} values must not have NaT")
        return t
    step = t[1:] - t[:-1]
    if grouping is not None:
        pos = layout()[0]
        same = pos[1:] > 0
    else:
        same = xp.ones(n - 1, dtype=bool)
    bad_nat = xp.zeros((), dtype=bool) if col.mask is None else ~col.mask.all()
    flags = xp.stack([bad_nat, ((step < 0) & same).any(), ((step > 0) & same).any()])
    nat, down, up = (bool(v) for v in to_host(flags))
    if nat:
        raise ValueError(f"{name} values must not have NaT")
    if down and up:
        raise ValueError(f"{name} values must be monotonic")
    return -t if down else t


class Expanding(Rolling):
    """``obj.expanding(min_periods)``: every row's window holds all rows up to it (within its group)."""

    _name = "Expanding"

    def __init__(self, obj: Any, min_periods: int = 1, groupby: Any = None) -> None:
        _Base.__init__(self, obj, None, groupby)
        if min_periods is None or min_periods < 0:
            raise ValueError("min_periods must be >= 0")
        self.min_periods = int(min_periods)
        self.center, self.closed, self.time_window, self.window = False, None, None, None
        self._bounds_cache = None

    def _compute_bounds(self) -> tuple[Any, Any]:
        from ember.ops.window import expanding_bounds

        if self._grouping is None:
            return expanding_bounds(len(self.obj), self._xp())
        pos, _, base = self._group_layout()
        return base, base + pos + 1

    def _windows(self, col: Column) -> Any:
        from ember.ops.window import Windows

        start, end = self._bounds()
        return Windows(col, start, end, expanding=self._grouping is None, prefix_windows=True)


class ExponentialMovingWindow(_Base):
    """``obj.ewm(com, span, halflife, alpha, min_periods, adjust, ignore_na, times)``: mean, sum, var,
    std; with ``times`` (halflife a time delta) the mean only, as pandas."""

    _name = "ExponentialMovingWindow"

    def __init__(
        self,
        obj: Any,
        com: Any = None,
        span: Any = None,
        halflife: Any = None,
        alpha: Any = None,
        min_periods: int | None = 0,
        adjust: bool = True,
        ignore_na: bool = False,
        times: Any = None,
        groupby: Any = None,
    ) -> None:
        from ember.ops.window import ewm_alpha

        super().__init__(obj, None, groupby)
        if groupby is not None:
            raise unsupported("GroupBy.ewm", "this method")
        self.deltas = None
        if times is not None:
            from ember.frame.window_more import ewm_time_deltas

            self.deltas = ewm_time_deltas(obj, times, halflife)
            self.alpha = ewm_alpha(com, span, None, alpha) if (com, span, alpha) != (None,) * 3 else 0.5
        else:
            if isinstance(halflife, (str, datetime.timedelta, np.timedelta64)):
                raise ValueError(
                    "halflife can only be a timedelta convertible argument if times is not None."
                )
            self.alpha = ewm_alpha(com, span, halflife, alpha)
        self.min_periods = 0 if min_periods is None else int(min_periods)
        if self.min_periods < 0:
            raise ValueError("min_periods must be >= 0")
        self.adjust = bool(adjust)
        self.ignore_na = bool(ignore_na)

    def _agg(self, op: str, **kw: Any) -> Any:
        from ember.ops.window import ewm_aggregate

        return self._apply(
            lambda c: ewm_aggregate(
                c, op, self.alpha, self.adjust, self.ignore_na, self.min_periods, deltas=self.deltas, **kw
            ),
            op,
        )

    def mean(self, numeric_only: bool = False) -> Any:
        return self._agg("mean")

    def sum(self, numeric_only: bool = False) -> Any:
        return self._agg("sum")

    def var(self, bias: bool = False, numeric_only: bool = False) -> Any:
        return self._agg("var", bias=bias)

    def std(self, bias: bool = False, numeric_only: bool = False) -> Any:
        return self._agg("std", bias=bias)


# --- factories the frame methods call ---------------------------------------------------------------


def rolling(
    obj: Any,
    window: Any,
    min_periods: int | None = None,
    center: bool = False,
    win_type: Any = None,
    on: Any = None,
    closed: str | None = None,
    step: Any = None,
    method: str = "single",
) -> Rolling:
    """``Series.rolling`` / ``DataFrame.rolling`` (pandas' signature; ``obj`` may be a GroupBy)."""
    if step is not None and (isinstance(step, (bool, np.bool_)) or not isinstance(step, (int, np.integer))):
        raise ValueError("step must be an integer")
    if step is not None and step < 0:
        raise ValueError("step must be >= 0")
    if win_type is not None:
        from ember.frame.window_weighted import weighted_window

        return weighted_window(obj, window, min_periods, center, win_type, on, step, method)
    if method != "single":
        raise unsupported("rolling", "method='table'")
    if _is_groupby(obj):
        if on is not None:
            raise unsupported("GroupBy.rolling", "on=")
        if step is not None:
            raise unsupported("GroupBy.rolling", "step=")
        return Rolling(obj.obj, window, min_periods, center, closed, None, groupby=obj)
    return Rolling(obj, window, min_periods, center, closed, on, step=None if step is None else int(step))


def expanding(obj: Any, min_periods: int = 1, method: str = "single") -> Expanding:
    """``Series.expanding`` / ``DataFrame.expanding`` / ``GroupBy.expanding``."""
    if method != "single":
        raise unsupported("expanding", "method='table'")
    if _is_groupby(obj):
        return Expanding(obj.obj, min_periods, groupby=obj)
    return Expanding(obj, min_periods)


def ewm(
    obj: Any,
    com: Any = None,
    span: Any = None,
    halflife: Any = None,
    alpha: Any = None,
    min_periods: int | None = 0,
    adjust: bool = True,
    ignore_na: bool = False,
    axis: Any = None,
    times: Any = None,
    method: str = "single",
) -> ExponentialMovingWindow:
    """``Series.ewm`` / ``DataFrame.ewm``."""
    if method != "single":
        raise unsupported("ewm", "method='table'")
    if _is_groupby(obj):
        raise unsupported("GroupBy.ewm", "this method")
    return ExponentialMovingWindow(obj, com, span, halflife, alpha, min_periods, adjust, ignore_na, times)


def _is_groupby(obj: Any) -> bool:
    return hasattr(obj, "_grouping") and hasattr(obj, "_key_names")


__all__ = ["ExponentialMovingWindow", "Expanding", "Rolling", "ewm", "expanding", "rolling"]
