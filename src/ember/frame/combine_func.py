"""Series.combine for the functions ember can run on whole columns.

pandas calls ``func`` once per element on the union of both indexes and infers the result's dtype from
the values. ember runs the known element functions (builtins max / min, the operator module's arithmetic,
the matching NumPy ufuncs) as one vectorised operation with the same per-element meaning, and refuses any
other function rather than call Python per element on device data.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from ember.frame._fallback import unsupported


def _pick_max(a: Any, b: Any) -> Any:  # builtin max(a, b): b only where b > a (NaN compares False)
    return b.where(b > a, a) if hasattr(b, "where") else a.where(~(b > a), b)


def _pick_min(a: Any, b: Any) -> Any:
    return b.where(b < a, a) if hasattr(b, "where") else a.where(~(b < a), b)


# func -> (vectorised equivalent, whether int operands give int results)
_KNOWN = {
    max: (_pick_max, True),
    min: (_pick_min, True),
    operator.add: (operator.add, True),
    operator.sub: (operator.sub, True),
    operator.mul: (operator.mul, True),
    operator.truediv: (operator.truediv, False),
    np.add: (operator.add, True),
    np.subtract: (operator.sub, True),
    np.multiply: (operator.mul, True),
    np.true_divide: (operator.truediv, False),
    np.maximum: (np.maximum, True),
    np.minimum: (np.minimum, True),
}


def series_combine(series: Any, other: Any, func: Any, fill_value: Any = None) -> Any:
    """``func(a, b)`` of each element pair of ``series`` and ``other`` (a Series, aligned on the union
    of both indexes with ``fill_value`` or NaN where a label is missing, or a scalar)."""
    from ember.frame.series import Series

    known = _KNOWN.get(func) if _hashable(func) else None
    if known is None:
        raise unsupported(
            "Series.combine",
            "a function other than max, min, the operator module's "
            "add / sub / mul / truediv or NumPy's matching ufuncs (pandas calls it per element)",
        )
    vectorised, keeps_int = known
    _check_number(series)
    if isinstance(other, Series):
        _check_number(other)
        if not (series.index.is_unique and other.index.is_unique):
            raise unsupported("Series.combine", "duplicate index labels")
        index = series.index if series.index.equals(other.index) else series.index.union(other.index)
        left = series.reindex(index, fill_value=fill_value)
        right = other.reindex(index, fill_value=fill_value)
        name = series.name if series.name == other.name else None
        operands_int = _is_int(series) and _is_int(other) and _int_fill(fill_value, index, series, other)
    elif isinstance(other, (int, float, np.integer, np.floating)) and not isinstance(other, (bool, np.bool_)):
        left, right, name = series, other, series.name
        operands_int = _is_int(series) and isinstance(other, (int, np.integer))
    else:
        raise unsupported("Series.combine", f"other of type {type(other).__name__}")
    if len(left) == 0:  # pandas: no element to infer from (an object Series)
        raise unsupported("Series.combine", "an empty result (pandas gives object dtype)")
    if func in (max, min) and not _same_kind(series, other):
        raise unsupported(
            "Series.combine", "max / min of integers and floats (pandas' dtype follows the picks)"
        )
    out = vectorised(left.astype(np.float64), right if np.isscalar(right) else right.astype(np.float64))
    if keeps_int and operands_int and not bool(out.isna().any()):
        out = out.astype(series.dtype if _is_int(series) else np.int64)
    out.name = name
    return out


def _hashable(func: Any) -> bool:
    try:
        hash(func)
    except TypeError:
        return False
    return True


def _check_number(series: Any) -> None:
    dtype = series.dtype
    if not (isinstance(dtype, np.dtype) and dtype in (np.int64, np.float64)):
        raise unsupported("Series.combine", f"a {dtype} Series (int64 / float64 are taken)")


def _is_int(obj: Any) -> bool:
    return obj.dtype.kind == "i"


def _same_kind(left: Any, right: Any) -> bool:
    right_int = isinstance(right, (int, np.integer)) if np.isscalar(right) else right.dtype.kind == "i"
    left_int = left.dtype.kind == "i"
    return left_int == right_int


def _int_fill(fill_value: Any, index: Any, series: Any, other: Any) -> bool:
    """Whether every element pandas hands ``func`` is an integer or NaN (a NaN result then shows it
    was a float): no label new to either side, or NaN / an integer ``fill_value`` where one is."""
    if len(index) == len(series) == len(other) or fill_value is None:
        return True
    if isinstance(fill_value, (int, np.integer)) and not isinstance(fill_value, bool):
        return True
    return isinstance(fill_value, float) and np.isnan(fill_value)
