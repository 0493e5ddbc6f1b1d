"""String columns in the Arrow large_string layout: int64 offsets (n + 1) and UTF-8 bytes.

Both arrays live on the device on the GPU backend. Conversion to/from pyarrow is zero-copy on the host.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from ember.backend import asarray_on, to_host
from ember.column.base import Column, Unsupported, unsupported_hint
from ember.column.dtypes import default_string_dtype


class StringColumn(Column):
    """``data`` is the offsets array, ``chars`` the UTF-8 bytes; ``pd_dtype`` the pandas dtype to give
    back (pandas' default ``str``, ``string`` or ``object``).

    ``na`` is the value an ``object`` column gives back where one is missing: pandas keeps the ``None``,
    ``NaN`` or ``pd.NA`` its data held (``pd.Series([None, None])`` holds None), and introduces NaN
    (reindex, where); one marker per column, so a column whose data mixed them gives NaN for all."""

    __slots__ = ("chars", "pd_dtype", "na")

    def __init__(
        self, offsets: Any, chars: Any, mask: Any = None, pd_dtype: Any = None, na: Any = np.nan
    ) -> None:
        super().__init__(offsets, mask)
        self.chars = chars
        self.pd_dtype = default_string_dtype() if pd_dtype is None else pd_dtype
        self.na = na

    @property
    def offsets(self) -> Any:
        return self.data

    def __len__(self) -> int:
        return int(self.data.shape[0]) - 1

    @property
    def dtype(self) -> Any:
        return self.pd_dtype

    def _arrays(self) -> tuple[Any, ...]:
        return (self.data, self.chars, self.mask)

    def _rebuild(self, data: Any, mask: Any) -> StringColumn:  # pragma: no cover - strings override users
        raise TypeError("string columns are rebuilt from offsets and chars")

    def with_mask(self, mask: Any) -> StringColumn:
        return StringColumn(self.data, self.chars, mask, self.pd_dtype, self.na)

    def set_missing(self, valid: Any) -> StringColumn:
        """Rows where ``valid`` is False made missing; pandas fills them with NaN (reindex, where) and
        an object column keeps its own None / NaT / pd.NA rows: both at once refused (one marker per
        column). One sync, only for an object column holding such a marker."""
        out = super().set_missing(valid)
        out.na = np.nan
        if self.pd_dtype != np.dtype(object) or isinstance(self.na, float) or self.mask is None:
            return out
        introduced, held = to_host(self.xp.stack([(~valid).any(), (valid & ~self.mask).any()])).tolist()
        if introduced and held:
            raise Unsupported(
                f"NaN (pandas' new missing values) beside an object column's own {self.na!r} is not "
                "supported by ember (one missing marker per column)." + unsupported_hint()
            )
        out.na = np.nan if introduced else self.na
        return out

    def to(self, xp: Any) -> StringColumn:
        if xp is self.xp:
            return self
        mask = None if self.mask is None else asarray_on(self.mask, xp)
        return StringColumn(
            asarray_on(self.data, xp), asarray_on(self.chars, xp), mask, self.pd_dtype, self.na
        )

    def copy(self) -> StringColumn:
        mask = None if self.mask is None else self.mask.copy()
        return StringColumn(self.data.copy(), self.chars.copy(), mask, self.pd_dtype, self.na)

    def lengths(self) -> Any:
        """Byte length of each value."""
        return self.data[1:] - self.data[:-1]

    def take(self, indices: Any) -> StringColumn:
        """Gather rows (``backend.primitives.take_strings``). Synchronizes once (the byte count)."""
        from ember.backend.primitives import take_strings

        indices = self.xp.asarray(indices)
        offsets, chars = take_strings(self.data, self.chars, indices)
        mask = None if self.mask is None else self.mask[indices]
        return StringColumn(offsets, chars, mask, self.pd_dtype, self.na)

    def slice(self, start: int, stop: int, step: int = 1) -> StringColumn:
        if step != 1:
            n = len(self)
            return self.take(self.xp.arange(n)[start:stop:step])
        start, stop, _ = slice(start, stop).indices(len(self))
        stop = max(stop, start)
        offs = self.data[start : stop + 1]  # at least one offset: an empty slice starts at 0 too
        ends = to_host(offs[[0, len(offs) - 1]])  # one transfer
        base, end = int(ends[0]), int(ends[1])
        mask = None if self.mask is None else self.mask[start:stop]
        return StringColumn(offs - base, self.chars[base:end], mask, self.pd_dtype, self.na)

    def empty_like(self, n: int = 0) -> StringColumn:
        xp = self.xp
        return StringColumn(
            xp.zeros(n + 1, dtype=np.int64),
            xp.zeros(0, dtype=np.uint8),
            None if n == 0 else xp.zeros(n, dtype=bool),
            self.pd_dtype,
        )

    # --- conversions ---------------------------------------------------------------------------
    def to_arrow(self) -> pa.Array:
        n = len(self)
        validity = None
        if self.mask is not None:
            validity = pa.py_buffer(np.packbits(to_host(self.mask), bitorder="little"))
        return pa.LargeStringArray.from_buffers(
            n, pa.py_buffer(to_host(self.data)), pa.py_buffer(to_host(self.chars)), validity
        )

    def to_pandas(self, index: Any = None, name: Any = None) -> pd.Series:
        arr = self.to_arrow()
        if self.pd_dtype == object:
            values = arr.to_numpy(zero_copy_only=False)
            if self.mask is not None:
                values[~to_host(self.mask)] = self.na
            return pd.Series(values, index=index, name=name, dtype=object, copy=False)
        target = self.pd_dtype
        values = target.__from_arrow__(pa.chunked_array([arr]))
        return pd.Series(values, index=index, name=name, copy=False)

    def to_numpy(self) -> np.ndarray:
        values = self.to_arrow().to_numpy(zero_copy_only=False)
        return values

    @classmethod
    def from_arrow(cls, arr: Any, xp: Any, pd_dtype: Any = None, na: Any = np.nan) -> StringColumn:
        """From a pyarrow string/large_string array (chunks combined); zero-copy on the host."""
        if isinstance(arr, pa.ChunkedArray):
            arr = arr.combine_chunks() if arr.num_chunks != 1 else arr.chunk(0)
        if arr.type != pa.large_string():
            arr = arr.cast(pa.large_string())
        n = len(arr)
        bufs = arr.buffers()
        offsets = np.frombuffer(bufs[1], dtype=np.int64, count=n + 1, offset=arr.offset * 8)
        first, last = int(offsets[0]), int(offsets[-1])
        chars = (
            np.frombuffer(bufs[2], dtype=np.uint8)[first:last]
            if bufs[2] is not None and last > first
            else np.zeros(0, np.uint8)
        )
        if first:
            offsets = offsets - first
        mask = None
        if arr.null_count:
            mask = np.asarray(arr.is_valid().to_numpy(zero_copy_only=False), dtype=bool)
        return cls(
            asarray_on(offsets, xp),
            asarray_on(chars, xp),
            None if mask is None else asarray_on(mask, xp),
            pd_dtype,
            na,
        )
