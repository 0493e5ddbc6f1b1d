"""Rolling / Expanding methods beyond the basic reductions (``frame.window``): first, last, nunique,
sem, skew, kurt, rank, pipe, cov, corr and aggregate by name, list or dict. The kernels live in
``ops.window_more``; this layer validates pandas' arguments and wraps the results."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pandas as pd

from ember.frame._fallback import unsupported


def _is_frame(obj: Any) -> bool:
    return getattr(obj, "_ember_kind", "") == "frame"


def _is_series(obj: Any) -> bool:
    return getattr(obj, "_ember_kind", "") == "series"


class WindowMethods:
    """Methods shared by Rolling and Expanding; they rely on ``_apply``, ``_windows`` and
    ``min_periods`` of the window class."""

    _name = "Rolling"

    def _kernel(self, fn: Any, name: str) -> Any:
        return self._apply(lambda c: fn(self._windows(c)), name)

    def first(self, numeric_only: bool = False) -> Any:
        from ember.ops.window_more import first_last

        return self._kernel(lambda w: first_last(w, "first", self.min_periods), "first")

    def last(self, numeric_only: bool = False) -> Any:
        from ember.ops.window_more import first_last

        return self._kernel(lambda w: first_last(w, "last", self.min_periods), "last")

    def nunique(self, numeric_only: bool = False) -> Any:
        from ember.ops.window_more import nunique

        return self._kernel(lambda w: nunique(w, self.min_periods), "nunique")

    def sem(self, ddof: int = 1, numeric_only: bool = False) -> Any:
        from ember.ops.window_more import sem

        if self.on is not None and self._groupby is None:
            self._refuse_sem_on()
        return self._kernel(lambda w: sem(w, self.min_periods, int(ddof)), "sem")

    def _refuse_sem_on(self) -> None:
        """pandas' sem divides by ``count() ** 0.5``, which keeps the ``on`` column: a time column
        raises there, and any other is divided by its own square root."""
        from ember.column import DatetimeColumn, TimedeltaColumn

        col = self.obj._columns[self.on]
        if isinstance(col, DatetimeColumn):
            raise TypeError("cannot perform __pow__ with this index type: DatetimeArray")
        if isinstance(col, TimedeltaColumn):
            raise TypeError("cannot perform __pow__ with this index type: TimedeltaArray")
        raise unsupported(f"{self._name}.sem", "on=")

    def skew(self, numeric_only: bool = False) -> Any:
        from ember.ops.window_more import skew

        return self._kernel(lambda w: skew(w, self.min_periods), "skew")

    def kurt(self, numeric_only: bool = False) -> Any:
        from ember.ops.window_more import kurt

        return self._kernel(lambda w: kurt(w, self.min_periods), "kurt")

    def rank(
        self, method: str = "average", ascending: bool = True, pct: bool = False, numeric_only: bool = False
    ) -> Any:
        from ember.ops.window_more import RANK_METHODS, rank

        if method not in RANK_METHODS:
            raise ValueError(f"Method '{method}' is not supported")
        mp = self.min_periods
        return self._kernel(lambda w: rank(w, mp, method, bool(ascending), bool(pct)), "rank")

    def pipe(self, func: Any, *args: Any, **kwargs: Any) -> Any:
        """``func(self, *args, **kwargs)``; ``func`` may be a (callable, keyword) tuple, as pandas."""
        if isinstance(func, tuple):
            func, target = func
            if target in kwargs:
                raise ValueError(f"{target} is both the pipe target and a keyword argument")
            kwargs[target] = self
            return func(*args, **kwargs)
        return func(self, *args, **kwargs)

    # --- aggregate ------------------------------------------------------------------------------
    def aggregate(self, func: Any = None, *args: Any, **kwargs: Any) -> Any:
        if args or kwargs:
            raise unsupported(f"{self._name}.aggregate", "positional or keyword arguments for func")
        if isinstance(func, str):
            return self._by_name(self, func)
        if isinstance(func, (list, dict)) and (self._groupby is not None or self.on is not None):
            raise unsupported(f"{self._name}.aggregate", "a list or dict of functions with groupby or on=")
        if isinstance(func, list):
            return self._agg_list(func)
        if isinstance(func, dict):
            return self._agg_dict(func)
        raise unsupported(
            f"{self._name}.aggregate", "a func other than a method name, a list or a dict of them"
        )

    agg = aggregate

    def _by_name(self, window: Any, name: Any) -> Any:
        if not isinstance(name, str):
            raise unsupported(f"{self._name}.aggregate", "functions other than method names")
        method = getattr(window, name, None)
        if method is None or name.startswith("_") or name in ("aggregate", "agg", "pipe", "apply"):
            raise AttributeError(f"'{name}' is not a valid function for '{type(self).__name__}' object")
        return method()

    def _over(self, obj: Any) -> Any:
        """The same window over other data (a column selection, or the aligned operand of cov)."""
        new = copy.copy(self)
        new.obj = obj
        new._bounds_cache = None
        new._order_cache = None
        return new

    def _agg_list(self, funcs: list) -> Any:
        from ember.frame.dataframe import DataFrame

        if not funcs:
            raise ValueError("No objects to concatenate")
        if len(set(funcs)) != len(funcs):
            raise unsupported(f"{self._name}.aggregate", "a list naming a function twice")
        results = [(f, self._by_name(self, f)) for f in funcs]
        if not _is_frame(self.obj):
            cols = {f: r.column for f, r in results}
            return DataFrame._from_columns(cols, results[0][1].index)
        cols = {_label(k, f): r._columns[k] for k in results[0][1]._names for f, r in results}
        return DataFrame._from_columns(cols, results[0][1].index, self._axis_names_for_list())

    def _axis_names_for_list(self) -> Any:
        names = self.obj._axis_names
        return None if names is None else (*names, None)

    def _agg_dict(self, spec: dict) -> Any:
        from ember.frame.dataframe import DataFrame

        if not _is_frame(self.obj):
            raise unsupported(f"{self._name}.aggregate", "a dict of functions on a Series")
        if len(self.obj._names) != len(set(self.obj._names)):
            raise unsupported(f"{self._name}.aggregate", "a dict with duplicate column labels")
        missing = [k for k in spec if k not in self.obj._columns]
        if missing:
            raise KeyError(f"Label(s) {missing} do not exist")
        nested = any(isinstance(v, (list, tuple)) for v in spec.values())
        cols: dict = {}
        index = None
        for key, fns in spec.items():
            sub = self._over(self.obj[[key]])
            for f in fns if isinstance(fns, (list, tuple)) else [fns]:
                res = self._by_name(sub, f)
                index = res.index
                cols[_label(key, f) if nested else key] = res._columns[key]
        names = self._axis_names_for_list() if nested else self.obj._axis_names
        return DataFrame._from_columns(cols, index, names)

    # --- cov / corr -----------------------------------------------------------------------------
    def cov(
        self, other: Any = None, pairwise: bool | None = None, ddof: int = 1, numeric_only: bool = False
    ) -> Any:
        from ember.ops.window_more import cov

        return self._binary(other, pairwise, lambda wx, wy: cov(wx, wy, self.min_periods, int(ddof)), "cov")

    def corr(
        self, other: Any = None, pairwise: bool | None = None, ddof: int = 1, numeric_only: bool = False
    ) -> Any:
        from ember.ops.window_more import corr

        return self._binary(other, pairwise, lambda wx, wy: corr(wx, wy, self.min_periods, int(ddof)), "corr")

    def _binary(self, other: Any, pairwise: Any, kernel: Any, name: str) -> Any:
        """pandas' ``flex_binary_moment``: Series with Series (aligned on the index), a frame's columns
        with a Series or with the same-named columns of a frame, or every pair of a frame's columns."""
        where = f"{self._name}.{name}"
        if self._groupby is not None:
            raise unsupported(f"GroupBy.{self._name.lower()}.{name}", "this method")
        if self.on is not None:
            raise unsupported(where, "on=")
        obj = self.obj
        if other is None:
            other = obj
            pairwise = True if pairwise is None else pairwise
        elif not (_is_frame(other) or _is_series(other)):
            raise ValueError("other must be a DataFrame or Series")
        if _is_series(obj) and _is_series(other):
            return self._series_pair(obj, other, kernel, where)
        if _is_series(obj):
            if pairwise:
                raise unsupported(where, "pairwise=True with a Series")
            return self._over(other)._frame_with(obj, kernel, where)
        if _is_frame(other) and pairwise:
            if other is not obj:
                raise unsupported(where, "pairwise=True with another DataFrame (only other=None)")
            return self._pairwise(kernel, where)
        return self._frame_with(other, kernel, where)

    def _series_pair(self, a: Any, b: Any, kernel: Any, where: str) -> Any:
        from ember.frame.series import Series

        _check_numeric([a.column, b.column])
        if a is b or (a.index is b.index and a.name == b.name):
            x, y = a, b
        else:
            x, y = a + 0 * b, b + 0 * a  # pandas' prep_binary: both on the union of labels, NaN shared
            if self.time_window is not None and not x.index.equals(a.index):
                raise unsupported(where, "operands with different time indexes")
        win = self if x is a else self._over(x)
        res = kernel(*win._pair_windows(x.column, y.column))
        return Series._from_column(res, win._result_index(), x.name)

    def _pair_windows(self, xcol: Any, ycol: Any) -> tuple[Any, Any]:
        """Windows over two columns, each missing where either is (infinities count as missing)."""
        from ember.column import NumericColumn
        from ember.ops.window import float_values

        vx, okx = float_values(xcol)
        vy, oky = float_values(ycol)
        xp = xcol.xp
        both = okx & oky
        cx = NumericColumn(xp.where(both, vx, np.nan))
        cy = NumericColumn(xp.where(both, vy, np.nan))
        return self._windows(cx), self._windows(cy)

    def _frame_with(self, other: Any, kernel: Any, where: str) -> Any:
        """Every column of the frame ``self.obj`` with the Series ``other`` or with the same-labelled
        column of the frame ``other`` (pairwise=False)."""
        from ember.frame.dataframe import DataFrame

        obj = self.obj
        names = list(obj._names)
        if len(set(names)) != len(names):
            raise ValueError("'arg1' columns are not unique")
        if not (other.index is obj.index or other.index.equals(obj.index)):
            raise unsupported(where, "a DataFrame and an operand with a different index")
        if _is_frame(other):
            if len(set(other._names)) != len(other._names):
                raise ValueError("'arg2' columns are not unique")
            if list(other._names) != names:
                raise unsupported(
                    where, "two DataFrames whose column labels differ (or are ordered differently)"
                )
            pairs = [(k, obj._columns[k], other._columns[k]) for k in names]
        else:
            pairs = [(k, obj._columns[k], other.column) for k in names]
        _check_numeric([c for _, a, b in pairs for c in (a, b)])
        cols = {k: kernel(*self._pair_windows(a, b)) for k, a, b in pairs}
        return DataFrame._from_columns(cols, self._result_index(), obj._axis_names, obj._kind_for(cols))

    def _pairwise(self, kernel: Any, where: str) -> Any:
        """Every pair of the frame's columns: rows (row label, column label), one column per column."""
        from ember.column import NumericColumn
        from ember.frame.dataframe import DataFrame
        from ember.frame.index import Index, MultiIndex

        obj = self.obj
        names = list(obj._names)
        if isinstance(obj.index, MultiIndex) or isinstance(obj.columns, pd.MultiIndex):
            raise unsupported(where, "pairwise results of a MultiIndex")
        if len(set(names)) != len(names):
            raise unsupported(where, "pairwise with duplicate column labels")
        if not names:
            raise unsupported(where, "pairwise on a frame without columns")
        _check_numeric(list(obj._columns.values()))
        index = self._result_index()
        xp = obj._columns[names[0]].xp
        k, n = len(names), len(index)
        res: dict = {}
        for i, a in enumerate(names):
            for j, b in enumerate(names[i:], start=i):
                res[i, j] = kernel(*self._pair_windows(obj._columns[a], obj._columns[b])).data
                res[j, i] = res[i, j]
        cols = {}
        for i, a in enumerate(names):
            stacked = xp.stack([res[i, j] for j in range(k)], axis=1)  # rows, then the other column
            cols[a] = NumericColumn(stacked.reshape(-1))
        rows = xp.repeat(xp.arange(n, dtype=np.int64), k)
        labels = Index(obj.columns).take(xp.tile(xp.arange(k, dtype=np.int64), n))
        outer = index.take(rows)
        multi = MultiIndex([outer.column, labels.column], [index.name, obj.columns.name])
        return DataFrame._from_columns(cols, multi, obj._axis_names, obj._kind_for(cols))


def _label(column: Any, func: str) -> tuple:
    """The result column of ``func`` on ``column``: one more level (a MultiIndex label's levels kept)."""
    return (*column, func) if isinstance(column, tuple) else (column, func)


def _check_numeric(cols: list) -> None:
    from ember.column import NumericColumn

    for c in cols:
        if not isinstance(c, NumericColumn):
            raise pd.errors.DataError(f"Cannot aggregate non-numeric type: {c.dtype}")


__all__ = ["WindowMethods"]


# --- ewm(times=) ----------------------------------------------------------------------------------------


def ewm_time_deltas(obj: Any, times: Any, halflife: Any) -> Any:
    """The steps between consecutive ``times`` in half-lives (float64, on the rows' device), with
    pandas' checks: datetime64 times as long as the rows, no NaT, a time-delta halflife."""
    import datetime

    from ember.column import DatetimeColumn, from_any

    if hasattr(times, "column") and not hasattr(times, "_columns"):  # an ember Index / Series
        col = times.column
    elif isinstance(getattr(times, "dtype", None), (np.dtype, pd.DatetimeTZDtype)):
        col = from_any(times.array if isinstance(times, (pd.Index, pd.Series)) else times, _xp_of(obj))
    else:
        col = None
    if not isinstance(col, DatetimeColumn):
        raise ValueError("times must be datetime64 dtype.")
    if len(col) != len(obj):
        raise ValueError("times must be the same length as the object.")
    if not isinstance(halflife, (str, datetime.timedelta, np.timedelta64)):
        raise ValueError("halflife must be a timedelta convertible object")
    if col.mask is not None and bool(col.xp.any(~col.mask)):
        raise ValueError("Cannot convert NaT values to integer")
    span = float(pd.Timedelta(halflife).as_unit(col.unit)._value)
    ticks = col.data.astype(np.int64).astype(np.float64)
    return (ticks[1:] - ticks[:-1]) / span


def _xp_of(obj: Any) -> Any:
    """The array module of a Series' or DataFrame's values (its index' for a frame of no columns)."""
    columns = getattr(obj, "_columns", None)
    if columns is None:
        return obj.column.xp
    return next(iter(columns.values())).xp if columns else obj.index.column.xp
