"""Python and NumPy scalars as ember's column kernels take them, with the meaning pandas gives them.

pandas reads ``datetime.date``, ``decimal.Decimal``, ``numpy.datetime64`` / ``numpy.timedelta64`` (NaT
too) beside a column in ways a plain type check gets wrong: ``numpy.timedelta64`` is a NumPy integer
subclass yet no number to pandas; a ``date`` equals no datetime64 value; a ``Decimal`` compares
exactly (``Decimal('0.1') != 0.1``) and computes as a Python object; a NaN ``Decimal`` is a missing
value. ``scalar_for(col, value, use, op)`` is the one place that maps such a scalar, for one column
and one use, to a value ember's kernels take with pandas' meaning, or raises pandas' error or
NotImplementedError. Plain numbers, strings, Timestamps and Timedeltas pass through unchanged.

Uses: ``"binary"`` (an operator, ``op`` its name), ``"fill"`` (fillna / where / mask values),
``"value"`` (a replace value), ``"clip"`` (a clip bound), ``"isin"`` (one candidate value),
``"mapkey"`` (a key of ``Series.map(dict)``) and ``"match"`` (a replace key); for the last three
``SKIP`` means: it matches no row.
"""

from __future__ import annotations

import datetime as _dt
import decimal
from typing import Any

import numpy as np
import pandas as pd

from ember.column.base import Column, Unsupported
from ember.column.categorical import CategoricalColumn
from ember.column.decimal import DecimalColumn
from ember.column.numeric import NumericColumn
from ember.column.string import StringColumn
from ember.column.temporal import DatetimeColumn, TimedeltaColumn

_CMP = ("eq", "ne", "lt", "le", "gt", "ge")
_UNIT_NS = {"s": 1_000_000_000, "ms": 1_000_000, "us": 1_000, "ns": 1}


class _PythonObject:
    """A value pandas keeps as a Python object beside this column (a NaT or a time into numbers, a
    date beside numbers): it equals no value of the column and is no number, so ember's kernels give
    pandas' answer for such an object (== False, != True, a fill that would make an object column
    refused, a masked column's pandas TypeError). Prints as the value it stands for."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __repr__(self) -> str:
        return repr(self.value)

    def __str__(self) -> str:
        return str(self.value)


_PythonObject.__name__ = _PythonObject.__qualname__ = "Python object"

SKIP = _PythonObject(None)  # "isin": a candidate that matches no row


def _unsupported(what: str) -> Unsupported:
    return Unsupported(
        f"{what} is not supported by ember."
        ' Opt in to running it through pandas with ember.config.set(fallback="pandas").'
    )


def _is_date(x: Any) -> bool:
    """A ``datetime.date`` that is not a ``datetime`` (pandas never reads it as a timestamp)."""
    return isinstance(x, _dt.date) and not isinstance(x, _dt.datetime)


def _is_time(x: Any) -> bool:
    return isinstance(x, (_dt.datetime, _dt.timedelta, np.datetime64, np.timedelta64)) or _is_date(x)


def _is_nat(x: Any) -> bool:
    return x is pd.NaT or (isinstance(x, (np.datetime64, np.timedelta64)) and bool(np.isnat(x)))


def _exact_number(d: decimal.Decimal, col: NumericColumn) -> Any:
    """The Python int / float equal to ``d`` exactly that the column's dtype compares exactly, or None."""
    if d.is_infinite():
        return float(d)
    kind = col.data.dtype.kind
    if kind in "iub" and d == d.to_integral_value():
        v = int(d)
        if kind == "b":
            return v if v in (0, 1) else None
        info = np.iinfo(col.data.dtype)
        return v if info.min <= v <= info.max else None
    f = float(d)
    if decimal.Decimal(f) != d:
        return None
    if kind != "f" and abs(f) >= 2.0**52:  # beyond 2**52 an integer column's values round as floats
        return None
    return f


def _decimal(col: Column, d: decimal.Decimal, use: str, op: str | None) -> Any:
    nan = d.is_nan()
    if use == "match":  # pandas' replace matches no number with a Decimal; a NaN one finds missing strings
        return np.nan if nan and isinstance(col, StringColumn) else SKIP
    if use == "isin":
        if isinstance(col, StringColumn):
            return np.nan if nan else SKIP  # pandas finds the missing strings for a NaN Decimal
        if not isinstance(col, NumericColumn) or nan:
            return SKIP
        exact = _exact_number(d, col)
        return SKIP if exact is None else exact
    if nan and use == "clip":
        return None  # a missing bound: none
    if use == "clip" and isinstance(col, (DatetimeColumn, TimedeltaColumn)):
        raise TypeError(f"Invalid comparison between dtype={col.dtype} and Decimal")
    if nan and use == "fill" and isinstance(col, NumericColumn) and col.data.dtype.kind != "b":
        return np.nan  # missing beside numbers (elsewhere pandas keeps the object)
    if use != "binary" or not isinstance(col, NumericColumn):
        if use == "binary" and op not in ("eq", "ne") and isinstance(col, StringColumn) and nan:
            raise _unsupported(f"a str column {op} a NaN decimal.Decimal")
        return d  # fill: kept as an object (refused where a row takes it); others: pandas' own errors
    if op in ("eq", "ne"):
        exact = None if nan else _exact_number(d, col)
        return _PythonObject(d) if exact is None else exact
    if op in _CMP:
        if nan or col.data.dtype.kind == "f":
            # pandas raises decimal.InvalidOperation where a NaN takes part (data dependent)
            raise _unsupported(f"comparing a {col.dtype} column with decimal.Decimal ({op})")
        exact = _exact_number(d, col)
        if exact is None:
            raise _unsupported(f"comparing a {col.dtype} column with decimal.Decimal({str(d)!r}) ({op})")
        return exact
    if col.data.dtype.kind == "f" and not col.nullable:
        return d  # pandas: float and Decimal do not mix (TypeError), as ember's kernels say
    raise _unsupported(
        f"arithmetic of a {col.dtype} column with decimal.Decimal (pandas computes Python objects)"
    )


def _beside_decimals(col: DecimalColumn, value: Any, use: str, op: str | None) -> Any:
    """A value beside a decimal column: operators take it as it is (``ops.decimal_ops``); an isin /
    map key becomes the unscaled integer of the equal value (Python's exact equality: Decimal('1.1')
    equals Decimal('1.10') and 1.5, not 1.1), or SKIP; other uses are refused."""
    if use == "binary" or use == "fill":
        return value
    if use != "isin":
        raise _unsupported(f"{use} of {type(value).__name__} values in a decimal column")
    if (
        value is None
        or value is pd.NA
        or (isinstance(value, float) and value != value)
        or (isinstance(value, decimal.Decimal) and value.is_nan())
    ):
        raise _unsupported("isin of a decimal column with missing values among the candidates")
    if isinstance(value, (float, np.floating)) and not np.isfinite(value):
        return SKIP
    if isinstance(value, decimal.Decimal) and not value.is_finite():
        return SKIP
    if not isinstance(value, (bool, int, float, np.number, np.bool_, decimal.Decimal)):
        return SKIP  # pandas: a string, a date ... equals no Decimal
    from fractions import Fraction

    unscaled = Fraction(value.item() if isinstance(value, np.generic) else value) * 10**col.scale
    if unscaled.denominator != 1 or abs(unscaled.numerator) >= 2**63:
        return SKIP
    return int(unscaled.numerator)


def scalar_for(col: Column, value: Any, use: str, op: str | None = None) -> Any:
    """``value`` as ember's kernels take it beside ``col`` for ``use`` ("binary" with ``op``, "fill",
    "clip", "isin"), with pandas' meaning; raises pandas' error or NotImplementedError where ember
    cannot give pandas' answer. Values it need not change are returned as they are."""
    if isinstance(value, Column) or not isinstance(col, Column):
        return value
    if isinstance(col, DecimalColumn):
        return _beside_decimals(col, value, use, op)
    if use == "mapkey":  # a key of Series.map(dict): matched as isin matches
        if _is_date(value) and isinstance(col, DatetimeColumn):  # pandas 3 (deprecated): matches
            raise _unsupported("Series.map: a datetime.date key beside datetimes")
        use = "isin"
    if use == "isin" and isinstance(col, CategoricalColumn):
        if isinstance(value, (np.datetime64, np.timedelta64)) or _is_date(value):
            # pandas' own errors for NumPy NaTs; a date matches categories of datetimes (deprecated)
            raise _unsupported(f"isin of a {col.dtype} column with {type(value).__name__} values")
        return value  # matched against the categories, as a column of their kind
    if isinstance(value, decimal.Decimal):
        return _decimal(col, value, use, op)
    if use == "clip" and _is_nat(value):
        return None  # pandas ignores a missing bound
    if not _is_time(value):
        return value
    if use == "match":
        return _match_time(col, value)
    if use == "binary" and isinstance(col, DatetimeColumn) and col.tz is not None and op == "sub":
        if isinstance(value, np.datetime64):  # a NumPy time is tz-naive, its NaT too
            raise TypeError("Cannot subtract tz-naive and tz-aware datetime-like objects")
    if isinstance(col, StringColumn) and isinstance(value, (np.datetime64, np.timedelta64)):
        # NumPy's timedelta64 is an integer subclass (a str * it repeated the strings); pandas' own
        # answers here are Arrow / int() errors
        raise _unsupported(f"a str column with a NumPy {type(value).__name__} ({use} {op or ''})")
    if isinstance(col, NumericColumn):
        if use == "isin":
            return SKIP  # no time equals a number
        if use in ("fill", "value"):
            return _PythonObject(value)
        if use == "binary" and op not in _CMP and _is_nat(value) and not isinstance(value, _dt.date):
            raise _unsupported(f"a {col.dtype} column {op} a NumPy NaT")
        if use == "binary" and op in ("eq", "ne"):
            # NumPy compares a timedelta64 with integers by its count (pandas follows); a NaT or any
            # other time equals no number
            plain_td = isinstance(value, np.timedelta64) and not _is_nat(value)
            return value if plain_td else _PythonObject(value)
        if use == "binary" and col.nullable and _is_nat(value) and op in _CMP:
            raise _unsupported(f"comparing a {col.dtype} column with a NumPy NaT ({op})")
        if use == "clip":
            raise _unsupported(f"clip of a {col.dtype} column by {type(value).__name__} bounds")
        return value
    if _is_date(value) and use != "clip":
        if use == "isin":
            return SKIP  # a date equals no timestamp (nor string, nor category)
        if use == "binary":
            return _PythonObject(value) if op in ("eq", "ne") else value
        return value
    if use == "clip" and isinstance(col, (DatetimeColumn, TimedeltaColumn)):
        _check_comparable(col, value)
        _check_unit(col, value)
    return value


def _check_comparable(col: DatetimeColumn | TimedeltaColumn, value: Any) -> None:
    """pandas' TypeError for a clip bound the column does not compare with (a date; tz-naive beside
    tz-aware; a time beside timedeltas, a timedelta beside times)."""
    tz = getattr(value, "tzinfo", None)
    times = isinstance(value, (_dt.date, np.datetime64))
    if isinstance(col, TimedeltaColumn) and not times:
        return
    if (
        _is_date(value)
        or isinstance(col, TimedeltaColumn)
        or (isinstance(value, (_dt.datetime, np.datetime64)) and (tz is None) != (col.tz is None))
    ):
        raise TypeError(f"Invalid comparison between dtype={col.dtype} and {type(value).__name__}")


def _check_unit(col: DatetimeColumn | TimedeltaColumn, value: Any) -> None:
    """A clip bound finer than the column's unit: pandas changes the column's unit (refused)."""
    try:
        v = pd.Timestamp(value) if isinstance(col, DatetimeColumn) else pd.Timedelta(value)
    except (TypeError, ValueError):
        return
    if v is pd.NaT or not isinstance(v, (pd.Timestamp, pd.Timedelta)):
        return
    if _UNIT_NS.get(v.unit, 1) < _UNIT_NS[col.unit] and v.as_unit(col.unit) != v:
        raise _unsupported(
            f"clip of a {col.dtype} column by {value!r}, finer than its unit (pandas changes the "
            "column's unit); cast the column first"
        )


def _match_time(col: Column, value: Any) -> Any:
    """A time as the key of pandas' replace: a NumPy NaT finds a string column's missing rows, and a
    datetime column's where it is a datetime64 NaT; other times of another kind find nothing."""
    if _is_date(value):
        raise _unsupported(f"replace of a datetime.date in a {col.dtype} column")
    if value is pd.NaT:
        return value
    if _is_nat(value):
        if isinstance(col, StringColumn) or (
            isinstance(col, DatetimeColumn) and isinstance(value, np.datetime64)
        ):
            return np.nan
        return SKIP
    if isinstance(col, NumericColumn):
        return SKIP
    return value


def isin_values(col: Column, values: list) -> list:
    """The candidates of ``isin`` as ember matches them (those that match no row dropped)."""
    out = [scalar_for(col, v, "isin") for v in values]
    return [v for v in out if v is not SKIP]
