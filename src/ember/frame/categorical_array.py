"""``Categorical``: pandas' 1-D categorical array, held as one CategoricalColumn (codes on the device,
categories a small Column beside them).

The category edits, comparisons and reductions are the ones ``Series.cat`` and categorical Series use
(ops.categorical, ops.binary, ops.reductions); this class only gives them pandas' Categorical surface.
Conversions that hand Python values to the user (``tolist``, iteration, ``np.asarray``, ``repr``) copy
the values to the host, as pandas' own objects live there.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ember.backend import asarray_on, to_host
from ember.backend import xp as current_xp
from ember.column import CategoricalColumn, Column, from_any, from_pandas
from ember.ops import categorical as C

_COMPARISONS = {
    "__eq__": "eq",
    "__ne__": "ne",
    "__lt__": "lt",
    "__le__": "le",
    "__gt__": "gt",
    "__ge__": "ge",
}


def resolve_dtype(values: Any, categories: Any, ordered: Any, dtype: Any) -> pd.CategoricalDtype | None:
    """pandas' checks of ``categories`` / ``ordered`` / ``dtype`` beside the values' own dtype (host
    metadata: ``values`` is a Column or None); None when none of them is given."""
    if categories is None and ordered is None and dtype is None:
        return None
    if hasattr(categories, "to_pandas"):
        categories = categories.to_pandas()
    proxy = None  # an empty pandas Categorical of the values' dtype: pandas reads only its dtype
    if isinstance(values, CategoricalColumn):
        proxy = pd.Categorical.from_codes(np.zeros(0, dtype=np.int8), dtype=values.dtype)
    return pd.CategoricalDtype._from_values_or_dtype(proxy, categories, ordered, dtype)


def categorical_column(values: Any, categories: Any = None, ordered: Any = None, dtype: Any = None) -> Any:
    """The CategoricalColumn pandas' ``Categorical(values, categories, ordered, dtype)`` holds."""
    col = values_column(values)
    target = resolve_dtype(col, categories, ordered, dtype)
    if target is None:
        return col if isinstance(col, CategoricalColumn) else _inferred(col, values)
    if target.categories is None:  # ordered= or dtype="category" alone: inferred categories
        col = col if isinstance(col, CategoricalColumn) else _inferred(col, values)
        return C.with_ordered(col, bool(target.ordered))
    return C.to_categorical(col, target)


def _inferred(col: Column, values: Any) -> CategoricalColumn:
    """Sorted distinct values as categories; pandas drops a list's missing values before typing it,
    so a list of only None / NaN / NA has float64 categories."""
    if isinstance(values, (list, tuple)) and values and len(col) and bool(col.isna().all()):
        if not any(v is pd.NaT for v in values):
            empty = from_pandas(pd.Series([], dtype=np.float64), col.xp)
            return CategoricalColumn(col.xp.full(len(col), -1, dtype=np.int32), empty, False)
    out = C.to_categorical(col)
    if isinstance(values, (list, tuple)) and out.categories.dtype.kind == "f" and bool(col.isna().any()):
        kept = pd.Series([v for v in values if not (pd.api.types.is_scalar(v) and pd.isna(v))])
        if kept.dtype.kind in "iu":  # [3, None]: pandas types the list without its missing values
            from ember.ops.unary import astype

            out = CategoricalColumn(out.codes, astype(out.categories, kept.dtype), out.ordered)
    return out


def values_column(values: Any) -> Column:
    """The values as a Column, on the current device."""
    xp = current_xp()
    if isinstance(values, Column):
        return values.to(xp)
    if hasattr(values, "_ember_column"):
        return values._ember_column().to(xp)
    if getattr(values, "_ember_kind", "") == "series" or hasattr(values, "column"):
        return values.column.to(xp)
    if not pd.api.types.is_list_like(values):
        raise TypeError("Categorical input must be list-like")
    if isinstance(values, (pd.Series, pd.Index, pd.api.extensions.ExtensionArray)):
        return from_pandas(values, xp, copy=True)
    return from_any(values, xp)


class Categorical:
    """pandas' ``Categorical``: values taken from a fixed set of categories (optionally ordered)."""

    __slots__ = ("_column",)
    __array_priority__ = 1000
    ndim = 1

    def __init__(
        self,
        values: Any,
        categories: Any = None,
        ordered: Any = None,
        dtype: Any = None,
        copy: bool = True,
    ) -> None:
        self._column = categorical_column(values, categories, ordered, dtype)

    @classmethod
    def _from_column(cls, column: CategoricalColumn) -> Categorical:
        obj = object.__new__(cls)
        obj._column = column
        return obj

    def _ember_column(self) -> CategoricalColumn:
        return self._column

    @property
    def column(self) -> CategoricalColumn:
        return self._column

    @classmethod
    def from_codes(
        cls, codes: Any, categories: Any = None, ordered: Any = None, dtype: Any = None, validate: bool = True
    ) -> Categorical:
        """pandas' ``Categorical.from_codes``: codes (-1 missing) into ``categories``."""
        target = resolve_dtype(None, categories, ordered, dtype)
        if target is None or target.categories is None:
            raise ValueError("The categories must be provided in 'categories' or 'dtype'. Both were None.")
        xp = current_xp()
        data = checked_codes(codes, xp)
        ncat = len(target.categories)
        if validate and len(data) and bool(((data < -1) | (data >= ncat)).any()):
            raise ValueError("codes need to be between -1 and len(categories)-1")
        cats = from_pandas(pd.Series(target.categories, copy=False), xp, copy=True)
        return cls._from_column(CategoricalColumn(data.astype(np.int32), cats, bool(target.ordered)))

    # --- attributes ----------------------------------------------------------------------------------
    @property
    def categories(self) -> Any:
        from ember.frame.index import Index

        return Index._from_column(self._column.categories)

    @property
    def codes(self) -> np.ndarray:
        """The codes as pandas gives them: a read-only NumPy array of the smallest integer dtype."""
        out = np.asarray(to_host(C.codes_column(self._column).data))
        out.setflags(write=False)
        return out

    @property
    def ordered(self) -> bool:
        return self._column.ordered

    @property
    def dtype(self) -> pd.CategoricalDtype:
        return self._column.dtype

    @property
    def shape(self) -> tuple[int]:
        return (len(self),)

    @property
    def size(self) -> int:
        return len(self)

    def __len__(self) -> int:
        return len(self._column)

    # --- category edits (ops.categorical, as Series.cat) ----------------------------------------------------
    def _wrap(self, col: CategoricalColumn) -> Categorical:
        return type(self)._from_column(col)

    def add_categories(self, new_categories: Any) -> Categorical:
        return self._wrap(C.add_categories(self._column, new_categories))

    def remove_categories(self, removals: Any) -> Categorical:
        return self._wrap(C.remove_categories(self._column, removals))

    def rename_categories(self, new_categories: Any) -> Categorical:
        return self._wrap(C.rename_categories(self._column, new_categories))

    def reorder_categories(self, new_categories: Any, ordered: Any = None) -> Categorical:
        return self._wrap(C.reorder_categories(self._column, new_categories, ordered))

    def set_categories(self, new_categories: Any, ordered: Any = None, rename: bool = False) -> Categorical:
        return self._wrap(C.set_categories(self._column, new_categories, ordered, rename))

    def remove_unused_categories(self) -> Categorical:
        return self._wrap(C.remove_unused_categories(self._column))

    def as_ordered(self) -> Categorical:
        return self._wrap(C.with_ordered(self._column, True))

    def as_unordered(self) -> Categorical:
        return self._wrap(C.with_ordered(self._column, False))

    # --- selection -------------------------------------------------------------------------------
    def __getitem__(self, key: Any) -> Any:
        col = self._column
        if isinstance(key, (int, np.integer)) and not isinstance(key, (bool, np.bool_)):
            n = len(col)
            if not -n <= key < n:
                raise IndexError(f"index {key} is out of bounds for axis 0 with size {n}")
            pos = int(key) % n
            return col.slice(pos, pos + 1).to_pandas().iloc[0]  # one value to the host
        if isinstance(key, slice):
            from ember.frame.indexing import slice_bounds

            return self._wrap(col.slice(*slice_bounds(key, len(col))))
        return self._wrap(col.take(positions_of(key, len(col), col.xp)))

    def __setitem__(self, key: Any, value: Any) -> None:
        """Sets codes in a new codes array (the column, which Series may share, is left as it was)."""
        col = self._column
        codes = col.codes.copy()
        if isinstance(key, slice):
            target = key
        elif isinstance(key, (int, np.integer)):
            target = int(key)
        else:
            target = positions_of(key, len(col), col.xp)
        codes[target] = new_codes(col, value, col.xp)
        self._column = col._with_codes(codes)

    def __iter__(self):
        return iter(self.tolist())

    # --- comparisons --------------------------------------------------------------------------------
    def _compare(self, other: Any, op: str) -> Any:
        from ember.ops.binary import binary_op

        if isinstance(other, Categorical):
            other = _matched(self._column, other._column)
        elif not pd.api.types.is_scalar(other) and hasattr(other, "to_pandas"):
            return NotImplemented  # Series / Index: their own comparison (pandas gives theirs)
        elif pd.api.types.is_list_like(other):
            other = values_column(other)
        out = binary_op(self._column, other, op)
        return out.data if out.mask is None else out.data & out.mask

    def __hash__(self) -> int:
        raise TypeError(f"unhashable type: '{type(self).__name__}'")

    # --- reductions and values ---------------------------------------------------------------------------
    def min(self, *, skipna: bool = True, **kwargs: Any) -> Any:
        from ember.ops.reductions import reduce

        return reduce(self._column, "min", skipna=skipna)

    def max(self, *, skipna: bool = True, **kwargs: Any) -> Any:
        from ember.ops.reductions import reduce

        return reduce(self._column, "max", skipna=skipna)

    def unique(self) -> Categorical:
        """Distinct values in order of appearance; the categories stay (pandas 2+)."""
        from ember.ops.factorize import unique

        return self._wrap(unique(self._column))

    def value_counts(self, dropna: bool = True) -> Any:
        """Counts per category, in the categories' order (missing last unless ``dropna``)."""
        from ember.frame.series import Series

        out = Series._from_column(self._column).value_counts(dropna=dropna, sort=False)
        return out.rename("count")

    def searchsorted(self, value: Any, side: str = "left", sorter: Any = None) -> Any:
        """Insertion points of ``value`` (categories, or missing) among the codes, as pandas
        searches them: an int64 array on the column's device, a NumPy integer for a scalar."""
        from ember.frame._fallback import unsupported

        if sorter is not None:
            raise unsupported("Categorical.searchsorted", "sorter=")
        if side not in ("left", "right"):
            raise ValueError(f"side must be 'left' or 'right', got {side!r}")
        col = self._column
        needles = new_codes(col, value, col.xp)
        if not pd.api.types.is_list_like(value):  # one position to the host, not the codes
            one = col.xp.searchsorted(col.codes, col.xp.asarray([needles], dtype=np.int32), side=side)
            return np.int64(to_host(one)[0])
        return col.xp.searchsorted(col.codes, needles, side=side).astype(np.int64)

    def isna(self) -> Any:
        return self._column.isna()

    isnull = isna

    def notna(self) -> Any:
        return ~self._column.isna()

    notnull = notna

    def copy(self) -> Categorical:
        return self._wrap(self._column)

    def to_pandas(self) -> pd.Categorical:
        return pd.Categorical.from_codes(to_host(self._column.codes), dtype=self._column.dtype)

    def to_numpy(self, dtype: Any = None, copy: bool = False, na_value: Any = None) -> np.ndarray:
        """The values as a NumPy array (copied to the host)."""
        kwargs = {} if na_value is None else {"na_value": na_value}
        return self.to_pandas().to_numpy(dtype=dtype, copy=copy, **kwargs)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return np.asarray(self.to_pandas(), dtype=dtype)

    def tolist(self) -> list:
        return self.to_pandas().tolist()

    to_list = tolist

    def __repr__(self) -> str:
        return categorical_repr(self._column)

    def __reduce__(self) -> tuple:
        return (Categorical._from_column, (self._column,))


def _comparison(op: str) -> Any:
    def method(self: Categorical, other: Any) -> Any:
        return self._compare(other, op)

    method.__name__ = f"__{op}__"
    return method


for _name, _op in _COMPARISONS.items():
    setattr(Categorical, _name, _comparison(_op))


def _matched(mine: CategoricalColumn, other: CategoricalColumn) -> CategoricalColumn:
    """``other`` on ``mine``'s categories where pandas compares them: unordered categoricals whose
    categories are the same set in another order."""
    if mine.ordered or other.ordered or hash(mine.dtype) != hash(other.dtype):
        return other
    return C.set_categories(other, C.categories_index(mine))


def checked_codes(codes: Any, xp: Any) -> Any:
    """``from_codes``' codes as an integer array on ``xp``, with pandas' errors for others."""
    from ember.column import NumericColumn
    from ember.frame._fallback import unsupported

    if hasattr(codes, "_ember_column") or hasattr(codes, "column"):
        col = values_column(codes)
        if not isinstance(col, NumericColumn):
            raise unsupported("Categorical.from_codes", f"codes of dtype {col.dtype}")
        if col.mask is not None and bool((~col.mask).any()):
            raise ValueError("codes cannot contain NA values")
        data = col.data
    elif hasattr(codes, "__cuda_array_interface__"):
        data = codes
    else:  # host values: pandas' own checks
        if isinstance(codes, (pd.Series, pd.Index)):
            codes = codes.array
        if isinstance(codes, pd.api.extensions.ExtensionArray) and pd.api.types.is_integer_dtype(codes.dtype):
            if pd.isna(codes).any():
                raise ValueError("codes cannot contain NA values")
            codes = codes.to_numpy(dtype=np.int64)
        data = np.asarray(codes)
    if len(data) and data.dtype.kind not in "iu":
        raise ValueError("codes need to be array-like integers")
    return asarray_on(data, xp).astype(np.int64) if len(data) else xp.zeros(0, dtype=np.int64)


def positions_of(key: Any, n: int, xp: Any) -> Any:
    """Integer positions (on ``xp``) of a list / array of positions or a boolean mask."""
    if hasattr(key, "_ember_column") or getattr(key, "_ember_kind", "") == "series":
        key = values_column(key).data
    arr = key if hasattr(key, "dtype") and not isinstance(key, pd.api.extensions.ExtensionArray) else None
    if arr is None:
        arr = np.asarray(list(key) if not isinstance(key, np.ndarray) else key)
        if arr.size == 0:
            arr = arr.astype(np.int64)
    if arr.dtype == bool:
        if len(arr) != n:
            raise IndexError(f"Boolean index has wrong length: {len(arr)} instead of {n}")
        return xp.flatnonzero(asarray_on(arr, xp))
    if arr.dtype.kind not in "iu":
        raise IndexError(
            "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or "
            "boolean arrays are valid indices"
        )
    pos = asarray_on(arr, xp).astype(np.int64)
    if len(pos) and bool(((pos < -n) | (pos >= n)).any()):
        raise IndexError(f"index out of bounds for axis 0 with size {n}")
    return xp.where(pos < 0, pos + n, pos)


def new_codes(col: CategoricalColumn, value: Any, xp: Any) -> Any:
    """Codes of values set into ``col``: each must be one of its categories or missing (pandas'
    TypeError otherwise). Categories are small and on the host, as are a user's values."""
    cats = C.categories_index(col)
    if isinstance(value, Categorical):
        value = value.tolist()
    many = pd.api.types.is_list_like(value)
    values = list(value) if many else [value]
    found = cats.get_indexer(pd.Index(values, dtype=object)) if values else np.array([], dtype=np.intp)
    missing = np.array([pd.api.types.is_scalar(v) and pd.isna(v) for v in values], dtype=bool)
    bad = (found < 0) & ~missing
    if bad.any():
        raise TypeError(
            "Cannot setitem on a Categorical with a new category "
            f"({values[int(np.flatnonzero(bad)[0])]}), set the categories first"
        )
    codes = np.where(missing, -1, found).astype(np.int32)
    return asarray_on(codes, xp) if many else int(codes[0])


def categorical_repr(col: CategoricalColumn) -> str:
    """pandas' repr of a Categorical, gathering only the values it shows to the host."""
    n = len(col)
    shown = max(10, pd.get_option("display.max_rows") or n) // 2 + 1
    if n <= 2 * shown:
        return repr(pd.Categorical.from_codes(to_host(col.codes), dtype=col.dtype))
    xp = col.xp
    pos = asarray_on(np.concatenate([np.arange(shown), np.arange(n - shown, n)]), xp)
    small = pd.Categorical.from_codes(to_host(col.codes[pos]), dtype=col.dtype)
    return repr(small).replace(f"Length: {2 * shown}", f"Length: {n}", 1)
