"""Cumulative sum, product, minimum and maximum of a column, with pandas' missing-value rules.

Missing rows stay missing and are skipped (filled with the operation's identity before the scan);
with ``skipna=False`` every row from the first missing one on is missing. Integer and bool sums and
products accumulate in int64 (uint64 for unsigned), as pandas does; cummin/cummax keep the dtype.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.backend.primitives import cummax, cummin
from ember.column import (
    CategoricalColumn,
    Column,
    DatetimeColumn,
    NumericColumn,
    StringColumn,
    TimedeltaColumn,
)
from ember.column.base import Unsupported
from ember.ops.object_missing import cumulative as missing_objects_cumulative

OPS = ("cumsum", "cumprod", "cummin", "cummax")


def cumulative(col: Column, op: str, skipna: bool = True) -> Column:
    """``op`` ('cumsum', 'cumprod', 'cummin', 'cummax') down the column, as ``Series.<op>``."""
    if op not in OPS:
        raise NotImplementedError(f"cumulative: op {op!r} is not supported; supported: {', '.join(OPS)}")
    if isinstance(col, NumericColumn):
        return _numeric(col, op, skipna)
    if isinstance(col, (DatetimeColumn, TimedeltaColumn)):
        return _temporal(col, op, skipna)
    if isinstance(col, StringColumn):
        return _string(col, op, skipna)
    if isinstance(col, CategoricalColumn):
        raise TypeError(f"Accumulation {op} not supported for Categorical")
    # lists and other Python objects: pandas compares / adds them row by row
    raise Unsupported(
        f"cumulative {op}: a column of {col.dtype} values (Python objects) is not supported by ember"
    )


def _scan(xp: Any, x: Any, op: str, acc: np.dtype) -> Any:
    if op == "cumsum":
        return xp.cumsum(x, dtype=acc)
    if op == "cumprod":
        return xp.cumprod(x, dtype=acc)
    if x.dtype.kind == "b":
        y = x.view(np.uint8)
        return (cummin(y) if op == "cummin" else cummax(y)).view(bool)
    return cummin(x) if op == "cummin" else cummax(x)


def _identity(dtype: np.dtype, op: str) -> Any:
    if op == "cumsum":
        return 0
    if op == "cumprod":
        return 1
    high = op == "cummin"
    if dtype.kind == "f":
        return np.inf if high else -np.inf
    if dtype.kind == "b":
        return high
    info = np.iinfo(dtype)
    return info.max if high else info.min


def _stop(xp: Any, missing: Any, skipna: bool) -> Any:
    """Rows that come out missing: the missing ones, or everything from the first missing on."""
    if skipna:
        return missing
    return cummax(missing.view(np.uint8)).view(bool)


def _numeric(col: NumericColumn, op: str, skipna: bool) -> Column:
    xp = col.xp
    if col.dtype == object:  # bools with missing values: pandas accumulates the Python objects
        return _object_bools(col, op, skipna)
    if not col.nullable and col.mask is not None and not col.is_bool:
        col = col.set_missing(col.mask)  # pandas holds these as float64 with NaN
    dtype = col.data.dtype
    if op in ("cumsum", "cumprod"):
        acc = dtype if dtype.kind == "f" else np.dtype(np.uint64 if dtype.kind == "u" else np.int64)
    else:
        acc = dtype
    missing = col.isna() if col.has_nulls_possible else None
    x = (
        col.data
        if missing is None
        else xp.where(missing, _identity(dtype, op), col.data).astype(dtype, copy=False)
    )
    out = _scan(xp, x, op, acc)
    if missing is None:
        return NumericColumn(out, None, col.nullable)
    stop = _stop(xp, missing, skipna)
    if col.nullable or out.dtype.kind != "f":
        return NumericColumn(out, ~stop, col.nullable)
    return NumericColumn(xp.where(stop, np.nan, out).astype(out.dtype, copy=False))


def _object_bools(col: NumericColumn, op: str, skipna: bool) -> Column:
    """pandas' object column of True / False and missing values. Its sums and products mix bools, ints
    and floats (True + False is 1); its running min / max with skipna=False compare the objects as
    numpy does (``a if a >= b else b``): a NaN row comes out NaN and the scan starts afresh after it,
    and a None beside any other value raises."""
    from ember.frame._fallback import unsupported

    if op in ("cumsum", "cumprod"):
        raise unsupported(f"Series.{op}", "an object column of True / False with missing values")
    missing = ~col.mask
    if not skipna and len(col) > 1 and col.na is None and bool(missing.any()):  # one sync
        sign = ">=" if op == "cummax" else "<="
        raise TypeError(f"'{sign}' not supported between instances of 'bool' and 'NoneType'")
    xp = col.xp
    rows = xp.arange(len(col), dtype=np.int64)
    last_missing = cummax(xp.where(missing, rows, -1))
    # cummax is True after a True that follows the last missing row (cummin: False after a False)
    wanted = col.data if op == "cummax" else ~col.data
    last_wanted = cummax(xp.where(wanted & col.mask, rows, -1))
    if skipna:
        hit = last_wanted >= 0
    else:
        hit = last_wanted > last_missing
    out = hit if op == "cummax" else ~hit
    return NumericColumn(out, col.mask, False, np.nan if skipna else col.na)  # skipna: NaN, as pandas


def _temporal(col: DatetimeColumn | TimedeltaColumn, op: str, skipna: bool) -> Column:
    if isinstance(col, DatetimeColumn) and op in ("cumsum", "cumprod"):
        raise TypeError(f"Accumulation {op} not supported for DatetimeArray")
    if op == "cumprod":
        raise TypeError("cumprod not supported for Timedelta.")
    xp = col.xp
    if col.mask is None:
        out = _scan(xp, col.data, op, np.dtype(np.int64))
        if op == "cumsum":
            _check_cumsum(xp, col.data, out, None)
        return col._rebuild(out, None)
    missing = ~col.mask
    x = xp.where(missing, _identity(np.dtype(np.int64), op), col.data)
    out, stop = _scan(xp, x, op, np.dtype(np.int64)), _stop(xp, missing, skipna)
    if op == "cumsum":
        _check_cumsum(xp, x, out, stop)
    return col._rebuild(out, ~stop)


def _check_cumsum(xp: Any, x: Any, out: Any, stop: Any) -> None:
    """pandas' OutOfBoundsTimedelta where a running total of timedeltas wrapped around int64 or landed
    on NaT's value: a wrap flips the direction of a step (pandas' own check, one device sync)."""
    from ember.ops.datetimes import I64_MIN, first_bad

    if out.shape[0] == 0:
        return
    prev = xp.concatenate([xp.zeros(1, dtype=out.dtype), out[:-1]])
    bad = ((x > 0) != (out > prev)) | (out == I64_MIN)
    if first_bad(xp, bad, None if stop is None else ~stop) is not None:
        raise pd.errors.OutOfBoundsTimedelta("overflow in timedelta operation")


def _string(col: StringColumn, op: str, skipna: bool) -> Column:
    """Running min/max of strings: scan over (dense rank, position) keys, then one gather."""
    missing = missing_objects_cumulative(col, op, skipna)  # pandas skips every marker
    if missing is not None:
        return missing
    if col.pd_dtype == object and col.mask is not None and len(col):
        out = _object_strings_with_missing(col, op, skipna)
        if out is not None:
            return out
    if op == "cumsum":
        return _string_cumsum(col, skipna)
    if op != "cummin" and op != "cummax":
        raise TypeError(f"Accumulation {op} not supported for str dtype")
    from ember.ops.sort import sort_keys

    xp, n = col.xp, len(col)
    if n == 0:
        return col
    rank = sort_keys(col).astype(np.int64)
    pos = xp.arange(n, dtype=np.int64)
    missing = col.isna() if col.mask is not None else None
    if op == "cummin":
        key = rank * n + pos
        if missing is not None:
            key = xp.where(missing, np.iinfo(np.int64).max, key)
        best = cummin(key)
    else:
        key = rank * n + (n - 1 - pos)  # ties: the earliest row wins either way
        if missing is not None:
            key = xp.where(missing, -1, key)
        best = cummax(key)
    src = xp.where(best < 0, 0, best % n)
    src = src if op == "cummin" else xp.where(best < 0, 0, n - 1 - best % n)
    out = col.take(src)
    if missing is None:
        return out
    stop = _stop(xp, missing, skipna)
    return out.with_mask(~stop)


def _string_cumsum(col: StringColumn, skipna: bool) -> StringColumn:
    """Running concatenation: row i holds the valid values up to i, joined; one gather of bytes from
    the valid values packed end to end. Synchronizes twice (packed size, output size)."""
    xp, n = col.xp, len(col)
    if n == 0:
        return col
    packed = col if col.mask is None else col.filter(col.mask)
    lengths = col.lengths() if col.mask is None else xp.where(col.mask, col.lengths(), 0)
    prefix = xp.cumsum(lengths)  # bytes of packed values up to and including each row
    stop = None if col.mask is None else _stop(xp, ~col.mask, skipna)
    out_len = prefix if stop is None else xp.where(stop, 0, prefix)
    offs = xp.zeros(n + 1, dtype=np.int64)
    xp.cumsum(out_len, out=offs[1:])
    total = int(offs[-1])
    if total == 0:
        chars = xp.zeros(0, dtype=np.uint8)
    else:
        p = xp.arange(total, dtype=np.int64)
        row = xp.searchsorted(offs, p, side="right") - 1
        chars = packed.chars[p - offs[row]]
    return StringColumn(offs, chars, None if stop is None else ~stop, col.pd_dtype)


def _object_strings_with_missing(col: StringColumn, op: str, skipna: bool) -> Column | None:
    """pandas accumulates object strings as Python objects: a string beside a missing value fails,
    only missing values give NaN throughout. None where no value is missing (one sync)."""
    from ember.backend import to_host

    some_valid, all_valid = (bool(v) for v in to_host(col.xp.stack([col.mask.any(), col.mask.all()])))
    if all_valid:
        return None
    if op == "cumsum" and not skipna:  # pandas adds the missing objects too (None + 'a' fails)
        from ember.frame._fallback import unsupported

        raise unsupported("Series.cumsum", "skipna=False over object strings with missing values")
    if some_valid and op in ("cummin", "cummax", "cumsum"):
        if op == "cumsum":
            raise TypeError('can only concatenate str (not "float") to str')
        sign = ">=" if op == "cummax" else "<="
        raise TypeError(f"'{sign}' not supported between instances of 'str' and a missing value")
    if not some_valid and op in ("cummin", "cummax"):
        if not skipna:  # pandas compares the missing objects themselves
            from ember.frame._fallback import unsupported

            raise unsupported(f"Series.{op}", "skipna=False over object data with only missing values")
        out = col.with_mask(col.mask)  # pandas: NaN for every row
        out.na = np.nan
        return out
    return None
