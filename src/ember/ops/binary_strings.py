"""Binary operators of string columns (comparisons bytewise: UTF-8 byte order is code point order,
concatenation, repetition) and comparisons between columns of different kinds (strings, categoricals,
masked and NumPy numbers, times), with pandas' result types and missing values.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.column import (
    CategoricalColumn,
    Column,
    DatetimeColumn,
    NumericColumn,
    StringColumn,
    TimedeltaColumn,
)
from ember.column.base import Unsupported
from ember.ops._binary_common import CMP, SYMBOL, _and_masks, _type_name, is_missing_scalar


def string_parts(x: StringColumn | str, n: int, xp: Any) -> tuple[Any, Any, Any]:
    """(bytes, starts, lengths) of a string column or of a str scalar repeated ``n`` times."""
    if isinstance(x, StringColumn):
        starts = x.data[:-1]
        return x.chars, starts, x.data[1:] - starts
    raw = np.frombuffer(str(x).encode("utf-8"), dtype=np.uint8).copy()
    return xp.asarray(raw), xp.zeros(n, dtype=np.int64), xp.full(n, raw.size, dtype=np.int64)


def _segments(xp: Any, lengths: Any) -> tuple[Any, int]:
    """Exclusive-scan offsets (n + 1) of ``lengths`` and their total. Synchronizes once."""
    offs = xp.zeros(lengths.shape[0] + 1, dtype=np.int64)
    xp.cumsum(lengths, out=offs[1:])
    return offs, int(offs[-1])


def string_compare(
    xp: Any, pa_: tuple[Any, Any, Any], pb: tuple[Any, Any, Any], n: int, equality: bool = False
) -> Any:
    """Three-way bytewise comparison (-1, 0, 1 as int8) of two string operands, row by row
    (``equality``: only zero / non-zero is wanted, so rows of different lengths read no bytes).

    The first differing byte of each row is found without a scatter-min: a prefix count of differing
    bytes tells which differing byte is the first of its row. Synchronizes once (the scan total).
    """
    from ember.ops._strings import expand_positions

    (ca, sa, la), (cb, sb, lb) = pa_, pb
    by_len = xp.sign(la - lb).astype(np.int8)
    common = xp.where(la == lb, la, 0) if equality else xp.minimum(la, lb)
    offs, total = _segments(xp, common)
    if total == 0:
        return by_len
    row, k = expand_positions(xp, offs, total)
    ba = ca[sa[row] + k].astype(np.int16)
    bb = cb[sb[row] + k].astype(np.int16)
    diff = ba != bb
    cum = xp.zeros(total + 1, dtype=np.int64)
    xp.cumsum(diff, out=cum[1:])
    first = diff & (cum[:-1] == cum[offs[:-1]][row])
    per_row = xp.zeros(n + 1, dtype=np.int8)
    per_row[xp.where(first, row, n)] = xp.sign(ba - bb).astype(np.int8)
    has_diff = (cum[offs[1:]] - cum[offs[:-1]]) > 0
    return xp.where(has_diff, per_row[:n], by_len)


def string_concat(
    xp: Any, pa_: tuple[Any, Any, Any], pb: tuple[Any, Any, Any], valid: Any
) -> tuple[Any, Any]:
    """Offsets and bytes of the row-wise concatenation a + b (missing rows empty). Synchronizes once."""
    (ca, sa, la), (cb, sb, lb) = pa_, pb
    if valid is not None:
        la, lb = xp.where(valid, la, 0), xp.where(valid, lb, 0)
    offs, total = _segments(xp, la + lb)
    if total == 0:
        return offs, xp.zeros(0, dtype=np.uint8)
    pos = xp.arange(total, dtype=np.int64)
    row = xp.searchsorted(offs, pos, side="right") - 1
    k = pos - offs[row]
    lrow = la[row]
    in_a = k < lrow
    ia = xp.where(in_a, sa[row] + k, 0)
    ib = xp.where(in_a, 0, sb[row] + k - lrow)
    av = ca[xp.minimum(ia, max(int(ca.shape[0]) - 1, 0))] if ca.shape[0] else xp.zeros(total, np.uint8)
    bv = cb[xp.minimum(ib, max(int(cb.shape[0]) - 1, 0))] if cb.shape[0] else xp.zeros(total, np.uint8)
    return offs, xp.where(in_a, av, bv)


def _is_object(dtype: Any) -> bool:
    return isinstance(dtype, np.dtype) and dtype.kind == "O"


def _string_cmp_result(col: StringColumn, out: Any, valid: Any, op: str) -> NumericColumn:
    """A comparison's result: 'string' (pd.NA) data gives 'boolean' with its missing rows. pandas 3.0
    and 3.1 give ``bool[pyarrow]`` there; ember keeps 'boolean' on purpose (the same values and
    missing values, and the masked boolean every other ember operation takes), not pyarrow's type."""
    if getattr(col.pd_dtype, "na_value", None) is pd.NA:  # 'string' dtype: boolean with <NA>
        return NumericColumn(out, valid, nullable=True)
    if valid is None:
        return NumericColumn(out)
    return NumericColumn(out | ~valid if op == "ne" else out & valid)


def _masked_beside_missing_strings(a: Any, b: Any) -> bool:
    """A masked column compared (< <= > >=) with str data of missing values only: pandas compares
    its values with the strings' NumPy array of NaN (no pair fails) and masks every row: all NA.
    Syncs once, only on a path that would raise."""
    if not (isinstance(a, NumericColumn) and a.nullable and isinstance(b, StringColumn)):
        return False
    if b.pd_dtype == object or getattr(b.pd_dtype, "na_value", None) is pd.NA:
        return False
    return len(b) == 0 or (b.mask is not None and not bool(b.mask.any()))


def _is_int_scalar(x: Any) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def string_op(a: Any, b: Any, op: str) -> Column:
    """``a <op> b`` where one operand is a string column (comparisons, ``+``, ``*`` an int)."""
    ca, cb = isinstance(a, Column), isinstance(b, Column)
    col = a if isinstance(a, StringColumn) else b
    other = b if col is a else a
    xp, n = col.xp, len(col)
    other_is_str = isinstance(other, (StringColumn, str))
    if not (ca and cb) and op not in ("eq", "ne") and not (op == "mul" and _is_int_scalar(other)):
        out = _missing_objects_beside_scalar(col, other, op, col is a)
        if out is not None:
            return out
    if op in CMP:
        if is_missing_scalar(other):
            return _string_cmp_result(col, xp.full(n, op == "ne"), xp.zeros(n, dtype=bool), op)
        if not other_is_str:
            if op in ("eq", "ne"):
                return _string_cmp_result(col, xp.full(n, op == "ne", dtype=bool), col.mask, op)
            if _masked_beside_missing_strings(a, b):
                return NumericColumn(xp.zeros(n, dtype=bool), xp.zeros(n, dtype=bool), nullable=True)
            raise TypeError(f"Invalid comparison between dtype=str and {_type_name(other)}")
        sign = string_compare(xp, string_parts(a, n, xp), string_parts(b, n, xp), n, op in ("eq", "ne"))
        valid = _and_masks(a.mask if ca else None, b.mask if cb else None)
        return _string_cmp_result(col, CMP[op](sign, 0), valid, op)
    if op == "mul" and not other_is_str:
        out = _repeated(col, other)
        if out is not None:
            return out
    if op != "add" or not other_is_str:
        if (
            ca
            and cb
            and (
                _is_object(a.pd_dtype)
                if isinstance(a, StringColumn)
                else False or _is_object(b.pd_dtype)
                if isinstance(b, StringColumn)
                else False
            )
        ):
            out = _object_rows_missing(a, b, op)
            if out is not None:
                return out
        if ca and cb and isinstance(other, TimedeltaColumn) and op in ("truediv", "floordiv", "mod"):
            _objects_as_timedeltas(col, op)
        a_name, b_name = ("str", _type_name(other)) if col is a else (_type_name(other), "str")
        raise TypeError(f"unsupported operand type(s) for {SYMBOL[op]}: '{a_name}' and '{b_name}'")
    if ca and cb and _is_object(a.pd_dtype) != _is_object(b.pd_dtype):
        obj = a if _is_object(a.pd_dtype) else b
        if n and obj.mask is not None and not bool(obj.mask.any()):  # one sync
            # pandas reads an object column of missing values only as Arrow's null type
            typed = b if obj is a else a
            raise TypeError(f"operation 'add' not supported for dtype '{typed.pd_dtype}' with dtype 'object'")
    valid = _and_masks(a.mask if ca else None, b.mask if cb else None)
    offs, chars = string_concat(xp, string_parts(a, n, xp), string_parts(b, n, xp), valid)
    pd_dtype = col.pd_dtype
    if _is_object(pd_dtype) and isinstance(other, StringColumn) and not _is_object(other.pd_dtype):
        pd_dtype = other.pd_dtype  # object + str is str in pandas
    # an object result: NA + 'x' is NA; other missing rows (None + 'x' fails) get NaN
    objects = [x for x in (a, b) if isinstance(x, StringColumn) and _is_object(x.pd_dtype)]
    na = pd.NA if objects and all(x.na is pd.NA for x in objects) else np.nan
    return StringColumn(offs, chars, valid, pd_dtype, na)


def _repeated(col: StringColumn, other: Any) -> Column | None:
    """``strings * ints``: each string repeated (pandas: Python's str * int row by row; an object
    column also takes a bool and gives NaN where a row is missing). None where pandas would not
    repeat; NotImplementedError for masked integers (pandas' object result holds pd.NA)."""
    from ember.backend import to_host
    from ember.ops.strings import repeat

    obj = _is_object(col.pd_dtype)
    if _is_int_scalar(other) or (obj and isinstance(other, (bool, np.bool_))):
        out = repeat(col, int(other))
    elif isinstance(other, NumericColumn) and other.data.dtype.kind in ("iub" if obj else "iu"):
        if other.nullable or other.mask is not None:
            raise Unsupported(
                "binary operator *: strings times integers with missing values is not supported by ember."
            )
        out = repeat(col, to_host(other.data).astype(np.int64))  # one copy to the host: the counts
    else:
        return None
    if obj:  # pandas' object arithmetic: NA * n is NA, NaT * n NaT; None * n fails: NaN
        out.na = _python_image(col.na, other if not isinstance(other, Column) else 1, "mul", True)
    return out


def _objects_as_timedeltas(col: StringColumn, op: str) -> None:
    """pandas divides timedeltas by an object column of strings by parsing them as timedeltas:
    its ValueError where one does not parse; refused where they do (an object column of numbers).
    Copies the strings to the host, on a path that raises."""
    if not _is_object(col.pd_dtype):
        return
    try:
        pd.to_timedelta(col.to_numpy())
    except ValueError as exc:
        raise ValueError(str(exc)) from None
    raise Unsupported(
        f"binary operator {SYMBOL[op]}: timedeltas with an object column of timedelta strings (pandas "
        "parses them, giving an object column) is not supported by ember."
    )


def _missing_objects_beside_scalar(
    col: StringColumn, scalar: Any, op: str, col_left: bool = True
) -> Column | None:
    """An object column of missing values only with a scalar: pandas skips the missing objects (an
    object column of NaN; an ordering comparison is False). Refused for ``**`` and times, where
    pandas answers case by case. None for other columns. Syncs once, on a path that raises else."""
    if not _is_object(col.pd_dtype) or is_missing_scalar(scalar):
        return None
    if op == "add" and isinstance(scalar, str):
        return None
    valid = col.mask
    if valid is None or (len(col) and bool(valid.any())):
        return None
    if op in CMP:
        return NumericColumn(col.xp.zeros(len(col), dtype=bool))
    if op == "pow" or not isinstance(scalar, (str, bool, int, float, np.number, np.bool_)):
        raise Unsupported(
            f"binary operator {SYMBOL[op]}: an object column of missing values with "
            f"{_type_name(scalar)} (pandas answers case by case) is not supported by ember."
        )
    na = _python_image(col.na, scalar, op, col_left)
    return StringColumn(col.offsets.copy(), col.chars[:0].copy(), col.mask.copy(), np.dtype(object), na)


def _python_image(na: Any, scalar: Any, op: str, col_left: bool) -> Any:
    """What pandas' object arithmetic leaves in a missing row: Python's operator on the missing
    object itself where that works and stays missing (NaT * 2 is NaT, NA + 1 is NA), else NaN (None
    * 2 fails: pandas then skips the row)."""
    import operator

    fn = getattr(operator, {"truediv": "truediv", "floordiv": "floordiv"}.get(op, op), None)
    if fn is None:
        return np.nan
    try:
        out = fn(na, scalar) if col_left else fn(scalar, na)
    except Exception:  # noqa: BLE001 - Python's own error: pandas falls back to skipping the row
        return np.nan
    return (
        out
        if out is pd.NA or out is pd.NaT or out is None or (isinstance(out, float) and out != out)
        else np.nan
    )


def _object_rows_missing(a: Column, b: Column, op: str) -> Column | None:
    """pandas applies Python's operator to an object column row by row, only where both sides hold a
    value: with no such row (no rows, or a side all missing) the result is an object column of
    missing values (pd.NA beside a masked column, else NaN); None where a row would meet the operator
    (Python's TypeError for a str). One sync."""
    n, xp = len(a), a.xp
    for x in (a, b):
        if isinstance(x, StringColumn) and not _is_object(x.pd_dtype):
            return None  # str / 'string' data: pandas' own TypeError
        if isinstance(x, (DatetimeColumn, TimedeltaColumn)):
            if n or not (op == "add" or (op == "sub" and x is a)):
                return None  # times: Python's TypeError row by row, or the array's
    valid = _and_masks(_valid(a), _valid(b))
    if n and (valid is None or bool(valid.any())):
        return None
    masked = any(isinstance(x, NumericColumn) and x.nullable for x in (a, b))
    masked_ints = any(isinstance(x, NumericColumn) and x.nullable and not x.is_float for x in (a, b))
    if masked_ints and n:  # pandas applies the operator beneath an Int / boolean mask: 'a' + 0 fails
        strings = [x for x in (a, b) if isinstance(x, StringColumn)]
        if any(x.mask is None or bool(x.mask.any()) for x in strings):
            return None
    mask = None if n == 0 else xp.zeros(n, dtype=bool)
    offsets = xp.zeros(n + 1, dtype=np.int64)
    return StringColumn(
        offsets, xp.zeros(0, dtype=np.uint8), mask, np.dtype(object), pd.NA if masked else np.nan
    )


# --- comparisons between columns of different kinds ----------------------------------------------------


def _cmp_kind(col: Column) -> str | None:
    """The kind of a column as pandas' mixed comparisons treat it (None: not handled here)."""
    if isinstance(col, StringColumn):
        if getattr(col.pd_dtype, "na_value", None) is pd.NA:
            return "nastr"  # 'string': pd.NA semantics
        return "obj" if _is_object(col.pd_dtype) else "str"
    if isinstance(col, CategoricalColumn):
        return "cat" if isinstance(col.categories, StringColumn) else None
    if isinstance(col, NumericColumn):
        if col.nullable:
            return "masked"
        if col.mask is None:
            return "num"
        return "objbool" if col.data.dtype.kind == "b" else None  # pandas: an object array of bools
    if isinstance(col, DatetimeColumn):
        return "dt"
    if isinstance(col, TimedeltaColumn):
        return "td"
    return None


def _valid(col: Column) -> Any:
    if isinstance(col, CategoricalColumn):
        return col.codes >= 0
    if isinstance(col, NumericColumn) and not col.nullable and col.is_float:
        return ~col.xp.isnan(col.data)
    return col.mask


def _constant_result(a: Column, b: Column, op: str, nullable: bool, valid: Any = None) -> NumericColumn:
    out = a.xp.full(len(a), op == "ne", dtype=bool)
    return NumericColumn(out, valid, nullable=True) if nullable else NumericColumn(out)


def _ambiguous() -> TypeError:
    return TypeError("boolean value of NA is ambiguous")


def _holds_na(col: Column) -> bool:
    """Whether a 'string' / masked column holds pd.NA (pandas' row-by-row comparison of its object
    values then takes bool(pd.NA): TypeError). One sync."""
    return col.mask is not None and not bool(col.mask.all())


def _times_beside_missing_strings(a: Column, b: Column) -> bool:
    """pandas compares times with strings that all parse as such times (strings on the left: only
    object ones) as times: refused, unless every string is missing (each parses as NaT: the
    comparison is all False, ``!=`` all True), where this says True. Copies the strings to the host,
    only beside a time column."""
    times = (DatetimeColumn, TimedeltaColumn)
    if isinstance(a, times) and isinstance(b, StringColumn):
        t, col = a, b
    elif isinstance(b, times) and isinstance(a, StringColumn) and _is_object(a.pd_dtype):
        t, col = b, a
    else:
        return False
    values = col.to_numpy()
    values = values[pd.notna(values)]
    if len(values) == 0:
        return True
    try:
        (pd.to_timedelta if isinstance(t, TimedeltaColumn) else pd.to_datetime)(values)
    except (ValueError, TypeError, OverflowError):
        return False
    raise Unsupported(
        f"comparing a {t.dtype} column with strings that parse as times (pandas compares them as "
        "times) is not supported by ember."
    )


def mixed_comparison(a: Column, b: Column, op: str) -> Column | None:
    """``a <op> b`` for two columns of different kinds where pandas' answer follows its own rules
    (None where the usual paths apply):

    * 'string' (pd.NA) beside str / object / categorical strings compares values with pd.NA where
      either side is missing (both ways round; a categorical on the left raises pandas' TypeError);
    * 'string' on the left beside numbers or times is all False (``!=``: True), with no missing
      value; a masked column on the left raises pandas' TypeError, NumPy numbers or times on the left
      give the same constants (NumPy bool for times);
    * a masked column (Int64, boolean) beside strings, categoricals or times, or an object column
      beside a masked one, is a constant 'boolean', missing where either side is;
    * a categorical on the left beside a masked boolean raises pandas' TypeError (beside masked
      numbers: constants);
    * str data on the left compares with a categorical's values, < and > too.

    pandas 3 gives ``bool[pyarrow]`` for a comparison with 'string' data; ember gives 'boolean'
    (the same values and missing values)."""
    if _times_beside_missing_strings(a, b):
        return _constant_result(a, b, op, False)
    out = _missing_objects_compared(a, b, op)
    if out is not None:
        return out
    ka, kb = _cmp_kind(a), _cmp_kind(b)
    if ka is None or kb is None or ka == kb:
        return None
    if ka == "masked" and kb == "td" and a.data.dtype.kind in "iub":
        return _masked_ints_vs_ticks(a, b, op)
    stringish = ("str", "obj", "cat")
    if "nastr" in (ka, kb):
        other = kb if ka == "nastr" else ka
        if other in stringish:
            if ka == "cat":  # pandas compares the categories' values with the objects, row by row
                if op not in ("eq", "ne") or _holds_na(b):
                    raise (
                        _ambiguous()
                        if op in ("eq", "ne")
                        else TypeError("Unordered Categoricals can only compare equality or not")
                    )
                return _strings_compared(_decoded(a), b.with_mask(None), op, nullable=False)
            if op not in ("eq", "ne") and kb == "cat" and ka != "nastr":
                return None
            return _strings_compared(_decoded(a), _decoded(b), op, nullable=True)
        if op not in ("eq", "ne"):
            return None
        if ka == "masked":  # the masked array compares the objects row by row: bool(pd.NA) raises
            if _holds_na(b):
                raise _ambiguous()
            return _constant_result(a, b, op, nullable=True, valid=a.mask)
        return _constant_result(a, b, op, nullable=ka not in ("dt", "td"))
    if op in ("eq", "ne"):
        if ka == "cat" and kb == "masked":
            if b.data.dtype.kind == "b" and _holds_na(b):
                raise _ambiguous()
            return _constant_result(a, b, op, nullable=False)
        if (ka == "masked" and kb in stringish + ("dt", "td")) or (ka == "obj" and kb == "masked"):
            return _constant_result(a, b, op, nullable=True, valid=_and_masks(_valid(a), _valid(b)))
        return None
    if ka == "str" and kb == "cat":  # pandas compares the categories' values (object data defers)
        return _strings_compared(a, _decoded(b), op, nullable=False)
    if (ka == "obj" and kb in ("num", "dt", "td")) or (kb == "obj" and ka in ("dt", "td")):
        # pandas compares Python objects row by row where both sides hold a value: a str beside a
        # number or a time raises, so only rows with a missing side (or none at all) answer: False.
        # (Numbers on the left compare None too: NumPy's TypeError, as ember's string path.)
        valid = _and_masks(_valid(a), _valid(b))
        if len(a) and (valid is None or bool(valid.any())):  # one sync
            raise TypeError(f"'{SYMBOL[op]}' not supported between instances of 'str' and '{_type_name(b)}'")
        return NumericColumn(a.xp.zeros(len(a), dtype=bool))
    if ka == "masked" and kb == "cat":
        return _masked_ordered_beside_categories(a, b, op)
    if ka in ("dt", "td") and kb == "cat" and not (len(b) and bool((b.codes >= 0).any())):  # one sync
        return NumericColumn(a.xp.zeros(len(a), dtype=bool))  # pandas reads missing values as NaT
    if "objbool" in (ka, kb) and {ka, kb} <= {"objbool", "obj", "dt", "td"}:
        return _object_bools_ordered(a, b, op, ka, kb)
    return None


def _masked_ordered_beside_categories(a: NumericColumn, b: CategoricalColumn, op: str) -> NumericColumn:
    """A masked column ordered beside a categorical of strings: pandas compares its values (those
    beneath the mask too) with the categorical's object array row by row: a str raises Python's
    TypeError, the missing values (NaN) answer, all missing ('boolean'). One sync."""
    if len(b) and bool((b.codes >= 0).any()):  # one sync
        kind = {"b": "bool", "f": "float"}.get(a.data.dtype.kind, "int")
        raise TypeError(f"'{SYMBOL[op]}' not supported between instances of '{kind}' and 'str'")
    xp, n = a.xp, len(a)
    return NumericColumn(xp.zeros(n, dtype=bool), xp.zeros(n, dtype=bool), nullable=True)


_PYTHON_TYPE = {"objbool": "bool", "obj": "str", "dt": "Timestamp", "td": "Timedelta"}


def _object_bools_ordered(a: Column, b: Column, op: str, ka: str, kb: str) -> NumericColumn:
    """An object column of bools ordered (< <= > >=) beside object strings or times: pandas compares
    the Python objects row by row where both sides hold a value (a time beside an object array is
    boxed and compared from its own side, the operator mirrored), which raises Python's TypeError;
    with no such row the answer is all False. One sync."""
    valid = _and_masks(_valid(a), _valid(b))
    if len(a) and (valid is None or bool(valid.any())):  # one sync
        symbol = SYMBOL[op]
        if kb in ("dt", "td"):
            symbol, ka, kb = SYMBOL[_MIRRORED[op]], kb, ka
        raise TypeError(
            f"'{symbol}' not supported between instances of '{_PYTHON_TYPE[ka]}' and '{_PYTHON_TYPE[kb]}'"
        )
    return NumericColumn(a.xp.zeros(len(a), dtype=bool))


_MIRRORED = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le"}


def _missing_objects(col: Column) -> Any:
    """The missing value an object column of missing values only holds (None, NaN, pd.NA, NaT), or
    ``_NONE`` where ``col`` is no such column. One sync, only for an object column."""
    from ember.column.list import ListColumn

    obj = (
        (isinstance(col, StringColumn) and _is_object(col.pd_dtype))
        or isinstance(col, ListColumn)
        or (type(col) is NumericColumn and col.dtype == np.dtype(object))
    )
    if not obj or not len(col) or col.mask is None or bool(col.mask.any()):
        return _NONE
    return getattr(col, "na", np.nan)


_NONE = object()


def _missing_objects_compared(a: Column, b: Column, op: str) -> NumericColumn | None:
    """A comparison with an object column of missing values only. pandas makes its own missing value
    of them beside datetimes, timedeltas and str data, and with object data on the left (another
    object column, or NumPy numbers on the right) skips them (all False; ``!=`` True), and 'string'
    data reads them as nulls (all missing); NumPy numbers on the left and masked columns meet the objects
    in Python's operators row by row: pd.NA raises (``bool(pd.NA)``), None and NaT raise for ordering,
    NaN orders as False (a masked column: all missing, 'boolean'); ``==`` / ``!=`` answer (masked:
    all missing). A categorical raises for pd.NA. None where the usual paths answer."""
    ma, mb = _missing_objects(a), _missing_objects(b)
    if ma is _NONE and mb is _NONE:
        return None
    marker, obj_left = (ma, True) if ma is not _NONE else (mb, False)
    other = b if obj_left else a
    kind = _cmp_kind(other)
    n, xp = len(a), a.xp
    is_nan = isinstance(marker, float) and np.isnan(marker)
    constant = NumericColumn(xp.full(n, op == "ne", dtype=bool))
    if kind in ("dt", "td", "str") or other.dtype == np.dtype(object) or (kind == "num" and obj_left):
        return constant  # objects on the left: pandas' row-by-row comparison skips missing values
    if kind == "nastr":  # pandas reads the objects as Arrow's nulls, either way round
        return NumericColumn(xp.zeros(n, dtype=bool), xp.zeros(n, dtype=bool), nullable=True)
    if kind not in ("num", "masked", "cat"):
        return None
    if marker is pd.NA:
        raise _ambiguous()
    if kind == "cat":
        return constant if op in ("eq", "ne") else None
    if op not in ("eq", "ne") and not is_nan:
        raise TypeError(
            f"'{SYMBOL[op]}' not supported between instances of '{_python_type(other, False, False)}' "
            f"and '{type(marker).__name__}'"
        )
    if kind == "num":
        return constant
    return NumericColumn(xp.zeros(n, dtype=bool), xp.zeros(n, dtype=bool), nullable=True)


def _masked_ints_vs_ticks(a: NumericColumn, b: TimedeltaColumn, op: str) -> NumericColumn:
    """Masked integers (or booleans) beside timedeltas: pandas hands its integers to NumPy, which
    compares them with the timedeltas' counts of their unit ('boolean', missing where either side
    is). NumPy reads the int64 minimum as NaT: unequal to everything."""
    if a.data.dtype == np.uint64:
        raise Unsupported("comparison of UInt64 data with timedeltas is not supported by ember.")
    ints = a.data.astype(np.int64)
    nat = ints == np.iinfo(np.int64).min
    out = a.xp.where(nat, op == "ne", CMP[op](ints, b.data))
    return NumericColumn(out, _and_masks(a.mask, b.mask), nullable=True)


def _decoded(col: Column) -> StringColumn:
    return col.decode() if isinstance(col, CategoricalColumn) else col


def _strings_compared(a: StringColumn, b: StringColumn, op: str, nullable: bool) -> NumericColumn:
    xp, n = a.xp, len(a)
    sign = string_compare(xp, string_parts(a, n, xp), string_parts(b, n, xp), n, op in ("eq", "ne"))
    out, valid = CMP[op](sign, 0), _and_masks(a.mask, b.mask)
    if nullable:
        return NumericColumn(out, valid, nullable=True)
    if valid is None:
        return NumericColumn(out)
    return NumericColumn(out | ~valid if op == "ne" else out & valid)


# --- Series flex methods of object data ------------------------------------------------------------


def _object_strings(col: Any) -> bool:
    return isinstance(col, StringColumn) and _is_object(col.pd_dtype)


def _numpy_backed(col: Column) -> bool:
    """A column pandas holds as a NumPy array (object strings, NumPy numbers and bools)."""
    return _object_strings(col) or (type(col) is NumericColumn and not col.nullable)


def _python_type(col: Column, missing: bool, none: bool) -> str:
    if none:
        return "NoneType"
    if missing or isinstance(col, StringColumn):
        return "float" if missing else "str"
    return {"b": "bool", "f": "float"}.get(col.data.dtype.kind, "int")


def object_flex_op(a: Column, b: Column, op: str, a_none: Any = None, b_none: Any = None) -> Column | None:
    """``a <op> b`` as pandas' ``Series._binop`` computes it where a side holds object strings: the
    two NumPy arrays meet Python's operator row by row, missing values included (``a_none`` /
    ``b_none``: the rows holding None, the others NaN). A None beside anything, or a missing value
    beside a str, raises Python's TypeError for arithmetic and ordering; ``None == None`` is True.
    None where the usual operator answers as pandas (no object strings, a side pandas holds as an
    extension array, or no such row). One sync."""
    from ember.backend.arrays import to_host
    from ember.ops._binary_common import ARITH, LOGIC, REVERSED

    base = REVERSED.get(op, op)
    x, y, xn, yn = (b, a, b_none, a_none) if op in REVERSED else (a, b, a_none, b_none)
    if base in LOGIC or not (_object_strings(x) or _object_strings(y)) or not len(x):
        return None
    if not (_numpy_backed(x) and _numpy_backed(y)):
        return None
    for c in (x, y):
        if _object_strings(c) and c.na is pd.NA and c.mask is not None and not bool(c.mask.all()):
            raise Unsupported(f"Series.{op}: object data holding pd.NA is not supported by ember.")
    xp, n = x.xp, len(x)
    none = xp.zeros(n, dtype=bool)
    xn = none if xn is None else xn & x.isna()
    yn = none if yn is None else yn & y.isna()
    xm, ym = x.isna(), y.isna()
    if base in ("eq", "ne"):
        both = xn & yn
        if not bool(both.any()):
            return None
        from ember.ops.binary import binary_op

        out = binary_op(a, b, op)
        return NumericColumn(xp.where(both, base == "eq", out.data))
    if base not in ARITH and base not in CMP:
        return None
    xs = ~xm if _object_strings(x) else none
    ys = ~ym if _object_strings(y) else none
    bad = xn | yn | (xs & ym) | (ys & xm)
    if not bool(bad.any()):
        return None
    i = int(to_host(xp.argmax(bad)))
    rows = to_host(xp.stack([xm[i], xn[i], ym[i], yn[i]])).tolist()
    tx, ty = _python_type(x, rows[0], rows[1]), _python_type(y, rows[2], rows[3])
    if base in CMP:
        raise TypeError(f"'{SYMBOL[base]}' not supported between instances of '{tx}' and '{ty}'")
    if base == "add" and tx == "str":
        raise TypeError(f'can only concatenate str (not "{ty}") to str')
    raise TypeError(f"unsupported operand type(s) for {SYMBOL[base]}: '{tx}' and '{ty}'")


def none_rows(col: Column, positions: Any = None) -> Any:
    """The rows of ``col`` taken at ``positions`` (-1: a row alignment adds, NaN) that hold None: an
    object column's missing values when it holds None. None where there are none."""
    if not _object_strings(col) or col.na is not None or col.mask is None:
        return None
    flags = ~col.mask
    if positions is None:
        return flags
    xp = col.xp
    if len(col) == 0:
        return xp.zeros(len(positions), dtype=bool)
    return xp.where(positions >= 0, flags[xp.maximum(positions, 0)], False)
