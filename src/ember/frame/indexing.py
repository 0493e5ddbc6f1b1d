"""loc / iloc / at / iat and row assignment for Series and DataFrame (the values a column may take:
``frame/setitem_casting.py``).

Row selectors become integer positions (or a boolean mask) here; lists of labels find their rows in
``frame/label_positions.py`` (a join with the index on the device).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np
import pandas as pd

from ember._compat import PANDAS_31
from ember.backend import asarray_on, is_device_array, to_host
from ember.column import Column, DatetimeColumn, NumericColumn, from_any
from ember.frame.label_positions import obj_xp, row_positions
from ember.frame.setitem_casting import setitem_scalar, setitem_values


def _is_bool_array(key: Any) -> bool:
    """A boolean mask (a NumPy / NumPy-like bool scalar such as ``np.True_`` is a label, as in pandas)."""
    dtype = getattr(key, "dtype", None)
    if dtype is None or getattr(key, "ndim", 1) == 0:
        return False
    return dtype == bool or str(dtype) == "boolean"


def _row_mask(obj: Any, key: Any, item: str | None = None) -> Any:
    """A boolean row selector as a device/host bool array aligned to ``obj``'s rows; ``item``: "frame"
    or "series" for ``obj[key]`` (pandas' rules for a key repeating labels differ from loc's)."""
    from ember.frame.series import Series

    xp = obj_xp(obj)
    if isinstance(key, Series):
        from ember.frame.alignment import indexes_equal

        if not indexes_equal(key.index, obj.index):
            from ember.frame.alignment import align_series

            # pandas takes the key's value of each row's label (a missing value is False): a row
            # whose label the key lacks is unalignable; a label the key repeats, out of bounds
            k = key.column
            truth = Series._from_column(
                NumericColumn(k.data if k.mask is None else k.data & k.mask), key.index
            )
            _, col, _ = align_series(Series._from_column(_dummy_col(obj), obj.index), truth, how="left")
            if col.mask is not None and not bool(col.mask.all()):
                raise pd.errors.IndexingError(
                    "Unalignable boolean Series provided as indexer (index of the boolean Series and of "
                    "the indexed object do not match)."
                )
            if len(col) != len(obj):
                return _repeated_labels_mask(col, len(obj), xp, item)
        else:
            col = key.column
        arr = col.data if col.mask is None else col.data & col.mask
        return asarray_on(arr, xp)
    arr = key if is_device_array(key) else np.asarray(key, dtype=bool)
    if len(arr) != len(obj):
        raise IndexError(f"Boolean index has wrong length: {len(arr)} instead of {len(obj)}")
    return asarray_on(arr, xp)


def _repeated_labels_mask(col: Column, n: int, xp: Any, item: str | None) -> Any:
    """A boolean Series key whose labels repeat: pandas takes its values for every match of each row's
    label, in row order (more values than rows), and selects the rows at the positions of the True
    values: a position past the last row raises IndexError. ``obj[key]`` takes all rows where every
    value is True; a Series' ``[]`` refuses any other such key (NumPy's length check). One sync."""
    from ember.backend import to_host

    data = col.data if col.mask is None else col.data & col.mask
    every, beyond = (bool(v) for v in to_host(xp.stack([data.all(), data[n:].any()])))
    if item is not None and every:
        return asarray_on(xp.ones(n, dtype=bool), xp)
    if item == "series":
        raise IndexError(
            "boolean index did not match indexed array along axis 0; size of axis is "
            f"{n} but size of corresponding boolean axis is {len(data)}"
        )
    if beyond:
        raise IndexError("indices are out-of-bounds")
    return asarray_on(data[:n], xp)


def _dummy_col(obj: Any) -> Column:
    return NumericColumn(obj_xp(obj).zeros(len(obj), dtype=np.int8))


def _positions(obj: Any, key: Any) -> Any:
    xp = obj_xp(obj)
    if is_device_array(key):
        pos = key.astype(np.int64)
    else:
        pos = np.asarray(key, dtype=np.int64)
        n = len(obj)
        if pos.size and (pos.max() >= n or pos.min() < -n):
            raise IndexError("positional indexers are out-of-bounds")
        pos = asarray_on(pos, xp)
    return xp.where(pos < 0, pos + len(obj), pos)


def positions_for_take(obj: Any, indices: Any) -> Any:
    """Integer positions for ``take`` (bounds-checked like pandas, negatives from the end)."""
    if hasattr(indices, "column"):
        indices = indices.column.data
    return _positions(obj, indices)


def select_rows(obj: Any, key: Any, by_label: bool, item: str | None = None) -> Any:
    """``obj`` restricted to the rows ``key`` selects; a scalar key gives a single row/value (``item``:
    "frame" / "series" for ``obj[key]``)."""
    if isinstance(key, slice):
        if by_label and (key.step or 1) > 0:
            start, stop = _label_slice(obj, key)
            return obj._slice_rows(start, stop, key.step or 1)
        if by_label:  # a reversed label slice: pandas' bounds (start label down to the stop label)
            key = _label_rows_slice(obj, key)
        return obj._slice_rows(*slice_bounds(key, len(obj)))
    if _is_bool_array(key) or (
        isinstance(key, list) and key and all(isinstance(k, (bool, np.bool_)) for k in key)
    ):
        return obj._filter_rows(_row_mask(obj, key, item))
    if pd.api.types.is_scalar(key) or key is None or isinstance(key, tuple):
        if by_label:  # a repeated label selects all its rows (a slice or a mask from get_loc)
            loc = _label_loc(obj, key)
            if isinstance(loc, slice):
                return _without_key_levels(obj._slice_rows(loc.start, loc.stop, loc.step or 1), key)
            if isinstance(loc, np.ndarray):
                return _without_key_levels(obj._filter_rows(asarray_on(loc, obj_xp(obj))), key)
            return obj._row_at(loc)
        return obj._row_at(_scalar_position(obj, key, by_label))
    if by_label:
        rows = obj._take_rows(row_positions(obj, key))
        return _named_after_index_key(rows, key)
    return obj._take_rows(_positions(obj, key))


def _named_after_index_key(rows: Any, key: Any) -> Any:
    """pandas 3.0 names the rows ``loc`` takes with an Index of labels after that Index (its name,
    None included); pandas 3.1 keeps the object's index name."""
    from ember.frame.index import Index, MultiIndex

    if PANDAS_31 or not isinstance(key, (Index, pd.Index)) or isinstance(key, (MultiIndex, pd.MultiIndex)):
        return rows
    if isinstance(rows.index, MultiIndex) or rows.index.name == key.name:
        return rows
    return rows.set_axis(rows.index.rename(key.name), axis=0)


def _without_key_levels(rows: Any, key: Any) -> Any:
    """pandas' loc with a partial key of a MultiIndex (a label, or a tuple of fewer labels than
    levels): the rows under it, without the levels the key names (a full key keeps them all)."""
    from ember.frame.index import MultiIndex

    index = rows.index
    depth = len(key) if isinstance(key, tuple) else 1
    if not isinstance(index, MultiIndex) or depth >= index.nlevels:
        return rows
    return rows.set_axis(index.droplevel(list(range(depth))), axis=0)


def is_multiindex_row_key(obj: Any, key: Any) -> bool:
    """A tuple key that pandas' frame loc reads as row labels of a MultiIndex first (then, on a
    KeyError, as rows and columns): scalars only, no more of them than there are levels."""
    from ember.frame.index import MultiIndex

    index = obj.index
    return (
        isinstance(index, MultiIndex)
        and isinstance(key, tuple)
        and len(key) <= index.nlevels
        and all(pd.api.types.is_scalar(k) for k in key)
    )


def _label_loc(obj: Any, key: Any) -> Any:
    """``obj.index.get_loc(key)``: an int, or a slice / host mask of a repeated label."""
    loc = obj.index.get_loc(key)
    return int(loc) if isinstance(loc, (int, np.integer)) else loc


def _scalar_position(obj: Any, key: Any, by_label: bool) -> int:
    if by_label:
        loc = _label_loc(obj, key)
        if not isinstance(loc, int):
            from ember.frame._fallback import unsupported

            raise unsupported("loc", "a label that appears more than once in the index")
        return int(loc)
    if not isinstance(key, (int, np.integer)):
        raise TypeError(f"Cannot index by location index with a non-integer key {key!r}")
    n = len(obj)
    if not -n <= key < n:
        raise IndexError("single positional indexer is out-of-bounds")
    return int(key) % n


def slice_bounds(key: slice, n: int) -> tuple[Any, Any, int]:
    """``key``'s (start, stop, step) over ``n`` rows, valid to slice with again: ``slice.indices``
    gives stop -1 for a reversed slice that runs to the first row, which slicing reads as the last,
    and start -1 for a reversed slice that starts before the first row (it selects nothing)."""
    start, stop, step = key.indices(n)
    if step < 0 and start < 0:
        return 0, 0, step
    return start, (None if step < 0 and stop < 0 else stop), step


def _label_slice(obj: Any, key: slice) -> tuple[int, int]:
    """A label slice as a position range (inclusive of the stop label, as pandas).

    On an increasing index without missing labels the bounds are two counts on the device (labels
    below ``start``, labels up to ``stop``); other indexes, and missing bounds, use pandas'
    slice_indexer on a host copy."""
    _check_missing_bounds(obj.index, key)
    found = _sorted_label_slice(obj.index, key)
    if found is not None:
        return found
    idx = obj.index.to_pandas()
    sl = idx.slice_indexer(key.start, key.stop)
    start, stop, _ = sl.indices(len(idx))
    return start, stop


def _missing(bound: Any) -> bool:
    """Whether a slice bound is, or (a tuple) holds, a missing value."""
    if isinstance(bound, tuple):
        return any(_missing(b) for b in bound)
    return bound is not None and pd.api.types.is_scalar(bound) and bool(pd.isna(bound))


def _check_missing_bounds(index: Any, key: slice) -> None:
    """A missing value in a MultiIndex slice's bound: pandas' answer depends on how the index was
    built (whether a level holds the missing value, as after ``groupby(dropna=False)``, or codes it
    -1), which ember's index does not record."""
    from ember.frame.index import MultiIndex

    if isinstance(index, MultiIndex) and (_missing(key.start) or _missing(key.stop)):
        from ember.frame._fallback import unsupported

        raise unsupported("loc", "a slice of a MultiIndex with a missing value (NaN / NaT / NA) in a bound")


def _sorted_label_slice(index: Any, key: slice) -> tuple[int, int] | None:
    from ember.frame.index import MultiIndex, RangeIndex
    from ember.ops.binary import binary_op

    if isinstance(index, (RangeIndex, MultiIndex)) or index.column.has_nulls_possible:
        return None
    if _missing(key.start) or _missing(key.stop):
        return None  # pandas' rules per index type (an empty selection, all rows, a TypeError)
    col = index.column
    if isinstance(col, DatetimeColumn) and (isinstance(key.start, str) or isinstance(key.stop, str)):
        return None  # partial-string bounds ('2020-01-04' covers that whole day): pandas' resolution rules
    xp, n = col.xp, len(col)
    try:
        if n > 1 and not bool(binary_op(col.slice(1, n), col.slice(0, n - 1), "ge").data.all()):
            return None  # not increasing: pandas' rules for unsorted indexes apply
        below = binary_op(col, key.start, "lt").data.sum() if key.start is not None else xp.asarray(0)
        upto = binary_op(col, key.stop, "le").data.sum() if key.stop is not None else xp.asarray(n)
    except (TypeError, ValueError):
        return None
    start, stop = (int(v) for v in to_host(xp.stack([xp.asarray(below), xp.asarray(upto)])))
    return start, max(stop, start)


def apply_callables(obj: Any, key: Any) -> Any:
    """pandas' callable keys (``df.loc[lambda d: d.x > 0, "y"]``, ``s[lambda s: s > 0]``): a callable
    key, or a callable element of a tuple key, is called with the object and its result used."""
    if callable(key):
        return key(obj)
    if isinstance(key, tuple):
        return tuple(k(obj) if callable(k) else k for k in key)
    return key


class _Indexer:
    def __init__(self, obj: Any, axis: int = 0) -> None:
        self.obj = obj
        self._axis = axis


class _AxisIndexer(_Indexer):
    """loc / iloc: callable with an axis, as pandas' location indexers."""

    def __call__(self, axis: Any = None) -> Any:
        """``df.loc(axis=1)[key]``: an indexer whose one-part keys select along ``axis``."""
        from ember.frame.generic import check_axis

        if axis is None:
            return type(self)(self.obj)
        kind = "DataFrame" if getattr(self.obj, "_ember_kind", "") == "frame" else "Series"
        try:
            number = check_axis(f"{kind}.{type(self).__name__}", axis)
        except (ValueError, NotImplementedError):
            number = -1
        if number not in (0, 1) or (number == 1 and kind == "Series"):
            raise ValueError(f"No axis named {axis} for object type {kind}")
        return type(self)(self.obj, number)

    def _along_axis(self, key: Any) -> Any:
        """A key of one part read along this indexer's axis (``(slice(None), key)`` for columns)."""
        if self._axis == 1 and not isinstance(key, tuple):
            return (slice(None), key)
        return key


class ILocIndexer(_AxisIndexer):
    def __getitem__(self, key: Any) -> Any:
        key = apply_callables(self.obj, self._along_axis(key))
        if isinstance(key, tuple):
            return _frame_2d(self.obj, key, by_label=False)
        return select_rows(self.obj, key, by_label=False)

    def __setitem__(self, key: Any, value: Any) -> None:
        assign(self.obj, apply_callables(self.obj, self._along_axis(key)), value, by_label=False)


# pandas' resolutions, finest first: a date string coarser than the index's selects a range of rows
_RESOLUTIONS = ("ns", "us", "ms", "s", "min", "h", "D", "M", "Q", "Y")
_SECONDS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1, "min": 60, "h": 3600, "D": 86400}


def _index_resolution(col: DatetimeColumn) -> int:
    """The finest resolution any of the index's times needs (pandas' ``_resolution_obj``: a day if
    every time is a midnight, an hour if every one is on the hour ...). One sync."""
    xp = col.xp
    per_second = {"s": 1, "ms": 1_000, "us": 1_000_000, "ns": 1_000_000_000}[col.unit]
    level = xp.zeros(len(col), dtype=np.int8)
    for i, name in enumerate(_RESOLUTIONS[:7]):
        ticks = round(_SECONDS[name] * per_second)
        if ticks >= 1:
            level = xp.where(col.data % ticks == 0, np.int8(i), level)
    if col.mask is not None:
        level = xp.where(col.mask, level, np.int8(6))
    return int(level.min()) if len(col) else 6


def partial_date_rows(obj: Any, key: Any) -> Any:
    """pandas' partial string indexing: a date string coarser than the index's resolution
    (``"2024-01"`` on hourly times) names the rows inside its period, as a boolean mask; None when
    the string is an exact label (or the index holds no times). A sorted index with no time near the
    period raises KeyError, as pandas'."""
    from ember.frame.index import MultiIndex

    index = obj.index
    col = getattr(index, "_column", None) if not isinstance(index, MultiIndex) else None
    if not isinstance(key, str) or not isinstance(col, DatetimeColumn):
        return None
    try:
        period = pd.Period(key)
    except (ValueError, TypeError):
        return None
    if col.tz is not None:
        from ember.frame._fallback import unsupported

        raise unsupported("loc", "a date string on a time zone-aware index")
    reso = period.freqstr.split("-")[0]
    if reso not in _RESOLUTIONS or _RESOLUTIONS.index(reso) <= _index_resolution(col):
        return None
    start = period.start_time.as_unit(col.unit)
    end = ((period + 1).start_time - pd.Timedelta(1, "ns")).as_unit(col.unit)
    lo, hi = np.int64(start.value // _per_ns(col.unit)), np.int64(end.value // _per_ns(col.unit))
    inside = (col.data >= lo) & (col.data <= hi)
    if col.mask is not None:
        inside &= col.mask
    if len(col) and col.mask is None and bool((col.data[1:] >= col.data[:-1]).all()):  # sorted
        first, last = (int(v) for v in to_host(col.data[[0, -1]]))
        if hi < first or lo > last:
            raise KeyError(key)
    return inside


def _per_ns(unit: str) -> int:
    return {"s": 1_000_000_000, "ms": 1_000_000, "us": 1_000, "ns": 1}[unit]


def _date_rows_key(obj: Any, key: Any) -> Any:
    """``key`` with a partial date string (alone, or first of a tuple) replaced by its rows' mask."""
    rows = key[0] if isinstance(key, tuple) and key else key
    mask = partial_date_rows(obj, rows)
    if mask is None:
        return key
    return (mask, *key[1:]) if isinstance(key, tuple) else mask


class LocIndexer(_AxisIndexer):
    def __getitem__(self, key: Any) -> Any:
        key = _date_rows_key(self.obj, apply_callables(self.obj, self._along_axis(key)))
        if isinstance(key, tuple) and getattr(self.obj, "_ember_kind", "") == "frame":
            if is_multiindex_row_key(self.obj, key):
                try:
                    return select_rows(self.obj, key, by_label=True)
                except KeyError:
                    pass  # pandas then reads the tuple as (rows, columns)
            return _frame_2d(self.obj, key, by_label=True)
        return select_rows(self.obj, key, by_label=True)

    def __setitem__(self, key: Any, value: Any) -> None:
        key = apply_callables(self.obj, self._along_axis(key))
        assign(self.obj, _date_rows_key(self.obj, key), value, by_label=True)


class AtIndexer(_Indexer):
    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, tuple):
            row, col = key
            return self.obj[col].at[row]
        return self.obj._row_at(_scalar_position(self.obj, key, by_label=True))

    def __setitem__(self, key: Any, value: Any) -> None:
        assign(self.obj, key, value, by_label=True)


class IAtIndexer(_Indexer):
    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, tuple):
            row, col = key
            return self.obj.iloc[:, col].iat[row]
        return self.obj._row_at(_scalar_position(self.obj, key, by_label=False))

    def __setitem__(self, key: Any, value: Any) -> None:
        assign(self.obj, key, value, by_label=False)


def _frame_2d(frame: Any, key: tuple, by_label: bool) -> Any:
    rows, cols = key
    if by_label and _names_first_parts(frame, cols):  # df.loc[:, 'a'] under MultiIndex columns
        sub = frame[cols]
        return sub if isinstance(rows, slice) and rows == slice(None) else sub.loc[rows]
    if by_label:
        names = frame._select_labels(cols)
    else:
        names = _iloc_column_names(list(frame.columns), cols)
    single_col = np.isscalar(cols) or (
        by_label and not isinstance(cols, (list, slice, np.ndarray)) and cols in frame._columns
    )
    sub = frame[names] if not single_col else frame[names]
    if isinstance(rows, slice) and rows == slice(None):
        return sub
    return select_rows(sub, rows, by_label)


def _names_first_parts(frame: Any, cols: Any) -> bool:
    """Whether ``cols`` is a key of MultiIndex columns naming no whole label, only first parts."""
    if isinstance(cols, (list, slice, np.ndarray, pd.Index)) or not frame._names:
        return False
    try:
        return cols not in frame._columns and isinstance(frame._names[0], tuple)
    except TypeError:
        return False


def _iloc_column_names(all_names: list, cols: Any) -> Any:
    """The labels of the columns ``iloc``'s column part selects: a position, a slice, positions or a
    boolean mask of the columns' length (pandas' IndexError for a mask of another length or a
    position out of bounds)."""
    if isinstance(cols, slice) or (np.isscalar(cols) and not isinstance(cols, (bool, np.bool_))):
        return all_names[cols]
    arr = np.asarray(cols.to_numpy() if hasattr(cols, "to_numpy") else cols)
    if arr.dtype == np.bool_:
        if arr.ndim != 1 or len(arr) != len(all_names):
            raise IndexError(f"Boolean index has wrong length: {arr.size} instead of {len(all_names)}")
        return [name for name, keep in zip(all_names, arr.tolist()) if keep]
    if arr.size and arr.dtype.kind not in "iu":
        raise IndexError(f".iloc requires numeric indexers, got {arr}")
    n = len(all_names)
    if arr.size and (int(arr.max()) >= n or int(arr.min()) < -n):
        raise IndexError("positional indexers are out-of-bounds")
    return [all_names[i] for i in arr.astype(np.int64).reshape(-1).tolist()]


def assign(obj: Any, key: Any, value: Any, by_label: bool) -> None:
    """``obj.loc[key] = value`` / ``obj.iloc[key] = value`` for row selectors (and a column label).
    Every column's new values are made before any is stored: a value one column cannot hold leaves
    the frame as it was. A new row label appends a row (pandas' setting with enlargement)."""
    from ember.frame.construction import refuse_write_through

    frame = getattr(obj, "_ember_kind", "") == "frame"
    for column in obj._columns.values() if frame else (obj._column,):
        refuse_write_through(column, "DataFrame.__setitem__" if frame else "Series.__setitem__")
    rows, col = key if frame and isinstance(key, tuple) else (key, None)
    if by_label and _is_new_label(obj, rows):
        _append_row(obj, rows, col, value)
        return
    if not frame:
        obj._column = set_rows(obj, key, value, by_label)
        return
    new_column = by_label and col is not None and pd.api.types.is_scalar(col) and col not in obj._columns
    if new_column:
        names = [col]
    elif by_label and _new_labels_listed(obj, col):
        names = list(col)  # pandas adds the labels it lacks, in the key's order
        if len(set(names)) != len(names):
            from ember.frame._fallback import unsupported

            raise unsupported("loc", "a new column label repeated in the key (pandas adds it twice)")
    elif col is None:
        names = list(obj.columns)
    else:
        names = obj._select_labels(col) if by_label else [list(obj.columns)[col]]
    if isinstance(names, str) or not isinstance(names, list):
        names = [names]
    values = _per_column_values(names, value)
    out = {}
    for name, v in zip(names, values):
        if name not in obj._columns:
            if new_column and not len(obj) and not pd.api.types.is_list_like(v):
                raise ValueError("cannot set a frame with no defined index and a scalar")
            if isinstance(rows, slice) and rows == slice(None) or (new_column and not len(obj)):
                # every row: pandas sets the whole column as df[name] = value does (its dtype)
                v = obj._constructor_sliced(v) if isinstance(v, pd.Series) else v
                out[name] = obj._column_for(v, name)
                continue
            obj_col = _missing_column_for(v, len(obj), obj_xp(obj))
            series = obj._constructor_sliced._from_column(obj_col, obj.index, name)
        else:
            series = obj[name]
        out[name] = set_rows(series, rows, v, by_label)
    for name, c in out.items():
        if name not in obj._columns:
            obj._add_label(name)  # the column axis' type follows, as pandas' Index.insert
        obj._columns[name] = c


def _new_labels_listed(obj: Any, cols: Any) -> bool:
    """Whether ``cols`` is a list of column labels (not a boolean mask) naming one the frame lacks."""
    if not isinstance(cols, (list, np.ndarray, pd.Index)) or len(cols) == 0:
        return False
    if isinstance(cols, (np.ndarray, pd.Index)) and cols.dtype == bool:
        return False
    if any(isinstance(k, (bool, np.bool_)) or not isinstance(k, Hashable) for k in cols):
        return False
    return any(k not in obj._columns for k in cols)


def _per_column_values(names: list, value: Any) -> list:
    """The value each of ``names`` gets: a 1-d list-like across several columns is one value per
    column (pandas: a row), a dict or Series is looked up by column label; anything else goes to
    every column."""
    if len(names) < 2:
        return [value] * len(names)
    if isinstance(value, dict) or hasattr(value, "to_pandas") or isinstance(value, pd.Series):
        if hasattr(value, "to_pandas") and not hasattr(value, "columns"):
            value = value.to_pandas()
        if isinstance(value, (dict, pd.Series)):
            got = pd.Series(value) if isinstance(value, dict) else value
            return [got[n] if n in got.index else np.nan for n in names]
        return [value] * len(names)
    if isinstance(value, (list, tuple)) or (isinstance(value, np.ndarray) and value.ndim == 1):
        if len(value) != len(names):
            raise ValueError("Must have equal len keys and value when setting with an iterable")
        return list(value)
    return [value] * len(names)


def _missing_column_for(value: Any, n: int, xp: Any) -> Column:
    """A new column for ``df.loc[rows, new] = value``: all missing, of the dtype pandas infers from
    the value (float64 for numbers, str for strings, datetime64 for times ...)."""
    from ember.column import from_pandas, from_scalar
    from ember.frame._fallback import unsupported

    if isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_)):
        return from_scalar(np.nan, n, xp)
    sample = pd.Series([value] if pd.api.types.is_scalar(value) else list(value)[:1])
    empty = sample.iloc[:0].reindex(range(n))
    if empty.dtype == object:
        raise unsupported("loc", f"a new column of {type(value).__name__} values (pandas makes it object)")
    return from_pandas(empty, xp)


def _is_new_label(obj: Any, rows: Any) -> bool:
    """Whether ``rows`` is one label the index lacks (setting it appends a row)."""
    if not pd.api.types.is_scalar(rows) and not isinstance(rows, tuple):
        return False
    try:
        obj.index.get_loc(rows)
    except KeyError:
        return True
    except (TypeError, pd.errors.InvalidIndexError):
        return False
    return False


def _append_row(obj: Any, label: Any, col: Any, value: Any) -> None:
    """pandas' setting with enlargement, ``obj.loc[label] = value`` (or ``obj.loc[label, col]``) for a
    new label: a row is appended. pandas sets the row into the frame's last row on the host, which
    gives the new row and the dtypes pandas lands on (a column it turns float64 is cast here too);
    ember then appends the row on the device."""
    from ember.frame._fallback import unsupported
    from ember.frame.convert import concat, from_pandas
    from ember.frame.index import MultiIndex
    from ember.ops.unary import astype

    frame = getattr(obj, "_ember_kind", "") == "frame"
    if isinstance(obj.index, MultiIndex) or isinstance(label, tuple):
        raise unsupported("loc", "setting with enlargement on a MultiIndex")
    if frame and col is not None and not (pd.api.types.is_scalar(col) and col in obj._columns):
        raise unsupported("loc", "a new row and new or several columns at once")
    tiny = (obj.iloc[len(obj) - 1 :] if len(obj) else obj).to_pandas()
    tiny.loc[label if col is None else (label, col)] = value
    dtypes = dict(tiny.dtypes.items()) if frame else {None: tiny.dtype}
    if any(dt == object for dt in dtypes.values()) or tiny.index.dtype == object:
        raise unsupported("loc", "setting with enlargement where pandas makes an object column or index")
    if frame:
        cast = {
            k: c if str(c.dtype) == str(dtypes[k]) else astype(c, dtypes[k]) for k, c in obj._columns.items()
        }
        base = obj._with_columns(cast)
    else:
        base = obj if str(obj.dtype) == str(tiny.dtype) else obj.astype(tiny.dtype)
    obj._replace_with(concat([base, from_pandas(tiny.iloc[len(tiny) - 1 :])]))


def set_rows(series: Any, key: Any, value: Any, by_label: bool = True) -> Column:
    """The series' column with the rows ``key`` selects replaced by ``value`` (scalar or same-size),
    under pandas 3's rules: a value the column's dtype cannot hold raises TypeError (see
    ``setitem_scalar`` / ``setitem_values``)."""
    from ember.ops.missing import where

    xp = obj_xp(series)
    n = len(series)
    from_list = isinstance(value, (list, tuple))
    if pd.api.types.is_scalar(value):
        value = setitem_scalar(series.column, value)
    has_none = from_list and any(v is None for v in value)
    aligned = _aligned_value(series, value) if by_label else None  # loc / []: a Series by its labels
    if aligned is not None:
        value = aligned
    if isinstance(key, slice) and key == slice(None):
        mask = xp.ones(n, dtype=bool)
    elif _is_bool_array(key) or (isinstance(key, list) and key and isinstance(key[0], (bool, np.bool_))):
        mask = _row_mask(series, key)
        if aligned is not None:  # pandas takes the aligned values of the selected rows only
            pos = xp.flatnonzero(mask)
            return set_rows(series, pos, aligned.take(pos), by_label=False)
        if not _is_scalar_value(value) and len(value) != n:  # one value per selected row, as pandas
            return set_rows(series, xp.flatnonzero(mask), value, by_label=False)
    else:
        if isinstance(key, slice):
            pos = xp.arange(n)[key] if not by_label else xp.arange(n)[_label_rows_slice(series, key)]
        elif pd.api.types.is_scalar(key) and by_label:
            loc = _label_loc(series, key)  # every row of a repeated label
            if isinstance(loc, int):
                pos = xp.asarray([loc])
            elif isinstance(loc, slice):
                pos = xp.arange(loc.start, loc.stop)
            else:
                pos = asarray_on(np.flatnonzero(loc), xp)
        elif pd.api.types.is_scalar(key):
            pos = xp.asarray([_scalar_position(series, key, by_label)])
        else:
            pos = row_positions(series, key) if by_label else _positions(series, key)
        mask = xp.zeros(n, dtype=bool)
        mask[pos] = True
        if aligned is not None:
            value = aligned.take(pos)
        if not _is_scalar_value(value):
            full = from_any(value.column if hasattr(value, "column") else value, xp)
            if len(full) != len(pos):
                raise ValueError(f"cannot set {len(pos)} rows from {len(full)} values")
            full = setitem_values(series.column, full, from_list, has_none)
            if full is not None:
                scattered = xp.zeros(n, dtype=np.int64)
                scattered[pos] = xp.arange(len(pos))
                full = full.take(scattered)
            value = full
            return where(series.column, ~mask, value)
    if not _is_scalar_value(value):
        value = from_any(value.column if hasattr(value, "column") else value, xp)
        value = setitem_values(series.column, value, from_list, has_none)
    return where(series.column, ~mask, value)


def _aligned_value(series: Any, value: Any) -> Column | None:
    """A Series value of loc / [] setitem on ``series``' labels (missing where it lacks one), as
    pandas aligns it; None for other values, or a Series on the same labels."""
    from ember.frame.alignment import align_series, indexes_equal
    from ember.frame.series import Series

    if isinstance(value, pd.Series):
        value = Series(value)
    if not isinstance(value, Series) or indexes_equal(value.index, series.index):
        return None
    _, column, index = align_series(Series._from_column(_dummy_col(series), series.index), value, how="left")
    if len(index) != len(series):
        raise ValueError("cannot reindex on an axis with duplicate labels")
    return column


def _is_scalar_value(value: Any) -> bool:
    return value is None or pd.api.types.is_scalar(value)


def _label_rows_slice(obj: Any, key: slice) -> slice:
    """A label slice as the positions' slice it selects (a step, and reversed slices, as loc)."""
    if (key.step or 1) > 0:
        start, stop = _label_slice(obj, key)
        return slice(start, stop, key.step)
    _check_missing_bounds(obj.index, key)
    return obj.index.to_pandas().slice_indexer(key.start, key.stop, key.step)
