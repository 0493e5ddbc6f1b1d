"""NumPy's ``__array__`` protocol for columns: host columns convert, device columns refuse (like CuPy).

An implicit device->host copy (``np.asarray(df.x)`` in the middle of GPU code) is a silent, slow
round trip, so it is an error; ``.to_numpy()`` is the explicit spelling.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ember.column import Column, DatetimeColumn, NumericColumn, TimedeltaColumn

DEVICE_MESSAGE = (
    "Implicit conversion to a NumPy array is not allowed: the column lives on the GPU. "
    "Please use `.to_numpy()` to copy it to host memory explicitly."
)
_COPY_MESSAGE = "Unable to avoid copy while creating an array as requested."


def _readonly_view(a: np.ndarray) -> np.ndarray:
    # columns are immutable; pandas (copy-on-write) hands out read-only views too
    view = a.view()
    view.flags.writeable = False
    return view


def _host_values(col: Column) -> tuple[np.ndarray, bool]:
    """The values as pandas' ``np.asarray(series)`` gives them, and whether no copy was made."""
    if col.mask is None:
        if isinstance(col, NumericColumn):
            return _readonly_view(col.data), True
        if isinstance(col, DatetimeColumn) and col.tz is None:
            return _readonly_view(col.data.view(col.numpy_dtype)), True
        if isinstance(col, TimedeltaColumn):
            return _readonly_view(col.data.view(col.dtype)), True
    return np.asarray(col.to_pandas()), False


def array_protocol(col: Column, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
    """``__array__`` for a host column: the values pandas' ``np.asarray`` would give.

    Zero-copy (a read-only view) for numeric, bool, datetime and timedelta columns without nulls;
    strings, categoricals, tz-aware datetimes and columns with nulls convert as pandas does (a copy).
    ``copy=True`` always copies; ``copy=False`` raises ValueError where a copy is needed (NumPy 2
    semantics). Device columns raise TypeError; use ``.to_numpy()``.
    """
    if col.on_device:
        raise TypeError(DEVICE_MESSAGE)
    values, zero_copy = _host_values(col)
    if dtype is not None and np.dtype(dtype) != values.dtype:
        if copy is False:
            raise ValueError(_COPY_MESSAGE)
        return values.astype(dtype)
    if copy:
        return values.copy()
    if copy is False and not zero_copy:
        raise ValueError(_COPY_MESSAGE)
    return values
