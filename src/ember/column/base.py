"""The Column: one immutable array of one dtype family, on the device or the host, with a validity mask.

``mask`` is a boolean array (True = valid) or None when the column has no nulls. Float columns that
came from numpy dtypes keep pandas' convention instead: NaN is the missing value and ``mask`` is None;
nullable extension columns (Float64, Int64, boolean) and all other kinds carry the mask.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np

from ember.backend import array_module, asarray_on, to_host


class Unsupported(NotImplementedError):
    """An argument, method or value ember does not implement (eligible for the opt-in pandas fallback).

    Defined in the lowest layer that raises it (columns refuse Python objects pandas keeps in object
    columns); ``ember.frame._fallback`` re-exports it."""


def unsupported_hint() -> str:
    """The sentence that ends every ``Unsupported`` message the pandas fallback can answer."""
    return ' Opt in to running it through pandas with ember.config.set(fallback="pandas").'


class Column:
    """Base class; subclasses define the storage and the pandas/arrow conversions."""

    __slots__ = ("data", "mask", "__weakref__")

    def __init__(self, data: Any, mask: Any = None) -> None:
        self.data = data
        self.mask = mask

    # --- shape and placement -------------------------------------------------------------------
    def __len__(self) -> int:
        return int(self.data.shape[0])

    @property
    def size(self) -> int:
        return len(self)

    @property
    def xp(self) -> ModuleType:
        return array_module(self.data)

    @property
    def on_device(self) -> bool:
        return self.xp is not np

    @property
    def dtype(self) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    @property
    def nbytes(self) -> int:
        return int(sum(a.nbytes for a in self._arrays() if a is not None))

    def _arrays(self) -> tuple[Any, ...]:
        return (self.data, self.mask)

    def _rebuild(self, data: Any, mask: Any) -> Column:
        """A column of the same kind and dtype around new arrays."""
        raise NotImplementedError  # pragma: no cover - abstract

    def to(self, xp: ModuleType) -> Column:
        """The same column with its arrays moved to module ``xp`` (numpy = host, cupy = device)."""
        if xp is self.xp:
            return self
        return self._rebuild(
            asarray_on(self.data, xp), None if self.mask is None else asarray_on(self.mask, xp)
        )

    # --- nulls ---------------------------------------------------------------------------------
    def isna(self) -> Any:
        """Boolean array, True where the value is missing (null, and NaN for numpy float columns)."""
        if self.mask is None:
            return self.xp.zeros(len(self), dtype=bool)
        return ~self.mask

    @property
    def has_nulls_possible(self) -> bool:
        """True when the column may hold missing values (checked without a device sync)."""
        return self.mask is not None

    def null_count(self) -> int:
        """Number of missing values. Synchronizes the device."""
        return int(self.isna().sum())

    def with_mask(self, mask: Any) -> Column:
        return self._rebuild(self.data, mask)

    # --- row selection -------------------------------------------------------------------------
    def take(self, indices: Any) -> Column:
        """Rows at ``indices`` (all in range)."""
        mask = None if self.mask is None else self.mask[indices]
        return self._rebuild(self.data[indices], mask)

    def take_nullable(self, indices: Any) -> Column:
        """Rows at ``indices``, where -1 gives a missing value (for joins and reindexing)."""
        xp = self.xp
        missing = indices < 0
        safe = xp.where(missing, 0, indices) if len(self) else xp.zeros_like(indices)
        if len(self) == 0:  # every index is -1: all missing, stored as set_missing stores them
            n = len(indices)
            return self.empty_like(n).with_mask(None).set_missing(xp.zeros(n, dtype=bool))
        out = self.take(safe)
        valid = ~missing if out.mask is None else out.mask & ~missing
        return out.set_missing(valid)

    def set_missing(self, valid: Any) -> Column:
        """This column with the rows where ``valid`` is False made missing, as pandas would store them."""
        return self.with_mask(valid if self.mask is None else self.mask & valid)

    def filter(self, keep: Any) -> Column:
        """Rows where the boolean array ``keep`` is True."""
        idx = self.xp.flatnonzero(keep)
        return self.take(idx)

    def slice(self, start: int, stop: int, step: int = 1) -> Column:
        mask = None if self.mask is None else self.mask[start:stop:step]
        return self._rebuild(self.data[start:stop:step], mask)

    def empty_like(self, n: int = 0) -> Column:
        """A column of this dtype with ``n`` rows (all missing when n > 0)."""
        xp = self.xp
        data = xp.zeros((n,) + self.data.shape[1:], dtype=self.data.dtype)
        return self._rebuild(data, None if n == 0 else xp.zeros(n, dtype=bool))

    def copy(self) -> Column:
        return self._rebuild(self.data.copy(), None if self.mask is None else self.mask.copy())

    # --- conversions (subclasses) --------------------------------------------------------------
    def to_pandas(self, index: Any = None, name: Any = None) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def to_arrow(self) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def host_mask(self) -> np.ndarray | None:
        return None if self.mask is None else to_host(self.mask)

    def __repr__(self) -> str:
        where = "device" if self.on_device else "host"
        return f"<{type(self).__name__} {self.dtype} len={len(self)} on {where}>"
