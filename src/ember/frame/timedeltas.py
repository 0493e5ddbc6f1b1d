"""``to_timedelta``: pandas' conversion of numbers (with a unit) and strings to timedelta64."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.backend import to_host
from ember.backend import xp as current_xp
from ember.column import Column, NumericColumn, StringColumn, TimedeltaColumn
from ember.frame._fallback import unsupported
from ember.ops._common import UNIT_NS
from ember.ops.datetimes import I64_MAX, first_bad


def _probe(col: Column, unit: str | None, errors: str) -> str:
    """The unit pandas gives this input's dtype (one value of it), raising pandas' errors for a bad
    ``unit`` / ``errors`` / dtype."""
    dtype = col.dtype
    sample = pd.Series(np.zeros(1, dtype=col.data.dtype)).astype(dtype)
    return np.datetime_data(pd.to_timedelta(sample, unit=unit, errors=errors).dtype)[0]


def _unit_word(unit: str) -> str:
    """pandas' plural of a unit in its overflow message ("days", "hours", "seconds" ...)."""
    td = pd.Timedelta(1, unit=unit)
    for word, ns in (
        ("weeks", 7 * 86_400 * 10**9),
        ("days", 86_400 * 10**9),
        ("hours", 3_600 * 10**9),
        ("minutes", 60 * 10**9),
        ("seconds", 10**9),
        ("milliseconds", 10**6),
        ("microseconds", 10**3),
        ("nanoseconds", 1),
    ):
        if td.value == ns:
            return word
    return unit


def _numbers(col: NumericColumn, unit: str, errors: str, out: str) -> TimedeltaColumn:
    """Integers (whole floats) of ``unit`` as timedelta64[out] ticks, overflow checked as pandas."""
    xp = col.xp
    factor_ns = pd.Timedelta(1, unit=unit).value
    if factor_ns % UNIT_NS[out]:
        raise unsupported("to_timedelta", f"unit={unit!r} into timedelta64[{out}]")
    factor = factor_ns // UNIT_NS[out]
    data, valid = col.data, col.mask
    if data.dtype.kind == "f":
        finite = xp.isfinite(data)
        valid = finite if valid is None else valid & finite
        if first_bad(xp, data != xp.trunc(data), valid) is not None:
            raise unsupported(
                "to_timedelta", "numbers with a fraction (pandas' rounding of floats is not reproduced)"
            )
        if first_bad(xp, xp.isinf(data), col.mask) is not None:
            raise unsupported("to_timedelta", "infinite values")
    lim = I64_MAX // factor
    big = (data > lim) | (data < -lim) if data.dtype.kind != "u" else data > np.uint64(lim)
    i = first_bad(xp, big, valid)
    if i is not None:
        if errors != "coerce":
            value = to_host(data[i : i + 1])[0]
            raise pd.errors.OutOfBoundsTimedelta(
                f"Cannot convert {int(value)} {_unit_word(unit)} to timedelta64[{out}] without overflow"
            )
        valid = ~big if valid is None else valid & ~big
    ints = data if valid is None else xp.where(valid, data, 0)
    ticks = ints.astype(np.int64) * np.int64(factor)
    return TimedeltaColumn(ticks, out, valid)


def _strings(col: Column, unit: str | None, errors: str) -> Column:
    """Strings parsed by pandas' timedelta parser, once per distinct string on the host (the
    distinct values go to the host and back: one transfer of the uniques, not of the rows)."""
    from ember.column import from_any
    from ember.ops.factorize import factorize_keys

    codes, uniques, _ = factorize_keys([col], sort=False, dropna=False)
    parsed = pd.to_timedelta(pd.Series(uniques[0].to_pandas()), unit=unit, errors=errors)
    return from_any(parsed, col.xp).take(codes)


def timedelta_column(col: Column, unit: str | None, errors: str) -> Column:
    """The column as pandas.to_timedelta converts it."""
    if errors not in ("raise", "coerce"):
        raise ValueError("errors must be one of 'raise', or 'coerce'.")
    if isinstance(col, TimedeltaColumn):
        return col
    if isinstance(col, StringColumn):
        return _strings(col, unit, errors)
    if isinstance(col, NumericColumn) and not col.is_bool:
        out = _probe(col, unit, errors)
        return _numbers(col, unit or "ns", errors, out)
    _probe(col, unit, errors)  # pandas' TypeError for datetimes, booleans ...
    raise unsupported("to_timedelta", f"values of dtype {col.dtype}")


def to_timedelta(arg: Any, unit: str | None = None, errors: str = "raise") -> Any:
    """pandas.to_timedelta.

    An ember Series gives an ember Series of timedelta64 (an ember Index an Index): integers (and
    whole floats) with ``unit`` (default 'ns') on the device with pandas' overflow rules
    (OutOfBoundsTimedelta, or NaT with ``errors='coerce'``) and its result unit; strings with pandas'
    parser, applied once per distinct string on the host. Floats with a fractional part are refused
    (NotImplementedError). Scalars give pandas' Timedelta; lists, arrays and pandas objects are host
    data and are converted by pandas, then held by ember (lists / arrays give an ember Index, as
    pandas gives a TimedeltaIndex)."""
    from ember.frame.index import Index, MultiIndex
    from ember.frame.series import Series

    if isinstance(arg, Series):
        return arg._wrap(timedelta_column(arg.column, unit, errors))
    if isinstance(arg, MultiIndex):
        raise TypeError("arg must be a string, timedelta, list, tuple, 1-d array, or Series")
    if isinstance(arg, Index):
        return Index._from_column(timedelta_column(arg.column, unit, errors), arg.name)
    if type(arg).__module__.startswith("ember."):  # a DataFrame: pandas' TypeError
        raise TypeError("arg must be a string, timedelta, list, tuple, 1-d array, or Series")
    result = pd.to_timedelta(arg, unit=unit, errors=errors)
    if isinstance(result, pd.Series):
        return Series(result)
    if isinstance(result, pd.Index):
        from ember.column import from_any

        return Index._from_column(from_any(result, current_xp()), result.name)
    return result
