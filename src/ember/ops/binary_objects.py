"""Binary operators with an object column of Python objects (strings or lists held as dtype object),
computed element by element on host object arrays, as pandas computes them.

pandas hands an object column's NumPy object array to the Python operators (``array_ops``):
arithmetic first tries the operator on the whole arrays, and where any pair raises TypeError it
recomputes on the rows where neither side is missing and puts NaN in the others (``_masked_arith_op``;
so pd.NA + 'a' is pd.NA, but only while no other row fails). Comparisons skip missing values (False,
``!=`` True) and raise where Python does (``libops.vec_compare`` / ``scalar_compare``). The result is
an object array as it comes, with no inference. A datetime or timedelta column added to or
subtracted from an object column is boxed to Timestamp / Timedelta objects first (pandas'
``_addsub_object_array``), without the masked retry.
"""

from __future__ import annotations

import datetime as _dt
from typing import Any

import numpy as np
import pandas as pd

from ember.backend import asarray_on
from ember.column import Column, DatetimeColumn, NumericColumn, StringColumn, TimedeltaColumn
from ember.column.base import Unsupported
from ember.column.convert import _from_objects
from ember.column.list import ListColumn
from ember.ops._binary_common import ARITH, CMP, SYMBOL, OperandTypeError

_TEMPORAL_SCALARS = (pd.Timestamp, pd.Timedelta, np.datetime64, np.timedelta64, _dt.datetime, _dt.timedelta)


def holds_objects(x: Any) -> bool:
    """Whether ``x`` is an object column of Python strings or lists (not an object bool column)."""
    return isinstance(x, ListColumn) or (isinstance(x, StringColumn) and x.pd_dtype == object)


def object_op(a: Any, b: Any, op: str) -> Column | None:
    """``a <op> b`` (``op`` not reversed) where an operand is an object column, as pandas computes
    it on object arrays; None where another path answers (object strings compared with strings, an
    extension-typed operand, logical operators). Copies the operands to the host."""
    cols = [x for x in (a, b) if isinstance(x, Column)]
    if not any(holds_objects(x) for x in cols) or not (op in ARITH or op in CMP):
        return None
    if op in CMP and not any(isinstance(x, ListColumn) for x in cols):
        return None  # strings of dtype object compare on the device (binary_strings)
    if not all(holds_objects(x) or _host_operand(x, op) for x in cols):
        return None
    if op == "sub" and isinstance(b, DatetimeColumn) and not isinstance(a, DatetimeColumn):
        raise OperandTypeError("cannot subtract DatetimeArray from ndarray[object]")  # pandas' __rsub__
    boxed = any(isinstance(x, (DatetimeColumn, TimedeltaColumn)) for x in cols)
    if boxed and len(cols[0]) == 1:
        raise Unsupported(
            f"binary operator {SYMBOL[op]}: a datetime / timedelta column of one row beside an object "
            "column (pandas computes it with the object as a scalar) is not supported by ember."
        )
    xa, xb = (_host_values(x) if isinstance(x, Column) else _scalar(x) for x in (a, b))
    col = cols[0]
    if op in CMP:
        out = _compare(xa, xb, op)
        return NumericColumn(asarray_on(out, col.xp))
    plain = not boxed and not isinstance(xb if isinstance(a, Column) else xa, _TEMPORAL_SCALARS)
    out = _arithmetic(xa, xb, op, isinstance(a, Column), retry=plain)
    try:
        return _from_objects(out, col.xp, None, keep_object=True)
    except Unsupported as exc:
        raise Unsupported(
            f"binary operator {SYMBOL[op]}: its result ({exc}) is not supported by ember."
        ) from exc


def _host_operand(x: Column, op: str) -> bool:
    """Operands pandas holds as NumPy arrays beside an object array (plain numbers), or boxes to
    objects (datetimes / timedeltas, for + and -)."""
    if isinstance(x, (DatetimeColumn, TimedeltaColumn)):
        return op in ("add", "sub")
    return type(x) is NumericColumn and not x.nullable


def _host_values(x: Column) -> np.ndarray:
    """The operand as pandas hands it to the operators: objects for object and datetime-like
    columns, the NumPy array (NaN for missing numbers) otherwise."""
    if isinstance(x, (DatetimeColumn, TimedeltaColumn)):
        return x.to_pandas().to_numpy(dtype=object)  # pandas' astype("O"): Timestamp / Timedelta / NaT
    if isinstance(x, NumericColumn):
        return x.to_numpy()
    return x.to_pandas().to_numpy(dtype=object)


def _scalar(x: Any) -> Any:
    """pandas' ``maybe_prepare_scalar_for_op``: datetime-like scalars as Timestamp / Timedelta."""
    if isinstance(x, (np.timedelta64, _dt.timedelta)):
        return pd.Timedelta(x)
    if isinstance(x, (np.datetime64, _dt.datetime)):
        return pd.Timestamp(x)
    return x


def _arithmetic(xa: Any, xb: Any, op: str, col_left: bool, retry: bool) -> np.ndarray:
    """pandas' ``_na_arithmetic_op``: the operator over the arrays; on TypeError (``retry``), again on
    the rows with no missing operand, NaN in the others."""
    fn = ARITH[op]
    try:
        with np.errstate(all="ignore"):
            out = fn(xa, xb)
    except TypeError:
        if not retry:
            raise
        out = _masked(xa, xb, op, col_left)
    return np.asarray(out, dtype=object) if getattr(out, "ndim", 0) else np.full(1, out, dtype=object)


def _masked(xa: Any, xb: Any, op: str, col_left: bool) -> np.ndarray:
    """pandas' ``_masked_arith_op``: with a scalar, only the column's missing rows are skipped (and
    1 ** x is computed even where x is missing)."""
    fn = ARITH[op]
    if isinstance(xa, np.ndarray) and isinstance(xb, np.ndarray):
        mask = ~pd.isna(xa) & ~pd.isna(xb)
        out = np.empty(len(xa), dtype=object)
        if mask.any():
            out[mask] = fn(xa[mask], xb[mask])
    else:
        x, y = (xa, xb) if col_left else (xb, xa)
        mask = ~pd.isna(x)
        if op == "pow":
            mask = np.where((x == 1) if col_left else np.full(len(x), y == 1), False, mask)
        out = np.empty(len(x), dtype=object)
        if mask.any():
            out[mask] = fn(x[mask], y) if col_left else fn(y, x[mask])
    np.putmask(out, ~mask, np.nan)
    return out


def _compare(xa: Any, xb: Any, op: str) -> np.ndarray:
    """pandas' comparison of an object array: missing values compare False (``!=`` True) on either
    side, other pairs by Python's operator (its TypeError raised); a numeric array on the left
    compares as NumPy does."""
    fn = CMP[op]
    if not isinstance(xb, np.ndarray) and pd.api.types.is_scalar(xb) and pd.isna(xb):
        return np.full(len(xa), op == "ne")
    if xa.dtype != object:
        with np.errstate(all="ignore"):
            return np.asarray(fn(xa, xb), dtype=bool)
    ys = xb if isinstance(xb, np.ndarray) else [xb] * len(xa)
    out = np.empty(len(xa), dtype=bool)
    for i, (x, y) in enumerate(zip(xa, ys)):
        if _missing(x) or _missing(y):
            out[i] = op == "ne"
        else:
            out[i] = bool(fn(x, y))
    return out


def _missing(x: Any) -> bool:
    """pandas' ``checknull`` of one value (lists and other containers are values)."""
    return pd.api.types.is_scalar(x) and bool(pd.isna(x))
