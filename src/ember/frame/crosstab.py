"""``crosstab``: counts (or an aggregate) of each pair of keys, spread as ``pivot_table`` spreads them;
normalized proportions with or without the All margins."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember.column import Column, NumericColumn, from_any
from ember.frame._fallback import unsupported
from ember.frame.dataframe import DataFrame
from ember.frame.index import MultiIndex
from ember.frame.pivot_table import pivot_table
from ember.frame.series import Series


def _series_list(obj: Any, default: str) -> tuple[list[Column], list]:
    items = obj if isinstance(obj, (list, tuple)) else [obj]
    cols, names = [], []
    for i, s in enumerate(items):
        if not isinstance(s, Series):
            raise unsupported("crosstab", f"{type(s).__name__} keys (pass ember Series)")
        cols.append(s.column)
        names.append(s.name if s.name is not None else f"{default}_{i}")
    return cols, names


def crosstab(
    index: Any,
    columns: Any,
    values: Any = None,
    aggfunc: Any = None,
    margins: bool = False,
    normalize: Any = False,
) -> DataFrame:
    """``pd.crosstab`` of ember Series: counts of each (index key, columns key) pair (int64, zeros
    where a pair never occurs), or ``aggfunc`` of ``values`` per pair; rows with a missing key are
    dropped. ``normalize``: True/'all', 'index' or 'columns' proportions."""
    if margins and not (aggfunc is None or isinstance(aggfunc, str)):
        raise unsupported("crosstab", "margins=True with a non-string aggfunc")
    if margins and normalize is not False and values is not None:
        raise unsupported("crosstab", "margins=True with normalize= and values=")
    if (values is None) != (aggfunc is None):
        raise ValueError(
            "aggfunc cannot be used without values."
            if values is None
            else "values cannot be used without an aggfunc."
        )
    rcols, rnames = _series_list(index, "row")
    ccols, cnames = _series_list(columns, "col")
    n = len(rcols[0])
    if any(len(c) != n for c in rcols + ccols):
        raise ValueError("crosstab: all keys must have the same length")
    data = {f"__r{i}": c for i, c in enumerate(rcols)} | {f"__c{i}": c for i, c in enumerate(ccols)}
    if values is None:
        data["__v"] = NumericColumn(rcols[0].xp.zeros(n, dtype=np.int64))
        func, fill = "size", 0
    else:
        data["__v"] = values.column if isinstance(values, Series) else from_any(values, rcols[0].xp)
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
    )
    idx = table.index
    idx = idx.rename(rnames) if isinstance(idx, MultiIndex) else idx.rename(rnames[0])
    table = DataFrame._from_columns(table._columns, idx, tuple(cnames))
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
    return DataFrame._from_columns(out, index, table._axis_names)


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
