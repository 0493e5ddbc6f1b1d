"""Helpers shared by the ops modules: scalar detection, masks, scans, and the one-transfer fetch."""

from __future__ import annotations

import datetime as _dt
from typing import Any

import numpy as np
import pandas as pd

from ember.backend import array_module, to_host
from ember.column.base import Column
from ember.column.numeric import NumericColumn

_NUMBER_TYPES = (bool, int, float, np.bool_, np.integer, np.floating)
_TEMPORAL_SCALARS = (
    pd.Timestamp,
    pd.Timedelta,
    np.datetime64,
    np.timedelta64,
    _dt.datetime,
    _dt.date,
    _dt.timedelta,
)


def is_number(x: Any) -> bool:
    return isinstance(x, _NUMBER_TYPES)


def is_missing_scalar(x: Any) -> bool:
    """None, pd.NA, NaT (not NaN: NaN is a float and takes part in arithmetic)."""
    return x is None or x is pd.NA or x is pd.NaT


def xp_of(col: Column) -> Any:
    data = col.data
    return np if type(data) is np.ndarray else array_module(data)


def and_masks(a: Any, b: Any) -> Any:
    if a is None:
        return b
    if b is None:
        return a
    return a & b


def as_plain_numeric(col: NumericColumn) -> NumericColumn:
    """A numpy-dtype numeric column as pandas would hold it: ints and floats with a mask (made by
    joins) become float64 with NaN; bools with a mask keep it (pandas would hold object)."""
    if col.mask is None or col.nullable:
        return col
    kind = col.data.dtype.kind
    if kind in "iuf":
        xp = xp_of(col)
        data = col.data if kind == "f" else col.data.astype(np.float64)
        return NumericColumn(xp.where(col.mask, data, np.nan), None)
    return col


def accumulate(xp: Any, name: str, x: Any) -> Any:
    """Running ``add`` / ``multiply`` / ``maximum`` / ``minimum`` of a 1-D array (running extremes go
    through ``backend.primitives``, which scans by doubling where CuPy has no ``accumulate``)."""
    if name == "add":
        return xp.cumsum(x)
    if name == "multiply":
        return xp.cumprod(x)
    from ember.backend.primitives import cummax, cummin

    return cummax(x) if name == "maximum" else cummin(x)


def ffill_index(xp: Any, valid: Any) -> Any:
    """For each position, the position of the last valid value at or before it (-1 where none)."""
    n = valid.shape[0]
    idx = xp.where(valid, xp.arange(n, dtype=np.int64), -1)
    return accumulate(xp, "maximum", idx)


def bfill_index(xp: Any, valid: Any) -> Any:
    """For each position, the position of the next valid value at or after it (-1 where none)."""
    n = valid.shape[0]
    rev = valid[::-1]
    idx = xp.where(rev, xp.arange(n, dtype=np.int64), -1)
    last = accumulate(xp, "maximum", idx)[::-1]
    return xp.where(last >= 0, n - 1 - last, -1)


# --- one device->host transfer for many small results ----------------------------------------------


def fetch_scalars(values: list[Any]) -> list[Any]:
    """Host NumPy scalars for a list of 0-d arrays (or host scalars), with one device->host copy.

    Device results are reinterpreted as int64 bit patterns, stacked and copied once; their dtypes are
    restored on the host (float32 via float64, which is exact)."""
    dev = [i for i, v in enumerate(values) if type(v).__module__.startswith("cupy")]
    out = list(values)
    if dev:
        xp = array_module(values[dev[0]])
        packed = []
        dtypes = []
        for i in dev:
            v = values[i]
            dt = v.dtype
            dtypes.append(dt)
            v = v.reshape(1)
            if dt.kind == "f":
                packed.append(v.astype(np.float64).view(np.int64))
            elif dt.kind == "c":
                raise TypeError("complex results are not supported")
            elif dt == np.uint64:
                packed.append(v.view(np.int64))
            else:
                packed.append(v.astype(np.int64))
        host = to_host(xp.concatenate(packed))
        for j, i in enumerate(dev):
            dt = dtypes[j]
            bits = host[j : j + 1]
            if dt.kind == "f":
                val = bits.view(np.float64).astype(dt)[0]
            elif dt == np.uint64:
                val = bits.view(np.uint64)[0]
            else:
                val = bits.astype(dt)[0]
            out[i] = val
    for i, v in enumerate(out):
        if isinstance(v, np.ndarray):
            out[i] = v[()]
    return out


def timedelta_ticks(value: Any) -> tuple[int, str]:
    """(ticks, unit) of a timedelta-like scalar (pd.Timedelta, np.timedelta64, datetime.timedelta)."""
    td = pd.Timedelta(value)
    return int(td._value), td.unit


def timestamp_ticks(value: Any) -> tuple[int, str, Any]:
    """(UTC ticks, unit, tz) of a datetime-like scalar (Timestamp, np.datetime64, datetime, str)."""
    ts = pd.Timestamp(value)
    return int(ts._value), ts.unit, ts.tz


UNIT_NS = {"s": 1_000_000_000, "ms": 1_000_000, "us": 1_000, "ns": 1}


def finer_unit(a: str, b: str) -> str:
    return a if UNIT_NS[a] <= UNIT_NS[b] else b


def convert_ticks(xp: Any, ticks: Any, src: str, dst: str) -> Any:
    """int64 ticks from unit ``src`` to ``dst`` (floor division toward coarser units, like numpy)."""
    if src == dst:
        return ticks
    fs, fd = UNIT_NS[src], UNIT_NS[dst]
    if fs > fd:
        return ticks * (fs // fd)
    return ticks // (fd // fs)


def convert_scalar_ticks(v: int, src: str, dst: str) -> int:
    if src == dst:
        return v
    fs, fd = UNIT_NS[src], UNIT_NS[dst]
    return v * (fs // fd) if fs > fd else v // (fd // fs)
