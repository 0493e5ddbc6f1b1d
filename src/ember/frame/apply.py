"""Elementwise apply/map: dict mappings and vectorizable functions; anything else raises clearly.

A function is *vectorizable* when calling it on the whole Series (ember operators and numpy ufuncs)
returns a Series of the same length: ``s.apply(lambda v: v * 2 + 1)`` and ``s.map(np.log)`` run on the
device that way. Functions that need Python scalars (branches, string methods) raise
NotImplementedError naming the way out (vectorized ops, or the opt-in pandas fallback).
"""

from __future__ import annotations

from typing import Any

from ember.frame._fallback import fallback_enabled, run_in_pandas, unsupported


def map_series(series: Any, arg: Any, na_action: Any = None, args: tuple = (), **kwargs: Any) -> Any:
    from ember.frame.series import Series
    from ember.ops.unary import map_values

    if isinstance(arg, dict):
        return series._wrap(map_values(series.column, arg))
    if isinstance(arg, Series):
        return series._wrap(map_values(series.column, dict(zip(arg.index.tolist(), arg.tolist()))))
    if not callable(arg):
        raise TypeError(f"map expects a dict, Series or callable, got {type(arg).__name__}")
    try:
        result = arg(series, *args, **kwargs)
    except Exception as exc:  # the function needs scalars: not vectorizable
        if fallback_enabled():
            return run_in_pandas("Series", "map", series, (arg,), {})
        raise unsupported(
            "Series.apply/map",
            f"the function {getattr(arg, '__name__', arg)!r}, which is not "
            f"vectorizable ({type(exc).__name__}: {exc}); write it with Series operators or "
            "numpy ufuncs",
        ) from exc
    if isinstance(result, Series) and len(result) == len(series):
        return Series._from_column(result.column, series.index, series.name)
    if fallback_enabled():
        return run_in_pandas("Series", "map", series, (arg,), {})
    raise unsupported(
        "Series.apply/map",
        f"the function {getattr(arg, '__name__', arg)!r}, which does not map a "
        "Series to a Series of the same length",
    )


def apply_frame(frame: Any, func: Any, axis: int, **kwargs: Any) -> Any:
    """``func`` on each column (axis=0) as a Series; reductions give a Series, maps a DataFrame."""
    from ember.frame.dataframe import DataFrame
    from ember.frame.series import Series

    if axis == 1:
        if fallback_enabled():
            return run_in_pandas("DataFrame", "apply", frame, (func,), {"axis": 1, **kwargs})
        raise unsupported("DataFrame.apply", "axis=1 (row-wise Python functions); use column operations")
    if isinstance(func, str):
        return getattr(frame, func)(**kwargs)
    results = {k: func(frame[k], **kwargs) for k in frame._names}
    if all(isinstance(r, Series) and len(r) == len(frame) for r in results.values()):
        return DataFrame._from_columns({k: r.column for k, r in results.items()}, frame.index)
    import pandas as pd

    return Series(pd.Series(results))
