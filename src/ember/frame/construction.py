"""Building a DataFrame's columns and index from what users pass: dicts, pandas, Arrow, arrays, rows."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.backend import xp as current_xp
from ember.column import Column, from_any, from_arrow, from_pandas, from_scalar
from ember.frame.index import Index, RangeIndex, ensure_index, index_from_pandas


def build_frame(data: Any, index: Any, columns: Any) -> tuple[dict[Any, Column], Index]:
    """The columns and index of ``DataFrame(data, index, columns)``."""
    from ember.frame.dataframe import DataFrame
    from ember.frame.series import Series

    xp = current_xp()
    if data is None:
        names = [] if columns is None else list(columns)
        idx = ensure_index(index)
        return {k: from_scalar(np.nan, len(idx), xp, k) for k in names}, idx
    if isinstance(data, DataFrame):
        cols = dict(data._columns)
        if columns is not None:
            cols = {k: cols[k] for k in columns}
        return cols, data._index if index is None else ensure_index(index, len(data))
    if isinstance(data, pd.DataFrame):
        if columns is not None:
            data = data[list(columns)]
        return _from_pandas_frame(data, index)
    if isinstance(data, dict):
        return _from_dict(data, index, columns, xp)
    import pyarrow as pa

    if isinstance(data, (pa.Table, pa.RecordBatch)):
        cols = {name: from_arrow(data.column(i), xp) for i, name in enumerate(data.column_names)}
        return cols, ensure_index(index, data.num_rows)
    if isinstance(data, Series):
        name = data.name if data.name is not None else 0
        return {name: data.column}, data.index if index is None else ensure_index(index, len(data))
    # lists of rows, 2-D arrays: pandas parses the layout on the host, then the columns move over
    frame = pd.DataFrame(data, columns=columns)
    if frame.shape[1] and any(frame[c].dtype == object for c in frame.columns):
        for c in frame.columns:
            if frame[c].dtype == object:
                from_any(frame[c].to_numpy(), xp, c)  # raises TypeError naming a mixed column
    return _from_pandas_frame(frame, index)


def _from_pandas_frame(frame: pd.DataFrame, index: Any) -> tuple[dict[Any, Column], Index]:
    if frame.columns.has_duplicates:
        raise NotImplementedError("DataFrame: duplicate column labels are not supported by ember")
    xp = current_xp()
    cols = {}
    for i, name in enumerate(frame.columns):
        cols[name] = from_pandas(frame.iloc[:, i], xp, name)
    idx = index_from_pandas(frame.index) if index is None else ensure_index(index, len(frame))
    return cols, idx


def _from_dict(data: dict, index: Any, columns: Any, xp: Any) -> tuple[dict[Any, Column], Index]:
    from ember.frame.series import Series

    names = list(data) if columns is None else list(columns)
    lengths, built, scalars = set(), {}, {}
    series_index = None
    for k in names:
        v = data[k] if k in data else np.nan
        if v is None or np.isscalar(v) or isinstance(v, (pd.Timestamp, pd.Timedelta)):
            scalars[k] = v
            continue
        if isinstance(v, Series) and series_index is None:
            series_index = v.index
        col = v.column if isinstance(v, Series) else from_any(v, xp, k)
        lengths.add(len(col))
        built[k] = col
    if len(lengths) > 1:
        raise ValueError("All arrays must be of the same length")
    if not built and index is None and scalars:
        raise ValueError("If using all scalar values, you must pass an index")
    if index is not None:
        idx = ensure_index(index)
        if lengths and lengths != {len(idx)}:
            raise ValueError(
                f"Length of values ({lengths.pop()}) does not match length of index ({len(idx)})"
            )
    else:
        idx = series_index if series_index is not None else RangeIndex(lengths.pop() if lengths else 0)
    n = len(idx)
    cols = {k: built[k] if k in built else from_scalar(scalars[k], n, xp, k) for k in names}
    return cols, idx


def from_pandas_any(obj: Any) -> Any:
    from ember.frame.dataframe import DataFrame
    from ember.frame.series import Series

    if isinstance(obj, pd.DataFrame):
        return DataFrame(obj)
    if isinstance(obj, pd.Series):
        return Series(obj)
    if isinstance(obj, pd.Index):
        return index_from_pandas(obj)
    raise TypeError(f"from_pandas expects a pandas DataFrame, Series or Index, got {type(obj).__name__}")
