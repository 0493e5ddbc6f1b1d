"""Decimal columns: what pandas holds as an object column of ``decimal.Decimal`` values.

pandas meets decimals through Arrow (``read_parquet`` of decimal128 / decimal64 gives Python
``Decimal`` objects) or builds them from Python values. ember stores them as fixed-point numbers: the
unscaled integers in an int64 array (``data``), one ``scale`` for the column (every value has the
exponent ``-scale``, as the Decimals a decimal128(p, s) column gives; pandas' ``str()`` of a Decimal
shows its exponent, so values of different exponents are refused rather than normalised), the
``precision`` of the source type (at most 18 digits: int64), a validity mask and the missing marker
pandas' object column holds (None from Arrow and constructors; NaN where pandas introduced it:
arithmetic, reindex, joins). The pandas-facing dtype is ``object``.
"""

from __future__ import annotations

import decimal
from types import ModuleType
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from ember.backend import asarray_on, to_host
from ember.column.base import Column, Unsupported

#: the most digits a decimal column holds (int64 holds every 18-digit unscaled integer)
MAX_PRECISION = 18


class DecimalColumn(Column):
    """``data``: int64 unscaled values (``value = data * 10**-scale``); ``scale`` >= 0; ``precision``
    the digits of the source type; ``na`` the missing value ``to_pandas`` gives (None or NaN)."""

    __slots__ = ("scale", "precision", "na")

    def __init__(
        self, data: Any, mask: Any = None, scale: int = 0, precision: int = MAX_PRECISION, na: Any = None
    ) -> None:
        super().__init__(data, mask)
        self.scale = int(scale)
        self.precision = int(precision)
        self.na = na

    @property
    def dtype(self) -> Any:
        return np.dtype(object)

    def _rebuild(self, data: Any, mask: Any) -> DecimalColumn:
        return DecimalColumn(data, mask, self.scale, self.precision, self.na)

    def set_missing(self, valid: Any) -> DecimalColumn:
        """Rows where ``valid`` is False made missing; pandas fills them with NaN (reindex, joins)
        and keeps the None of rows missing before: both in one column is refused (one marker per
        column). One sync where the column holds None."""
        out = super().set_missing(valid)
        if self.na is not None or self.mask is None:
            out.na = np.nan
            return out
        xp = self.xp
        introduced, held = to_host(xp.stack([(self.mask & ~valid).any(), (~self.mask).any()]))
        if introduced and held:
            raise Unsupported(
                "missing values introduced (NaN in pandas) beside a decimal column's own None values "
                "is not supported by ember (one missing marker per column)."
            )
        out.na = np.nan if introduced else None
        return out

    def with_na(self, na: Any) -> DecimalColumn:
        return DecimalColumn(self.data, self.mask, self.scale, self.precision, na)

    # --- conversions ---------------------------------------------------------------------------
    def _arrow128(self, precision: int) -> pa.Array:
        data = np.ascontiguousarray(to_host(self.data), dtype=np.int64)
        words = np.empty((len(data), 2), dtype=np.int64)  # little-endian int128: low word, sign word
        words[:, 0] = data
        words[:, 1] = data >> 63
        validity = None
        if self.mask is not None:
            validity = pa.py_buffer(np.packbits(to_host(self.mask), bitorder="little"))
        return pa.Array.from_buffers(
            pa.decimal128(precision, self.scale), len(data), [validity, pa.py_buffer(words)]
        )

    def to_arrow(self) -> pa.Array:
        return self._arrow128(max(self.precision, self.scale, 1) if self.precision <= 38 else 38)

    def to_numpy(self) -> np.ndarray:
        """Host object array of Decimal values (exponent ``-scale``) and the missing marker."""
        values = self._arrow128(38).to_numpy(zero_copy_only=False)
        if self.mask is not None and self.na is not None:
            values[~to_host(self.mask)] = self.na
        return values

    def to_pandas(self, index: Any = None, name: Any = None) -> pd.Series:
        return pd.Series(self.to_numpy(), index=index, name=name, dtype=object, copy=False)

    @classmethod
    def from_arrow(cls, arr: Any, xp: ModuleType, name: Any = None) -> DecimalColumn:
        """From a pyarrow decimal32/64/128/256 array of precision <= 18 (chunks combined)."""
        if isinstance(arr, pa.ChunkedArray):
            arr = arr.combine_chunks() if arr.num_chunks != 1 else arr.chunk(0)
        t = arr.type
        check_precision(t.precision, name, str(t))
        if t.scale < 0:
            raise Unsupported(f"column {name!r}: {t} has a negative scale; ember decimal columns do not")
        if not pa.types.is_decimal128(t):
            arr = arr.cast(pa.decimal128(t.precision, t.scale))
        n = len(arr)
        words = np.frombuffer(arr.buffers()[1], dtype=np.int64, count=2 * (arr.offset + n))
        data = words[2 * arr.offset :: 2].copy()  # precision <= 18: the low word is the value
        mask = None
        if arr.null_count:
            mask = np.asarray(arr.is_valid().to_numpy(zero_copy_only=False), dtype=bool)
            data[~mask] = 0
        return cls(asarray_on(data, xp), None if mask is None else asarray_on(mask, xp), t.scale, t.precision)


def check_precision(precision: int, name: Any, what: str) -> None:
    if precision > MAX_PRECISION:
        raise Unsupported(
            f"column {name!r}: {what} values of more than {MAX_PRECISION} digits (precision "
            f"{precision}) are not supported by ember decimal columns (int64); cast them to a "
            "smaller precision or to float64 first."
        )


def is_decimal(x: Any) -> bool:
    return isinstance(x, DecimalColumn)


def decimal_parts(d: decimal.Decimal) -> tuple[int, int] | None:
    """(unscaled integer, scale) of a finite Decimal with exponent <= 0, else None."""
    if not d.is_finite():
        return None
    sign, digits, exponent = d.as_tuple()
    if exponent > 0:
        return None
    unscaled = int("".join(map(str, digits)) or "0")
    return (-unscaled if sign else unscaled), -int(exponent)


def from_decimal_objects(
    a: np.ndarray, missing: np.ndarray, na: Any, xp: ModuleType, name: Any
) -> DecimalColumn:
    """A decimal column from an object array whose non-missing values are all ``Decimal``: finite, of
    one exponent (<= 0) and at most 18 digits; anything else is refused (pandas keeps the objects as
    they are, and a common exponent would change their ``str()``)."""
    values = a[~missing]
    if any(isinstance(v, decimal.Decimal) for v in a[missing]):
        raise Unsupported(
            f"column {name!r}: a NaN decimal.Decimal (pandas keeps it as the missing value) is not "
            "supported by ember decimal columns."
        )
    exponents = {v.as_tuple().exponent for v in values}
    if len(exponents) > 1 or any(not isinstance(e, int) or e > 0 for e in exponents):
        what = "different exponents" if len(exponents) > 1 else "infinite values or positive exponents"
        raise Unsupported(
            f"column {name!r}: decimal.Decimal values of {what} ({sorted(map(str, exponents))}) are not "
            "supported by ember decimal columns (one scale per column; normalising them would change "
            "their str()). Quantize them to one exponent first."
        )
    scale = -exponents.pop() if exponents else 0
    ints = [decimal_parts(v)[0] for v in values]  # type: ignore[index]
    if ints and max(abs(min(ints)), abs(max(ints))) >= 10**MAX_PRECISION:
        check_precision(max(len(str(abs(v))) for v in ints), name, "decimal.Decimal")
    data = np.zeros(len(a), dtype=np.int64)
    data[~missing] = np.asarray(ints, dtype=np.int64)
    mask = ~missing if missing.any() else None
    return DecimalColumn(
        asarray_on(data, xp), None if mask is None else asarray_on(mask, xp), scale, MAX_PRECISION, na
    )
