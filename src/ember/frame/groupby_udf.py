"""User functions over groups (GroupBy.agg / transform with a callable, Resampler.aggregate with a
callable): ``func`` runs once per group in Python, as pandas' pure-Python paths do, and the results
are combined by pandas' rules. A loop over groups by nature: for functions with no vectorised form."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from ember.column import Column, NumericColumn, from_pandas
from ember.frame._fallback import unsupported


def group_positions(g: Any) -> list[Any]:
    """Row positions of each group of a grouping (one array per group, in row order; rows of no
    group left out). One sync: the groups' bounds."""
    from ember.backend import to_host
    from ember.backend.primitives import stable_argsort

    xp = g.xp
    order = stable_argsort(g.codes)
    bounds = to_host(xp.searchsorted(g.codes[order], xp.arange(g.ngroups + 1)))
    return [order[bounds[i] : bounds[i + 1]] for i in range(g.ngroups)]


def call_on_group(func: Callable, group: Any, args: tuple, kwargs: dict) -> Any:
    """``func(group, ...)``; a NumPy reduction (np.sum ...) hands ember's Series numpy's ``out=`` /
    ``dtype=``, which its reductions do not take: refused clearly rather than a TypeError pandas
    would not raise."""
    try:
        return func(group, *args, **kwargs)
    except TypeError as err:
        text = str(err)
        if "unexpected keyword argument 'out'" in text or "unexpected keyword argument 'dtype'" in text:
            raise unsupported(
                "GroupBy / Resampler function", "NumPy reductions (np.sum ...) of ember Series inside it"
            ) from err
        raise


def _scalar_result(res: Any, dtype: Any, first: bool, resample: bool) -> Any:
    """pandas' extract_result / check_result_array: a length-1 Series or array gives its value."""
    from ember.frame.dataframe import DataFrame
    from ember.frame.series import Series

    if isinstance(res, DataFrame):
        raise unsupported("GroupBy.agg", "a function returning a DataFrame per group")
    if isinstance(res, Series):
        if len(res) != 1:
            raise unsupported("GroupBy.agg", "a function returning a Series per group (use apply)")
        return res.to_pandas().iloc[0]
    if isinstance(res, np.ndarray):
        if resample and first and dtype != object:
            raise ValueError("Must produce aggregated value")
        if res.ndim == 1 and len(res) == 1:
            return res[0]
        raise unsupported("GroupBy.agg", "a function returning an array per group")
    if isinstance(res, (list, tuple, dict, set)):
        raise unsupported("GroupBy.agg", "a function returning a container per group")
    return res


def cast_results(values: list, dtype: Any) -> Any:
    """The groups' results as one array, cast as pandas' agg_series does from the input's dtype."""
    objs = np.empty(len(values), dtype=object)
    objs[:] = values
    # pandas 3.0 and 3.1 alike: agg_series casts with the input array's _cast_pointwise_result
    return pd.Series([], dtype=dtype).array._cast_pointwise_result(objs)


def column_of(values: Any, name: Any) -> Column:
    """A host array of per-group results (one per group: small) as an ember column."""
    from ember.backend import xp as current_xp

    return from_pandas(pd.Series(values, copy=False), current_xp(), name)


def aggregate_udf(
    g: Any, series: Any, func: Callable, args: tuple, kwargs: dict, resample: bool = False
) -> Column:
    """``func(group)`` for each group of an ember Series (each group a Series named as the input,
    on its rows' labels), the results cast as pandas' agg_series."""
    values = []
    for i, pos in enumerate(group_positions(g)):
        res = call_on_group(func, series._take_rows(pos), args, kwargs)
        values.append(_scalar_result(res, series.dtype, i == 0, resample))
    if not values:  # pandas keeps the input's dtype when there is no group
        return series.column.take(g.xp.zeros(0, dtype=np.int64))
    return column_of(cast_results(values, series.dtype), series.name)


# --- transform ----------------------------------------------------------------------------------


def _check_transformable(gb: Any, method: str) -> None:
    g = gb._grouping
    if g.dropped:
        raise unsupported(method, "a function with rows whose key is missing (dropna)")
    if g.ngroups == 0:
        raise unsupported(method, "a function over no groups")


def _reordered(gb: Any, parts: list, positions: list) -> Any:
    """The groups' results one after another, back in the grouped object's row order and index."""
    from ember.frame.convert import concat

    xp = gb._grouping.xp
    out = concat(parts, ignore_index=True)
    out = out._take_rows(xp.argsort(xp.concatenate(positions), kind="stable"))
    out.index = gb.obj.index
    return out


def transform_series_udf(gb: Any, func: Callable, args: tuple, kwargs: dict) -> Any:
    """SeriesGroupBy.transform(func): each group's result on the group's rows (a scalar broadcast,
    a Series aligned on the group's labels), as pandas' _transform_general."""
    from ember.frame.dataframe import DataFrame
    from ember.frame.series import Series

    _check_transformable(gb, "SeriesGroupBy.transform")
    keys = gb._result_index().to_pandas()
    positions = group_positions(gb._grouping)
    parts = []
    for key, pos in zip(keys, positions):
        sub = gb.obj._take_rows(pos)
        sub.name = key  # pandas hands each group over named by its key
        res = call_on_group(func, sub, args, kwargs)
        if isinstance(res, DataFrame):
            raise unsupported("SeriesGroupBy.transform", "a function returning a DataFrame")
        if isinstance(res, Series):
            if not res.index.equals(sub.index):
                raise unsupported("SeriesGroupBy.transform", "a result on labels other than the group's")
            part = Series._from_column(res.column, sub.index)
        elif pd.api.types.is_scalar(res):
            part = Series(res, index=sub.index)
        else:
            raise unsupported("SeriesGroupBy.transform", f"a function returning {type(res).__name__}")
        parts.append(part)
    out = _reordered(gb, parts, positions)
    out.name = gb.obj.name
    return out


def _frame_of_row(res: Any, sub: Any, xp: Any) -> Any:
    """A Series over the group's columns repeated on each of its rows (pandas tiles its values, so
    every column takes the Series' one dtype)."""
    from ember.frame.dataframe import DataFrame

    col = res.column
    if type(col) is not NumericColumn or not isinstance(col.dtype, np.dtype):
        raise unsupported("DataFrameGroupBy.transform", f"a function returning a Series of {col.dtype}")
    if list(res.index.to_pandas()) != list(sub.columns):
        raise unsupported("DataFrameGroupBy.transform", "a Series result not over the group's columns")
    n = len(sub)
    cols = {k: col.take(xp.full(n, j, dtype=np.int64)) for j, k in enumerate(sub.columns)}
    return DataFrame._from_columns(cols, sub.index)


def _frame_part(res: Any, sub: Any, xp: Any) -> Any:
    from ember.frame.dataframe import DataFrame
    from ember.frame.series import Series

    if isinstance(res, Series):
        return _frame_of_row(res, sub, xp)
    if isinstance(res, DataFrame):
        if not (res.index.equals(sub.index) and list(res.columns) == list(sub.columns)):
            raise unsupported("DataFrameGroupBy.transform", "a result on labels other than the group's")
        return res
    raise unsupported("DataFrameGroupBy.transform", f"a function returning {type(res).__name__}")


def _choose_path(fast: Callable, slow: Callable, sub: Any, ngroups: int) -> tuple[Callable, Any]:
    """pandas' _choose_path: the column-wise (slow) result, unless ``func`` on the whole group gives
    the same frame (then ``func`` on the whole group for every group)."""
    from ember.frame.dataframe import DataFrame
    from ember.frame.series import Series

    res = slow(sub)
    if ngroups == 1:
        return slow, res
    try:
        res_fast = fast(sub)
    except Exception:  # noqa: BLE001 - pandas takes the slow path on any error of the fast one
        return slow, res
    if isinstance(res_fast, DataFrame):
        same_axis = list(res_fast.columns) == list(sub.columns)
    elif isinstance(res_fast, Series):
        same_axis = list(res_fast.index.to_pandas()) == list(sub.columns)
    else:
        return slow, res
    if same_axis and type(res_fast) is type(res) and res_fast.equals(res):
        return fast, res
    return slow, res


def transform_frame_udf(gb: Any, func: Callable, args: tuple, kwargs: dict) -> Any:
    """DataFrameGroupBy.transform(func), as pandas' _transform_general: per group, ``func`` on each
    column (or on the whole group where that gives the same result), results on the group's rows."""
    _check_transformable(gb, "DataFrameGroupBy.transform")
    obj = gb._selected_obj()
    grouping = [n for n, is_col in zip(gb._key_names, gb._key_labels) if is_col and n in obj._columns]
    obj = obj.drop(columns=grouping) if grouping else obj
    positions = group_positions(gb._grouping)

    def fast(sub: Any) -> Any:
        return call_on_group(func, sub, args, kwargs)

    def slow(sub: Any) -> Any:
        return sub.apply(lambda x: func(x, *args, **kwargs), axis=0)

    parts, path = [], None
    for pos in positions:
        sub = obj._take_rows(pos)
        if path is None:
            path, res = _choose_path(fast, slow, sub, gb.ngroups)
        else:
            res = path(sub)
        parts.append(_frame_part(res, sub, gb._grouping.xp))
    return _reordered(gb, parts, positions)
