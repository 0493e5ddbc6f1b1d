"""Joins of two flat indexes as pandas' ``Index.join`` (``merge(left_index=True, right_index=True)``
and ``DataFrame.join`` on the index): the rows of each side and the result index, the label dtypes
pandas joins them in, or its refusal."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.column import Column, NumericColumn
from ember.frame.index import Index, RangeIndex


def index_join(li: Index, ri: Index, how: str, sort: bool) -> tuple[Any, Any, Index]:
    """(left rows, right rows, result index) of ``merge(left_index=True, right_index=True)`` as
    pandas' ``Index.join``: tz-aware indexes of different zones join in UTC; an empty side gives
    the other side's labels (sorted for an outer join); indexes of different dtypes join in their
    common dtype, ignoring ``sort`` (left / right joins keep their side's labels and dtype); where
    that dtype is object, values of different kinds (strings, numbers, times) never match."""
    from ember.column import DatetimeColumn
    from ember.frame.alignment import join_beside_empty

    lcol, rcol = li.column, ri.column
    if isinstance(lcol, DatetimeColumn) and isinstance(rcol, DatetimeColumn):
        if (lcol.tz is None) != (rcol.tz is None):
            raise TypeError("Cannot join tz-naive with tz-aware DatetimeIndex")
        if lcol.tz is not None and str(lcol.tz) != str(rcol.tz):
            li = Index._from_column(DatetimeColumn(lcol.data, lcol.unit, "UTC", lcol.mask), li.name)
            ri = Index._from_column(DatetimeColumn(rcol.data, rcol.unit, "UTC", rcol.mask), ri.name)
    if _kind(li) == "u" and _kind(ri) == "i" and len(ri):  # pandas: non-negative ints as the uints
        ri = _ints_as_uints(li, ri)
    sort = sort or how == "outer"
    if len(li) == 0 or len(ri) == 0:
        as_range = isinstance(li, RangeIndex) and _increasing_arithmetic(ri)
        index, lpos, rpos = join_beside_empty(li, ri, how, sort, range_takes_ints=as_range)
        return lpos, rpos, index
    lpos, rpos, index = _join_nonempty(li, ri, how, sort)
    if how == "inner" and _range_intersection_reversed(li, ri, sort):
        back = index.column.xp.arange(len(lpos) - 1, -1, -1, dtype=np.int64)
        lpos, rpos, index = lpos[back], rpos[back], index.take(back)
    if how in ("inner", "outer") and _joins_as_ranges(li, ri):
        index = index.rename(li.name if li.name == ri.name or _same_labels(li, ri) else None)
    return lpos, rpos, index


def _join_nonempty(li: Index, ri: Index, how: str, sort: bool) -> tuple[Any, Any, Index]:
    if li.dtype != ri.dtype:
        return _join_other_dtypes(li, ri, how)
    lpos, rpos = _join_positions(li.column, ri.column, how, sort)
    if how == "right":
        return lpos, rpos, ri.take(rpos)
    if how == "outer":
        lmissing = bool((lpos < 0).any())
        index = _coalesced_index(li, ri, lpos, rpos) if lmissing else li.take(lpos)
        return lpos, rpos, index
    return lpos, rpos, li.take(lpos)


def _joins_as_ranges(li: Index, ri: Index) -> bool:
    """pandas' ``RangeIndex._join_monotonic``: an increasing RangeIndex joins integer labels that
    are an increasing arithmetic sequence through ``intersection`` / ``union``, whose result keeps a
    name only where both sides share it. Synchronizes once."""
    if not isinstance(li, RangeIndex) or li.name == ri.name or not li.is_monotonic_increasing:
        return False
    return _increasing_arithmetic(ri)


def _range_intersection_reversed(li: Index, ri: Index, sort: bool) -> bool:
    """Whether the inner join of two RangeIndexes (left order, or increasing with ``sort``) runs
    against pandas' ``RangeIndex.intersection``: increasing labels, decreasing where both ranges
    decrease."""
    if not (isinstance(li, RangeIndex) and isinstance(ri, RangeIndex)) or li.equals(ri):
        return False  # equal ranges: pandas returns the left one (sorted with ``sort``)
    decreasing = li.step < 0 and ri.step < 0
    return decreasing != (li.step < 0 and not sort)


def _increasing_arithmetic(ri: Index) -> bool:
    """Whether ``ri`` holds integers in an increasing arithmetic sequence (what pandas' RangeIndex
    joins as a range). Synchronizes once."""
    if not isinstance(ri.dtype, np.dtype) or ri.dtype.kind not in "iu" or ri.dtype == np.uint64:
        return False
    if isinstance(ri, RangeIndex):
        return ri.is_monotonic_increasing
    if len(ri) <= 1:
        return True
    steps = ri.column.xp.diff(ri.column.data.astype(np.int64))
    return bool(((steps > 0) & (steps == steps[0])).all())


def _same_labels(li: Index, ri: Index) -> bool:
    """``RangeIndex.equals``: the left side is returned as it is, name included."""
    return li.equals(ri)


def _join_positions(lkey: Column, rkey: Column, how: str, sort: bool) -> tuple[Any, Any]:
    """``join_indices`` of two index columns: missing times sort last in a sorted join of unique
    indexes (pandas' ``Index.union``), so times join as their ticks with the missing ones null; where
    an index repeats a label pandas factorizes the ticks (NaT first, as a merge on columns)."""
    from ember.column import DatetimeColumn, TimedeltaColumn
    from ember.ops.join import join_indices

    temporal = isinstance(lkey, (DatetimeColumn, TimedeltaColumn)) and type(lkey) is type(rkey)
    if temporal and lkey.unit == rkey.unit and (lkey.mask is not None or rkey.mask is not None):
        if _ticks_unique(lkey) and _ticks_unique(rkey):
            lkey, rkey = NumericColumn(lkey.data, lkey.mask), NumericColumn(rkey.data, rkey.mask)
    return join_indices([lkey], [rkey], how=how, sort=sort)


def _ticks_unique(col: Column) -> bool:
    """Whether no label repeats (NaT counts as one label). Synchronizes once."""
    xp = col.xp
    ticks = col.data if col.mask is None else xp.where(col.mask, col.data, np.iinfo(np.int64).min)
    return int(xp.unique(ticks).shape[0]) == len(col)


def _kind(index: Index) -> Any:
    return getattr(index.dtype, "kind", None)


def _ints_as_uints(li: Index, ri: Index) -> Index:
    """pandas' ``_maybe_downcast_for_indexing``: int labels none of which is negative join unsigned
    labels as the unsigned dtype. Synchronizes once."""
    from ember.ops.unary import astype

    col = ri.column
    if col.null_count():
        raise _refuse(li, ri, "holding missing labels")
    if not bool((col.data >= 0).all()):
        return ri
    return Index._from_column(astype(col, li.dtype), ri.name)


def _coalesced_index(li: Index, ri: Index, lpos: Any, rpos: Any) -> Index:
    from ember.frame.alignment import coalesce_take

    return Index._from_column(coalesce_take(li.column, lpos, ri.column, rpos), li.name)


def _common_dtype(li: Index, ri: Index) -> Any:
    """pandas' ``Index._find_common_type_compat`` of two non-empty indexes (read from pandas on
    one-label stand-ins: the rule depends on the dtypes, and on a categorical holding NaN)."""

    def stand_in(index: Index) -> pd.Index:
        col, dtype = index.column, index.dtype
        if isinstance(dtype, pd.CategoricalDtype):
            return pd.CategoricalIndex([None] if col.null_count() else [], dtype=dtype)
        if dtype == object:
            return pd.Index([True if _is_bool_like(col) else "a"], dtype=object)
        return pd.Index([], dtype=dtype)

    try:
        return stand_in(li)._find_common_type_compat(stand_in(ri))
    except (AttributeError, TypeError) as exc:  # pragma: no cover - a pandas without this helper
        raise _refuse(li, ri, "in this pandas version") from exc


def _is_bool_like(col: Column) -> bool:
    return isinstance(col, NumericColumn) and col.is_bool


def _refuse(li: Index, ri: Index, why: str) -> NotImplementedError:
    from ember.frame._fallback import unsupported

    return unsupported("join", f"indexes of dtypes {li.dtype} and {ri.dtype} {why}")


def _value_kind(col: Column) -> str | None:
    """What a label is once pandas makes both indexes object: numbers (bool is 0 / 1) compare with
    numbers only, strings with strings, times with times."""
    from ember.column import CategoricalColumn, DatetimeColumn, StringColumn, TimedeltaColumn

    if isinstance(col, CategoricalColumn):
        return _value_kind(col.categories)
    for cls, kind in ((NumericColumn, "number"), (StringColumn, "string")):
        if isinstance(col, cls):
            return kind
    if isinstance(col, DatetimeColumn):
        return f"datetime {col.tz}"
    return "timedelta" if isinstance(col, TimedeltaColumn) else None


def _join_other_dtypes(li: Index, ri: Index, how: str) -> tuple[Any, Any, Index]:
    """Indexes of different dtypes: pandas casts both to their common dtype and joins those without
    sorting (an outer join sorts); left / right joins keep their own side's labels."""
    from ember.ops.unary import astype

    common = _common_dtype(li, ri)
    if common != object:
        lkey, rkey = astype(li.column, common), astype(ri.column, common)
    else:
        lkey, rkey = _object_keys(li, ri, how)
        if lkey is None:  # no label of one side equals one of the other
            return _no_match(li, ri, how)
    lpos, rpos = _join_positions(lkey, rkey, how, how == "outer")
    if how == "left":
        return lpos, rpos, li.take(lpos)
    if how == "right":
        return lpos, rpos, ri.take(rpos)
    if common == object:
        lkey, rkey = _as_object(lkey, li, ri), _as_object(rkey, li, ri)
    if how == "inner":
        return lpos, rpos, Index._from_column(lkey, li.name).take(lpos)
    return (
        lpos,
        rpos,
        _coalesced_index(Index._from_column(lkey, li.name), Index._from_column(rkey), lpos, rpos),
    )


def _object_keys(li: Index, ri: Index, how: str) -> tuple[Any, Any]:
    """Keys that compare as pandas' object labels do, or (None, None) when no label can match."""
    from ember.column import CategoricalColumn, StringColumn
    from ember.ops.unary import astype

    lkind, rkind = _value_kind(li.column), _value_kind(ri.column)
    if lkind is None or rkind is None:
        raise _refuse(li, ri, "(pandas compares them as Python objects)")
    lnull, rnull = li.column.null_count(), ri.column.null_count()
    if lnull and rnull or (lkind == rkind and (lnull or rnull)):  # pandas: NaN, None, NA as objects
        raise _refuse(li, ri, "holding missing labels (pandas compares them as Python objects)")
    if lkind != rkind:
        return None, None
    lcol, rcol = (c.decode() if isinstance(c, CategoricalColumn) else c for c in (li.column, ri.column))
    if lkind == "string":
        return lcol, rcol
    if isinstance(lcol, StringColumn) or isinstance(rcol, StringColumn):  # pragma: no cover
        raise _refuse(li, ri, "(pandas compares them as Python objects)")
    kinds = {lcol.data.dtype.kind, rcol.data.dtype.kind}
    if "f" in kinds:
        target = np.dtype(np.float64)
    elif {"u", "i"} <= kinds:  # uint64 beside signed ints: equal where both fit in int64
        big = lcol if lcol.data.dtype.kind == "u" else rcol
        if len(big) and int(big.data.max()) > np.iinfo(np.int64).max:
            raise _refuse(li, ri, "holding labels above the int64 range")
        target = np.dtype(np.int64)
    else:
        target = np.dtype(np.uint64 if "u" in kinds else np.int64)
    return astype(lcol, target), astype(rcol, target)


def _as_object(key: Column, li: Index, ri: Index) -> Column:
    """An inner / outer join's labels in pandas' object Index: strings and bools only (ember holds
    no object column of other values)."""
    from ember.column import StringColumn

    if isinstance(key, StringColumn):
        return StringColumn(key.data, key.chars, key.mask, np.dtype(object), key.na)
    raise _refuse(li, ri, "(pandas' result is an object Index of numbers)")


def _no_match(li: Index, ri: Index, how: str) -> tuple[Any, Any, Index]:
    """A join where no label of one side equals one of the other."""
    from ember.backend import array_module
    from ember.column import StringColumn

    xp = array_module(li.column.data)
    if how in ("left", "right"):
        side = li if how == "left" else ri
        rows = xp.arange(len(side), dtype=np.int64)
        none = xp.full(len(side), -1, dtype=np.int64)
        return (rows, none, side) if how == "left" else (none, rows, side)
    if how == "outer":
        raise _refuse(li, ri, "(pandas' result is an object Index of mixed labels)")
    none = xp.zeros(0, dtype=np.int64)
    empty = StringColumn(xp.zeros(1, dtype=np.int64), xp.zeros(0, dtype=np.uint8), None, np.dtype(object))
    return none, none.copy(), Index._from_column(empty, li.name)
