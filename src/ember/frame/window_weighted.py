"""``obj.rolling(window, win_type=...)``: pandas' ``Window`` (weighted windows). The weights come from
``scipy.signal.windows`` exactly as pandas asks for them (``getattr(windows, win_type)(window,
**kwargs)``, the aggregation's keyword arguments such as ``std=`` / ``tau=`` go to scipy); the kernels
live in ``ops.window_weighted``."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.frame._fallback import unsupported
from ember.frame.window import _Base
from ember.frame.window_more import WindowMethods


class Window(_Base):
    """Weighted rolling windows: sum, mean, var, std and aggregate by their names."""

    _name = "Window"

    def __init__(
        self, obj: Any, window: Any, min_periods: Any, center: Any, win_type: Any, step: Any
    ) -> None:
        super().__init__(obj, None, None)
        self.window, self.win_type, self.center = window, win_type, center
        self.min_periods = min_periods
        self.step = step
        self._bounds_cache = None

    def __repr__(self) -> str:
        return f"Window [window={self.window},center={self.center},win_type={self.win_type},method=single]"

    def _xp(self) -> Any:
        return self.obj.index.column.xp if not self._value_items() else self._value_items()[0][1].xp

    def _weights(self, kwargs: dict) -> np.ndarray:
        from scipy.signal import windows

        generator = getattr(windows, self.win_type)
        return np.asarray(generator(self.window, **kwargs), dtype=np.float64)

    def _run(self, name: str, kwargs: dict, ddof: int = 1) -> Any:
        from ember.column import NumericColumn
        from ember.ops.window import float_values
        from ember.ops.window_weighted import weighted_sum_mean, weighted_var

        weights = self._weights(kwargs)
        offset = (len(weights) - 1) // 2 if self.center else 0
        minp = len(weights) if self.min_periods is None else self.min_periods
        if name in ("var", "std") and not (np.isfinite(weights).all() and (weights > 0).all()):
            raise unsupported(
                f"Window.{name}", f"win_type={self.win_type!r} with weights that are not all > 0"
            )

        def kernel(col: Any) -> Any:
            values, valid = float_values(col)
            xp = col.xp
            if name in ("sum", "mean"):
                res = weighted_sum_mean(xp, values, valid, weights, minp, name == "mean", offset)
            else:
                res = weighted_var(xp, values, valid, weights, minp, ddof, offset)
                res = xp.sqrt(res) if name == "std" else res
            rows = self._stepped()
            return NumericColumn(res if rows is None else res[rows])

        return self._apply(kernel, name)

    def sum(self, numeric_only: bool = False, **kwargs: Any) -> Any:
        return self._run("sum", kwargs)

    def mean(self, numeric_only: bool = False, **kwargs: Any) -> Any:
        return self._run("mean", kwargs)

    def var(self, ddof: int = 1, numeric_only: bool = False, **kwargs: Any) -> Any:
        return self._run("var", _drop_name(kwargs), _checked_ddof(ddof))

    def std(self, ddof: int = 1, numeric_only: bool = False, **kwargs: Any) -> Any:
        return self._run("std", _drop_name(kwargs), _checked_ddof(ddof))

    aggregate = WindowMethods.aggregate
    agg = WindowMethods.aggregate
    _by_name = WindowMethods._by_name
    _over = WindowMethods._over
    _agg_list = WindowMethods._agg_list
    _agg_dict = WindowMethods._agg_dict
    _axis_names_for_list = WindowMethods._axis_names_for_list


def _drop_name(kwargs: dict) -> dict:
    kwargs.pop("name", None)
    return kwargs


def _checked_ddof(ddof: Any) -> int:
    # pandas passes ddof to an unsigned int argument
    if int(ddof) < 0:
        raise OverflowError("can't convert negative value to unsigned int")
    return int(ddof)


def weighted_window(
    obj: Any, window: Any, min_periods: Any, center: Any, win_type: Any, on: Any, step: Any, method: str
) -> Window:
    """``rolling(..., win_type=...)`` after the checks rolling shares: pandas' Window validation."""
    if on is not None:
        raise unsupported("rolling", "win_type with on=")
    if hasattr(obj, "_grouping") and hasattr(obj, "_key_names"):
        raise unsupported("GroupBy.rolling", "win_type")
    if not isinstance(center, (bool, np.bool_)):
        raise ValueError("center must be a boolean")
    if min_periods is not None:
        if isinstance(min_periods, (bool, np.bool_)) or not isinstance(min_periods, (int, np.integer)):
            raise ValueError("min_periods must be an integer")
        if min_periods < 0:
            raise ValueError("min_periods must be >= 0")
        if isinstance(window, (int, np.integer)) and min_periods > window:
            raise ValueError(f"min_periods {min_periods} must be <= window {window}")
    if step == 0:
        raise ValueError("slice step cannot be zero")
    if not isinstance(win_type, str):
        raise ValueError(f"Invalid win_type {win_type}")
    from scipy.signal import windows

    if getattr(windows, win_type, None) is None:
        raise ValueError(f"Invalid win_type {win_type}")
    if isinstance(window, pd.api.indexers.BaseIndexer):
        raise NotImplementedError("BaseIndexer subclasses not implemented with win_types.")
    if isinstance(window, (bool, np.bool_)) or not isinstance(window, (int, np.integer)) or window < 0:
        raise ValueError("window must be an integer 0 or greater")
    if method != "single":
        raise NotImplementedError("'single' is the only supported method type.")
    step = None if step is None else int(step)
    return Window(
        obj, int(window), None if min_periods is None else int(min_periods), bool(center), win_type, step
    )
