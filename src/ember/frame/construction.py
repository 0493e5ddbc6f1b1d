"""Building a DataFrame's columns and index from what users pass: dicts, pandas, Arrow, arrays, rows.

What a user passes is copied (pandas 3 copies on construction): a column never shares memory with an
array or pandas object the caller may change afterwards (``from_any``'s ``copy``). Column labels go
through ``frame_labels.unique_labels``: an ember frame holds a mapping of columns, so pandas' duplicate
column labels are refused, never collapsed into one column.
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np
import pandas as pd

from ember.backend import xp as current_xp
from ember.column import Column, from_any, from_arrow, from_pandas, from_scalar
from ember.column.convert import empty_object
from ember.frame._fallback import unsupported
from ember.frame.frame_labels import RANGE_KIND, axis_kind, labelled, unique_labels
from ember.frame.index import Index, RangeIndex, ensure_index, index_from_pandas

# ids of the columns that share a user's NumPy array through ``copy=False``: pandas writes a setitem
# on them through to the array, which ember's immutable columns cannot do
_BORROWED: set[int] = set()


def borrowed_column(col: Column, array: Any) -> Column:
    """Marks ``col`` as sharing ``array``'s memory (``copy=False``) where it does."""
    data = getattr(col, "data", None)
    if isinstance(array, np.ndarray) and isinstance(data, np.ndarray) and np.shares_memory(data, array):
        _BORROWED.add(id(col))
        weakref.finalize(col, _BORROWED.discard, id(col))
    return col


def refuse_write_through(col: Column, method: str) -> None:
    """Setting values in a column built with ``copy=False`` on a user's array: pandas writes them into
    the array, ember would leave the array unchanged, so this raises NotImplementedError."""
    if id(col) in _BORROWED:
        raise unsupported(
            method,
            "setting values in data built with copy=False on a NumPy array (pandas writes them through "
            "to the array; ember's columns are immutable, so the array would stay unchanged); build "
            "with copy=True or set the array's values",
        )


def build_frame(
    data: Any, index: Any, columns: Any, copy: Any = None
) -> tuple[dict[Any, Column], Index, pd.Index | None]:
    """The columns, index and column axis' kind (``frame_labels.axis_kind``) of ``DataFrame(data,
    index, columns)``. ``copy=False`` shares the memory of a dict's NumPy arrays on the CPU, as pandas
    (refused on the GPU and for a 2-D array, whose columns ember cannot hold as they are)."""
    from ember.frame.series import Series

    xp = current_xp()
    if columns is not None and not isinstance(columns, (pd.Index, Index, np.ndarray, range)):
        columns = list(columns)
    index = levels_as_multiindex(index)
    cols, idx, kind = _build(data, index, columns, copy, xp)
    if columns is not None and not isinstance(data, pd.DataFrame):
        kind = _kind_of_columns(columns)  # pandas: the columns' Index (a list's type inferred)
    elif isinstance(data, (Series, pd.Series)) and data.name is None:
        kind = RANGE_KIND  # one column labelled 0: pandas' RangeIndex
    return cols, idx, kind


def levels_as_multiindex(index: Any) -> Any:
    """``index=`` as pandas reads it: a list whose items are all arrays (lists, NumPy arrays, Series,
    Index) names the levels of a MultiIndex (pandas' ``ensure_index``); anything else is unchanged."""
    from ember.frame.index import MultiIndex
    from ember.frame.series import Series

    arraylike = (list, np.ndarray, pd.Series, pd.Index, Series, Index)
    if type(index) is list and index and all(isinstance(a, arraylike) for a in index):
        return MultiIndex.from_arrays(index)
    return index


def _kind_of_columns(columns: Any) -> pd.Index | None:
    if isinstance(columns, Index):
        columns = columns.to_pandas()
    if isinstance(columns, np.ndarray):
        columns = pd.Index(columns)
    return axis_kind(columns)


def _build(data: Any, index: Any, columns: Any, copy: Any, xp: Any) -> tuple:
    from ember.frame.dataframe import DataFrame
    from ember.frame.series import Series

    if columns is not None:
        columns = unique_labels(columns, "DataFrame")
    if data is None:
        names = [] if columns is None else columns
        idx = ensure_index(index)
        return {k: _missing_objects(len(idx), xp) for k in names}, idx, RANGE_KIND
    if isinstance(data, DataFrame):  # pandas reindexes the rows and columns asked for
        frame = data if index is None else data.reindex(index=_host_labels(index))
        frame = frame if columns is None else frame.reindex(columns=columns)
        return dict(frame._columns), frame._index, frame._kind
    if isinstance(data, pd.DataFrame):
        if index is not None or columns is not None:
            data = pd.DataFrame(data, index=_host_labels(index), columns=columns)
        return _from_pandas_frame(data, None, copy=True)
    if isinstance(data, (Series, pd.Series)):  # pandas: a named Series is {name: Series}
        if data.name is not None:
            return _from_dict({data.name: data}, index, columns, xp)
        if columns is not None and len(columns) != 1:
            raise ValueError(
                f"Shape of passed values is ({len(data)}, 1), indices imply ({len(data)}, {len(columns)})"
            )
        return _from_dict({0 if columns is None else columns[0]: data}, index, None, xp)
    if isinstance(data, dict):
        return _from_dict(data, index, columns, xp, copy)
    import pyarrow as pa

    if isinstance(data, (pa.Table, pa.RecordBatch)):
        names = unique_labels(data.column_names, "DataFrame")
        cols = labelled(names, [from_arrow(data.column(i), xp) for i in range(len(names))], "DataFrame")
        return cols, ensure_index(index, data.num_rows), None
    # lists of rows, 2-D arrays: pandas parses the layout on the host (copying arrays and lists into
    # new blocks, so no second copy here), then the columns move over
    if copy is False and isinstance(data, np.ndarray):
        raise unsupported(
            "DataFrame", "copy=False with a 2-D NumPy array (ember stores each column in memory of its own)"
        )
    fresh = isinstance(data, (list, tuple, range, np.ndarray))
    frame = pd.DataFrame(data, columns=columns)  # an object column ember cannot hold raises Unsupported
    return _from_pandas_frame(frame, index, copy=not fresh)


def _host_labels(index: Any) -> Any:
    """``index=`` as pandas takes it (an ember Index as a pandas one)."""
    return index.to_pandas() if isinstance(index, Index) else index


def _missing_objects(n: int, xp: Any) -> Column:
    """A column pandas fills for a label named in ``columns`` without data: NaN of dtype object."""
    return empty_object(xp, n)


def _from_pandas_frame(frame: pd.DataFrame, index: Any, copy: bool) -> tuple:
    """``copy``: the frame is the caller's (ember's columns must not share its arrays), else a
    temporary whose arrays the columns may keep."""
    names = unique_labels(frame.columns, "DataFrame")
    xp = current_xp()
    cols = {name: from_pandas(frame.iloc[:, i], xp, name, copy=copy) for i, name in enumerate(names)}
    idx = index_from_pandas(frame.index) if index is None else ensure_index(index, len(frame))
    return cols, idx, axis_kind(frame.columns)


def _from_dict(data: dict, index: Any, columns: Any, xp: Any, copy: Any = None) -> tuple:
    """As pandas: Series (ember or pandas) align on the union of their indexes (or on ``index=``),
    dicts are {row label: value}; arrays and lists must be as long as the index; scalars broadcast;
    a name in ``columns`` the dict lacks is a column of NaN objects."""
    from ember.frame.series import Series

    names = unique_labels(data, "DataFrame") if columns is None else columns
    values = {k: data[k] for k in names if k in data}
    if any(isinstance(v, dict) for v in values.values()):  # {row label: value}: laid out by pandas
        host = {k: v.to_pandas() if isinstance(v, Series) else v for k, v in values.items()}
        frame = pd.DataFrame(host, index=_host_labels(index), columns=names)
        return _from_pandas_frame(frame, None, copy=True)
    series = {k: v if isinstance(v, Series) else Series(v) for k, v in values.items() if _is_series(v)}
    built, scalars = {}, {}
    for k, v in values.items():
        if k in series:
            continue
        if pd.api.types.is_scalar(v):
            scalars[k] = v
        elif isinstance(v, (list, tuple, range)) and len(v) == 0:
            empty = np.arange(0) if isinstance(v, range) else np.zeros(0)
            built[k] = from_any(empty, xp, k)  # pandas: float64 (int64 for a range), not object
        else:
            if copy is False and isinstance(v, np.ndarray) and xp is not np:
                raise unsupported(
                    "DataFrame",
                    "copy=False with NumPy arrays on the GPU (the values move to the device, so the "
                    "frame cannot share the arrays' memory as pandas does; pass copy=True, the default)",
                )
            built[k] = from_any(v, xp, k, copy=copy is not False)
            if copy is False:
                borrowed_column(built[k], v)
    lengths = {len(c) for c in built.values()}
    if len(lengths) > 1:
        raise ValueError("All arrays must be of the same length")
    if index is not None:
        idx = ensure_index(index)
        if lengths and lengths != {len(idx)}:
            raise ValueError(
                f"Length of values ({lengths.pop()}) does not match length of index ({len(idx)})"
            )
    elif series:
        idx = _union_index([s.index for s in series.values()])
        if lengths and lengths != {len(idx)}:
            raise ValueError(f"array length {lengths.pop()} does not match index length {len(idx)}")
    elif built:
        idx = RangeIndex(lengths.pop())
    elif scalars:
        raise ValueError("If using all scalar values, you must pass an index")
    else:
        idx = RangeIndex(0)
    for k, s in series.items():
        built[k] = _aligned(s, idx)
    n = len(idx)
    cols = {}
    for k in names:
        if k in built:
            cols[k] = built[k]
        elif k in scalars:
            cols[k] = from_scalar(scalars[k], n, xp, k)
        else:
            cols[k] = _missing_objects(n, xp)
    # pandas: the keys' labels, a RangeIndex where they are integers (or none)
    kind = RANGE_KIND if all(type(k) is int for k in names) else None
    return cols, idx, kind


def _is_series(v: Any) -> bool:
    from ember.frame.series import Series

    return isinstance(v, (Series, pd.Series))


def _aligned(s: Any, index: Index) -> Column:
    """The column of Series ``s`` on the rows of ``index`` (missing where ``s`` lacks a label)."""
    from ember.frame.alignment import indexes_equal

    if indexes_equal(s.index, index):
        return s.column
    if not s.index.to_pandas().is_unique:
        raise ValueError("cannot reindex on an axis with duplicate labels")
    return s.reindex(index).column


def _union_index(indexes: list[Index]) -> Index:
    """pandas' index of a frame built from Series: their common index when they all have the same
    labels and names, else pandas' union of the labels (sorted where they sort)."""
    from ember.frame.alignment import indexes_equal

    first = indexes[0]
    if all(indexes_equal(i, first) for i in indexes[1:]):
        names = {tuple(i.names) for i in indexes}
        if len(names) == 1:
            return first
    # pandas' own union (its order, names and errors), from stand-ins on the host labels
    stand_ins = {
        i: pd.Series(np.zeros(len(ix), np.int8), index=ix.to_pandas()) for i, ix in enumerate(indexes)
    }
    return ensure_index(pd.DataFrame(stand_ins).index)


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
