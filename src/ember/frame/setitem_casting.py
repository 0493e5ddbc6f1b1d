"""What setitem may put into a column: a value or array cast to the column's dtype, or pandas 3's
TypeError where the dtype cannot hold it (pandas 3 no longer changes a column's dtype to fit)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.backend import to_host
from ember.column import Column, DatetimeColumn, NumericColumn


def _invalid(value: Any, col: Column) -> TypeError:
    return TypeError(f"Invalid value '{value}' for dtype '{col.dtype}'")


def _is_missing(value: Any) -> bool:
    return (
        value is None
        or value is pd.NA
        or value is pd.NaT
        or (isinstance(value, (float, np.floating)) and np.isnan(value))
        or (isinstance(value, (np.datetime64, np.timedelta64)) and np.isnat(value))
    )


def setitem_scalar(col: Column, value: Any) -> Any:
    """``value`` as setitem puts it into ``col``: cast to the column's type, None for a missing value,
    NaN where pandas makes an int column float64 (a missing value); TypeError for a value the
    dtype cannot hold (1.5 or True into int64, a string into numbers, a number into times ...)."""
    import datetime

    from ember.column import StringColumn, TimedeltaColumn

    missing = _is_missing(value)
    nat = value is pd.NaT or isinstance(value, (np.datetime64, np.timedelta64))
    if isinstance(col, NumericColumn):
        dtype = col.data.dtype
        is_bool = isinstance(value, (bool, np.bool_))
        if dtype.kind == "b":
            if is_bool:
                return bool(value)
            if missing and col.nullable and not nat:
                return None
            raise _invalid("nan" if missing and not nat else value, col)
        if missing and not nat:
            return None if col.nullable else np.nan
        if is_bool or not isinstance(value, (int, float, np.integer, np.floating)):
            raise _invalid(value, col)
        if dtype.kind in "iu":
            info = np.iinfo(dtype)
            integral = (type(value) is int or isinstance(value, np.integer)) or (
                bool(np.isfinite(value)) and float(value).is_integer()
            )
            in_range = integral and info.min <= int(value) <= info.max
            if integral and not -(2**63) <= int(value) < 2**64 and not col.nullable:
                from ember.frame._fallback import unsupported  # pandas: ValueError of an object cast

                raise unsupported("setitem", f"{value} beyond 64-bit integers into {col.dtype}")
            if not in_range and col.nullable and integral:
                if type(value) is int:  # pandas' masked setitem: NumPy's OverflowError
                    raise OverflowError(f"Python integer {value} out of bounds for {dtype}")
                from ember.frame._fallback import unsupported

                raise unsupported("setitem", f"{type(value).__name__} {value} out of bounds for {col.dtype}")
            if not in_range:
                raise _invalid(value, col)
            return dtype.type(int(value))
        if dtype.kind == "f":
            with np.errstate(over="ignore"):
                return dtype.type(value)
        return value
    if isinstance(col, StringColumn):
        if missing or isinstance(value, str):
            return None if missing else value
        raise TypeError(
            f"Invalid value '{value}' for dtype '{col.dtype}'. Value should be a string or missing "
            f"value, got '{type(value).__name__}' instead."
        )
    if isinstance(col, DatetimeColumn):
        if missing:
            return None
        if isinstance(value, datetime.date) and not isinstance(value, datetime.datetime):
            raise _invalid(value, col)
        if not isinstance(value, (str, datetime.datetime, np.datetime64)):
            raise _invalid(value, col)
        try:
            stamp = pd.Timestamp(value)
        except (ValueError, TypeError):
            raise _invalid(value, col) from None
        if (stamp.tz is None) != (getattr(col, "tz", None) is None):
            raise _invalid(value, col)
        return stamp
    if isinstance(col, TimedeltaColumn):
        if missing:
            return None
        if not isinstance(value, (str, datetime.timedelta, np.timedelta64)):
            raise _invalid(value, col)
        try:
            return pd.Timedelta(value)
        except (ValueError, TypeError):
            raise _invalid(value, col) from None
    return None if missing else value


def setitem_values(col: Column, values: Column, from_list: bool, has_none: bool = False) -> Any:
    """An array of values (one per selected row) as setitem puts them into ``col``, under pandas'
    ``np_can_hold_element`` rules: cast to the column's dtype when no value changes, float64 kept
    for whole numbers with NaN into an int column (pandas' one upcast), None when all are missing
    (``col`` holds missing values); TypeError otherwise. A list is judged by its dtype alone (pandas
    checks the values of arrays only; a None in it makes it object). Syncs once or twice, when values
    must be checked."""
    from ember.column import StringColumn

    if isinstance(col, NumericColumn):
        return _numeric_values(col, values, from_list, has_none)
    if isinstance(col, StringColumn) and not isinstance(values, StringColumn):
        raise TypeError(
            f"Invalid value for dtype '{col.dtype}'. Value should be a string or missing value (or "
            f"array of those)."
        )
    if isinstance(col, DatetimeColumn) and isinstance(values, NumericColumn):
        raise _invalid(values.to_pandas().to_numpy(), col)
    return values


def _numeric_values(col: NumericColumn, values: Column, from_list: bool, has_none: bool) -> Any:
    xp = col.xp
    dtype = col.data.dtype
    vk = values.data.dtype.kind if isinstance(values, NumericColumn) else "O"

    def invalid() -> TypeError:
        return _invalid(values.to_pandas().to_numpy(), col)

    if col.nullable and vk == "O" and len(values) and bool(values.isna().all()):
        return None  # [None, None] into a masked column
    if vk == "O" or (has_none and not col.nullable):
        raise invalid()
    has_na = values.nullable and values.mask is not None and not bool(values.mask.all())
    if col.nullable:
        if dtype.kind == "b":
            if vk == "f" and bool(xp.isnan(values.data).all()):
                return None
            if vk != "b":
                raise invalid()
            return values
        if vk == "b" and from_list:
            raise invalid()
        if dtype.kind in "iu" and vk == "f":
            finite = ~xp.isnan(values.data) if values.mask is None else values.mask & ~xp.isnan(values.data)
            data = xp.where(finite, values.data, 0)
            if not bool((data == xp.floor(data)).all()):
                raise TypeError(f"cannot safely cast non-equivalent {values.data.dtype} to {dtype}")
            return NumericColumn(data.astype(dtype), finite, nullable=True)
        if dtype.kind == "f" and vk == "f":
            valid = ~xp.isnan(values.data) if values.mask is None else values.mask & ~xp.isnan(values.data)
            return NumericColumn(values.data.astype(dtype, copy=False), valid, nullable=True)
        return NumericColumn(values.data.astype(dtype, copy=False), values.mask, nullable=True)
    if dtype.kind == "b":
        if vk != "b" or has_na:
            raise invalid()
        return NumericColumn(values.data)
    if vk == "b" or has_na:
        raise invalid()
    data = values.data
    if dtype.kind == "f":
        return NumericColumn(data.astype(dtype, copy=False))
    if vk == "f":  # floats into ints: whole numbers are cast; with NaN the column becomes float64
        if from_list:
            raise invalid()
        nan = xp.isnan(data)
        whole = xp.where(nan, 0, data)
        whole_ok = (whole == xp.floor(whole)) & (xp.abs(whole) <= float(np.iinfo(dtype).max))
        nan_any, whole_all = (bool(v) for v in to_host(xp.stack([nan.any(), whole_ok.all()])))
        if not whole_all:
            raise invalid()
        if nan_any:
            return NumericColumn(data)
        casted = data.astype(dtype)
        if not bool((casted == data).all()):
            raise invalid()
        return NumericColumn(casted)
    if dtype.kind == "u" and vk == "i" and not from_list and not values.nullable:
        casted = data.astype(dtype)
        if not bool((casted == data).all()):
            raise invalid()
        return NumericColumn(casted)
    if dtype.itemsize < data.dtype.itemsize:
        raise invalid()
    return NumericColumn(data.astype(dtype, copy=False))
