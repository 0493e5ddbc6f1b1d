"""Shared checks: which columns can hand their buffer to another library without a copy."""

from __future__ import annotations

from typing import Any

from ember.column import Column, NumericColumn


def exportable_data(col: Column, protocol: str) -> Any:
    """The array behind a numeric/bool column with no nulls, for zero-copy export through ``protocol``.

    Raises TypeError for other dtype families (their storage is not what their values mean: strings
    are offsets + bytes, datetimes int64 ticks, categoricals codes) and ValueError when the column has
    nulls, since the protocols have no validity mask. Synchronizes the device once when the column
    carries a mask (to learn whether any value is actually missing).
    """
    if not isinstance(col, NumericColumn):
        raise TypeError(
            f"{protocol}: only numeric and boolean columns can be shared zero-copy; this column has "
            f"dtype {col.dtype}. Convert it first (e.g. .astype('int64') for datetimes, .cat.codes for "
            "categoricals) or use the Arrow interface (__arrow_c_array__), which carries every dtype."
        )
    if col.mask is not None and not bool(col.mask.all()):
        raise ValueError(
            f"{protocol}: the column has missing values, which {protocol} cannot represent; fill them "
            "first with .fillna(value), or drop them with .dropna(), or use the Arrow interface "
            "(__arrow_c_array__), which carries a validity bitmap."
        )
    return col.data
