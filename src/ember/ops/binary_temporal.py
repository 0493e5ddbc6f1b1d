"""Binary operators with a datetime or timedelta operand (column or scalar), with pandas' semantics.

``ops.binary`` dispatches here once an operand is temporal: comparisons of ticks in a common unit,
datetime - datetime, datetime +- timedelta, timedelta arithmetic with timedeltas and numbers, all
checked for overflow as pandas (OutOfBoundsDatetime / OutOfBoundsTimedelta).
"""

from __future__ import annotations

import datetime as _dt
from typing import Any

import numpy as np
import pandas as pd

from ember._compat import PANDAS_31, bool_timedelta_product
from ember.column import Column, DatetimeColumn, NumericColumn, TimedeltaColumn
from ember.column.base import Unsupported
from ember.ops._binary_common import (
    CMP,
    SYMBOL,
    UNIT_NS,
    _and_masks,
    _constant,
    _kind,
    _unsupported,
    is_missing_scalar,
    pandas_view,
)
from ember.ops.datetimes import (
    add_checked,
    compare_mixed_units,
    float_ticks_checked,
    mul_checked,
    rescale_checked,
)


def _is_temporal_scalar(x: Any) -> bool:
    return isinstance(
        x, (pd.Timestamp, pd.Timedelta, np.datetime64, np.timedelta64, _dt.datetime, _dt.timedelta)
    )


def finer_unit(u1: str, u2: str) -> str:
    return u1 if UNIT_NS[u1] <= UNIT_NS[u2] else u2


def rescale(ticks: Any, frm: str, to: str) -> Any:
    """Ticks in unit ``frm`` expressed in the finer (or equal) unit ``to`` (unchecked: callers that
    can overflow use ``ops.datetimes.rescale_checked``)."""
    factor = UNIT_NS[frm] // UNIT_NS[to]
    return ticks if factor == 1 else ticks * factor


def _in_unit(t: _T, unit: str) -> Any:
    """An operand's ticks in the finer (or equal) ``unit``, raising pandas' OutOfBounds error where a
    valid value does not fit."""
    return rescale_checked(t.xp, t.ticks, t.unit, unit, "M" if t.kind == "M" else "m", t.valid)


def scalar_ticks(s: Any, kind: str, tz: Any = None) -> tuple[int, str, Any]:
    """(int64 ticks, unit, tz) of a datetime (kind 'M', UTC ticks when tz-aware) or timedelta ('m') scalar.

    A string is parsed in the column's time zone ``tz``, as pandas compares strings with aware columns."""
    if kind == "M":
        ts = pd.Timestamp(s) if not isinstance(s, str) else pd.Timestamp(s, tz=tz)
        unit = ts.unit if ts.unit in UNIT_NS else "ns"
        return int(ts.as_unit(unit).asm8.view("i8")), unit, ts.tz
    td = pd.Timedelta(s)
    unit = td.unit if td.unit in UNIT_NS else "ns"
    return int(td.as_unit(unit).asm8.view("i8")), unit, None


class _T:
    """One temporal operand normalized: ticks (array or int), unit, kind 'M'/'m'/'num', tz, validity."""

    __slots__ = ("ticks", "unit", "kind", "tz", "valid", "is_col", "xp")

    def __init__(self, x: Any, like_tz: Any, is_cmp: bool, like_kind: str = "M", xp: Any = np) -> None:
        self.is_col = isinstance(x, Column)
        self.tz, self.valid, self.xp = None, None, xp
        if isinstance(x, DatetimeColumn):
            self.ticks, self.unit, self.kind, self.tz, self.valid = x.data, x.unit, "M", x.tz, x.mask
        elif isinstance(x, TimedeltaColumn):
            self.ticks, self.unit, self.kind, self.valid = x.data, x.unit, "m", x.mask
        elif isinstance(x, NumericColumn):
            x = pandas_view(x)
            self.ticks, self.unit, self.kind, self.valid = x.data, "ns", "num", x.mask
        elif isinstance(x, (pd.Timedelta, np.timedelta64, _dt.timedelta)) or (
            isinstance(x, str) and is_cmp and like_kind == "m"
        ):
            self.ticks, self.unit, self.tz = scalar_ticks(x, "m")
            self.kind = "m"
        elif isinstance(x, (pd.Timestamp, np.datetime64, _dt.datetime)) or (isinstance(x, str) and is_cmp):
            self.ticks, self.unit, self.tz = scalar_ticks(x, "M", like_tz)
            self.kind = "M"
        elif isinstance(x, (bool, int, float, np.number)) and not isinstance(x, np.bool_):
            self.ticks, self.unit, self.kind = x, "ns", "num"
        else:
            self.kind, self.ticks, self.unit = "other", x, "ns"


def _temporal(a: Any, b: Any, op: str) -> Column:
    col = a if isinstance(a, Column) else b
    xp, n = col.xp, len(col)
    other = b if col is a else a
    if is_missing_scalar(other):
        if op in CMP:
            other_kind = (
                "M"
                if isinstance(other, np.datetime64)
                else "m"
                if isinstance(other, np.timedelta64)
                else None
            )
            mine = "M" if isinstance(col, DatetimeColumn) else "m"
            if other_kind not in (None, mine) and op not in ("eq", "ne"):
                raise TypeError(f"Invalid comparison between dtype={col.dtype} and {type(other).__name__}")
            return _constant(col, op == "ne")
        return _temporal_nat(col, op, a is col, other)
    like_tz = getattr(col, "tz", None)
    like_kind = "m" if isinstance(col, TimedeltaColumn) else "M"
    if op in CMP and isinstance(other, str):
        try:
            parsed = (pd.Timedelta if like_kind == "m" else pd.Timestamp)(other)
        except ValueError:
            parsed = None
        if parsed is pd.NaT:  # '' or 'NaT': a missing scalar
            return _constant(col, op == "ne")
        if parsed is None or (like_kind == "M" and like_tz is None and parsed.tz is not None):
            if op in ("eq", "ne"):  # pandas: a string that parses to no comparable time is unequal
                return _constant(col, op == "ne")
            raise TypeError(f"Invalid comparison between dtype={col.dtype} and str")
    ta, tb = _T(a, like_tz, op in CMP, like_kind, xp), _T(b, like_tz, op in CMP, like_kind, xp)
    valid = _and_masks(ta.valid, tb.valid)
    kinds = (ta.kind, tb.kind)
    if op in CMP:
        return _temporal_cmp(xp, n, ta, tb, op, valid)
    if kinds == ("M", "M") and op == "sub":
        if (ta.tz is None) != (tb.tz is None):
            raise TypeError("Cannot subtract tz-naive and tz-aware datetime-like objects.")
        unit = finer_unit(ta.unit, tb.unit)
        diff = add_checked(xp, _in_unit(ta, unit), _in_unit(tb, unit), valid, sub=True)
        return TimedeltaColumn(_full(xp, n, diff), unit, valid)
    if op in ("add", "sub") and kinds in (("M", "m"), ("m", "M")) and not (op == "sub" and kinds[0] == "m"):
        unit = finer_unit(ta.unit, tb.unit)
        out = add_checked(xp, _in_unit(ta, unit), _in_unit(tb, unit), valid, sub=op == "sub")
        tz = ta.tz if ta.kind == "M" else tb.tz
        return DatetimeColumn(_full(xp, n, out), unit, tz, valid)
    if kinds == ("m", "m") and op in ("add", "sub", "mod", "truediv", "floordiv"):
        return _td_td(xp, n, ta, tb, op, valid)
    if (
        "m" in kinds
        and "num" in kinds
        and (op == "mul" or (op in ("truediv", "floordiv", "mod") and ta.kind == "m"))
    ):
        return _td_num(xp, n, ta, tb, op, valid)
    if "M" in kinds and "num" in kinds and op in ("add", "sub"):
        raise TypeError(
            "Addition/subtraction of integers and integer-arrays with DatetimeArray is no longer supported.  "
            "Instead of adding/subtracting `n`, use `n * obj.freq`"
        )
    raise _unsupported(a, b, op)


def _full(xp: Any, n: int, values: Any) -> Any:
    return values if getattr(values, "ndim", 0) else xp.full(n, values, dtype=np.int64)


_UNITS = ("s", "ms", "us", "ns")  # coarse to fine


def _finer_unit(unit: str, nat: Any) -> str:
    """The result's unit beside a NumPy NaT: the finer of the column's and the NaT's (NumPy's
    promotion, which pandas follows); pandas' NaT and a generic NumPy NaT keep the column's."""
    if not isinstance(nat, (np.datetime64, np.timedelta64)):
        return unit
    theirs = np.datetime_data(nat.dtype)[0]
    if theirs in _UNITS and _UNITS.index(theirs) > _UNITS.index(unit):
        return theirs
    return unit


def _temporal_nat(col: Column, op: str, col_left: bool, nat: Any) -> Column:
    """``col <op> NaT`` (or ``NaT <op> col``): all missing, of the kind pandas' rules give. A NumPy
    NaT has its kind; pandas' NaT is a datetime where one is subtracted from or by a datetime
    column (the result a timedelta), else a timedelta."""
    xp, n = col.xp, len(col)
    mine = "M" if isinstance(col, DatetimeColumn) else "m"
    if isinstance(nat, np.datetime64):
        theirs = "M"
    elif isinstance(nat, np.timedelta64):
        theirs = "m"
    else:
        theirs = "M" if mine == "M" and op == "sub" else "m"
    left, right = (mine, theirs) if col_left else (theirs, mine)
    none = xp.zeros(n, dtype=bool)
    ticks = xp.zeros(n, dtype=np.int64)
    unit = _finer_unit(col.unit, nat)
    if (left, right) == ("M", "M") and op == "sub" or (left, right) == ("m", "m") and op in ("add", "sub"):
        return TimedeltaColumn(ticks, unit, none)
    if (
        op == "add"
        and "M" in (left, right)
        and "m" in (left, right)
        or (left, right, op) == ("M", "m", "sub")
    ):
        return DatetimeColumn(ticks, unit, getattr(col, "tz", None), none)
    if (
        (left, right) == ("m", "m")
        and isinstance(nat, np.timedelta64)
        and op in ("truediv", "floordiv", "mod")
    ):
        # NumPy's timedelta NaT divides (pandas' NaT does not): float NaN, and NaT remainders
        return TimedeltaColumn(ticks, unit, none) if op == "mod" else NumericColumn(xp.full(n, np.nan))
    raise TypeError(f"unsupported operand type(s) for {SYMBOL[op]}: '{col.dtype}' and 'NaTType'")


def _temporal_cmp(xp: Any, n: int, ta: _T, tb: _T, op: str, valid: Any) -> Column:
    if ta.kind != tb.kind or (ta.kind == "M" and (ta.tz is None) != (tb.tz is None)):
        if op in ("eq", "ne"):
            return NumericColumn(xp.full(n, op == "ne", dtype=bool))
        raise TypeError(f"Invalid comparison between dtype={_tdesc(ta)} and {_tdesc(tb)}")
    out = compare_mixed_units(xp, ta.ticks, ta.unit, tb.ticks, tb.unit, CMP[op])
    if not hasattr(out, "shape"):
        out = xp.full(n, bool(out))
    if valid is None:
        return NumericColumn(out)
    return NumericColumn(out | ~valid if op == "ne" else out & valid)


def _tdesc(t: _T) -> str:
    if not t.is_col:
        return (
            type(t.ticks).__name__ if t.kind == "other" else ("Timestamp" if t.kind == "M" else "Timedelta")
        )
    if t.kind == "M":
        return f"datetime64[{t.unit}]" if t.tz is None else f"datetime64[{t.unit}, {t.tz}]"
    return f"timedelta64[{t.unit}]" if t.kind == "m" else "numeric"


def _td_td(xp: Any, n: int, ta: _T, tb: _T, op: str, valid: Any) -> Column:
    unit = finer_unit(ta.unit, tb.unit)
    x, y = _in_unit(ta, unit), _in_unit(tb, unit)
    if op in ("add", "sub"):
        return TimedeltaColumn(_full(xp, n, add_checked(xp, x, y, valid, sub=op == "sub")), unit, valid)
    x, y = _full(xp, n, x), _full(xp, n, y)
    if op == "truediv":
        with np.errstate(all="ignore"):
            res = NumericColumn(x.astype(np.float64) / y)
        return res if valid is None else res.set_missing(valid)
    # pandas divides the ticks as NumPy integers: floored, and 0 where the divisor is zero; beside a
    # NaT the quotient is float64. Its remainder is x - (x // y) * y: x itself beside a zero divisor,
    # and rounded through that float quotient beside a NaT.
    zero = y == 0
    out = xp.where(zero, 0, x // xp.where(zero, 1, y))
    exact = valid is None or bool(valid.all())  # one sync
    if op == "mod":
        if exact:
            return TimedeltaColumn(x - out * y, unit, valid)
        # (the float quotient times the divisor in the divisor's own unit, truncated, as NumPy)
        own = (out.astype(np.float64) * _full(xp, n, tb.ticks)).astype(np.int64)
        return TimedeltaColumn(x - own * (UNIT_NS[tb.unit] // UNIT_NS[unit]), unit, valid)
    if exact:
        return NumericColumn(out)
    return NumericColumn(out.astype(np.float64)).set_missing(valid)


def _whole_float_scalar(q: Any) -> bool:
    """A float scalar holding a whole number, which pandas 3.1 divides timedeltas by as an integer."""
    if not PANDAS_31 or hasattr(q, "shape") or not isinstance(q, (float, np.floating)):
        return False
    return bool(np.isfinite(q)) and float(q).is_integer() and abs(q) < 2**63


def _td_num(xp: Any, n: int, ta: _T, tb: _T, op: str, valid: Any) -> Column:
    """Timedeltas times / divided by numbers, checked for overflow as pandas (OutOfBoundsTimedelta)."""
    td, num = (ta, tb) if ta.kind == "m" else (tb, ta)
    q = num.ticks
    if _kind(q) == "b":
        what = "multiply" if op == "mul" else "divide"
        raise bool_timedelta_product(td.unit, what, bools_first=ta is not td)
    if op == "mul" and _kind(q) in "iu":
        return TimedeltaColumn(_full(xp, n, mul_checked(xp, td.ticks, q, valid)), td.unit, valid)
    ticks = _full(xp, n, td.ticks)
    with np.errstate(all="ignore"):
        if op == "mul":
            out = ticks * q
        elif op in ("floordiv", "mod") and _kind(q) in "iu":
            # pandas truncates toward zero: -3ns // 2 is -1ns
            qs = xp.where(q == 0, 1, q) if hasattr(q, "shape") else (q or 1)
            out = ticks // qs
            out = out + ((ticks - out * qs != 0) & ((ticks < 0) != (qs < 0))).astype(np.int64)
            if op == "mod":  # pandas: x - (x // q) * q, the remainder of the truncated quotient
                out = ticks - out * qs
            if hasattr(q, "shape") or q == 0:
                nz = q != 0 if hasattr(q, "shape") else xp.zeros(n, dtype=bool)
                valid = nz if valid is None else valid & nz
        elif op == "mod":
            raise Unsupported(
                f"binary operator %: {td.unit} timedeltas modulo floats is not supported by ember."
            )
        elif (_kind(q) in "iu" and (num.valid is None or bool(num.valid.all()))) or _whole_float_scalar(q):
            # NumPy divides timedeltas by integers as integers, truncating toward zero (pandas 3.1
            # also takes a whole float scalar so; masked integers with a missing value go as floats);
            # a zero divisor gives NaT
            qi = q if hasattr(q, "shape") else int(q)
            qs = xp.where(qi == 0, 1, qi) if hasattr(qi, "shape") else (qi or 1)
            out = ticks // qs
            out = out + ((ticks - out * qs != 0) & ((ticks < 0) != (qs < 0))).astype(np.int64)
            if hasattr(qi, "shape") or qi == 0:
                nz = qi != 0 if hasattr(qi, "shape") else xp.zeros(n, dtype=bool)
                valid = nz if valid is None else valid & nz
        else:
            out = ticks / q
    if out.dtype.kind == "f":
        out, valid = float_ticks_checked(xp, out, valid, "multiplication" if op == "mul" else "division")
    return TimedeltaColumn(out.astype(np.int64, copy=False), td.unit, valid)
