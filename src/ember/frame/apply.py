"""Elementwise apply/map: dict mappings and functions of each value.

A function runs value by value on the host as pandas calls it (``frame/map_elementwise.py``) for
Series up to ``ELEMENTWISE_UP_TO`` values; on longer ones it is first called once on the whole Series
(``s.apply(lambda v: v * 2 + 1)``, ``s.map(np.log)`` run on the device that way) and that result is
kept where it equals pandas' map on a sample of the values. Masked, categorical and Arrow-backed
columns, whose results pandas casts back to their dtype, take only the checked vectorized path.
"""

from __future__ import annotations

from typing import Any

from ember.frame._fallback import fallback_enabled, run_in_pandas, unsupported


def map_series(series: Any, arg: Any, na_action: Any = None, args: tuple = (), **kwargs: Any) -> Any:
    from ember.frame.series import Series
    from ember.ops.unary import map_values

    if isinstance(arg, Series):
        arg = dict(zip(arg.index.tolist(), arg.tolist()))
    if isinstance(arg, dict):
        if type(series.column).__name__ == "ListColumn" and not bool(series.column.isna().all()):
            raise TypeError("unhashable type: 'list'")  # pandas looks each list up in the dict
        mapped = _categorical_map(series, arg, na_action)
        return mapped if mapped is not None else series._wrap(map_values(series.column, arg))
    if not callable(arg):
        raise TypeError(f"map expects a dict, Series or callable, got {type(arg).__name__}")
    mapped = _categorical_map_callable(series, arg, na_action, args, kwargs)
    return mapped if mapped is not None else _map_callable(series, arg, na_action, args, kwargs)


def _categorical_map_callable(series: Any, func: Any, na_action: Any, args: tuple, kwargs: dict) -> Any:
    """pandas' Categorical.map of a function: called once per category (on the host: the categories
    are few); distinct images without a missing one stay a categorical on the same codes, others are
    taken by code. None for other columns; a missing value pandas would hand to the function is
    refused."""
    import numpy as np
    import pandas as pd

    from ember.column import CategoricalColumn
    from ember.column.convert import from_pandas as column_from_pandas

    col = series.column
    if not isinstance(col, CategoricalColumn):
        return None
    missing = bool((col.codes < 0).any())
    if missing and na_action is None:
        raise unsupported(
            "Series.map", "a function of a categorical with missing values (pandas calls it with NaN)"
        )
    new = pd.Index(col.categories.to_pandas()).map(lambda v: func(v, *args, **kwargs))
    if isinstance(new, pd.MultiIndex):
        raise unsupported("Series.map", "a function returning tuples of a categorical's values")
    if new.is_unique and not new.hasnans:
        return series._wrap(
            CategoricalColumn(col.codes, column_from_pandas(pd.Series(new), col.xp), col.ordered)
        )
    if missing and new.dtype == object:  # pandas appends NaN beside the images' own missing values
        raise unsupported("Series.map", "object images of a categorical with missing values")
    images = column_from_pandas(pd.Series(new), col.xp)
    codes = col.codes.astype(np.int64)
    return series._wrap(images.take_nullable(codes) if missing else images.take(codes))


def _map_callable(series: Any, func: Any, na_action: Any, args: tuple, kwargs: dict) -> Any:
    """A function of each value: called value by value on the host up to ``ELEMENTWISE_UP_TO`` values
    (pandas' semantics exactly); longer Series first call it once on the whole Series (on the device)
    and keep that result where it equals pandas' map on a sample of the values, else go value by
    value. NumPy ufuncs take the vectorized call at any length (checked the same way)."""
    import numpy as np

    from ember.frame.map_elementwise import (
        ELEMENTWISE_UP_TO,
        elementwise_supported,
        map_elementwise,
        sample_agrees,
    )
    from ember.frame.series import Series

    by_value = elementwise_supported(series.column)
    ufunc = isinstance(func, np.ufunc) and not args and not kwargs
    if by_value and not ufunc and len(series) <= ELEMENTWISE_UP_TO:
        return map_elementwise(series, func, na_action, args, kwargs)
    try:
        result = func(series, *args, **kwargs)
    except Exception as exc:  # the function needs scalars: not vectorizable
        result = exc
    if isinstance(result, Series) and len(result) == len(series):
        result = Series._from_column(result.column, series.index, series.name)
        if sample_agrees(series, result, func, na_action, args, kwargs):
            return result
    if by_value:
        return map_elementwise(series, func, na_action, args, kwargs)
    if fallback_enabled():
        return run_in_pandas("Series", "map", series, (func,), {})
    detail = f" ({type(result).__name__}: {result})" if isinstance(result, Exception) else ""
    raise unsupported(
        "Series.apply/map",
        f"the function {getattr(func, '__name__', func)!r} of each value of a {series.dtype} column, which "
        f"is not vectorizable{detail}; write it with Series operators or numpy ufuncs",
    )


def apply_frame(frame: Any, func: Any, axis: int, **kwargs: Any) -> Any:
    """``func`` on each column (axis=0) as a Series; reductions give a Series, maps a DataFrame."""
    from ember.frame.series import Series

    if axis == 1:
        reduction = _row_reduction(frame, func, kwargs)
        if reduction is not None:
            return getattr(frame, reduction)(axis=1)
        if _elementwise_on_rows(frame, func, kwargs):
            return func(frame)
        return _apply_rows(frame, func, kwargs)
    if isinstance(func, str):
        return getattr(frame, func)(**kwargs)
    results = {k: func(frame[k], **kwargs) for k in frame._names}
    if all(isinstance(r, Series) and len(r) == len(frame) for r in results.values()):
        return frame._with_rows({k: r.column for k, r in results.items()}, frame.index)
    import pandas as pd

    return Series(pd.Series(results))


def _apply_rows(frame: Any, func: Any, kwargs: dict) -> Any:
    """A Python function of each row (``frame/apply_rows.py``): its vectorized call on the columns,
    checked against pandas on a sample of the rows; pandas' other arguments at their defaults only."""
    from ember.column.base import Unsupported
    from ember.frame.apply_rows import apply_rows

    # by_row concerns list / dict functions only; the Python engine is pandas' own row loop
    options = {"raw": [False], "result_type": [None], "by_row": ["compat", False], "engine": [None, "python"]}
    options["engine_kwargs"] = [None]
    passed = {k: kwargs.pop(k) for k in list(kwargs) if k in options}
    args = kwargs.pop("args", ())
    try:
        changed = [
            k
            for k, v in passed.items()
            if not any(v is o or (type(v) is type(o) and v == o) for o in options[k])
        ]
        if changed:
            raise unsupported("DataFrame.apply", f"axis=1 with {changed[0]}={passed[changed[0]]!r}")
        return apply_rows(frame, func, tuple(args), kwargs)
    except Unsupported:
        if fallback_enabled():
            call = {"axis": 1, "args": args, **passed, **kwargs}
            return run_in_pandas("DataFrame", "apply", frame, (func,), call)
        raise


def _row_reduction(frame: Any, func: Any, kwargs: dict) -> str | None:
    """The frame reduction a NumPy reduction over each row equals: pandas hands each row to the
    function as a Series, which NumPy dispatches to that Series' own method. Only for rows of plain
    NumPy numbers (no booleans, no masked dtypes: their rows take other dtypes) and a non-empty frame
    (pandas infers an empty result from a call on an empty row)."""
    import numpy as np

    from ember.column import NumericColumn

    names = {np.sum: "sum", np.mean: "mean", np.min: "min", np.max: "max", np.prod: "prod"}
    names.update({np.amin: "min", np.amax: "max"})
    if kwargs or func not in names or len(frame) == 0 or not frame._names:
        return None
    for column in frame._columns.values():
        plain = type(column) is NumericColumn and not column.nullable and not column.is_bool
        if not plain:
            return None
    return names[func]


def _elementwise_on_rows(frame: Any, func: Any, kwargs: dict) -> bool:
    """A one-input NumPy ufunc over rows of one NumPy dtype gives what it gives over the columns."""
    import numpy as np

    from ember.column import NumericColumn

    if kwargs or not isinstance(func, np.ufunc) or func.nin != 1 or len(frame) == 0:
        return False
    columns = list(frame._columns.values())
    if not columns or not all(type(c) is NumericColumn and not c.nullable for c in columns):
        return False
    return len({c.data.dtype for c in columns}) == 1


def _categorical_map(series: Any, mapper: dict, na_action: Any) -> Any:
    """pandas' Categorical.map with a dict: the categories are mapped; when they stay distinct and
    none (nor a missing value's image) is missing, the result is a categorical over them, the codes
    unchanged; otherwise the mapped categories taken by code. None where a missing value has an
    image (the values are mapped one by one, as for any column)."""
    import numpy as np
    import pandas as pd

    from ember.column import CategoricalColumn
    from ember.column.convert import from_pandas as column_from_pandas

    col = series.column
    if not isinstance(col, CategoricalColumn):
        return None
    categories = col.categories.to_pandas()
    new = pd.Index(categories).map(lambda v: mapper.get(v, np.nan))
    if isinstance(new, pd.MultiIndex):
        return None
    if na_action is None and np.nan in mapper and bool((col.codes < 0).any()):
        return None  # a missing value maps to something: pandas takes the values one by one
    if not new.is_unique or new.hasnans:
        # pandas takes the mapped categories (unused ones included) by code: their Index's dtype
        images = column_from_pandas(pd.Series(pd.Index(categories).map(mapper)), col.xp)
        codes = col.codes.astype(np.int64)
        return series._wrap(images.take_nullable(codes) if bool((codes < 0).any()) else images.take(codes))
    mapped = CategoricalColumn(col.codes, column_from_pandas(pd.Series(new), col.xp), col.ordered)
    return series._wrap(mapped)
