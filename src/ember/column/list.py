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

    __slots__ = ("values", "na")

    def __init__(self, offsets: Any, values: StringColumn, mask: Any = None, na: Any = np.nan) -> None:
        super().__init__(offsets, mask)
        self.values = values
        self.na = na

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
        return ListColumn(self.data, self.values, mask, self.na)

    def to(self, xp: Any) -> ListColumn:
        if xp is self.xp:
            return self
        mask = None if self.mask is None else asarray_on(self.mask, xp)
        return ListColumn(asarray_on(self.data, xp), self.values.to(xp), mask, self.na)

    def copy(self) -> ListColumn:
        mask = None if self.mask is None else self.mask.copy()
        return ListColumn(self.data.copy(), self.values.copy(), mask, self.na)

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
        return ListColumn(offsets, self.values.take(items), mask, self.na)

    def slice(self, start: int, stop: int, step: int = 1) -> ListColumn:
        return self.take(self.xp.arange(len(self))[start:stop:step])

    def empty_like(self, n: int = 0) -> ListColumn:
        xp = self.xp
        mask = None if n == 0 else xp.zeros(n, dtype=bool)
        return ListColumn(xp.zeros(n + 1, dtype=np.int64), self.values.empty_like(0), mask, self.na)

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
            out[i] = items[offs[i] : offs[i + 1]] if valid[i] else self.na
        return pd.Series(out, index=index, name=name, dtype=object, copy=False)

    def to_numpy(self) -> np.ndarray:
        return self.to_pandas().to_numpy()


def list_na(pd_dtype: Any) -> Any:
    """The missing-row marker pandas gives list results of a string column of dtype ``pd_dtype``."""
    if pd_dtype == object:
        return None
    if isinstance(pd_dtype, pd.StringDtype) and pd_dtype.na_value is pd.NA:
        return pd.NA
    return np.nan
