"""``crosstab``: counts (or an aggregate) of each pair of keys, spread as ``pivot_table`` spreads them;
normalized proportions with or without the All margins."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember.column import CategoricalColumn, Column, NumericColumn, StringColumn
from ember.frame._fallback import unsupported
from ember.frame.dataframe import DataFrame
from ember.frame.index import MultiIndex
from ember.frame.pivot_table import pivot_table
from ember.frame.series import Series


def _key_list(obj: Any) -> list:
    """The keys of one axis: a list of array-likes (pandas' is_nested_list_like), or one key."""
    from pandas.api.types import is_list_like

    if isinstance(obj, (list, tuple)) and len(obj) and all(is_list_like(x) for x in obj):
        return list(obj)
    return [obj]


def _as_series(obj: Any, what: str) -> Series:
    """An ember Series of a key or values: ember and pandas Series as they are (labels kept for the
    alignment check), arrays and lists as a Series of their values."""
    import pandas as pd

    from ember.frame.convert import from_pandas
    from ember.frame.index import Index

    if isinstance(obj, Series):
        return obj
    if isinstance(obj, pd.Series):
        return from_pandas(obj)
    if isinstance(obj, (pd.Categorical, pd.DataFrame, pd.Index, Index)) or getattr(obj, "ndim", 1) != 1:
        raise unsupported("crosstab", f"{type(obj).__name__} {what} (pass Series, 1-D arrays or lists)")
    return Series(obj)


def _names(keys: list, names: Any, prefix: str) -> list:
    """pandas' _get_names: given names (as many as keys), else each Series' name or prefix_i."""
    if names is None:
        return [
            k.name if isinstance(k, Series) and k.name is not None else f"{prefix}_{i}"
            for i, k in enumerate(keys)
        ]
    if len(names) != len(keys):
        raise AssertionError("arrays and names must have the same length")
    return list(names)


def _aligned_columns(keys: list, values: Any) -> tuple[list[Column], Any]:
    """The key columns (and the values column) by position: pandas aligns Series on their common
    labels, so Series on different labels are refused; arrays must have the Series' length."""
    import pandas as pd

    from ember.frame.alignment import indexes_equal
    from ember.frame.index import RangeIndex

    series = [_as_series(k, "keys") for k in keys]
    vals = None if values is None else _as_series(values, "values")
    labelled = [s for s, k in zip(series, keys, strict=True) if isinstance(k, (Series, pd.Series))]
    common = labelled[0].index if labelled else RangeIndex(len(series[0]))
    others = labelled[1:] + ([vals] if isinstance(values, (Series, pd.Series)) else [])
    if any(not indexes_equal(common, s.index) for s in others):
        raise unsupported("crosstab", "Series on different labels (pandas aligns them)")
    n = len(common)
    if any(len(s) != n for s in series) or (vals is not None and len(vals) != n):
        raise ValueError("crosstab: all keys must have the same length")
    return [s.column for s in series], None if vals is None else vals.column


def _other_string_dtype(col: Column) -> bool:
    """A string column of a dtype other than object and the default 'str' (pivot_table's margins
    give the axes the default 'str' dtype there, pandas keeps theirs)."""
    import pandas as pd

    return isinstance(col, StringColumn) and col.pd_dtype not in (
        np.dtype(object),
        pd.StringDtype(na_value=np.nan),
    )


def crosstab(
    index: Any,
    columns: Any,
    values: Any = None,
    rownames: Any = None,
    colnames: Any = None,
    aggfunc: Any = None,
    margins: bool = False,
    margins_name: str = "All",
    dropna: bool = True,
    normalize: Any = False,
) -> DataFrame:
    """``pd.crosstab`` of ember Series, arrays or lists: counts of each (index key, columns key) pair
    (int64, zeros where a pair never occurs), or ``aggfunc`` of ``values`` per pair; rows with a
    missing key are dropped (their own key with ``dropna=False``). ``rownames`` / ``colnames`` name
    the axes (default: the Series' names, else row_i / col_i). ``normalize``: True/'all', 'index' or
    'columns' proportions."""
    if (values is None) != (aggfunc is None):
        raise ValueError(
            "aggfunc cannot be used without values."
            if values is None
            else "values cannot be used without an aggfunc."
        )
    if margins and not (aggfunc is None or isinstance(aggfunc, str)):
        raise unsupported("crosstab", "margins=True with a non-string aggfunc")
    if margins and normalize is not False and values is not None:
        raise unsupported("crosstab", "margins=True with normalize= and values=")
    rkeys, ckeys = _key_list(index), _key_list(columns)
    rnames, cnames = _names(rkeys, rownames, "row"), _names(ckeys, colnames, "col")
    cols, value_col = _aligned_columns(rkeys + ckeys, values)
    if not dropna and any(isinstance(c, CategoricalColumn) for c in cols):
        raise unsupported("crosstab", "dropna=False with categorical keys (pandas keeps unobserved ones)")
    rcols, ccols = cols[: len(rkeys)], cols[len(rkeys) :]
    if margins and any(_other_string_dtype(c) for c in cols):
        raise unsupported("crosstab", "margins=True with keys of a string dtype other than 'str' and object")
    n = len(rcols[0])
    if not n:  # pandas' empty table carries the keys' dtypes in its axes
        raise unsupported("crosstab", "keys without rows")
    data = {f"__r{i}": c for i, c in enumerate(rcols)} | {f"__c{i}": c for i, c in enumerate(ccols)}
    if values is None:
        data["__v"] = NumericColumn(rcols[0].xp.zeros(n, dtype=np.int64))
        func, fill = "size", 0
    else:
        data["__v"] = value_col.to(rcols[0].xp)
        func, fill = aggfunc, None
    frame = DataFrame._from_columns(data)
    keys = list(data)
    table = pivot_table(
        frame,
        values="__v",
        index=keys[: len(rcols)],
        columns=keys[len(rcols) : len(rcols) + len(ccols)],
        aggfunc=("count" if func == "size" else func) if margins else func,  # no NaN in the count column
        fill_value=fill,
        margins=margins,
        margins_name=margins_name,
        dropna=dropna,
    )
    idx = table.index
    idx = idx.rename(rnames) if isinstance(idx, MultiIndex) else idx.rename(rnames[0])
    table = DataFrame._from_columns(table._columns, idx, tuple(cnames), table._kind)
    if normalize is not False:
        table = _normalize_with_margins(table, normalize) if margins else _normalize(table, normalize)
    return table


def _normalize_kind(normalize: Any) -> str:
    """crosstab's ``normalize`` as 'all', 'index' or 'columns' (True is 'all'; 0 and 1 the axes: 1
    equals True in Python, so the axes are told apart first)."""
    if normalize is True or normalize == "all":
        return "all"
    if isinstance(normalize, str) or isinstance(normalize, (int, np.integer)):
        named = {"index": "index", "columns": "columns", 0: "index", 1: "columns"}
        if not isinstance(normalize, bool) and normalize in named:
            return named[normalize]
    raise ValueError("Not a valid normalize argument")


def _normalize_with_margins(table: DataFrame, normalize: Any) -> DataFrame:
    """Proportions of a crosstab with its All row (last) and column (last), as pandas: of the grand
    total; of each row's total (the All column dropped); of each column's total (the All row dropped)."""
    from ember.ops.unary import astype

    cols = [astype(c, np.float64) for c in table._columns.values()]
    xp = cols[0].xp
    mat = xp.stack([c.data for c in cols], axis=1)
    labels, index = list(table._names), table.index
    kind = _normalize_kind(normalize)
    if kind == "all":
        mat = mat / mat[-1, -1]
    elif kind == "index":
        mat, labels = mat[:, :-1] / mat[:, -1:], labels[:-1]
    else:
        mat, index = mat[:-1] / mat[-1:], index.take(xp.arange(len(index) - 1, dtype=np.int64))
    out = {k: NumericColumn(xp.ascontiguousarray(mat[:, j])) for j, k in enumerate(labels)}
    return DataFrame._from_columns(out, index, table._axis_names, table._kind_for(out))


def _normalize(table: DataFrame, normalize: Any) -> DataFrame:
    """Proportions of the crosstab's cells: of the grand total, of each row, or of each column."""
    from ember.ops.unary import astype

    cols = {k: astype(c, np.float64) for k, c in table._columns.items()}
    if not cols:
        return table
    xp = next(iter(cols.values())).xp
    mat = xp.stack([c.data for c in cols.values()], axis=1)
    kind = _normalize_kind(normalize)
    if kind == "all":
        mat = mat / mat.sum()
    elif kind == "index":
        mat = mat / mat.sum(axis=1, keepdims=True)
    else:
        mat = mat / mat.sum(axis=0, keepdims=True)
    out = {k: NumericColumn(xp.ascontiguousarray(mat[:, j])) for j, k in enumerate(cols)}
    return table._with_columns(out)
