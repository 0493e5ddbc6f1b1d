"""Missing data: fillna, ffill/bfill, linear interpolation, where (Series.where/mask) and dropna masks.

Forward/backward fills are vectorized as a running maximum of the positions of valid rows (the last
valid row at or before each row), then one gather; no per-row or per-gap Python. String results are
rebuilt with one scan of the output lengths (one device sync for the byte count).
"""

from __future__ import annotations

import datetime as _dt
from typing import Any

import numpy as np
import pandas as pd

from ember._compat import PANDAS_31
from ember.backend.primitives import cummax
from ember.column import (
    CategoricalColumn,
    Column,
    DatetimeColumn,
    NumericColumn,
    StringColumn,
    TimedeltaColumn,
)
from ember.column.base import Unsupported
from ember.column.scalars import scalar_for
from ember.ops.where_numeric import block_where_numeric, merge_rows

_UNIT_NS = {"s": 1_000_000_000, "ms": 1_000_000, "us": 1_000, "ns": 1}


def _pandas_view(col: Column) -> Column:
    """Non-nullable int columns with a mask are float64 with NaN in pandas; make them so."""
    if isinstance(col, NumericColumn) and not col.nullable and col.mask is not None and not col.is_bool:
        return col.set_missing(col.mask)
    return col


def _is_na_scalar(x: Any) -> bool:
    return x is None or x is pd.NA or x is pd.NaT or (isinstance(x, float) and np.isnan(x))


# --- fill ----------------------------------------------------------------------------------------------


def fillna(col: Column, value: Any, limit: int | None = None) -> Column:
    """Missing values replaced by ``value`` (a scalar, or a Column of the same length, row by row);
    with ``limit`` only the first ``limit`` missing values."""
    col, value = _pandas_view(col), scalar_for(col, value, "fill")  # date, Decimal, NumPy times
    if limit is not None and (not isinstance(limit, (int, np.integer)) or limit <= 0):
        raise ValueError("Limit must be greater than 0")
    if isinstance(value, Column):
        if len(value) != len(col):
            raise ValueError(f"fillna: value has {len(value)} rows, the column {len(col)}")
        if isinstance(col, NumericColumn) and not (col.has_nulls_possible and bool(col.isna().any())):
            return col  # nothing to fill: pandas keeps the column as it is (one sync)
        return where(col, _kept(col, limit), value, setitem=True)
    if _is_na_scalar(value):
        return col
    if isinstance(col, NumericColumn) and not col.has_nulls_possible:
        return col
    return where(col, _kept(col, limit), value, setitem=True)


def _kept(col: Column, limit: int | None) -> Any:
    """The rows fillna leaves as they are: the values, and the missing ones past the first ``limit``."""
    missing = col.isna()
    if limit is None:
        return ~missing
    return ~missing | (col.xp.cumsum(missing) > limit)


def _last_valid(valid: Any) -> Any:
    """For each row, the position of the last valid row at or before it (-1 when there is none)."""
    xp = _xp(valid)
    n = int(valid.shape[0])
    return cummax(xp.where(valid, xp.arange(n, dtype=np.int64), -1))


def _next_valid(valid: Any) -> Any:
    """For each row, the position of the next valid row at or after it (-1 when there is none)."""
    n = int(valid.shape[0])
    rev = _last_valid(valid[::-1])[::-1]
    xp = _xp(valid)
    return xp.where(rev < 0, -1, n - 1 - rev)


def _xp(a: Any) -> Any:
    from ember.backend import array_module

    return array_module(a)


def _fill_from(col: Column, src: Any, limit: int | None, forward: bool) -> Column:
    xp = col.xp
    n = len(col)
    if limit is not None:
        if limit <= 0:
            raise ValueError("Limit must be greater than 0")
        pos = xp.arange(n, dtype=np.int64)
        gap = pos - src if forward else src - pos
        src = xp.where((src >= 0) & (gap <= limit), src, -1)
    return col.take_nullable(src) if n else col


def ffill(col: Column, limit: int | None = None) -> Column:
    """Propagate the last valid value forward (at most ``limit`` rows into each gap)."""
    col = _pandas_view(col)
    if not col.has_nulls_possible and not isinstance(col, CategoricalColumn):
        return col
    return _fill_from(col, _last_valid(~col.isna()), limit, True)


def bfill(col: Column, limit: int | None = None) -> Column:
    """Propagate the next valid value backward (at most ``limit`` rows into each gap)."""
    col = _pandas_view(col)
    if not col.has_nulls_possible and not isinstance(col, CategoricalColumn):
        return col
    return _fill_from(col, _next_valid(~col.isna()), limit, False)


def interpolate_linear(col: Column, limit_direction: str = "forward") -> Column:
    """Linear interpolation over row positions (pandas' default ``method='linear'``).

    'forward' (pandas' default) leaves leading missing values and fills trailing ones with the last
    valid value; 'backward' the reverse; 'both' fills both ends.
    """
    if limit_direction not in ("forward", "backward", "both"):
        raise ValueError(
            f"Invalid limit_direction: expecting one of ['forward', 'backward', 'both'], got '{limit_direction}'."
        )
    if not isinstance(col, NumericColumn):
        raise NotImplementedError(f"interpolate_linear: only numeric columns are supported, got {col.dtype}")
    col = _pandas_view(col)
    if not col.has_nulls_possible:
        return col
    xp, n = col.xp, len(col)
    valid = ~col.isna()
    prev, nxt = _last_valid(valid), _next_valid(valid)
    y = col.data.astype(np.float64) if col.data.dtype.kind != "f" else col.data
    yp = y[xp.maximum(prev, 0)] if n else y
    yn = y[xp.maximum(nxt, 0)] if n else y
    pos = xp.arange(n, dtype=np.float64)
    with np.errstate(all="ignore"):
        t = (pos - prev) / (nxt - prev)
        inner = yp + (yn - yp) * t
    has_p, has_n = prev >= 0, nxt >= 0
    out = xp.where(has_p & has_n, inner, np.nan)
    if limit_direction in ("forward", "both"):
        out = xp.where(has_p & ~has_n, yp, out)
    if limit_direction in ("backward", "both"):
        out = xp.where(~has_p & has_n, yn, out)
    out = xp.where(valid, y, out).astype(y.dtype, copy=False)
    if col.nullable:
        return NumericColumn(out, ~xp.isnan(out), nullable=True)
    return NumericColumn(out)


# --- where ---------------------------------------------------------------------------------------------


def where(
    col: Column, cond: Any, other: Any = None, setitem: bool = False, block_where: bool = False
) -> Column:
    """Rows of ``col`` where ``cond`` is True, else ``other`` (a Column, a scalar, or None = missing);
    ``setitem``: as pandas' fillna sets a masked column's values (a NumPy integer out of range raises);
    ``block_where``: a column ``other`` keeps the dtype as pandas' ``Series.where`` does (no row
    replaced, or every value held); else the common type, as the internal row merges want."""
    col, other = _pandas_view(col), scalar_for(col, other, "fill")
    xp = col.xp
    cond = xp.asarray(cond, dtype=bool)
    if other is None or (
        not isinstance(other, Column) and _is_na_scalar(other) and not isinstance(other, float)
    ):
        if _dtype_follows_missing(col) and bool(cond.all()):
            return col  # one sync: pandas keeps an int / bool column whose rows all stay
        if type(col).__name__ == "ListColumn":
            return _where_lists_missing(col, cond)
        return col.set_missing(cond)
    if isinstance(other, Column):
        other = _pandas_view(other.to(xp))
    elif isinstance(col, NumericColumn):
        return _where_numeric_scalar(col, cond, other, setitem)
    if isinstance(col, NumericColumn):
        return _where_numeric(col, cond, other, setitem, block_where)
    if isinstance(col, StringColumn):
        return _where_string(col, cond, other)
    if isinstance(col, (DatetimeColumn, TimedeltaColumn)):
        return _where_temporal(col, cond, other)
    if isinstance(col, CategoricalColumn):
        return _where_categorical(col, cond, other)
    raise NotImplementedError(f"where: column kind {type(col).__name__} is not supported")


def _where_lists_missing(col: Column, cond: Any) -> Column:
    """A list column's rows where ``cond`` is False made missing: pandas fills them with NaN and keeps
    each kept row's own missing value (pd.NA / None); one marker per ember column, so refused where
    both meet. One sync."""
    from ember.backend import to_host

    out = col.set_missing(cond)
    if col.na is np.nan or (isinstance(col.na, float) and col.na != col.na):
        return out
    xp = col.xp
    kept_missing = xp.zeros((), dtype=bool) if col.mask is None else (cond & ~col.mask).any()
    replaced, kept = to_host(xp.stack([(~cond).any(), kept_missing])).tolist()
    if replaced and kept:
        raise Unsupported(
            f"where / mask of a list column: NaN beside its own missing value {col.na!r} (pandas keeps "
            "each row's; an ember list column holds one) is not supported by ember."
        )
    if replaced:
        out.na = np.nan
    return out


def _where_numeric_scalar(col: NumericColumn, cond: Any, other: Any, setitem: bool = False) -> Column:
    """``other`` where ``cond`` is False, as pandas' Block.where: a value the dtype holds keeps it; else,
    when a row is replaced, a NumPy column takes pandas' common type (uint8 with -1 is int16, with 2.5
    float64; with a bool, or a number into bools, an object column: refused) and a masked one raises
    pandas' error (TypeError; OverflowError for an integer out of its range). A NaN into a masked
    column is missing. Synchronizes once, only where the value does not fit."""
    xp, dtype = col.xp, col.data.dtype
    is_bool = isinstance(other, (bool, np.bool_))
    if not is_bool and not isinstance(other, (int, float, np.integer, np.floating)):
        if bool(cond.all()):
            return col
        if col.nullable:
            raise TypeError(f"Invalid value '{other}' for dtype '{col.dtype}'")
        raise NotImplementedError(
            f"where / fillna: a {type(other).__name__} value into a {col.dtype} column (pandas would make "
            "an object column mixing types; ember's numeric columns hold numbers)"
        )
    if col.nullable and isinstance(other, (float, np.floating)) and np.isnan(other):
        return col.set_missing(cond)
    fill = _held(dtype, other, col.nullable)
    if fill is None:
        if bool(cond.all()):  # pandas' no-op: no row is replaced (one sync)
            return col
        integral = not is_bool and (
            isinstance(other, (int, np.integer)) or (bool(np.isfinite(other)) and float(other).is_integer())
        )
        if (
            integral
            and dtype.kind in "iu"
            and not -(2**63) <= int(other) < 2 ** (63 if dtype.kind == "i" else 64)
        ):
            if not col.nullable or (
                isinstance(other, (float, np.floating)) and (not setitem or not PANDAS_31)
            ):
                raise NotImplementedError(  # pandas: its internal errors, an object column or NumPy's cast
                    f"where / fillna: {other!r}, beyond 64-bit integers, into a {col.dtype} column"
                )
        if col.nullable:
            # NumPy's cast (wraps) for where / mask; fillna raises as setitem, except under pandas 3.0
            if dtype.kind in "iu" and isinstance(other, np.integer) and (not setitem or not PANDAS_31):
                fill = np.asarray(other).astype(dtype)[()]
                data = xp.where(cond, col.data, fill).astype(dtype, copy=False)
                return NumericColumn(data, None if col.mask is None else (col.mask | ~cond), nullable=True)
            if dtype.kind in "iu" and not is_bool and float(other).is_integer():
                raise OverflowError(f"Python integer {int(other)} out of bounds for {dtype}")
            raise TypeError(f"Invalid value '{other}' for dtype '{col.dtype}'")
        target = _result_type(dtype, other)
        if target is None:
            raise NotImplementedError(
                f"where / fillna: {other!r} into a {col.dtype} column (pandas would make an object "
                "column mixing types; cast the column first)"
            )
        col = NumericColumn(col.data.astype(target), col.mask)
        dtype, fill = target, target.type(other)
    data = xp.where(cond, col.data, fill).astype(dtype, copy=False)
    mask = None if col.mask is None else (col.mask | ~cond)
    return NumericColumn(data, mask, nullable=col.nullable)


def _held(dtype: np.dtype, value: Any, nullable: bool) -> Any:
    """``value`` as a scalar of ``dtype`` when the dtype holds it (pandas' np_can_hold_element and
    masked arrays' setitem check), else None."""
    is_bool = isinstance(value, (bool, np.bool_))
    if dtype.kind == "b":
        return np.bool_(value) if is_bool else None
    if is_bool:
        return None
    if dtype.kind == "f":
        with np.errstate(over="ignore"):
            return dtype.type(value)  # pandas keeps a float column for any number (float32: inf)
    if isinstance(value, (float, np.floating)) and not _holds_exactly(dtype, value):
        return None
    info = np.iinfo(dtype)
    return dtype.type(int(value)) if info.min <= int(value) <= info.max else None


def _result_type(dtype: np.dtype, value: Any) -> np.dtype | None:
    """pandas' find_result_type for a NumPy column and a number it cannot hold (None: object)."""
    if dtype.kind == "b" or isinstance(value, (bool, np.bool_)):
        return None
    if isinstance(value, np.generic):
        return np.result_type(dtype, value)
    if isinstance(value, float) and not value.is_integer():
        return np.result_type(dtype, np.float64)
    v = int(value) if np.isfinite(value) else value
    if not isinstance(v, int):
        return np.result_type(dtype, np.float64)
    right = np.min_scalar_type(v)
    if right.kind == "O":
        return None
    if dtype.kind != "u" and 0 < v <= np.iinfo(right).max:
        right = np.dtype(f"i{right.itemsize}")
    return np.result_type(dtype, right)


def _holds_exactly(dtype: Any, value: float) -> bool:
    """Whether an integer dtype holds a float value without loss (a whole number in its range)."""
    if not np.isfinite(value) or not float(value).is_integer():
        return False
    info = np.iinfo(dtype)
    return info.min <= int(value) <= info.max


def _dtype_follows_missing(col: Column) -> bool:
    """Whether a missing value changes the column (NumPy ints and bools become float64 / object in
    pandas; an object column's None / NA / NaT stays only where no row is replaced, as ember holds
    one missing value a column), so that where() must know whether any row is replaced."""
    if isinstance(col, StringColumn) and col.dtype == object and col.mask is not None:
        return not (isinstance(col.na, float) and col.na != col.na)
    return isinstance(col, NumericColumn) and not col.nullable and col.data.dtype.kind in "iub"


def _valid(col: Column) -> Any:
    return col.mask if not (isinstance(col, NumericColumn) and col.is_float) else None


def _where_numeric(
    col: NumericColumn, cond: Any, other: Any, setitem: bool = False, block_where: bool = False
) -> Column:
    """``setitem`` / ``block_where``: pandas' fillna / Series.where from a column (ops/where_numeric);
    else the common type, as the internal row merges want."""
    xp = col.xp
    if isinstance(other, NumericColumn):
        if setitem or block_where:
            return block_where_numeric(col, cond, other)
        dtype = np.result_type(col.data.dtype, other.data.dtype)
        return merge_rows(col, cond, other, dtype, col.nullable or other.nullable)
    if isinstance(other, Column):
        if bool(cond.all()):  # pandas' no-op: no row is replaced (one sync)
            return col
        if col.nullable:  # a masked column's setitem check
            raise TypeError(f"Invalid value for dtype '{col.dtype}': {other.dtype} values")
        raise _object_result(col, f"{other.dtype} values")
    if not isinstance(other, (bool, int, float, np.number, np.bool_)):
        raise TypeError(f"where: cannot set a value of type {type(other).__name__} into a {col.dtype} column")
    dtype = np.result_type(col.data.dtype, other)
    if col.nullable and dtype != col.data.dtype:
        if not (col.data.dtype.kind in "iu" and float(other).is_integer()):
            raise TypeError(f"Invalid value '{other}' for dtype '{col.dtype}'")
        dtype = col.data.dtype
    fill = np.asarray(other, dtype=dtype)[()] if xp is not np else other
    with np.errstate(all="ignore"):
        data = xp.where(cond, col.data, fill).astype(dtype, copy=False)
    mask = None if col.mask is None else (col.mask | ~cond)
    if col.nullable:
        return NumericColumn(data, mask, nullable=True)
    return NumericColumn(data, mask)


def _string_source(x: Any, n: int, xp: Any) -> tuple[Any, Any, Any]:
    """(bytes, starts, lengths) of a string column or of a str scalar repeated ``n`` times."""
    if isinstance(x, StringColumn):
        return x.chars, x.data[:-1], x.data[1:] - x.data[:-1]
    raw = np.frombuffer(str(x).encode("utf-8"), dtype=np.uint8).copy()
    return xp.asarray(raw), xp.zeros(n, dtype=np.int64), xp.full(n, raw.size, dtype=np.int64)


def _where_string(col: StringColumn, cond: Any, other: Any) -> StringColumn:
    if not isinstance(other, (str, StringColumn)):
        if bool(cond.all()):  # pandas' no-op: no row is replaced (one sync)
            return col
        raise NotImplementedError(
            f"where / fillna: a {type(other).__name__} value into a string column (pandas would make an "
            "object column mixing types; ember's string columns hold strings)"
        )
    xp, n = col.xp, len(col)
    ca, sa, la = _string_source(col, n, xp)
    cb, sb, lb = _string_source(other, n, xp)
    lengths = xp.where(cond, la, lb)
    offs = xp.zeros(n + 1, dtype=np.int64)
    xp.cumsum(lengths, out=offs[1:])
    total = int(offs[-1])  # the one sync: output size
    if total:
        pos = xp.arange(total, dtype=np.int64)
        row = xp.searchsorted(offs, pos, side="right") - 1
        k = pos - offs[row]
        take_a = cond[row]
        ia = xp.where(take_a, sa[row] + k, 0)
        ib = xp.where(take_a, 0, sb[row] + k)
        av = ca[xp.minimum(ia, max(int(ca.shape[0]) - 1, 0))] if ca.shape[0] else xp.zeros(total, np.uint8)
        bv = cb[xp.minimum(ib, max(int(cb.shape[0]) - 1, 0))] if cb.shape[0] else xp.zeros(total, np.uint8)
        chars = xp.where(take_a, av, bv)
    else:
        chars = xp.zeros(0, dtype=np.uint8)
    ma = col.mask
    mb = other.mask if isinstance(other, StringColumn) else None
    mask = None
    if ma is not None or mb is not None:
        ones = xp.ones(n, dtype=bool)
        mask = xp.where(cond, ones if ma is None else ma, ones if mb is None else mb)
    na = _kept_marker(col, other, cond, ma, mb) if mask is not None else col.na
    return StringColumn(offs, chars, mask, col.pd_dtype, na)


def _marker(col: StringColumn) -> Any:
    """The missing value a string column shows: its dtype's (str NaN, 'string' pd.NA), else its own."""
    return col.pd_dtype.na_value if isinstance(col.pd_dtype, pd.StringDtype) else col.na


def _kept_marker(col: StringColumn, other: Any, cond: Any, ma: Any, mb: Any) -> Any:
    """The missing value of an object result: that of the side its missing rows come from (pandas
    keeps each row's own None / NaN / pd.NA); refused where both sides give one and they differ, as
    an ember object column holds a single missing value. One sync."""
    from ember.backend.arrays import to_host

    if col.pd_dtype != np.dtype(object) or not isinstance(other, StringColumn):
        return col.na
    xp = col.xp
    kept = xp.zeros((), dtype=bool) if ma is None else (cond & ~ma).any()
    taken = xp.zeros((), dtype=bool) if mb is None else (~cond & ~mb).any()
    from_kept, from_taken = to_host(xp.stack([kept, taken])).tolist()
    mine, theirs = col.na, _marker(other)
    if from_kept and from_taken and not (mine is theirs or (_is_nan(mine) and _is_nan(theirs))):
        raise Unsupported(
            f"where / fillna: missing values {mine!r} and {theirs!r} in one object column (pandas keeps "
            "both; an ember object column holds one missing value) is not supported by ember."
        )
    return theirs if from_taken and not from_kept else mine


def _is_nan(x: Any) -> bool:
    return isinstance(x, float) and x != x


def _object_result(col: Column, what: str) -> Unsupported:
    return Unsupported(
        f"where / fillna: {what} into a {col.dtype} column (pandas makes an object column mixing "
        "types) is not supported by ember."
    )


def _temporal_ticks(col: DatetimeColumn | TimedeltaColumn, other: Any) -> tuple[Any, Any]:
    """``other`` as ticks in the column's unit, and its validity (None = all valid). A value pandas
    does not take into the column (a number, a string it does not parse, the other kind of time, a
    ``date``, tz-naive beside tz-aware) makes pandas' object column: refused."""
    if isinstance(other, type(col)):
        if (getattr(other, "tz", None) is None) != (getattr(col, "tz", None) is None):
            raise _object_result(col, f"a {other.dtype} column")
        f_o, f_c = _UNIT_NS[other.unit], _UNIT_NS[col.unit]
        ticks = other.data * (f_o // f_c) if f_o >= f_c else other.data // (f_c // f_o)
        return ticks, other.mask
    if isinstance(other, Column):
        raise _object_result(col, f"a {other.dtype} column")
    value = _temporal_scalar(col, other)
    if value is pd.NaT:
        return 0, col.xp.zeros(1, dtype=bool)
    cast = value.as_unit(col.unit)
    if cast != value:  # pandas makes the column of the finer unit; ember would truncate the value
        raise NotImplementedError(
            f"where / fillna: {value!r} is finer than the column's unit '{col.unit}' (pandas changes "
            f"the column's unit); cast the column to unit '{value.unit}' first"
        )
    return int(cast.asm8.view("i8")), None


def _temporal_scalar(col: DatetimeColumn | TimedeltaColumn, other: Any) -> Any:
    """``other`` as a Timestamp in the column's time zone / a Timedelta, or NaT, as pandas' setitem
    validation takes it; anything else refused (pandas' object column)."""
    if isinstance(col, DatetimeColumn):
        if isinstance(other, str) and other.strip().lower() not in ("now", "today"):
            try:
                value = pd.Timestamp(other)
            except ValueError:
                raise _object_result(col, f"the string {other!r}") from None
            if value is not pd.NaT and value.tz is None and col.tz is not None:
                value = value.tz_localize(col.tz)  # pandas reads the string in the column's zone
        elif isinstance(other, (pd.Timestamp, _dt.datetime, np.datetime64)):
            value = pd.Timestamp(other)
            if value is pd.NaT and col.tz is not None:  # a tz-naive NaT
                raise _object_result(col, f"{other!r}")
        else:
            raise _object_result(col, f"a {type(other).__name__}")
        if value is pd.NaT:
            return value
        if (value.tz is None) != (col.tz is None):
            raise _object_result(col, f"{value!r}")
        return value if col.tz is None else value.tz_convert(col.tz)
    if isinstance(other, str):
        try:
            return pd.Timedelta(other)
        except ValueError:
            raise _object_result(col, f"the string {other!r}") from None
    if isinstance(other, (pd.Timedelta, _dt.timedelta, np.timedelta64)):
        return pd.Timedelta(other)
    raise _object_result(col, f"a {type(other).__name__}")


def _where_temporal(col: DatetimeColumn | TimedeltaColumn, cond: Any, other: Any) -> Column:
    xp = col.xp
    try:
        ticks, omask = _temporal_ticks(col, other)
    except Unsupported:
        if bool(cond.all()):  # one sync: pandas keeps the column where no row is replaced
            return col
        raise
    data = xp.where(cond, col.data, ticks).astype(np.int64, copy=False)
    mask = None
    if col.mask is not None or omask is not None:
        ones = xp.ones(len(col), dtype=bool)
        mask = xp.where(cond, ones if col.mask is None else col.mask, ones if omask is None else omask)
    return col._rebuild(data, mask)


def _where_categorical(col: CategoricalColumn, cond: Any, other: Any) -> Column:
    xp = col.xp
    if isinstance(other, CategoricalColumn):
        if not col.categories.to_pandas().equals(other.categories.to_pandas()):
            raise TypeError("where: categoricals must have the same categories")
        codes = other.codes
    elif isinstance(other, Column):
        raise TypeError(f"where: cannot combine a categorical with {other.dtype}")
    else:
        code = int(pd.Index(col.categories.to_pandas()).get_indexer([other])[0])
        if code < 0 and bool(cond.all()):  # one sync: pandas keeps the column where no row changes
            return col
        if code < 0:
            raise TypeError(
                f"Cannot setitem on a Categorical with a new category ({other}), set the categories first"
            )
        codes = code
    return CategoricalColumn(xp.where(cond, col.codes, codes).astype(np.int32), col.categories, col.ordered)


# --- dropna --------------------------------------------------------------------------------------------


def dropna_mask(
    cols: list[Column], how: str = "any", thresh: int | None = None, n: int | None = None, xp: Any = None
) -> Any:
    """Boolean array of the rows to keep: no missing value ('any'), not all missing ('all'), or at
    least ``thresh`` valid values. With no columns (``n`` rows on ``xp``) as pandas: 'any' keeps
    every row, 'all' none, ``thresh`` those rows when it is 0 or less."""
    if how not in ("any", "all"):
        raise ValueError(f"invalid how option: {how}")
    if not cols:
        if n is None:
            raise ValueError("dropna_mask: no columns")
        keep = (thresh <= 0) if thresh is not None else how == "any"
        return xp.full(n, keep, dtype=bool)
    count = None
    for c in cols:
        v = (~c.isna()).astype(np.int64)
        count = v if count is None else count + v
    if thresh is not None:
        return count >= thresh
    return count == len(cols) if how == "any" else count > 0
