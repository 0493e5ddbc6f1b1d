"""Index alignment for binary operations: Series with Series, frames with frames."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ember.backend import xp as current_xp
from ember.column import Column, from_any
from ember.frame.index import Index, MultiIndex, RangeIndex

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
    return a.equals(b)


def align_indexes(a: Index, b: Index, how: str = "outer") -> tuple[Index, Any, Any]:
    """The joined index and, for each side, the positions (-1 = absent) of its rows in the result.

    pandas' rule: when the indexes differ, the result index is their union, sorted."""
    from ember.ops.join import join_indices

    if isinstance(a, MultiIndex) or isinstance(b, MultiIndex):
        from ember.frame._fallback import unsupported

        raise unsupported("alignment", "MultiIndex operands")
    left_pos, right_pos = join_indices([a.column], [b.column], how=how, sort=how == "outer")
    if how == "left":
        return a.take(left_pos), left_pos, right_pos
    if how == "right":
        return b.take(right_pos), left_pos, right_pos
    labels = coalesce_take(a.column, left_pos, b.column, right_pos)
    return Index._from_column(labels, a.name if a.name == b.name else None), left_pos, right_pos


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
    return where(first.take(xp.maximum(first_pos, 0)), has_first, second.take(xp.maximum(second_pos, 0)))


def align_series(left: Series, right: Series, how: str = "outer") -> tuple[Column, Column, Index]:
    """The two value columns on a common index (pandas' alignment), and that index."""
    if indexes_equal(left.index, right.index):
        return left.column, right.column, left.index
    index, lpos, rpos = align_indexes(left.index, right.index, how)
    return left.column.take_nullable(lpos), right.column.take_nullable(rpos), index


def column_like(values: Any, n: int) -> Column:
    """A column from a list/array operand, checked to have ``n`` rows (pandas raises ValueError)."""
    from ember.frame.series import Series

    if isinstance(values, Series):
        col = values.column
    else:
        col = from_any(values if not isinstance(values, (set, frozenset)) else list(values), current_xp())
    if len(col) != n:
        raise ValueError(f"Lengths must match to compare or combine: {n} vs {len(col)}")
    return col


def positions_array(positions: Any) -> Any:
    """Host or device integer positions as an int64 array of the current backend."""
    xp = current_xp()
    return xp.asarray(
        np.asarray(positions, dtype=np.int64) if isinstance(positions, (list, range)) else positions
    )
