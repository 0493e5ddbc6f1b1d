"""Elementwise one-column operations: negate, invert, abs, round, clip, NumPy ufuncs, isin, between,
map (dict), astype.

Lookups (isin, map) are vectorized: numeric keys by sort + searchsorted, strings by dense ranks of the
column and the keys together (one string sort). ``astype`` works on the device except for conversions
to and from strings and to 'category' of non-numeric columns, which go through pandas/pyarrow on the
host (the column is copied there and back).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.backend import to_host
from ember.column import (
    CategoricalColumn,
    Column,
    DatetimeColumn,
    NumericColumn,
    StringColumn,
    TimedeltaColumn,
    concat_columns,
    from_any,
    from_pandas,
)
from ember.column.base import Unsupported
from ember.column.decimal import DecimalColumn
from ember.column.dtypes import is_masked_extension, resolve
from ember.column.scalars import SKIP, isin_values, scalar_for
from ember.ops import decimal_ops
from ember.ops.binary import UNIT_NS, binary_op, pandas_view, scalar_ticks
from ember.ops.datetimes import rescale_checked
from ember.ops.object_missing import unary as missing_objects_unary

_UFUNC_TO_OP = {
    "add": "add",
    "subtract": "sub",
    "multiply": "mul",
    "true_divide": "truediv",
    "divide": "truediv",
    "floor_divide": "floordiv",
    "remainder": "mod",
    "mod": "mod",
    "power": "pow",
    "equal": "eq",
    "not_equal": "ne",
    "less": "lt",
    "less_equal": "le",
    "greater": "gt",
    "greater_equal": "ge",
    "bitwise_and": "and_",
    "bitwise_or": "or_",
    "bitwise_xor": "xor",
    "logical_and": "and_",
    "logical_or": "or_",
    "logical_xor": "xor",
}


# --- sign, invert, abs, round, clip --------------------------------------------------------------------


def _numeric_only(col: Column, what: str) -> NumericColumn:
    if isinstance(col, NumericColumn):
        return pandas_view(col)
    raise TypeError(f"bad operand type for {what}: '{col.dtype}'")


def negate(col: Column) -> Column:
    """``-col``."""
    if (missing := missing_objects_unary(col, "neg")) is not None:
        return missing
    if isinstance(col, DecimalColumn):
        return decimal_ops.negate(col)
    if isinstance(col, TimedeltaColumn):
        return col._rebuild(-col.data, col.mask)
    c = _numeric_only(col, "unary -")
    if c.is_bool:  # pandas: -bool is logical not (numpy itself refuses)
        return NumericColumn(~c.data, c.mask, c.nullable)
    return NumericColumn(-c.data, c.mask, c.nullable)


def invert(col: Column) -> Column:
    """``~col``: logical not for bools, bitwise not for integers."""
    if (missing := missing_objects_unary(col, "invert")) is not None:
        return missing
    c = _numeric_only(col, "unary ~")
    if c.is_float:
        raise TypeError("ufunc 'invert' not supported for the input types")
    return NumericColumn(~c.data, c.mask, c.nullable)


def absolute(col: Column) -> Column:
    """``abs(col)``."""
    if (missing := missing_objects_unary(col, "abs")) is not None:
        return missing
    if isinstance(col, DecimalColumn):
        return decimal_ops.absolute(col)
    if isinstance(col, TimedeltaColumn):
        return col._rebuild(col.xp.abs(col.data), col.mask)
    c = _numeric_only(col, "abs()")
    return NumericColumn(c.xp.abs(c.data), c.mask, c.nullable)


def round_(col: Column, decimals: int = 0) -> Column:
    """Round half to even to ``decimals`` places (ints and bools come back unchanged for decimals >= 0)."""
    if isinstance(col, DecimalColumn):  # pandas rounds each Decimal object (None raises)
        raise Unsupported("round of decimal.Decimal values is not supported by ember")
    c = _numeric_only(col, "round()")
    if not c.is_float and (decimals >= 0 or c.is_bool):
        return c
    return NumericColumn(c.xp.round(c.data, decimals), c.mask, c.nullable)


def clip(col: Column, lower: Any = None, upper: Any = None) -> Column:
    """Values limited to [lower, upper] (scalars; None = unbounded; reversed bounds are swapped, as
    pandas does). Missing values stay missing."""
    lower, upper = (None if pd.api.types.is_scalar(b) and pd.isna(b) else b for b in (lower, upper))
    if lower is None and upper is None:
        return col  # pandas: a missing bound is no bound; without one the data of any dtype is kept
    lower, upper = scalar_for(col, lower, "clip"), scalar_for(col, upper, "clip")
    if not _none(lower) and not _none(upper) and upper < lower:
        lower, upper = upper, lower
    if isinstance(col, (DatetimeColumn, TimedeltaColumn)):
        kind = "M" if isinstance(col, DatetimeColumn) else "m"
        lo = None if _none(lower) else scalar_ticks(lower, kind, getattr(col, "tz", None))
        hi = None if _none(upper) else scalar_ticks(upper, kind, getattr(col, "tz", None))
        data = col.data
        if lo is not None:
            data = col.xp.maximum(
                data,
                lo[0] * (UNIT_NS[lo[1]] // UNIT_NS[col.unit])
                if UNIT_NS[lo[1]] >= UNIT_NS[col.unit]
                else lo[0] // (UNIT_NS[col.unit] // UNIT_NS[lo[1]]),
            )
        if hi is not None:
            data = col.xp.minimum(
                data,
                hi[0] * (UNIT_NS[hi[1]] // UNIT_NS[col.unit])
                if UNIT_NS[hi[1]] >= UNIT_NS[col.unit]
                else hi[0] // (UNIT_NS[col.unit] // UNIT_NS[hi[1]]),
            )
        return col._rebuild(data, col.mask)
    if isinstance(col, StringColumn) or isinstance(col, CategoricalColumn) and col.ordered:
        raise Unsupported("clip of strings or ordered categoricals with bounds is not supported by ember")
    c = _numeric_only(col, "clip()")
    from ember.ops.missing import where

    # pandas' clip of numbers: where(isna | (x >= lower), lower), then where(isna | (x <= upper), upper),
    # both conditions on the original values; the dtype follows where's rules (no row replaced: kept)
    missing = c.isna()
    out: Column = c
    for bound, op in ((lower, "ge"), (upper, "le")):
        if _none(bound):
            continue
        keep = binary_op(c, bound, op)
        kept = keep.data if keep.mask is None else keep.data & keep.mask
        out = where(out, missing | kept, bound)
    return out


def _same_missing(na: Any, key: Any) -> bool:
    if isinstance(na, float):
        return isinstance(key, float) and np.isnan(key)
    return key is na


def _none(x: Any) -> bool:
    return x is None or x is pd.NA or (isinstance(x, float) and np.isnan(x))


# --- ufuncs --------------------------------------------------------------------------------------------


def apply_ufunc(ufunc: np.ufunc, *inputs: Column | Any) -> Column | tuple[Column, ...]:
    """A NumPy ufunc applied with the same-named function of the column's array module (so
    ``np.sin(series)`` stays on the device); arithmetic/comparison ufuncs follow ``binary_op``.

    Missing values propagate; for nullable columns a NaN produced by the ufunc is missing (pandas 3).
    """
    name = ufunc.__name__
    cols = [x for x in inputs if isinstance(x, Column)]
    if not cols:
        raise TypeError(f"apply_ufunc: {name} needs at least one column input")
    if ufunc.nin == 2 and name in _UFUNC_TO_OP:
        a, b = inputs
        if isinstance(a, Column):
            return binary_op(a, b, _UFUNC_TO_OP[name])
        op = _UFUNC_TO_OP[name]
        return binary_op(b, a, "r" + op if "r" + op in _R_OPS else op)
    if ufunc.nin == 1 and name in ("negative", "invert", "logical_not", "absolute", "fabs"):
        c = inputs[0]
        if name == "negative":
            return negate(c)
        if name == "logical_not":
            return invert(c) if isinstance(c, NumericColumn) and c.is_bool else _ufunc(ufunc, inputs)
        return invert(c) if name == "invert" else absolute(c)
    return _ufunc(ufunc, inputs)


_R_OPS = ("radd", "rsub", "rmul", "rtruediv", "rfloordiv", "rmod", "rpow", "rand_", "ror_", "rxor")


def _ufunc(ufunc: np.ufunc, inputs: tuple) -> Column | tuple[Column, ...]:
    name = ufunc.__name__
    cols = []
    for x in inputs:
        if isinstance(x, Column) and not isinstance(x, NumericColumn):
            raise TypeError(f"ufunc '{name}' is not supported for columns of dtype {x.dtype}")
        cols.append(pandas_view(x) if isinstance(x, Column) else x)
    col0 = next(c for c in cols if isinstance(c, Column))
    xp = col0.xp
    fn = getattr(xp, name, None)
    if fn is None:
        raise NotImplementedError(f"apply_ufunc: {name} has no {xp.__name__} equivalent")
    args = [c.data if isinstance(c, Column) else c for c in cols]
    with np.errstate(all="ignore"):
        out = fn(*args)
    nullable = any(isinstance(c, Column) and c.nullable for c in cols)
    valid = None
    for c in cols:
        if isinstance(c, Column):
            v = c.mask
            if nullable and not c.nullable and c.is_float:
                v = ~xp.isnan(c.data)
            if v is not None:
                valid = v if valid is None else valid & v
    outs = out if isinstance(out, tuple) else (out,)
    res = tuple(_wrap_ufunc_out(xp, o, valid, nullable) for o in outs)
    return res if isinstance(out, tuple) else res[0]


def _wrap_ufunc_out(xp: Any, out: Any, valid: Any, nullable: bool) -> Column:
    if nullable:
        if out.dtype.kind == "f":
            if out.dtype.itemsize < 4:  # there is no Float16: np.sin(boolean) is Float32 in pandas
                out = out.astype(np.float32)
            nn = ~xp.isnan(out)
            valid = nn if valid is None else valid & nn
        return NumericColumn(out, valid, nullable=True)
    res = NumericColumn(out)
    return res if valid is None else res.set_missing(valid)


# --- lookups: isin, map --------------------------------------------------------------------------------


def _lookup(col: Column, keys: list) -> tuple[Any, bool]:
    """For each row, the index into ``keys`` of an equal key (-1 when none), and whether a missing
    key is among ``keys`` (missing rows are never matched here)."""
    xp, n = col.xp, len(col)
    has_na = any(_none(k) or k is pd.NaT for k in keys)
    keys = [k for k in keys if not (_none(k) or k is pd.NaT or _is_nat(k))]
    if not keys or n == 0:
        return xp.full(n, -1, dtype=np.int64), has_na
    if isinstance(col, StringColumn):
        str_keys = [k for k in keys if isinstance(k, str)]
        pos = [i for i, k in enumerate(keys) if isinstance(k, str)]
        if not str_keys:
            return xp.full(n, -1, dtype=np.int64), has_na
        from ember.ops.sort import sort_keys

        kcol = from_any(str_keys, xp)
        both = concat_columns([col.with_mask(None), kcol.with_mask(None)])
        ranks = sort_keys(both).astype(np.int64)
        return _search(xp, ranks[:n], ranks[n:], xp.asarray(np.asarray(pos, dtype=np.int64))), has_na
    if isinstance(col, (DatetimeColumn, TimedeltaColumn)):
        kind = "M" if isinstance(col, DatetimeColumn) else "m"
        ticks, pos = [], []
        for i, k in enumerate(keys):
            if isinstance(k, str):
                continue  # pandas' isin does not parse strings
            if isinstance(k, (int, float, np.number)) and not isinstance(k, (np.datetime64, np.timedelta64)):
                continue  # nor read numbers as times
            try:
                t, unit, ktz = scalar_ticks(k, kind, getattr(col, "tz", None))
            except (TypeError, ValueError):
                continue
            if kind == "M" and (ktz is None) != (getattr(col, "tz", None) is None):
                continue  # a tz-naive key equals no tz-aware value, and the reverse
            f_key, f_col = UNIT_NS[unit], UNIT_NS[col.unit]
            if f_key < f_col and t % (f_col // f_key):
                continue  # a finer key between two of the column's ticks equals none of its values
            t = t * (f_key // f_col) if f_key >= f_col else t // (f_col // f_key)
            if -(2**63) < t < 2**63:  # a key beyond the column's unit range equals none of its values
                ticks.append(t)
                pos.append(i)
        if not ticks:
            return xp.full(n, -1, dtype=np.int64), has_na
        return _search(
            xp, col.data, xp.asarray(np.asarray(ticks, np.int64)), xp.asarray(np.asarray(pos, np.int64))
        ), has_na
    numeric = [(i, k) for i, k in enumerate(keys) if isinstance(k, (bool, int, float, np.number, np.bool_))]
    if not numeric:
        return xp.full(n, -1, dtype=np.int64), has_na
    data = col.data
    kv = np.asarray([k for _, k in numeric])
    dtype = np.result_type(data.dtype, kv.dtype)
    if kv.dtype.kind == "f" and np.isnan(kv).any():
        has_na = True
    return _search(
        xp,
        data.astype(dtype, copy=False),
        xp.asarray(kv.astype(dtype)),
        xp.asarray(np.asarray([i for i, _ in numeric], np.int64)),
    ), has_na


def _search(xp: Any, values: Any, keys: Any, key_pos: Any) -> Any:
    """Index (into the original key list, via ``key_pos``) of each value's equal key, or -1."""
    order = xp.argsort(keys, kind="stable") if xp is np else xp.argsort(keys)
    sk = keys[order]
    i = xp.searchsorted(sk, values, side="left")
    i = xp.minimum(i, sk.shape[0] - 1)
    hit = sk[i] == values
    return xp.where(hit, key_pos[order[i]], -1)


def isin(col: Column, values: Any) -> Column:
    """Boolean column: whether each value is among ``values`` (list, array, set, Series; strings too).
    Nullable columns give a ``boolean`` column, as pandas."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise TypeError(
            f"only list-like objects are allowed to be passed to isin(), you passed a `{type(values).__name__}`"
        )
    if isinstance(values, NumericColumn):
        values = values.to_pandas()
    if isinstance(values, (pd.Series, pd.Index, pd.api.extensions.ExtensionArray)):
        keys = list(np.asarray(values))  # as NumPy sees them: Int64 / Float64 missing values are NaN
    else:
        keys = list(values.to_pandas() if isinstance(values, Column) else values)
    keys = isin_values(col, keys)  # a date, a Decimal, a NumPy time as pandas matches them
    _check_huge_ints_beside_floats(col, keys)
    xp, n = col.xp, len(col)
    if isinstance(col, CategoricalColumn):
        cat_hit = isin(col.categories, keys).data
        _, has_na = _lookup(col.categories, [k for k in keys if _none(k)])
        safe = xp.maximum(col.codes, 0)
        out = xp.where(col.codes >= 0, cat_hit[safe] if len(col.categories) else False, has_na)
        return NumericColumn(out.astype(bool))
    if isinstance(col, NumericColumn):
        col = pandas_view(col)
    if isinstance(col, (DatetimeColumn, TimedeltaColumn)) and _other_kind_of_time(col, values, keys):
        return NumericColumn(xp.zeros(n, dtype=bool))  # pandas' check_compatible_with fails: no match
    idx, has_na = _lookup(col, keys)
    if isinstance(col, (NumericColumn, DatetimeColumn, TimedeltaColumn)):
        has_na = any(_matches_missing(col, k) for k in _nan_keys(col, values, keys))
    elif isinstance(col, StringColumn) and col.pd_dtype == object:
        # pandas compares an object column's missing values as objects: None finds only None, NaN
        # only NaN, pd.NA only pd.NA
        has_na = any(_same_missing(col.na, k) for k in keys)
    found = idx >= 0
    missing = col.isna() if col.has_nulls_possible else None
    if missing is not None:  # pandas matches missing rows only for numpy NaN/NaT among the values
        nullable = isinstance(col, NumericColumn) and col.nullable
        found = xp.where(missing, _holds_pandas_na(values) if nullable else has_na, found)
    if isinstance(col, NumericColumn) and col.nullable:
        return NumericColumn(found, None, nullable=True)
    return NumericColumn(found if n else xp.zeros(0, dtype=bool))


def _check_huge_ints_beside_floats(col: Column, keys: list) -> None:
    """Integers beyond 2**53 (in the column or the keys) beside float or missing keys: pandas
    compares them through float64 or Python objects, by paths that disagree (2**63 - 1 found, or
    not, by whether a None is among the values): refused. One sync, only on that path."""
    if not (isinstance(col, NumericColumn) and col.data.dtype.kind in "iu") or not len(col):
        return
    floats = any(isinstance(k, (float, np.floating)) or k is pd.NA or k is None for k in keys)
    if not floats:
        return
    limit = 2**53
    big_key = any(isinstance(k, (int, np.integer)) and abs(int(k)) > limit for k in keys)
    data = col.data
    big_col = bool((data > limit).any() | ((data < -limit).any() if data.dtype.kind == "i" else False))
    if big_key or big_col:
        raise Unsupported(
            "isin: integers beyond 2**53 beside float or missing values (pandas compares them through "
            "float64 or Python objects, with answers that depend on the path) is not supported by ember."
        )


def _nan_keys(col: Column, values: Any, keys: list) -> list:
    """The keys through which pandas may find a float column's NaN rows: a list NumPy reads as another
    float type is compared as Python objects, where only a Python float NaN equals NaN
    (``[np.float32('nan')]`` finds no NaN in a float64 column)."""
    if not (isinstance(col, NumericColumn) and col.is_float) or hasattr(values, "dtype"):
        return keys
    if isinstance(values, Column):
        return keys
    try:
        as_array = np.asarray(keys)
    except (TypeError, ValueError):
        as_array = np.asarray(keys, dtype=object)
    if as_array.dtype == col.data.dtype:
        return keys
    return [k for k in keys if type(k) is float]


def _other_kind_of_time(col: Column, values: Any, keys: list) -> bool:
    """Whether pandas reads ``values`` as times of another kind than the column's (tz-aware beside
    tz-naive, timedeltas beside datetimes): DatetimeArray.isin then matches nothing, NaT included."""
    tz = getattr(col, "tz", None)
    kind = "M" if isinstance(col, DatetimeColumn) else "m"
    dtype = getattr(values, "dtype", None)
    if dtype is None or dtype == object:
        if dtype is None and keys:
            try:
                read = np.asarray(keys)
            except (TypeError, ValueError):
                read = np.asarray(keys, dtype=object)
            if read.dtype.kind in "mM" and np.datetime_data(read.dtype)[0] == "generic":
                raise TypeError(f"{read.dtype} values must have a unit specified")  # np NaT without unit
        times = [k for k in keys if not (_none(k) or k is pd.NaT or _is_nat(k))]
        if not times:
            return False
        if all(isinstance(k, (pd.Timestamp, np.datetime64)) for k in times):
            aware = {getattr(k, "tz", None) is not None for k in times}
            if len(aware) > 1:  # pandas compares Python objects then, and its NaT finds NaT
                return False
            return kind == "m" or aware == {tz is None}  # all keys of the other kind / tz-awareness
        if all(isinstance(k, (pd.Timedelta, np.timedelta64)) for k in times):
            return kind == "M"
        return False
    dkind = getattr(dtype, "kind", None)
    if dkind not in ("M", "m"):
        return False
    return dkind != kind or (getattr(dtype, "tz", None) is None) != (tz is None)


def _is_nat(key: Any) -> bool:
    return isinstance(key, (np.datetime64, np.timedelta64)) and bool(np.isnat(key))


def _matches_missing(col: Column, key: Any) -> bool:
    """Whether pandas' isin finds a NumPy column's missing rows through ``key``: NaN for floats,
    NaT for datetimes and timedeltas (None and pd.NA match neither)."""
    if isinstance(col, NumericColumn):
        return isinstance(key, (float, np.floating)) and bool(np.isnan(key))
    if key is pd.NaT:
        return True
    if isinstance(col, TimedeltaColumn):
        return isinstance(key, np.timedelta64) and _is_nat(key)
    # a NumPy NaT is a tz-naive datetime: not compared with tz-aware data
    return isinstance(key, np.datetime64) and _is_nat(key) and getattr(col, "tz", None) is None


def _holds_pandas_na(values: Any) -> bool:
    """Whether a masked column's missing rows are found among ``values``: pandas' masked isin finds
    them when NumPy's view of the values is an object array holding pd.NA (a list with pd.NA, a
    boolean or string Series with missing values; not None, NaN, nor Int64 / Float64 data, which
    NumPy sees as NaN)."""
    src = values.to_pandas() if isinstance(values, Column) else values
    if isinstance(src, (set, frozenset, dict)):
        src = list(src)
    try:
        arr = np.asarray(src)
    except (TypeError, ValueError):
        arr = np.asarray(list(src), dtype=object)
    return arr.dtype == object and any(v is pd.NA for v in arr.ravel().tolist())


def between(col: Column, left: Any, right: Any, inclusive: str = "both") -> Column:
    """``left <= col <= right`` with the bounds' inclusion set by ``inclusive``."""
    ops = {"both": ("ge", "le"), "neither": ("gt", "lt"), "left": ("ge", "lt"), "right": ("gt", "le")}
    if inclusive not in ops:
        raise ValueError("Inclusive has to be either string of 'both','left', 'right', or 'neither'.")
    lo, hi = ops[inclusive]
    return binary_op(binary_op(col, left, lo), binary_op(col, right, hi), "and_")


def _is_missing_key(k: Any) -> bool:
    return k is None or k is pd.NA or k is pd.NaT or (isinstance(k, float) and np.isnan(k))


def map_values(col: Column, mapping: dict) -> Column:
    """Values replaced through a dict; values without a key become missing, as ``Series.map(dict)``."""
    if not isinstance(mapping, dict):
        raise NotImplementedError(
            "map_values: only a dict mapping is supported (use Series.map for callables)"
        )
    xp, n = col.xp, len(col)
    if isinstance(col, NumericColumn) and col.nullable:
        raise Unsupported(
            f"Series.map: a dict over {col.dtype} data (pandas infers the result's masked dtype from the "
            "values it meets) is not supported by ember."
        )
    if n and any(v is None or v is pd.NA for v in mapping.values()):
        raise Unsupported(
            "Series.map: a dict with None / pd.NA values (pandas keeps them beside NaN in an object "
            "column) is not supported by ember."
        )
    # a missing key (NaN, None, NA, NaT) is what the missing values map to, as pandas
    missing_keys = [k for k in mapping if _is_missing_key(k)]
    keys = [k for k in mapping if not _is_missing_key(k)]
    vals = [mapping[k] for k in keys]
    if isinstance(col, NumericColumn):  # pandas' index of the keys: bools match bools only
        is_bool = col.data.dtype.kind == "b"
        keys = [k if isinstance(k, (bool, np.bool_)) == is_bool else _NO_MATCH for k in keys]
    if missing_keys:
        vals.append(mapping[missing_keys[0]])
    if n == 0 and isinstance(col, (StringColumn, CategoricalColumn)) and col.dtype != object:
        return col  # pandas maps no rows of an extension array: the dtype is kept
    if not vals:
        return NumericColumn(xp.full(n, np.nan))
    source = col.decode() if isinstance(col, CategoricalColumn) else col
    if isinstance(source, NumericColumn):
        source = pandas_view(source)
    keys = [_NO_MATCH if k is SKIP else k for k in (scalar_for(source, k, "mapkey") for k in keys)]
    idx = _lookup(source, keys)[0] if keys else xp.full(n, -1, dtype=np.int64)
    if source.has_nulls_possible:
        idx = xp.where(source.isna(), len(keys) if missing_keys else -1, idx)
    out_values = from_any(vals, xp)
    if isinstance(out_values, NumericColumn) and out_values.mask is not None and not out_values.nullable:
        out_values = pandas_view(out_values)
    if n == 0:
        return out_values.take(idx)  # pandas: the values' own dtype
    matched = idx >= 0
    found_all, found_any = _flags(xp, matched.all(), matched.any())
    if found_all:  # everything mapped keeps the values' dtype
        return out_values.take(idx)
    out = out_values.take_nullable(idx)
    bools_over_objects = (
        source.dtype == object and isinstance(out_values, NumericColumn) and out_values.is_bool
    )
    if not found_any and isinstance(source, StringColumn) and out.dtype == object and not bools_over_objects:
        return NumericColumn(xp.full(n, np.nan))  # pandas infers the all-NaN objects as float64
    return out


_NO_MATCH = object()  # a key pandas' index of the keys never finds in the column


# --- astype --------------------------------------------------------------------------------------------


def astype(col: Column, dtype: Any) -> Column:
    """The column converted to ``dtype``, as ``Series.astype``.

    On the device: numeric <-> numeric, numeric -> bool, to/from nullable Int64/Float64/boolean,
    datetime/timedelta unit changes, datetime/timedelta -> int64, numeric -> 'category'. Through
    pandas/pyarrow on the host: to and from strings. Any column -> 'category' on the device. Casting missing
    values to a numpy integer raises like pandas (IntCastingNaNError / ValueError).
    """
    target = resolve(dtype)
    if _same(col, target):
        return col
    if isinstance(target, pd.CategoricalDtype):
        return _to_category(col, target)
    if isinstance(col, CategoricalColumn) and isinstance(target, pd.StringDtype):
        return _host_cast(col, target)  # pandas formats each category as its Python object (str(Timestamp))
    if isinstance(col, CategoricalColumn):
        return astype(col.decode(), target)
    if isinstance(target, pd.StringDtype) or target == np.dtype(object) or isinstance(col, StringColumn):
        return _host_cast(col, target)
    if isinstance(col, DecimalColumn):
        if isinstance(target, np.dtype) and target.kind == "f":
            return decimal_ops.to_float(col, target)  # each value correctly rounded, as float(Decimal)
        raise Unsupported(f"astype of decimal.Decimal values to {target} is not supported by ember")
    if isinstance(col, (DatetimeColumn, TimedeltaColumn)):
        return _temporal_cast(col, target)
    if isinstance(col, NumericColumn):
        if is_masked_extension(target):
            return _to_nullable(col, target)
        if isinstance(target, np.dtype) and target.kind in "iufb":
            return _to_numpy_numeric(col, target)
        if isinstance(target, np.dtype) and target.kind in "mM" or isinstance(target, pd.DatetimeTZDtype):
            return _host_cast(col, target)
    raise NotImplementedError(f"astype: converting {col.dtype} to {target} is not supported")


def _same(col: Column, target: Any) -> bool:
    try:
        return bool(col.dtype == target) and not isinstance(target, pd.CategoricalDtype)
    except TypeError:
        return False


def _host_cast(col: Column, target: Any) -> Column:
    """Through pandas on the host (string formatting/parsing); copies the column there and back."""
    return from_pandas(col.to_pandas().astype(target), col.xp)


def _flags(xp: Any, *conds: Any) -> list[bool]:
    """Several whole-column conditions read back with one device sync."""
    if not conds:
        return []
    return [bool(v) for v in to_host(xp.stack([xp.asarray(c) for c in conds])).tolist()]


def _int_cast_bounds(target: np.dtype) -> tuple[int, int]:
    """The float values NumPy casts to ``target`` by a defined rule (truncate, then wrap as an int64
    would): NumPy goes through int32 for the small integer types, so a value beyond its range gives an
    undefined (machine-dependent) integer there."""
    if target.itemsize <= 4:
        return -(2**31), 2**32 if target == np.uint32 else 2**31
    return -(2**63), 2**64 if target == np.uint64 else 2**63


def _float_to_int(xp: Any, data: Any, target: np.dtype, valid: Any = None) -> Any:
    """NumPy's cast of (finite) floats to an integer type: truncated, then wrapped as through int64 (the
    same on NumPy and CuPy). Values where NumPy's own cast is undefined (beyond the int32 range for the
    small types, the int64 range for int64) raise NotImplementedError rather than give one platform's
    integers. Synchronizes the device once."""
    lo, hi = _int_cast_bounds(target)
    inside = (data >= float(lo)) & (data < float(hi))
    if valid is not None:
        inside = inside | ~valid
    if not _flags(xp, inside.all())[0]:
        raise Unsupported(
            f"astype: float values beyond the {lo}..{hi - 1} range to {target} (NumPy's cast is undefined "
            "there and machine-dependent) is not supported by ember."
        )
    if target == np.uint64:  # values from 2**63 up have no int64: cast those directly
        return xp.where(data < 0, data.astype(np.int64).astype(np.uint64), data.astype(np.uint64))
    return data.astype(np.int64).astype(target)


_ARG_MUST_BE = {
    "f": "float() argument must be a string or a real number",
    "i": "int() argument must be a string, a bytes-like object or a real number",
}


def _object_bools_to(col: NumericColumn, target: np.dtype) -> Column | None:
    """An object column of bools with missing rows (None / NaN / pd.NA) cast as pandas casts each Python
    object: floats get NaN, bools bool(marker), integers and pd.NA raise; None where nothing is missing."""
    xp = col.xp
    if _flags(xp, col.mask.all())[0]:
        return None
    na = getattr(col, "na", np.nan)
    if na is pd.NA:
        if target.kind == "b":
            raise TypeError("boolean value of NA is ambiguous")
        raise TypeError(f"{_ARG_MUST_BE['f' if target.kind == 'f' else 'i']}, not 'NAType'")
    if target.kind == "f":
        return NumericColumn(xp.where(col.mask, col.data.astype(target), np.nan).astype(target))
    if target.kind == "b":
        return NumericColumn(xp.where(col.mask, col.data, bool(na)))
    if na is None:
        raise TypeError(f"{_ARG_MUST_BE['i']}, not 'NoneType'")
    raise ValueError("cannot convert float NaN to integer")


def _to_numpy_numeric(col: NumericColumn, target: np.dtype) -> Column:
    xp = col.xp
    if not col.nullable and col.mask is not None and col.data.dtype.kind == "b":
        out = _object_bools_to(col, target)
        if out is not None:
            return out
    c = pandas_view(col) if not col.nullable else col
    if c.nullable and c.mask is not None:
        if target.kind == "f":
            return NumericColumn(xp.where(c.mask, c.data.astype(target), np.nan))
        if not bool(c.mask.all()):  # one sync
            what = "integer" if target.kind in "iu" else "bool"
            raise ValueError(f"cannot convert NA to {what}")
    if target.kind in "iu" and c.is_float:
        data = c.data
        if not c.nullable:  # pandas' checks of a NumPy float column (astype_float_to_int_nansafe)
            finite, nonneg = _flags(xp, xp.isfinite(data).all(), (data >= 0).all())
            if not finite:
                raise pd.errors.IntCastingNaNError("Cannot convert non-finite values (NA or inf) to integer")
            if target.kind == "u" and not nonneg:
                raise ValueError(f"Cannot losslessly cast from {data.dtype} to {target}")
        elif not _flags(xp, xp.isfinite(data).all())[0]:
            raise Unsupported(
                f"astype: infinite Float values to {target} (NumPy's cast is undefined) is not supported by ember."
            )
        return NumericColumn(_float_to_int(xp, data, target))
    # a mask left here marks no missing row (checked above): NumPy's dtype, without it
    return NumericColumn(c.data.astype(target))


def _to_nullable(col: NumericColumn, target: Any) -> Column:
    """To Int*/UInt*/Float*/boolean. From a masked column the values are cast as NumPy casts them (wrapped,
    truncated), as pandas; from a NumPy column pandas' safe cast: integers must fit (TypeError),
    floats must be whole numbers (TypeError; infinity OverflowError), and 'boolean' takes only 0 and 1."""
    xp = col.xp
    np_t = np.dtype(target.numpy_dtype)
    if col.nullable:
        if np_t.kind in "iu" and col.is_float:
            clean = col.data if col.mask is None else xp.where(col.mask, col.data, 0)
            if not _flags(xp, xp.isfinite(clean).all())[0]:
                raise Unsupported(
                    f"astype: infinite Float values to {target} (NumPy's cast is undefined) is not supported by ember."
                )
            return NumericColumn(_float_to_int(xp, clean, np_t), col.mask, nullable=True)
        return NumericColumn(col.data.astype(np_t), col.mask, nullable=True)
    c = pandas_view(col)
    valid, data = c.mask, c.data
    if c.is_float:
        nn = ~xp.isnan(data)
        valid = nn if valid is None else valid & nn
        data = xp.where(nn, data, 0)
    kind = data.dtype.kind
    if np_t.kind == "b" and kind in "iuf":
        if not _flags(xp, ((data == 0) | (data == 1)).all())[0]:
            raise TypeError("Need to pass bool-like values")
    elif np_t.kind in "iu" and kind in "iuf":
        tgt = np.iinfo(np_t)
        if kind == "f":
            finite, whole, inside = _flags(
                xp,
                xp.isfinite(data).all(),
                (data == xp.trunc(data)).all(),
                ((data >= float(tgt.min)) & (data < float(tgt.max) + 1)).all(),
            )
            if not finite:
                raise OverflowError("cannot convert float infinity to integer")
        else:
            src, conds = np.iinfo(data.dtype), []
            if src.min < tgt.min:
                conds.append((data >= tgt.min).all())
            if src.max > tgt.max:
                conds.append((data <= tgt.max).all())
            whole, inside = True, all(_flags(xp, *conds))
        if not whole and not inside:  # pandas goes through Python ints then: NumPy's OverflowError
            raise OverflowError(f"Python integer out of bounds for {np_t}")
        if not (whole and inside):
            raise TypeError(f"cannot safely cast non-equivalent {data.dtype} to {np_t}")
    return NumericColumn(data.astype(np_t), valid, nullable=True)


def _temporal_cast(col: DatetimeColumn | TimedeltaColumn, target: Any) -> Column:
    xp = col.xp
    if isinstance(target, np.dtype) and target.kind in "iub":
        if target.kind != "b" and target != np.int64:
            raise TypeError(
                f"Converting from {col.dtype} to {target} is not supported. "
                "Do obj.astype('int64').astype(dtype) instead"
            )
        ticks = col.data if col.mask is None else xp.where(col.mask, col.data, np.iinfo(np.int64).min)
        return NumericColumn(ticks.astype(target))  # NaT -> the int64 minimum (True), as pandas
    if isinstance(col, DatetimeColumn) and (
        isinstance(target, pd.DatetimeTZDtype) or (isinstance(target, np.dtype) and target.kind == "M")
    ):
        tz = getattr(target, "tz", None)
        if (tz is None) != (col.tz is None):
            raise TypeError(
                "Cannot use .astype to convert between timezone-naive and timezone-aware dtypes; "
                "use tz_localize / tz_convert instead"
            )
        unit = getattr(target, "unit", None) or np.datetime_data(target)[0]
        return DatetimeColumn(_rescale_any(col, unit, "M"), unit, tz, col.mask)
    if isinstance(col, TimedeltaColumn) and isinstance(target, np.dtype) and target.kind == "m":
        unit = np.datetime_data(target)[0]
        return TimedeltaColumn(_rescale_any(col, unit, "m"), unit, col.mask)
    raise TypeError(f"Cannot cast {type(col).__name__.replace('Column', 'Array')} to dtype {target}")


def _rescale_any(col: DatetimeColumn | TimedeltaColumn, to: str, kind: str) -> Any:
    """The ticks in unit ``to``: finer units raise pandas' OutOfBounds error where a valid value does
    not fit (one sync), coarser ones floor (as NumPy and pandas)."""
    if to not in UNIT_NS:
        raise NotImplementedError(f"astype: unit {to!r} is not supported; use one of s, ms, us, ns")
    frm, ticks = col.unit, col.data
    if UNIT_NS[frm] >= UNIT_NS[to]:
        return rescale_checked(col.xp, ticks, frm, to, kind, col.mask)
    return col.xp.floor_divide(ticks, UNIT_NS[to] // UNIT_NS[frm])


def _to_category(col: Column, target: pd.CategoricalDtype) -> Column:
    """On the device for every column kind (ops.categorical: factorize, or encode into given categories)."""
    from ember.ops.categorical import to_categorical

    return to_categorical(col, target)
