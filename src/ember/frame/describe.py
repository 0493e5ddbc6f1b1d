"""describe(): count, mean, std, min, percentiles, max of numeric columns, from ops reductions, and
count, unique, top, freq of categoricals of numbers; pandas' include= / exclude= selection and row order.

Each statistic is reduced over all columns at once (one device->host transfer per statistic, not per
column); quantiles take one sort per column. The summary of string / boolean / datetime columns and of
other categoricals mixes numbers and labels (or timestamps) in one object Series, which ember cannot
hold: it raises (or runs through pandas with the opt-in fallback).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.column import Column, NumericColumn
from ember.frame._fallback import unsupported

_MOMENTS = ("count", "mean", "std", "min", "max")


def _labels(percentiles: Any) -> tuple[list[float], list[str]]:
    """The quantiles and their row labels as pandas 3 makes them (the median is not added to a given
    list; labels from pandas' own formatter)."""
    from pandas.io.formats.format import format_percentiles

    if percentiles is None:
        qs = [0.25, 0.5, 0.75]
    else:
        qs = sorted({float(q) for q in np.atleast_1d(percentiles)})
        if any(not 0 <= q <= 1 for q in qs):
            raise ValueError("percentiles should all be in the interval [0, 1]")
    return qs, list(format_percentiles(qs))


def _describable(col: Column) -> bool:
    return isinstance(col, NumericColumn) and not col.is_bool


def _stats(cols: list[Column], qs: list[float]) -> list[list[float]]:
    """Per column: count, mean, std, min, the quantiles, max (as floats)."""
    from ember.ops.quantiles import quantile_many
    from ember.ops.reductions import reduce_many

    moments = {op: reduce_many(cols, op) for op in _MOMENTS}
    out = []
    for i, col in enumerate(cols):
        m = {op: moments[op][i] for op in _MOMENTS}
        row = [m["count"], m["mean"], m["std"], m["min"], *quantile_many(col, qs), m["max"]]
        out.append([np.nan if v is pd.NA or v is None else float(v) for v in row])
    return out


def _stats_dtype(col: Column) -> str:
    """pandas describes a masked column (Int64, Float64) as Float64, with <NA> where a figure is
    missing; a NumPy one as float64."""
    return "Float64" if getattr(col, "nullable", False) else "float64"


def _categorical_numbers(col: Column) -> bool:
    """A categorical of int / float categories: pandas' count / unique / top / freq then stay numbers."""
    from ember.column import CategoricalColumn

    return isinstance(col, CategoricalColumn) and col.categories.dtype.kind in "iuf"


def _describe_categorical(series: Any) -> pd.Series:
    """count, unique, top, freq of a categorical as pandas (value_counts' order gives top), int64 for
    int categories, float64 for float ones. Without any value pandas' top is NaN beside integer
    counts, an object Series ember cannot hold."""
    counts = series.value_counts().to_pandas()
    counts = counts[counts != 0]
    if counts.empty:
        raise unsupported(
            "describe", "a categorical without values (its summary mixes counts and NaN in an object Series)"
        )
    kind = series.column.categories.dtype.kind
    values = [int(counts.sum()), len(counts), counts.index[0], int(counts.iloc[0])]
    dtype = "float64" if kind == "f" else "int64"
    return pd.Series(values, index=["count", "unique", "top", "freq"], dtype=dtype, name=series.name)


def _describe_one(series: Any, qs: list[float], labels: list[str], where: str) -> pd.Series:
    """One column's summary (a small host Series), as pandas' describe_1d; refused where pandas'
    summary is an object Series of mixed values (strings, bools, datetimes, other categoricals)."""
    col = series.column
    if _describable(col):
        index = ["count", "mean", "std", "min", *labels, "max"]
        return pd.Series(_stats([col], qs)[0], index=index, dtype=_stats_dtype(col), name=series.name)
    if _categorical_numbers(col):
        return _describe_categorical(series)
    from ember.column import DatetimeColumn, TimedeltaColumn

    if isinstance(col, (DatetimeColumn, TimedeltaColumn)):
        raise unsupported(where, "datetime or timedelta columns (pandas summarizes them in object columns)")
    raise unsupported(where, f"a {series.dtype} column (its summary is an object Series of mixed values)")


def describe_series(series: Any, percentiles: Any = None) -> Any:
    from ember.frame.series import Series

    qs, labels = _labels(percentiles)
    return Series(_describe_one(series, qs, labels, "Series.describe"))


def describe_frame(frame: Any, percentiles: Any = None, include: Any = None, exclude: Any = None) -> Any:
    from ember.frame.dataframe import DataFrame

    if len(frame.columns) == 0:
        raise ValueError("Cannot describe a DataFrame without columns")
    data = _selected(frame, include, exclude)
    if len(data.columns) == 0:
        raise ValueError("No columns match the specified include or exclude data types")
    qs, labels = _labels(percentiles)
    parts = [_describe_one(data[k], qs, labels, "DataFrame.describe") for k in data._names]
    rows = _row_order([p.index for p in parts])
    table = {k: _reindexed(p, rows) for k, p in zip(data._names, parts)}
    return DataFrame(pd.DataFrame(table, index=rows))


def _selected(frame: Any, include: Any, exclude: Any) -> Any:
    """The columns pandas describes: numbers and datetimes by default (all columns when there are
    none), every column for include='all', else select_dtypes(include, exclude)."""
    if include is None and exclude is None:
        data = frame.select_dtypes(include=[np.number, "datetime"])
        return frame if len(data.columns) == 0 else data
    if isinstance(include, str) and include == "all":
        if exclude is not None:
            raise ValueError("exclude must be None when include is 'all'")
        return frame
    return frame.select_dtypes(include=include, exclude=exclude)


def _row_order(indexes: list) -> list:
    """pandas' reorder_columns: row labels of the shortest summaries first, in their order."""
    names: list = []
    for idx in sorted(indexes, key=len):
        names.extend(n for n in idx if n not in names)
    return names


def _reindexed(part: pd.Series, rows: list) -> pd.Series:
    """A column's summary on all rows: missing rows are NaN (an int64 summary becomes float64)."""
    if list(part.index) == rows:
        return part
    out = part.reindex(rows)
    return out.astype("float64") if part.dtype == np.int64 else out
