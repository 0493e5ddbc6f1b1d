"""What the binary operator modules share: the operator tables, missing scalars, operand names."""

from __future__ import annotations

import operator
from typing import Any

import numpy as np
import pandas as pd

from ember.column import Column, NumericColumn, StringColumn

ARITH = {
    "add": operator.add,
    "sub": operator.sub,
    "mul": operator.mul,
    "truediv": operator.truediv,
    "floordiv": operator.floordiv,
    "mod": operator.mod,
    "pow": operator.pow,
}
CMP = {
    "eq": operator.eq,
    "ne": operator.ne,
    "lt": operator.lt,
    "le": operator.le,
    "gt": operator.gt,
    "ge": operator.ge,
}
LOGIC = {"and_": operator.and_, "or_": operator.or_, "xor": operator.xor}
REVERSED = {
    "radd": "add",
    "rsub": "sub",
    "rmul": "mul",
    "rtruediv": "truediv",
    "rfloordiv": "floordiv",
    "rmod": "mod",
    "rpow": "pow",
    "rand_": "and_",
    "ror_": "or_",
    "rxor": "xor",
}
SYMBOL = {
    "add": "+",
    "sub": "-",
    "mul": "*",
    "truediv": "/",
    "floordiv": "//",
    "mod": "%",
    "pow": "**",
    "eq": "==",
    "ne": "!=",
    "lt": "<",
    "le": "<=",
    "gt": ">",
    "ge": ">=",
    "and_": "&",
    "or_": "|",
    "xor": "^",
}
UNIT_NS = {"s": 1_000_000_000, "ms": 1_000_000, "us": 1_000, "ns": 1}


class OperandTypeError(TypeError):
    """pandas' TypeError decided by the operands' dtypes alone: raised with rows or without."""


def _type_name(x: Any) -> str:
    if isinstance(x, StringColumn):
        return "str"
    if isinstance(x, Column):
        return str(x.dtype)
    return type(x).__name__


def _unsupported(a: Any, b: Any, op: str) -> TypeError:
    return TypeError(f"unsupported operand type(s) for {SYMBOL[op]}: '{_type_name(a)}' and '{_type_name(b)}'")


def is_missing_scalar(x: Any) -> bool:
    """None, pd.NA and NaT (NaN is a float value, not a missing scalar, for arithmetic)."""
    return (
        x is None
        or x is pd.NA
        or x is pd.NaT
        or (isinstance(x, (np.datetime64, np.timedelta64)) and np.isnat(x))
    )


def _and_masks(*masks: Any) -> Any:
    out = None
    for m in masks:
        if m is not None:
            out = m if out is None else out & m
    return out


def pandas_view(col: NumericColumn) -> NumericColumn:
    """The column as pandas stores it: a non-nullable int/float column with a mask is float64 with NaN."""
    if col.nullable or col.mask is None or col.data.dtype.kind == "b":
        return col
    return col.set_missing(col.mask)  # type: ignore[return-value]


def _kind(x: Any) -> str:
    if hasattr(x, "dtype"):
        return x.dtype.kind
    return "b" if isinstance(x, bool) else ("i" if isinstance(x, int) else "f")


def _constant(col: Column, value: bool) -> NumericColumn:
    if getattr(col, "nullable", False):  # pandas: a masked column's missing rows stay missing (boolean)
        return NumericColumn(col.xp.full(len(col), value, dtype=bool), col.mask, nullable=True)
    return NumericColumn(col.xp.full(len(col), value, dtype=bool))
