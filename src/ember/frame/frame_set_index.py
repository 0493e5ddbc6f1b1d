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

    def reset_index(self, drop: bool = False, inplace: bool = False, names: Any = None) -> DataFrame:
        cols: dict[Any, Column] = {}
        if not drop and isinstance(self.columns, pd.MultiIndex):
            from ember.frame._fallback import unsupported

            # pandas pads the levels' labels into tuples (col_level / col_fill)
            raise unsupported("reset_index", "moving index levels into MultiIndex columns")
        if not drop:
            level_cols = _index_columns(self._index)
            level_names = self._index.names
            for i, (c, n) in enumerate(zip(level_cols, level_names)):
                label = (
                    n
                    if n is not None
                    else (
                        "index"
                        if len(level_cols) == 1 and "index" not in self._columns
                        else (f"level_{i}" if len(level_cols) > 1 else "level_0")
                    )
                )
                if names is not None:
                    label = names[i] if isinstance(names, list) else names
                if label in self._columns or label in cols:
                    raise ValueError(f"cannot insert {label}, already exists")
                cols[label] = _level_values(c, len(level_cols) == 1)
        kind = self._kind
        if kind is not None:  # pandas inserts the levels' labels in front of its column axis
            axis = labels_index(self._names, kind)
            for label in reversed(list(cols)):
                axis = axis.insert(0, label)
            kind = axis_kind(axis)
        from ember.frame.dataframe import DataFrame

        cols.update(self._columns)
        out = DataFrame._from_columns(cols, RangeIndex(len(self)), self._axis_names, kind)
        if inplace:
            self._replace_with(out)
            return None
        return out


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
