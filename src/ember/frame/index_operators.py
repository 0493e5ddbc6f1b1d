"""Arithmetic and comparisons of an Index with a scalar, an array or another Index (pandas' Index
operators: ``df.index % 2 == 0``, ``df.index < 1``).

The labels go through the Series operators (``alignment.series_binary``), so dtypes follow the rules
of Series arithmetic; arithmetic gives an Index (a RangeIndex where pandas keeps one), comparisons a
host array as pandas (NumPy bools, or pandas' BooleanArray for masked labels)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

_ARITH = {
    "__add__": "add",
    "__radd__": "radd",
    "__sub__": "sub",
    "__rsub__": "rsub",
    "__mul__": "mul",
    "__rmul__": "rmul",
    "__truediv__": "truediv",
    "__rtruediv__": "rtruediv",
    "__floordiv__": "floordiv",
    "__rfloordiv__": "rfloordiv",
    "__mod__": "mod",
    "__rmod__": "rmod",
    "__pow__": "pow",
    "__rpow__": "rpow",
    "__and__": "and_",
    "__rand__": "rand_",
    "__or__": "or_",
    "__ror__": "ror_",
    "__xor__": "xor",
    "__rxor__": "rxor",
}
# (__eq__ is Index's own, through pandas)
_COMPARE = {"__ne__": "ne", "__lt__": "lt", "__le__": "le", "__gt__": "gt", "__ge__": "ge"}

# pandas' RangeIndex keeps a range for these with an integer result (RangeIndex._arith_method)
_RANGE_OPS = {
    "add": lambda a, b: a + b,
    "radd": lambda a, b: b + a,
    "sub": lambda a, b: a - b,
    "rsub": lambda a, b: b - a,
    "mul": lambda a, b: a * b,
    "rmul": lambda a, b: b * a,
    "truediv": lambda a, b: a / b,
    "rtruediv": lambda a, b: b / a,
}
_STEP_OPS = ("mul", "rmul", "truediv", "rtruediv")


class IndexOperators:
    """Operators mixed into Index."""

    __slots__ = ()

    def _as_series(self) -> Any:
        from ember.frame.index import MultiIndex, RangeIndex
        from ember.frame.series import Series

        if isinstance(self, MultiIndex):
            from ember.frame._fallback import unsupported

            raise unsupported("MultiIndex operators", "arithmetic or comparisons of a MultiIndex")
        return Series._from_column(self._column, RangeIndex(len(self)), self.name)

    def _operand(self, other: Any, compare: bool) -> Any:
        """``other`` as the Series operators take it: an Index as a Series on the same positions (after
        pandas' length check), a list as an array, a scalar as it is."""
        from ember.frame.index import Index, RangeIndex
        from ember.frame.series import Series

        if isinstance(other, pd.Index):
            from ember.frame.index import index_from_pandas

            other = index_from_pandas(other)
        if isinstance(other, Index):
            _check_length(len(self), len(other), compare)
            return other._as_series()
        if isinstance(other, (list, tuple, np.ndarray)) or hasattr(other, "__cuda_array_interface__"):
            n = len(other) if np.ndim(other) else None
            if n is not None:
                _check_length(len(self), n, compare)
            return other
        if isinstance(other, Series):  # (only reached through the operators' NotImplemented)
            return Series._from_column(other.column, RangeIndex(len(other)), other.name)
        return other

    def _arith(self, other: Any, op: str) -> Any:
        from ember.frame.index import Index, RangeIndex

        if _defers(other):
            return NotImplemented
        if isinstance(self, RangeIndex):
            ranged = _range_result(self, other, op)
            if ranged is not None:
                return ranged
        out = self._as_series()._binary(self._operand(other, False), op)
        return Index._from_column(out.column, _result_name(self, other))

    def _compare(self, other: Any, op: str) -> Any:
        if _defers(other):
            return NotImplemented
        out = self._as_series()._binary(self._operand(other, True), op).column
        from ember.column import NumericColumn

        if isinstance(out, NumericColumn) and out.mask is None and not out.nullable:
            from ember.backend import to_host

            return to_host(out.data)
        return out.to_pandas().array  # masked labels: pandas' BooleanArray

    def __neg__(self) -> Any:
        from ember.frame.index import Index, RangeIndex

        if isinstance(self, RangeIndex):
            return RangeIndex(-self.start, -self.stop, -self.step, name=self.name)
        return Index._from_column((-self._as_series()).column, self.name)

    def __pos__(self) -> Any:
        from ember.frame.index import Index, RangeIndex

        if isinstance(self, RangeIndex):
            return self.copy()
        from ember.ops.object_missing import positive_labels

        return Index._from_column(positive_labels(self._as_series().column), self.name)

    def __invert__(self) -> Any:
        from ember.frame.index import Index, RangeIndex

        if isinstance(self, RangeIndex):
            if len(self) == 0:
                return self.copy()
            return RangeIndex(~self.start, ~self.stop, -self.step, name=self.name)
        return Index._from_column((~self._as_series()).column, self.name)

    def __abs__(self) -> Any:
        from ember.frame.index import Index, RangeIndex

        if isinstance(self, RangeIndex):  # pandas keeps a range where the signs agree
            first, last = self.start, self.start + (len(self) - 1) * self.step
            if len(self) == 0 or min(first, last) >= 0:
                return self.copy()
            if max(first, last) <= 0:
                return -self

        return Index._from_column(abs(self._as_series()).column, self.name)


def _defers(other: Any) -> bool:
    """pandas' Index operators give way to a Series or DataFrame operand (the result is theirs)."""
    return getattr(other, "_ember_kind", None) in ("series", "frame") or isinstance(
        other, (pd.Series, pd.DataFrame)
    )


def _check_length(n: int, m: int, compare: bool) -> None:
    if n != m:
        if compare:
            raise ValueError("Lengths must match to compare")
        raise ValueError(f"operands could not be broadcast together with shapes ({n},) ({m},) ")


def _result_name(index: Any, other: Any) -> Any:
    """pandas' get_op_result_name: an Index operand keeps the name only where both names agree."""
    from ember.frame.index import Index

    if isinstance(other, (Index, pd.Index)):
        return index.name if other.name == index.name else None
    return index.name


def _range_result(index: Any, other: Any, op: str) -> Any:
    """The RangeIndex pandas returns for ``index <op> other`` (an integer scalar operand whose start,
    stop and step stay integers), or None where pandas computes the labels."""
    from pandas.api.types import is_integer

    from ember.frame.index import RangeIndex

    if op == "floordiv":
        return _range_floordiv(index, other)
    fn = _RANGE_OPS.get(op)
    if fn is None or isinstance(other, (bool, np.bool_)) or not isinstance(other, (int, float, np.number)):
        return None
    if isinstance(other, np.timedelta64):
        return None
    try:
        with np.errstate(all="ignore"):
            if op in _STEP_OPS:
                step = fn(index.step, other)
                if not is_integer(step) or not step:
                    return None
            else:
                step = -index.step if op == "rsub" else index.step
            start, stop = fn(index.start, other), fn(index.stop, other)
        if not all(is_integer(x) for x in (start, stop, step)):
            return None  # pandas: a float64 Index of the same labels, as the Series path gives
        pd.RangeIndex(start, stop, step)  # pandas' own checks of the range
    except (ValueError, TypeError, ZeroDivisionError, OverflowError):
        return None
    return RangeIndex(int(start), int(stop), int(step), name=index.name)


def _range_floordiv(index: Any, other: Any) -> Any:
    """pandas' RangeIndex.__floordiv__: a range where an integer divides start and step (or one
    label), else None."""
    from pandas.api.types import is_integer

    from ember.frame.index import RangeIndex

    if not is_integer(other) or other == 0:
        return None
    n = len(index)
    if n == 0 or (index.start % other == 0 and index.step % other == 0):
        start, step = index.start // other, index.step // other
        return RangeIndex(start, start + n * step, step or 1, name=index.name)
    if n == 1:
        start = index.start // other
        return RangeIndex(start, start + 1, 1, name=index.name)
    return None


def _make_arith(op: str) -> Any:
    def method(self: Any, other: Any) -> Any:
        return self._arith(other, op)

    return method


def _make_compare(op: str) -> Any:
    def method(self: Any, other: Any) -> Any:
        return self._compare(other, op)

    return method


for _dunder, _op in _ARITH.items():
    setattr(IndexOperators, _dunder, _make_arith(_op))
for _dunder, _op in _COMPARE.items():
    setattr(IndexOperators, _dunder, _make_compare(_op))
