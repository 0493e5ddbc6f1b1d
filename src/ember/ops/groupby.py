"""Group-by aggregations on columns: ``aggregate`` (one op of one column per group, pandas' result
dtype, missing values and errors), the checks of which ops each kind of values takes, and the sum / mean
/ count of a slot grouping in one pass (``ops.grouping``, kernels in ``ops.group_kernels``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from ember.backend import array_module
from ember.backend.kernels.slots import slot_sums
from ember.column import (
    CategoricalColumn,
    Column,
    DatetimeColumn,
    NumericColumn,
    StringColumn,
    TimedeltaColumn,
)
from ember.column.decimal import DecimalColumn
from ember.ops.decimal_ops import group_aggregate
from ember.ops.group_kernels import (
    arg_extreme,
    arg_rows,
    group_count,
    group_extreme,
    group_mean,
    group_nunique,
    group_prod,
    group_quantile,
    group_skew,
    group_sum,
    group_var,
    temporal_mean_ticks,
)
from ember.ops.group_objects import object_aggregate, truth_values
from ember.ops.grouping import Grouping, nth_rows
from ember.ops.object_missing import group_aggregate as missing_objects_aggregate

AGGREGATIONS = (
    "sum",
    "mean",
    "min",
    "max",
    "count",
    "size",
    "std",
    "var",
    "sem",
    "skew",
    "median",
    "quantile",
    "first",
    "last",
    "nth",
    "nunique",
    "prod",
    "any",
    "all",
    "idxmin",
    "idxmax",
)
SCANS = ("cumsum", "cumprod", "cummin", "cummax", "cumcount", "rank", "shift", "diff", "ffill", "bfill")
_STRING_OPS = ("min", "max", "first", "last", "count", "nunique", "size", "nth", "idxmin", "idxmax")
_TEMPORAL_OPS = (
    "min",
    "max",
    "first",
    "last",
    "count",
    "mean",
    "median",
    "size",
    "nth",
    "nunique",
    "idxmin",
    "idxmax",
    "quantile",
)
_CATEGORICAL_OPS = ("first", "last", "count", "size", "nth", "nunique", "min", "max", "idxmin", "idxmax")


# --- value access and results ------------------------------------------------------------------------


def _valid(col: Column) -> Any:
    return None if not col.has_nulls_possible else ~col.isna()


def _numeric(values: Any, missing: Any, like: Column, dtype: Any) -> Column:
    """A result column of numpy ``dtype``: NaN for missing floats, a mask for nullable/int/bool ones."""
    xp = array_module(values)
    values = values.astype(dtype, copy=False)
    nullable = isinstance(like, NumericColumn) and like.nullable
    if nullable and values.dtype.kind == "f":  # a NaN result (inf - inf, inf * 0) is NA, as pandas
        missing = xp.isnan(values) if missing is None else missing | xp.isnan(values)
    if missing is None:
        return NumericColumn(values, None, nullable)
    if nullable:
        return NumericColumn(values, ~missing, True)
    if values.dtype.kind == "f":
        return NumericColumn(xp.where(missing, xp.nan, values))
    if not bool(missing.any()):  # sync: pandas keeps ints/bools when no group came out missing
        return NumericColumn(values)
    return NumericColumn(xp.where(missing, xp.nan, values.astype(np.float64)))


def _downcast_if_fits(values: Any, dtype: Any, missing: Any = None) -> Any:
    """pandas computes integer sums/products (and their running cumsum / cumprod) in 64 bits and
    gives back the input's dtype only when every result fits it (results at ``missing`` rows do
    not count). Synchronizes for integer dtypes narrower than 64 bits."""
    dtype = np.dtype(dtype)
    if dtype.kind not in "iu" or dtype.itemsize == 8 or values.shape[0] == 0:
        return values.astype(dtype)
    info = np.iinfo(dtype)
    inside = (values >= info.min) & (values <= info.max)
    if missing is not None:
        inside = inside | missing
    fits = bool(inside.all())
    return values.astype(dtype) if fits else values


def _temporal(values: Any, missing: Any, like: Column) -> Column:
    if isinstance(like, DatetimeColumn):
        return DatetimeColumn(
            values.astype(np.int64), like.unit, like.tz, None if missing is None else ~missing
        )
    return TimedeltaColumn(values.astype(np.int64), like.unit, None if missing is None else ~missing)


def _same_kind(values: Any, missing: Any, like: Column, dtype: Any = None) -> Column:
    if isinstance(like, (DatetimeColumn, TimedeltaColumn)):
        return _temporal(values, missing, like)
    return _numeric(values, missing, like, like.data.dtype if dtype is None else dtype)


def _float_dtype(col: Column, op: str, g: Grouping | None = None, result: Any = None) -> Any:
    """pandas' result dtype for mean-like ops: float64, except float32 stays float32 for
    median/var/std/sem (and for mean/quantile too when nullable). pandas 3.1 means float32 values
    in float64 only on its fast path: rows already in group order (``g``'s codes never decrease) and
    no NaN among the values; its other path keeps float32. pandas computes median / std / sem /
    skew / kurt of float32 values in float64 and casts the ``result`` back only where float32 holds
    every value to 5e-4 (one sync)."""
    dt = col.data.dtype
    if dt != np.float32:
        return np.dtype(np.float64)
    if op in ("median", "std", "sem", "skew", "kurt") and result is not None and not _fits_float32(result):
        return np.dtype(np.float64)
    if op not in ("mean", "quantile") or (isinstance(col, NumericColumn) and col.nullable):
        return np.dtype(np.float32)
    if op == "mean" and (len(col) == 0 or bool(col.isna().any())):  # sync
        return np.dtype(np.float32)
    if op == "mean" and g is not None and g.dropped == len(col):
        return np.dtype(np.float32)  # (no row left: the other path)
    if op == "mean" and g is not None and len(col) > 1:
        codes = g.codes
        if not bool((codes[1:] >= codes[:-1]).all()):  # sync: rows out of group order
            return np.dtype(np.float32)
    return np.dtype(np.float64)


def _fits_float32(values: Any) -> bool:
    """pandas' downcast test (``maybe_downcast_numeric``): float32 copies of float64 results within
    an absolute 5e-4 of them (NaN beside NaN, infinities beside equal ones)."""
    xp = array_module(values)
    wide = values.astype(np.float64, copy=False)
    back = wide.astype(np.float32).astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        close = (xp.abs(back - wide) <= 5e-4) | (back == wide) | (xp.isnan(back) & xp.isnan(wide))
    return bool(close.all())  # sync


def _sum_dtype(col: Column) -> Any:
    dt = col.data.dtype
    return np.dtype(np.int64) if dt.kind == "b" else dt


def _take_rows(col: Column, rows: Any, may_miss: bool = False) -> Column:
    """Rows at ``rows`` (-1 = missing). Every group has a row, so a column with no missing values gets
    a row for each group from first/last/min/max and keeps its dtype; ``may_miss`` (nth) checks."""
    if col.has_nulls_possible:
        return col.take_nullable(rows)
    if may_miss and g_any_negative(rows):
        return col.take_nullable(rows)
    return col.take(rows)


def g_any_negative(rows: Any) -> bool:
    """Whether any position is -1. Synchronizes."""
    return bool((rows < 0).any()) if rows.shape[0] else False


# --- aggregate ---------------------------------------------------------------------------------------


def object_bools(col: Column) -> bool:
    """A bool column with missing values: pandas holds it as an object column of True / False."""
    return (
        isinstance(col, NumericColumn)
        and not col.nullable
        and col.mask is not None
        and col.data.dtype.kind == "b"
    )


#: what pandas answers for an object column of True / False and missing values as ember does
_OBJECT_BOOL_OPS = ("min", "max", "first", "last", "count", "size", "nunique", "nth", "any", "all")
_OBJECT_BOOL_OPS += ("idxmin", "idxmax", "std", "sem")


def check_object_bools(col: Column, op: str) -> None:
    """pandas' error, or NotImplementedError where pandas answers with Python objects, for ``op`` of
    an object column of True / False and missing values (a bool column with a mask)."""
    if not object_bools(col) or op in _OBJECT_BOOL_OPS:
        return
    if op == "quantile":
        raise TypeError("dtype 'object' does not support operation 'quantile'")
    if op in SCANS and op.startswith("cum"):  # pandas: TypeError for a Series, this for a frame
        raise NotImplementedError(f"function is not implemented for this dtype: [how->{op},dtype->object]")
    raise NotImplementedError(
        f"groupby {op} of an object column of True / False with missing values is not supported "
        "(pandas computes it on Python objects); convert it first, e.g. .astype('boolean')"
    )


def _check_op(col: Column, op: str) -> None:
    if op not in AGGREGATIONS:
        raise NotImplementedError(f"groupby aggregate: op {op!r} is not supported; supported: {AGGREGATIONS}")
    check_object_bools(col, op)
    allowed = None
    if isinstance(col, StringColumn):
        allowed = _STRING_OPS
    elif isinstance(col, (DatetimeColumn, TimedeltaColumn)):
        allowed = _TEMPORAL_OPS + (("sum",) if isinstance(col, TimedeltaColumn) else ())
    elif isinstance(col, CategoricalColumn):
        allowed = _CATEGORICAL_OPS
        if op in ("min", "max", "idxmin", "idxmax") and not col.ordered:
            raise TypeError(f"groupby {op}: cannot compute {op} of an unordered categorical")
    if allowed is not None and op not in allowed:
        check_pandas_refuses(col, op)
        raise TypeError(f"groupby {op}: not supported for {col.dtype} values; supported: {allowed}")


#: groupby operations pandas answers for values of these kinds (ember's unsupported ones among them
#: raise NotImplementedError, the others pandas' TypeError)
_PANDAS_ANSWERS = {
    "string": {"sum", "min", "max", "count", "size", "first", "last", "nunique", "any", "all", "idxmin"}
    | {"idxmax", "rank", "shift", "nth"},
    "datetime": {"mean", "min", "max", "count", "size", "std", "sem", "median", "quantile", "first", "last"}
    | {"nunique", "idxmin", "idxmax", "cummin", "cummax", "diff", "shift", "rank", "nth"},
    "timedelta": {"sum", "any", "all", "cumsum", "pct_change"},
    "categorical": {"count", "size", "first", "last", "nunique", "any", "all", "shift", "nth"},
    "ordered": {"min", "max", "idxmin", "idxmax", "rank"},
}


def check_pandas_refuses(col: Column, op: str) -> None:
    """NotImplementedError where pandas answers groupby ``op`` for ``col``'s kind of values (ember does
    not): a TypeError, pandas' own answer for the other kinds, is the caller's to raise."""
    if isinstance(col, StringColumn):
        answers = _PANDAS_ANSWERS["string"]
    elif isinstance(col, TimedeltaColumn):
        answers = _PANDAS_ANSWERS["datetime"] | _PANDAS_ANSWERS["timedelta"]
    elif isinstance(col, DatetimeColumn):
        answers = _PANDAS_ANSWERS["datetime"]
    elif isinstance(col, CategoricalColumn):
        answers = _PANDAS_ANSWERS["categorical"] | (_PANDAS_ANSWERS["ordered"] if col.ordered else set())
    else:
        return
    if op in answers:
        raise NotImplementedError(
            f"groupby {op} of {col.dtype} values is not supported (pandas answers it); select or "
            "convert the column"
        )


def aggregate(
    g: Grouping,
    col: Column,
    op: str,
    *,
    skipna: bool = True,
    ddof: int = 1,
    q: float = 0.5,
    n: int = 0,
    min_count: int = 0,
) -> Column:
    """One aggregation of ``col`` per group (ngroups rows, pandas' result dtype). Missing values are
    skipped (``skipna=False``: a group with any missing value gives a missing result; for first/last it
    takes the plain first/last row; for nunique it counts the missing value). Groups with no valid value
    give NaN/missing, except count (0), sum (0, or missing below ``min_count``) and prod (1).
    idxmin/idxmax give row positions (int64 column, missing for a group with no valid value); the frame
    maps them to labels (pandas 3 raises there). nth takes the n-th row of each group (negative n counts
    from the end), missing when the group is shorter."""
    missing_objects_aggregate(col, op)  # float() of the NaT / pd.NA markers: pandas' TypeError
    if isinstance(col, DecimalColumn):  # Decimal objects in pandas: see ops.decimal_ops
        return group_aggregate(g, col, op, skipna=skipna, min_count=min_count)
    objects = object_aggregate(g, col.to(g.xp), op, min_count)  # object strings, lists
    if objects is not None:
        return objects
    truth = truth_values(col.to(g.xp), op, skipna)  # any / all of strings, timedeltas, categoricals
    if truth is not None:
        return aggregate(g, truth, op)
    _check_op(col, op)
    if not isinstance(q, (int, float)):
        raise NotImplementedError(
            "groupby quantile: q must be one float; lists of quantiles are not supported"
        )
    xp = g.xp
    col = col.to(xp)
    if len(col) != g.nrows:
        raise ValueError(f"groupby {op}: column has {len(col)} rows, the grouping {g.nrows}")
    if object_bools(col) and op in ("min", "max", "first", "last"):
        # pandas keeps the object column: True / False, and NaN (min / max) or None (first / last)
        # for a group without a value
        res = aggregate(g, NumericColumn(col.data, col.mask, True), op, skipna=skipna, min_count=min_count)
        mask = res.mask if res.mask is not None else xp.ones(len(res), dtype=bool)
        return NumericColumn(res.data, mask, False, None if op in ("first", "last") and skipna else col.na)
    if object_bools(col) and op in ("std", "sem"):  # pandas: float64 of the values as numbers
        res = aggregate(g, NumericColumn(col.data.astype(np.float64), col.mask, True), op, ddof=ddof)
        valid = res.mask if res.mask is not None else xp.ones(len(res), dtype=bool)
        return NumericColumn(xp.where(valid, res.data, xp.nan).astype(np.float64))
    if min_count > 0 and op in ("first", "last", "min", "max"):
        # pandas: missing for a group with fewer than min_count valid values (the dtype changes only
        # where one is: one synchronization)
        out = aggregate(g, col, op, skipna=skipna, ddof=ddof, q=q, n=n)
        valid = _valid(col)
        enough = (group_count(g, valid) if valid is not None else g.sizes[: g.ngroups]) >= min_count
        return out if bool(enough.all()) else out.set_missing(enough)
    if op == "size":  # pandas: Int64 for masked data (the nullable numbers, bool and 'string')
        masked = (isinstance(col, NumericColumn) and col.nullable) or (
            isinstance(col.dtype, pd.StringDtype) and col.dtype.na_value is pd.NA
        )
        return NumericColumn(g.sizes[: g.ngroups].copy(), None, masked)
    if g.slots is not None and op in _SLOT_OPS and skipna and _slot_summable(col):
        return _slot_aggregate(g, col, op, min_count)
    if op == "skew" and g.ngroups == 0 and isinstance(col, NumericColumn):
        return no_groups_moment(col)
    valid = _valid(col)
    nullable = isinstance(col, NumericColumn) and col.nullable
    if op == "count":
        return NumericColumn(group_count(g, valid), None, nullable)
    if op in ("first", "last"):
        rows = arg_rows(g, valid if skipna else None, last=op == "last")
        out = _take_rows(col, rows, may_miss=g.may_have_empty)
        if skipna and isinstance(out, StringColumn) and out.pd_dtype == np.dtype(object):
            out.na = None  # pandas: None for an object group without a value
        if object_bools(out) and not object_bools(col):  # pandas: bools of empty groups as float64
            return NumericColumn(g.xp.where(out.mask, out.data, np.nan).astype(np.float64))
        return out
    if op == "nth":
        return _take_rows(col, nth_rows(g, n), may_miss=True)
    if op == "nunique":
        return NumericColumn(group_nunique(g, col, dropna=skipna))
    if op in ("idxmin", "idxmax"):
        rows = arg_extreme(g, col, op[3:])
        return NumericColumn(rows, rows >= 0)
    if isinstance(col, (StringColumn, CategoricalColumn)):  # min / max by rank: take the arg row
        return _take_rows(col, arg_extreme(g, col, op), may_miss=g.may_have_empty)
    bad = None if (skipna or valid is None) else (group_count(g, ~valid) > 0)
    count_of = functools.cache(lambda: group_count(g, valid))  # only the ops that need counts pay for them
    result = _numeric_aggregate(g, col, op, valid, count_of, ddof, q, min_count)
    if bad is not None:
        result = (
            result.set_missing(~bad)
            if not isinstance(result, NumericColumn) or result.nullable or result.data.dtype.kind != "f"
            else NumericColumn(xp.where(bad, xp.nan, result.data))
        )
    return result


def no_groups_moment(col: NumericColumn) -> NumericColumn:
    """pandas' skew / kurt without any group: an empty column of the values' own dtype."""
    return NumericColumn(col.data[:0], None, col.nullable)


def _numeric_aggregate(
    g: Grouping,
    col: Column,
    op: str,
    valid: Any,
    count_of: Callable[[], Any],
    ddof: int,
    q: float,
    min_count: int,
) -> Column:
    """``count_of()``: valid rows per group, computed on first call (sum and min/max often need none)."""
    xp = g.xp
    values = col.data
    temporal = isinstance(col, (DatetimeColumn, TimedeltaColumn))
    if op in ("sum", "prod"):
        below = (count_of() < min_count) if min_count > 0 else None
        if op == "prod":
            p = _downcast_if_fits(group_prod(g, values, valid), _sum_dtype(col))
            return _numeric(p, below, col, p.dtype)
        s = group_sum(g, values, valid)
        if temporal:
            return _temporal(s, below, col)
        s = _downcast_if_fits(s, _sum_dtype(col))
        return _numeric(s, below, col, s.dtype)
    if op in ("min", "max"):
        key = values.astype(np.int64) if values.dtype.kind == "b" else values
        ext = group_extreme(g, key, valid, op)
        return _same_kind(ext, (count_of() == 0) if valid is not None or g.may_have_empty else None, col)
    count = count_of() if op not in ("any", "all") else None
    empty = None if count is None else count == 0
    if op in ("any", "all"):
        truthy = values != 0
        if op == "any":
            hit = truthy if valid is None else truthy & valid
            out = group_count(g, hit) > 0
        else:
            hit = ~truthy if valid is None else ~truthy & valid
            out = group_count(g, hit) == 0
        return NumericColumn(out, None, isinstance(col, NumericColumn) and col.nullable)
    if op == "mean":
        if temporal:
            return _temporal(temporal_mean_ticks(g, values, valid, count), empty, col)
        return _numeric(group_mean(g, values, valid, count), empty, col, _float_dtype(col, op, g))
    if op in ("var", "std", "sem"):
        v = group_var(g, values, valid, count, ddof)
        if op != "var":
            v = xp.sqrt(v)
        if op == "sem":
            v = v / xp.sqrt(xp.where(count > 0, count, 1))
        dtype = _float_dtype(col, op, result=v)
        return _numeric(v, empty | xp.isnan(v) if _nullable(col) else empty, col, dtype)
    if op == "skew":
        v = group_skew(g, values, valid, count)
        dtype = _float_dtype(col, op, result=v)
        return _numeric(v, empty | xp.isnan(v) if _nullable(col) else empty, col, dtype)
    # median / quantile
    qq = 0.5 if op == "median" else float(q)
    if not 0.0 <= qq <= 1.0:
        raise ValueError(f"groupby quantile: q must be between 0 and 1, got {q}")
    r = group_quantile(g, col, qq, count, temporal, median=op == "median")
    if temporal:
        return _temporal(r, empty, col)
    return _numeric(r, empty, col, _float_dtype(col, op, result=r))


_SLOT_OPS = ("sum", "mean", "count")


def _slot_summable(col: Column) -> bool:
    return type(col) is NumericColumn and col.data.dtype.kind in "biuf"


def _slot_aggregate(g: Grouping, col: Column, op: str, min_count: int) -> Column:
    """sum / mean / count of a numeric column over a slot grouping: one pass over the key and the
    values (``slot_sums``), then the groups' slots gathered. Same results as the general path."""
    values = col.data
    kind = values.dtype.kind
    if kind == "b" or (kind in "iu" and values.dtype.itemsize < 8):
        values = values.astype(np.uint64 if kind == "u" else np.int64)
    elif kind == "f" and values.dtype != np.float64:
        values = values.astype(np.float64)
    maybe_missing = col.mask is not None or (kind == "f" and not col.nullable)
    if op == "count" and not maybe_missing:
        return NumericColumn(g.sizes[: g.ngroups].copy(), None, col.nullable)
    m = g.slots
    s, count = slot_sums(
        m.key,
        m.lo,
        m.nslots,
        values,
        key_valid=m.key_valid,
        valid=col.mask,
        nan_missing=not col.nullable,
        want_sums=op != "count",
        want_counts=op != "sum" or min_count > 0,
        exact_int=op == "sum",
        at=m.slot_of_group,
    )
    if op == "count":
        return NumericColumn(count, None, col.nullable)
    if op == "mean":
        with np.errstate(invalid="ignore"):
            mean = s / count  # a group with no value: 0 / 0 = NaN, the missing float
        return _numeric(mean, (count == 0) if col.nullable else None, col, _float_dtype(col, op, g))
    below = (count < min_count) if min_count > 0 else None
    s = _downcast_if_fits(s, _sum_dtype(col))
    return _numeric(s, below, col, s.dtype)


def _nullable(col: Column) -> bool:
    return isinstance(col, NumericColumn) and col.nullable


__all__ = ["AGGREGATIONS", "SCANS", "aggregate"]
