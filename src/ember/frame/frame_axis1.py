"""DataFrame methods along ``axis=1`` (across the columns of each row): take, shift, diff, the running
scans and idxmin / idxmax. Columns move whole where pandas moves them (take, shift); element-wise work
goes through ``ops`` one column at a time, never row by row."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.column import Column, NumericColumn, from_any, from_scalar
from ember.frame._fallback import unsupported


def take_columns(frame: Any, indices: Any) -> Any:
    """``df.take(indices, axis=1)``: the columns at these positions (negative from the end)."""
    positions = np.asarray(indices.to_pandas() if hasattr(indices, "to_pandas") else indices)
    if positions.ndim != 1 or (positions.size and positions.dtype.kind not in "iu"):
        raise unsupported("DataFrame.take", "axis=1 with positions other than a list of integers")
    k = len(frame._names)
    if positions.size and (positions.max() >= k or positions.min() < -k):
        raise IndexError("indices are out-of-bounds")
    return frame.iloc[:, [int(p) for p in positions]]


def shift_columns(frame: Any, periods: Any, fill_value: Any = None) -> Any:
    """``df.shift(periods, axis=1)``: each column moves ``periods`` places (keeping its dtype); the
    places left behind hold pandas' filler, the first (last) column shifted out of every row or
    ``fill_value``."""
    if not isinstance(periods, (int, np.integer)) or isinstance(periods, bool):
        raise unsupported("shift", "axis=1 with periods other than one integer")
    periods, names = int(periods), list(frame._names)
    cols, k = [frame._columns[n] for n in names], len(names)
    if periods == 0 or k == 0 or not len(frame):  # pandas: nothing to move, the dtypes kept
        return frame.copy()
    source = cols[0] if periods > 0 else cols[-1]
    filler = _filler(frame, source, cols, fill_value)
    gap = min(k, abs(periods))
    moved = [filler] * gap + cols[: max(k - periods, 0)] if periods > 0 else cols[-periods:] + [filler] * gap
    return frame._with_columns(dict(zip(names, moved, strict=True)))


def _filler(frame: Any, source: Column, cols: list[Column], fill_value: Any) -> Column:
    from ember.frame.series import Series

    n = len(frame)
    if fill_value is None:  # pandas: the edge column shifted by the frame's length
        return Series._from_column(source, frame.index).shift(n).column
    scalar = isinstance(fill_value, (int, float, np.integer, np.floating)) and not isinstance(
        fill_value, bool
    )
    numpy_cols = all(isinstance(c, NumericColumn) and not c.nullable and c.dtype != object for c in cols)
    if not (scalar or isinstance(fill_value, (bool, np.bool_))) or not numpy_cols:
        raise unsupported(
            "shift", "axis=1 with a fill_value other than a number or bool beside NumPy columns"
        )
    from pandas.core.dtypes.cast import can_hold_element

    own = np.asarray(fill_value).dtype
    dtypes = {c.data.dtype for c in cols}
    one_block = len(dtypes) == 1 and can_hold_element(np.empty(0, next(iter(dtypes))), fill_value)
    if one_block and len(cols) > 1 and own != next(iter(dtypes)):
        # pandas' answer depends on whether its columns share one block (unknowable here)
        raise unsupported("shift", "axis=1 with a fill_value of another dtype than the columns'")
    dtype = next(iter(dtypes)) if one_block else own
    return from_scalar(np.asarray(fill_value).astype(dtype)[()], n, source.xp)


def diff_columns(frame: Any, periods: Any) -> Any:
    """``df.diff(periods, axis=1)``: as pandas, the frame minus itself shifted ``periods`` columns."""
    return frame - shift_columns(frame, periods)


def scan_columns(frame: Any, op: str, skipna: bool) -> Any:
    """``df.cumsum(axis=1)`` and the other running scans across each row."""
    from ember.ops.row_scans import scan_rows

    names = list(frame._names)
    if not names:
        return frame.copy()
    try:
        out = scan_rows([frame._columns[n] for n in names], op, skipna)
    except NotImplementedError as exc:
        raise unsupported(f"DataFrame.{op}", str(exc)) from exc
    return frame._with_columns(dict(zip(names, out, strict=True)))


def arg_labels_of_rows(frame: Any, op: str, skipna: bool, numeric_only: bool) -> Any:
    """``df.idxmin(axis=1)`` / ``idxmax``: the column label of each row's least / greatest value
    (the first on ties), as pandas, which raises where a row has no value (or, with skipna=False,
    a missing one)."""
    from ember.column import is_numeric_column
    from ember.frame.series import Series

    names = [k for k in frame._names if not numeric_only or is_numeric_column(frame._columns[k])]
    cols = [frame._columns[k] for k in names]
    if isinstance(frame.columns, pd.MultiIndex):
        raise unsupported(f"DataFrame.{op}", "axis=1 with MultiIndex columns (the labels would be tuples)")
    if not names or not len(frame):
        raise unsupported(f"DataFrame.{op}", "axis=1 of a frame without columns or rows")
    if not all(isinstance(c, NumericColumn) and not c.nullable and c.dtype != object for c in cols) or (
        len({c.is_bool for c in cols}) > 1
    ):
        raise unsupported(f"DataFrame.{op}", "axis=1 over columns other than NumPy numbers of one kind")
    xp = cols[0].xp
    common = np.result_type(*(c.data.dtype for c in cols))
    missing = xp.stack([c.isna() for c in cols], axis=1)
    m = xp.stack([c.data.astype(common, copy=False) for c in cols], axis=1)
    if bool(missing.all(axis=1).any()):  # one sync
        raise ValueError("Encountered all NA values")
    if not skipna and bool(missing.any()):
        raise ValueError("Encountered an NA value with skipna=False")
    if common.kind == "f":
        m = xp.where(missing, np.inf if op == "idxmin" else -np.inf, m)
    positions = m.argmin(axis=1) if op == "idxmin" else m.argmax(axis=1)
    chosen = set(names)
    axis = frame.columns[[i for i, k in enumerate(frame._names) if k in chosen]]
    from ember.ops.grouping import strings_if_held

    labels = from_any(axis, xp)  # the labels' own dtype, as pandas' take of the columns
    # pandas builds the result anew from the taken labels: object strings infer 'str'
    return Series._from_column(strings_if_held(labels.take(positions)), frame.index)
