"""DataFrame: an ordered mapping of column labels to Columns sharing one Index."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.backend import xp as current_xp
from ember.column import Column, from_any, from_scalar
from ember.frame._fallback import missing_attribute, unsupported, with_fallback
from ember.frame.alignment import align_indexes, indexes_equal
from ember.frame.construction import build_frame
from ember.frame.conversion import FrameConversion, named_axis
from ember.frame.frame_combine import FrameCombine
from ember.frame.frame_extras import FrameExtras
from ember.frame.frame_join_more2 import NO_DEFAULT as JOIN_NO_DEFAULT
from ember.frame.frame_labels import (
    FrameLabels,
    axis_kind,
    inserted_kind,
    kept_kind,
    labelled,
    unique_labels,
)
from ember.frame.frame_levels import FrameLevels
from ember.frame.frame_missing import FrameMissing
from ember.frame.frame_operators import FrameOperators
from ember.frame.frame_ordering import FrameOrdering
from ember.frame.frame_reductions import FrameReductions, labels_index
from ember.frame.frame_reshape_io import FrameReshapeIO
from ember.frame.frame_set_index import FrameSetIndex
from ember.frame.generic import NDFrame, check_axis
from ember.frame.index import Index, RangeIndex, ensure_index
from ember.frame.indexing import AtIndexer, IAtIndexer, ILocIndexer, LocIndexer
from ember.frame.replace import NO_VALUE
from ember.frame.series import Series


class DataFrame(
    FrameCombine,
    FrameExtras,
    FrameLevels,
    FrameOperators,
    NDFrame,
    FrameReductions,
    FrameReshapeIO,
    FrameMissing,
    FrameLabels,
    FrameSetIndex,
    FrameOrdering,
    FrameConversion,
):
    """A pandas-compatible DataFrame whose columns live on the GPU (or the host on the CPU backend)."""

    # _axis_names: the column axis' level names (pandas' ``columns.names``: a pivot's column keys), or None
    # _kind: the column axis' type (an empty pandas Index: frame_labels.axis_kind), or None where pandas
    # infers it from the labels; selections, drops and reorderings keep it (``df[[]]``: pandas' ``str``)
    __slots__ = ("_columns", "_names", "_index", "_axis_names", "_kind")
    _ember_kind = "frame"

    def __init__(
        self,
        data: Any = None,
        index: Any = None,
        columns: Any = None,
        dtype: Any = None,
        copy: bool | None = None,
    ) -> None:
        cols, idx, kind = build_frame(data, index, columns, copy)
        if dtype is not None:
            from ember.ops.unary import astype

            cols = {k: astype(c, dtype) for k, c in cols.items()}
        object.__setattr__(self, "_columns", cols)
        object.__setattr__(self, "_names", list(cols))
        object.__setattr__(self, "_index", idx)
        named = isinstance(data, pd.DataFrame) and columns is None  # a pandas frame's column axis names
        object.__setattr__(self, "_axis_names", _axis_names_of(data.columns) if named else None)
        object.__setattr__(self, "_kind", kind)

    def __reduce__(self) -> tuple:
        return (
            DataFrame._from_columns,
            (dict(self._columns), self._index, self._axis_names, self._kind),
        )

    @classmethod
    def _from_columns(
        cls,
        columns: dict[Any, Column],
        index: Index | None = None,
        axis_names: tuple | None = None,
        kind: pd.Index | None = None,
    ) -> DataFrame:
        """A frame of ``columns`` on the rows of ``index``; ``kind``: the column axis' type (an empty
        pandas Index, ``frame_labels.axis_kind``), None where pandas infers it from the labels."""
        obj = object.__new__(cls)
        n = len(next(iter(columns.values()))) if columns else (len(index) if index is not None else 0)
        object.__setattr__(obj, "_columns", dict(columns))
        object.__setattr__(obj, "_names", list(columns))
        object.__setattr__(obj, "_index", RangeIndex(n) if index is None else index)
        object.__setattr__(obj, "_axis_names", axis_names)
        object.__setattr__(obj, "_kind", kind)
        return obj

    def _with_columns(self, columns: dict[Any, Column]) -> DataFrame:
        """Other columns on the same rows (the column axis keeps its names, as pandas, and its type
        where the labels are this frame's: ``_kind_for``)."""
        return DataFrame._from_columns(columns, self._index, self._axis_names, self._kind_for(columns))

    def _with_rows(self, columns: dict[Any, Column], index: Index) -> DataFrame:
        """The same columns' rows selected or reordered (the column axis keeps its names and type)."""
        return DataFrame._from_columns(columns, index, self._axis_names, self._kind_for(columns))

    def _kind_for(self, labels: Any) -> pd.Index | None:
        """The column axis' type of a frame of ``labels`` made from this one (``kept_kind``): this
        axis' where they are its labels (selected, dropped or reordered), else inferred."""
        return kept_kind(self._names, self._columns, self._kind, list(labels))

    def _add_label(self, label: Any, loc: int | None = None) -> None:
        """Label ``label`` inserted at ``loc`` (appended) in place; its column is set by the caller.
        The axis' type follows as pandas' ``Index.insert`` (``inserted_kind``)."""
        loc = len(self._names) if loc is None else loc
        object.__setattr__(self, "_kind", inserted_kind(self, loc, label))
        self._names.insert(loc, label)

    def _map_columns(self, fn: Any) -> DataFrame:
        return self._with_columns({k: fn(c) for k, c in self._columns.items()})

    def __pos__(self) -> DataFrame:
        from ember.ops.object_missing import positive

        return self._map_columns(positive)  # a new frame; pandas' TypeError for dates, strings

    # --- attributes ---------------------------------------------------------------------------
    @property
    def columns(self) -> pd.Index:
        return named_axis(labels_index(self._names, self._kind), self._axis_names)

    @columns.setter
    def columns(self, new: Any) -> None:
        if (
            type(new) is list
            and new
            and all(isinstance(a, (list, np.ndarray, pd.Index, pd.Series)) for a in new)
        ):
            new = pd.MultiIndex.from_arrays(new)  # a list of arrays names the levels, as pandas' ensure_index
        labels = list(new)
        if len(labels) != len(self._names):
            raise ValueError(
                f"Length mismatch: Expected axis has {len(self._names)} elements, "
                f"new values have {len(labels)} elements"
            )
        cols = labelled(labels, self._columns.values(), "DataFrame.columns")
        object.__setattr__(self, "_columns", cols)
        object.__setattr__(self, "_names", labels)
        object.__setattr__(self, "_axis_names", _axis_names_of(new))
        object.__setattr__(self, "_kind", _kind_of_new_labels(new))

    @property
    def index(self) -> Index:
        return self._index

    @index.setter
    def index(self, value: Any) -> None:
        from ember.frame.construction import levels_as_multiindex

        object.__setattr__(self, "_index", ensure_index(levels_as_multiindex(value), len(self)))

    @property
    def dtypes(self) -> pd.Series:
        return pd.Series([c.dtype for c in self._columns.values()], index=self.columns, dtype=object)

    @property
    def shape(self) -> tuple[int, int]:
        return (len(self), len(self._names))

    @property
    def size(self) -> int:
        return len(self) * len(self._names)

    @property
    def ndim(self) -> int:
        return 2

    @property
    def empty(self) -> bool:
        return len(self) == 0 or not self._names

    def __len__(self) -> int:
        return len(self._index)

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

    def keys(self) -> pd.Index:
        return self.columns

    def items(self):
        for name in self._names:
            yield name, self[name]

    def __iter__(self):
        return iter(self._names)

    def __contains__(self, key: Any) -> bool:
        return self._own_label(key) in self._columns

    def _own_label(self, key: Any) -> Any:
        """``key`` as this frame's column label: a float NaN finds the NaN label, whichever NaN object
        it is (pandas' get_loc matches NaN with NaN); else ``key`` itself."""
        if isinstance(key, (float, np.floating)) and key != key and key not in self._columns:
            return next((k for k in self._names if isinstance(k, (float, np.floating)) and k != k), key)
        return key

    # --- display ------------------------------------------------------------------------------
    def __repr__(self) -> str:
        """pandas' repr under pandas' display options, from the rows and columns it shows only."""
        from ember.frame.display import frame_repr

        return frame_repr(self)

    def _repr_html_(self) -> str | None:
        from ember.frame.display import frame_repr_html

        return frame_repr_html(self)

    # --- selection ----------------------------------------------------------------------------
    def _select_labels(self, key: Any) -> Any:
        if isinstance(key, slice):
            names = self.columns.to_series()
            return list(names.loc[key].index)
        if isinstance(key, tuple) and key in self._columns:  # a whole MultiIndex label
            return key
        if isinstance(key, (list, tuple, pd.Index, np.ndarray)):
            key = [self._own_label(k) for k in key]
            missing = [k for k in key if k not in self._columns]
            if missing:
                raise KeyError(f"{missing} not in index")
            return key
        key = self._own_label(key)
        if key not in self._columns:
            raise KeyError(key)
        return key

    def __getitem__(self, key: Any) -> Any:
        if callable(key):  # df[lambda d: d.x > 0], as pandas
            key = key(self)
        if isinstance(key, Series) and key.dtype == bool:
            from ember.frame.indexing import select_rows

            return select_rows(self, key, by_label=True, item="frame")
        if isinstance(key, Series) or (getattr(key, "ndim", 0) > 0 and getattr(key, "dtype", None) == bool):
            return self.loc[key]
        if isinstance(key, slice):
            return self.iloc[key]
        if isinstance(key, (list, pd.Index, np.ndarray)):
            if len(key) and isinstance(key[0], (bool, np.bool_)):
                return self.loc[list(key)]
            names = self._select_labels(list(key))
            return self._with_columns(labelled(names, [self._columns[k] for k in names], "DataFrame[]"))
        try:
            key = self._own_label(key)
            col = self._columns[key]
        except (KeyError, TypeError):
            from ember.frame.frame_labels import partial_key_columns

            out = partial_key_columns(self, key)
            if out is None:
                raise KeyError(key) from None
            return out
        return Series._from_column(col, self._index, key)

    def __getattr__(self, name: str) -> Any:
        columns = object.__getattribute__(self, "_columns")
        if name in columns:
            return Series._from_column(columns[name], self._index, name)
        return missing_attribute(self, name, pd.DataFrame)

    def __setattr__(self, name: str, value: Any) -> None:
        if name in ("columns", "index"):
            object.__setattr__(self, name, value)
        elif name in self._columns:
            self[name] = value
        else:
            object.__setattr__(self, name, value)

    def __setitem__(self, key: Any, value: Any) -> None:
        if callable(key):
            key = key(self)
        if isinstance(value, dict):  # pandas reads a dict as a Series: its values aligned on the labels
            value = Series(value) if value else Series(value, dtype=object)
        if isinstance(key, list):
            if isinstance(value, DataFrame):
                for k, v in zip(key, value._names):
                    self[k] = value[v]
                return
            for k in key:
                self[k] = value
            return
        if isinstance(key, DataFrame):  # df[df < 0] = 0: a boolean frame picks the cells to set
            self._replace_with(self.mask(key, value))
            return
        if isinstance(key, Series) or getattr(key, "dtype", None) == bool:
            raise unsupported("DataFrame.__setitem__", "a boolean row mask (use df.loc[mask, col] = value)")
        if not len(self._index) and isinstance(value, (Series, list, tuple, np.ndarray)) and len(value):
            self._take_rows_of(value)
        col = self._column_for(value, key)
        if key not in self._columns:
            self._add_label(key)
        self._columns[key] = col

    def _take_rows_of(self, value: Any) -> None:
        """pandas' setitem on a frame without rows: the frame takes the value's index (a Series') or
        a RangeIndex, keeping its own index name, and its columns become missing on those rows."""
        index = value.index if isinstance(value, Series) else RangeIndex(len(value))
        if isinstance(self._index, RangeIndex) and index.dtype != np.int64 and index.dtype.kind == "i":
            index = index.astype(np.int64)  # (pandas' RangeIndex takes integer labels as its own)
        if self._index.name is not None:
            index = index.rename(self._index.name)
        if self._columns:
            absent = index.column.xp.full(len(index), -1, dtype=np.int64)
            self._columns = {k: c.take_nullable(absent) for k, c in self._columns.items()}
        object.__setattr__(self, "_index", index)

    def _column_for(self, value: Any, name: Any) -> Column:
        """A column for ``df[name] = value``: scalars broadcast, Series align on the index."""
        n = len(self)
        if isinstance(value, Series):
            if indexes_equal(value.index, self._index):
                return value.column
            if len(self._index) and not value.index.is_unique:  # pandas reindexes the Series
                raise ValueError("cannot reindex on an axis with duplicate labels")
            _, lpos, rpos = align_indexes(self._index, value.index, how="left")
            if bool((rpos < 0).any()):  # one sync: only a label the Series lacks makes a missing value
                return value.column.take_nullable(rpos)
            return value.column.take(rpos)
        if isinstance(value, DataFrame):
            if len(value._names) != 1:
                raise ValueError(
                    "Cannot set a DataFrame with multiple columns to the single column " + str(name)
                )
            return self._column_for(value[value._names[0]], name)
        if value is None or np.isscalar(value) or isinstance(value, (pd.Timestamp, pd.Timedelta)):
            if not self._names and not len(self._index):
                return from_scalar(value, 0, current_xp(), name)
            return from_scalar(value, n, current_xp(), name)
        if isinstance(value, (list, tuple)) and len(value) == 0:
            value = np.array([], dtype=np.float64)  # pandas' empty list is float64
        col = from_any(value, current_xp(), name)
        if self._names and len(col) != n:
            raise ValueError(f"Length of values ({len(col)}) does not match length of index ({n})")
        if not self._names and len(self._index) == 0:
            object.__setattr__(self, "_index", RangeIndex(len(col)))
        return col

    def _take_rows(self, positions: Any, ignore_index: bool = False) -> DataFrame:
        index = RangeIndex(len(positions)) if ignore_index else self._index.take(positions)
        return self._with_rows({k: c.take(positions) for k, c in self._columns.items()}, index)

    def _slice_rows(self, start: int, stop: int, step: int = 1) -> DataFrame:
        cols = {k: c.slice(start, stop, step) for k, c in self._columns.items()}
        return self._with_rows(cols, self._index.slice(start, stop, step))

    def _filter_rows(self, keep: Any, ignore_index: bool = False) -> DataFrame:
        xp = current_xp() if not self._names else next(iter(self._columns.values())).xp
        positions = xp.flatnonzero(keep)
        if positions.shape[0] == len(self) and self._names:
            # every row kept: the same (immutable) columns, no gathered copy of the frame
            index = RangeIndex(len(self)) if ignore_index else self._index
            return self._with_rows(dict(self._columns), index)
        return self._take_rows(positions, ignore_index)

    def _row_at(self, position: int) -> Series:
        """One row as a Series indexed by the column labels (pandas' df.loc[label])."""
        row = self._slice_rows(position, position + 1).to_pandas().iloc[0]
        row.name = self._index[position]
        if row.dtype == object:
            held = {type(v) for v in row.tolist() if pd.api.types.is_scalar(v) and pd.isna(v)}
            if len(held) > 1:  # ember's object column holds one kind of missing value
                raise unsupported(
                    "DataFrame row access",
                    "a row (object dtype) mixing kinds of missing values (None, NaN, pd.NA), which "
                    "pandas keeps apart",
                )
        try:
            return Series(row)
        except TypeError:
            raise unsupported(
                "DataFrame row access", "a row mixing strings and numbers (object dtype)"
            ) from None

    def head(self, n: int = 5) -> DataFrame:
        return self.iloc[:n]

    def tail(self, n: int = 5) -> DataFrame:
        return self.iloc[max(len(self) - n, 0) :] if n >= 0 else self.iloc[-n:]

    # --- column management --------------------------------------------------------------------
    def assign(self, **kwargs: Any) -> DataFrame:
        out = self.copy(deep=False)
        for name, value in kwargs.items():
            if hasattr(value, "_eval_expression"):  # pandas' pd.col(...) expressions (pandas 3.1)
                value = value._eval_expression(out)
            out[name] = value(out) if callable(value) else value
        return out

    def insert(self, loc: int, column: Any, value: Any, allow_duplicates: bool = False) -> None:
        if column in self._columns:
            if not allow_duplicates:
                raise ValueError(f"cannot insert {column}, already exists")
            unique_labels([*self._names, column], "DataFrame.insert")  # refuses the repeated label
        col = self._column_for(value, column)
        self._add_label(column, loc)
        object.__setattr__(
            self, "_columns", {k: (col if k == column else self._columns[k]) for k in self._names}
        )

    def pop(self, item: Any) -> Series:
        out = self[item]
        del self[item]
        return out

    def __delitem__(self, key: Any) -> None:
        if key not in self._columns:
            raise KeyError(key)
        object.__setattr__(self, "_kind", self._kind_for([k for k in self._names if k != key]))
        del self._columns[key]
        self._names.remove(key)

    def _replace_with(self, other: DataFrame) -> None:
        object.__setattr__(self, "_columns", other._columns)
        object.__setattr__(self, "_names", other._names)
        object.__setattr__(self, "_index", other._index)
        object.__setattr__(self, "_axis_names", other._axis_names)
        object.__setattr__(self, "_kind", other._kind)

    @with_fallback
    def replace(
        self, to_replace: Any = None, value: Any = NO_VALUE, *, inplace: bool = False, regex: bool = False
    ) -> DataFrame | None:
        """pandas' replace for values of each column's own kind (``frame/replace.py``)."""
        from ember.frame.replace import replace_frame

        out = replace_frame(self, to_replace, value, regex)
        if inplace:
            self._replace_with(out)
            return None
        return out

    def transform(self, func: Any, axis: Any = 0, *args: Any, **kwargs: Any) -> DataFrame:
        """``func`` on each column (a function of a Series, or the name of a Series method), which
        must keep the column's length, as pandas' transform."""
        if check_axis("DataFrame.transform", axis) != 0:
            raise unsupported("DataFrame.transform", "axis=1")
        if isinstance(func, (list, dict)):
            raise unsupported("DataFrame.transform", "several functions (columns of two levels)")
        out = {}
        for name in self._names:
            column = self[name]
            result = (
                getattr(column, func)(*args, **kwargs)
                if isinstance(func, str)
                else func(column, *args, **kwargs)
            )
            if not isinstance(result, Series) or len(result) != len(column):
                raise ValueError("Function did not transform")
            if not indexes_equal(result.index, self._index):
                raise ValueError("Function did not transform")
            out[name] = result.column
        return self._with_columns(out)

    @classmethod
    def from_dict(
        cls, data: dict, orient: str = "columns", dtype: Any = None, columns: Any = None
    ) -> DataFrame:
        """As pandas' DataFrame.from_dict (the host data laid out by pandas, then placed on the device)."""
        return cls(pd.DataFrame.from_dict(data, orient=orient, dtype=dtype, columns=columns))

    @classmethod
    def from_records(
        cls, data: Any, index: Any = None, exclude: Any = None, columns: Any = None, **kwargs: Any
    ) -> DataFrame:
        """As pandas' DataFrame.from_records (the host records laid out by pandas, then placed on the device)."""
        return cls(pd.DataFrame.from_records(data, index=index, exclude=exclude, columns=columns, **kwargs))

    def agg(self, func: Any = None, axis: Any = 0, *args: Any, **kwargs: Any) -> Any:
        """Reductions by name: one (a Series over the columns), a list (a frame, a row per name) or a
        dict of column -> name(s) (``frame/aggregate.py``)."""
        from ember.frame.aggregate import frame_agg

        if args or kwargs:
            raise unsupported("DataFrame.agg", "arguments for the reductions")
        return frame_agg(self, func, axis)

    aggregate = agg

    def rename(
        self,
        mapper: Any = None,
        *,
        index: Any = None,
        columns: Any = None,
        axis: Any = None,
        inplace: bool = False,
        errors: str = "ignore",
        copy: Any = None,
        level: Any = None,
    ) -> DataFrame:
        if mapper is not None:
            if check_axis("rename", axis) == 1:
                columns = mapper
            else:
                index = mapper
        out = self
        if index is not None:
            from ember.frame.index import relabel

            if level is not None:
                raise unsupported("rename", "level= of the index labels")
            out = out._with_rows(dict(out._columns), relabel(out._index, index))
        if columns is not None:
            out = out._with_columns(
                labelled(
                    self._renamed_labels(columns, errors, level), out._columns.values(), "DataFrame.rename"
                )
            )
        if inplace:
            self._replace_with(out)
            return None
        return out

    def _renamed_labels(self, columns: Any, errors: str, level: Any) -> list:
        """``rename(columns=)``: each label mapped; under a MultiIndex every part of each tuple (or
        the parts of ``level``), as pandas maps a MultiIndex element by element."""
        fn = columns if callable(columns) else (lambda k: columns.get(k, k))
        names = self._names
        multi = self.columns.nlevels > 1
        if not multi:
            if level not in (None, 0, -1) and level != self.columns.name:
                raise IndexError(f"Too many levels: Index has only 1 level, not {level}")
            if errors == "raise" and isinstance(columns, dict):
                missing = [k for k in columns if k not in self._columns]
                if missing:
                    raise KeyError(f"{missing} not found in axis")
            return [fn(k) for k in names]
        if errors == "raise":
            raise unsupported("rename", "errors='raise' under MultiIndex columns")
        parts = range(len(names[0])) if level is None else [self.columns._get_level_number(level)]
        return [tuple(fn(x) if i in parts else x for i, x in enumerate(k)) for k in names]

    def astype(self, dtype: Any, copy: bool = True, errors: str = "raise") -> DataFrame:
        from ember.ops.unary import astype

        if isinstance(dtype, dict):
            missing = [k for k in dtype if k not in self._columns]
            if missing:
                raise KeyError(
                    "Only a column name can be used for the key in a dtype mappings argument. "
                    f"'{missing[0]}' not found in columns."
                )
            return self._with_columns(
                {k: astype(c, dtype[k]) if k in dtype else c for k, c in self._columns.items()}
            )
        return self._map_columns(lambda c: astype(c, dtype))

    def select_dtypes(self, include: Any = None, exclude: Any = None) -> DataFrame:
        names = list(self.to_pandas_empty().select_dtypes(include=include, exclude=exclude).columns)
        return self[names]

    def to_pandas_empty(self) -> pd.DataFrame:
        """An empty pandas frame with this frame's dtypes (for dtype-based selection)."""
        return pd.DataFrame(
            {k: c.take(c.xp.zeros(0, dtype=np.int64)).to_pandas() for k, c in self._columns.items()}
        )

    def query(self, expr: str, local_dict: dict | None = None) -> DataFrame:
        from ember.frame.query import evaluate

        mask = evaluate(self, expr, local_dict=local_dict, depth=1)
        return self.loc[mask]

    def round(self, decimals: Any = 0, *args: Any, **kwargs: Any) -> DataFrame:
        """pandas' round; an ember Series of places per column is read as pandas' (its labels and
        integers are a few host values), the rounding itself is ``NDFrame.round``."""
        if isinstance(decimals, Series):
            decimals = decimals.to_pandas()
        if isinstance(decimals, pd.Series) and not decimals.index.is_unique:
            raise ValueError("Index of decimals must be unique")
        if isinstance(decimals, (dict, pd.Series)):
            places = list(decimals.values()) if isinstance(decimals, dict) else decimals.tolist()
            if not all(pd.api.types.is_integer(v) for v in places):
                raise TypeError("Values in decimals must be integers")
        return super().round(decimals, *args, **kwargs)

    def eval(self, expr: str, *, inplace: bool = False, local_dict: dict | None = None, **kwargs: Any) -> Any:
        """pandas' eval: an expression of the columns, or ``column = expression`` lines that add
        columns to a copy (to this frame with ``inplace``), ``frame/query.py``."""
        from ember.frame.query import evaluate_assignments

        if kwargs:
            raise unsupported("DataFrame.eval", f"the arguments {sorted(kwargs)}")
        return evaluate_assignments(self, expr, inplace, local_dict=local_dict, depth=1)

    # --- relational ---------------------------------------------------------------------------
    @property
    def _constructor(self) -> type:
        return DataFrame

    @property
    def _constructor_sliced(self) -> type:
        return Series

    def groupby(
        self,
        by: Any = None,
        level: Any = None,
        as_index: bool = True,
        sort: bool = True,
        dropna: bool = True,
        observed: bool = True,
        group_keys: bool = True,
    ) -> Any:
        from ember.frame.groupby import DataFrameGroupBy

        grouped = DataFrameGroupBy(
            self, by, level=level, as_index=as_index, sort=sort, dropna=dropna, observed=observed
        )
        grouped.group_keys = group_keys
        return grouped

    def merge(
        self,
        right: DataFrame,
        how: str = "inner",
        on: Any = None,
        left_on: Any = None,
        right_on: Any = None,
        left_index: bool = False,
        right_index: bool = False,
        sort: bool = False,
        suffixes: tuple = ("_x", "_y"),
        indicator: bool = False,
        validate: Any = None,
    ) -> DataFrame:
        from ember.frame.merge import merge

        return merge(
            self,
            right,
            how=how,
            on=on,
            left_on=left_on,
            right_on=right_on,
            left_index=left_index,
            right_index=right_index,
            sort=sort,
            suffixes=suffixes,
            indicator=indicator,
            validate=validate,
        )

    def join(
        self,
        other: Any,
        on: Any = None,
        how: str = "left",
        lsuffix: Any = JOIN_NO_DEFAULT,
        rsuffix: Any = JOIN_NO_DEFAULT,
        sort: bool = False,
        validate: Any = None,
        *,
        suffixes: Any = JOIN_NO_DEFAULT,
    ) -> DataFrame:
        """pandas' join: ``merge`` on the index (``frame/frame_join_more2.py``)."""
        from ember.frame.frame_join_more2 import join_frame

        return join_frame(self, other, on, how, lsuffix, rsuffix, sort, validate, suffixes)

    # --- elementwise (operators, where/mask and ufuncs: frame_operators.FrameOperators) ------
    def apply(self, func: Any, axis: Any = 0, **kwargs: Any) -> Any:
        from ember.frame.apply import apply_frame

        return apply_frame(self, func, check_axis("apply", axis), **kwargs)

    def map(self, func: Any, na_action: Any = None, **kwargs: Any) -> DataFrame:
        """``func`` of each value, column by column as pandas (keywords passed on to it)."""
        from ember.frame.apply import map_series

        if na_action not in (None, "ignore"):
            raise ValueError(f"na_action must be 'ignore' or None. Got {na_action!r}")
        return self._with_columns(
            {k: map_series(self[k], func, na_action, **kwargs).column for k in self._names}
        )

    applymap = map

    __hash__ = None  # type: ignore[assignment]

    def __bool__(self) -> bool:
        raise ValueError(
            "The truth value of a DataFrame is ambiguous. Use a.empty, a.bool(), a.item(), a.any() or a.all()."
        )

    def equals(self, other: Any) -> bool:
        return isinstance(other, DataFrame) and self.to_pandas().equals(other.to_pandas())


def _kind_of_new_labels(labels: Any) -> pd.Index | None:
    """The column axis' type of ``df.columns = labels``: pandas makes them an Index (a list's type is
    inferred from its labels, an empty one is object)."""
    if isinstance(labels, (list, tuple)):
        return axis_kind(labels)
    if isinstance(labels, Index):
        labels = labels.to_pandas()
    return axis_kind(labels if isinstance(labels, (pd.Index, range)) else pd.Index(labels))


def _axis_names_of(labels: Any) -> tuple | None:
    """The level names a pandas Index carries (None: unnamed, or not an Index)."""
    names = tuple(getattr(labels, "names", ()) or ())
    return names if any(n is not None for n in names) else None
