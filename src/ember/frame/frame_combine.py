"""Methods that combine a DataFrame or Series with another one or pick from it by position of valid
values: update, combine, combine_first, compare, align, first / last_valid_index, get, truncate,
squeeze."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.frame._fallback import unsupported


class _Shared:
    """Methods written once for Series and DataFrame."""

    __slots__ = ()

    def first_valid_index(self) -> Any:
        """The label of the first row holding a value (a frame: any column), None when there is none."""
        return _valid_label(self, first=True)

    def last_valid_index(self) -> Any:
        return _valid_label(self, first=False)

    def get(self, key: Any, default: Any = None) -> Any:
        """``self[key]``, or ``default`` where the key is absent (pandas' KeyError / ValueError /
        IndexError)."""
        try:
            return self[key]
        except (KeyError, ValueError, IndexError):
            return default

    def truncate(self, before: Any = None, after: Any = None, axis: Any = None, copy: Any = None) -> Any:
        """The rows (or a frame's columns) between two labels, both kept, of a sorted axis."""
        from ember.frame.generic import check_axis
        from ember.frame.index import MultiIndex

        name = type(self).__name__
        if check_axis(f"{name}.truncate", axis) == 1:
            if name == "Series":
                raise ValueError("No axis named 1 for object type Series")
            return self[_truncated_labels(pd.Index(self._names), before, after)]
        index = self._index
        if isinstance(index, MultiIndex):
            raise unsupported(f"{name}.truncate", "a MultiIndex")
        if not index.is_monotonic_increasing and not index.is_monotonic_decreasing:
            raise ValueError("truncate requires a sorted index")
        if index.dtype.kind == "M":  # pandas: dates given as strings or Timestamps
            before = None if before is None else pd.Timestamp(before)
            after = None if after is None else pd.Timestamp(after)
        if before is not None and after is not None and before > after:
            raise ValueError(f"Truncate: {after} must be after {before}")
        if len(index) > 1 and index.is_monotonic_decreasing and not index.is_monotonic_increasing:
            before, after = after, before
        return self.loc[before:after]


def _truncated_labels(labels: pd.Index, before: Any, after: Any) -> list:
    """Column labels between two labels (host metadata: pandas' own truncate of the label axis)."""
    kept = pd.Series(np.arange(len(labels)), index=labels).truncate(before, after)
    return list(kept.index)


def _valid_label(obj: Any, first: bool) -> Any:
    """pandas' first / last_valid_index: one sync for the position, one label to the host."""
    from ember.backend import to_host

    if getattr(obj, "_ember_kind", "") == "frame":
        if not obj._names or len(obj) == 0:
            return None
        valid = None
        for c in obj._columns.values():
            ok = ~c.isna()
            valid = ok if valid is None else valid | ok
    else:
        if len(obj) == 0:
            return None
        valid = ~obj.column.isna()
    positions = to_host(valid.nonzero()[0])
    if len(positions) == 0:
        return None
    return obj.index[int(positions[0] if first else positions[-1])]


class FrameCombine(_Shared):
    """DataFrame methods (mixed into DataFrame)."""

    __slots__ = ()

    def squeeze(self, axis: Any = None) -> Any:
        """A frame of one column as a Series, of one row as a Series of that row, of one value as the
        value; other shapes as they are."""
        from ember.frame.generic import check_axis

        axes = (0, 1) if axis is None else (check_axis("DataFrame.squeeze", axis),)
        out = self
        if 1 in axes and len(self._names) == 1:
            out = self.iloc[:, 0]
            if 0 in axes and len(out) == 1:
                return out.iloc[0]
            return out
        if 0 in axes and len(self) == 1:
            return self.iloc[0]
        return out

    def update(
        self,
        other: Any,
        join: str = "left",
        overwrite: bool = True,
        filter_func: Any = None,
        errors: str = "ignore",
    ) -> None:
        """In place: the values of ``other`` (aligned to these rows) where it holds one; each column
        keeps its dtype where the new values fit it, as pandas' ``loc`` setting."""
        from ember.frame.dataframe import DataFrame

        if join != "left":
            raise NotImplementedError("Only left join is supported")
        if errors not in ("ignore", "raise"):
            raise ValueError("The parameter errors must be either 'ignore' or 'raise'")
        if not isinstance(other, DataFrame):
            other = DataFrame(other)
        other = other.reindex(self._index)
        for col in pd.Index(self._names).intersection(pd.Index(other._names)):
            this, that = self[col], other[col]
            if filter_func is not None:
                keep = ~_filtered(filter_func, this) | that.isna()
            else:
                if errors == "raise" and bool((this.notna() & that.notna()).any()):
                    raise ValueError("Data overlaps.")
                keep = that.isna() if overwrite else this.notna()
            if bool(keep.all()):
                continue
            self.loc[:, col] = this.where(keep, that)

    def align(
        self,
        other: Any,
        join: str = "outer",
        axis: Any = None,
        level: Any = None,
        copy: Any = None,
        fill_value: Any = None,
    ) -> tuple:
        """Both objects on the union (``join``) of their labels: rows (axis 0), columns (axis 1) or
        both (None); missing values (or ``fill_value``) where a side lacks a label."""
        return _align(self, other, join, axis, level, fill_value)

    def combine_first(self, other: Any) -> Any:
        """This frame's values, other's where this one is missing, on the union of both frames'
        rows and columns."""
        from ember.frame.dataframe import DataFrame

        if not isinstance(other, DataFrame):
            raise unsupported("DataFrame.combine_first", f"a {type(other).__name__} (a DataFrame is taken)")
        if len(other) == 0:
            raise unsupported("DataFrame.combine_first", "an empty other frame")

        def first(x: Any, y: Any) -> Any:
            return y if y.name not in self._columns else y.where(x.isna(), x)

        combined = self.combine(other, first, overwrite=False)
        common = pd.Index(self._names).intersection(pd.Index(other._names))
        dtypes = {}
        for col in common:
            if combined[col].dtype != self[col].dtype:
                dtypes[col] = _common_type(self[col].dtype, other[col].dtype)
        return combined.astype(dtypes) if dtypes else combined

    def combine(self, other: Any, func: Any, fill_value: Any = None, overwrite: bool = True) -> Any:
        """``func(column, other_column)`` for each column of the union of both frames (aligned
        first); ``func`` takes two ember Series and returns one (it runs once per column, on whole
        columns, as in pandas)."""
        from ember.frame.dataframe import DataFrame

        if not isinstance(other, DataFrame):
            raise unsupported("DataFrame.combine", f"a {type(other).__name__} (a DataFrame is taken)")
        this, that = _align(self, other, "outer", None, None, None)
        if len(other) == 0 and len(this) == len(self):
            return self.copy()
        if len(self) == 0 and len(that) == len(other):
            return other.copy()
        labels = pd.Index(self._names).union(pd.Index(other._names), sort=False)
        this, that = this.reindex(columns=labels), that.reindex(columns=labels)
        result = {}
        for col in labels:
            left, right = this[col], that[col]
            if not overwrite and bool(right.isna().all()):
                result[col] = left
                continue
            if fill_value is not None:
                left, right = left.fillna(fill_value), right.fillna(fill_value)
            if col not in self._columns:
                new_dtype = right.dtype
                try:
                    left = left.astype(new_dtype)
                except ValueError:
                    pass
            else:
                new_dtype = _common_type(left.dtype, right.dtype)
                left, right = left.astype(new_dtype), right.astype(new_dtype)
            result[col] = _downcast(_called(func, left, right, "DataFrame.combine"), new_dtype)
        cols = {k: v.column if hasattr(v, "column") else _as_column(v, len(this)) for k, v in result.items()}
        return DataFrame._from_columns(cols, this._index)

    def compare(
        self,
        other: Any,
        align_axis: Any = 1,
        keep_shape: bool = False,
        keep_equal: bool = False,
        result_names: tuple = ("self", "other"),
    ) -> Any:
        """The values that differ, side by side (pandas' compare of identically-labeled frames)."""
        from ember.frame.dataframe import DataFrame

        if not isinstance(other, DataFrame):
            raise TypeError("Can only compare identically-labeled (both index and columns) DataFrame objects")
        if list(self._names) != list(other._names) or not self._index.equals(other._index):
            raise ValueError(
                "Can only compare identically-labeled (both index and columns) DataFrame objects"
            )
        return _compare(self, other, align_axis, keep_shape, keep_equal, result_names)


class SeriesCombine(_Shared):
    """Series methods (mixed into Series)."""

    __slots__ = ()

    def squeeze(self, axis: Any = None) -> Any:
        """The one value of a Series of length 1, else the Series."""
        from ember.frame.generic import check_axis

        if axis is not None and check_axis("Series.squeeze", axis) != 0:
            raise ValueError(f"No axis named {axis} for object type Series")
        return self.iloc[0] if len(self) == 1 else self

    def update(self, other: Any) -> None:
        """In place: ``other``'s values (aligned to these labels) where it holds one; the dtype
        stays where they fit it, as pandas' ``loc`` setting."""
        from ember.frame.series import Series

        if not isinstance(other, Series):
            other = Series(other)
        other = other.reindex(self._index)
        keep = other.isna()
        if bool(keep.all()):
            return None
        self.loc[:] = self.where(keep, other)
        return None

    def align(
        self,
        other: Any,
        join: str = "outer",
        axis: Any = None,
        level: Any = None,
        copy: Any = None,
        fill_value: Any = None,
    ) -> tuple:
        return _align(self, other, join, axis, level, fill_value)

    def compare(
        self,
        other: Any,
        align_axis: Any = 1,
        keep_shape: bool = False,
        keep_equal: bool = False,
        result_names: tuple = ("self", "other"),
    ) -> Any:
        from ember.frame.series import Series

        if not isinstance(other, Series):
            raise TypeError("other must be a Series")
        if not self._index.equals(other._index):
            raise ValueError("Can only compare identically-labeled Series objects")
        return _compare(self, other, align_axis, keep_shape, keep_equal, result_names)


# --- align --------------------------------------------------------------------------------------
def _align(obj: Any, other: Any, join: str, axis: Any, level: Any, fill_value: Any) -> tuple:
    from ember.frame.alignment import join_labels
    from ember.frame.generic import check_axis

    method = f"{type(obj).__name__}.align"
    if level is not None:
        raise unsupported(method, "level=")
    if join not in ("outer", "inner", "left", "right"):
        raise ValueError(f"do not recognize join method {join}")
    frame = getattr(obj, "_ember_kind", "") == "frame"
    other_frame = getattr(other, "_ember_kind", "") == "frame"
    if getattr(other, "_ember_kind", "") not in ("frame", "series"):
        raise unsupported(method, f"a {type(other).__name__} other (an ember DataFrame or Series is taken)")
    if frame != other_frame:
        raise unsupported(method, "a DataFrame beside a Series")
    ax = None if axis is None else check_axis(method, axis)
    if not frame and ax == 1:
        raise ValueError("No axis named 1 for object type Series")
    left, right = obj, other
    if ax in (None, 0):
        index, lpos, rpos = join_labels(obj._index, other._index, join)
        left, right = _rows_at(obj, index, lpos, fill_value), _rows_at(other, index, rpos, fill_value)
    if frame and ax in (None, 1):
        labels = _joined_labels(pd.Index(obj._names), pd.Index(other._names), join)
        left = left.reindex(columns=labels, fill_value=fill_value)
        right = right.reindex(columns=labels, fill_value=fill_value)
    return left, right


def _joined_labels(a: pd.Index, b: pd.Index, join: str) -> pd.Index:
    """The column labels of pandas' align (host metadata): as they are where equal, else the join."""
    if a.equals(b):
        return a
    if join == "left":
        return a
    if join == "right":
        return b
    return a.join(b, how=join)


def _rows_at(obj: Any, index: Any, positions: Any, fill_value: Any) -> Any:
    """``obj``'s rows at ``positions`` of the aligned ``index`` (-1: missing, or fill_value)."""
    from ember.backend import to_host
    from ember.frame.reindex import taken

    if positions is None:
        if index is obj._index:
            return obj.copy()
        return obj.set_axis(index) if hasattr(obj, "set_axis") else obj
    at = to_host(positions)
    if getattr(obj, "_ember_kind", "") == "frame":
        cols = {k: taken(c, at, fill_value) for k, c in obj._columns.items()}
        return type(obj)._from_columns(cols, index, obj._axis_names, obj._kind)
    # pandas' _align_series: missing values first (int becomes float), then fillna(fill_value)
    out = type(obj)._from_column(taken(obj.column, at, None), index, obj.name)
    return out if fill_value is None or pd.isna(fill_value) else out.fillna(fill_value)


# --- combine ------------------------------------------------------------------------------------
def _common_type(a: Any, b: Any) -> Any:
    from pandas.core.dtypes.cast import find_common_type

    return find_common_type([a, b])


def _downcast(result: Any, dtype: Any) -> Any:
    """pandas' maybe_downcast_to_dtype for NumPy dtypes: a float result of whole numbers back to the
    integer dtype where no value is missing."""
    if not isinstance(dtype, np.dtype) or not hasattr(result, "dtype"):
        return result
    if dtype.kind in "iu" and result.dtype.kind == "f":
        if bool(result.notna().all()) and bool((result == result.round()).all()):
            return result.astype(dtype)
    if dtype.kind == "b" and result.dtype == object:
        return result
    return result


def _called(func: Any, left: Any, right: Any, method: str) -> Any:
    """``func(left, right)`` on whole ember Series; a function of single values cannot run so."""
    from ember.frame.series import Series

    try:
        out = func(left, right)
    except (TypeError, ValueError) as exc:
        raise unsupported(
            method,
            "a function of single values (ember calls func on whole columns: write it with Series operators)",
        ) from exc
    if isinstance(out, Series):
        if len(out) != len(left):
            raise unsupported(method, "a function whose result has another length")
        return Series._from_column(out.column, left.index, left.name)
    if isinstance(out, np.ndarray) or hasattr(out, "__cuda_array_interface__"):
        return Series(out, index=left.index, name=left.name)
    raise unsupported(method, f"a function returning a {type(out).__name__} (a Series is taken)")


def _as_column(values: Any, n: int) -> Any:
    from ember.frame.series import Series

    return Series(values).column


def _filtered(func: Any, series: Any) -> Any:
    from ember.frame.series import Series

    try:
        out = func(series)
    except (TypeError, ValueError) as exc:
        raise unsupported("DataFrame.update", "a filter_func of single values") from exc
    if not isinstance(out, Series):
        out = Series(out, index=series.index)
    return out


# --- compare ------------------------------------------------------------------------------------
def _compare(obj: Any, other: Any, align_axis: Any, keep_shape: bool, keep_equal: bool, names: Any) -> Any:
    """pandas' NDFrame.compare: a mask of the differing values (missing beside missing is equal),
    rows / columns without a difference dropped unless keep_shape, the two sides interleaved."""
    if not isinstance(names, tuple):
        raise TypeError(
            f"Passing 'result_names' as a {type(names)} is not supported. Provide 'result_names' as a tuple instead."
        )
    mask = ~((obj == other) | (obj.isna() & other.isna()))
    self_part = obj if keep_equal else obj.where(mask)
    other_part = other if keep_equal else other.where(mask)
    if not keep_shape:
        if getattr(obj, "_ember_kind", "") == "frame":
            rows = mask.any(axis=1)
            cols = [k for k in mask._names if bool(mask[k].any())]
            self_part, other_part = self_part.loc[rows, cols], other_part.loc[rows, cols]
        else:
            self_part, other_part = self_part[mask], other_part[mask]
    return _side_by_side(self_part, other_part, align_axis, names)


def _columns_side_by_side(left: Any, right: Any, names: tuple) -> Any:
    """Each column of ``left`` followed by the same of ``right``, labelled (label, side)."""
    from ember.frame.dataframe import DataFrame

    if getattr(left, "_ember_kind", "") != "frame":
        return DataFrame._from_columns({names[0]: left.column, names[1]: right.column}, left.index)
    cols = {}
    for k in left._names:
        key = k if isinstance(k, tuple) else (k,)
        cols[key + (names[0],)] = left._columns[k]
        cols[key + (names[1],)] = right._columns[k]
    return DataFrame._from_columns(cols, left.index)


def _side_by_side(left: Any, right: Any, align_axis: Any, names: tuple) -> Any:
    """pandas' compare layout: concat with keys, the keys' level moved last, the sides interleaved."""
    import ember

    axis = 1 if align_axis in (1, "columns") else 0 if align_axis in (0, "index", "rows") else None
    if axis is None:
        raise ValueError(f"No axis named {align_axis} for object type {type(left).__name__}")
    if axis == 1:
        return _columns_side_by_side(left, right, names)
    diff = ember.concat([left, right], axis=axis, keys=list(names))
    n = diff.shape[axis]
    order = np.arange(n).reshape(2, n // 2).T.reshape(-1)
    nlevels = diff.index.nlevels
    diff = diff.reorder_levels(list(range(1, nlevels)) + [0])
    return diff.iloc[order]
