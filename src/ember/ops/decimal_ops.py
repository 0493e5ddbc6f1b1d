"""Operators, reductions and group-by aggregations of decimal columns, with pandas' exact results.

pandas computes an object column of ``Decimal`` values with Python's decimal arithmetic (28 digits):
``+ - *`` of values of at most 19 digits are exact, with the exponent ``min`` (add / sub) or the sum
(mul) of the operands' exponents; an int has exponent 0. ember computes the same on the unscaled int64
values; a result beyond int64 (estimated in float64, refused from 4e18 on) is refused, never wrapped.
Missing values: comparisons give False (``!=`` True), arithmetic NaN (pandas' retry on the valid rows).
A Decimal and a float do not mix in Python: pandas' TypeError. Division (28-digit quotients), ``//``,
``%`` and ``**`` are refused.
"""

from __future__ import annotations

import decimal
import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from ember.backend import to_host
from ember.column.base import Column, Unsupported, unsupported_hint
from ember.column.decimal import DecimalColumn, decimal_parts
from ember.column.numeric import NumericColumn

#: float64 estimates of unscaled results at or beyond this are refused (exact int64 below it)
_LIMIT = 4.0e18
_I64 = 2**63 - 1
_SYMBOL = {"add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//", "mod": "%", "pow": "**"}
_SYMBOL.update(eq="==", ne="!=", lt="<", le="<=", gt=">", ge=">=")
_CMP = ("eq", "ne", "lt", "le", "gt", "ge")


def _refuse(what: str) -> Unsupported:
    return Unsupported(f"{what} is not supported by ember decimal columns." + unsupported_hint())


def _valid(*masks: Any) -> Any:
    out = None
    for m in masks:
        if m is not None:
            out = m if out is None else out & m
    return out


def _is_int_scalar(x: Any) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def _is_float(x: Any) -> bool:
    if isinstance(x, NumericColumn):
        return x.data.dtype.kind == "f"
    return isinstance(x, (float, np.floating))


def _type_name(x: Any) -> str:
    if isinstance(x, DecimalColumn) or isinstance(x, decimal.Decimal):
        return "decimal.Decimal"
    return "float" if _is_float(x) else type(x).__name__


# --- operands ------------------------------------------------------------------------------------------


def _fixed(x: Any, op: str) -> tuple[Any, Any, int] | None:
    """(unscaled values, validity, scale) of an operand Python computes exactly with Decimals: a
    decimal column, a finite Decimal, an int, a NumPy integer column without missing values."""
    if isinstance(x, DecimalColumn):
        return x.data, x.mask, x.scale
    if isinstance(x, decimal.Decimal):
        parts = decimal_parts(x)
        if parts is None or abs(parts[0]) > _LIMIT:
            raise _refuse(f"binary operator {_SYMBOL[op]} with decimal.Decimal({str(x)!r})")
        return parts[0], None, parts[1]
    if _is_int_scalar(x):
        if abs(int(x)) > _LIMIT:
            raise _refuse(f"binary operator {_SYMBOL[op]} with the integer {x}")
        return int(x), None, 0
    if type(x) is NumericColumn and not x.nullable and x.mask is None and x.data.dtype.kind in "iu":
        if x.data.dtype == np.uint64:
            raise _refuse(f"binary operator {_SYMBOL[op]} with a uint64 column")
        return x.data.astype(np.int64, copy=False), None, 0
    return None


def _rescaled(xp: Any, values: Any, valid: Any, by: int, what: str) -> Any:
    """``values * 10**by``, refused where a valid value leaves the exact range."""
    if by == 0:
        return values
    if by > 18:
        raise _refuse(f"{what}: rescaling by 10**{by}")
    _check_range(xp, xp.abs(xp.asarray(values, dtype=np.float64)) * 10.0**by, valid, what)
    return values * (10**by)


def _check_range(xp: Any, estimate: Any, valid: Any, what: str) -> None:
    """Refuse where a valid row's float64 estimate of an unscaled result reaches ``_LIMIT``. One sync."""
    big = estimate >= _LIMIT
    if valid is not None and getattr(big, "ndim", 0):
        big = big & valid
    if bool(to_host(xp.asarray(big).any())):
        raise _refuse(f"{what}: a result beyond the int64 range of unscaled values")


# --- binary operators ----------------------------------------------------------------------------------


def decimal_binary(a: Any, b: Any, op: str) -> Column:
    """``a <op> b`` (``op`` not reversed) where an operand is a decimal column, as pandas computes it."""
    col = a if isinstance(a, DecimalColumn) else b
    other = b if col is a else a
    if op in _CMP:
        if col is not a:
            raise _refuse(f"comparison {_SYMBOL[op]} with the decimal column on the right")
        return _compare(col, other, op)
    if op not in _SYMBOL:
        raise _refuse(f"operator {op}")
    if _is_float(other):
        _float_type_error(col, other, op, col is a)
    if op not in ("add", "sub", "mul"):
        raise _refuse(f"binary operator {_SYMBOL[op]} (pandas computes 28-digit Python Decimals)")
    fa, fb = _fixed(a, op), _fixed(b, op)
    if fa is None or fb is None:
        raise _refuse(f"binary operator {_SYMBOL[op]} of a decimal column and {_type_name(other)}")
    return _arithmetic(col.xp, fa, fb, op, len(col))


def _float_type_error(col: DecimalColumn, other: Any, op: str, left: bool) -> None:
    """pandas' TypeError (Python's, for Decimal op float) where a valid pair meets; without one
    pandas answers NaN rows: refused."""
    xp = col.xp
    valid = col.mask if col.mask is not None else xp.ones(len(col), dtype=bool)
    if isinstance(other, NumericColumn):
        valid = valid & ~xp.isnan(other.data)
    if not bool(to_host(valid.any())):
        raise _refuse(f"binary operator {_SYMBOL[op]} of a decimal column without values and floats")
    names = ("decimal.Decimal", "float") if left else ("float", "decimal.Decimal")
    symbol = "** or pow()" if op == "pow" else _SYMBOL[op]
    raise TypeError(f"unsupported operand type(s) for {symbol}: '{names[0]}' and '{names[1]}'")


def _arithmetic(xp: Any, fa: tuple, fb: tuple, op: str, n: int) -> DecimalColumn:
    (va, ma, sa), (vb, mb, sb) = fa, fb
    valid = _valid(ma, mb)
    what = f"binary operator {_SYMBOL[op]}"
    if op == "mul":
        estimate = xp.abs(xp.asarray(va, dtype=np.float64) * xp.asarray(vb, dtype=np.float64))
        _check_range(xp, estimate, valid, what)
        out, scale = va * vb, sa + sb
    else:
        scale = max(sa, sb)
        va = _rescaled(xp, va, ma, scale - sa, what)
        vb = _rescaled(xp, vb, mb, scale - sb, what)
        fa_, fb_ = (xp.asarray(v, dtype=np.float64) for v in (va, vb))
        _check_range(xp, xp.abs(fa_ + fb_ if op == "add" else fa_ - fb_), valid, what)
        out = va + vb if op == "add" else va - vb
    out = xp.asarray(out, dtype=np.int64)
    if out.ndim == 0:
        out = xp.full(n, out, dtype=np.int64)
    if valid is not None:
        out = xp.where(valid, out, 0)
    return DecimalColumn(out, valid, scale, 18, np.nan)


def _compare(col: DecimalColumn, other: Any, op: str) -> NumericColumn:
    xp = col.xp
    fixed = None if isinstance(other, decimal.Decimal) else _fixed(other, op)
    if isinstance(other, Column):
        if fixed is None:
            raise _refuse(f"comparing a decimal column with a {other.dtype} column ({_SYMBOL[op]})")
        vo, mo, so = fixed
        scale = max(col.scale, so)
        va = _rescaled(xp, col.data, col.mask, scale - col.scale, "comparison")
        vb = _rescaled(xp, vo, mo, scale - so, "comparison")
        out = _CMP_FN[op](va, vb)
        return _with_missing(out, _valid(col.mask, mo), op)
    bound = _exact(other, op)
    if isinstance(bound, bool):
        out = xp.full(len(col), bound, dtype=bool)
    else:
        threshold = bound * 10**col.scale
        out = _compare_rational(col.data, threshold, op)
    return _with_missing(out, col.mask, op)


def _exact(x: Any, op: str) -> Fraction | bool:
    """A scalar as the exact rational Python compares a Decimal with, or the constant result."""
    nan = x is None or (isinstance(x, (float, np.floating)) and math.isnan(x))
    nan = nan or (isinstance(x, decimal.Decimal) and x.is_nan())
    if nan:
        if op in ("eq", "ne"):
            return op == "ne"
        raise _refuse(f"comparing a decimal column with {x!r} ({_SYMBOL[op]})")
    if _is_int_scalar(x):
        return Fraction(int(x))
    if not isinstance(x, (decimal.Decimal, float, np.floating)):
        raise _refuse(f"comparing a decimal column with {type(x).__name__} {x!r} ({_SYMBOL[op]})")
    if x.is_infinite() if isinstance(x, decimal.Decimal) else math.isinf(x):
        positive = x > 0
        return {"eq": False, "ne": True, "lt": positive, "le": positive}.get(op, not positive)
    return Fraction(x)


def _clamp(v: int) -> int:
    return max(-_I64, min(_I64, v))


def _compare_rational(data: Any, t: Fraction, op: str) -> Any:
    """``data <op> t`` exactly, for int64 ``data`` and a rational ``t`` (by its floor / ceiling)."""
    lo, hi = math.floor(t), math.ceil(t)
    if op in ("eq", "ne"):
        if lo != hi or abs(lo) > _I64:
            return data != data if op == "eq" else data == data
        return _CMP_FN[op](data, lo)
    bound = _clamp(hi if op in ("lt", "ge") else lo)
    if abs(hi if op in ("lt", "ge") else lo) > _I64:  # beyond every int64 value
        above = (hi if op in ("lt", "ge") else lo) > 0
        return (data == data) if (op in ("lt", "le")) == above else (data != data)
    return _CMP_FN[op](data, bound)


_CMP_FN: dict[str, Callable[[Any, Any], Any]] = {
    "eq": lambda x, y: x == y,
    "ne": lambda x, y: x != y,
    "lt": lambda x, y: x < y,
    "le": lambda x, y: x <= y,
    "gt": lambda x, y: x > y,
    "ge": lambda x, y: x >= y,
}


def _with_missing(out: Any, valid: Any, op: str) -> NumericColumn:
    """pandas' object comparisons: a missing value compares False (``!=``: True)."""
    if valid is None:
        return NumericColumn(out)
    return NumericColumn(out | ~valid if op == "ne" else out & valid)


# --- unary and casts -----------------------------------------------------------------------------------


def _none_held(col: DecimalColumn) -> bool:
    return col.na is None and col.mask is not None and not bool(to_host(col.mask.all()))


def negate(col: DecimalColumn) -> DecimalColumn:
    """``-col``: pandas negates each object (None fails: its TypeError)."""
    if _none_held(col):
        raise TypeError("bad operand type for unary -: 'NoneType'")
    return col._rebuild(-col.data, col.mask)


def absolute(col: DecimalColumn) -> DecimalColumn:
    if _none_held(col):
        raise TypeError("bad operand type for abs(): 'NoneType'")
    return col._rebuild(col.xp.abs(col.data), col.mask)


def to_float(col: DecimalColumn, dtype: Any = np.float64) -> NumericColumn:
    """``astype(float)``: each value correctly rounded (Python's ``float(Decimal)``); missing values
    NaN. Exact through int64 / 10**scale while the unscaled values stay below 2**53 (refused beyond).
    One sync."""
    xp = col.xp
    dtype = np.dtype(dtype)
    if dtype not in (np.float64, np.float32):
        raise _refuse(f"astype({dtype})")
    if col.scale > 22:
        raise _refuse(f"astype({dtype}) of scale {col.scale}")
    if col.scale:
        _check_range(xp, xp.abs(col.data).astype(np.float64) * (_LIMIT / 2.0**53), col.mask, "astype(float)")
    out = col.data.astype(np.float64) / (10.0**col.scale)
    if col.mask is not None:
        out = xp.where(col.mask, out, np.nan)
    return NumericColumn(out.astype(dtype, copy=False))


def as_integers(col: DecimalColumn) -> NumericColumn:
    """The unscaled values with the validity mask (equal values, equal integers: one scale)."""
    return NumericColumn(col.data, col.mask)


# --- reductions ----------------------------------------------------------------------------------------


def to_decimal(unscaled: int, scale: int) -> decimal.Decimal:
    """The Decimal of exponent ``-scale`` (the exponent Python's sum / min of such values keeps)."""
    sign = 1 if unscaled < 0 else 0
    return decimal.Decimal((sign, tuple(int(c) for c in str(abs(unscaled))), -scale))


def plan_reduce(col: DecimalColumn, op: str, fetch: Any, skipna: bool, min_count: int, plan: Any) -> Callable:
    """A finisher (see ``ops.reductions``) for ``op`` of a decimal column: pandas' sum (a Decimal; 0
    without values), min / max (a Decimal; NaN without values), count, nunique, mean (float64 of the
    values as floats, pandas' ``_ensure_numeric``). ``plan`` plans a numeric column's reduction."""
    xp = col.xp
    if op == "mean":
        from ember._compat import PANDAS_31

        if not PANDAS_31:  # pandas 3.0 divides the Decimal sum: other last bits
            raise _refuse("Series.mean under pandas 3.0")
        return plan(to_float(col), op)
    if op in ("count", "nunique"):
        return plan(as_integers(col), op)
    if op not in ("sum", "min", "max"):
        raise _refuse(f"Series.{op}")
    if not skipna:
        raise _refuse(f"Series.{op}(skipna=False)")
    valid = col.mask if col.mask is not None else xp.ones(len(col), dtype=bool)
    count = fetch.add(valid.sum())
    if op == "sum":
        spread = fetch.add(xp.abs(col.data).astype(np.float64).sum() if len(col) else xp.asarray(0.0))
        total = fetch.add(xp.where(valid, col.data, 0).sum() if len(col) else xp.asarray(0))

        def finish_sum(h: list) -> Any:
            c = int(h[count])
            if c < min_count:
                return np.nan
            if float(h[spread]) >= _LIMIT:
                raise _refuse("Series.sum: a total beyond the int64 range of unscaled values")
            return 0 if c == 0 else to_decimal(int(h[total]), col.scale)

        return finish_sum
    fill = np.iinfo(np.int64).max if op == "min" else np.iinfo(np.int64).min
    filled = xp.where(valid, col.data, fill)
    extreme = fetch.add((filled.min() if op == "min" else filled.max()) if len(col) else xp.asarray(0))

    def finish_extreme(h: list) -> Any:
        if int(h[count]) == 0 or int(h[count]) < min_count:
            return np.nan
        return to_decimal(int(h[extreme]), col.scale)

    return finish_extreme


# --- group-by ------------------------------------------------------------------------------------------


def group_aggregate(g: Any, col: DecimalColumn, op: str, skipna: bool = True, min_count: int = 0) -> Column:
    """groupby ``op`` of a decimal column as pandas gives it: sum (Decimals; a group without values is
    the int 0 in pandas: refused; with ``min_count`` it is None), min / max (NaN without values),
    first / last (None without values), count, size, nunique. mean / median give floats in an object
    column in pandas: refused, as the others."""
    from ember.ops.groupby import aggregate

    xp = g.xp
    col = col.to(xp)
    if op in ("count", "size", "nunique"):
        return aggregate(g, as_integers(col), op, skipna=skipna)
    if op not in ("sum", "min", "max", "first", "last"):
        raise _refuse(f"groupby {op}")
    if not skipna or (min_count > 0 and op != "sum"):
        raise _refuse(f"groupby {op} with skipna=False or min_count")
    valid = col.mask if col.mask is not None else xp.ones(len(col), dtype=bool)
    counts = aggregate(g, NumericColumn(valid.astype(np.int64)), "sum").data
    has = counts > 0
    if op in ("first", "last"):
        from ember.ops.group_kernels import arg_rows
        from ember.ops.groupby import _take_rows

        rows = arg_rows(g, col.mask, last=op == "last")
        out = _take_rows(col, rows, may_miss=g.may_have_empty)
        return out.with_na(None)  # pandas: None for an object group without a value
    if op == "sum":
        spread = aggregate(g, NumericColumn(xp.abs(col.data).astype(np.float64)), "sum").data
        _check_range(xp, spread, None, "groupby sum")
        if min_count <= 0 and bool(to_host((~has).any())) if len(has) else False:
            raise _refuse("groupby sum with a group without values (pandas gives the int 0 there)")
        data = aggregate(g, NumericColumn(xp.where(valid, col.data, 0)), "sum").data
        enough = counts >= max(min_count, 1)
        return DecimalColumn(xp.where(enough, data, 0), enough, col.scale, 18, None)
    fill = np.iinfo(np.int64).max if op == "min" else np.iinfo(np.int64).min
    data = aggregate(g, NumericColumn(xp.where(valid, col.data, fill)), op).data
    if data.dtype != np.int64:
        raise _refuse(f"groupby {op} of empty groups")
    return DecimalColumn(xp.where(has, data, 0), has, col.scale, 18, np.nan)
