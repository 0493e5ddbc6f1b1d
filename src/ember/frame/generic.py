"""Behaviour shared by Series and DataFrame: column-wise maps, reductions, missing data, display.

Subclasses provide ``_map_columns(fn)`` (apply a Column -> Column function to every column, keeping
labels) and ``_numeric_columns()``; everything here is written once on top of those.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from ember.column import Column, NumericColumn
from ember.frame._fallback import unsupported

REDUCTIONS = (
    "sum",
    "prod",
    "mean",
    "min",
    "max",
    "std",
    "var",
    "sem",
    "count",
    "median",
    "nunique",
    "any",
    "all",
)


def check_axis(method: str, axis: Any) -> int:
    if axis in (0, "index", "rows", None):
        return 0
    if axis in (1, "columns"):
        return 1
    raise ValueError(f"No axis named {axis!r} for {method}")


class NDFrame:
    """Mixin of the methods that are the same column by column for Series and DataFrame."""

    # --- hooks --------------------------------------------------------------------------------
    def _map_columns(self, fn: Callable[[Column], Column]) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    # --- missing data -------------------------------------------------------------------------
    def isna(self) -> Any:
        """Missing values as True (null, NaN in float columns, NaT)."""
        return self._map_columns(lambda c: NumericColumn(c.isna()))

    isnull = isna

    def notna(self) -> Any:
        return self._map_columns(lambda c: NumericColumn(~c.isna()))

    notnull = notna

    def ffill(self, *, limit: int | None = None) -> Any:
        from ember.ops.missing import ffill

        return self._map_columns(lambda c: _own_na(c, ffill(c, limit=limit)))

    def bfill(self, *, limit: int | None = None) -> Any:
        from ember.ops.missing import bfill

        return self._map_columns(lambda c: _own_na(c, bfill(c, limit=limit)))

    def interpolate(self, method: str = "linear", *, limit_direction: str = "forward", **kwargs: Any) -> Any:
        """Linear interpolation over positions (pandas' default method)."""
        from ember.ops.missing import interpolate_linear

        if method != "linear" or kwargs:
            raise unsupported(f"{type(self).__name__}.interpolate", f"method={method!r} / {sorted(kwargs)}")
        return self._map_columns(lambda c: interpolate_linear(c, limit_direction=limit_direction))

    # --- elementwise --------------------------------------------------------------------------
    def abs(self) -> Any:
        from ember.ops.unary import absolute

        return self._map_columns(absolute)

    def __abs__(self) -> Any:
        return self.abs()

    def round(self, decimals: Any = 0) -> Any:
        """Numbers rounded to ``decimals`` places; a frame also takes a dict (or Series) of column ->
        places, leaving the columns it does not name as they are."""
        from ember.ops.unary import round_

        if isinstance(decimals, (dict, pd.Series)) and getattr(self, "_ember_kind", "") == "frame":
            places = dict(decimals.items())
            return self._with_columns(
                {
                    k: round_(c, int(places[k])) if k in places and _is_numeric(c) else c
                    for k, c in self._columns.items()
                }
            )
        if not isinstance(decimals, (int, np.integer)):
            raise TypeError("decimals must be an integer, a dict-like or a Series")
        if getattr(self, "_ember_kind", "") != "frame":
            from ember.ops.object_missing import check_round

            check_round(self._column, int(decimals))  # pandas' Python round of each object
            if type(self._column).__name__ == "DecimalColumn":  # pandas rounds each Decimal object
                raise unsupported("Series.round", "of decimal.Decimal values")
        return self._map_columns(lambda c: round_(c, decimals) if _is_numeric(c) else c)

    def sort_index(
        self,
        axis: Any = 0,
        level: Any = None,
        ascending: Any = True,
        inplace: bool = False,
        kind: Any = None,
        na_position: str = "last",
        sort_remaining: bool = True,
        ignore_index: bool = False,
        key: Any = None,
    ) -> Any:
        """Rows in the order of the index (chosen ``level``s first, then the rest); ``key``: a
        function of the Index giving the labels to sort by (an Index of the same length)."""
        from ember.frame.index import MultiIndex
        from ember.frame.reindex import index_sort_order, pandas_levels_sort

        require_axis0(f"{type(self).__name__}.sort_index", axis)
        index = self._index
        if key is not None:
            index = _keyed_index(index, key, f"{type(self).__name__}.sort_index")
        if isinstance(index, MultiIndex) and index._levels is not None and not ignore_index:
            order, levels = pandas_levels_sort(index, level, ascending, na_position, sort_remaining)
            out = self._take_rows(order)
            out._index._levels = levels  # (pandas sorts the levels too)
        else:
            out = self._take_rows(
                index_sort_order(index, level, ascending, na_position, sort_remaining), ignore_index
            )
        if inplace:
            self._replace_with(out)
            return None
        return out

    def clip(self, lower: Any = None, upper: Any = None, *, axis: Any = None, inplace: bool = False) -> Any:
        """Values bounded by ``lower`` / ``upper``: scalars, or list-likes / Series (per row along
        axis 0, per column along axis 1 of a frame; a missing bound does not clip)."""
        from ember.ops.unary import clip

        if _scalar_bound(lower) and _scalar_bound(upper):
            if axis is not None:
                check_axis("clip", axis)
            out = self._map_columns(lambda c: clip(c, _no_na(lower), _no_na(upper)))
        else:
            out = self
            if lower is not None:
                out = _clip_one_bound(out, lower, "ge", axis)
            if upper is not None:
                out = _clip_one_bound(out, upper, "le", axis)
        if inplace:
            self._replace_with(out)
            return None
        return out

    def _cumulative(self, op: str, skipna: bool, axis: Any = None) -> Any:
        from ember.ops.cumulative import cumulative

        if self._is_frame_along_columns(op, axis):
            from ember.frame.frame_axis1 import scan_columns

            return scan_columns(self, op, skipna)
        require_axis0(f"{type(self).__name__}.{op}", axis)
        return self._map_columns(lambda c: cumulative(c, op, skipna=skipna))

    def _is_frame_along_columns(self, method: str, axis: Any) -> bool:
        """``axis=1`` of a DataFrame (Series keep refusing it)."""
        return (
            getattr(self, "_ember_kind", "") == "frame" and axis is not None and check_axis(method, axis) == 1
        )

    def cumsum(self, axis: Any = None, skipna: bool = True) -> Any:
        return self._cumulative("cumsum", skipna, axis)

    def cumprod(self, axis: Any = None, skipna: bool = True) -> Any:
        return self._cumulative("cumprod", skipna, axis)

    def cummin(self, axis: Any = None, skipna: bool = True) -> Any:
        return self._cumulative("cummin", skipna, axis)

    def cummax(self, axis: Any = None, skipna: bool = True) -> Any:
        return self._cumulative("cummax", skipna, axis)

    def isin(self, values: Any) -> Any:
        from ember.ops.unary import isin

        if isinstance(values, dict) and getattr(self, "_ember_kind", "") == "frame":
            # pandas: each column looks in its own list; a column the dict does not name matches nothing
            return self._with_columns({k: isin(c, list(values.get(k, []))) for k, c in self._columns.items()})
        labelled = isinstance(values, (pd.DataFrame, pd.Series)) or getattr(values, "_ember_kind", "") in (
            "frame",
            "series",
        )
        if labelled and getattr(self, "_ember_kind", "") == "frame":
            return self._isin_aligned(values)
        if hasattr(values, "to_pandas"):
            values = values.to_pandas()
        return self._map_columns(lambda c: isin(c, values))

    def _isin_aligned(self, values: Any) -> Any:
        """``DataFrame.isin`` of a DataFrame / Series: pandas' ``self.eq(values.reindex_like(self))``,
        a cell True where ``values`` holds the same value at the same row (and column) label."""
        from ember.frame.convert import from_pandas

        frame_values = isinstance(values, pd.DataFrame) or getattr(values, "_ember_kind", "") == "frame"
        axes = [values.index] + ([pd.Index(values.columns)] if frame_values else [])
        if not all(axis.is_unique for axis in axes):
            raise ValueError("cannot compute isin with a duplicate axis.")
        if isinstance(values, (pd.DataFrame, pd.Series)):
            values = from_pandas(values)
        if not frame_values:
            return self.eq(values.reindex(self.index), axis="index")
        return self.eq(values.reindex(index=self.index, columns=self.columns))

    def transform(self, func: Any, axis: Any = 0, *args: Any, **kwargs: Any) -> Any:
        """A function name, a callable, a list or a dict of them on the Series, each keeping its
        labels, as pandas (``frame/frame_transform.py``)."""
        from ember.frame.frame_transform import transform_series

        return transform_series(self, func, axis, args, kwargs)

    def take(self, indices: Any, axis: Any = 0) -> Any:
        """Rows at integer positions (negative from the end), as pandas' take."""
        from ember.frame.indexing import positions_for_take

        if self._is_frame_along_columns("take", axis):
            from ember.frame.frame_axis1 import take_columns

            return take_columns(self, indices)
        if check_axis("take", axis) != 0:
            raise unsupported(f"{type(self).__name__}.take", "axis=1")
        return self._take_rows(positions_for_take(self, indices))

    def copy(self, deep: bool = True) -> Any:
        return self._map_columns(lambda c: c.copy() if deep else c)

    def pipe(self, func: Any, *args: Any, **kwargs: Any) -> Any:
        """``func(self, *args, **kwargs)``; a ``(callable, keyword)`` pair passes ``self`` as that
        keyword, as pandas."""
        if isinstance(func, tuple):
            func, target = func
            if target in kwargs:
                raise ValueError(f"{target} is both the pipe target and a keyword argument")
            return func(*args, **{**kwargs, target: self})
        return func(self, *args, **kwargs)

    def sample(
        self,
        n: int | None = None,
        frac: float | None = None,
        replace: bool = False,
        weights: Any = None,
        random_state: Any = None,
        axis: Any = None,
        ignore_index: bool = False,
    ) -> Any:
        """Random rows, the same ones pandas picks for the same ``random_state``: the positions come
        from NumPy's generator on the host exactly as pandas draws them (``choice(len, size, replace,
        p)``), then one gather."""
        from ember.frame.indexing import positions_for_take

        if axis is not None and check_axis("sample", axis) != 0:
            raise unsupported(f"{type(self).__name__}.sample", "axis=1")
        size = _sample_size(n, frac, replace, len(self))
        p = None if weights is None else _sample_weights(self, weights)
        if p is not None and not replace and size * p.max() > 1:
            raise ValueError(
                "Weighted sampling cannot be achieved with replace=False. Either set replace=True or "
                "use smaller weights. See the docstring of sample for details."
            )
        state = _random_state(random_state)
        positions = state.choice(len(self), size=size, replace=replace, p=p).astype(np.int64, copy=False)
        return self._take_rows(positions_for_take(self, positions), ignore_index=ignore_index)

    # --- windows and time series (frame/window.py, frame/timeseries.py) ----------------------
    def rolling(
        self,
        window: Any,
        min_periods: int | None = None,
        center: bool = False,
        win_type: Any = None,
        on: Any = None,
        closed: Any = None,
        step: Any = None,
        method: str = "single",
    ) -> Any:
        from ember.frame.window import rolling

        return rolling(
            self,
            window,
            min_periods=min_periods,
            center=center,
            win_type=win_type,
            on=on,
            closed=closed,
            step=step,
            method=method,
        )

    def expanding(self, min_periods: int = 1, method: str = "single") -> Any:
        from ember.frame.window import expanding

        return expanding(self, min_periods=min_periods, method=method)

    def ewm(
        self,
        com: Any = None,
        span: Any = None,
        halflife: Any = None,
        alpha: Any = None,
        min_periods: int = 0,
        adjust: bool = True,
        ignore_na: bool = False,
        times: Any = None,
    ) -> Any:
        from ember.frame.window import ewm

        return ewm(
            self,
            com=com,
            span=span,
            halflife=halflife,
            alpha=alpha,
            min_periods=min_periods,
            adjust=adjust,
            ignore_na=ignore_na,
            times=times,
        )

    def resample(
        self,
        rule: Any,
        closed: str | None = None,
        label: str | None = None,
        convention: Any = "start",
        on: Any = None,
        level: Any = None,
        origin: Any = "start_day",
        offset: Any = None,
        group_keys: bool = False,
    ) -> Any:
        from ember.frame.timeseries import resample

        return resample(
            self, rule, closed, label, on, convention=convention, level=level, origin=origin, offset=offset
        )

    def tz_localize(
        self,
        tz: Any,
        axis: Any = 0,
        level: Any = None,
        copy: Any = None,
        ambiguous: Any = "raise",
        nonexistent: Any = "raise",
    ) -> Any:
        from ember.frame.resample_more import tz_localize

        return tz_localize(self, tz, axis, level, copy, ambiguous, nonexistent)

    def tz_convert(self, tz: Any, axis: Any = 0, level: Any = None, copy: Any = None) -> Any:
        from ember.frame.resample_more import tz_convert

        return tz_convert(self, tz, axis, level, copy)

    def shift(self, periods: int = 1, freq: Any = None, axis: Any = None, fill_value: Any = None) -> Any:
        from ember.frame.timeseries import shift

        if self._is_frame_along_columns("shift", axis) and freq is None:
            from ember.frame.frame_axis1 import shift_columns

            return shift_columns(self, periods, fill_value)
        return shift(self, periods, freq=freq, axis=axis, fill_value=fill_value)

    def diff(self, periods: int = 1, axis: Any = None) -> Any:
        from ember.frame.timeseries import diff

        if self._is_frame_along_columns("diff", axis):
            from ember.frame.frame_axis1 import diff_columns

            if isinstance(periods, float) and periods.is_integer():
                periods = int(periods)
            if not isinstance(periods, (int, np.integer)) or isinstance(periods, bool):
                raise ValueError("periods must be an integer")
            if periods != 0:  # pandas: periods=0 is the diff of 0 rows
                return diff_columns(self, periods)
            axis = 0
        return diff(self, periods, axis=axis)

    def pct_change(self, periods: int = 1, fill_method: Any = None, freq: Any = None, **kwargs: Any) -> Any:
        from ember.frame.timeseries import pct_change

        return pct_change(self, periods, fill_method=fill_method, freq=freq, **kwargs)

    def asfreq(
        self,
        freq: Any,
        method: str | None = None,
        how: Any = None,
        normalize: bool = False,
        fill_value: Any = None,
    ) -> Any:
        from ember.frame.timeseries import asfreq

        return asfreq(self, freq, method=method, how=how, normalize=normalize, fill_value=fill_value)


def _keyed_index(index: Any, key: Any, method: str) -> Any:
    """pandas' ensure_key_mapped of an Index: ``key(index)`` as an Index of the same length."""
    from ember.frame.index import Index, MultiIndex, ensure_index

    if isinstance(index, MultiIndex):
        raise unsupported(method, "key= with a MultiIndex")
    out = key(index)
    if not isinstance(out, Index):
        out = ensure_index(out)
    if len(out) != len(index):
        raise ValueError("User-provided `key` function must not change the shape of the array.")
    return out


def _scalar_bound(bound: Any) -> bool:
    return bound is None or not pd.api.types.is_list_like(bound)


def _no_na(bound: Any) -> Any:
    return None if bound is None or pd.isna(bound) else bound


def _clip_one_bound(obj: Any, bound: Any, op: str, axis: Any) -> Any:
    """pandas' _clip_with_one_bound: ``obj.where(obj <op> bound | isna(obj), bound)`` with the bound
    along ``axis`` (a missing bound compares as -inf / +inf: no clipping there)."""
    from ember.frame.series import Series

    frame = getattr(obj, "_ember_kind", "") == "frame"
    if _scalar_bound(bound):
        return obj.clip(**{"lower" if op == "ge" else "upper": bound})
    ax = 0 if not frame else 1 if axis is None else check_axis("clip", axis)
    labels = obj.index if ax == 0 else pd.Index(obj._names)
    if isinstance(bound, pd.Series):
        bound = Series(bound)
    if isinstance(bound, Series):
        from ember.frame.alignment import indexes_equal
        from ember.frame.index import ensure_index

        if not indexes_equal(bound.index, ensure_index(labels)):
            raise unsupported("clip", "a Series bound on other labels (pandas aligns it)")
    elif pd.api.types.is_list_like(bound) and not isinstance(bound, dict):
        if frame and len(bound) != len(labels):
            raise ValueError(f"Unable to coerce to Series, length must be {len(labels)}: given {len(bound)}")
        bound = Series(bound, index=labels if ax == 0 else None)
        if ax == 1:
            bound = bound.set_axis(labels)
    else:
        raise unsupported("clip", f"a bound of type {type(bound).__name__}")
    infinite = bound.fillna(-np.inf if op == "ge" else np.inf) if bound.dtype.kind == "f" else bound
    if not frame:
        return obj.where(getattr(obj, op)(infinite) | obj.isna(), bound)
    if ax == 1:  # one scalar bound per column
        values = bound.tolist()
        return obj._with_columns(
            {
                k: obj[k].clip(**{"lower" if op == "ge" else "upper": v}).column
                for k, v in zip(obj._names, values)
            }
        )
    return obj._with_columns({k: _clip_one_bound(obj[k], bound, op, None).column for k in obj._names})


def require_axis0(method: str, axis: Any) -> None:
    """Methods ember implements along the rows only: axis=1 raises instead of being ignored."""
    if check_axis(method, axis) != 0:
        raise unsupported(method, "axis=1")


def _is_numeric(c: Column) -> bool:
    return isinstance(c, NumericColumn)


def scalar_result(value: Any) -> Any:
    """Numpy scalars as pandas returns them from reductions (np.float64, np.int64, bool ...)."""
    if isinstance(value, np.bool_):
        return bool(value)
    return value


def _sample_size(n: Any, frac: Any, replace: bool, length: int) -> int:
    """pandas' checks of ``sample``'s n / frac, and the number of rows they ask for."""
    if n is None and frac is None:
        return 1
    if n is not None and frac is not None:
        raise ValueError("Please enter a value for `frac` OR `n`, not both")
    if n is not None:
        if n < 0:
            raise ValueError("A negative number of rows requested. Please provide `n` >= 0.")
        if n % 1 != 0:
            raise ValueError("Only integers accepted as `n` values")
        return int(n)
    if frac > 1 and not replace:
        raise ValueError("Replace has to be set to `True` when upsampling the population `frac` > 1.")
    if frac < 0:
        raise ValueError("A negative number of rows requested. Please provide `frac` >= 0.")
    return round(frac * length)


def _sample_weights(obj: Any, weights: Any) -> np.ndarray:
    """Row weights as pandas takes them (a frame's column name, or one weight per row; missing ones
    count as 0), normalized to sum 1, on the host."""
    from ember.backend import to_host

    if isinstance(weights, str):
        if getattr(obj, "_ember_kind", "") != "frame":
            raise ValueError("Strings cannot be passed as weights when sampling from a Series.")
        try:
            weights = obj[weights]
        except KeyError as err:
            raise KeyError("String passed to weights not a valid column") from err
    if hasattr(weights, "index") and hasattr(weights, "to_pandas"):
        from ember.frame.alignment import indexes_equal

        if not indexes_equal(weights.index, obj.index):
            raise unsupported("sample", "weights as a Series on other labels (pandas aligns them)")
        weights = weights.to_pandas().to_numpy(dtype=np.float64, na_value=np.nan)
    elif isinstance(weights, pd.Series):
        weights = weights.reindex(obj.index.to_pandas()).to_numpy(dtype=np.float64, na_value=np.nan)
    p = np.asarray(
        to_host(weights) if hasattr(weights, "__cuda_array_interface__") else weights, dtype=np.float64
    )
    if len(p) != len(obj):
        raise ValueError("Weights and axis to be sampled must be of same length")
    if np.isinf(p).any():
        raise ValueError("weights vector may not include `inf` values")
    if (p < 0).any():
        raise ValueError("weights vector may not include negative values")
    p = np.where(np.isnan(p), 0.0, p)
    total = p.sum()
    if total == 0:
        raise ValueError("Invalid weights: weights sum to zero")
    return p / total


def _random_state(state: Any) -> Any:
    """pandas' random_state argument: an int, array or BitGenerator seeds a RandomState; a RandomState
    or Generator is used as it is; None is NumPy's global generator."""
    if isinstance(state, (int, np.integer, np.ndarray, np.random.BitGenerator)) and not isinstance(
        state, bool
    ):
        return np.random.RandomState(state)
    if isinstance(state, (np.random.RandomState, np.random.Generator)):
        return state
    if state is None:
        return np.random
    raise ValueError(
        "random_state must be an integer, array-like, a BitGenerator, Generator, a numpy RandomState, or None"
    )


def _own_na(col: Column, out: Column) -> Column:
    """A filled object column's rows left missing are rows that were missing: pandas keeps their own
    marker (None / NaN / pd.NA), not the NaN a new missing row gets."""
    from ember.column import StringColumn

    if isinstance(col, StringColumn) and isinstance(out, StringColumn) and out is not col:
        out.na = col.na
    return out
