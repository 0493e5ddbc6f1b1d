"""Categorical columns: int32 codes into a dictionary column of categories (-1 = missing, as pandas).

The categories are a Column themselves (strings, numbers or datetimes), on the same device as the codes.
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from ember.backend import to_host
from ember.column.base import Column

# categories column -> {ordered: pandas dtype}; entries go with the categories column
_PANDAS_DTYPES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _pandas_dtype(categories: Column, ordered: bool) -> pd.CategoricalDtype:
    """Categories are unique by construction here, so pandas' validation (a hash of every category,
    0.1 s per million) is skipped where pandas offers its fast path."""
    values = pd.Index(categories.to_pandas(), copy=False)
    fast = getattr(pd.CategoricalDtype, "_from_fastpath", None)
    return fast(values, ordered) if fast is not None else pd.CategoricalDtype(values, ordered=ordered)


class CategoricalColumn(Column):
    __slots__ = ("categories", "ordered", "_pd_dtype")

    def __init__(self, codes: Any, categories: Column, ordered: bool = False) -> None:
        super().__init__(codes, None)
        self.categories = categories
        self.ordered = ordered
        self._pd_dtype: pd.CategoricalDtype | None = None

    @property
    def codes(self) -> Any:
        return self.data

    @property
    def dtype(self) -> pd.CategoricalDtype:
        # built once per categories column (it copies the categories to the host and pandas checks
        # them for uniqueness): Dask asks for dtypes many times per task, on columns that each
        # operation builds anew around the same categories
        if self._pd_dtype is None:
            by_order = _PANDAS_DTYPES.setdefault(self.categories, {})
            if self.ordered not in by_order:
                by_order[self.ordered] = _pandas_dtype(self.categories, self.ordered)
            self._pd_dtype = by_order[self.ordered]
        return self._pd_dtype

    def _with_codes(self, codes: Any, categories: Column | None = None) -> CategoricalColumn:
        """Same categories (or the same values on another device), new codes; the pandas dtype built
        for this column carries over."""
        out = CategoricalColumn(codes, self.categories if categories is None else categories, self.ordered)
        out._pd_dtype = self._pd_dtype
        return out

    def _rebuild(self, data: Any, mask: Any) -> CategoricalColumn:
        if mask is not None:
            data = self.xp.where(mask, data, -1)
        return self._with_codes(data)

    def to(self, xp: Any) -> CategoricalColumn:
        if xp is self.xp:
            return self
        from ember.backend import asarray_on

        return self._with_codes(asarray_on(self.data, xp), self.categories.to(xp))

    def _arrays(self) -> tuple[Any, ...]:
        return (self.data, *self.categories._arrays())

    def isna(self) -> Any:
        return self.data < 0

    @property
    def has_nulls_possible(self) -> bool:
        return True

    def set_missing(self, valid: Any) -> CategoricalColumn:
        return self._with_codes(self.xp.where(valid, self.data, -1))

    def decode(self) -> Column:
        """The values as a plain column of the categories' dtype (missing where code is -1)."""
        return self.categories.take_nullable(self.data.astype(np.int64))

    def to_pandas(self, index: Any = None, name: Any = None) -> pd.Series:
        values = pd.Categorical.from_codes(to_host(self.data), dtype=self.dtype)
        return pd.Series(values, index=index, name=name, copy=False)

    def to_arrow(self) -> pa.Array:
        codes = to_host(self.data)
        return pa.DictionaryArray.from_arrays(
            pa.array(codes, mask=codes < 0), self.categories.to_arrow(), ordered=self.ordered
        )
