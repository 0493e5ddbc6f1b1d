"""Numeric and boolean columns: ints, uints, floats and bool, optionally pandas-nullable (Int64 ...)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from ember.backend import to_host
from ember.column.base import Column
from ember.column.dtypes import masked_extension_for


class NumericColumn(Column):
    """``data`` holds the values; ``nullable`` marks pandas' masked dtypes (Int64, Float64, boolean).

    Without ``nullable``, float columns mark missing values with NaN (mask None), as numpy-backed
    pandas does; int and bool columns may still carry a mask (e.g. after a left join), and convert to
    pandas as float64 / object then, as pandas itself would have made them. A bool column with a mask
    is pandas' object column of True / False and missing values: its ``dtype`` says object, and ``na``
    is the missing value it gives back (None for ``pd.Series([True, None])``, NaN where pandas
    introduced it: reindex, shift).
    """

    __slots__ = ("nullable", "na")

    def __init__(self, data: Any, mask: Any = None, nullable: bool = False, na: Any = np.nan) -> None:
        super().__init__(data, mask)
        self.nullable = nullable
        self.na = na

    @property
    def dtype(self) -> Any:
        if self.nullable:
            return masked_extension_for(self.data.dtype)
        if self.mask is not None and self.data.dtype.kind == "b":
            return np.dtype(object)  # what to_pandas gives: True / False with missing values
        return self.data.dtype

    @property
    def is_float(self) -> bool:
        return self.data.dtype.kind == "f"

    @property
    def is_bool(self) -> bool:
        return self.data.dtype.kind == "b"

    def _rebuild(self, data: Any, mask: Any) -> NumericColumn:
        return NumericColumn(data, mask, self.nullable, self.na)

    def isna(self) -> Any:
        xp = self.xp
        if self.is_float and not self.nullable:  # in Float64, NaN is a value; only the mask is missing
            nan = xp.isnan(self.data)
            return nan if self.mask is None else nan | ~self.mask
        return super().isna()

    @property
    def has_nulls_possible(self) -> bool:
        return self.mask is not None or self.is_float

    def set_missing(self, valid: Any) -> Column:
        """pandas' storage for introduced missing values: NaN in numpy floats, float64 for numpy ints."""
        xp = self.xp
        if self.nullable:
            return super().set_missing(valid)
        if self.is_float or self.data.dtype.kind in "iu":
            data = self.data if self.is_float else self.data.astype(np.float64)
            if self.mask is not None:
                valid = valid & self.mask
            return NumericColumn(xp.where(valid, data, xp.nan), None)
        out = super().set_missing(valid)
        out.na = np.nan  # pandas introduces NaN into the object column
        return out

    def filled(self, value: Any) -> Any:
        """``data`` with missing values replaced by ``value`` (NaN stays NaN in floats)."""
        if self.mask is None:
            return self.data
        return self.xp.where(self.mask, self.data, value)

    # --- conversions ---------------------------------------------------------------------------
    def to_numpy(self, na_value: Any = None) -> np.ndarray:
        """Host array; missing values become NaN (floats, ints) or ``na`` (bool -> object)."""
        data = to_host(self.data)
        if self.mask is None:
            return data
        mask = to_host(self.mask)
        if na_value is None:
            if data.dtype.kind in "iuf":
                out = data.astype(np.float64 if data.dtype.kind != "f" else data.dtype)
                out[~mask] = np.nan
                return out
            out = data.astype(object)
            out[~mask] = self.na
            return out
        out = data.copy()
        out[~mask] = na_value
        return out

    def to_pandas(self, index: Any = None, name: Any = None) -> pd.Series:
        if self.nullable:
            data = to_host(self.data)
            missing = np.zeros(len(data), bool) if self.mask is None else ~to_host(self.mask)
            arr = _masked_array(data, missing, self.dtype)  # not pd.array: that would turn NaN into NA
            return pd.Series(arr, index=index, name=name, copy=False)
        values = self.to_numpy()
        return pd.Series(values, index=index, name=name, copy=False)

    def to_arrow(self) -> pa.Array:
        data = to_host(self.data)
        mask = None if self.mask is None else ~to_host(self.mask)
        if self.is_float and not self.nullable:
            return pa.array(data, from_pandas=True, mask=mask)
        return pa.array(data, mask=mask)


def is_numeric_column(c: Column) -> bool:
    """pandas' ``numeric_only`` test: numbers and bools. A bool column with a mask is pandas' object
    column of True / False and missing values, which numeric_only leaves out."""
    return isinstance(c, NumericColumn) and c.dtype != object


def _masked_array(data: np.ndarray, missing: np.ndarray, dtype: Any) -> Any:
    cls = (
        pd.arrays.BooleanArray
        if data.dtype.kind == "b"
        else (pd.arrays.FloatingArray if data.dtype.kind == "f" else pd.arrays.IntegerArray)
    )
    return cls(data, missing)
