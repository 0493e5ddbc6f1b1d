"""Categorical columns: int32 codes into a dictionary column of categories (-1 = missing, as pandas).

The categories are a Column themselves (strings, numbers or datetimes), on the same device as the codes.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from ember.backend import to_host
from ember.column.base import Column


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
        # built once per column (it copies the categories to the host): Dask asks for dtypes often
        if self._pd_dtype is None:
            self._pd_dtype = pd.CategoricalDtype(self.categories.to_pandas(), ordered=self.ordered)
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
