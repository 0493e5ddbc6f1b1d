"""Index alignment for binary operations: Series with Series, frames with frames."""

from __future__ import annotations

import datetime
import warnings
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ember._compat import PANDAS_31
from ember.backend import xp as current_xp
from ember.column import CategoricalColumn, Column, NumericColumn, from_any
from ember.frame.index import Index, MultiIndex, RangeIndex, RangeTakenIndex

if TYPE_CHECKING:
    from ember.frame.series import Series


def indexes_equal(a: Index, b: Index) -> bool:
    """Same labels in the same order; cheap for the common cases (same object, equal ranges)."""
    if a is b:
        return True
    if isinstance(a, RangeIndex) and isinstance(b, RangeIndex):
        return (a.start, a.stop, a.step) == (b.start, b.stop, b.step) or (len(a) == 0 and len(b) == 0)
    if len(a) != len(b):
        return False
    if isinstance(a, MultiIndex) and isinstance(b, MultiIndex):
        return _labels_of(a).equals(_labels_of(b))
    return a.equals(b)


def _labels_of(index: MultiIndex) -> pd.MultiIndex:
    """The labels of a MultiIndex as pandas builds them from its level values: a missing value is a
    code of -1 (pandas' ``MultiIndex.equals`` skips those rows), whatever levels the index keeps.
    Copies the labels to the host."""
    return pd.MultiIndex.from_arrays([c.to_pandas() for c in index.levels_columns], names=index.names)


def align_indexes(a: Index, b: Index, how: str = "outer") -> tuple[Index, Any, Any]:
    """The joined index and, for each side, the positions (-1 = absent) of its rows in the result.

    pandas' rule: when the indexes differ, the result index is their union, sorted, named as the
    left one (the right one when the left is empty)."""
    from ember.ops.join import join_indices

    if isinstance(a, MultiIndex) or isinstance(b, MultiIndex):
        from ember.frame._fallback import unsupported

        raise unsupported("alignment", "MultiIndex operands")
    a, b = _unsigned_beside_signed(a, b)
    _check_time_zones(a.dtype, b.dtype)
    if not len(a) or not len(b):
        return join_beside_empty(a, b, how, sort=how == "outer", range_takes_ints=True)
    check_label_types(a, b)
    with warnings.catch_warnings():  # merge's int/float key warning: index labels unite silently
        warnings.filterwarnings("ignore", "You are merging on int and float", UserWarning)
        left_pos, right_pos = join_indices([a.column], [b.column], how=how, sort=how == "outer")
    if how == "left":
        return a.take(left_pos), left_pos, right_pos
    if how == "right":
        return b.take(right_pos), left_pos, right_pos
    acol, bcol = _common_numbers(a.column, b.column)
    labels = coalesce_take(acol, left_pos, bcol, right_pos)
    name = a.name if len(a) or not len(b) else b.name
    if len(a) and len(b) and _range_union(a, b):
        name = result_name(a, b)
    return Index._from_column(labels, name), left_pos, right_pos


def _common_numbers(a: Column, b: Column) -> tuple[Column, Column]:
    """Two NumPy number label columns in their common type: pandas' union of unequal indexes takes it
    (int8 labels beside a RangeIndex become int64), even where every label comes from one side."""
    da, db = a.dtype, b.dtype
    if da == db or not all(isinstance(d, np.dtype) and d.kind in "iuf" for d in (da, db)):
        return a, b
    from ember.ops.unary import astype

    common = np.result_type(da, db)
    return astype(a, common), astype(b, common)


def join_beside_empty(
    a: Index, b: Index, how: str, sort: bool, range_takes_ints: bool = False
) -> tuple[Index, Any, Any]:
    """pandas' ``Index._join_empty`` (one side without labels, whatever the other's dtype): the
    joined index and each side's positions (-1 = absent). The non-empty side's labels where ``how``
    keeps them (sorted with ``sort``), else the empty side; with ``range_takes_ints`` (alignment, not
    merge) a RangeIndex on the left takes other integer labels as int64."""
    xp = a.column.xp
    if range_takes_ints and isinstance(a, RangeIndex) and getattr(b.dtype, "kind", "O") == "i":
        b = b.astype(np.int64) if b.dtype != np.int64 else b
    if len(b):  # the mirror image
        mirrored = {"left": "right", "right": "left"}.get(how, how)
        index, right_pos, left_pos = join_beside_empty(b, a, mirrored, sort)
        return index, left_pos, right_pos
    if how in ("left", "outer"):
        positions = _pandas_argsort(a) if sort and not _monotonic(a) else None
        index = a if positions is None else a.take(positions)
        if positions is None:
            positions = xp.arange(len(a), dtype=np.int64)
        return index, positions, xp.full(len(a), -1, dtype=np.int64)
    return b, xp.zeros(0, dtype=np.int64), xp.zeros(0, dtype=np.int64)


def _monotonic(index: Index) -> bool:
    """pandas' ``is_monotonic_increasing`` of the labels: a categorical index by its codes (the
    categories' order, missing as -1, ordered or not). One sync."""
    col = index.column
    if isinstance(col, CategoricalColumn):
        codes = col.codes
        return len(codes) < 2 or bool((codes[1:] >= codes[:-1]).all())
    return index.is_monotonic_increasing


def _pandas_argsort(index: Index) -> Any:
    """The order pandas sorts labels in: NumPy's quicksort, whose order of repeated labels no stable
    sort reproduces (it may differ between CPUs): those labels are sorted on the host."""
    if index.is_unique:  # one sync
        return index.argsort()
    order = np.asarray(index.to_pandas().argsort(), dtype=np.int64)
    return index.column.xp.asarray(order)


def _unsigned_beside_signed(a: Index, b: Index) -> tuple[Index, Index]:
    """pandas casts signed labels without negatives to the unsigned labels' dtype when the unsigned
    ones come first; otherwise uint64 beside signed labels unite into object labels, or into int64,
    as the labels' order decides: refused."""
    kinds = [_integer_kind(i.dtype) for i in (a, b)]
    if sorted(kinds) != ["i", "u"]:
        return a, b
    if kinds[0] == "u" and len(b) and _smallest(b.column) >= 0:  # one sync
        return a, b.astype(a.dtype)
    if not len(a) or not len(b):
        return a, b
    if a.dtype == np.uint64 or b.dtype == np.uint64:
        from ember.frame._fallback import unsupported

        raise unsupported(
            "alignment",
            f"labels of dtype {a.dtype} beside labels of dtype {b.dtype} (pandas' result type "
            "depends on their values and order)",
        )
    return a, b


def _smallest(col: Column) -> int:
    data = col.data if col.mask is None else col.xp.where(col.mask, col.data, col.data.max())
    return int(data.min())


def _integer_kind(dtype: Any) -> str:
    """'i' / 'u' for signed / unsigned integer labels, NumPy or masked (Int64, UInt8 ...), else 'O'."""
    if isinstance(dtype, np.dtype) or isinstance(dtype, pd.core.dtypes.dtypes.BaseMaskedDtype):
        return dtype.kind if dtype.kind in "iu" else "O"
    return "O"


def _range_union(a: Index, b: Index) -> bool:
    """Whether pandas joins ``a`` and ``b`` as ranges (an increasing RangeIndex beside increasing,
    evenly spaced integer labels), which names the union as ``Index.union`` does: the shared name,
    else None (other joins keep the left one's). Synchronizes once, only for differently named
    labels beside a RangeIndex."""
    if result_name(a, b) == a.name:
        return False
    if isinstance(a, RangeTakenIndex):  # labels pandas holds as a RangeIndex where evenly spaced
        r = a.as_range()
        if r is None or not (r.step > 0 or len(r) == 1):
            return False
    elif not isinstance(a, RangeIndex) or not (a.step > 0 or len(a) == 1):
        return False
    if isinstance(b, RangeIndex):
        return b.step > 0 or len(b) == 1
    if getattr(b.dtype, "kind", "O") != "i" or not isinstance(b.dtype, np.dtype):
        return False
    if len(b) == 1:
        return True
    data = b.column.data
    step = data[1:] - data[:-1]
    return bool(((step == step[0]) & (step > 0)).all())


def check_label_types(a: Index, b: Index) -> None:
    """Labels of two kinds that pandas unites into an object index (strings beside numbers, bools
    beside numbers ...) are refused; a tz-naive beside a tz-aware DatetimeIndex is pandas' TypeError."""
    from ember.frame._fallback import unsupported

    da, db = a.dtype, b.dtype
    if da == db:
        return
    _check_time_zones(da, db)
    tz = [getattr(d, "tz", None) is not None for d in (da, db)]
    kinds = [getattr(d, "kind", "O") if not t else "M" for d, t in zip((da, db), tz)]
    if all(k in "iuf" for k in kinds) and all(isinstance(d, np.dtype) for d in (da, db)):
        return
    raise unsupported(
        "alignment", f"labels of dtype {da} beside labels of dtype {db} (pandas makes an object index)"
    )


def _check_time_zones(da: Any, db: Any) -> None:
    """pandas' TypeError for tz-naive beside tz-aware datetime labels (empty ones too)."""
    tz = [getattr(d, "tz", None) is not None for d in (da, db)]
    kinds = [getattr(d, "kind", "O") if not t else "M" for d, t in zip((da, db), tz)]
    if kinds[0] == kinds[1] == "M" and tz[0] != tz[1]:
        raise TypeError("Cannot join tz-naive with tz-aware DatetimeIndex")


def _bools_beside_numbers(a: Column, b: Column) -> bool:
    numeric = isinstance(a, NumericColumn) and isinstance(b, NumericColumn)
    return numeric and a.is_bool != b.is_bool


def coalesce_take(first: Column, first_pos: Any, second: Column, second_pos: Any) -> Column:
    """Row i from ``first[first_pos[i]]``, or from ``second[second_pos[i]]`` where first_pos is -1.

    Keeps the dtype (no NaN round trip) when both sides share it: outer-join keys stay int64."""
    from ember.ops.missing import where

    xp = first.xp
    has_first = first_pos >= 0
    if len(first) == 0:
        return second.take(xp.maximum(second_pos, 0))
    if len(second) == 0:
        return first.take(xp.maximum(first_pos, 0))
    if first.dtype != second.dtype:  # pandas' common type of categoricals: their categories' one
        first, second = (c.decode() if isinstance(c, CategoricalColumn) else c for c in (first, second))
        if _bools_beside_numbers(first, second):
            from ember.frame._fallback import unsupported

            raise unsupported(
                "alignment", f"values of {first.dtype} beside {second.dtype} (pandas makes them objects)"
            )
    return where(first.take(xp.maximum(first_pos, 0)), has_first, second.take(xp.maximum(second_pos, 0)))


def align_series(left: Series, right: Series, how: str = "outer") -> tuple[Column, Column, Index]:
    """The two value columns on a common index (pandas' alignment), and that index."""
    index, lpos, rpos = join_labels(left.index, right.index, how)
    lmiss, rmiss = missing_flags(lpos, rpos)
    return reindexed(left.column, lpos, lmiss), reindexed(right.column, rpos, rmiss), index


def check_reindexable(target: Index, source: Index) -> None:
    """pandas' reindex of ``source``'s values onto ``target``: ValueError where ``source`` has
    duplicate labels, unless the two indexes are equal."""
    if not source.is_unique and not indexes_equal(target, source):
        raise ValueError("cannot reindex on an axis with duplicate labels")


def column_like(values: Any, n: int, flex: bool = False) -> Column:
    """A column from a list/array operand, checked to have ``n`` rows (pandas raises ValueError)."""
    from ember.frame.series import Series

    if isinstance(values, Series):
        col = values.column
    else:
        col = from_any(values if not isinstance(values, (set, frozenset)) else list(values), current_xp())
    if len(col) != n:
        raise ValueError(
            "Lengths must be equal"
            if flex
            else f"Lengths must match to compare or combine: {n} vs {len(col)}"
        )
    return col


def positions_array(positions: Any) -> Any:
    """Host or device integer positions as an int64 array of the current backend."""
    xp = current_xp()
    return xp.asarray(
        np.asarray(positions, dtype=np.int64) if isinstance(positions, (list, range)) else positions
    )


# --- binary operations: one alignment for every path -----------------------------------------------


def join_labels(a: Index, b: Index, how: str = "outer") -> tuple[Index, Any, Any]:
    """The result labels of ``a`` beside ``b`` and each side's row positions in them (-1 = absent);
    a side's positions are None where its rows are the result rows as they are (equal indexes)."""
    if indexes_equal(a, b):
        return (b if how == "right" else a), None, None
    return align_indexes(a, b, how)


def missing_flags(*positions: Any) -> list[bool]:
    """For each positions array (None: none missing), whether it holds a -1. One device sync."""
    from ember.backend.arrays import array_module, to_host

    arrays = [p for p in positions if p is not None]
    if not arrays:
        return [False] * len(positions)
    xp = array_module(arrays[0])
    flags = iter(to_host(xp.stack([(p < 0).any() for p in arrays])).tolist())
    return [False if p is None else bool(next(flags)) for p in positions]


def reindexed(col: Column, positions: Any, missing: bool) -> Column:
    """``col`` on the aligned rows: as it is (None), taken, or taken with missing rows (-1)."""
    if positions is None:
        return col
    return col.take_nullable(positions) if missing else col.take(positions)


def is_object_bool(col: Column) -> bool:
    """A NumPy bool column holding missing values: pandas stores it as object (Python bools, NaN)."""
    return isinstance(col, NumericColumn) and col.is_bool and not col.nullable and col.mask is not None


def own_bool_markers(col: Column, other: Column) -> Column:
    """An object bool column beside a masked boolean, its own missing values resolved as pandas'
    BooleanArray reads object operands (``bool(marker)``): None is False, NaN True, pd.NA raises.
    Done before alignment, whose added rows are NaN (True)."""
    from ember.ops.missing import fillna

    masked_bool = isinstance(other, NumericColumn) and other.nullable and other.is_bool
    if not (masked_bool and is_object_bool(col)):
        return col
    marker = getattr(col, "na", np.nan)
    if marker is pd.NA:
        raise TypeError("boolean value of NA is ambiguous")
    return fillna(col, False) if marker is None else col  # NaN: True, as the rows alignment adds


def fill_pair(left: Column, right: Column, fill_value: Any) -> tuple[Column, Column]:
    """pandas' fill for flex methods: where exactly one side is missing, that side takes
    ``fill_value``; both missing stays missing. A side is changed only when it has a missing value
    (as pandas, whose setitem checks the value against the column's dtype). One device sync."""
    from ember.backend.arrays import to_host
    from ember.ops.binary import is_missing_scalar

    if is_missing_scalar(fill_value) or (isinstance(fill_value, float) and np.isnan(fill_value)):
        return left, right  # setting a missing value where values are missing changes nothing
    xp = left.xp
    lmiss, rmiss = left.isna(), right.isna()
    any_l, any_r = to_host(xp.stack([lmiss.any(), rmiss.any()])).tolist()
    if any_l:
        left = _filled(left, ~(lmiss & ~rmiss), fill_value)
    if any_r:
        right = _filled(right, ~(rmiss & ~lmiss), fill_value)
    return left, right


def _filled(col: Column, keep: Any, value: Any) -> Column:
    """``col`` with ``value`` where ``keep`` is False, raising pandas' error for a value its dtype
    cannot hold."""
    from ember.column import DatetimeColumn, StringColumn, TimedeltaColumn
    from ember.frame._fallback import unsupported
    from ember.ops.missing import where

    if isinstance(col, NumericColumn) and col.nullable:
        from ember.frame.setitem_casting import setitem_scalar

        dtype = col.data.dtype
        if dtype.kind in "iu" and isinstance(value, (int, float)) and not isinstance(value, bool):
            if float(value).is_integer() and not np.iinfo(dtype).min <= int(value) <= np.iinfo(dtype).max:
                raise OverflowError(f"Python integer {int(value)} out of bounds for {dtype}")
        setitem_scalar(col, value)  # pandas' masked setitem: TypeError for a value the dtype cannot hold
    if isinstance(col, NumericColumn) and not col.nullable and not isinstance(value, _NUMBERS):
        if col.is_bool:  # pandas' object column would mix bools with other objects
            raise unsupported(
                "fill_value", f"a {type(value).__name__} beside a bool column with missing rows"
            )
        if isinstance(value, str):
            raise ValueError(f"could not convert string to float: {value!r}")
    from ember.ops.object_missing import check_fill

    check_fill(col, value)  # missing objects beside the value: pandas' object column of mixed values
    if isinstance(col, StringColumn) and not isinstance(value, str):
        raise TypeError(f"Invalid value '{value}' for dtype 'str'")
    if isinstance(col, DatetimeColumn) and not isinstance(value, (datetime.datetime, np.datetime64)):
        raise TypeError(
            f"value should be a 'Timestamp', 'NaT', or array of those. Got '{type(value).__name__}' instead."
        )
    if isinstance(col, TimedeltaColumn) and not isinstance(value, (datetime.timedelta, np.timedelta64)):
        raise TypeError(
            f"value should be a 'Timedelta', 'NaT', or array of those. Got '{type(value).__name__}' instead."
        )
    return where(col, keep, value)


_NUMBERS = (bool, int, float, np.number, np.bool_)


def check_object_arithmetic(op: str, *cols: Column, method: str = "Series") -> None:
    """pandas computes with a bool column that alignment gave missing rows as Python objects
    (True + True is 2, an object column): refused for arithmetic."""
    from ember.frame._fallback import unsupported
    from ember.ops.binary import ARITH, REVERSED

    if REVERSED.get(op, op) in ARITH and any(is_object_bool(c) for c in cols):
        raise unsupported(
            method if "." in method else f"{method}.{op}",
            "a bool operand with missing rows (pandas computes it as an object column)",
        )


def logical_operands(left: Column, right: Column, op: str) -> tuple[Column, Column]:
    """``& | ^`` of Series on different labels: pandas aligns two NumPy bool columns as objects, takes
    the right one's missing values as False and gives False where the left one is missing; beside a masked boolean the NumPy bool column's missing values
    are True (NaN is truthy when pandas casts the objects to bool)."""
    from ember.frame._fallback import unsupported
    from ember.ops.missing import fillna

    floats = _float_logical_operands(left, right, op)
    if floats is not None:
        return floats
    lb, rb = is_object_bool(left), is_object_bool(right)
    if not (lb or rb):
        return left, right
    plain = [isinstance(c, NumericColumn) and c.is_bool and not c.nullable for c in (left, right)]
    if all(plain):  # right's missing values are False; a missing left value makes the row False
        return left, (fillna(right, False) if rb else right)
    if rb and type(left) is NumericColumn and not left.nullable and left.data.dtype.kind in "iu":
        return left, fillna(right, False)  # integers meet the right operand's missing values as False
    other = right if lb else left
    if isinstance(other, NumericColumn) and other.nullable and other.is_bool and not (lb and rb):
        # a masked boolean takes the object column as NumPy bools: NaN is True
        return (fillna(left, True) if lb else left), (fillna(right, True) if rb else right)
    if isinstance(other, NumericColumn) and other.nullable:
        raise unsupported(f"Series.{op}", "a bool Series on other labels beside a masked column")
    return left, right


def _float_logical_operands(left: Column, right: Column, op: str) -> tuple[Column, Column] | None:
    """``& | ^`` where pandas meets float values (a float column, or integers that alignment made
    float): it takes the right operand's missing values as False (as bools beside a NumPy bool left
    operand) and applies Python's operator to the rest, which fails on a float beside any value.
    Raises TypeError where a row pairs a float with a value; else the operands pandas' answer comes
    from (the left operand's truthiness, missing as False; a False right operand). None where no
    float is met. Synchronizes once when a float is met."""
    from ember.backend.arrays import to_host

    cols = (left, right)
    if not all(type(c) is NumericColumn and not c.nullable for c in cols):
        return None
    floaty = [c.data.dtype.kind == "f" or (c.data.dtype.kind in "iu" and c.mask is not None) for c in cols]
    left_bool = left.data.dtype.kind == "b" and left.mask is None
    if not (floaty[0] or (floaty[1] and not left_bool)):
        return None
    lvalid = ~left.isna()
    clash = lvalid if floaty[0] else lvalid & ~right.isna()
    if bool(to_host(clash.any())):

        def name(c: Column, f: bool) -> str:
            return "float" if f else ("bool" if c.data.dtype.kind == "b" else "int")

        from ember.ops.binary import REVERSED

        symbol = {"and_": "&", "or_": "|", "xor": "^"}.get(REVERSED.get(op, op), op)
        raise TypeError(
            f"unsupported operand type(s) for {symbol}: '{name(left, floaty[0])}' and '{name(right, floaty[1])}'"
        )
    xp = left.xp
    truth = lvalid & (left.data != 0)
    return NumericColumn(truth), NumericColumn(xp.zeros(len(left), dtype=bool))


def result_name(a: Any, b: Any) -> Any:
    """pandas' name of a binary result: the shared name, else None."""
    na, nb = a.name, getattr(b, "name", None)
    try:
        return na if na == nb or (na is nb) else None
    except (TypeError, ValueError):
        return None


def series_binary(left: Series, other: Any, op: str, fill_value: Any = None, flex: bool = False) -> Any:
    """``left <op> other`` for a Series: pandas' alignment of two Series on the union of their labels
    (comparison operators require the same labels; their flex methods align), ``fill_value`` where
    one side is missing (flex methods), lists and arrays by position, scalars broadcast."""
    from ember.frame._fallback import unsupported
    from ember.frame.series import Series
    from ember.ops.binary import CMP, LOGIC, REVERSED, binary_op, is_missing_scalar, numpy_int_division
    from ember.ops.binary_strings import none_rows, object_flex_op
    from ember.ops.missing import fillna

    if isinstance(other, pd.Series):
        other = Series(other)
    if getattr(other, "_ember_kind", None) == "frame":
        if flex:
            raise TypeError(f"Series.{op} does not support a DataFrame `other`. Use df.{op}(ser) instead.")
        return NotImplemented
    if isinstance(other, pd.DataFrame):
        raise unsupported(f"Series.{op}", "a pandas DataFrame operand")
    base = REVERSED.get(op, op)
    if isinstance(other, Series):
        if op in CMP and not flex and not indexes_equal(left.index, other.index):
            raise ValueError("Can only compare identically-labeled Series objects")
        index, lpos, rpos = join_labels(left.index, other.index)
        if base in LOGIC:
            left = left._wrap(own_bool_markers(left.column, other.column))
            other = other._wrap(own_bool_markers(other.column, left.column))
        if (
            lpos is not None
            and left.index.dtype != other.index.dtype
            and _is_identity(lpos, len(left))
            and not (len(other) and _range_union(left.index, other.index))
            and not (PANDAS_31 and _held_as_range(other.index))  # 3.1 joins a range: common type
            and _joined_in_place(left.index, other.index, rpos)
        ):
            index, lpos = left.index, None  # pandas keeps a Series' own labels when the join is them
        lmiss, rmiss = missing_flags(lpos, rpos)
        lcol, rcol = reindexed(left.column, lpos, lmiss), reindexed(other.column, rpos, rmiss)
        nones = (none_rows(left.column, lpos), none_rows(other.column, rpos)) if flex else (None, None)
        lcol = _aligned_strings(lcol, left.index, lpos, beside_empty=not len(other))
        rcol = _aligned_strings(rcol, other.index, rpos, beside_empty=not len(left))
        name = result_name(left, other)
    else:
        index, name, lcol = left.index, left.name, left.column
        if _is_scalar(other):
            if fill_value is not None:
                if is_missing_scalar(other) or (isinstance(other, float) and np.isnan(other)):
                    other = fill_value  # pandas: op(self, fill_value)
                else:
                    lcol = fillna(lcol, fill_value)
            return Series._from_column(binary_op(lcol, other, op), index, name)
        rcol = column_like(other, len(left), flex)
        if base in LOGIC:
            lcol, rcol = own_bool_markers(lcol, rcol), own_bool_markers(rcol, lcol)
        nones = (none_rows(lcol), none_rows(rcol)) if flex else (None, None)
    if base in LOGIC:
        lcol, rcol = logical_operands(lcol, rcol, op)
    else:
        if fill_value is not None:
            lcol, rcol = fill_pair(lcol, rcol, fill_value)
        if flex and isinstance(other, Series):  # pandas' Series._binop: NumPy's operator, no zero fill
            raw = numpy_int_division(lcol, rcol, op)
            if raw is not None:
                return Series._from_column(raw, index, name)
    check_object_arithmetic(op, lcol, rcol)
    if flex:  # pandas' Series._binop: Python's operator row by row on object data
        out = object_flex_op(lcol, rcol, op, *nones)
        if out is not None:
            return Series._from_column(out, index, name)
    return Series._from_column(binary_op(lcol, rcol, op), index, name)


def _held_as_range(index: Index) -> bool:
    """Whether pandas holds these labels as a RangeIndex (labels taken from one: where evenly
    spaced, a sync)."""
    if isinstance(index, RangeIndex):
        return True
    return isinstance(index, RangeTakenIndex) and index.as_range() is not None


def _joined_in_place(a: Index, b: Index, b_positions: Any) -> bool:
    """Whether pandas' join of labels of two dtypes (the left ones, ``a``, in the join's order) needs
    no indexer for the left side, which then keeps its own labels: the labels are equal, or both
    sides are increasing (one of them unique) and joined as sorted arrays; otherwise the union in the
    common dtype. A few syncs, only on this path."""
    if len(a) == len(b) and _is_identity(b_positions, len(b)):
        return True
    return _monotonic(a) and _monotonic(b) and (a.is_unique or b.is_unique)


def _aligned_strings(col: Column, index: Index, positions: Any, beside_empty: bool = False) -> Column:
    """A Series' object strings as pandas' alignment gives them: where it takes the rows anew (labels
    not the join's as they are, or a RangeIndex beside other labels) it builds a Series from the
    object array, which infers pandas' str dtype when a value is a str (missing values become NaN).
    Beside labels of no rows, labels kept in their order are the join's own (pandas' ``_join_empty``).
    Syncs once, only for object strings."""
    from ember.column import StringColumn
    from ember.column.dtypes import default_string_dtype

    if not isinstance(col, StringColumn) or col.pd_dtype != object or positions is None:
        return col
    if (beside_empty or not isinstance(index, RangeIndex)) and _is_identity(positions, len(index)):
        return col
    if col.mask is not None and not bool(col.mask.any()):
        return col  # no str to infer from: pandas keeps object
    if len(col) == 0:
        return col
    return StringColumn(col.data, col.chars, col.mask, default_string_dtype(), np.nan)


def _is_identity(positions: Any, n: int) -> bool:
    """Whether ``positions`` are 0 .. n-1 in order. One sync."""
    if len(positions) != n:
        return False
    from ember.backend.arrays import array_module

    return bool((positions == array_module(positions).arange(n)).all())


def _is_scalar(x: Any) -> bool:
    return (
        np.isscalar(x)
        or x is None
        or x is pd.NaT
        or x is pd.NA
        or isinstance(x, (pd.Timestamp, pd.Timedelta, datetime.date, datetime.timedelta))
        or (isinstance(x, np.ndarray) and x.ndim == 0)
    )


# --- frames ------------------------------------------------------------------------------------------


def union_labels(a: list, b: list) -> list:
    """pandas' outer join of two sets of unique column labels: ``a`` when equal, else the sorted union.
    Labels that do not sort together: where each side is sorted pandas merges them and, failing,
    keeps the order of appearance (left, then right's new labels); else its safe sort."""
    if len(a) == len(b) and all(x == y for x, y in zip(a, b)):
        return list(a)
    seen = set(a)
    union = list(a) + [k for k in b if k not in seen]
    try:
        return sorted(union)
    except TypeError:
        if _ascending(a) and _ascending(b):
            return union
        # pandas' safe sort: numbers, then strings, then missing labels
        nulls = [k for k in union if k is None or (isinstance(k, float) and np.isnan(k))]
        strs = [k for k in union if isinstance(k, str)]
        rest = [k for k in union if not isinstance(k, str) and k not in nulls]
        try:
            return sorted(rest) + sorted(strs) + nulls
        except TypeError:
            return union


def _ascending(labels: list) -> bool:
    """Whether labels are in ascending order (pandas' ``is_monotonic_increasing``: labels that do not
    compare, or NaN, are not)."""
    try:
        return all(x <= y for x, y in zip(labels, labels[1:]))
    except TypeError:
        return False


def _absent(n: int, xp: Any, logical: bool, like: Any = ()) -> Column:
    """The column pandas' alignment gives a label one side lacks: all NaN, float64 or, where the
    frame's own columns (``like``) have a NumPy float common type, that type (pandas' NA block: a
    float32 frame gives float32 NaN); for ``& | ^`` all missing (pandas' missing operands take False
    there)."""
    if logical:
        return NumericColumn(xp.zeros(n, dtype=bool), xp.zeros(n, dtype=bool))
    return NumericColumn(xp.full(n, np.nan, dtype=na_block_dtype(like)))


def na_block_dtype(columns: Any) -> np.dtype:
    """pandas' NA block: NaN of the columns' common NumPy float type (masked columns count as their
    NumPy type: Float32 beside float32 gives float32), else float64."""
    from pandas.core.dtypes.dtypes import BaseMaskedDtype

    dtypes = [c.dtype.numpy_dtype if isinstance(c.dtype, BaseMaskedDtype) else c.dtype for c in columns]
    if not dtypes or not all(isinstance(d, np.dtype) and d.kind in "iuf" for d in dtypes):
        return np.dtype(np.float64)  # bools, times, strings: pandas' float64 NaN
    common = np.result_type(*dtypes)
    return common if common.kind == "f" else np.dtype(np.float64)


def _pair_op(lcol: Column, rcol: Column, op: str, fill_value: Any, method: str) -> Column:
    """One aligned column pair: ``fill_value`` (or the logical operators' missing rule), then op."""
    from ember.ops.binary import LOGIC, REVERSED, binary_op

    if REVERSED.get(op, op) in LOGIC:
        lcol, rcol = logical_operands(lcol, rcol, op)
    elif fill_value is not None:
        lcol, rcol = fill_pair(lcol, rcol, fill_value)
    check_object_arithmetic(op, lcol, rcol, method=method)
    return binary_op(lcol, rcol, op)


def frame_frame(left: Any, right: Any, op: str, fill_value: Any = None, flex: bool = False) -> Any:
    """DataFrame <op> DataFrame: rows on the union of the indexes, columns on the union of the labels
    (pandas' ``align(join='outer')``), ``fill_value`` where one side is missing."""
    from ember.ops.binary import CMP, LOGIC, REVERSED

    same_rows = indexes_equal(left._index, right._index)
    right_names, right_columns = _with_nan_label_of(left._names, right._names, right._columns)
    names = union_labels(left._names, right_names)
    if op in CMP and not flex and not (same_rows and names == left._names and len(names) == len(right_names)):
        raise ValueError("Can only compare identically-labeled (both index and columns) DataFrame objects")
    index, lpos, rpos = join_labels(left._index, right._index)
    lmiss, rmiss = missing_flags(lpos, rpos)
    n, xp = len(index), current_xp()
    shared = [k for k in left._names if k in right_columns]
    # pandas computes only the shared columns (the others all NaN) when the column sets partly differ
    reindex_only = (
        fill_value is None
        and REVERSED.get(op, op) != "pow"
        and op not in CMP
        and 0 < len(shared)
        and not (len(shared) == len(left._names) == len(right_names))
    )
    logical = REVERSED.get(op, op) in LOGIC
    wanted = set(shared) if reindex_only else set(names)
    # each side's columns on the united rows: a label one side lacks is NaN of their NA block's type
    lsrc, rsrc = left._columns, right_columns
    if logical:  # object bool columns' own missing values, before alignment adds NaN rows
        lsrc = {k: own_bool_markers(c, rsrc[k]) if k in rsrc else c for k, c in lsrc.items()}
        rsrc = {k: own_bool_markers(c, lsrc[k]) if k in lsrc else c for k, c in rsrc.items()}
    lcols = {k: reindexed(c, lpos, lmiss) for k, c in lsrc.items() if k in wanted}
    rcols = {k: reindexed(c, rpos, rmiss) for k, c in rsrc.items() if k in wanted}
    out = {}
    for k in names:
        if k not in wanted:
            continue
        lc = lcols[k] if k in lcols else _absent(n, xp, logical, lcols.values())
        rc = rcols[k] if k in rcols else _absent(n, xp, logical, rcols.values())
        out[k] = _pair_op(lc, rc, op, fill_value, f"DataFrame.{op}")
    if reindex_only:  # pandas reindexes the shared columns' result: its NA block
        computed = list(out.values())
        out = {k: out[k] if k in out else _absent(n, xp, False, computed) for k in names}
    if names == left._names and right_names == left._names:  # the left frame's axis: names, type
        return left._with_rows(out, index)
    axis_names = joined_axis_names(left.columns, right.columns)
    # the united labels' type, as pandas' union: object beside str stays object, ints beside object
    # labels become object (an empty right side leaves the left's)
    kind = left.columns[:0].append(right.columns[:0])
    if names == left._names and (not right._names or kind.dtype == left.columns.dtype):
        return type(left)._from_columns(out, index, axis_names, left._kind_for(out))
    return type(left)._from_columns(out, index, axis_names, kind)


def _is_nan_label(k: Any) -> bool:
    return isinstance(k, (float, np.floating)) and k != k


def _with_nan_label_of(left_names: list, names: list, columns: dict) -> tuple[list, dict]:
    """The right side's labels and columns with a NaN label as the left side's own NaN object:
    pandas' alignment matches NaN labels with each other, Python's ``in`` only the same object."""
    left_nan = next((k for k in left_names if _is_nan_label(k)), None)
    if left_nan is None or sum(map(_is_nan_label, names)) != 1:
        return names, columns  # none to match, or several NaN labels (duplicates, refused later)
    same = [left_nan if _is_nan_label(k) else k for k in names]
    return same, {(left_nan if _is_nan_label(k) else k): c for k, c in columns.items()}


def joined_axis_names(left: pd.Index, right: pd.Index) -> tuple | None:
    """The column axis' name after pandas' outer join of two sets of column labels: the left one's,
    except where pandas joins them as ranges (a RangeIndex beside evenly spaced integers: the shared
    name, else None). The labels are few: pandas' own join on the host."""
    if isinstance(left, pd.MultiIndex) or isinstance(right, pd.MultiIndex):
        return None
    try:
        name = left.join(right, how="outer").name
    except (TypeError, ValueError):
        name = None
    return None if name is None else (name,)


def frame_series(frame: Any, s: Series, op: str, fill_value: Any, flex: bool, axis: int) -> Any:
    """DataFrame <op> Series: the Series' labels matched to the columns (``axis=1``: pandas unites
    them, the Series' value repeated down each column) or to the rows (``axis=0``)."""
    from ember.frame._fallback import unsupported
    from ember.ops.binary import CMP, LOGIC, REVERSED

    logical = REVERSED.get(op, op) in LOGIC
    method = f"DataFrame.{op}"
    if axis == 0:
        index, lpos, rpos = join_labels(frame._index, s.index)
        lmiss, rmiss = missing_flags(lpos, rpos)
        right = reindexed(s.column, rpos, rmiss)
        out = {
            k: _pair_op(reindexed(c, lpos, lmiss), right, op, fill_value, method)
            for k, c in frame._columns.items()
        }
        return frame._with_rows(out, index)
    labels = s.index.to_pandas()  # the Series holds one value per column: a small host copy
    if isinstance(s.index, MultiIndex) or not labels.is_unique:
        raise unsupported(method, "a Series with repeated or several levels of labels on the columns")
    if (
        op in CMP
        and not flex
        and not labels.equals(pd.Index(frame._names, dtype=labels.dtype if len(frame._names) == 0 else None))
    ):
        raise ValueError(
            "Operands are not aligned. Do `left, right = left.align(right, axis=1)` before operating."
        )
    names = union_labels(frame._names, list(labels))
    spos = labels.get_indexer(pd.Index(names, dtype=object))
    xp, n = current_xp(), len(frame._index)
    missing = bool((spos < 0).any())
    values = s.column.take_nullable(xp.asarray(spos)) if missing else s.column.take(xp.asarray(spos))
    if missing and is_object_bool(values) and not logical:
        raise unsupported(method, "a bool Series lacking a column's label (pandas computes with objects)")
    out = {}
    for j, k in enumerate(names):
        lc = frame._columns.get(k)
        lc = _absent(n, xp, logical) if lc is None else lc
        rc = values.take(xp.full(n, j, dtype=np.int64))
        out[k] = _pair_op(lc, rc, op, fill_value, method)
    if names == frame._names and list(labels) == frame._names:
        return frame._with_columns(out)
    axis_names = joined_axis_names(frame.columns, labels)
    if names == frame._names:
        return type(frame)._from_columns(out, frame._index, axis_names, frame._kind_for(out))
    return type(frame)._from_columns(out, frame._index, axis_names)
