"""Elementwise binary operators between a Column and a Column or a scalar, with pandas' semantics.

One entry point, ``binary_op(left, right, op)``; the frame layer aligns first, so column operands have
equal lengths. Numeric results follow NumPy 2's promotion (Python scalars are "weak", as in pandas);
nulls propagate by AND-ing validity masks; nullable extension dtypes (Int64, Float64, boolean) give
nullable results with Kleene logic for ``&``/``|``. Strings compare bytewise (UTF-8 byte order equals
code point order) and concatenate with ``+``, all vectorized with one device sync for the output size.
The datetime / timedelta operators live in ``ops.binary_temporal``, the string ones in
``ops.binary_strings``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.backend import asarray_on
from ember.backend.primitives import float_divmod
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
from ember.column.scalars import scalar_for
from ember.ops._binary_common import (  # noqa: F401 - re-exported: the operator tables
    ARITH,
    CMP,
    LOGIC,
    REVERSED,
    SYMBOL,
    UNIT_NS,
    OperandTypeError,
    _and_masks,
    _constant,
    _kind,
    _type_name,
    _unsupported,
    is_missing_scalar,
    pandas_view,
)
from ember.ops.binary_objects import object_op
from ember.ops.binary_strings import mixed_comparison, string_op
from ember.ops.binary_temporal import (  # noqa: F401 - re-exported for the callers of ops.binary
    _is_temporal_scalar,
    _temporal,
    finer_unit,
    rescale,
    scalar_ticks,
)
from ember.ops.decimal_ops import decimal_binary
from ember.ops.object_missing import empty_comparison as missing_objects_compared

_SWAPPED_CMP = {"eq": "eq", "ne": "ne", "lt": "gt", "le": "ge", "gt": "lt", "ge": "le"}
_BOOL_NOT_ALLOWED = ("truediv", "floordiv", "pow")


def binary_op(left: Column, right: Column | Any, op: str) -> Column:
    """``left <op> right`` (``r``-prefixed ops compute ``right <op> left``), as pandas would.

    Column operands must have equal lengths. Synchronizes the device at most once (string results,
    integer division where a zero divisor changes the result dtype).
    """
    right = scalar_for(left, right, "binary", REVERSED.get(op, op))  # date, Decimal, NumPy times
    if isinstance(right, np.generic) and right.dtype.kind in "biuf" and not _strong_logical(left, right, op):
        right = (
            right.item()
        )  # pandas takes NumPy scalars as Python ("weak") scalars: int8 + np.int64(1) is int8
    if op not in SYMBOL and op not in REVERSED:
        raise ValueError(
            f"binary_op: unknown binary operator {op!r}; supported: {sorted(SYMBOL) + sorted(REVERSED)}"
        )
    a, b, base = (right, left, REVERSED[op]) if op in REVERSED else (left, right, op)
    try:
        return _dispatch(a, b, base)
    except TypeError as exc:
        empty = isinstance(a, Column) and isinstance(b, Column) and len(a) == 0
        if empty and type(a) is not type(b) and not isinstance(exc, OperandTypeError):
            # pandas' operators of two kinds meet no value to fail on: it answers in a dtype of its
            # own (object, bool ...) or raises, case by case
            raise Unsupported(
                f"binary operator {SYMBOL[base]}: {a.dtype} and {b.dtype} columns of no rows "
                f"(pandas may answer where values would raise: {exc}) is not supported by ember."
            ) from exc
        raise


def _object_arithmetic(a: Any, b: Any, op: str, ca: bool, cb: bool) -> Column | None:
    """Arithmetic with a NumPy bool column holding missing values, which pandas holds as Python
    objects (True + 1 is 2, in an object column): all missing gives all missing (object NaN); any
    value is refused. None for other operands. Syncs once, only for such a column."""
    if op in CMP or op in LOGIC:
        return None
    cols = [x for x, isc in ((a, ca), (b, cb)) if isc]
    objs = [x for x in cols if x.data.dtype.kind == "b" and not x.nullable and x.mask is not None]
    if not objs:
        return None
    plain = op not in ("pow", "rpow") and not any(x.nullable for x in cols)  # 1 ** NaN is 1
    if plain and all(_all_missing_objects(x) for x in objs):
        col = objs[0]
        return NumericColumn(col.data.copy(), col.mask.copy(), na=_missing_image(a, b, op, ca, objs))
    raise Unsupported(
        f"binary operator {SYMBOL[op]}: a bool column with missing values (pandas computes it as Python "
        "objects, an object column) is not supported by ember."
    )


def _missing_image(a: Any, b: Any, op: str, ca: bool, objs: list) -> Any:
    """The missing value of an object result of missing objects: Python's operator on the missing
    object (pd.NA * 2 is pd.NA, also beside NaN; None * 2 fails, and pandas then skips the row:
    NaN). pd.NA with ``//`` / ``%``: pandas' zero-division fill meets ``bool(pd.NA)``."""
    from ember.ops.binary_strings import _python_image

    nas = [x.na for x in objs]
    if any(na is None for na in nas) and len(nas) > 1:
        return np.nan  # None beside another object fails: pandas skips every row
    na = pd.NA if any(na is pd.NA for na in nas) else nas[0]
    left = a is objs[0]
    other = b if left else a
    if na is pd.NA and op in ("floordiv", "mod"):
        _check_na_division(other, op, left)
    return _python_image(na, 1 if isinstance(other, Column) else other, op, left)


def _check_na_division(other: Any, op: str, left: bool) -> None:
    """pandas' ``//`` and ``%`` of pd.NA objects fill the zero divisions afterwards, testing the
    objects: a TypeError where the divisor is 0 (``//`` with the objects on the right: always)."""
    if isinstance(other, Column):
        raise Unsupported(
            f"binary operator {SYMBOL[op]}: an object column of pd.NA beside a column is not supported by ember."
        )
    if op == "floordiv" and (not left or other == 0):
        raise TypeError("boolean value of NA is ambiguous")
    if op == "mod" and left and type(other) is int and other == 0:  # not for 0.0 / False (NA)
        raise TypeError(
            "ufunc 'isnan' not supported for the input types, and the inputs could not be safely coerced "
            "to any supported types according to the casting rule ''safe''"
        )


def _all_missing_objects(col: NumericColumn) -> bool:
    """Whether ``col`` is a NumPy bool column of missing values only (pandas: object NaN, which its
    operators skip whatever the other operand). Syncs once, only where an operand would fail."""
    return (
        col.data.dtype.kind == "b" and not col.nullable and col.mask is not None and not bool(col.mask.any())
    )


def _strong_logical(col: Any, scalar: np.generic, op: str) -> bool:
    """pandas hands a NumPy integer scalar of ``& | ^`` to NumPy as it is (NumPy 2 promotes it as a
    typed value: uint8 & np.int64(3) is int64) beside a NumPy integer column."""
    return (
        REVERSED.get(op, op) in LOGIC
        and scalar.dtype.kind in "iu"
        and type(col) is NumericColumn
        and not col.nullable
        and col.data.dtype.kind in "iu"
    )


# --- dispatch ------------------------------------------------------------------------------------------


def _dispatch(a: Any, b: Any, op: str) -> Column:
    ca, cb = isinstance(a, Column), isinstance(b, Column)
    if ca and cb and len(a) != len(b):
        raise ValueError(f"binary_op: operands have different lengths ({len(a)} and {len(b)})")
    if not ca and op in _SWAPPED_CMP:  # scalar <cmp> column == column <swapped cmp> scalar
        return _dispatch(b, a, _SWAPPED_CMP[op])
    empty = missing_objects_compared(a, b, op) if ca else None  # no object to compare: no error
    if empty is not None:
        return empty
    if isinstance(a, DecimalColumn) or isinstance(b, DecimalColumn):
        return decimal_binary(a, b, op)  # Decimal objects in pandas: exact fixed-point arithmetic
    objects = object_op(a, b, op)  # an object column of Python strings / lists: pandas' host loop
    if objects is not None:
        return objects
    if type(a) is NumericColumn and (
        cb and type(b) is NumericColumn or not cb and not _is_temporal_scalar(b)
    ):
        return _numeric(a, b, op)  # the hot path: two numeric operands
    if ca and cb and _arrow_strings_beside_timedeltas(a, b, op):
        raise Unsupported(
            f"binary operator {SYMBOL[op]}: {a.dtype} and {b.dtype} columns (pandas fails building a "
            "string array from the timedeltas: ValueError) is not supported by ember."
        )
    if ca and cb and op in CMP:
        out = mixed_comparison(a, b, op)
        if out is not None:
            return out
    for x in (a, b):
        if isinstance(x, CategoricalColumn):
            return _categorical(a, b, op)
    for x in (a, b):
        if isinstance(x, StringColumn):
            return string_op(a, b, op)
    for x in (a, b):
        if isinstance(x, (DatetimeColumn, TimedeltaColumn)):
            return _temporal(a, b, op)
    if _is_temporal_scalar(b if ca else a) and op not in CMP:
        return _temporal(a, b, op)
    return _numeric(a, b, op)


def _arrow_strings_beside_timedeltas(a: Column, b: Column, op: str) -> bool:
    """str / 'string' data and timedeltas where pandas' operator fails (its ValueError: the string
    array cannot hold the timedeltas): any operator with the strings on the left, arithmetic (but
    ``**``) with the timedeltas on the left."""

    def arrow_str(x: Column) -> bool:
        return isinstance(x, StringColumn) and x.pd_dtype != object

    if arrow_str(a) and isinstance(b, TimedeltaColumn):
        return True
    return isinstance(a, TimedeltaColumn) and arrow_str(b) and op in ARITH and op != "pow"


# --- numeric -------------------------------------------------------------------------------------------

_NUMBER = (bool, int, float, np.number, np.bool_)


def _device_scalar(xp: Any, dtype: np.dtype, s: Any, op: str = "add") -> Any:
    """NumPy takes Python scalars as NEP 50 'weak' scalars itself; for CuPy pin the promoted type."""
    if xp is not np and isinstance(s, (np.timedelta64, np.datetime64)) and dtype.kind in "iufb":
        return _numpy_time_scalar(s, dtype, op)
    if xp is np or not isinstance(s, (bool, int, float)):
        return s
    if op == "pow" and dtype.kind == "b" and type(s) is int and s == 2:
        return np.int8(2)  # NumPy squares (its x ** 2 fast path): bool ** 2 is int8, and pandas follows
    if isinstance(s, bool):  # a bool changes no dtype: kept a bool, as the CPU path sees it (Int64 | True
        return np.bool_(s)  # is boolean; pinned to int64 it was Int64)
    if isinstance(s, int) and not isinstance(s, bool) and dtype.kind in "iu":
        info = np.iinfo(dtype)
        if not info.min <= s <= info.max:
            if op in CMP or op == "truediv":  # NumPy compares/divides by value: widen instead
                return np.int64(s) if -(2**63) <= s < 2**63 else np.float64(s)
            raise OverflowError(f"Python integer {s} out of bounds for {dtype}")  # CuPy would wrap
    return np.asarray(s, dtype=np.result_type(dtype, s))[()]


def _numpy_time_scalar(s: Any, dtype: np.dtype, op: str) -> Any:
    """What NumPy makes of numbers beside a NumPy datetime / timedelta scalar, for CuPy (which takes no
    such scalar): integers and bools are read as counts of the scalar's unit (compared with its count),
    floats are never equal to it (NaN stands in: == all False, != all True); anything else is left to
    fail as it fails in NumPy."""
    if np.isnat(s) or op not in CMP:
        return s
    if dtype.kind in "iub":
        return np.int64(s.astype(np.int64))
    if op in ("eq", "ne"):
        return np.float64(np.nan)
    return s


def _numeric(a: Any, b: Any, op: str) -> Column:
    ca, cb = isinstance(a, Column), isinstance(b, Column)
    for x, isc in ((a, ca), (b, cb)):
        if isc and not isinstance(x, NumericColumn):
            raise _unsupported(a, b, op)
    objects = _object_arithmetic(a, b, op, ca, cb)
    if objects is not None:
        return objects
    for x, isc in ((a, ca), (b, cb)):
        if not isc and not isinstance(x, _NUMBER) and not is_missing_scalar(x):
            if op == "eq":
                return _constant(a if ca else b, False)
            if op == "ne":
                return _constant(a if ca else b, True)
            if op in CMP and _all_missing_objects(a if ca else b):  # pandas skips missing objects
                return _constant(a if ca else b, False)
            raise _unsupported(a, b, op)
    a = pandas_view(a) if ca else a
    b = pandas_view(b) if cb else b
    if op in LOGIC and ca and cb:
        a, b = _logical_columns(a, b)
    col = a if ca else b
    xp = col.xp
    nullable = (ca and a.nullable) or (cb and b.nullable)
    if op in LOGIC and not nullable and ((not ca and a is pd.NA) or (not cb and b is pd.NA)):
        return _constant(col, False)  # pandas: NumPy data & NA is NA, filled as False
    if (not ca and is_missing_scalar(a)) or (not cb and is_missing_scalar(b)):
        return _missing_scalar_result(col, op, nullable, b if ca else a)
    xa = a.data if ca else _device_scalar(xp, b.data.dtype, a, "rpow" if op == "pow" else op)  # base
    xb = b.data if cb else _device_scalar(xp, a.data.dtype, b, op)
    if op in LOGIC and nullable and col.data.dtype.kind == "b" and not (ca and cb):
        scalar = b if ca else a
        if not isinstance(scalar, (bool, np.bool_)):
            raise TypeError(f"'other' should be pandas.NA or a bool. Got {type(scalar).__name__} instead.")
    if op in _BOOL_NOT_ALLOWED and _kind(xa) == "b" and _kind(xb) == "b":
        raise NotImplementedError(f"operator '{op}' not implemented for bool dtypes")
    if op == "pow" and _kind(xa) in "biu" and _kind(xb) in "iu":
        _check_int_power(a, b, xa, xb, ca, cb)
    fn = ARITH.get(op) or CMP.get(op) or LOGIC[op]
    bool_div = nullable and _bool_divides_as_float(a, b, op, xa, xb)
    with np.errstate(all="ignore"):
        if op in ("floordiv", "mod") and xp is not np and "f" in (_kind(xa), _kind(xb)):
            out = float_divmod(xa, xb)[0 if op == "floordiv" else 1]  # NumPy's inf/NaN rules
        elif op == "pow" and not cb and _kind(xa) == "f" and not isinstance(b, bool) and b == 2:
            out = xp.square(xa)  # NumPy's own x ** 2 fast path (CuPy's pow kernel is 2x slower)
        else:
            out = fn(xa, xb)
    if bool_div:  # integer division, then pandas' zero fill as float (0 // -1 is 0.0, not -0.0)
        out = _int_div_by_zero(xp, op, out, xa, xb)
    elif nullable and _plain_int_over_masked_ints(a, b, op, out, xb):
        # pandas divides a NumPy (or Python) integer by a masked integer column the NumPy way, with
        # its zero fill: x // 0 is +-inf and x % 0 missing, as Float64 (a masked dividend: 0, Int64)
        vb = _valid_of(b, cb)
        out = _int_div_by_zero(xp, op, out, xa, xb if vb is None else xp.where(vb, xb, 1))
    if nullable:
        left_masked_ints = ca and a.nullable and _kind(xa) in "iu"  # pandas: NumPy's own //, no fill
        if op == "floordiv" and out.dtype == np.float32 and not left_masked_ints and _any_zero(xb, xa):
            out = out.astype(np.float64)  # (pandas' zero-division fill, beneath the mask too)
        return _nullable_result(a, b, op, out, xa, xb)
    if op in LOGIC and not (_kind(a.data if ca else a) in "iu" and _kind(b.data if cb else b) in "iu"):
        out = out.astype(bool, copy=False)
    # pandas fills integer x // 0 and x % 0, except x % False (0: a boolean divisor of %)
    mod_by_bool = op == "mod" and _kind(b.data if cb else b) == "b"  # xb: CuPy's scalar is pinned
    if (
        op in ("floordiv", "mod")
        and out.dtype.kind in "iu"
        and _kind(xa) + _kind(xb) != "bb"
        and not mod_by_bool
    ):
        out = _int_div_by_zero(xp, op, out, xa, xb)
    elif op == "floordiv" and out.dtype == np.float32 and _any_zero(xb, xa):
        out = out.astype(np.float64)  # pandas' zero-division fill makes float32 // 0 float64
    valid = _and_masks(a.mask if ca else None, b.mask if cb else None)  # only masked bool (object) columns
    if valid is None:
        return NumericColumn(out)
    if op in CMP or op in LOGIC:
        return NumericColumn(out | ~valid if op == "ne" else out & valid)
    return NumericColumn(out).set_missing(valid)


def _logical_columns(a: NumericColumn, b: NumericColumn) -> tuple[NumericColumn, NumericColumn]:
    """The operands of ``& | ^`` of two columns as pandas casts them. A masked boolean takes the other
    operand by truthiness (NumPy's bool cast: NaN is True; a masked operand with missing values is
    pandas' ValueError), except a masked operand on the left, which computes as itself. A NumPy bool
    on the left takes a float operand by truthiness with NaN as False. Synchronizes once where the
    other operand of a masked boolean is masked (whether it has missing values)."""
    mb_a, mb_b = (x.nullable and x.data.dtype.kind == "b" for x in (a, b))
    if mb_a and not mb_b:
        return a, _truthiness(b)
    if mb_b and not mb_a and not a.nullable:
        return _truthiness(a), b
    if not (a.nullable or b.nullable) and a.data.dtype.kind == "b" and b.data.dtype.kind == "f":
        return a, NumericColumn((b.data != 0) & ~b.xp.isnan(b.data))
    return a, b


def _truthiness(col: NumericColumn) -> NumericColumn:
    if col.nullable and col.mask is not None and not bool(col.mask.all()):
        raise ValueError(
            "cannot convert to 'bool'-dtype NumPy array with missing values. "
            "Specify an appropriate 'na_value' for this dtype."
        )
    return NumericColumn(col.data != 0)


def _plain_int_over_masked_ints(a: Any, b: Any, op: str, out: Any, xb: Any) -> bool:
    """Whether ``a // b`` or ``a % b`` divides a non-masked integer (column or scalar) by a masked
    integer column."""
    if op not in ("floordiv", "mod") or out.dtype.kind not in "iu" or _kind(xb) not in "iu":
        return False
    dividend_plain = not (isinstance(a, Column) and a.nullable)
    return dividend_plain and isinstance(b, Column) and b.nullable


def _bool_divides_as_float(a: Any, b: Any, op: str, xa: Any, xb: Any) -> bool:
    """pandas divides a masked boolean and integers as floats when a divisor is zero: ``//`` either
    way round, ``%`` when the boolean is the dividend (``x % False`` stays integer: 0), so that
    x // 0 is +-inf and 0 // 0 or x % 0 missing; a masked integer dividend divides as integers
    (its x // 0 is 0). Synchronizes once (whether a divisor is zero)."""
    if op not in ("floordiv", "mod"):
        return False
    kinds = (_kind(xa), _kind(xb))
    if "b" not in kinds or not ({"i", "u"} & set(kinds)):
        return False
    if kinds[0] != "b" and (op == "mod" or (isinstance(a, Column) and a.nullable)):
        return False
    valid = _valid_of(b, isinstance(b, Column))  # a zero divisor counts even beside a missing dividend
    zero = xb == 0
    if getattr(zero, "ndim", 0) == 0:
        return bool(zero)
    return bool((zero if valid is None else zero & valid).any())


def _check_int_power(a: Any, b: Any, xa: Any, xb: Any, ca: bool, cb: bool) -> None:
    """NumPy's errors for integers to integer powers: a negative Python exponent beside an unsigned
    column is out of its bounds (OverflowError, NEP 50); a negative exponent where the result is an
    integer type raises ValueError when a row meets it (CuPy would give 0). uint64 with int64 is
    float64 in NumPy: no error. Synchronizes once for a column exponent."""
    if not cb and _kind(xa) == "u" and b < 0:
        raise OverflowError(f"Python integer {b} out of bounds for {xa.dtype}")
    if ca and cb and np.result_type(xa.dtype, xb.dtype).kind not in "iu":
        return
    if len(a if ca else b) and _any_negative(xb):
        raise ValueError("Integers to negative integer powers are not allowed.")


def _any_negative(x: Any) -> bool:
    """True when an integer exponent (scalar or array) has a negative value. Synchronizes for arrays."""
    if np.isscalar(x) or getattr(x, "ndim", 1) == 0:
        return bool(x < 0)
    return x.dtype.kind == "i" and bool((x < 0).any())


def _missing_scalar_result(col: NumericColumn, op: str, nullable: bool, scalar: Any = None) -> Column:
    xp, n = col.xp, len(col)
    if op in CMP and not nullable:
        return _constant(col, op == "ne")
    if not nullable or (scalar is None and op not in ("eq", "ne")):
        raise TypeError(f"unsupported operand type(s) for {SYMBOL[op]}: '{col.dtype}' and 'NoneType'")
    if scalar is None:  # pandas: a masked column == None is False (!= True) where known, NA where not
        return NumericColumn(xp.full(n, op == "ne", dtype=bool), col.mask, nullable=True)
    if op in CMP or op in LOGIC:
        dtype = np.dtype(bool) if (op in CMP or col.data.dtype.kind == "b") else col.data.dtype
    elif op == "truediv":
        dtype = np.result_type(col.data.dtype, np.float64) if col.data.dtype.kind != "f" else col.data.dtype
    else:
        dtype = col.data.dtype
    if op in LOGIC and col.data.dtype.kind == "b":  # Kleene: False & NA = False, True | NA = True
        known = col.data == (op == "or_") if op != "xor" else xp.zeros(n, dtype=bool)
        mask = known if col.mask is None else known & col.mask
        return NumericColumn(col.data.copy(), mask, nullable=True)
    return NumericColumn(xp.zeros(n, dtype=dtype), xp.zeros(n, dtype=bool), nullable=True)


def _valid_of(x: Any, isc: bool) -> Any:
    """Validity for nullable arithmetic: the mask, and NaN in a numpy float operand counts as missing."""
    if not isc:
        return None
    if not x.nullable and x.is_float:
        return ~x.xp.isnan(x.data)
    return x.mask


def _nullable_result(a: Any, b: Any, op: str, out: Any, xa: Any, xb: Any) -> NumericColumn:
    ca, cb = isinstance(a, Column), isinstance(b, Column)
    xp = (a if ca else b).xp
    va, vb = _valid_of(a, ca), _valid_of(b, cb)
    valid = _and_masks(va, vb)
    if op in ("and_", "or_") and _kind(xa) == "b" and _kind(xb) == "b" and valid is not None:
        valid = _kleene_valid(op, xa, xb, va, vb, valid)
    elif op == "pow" and valid is not None:  # 1 ** NA and NA ** 0 are 1
        one = (xa == 1) if va is None else (xa == 1) & va
        zero = (xb == 0) if vb is None else (xb == 0) & vb
        valid = valid | one | zero
    if op in LOGIC and {_kind(xa), _kind(xb)} in ({"b", "i"}, {"b", "u"}):
        out = out != 0  # pandas: the ints' bitwise result, as a masked boolean
    if out.dtype.kind == "f" and op not in CMP:  # NaN made by the operation is missing (pandas 3)
        notnan = ~xp.isnan(out)
        valid = notnan if valid is None else valid & notnan
    return NumericColumn(out, valid, nullable=True)


def _kleene_valid(op: str, xa: Any, xb: Any, va: Any, vb: Any, valid: Any) -> Any:
    """and: a known False decides the result; or: a known True does."""
    xa, xb = (np.bool_(x) if isinstance(x, bool) else x for x in (xa, xb))
    decisive = (lambda x: ~x) if op == "and_" else (lambda x: x)
    da = decisive(xa) if va is None else decisive(xa) & va
    db = decisive(xb) if vb is None else decisive(xb) & vb
    return valid | da | db


def _any_zero(xb: Any, xa: Any = 0) -> bool:
    """Whether any divisor is zero under a non-NaN dividend (pandas' fill-up then casts; NaN // 0
    keeps the dtype). One sync for a column operand."""
    zero = (xb == 0) & (xa == xa)
    return bool(zero.any()) if getattr(zero, "ndim", 0) > 0 else bool(zero)


def _int_div_by_zero(xp: Any, op: str, out: Any, xa: Any, xb: Any) -> Any:
    """pandas turns integer // 0 into +-inf (0 // 0 -> NaN) and % 0 into NaN, making the result float64.

    Synchronizes once when the divisor is a column (whether any divisor is zero decides the dtype)."""
    if getattr(xb, "ndim", 0) > 0:
        zero = xb == 0
        if not bool(zero.any()):
            return out
    elif xb != 0 or (op == "floordiv" and out.shape[0] == 0):  # pandas: no row, no fill (% still fills)
        return out
    else:
        zero = xp.asarray(True)  # CuPy's where() needs an array condition
    res = out.astype(np.float64)
    if op == "mod":
        return xp.where(zero, np.nan, res)
    xa_arr = xp.asarray(xa)
    signed = xp.where(xa_arr > 0, np.inf, xp.where(xa_arr < 0, -np.inf, np.nan))
    return xp.where(zero, signed, res)


# --- categorical ---------------------------------------------------------------------------------------


def _categorical_vs_values(values: Column, other: Column, op: str) -> Column:
    """pandas compares a categorical with other values as NumPy arrays: a plain bool result (a
    missing value is unequal); where bools meet pd.NA it raises (the truth of NA); 'string' values
    with pd.NA: refused (NumPy's object comparison raises on most pairs)."""
    from ember.backend import to_host

    if _holds_na_strings(values) or _holds_na_strings(other):
        raise Unsupported(
            f"comparing a categorical ({SYMBOL[op]}) with strings whose missing value is pd.NA (pandas "
            "compares Python objects, raising by NumPy's rules) is not supported by ember."
        )
    out = _dispatch(values, other, op)
    if not (isinstance(out, NumericColumn) and out.nullable):
        return out
    xp = out.xp
    if out.mask is not None and bool(to_host((~out.mask).any())):
        if any(isinstance(c, NumericColumn) and c.is_bool for c in (values, other)):
            raise TypeError("boolean value of NA is ambiguous")
        return NumericColumn(xp.where(out.mask, out.data, op == "ne"))
    return NumericColumn(out.data)


def _bools_meet_missing(col: CategoricalColumn, other: Column) -> bool:
    """Whether bools (the categories or ``other``) meet a missing value on either side (a sync)."""
    from ember.backend import to_host

    cat_bools = isinstance(col.categories, NumericColumn) and col.categories.is_bool
    masked_bools = isinstance(other, NumericColumn) and other.is_bool and other.nullable
    bools = cat_bools or masked_bools  # (object bools: their own rules, compared as objects)
    return bools and bool(to_host((col.codes < 0).any() | other.isna().any()))


def _holds_na_strings(col: Column) -> bool:
    """Whether ``col`` is a 'string' column (pd.NA missing) with a missing value (one sync)."""
    from ember.backend import to_host

    na_strings = isinstance(col, StringColumn) and getattr(col.dtype, "na_value", None) is pd.NA
    return na_strings and col.mask is not None and not bool(to_host(col.mask.all()))


def _times_of_kind(categories: Column, times: Any) -> bool:
    """Whether the categories are times of ``times``' kind (datetimes beside datetimes ...)."""
    both = (DatetimeColumn, TimedeltaColumn)
    return any(isinstance(times, k) and isinstance(categories, k) for k in both)


def _parses_as_times(col: CategoricalColumn, times: Any) -> bool:
    """Whether the categorical's values, all strings, read as ``times``' kind (pandas' comparison
    then parses them; a value that does not parse makes it raise TypeError). The categories are few:
    checked on the host, those in use only."""
    from ember.backend import to_host

    if not isinstance(times, (DatetimeColumn, TimedeltaColumn)) or not isinstance(
        col.categories, StringColumn
    ):
        return False
    used = np.unique(to_host(col.codes))
    used = used[used >= 0]
    if not len(used):
        return False
    values = pd.Index(col.categories.to_pandas()).take(used)
    parse = pd.to_timedelta if isinstance(times, TimedeltaColumn) else pd.to_datetime
    try:
        parse(values)
    except (ValueError, TypeError, OverflowError):
        return False
    return True


def _categorical_vs_temporal(col: CategoricalColumn, op: str) -> Column | None:
    """pandas compares datetimes / timedeltas with a categorical by their own rules: categories of
    numbers or bools never match (all unequal); string categories it parses as dates: refused."""
    cats = col.categories
    if isinstance(cats, StringColumn):
        raise Unsupported(
            f"comparing datetimes with a categorical of strings ({SYMBOL[op]}: pandas parses them "
            "as dates) is not supported by ember."
        )
    if isinstance(cats, NumericColumn):
        return NumericColumn(col.xp.full(len(col), op == "ne", dtype=bool))
    return None


def _recoded(col: CategoricalColumn, like: CategoricalColumn) -> Any:
    """``col``'s codes into ``like``'s categories (the same set, perhaps in another order)."""
    mine, theirs = (pd.Index(c.categories.to_pandas()) for c in (col, like))
    if mine.equals(theirs):
        return col.codes
    xp = col.xp
    mapping = asarray_on(theirs.get_indexer(mine).astype(col.codes.dtype), xp)  # small: the categories
    return xp.where(col.codes >= 0, mapping[xp.maximum(col.codes, 0)], -1)


def _categorical(a: Any, b: Any, op: str) -> Column:
    if op not in CMP:
        raise TypeError(f"unsupported operand type(s) for {SYMBOL[op]}: 'Categorical' and '{_type_name(b)}'")
    col = a if isinstance(a, CategoricalColumn) else b
    other = b if col is a else a
    if op not in ("eq", "ne") and col is b and _times_of_kind(col.categories, a):
        return _dispatch(a, col.decode(), op)  # pandas orders times against a categorical's times
    if op not in ("eq", "ne") and col is b and _parses_as_times(col, a):
        raise Unsupported(  # pandas parses the categorical's strings as times and compares
            f"ordering times against a categorical of time strings ({SYMBOL[op]}) is not supported by ember."
        )
    if op not in ("eq", "ne") and not col.ordered:
        if col is b and isinstance(a, NumericColumn) and a.nullable:  # masked numbers: their own rules
            if _bools_meet_missing(col, a):
                raise Unsupported(
                    f"ordering masked values against a categorical ({SYMBOL[op]}) where bools meet missing "
                    "values is not supported by ember."
                )
            return _dispatch(a, col.decode(), op)
        raise TypeError("Unordered Categoricals can only compare equality or not")
    if isinstance(other, CategoricalColumn):
        if hash(col.dtype) != hash(other.dtype):  # pandas' test: unordered ones up to a permutation
            raise TypeError("Categoricals can only be compared if 'categories' are the same.")
        codes_b = _recoded(other, col)
    elif isinstance(other, Column):
        if op in ("eq", "ne") and isinstance(other, (DatetimeColumn, TimedeltaColumn)):
            constant = _categorical_vs_temporal(col, op)
            if constant is not None:
                return constant
        if op in ("eq", "ne"):
            if _bools_meet_missing(col, other):
                raise Unsupported(
                    f"comparing a categorical ({SYMBOL[op]}) where bools meet missing values (pandas "
                    "compares Python objects: pd.NA raises or not by NumPy's rules) is not supported by ember."
                )
            masked_left = getattr(a, "nullable", False) or getattr(a.dtype, "na_value", 0) is pd.NA
            if col is not a and masked_left:
                return _dispatch(a, col.decode(), op)  # a masked array on the left: its own NA rules
            return _categorical_vs_values(col.decode(), other, op)
        raise TypeError(f"Cannot compare a Categorical for op __{op}__ with type {type(other)}")
    else:
        idx = (
            -1
            if is_missing_scalar(other)
            else int(pd.Index(col.categories.to_pandas()).get_indexer([other])[0])
        )
        if idx < 0:
            if op not in ("eq", "ne"):
                raise TypeError(f"Invalid comparison between dtype=category and {type(other).__name__}")
            return _constant(col, op == "ne")
        codes_b = idx
    xa, xb = (col.codes, codes_b) if col is a else (codes_b, col.codes)
    out = CMP[op](xa, xb)
    valid = col.codes >= 0
    if isinstance(other, CategoricalColumn):
        valid = valid & (other.codes >= 0)
    return NumericColumn(out | ~valid if op == "ne" else out & valid)


def numpy_int_division(left: Column, right: Column, op: str) -> Column | None:
    """``//`` or ``%`` of two NumPy number columns as NumPy computes them (integer x // 0 and x % 0
    are 0, float32 stays float32): pandas' Series flex methods with ``fill_value`` apply the operator
    to the filled arrays without its zero-division fill. None for other operands."""
    base = REVERSED.get(op, op)
    a, b = (right, left) if op in REVERSED else (left, right)
    plain = all(type(x) is NumericColumn and not x.nullable and x.mask is None for x in (a, b))
    if base not in ("floordiv", "mod") or not plain:
        return None
    kinds = a.data.dtype.kind + b.data.dtype.kind
    if any(k not in "iufb" for k in kinds):
        return None
    xp = a.xp
    xa, xb = (a.data.astype(np.int8), b.data.astype(np.int8)) if kinds == "bb" else (a.data, b.data)
    if np.result_type(xa.dtype, xb.dtype).kind == "f":  # NumPy's float rules (int64 with uint64 too)
        with np.errstate(all="ignore"):
            if xp is not np:
                return NumericColumn(float_divmod(xa, xb)[0 if base == "floordiv" else 1])
            return NumericColumn((np.floor_divide if base == "floordiv" else np.remainder)(xa, xb))
    zero = xb == 0
    safe = xp.where(zero, xp.ones_like(xb), xb)
    with np.errstate(all="ignore"):
        out = (xp.floor_divide if base == "floordiv" else xp.remainder)(xa, safe)  # bools: int8
    return NumericColumn(xp.where(zero, xp.zeros_like(out), out))
