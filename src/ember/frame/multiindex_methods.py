"""MultiIndex constructors and level methods (``from_arrays``, ``levels``, ``droplevel`` ...).

A MultiIndex holds one Column per level, the labels in row order; pandas' ``levels`` / ``codes`` are
derived from them on demand (so there are never unused levels). Constructors from ember data keep the
columns where they are; from Python data, pandas builds the labels and they move to the device once.
Methods that only rearrange labels (``sortlevel``, ``set_levels``, ``get_locs``) run on the host with
pandas: index metadata, not column data.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from pandas.api.typing import FrozenList

_NO_NAMES = object()  # pandas' no_default: the names of the arrays / iterables passed


class MultiIndexMethods:
    """Mixed into MultiIndex (frame/index.py): everything that needs levels as pandas sees them."""

    __slots__ = ()

    # ------------------------------------------------------------------ constructors

    @classmethod
    def from_arrays(cls, arrays: Any, sortorder: Any = None, names: Any = _NO_NAMES) -> Any:
        """One level per array (Series, Index, NumPy array or list), all of one length."""
        arrays = _listlike(arrays, "Input must be a list / sequence of array-likes.")
        if arrays and all(_ember_labels(a) is not None for a in arrays):
            columns = [_ember_labels(a) for a in arrays]
            if len({len(c) for c in columns}) > 1:
                raise ValueError("all arrays must be same length")
            if names is _NO_NAMES:
                names = [getattr(a, "name", None) for a in arrays]
            return _build(columns, _checked_names(names, len(columns)), sortorder)
        host = [_to_pandas(a) for a in arrays]
        kwargs = {} if names is _NO_NAMES else {"names": names}
        return _from_pandas(pd.MultiIndex.from_arrays(host, sortorder=sortorder, **kwargs))

    @classmethod
    def from_tuples(cls, tuples: Any, sortorder: Any = None, names: Any = None) -> Any:
        """One row per tuple, one level per tuple position."""
        if _ember_labels(tuples) is not None:
            tuples = _to_pandas(tuples)
        return _from_pandas(pd.MultiIndex.from_tuples(tuples, sortorder=sortorder, names=names))

    @classmethod
    def from_product(cls, iterables: Any, sortorder: Any = None, names: Any = _NO_NAMES) -> Any:
        """Every combination of the iterables' values, the first one varying slowest."""
        iterables = _listlike(iterables, "Input must be a list / sequence of iterables.")
        host = [_to_pandas(i) for i in iterables]
        kwargs = {} if names is _NO_NAMES else {"names": names}
        return _from_pandas(pd.MultiIndex.from_product(host, sortorder=sortorder, **kwargs))

    @classmethod
    def from_frame(cls, df: Any, sortorder: Any = None, names: Any = None) -> Any:
        """One level per column of a DataFrame, named after the columns unless ``names`` says."""
        if getattr(df, "_ember_kind", "") != "frame":
            if isinstance(df, pd.DataFrame):
                return _from_pandas(pd.MultiIndex.from_frame(df, sortorder=sortorder, names=names))
            raise TypeError("Input must be a DataFrame")
        labels, columns = list(df._columns), list(df._columns.values())  # an ember frame's labels are unique
        return _build(columns, _checked_names(labels if names is None else names, len(columns)), sortorder)

    # ------------------------------------------------------------------ pandas' view of the levels

    @property
    def levels(self) -> FrozenList:
        """Each level's distinct labels, sorted where they sort (pandas' factorization order)."""
        from ember.frame.index import index_from_pandas

        return FrozenList(index_from_pandas(level) for level in self.to_pandas().levels)

    @property
    def codes(self) -> FrozenList:
        """Each row's position in each level (-1 for a missing label), NumPy arrays on the host."""
        return self.to_pandas().codes

    @property
    def levshape(self) -> tuple:
        return self.to_pandas().levshape

    @property
    def dtypes(self) -> pd.Series:
        return self.to_pandas().dtypes

    def _level_number(self, level: Any) -> int:
        """A level's position from its name or number, with pandas' errors."""
        names = self.names
        if not isinstance(level, (int, np.integer)) or level in names:
            if names.count(level) > 1:
                raise ValueError(f"The name {level} occurs multiple times, use a level number")
            if level not in names:
                raise KeyError(f"Level {level} not found")
            return names.index(level)
        n = self.nlevels
        if level < 0:
            if level + n < 0:
                raise IndexError(
                    f"Too many levels: Index has only {n} levels, {level} is not a valid level number"
                )
            return int(level) + n
        if level >= n:
            raise IndexError(f"Too many levels: Index has only {n} levels, not {level + 1}")
        return int(level)

    def get_level_values(self, level: Any) -> Any:
        """The labels of one level, row by row, as an Index named after the level."""
        from ember.frame.index import Index

        k = self._level_number(level)
        return Index._from_column(self.levels_columns[k], self.names[k])

    def _with_levels(self, order: list[int]) -> Any:
        from ember.frame.index import Index

        if len(order) == 1:
            return Index._from_column(self.levels_columns[order[0]], self.names[order[0]])
        levels = None if self._levels is None else [self._levels[k] for k in order]
        return _build([self.levels_columns[k] for k in order], [self.names[k] for k in order], None, levels)

    def droplevel(self, level: Any = 0) -> Any:
        """Without the levels named; one level left gives a plain Index."""
        drop = {self._level_number(lv) for lv in (level if isinstance(level, (list, tuple)) else [level])}
        if len(drop) >= self.nlevels:
            raise ValueError(
                f"Cannot remove {len(drop)} levels from an index with {self.nlevels} levels: "
                "at least one level must be left."
            )
        return self._with_levels([k for k in range(self.nlevels) if k not in drop])

    def swaplevel(self, i: Any = -2, j: Any = -1) -> Any:
        order = list(range(self.nlevels))
        a, b = self._level_number(i), self._level_number(j)
        order[a], order[b] = order[b], order[a]
        return self._with_levels(order)

    def reorder_levels(self, order: Any) -> Any:
        positions = [self._level_number(lv) for lv in order]
        if len(positions) != self.nlevels:
            raise AssertionError(
                f"Length of order must be same as number of levels ({self.nlevels}), got {len(positions)}"
            )
        return self._with_levels(positions)

    def to_frame(self, index: bool = True, name: Any = _NO_NAMES, allow_duplicates: bool = False) -> Any:
        """One column per level, named after the levels (their numbers where unnamed)."""
        from ember.frame.dataframe import DataFrame
        from ember.frame.index import RangeIndex

        if name is _NO_NAMES:
            labels = [k if lv is None else lv for k, lv in enumerate(self.names)]
        else:
            if not pd.api.types.is_list_like(name):
                raise TypeError("'name' must be a list / sequence of column names.")
            labels = list(name)
            if len(labels) != self.nlevels:
                raise ValueError("'name' should have same length as number of levels on index.")
        if not allow_duplicates and len(set(labels)) != len(labels):
            raise ValueError("Cannot create duplicate column labels if allow_duplicates is False")
        if len(set(labels)) != len(labels):
            raise NotImplementedError("MultiIndex.to_frame: duplicate level names as column labels")
        return DataFrame._from_columns(
            dict(zip(labels, self.levels_columns)), self if index else RangeIndex(len(self))
        )

    def set_names(self, names: Any, *, level: Any = None, inplace: bool = False) -> Any:
        new = list(self.names)
        if level is None:
            if not pd.api.types.is_list_like(names) or len(names) != self.nlevels:
                raise ValueError("Length of names must match number of levels in MultiIndex.")
            new = list(names)
        else:
            levels = level if isinstance(level, (list, tuple)) else [level]
            values = names if pd.api.types.is_list_like(names) else [names]
            if len(values) != len(levels):
                raise ValueError("Names should be list-like for a MultiIndex")
            for lv, v in zip(levels, values):
                new[self._level_number(lv)] = v
        if inplace:
            self._names = new
            return None
        return self.rename(new)

    def remove_unused_levels(self) -> Any:
        return _build(self.levels_columns, self.names, None)  # levels derived from the labels

    # ------------------------------------------------------------------ label rearrangements on the host

    def sortlevel(
        self, level: Any = 0, ascending: Any = True, sort_remaining: bool = True, na_position: str = "first"
    ) -> tuple:
        result, indexer = self.to_pandas().sortlevel(level, ascending, sort_remaining, na_position)
        return _from_pandas(result), indexer

    def set_levels(self, levels: Any, *, level: Any = None, verify_integrity: bool = True) -> Any:
        return _from_pandas(
            self.to_pandas().set_levels(
                _to_pandas_levels(levels), level=level, verify_integrity=verify_integrity
            )
        )

    def set_codes(self, codes: Any, *, level: Any = None, verify_integrity: bool = True) -> Any:
        return _from_pandas(self.to_pandas().set_codes(codes, level=level, verify_integrity=verify_integrity))

    def get_locs(self, seq: Any) -> np.ndarray:
        return self.to_pandas().get_locs(seq)

    def get_loc_level(self, key: Any, level: Any = 0, drop_level: bool = True) -> tuple:
        loc, labels = self.to_pandas().get_loc_level(key, level=level, drop_level=drop_level)
        return loc, _from_pandas(labels)

    def truncate(self, before: Any = None, after: Any = None) -> Any:
        return _from_pandas(self.to_pandas().truncate(before, after))

    def to_flat_index(self) -> Any:
        return _from_pandas(self.to_pandas().to_flat_index())


def _build(columns: list, names: list, sortorder: Any, levels: list | None = None) -> Any:
    from ember.frame.index import MultiIndex

    if sortorder is not None:
        raise NotImplementedError("MultiIndex: sortorder= (pandas trusts it without checking)")
    return MultiIndex(columns, names, levels)


def _checked_names(names: Any, n: int) -> list:
    if names is None:
        return [None] * n
    if not pd.api.types.is_list_like(names):
        raise TypeError("Names should be list-like for a MultiIndex")
    names = list(names)
    if len(names) != n:
        raise ValueError(
            "Names should be list-like for a MultiIndex"
            if n == 0
            else "Length of names must match number of levels in MultiIndex."
        )
    return names


def _listlike(obj: Any, message: str) -> list:
    if not pd.api.types.is_list_like(obj) or isinstance(obj, dict):
        raise TypeError(message)
    return list(obj)


def _ember_labels(obj: Any) -> Any:
    """The Column of an ember Series or one-level Index, else None."""
    from ember.frame.index import Index, MultiIndex

    if getattr(obj, "_ember_kind", "") == "series":
        return obj.column
    if isinstance(obj, Index) and not isinstance(obj, MultiIndex):
        return obj.column
    return None


def _to_pandas(obj: Any) -> Any:
    return (
        obj.to_pandas() if hasattr(obj, "to_pandas") and not isinstance(obj, (pd.Index, pd.Series)) else obj
    )


def _to_pandas_levels(levels: Any) -> Any:
    if pd.api.types.is_list_like(levels) and not hasattr(levels, "to_pandas"):
        return [_to_pandas(lv) for lv in levels]
    return _to_pandas(levels)


def _from_pandas(obj: Any) -> Any:
    from ember.frame.index import index_from_pandas

    return index_from_pandas(obj) if isinstance(obj, pd.Index) else obj
