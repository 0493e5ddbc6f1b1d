"""Group-by aggregations of object columns pandas runs through its Python fallback: object strings
(an ember StringColumn of object dtype, possibly holding only missing values) and lists (``ListColumn``,
what ``.str.split`` gives). pandas answers some of these without looking at a value (every value
missing, or no group at all), raises for the others; ``object_aggregate`` gives its answer or its error.
``truth_values``: any / all of strings, timedeltas and categoricals by their values' truth.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ember.column import CategoricalColumn, Column, NumericColumn, StringColumn, TimedeltaColumn
from ember.column.list import ListColumn
from ember.ops.grouping import Grouping

#: pandas' Python fallback: the values as numbers (an error for strings, NaN for missing values)
_AS_FLOATS = ("std", "sem", "skew")
#: pandas' Python fallback per group, whose result keeps the object dtype
_AS_OBJECTS = ("mean", "median", "var")


def is_object_strings(col: Column) -> bool:
    return isinstance(col, StringColumn) and col.pd_dtype == np.dtype(object)


def object_aggregate(g: Grouping, col: Column, op: str, min_count: int = 0) -> Column | None:
    """pandas' result or error for ``op`` of an object column where it differs from the general
    path's; None where the general path answers (or raises) as pandas does."""
    if isinstance(col, ListColumn):
        return _list_aggregate(g, col, op, min_count)
    if is_object_strings(col) and op in _AS_FLOATS + _AS_OBJECTS + ("prod",):
        return _object_strings_stat(g, col, op)
    return None


def _object_strings_stat(g: Grouping, col: StringColumn, op: str) -> Column | None:
    """mean / median / var / std / sem / skew / prod of object strings, as pandas' Python fallback.
    std / sem / skew convert the whole column (rows of dropped keys too) to numbers: a string fails
    (ValueError), else NaN per group (float64 for std / sem, object for skew). The others run per
    group on a frame's values: a group holding a string raises (the general path's TypeError), one
    without gives NaN (prod: the integer 1, refused). A Series' raise for a string anywhere: the
    frame layer's check (``holds_string``). One sync."""
    xp = g.xp
    if op in _AS_FLOATS:
        first = first_string(col)
        if first is not None:
            raise ValueError(f"could not convert string to float: {first!r}")
        if op == "skew":
            from ember.column.convert import empty_object

            return empty_object(xp, g.ngroups)
        return NumericColumn(xp.full(g.ngroups, np.nan))
    kept = g.codes >= 0 if g.dropped else None
    if holds_string(col, kept):
        return None  # the general path's TypeError
    if op == "prod" and g.ngroups:
        raise NotImplementedError(
            "groupby prod of an object column without a value in its groups is not supported "
            "(pandas gives the integer 1 per group)"
        )
    from ember.column.convert import empty_object

    return empty_object(xp, g.ngroups)


def holds_string(col: StringColumn, rows: Any = None) -> bool:
    """Whether ``col`` holds a value (among ``rows``, a boolean mask, when given). One sync."""
    if len(col) == 0:
        return False
    valid = ~col.isna()
    if rows is not None:
        valid = valid & rows
    return bool(valid.any())


def first_string(col: StringColumn) -> str | None:
    """The column's first non-missing value, None without one. Two syncs."""
    valid = ~col.isna()
    if not len(col) or not bool(valid.any()):
        return None
    row = int(valid.argmax())
    return col.take(col.xp.asarray([row], dtype=np.int64)).to_pandas().iloc[0]


_LIST_ROWS = ("count", "size", "first", "last", "nth")


def _list_aggregate(g: Grouping, col: ListColumn, op: str, min_count: int) -> Column | None:
    """Lists: sum concatenates a group's lists (Python ``+``); count / size / first / last / nth take
    rows; pandas' errors for the arithmetic ones. The ones pandas answers by comparing or testing
    Python lists (min, max, any, all, idxmin, idxmax) are refused."""
    if op in _LIST_ROWS:
        return None
    if op == "sum":
        return _concat_lists(g, col, min_count)
    if op in _AS_OBJECTS + ("prod",):
        if g.ngroups == 0:
            from ember.column.convert import empty_object

            return empty_object(g.xp)
        raise TypeError(f"cannot compute the {op} of Python lists")
    if op in _AS_FLOATS:
        raise ValueError("setting an array element with a sequence.")
    if op == "nunique":
        raise TypeError("unhashable type: 'list'")
    if op == "quantile":
        raise TypeError("dtype 'object' does not support operation 'quantile'")
    raise NotImplementedError(
        f"groupby {op} of a column of lists is not supported (pandas compares Python lists); "
        "supported: sum, count, size, first, last, nth"
    )


def _concat_lists(g: Grouping, col: ListColumn, min_count: int) -> ListColumn:
    """Each group's lists joined in row order (missing lists skipped): the kept rows with a list,
    in group order, taken at once; a group's items are the sum of its lists' lengths. A group
    without a list is missing below ``min_count``; pandas' 0 for one at min_count=0 is refused.
    Three syncs."""
    from ember.ops.group_kernels import group_count, group_sum

    xp = g.xp
    valid = col.mask
    counts = group_count(g, valid)
    below = counts < max(min_count, 1)
    some_below = bool(below.any())
    if min_count == 0 and some_below:
        raise NotImplementedError(
            "groupby sum of a column of lists with a group holding no list is not supported "
            "(pandas gives the integer 0 there); pass min_count=1 for a missing value"
        )
    rows = g.order[: int(g.offsets[g.ngroups])]  # the kept rows, group by group, in row order
    if valid is not None:
        rows = rows[valid[rows]]
    offsets = xp.zeros(g.ngroups + 1, dtype=np.int64)
    xp.cumsum(group_sum(g, col.lengths(), valid), out=offsets[1:])
    return ListColumn(offsets, col.take(rows).values, ~below if some_below else None, None, col.as_arrays)


def truth_values(col: Column, op: str, skipna: bool) -> Column | None:
    """any / all of strings (non-empty is true), timedeltas (non-zero) and categoricals (their
    categories' truth): a column of True / False with ``col``'s missing values, which the numeric
    any / all skip as pandas does. None for other columns and ops."""
    if op not in ("any", "all") or not isinstance(col, (StringColumn, TimedeltaColumn, CategoricalColumn)):
        return None
    if not skipna:
        raise NotImplementedError(
            f"groupby {op} of {col.dtype} values with skipna=False is not supported (pandas tests "
            "the missing values' truth); use skipna=True"
        )
    xp = col.xp
    if isinstance(col, StringColumn):
        truth = (col.data[1:] - col.data[:-1]) > 0
    elif isinstance(col, TimedeltaColumn):
        truth = col.data != 0
    else:  # the categories' truth (host metadata), looked up by code
        table = np.array([bool(v) for v in col.categories.to_pandas()] + [False], dtype=bool)
        truth = xp.asarray(table)[col.codes.astype(np.int64)]  # (code -1: the last entry, missing)
    missing = col.isna() if col.has_nulls_possible else None
    return NumericColumn(truth, None if missing is None else ~missing, False)
