"""Index, RangeIndex and MultiIndex: row labels held as Columns (RangeIndex as three integers)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.backend import to_host
from ember.backend import xp as current_xp
from ember.column import CategoricalColumn, Column, NumericColumn, concat_columns, from_any, from_pandas
from ember.frame.index_accessors import IndexAccessors
from ember.frame.index_methods import IndexMethods
from ember.frame.index_methods_extra import IndexMethodsExtra, MultiIndexExtra
from ember.frame.index_methods_more import IndexMethodsMore
from ember.frame.index_operators import IndexOperators
from ember.frame.multiindex_methods import MultiIndexMethods
from ember.frame.multiindex_more import MultiIndexMore

_NO_NAME = object()  # to_frame(name=) not given: the Index name, or 0


class Index(IndexMethodsExtra, IndexOperators, IndexAccessors, IndexMethods, IndexMethodsMore):
    """Row labels of any column dtype."""

    __slots__ = ("_column", "name")

    def __init__(self, data: Any = None, name: Any = None, dtype: Any = None) -> None:
        if isinstance(data, Index):
            name = data.name if name is None else name
            data = data.column
        if isinstance(data, (pd.Index, pd.Series)) or _is_ember_series(data):
            name = data.name if name is None else name
        if _is_ember_series(data):
            data = data.column  # its values, on its device (not through the array protocols)
        if data is None or pd.api.types.is_scalar(data):
            raise TypeError(f"Index(...) must be called with a collection of some kind, {data!r} was passed")
        if isinstance(data, range):  # pandas: a RangeIndex, int64 labels even when empty
            data = np.arange(data.start, data.stop, data.step, dtype=np.int64)
        col = from_any(data, current_xp(), name)
        if dtype is not None:
            from ember.ops.unary import astype

            col = astype(col, dtype)
        self._column = col
        self.name = name
        if isinstance(col, CategoricalColumn):  # pandas: categorical labels are a CategoricalIndex
            self.__class__ = _categorical_index()

    @classmethod
    def _from_column(cls, column: Column, name: Any = None) -> Index:
        obj = object.__new__(_categorical_index() if isinstance(column, CategoricalColumn) else Index)
        obj._column = column
        obj.name = name
        return obj

    @property
    def column(self) -> Column:
        return self._column

    @property
    def names(self) -> list:
        return [self.name]

    @property
    def nlevels(self) -> int:
        return 1

    def __len__(self) -> int:
        return len(self._column)

    @property
    def size(self) -> int:
        return len(self)

    @property
    def shape(self) -> tuple[int]:
        return (len(self),)

    @property
    def dtype(self) -> Any:
        return self._column.dtype

    @property
    def empty(self) -> bool:
        return len(self) == 0

    def to_pandas(self) -> pd.Index:
        return pd.Index(self._column.to_pandas(), name=self.name, copy=False)

    def to_numpy(self) -> np.ndarray:
        return self.to_pandas().to_numpy()

    def tolist(self) -> list:
        return self.to_pandas().tolist()

    to_list = tolist

    @property
    def values(self) -> Any:
        return self.to_numpy()

    def take(self, positions: Any) -> Index:
        return Index._from_column(self._column.take(positions), self.name)

    def take_nullable(self, positions: Any) -> Index:
        return Index._from_column(self._column.take_nullable(positions), self.name)

    def slice(self, start: int, stop: int, step: int = 1) -> Index:
        return Index._from_column(self._column.slice(start, stop, step), self.name)

    def append(self, other: Index) -> Index:
        return Index._from_column(concat_columns([self.column, other.column]), self.name)

    def rename(self, name: Any) -> Index:
        return Index._from_column(self._column, name)

    def copy(self) -> Index:
        return Index._from_column(self._column, self.name)

    def equals(self, other: Any) -> bool:
        """Same labels in the same order (synchronizes the device)."""
        if not isinstance(other, Index) or len(self) != len(other):
            return False
        if isinstance(self, RangeIndex) and isinstance(other, RangeIndex):
            return len(self) == 0 or (self.start, self.step) == (other.start, other.step)
        return self.to_pandas().equals(other.to_pandas())

    def get_indexer(self, labels: Any) -> np.ndarray:
        """Host positions of ``labels`` (-1 when absent). Copies the index to the host: label lookups
        are for loc/at with a few labels, not a bulk path."""
        return self.to_pandas().get_indexer(pd.Index(labels))

    def get_loc(self, label: Any) -> Any:
        """Where ``label`` is, as pandas: an int when it appears once, a slice when its rows are
        together in a sorted index, else a boolean mask (NumPy); KeyError when absent. Compared on
        the device; one sync for the positions, one more for a repeated label (is the index sorted).
        Date strings on a datetime index (partial dates select periods) are resolved by pandas."""
        from ember.column import DatetimeColumn, TimedeltaColumn
        from ember.ops.binary import binary_op

        if not pd.api.types.is_hashable(label) or isinstance(label, slice):
            raise pd.errors.InvalidIndexError(label)
        col = self.column
        if isinstance(label, str) and isinstance(col, (DatetimeColumn, TimedeltaColumn)):
            return self.to_pandas().get_loc(label)
        if isinstance(label, (bool, np.bool_)) != (isinstance(col, NumericColumn) and col.is_bool):
            if isinstance(col, NumericColumn) or isinstance(label, (bool, np.bool_)):
                raise KeyError(label)  # pandas: True is no label of a numeric index, nor 1 of a bool one
        if pd.api.types.is_scalar(label) and pd.isna(label):
            if not _missing_label_matches(col, label):
                raise KeyError(label)
            mask = col.isna()
        else:
            try:
                hit = binary_op(col, label, "eq")
            except (TypeError, ValueError):
                raise KeyError(label) from None
            mask = hit.data if hit.mask is None else hit.data & hit.mask
        positions = to_host(col.xp.flatnonzero(mask))
        if len(positions) == 0:
            raise KeyError(label)
        if len(positions) == 1:
            return int(positions[0])
        if self.is_monotonic_increasing:
            return slice(int(positions[0]), int(positions[-1]) + 1)
        found = np.zeros(len(self), dtype=bool)
        found[positions] = True
        return found

    @property
    def is_monotonic_increasing(self) -> bool:
        """Whether each label is >= the one before (False with a missing label). One sync."""
        from ember.ops.binary import binary_op

        col, n = self.column, len(self)
        if n < 2:
            return not bool(col.isna().any()) if n else True
        ge = binary_op(col.slice(1, n), col.slice(0, n - 1), "ge")
        ok = ge.data if ge.mask is None else ge.data & ge.mask
        return bool(ok.all() & ~col.isna().any())

    def __iter__(self):
        return iter(self.tolist())

    def __reduce__(self) -> tuple:
        return (Index._from_column, (self._column, self.name))

    def to_frame(self, index: bool = True, name: Any = _NO_NAME) -> Any:
        from ember.frame.dataframe import DataFrame

        label = name if name is not _NO_NAME else (0 if self.name is None else self.name)
        cols = {label: self.column}
        return DataFrame._from_columns(cols, self if index else RangeIndex(len(self)))

    def astype(self, dtype: Any, copy: bool = True) -> Index:
        from ember.column.dtypes import resolve
        from ember.ops.categorical import to_categorical
        from ember.ops.unary import astype

        target = resolve(dtype)
        if isinstance(target, pd.CategoricalDtype) and self.column.dtype == object:
            # pandas' CategoricalIndex keeps an object Index's categories object
            return Index._from_column(to_categorical(self.column, target, infer=False), self.name)
        return Index._from_column(astype(self.column, target), self.name)

    def min(self, skipna: bool = True) -> Any:
        from ember.ops.reductions import reduce

        return reduce(self.column, "min", skipna=skipna)

    def max(self, skipna: bool = True) -> Any:
        from ember.ops.reductions import reduce

        return reduce(self.column, "max", skipna=skipna)

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, (int, np.integer)):
            n = len(self)
            if not -n <= key < n:
                raise IndexError(f"index {key} is out of bounds for axis 0 with size {n}")
            pos = int(key) % n
            return self.slice(pos, pos + 1).to_pandas()[0]  # one label to the host, not the whole index
        if isinstance(key, slice):
            from ember.frame.indexing import slice_bounds

            return self.slice(*slice_bounds(key, len(self)))
        return index_from_pandas(self.to_pandas()[to_host(key) if hasattr(key, "__len__") else key])

    def __repr__(self) -> str:
        from ember.frame.display import index_repr

        return index_repr(self)

    def __eq__(self, other: Any) -> Any:  # elementwise, like pandas
        return self.to_pandas() == (other.to_pandas() if isinstance(other, Index) else other)

    __hash__ = None  # type: ignore[assignment]


class RangeIndex(Index):
    """The default index: start/stop/step, materialized on the device only when a column is needed."""

    __slots__ = ("start", "stop", "step", "_cached")

    def __init__(self, start: int = 0, stop: int | None = None, step: int = 1, name: Any = None) -> None:
        if stop is None:
            start, stop = 0, start
        self.start, self.stop, self.step = int(start), int(stop), int(step)
        self.name = name
        self._cached = None

    @property
    def _column(self) -> Column:  # type: ignore[override]
        if self._cached is None:
            self._cached = NumericColumn(
                current_xp().arange(self.start, self.stop, self.step, dtype=np.int64)
            )
        return self._cached

    def __len__(self) -> int:
        return len(range(self.start, self.stop, self.step))

    @property
    def dtype(self) -> np.dtype:
        return np.dtype("int64")

    @classmethod
    def from_range(cls, data: range, name: Any = None, dtype: Any = None) -> RangeIndex:
        r = pd.RangeIndex.from_range(data, name=name, dtype=dtype)  # pandas checks data and dtype
        return RangeIndex(r.start, r.stop, r.step, name=name)

    def to_pandas(self) -> pd.RangeIndex:
        return pd.RangeIndex(self.start, self.stop, self.step, name=self.name)

    def slice(self, start: int, stop: int, step: int = 1) -> RangeIndex:
        r = range(self.start, self.stop, self.step)[start:stop:step]
        return RangeIndex(r.start, r.stop, r.step, name=self.name)

    def rename(self, name: Any) -> RangeIndex:
        return RangeIndex(self.start, self.stop, self.step, name)

    def take(self, positions: Any) -> Index:
        # pandas keeps a RangeIndex where the taken labels are evenly spaced; none taken is the
        # one case known without reading the positions back
        if len(positions) == 0:
            return RangeIndex(0, 0, 1, name=self.name)
        return RangeTakenIndex.of(self._column.take(positions), self.name, self.step)

    def copy(self) -> RangeIndex:
        return self.rename(self.name)

    def get_indexer(self, labels: Any) -> np.ndarray:
        return self.to_pandas().get_indexer(pd.Index(labels))

    def __reduce__(self) -> tuple:
        return (RangeIndex, (self.start, self.stop, self.step, self.name))

    def get_loc(self, label: Any) -> Any:
        return self.to_pandas().get_loc(label)  # arithmetic on a lazy pandas RangeIndex


class RangeTakenIndex(Index):
    """Labels taken from a RangeIndex (rows selected or reordered). pandas gives a RangeIndex again
    where they are evenly spaced (one label: a range of the source's step), which decides names and
    types of later label joins: ``to_pandas`` does so from the host copy, ``as_range`` on the device
    (one sync) where a join asks."""

    __slots__ = ("_source_step",)

    @classmethod
    def of(cls, column: Column, name: Any, source_step: int) -> RangeTakenIndex:
        obj = object.__new__(cls)
        obj._column, obj.name, obj._source_step = column, name, source_step
        return obj

    def take(self, positions: Any) -> Index:
        if len(positions) == 0:
            return RangeIndex(0, 0, 1, name=self.name)
        return RangeTakenIndex.of(self._column.take(positions), self.name, self._source_step)

    def slice(self, start: int, stop: int, step: int = 1) -> Index:
        return RangeTakenIndex.of(self._column.slice(start, stop, step), self.name, self._source_step)

    def rename(self, name: Any) -> Index:
        return RangeTakenIndex.of(self._column, name, self._source_step)

    def copy(self) -> Index:
        return self.rename(self.name)

    def as_range(self, values: Any = None) -> range | None:
        """The labels as a range where evenly spaced (pandas' maybe_sequence_to_range), else None."""
        v = self._column.data if values is None else values
        n = int(v.shape[0])
        if n == 0:
            return range(0)
        if n == 1:
            first = int(v[0])
            return range(first, first + self._source_step, self._source_step)
        step = v[1:] - v[:-1]
        first_step = int(step[0])
        if first_step == 0 or not bool((step == first_step).all()):
            return None
        return range(int(v[0]), int(v[-1]) + first_step, first_step)

    def to_pandas(self) -> pd.Index:
        values = to_host(self._column.data)
        r = self.as_range(values)
        if r is None:
            return pd.Index(values, name=self.name, copy=False)
        return pd.RangeIndex(r.start, r.stop, r.step, name=self.name)


class MultiIndex(MultiIndexExtra, MultiIndexMore, MultiIndexMethods, Index):
    """Several levels of labels (one Column each), as groupby with several keys produces."""

    __slots__ = ("levels_columns", "_names", "_levels")

    def __init__(
        self,
        levels: Any = None,
        codes: Any = None,
        sortorder: Any = None,
        names: Any = None,
        copy: bool = False,
        name: Any = None,
        verify_integrity: bool = True,
    ) -> None:
        """pandas' ``MultiIndex(levels, codes, sortorder, names, ...)``; inside ember also
        ``MultiIndex(columns, names, levels)``: one Column per level, the labels in row order."""
        if _are_columns(levels):  # ember's own form: (columns, names, levels)
            columns, names, levels = levels, codes, sortorder
        else:  # pandas checks levels and codes; the labels then move to the device once
            built = index_from_pandas(
                pd.MultiIndex(
                    levels=_host_levels(levels),
                    codes=codes,
                    sortorder=sortorder,
                    names=names,
                    copy=copy,
                    name=name,
                    verify_integrity=verify_integrity,
                )
            )
            columns, names, levels = built.levels_columns, built._names, built._levels
        self.levels_columns = list(columns)
        self._names = list(names)
        self.name = None
        # pandas' levels (host pandas Indexes) where they may hold labels no row uses any more: kept
        # from pandas' MultiIndex and through row selections, as pandas keeps them; None: derived
        self._levels = levels

    @property
    def _column(self) -> Column:  # type: ignore[override]
        raise TypeError("a MultiIndex has one column per level; use .levels_columns")

    @property
    def names(self) -> list:
        return list(self._names)

    @names.setter
    def names(self, values: Any) -> None:
        if not pd.api.types.is_list_like(values) or len(values) != self.nlevels:
            raise ValueError("Length of names must match number of levels in MultiIndex.")
        self._names = list(values)

    @property
    def nlevels(self) -> int:
        return len(self.levels_columns)

    def __len__(self) -> int:
        return len(self.levels_columns[0]) if self.levels_columns else 0

    @property
    def dtype(self) -> Any:
        return np.dtype(object)

    def to_pandas(self) -> pd.MultiIndex:
        arrays = [c.to_pandas() for c in self.levels_columns]
        if self._levels is not None:
            codes = [level.get_indexer(values) for level, values in zip(self._levels, arrays)]
            if all(((c >= 0) | pd.isna(v)).all() for c, v in zip(codes, arrays)):
                return pd.MultiIndex(
                    levels=self._levels, codes=codes, names=self._names, verify_integrity=False
                )
        return pd.MultiIndex.from_arrays(arrays, names=self._names)

    def take(self, positions: Any) -> MultiIndex:
        return MultiIndex([c.take(positions) for c in self.levels_columns], self._names, self._levels)

    def take_nullable(self, positions: Any) -> MultiIndex:
        cols = [c.take_nullable(positions) for c in self.levels_columns]
        return MultiIndex(cols, self._names, self._levels)

    def slice(self, start: int, stop: int, step: int = 1) -> MultiIndex:
        cols = [c.slice(start, stop, step) for c in self.levels_columns]
        return MultiIndex(cols, self._names, self._levels)

    def append(self, other: Index) -> MultiIndex:
        assert isinstance(other, MultiIndex)
        cols = [concat_columns([a, b]) for a, b in zip(self.levels_columns, other.levels_columns)]
        levels = None
        if self._levels is not None or other._levels is not None:  # pandas: each level's union
            pairs = zip(self.to_pandas().levels, other.to_pandas().levels)
            levels = [a.union(b) for a, b in pairs]
        return MultiIndex(cols, self._names, levels)

    def rename(self, names: Any, *, level: Any = None) -> MultiIndex:
        if level is not None:
            return self.set_names(names, level=level)
        if not pd.api.types.is_list_like(names):
            raise TypeError("Must pass list-like as `names`.")
        if len(names) != self.nlevels:
            raise ValueError("Length of names must match number of levels in MultiIndex.")
        return MultiIndex(self.levels_columns, list(names), self._levels)

    def copy(self) -> MultiIndex:
        return MultiIndex(self.levels_columns, self._names, self._levels)

    def __reduce__(self) -> tuple:
        return (MultiIndex, (self.levels_columns, self._names, self._levels))

    def get_loc(self, label: Any) -> Any:
        return self.to_pandas().get_loc(label)

    def astype(self, dtype: Any, copy: bool = True) -> Index:
        """pandas: only ``object`` (the same MultiIndex); categories are not implemented."""
        dtype = pd.api.types.pandas_dtype(dtype)
        if isinstance(dtype, pd.CategoricalDtype):
            raise NotImplementedError("> 1 ndim Categorical are not supported at this time")
        if dtype != np.dtype(object):
            raise TypeError("Setting a MultiIndex dtype to anything other than object is not supported")
        return self.copy()


def _categorical_index() -> type:
    from ember.frame.categorical_index import CategoricalIndex

    return CategoricalIndex


def _are_columns(obj: Any) -> bool:
    """Whether a MultiIndex is built from ember Columns (ember's form) rather than pandas' levels."""
    return isinstance(obj, (list, tuple)) and bool(obj) and all(isinstance(c, Column) for c in obj)


def _host_levels(levels: Any) -> Any:
    """pandas' ``levels=`` from what a user passes: ember Indexes and Series go to the host."""
    if levels is None or not pd.api.types.is_list_like(levels):
        return levels
    return [lv.to_pandas() if isinstance(lv, Index) or _is_ember_series(lv) else lv for lv in levels]


def _is_ember_series(obj: Any) -> bool:
    return getattr(obj, "_ember_kind", "") == "series"


def _missing_label_matches(col: Column, label: Any) -> bool:
    """Which missing-value labels pandas' get_loc finds in an index with missing values: NaN in a
    float (also masked) or non-numeric index, pd.NA in a masked or non-numeric one, None and NaT in
    a non-numeric one (a numeric index holds no None / NaT)."""
    from ember.column import DatetimeColumn, TimedeltaColumn

    if isinstance(label, np.datetime64) and isinstance(col, TimedeltaColumn):
        return False
    if isinstance(label, np.timedelta64) and isinstance(col, DatetimeColumn):
        return False
    if not isinstance(col, NumericColumn):
        return True
    if label is pd.NA:
        return col.nullable
    if isinstance(label, (float, np.floating)):
        return not col.nullable or col.data.dtype.kind == "f"
    return False


def index_from_pandas(idx: pd.Index) -> Index:
    """An ember index for a pandas index (RangeIndex stays lazy)."""
    if isinstance(idx, pd.RangeIndex):
        return RangeIndex(idx.start, idx.stop, idx.step, name=idx.name)
    if isinstance(idx, pd.MultiIndex):
        xp = current_xp()
        cols = [from_pandas(idx.get_level_values(i), xp) for i in range(idx.nlevels)]
        return MultiIndex(cols, list(idx.names), list(idx.levels))
    return Index._from_column(from_pandas(idx, current_xp()), idx.name)


def ensure_index(obj: Any, n: int | None = None) -> Index:
    """An Index from what a user passes as ``index=``; checks its length against ``n``."""
    if obj is None:
        return RangeIndex(n or 0)
    if isinstance(obj, Index):
        index = obj
    elif isinstance(obj, pd.Index):
        index = index_from_pandas(obj)
    elif isinstance(obj, range):
        index = RangeIndex(obj.start, obj.stop, obj.step)
    else:
        index = Index(obj)
    if n is not None and len(index) != n:
        raise ValueError(f"Length of values ({n}) does not match length of index ({len(index)})")
    return index


def _dict_renamer(mapper: dict) -> Any:
    def rename(label: Any) -> Any:
        return mapper[label] if label in mapper else label

    return rename


def relabel(index: Any, mapper: Any) -> Any:
    """``rename(index=mapper)``: the labels mapped by a dict (labels it does not name stay; on the
    device for a one-level index) or by a function of one label (on the host, as pandas)."""
    from ember.frame.series import _index_columns
    from ember.ops.missing import where
    from ember.ops.unary import astype, isin, map_values

    if isinstance(index, MultiIndex) or (callable(mapper) and not isinstance(mapper, dict)):
        # a function of one label at a time (every part of a MultiIndex label), as pandas calls it:
        # the labels are mapped on the host by pandas' own label transform
        if isinstance(mapper, dict):
            mapper = _dict_renamer(mapper)
        elif not callable(mapper):
            raise TypeError(f"rename: index= takes a dict or a function, got {type(mapper).__name__}")
        return index_from_pandas(index.to_pandas()._transform_index(mapper))
    col = _index_columns(index)[0]
    if isinstance(mapper, dict):
        named = isin(col, list(mapper)).data
        new = where(map_values(col, mapper), named, col)
        whole = all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in mapper.values())
        if isinstance(col, NumericColumn) and col.data.dtype.kind in "iu" and col.mask is None and whole:
            new = astype(new, col.data.dtype)  # ints renamed to ints stay ints (the map made floats)
    else:
        raise TypeError(f"rename: index= takes a dict or a function, got {type(mapper).__name__}")
    return Index._from_column(new, index.name)
