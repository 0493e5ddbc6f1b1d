"""Several quantiles of one column in one device->host transfer, as pandas' scalars and dtype
(``Series.quantile(list)``, describe)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.column import Column, DatetimeColumn, NumericColumn, TimedeltaColumn
from ember.ops.object_missing import as_floats
from ember.ops.reductions import _SELECTING, _device_quantiles, _Fetch, _whole_in, pandas_view


def quantile_many(col: Column, qs: list[float], interpolation: str = "linear") -> list:
    """Several quantiles of one column in one transfer, as pandas' scalars (see ``quantiles``)."""
    return quantiles(col, qs, interpolation)[0]


def quantiles(col: Column, qs: list[float], interpolation: str = "linear") -> tuple[list, Any]:
    """(the quantiles as pandas' scalars, the dtype of pandas' ``Series.quantile(list)``), in one
    transfer. pandas' types: interpolations that select a value (lower / higher / nearest) keep the
    column's dtype, the others give float64 (Float64 for masked data; bools raise TypeError); an empty
    column gives float64 NaN (masked: Float64 NA); a float32 column holding a missing value, an
    all-missing masked column, and a masked integer one holding a missing value where every result is
    whole, keep their dtype; datetimes and timedeltas are truncated to whole
    ticks (toward zero) and keep their dtype."""
    if interpolation not in ("linear", *_SELECTING, "midpoint"):
        raise NotImplementedError(
            f"quantile: interpolation={interpolation!r} is not supported; use linear, lower, higher, nearest or midpoint"
        )
    col = as_floats(col, "quantile")  # an object column of missing values: pandas' float64 NaN
    if isinstance(col, NumericColumn):
        return _numeric_quantiles(pandas_view(col), qs, interpolation)
    if isinstance(col, (DatetimeColumn, TimedeltaColumn)):
        pdt = col.dtype
        if len(col) == 0:
            return [pd.NaT for _ in qs], pdt
        vals = _Fetch()
        vals.values = _device_quantiles(col.xp, col.data, col.mask, list(qs), interpolation)
        out = []
        for v in vals.run():
            if np.isnan(v):
                out.append(pd.NaT)
                continue
            ticks = int(float(v))  # pandas: int64 of the float, toward zero
            if isinstance(col, TimedeltaColumn):
                out.append(pd.Timedelta(np.timedelta64(ticks, col.unit)))
            else:
                ts = pd.Timestamp(np.datetime64(ticks, col.unit))
                out.append(ts.tz_localize("UTC").tz_convert(col.tz) if col.tz is not None else ts)
        return out, pdt
    raise TypeError(f"quantile: not supported for dtype {col.dtype}")


_BOOL_QUANTILE = (
    "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` "
    "operator, or the logical_xor function instead."
)


def _numeric_quantiles(col: NumericColumn, qs: list[float], interpolation: str) -> tuple[list, Any]:
    xp = col.xp
    x = col.data
    kind = x.dtype.kind
    masked = col.nullable
    if len(col) == 0:
        return (
            ([pd.NA] * len(qs), pd.Float64Dtype()) if masked else ([np.float64(np.nan)] * len(qs), np.float64)
        )
    selecting = interpolation in _SELECTING
    nan_valid = ~xp.isnan(x) if kind == "f" else None
    valid = col.mask if nan_valid is None else (nan_valid if col.mask is None else col.mask & nan_valid)
    fetch = _Fetch()
    i_cnt = fetch.add(xp.asarray(len(col)) if valid is None else valid.sum())
    fetch.values.extend(_device_quantiles(xp, x, valid, list(qs), interpolation, native=True))
    host = fetch.run()
    cnt = int(host[i_cnt])
    own = col.dtype
    if masked and cnt == 0:  # all missing: NA of the column's dtype (pandas: Float64 for booleans)
        return [pd.NA] * len(qs), (pd.Float64Dtype() if kind == "b" else own)
    if kind == "b" and not selecting:
        raise TypeError(_BOOL_QUANTILE)
    has_missing = cnt < len(col)
    if selecting or (kind == "f" and has_missing):
        dtype, scalar = own, x.dtype.type
    else:
        dtype, scalar = (pd.Float64Dtype() if masked else np.dtype(np.float64)), np.float64
    vals = host[i_cnt + 1 :]
    if masked and kind in "iu" and has_missing and all(_whole_in(v, x.dtype) for v in vals):
        dtype, scalar = own, x.dtype.type  # pandas keeps a masked int's dtype where every result is whole
    if cnt == 0:  # numpy floats, all NaN
        return [scalar(np.nan) for _ in vals], dtype
    if masked:  # pandas: a masked quantile that comes out NaN (inf - inf) is NA
        return [pd.NA if v != v else scalar(v) for v in vals], dtype
    return [scalar(v) for v in vals], dtype
