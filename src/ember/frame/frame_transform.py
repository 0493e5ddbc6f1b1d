"""``Series.transform``: a function name, a callable, a list or a dict of them, as pandas' ``Apply``
composes it (a list becomes a dict named after the functions; a dict gives a frame of one column per
entry; every result must keep the Series' labels)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.frame._fallback import unsupported


def transform_series(series: Any, func: Any, axis: Any, args: tuple, kwargs: dict) -> Any:
    if axis not in (0, "index"):
        raise ValueError(f"No axis named {axis} for object type Series")
    if pd.api.types.is_list_like(func) and not pd.api.types.is_dict_like(func):
        from pandas.core.common import get_callable_name

        func = list(func)
        if len(func) > len(set(func)):  # the same function (object or name) twice, as pandas
            raise pd.errors.SpecificationError(
                "Function names must be unique if there is no new column names assigned"
            )
        func = {get_callable_name(f) or f: f for f in func}
    if pd.api.types.is_dict_like(func):
        return _transform_dict(series, dict(func), args, kwargs)
    try:
        result = _str_or_callable(series, func, args, kwargs)
    except (TypeError, NotImplementedError):
        raise
    except Exception as err:
        raise ValueError("Transform function failed") from err
    return _checked(series, result)


def _transform_dict(series: Any, funcs: dict, args: tuple, kwargs: dict) -> Any:
    from ember.frame.dataframe import DataFrame

    if not funcs:
        raise ValueError("No transform functions were provided")
    if any(pd.api.types.is_dict_like(f) for f in funcs.values()):
        raise pd.errors.SpecificationError("nested renamer is not supported")
    if any(pd.api.types.is_list_like(f) for f in funcs.values()):
        raise unsupported("Series.transform", "a dict of lists (columns of two levels)")
    results = {name: transform_series(series, f, 0, args, kwargs) for name, f in funcs.items()}
    if not all(hasattr(r, "column") for r in results.values()):
        raise unsupported("Series.transform", "functions giving frames (columns of two levels)")
    return DataFrame._from_columns({k: r.column for k, r in results.items()}, series.index)


def _str_or_callable(series: Any, func: Any, args: tuple, kwargs: dict) -> Any:
    if isinstance(func, str):
        if hasattr(pd.Series, func):
            method = getattr(series, func)
            return method(*args, **kwargs) if callable(method) else method
        if hasattr(np, func) and isinstance(getattr(np, func), np.ufunc):
            return getattr(np, func)(series, *args, **kwargs)
        if hasattr(np, func):
            raise unsupported("Series.transform", f"the NumPy function name {func!r} (only ufunc names)")
        raise AttributeError(f"'{func}' is not a valid function for 'Series' object")
    if not callable(func):
        raise TypeError(f"'{type(func).__name__}' object is not callable")
    try:  # pandas: apply the function, else call it on the whole Series
        return series.apply(func, args=args, **kwargs)
    except NotImplementedError:
        raise
    except Exception:
        return func(series, *args, **kwargs)


def _checked(series: Any, result: Any) -> Any:
    from ember.frame.alignment import indexes_equal
    from ember.frame.dataframe import DataFrame
    from ember.frame.series import Series

    if isinstance(result, (Series, DataFrame)) and not len(result) and len(series):
        raise ValueError("Transform function failed")
    if not isinstance(result, (Series, DataFrame)) or not indexes_equal(result.index, series.index):
        raise ValueError("Function did not transform")
    return result
