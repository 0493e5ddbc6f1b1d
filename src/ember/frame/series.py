"""Series: one Column with an Index and a name. Methods validate, call ops/, and wrap the result."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.backend import xp as current_xp
from ember.column import Column, NumericColumn, from_any, from_pandas, from_scalar
from ember.column.convert import empty_object
from ember.frame._fallback import missing_attribute, unsupported, with_fallback
from ember.frame.alignment import series_binary
from ember.frame.conversion import SeriesConversion
from ember.frame.frame_combine import SeriesCombine
from ember.frame.frame_extras import SeriesExtras
from ember.frame.frame_levels import SeriesLevels
from ember.frame.generic import NDFrame
from ember.frame.index import Index, RangeIndex, ensure_index, index_from_pandas
from ember.frame.indexing import AtIndexer, IAtIndexer, ILocIndexer, LocIndexer
from ember.frame.replace import NO_VALUE
from ember.frame.series_missing import SeriesMissing
from ember.frame.series_reductions import SeriesReductions

_NO_NAME = object()  # reset_index(name=) not given: the Series name, or 0

_BINARY = {
    "__add__": "add",
    "__sub__": "sub",
    "__mul__": "mul",
    "__truediv__": "truediv",
    "__floordiv__": "floordiv",
    "__mod__": "mod",
    "__pow__": "pow",
    "__radd__": "radd",
    "__rsub__": "rsub",
    "__rmul__": "rmul",
    "__rtruediv__": "rtruediv",
    "__rfloordiv__": "rfloordiv",
    "__rmod__": "rmod",
    "__rpow__": "rpow",
    "__eq__": "eq",
    "__ne__": "ne",
    "__lt__": "lt",
    "__le__": "le",
    "__gt__": "gt",
    "__ge__": "ge",
    "__and__": "and_",
    "__or__": "or_",
    "__xor__": "xor",
    "__rand__": "rand_",
    "__ror__": "ror_",
    "__rxor__": "rxor",
}
_NAMED = {
    "add": "add",
    "sub": "sub",
    "subtract": "sub",
    "mul": "mul",
    "multiply": "mul",
    "div": "truediv",
    "truediv": "truediv",
    "divide": "truediv",
    "floordiv": "floordiv",
    "mod": "mod",
    "pow": "pow",
    "radd": "radd",
    "rsub": "rsub",
    "rmul": "rmul",
    "rdiv": "rtruediv",
    "rtruediv": "rtruediv",
    "rfloordiv": "rfloordiv",
    "rmod": "rmod",
    "rpow": "rpow",
    "eq": "eq",
    "ne": "ne",
    "lt": "lt",
    "le": "le",
    "gt": "gt",
    "ge": "ge",
}


def _from_values(data: Any, dtype: Any, name: Any, copy: Any = None) -> tuple[Column, Any]:
    """The column of ``data`` and the dtype still to cast it to. Python lists with a dtype are typed
    by pandas from the Python values (``[1, None]`` as object keeps None, ``[1.5]`` as int64 raises).
    ``copy=False`` shares a NumPy array's memory where ember stores it as it is (on the CPU)."""
    if dtype is not None and isinstance(data, (list, tuple)):
        return from_pandas(pd.Series(data, dtype=dtype), current_xp(), name), None
    if copy is False and isinstance(data, np.ndarray) and current_xp() is not np:
        raise unsupported(
            "Series",
            "copy=False with a NumPy array on the GPU (the values move to the device, so the Series "
            "cannot share the array's memory as pandas does; pass copy=True, the default)",
        )
    col = from_any(data, current_xp(), name, copy=copy is not False)
    if copy is False:
        from ember.frame.construction import borrowed_column

        borrowed_column(col, data)
    return col, dtype


def _dict_on_index(col: Column, keys: Index, dtype: Any, index: Any) -> tuple[Column, Index, Any]:
    """A dict's values taken at the labels of ``index=``, as pandas: the Series of the dict (in
    ``dtype``) reindexed, a missing label NaN; an empty dict gives NaN on every label (float64)."""
    if len(keys) == 0:
        if dtype is not None and len(index):
            raise unsupported("Series", "an empty dict with index= and dtype=")
        idx = ensure_index(index, len(index))
        return from_scalar(np.nan, len(idx), current_xp()) if len(idx) else col, idx, dtype
    if dtype is not None:
        from ember.ops.unary import astype

        col = astype(col, dtype)
    out = Series._from_column(col, keys).reindex(index.to_pandas() if isinstance(index, Index) else index)
    return out._column, out._index, None


class Series(
    SeriesCombine, SeriesExtras, SeriesLevels, NDFrame, SeriesReductions, SeriesMissing, SeriesConversion
):
    """A pandas-compatible Series whose values live on the GPU (or the host on the CPU backend).

    ``copy=False`` with a NumPy array shares its memory on the CPU, as pandas (changes to the array
    show in the Series), where ember stores the dtype as it is (numbers, bools, datetimes and
    timedeltas in s / ms / us / ns); on the GPU it is refused. Unlike pandas, setting values in the
    Series (``s.iloc[0] = x``) does not write into the array: ember's columns are immutable, so the
    Series gets new memory of its own."""

    __slots__ = ("_column", "_index", "name")
    _ember_kind = "series"

    def __init__(
        self,
        data: Any = None,
        index: Any = None,
        dtype: Any = None,
        name: Any = None,
        copy: bool | None = None,
    ) -> None:
        from ember.frame.construction import levels_as_multiindex

        index = levels_as_multiindex(index)
        if isinstance(data, pd.Series):  # copied: the pandas Series may change afterwards
            col = from_pandas(data, current_xp(), data.name, copy=True)
            data = Series._from_column(col, index_from_pandas(data.index), data.name)
        if isinstance(data, Series):
            if index is not None:  # pandas aligns a Series on index=
                data = data.reindex(index.to_pandas() if isinstance(index, Index) else index)
            col, idx = data._column, data._index
            name = data.name if name is None else name
        elif isinstance(data, dict):
            keys = list(data.keys())
            idx = ensure_index(keys) if keys else RangeIndex(0)  # pandas: {} has a RangeIndex
            col, dtype = _from_values(list(data.values()), dtype, name)
            if index is not None:
                col, idx, dtype = _dict_on_index(col, idx, dtype, index)
        elif data is None:  # pandas: no data is object, or NaN on each label of index= (float64)
            idx = ensure_index(index, 0 if index is None else len(index))
            col = from_scalar(np.nan, len(idx), current_xp()) if len(idx) else empty_object(current_xp())
        elif pd.api.types.is_scalar(data):  # one row, or broadcast over index=, as pandas
            idx = ensure_index(index, 1 if index is None else len(index))
            if index is None:  # pandas' one row (its unit for NaT differs from a broadcast's)
                col = from_pandas(pd.Series(data), current_xp(), name)
            else:
                col = from_scalar(data, len(idx), current_xp(), name)
        else:
            if name is None and isinstance(data, (Index, pd.Index)) and not isinstance(data, pd.MultiIndex):
                name = data.name  # pandas names a Series made of an Index after it
            col, dtype = _from_values(data, dtype, name, copy)
            idx = ensure_index(index, len(col))
        if dtype is not None:
            from ember.ops.unary import astype

            col = astype(col, dtype)
        self._column = col
        self._index = idx
        self.name = name

    @classmethod
    def _from_column(cls, column: Column, index: Index | None = None, name: Any = None) -> Series:
        obj = object.__new__(cls)
        obj._column = column
        obj._index = RangeIndex(len(column)) if index is None else index
        obj.name = name
        return obj

    def __reduce__(self) -> tuple:
        return (Series._from_column, (self._column, self._index, self.name))

    def _wrap(self, column: Column, name: Any = "__same__") -> Series:
        return Series._from_column(column, self._index, self.name if name == "__same__" else name)

    def _map_columns(self, fn: Any) -> Series:
        return self._wrap(fn(self._column))

    # --- attributes ---------------------------------------------------------------------------
    @property
    def column(self) -> Column:
        return self._column

    @property
    def index(self) -> Index:
        return self._index

    @index.setter
    def index(self, value: Any) -> None:
        self._index = ensure_index(value, len(self))

    @property
    def dtype(self) -> Any:
        return self._column.dtype

    dtypes = dtype

    @property
    def shape(self) -> tuple[int]:
        return (len(self._column),)

    @property
    def size(self) -> int:
        return len(self._column)

    @property
    def ndim(self) -> int:
        return 1

    @property
    def empty(self) -> bool:
        return len(self._column) == 0

    @property
    def hasnans(self) -> bool:
        return bool(self._column.isna().any())

    def __len__(self) -> int:
        return len(self._column)

    @property
    def values(self) -> Any:
        """As pandas: numbers (without missing values) as an array of the backend (CuPy on the GPU, a
        read-only NumPy view on the CPU, as pandas 3); other dtypes as pandas gives them, on the host:
        a NumPy array (datetimes, timedeltas, objects) or pandas' extension array (ArrowStringArray
        of strings, Categorical, IntegerArray of Int64, DatetimeArray of zoned times)."""
        c = self._column
        if isinstance(c, NumericColumn) and c.mask is None and not c.nullable:
            from ember.frame.conversion import host_values

            return host_values(c.data, c)
        return c.to_pandas().values

    @property
    def iloc(self) -> ILocIndexer:
        return ILocIndexer(self)

    @property
    def loc(self) -> LocIndexer:
        return LocIndexer(self)

    @property
    def at(self) -> AtIndexer:
        return AtIndexer(self)

    @property
    def iat(self) -> IAtIndexer:
        return IAtIndexer(self)

    # --- accessors (each in its own module under frame/accessors/) -----------------------------
    @property
    def str(self) -> Any:
        from ember.frame.accessors.strings import string_methods

        return string_methods(self)

    @property
    def dt(self) -> Any:
        from ember.frame.accessors.datetimes import DatetimeMethods

        return DatetimeMethods(self)

    @property
    def cat(self) -> Any:
        from ember.frame.accessors.categorical import CategoricalMethods

        return CategoricalMethods(self)

    def __array_ufunc__(self, ufunc: np.ufunc, method: str, *inputs: Any, **kwargs: Any) -> Any:
        from ember.ops.unary import apply_ufunc

        if method != "__call__" or kwargs.get("out") is not None:
            return NotImplemented
        index = next(i._index for i in inputs if isinstance(i, Series))
        cols = [i._column if isinstance(i, Series) else i for i in inputs]
        result = apply_ufunc(ufunc, *cols)
        if isinstance(result, tuple):
            return tuple(Series._from_column(r, index, self.name) for r in result)
        return Series._from_column(result, index, self.name)

    # --- display ------------------------------------------------------------------------------
    def __repr__(self) -> str:
        """pandas' repr under pandas' display options, from the rows it shows only."""
        from ember.frame.display import series_repr

        return series_repr(self)

    # --- operators ----------------------------------------------------------------------------
    def _binary(self, other: Any, op: str) -> Any:
        return series_binary(self, other, op)

    def __neg__(self) -> Series:
        from ember.ops.unary import negate

        return self._wrap(negate(self._column))

    def __invert__(self) -> Series:
        from ember.ops.unary import invert

        return self._wrap(invert(self._column))

    def __pos__(self) -> Series:
        from ember.ops.object_missing import positive

        return self._wrap(positive(self._column))  # a new Series, as pandas

    def __bool__(self) -> bool:
        raise ValueError(
            "The truth value of a Series is ambiguous. Use a.empty, a.bool(), a.item(), a.any() or a.all()."
        )

    __hash__ = None  # type: ignore[assignment]

    # --- reductions (series_reductions.SeriesReductions), missing data (series_missing.SeriesMissing)
    def _replace_with(self, other: Series) -> None:
        """In-place methods: take ``other``'s values and index (the name stays)."""
        self._column, self._index = other._column, other._index

    # --- uniqueness ---------------------------------------------------------------------------
    def unique(self) -> Any:
        from ember.ops.factorize import unique

        col = unique(self._column)
        if isinstance(col, NumericColumn) and col.mask is None and not col.nullable:
            return col.data
        values = col.to_pandas().array  # masked dtypes too: pandas' IntegerArray / FloatingArray ...
        # pandas: a NumPy array for object data, its extension array for the other dtypes
        return values.to_numpy() if isinstance(values, pd.arrays.NumpyExtensionArray) else values

    def value_counts(
        self,
        normalize: bool = False,
        sort: bool = True,
        ascending: bool = False,
        bins: Any = None,
        dropna: bool = True,
    ) -> Series:
        from ember.ops.factorize import value_counts

        if bins is not None:
            raise unsupported("Series.value_counts", "bins= (pandas' interval labels)")

        uniques, counts = value_counts(
            [self._column], sort=sort, ascending=ascending, dropna=dropna, normalize=normalize
        )
        name = "proportion" if normalize else "count"
        index = Index._from_column(uniques[0], self.name)
        counts = counts if isinstance(counts, Column) else NumericColumn(counts)
        if getattr(self._column, "nullable", False) and isinstance(counts, NumericColumn):
            counts = NumericColumn(counts.data, counts.mask, nullable=True)  # pandas: Int64 / Float64
        return Series._from_column(counts, index, name)

    def replace(
        self, to_replace: Any = None, value: Any = NO_VALUE, *, inplace: bool = False, regex: bool = False
    ) -> Series | None:
        """pandas' replace for values of the column's own kind (``frame/replace.py``)."""
        from ember.frame.replace import replace_series

        out = replace_series(self, to_replace, value, regex)
        if inplace:
            self._column = out._column
            return None
        return out

    def reindex(
        self,
        index: Any = None,
        *,
        axis: Any = None,
        method: Any = None,
        copy: Any = None,
        level: Any = None,
        fill_value: Any = None,
        limit: Any = None,
        tolerance: Any = None,
    ) -> Series:
        """The rows of ``index``'s labels, missing where this Series has none (``frame/reindex.py``)."""
        from ember.frame.reindex import check_options, row_positions, taken

        fill = check_options(method, level, limit, tolerance, "Series.reindex")
        if index is None:
            return self.copy()
        positions, new_index = row_positions(self, index, "Series.reindex", fill)
        return Series._from_column(taken(self._column, positions, fill_value), new_index, self.name)

    def agg(self, func: Any = None, axis: Any = 0, *args: Any, **kwargs: Any) -> Any:
        """Reductions by name: one (a scalar) or a list (a Series indexed by the names)."""
        from ember.frame.aggregate import series_agg

        if args or kwargs:
            raise unsupported("Series.agg", "arguments for the reductions")
        return series_agg(self, func, axis)

    aggregate = agg

    @with_fallback
    def combine(self, other: Any, func: Any, fill_value: Any = None) -> Series:
        """``func`` of each element pair, for builtin max / min, operator arithmetic and NumPy's
        matching ufuncs (vectorised; ``frame/combine_func.py``); other functions are refused."""
        from ember.frame.combine_func import series_combine

        return series_combine(self, other, func, fill_value)

    def combine_first(self, other: Series) -> Series:
        """This Series' values, other's where this one is missing; both on the same labels (other
        labels would need pandas' union of the indexes: refused)."""
        from ember.frame.alignment import indexes_equal

        if not isinstance(other, Series):
            raise unsupported("Series.combine_first", f"a {type(other).__name__} (an ember Series is taken)")
        if not indexes_equal(self.index, other.index):
            raise unsupported(
                "Series.combine_first", "Series on different labels (pandas unites the indexes)"
            )
        both = (self.dtype, other.dtype)
        if self.dtype != other.dtype and len(self) and not self.index.is_unique:
            # pandas takes its union path for two dtypes: a reindex of repeated labels
            raise ValueError("cannot reindex on an axis with duplicate labels")
        if all(isinstance(d, np.dtype) and d.kind in "iuf" for d in both):  # pandas: their common type
            common = np.result_type(*both)
            out = self.astype(common).where(self.notna(), other.astype(common))
            if self.index.dtype == other.index.dtype:
                return out
            # pandas' union path: the labels take the indexes' common type (object for numbers beside
            # times)
            if len(self):
                raise unsupported(
                    "Series.combine_first",
                    f"labels of dtype {self.index.dtype} beside labels of dtype {other.index.dtype}",
                )
            union = self.index.to_pandas().union(other.index.to_pandas())  # no labels: host metadata
            return out.set_axis(index_from_pandas(union))
        if self.dtype != other.dtype:
            raise unsupported("Series.combine_first", f"{self.dtype} beside {other.dtype}")
        return self.where(self.notna(), other)

    def mode(self, dropna: bool = True) -> Series:
        """The most frequent values, sorted (every tie), on a fresh RangeIndex, as pandas."""
        from ember.column import CategoricalColumn, DatetimeColumn, StringColumn, TimedeltaColumn

        col = self._column
        boolean = isinstance(col, NumericColumn) and col.nullable and col.is_bool
        if not dropna and boolean and col.mask is not None:
            if not bool(col.mask.all()):  # pandas fails on the missing value of a 'boolean' column
                raise TypeError("values should be boolean numpy array. Use the 'pd.array' function instead")
        counts = self.value_counts(sort=False, dropna=dropna)
        if len(counts) == 0:
            return self._slice_rows(0, 0).reset_index(drop=True)
        # (a categorical counts its unobserved categories as 0: never a mode)
        best = counts[(counts == counts.max()) & (counts > 0)]
        values = Series._from_column(best.index._column, RangeIndex(len(best)), self.name)
        # pandas sorts a categorical's modes by code, datetimes' by their integers: a missing one first
        first = "first" if isinstance(col, (CategoricalColumn, DatetimeColumn, TimedeltaColumn)) else "last"
        modes = values.sort_values(ignore_index=True, na_position=first)
        found = modes._column
        if isinstance(col, StringColumn) and col.pd_dtype == object and isinstance(found, StringColumn):
            # pandas' modes keep the data's object dtype (no inference, unlike a reordered Series)
            modes = modes._wrap(StringColumn(found.data, found.chars, found.mask, col.pd_dtype, col.na))
        return modes

    def drop_duplicates(self, keep: Any = "first", ignore_index: bool = False) -> Series:
        from ember.ops.factorize import duplicated

        return self._filter_rows(~duplicated([self._column], keep=keep), ignore_index)

    def duplicated(self, keep: Any = "first") -> Series:
        from ember.ops.factorize import duplicated

        return self._wrap(NumericColumn(duplicated([self._column], keep=keep)))

    def factorize(self, sort: bool = False, use_na_sentinel: bool = True) -> tuple[Any, Any]:
        """(codes as a NumPy int64 array, an Index of the uniques), as pandas (codes on the host
        whatever the backend: pandas' codes are a NumPy array)."""
        from ember.backend import to_host
        from ember.ops.factorize import factorize_keys

        codes, uniques, _ = factorize_keys([self._column], sort=sort, dropna=use_na_sentinel)
        return to_host(codes), Index._from_column(uniques[0])

    def explode(self, ignore_index: bool = False) -> Series:
        """One row per list item, the row's label repeated (an empty or missing list: one missing row).
        A Series that holds no lists comes back as a copy, as pandas'."""
        from ember.column.list import ListColumn
        from ember.ops.lists import list_explode

        if not isinstance(self._column, ListColumn):
            out = self.copy()
            return out.reset_index(drop=True) if ignore_index else out
        col, owner = list_explode(self._column)
        index = RangeIndex(len(col)) if ignore_index else self._index.take(owner)
        return Series._from_column(col, index, self.name)

    # --- rows ---------------------------------------------------------------------------------
    def _filter_rows(self, keep: Any, ignore_index: bool = False) -> Series:
        positions = self._column.xp.flatnonzero(keep)
        if positions.shape[0] == len(self):  # every row kept: the same immutable column, no copy
            index = RangeIndex(len(self)) if ignore_index else self._index
            return Series._from_column(self._column, index, self.name)
        return self._take_rows(positions, ignore_index)

    def _take_rows(self, positions: Any, ignore_index: bool = False) -> Series:
        index = RangeIndex(len(positions)) if ignore_index else self._index.take(positions)
        return Series._from_column(self._column.take(positions), index, self.name)

    def _slice_rows(self, start: int, stop: int, step: int = 1) -> Series:
        return Series._from_column(
            self._column.slice(start, stop, step), self._index.slice(start, stop, step), self.name
        )

    def _row_at(self, position: int) -> Any:
        """The value at one position, as pandas returns it (np.float64, str, pd.Timestamp ...)."""
        return self._column.slice(position, position + 1).to_pandas().iloc[0]

    def head(self, n: int = 5) -> Series:
        return self.iloc[:n] if n >= 0 else self.iloc[:n]

    def tail(self, n: int = 5) -> Series:
        return self.iloc[max(len(self) - n, 0) :] if n >= 0 else self.iloc[-n:]

    def __getitem__(self, key: Any) -> Any:
        if callable(key):  # s[lambda s: s > 0], as pandas
            key = key(self)
        if isinstance(key, slice):
            return self.iloc[key]
        if isinstance(key, Series) and key.dtype == bool:
            from ember.frame.indexing import select_rows

            return select_rows(self, key, by_label=True, item="series")
        if isinstance(key, (list, np.ndarray)) or hasattr(key, "__cuda_array_interface__"):
            arr = np.asarray(key) if isinstance(key, list) else key
            if getattr(arr, "dtype", None) is not None and arr.dtype == bool:
                return self.loc[key]
            return self.loc[key]
        return self.loc[key]

    def __setitem__(self, key: Any, value: Any) -> None:
        from ember.frame.indexing import assign

        key = key(self) if callable(key) else key
        assign(self, key, value, by_label=not isinstance(key, slice))  # s[i:j] by position, as s[i:j]

    def __getattr__(self, name: str) -> Any:
        if name in ("str", "dt", "cat"):
            # the accessor property raised AttributeError (wrong dtype): re-raise it from here, where
            # Python lets it reach the caller, with the accessor's own message as pandas does
            return getattr(type(self), name).fget(self)
        return missing_attribute(self, name, pd.Series)

    # --- transformations ----------------------------------------------------------------------
    def astype(self, dtype: Any, copy: bool = True, errors: str = "raise") -> Series:
        from ember.ops.unary import astype

        return self._wrap(astype(self._column, dtype))

    def rename(self, index: Any = None, *, inplace: bool = False) -> Series | None:
        if index is None or np.isscalar(index) or isinstance(index, tuple):
            if inplace:
                self.name = index
                return None
            return Series._from_column(self._column, self._index, index)
        from ember.frame.index import relabel

        renamed = Series._from_column(self._column, relabel(self._index, index), self.name)
        if inplace:
            self._index = renamed._index
            return None
        return renamed

    def reset_index(
        self,
        level: Any = None,
        *,
        drop: bool = False,
        name: Any = _NO_NAME,
        inplace: bool = False,
        allow_duplicates: bool = False,
    ) -> Any:
        """The index levels (all, or ``level``) moved into columns of a frame in front of the values,
        or (``drop=True``) dropped: a RangeIndex where no level is left, as pandas."""
        if drop:  # the frame's rules for the levels: names or positions, checked, one left: an Index
            index = self.to_frame().reset_index(level=level, drop=True).index
            if inplace:
                self._index = index
                return None
            return Series._from_column(self._column, index, self.name)
        if inplace:
            raise TypeError("Cannot reset_index inplace on a Series to create a DataFrame")
        if name is _NO_NAME:
            name = 0 if self.name is None else self.name
        return self.to_frame(name).reset_index(level=level, allow_duplicates=allow_duplicates)

    def droplevel(self, level: Any, axis: Any = 0) -> Series:
        """The Series without index levels ``level`` (positions or names)."""
        from ember.frame.reindex import index_without_levels

        return Series._from_column(self._column, index_without_levels(self._index, level), self.name)

    def set_axis(self, labels: Any, *, axis: Any = 0, copy: Any = None) -> Series:
        from ember.frame.generic import check_axis

        if check_axis("Series.set_axis", axis) != 0:
            raise ValueError(f"No axis named {axis!r} for object type Series")
        return Series._from_column(self._column, ensure_index(labels, len(self)), self.name)

    def sort_values(
        self,
        *,
        axis: Any = 0,
        ascending: Any = True,
        inplace: bool = False,
        kind: str = "quicksort",
        na_position: str = "last",
        ignore_index: bool = False,
        key: Any = None,
    ) -> Series | None:
        """The values in order (stable: ties keep their order), by ``key(self)`` where given."""
        from ember.frame.generic import check_axis
        from ember.ops.sort import argsort

        if check_axis("Series.sort_values", axis) != 0:
            raise ValueError(f"No axis named {axis} for object type Series")
        if pd.api.types.is_list_like(ascending):
            if len(ascending) != 1:
                raise ValueError(f"Length of ascending ({len(ascending)}) must be 1 for Series")
            ascending = ascending[0]
        if not isinstance(ascending, (bool, np.bool_)):
            raise ValueError(
                f'For argument "ascending" expected type bool, received type {type(ascending).__name__}.'
            )
        by = self._column
        if key is not None:
            from ember.frame.frame_ordering import keyed_column

            by = keyed_column(by, self.name, key, "Series.sort_values", self._index)
        order = argsort([by], ascending=bool(ascending), na_position=na_position)
        out = self._sorted_rows(order, ignore_index)
        if inplace:
            self._index, self._column = out.index, out.column
            return None
        return out

    def _sorted_rows(self, order: Any, ignore_index: bool) -> Series:
        out = self._take_rows(order, ignore_index)
        col = self._column
        if col.dtype == object and len(col) > 1:
            from ember.backend import to_host
            from ember.column import StringColumn
            from ember.ops.grouping import inferred_strings

            if not isinstance(col, StringColumn):
                return out
            xp = col.xp
            moved, some = to_host(xp.stack([(order != xp.arange(len(col))).any(), ~col.isna().all()]))
            if moved and some:  # pandas builds a reordered object Series anew: strings infer to str
                out = out._wrap(inferred_strings(out.column))
        return out

    def nlargest(self, n: int = 5, keep: str = "first") -> Series:
        from ember.ops.sort import nlargest_positions

        return self._take_rows(nlargest_positions(self._column, n, keep=keep))

    def nsmallest(self, n: int = 5, keep: str = "first") -> Series:
        from ember.ops.sort import nsmallest_positions

        return self._take_rows(nsmallest_positions(self._column, n, keep=keep))

    def rank(
        self, method: str = "average", ascending: bool = True, na_option: str = "keep", pct: bool = False
    ) -> Series:
        from ember.ops.sort import rank

        return self._wrap(rank(self._column, method, ascending, na_option, pct))

    def map(self, arg: Any, na_action: Any = None) -> Series:
        from ember.frame.apply import map_series

        return map_series(self, arg, na_action)

    def apply(self, func: Any, convert_dtype: Any = None, args: tuple = (), **kwargs: Any) -> Series:
        from ember.frame.apply import map_series

        return map_series(self, func, None, args=args, **kwargs)

    @property
    def _constructor(self) -> type:
        return Series

    @property
    def _constructor_expanddim(self) -> type:
        from ember.frame.dataframe import DataFrame

        return DataFrame

    def groupby(
        self,
        by: Any = None,
        level: Any = None,
        sort: bool = True,
        dropna: bool = True,
        observed: bool = True,
        as_index: bool = True,
        group_keys: bool = True,
    ) -> Any:
        from ember.frame.groupby import SeriesGroupBy

        if not as_index:
            raise TypeError("as_index=False only valid with DataFrame")
        grouped = SeriesGroupBy(
            self, by, level=level, sort=sort, dropna=dropna, as_index=as_index, observed=observed
        )
        grouped.group_keys = group_keys
        return grouped

    def unstack(self, level: Any = -1, fill_value: Any = None, sort: bool = True) -> Any:
        from ember.frame.reshape import unstack

        return unstack(self, level=level, fill_value=fill_value, sort=sort)

    def equals(self, other: Any) -> bool:
        return isinstance(other, Series) and self.to_pandas().equals(other.to_pandas())


def _index_columns(index: Index) -> list[Column]:
    from ember.frame.index import MultiIndex

    return list(index.levels_columns) if isinstance(index, MultiIndex) else [index.column]


def _make_binary(op: str) -> Any:
    """The operator method ``op`` (``__add__`` ...) of a class with ``_binary(other, op)`` (Series, and
    DataFrame through frame_operators)."""

    def method(self: Any, other: Any) -> Any:
        return self._binary(other, op)

    method.__name__ = op
    return method


def _make_named(op: str) -> Any:
    def method(self: Series, other: Any, level: Any = None, fill_value: Any = None, axis: Any = 0) -> Any:
        if axis not in (0, "index", "rows", None):
            raise ValueError(f"No axis named {axis} for object type Series")
        if level is not None:
            raise unsupported(f"Series.{op}", "level=")
        return series_binary(self, other, op, fill_value, flex=True)

    method.__name__ = op
    return method


for _dunder, _op in _BINARY.items():
    setattr(Series, _dunder, _make_binary(_op))
for _name, _op in _NAMED.items():
    setattr(Series, _name, _make_named(_op))
