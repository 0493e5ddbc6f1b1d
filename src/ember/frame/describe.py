"""describe(): count, mean, std, min, percentiles, max of numeric columns, from ops reductions.

Each statistic is reduced over all columns at once (one device->host transfer per statistic, not per
column); quantiles take one sort per column. The summary of string/boolean columns (count, unique, top,
freq) mixes numbers and labels in one object Series, which ember cannot hold: it raises (or runs through
pandas with the opt-in fallback).
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


def describe_series(series: Any, percentiles: Any = None) -> Any:
    from ember.frame.series import Series

    if not _describable(series.column):
        raise unsupported("Series.describe", f"a {series.dtype} column (its summary is an object Series)")
    qs, labels = _labels(percentiles)
    index = ["count", "mean", "std", "min", *labels, "max"]
    values = _stats([series.column], qs)[0]
    dtype = _stats_dtype(series.column)
    return Series(pd.Series(values, index=index, name=series.name, dtype=dtype))


def describe_frame(frame: Any, percentiles: Any = None, include: Any = None, exclude: Any = None) -> Any:
    from ember.column import DatetimeColumn, TimedeltaColumn
    from ember.frame.dataframe import DataFrame

    if include is not None or exclude is not None:
        if not (_numbers_only(include) and exclude is None):
            raise unsupported("DataFrame.describe", "include= / exclude= other than the numbers (np.number)")
        frame = frame.select_dtypes(include=[np.number])  # pandas: datetimes and bools are left out
    if any(isinstance(c, (DatetimeColumn, TimedeltaColumn)) for c in frame._columns.values()):
        # pandas describes them beside the numbers (its rows then end with std), each in an object
        # column of a count and timestamps: leaving them out would be a different frame
        raise unsupported(
            "DataFrame.describe",
            "datetime or timedelta columns (pandas summarizes them in object columns); "
            "describe the numeric columns alone, e.g. df.select_dtypes('number').describe()",
        )
    names = [k for k, c in frame._columns.items() if _describable(c)]
    if not names:
        raise unsupported(
            "DataFrame.describe", "a frame without numeric columns (its summary is an object frame)"
        )
    qs, labels = _labels(percentiles)
    index = ["count", "mean", "std", "min", *labels, "max"]
    cols = [frame._columns[k] for k in names]
    stats = _stats(cols, qs)
    table = {k: pd.Series(v, index=index, dtype=_stats_dtype(c)) for k, v, c in zip(names, stats, cols)}
    return DataFrame(pd.DataFrame(table, index=index))


def _numbers_only(include: Any) -> bool:
    """``include`` naming the numbers alone: np.number / "number", or a list of just that."""
    items = include if isinstance(include, (list, tuple)) else [include]
    return len(items) == 1 and (items[0] is np.number or items[0] == "number")
