"""Index labels. ``reindex``: rows (and a frame's columns) in the order of new labels; labels the
object does not have get missing values (an int column then reads as float64, as pandas), or
``fill_value``. Also the level work of ``droplevel`` and ``sort_index(level=)``.

The label lookup runs on the host (``Index.get_indexer``, pandas' hash table over the index labels);
the rows are gathered on the device. ``method`` / ``limit`` / ``tolerance`` (filling from
neighbouring labels) ask pandas' ``Index.reindex`` on the host for the positions too, so its rules hold
exactly (a monotonic index, the limit counted in positions, the tolerance); ``level`` is refused.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.frame._fallback import unsupported


def row_positions(obj: Any, labels: Any, method: str, fill: dict | None = None) -> tuple[Any, Any]:
    """(host positions of ``labels`` in ``obj``'s index, -1 where absent; the new Index). ``fill``
    holds the ``method`` / ``limit`` / ``tolerance`` of a fill from neighbouring labels."""
    from ember.frame.index import ensure_index

    index = obj.index
    if (
        not isinstance(labels, pd.Index) and not hasattr(labels, "to_pandas") and len(labels) == 0
    ):  # pandas: no labels keep the index' type
        new_index = index.take(np.zeros(0, dtype=np.int64))
    else:
        new_index = ensure_index(labels, None)
    if len(index) and not index.to_pandas().is_unique:
        raise ValueError("cannot reindex on an axis with duplicate labels")
    if fill:
        return filled_positions(index, new_index, fill), new_index
    positions = np.asarray(index.get_indexer(new_index.to_pandas()), dtype=np.int64)
    return positions, new_index


def filled_positions(index: Any, new_index: Any, fill: dict) -> np.ndarray:
    """Positions of pandas' ``Index.reindex(method=, limit=, tolerance=)``: each new label takes the
    previous / next / nearest existing one by position in the (monotonic) index; pandas raises for an
    unsorted index, a limit or tolerance without a method."""
    current = index.to_pandas()
    _, indexer = current.reindex(new_index.to_pandas(), **fill)
    if indexer is None:  # pandas: the same labels, no lookup
        return np.arange(len(current), dtype=np.int64)
    return np.asarray(indexer, dtype=np.int64)


def check_options(method: Any, level: Any, limit: Any, tolerance: Any, name: str) -> dict:
    """The fill options to pass on to ``row_positions`` (empty when there are none)."""
    if level is not None:
        raise unsupported(name, "level= (broadcasting over a MultiIndex level)")
    fill = {"method": method, "limit": limit, "tolerance": tolerance}
    return {k: v for k, v in fill.items() if v is not None}


def taken(column: Any, positions: np.ndarray, fill_value: Any) -> Any:
    """The column's rows at ``positions`` (-1: a missing value, or ``fill_value``)."""
    from ember.backend import asarray_on

    xp = column.xp
    at = asarray_on(positions, xp)
    absent = positions < 0
    if not absent.any():
        return column.take(at)
    from ember.column import NumericColumn

    numpy_data = type(column) is NumericColumn and not column.nullable
    if fill_value is pd.NA and numpy_data:
        raise unsupported("reindex", f"fill_value=pd.NA beside {column.dtype} data (pandas makes it object)")
    if fill_value is None or (pd.api.types.is_scalar(fill_value) and pd.isna(fill_value)):
        return column.take_nullable(at)
    if numpy_data and column.mask is None:
        # NumPy data: pandas' take promotes the dtype to hold fill_value (int8 with 300 is int32)
        from pandas.core.dtypes.cast import maybe_promote

        target, _ = maybe_promote(column.data.dtype, fill_value)
        if target == object:
            raise unsupported(
                "reindex", f"fill_value={fill_value!r} beside {column.dtype} data (pandas makes it object)"
            )
        fill = np.asarray(fill_value).astype(target)[()]
        if len(column) == 0:
            return NumericColumn(xp.full(len(positions), fill, dtype=target))
        base = column.take(xp.maximum(at, 0)).data.astype(target, copy=False)
        return NumericColumn(xp.where(asarray_on(absent, xp), fill, base))
    if len(column) == 0:  # every row is new
        from ember.ops.missing import fillna

        return fillna(column.take_nullable(at), fill_value)
    from ember.ops.missing import where

    # pandas' where rules: an int column filled with an int stays int64
    return where(column.take(xp.maximum(at, 0)), asarray_on(~absent, xp), fill_value)


def index_without_levels(index: Any, level: Any) -> Any:
    """``index.droplevel(level)``: the MultiIndex without the levels named (positions or names); one
    level left is a plain Index, as pandas."""
    from ember.frame.index import Index, MultiIndex

    if not isinstance(index, MultiIndex):
        raise ValueError(
            "Cannot remove 1 levels from an index with 1 levels: at least one level must be left."
        )
    names = list(index.names)
    wanted = level if isinstance(level, (list, tuple)) else [level]
    drop = set()
    for lev in wanted:
        if lev in names:
            drop.add(names.index(lev))
        elif isinstance(lev, (int, np.integer)) and -len(names) <= lev < len(names):
            drop.add(int(lev) % len(names))
        else:
            raise KeyError(f"Level {lev} not found")
    keep = [i for i in range(len(names)) if i not in drop]
    if not keep:
        raise ValueError(
            f"Cannot remove {len(drop)} levels from an index with {len(names)} levels: at least one level must be left."
        )
    columns = list(index.levels_columns)
    if len(keep) == 1:
        return Index._from_column(columns[keep[0]], names[keep[0]])
    return MultiIndex([columns[i] for i in keep], [names[i] for i in keep])


def pandas_levels_sort(index: Any, level: Any, ascending: Any, na_position: str, sort_remaining: bool) -> Any:
    """(row order, levels after the sort) of a MultiIndex holding pandas' levels (a missing key as
    a level value, unused labels): pandas sorts by the codes into them and sorts the levels too. Read
    from pandas on the host (the labels only)."""
    labels = index.to_pandas()
    rows = pd.Series(np.arange(len(labels), dtype=np.int64), index=labels).sort_index(
        level=level, ascending=ascending, na_position=na_position, sort_remaining=sort_remaining
    )
    return index.levels_columns[0].xp.asarray(rows.to_numpy()), list(rows.index.levels)


def index_sort_order(index: Any, level: Any, ascending: Any, na_position: str, sort_remaining: bool) -> Any:
    """Row order of ``sort_index``: by the index's levels ``level`` (positions or names; all by
    default), then, with ``sort_remaining``, the other levels ascending-or-not alike (pandas'
    sortlevel)."""
    from ember.frame.index import MultiIndex
    from ember.frame.series import _index_columns
    from ember.ops.sort import argsort

    if isinstance(index, MultiIndex) and index._levels is not None:
        return pandas_levels_sort(index, level, ascending, na_position, sort_remaining)[0]
    columns = _index_columns(index)
    if level is None:
        return argsort(columns, ascending=ascending, na_position=na_position)
    names = list(index.names)
    wanted = level if isinstance(level, (list, tuple)) else [level]
    positions = []
    for lev in wanted:
        if isinstance(lev, (int, np.integer)) and not (lev in names and not isinstance(lev, bool)):
            if not -len(columns) <= lev < len(columns):
                raise IndexError(f"Too many levels: Index has only {len(columns)} levels, not {lev + 1}")
            positions.append(int(lev) % len(columns))
        elif lev in names:
            positions.append(names.index(lev))
        else:
            raise KeyError(f"Level {lev} not found")
    orders = list(ascending) if isinstance(ascending, (list, tuple)) else [ascending] * len(positions)
    if len(orders) != len(positions):
        raise ValueError("level must have same length as ascending")
    if sort_remaining:
        rest = [i for i in range(len(columns)) if i not in positions]
        if rest and isinstance(ascending, (list, tuple)):
            from ember.frame._fallback import unsupported

            raise unsupported("sort_index", "a list of ascending with levels left to sort (sort_remaining)")
        positions += rest
        orders += [ascending] * len(rest)
    return argsort([columns[i] for i in positions], ascending=orders, na_position=na_position)
