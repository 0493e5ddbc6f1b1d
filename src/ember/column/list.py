"""List-of-strings columns in the Arrow large_list layout: int64 offsets (n + 1) into a child string
column, plus a validity mask. They hold what pandas returns as Python lists in an object Series
(``str.split(expand=False)``, ``str.findall``) and convert to exactly that; ``.str.get/len/join`` and
``Series.explode`` work on them on the device.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from ember.backend import asarray_on, to_host
from ember.column.base import Column
from ember.column.string import StringColumn


class ListColumn(Column):
    """``data`` is the offsets array, ``values`` the child StringColumn; ``na`` the missing marker that
    pandas puts in the object Series (NaN for ``str`` sources, ``pd.NA`` for ``string``, None for object)."""

    __slots__ = ("values", "na", "as_arrays")

    def __init__(
        self, offsets: Any, values: StringColumn, mask: Any = None, na: Any = np.nan, as_arrays: bool = False
    ) -> None:
        super().__init__(offsets, mask)
        self.values = values
        self.na = na
        self.as_arrays = as_arrays  # cells as NumPy object arrays (what pyarrow's to_pandas gives)

    @property
    def offsets(self) -> Any:
        return self.data

    def __len__(self) -> int:
        return int(self.data.shape[0]) - 1

    @property
    def dtype(self) -> Any:
        return np.dtype(object)

    def _arrays(self) -> tuple[Any, ...]:
        return (self.data, self.mask, *self.values._arrays())

    def lengths(self) -> Any:
        """Number of items in each list."""
        return self.data[1:] - self.data[:-1]

    def with_mask(self, mask: Any) -> ListColumn:
        return ListColumn(self.data, self.values, mask, self.na, self.as_arrays)

    def to(self, xp: Any) -> ListColumn:
        if xp is self.xp:
            return self
        mask = None if self.mask is None else asarray_on(self.mask, xp)
        return ListColumn(asarray_on(self.data, xp), self.values.to(xp), mask, self.na, self.as_arrays)

    def copy(self) -> ListColumn:
        mask = None if self.mask is None else self.mask.copy()
        return ListColumn(self.data.copy(), self.values.copy(), mask, self.na, self.as_arrays)

    def take(self, indices: Any) -> ListColumn:
        """Rows at ``indices``: new offsets by a scan of the lengths, items by one gather. One sync."""
        from ember.backend.primitives import repeat_positions

        xp = self.xp
        indices = xp.asarray(indices)
        starts = self.data[:-1][indices]
        counts = self.data[1:][indices] - starts
        offsets = xp.zeros(len(indices) + 1, dtype=np.int64)
        xp.cumsum(counts, out=offsets[1:])
        total = int(offsets[-1])
        owner = repeat_positions(counts, offsets[1:], total)
        items = starts[owner] + (xp.arange(total, dtype=np.int64) - offsets[:-1][owner])
        mask = None if self.mask is None else self.mask[indices]
        return ListColumn(offsets, self.values.take(items), mask, self.na, self.as_arrays)

    def slice(self, start: int, stop: int, step: int = 1) -> ListColumn:
        return self.take(self.xp.arange(len(self))[start:stop:step])

    def empty_like(self, n: int = 0) -> ListColumn:
        xp = self.xp
        mask = None if n == 0 else xp.zeros(n, dtype=bool)
        values = self.values.empty_like(0)
        return ListColumn(xp.zeros(n + 1, dtype=np.int64), values, mask, self.na, self.as_arrays)

    # --- conversions ---------------------------------------------------------------------------
    def to_arrow(self) -> pa.Array:
        offsets = pa.array(to_host(self.data), type=pa.int64())
        mask = None if self.mask is None else pa.array(~to_host(self.mask))
        return pa.LargeListArray.from_arrays(offsets, self.values.to_arrow(), mask=mask)

    def to_pandas(self, index: Any = None, name: Any = None) -> pd.Series:
        items = self.values.to_pandas().tolist()
        offs = to_host(self.data).tolist()
        valid = np.ones(len(self), dtype=bool) if self.mask is None else to_host(self.mask)
        out = np.empty(len(self), dtype=object)
        for i in range(len(self)):  # one Python list per row: what pandas holds
            if not valid[i]:
                out[i] = self.na
            else:
                cell = items[offs[i] : offs[i + 1]]
                out[i] = np.array(cell, dtype=object) if self.as_arrays else cell
        return pd.Series(out, index=index, name=name, dtype=object, copy=False)

    def to_numpy(self) -> np.ndarray:
        return self.to_pandas().to_numpy()

    @classmethod
    def from_arrow(
        cls, arr: Any, xp: Any, na: Any = np.nan, pd_dtype: Any = None, as_arrays: bool = False
    ) -> ListColumn:
        """From a pyarrow list (or large_list) of strings; slices and chunks handled."""
        if isinstance(arr, pa.ChunkedArray):
            arr = arr.combine_chunks() if arr.num_chunks != 1 else arr.chunk(0)
        arr = arr.cast(pa.large_list(pa.large_string()))
        offsets = arr.offsets.to_numpy().astype(np.int64)
        first, last = int(offsets[0]), int(offsets[-1])
        values = StringColumn.from_arrow(arr.values.slice(first, last - first), xp, pd_dtype)
        valid = arr.is_valid().to_numpy(zero_copy_only=False) if arr.null_count else None
        mask = None if valid is None else asarray_on(np.asarray(valid, dtype=bool), xp)
        return cls(asarray_on(offsets - first, xp), values, mask, na, as_arrays)


def list_na(pd_dtype: Any, na: Any = None) -> Any:
    """The missing-row marker pandas gives list results of a string column of dtype ``pd_dtype``
    (an object column's own missing value ``na``: NaN stays NaN, pd.NA stays NA)."""
    if pd_dtype == object:
        return na
    if isinstance(pd_dtype, pd.StringDtype) and pd_dtype.na_value is pd.NA:
        return pd.NA
    return np.nan
