"""DataFrame.set_index and reset_index (columns to and from the row index): a mixin of DataFrame."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ember.column import Column, NumericColumn
from ember.frame.frame_labels import axis_kind
from ember.frame.frame_reductions import labels_index
from ember.frame.index import Index, RangeIndex
from ember.frame.series import Series, _index_columns

if TYPE_CHECKING:
    from ember.frame.dataframe import DataFrame


class FrameSetIndex:
    def set_index(
        self, keys: Any, drop: bool = True, append: bool = False, inplace: bool = False
    ) -> DataFrame:
        from ember.frame.index import MultiIndex

        keys = [keys] if not isinstance(keys, list) else keys
        cols, names = [], []
        for k in keys:
            if isinstance(k, Series):
                cols.append(k.column)
                names.append(k.name)
            else:
                if k not in self._columns:
                    raise KeyError(f"None of [{k!r}] are in the columns")
                cols.append(self._columns[k])
                names.append(k)
        moved = [n for k, n in zip(keys, names) if not isinstance(k, Series)]  # columns made index
        if append:  # the current index's levels first
            cols, names = _index_columns(self._index) + cols, list(self._index.names) + names
        index = _as_range(cols[0], names[0]) if len(cols) == 1 else MultiIndex(cols, names)
        if index is None:
            index = Index._from_column(cols[0], names[0])
        from ember.frame.dataframe import DataFrame

        remaining = {k: c for k, c in self._columns.items() if not (drop and k in moved)}
        out = DataFrame._from_columns(remaining, index, self._axis_names, self._kind_for(remaining))
        if inplace:
            self._replace_with(out)
            return None
        return out

    def reset_index(
        self,
        level: Any = None,
        *,
        drop: bool = False,
        inplace: bool = False,
        col_level: Any = 0,
        col_fill: Any = "",
        allow_duplicates: bool = False,
        names: Any = None,
    ) -> DataFrame:
        """Index levels (all, or ``level``) moved into columns in front, as pandas; under MultiIndex
        columns a level's label is padded to a tuple at ``col_level`` with ``col_fill``."""
        from ember.frame.dataframe import DataFrame
        from ember.frame.index import MultiIndex

        index = self._index
        new_index, moved = RangeIndex(len(self)), list(range(index.nlevels))
        if level is not None:
            listed = level if isinstance(level, (tuple, list)) else [level]
            moved = [_level_number(index, lv) for lv in listed]
            if len(moved) < index.nlevels:
                new_index = index.droplevel(moved)
        cols: dict[Any, Column] = {}
        if not drop:
            level_cols = _index_columns(index)
            labels = _default_names(index, names, "index" if "index" not in self._columns else "level_0")
            for i in reversed(range(index.nlevels)):
                if i not in moved:
                    continue
                label, col_fill = self._column_label(labels[i], col_level, col_fill)
                if (label in self._columns or label in cols) and not allow_duplicates:
                    raise ValueError(f"cannot insert {label}, already exists")
                if label in self._columns or label in cols:
                    from ember.frame._fallback import unsupported

                    raise unsupported("reset_index", "duplicate column labels (allow_duplicates=True)")
                cols[label] = _level_values(level_cols[i], not isinstance(index, MultiIndex))
            cols = dict(reversed(list(cols.items())))
        kind = self._kind
        if kind is not None and cols:  # pandas inserts the levels' labels in front of its column axis
            axis = labels_index(self._names, kind)
            for label in reversed(list(cols)):
                axis = axis.insert(0, label)
            kind = axis_kind(axis)
        cols.update(self._columns)
        out = DataFrame._from_columns(cols, new_index, self._axis_names, kind)
        if inplace:
            self._replace_with(out)
            return None
        return out

    def _column_label(self, name: Any, col_level: Any, col_fill: Any) -> tuple:
        """A moved level's column label (under MultiIndex columns a tuple padded with ``col_fill``)
        and the fill for the next level: pandas keeps the first one ``col_fill=None`` chose."""
        columns = self.columns
        if not isinstance(columns, pd.MultiIndex):
            return name, col_fill
        parts = list(name) if isinstance(name, tuple) else [name]
        if col_fill is None:
            if len(parts) not in (1, columns.nlevels):
                raise ValueError(f"col_fill=None is incompatible with incomplete column name {name}")
            col_fill = parts[0]
        at = columns._get_level_number(col_level)
        padded = [col_fill] * at + parts
        return tuple(padded + [col_fill] * (columns.nlevels - len(padded))), col_fill


def _level_number(index: Any, level: Any) -> int:
    """pandas' ``Index._get_level_number`` (a MultiIndex's, or a flat index's own checks)."""
    from ember.frame.index import MultiIndex

    if isinstance(index, MultiIndex):
        return index._level_number(level)
    return pd.Index([], name=index.name)._get_level_number(level)


def _default_names(index: Any, names: Any, default: str) -> list:
    """pandas' ``Index._get_default_index_names``: the moved levels' column labels."""
    if names is not None and isinstance(names, (int, str)):
        names = [names]
    if names is not None and not isinstance(names, list):
        raise ValueError("Index names must be str or 1-dimensional list")
    if names:
        return names
    from ember.frame.index import MultiIndex

    if isinstance(index, MultiIndex):  # one level too: pandas names a MultiIndex's levels level_<i>
        return [f"level_{i}" if n is None else n for i, n in enumerate(index.names)]
    return [default if index.name is None else index.name]


def _level_values(col: Column, flat: bool) -> Column:
    """An index level as reset_index gives it back: pandas builds the column anew from the level's
    values, so an object level is typed as new values are (column.convert.infer_objects); a MultiIndex
    level's missing values come back as NaN (it fills them in from the codes)."""
    from ember.column.convert import infer_objects

    out = infer_objects(col, nan_float=flat)
    if not flat and out.dtype == object and out.mask is not None and getattr(out, "na", np.nan) is not np.nan:
        out = copy.copy(out)
        out.na = np.nan
    return out


def _as_range(col: Column, name: Any) -> Any:
    """pandas' ``maybe_sequence_to_range``: NumPy signed ints in steps of one nonzero difference (any
    two distinct values, or none) make a RangeIndex (int64). Synchronizes once."""
    from ember.backend import to_host
    from ember.frame.index import RangeIndex

    dt = col.dtype
    if not (
        isinstance(col, NumericColumn) and isinstance(dt, np.dtype) and dt.kind == "i" and col.mask is None
    ):
        return None
    n = len(col)
    if n == 0:
        return RangeIndex(0, 0, 1, name=name)
    if n == 1:
        return None
    xp = col.xp
    a = col.data.astype(np.int64)
    step = a[1] - a[0]
    first, diff, regular = to_host(xp.stack([a[0], step, ((a[1:] - a[:-1]) == step).all() & (step != 0)]))
    if not regular:
        return None
    return RangeIndex(int(first), int(first) + int(diff) * n, int(diff), name=name)
