"""Methods on the levels of a DataFrame's or Series' row / column labels: swaplevel, reorder_levels,
rename_axis, xs, drop by label or level.

Column labels live on the host (a pandas Index: ``DataFrame.columns``); row labels are an ember Index.
Lookups of the labels a user names in a MultiIndex (``xs``, ``drop`` with a level) run on the host with
pandas' own index, as ember's other MultiIndex label lookups do; the positions they give then select
the columns' data on their device.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.frame._fallback import with_fallback
from ember.frame.generic import check_axis

_NO_DEFAULT = pd.api.extensions.no_default


class _LevelsCommon:
    """What DataFrame and Series share: the row axis."""

    __slots__ = ()

    def _rows_at(self, positions: Any, index: Any) -> Any:
        """This object's rows at host ``positions`` (int64), labelled ``index``."""
        from ember.backend import asarray_on

        xp = _xp_of(self)
        out = self._take_positions(asarray_on(np.asarray(positions, dtype=np.int64), xp))
        out = out.set_axis(index, axis=0)
        return out

    def _take_positions(self, positions: Any) -> Any:
        return self.iloc[positions]

    def _drop_rows(self, labels: Any, level: Any, errors: str) -> Any:
        """Without the rows of ``labels`` (of ``level``), as pandas' drop: plain labels are found on
        the device; a MultiIndex or a level through pandas' drop of the index on the host."""
        from ember.frame.index import MultiIndex

        index = self.index
        if level is None and not isinstance(index, MultiIndex):
            from ember.frame.label_positions import drop_positions

            listed = [labels] if pd.api.types.is_scalar(labels) else list(labels)
            keep = _xp_of(self).ones(len(self), dtype=bool)
            keep[drop_positions(self, listed, errors)] = False
            return self._filter_rows(keep)
        host = pd.Series(np.arange(len(self), dtype=np.int64), index=index.to_pandas())
        kept = host.drop(index=labels, level=level, errors=errors)
        positions = kept.to_numpy()
        if isinstance(index, MultiIndex):
            from ember.backend import asarray_on

            new_index = index._rows_keeping_levels(asarray_on(positions, _xp_of(self)), kept.index.levels)
        else:
            new_index = kept.index
        return self._rows_at(positions, new_index)


class FrameLevels(_LevelsCommon):
    """DataFrame methods (mixed into DataFrame)."""

    __slots__ = ()

    def _with_column_axis(self, axis: pd.Index) -> Any:
        out = self._with_columns(dict(self._columns))
        out.columns = axis
        return out

    def _with_row_axis(self, index: Any) -> Any:
        return type(self)._from_columns(dict(self._columns), index, self._axis_names, self._kind)

    def _hierarchical_axis(self, axis: Any, method: str, what: str) -> tuple[int, Any]:
        from ember.frame.index import MultiIndex

        number = check_axis(f"DataFrame.{method}", axis)
        labels = self.index if number == 0 else self.columns
        if not isinstance(labels, (MultiIndex, pd.MultiIndex)):
            raise TypeError(f"Can only {what} levels on a hierarchical axis.")
        return number, labels

    def swaplevel(self, i: Any = -2, j: Any = -1, axis: Any = 0) -> Any:
        """Levels ``i`` and ``j`` of the row (or column) labels exchanged."""
        number, labels = self._hierarchical_axis(axis, "swaplevel", "swap")
        new = labels.swaplevel(i, j)
        return self._with_row_axis(new) if number == 0 else self._with_column_axis(new)

    def reorder_levels(self, order: Any, axis: Any = 0) -> Any:
        """The levels of the row (or column) labels in ``order`` (numbers or names)."""
        number, labels = self._hierarchical_axis(axis, "reorder_levels", "reorder")
        new = labels.reorder_levels(order)
        return self._with_row_axis(new) if number == 0 else self._with_column_axis(new)

    def rename_axis(
        self,
        mapper: Any = _NO_DEFAULT,
        *,
        index: Any = _NO_DEFAULT,
        columns: Any = _NO_DEFAULT,
        axis: Any = 0,
        copy: Any = _NO_DEFAULT,
        inplace: Any = _NO_DEFAULT,
    ) -> Any:
        """New names of the row (or column) axis: a name, a list of names, or (``index=`` /
        ``columns=``) a dict or function of the current names."""
        out = self
        if mapper is not _NO_DEFAULT:
            out = _set_axis_names(out, _names_only(mapper), check_axis("DataFrame.rename_axis", axis))
        else:
            for number, value in ((0, index), (1, columns)):
                if value is not _NO_DEFAULT:
                    out = _set_axis_names(out, _new_names(value, _axis_of(out, number).names), number)
        if out is self:
            out = self.copy(deep=False)
        if inplace is True:
            self._replace_with(out)
            return None
        return out

    def xs(self, key: Any, axis: Any = 0, level: Any = None, drop_level: bool = True) -> Any:
        """The rows (``axis=1``: columns) of ``key``, a label of the first levels (or of ``level``),
        without those levels unless ``drop_level=False``; one row gives a Series, as pandas."""
        number = check_axis("DataFrame.xs", axis)
        if number == 0:
            return _xs_rows(self, key, level, drop_level)
        labels = self.columns
        if level is not None:
            if not isinstance(labels, pd.MultiIndex):
                raise TypeError("Index must be a MultiIndex")
            loc, new = labels.get_loc_level(key, level=level, drop_level=drop_level)
            return self._columns_at(loc, new)
        if drop_level:
            return self[key] if not isinstance(labels, pd.MultiIndex) else self._multilevel_item(key)
        if isinstance(labels, pd.MultiIndex):
            loc, new = labels._get_loc_level(key, level=0)
            new = labels[loc : loc + 1] if isinstance(loc, (int, np.integer)) else labels[loc]
            return self._columns_at(loc, new)
        loc = labels.get_loc(key)
        if isinstance(loc, (int, np.integer)):
            loc = slice(loc, loc + 1)
        return self._columns_at(loc, labels[loc])

    def _multilevel_item(self, key: Any) -> Any:
        """``self[key]`` of MultiIndex columns, as pandas: the columns under a partial key without its
        levels, or one column as a Series. pandas selects on a one-row frame of column positions."""
        from ember.frame.series import Series

        positions = pd.DataFrame([np.arange(len(self._names))], columns=self.columns)[key]
        if isinstance(positions, pd.Series):
            column = self._columns[self._names[int(positions.iloc[0])]]
            return Series._from_column(column, self._index, positions.name)
        return self._columns_at(positions.iloc[0].to_numpy(), positions.columns)

    def _columns_at(self, loc: Any, new_labels: pd.Index) -> Any:
        """The columns ``loc`` (a slice, a boolean mask or a position) selects, relabelled."""
        names = list(self._names)
        picked = np.arange(len(names))[loc] if not isinstance(loc, (int, np.integer)) else [loc]
        out = self._with_columns({names[p]: self._columns[names[p]] for p in np.atleast_1d(picked)})
        return out._with_column_axis(new_labels)

    @with_fallback
    def drop(
        self,
        labels: Any = None,
        *,
        axis: Any = 0,
        index: Any = None,
        columns: Any = None,
        level: Any = None,
        inplace: bool = False,
        errors: str = "raise",
    ) -> Any:
        """Without the rows / columns of ``labels`` (of ``level`` in a MultiIndex), as pandas."""
        index, columns = _drop_targets(labels, axis, index, columns, "DataFrame", 2)
        out = self
        if columns is not None:
            host = pd.Series(np.arange(len(self._names), dtype=np.int64), index=self.columns)
            kept = host.drop(index=columns, level=level, errors=errors)
            out = out._columns_at(kept.to_numpy(), kept.index)
        if index is not None:
            out = out._drop_rows(index, level, errors)
        if inplace:
            self._replace_with(out)
            return None
        return out


class SeriesLevels(_LevelsCommon):
    """Series methods (mixed into Series)."""

    __slots__ = ()

    def swaplevel(self, i: Any = -2, j: Any = -1, copy: Any = _NO_DEFAULT) -> Any:
        from ember.frame.index import MultiIndex

        if not isinstance(self.index, MultiIndex):  # pandas asserts it
            raise AssertionError("Can only swap levels on a hierarchical axis.")
        return self.set_axis(self.index.swaplevel(i, j), axis=0)

    def reorder_levels(self, order: Any) -> Any:
        from ember.frame.index import MultiIndex

        if not isinstance(self.index, MultiIndex):
            raise Exception("Can only reorder levels on a hierarchical axis.")
        return self.set_axis(self.index.reorder_levels(order), axis=0)

    def rename_axis(
        self,
        mapper: Any = _NO_DEFAULT,
        *,
        index: Any = _NO_DEFAULT,
        axis: Any = 0,
        copy: Any = _NO_DEFAULT,
        inplace: Any = _NO_DEFAULT,
    ) -> Any:
        """New names of the row labels: a name, a list, or (``index=``) a dict or function."""
        if check_axis("Series.rename_axis", axis) != 0:
            raise ValueError(f"No axis named {axis} for object type Series")
        out = self
        if mapper is not _NO_DEFAULT:
            out = _set_axis_names(self, _names_only(mapper), 0)
        elif index is not _NO_DEFAULT:
            out = _set_axis_names(self, _new_names(index, self.index.names), 0)
        if out is self:
            out = self.set_axis(self.index, axis=0)
        if inplace is True:
            self._index = out.index
            return None
        return out

    def xs(self, key: Any, axis: Any = 0, level: Any = None, drop_level: bool = True) -> Any:
        if check_axis("Series.xs", axis) != 0:
            raise ValueError(f"No axis named {axis} for object type Series")
        return _xs_rows(self, key, level, drop_level)

    def drop(
        self,
        labels: Any = None,
        *,
        axis: Any = 0,
        index: Any = None,
        columns: Any = None,
        level: Any = None,
        inplace: bool = False,
        errors: str = "raise",
    ) -> Any:
        """Without the rows of ``labels`` (of ``level`` in a MultiIndex), as pandas."""
        if check_axis("Series.drop", axis) != 0:
            raise ValueError(f"No axis named {axis} for object type Series")
        index, _ = _drop_targets(labels, axis, index, columns, "Series", 1)
        out = self if index is None else self._drop_rows(index, level, errors)
        if inplace:
            self._index, self._column = out.index, out.column
            return None
        return out


# ---------------------------------------------------------------------------------- helpers


def _xp_of(obj: Any) -> Any:
    from ember.backend import xp as current_xp

    if getattr(obj, "_ember_kind", "") == "series":
        return obj.column.xp
    cols = list(obj._columns.values())
    return cols[0].xp if cols else current_xp()


def _drop_targets(labels: Any, axis: Any, index: Any, columns: Any, kind: str, ndim: int) -> tuple:
    """pandas' drop: ``labels`` on ``axis``, or ``index`` / ``columns`` (not both ways)."""
    if labels is not None:
        if index is not None or columns is not None:
            raise ValueError("Cannot specify both 'labels' and 'index'/'columns'")
        if check_axis(f"{kind}.drop", axis) == 1:
            return None, labels
        return labels, None
    if index is None and columns is None:
        raise ValueError("Need to specify at least one of 'labels', 'index' or 'columns'")
    return index, (columns if ndim == 2 else None)


def _names_only(mapper: Any) -> Any:
    """rename_axis' ``mapper``: names (a scalar or a list); a dict or function is ``rename``'s."""
    if pd.api.types.is_scalar(mapper) or (
        pd.api.types.is_list_like(mapper) and not pd.api.types.is_dict_like(mapper)
    ):
        return mapper
    raise ValueError("Use `.rename` to alter labels with a mapper.")


def _new_names(value: Any, current: list) -> Any:
    """``index=`` / ``columns=`` of rename_axis: names, or a dict / function of the current ones."""
    if pd.api.types.is_scalar(value) or (
        pd.api.types.is_list_like(value) and not pd.api.types.is_dict_like(value)
    ):
        return value
    if pd.api.types.is_dict_like(value):
        return [value[name] if name in value else name for name in current]
    return [value(name) for name in current]


def _axis_of(obj: Any, number: int) -> Any:
    return obj.index if number == 0 else obj.columns


def _set_axis_names(obj: Any, names: Any, number: int) -> Any:
    """``obj`` with its row (0) or column (1) axis named ``names``, checked as pandas' set_names."""
    from ember.frame.index import MultiIndex

    if number == 1:
        return obj._with_column_axis(obj.columns.set_names(names))
    index = obj.index
    if isinstance(index, MultiIndex):
        host = pd.MultiIndex.from_arrays([[]] * index.nlevels, names=index.names)
        return obj.set_axis(index.rename(list(host.set_names(names).names)), axis=0)
    return obj.set_axis(index.rename(pd.Index([], name=index.name).set_names(names).name), axis=0)


def _xs_rows(obj: Any, key: Any, level: Any, drop_level: bool) -> Any:
    """``xs`` along the rows, as pandas: a label of the first levels (a tuple of several), or of
    ``level``; a single row of a DataFrame is a Series (a Series': its value)."""
    from ember.frame.index import MultiIndex

    index = obj.index
    if level is not None:
        if not isinstance(index, MultiIndex):
            raise TypeError("Index must be a MultiIndex")
        loc, new = index.to_pandas().get_loc_level(key, level=level, drop_level=drop_level)
        return _rows_of(obj, loc, new)
    if isinstance(index, MultiIndex):
        host = index.to_pandas()
        loc, new = host._get_loc_level(key, level=0)
        if not drop_level:
            new = host[loc : loc + 1] if isinstance(loc, (int, np.integer)) else host[loc]
    else:
        loc = index.get_loc(key)
        if isinstance(loc, np.ndarray):
            return obj.iloc[np.flatnonzero(loc) if loc.dtype == np.bool_ else loc]
        new = None if isinstance(loc, (int, np.integer)) else index[loc]
    if isinstance(loc, (int, np.integer)):
        return obj.iloc[int(loc)]
    return _rows_of(obj, loc, new)


def _rows_of(obj: Any, loc: Any, new: Any) -> Any:
    """The rows ``loc`` selects (a slice, a boolean mask or a position), labelled ``new``."""
    positions = np.arange(len(obj))[loc]
    return obj._rows_at(np.atleast_1d(positions), new)
