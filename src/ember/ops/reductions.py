"""Reductions of columns to host scalars (sum, mean, min ... idxmax); row-wise ones are in
``ops.row_reductions``, several quantiles at once in ``ops.quantiles``.

``reduce_many`` plans every column's reduction as 0-d device results, stacks them and moves them to the
host in ONE transfer; small host-side "finishers" then give each result pandas' type (np.int64 for an
int sum, np.float32 for a float32 mean, pd.Timestamp, pd.NA for nullable all-missing ...). That one
transfer is what makes ``df.mean()`` fast on the GPU. String min/max/nunique run through pyarrow on
the host (the column is copied there), as there is no device string sort in this module.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ember.backend import array_module, to_host
from ember.backend.primitives import nan_sum_count
from ember.column import (
    CategoricalColumn,
    Column,
    DatetimeColumn,
    NumericColumn,
    StringColumn,
    TimedeltaColumn,
)
from ember.column.base import Unsupported
from ember.column.decimal import DecimalColumn
from ember.ops.decimal_ops import plan_reduce
from ember.ops.object_missing import reduction as missing_objects_reduction

OPS = (
    "sum",
    "prod",
    "mean",
    "min",
    "max",
    "std",
    "var",
    "sem",
    "count",
    "median",
    "quantile",
    "nunique",
    "any",
    "all",
    "idxmin",
    "idxmax",
)
Finisher = Callable[[list], Any]


def pandas_view(col: NumericColumn) -> NumericColumn:
    """The column as pandas stores it: a non-nullable int/float column with a mask is float64 with NaN."""
    if col.nullable or col.mask is None or col.data.dtype.kind == "b":
        return col
    return col.set_missing(col.mask)  # type: ignore[return-value]


class _Fetch:
    """Collects 0-d device results and brings them to the host in one transfer."""

    __slots__ = ("values",)

    def __init__(self) -> None:
        self.values: list[Any] = []

    def add(self, v: Any) -> int:
        self.values.append(v)
        return len(self.values) - 1

    def run(self) -> list:
        """One device->host copy for every collected value: 8-byte values are stacked as their bits
        (a free view), narrower ones are widened first; a single value is copied as it is."""
        vals = self.values
        if not vals or not any(type(v).__module__.startswith("cupy") for v in vals):
            return vals
        cp = array_module(next(v for v in vals if type(v).__module__.startswith("cupy")))
        kinds = [np.dtype(v.dtype) for v in vals]
        enc = [_as_int64_bits(cp.asarray(v), k) for v, k in zip(vals, kinds, strict=True)]
        host = to_host(enc[0].reshape(1) if len(enc) == 1 else cp.stack(enc))
        return [_from_int64_bits(h, k) for h, k in zip(host, kinds, strict=True)]


def _as_int64_bits(v: Any, k: np.dtype) -> Any:
    if k.itemsize == 8:
        return v.view(np.int64)
    if k.kind == "f":
        return v.astype(np.float64).view(np.int64)
    return v.astype(np.int64)


def _from_int64_bits(h: Any, k: np.dtype) -> Any:
    if k.itemsize == 8:
        return np.array(h, dtype=np.int64).view(k)[()]
    if k.kind == "f":
        return k.type(np.array(h, dtype=np.int64).view(np.float64)[()])
    if k.kind == "b":
        return np.bool_(h != 0)
    return k.type(h)


def reduce(col: Column, op: str, **kw: Any) -> Any:
    """One column's reduction; see ``reduce_many``."""
    return reduce_many([col], op, **kw)[0]


def reduce_many(
    cols: list[Column], op: str, *, skipna: bool = True, ddof: int = 1, min_count: int = 0, q: float = 0.5
) -> list:
    """``op`` over each column, as host scalars with pandas' result types. One device->host transfer.

    idxmin/idxmax give integer positions (the frame maps them to labels) and raise ValueError like
    pandas when a column is all-missing (or has a missing value with skipna=False).
    """
    if op not in OPS:
        raise NotImplementedError(f"reduce: op {op!r} is not supported; supported: {', '.join(OPS)}")
    if op in ("any", "all") and not skipna:
        cols = [_object_bools_as_truth(c) for c in cols]
    if len(cols) == 1 and op in _FAST:
        v = _fast_host(cols[0], op, min_count)
        if v is _MISS and op in ("sum", "mean"):
            v = _fast_device(cols[0], op, min_count)
        if v is not _MISS:
            return [v]
    fetch = _Fetch()
    finishers = [_plan(col, op, fetch, skipna, ddof, min_count, q) for col in cols]
    host = fetch.run()
    return [f(host) for f in finishers]


def _object_bools_as_truth(col: Column) -> Column:
    """An object column of bools with skipna=False: pandas takes each missing object's truth (NaN and
    NaT are true, None false, pd.NA raises)."""
    if not (isinstance(col, NumericColumn) and col.is_bool and col.dtype == object and col.mask is not None):
        return col
    marker = getattr(col, "na", np.nan)
    if marker is pd.NA:
        raise TypeError("boolean value of NA is ambiguous")
    data = col.xp.where(col.mask, col.data, bool(marker))
    return NumericColumn(data, None)


_FAST = ("sum", "mean", "min", "max", "count", "prod")
_MISS = object()


def _fast_host(col: Column, op: str, min_count: int) -> Any:
    """Per-call overhead matters for small host columns: plain NumPy reductions of a mask-free numeric
    column, accepted when the result shows no NaN took part (else the general path decides)."""
    if type(col) is not NumericColumn or col.mask is not None or type(col.data) is not np.ndarray:
        return _MISS
    x = col.data
    n = x.shape[0]
    if n == 0 or n < min_count:
        return _MISS
    kind = x.dtype.kind
    if op == "count":
        return _MISS if kind == "f" else np.int64(n)
    if op == "min" or op == "max":
        v = x.min() if op == "min" else x.max()
    elif op == "mean":
        v = x.mean(dtype=x.dtype if kind == "f" else np.float64)
    else:
        acc = x.dtype if kind == "f" else (np.uint64 if kind == "u" else np.int64)
        v = x.sum(dtype=acc) if op == "sum" else x.prod(dtype=acc)
    if kind == "f" and v != v:
        return _MISS
    return v


def _fast_device(col: Column, op: str, min_count: int) -> Any:
    """``df.x.mean()`` / ``.sum()`` of a float64 device column: one reduction kernel and one copy back.

    Most columns hold no NaN: the plain sum is then the answer (the count is the length). A NaN in the
    sum (a NaN value, or inf - inf) hands over to the general NaN-skipping path."""
    if type(col) is not NumericColumn or col.mask is not None or col.nullable:
        return _MISS
    x = col.data
    if type(x) is np.ndarray or x.dtype != np.float64:
        return _MISS
    n = int(x.shape[0])
    if n == 0 or n < min_count:
        return _MISS
    total = float(x.sum())  # synchronizes: the one device->host copy of this reduction
    if total != total:
        return _MISS
    return np.float64(total) if op == "sum" else np.float64(total / n)


# --- planning ------------------------------------------------------------------------------------------


def _plan(col: Column, op: str, fetch: _Fetch, skipna: bool, ddof: int, min_count: int, q: float) -> Finisher:
    if op == "nunique" and not skipna:  # dropna=False: a missing value counts as one more
        distinct = _plan(col, op, fetch, True, ddof, min_count, q)
        i = fetch.add(col.isna().any())
        return lambda h: distinct(h) + int(bool(h[i]))
    if isinstance(col, DecimalColumn):  # Decimal objects in pandas: see ops.decimal_ops
        replan = lambda c, o: _plan(c, o, fetch, skipna, ddof, min_count, q)  # noqa: E731
        return plan_reduce(col, op, fetch, skipna, min_count, replan)
    if (
        type(col) is NumericColumn
        and col.is_float
        and col.mask is None
        and not col.nullable
        and op in _NAN_FUSED
    ):
        return _plan_float_nan(col.data, op, fetch, skipna, min_count)
    if isinstance(col, NumericColumn):
        col = pandas_view(col)
        x = col.data
        valid = None
        if col.is_float and col.nullable and op not in ("median", "quantile"):
            # a NaN value of a masked float column is a value (pandas: it counts, and makes a sum,
            # a mean, a min ... NaN, thus NA; argmin / argmax land on it); its median skips it
            valid = col.mask
        elif col.is_float:
            valid = ~col.xp.isnan(x) if col.mask is None else col.mask & ~col.xp.isnan(x)
        elif col.mask is not None:
            valid = col.mask
        na = pd.NA if col.nullable else np.nan
        if col.is_float and col.nullable and op == "median" and not skipna:
            # pandas' masked median skips NaN values whatever skipna; a missing value makes it NA
            median = _plan_values(x, valid, op, fetch, True, ddof, min_count, q, na, None, True)
            if col.mask is None:
                return median
            present = fetch.add(col.mask.all())
            return lambda h: median(h) if h[present] else na
        return _plan_values(x, valid, op, fetch, skipna, ddof, min_count, q, na, None, col.nullable)
    if isinstance(col, (DatetimeColumn, TimedeltaColumn)):
        return _plan_temporal(col, op, fetch, skipna, ddof, min_count, q)
    if isinstance(col, CategoricalColumn):
        return _plan_categorical(col, op, fetch, skipna)
    if isinstance(col, StringColumn):
        return _plan_string(col, op, fetch, skipna, min_count)
    # lists and other Python objects: pandas compares / adds them row by row
    raise Unsupported(f"{op}: a column of {col.dtype} values (Python objects) is not supported by ember")


_NAN_FUSED = ("sum", "mean", "count")


def _plan_float_nan(x: Any, op: str, fetch: _Fetch, skipna: bool, min_count: int) -> Finisher:
    """sum/mean/count of a numpy-float column (NaN = missing) from two fused passes, no temporaries."""
    n = int(x.shape[0])
    total, valid_count = nan_sum_count(x)
    i, j = fetch.add(total), fetch.add(valid_count)
    ftype = x.dtype.type

    def finish(h: list) -> Any:
        c = int(h[j])
        if op == "count":
            return np.int64(c)
        if not skipna and c < n:
            return ftype(np.nan)
        if c < min_count or (op == "mean" and c == 0):
            return np.nan  # pandas gives a Python float here, whatever the column's float type
        return ftype(h[i]) if op == "sum" else ftype(h[i] / ftype(c))

    return finish


def _count(x: Any, valid: Any, fetch: _Fetch) -> Callable[[list], int]:
    if valid is None:
        n = int(x.shape[0])
        return lambda h: n
    i = fetch.add(valid.sum())
    return lambda h: int(h[i])


def _fill(dtype: np.dtype, high: bool) -> Any:
    if dtype.kind == "f":
        return np.inf if high else -np.inf
    if dtype.kind == "b":
        return high
    info = np.iinfo(dtype)
    return info.max if high else info.min


def _acc_dtype(dtype: np.dtype) -> np.dtype:
    if dtype.kind == "f":
        return dtype
    return np.dtype(np.uint64) if dtype.kind == "u" else np.dtype(np.int64)


def _float_dtype(dtype: np.dtype) -> np.dtype:
    return dtype if dtype.kind == "f" else np.dtype(np.float64)


def _plan_values(
    x: Any,
    valid: Any,
    op: str,
    fetch: _Fetch,
    skipna: bool,
    ddof: int,
    min_count: int,
    q: float,
    na: Any,
    wrap: Callable[[Any], Any] | None,
    nullable: bool,
) -> Finisher:
    """The reduction of one array with a validity array (None = all valid)."""
    xp = np if not type(x).__module__.startswith("cupy") else __import__("cupy")
    n = int(x.shape[0])
    dtype = x.dtype
    count = _count(x, valid, fetch)
    if op == "count":
        return lambda h: np.int64(count(h))
    if op in ("any", "all"):
        return _plan_any_all(xp, x, valid, op, fetch, skipna, nullable, count, n)
    if op in ("idxmin", "idxmax"):
        return _plan_idx(xp, x, valid, op, fetch, skipna, count, n)
    if op == "nunique":
        return _plan_nunique(xp, x, valid, fetch, count)
    wrap = wrap or (lambda v: v)
    propagated = na if na is not np.nan else _float_dtype(dtype).type(np.nan)  # skipna=False keeps the type

    def finish(value: Callable[[list], Any], need: int = 1) -> Finisher:
        def f(h: list) -> Any:
            c = count(h)
            if not skipna and c < n:
                return propagated
            if c < need:
                return na
            v = wrap(value(h))
            if nullable and isinstance(v, (float, np.floating)) and v != v:
                return na  # pandas: a masked reduction that comes out NaN (inf - inf, ...) is NA
            return v

        return f

    if op in ("sum", "prod"):
        if n == 0 or (valid is None and n == 0):
            v0 = _acc_dtype(dtype).type(0 if op == "sum" else 1)
            return lambda h: na if min_count > 0 else wrap(v0)
        red = xp.sum if op == "sum" else xp.prod
        i = fetch.add(
            _total(xp, red, x, valid, 0 if op == "sum" else 1, _acc_dtype(dtype), nullable and skipna)
        )
        rtype = _acc_dtype(dtype).type
        return finish(lambda h: rtype(h[i]), max(min_count, 0))
    if op in ("min", "max"):
        if n == 0:
            return lambda h: na
        filled = x if valid is None else xp.where(valid, x, _fill(dtype, op == "min"))
        i = fetch.add(filled.min() if op == "min" else filled.max())
        return finish(lambda h: dtype.type(h[i]))
    fdt = _float_dtype(dtype)
    if op == "mean":
        i = fetch.add(
            _total(xp, xp.sum, x, valid, 0, fdt if dtype.kind == "f" else np.float64, nullable and skipna)
        )
        return finish(lambda h: fdt.type(h[i] / fdt.type(count(h))))
    if op in ("var", "std", "sem"):
        i = fetch.add(_sum_sq_dev(xp, x, valid))
        # masked var / std divide by max(count - ddof, 0) as NumPy (inf where ddof >= count); plain
        # floats, and sem, are NaN from count <= ddof
        need = 1 if nullable and op != "sem" else ddof + 1
        if not nullable and na is np.nan:  # pandas' NaN of too few numbers: a NumPy float
            na = fdt.type(np.nan) if n > 0 else np.float64(np.nan) if op == "sem" else na
        return finish(lambda h: _var_finish(op, h[i], count(h), ddof, fdt), need)
    if op in ("median", "quantile"):
        if op == "quantile" and dtype.kind == "b":
            raise TypeError(
                "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, "
                "the `^` operator, or the logical_xor function instead."
            )
        if n == 0:
            return lambda h: na
        # a median is the mean of the two middle values (pandas' np.median: 2 of [1, 2, inf], inf of
        # [1, inf]), a quantile NumPy's linear interpolation
        how = "median" if op == "median" else "linear"
        i = fetch.add(_device_quantiles(xp, x, valid, [0.5 if op == "median" else q], how)[0])
        if op == "quantile" and nullable and dtype.kind in "iu":  # pandas keeps the int when it is exact
            return finish(lambda h: dtype.type(h[i]) if _whole_in(h[i], dtype) else np.float64(h[i]))
        return finish(lambda h: np.float64(h[i]) if fdt == np.float64 else fdt.type(h[i]))
    raise NotImplementedError(f"reduce: op {op!r} is not supported")  # pragma: no cover


def _total(xp: Any, red: Any, x: Any, valid: Any, neutral: int, acc: Any, masked: bool) -> Any:
    """The sum / product of the valid values, accumulated in ``acc``. pandas' masked reductions
    run NumPy's ``where=`` reduction, whose order of additions differs from that of a filled array
    (large integers summed in float64 cancel otherwise): on the host a masked column takes it
    (``masked``: with skipna, as pandas)."""
    if valid is None:
        return red(x, dtype=acc)
    if masked and xp is np:
        return red(x, where=valid, dtype=acc)
    return red(xp.where(valid, x, neutral), dtype=acc)


def _whole_in(v: Any, dtype: np.dtype) -> bool:
    """Whether the float ``v`` is a whole number inside the integer ``dtype``'s range (pandas casts a
    masked integer's quantile back where the cast keeps it: 2**63 as float stays float64)."""
    f = float(v)
    if not f.is_integer():
        return False
    info = np.iinfo(dtype)
    return info.min <= int(f) <= info.max


def _sum_sq_dev(xp: Any, x: Any, valid: Any) -> Any:
    """Sum of squared deviations from the mean, in float64 (two passes, as pandas' nanvar)."""
    xf = x.astype(np.float64)
    if valid is None:
        mean = xp.sum(xf) / max(int(x.shape[0]), 1)
        d = xf - mean
    else:
        cnt = xp.maximum(valid.sum(), 1)
        mean = xp.sum(xp.where(valid, xf, 0.0)) / cnt
        d = xp.where(valid, xf - mean, 0.0)
    return xp.sum(d * d)


def _var_finish(op: str, ss: Any, c: int, ddof: int, fdt: np.dtype) -> Any:
    with np.errstate(divide="ignore", invalid="ignore"):
        var = np.float64(ss) / np.float64(max(c - ddof, 0))
    # pandas rounds the variance to the values' float type first, then takes the roots in it
    var = fdt.type(var)
    if op == "var":
        return var
    if op == "std":
        return fdt.type(np.sqrt(var))
    with np.errstate(divide="ignore", invalid="ignore"):
        return fdt.type(np.sqrt(var) / np.sqrt(fdt.type(c)))


def _sorted_valid(xp: Any, x: Any, valid: Any) -> Any:
    """Ascending values with the missing ones moved to the end (NaN sorts last by itself)."""
    if x.dtype.kind == "b":
        x = x.astype(np.int8)
    if valid is None or x.dtype.kind == "f":
        return xp.sort(x if valid is None else xp.where(valid, x, np.nan))
    return xp.sort(xp.where(valid, x, _fill(x.dtype, True)))


_SELECTING = ("lower", "higher", "nearest")


def _device_quantiles(
    xp: Any, x: Any, valid: Any, qs: list[float], interpolation: str, native: bool = False
) -> list[Any]:
    """0-d float64 device results for each q among the valid values (NaN when there are none).
    ``native``: interpolations that select a value (lower / higher / nearest) give it in its own
    dtype (exact for large integers; the caller tells an empty column by its count)."""
    s = _sorted_valid(xp, x, valid)
    cnt = int(x.shape[0]) if valid is None else valid.sum()
    last = xp.maximum(xp.asarray(cnt) - 1, 0)
    out = []
    for q in qs:
        pos = xp.asarray(q, dtype=np.float64) * last
        lo = xp.floor(pos).astype(np.int64)
        hi = xp.minimum(lo + 1, last)
        t = pos - lo
        if native and interpolation in _SELECTING and s.shape[0]:
            if interpolation == "lower":
                idx = lo
            elif interpolation == "higher":
                idx = xp.where(t > 0, hi, lo)
            else:
                idx = xp.where(t > 0.5, hi, xp.where(t < 0.5, lo, xp.where(lo % 2 == 0, lo, hi)))
            out.append(s[idx][()])
            continue
        a, b = s[lo].astype(np.float64), s[hi].astype(np.float64)
        if interpolation == "midpoint":  # NumPy: its interpolation at 0.5 (inf beside inf is NaN)
            t = xp.where(t > 0, 0.5, 0.0)
        if interpolation in ("linear", "midpoint"):
            v = xp.where(t >= 0.5, b - (b - a) * (1 - t), a + (b - a) * t)
        elif interpolation == "median":  # np.median: the middle value, or the mean of the two middle ones
            v = xp.where(t > 0, (a + b) / 2, a)
        elif interpolation == "lower":
            v = a
        elif interpolation == "higher":
            v = xp.where(t > 0, b, a)
        elif interpolation == "nearest":
            v = xp.where(t > 0.5, b, xp.where(t < 0.5, a, xp.where(lo % 2 == 0, a, b)))
        else:
            raise NotImplementedError(
                f"quantile: interpolation={interpolation!r} is not supported; use linear, lower, higher, nearest or midpoint"
            )
        out.append(xp.where(xp.asarray(cnt) > 0, v, np.nan)[()])
    return out


def _plan_any_all(
    xp: Any, x: Any, valid: Any, op: str, fetch: _Fetch, skipna: bool, nullable: bool, count: Any, n: int
) -> Finisher:
    truth = x != 0
    if valid is None or (not skipna and not nullable):
        i = fetch.add(truth.any() if op == "any" else truth.all())
        return lambda h: np.bool_(h[i])
    i = fetch.add(
        xp.where(valid, truth, op == "all").any() if op == "any" else xp.where(valid, truth, True).all()
    )
    if skipna:
        return lambda h: np.bool_(h[i])

    def kleene(h: list) -> Any:
        r = bool(h[i])
        decided = r if op == "any" else not r
        return np.bool_(r) if decided or count(h) == n else pd.NA

    return kleene


def _plan_idx(
    xp: Any, x: Any, valid: Any, op: str, fetch: _Fetch, skipna: bool, count: Any, n: int
) -> Finisher:
    if n == 0:

        def empty(h: list) -> Any:
            raise ValueError(f"attempt to get {op.replace('idx', 'arg')} of an empty sequence")

        return empty
    low = op == "idxmin"
    filled = x if valid is None else xp.where(valid, x, _fill(x.dtype, low))
    m = filled.min() if low else filled.max()
    hit = filled == m
    if x.dtype.kind == "f":  # NumPy's argmin / argmax: the first NaN value wins
        hit = hit | (xp.isnan(filled) & xp.isnan(m))
    hit = hit if valid is None else valid & hit
    i = fetch.add(xp.argmax(hit))

    def f(h: list) -> int:
        c = count(h)
        if c == 0:
            raise ValueError("Encountered all NA values")
        if not skipna and c < n:
            raise ValueError("Encountered an NA value with skipna=False")
        return int(h[i])

    return f


def _plan_nunique(xp: Any, x: Any, valid: Any, fetch: _Fetch, count: Any) -> Finisher:
    n = int(x.shape[0])
    if n == 0:
        return lambda h: 0
    s = _sorted_valid(xp, x, valid)
    cnt = n if valid is None else valid.sum()
    inside = xp.arange(1, n) < cnt
    change = s[1:] != s[:-1]
    if s.dtype.kind == "f":  # NaN values of a masked float column are one value
        change &= ~(xp.isnan(s[1:]) & xp.isnan(s[:-1]))
    i = fetch.add((change & inside).sum())
    return lambda h: 0 if count(h) == 0 else int(h[i]) + 1


def _plan_temporal(
    col: Column, op: str, fetch: _Fetch, skipna: bool, ddof: int, min_count: int, q: float
) -> Finisher:
    is_dt = isinstance(col, DatetimeColumn)
    unit = col.unit
    tz = getattr(col, "tz", None)
    name = "DatetimeArray" if is_dt else "TimedeltaArray"
    allowed = {"min", "max", "mean", "median", "quantile", "std", "count", "nunique", "idxmin", "idxmax"}
    if not is_dt:
        allowed |= {"sum", "any", "all"}
    if op not in allowed:
        if op in ("any", "all"):
            raise TypeError(f"'{op}' with datetime64 dtypes is not supported.")
        raise TypeError(f"'{name}' with dtype {col.dtype} does not support operation '{op}'")

    def stamp(v: Any) -> Any:
        # pandas truncates a float result (mean / median / quantile / std) to whole ticks, toward
        # zero (int64 of the float), for datetimes and timedeltas alike
        ticks = int(float(v)) if isinstance(v, (float, np.floating)) else int(v)
        if op == "std" or not is_dt:
            return pd.Timedelta(np.timedelta64(ticks, unit))
        ts = pd.Timestamp(np.datetime64(ticks, unit))
        return ts.tz_localize("UTC").tz_convert(tz) if tz is not None else ts

    wrap = stamp if op not in ("count", "nunique", "idxmin", "idxmax", "any", "all") else None
    out = _plan_values(col.data, col.mask, op, fetch, skipna, ddof, min_count, q, pd.NaT, wrap, False)
    if op != "sum" or len(col) == 0:
        return out
    # the int64 ticks wrap where the true sum leaves int64 (pandas raises): a float64 sum, in the same
    # transfer, tells (a wrapped sum is at least 2**64 away from it; rounding is far below 2**62)
    xp = col.xp
    filled = col.data if col.mask is None else xp.where(col.mask, col.data, 0)
    i = fetch.add(xp.sum(filled, dtype=np.int64))
    j = fetch.add(xp.sum(filled.astype(np.float64)))

    def checked(h: list) -> Any:
        if abs(float(int(h[i])) - float(h[j])) > 2.0**62:
            from ember._compat import timedelta_sum_overflow

            raise timedelta_sum_overflow()  # pandas 3.0: ValueError
        return out(h)

    return checked


def _plan_categorical(col: CategoricalColumn, op: str, fetch: _Fetch, skipna: bool) -> Finisher:
    valid = col.codes >= 0
    if op in ("count", "nunique"):
        return _plan_values(col.codes, valid, op, fetch, skipna, 1, 0, 0.5, np.nan, None, False)
    if op in ("idxmin", "idxmax"):  # pandas: by the codes, ordered or not
        return _plan_values(col.codes, valid, op, fetch, skipna, 1, 0, 0.5, np.nan, None, False)
    if op in ("min", "max"):
        if not col.ordered:
            raise TypeError(
                f"Categorical is not ordered for operation {op}\nyou can use .as_ordered() to change the Categorical to an ordered one\n"
            )
        code = _plan_values(col.codes, valid, op, fetch, skipna, 1, 0, 0.5, np.nan, None, False)

        def f(h: list) -> Any:
            c = code(h)
            return c if isinstance(c, float) else col.categories.to_pandas().iloc[int(c)]

        return f
    raise TypeError(f"'Categorical' with dtype category does not support operation '{op}'")


def _plan_string(col: StringColumn, op: str, fetch: _Fetch, skipna: bool, min_count: int = 0) -> Finisher:
    if op == "count":
        return _plan_values(col.lengths(), col.mask, op, fetch, skipna, 1, 0, 0.5, np.nan, None, False)
    na = col.pd_dtype.na_value if isinstance(col.pd_dtype, pd.StringDtype) else np.nan
    if op in ("any", "all"):  # a string is truthy when non-empty; a missing one (NaN) is truthy too
        if na is pd.NA:  # pandas' 'string' dtype (pd.NA) has no truth reductions ('str' has)
            raise TypeError(f"Cannot perform reduction '{op}' with string dtype")
        truth = col.lengths() > 0
        if col.mask is not None:
            # skipped: False for any, True for all; kept (skipna=False): the missing value's truth
            # (NaN is truthy, an object column's None is not)
            missing = (op == "all") if skipna else not (col.pd_dtype == object and col.na is None)
            truth = truth & col.mask if not missing else truth | ~col.mask
        i = fetch.add(truth.any() if op == "any" else truth.all())
        kind = np.bool_ if col.pd_dtype == object else bool  # pandas: a Python bool from 'str' data
        return lambda h: kind(bool(h[i]))
    if op == "sum":
        arr = col.to_arrow()  # host path: Arrow joins the values without a Python loop
        too_few = len(arr) - arr.null_count < min_count  # pandas: NaN (NA for 'string')
        if col.pd_dtype == object:  # pandas adds the objects up from 0: None / NaN take part
            if arr.null_count == len(arr) and (skipna or not arr.null_count):
                return lambda h: np.nan if too_few else 0
            if arr.null_count and skipna:
                raise TypeError('can only concatenate str (not "int") to str')
            if arr.null_count:
                raise NotImplementedError(
                    "sum of an object column of strings with missing values and skipna=False is not "
                    "supported (pandas gives NaN for a Series, None for a DataFrame column)"
                )
        if (arr.null_count and not skipna) or too_few:
            return lambda h: na
        valid = arr.drop_null()
        joined = pc.binary_join(
            pa.ListArray.from_arrays(pa.array([0, len(valid)], pa.int32()), valid),
            pa.scalar("", pa.large_string()),
        )
        return lambda h: joined[0].as_py()
    if op in ("min", "max", "nunique", "idxmin", "idxmax"):
        arr = col.to_arrow()  # host path (documented in the module docstring)
        if op in ("idxmin", "idxmax"):
            return lambda h: _string_idx(arr, op, skipna)
        if op == "nunique":
            return lambda h: int(pc.count_distinct(arr, mode="only_valid").as_py())
        if arr.null_count and not skipna:
            return lambda h: na
        v = pc.min_max(arr)[op].as_py()
        return lambda h: na if v is None else v
    missing = missing_objects_reduction(col, op, skipna, min_count)  # nanops skips every marker
    if missing is not None:
        return missing
    raise TypeError(f"Cannot perform reduction '{op}' with string dtype")


def _string_idx(arr: Any, op: str, skipna: bool) -> int:
    if len(arr) == 0:
        raise ValueError(f"attempt to get {op.replace('idx', 'arg')} of an empty sequence")
    if arr.null_count == len(arr):
        raise ValueError("Encountered all NA values")
    if arr.null_count and not skipna:
        raise ValueError("Encountered an NA value with skipna=False")
    value = pc.min_max(arr)["min" if op == "idxmin" else "max"]
    return int(pc.index(arr, value).as_py())
