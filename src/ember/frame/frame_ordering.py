"""DataFrame methods on the rows' uniqueness and order (duplicated, drop_duplicates, value_counts,
sort_values, rank, nlargest / nsmallest): a mixin of DataFrame, over ops.factorize and ops.sort."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ember.backend import xp as current_xp
from ember.column import Column, NumericColumn, is_numeric_column
from ember.frame._fallback import unsupported
from ember.frame.generic import require_axis0
from ember.frame.index import Index
from ember.frame.series import Series, _index_columns

if TYPE_CHECKING:
    from ember.frame.dataframe import DataFrame


class FrameOrdering:
    def duplicated(self, subset: Any = None, keep: Any = "first") -> Series:
        from ember.ops.factorize import duplicated

        names = (
            self._names
            if subset is None
            else self._select_labels([subset] if np.isscalar(subset) else list(subset))
        )
        if not names:  # pandas: a frame of no columns has no duplicate rows; subset=[] fails
            if subset is not None:
                raise ValueError("not enough values to unpack (expected 2, got 0)")
            return Series._from_column(NumericColumn(current_xp().zeros(len(self), dtype=bool)), self._index)
        return Series._from_column(
            NumericColumn(duplicated([self._columns[k] for k in names], keep=keep)), self._index
        )

    def drop_duplicates(
        self, subset: Any = None, keep: Any = "first", ignore_index: bool = False
    ) -> DataFrame:
        dup = self.duplicated(subset, keep).column.data
        if len(self) == 0 or not self._names:  # pandas returns the frame as it is (ignore_index too)
            return self._filter_rows(~dup, False)
        return self._filter_rows(~dup, ignore_index)

    def value_counts(
        self,
        subset: Any = None,
        normalize: bool = False,
        sort: bool = True,
        ascending: bool = False,
        dropna: bool = True,
    ) -> Series:
        from ember.frame.index import MultiIndex
        from ember.ops.factorize import value_counts

        # pandas: one label (a tuple too) or a list of them; a list (or all columns) makes a
        # MultiIndex even of one level, a single label a plain Index
        listed = subset is None or (pd.api.types.is_list_like(subset) and not isinstance(subset, tuple))
        names = list(self._names) if subset is None else list(subset) if listed else [subset]
        if not names:
            raise ValueError("No group keys passed!")
        levels = [n for n in self._index.names if n is not None]
        for k in names:
            if k not in self._columns:
                raise KeyError(k)
            if k in levels:
                raise ValueError(f"'{k}' is both an index level and a column label, which is ambiguous.")
        uniques, counts = value_counts(
            [self._columns[k] for k in names],
            sort=sort,
            ascending=ascending,
            dropna=dropna,
            normalize=normalize,
            frame=True,
        )
        uniques = [_grouped_strings(u, self._columns[k]) for u, k in zip(uniques, names)]
        if listed:
            keys = [self._columns[k] for k in names]
            index = MultiIndex(uniques, names, _appearance_levels(keys, uniques, dropna))
        else:
            index = Index._from_column(uniques[0], names[0])
        counts = counts if isinstance(counts, Column) else NumericColumn(counts)
        return Series._from_column(counts, index, "proportion" if normalize else "count")

    def sort_values(
        self,
        by: Any,
        ascending: Any = True,
        na_position: str = "last",
        ignore_index: bool = False,
        kind: str = "stable",
        axis: Any = 0,
        key: Any = None,
    ) -> DataFrame:
        from ember.ops.sort import argsort

        require_axis0("DataFrame.sort_values", axis)
        keys = [by] if not isinstance(by, list) else by
        levels = dict(zip(self._index.names, _index_columns(self._index)))  # pandas: by may name a level
        levels.pop(None, None)
        for k in keys:
            if k in self._columns and k in levels:
                raise ValueError(f"'{k}' is both an index level and a column label, which is ambiguous.")
        cols = [
            self._columns[k] if k in self._columns else levels[k] if k in levels else _raise_key(k)
            for k in keys
        ]
        if key is not None:
            cols = [keyed_column(c, k, key, "DataFrame.sort_values") for c, k in zip(cols, keys)]
        order = argsort(cols, ascending=ascending, na_position=na_position)
        return self._take_rows(order, ignore_index)

    def rank(
        self,
        method: str = "average",
        ascending: bool = True,
        na_option: str = "keep",
        pct: bool = False,
        numeric_only: bool = False,
    ) -> DataFrame:
        from ember.ops.sort import rank

        names = [k for k, c in self._columns.items() if not numeric_only or is_numeric_column(c)]
        args = (method, ascending, na_option, pct)
        return self._with_columns(
            {k: rank(self._columns[k], *args, masked=False, by_values=True) for k in names}
        )

    def nlargest(self, n: int, columns: Any, keep: str = "first") -> DataFrame:
        return self._select_n("nlargest", n, columns, keep)

    def nsmallest(self, n: int, columns: Any, keep: str = "first") -> DataFrame:
        return self._select_n("nsmallest", n, columns, keep)

    def _select_n(self, method: str, n: int, columns: Any, keep: str) -> DataFrame:
        """The ``n`` rows of the largest / smallest values: by one column as ``Series.nlargest``
        (``keep`` 'first', 'last' or 'all'); by several with their ties kept in row order."""
        from ember.ops.sort import nlargest_positions, nsmallest_positions

        # pandas: a list-like names several columns; a tuple or any other label (a Timestamp) one
        several = pd.api.types.is_list_like(columns) and not isinstance(columns, tuple)
        names = list(columns) if several else [columns]
        if not names:  # pandas: no column to order by selects no row
            return self._take_rows(current_xp().zeros(0, dtype=np.int64))
        if len(names) == 1:
            pick = nlargest_positions if method == "nlargest" else nsmallest_positions
            return self._take_rows(pick(self._columns[self._select_labels(names)[0]], n, keep))
        if keep != "first":
            raise unsupported(
                f"DataFrame.{method}", f"keep={keep!r} with several columns (supported: 'first')"
            )
        if any(bool(self._columns[k].isna().any()) for k in self._select_labels(names)):
            # pandas selects column by column and leaves missing values out: not a sort
            raise unsupported(f"DataFrame.{method}", "several columns holding missing values")
        return self.sort_values(names, ascending=method == "nsmallest").head(n)


def keyed_column(col: Column, name: Any, key: Any, method: str, index: Any = None) -> Column:
    """pandas' ensure_key_mapped: ``key`` applied to the values as a Series (on ``index``, else a
    RangeIndex, named as the column) gives the values to sort by, of the same length."""
    out = key(Series._from_column(col, index, name))
    if isinstance(out, Series):
        keyed = out.column
    elif isinstance(out, (pd.Series, pd.Index, np.ndarray)) or hasattr(out, "__cuda_array_interface__"):
        keyed = Series(out).column
    elif isinstance(out, Index):
        keyed = out.column
    else:
        raise unsupported(method, f"a key returning a {type(out).__name__} (a Series or array is taken)")
    if len(keyed) != len(col):
        raise ValueError("User-provided `key` function must not change the shape of the array.")
    return keyed


def _appearance_levels(keys: list, uniques: list, dropna: bool) -> list | None:
    """pandas' levels of ``DataFrame.value_counts(dropna=False)`` with a missing key among several: each key's
    distinct values in order of appearance, the missing one among them (its groupby runs unsorted),
    so that a missing key is a level value of its own. None otherwise (the levels from_arrays
    derives). A sync a key, and the distinct values to the host."""
    from ember.column import CategoricalColumn
    from ember.ops.factorize import factorize_keys

    if dropna or len(keys) == 1 or any(isinstance(u, CategoricalColumn) for u in uniques):
        return None  # one key: pandas codes its missing value -1 (a lookup gives NaN)
    if not any(u.has_nulls_possible and bool(u.isna().any()) for u in uniques):
        return None
    levels = []
    for key, u in zip(keys, uniques):
        _, found, _ = factorize_keys([key], sort=False, dropna=False)
        levels.append(pd.Index(_grouped_strings(found[0], key).to_pandas(), dtype=u.to_pandas().dtype))
    return levels


def _grouped_strings(unique: Column, source: Column) -> Column:
    """A key of an object column (strings, bools beside missing values) as pandas' groupby gives it:
    strings as str where a value is held, float64 NaN where none is, an empty object level where no
    group is left."""
    from ember.column import StringColumn
    from ember.ops.grouping import inferred_strings

    if source.dtype != object:
        return unique
    xp = unique.xp
    none_held = bool(source.isna().all())  # one sync
    if not len(unique) and (none_held or not isinstance(source, (StringColumn, NumericColumn))):
        # no group and no value: pandas' level is an empty object index
        return StringColumn(xp.zeros(1, dtype=np.int64), xp.zeros(0, dtype=np.uint8), None, np.dtype(object))
    if none_held:  # only missing values: pandas' key is float64 NaN
        return NumericColumn(xp.full(len(unique), np.nan, dtype=np.float64))
    if isinstance(source, NumericColumn) and source.is_bool:  # built anew: bools, or NaN beside them
        missing = bool(unique.isna().any()) if len(unique) else False
        return NumericColumn(unique.data, unique.mask, na=np.nan) if missing else NumericColumn(unique.data)
    return inferred_strings(unique) if isinstance(source, StringColumn) else unique


def _raise_key(k: Any) -> Any:
    raise KeyError(k)
