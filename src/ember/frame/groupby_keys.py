"""GroupBy keys: what ``by`` / ``level`` name (columns, index levels, arrays, Series matched to the
labels), as the key columns the grouping factorizes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.column import Column, NumericColumn, from_any
from ember.frame._fallback import unsupported as _fallback_unsupported
from ember.frame.index import Index, MultiIndex


def unsupported(method: str, detail: str) -> Exception:
    """GroupBy calls have no pandas fallback (the groupby would need rebuilding in pandas)."""
    return _fallback_unsupported(method, detail, fallback=False)


def resolve_groupers(obj: Any, by: Any, level: Any, sort: bool, dropna: bool) -> tuple:
    """``pd.Grouper(key=...)`` / ``pd.Grouper(level=...)`` as the column / index level it names:
    alone, the Grouper's own ``sort`` / ``dropna`` apply (``sort=True`` orders the rows by the key
    first, missing keys first, as pandas); in a list, the groupby's. A Grouper with ``freq=`` in a
    list is a key of the rows' bin labels; alone, the
    GroupBy constructor answers it with ``resample_grouper.freq_groupby``. Returns ``(obj, by, level,
    sort, dropna)``."""
    items = by if isinstance(by, list) else [by]
    if not any(isinstance(g, pd.Grouper) for g in items):
        return obj, by, level, sort, dropna
    from ember.frame.resample_grouper import bin_label_key, is_freq_grouper

    for g in items:
        if isinstance(g, pd.Grouper) and not (isinstance(by, list) and is_freq_grouper(g)):
            _check_grouper(obj, g)
    if not isinstance(by, list):
        if by.key is not None:
            by, level = by.key, None
        else:
            by, level = None, by.level
        return _grouper_sorted(obj, by, level, items[0]), by, level, items[0].sort, items[0].dropna
    keys = []
    if sum(is_freq_grouper(g) for g in by) > 1:
        raise unsupported("groupby", "several Groupers with freq=")
    for g in by:
        if is_freq_grouper(g):
            if not sort:
                raise unsupported("groupby", "sort=False with a Grouper of freq= among several keys")
            keys.append(bin_label_key(obj, g))
        elif not isinstance(g, pd.Grouper):
            keys.append(g)
        elif g.sort:
            raise unsupported("groupby", "a Grouper with sort=True among several keys")
        elif g.key is not None:
            keys.append(g.key)
        else:
            keys.append(_level_key(obj, g.level))
    return obj, keys, level, sort, dropna


def _check_grouper(obj: Any, g: Any) -> None:
    if type(g) is not pd.Grouper or getattr(g, "freq", None) is not None:
        raise unsupported("groupby", "a Grouper with freq= (resample, or group by dt.floor of the dates)")
    if g.key is not None and g.level is not None:
        raise ValueError("The Grouper cannot specify both a key and a level!")
    if g.key is None and g.level is None:
        raise unsupported("groupby", "a Grouper without key= or level=")
    if g.key is not None:
        if getattr(obj, "_ember_kind", "") != "frame":
            raise unsupported("groupby", "a Grouper with key= of a Series (pass level=)")
        if not _hashable(g.key) or g.key not in obj._columns:
            raise KeyError(f"The grouper name {g.key} is not found")


def _level_key(obj: Any, level: Any) -> Any:
    """An index level named by a Grouper in a list, as a key of its values."""
    index = obj.index
    if isinstance(index, MultiIndex):
        pos = level if isinstance(level, int) else index.names.index(level)
        return Index._from_column(index.levels_columns[pos], index.names[pos])
    if not isinstance(level, int) and level != index.name:
        raise ValueError(f"level name {level} is not the name of the index")
    if isinstance(level, int) and level not in (0, -1):
        raise IndexError(f"Too many levels: Index has only 1 level, not {level + 1}")
    return Index._from_column(index.column, index.name)


def _grouper_sorted(obj: Any, by: Any, level: Any, g: Any) -> Any:
    """The rows ordered by the Grouper's key (stable, missing first) when it sorts, as pandas."""
    if not g.sort:
        return obj
    from ember.ops.sort import argsort

    key = resolve_keys(obj, by, level)[0][0]
    return obj._take_rows(argsort([key], na_position="first"))


def resolve_keys(obj: Any, by: Any, level: Any) -> tuple[list[Column], list[Any], list[bool]]:
    """Key columns, their names, and whether each is a column label of ``obj`` (pandas drops those
    from the values and, with as_index=False, puts them back as columns)."""
    from ember.frame.series import Series

    if level is not None:
        levels = [level] if not isinstance(level, list) else level
        index = obj.index
        if isinstance(index, MultiIndex):
            pos = [index.names.index(lv) if not isinstance(lv, int) else lv for lv in levels]
            return [index.levels_columns[p] for p in pos], [index.names[p] for p in pos], [False] * len(pos)
        return [index.column], [index.name], [False]
    if by is None:
        raise TypeError("You have to supply one of 'by' and 'level'")
    items = _key_items(obj, by)
    cols, names, labels = [], [], []
    for item in items:
        if callable(item) or isinstance(item, dict):
            raise unsupported(
                "groupby", "a function or dict of the index labels as key (pass the keys' values)"
            )
        if isinstance(item, pd.Series):
            item = Series(item)
        if isinstance(item, Index) and not isinstance(item, MultiIndex):
            item = Series._from_column(item.column, obj.index, item.name) if len(item) == len(obj) else item
        if isinstance(item, Series):
            column = item.column if len(item) == len(obj) else None
            if not _same_labels(item.index, obj.index):
                column = _aligned_key(obj, item)  # pandas: a Series key is matched to the labels
            if column is None:
                raise ValueError(f"Grouper and axis must be same length ({len(item)} vs {len(obj)})")
            cols.append(column)
            names.append(item.name)
            labels.append(getattr(obj, "_columns", {}).get(item.name) is item.column)
        elif getattr(obj, "_ember_kind", "") == "frame" and _hashable(item) and item in obj._columns:
            if item is not None and item in obj.index.names:
                raise ValueError(f"{item!r} is both an index level and a column label, which is ambiguous.")
            cols.append(obj._columns[item])
            names.append(item)
            labels.append(True)
        elif _hashable(item) and item is not None and item in obj.index.names:  # an index level's name
            index = obj.index
            position = index.names.index(item)
            cols.append(index.levels_columns[position] if isinstance(index, MultiIndex) else index.column)
            names.append(item)
            labels.append(False)
        elif isinstance(item, (np.ndarray, list, pd.Index)) or hasattr(item, "__cuda_array_interface__"):
            try:
                col = from_any(
                    item, obj.column.xp if hasattr(obj, "_column") else next(iter(obj._columns.values())).xp
                )
            except TypeError as exc:
                raise unsupported(
                    "groupby", f"a key of mixed types (pandas groups Python objects): {exc}"
                ) from None
            if len(col) != len(obj):
                raise ValueError(f"Grouper and axis must be same length ({len(col)} vs {len(obj)})")
            cols.append(col)
            names.append(getattr(item, "name", None))
            labels.append(False)
        else:
            raise KeyError(item)
    return [_factorized_marker(c) for c in cols], names, labels


def _factorized_marker(col: Column) -> Column:
    """pandas labels the missing key of a decimal (object) column NaN, whatever the column held."""
    from ember.column.decimal import DecimalColumn

    return col.with_na(np.nan) if isinstance(col, DecimalColumn) else col


def _key_items(obj: Any, by: Any) -> list:
    """pandas' reading of ``by``: a list as long as the rows whose items are not all column labels
    (or index names), and holds no arrays, is one key of values; any other list is several keys."""
    if not isinstance(by, list):
        return [by]
    if len(by) != len(obj) or any(
        callable(g)
        or isinstance(g, (dict, list, tuple, np.ndarray, pd.Series, pd.Index, Index))
        or hasattr(g, "_column")
        for g in by
    ):
        return by
    names = set(n for n in obj.index.names if n is not None)
    columns = getattr(obj, "_columns", {})
    if all(_hashable(g) and (g in columns or g in names) for g in by):
        return by
    return [np.asarray(by) if len({type(g) for g in by}) == 1 else by]


def _same_labels(a: Index, b: Index) -> bool:
    from ember.frame.alignment import indexes_equal

    return len(a) == len(b) and indexes_equal(a, b)


def _aligned_key(obj: Any, key: Any) -> Column | None:
    """A Series key's values on ``obj``'s labels (missing where the key lacks one), None when the
    key's repeated labels would not give one value per row."""
    from ember.frame.alignment import align_series
    from ember.frame.series import Series

    rows = Series._from_column(NumericColumn(key.column.xp.zeros(len(obj), dtype=np.int8)), obj.index)
    _, column, index = align_series(rows, key, how="left")
    return column if len(index) == len(obj) else None


def _hashable(x: Any) -> bool:
    try:
        hash(x)
    except TypeError:
        return False
    return True
