"""Running sums, products, minima and maxima across the columns of each row (``df.cumsum(axis=1)``).

pandas transposes the frame (its columns meet in one common dtype) and scans the transposed columns;
here the scan steps from one column to the next with element-wise operations over all rows at once,
so the work is one vectorized operation per column, never a loop over rows.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ember.column import Column, NumericColumn

_STEP = {"cumsum": "add", "cumprod": "multiply", "cummin": "minimum", "cummax": "maximum"}


def scan_rows(cols: list[Column], op: str, skipna: bool = True) -> list[Column]:
    """``op`` ('cumsum', 'cumprod', 'cummin', 'cummax') across ``cols`` within each row, with pandas'
    rules: the columns' common dtype (ints and floats meet as float64), int and bool sums and products
    in int64 (uint64 for unsigned), missing values skipped and kept missing (with ``skipna=False``
    every value after a row's first missing one is missing)."""
    if op not in _STEP:
        raise NotImplementedError(f"scan_rows: op {op!r} is not supported; supported: {', '.join(_STEP)}")
    _check_scannable(cols, op)
    xp = cols[0].xp
    common = np.result_type(*(c.data.dtype for c in cols))
    acc_dtype = common
    if op in ("cumsum", "cumprod") and common.kind != "f":
        acc_dtype = np.dtype(np.uint64 if common.kind == "u" else np.int64)
    step = getattr(xp, _STEP[op])
    acc = stopped = None
    out: list[Column] = []
    for c in cols:
        x = c.data.astype(common, copy=False)
        missing = c.isna() if common.kind == "f" else None
        if missing is not None:
            x = xp.where(missing, _identity(common, op), x)
        x = x.astype(acc_dtype, copy=False)
        acc = x if acc is None else step(acc, x)
        if missing is not None:
            stopped = missing if skipna or stopped is None else stopped | missing
            out.append(NumericColumn(xp.where(stopped, np.nan, acc).astype(acc_dtype, copy=False)))
        else:
            out.append(NumericColumn(acc))
    return out


def _check_scannable(cols: list[Column], op: str) -> None:
    ok = all(isinstance(c, NumericColumn) and not c.nullable and c.dtype != object for c in cols)
    if not ok or any(c.mask is not None and c.data.dtype.kind != "f" for c in cols):
        raise NotImplementedError(
            f"DataFrame.{op}(axis=1) over columns other than NumPy numbers is not supported (pandas "
            "scans the transposed rows in their common dtype, often object)"
        )
    if len({c.is_bool for c in cols}) > 1:
        raise NotImplementedError(
            f"DataFrame.{op}(axis=1) over bool columns beside numbers is not supported (pandas scans "
            "such rows as objects)"
        )


def _identity(dtype: np.dtype, op: str) -> Any:
    if op == "cumsum":
        return 0
    if op == "cumprod":
        return 1
    return np.inf if op == "cummin" else -np.inf  # only floats hold missing values here
