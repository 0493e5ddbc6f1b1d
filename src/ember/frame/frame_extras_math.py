"""The numeric work behind ``FrameExtras`` / ``SeriesExtras``: matrix products (``dot`` / ``@``) and
skewness / kurtosis (``skew`` / ``kurt``), on 2-D arrays of the columns' module (the device on a GPU).

Only plain numeric columns (int, float, no missing-value mask on an int) take part in a product; bool,
masked (Int64 ...) and other columns are refused. Skewness / kurtosis follow pandas' bias-corrected
formulas over the central moments; a constant set of values is NaN in pandas 3.1 and 0 in pandas 3.0.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember._compat import PANDAS_31
from ember.backend import to_host
from ember.column import Column, NumericColumn
from ember.frame._fallback import unsupported
from ember.ops.object_missing import as_floats, is_missing_objects, objects_of_nan


# --- dot --------------------------------------------------------------------------------------------
def _plain(col: Column, method: str) -> Any:
    """The values of a plain int / float column (a float column's NaN are values for a product)."""
    ok = isinstance(col, NumericColumn) and not col.nullable and col.data.dtype.kind in "iuf"
    if not ok or (col.mask is not None and col.data.dtype.kind != "f"):
        raise unsupported(method, f"a column of dtype {col.dtype} (plain int / float columns only)")
    return col.data if col.mask is None else col.to_numpy()


def _matrix(cols: list[Column], method: str, xp: Any) -> Any:
    """The columns side by side as a 2-D array of their common dtype."""
    arrays = [xp.asarray(_plain(c, method)) for c in cols]
    if not arrays:
        return xp.empty((0, 0))
    dtype = np.result_type(*(a.dtype for a in arrays))
    return xp.stack([a.astype(dtype, copy=False) for a in arrays], axis=1)


def _aligned_positions(left: pd.Index, right: pd.Index) -> tuple[Any, Any]:
    """pandas' alignment of a product: the union of both label sets must be each of them; returns the
    positions ordering both sides by that union (None where already in order)."""
    if not (left.is_unique and right.is_unique):
        raise unsupported("dot", "duplicate labels on the aligned axis")
    common = left.union(right)
    if len(common) > len(left) or len(common) > len(right):
        raise ValueError("matrices are not aligned")
    lpos, rpos = left.get_indexer(common), right.get_indexer(common)
    same = np.arange(len(common))
    return (None if (lpos == same).all() else lpos), (None if (rpos == same).all() else rpos)


def _rows(mat: Any, positions: Any, xp: Any, axis: int = 0) -> Any:
    if positions is None:
        return mat
    return xp.take(mat, xp.asarray(positions), axis=axis)


def _common_dtype(dtypes: list) -> Any:
    from pandas.core.dtypes.cast import find_common_type

    return find_common_type(dtypes)


def frame_dot(df: Any, other: Any) -> Any:
    from ember.frame.dataframe import DataFrame
    from ember.frame.frame_labels import RANGE_KIND
    from ember.frame.series import Series

    xp = _xp(df)
    left = _matrix(list(df._columns.values()), "DataFrame.dot", xp)
    if isinstance(other, (DataFrame, Series)):
        lpos, rpos = _aligned_positions(df.columns, other.index.to_pandas())
        left = _rows(left, lpos, xp, axis=1)
        ocols = list(other._columns.values()) if isinstance(other, DataFrame) else [other._column]
        right = _rows(_matrix(ocols, "DataFrame.dot", xp), rpos, xp)
        dtypes = list(df.dtypes) + (list(other.dtypes) if isinstance(other, DataFrame) else [other.dtype])
        out = (left @ right).astype(_common_dtype(dtypes), copy=False)
        if isinstance(other, Series):
            return Series._from_column(NumericColumn(out[:, 0]), df._index)
        cols = {k: NumericColumn(out[:, i]) for i, k in enumerate(other._names)}
        return DataFrame._from_columns(cols, df._index, other._axis_names, other._kind)
    right = xp.asarray(_host_array(other))
    if left.shape[1] != right.shape[0]:
        raise ValueError(f"Dot product shape mismatch, {left.shape} vs {right.shape}")
    out = left @ right
    if out.ndim == 1:
        return Series._from_column(NumericColumn(out), df._index)
    cols = {i: NumericColumn(out[:, i]) for i in range(out.shape[1])}
    return DataFrame._from_columns(cols, df._index, kind=RANGE_KIND)


def series_dot(s: Any, other: Any) -> Any:
    from ember.frame.dataframe import DataFrame
    from ember.frame.series import Series

    xp = s._column.xp
    left = xp.asarray(_plain(s._column, "Series.dot"))
    if isinstance(other, (DataFrame, Series)):
        lpos, rpos = _aligned_positions(s.index.to_pandas(), other.index.to_pandas())
        left = _rows(left, lpos, xp)
        if isinstance(other, Series):
            right = _rows(xp.asarray(_plain(other._column, "Series.dot")), rpos, xp)
            return _host_scalar(left @ right)
        right = _rows(_matrix(list(other._columns.values()), "Series.dot", xp), rpos, xp)
        out = (left @ right).astype(_common_dtype([s.dtype, *other.dtypes]), copy=False)
        from ember.frame.index import Index

        return Series._from_column(NumericColumn(out), Index(other.columns))
    right = _host_array(other)
    if left.shape[0] != right.shape[0]:
        raise Exception(f"Dot product shape mismatch, {left.shape} vs {right.shape}")
    out = left @ xp.asarray(right)
    return to_host(out) if out.ndim else _host_scalar(out)


def _host_array(other: Any) -> Any:
    """An array operand: a NumPy / CuPy array of numbers (lists as pandas' np.asarray)."""
    arr = other if hasattr(other, "__cuda_array_interface__") else np.asarray(other)
    if arr.dtype.kind not in "iuf":
        raise unsupported("dot", f"an array of dtype {arr.dtype} (int / float arrays only)")
    return arr


def _host_scalar(v: Any) -> Any:
    """A 0-d result as pandas' NumPy scalar (one device->host transfer)."""
    h = to_host(v.reshape(1))
    return h[0]


def _xp(df: Any) -> Any:
    from ember.backend import xp as current_xp

    cols = list(df._columns.values())
    return cols[0].xp if cols else current_xp()


# --- skew / kurt ------------------------------------------------------------------------------------
def moments(values: Any, valid: Any, axis: Any, op: str, skipna: bool, xp: Any) -> Any:
    """pandas' bias-corrected skewness (``op='skew'``) or excess kurtosis (``'kurt'``) of float64
    ``values`` along ``axis`` (None: all of them); ``valid``: where values are present. NaN below 3
    (4) values, where ``skipna=False`` meets a missing value, and for constant values (pandas 3.0: 0)."""
    present = ~xp.isnan(values) if valid is None else valid & ~xp.isnan(values)
    if PANDAS_31:  # about the least value: deviations of nearly equal values stay exact
        values = values - _least(values, present, axis, xp)
    x = xp.where(present, values, 0.0)
    n = present.sum(axis=axis).astype(np.float64)
    mean = x.sum(axis=axis) / xp.maximum(n, 1.0)
    dev = xp.where(present, x - (mean if axis is None else xp.expand_dims(mean, axis)), 0.0)
    d2 = dev * dev
    m2 = d2.sum(axis=axis)
    high = (d2 * dev if op == "skew" else d2 * d2).sum(axis=axis)
    # equal values: pandas 3.1's online update (its m2 exactly 0); pandas 3.0's tolerance for
    # rounding noise, (eps * max|x|)^2 * n
    scale = _abs_max(x, axis, xp) * np.finfo(np.float64).eps
    constant = _all_equal(values, present, axis, xp) if PANDAS_31 else m2 <= scale * scale * n
    with np.errstate(all="ignore"):
        out = _moment_formula(op, n, m2, high, scale, xp)
    out = xp.where(constant, np.nan if PANDAS_31 else 0.0, out)
    out = xp.where(n < (3 if op == "skew" else 4), np.nan, out)
    if not skipna:
        out = xp.where((~present).any(axis=axis), np.nan, out)
    return out


def _moment_formula(op: str, n: Any, m2: Any, high: Any, scale: Any, xp: Any) -> Any:
    """The bias-corrected statistic from the central sums, in the order of operations pandas uses
    (pandas 3.1's ``calc_skew`` / ``calc_kurt``; pandas 3.0's nanops, which also zeroes a third or
    fourth moment within rounding noise), so that equal sums give equal results."""
    if PANDAS_31:
        if op == "skew":
            return (high / (m2 * xp.sqrt(m2))) * ((n * xp.sqrt(n - 1.0)) / (n - 2.0))
        inner = n * (n + 1.0) * (high / (m2 * m2)) - 3.0 * (n - 1.0)
        return ((n - 1.0) / ((n - 2.0) * (n - 3.0))) * inner
    power = 3 if op == "skew" else 4
    high = xp.where(xp.abs(high) <= scale**power * n, 0.0, high)
    if op == "skew":
        return (n * (n - 1) ** 0.5 / (n - 2)) * (high / m2**1.5)
    adj = 3 * (n - 1) ** 2 / ((n - 2) * (n - 3))
    return (n * (n + 1) * (n - 1) * high) / ((n - 2) * (n - 3) * m2**2) - adj


def _least(values: Any, present: Any, axis: Any, xp: Any) -> Any:
    """The least present value along ``axis`` (0 where none is, or it is not finite), shaped to
    broadcast against ``values``."""
    if not values.size:
        return 0.0
    low = xp.where(present, values, np.inf).min(axis=axis, keepdims=True)
    return xp.where(xp.isfinite(low), low, 0.0)


def _all_equal(values: Any, present: Any, axis: Any, xp: Any) -> Any:
    """Whether the present values along ``axis`` are all one value (True where none is present)."""
    if not values.size:
        shape = () if axis is None else tuple(d for i, d in enumerate(values.shape) if i != axis)
        return xp.ones(shape, dtype=bool)
    low = xp.where(present, values, np.inf).min(axis=axis)
    high = xp.where(present, values, -np.inf).max(axis=axis)
    return (low == high) | (low > high)


def _abs_max(x: Any, axis: Any, xp: Any) -> Any:
    """max |x| along ``axis`` (0 over no values)."""
    if x.size:
        return xp.abs(x).max(axis=axis)
    shape = () if axis is None else tuple(d for i, d in enumerate(x.shape) if i != axis)
    return xp.zeros(shape)


def column_moment(col: Column, op: str, skipna: bool, method: str) -> Any:
    """A column's skew / kurt as a 0-d array of its module (float64)."""
    values, valid = moment_values(col, method)
    return moments(values, valid, None, op, skipna, col.xp)


def moment_values(col: Column, method: str) -> tuple[Any, Any]:
    """(float64 values, where present or None) of a numeric or bool column; others raise pandas'
    TypeError."""
    if not isinstance(col, NumericColumn):
        raise TypeError(
            f"'{type(col).__name__}' with dtype {col.dtype} does not support operation '{method}'"
        )
    if col.dtype == object:
        raise unsupported(f"Series.{method}", "an object column of bools and missing values")
    valid = col.mask  # validity (True where present)
    return col.data.astype(np.float64), valid


def moment_scalar(col: Column, value: Any) -> Any:
    """A host skew / kurt value typed as pandas': the column's float dtype (float32 stays), else
    float64; pd.NA for a masked column's missing result."""
    v = float(value)
    if col.nullable and v != v:
        return pd.NA
    kind = col.data.dtype
    return (kind if kind.kind == "f" else np.dtype(np.float64)).type(v)


def moment_stats(df: Any, op: str, axis: Any, skipna: bool, numeric_only: bool) -> Any:
    """DataFrame.skew / kurt along ``axis`` (0: a Series by column, 1: by row, None: a scalar)."""
    from ember.column import is_numeric_column
    from ember.frame.frame_reductions import _masked_result_dtype, _reduction_series
    from ember.frame.series import Series

    names = [k for k, c in df._columns.items() if not numeric_only or is_numeric_column(c)]
    objects = [is_missing_objects(df._columns[k]) for k in names]  # pandas: float64 NaN, object result
    cols = [as_floats(df._columns[k], op) for k in names]
    for k, c in zip(names, cols):
        if not isinstance(c, NumericColumn):
            raise TypeError(f"Cannot perform reduction '{op}' with column {k!r} of dtype {c.dtype}")
        if c.dtype == object:
            raise unsupported(f"DataFrame.{op}", f"the object column {k!r} (bools and missing values)")
    xp = _xp(df)
    masked = any(c.nullable for c in cols)
    float32 = bool(cols) and all(c.data.dtype == np.float32 for c in cols)
    if axis is not None and axis not in (0, "index", 1, "columns"):
        raise ValueError(f"No axis named {axis} for object type DataFrame")
    if any(objects) and axis is not None:
        if masked or float32 or (axis in (1, "columns") and not all(objects)):
            raise unsupported(f"DataFrame.{op}", "object columns of missing values beside other columns")
        if axis in (1, "columns"):  # every row holds only missing objects: NaN objects
            return Series._from_column(objects_of_nan(len(df), xp), df._index)
    if axis is None or axis in (1, "columns"):
        if any(c.data.dtype.kind == "b" for c in cols):  # pandas: rows of object values
            raise unsupported(f"DataFrame.{op}", f"axis={axis!r} with bool columns (pandas' object rows)")
        if masked and axis is None:
            raise unsupported(f"DataFrame.{op}", "axis=None over masked (Int64, Float64 ...) columns")
        values, valid = _stacked(cols, len(df), xp, op)
        out = moments(values, valid, None if axis is None else 1, op, skipna, xp)
        if axis is None:
            v = to_host(out.reshape(1))[0]
            if not PANDAS_31 and v != v and _counted(values, valid, skipna) < (3 if op == "skew" else 4):
                return float("nan")  # pandas 3.0's nanops: Python's nan where too few values count
            return np.float32(v) if float32 else np.float64(v)
        if masked:
            return Series._from_column(NumericColumn(out, ~xp.isnan(out), True), df._index)
        return Series._from_column(NumericColumn(out.astype(np.float32) if float32 else out), df._index)
    outs = [column_moment(c, op, skipna, op) for c in cols]
    host = to_host(xp.stack(outs)).tolist() if outs else []
    values = [moment_scalar(c, v) for c, v in zip(cols, host)]
    dtype = _masked_result_dtype(values, cols, op) if masked else (object if any(objects) else None)
    return _reduction_series(values, names, dtype, df.columns[:0])


def _counted(values: Any, valid: Any, skipna: bool) -> int:
    """How many values a statistic over all of ``values`` counts (one sync)."""
    if not skipna:
        return int(values.size)
    present = values == values if valid is None else valid & (values == values)
    return int(present.sum())


def _stacked(cols: list[Column], n: int, xp: Any, op: str) -> tuple[Any, Any]:
    """(float64 values, where present) of the columns as an (n, k) array."""
    if not cols:
        return xp.zeros((n, 0)), None
    pairs = [moment_values(c, op) for c in cols]
    values = xp.stack([v for v, _ in pairs], axis=1)
    if all(m is None for _, m in pairs):
        return values, None
    ones = xp.ones(n, dtype=bool)
    return values, xp.stack([ones if m is None else m for _, m in pairs], axis=1)


# --- corrwith ---------------------------------------------------------------------------------------
def corrwith(
    df: Any, other: Any, axis: Any, drop: bool, method: Any, numeric_only: bool, min_periods: int | None
) -> Any:
    """pandas' ``DataFrame.corrwith``: one correlation matrix over both sides' columns (pairwise
    complete rows, on the device), of which the pairs asked for are read."""
    from ember.frame.generic import check_axis
    from ember.frame.series import Series

    axis = check_axis("DataFrame.corrwith", axis)
    if callable(method):
        raise unsupported("DataFrame.corrwith", "a callable method")
    if method not in ("pearson", "kendall", "spearman"):
        raise ValueError(
            f"Invalid method {method} was passed, valid methods are: 'pearson', 'kendall', "
            "'spearman', or callable"
        )
    this = df._numeric_part(numeric_only)
    if isinstance(other, Series):
        if axis == 1:
            raise unsupported("DataFrame.corrwith", "axis=1 with a Series")
        values = _paired(this, [other._column] * len(this._names), other.index, method, min_periods or 1)
        return Series(pd.Series(values, index=this.columns, dtype=np.float64))
    other = other._numeric_part(numeric_only)
    if axis == 1:
        return corrwith(this.T, other.T, 0, drop, method, False, min_periods)
    common = this.columns.join(other.columns, how="inner")
    if not (this.columns.is_unique and other.columns.is_unique):
        raise unsupported("DataFrame.corrwith", "duplicate column labels")
    left = this[list(common)]
    right = [other._columns[k] for k in common]
    correl = pd.Series(_paired(left, right, other.index, method, 1), index=common, dtype=np.float64)
    if not drop:
        missing = this.columns.union(other.columns).difference(correl.index)
        if len(missing):
            correl = pd.concat([correl, pd.Series([np.nan] * len(missing), index=missing)])
    return Series(correl)


def _paired(this: Any, right: list[Column], right_index: Any, method: str, min_periods: int) -> np.ndarray:
    """The correlation of each column of ``this`` with the column beside it in ``right`` (rows on
    ``right_index``), over the rows whose labels both sides hold."""
    from ember.frame.alignment import join_labels, reindexed
    from ember.ops.correlation import corr_matrix

    left = list(this._columns.values())
    for k, c in zip(this._names, left + right):
        if not isinstance(c, NumericColumn) or c.dtype == object:
            raise unsupported("DataFrame.corrwith", f"the column {k!r} of dtype {c.dtype} (numbers only)")
    if not left:
        return np.zeros(0)
    if not (this.index.is_unique and right_index.is_unique):
        raise unsupported("DataFrame.corrwith", "duplicate row labels")
    _, lpos, rpos = join_labels(this.index, right_index, "inner")
    left = [reindexed(c, lpos, False) for c in left]
    right = [reindexed(c, rpos, False) for c in right]
    k = len(left)
    if all(r is right[0] for r in right):  # one Series beside every column
        mat = corr_matrix([right[0], *left], method=method, min_periods=min_periods)
        return mat[0, 1:]
    mat = corr_matrix(left + right, method=method, min_periods=min_periods)
    return np.array([mat[i, k + i] for i in range(k)], dtype=np.float64)
