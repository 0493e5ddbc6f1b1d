"""Behaviour shared by Series and DataFrame: column-wise maps, reductions, missing data, display.

Subclasses provide ``_map_columns(fn)`` (apply a Column -> Column function to every column, keeping
labels) and ``_numeric_columns()``; everything here is written once on top of those.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from ember import _config
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

        return self._map_columns(lambda c: ffill(c, limit=limit))

    def bfill(self, *, limit: int | None = None) -> Any:
        from ember.ops.missing import bfill

        return self._map_columns(lambda c: bfill(c, limit=limit))

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

    def round(self, decimals: int = 0) -> Any:
        from ember.ops.unary import round_

        return self._map_columns(lambda c: round_(c, decimals) if _is_numeric(c) else c)

    def clip(self, lower: Any = None, upper: Any = None) -> Any:
        from ember.ops.unary import clip

        return self._map_columns(lambda c: clip(c, lower, upper))

    def _cumulative(self, op: str, skipna: bool, axis: Any = None) -> Any:
        from ember.ops.cumulative import cumulative

        require_axis0(f"{type(self).__name__}.{op}", axis)

        return self._map_columns(lambda c: cumulative(c, op, skipna=skipna))

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

        if hasattr(values, "to_pandas"):
            values = values.to_pandas()
        return self._map_columns(lambda c: isin(c, values))

    def take(self, indices: Any, axis: Any = 0) -> Any:
        """Rows at integer positions (negative from the end), as pandas' take."""
        from ember.frame.indexing import positions_for_take

        if check_axis("take", axis) != 0:
            raise unsupported(f"{type(self).__name__}.take", "axis=1")
        return self._take_rows(positions_for_take(self, indices))

    def copy(self, deep: bool = True) -> Any:
        return self._map_columns(lambda c: c.copy() if deep else c)

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

    def resample(self, rule: Any, closed: str | None = None, label: str | None = None, on: Any = None) -> Any:
        from ember.frame.timeseries import resample

        return resample(self, rule, closed=closed, label=label, on=on)

    def shift(self, periods: int = 1, freq: Any = None, axis: Any = None, fill_value: Any = None) -> Any:
        from ember.frame.timeseries import shift

        return shift(self, periods, freq=freq, axis=axis, fill_value=fill_value)

    def diff(self, periods: int = 1, axis: Any = None) -> Any:
        from ember.frame.timeseries import diff

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

    # --- display ------------------------------------------------------------------------------
    def _repr_pandas_parts(self) -> tuple[Any, bool]:
        """A small pandas object for display: the head and tail rows (no full copy to the host)."""
        n = len(self)
        max_rows = _config.get("display.max_rows")
        if n <= max_rows:
            return self.to_pandas(), False
        k = max(_config.get("display.min_rows") // 2, 1)
        head, tail = self.iloc[:k].to_pandas(), self.iloc[n - k :].to_pandas()
        return pd.concat([head, tail]), True


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
